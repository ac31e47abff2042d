"""Shared by the tests: the public test files, their reference results, and
the rule that a check which cannot run fails under CI (the env var CI set)
instead of being skipped."""

from __future__ import annotations

import importlib.util
import os
import re
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

import sha1dc

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def pytest_sessionstart(session: pytest.Session) -> None:
    # The tests run against the installed package, not python/sha1dc/ (which
    # has no compiled module).
    assert Path(sha1dc.__file__).parent != ROOT / "python" / "sha1dc", sha1dc.__file__


def unavailable(reason: str) -> None:
    """Skips the test, or fails it under CI, where every check must run."""
    if os.environ.get("CI"):
        pytest.fail(f"under CI this check must run: {reason}")
    pytest.skip(reason)


def need_module(name: str):
    """The module, imported; unavailable() when it is not installed."""
    if importlib.util.find_spec(name) is None:
        unavailable(f"{name} is not installed (python3 -m pip install {name})")
    return __import__(name)


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with every file MANIFEST.tsv names: the public collision
    files, and the control inputs tests/data/gen_controls.py writes."""
    d = tmp_path_factory.mktemp("vectors")
    spec = importlib.util.spec_from_file_location("gen_controls", DATA / "gen_controls.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    gen.main(str(d))
    for row in manifest():
        target = d / row["file"]
        if not target.exists():
            target.symlink_to(DATA / row["file"])
    return d


def manifest() -> list[dict[str, str]]:
    """The rows of MANIFEST.tsv, one dict per file."""
    lines = (DATA / "MANIFEST.tsv").read_text().splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line]


def trace() -> list[dict]:
    """TRACE.txt, one dict per file: its output and flag in every mode
    (`modes`: {(detect, safe, ubc, rr): (hex, flagged)}) and the first
    flagged block and its DV without and with reduced-round detection."""
    out: list[dict] = []
    for line in (DATA / "TRACE.txt").read_text().splitlines():
        if line.startswith("file="):
            out.append({"file": line.split()[0][5:], "modes": {}, "full": [], "rr": []})
        elif m := re.match(r"\s+detect=off\s+: ([0-9a-f]{40}) coll=(\d)", line):
            out[-1]["modes"][(False, True, True, False)] = (m[1], m[2] == "1")
        elif m := re.match(r"\s+safe=(\d) ubc=(\d) rr=(\d)[^:]*: ([0-9a-f]{40}) coll=(\d)", line):
            key = (True, m[1] == "1", m[2] == "1", m[3] == "1")
            out[-1]["modes"][key] = (m[4], m[5] == "1")
        elif m := re.match(r"\s+\[(full|rr)\] block (\d+) \(byte offset (\d+)\): DV (\S+)", line):
            out[-1][m[1]].append((int(m[2]), int(m[3]), m[4]))
    return out


def runs_beside(calls: Iterable[Callable[[], object]]) -> list[object]:
    """Runs each call while another thread counts, and asserts that the
    count moved a lot meanwhile: the call released the GIL (held through
    the call, the counter could only move at the switch interval, 5 ms, a
    handful of times at most). Returns what the calls returned."""
    started, done = threading.Event(), threading.Event()
    ticks = 0

    def count() -> None:
        nonlocal ticks
        started.wait()
        while not done.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    results = []
    try:
        for call in calls:
            before = ticks
            started.set()
            results.append(call())
            assert ticks - before > 10_000, call
    finally:
        done.set()
        t.join()
    return results
