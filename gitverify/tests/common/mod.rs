//! What the tests share: a scratch directory, git run in it, packs and
//! indexes written by hand (for the inputs git never writes), and a run of
//! the verifier that keeps every event.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use gitverify::{Event, Options, Summary, Verified};
use sha1dc_wasm::git::ObjectKind;

/// A directory removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("gitverify-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs git in `dir` (no user configuration), returns its stdout; fails
/// the test when git fails.
pub fn git(dir: &Path, args: &[&str]) -> Vec<u8> {
    git_in(dir, args, None)
}

/// [`git`] with `input` on its standard input.
pub fn git_in(dir: &Path, args: &[&str], input: Option<&[u8]>) -> Vec<u8> {
    let mut child = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_AUTHOR_DATE", "2020-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("git runs (it must be installed for these tests)");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.map(<[u8]>::to_vec);
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        if let Some(input) = input {
            stdin.write_all(&input).unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

pub fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// A new repository in `dir`.
pub fn init(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
}

/// Writes `files` and commits them.
pub fn commit(dir: &Path, files: &[(&str, &[u8])], message: &str) {
    for (name, content) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        git(dir, &["add", name]);
    }
    git(dir, &["commit", "-q", "--allow-empty", "-m", message]);
}

/// Every object of the repository as git lists it: id -> (type, size).
pub fn git_objects(dir: &Path) -> BTreeMap<String, (String, u64)> {
    let out = text(git(
        dir,
        &["cat-file", "--batch-all-objects", "--batch-check"],
    ));
    out.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[0].to_string(), (f[1].to_string(), f[2].parse().unwrap()))
        })
        .collect()
}

/// `git show-index`: id -> offset of every object an index lists.
pub fn show_index(idx: &Path) -> BTreeMap<String, u64> {
    let bytes = std::fs::read(idx).unwrap();
    let out = text(git_in(Path::new("."), &["show-index"], Some(&bytes)));
    out.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[1].to_string(), f[0].parse().unwrap())
        })
        .collect()
}

/// `git index-pack -o IDX PACK`: git's own index of a pack, from the pack alone.
pub fn index_pack(pack: &Path, idx: &Path) {
    git(
        pack.parent().unwrap(),
        &[
            "index-pack",
            "-o",
            idx.to_str().unwrap(),
            pack.to_str().unwrap(),
        ],
    );
}

/// The single pack of a repository (after `git repack -a -d`).
pub fn only_pack(dir: &Path) -> PathBuf {
    let packs: Vec<PathBuf> = std::fs::read_dir(dir.join(".git/objects/pack"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pack"))
        .collect();
    assert_eq!(packs.len(), 1, "{packs:?}");
    packs[0].clone()
}

/// A verification's every event.
#[derive(Debug, Default)]
pub struct Run {
    pub summary: Summary,
    pub objects: Vec<Verified>,
}

impl Run {
    /// id -> (type, size) of every object verified.
    pub fn objects(&self) -> BTreeMap<String, (String, u64)> {
        self.objects
            .iter()
            .map(|o| (o.id.to_string(), (o.kind.name().to_string(), o.size)))
            .collect()
    }

    /// id -> pack offset.
    pub fn offsets(&self) -> BTreeMap<String, u64> {
        self.objects
            .iter()
            .map(|o| (o.id.to_string(), o.pack_offset.unwrap()))
            .collect()
    }

    /// The damage messages, each with its offset.
    pub fn damage(&self) -> Vec<String> {
        self.summary.damage.iter().map(|d| format!("{d}")).collect()
    }

    /// Asserts one damage message contains `what`.
    pub fn assert_damage(&self, what: &str) {
        assert!(
            self.damage().iter().any(|d| d.contains(what)),
            "no damage saying {what:?} in {:#?}",
            self.damage()
        );
    }
}

/// Verifies `path` with `threads` workers (and the content check).
pub fn verify(path: &Path, threads: usize, content: bool) -> Run {
    let sources = gitverify::sources(path).unwrap();
    verify_sources(&sources, threads, content)
}

pub fn verify_sources(sources: &[gitverify::Source], threads: usize, content: bool) -> Run {
    let options = Options {
        threads,
        content,
        ..Options::default()
    };
    verify_with(sources, &options)
}

/// `sources` verified with `options`.
pub fn verify_with(sources: &[gitverify::Source], options: &Options) -> Run {
    let mut run = Run::default();
    gitverify::verify(sources, options, &mut |e| {
        run.summary.add(e);
        if let Event::Verified(v) = e {
            run.objects.extend_from_slice(v);
        }
    });
    run.summary.sort();
    run.objects.sort_by_key(|o| o.id);
    let mut damage = run.damage();
    damage.sort();
    let twice = damage.windows(2).find(|w| w[0] == w[1]);
    assert!(twice.is_none(), "damage reported twice: {twice:#?}");
    run
}

/// A pack with no index.
pub fn verify_pack_alone(pack: &Path, threads: usize) -> Run {
    let sources = [gitverify::Source::Pack {
        pack: pack.to_path_buf(),
        index: None,
    }];
    verify_sources(&sources, threads, false)
}

/// The plain SHA-1 of `data`.
pub fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h = sha1dc_wasm::Hasher::builder()
        .detect_collisions(false)
        .build();
    h.update(data);
    h.finalize().sha1().into()
}

/// A git object's id.
pub fn object_id(kind: ObjectKind, content: &[u8]) -> [u8; 20] {
    sha1dc_wasm::git::hash_object(kind, content).sha1().into()
}

/// One entry of a pack written by hand.
pub enum Entry {
    Whole(ObjectKind, Vec<u8>),
    /// A delta against the entry this many entries earlier.
    Ofs(usize, Vec<u8>),
    /// A delta against the object with this id.
    Ref([u8; 20], Vec<u8>),
    /// Raw bytes of an entry (a header and data made up by the test).
    Raw(Vec<u8>),
}

/// `type` and `size` as a pack entry's header.
pub fn entry_header(type_id: u8, size: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut b = (type_id << 4) | (size & 15) as u8;
    let mut rest = size >> 4;
    while rest != 0 {
        out.push(b | 0x80);
        b = (rest & 0x7f) as u8;
        rest >>= 7;
    }
    out.push(b);
    out
}

fn ofs_encoding(mut back: u64) -> Vec<u8> {
    let mut out = vec![(back & 0x7f) as u8];
    back >>= 7;
    while back != 0 {
        back -= 1;
        out.insert(0, 0x80 | (back & 0x7f) as u8);
        back >>= 7;
    }
    out
}

pub fn zlib(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, 6)
}

/// A pack's bytes, and (offset, CRC32) of each entry.
pub struct Built {
    pub bytes: Vec<u8>,
    pub entries: Vec<(u64, u32)>,
}

/// Writes a pack of `entries`, with its trailer.
pub fn build_pack(entries: &[Entry]) -> Built {
    let mut bytes = b"PACK".to_vec();
    bytes.extend_from_slice(&2u32.to_be_bytes());
    bytes.extend_from_slice(&(entries.len() as u32).to_be_bytes());
    let mut offsets = Vec::new();
    for e in entries {
        let start = bytes.len();
        match e {
            Entry::Whole(kind, content) => {
                let t = match kind {
                    ObjectKind::Commit => 1,
                    ObjectKind::Tree => 2,
                    ObjectKind::Blob => 3,
                    ObjectKind::Tag => 4,
                };
                bytes.extend(entry_header(t, content.len() as u64));
                bytes.extend(zlib(content));
            }
            Entry::Ofs(back, delta) => {
                let base: u64 = offsets[offsets.len() - back];
                bytes.extend(entry_header(6, delta.len() as u64));
                bytes.extend(ofs_encoding(start as u64 - base));
                bytes.extend(zlib(delta));
            }
            Entry::Ref(id, delta) => {
                bytes.extend(entry_header(7, delta.len() as u64));
                bytes.extend_from_slice(id);
                bytes.extend(zlib(delta));
            }
            Entry::Raw(raw) => bytes.extend_from_slice(raw),
        }
        offsets.push(start as u64);
    }
    let mut ends = offsets.clone();
    ends.push(bytes.len() as u64);
    let crcs =
        (0..offsets.len()).map(|i| crc32fast::hash(&bytes[ends[i] as usize..ends[i + 1] as usize]));
    let entries = offsets.iter().copied().zip(crcs).collect();
    let trailer = sha1(&bytes);
    bytes.extend_from_slice(&trailer);
    Built { bytes, entries }
}

/// A version 2 index of (id, offset, CRC32) entries for the pack whose
/// trailer is `pack_checksum`.
pub fn build_index(mut objects: Vec<([u8; 20], u64, u32)>, pack_checksum: &[u8]) -> Vec<u8> {
    objects.sort();
    let mut b = vec![0xff, b't', b'O', b'c', 0, 0, 0, 2];
    for first in 0..256usize {
        let n = objects
            .iter()
            .filter(|o| usize::from(o.0[0]) <= first)
            .count() as u32;
        b.extend_from_slice(&n.to_be_bytes());
    }
    for o in &objects {
        b.extend_from_slice(&o.0);
    }
    for o in &objects {
        b.extend_from_slice(&o.2.to_be_bytes());
    }
    for o in &objects {
        b.extend_from_slice(&(o.1 as u32).to_be_bytes());
    }
    b.extend_from_slice(pack_checksum);
    let own = sha1(&b);
    b.extend_from_slice(&own);
    b
}

/// A delta: base size, result size, then the instructions.
pub fn delta(base_len: usize, result_len: usize, ops: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for mut n in [base_len, result_len] {
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            out.push(if n != 0 { b | 0x80 } else { b });
            if n == 0 {
                break;
            }
        }
    }
    out.extend_from_slice(ops);
    out
}

/// A copy instruction: `len` bytes of the base at `offset`.
pub fn copy_op(offset: u32, len: u32) -> Vec<u8> {
    let mut op = 0x80u8;
    let mut args = Vec::new();
    for i in 0..4 {
        let b = (offset >> (8 * i)) as u8;
        if b != 0 {
            op |= 1 << i;
            args.push(b);
        }
    }
    for i in 0..3 {
        let b = (len >> (8 * i)) as u8;
        if b != 0 {
            op |= 0x10 << i;
            args.push(b);
        }
    }
    let mut out = vec![op];
    out.extend(args);
    out
}

/// A delta making `target` from `base`: their common prefix and suffix
/// copied, the middle inserted.
pub fn make_delta(base: &[u8], target: &[u8]) -> Vec<u8> {
    let prefix = base.iter().zip(target).take_while(|(a, b)| a == b).count();
    let most = base.len().min(target.len()) - prefix;
    let suffix = base
        .iter()
        .rev()
        .zip(target.iter().rev())
        .take(most)
        .take_while(|(a, b)| a == b)
        .count();
    let mut ops = Vec::new();
    if prefix > 0 {
        ops.extend(copy_op(0, prefix as u32));
    }
    for chunk in target[prefix..target.len() - suffix].chunks(127) {
        ops.push(chunk.len() as u8);
        ops.extend_from_slice(chunk);
    }
    if suffix > 0 {
        ops.extend(copy_op((base.len() - suffix) as u32, suffix as u32));
    }
    delta(base.len(), target.len(), &ops)
}
