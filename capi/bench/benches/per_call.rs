//! What a C caller pays per message: `SHA1DCInit` + `SHA1DCUpdate` +
//! `SHA1DCFinal` through the C ABI of libsha1detectcoll.so as it ships
//! (loaded with `dlopen`, called through function pointers, as from a C
//! program), against the Rust `Hasher` (`new` + `update` + `finalize`) and
//! the `sha1dc` crate's `Hasher`, at 64 B (git's small objects), 300 B and
//! 1 KiB; then plain SHA-1 through the C ABI (`SHA1DC_OPT_NO_DETECT_COLL`)
//! against the `sha1` crate at 16 KiB; then 1 MiB after a collision (the
//! first SHAttered prefix) against 1 MiB after a clean prefix, where C
//! callers, who cannot read the plain SHA-1, should pay nothing for it.
//! Interleaved rounds of about 10 ms;
//! the minimum of each (the round least disturbed by other work on a shared
//! machine); ratios against the C ABI.
//!   cargo bench -p sha1dc-wasm-capi-bench --bench per_call [-- ROUNDS]
//! It builds the C library first (`cargo build --release` in capi/, its own
//! workspace), or takes the one that SHA1DC_CAPI_LIB names. With
//! SHA1DC_CAPI_BASELINE naming another build of it (a copy of an earlier
//! libsha1detectcoll.so), that one's Init+Update+Final runs as well,
//! interleaved: before and after a change in the same rounds.

use std::ffi::CString;
use std::hint::black_box;
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_int, c_uint};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use sha1::Digest as _;

/// What the library's benchmarks share (the CPU they ran on).
#[path = "../../../benches/common/mod.rs"]
mod common;

/// Room for a `SHA1_CTX` (2,400 bytes, aligned 8, on x86-64 and aarch64).
type Sha1Ctx = [u64; 300];

type Init = unsafe extern "C" fn(*mut Sha1Ctx);
type InitWith = unsafe extern "C" fn(*mut Sha1Ctx, c_uint) -> c_int;
type SetSafeHash = unsafe extern "C" fn(*mut Sha1Ctx, c_int);
type Update = unsafe extern "C" fn(*mut Sha1Ctx, *const c_char, usize);
type Final = unsafe extern "C" fn(*mut u8, *mut Sha1Ctx) -> c_int;

/// The calls of the C library that the benchmark makes.
#[derive(Clone, Copy)]
struct CLibrary {
    init: Init,
    init_with: InitWith,
    set_safe_hash: SetSafeHash,
    update: Update,
    finish: Final,
}

/// The shared library: SHA1DC_CAPI_LIB, or capi/'s release build, built
/// now so that it is the current source's.
fn library_path() -> PathBuf {
    if let Some(path) = std::env::var_os("SHA1DC_CAPI_LIB") {
        return path.into();
    }
    let capi = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "--release",
            "--locked",
            "--manifest-path",
        ])
        .arg(capi.join("Cargo.toml"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the C library (capi/) failed");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| capi.join("target"), PathBuf::from);
    target.join("release/libsha1detectcoll.so")
}

/// `dlopen`s the C library and looks its calls up.
fn load(path: &Path) -> CLibrary {
    let name = CString::new(path.to_str().expect("a UTF-8 path")).unwrap();
    // SAFETY: a NUL-terminated path; the library runs no initialiser of
    // its own.
    let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    assert!(!handle.is_null(), "dlopen {} failed", path.display());
    // SAFETY: each name is a function of that type in <sha1dc/sha1.h> or
    // <sha1dc/sha1dc_ext.h>; the handle is never closed.
    unsafe {
        CLibrary {
            init: function(handle, "SHA1DCInit"),
            init_with: function(handle, "SHA1DCInitWithOptions"),
            set_safe_hash: function(handle, "SHA1DCSetSafeHash"),
            update: function(handle, "SHA1DCUpdate"),
            finish: function(handle, "SHA1DCFinal"),
        }
    }
}

/// The function `name` of the library `handle`.
///
/// # Safety
/// `F` is the type of a function pointer to it.
unsafe fn function<F: Copy>(handle: *mut libc::c_void, name: &str) -> F {
    let c_name = CString::new(name).unwrap();
    // SAFETY: a live handle and a NUL-terminated name.
    let address = unsafe { libc::dlsym(handle, c_name.as_ptr()) };
    assert!(!address.is_null(), "the C library has no {name}");
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of_val(&address));
    // SAFETY: a function pointer of type F, as the caller promised.
    unsafe { std::mem::transmute_copy(&address) }
}

/// Hashes a message, returning a byte of the digest.
type Run = Box<dyn Fn(&[u8]) -> u8>;

struct Contender {
    name: &'static str,
    run: Run,
}

/// The C ABI: `git`, git's calls (safe hash off); `options`, the
/// extension's init with options (None: SHA1DCInit alone).
fn c_abi(lib: CLibrary, git: bool, options: Option<c_uint>) -> Run {
    let CLibrary {
        init,
        init_with,
        set_safe_hash,
        update,
        finish,
    } = black_box(lib);
    Box::new(move |msg| {
        let mut ctx = MaybeUninit::<Sha1Ctx>::uninit();
        let mut out = [0u8; 20];
        // SAFETY: a writable context, `msg.len()` bytes, 20 bytes out.
        unsafe {
            match options {
                Some(o) => {
                    init_with(ctx.as_mut_ptr(), o);
                }
                None => init(ctx.as_mut_ptr()),
            }
            if git {
                set_safe_hash(ctx.as_mut_ptr(), 0);
            }
            update(ctx.as_mut_ptr(), msg.as_ptr().cast(), msg.len());
            finish(out.as_mut_ptr(), ctx.as_mut_ptr());
        }
        out[0]
    })
}

fn contenders(lib: CLibrary) -> Vec<Contender> {
    vec![
        Contender {
            name: "C ABI: Init+Update+Final",
            run: c_abi(lib, false, None),
        },
        Contender {
            name: "C ABI: git's (safe hash off)",
            run: c_abi(lib, true, None),
        },
        Contender {
            name: "Rust Hasher",
            run: Box::new(|msg| {
                let mut h = sha1dc_wasm::Hasher::new();
                h.update(msg);
                h.finalize().digest().as_bytes()[0]
            }),
        },
        Contender {
            name: "sha1dc crate Hasher",
            run: Box::new(|msg| {
                let mut h = sha1dc::Hasher::new();
                h.update(msg);
                let d: [u8; 20] = h.finalize().expect("no collision").into();
                d[0]
            }),
        },
    ]
}

/// The least nanoseconds per message of each contender over `rounds`
/// interleaved rounds of about 10 ms each.
fn measure(contenders: &[Contender], msg: &[u8], rounds: usize) -> Vec<f64> {
    let iters = (10_000_000 / (msg.len() + 200)).max(100);
    let mut times = vec![Vec::new(); contenders.len()];
    for _ in 0..rounds {
        for (c, t) in contenders.iter().zip(&mut times) {
            let start = Instant::now();
            let mut acc = 0u8;
            for _ in 0..iters {
                acc ^= (c.run)(black_box(msg));
            }
            black_box(acc);
            t.push(start.elapsed().as_nanos() as f64 / iters as f64);
        }
    }
    times
        .into_iter()
        .map(|t| t.into_iter().fold(f64::INFINITY, f64::min))
        .collect()
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(31);
    let path = library_path();
    let lib = load(&path);
    println!("CPU: {}", common::cpu());
    println!("C library: {}", path.display());
    let backend = sha1dc_wasm::Hasher::new().backend();
    println!(
        "per-call cost, best of {rounds} interleaved rounds (backend {backend}; Hasher {} bytes)",
        std::mem::size_of::<sha1dc_wasm::Hasher>()
    );
    println!("ratio: speed against the C ABI's Init+Update+Final (>1: faster)");
    let mut all = contenders(lib);
    if let Some(baseline) = std::env::var_os("SHA1DC_CAPI_BASELINE") {
        let path = PathBuf::from(baseline);
        println!("baseline C library: {}", path.display());
        all.insert(
            1,
            Contender {
                name: "C ABI, baseline library",
                run: c_abi(load(&path), false, None),
            },
        );
    }
    for len in [64usize, 300, 1024] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 131 + 7) as u8).collect();
        let ns = measure(&all, &msg, rounds);
        println!("\n{len} B");
        for (c, t) in all.iter().zip(&ns) {
            println!("  {:<30} {:>8.1} ns   {:.2}x", c.name, t, ns[0] / t);
        }
    }

    let plain = [
        Contender {
            name: "C ABI, SHA1DC_OPT_NO_DETECT_COLL",
            run: c_abi(lib, false, Some(4)),
        },
        Contender {
            name: "sha1 crate (no detection)",
            run: Box::new(|msg| sha1::Sha1::digest(msg)[0]),
        },
        Contender {
            name: "C ABI, detection (default)",
            run: c_abi(lib, false, None),
        },
    ];
    let msg: Vec<u8> = (0..16384usize).map(|i| (i * 131 + 7) as u8).collect();
    let ns = measure(&plain, &msg, rounds);
    println!("\n16 KiB, plain SHA-1");
    for (c, t) in plain.iter().zip(&ns) {
        let gbs = msg.len() as f64 / t;
        println!("  {:<34} {:>6.2} GB/s   {:.2}x", c.name, gbs, ns[0] / t);
    }

    let tail: Vec<u8> = (0..1usize << 20).map(|i| (i * 131 + 7) as u8).collect();
    let flagged = [
        &include_bytes!("../../../tests/data/shattered-1.prefix320.bin")[..],
        &tail,
    ]
    .concat();
    let clean = [&[0u8; 320][..], &tail].concat();
    let (on_clean, on_flagged) = (c_abi(lib, false, None), c_abi(lib, false, None));
    let after = [
        Contender {
            name: "C ABI, a clean 1 MiB",
            run: Box::new(move |_| on_clean(&clean)),
        },
        Contender {
            name: "C ABI, 1 MiB after a collision",
            run: Box::new(move |_| on_flagged(&flagged)),
        },
    ];
    let ns = measure(&after, &tail, rounds);
    println!("\n1 MiB after a 320-byte prefix, clean or SHAttered's (safe hash on)");
    for (c, t) in after.iter().zip(&ns) {
        let gbs = tail.len() as f64 / t;
        println!("  {:<34} {:>6.2} GB/s   {:.2}x", c.name, gbs, ns[0] / t);
    }
}
