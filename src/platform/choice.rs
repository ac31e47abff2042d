//! The choice of a platform: which backend, on which vendor's CPU.
//!
//! Each architecture lists its backends fastest first; a hasher takes the
//! first one the CPU supports, once, when it is built, unless
//! [`Builder::backend`](crate::Builder::backend) names another.
//!
//! The library never reads the environment: a program that depends on it
//! behaves the same whatever variables its users set. Only this crate's own
//! tests, built with the internal `__test-backend-env` feature (its
//! dev-dependency on itself turns it on), take `SHA1DC_BACKEND=NAME` as the
//! default backend, so the whole suite runs once per backend
//! (scripts/cross-test.sh); there a name that is unknown or unsupported on
//! this CPU panics rather than silently testing another backend. The
//! `sha1dcsum` command reads the variable itself and reports a bad name as a
//! usage error.

use core::fmt;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use super::Platform;

/// A backend: a name callers can force, and the platform it is on each
/// vendor's CPUs. Its platforms name instructions the CPU may lack: use
/// only a backend whose `supported` returned true (as `best` and `by_name`
/// guarantee).
pub(crate) struct Backend {
    /// Whether this CPU runs it.
    pub supported: fn() -> bool,
    /// Its platform on AMD's CPUs.
    pub amd: Platform,
    /// Its platform on every other vendor's.
    pub other: Platform,
}

/// The CPU vendors whose backends are tuned apart: the same instructions
/// arranged as each vendor's cores run them fastest (src/platform/x86_64.rs
/// says what differs, and why). Read once, from CPUID on x86-64; `Other`
/// on every other architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Vendor {
    /// AMD (only x86-64 tells it).
    Amd,
    /// Intel, and any vendor not measured apart.
    Other,
}

impl Vendor {
    /// Every vendor, for the tests that run each one's forms on any CPU.
    #[cfg(test)]
    pub(crate) const ALL: [Vendor; 2] = [Vendor::Amd, Vendor::Other];

    /// This CPU's.
    pub(crate) fn this_cpu() -> Vendor {
        super::arch::vendor()
    }
}

/// This architecture's own backends, fastest first (one file per architecture).
use super::arch::BACKENDS as ARCH;

/// Plain Rust, on every target; the last resort and the reference the
/// other backends are tested against.
static PORTABLE: Backend = Backend {
    supported: || true,
    amd: Platform::Portable,
    other: Platform::Portable,
};

impl Backend {
    /// The name callers use to force it.
    pub(crate) fn name(&self) -> &'static str {
        self.other.name()
    }

    /// Its platform on a CPU of `vendor`.
    pub(crate) fn on(&self, vendor: Vendor) -> Platform {
        match vendor {
            Vendor::Amd => self.amd,
            Vendor::Other => self.other,
        }
    }

    /// Every backend this build knows, fastest first; `portable` is last.
    pub(crate) fn all() -> impl Iterator<Item = &'static Backend> {
        ARCH.iter().chain(core::iter::once(&PORTABLE))
    }

    /// The platform of the fastest backend this CPU supports (in the
    /// crate's own tests, of the one `SHA1DC_BACKEND` names; see the module
    /// docs), decided once.
    pub(crate) fn best() -> Platform {
        #[cfg(feature = "__test-backend-env")]
        {
            // Read from the environment once.
            static READ: std::sync::Once = std::sync::Once::new();
            static CHOSEN: AtomicUsize = AtomicUsize::new(0);
            READ.call_once(|| {
                let chosen = match std::env::var("SHA1DC_BACKEND") {
                    Ok(name) if !name.is_empty() => Backend::by_name(&name)
                        .unwrap_or_else(|e| panic!("SHA1DC_BACKEND={name}: {e}")),
                    _ => Backend::fastest(),
                };
                let at = Backend::all().position(|b| b.name() == chosen.name());
                CHOSEN.store(at.unwrap_or(0), Relaxed);
            });
            Backend::all()
                .nth(CHOSEN.load(Relaxed))
                .unwrap_or(&PORTABLE)
                .on(Vendor::this_cpu())
        }
        #[cfg(not(feature = "__test-backend-env"))]
        Backend::fastest()
    }

    /// The platform of the first backend of the list this CPU supports,
    /// on this CPU's vendor, looked for once.
    pub(crate) fn fastest() -> Platform {
        // Its place in `Backend::all()` and the vendor, plus one (0: not
        // looked for yet): `2 * place + amd + 1`.
        static FOUND: AtomicUsize = AtomicUsize::new(0);
        let found = match FOUND.load(Relaxed) {
            0 => {
                let at = Backend::all().position(|b| (b.supported)());
                let at = at.expect("the portable backend is always supported");
                let amd = usize::from(Vendor::this_cpu() == Vendor::Amd);
                FOUND.store(2 * at + amd + 1, Relaxed);
                2 * at + amd
            }
            n => n - 1,
        };
        // `Backend::all()` is `ARCH` then `PORTABLE`: indexed, not walked.
        let backend = ARCH.get(found / 2).unwrap_or(&PORTABLE);
        if found % 2 == 1 {
            backend.amd
        } else {
            backend.other
        }
    }

    /// The backend called `name`, if it exists and this CPU supports it.
    pub(crate) fn named(name: &str) -> Result<&'static Backend, BackendError> {
        let backend = Backend::all()
            .find(|b| b.name() == name)
            .ok_or(BackendError::new(name, false))?;
        if (backend.supported)() {
            Ok(backend)
        } else {
            Err(BackendError::new(name, true))
        }
    }

    /// The platform of the backend called `name` on this CPU, if it exists
    /// and this CPU supports it.
    pub(crate) fn by_name(name: &str) -> Result<Platform, BackendError> {
        Ok(Backend::named(name)?.on(Vendor::this_cpu()))
    }
}

/// The names of the backends this CPU can run, fastest first.
///
/// ```
/// assert!(sha1dc_wasm::available_backends().any(|name| name == "portable"));
/// ```
pub fn available_backends() -> impl Iterator<Item = &'static str> {
    Backend::all()
        .filter(|b| (b.supported)())
        .map(Backend::name)
}

/// A backend was asked for by a name this build does not know, or one whose
/// instructions this CPU lacks. It names the name asked for and, shown, the
/// backends this CPU runs.
///
/// ```
/// let err = sha1dc_wasm::Hasher::builder().backend("sha3").unwrap_err();
/// assert_eq!(err.name(), "sha3");
/// assert!(!err.is_unsupported());
/// assert!(err.to_string().starts_with("no backend named \"sha3\"; this CPU runs: "));
/// assert!(err.to_string().ends_with("portable"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct BackendError {
    unsupported: bool,
    /// The name asked for, cut at a character boundary to fit (no heap).
    name: [u8; NAME_MAX],
    len: u8,
}

/// The longest name a [`BackendError`] keeps, in bytes.
const NAME_MAX: usize = 40;

impl BackendError {
    fn new(name: &str, unsupported: bool) -> Self {
        let mut len = name.len().min(NAME_MAX);
        while !name.is_char_boundary(len) {
            len -= 1;
        }
        let mut kept = [0u8; NAME_MAX];
        kept[..len].copy_from_slice(&name.as_bytes()[..len]);
        BackendError {
            unsupported,
            name: kept,
            len: len as u8,
        }
    }

    /// True when the backend exists but this CPU cannot run it.
    pub fn is_unsupported(&self) -> bool {
        self.unsupported
    }

    /// The name asked for (its first 40 bytes).
    pub fn name(&self) -> &str {
        core::str::from_utf8(&self.name[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl fmt::Debug for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BackendError")
            .field("name", &self.name())
            .field("unsupported", &self.unsupported)
            .finish()
    }
}

/// `no backend named "x"` or `this CPU lacks the instructions backend "x"
/// needs`, then the names this CPU runs.
impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unsupported {
            write!(
                f,
                "this CPU lacks the instructions backend {:?} needs",
                self.name()
            )?;
        } else {
            write!(f, "no backend named {:?}", self.name())?;
        }
        f.write_str("; this CPU runs: ")?;
        for (i, name) in available_backends().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::{IV, compress_expanded};

    /// Every backend this CPU runs compresses as the step function does,
    /// with each vendor's compressor (this CPU's and the others'), calls of
    /// zero to five blocks.
    #[test]
    fn every_compressor_for_every_vendor_compresses_as_the_steps() {
        let mut rng = crate::splitmix::SplitMix64(0xc0de);
        let mut blocks = [[0u8; 64]; 5];
        for round in 0..50 {
            for block in &mut blocks {
                rng.fill(block);
            }
            let n = round % 6;
            let mut want = IV;
            for block in &blocks[..n] {
                compress_expanded(&mut want, &crate::block::expand(block));
            }
            for backend in Backend::all().filter(|b| (b.supported)()) {
                for vendor in Vendor::ALL {
                    let mut got = IV;
                    backend.on(vendor).compress(&mut got, &blocks[..n]);
                    assert_eq!(got, want, "{} for {vendor:?}, {n} blocks", backend.name());
                }
            }
        }
    }
}
