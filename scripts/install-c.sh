#!/usr/bin/env bash
# Builds and installs the C library (capi/, with Rust 1.63 or later):
#   LIBDIR/libsha1detectcoll.so.1.0.0 (+ .so.1, the soname, and .so),
#   LIBDIR/libsha1detectcoll.a (one relocatable object), LIBDIR/pkgconfig/sha1detectcoll.pc and
#   INCLUDEDIR/sha1dc/{sha1.h,sha1dc_ext.h,ubc_check.h}; then
#   cc prog.c $(PKG_CONFIG_PATH=LIBDIR/pkgconfig pkg-config --cflags --libs sha1detectcoll)
#
#   scripts/install-c.sh [OPTIONS] PREFIX        (e.g. /usr/local, or $HOME/.local)
#   --prefix=PREFIX     the same as the argument
#   --libdir=DIR        default lib; relative to PREFIX or absolute
#                       (lib64, lib/x86_64-linux-gnu, ...)
#   --includedir=DIR    default include; relative to PREFIX or absolute
#   --strip             the .so without its symbol table, the .a without
#                       debug info (the default installs them as built:
#                       symbols, no debug info)
#   --split-debug       build with debug info; install the .so stripped and
#                       its debug info as LIBDIR/.debug/libsha1detectcoll.so.1.0.0.debug
#                       (named by its .gnu_debuglink, where gdb looks)
#   --keep-debug        build with debug info and install it in place, for a
#                       packaging tool that splits it itself
#   --uninstall         remove what the same arguments install (builds nothing)
#   -h, --help          this text
# DESTDIR (from the environment, as with make install) stages the files under
# DESTDIR/PREFIX; the .pc names PREFIX and LIBDIR as given. The build runs in
# capi/ (its own workspace, Cargo.lock as it is: --locked), so that
# capi/.cargo/config.toml applies: vendored sources, for one
# (capi/README.md). CARGO_TARGET_DIR and CARGO_BUILD_TARGET are honoured.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

prefix= libdir=lib includedir=include debug=none uninstall=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --prefix=* | --libdir=* | --includedir=*)
      name=${1%%=*} value=${1#*=}
      case "$name" in
        --prefix) prefix=$value ;;
        --libdir) libdir=$value ;;
        --includedir) includedir=$value ;;
      esac ;;
    --prefix | --libdir | --includedir)
      [ $# -ge 2 ] || { echo "install-c.sh: $1 needs a value" >&2; exit 2; }
      set -- "$1=$2" "${@:3}"
      continue ;;
    --strip) debug=strip ;;
    --split-debug) debug=split ;;
    --keep-debug) debug=keep ;;
    --uninstall) uninstall=1 ;;
    -*) echo "install-c.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
      [ -z "$prefix" ] || { echo "install-c.sh: one PREFIX only" >&2; exit 2; }
      prefix=$1 ;;
  esac
  shift
done
[ -n "$prefix" ] || { usage >&2; exit 2; }
destdir=${DESTDIR:-}
if [ -n "$destdir" ]; then
  case "$prefix" in
    /*) ;;
    *) echo "install-c.sh: with DESTDIR, PREFIX must be absolute (not $prefix)" >&2; exit 2 ;;
  esac
elif [ "$uninstall" = 0 ]; then
  mkdir -p "$prefix"
  prefix=$(cd "$prefix" && pwd)
else
  prefix=$(realpath -m "$prefix")
fi
prefix=${prefix%/}
# DIR under PREFIX, or absolute; in the .pc, relative to ${prefix} when under it.
under_prefix() { case "$1" in /*) echo "${1%/}" ;; *) echo "$prefix/${1%/}" ;; esac; }
in_pc() { case "$1" in "$prefix"/*) echo "\${prefix}${1#"$prefix"}" ;; *) echo "$1" ;; esac; }
libdir=$(under_prefix "$libdir")
includedir=$(under_prefix "$includedir")
lib=$destdir$libdir
inc=$destdir$includedir/sha1dc

so=libsha1detectcoll.so.1.0.0
headers=(sha1.h sha1dc_ext.h ubc_check.h)
installed=(
  "$lib/$so" "$lib/libsha1detectcoll.so.1" "$lib/libsha1detectcoll.so" "$lib/libsha1detectcoll.a"
  "$lib/pkgconfig/sha1detectcoll.pc" "$lib/.debug/$so.debug" "${headers[@]/#/$inc/}"
)

if [ "$uninstall" = 1 ]; then
  say "uninstall from $destdir$prefix"
  rm -f "${installed[@]}"
  # The directories left empty, up to PREFIX (which stays).
  for dir in "$inc" "$lib/.debug" "$lib/pkgconfig"; do
    while [ "$dir" != "$destdir$prefix" ] && [ "${dir#"$destdir$prefix"/}" != "$dir" ] &&
      rmdir "$dir" 2>/dev/null; do
      dir=$(dirname "$dir")
    done
  done
  echo "removed: ${installed[*]}"
  exit 0
fi

# Relative to the current directory, not capi/, where cargo runs.
[ -z "${CARGO_TARGET_DIR:-}" ] || export CARGO_TARGET_DIR=$(realpath -m "$CARGO_TARGET_DIR")
out=${CARGO_TARGET_DIR:-$root/capi/target}/${CARGO_BUILD_TARGET:+$CARGO_BUILD_TARGET/}release
# Debug info (full) for the two modes that keep it, by Cargo's environment.
case "$debug" in split | keep) export CARGO_PROFILE_RELEASE_DEBUG=true ;; esac
say "cargo build --release --locked (capi/)"
(cd capi && cargo build --quiet --release --locked)
# A profile without LTO (CARGO_PROFILE_RELEASE_LTO=false, say) links the
# precompiled `core`, which needs an unwinder's personality routine.
if nm -D --undefined-only "$out/libsha1detectcoll.so" | grep rust_eh_personality >/dev/null; then
  echo "install-c.sh: built without LTO, the library needs rust_eh_personality (capi/Cargo.toml)" >&2
  exit 1
fi
version=$(sed -n 's/^version = "\(.*\)"/\1/p' capi/Cargo.toml | head -n1)

# The archive as one relocatable object. Cargo's staticlib holds the
# library's object and every member of Rust's compiler_builtins, which carry
# LLVM bitcode that binutils cannot read (nm fails on them). A partial link
# of the library's object takes from that archive only the members it calls
# (none on x86-64), keeps one section per function (for --gc-sections);
# objcopy then keeps global only what the .so exports and drops the LLVM
# sections (bitcode, and the address-significance table, whose symbol
# indices the relink made stale). Cross builds use the target's binutils
# (Debian's names: aarch64-linux-gnu-ld).
tools=
if [ -n "${CARGO_BUILD_TARGET:-}" ] && [ "$CARGO_BUILD_TARGET" != "$(rustc -vV | sed -n 's/^host: //p')" ]; then
  tools=${CARGO_BUILD_TARGET%%-*}-linux-gnu-
fi
one=$(mktemp -d)
trap 'rm -rf "$one"' EXIT
member=$(ar t "$out/libsha1detectcoll.a" | grep '^sha1detectcoll\.')
[ "$(echo "$member" | wc -l)" = 1 ] || { echo "install-c.sh: the staticlib's own objects: $member" >&2; exit 1; }
(cd "$one" && ar x "$out/libsha1detectcoll.a" "$member")
"${tools}ld" -r -o "$one/sha1detectcoll.o" "$one/$member" "$out/libsha1detectcoll.a"
nm -D --defined-only "$out/libsha1detectcoll.so" | awk '{print $3}' >"$one/exported"
"${tools}objcopy" --keep-global-symbols="$one/exported" --remove-section=.llvmbc \
  --remove-section=.llvmcmd --remove-section=.llvm_addrsig "$one/sha1detectcoll.o"
"${tools}ar" rcsD "$one/libsha1detectcoll.a" "$one/sha1detectcoll.o"

say "install into $destdir$prefix"
install -d "$lib/pkgconfig" "$inc"
# The reference's libtool version 1:0:0: the file .so.1.0.0, the soname .so.1.
install -m 755 "$out/libsha1detectcoll.so" "$lib/$so"
install -m 644 "$one/libsha1detectcoll.a" "$lib/libsha1detectcoll.a"
case "$debug" in
  strip)
    strip --strip-unneeded "$lib/$so"
    strip --strip-debug "$lib/libsha1detectcoll.a" ;;
  split)
    install -d "$lib/.debug"
    objcopy --only-keep-debug "$lib/$so" "$lib/.debug/$so.debug"
    chmod 644 "$lib/.debug/$so.debug"
    strip --strip-unneeded "$lib/$so"
    (cd "$lib" && objcopy --add-gnu-debuglink=".debug/$so.debug" "$so")
    strip --strip-debug "$lib/libsha1detectcoll.a" ;;
esac
ln -sf "$so" "$lib/libsha1detectcoll.so.1"
ln -sf libsha1detectcoll.so.1 "$lib/libsha1detectcoll.so"
install -m 644 "${headers[@]/#/capi/include/sha1dc/}" "$inc/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@LIBDIR@|$(in_pc "$libdir")|" \
  -e "s|@INCLUDEDIR@|$(in_pc "$includedir")|" -e "s|@VERSION@|$version|" \
  capi/sha1detectcoll.pc.in >"$lib/pkgconfig/sha1detectcoll.pc"
for f in "${installed[@]}"; do [ ! -e "$f" ] || echo "installed: $f"; done
