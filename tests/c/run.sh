#!/usr/bin/env bash
# The C library's tests (scripts/test.sh c): installs the library into a
# temporary PREFIX with scripts/install-c.sh, then compiles the programs of
# tests/c against the INSTALLED headers and library (pkg-config) and runs
# them linked dynamically, linked statically, and once under AddressSanitizer
# and UBSan; checks the headers as C90 and C++, the exported symbols and the
# soname; then the same programs built for aarch64 and big-endian s390x, run
# under QEMU (scripts/setup.sh cross installs what that needs).  Also the
# Rust side: clippy, fmt, the crate's unit tests, and the oracle of the
# differential test (tests/c/oracle.rs).
#   tests/c/run.sh [SEED]      (the differential test's seed; default: random)
#   tests/c/run.sh --installed PREFIX [SEED]
# With --installed, the C tests only, of the library already installed in
# PREFIX (built by another compiler: scripts/msrv.sh), on this machine.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

installed= cross=
if [ "${1:-}" = --installed ]; then
  [ -f "${2:-}/lib/pkgconfig/sha1detectcoll.pc" ] || { usage >&2; exit 2; }
  installed=$(cd "$2" && pwd)
  shift 2
fi
seed=${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$installed" ]; then
  say "capi: cargo fmt, clippy, unit tests"
  cargo fmt --check -p sha1dc-wasm-capi -p sha1dc-wasm-capi-bench
  cargo clippy --quiet -p sha1dc-wasm-capi -p sha1dc-wasm-capi-bench --all-targets -- -D warnings
  cargo test --quiet -p sha1dc-wasm-capi --lib
  scripts/install-c.sh "$work/prefix"
  installed=$work/prefix
  cross=1
fi
export PKG_CONFIG_PATH="$installed/lib/pkgconfig"
libdir=$(pkg-config --variable=libdir sha1detectcoll)
cflags=$(pkg-config --cflags sha1detectcoll)
dynamic="$(pkg-config --libs sha1detectcoll) -Wl,-rpath,$libdir"
# The archive by name, and what it needs (Libs.private).
static=$(pkg-config --static --libs sha1detectcoll | sed 's/-lsha1detectcoll/-l:libsha1detectcoll.a/')

say "exported symbols and soname"
expected="SHA1DCFinal SHA1DCHash SHA1DCHashMany SHA1DCInit SHA1DCInitWithOptions SHA1DCSetCallback SHA1DCSetDetectReducedRoundCollision SHA1DCSetSafeHash SHA1DCSetUseDetectColl SHA1DCSetUseUBC SHA1DCUpdate"
exported=$(nm -D --defined-only "$libdir/libsha1detectcoll.so.1.0.0" | awk '{print $3}' | sort | xargs)
if [ "$exported" != "$expected" ]; then
  echo "exported: $exported" >&2
  echo "expected: $expected" >&2
  exit 1
fi
readelf -d "$libdir/libsha1detectcoll.so.1.0.0" | grep 'SONAME.*\[libsha1detectcoll\.so\.1\]' >/dev/null
[ "$(readlink "$libdir/libsha1detectcoll.so.1")" = libsha1detectcoll.so.1.0.0 ]
echo "11 symbols, soname libsha1detectcoll.so.1"

say "the headers as C90 (-pedantic -Werror) and C++"
# shellcheck disable=SC2086 # the flags are lists
gcc -std=c90 -pedantic -Werror -Wall -Wextra $cflags -o "$work/h90" tests/c/header_c90.c $dynamic
# shellcheck disable=SC2086
g++ -std=c++11 -pedantic -Werror -Wall -Wextra $cflags -o "$work/hxx" tests/c/header_cxx.cpp $dynamic
"$work/h90"
"$work/hxx"
echo "ok"

say "the README's C example"
awk '/^## C \(libsha1detectcoll\)/ { c = 1 } c && /^```c$/ { p = 1; next } p && /^```$/ { exit } p' \
  README.md >"$work/example.c"
# shellcheck disable=SC2086
gcc -Wall -Werror -o "$work/example" "$work/example.c" $cflags $dynamic
status=0
line=$("$work/example" tests/data/shattered-1.pdf) || status=$?
[ "$line $status" = "16e96b70000dd1e7c85b8368ee197754400e58ec *coll* tests/data/shattered-1.pdf 3" ] ||
  { echo "the example printed: $line (status $status)" >&2; exit 1; }
echo "$line"

say "the differential test's oracle (seed $seed)"
cargo run --quiet --release -p sha1dc-wasm-capi --example c-oracle -- "$seed" 300 tests/data >"$work/oracle.txt"
mkdir "$work/ctrl"
python3 tests/data/gen_controls.py "$work/ctrl" >/dev/null

# Compiles the three test programs as $work/NAME-$1 with the flags after it.
build() {
  local kind=$1 t
  shift
  for t in kat differential api; do
    # shellcheck disable=SC2086
    gcc -std=c99 -O2 -g -Wall -Wextra -Werror -Wno-unused-function -pthread $cflags \
      -o "$work/$t-$kind" "tests/c/$t.c" "$@"
  done
}
run() {
  "$work/kat-$1" tests/data "$work/ctrl"
  "$work/differential-$1" "$work/oracle.txt" "$seed"
  "$work/api-$1" tests/data
}

say "linked dynamically"
# shellcheck disable=SC2086
build dynamic $dynamic
readelf -d "$work/api-dynamic" | grep 'NEEDED.*\[libsha1detectcoll\.so\.1\]' >/dev/null
run dynamic

say "linked statically"
# shellcheck disable=SC2086
build static $static
if readelf -d "$work/api-static" | grep libsha1detectcoll >/dev/null; then
  echo "the static build loads the shared library" >&2
  exit 1
fi
run static

say "AddressSanitizer and UBSan"
# shellcheck disable=SC2086
build asan -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $dynamic
SHA1DC_TEST_NO_BIG=1 run asan

# The same programs for other architectures (the library built here).
if [ -n "$cross" ]; then
  say "aarch64 and s390x (big-endian) under QEMU"
  scripts/setup.sh cross
  for target in aarch64-unknown-linux-gnu s390x-unknown-linux-gnu; do
    arch=${target%%-*}
    gnu=$arch-linux-gnu
    cargo build --quiet --release -p sha1dc-wasm-capi --target "$target"
    lib=$work/lib-$arch
    mkdir -p "$lib"
    cp "${CARGO_TARGET_DIR:-target}/$target/release/libsha1detectcoll.so" "$lib/libsha1detectcoll.so.1"
    ln -s libsha1detectcoll.so.1 "$lib/libsha1detectcoll.so"
    for t in kat differential api; do
      "$gnu-gcc" -std=c99 -O2 -Wall -Wextra -Werror -Wno-unused-function -pthread -Icapi/include \
        -o "$work/$t-$arch" "tests/c/$t.c" -L"$lib" -lsha1detectcoll
    done
    runner=(env LD_LIBRARY_PATH="$lib" "qemu-$arch" -L "/usr/$gnu")
    [ "$arch" != aarch64 ] || runner+=(-cpu max)
    echo "$target:"
    "${runner[@]}" "$work/kat-$arch" tests/data "$work/ctrl"
    "${runner[@]}" "$work/differential-$arch" "$work/oracle.txt" "$seed"
    SHA1DC_TEST_NO_BIG=1 "${runner[@]}" "$work/api-$arch" tests/data
  done
fi
