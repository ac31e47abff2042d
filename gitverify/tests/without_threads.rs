//! The paths the web page and Python will take: a verification that
//! starts no thread, its events given to a sink as they come, and a pack
//! read from bytes in memory; each reports what the threaded path
//! reports. One test in this file, so that the process's threads are
//! this test's alone.

mod common;

use common::*;
use gitverify::{Event, Options, Summary, Verified};

/// The threads of this process (Linux), or none where they are not listed.
fn threads_now() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

#[test]
fn without_threads_and_from_memory_as_with_threads() {
    let s = Scratch::new("nothreads");
    let repo = s.path("repo");
    init(&repo);
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!(
            "line {i} of a file that grows by a line a commit\n"
        ));
        let more = format!("{i}\n").repeat(i + 1);
        commit(
            &repo,
            &[("a.txt", text.as_bytes()), ("b/c.txt", more.as_bytes())],
            "c",
        );
    }
    git(&repo, &["repack", "-adq", "--depth=50"]);
    // A loose object besides the pack, and damage: bytes after the pack's
    // trailer are not read, a second copy of the pack damaged in its middle.
    commit(&repo, &[("loose.txt", b"loose\n")], "loose");
    let pack = only_pack(&repo);
    let bytes = std::fs::read(&pack).unwrap();
    let mut damaged = bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x55;
    std::fs::write(s.path("damaged.pack"), &damaged).unwrap();

    let mut sources = gitverify::sources(&repo).unwrap();
    sources.extend(gitverify::sources(&s.path("damaged.pack")).unwrap());
    let options = Options {
        threads: 2,
        content: true,
        ..Options::default()
    };
    let mut threaded = (Summary::default(), Vec::new());
    gitverify::verify(&sources, &options, &mut |e| keep(&mut threaded, e));

    let before = threads_now();
    let here = std::thread::current().id();
    let mut unthreaded = (Summary::default(), Vec::new());
    let mut most_threads = before;
    let mut sink = |e: &Event| {
        assert_eq!(
            std::thread::current().id(),
            here,
            "an event on another thread"
        );
        most_threads = most_threads.max(threads_now());
        keep(&mut unthreaded, e);
    };
    gitverify::verify_without_threads(&sources, &options, &mut sink);
    assert_eq!(most_threads, before, "a thread was started");
    assert_eq!(sorted(unthreaded), sorted(threaded.clone()));
    assert!(threaded.0.counts.total() > 100 && !threaded.0.damage.is_empty());

    // The pack from memory (a slice), index-less: its objects as the file's.
    let mut from_memory = (Summary::default(), Vec::new());
    let name = std::path::Path::new("in-memory.pack");
    let keep_it = &mut |e: &Event| keep(&mut from_memory, e);
    gitverify::verify_pack_from(&bytes[..], name, &options, keep_it);
    let (summary, objects) = sorted(from_memory);
    let alone = verify_pack_alone(&pack, 2);
    assert_eq!(objects, alone.objects);
    assert_eq!(summary.counts, alone.summary.counts);
    assert!(summary.damage.is_empty(), "{:?}", summary.damage);
}

fn keep(run: &mut (Summary, Vec<Verified>), event: &Event) {
    run.0.add(event);
    if let Event::Verified(v) = event {
        run.1.extend_from_slice(v);
    }
}

fn sorted((mut summary, mut objects): (Summary, Vec<Verified>)) -> (Summary, Vec<Verified>) {
    summary.sort();
    objects.sort_by_key(|o| (o.id, o.pack_offset));
    (summary, objects)
}
