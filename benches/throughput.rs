//! Throughput of this crate (automatic backend, each backend forced, and
//! one input on two threads: `update_parallel`, `update_reader_parallel`)
//! against `sha1` 0.11 (plain SHA-1, SHA-NI where the CPU has it, no
//! detection), `sha1dc` 0.1.5 and `sha1-checked` 0.10, at 64 B, 16 KiB and
//! 1 MiB. Every round times every contender once, interleaved, so a noisy
//! neighbour slows all of them alike; it prints the median MiB/s over the
//! rounds by wall clock and by CPU time (all the process's threads), and
//! the medians of the per-round ratios to `sha1` (wall and CPU) and to
//! `sha1dc` (wall).
//!
//! ```text
//! cargo bench --bench throughput                       # all, 11 rounds
//! cargo bench --bench throughput -- --rounds 21 --sizes 1m,64
//! cargo bench --bench throughput -- --only portable,sha1-checked
//! cargo bench --bench throughput -- --sizes 256k,1m,1g --only "auto,sha1dc 0"
//! ```
//! `--only` keeps the contenders whose names contain one of the given
//! strings (`sha1` 0.11 always runs, for the ratio); `--ms` sets the time
//! per measurement (default 40; a call that takes longer is timed once).
//! For instruction counts, run the bench binary under
//! `valgrind --tool=callgrind` with `--rounds 1`.
// Built with the dev-dependencies, whose peers need Rust 1.87: not with
// the library's rust-version.
#![allow(clippy::incompatible_msrv)]

mod common;
use common::median;

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../tests/common/splitmix.rs"]
mod splitmix;

use sha1_011::Digest as _;

type HashFn = Box<dyn Fn(&[u8]) -> [u8; 20]>;

struct Contender {
    name: String,
    run: HashFn,
}

fn contenders() -> Vec<Contender> {
    let mut all = vec![Contender {
        name: "sha1 0.11 (plain)".into(),
        run: Box::new(|d| sha1_011::Sha1::digest(d).into()),
    }];
    all.push(Contender {
        name: "sha1dc-wasm auto".into(),
        run: Box::new(|d| *sha1dc_wasm::hash(d).digest().as_bytes()),
    });
    // One input on two threads: the filter ahead on the second.
    all.push(Contender {
        name: "sha1dc-wasm auto, 2 threads".into(),
        run: Box::new(|d| {
            let mut h = sha1dc_wasm::Hasher::new();
            h.update_parallel(d);
            *h.finalize().digest().as_bytes()
        }),
    });
    all.push(Contender {
        name: "sha1dc-wasm auto, 2 threads, Read".into(),
        run: Box::new(|d| {
            let mut h = sha1dc_wasm::Hasher::new();
            h.update_reader_parallel(d).expect("a slice reads");
            *h.finalize().digest().as_bytes()
        }),
    });
    for name in sha1dc_wasm::available_backends() {
        let builder = sha1dc_wasm::Hasher::builder().backend(name).unwrap();
        all.push(Contender {
            name: format!("sha1dc-wasm {name}"),
            run: Box::new(move |d| {
                let mut h = builder.build();
                h.update(d);
                *h.finalize().digest().as_bytes()
            }),
        });
    }
    // The compressor alone: what detection costs on top of it.
    let name = sha1dc_wasm::Hasher::new().backend();
    let plain = sha1dc_wasm::Hasher::builder().detect_collisions(false);
    all.push(Contender {
        name: format!("sha1dc-wasm {name} no-detect"),
        run: Box::new(move |d| {
            let mut h = plain.build();
            h.update(d);
            *h.finalize().digest().as_bytes()
        }),
    });
    all.push(Contender {
        name: "sha1dc 0.1.5".into(),
        run: Box::new(|d| sha1dc::digest(d).expect("no collision").into()),
    });
    all.push(Contender {
        name: "sha1-checked 0.10".into(),
        run: Box::new(|d| {
            sha1_checked::Sha1::try_digest(d)
                .hash()
                .as_slice()
                .try_into()
                .unwrap()
        }),
    });
    all
}

/// CPU time of the whole process (every thread) so far.
fn cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(status, 0, "clock_gettime");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Wall-clock and CPU seconds of `reps` calls of `run` on `data`.
fn time(run: &HashFn, data: &[u8], reps: u64) -> (f64, f64) {
    let (start, cpu) = (Instant::now(), cpu_time());
    for _ in 0..reps {
        black_box(run(black_box(data)));
    }
    let wall = start.elapsed().as_secs_f64();
    (wall, (cpu_time() - cpu).as_secs_f64())
}

/// MiB/s of `run` on `data`, by wall clock and by CPU time, hashed
/// repeatedly for about `budget` (once when one call takes longer).
fn measure(run: &HashFn, data: &[u8], budget: Duration) -> (f64, f64) {
    let budget = budget.as_secs_f64();
    // Calibrate: how many calls fit in a tenth of the budget.
    let mut reps = 1u64;
    let (mut wall, mut cpu) = time(run, data, reps);
    while wall * 10.0 < budget {
        reps *= 2;
        (wall, cpu) = time(run, data, reps);
    }
    if wall < budget {
        reps = (reps as f64 * budget / wall).ceil() as u64;
        (wall, cpu) = time(run, data, reps);
    }
    let mib = data.len() as f64 * reps as f64 / (1024.0 * 1024.0);
    (mib / wall, mib / cpu)
}

fn parse_size(s: &str) -> usize {
    let s = s.to_ascii_lowercase();
    let (num, mult) = if let Some(n) = s.strip_suffix('g') {
        (n, 1 << 30)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 1 << 20)
    } else if let Some(n) = s.strip_suffix('k') {
        (n, 1 << 10)
    } else {
        (s.as_str(), 1)
    };
    num.parse::<usize>().expect("size: N, Nk or Nm") * mult
}

fn label(size: usize) -> String {
    match size {
        s if s >= 1 << 30 && s % (1 << 30) == 0 => format!("{} GiB", s >> 30),
        s if s >= 1 << 20 && s % (1 << 20) == 0 => format!("{} MiB", s >> 20),
        s if s >= 1 << 10 && s % (1 << 10) == 0 => format!("{} KiB", s >> 10),
        s => format!("{s} B"),
    }
}

fn main() {
    let mut rounds = 11;
    let mut sizes = vec![64, 16 << 10, 1 << 20];
    let mut only: Vec<String> = vec![];
    let mut ms = 40;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--ms" => ms = args.next().and_then(|v| v.parse().ok()).expect("--ms N"),
            "--sizes" => {
                sizes = args
                    .next()
                    .expect("--sizes a,b")
                    .split(',')
                    .map(parse_size)
                    .collect()
            }
            "--only" => {
                only = args
                    .next()
                    .expect("--only a,b")
                    .split(',')
                    .map(str::to_owned)
                    .collect()
            }
            _ => {} // cargo bench passes --bench
        }
    }
    let budget = Duration::from_millis(ms);
    let contenders: Vec<Contender> = contenders()
        .into_iter()
        .enumerate()
        .filter(|(i, c)| *i == 0 || only.is_empty() || only.iter().any(|o| c.name.contains(o)))
        .map(|(_, c)| c)
        .collect();

    // Seeded bytes (the 1 MiB control's generator and seed): random data
    // never trips the detector.
    let data = splitmix::splitmix64_bytes(0x0123_4567_89ab_cdef, *sizes.iter().max().unwrap());

    // Every contender agrees on the plain SHA-1 of random data.
    for &size in &sizes {
        let want = (contenders[0].run)(&data[..size]);
        for c in &contenders {
            assert_eq!((c.run)(&data[..size]), want, "{} disagrees", c.name);
        }
    }

    println!("CPU: {}", common::cpu());
    println!(
        "{} rounds, {} ms per measurement; auto backend: {}",
        rounds,
        ms,
        sha1dc_wasm::Hasher::new().backend()
    );
    let peer = contenders
        .iter()
        .position(|c| c.name.starts_with("sha1dc 0"));
    for &size in &sizes {
        let input = &data[..size];
        // Per contender: (wall, CPU) MiB/s of each round.
        let mut speeds = vec![Vec::new(); contenders.len()];
        for round in 0..rounds {
            // Rotate the order each round so no one always goes first.
            for k in 0..contenders.len() {
                let i = (k + round) % contenders.len();
                speeds[i].push(measure(&contenders[i].run, input, budget));
            }
        }
        println!(
            "\n{:<34} {:>8} {:>7} {:>8} {:>7} {:>8}",
            label(size),
            "MiB/s",
            "x sha1",
            "CPU",
            "x sha1",
            "x sha1dc"
        );
        for (c, v) in contenders.iter().zip(&speeds) {
            let ratio = |to: &[(f64, f64)], part: fn(&(f64, f64)) -> f64| {
                let mut r: Vec<f64> = v.iter().zip(to).map(|(a, b)| part(a) / part(b)).collect();
                median(&mut r)
            };
            let (wall, cpu) = (|s: &(f64, f64)| s.0, |s: &(f64, f64)| s.1);
            let mut walls: Vec<f64> = v.iter().map(wall).collect();
            let mut cpus: Vec<f64> = v.iter().map(cpu).collect();
            let vs_peer = peer.map_or(f64::NAN, |p| ratio(&speeds[p], wall));
            println!(
                "{:<34} {:>8.1} {:>7.3} {:>8.1} {:>7.3} {:>8.3}",
                c.name,
                median(&mut walls),
                ratio(&speeds[0], wall),
                median(&mut cpus),
                ratio(&speeds[0], cpu),
                vs_peer
            );
        }
    }
}
