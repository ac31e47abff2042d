//! SHA-1 compression in plain Rust, for every target: the multi-lane
//! compression (lanes.rs) on one lane, a `u32`, which is plain integer
//! arithmetic with every index a constant.

use super::lanes::compress_lanes;
use super::{BetweenGroups, State};
use crate::block::Block;
use crate::vector::Vector;

/// Compresses `blocks` into `chain`.
pub(crate) fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]) {
    blocks_from_zero(chain, blocks, 0)
}

/// [`compress_blocks`] with the steps' constants made from `zero`, a zero
/// the compilers cannot see (wasm32's: [`step_constants`]).
///
/// [`step_constants`]: super::lanes::step_constants
// Used by the wasm32 platform only.
#[allow(dead_code)]
pub(crate) fn compress_blocks_from_zero(chain: &mut [u32; 5], blocks: &[Block], zero: usize) {
    blocks_from_zero(chain, blocks, zero)
}

/// Both: with a constant `zero`, the constants fold.
#[inline(always)]
fn blocks_from_zero(chain: &mut [u32; 5], blocks: &[Block], zero: usize) {
    let mut before_60 = *chain;
    for block in blocks {
        // SAFETY: u32 lanes are plain integer arithmetic.
        unsafe {
            let first = <u32 as Vector>::load16(core::slice::from_ref(block));
            compress_lanes::<u32>(chain, &first, &mut before_60, zero, |_, _| {});
        }
    }
}

/// One block's rounds in plain integers that store its schedule in order as
/// they expand it, where detection's per-block filter reads it: expanded by
/// the steps themselves ([`Scalar`]), or on a platform's vectors ahead of
/// the steps (src/platform/wasm32/rounds.rs).
pub(crate) trait StoringRounds {
    /// One block into `chain`, keeping what detection reads: the state
    /// before step 60 (returned) and the 80 schedule words (`w`); `beside`
    /// runs after each group of four steps' words.
    ///
    /// # Safety
    /// The CPU must support the form's instructions and what `beside` needs.
    unsafe fn compress_keeping(
        chain: &mut [u32; 5],
        block: &Block,
        w: &mut [u32; 80],
        beside: &mut impl BetweenGroups,
    ) -> State;
}

/// The steps expand the schedule, on a `u32` (the multi-lane compression
/// on one lane).
pub(crate) struct Scalar;

impl StoringRounds for Scalar {
    #[inline(always)]
    unsafe fn compress_keeping(
        chain: &mut [u32; 5],
        block: &Block,
        w: &mut [u32; 80],
        beside: &mut impl BetweenGroups,
    ) -> State {
        let mut before_60 = *chain;
        // SAFETY: u32 lanes are plain integer arithmetic; the caller
        // guarantees what `beside` needs.
        unsafe {
            let first = <u32 as Vector>::load16(core::slice::from_ref(block));
            compress_lanes::<u32>(chain, &first, &mut before_60, 0, |t, x| {
                w[t] = x;
                if t % 4 == 3 {
                    beside.group(t / 4);
                }
            });
        }
        before_60
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::expand;
    use crate::compress::{IV, compress_expanded};

    #[test]
    fn matches_the_step_function_form() {
        let mut blocks = [[0u8; 64]; 3];
        for (i, byte) in blocks.iter_mut().flatten().enumerate() {
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
