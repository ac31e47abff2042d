#!/usr/bin/env bash
# The binary drop-in check: programs compiled against the REFERENCE's header
# (sha1collisiondetection, unpacked at REFERENCE_DIR: lib/sha1.h, lib/*.c,
# src/main.c, test/) and linked against its own libsha1detectcoll.so.1 run
# unchanged with this library's in its place (LD_LIBRARY_PATH):
#  - the reference's sha1dcsum and sha1dcsum_partialcoll (its src/main.c) on
#    the known answers of its Makefile's `test` target and on every file of
#    its test/ and of tests/data, output compared line by line;
#  - tests/c/dropin.c: every file in the 16 combinations of the setters,
#    random chunkings and memcpy clones, output compared;
#  - the symbols: this library's are the reference's and the extensions of
#    <sha1dc/sha1dc_ext.h>, nothing else;
#  - the reference's sha1dcsum linked statically against this library (with
#    -static and the flags of pkg-config --static; with libc shared, also
#    with -Wl,--gc-sections) on the known answers, its size against the same
#    link of the reference's own library (the sizes capi/README.md quotes).
#   scripts/c-dropin.sh REFERENCE_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"

path_arg "$@"
ref=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scripts/install-c.sh "$work/ours" >/dev/null

say "the reference's library, and its programs linked against it"
mkdir -p "$work/ref"
gcc -O2 -fPIC -shared -Wl,-soname,libsha1detectcoll.so.1 -o "$work/ref/libsha1detectcoll.so.1" \
  "$ref/lib/sha1.c" "$ref/lib/ubc_check.c"
ln -s libsha1detectcoll.so.1 "$work/ref/libsha1detectcoll.so"
mkdir -p "$work/bin"
gcc -O2 -I"$ref/lib" -o "$work/bin/sha1dcsum" "$ref/src/main.c" -L"$work/ref" -lsha1detectcoll
cp "$work/bin/sha1dcsum" "$work/bin/sha1dcsum_partialcoll"
# <sha1dc/sha1.h> is the reference's header here.
mkdir -p "$work/inc/sha1dc"
cp "$ref/lib/sha1.h" "$work/inc/sha1dc/"
gcc -O2 -std=c99 -I"$work/inc" -o "$work/bin/dropin" tests/c/dropin.c -L"$work/ref" -lsha1detectcoll
for b in sha1dcsum dropin; do
  readelf -d "$work/bin/$b" | grep 'NEEDED.*\[libsha1detectcoll\.so\.1\]' >/dev/null
done
echo "ok: they need libsha1detectcoll.so.1"

# `run LIBDIR`: everything, with the library in LIBDIR.
run() {
  local lib=$1 f
  export LD_LIBRARY_PATH=$lib
  (cd "$ref" && for f in test/*; do "$work/bin/sha1dcsum" "$f"; "$work/bin/sha1dcsum_partialcoll" "$f"; done)
  for f in tests/data/*.bin tests/data/*.pdf; do "$work/bin/sha1dcsum" "$f"; done
  "$work/bin/dropin" "$ref"/test/* tests/data/*.bin
}
say "the reference's known answers (its Makefile's test target) with this library"
export LD_LIBRARY_PATH=$work/ours/lib
sum() { (cd "$ref" && "$work/bin/$1" "$2" | cut -d' ' -f1); }
check() {
  [ "$(sum "$2" "$3")" = "$1" ] || { echo "FAILED: $2 $3 is not $1" >&2; exit 1; }
  echo "ok  $1  $2 $3"
}
check a56374e1cf4c3746499bc7c0acb39498ad2ee185 sha1dcsum test/sha1_reducedsha_coll.bin
check 16e96b70000dd1e7c85b8368ee197754400e58ec sha1dcsum test/shattered-1.pdf
check e1761773e6a35916d99f891b77663e6405313587 sha1dcsum test/shattered-2.pdf
check dd39885a2a5d8f59030b451e00cb45da9f9d3828 sha1dcsum_partialcoll test/sha1_reducedsha_coll.bin
check d3a1d09969c3b57113fd17b23e01dd3de74a99bb sha1dcsum_partialcoll test/shattered-1.pdf
check 92246b0b718f4c704d37bb025717cbc66babf102 sha1dcsum_partialcoll test/shattered-2.pdf
ldd "$work/bin/sha1dcsum" | grep sha1detectcoll

say "the same programs with each library: outputs compared"
run "$work/ref" >"$work/with-reference.txt"
run "$work/ours/lib" >"$work/with-ours.txt"
if ! diff "$work/with-reference.txt" "$work/with-ours.txt"; then
  echo "FAILED: the outputs differ" >&2
  exit 1
fi
grep -c . "$work/with-ours.txt" | xargs echo "ok: identical outputs, lines:"
grep -m1 sizeof "$work/with-ours.txt"
grep -c '\*coll\*' "$work/with-ours.txt" | xargs echo "collisions reported by sha1dcsum:"

say "the symbols: the reference's, and the extensions"
nm -D --defined-only "$work/ref/libsha1detectcoll.so.1" | awk '{print $3}' | sort >"$work/ref-symbols"
nm -D --defined-only "$work/ours/lib/libsha1detectcoll.so.1.0.0" | awk '{print $3}' | sort >"$work/our-symbols"
missing=$(comm -23 "$work/ref-symbols" "$work/our-symbols" | xargs)
extra=$(comm -13 "$work/ref-symbols" "$work/our-symbols" | xargs)
[ -z "$missing" ] || { echo "FAILED: the reference exports $missing, this library not" >&2; exit 1; }
[ "$extra" = "SHA1DCHash SHA1DCHashMany SHA1DCInitWithOptions" ] ||
  { echo "FAILED: this library also exports $extra" >&2; exit 1; }
echo "ok: the reference's $(wc -l <"$work/ref-symbols") and the 3 extensions"

say "the reference's sha1dcsum linked statically against each library"
mkdir -p "$work/ref-static" "$work/static"
for f in sha1 ubc_check; do gcc -O2 -c -o "$work/ref-static/$f.o" "$ref/lib/$f.c"; done
ar rcs "$work/ref-static/libsha1detectcoll.a" "$work/ref-static/sha1.o" "$work/ref-static/ubc_check.o"
gcc -O2 -c -I"$ref/lib" -o "$work/static/main.o" "$ref/src/main.c"
ours_static=$(PKG_CONFIG_PATH=$work/ours/lib/pkgconfig pkg-config --static --libs sha1detectcoll)
# shellcheck disable=SC2086 # a list of flags
gcc -static -o "$work/static/ours-static" "$work/static/main.o" $ours_static
gcc -static -o "$work/static/ref-static" "$work/static/main.o" -L"$work/ref-static" -lsha1detectcoll
# The library's archive, libc shared.
gcc -o "$work/static/ours-archive" "$work/static/main.o" "$work/ours/lib/libsha1detectcoll.a"
gcc -o "$work/static/ref-archive" "$work/static/main.o" "$work/ref-static/libsha1detectcoll.a"
# The same, the linker dropping what the program does not call.
gcc -Wl,--gc-sections -o "$work/static/ours-gc" "$work/static/main.o" "$work/ours/lib/libsha1detectcoll.a"
gcc -Wl,--gc-sections -o "$work/static/ref-gc" "$work/static/main.o" "$work/ref-static/libsha1detectcoll.a"
for b in ours-static ours-archive ours-gc; do
  readelf -d "$work/static/$b" 2>/dev/null | grep 'NEEDED.*sha1detectcoll' >/dev/null &&
    { echo "FAILED: $b loads the shared library" >&2; exit 1; }
  for f in shattered-1.pdf sha1_reducedsha_coll.bin; do
    [ "$(cd "$ref" && LD_LIBRARY_PATH= "$work/static/$b" "test/$f")" = "$(cd "$ref" && "$work/bin/sha1dcsum" "test/$f")" ] ||
      { echo "FAILED: $b on $f" >&2; exit 1; }
  done
done
size() { stat -c %s "$1"; }
ratio() { awk -v a="$(size "$1")" -v b="$(size "$2")" 'BEGIN { printf "%.2f", a / b }'; }
echo "ok: the same output as linked against the reference's shared library"
echo "sha1dcsum with -static:        $(size "$work/static/ours-static") bytes against this library, $(size "$work/static/ref-static") against the reference ($(ratio "$work/static/ours-static" "$work/static/ref-static")x)"
echo "sha1dcsum with the archive:    $(size "$work/static/ours-archive") bytes against this library, $(size "$work/static/ref-archive") against the reference ($(ratio "$work/static/ours-archive" "$work/static/ref-archive")x)"
echo "the same, -Wl,--gc-sections: $(size "$work/static/ours-gc") bytes against this library, $(size "$work/static/ref-gc") against the reference ($(ratio "$work/static/ours-gc" "$work/static/ref-gc")x)"
echo "this library: libsha1detectcoll.a $(size "$work/ours/lib/libsha1detectcoll.a") bytes, libsha1detectcoll.so.1.0.0 $(size "$work/ours/lib/libsha1detectcoll.so.1.0.0") ($(rustc -V))"
