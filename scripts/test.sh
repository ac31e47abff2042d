#!/usr/bin/env bash
# Sets up what is missing and runs every test: formatting and lints, the
# freshness of the generated tables, the native suite (once per x86-64
# backend), cargo package and publish --dry-run, the fuzz targets' build,
# the library and the C library with Rust 1.63 (the declared rust-version),
# the C library (installed, then its C tests), the Python package (built with
# pip, then its pytest suite), aarch64 and s390x under QEMU,
# the wasm build in Node and headless Chromium, the JS wrapper and the packed
# tarball, and the checker page in Chromium.
#   scripts/test.sh            everything
#   scripts/test.sh native     one stage: native | msrv | c | python | cross | wasm | browser
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export CARGO_TERM_COLOR=never
rustflags_unset

passed=0

native() {
  scripts/setup.sh native
  say "cargo fmt --check"
  cargo fmt --check
  say "no import cycle between modules (the Rust crates, the npm package, the page)"
  scripts/check-modules.sh
  say "generated tables match tools/derive_conditions.py (--check)"
  pip_module pycosat
  python3 tools/derive_conditions.py --check
  say "cargo clippy (library, sha1dcsum, gitverify and git-sha1dc, tests; the wasm32 bindings); the core builds without std"
  cargo clippy --all-targets -- -D warnings
  rust_target wasm32-unknown-unknown
  cargo clippy --package sha1dc-wasm-bindings --package sha1dc-wasm-cli-bindings --package sha1dc-wasm-git-bindings --target wasm32-unknown-unknown -- -D warnings
  cargo rustc --quiet -p sha1dc-wasm --lib --no-default-features --crate-type rlib -- -D warnings
  cargo rustc --quiet -p sha1dc-wasm --lib --no-default-features --features digest --crate-type rlib -- -D warnings
  say "cargo test (native, automatic backend: the library, sha1dcsum, gitverify and git-sha1dc)"
  cargo test
  say "cargo package (the library, sha1dcsum) and cargo publish --dry-run (the library)"
  # --allow-dirty: other work in progress in the tree must not stop the check.
  # Both at once: sha1dcsum's is verified against the library's package.
  cargo package --quiet --allow-dirty --package sha1dc-wasm --package sha1dcsum
  cargo publish --quiet --dry-run --allow-dirty --package sha1dc-wasm
  say "the fuzz targets build (run them with scripts/fuzz.sh or cargo +nightly fuzz run checkfile|pack)"
  cargo check --quiet --manifest-path fuzz/Cargo.toml --bins
  passed=$((passed + 1))
}

# What the C tests need besides Rust (tests/c/run.sh).
c_tools() {
  scripts/setup.sh native
  command -v pkg-config >/dev/null || apt_install pkg-config
  command -v g++ >/dev/null || apt_install g++
}

msrv() {
  say "the library and the C library with the oldest Rust they support (scripts/msrv.sh)"
  c_tools
  scripts/msrv.sh
  passed=$((passed + 1))
}

c() {
  say "the C library: installed, then its C tests (tests/c/run.sh)"
  c_tools
  tests/c/run.sh
  passed=$((passed + 1))
}

python_package() {
  say "the Python package: built with pip from the checkout, then pytest (scripts/test-python.sh)"
  scripts/test-python.sh
  passed=$((passed + 1))
}

cross() {
  say "backends one by one, and aarch64 / s390x under QEMU"
  scripts/cross-test.sh
  passed=$((passed + 1))
}

wasm() {
  say "wasm: Node, headless Chromium, JS wrapper, npm tarball"
  scripts/test-wasm.sh
  passed=$((passed + 1))
}

browser() {
  say "the checker page in headless Chromium"
  scripts/test-browser.sh
  passed=$((passed + 1))
}

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(native msrv c python cross wasm browser)
for s in "${stages[@]}"; do
  case "$s" in
    native | msrv | c | cross | wasm | browser) "$s" ;;
    python) python_package ;;
    *) echo "usage: $0 [native|msrv|c|python|cross|wasm|browser]..." >&2; exit 2 ;;
  esac
done
say "all stages green"
echo "stages: ${passed} passed, 0 failed"
