//! libdeflate (C, bundled by `libdeflate-sys`): the fastest inflater of a
//! pack's many small streams natively, and it says where a stream ended.

use std::ptr::NonNull;

use libdeflate_sys as sys;

use super::{InflateError, Raw};

/// One libdeflate decompressor.
pub(super) struct Libdeflate(NonNull<sys::libdeflate_decompressor>);

// SAFETY: the decompressor is plain memory owned by this value; libdeflate
// keeps no thread-local or global state for it.
unsafe impl Send for Libdeflate {}

impl Libdeflate {
    pub(super) fn new() -> Self {
        // SAFETY: FFI call without arguments; a null result is handled.
        let ptr = unsafe { sys::libdeflate_alloc_decompressor() };
        Libdeflate(NonNull::new(ptr).expect("libdeflate could not allocate a decompressor"))
    }
}

impl Raw for Libdeflate {
    fn raw(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        room: usize,
    ) -> Result<(usize, usize), InflateError> {
        debug_assert!(out.capacity() >= room && out.is_empty());
        let mut used = 0usize;
        let mut written = 0usize;
        // SAFETY: `input` is readable for its length and `out` writable for
        // `room` bytes (its capacity); libdeflate writes no more than that,
        // and reports in `written` how many it did write, all initialised.
        let result = unsafe {
            let r = sys::libdeflate_zlib_decompress_ex(
                self.0.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                room,
                &mut used,
                &mut written,
            );
            if r == sys::libdeflate_result_LIBDEFLATE_SUCCESS {
                out.set_len(written);
            }
            r
        };
        match result {
            sys::libdeflate_result_LIBDEFLATE_SUCCESS => Ok((used, written)),
            sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => {
                Err(InflateError::LongerThanDeclared {
                    declared: room as u64,
                })
            }
            _ => Err(InflateError::Damaged),
        }
    }
}

impl Drop for Libdeflate {
    fn drop(&mut self) {
        // SAFETY: allocated by libdeflate_alloc_decompressor, freed once.
        unsafe { sys::libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}
