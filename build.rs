//! The backends whose intrinsics came after the oldest compiler the library
//! supports (its rust-version) are built only by a compiler that has them,
//! so an old compiler still builds the library and a new one loses no
//! speed. No dependencies: the compiler's version from `$RUSTC --version`.
//!
//! - `sha1dc_avx512`: the AVX-512 vectors and backends (intrinsics and
//!   target features stable in Rust 1.89);
//! - `sha1dc_armv8`: the ARMv8 SHA-1 instructions (`vsha1*`, stable in 1.72).
//!
//! The tests check the choice against `SHA1DC_RUSTC_MINOR` (tests/backends.rs).

use std::env;
use std::process::Command;

/// Each cfg and the Rust minor version (1.x) that brought what it needs.
const GATES: [(&str, u32); 2] = [("sha1dc_avx512", 89), ("sha1dc_armv8", 72)];

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
    for (cfg, since) in GATES {
        // Declared where cargo knows the instruction (1.80; one colon, the
        // form every cargo reads): older ones warn about it, and their rustc
        // checks no cfg name anyway.
        if minor.map_or(false, |m| m >= 80) {
            println!("cargo:rustc-check-cfg=cfg({cfg})");
        }
        if minor.map_or(false, |m| m >= since) {
            println!("cargo:rustc-cfg={cfg}");
        }
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
