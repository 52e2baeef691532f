"""Sorting, searching, set functions, diff and unstack against NumPy: values,
shape and dtype over dtypes and layouts, NumPy's errors at build time, the
array API's descending stable order against Python's own stable sort."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.test_ops_table import DTYPE_IDS, DTYPES, operand, values
from tests.util import assert_eq, check

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")

REAL = [d for d in DTYPES if d.kind != "c"]


def _layouts(dtype: np.dtype[Any], rng: np.random.Generator) -> list[tuple[Any, Any]]:
    base = values(rng, dtype, (3, 5, 6))
    return [(base, lt.asarray(base)),
            (base[::2, 1:4, ::-2], lt.asarray(base)[::2, 1:4, ::-2]),   # strided, reversed
            operand("negstride", dtype, rng), operand("broadcast", dtype, rng),
            operand("special", dtype, rng), operand("empty", dtype, rng)]


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_sort_and_argsort(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(1)
    for x, t in _layouts(dtype, rng):
        for axis in (-1, 0, None):
            for stable in (None, True):
                check(lambda: np.sort(x, axis=axis, stable=stable),
                      lambda: lt.sort(t, axis=axis, stable=stable))
                check(lambda: np.argsort(x, axis=axis, stable=stable),
                      lambda: lt.argsort(t, axis=axis, stable=stable))
        check(lambda: np.sort(x, kind="stable"), lambda: lt.sort(t, kind="mergesort"))
        check(lambda: np.argsort(x, kind="heapsort"), lambda: lt.argsort(t, kind="heapsort"))
    x0, t0 = operand("0d", dtype, rng)
    check(lambda: np.sort(x0), lambda: lt.sort(t0))                 # AxisError
    check(lambda: np.sort(x0, axis=None), lambda: lt.sort(t0, axis=None))
    check(lambda: np.argsort(x0, axis=3), lambda: lt.argsort(t0, axis=3))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_argsort_reads_0d_as_1d(engine: Any, dtype: np.dtype[Any]) -> None:
    """NumPy's argsort (not its sort) of a 0-d array is ``[0]`` along 0, -1 or
    None, and an AxisError that names dimension 1 along any other axis."""
    x0, t0 = operand("0d", dtype, np.random.default_rng(10))
    for axis in (-1, 0, None, 1, -2, 3):
        for kw in ({}, {"stable": True}, {"kind": "heapsort"}):
            check(lambda: np.argsort(x0, axis=axis, **kw), lambda: lt.argsort(t0, axis=axis, **kw))
            check(lambda: np.sort(x0, axis=axis, **kw), lambda: lt.sort(t0, axis=axis, **kw))
    check(lambda: x0.argsort(), lambda: t0.argsort())
    check(lambda: np.argsort(x0 * 1), lambda: lt.argsort(t0 * 1))       # a lazy 0-d operand
    with pytest.raises(np.exceptions.AxisError, match="dimension 1"):
        lt.argsort(t0, axis=1)


@pytest.mark.parametrize("dtype", REAL, ids=[str(d) for d in REAL])
def test_descending_is_the_array_apis_stable_order(engine: Any, dtype: np.dtype[Any]) -> None:
    """Against Python's stable ``sorted``: equal elements keep their order."""
    rng = np.random.default_rng(2)
    x = values(rng, dtype, (4, 9))
    x[:, ::3] = x[0, 0]                              # ties
    t = lt.asarray(x)
    want_idx = np.array([sorted(range(9), key=lambda i, r=r: -float(x[r, i])) for r in range(4)])
    assert_eq(lt.argsort(t, descending=True, stable=True), want_idx)
    assert_eq(lt.sort(t, descending=True), np.take_along_axis(x, want_idx, -1))
    want0 = np.array([sorted(range(4), key=lambda r, c=c: -float(x[r, c]))
                      for c in range(9)]).T
    assert_eq(lt.argsort(t, axis=0, descending=True, stable=True), want0)


def test_sort_in_a_graph_and_in_place(engine: Any) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((50, 40))
    t = lt.asarray(a)
    check(lambda: np.sort(a * 2 + 1, axis=0)[::3] * 3 - 1,
          lambda: lt.sort(t * 2 + 1, axis=0)[::3] * 3 - 1)
    assert "sort" in lt.explain(lt.sort(t * 2 + 1, axis=0)[::3] * 3)
    n, u = a.copy(), lt.asarray(a.copy())
    n[2].sort()
    u[2].sort()                                      # through a view, to its root
    n.sort(axis=0, kind="stable")
    u.sort(axis=0, kind="stable")
    assert_eq(u, n)
    assert_eq(t.argsort(axis=0), a.argsort(axis=0))
    with pytest.raises(ValueError, match="order="):
        lt.sort(t, order="x")
    with pytest.raises(ValueError, match="kind"):
        lt.sort(t, kind="bogo")
    with pytest.raises(ValueError, match="same time"):
        lt.sort(t, kind="stable", stable=True)


@pytest.mark.parametrize("dtype", REAL, ids=[str(d) for d in REAL])
def test_searchsorted(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(4)
    a = np.sort(values(rng, dtype, (12,)))
    v = values(rng, dtype, (3, 4))
    ta, tv = lt.asarray(a), lt.asarray(v)
    for side in ("left", "right"):
        check(lambda: np.searchsorted(a, v, side=side), lambda: lt.searchsorted(ta, tv, side=side))
        check(lambda: np.searchsorted(a, v[0, 0], side=side),
              lambda: lt.searchsorted(ta, tv[0, 0], side=side))
    order = np.argsort(a[::-1], stable=True)
    check(lambda: np.searchsorted(a[::-1], v, sorter=order),
          lambda: lt.searchsorted(ta[::-1], tv, sorter=lt.asarray(order)))
    assert_eq(ta.searchsorted(tv, side="right"), a.searchsorted(v, side="right"))
    with pytest.raises(ValueError, match="1-d"):
        lt.searchsorted(tv, ta)
    with pytest.raises(ValueError, match="side"):
        lt.searchsorted(ta, tv, side="middle")


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.int32, np.float64, np.bool_)],
                         ids=str)
def test_take_along_axis(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(5)
    x = values(rng, dtype, (4, 6))
    t = lt.asarray(x)
    for axis in (0, 1, -1):
        idx = np.argsort(x, axis=axis)
        check(lambda: np.take_along_axis(x, idx, axis), lambda: lt.take_along_axis(t, idx, axis))
    check(lambda: np.take_along_axis(x, np.zeros((1, 3), int), 1),      # broadcast
          lambda: lt.take_along_axis(t, np.zeros((1, 3), int), 1))
    check(lambda: np.take_along_axis(x, np.array([5, 0, 2]), None),
          lambda: lt.take_along_axis(t, np.array([5, 0, 2]), None))
    check(lambda: np.take_along_axis(x, np.zeros(3, int), 1),           # ranks differ
          lambda: lt.take_along_axis(t, np.zeros(3, int), 1))
    check(lambda: np.take_along_axis(x, np.zeros((3, 5), int), 1),      # no broadcast
          lambda: lt.take_along_axis(t, np.zeros((3, 5), int), 1))
    with pytest.raises(IndexError):
        lt.take_along_axis(t, np.zeros((4, 1)), 1)


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_tril_triu(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(6)
    for shape in ((4, 6), (2, 5, 3), (7,), (0, 3)):
        x = values(rng, dtype, shape)
        t = lt.asarray(x)
        for k in (-2, 0, 1, 9, 1.5, -0.5, np.float32(0.5), True):
            check(lambda: np.tril(x, k), lambda: lt.tril(t, k))
            check(lambda: np.triu(x, k), lambda: lt.triu(t, k))
    check(lambda: np.tril(np.array(3, dtype)), lambda: lt.tril(lt.asarray(np.array(3, dtype))))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_diff(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(7)
    for x, t in _layouts(dtype, rng)[:3]:
        for n in (0, 1, 2, 3):
            for axis in (-1, 0):
                check(lambda: np.diff(x, n, axis), lambda: lt.diff(t, n, axis))
        one = values(rng, dtype, ())
        check(lambda: np.diff(x, 1, -1, prepend=one, append=x[..., :2]),
              lambda: lt.diff(t, 1, -1, prepend=one, append=t[..., :2]))
    check(lambda: np.diff(np.array(1, dtype)), lambda: lt.diff(lt.asarray(np.array(1, dtype))))
    x, t = _layouts(dtype, rng)[0]
    check(lambda: np.diff(x, -1), lambda: lt.diff(t, -1))
    check(lambda: np.diff(x, 1, 5), lambda: lt.diff(t, 1, 5))


def test_diff_checks_in_numpys_order(engine: Any) -> None:
    """NumPy's diff returns the input as it is for n == 0 (a 0-d one, any
    axis), then checks n's sign, the dimensions, the axis, prepend and
    append, and only then is a non-integer n range()'s TypeError."""
    a = np.arange(6.0).reshape(2, 3) ** 2
    for x in (a, np.array(2.0), np.array(3, np.int8)):
        t = lt.asarray(x)
        for kw in ({"n": 0}, {"n": 0, "axis": 5}, {"n": 0.0}, {"n": np.int64(0)},
                   {"n": 0, "prepend": 1.0}, {"n": -1, "axis": 5}, {"n": np.int64(-2)},
                   {"n": 1.5}, {"n": 1.5, "axis": 5}, {"n": True}, {"n": np.int8(2)},
                   {"n": 1.5, "prepend": np.ones((3, 3))}, {"n": 2, "axis": 0}):
            check(lambda: np.diff(x, **kw), lambda: lt.diff(t, **kw))
    for n in (-1, np.int64(-2), -1.5):
        with pytest.raises(ValueError) as want:
            np.diff(a, n)
        with pytest.raises(ValueError, match=re.escape(str(want.value))):
            lt.diff(a, n)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        lt.diff(a, 1.5)
    assert_eq(lt.diff(np.array(2.0), n=0), np.diff(np.array(2.0), n=0))


def test_diff_is_fused_and_sliced_lazily() -> None:
    a = np.random.default_rng(8).standard_normal(1_000_000)
    t = lt.asarray(a)
    e = lt.diff(t * 2, 2)[::1000]
    assert_eq(e, np.diff(a * 2, 2)[::1000])
    plan = lt.plan(e)
    assert len(plan.kernels) == 1 and plan.kernels[0].node.size == 1000


def test_unstack_and_value_dependent_shapes(engine: Any) -> None:
    rng = np.random.default_rng(9)
    x = rng.integers(-2, 3, (3, 4))
    t = lt.asarray(x)
    for axis in (0, 1, -1):
        got = lt.unstack(t, axis=axis)
        want = np.unstack(x, axis=axis)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_eq(g, w)
    for g, w in zip(lt.nonzero(t * 2), np.nonzero(x * 2)):
        assert_eq(g, w)
    for g, w in zip(t.nonzero(), x.nonzero()):
        assert_eq(g, w)
    assert_eq(lt.flatnonzero(t), np.flatnonzero(x))
    assert_eq(lt.argwhere(t > 0), np.argwhere(x > 0))
    with pytest.raises(ValueError, match="0d"):
        lt.nonzero(lt.asarray(np.array(1.0)))
    assert_eq(lt.unique_values(t), np.unique_values(x))
    for got, want in [(lt.unique_counts(t), np.unique_counts(x)),
                      (lt.unique_inverse(t), np.unique_inverse(x)),
                      (lt.unique_all(t), np.unique_all(x))]:
        assert got._fields == want._fields
        for g, w in zip(got, want):
            assert_eq(g, w)
    for g, w in zip(lt.unique(t, return_counts=True, return_inverse=True),
                    np.unique(x, return_counts=True, return_inverse=True)):
        assert_eq(g, w)
    assert_eq(lt.unique(t * 1.5), np.unique(x * 1.5))
    assert_eq(lt.from_dlpack(x), x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128], ids=str)
def test_unique_equal_nan(engine: Any, dtype: Any) -> None:
    """NumPy's ``equal_nan`` (default True: all NaNs are one value)."""
    x = np.array([[np.nan, 1, 2, np.nan], [1, np.nan, 2, 3], [np.nan, 1, 2, np.nan]], dtype)
    if np.dtype(dtype).kind == "c":
        x[1, 3] = complex(np.nan, 1)
        x[2, 0] = complex(1, np.nan)
    t = lt.asarray(x)
    for equal_nan in (True, False):
        for flags in ({}, {"return_index": True, "return_inverse": True, "return_counts": True},
                      {"axis": 0}, {"axis": 1, "return_counts": True}):
            want = np.unique(x, equal_nan=equal_nan, **flags)
            got = lt.unique(t, equal_nan=equal_nan, **flags)
            for g, w in zip(*((got, want) if isinstance(want, tuple) else ((got,), (want,)))):
                assert_eq(g, w)
    assert_eq(lt.unique(t), np.unique(x))
    assert_eq(lt.unique(t, sorted=False), np.unique(x, sorted=False))
    assert len(lt.unique(t, equal_nan=False).eval()) == len(np.unique(x, equal_nan=False)) > \
        len(np.unique(x))


# ------------------------------------------------------------------ NumPy's spellings and errors

def test_searchsorted_takes_numpys_keywords(engine: Any) -> None:
    """NumPy's parameter names (``a, v, side, sorter``); the array API's
    positional calls are the same calls."""
    a: Any = np.array([1.0, 2.0, 3.0, 5.0])         # (NumPy's stubs: v positional-only)
    ta = lt.asarray(a)
    for _ in range(2):                                       # evaluated twice: cached the same
        check(lambda: np.searchsorted(a=a, v=[1.5]), lambda: lt.searchsorted(a=ta, v=[1.5]))
        check(lambda: np.searchsorted(a, v=[2.0, 9.0], side="right"),
              lambda: lt.searchsorted(ta, v=[2.0, 9.0], side="right"))
        order = np.array([3, 0, 2, 1])
        check(lambda: np.searchsorted(a=a[order], v=2.5, sorter=np.argsort(a[order])),
              lambda: lt.searchsorted(a=ta[order], v=2.5, sorter=lt.argsort(ta[order])))
        check(lambda: a.searchsorted(v=4), lambda: ta.searchsorted(v=4))


def test_searchsorted_sorter_errors_are_numpys() -> None:
    """NumPy's types: a sorter that is not a 1-d integer array is a
    TypeError, one of another size or not castable to intp a ValueError;
    raised when the graph is built."""
    a = np.array([1, 2, 3, 4])
    ta = lt.asarray(a)
    sorter: Any
    for sorter in (np.array([0.0, 1, 2, 3]), np.array([0, 1, 1, 0], bool), [0, 1.0, 2, 3],
                   np.array([0, 1, 2, 3], complex), np.array([[0, 1], [2, 3]]), np.array(1),
                   np.ones((2, 2)), np.array([0, 1, 2]), np.array([0, 1, 2, 3], np.uint64),
                   np.array([0, 1, 2], np.uint64), np.array([], float),
                   np.array([0, 1, 2, 3], np.uint32), [3, 2, 1, 0]):
        check(lambda: np.searchsorted(a, 2, sorter=sorter),
              lambda: lt.searchsorted(ta, 2, sorter=sorter))
        check(lambda: np.searchsorted(a, 2, sorter=sorter),
              lambda: lt.searchsorted(ta, 2, sorter=lt.asarray(sorter)))


BIG = [2**64, 2**70, 2**70 + 1, -2**70, -2**70 - 1, 2**200, -2**200, 2**5000, -2**5000,
       2**128 - 2**103, 2**128 - 2**104]


@pytest.mark.parametrize("dtype", [d for d in REAL if d.kind in "biuf"], ids=str)
def test_searchsorted_python_int_beyond_int64(engine: Any, dtype: np.dtype[Any]) -> None:
    """A Python int that no int64 or uint64 holds: NumPy compares it with
    the elements exactly (as a Python object), so it sorts after (before)
    every integer and among floats by its exact value.  (Not with a NaN in
    ``a``: no object compares with it, and NumPy's answer for side="right"
    is where its binary search happens to step.)"""
    if dtype.kind == "f":
        big = [float(np.finfo(dtype).max), 2.0**70, 2.0**70 * (1 + 2.0**-52), 2.0**128]
        vals = [-np.inf, *(-b for b in big[::-1]), -1.5, 0.0, 3.0, *big, np.inf]
        with np.errstate(over="ignore"):                # (those beyond the dtype's max)
            a = np.sort(np.array([v for v in vals if np.isfinite(dtype.type(v)) or not
                                  np.isfinite(v)], dtype))
    else:
        a = np.sort(values(np.random.default_rng(11), dtype, (9,)))
    ta = lt.asarray(a)
    for v in BIG:
        for side in ("left", "right"):
            for _ in range(2):
                check(lambda: np.searchsorted(a, v, side=side),
                      lambda: lt.searchsorted(ta, v, side=side))
            check(lambda: a.searchsorted(v, side=side, sorter=np.arange(len(a))),
                  lambda: ta.searchsorted(v, side=side, sorter=np.arange(len(a))))
    with pytest.raises(TypeError):                          # NumPy: complex < int: no order
        np.searchsorted(a.astype(complex), 2**70)
    with pytest.raises(TypeError):
        lt.searchsorted(ta.astype(complex), 2**70)


def test_sort_method_axis_none_is_a_type_error(engine: Any) -> None:
    """``ndarray.sort(axis=None)`` is a TypeError (only ``np.sort`` flattens)."""
    a: Any = np.array([[3, 1], [2, 0]])
    t = lt.asarray(a)
    check(lambda: a.copy().sort(axis=None), lambda: t.sort(axis=None))
    check(lambda: np.sort(a, axis=None), lambda: lt.sort(t, axis=None))
    assert_eq(t, a)                                         # not written


# ------------------------------------------------------------------ np.select

def _select_cases() -> list[tuple[Any, Any, Any]]:
    """(condlist, choicelist, default) as NumPy takes them: broadcasting
    conditions and choices, overlapping conditions, Python scalars (weak)."""
    rng = np.random.default_rng(12)
    x = rng.integers(-5, 6, (3, 4))
    i8 = x.astype(np.int8)
    f16 = (x / 3).astype(np.float16)
    col, row = x[:, :1] > 0, np.array([True, False, True, False])
    return [
        ([x < 3, x > 3], [-x, x**2], 42),                   # NumPy's examples
        ([x <= 4, x > 3], [x, x**2], 55),                   # both true: the first wins
        ([col, row], [x, 7.5], 0),                          # broadcasting conditions
        ([col, row], [x[0], -1], x[:, :1] * 10),            # ... and choices, array default
        ([col], [i8], 1000),                                # default: int64 cast to int8
        ([col], [1000], i8),                                # choice: same_kind cast
        ([row], [-1], i8.astype(np.uint8)),                 # int64 -> uint8: TypeError
        ([row], [i8.astype(np.uint8)], -1),                 # default: unsafe cast, wraps
        ([row], [f16], 1e300),                              # to float16: inf
        ([row], [1.5], f16),
        ([row], [1j], i8),
        ([row, col], [True, False], False),                 # bools stay bools
        ([row], [True], 2),                                 # Python bool: strong
        ([np.bool_(True)], [1], 2),                         # 0-d
        ([True, False], [3, 4], 5),
        (np.array([x > 0, x < 0]), np.array([x, -x]), 0),   # 2-d arrays of lists
        ([x > 0], [f16.astype(np.float32)], np.float64(2)),
        ([row], [x], np.int8(3)),
        ([row], [2**63], 0),                                # uint64 -> float64
        ([row], [2**70], 0),                                # object: TypeError
        ([row], [x], 2**70),                                # object: OverflowError
        ([row], [x, x], 0),                                 # lengths differ: ValueError
        ([], [], 0),                                        # empty: ValueError
        ([x], [x], 0),                                      # not bool: TypeError
        ([row, np.ones(3, bool)], [x, x], 0),               # conditions don't broadcast
        ([row], [x, ], np.ones(3)),                         # choices don't broadcast
        ([np.ones(3, bool)], [x], 0),                       # the two don't broadcast
    ]


def _lazy(obj: Any) -> Any:
    return [lt.asarray(o) if isinstance(o, np.ndarray) else o for o in obj] \
        if isinstance(obj, list) else (lt.asarray(obj) if isinstance(obj, np.ndarray) else obj)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_select_is_numpys(engine: Any) -> None:
    """``lt.select`` is NumPy's: values, shape, dtype (the choices' and the
    default's ``result_type``, Python scalars weak) and exception types."""
    for conds, choices, default in _select_cases():
        for _ in range(2):
            check(lambda: np.select(conds, choices, default),
                  lambda: lt.select(conds, choices, default))
        check(lambda: np.select(conds, choices, default),             # tensors in the lists
              lambda: lt.select(_lazy(conds), _lazy(choices), _lazy(default)))
    assert_eq(lt.select([lt.asarray([True, False])], [lt.asarray([1, 2])]),
              np.select([np.array([True, False])], [np.array([1, 2])]))   # default=0


def test_select_is_lazy_and_tensorflows_is_in_tfcompat(engine: Any) -> None:
    x = np.arange(12.0).reshape(3, 4)
    t = lt.asarray(x)
    got = lt.select([t < 3, t > 8], [-t, t * 2], default=t + 0.5)
    assert "where" in lt.explain(got)                       # nothing computed yet
    for _ in range(2):
        assert_eq(got, np.select([x < 3, x > 8], [-x, x * 2], default=x + 0.5))
    # TensorFlow's select (a vector condition picks rows) keeps its own name
    assert lt.select is not lt.tfcompat.select
    assert_eq(lt.tfcompat.select(lt.asarray([True, False, True]), t, -t),
              np.where(np.array([True, False, True])[:, None], x, -x))


@pytest.mark.parametrize("call", [
    lambda m, t: m.take_along_axis(t, np.array([0, 1]), axis=2),
    lambda m, t: m.take_along_axis(t, np.array([[0.5]]), axis=-3),
    lambda m, t: m.take_along_axis(t, np.array([0.5]), axis=0),
    lambda m, t: m.take_along_axis(t, np.array([0]), axis=0),
], ids=lambda c: "")
def test_take_along_axis_checks_the_axis_first(call: Any) -> None:
    """NumPy normalizes the axis (AxisError) before it checks the indices'
    dtype and rank."""
    x = np.zeros((2, 3))
    with pytest.raises(Exception) as want:
        call(np, x)
    with pytest.raises(type(want.value)):
        call(lt, lt.asarray(x))
