//! The command: `git sha1dc` found on PATH and checking the current
//! repository, its exit statuses, its JSON, the same report on one and two
//! workers, no progress bar when not on a terminal.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::*;

const BIN: &str = env!("CARGO_BIN_EXE_git-sha1dc");

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .env_remove("GIT_DIR")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .output()
        .unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn collision_repo(dir: &Path) {
    init(dir);
    let pdf =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/shattered-1.pdf"))
            .unwrap();
    commit(dir, &[("a.pdf", &pdf), ("b.txt", b"hello\n")], "one");
    git(dir, &["repack", "-a", "-d", "-q"]);
}

#[test]
fn exit_statuses_json_and_the_same_report_on_any_worker_count() {
    let s = Scratch::new("cli");
    let repo = s.path("repo");
    collision_repo(&repo);
    let clean = run(&repo, &["--json"]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let doc = json(&clean);
    assert_eq!(
        doc["objects"]["total"].as_u64(),
        Some(git_objects(&repo).len() as u64)
    );
    assert_eq!(doc["findings"].as_array().unwrap().len(), 0);
    assert_eq!(doc["exit"], 0);

    let flagged = run(&repo, &["--content", "--json", "-j", "1"]);
    assert_eq!(flagged.status.code(), Some(3));
    let doc = json(&flagged);
    let f = &doc["findings"][0];
    assert_eq!(
        (
            f["check"].as_str(),
            f["type"].as_str(),
            f["offset"].as_u64(),
            f["dv"].as_str()
        ),
        (Some("content"), Some("blob"), Some(256), Some("II(52,0)"))
    );
    assert_eq!(
        f["id"].as_str().unwrap(),
        text(git(&repo, &["rev-parse", "HEAD:a.pdf"])).trim()
    );
    assert_eq!(f["size"].as_u64(), Some(422435));
    let two = run(&repo, &["--content", "--json", "-j", "2"]);
    assert_eq!(
        two.stdout, flagged.stdout,
        "-j 1 and -j 2 print the same report"
    );

    // The text form: the finding on stdout, the summary on stderr.
    let out = run(&repo, &["--content"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("collision material in a blob's content (content check)")
            && stdout.contains("offset 256, disturbance vector II(52,0)"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("verified 4 objects (1 commits, 1 trees, 2 blobs, 0 tags) in 1 files: 1 collisions, 0 damaged"), "{stderr}");
    assert!(
        !stderr.contains('\r'),
        "no progress bar when stderr is not a terminal"
    );

    // Damage alone: 1; damage and a collision: 3 (the collision wins).
    let bad = s.path("bad.pack");
    std::fs::write(&bad, b"PACK\0\0\0\x02\0\0\0\x05 not much of a pack at all").unwrap();
    assert_eq!(run(&s.0, &[bad.to_str().unwrap()]).status.code(), Some(1));
    let both = run(
        &s.0,
        &[
            "--content",
            "--json",
            bad.to_str().unwrap(),
            repo.to_str().unwrap(),
        ],
    );
    assert_eq!(both.status.code(), Some(3));
    let doc = json(&both);
    assert!(!doc["damage"].as_array().unwrap().is_empty());
    assert_eq!(doc["findings"].as_array().unwrap().len(), 1);
    assert_eq!(
        run(&s.0, &[s.path("missing").to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    // Usage errors: 2.
    for args in [&["-j", "0"][..], &["--no-such-option"], &["-j"]] {
        let out = run(&s.0, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: git sha1dc"));
    }
    assert_eq!(run(&s.0, &["--help"]).status.code(), Some(0));
}

/// git runs `git-sha1dc` on its PATH as `git sha1dc`; with no path it
/// checks the repository it runs in (from a subdirectory too).
#[test]
fn git_runs_it_as_a_subcommand_in_the_current_repository() {
    let s = Scratch::new("subcommand");
    let repo = s.path("repo");
    collision_repo(&repo);
    std::fs::create_dir_all(repo.join("sub")).unwrap();
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("git")
        .current_dir(repo.join("sub"))
        .args(["sha1dc", "--json"])
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        json(&out)["objects"]["total"].as_u64(),
        Some(git_objects(&repo).len() as u64)
    );
    // Outside any repository, with no path: an error, not a search of /.
    let outside = s.path("empty");
    std::fs::create_dir_all(&outside).unwrap();
    let out = run(&outside, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in a git repository"));
    let out = run(&outside, &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    assert!(
        doc["damage"][0]["message"]
            .as_str()
            .unwrap()
            .contains("not in a git repository")
    );
    assert_eq!(doc["exit"], 1);
}

/// In a `pre-receive` hook git keeps the pushed objects in a quarantine
/// (`$GIT_OBJECT_DIRECTORY`): they are what is checked, and a collision
/// refuses the push.
#[test]
fn a_pre_receive_hook_checks_the_pushed_objects() {
    let s = Scratch::new("hook");
    let (attack, clean, server) = (s.path("attack"), s.path("clean"), s.path("server.git"));
    collision_repo(&attack);
    init(&clean);
    commit(&clean, &[("c.txt", b"clean\n")], "clean");
    std::fs::create_dir_all(&server).unwrap();
    git(&server, &["init", "-q", "--bare"]);
    let hook = server.join("hooks/pre-receive");
    std::fs::write(&hook, format!("#!/bin/sh\nexec '{BIN}' --content -q\n")).unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let push = |repo: &Path| {
        Command::new("git")
            .current_dir(repo)
            .args(["push", "-q"])
            .arg(&server)
            .arg("HEAD:refs/heads/main")
            .env_remove("GIT_DIR")
            .output()
            .unwrap()
    };
    let refused = push(&attack);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(
        stderr.contains("collision material") && stderr.contains("tmp_objdir-incoming"),
        "{stderr}"
    );
    let taken = push(&clean);
    assert!(
        taken.status.success(),
        "{}",
        String::from_utf8_lossy(&taken.stderr)
    );
    // The objects directory git names is what is checked, loose objects
    // alone included (a small push).
    let out = Command::new(BIN)
        .current_dir(&s.0)
        .env("GIT_OBJECT_DIRECTORY", attack.join(".git/objects"))
        .env_remove("GIT_DIR")
        .args(["--content", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}

/// A `--json` run that failed (1) with one damage entry, saying `what`.
fn refused_alone(out: &Output, what: &str) {
    assert_eq!(out.status.code(), Some(1));
    let damage = json(out)["damage"].as_array().unwrap().clone();
    assert_eq!(damage.len(), 1, "{damage:?}");
    assert!(
        damage[0]["message"].as_str().unwrap().contains(what),
        "{damage:?}"
    );
}

/// Where there is no SHA-1 to check, or objects it cannot see, it says so
/// rather than report a clean repository or false damage.
#[test]
fn what_it_cannot_check_is_said() {
    let s = Scratch::new("cannot");
    // A SHA-256 repository, loose and packed, and its bundle.
    let sha256 = s.path("sha256");
    std::fs::create_dir_all(&sha256).unwrap();
    git(&sha256, &["init", "-q", "--object-format=sha256"]);
    commit(&sha256, &[("a.txt", b"a\n")], "one");
    for pack in [false, true] {
        if pack {
            git(&sha256, &["repack", "-a", "-d", "-q"]);
        }
        refused_alone(&run(&sha256, &["--json"]), "a SHA-256 repository");
        if pack {
            let pack_file = only_pack(&sha256);
            let out = run(&s.0, &[pack_file.to_str().unwrap()]);
            assert!(String::from_utf8_lossy(&out.stderr).contains("a SHA-256 repository"));
        }
    }
    let bundle = s.path("sha256.bundle");
    git(
        &sha256,
        &["bundle", "create", "-q", bundle.to_str().unwrap(), "--all"],
    );
    refused_alone(
        &run(&s.0, &["--json", bundle.to_str().unwrap()]),
        "sha256 objects",
    );

    // A bare repository that lost its objects directory.
    let bare = s.path("bare.git");
    std::fs::create_dir_all(&bare).unwrap();
    git(&bare, &["init", "-q", "--bare"]);
    std::fs::remove_dir_all(bare.join("objects")).unwrap();
    let out = run(&bare, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("without its objects directory"));

    // A clone borrowing its objects (`clone -s`): said, in both forms.
    let origin = s.path("origin");
    init(&origin);
    commit(&origin, &[("a.txt", b"a\n")], "one");
    git(
        &s.0,
        &["clone", "-q", "-s", origin.to_str().unwrap(), "borrower"],
    );
    let borrower = s.path("borrower");
    let out = run(&borrower, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("(objects/info/alternates) are not verified")
    );
    let out = run(&borrower, &["--json"]);
    let listed = json(&out)["alternates_not_verified"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        Path::new(&listed).ends_with("origin/.git/objects"),
        "{listed}"
    );

    // More workers than a process may start: capped, not an abort.
    let out = run(&origin, &["-q", "-j", "1000000"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
