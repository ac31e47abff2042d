//! Hashing: the reference results in every mode, standard input, empty
//! and large inputs, memory, and the order of the output with -j.

use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::kat::Mode;
use crate::common::{SplitMix64, data_dir};
use crate::support::*;
use crate::tempdir::TempDir;
use sha1dc_wasm::Hasher;

#[test]
fn every_manifest_file_default_mode() {
    let tmp = TempDir::new("manifest");
    let mut names: Vec<String> = manifest().into_keys().collect();
    names.sort();
    for name in &names {
        if !name.starts_with("ctrl-") {
            fs::copy(data_dir().join(name), tmp.0.join(name)).unwrap();
        }
    }
    write_controls(&tmp);
    let o = run_in(&tmp.0, &names, None);
    let mut expected = String::new();
    for name in &names {
        let flagged = field(name, "collision_detected") == "yes";
        expected += &line(&field(name, "sha1dc_output_hex"), flagged, name);
    }
    assert_eq!(stdout(&o), expected);
    assert_eq!(stderr(&o), "");
    assert_eq!(code(&o), 3, "collisions among the inputs");
}

#[test]
fn clean_files_exit_0_with_two_spaces() {
    let tmp = TempDir::new("clean");
    let names = write_controls(&tmp);
    let o = run_in(&tmp.0, &names, None);
    let expected: String = names
        .iter()
        .map(|n| line(&field(n, "sha1dc_output_hex"), false, n))
        .collect();
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 0);
    // The reduced-round example is not flagged in the default mode.
    let o = run(["sha1_reducedsha_coll.bin"]);
    assert_eq!(
        stdout(&o),
        "a56374e1cf4c3746499bc7c0acb39498ad2ee185  sha1_reducedsha_coll.bin\n"
    );
    assert_eq!(code(&o), 0);
}

#[test]
fn collisions_are_marked_and_exit_3() {
    for name in COLLIDING {
        let o = run([name]);
        let hex = field(name, "sha1dc_output_hex");
        assert_eq!(stdout(&o), format!("{hex} *coll* {name}\n"));
        assert_eq!(stderr(&o), "");
        assert_eq!(code(&o), 3, "{name}");
    }
    // Known values, not only the TSV: the SHAttered pair differ once flagged.
    let o = run(["shattered-1.pdf", "shattered-2.pdf"]);
    assert_eq!(
        stdout(&o),
        "16e96b70000dd1e7c85b8368ee197754400e58ec *coll* shattered-1.pdf\n\
         e1761773e6a35916d99f891b77663e6405313587 *coll* shattered-2.pdf\n"
    );
}

#[test]
fn path_is_printed_as_given() {
    let path = data_dir().join("sha-mbles-2.bin");
    let o = run([&path]);
    assert_eq!(
        stdout(&o),
        format!(
            "9ed5d77a4f48be1dbf3e9e15650733eb850897f2 *coll* {}\n",
            path.display()
        )
    );
}

#[test]
fn no_safe_hash_prints_plain_sha1_still_marked() {
    let names: Vec<&str> = COLLIDING.to_vec();
    let o = run(std::iter::once("--no-safe-hash").chain(names.iter().copied()));
    let expected: String = names
        .iter()
        .map(|n| {
            let hex = trace(n, PLAIN);
            assert_eq!(hex, field(n, "sha1_plain_hex"));
            line(&hex, true, n)
        })
        .collect();
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 3);
}

#[test]
fn reduced_round_matches_manifest_and_trace() {
    let mut names: Vec<&str> = COLLIDING.to_vec();
    names.push("sha1_reducedsha_coll.bin");
    let o = run(std::iter::once("--reduced-round").chain(names.iter().copied()));
    let expected: String = names
        .iter()
        .map(|n| {
            let hex = field(n, "sha1dc_partialcoll_output_hex");
            assert_eq!(hex, trace(n, Mode::REDUCED_ROUND));
            line(
                &hex,
                field(n, "reduced_round_collision_detected") == "yes",
                n,
            )
        })
        .collect();
    assert_eq!(stdout(&o), expected);
    assert!(stdout(&o).starts_with("d3a1d09969c3b57113fd17b23e01dd3de74a99bb *coll* "));
    assert_eq!(code(&o), 3);

    // Both options: the plain SHA-1, flagged.
    let o = run([
        "--reduced-round",
        "--no-safe-hash",
        "sha1_reducedsha_coll.bin",
    ]);
    let plain_rr = Mode {
        reduced_round: true,
        ..PLAIN
    };
    let hex = trace("sha1_reducedsha_coll.bin", plain_rr);
    assert_eq!(hex, "a56374e1cf4c3746499bc7c0acb39498ad2ee185");
    assert_eq!(stdout(&o), line(&hex, true, "sha1_reducedsha_coll.bin"));
    assert_eq!(code(&o), 3);
}

#[test]
fn stdin_without_arguments_and_with_dash() {
    let pdf = fs::read(data_dir().join("shattered-1.pdf")).unwrap();
    let expected = "16e96b70000dd1e7c85b8368ee197754400e58ec *coll* -\n";
    let none: [&str; 0] = [];
    let o = run_in(&data_dir(), none, Some(&pdf));
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 3);
    let o = run_in(&data_dir(), ["-"], Some(&pdf));
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 3);

    // Mixed with files, in order.
    let o = run_in(&data_dir(), ["sha-mbles-1.bin", "-"], Some(b"abc"));
    assert_eq!(
        stdout(&o),
        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *coll* sha-mbles-1.bin\n\
         a9993e364706816aba3e25717850c26c9cd0d89d  -\n"
    );
    assert_eq!(code(&o), 3);
}

#[test]
fn empty_inputs() {
    let tmp = TempDir::new("empty");
    tmp.write("empty", b"");
    let o = run_in(&tmp.0, ["empty"], None);
    assert_eq!(
        stdout(&o),
        "da39a3ee5e6b4b0d3255bfef95601890afd80709  empty\n"
    );
    assert_eq!(code(&o), 0);
    let o = run_in(&tmp.0, ["-"], Some(b""));
    assert_eq!(stdout(&o), "da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n");
    assert_eq!(code(&o), 0);
    // stdin at end of file from the start (/dev/null).
    let o = run([] as [&str; 0]);
    assert_eq!(stdout(&o), "da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n");
    assert_eq!(code(&o), 0);
}

/// A file larger than any buffer: a SHAttered prefix (so the big file is
/// flagged at byte 256), then 72 MiB + 13 bytes of SplitMix64 output. The
/// expected result is the library's, fed in odd-sized chunks as it is written.
#[test]
fn large_file_streams_like_the_library() {
    let tmp = TempDir::new("large");
    let path = tmp.0.join("large.bin");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    let mut hasher = Hasher::new();
    let prefix = fs::read(data_dir().join("shattered-1.prefix320.bin")).unwrap();
    file.write_all(&prefix).unwrap();
    hasher.update(&prefix);
    let mut rng = SplitMix64(0x5eed);
    let mut chunk = vec![0u8; (1 << 20) + 13];
    let mut len = prefix.len() as u64;
    for _ in 0..72 {
        rng.fill(&mut chunk);
        file.write_all(&chunk).unwrap();
        hasher.update(&chunk);
        len += chunk.len() as u64;
    }
    drop(file);
    assert_eq!(fs::metadata(&path).unwrap().len(), len);
    let outcome = hasher.finalize();
    let c = outcome
        .collision()
        .expect("the SHAttered prefix is detected");
    assert_eq!(c.offset(), 256);

    let o = run_in(&tmp.0, ["large.bin", "--json"], None);
    assert_eq!(
        stdout(&o),
        format!(
            "{{\"file\":\"large.bin\",\"sha1\":\"{}\",\"output\":\"{}\",\"collision\":{{\"offset\":256,\"block\":4,\"dv\":\"II(52,0)\",\"count\":{}}}}}\n",
            outcome.sha1(),
            outcome.digest(),
            c.count()
        )
    );
    assert_eq!(code(&o), 3);
}

/// Memory stays constant on a long stream: feed 96 MiB through a pipe and
/// look at the process's peak resident size while it still runs.
#[cfg(target_os = "linux")]
#[test]
fn stdin_stream_in_constant_memory() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let mut hasher = Hasher::new();
    let mut rng = SplitMix64(99);
    let mut chunk = vec![0u8; 1 << 20];
    for _ in 0..96 {
        rng.fill(&mut chunk);
        pipe.write_all(&chunk).unwrap();
        hasher.update(&chunk);
    }
    let status = fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    drop(pipe);
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    let o = child.wait_with_output().unwrap();
    assert_eq!(stdout(&o), format!("{}  -\n", hasher.finalize().digest()));
    assert_eq!(code(&o), 0);
    assert!(peak_kib < 24 * 1024, "peak RSS {peak_kib} KiB after 96 MiB");
}

/// -j hashes in parallel and prints in argument order, failures in place;
/// every job count prints the same bytes.
#[test]
fn jobs_keep_argument_order() {
    let tmp = TempDir::new("jobs");
    let mut names = Vec::new();
    let mut rng = SplitMix64(7);
    for i in 0..300 {
        let name = format!("f{i:03}");
        if i % 97 == 5 {
            names.push(format!("missing{i}"));
        }
        // Sizes from empty to a few hundred KiB, so later files often finish first.
        let mut data = vec![0u8; (rng.below(4) * rng.below(100_000)) as usize];
        rng.fill(&mut data);
        tmp.write(&name, &data);
        names.push(name);
    }
    fs::copy(
        data_dir().join("sha-mbles-1.bin"),
        tmp.0.join("sha-mbles-1.bin"),
    )
    .unwrap();
    names.insert(150, "sha-mbles-1.bin".into());
    let reference = run_in(
        &tmp.0,
        std::iter::once("-j1".to_string()).chain(names.iter().cloned()),
        None,
    );
    assert_eq!(code(&reference), 1);
    assert_eq!(stdout(&reference).lines().count(), 301);
    for (i, line) in stdout(&reference).lines().enumerate().take(3) {
        let data = fs::read(tmp.0.join(format!("f{i:03}"))).unwrap();
        assert_eq!(
            line,
            format!("{}  f{i:03}", sha1dc_wasm::hash(&data).digest())
        );
    }
    for jobs in ["-j2", "-j7", "--jobs=64"] {
        let o = run_in(
            &tmp.0,
            std::iter::once(jobs.to_string()).chain(names.iter().cloned()),
            None,
        );
        assert_eq!(o.stdout, reference.stdout, "{jobs}");
        assert_eq!(o.stderr, reference.stderr, "{jobs}");
        assert_eq!(code(&o), 1);
    }
    // The default (one per CPU) too.
    let o = run_in(&tmp.0, &names, None);
    assert_eq!(o.stdout, reference.stdout);
}
