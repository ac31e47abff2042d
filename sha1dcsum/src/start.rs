//! What a command line makes each front end do before it reads an input:
//! print the help, the version or the backends, refuse bad usage (or an
//! option of sha1dcsum's alone), or run. sha1dcsum, the npm package's
//! command and `python -m sha1dc` all start here, so they answer alike.

use alloc::format;
use alloc::string::String;

use crate::exit;
use crate::help::{self, Program};
use crate::options::{Command, Generated, Options, parse_args};

/// What to do.
#[derive(Debug, PartialEq, Eq)]
pub enum Start {
    /// Print this on standard output and exit with [`crate::exit::OK`]
    /// (`--help`, `--version`, `--backends`).
    Print(String),
    /// Print this on standard error and exit with [`crate::exit::USAGE`].
    Usage(String),
    /// Print what `--generate` asks for (sha1dcsum's alone).
    Generate(Generated),
    /// Hash (or check) the inputs.
    Run(Options),
}

impl Start {
    /// For a front end that does not generate: the options of a run, or,
    /// for a command line that ends before reading any input, its exit
    /// status and what to print (on standard output for status 0, else on
    /// standard error).
    pub fn run_or_end(self) -> Result<Options, (u8, String)> {
        match self {
            Start::Run(options) => Ok(options),
            Start::Print(text) => Err((exit::OK, text)),
            Start::Usage(text) => Err((exit::USAGE, text)),
            // Refused by start but in sha1dcsum, which generates.
            Start::Generate(what) => {
                let text = format!("--generate {}: sha1dcsum's alone\n", what.name());
                Err((exit::USAGE, text))
            }
        }
    }
}

/// What `program` does with the arguments `args` (without the program's
/// own name): `version` is what `--version` prints after the name,
/// `backends` what `--backends` lists, a name a line.
pub fn start<A: AsRef<[u8]>>(
    program: Program,
    args: &[A],
    version: &str,
    backends: &[&str],
) -> Start {
    let options = match parse_args(args) {
        Command::Run(options) => options,
        Command::Help => return Start::Print(help::help_text(program)),
        Command::Version => return Start::Print(format!("{} {version}\n", program.name())),
        Command::Usage(reason) => return Start::Usage(help::usage_error(program, &reason)),
    };
    if let Some(refused) = refused(program, &options) {
        return Start::Usage(format!("{}: {refused}\n", program.name()));
    }
    if let Some(what) = options.generate {
        return Start::Generate(what);
    }
    if options.list_backends {
        return Start::Print(backends.iter().map(|name| format!("{name}\n")).collect());
    }
    Start::Run(options)
}

/// Why `program` does not run what `options` ask for: an option of
/// sha1dcsum's alone.
fn refused(program: Program, options: &Options) -> Option<String> {
    if program == Program::Native {
        return None;
    }
    if let Some(what) = options.generate {
        return Some(format!(
            "--generate is sha1dcsum's, from the Rust crate (sha1dcsum --generate {}); \
             this command has no man page or completions of its own",
            what.name()
        ));
    }
    if program == Program::Python && options.recursive {
        return Some(String::from(
            "--recursive is sha1dcsum's, from the Rust crate (sha1dcsum -r); \
             this command hashes the files it is given",
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACKENDS: &[&str] = &["fast", "portable"];

    fn start_of(program: Program, args: &[&str]) -> Start {
        start(program, args, "1.2.3", BACKENDS)
    }

    #[test]
    fn help_version_and_backends_are_printed() {
        for program in [Program::Native, Program::Node, Program::Python] {
            let help = Start::Print(help::help_text(program));
            assert_eq!(start_of(program, &["x", "--help"]), help);
            let version = Start::Print(format!("{} 1.2.3\n", program.name()));
            assert_eq!(start_of(program, &["-V"]), version);
            let backends = Start::Print("fast\nportable\n".into());
            assert_eq!(start_of(program, &["--backends"]), backends);
        }
    }

    #[test]
    fn bad_usage_and_options_of_sha1dcsum_alone_are_refused() {
        let usage = help::usage_error(Program::Python, "unrecognized option '--bogus'");
        assert_eq!(start_of(Program::Python, &["--bogus"]), Start::Usage(usage));
        let generate = ["--generate", "man", "--backends"];
        assert_eq!(
            start_of(Program::Native, &generate),
            Start::Generate(Generated::Man)
        );
        for program in [Program::Node, Program::Python] {
            let want = format!("{}: --generate is sha1dcsum's", program.name());
            assert!(matches!(
                start_of(program, &generate),
                Start::Usage(text) if text.starts_with(&want)
            ));
        }
        let ends = start_of(Program::Node, &["--bogus"]).run_or_end();
        assert!(matches!(ends, Err((exit::USAGE, text)) if text.starts_with("sha1dc-wasm: ")));
        let recursive = ["-r", "dir"];
        assert!(matches!(
            start_of(Program::Python, &recursive),
            Start::Usage(text) if text.starts_with("sha1dc: --recursive is sha1dcsum's")
        ));
        for program in [Program::Native, Program::Node] {
            assert!(matches!(
                start_of(program, &recursive),
                Start::Run(options) if options.recursive && options.files == [1]
            ));
        }
    }
}
