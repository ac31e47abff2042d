//! The backends whose intrinsics came after the oldest compiler the library
//! supports (its rust-version) are built only by a compiler that has them,
//! so an old compiler still builds the library and a new one loses no
//! speed. No dependencies: the compiler's version from `$RUSTC --version`.
//!
//! - `sha1dc_avx512`: the AVX-512 vectors and backends on x86-64
//!   (intrinsics and target features stable in Rust 1.89);
//! - `sha1dc_armv8`: the ARMv8 SHA-1 instructions on little-endian aarch64
//!   (`vsha1*`, stable in 1.72).
//!
//! Two more name a target's vectors once, so that the code says one word
//! where it would repeat a compound condition:
//! - `sha1dc_neon`: little-endian aarch64 (the vector code assumes
//!   little-endian lanes, so big-endian aarch64 runs portable);
//! - `sha1dc_simd128`: wasm32 built with `+simd128`.
//!
//! The tests check the choice against `SHA1DC_RUSTC_MINOR` (tests/backends.rs).

use std::env;
use std::process::Command;

/// Each cfg, the Rust minor version (1.x) that brought what it needs, and
/// the target it is for.
const GATES: [(&str, u32, Target); 2] = [
    ("sha1dc_avx512", 89, Target::X86_64),
    ("sha1dc_armv8", 72, Target::Neon),
];

/// The targets the cfgs are set for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    X86_64,
    /// Little-endian aarch64.
    Neon,
    /// wasm32 with simd128.
    Simd128,
    Other,
}

/// The target cargo builds for (its `CARGO_CFG_*` variables).
fn target() -> Target {
    let var = |name: &str| env::var(name).unwrap_or_default();
    match var("CARGO_CFG_TARGET_ARCH").as_str() {
        "x86_64" => Target::X86_64,
        "aarch64" if var("CARGO_CFG_TARGET_ENDIAN") == "little" => Target::Neon,
        "wasm32"
            if var("CARGO_CFG_TARGET_FEATURE")
                .split(',')
                .any(|f| f == "simd128") =>
        {
            Target::Simd128
        }
        _ => Target::Other,
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    let minor = rustc_minor();
    if let Some(m) = minor {
        println!("cargo:rustc-env=SHA1DC_RUSTC_MINOR={m}");
    } else {
        println!(
            "cargo:warning=unknown rustc version: building without the AVX-512 and ARMv8 SHA-1 backends"
        );
    }
    let target = target();
    let vectors = [
        ("sha1dc_neon", Target::Neon),
        ("sha1dc_simd128", Target::Simd128),
    ];
    for (cfg, since, on) in GATES {
        declare(minor, cfg);
        if minor.map_or(false, |m| m >= since) && target == on {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
    for (cfg, on) in vectors {
        declare(minor, cfg);
        if target == on {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
}

/// Declares `cfg` where cargo knows the instruction (1.80; one colon, the
/// form every cargo reads): older ones warn about it, and their rustc
/// checks no cfg name anyway.
fn declare(minor: Option<u32>, cfg: &str) {
    if minor.map_or(false, |m| m >= 80) {
        println!("cargo:rustc-check-cfg=cfg({cfg})");
    }
}

/// The minor version of the compiler cargo runs (`rustc 1.63.0 (...)`).
fn rustc_minor() -> Option<u32> {
    let rustc = env::var_os("RUSTC")?;
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let version = String::from_utf8(out.stdout).ok()?;
    let mut parts = version.strip_prefix("rustc 1.")?.split('.');
    parts.next()?.parse().ok()
}
