#!/usr/bin/env bash
# Installs what the builds and tests need, skipping what is already there.
# Safe to run again; every other script calls the parts it needs.
#   scripts/setup.sh [native|cross|wasm|browser|all]   (default all)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

native() {
  rustup component list --installed | grep -q '^clippy' || rustup component add clippy rustfmt
  # sha1dcsum's tests (sha1dcsum/tests/cli/tools.rs) load the completions in
  # zsh and fish, render the man page with groff, compare with git and GNU
  # sha1sum, and as root read as nobody through setpriv: ignored where one is
  # missing, failing when CI is set.
  if can_apt; then apt_install zsh fish groff-base git coreutils util-linux; fi
}

cross() {
  rust_target aarch64-unknown-linux-gnu
  rust_target s390x-unknown-linux-gnu
  apt_install qemu-user gcc-aarch64-linux-gnu gcc-s390x-linux-gnu libc6-dev-arm64-cross libc6-dev-s390x-cross
}

wasm() {
  wasm_toolchain
  command -v node >/dev/null || apt_install nodejs npm
}

browser() {
  install_chromium
}

case "${1:-all}" in
  native) native ;;
  cross) cross ;;
  wasm) wasm ;;
  browser) browser ;;
  all) native; cross; wasm; browser ;;
  *) echo "usage: $0 [native|cross|wasm|browser|all]" >&2; exit 2 ;;
esac
