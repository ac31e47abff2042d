"""Threads: the GIL is released while hashing (another thread runs
meanwhile), threads hashing at once get exact results, and threads sharing
one hasher are serialised as with hashlib."""

from __future__ import annotations

import hashlib
import random
import threading

import sha1dc
from conftest import runs_beside


def test_the_gil_is_released_while_hashing() -> None:
    # Slow on purpose (no filter: every block recompressed): tens of ms.
    data = bytes(8 << 20)
    runs_beside(
        [
            lambda: sha1dc.sha1(data, use_filter=False, parallel=False),
            lambda: sha1dc.hash(data, use_filter=False),
            lambda: sha1dc.hash_many([data[: 1 << 20]] * 8, use_filter=False),
            lambda: sha1dc.hash_object("blob", data, use_filter=False),
        ]
    )


def test_threads_hashing_at_once() -> None:
    rng = random.Random(3)
    bufs = [rng.randbytes(rng.randrange(1, 300_000)) for _ in range(16)]
    want = [hashlib.sha1(b).hexdigest() for b in bufs]
    got: dict[int, str] = {}

    def work(i: int) -> None:
        for _ in range(3):
            h = sha1dc.sha1()
            h.update(bufs[i][:1000])
            h.update(bufs[i][1000:])
            got[i] = h.hexdigest()
            assert sha1dc.hash_many([bufs[i]] * 3).hexdigests() == [want[i]] * 3

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(bufs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[i] for i in range(len(bufs))] == want


def test_threads_sharing_one_hasher() -> None:
    chunk = bytes(range(256)) * 1024  # 256 KiB: hashed without the GIL
    h = sha1dc.sha1()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(8):
                h.update(chunk)
                h.copy().hexdigest()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # Every update went in whole: the same chunk 32 times, in any order.
    assert h.hexdigest() == hashlib.sha1(chunk * 32).hexdigest()
