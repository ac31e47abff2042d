#!/usr/bin/env bash
# The Python package for the package index, into target/wheels/: the
# x86-64 Linux wheel (abi3, CPython 3.11+), linked by maturin with zig
# (`ziglang` from PyPI) against glibc 2.28 so that `auditwheel show` places
# it in manylinux_2_28 (RHEL 8, Debian 11 and later install it), and the
# sdist. Each is then installed into a fresh virtual environment (the sdist
# built there from source, as pip does for a platform without a wheel) and
# used: a hash, a repository verified, the metadata read back. Not in CI:
# it downloads the build tools from PyPI and builds twice (a few minutes).
#   scripts/python-wheels.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
case "${1:-}" in -h | --help) usage; exit 0 ;; "") ;; *) usage >&2; exit 2 ;; esac

target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/wheels"
tools="$target/wheel-venv"
policy=manylinux_2_28

[ -x "$tools/bin/python" ] || { say "python3 -m venv $tools (the build tools)"; python3 -m venv "$tools"; }
say "pip install maturin ziglang auditwheel"
"$tools/bin/python" -m pip install --quiet 'maturin>=1.9.4,<2' ziglang auditwheel
rm -f "$out"/sha1dc-*.whl "$out"/sha1dc-*.tar.gz

say "maturin build --zig --compatibility $policy"
# maturin runs zig as `python3 -m ziglang`: the tools' Python first on PATH.
PATH="$tools/bin:$PATH" "$tools/bin/maturin" build --quiet --release --locked --zig --compatibility "$policy" \
  --target x86_64-unknown-linux-gnu -m python/Cargo.toml -o "$out"
wheel=$(ls "$out"/sha1dc-*.whl)
say "auditwheel show $(basename "$wheel")"
shown=$("$tools/bin/auditwheel" show "$wheel")
echo "$shown"
# The newest glibc symbol the extension needs, and the policy auditwheel
# places it in: 2.28 or older.
echo "$shown" | tr -s ' \n' ' ' | grep -Eq "consistent with the following platform tag: \"manylinux_2_(1[0-9]|2[0-8])_x86_64\"|\"manylinux(1|2010|2014)_x86_64\"" \
  || { echo "python-wheels.sh: the wheel is not manylinux_2_28 or older" >&2; exit 1; }
case "$wheel" in *"$policy"_x86_64*.whl | *manylinux_2_1[0-9]_x86_64*.whl) ;; *) echo "python-wheels.sh: the wheel's name lacks its tag: $wheel" >&2; exit 1 ;; esac

say "maturin sdist"
"$tools/bin/maturin" sdist -m python/Cargo.toml -o "$out"
sdist=$(ls "$out"/sha1dc-*.tar.gz)

# The installed package used: a hash, this repository's tests/data
# verified as a fleet would be, the metadata as the index shows it.
use() {
  "$1/bin/python" - <<'PY'
import importlib.metadata as md, sha1dc
assert sha1dc.sha1(b"abc").hexdigest() == "a9993e364706816aba3e25717850c26c9cd0d89d"
assert sha1dc.verify("tests/data").exit == 1  # a directory, not a repository: damage
m = md.metadata("sha1dc")
assert m["License-Expression"] == "MIT OR Apache-2.0", m["License-Expression"]
requires = m.get_all("Requires-Dist")
assert requires == [r for r in requires if r.startswith("ray") and "extra == 'ray'" in r.replace('"', "'")], requires
assert m.get_all("Project-URL") and len(m.get_all("Classifier")) >= 10
assert any(f.name == "LICENSE" for f in md.files("sha1dc"))
print("sha1dc", sha1dc.__version__, "installed and used:", m["Summary"][:60] + "...")
PY
}
for what in "$wheel" "$sdist"; do
  fresh="$target/wheel-check"
  rm -rf "$fresh"
  python3 -m venv "$fresh"
  say "pip install $(basename "$what") into a fresh venv"
  "$fresh/bin/python" -m pip install --quiet "$what"
  use "$fresh"
done
rm -rf "$target/wheel-check"
say "target/wheels: $(cd "$out" && ls sha1dc-*)"
