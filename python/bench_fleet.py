"""The fleet benchmark (scripts/fleet-bench.sh runs it): a fleet of cuts of
git.git scanned by ``python -m sha1dc.scan`` on a Ray already running,
against ``git-sha1dc -j 2`` run over the same repositories one after
another; then ``sha1dc.verify`` against ``git-sha1dc`` on git.git's whole
pack, on the same threads. Interleaved rounds; medians and ratios.

    python bench_fleet.py --snapshot GIT_DIR --work DIR --git-sha1dc PATH
                          [--tags T,...] [--copies 4] [--rounds 3]

The cuts: for each tag, a bare repository holding, in one pack, every
object reachable from the tag (``git pack-objects --revs``), made once in
DIR and kept; each cut is in the fleet ``--copies`` times (hard links).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

# The installed package, not python/sha1dc/ beside this file.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
import sha1dc  # noqa: E402

TAGS = "v1.4.0,v1.5.0,v1.5.4,v1.6.0,v1.7.0,v1.8.0,v2.0.0,v2.10.0"


def cut(snapshot: Path, tag: str, dest: Path) -> Path:
    """A bare repository of every object reachable from `tag`, in one pack."""
    if (dest / "objects" / "pack").is_dir() and list((dest / "objects" / "pack").glob("*.idx")):
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    subprocess.run(["git", "init", "-q", "--bare", str(dest)], check=True)
    subprocess.run(
        ["git", f"--git-dir={snapshot}", "pack-objects", "-q", "--revs", str(dest / "objects" / "pack" / "pack")],
        input=f"{tag}\n".encode(), check=True, stdout=subprocess.DEVNULL,
    )
    return dest


def fleet(args: argparse.Namespace) -> list[Path]:
    work = Path(args.work).resolve()
    cuts = [cut(Path(args.snapshot), t, work / "cuts" / t) for t in args.tags.split(",")]
    repos = []
    (work / "fleet").mkdir(exist_ok=True)
    for c in cuts:
        for i in range(args.copies):
            copy = work / "fleet" / f"{c.name}-{i}"
            if not copy.exists():
                # Hard links: the copies are other paths to the same bytes.
                subprocess.run(["cp", "-al", str(c), str(copy)], check=True)
            repos.append(copy)
    return repos


def timed(cmd: list[str]) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """Wall and CPU seconds (the children's user + system) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p


def pack_sizes(repos: list[Path]) -> list[int]:
    return [sum(p.stat().st_size for p in (r / "objects" / "pack").glob("*.pack")) for r in repos]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--snapshot", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--git-sha1dc", required=True)
    ap.add_argument("--tags", default=TAGS)
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--address", default="auto", help="the running Ray the scan joins")
    ap.add_argument("--skip-pack", action="store_true", help="the fleet only, not git.git's pack")
    ap.add_argument("--skip-fleet", action="store_true", help="git.git's pack only")
    args = ap.parse_args()
    if not args.skip_fleet:
        bench_fleet(args)
    if not args.skip_pack:
        bench_pack(args)


def bench_fleet(args: argparse.Namespace) -> None:
    repos = fleet(args)
    sizes = pack_sizes(repos)
    listed = Path(args.work).resolve() / "fleet.txt"
    listed.write_text("".join(f"{r}\n" for r in repos))
    objects = sum(sha1dc.verify(r, jobs=2).objects for r in repos[:: args.copies]) * args.copies
    print(f"fleet: {len(repos)} repositories, packs of {min(sizes) / 1e6:.1f} to {max(sizes) / 1e6:.1f} MB "
          f"({sum(sizes) / 1e6:.0f} MB, {objects} objects)", flush=True)

    cmd_seq = [sys.executable, "-c",
               "import subprocess,sys\n"
               "for r in sys.argv[2:]:\n"
               "    subprocess.run([sys.argv[1], '-j', '2', '--quiet', r], check=False)",
               args.git_sha1dc, *map(str, repos)]
    report = Path(args.work).resolve() / "scan.jsonl"
    cmd_scan = [sys.executable, "-m", "sha1dc.scan", "--address", args.address, "-q",
                "--report", str(report), str(listed)]
    walls: dict[str, list[float]] = {"git-sha1dc -j 2, one after another": [], "sha1dc.scan on Ray": []}
    for rnd in range(args.rounds):
        for name, cmd in zip(walls, (cmd_seq, cmd_scan)):
            report.unlink(missing_ok=True)
            wall, _, p = timed(cmd)
            if name.startswith("sha1dc.scan"):
                lines = [json.loads(x) for x in report.read_text().splitlines()]
                assert len(lines) == len(repos) and sum(x["objects"]["total"] for x in lines) == objects, p.stderr
            walls[name].append(wall)
            print(f"round {rnd + 1}: {name}: {wall:.2f} s ({objects / wall:,.0f} objects/s)", flush=True)
    med = {k: statistics.median(v) for k, v in walls.items()}
    base, scan = med.values()
    for k, v in med.items():
        print(f"median {k}: {v:.2f} s, {objects / v:,.0f} objects/s, {sum(sizes) / 1e6 / v:.0f} MB of pack/s")
    print(f"scan throughput over git-sha1dc's: {base / scan:.3f}x")


def bench_pack(args: argparse.Namespace) -> None:
    (pack,) = (Path(args.snapshot) / "objects" / "pack").glob("*.pack")
    verify_cmd = [sys.executable, "-c", "import sha1dc,sys; r = sha1dc.verify(sys.argv[1], jobs=2); print(r.objects, r.bytes); sys.exit(r.exit)", str(pack)]
    cmd_cmd = [args.git_sha1dc, "-j", "2", "--quiet", str(pack)]
    times: dict[str, list[tuple[float, float]]] = {"git-sha1dc -j 2": [], "sha1dc.verify(jobs=2)": []}
    for rnd in range(args.rounds):
        for name, cmd in zip(times, (cmd_cmd, verify_cmd)):
            wall, cpu, p = timed(cmd)
            assert p.returncode == 0, p.stderr
            times[name].append((wall, cpu))
            print(f"round {rnd + 1}: {name} on git.git's pack: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
    n_objects, n_bytes = map(int, p.stdout.split())
    (cw, cc), (vw, vc) = ((statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for v in times.values())
    print(f"median git-sha1dc: {cw:.2f} s wall, {cc:.2f} s CPU; sha1dc.verify: {vw:.2f} s wall, {vc:.2f} s CPU")
    print(f"sha1dc.verify's time over git-sha1dc's: {vw / cw:.3f}x wall, {vc / cc:.3f}x CPU")
    size = pack.stat().st_size
    print(f"git.git's pack: {n_objects} objects, {n_bytes / 1e9:.2f} GB of content, {size / 1e6:.0f} MB of pack; "
          f"per core (git-sha1dc's CPU time): {n_objects / cc:,.0f} objects/s, {n_bytes / 1e6 / cc:.0f} MB of "
          f"content/s, {size / 1e6 / cc:.1f} MB of pack/s")


if __name__ == "__main__":
    main()
