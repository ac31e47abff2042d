#!/usr/bin/env bash
# Builds what bench.mjs measures: the package (../pkg, by
# scripts/build-pkg.sh), the peer crates in wasm (wasm-peers/pkg, and
# wasm-peers/pkg-web for chromium.mjs), hash-wasm and playwright-core
# (npm). Honours CARGO_TARGET_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/../scripts/build-pkg.sh"
if [ -n "${RUSTFLAGS:-}" ]; then
  export RUSTFLAGS="$RUSTFLAGS -C target-feature=+simd128"
fi
target="${CARGO_TARGET_DIR:-$here/wasm-peers/target}"
# Node's glue for bench.mjs, the web glue for chromium.mjs's page.
for glue in nodejs:pkg web:pkg-web; do
  (cd "$here/wasm-peers" &&
    CARGO_TARGET_DIR="$target/bench-peers" wasm-pack --quiet build --release --target "${glue%%:*}" --out-dir "${glue#*:}")
done
if [ ! -d "$here/node_modules/hash-wasm" ] || [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm install --silent --no-audit --no-fund)
fi
