#!/usr/bin/env bash
# Git on this library, on git's own workload. Builds the git source tree
# GIT_SOURCE_DIR three ways:
#   stock  git's own copy of the C sha1dc (the default build);
#   ours   DC_SHA1_EXTERNAL=1 against this library, installed by
#          scripts/install-c.sh into $WORK/prefix;
#   plain  OPENSSL_SHA1=1: OpenSSL's SHA-1, no collision detection;
# runs git's tests that hash with ours (and git's hash unit tests), then,
# given PACK, times `git index-pack -o OUT.idx PACK` with --threads=1 and
# with all threads, in interleaved rounds: stock, ours, plain, and "crate":
# ours with the sha1dc crate behind the same C ABI (capi/bench's shim,
# loaded in place of the library). Every build must write the same index.
# Prints user and wall time per run and the medians, with ratios.
#   scripts/git-with-sha1dc.sh GIT_SOURCE_DIR [PACK]
# Environment:
#   WORK=DIR      builds and results (default /tmp/git-with-sha1dc); a build
#                 is reused while its make line is unchanged
#   ROUNDS=N      timing rounds (default 3)
#   THREADS=N     the all-threads runs' --threads (default: nproc)
#   TESTS="..."   git's tests to run (default: the list below); SKIP_TESTS=1;
#                 GIT_TEST_LONG=1 runs their expensive cases too (t1007
#                 hashes files over 4 GiB)
#   JOBS=N        make -j (default: nproc)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

path_arg "$@"
src=$(cd "$1" && pwd)
pack=${2:+$(cd "$(dirname "$2")" && pwd)/$(basename "$2")}
work=${WORK:-/tmp/git-with-sha1dc}
rounds=${ROUNDS:-3}
threads=${THREADS:-$(nproc)}
jobs=${JOBS:-$(nproc)}
tests=${TESTS:-"t0013-sha1dc.sh t1007-hash-object.sh t1450-fsck.sh t1451-fsck-buffer.sh
  t5300-pack-object.sh t5302-pack-index.sh t5303-pack-corruption-resilience.sh
  t5308-pack-detect-duplicates.sh t5313-pack-bounds-checks.sh t5351-unpack-large-objects.sh
  t1050-large.sh t1006-cat-file.sh"}
mkdir -p "$work"
prefix=$work/prefix

say "this library into $prefix, the sha1dc crate shim into $work/shim"
scripts/install-c.sh "$prefix" >/dev/null
cargo build --quiet --release -p sha1dc-wasm-capi-bench
mkdir -p "$work/shim"
cp "${CARGO_TARGET_DIR:-target}/release/libsha1dc_crate_shim.so" "$work/shim/libsha1detectcoll.so.1"

# `build NAME MAKE-ARGS...`: GIT_SOURCE_DIR copied to $work/NAME and built,
# unless a build with the same make line is there.
common=(NO_RUST=1 NO_CURL=1 NO_GETTEXT=1 NO_TCLTK=1 NO_PYTHON=1)
build() {
  local name=$1 dir=$work/$1
  shift
  local line="make -j$jobs ${common[*]} $* all"
  if [ -x "$dir/git" ] && [ "$(cat "$dir/.make-line" 2>/dev/null)" = "$line" ]; then
    echo "$name: reused ($dir)"
    return
  fi
  say "build $name: $line"
  rm -rf "$dir"
  cp -a "$src" "$dir"
  (cd "$dir" && make -j"$jobs" "${common[@]}" "$@" all >build.log 2>&1) ||
    { tail -n 30 "$dir/build.log" >&2; exit 1; }
  echo "$line" >"$dir/.make-line"
}
build stock CFLAGS=-O2
build plain CFLAGS=-O2 OPENSSL_SHA1=1
# RUNPATH (new dtags), not RPATH: LD_LIBRARY_PATH can put the shim first.
build ours DC_SHA1_EXTERNAL=1 "CFLAGS=-O2 -I$prefix/include" \
  "LDFLAGS=-L$prefix/lib -Wl,--enable-new-dtags,-rpath,$prefix/lib"
ldd "$work/ours/git" | grep "$prefix/lib/libsha1detectcoll.so.1" >/dev/null ||
  { echo "ours does not load $prefix/lib/libsha1detectcoll.so.1" >&2; exit 1; }
LD_LIBRARY_PATH="$work/shim" ldd "$work/ours/git" | grep "$work/shim/libsha1detectcoll.so.1" >/dev/null ||
  { echo "LD_LIBRARY_PATH does not put the shim first" >&2; exit 1; }

if [ -z "${SKIP_TESTS:-}" ]; then
  say "git's tests with ours"
  failed=()
  for t in $tests; do
    if (cd "$work/ours/t" && sh "$t" >"$work/$t.log" 2>&1); then
      echo "ok      $t ($(grep -c '^ok ' "$work/$t.log") ok, of which $(grep -c '^ok .*# skip' "$work/$t.log") skipped;" \
        "$(grep -c '^not ok .*# TODO' "$work/$t.log") known breakages)"
    else
      echo "FAILED  $t (see $work/$t.log)"
      failed+=("$t")
    fi
  done
  if (cd "$work/ours" && t/unit-tests/bin/unit-tests --run=hash >"$work/unit-hash.log" 2>&1); then
    echo "ok      unit-tests --run=hash ($(grep -c '^ok ' "$work/unit-hash.log") ok)"
  else
    echo "FAILED  unit-tests --run=hash (see $work/unit-hash.log)"
    failed+=(unit-tests)
  fi
  [ ${#failed[@]} -eq 0 ] || { echo "failed: ${failed[*]}" >&2; exit 1; }
fi

[ -n "$pack" ] || exit 0
say "git index-pack on $pack: $rounds interleaved rounds"
lscpu | sed -n 's/^Model name: *//p'
uptime
echo "each run: /usr/bin/time BUILD/git index-pack --threads=N -o $work/out/pack.idx $pack"
echo "(from $work/out, outside any repository; crate: ours with LD_LIBRARY_PATH=$work/shim)"
out=$work/out
results=$work/times.tsv
printf 'round\tbuild\tthreads\tuser_s\tsys_s\twall_s\n' >"$results"
# `timed NAME THREADS`: one index-pack, its times appended to $results.
timed() {
  local name=$1 n=$2 bin=$work/$1/git env=()
  case "$name" in
    crate) bin=$work/ours/git; env=(LD_LIBRARY_PATH="$work/shim") ;;
  esac
  rm -rf "$out" && mkdir -p "$out"
  (cd "$out" && env "${env[@]}" /usr/bin/time -f '%U %S %e' -o "$out/time" \
    "$bin" index-pack --threads="$n" -o "$out/pack.idx" "$pack" >/dev/null)
  local idx
  idx=$(sha1sum <"$out/pack.idx" | cut -d' ' -f1)
  if [ -z "${reference_idx:-}" ]; then
    reference_idx=$idx
  elif [ "$idx" != "$reference_idx" ]; then
    echo "$name --threads=$n wrote a different index" >&2
    exit 1
  fi
  read -r user sys wall <"$out/time"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$n" "$user" "$sys" "$wall" | tee -a "$results"
}
for round in $(seq 1 "$rounds"); do
  for n in 1 "$threads"; do
    for name in stock ours crate plain; do
      timed "$name" "$n"
    done
  done
done
rm -rf "$out"

say "medians of $rounds rounds (user and wall seconds)"
python3 - "$results" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = {}
for (b, t) in {(r["build"], r["threads"]) for r in rows}:
    sel = [r for r in rows if r["build"] == b and r["threads"] == t]
    med[b, t] = tuple(statistics.median(float(r[k]) for r in sel) for k in ("user_s", "wall_s"))
for t in sorted({t for _, t in med}, key=int):
    print(f"--threads={t}")
    for b in ("stock", "ours", "crate", "plain"):
        u, w = med[b, t]
        print(f"  {b:<6} user {u:7.1f} s  wall {w:7.1f} s   stock/this user {med['stock', t][0] / u:4.2f}x"
              f"   this/plain user {u / med['plain', t][0]:4.2f}x")
EOF
