#!/usr/bin/env bash
# Sets up what is missing and runs every test: formatting and lints, the
# freshness of the generated tables, the native suite (once per x86-64
# backend), aarch64 and s390x under QEMU, the wasm build in Node and headless
# Chromium, the JS wrapper and the packed tarball, and the checker page in
# Chromium.
#   scripts/test.sh            everything
#   scripts/test.sh native     one stage: native | cross | wasm | browser
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export CARGO_TERM_COLOR=never
rustflags_unset

passed=0

native() {
  scripts/setup.sh native
  say "cargo fmt --check"
  cargo fmt --check
  say "generated tables match tools/derive_conditions.py (--check)"
  pip_module pycosat
  python3 tools/derive_conditions.py --check
  say "cargo clippy; the core builds without std"
  cargo clippy --all-targets -- -D warnings
  cargo rustc --quiet --lib --no-default-features --crate-type rlib -- -D warnings
  say "cargo test (native, automatic backend)"
  cargo test
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
[ ${#stages[@]} -gt 0 ] || stages=(native cross wasm browser)
for s in "${stages[@]}"; do
  case "$s" in
    native | cross | wasm | browser) "$s" ;;
    *) echo "usage: $0 [native|cross|wasm|browser]..." >&2; exit 2 ;;
  esac
done
say "all stages green"
echo "stages: ${passed} passed, 0 failed"
