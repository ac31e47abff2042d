#!/usr/bin/env bash
# Installs what the builds and tests need, skipping what is already there.
# Safe to run again; every other script calls the parts it needs.
#   scripts/setup.sh [native|cross|wasm|browser|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

apt_updated=
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "apt-get install ${missing[*]}"
  [ -n "$apt_updated" ] || { apt-get update -qq; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

rust_target() {
  rustup target list --installed | grep -qx "$1" || { say "rustup target add $1"; rustup target add "$1"; }
}

# The wasm-bindgen CLI must match the version pinned in Cargo.toml exactly.
wasm_bindgen_version() {
  sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml | head -n1
}

native() {
  rustup component list --installed | grep -q '^clippy' || rustup component add clippy rustfmt
}

cross() {
  rust_target aarch64-unknown-linux-gnu
  rust_target s390x-unknown-linux-gnu
  apt_install qemu-user gcc-aarch64-linux-gnu gcc-s390x-linux-gnu libc6-dev-arm64-cross libc6-dev-s390x-cross
}

wasm() {
  rust_target wasm32-unknown-unknown
  local v; v=$(wasm_bindgen_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$v" ]; then
    say "cargo install wasm-bindgen-cli $v (about 7 minutes)"
    cargo install wasm-bindgen-cli --version "$v" --force
  fi
  command -v wasm-pack >/dev/null || { say "cargo install wasm-pack (about 4 minutes)"; cargo install wasm-pack --locked; }
  command -v node >/dev/null || apt_install nodejs npm
}

browser() {
  [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || apt_install chromium chromium-driver
}

case "${1:-all}" in
  native) native ;;
  cross) cross ;;
  wasm) wasm ;;
  browser) browser ;;
  all) native; cross; wasm; browser ;;
  *) echo "usage: $0 [native|cross|wasm|browser|all]" >&2; exit 2 ;;
esac
