//! `sha1dcsum`: print or check SHA-1 checksums, with collision detection.
//!
//! Prints `<hex>  <name>` for each input, or `<hex> *coll* <name>` when a
//! collision attack was detected in it, like the original C tool; otherwise
//! it follows GNU `sha1sum` (escaped names, `-z`, `--tag`, `-b`/`-t`, and
//! `-c` to verify a list). Inputs are hashed on several threads (`-j`), each
//! streaming through one reusable buffer, or, for small files, reading a
//! group of them whole and hashing them at once (dispatch.rs), with the
//! output in argument order. A streaming input takes a second thread, which
//! reads and filters while its own hashes, once a core of the run is free
//! (jobs.rs counts them).
//!
//! What is text, not I/O, is the crate's library (the option table and its
//! parser, the help, the checksum and `--json` lines, what `-c` says), which
//! the npm package's command shares. The modules here, in the order a run
//! goes through them: run.rs (the run loop) and walk.rs (the inputs, `-r`),
//! dispatch.rs and jobs.rs (which input goes how, on which thread), input.rs
//! (reading and hashing one input), check.rs (`-c`), output.rs (standard
//! output, errors, exit statuses), os.rs (names as bytes), man.rs and
//! complete.rs (`--generate`).

mod check;
mod complete;
mod dispatch;
mod input;
mod jobs;
mod man;
mod os;
mod output;
mod run;
mod walk;

// The tests' temporary directories, shared with the integration tests.
#[cfg(test)]
#[path = "../../../tests/cli/tempdir.rs"]
mod tempdir;

use std::ffi::OsString;
use std::process::ExitCode;

use sha1dc_wasm::available_backends;
use sha1dcsum::exit;
use sha1dcsum::help::Program;
use sha1dcsum::options::Generated;
use sha1dcsum::start::{Start, start};

use output::print_and_exit;

/// What `--generate` prints.
fn generate(what: Generated) -> String {
    match what {
        Generated::Man => man::man_page(),
        Generated::Bash => complete::bash(),
        Generated::Zsh => complete::zsh(),
        Generated::Fish => complete::fish(),
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let bytes: Vec<&[u8]> = args.iter().map(|a| os::os_bytes(a)).collect();
    let backends: Vec<&str> = available_backends().collect();
    let version = env!("CARGO_PKG_VERSION");
    match start(Program::Native, &bytes, version, &backends) {
        Start::Print(text) => print_and_exit(&text),
        Start::Usage(text) => {
            eprint!("{text}");
            ExitCode::from(exit::USAGE)
        }
        Start::Generate(what) => print_and_exit(&generate(what)),
        Start::Run(options) => {
            let files = options.files.iter().map(|&i| args[i].clone()).collect();
            run::run(options, files)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option of the table, with its short name and its value, is in
    /// --help, the man page and each shell's completions.
    #[test]
    fn every_option_is_in_every_generated_text() {
        let help = sha1dcsum::help::help_text(Program::Native);
        let man = man::man_page();
        let [bash, zsh, fish] = [complete::bash(), complete::zsh(), complete::fish()];
        let bash_words: Vec<&str> = bash
            .split(|c: char| c.is_whitespace() || "'|)".contains(c))
            .collect();
        for opt in sha1dcsum::options::OPTIONS {
            let long = opt.long;
            let roff_long = long.replace('-', "\\-");
            let value = opt.value().map(|v| v.name).unwrap_or_default();
            assert!(help.contains(&format!("--{long} {value}").trim_end().to_owned()));
            assert!(
                man.contains(&format!("\\fB\\-\\-{roff_long}\\fR")),
                "{long}"
            );
            let man_value = format!(" \\fI{value}\\fR");
            assert!(value.is_empty() || man.contains(&man_value), "{long}");
            assert!(bash_words.contains(&format!("--{long}").as_str()), "{long}");
            assert!(zsh.contains(&format!("--{long}")), "{long}");
            assert!(fish.contains(&format!(" -l {long} ")), "{long}");
            if let Some(short) = opt.short.map(char::from) {
                assert!(help.contains(&format!("  -{short}, --{long}")), "{long}");
                assert!(man.contains(&format!("\\fB\\-{short}\\fR, ")), "{long}");
                assert!(bash_words.contains(&format!("-{short}").as_str()), "{long}");
                assert!(zsh.contains(&format!("{{-{short}")), "{long}");
                assert!(fish.contains(&format!(" -s {short} -l {long} ")), "{long}");
            }
        }
    }
}
