//! The filter in the per-block layout: the lanes of a vector hold
//! consecutive schedule words of one block (src/filter/windows.rs), so a
//! block costs the same alone as in a batch, and the filter reads the
//! schedule the compression already expanded instead of expanding again.
//!
//! The one-block-per-lane filter (src/filter/mod.rs) does more work per
//! vector operation on many blocks; this one is for what it cannot do
//! well: short messages (no vector padded with empty blocks), a filter that
//! runs beside the SHA-NI rounds (src/detect/interleaved.rs), and WebAssembly,
//! where few live vectors and no transposition matter most.

use super::windows::{for_each_window4, for_each_window8};
use crate::block::Schedule;
use crate::vector::Vector;

/// The entries of the 4-lane table a form runs beside the next block's
/// rounds (src/detect/interleaved.rs), two after each group of four steps (entries
/// `g` and `g + 20` after group `g`); the rest run out of line for the few
/// blocks these leave a DV. (Fewer beside, or all 48, measured slower in
/// benches/halves.rs.)
pub(crate) const INTERLEAVED: usize = 40;

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

/// `a ^ b`, lane by lane.
const fn xor<const N: usize>(a: [u32; N], b: [u32; N]) -> [u32; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = a[i] ^ b[i];
        i += 1;
    }
    out
}

/// Whether each lane of an entry's mask `m` has at most one bit, and its
/// DVs `k` none where `m` has none ([`Vector::kill_unless_bit`]).
const fn one_bit_lanes<const N: usize>(m: [u32; N], k: [u32; N]) -> bool {
    let mut i = 0;
    while i < N {
        if m[i].count_ones() > 1 || (m[i] == 0 && k[i] != 0) {
            return false;
        }
        i += 1;
    }
    true
}

/// An entry's constants in an object larger than they are, so that a
/// load at an offset the compiler cannot see ([`Vector::load_constant`])
/// could be another and stays a load.
#[repr(C, align(64))]
struct Padded<const N: usize>([u32; N]);

/// Fails to compile, where a table of `N` lanes is used with vectors `V`,
/// unless `N` is a whole number of them.
struct WholeVectors<V, const N: usize>(V);

impl<V: Vector, const N: usize> WholeVectors<V, N> {
    const CHECK: () = assert!(N % V::LANES == 0);
}

/// One entry of a table, `$n` lanes, `V::LANES` of them at a time, on
/// `$killed` (the DVs ruled out so far, by lane) for the schedule `$w` as
/// `$s` stores it, its constants read as `V` reads them with `$zero`
/// ([`Vector::load_constant`]). Mirrored, a load holds the words in reverse
/// lane order, and so must the constants.
macro_rules! entry {
    ($n:literal, $killed:ident, $w:ident, $zero:ident, $s:ident, $t:literal, $f:literal, $dir:ident $sh:literal, $m:expr, $e:expr, $k:expr) => {{
        let mut killed = $killed;
        for at in (0..$n).step_by(V::LANES) {
            type Lanes = &'static Padded<$n>;
            const ONE_BIT: bool = one_bit_lanes($m, $k);
            // The expected bits, or with one bit a lane those that differ
            // from the mask's ([`Vector::kill_unless_bit`]).
            const E_OR_FLIP: [u32; $n] = if ONE_BIT { xor($m, $e) } else { $e };
            let (m, e, k, c): (Lanes, Lanes, Lanes, _) = if $s::MIRRORED {
                const M: Padded<$n> = Padded(rev($m));
                const E: Padded<$n> = Padded(rev(E_OR_FLIP));
                const K: Padded<$n> = Padded(rev($k));
                (&M, &E, &K, $n - at - V::LANES)
            } else {
                const M: Padded<$n> = Padded($m);
                const E: Padded<$n> = Padded(E_OR_FLIP);
                const K: Padded<$n> = Padded($k);
                (&M, &E, &K, at)
            };
            let far = V::load(&$w[$s::index($f + at, V::LANES)..]);
            let near = V::load(&$w[$s::index($t + at, V::LANES)..]);
            let (far, m, e, k) = (
                shifted!(far, $dir $sh),
                V::load_constant(&m.0[c..], $zero),
                V::load_constant(&e.0[c..], $zero),
                V::load_constant(&k.0[c..], $zero),
            );
            killed = if ONE_BIT {
                killed.kill_unless_bit(near, far, m, e, k)
            } else {
                killed.kill_unless(near, far, m, e, k)
            };
        }
        killed
    }};
}

macro_rules! schedule_mask_impl {
    (
        $(#[$attr:meta])* $table:ident $n:literal
        [$($i:literal: ($t:literal, $f:literal, $dir:ident $s:literal) [$($m:literal)*] [$($e:literal)*] [$($k:literal)*];)*]
        [$($ti:literal: ($tt:literal, $tf:literal, $tdir:ident $ts:literal) [$($tm:literal)*] [$($te:literal)*] [$($tk:literal)*];)*]
    ) => {
        /// The table of this many lanes (src/filter/windows.rs), run on
        /// vectors of `V::LANES` of them.
        $(#[$attr])*
        pub(crate) struct $table;

        $(#[$attr])*
        impl $table {
            /// The entries of the first list.
            pub(crate) const FIRST: usize = [$($i),*].len();

            /// The entries of both lists.
            #[allow(dead_code)]
            pub(crate) const ENTRIES: usize = [$($i,)* $($ti),*].len();

            /// The DV mask of one block (bit i = DV i) from its schedule as
            /// the rounds stored it. Most blocks lose every DV in the first
            /// list and stop there.
            ///
            /// # Safety
            /// The CPU must support `V`'s instruction set.
            #[inline(always)]
            pub(crate) unsafe fn mask<V: Vector, S: Schedule>(schedule: &S) -> u32 {
                let () = WholeVectors::<V, $n>::CHECK;
                let w = schedule.stored();
                let zero = V::opaque_zero();
                // SAFETY (whole body): the caller guarantees V's instruction
                // set; every index is a table constant below 80 - $n.
                unsafe {
                    let mut killed = V::splat(0);
                    $(killed = entry!($n, killed, w, zero, S, $t, $f, $dir $s, [$($m),*], [$($e),*], [$($k),*]);)*
                    if killed.or_lanes() == u32::MAX {
                        return 0;
                    }
                    Self::finish::<V, S, { Self::FIRST }>(schedule, killed)
                }
            }

            /// Entry `i` of the table on `killed`, the DVs ruled out so far
            /// (by lane): a constant `i` leaves one entry's code, so the
            /// entries can run one at a time beside other work.
            ///
            /// # Safety
            /// As [`mask`](Self::mask).
            #[inline(always)]
            // Used where a form runs the filter beside the rounds.
            #[allow(dead_code)]
            pub(crate) unsafe fn entry<V: Vector, S: Schedule>(i: usize, schedule: &S, killed: V) -> V {
                let () = WholeVectors::<V, $n>::CHECK;
                let w = schedule.stored();
                let zero = V::opaque_zero();
                // SAFETY (whole body): as in `mask`.
                unsafe {
                    match i {
                        $($i => entry!($n, killed, w, zero, S, $t, $f, $dir $s, [$($m),*], [$($e),*], [$($k),*]),)*
                        $($ti => entry!($n, killed, w, zero, S, $tt, $tf, $tdir $ts, [$($tm),*], [$($te),*], [$($tk),*]),)*
                        _ => killed,
                    }
                }
            }

            /// The DV mask from `killed`, the DVs entries `..FROM` ruled out
            /// (by lane): the entries from `FROM` on, then the lanes or-ed.
            ///
            /// # Safety
            /// As [`mask`](Self::mask).
            #[inline(always)]
            pub(crate) unsafe fn finish<V: Vector, S: Schedule, const FROM: usize>(schedule: &S, mut killed: V) -> u32 {
                let w = schedule.stored();
                let zero = V::opaque_zero();
                // SAFETY (whole body): as in `mask`.
                unsafe {
                    $(if $i >= FROM {
                        killed = entry!($n, killed, w, zero, S, $t, $f, $dir $s, [$($m),*], [$($e),*], [$($k),*]);
                    })*
                    $(if $ti >= FROM {
                        killed = entry!($n, killed, w, zero, S, $tt, $tf, $tdir $ts, [$($tm),*], [$($te),*], [$($tk),*]);
                    })*
                    !killed.or_lanes()
                }
            }
        }
    };
}
for_each_window4!(schedule_mask_impl Windows4 4);
// The 8-lane table serves AVX2 (beside SHA-NI, behind a call).
for_each_window8!(schedule_mask_impl Windows8 8);
