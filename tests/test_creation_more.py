"""More of NumPy's creation, layout and index helpers against NumPy:
``fromfunction``, ``frombuffer``, ``fromiter``, ``fromstring``,
``trim_zeros``, ``ascontiguousarray``, ``asfortranarray``, ``asanyarray``,
``require``, ``shares_memory``, ``may_share_memory``, ``ndindex``,
``ndenumerate``, ``mgrid``, ``ogrid``, ``r_``, ``c_``, ``s_`` and
``index_exp``: values, dtypes, shapes, NumPy's exception types, and the
memory layout of evaluated values, under both engines (``engine``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import assert_eq, check, public_type

NEW_NAMES = ["fromfunction", "frombuffer", "fromiter", "fromstring", "trim_zeros",
             "ascontiguousarray", "asfortranarray", "asanyarray", "require", "shares_memory",
             "may_share_memory", "ndindex", "ndenumerate", "mgrid", "ogrid", "r_", "c_", "s_",
             "index_exp"]


def arrays() -> dict[str, np.ndarray[Any, Any]]:
    """Inputs in every layout: C, Fortran, strided, reversed, 0-d, empty."""
    base = np.arange(1.0, 25.0).reshape(4, 6)
    return {
        "c": base,
        "f": np.asfortranarray(base),
        "strided": base[::2, 1::2],
        "reversed": base[::-1],
        "transposed": base.T,
        "0d": np.array(3.5),
        "1d": np.arange(5, dtype=np.int8),
        "1d_strided": np.arange(10, dtype=np.int32)[::3],
        "empty": np.zeros((0, 3), np.complex64),
        "3d_f": np.asfortranarray(np.arange(24).reshape(2, 3, 4)),
    }


def lazy_forms(x: np.ndarray[Any, Any]) -> list[tuple[str, Any, lt.Tensor]]:
    """``x`` as NumPy values and as tensors: wrapped, a view of a wrapped
    bigger array, and computed (``* 1``, NumPy's result layout)."""
    out: list[tuple[str, Any, lt.Tensor]] = [("wrapped", x, lt.asarray(x))]
    if x.ndim:
        big = np.zeros(tuple(2 * d + 1 for d in x.shape), x.dtype)
        sl = tuple(slice(1, 2 * d + 1, 2) for d in x.shape)
        big[sl] = x
        out.append(("view", big[sl], lt.asarray(big)[sl]))
    out.append(("computed", x * 1, lt.asarray(x) * 1))
    return out


def same_flags(got: np.ndarray[Any, Any], exp: np.ndarray[Any, Any]) -> None:
    assert got.flags.c_contiguous == exp.flags.c_contiguous, (got.strides, exp.strides)
    assert got.flags.f_contiguous == exp.flags.f_contiguous, (got.strides, exp.strides)


def eq_layout(lazy: Any, exp: np.ndarray[Any, Any]) -> None:
    """Values, dtype, shape, and the contiguity of the evaluated value, by
    ``eval``, ``compute`` and ``np.asarray``: those hand out a copy of the
    value (order "K"), so its layout is that of NumPy's copy of ``exp``
    (``exp`` itself where ``exp`` is contiguous)."""
    assert isinstance(lazy, lt.Tensor)
    exp = np.array(exp, copy=True)
    same_flags(assert_eq(lazy, exp), exp)
    same_flags(lt.compute(lazy)[0], exp)
    same_flags(np.asarray(lazy), exp)


def test_public_names() -> None:
    for name in NEW_NAMES:
        assert name in dir(lt), name
        assert getattr(lt, name).__doc__, name


# ------------------------------------------------------------------ fromfunction

@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (0, 4), (2, 3, 4)])
@pytest.mark.parametrize("dtype", [float, int, np.float32, np.int8, np.complex64])
def test_fromfunction(engine: Any, shape: tuple[int, ...], dtype: Any) -> None:
    def fn(*g: Any, scale: int = 2) -> Any:
        out: Any = 1
        for k, x in enumerate(g):
            out = out + x * (k + scale)
        return out
    check(lambda: np.fromfunction(fn, shape, dtype=dtype),
          lambda: lt.fromfunction(fn, shape, dtype=dtype))
    check(lambda: np.fromfunction(fn, shape, dtype=dtype, scale=5),
          lambda: lt.fromfunction(fn, shape, dtype=dtype, scale=5))


def test_fromfunction_lazy_and_ufuncs(engine: Any) -> None:
    r = lt.fromfunction(lambda i, j: np.sin(i) * j + (i == j), (3, 4))
    assert isinstance(r, lt.Tensor) and r.node.value is None and r.node.op.kind != "source"
    assert_eq(r, np.fromfunction(lambda i, j: np.sin(i) * j + (i == j), (3, 4)))
    # Whatever the function returns is returned, as NumPy's.
    assert lt.fromfunction(lambda i, j: 7, (2, 2)) == 7
    rows = lt.fromfunction(lambda i, j: (i, j), (2, 3), dtype=int)
    for got, exp in zip(rows, np.fromfunction(lambda i, j: (i, j), (2, 3), dtype=int)):
        assert_eq(got, exp)


@pytest.mark.parametrize("shape", [(-1, 2), 3, (2.5,), "ab"])
def test_fromfunction_errors(shape: Any) -> None:
    check(lambda: np.fromfunction(lambda *g: g[0], shape),
          lambda: lt.fromfunction(lambda *g: g[0], shape))


# ------------------------------------------------------------------ frombuffer, fromiter, ...

@pytest.mark.parametrize("args", [
    {}, {"dtype": np.uint8}, {"dtype": "<i2", "count": 3}, {"dtype": np.int32, "offset": 4},
    {"dtype": np.complex64, "count": 1, "offset": 8}, {"dtype": np.uint8, "count": 0},
    {"dtype": np.uint8, "offset": 16}, {"dtype": np.int16, "offset": 3},
    {"dtype": np.int32, "count": 5}, {"dtype": np.uint8, "offset": 17},
    {"dtype": np.uint8, "offset": -1}, {"dtype": "S2"}, {"dtype": np.float64, "count": 3},
])
def test_frombuffer(engine: Any, args: dict[str, Any]) -> None:
    buf = bytes(range(1, 17))
    if args.get("dtype") == "S2":
        with pytest.raises(TypeError):
            lt.frombuffer(buf, **args)      # (a dtype lazyten does not handle)
        return
    check(lambda: np.frombuffer(buf, **args), lambda: lt.frombuffer(buf, **args))


def test_frombuffer_shares_the_buffer(engine: Any) -> None:
    src = np.arange(6.0)
    t = lt.frombuffer(src, dtype=np.float64)
    assert lt.shares_memory(t, src)
    buf = bytearray(b"\x01\x02\x03\x04")
    u = lt.frombuffer(buf, dtype=np.uint8)
    buf[0] = 9                              # read when evaluated, as NumPy's view reads it
    assert_eq(u, np.frombuffer(buf, dtype=np.uint8))
    assert_eq(lt.frombuffer(memoryview(np.arange(4, dtype=np.int16)[::-1].copy()), np.int16),
              np.arange(4, dtype=np.int16)[::-1])
    check(lambda: np.frombuffer(b"", np.uint8), lambda: lt.frombuffer(b"", np.uint8))
    check(lambda: np.frombuffer(b"12345", np.int16), lambda: lt.frombuffer(b"12345", np.int16))


@pytest.mark.parametrize("dtype", [int, np.float32, np.complex128, bool, np.uint8])
@pytest.mark.parametrize("count", [-1, 0, 3, 9])
def test_fromiter(engine: Any, dtype: Any, count: int) -> None:
    items = [0, 1, 2, 3, 4, 5]
    check(lambda: np.fromiter(iter(items), dtype, count),
          lambda: lt.fromiter(iter(items), dtype, count))
    check(lambda: np.fromiter((x * 2 for x in items), dtype=dtype, count=count),
          lambda: lt.fromiter((x * 2 for x in items), dtype=dtype, count=count))
    check(lambda: np.fromiter(np.arange(6)[::2], dtype, count),
          lambda: lt.fromiter(lt.asarray(np.arange(6))[::2], dtype, count))


def test_fromiter_errors() -> None:
    check(lambda: np.fromiter([[1, 2], [3, 4]], float),
          lambda: lt.fromiter([[1, 2], [3, 4]], float))
    check(lambda: np.fromiter(np.ones((2, 2)), float),
          lambda: lt.fromiter(lt.ones((2, 2)), float))
    check(lambda: np.fromiter(5, float), lambda: lt.fromiter(5, float))
    check(lambda: np.fromiter([], float), lambda: lt.fromiter([], float))
    with pytest.raises(TypeError):
        lt.fromiter([1, 2])                 # type: ignore[call-arg]  (dtype is required)


@pytest.mark.parametrize("text,kw", [
    ("1 2 3", {"dtype": int, "sep": " "}), ("1.5, 2, -3e2", {"sep": ","}),
    ("1 2 3 4", {"dtype": np.float32, "count": 2, "sep": " "}), ("", {"sep": " "}),
    ("\x01\x02", {"dtype": np.uint8}), ("1,2,x", {"dtype": int, "sep": ","}),
])
def test_fromstring(engine: Any, text: str, kw: dict[str, Any]) -> None:
    check(lambda: np.fromstring(text, **kw), lambda: lt.fromstring(text, **kw))


# ------------------------------------------------------------------ trim_zeros

TRIM_1D = [[0, 0, 1, 2, 0, 3, 0, 0], [1, 0, 2], [0, 0, 0], [], [0], [5], [0.0, -0.0, np.nan, 0.0],
           [False, True, False]]


@pytest.mark.parametrize("values", TRIM_1D)
@pytest.mark.parametrize("trim", ["fb", "f", "b", "bf", "FB", "B"])
def test_trim_zeros_1d(engine: Any, values: list[Any], trim: str) -> None:
    a = np.array(values)
    check(lambda: np.trim_zeros(a, trim), lambda: lt.trim_zeros(lt.asarray(a), trim))
    # (a list comes back a tensor, where NumPy gives a list)
    assert_eq(lt.trim_zeros(values, trim), np.asarray(np.trim_zeros(values, trim), a.dtype))
    # strided: every other element of a longer array
    s = np.repeat(a, 2)[::2] if a.size else a
    check(lambda: np.trim_zeros(s, trim),
          lambda: lt.trim_zeros(lt.asarray(np.repeat(a, 2))[::2] if a.size else lt.asarray(a),
                                trim))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1), (1, 0), [0], (), 2, -3, (0, 0)])
@pytest.mark.parametrize("trim", ["fb", "f", "b"])
def test_trim_zeros_nd(engine: Any, axis: Any, trim: str) -> None:
    b = np.array([[0, 0, 2, 3, 0, 0], [0, 1, 0, 3, 0, 0], [0, 0, 0, 0, 0, 0]])
    for x in (b, b.T, np.zeros((2, 3), int), np.zeros((0, 3)), b[:, ::-1] * 1.5):
        check(lambda: np.trim_zeros(x, trim, axis),
              lambda: lt.trim_zeros(lt.asarray(x), trim, axis))
        # a computed input: evaluated to find the zeros, then sliced lazily
        check(lambda: np.trim_zeros(x * 2, trim, axis),
              lambda: lt.trim_zeros(lt.asarray(x) * 2, trim, axis))


def test_trim_zeros_0d_and_errors(engine: Any) -> None:
    for x in (np.array(0), np.array(2.5)):
        t = lt.asarray(x)
        assert lt.trim_zeros(t) is t                     # NumPy returns filt itself
        assert_eq(lt.trim_zeros(t), np.trim_zeros(x))
    a = np.array([0, 1, 0])
    for trim in ("x", "fbf", ""):
        check(lambda: np.trim_zeros(a, trim), lambda: lt.trim_zeros(lt.asarray(a), trim))
    with pytest.raises(np.exceptions.AxisError):
        lt.trim_zeros(lt.asarray(a), axis=1)


def test_trim_zeros_is_a_view(engine: Any) -> None:
    x = np.array([0, 0, 4, 5, 0])
    t = lt.asarray(x)
    r = lt.trim_zeros(t)
    assert lt.shares_memory(r, t) and lt.shares_memory(r, x)
    r[0] = 7                                  # a view's write reaches t, as in NumPy
    e = x.copy()
    np.trim_zeros(e)[0] = 7
    assert_eq(t, e)
    assert x[2] == 4                          # (never the user's array)


# ------------------------------------------------------------------ ascontiguousarray, ...

@pytest.mark.parametrize("name", list(arrays()))
@pytest.mark.parametrize("fn", ["ascontiguousarray", "asfortranarray"])
@pytest.mark.parametrize("dtype", [None, np.float32, np.complex128])
def test_contiguous(engine: Any, name: str, fn: str, dtype: Any) -> None:
    x = arrays()[name]
    np_fn, lt_fn = getattr(np, fn), getattr(lt, fn)
    exp = np_fn(x, dtype=dtype)
    eq_layout(lt_fn(x, dtype=dtype), exp)               # an array
    for form, xv, t in lazy_forms(x):
        eq_layout(lt_fn(t, dtype=dtype), np_fn(xv, dtype=dtype))
        # NumPy makes no copy when the layout is right: neither does lazyten,
        # where it knows the layout (a wrapped array, a view of one)
        if form != "computed" and (dtype is None or np.dtype(dtype) == x.dtype) \
                and np.shares_memory(np_fn(xv), xv):
            got = lt_fn(t)
            assert got is t or (x.ndim == 0 and lt.shares_memory(got, t))


def test_contiguous_lists_scalars_and_copies(engine: Any) -> None:
    for obj in ([[1, 2], [3, 4]], 5, 2.5, [], [True]):
        for fn in ("ascontiguousarray", "asfortranarray"):
            eq_layout(getattr(lt, fn)(obj), getattr(np, fn)(obj))
    x = np.arange(12.0).reshape(3, 4)
    t = lt.asarray(x)
    c = lt.asfortranarray(t)
    c[0, 0] = -1                              # a copy, as NumPy's: t is unchanged
    assert_eq(t, x)
    assert_eq(c, np.where(np.arange(12).reshape(3, 4) == 0, -1.0, x))
    v = lt.ascontiguousarray(t[1:])           # a view, as NumPy's
    v[0, 0] = -2
    assert t.eval()[1, 0] == -2 and x[1, 0] == 4
    with pytest.raises(TypeError):
        lt.ascontiguousarray(["a", "b"])
    with pytest.raises(TypeError):
        lt.ascontiguousarray(t, dtype="U3")


def test_contiguous_feeds_kernels(engine: Any) -> None:
    """A layout copy in the middle of a graph: later kernels read it."""
    x = np.arange(24.0).reshape(4, 6)
    t = lt.asarray(x)
    f = lt.asfortranarray(t.T * 2)
    assert_eq(f + 1, np.asfortranarray(x.T * 2) + 1)
    assert_eq((lt.ascontiguousarray(t[:, ::2]) * 3).sum(axis=0), (x[:, ::2] * 3).sum(axis=0))
    a, b = lt.compute(lt.ascontiguousarray(t.T), lt.asfortranarray(t))
    same_flags(a, np.ascontiguousarray(x.T))
    same_flags(b, np.asfortranarray(x))


# ------------------------------------------------------------------ asanyarray, require

@pytest.mark.parametrize("name", ["c", "f", "strided", "0d", "1d_strided", "empty", "3d_f"])
@pytest.mark.parametrize("order", [None, "K", "A", "C", "F", "c"])
@pytest.mark.parametrize("copy", [None, True, False])
def test_asanyarray(engine: Any, name: str, order: Any, copy: Any) -> None:
    x = arrays()[name]
    for form, xv, t in lazy_forms(x):
        for dtype in (None, np.float32):
            try:
                exp = np.asanyarray(xv, dtype=dtype, order=order, copy=copy)
            except ValueError:
                if copy is False and form != "computed":
                    with pytest.raises(ValueError):
                        lt.asanyarray(t, dtype=dtype, order=order, copy=copy)
                    with pytest.raises(ValueError):
                        lt.asanyarray(xv, dtype=dtype, order=order, copy=copy)
                continue
            if form == "computed" and copy is False and order in ("C", "F", "c") and t.size > 1:
                # (a computed tensor's layout is known only when it runs:
                # lazyten cannot promise that no copy is needed)
                with pytest.raises(ValueError):
                    lt.asanyarray(t, dtype=dtype, order=order, copy=copy)
                continue
            got = lt.asanyarray(t, dtype=dtype, order=order, copy=copy)
            if order in ("C", "F", "c") or copy or dtype is not None:
                eq_layout(got, exp)
            elif t._is_scalar():
                # (a computed 0-d tensor is NumPy's scalar: asanyarray makes
                # a 0-d array of it, which in-place operators write)
                assert got is not t and not got._is_scalar()
            else:
                assert got is t                  # no copy asked or needed
            eq_layout(lt.asanyarray(xv, dtype=dtype, order=order, copy=copy), exp)
            if copy and form != "computed":
                assert not lt.shares_memory(got, t)


def test_asanyarray_masked_and_errors(engine: Any) -> None:
    m = np.ma.masked_array([1.0, 2.0, 3.0], mask=[False, True, False])
    got = lt.asanyarray(m)
    assert isinstance(got, lt.ma.MaskedTensor)
    np.testing.assert_array_equal(np.asarray(got.mask), m.mask)
    mt = lt.ma.masked_array(lt.arange(3.0), mask=[True, False, False])
    assert isinstance(lt.asanyarray(mt), lt.ma.MaskedTensor)
    with pytest.raises(ValueError):
        lt.asanyarray(lt.arange(3), order="Z")
    with pytest.raises(ValueError):
        np.asarray([1], order="Z")
    with pytest.raises(ValueError):
        lt.asanyarray(lt.arange(3), device="gpu")
    with pytest.raises(ValueError):
        lt.asanyarray(lt.arange(3), dtype=float, copy=False)


REQUIREMENTS: list[Any] = [None, [], "C", "F", "A", "W", "O", "E", "CW", "FO", ["C_CONTIGUOUS"],
                           ["F_CONTIGUOUS", "aligned"], ["OWNDATA", "WRITEABLE"], ("E", "C"),
                           "CF", ["C", "FORTRAN"], "X", ["nope"], "c", "a"]


@pytest.mark.parametrize("req", REQUIREMENTS)
@pytest.mark.parametrize("name", ["c", "f", "strided", "0d", "empty"])
def test_require(engine: Any, req: Any, name: str) -> None:
    x = arrays()[name]
    for form, xv, t in lazy_forms(x):
        for dtype in (None, np.complex128):
            try:
                exp = np.require(xv, dtype, req)
            except Exception as e:  # noqa: BLE001 - NumPy's type is the check
                with pytest.raises(public_type(e)):
                    lt.require(t, dtype, req)
                with pytest.raises(public_type(e)):
                    lt.require(xv, dtype, req)
                continue
            got = lt.require(t, dtype, req)
            eq_layout(lt.require(xv, dtype, req), exp)
            eq_layout(got, exp)
            # NumPy copies exactly when a requirement fails; so does lazyten,
            # where it knows the layout (a wrapped array, a view of one)
            if form != "computed":
                assert (got is t) == (exp is xv), (form, req)


def test_require_writeable_and_owndata(engine: Any) -> None:
    base = lt.arange(6).reshape(2, 3)
    b = lt.broadcast_to(lt.arange(3), (2, 3))
    w = lt.require(b, requirements="W")
    assert w is not b
    w[0, 0] = 9                                # writeable: its own copy
    assert_eq(w, np.array([[9, 1, 2], [0, 1, 2]]))
    d = lt.diagonal(base)
    assert lt.require(d, requirements=["W"]) is not d
    assert lt.require(base[0], requirements="W") is not None
    row = base[0]
    assert lt.require(row, requirements="W") is row      # a view, writeable
    own = lt.require(row, requirements="O")              # a view owns no data: a copy
    assert own is not row
    own[0] = 100
    assert_eq(base, np.arange(6).reshape(2, 3))
    assert lt.require(base, requirements="O") is not base   # (a reshape's view, as NumPy's)
    assert not np.require(np.arange(6).reshape(2, 3), requirements="O").base is not None
    owner = lt.asarray(np.ones(3))
    assert lt.require(owner, requirements="O") is owner


# ------------------------------------------------------------------ shares_memory

def _view_pairs(xp: Any, x: Any) -> list[tuple[Any, Any]]:
    """Pairs of views of one (4, 6) array ``x``, built with ``xp``."""
    return [
        (x[:2], x[1:]), (x[:2], x[2:]), (x[::2], x[1::2]), (x[:, ::2], x[:, 1::2]),
        (x, x.T), (x[0], x[1]), (x[0], x[:, 0]), (x.reshape(-1)[5:8], x[1]),
        (x[1:, 2:], x[:1, :2]), (x[2:2], x), (x[::-1], x[3]),
        (xp.broadcast_to(x[0], (3, 6)), x[0, 3]), (xp.diagonal(x), x[1, 1]),
        (xp.diagonal(x), x[1, 0]), (x[None, 1:3, ..., None], x[2, :]), (x, x),
        (xp.swapaxes(x, 0, 1)[2], x[:, 2]), (xp.reshape(x, (2, 12))[1], x[0]),
    ]


@pytest.mark.parametrize("k", range(18))
@pytest.mark.parametrize("max_work", [None, 0, -1, 1])
def test_shares_memory_views(engine: Any, k: int, max_work: Any) -> None:
    x = np.arange(24.0).reshape(4, 6)
    t = lt.asarray(x)
    c_np = x * 2
    c = t * 2                                           # a root of its own
    for xp_pair, lt_pair in ((_view_pairs(np, x)[k], _view_pairs(lt, t)[k]),
                             (_view_pairs(np, c_np)[k], _view_pairs(lt, c)[k])):
        (a, b), (ta, tb) = xp_pair, lt_pair
        mw = {} if max_work is None else {"max_work": max_work}
        for lt_fn, np_fn in ((lt.shares_memory, np.shares_memory),
                             (lt.may_share_memory, np.may_share_memory)):
            try:
                exp = np_fn(a, b, **mw)
            except np.exceptions.TooHardError:   # (more work than max_work allows)
                with pytest.raises(np.exceptions.TooHardError):
                    lt_fn(ta, tb, **mw)
            else:
                assert lt_fn(ta, tb, **mw) == exp, k
    # a tensor against the user's arrays it reads
    a, b = _view_pairs(np, x)[k]
    ta, tb = _view_pairs(lt, t)[k]
    assert lt.shares_memory(ta, b) == np.shares_memory(a, b)
    assert lt.shares_memory(a, tb) == np.shares_memory(a, b)
    assert lt.may_share_memory(ta, b) == np.may_share_memory(a, b)
    # views of a computed tensor never share the user's array
    ca, cb = _view_pairs(lt, c)[k]
    assert not lt.shares_memory(ca, x) and not lt.may_share_memory(ca, b)


def test_shares_memory_roots(engine: Any) -> None:
    x = np.arange(12.0).reshape(3, 4)
    t, u = lt.asarray(x), lt.asarray(x)
    assert lt.shares_memory(t, u) and lt.shares_memory(t[0], u[0, 1:])   # one array
    assert lt.shares_memory(t, x) and lt.shares_memory(x[1:], t[2])
    assert not lt.shares_memory(t, x.copy())
    assert not lt.shares_memory(t, t + 0) and not lt.shares_memory(t * 1, t * 1)
    # a lazy copy reads the user's array when evaluated: it shares its memory
    assert lt.shares_memory(lt.copy(t[1:]), t) and lt.shares_memory(lt.copy(t), x)
    assert not lt.shares_memory(lt.copy(t[1:]), t[0])
    # copies by a copy op do not (nor does a copy of a computed tensor)
    assert not lt.shares_memory(lt.array(t), x)
    assert not lt.shares_memory(lt.asanyarray(t, copy=True), x)
    c = t * 2
    assert not lt.shares_memory(lt.copy(c), c) and lt.shares_memory(c[1], c)
    assert not lt.shares_memory(t.reshape(-1), t.T.reshape(-1))  # a reshape that copies
    assert lt.shares_memory(t.T.reshape(-1, 3)[0], t.T) == \
        np.shares_memory(x.T.reshape(-1, 3)[0], x.T)
    cx = lt.asarray(x.T.reshape(-1))
    assert not lt.shares_memory(cx, x)                  # (NumPy copied it)
    # complex parts are views
    z = np.arange(6.0).astype(complex)
    tz = lt.asarray(z)
    assert lt.shares_memory(tz.real, z) and lt.shares_memory(tz.imag, tz.real) == \
        np.shares_memory(z.imag, z.real)
    # a written root has memory of its own (the user's array is never written)
    w = lt.asarray(x)
    view = w[1]
    w[0, 0] = -1
    assert not lt.shares_memory(w, x) and not lt.shares_memory(view, x)
    assert lt.shares_memory(view, w) and not lt.shares_memory(w[0], view)
    # other objects are new arrays in NumPy: they share nothing
    assert not lt.shares_memory([1, 2], [1, 2]) and not lt.shares_memory(t, [0.0, 1.0])
    assert not lt.shares_memory(3.0, t) and not lt.may_share_memory(t, 3.0)
    assert lt.shares_memory(x, x[1]) and not lt.shares_memory(x[0], x[1])
    # empty views share nothing, as in NumPy
    assert not lt.shares_memory(t[1:1], t) and not np.shares_memory(x[1:1], x)
    # an element (NumPy's scalar) is a copy
    assert not lt.shares_memory(t[0, 0], t)
    # 0-d
    s = np.array(5.0)
    assert lt.shares_memory(lt.asarray(s), s) and lt.shares_memory(lt.asarray(s)[...], s)
    assert not lt.shares_memory(lt.asarray(s)[()], s) and not np.shares_memory(s[()], s)


def test_shares_memory_too_hard() -> None:
    x = np.zeros(10 ** 6, np.int8)
    a, b = x[::7], x[::11]
    t = lt.asarray(x)
    for fn in (lambda p, q: np.shares_memory(p, q, max_work=1),):
        try:
            exp: Any = fn(a, b)
        except np.exceptions.TooHardError:
            with pytest.raises(np.exceptions.TooHardError):
                lt.shares_memory(t[::7], t[::11], max_work=1)
        else:
            assert lt.shares_memory(t[::7], t[::11], max_work=1) == exp


# ------------------------------------------------------------------ ndindex, ndenumerate

@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 2), (1, 2, 3)])
def test_ndindex(shape: tuple[int, ...]) -> None:
    assert list(lt.ndindex(*shape)) == list(np.ndindex(*shape))
    assert list(lt.ndindex(shape)) == list(np.ndindex(shape))
    assert list(lt.ndindex(lt.zeros(shape).shape)) == list(np.ndindex(shape))


@pytest.mark.parametrize("name", list(arrays()))
def test_ndenumerate(engine: Any, name: str) -> None:
    x = arrays()[name]
    for _, xv, t in lazy_forms(x):
        got, exp = list(lt.ndenumerate(t)), list(np.ndenumerate(xv))
        assert [i for i, _ in got] == [i for i, _ in exp]
        for (_, g), (_, e) in zip(got, exp):
            assert type(g) is type(e) and (g == e or (g != g and e != e))
    assert list(lt.ndenumerate([[1, 2], [3, 4]])) == list(np.ndenumerate([[1, 2], [3, 4]]))


def test_ndenumerate_is_lazy_and_a_snapshot(engine: Any) -> None:
    t = lt.arange(4) * 10
    it = lt.ndenumerate(t)
    assert t.node.value is None               # nothing computed yet
    t[0] = -1                                  # after the call: not seen
    assert [int(v) for _, v in it] == [0, 10, 20, 30]
    assert iter(it) is it
    with pytest.raises(StopIteration):
        next(it)


# ------------------------------------------------------------------ mgrid, ogrid

GRID_KEYS: list[Callable[[Any], Any]] = [
    lambda g: g[0:5], lambda g: g[0:5:2], lambda g: g[5:0:-1], lambda g: g[1:2:0.25],
    lambda g: g[0:1:5j], lambda g: g[-1:1:3j], lambda g: g[3:3], lambda g: g[:4],
    lambda g: g[0:3, 0:4], lambda g: g[0:1:3j, 0:5], lambda g: g[0:2, 0:1:0.5],
    lambda g: g[0:3,], lambda g: g[-2:2:2, 1:4, 0:1:2j], lambda g: g[0:0, 0:3],
    lambda g: g[np.float32(0):np.float32(1):np.float32(0.25)],
    lambda g: g[np.int8(0):np.int8(3), 0:2], lambda g: g[0:1:np.complex64(3j), 0:2],
    lambda g: g[np.float32(0):np.float32(1):4j, 0:2], lambda g: g[0:5:0],
    lambda g: g[0:3, 0:5:0], lambda g: g[0:3, 2], lambda g: g[()], lambda g: g[0:1:1j],
    lambda g: g[0:3, 0:1:1j], lambda g: g[1.5:4], lambda g: g[0:5:-1],
]


@pytest.mark.parametrize("k", range(len(GRID_KEYS)))
def test_mgrid_ogrid(engine: Any, k: int) -> None:
    key = GRID_KEYS[k]
    check(lambda: key(np.mgrid), lambda: key(lt.mgrid))
    check(lambda: key(np.ogrid), lambda: key(lt.ogrid))


def test_mgrid_is_lazy(engine: Any) -> None:
    g = lt.mgrid[0:300, 0:200]
    assert isinstance(g, lt.Tensor) and g.node.value is None and g.node.op.kind != "source"
    x, y = g
    assert_eq((x * y).sum(), (np.mgrid[0:300, 0:200][0] * np.mgrid[0:300, 0:200][1]).sum())
    xs, ys = lt.ogrid[0:3, 0:4]
    assert_eq(xs + ys, np.add(*np.ogrid[0:3, 0:4]))


# ------------------------------------------------------------------ r_, c_

A1 = np.array([1, 2, 3])
B1 = np.array([4.5, 5.5, 6.5])
A2 = np.arange(6).reshape(2, 3)
B2 = np.arange(6, 12).reshape(2, 3)

CONCAT_KEYS: list[Callable[[Any, Any], Any]] = [
    lambda c, w: c[1:5], lambda c, w: c[1:5:0.5], lambda c, w: c[0:1:5j],
    lambda c, w: c[w(A1), 0, 0, w(B1)], lambda c, w: c[-1:1:6j, [0] * 3, 5, 6],
    lambda c, w: c[w(A2), w(B2)], lambda c, w: c["-1", w(A2), w(B2)],
    lambda c, w: c["0,2", [1, 2, 3], [4, 5, 6]], lambda c, w: c["1,2", [1, 2, 3], [4, 5, 6]],
    lambda c, w: c["0,2,0", [1, 2, 3], [4, 5, 6]], lambda c, w: c["1,2,0", [1, 2, 3], [4, 5, 6]],
    lambda c, w: c["1,3,1", w(A2), w(B2)], lambda c, w: c["0,3,-2", w(A1), 7],
    lambda c, w: c[w(A1).astype(np.int8), 300], lambda c, w: c[w(A1).astype(np.int8), 3],
    lambda c, w: c[w(A1).astype(np.float32), 2.5, np.float64(1)],
    lambda c, w: c[w(A1)[::-2], True], lambda c, w: c[w(np.array(5.0)), w(A1)],
    lambda c, w: c[w(np.zeros((0,))), w(A1)], lambda c, w: c[3], lambda c, w: c[()],
    lambda c, w: c[w(A2), w(A1)], lambda c, w: c[1:3, "r"], lambda c, w: c["x", w(A1)],
    lambda c, w: c["0,x", w(A1)], lambda c, w: c[[1j, 2], w(A1)],
    lambda c, w: c[w(A1), 0:3, w(B1)[::-1]],
]


@pytest.mark.parametrize("k", range(len(CONCAT_KEYS)))
@pytest.mark.parametrize("which", ["r_", "c_"])
def test_r_c(engine: Any, k: int, which: str) -> None:
    key = CONCAT_KEYS[k]
    check(lambda: key(getattr(np, which), np.asarray),
          lambda: key(getattr(lt, which), lt.asarray))
    # arrays given as they are (NumPy's own inputs)
    check(lambda: key(getattr(np, which), np.asarray),
          lambda: key(getattr(lt, which), np.asarray))


@pytest.mark.parametrize("directive", ["r", "c"])
def test_r_matrix_directives(engine: Any, directive: str) -> None:
    for items in ((A1, B1), (A2, B2), (np.arange(3),)):
        exp = np.asarray(np.r_[(directive,) + items])
        assert_eq(lt.r_[(directive,) + tuple(lt.asarray(i) for i in items)], exp)
    with pytest.raises(NotImplementedError):
        lt.r_["1 2; 3 4"]


def test_r_c_stay_lazy(engine: Any) -> None:
    t = lt.arange(3) * 2
    r = lt.r_[t, 0:2, 7]
    assert isinstance(r, lt.Tensor) and t.node.value is None and r.node.value is None
    assert_eq(r, np.r_[np.arange(3) * 2, 0:2, 7])
    c = lt.c_[t, t + 1]
    assert t.node.value is None
    assert_eq(c, np.c_[np.arange(3) * 2, np.arange(3) * 2 + 1])
    assert len(lt.r_) == len(lt.c_) == 0


# ------------------------------------------------------------------ s_, index_exp

def test_s_and_index_exp(engine: Any) -> None:
    assert lt.s_[1:3, ::2] == np.s_[1:3, ::2] and lt.s_[2] == np.s_[2]
    assert lt.index_exp[2] == np.index_exp[2] == (2,)
    assert lt.index_exp[1:, ..., None] == np.index_exp[1:, ..., None]
    x = np.arange(24).reshape(4, 6)
    for key in (lt.s_[1:3, ::2], lt.index_exp[::-1], lt.s_[..., 2], lt.index_exp[None, 1]):
        assert_eq(lt.asarray(x)[key], x[key])


@pytest.mark.parametrize("build", [
    lambda m: m.zeros(True), lambda m: m.ones(False), lambda m: m.zeros((True, 2)),
    lambda m: m.full(True, 1.0), lambda m: m.empty(True), lambda m: m.eye(True),
    lambda m: m.eye(3, True), lambda m: m.identity(True), lambda m: m.ones((2, np.True_)),
    lambda m: m.linspace(0, 1, True), lambda m: m.eye(3, k=True), lambda m: m.tri(True),
    lambda m: m.array([1.0], ndmin=True)], ids=range(13))
def test_bools_as_sizes_as_numpy_reads_them(build: Any) -> None:
    """A bool is no size to NumPy (``zeros(True)`` is a TypeError, though
    True is an int); counts such as linspace's ``num`` or ``ndmin`` take it."""
    check(lambda: build(np), lambda: build(lt))


def test_a_0d_tensor_is_a_shape() -> None:
    for shape in (lt.asarray(3), lt.asarray(np.int8(2)), lt.asarray([2, 3])):
        want = tuple(np.atleast_1d(shape.eval()).tolist())
        assert lt.zeros(shape).shape == want
        assert lt.full(shape, 1.0).shape == want
    with pytest.raises(TypeError):
        lt.zeros(lt.asarray(3.0))


@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
def test_copy_of_a_numpy_array_is_made_when_called(order: str) -> None:
    """``lt.copy(ndarray)`` is NumPy's copy, made now: a later write to the
    array does not reach it (it read the array when evaluated)."""
    for x in (np.arange(6.0).reshape(2, 3), np.asfortranarray(np.arange(6.0).reshape(2, 3))):
        want = np.copy(x, order=order)
        c = lt.copy(x, order=order)
        x[0, 0] = 99.0
        got = c.eval()
        np.testing.assert_array_equal(got, want)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (want.flags.c_contiguous, want.flags.f_contiguous)


@pytest.mark.parametrize("args,kwargs", [
    ((3,), {}), ((1, 5), {}), ((0, 5, 2, np.int8), {}), ((), {"stop": 3}),
    ((), {"start": 1, "stop": 3}), ((), {"start": 3}), ((1,), {"start": 2}), ((None,), {}),
    ((), {}), ((3,), {"step": 2}), ((2,), {"stop": 6}), ((), {"start": None, "stop": 3})],
    ids=range(12))
def test_arange_call_forms_are_numpys(args: Any, kwargs: Any) -> None:
    """``arange(stop)``, ``arange(start, stop[, step])``, ``stop=`` and
    ``start=`` by name; ``start=`` alone is NumPy's TypeError (it was taken
    as the stop)."""
    check(lambda: np.arange(*args, **kwargs), lambda: lt.arange(*args, **kwargs))
