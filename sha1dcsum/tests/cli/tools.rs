//! The programs some tests compare with or run, and whether this machine
//! has them. Plain std: the crate's build script includes this file too,
//! and marks the tests of a missing program ignored, with the reason
//! (`#[cfg_attr(missing = "git", ignore = "...")]`), unless `CI` is set:
//! there every test runs, and one whose program is missing fails
//! ([`require`]; scripts/setup.sh native installs them all).
#![allow(dead_code)]

use std::process::{Command, Stdio};

/// Whether a program is there (and does what the tests need of it).
pub type Probe = fn() -> bool;

/// The programs, by the name the `missing` cfg gives them.
pub const TOOLS: &[(&str, Probe)] = &[
    ("git", || succeeds("git", &["--version"])),
    ("gnu-sha1sum", gnu_sha1sum),
    ("setpriv", can_be_refused),
    ("bash", || succeeds("bash", &["--version"])),
    ("zsh", || succeeds("zsh", &["--version"])),
    ("fish", || succeeds("fish", &["--version"])),
    ("groff", || succeeds("groff", &["--version"])),
];

fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_or(false, |s| s.success())
}

/// GNU coreutils' sha1sum, whose output the tests compare with.
fn gnu_sha1sum() -> bool {
    Command::new("sha1sum")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_or(false, |o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU coreutils")
        })
}

/// Whether the tests can meet "Permission denied": as anyone but root,
/// always; as root (which reads anything) only by running the command as
/// `nobody` through util-linux's setpriv.
fn can_be_refused() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let root = status
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    let mut args = SETPRIV_NOBODY.to_vec();
    args.push("true");
    !root || succeeds("setpriv", &args)
}

/// setpriv's arguments that run a command as `nobody`.
pub const SETPRIV_NOBODY: [&str; 3] = ["--reuid=65534", "--regid=65534", "--clear-groups"];

/// Fails the calling test unless `tool` (a name of [`TOOLS`]) is there: a
/// check that cannot run is no check. Where the build found it missing the
/// test is ignored (outside CI), so this fails only in CI or when the tool
/// went away after the build.
pub fn require(tool: &str) {
    let (_, present) = TOOLS
        .iter()
        .find(|(name, _)| *name == tool)
        .unwrap_or_else(|| panic!("no tool named {tool}"));
    assert!(
        present(),
        "{tool} is missing: scripts/setup.sh native installs it (outside CI the \
         test is ignored where the build finds it missing; touch sha1dcsum/build.rs \
         after installing it)"
    );
}
