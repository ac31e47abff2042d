//! The unavoidable-bit-condition filter, written once over a small vector
//! trait and instantiated per instruction set.
//!
//! A lane holds one block's message word, so a vector of N lanes filters N
//! blocks at once: the message expansion and the conditions depend only on
//! the message, never on the chaining value, so a batch of blocks can be
//! filtered ahead of (or beside) their compression.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
mod conditions;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(crate) mod neon;
pub(crate) mod portable;
#[cfg(target_arch = "wasm32")]
pub(crate) mod simd128;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2;
#[cfg(test)]
mod tests;

use crate::compress::Block;
use conditions::for_each_condition_group;

/// The highest message word any condition reads.
pub(crate) const LAST_WORD: usize = 64;

/// The operations the filter needs, on a vector of 32-bit lanes.
///
/// # Safety
/// Implementations for SIMD types call intrinsics of their instruction set:
/// callers must have checked the CPU supports it (the backend dispatch does).
pub(crate) trait Lanes: Copy {
    /// How many blocks one vector holds.
    const LANES: usize;
    /// Every lane `x`.
    unsafe fn splat(x: u32) -> Self;
    /// Lane-wise `a ^ b`.
    unsafe fn xor(self, o: Self) -> Self;
    /// Lane-wise `a | b`.
    unsafe fn or(self, o: Self) -> Self;
    /// Lane-wise `a & !b`.
    unsafe fn andnot(self, o: Self) -> Self;
    /// Lane-wise `a & b`.
    unsafe fn and(self, o: Self) -> Self;
    /// Lane-wise shift left by `N` (0..=31).
    unsafe fn shl<const N: i32>(self) -> Self;
    /// Lane-wise logical shift right by `N` (1..=31).
    unsafe fn shr<const N: i32>(self) -> Self;
    /// Lane-wise arithmetic shift right by 31: the top bit everywhere.
    unsafe fn sign(self) -> Self;
    /// Word `t` (0..16) of `LANES` blocks, big-endian, one block per lane.
    unsafe fn load16(blocks: &[Block]) -> [Self; 16];
    /// Writes the `LANES` lanes to `out[..LANES]`.
    unsafe fn store(self, out: &mut [u32]);
}

/// Message expansion up to the last word the conditions read.
#[inline(always)]
pub(crate) unsafe fn expand<V: Lanes>(m: [V; 16]) -> [V; LAST_WORD + 1] {
    // SAFETY (whole body): the caller guarantees V's instruction set.
    unsafe {
        let mut w = [V::splat(0); LAST_WORD + 1];
        w[..16].copy_from_slice(&m);
        // Written out word by word: constant indices, no loop, no bounds
        // checks (a rolled loop here cost as much as the conditions).
        macro_rules! words {
            ($($t:literal)*) => {$(
                let x = w[$t - 3].xor(w[$t - 8]).xor(w[$t - 14]).xor(w[$t - 16]);
                w[$t] = x.shl::<1>().or(x.shr::<31>());
            )*};
        }
        words!(16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39);
        words!(40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        const _: () = assert!(LAST_WORD == 64);
        w
    }
}

macro_rules! dv_mask_fn {
    ($($dvs:literal => [$(($t1:literal, $b1:literal, $t2:literal, $b2:literal, $differ:literal)),*];)*) => {
        /// The DVs (bit i = DV i) whose conditions every lane's block meets.
        #[inline(always)]
        pub(crate) unsafe fn dv_mask<V: Lanes>(w: &[V; LAST_WORD + 1]) -> V {
            // SAFETY (whole body): the caller guarantees V's instruction set.
            unsafe {
                let mut mask = V::splat(u32::MAX);
                $(
                    // In the top bit: `same` is set when the two bits of every
                    // "equal" condition agree; `differ` when those of every
                    // "differ" condition do not. No per-condition constant.
                    let mut same = V::splat(0);
                    let mut differ = V::splat(u32::MAX);
                    $(
                        let x = w[$t1].shl::<{ 31 - $b1 }>().xor(w[$t2].shl::<{ 31 - $b2 }>());
                        if $differ == 1 {
                            differ = differ.and(x);
                        } else {
                            same = same.or(x);
                        }
                    )*
                    // Lanes that break a condition lose this group's DVs.
                    let ok = differ.andnot(same).sign();
                    mask = mask.and(ok.or(V::splat(!$dvs)));
                )*
                mask
            }
        }
    };
}
for_each_condition_group!(dv_mask_fn);

/// Filters `blocks.len() == V::LANES` blocks: `out[i]` is block i's DV mask.
#[inline(always)]
pub(crate) unsafe fn masks<V: Lanes>(blocks: &[Block], out: &mut [u32]) {
    // SAFETY: the caller guarantees V's instruction set.
    unsafe {
        let w = expand(V::load16(blocks));
        dv_mask(&w).store(out);
    }
}

/// The filter for every backend: checks `blocks` in groups of `V::LANES`,
/// the remainder one by one with the portable form.
#[inline(always)]
pub(crate) unsafe fn masks_all<V: Lanes>(blocks: &[Block], out: &mut [u32]) {
    let mut i = 0;
    while i + V::LANES <= blocks.len() {
        // SAFETY: the caller guarantees V's instruction set.
        unsafe { masks::<V>(&blocks[i..i + V::LANES], &mut out[i..i + V::LANES]) };
        i += V::LANES;
    }
    for (block, m) in blocks[i..].iter().zip(&mut out[i..]) {
        // SAFETY: u32 lanes are plain integer arithmetic.
        unsafe { masks::<u32>(core::slice::from_ref(block), core::slice::from_mut(m)) };
    }
}
