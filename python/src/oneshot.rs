//! One message (`hash`) or one git object (`hash_object`) in one call.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bytes::{Bytes, hashing};
use crate::options::Options;
use crate::outcome::{PyObjectOutcome, PyOutcome, object_kind};

/// The Outcome of `data` (any bytes-like object), hashed in one call.
#[pyfunction]
#[pyo3(signature = (data, **options))]
pub fn hash(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyOutcome> {
    let options = Options::parse("hash", options)?;
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
    let options = Options::parse("hash_object", options)?;
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
