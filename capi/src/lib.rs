//! libsha1detectcoll: the C API of sha1collisiondetection (`<sha1dc/sha1.h>`)
//! over [`sha1dc_wasm::Hasher`], so that git and every other program built
//! against that library links this one unchanged, and the extension header's
//! calls (`<sha1dc/sha1dc_ext.h>`: one-shot, batch, options at init).
//!
//! The headers in `include/` are the documentation C programmers read; this
//! file says how the Rust side keeps those promises:
//! - a `SHA1_CTX` is the reference's struct, member for member ([`Sha1Ctx`]),
//!   so the C compiler of every target gives it the reference's size and
//!   alignment; this library keeps a `Context` (a plain-value `Hasher`)
//!   inside it, checked at compile time to fit;
//! - it links like a C library: `no_std`, no allocation, nothing from the
//!   C library but `abort` and the `mem*` functions the compiler calls;
//! - no call unwinds into C: built with `panic = "abort"` (checked below),
//!   its own panic handler aborts the process (a hash library has no right
//!   answer to give after an internal error), so there is no unwinder, no
//!   landing pad and no personality routine to link;
//! - NULL pointers the reference would crash on are caught where that is
//!   one comparison.
//!
//! SAFETY (every `unsafe` block of this crate): the caller's pointers are
//! taken at the word of the C API (a `SHA1_CTX` initialised by this
//! library or zeroed, buffers of the stated length); each block says which
//! pointer it relies on.
// The unit tests run in std's test harness.
#![cfg_attr(not(test), no_std)]
#![deny(missing_docs, unsafe_op_in_unsafe_fn)]
// The exported names are the reference's.
#![allow(non_snake_case, non_camel_case_types)]

mod context;
mod ext;
// In the test harness, std's.
#[cfg(not(test))]
mod panic;
mod raw;

pub use context::{CollisionBlockCallback, Sha1Ctx};
pub use ext::{SHA1DCHash, SHA1DCHashMany, SHA1DCInitWithOptions};
pub use raw::{DvInfo, sha1_compression_states, sha1_dvs, ubc_check};

use context::Context;

/// C's `int` and `unsigned int`: 32 bits on every target with a C library
/// this one could stand in for (`core::ffi` names them from Rust 1.64).
type c_int = i32;
type c_uint = u32;

/// The `len` bytes at `data`; an empty slice for length 0 (whatever the
/// pointer, NULL included), `None` for NULL with a length.
///
/// # Safety
/// Unless NULL, `data` points to `len` readable bytes.
unsafe fn bytes<'a>(data: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        Some(&[])
    } else if data.is_null() {
        None
    } else {
        // SAFETY: non-NULL, `len` readable bytes by the contract.
        Some(unsafe { core::slice::from_raw_parts(data, len) })
    }
}

/// Starts a new message with the defaults: detection, safe hash and the
/// filter on, reduced-round detection off, no callback.
///
/// # Safety
/// `ctx` is NULL or points to a writable `SHA1_CTX`.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCInit(ctx: *mut Sha1Ctx) {
    // SAFETY: NULL or a writable SHA1_CTX.
    unsafe { Context::init(ctx, sha1dc_wasm::Hasher::new()) };
}

/// Safe hash on or off (default on): a detected collision block is
/// compressed three times in all.
///
/// # Safety
/// `ctx` is NULL or a `SHA1_CTX` initialised by this library or zeroed.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCSetSafeHash(ctx: *mut Sha1Ctx, on: c_int) {
    // SAFETY: as the function's contract.
    unsafe { Context::with(ctx, |c| c.hasher.set_safe_hash(on != 0)) };
}

/// The unavoidable-bit-condition filter on or off (default on); the
/// results never depend on it.
///
/// # Safety
/// As [`SHA1DCSetSafeHash`].
#[no_mangle]
pub unsafe extern "C" fn SHA1DCSetUseUBC(ctx: *mut Sha1Ctx, on: c_int) {
    // SAFETY: as the function's contract.
    unsafe { Context::with(ctx, |c| c.hasher.set_use_filter(on != 0)) };
}

/// Collision detection on or off (default on); off, the hash is plain SHA-1.
///
/// # Safety
/// As [`SHA1DCSetSafeHash`].
#[no_mangle]
pub unsafe extern "C" fn SHA1DCSetUseDetectColl(ctx: *mut Sha1Ctx, on: c_int) {
    // SAFETY: as the function's contract.
    unsafe { Context::with(ctx, |c| c.hasher.set_detect_collisions(on != 0)) };
}

/// Reduced-round collision detection on or off (default off).
///
/// # Safety
/// As [`SHA1DCSetSafeHash`].
#[no_mangle]
pub unsafe extern "C" fn SHA1DCSetDetectReducedRoundCollision(ctx: *mut Sha1Ctx, on: c_int) {
    // SAFETY: as the function's contract.
    unsafe { Context::with(ctx, |c| c.hasher.set_reduced_round(on != 0)) };
}

/// The function called for each block detected from now on (NULL: none).
///
/// # Safety
/// As [`SHA1DCSetSafeHash`]; `callback` is NULL or a function of that type.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCSetCallback(
    ctx: *mut Sha1Ctx,
    callback: Option<CollisionBlockCallback>,
) {
    // SAFETY: as the function's contract.
    unsafe { Context::with(ctx, |c| c.set_callback(callback)) };
}

/// Adds `len` bytes at `data` to the message.
///
/// # Safety
/// As [`SHA1DCSetSafeHash`]; `data` is NULL or points to `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCUpdate(ctx: *mut Sha1Ctx, data: *const u8, len: usize) {
    // SAFETY: NULL or `len` readable bytes.
    if let Some(data) = unsafe { bytes(data, len) } {
        // SAFETY: as the function's contract.
        unsafe { Context::with(ctx, |c| c.update(data)) };
    }
}

/// Writes the digest of the message so far to `out` (20 bytes) and returns
/// 1 when a collision was detected in it, else 0; the context is left as it
/// was, so the message can go on.
///
/// # Safety
/// As [`SHA1DCSetSafeHash`]; `out` is NULL or points to 20 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCFinal(out: *mut u8, ctx: *mut Sha1Ctx) -> c_int {
    // SAFETY: as the function's contract.
    match unsafe { Context::with(ctx, |c| c.finalize()) } {
        Some(outcome) => {
            // SAFETY: NULL or 20 writable bytes.
            unsafe { write_digest(out, &outcome) };
            c_int::from(outcome.collision().is_some())
        }
        None => 0,
    }
}

/// Copies the digest of `outcome` to `out` unless it is NULL.
///
/// # Safety
/// `out` is NULL or points to 20 writable bytes.
unsafe fn write_digest(out: *mut u8, outcome: &sha1dc_wasm::Outcome) {
    if !out.is_null() {
        let digest = outcome.digest().to_bytes();
        // SAFETY: 20 writable bytes by the contract; a local source.
        unsafe { core::ptr::copy_nonoverlapping(digest.as_ptr(), out, digest.len()) };
    }
}
