"""Benchmarks of the Python package against hashlib.sha1 (OpenSSL, plain
SHA-1, no detection), in the same run, interleaved:

    python3 python/bench.py [--rounds N]      (default 9)

- one large buffer (1, 4 and 64 MiB): sha1dc on one thread, on two
  (parallel=True, the default), and without detection; 4 MiB on each
  backend this CPU runs;
- many small messages (10,000 x 64 B, 10,000 of git-like sizes): the batch
  call (.digests()) against a Python loop over hashlib.sha1, and git blobs
  (hash_objects) against a loop that prepends the header;
- four threads, each hashing its own 128 KiB buffer (below the size where
  one call takes a second thread) 64 times, against one thread hashing the
  four in turn.

Each figure is the minimum over the rounds (wall clock; CPU time, of all
threads, beside it): the machine may be busy, and the minimum is the run
least disturbed. Ratios are against hashlib's figure of the same round set.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import platform
import random
import ssl
import sys
import threading
import time
from typing import Callable

# The installed package, not python/sha1dc/ beside this file (which has no
# compiled module): the script's own directory leaves the path.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
import sha1dc  # noqa: E402


def cpu() -> str:
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        return platform.processor() or platform.machine()
    return "{} (vendor {}, family {}, model {}), {} CPUs".format(
        fields.get("model name", "?"), fields.get("vendor_id", "?"),
        fields.get("cpu family", "?"), fields.get("model", "?"), os.cpu_count())


def measure(contenders: dict[str, Callable[[], object]], rounds: int) -> dict[str, tuple[float, float]]:
    """The minimum wall and CPU seconds of each contender, interleaved."""
    best = {name: (math.inf, math.inf) for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            wall, cpu_time = time.perf_counter(), time.process_time()
            run()
            wall, cpu_time = time.perf_counter() - wall, time.process_time() - cpu_time
            w, c = best[name]
            best[name] = (min(w, wall), min(c, cpu_time))
    return best


def table(title: str, best: dict[str, tuple[float, float]], reference: str, size: int | None) -> None:
    print(f"\n{title}")
    ref_wall, ref_cpu = best[reference]
    for name, (wall, cpu_time) in best.items():
        speed = f"{size / wall / 2**20:8.0f} MiB/s" if size else f"{wall * 1e3:8.2f} ms  "
        print(f"  {name:<52} {speed}   {ref_wall / wall:5.2f}x wall   {ref_cpu / cpu_time:5.2f}x CPU")


def large(rounds: int) -> None:
    rng = random.Random(1)
    for size in (1 << 20, 4 << 20, 64 << 20):
        data = rng.randbytes(size)
        best = measure({
            "hashlib.sha1": lambda: hashlib.sha1(data).digest(),
            "sha1dc.sha1, one thread (parallel=False)": lambda: sha1dc.sha1(data, parallel=False).digest(),
            "sha1dc.sha1, two threads (the default)": lambda: sha1dc.sha1(data).digest(),
            "sha1dc.sha1, detection off": lambda: sha1dc.sha1(data, detect_collisions=False).digest(),
        }, rounds if size < (64 << 20) else max(3, rounds // 3))
        table(f"one buffer of {size >> 20} MiB (x = speed over hashlib)", best, "hashlib.sha1", size)


def backends(rounds: int) -> None:
    data = random.Random(2).randbytes(4 << 20)
    contenders: dict[str, Callable[[], object]] = {"hashlib.sha1": lambda: hashlib.sha1(data).digest()}
    for name in sha1dc.available_backends():
        contenders[f"sha1dc.sha1(backend={name!r}), one thread"] = (
            lambda name=name: sha1dc.sha1(data, backend=name, parallel=False).digest()
        )
    table("one buffer of 4 MiB on each backend", measure(contenders, rounds), "hashlib.sha1", len(data))


def batches(rounds: int) -> None:
    rng = random.Random(20261201)
    sets = {
        "10,000 x 64 B": [rng.randbytes(64) for _ in range(10_000)],
        # The sizes of scripts/bench-sha1dcsum.sh's git-like files:
        # log-normal, median 6 KiB.
        "10,000 of git-like sizes (median 6 KiB)": [
            rng.randbytes(int(rng.lognormvariate(math.log(6144), 1.0))) for _ in range(10_000)
        ],
    }
    for title, msgs in sets.items():
        size = sum(map(len, msgs))
        best = measure({
            "loop over hashlib.sha1": lambda: [hashlib.sha1(m).digest() for m in msgs],
            "sha1dc.hash_many().digests()": lambda: sha1dc.hash_many(msgs).digests(),
            "sha1dc.hash_many(parallel=False).digests()": lambda: sha1dc.hash_many(msgs, parallel=False).digests(),
            "list(sha1dc.hash_many()) (Outcome objects)": lambda: list(sha1dc.hash_many(msgs)),
            "loop over sha1dc.sha1": lambda: [sha1dc.sha1(m).digest() for m in msgs],
        }, rounds)
        table(f"{title}, {size / 2**20:.1f} MiB", best, "loop over hashlib.sha1", None)
        best = measure({
            "loop over hashlib.sha1(header + content)": lambda: [
                hashlib.sha1(b"blob %d\0" % len(m) + m).digest() for m in msgs
            ],
            "sha1dc.hash_objects('blob').digests()": lambda: sha1dc.hash_objects("blob", msgs).digests(),
            "sha1dc.hash_objects(parallel=False)": lambda: sha1dc.hash_objects("blob", msgs, parallel=False).digests(),
        }, rounds)
        table(f"{title} as git blobs", best, "loop over hashlib.sha1(header + content)", None)


def threads(rounds: int) -> None:
    rng = random.Random(3)
    bufs = [rng.randbytes(128 << 10) for _ in range(4)]
    times = 64

    def hash_each(h: Callable[[bytes], object], buf: bytes) -> None:
        for _ in range(times):
            h(buf)

    def one(h: Callable[[bytes], object]) -> None:
        for buf in bufs:
            hash_each(h, buf)

    def four(h: Callable[[bytes], object]) -> None:
        ts = [threading.Thread(target=hash_each, args=(h, buf)) for buf in bufs]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    def ours(b: bytes) -> bytes:
        return sha1dc.sha1(b).digest()

    def theirs(b: bytes) -> bytes:
        return hashlib.sha1(b).digest()

    best = measure({
        "sha1dc, one thread": lambda: one(ours),
        "sha1dc, four threads": lambda: four(ours),
        "hashlib, one thread": lambda: one(theirs),
        "hashlib, four threads": lambda: four(theirs),
    }, rounds)
    print(f"\nfour buffers of 128 KiB, each hashed {times} times (32 MiB in all)")
    for name, (wall, cpu_time) in best.items():
        print(f"  {name:<52} {wall * 1e3:8.2f} ms wall  {cpu_time * 1e3:8.2f} ms CPU")
    for lib in ("sha1dc", "hashlib"):
        ratio = best[f"{lib}, four threads"][0] / best[f"{lib}, one thread"][0]
        print(f"  {lib}: four threads take {ratio:.2f}x one thread's wall time")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    print(f"CPU: {cpu()}")
    print(f"Python {platform.python_version()}, hashlib on {ssl.OPENSSL_VERSION}; "
          f"sha1dc {sha1dc.__version__}, backend {sha1dc.sha1().backend}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at the start: {load:.1f}; minimum of {args.rounds} interleaved rounds")
    large(args.rounds)
    backends(args.rounds)
    batches(args.rounds)
    threads(args.rounds)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
