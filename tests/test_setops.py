"""Set operations and math helpers (lazyten/setops.py) against NumPy, bit for
bit: values (signed zeros, NaN places), shape and dtype, over every dtype
and the layouts that matter (contiguous, strided, 0-d, empty), special
values (±0, ±inf, NaN, subnormals, the integer extremes), the optimizer on
and off; NumPy's exceptions raised when the graph is built."""

from __future__ import annotations

import warnings
from contextlib import nullcontext
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import check, public_type, same_bits

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning",
                                        "ignore::numpy.exceptions.ComplexWarning")

DTYPES = [np.dtype(d) for d in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128)]
IDS = [str(d) for d in DTYPES]


def special_values(dtype: np.dtype[Any], n: int = 24, seed: int = 0) -> np.ndarray[Any, Any]:
    """The edge values of ``dtype`` then ``n`` random ones."""
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return np.array([True, False] * (n // 2 + 1), dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        edge = [0, 1, 7, info.max, info.min, info.max - 1] + ([-1, -7] if dtype.kind == "i" else [])
        return np.concatenate([np.array(edge, dtype), rng.integers(
            max(info.min, -100), min(info.max, 100), n).astype(dtype)])
    real = np.finfo(dtype).dtype
    fi = np.finfo(real)
    fedge = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -2.5, 3.0, 8.0, 8.5,
                     fi.max, -fi.max, fi.tiny, fi.smallest_subnormal, -fi.smallest_subnormal,
                     1e-3, -700.0, 710.0], real)
    rnd = (rng.standard_normal(n) * 20).astype(real)
    if dtype.kind == "f":
        return np.concatenate([fedge, rnd])
    re = np.concatenate([fedge, rnd, fedge[::-1], np.zeros(1, real)])
    im = np.concatenate([fedge[::-1], rnd[::-1], fedge, -np.zeros(1, real)])
    out = np.empty(re.size, dtype)
    out.real, out.imag = re, im
    return out


def layouts(dtype: np.dtype[Any], seed: int = 0) -> list[tuple[np.ndarray[Any, Any], lt.Tensor]]:
    """(array, tensor) pairs: contiguous 2-d, strided (a lazy slice of a
    user array), 0-d, empty."""
    v = special_values(dtype, seed=seed)
    m = v.size - v.size % 4
    plain = v[:m].reshape(4, -1)
    base = np.repeat(v, 2)
    return [(plain, lt.asarray(plain)),
            (base[::2], lt.asarray(base)[::2]),
            (v[3].copy().reshape(()), lt.asarray(v[3].copy().reshape(()))),
            (v[:0].reshape(0, 3)[:, :0], lt.asarray(v[:0].reshape(0, 3))[:, :0])]


def results(lazy: Any) -> list[np.ndarray[Any, Any]]:
    """Each lazy result evaluated, checking that evaluation gives the shape and
    dtype inferred when it was built."""
    items = lazy if isinstance(lazy, (tuple, list)) else [lazy]
    out = []
    for t in items:
        assert isinstance(t, lt.Tensor), type(t)
        with np.errstate(all="ignore"):
            got = t.eval()
        assert (got.shape, got.dtype) == (t.shape, t.dtype), (got.shape, got.dtype, t.shape,
                                                               t.dtype)
        out.append(got)
    return out


def exact(np_fn: Callable[[], Any], lt_fn: Callable[[], Any],
          at_run: tuple[type[Exception], ...] = ()) -> None:
    """``lt_fn()`` gives ``np_fn()``'s bits, shapes and dtypes, or, where NumPy
    raises, raises the same exception type while building (``at_run``: the
    errors that depend on the values, raised when evaluated)."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = np_fn()
    except at_run as e:
        with pytest.raises(type(e)):
            results(lt_fn())
        return
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        with pytest.raises(public_type(e)), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            lt_fn()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        got = results(lt_fn())
    exp = list(expected) if isinstance(expected, tuple) else [expected]
    assert len(got) == len(exp)
    for g, x in zip(got, exp):
        same_bits(g, np.asarray(x))


def lazy(t: lt.Tensor) -> bool:
    """Whether ``t`` is still a graph (not a value computed when it was built)."""
    return t.node.op.kind != "source"


# ------------------------------------------------------------------ elementwise compositions

UNARY: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "angle": (np.angle, lt.angle),
    "angle_deg": (lambda x: np.angle(x, deg=True), lambda x: lt.angle(x, deg=True)),
    "sinc": (np.sinc, lt.sinc),
    "i0": (np.i0, lt.i0),
    "nan_to_num": (np.nan_to_num, lt.nan_to_num),
    "nan_to_num_fills": (lambda x: np.nan_to_num(x, nan=-1.5, posinf=2, neginf=-1e10),
                         lambda x: lt.nan_to_num(x, nan=-1.5, posinf=2, neginf=-1e10)),
    "iscomplex": (np.iscomplex, lt.iscomplex),
    "isreal": (np.isreal, lt.isreal),
    "isposinf": (np.isposinf, lt.isposinf),
    "isneginf": (np.isneginf, lt.isneginf),
    "real_if_close": (np.real_if_close, lt.real_if_close),
    "modf": (np.modf, lt.modf),
    "frexp": (np.frexp, lt.frexp),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_unary(engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    np_fn, lt_fn = UNARY[name]
    for x, t in layouts(dtype):
        exact(lambda: np_fn(x), lambda: lt_fn(t))


@pytest.mark.parametrize("name", ["angle_deg", "sinc", "i0", "nan_to_num_fills", "isposinf",
                                  "modf", "frexp"])
def test_unary_every_backend(any_engine: Any, name: str) -> None:
    """The compositions fused with the ops around them and run by every
    backend (numexpr, compiled loops) on the edge values, and lazy: nothing
    is computed when built.  (float32 too where no loop compiles: numexpr
    has float32 rules of its own; each new compiled loop costs a second.)"""
    np_fn, lt_fn = UNARY[name]
    two = name in ("modf", "frexp")
    dtypes = [np.float64] if any_engine["backend"] == "loop" else [np.float64, np.float32]
    for dtype in dtypes:
        x = special_values(np.dtype(dtype), n=200)
        exact(lambda: np_fn(x * 2)[0] + 1 if two else np_fn(x * 2) + 1,
              lambda: lt_fn(lt.asarray(x) * 2)[0] + 1 if two else lt_fn(lt.asarray(x) * 2) + 1)
        out = lt_fn(lt.asarray(x) * 1)
        assert all(lazy(o) for o in (out if two else (out,)))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_floating_point_errors_are_numpys(engine: Any, name: str) -> None:
    """Under ``np.errstate(kind="raise")``, evaluating raises exactly where
    NumPy's function raises: a composition computes nothing NumPy does not
    (``i0``'s branches and ``modf``'s fraction get stand-ins for the values
    NumPy never gives them: no overflow, no ``inf - inf``)."""
    np_fn, lt_fn = UNARY[name]
    for dtype in (np.float16, np.float64, np.complex128):
        x = special_values(np.dtype(dtype), n=40)
        for kind in ("divide", "over", "under", "invalid"):
            flags: dict[str, Any] = {"all": "ignore", kind: "raise"}
            with np.errstate(**flags):
                try:
                    np_fn(x)
                    raised = False
                except FloatingPointError:
                    raised = True
                except TypeError:              # (no complex loop: test_unary checks it)
                    continue
                with pytest.raises(FloatingPointError) if raised else nullcontext():
                    out = lt_fn(lt.asarray(x))     # (a fill value's cast raises here)
                    for o in out if isinstance(out, tuple) else (out,):
                        o.eval()


def test_divmod(engine: Any) -> None:
    """Every pair of edge values (division by zero, -0.0, inf, NaN, the
    integer extremes, MIN // -1), same dtypes and mixed, Python scalars weak."""
    for dtype in DTYPES:
        v = special_values(dtype, n=8)
        a, b = v[:, None], v[None, :]
        exact(lambda: np.divmod(a, b), lambda: lt.divmod(lt.asarray(a), lt.asarray(b)))
        exact(lambda: np.divmod(a, 3), lambda: lt.divmod(lt.asarray(a), 3))
        exact(lambda: np.divmod(-2.5, a), lambda: lt.divmod(-2.5, lt.asarray(a)))
    for d1, d2 in ((np.int8, np.float32), (np.uint8, np.int64), (np.uint64, np.int64),
                   (np.float16, np.int16), (np.bool_, np.int8)):
        a, b = special_values(np.dtype(d1), n=6)[:, None], special_values(np.dtype(d2), n=6)
        exact(lambda: np.divmod(a, b), lambda: lt.divmod(lt.asarray(a), lt.asarray(b)))
    x = np.arange(12.0).reshape(3, 4) - 5
    exact(lambda: np.divmod(x[:, ::2], x[1]), lambda: lt.divmod(lt.asarray(x)[:, ::2], x[1]))


def test_modf_frexp_of_integers_and_scalars(engine: Any) -> None:
    """NumPy's loop dtype (float16 for int8 and bool) and Python scalars."""
    for x in (np.arange(-4, 5, dtype=np.int8), np.array([True, False]), 2.5, -3, np.float32(-0.0)):
        exact(lambda: np.modf(x), lambda: lt.modf(x))
        exact(lambda: np.frexp(x), lambda: lt.frexp(x))


def test_nan_to_num_in_place_and_fills(engine: Any) -> None:
    x = special_values(np.dtype(np.complex64), n=4)
    t = lt.asarray(x)
    before = x.copy()
    same = lt.nan_to_num(t, copy=False)
    assert same is t                          # rebinds the tensor, as NumPy writes x
    same_bits(t.eval(), np.nan_to_num(x))
    same_bits(x, before)                      # the user's array is never written
    f = lt.asarray(special_values(np.dtype(np.float16)))
    old = f.eval()
    assert lt.nan_to_num(f, copy=False) is f
    same_bits(f.eval(), np.nan_to_num(old))
    xs = special_values(np.dtype(np.float16))     # a user's array: never written
    same_bits(results(lt.nan_to_num(xs, copy=False))[0], np.nan_to_num(xs))
    same_bits(xs, special_values(np.dtype(np.float16)))
    # fills cast as np.copyto casts them: 1e10 overflows float16, NumPy scalars
    # of another dtype are cast; a complex fill for real parts is a TypeError
    for x in (special_values(np.dtype(np.float16)), special_values(np.dtype(np.complex64))):
        for kw in ({"nan": 1e10}, {"posinf": np.float64(0.1), "neginf": -3},
                   {"nan": 1j}, {"posinf": np.inf, "nan": np.nan}):
            exact(lambda: np.nan_to_num(x, **kw), lambda: lt.nan_to_num(lt.asarray(x), **kw))
        # array fills, element by element as copyto broadcasts them
        n = x.shape[-1]
        for kw in ({"nan": np.arange(n)}, {"nan": np.arange(n) * 1.5, "posinf": -np.arange(n)},
                   {"neginf": np.arange(n)[None, :] + 0.25}, {"nan": np.arange(n * 2.0)},
                   {"nan": np.arange(n) * 1j}, {"posinf": np.ones((2, 1))}):
            exact(lambda: np.nan_to_num(x, **kw), lambda: lt.nan_to_num(lt.asarray(x), **kw))
        lazy = lt.arange(n) * 2.5
        exact(lambda: np.nan_to_num(x, nan=np.arange(n) * 2.5),
              lambda: lt.nan_to_num(lt.asarray(x), nan=lazy))
    ints = np.arange(3)
    assert lt.nan_to_num(lt.asarray(ints)).dtype == ints.dtype


def test_isposinf_out_and_errors() -> None:
    with pytest.raises(TypeError, match="ambiguous"):
        lt.isposinf(lt.asarray([1j]))
    o = np.zeros(2, bool)                    # (out= is NumPy's own call, now)
    assert lt.isneginf(lt.asarray([1.0, -np.inf]), out=o) is o
    np.testing.assert_array_equal(o, [False, True])


def test_real_if_close_tolerance(engine: Any) -> None:
    for dtype in (np.complex64, np.complex128):
        x = np.array([2.1 + 4e-14j, 5.2 + 3e-15j], dtype)
        for tol in (100, 1000, 1e-13, 1e-20, 1):
            exact(lambda: np.real_if_close(x, tol), lambda: lt.real_if_close(lt.asarray(x), tol))
        e = np.empty(0, dtype)
        exact(lambda: np.real_if_close(e), lambda: lt.real_if_close(lt.asarray(e)))


# ------------------------------------------------------------------ isin and set operations

def test_isin(engine: Any) -> None:
    rng = np.random.default_rng(3)
    for d1, d2 in ((np.int64, np.int64), (np.int8, np.int64), (np.uint8, np.int16),
                   (np.bool_, np.bool_), (np.float64, np.float64), (np.float32, np.int32),
                   (np.float16, np.complex64), (np.complex128, np.complex128)):
        e = special_values(np.dtype(d1), n=30, seed=1)
        s = special_values(np.dtype(d2), n=10, seed=2)[::-3]
        el, te = e.reshape(2, -1) if e.size % 2 == 0 else e, s
        for kind in (None, "sort", "table"):
            for invert in (False, True):
                kw: dict[str, Any] = {"kind": kind, "invert": invert}
                # (a table over the range of int64's extremes: NumPy refuses
                # it when it sees the values)
                exact(lambda: np.isin(el, te, **kw), lambda: lt.isin(lt.asarray(el), te, **kw),
                      at_run=(RuntimeError,))
                exact(lambda: np.isin(el[..., ::2], te[:0], **kw),
                      lambda: lt.isin(lt.asarray(el)[..., ::2], te[:0], **kw))
                exact(lambda: np.isin(el.flat[3], te, **kw),
                      lambda: lt.isin(lt.asarray(el.flat[3]), lt.asarray(te), **kw),
                      at_run=(RuntimeError,))
        # the sort path with unique operands (NumPy's assume_unique contract)
        u1, u2 = np.unique(e), np.unique(s)
        exact(lambda: np.isin(u1, u2, assume_unique=True, kind="sort"),
              lambda: lt.isin(u1, u2, assume_unique=True, kind="sort"))
    a = rng.integers(0, 1000, 300)
    b = rng.integers(0, 1000, 100)
    t = lt.asarray(a) * 2 + 1                     # lazy in both operands
    r = lt.isin(t, lt.asarray(b) - 3, invert=True)
    assert lazy(r) and r.shape == a.shape
    same_bits(results(r)[0], np.isin(a * 2 + 1, b - 3, invert=True))
    with pytest.raises(ValueError, match="Invalid kind"):
        lt.isin(t, b, kind="hash")
    with pytest.raises(ValueError, match="table"):
        lt.isin(lt.asarray([1.0]), b, kind="table")


SETOPS: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "intersect1d": (np.intersect1d, lt.intersect1d),
    "intersect1d_idx": (lambda a, b: np.intersect1d(a, b, return_indices=True),
                        lambda a, b: lt.intersect1d(a, b, return_indices=True)),
    "union1d": (np.union1d, lt.union1d),
    "setdiff1d": (np.setdiff1d, lt.setdiff1d),
    "setxor1d": (np.setxor1d, lt.setxor1d),
}
UNIQUE_SETOPS: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "intersect1d": (lambda a, b: np.intersect1d(a, b, True, True),
                    lambda a, b: lt.intersect1d(a, b, True, True)),
    "setdiff1d": (lambda a, b: np.setdiff1d(a, b, True),
                  lambda a, b: lt.setdiff1d(a, b, True)),
    "setxor1d": (lambda a, b: np.setxor1d(a, b, True),
                 lambda a, b: lt.setxor1d(a, b, True)),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_set_operations(engine: Any, dtype: np.dtype[Any]) -> None:
    v = special_values(dtype, n=30, seed=4)
    w = np.concatenate([v[::3], special_values(dtype, n=8, seed=5)])
    pairs = [(v, w), (v.reshape(2, -1) if v.size % 2 == 0 else v, w[::-2]), (v, w[:0]),
             (v[:0], v[:0]), (v[5], w)]
    for np_fn, lt_fn in SETOPS.values():
        for a, b in pairs:
            exact(lambda: np_fn(a, b), lambda: lt_fn(lt.asarray(a), lt.asarray(b)))
    ua, ub = np.unique(v), np.unique(w)
    for np_fn, lt_fn in UNIQUE_SETOPS.values():
        exact(lambda: np_fn(ua, ub), lambda: lt_fn(lt.asarray(ua), lt.asarray(ub)))


def test_set_operations_mixed_and_lazy(engine: Any) -> None:
    a = np.array([5, 1, 3, 3, -2], np.int8)
    b = np.array([3.5, 1.0, 7.0, np.nan, np.nan])
    for np_fn, lt_fn in SETOPS.values():
        exact(lambda: np_fn(a, b), lambda: lt_fn(lt.asarray(a), b))
        exact(lambda: np_fn([1, 2, 2], 2), lambda: lt_fn([1, 2, 2], 2))
        # A Python scalar is weak (NEP 50): 0.1 is a float32 beside float32.
        for c in (np.float32([0.1, 2.0]), np.int8([1, 3])):
            exact(lambda: np_fn(c, 0.1 if c.dtype.kind == "f" else 3),
                  lambda: lt_fn(lt.asarray(c), 0.1 if c.dtype.kind == "f" else 3))
    for np_fn, lt_fn in UNIQUE_SETOPS.values():
        exact(lambda: np_fn(np.float32([0.1, 2.0]), 0.1),
              lambda: lt_fn(lt.asarray(np.float32([0.1, 2.0])), 0.1))
    x = lt.asarray(np.arange(10))
    got = lt.setdiff1d(x * 3 % 7, x[::2])          # inputs sharing work: one plan
    same_bits(results(got)[0], np.setdiff1d(np.arange(10) * 3 % 7, np.arange(10)[::2]))
    assert not hasattr(np, "in1d") and not hasattr(lt, "in1d")   # removed in NumPy 2.4


# ------------------------------------------------------------------ logspace, vdot, cross

def test_logspace(engine: Any) -> None:
    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((0, 3), {}), ((0.0, 1.0), {"num": 7, "endpoint": False}), ((-2, 2), {"num": 1}),
        ((1, 2), {"num": 0}), ((0, 10), {"num": 11, "base": 2}),
        ((np.float32(0), np.float32(3)), {"num": 4}), ((np.float32(0), 3.0), {"num": 4}),
        ((np.array(1.0, np.float32), 2), {"num": 3}),
        ((0, 3), {"num": 4, "base": np.float32(2)}), ((0, 3), {"dtype": np.int64}),
        ((0, 3), {"dtype": np.float32, "num": 5}), ((1, 2j), {"num": 3}),
        ((0, 1), {"axis": -1, "num": 3}), ((0, 1), {"axis": 1}), ((0, 1), {"num": -1}),
        (([0, 1], [2, 4]), {"num": 3}), (([0, 1], [2, 4]), {"num": 3, "axis": 1}),
        (([[0], [1]], 3), {"num": 4, "axis": -1}),
        ((0, 3), {"num": 4, "base": [2.0, 10.0]}),
        ((0, 3), {"num": 4, "base": [2.0, 10.0], "axis": 1}),
        (([0, 1], 3), {"num": 4, "base": [[2.0], [10.0]], "axis": 1}),
        ((0, 3), {"num": 4, "base": [2.0, 10.0], "axis": 3}),
    ]
    for args, kw in cases:
        exact(lambda: np.logspace(*args, **kw), lambda: lt.logspace(*args, **kw))
    t = lt.logspace(0, 2, 5)
    assert lazy(t)
    base = lt.asarray([2.0, 3.0]) * 1                     # a lazy array base stays lazy
    r = lt.logspace(0, 3, 4, base=base, axis=1)
    assert lazy(r)
    same_bits(results(r)[0], np.logspace(0, 3, 4, base=np.array([2.0, 3.0]), axis=1))
    same_bits(results(lt.logspace(lt.asarray([0.0, 1.0]), 2, 3))[0],
              np.logspace(np.array([0.0, 1.0]), 2, 3))


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_vdot(engine: Any, dtype: np.dtype[Any]) -> None:
    v = special_values(dtype, n=40, seed=6)
    rng = np.random.default_rng(7)
    w = (rng.standard_normal(v.size) * 4).astype(dtype) if dtype.kind in "fc" else v[::-1].copy()
    finite = np.where(np.isfinite(v), v, 1) if dtype.kind in "fc" else v
    if dtype.kind == "c":
        w = w + 1j * (rng.standard_normal(v.size)).astype(dtype)
    m = v.size - v.size % 4
    cases = [(finite, w), (v, w), (finite[:m].reshape(4, -1), w[:m]),
             (np.repeat(finite, 2)[::2], np.repeat(w, 2)[1::2]), (v[:0], w[:0]),
             (v[2].reshape(()), w[3].reshape(())), (finite, w[:-1])]
    for a, b in cases:
        exact(lambda: np.vdot(a, b), lambda: lt.vdot(lt.asarray(a), lt.asarray(b)))
    w32 = w.astype(np.float32)                      # mixed dtypes (complex to float: cast)
    exact(lambda: np.vdot(finite, w32), lambda: lt.vdot(finite, w32))


CROSS_SHAPES = [((3,), (3,)), ((4, 3), (3,)), ((2,), (3,)), ((3,), (2,)), ((2,), (2,)),
                ((5, 2), (1, 2)), ((2, 1, 3), (4, 3)), ((3, 4), (3, 4)), ((0, 3), (3,)),
                ((4,), (3,)), ((2, 3), (3, 3)), ((), (3,))]


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in (np.bool_, np.int8, np.uint8, np.int64,
                                                         np.float16, np.float32, np.float64,
                                                         np.complex64)], ids=str)
def test_cross(engine: Any, dtype: np.dtype[Any]) -> None:
    """Every case of NumPy's code (3x3, 2x3, 3x2 and 2x2 vectors, broadcast,
    empty), the axis arguments, and its errors (0-d, 4-vectors, axes out of
    bounds, shapes that do not broadcast; bools that cannot subtract)."""
    v = special_values(dtype, n=60, seed=8)
    for sa, sb in CROSS_SHAPES:
        na, nb = int(np.prod(sa)), int(np.prod(sb))
        a, b = v[:na].reshape(sa), v[-nb:].reshape(sb) if nb else v[:0].reshape(sb)
        exact(lambda: np.cross(a, b), lambda: lt.cross(lt.asarray(a), lt.asarray(b)))
    a, b = v[:24].reshape(3, 2, 4), v[-12:].reshape(4, 3)   # vectors along axes 0 and 1
    for kw in ({"axisa": 0, "axisb": 1}, {"axisa": 0, "axisb": -1 + 1, "axisc": 0},
               {"axisa": 0, "axisb": 1, "axisc": 1}, {"axisa": 0, "axisb": 1, "axisc": -3},
               {"axisa": 0, "axisb": 1, "axisc": 3}, {"axisa": 3, "axisb": 1},
               {"axisa": 0, "axisb": 2}):
        exact(lambda: np.cross(a, b, **kw), lambda: lt.cross(lt.asarray(a), lt.asarray(b), **kw))
    c = v[:18].reshape(3, 2, 3)
    exact(lambda: np.cross(c, c[::-1], axis=0), lambda: lt.cross(lt.asarray(c),
                                                                 lt.asarray(c)[::-1], axis=0))
    exact(lambda: np.cross(c[:2], c[1:], axis=0), lambda: lt.cross(lt.asarray(c)[:2],
                                                                  lt.asarray(c)[1:], axis=0))


def test_cross_mixed_dtypes_laziness_and_warning(any_engine: Any) -> None:
    a = np.array([[1, -2, 3], [4, 5, -6]], np.int8)
    b = np.array([0.5, -1.5, 2.0], np.float32)
    exact(lambda: np.cross(a, b), lambda: lt.cross(lt.asarray(a), lt.asarray(b)))
    x = special_values(np.dtype(np.float64), n=100).reshape(-1, 3)
    exact(lambda: np.cross(x, x[::-1]), lambda: lt.cross(lt.asarray(x), lt.asarray(x)[::-1]))
    t = lt.cross(lt.asarray(x) * 2, lt.asarray(x)[::-1])
    assert lazy(t)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors") as rec:
        lt.cross(lt.asarray([1.0, 2.0]), lt.asarray([3.0, 4.0]))
    assert rec[0].filename == __file__                   # the user's line


# ------------------------------------------------------------------ Python functions on data

def test_apply_along_axis(engine: Any) -> None:
    x = special_values(np.dtype(np.float64), n=28).reshape(3, 4, 4)
    i = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    funcs: list[Callable[..., Any]] = [np.sum, lambda v: v[::-1], lambda v: np.outer(v, v),
                                       lambda v: v[0] > 0, lambda v: float(v.max())]
    for arr in (x, i, x[:, ::2, 1:]):
        for f in funcs:
            for axis in (0, 1, -1, 3):
                exact(lambda: np.apply_along_axis(f, axis, arr),
                      lambda: lt.apply_along_axis(f, axis, lt.asarray(arr)))
    exact(lambda: np.apply_along_axis(np.sum, 0, x[:, :0]),
          lambda: lt.apply_along_axis(np.sum, 0, lt.asarray(x)[:, :0]))
    exact(lambda: np.apply_along_axis(np.clip, 1, i, 2, 9),
          lambda: lt.apply_along_axis(np.clip, 1, lt.asarray(i), 2, 9))


def test_piecewise(engine: Any) -> None:
    x = special_values(np.dtype(np.float64), n=20)
    t = lt.asarray(x)
    exact(lambda: np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 10]),
          lambda: lt.piecewise(t, [t < 0, t >= 0], [lambda v: -v, lambda v: v * 10]))
    # an "otherwise" function, constants, a later condition winning, NumPy ufuncs
    exact(lambda: np.piecewise(x, [x < 1, x > -1], [np.sin, 7.5, np.exp]),
          lambda: lt.piecewise(t, [t < 1, t > -1], [np.sin, 7.5, lt.exp]))
    # one condition, as an array and as a tensor; arguments passed on
    exact(lambda: np.piecewise(x, x > 0, [lambda v, k: v * k, 0], 3),
          lambda: lt.piecewise(t, t > 0, [lambda v, k: v * k, 0], 3))
    exact(lambda: np.piecewise(x, x > 0, [lambda v: v + 1]),
          lambda: lt.piecewise(t, x > 0, [lambda v: v + 1]))
    i = np.arange(-4, 5, dtype=np.int8)           # results cast into x's dtype
    exact(lambda: np.piecewise(i, [i < 0], [lambda v: v / 3, lambda v: v * 2.7]),
          lambda: lt.piecewise(lt.asarray(i), [lt.asarray(i) < 0],
                               [lambda v: v / 3, lambda v: v * 2.7]))
    for x0 in (np.array(2.5), np.array(-1.0)):   # 0-d
        exact(lambda: np.piecewise(x0, [x0 > 0], [np.sqrt, -1.0]),
              lambda: lt.piecewise(lt.asarray(x0), [lt.asarray(x0) > 0], [lt.sqrt, -1.0]))
    e = x[:0]
    exact(lambda: np.piecewise(e, [e > 0], [np.sqrt]), lambda: lt.piecewise(lt.asarray(e),
                                                                           [e > 0], [lt.sqrt]))
    m = x.reshape(4, -1)
    exact(lambda: np.piecewise(m, [m > 0, m < -5], [1, 2, 3]),
          lambda: lt.piecewise(lt.asarray(m), np.array([m > 0, m < -5]), [1, 2, 3]))
    exact(lambda: np.piecewise(x, [x > 0], [1, 2, 3]), lambda: lt.piecewise(t, [t > 0], [1, 2, 3]))
    exact(lambda: np.piecewise(x, [x[:3] > 0], [1]), lambda: lt.piecewise(t, [t[:3] > 0], [1]))

    def broken(v: Any) -> Any:
        raise KeyError("the user's own error")
    with pytest.raises(KeyError, match="own error"):     # as it is, not rewrapped
        lt.piecewise(t, [t > 0], [broken])
    with pytest.raises(np.exceptions.AxisError, match="apply_along_axis"):
        lt.apply_along_axis(np.sum, 2, t)
    r = lt.piecewise(t * 2, [x > 0], [lambda v: v + 1])
    assert lazy(r)


def test_lazy_functions_compile_over_placeholders() -> None:
    """The lazy functions build on placeholders (nothing to evaluate when
    building) and run compiled, with NumPy's bits."""
    x = special_values(np.dtype(np.float64), n=4)
    v = x[:24].reshape(8, 3)
    p = lt.placeholder(x.shape, np.float64, name="x")
    q = lt.placeholder(v.shape, np.float64, name="v")
    built = [lt.sinc(p), lt.i0(p), lt.nan_to_num(p), lt.angle(p, deg=True), *lt.modf(p),
             *lt.frexp(p), *lt.divmod(p, 1.5), lt.isposinf(p), lt.isin(p, q),
             lt.vdot(p[:24], q), lt.cross(q, q[::-1]), lt.logspace(0, 1, 24, base=p[:24])]
    got = lt.function([p, q], built)(x, v)
    with np.errstate(all="ignore"):
        expected = [np.sinc(x), np.i0(x), np.nan_to_num(x), np.angle(x, deg=True), *np.modf(x),
                    *np.frexp(x), *np.divmod(x, 1.5), np.isposinf(x), np.isin(x, v),
                    np.vdot(x[:24], v), np.cross(v, v[::-1]),
                    np.logspace(0, 1, 24, base=x[:24])]
    for g, e in zip(got, expected, strict=True):
        same_bits(g, np.asarray(e))


def test_edge_cases_found_by_review(engine: Any) -> None:
    f32 = np.array([0.0, 1.0], np.float32)
    check(lambda: np.logspace(f32, 2, 3), lambda: lt.logspace(f32, 2, 3))
    check(lambda: np.logspace(np.array(0.5, np.float32), 2, 3),
          lambda: lt.logspace(lt.asarray(np.array(0.5, np.float32)), 2, 3))
    x = np.asarray(3.0)
    t = lt.asarray(x)
    check(lambda: np.piecewise(x, np.asarray(x > 0), [1, 2]),     # a 0-d array: IndexError
          lambda: lt.piecewise(t, np.asarray(x > 0), [1, 2]))
    check(lambda: np.piecewise(x, x > 0, [1, 2]), lambda: lt.piecewise(t, x > 0, [1, 2]))
    # (``t > 0`` of a 0-d tensor stands for NumPy's ``x > 0``, a scalar: the
    # same code with np for lt, not the 0-d array np.asarray makes of it)
    check(lambda: np.piecewise(x, x > 0, [1, 2]), lambda: lt.piecewise(t, t > 0, [1, 2]))
    check(lambda: np.piecewise(x, x < 0, [lambda v: v * 2, 7.0]),
          lambda: lt.piecewise(t, t < 0, [lambda v: v * 2, 7.0]))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "int16"])
def test_unwrap_is_numpys(engine: Any, dtype: str) -> None:
    """np.unwrap's own steps, lazily: bits, dtype (an integer period keeps
    integers), the boundary case abs(dd) == period / 2, any axis."""
    rng = np.random.default_rng(31)
    if dtype.startswith("int"):
        base = rng.integers(-20, 20, (4, 9)).astype(dtype)
        base[0, :3] = [0, 5, 10]               # jumps of exactly period / 2
    else:
        base = (np.cumsum(rng.uniform(-4, 4, (4, 9)), axis=1)).astype(dtype)
        base[0, :3] = [0.0, np.pi, 2 * np.pi]
    t = lt.asarray(base)
    for kw in ({}, {"axis": 0}, {"discont": 4}, {"period": 10}, {"period": 10, "axis": 0},
               {"discont": 1.0, "period": 6}):
        check(lambda: np.unwrap(base, **kw), lambda: lt.unwrap(t, **kw), rtol=0.0)
        check(lambda: np.unwrap(base[:, ::-2], **kw), lambda: lt.unwrap(t[:, ::-2] * 1, **kw),
              rtol=0.0)
    check(lambda: np.unwrap(np.zeros(0, dtype)), lambda: lt.unwrap(lt.zeros(0, dtype)))
    check(lambda: np.unwrap(np.asarray(1.0)), lambda: lt.unwrap(lt.asarray(1.0)))
