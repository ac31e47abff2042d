//! Inputs that cannot be read and output that cannot be written: the
//! messages, what is still printed, and the exit statuses.

use std::fs;
use std::io::Read;
use std::process::{Command, Stdio};

use crate::common::data_dir;
use crate::support::*;
use crate::tempdir::TempDir;

#[test]
fn missing_file_exit_1() {
    let o = run(["no-such-file.bin"]);
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "sha1dcsum: no-such-file.bin: No such file or directory\n"
    );
    assert_eq!(code(&o), 1);
}

#[test]
fn directory_exit_1() {
    let o = run(["."]);
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "sha1dcsum: .: Is a directory\n");
    assert_eq!(code(&o), 1);
}

/// An input that opens but cannot be read. The tests run as root, where
/// `chmod 000` does not stop reading, so it cannot be the only test; a FIFO
/// would block rather than fail. /proc/self/mem is a file any process may
/// open for itself, whose first read (at offset 0, never mapped) fails with
/// EIO: a real read error from the kernel, for root as for anyone.
#[cfg(target_os = "linux")]
#[test]
fn read_error_exit_1() {
    let o = run(["/proc/self/mem"]);
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "sha1dcsum: /proc/self/mem: Input/output error\n"
    );
    assert_eq!(code(&o), 1);
}

/// "Permission denied" with `chmod 000`: directly when not root; as root only
/// by dropping to `nobody` with setpriv (util-linux), when it is installed.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    missing = "setpriv",
    ignore = "root without a usable setpriv (util-linux)"
)]
fn unreadable_file_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("perm");
    fs::set_permissions(&tmp.0, fs::Permissions::from_mode(0o755)).unwrap();
    let path = tmp.write("secret", b"abc");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    let o = run_refused(&tmp.0, &["secret"], fs::read(&path).is_err());
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "sha1dcsum: secret: Permission denied\n");
    assert_eq!(code(&o), 1);
}

#[test]
fn one_failing_among_several_others_still_printed_and_1_wins_over_3() {
    let o = run([
        "sha-mbles-1.bin",
        "missing",
        ".",
        "sha1_reducedsha_coll.bin",
    ]);
    assert_eq!(
        stdout(&o),
        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *coll* sha-mbles-1.bin\n\
         a56374e1cf4c3746499bc7c0acb39498ad2ee185  sha1_reducedsha_coll.bin\n"
    );
    assert_eq!(
        stderr(&o),
        "sha1dcsum: missing: No such file or directory\nsha1dcsum: .: Is a directory\n"
    );
    assert_eq!(code(&o), 1);
}

/// The reader of our output goes away: end quietly with the status of a
/// process killed by SIGPIPE (141), as `sha1sum a b | head -1` does, with
/// nothing on standard error; whatever the number of threads.
#[cfg(unix)]
#[test]
fn broken_pipe_exits_quietly_like_sigpipe() {
    let args = vec!["sha-mbles-1.bin"; 20_000];
    for jobs in ["-j1", "-j4"] {
        let mut child = Command::new(BIN)
            .arg(jobs)
            .args(&args)
            .current_dir(data_dir())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 10];
        out.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"4f3d9be4a4");
        drop(out);
        let o = child.wait_with_output().unwrap();
        assert_eq!(stderr(&o), "", "{jobs}");
        assert_eq!(code(&o), 141, "{jobs}");
    }
}

/// The same through a shell pipeline, the way users meet it: with
/// `pipefail`, the status is SIGPIPE's, as for `sha1sum`, and nothing is
/// printed.
#[cfg(unix)]
#[test]
#[cfg_attr(missing = "bash", ignore = "bash is not installed")]
fn head_of_many_files_in_a_shell_pipeline() {
    require("bash");
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{BIN}' $(yes sha-mbles-1.bin | head -n 20000) | head -1; echo \"status $?\""
        ))
        .current_dir(data_dir())
        .output()
        .unwrap();
    assert_eq!(
        stdout(&o),
        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *coll* sha-mbles-1.bin\nstatus 141\n"
    );
    assert_eq!(stderr(&o), "");
}

/// Any other write error is reported.
#[cfg(target_os = "linux")]
#[test]
fn full_disk_on_stdout_exit_1() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(BIN)
        .arg("sha-mbles-1.bin")
        .current_dir(data_dir())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(
        stderr(&o),
        "sha1dcsum: standard output: No space left on device\n"
    );
    assert_eq!(code(&o), 1);
}
