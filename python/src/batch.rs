//! Many messages (`hash_many`) or git objects (`hash_objects`) in one call:
//! the library's batch, one message per vector lane, without the GIL, a
//! large batch on two threads. The answer is an
//! `Outcomes`, a read-only sequence that makes each item's Python object
//! only when asked for it: ten thousand objects that the garbage collector
//! tracks would cost more than hashing ten thousand small messages.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyMemoryView, PySlice, PyString};
use sha1dc_wasm::git::{ObjectKind, ObjectOutcome, hash_object};
use sha1dc_wasm::{Builder, Outcome};

use crate::bytes::{Bytes, hashing};
use crate::options::{Options, type_name};
use crate::outcome::{PyObjectOutcome, PyOutcome, object_kind};

/// A large batch is cut into jobs of at least this many bytes and
/// messages, which this thread and a second one take in turn. Below it,
/// starting the thread costs more than the second core saves; and a job of
/// fewer messages would spend much of its time on its last few, which the
/// library finishes one at a time.
const JOB_BYTES: usize = 256 << 10;
const JOB_MESSAGES: usize = 256;

/// The Outcome of every message of `messages` (an iterable of bytes-like
/// objects), in order, hashed several at a time.
#[pyfunction]
#[pyo3(signature = (messages, **options))]
pub fn hash_many(
    py: Python<'_>,
    messages: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyOutcomes> {
    let options = Options::parse("hash_many", options)?;
    let views = all_bytes("hash_many", messages)?;
    let builder = options.builder;
    let outcomes = run(
        py,
        &views,
        options.parallel,
        Outcome::default(),
        |m, out| {
            // `out` is as long as `m`, by construction.
            let _ = builder.hash_many_into(m, out);
        },
    );
    Ok(PyOutcomes(Items::Messages(outcomes)))
}

/// The ObjectOutcome of every content of `contents` as a git object of
/// `kind`, in order, hashed several at a time.
#[pyfunction]
#[pyo3(signature = (kind, contents, **options))]
pub fn hash_objects(
    py: Python<'_>,
    kind: &str,
    contents: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyOutcomes> {
    let kind = object_kind(kind)?;
    let options = Options::parse("hash_objects", options)?;
    let views = all_bytes("hash_objects", contents)?;
    let builder: Builder = options.builder;
    // A placeholder each slot starts with; every one is overwritten.
    let empty = hash_object(kind, b"");
    let outcomes = run(py, &views, options.parallel, empty, |c, out| {
        let _ = builder.hash_objects_into(kind, c, out);
    });
    Ok(PyOutcomes(Items::Objects(outcomes, kind)))
}

/// Fills one outcome per message with `hash` (`hash(m, out)`: `out[i]` for
/// `m[i]`), without the GIL. With `parallel`, a large batch is cut into
/// jobs that this thread and a second one claim in turn: when the second
/// thread starts late, or not at all (a busy machine), this one takes the
/// jobs left, and never waits but for the one the second thread is on.
fn run<T: Copy + Send + Sync>(
    py: Python<'_>,
    views: &[Bytes<'_>],
    parallel: bool,
    placeholder: T,
    hash: impl Fn(&[&[u8]], &mut [T]) + Sync,
) -> Vec<T> {
    let messages: Vec<&[u8]> = views.iter().map(Bytes::as_slice).collect();
    let total: usize = messages.iter().map(|m| m.len()).sum();
    let mut out = vec![placeholder; messages.len()];
    hashing(py, total, || {
        if !parallel || total < 2 * JOB_BYTES || messages.len() < 2 * JOB_MESSAGES {
            // Too small for two jobs: no second thread.
            hash(&messages, &mut out);
            return;
        }
        let jobs = jobs(&messages, &mut out);
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                let (m, o) = &mut *lock(job);
                hash(m, o);
            }
        };
        std::thread::scope(|scope| {
            // Where no thread starts, this one takes every job.
            let _ = std::thread::Builder::new().spawn_scoped(scope, work);
            work();
        });
    });
    out
}

/// One job: messages and their outcomes' slots.
type Job<'a, 'm, T> = Mutex<(&'a [&'m [u8]], &'a mut [T])>;

/// `messages` and `out` cut into jobs of at least `JOB_BYTES` and
/// `JOB_MESSAGES` (the last may be smaller); one job when they are few.
fn jobs<'a, 'm, T>(messages: &'a [&'m [u8]], mut out: &'a mut [T]) -> Vec<Job<'a, 'm, T>> {
    let mut jobs = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, m) in messages.iter().enumerate() {
        bytes += m.len();
        let end = i + 1;
        let last = end == messages.len();
        if last || (bytes >= JOB_BYTES && end - start >= JOB_MESSAGES) {
            let (slots, rest) = std::mem::take(&mut out).split_at_mut(end - start);
            jobs.push(Mutex::new((&messages[start..end], slots)));
            out = rest;
            (start, bytes) = (end, 0);
        }
    }
    jobs
}

/// A job's lock: each is taken once, by whichever thread claimed it.
fn lock<'g, 'a, 'm, T>(job: &'g Job<'a, 'm, T>) -> MutexGuard<'g, (&'a [&'m [u8]], &'a mut [T])> {
    job.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The bytes of every item of `items`; an item that is not bytes-like is
/// named by its index in the error, which keeps its type.
fn all_bytes<'py>(func: &str, items: &Bound<'py, PyAny>) -> PyResult<Vec<Bytes<'py>>> {
    let py = items.py();
    if items.is_instance_of::<PyBytes>()
        || items.is_instance_of::<PyByteArray>()
        || items.is_instance_of::<PyMemoryView>()
        || items.is_instance_of::<PyString>()
    {
        return Err(PyTypeError::new_err(format!(
            "{func}() takes an iterable of bytes-like objects (a list of bytes...), not one '{}'",
            type_name(items)
        )));
    }
    let iter = items.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{func}() takes an iterable of bytes-like objects, not '{}'",
            type_name(items)
        ))
    })?;
    let mut all = Vec::with_capacity(items.len().unwrap_or(0));
    for (i, item) in iter.enumerate() {
        let bytes = Bytes::new(&item?).map_err(|err| {
            let named = PyErr::from_type(
                err.get_type(py),
                format!("{func}(): item {i}: {}", err.value(py)),
            );
            named.set_cause(py, Some(err));
            named
        })?;
        all.push(bytes);
    }
    Ok(all)
}

/// What a batch found, message by message.
enum Items {
    Messages(Vec<Outcome>),
    Objects(Vec<ObjectOutcome>, ObjectKind),
}

impl Items {
    fn len(&self) -> usize {
        match self {
            Items::Messages(v) => v.len(),
            Items::Objects(v, _) => v.len(),
        }
    }

    fn outcome(&self, i: usize) -> Outcome {
        match self {
            Items::Messages(v) => v[i],
            Items::Objects(v, _) => *v[i].outcome(),
        }
    }

    /// The Python object for item `i` (< len).
    fn object(&self, py: Python<'_>, i: usize) -> PyResult<Py<PyAny>> {
        match self {
            Items::Messages(v) => Ok(Py::new(py, PyOutcome(v[i]))?.into_any()),
            Items::Objects(v, kind) => Ok(PyObjectOutcome::create(py, v[i], *kind)?.into_any()),
        }
    }
}

/// The outcomes of hash_many (each an Outcome) or hash_objects (each an
/// ObjectOutcome), in the order of the messages: a read-only sequence.
/// digests(), hexdigests() and flagged() read them all at once.
#[pyclass(frozen, sequence, generic, module = "sha1dc", name = "Outcomes")]
pub struct PyOutcomes(Items);

#[pymethods]
impl PyOutcomes {
    fn __len__(&self) -> usize {
        self.0.len()
    }

    /// The item at an index (negative counts from the end), or a list of
    /// the items of a slice.
    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let len = self.0.len();
        if let Ok(slice) = index.cast::<PySlice>() {
            let s = slice.indices(len as isize)?;
            let items = (0..s.slicelength)
                .map(|k| self.0.object(py, (s.start + k as isize * s.step) as usize))
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(PyList::new(py, items)?.into_any().unbind());
        }
        let i: isize = index.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "Outcomes indices must be integers or slices, not '{}'",
                type_name(index)
            ))
        })?;
        let at = if i < 0 { i + len as isize } else { i };
        if at < 0 || at as usize >= len {
            return Err(PyIndexError::new_err(format!(
                "Outcomes index {i} out of range for {len} outcomes"
            )));
        }
        self.0.object(py, at as usize)
    }

    fn __iter__(slf: Py<Self>) -> OutcomesIter {
        OutcomesIter {
            outcomes: slf,
            next: AtomicUsize::new(0),
        }
    }

    /// How many items equal `value` (Sequence's count).
    #[pyo3(signature = (value, /))]
    fn count(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mut n = 0;
        for i in 0..self.0.len() {
            n += usize::from(self.0.object(py, i)?.bind(py).eq(value)?);
        }
        Ok(n)
    }

    /// The first index from `start` (up to `stop`) of an item equal to
    /// `value` (Sequence's index, negative bounds from the end).
    #[pyo3(signature = (value, start = 0, stop = None, /))]
    fn index(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        start: isize,
        stop: Option<isize>,
    ) -> PyResult<usize> {
        let len = self.0.len() as isize;
        let bound = |i: isize| (if i < 0 { i + len } else { i }).clamp(0, len) as usize;
        for i in bound(start)..bound(stop.unwrap_or(len)) {
            if self.0.object(py, i)?.bind(py).eq(value)? {
                return Ok(i);
            }
        }
        Err(PyValueError::new_err(
            "the value is not among these outcomes",
        ))
    }

    /// Every item's digest() (the output), in order: one list of bytes.
    fn digests<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>> {
        (0..self.0.len())
            .map(|i| PyBytes::new(py, self.0.outcome(i).digest().as_bytes()))
            .collect()
    }

    /// Every item's hexdigest(), in order.
    fn hexdigests(&self) -> Vec<String> {
        (0..self.0.len())
            .map(|i| self.0.outcome(i).digest().to_string())
            .collect()
    }

    /// The indices of the messages in which a collision was detected.
    fn flagged(&self) -> Vec<usize> {
        (0..self.0.len())
            .filter(|&i| self.0.outcome(i).collision().is_some())
            .collect()
    }

    fn __repr__(&self) -> String {
        let what = match self.0 {
            Items::Messages(_) => "messages".to_owned(),
            Items::Objects(_, kind) => format!("{kind} objects"),
        };
        format!(
            "<sha1dc.Outcomes of {} {what}, {} flagged>",
            self.0.len(),
            self.flagged().len()
        )
    }
}

/// Iterates over an Outcomes.
#[pyclass(frozen, module = "sha1dc")]
pub struct OutcomesIter {
    outcomes: Py<PyOutcomes>,
    next: AtomicUsize,
}

#[pymethods]
impl OutcomesIter {
    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let items = &self.outcomes.get().0;
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        if i >= items.len() {
            // Stays exhausted.
            self.next.store(items.len(), Ordering::Relaxed);
            return Ok(None);
        }
        items.object(py, i).map(Some)
    }
}
