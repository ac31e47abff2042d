//! sha1dcsum's library for the npm package's command (`npx sha1dc-wasm`,
//! the package's cli.mjs): its command line, help, printed lines and
//! `--check`, the same code as the Rust command's. The command's own
//! JavaScript reads files, walks directories and hashes (with the package's
//! API); these say what it prints. A WebAssembly module of its own
//! (wasm/sha1dcsum_cli_bg.wasm, built by scripts/build-pkg.sh for Node
//! only), so that the hashing module the browsers load stays without it;
//! not part of the package's API (index.d.ts): the command is its one user.
// Native builds of the workspace compile this crate to nothing.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;

use sha1dcsum::check::{Found, ListCheck, Said};
use sha1dcsum::help::{self, Program};
use sha1dcsum::options::{Command, Options, parse_args};
use sha1dcsum::result::{Collision, Hashed, push_result};
use sha1dcsum::{exit, lines};

const PROGRAM: Program = Program::Node;

/// The arguments, end to end, cut at `lengths`.
fn arguments<'a>(args: &'a [u8], lengths: &[u32]) -> Result<Vec<&'a [u8]>, JsError> {
    let mut out = Vec::with_capacity(lengths.len());
    let mut at = 0usize;
    for &len in lengths {
        let end = at
            .checked_add(len as usize)
            .filter(|&end| end <= args.len())
            .ok_or_else(|| JsError::new("sha1dc: the argument lengths exceed the bytes given"))?;
        out.push(&args[at..end]);
        at = end;
    }
    Ok(out)
}

fn digest(hex: &str) -> Result<[u8; 20], JsError> {
    lines::parse_hex(hex.as_bytes()).ok_or_else(|| JsError::new("sha1dc: not 40 hex digits"))
}

/// A parsed command line: what to do, and the options of a run.
#[wasm_bindgen]
pub struct RawCommandLine {
    command: Command,
    /// The options of a run (the default ones otherwise).
    options: Options,
}

#[wasm_bindgen]
impl RawCommandLine {
    /// Parses the arguments (without the program's), given end to end with
    /// their lengths.
    #[wasm_bindgen(constructor)]
    pub fn new(args: &[u8], lengths: &[u32]) -> Result<RawCommandLine, JsError> {
        let mut command = parse_args(&arguments(args, lengths)?);
        let options = match &mut command {
            Command::Run(options) => core::mem::take(options),
            _ => Options::default(),
        };
        Ok(RawCommandLine { command, options })
    }

    /// `"run"`, `"help"`, `"version"`, or `"usage"` (then [`usage`](Self::usage)
    /// says why).
    pub fn action(&self) -> String {
        String::from(match self.command {
            Command::Run(_) => "run",
            Command::Help => "help",
            Command::Version => "version",
            Command::Usage(_) => "usage",
        })
    }

    /// For `"usage"`: the whole message for standard error.
    pub fn usage(&self) -> Option<String> {
        match &self.command {
            Command::Usage(reason) => Some(help::usage_error(PROGRAM, reason)),
            _ => None,
        }
    }

    /// The command's name, which its messages start with.
    pub fn program() -> String {
        String::from(PROGRAM.name())
    }

    /// What `--help` prints.
    #[wasm_bindgen(js_name = helpText)]
    pub fn help_text() -> String {
        help::help_text(PROGRAM)
    }

    /// The exit statuses by name: `{ ok, ioError, usage, collision,
    /// brokenPipe }`, as JSON, and [`status`](Self::status) the one of a run.
    #[wasm_bindgen(js_name = exitStatuses)]
    pub fn exit_statuses() -> String {
        format!(
            "{{\"ok\":{},\"ioError\":{},\"usage\":{},\"collision\":{},\"brokenPipe\":{}}}",
            exit::OK,
            exit::IO_ERROR,
            exit::USAGE,
            exit::COLLISION,
            exit::BROKEN_PIPE
        )
    }

    /// The exit status of a run: an input failed, a collision was detected.
    pub fn status(failed: bool, collided: bool) -> u8 {
        exit::status(failed, collided)
    }

    /// The indices of the FILE arguments.
    pub fn files(&self) -> Vec<u32> {
        self.options.files.iter().map(|&i| i as u32).collect()
    }

    pub fn check(&self) -> bool {
        self.options.check
    }

    pub fn recursive(&self) -> bool {
        self.options.recursive
    }

    #[wasm_bindgen(js_name = gitBlob)]
    pub fn git_blob(&self) -> bool {
        self.options.git_blob
    }

    #[wasm_bindgen(js_name = reducedRound)]
    pub fn reduced_round(&self) -> bool {
        self.options.reduced_round
    }

    #[wasm_bindgen(js_name = safeHash)]
    pub fn safe_hash(&self) -> bool {
        !self.options.no_safe_hash
    }

    #[wasm_bindgen(js_name = listBackends)]
    pub fn list_backends(&self) -> bool {
        self.options.list_backends
    }

    /// `-z`: lists are NUL-terminated.
    pub fn zero(&self) -> bool {
        self.options.zero
    }

    /// `-j`'s number, if given.
    pub fn jobs(&self) -> Option<f64> {
        self.options.jobs.map(|n| n as f64)
    }

    /// `--backend`'s value, if given.
    pub fn backend(&self) -> Option<Vec<u8>> {
        self.options.backend.clone()
    }

    /// What `--generate` asks for, if given.
    pub fn generate(&self) -> Option<String> {
        self.options.generate.map(|g| String::from(g.name()))
    }

    /// The line printed for the input `name`: `sha1` and `output` are 40
    /// hex digits; for a collision, `dv` names its disturbance vector and
    /// `at` is its offset, block and count.
    #[wasm_bindgen(js_name = resultLine)]
    pub fn result_line(
        &self,
        name: &[u8],
        sha1: &str,
        output: &str,
        dv: Option<String>,
        at: &[f64],
    ) -> Result<Vec<u8>, JsError> {
        let collision = match (dv.as_deref(), at) {
            (Some(dv), &[offset, block, count]) => Some(Collision {
                offset: offset as u64,
                block: block as u64,
                dv,
                count: count as u64,
            }),
            (None, _) => None,
            _ => {
                return Err(JsError::new(
                    "sha1dc: a collision needs its offset, block and count",
                ));
            }
        };
        let hashed = Hashed {
            sha1: digest(sha1)?,
            output: digest(output)?,
            collision,
        };
        let mut out = Vec::with_capacity(64 + name.len());
        push_result(&mut out, &self.options, name, &hashed);
        Ok(out)
    }
}

#[wasm_bindgen]
extern "C" {
    /// A JavaScript function `(name: Uint8Array) => boolean`: whether a file
    /// of that name exists.
    #[wasm_bindgen(typescript_type = "(name: Uint8Array) => boolean")]
    pub type NameExists;

    #[wasm_bindgen(method, catch, js_name = call)]
    fn call(this: &NameExists, this_arg: &JsValue, name: &[u8]) -> Result<bool, JsValue>;
}

/// What [`RawListCheck::said`] gives: a tag byte, then the text.
const SAID_ERROR: u8 = 1;
const SAID_OUT: u8 = 2;

/// The check of one list ([`ListCheck`]).
#[wasm_bindgen]
pub struct RawListCheck {
    check: ListCheck,
}

#[wasm_bindgen]
impl RawListCheck {
    /// The check of the list named `list` with the command line's options.
    #[wasm_bindgen(constructor)]
    pub fn new(command: &RawCommandLine, list: &[u8]) -> RawListCheck {
        RawListCheck {
            check: ListCheck::new(&command.options, list),
        }
    }

    /// The message for a list that cannot be read (`reason`, in the
    /// command's words).
    pub fn unreadable(list: &[u8], reason: &str) -> String {
        match ListCheck::unreadable(list, reason) {
            Said::Error(message) => message,
            Said::Out(_) => String::new(),
        }
    }

    /// Reads the list's next line (its terminator removed).
    pub fn line(&mut self, line: &[u8], exists: &NameExists) {
        let exists = |name: &[u8]| exists.call(&JsValue::NULL, name).unwrap_or(false);
        self.check.line(line, exists);
    }

    /// How many files the lines read so far name.
    pub fn count(&self) -> u32 {
        self.check.listed().len() as u32
    }

    /// The name of the `i`-th.
    pub fn name(&self, i: u32) -> Vec<u8> {
        self.check.listed()[i as usize].name.clone()
    }

    /// The `i`-th file was hashed: `output` is the printed hash and `sha1`
    /// the file's SHA-1 (40 hex digits each).
    pub fn hashed(
        &mut self,
        i: u32,
        output: &str,
        sha1: &str,
        collision: bool,
    ) -> Result<(), JsError> {
        let (output, sha1) = (digest(output)?, digest(sha1)?);
        self.check.found(
            i as usize,
            Found::Hashed {
                output: &output,
                sha1: &sha1,
                collision,
            },
        );
        Ok(())
    }

    /// The `i`-th file could not be read: why, and whether it is missing.
    pub fn failed(&mut self, i: u32, reason: &str, missing: bool) {
        self.check
            .found(i as usize, Found::Failed { reason, missing });
    }

    /// After the last file: bit 0 set when the check failed, bit 1 when a
    /// collision was detected.
    pub fn finish(&mut self) -> u8 {
        let (failed, collided) = self.check.finish();
        u8::from(failed) | u8::from(collided) << 1
    }

    /// The next thing said, in order, or nothing: byte 0 is 1 for a message
    /// for standard error (UTF-8, without the program's name), 2 for bytes
    /// for standard output; the rest is the text.
    pub fn said(&mut self) -> Option<Vec<u8>> {
        let said = self.check.next_said()?;
        Some(match said {
            Said::Error(message) => [&[SAID_ERROR][..], message.as_bytes()].concat(),
            Said::Out(bytes) => [&[SAID_OUT][..], &bytes].concat(),
        })
    }
}
