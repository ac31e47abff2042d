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
use sha1dcsum::help::Program;
use sha1dcsum::options::Options;
use sha1dcsum::result::{Collision, Hashed, push_result};
use sha1dcsum::start::start;
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

/// A parsed command line: the options of a run, or what to print before
/// ending (sha1dcsum's [`start`]).
#[wasm_bindgen]
pub struct RawCommandLine {
    /// The options of a run (the default ones otherwise).
    options: Options,
    /// For a command line that ends before reading any input: its exit
    /// status and what to print (on standard output for status 0, else on
    /// standard error).
    ends: Option<(u8, String)>,
}

#[wasm_bindgen]
impl RawCommandLine {
    /// Parses the arguments (without the program's), given end to end with
    /// their lengths; `version` is the package's, `backend` the one
    /// backend `--backends` lists.
    #[wasm_bindgen(constructor)]
    pub fn new(
        args: &[u8],
        lengths: &[u32],
        version: &str,
        backend: &str,
    ) -> Result<RawCommandLine, JsError> {
        let (options, ends) =
            match start(PROGRAM, &arguments(args, lengths)?, version, &[backend]).run_or_end() {
                Ok(options) => (options, None),
                Err(ends) => (Options::default(), Some(ends)),
            };
        Ok(RawCommandLine { options, ends })
    }

    /// For a command line that ends before reading any input (help,
    /// version, backends, bad usage): its exit status; then
    /// [`text`](Self::text) is what to print.
    pub fn ends(&self) -> Option<u8> {
        self.ends.as_ref().map(|(status, _)| *status)
    }

    /// What to print before ending: on standard output for status 0, else
    /// on standard error (a whole message, the program's name first).
    pub fn text(&self) -> Option<String> {
        self.ends.as_ref().map(|(_, text)| text.clone())
    }

    /// The command's name, which its messages start with.
    pub fn program() -> String {
        String::from(PROGRAM.name())
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

    /// `-j`'s number, if given.
    pub fn jobs(&self) -> Option<f64> {
        self.options.jobs.map(|n| n as f64)
    }

    /// `--backend`'s value, if given.
    pub fn backend(&self) -> Option<Vec<u8>> {
        self.options.backend.clone()
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
        ListCheck::unreadable(list, reason)
    }

    /// Reads the list's lines, the list read whole.
    pub fn lines(&mut self, list: &[u8], exists: &NameExists) {
        let exists = |name: &[u8]| exists.call(&JsValue::NULL, name).unwrap_or(false);
        self.check.lines(list, exists);
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
        let found = Found::Hashed {
            output: digest(output)?,
            sha1: digest(sha1)?,
            collision,
        };
        self.check.found(i as usize, found);
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
