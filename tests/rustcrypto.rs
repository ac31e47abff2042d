//! The `digest` feature tested the way RustCrypto tests its own hashes: the
//! `sha1` crate's known answers through `digest::dev::fixed_reset_test`
//! (whole message, after reset, in chunks of 1 to 16 bytes, finalize and
//! finalize_reset), its 16 MiB pseudo-random stream, then what is this
//! crate's own: the trait output is the safe hash on a collision.

use digest::dev::{feed_rand_16mib, fixed_reset_test};
use hex_literal::hex;
use sha1dc_wasm::Hasher;
// The re-export is the very crate the helpers above come from.
use sha1dc_wasm::digest::{Digest, DynDigest, FixedOutputReset, Update};

digest::new_test!(sha1_kat, Hasher, fixed_reset_test);

#[test]
fn sha1_rand() {
    let mut h = Hasher::new();
    feed_rand_16mib(&mut h);
    assert_eq!(
        Digest::finalize(h)[..],
        hex!("7e565a25a8b123e9881addbcedcd927b23377a78")
    );
}

/// A generic function over `D: Digest`, as library code is written.
fn digest_of<D: Digest>(data: &[u8]) -> Vec<u8> {
    let mut d = D::new();
    Digest::update(&mut d, data);
    d.finalize().to_vec()
}

#[test]
fn generic_code_gets_the_safe_hash() {
    let pdf = include_bytes!("data/shattered-1.prefix320.bin");
    let outcome = sha1dc_wasm::hash(pdf);
    assert!(outcome.collision().is_some());
    assert_eq!(digest_of::<Hasher>(pdf), outcome.digest().as_ref());
    assert_ne!(digest_of::<Hasher>(pdf), outcome.sha1().as_ref());
    // Same as the sha1 crate on everything else.
    assert_eq!(
        digest_of::<Hasher>(b"abc"),
        digest_of::<sha1_011::Sha1>(b"abc")
    );
    assert_eq!(
        <Hasher as Digest>::digest(b"abc")[..],
        hex!("a9993e364706816aba3e25717850c26c9cd0d89d")
    );
    assert_eq!(<Hasher as Digest>::output_size(), 20);
}

#[test]
fn options_survive_the_trait_path() {
    let pdf = include_bytes!("data/shattered-1.prefix320.bin");
    let mut plain = Hasher::builder().safe_hash(false).build();
    Update::update(&mut plain, pdf);
    let out = FixedOutputReset::finalize_fixed_reset(&mut plain);
    assert_eq!(out[..], sha1dc_wasm::hash(pdf).sha1().as_bytes()[..]);
    // Reset keeps the options.
    Update::update(&mut plain, pdf);
    assert_eq!(plain.finalize().digest(), sha1dc_wasm::hash(pdf).sha1());
}

#[test]
fn dyn_digest_and_the_outcome() {
    let mut boxed: Box<dyn DynDigest> = Box::new(Hasher::new());
    boxed.update(b"abc");
    assert_eq!(
        boxed.finalize_reset()[..],
        hex!("a9993e364706816aba3e25717850c26c9cd0d89d")
    );

    // With the traits in scope, the inherent finalize still reports.
    let mut h = Hasher::new();
    h.update(include_bytes!("data/sha-mbles-1.bin"));
    let outcome = h.finalize();
    assert_eq!(outcome.collision().map(|c| c.offset()), Some(576));
    let as_output: digest::Output<Hasher> = outcome.digest().into();
    assert_eq!(as_output[..], outcome.digest().as_bytes()[..]);
}

/// `DynDigest` as advertised, through the re-export: boxed, cloned with
/// `box_clone`, finished with `finalize` (digest's `alloc`, which the
/// `std` feature turns on).
#[test]
fn dyn_digest_through_the_reexport() {
    let mut boxed: Box<dyn DynDigest> = Box::new(Hasher::new());
    DynDigest::update(boxed.as_mut(), b"ab");
    let mut copy = boxed.box_clone();
    DynDigest::update(boxed.as_mut(), b"c");
    assert_eq!(
        boxed.finalize()[..],
        sha1dc_wasm::hash(b"abc").digest().as_bytes()[..]
    );
    DynDigest::update(copy.as_mut(), b"x");
    assert_eq!(
        copy.finalize_reset()[..],
        sha1dc_wasm::hash(b"abx").digest().as_bytes()[..]
    );
    assert_eq!(copy.output_size(), 20);
}
