//! A Python object's bytes, read in place: `bytes` directly, anything else
//! (bytearray, memoryview, mmap, array.array, NumPy arrays...) through the
//! buffer protocol, as `hashlib` reads them. Nothing is copied.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
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
    /// Any other object with the buffer protocol.
    Buffer(SimpleBuffer),
}

/// A buffer exported in the simple form (`PyBUF_SIMPLE`), as `hashlib`
/// asks for it: the exporter hands over its bytes, contiguous, whatever
/// their shape or item type (a ctypes array, a 0-d NumPy array), or
/// refuses with its own error (a non-contiguous view). Released on drop.
pub struct SimpleBuffer(Box<ffi::Py_buffer>);

// SAFETY: the view only describes memory the exporter keeps valid until
// it is released; reading it from another thread is what hashing without
// the GIL does, and the release (in `drop`) takes the GIL.
unsafe impl Send for SimpleBuffer {}
unsafe impl Sync for SimpleBuffer {}

impl SimpleBuffer {
    fn get(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mut view = Box::new(std::mem::MaybeUninit::<ffi::Py_buffer>::uninit());
        // SAFETY: `obj` is a live object and `view` writable memory for one
        // Py_buffer, which the call fills when it succeeds (returns 0).
        let status =
            unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), view.as_mut_ptr(), ffi::PyBUF_SIMPLE) };
        if status != 0 {
            return Err(PyErr::fetch(obj.py()));
        }
        // SAFETY: initialised by the successful call above.
        Ok(SimpleBuffer(unsafe {
            Box::from_raw(Box::into_raw(view).cast())
        }))
    }

    fn as_slice(&self) -> &[u8] {
        let len = usize::try_from(self.0.len).unwrap_or(0);
        if len == 0 || self.0.buf.is_null() {
            return &[];
        }
        // SAFETY: a simple export is `len` contiguous bytes at `buf`, kept
        // valid and in place while it is held (a bytearray refuses to
        // resize, an mmap to close). A mutable buffer that another thread
        // writes while it is hashed is hashed as `hashlib` hashes it: some
        // mix of old and new bytes; the memory stays valid.
        unsafe { std::slice::from_raw_parts(self.0.buf.cast::<u8>(), len) }
    }
}

impl Drop for SimpleBuffer {
    fn drop(&mut self) {
        // SAFETY: exported by PyObject_GetBuffer, released once, with the GIL
        // (while the interpreter exits, it cannot be had: left unreleased).
        let _ = Python::try_attach(|_| unsafe { ffi::PyBuffer_Release(&mut *self.0) });
    }
}

impl<'py> Bytes<'py> {
    /// The bytes of `obj`, or the error `hashlib` gives: a `TypeError` for a
    /// `str` or an object without the buffer protocol, the exporter's own
    /// error for a buffer that is not contiguous (`BufferError` from a
    /// memoryview, `ValueError` from NumPy).
    pub fn new(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(bytes) = obj.cast::<PyBytes>() {
            return Ok(Bytes::Bytes(bytes.clone()));
        }
        if obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "Strings must be encoded before hashing (str has no bytes of its own: pass s.encode())",
            ));
        }
        let buffer = SimpleBuffer::get(obj).map_err(|err| {
            if err.is_instance_of::<PyTypeError>(obj.py()) {
                let name = type_name(obj);
                PyTypeError::new_err(format!(
                    "a bytes-like object is required (bytes, bytearray, memoryview, mmap, array...), not '{name}'"
                ))
            } else {
                err
            }
        })?;
        Ok(Bytes::Buffer(buffer))
    }

    /// The bytes, for as long as `self` is held, with or without the GIL.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Bytes(bytes) => bytes.as_bytes(),
            Bytes::Buffer(buffer) => buffer.as_slice(),
        }
    }
}

/// Runs `f`, which hashes `len` bytes, without the GIL when that pays
/// (other Python threads run meanwhile), with it for a few bytes.
pub fn hashing<R: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> R + Send) -> R {
    if len < DETACH_MIN { f() } else { py.detach(f) }
}
