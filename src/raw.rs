//! The pieces of the engine that the reference's shared library also
//! exports (`sha1_dvs`, `ubc_check`, `sha1_compression_states`), as plain
//! functions over this crate's DV table, filter and compression, for the C
//! library (capi/) to export with the reference's types, and what the C
//! library asks of a hasher that the Rust API does not offer. Not part of
//! the Rust API: hidden, and free to change with the C library.

use crate::Hasher;
use crate::block::{InOrder, expand};
use crate::compress::step;
use crate::dv::{DVS, DvKind};
use crate::filter::per_block::Windows4;

/// The outcome of `hasher`'s message so far, the hasher left as it is (a
/// message that goes on after it), calling `report` for each flagged block
/// the end compresses: the reference's `SHA1DCFinal` as the C library keeps
/// it, without a copy of the whole hasher.
pub fn outcome_so_far(
    hasher: &Hasher,
    report: Option<&mut dyn FnMut(&crate::CollisionBlock)>,
) -> crate::Outcome {
    hasher
        .engine
        .outcome_so_far(&mut crate::record::Reporter(report))
}

/// Drops the plain SHA-1 chain that `hasher` would keep beside the safe
/// hash's after a collision, for callers that never read it (the
/// reference's API has no plain SHA-1): a flagged message then costs no
/// second compression per block, and its [`Outcome::sha1`](crate::Outcome::sha1)
/// is the safe hash.
pub fn drop_plain_sha1(hasher: &mut Hasher) {
    hasher.engine.change_config(|c| c.keep_sha1 = false);
}

/// The number of disturbance vectors in [`dv`]'s table.
pub const DV_COUNT: usize = DVS.len();

/// One disturbance vector as the reference's table (`dv_info_t`) lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DvFields {
    /// 1 for type I, 2 for type II.
    pub dv_type: i32,
    /// K.
    pub k: i32,
    /// B.
    pub b: i32,
    /// The step the recompression starts from (58 or 65).
    pub test_step: i32,
    /// The DV's bit in [`ubc_mask`]'s mask.
    pub mask_bit: i32,
    /// The message difference of the partner block, word by word.
    pub dm: [u32; 80],
}

/// Disturbance vector `index` (below [`DV_COUNT`]), in the order the
/// reference checks them; a `const fn`, so that a static table can be
/// built from it.
pub const fn dv(index: usize) -> DvFields {
    let dv = &DVS[index];
    DvFields {
        dv_type: match dv.kind {
            DvKind::I => 1,
            DvKind::II => 2,
        },
        k: dv.k as i32,
        b: dv.b as i32,
        test_step: dv.test_step as i32,
        mask_bit: index as i32,
        dm: dv.dm,
    }
}

/// The unavoidable-bit-condition filter on one expanded message `w`: bit
/// `i` is set when every condition of DV `i` holds (the DVs the
/// recompression must test).
pub fn ubc_mask(w: &[u32; 80]) -> u32 {
    // SAFETY: u32 lanes are plain integer arithmetic, on every CPU.
    unsafe { Windows4::mask::<u32, _>(&InOrder(*w)) }
}

/// Compresses `block` into `chain`, keeping its expanded message in `w`
/// and the working state `a, b, c, d, e` before each step `t` in
/// `states[t]`.
pub fn compress_states(
    chain: &mut [u32; 5],
    block: &[u8; 64],
    w: &mut [u32; 80],
    states: &mut [[u32; 5]; 80],
) {
    *w = expand(block);
    let mut s = *chain;
    for (t, state) in states.iter_mut().enumerate() {
        *state = s;
        step(t, &mut s, w[t]);
    }
    for (h, x) in chain.iter_mut().zip(s) {
        *h = h.wrapping_add(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::IV;

    #[test]
    fn the_table_is_the_engines() {
        let dv = dv(27);
        assert_eq!(
            (dv.dv_type, dv.k, dv.b, dv.test_step, dv.mask_bit),
            (2, 52, 0, 65, 27)
        );
        assert_eq!(dv.dm, DVS[27].dm);
    }

    #[test]
    fn compress_states_is_the_compression_and_its_states() {
        let block: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(37));
        let (mut chain, mut w, mut states) = (IV, [0; 80], [[0; 5]; 80]);
        compress_states(&mut chain, &block, &mut w, &mut states);
        let mut want = IV;
        crate::compress::compress_expanded(&mut want, &expand(&block));
        assert_eq!((chain, w), (want, expand(&block)));
        assert_eq!(states[0], IV);
        let mut s = states[64];
        step(64, &mut s, w[64]);
        assert_eq!(s, states[65]);
    }

    #[test]
    fn without_the_plain_sha1_the_digest_and_report_are_the_same() {
        let prefix = include_bytes!("../tests/data/shattered-1.prefix320.bin");
        let tail: std::vec::Vec<u8> = (0..100_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        for backend in crate::available_backends() {
            let mut kept = Hasher::builder().backend(backend).unwrap().build();
            let mut dropped = kept.clone();
            drop_plain_sha1(&mut dropped);
            for h in [&mut kept, &mut dropped] {
                h.update(prefix);
                h.update(&tail);
            }
            let (kept, dropped) = (kept.finalize(), dropped.finalize());
            assert!(kept.collision().is_some(), "{backend}");
            assert_ne!(kept.sha1(), kept.digest(), "{backend}");
            assert_eq!(dropped.digest(), kept.digest(), "{backend}");
            assert_eq!(dropped.collision(), kept.collision(), "{backend}");
            assert_eq!(dropped.sha1(), dropped.digest(), "{backend}");
        }
    }
}
