//! --recursive: the regular files below directories, in a stable order,
//! symbolic links not followed, unlistable directories reported in place.

use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;

use crate::common::data_dir;
use crate::support::*;
use crate::tempdir::TempDir;

/// A tree in `root`: names whose byte order differs from a locale's and
/// from the order of whole paths, a subdirectory at each level, a flagged
/// file, a name that is not UTF-8; returns the files' relative paths in the
/// order expected (each directory's entries by the bytes of their names).
fn tree(root: &Path) -> Vec<Vec<u8>> {
    let files: [&[u8]; 9] = [
        b"B",
        b"a",
        b"b/x",
        b"b-x",
        b"b0",
        b"sub/deeper/z",
        b"sub/y",
        b"\xc3\xa9",
        b"\xff",
    ];
    fs::create_dir_all(root.join("sub/deeper")).unwrap();
    fs::create_dir_all(root.join("b")).unwrap();
    fs::create_dir_all(root.join("empty")).unwrap();
    for (i, file) in files.iter().enumerate() {
        let path = root.join(OsString::from_vec(file.to_vec()));
        fs::write(path, format!("file {i}\n")).unwrap();
    }
    fs::copy(data_dir().join("sha-mbles-1.bin"), root.join("sub/m")).unwrap();
    let mut want: Vec<Vec<u8>> = files.iter().map(|f| f.to_vec()).collect();
    want.insert(6, b"sub/m".to_vec());
    want
}

/// The lines the command prints for `files`, hashed one by one by the
/// library, each named `prefix` + its path.
fn lines_for(root: &Path, prefix: &str, files: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for file in files {
        let content = fs::read(root.join(OsString::from_vec(file.clone()))).unwrap();
        let outcome = sha1dc_wasm::hash(&content);
        let mark: &[u8] = if outcome.collision().is_some() {
            b" *coll* "
        } else {
            b"  "
        };
        out.extend_from_slice(outcome.digest().to_string().as_bytes());
        out.extend_from_slice(mark);
        out.extend_from_slice(prefix.as_bytes());
        out.extend_from_slice(file);
        out.push(b'\n');
    }
    out
}

#[test]
fn recursive_hashes_every_file_in_byte_order() {
    let tmp = TempDir::new("recursive");
    let want = tree(&tmp.0.join("t"));
    for (args, prefix) in [
        (&["-r", "t"][..], "t/"),
        (&["--recursive", "t/"], "t/"),
        (&["-rj1", "./t"], "./t/"),
    ] {
        let o = run_in(&tmp.0, args, None);
        assert_eq!(
            o.stdout,
            lines_for(&tmp.0.join("t"), prefix, &want),
            "{args:?}"
        );
        assert_eq!((stderr(&o).as_str(), code(&o)), ("", 3), "{args:?}");
    }
    // Files, standard input and directories mixed, in argument order; a
    // directory without -r is still an error.
    let o = run_in(&tmp.0, ["-r", "t/b", "-", "t/a", "t/empty"], Some(b"abc"));
    assert_eq!(
        o.stdout,
        [
            lines_for(&tmp.0.join("t/b"), "t/b/", &[b"x".to_vec()]),
            b"a9993e364706816aba3e25717850c26c9cd0d89d  -\n".to_vec(),
            lines_for(&tmp.0.join("t"), "t/", &[b"a".to_vec()]),
        ]
        .concat()
    );
    assert_eq!(code(&o), 0);
    let o = run_in(&tmp.0, ["t"], None);
    assert_eq!(stderr(&o), "sha1dcsum: t: Is a directory\n");
    // Every output mode walks the same files.
    let o = run_in(&tmp.0, ["-r", "--json", "t"], None);
    assert_eq!(stdout(&o).lines().count(), want.len());
    let o = run_in(&tmp.0, ["-r", "-c", "t"], None);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).starts_with(
        "sha1dcsum: the --recursive option is meaningless when verifying checksums\n"
    ));
}

/// Symbolic links inside a tree are not followed: skipped, whether they
/// point to a file, a directory or nothing; so are FIFOs (which would
/// block). A link named on the command line is followed.
#[test]
fn recursive_skips_links_and_special_files_inside() {
    let tmp = TempDir::new("recursive-links");
    let root = tmp.0.join("t");
    fs::create_dir_all(root.join("d")).unwrap();
    fs::write(root.join("d/f"), b"abc").unwrap();
    fs::write(root.join("g"), b"abc").unwrap();
    std::os::unix::fs::symlink("g", root.join("link-to-file")).unwrap();
    std::os::unix::fs::symlink("d", root.join("link-to-dir")).unwrap();
    std::os::unix::fs::symlink("nowhere", root.join("dangling")).unwrap();
    std::os::unix::fs::symlink("..", root.join("d/loop")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(root.join("fifo"))
        .status()
        .unwrap();
    assert!(fifo.success());
    let abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
    let o = run_in(&tmp.0, ["-r", "t", "t/link-to-dir"], None);
    assert_eq!(
        stdout(&o),
        format!("{abc}  t/d/f\n{abc}  t/g\n{abc}  t/link-to-dir/f\n")
    );
    assert_eq!((stderr(&o).as_str(), code(&o)), ("", 0));
}

/// More files than the command hashes in one part: the same lines as the
/// library gives for each, in order, whatever the thread count.
#[test]
fn recursive_many_files() {
    let tmp = TempDir::new("recursive-many");
    let root = tmp.0.join("t");
    fs::create_dir_all(&root).unwrap();
    let mut want = Vec::new();
    for i in 0..5000 {
        let name = format!("f{i:04}");
        fs::write(root.join(&name), &name).unwrap();
        want.push(name.into_bytes());
    }
    for jobs in ["-j1", "-j3"] {
        let o = run_in(&tmp.0, ["-r", jobs, "t"], None);
        assert_eq!(o.stdout, lines_for(&root, "t/", &want), "{jobs}");
        assert_eq!(code(&o), 0);
    }
}

/// A directory that cannot be listed is reported in its place (status 1)
/// and the walk goes on. Root lists anything: then as `nobody`.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    missing = "setpriv",
    ignore = "root without a usable setpriv (util-linux)"
)]
fn recursive_reports_unlistable_directories_in_place() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("recursive-perm");
    fs::set_permissions(&tmp.0, fs::Permissions::from_mode(0o755)).unwrap();
    let root = tmp.0.join("t");
    for dir in ["a", "b", "c"] {
        fs::create_dir_all(root.join(dir)).unwrap();
        fs::write(root.join(dir).join("f"), b"abc").unwrap();
    }
    fs::set_permissions(root.join("b"), fs::Permissions::from_mode(0o000)).unwrap();
    let args = ["-r", "-j2", "t"];
    let o = run_refused(&tmp.0, &args, fs::read_dir(root.join("b")).is_err());
    fs::set_permissions(root.join("b"), fs::Permissions::from_mode(0o755)).unwrap();
    let abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
    assert_eq!(stdout(&o), format!("{abc}  t/a/f\n{abc}  t/c/f\n"));
    assert_eq!(stderr(&o), "sha1dcsum: t/b: Permission denied\n");
    assert_eq!(code(&o), 1);
}
