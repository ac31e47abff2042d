//! Many messages (`hash_many`) or git objects (`hash_objects`) in one call:
//! the library's batch, one message per vector lane, without the GIL, a
//! large batch split in two halves for two threads. The answer is an
//! `Outcomes`, a read-only sequence that makes each item's Python object
//! only when asked for it: ten thousand objects that the garbage collector
//! tracks would cost more than hashing ten thousand small messages.

use std::sync::atomic::{AtomicUsize, Ordering};

use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyMemoryView, PySlice, PyString};
use sha1dc_wasm::git::{ObjectKind, ObjectOutcome, hash_object};
use sha1dc_wasm::{Builder, Outcome};

use crate::bytes::{Bytes, hashing};
use crate::options::{Options, type_name};
use crate::outcome::{PyObjectOutcome, PyOutcome, object_kind};

/// From this many bytes in all, a batch is split for a second thread; below,
/// the thread's start would cost more than the second core saves.
const SPLIT_MIN: usize = 256 << 10;

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
/// `m[i]`), without the GIL; a large batch in two halves of about as many
/// bytes, the second on another thread when `parallel`.
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
        if !parallel || total < SPLIT_MIN || messages.len() < 2 {
            hash(&messages, &mut out);
            return;
        }
        let mut sum = 0;
        let half = messages
            .iter()
            .position(|m| {
                sum += m.len();
                2 * sum >= total
            })
            .map_or(messages.len() / 2, |i| (i + 1).min(messages.len() - 1));
        let (first, second) = messages.split_at(half);
        let (first_out, second_out) = out.split_at_mut(half);
        std::thread::scope(|scope| {
            let hash = &hash;
            let helper = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut out = vec![placeholder; second.len()];
                hash(second, &mut out);
                out
            });
            hash(first, first_out);
            match helper.map(|h| h.join()) {
                Ok(Ok(done)) => second_out.copy_from_slice(&done),
                // No thread could start (or, never, it panicked): this one
                // hashes the second half too.
                _ => hash(second, second_out),
            }
        });
    });
    out
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
