//! SHA-1 compression of one block per lane of a [`Vector`], written
//! once: the batch (src/batch.rs) runs it on 2 to 16 lanes, and the
//! portable compressor (portable.rs) is its one-lane form on `u32`.

use super::{BetweenGroups, K};
use crate::vector::Vector;

/// One step: `$e` takes the sum, `$b` is rotated; word `$t` from
/// `$word!($t, $e)`, the step's constant from `$keys`.
macro_rules! step {
    ($word:ident, $keys:ident, $f:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        $e = $e
            .add($a.rotl5())
            .add(V::$f($b, $c, $d))
            .add($keys[$t / 20])
            .add($word!($t, $e));
        $b = $b.rotl30();
    };
}

/// Five steps, the working variables renamed rather than moved.
macro_rules! five {
    ($word:ident, $keys:ident, $f:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        step!($word, $keys, $f, $t, $a, $b, $c, $d, $e);
        step!($word, $keys, $f, $t + 1, $e, $a, $b, $c, $d);
        step!($word, $keys, $f, $t + 2, $d, $e, $a, $b, $c);
        step!($word, $keys, $f, $t + 3, $c, $d, $e, $a, $b);
        step!($word, $keys, $f, $t + 4, $b, $c, $d, $e, $a);
    };
}

/// The steps' four constants in `V`'s lanes, made from `zero`
/// ([`Vector::opaque_zero`] of the form that runs them): where the compiler
/// folds constants into the code, the constants themselves. In wasm V8
/// builds a `v128.const` again at every use (three or four instructions),
/// and LLVM adds a scalar constant last in the step's sum, which V8 12 and
/// later then add after the rotation, on the chain between steps: made
/// once from a zero neither can see, they are values added early.
#[inline(always)]
pub(crate) unsafe fn step_constants<V: Vector>(zero: usize) -> [V; 4] {
    // SAFETY: the caller guarantees V's instruction set.
    K.map(|k| unsafe { V::splat(k.wrapping_add(zero as u32)) })
}

/// The 80 steps from the chaining values `$chains` (and the feed-forward), word t from
/// `$word!(t)` and its constant from `$keys` ([`step_constants`]), the
/// working state before step 60 into `$before_60`, and
/// `$after.group(k)` after steps `5k..5k + 5` (`k` in 0..16; `()` without it).
macro_rules! eighty_steps {
    ($word:ident, $keys:ident, $chains:ident, $before_60:ident) => {
        eighty_steps!($word, $keys, $chains, $before_60, ())
    };
    ($word:ident, $keys:ident, $chains:ident, $before_60:ident, $after:expr) => {{
        let keys = $keys;
        let [mut a, mut b, mut c, mut d, mut e] = *$chains;
        five!($word, keys, choose, 0, a, b, c, d, e);
        $after.group(0);
        five!($word, keys, choose, 5, a, b, c, d, e);
        $after.group(1);
        five!($word, keys, choose, 10, a, b, c, d, e);
        $after.group(2);
        five!($word, keys, choose, 15, a, b, c, d, e);
        $after.group(3);
        five!($word, keys, parity, 20, a, b, c, d, e);
        $after.group(4);
        five!($word, keys, parity, 25, a, b, c, d, e);
        $after.group(5);
        five!($word, keys, parity, 30, a, b, c, d, e);
        $after.group(6);
        five!($word, keys, parity, 35, a, b, c, d, e);
        $after.group(7);
        five!($word, keys, majority, 40, a, b, c, d, e);
        $after.group(8);
        five!($word, keys, majority, 45, a, b, c, d, e);
        $after.group(9);
        five!($word, keys, majority, 50, a, b, c, d, e);
        $after.group(10);
        five!($word, keys, majority, 55, a, b, c, d, e);
        $after.group(11);
        *$before_60 = [a, b, c, d, e];
        five!($word, keys, parity, 60, a, b, c, d, e);
        $after.group(12);
        five!($word, keys, parity, 65, a, b, c, d, e);
        $after.group(13);
        five!($word, keys, parity, 70, a, b, c, d, e);
        $after.group(14);
        five!($word, keys, parity, 75, a, b, c, d, e);
        $after.group(15);
        for (s, x) in $chains.iter_mut().zip([a, b, c, d, e]) {
            *s = s.add(x);
        }
    }};
}

/// [`compress_lanes`] with word `t` from `word(t, e)`, which may read it
/// from memory or compute it (a form that expands the schedule elsewhere);
/// `e` is the working variable the word is added to, for a form that ties
/// its loads to the steps; the constants from `keys` ([`step_constants`]).
///
/// # Safety
/// The CPU must support `V`'s instruction set and what `word` needs.
#[inline(always)]
pub(crate) unsafe fn compress_words<V: Vector>(
    chains: &mut [V; 5],
    before_60: &mut [V; 5],
    keys: [V; 4],
    mut word: impl FnMut(usize, V) -> V,
) {
    macro_rules! word {
        ($t:expr, $e:expr) => {
            word($t, $e)
        };
    }
    // SAFETY: the caller guarantees V's instruction set and `word`'s needs.
    unsafe { eighty_steps!(word, keys, chains, before_60) }
}

/// Compresses one block per lane (its first 16 words in `first`) into the
/// chaining values `chains` (word k of every lane in `chains[k]`), writing
/// the working state before step 60 to `before_60` (what a candidate's test
/// starts from) and handing every schedule word to `word_out(t, w)` (a
/// no-op closure folds away): the 80 steps written out with the five
/// working variables renamed rather than moved, so every index is a
/// constant and the words and the state live in registers (locals in
/// WebAssembly); the schedule rolls over 16 words. The steps' constants
/// are made from `zero` ([`step_constants`]).
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn compress_lanes<V: Vector>(
    chains: &mut [V; 5],
    first: &[V; 16],
    before_60: &mut [V; 5],
    zero: usize,
    mut word_out: impl FnMut(usize, V),
) {
    let mut w = *first;
    // SAFETY (whole body): the caller guarantees V's instruction set.
    unsafe {
        let keys = step_constants(zero);
        compress_words(chains, before_60, keys, |t, _| {
            if t >= 16 {
                w[t & 15] = V::expand_word(
                    w[(t + 13) & 15],
                    w[(t + 8) & 15],
                    w[(t + 2) & 15],
                    w[t & 15],
                );
            }
            word_out(t, w[t & 15]);
            w[t & 15]
        })
    }
}

/// [`compress_lanes`] from a schedule already expanded up to word 64 (the
/// filter's, [`crate::filter::Filter::schedule`]): only words 65 to 79 are
/// expanded here, from the last 16 of `schedule`. `beside.group(k)` runs
/// after steps `5k..5k + 5` (`k` in 0..16): the batch's condition groups
/// there ([`crate::filter::Parts`]) fill the latency of the rounds' chain.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn compress_lanes_scheduled<V: Vector>(
    chains: &mut [V; 5],
    schedule: &[V; 65],
    before_60: &mut [V; 5],
    mut beside: impl BetweenGroups,
) {
    // SAFETY (whole body): the caller guarantees V's instruction set.
    unsafe {
        let mut w = [V::splat(0); 80];
        w[..65].copy_from_slice(schedule);
        macro_rules! word {
            ($t:expr, $e:expr) => {{
                const T: usize = $t;
                // Compilers before 1.70 or so check `T - 16` even where
                // this branch is dead (T < 16).
                #[allow(arithmetic_overflow)]
                if T >= 65 {
                    w[T] = V::expand_word(w[T - 3], w[T - 8], w[T - 14], w[T - 16]);
                }
                w[T]
            }};
        }
        let keys = step_constants::<V>(V::opaque_zero());
        eighty_steps!(word, keys, chains, before_60, beside);
    }
}
