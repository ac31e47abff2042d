//! The calls of `<sha1dc/sha1dc_ext.h>`, beyond the reference's API: a
//! context initialised with options in one call, one-shot hashing, and the
//! batch (many messages, one per vector lane).

use core::ffi::c_void;

use sha1dc_wasm::{Builder, Hasher, Outcome};

use crate::context::{Context, Sha1Ctx};
use crate::{bytes, c_int, c_uint, write_digest};

/// `SHA1DC_OPT_NO_SAFE_HASH`: the plain SHA-1 even for a detected collision.
const NO_SAFE_HASH: c_uint = 1;
/// `SHA1DC_OPT_NO_FILTER` (alias `SHA1DC_OPT_NO_UBC`): no filter (every
/// block recompressed; for tests).
const NO_FILTER: c_uint = 2;
/// `SHA1DC_OPT_NO_DETECT_COLL`: plain SHA-1, at its full speed.
const NO_DETECT_COLL: c_uint = 4;
/// `SHA1DC_OPT_REDUCED_ROUND`: also detect reduced-round collisions.
const REDUCED_ROUND: c_uint = 8;
const ALL_OPTIONS: c_uint = NO_SAFE_HASH | NO_FILTER | NO_DETECT_COLL | REDUCED_ROUND;

/// The builder for `options` (0: the defaults), `None` for unknown bits.
fn builder(options: c_uint) -> Option<Builder> {
    if options & !ALL_OPTIONS != 0 {
        return None;
    }
    let off = |bit: c_uint| options & bit == 0;
    let builder = Hasher::builder()
        .safe_hash(off(NO_SAFE_HASH))
        .use_filter(off(NO_FILTER))
        .detect_collisions(off(NO_DETECT_COLL))
        .reduced_round(!off(REDUCED_ROUND));
    Some(builder)
}

/// `SHA1DCInit` with `options`: 0, or -1 for unknown option bits (the
/// context then has the defaults).
///
/// # Safety
/// `ctx` is NULL or points to a writable `SHA1_CTX`.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCInitWithOptions(ctx: *mut Sha1Ctx, options: c_uint) -> c_int {
    let builder = builder(options);
    let hasher = builder.unwrap_or_default().build();
    // SAFETY: NULL or a writable SHA1_CTX.
    unsafe { Context::init(ctx, hasher) };
    if builder.is_some() { 0 } else { -1 }
}

/// The digest of the `len` bytes at `data` into `out`: 1 when a collision
/// was detected, 0 when not, -1 (nothing written) for unknown options or a
/// NULL pointer the call needs.
///
/// # Safety
/// `out` is NULL or points to 20 writable bytes; `data` is NULL or points
/// to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCHash(
    out: *mut u8,
    data: *const c_void,
    len: usize,
    options: c_uint,
) -> c_int {
    // SAFETY: NULL or `len` readable bytes.
    let data = unsafe { bytes(data.cast(), len) };
    match (builder(options), data) {
        (Some(builder), Some(data)) if !out.is_null() => {
            let outcome = builder.hash(data);
            // SAFETY: 20 writable bytes.
            unsafe { write_digest(out, &outcome) };
            c_int::from(outcome.collision().is_some())
        }
        _ => -1,
    }
}

/// Messages per call of the batch: their slices and outcomes live on the
/// stack (about 20 KiB), so the batch allocates nothing.
const CHUNK: usize = 256;

/// Hashes `count` messages (`data[i]`, `lens[i]` bytes) into `out[i]`,
/// and, unless `collisions` is NULL, `collisions[i]` (1 or 0). Returns 1
/// when any message had a collision, else 0; -1 (nothing written) for
/// unknown options or a NULL pointer the call needs.
///
/// # Safety
/// For `count` > 0: `data` and `lens` point to `count` entries, each
/// `data[i]` NULL or pointing to `lens[i]` readable bytes; `out` to
/// `count` digests; `collisions` is NULL or points to `count` ints.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCHashMany(
    out: *mut [u8; 20],
    collisions: *mut c_int,
    data: *const *const c_void,
    lens: *const usize,
    count: usize,
    options: c_uint,
) -> c_int {
    let builder = match builder(options) {
        Some(builder) => builder,
        None => return -1,
    };
    if count == 0 {
        return 0;
    }
    if out.is_null() || data.is_null() || lens.is_null() {
        return -1;
    }
    // SAFETY: `count` entries each, by the contract.
    let (data, lens) = unsafe {
        (
            core::slice::from_raw_parts(data, count),
            core::slice::from_raw_parts(lens, count),
        )
    };
    if data.iter().zip(lens).any(|(d, &n)| d.is_null() && n > 0) {
        return -1;
    }
    let mut any = false;
    let mut messages: [&[u8]; CHUNK] = [&[]; CHUNK];
    let mut outcomes = [Outcome::default(); CHUNK];
    for start in (0..count).step_by(CHUNK) {
        let n = CHUNK.min(count - start);
        for (i, m) in messages[..n].iter_mut().enumerate() {
            // SAFETY: NULL only with length 0 (checked above), else
            // `lens[i]` readable bytes.
            *m = unsafe { bytes(data[start + i].cast(), lens[start + i]) }.unwrap_or(&[]);
        }
        if builder
            .hash_many_into(&messages[..n], &mut outcomes[..n])
            .is_err()
        {
            return -1;
        }
        for (i, outcome) in outcomes[..n].iter().enumerate() {
            let collided = outcome.collision().is_some();
            any |= collided;
            // SAFETY: `count` digests; `count` ints unless NULL.
            unsafe {
                out.add(start + i).write(outcome.digest().to_bytes());
                if !collisions.is_null() {
                    collisions.add(start + i).write(c_int::from(collided));
                }
            }
        }
    }
    c_int::from(any)
}
