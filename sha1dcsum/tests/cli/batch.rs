//! Small files hashed in groups through the batch API: byte for byte what
//! the streaming path gives, failures included, hashing and checking.

use std::fs;

use crate::common::{SplitMix64, data_dir};
use crate::support::*;
use crate::tempdir::TempDir;

/// Small files are hashed in groups through the batch API: the output is
/// what the library gives for each file alone.
#[test]
fn many_small_files_batch_equals_each_file_alone() {
    let tmp = TempDir::new("batch");
    let names = many_files(&tmp, 0xba7c4);
    // Checked against the library directly, file by file.
    let o = run_batch(&tmp.0, &names, true);
    let mut want = String::new();
    for name in &names {
        let outcome = sha1dc_wasm::hash(&fs::read(tmp.0.join(name)).unwrap());
        want += &line(
            &outcome.digest().to_string(),
            outcome.collision().is_some(),
            name,
        );
    }
    assert_eq!(stdout(&o), want);
    assert_eq!(code(&o), 3);
    let o = run_batch(&tmp.0, with(&["--git-blob"], &names), true);
    let mut want = String::new();
    for name in &names {
        let content = fs::read(tmp.0.join(name)).unwrap();
        let outcome = sha1dc_wasm::git::hash_object(sha1dc_wasm::git::ObjectKind::Blob, &content);
        want += &line(
            &outcome.id().to_string(),
            outcome.collision().is_some(),
            name,
        );
    }
    assert_eq!(stdout(&o), want);
}

/// In every output mode, with and without -j, the output of the batch is
/// that of the streaming path, byte for byte.
#[test]
fn many_small_files_batch_equals_streaming_in_every_mode() {
    let tmp = TempDir::new("batch-modes");
    let names = many_files(&tmp, 0xba7c4);
    // Every mode, against the streaming path on one thread.
    for mode in [
        &[][..],
        &["-b"],
        &["--tag"],
        &["-z"],
        &["--json"],
        &["--no-safe-hash"],
        &["--reduced-round"],
        &["--git-blob"],
        &["--git-blob", "--json"],
        &["--backend", "portable", "--tag"],
    ] {
        let reference = run_batch(&tmp.0, with(&[mode, &["-j1"]].concat(), &names), false);
        // A git blob's header moves the collision blocks: no collision.
        let status = if mode.contains(&"--git-blob") { 0 } else { 3 };
        assert_eq!(code(&reference), status, "{mode:?}");
        assert_eq!(reference.stderr, b"", "{mode:?}");
        for jobs in [&["-j1"][..], &["-j3"], &[]] {
            let o = run_batch(&tmp.0, with(&[mode, jobs].concat(), &names), true);
            assert_eq!(o.stdout, reference.stdout, "{mode:?} {jobs:?}");
            assert_eq!(o.stderr, reference.stderr, "{mode:?} {jobs:?}");
            assert_eq!(code(&o), status, "{mode:?} {jobs:?}");
        }
    }
    // And one file per invocation, for the collision files and a few others.
    let all = run_batch(&tmp.0, with(&["--json"], &names), true);
    let text = stdout(&all);
    let lines: Vec<&str> = text.lines().collect();
    for (i, name) in names.iter().enumerate() {
        if i % 37 == 0 || !name.starts_with('f') {
            let alone = run_batch(&tmp.0, ["--json", name.as_str()], true);
            assert_eq!(stdout(&alone), format!("{}\n", lines[i]), "{name}");
        }
    }
}

/// Inputs that fail in the middle of a group (a read error, a dangling
/// symlink, a missing file, a directory, a file that is not readable, a
/// file whose size changes under --git-blob) get the streaming path's error,
/// in their place; the other files of the group still get their lines.
#[cfg(target_os = "linux")]
#[test]
fn failures_in_a_group_lose_nothing() {
    let tmp = TempDir::new("batch-fail");
    let (names, denied) = small_files_and_failing_inputs(&tmp);
    for mode in [&[][..], &["--git-blob"], &["--json"]] {
        // The same arguments for both: /proc/self/cmdline holds them.
        for jobs in [&["-j1"][..], &["-j2"]] {
            let args = with(&[mode, jobs].concat(), &names);
            let reference = run_batch(&tmp.0, &args, false);
            let errors = stderr(&reference);
            let mut want = vec![
                "sha1dcsum: /proc/self/mem: Input/output error",
                "sha1dcsum: dangling: No such file or directory",
                "sha1dcsum: missing: No such file or directory",
                "sha1dcsum: subdir: Is a directory",
            ];
            if denied {
                want.push("sha1dcsum: secret: Permission denied");
            }
            if mode == ["--git-blob"] {
                want.push(
                    "sha1dcsum: /proc/self/cmdline: file size changed while reading \
                     (expected 0 bytes, read ",
                );
            }
            let got: Vec<&str> = errors.lines().collect();
            assert_eq!(got.len(), want.len(), "{mode:?}: {errors}");
            for (got, want) in got.iter().zip(&want) {
                assert!(got.starts_with(want), "{mode:?}: {got} is not {want}");
            }
            let printed = names.len() - want.len();
            assert_eq!(stdout(&reference).lines().count(), printed, "{mode:?}");
            assert_eq!(code(&reference), 1);
            let o = run_batch(&tmp.0, &args, true);
            assert_eq!(stdout(&o), stdout(&reference), "{mode:?} {jobs:?}");
            assert_eq!(stderr(&o), errors, "{mode:?} {jobs:?}");
            assert_eq!(code(&o), 1, "{mode:?} {jobs:?}");
        }
    }
}

/// Small files, with inputs that fail among them: their names, and whether
/// the unreadable one is really refused (not to root).
#[cfg(target_os = "linux")]
fn small_files_and_failing_inputs(tmp: &TempDir) -> (Vec<String>, bool) {
    use std::os::unix::fs::PermissionsExt;
    let mut names = Vec::new();
    let mut rng = SplitMix64(0xfa11);
    for i in 0..100 {
        let mut data = vec![0u8; rng.below(5000) as usize];
        rng.fill(&mut data);
        let name = format!("f{i:03}");
        tmp.write(&name, &data);
        names.push(name);
    }
    std::os::unix::fs::symlink("nowhere", tmp.0.join("dangling")).unwrap();
    fs::create_dir(tmp.0.join("subdir")).unwrap();
    let secret = tmp.write("secret", b"abc");
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o000)).unwrap();
    let denied = fs::read(&secret).is_err();
    names.insert(10, "/proc/self/mem".into());
    names.insert(20, "dangling".into());
    names.insert(30, "missing".into());
    names.insert(40, "subdir".into());
    names.insert(50, "secret".into());
    // A regular file that says 0 bytes and has some: --git-blob fails.
    names.insert(60, "/proc/self/cmdline".into());
    names.insert(70, "sha-mbles-1.bin".into());
    fs::copy(
        data_dir().join("sha-mbles-1.bin"),
        tmp.0.join("sha-mbles-1.bin"),
    )
    .unwrap();
    (names, denied)
}

/// -c hashes the listed files through the batch too: the same verdicts,
/// warnings and status as on the streaming path.
#[test]
fn check_many_small_files_batch_equals_streaming() {
    let tmp = TempDir::new("batch-check");
    let names = many_files(&tmp, 0xc4ec);
    let sums = run_batch(&tmp.0, &names, false);
    let mut list = stdout(&sums);
    // A missing file and a changed one.
    list += "0000000000000000000000000000000000000000  gone\n";
    list += &format!("{}  f001\n", "1".repeat(40));
    tmp.write("SUMS", list.as_bytes());
    for options in [&[][..], &["--ignore-missing"], &["--quiet"]] {
        let reference = run_batch(&tmp.0, [options, &["-c", "-j1", "SUMS"]].concat(), false);
        assert_eq!(code(&reference), 1, "{options:?}");
        let out = stdout(&reference);
        assert_eq!(out.matches(": COLLISION\n").count(), 6, "{options:?}");
        assert!(out.contains("f001: FAILED\n"), "{options:?}");
        for jobs in ["-j1", "-j3"] {
            let o = run_batch(&tmp.0, [options, &["-c", jobs, "SUMS"]].concat(), true);
            assert_eq!(o.stdout, reference.stdout, "{options:?} {jobs}");
            assert_eq!(o.stderr, reference.stderr, "{options:?} {jobs}");
            assert_eq!(code(&o), 1, "{options:?} {jobs}");
        }
    }
}
