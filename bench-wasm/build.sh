#!/usr/bin/env bash
# Builds what bench.mjs measures: the package (../pkg, by
# scripts/build-pkg.sh), the peer crates in wasm (wasm-peers/pkg) and
# hash-wasm (npm). Honours CARGO_TARGET_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/../scripts/build-pkg.sh"
if [ -n "${RUSTFLAGS:-}" ]; then
  export RUSTFLAGS="$RUSTFLAGS -C target-feature=+simd128"
fi
target="${CARGO_TARGET_DIR:-$here/wasm-peers/target}"
(cd "$here/wasm-peers" &&
  CARGO_TARGET_DIR="$target/bench-peers" wasm-pack --quiet build --release --target nodejs --out-dir pkg)
if [ ! -d "$here/node_modules/hash-wasm" ]; then
  (cd "$here" && npm install --silent --no-audit --no-fund)
fi
