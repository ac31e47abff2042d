# Shared by the scripts in scripts/; sourced, not run:
#   . "$(dirname "$0")/lib.sh"
# Sourcing it sets $root to the repository root and enters it.
# shellcheck shell=bash

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# A bold heading on stderr, after a blank line.
say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }

# The script's own header comment (its lines 2.. up to the first non-comment
# line), for -h/--help.
# The CPU a benchmark's figures come from, as the READMEs name it.
print_cpu() {
  awk -F'\t*: *' '$1 ~ /^(vendor_id|cpu family|model|model name)$/ && !seen[$1]++ { v[$1] = $2 }
    END { printf "CPU: %s family %s model %s (%s)\n", v["vendor_id"], v["cpu family"], v["model"], v["model name"] }' /proc/cpuinfo
}

usage() { awk 'NR == 1 { next } /^#/ { print; next } { exit }' "$0"; }

# Scripts whose first argument is a required path (`path_arg "$@"`):
# -h/--help prints the header comment; none, or an option, is a usage error.
path_arg() {
  case "${1:-}" in
    -h | --help) usage; exit 0 ;;
    "" | -*) usage >&2; exit 2 ;;
  esac
}

# Arguments of the scripts that build the npm package before using it
# (serve.sh, test-browser.sh): --no-build sets build=0, -h/--help prints the
# header comment. `parse_build_args NAME "$@"`; NAME prefixes the error.
parse_build_args() {
  local name=$1 arg
  shift
  build=1
  for arg in "$@"; do
    case "$arg" in
      --no-build) build=0 ;;
      -h | --help) usage; exit 0 ;;
      *) echo "$name: unknown argument $arg" >&2; exit 2 ;;
    esac
  done
}

# An environment RUSTFLAGS replaces .cargo/config.toml's rustflags, and with
# them wasm32's simd128 (the build would silently lose the simd128 filter; a
# test asserts it is the one running). The scripts either drop it...
rustflags_unset() { unset RUSTFLAGS; }
# ...or keep it and add simd128 to it.
rustflags_keep_simd128() {
  case " ${RUSTFLAGS:-} " in
    "  ") ;; # unset or empty: the config's flags apply
    *" -C target-feature=+simd128 "*) ;;
    *) export RUSTFLAGS="$RUSTFLAGS -C target-feature=+simd128" ;;
  esac
}

# apt-get install what dpkg does not list as installed; one `apt-get update`
# per run (exported, so the scripts this one starts skip it too).
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "apt-get install ${missing[*]}"
  if [ -z "${SHA1DC_APT_UPDATED:-}" ]; then
    apt-get update -qq
    export SHA1DC_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Whether this run may install with apt (root, on a system that has it).
can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }

# Debian's Chromium and chromedriver, at /usr/bin/chromium and /usr/bin/chromedriver.
have_chromium() { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }
install_chromium() { have_chromium || apt_install chromium chromium-driver; }

# A Python module from PyPI (same name), with pip, when python3 cannot import it.
pip_module() {
  python3 -c "import $1" 2>/dev/null && return 0
  say "python3 -m pip install $1"
  python3 -m pip install --quiet "$1"
}

# cargo install puts its tools in ~/.cargo/bin.
cargo_bin_on_path() {
  case ":$PATH:" in
    *":$HOME/.cargo/bin:"*) ;;
    *) export PATH="$HOME/.cargo/bin:$PATH" ;;
  esac
}

rust_target() {
  rustup target list --installed | grep -qx "$1" || { say "rustup target add $1"; rustup target add "$1"; }
}

# The version of wasm-bindgen pinned in Cargo.toml (`wasm-bindgen = "=X.Y.Z"`);
# the wasm-bindgen CLI must match it exactly.
wasm_bindgen_version() {
  local v
  v=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml | head -n1)
  if [ -z "$v" ]; then
    echo "Cargo.toml must pin wasm-bindgen = \"=X.Y.Z\"" >&2
    return 1
  fi
  echo "$v"
}

# The wasm toolchain, what is missing of it: the wasm32 target, wasm-bindgen-cli
# at the pinned version, wasm-pack.
wasm_toolchain() {
  cargo_bin_on_path
  rust_target wasm32-unknown-unknown
  local v
  v=$(wasm_bindgen_version)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$v" ]; then
    say "cargo install wasm-bindgen-cli $v (about 7 minutes)"
    # No --locked: the CLI's own lock names a crate version the index lacks.
    cargo install wasm-bindgen-cli --version "$v" --force
  fi
  command -v wasm-pack >/dev/null || { say "cargo install wasm-pack (about 4 minutes)"; cargo install wasm-pack --locked; }
}

# The pack a benchmark measures: its first argument, or the git/git
# snapshot's; sets `pack` (an absolute path) and `idx` (beside it), and exits
# 2 when either is missing.
bench_pack() {
  pack=${1:-$(ls /work/.mirror/git+git/repo/objects/pack/*.pack 2>/dev/null | head -n1)}
  [ -n "$pack" ] && [ -f "$pack" ] || { echo "no pack given and no snapshot of git/git found" >&2; exit 2; }
  pack=$(cd "$(dirname "$pack")" && pwd)/$(basename "$pack")
  idx=${pack%.pack}.idx
  [ -f "$idx" ] || { echo "$idx is missing" >&2; exit 2; }
}
