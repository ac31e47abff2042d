"""The Python examples of python/README.md run as written (from the
repository's root, where their paths lead), in one namespace, in order; and
the package docstring's examples as doctests."""

from __future__ import annotations

import contextlib
import doctest
import io
import re

import pytest

import sha1dc
from conftest import ROOT


def test_package_docstring_examples() -> None:
    failed, attempted = doctest.testmod(sha1dc)
    assert attempted >= 3 and failed == 0


def test_readme_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "python" / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "python/README.md", "exec"), namespace)
    printed = out.getvalue()
    assert "16e96b70000dd1e7c85b8368ee197754400e58ec" in printed
    assert "Collision(block=4, offset=256, dv='II(52,0)', count=1)" in printed
    assert "[2]" in printed
    # sha1dc.verify on this repository, whose tests/data holds the PDFs.
    assert "content ba9aaa145ccd24ef760cf31c74d8f7ca1a2e47b0 blob 422435 256 II(52,0)" in printed
    assert "3 True True" in printed and "not a git repository" in printed
