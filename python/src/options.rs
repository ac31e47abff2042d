//! The keyword options every constructor and one-shot function takes, read
//! in one place so that they are spelled and checked alike everywhere.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use sha1dc_wasm::{Builder, Hasher};

/// Their names.
const NAMES: &[&str] = &[
    "safe_hash",
    "detect_collisions",
    "reduced_round",
    "use_filter",
    "backend",
    "parallel",
];

/// What the keyword options asked for.
#[derive(Clone, Copy)]
pub struct Options {
    pub builder: Builder,
    /// A large update may filter on a second thread (`update_parallel`),
    /// a large batch hash its second half on one.
    pub parallel: bool,
}

impl Options {
    /// The options in `kwargs`; `func` names the caller in errors.
    pub fn parse(func: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut options = Options {
            builder: Hasher::builder(),
            parallel: true,
        };
        let Some(kwargs) = kwargs else {
            return Ok(options);
        };
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            if !NAMES.contains(&key.as_str()) {
                return Err(PyTypeError::new_err(format!(
                    "{func}() got an unexpected keyword argument '{key}' (its options are {})",
                    NAMES.join(", ")
                )));
            }
            if key == "backend" {
                if value.is_none() {
                    continue;
                }
                let name = value.cast::<PyString>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "{func}(): backend must be a str or None, not '{}'",
                        type_name(&value)
                    ))
                })?;
                let name = name.to_str()?;
                options.builder = options
                    .builder
                    .backend(name)
                    .map_err(|err| PyValueError::new_err(err.to_string()))?;
                continue;
            }
            let on = value
                .cast::<PyBool>()
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "{func}(): {key} must be True or False, not '{}'",
                        type_name(&value)
                    ))
                })?
                .is_true();
            let b = options.builder;
            match key.as_str() {
                "safe_hash" => options.builder = b.safe_hash(on),
                "detect_collisions" => options.builder = b.detect_collisions(on),
                "reduced_round" => options.builder = b.reduced_round(on),
                "use_filter" => options.builder = b.use_filter(on),
                _ => options.parallel = on,
            }
        }
        Ok(options)
    }
}

/// The name of `obj`'s type, for error messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}
