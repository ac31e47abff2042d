#!/usr/bin/env bash
# The C library's tests (scripts/test.sh c): installs the library as a
# package build would (scripts/install-c.sh with DESTDIR, a lib64 libdir and
# split debug info), checks the staged files (the .pc names the final
# prefix, the debug link), then compiles the programs of tests/c against the
# INSTALLED headers and library (pkg-config, its sysroot the stage) and runs
# them linked dynamically, linked with -static, and once under
# AddressSanitizer and UBSan; checks the headers as C90 and C++ (the C++
# program linked with -static too), the exported symbols (the reference's
# and the documented extensions), the archive (one object binutils reads,
# no LLVM bitcode, the same globals), the soname, what the .so takes from libc
# (nothing newer than GLIBC_2.14, no unwinder); then --uninstall leaves
# nothing; then the same programs built for aarch64 and big-endian s390x,
# run under QEMU (scripts/setup.sh cross installs what that needs).  Also
# the Rust side: fmt, clippy, the crate's unit tests, and the oracle of the
# differential test (tests/c/oracle.rs).
#   tests/c/run.sh [SEED]      (the differential test's seed; default: random)
#   tests/c/run.sh --installed PREFIX [SEED]
# With --installed, the C tests only, of the library already installed in
# PREFIX (libdir PREFIX/lib; built by another compiler: scripts/msrv.sh),
# on this machine.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

installed= cross=
# Relative to here, not to capi/, where cargo also runs.
[ -z "${CARGO_TARGET_DIR:-}" ] || export CARGO_TARGET_DIR=$(realpath -m "$CARGO_TARGET_DIR")
if [ "${1:-}" = --installed ]; then
  [ -f "${2:-}/lib/pkgconfig/sha1detectcoll.pc" ] || { usage >&2; exit 2; }
  installed=$(cd "$2" && pwd)
  shift 2
fi
seed=${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The staged install's final prefix and libdir (not on this machine).
final_prefix=/opt/sha1dc-test final_libdir=/opt/sha1dc-test/lib64
stage=$work/stage
if [ -z "$installed" ]; then
  say "capi: cargo fmt, clippy, unit tests (its own workspace); bench's fmt and clippy"
  (
    cd capi
    cargo fmt --check
    cargo clippy --quiet --locked --all-targets -- -D warnings
    cargo test --quiet --locked
  )
  cargo fmt --check -p sha1dc-wasm-capi-bench
  cargo clippy --quiet -p sha1dc-wasm-capi-bench --all-targets -- -D warnings
  DESTDIR=$stage scripts/install-c.sh --prefix="$final_prefix" --libdir=lib64 --split-debug
  pc=$stage$final_libdir/pkgconfig/sha1detectcoll.pc
  say "the staged install: the .pc names the final prefix, the debug info is split off"
  grep -qx "prefix=$final_prefix" "$pc" && grep -qx 'libdir=${prefix}/lib64' "$pc" &&
    grep -qx 'includedir=${prefix}/include' "$pc" ||
    { echo "the .pc does not name $final_prefix and its lib64:" >&2; cat "$pc" >&2; exit 1; }
  ! grep -q "$stage" "$pc" || { echo "the .pc names the stage $stage" >&2; exit 1; }
  so=$stage$final_libdir/libsha1detectcoll.so.1.0.0
  readelf -S "$so" | grep '\.gnu_debuglink' >/dev/null && ! readelf -S "$so" | grep '\.symtab' >/dev/null &&
    readelf -S "$stage$final_libdir/.debug/libsha1detectcoll.so.1.0.0.debug" | grep '\.debug_info' >/dev/null ||
    { echo "the .so is not stripped with its debug info beside it" >&2; exit 1; }
  echo "ok: $(sed -n 's/^prefix=//p' "$pc"), libdir $(sed -n 's/^libdir=//p' "$pc"); .debug/ linked"
  export PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_PATH=$stage$final_libdir/pkgconfig
  cross=1
else
  export PKG_CONFIG_PATH=$installed/lib/pkgconfig
fi
# From its -L, which every pkg-config puts the sysroot before.
libdir=$(pkg-config --libs-only-L sha1detectcoll | sed 's/^ *-L//; s/ *$//')
cflags=$(pkg-config --cflags sha1detectcoll)
dynamic="$(pkg-config --libs sha1detectcoll) -Wl,-rpath,$libdir"
# Exactly the flags pkg-config gives for a static link.
static="-static $(pkg-config --static --libs sha1detectcoll)"

say "exported symbols, soname, what the .so needs"
# The reference's shared library's, then the extensions of <sha1dc/sha1dc_ext.h>.
reference="SHA1DCFinal SHA1DCInit SHA1DCSetCallback SHA1DCSetDetectReducedRoundCollision SHA1DCSetSafeHash SHA1DCSetUseDetectColl SHA1DCSetUseUBC SHA1DCUpdate sha1_compression_states sha1_dvs ubc_check"
extensions="SHA1DCHash SHA1DCHashMany SHA1DCInitWithOptions"
so=$libdir/libsha1detectcoll.so.1.0.0
expected=$(echo $reference $extensions | tr ' ' '\n' | sort | xargs)
exported=$(nm -D --defined-only "$so" | awk '{print $3}' | sort | xargs)
if [ "$exported" != "$expected" ]; then
  echo "exported: $exported" >&2
  echo "expected: $expected" >&2
  exit 1
fi
readelf -d "$so" | grep 'SONAME.*\[libsha1detectcoll\.so\.1\]' >/dev/null
[ "$(readlink "$libdir/libsha1detectcoll.so.1")" = libsha1detectcoll.so.1.0.0 ]
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | xargs)
[ "$needed" = libc.so.6 ] || { echo "the .so needs $needed, not libc.so.6 alone" >&2; exit 1; }
# No glibc symbol newer than 2.14 (memcpy's), no unwinder, no personality.
newest=$(objdump -T "$so" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n1)
[ "$(printf '%s\n' "$newest" GLIBC_2.14 | sort -V | tail -n1)" = GLIBC_2.14 ] ||
  { echo "the .so needs $newest" >&2; exit 1; }
if nm -D "$so" | grep -E '_Unwind_|personality' || readelf -S "$so" | grep gcc_except_table >/dev/null; then
  echo "the .so links unwinding" >&2
  exit 1
fi
echo "$(echo "$exported" | wc -w) symbols, soname libsha1detectcoll.so.1, needs libc.so.6 up to $newest"

say "the archive: one object that binutils reads, no LLVM bitcode, the same globals"
archive=$libdir/libsha1detectcoll.a
members=$(ar t "$archive" | xargs)
[ "$members" = sha1detectcoll.o ] || { echo "the archive's members: $members" >&2; exit 1; }
# binutils' nm: it fails on an object with LLVM bitcode it cannot read.
globals=$(nm --defined-only --extern-only "$archive" | awk 'NF == 3 {print $3}' | sort | xargs)
[ "$globals" = "$expected" ] || { echo "the archive's globals: $globals" >&2; exit 1; }
# What it takes from the C library: what the .so takes (abort, memcpy and
# memset on x86-64), no more.
undefined=$(nm --undefined-only "$archive" | awk 'NF == 2 {print $2}' | sort | xargs)
so_undefined=$(nm -D --undefined-only "$so" | awk '$1 == "U" {sub(/@.*/, "", $2); print $2}' | sort | xargs)
[ "$undefined" = "$so_undefined" ] ||
  { echo "the archive needs: $undefined; the .so: $so_undefined" >&2; exit 1; }
if readelf -SW "$archive" | grep -E '\.llvm(bc|cmd)' >/dev/null; then
  echo "the archive carries LLVM bitcode" >&2
  exit 1
fi
objdump -d "$archive" >"$work/archive.s"
grep '<SHA1DCUpdate>:' "$work/archive.s" >/dev/null || { echo "objdump does not read the archive" >&2; exit 1; }
echo "ok: $members; $(echo "$globals" | wc -w) globals; needs $undefined"

say "the headers as C90 (-pedantic -Werror) and C++, the C++ program also with -static"
# shellcheck disable=SC2086 # the flags are lists
gcc -std=c90 -pedantic -Werror -Wall -Wextra $cflags -o "$work/h90" tests/c/header_c90.c $dynamic
# Not position-independent: the program's copy of sha1_dvs (a copy
# relocation) has the size of the library's, as with the reference.
# shellcheck disable=SC2086
g++ -std=c++11 -pedantic -Werror -Wall -Wextra -no-pie $cflags -o "$work/hxx" tests/c/header_cxx.cpp $dynamic
if [ "$(uname -m)" = x86_64 ]; then
  readelf -rW "$work/hxx" | grep 'R_X86_64_COPY .* sha1_dvs' >/dev/null ||
    { echo "the C++ program has no copy of sha1_dvs" >&2; exit 1; }
fi
# shellcheck disable=SC2086
g++ -std=c++11 -Wall -Wextra -Werror $cflags -o "$work/hxx-static" tests/c/header_cxx.cpp $static
"$work/h90"
"$work/hxx"
"$work/hxx-static"
echo "ok"

say "capi/README.md's C example"
awk '/^## Use$/ { c = 1 } c && /^```c$/ { p = 1; next } p && /^```$/ { exit } p' \
  capi/README.md >"$work/example.c"
[ -s "$work/example.c" ] || { echo "no C example under capi/README.md's Use" >&2; exit 1; }
# shellcheck disable=SC2086
gcc -Wall -Werror -o "$work/example" "$work/example.c" $cflags $dynamic
status=0
line=$("$work/example" tests/data/shattered-1.pdf) || status=$?
[ "$line $status" = "16e96b70000dd1e7c85b8368ee197754400e58ec *coll* tests/data/shattered-1.pdf 3" ] ||
  { echo "the example printed: $line (status $status)" >&2; exit 1; }
echo "$line"

say "the differential test's oracle (seed $seed)"
cargo run --quiet --release -p sha1dc-wasm-capi-bench --example c-oracle -- "$seed" 300 tests/data >"$work/oracle.txt"
mkdir "$work/ctrl"
python3 tests/data/gen_controls.py "$work/ctrl" >/dev/null

# Compiles the test programs as $work/NAME-$1 with the flags after it.
programs=(kat differential api internals)
build() {
  local kind=$1 t
  shift
  for t in "${programs[@]}"; do
    # shellcheck disable=SC2086
    gcc -std=c99 -O2 -g -Wall -Wextra -Werror -Wno-unused-function -pthread $cflags \
      -o "$work/$t-$kind" "tests/c/$t.c" "$@"
  done
}
run() {
  "$work/kat-$1" tests/data "$work/ctrl"
  "$work/differential-$1" "$work/oracle.txt" "$seed"
  "$work/api-$1" tests/data
  "$work/internals-$1" tests/data "$work/ctrl"
}

say "linked dynamically"
# shellcheck disable=SC2086
build dynamic $dynamic
readelf -d "$work/api-dynamic" | grep 'NEEDED.*\[libsha1detectcoll\.so\.1\]' >/dev/null
run dynamic

say "linked with -static and the flags of pkg-config --static"
# shellcheck disable=SC2086
build static $static
if readelf -d "$work/api-static" 2>/dev/null | grep NEEDED >/dev/null; then
  echo "the -static build loads shared libraries" >&2
  exit 1
fi
run static

say "AddressSanitizer and UBSan"
# shellcheck disable=SC2086
build asan -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $dynamic
SHA1DC_TEST_NO_BIG=1 run asan

# The staged install, uninstalled with the same arguments.
if [ -n "$cross" ]; then
  say "uninstall with the same arguments"
  DESTDIR=$stage scripts/install-c.sh --prefix="$final_prefix" --libdir=lib64 --split-debug --uninstall >/dev/null
  left=$(find "$stage$final_prefix" -mindepth 1)
  [ -z "$left" ] || { echo "uninstall left: $left" >&2; exit 1; }
  echo "ok: nothing left under the stage's $final_prefix"
fi

# The same programs for other architectures (the library built here).
if [ -n "$cross" ]; then
  say "aarch64 and s390x (big-endian) under QEMU"
  scripts/setup.sh cross
  for target in aarch64-unknown-linux-gnu s390x-unknown-linux-gnu; do
    arch=${target%%-*}
    gnu=$arch-linux-gnu
    (cd capi && cargo build --quiet --release --locked --target "$target")
    lib=$work/lib-$arch
    mkdir -p "$lib"
    cp "${CARGO_TARGET_DIR:-capi/target}/$target/release/libsha1detectcoll.so" "$lib/libsha1detectcoll.so.1"
    ln -s libsha1detectcoll.so.1 "$lib/libsha1detectcoll.so"
    for t in "${programs[@]}"; do
      "$gnu-gcc" -std=c99 -O2 -Wall -Wextra -Werror -Wno-unused-function -pthread -Icapi/include \
        -o "$work/$t-$arch" "tests/c/$t.c" -L"$lib" -lsha1detectcoll
    done
    runner=(env LD_LIBRARY_PATH="$lib" "qemu-$arch" -L "/usr/$gnu")
    [ "$arch" != aarch64 ] || runner+=(-cpu max)
    echo "$target:"
    "${runner[@]}" "$work/kat-$arch" tests/data "$work/ctrl"
    "${runner[@]}" "$work/differential-$arch" "$work/oracle.txt" "$seed"
    SHA1DC_TEST_NO_BIG=1 "${runner[@]}" "$work/api-$arch" tests/data
    "${runner[@]}" "$work/internals-$arch" tests/data "$work/ctrl"
  done
fi
