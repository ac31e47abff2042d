"""hash_many and hash_objects: every outcome equal to hashing its message
alone (collisions included), large batches on two threads included, and the
Outcomes sequence."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import sha1dc
from conftest import DATA

COLLIDING = [(DATA / n).read_bytes() for n in ("shattered-1.prefix320.bin", "sha-mbles-2.bin", "sha1_reducedsha_coll.bin")]


def messages(seed: int, count: int, big: bool = False) -> list[bytes]:
    rng = random.Random(seed)
    sizes = [0, 1, 55, 56, 63, 64, 65, 119, 128, 1000, 4096]
    out = [rng.randbytes(rng.choice(sizes) if not big else rng.randrange(100_000)) for _ in range(count)]
    for m in COLLIDING:
        out.insert(rng.randrange(len(out) + 1), m)
    return out


@pytest.mark.parametrize("opts", [{}, {"reduced_round": True}, {"safe_hash": False}, {"parallel": False},
                                  {"detect_collisions": False}, {"backend": "portable"}], ids=repr)
def test_batch_equals_one_by_one(opts: dict) -> None:
    for seed, count, big in [(1, 0, False), (2, 1, False), (3, 100, False), (4, 40, True)]:
        msgs = messages(seed, count, big)
        batch = sha1dc.hash_many(msgs, **opts)
        assert len(batch) == len(msgs)
        assert list(batch) == [sha1dc.hash(m, **opts) for m in msgs]
        assert batch.digests() == [sha1dc.sha1(m, **opts).digest() for m in msgs]
        assert batch.hexdigests() == [o.hexdigest() for o in batch]
        assert batch.flagged() == [i for i, o in enumerate(batch) if o.collision is not None]
        objects = sha1dc.hash_objects("blob", msgs, **opts)
        assert list(objects) == [sha1dc.hash_object("blob", m, **opts) for m in msgs]


def test_a_large_batch_is_split_and_still_exact() -> None:
    """A large batch is cut into jobs that two threads take in turn."""
    msgs = messages(5, 20_000)
    assert sum(map(len, msgs)) > 1 << 20
    two = sha1dc.hash_many(msgs)
    one = sha1dc.hash_many(msgs, parallel=False)
    assert two.digests() == one.digests() == [sha1dc.hash(m).digest() for m in msgs]
    assert len(two.flagged()) == 2 == len(sha1dc.hash_many(msgs, reduced_round=True).flagged()) - 1
    # One huge message among small ones: a job of its own.
    lopsided = [bytes(3 << 20)] + msgs[:50]
    assert sha1dc.hash_many(lopsided).digests() == [sha1dc.hash(m).digest() for m in lopsided]


def test_outcomes_is_a_read_only_sequence() -> None:
    msgs = [b"a", b"b", COLLIDING[0], b"c"]
    out = sha1dc.hash_many(iter(msgs))
    assert isinstance(out, Sequence) and isinstance(out, sha1dc.Outcomes)
    # Sequence's methods, as a registered Sequence promises.
    assert out.count(out[0]) == sum(1 for o in out if o == out[0])
    assert out.index(out[-1]) == min(i for i, o in enumerate(out) if o == out[-1])
    with pytest.raises(ValueError):
        out.index(out[0], 1, 1)
    assert out.count("not an outcome") == 0
    assert out[0] == sha1dc.hash(b"a") and out[-1] == sha1dc.hash(b"c")
    assert out[1:3] == [sha1dc.hash(b"b"), sha1dc.hash(COLLIDING[0])]
    assert out[::-2] == [out[3], out[1]]
    assert out.flagged() == [2]
    assert "4 messages, 1 flagged" in repr(out)
    with pytest.raises(IndexError, match="out of range"):
        out[4]
    with pytest.raises(IndexError):
        out[-5]
    with pytest.raises(TypeError, match="integers or slices"):
        out["0"]
    with pytest.raises(TypeError):
        out[0] = out[1]  # type: ignore[index]
    it = iter(out)
    assert next(it) == out[0]
    assert list(it) == list(out)[1:]
    assert list(it) == []
    assert sha1dc.Outcomes[sha1dc.Outcome] is not None


def test_objects_report_the_content_offset() -> None:
    objs = sha1dc.hash_objects("commit", [b"", b"tree x\n"])
    assert all(isinstance(o, sha1dc.ObjectOutcome) and o.kind == "commit" for o in objs)
    assert objs[0].header_len == len(b"commit 0\0")
    assert objs[0].collision_offset is None
    assert "commit objects" in repr(objs)


def test_bad_items_are_named() -> None:
    with pytest.raises(TypeError, match=r"hash_many\(\): item 2: .*'int'") as e:
        sha1dc.hash_many([b"a", bytearray(b"b"), 3])
    assert isinstance(e.value.__cause__, TypeError)
    with pytest.raises(BufferError, match="item 1"):
        sha1dc.hash_many([b"a", memoryview(b"abcd")[::2]])
    with pytest.raises(TypeError, match="not one 'bytes'"):
        sha1dc.hash_many(b"abc")
    with pytest.raises(TypeError, match="iterable"):
        sha1dc.hash_many(5)
    with pytest.raises(TypeError, match="encode"):
        sha1dc.hash_objects("blob", ["text"])
    with pytest.raises(ValueError, match="'blob', 'tree'"):
        sha1dc.hash_objects("file", [b""])

    def failing():
        yield b"a"
        raise OSError("the source failed half way")

    with pytest.raises(OSError, match="half way"):
        sha1dc.hash_many(failing())
