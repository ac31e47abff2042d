#!/usr/bin/env bash
# Times sha1dcsum on many files against GNU sha1sum and OpenSSL, and against
# itself with the batch of small files turned off (SHA1DCSUM_BATCH=0: every
# file on the streaming path), on one thread and on two:
#
#   scripts/bench-sha1dcsum.sh [ROUNDS] [SET...]   (default 5; all sets)
#
# Sets, written once to target/bench-sha1dcsum/ (pseudo-random bytes from a
# fixed seed, read from the page cache after a warm-up run):
#   git    20,000 files of git-like sizes (log-normal, median 6 KiB, a few
#          past 256 KiB; about 190 MiB)
#   small  10,000 files of 0 to 8 KiB (40 MiB)
#   large  4 files of 128 MiB
#   one    1 file of 1 GiB (sha1dcsum -j 2 hashes it on two threads, -j 1 on one)
# Each command runs ROUNDS times, interleaved; the table gives the median
# wall time, the throughput, the CPU time (user + system, all processes),
# and each time over sha1dcsum's on as many threads (the CPU time is the
# steadier figure on a busy machine). sha1sum and openssl (one process per
# thread) get the list split by xargs -P for -j 2. The large set has no
# small file, so the batch changes nothing there. Builds the release binary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=${1:-5}
shift || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(git small large one)
cargo build --release --quiet --bin sha1dcsum
bin="${CARGO_TARGET_DIR:-$root/target}/release/sha1dcsum"
dir="${CARGO_TARGET_DIR:-$root/target}/bench-sha1dcsum"

if [ ! -f "$dir/.done" ]; then
  say "writing the small and large inputs to $dir (once)"
  rm -rf "$dir"
  mkdir -p "$dir/small" "$dir/large"
  python3 - "$dir" <<'PY'
import sys, random
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
PY
  touch "$dir/.done"
fi
if [ ! -f "$dir/git.done" ]; then
  say "writing the git-like inputs to $dir/git (once)"
  rm -rf "$dir/git"
  mkdir -p "$dir/git"
  python3 - "$dir" <<'PY'
import math, random, sys
d = sys.argv[1]
rng = random.Random(20261201)
for i in range(20000):
    n = int(rng.lognormvariate(math.log(6144), 1.0))
    with open(f"{d}/git/f{i:05}", "wb") as f:
        f.write(rng.randbytes(n))
PY
  touch "$dir/git.done"
fi

if [[ " ${sets[*]} " == *" one "* && ! -f "$dir/one.done" ]]; then
  say "writing the 1 GiB input to $dir/one (once)"
  rm -rf "$dir/one"
  mkdir -p "$dir/one"
  python3 - "$dir" <<'PY'
import random, sys
d = sys.argv[1]
rng = random.Random(20261202)
block = rng.randbytes(1 << 20)
with open(f"{d}/one/gig", "wb") as f:
    for j in range(1024):
        k = j * 4099 % len(block)
        f.write(block[k:] + block[:k])
PY
  touch "$dir/one.done"
fi

print_cpu
cd "$dir"

# The commands. Each gets the file list from the NUL-separated file $list
# through xargs (a bash function would spend milliseconds passing thousands
# of arguments on), all of it in one process, or half in each of two.
one() { xargs -0 -x -s 1000000 -n "$count" -a "$list" "$@"; }
two() { xargs -0 -x -s 1000000 -n $(((count + 1) / 2)) -P 2 -a "$list" "$@"; }
dc1() { one "$bin" -j 1; }
dc2() { one "$bin" -j 2; }
stream1() { SHA1DCSUM_BATCH=0 one "$bin" -j 1; }
stream2() { SHA1DCSUM_BATCH=0 one "$bin" -j 2; }
sha1sum1() { one sha1sum; }
sha1sum2() { two sha1sum; }
openssl1() { one openssl dgst -sha1; }
openssl2() { two openssl dgst -sha1; }

# name|function|the function it is compared with (same thread count)
commands=(
  "sha1dcsum -j 1|dc1|dc1"
  "sha1dcsum -j 1, batch off|stream1|dc1"
  "sha1sum|sha1sum1|dc1"
  "openssl dgst -sha1|openssl1|dc1"
  "sha1dcsum -j 2|dc2|dc2"
  "sha1dcsum -j 2, batch off|stream2|dc2"
  "sha1sum, xargs -P 2|sha1sum2|dc2"
  "openssl, xargs -P 2|openssl2|dc2"
)

# Median of the numbers given as arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# Runs a command, output discarded; the inputs have no collision, so any
# status but 0 is a failure.
quiet() { "$@" >/dev/null || { echo "failed: $*" >&2; exit 1; }; }

TIMEFORMAT='%3R %3U %3S'
timefile=$(mktemp)
list=$(mktemp)
trap 'rm -f "$timefile" "$list"' EXIT

# run_set LABEL FILE...
run_set() {
  local label=$1
  shift
  local total
  total=$(du -cb "$@" | tail -n1 | cut -f1)
  count=$#
  printf '%s\0' "$@" >"$list"
  local -A wall=() cpu=() wall_m=() cpu_m=()
  local c fn base r real user sys
  for c in "${commands[@]}"; do # warm-up
    fn=${c#*|}
    quiet "${fn%%|*}"
  done
  for ((r = 0; r < rounds; r++)); do
    for c in "${commands[@]}"; do
      fn=${c#*|}
      fn=${fn%%|*}
      { time quiet "$fn"; } 2>"$timefile"
      read -r real user sys <"$timefile"
      wall[$fn]+="$real "
      cpu[$fn]+="$(echo "$user + $sys" | bc) "
    done
  done
  for c in "${commands[@]}"; do
    fn=${c#*|}
    fn=${fn%%|*}
    # shellcheck disable=SC2086
    wall_m[$fn]=$(median ${wall[$fn]})
    # shellcheck disable=SC2086
    cpu_m[$fn]=$(median ${cpu[$fn]})
  done
  printf '\n%s (%s MiB), median of %s rounds:\n' "$label" "$((total >> 20))" "$rounds"
  printf '| %-26s | %6s | %6s | %11s | %6s | %11s |\n' command "wall s" "MiB/s" "x sha1dcsum" "CPU s" "x sha1dcsum"
  printf '|%s|%s|%s|%s|%s|%s|\n' "----------------------------" "--------" "--------" \
    "-------------" "--------" "-------------"
  for c in "${commands[@]}"; do
    fn=${c#*|}
    base=${fn#*|}
    fn=${fn%%|*}
    printf '| %-26s | %6.3f | %6.0f | %11.2f | %6.3f | %11.2f |\n' "${c%%|*}" "${wall_m[$fn]}" \
      "$(echo "$total / 1048576 / ${wall_m[$fn]}" | bc -l)" \
      "$(echo "${wall_m[$fn]} / ${wall_m[$base]}" | bc -l)" \
      "${cpu_m[$fn]}" "$(echo "${cpu_m[$fn]} / ${cpu_m[$base]}" | bc -l)"
  done
}

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $(nproc) CPUs; $("$bin" --version), backend $("$bin" --backends | head -n1)"
for set in "${sets[@]}"; do
  case $set in
    git) files=(git/*); label="20,000 files of git-like sizes" ;;
    small) files=(small/*); label="10,000 small files" ;;
    large) files=(large/*); label="4 large files" ;;
    one) files=(one/gig); label="1 file of 1 GiB" ;;
    *) echo "unknown set: $set (git, small, large or one)" >&2; exit 2 ;;
  esac
  run_set "$label" "${files[@]}"
done
