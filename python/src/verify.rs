//! Git repositories, packs, bundles and loose objects verified with
//! gitverify (the library of `git-sha1dc`): `verify` returns a `Report`,
//! `verify_iter` yields each finding as it is found. The verification runs
//! on threads of its own, without the GIL; the caller waits in short steps,
//! so that Ctrl-C (any signal handler raising) interrupts the wait.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gitverify::{Damage, Event, Finding, Options, Problem, Summary, output};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt};

use crate::options::type_name;

/// How long a wait lasts before it looks for a signal.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// What one verification asked for.
#[derive(Clone)]
struct Job {
    path: PathBuf,
    options: Options,
}

/// What the verifying thread tells the waiting one.
enum Message {
    Finding(Finding),
    Done(Arc<Outcome>),
}

/// A whole verification's result.
struct Outcome {
    path: PathBuf,
    summary: Summary,
    /// Content bytes of the objects verified.
    bytes: u64,
    alternates: Vec<PathBuf>,
    content: bool,
}

impl Job {
    /// The arguments of `verify` and `verify_iter`, checked.
    fn parse(
        func: &str,
        path: &Bound<'_, PyAny>,
        content: bool,
        jobs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Job> {
        let path = if let Ok(bytes) = path.cast::<PyBytes>() {
            use std::os::unix::ffi::OsStrExt;
            PathBuf::from(std::ffi::OsStr::from_bytes(bytes.as_bytes()))
        } else {
            path.extract::<PathBuf>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{func}(): path must be a str, bytes or os.PathLike, not '{}'",
                    type_name(path)
                ))
            })?
        };
        let mut options = Options {
            content,
            ..Options::default()
        };
        if let Some(jobs) = jobs.filter(|j| !j.is_none()) {
            if jobs.is_instance_of::<PyBool>() || !jobs.is_instance_of::<PyInt>() {
                return Err(PyTypeError::new_err(format!(
                    "{func}(): jobs must be an int or None, not '{}'",
                    type_name(jobs)
                )));
            }
            if !jobs.gt(0)? {
                return Err(PyValueError::new_err(format!(
                    "{func}(): jobs must be 1 or more, not {jobs}"
                )));
            }
            // More than the cores only costs memory: gitverify starts at
            // most Options::MAX_THREADS.
            options.threads = jobs.extract::<usize>().unwrap_or(usize::MAX);
        }
        Ok(Job { path, options })
    }

    /// Verifies what `path` names, as `git-sha1dc PATH` does: a path that
    /// names nothing verifiable is damage, as the command reports it.
    fn run(self, tx: &Sender<Message>) {
        let mut summary = Summary::default();
        let sources = gitverify::sources(&self.path).unwrap_or_else(|error| {
            summary.damage.push(Damage {
                file: self.path.clone(),
                offset: None,
                id: None,
                problem: Problem::Source(error),
            });
            Vec::new()
        });
        let alternates = gitverify::alternates(&sources);
        let mut bytes = 0;
        gitverify::verify(&sources, &self.options, &mut |event| {
            summary.add(event);
            match event {
                Event::Verified(objects) => bytes += objects.iter().map(|o| o.size).sum::<u64>(),
                // The waiting side may have stopped listening.
                Event::Finding(f) => drop(tx.send(Message::Finding((*f).clone()))),
                _ => {}
            }
        });
        summary.sort();
        let outcome = Outcome {
            path: self.path,
            summary,
            bytes,
            alternates,
            content: self.options.content,
        };
        drop(tx.send(Message::Done(Arc::new(outcome))));
    }

    /// Runs on a thread of its own; where the system refuses one, here
    /// and now (without the GIL), its messages waiting in the channel.
    fn start(self, py: Python<'_>) -> Receiver<Message> {
        let (tx, rx) = channel();
        let theirs = (self.clone(), tx.clone());
        let spawned = std::thread::Builder::new()
            .name("sha1dc-verify".into())
            .spawn(move || theirs.0.run(&theirs.1));
        if spawned.is_err() {
            py.detach(|| self.run(&tx));
        }
        rx
    }
}

/// A verification under way: its messages, then its outcome once it came.
struct Progress {
    rx: Receiver<Message>,
    done: Option<Arc<Outcome>>,
}

/// The next finding (`Some`), or `None` once the outcome is in.
fn next_finding(py: Python<'_>, progress: &Mutex<Progress>) -> PyResult<Option<Finding>> {
    loop {
        // The lock is taken without the GIL: another Python thread holding
        // the lock may be waiting for the GIL.
        let got = py.detach(|| {
            let mut p = progress.lock().unwrap_or_else(PoisonError::into_inner);
            if p.done.is_some() {
                return Ok(None);
            }
            match p.rx.recv_timeout(SIGNAL_POLL) {
                Ok(Message::Finding(f)) => Ok(Some(f)),
                Ok(Message::Done(outcome)) => {
                    p.done = Some(outcome);
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        });
        match got {
            Ok(found) => return Ok(found),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the verification stopped without its report (an internal error)",
                ));
            }
        }
    }
}

/// Waits for the whole outcome, passing over the findings (they are in it).
fn wait_done(py: Python<'_>, progress: &Mutex<Progress>) -> PyResult<Arc<Outcome>> {
    while next_finding(py, progress)?.is_some() {}
    let p = progress.lock().unwrap_or_else(PoisonError::into_inner);
    Ok(Arc::clone(p.done.as_ref().expect("no finding left: done")))
}

/// Verifies every object of a git repository (its work tree or git
/// directory), bare repository, objects directory, pack, index or bundle,
/// as `git-sha1dc PATH` does, and returns the Report. `content=True` adds
/// the content check (every blob's bytes hashed as a file); `jobs` is the
/// worker threads (default: every CPU). Unreadable or broken input is
/// damage in the report, not an exception.
#[pyfunction]
#[pyo3(signature = (path, *, content = false, jobs = None))]
pub fn verify(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    content: bool,
    jobs: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyReport> {
    let progress = PyVerification::start(py, "verify", path, content, jobs)?;
    Ok(PyReport(wait_done(py, &progress.0)?))
}

/// `verify` as an iterator: yields each Finding as it is found (in the
/// order the workers find them); `report()` then gives the Report.
#[pyfunction]
#[pyo3(signature = (path, *, content = false, jobs = None))]
pub fn verify_iter(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    content: bool,
    jobs: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyVerification> {
    PyVerification::start(py, "verify_iter", path, content, jobs)
}

/// A verification under way (what `verify_iter` returns): iterating it
/// yields the findings as they are found; `report()` waits for the end.
/// Dropped early, the verification finishes on its own threads.
#[pyclass(frozen, module = "sha1dc", name = "Verification")]
pub struct PyVerification(Mutex<Progress>);

impl PyVerification {
    fn start(
        py: Python<'_>,
        func: &str,
        path: &Bound<'_, PyAny>,
        content: bool,
        jobs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let job = Job::parse(func, path, content, jobs)?;
        Ok(PyVerification(Mutex::new(Progress {
            rx: job.start(py),
            done: None,
        })))
    }
}

#[pymethods]
impl PyVerification {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyFinding>> {
        Ok(next_finding(py, &self.0)?.map(PyFinding))
    }

    /// The Report, once the verification is over (the findings not yet
    /// iterated are in it too).
    fn report(&self, py: Python<'_>) -> PyResult<PyReport> {
        Ok(PyReport(wait_done(py, &self.0)?))
    }
}

/// Everything a verification found: the objects verified (`counts`,
/// `objects`, `bytes`), the `findings`, the `damage`; `to_json()` is
/// `git-sha1dc --json`'s document.
#[pyclass(frozen, module = "sha1dc", name = "Report")]
pub struct PyReport(Arc<Outcome>);

#[pymethods]
impl PyReport {
    /// The path verified, as it was given.
    #[getter]
    fn path(&self) -> OsString {
        self.0.path.clone().into_os_string()
    }

    /// Objects verified by kind: 'commit', 'tree', 'blob', 'tag' and 'total'.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = &self.0.summary.counts;
        let d = PyDict::new(py);
        for (k, v) in [
            ("commit", c.commits),
            ("tree", c.trees),
            ("blob", c.blobs),
            ("tag", c.tags),
            ("total", c.total()),
        ] {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// Objects verified, all kinds.
    #[getter]
    fn objects(&self) -> u64 {
        self.0.summary.counts.total()
    }

    /// The content bytes of the objects verified (headers not counted).
    #[getter]
    fn bytes(&self) -> u64 {
        self.0.bytes
    }

    /// Files read (each pack, bundle, set of loose objects).
    #[getter]
    fn files(&self) -> u64 {
        self.0.summary.files
    }

    /// Whether the content check ran.
    #[getter]
    fn content_check(&self) -> bool {
        self.0.content
    }

    /// The collisions found (both checks), sorted by file and offset.
    #[getter]
    fn findings(&self) -> Vec<PyFinding> {
        self.0
            .summary
            .findings
            .iter()
            .cloned()
            .map(PyFinding)
            .collect()
    }

    /// What could not be verified, sorted by file and offset.
    #[getter]
    fn damage(&self) -> Vec<PyDamage> {
        self.0
            .summary
            .damage
            .iter()
            .cloned()
            .map(PyDamage)
            .collect()
    }

    /// Objects directories borrowed from (objects/info/alternates): not verified.
    #[getter]
    fn alternates(&self) -> Vec<OsString> {
        self.0
            .alternates
            .iter()
            .map(|p| p.clone().into_os_string())
            .collect()
    }

    /// `git-sha1dc`'s exit status: 3 a collision, else 1 damage, else 0.
    #[getter]
    fn exit(&self) -> i32 {
        self.0.summary.exit_code()
    }

    /// `git-sha1dc --json`'s document, with "bytes" added.
    fn to_json(&self) -> String {
        let o = &self.0;
        let doc = output::json(&o.summary, &o.alternates, o.content);
        let open = doc.strip_suffix('}').unwrap_or(&doc);
        format!("{open},\"bytes\":{}}}", o.bytes)
    }

    /// The summary line `git-sha1dc` prints.
    fn __str__(&self) -> String {
        output::summary_line(&self.0.summary)
    }

    fn __repr__(&self) -> String {
        let s = &self.0.summary;
        format!(
            "Report(objects={}, bytes={}, findings={}, damage={}, exit={})",
            s.counts.total(),
            self.0.bytes,
            s.findings.len(),
            s.damage.len(),
            s.exit_code()
        )
    }
}

/// A collision block found in an object; `str()` is the line
/// `git-sha1dc` prints.
#[pyclass(frozen, eq, module = "sha1dc", name = "Finding")]
#[derive(PartialEq)]
pub struct PyFinding(Finding);

#[pymethods]
impl PyFinding {
    /// 'object' (the object as git hashes it) or 'content' (a blob's bytes).
    #[getter]
    fn check(&self) -> &'static str {
        self.0.check.name()
    }

    /// The object's id, 40 hex digits.
    #[getter]
    fn id(&self) -> String {
        self.0.id.to_string()
    }

    /// 'blob', 'tree', 'commit' or 'tag'.
    #[getter]
    fn kind(&self) -> String {
        self.0.kind.to_string()
    }

    /// The object's content size in bytes.
    #[getter]
    fn size(&self) -> u64 {
        self.0.size
    }

    /// Where the first flagged 64-byte block starts in the content.
    #[getter]
    fn offset(&self) -> u64 {
        self.0.offset
    }

    /// The disturbance vector the block matched, as 'I(43,0)'.
    #[getter]
    fn dv(&self) -> String {
        self.0.dv.to_string()
    }

    /// The file the object is in.
    #[getter]
    fn file(&self) -> OsString {
        self.0.file.clone().into_os_string()
    }

    /// The object's entry offset in its pack, None for a loose object.
    #[getter]
    fn pack_offset(&self) -> Option<u64> {
        self.0.pack_offset
    }

    fn __str__(&self) -> String {
        output::finding_line(&self.0)
    }

    fn __repr__(&self) -> String {
        let f = &self.0;
        format!(
            "Finding(check='{}', id='{}', kind='{}', size={}, offset={}, dv='{}')",
            f.check.name(),
            f.id,
            f.kind,
            f.size,
            f.offset,
            f.dv
        )
    }
}

/// A damaged or unreadable part of the input; `str()` is what
/// `git-sha1dc` prints after "damage: ".
#[pyclass(frozen, eq, module = "sha1dc", name = "Damage")]
#[derive(PartialEq)]
pub struct PyDamage(Damage);

#[pymethods]
impl PyDamage {
    /// The file (or path) it is in.
    #[getter]
    fn file(&self) -> OsString {
        self.0.file.clone().into_os_string()
    }

    /// The entry's offset in the pack, where one is known.
    #[getter]
    fn offset(&self) -> Option<u64> {
        self.0.offset
    }

    /// The object's id, where one is known.
    #[getter]
    fn id(&self) -> Option<String> {
        self.0.id.map(|id| id.to_string())
    }

    /// What is wrong.
    #[getter]
    fn message(&self) -> String {
        self.0.problem.to_string()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Damage({:?})", self.0.to_string())
    }
}
