//! The vector of 32-bit lanes the filter and the multi-lane compression are
//! written over; one implementation per instruction set, beside the filter
//! (src/filter/scalar.rs, swar.rs, sse2.rs, avx2.rs, avx512.rs, neon.rs,
//! simd128.rs). A leaf: `compress` and `filter` both use it, neither uses
//! the other.

use crate::block::Block;

/// A vector of 32-bit lanes: the operations the filter (src/filter) and
/// the multi-lane compression (src/compress/lanes.rs) are written over, once.
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
    /// The `LANES` words of `src[..LANES]`, one per lane.
    unsafe fn load(src: &[u32]) -> Self;
    /// Lane-wise wrapping `a + b` (the multi-buffer compression, src/batch.rs).
    unsafe fn add(self, o: Self) -> Self;
    /// Lane-wise `a == b`: every bit set where the lanes are equal, none
    /// where they differ.
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe {
            // d + 0x7fffffff sets the top bit of every non-zero d below
            // 2^31; or-ing d covers the rest.
            let d = self.xor(o);
            Self::splat(u32::MAX).xor(d.or(d.add(Self::splat(0x7fff_ffff))).sign())
        }
    }
    /// The `LANES` lanes or-ed together.
    #[inline(always)]
    unsafe fn or_lanes(self) -> u32 {
        let mut out = [0u32; 16];
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.store(&mut out) };
        out[..Self::LANES].iter().fold(0, |a, x| a | x)
    }
    /// Lane-wise shift left by `N` when only the top bit of each lane is
    /// read afterwards (the conditions): a form may leave the lower bits
    /// dirty if that is cheaper.
    #[inline(always)]
    unsafe fn shl_top<const N: i32>(self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.shl::<N>() }
    }

    // Compound operations, written with the ones above; an instruction set
    // with three-input logic or rotates (AVX-512) does each in fewer.

    /// An expansion word: `(a ^ b ^ c ^ d) <<< 1`.
    #[inline(always)]
    unsafe fn expand_word(a: Self, b: Self, c: Self, d: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe {
            let x = a.xor(b).xor(c).xor(d);
            x.shl::<1>().or(x.shr::<31>())
        }
    }
    /// Lane-wise rotate left by 5.
    #[inline(always)]
    unsafe fn rotl5(self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.shl::<5>().or(self.shr::<27>()) }
    }
    /// Lane-wise rotate left by 30.
    #[inline(always)]
    unsafe fn rotl30(self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.shl::<30>().or(self.shr::<2>()) }
    }
    /// SHA-1's choice, `(b & c) | (!b & d)`, as `d ^ (b & (c ^ d))`.
    #[inline(always)]
    unsafe fn choose(b: Self, c: Self, d: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { d.xor(b.and(c.xor(d))) }
    }
    /// SHA-1's parity, `b ^ c ^ d`.
    #[inline(always)]
    unsafe fn parity(b: Self, c: Self, d: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { b.xor(c).xor(d) }
    }
    /// SHA-1's majority, `(b & c) | (d & (b | c))`.
    #[inline(always)]
    unsafe fn majority(b: Self, c: Self, d: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { b.and(c).or(d.and(b.or(c))) }
    }
    /// `self | (a ^ b)`.
    #[inline(always)]
    unsafe fn or_xor(self, a: Self, b: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.or(a.xor(b)) }
    }
    /// `self & (a ^ b)`.
    #[inline(always)]
    unsafe fn and_xor(self, a: Self, b: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.and(a.xor(b)) }
    }
    /// The mask `self` less the DVs `dvs` in the lanes where a condition
    /// broke: where the top bit of `same` is set or that of `differ` clear.
    #[inline(always)]
    unsafe fn drop_dvs(self, same: Self, differ: Self, dvs: u32) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe {
            let ok = differ.andnot(same).sign();
            self.and(ok.or(Self::splat(!dvs)))
        }
    }
}
