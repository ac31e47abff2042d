//! `python -m sha1dc` (sha1dc/__main__.py) on sha1dcsum's library, as the
//! npm package's command is: its command line and help ([`start`]), the
//! line printed for an input, what `--check` says and the exit statuses.
//! The Python side reads and hashes.

use pyo3::exceptions::PyFileNotFoundError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use sha1dcsum::check::{Found, ListCheck, Said};
use sha1dcsum::exit;
use sha1dcsum::help::Program;
use sha1dcsum::options::Options;
use sha1dcsum::result::push_outcome;
use sha1dcsum::start::start;

use crate::outcome::{PyObjectOutcome, PyOutcome};

const PROGRAM: Program = Program::Python;

/// A parsed command line: the options of a run, or what to print before
/// ending.
#[pyclass(frozen, module = "sha1dc._sha1dc", name = "_CommandLine")]
pub struct PyCommandLine {
    options: Options,
    /// For a command line that ends before reading any input: its exit
    /// status and what to print (on standard output for status 0, else on
    /// standard error).
    ends: Option<(u8, String)>,
}

#[pymethods]
impl PyCommandLine {
    /// The command's name, which its messages start with.
    #[classattr]
    #[allow(non_snake_case)]
    fn PROGRAM() -> &'static str {
        PROGRAM.name()
    }
    #[classattr]
    const USAGE: u8 = exit::USAGE;
    #[classattr]
    const BROKEN_PIPE: u8 = exit::BROKEN_PIPE;

    /// Parses the arguments (without the program's).
    #[new]
    fn new(args: Vec<Vec<u8>>) -> Self {
        let backends: Vec<&str> = sha1dc_wasm::available_backends().collect();
        let version = env!("CARGO_PKG_VERSION");
        let (options, ends) = match start(PROGRAM, &args, version, &backends).run_or_end() {
            Ok(options) => (options, None),
            Err(ends) => (Options::default(), Some(ends)),
        };
        PyCommandLine { options, ends }
    }

    /// For a command line that ends before reading any input (help,
    /// version, backends, bad usage): its exit status, and `text` is what
    /// to print; else None.
    #[getter]
    fn ends(&self) -> Option<u8> {
        self.ends.as_ref().map(|(status, _)| *status)
    }

    #[getter]
    fn text(&self) -> Option<&str> {
        self.ends.as_ref().map(|(_, text)| text.as_str())
    }

    /// The indices of the FILE arguments.
    #[getter]
    fn files(&self) -> Vec<usize> {
        self.options.files.clone()
    }

    #[getter]
    fn check(&self) -> bool {
        self.options.check
    }

    #[getter]
    fn git_blob(&self) -> bool {
        self.options.git_blob
    }

    /// The keyword options of the hashers (sha1() and the others).
    fn hash_options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = &self.options;
        let kwargs = PyDict::new(py);
        kwargs.set_item("reduced_round", o.reduced_round)?;
        kwargs.set_item("safe_hash", !o.no_safe_hash)?;
        kwargs.set_item("parallel", o.jobs != Some(1))?;
        if let Some(name) = &o.backend {
            kwargs.set_item("backend", String::from_utf8_lossy(name))?;
        }
        Ok(kwargs)
    }

    /// What a hashing run prints for the input `name`: the line (bytes,
    /// for standard output) when `got` is its Outcome, else the message (a
    /// str, for standard error) when `got` is the error that stopped it.
    fn result<'py>(&self, name: &[u8], got: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = got.py();
        let Ok(outcome) = got.cast::<PyOutcome>() else {
            let name = String::from_utf8_lossy(name);
            let message = format!("{name}: {}", reason(got)?);
            return Ok(PyString::new(py, &message).into_any());
        };
        let plain = outcome.get().0;
        let offset = match outcome.cast::<PyObjectOutcome>() {
            Ok(object) => object.get().content_offset(),
            Err(_) => plain.collision().map(|c| c.offset()),
        };
        let mut out = Vec::with_capacity(64 + name.len());
        push_outcome(
            &mut out,
            &self.options,
            name,
            &plain,
            offset.unwrap_or_default(),
        );
        Ok(PyBytes::new(py, &out).into_any())
    }

    /// Checks the list named `list`: `got` is its content, or the error
    /// that stopped its reading. `exists(name)` says whether a file of that
    /// name is there, `hash_input(name)` hashes one (its Outcome, or the
    /// error that stopped it), `say(what)` prints what the check says (a
    /// str for standard error, bytes for standard output) as it goes.
    /// Returns (the check failed, a collision was detected).
    fn check_list(
        &self,
        list: &[u8],
        got: &Bound<'_, PyAny>,
        exists: &Bound<'_, PyAny>,
        hash_input: &Bound<'_, PyAny>,
        say: &Bound<'_, PyAny>,
    ) -> PyResult<(bool, bool)> {
        let py = got.py();
        let Ok(content) = got.cast::<PyBytes>() else {
            say.call1((ListCheck::unreadable(list, &reason(got)?),))?;
            return Ok((true, false));
        };
        let mut check = ListCheck::new(&self.options, list);
        let exists = |name: &[u8]| {
            let name = PyBytes::new(py, name);
            exists
                .call1((name,))
                .and_then(|r| r.is_truthy())
                .unwrap_or(false)
        };
        check.lines(content.as_bytes(), exists);
        say_all(&mut check, say)?;
        // Even with no checksum to compare, the files named get their collision check.
        for i in 0..check.listed().len() {
            let got = hash_input.call1((PyBytes::new(py, &check.listed()[i].name),))?;
            match got.cast::<PyOutcome>() {
                Ok(outcome) => check.found(i, Found::hashed(&outcome.get().0)),
                Err(_) => {
                    let reason = reason(&got)?;
                    let missing = got.is_instance_of::<PyFileNotFoundError>();
                    check.found(
                        i,
                        Found::Failed {
                            reason: &reason,
                            missing,
                        },
                    );
                }
            }
            say_all(&mut check, say)?;
        }
        let done = check.finish();
        say_all(&mut check, say)?;
        Ok(done)
    }

    /// The exit status of a run: an input failed, a collision was detected.
    #[staticmethod]
    fn status(failed: bool, collided: bool) -> u8 {
        exit::status(failed, collided)
    }
}

/// Why an input could not be read, from the error that stopped it: an
/// OSError's words (its strerror), else the error's text.
fn reason(err: &Bound<'_, PyAny>) -> PyResult<String> {
    match err.getattr("strerror") {
        Ok(words) if !words.is_none() => words.extract(),
        _ => Ok(err.str()?.to_string()),
    }
}

/// Hands `say` what `check` said since last asked, in order.
fn say_all(check: &mut ListCheck, say: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = say.py();
    for said in check.said() {
        match said {
            Said::Error(message) => say.call1((message,))?,
            Said::Out(bytes) => say.call1((PyBytes::new(py, &bytes),))?,
        };
    }
    Ok(())
}
