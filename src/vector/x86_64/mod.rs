//! [`Vector`](super::Vector) on x86-64: SSE2 (part of x86-64), AVX2, and
//! AVX-512 where the compiler has its intrinsics (`sha1dc_avx512`, set by
//! build.rs).

mod avx2;
#[cfg(sha1dc_avx512)]
#[clippy::msrv = "1.89"]
pub(crate) mod avx512;
mod sse2;
