//! Uses the library from `no_std` code, without allocation.
#![no_std]

/// The hex digest of `data`, in a stack buffer.
pub fn hex(data: &[u8]) -> [u8; 40] {
    sha1dc_wasm::hash(data).digest().to_hex()
}
