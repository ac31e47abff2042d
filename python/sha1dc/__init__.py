"""SHA-1 with collision detection, in the shape of :mod:`hashlib`.

``sha1dc.sha1()`` is a drop-in for ``hashlib.sha1()``: the same digest for
every message, except the halves of a SHA-1 collision (SHAttered, SHA-mbles
and any other attack on the 32 known disturbance vectors), which get a
*safe hash* that differs between the two, as git's sha1dc gives them. The
plain SHA-1 and the collision report are there beside it::

    >>> import sha1dc
    >>> sha1dc.sha1(b"abc").hexdigest()
    'a9993e364706816aba3e25717850c26c9cd0d89d'
    >>> sha1dc.sha1(b"abc").collision is None
    True
    >>> sha1dc.hash_object("blob", b"hello\\n").hexdigest()
    'ce013625030ba8dba906f756967f9e9ca394464a'

Every constructor and one-shot function takes the keyword options
``safe_hash``, ``detect_collisions``, ``reduced_round``, ``use_filter`` and
``backend``; the single-stream ones ``parallel`` too. Bytes-like objects are
read in place (bytes, bytearray, memoryview, mmap, array.array, NumPy
arrays) and hashed without the GIL.

``sha1dc.verify(path)`` checks every object of a git repository, pack,
bundle or loose-object store, as the ``git-sha1dc`` command does, and
returns a :class:`Report` (``verify_iter`` yields each :class:`Finding` as
it is found); ``report.to_json()`` is ``git-sha1dc --json``'s document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._sha1dc import (
    Collision,
    Damage,
    Finding,
    Hasher,
    ObjectHasher,
    ObjectOutcome,
    Outcome,
    Outcomes,
    Report,
    Verification,
    __version__,
    available_backends,
    hash,
    hash_many,
    hash_object,
    hash_objects,
    object_hasher,
    sha1,
    verify,
    verify_iter,
)

__all__ = [
    "Collision",
    "Damage",
    "Finding",
    "Hasher",
    "ObjectHasher",
    "ObjectOutcome",
    "Outcome",
    "Outcomes",
    "Report",
    "Verification",
    "__version__",
    "available_backends",
    "file_digest",
    "hash",
    "hash_many",
    "hash_object",
    "hash_objects",
    "object_hasher",
    "sha1",
    "verify",
    "verify_iter",
]

# An Outcomes is read as a list is.
Sequence.register(Outcomes)

# Large enough that an update may filter on a second thread (from 256 KiB)
# and that the thread's start is paid back.
_BUFSIZE = 1 << 20


def file_digest(fileobj: Any, /, *, _bufsize: int = _BUFSIZE, **options: Any) -> Hasher:
    """Hash the contents of a binary file object, as ``hashlib.file_digest``.

    *fileobj* is a file opened for reading in binary mode, an
    ``io.BytesIO`` or a socket file; it is read to its end. Returns the
    :class:`Hasher`, with the keyword *options* of :func:`sha1`. An error
    while reading is raised as it is, and no hasher is returned.
    """
    hasher = sha1(**options)
    if hasattr(fileobj, "getbuffer"):
        # io.BytesIO: its buffer, in place.
        hasher.update(fileobj.getbuffer())
        return hasher
    if not (
        hasattr(fileobj, "readinto")
        and hasattr(fileobj, "readable")
        and fileobj.readable()
    ):
        raise ValueError(
            f"{fileobj!r} is not a file object in binary reading mode "
            "(open it with 'rb')"
        )
    buf = bytearray(_bufsize)
    view = memoryview(buf)
    while True:
        size = fileobj.readinto(buf)
        if size is None:
            raise BlockingIOError(
                f"{fileobj!r} is non-blocking and has no data now: "
                "file_digest needs a blocking file"
            )
        if size == 0:
            return hasher
        hasher.update(view[:size])
