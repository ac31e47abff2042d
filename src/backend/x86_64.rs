//! The x86_64 backends, fastest first.
//!
//! SHA-NI compression with the AVX-512, AVX2 or SSE2 filter, then the
//! portable compressor with each filter (CPUs without SHA-NI). SSE2 is part
//! of x86-64, so the portable backend is only ever chosen when forced.
//!
//! The SHA-NI backends detect one block at a time (the per-block filter on
//! the schedule the rounds store: src/detect/x86_sha.rs); with AVX-512 and
//! SSE2 each block's filter runs beside the rounds of the next, 128-bit,
//! and the AVX2 one behind a call: a wide filter never runs inside the
//! legacy-SSE SHA rounds (the dirty upper state).
//!
//! One choice is by vendor: on AMD the AVX-512 form's short calls take
//! the AVX2 filter behind the rounds ([`per_block`]).
//!
//! The AVX-512 backends exist in builds by a compiler that has the
//! intrinsics (`sha1dc_avx512`, set by build.rs).

use super::Backend;
use crate::compress::Compressor::{Portable, ShaNi};
use crate::detect::PerBlock::{self, ShaNiAvx2, ShaNiSse2};
use crate::vector::Simd;

cpufeatures::new!(has_sha_ni, "sha", "sse2", "ssse3", "sse4.1");
cpufeatures::new!(has_avx2, "avx2");
#[cfg(sha1dc_avx512)]
cpufeatures::new!(has_avx512, "avx512f", "avx512bw", "avx512vl");

pub(super) static BACKENDS: &[Backend] = &[
    #[cfg(sha1dc_avx512)]
    Backend {
        name: "sha-ni+avx512",
        supported: || has_sha_ni::get() && has_avx512::get(),
        compressor: crate::compress::Compressor::ShaNiAvx512,
        simd: Simd::Avx512,
        per_block_listed: Some(crate::detect::PerBlock::ShaNiAvx512 {
            short_calls_behind: false,
        }),
    },
    Backend {
        name: "sha-ni+avx2",
        supported: || has_sha_ni::get() && has_avx2::get(),
        compressor: ShaNi,
        simd: Simd::Avx2,
        per_block_listed: Some(ShaNiAvx2),
    },
    Backend {
        name: "sha-ni+sse2",
        supported: has_sha_ni::get,
        compressor: ShaNi,
        simd: Simd::Sse2,
        per_block_listed: Some(ShaNiSse2),
    },
    #[cfg(sha1dc_avx512)]
    Backend {
        name: "avx512",
        supported: has_avx512::get,
        compressor: Portable,
        simd: Simd::Avx512,
        per_block_listed: None,
    },
    Backend {
        name: "avx2",
        supported: has_avx2::get,
        compressor: Portable,
        simd: Simd::Avx2,
        per_block_listed: None,
    },
    Backend {
        name: "sse2",
        supported: || true,
        compressor: Portable,
        simd: Simd::Sse2,
        per_block_listed: None,
    },
];

/// `form` as this CPU runs it: on AMD, a short call of the AVX-512 form is
/// filtered behind the rounds, which measured faster there (Zen 4); not
/// elsewhere, where it was not measured and the Xeon's earlier figures had
/// the beside form ahead at 64 bytes.
pub(super) fn per_block(form: PerBlock) -> PerBlock {
    match form {
        #[cfg(sha1dc_avx512)]
        PerBlock::ShaNiAvx512 { .. } => PerBlock::ShaNiAvx512 {
            short_calls_behind: is_amd(),
        },
        other => other,
    }
}

/// Whether the CPU's vendor (CPUID leaf 0) is AMD, read once.
#[cfg(sha1dc_avx512)]
fn is_amd() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
    // 0: not read yet; 1: AMD; 2: another vendor.
    static VENDOR: AtomicU8 = AtomicU8::new(0);
    match VENDOR.load(Relaxed) {
        1 => true,
        2 => false,
        _ => {
            // SAFETY: every x86-64 CPU has CPUID and its leaf 0.
            #[allow(unused_unsafe)]
            let id = unsafe { core::arch::x86_64::__cpuid(0) };
            // "AuthenticAMD" in EBX, EDX, ECX.
            let amd = (id.ebx, id.edx, id.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
            VENDOR.store(if amd { 1 } else { 2 }, Relaxed);
            amd
        }
    }
}

#[cfg(all(test, sha1dc_avx512))]
mod tests {
    use super::*;

    /// The vendor CPUID gives is the one Linux reports, and the AVX-512
    /// form's short calls follow it.
    #[test]
    fn the_vendor_is_the_one_linux_reports() {
        let info = match std::fs::read_to_string("/proc/cpuinfo") {
            Ok(info) => info,
            Err(_) => {
                return crate::skip::skip_or_fail("no /proc/cpuinfo to compare the vendor with");
            }
        };
        let amd = info
            .lines()
            .any(|l| l.starts_with("vendor_id") && l.ends_with("AuthenticAMD"));
        assert_eq!(is_amd(), amd);
        assert_eq!(is_amd(), amd, "read once, the same");
        assert!(matches!(
            per_block(PerBlock::ShaNiAvx512 { short_calls_behind: !amd }),
            PerBlock::ShaNiAvx512 { short_calls_behind } if short_calls_behind == amd
        ));
    }
}
