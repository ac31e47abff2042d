#!/usr/bin/env bash
# Differential fuzzing against sha1-checked (cargo-fuzz, nightly Rust).
# Usage: scripts/fuzz.sh [SECONDS]   (default 300)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
corpus=fuzz/corpus/differential
mkdir -p "$corpus"
# Seeds: each public collision behind a mode byte and two chunk-size bytes.
for f in shattered-1.prefix320.bin shattered-2.prefix320.bin sha-mbles-1.bin sha-mbles-2.bin sha1_reducedsha_coll.bin; do
  for mode in 00 01 02 03; do
    { printf "\x$mode\x3f\x40"; cat "tests/data/$f"; } > "$corpus/seed-$mode-$f"
  done
done
cargo +nightly fuzz run differential "$corpus" -- -max_total_time="${1:-300}" -max_len=4096
