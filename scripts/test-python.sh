#!/usr/bin/env bash
# The Python package (python/): its crate through clippy, then the package
# built from this checkout with pip as python/README.md says (a wheel made
# here by maturin), into a virtual environment of its own
# (target/python-venv, kept between runs), and its pytest suite, whose
# command tests compare `python -m sha1dc` with the sha1dcsum built here.
# Installs pytest, numpy and mypy into that environment when missing.
#   scripts/test-python.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/python-venv"

say "cargo clippy (the Python package's crate, python/)"
cargo clippy --quiet --package sha1dc-python --all-targets -- -D warnings
say "sha1dcsum, to compare python -m sha1dc with"
cargo build --release --quiet --bin sha1dcsum

[ -x "$venv/bin/python" ] || { say "python3 -m venv $venv"; python3 -m venv "$venv"; }
py="$venv/bin/python"
for m in pytest numpy mypy; do
  "$py" -c "import $m" 2>/dev/null || { say "pip install $m (tests only)"; "$py" -m pip install --quiet "$m"; }
done
say "pip install ./python"
"$py" -m pip install --quiet ./python
say "pytest python/tests"
SHA1DCSUM="$target/release/sha1dcsum" "$py" -m pytest -q python/tests
