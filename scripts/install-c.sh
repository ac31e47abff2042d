#!/usr/bin/env bash
# Builds and installs the C library: libsha1detectcoll.so (soname
# libsha1detectcoll.so.1) and libsha1detectcoll.a in PREFIX/lib, the headers
# sha1dc/sha1.h and sha1dc/sha1dc_ext.h in PREFIX/include, and
# sha1detectcoll.pc in PREFIX/lib/pkgconfig; then
#   cc prog.c $(PKG_CONFIG_PATH=PREFIX/lib/pkgconfig pkg-config --cflags --libs sha1detectcoll)
#   scripts/install-c.sh PREFIX     (e.g. /usr/local, or $HOME/.local)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

path_arg "$@"
mkdir -p "$1"
prefix=$(cd "$1" && pwd)

say "cargo rustc --release -p sha1dc-wasm-capi"
# The build, which also prints what a static link needs besides the archive
# (nothing when the build was already fresh: then built again).
build() {
  local log status=0
  log=$(mktemp)
  cargo rustc --quiet --release -p sha1dc-wasm-capi --lib -- --print native-static-libs >"$log" 2>&1 || status=$?
  [ "$status" = 0 ] || cat "$log" >&2
  sed -n 's/.*native-static-libs: //p' "$log" | tail -n1
  rm -f "$log"
  return "$status"
}
libs_private=$(build)
[ -n "$libs_private" ] || { touch capi/src/lib.rs; libs_private=$(build); }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' capi/Cargo.toml | head -n1)

out=${CARGO_TARGET_DIR:-target}/release
lib="$prefix/lib"
say "install into $prefix"
install -d "$lib/pkgconfig" "$prefix/include/sha1dc"
# The reference's libtool version 1:0:0: the file .so.1.0.0, the soname .so.1.
install -m 755 "$out/libsha1detectcoll.so" "$lib/libsha1detectcoll.so.1.0.0"
ln -sf libsha1detectcoll.so.1.0.0 "$lib/libsha1detectcoll.so.1"
ln -sf libsha1detectcoll.so.1 "$lib/libsha1detectcoll.so"
install -m 644 "$out/libsha1detectcoll.a" "$lib/libsha1detectcoll.a"
install -m 644 capi/include/sha1dc/sha1.h capi/include/sha1dc/sha1dc_ext.h "$prefix/include/sha1dc/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" -e "s|@LIBS_PRIVATE@|$libs_private|" \
  capi/sha1detectcoll.pc.in >"$lib/pkgconfig/sha1detectcoll.pc"
echo "installed: $lib/libsha1detectcoll.so.1.0.0, .a, $prefix/include/sha1dc/, $lib/pkgconfig/sha1detectcoll.pc"
