//! The filter in the per-block layout: the lanes of a vector hold
//! consecutive schedule words of one block (src/filter/windows.rs), so a
//! block costs the same alone as in a batch, and the filter reads the
//! schedule the compression already expanded instead of expanding again.
//!
//! The one-block-per-lane filter (src/filter/mod.rs) does more work per
//! vector operation on many blocks; this one is for what it cannot do
//! well: short messages (no vector padded with empty blocks), a filter that
//! runs beside the SHA-NI rounds (the 128-bit form inline; a wider one only
//! behind a call boundary: no dirty AVX state next to the legacy-SSE SHA
//! instructions), and WebAssembly, where few live vectors and no
//! transposition matter most.

use super::windows::{for_each_window4, for_each_window8};
use crate::block::Schedule;
use crate::vector::Vector;

/// A schedule word shifted as an entry of the table says.
macro_rules! shifted {
    ($x:expr, shr $s:literal) => {
        $x.shr::<$s>()
    };
    ($x:expr, shl $s:literal) => {
        $x.shl::<$s>()
    };
    ($x:expr, none $s:literal) => {
        $x
    };
}

/// `a` in reverse order.
const fn rev<const N: usize>(a: [u32; N]) -> [u32; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = a[N - 1 - i];
        i += 1;
    }
    out
}

/// Fails to compile, where a table of `N` lanes is used with vectors `V`,
/// unless `N` is a whole number of them.
struct WholeVectors<V, const N: usize>(V);

impl<V: Vector, const N: usize> WholeVectors<V, N> {
    const CHECK: () = assert!(N % V::LANES == 0);
}

macro_rules! schedule_mask_impl {
    (
        $(#[$attr:meta])* $name:ident $n:literal
        [$(($t:literal, $f:literal, $dir:ident $s:literal) [$($m:literal)*] [$($e:literal)*] [$($k:literal)*];)*]
        [$(($tt:literal, $tf:literal, $tdir:ident $ts:literal) [$($tm:literal)*] [$($te:literal)*] [$($tk:literal)*];)*]
    ) => {
        /// The DV mask of one block (bit i = DV i) from its schedule as
        /// the rounds stored it, by the table of this many lanes,
        /// `V::LANES` of them at a time. Most blocks lose every DV in the
        /// first entries and stop there.
        ///
        /// # Safety
        /// The CPU must support `V`'s instruction set.
        #[inline(always)]
        $(#[$attr])*
        pub(crate) unsafe fn $name<V: Vector, S: Schedule>(schedule: &S) -> u32 {
            let () = WholeVectors::<V, $n>::CHECK;
            let w = schedule.stored();
            // SAFETY (whole body): the caller guarantees V's instruction
            // set; every index is a table constant below 80 - $n.
            unsafe {
                let mut killed = V::splat(0);
                // Lanes `at..at + V::LANES` of one entry. Mirrored, a load
                // holds the words in reverse lane order, and so must the
                // constants.
                macro_rules! entry {
                    ($at:ident, $t_:literal, $f_:literal, $d_:ident $s_:literal, $m_:expr, $e_:expr, $k_:expr) => {{
                        let (m, e, k, c) = if S::MIRRORED {
                            const M: [u32; $n] = rev($m_);
                            const E: [u32; $n] = rev($e_);
                            const K: [u32; $n] = rev($k_);
                            (M, E, K, $n - $at - V::LANES)
                        } else {
                            ($m_, $e_, $k_, $at)
                        };
                        let far = V::load(&w[S::index($f_ + $at, V::LANES)..]);
                        let near = V::load(&w[S::index($t_ + $at, V::LANES)..]);
                        let x = near.xor(shifted!(far, $d_ $s_));
                        let ok = x.and(V::load(&m[c..])).eq(V::load(&e[c..]));
                        killed = killed.or(V::load(&k[c..]).andnot(ok));
                    }};
                }
                for at in (0..$n).step_by(V::LANES) {
                    $(entry!(at, $t, $f, $dir $s, [$($m),*], [$($e),*], [$($k),*]);)*
                }
                if killed.or_lanes() == u32::MAX {
                    return 0;
                }
                for at in (0..$n).step_by(V::LANES) {
                    $(entry!(at, $tt, $tf, $tdir $ts, [$($tm),*], [$($te),*], [$($tk),*]);)*
                }
                !killed.or_lanes()
            }
        }
    };
}
for_each_window4!(schedule_mask_impl mask4 4);
// The 8-lane table serves AVX2 (beside SHA-NI, behind a call).
for_each_window8!(schedule_mask_impl #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] mask8 8);
