//! The engine alone in wasm: each export hashes the first `blocks` 64-byte
//! blocks of one static buffer, so that engine.mjs times the hashing without
//! any crossing but the call. Two builds of this module (before and after a
//! change) can be loaded side by side.
#![no_std]

use sha1::Digest as _;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

const SIZE: usize = 1 << 20;
static mut INPUT: [u8; SIZE] = [0; SIZE];

/// The input buffer (1 MiB), which engine.mjs fills.
#[no_mangle]
pub extern "C" fn input() -> *mut u8 {
    core::ptr::addr_of_mut!(INPUT).cast()
}

fn blocks(blocks: usize) -> &'static [u8] {
    // SAFETY: INPUT is only written by JavaScript between calls.
    let all: &'static [u8; SIZE] = unsafe { &*core::ptr::addr_of!(INPUT) };
    &all[..(blocks * 64).min(SIZE)]
}

fn with_backend(name: &str, n: usize) -> u32 {
    match sha1dc_wasm::Hasher::builder().backend(name) {
        Ok(b) => u32::from(b.hash(blocks(n)).digest().as_bytes()[0]),
        Err(_) => core::arch::wasm32::unreachable(),
    }
}

/// This engine, its default backend (simd128).
#[no_mangle]
pub extern "C" fn sha1dc_wasm(n: usize) -> u32 {
    with_backend("simd128", n)
}

/// This engine, the portable backend (the filter ahead on simd128 lanes).
#[no_mangle]
pub extern "C" fn sha1dc_wasm_portable(n: usize) -> u32 {
    with_backend("portable", n)
}

/// This engine without detection: its plain rounds.
#[no_mangle]
pub extern "C" fn sha1dc_wasm_plain(n: usize) -> u32 {
    let h = sha1dc_wasm::Hasher::builder().detect_collisions(false).hash(blocks(n));
    u32::from(h.digest().as_bytes()[0])
}

/// The `sha1` crate (plain SHA-1, its soft backend).
#[no_mangle]
pub extern "C" fn sha1_crate(n: usize) -> u32 {
    u32::from(sha1::Sha1::digest(blocks(n))[0])
}

/// The `sha1dc` crate (detection, scalar).
#[no_mangle]
pub extern "C" fn sha1dc_crate(n: usize) -> u32 {
    match sha1dc::digest(blocks(n)) {
        Ok(d) => u32::from(d.as_bytes()[0]),
        Err(c) => u32::from(c.digest().as_bytes()[0]),
    }
}
