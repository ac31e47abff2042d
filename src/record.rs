//! The last step of a block's path (compress, filter, test, record): a
//! block found to be half of a collision is reported, if a report is
//! wanted, counted, and given the safe hash; at the end, the [`Record`]
//! of a message and its output chain make its [`Outcome`]. Shared by the
//! streaming engine and the batch, so both report alike.

use crate::block::{Block, expand};
use crate::compress::compress_expanded;
use crate::config::Config;
use crate::detect::collision_block;
use crate::dv::DisturbanceVector;
use crate::hex::Digest;
use crate::outcome::{Collision, CollisionBlock, Outcome};

/// Where a reporting call sends each flagged block: nothing for the plain
/// calls, so they build no report.
pub(crate) struct Reporter<'a>(pub Option<&'a mut dyn FnMut(&CollisionBlock)>);

impl Reporter<'_> {
    /// No report.
    pub(crate) fn none() -> Self {
        Reporter(None)
    }

    /// Whether a report is wanted (the chain into a flagged block is then
    /// needed).
    pub(crate) fn wants(&self) -> bool {
        self.0.is_some()
    }
}

/// The first flagged block and how many were flagged.
#[derive(Clone, Copy, Debug)]
struct Flagged {
    first_block: u64,
    first_dv: DisturbanceVector,
    count: u64,
}

/// What detection keeps of one message besides its output chain: the plain
/// SHA-1 chain once the two part, and the flagged blocks.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Record {
    /// The plain SHA-1 chain, kept apart only once a collision made the
    /// output chain differ from it (safe hash on, and `keep_sha1`).
    pub sha1_chain: Option<[u32; 5]>,
    flagged: Option<Flagged>,
}

impl Record {
    /// Block number `index`, entered with the chaining value `chain_in` and
    /// already compressed into the output `chain`, is half of a collision on
    /// DV `dv`: reports it (built only when wanted), counts it, and applies
    /// the safe hash (the block compressed twice more). True when this made
    /// the output chain part from the plain SHA-1 chain, which then
    /// continues from here on its own.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn flag(
        &mut self,
        config: &Config,
        chain: &mut [u32; 5],
        chain_in: [u32; 5],
        block: &Block,
        index: u64,
        dv: DisturbanceVector,
        report: &mut Reporter<'_>,
    ) -> bool {
        if let Some(f) = &mut report.0 {
            f(&collision_block(index * 64, dv, chain_in, block));
        }
        let flagged = self.flagged.get_or_insert(Flagged {
            first_block: index,
            first_dv: dv,
            count: 0,
        });
        flagged.count += 1;
        if !config.safe_hash {
            return false;
        }
        let parted = config.keep_sha1 && self.sha1_chain.is_none();
        if parted {
            self.sha1_chain = Some(*chain);
        }
        let w = expand(block);
        compress_expanded(chain, &w);
        compress_expanded(chain, &w);
        parted
    }

    /// The report for the message whose output chain ends at `chain`.
    pub(crate) fn outcome(&self, chain: &[u32; 5]) -> Outcome {
        Outcome {
            digest: Digest::from_chain(chain),
            sha1: Digest::from_chain(self.sha1_chain.as_ref().unwrap_or(chain)),
            collision: self.flagged.map(|f| Collision {
                block: f.first_block,
                dv: f.first_dv,
                count: f.count,
            }),
        }
    }
}
