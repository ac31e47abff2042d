#!/usr/bin/env bash
# Builds bench-wasm/engine for wasm32 with simd128 (engine.mjs loads it).
set -euo pipefail
cd "$(dirname "$0")"
RUSTFLAGS="-C target-feature=+simd128" cargo build --quiet --release --target wasm32-unknown-unknown
