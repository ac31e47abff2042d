//! The inflaters compared on a real pack's zlib streams, each stream
//! inflated whole into a buffer of its declared size, as the verifier
//! does: libdeflate (the one used), zlib-rs (gitoxide's) and miniz_oxide
//! (flate2's default), in interleaved rounds; the minimum of each.
//!
//!   cargo bench -p gitverify --bench inflate [PACK] [ROUNDS]
//!
//! Without PACK, a pack of this repository's history is made with
//! `git pack-objects`.

use std::time::{Duration, Instant};

use gitverify::entry::{self, Stored};
use gitverify::inflate::Inflater;

/// One zlib stream: where it starts in the pack and its inflated size.
struct Stream {
    start: usize,
    size: usize,
}

fn own_history_pack() -> Vec<u8> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let list = std::process::Command::new("git")
        .args(["-C", root, "rev-list", "--objects", "--all"])
        .output()
        .expect("git rev-list");
    let mut child = std::process::Command::new("git")
        .args(["-C", root, "pack-objects", "--stdout", "-q"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("git pack-objects");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&list.stdout).expect("feeding pack-objects");
    });
    let out = child.wait_with_output().expect("git pack-objects");
    feeder.join().expect("feeder");
    out.stdout
}

/// Every entry's stream, found by inflating each in order.
fn streams(pack: &[u8]) -> Vec<Stream> {
    let count = u32::from_be_bytes(pack[8..12].try_into().unwrap());
    let mut inflater = Inflater::new();
    let mut out = Vec::new();
    let mut at = 12;
    let mut list = Vec::new();
    for _ in 0..count {
        let h = entry::parse(&pack[at..], at as u64).expect("a valid entry header");
        let start = at + h.len;
        let used = inflater
            .inflate(&pack[start..pack.len() - 20], h.size, &mut out)
            .expect("a valid zlib stream");
        list.push(Stream {
            start,
            size: h.size as usize,
        });
        at = start + used;
        let _ = matches!(h.stored, Stored::Whole(_));
    }
    list
}

fn libdeflate(pack: &[u8], streams: &[Stream]) -> u64 {
    let mut inflater = Inflater::new();
    let mut out = Vec::new();
    let mut total = 0;
    for s in streams {
        inflater
            .inflate(&pack[s.start..], s.size as u64, &mut out)
            .expect("inflates");
        total += out.len() as u64;
    }
    total
}

fn zlib_rs(pack: &[u8], streams: &[Stream]) -> u64 {
    let mut inflate = zlib_rs::Inflate::new(true, 15);
    let mut out = Vec::new();
    let mut total = 0;
    for s in streams {
        inflate.reset(true);
        out.clear();
        out.resize(s.size, 0);
        let status = inflate
            .decompress(&pack[s.start..], &mut out, zlib_rs::InflateFlush::Finish)
            .expect("inflates");
        assert_eq!(status, zlib_rs::Status::StreamEnd);
        total += inflate.total_out();
    }
    total
}

fn miniz(pack: &[u8], streams: &[Stream]) -> u64 {
    use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};
    let mut state = Box::<DecompressorOxide>::default();
    let mut out = Vec::new();
    let mut total = 0;
    let flags = inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER
        | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    for s in streams {
        state.init();
        out.clear();
        out.resize(s.size, 0);
        let (status, _, written) = decompress(&mut state, &pack[s.start..], &mut out, 0, flags);
        assert!(written == s.size, "{status:?}");
        total += written as u64;
    }
    total
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let pack = match args.first() {
        Some(path) => std::fs::read(path).expect("reading the pack"),
        None => own_history_pack(),
    };
    let rounds: usize = args.get(1).map_or(5, |r| r.parse().expect("ROUNDS"));
    let streams = streams(&pack);
    let inflated: u64 = streams.iter().map(|s| s.size as u64).sum();
    println!(
        "{} streams, {:.1} MB compressed, {:.1} MB inflated; {rounds} interleaved rounds",
        streams.len(),
        pack.len() as f64 / 1e6,
        inflated as f64 / 1e6
    );
    type Run = fn(&[u8], &[Stream]) -> u64;
    let peers: [(&str, Run); 3] = [
        ("libdeflate", libdeflate),
        ("zlib-rs", zlib_rs),
        ("miniz_oxide", miniz),
    ];
    let mut best = [Duration::MAX; 3];
    for _ in 0..rounds {
        for (i, (_, run)) in peers.iter().enumerate() {
            let t = Instant::now();
            assert_eq!(run(&pack, &streams), inflated);
            best[i] = best[i].min(t.elapsed());
        }
    }
    for (i, (name, _)) in peers.iter().enumerate() {
        let secs = best[i].as_secs_f64();
        println!(
            "{name:12} {secs:8.3} s  {:7.0} MB/s inflated  {:5.2}x libdeflate's time",
            inflated as f64 / 1e6 / secs,
            secs / best[0].as_secs_f64()
        );
    }
}
