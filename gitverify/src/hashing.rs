//! Objects hashed as git hashes them, with detection: the many small ones
//! gathered by kind and hashed through the batch form (one object per
//! vector lane), a large one on its own stream. With the content check,
//! every blob's bytes are hashed again as a plain message.

use std::path::Path;
use std::rc::Rc;
use std::sync::mpsc::Sender;

use sha1dc_wasm::git::{ObjectKind, ObjectOutcome};
use sha1dc_wasm::{Builder, Outcome};

use crate::report::{Check, Damage, Finding, Verified};

/// An object at least this large is hashed on its own stream: the batch
/// gains nothing once one lane's message is most of the work.
const ALONE: usize = 1 << 20;
/// A kind's batch is hashed when it holds this many objects...
const BATCH_OBJECTS: usize = 128;
/// ...or this many bytes.
const BATCH_BYTES: usize = 4 << 20;

/// What the workers send the thread that reports.
pub(crate) enum Message {
    Source(std::path::PathBuf, u64),
    Verified(Vec<Verified>),
    Finding(Finding),
    Damage(Damage),
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
    content_check: bool,
    buckets: [Vec<Pending>; 4],
    bytes: [usize; 4],
    /// (entry, id) of every object hashed since the walk last took them.
    pub(crate) done: Vec<(u32, [u8; 20])>,
    verified: Vec<Verified>,
    out: Sender<Message>,
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
    pub(crate) fn new(content_check: bool, out: Sender<Message>, file: &'a Path) -> Self {
        Batcher {
            builder: Builder::default(),
            content_check,
            buckets: Default::default(),
            bytes: [0; 4],
            done: Vec::new(),
            verified: Vec::new(),
            out,
            file,
        }
    }

    /// Hashes `content` as an object of `kind`, now or with its batch.
    pub(crate) fn add(
        &mut self,
        entry: u32,
        pack_offset: Option<u64>,
        kind: ObjectKind,
        content: Rc<Vec<u8>>,
    ) {
        if content.len() >= ALONE {
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

    fn alone(&mut self, entry: u32, pack_offset: Option<u64>, kind: ObjectKind, content: &[u8]) {
        let mut hasher = self.builder.build_object(kind, content.len() as u64);
        hasher.update(content);
        let object = hasher.finalize().expect("the length announced is the content's");
        let plain = (self.content_check && kind == ObjectKind::Blob).then(|| self.builder.hash(content));
        self.record(entry, pack_offset, kind, content.len() as u64, &object, plain.as_ref());
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
            self.record(p.entry, p.pack_offset, kind, len, object, plain.get(i));
        }
    }

    fn record(
        &mut self,
        entry: u32,
        pack_offset: Option<u64>,
        kind: ObjectKind,
        size: u64,
        object: &ObjectOutcome,
        plain: Option<&Outcome>,
    ) {
        let id = object.sha1();
        self.done.push((entry, id.into()));
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
        if let (Some(c), Some(offset)) = (object.collision(), object.collision_offset()) {
            let _ = self.out.send(Message::Finding(finding(Check::Object, offset, c.dv())));
        }
        if let Some(c) = plain.and_then(Outcome::collision) {
            let _ = self.out.send(Message::Finding(finding(Check::Content, c.offset(), c.dv())));
        }
        if self.verified.len() >= 4096 {
            self.send_verified();
        }
    }

    fn send_verified(&mut self) {
        if !self.verified.is_empty() {
            let batch = std::mem::take(&mut self.verified);
            let _ = self.out.send(Message::Verified(batch));
        }
    }

    /// Hashes everything waiting and sends the reports on.
    pub(crate) fn flush(&mut self) {
        for s in 0..4 {
            self.flush_kind(s);
        }
        self.send_verified();
    }

    /// Reports damage.
    pub(crate) fn damage(&self, offset: Option<u64>, id: Option<[u8; 20]>, message: String) {
        Reporter::new(self.out.clone(), self.file).damage(offset, id, message);
    }
}

/// Damage reported for one file.
pub(crate) struct Reporter<'a> {
    out: Sender<Message>,
    file: &'a Path,
}

impl<'a> Reporter<'a> {
    pub(crate) fn new(out: Sender<Message>, file: &'a Path) -> Self {
        Reporter { out, file }
    }

    /// Reports damage at `offset` (in a pack), of object `id`.
    pub(crate) fn damage(&self, offset: Option<u64>, id: Option<[u8; 20]>, message: String) {
        let _ = self.out.send(Message::Damage(Damage {
            file: self.file.to_path_buf(),
            offset,
            id: id.map(Into::into),
            message,
        }));
    }
}
