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

/// This engine's batch (`hash_many_into`, one message per simd128 lane),
/// detection on or off, on messages of `k` blocks with their padding
/// (`64 * k - 9` bytes), as many as fit in `blocks` blocks, 64 at a time.
fn many(blocks_in: usize, k: usize, detect: bool) -> u32 {
    let data = blocks(blocks_in);
    let len = 64 * k - 9;
    let mut acc = 0u32;
    let mut out: [sha1dc_wasm::Outcome; 64] = core::array::from_fn(|_| Default::default());
    let messages: [&[u8]; 64] = core::array::from_fn(|i| {
        let at = (i * 64 * k).min(data.len());
        &data[at..(at + len).min(data.len())]
    });
    let total = blocks_in / k;
    let mut done = 0;
    while done < total {
        let n = (total - done).min(64);
        if sha1dc_wasm::Hasher::builder()
            .detect_collisions(detect)
            .hash_many_into(&messages[..n], &mut out[..n])
            .is_err()
        {
            core::arch::wasm32::unreachable()
        }
        acc = acc.wrapping_add(u32::from(out[0].digest().as_bytes()[0]));
        done += n;
    }
    acc
}

/// The batch on one-block messages (55 bytes each).
#[no_mangle]
pub extern "C" fn many_1_block(n: usize) -> u32 {
    many(n, 1, true)
}

/// The batch on two-block messages (119 bytes each: a 64-byte message takes two).
#[no_mangle]
pub extern "C" fn many_2_blocks(n: usize) -> u32 {
    many(n, 2, true)
}

/// The batch on 64-block messages (4,087 bytes each).
#[no_mangle]
pub extern "C" fn many_64_blocks(n: usize) -> u32 {
    many(n, 64, true)
}

/// The batch without detection on 64-block messages.
#[no_mangle]
pub extern "C" fn many_64_blocks_plain(n: usize) -> u32 {
    many(n, 64, false)
}
