"""sha1dc.verify and verify_iter against the command `git-sha1dc` (the
same library behind both): on generated repositories holding the public
collision files (packed and loose), a bundle, damaged packs and paths that
name nothing verifiable, the same JSON document (with "bytes" added), the
same exit status and the same finding lines; the report's fields, the
iterator, the arguments refused, and the GIL released meanwhile."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import sha1dc
from gitrepos import (
    COLLISION_FILES,
    blob_id,
    collision_files,
    damage_pack,
    git,
    git_sha1dc,
    make_repo,
    object_sizes,
)
from conftest import DATA, runs_beside, trace


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every input compared, by name."""
    d = tmp_path_factory.mktemp("verify")
    packed = make_repo(d / "packed", collision_files(), packed=True, commits=2)
    loose = make_repo(d / "loose", collision_files(), packed=False)
    git("bundle", "create", "-q", str(d / "all.bundle"), "--all", cwd=packed)
    (pack,) = (packed / ".git" / "objects" / "pack").glob("*.pack")
    damaged = d / "damaged"
    damaged.mkdir()
    shutil.copy(pack, damaged / "d.pack")
    shutil.copy(pack.with_suffix(".idx"), damaged / "d.idx")
    damage_pack(damaged / "d.pack")
    shutil.copy(damaged / "d.pack", d / "indexless.pack")
    (d / "not-a-repo").mkdir()
    return {
        "packed": packed,
        "packed-git-dir": packed / ".git",
        "loose": loose,
        "bundle": d / "all.bundle",
        "pack": pack,
        "damaged-pack": damaged / "d.pack",
        "damaged-indexless": d / "indexless.pack",
        "missing": d / "missing",
        "not-a-repo": d / "not-a-repo",
        "not-an-object-file": DATA / "MANIFEST.tsv",
    }


def command(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([git_sha1dc(), *args, str(path)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("content", [False, True])
@pytest.mark.parametrize(
    "name",
    [
        "packed",
        "packed-git-dir",
        "loose",
        "bundle",
        "pack",
        "damaged-pack",
        "damaged-indexless",
        "missing",
        "not-a-repo",
        "not-an-object-file",
    ],
)
def test_the_commands_document(inputs: dict[str, Path], name: str, content: bool) -> None:
    path = inputs[name]
    args = ["--content"] if content else []
    ref = command(path, "--json", *args)
    want = json.loads(ref.stdout)
    report = sha1dc.verify(str(path), content=content, jobs=2)
    got = json.loads(report.to_json())
    assert isinstance(got.pop("bytes"), int)
    assert got == want
    assert report.exit == ref.returncode == want["exit"]
    assert report.counts == want["objects"] and report.objects == want["objects"]["total"]
    assert report.files == want["files"] and report.content_check is content
    assert [d.message for d in report.damage] == [d["message"] for d in want["damage"]]
    # The text form: each finding's line on standard output, as str().
    text = command(path, *args)
    assert sorted(str(f) for f in report.findings) == sorted(text.stdout.splitlines())
    assert text.returncode == ref.returncode


def test_object_check_clean_content_check_flags(inputs: dict[str, Path]) -> None:
    # Each file's first flagged block and its DV, as TRACE.txt has them.
    first = {t["file"]: t["full"][0] for t in trace() if t["file"] in COLLISION_FILES}
    want = {}
    for name in COLLISION_FILES:
        content = (DATA / name).read_bytes()
        _, offset, dv = first[name]
        want[blob_id(content)] = ("content", "blob", len(content), offset, dv)
    for name in ["packed", "loose", "bundle"]:
        clean = sha1dc.verify(inputs[name])
        assert clean.exit == 0 and clean.findings == [] and clean.damage == [], name
        flagged = sha1dc.verify(inputs[name], content=True)
        assert flagged.exit == 3 and flagged.damage == []
        got = {f.id: (f.check, f.kind, f.size, f.offset, f.dv) for f in flagged.findings}
        assert got == want, name
        assert len(flagged.findings) == len(want)
        assert all((f.pack_offset is None) == (name == "loose") for f in flagged.findings)


def test_counts_and_bytes_are_gits(inputs: dict[str, Path]) -> None:
    for name in ["packed", "loose"]:
        sizes = object_sizes(inputs[name])
        report = sha1dc.verify(inputs[name])
        assert report.objects == len(sizes) and report.bytes == sum(sizes), name
    assert sha1dc.verify(inputs["bundle"]).bytes == sum(object_sizes(inputs["packed"]))


def test_damage_is_reported_not_raised(inputs: dict[str, Path]) -> None:
    for name in ["damaged-pack", "damaged-indexless", "missing", "not-a-repo", "not-an-object-file"]:
        report = sha1dc.verify(inputs[name])
        assert report.exit == 1 and report.damage, name
        d = report.damage[0]
        assert str(inputs[name]) in str(d) and d.message in str(d)
    fifo = inputs["not-a-repo"].parent / "fifo.pack"
    os.mkfifo(fifo)
    # A FIFO is refused, not read (which would never end).
    report = sha1dc.verify(fifo)
    assert report.exit == 1 and len(report.damage) == 1
    assert json.loads(report.to_json())["damage"] == json.loads(command(fifo, "--json").stdout)["damage"]


def test_the_iterator_yields_the_findings(inputs: dict[str, Path]) -> None:
    v = sha1dc.verify_iter(inputs["packed"], content=True, jobs=1)
    assert iter(v) is v
    first = next(v)
    assert isinstance(first, sha1dc.Finding)
    rest = list(v)
    report = v.report()
    assert sorted([first, *rest], key=lambda f: f.id) == sorted(report.findings, key=lambda f: f.id)
    assert len(report.findings) == len(COLLISION_FILES)
    assert list(v) == [] and v.report().to_json() == report.to_json()
    # report() before iterating: waits for the end, the findings in it.
    assert len(sha1dc.verify_iter(inputs["loose"], content=True).report().findings) == len(COLLISION_FILES)
    # Abandoned half-way: nothing breaks.
    abandoned = sha1dc.verify_iter(inputs["packed"], content=True)
    next(abandoned)
    del abandoned
    assert sha1dc.verify(inputs["packed"], content=True).exit == 3


@pytest.mark.parametrize(
    "args,error",
    [
        ((3,), TypeError),
        ((None,), TypeError),
        ((".",), None),
    ],
)
def test_paths(args: tuple[object, ...], error: type[Exception] | None) -> None:
    if error is None:
        assert isinstance(sha1dc.verify(*args, jobs=1), sha1dc.Report)  # type: ignore[arg-type]
    else:
        with pytest.raises(error, match="path must be a str, bytes or os.PathLike"):
            sha1dc.verify(*args)  # type: ignore[arg-type]


def test_path_forms_agree(inputs: dict[str, Path]) -> None:
    p = inputs["packed"]
    docs = {sha1dc.verify(x).to_json() for x in (str(p), p, os.fsencode(p))}
    assert len(docs) == 1


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        ({"content": 1}, TypeError, "content"),
        ({"content": None}, TypeError, "content"),
        ({"jobs": "2"}, TypeError, "jobs must be an int or None"),
        ({"jobs": True}, TypeError, "jobs must be an int or None"),
        ({"jobs": 2.0}, TypeError, "jobs must be an int or None"),
        ({"jobs": 0}, ValueError, "jobs must be 1 or more"),
        ({"jobs": -3}, ValueError, "jobs must be 1 or more"),
        ({"threads": 2}, TypeError, "unexpected keyword argument"),
    ],
)
def test_wrong_arguments(inputs: dict[str, Path], kwargs: dict[str, object], error: type[Exception], match: str) -> None:
    for f in (sha1dc.verify, sha1dc.verify_iter):
        with pytest.raises(error, match=match):
            f(inputs["packed"], **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sha1dc.verify(inputs["packed"], True)  # type: ignore[misc]


def test_many_jobs_are_capped(inputs: dict[str, Path]) -> None:
    want = sha1dc.verify(inputs["packed"], content=True, jobs=1).to_json()
    assert sha1dc.verify(inputs["packed"], content=True, jobs=2**70).to_json() == want


def test_the_gil_is_released_while_verifying(tmp_path: Path) -> None:
    # 64 MiB of zeros, hashed twice (object and content): tens of ms.
    repo = make_repo(tmp_path / "big", {"zeros": bytes(64 << 20)}, packed=True)
    reports = runs_beside(
        [
            lambda: sha1dc.verify(repo, content=True, jobs=1),
            lambda: sha1dc.verify_iter(repo, content=True, jobs=1).report(),
        ]
    )
    assert [r.exit for r in reports] == [0, 0]
