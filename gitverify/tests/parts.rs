//! Verifications that share the work without sharing memory (one
//! WebAssembly instance each): the parts together report what one
//! verification of the whole reports, and each does only its share.

mod common;

use common::*;
use gitverify::{Event, Options, Summary, SystemFiles};

#[test]
fn the_parts_report_what_the_whole_reports() {
    let s = Scratch::new("parts");
    let repo = s.path("repo");
    init(&repo);
    let shattered = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/shattered-1.pdf"
    ))
    .unwrap();
    let mut text = String::new();
    for i in 0..60 {
        text.push_str(&format!(
            "line {i} of a file that grows by a line a commit\n"
        ));
        let more = format!("{i}\n").repeat(i + 1);
        let mut files = vec![("a.txt", text.as_bytes()), ("b/c.txt", more.as_bytes())];
        if i == 30 {
            files.push(("s.pdf", &shattered));
        }
        commit(&repo, &files, "c");
    }
    git(&repo, &["repack", "-adq", "--depth=50"]);
    commit(&repo, &[("loose.txt", b"loose\n")], "loose");
    // A copy damaged in its middle with the index beside it, and one without.
    let pack = only_pack(&repo);
    let mut damaged = std::fs::read(&pack).unwrap();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x55;
    std::fs::write(s.path("damaged.pack"), &damaged).unwrap();
    std::fs::copy(pack.with_extension("idx"), s.path("damaged.idx")).unwrap();
    std::fs::write(s.path("alone.pack"), &damaged).unwrap();

    let mut sources = gitverify::sources(&repo).unwrap();
    for name in ["damaged.pack", "alone.pack"] {
        sources.extend(gitverify::sources(&s.path(name)).unwrap());
    }
    let options = Options {
        content: true,
        ..Options::default()
    };
    let mut whole = Summary::default();
    gitverify::verify_without_threads_in(&SystemFiles, &sources, &options, &mut |e: &Event| {
        whole.add(e)
    });
    whole.sort();
    assert!(!whole.findings.is_empty() && !whole.damage.is_empty());
    for (parts, gather) in [(1, 0), (2, 0), (3, 0), (2, 2048)] {
        let options = Options {
            gather,
            ..options.clone()
        };
        let mut together = Summary::default();
        for part in 0..parts {
            let mut sink = |e: &Event| together.add(e);
            gitverify::verify_part_without_threads_in(
                &SystemFiles,
                &sources,
                &options,
                (part, parts),
                &mut sink,
            );
        }
        together.sort();
        assert_eq!(together, whole, "{parts} parts, {gather} bytes read ahead");
    }
    // One pack with its index: its trees are shared out, every part
    // walks some and none all.
    let one = &sources[..1];
    assert!(matches!(
        one[0],
        gitverify::Source::Pack { index: Some(_), .. }
    ));
    let mut all = Summary::default();
    gitverify::verify_without_threads_in(&SystemFiles, one, &options, &mut |e: &Event| all.add(e));
    for part in 0..2 {
        let mut mine = Summary::default();
        let mut sink = |e: &Event| mine.add(e);
        gitverify::verify_part_without_threads_in(
            &SystemFiles,
            one,
            &options,
            (part, 2),
            &mut sink,
        );
        let (n, of) = (mine.counts.total(), all.counts.total());
        assert!(n > 0 && n < of, "part {part}: {n} objects of {of}");
    }
}
