//! A Python object's bytes, read in place: `bytes` directly, anything else
//! (bytearray, memoryview, mmap, array.array, NumPy arrays...) through the
//! buffer protocol, as `hashlib` reads them. Nothing is copied.

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::options::type_name;

/// Below this many bytes, hashing keeps the GIL: releasing and taking it
/// again would cost more than the hashing (`hashlib`'s threshold too).
pub const DETACH_MIN: usize = 2048;

/// The bytes of one object passed to be hashed, held (and so kept alive,
/// unresized) until this is dropped.
pub enum Bytes<'py> {
    /// Immutable: its bytes are read without a buffer export.
    Bytes(Bound<'py, PyBytes>),
    /// Any other object with the buffer protocol, C-contiguous.
    Buffer(PyUntypedBuffer),
}

impl<'py> Bytes<'py> {
    /// The bytes of `obj`, or the error `hashlib` gives: a `TypeError` for a
    /// `str` or an object without the buffer protocol, a `BufferError` for a
    /// buffer that is not contiguous.
    pub fn new(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(bytes) = obj.cast::<PyBytes>() {
            return Ok(Bytes::Bytes(bytes.clone()));
        }
        if obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "Strings must be encoded before hashing (str has no bytes of its own: pass s.encode())",
            ));
        }
        let buffer = PyUntypedBuffer::get(obj).map_err(|err| {
            if err.is_instance_of::<PyTypeError>(obj.py()) {
                let name = type_name(obj);
                PyTypeError::new_err(format!(
                    "a bytes-like object is required (bytes, bytearray, memoryview, mmap, array...), not '{name}'"
                ))
            } else {
                err
            }
        })?;
        if !buffer.is_c_contiguous() {
            return Err(PyBufferError::new_err(
                "the buffer is not C-contiguous, so it cannot be hashed in place: pass a contiguous copy (bytes(view), numpy.ascontiguousarray(a))",
            ));
        }
        Ok(Bytes::Buffer(buffer))
    }

    /// The bytes, for as long as `self` is held, with or without the GIL.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Bytes(bytes) => bytes.as_bytes(),
            Bytes::Buffer(buffer) => {
                let len = buffer.len_bytes();
                if len == 0 {
                    return &[];
                }
                // SAFETY: the exporter keeps `len` bytes at `buf_ptr` valid
                // and in place while the buffer is held (a bytearray refuses
                // to resize, an mmap to close), and it was checked to be
                // C-contiguous, so they are the buffer's bytes in order. A
                // mutable buffer that another thread writes while it is
                // hashed is hashed as `hashlib` hashes it: some mix of old
                // and new bytes; the memory stays valid.
                unsafe { std::slice::from_raw_parts(buffer.buf_ptr().cast::<u8>(), len) }
            }
        }
    }
}

/// Runs `f`, which hashes `len` bytes, without the GIL when that pays
/// (other Python threads run meanwhile), with it for a few bytes.
pub fn hashing<R: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> R + Send) -> R {
    if len < DETACH_MIN { f() } else { py.detach(f) }
}
