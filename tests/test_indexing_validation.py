"""``t[index]`` and ``t[index] = value`` check an index as NumPy 2 does, on
the user's line, whichever path serves it: the number of indices against
the rank (a k-d mask indexes k axes, ``None`` and a 0-d bool none), one
``...`` at most, which objects are integers (``__index__``) and which are
arrays (``np.asarray``: a range, a memoryview; only an empty non-array is
an integer array), and, for a write, the index's errors before the value's.
Each case runs on NumPy and on lazyten and compares values, shapes, dtypes
or the exception's type.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import assert_eq, check, public_type


class Index:
    """Not an int, but has ``__index__``: NumPy reads it as an integer."""

    def __index__(self) -> int:
        return 1


x = np.arange(4.0)
y = np.arange(6.0).reshape(2, 3)
z = np.arange(24.0).reshape(2, 3, 4)
m4 = np.array([True, False, True, False])
m2 = np.array([True, False])
m23 = np.ones((2, 3), bool)

# (array, index): each is NumPy's value or NumPy's error
GETS: list[tuple[np.ndarray[Any, Any], Any]] = [
    # more indices than axes, by paths that built no view (a mask or an
    # array among full slices), and repeated ellipses
    (x, (m4, slice(None))), (x, ([0, 1], slice(None))), (y, (slice(None), [0], slice(None))),
    (y, (..., ..., [1])), (x, (m4, ..., ...)), (z, (m23, 0, 0)), (z, (m23, [0], 0)),
    (y, (None, [0], 0, 0)), (y, (m2, m2)), (y, ([0], [0], [0])), (x, (True, m4, slice(None))),
    (z, (..., m23, ...)), (y, (slice(None), np.array([[True, False, True]]))),
    # still valid: a mask over several axes, None and 0-d bools count none
    (z, (m23, [0])), (z, (..., m23)), (z, (0, m23)), (z, (m2, ..., [1])), (z, (True, m2, 1)),
    (z, (False, [0], ..., None)), (x, (True, True, m4)), (x, (m4, True, ...)),
    (y, (None, ..., None, [1], None)), (z, (Ellipsis, [0, 1], slice(None))),
    # integers and arrays as NumPy reads them
    (x, range(2)), (y, (range(2), 0)), (x, Index()), (y, (Index(), [0])), (y, (Index(), 2)),
    (y, (Index(), slice(None))), (x, np.array([0, 1]).data), (x, m4.data),
    (x, slice(Index(), None)), (y, ((0, 1),)), (y, ((0, 1), (1, 2))), (x, [True, 1]),
    (x, np.array(1)), (y, (np.array(1), np.array(2))),
    # uint64 arrays cast to intp as NumPy casts them (2**64 - 1 is -1); an
    # integer past intp is NumPy's OverflowError
    (x, np.array([2**64 - 1, 0], np.uint64)), (y, (np.array([2**64 - 1], np.uint64), 1)),
    (x, [2**64 - 1]), (x, 2**63), (y, (0, np.uint64(2**64 - 1))),
    # an int past 64 bits is no integer index to NumPy (IndexError), either sign
    (x, 2**64), (x, -2**64), (y, (0, 2**70)), (x, (..., 2**64)),
    # not indices
    (x, [Index(), Index()]), (x, [1, [2, 3]]), (x, "a"), (x, b"a"), (x, np.float64(1)),
    (y, (1, 2.0)), (y, (1, np.array(2.0))), (x, (..., 1.0, ...)), (x, (0, 0, 1.0)),
    # empty: a list, a range or nested lists are integer arrays; an ndarray keeps its dtype
    (y, np.array([])), (y, []), (y, [[]]), (y, range(0)), (x, np.array([], object)),
    (x, np.array([], np.float32)), (y, (slice(None), [])),
    # out of range on an empty array
    (np.zeros((0, 3)), np.array([5])), (np.zeros((0, 3)), (slice(None), [5])),
    (np.zeros((3, 0)), [5]), (np.zeros((0, 3)), (slice(None), np.array([], int))),
]


@pytest.mark.parametrize("arr, index", GETS, ids=[f"{k}-{a.shape}" for k, (a, i) in enumerate(GETS)])
def test_getitem_checks_the_index_as_numpy(engine: Any, arr: Any, index: Any) -> None:
    t = lt.asarray(arr) * 1
    check(lambda: arr[index], lambda: t[index])


@pytest.mark.parametrize("arr, index", [
    (x, (m4, slice(None))), (y, (slice(None), [0], slice(None))), (y, (..., ..., [1])),
    (x, ([0, 1], slice(None))), (y, ([1, 0],)), (z, (..., m23)), (y, (slice(1, None), [2, 0])),
    (y, (slice(None), np.array([[True, False, True]]))), (y, np.array([0.5]))])
def test_lazy_index_arrays_are_checked_too(engine: Any, arr: Any, index: Any) -> None:
    """The same checks when the index arrays are tensors (their shape and
    dtype are known; a mask's values are read only for a valid index)."""
    t = lt.asarray(arr)
    items = index if isinstance(index, tuple) else (index,)
    lazy = tuple(lt.asarray(np.asarray(i)) if isinstance(i, (list, np.ndarray)) else i
                 for i in items)
    check(lambda: arr[index], lambda: t[lazy])


@pytest.mark.parametrize("shape, index, out", [
    ((0, 3), (slice(None), [5]), (0, 1)), ((0, 3), (Ellipsis, [[5]]), (0, 1, 1)),
    ((0, 3), ([0],), (1, 3)), ((2, 0, 3), (slice(None), slice(None), [7]), (2, 0, 1)),
    ((0, 3), (slice(None), [-4]), (0, 1)), ((0, 3), ([0], [5]), (1,))])
def test_lazy_index_out_of_range_on_an_empty_array(engine: Any, shape: Any, index: Any,
                                                   out: Any) -> None:
    """A lazy index's values are known when it runs: out of range, its
    evaluation raises NumPy's IndexError, also where the other axes are
    empty (``np.take`` alone checks nothing there)."""
    n = np.zeros(shape)
    with pytest.raises(IndexError):
        n[index]
    idx = tuple(lt.asarray(np.array(i)) if isinstance(i, list) else i for i in index)
    r = (lt.asarray(n) * 2)[idx]
    assert r.shape == out
    with pytest.raises(IndexError, match="out of bounds"):
        r.eval()
    with pytest.raises(IndexError, match="out of bounds"):
        (r + 1).sum().eval()


@pytest.mark.parametrize("index", [(slice(None), [2]), (Ellipsis, [[0, -3]]),
                                   (slice(None), slice(None), [1])])
def test_lazy_index_in_range_on_an_empty_array(engine: Any, index: Any) -> None:
    n = np.zeros((0, 3)) if len(index) < 3 else np.zeros((2, 0, 3))
    lazy = tuple(lt.asarray(np.array(i)) if isinstance(i, list) else i for i in index)
    assert_eq((lt.asarray(n) * 2)[lazy], n[index])


def check_set(arr: np.ndarray[Any, Any], index: Any, value: Any) -> None:
    """``arr[index] = value`` on NumPy and on a tensor: the same result or
    the same exception type (raised when the write is built); an array value
    is also written as a tensor."""
    n = arr.copy()
    try:
        n[index] = value
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        values = [value] + ([lt.asarray(value)] if isinstance(value, np.ndarray) else [])
        for v in values:
            t = lt.asarray(arr)
            with pytest.raises(public_type(e)):
                t[index] = v
        return
    for v in [value] + ([lt.asarray(value)] if isinstance(value, np.ndarray) else []):
        t = lt.asarray(arr)
        t[index] = v
        assert_eq(t, n)


SETS: list[tuple[np.ndarray[Any, Any], Any, Any]] = [
    # too many indices, repeated ellipses: also through the ``t[mask] = scalar`` shortcut
    (x, (m4, slice(None)), -1.0), (x, (m4, ..., ...), -1.0), (x, (m4, ...), -1.0),
    (y, (m2, slice(None), None), 1.0), (y, (m2, slice(None), slice(None)), 1.0),
    (x, ([0], slice(None)), 1.0), (y, (slice(None), [0], slice(None)), 1.0),
    (y, (..., ..., [1]), 1.0), (x, m4, np.zeros((2, 1))), (x, m4, np.zeros(2)),
    (y, (True, m2), 5.0), (y, (m2, True, 1), 5.0),
    # integers and arrays as NumPy reads them
    (x, range(2), 7.0), (x, np.array([0, 1]).data, 7.0), (x, Index(), 7.0),
    (y, (Index(), [0, 2]), 7.0), (x, [], 1.0), (x, np.array([]), 1.0), (x, "a", 1.0),
    (x, (0, 0, 1.0), 1.0), (x, np.array([2**64 - 1], np.uint64), 5.0), (x, 2**63, 5.0),
    (x, 2**64, 5.0), (y, (2**65, 0), 5.0),
    # the index's error before the value's (NumPy: integers and the index's
    # form first; an index array's values after the value and its shape)
    (np.zeros(1), -2, np.arange(2.0)), (np.zeros(3, np.int8), 5, 300),
    (np.zeros(3, np.int8), (slice(None), 1), 300), (np.zeros(3, np.int8), m2, 300),
    (np.zeros(3, np.int8), [5], 300), (np.zeros((3, 3), np.int8), (5, [0]), 300),
    (np.zeros(3), [5], np.zeros(4)), (np.zeros(3), ([1], 1), np.zeros(4)),
    (np.zeros(3), m2, np.zeros((2, 2))), (np.zeros((3, 3)), (5, [0]), np.zeros(4)),
    (np.zeros((3, 3)), ([5], 0), np.zeros(4)), (np.zeros((3, 3)), ([5], slice(0, 1)), np.zeros(4)),
    (np.zeros((3, 3)), (5, slice(0, 1)), np.zeros(4)), (np.zeros(3), 5, [1, [2, 3]]),
    (np.zeros((3, 3)), (slice(0, 1), 7), [1, [2, 3]]), (np.zeros(3), [5], [1, [2, 3]]),
    (np.zeros(3), m2, [1, [2, 3]]), (np.zeros((3, 3)), (slice(None), 5), [[1]]),
    (np.zeros(3), np.array(5), np.arange(2.0)),
    # values NumPy converts as it stores them (None into floats is NaN, "5"
    # into integers 5), or refuses with its own error
    (x, 0, None), (x, 1, "1.5"), (np.zeros(3, np.int16), 2, "5"), (x, 0, "abc"),
    (np.zeros(3, int), 0, None), (np.zeros(3, complex), 1, "1+2j"), (x, slice(0, 2), b"7"),
]


@pytest.mark.parametrize("arr, index, value", SETS,
                         ids=[f"{k}-{a.dtype}{a.shape}" for k, (a, i, v) in enumerate(SETS)])
def test_setitem_checks_the_index_as_numpy(engine: Any, arr: Any, index: Any,
                                           value: Any) -> None:
    check_set(arr, index, value)


SEQUENCES = [np.arange(5.0), np.array([1.0]), np.array([[0.0]]), np.zeros(0), np.array(2.0),
             np.arange(5) + 1j, [1, 2, 3, 4, 5], [1], [0], (1, 2), [], [1, [2, 3]], range(2)]


@pytest.mark.parametrize("dtype", ["f8", "f4", "i8", "u1", "c16", "c8", "?"])
@pytest.mark.parametrize("shape, index", [
    ((3,), 0), ((3,), (-3,)), ((3,), np.array(0)), ((3,), (Index(),)), ((2, 2), (0, np.array(1))),
    ((), ()), ((), Ellipsis), ((3,), (0, Ellipsis)), ((2, 2), (1, 0))])
def test_a_sequence_into_one_element_is_numpys(engine: Any, dtype: str, shape: Any,
                                               index: Any) -> None:
    """One element (all integers) is NumPy's scalar assignment: a sequence
    there is "an element with a sequence" (ValueError) for floats, ``int()``
    of a list (TypeError) for integers, ``complex()`` of it (TypeError) for
    complex, and its truth for bools (an array's, if it has one element);
    through ``...`` it is a view, where a 1-element array broadcasts."""
    for value in SEQUENCES:
        check_set(np.zeros(shape, dtype), index, value)


def test_writes_with_a_lazy_index_out_of_range_fail_on_their_line(engine: Any) -> None:
    """A write's lazy index is computed for its bounds check: the write
    raises NumPy's IndexError on its line and the tensor keeps its value
    (it made every later read fail); a lazy read is checked when it runs."""
    writes = (lambda t: t.__setitem__(lt.asarray(np.array([0, 7])), 1.0),
              lambda t: t.__setitem__((lt.asarray(np.array([0])) * 1, ), 1.0),
              lambda t: lt.put(t, lt.asarray([9]), 5.0),
              lambda t: lt.put_along_axis(t, lt.asarray(np.array([9])), 1.0, axis=None),
              lambda t: lt.put_along_axis(t.reshape(1, 3), lt.asarray(np.array([[9]])), 1.0,
                                          axis=1))
    for write in writes:
        t = lt.asarray(np.arange(3.0))
        try:
            write(t)
        except IndexError:
            pass
        else:
            assert_eq(t, np.array([1.0, 1.0, 2.0]))    # (the in-range write above)
            continue
        assert_eq(t + 1, np.arange(3.0) + 1)
    t = lt.asarray(np.arange(3.0))
    t[lt.asarray(np.array([0, 2])) * 1] = 5.0
    assert_eq(t, np.array([5.0, 1.0, 5.0]))
    read = t[lt.asarray(np.array([9]))]               # (built; its evaluation raises)
    with pytest.raises(IndexError):
        read.eval()


def test_mask_fills_of_another_dtype_leave_the_rest_alone(engine: Any) -> None:
    """``t[mask] = v`` with a NumPy scalar, a 1-element array or tensor of
    another dtype: cast to ``t``'s dtype first (a where() of both dtypes
    promoted, and the cast back changed the unmasked elements)."""
    m = np.array([False, False, True, True])
    cases = [(np.array([2**62 + 1, 2**53 + 1, 5, 7]), m, np.uint64(9)),
             (np.array([2**64 - 1, 3], np.uint64), m[2:], np.int64(-1)),
             (np.array([1, 2], np.int8), m[2:], np.uint64(2**64 - 1)),
             (np.array([1, 2, 3, 4]), m, np.float32(1.5)),
             (np.array([[1, 2], [3, 4]]), m[2:], np.array([2.5])),
             (np.array([1, 2, 3, 4]), m, lt.asarray(np.array([1.5], np.float32)))]
    for arr, mask, v in cases:
        n, t = arr.copy(), lt.asarray(arr.copy())
        with np.errstate(all="ignore"):
            n[mask] = np.asarray(v)
            t[mask] = v
        assert_eq(t, n)


@pytest.mark.parametrize("index", [0, Ellipsis, slice(None), np.array([True, False]), [0],
                                   np.array([0, 0])], ids=lambda i: type(i).__name__)
def test_numpy_scalars_written_as_numpy_writes_them(engine: Any, index: Any) -> None:
    """A NumPy scalar through a basic index converts as a Python number
    (np.float64(300.7) into int8 is NumPy's OverflowError); through a mask
    or index arrays it is cast."""
    for v in (np.float64(300.7), np.float32(3.7), np.int64(300), np.uint64(2**64 - 1),
              np.float64(np.nan), np.bool_(True), 3, 2.5, True):
        n, t = np.zeros(2, np.int8), lt.zeros(2, np.int8)
        with np.errstate(all="ignore"):
            try:
                n[index] = v
            except Exception as e:  # noqa: BLE001 - NumPy's error, mirrored
                with pytest.raises(public_type(e)):
                    t[index] = v
                continue
            t[index] = v
        assert_eq(t, n)


# ------------------------------------------------------------------ found by a hunt (4 Dec)

def _put_np(ind: Any) -> Any:
    x = np.arange(5.0)
    np.put(x, ind, [9, 8])
    return x


def _put_lt(ind: Any) -> Any:
    t = lt.asarray(np.arange(5.0))
    lt.put(t, ind, [9, 8])
    return t


@pytest.mark.parametrize("ind", [[1.7, -0.5], [4.9], [-5.5], 2.5, [5.0], [1 + 0j], [np.nan],
                                 np.array([1.5]), np.array([1.5], np.float16)],
                         ids=range(9))
def test_put_takes_python_floats_as_numpy_does(engine: Any, ind: Any) -> None:
    """NumPy converts a Python sequence's floats with int() (truncating; NaN
    a ValueError, a complex a TypeError) and refuses an array of floats."""
    check(lambda: _put_np(ind), lambda: _put_lt(ind))


@pytest.mark.parametrize("shape,ind,axis", [((0, 3), [3], 1), ((0, 3, 2), [5], 1),
                                            ((2, 3, 0), [5], 1), ((0, 3), [0], 0),
                                            ((3,), [-4], 0), ((0, 3), [-4], 1)],
                         ids=range(6))
def test_take_checks_bounds_as_numpys_loop(engine: Any, shape: Any, ind: Any, axis: int) -> None:
    """NumPy checks a take's indices for each index of the axes before
    ``axis``: with none (a 0 there), none is checked."""
    a = np.zeros(shape)
    check(lambda: np.take(a, ind, axis=axis), lambda: lt.take(lt.asarray(a), ind, axis=axis))


def _set_np(index: Any, value: Any, shape: tuple[int, ...] = ()) -> Any:
    z = np.full(shape, 3.5)
    z[index] = value
    return z


def _set_lt(index: Any, value: Any, shape: tuple[int, ...] = ()) -> Any:
    z = lt.full(shape, 3.5)
    z[index] = value
    return z


@pytest.mark.parametrize("index,value,shape", [
    (True, [[5]], ()), (False, [[5]], ()), (np.array(True), [[5]], ()), (True, [5], ()),
    ((True, ...), [[5]], ()), ((..., True), [[5]], ()), (True, [[1, 2, 3]], (3,)),
    (True, [[[1, 2, 3]]], (3,))], ids=range(8))
def test_a_0d_tensors_bool_index_takes_a_0_or_1_d_value(engine: Any, index: Any, value: Any,
                                                       shape: Any) -> None:
    """On a 0-d array a lone boolean is NumPy's full-rank mask, whose
    assignment takes a 0-d or 1-d value only (a TypeError otherwise)."""
    check(lambda: _set_np(index, value, shape), lambda: _set_lt(index, value, shape))


def test_imag_of_a_real_tensor_and_bool_power_errors_are_numpys(engine: Any) -> None:
    def set_imag(x: Any) -> None:
        x.imag = 3
    with pytest.raises(TypeError, match="does not have imaginary part"):
        set_imag(np.zeros(2))
    with pytest.raises(TypeError, match="does not have imaginary part"):
        set_imag(lt.zeros(2))
    c = lt.zeros(2, complex)
    set_imag(c)
    assert_eq(c, np.full(2, 3j))
    for o in (2**70, -2**64):
        b, nb = lt.asarray(np.array([True])), np.array([True])
        with pytest.raises(OverflowError):
            nb **= o
        with pytest.raises(OverflowError):
            b **= o


@pytest.mark.parametrize("values", [np.array([]), [], lt.zeros(0)], ids=repr)
def test_put_of_no_values_reads_no_index(engine: Any, values: Any) -> None:
    n, t = np.zeros(4), lt.zeros(4)
    np.put(n, [99], np.asarray(values))
    lt.put(t, [99], values)                  # NumPy: nothing read, nothing put
    assert_eq(t, n)
