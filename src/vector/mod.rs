//! The vector of 32-bit lanes the filter and the compression of one block
//! per lane are written over ([`Vector`]), its implementations, one file per
//! instruction set (memchr's layout). Which one runs is the platform's
//! choice (src/platform: `Platform::run_on_vectors`).
//!
//! | file | type | lanes |
//! |---|---|---|
//! | scalar.rs | `u32` | 1 |
//! | swar.rs | `u64` (two lanes in a register) | 2 |
//! | x86_64/sse2.rs | `__m128i` | 4 |
//! | x86_64/avx2.rs | `__m256i` | 8 |
//! | x86_64/avx512.rs | `__m512i`, and `Vl128` for short remainders | 16 |
//! | neon.rs | `uint32x4_t` (little-endian aarch64) | 4 |
//! | simd128.rs | `v128` (wasm32 built with simd128) | 4 |
//!
//! x86_64/avx512.rs is built by compilers that have its intrinsics
//! (`sha1dc_avx512`, set by build.rs).

#[cfg(sha1dc_neon)]
mod neon;
mod scalar;
#[cfg(sha1dc_simd128)]
pub(crate) mod simd128;
mod swar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

use crate::block::Block;

/// A vector of 32-bit lanes: the operations the filter (src/filter) and
/// the compression of one message per lane (src/compress/lanes.rs) are
/// written over, once.
///
/// # Safety
/// Implementations for SIMD types call intrinsics of their instruction set:
/// callers must have checked the CPU supports it (`Platform::run_on_vectors` does).
pub(crate) trait Vector: Copy {
    /// How many lanes (blocks, or messages) one vector holds.
    const LANES: usize;
    /// The vector for a remainder of at most its `LANES` blocks, where that
    /// costs less than a padded pass of this one (`Self` where none does).
    type Narrow: Vector;
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
    /// [`load`](Self::load) of a constant, `zero` from
    /// [`opaque_zero`](Self::opaque_zero): where the compiler folds
    /// constants into the code, the constant itself.
    #[inline(always)]
    unsafe fn load_constant(src: &'static [u32], zero: usize) -> Self {
        let _ = zero;
        // SAFETY: the caller guarantees the instruction set.
        unsafe { Self::load(src) }
    }
    /// Zero, for [`load_constant`](Self::load_constant): read once per
    /// use of a filter's table.
    #[inline(always)]
    fn opaque_zero() -> usize {
        0
    }
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
    /// `self` with the bits of `k` added in the lanes where
    /// `(near ^ far) & m != e`: one entry of the per-block filter
    /// (src/filter/per_block.rs), `self` the DVs it ruled out so far.
    #[inline(always)]
    unsafe fn kill_unless(self, near: Self, far: Self, m: Self, e: Self, k: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.or(k.andnot(near.xor(far).and(m).eq(e))) }
    }
    /// [`kill_unless`](Self::kill_unless) where each lane of `m` has at
    /// most one bit, and `k` none where `m` has none, given `flip = m ^ e`:
    /// then `(near ^ far) & m != e` is `(near ^ far) & m == flip`, which a
    /// form without an and-not computes in fewer instructions.
    #[inline(always)]
    unsafe fn kill_unless_bit(self, near: Self, far: Self, m: Self, flip: Self, k: Self) -> Self {
        // SAFETY: the caller guarantees the instruction set.
        unsafe { self.kill_unless(near, far, m, m.xor(flip), k) }
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

    /// Keeps program order where the compiler would reorder: the vector
    /// passes through an empty `asm!` block, so what computes it is issued
    /// before this point and what reads it after, and no load or store moves
    /// across (such blocks count as having side effects and keep their
    /// order). No instruction is emitted. Work that runs between the groups
    /// of the SHA-NI rounds holds its values so, and the rounds theirs:
    /// without it LLVM gathers the work into one run before the rounds,
    /// which a core whose out-of-order window is smaller than that run
    /// (Zen 4) cannot overlap with them. Other forms do nothing.
    #[inline(always)]
    fn hold(&mut self) {}

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
    /// What the conditions of one group gather, lane by lane, before the
    /// group's DVs are dropped: the top bits of `same` and `differ` (see
    /// [`Vector::drop_dvs`]) in [`top_bit_conditions!`], the broken lanes in
    /// a mask register with AVX-512.
    type Broken: Copy;
    /// No condition broken yet.
    unsafe fn none_broken() -> Self::Broken;
    /// `broken` and the lanes where bit `31 - SA` of `a` and bit `31 - SB`
    /// of `b` break their condition: they must differ when `DIFFER`, agree
    /// otherwise. `ROT` is `(SB - SA) mod 32`, the rotation that brings the
    /// second bit beside the first.
    unsafe fn break_unless<const SA: i32, const SB: i32, const ROT: i32, const DIFFER: bool>(
        broken: Self::Broken,
        a: Self,
        b: Self,
    ) -> Self::Broken;
    /// The mask `self` less the DVs `dvs` in the lanes `broken` holds.
    unsafe fn drop_broken(self, broken: Self::Broken, dvs: u32) -> Self;
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

/// [`Vector::Broken`] and its operations in the top bits of two vectors,
/// `same` and `differ`: every form but AVX-512's, which has mask registers.
macro_rules! top_bit_conditions {
    () => {
        type Broken = (Self, Self);
        #[inline(always)]
        unsafe fn none_broken() -> (Self, Self) {
            // SAFETY: the caller guarantees the instruction set.
            unsafe { (Self::splat(0), Self::splat(u32::MAX)) }
        }
        #[inline(always)]
        unsafe fn break_unless<const SA: i32, const SB: i32, const ROT: i32, const DIFFER: bool>(
            (same, differ): (Self, Self),
            a: Self,
            b: Self,
        ) -> (Self, Self) {
            // SAFETY: the caller guarantees the instruction set.
            unsafe {
                let (a, b) = (a.shl_top::<SA>(), b.shl_top::<SB>());
                if DIFFER {
                    (same, differ.and_xor(a, b))
                } else {
                    (same.or_xor(a, b), differ)
                }
            }
        }
        #[inline(always)]
        unsafe fn drop_broken(self, (same, differ): (Self, Self), dvs: u32) -> Self {
            // SAFETY: the caller guarantees the instruction set.
            unsafe { self.drop_dvs(same, differ, dvs) }
        }
    };
}
pub(crate) use top_bit_conditions;

/// Work written once over [`Vector`], run on a platform's vectors
/// (`Platform::run_on_vectors`, src/platform).
pub(crate) trait OnVectors {
    type Output;
    /// The work on vectors `V`.
    ///
    /// # Safety
    /// The CPU must support `V`'s instruction set.
    unsafe fn run<V: Vector>(self) -> Self::Output;
}
