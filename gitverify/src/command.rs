//! `git-sha1dc`'s command line (`git-sha1dc [-j N] [--json] [--content]
//! [PATH...]`) and what it names, for every front end that takes it: the
//! Rust command and the npm package's.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::{Damage, Files, Problem, Source};

/// The help text.
pub const USAGE: &str = "\
Usage: git sha1dc [-j N] [--json] [--content] [--quiet] [PATH...]
Verify every object of git repositories, packs and bundles with SHA-1
collision detection, and report each collision attack found.

PATH is a repository (its work tree or .git directory), a bare repository,
an objects directory, a .pack (with the .idx beside it, if any), a .idx or a
bundle; with no PATH, the current repository (in a pre-receive hook, the
objects being pushed). Alternates are named, not verified.

Options:
  -j, --jobs N   worker threads (default: the number of CPUs; at most 1024)
      --content  also hash every blob's content as a file: finds collision
                 material (SHAttered PDFs...) stored in the repository, which
                 git's object header hides from the object check
      --json     print one JSON document on standard output
  -q, --quiet    no progress bar and no summary, only findings and damage
  -h, --help     print this help
  -V, --version  print the version

Exit status: 0 every object verified clean; 3 a collision was found (even
if there was damage too); 1 damage or unreadable input; 2 a usage error.
";

/// Parsed arguments.
#[derive(Debug, Default)]
pub struct Args {
    /// `-j N`: worker threads.
    pub jobs: Option<usize>,
    /// `--json`.
    pub json: bool,
    /// `--content`.
    pub content: bool,
    /// `--quiet`.
    pub quiet: bool,
    /// The paths named.
    pub paths: Vec<PathBuf>,
}

/// What the command line asks for.
pub enum Parsed {
    /// A verification.
    Run(Args),
    /// `--help`.
    Help,
    /// `--version`.
    Version,
}

/// A command line that asks for nothing this command does.
#[derive(Debug, PartialEq, Eq)]
pub enum UsageError {
    /// `-j` with nothing after it.
    NoJobs,
    /// `-j` with a value that is not a number of threads.
    BadJobs(String),
    /// An option this command does not have.
    UnknownOption(String),
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UsageError::NoJobs => f.write_str("-j needs a number of threads"),
            UsageError::BadJobs(v) => {
                write!(f, "-j takes a number of threads of 1 or more, not {v:?}")
            }
            UsageError::UnknownOption(o) => write!(f, "unknown option {o}"),
        }
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Parsed, UsageError> {
    let mut out = Args::default();
    let mut args = args.into_iter();
    let mut only_paths = false;
    while let Some(arg) = args.next() {
        let text = arg.to_str().unwrap_or("");
        if only_paths || !text.starts_with('-') || text == "-" {
            out.paths.push(PathBuf::from(arg));
            continue;
        }
        let jobs_value = |v: &str| match v.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(UsageError::BadJobs(v.to_string())),
        };
        match text {
            "--" => only_paths = true,
            "-h" | "--help" => return Ok(Parsed::Help),
            "-V" | "--version" => return Ok(Parsed::Version),
            "--json" => out.json = true,
            "--content" => out.content = true,
            "-q" | "--quiet" => out.quiet = true,
            "-j" | "--jobs" => {
                let v = args.next().ok_or(UsageError::NoJobs)?;
                out.jobs = Some(jobs_value(v.to_str().unwrap_or(""))?);
            }
            _ if text.starts_with("--jobs=") => out.jobs = Some(jobs_value(&text[7..])?),
            _ if text.starts_with("-j") => out.jobs = Some(jobs_value(&text[2..])?),
            _ => return Err(UsageError::UnknownOption(text.to_string())),
        }
    }
    Ok(Parsed::Run(out))
}

/// What a command line names: the sources to verify, the paths that name
/// nothing verifiable (as damage, reported before the verification), and
/// the object directories the sources borrow from, not verified.
#[derive(Debug, Default)]
pub struct Plan {
    /// The sources, in the order named.
    pub sources: Vec<Source>,
    /// A path that names nothing verifiable, with why.
    pub unreadable: Vec<Damage>,
    /// `objects/info/alternates` of the repositories named.
    pub alternates: Vec<PathBuf>,
}

/// The plan of `paths` in `files`; with no path, the current repository
/// seen from `cwd` (with `$GIT_DIR` and `$GIT_OBJECT_DIRECTORY`, none
/// where unset or empty).
pub fn plan(
    files: &dyn Files,
    paths: &[PathBuf],
    cwd: &Path,
    git_dir: Option<&OsStr>,
    object_directory: Option<&OsStr>,
) -> Plan {
    let mut plan = Plan::default();
    let mut unreadable = |file: PathBuf, error| {
        plan.unreadable.push(Damage {
            file,
            offset: None,
            id: None,
            problem: Problem::Source(error),
        })
    };
    let mut sources = Vec::new();
    if paths.is_empty() {
        match crate::current_sources_in(files, cwd, git_dir, object_directory) {
            Ok(s) => sources = s,
            Err(message) => unreadable(cwd.to_path_buf(), message),
        }
    }
    for path in paths {
        match crate::sources_in(files, path) {
            Ok(s) => sources.extend(s),
            Err(message) => unreadable(path.clone(), message),
        }
    }
    plan.alternates = crate::alternates_in(files, &sources);
    plan.sources = sources;
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Args, UsageError> {
        match parse(args.iter().map(Into::into))? {
            Parsed::Run(a) => Ok(a),
            _ => panic!("not a run"),
        }
    }

    #[test]
    fn options() {
        let a = run(&["-j", "2", "--json", "--content", "x.pack"]).unwrap();
        assert_eq!((a.jobs, a.json, a.content), (Some(2), true, true));
        assert_eq!(a.paths, [PathBuf::from("x.pack")]);
        assert_eq!(run(&["-j3"]).unwrap().jobs, Some(3));
        assert_eq!(run(&["--jobs=4"]).unwrap().jobs, Some(4));
        assert_eq!(
            run(&["-j", "0"]).unwrap_err(),
            UsageError::BadJobs("0".into())
        );
        assert_eq!(run(&["-j"]).unwrap_err(), UsageError::NoJobs);
        assert_eq!(
            run(&["-j", "x"]).unwrap_err(),
            UsageError::BadJobs("x".into())
        );
        let unknown = UsageError::UnknownOption("--frobnicate".into());
        assert_eq!(run(&["--frobnicate"]).unwrap_err(), unknown);
        assert_eq!(run(&["--", "-j"]).unwrap().paths, [PathBuf::from("-j")]);
    }
}
