"""python -m sha1dc against the real sha1dcsum (built by `cargo build
--release --bin sha1dcsum`; SHA1DCSUM names another): the same standard
output and exit status for the common options, the same messages on
standard error but for the program's name."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sha1dc
from conftest import ROOT, unavailable

COLLISIONS = ["shattered-1.pdf", "shattered-2.prefix320.bin", "sha-mbles-1.bin"]
CLEAN = ["sha1_reducedsha_coll.bin", "ctrl-abc.bin", "ctrl-empty.bin", "ctrl-million-a.bin"]


def sha1dcsum() -> str:
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = os.environ.get("SHA1DCSUM", str(target / "release" / "sha1dcsum"))
    if not os.access(path, os.X_OK):
        unavailable(f"no sha1dcsum at {path} (cargo build --release --bin sha1dcsum)")
    return path


def run(cmd: list[str], cwd: Path, stdin: bytes = b"") -> tuple[bytes, bytes, int]:
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, timeout=120)
    return p.stdout, p.stderr, p.returncode


def same(cwd: Path, args: list[str], stdin: bytes = b"", stderr: bool = True) -> tuple[bytes, int]:
    """Runs both; asserts the same output, status (and messages)."""
    ref = run([sha1dcsum(), *args], cwd, stdin)
    ours = run([sys.executable, "-m", "sha1dc", *args], cwd, stdin)
    assert ours[0] == ref[0], args
    assert ours[2] == ref[2], (args, ours[1])
    if stderr:
        assert ours[1].replace(b"sha1dc:", b"sha1dcsum:") == ref[1], args
    return ref[0], ref[2]


@pytest.fixture(scope="module")
def work(files: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli")
    for name in COLLISIONS + CLEAN:
        (d / name).write_bytes((files / name).read_bytes())
    (d / "we\\ird\nname").write_bytes(b"x")
    (d / "coll* tricky").write_bytes(b"y")
    (d / "sub").mkdir()
    return d


HASHING = [
    [],
    ["-b"],
    ["-t"],
    ["--tag"],
    ["-z"],
    ["--no-safe-hash"],
    ["--reduced-round"],
    ["--git-blob"],
    ["--json"],
    ["--json", "--git-blob"],
    ["--tag", "--reduced-round", "--no-safe-hash"],
    ["-bz"],
    ["--backend", "portable"],
]


@pytest.mark.parametrize("opts", HASHING, ids=" ".join)
def test_hashing(work: Path, opts: list[str]) -> None:
    out, status = same(work, [*opts, *COLLISIONS, *CLEAN, "we\\ird\nname", "coll* tricky"])
    # As blobs, the collision files are no collisions (the header shifts them).
    assert status == (0 if "--git-blob" in opts else 3) and out


def test_statuses(work: Path) -> None:
    assert same(work, CLEAN)[1] == 0
    assert same(work, [*CLEAN, "missing"])[1] == 1
    assert same(work, [*COLLISIONS, "missing", "sub"])[1] == 1
    assert same(work, ["--bogus"], stderr=False)[1] == 2
    assert same(work, ["--backend", "sha3", "ctrl-abc.bin"], stderr=False)[1] == 2
    assert same(work, ["-"], stdin=(work / "sha-mbles-1.bin").read_bytes())[1] == 3
    assert same(work, [], stdin=b"abc")[1] == 0
    assert same(work, ["--git-blob", "-"], stdin=b"hello\n")[0].startswith(b"ce01362")


def test_the_options_are_sha1dcsums(work: Path) -> None:
    """sha1dcsum's parser and messages (its library, through the extension
    module): abbreviations, bundles, -j, --backends, GNU's words for bad
    usage; sha1dcsum's -r and --generate are refused (bad usage)."""
    assert same(work, ["--no-s", "--ta", "-j1", *COLLISIONS])[1] == 3
    assert same(work, ["-bz", "-j", "2", "--", *CLEAN])[1] == 0
    for bad in (["--s"], ["-x"], ["--json=1"], ["-c", "--tag"], ["--quiet"], ["-j", "0"]):
        ref = run([sha1dcsum(), *bad], work)
        ours = run([sys.executable, "-m", "sha1dc", *bad], work)
        assert ours[2] == ref[2] == 2 and ours[0] == ref[0] == b"", bad
        assert ours[1].replace(b"sha1dc", b"sha1dcsum") == ref[1], bad
    out, err, status = run([sys.executable, "-m", "sha1dc", "--backends"], work)
    assert (out.decode().split(), err, status) == (sha1dc.available_backends(), b"", 0)
    for refused, option in ((["-r", "sub"], b"--recursive"), (["--generate", "man"], b"--generate")):
        out, err, status = run([sys.executable, "-m", "sha1dc", *refused], work)
        assert (out, status) == (b"", 2) and err.startswith(b"sha1dc: " + option), err
    out, _, status = run([sys.executable, "-m", "sha1dc", "-h"], work)
    assert status == 0 and out.startswith(b"Usage: sha1dc [OPTIONS] [FILE|-]...\n")


def test_checking(work: Path) -> None:
    lists = {
        "plain": run([sha1dcsum(), *COLLISIONS, *CLEAN], work)[0],
        "tag": run([sha1dcsum(), "--tag", *COLLISIONS, *CLEAN], work)[0],
        "binary": run([sha1dcsum(), "-b", *CLEAN, "coll* tricky"], work)[0],
        "escaped": run([sha1dcsum(), "we\\ird\nname", "ctrl-abc.bin"], work)[0],
        "bad": b"# a comment\n\n" + b"0" * 40 + b"  ctrl-abc.bin\nnot a line\n" + b"0" * 40 + b"  missing\n"
        + run([sha1dcsum(), "ctrl-empty.bin"], work)[0],
        "none": b"junk\n",
        "missing": b"0" * 40 + b"  missing\n",
        "clean": run([sha1dcsum(), *CLEAN], work)[0],
        # A flagged file: its plain SHA-1 recorded (a collision), or neither
        # hash (a mismatch as well: status 1).
        "flagged-sha1": hashlib.sha1((work / "shattered-1.pdf").read_bytes()).hexdigest().encode()
        + b"  shattered-1.pdf\n",
        "flagged-neither": b"1" * 40 + b"  shattered-1.pdf\n",
    }
    for name, text in lists.items():
        (work / f"{name}.list").write_bytes(text)
    zero = run([sha1dcsum(), "-z", *CLEAN], work)[0]
    (work / "zero.list").write_bytes(zero)
    for opts in ([], ["--quiet"], ["--status"], ["-w"], ["--strict"], ["--ignore-missing"],
                 ["--status", "-w"], ["--status", "--quiet"], ["-w", "--quiet"], ["--quiet", "--status"]):
        for name in lists:
            same(work, ["-c", *opts, f"{name}.list"])
    assert same(work, ["-c", "clean.list"])[1] == 0
    assert same(work, ["-c", "plain.list"])[1] == 3
    assert same(work, ["-c", "bad.list"])[1] == 1
    assert same(work, ["-c", "flagged-sha1.list"])[1] == 3
    assert same(work, ["-c", "flagged-neither.list"])[1] == 1
    assert same(work, ["-cz", "zero.list"])[1] == 0
    assert same(work, ["-c", "-"], stdin=lists["tag"])[1] == 3
    assert same(work, ["-c", "nope.list"])[1] == 1


def test_a_closed_pipe(work: Path) -> None:
    """Standard output closed by its reader: quietly, status 141."""
    args = [sys.executable, "-m", "sha1dc", *["ctrl-abc.bin"] * 5000]
    p = subprocess.Popen(args, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.read(10)
    p.stdout.close()
    assert p.wait(timeout=120) == 141
    assert p.stderr.read() == b""


def test_help_and_version(work: Path) -> None:
    out, _, status = run([sys.executable, "-m", "sha1dc", "--help"], work)
    assert status == 0 and b"--check" in out
    out, _, status = run([sys.executable, "-m", "sha1dc", "--version"], work)
    assert status == 0 and out.startswith(b"sha1dc ")
