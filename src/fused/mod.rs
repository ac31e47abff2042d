//! Compression and filtering in one pass: the filter of the next group of
//! blocks runs between the rounds of this group, in the execution ports a
//! latency-bound hardware compressor leaves idle. Its own module, so that
//! `compress` and `filter` stay independent of each other.

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_sha;
