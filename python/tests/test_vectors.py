"""Every public collision file and control input, in every mode TRACE.txt
records (detection off; safe hash, filter and reduced-round detection on and
off), through every way of hashing: the constructor, one-shot, batch,
file_digest, random chunks, one thread and two. Reference: the original C
library's results (MANIFEST.tsv, TRACE.txt)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import sha1dc
from conftest import manifest, trace

TRACE = trace()
PLAIN = {row["file"]: row["sha1_plain_hex"] for row in manifest()}
MODES = [(t["file"], key) for t in TRACE for key in sorted(t["modes"])]


def options(key: tuple[bool, bool, bool, bool]) -> dict[str, bool]:
    detect, safe, ubc, rr = key
    return {"detect_collisions": detect, "safe_hash": safe, "use_filter": ubc, "reduced_round": rr}


def ways(data: bytes, path: Path, opts: dict[str, bool]) -> dict[str, sha1dc.Outcome]:
    """The outcome of `data` by each way of hashing it."""
    rng = random.Random(len(data))
    chunked = sha1dc.sha1(**opts)
    at = 0
    while at < len(data):
        n = rng.choice([1, 17, 63, 64, 65, 1000, 65536, 300_000])
        chunked.update(data[at : at + n])
        at += n
    with open(path, "rb") as f:
        from_file = sha1dc.file_digest(f, **opts).outcome()
    return {
        "sha1()": sha1dc.sha1(data, **opts).outcome(),
        "sha1(parallel=False)": sha1dc.sha1(data, parallel=False, **opts).outcome(),
        "hash()": sha1dc.hash(data, **opts),
        "hash_many()": sha1dc.hash_many([b"abc", data, b""], **opts)[1],
        "file_digest()": from_file,
        "chunks": chunked.outcome(),
    }


def test_the_reference_tables_agree() -> None:
    """MANIFEST.tsv's default and reduced-round outputs are TRACE.txt's."""
    by_file = {t["file"]: t["modes"] for t in TRACE}
    assert set(by_file) == set(PLAIN)
    for row in manifest():
        modes = by_file[row["file"]]
        assert modes[(True, True, True, False)] == (row["sha1dc_output_hex"], row["collision_detected"] == "yes")
        rr = (row["sha1dc_partialcoll_output_hex"], row["reduced_round_collision_detected"] == "yes")
        assert modes[(True, True, True, True)] == rr


@pytest.mark.parametrize("name,key", MODES, ids=[f"{f}-{k}" for f, k in MODES])
def test_every_file_in_every_mode(files: Path, name: str, key: tuple[bool, bool, bool, bool]) -> None:
    t = next(t for t in TRACE if t["file"] == name)
    want_hex, want_flag = t["modes"][key]
    path = files / name
    data = path.read_bytes()
    # The first flagged block and the count of flagged blocks, as the
    # reference traced them (without, or with, reduced-round detection).
    flagged = t["rr" if key[3] else "full"]
    for way, outcome in ways(data, path, options(key)).items():
        assert outcome.hexdigest() == want_hex, way
        assert outcome.digest() == bytes.fromhex(want_hex), way
        assert outcome.sha1_hexdigest() == PLAIN[name], way
        assert (outcome.collision is not None) == want_flag, way
        if want_flag:
            c = outcome.collision
            assert c is not None
            block, offset, dv = flagged[0]
            assert (c.block, c.offset, c.dv) == (block, offset, dv), way
            # The trace follows the plain chain; the safe hash changes the
            # chain after the first flagged block, so a later one (SHAttered's
            # block 4 with reduced-round detection) may no longer collide.
            blocks = len({b for b, _, _ in flagged})
            if key[1]:
                assert 1 <= c.count <= blocks, way
            else:
                assert c.count == blocks, way


def test_every_backend_on_the_collisions(files: Path) -> None:
    """Each backend this CPU runs gives the reference's default outputs."""
    backends = sha1dc.available_backends()
    assert "portable" in backends
    for backend in backends:
        for row in manifest():
            data = (files / row["file"]).read_bytes()
            o = sha1dc.hash(data, backend=backend)
            assert o.hexdigest() == row["sha1dc_output_hex"], (backend, row["file"])
            assert (o.collision is not None) == (row["collision_detected"] == "yes")
            assert sha1dc.sha1(backend=backend).backend == backend


def test_prefixes_of_the_control(files: Path) -> None:
    """LENGTHS.tsv: prefixes of the 1 MiB control at block and buffer edges."""
    from conftest import DATA

    data = (files / "ctrl-splitmix64-1MiB.bin").read_bytes()
    rows = [line.split("\t") for line in (DATA / "LENGTHS.tsv").read_text().splitlines()[1:] if line]
    assert len(rows) > 10
    lengths = [int(n) for n, _ in rows]
    outcomes = sha1dc.hash_many([memoryview(data)[:n] for n in lengths])
    for (n, want), outcome in zip(rows, outcomes):
        assert outcome.hexdigest() == want, n
        assert sha1dc.hash(data[: int(n)]).hexdigest() == want, n
