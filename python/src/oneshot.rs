//! Hashing in one call: one message (`hash`), one git object
//! (`hash_object`), and many of either at once, one per vector lane
//! (`hash_many`, `hash_objects`).

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView, PyString};

use crate::bytes::{Bytes, hashing};
use crate::options::{Options, type_name};
use crate::outcome::{PyObjectOutcome, PyOutcome, object_kind};

/// The Outcome of `data` (any bytes-like object), hashed in one call.
#[pyfunction]
#[pyo3(signature = (data, **options))]
pub fn hash(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyOutcome> {
    let options = Options::stream("hash", options)?;
    let bytes = Bytes::new(data)?;
    let data = bytes.as_slice();
    let outcome = hashing(py, data.len(), || {
        if options.parallel {
            let mut hasher = options.builder.build();
            hasher.update_parallel(data);
            hasher.finalize()
        } else {
            options.builder.hash(data)
        }
    });
    Ok(PyOutcome(outcome))
}

/// The ObjectOutcome of a git object of `kind` ('blob', 'tree', 'commit',
/// 'tag') with this content: digest() is its id.
#[pyfunction]
#[pyo3(signature = (kind, content, **options))]
pub fn hash_object(
    py: Python<'_>,
    kind: &str,
    content: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyObjectOutcome>> {
    let kind = object_kind(kind)?;
    let options = Options::stream("hash_object", options)?;
    let bytes = Bytes::new(content)?;
    let content = bytes.as_slice();
    let outcome = hashing(py, content.len(), || {
        let mut hasher = options.builder.build_object(kind, content.len() as u64);
        if options.parallel {
            hasher.update_parallel(content);
        } else {
            hasher.update(content);
        }
        hasher.finalize()
    })
    // The content is the length announced, by construction.
    .map_err(|err| PyRuntimeError::new_err(err.to_string()))?;
    PyObjectOutcome::create(py, outcome, kind)
}

/// The Outcome of every message of `messages` (an iterable of bytes-like
/// objects), in order, hashed several at a time.
#[pyfunction]
#[pyo3(signature = (messages, **options))]
pub fn hash_many(
    py: Python<'_>,
    messages: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Py<PyOutcome>>> {
    let options = Options::batch("hash_many", options)?;
    let views = all_bytes("hash_many", messages)?;
    let (slices, total) = slices(&views);
    let outcomes = hashing(py, total, || options.builder.hash_many(&slices));
    outcomes
        .into_iter()
        .map(|o| Py::new(py, PyOutcome(o)))
        .collect()
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
) -> PyResult<Vec<Py<PyObjectOutcome>>> {
    let kind = object_kind(kind)?;
    let options = Options::batch("hash_objects", options)?;
    let views = all_bytes("hash_objects", contents)?;
    let (slices, total) = slices(&views);
    let outcomes = hashing(py, total, || options.builder.hash_objects(kind, &slices));
    outcomes
        .into_iter()
        .map(|o| PyObjectOutcome::create(py, o, kind))
        .collect()
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

/// The slices of `views` and their total length.
fn slices<'a>(views: &'a [Bytes<'_>]) -> (Vec<&'a [u8]>, usize) {
    let slices: Vec<&[u8]> = views.iter().map(Bytes::as_slice).collect();
    let total = slices.iter().map(|s| s.len()).sum();
    (slices, total)
}
