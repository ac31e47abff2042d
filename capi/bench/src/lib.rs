//! The `sha1dc` crate behind the four calls git makes (`SHA1DCInit`,
//! `SHA1DCSetSafeHash`, `SHA1DCUpdate`, `SHA1DCFinal`): a stand-in
//! `libsha1detectcoll.so.1` for timing git against this peer through the
//! same C ABI (scripts/git-with-sha1dc.sh). A benchmark tool, not a library:
//! the other calls of the API are absent, and a safe-hash context is the
//! crate's `mitigate::Hasher`.
//!
//! SAFETY (every `unsafe` block): the caller passes a `SHA1_CTX` (2,400
//! bytes, aligned 8) that `SHA1DCInit` initialised, and buffers of the
//! stated lengths, as the C API requires.
#![allow(non_snake_case)]

use std::mem::{align_of, size_of};
use std::os::raw::{c_char, c_int};

/// What this shim keeps in a `SHA1_CTX`.
enum Context {
    Detect(sha1dc::Hasher),
    Mitigate(sha1dc::mitigate::Hasher),
}

/// The reference's `SHA1_CTX` on x86-64 and aarch64: 2,400 bytes, aligned 8.
#[repr(C, align(8))]
pub struct Sha1Ctx([u8; 2400]);

const _: () = assert!(size_of::<Context>() <= size_of::<Sha1Ctx>());
const _: () = assert!(align_of::<Context>() <= align_of::<Sha1Ctx>());

fn context<'a>(ctx: *mut Sha1Ctx) -> &'a mut Context {
    // SAFETY: initialised by SHA1DCInit.
    unsafe { &mut *ctx.cast::<Context>() }
}

/// A context with safe hash on (the reference's default).
///
/// # Safety
/// `ctx` points to a writable `SHA1_CTX`.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCInit(ctx: *mut Sha1Ctx) {
    let context = Context::Mitigate(sha1dc::mitigate::Hasher::new());
    // SAFETY: writable, large and aligned enough (checked above).
    unsafe { ctx.cast::<Context>().write(context) };
}

/// Safe hash on or off; only before the first byte (git calls it then).
///
/// # Safety
/// `ctx` was initialised by [`SHA1DCInit`].
#[no_mangle]
pub unsafe extern "C" fn SHA1DCSetSafeHash(ctx: *mut Sha1Ctx, on: c_int) {
    *context(ctx) = if on != 0 {
        Context::Mitigate(sha1dc::mitigate::Hasher::new())
    } else {
        Context::Detect(sha1dc::Hasher::new())
    };
}

/// # Safety
/// `ctx` was initialised by [`SHA1DCInit`]; `data` points to `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCUpdate(ctx: *mut Sha1Ctx, data: *const c_char, len: usize) {
    if len == 0 {
        return;
    }
    // SAFETY: `len` readable bytes.
    let data = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) };
    match context(ctx) {
        Context::Detect(h) => h.update(data),
        Context::Mitigate(h) => h.update(data),
    }
}

/// The digest of the message so far (the context goes on); 1 on a
/// detected collision.
///
/// # Safety
/// `ctx` was initialised by [`SHA1DCInit`]; `out` points to 20 bytes.
#[no_mangle]
pub unsafe extern "C" fn SHA1DCFinal(out: *mut u8, ctx: *mut Sha1Ctx) -> c_int {
    let (digest, collided) = match context(ctx) {
        Context::Detect(h) => match h.clone().finalize() {
            Ok(d) => (d, false),
            Err(c) => (c.digest(), true),
        },
        Context::Mitigate(h) => match h.clone().finalize() {
            Ok(d) => (d, false),
            Err(c) => (c.digest(), true),
        },
    };
    let bytes: [u8; 20] = digest.into();
    // SAFETY: 20 writable bytes.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, 20) };
    c_int::from(collided)
}
