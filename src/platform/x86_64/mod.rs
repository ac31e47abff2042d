//! The x86_64 backends, fastest first, and the one `match` from each of
//! their platforms to its kernels (kernels.rs, and avx512.rs).
//!
//! SHA-NI compression with the AVX-512, AVX2 or SSE2 filter, then the
//! portable compressor with each filter (CPUs without SHA-NI). SSE2 is part
//! of x86-64, so the portable backend is only ever chosen when forced.
//!
//! The SHA-NI backends detect one block at a time (the per-block filter on
//! the schedule the rounds store: src/detect/x86_sha/), each block's
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

// The AVX-512 platforms, in builds by a compiler that has the intrinsics;
// an empty enum in the others.
#[cfg_attr(sha1dc_avx512, path = "avx512.rs")]
#[cfg_attr(not(sha1dc_avx512), path = "../none.rs")]
mod avx512;

mod kernels;

use super::choice::{Backend, Vendor};
use super::{Ahead, Arch, OnKernels};
use crate::compress::x86_sha::{Expansion, Rol2, ShaMsg};
use crate::vector::OnVectors;

cpufeatures::new!(has_sha_ni, "sha", "sse2", "ssse3", "sse4.1");
cpufeatures::new!(has_avx2, "avx2");

/// The x86-64 platforms.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    /// Plain Rust rounds, the filter ahead on SSE2.
    Sse2,
    /// Plain Rust rounds, the filter ahead on AVX2.
    Avx2,
    /// SHA-NI rounds, the 4-lane SSE2 filter of each block beside the
    /// rounds of the next; the filter ahead (batch) on SSE2. Only with
    /// the rol-2 expansion: every AMD CPU with SHA-NI has AVX2, so only
    /// Intel's and other vendors' (Atoms) run it unforced.
    ShaNiSse2,
    /// SHA-NI rounds, the 8-lane AVX2 filter behind a call (its
    /// `vzeroupper` on return keeps the SHA instructions clean).
    ShaNiAvx2(Expansion),
    /// The AVX-512 platforms (avx512.rs; none without the intrinsics).
    #[cfg_attr(not(sha1dc_avx512), allow(dead_code))]
    Avx512(avx512::Platform),
}

/// An x86-64 platform as the platform a hasher holds.
const fn x86(p: Platform) -> super::Platform {
    super::Platform::Arch(p)
}

pub(super) static BACKENDS: &[Backend] = &[
    #[cfg(sha1dc_avx512)]
    avx512::SHA_NI,
    Backend {
        supported: || has_sha_ni::get() && has_avx2::get(),
        amd: x86(Platform::ShaNiAvx2(expansion(Vendor::Amd))),
        other: x86(Platform::ShaNiAvx2(expansion(Vendor::Other))),
    },
    Backend {
        supported: has_sha_ni::get,
        amd: x86(Platform::ShaNiSse2),
        other: x86(Platform::ShaNiSse2),
    },
    #[cfg(sha1dc_avx512)]
    avx512::LANES,
    Backend {
        supported: has_avx2::get,
        amd: x86(Platform::Avx2),
        other: x86(Platform::Avx2),
    },
    Backend {
        supported: || true,
        amd: x86(Platform::Sse2),
        other: x86(Platform::Sse2),
    },
];

impl Arch for Platform {
    #[inline(always)]
    fn run_on_kernels<W: OnKernels>(self, work: W) -> W::Output {
        use kernels::{Avx2, Avx2Behind, ShaNiKernels, Sse2, Sse2Beside};
        // SAFETY (every arm): the backend table made this value for a CPU
        // with the kernels' instructions.
        match self {
            Platform::Sse2 => unsafe { work.run::<Ahead<Sse2>>() },
            Platform::Avx2 => unsafe { work.run::<Ahead<Avx2>>() },
            Platform::ShaNiSse2 => unsafe { work.run::<ShaNiKernels<Rol2, Sse2Beside>>() },
            Platform::ShaNiAvx2(Expansion::ShaMsg) => unsafe {
                work.run::<ShaNiKernels<ShaMsg, Avx2Behind>>()
            },
            Platform::ShaNiAvx2(Expansion::Rol2) => unsafe {
                work.run::<ShaNiKernels<Rol2, Avx2Behind>>()
            },
            Platform::Avx512(p) => p.run_on_kernels(work),
        }
    }

    /// SSE2, which every x86-64 CPU has (as simd128 in wasm32/): the
    /// `u64` forms of the filter and the batch took a tenth of the C
    /// library, for a backend only a caller naming it runs.
    fn run_portable<W: OnVectors>(work: W) -> W::Output {
        kernels::run_sse2(work)
    }
}

/// How the SHA-NI rounds expand the schedule: on AMD with the SHA message
/// instructions throughout, single operations there (fewer instructions:
/// faster short messages, no slower long ones); elsewhere words 32..80 by
/// the rol-2 recurrence, as `sha1msg2` is microcoded on Sapphire Rapids.
const fn expansion(vendor: Vendor) -> Expansion {
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
        // This CPU's platform of each backend is its vendor's.
        let this = Backend::all().map(|b| b.on(Vendor::this_cpu()));
        assert!(this.eq(Backend::all().map(|b| b.on(want))));
        for backend in BACKENDS {
            let platform = backend.on(want);
            let name = backend.name();
            assert_eq!(platform.name(), name);
            let arch = match platform {
                super::super::Platform::Arch(p) => p,
                super::super::Platform::Portable => continue,
            };
            match arch {
                Platform::ShaNiAvx2(e) => assert_eq!(e, sha_msg, "{name}"),
                Platform::ShaNiSse2 => {}
                Platform::Avx512(_) => {}
                Platform::Sse2 | Platform::Avx2 => {}
            }
        }
    }
}
