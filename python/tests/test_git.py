"""Git object ids: known ids, the shared DERIVED.tsv (the collision files as
blobs), streaming with the length first, and its errors."""

from __future__ import annotations

import hashlib

import pytest

import sha1dc
from conftest import DATA


@pytest.mark.parametrize(
    "kind,content,want",
    [
        ("blob", b"", "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"),
        ("blob", b"hello\n", "ce013625030ba8dba906f756967f9e9ca394464a"),
        ("tree", b"", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
        ("commit", b"x", hashlib.sha1(b"commit 1\0x").hexdigest()),
        ("tag", b"object 0\n", hashlib.sha1(b"tag 9\0object 0\n").hexdigest()),
    ],
)
def test_known_ids(kind: str, content: bytes, want: str) -> None:
    o = sha1dc.hash_object(kind, content)
    assert o.hexdigest() == want and o.sha1_hexdigest() == want
    assert isinstance(o, sha1dc.Outcome) and o.kind == kind
    assert o.header_len == len(f"{kind} {len(content)}\0")
    h = sha1dc.object_hasher(kind, len(content))
    h.update(content)
    assert h.hexdigest() == want and h.digest() == bytes.fromhex(want)
    assert h.outcome() == o
    assert h.kind == kind
    assert repr(o).startswith(f"ObjectOutcome(kind='{kind}'")


def test_derived_blob_ids() -> None:
    rows = [line.split("\t") for line in (DATA / "DERIVED.tsv").read_text().splitlines()[1:] if line]
    assert len(rows) >= 4
    for row in rows:
        name = row[0].split(" + ")[1]
        content = (DATA / name).read_bytes()
        o = sha1dc.hash_object("blob", content)
        assert o.hexdigest() == row[4] and o.sha1_hexdigest() == row[2], name
        assert (o.collision is not None) == (row[3] == "yes")
        h = sha1dc.object_hasher("blob", len(content), parallel=False)
        for i in range(0, len(content), 5000):
            h.update(content[i : i + 5000])
        assert h.outcome() == o


def test_the_length_is_checked_and_the_hasher_goes_on() -> None:
    h = sha1dc.object_hasher("blob", 6)
    h.update(b"hello")
    with pytest.raises(ValueError, match="announced as 6 bytes, but 5"):
        h.outcome()
    with pytest.raises(ValueError, match="announced"):
        h.hexdigest()
    c = h.copy()
    h.update(b"\n")
    assert h.hexdigest() == "ce013625030ba8dba906f756967f9e9ca394464a"
    c.update(b"!!")
    with pytest.raises(ValueError, match="but 7 bytes"):
        c.digest()
    assert "content_len=7" in repr(c)


def test_bad_kinds_and_lengths() -> None:
    with pytest.raises(ValueError, match="unknown git object kind 'Blob'"):
        sha1dc.hash_object("Blob", b"")
    with pytest.raises(ValueError):
        sha1dc.object_hasher("file", 0)
    with pytest.raises(OverflowError):
        sha1dc.object_hasher("blob", -1)
    with pytest.raises(TypeError):
        sha1dc.object_hasher("blob", "6")
    with pytest.raises(TypeError):
        sha1dc.hash_object("blob", "text")
