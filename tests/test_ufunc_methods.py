"""NumPy's ufunc methods and attributes on the elementwise functions
(``lazyten/ufuncs.py``): ``lt.add.reduce``, ``accumulate``, ``reduceat``,
``outer``, ``at``, and ``nin``, ``identity``, ``types``, ...

Each case builds the same call with NumPy and with lazyten and compares the
bits (and the dtype and shape inferred when the node was built); where NumPy
raises, building the lazy node must raise the same public exception type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest

import lazyten as lt
from lazyten.functions import ELEMENTWISE
from lazyten.ufuncs import LazyUfunc
from tests.conftest import ENGINES
from tests.util import public_type, same_bits

pytestmark = pytest.mark.filterwarnings(
    "ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")

DTYPES = [np.dtype(d) for d in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128)]
DTYPE_IDS = [str(d) for d in DTYPES]

# Every generated function that is a NumPy ufunc under its name (aliases too).
UFUNC_NAMES = sorted(n for n in ELEMENTWISE if isinstance(getattr(np, n, None), np.ufunc))
BINARY = sorted(n for n in UFUNC_NAMES if getattr(np, n).nin == 2
                and ELEMENTWISE[n].__name__ == n)          # (one name per op)
UNARY = sorted(n for n in UFUNC_NAMES if getattr(np, n).nin == 1)
# The ufuncs whose reduce is one of lazyten's own reductions.
MAPPED = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
          "logical_or", "bitwise_and", "bitwise_or"]


def ufunc(name: str) -> LazyUfunc:
    """``lt.<name>``, as type checkers may read it (its methods)."""
    return cast(LazyUfunc, getattr(lt, name))


@pytest.fixture(params=ENGINES + [pytest.param(
    {"optimize": True, "backend": "loop", "check": True}, id="optimized-loop")])
def engine(request: Any) -> Any:
    """The engines, and compiled loops: reductions fuse into kernels."""
    with lt.set_options(**request.param):
        yield request.param


@pytest.fixture(params=ENGINES)
def plain_engine(request: Any) -> Any:
    """The reference and the optimized engine: ``outer`` is the elementwise
    call (its loops are tested in test_ops_table) and accumulate, reduceat
    and at are NumPy's own method, in a step of their own."""
    with lt.set_options(**request.param):
        yield request.param


def data(dtype: np.dtype[Any], shape: tuple[int, ...], rng: np.random.Generator,
         specials: bool = False) -> np.ndarray[Any, Any]:
    """Values every binary ufunc is defined on (integers 1..4: powers,
    shifts, divisions); with ``specials``, floats get NaN, infinities and
    signed zeros."""
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(1, 5, shape).astype(dtype)
    v = rng.uniform(-2, 2, shape).round(3)
    if specials and v.size >= 8:
        v.reshape(-1)[:8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -1.5, 1e-3]
    if dtype.kind == "c":
        v = v + 1j * rng.uniform(-2, 2, shape).round(3)
    return v.astype(dtype)


def layouts(dtype: np.dtype[Any], rng: np.random.Generator
            ) -> list[tuple[str, np.ndarray[Any, Any], lt.Tensor]]:
    """(name, NumPy array, the same as a tensor): 0-d, empty, plain 2-d,
    a lazy strided slice, a user array with negative strides, specials."""
    out = []
    for name, shape in (("0d", ()), ("empty", (0, 3)), ("plain", (3, 4))):
        a = data(dtype, shape, rng)
        out.append((name, a, lt.asarray(a)))
    base = data(dtype, (6, 9), rng)
    out.append(("strided", base[::2, 1::2], lt.asarray(base)[::2, 1::2]))
    neg = data(dtype, (4, 6), rng)[::-1, ::-2]
    out.append(("negstride", neg, lt.asarray(neg)))
    sp = data(dtype, (4, 5), rng, specials=True)
    out.append(("specials", sp, lt.asarray(sp)))
    return out


def bits(np_fn: Callable[[], Any], lt_fn: Callable[[], Any]) -> None:
    """``lt_fn()`` is ``np_fn()`` bit for bit (values, dtype, shape, and the
    shape/dtype inferred when it was built), or raises NumPy's public
    exception type when it is built."""
    try:
        with np.errstate(all="ignore"):
            expected = np_fn()
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        with pytest.raises(public_type(e)):
            lt_fn()
        return
    got = lt_fn()
    assert isinstance(got, lt.Tensor)
    shape, dtype = got.shape, got.dtype
    with np.errstate(all="ignore"):
        value = got.eval()
    assert (value.shape, value.dtype) == (shape, dtype), "inferred shape/dtype"
    same_bits(value, np.asarray(expected))


def axes_for(ndim: int) -> list[Any]:
    if ndim == 0:
        return [0, -1, None, (), 1]
    return [0, 1, -1, None, (0, 1), (), (1, 0), 2]


# ------------------------------------------------------------------ attributes


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_attributes_are_numpys(name: str) -> None:
    fn, uf = getattr(lt, name), getattr(np, name)
    for attr in ("nin", "nout", "nargs", "identity", "ntypes", "types", "signature"):
        assert getattr(fn, attr) == getattr(uf, attr), attr
    for meth in ("reduce", "accumulate", "reduceat", "outer", "at"):
        assert callable(getattr(fn, meth))
    # (lazyten's op name: the op table reads it; NumPy's where they agree;
    # np.degrees is a ufunc of its own, lazyten's the op rad2deg)
    assert fn.__name__ == uf.__name__ or getattr(np, fn.__name__).types == uf.types


def test_functions_that_are_no_ufuncs_stay_plain() -> None:
    for name in ("fix", "real", "imag"):
        assert not hasattr(getattr(lt, name), "reduce")


@pytest.mark.parametrize("name", UNARY)
def test_unary_methods_are_numpys_value_error(name: str) -> None:
    fn, uf = getattr(lt, name), getattr(np, name)
    x = np.ones(3)
    for meth, args in (("reduce", (x,)), ("accumulate", (x,)), ("reduceat", (x, [0])),
                       ("outer", (x, x))):
        with pytest.raises(ValueError) as np_err:
            getattr(uf, meth)(*args)
        with pytest.raises(ValueError) as lt_err:
            getattr(fn, meth)(*(lt.asarray(a) if isinstance(a, np.ndarray) else a
                                for a in args))
        assert str(np_err.value) in str(lt_err.value)


# ------------------------------------------------------------------ reduce


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", BINARY)
def test_reduce(engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(0)
    uf, fn = getattr(np, name), getattr(lt, name)
    for _, a, t in layouts(dtype, rng):
        for axis in axes_for(a.ndim):
            for keepdims in (False, True) if name in MAPPED[:2] else (False,):
                bits(lambda: uf.reduce(a, axis=axis, keepdims=keepdims),
                     lambda: fn.reduce(t, axis=axis, keepdims=keepdims))
        bits(lambda: uf.reduce(a), lambda: fn.reduce(t))          # (axis=0 by default)


@pytest.mark.parametrize("name", MAPPED)
def test_reduce_maps_to_lazytens_own_reduction(name: str) -> None:
    t = lt.asarray(np.ones((3, 4), bool if name.startswith("bitwise") else float))
    op = lt.explain(getattr(lt, name).reduce(t, axis=1))
    assert "ufunc_reduce" not in op


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(np.float32),
                                   np.dtype(np.float64), np.dtype(np.complex64)],
                         ids=str)
def test_add_reduce_is_the_pairwise_sum_to_the_bit(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(5)
    a = data(dtype, (3, 5000), rng)
    for axis in (0, 1, None, (0, 1)):
        bits(lambda: np.add.reduce(a, axis=axis),
             lambda: ufunc("add").reduce(lt.asarray(a), axis=axis))
        bits(lambda: np.add.reduce(a[:, ::3], axis=axis),
             lambda: ufunc("add").reduce(lt.asarray(a)[:, ::3], axis=axis))
    # (a long axis through the opaque node: NumPy's own float16 accumulator)
    bits(lambda: np.subtract.reduce(a, axis=1),
         lambda: ufunc("subtract").reduce(lt.asarray(a), axis=1))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract",
                                  "fmax", "logical_and", "bitwise_or", "power"])
@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.int8),
                                   np.dtype(np.uint32), np.dtype(np.float32),
                                   np.dtype(np.complex128)], ids=str)
def test_reduce_options(engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(1)
    uf, fn = getattr(np, name), getattr(lt, name)
    a = data(dtype, (3, 4), rng)
    if name == "power" and dtype.kind in "fc":
        # (power.reduce(x, dtype=int64) of a negative value is NumPy's
        # ValueError from the values: lazily, when evaluated)
        a = np.abs(a.real).astype(dtype)
    t = lt.asarray(a)
    empty = np.zeros((0, 4), dtype)
    for kw in ({"initial": 3}, {"initial": True}, {"initial": None}, {"initial": np.int8(2)},
               {"initial": 1.5}, {"dtype": np.float64}, {"dtype": np.int64},
               {"dtype": "f4", "keepdims": True}, {"axis": None, "initial": 2},
               {"axis": (0, 1), "keepdims": True}):
        bits(lambda: uf.reduce(a, **kw), lambda: fn.reduce(t, **kw))
        bits(lambda: uf.reduce(empty, **kw), lambda: fn.reduce(lt.asarray(empty), **kw))
    # positional, NumPy's order
    bits(lambda: uf.reduce(a, 1, None, None, True), lambda: fn.reduce(t, 1, None, None, True))
    # an initial= tensor (a 0-d value)
    bits(lambda: uf.reduce(a, initial=np.asarray(1, dtype)),
         lambda: fn.reduce(t, initial=lt.asarray(np.asarray(1, dtype))))


def test_reduce_errors_are_numpys_when_built() -> None:
    t = lt.asarray(np.ones((2, 3)))
    with pytest.raises(ValueError, match="not reorderable"):
        ufunc("subtract").reduce(t, axis=(0, 1))
    with pytest.raises(ValueError, match="not reorderable"):
        ufunc("power").reduce(t, axis=None)
    with pytest.raises(ValueError, match="no identity"):
        ufunc("maximum").reduce(lt.zeros((0, 3)))
    with pytest.raises(ValueError, match="no identity"):
        ufunc("subtract").reduce(lt.zeros((3, 0)), axis=1)
    with pytest.raises(ValueError, match="no identity"):
        ufunc("add").reduce(lt.zeros(0), initial=None)
    assert ufunc("maximum").reduce(lt.zeros((0, 3)), axis=1).shape == (0,)
    with pytest.raises(np.exceptions.AxisError):
        ufunc("add").reduce(t, axis=2)
    with pytest.raises(TypeError):
        ufunc("add").reduce(t, axis=[0])
    with pytest.raises(TypeError):
        ufunc("gcd").reduce(t)                     # (no float loop)
    with pytest.raises(TypeError):
        ufunc("subtract").reduce(lt.asarray(np.ones(3, bool)))


def test_reduce_out_and_where_are_numpys_call(engine: Any) -> None:
    a = np.arange(12.0).reshape(3, 4)
    t = lt.asarray(a)
    out = np.zeros(4)
    r = ufunc("subtract").reduce(t, out=out)
    assert r is out
    same_bits(out, np.subtract.reduce(a))
    o = lt.zeros(4)
    assert ufunc("add").reduce(t, out=o) is o
    same_bits(o.eval(), np.add.reduce(a))
    mask = np.array([True, False, True, True])
    for name in ("add", "maximum"):
        uf, fn = getattr(np, name), getattr(lt, name)
        bits(lambda: uf.reduce(a, axis=1, where=mask, initial=0),
             lambda: fn.reduce(t, axis=1, where=lt.asarray(mask), initial=0))
        bits(lambda: uf.reduce(a, axis=1, where=mask),
             lambda: fn.reduce(t, axis=1, where=mask))


def test_reduce_of_python_values(engine: Any) -> None:
    bits(lambda: np.add.reduce([1, 2, 3]), lambda: ufunc("add").reduce([1, 2, 3]))
    bits(lambda: np.multiply.reduce(5), lambda: ufunc("multiply").reduce(5))
    bits(lambda: np.subtract.reduce([[1.5, 2.0], [3.0, 4.0]], 1),
         lambda: ufunc("subtract").reduce([[1.5, 2.0], [3.0, 4.0]], 1))


def test_reduce_is_lazy_and_compiles() -> None:
    p = lt.placeholder((3, 4), np.float64)
    f = lt.function([p], [ufunc("subtract").reduce(p, axis=1), ufunc("add").accumulate(p, axis=1),
                          ufunc("maximum").reduce(p), ufunc("hypot").accumulate(p)])
    a = np.random.default_rng(2).random((3, 4))
    for got, exp in zip(f(a), (np.subtract.reduce(a, axis=1), np.add.accumulate(a, axis=1),
                               np.maximum.reduce(a), np.hypot.accumulate(a))):
        same_bits(got, exp)


# ------------------------------------------------------------------ accumulate


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", BINARY)
def test_accumulate(plain_engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(3)
    uf, fn = getattr(np, name), getattr(lt, name)
    for _, a, t in layouts(dtype, rng):
        for axis in ([0, -1, None, (0,)] if a.ndim == 0 else
                     [0, 1, -1, None, (0,), (1,), (0, 1), 2]):
            bits(lambda: uf.accumulate(a, axis=axis), lambda: fn.accumulate(t, axis=axis))
        bits(lambda: uf.accumulate(a.reshape(-1)), lambda: fn.accumulate(t.reshape(-1)))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "logical_xor"])
def test_accumulate_dtype_and_out(engine: Any, name: str) -> None:
    uf, fn = getattr(np, name), getattr(lt, name)
    for dtype in (np.bool_, np.int8, np.uint16, np.float16, np.float32):
        a = data(np.dtype(dtype), (3, 4), np.random.default_rng(4))
        t = lt.asarray(a)
        for dt in (None, np.float64, np.int16, np.bool_, np.complex64):
            bits(lambda: uf.accumulate(a, 1, dt), lambda: fn.accumulate(t, 1, dt))
    a = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    if name != "logical_xor":
        out = lt.zeros((3, 4))
        assert fn.accumulate(lt.asarray(a), axis=1, out=out) is out
        same_bits(out.eval(), uf.accumulate(a, axis=1))


def test_add_accumulate_is_cumsum() -> None:
    t = lt.asarray(np.ones((3, 4), np.int8))
    assert "ufunc_accumulate" not in lt.explain(ufunc("add").accumulate(t, axis=1))
    assert "ufunc_accumulate" not in lt.explain(ufunc("multiply").accumulate(t))


# ------------------------------------------------------------------ reduceat


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract",
                                  "logical_or", "bitwise_xor", "hypot", "fmin"])
def test_reduceat(plain_engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(6)
    uf, fn = getattr(np, name), getattr(lt, name)
    a = data(dtype, (5, 6), rng, specials=True)
    t = lt.asarray(a)
    strided_base = data(dtype, (10, 12), rng)
    cases: list[tuple[np.ndarray[Any, Any], lt.Tensor]] = [
        (a, t), (strided_base[::2, ::2], lt.asarray(strided_base)[::2, ::2]),
        (a[::-1], lt.asarray(a[::-1]))]
    for x, tx in cases:
        for idx in ([0, 2, 3], [3, 1, 4], [0], [4, 4, 0, 5], [], [0, 6], [-1], [2.0, 3]):
            for axis in (0, 1, -1, 2, (1,)):
                bits(lambda: uf.reduceat(x, idx, axis=axis),
                     lambda: fn.reduceat(tx, idx, axis=axis))
    bits(lambda: uf.reduceat(a, np.array([0, 2]), 1, np.float64),
         lambda: fn.reduceat(t, lt.asarray(np.array([0, 2])), 1, np.float64))
    e = np.zeros((0, 3), dtype)
    bits(lambda: uf.reduceat(e, [], axis=0), lambda: fn.reduceat(lt.asarray(e), [], axis=0))
    bits(lambda: uf.reduceat(e, [0], axis=0), lambda: fn.reduceat(lt.asarray(e), [0], axis=0))
    bits(lambda: uf.reduceat(e, [2], axis=1), lambda: fn.reduceat(lt.asarray(e), [2], axis=1))


def test_reduceat_errors_and_out() -> None:
    t = lt.asarray(np.arange(5.0))
    with pytest.raises(IndexError, match="out-of-bounds"):
        ufunc("add").reduceat(t, [0, 7])
    with pytest.raises(IndexError, match="out-of-bounds"):
        ufunc("add").reduceat(t, lt.asarray(np.array([0, 7])))
    with pytest.raises(TypeError):
        ufunc("add").reduceat(lt.asarray(np.ones(())), [0])
    with pytest.raises(ValueError):
        ufunc("add").reduceat(t, 2)
    with pytest.raises(ValueError):
        ufunc("add").reduceat(t, [[0, 1]])
    with pytest.raises(TypeError):
        ufunc("add").reduceat(t, np.array([0, 1], np.uint64))
    out = np.zeros(2)
    assert ufunc("add").reduceat(t, [0, 2], out=out) is out
    same_bits(out, np.add.reduceat(np.arange(5.0), [0, 2]))


# ------------------------------------------------------------------ outer


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", BINARY)
def test_outer(plain_engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(7)
    uf, fn = getattr(np, name), getattr(lt, name)
    a, b = data(dtype, (3,), rng, specials=False), data(dtype, (2, 4), rng)
    sp = data(dtype, (8,), rng, specials=True)
    base = data(dtype, (4, 6), rng)
    for x, y in ((a, b), (b, a), (np.asarray(a[0]), b), (sp, sp), (a[:0], b)):
        bits(lambda: uf.outer(x, y), lambda: fn.outer(lt.asarray(x), lt.asarray(y)))
    bits(lambda: uf.outer(base[::2, 1::3], base[::-1, 0]),
         lambda: fn.outer(lt.asarray(base)[::2, 1::3], lt.asarray(base[::-1, 0])))
    # Python scalars become arrays first: no weak scalar in NumPy's outer
    bits(lambda: uf.outer(2, a), lambda: fn.outer(2, lt.asarray(a)))
    bits(lambda: uf.outer([1.5, 2], a), lambda: fn.outer([1.5, 2], lt.asarray(a)))


def test_outer_keywords(engine: Any) -> None:
    a, b = np.arange(3, dtype=np.int8), np.arange(4, dtype=np.int8)
    ta, tb = lt.asarray(a), lt.asarray(b)
    bits(lambda: np.add.outer(a, b, dtype=np.float32),
         lambda: ufunc("add").outer(ta, tb, dtype=np.float32))
    bits(lambda: np.multiply.outer(a, b, casting="no", dtype=np.int16),
         lambda: ufunc("multiply").outer(ta, tb, casting="no", dtype=np.int16))
    out = np.zeros((3, 4), np.int8)
    assert ufunc("subtract").outer(ta, tb, out=out) is out
    same_bits(out, np.subtract.outer(a, b))


# ------------------------------------------------------------------ at


AT_CASES: list[tuple[str, Any, Any]] = [
    ("add", [0, 0, 2, 0], 1),
    ("add", [0, 0, 2, 0], [1.5, 2.5, -1, 0.25]),
    ("subtract", np.array([1, 1, 3]), 2),
    ("multiply", [3, 3, 3], 3),
    ("maximum", [0, 1, 0], [5, -5, 7]),
    ("fmin", [-1, -1], np.nan),
    ("power", [1, 1], 2),
    ("bitwise_xor", [0, 0, 1], 3),
    ("negative", [0, 0, 1], None),
    ("sqrt", [2, 2], None),
]


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.bool_, np.int8, np.uint16,
                                                         np.float16, np.float64,
                                                         np.complex64)], ids=str)
@pytest.mark.parametrize("case", AT_CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(AT_CASES)])
def test_at(plain_engine: Any, case: tuple[str, Any, Any], dtype: np.dtype[Any]) -> None:
    name, idx, b = case
    uf, fn = getattr(np, name), getattr(lt, name)
    a = data(dtype, (5,), np.random.default_rng(8))
    operand = () if b is None else (b,)
    expected = a.copy()
    try:
        with np.errstate(all="ignore"):
            uf.at(expected, idx, *operand)
    except Exception as e:  # noqa: BLE001 - NumPy's errors are mirrored
        t = lt.asarray(a)
        with pytest.raises(public_type(e)):
            fn.at(t, idx, *operand)
        same_bits(t.eval(), a)               # (left as it was)
        return
    t = lt.asarray(a)
    before = t.copy()                          # a graph built before the write
    assert fn.at(t, idx, *operand) is None
    with np.errstate(all="ignore"):
        same_bits(t.eval(), expected)
        same_bits(before.eval(), a)
    same_bits(a, data(dtype, (5,), np.random.default_rng(8)))   # (the user's array untouched)


def test_at_indices_of_every_kind(engine: Any) -> None:
    a = np.arange(12.0).reshape(3, 4)
    cases: list[tuple[Any, Any]] = [
        ((slice(None), [0, 0]), [[1.0], [2.0], [3.0]]),
        (([0, 0, 2], [1, 1, 3]), 1.0),
        ((1, Ellipsis), 5.0),
        (np.array([True, False, True]), 1.0),
        ((np.array([[0], [2]]), slice(1, None, 2)), np.ones((1, 2))),
        ((None, [0, 0]), 1.0),
        (lt.asarray(np.array([2, 2, 2])), 0.5)]
    for idx, b in cases:
        exp = a.copy()
        np.add.at(exp, idx.eval() if isinstance(idx, lt.Tensor) else idx, b)
        t = lt.asarray(a)
        ufunc("add").at(t, idx, lt.asarray(np.asarray(b)) if isinstance(b, np.ndarray) else b)
        same_bits(t.eval(), exp)


def test_at_writes_through_views_and_into_ndarrays(engine: Any) -> None:
    a = np.arange(6.0)
    t = lt.asarray(a)
    v = t[1::2]
    ufunc("add").at(v, [0, 0, 2], 10.0)
    exp = a.copy()
    np.add.at(exp[1::2], [0, 0, 2], 10.0)
    same_bits(t.eval(), exp)
    same_bits(v.eval(), exp[1::2])
    # an ndarray is NumPy's own call: written in place, as np.add.at writes it
    b = np.zeros(3)
    ufunc("add").at(b, lt.asarray(np.array([1, 1])), lt.asarray(np.array([2.0, 3.0])))
    same_bits(b, np.array([0.0, 5.0, 0.0]))


def test_at_errors_when_called() -> None:
    t = lt.asarray(np.zeros(3))
    with pytest.raises(IndexError):
        ufunc("add").at(t, [5], 1.0)
    with pytest.raises(ValueError, match="second operand needed"):
        ufunc("add").at(t, [0])
    with pytest.raises(ValueError, match="second operand provided"):
        ufunc("negative").at(t, [0], 1.0)
    with pytest.raises(ValueError):
        ufunc("add").at(t, [0, 1], [1.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        ufunc("subtract").at(lt.asarray(np.zeros(3, bool)), [0], True)   # (no bool loop)
    with pytest.raises(IndexError):
        ufunc("add").at(t, lt.asarray(np.array([0, 3])), 1.0)            # (a lazy index, checked)
    # NumPy's at casts unsafely: float into int8
    i8 = lt.asarray(np.zeros(3, np.int8))
    ufunc("add").at(i8, [0, 0], np.array([1.7, 2.9]))
    exp = np.zeros(3, np.int8)
    np.add.at(exp, [0, 0], np.array([1.7, 2.9]))
    same_bits(i8.eval(), exp)
    same_bits(t.eval(), np.zeros(3))
