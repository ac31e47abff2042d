//! SHA-1 compression in plain Rust, for every target.
//!
//! Written out step by step (by macro) over a rolling 16-word message
//! schedule, with the five working variables renamed rather than moved: every
//! index is a constant, so the words and the state live in registers (locals
//! in WebAssembly) and the loop body has no bounds checks, no calls and no
//! per-step dispatch on the round.

use super::{Block, K};
use crate::block::load_words;

#[inline(always)]
fn ch(b: u32, c: u32, d: u32) -> u32 {
    d ^ (b & (c ^ d))
}

#[inline(always)]
fn parity(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
}

#[inline(always)]
fn maj(b: u32, c: u32, d: u32) -> u32 {
    (b & c) | (d & (b | c))
}

/// Compresses `blocks` into the chaining value `ihv`.
pub(crate) fn compress_blocks(ihv: &mut [u32; 5], blocks: &[Block]) {
    let [mut h0, mut h1, mut h2, mut h3, mut h4] = *ihv;
    for block in blocks {
        let mut w = load_words(block);
        let (mut a, mut b, mut c, mut d, mut e) = (h0, h1, h2, h3, h4);

        // Word `t` of the expanded message; from 16 on, computed in place of
        // word `t - 16`, which no later step reads.
        macro_rules! word {
            ($t:expr) => {{
                const T: usize = $t;
                if T < 16 {
                    w[T & 15]
                } else {
                    let x = (w[(T + 13) & 15] ^ w[(T + 8) & 15] ^ w[(T + 2) & 15] ^ w[T & 15])
                        .rotate_left(1);
                    w[T & 15] = x;
                    x
                }
            }};
        }
        // One step: `e` takes the new `a`, `b` rotates; the caller renames.
        macro_rules! step {
            ($f:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
                $e = $e
                    .wrapping_add($a.rotate_left(5))
                    .wrapping_add($f($b, $c, $d))
                    .wrapping_add(K[$t / 20])
                    .wrapping_add(word!($t));
                $b = $b.rotate_left(30);
            };
        }
        // Five steps from `t`: after them the names are back in place.
        macro_rules! five {
            ($f:ident, $t:expr) => {
                step!($f, $t, a, b, c, d, e);
                step!($f, $t + 1, e, a, b, c, d);
                step!($f, $t + 2, d, e, a, b, c);
                step!($f, $t + 3, c, d, e, a, b);
                step!($f, $t + 4, b, c, d, e, a);
            };
        }

        five!(ch, 0);
        five!(ch, 5);
        five!(ch, 10);
        five!(ch, 15);
        five!(parity, 20);
        five!(parity, 25);
        five!(parity, 30);
        five!(parity, 35);
        five!(maj, 40);
        five!(maj, 45);
        five!(maj, 50);
        five!(maj, 55);
        five!(parity, 60);
        five!(parity, 65);
        five!(parity, 70);
        five!(parity, 75);

        h0 = h0.wrapping_add(a);
        h1 = h1.wrapping_add(b);
        h2 = h2.wrapping_add(c);
        h3 = h3.wrapping_add(d);
        h4 = h4.wrapping_add(e);
    }
    *ihv = [h0, h1, h2, h3, h4];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::{IV, compress_expanded, expand};

    #[test]
    fn matches_the_step_function_form() {
        let mut blocks = [[0u8; 64]; 3];
        for (i, byte) in blocks.as_flattened_mut().iter_mut().enumerate() {
            *byte = (i as u8).wrapping_mul(151).wrapping_add(7);
        }
        let mut want = IV;
        for block in &blocks {
            compress_expanded(&mut want, &expand(block));
        }
        let mut got = IV;
        compress_blocks(&mut got, &blocks);
        assert_eq!(got, want);
    }
}
