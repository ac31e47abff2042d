#!/usr/bin/env bash
# The Python package (python/): its crate through clippy, then the package
# built from this checkout with pip as python/README.md says (a wheel made
# here by maturin), into a virtual environment of its own
# (target/python-venv, kept between runs), and its pytest suite, whose
# command tests compare `python -m sha1dc` with the sha1dcsum built here
# and `sha1dc.verify` with the git-sha1dc built here.
# Then the same abi3 wheel, built once, under the later CPythons this
# machine has (pyenv's 3.12 and 3.13; under CI, a missing one fails).
# Installs pytest, numpy and mypy into the environments when missing, and
# Ray into the first (the scan's tests run there only).
#   scripts/test-python.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

target="${CARGO_TARGET_DIR:-$root/target}"
export SHA1DCSUM="$target/release/sha1dcsum" GIT_SHA1DC="$target/release/git-sha1dc"

say "cargo clippy (the Python package's crate, python/)"
cargo clippy --quiet --package sha1dc-python --all-targets -- -D warnings
say "sha1dcsum and git-sha1dc, to compare python -m sha1dc and sha1dc.verify with"
cargo build --release --quiet --bin sha1dcsum --bin git-sha1dc

# A virtual environment at $1 made by the Python $2, with the modules $3...
venv() {
  local dir=$1 python=$2 m
  shift 2
  [ -x "$dir/bin/python" ] || { say "$python -m venv $dir"; "$python" -m venv "$dir"; }
  for m in "$@"; do
    "$dir/bin/python" -c "import $m" 2>/dev/null || { say "pip install $m (tests only)"; "$dir/bin/python" -m pip install --quiet "$m"; }
  done
}

# Ray for python/tests/test_scan.py (sha1dc[ray]'s extra), in this Python only.
venv "$target/python-venv" python3 pytest numpy mypy ray
py="$target/python-venv/bin/python"
say "pip install ./python ($("$py" --version))"
"$py" -m pip install --quiet ./python
say "pytest python/tests"
"$py" -m pytest -q python/tests

say "the abi3 wheel under later CPythons"
wheels="$target/python-wheels"
rm -rf "$wheels"
"$py" -m pip wheel --quiet --no-deps ./python -w "$wheels"
pyenv_root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
for v in 3.12 3.13; do
  later=$(ls -d "$pyenv_root"/versions/"$v".*/bin/python3 2>/dev/null | tail -n1 || true)
  if [ -z "$later" ]; then
    if [ -n "${CI:-}" ]; then echo "no CPython $v under $pyenv_root: the abi3 check cannot run" >&2; exit 1; fi
    say "no CPython $v under $pyenv_root: skipped"
    continue
  fi
  venv "$target/python-venv-$v" "$later" pytest numpy
  "$target/python-venv-$v/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheels"/sha1dc-*.whl
  # The stubs were checked above; they do not depend on the interpreter;
  # nor does the scan on Ray (its tests start a cluster: once is enough).
  say "pytest python/tests ($("$target/python-venv-$v/bin/python" --version), stubs and Ray excepted)"
  "$target/python-venv-$v/bin/python" -m pytest -q python/tests --ignore=python/tests/test_stubs.py --ignore=python/tests/test_scan.py
done
