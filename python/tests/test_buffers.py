"""update() and the one-shot and batch calls read every kind of buffer in
place: bytes, bytearray, memoryview (and its slices), mmap, array.array,
NumPy arrays of any dtype; what cannot be read in place is an exception."""

from __future__ import annotations

import array
import hashlib
import mmap
import random

import pytest

import sha1dc
from conftest import need_module

DATA = random.Random(7).randbytes(100_003)
WANT = hashlib.sha1(DATA).hexdigest()


def same_everywhere(buf: object, want: str) -> None:
    assert sha1dc.sha1(buf).hexdigest() == want
    h = sha1dc.sha1(b"")
    h.update(buf)
    assert h.hexdigest() == want
    assert sha1dc.hash(buf).hexdigest() == want
    assert sha1dc.hash_many([buf, buf]).hexdigests() == [want, want]


def test_bytes_bytearray_memoryview() -> None:
    same_everywhere(DATA, WANT)
    same_everywhere(bytearray(DATA), WANT)
    same_everywhere(memoryview(DATA), WANT)
    same_everywhere(memoryview(bytearray(DATA))[10:500], hashlib.sha1(DATA[10:500]).hexdigest())
    same_everywhere(memoryview(DATA[:100_000]).cast("I"), hashlib.sha1(DATA[:100_000]).hexdigest())
    same_everywhere(b"", hashlib.sha1(b"").hexdigest())
    same_everywhere(bytearray(), hashlib.sha1(b"").hexdigest())


def test_array_and_mmap(tmp_path) -> None:
    a = array.array("d", [1.5, -2.0, 3.25] * 1000)
    same_everywhere(a, hashlib.sha1(a.tobytes()).hexdigest())
    p = tmp_path / "m"
    p.write_bytes(DATA)
    with open(p, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        same_everywhere(m, WANT)
        assert sha1dc.file_digest(f).hexdigest() == WANT
    # A closed mmap has no buffer any more: an error, not a read of freed memory.
    with pytest.raises(ValueError):
        sha1dc.sha1(m)


def test_numpy_arrays() -> None:
    np = need_module("numpy")
    u8 = np.frombuffer(DATA, dtype=np.uint8)
    same_everywhere(u8, WANT)
    f64 = np.arange(10_000, dtype=np.float64)
    same_everywhere(f64, hashlib.sha1(f64.tobytes()).hexdigest())
    two_d = np.arange(60_000, dtype=np.int32).reshape(200, 300)
    same_everywhere(two_d, hashlib.sha1(two_d.tobytes()).hexdigest())
    fortran = np.asfortranarray(two_d)
    if fortran.flags.c_contiguous:
        pytest.fail("a Fortran-ordered 2-D array is not C-contiguous")
    # What cannot be read in place raises what hashlib raises (NumPy's
    # own ValueError).
    for strided in (fortran, u8[::2]):
        with pytest.raises(ValueError, match="contiguous"):
            hashlib.sha1(strided)
        with pytest.raises(ValueError, match="contiguous"):
            sha1dc.sha1(strided)
    # No dimensions (a 0-d array, a NumPy scalar): its bytes, as hashlib.
    for scalar in (np.array(5), np.float32(1.5)):
        same_everywhere(scalar, hashlib.sha1(scalar).hexdigest())
    # A copy made contiguous is hashed as hashlib hashes it.
    same_everywhere(np.ascontiguousarray(u8[::2]), hashlib.sha1(u8[::2].tobytes()).hexdigest())


def test_ctypes_and_zero_dimensional_buffers() -> None:
    import ctypes

    same_everywhere(ctypes.create_string_buffer(b"abc", 3), hashlib.sha1(b"abc").hexdigest())
    ints = (ctypes.c_int * 3)(1, 2, 3)
    same_everywhere(ints, hashlib.sha1(bytes(ints)).hexdigest())
    same_everywhere(ctypes.c_double(2.5), hashlib.sha1(bytes(ctypes.c_double(2.5))).hexdigest())
    same_everywhere(memoryview(b"a").cast("B", ()), hashlib.sha1(b"a").hexdigest())


def test_non_contiguous_memoryview_is_an_error_and_nothing_is_added() -> None:
    h = sha1dc.sha1(b"abc")
    with pytest.raises(BufferError, match="contiguous"):
        h.update(memoryview(DATA)[::3])
    # Use after the error: the message is still "abc".
    assert h.hexdigest() == hashlib.sha1(b"abc").hexdigest()
    h.update(b"d")
    assert h.hexdigest() == hashlib.sha1(b"abcd").hexdigest()


def test_released_memoryview_and_exported_bytearray() -> None:
    m = memoryview(bytearray(b"abc"))
    m.release()
    with pytest.raises(ValueError, match="released"):
        sha1dc.sha1(m)
    # While a view of it is held, a bytearray cannot be resized; hashing
    # holds one only during the call.
    b = bytearray(DATA)
    sha1dc.sha1(b)
    b.extend(b"more")
    assert sha1dc.sha1(b).hexdigest() == hashlib.sha1(DATA + b"more").hexdigest()


@pytest.mark.parametrize("bad", ["abc", 3, None, 1.5, [b"a"], object()], ids=repr)
def test_what_is_not_bytes_is_a_type_error(bad: object) -> None:
    h = sha1dc.sha1(b"x")
    with pytest.raises(TypeError) as e:
        h.update(bad)
    if isinstance(bad, str):
        assert "encode" in str(e.value)
    else:
        assert type(bad).__name__ in str(e.value)
    with pytest.raises(TypeError):
        sha1dc.hash(bad)
    with pytest.raises(TypeError):
        sha1dc.sha1(bad)
    assert h.hexdigest() == hashlib.sha1(b"x").hexdigest()
