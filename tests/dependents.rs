//! The library as other crates use it: small crates in tests/dependents/
//! that depend on it by path, built with cargo for the host and for wasm32.
//!
//! - a `#![no_std]` library with `default-features = false` builds for
//!   x86-64 and wasm32 (the library has only the `rlib` crate type: a
//!   `cdylib` would need a panic handler of its own);
//! - a wasm32 module (cdylib) that hashes with the library exports its own
//!   functions only, none of the npm package's bindings, and the library
//!   pulls in no wasm-bindgen to clash with the module's own;
//! - a program run with `SHA1DC_BACKEND` set to any name ignores it: the
//!   library never reads the environment;
//! - a program with the `digest` feature and no `digest` dependency of its
//!   own boxes a hasher as a `DynDigest`, clones and finishes it (the boxed
//!   methods need digest's `alloc`, which the library's `std` turns on; in
//!   this crate's own tests another dependency turns it on anyway).
//!
//! The builds share target/dependents and run offline (the dependencies are
//! the library's own, already fetched for this workspace).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::skip::skip_or_fail;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// One cargo at a time in the shared target directory: cargo would wait on
/// its lock anyway, and the output stays readable.
static CARGO: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/dependents").join(name)
}

/// The fixtures are in the repository, not in the published package (cargo
/// leaves out directories that hold a Cargo.toml): there, skip.
fn have_fixtures() -> bool {
    let here = fixture("env-app").join("Cargo.toml").exists();
    if !here {
        skip_or_fail("tests/dependents/ is not in this copy (a published package)");
    }
    here
}

fn target_dir() -> PathBuf {
    root().join("target/dependents")
}

/// `cargo <args>` in `dir`, without the environment of the cargo running
/// this test (its RUSTFLAGS or features must not leak into the fixture).
fn cargo(dir: &Path, args: &[&str]) -> Output {
    let _one = CARGO.lock().unwrap_or_else(|e| e.into_inner());
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(args)
        .arg("--offline")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("SHA1DC_BACKEND");
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("CARGO_FEATURE_") {
            cmd.env_remove(key);
        }
    }
    cmd.output().expect("run cargo")
}

fn assert_success(what: &str, o: &Output) {
    assert!(
        o.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn wasm32_installed() -> bool {
    let sysroot = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc --print sysroot");
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_owned();
    Path::new(&sysroot)
        .join("lib/rustlib/wasm32-unknown-unknown")
        .exists()
}

/// Skips a wasm32 build when the target is missing; scripts/test.sh
/// installs it, so CI always runs them.
fn require_wasm32() -> bool {
    if !have_fixtures() {
        return false;
    }
    if wasm32_installed() {
        return true;
    }
    skip_or_fail(
        "the wasm32-unknown-unknown target is not installed: the wasm32 builds are not tested",
    );
    false
}

#[test]
fn no_std_library_builds_for_the_host() {
    if !have_fixtures() {
        return;
    }
    let o = cargo(&fixture("no-std-lib"), &["build", "--lib"]);
    assert_success("no_std library (host)", &o);
}

#[test]
fn no_std_library_builds_for_wasm32() {
    if !require_wasm32() {
        return;
    }
    let o = cargo(
        &fixture("no-std-lib"),
        &["build", "--lib", "--target", "wasm32-unknown-unknown"],
    );
    assert_success("no_std library (wasm32)", &o);
}

/// The names a wasm module exports (its export section).
fn wasm_exports(module: &[u8]) -> Vec<String> {
    fn uleb(bytes: &[u8], at: &mut usize) -> u64 {
        let (mut value, mut shift) = (0u64, 0);
        loop {
            let b = bytes[*at];
            *at += 1;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return value;
            }
            shift += 7;
        }
    }
    assert_eq!(&module[..8], b"\0asm\x01\0\0\0", "a wasm module");
    let mut at = 8;
    let mut names = Vec::new();
    while at < module.len() {
        let id = module[at];
        at += 1;
        let size = uleb(module, &mut at) as usize;
        let end = at + size;
        if id == 7 {
            let count = uleb(module, &mut at);
            for _ in 0..count {
                let len = uleb(module, &mut at) as usize;
                names.push(String::from_utf8_lossy(&module[at..at + len]).into_owned());
                at += len;
                at += 1; // kind
                uleb(module, &mut at); // index
            }
        }
        at = end;
    }
    names
}

#[test]
fn wasm_module_exports_only_its_own_functions() {
    if !require_wasm32() {
        return;
    }
    let o = cargo(
        &fixture("wasm-app"),
        &["build", "--lib", "--target", "wasm32-unknown-unknown"],
    );
    assert_success("wasm32 cdylib", &o);
    let module = target_dir().join("wasm32-unknown-unknown/debug/dependent_wasm_app.wasm");
    let exports = wasm_exports(&std::fs::read(&module).expect("the built module"));
    assert!(exports.iter().any(|e| e == "app_hash"), "{exports:?}");
    // The npm package's entry points and wasm-bindgen's own helpers.
    for name in &exports {
        let lower = name.to_ascii_lowercase();
        assert!(
            !(lower.contains("hash") && name != "app_hash"
                || lower.contains("rawhasher")
                || lower.contains("wbindgen")
                || lower.contains("backendname")
                || lower.contains("dvname")),
            "the module exports the bindings' {name}: {exports:?}"
        );
    }
}

/// The library's dependencies on wasm32: no wasm-bindgen, so a dependent
/// picks any wasm-bindgen version it likes.
#[test]
fn library_has_no_wasm_bindgen_dependency() {
    let o = cargo(
        &root(),
        &[
            "tree",
            "--package",
            "sha1dc-wasm",
            "--edges",
            "normal,build",
            "--target",
            "wasm32-unknown-unknown",
            "--all-features",
            "--prefix",
            "none",
        ],
    );
    assert_success("cargo tree", &o);
    let tree = String::from_utf8_lossy(&o.stdout);
    assert!(tree.starts_with("sha1dc-wasm v"), "{tree}");
    assert!(!tree.contains("wasm-bindgen"), "{tree}");
    assert!(!tree.contains("js-sys"), "{tree}");
}

#[test]
fn library_ignores_sha1dc_backend_in_a_program() {
    if !have_fixtures() {
        return;
    }
    let o = cargo(&fixture("env-app"), &["build"]);
    assert_success("env-app", &o);
    let bin = target_dir().join("debug/dependent-env-app");
    let fastest = sha1dc_wasm::available_backends().next().unwrap();
    for value in ["bogus", "portable", ""] {
        let o = Command::new(&bin)
            .env("SHA1DC_BACKEND", value)
            .output()
            .unwrap();
        assert_success(&format!("env-app with SHA1DC_BACKEND={value}"), &o);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            format!("{fastest} a9993e364706816aba3e25717850c26c9cd0d89d\n"),
            "SHA1DC_BACKEND={value}"
        );
    }
}

#[test]
fn dyn_digest_works_through_the_reexport() {
    if !have_fixtures() {
        return;
    }
    let o = cargo(&fixture("digest-app"), &["run", "--quiet"]);
    assert_success("digest-app", &o);
    let want = format!(
        "{} {}\n",
        sha1dc_wasm::hash(b"abc").digest(),
        sha1dc_wasm::hash(b"abx").digest()
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), want);
}
