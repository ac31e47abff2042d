#!/usr/bin/env bash
# The fleet benchmark (docs/fleet.md): cuts of git.git at eight tags (packs
# of 4 to 80 MB), each four times, scanned by `python -m sha1dc.scan` on a
# local Ray started here as a cluster's head would be (`ray start --head
# --num-cpus 2`), against `git-sha1dc -j 2` run over the same repositories
# one after another; then `sha1dc.verify` against `git-sha1dc` on
# git.git's whole pack, on the same threads. Interleaved rounds, medians.
# Not in CI: it needs git.git (a bare git directory with its pack) and a
# few minutes. The cuts are made once in WORK (default target/fleet-bench).
#   scripts/fleet-bench.sh GIT_DIR [WORK] [-- bench_fleet.py options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
path_arg "$@"
snapshot=$(cd "$1" && pwd)
shift
target="${CARGO_TARGET_DIR:-$root/target}"
work="$target/fleet-bench"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then work=$1; shift; fi
[ "${1:-}" = "--" ] && shift
mkdir -p "$work"

say "git-sha1dc and the Python package with Ray (target/python-venv)"
cargo build --release --quiet --bin git-sha1dc
venv="$target/python-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet './python[ray]'
print_cpu

# Ray runs its workers at nice 15 by default: on a machine shared with other
# work (this one, builds of others), they would get less CPU than
# git-sha1dc at nice 0. The same priority for both: Ray's workers at 0.
say "RAY_worker_niceness=0 ray start --head --num-cpus 2"
RAY_worker_niceness=0 "$venv/bin/ray" start --head --num-cpus 2 --include-dashboard=false >/dev/null
trap '"$venv/bin/ray" stop >/dev/null 2>&1 || true' EXIT
"$venv/bin/python" python/bench_fleet.py --snapshot "$snapshot" --work "$work" \
  --git-sha1dc "$target/release/git-sha1dc" "$@"
