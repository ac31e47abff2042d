//! Objects hashed as git hashes them, with detection: the many small ones
//! gathered by kind and hashed through the batch form (one object per
//! vector lane), a large one on its own stream. With the content check,
//! every blob's bytes are hashed again as a plain message.

use std::path::Path;
use std::rc::Rc;

use sha1dc_wasm::git::{ObjectKind, ObjectOutcome};
use sha1dc_wasm::{Builder, Digest, DisturbanceVector, Outcome};

use crate::error::Problem;
use crate::processor::Processor;
use crate::report::{Check, FileDamage, Finding, Outlet, OwnedEvent, Verified};

/// An object at least this large is hashed on its own stream: the batch
/// gains nothing once one lane's message is most of the work.
const ALONE: usize = 1 << 20;
/// A kind's batch is hashed when it holds this many objects...
const BATCH_OBJECTS: usize = 128;
/// ...or this many bytes.
const BATCH_BYTES: usize = 4 << 20;

/// A flagged block: its offset in the content and its disturbance vector.
type Flag = Option<(u64, DisturbanceVector)>;

/// The object check's flag: the block's offset in the content (the
/// header's length taken off).
fn object_flag(o: &ObjectOutcome) -> Flag {
    Some((o.collision_offset()?, o.collision()?.dv()))
}

/// The content check's flag.
fn content_flag(o: &Outcome) -> Flag {
    o.collision().map(|c| (c.offset(), c.dv()))
}

/// One object waiting in a batch.
struct Pending {
    entry: u32,
    pack_offset: Option<u64>,
    content: Rc<Vec<u8>>,
}

/// A worker's hashing: batches by kind, the results kept for the walk
/// (entry and id) and sent on for the report.
pub(crate) struct Batcher<'a> {
    builder: Builder,
    /// Objects at least this large are hashed alone (`ALONE`; tests lower it).
    alone: usize,
    content_check: bool,
    buckets: [Vec<Pending>; 4],
    bytes: [usize; 4],
    /// (entry, id) of every object hashed since the walk last took them.
    pub(crate) done: Vec<(u32, Digest)>,
    verified: Vec<Verified>,
    out: Outlet<'a>,
    file: &'a Path,
}

fn slot(kind: ObjectKind) -> usize {
    match kind {
        ObjectKind::Commit => 0,
        ObjectKind::Tree => 1,
        ObjectKind::Blob => 2,
        ObjectKind::Tag => 3,
    }
}

const KINDS: [ObjectKind; 4] = [
    ObjectKind::Commit,
    ObjectKind::Tree,
    ObjectKind::Blob,
    ObjectKind::Tag,
];

impl<'a> Batcher<'a> {
    pub(crate) fn new(content_check: bool, out: Outlet<'a>, file: &'a Path) -> Self {
        Batcher {
            builder: Builder::default(),
            alone: ALONE,
            content_check,
            buckets: Default::default(),
            bytes: [0; 4],
            done: Vec::new(),
            verified: Vec::new(),
            out,
            file,
        }
    }

    fn alone(&mut self, entry: u32, pack_offset: Option<u64>, kind: ObjectKind, content: &[u8]) {
        let mut hasher = self.builder.build_object(kind, content.len() as u64);
        hasher.update(content);
        let object = hasher
            .finalize()
            .expect("the length announced is the content's");
        let plain =
            (self.content_check && kind == ObjectKind::Blob).then(|| self.builder.hash(content));
        let size = content.len() as u64;
        let flags = (object_flag(&object), plain.as_ref().and_then(content_flag));
        self.record(entry, pack_offset, kind, size, object.sha1(), flags);
    }

    fn flush_kind(&mut self, s: usize) {
        let pending = std::mem::take(&mut self.buckets[s]);
        self.bytes[s] = 0;
        if pending.is_empty() {
            return;
        }
        let kind = KINDS[s];
        let contents: Vec<&[u8]> = pending.iter().map(|p| p.content.as_slice()).collect();
        let objects = self.builder.hash_objects(kind, &contents);
        let plain = if self.content_check && kind == ObjectKind::Blob {
            self.builder.hash_many(&contents)
        } else {
            Vec::new()
        };
        for (i, (p, object)) in pending.iter().zip(&objects).enumerate() {
            let len = p.content.len() as u64;
            let flags = (object_flag(object), plain.get(i).and_then(content_flag));
            self.record(p.entry, p.pack_offset, kind, len, object.sha1(), flags);
        }
    }

    /// One object hashed: its id kept, its flags (object check, content
    /// check) sent as findings.
    fn record(
        &mut self,
        entry: u32,
        pack_offset: Option<u64>,
        kind: ObjectKind,
        size: u64,
        id: Digest,
        (object, content): (Flag, Flag),
    ) {
        self.done.push((entry, id));
        self.verified.push(Verified {
            id,
            kind,
            size,
            pack_offset,
        });
        let finding = |check, offset, dv| Finding {
            check,
            id,
            kind,
            size,
            offset,
            dv,
            file: self.file.to_path_buf(),
            pack_offset,
        };
        for (check, flag) in [(Check::Object, object), (Check::Content, content)] {
            if let Some((offset, dv)) = flag {
                self.out
                    .send(OwnedEvent::Finding(finding(check, offset, dv)));
            }
        }
        if self.verified.len() >= 4096 {
            self.send_verified();
        }
    }

    fn send_verified(&mut self) {
        if !self.verified.is_empty() {
            let batch = std::mem::take(&mut self.verified);
            self.out.send(OwnedEvent::Verified(batch));
        }
    }
}

/// The batcher is what the traversals hand their objects to.
impl Processor for Batcher<'_> {
    /// Hashes `content` as an object of `kind`, now or with its batch.
    fn object(
        &mut self,
        entry: u32,
        pack_offset: Option<u64>,
        kind: ObjectKind,
        content: Rc<Vec<u8>>,
    ) {
        if content.len() >= self.alone {
            self.alone(entry, pack_offset, kind, &content);
            return;
        }
        let s = slot(kind);
        self.bytes[s] += content.len();
        self.buckets[s].push(Pending {
            entry,
            pack_offset,
            content,
        });
        if self.buckets[s].len() >= BATCH_OBJECTS || self.bytes[s] >= BATCH_BYTES {
            self.flush_kind(s);
        }
    }

    fn damage(&mut self, offset: Option<u64>, id: Option<Digest>, problem: Problem) {
        FileDamage::new(self.out.clone(), self.file).report(offset, id, problem);
    }

    /// Hashes everything waiting and sends the reports on.
    fn finish(&mut self) {
        for s in 0..4 {
            self.flush_kind(s);
        }
        self.send_verified();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;

    use super::*;

    const PDF: &[u8] = include_bytes!("../../tests/data/shattered-1.pdf");

    fn findings(rx: &std::sync::mpsc::Receiver<OwnedEvent>) -> Vec<Finding> {
        rx.try_iter()
            .filter_map(|m| match m {
                OwnedEvent::Finding(f) => Some(f),
                _ => None,
            })
            .collect()
    }

    /// No public collision is one of git objects (the header moves the
    /// blocks off their boundaries), so the object check's flag is given
    /// here: it must reach the report as the object's finding.
    #[test]
    fn an_object_flag_is_reported_as_the_object_check() {
        let (tx, rx) = channel();
        let mut batcher = Batcher::new(false, Outlet::Channel(tx), Path::new("p.pack"));
        let dv = DisturbanceVector::by_index(3).unwrap();
        let id = sha1dc_wasm::hash(b"x").sha1();
        batcher.record(
            7,
            Some(1234),
            ObjectKind::Tree,
            999,
            id,
            (Some((320, dv)), None),
        );
        batcher.finish();
        let found = findings(&rx);
        assert_eq!(found.len(), 1);
        let f = &found[0];
        assert_eq!(
            (f.check, f.id, f.kind, f.size, f.offset, f.dv),
            (Check::Object, id, ObjectKind::Tree, 999, 320, dv)
        );
        assert_eq!(
            (f.pack_offset, f.file.as_path()),
            (Some(1234), Path::new("p.pack"))
        );
        assert_eq!(batcher.done, [(7, id)]);
    }

    /// A SHAttered PDF as a blob, on both paths (batched, and alone on its
    /// stream): its object id is git's and unflagged; the content check
    /// flags block 4 (offset 256) with DV II(52,0), as the reference does.
    #[test]
    fn both_paths_give_git_ids_and_the_content_flag() {
        for alone in [usize::MAX, 0] {
            let (tx, rx) = channel();
            let mut batcher = Batcher::new(true, Outlet::Channel(tx), Path::new("p"));
            batcher.alone = alone;
            batcher.object(0, None, ObjectKind::Blob, Rc::new(PDF.to_vec()));
            batcher.object(1, None, ObjectKind::Blob, Rc::new(b"hello\n".to_vec()));
            batcher.finish();
            let ids: Vec<String> = batcher.done.iter().map(|(_, id)| id.to_string()).collect();
            // `git hash-object tests/data/shattered-1.pdf`, `echo hello | git hash-object --stdin`
            assert_eq!(
                ids,
                [
                    "ba9aaa145ccd24ef760cf31c74d8f7ca1a2e47b0",
                    "ce013625030ba8dba906f756967f9e9ca394464a"
                ],
                "alone {alone}"
            );
            let found = findings(&rx);
            assert_eq!(found.len(), 1, "alone {alone}");
            assert_eq!((found[0].check, found[0].offset), (Check::Content, 256));
            assert_eq!(found[0].dv.to_string(), "II(52,0)");
        }
    }
}
