//! The streaming hash objects: `Hasher` (what `sha1()` returns, the shape of
//! `hashlib`'s) and `ObjectHasher` (one git object). Each holds its state
//! behind a lock, so that threads may share one as they may share a
//! `hashlib` object, and hashes without the GIL.

use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use sha1dc_wasm::Hasher;
use sha1dc_wasm::git::{ObjectHasher, ObjectKind, ObjectOutcome};

use crate::bytes::{Bytes, DETACH_MIN};
use crate::options::Options;
use crate::outcome::{PyCollision, PyObjectOutcome, PyOutcome, object_kind};

/// A message being hashed: the library's two streaming hashers.
trait Stream: Clone + Send {
    fn update(&mut self, data: &[u8]);
    fn update_parallel(&mut self, data: &[u8]);
}

/// [`Stream`] for each of the library's streaming hashers, whose methods
/// of the same names it calls.
macro_rules! impl_stream {
    ($($hasher:ty),*) => {$(
        impl Stream for $hasher {
            fn update(&mut self, data: &[u8]) {
                <$hasher>::update(self, data);
            }
            fn update_parallel(&mut self, data: &[u8]) {
                <$hasher>::update_parallel(self, data);
            }
        }
    )*};
}

impl_stream!(Hasher, ObjectHasher);

/// A stream behind a lock. The lock is never waited for with the GIL held
/// (a thread hashing without the GIL may hold it), and the library never
/// panics, so a poisoned lock still holds a consistent stream.
struct Locked<S> {
    state: Mutex<S>,
    /// One large update may filter on a second thread.
    parallel: bool,
}

impl<S: Stream> Locked<S> {
    fn new(state: S, parallel: bool) -> Self {
        Locked {
            state: Mutex::new(state),
            parallel,
        }
    }

    fn lock(&self) -> MutexGuard<'_, S> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the stream: with the GIL when `keep_gil` and the lock
    /// is free, else without it, so that waiting for a thread hashing into
    /// this object stalls no other Python thread.
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        keep_gil: bool,
        f: impl FnOnce(&mut S) -> R + Send,
    ) -> R {
        if keep_gil {
            let held = match self.state.try_lock() {
                Ok(state) => Some(state),
                Err(TryLockError::Poisoned(state)) => Some(state.into_inner()),
                Err(TryLockError::WouldBlock) => None,
            };
            if let Some(mut state) = held {
                return f(&mut state);
            }
        }
        py.detach(|| f(&mut self.lock()))
    }

    /// Adds the bytes of `data` (any bytes-like object, read in place).
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let bytes = Bytes::new(data)?;
        let data = bytes.as_slice();
        let parallel = self.parallel;
        self.with(py, data.len() < DETACH_MIN, |state| {
            if parallel {
                state.update_parallel(data);
            } else {
                state.update(data);
            }
        });
        Ok(())
    }

    /// A copy of the stream as it is now.
    fn snapshot(&self, py: Python<'_>) -> S {
        self.with(py, true, |state| state.clone())
    }

    fn copy(&self, py: Python<'_>) -> Self {
        Locked::new(self.snapshot(py), self.parallel)
    }
}

/// A SHA-1 hash object with collision detection, as sha1() returns it: the
/// methods and attributes of a hashlib object, plus the plain SHA-1 and the
/// collision report of the message so far.
#[pyclass(frozen, module = "sha1dc", name = "Hasher")]
pub struct PyHasher(Locked<Hasher>);

#[pymethods]
impl PyHasher {
    /// Adds the bytes of a bytes-like object (bytes, bytearray, memoryview,
    /// mmap, array.array, a NumPy array...), read in place, without the GIL.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0.update(py, data)
    }

    /// The Outcome of the message so far (the hasher goes on).
    fn outcome(&self, py: Python<'_>) -> PyOutcome {
        PyOutcome(self.0.snapshot(py).finalize())
    }

    /// The 20-byte output of the message so far: its SHA-1, or the safe hash
    /// when a collision was detected (unless safe_hash=False).
    fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.outcome(py).digest(py)
    }

    /// digest() as 40 lower-case hex digits.
    fn hexdigest(&self, py: Python<'_>) -> String {
        self.outcome(py).hexdigest()
    }

    /// The plain SHA-1 (20 bytes) of the message so far, whatever was detected.
    fn sha1_digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.outcome(py).sha1_digest(py)
    }

    /// sha1_digest() as 40 lower-case hex digits.
    fn sha1_hexdigest(&self, py: Python<'_>) -> String {
        self.outcome(py).sha1_hexdigest()
    }

    /// The first block of the message so far detected as half of a
    /// collision, or None.
    #[getter]
    fn collision(&self, py: Python<'_>) -> Option<PyCollision> {
        self.outcome(py).collision()
    }

    /// An independent copy: the same message so far and options.
    fn copy(&self, py: Python<'_>) -> Self {
        PyHasher(self.0.copy(py))
    }

    /// 'sha1', as hashlib names it: the output is SHA-1 for every message
    /// that is not half of a collision.
    #[getter]
    fn name(&self) -> &'static str {
        "sha1"
    }

    /// 20.
    #[getter]
    fn digest_size(&self) -> usize {
        20
    }

    /// 64, SHA-1's block size in bytes.
    #[getter]
    fn block_size(&self) -> usize {
        64
    }

    /// The engine's backend: 'sha-ni+avx512', 'portable'...
    #[getter]
    fn backend(&self, py: Python<'_>) -> &'static str {
        self.0.snapshot(py).backend()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let h = self.0.snapshot(py);
        format!("<sha1dc.Hasher backend='{}' len={}>", h.backend(), h.len())
    }
}

/// An argument that may be left out: then `None`. Given, it is any object,
/// `None` included (which then fails as hashlib has it, not as "no data").
pub struct Given<'py>(Option<Bound<'py, PyAny>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Given<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Given(Some(obj.to_owned())))
    }
}

/// A new hash object, as hashlib.sha1(): `data` is hashed first (`string`
/// is its old name in hashlib). `usedforsecurity` is accepted and ignored.
#[pyfunction]
#[pyo3(signature = (data = Given(None), *, string = Given(None), usedforsecurity = None, **options))]
pub fn sha1(
    py: Python<'_>,
    data: Given<'_>,
    string: Given<'_>,
    usedforsecurity: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyHasher> {
    let _ = usedforsecurity;
    let options = Options::parse("sha1", options)?;
    let hasher = PyHasher(Locked::new(options.builder.build(), options.parallel));
    match (data.0, string.0) {
        (Some(_), Some(_)) => {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "sha1(): pass data or string (its old name), not both",
            ));
        }
        (Some(data), None) | (None, Some(data)) => hasher.update(py, &data)?,
        (None, None) => {}
    }
    Ok(hasher)
}

/// A streaming hasher for one git object, `<kind> <len>\0` then the
/// content, whose length must be given first, as git's header holds it.
#[pyclass(frozen, module = "sha1dc", name = "ObjectHasher")]
pub struct PyObjectHasher(Locked<ObjectHasher>);

#[pymethods]
impl PyObjectHasher {
    /// Adds content (any bytes-like object, read in place, without the GIL).
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0.update(py, data)
    }

    /// The ObjectOutcome of the object; ValueError when the content so far
    /// is not the length announced (the hasher goes on either way).
    fn outcome(&self, py: Python<'_>) -> PyResult<Py<PyObjectOutcome>> {
        let (outcome, kind) = self.finish(py)?;
        PyObjectOutcome::create(py, outcome, kind)
    }

    /// The object id (20 bytes): outcome().digest().
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let id = self.finish(py)?.0.id();
        Ok(PyBytes::new(py, id.as_bytes()))
    }

    /// The object id in hex, as git prints it: outcome().hexdigest().
    fn hexdigest(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.finish(py)?.0.id().to_string())
    }

    /// An independent copy.
    fn copy(&self, py: Python<'_>) -> Self {
        PyObjectHasher(self.0.copy(py))
    }

    /// 'blob', 'tree', 'commit' or 'tag'.
    #[getter]
    fn kind(&self, py: Python<'_>) -> &'static str {
        self.0.snapshot(py).kind().name()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let h = self.0.snapshot(py);
        format!(
            "<sha1dc.ObjectHasher kind='{}' content_len={}>",
            h.kind(),
            h.content_len()
        )
    }
}

impl PyObjectHasher {
    /// The object so far, finished, and its kind.
    fn finish(&self, py: Python<'_>) -> PyResult<(ObjectOutcome, ObjectKind)> {
        let hasher = self.0.snapshot(py);
        let kind = hasher.kind();
        let outcome = hasher
            .finalize()
            .map_err(|err| PyValueError::new_err(err.to_string()))?;
        Ok((outcome, kind))
    }
}

/// A streaming hasher for a git object of `kind` ('blob', 'tree',
/// 'commit', 'tag') whose content is `content_len` bytes.
#[pyfunction]
#[pyo3(signature = (kind, content_len, **options))]
pub fn object_hasher(
    kind: &str,
    content_len: u64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObjectHasher> {
    let kind: ObjectKind = object_kind(kind)?;
    let options = Options::parse("object_hasher", options)?;
    let hasher = options.builder.build_object(kind, content_len);
    Ok(PyObjectHasher(Locked::new(hasher, options.parallel)))
}
