//! The output formats: --git-blob against git, --json, odd names, and GNU
//! sha1sum's own lines.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{SplitMix64, data_dir, tsv};
use crate::support::*;
use crate::tempdir::TempDir;

/// DERIVED.tsv rows as (file, expected git blob id).
fn derived() -> Vec<(String, String)> {
    tsv("DERIVED.tsv")
        .into_iter()
        .map(|row| {
            let file = row[0].rsplit("+ ").next().unwrap().to_string();
            assert_eq!(row[3], "no", "the blob header misaligns the collision");
            (file, row[4].clone())
        })
        .collect()
}

fn git_hash_object(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> String {
    require("git");
    let mut child = Command::new("git")
        .arg("hash-object")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or_default()).unwrap();
    drop(pipe);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn git_blob_matches_derived_tsv() {
    let rows = derived();
    assert_eq!(rows.len(), 5);
    let names: Vec<&str> = rows.iter().map(|(f, _)| f.as_str()).collect();
    let o = run(std::iter::once("--git-blob").chain(names.iter().copied()));
    let expected: String = rows.iter().map(|(f, id)| line(id, false, f)).collect();
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 0);
    // From standard input (read whole first) the same ids.
    for (file, id) in &rows {
        let content = fs::read(data_dir().join(file)).unwrap();
        let o = run_in(&data_dir(), ["--git-blob"], Some(&content));
        assert_eq!(stdout(&o), line(id, false, "-"));
    }
}

#[test]
#[cfg_attr(missing = "git", ignore = "git is not installed")]
fn git_blob_matches_git_hash_object() {
    let tmp = TempDir::new("git");
    let mut rng = SplitMix64(7);
    let mut random = vec![0u8; 300_001];
    rng.fill(&mut random);
    let files: [(&str, &[u8]); 4] = [
        ("empty", b""),
        ("abc", b"abc"),
        ("text", b"hello\nworld\n"),
        ("random", &random),
    ];
    for (name, content) in files {
        tmp.write(name, content);
        let o = run_in(&tmp.0, ["--git-blob", name], None);
        let git = git_hash_object(&tmp.0, &[name], None);
        assert_eq!(stdout(&o), format!("{git}  {name}\n"));
        let o = run_in(&tmp.0, ["--git-blob", "-"], Some(content));
        let git_stdin = git_hash_object(&tmp.0, &["--stdin"], Some(content));
        assert_eq!(git_stdin, git);
        assert_eq!(stdout(&o), format!("{git}  -\n"));
    }
    for file in COLLIDING {
        let o = run(["--git-blob", file]);
        let git = git_hash_object(&data_dir(), &["--no-filters", file], None);
        assert_eq!(stdout(&o), format!("{git}  {file}\n"));
        assert_eq!(code(&o), 0);
    }
}

#[test]
fn json_lines_exact() {
    let o = run_in(
        &data_dir(),
        ["--json", "shattered-1.pdf", "-", "sha1_reducedsha_coll.bin"],
        Some(b"abc"),
    );
    assert_eq!(
        stdout(&o),
        concat!(
            r#"{"file":"shattered-1.pdf","sha1":"38762cf7f55934b34d179ae6a4c80cadccbb7f0a","#,
            r#""output":"16e96b70000dd1e7c85b8368ee197754400e58ec","#,
            r#""collision":{"offset":256,"block":4,"dv":"II(52,0)","count":1}}"#,
            "\n",
            r#"{"file":"-","sha1":"a9993e364706816aba3e25717850c26c9cd0d89d","#,
            r#""output":"a9993e364706816aba3e25717850c26c9cd0d89d","collision":null}"#,
            "\n",
            r#"{"file":"sha1_reducedsha_coll.bin","sha1":"a56374e1cf4c3746499bc7c0acb39498ad2ee185","#,
            r#""output":"a56374e1cf4c3746499bc7c0acb39498ad2ee185","collision":null}"#,
            "\n",
        )
    );
    assert_eq!(code(&o), 3);

    let o = run([
        "--json",
        "--reduced-round",
        "sha-mbles-2.bin",
        "sha1_reducedsha_coll.bin",
    ]);
    assert_eq!(
        stdout(&o),
        concat!(
            r#"{"file":"sha-mbles-2.bin","sha1":"8ac60ba76f1999a1ab70223f225aefdc78d4ddc0","#,
            r#""output":"9ed5d77a4f48be1dbf3e9e15650733eb850897f2","#,
            r#""collision":{"offset":576,"block":9,"dv":"II(52,0)","count":1}}"#,
            "\n",
            r#"{"file":"sha1_reducedsha_coll.bin","sha1":"a56374e1cf4c3746499bc7c0acb39498ad2ee185","#,
            r#""output":"dd39885a2a5d8f59030b451e00cb45da9f9d3828","#,
            r#""collision":{"offset":64,"block":1,"dv":"II(52,0)","count":1}}"#,
            "\n",
        )
    );
}

#[test]
fn json_failed_input_prints_nothing() {
    let o = run(["--json", "missing", "sha-mbles-1.bin"]);
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(stdout(&o).starts_with(r#"{"file":"sha-mbles-1.bin","#));
    assert_eq!(code(&o), 1);
}

#[cfg(unix)]
#[test]
fn odd_file_names_json_escaped_and_exact() {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let tmp = TempDir::new("names");
    let tricky = "q\"b\\s\nn\tt\u{1}é";
    tmp.write(tricky, b"abc");
    let latin1 = OsString::from_vec(b"caf\xe9".to_vec());
    tmp.write(&latin1, b"abc");

    let o = run_in(
        &tmp.0,
        [OsStr::new("--json"), OsStr::new(tricky), &latin1],
        None,
    );
    let abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
    assert_eq!(
        stdout(&o),
        format!(
            "{{\"file\":\"q\\\"b\\\\s\\nn\\tt\\u0001é\",\"sha1\":\"{abc}\",\"output\":\"{abc}\",\"collision\":null}}\n\
             {{\"file\":\"caf\u{fffd}\",\"file_bytes\":\"636166e9\",\"sha1\":\"{abc}\",\"output\":\"{abc}\",\"collision\":null}}\n"
        )
    );
    assert_eq!(code(&o), 0);

    // Text mode prints the name's bytes as they are (nothing to escape).
    let o = run_in(&tmp.0, [&latin1], None);
    let mut expected = format!("{abc}  ").into_bytes();
    expected.extend_from_slice(latin1.as_bytes());
    expected.push(b'\n');
    assert_eq!(o.stdout, expected);
}

/// Names escaped as GNU coreutils 9 escapes them (whatever sha1sum is
/// installed), one line per file.
#[cfg(unix)]
#[test]
fn names_are_escaped_as_gnu_coreutils_9_does() {
    let tmp = TempDir::new("escaped");
    odd_names(&tmp);
    let o = run_in(&tmp.0, ["plain.txt", "back\\slash"], None);
    assert_eq!(
        stdout(&o),
        format!(
            "{}  plain.txt\n\\{}  back\\\\slash\n",
            sha1dc_wasm::hash(b"content 0\n").digest(),
            sha1dc_wasm::hash(b"content 2\n").digest()
        )
    );
    let o = run_in(&tmp.0, ["new\nline", "carriage\rreturn"], None);
    assert_eq!(stdout(&o).lines().count(), 2, "one line per file");
    assert!(stdout(&o).starts_with('\\'));
    assert!(stdout(&o).ends_with("  carriage\\rreturn\n"));
}

/// For files nothing flags, the output is GNU sha1sum's byte for byte, in
/// every style: escaped names, -b, --tag, -z.
#[cfg(unix)]
#[test]
#[cfg_attr(missing = "gnu-sha1sum", ignore = "no GNU sha1sum to compare with")]
fn unflagged_output_is_gnu_sha1sums() {
    let tmp = TempDir::new("gnu");
    let names = odd_names(&tmp);
    for flags in [
        &[][..],
        &["-b"],
        &["--tag"],
        &["-z"],
        &["--tag", "-z"],
        &["-t"],
    ] {
        let ours = run_with(&tmp.0, flags, &names);
        let args = flags
            .iter()
            .map(OsStr::new)
            .chain(names.iter().map(|n| n.as_os_str()));
        let gnu = gnu_sha1sum(&tmp.0, args);
        assert_eq!(ours.stdout, gnu.stdout, "{flags:?}");
        assert_eq!(code(&ours), 0);
    }
}

/// `sha1sum -c` accepts every line printed for unflagged files.
#[cfg(unix)]
#[test]
#[cfg_attr(missing = "gnu-sha1sum", ignore = "no GNU sha1sum to compare with")]
fn gnu_sha1sum_checks_our_lines() {
    let tmp = TempDir::new("gnu-check");
    let names = odd_names(&tmp);
    for flags in [&[][..], &["-b"], &["--tag"]] {
        let ours = run_with(&tmp.0, flags, &names);
        tmp.write("SUMS", &ours.stdout);
        let gnu = gnu_sha1sum(&tmp.0, ["-c", "--strict", "SUMS"]);
        assert_eq!(code_of(&gnu), 0, "{flags:?}: {}", stderr(&gnu));
        assert_eq!(
            String::from_utf8_lossy(&gnu.stdout).matches(": OK").count(),
            names.len()
        );
    }
}
