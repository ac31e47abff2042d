"""Bad input is an exception with a clear message, never a crash, and loses
nothing: wrong options, a file that fails half way, a non-blocking file."""

from __future__ import annotations

import hashlib
import io

import pytest

import sha1dc


@pytest.mark.parametrize(
    "call",
    [sha1dc.sha1, lambda **o: sha1dc.hash(b"", **o), lambda **o: sha1dc.hash_many([], **o),
     lambda **o: sha1dc.hash_object("blob", b"", **o), lambda **o: sha1dc.object_hasher("tree", 0, **o),
     lambda **o: sha1dc.hash_objects("tag", [], **o), lambda **o: sha1dc.file_digest(io.BytesIO(), **o)],
)
def test_options_are_checked(call) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'safehash'.*safe_hash"):
        call(safehash=False)
    with pytest.raises(TypeError, match="safe_hash must be True or False, not 'int'"):
        call(safe_hash=0)
    with pytest.raises(TypeError, match="backend must be a str or None"):
        call(backend=1)
    with pytest.raises(ValueError, match="sha3"):
        call(backend="sha3")
    call(backend=None, parallel=False, use_filter=True)


def test_sha1_arguments() -> None:
    with pytest.raises(TypeError, match="not both"):
        sha1dc.sha1(b"a", string=b"b")
    with pytest.raises(TypeError):
        sha1dc.sha1(b"a", b"b")
    with pytest.raises(TypeError):
        sha1dc.sha1(None)
    h = sha1dc.sha1()
    with pytest.raises(TypeError):
        h.update()
    with pytest.raises(TypeError):
        h.update(b"a", b"b")


class FailsHalfWay(io.RawIOBase):
    """A binary file whose third read fails."""

    def __init__(self) -> None:
        self.reads = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        self.reads += 1
        if self.reads == 3:
            raise OSError(5, "Input/output error")
        buf[:4] = b"data"
        return 4


class NonBlocking(FailsHalfWay):
    def readinto(self, buf):
        return None


def test_file_digest_errors(tmp_path) -> None:
    with pytest.raises(OSError, match="Input/output error"):
        sha1dc.file_digest(FailsHalfWay())
    with pytest.raises(BlockingIOError, match="non-blocking"):
        sha1dc.file_digest(NonBlocking())
    p = tmp_path / "t"
    p.write_text("text")
    with open(p) as f, pytest.raises(ValueError, match="binary reading mode"):
        sha1dc.file_digest(f)
    with pytest.raises(ValueError, match="binary reading mode"):
        sha1dc.file_digest(b"bytes")
    with open(p, "rb") as f:
        assert sha1dc.file_digest(f).hexdigest() == hashlib.sha1(b"text").hexdigest()


def test_a_hasher_stays_usable_after_errors() -> None:
    h = sha1dc.sha1(b"ab")
    for bad in ("str", 1, memoryview(b"abcdef")[::2]):
        with pytest.raises((TypeError, BufferError)):
            h.update(bad)
    h.update(b"c")
    assert h.hexdigest() == hashlib.sha1(b"abc").hexdigest()
