//! What hashing reports, as Python sees it: `Outcome` (the output, the
//! plain SHA-1 and the collision, if any), `ObjectOutcome` (an `Outcome`
//! of a git object, with where the collision is in the content) and
//! `Collision`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sha1dc_wasm::git::{ObjectKind, ObjectOutcome};
use sha1dc_wasm::{Collision, Outcome};

/// What hashing a message found: `digest()` is the output (the safe hash
/// when a collision was detected and safe hashing is on, else the SHA-1),
/// `sha1_digest()` the plain SHA-1 whatever was detected, `collision` the
/// first flagged block or None.
#[pyclass(frozen, eq, hash, subclass, module = "sha1dc", name = "Outcome")]
#[derive(PartialEq, Eq, Hash)]
pub struct PyOutcome(pub Outcome);

#[pymethods]
impl PyOutcome {
    /// The 20-byte output: the safe hash for a flagged message (unless
    /// safe_hash=False), otherwise the SHA-1.
    pub fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.digest().as_bytes())
    }

    /// digest() as 40 lower-case hex digits.
    pub fn hexdigest(&self) -> String {
        self.0.digest().to_string()
    }

    /// The plain SHA-1 (20 bytes), whatever was detected.
    pub fn sha1_digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.sha1().as_bytes())
    }

    /// sha1_digest() as 40 lower-case hex digits.
    pub fn sha1_hexdigest(&self) -> String {
        self.0.sha1().to_string()
    }

    /// The first block detected as half of a collision, or None.
    #[getter]
    pub fn collision(&self) -> Option<PyCollision> {
        self.0.collision().map(PyCollision)
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(hexdigest='{}', collision={})",
            self.0.digest(),
            collision_repr(self.0.collision())
        )
    }
}

fn collision_repr(c: Option<Collision>) -> String {
    c.map_or_else(|| "None".to_owned(), |c| PyCollision(c).__repr__())
}

/// The Outcome of a git object (`<kind> <len>\0` then the content):
/// digest() is the object id. `collision.offset` counts the header;
/// `collision_offset` is where the flagged block starts in the content.
#[pyclass(frozen, eq, hash, extends = PyOutcome, module = "sha1dc", name = "ObjectOutcome")]
#[derive(PartialEq, Eq, Hash)]
pub struct PyObjectOutcome(ObjectOutcome, ObjectKind);

impl PyObjectOutcome {
    /// Where the first flagged block starts in the content, if one was.
    pub fn content_offset(&self) -> Option<u64> {
        self.0.collision_offset()
    }

    /// The Python object for `outcome`, an object of `kind`.
    pub fn create(py: Python<'_>, outcome: ObjectOutcome, kind: ObjectKind) -> PyResult<Py<Self>> {
        let init = PyClassInitializer::from(PyOutcome(*outcome.outcome()))
            .add_subclass(PyObjectOutcome(outcome, kind));
        Py::new(py, init)
    }
}

#[pymethods]
impl PyObjectOutcome {
    /// The object's kind: 'blob', 'tree', 'commit' or 'tag'.
    #[getter]
    fn kind(&self) -> &'static str {
        self.1.name()
    }

    /// Bytes of the header `<kind> <len>\0`.
    #[getter]
    fn header_len(&self) -> u64 {
        self.0.header_len()
    }

    /// Where the first flagged block starts in the content (0 when it
    /// starts in the header), or None when nothing was flagged.
    #[getter]
    fn collision_offset(&self) -> Option<u64> {
        self.content_offset()
    }

    fn __repr__(&self) -> String {
        format!(
            "ObjectOutcome(kind='{}', hexdigest='{}', collision={})",
            self.1.name(),
            self.0.id(),
            collision_repr(self.0.collision())
        )
    }
}

/// Where a collision was detected: the first flagged 64-byte `block`, its
/// byte `offset`, the disturbance vector `dv` whose test matched (as
/// 'II(52,0)'), and the `count` of flagged blocks.
#[pyclass(frozen, eq, hash, module = "sha1dc", name = "Collision")]
#[derive(PartialEq, Eq, Hash)]
pub struct PyCollision(Collision);

#[pymethods]
impl PyCollision {
    /// Index of the first flagged block (0 is the first).
    #[getter]
    fn block(&self) -> u64 {
        self.0.block()
    }

    /// Byte offset of the first flagged block in what was hashed.
    #[getter]
    fn offset(&self) -> u64 {
        self.0.offset()
    }

    /// The disturbance vector, named as in the literature: 'II(52,0)'.
    #[getter]
    fn dv(&self) -> String {
        self.0.dv().to_string()
    }

    /// How many blocks were flagged in all.
    #[getter]
    fn count(&self) -> u64 {
        self.0.count()
    }

    fn __repr__(&self) -> String {
        let c = &self.0;
        format!(
            "Collision(block={}, offset={}, dv='{}', count={})",
            c.block(),
            c.offset(),
            c.dv(),
            c.count()
        )
    }
}

/// A git object kind from its name, as git writes it in the header.
pub fn object_kind(name: &str) -> PyResult<ObjectKind> {
    [
        ObjectKind::Blob,
        ObjectKind::Tree,
        ObjectKind::Commit,
        ObjectKind::Tag,
    ]
    .into_iter()
    .find(|k| k.name() == name)
    .ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown git object kind '{name}': it is one of 'blob', 'tree', 'commit', 'tag'"
        ))
    })
}
