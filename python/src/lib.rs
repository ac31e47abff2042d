//! The extension module `sha1dc._sha1dc` of the Python package `sha1dc`
//! (python/sha1dc/ re-exports it): the library's hashers, one-shot and
//! batch calls as Python objects, in the shape of `hashlib`, and gitverify's
//! check of git repositories. Bytes are read in place and hashed without
//! the GIL; errors are Python exceptions.

mod batch;
mod bytes;
mod command;
mod oneshot;
mod options;
mod outcome;
mod stream;
mod verify;

use pyo3::prelude::*;

/// The backends this CPU runs, fastest first (the `backend` option takes
/// any of them).
#[pyfunction]
fn available_backends() -> Vec<&'static str> {
    sha1dc_wasm::available_backends().collect()
}

/// SHA-1 with collision detection; the package sha1dc re-exports it.
#[pymodule]
fn _sha1dc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<stream::PyHasher>()?;
    m.add_class::<stream::PyObjectHasher>()?;
    m.add_class::<outcome::PyOutcome>()?;
    m.add_class::<outcome::PyObjectOutcome>()?;
    m.add_class::<outcome::PyCollision>()?;
    m.add_class::<batch::PyOutcomes>()?;
    m.add_class::<command::PyCommandLine>()?;
    m.add_class::<verify::PyReport>()?;
    m.add_class::<verify::PyFinding>()?;
    m.add_class::<verify::PyDamage>()?;
    m.add_class::<verify::PyVerification>()?;
    m.add_function(wrap_pyfunction!(stream::sha1, m)?)?;
    m.add_function(wrap_pyfunction!(stream::object_hasher, m)?)?;
    m.add_function(wrap_pyfunction!(oneshot::hash, m)?)?;
    m.add_function(wrap_pyfunction!(oneshot::hash_object, m)?)?;
    m.add_function(wrap_pyfunction!(batch::hash_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::hash_objects, m)?)?;
    m.add_function(wrap_pyfunction!(available_backends, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify_iter, m)?)?;
    Ok(())
}
