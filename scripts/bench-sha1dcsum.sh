#!/usr/bin/env bash
# Times sha1dcsum on many files against GNU sha1sum and against itself on
# one thread (-j 1):
#
#   scripts/bench-sha1dcsum.sh [ROUNDS]     (default 5)
#
# Two sets, written once to target/bench-sha1dcsum/ (files of SplitMix-like
# pseudo-random bytes from a fixed seed, read from the page cache after a
# warm-up run): 10,000 small files (0 to 8 KiB, 40 MiB in all) and 4 large
# ones (128 MiB each). Each command runs ROUNDS times, interleaved; the
# table gives the median wall time and throughput. Builds the release binary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-5}
cargo build --release --quiet --bin sha1dcsum
bin="${CARGO_TARGET_DIR:-$root/target}/release/sha1dcsum"
dir="${CARGO_TARGET_DIR:-$root/target}/bench-sha1dcsum"

if [ ! -f "$dir/.done" ]; then
  say "writing the inputs to $dir (once)"
  rm -rf "$dir"
  mkdir -p "$dir/small" "$dir/large"
  python3 - "$dir" <<'EOF'
import os, random, sys
d = sys.argv[1]
rng = random.Random(20261130)
for i in range(10000):
    with open(f"{d}/small/f{i:05}", "wb") as f:
        f.write(rng.randbytes(rng.randrange(0, 8193)))
block = rng.randbytes(1 << 20)
for i in range(4):
    with open(f"{d}/large/big{i}", "wb") as f:
        for j in range(128):
            # A different MiB each time: rotate the block.
            k = (i * 128 + j) * 4099 % len(block)
            f.write(block[k:] + block[:k])
EOF
  touch "$dir/.done"
fi

cpus=$(nproc)
cd "$dir"
small=(small/*)
large=(large/*)
bytes() { du -cb "$@" | tail -n1 | cut -f1; }
small_bytes=$(bytes "${small[@]}")
large_bytes=$(bytes "${large[@]}")

# name|command, run with the file list appended.
commands=(
  "sha1sum|sha1sum"
  "sha1dcsum -j 1|$bin -j 1"
  "sha1dcsum -j $cpus (default)|$bin"
)

# Median of the times in seconds given as arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

run_set() {
  local label=$1 total=$2
  shift 2
  local -A times=()
  local c name cmd start end r
  for c in "${commands[@]}"; do ${c#*|} "$@" >/dev/null || [ $? = 3 ]; done # warm-up
  for ((r = 0; r < rounds; r++)); do
    for c in "${commands[@]}"; do
      name=${c%%|*}
      cmd=${c#*|}
      start=$(date +%s.%N)
      $cmd "$@" >/dev/null || [ $? = 3 ]
      end=$(date +%s.%N)
      times[$name]+="$(echo "$end - $start" | bc) "
    done
  done
  printf '\n%s (%s MiB), median of %s rounds:\n' "$label" "$((total >> 20))" "$rounds"
  printf '| %-28s | %8s | %9s |\n' command seconds "MiB/s"
  printf '|%s|%s|%s|\n' "------------------------------" "----------" "-----------"
  for c in "${commands[@]}"; do
    name=${c%%|*}
    # shellcheck disable=SC2086
    local m
    m=$(median ${times[$name]})
    printf '| %-28s | %8.3f | %9.0f |\n' "$name" "$m" "$(echo "$total / 1048576 / $m" | bc -l)"
  done
}

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $cpus CPUs; $("$bin" --version)"
run_set "10,000 small files" "$small_bytes" "${small[@]}"
run_set "4 large files" "$large_bytes" "${large[@]}"
