//! What the traversals of a pack (the index-less pass, the delta-tree
//! walks) and of loose objects hand each object they make to, as
//! gix-pack's traversal hands entries to a processor: the traversal reads
//! and makes, the processor hashes and checks.

use std::rc::Rc;

use sha1dc_wasm::Digest;
use sha1dc_wasm::git::ObjectKind;

use crate::error::Problem;

/// Takes each object a traversal makes, and the damage it meets.
pub(crate) trait Processor {
    /// Object `entry` (its number in the traversal), made: of `kind`,
    /// at `pack_offset` in its pack (none for a loose object).
    fn object(
        &mut self,
        entry: u32,
        pack_offset: Option<u64>,
        kind: ObjectKind,
        content: Rc<Vec<u8>>,
    );
    /// Damage at `offset` (in a pack), of object `id`, where known.
    fn damage(&mut self, offset: Option<u64>, id: Option<Digest>, problem: Problem);
    /// The traversal is over: whatever waits is processed.
    fn finish(&mut self);
}
