//! File names and arguments as bytes, and back: what the checksum lines hold.

use std::ffi::{OsStr, OsString};

/// A name or an argument as the bytes the system gave: exactly those on
/// Unix; elsewhere the platform's own encoding (`as_encoded_bytes`, which
/// needs Rust 1.74 where Unix builds need 1.63).
pub fn os_bytes(s: &OsStr) -> &[u8] {
    #[cfg(unix)]
    {
        std::os::unix::ffi::OsStrExt::as_bytes(s)
    }
    #[cfg(not(unix))]
    {
        s.as_encoded_bytes()
    }
}

/// A name read from a checksum line, as a path: exactly those bytes on
/// Unix; elsewhere the name decoded as UTF-8, lossily.
pub fn os_name(name: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(name.to_vec())
    }
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(name).into_owned())
    }
}
