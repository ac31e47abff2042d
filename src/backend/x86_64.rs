//! The x86_64 backends, fastest first.
//!
//! SHA-NI compression with the AVX-512, AVX2 or SSE2 filter, then the
//! portable compressor with each filter (CPUs without SHA-NI). SSE2 is part
//! of x86-64, so the portable backend is only ever chosen when forced.
//!
//! The SHA-NI backends detect one block at a time (the per-block filter on
//! the schedule the rounds store: src/detect/x86_sha.rs), each block's
//! filter beside the rounds of the next where that is free.
//!
//! Two choices are by vendor ([`Vendor`], from CPUID), both measured faster
//! on Zen 5. On AMD the SHA-NI rounds expand the whole schedule with the SHA
//! message instructions ([`expansion`]). And on AMD the AVX-512 backend runs
//! the 8-lane filter beside the rounds, 256-bit code next to the legacy-SSE
//! SHA instructions (calls of up to three blocks behind the rounds, as
//! measured on Zen 4 too): on Zen 5 that mix measured free, and a Zen 4
//! probe found 256-bit work beside the SHA rounds cheap
//! (docs/performance.md). On Intel it leaves the upper state dirty and
//! costs several times the rounds, so there the filter beside the rounds
//! is 128-bit. The AVX2 backend's filter runs behind a call on every
//! vendor: it serves AMD CPUs before Zen 4, whose optimization guide
//! penalizes switching between SSE and AVX code with the upper state
//! dirty. Any other vendor gets the
//! arrangement measured on Intel; a CPU the table does not know gets its
//! vendor's.
//!
//! The AVX-512 backends exist in builds by a compiler that has the
//! intrinsics (`sha1dc_avx512`, set by build.rs).

use super::{Backend, Vendor};
use crate::compress::Compressor::{Portable, ShaNi};
use crate::compress::x86_sha::Expansion;
use crate::detect::PerBlock::{ShaNiAvx2Behind, ShaNiSse2};
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
        compressor_for: |v| crate::compress::Compressor::ShaNiAvx512(expansion(v)),
        simd: Simd::Avx512,
        per_block_for: Some(|v| match v {
            Vendor::Amd => crate::detect::PerBlock::ShaNiAvx512Lanes8(expansion(v)),
            Vendor::Other => crate::detect::PerBlock::ShaNiAvx512(expansion(v)),
        }),
    },
    Backend {
        name: "sha-ni+avx2",
        supported: || has_sha_ni::get() && has_avx2::get(),
        compressor_for: |v| ShaNi(expansion(v)),
        simd: Simd::Avx2,
        per_block_for: Some(|v| ShaNiAvx2Behind(expansion(v))),
    },
    Backend {
        name: "sha-ni+sse2",
        supported: has_sha_ni::get,
        compressor_for: |v| ShaNi(expansion(v)),
        simd: Simd::Sse2,
        per_block_for: Some(|v| ShaNiSse2(expansion(v))),
    },
    #[cfg(sha1dc_avx512)]
    Backend {
        name: "avx512",
        supported: has_avx512::get,
        compressor_for: |_| Portable,
        simd: Simd::Avx512,
        per_block_for: None,
    },
    Backend {
        name: "avx2",
        supported: has_avx2::get,
        compressor_for: |_| Portable,
        simd: Simd::Avx2,
        per_block_for: None,
    },
    Backend {
        name: "sse2",
        supported: || true,
        compressor_for: |_| Portable,
        simd: Simd::Sse2,
        per_block_for: None,
    },
];

/// How the SHA-NI rounds expand the schedule: on AMD with the SHA message
/// instructions throughout, single operations there (fewer instructions:
/// faster short messages, no slower long ones); elsewhere words 32..80 by
/// the rol-2 recurrence, as `sha1msg2` is microcoded on Sapphire Rapids.
fn expansion(vendor: Vendor) -> Expansion {
    match vendor {
        Vendor::Amd => Expansion::ShaMsg,
        Vendor::Other => Expansion::Rol2,
    }
}

/// This CPU's vendor (CPUID leaf 0), read once.
pub(super) fn vendor() -> Vendor {
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
    // 0: not read yet; 1: AMD; 2: another vendor.
    static VENDOR: AtomicU8 = AtomicU8::new(0);
    match VENDOR.load(Relaxed) {
        1 => Vendor::Amd,
        2 => Vendor::Other,
        _ => {
            // SAFETY: every x86-64 CPU has CPUID and its leaf 0.
            #[allow(unused_unsafe)]
            let id = unsafe { core::arch::x86_64::__cpuid(0) };
            // "AuthenticAMD" in EBX, EDX, ECX.
            let amd = (id.ebx, id.edx, id.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
            VENDOR.store(if amd { 1 } else { 2 }, Relaxed);
            if amd { Vendor::Amd } else { Vendor::Other }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vendor CPUID gives is the one Linux reports, and the SHA-NI
    /// backends' forms on this CPU are its vendor's.
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
        let want = if amd { Vendor::Amd } else { Vendor::Other };
        assert_eq!(vendor(), want);
        assert_eq!(vendor(), want, "read once, the same");
        let sha_msg = if amd {
            Expansion::ShaMsg
        } else {
            Expansion::Rol2
        };
        for backend in BACKENDS {
            assert_eq!(backend.compressor(), (backend.compressor_for)(want));
            assert_eq!(backend.per_block(), backend.per_block_for.map(|f| f(want)));
            match backend.compressor() {
                ShaNi(e) => assert_eq!(e, sha_msg, "{}", backend.name),
                #[cfg(sha1dc_avx512)]
                crate::compress::Compressor::ShaNiAvx512(e) => {
                    assert_eq!(e, sha_msg, "{}", backend.name)
                }
                _ => {}
            }
            // Only the AVX-512 backend on AMD filters beside the rounds with
            // 256-bit code.
            #[cfg(sha1dc_avx512)]
            {
                use crate::detect::PerBlock::ShaNiAvx512Lanes8;
                let lanes8 = matches!(backend.per_block(), Some(ShaNiAvx512Lanes8(_)));
                assert_eq!(
                    lanes8,
                    amd && backend.name == "sha-ni+avx512",
                    "{}",
                    backend.name
                );
            }
        }
    }
}
