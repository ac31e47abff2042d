"""python -m sha1dc.scan and sha1dc.scan.scan on one local Ray of 2 CPUs
(started once for all of them), over a fleet of generated repositories:
some holding the public collision files, one with a damaged pack, one
unreadable, a few large enough to be caught running. The report names
exactly the findings planted, and each line is sha1dc.verify's document;
a worker killed in the middle changes nothing; an interrupted scan resumed
gives the uninterrupted report, no repository twice; a repository past the
time limit is reported as such; the command's status and summary."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import sha1dc
from conftest import DATA, need_module
from gitrepos import COLLISION_FILES, blob_id, damage_pack, make_repo

FLEET = 44


@pytest.fixture(scope="module")
def ray_cluster() -> Any:
    ray = need_module("ray")
    # "fleet-disk": a custom resource, as the nodes holding the repositories declare one.
    ray.init(
        num_cpus=2, resources={"fleet-disk": 8}, include_dashboard=False, log_to_driver=False, logging_level="WARNING"
    )
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The fleet's directory, its list file, and what each repository holds:
    the blob ids the content check must flag, and whether it is damaged."""
    d = tmp_path_factory.mktemp("fleet")
    root = d / "repos"
    want: dict[str, dict[str, Any]] = {}
    for i in range(FLEET):
        files = {f"file{j}.txt": f"repository {i}, file {j}\n".encode() * (i + 1) for j in range(1 + i % 3)}
        flagged = set()
        if i % 5 == 0:
            # Some with one or two of the collision files.
            for name in COLLISION_FILES[i % 4 : i % 4 + 1 + i % 2]:
                files[name] = (DATA / name).read_bytes()
                flagged.add(blob_id(files[name]))
        if i in (7, 19, 31):
            # Large enough to be caught running (hashed twice: tens of ms).
            files["zeros"] = bytes(48 << 20)
        # Nested one level for some: the directory search goes down.
        path = root / (f"group{i % 3}" if i % 2 else "") / f"repo{i:02}"
        make_repo(path, files, packed=i % 4 != 1, commits=1 + i % 2)
        want[str(path)] = {"flagged": flagged, "damaged": False}
    damaged = root / "repo02"
    (pack,) = (damaged / ".git" / "objects" / "pack").glob("*.pack")
    damage_pack(pack)
    want[str(damaged)]["damaged"] = True
    # Unreadable: a .git file pointing nowhere.
    unreadable = root / "group1" / "unreadable"
    unreadable.mkdir(parents=True)
    (unreadable / ".git").write_text("gitdir: /nonexistent/sha1dc-scan-test\n")
    want[str(unreadable)] = {"flagged": set(), "damaged": True}
    listed = d / "list.txt"
    listed.write_text("# the fleet, listed\n" + "".join(f"{p}\n" for p in sorted(want)))
    return {"dir": root, "list": listed, "want": want, "tmp": d}


def lines(report: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in report.read_text().splitlines()]


def as_set(report: Path) -> set[str]:
    """The report's lines without their timings, as a set (a scan's order
    is the order repositories finish)."""
    out = []
    for line in lines(report):
        line.pop("seconds", None)
        out.append(json.dumps(line, sort_keys=True))
    assert len(out) == len(set(out))
    return set(out)


@pytest.fixture(scope="module")
def baseline(ray_cluster: Any, fleet: dict[str, Any]) -> Path:
    """One uninterrupted scan of the fleet's directory."""
    from sha1dc.scan import scan

    report = fleet["tmp"] / "baseline.jsonl"
    summary = scan([fleet["dir"]], content=True, report=report)
    assert summary.exit == 3 and summary.repositories == len(fleet["want"]) == FLEET + 1
    return report


def test_the_report_names_the_findings(baseline: Path, fleet: dict[str, Any]) -> None:
    got = lines(baseline)
    counts = Counter(line["repository"] for line in got)
    assert set(counts) == set(fleet["want"]) and max(counts.values()) == 1
    for line in got:
        want = fleet["want"][line["repository"]]
        assert {f["id"] for f in line["findings"]} == want["flagged"], line["repository"]
        assert all(f["check"] == "content" for f in line["findings"])
        assert bool(line["damage"]) == want["damaged"], line["repository"]
        assert line["exit"] == (3 if want["flagged"] else 1 if want["damaged"] else 0)
        # Each line is sha1dc.verify's document.
        path = line.pop("repository")
        assert isinstance(line.pop("seconds"), float)
        assert line == json.loads(sha1dc.verify(path, content=True).to_json()), path
    assert sum(bool(w["flagged"]) for w in fleet["want"].values()) >= 8


def test_the_list_file_gives_the_same_report(baseline: Path, fleet: dict[str, Any]) -> None:
    from sha1dc.scan import scan

    report = fleet["tmp"] / "listed.jsonl"
    # The list, and the directory too: each repository once; the tasks
    # placed by a custom resource.
    scan([fleet["list"], fleet["dir"]], content=True, report=report, resources={"fleet-disk": 1})
    assert as_set(report) == as_set(baseline)


def worker_pids() -> list[int]:
    """The Ray workers running a verification (their process title)."""
    pids = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                    if f.read().startswith(b"ray::sha1dc_verify"):
                        pids.append(int(entry.name))
            except OSError:
                pass
    return pids


def test_a_killed_worker_changes_nothing(baseline: Path, fleet: dict[str, Any]) -> None:
    from sha1dc.scan import scan

    killed: list[int] = []
    stop = threading.Event()

    def killer() -> None:
        while not stop.is_set() and len(killed) < 2:
            for pid in worker_pids():
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                break
            time.sleep(0.002)

    t = threading.Thread(target=killer)
    t.start()
    report = fleet["tmp"] / "killed.jsonl"
    try:
        scan([fleet["dir"]], content=True, report=report, retries=5)
    finally:
        stop.set()
        t.join()
    assert killed, "no worker was caught running a verification"
    assert as_set(report) == as_set(baseline)


def test_interrupted_and_resumed(baseline: Path, fleet: dict[str, Any]) -> None:
    from sha1dc.scan import scan

    report = fleet["tmp"] / "resumed.jsonl"
    seen = []

    def interrupt(line: dict[str, Any]) -> None:
        seen.append(line["repository"])
        if len(seen) == FLEET // 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        scan([fleet["dir"]], content=True, report=report, on_line=interrupt)
    assert len(lines(report)) == FLEET // 2
    # Cut short in the middle of a line, as by a kill: that line is dropped.
    with open(report, "a") as f:
        f.write('{"repository": "' + str(fleet["dir"]))
    summary = scan([fleet["dir"]], content=True, report=report)
    assert summary.resumed == FLEET // 2 and summary.repositories == FLEET + 1
    assert summary.exit == 3
    assert as_set(report) == as_set(baseline)
    # Once more (the list as one path, not in a list): nothing left to do.
    again = scan(fleet["list"], content=True, report=report)
    assert again.resumed == again.repositories == FLEET + 1 and again.scanned_objects == 0
    assert as_set(report) == as_set(baseline)


def test_the_time_limit(ray_cluster: Any, fleet: dict[str, Any]) -> None:
    from sha1dc.scan import scan

    big = fleet["dir"] / "group1" / "repo07"
    small = fleet["dir"] / "repo00"
    listed = fleet["tmp"] / "timeout.txt"
    listed.write_text(f"{big}\n{small}\n")
    report = fleet["tmp"] / "timeout.jsonl"
    summary = scan([listed], content=True, report=report, timeout=0.005)
    got = {line["repository"]: line for line in lines(report)}
    assert got[str(big)].get("timeout") is True and got[str(big)]["exit"] == 1
    assert "timed out after 0.005 s" in got[str(big)]["damage"][0]["message"]
    assert summary.timeouts >= 1 and summary.damaged >= 1
    # The scan goes on after a timeout; a generous limit changes nothing.
    report2 = fleet["tmp"] / "no-timeout.jsonl"
    scan([listed], content=True, report=report2, timeout=600)
    assert all("timeout" not in line for line in lines(report2))


def test_the_command(ray_cluster: Any, baseline: Path, fleet: dict[str, Any]) -> None:
    address = ray_cluster.get_runtime_context().gcs_address
    report = fleet["tmp"] / "command.jsonl"
    cmd = [sys.executable, "-m", "sha1dc.scan", "--address", address, "--content", "--report", str(report)]
    p = subprocess.run([*cmd, str(fleet["list"])], capture_output=True, text=True, timeout=300)
    assert p.returncode == 3, p.stderr
    assert f"{FLEET + 1} repositories (0 from the report before)" in p.stderr
    assert "2 damaged" in p.stderr and "objects/s" in p.stderr
    assert as_set(report) == as_set(baseline)
    # Damage alone: status 1; nothing but clean repositories: 0.
    for repo, status in [(fleet["dir"] / "repo02", 1), (fleet["dir"] / "group1" / "repo01", 0)]:
        listed = fleet["tmp"] / f"one-{status}.txt"
        listed.write_text(f"{repo}\n")
        one = fleet["tmp"] / f"one-{status}.jsonl"
        more = ["-q", "--resource", "fleet-disk=0.5"]
        p = subprocess.run([*cmd[:-1], str(one), *more, str(listed)], capture_output=True, text=True, timeout=300)
        assert p.returncode == status, p.stderr
    p = subprocess.run([*cmd, str(fleet["tmp"] / "missing-list")], capture_output=True, text=True)
    assert p.returncode == 2 and "no such file" in p.stderr
