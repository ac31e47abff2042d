"""The hashlib shape: known answers, the attributes and methods of a hashlib
object, hmac, and random chunkings and copy() mid-stream against one-shot
hashing and hashlib.sha1 (which detects nothing, so agrees on every message
that is not half of a collision)."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

import sha1dc

KNOWN = [
    (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    (b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    (b"a" * 1_000_000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
    (b"The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
]


@pytest.mark.parametrize("data,want", KNOWN, ids=range(len(KNOWN)))
def test_known_answers(data: bytes, want: str) -> None:
    assert sha1dc.sha1(data).hexdigest() == want
    assert sha1dc.sha1(data).digest() == bytes.fromhex(want)
    assert sha1dc.sha1(string=data).hexdigest() == want
    assert sha1dc.sha1(data=data, usedforsecurity=False).hexdigest() == want
    # Any value, as hashlib takes it.
    for flag in (0, 1, None, "no"):
        assert sha1dc.sha1(data, usedforsecurity=flag).hexdigest() == want
    assert sha1dc.hash(data).hexdigest() == want
    assert sha1dc.hash(data).sha1_hexdigest() == want
    assert sha1dc.sha1(data).collision is None


def test_attributes_as_hashlib() -> None:
    h, ref = sha1dc.sha1(), hashlib.sha1()
    assert (h.name, h.digest_size, h.block_size) == (ref.name, ref.digest_size, ref.block_size)
    assert isinstance(h, sha1dc.Hasher)
    assert h.backend in sha1dc.available_backends()
    assert "len=0" in repr(h)
    with pytest.raises(TypeError):
        sha1dc.Hasher()  # made by sha1() only, as hashlib's objects are


def test_digest_does_not_finish_the_message() -> None:
    h = sha1dc.sha1(b"ab")
    assert h.hexdigest() == hashlib.sha1(b"ab").hexdigest()
    h.update(b"c")
    assert h.hexdigest() == KNOWN[1][1]
    assert h.digest() == h.digest()
    assert h.outcome() == sha1dc.hash(b"abc")


def test_hmac_takes_it_as_digestmod() -> None:
    key, msg = b"key", b"The quick brown fox jumps over the lazy dog"
    want = hmac.new(key, msg, hashlib.sha1).hexdigest()
    assert want == "de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9"
    assert hmac.new(key, msg, sha1dc.sha1).hexdigest() == want
    assert hmac.digest(key, msg, sha1dc.sha1) == bytes.fromhex(want)


def feed(h: sha1dc.Hasher, data: bytes, rng: random.Random) -> None:
    """Updates `h` with `data` in random chunks, small and large."""
    at = 0
    while at < len(data):
        n = rng.randrange(1, 3000) if rng.random() < 0.8 else rng.randrange(1, len(data) + 1)
        h.update(data[at : at + n])
        at += n


def test_random_chunkings_and_copies() -> None:
    rng = random.Random(25)
    for _ in range(300):
        data = rng.randbytes(rng.choice([0, 1, 55, 64, 200, 4096, 70_000, 300_000]))
        want = hashlib.sha1(data).hexdigest()
        assert sha1dc.hash(data).hexdigest() == want
        cut = rng.randrange(len(data) + 1)
        h = sha1dc.sha1()
        feed(h, data[:cut], rng)
        copied = h.copy()
        feed(h, data[cut:], rng)
        assert h.hexdigest() == want
        # The copy goes on from the cut, on its own.
        feed(copied, data[cut:] + b"x", rng)
        assert copied.hexdigest() == hashlib.sha1(data + b"x").hexdigest()
        assert h.hexdigest() == want


def test_copy_mid_collision_keeps_the_report() -> None:
    from conftest import DATA

    pdf = (DATA / "shattered-1.pdf").read_bytes()
    whole = sha1dc.hash(pdf)
    for cut in (0, 100, 256, 300, 320, 64 * 1024, len(pdf)):
        h = sha1dc.sha1(pdf[:cut])
        c = h.copy()
        h.update(pdf[cut:])
        c.update(pdf[cut:])
        assert h.outcome() == c.outcome() == whole, cut
    assert whole.collision is not None and whole.collision.offset == 256


def test_options_change_only_what_they_say() -> None:
    from conftest import DATA

    pdf = (DATA / "shattered-2.prefix320.bin").read_bytes()
    plain = hashlib.sha1(pdf).hexdigest()
    default = sha1dc.sha1(pdf)
    assert default.hexdigest() != plain and default.sha1_hexdigest() == plain
    no_safe = sha1dc.sha1(pdf, safe_hash=False)
    assert no_safe.hexdigest() == plain and no_safe.collision == default.collision
    off = sha1dc.sha1(pdf, detect_collisions=False)
    assert off.hexdigest() == plain and off.collision is None
    assert sha1dc.sha1(pdf, use_filter=False).outcome() == default.outcome()
    c = default.collision
    assert c is not None
    assert (c.block, c.offset, c.dv, c.count) == (4, 256, "II(52,0)", 1)
    assert repr(c) == "Collision(block=4, offset=256, dv='II(52,0)', count=1)"
    assert hash(c) == hash(no_safe.collision)
    assert "29f38ae9fd98e2931120fa0bf213e024250d3f6a" in repr(default.outcome())


def test_file_digest_as_hashlib(tmp_path) -> None:
    import io

    data = random.Random(1).randbytes(3 << 20)
    p = tmp_path / "f"
    p.write_bytes(data)
    with open(p, "rb") as f:
        assert sha1dc.file_digest(f).hexdigest() == hashlib.file_digest(io.BytesIO(data), "sha1").hexdigest()
    with open(p, "rb", buffering=0) as f:
        assert sha1dc.file_digest(f, _bufsize=1000).digest() == hashlib.sha1(data).digest()
    assert sha1dc.file_digest(io.BytesIO(data), reduced_round=True).hexdigest() == hashlib.sha1(data).hexdigest()
    # hashlib's own file_digest takes the constructor, as it takes hashlib.sha1.
    with open(p, "rb") as f:
        h = hashlib.file_digest(f, sha1dc.sha1)
    assert isinstance(h, sha1dc.Hasher) and h.hexdigest() == hashlib.sha1(data).hexdigest()
