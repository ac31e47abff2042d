#!/usr/bin/env bash
# The library's own tests (`cargo test -p sha1dc-wasm`: its unit,
# integration and doc tests, not the other crates') on x86-64 once per
# backend this CPU runs (SHA1DC_BACKEND forces it for every hasher that does
# not name one), then for aarch64 (the
# ARMv8 SHA-1 and NEON backends really execute: `qemu-aarch64 -cpu max`, see
# .cargo/config.toml) and big-endian s390x under QEMU user mode. The other
# crates' tests run once, with the automatic backend (scripts/test.sh):
# they hash through the library, whose backends these runs cover.
#   scripts/cross-test.sh            all of it
#   scripts/cross-test.sh native     only the x86-64 backends one by one
#   scripts/cross-test.sh qemu       only aarch64 and s390x
# Under QEMU the heavier loops are scaled down: SHA1DC_TEST_LIGHT=1 for
# tests/backends.rs, SHA1DC_DIFF_MESSAGES for tests/differential.rs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export CARGO_TERM_COLOR=never
rustflags_unset

native() {
  local backends
  backends=$(cargo run -q --bin sha1dcsum -- --backends)
  for b in $backends; do
    say "cargo test -p sha1dc-wasm, SHA1DC_BACKEND=$b"
    SHA1DC_BACKEND=$b cargo test -q -p sha1dc-wasm
  done
}

qemu() {
  scripts/setup.sh cross
  export SHA1DC_TEST_LIGHT=1
  export SHA1DC_DIFF_MESSAGES="${SHA1DC_DIFF_MESSAGES:-3000}"
  for target in aarch64-unknown-linux-gnu s390x-unknown-linux-gnu; do
    say "cargo test --target $target (QEMU)"
    # tests/cli/ is left out: it spawns the sha1dcsum binary, which the
    # host cannot execute without binfmt_misc (the runner applies only to
    # the test binaries themselves); the CLI has no architecture-specific code.
    cargo test -q --target "$target" --lib --bins --test backends --test differential --test vectors --test many --test reporting --test halves --test parallel
  done
}

case "${1:-all}" in
  native) native ;;
  qemu) qemu ;;
  all) native; qemu ;;
  *) echo "usage: $0 [native|qemu|all]" >&2; exit 2 ;;
esac
say "cross tests green"
