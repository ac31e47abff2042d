"""The type stubs: mypy's stubtest finds them equal to the module as built,
typed code using the package checks under mypy --strict, and so does the
package's own Python code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import need_module

USE = '''
import io
import sha1dc

h: sha1dc.Hasher = sha1dc.sha1(b"abc", safe_hash=False, backend=None)
h.update(bytearray(b"d"))
h.update(memoryview(b"e"))
digest: bytes = h.digest()
c = h.collision
block: int | None = c.block if c is not None else None
outcomes: sha1dc.Outcomes[sha1dc.Outcome] = sha1dc.hash_many([b"a", b"b"], parallel=False)
first: sha1dc.Outcome = outcomes[0]
hexes: list[str] = outcomes.hexdigests()
objects = sha1dc.hash_objects("blob", [b""])
offset: int | None = objects[0].collision_offset
streamed: sha1dc.ObjectOutcome = sha1dc.object_hasher("tree", 0).outcome()
file_hasher: sha1dc.Hasher = sha1dc.file_digest(io.BytesIO(b"x"))
report: sha1dc.Report = sha1dc.verify(".", content=True, jobs=None)
found: list[sha1dc.Finding] = list(sha1dc.verify_iter(b".git"))
pack_offset: int | None = report.findings[0].pack_offset if report.findings else None
damage: list[sha1dc.Damage] = report.damage
total: int = report.counts["total"] + report.bytes
document: str = report.to_json()
'''


def test_stubtest_finds_the_stubs_complete() -> None:
    need_module("mypy")
    p = subprocess.run([sys.executable, "-m", "mypy.stubtest", "sha1dc"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_typed_use_checks_strict(tmp_path: Path) -> None:
    need_module("mypy")
    f = tmp_path / "use.py"
    f.write_text(USE)
    bad = tmp_path / "bad.py"
    bad.write_text('import sha1dc\nsha1dc.sha1("text")\nsha1dc.hash_object("file", b"")\nsha1dc.verify(".", content=1.5)\n')
    ok = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(f)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout
    wrong = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(bad)], capture_output=True, text=True)
    assert wrong.returncode == 1 and "bad.py:2" in wrong.stdout and "bad.py:3" in wrong.stdout, wrong.stdout
    assert "bad.py:4" in wrong.stdout, wrong.stdout


def test_the_packages_python_checks_strict(tmp_path: Path) -> None:
    # __init__, the commands (python -m sha1dc, python -m sha1dc.scan) and
    # the stubs they use, as installed; Ray's own types for the scan.
    need_module("mypy")
    need_module("ray")
    p = subprocess.run([sys.executable, "-m", "mypy", "--strict", "-p", "sha1dc"], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stdout
