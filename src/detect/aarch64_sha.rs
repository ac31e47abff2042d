//! Detection over the ARMv8 SHA-1 rounds: the state before step 60 kept
//! from the rounds (a group boundary), the candidate's test in scalar.

use super::{Candidates, Compressed, Rounds, recompress};
use crate::block::{Block, expand};
use crate::compress::aarch64_sha;
use crate::dv::DisturbanceVector;

/// The ARMv8 rounds (src/compress/aarch64_sha.rs).
pub(crate) struct Armv8;

impl Rounds for Armv8 {
    #[inline(always)]
    unsafe fn compress(chain: &mut [u32; 5], block: &Block) -> (Compressed, [u32; 80]) {
        let chain_in = *chain;
        let mut before_60 = [0u32; 5];
        let one = core::slice::from_ref(block);
        // SAFETY: the caller checked the CPU.
        unsafe { aarch64_sha::compress_keeping(chain, one, |s| before_60 = s) };
        let compressed = Compressed {
            chain_in,
            chain_out: *chain,
            before_60,
        };
        (compressed, expand(block))
    }

    #[inline(always)]
    unsafe fn test(block: &Compressed, w: &[u32; 80], c: Candidates) -> Option<DisturbanceVector> {
        recompress::test(block, w, c)
    }
}
