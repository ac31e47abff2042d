#!/usr/bin/env bash
# git-sha1dc against gitoxide and git on one pack, in interleaved rounds:
#   ours (idx)       git-sha1dc PACK.idx            (the pack checked against its index)
#   ours --content   the same with the content check
#   gix verify       gix --threads N free pack verify PACK.idx
#   ours (no idx)    git-sha1dc COPY.pack           (index-less: no .idx beside it)
#   gix index        gix --threads N free pack index create -p COPY.pack DIR
#   git index-pack   git index-pack --threads=N -o OUT.idx COPY.pack   (stock git on PATH)
#   git+ours         the same with git built on this project's library (when built)
# at -j 1 and -j 2 (THREADS), with wall, user and system seconds and the peak
# RSS (/usr/bin/time -v), then the minimum of the rounds and the ratios.
#   scripts/bench-verify.sh [PACK]
# PACK defaults to git.git's pack in the fetched snapshot
# (/work/.mirror/git+git/repo/objects/pack/*.pack). Environment:
#   ROUNDS=N     rounds (default 3)
#   THREADS="1 2"
#   GIX=PATH     gix (default: gix on PATH, else /work/tools/gitoxide/bin/gix;
#                BUILD_GIX=1 builds gitoxide 0.61 there when missing, ~20 min)
#   GIT_OURS=PATH  git on this library (default: the one scripts/git-with-sha1dc.sh
#                builds in /work/tools/git-with-sha1dc/ours/git, when there)
#   WORK=DIR     scratch (default /tmp/bench-verify)
# CI does not run this: it needs the snapshot and takes minutes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
case "${1:-}" in -h | --help) usage; exit 0 ;; esac

bench_pack "${1:-}"
rounds=${ROUNDS:-3}
threads=${THREADS:-"1 2"}
work=${WORK:-/tmp/bench-verify}
mkdir -p "$work"
[ -x /usr/bin/time ] || apt_install time

gix=${GIX:-$(command -v gix || echo /work/tools/gitoxide/bin/gix)}
if [ ! -x "$gix" ] && [ -n "${BUILD_GIX:-}" ]; then
  say "cargo install gitoxide 0.61.0 into /work/tools/gitoxide (about 20 minutes)"
  cargo install gitoxide --version 0.61.0 --locked --no-default-features \
    --features fast,sha1,pretty-cli,prodash-render-line --root /work/tools/gitoxide
  gix=/work/tools/gitoxide/bin/gix
fi
[ -x "$gix" ] || { echo "gix not found: set GIX or BUILD_GIX=1" >&2; exit 2; }
git_ours=${GIT_OURS:-/work/tools/git-with-sha1dc/ours/git}
[ -x "$git_ours" ] || git_ours=

say "cargo build --release (git-sha1dc)"
cargo build --quiet --release -p gitverify
ours=$root/target/release/git-sha1dc

# The index-less runs read a link to the pack with no index beside it.
copy=$work/nodix.pack
ln -sf "$pack" "$copy"
rm -f "${copy%.pack}.idx"

lscpu | sed -n 's/^Vendor ID: *//p;s/^Model name: *//p;s/^CPU family: *//p;s/^Model: *//p' | paste -sd' '
echo "$(nproc) CPUs; load: $(uptime | sed 's/.*load average: //')"
echo "pack: $pack ($(stat -c %s "$pack") bytes)"
results=$work/times.tsv
printf 'round\ttool\tthreads\twall_s\tuser_s\tsys_s\trss_kb\n' >"$results"

# `timed NAME THREADS STATUS COMMAND...`: one run, which must exit with
# STATUS, its figures appended to $results.
timed() {
  local name=$1 n=$2 want=$3 status=0
  shift 3
  rm -rf "$work/out" && mkdir -p "$work/out"
  (cd "$work/out" && /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/log" 2>&1) || status=$?
  if [ "$status" != "$want" ]; then
    echo "$name -j $n exited with $status, not $want:" >&2
    tail -n 20 "$work/log" >&2
    exit 1
  fi
  # (time writes "Command exited with non-zero status N" first then.)
  read -r wall user sys rss < <(tail -n 1 "$work/time")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$n" "$wall" "$user" "$sys" "$rss" | tee -a "$results"
}

# The content check's exit status (3 when a blob is collision material).
content_status=0
"$ours" -q --content "$idx" >/dev/null 2>&1 || content_status=$?
echo "git-sha1dc --content exits with $content_status on this pack"
for round in $(seq 1 "$rounds"); do
  for n in $threads; do
    timed "ours-idx" "$n" 0 "$ours" -q -j "$n" "$idx"
    # Exit status 3 on git.git: its t/t0013/shattered-1.pdf is found.
    timed "ours-idx-content" "$n" "$content_status" "$ours" -q --content -j "$n" "$idx"
    timed "gix-verify" "$n" 0 "$gix" --threads "$n" free pack verify "$idx"
    timed "ours-noidx" "$n" 0 "$ours" -q -j "$n" "$copy"
    timed "gix-index" "$n" 0 "$gix" --threads "$n" free pack index create -p "$copy" "$work/out"
    timed "git-index-pack" "$n" 0 git index-pack --threads="$n" -o "$work/out/pack.idx" "$copy"
    [ -z "$git_ours" ] || timed "git+ours-index-pack" "$n" 0 "$git_ours" index-pack --threads="$n" -o "$work/out/pack.idx" "$copy"
  done
done
rm -rf "$work/out"

print_cpu
say "minimum of $rounds rounds: wall, user, system seconds, peak RSS; ratios of wall time"
python3 - "$results" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
best = {}
for r in rows:
    k = (r["tool"], r["threads"])
    v = (float(r["wall_s"]), float(r["user_s"]), float(r["sys_s"]), int(r["rss_kb"]) / 1024)
    b = best.get(k)
    best[k] = v if b is None else tuple(min(x, y) if i < 3 else max(x, y) for i, (x, y) in enumerate(zip(b, v)))
for t in sorted({t for _, t in best}, key=int):
    print(f"-j {t}")
    for tool in ("ours-idx", "ours-idx-content", "gix-verify", "ours-noidx", "gix-index", "git-index-pack", "git+ours-index-pack"):
        if (tool, t) in best:
            w, u, s, m = best[tool, t]
            print(f"  {tool:<20} wall {w:6.2f} s  user {u:6.2f} s  sys {s:5.2f} s  peak RSS {m:6.0f} MiB")
    def ratio(peer, us):
        if (peer, t) in best and (us, t) in best:
            print(f"  {peer} / {us}: {best[peer, t][0] / best[us, t][0]:.2f}x wall, {(best[peer, t][1] + best[peer, t][2]) / (best[us, t][1] + best[us, t][2]):.2f}x CPU")
    ratio("gix-verify", "ours-idx")
    ratio("gix-index", "ours-noidx")
    ratio("git-index-pack", "ours-noidx")
    ratio("git+ours-index-pack", "ours-noidx")
PY
