//! The reference's internals that its shared library exports and
//! `<sha1dc/sha1.h>` / `<sha1dc/ubc_check.h>` declare: the DV table
//! `sha1_dvs`, the filter `ubc_check`, the compression
//! `sha1_compression_states`, with the reference's types and conventions,
//! over [`sha1dc_wasm::raw`].

use core::ptr;

use sha1dc_wasm::raw::{self, DV_COUNT};

use crate::c_int;

/// `dv_info_t`: one disturbance vector, the reference's struct member for
/// member.
#[repr(C)]
pub struct DvInfo {
    dv_type: c_int,
    dv_k: c_int,
    dv_b: c_int,
    testt: c_int,
    maski: c_int,
    maskb: c_int,
    dm: [u32; 80],
}

/// The reference's table: the 32 DVs, then an entry of zeros (`dvType` 0
/// ends the table for a loop over it), 33 entries as in the reference, so
/// that a program's copy of it (a copy relocation) has the size it expects.
/// Read-only: the engine does not read it, and a write is a fault.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static sha1_dvs: [DvInfo; DV_COUNT + 1] = table();

const fn table() -> [DvInfo; DV_COUNT + 1] {
    const END: DvInfo = DvInfo {
        dv_type: 0,
        dv_k: 0,
        dv_b: 0,
        testt: 0,
        maski: 0,
        maskb: 0,
        dm: [0; 80],
    };
    let mut table = [END; DV_COUNT + 1];
    let mut i = 0;
    while i < DV_COUNT {
        let dv = raw::dv(i);
        table[i] = DvInfo {
            dv_type: dv.dv_type,
            dv_k: dv.k,
            dv_b: dv.b,
            testt: dv.test_step,
            // The mask is one word (DVMASKSIZE 1).
            maski: 0,
            maskb: dv.mask_bit,
            dm: dv.dm,
        };
        i += 1;
    }
    table
}

/// `ubc_check(W, dvmask)`: writes to `dvmask[0]` the DVs (bit `maskb`)
/// whose unavoidable bit conditions the expanded message `W` meets.
/// Nothing for NULL pointers.
///
/// # Safety
/// `w` is NULL or points to 80 words, `dvmask` NULL or to one writable word.
#[no_mangle]
pub unsafe extern "C" fn ubc_check(w: *const u32, dvmask: *mut u32) {
    if w.is_null() || dvmask.is_null() {
        return;
    }
    // SAFETY: 80 readable words, one writable, by the contract.
    unsafe { dvmask.write(raw::ubc_mask(&*w.cast::<[u32; 80]>())) };
}

/// `sha1_compression_states(ihv, m, W, states)`: compresses the block `m`
/// (its 64 bytes as they are in memory) into `ihv`, writing its expanded
/// message to `W` and the state before each step `t` to `states[t]`. The
/// reference fills only the states its build selects (58 and 65); this
/// library fills all 80, each in the reference's order: its unrolled steps
/// rename the variables instead of moving them, so before step `t` its
/// `a, b, c, d, e` hold the working state's words `t, t + 1, ... (mod 5)`.
/// Nothing for NULL pointers.
///
/// # Safety
/// Each pointer is NULL or points to its array: 5 words read and written,
/// 16 read, 80 written, 80 × 5 written.
#[no_mangle]
pub unsafe extern "C" fn sha1_compression_states(
    ihv: *mut u32,
    m: *const u32,
    w: *mut u32,
    states: *mut [u32; 5],
) {
    if ihv.is_null() || m.is_null() || w.is_null() || states.is_null() {
        return;
    }
    // SAFETY: 64 readable bytes (16 words).
    let block = unsafe { ptr::read(m.cast::<[u8; 64]>()) };
    let mut chain = [0u32; 5];
    // SAFETY: 5 readable words.
    unsafe { ptr::copy_nonoverlapping(ihv, chain.as_mut_ptr(), 5) };
    let (mut expanded, mut canonical) = ([0u32; 80], [[0u32; 5]; 80]);
    raw::compress_states(&mut chain, &block, &mut expanded, &mut canonical);
    for (t, state) in canonical.iter().enumerate() {
        let in_reference_order: [u32; 5] = core::array::from_fn(|j| state[(j + t) % 5]);
        // SAFETY: 80 writable states.
        unsafe { states.add(t).write(in_reference_order) };
    }
    // SAFETY: 80 writable words, 5 writable words.
    unsafe {
        ptr::copy_nonoverlapping(expanded.as_ptr(), w, 80);
        ptr::copy_nonoverlapping(chain.as_ptr(), ihv, 5);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_the_references_344_bytes() {
        assert_eq!(core::mem::size_of::<DvInfo>(), 344);
        assert_eq!(core::mem::size_of_val(&sha1_dvs), 33 * 344);
    }

    #[test]
    fn the_table_ends_with_zeros() {
        assert_eq!(sha1_dvs[DV_COUNT].dv_type, 0);
        assert!(sha1_dvs[..DV_COUNT].iter().all(|d| d.dv_type != 0));
    }
}
