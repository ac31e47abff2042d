"""Type stubs of the extension module (python/src/*.rs)."""

from collections.abc import Iterable, Iterator
from typing import Generic, Literal, TypeVar, final, overload

from types import GenericAlias

from typing_extensions import Buffer, disjoint_base

__all__ = [
    "Collision",
    "Hasher",
    "ObjectHasher",
    "ObjectOutcome",
    "Outcome",
    "Outcomes",
    "__version__",
    "available_backends",
    "hash",
    "hash_many",
    "hash_object",
    "hash_objects",
    "object_hasher",
    "sha1",
]

__version__: str

_ObjectKind = Literal["blob", "tree", "commit", "tag"]

_O = TypeVar("_O", bound=Outcome, covariant=True)

@final
class Collision:
    """Where a collision was detected: the first flagged block."""

    @property
    def block(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def dv(self) -> str: ...
    @property
    def count(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@disjoint_base
class Outcome:
    """What hashing a message found."""

    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...
    def sha1_digest(self) -> bytes: ...
    def sha1_hexdigest(self) -> str: ...
    @property
    def collision(self) -> Collision | None: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class ObjectOutcome(Outcome):
    """The Outcome of a git object: digest() is its id."""

    @property
    def kind(self) -> _ObjectKind: ...
    @property
    def header_len(self) -> int: ...
    @property
    def collision_offset(self) -> int | None: ...

@final
class Outcomes(Generic[_O]):
    """The outcomes of a batch, in order: a read-only sequence."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> _O: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[_O]: ...
    def __iter__(self) -> Iterator[_O]: ...
    def digests(self) -> list[bytes]: ...
    def hexdigests(self) -> list[str]: ...
    def flagged(self) -> list[int]: ...
    def __class_getitem__(cls, key: object) -> GenericAlias: ...

@final
class Hasher:
    """A SHA-1 hash object with collision detection (what sha1() returns)."""

    def update(self, data: Buffer, /) -> None: ...
    def outcome(self) -> Outcome: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...
    def sha1_digest(self) -> bytes: ...
    def sha1_hexdigest(self) -> str: ...
    @property
    def collision(self) -> Collision | None: ...
    def copy(self) -> Hasher: ...
    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def block_size(self) -> int: ...
    @property
    def backend(self) -> str: ...

@final
class ObjectHasher:
    """A streaming hasher for one git object of a known length."""

    def update(self, data: Buffer, /) -> None: ...
    def outcome(self) -> ObjectOutcome: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...
    def copy(self) -> ObjectHasher: ...
    @property
    def kind(self) -> _ObjectKind: ...

def sha1(
    data: Buffer = ...,
    *,
    string: Buffer = ...,
    usedforsecurity: bool = True,
    safe_hash: bool = True,
    detect_collisions: bool = True,
    reduced_round: bool = False,
    use_filter: bool = True,
    backend: str | None = None,
    parallel: bool = True,
) -> Hasher: ...
def object_hasher(
    kind: _ObjectKind,
    content_len: int,
    *,
    safe_hash: bool = True,
    detect_collisions: bool = True,
    reduced_round: bool = False,
    use_filter: bool = True,
    backend: str | None = None,
    parallel: bool = True,
) -> ObjectHasher: ...
def hash(
    data: Buffer,
    *,
    safe_hash: bool = True,
    detect_collisions: bool = True,
    reduced_round: bool = False,
    use_filter: bool = True,
    backend: str | None = None,
    parallel: bool = True,
) -> Outcome: ...
def hash_object(
    kind: _ObjectKind,
    content: Buffer,
    *,
    safe_hash: bool = True,
    detect_collisions: bool = True,
    reduced_round: bool = False,
    use_filter: bool = True,
    backend: str | None = None,
    parallel: bool = True,
) -> ObjectOutcome: ...
def hash_many(
    messages: Iterable[Buffer],
    *,
    safe_hash: bool = True,
    detect_collisions: bool = True,
    reduced_round: bool = False,
    use_filter: bool = True,
    backend: str | None = None,
    parallel: bool = True,
) -> Outcomes[Outcome]: ...
def hash_objects(
    kind: _ObjectKind,
    contents: Iterable[Buffer],
    *,
    safe_hash: bool = True,
    detect_collisions: bool = True,
    reduced_round: bool = False,
    use_filter: bool = True,
    backend: str | None = None,
    parallel: bool = True,
) -> Outcomes[ObjectOutcome]: ...
def available_backends() -> list[str]: ...
