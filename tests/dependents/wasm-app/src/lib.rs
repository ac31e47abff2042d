//! A wasm32 module with one export of its own.

/// The first byte of the SHA-1 of `len` bytes at `ptr`, 256 when flagged.
///
/// # Safety
/// `ptr..ptr + len` must be readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn app_hash(ptr: *const u8, len: usize) -> u32 {
    // SAFETY: the caller passes a readable range.
    let data = unsafe { std::slice::from_raw_parts(ptr, len) };
    let outcome = sha1dc_wasm::hash(data);
    if outcome.collision().is_some() {
        256
    } else {
        u32::from(outcome.digest().as_bytes()[0])
    }
}
