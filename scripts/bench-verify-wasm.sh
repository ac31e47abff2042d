#!/usr/bin/env bash
# The verifier in WebAssembly (npm's `sha1dc-wasm/git`, through its git-sha1dc
# command in Node) against the Rust git-sha1dc and stock git on one pack, in
# interleaved rounds:
#   npm (idx)        node pkg/git-cli.mjs -j 2 PACK.idx   (two worker threads, one instance each)
#   npm (idx) -j 1   the same on one instance
#   ours (idx)       git-sha1dc -j 2 PACK.idx
#   npm (no idx)     node pkg/git-cli.mjs COPY.pack       (index-less: one instance)
#   ours (no idx)    git-sha1dc -j 2 COPY.pack
#   git index-pack   git index-pack --threads=2 -o OUT.idx COPY.pack   (stock git on PATH)
# with wall, user and system seconds and the peak RSS (/usr/bin/time), then the
# minimum of the rounds and the ratios of wall and CPU time.
#   scripts/bench-verify-wasm.sh [PACK]
# PACK defaults to git.git's pack in the fetched snapshot
# (/work/.mirror/git+git/repo/objects/pack/*.pack). Environment:
#   ROUNDS=N   rounds (default 3)
#   WORK=DIR   scratch (default /tmp/bench-verify-wasm)
# Builds pkg/ (scripts/build-pkg.sh) when it has no wasm/gitverify_bg.wasm.
# CI does not run this: it needs the snapshot and takes minutes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
case "${1:-}" in -h | --help) usage; exit 0 ;; esac

bench_pack "${1:-}"
rounds=${ROUNDS:-3}
work=${WORK:-/tmp/bench-verify-wasm}
mkdir -p "$work"
[ -x /usr/bin/time ] || apt_install time

say "cargo build --release (git-sha1dc)"
cargo build --quiet --release -p gitverify
ours=$root/target/release/git-sha1dc
[ -f "$root/pkg/wasm/gitverify_bg.wasm" ] || scripts/build-pkg.sh
npm_cli=$root/pkg/git-cli.mjs

# The index-less runs read a link to the pack with no index beside it.
copy=$work/noidx.pack
ln -sf "$pack" "$copy"
rm -f "${copy%.pack}.idx"

print_cpu
echo "load: $(uptime | sed 's/.*load average: //')"
echo "pack: $pack ($(stat -c %s "$pack") bytes); node $(node --version)"
results=$work/times.tsv
printf 'round\ttool\twall_s\tuser_s\tsys_s\trss_kb\n' >"$results"

# `timed NAME COMMAND...`: one run, which must exit with 0, its figures
# appended to $results.
timed() {
  local name=$1 status=0
  shift
  rm -rf "$work/out" && mkdir -p "$work/out"
  (cd "$work/out" && /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/log" 2>&1) || status=$?
  if [ "$status" != 0 ]; then
    echo "$name exited with $status:" >&2
    tail -n 20 "$work/log" >&2
    exit 1
  fi
  read -r wall user sys rss < <(tail -n 1 "$work/time")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$wall" "$user" "$sys" "$rss" | tee -a "$results"
}

for round in $(seq 1 "$rounds"); do
  timed "npm-idx-j2" node "$npm_cli" -q -j 2 "$idx"
  timed "ours-idx-j2" "$ours" -q -j 2 "$idx"
  timed "npm-idx-j1" node "$npm_cli" -q -j 1 "$idx"
  timed "git-index-pack" git index-pack --threads=2 -o "$work/out/pack.idx" "$copy"
  timed "npm-noidx" node "$npm_cli" -q "$copy"
  timed "ours-noidx-j2" "$ours" -q -j 2 "$copy"
done
rm -rf "$work/out"

say "minimum of $rounds rounds: wall, user, system seconds, peak RSS (RSS: the largest); ratios"
python3 - "$results" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
best = {}
for r in rows:
    v = (float(r["wall_s"]), float(r["user_s"]), float(r["sys_s"]), int(r["rss_kb"]) / 1024)
    b = best.get(r["tool"])
    best[r["tool"]] = v if b is None else tuple(min(x, y) if i < 3 else max(x, y) for i, (x, y) in enumerate(zip(b, v)))
for tool, (w, u, s, m) in best.items():
    print(f"  {tool:<16} wall {w:7.2f} s  user {u:7.2f} s  sys {s:5.2f} s  peak RSS {m:6.0f} MiB")
def ratio(a, b):
    if a in best and b in best:
        wa, ua, sa, _ = best[a]
        wb, ub, sb, _ = best[b]
        print(f"  {a} / {b}: {wa / wb:.2f}x wall, {(ua + sa) / (ub + sb):.2f}x CPU")
ratio("npm-idx-j2", "ours-idx-j2")
ratio("npm-idx-j1", "ours-idx-j2")
ratio("npm-idx-j2", "git-index-pack")
ratio("npm-noidx", "ours-noidx-j2")
ratio("npm-noidx", "git-index-pack")
PY
