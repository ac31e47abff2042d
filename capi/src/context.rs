//! What a `SHA1_CTX` is to C (the reference's struct, for its size and
//! alignment) and what this library keeps in it (a [`Context`]).

use core::mem::{ManuallyDrop, align_of, needs_drop, size_of};
use core::ptr;

use sha1dc_wasm::{CollisionBlock, Hasher, Outcome, raw};

use crate::c_int;

/// `collision_block_callback`: the byte offset of the block, the two input
/// chaining values (5 words each) and the two expanded messages (80 words
/// each), for one block detected as half of a collision.
pub type CollisionBlockCallback =
    unsafe extern "C" fn(u64, *const u32, *const u32, *const u32, *const u32);

/// The reference's `SHA1_CTX` (its lib/sha1.h), member for member, so
/// that every target's C ABI gives [`Sha1Ctx`] the size and alignment C
/// programs compiled against that header allocate. Never read.
#[repr(C)]
#[derive(Clone, Copy)]
#[allow(dead_code)]
struct ReferenceLayout {
    total: u64,
    ihv: [u32; 5],
    buffer: [u8; 64],
    found_collision: c_int,
    safe_hash: c_int,
    detect_coll: c_int,
    ubc_check: c_int,
    reduced_round_coll: c_int,
    callback: Option<CollisionBlockCallback>,
    ihv1: [u32; 5],
    ihv2: [u32; 5],
    m1: [u32; 80],
    m2: [u32; 80],
    states: [[u32; 5]; 80],
}

/// `SHA1_CTX`: the reference's layout, holding this library's `Context`.
#[repr(C)]
pub union Sha1Ctx {
    #[allow(dead_code)]
    reference: ReferenceLayout,
    context: ManuallyDrop<Context>,
}

// The context fits in the reference's struct, and is a plain value: C
// programs copy it with memcpy and drop it without telling anyone.
const _: () = assert!(size_of::<Sha1Ctx>() == size_of::<ReferenceLayout>());
const _: () = assert!(align_of::<Sha1Ctx>() == align_of::<ReferenceLayout>());
const _: () = assert!(!needs_drop::<Context>());

/// The tag [`Context::init`] writes first: a context without it was never
/// initialised (a zeroed one, say) and is initialised on first use.
const TAG: u64 = u64::from_le_bytes(*b"sha1dcRs");

/// One message's state, inside a `SHA1_CTX`.
#[repr(C)]
pub(crate) struct Context {
    tag: u64,
    callback: Option<CollisionBlockCallback>,
    /// Offset of the first block of the message not reported yet: each
    /// flagged block is reported once, though [`Context::finalize`] runs
    /// ahead of the context on a copy.
    reported_until: u64,
    pub(crate) hasher: Hasher,
}

impl Context {
    /// Writes a new context with `hasher` into `ctx` (nothing for NULL).
    ///
    /// # Safety
    /// `ctx` is NULL or points to a writable `SHA1_CTX`.
    pub(crate) unsafe fn init(ctx: *mut Sha1Ctx, hasher: Hasher) {
        if ctx.is_null() {
            return;
        }
        let context = ctx.cast::<Context>();
        // SAFETY: writable by the contract; the old contents are not read.
        // Field by field, so that the hasher is written in place.
        unsafe {
            ptr::addr_of_mut!((*context).tag).write(TAG);
            ptr::addr_of_mut!((*context).callback).write(None);
            ptr::addr_of_mut!((*context).reported_until).write(0);
            let at = ptr::addr_of_mut!((*context).hasher);
            at.write(hasher);
            // C reads only the digest: after a collision the safe hash's
            // chain alone goes on.
            raw::drop_plain_sha1(&mut *at);
        }
    }

    /// [`init`](Context::init) with the defaults, for a context used
    /// without `SHA1DCInit`: out of line, as that is rare.
    ///
    /// # Safety
    /// As [`init`](Context::init), `ctx` not NULL.
    #[cold]
    #[inline(never)]
    unsafe fn init_default(ctx: *mut Sha1Ctx) {
        // SAFETY: as this function's contract.
        unsafe { Context::init(ctx, Hasher::new()) };
    }

    /// `f` on the context in `ctx`, which is initialised with the defaults
    /// first if it never was; `None` for NULL.
    ///
    /// # Safety
    /// `ctx` is NULL or points to a `SHA1_CTX` that this library
    /// initialised (or that is a byte copy of one), or one without its tag.
    pub(crate) unsafe fn with<R>(
        ctx: *mut Sha1Ctx,
        f: impl FnOnce(&mut Context) -> R,
    ) -> Option<R> {
        if ctx.is_null() {
            return None;
        }
        let context = ctx.cast::<Context>();
        // SAFETY: a readable, aligned SHA1_CTX; any bytes are a valid u64.
        if unsafe { ptr::addr_of!((*context).tag).read() } != TAG {
            // SAFETY: as this function's contract.
            unsafe { Context::init_default(ctx) };
        }
        // SAFETY: tagged, so written by `init` (or copied from one that was).
        Some(f(unsafe { &mut *context }))
    }

    /// Reports the blocks detected from now on to `callback`; those already
    /// given are not (as in the reference, though this library may still
    /// hold the last of them back).
    pub(crate) fn set_callback(&mut self, callback: Option<CollisionBlockCallback>) {
        self.callback = callback;
        self.reported_until = self.hasher.len() & !63;
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        match self.callback {
            None => self.hasher.update(data),
            Some(callback) => {
                let reported_until = &mut self.reported_until;
                self.hasher.update_reporting(data, &mut |block| {
                    report(callback, reported_until, block, true);
                });
            }
        }
    }

    /// The outcome of the message so far: the context goes on as it was.
    pub(crate) fn finalize(&mut self) -> Outcome {
        match self.callback {
            None => raw::outcome_so_far(&self.hasher, None),
            Some(callback) => {
                // Blocks past the last whole one hold the padding, which a
                // message that goes on does not have: not remembered.
                let whole = self.hasher.len() & !63;
                let reported_until = &mut self.reported_until;
                raw::outcome_so_far(
                    &self.hasher,
                    Some(&mut |block: &CollisionBlock| {
                        report(callback, reported_until, block, block.offset() < whole);
                    }),
                )
            }
        }
    }
}

/// Calls `callback` for `block` unless it was reported before; `remember`
/// marks it reported.
fn report(
    callback: CollisionBlockCallback,
    reported_until: &mut u64,
    block: &CollisionBlock,
    remember: bool,
) {
    let offset = block.offset();
    if offset < *reported_until {
        return;
    }
    if remember {
        *reported_until = offset + 64;
    }
    let (chain, partner_chain) = (block.chain(), block.partner_chain());
    let (words, partner_words) = (block.words(), block.partner_words());
    // SAFETY: a function of this type, as SHA1DCSetCallback's caller
    // promised; the four arrays outlive the call.
    unsafe {
        callback(
            offset,
            chain.as_ptr(),
            partner_chain.as_ptr(),
            words.as_ptr(),
            partner_words.as_ptr(),
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_reference_layout_is_2400_bytes_aligned_8_on_x86_64() {
        assert_eq!((size_of::<Sha1Ctx>(), align_of::<Sha1Ctx>()), (2400, 8));
    }
}
