"""The op table: every op against NumPy over layouts x dtypes (issue 2).

Each row builds the same computation twice, once with NumPy on plain arrays
and once with lazyten on tensors holding the same data, and compares values,
shape and dtype (``assert_eq`` also checks that the shape/dtype inferred at
build time is what evaluation produced).  Where NumPy raises for a dtype,
lazyten must raise the same exception type when the node is *built*.

Layouts: 0-d, empty, broadcast (zero strides), strided (a lazy slice of a
user array) and negative-stride (a user array with negative strides), plus
float specials (nan, inf, -0.0).  Every test runs under the ``engine`` fixture
(optimizer off and on, and compiled loops wherever exact).  The matrix is chosen to be complete per op and per
dtype without a full cartesian product: one test per (op, dtype) loops over
the layouts.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
import math
import warnings
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.functions import ELEMENTWISE
from lazyten.graph.ops import REGISTRY
from tests.conftest import ENGINES
from tests.util import assert_eq, check, same_bits

pytestmark = pytest.mark.filterwarnings(
    "ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning",
    # (a loop that would not compile must fail here, not fall back quietly)
    "error::lazyten.exec.loop_backend.LoopUnusableWarning")


@pytest.fixture(params=ENGINES + [pytest.param(
    {"optimize": True, "backend": "loop", "check": True}, id="optimized-loop")])
def engine(request: Any) -> Any:
    """The engines of conftest, and compiled loops wherever exact (small
    arrays too: ``backend="loop"`` ignores the size)."""
    with lt.set_options(**request.param):
        yield request.param

DTYPES = [np.dtype(d) for d in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128)]
DTYPE_IDS = [str(d) for d in DTYPES]
# Views and joins move bytes without looking at them: one dtype per kind.
VIEW_DTYPES = [np.dtype(d) for d in (np.bool_, np.int8, np.uint32, np.float16, np.float64,
                                     np.complex64)]


# ------------------------------------------------------------------ inputs

def values(rng: np.random.Generator, dtype: np.dtype[Any], shape: tuple[int, ...],
           role: int = 0) -> np.ndarray[Any, Any]:
    """Data for ``dtype``.  ``role=1`` (right operands) keeps integers in 1..5
    so integer powers, shifts and divisions stay defined; ``role=0`` includes
    negatives and zeros."""
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        lo, hi = (1, 6) if role else ((-5, 7) if dtype.kind == "i" else (0, 12))
        return rng.integers(lo, hi, shape).astype(dtype)
    if dtype.kind == "f":
        return rng.uniform(-3, 3, shape).round(2).astype(dtype)
    re, im = rng.uniform(-2, 2, shape), rng.uniform(-2, 2, shape)
    return (re + 1j * im).round(2).astype(dtype)


def specials(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    v = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -1.5, 1e-3]
    if dtype.kind == "c":
        return np.array([complex(x, y) for x, y in zip(v, v[::-1])], dtype)
    return np.array(v, dtype)


Pair = tuple[np.ndarray[Any, Any], lt.Tensor]


def operand(layout: str, dtype: np.dtype[Any], rng: np.random.Generator, role: int = 0,
            shape: tuple[int, ...] | None = None) -> Pair:
    """One operand in ``layout``: the NumPy array and the lazyten tensor."""
    if layout == "strided":       # non-contiguous: a lazy slice of a user array
        base = values(rng, dtype, (4, 7), role)
        return base[::2, 1::2], lt.asarray(base)[::2, 1::2]
    if layout == "negstride":     # the user's array itself has negative strides
        base = values(rng, dtype, (3, 6), role)
        return base[::-1, ::-2], lt.asarray(base[::-1, ::-2])
    if layout == "broadcast":     # zero strides
        base = values(rng, dtype, (3, 1), role)
        return (np.broadcast_to(base, (2, 3, 4)),
                lt.broadcast_to(lt.asarray(base), (2, 3, 4)))
    if layout == "special":
        a = specials(dtype) if dtype.kind in "fc" else values(rng, dtype, (8,), role)
        return a, lt.asarray(a)
    shp = {"0d": (), "empty": (0, 3), "plain": (2, 3)}[layout] if shape is None else shape
    a = values(rng, dtype, shp, role)
    return a, lt.asarray(a)


UNARY_LAYOUTS = ["0d", "empty", "broadcast", "strided", "negstride", "special"]
# (left, right) layouts and shapes for binary ops: both 0-d, empty with a
# broadcast row, (4,1) with (3,), array with 0-d, both strided, negative strides.
BINARY_LAYOUTS: list[tuple[str, tuple[int, ...] | None, str, tuple[int, ...] | None]] = [
    ("0d", None, "0d", None),
    ("empty", None, "plain", (1, 3)),
    ("plain", (4, 1), "plain", (3,)),
    ("plain", (2, 3), "0d", None),
    ("strided", None, "strided", None),
    ("negstride", None, "plain", (3,)),
    ("special", None, "special", None),
]


def canonical(kind_arity: int) -> list[str]:
    return sorted(n for n, s in REGISTRY.items()
                  if s.kind == "elementwise" and s.arity == kind_arity
                  and n not in ("astype", "round", "real", "imag", "where", "full_like")
                  and n in ELEMENTWISE)


UNARY_OPS = canonical(1) + ["real", "imag"]
BINARY_OPS = canonical(2)


def test_every_elementwise_op_is_in_the_table(engine: Any) -> None:
    covered = set(UNARY_OPS) | set(BINARY_OPS)
    for name in ELEMENTWISE:
        assert REGISTRY.get(name, None) is None or name in covered, name
        fn = ELEMENTWISE[name]
        assert fn.__name__ in covered, f"{name} ({fn.__name__}) has no op-table row"
        assert getattr(lt, name) is fn


@pytest.mark.parametrize("alias", sorted(set(ELEMENTWISE) - set(REGISTRY)))
def test_alias_is_the_numpy_name(engine: Any, alias: str) -> None:
    rng = np.random.default_rng(0)
    x, t = operand("plain", np.dtype(np.float64), rng)
    y = rng.uniform(0.1, 0.9, (2, 3))
    fn = getattr(np, alias)
    arity = REGISTRY[ELEMENTWISE[alias].__name__].arity
    args_np = (y,) if arity == 1 else (y, x)
    args_lt = (lt.asarray(y),) if arity == 1 else (lt.asarray(y), t)
    check(lambda: fn(*args_np), lambda: getattr(lt, alias)(*args_lt))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", UNARY_OPS)
def test_unary(engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(1)
    np_fn, lt_fn = getattr(np, name), getattr(lt, name)
    for layout in UNARY_LAYOUTS:
        x, t = operand(layout, dtype, rng)
        check(lambda: np_fn(x), lambda: lt_fn(t))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", BINARY_OPS)
def test_binary(engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(2)
    np_fn, lt_fn = getattr(np, name), getattr(lt, name)
    for la, sa, lb, sb in BINARY_LAYOUTS:
        x, tx = operand(la, dtype, rng, 0, sa)
        y, ty = operand(lb, dtype, rng, 1, sb)
        check(lambda: np_fn(x, y), lambda: lt_fn(tx, ty))


# Mixed-dtype pairs: the promotion table's corners (NEP 50 for arrays).
MIXED = [("int8", "uint8"), ("int64", "uint64"), ("uint16", "int32"), ("bool", "int8"),
         ("float16", "int16"), ("float32", "int64"), ("float16", "uint8"),
         ("float32", "complex64"), ("float64", "complex64"), ("bool", "float16"),
         ("uint32", "float32"), ("int16", "complex64")]
MIXED_OPS = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow",
             "maximum", "less", "equal", "bitwise_and", "bitwise_left_shift", "atan2",
             "logaddexp", "copysign", "logical_xor"]


@pytest.mark.parametrize("pair", MIXED, ids=["-".join(p) for p in MIXED])
def test_binary_mixed_dtypes(engine: Any, pair: tuple[str, str]) -> None:
    rng = np.random.default_rng(3)
    da, db = np.dtype(pair[0]), np.dtype(pair[1])
    x, tx = operand("plain", da, rng, 1, (2, 1))
    y, ty = operand("strided", db, rng, 1)
    for name in MIXED_OPS:
        np_fn, lt_fn = getattr(np, name), getattr(lt, name)
        check(lambda: np_fn(x, y), lambda: lt_fn(tx, ty))
        check(lambda: np_fn(y, x), lambda: lt_fn(ty, tx))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_where(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(4)
    c = rng.random((4, 1)) < 0.5
    for layout in ("0d", "strided", "negstride", "broadcast"):
        x, tx = operand(layout, dtype, rng)
        y, ty = operand(layout, dtype, rng, 1)
        cond = c[:3] if layout == "broadcast" else c   # (3, 1) against (2, 3, 4)
        check(lambda: np.where(cond, x, y), lambda: lt.where(lt.asarray(cond), tx, ty))
        check(lambda: np.where(cond, x, y), lambda: lt.where(cond, tx, ty))  # ndarray cond
        check(lambda: np.where(c, x), lambda: lt.where(lt.asarray(c), tx))  # ValueError
        # a non-bool condition, and weak Python scalars for the branches
        check(lambda: np.where(x, 1, y), lambda: lt.where(tx, 1, ty))
        check(lambda: np.where(c[:1], x, 2.5), lambda: lt.where(lt.asarray(c[:1]), tx, 2.5))


@pytest.mark.parametrize("src", DTYPES, ids=DTYPE_IDS)
def test_astype(engine: Any, src: np.dtype[Any]) -> None:
    rng = np.random.default_rng(5)
    x, t = operand("strided", src, rng)
    x0, t0 = operand("0d", src, rng)
    for dst in DTYPES:
        check(lambda: x.astype(dst), lambda: t.astype(dst))
        check(lambda: x0.astype(dst), lambda: lt.astype(t0, dst))
        for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
            check(lambda: x.astype(dst, casting=casting),
                  lambda: t.astype(dst, casting=casting))
    check(lambda: np.astype(x, np.float64, device="cpu"),
          lambda: lt.astype(t, np.float64, device="cpu"))
    # copy=False with the same dtype: the same value (a no-op lazily)
    assert_eq(lt.astype(t, src, copy=False), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_full_like_op(engine: Any, dtype: np.dtype[Any]) -> None:
    # The node ``lt.zeros_like(x)`` and the like build where x's shape is
    # known only when a compiled function runs: x's shape, never its values.
    from lazyten.graph import ops
    rng = np.random.default_rng(7)
    for layout in UNARY_LAYOUTS:
        x, t = operand(layout, dtype, rng)
        for fill, want_dt in ((dtype.type(0), dtype), (np.float32(2.5), np.dtype(np.float32)),
                              (np.int8(-3), np.dtype(np.int8))):
            def lazy(fill: Any = fill, want_dt: Any = want_dt) -> lt.Tensor:
                return lt.Tensor(ops.apply("full_like", [t.node], fill_value=fill,
                                           dtype=want_dt))
            check(lambda fill=fill, want_dt=want_dt: np.full_like(x, fill, want_dt), lazy)
        empty = lt.Tensor(ops.apply("full_like", [t.node], fill_value=None, dtype=dtype))
        assert empty.eval().shape == x.shape and empty.eval().dtype == dtype


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_round(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(6)
    for layout in ("0d", "empty", "negstride", "special"):
        x, t = operand(layout, dtype, rng)
        for d in (0, 1, -1):
            check(lambda: np.round(x, d), lambda: lt.round(t, d))
        check(lambda: np.round(x), lambda: t.round())


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_clip(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(7)
    for layout in ("0d", "empty", "strided", "negstride"):
        x, t = operand(layout, dtype, rng)
        lo, tlo = operand("plain", dtype, rng, 0, (3,) if layout != "0d" else ())
        check(lambda: np.clip(x, 1, 3), lambda: lt.clip(t, 1, 3))
        check(lambda: np.clip(x, None, 2), lambda: t.clip(None, 2))
        check(lambda: np.clip(x, lo, None), lambda: lt.clip(t, tlo))
        # Python ints past an integer dtype's range (NumPy drops a bound
        # past its own side, and refuses one past the other)
        for a, b in ((-1000, 3), (-1, 1000), (-2**70, 2**70), (1000, 2000), (-5, -1000)):
            check(lambda: np.clip(x, a, b), lambda: lt.clip(t, a, b))
        # The type of all three operands at once (a ufunc of three), Python
        # scalars weak: int8 with 1.5 and a float32 bound is float32.
        for a, b in ((1.5, np.float32(2.5)), (0, np.int16(3)), (200, 1.5), (np.int8(1), 2.5),
                     (lo, 1.5)):
            check(lambda: np.clip(x, a, b), lambda: lt.clip(t, a, b))
        check(lambda: np.clip(x, a_min=1, a_max=2), lambda: lt.clip(t, a_min=1, a_max=2))


def test_a_clip_that_clips_nothing_is_a_new_array(engine: Any) -> None:
    """No bound left (both None, or integer bounds past the dtype's range)
    and no cast: NumPy's clip is still a new array, which writes to the
    operand do not reach (it was the operand itself), laid out as a ufunc's
    result (a broadcast operand's: C)."""
    for x in (np.array([1, 2, 3], np.int8), np.arange(6.0).reshape(2, 3).T,
              np.broadcast_to(np.arange(3.0), (4, 3))):
        for bounds in ((None, None), (-200, 300)):
            if x.dtype != np.int8 and bounds[0] is not None:
                continue
            t = lt.asarray(x)
            for c in (lt.clip(t, *bounds), t.clip(*bounds), np.clip(t, *bounds)):
                want = np.clip(x, *bounds)
                assert c is not t
                # (each write stays in the tensor written)
                t2 = lt.array(x)
                c2 = lt.clip(t2, *bounds)
                c2[(0,) * x.ndim] = 99
                t2[(-1,) * x.ndim] = 42
                assert int(t2.eval()[(0,) * x.ndim]) == int(x[(0,) * x.ndim])
                assert int(c2.eval()[(-1,) * x.ndim]) == int(x[(-1,) * x.ndim])
                got = c.eval()
                np.testing.assert_array_equal(got, want)
                assert (got.strides, got.dtype) == (want.strides, want.dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_clip_ties_of_signed_zeros(engine: Any, dtype: str) -> None:
    """Which zero a tie gives, NumPy's: clip keeps x with both bounds
    constant (Python scalars, 0-d or one-element arrays: its loop's stride-0
    case), gives the bound with array bounds, and with one bound is
    maximum(x, min) or minimum(x, max), whose tie rule is the dtype's (the
    second operand for float32/64, the first for float16)."""
    x = np.array([0.0, -0.0, 0.5, -0.0, 0.0, 2.0], dtype)
    t = lt.asarray(x) * 1                      # a computed operand too
    zeros = (0.0, -0.0)
    for lo, hi in ((0.0, 1.0), (-0.0, 1.0), (-1.0, 0.0), (-1.0, -0.0), (0.0, -0.0)):
        for form in (lambda v: v, lambda v: np.array(v, dtype), lambda v: np.full(1, v, dtype),
                     lambda v: np.full(x.shape, v, dtype)):
            a, b = form(lo), form(hi)
            for got, want in ((lt.clip(t, a, b), np.clip(x, a, b)),
                              (lt.clip(t, a, None), np.clip(x, a, None)),
                              (lt.clip(t, None, b), np.clip(x, None, b)),
                              (lt.clip(t, a, 1.0), np.clip(x, a, 1.0))):
                same_bits(got.eval(), want)
        assert lo in zeros or hi in zeros


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_clip_to_constant_bounds_gives_the_bound_on_a_tie(engine: Any,
                                                                  dtype: str) -> None:
    """NumPy's complex clip with both bounds constant gives the bound on a
    tie (``x > min ? x : min``): ``clip(-0-0j, 0.0, 0.5)`` is ``0+0j`` (it
    was x's ``-0``); with one bound it is ``maximum(x, min)``'s x."""
    z = np.array([-0.0 + 0j, 0.0 + 0j, complex(-0.0, -0.0), 0.2 + 0.1j, 0.6 + 0j, -1 + 2j,
                  0.5 + 0j, complex(0.5, -0.0), complex(-0.0, 1)], dtype)
    for lo, hi in ((0.0, 0.5), (-0.0, 0.5), (np.array(0j), 0.5), (-0.0, -0.0), (0j, 0.5 + 0j),
                   (0.0, None), (None, 0.0)):
        same_bits(lt.clip(lt.asarray(z), lo, hi).eval(), np.clip(z, lo, hi))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_repeat_and_tile(engine: Any, dtype: np.dtype[Any]) -> None:
    """``repeat`` with a count or a count per element (the array API's
    ``int | array``; a tensor of counts is computed now) and ``tile``."""
    rng = np.random.default_rng(8)
    for layout in ("0d", "empty", "strided", "negstride", "broadcast"):
        x, t = operand(layout, dtype, rng)
        for reps, axis in ((2, None), (0, None), (3, -1), (np.array(2), 0), ([2], 0), (-1, None),
                           (1.5, None), ([1, 2], 0), (np.arange(x.shape[0] if x.ndim else 1), 0),
                           (np.ones((1, 1), int), 0)):
            check(lambda: np.repeat(x, reps, axis=axis), lambda: lt.repeat(t, reps, axis=axis))
        if x.ndim:
            counts = np.arange(x.shape[-1]) % 3
            check(lambda: np.repeat(x, counts, axis=-1),
                  lambda: t.repeat(lt.asarray(counts) * 1, axis=-1))
            check(lambda: np.repeat(x, -counts - 1, axis=-1),
                  lambda: lt.repeat(t, -counts - 1, axis=-1))
        for reps_t in (2, (2, 1), (0, 3), (1, 2, 2)):
            check(lambda: np.tile(x, reps_t), lambda: lt.tile(t, reps_t))


# ------------------------------------------------------------------ reductions

REDUCTIONS = ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all"]
AXES: list[tuple[Any, bool]] = [(None, False), (None, True), (0, False), (-1, True),
                                ((0, 2), False), ((-1, 0), True), ((), False), (1, False)]


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction(engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(8)
    np_fn, lt_fn = getattr(np, name), getattr(lt, name)
    base = values(rng, dtype, (3, 5, 6))
    cases: list[Pair] = [
        (base[::2, 1:4, ::-2], lt.asarray(base)[::2, 1:4, ::-2]),   # strided + negative
        (base[:, :0], lt.asarray(base)[:, :0]),                       # empty (3, 0, 6)
        (np.broadcast_to(base[:1, :1], (2, 3, 6)),
         lt.broadcast_to(lt.asarray(base)[:1, :1], (2, 3, 6))),
    ]
    rtol = 1e-2 if dtype == np.float16 else (1e-5 if dtype.kind in "fc" and dtype.itemsize
                                              <= 8 and dtype != np.complex128 else None)
    for x, t in cases:
        for axis, keep in AXES:
            check(lambda: np_fn(x, axis=axis, keepdims=keep),
                  lambda: lt_fn(t, axis=axis, keepdims=keep), rtol=rtol)
    x0, t0 = operand("0d", dtype, rng)
    check(lambda: np_fn(x0), lambda: lt_fn(t0))
    check(lambda: np_fn(x0, axis=(), keepdims=True), lambda: lt_fn(t0, axis=(), keepdims=True))
    # method form and axis out of range
    x, t = cases[0]
    check(lambda: getattr(x, name)(axis=1), lambda: getattr(t, name)(axis=1), rtol=rtol)
    check(lambda: np_fn(x, axis=3), lambda: lt_fn(t, axis=3))
    check(lambda: np_fn(x, axis=(0, -3)), lambda: lt_fn(t, axis=(0, -3)))


def test_reduction_options(engine: Any) -> None:
    rng = np.random.default_rng(9)
    x = values(rng, np.dtype(np.int8), (3, 4))
    t = lt.asarray(x)
    check(lambda: np.sum(x, dtype=np.int8), lambda: lt.sum(t, dtype=np.int8))
    check(lambda: np.prod(x, axis=0, dtype=np.float32), lambda: lt.prod(t, axis=0,
                                                                         dtype=np.float32))
    check(lambda: np.mean(x, axis=1, dtype=np.float32), lambda: lt.mean(t, axis=1,
                                                                         dtype=np.float32))
    f = values(rng, np.dtype(np.float64), (3, 4))
    check(lambda: np.var(f, axis=0, ddof=1), lambda: lt.var(lt.asarray(f), axis=0, ddof=1))
    check(lambda: np.std(f, correction=1), lambda: lt.std(lt.asarray(f), correction=1))
    for ddof in (True, np.True_, False):               # (NumPy counts a bool as 0 or 1)
        check(lambda: np.var(f, axis=0, ddof=ddof), lambda: lt.var(lt.asarray(f), axis=0,
                                                                   ddof=ddof))
    check(lambda: np.var(f, axis=1, dtype=np.float32),
          lambda: lt.var(lt.asarray(f), axis=1, dtype=np.float32))
    check(lambda: np.std(x, dtype=np.float16), lambda: lt.std(t, dtype=np.float16))


# where= masks and initial= values: NumPy's masked reduction, bit for bit
# (adding up runs of unmasked elements is not sum(where(mask, x, 0))).
MASKED: list[tuple[str, dict[str, Any]]] = [
    ("sum", {}), ("sum", {"axis": 0}), ("sum", {"initial": 2.5}), ("sum", {"axis": (0, 2)}),
    ("prod", {"axis": 1, "keepdims": True}), ("mean", {}), ("mean", {"axis": -1}),
    ("var", {"ddof": 1}), ("std", {"axis": 1}), ("min", {"initial": 3}),
    ("max", {"initial": -1, "axis": 0}), ("any", {}), ("all", {"axis": 2}), ("max", {}),
    ("sum", {"dtype": np.float32}),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_masked_reductions(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(10)
    base = values(rng, dtype, (3, 40, 6))
    x, t = base[:, ::-3], lt.asarray(base)[:, ::-3]                    # strided
    m = rng.random(x.shape) < 0.6
    for mask, lazy in ((m, lt.asarray(m)), (m[0, :, :1], lt.asarray(m)[0, :, :1] | False),
                       (np.zeros(x.shape, bool), np.zeros(x.shape, bool))):
        for name, kw in MASKED:
            np_fn, lt_fn = getattr(np, name), getattr(lt, name)
            check(lambda: np_fn(x, where=mask, **kw), lambda: lt_fn(t, where=lazy, **kw),
                  rtol=0.0)
    for name, kw in MASKED:                        # initial= alone, on an empty input
        if "initial" in kw:
            e, te = base[:, :0], lt.asarray(base)[:, :0]
            check(lambda: getattr(np, name)(e, **kw), lambda: getattr(lt, name)(te, **kw))
            check(lambda: getattr(np, name)(x, **kw), lambda: getattr(t, name)(**kw))
    check(lambda: np.sum(x, where=m[:, :2]), lambda: lt.sum(t, where=m[:, :2]))
    # initial= as a 0-d array or a tensor (a scalar to NumPy), a sequence refused
    one = np.ones((), dtype)
    for init_np, init_lt in ((one, one), (one, lt.asarray(one)), (one, lt.asarray(one) * 1),
                             (np.ones(1, dtype), np.ones(1, dtype)), ([1], [1])):
        for name in ("sum", "prod", "max", "min", "nanmax", "nanmin"):
            check(lambda: getattr(np, name)(x, initial=init_np),
                  lambda: getattr(lt, name)(t, initial=init_lt))
    z = base[0, 0, 0]                          # a 0-d array: axis 0 with a mask, as NumPy
    for name in ("mean", "var", "std", "sum"):
        check(lambda: getattr(np, name)(np.asarray(z), axis=0, where=np.True_),
              lambda: getattr(lt, name)(lt.asarray(np.asarray(z)), axis=0, where=np.True_),
              rtol=0.0)
    check(lambda: np.any(x, where=m.astype(int)), lambda: lt.any(t, where=m.astype(int)))
    check(lambda: np.var(x, mean=np.mean(x, keepdims=True)),      # (a precomputed mean)
          lambda: lt.var(t, mean=lt.mean(t, keepdims=True)), rtol=0.0)


# Reductions of an expression, whose dtype is not the expression's: a mask's
# count, sum and mean, an int8 sum or product (int64), any/all of numbers.
# The optimizer fuses them into the expression's kernel (a count: int64
# blocks, ``count_nonzero`` or the loops' int64 accumulator).
EXPRESSION_REDUCTIONS: list[tuple[str, Callable[[Any, Any, dict[str, Any]], Any]]] = [
    ("count_nonzero", lambda m, x, kw: m.count_nonzero(x > 0.5, **kw)),
    ("sum", lambda m, x, kw: m.sum(x > 0.5, **kw)),
    ("mean", lambda m, x, kw: m.mean(x < 0.5, **kw)),
    ("var", lambda m, x, kw: m.var(x < 0.5, **kw)),
    ("std", lambda m, x, kw: m.std((x > 1) | (x < -1), **kw)),
    ("sum-int8", lambda m, x, kw: m.sum((x * 10).astype(np.int8) * 3, **kw)),
    ("prod-int8", lambda m, x, kw: m.prod((x * 10).astype(np.int8) % 3 + 1, **kw)),
    ("any", lambda m, x, kw: m.any(x - 0.25, **kw)),
    ("all", lambda m, x, kw: m.all(x * 4, **kw)),
    # an index: the first extreme (or NaN) of the expression, across blocks
    ("argmax", lambda m, x, kw: m.argmax(x * 2 - 1, **kw)),
    ("argmin-keepdims", lambda m, x, kw: m.argmin(-x, **kw, keepdims=True)),
    ("argmax-ties", lambda m, x, kw: m.argmax((x * 3).astype(np.int64) % 4, **kw)),
    ("argmin-mask", lambda m, x, kw: m.argmin(x < 2, **kw)),
    # scans: the expression's chain along the axis (flattened without one)
    ("cumsum", lambda m, x, kw: m.cumsum(x * 2 + 1, **kw)),
    ("cumprod", lambda m, x, kw: m.cumprod(x * 0.125 + 1, **kw)),
    ("cumsum-mask", lambda m, x, kw: m.cumsum(x > 0.5, **kw)),
    ("cumulative_sum-int8", lambda m, x, kw: m.cumulative_sum(
        (x * 10).astype(np.int8), **({"axis": 0} if x.ndim == 1 else kw))),
]
EXPRESSION_LAYOUTS = ["0d", "empty", "broadcast", "strided", "negstride", "special",
                      "transposed", "big", "big2d"]


@pytest.mark.parametrize("name,fn", EXPRESSION_REDUCTIONS,
                         ids=[c[0] for c in EXPRESSION_REDUCTIONS])
def test_reduction_of_an_expression(any_engine: Any, name: str,
                                    fn: Callable[[Any, Any, dict[str, Any]], Any]) -> None:
    rng = np.random.default_rng(11)
    for layout in EXPRESSION_LAYOUTS:
        if layout == "big":          # blocks of the blocked loop, and threads
            a = rng.uniform(-3, 3, (300_001,))
            a[[5, 150_000, 250_000]] = 3.0 if "arg" in name else np.nan
            x, t = a[::-1], lt.asarray(a)[::-1]
        elif layout == "big2d":       # blocks of rows: reduced along them and across
            a = rng.uniform(-3, 3, (601, 700))
            a[[3, 300, 599], [5, 5, 699]] = 3.0 if "arg" in name else np.nan
            x, t = a, lt.asarray(a)
        elif layout == "transposed":  # run in memory order (but indices count in C order)
            a = values(rng, np.dtype(np.float64), (5, 400))
            x, t = a.T, lt.asarray(a).T
        else:
            x, t = operand(layout, np.dtype(np.float64), rng)
        for axis in (None, 0, -1):
            if x.ndim == 0 and axis is not None:
                continue
            kw = {} if axis is None else {"axis": axis}
            # (the blocked loop's float sums of many elements are close, not
            # NumPy's bits: block partials; loops are checked bit for bit in
            # tests/test_loops.py)
            check(lambda: fn(np, x, kw), lambda: fn(lt, t, kw),
                  rtol=1e-12 if layout.startswith("big") else None)


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_argreduction(engine: Any, name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(10)
    np_fn, lt_fn = getattr(np, name), getattr(lt, name)
    base = values(rng, dtype, (3, 5, 6))
    x, t = base[::2, 1:4, ::-2], lt.asarray(base)[::2, 1:4, ::-2]
    for axis in (None, 0, -1, 2):
        for keep in (False, True):
            check(lambda: np_fn(x, axis=axis, keepdims=keep),
                  lambda: lt_fn(t, axis=axis, keepdims=keep))
    check(lambda: np_fn(x, axis=3), lambda: lt_fn(t, axis=3))
    x0, t0 = operand("0d", dtype, rng)
    check(lambda: np_fn(x0), lambda: lt_fn(t0))
    e, te = operand("empty", dtype, rng)
    check(lambda: np_fn(e), lambda: lt_fn(te))               # empty: ValueError
    check(lambda: np_fn(e, axis=1), lambda: lt_fn(te, axis=1))
    check(lambda: np_fn(e, axis=0), lambda: lt_fn(te, axis=0))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_cumulative_sum(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(11)
    base = values(rng, dtype, (3, 5, 6))
    x, t = base[::2, 1:4, ::-2], lt.asarray(base)[::2, 1:4, ::-2]
    for axis in (0, 1, -1):
        for inc in (False, True):
            check(lambda: np.cumulative_sum(x, axis=axis, include_initial=inc),
                  lambda: lt.cumulative_sum(t, axis=axis, include_initial=inc))
    check(lambda: np.cumulative_sum(x), lambda: lt.cumulative_sum(t))   # 3-d, no axis
    check(lambda: np.cumulative_sum(x, axis=-4), lambda: lt.cumulative_sum(t, axis=-4))
    v, tv = operand("negstride", dtype, rng)
    check(lambda: np.cumulative_sum(v[0]), lambda: lt.cumulative_sum(tv[0]))
    e, te = operand("empty", dtype, rng)
    check(lambda: np.cumulative_sum(e, axis=0), lambda: lt.cumulative_sum(te, axis=0))
    check(lambda: np.cumsum(x), lambda: lt.cumsum(t))


# ------------------------------------------------------------------ views

VIEWS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("reshape", lambda xp, x: xp.reshape(x, (3, 8))),
    ("reshape-1", lambda xp, x: xp.reshape(x, (4, -1))),
    ("reshape-1-first", lambda xp, x: xp.reshape(x, (-1, 2, 3))),
    ("reshape-method", lambda xp, x: x.reshape(6, 4)),
    ("reshape-flat", lambda xp, x: x.reshape(-1)),
    ("reshape-scalar", lambda xp, x: xp.reshape(x[0, 1, 2], ())),
    ("reshape-from-scalar", lambda xp, x: xp.reshape(x[0, 1, 2], (1, 1, -1))),
    ("reshape-empty", lambda xp, x: xp.reshape(x[:, :0], (0, 4, 5))),
    ("reshape-empty-1", lambda xp, x: xp.reshape(x[:, :0], (3, -1))),
    ("reshape-bad", lambda xp, x: xp.reshape(x, (5, -1))),
    ("reshape-two-unknown", lambda xp, x: xp.reshape(x, (-1, -1))),
    ("permute_dims", lambda xp, x: xp.permute_dims(x, (2, 0, 1))),
    ("transpose", lambda xp, x: xp.transpose(x)),
    ("transpose-axes", lambda xp, x: xp.transpose(x, (1, -1, 0))),
    ("transpose-method", lambda xp, x: x.transpose(0, 2, 1)),
    ("transpose-bad", lambda xp, x: xp.transpose(x, (0, 1))),
    ("T", lambda xp, x: x.T),
    ("mT", lambda xp, x: x.mT),
    ("matrix_transpose", lambda xp, x: xp.matrix_transpose(x)),
    ("swapaxes", lambda xp, x: xp.swapaxes(x, 0, -1)),
    ("swapaxes-method", lambda xp, x: x.swapaxes(1, 2)),
    ("swapaxes-bad", lambda xp, x: xp.swapaxes(x, 0, 3)),
    ("moveaxis", lambda xp, x: xp.moveaxis(x, 0, -1)),
    ("moveaxis-multi", lambda xp, x: xp.moveaxis(x, (0, 1), (2, 0))),
    ("moveaxis-bad", lambda xp, x: xp.moveaxis(x, 3, 0)),
    ("moveaxis-repeated-source", lambda xp, x: xp.moveaxis(x, (0, -3), (1, 2))),
    ("moveaxis-repeated-destination", lambda xp, x: xp.moveaxis(x, (0, 1), (1, 1))),
    ("moveaxis-lengths", lambda xp, x: xp.moveaxis(x, (0, 1), (1,))),
    ("expand_dims", lambda xp, x: xp.expand_dims(x, 1)),
    ("expand_dims-neg", lambda xp, x: xp.expand_dims(x, -1)),
    ("expand_dims-tuple", lambda xp, x: xp.expand_dims(x, (0, 4))),
    ("expand_dims-bad", lambda xp, x: xp.expand_dims(x, 5)),
    ("squeeze", lambda xp, x: xp.squeeze(x[:, :1, None])),
    ("squeeze-axis", lambda xp, x: xp.squeeze(x[:1, :, :1], axis=-1)),
    ("squeeze-tuple", lambda xp, x: xp.squeeze(x[:1, :, :1], axis=(0, 2))),
    ("squeeze-bad", lambda xp, x: xp.squeeze(x, axis=0)),
    ("flip", lambda xp, x: xp.flip(x)),
    ("flip-axis", lambda xp, x: xp.flip(x, axis=1)),
    ("flip-tuple", lambda xp, x: xp.flip(x, axis=(0, -1))),
    ("broadcast_to", lambda xp, x: xp.broadcast_to(x, (2, 3, 4, 5))),
    ("broadcast_to-ones", lambda xp, x: xp.broadcast_to(x[:, :1], (3, 3, 5))),
    ("broadcast_to-bad", lambda xp, x: xp.broadcast_to(x, (3, 5))),
    ("broadcast_arrays", lambda xp, x: xp.broadcast_arrays(x, x[:, :1, :1], x[0, 0])),
    ("diagonal", lambda xp, x: xp.diagonal(x)),
    ("diagonal-axes", lambda xp, x: xp.diagonal(x, 1, -1, 0)),
    ("diagonal-method", lambda xp, x: x.diagonal(-1)),
    ("einsum-diagonal", lambda xp, x: xp.einsum("iij->ji", x[:, :3] if x.ndim == 3 else x)),
    ("ravel", lambda xp, x: x.ravel()),
    ("flatten", lambda xp, x: x.flatten()),
    ("split", lambda xp, x: xp.split(x, 3)),
    ("split-indices", lambda xp, x: xp.split(x, [1, 3], axis=2)),
    ("split-bad", lambda xp, x: xp.split(x, 4, axis=0)),
]

INDICES: list[Any] = [
    0, -1, (1, 2), (0, -1, -2), slice(1, None), slice(None, None, -1), slice(None, None, -2),
    (Ellipsis, 1), None, (slice(None), None, slice(None, None, 2)), (0, Ellipsis, -1),
    slice(1, 1), (slice(None, None, -2), slice(1, 4), None), (), Ellipsis,
    (None, Ellipsis, None), (slice(-100, 100), slice(5, 0, -2)), (2, slice(3, -6, -1)),
    (slice(None), 3), 3, (0, 0, 0, 0), (slice(None), -5), (Ellipsis, Ellipsis),
]


def view_input(dtype: np.dtype[Any], layout: str, rng: np.random.Generator) -> Pair:
    """A (3, 4, 5) operand: contiguous, strided, negative-stride or broadcast."""
    if layout == "plain":
        a = values(rng, dtype, (3, 4, 5))
        return a, lt.asarray(a)
    if layout == "strided":
        base = values(rng, dtype, (6, 4, 10))
        return base[::2, :, 1::2], lt.asarray(base)[::2, :, 1::2]
    if layout == "negstride":
        base = values(rng, dtype, (3, 4, 5))
        return base[::-1, :, ::-1], lt.asarray(base[::-1, :, ::-1])
    base = values(rng, dtype, (4, 1))
    return np.broadcast_to(base, (3, 4, 5)), lt.broadcast_to(lt.asarray(base), (3, 4, 5))


@pytest.mark.parametrize("dtype", VIEW_DTYPES, ids=[str(d) for d in VIEW_DTYPES])
@pytest.mark.parametrize("name,fn", VIEWS, ids=[v[0] for v in VIEWS])
def test_view(engine: Any, name: str, fn: Callable[[Any, Any], Any],
              dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(12)
    for layout in ("plain", "strided", "negstride", "broadcast"):
        x, t = view_input(dtype, layout, rng)
        check(lambda: fn(np, x), lambda: fn(lt, t))


@pytest.mark.parametrize("layout", ["plain", "strided", "negstride", "broadcast"])
def test_basic_indexing(engine: Any, layout: str) -> None:
    rng = np.random.default_rng(13)
    for dtype in VIEW_DTYPES:
        x, t = view_input(dtype, layout, rng)
        for idx in INDICES:
            check(lambda: x[idx], lambda: t[idx])
            try:
                first = x[idx]
            except IndexError:
                continue
            if first.ndim:  # an index chain: index the view again
                check(lambda: x[idx][..., ::-1, None], lambda: t[idx][..., ::-1, None])


def test_views_of_0d(engine: Any) -> None:
    x = np.array(2.5)
    t = lt.asarray(x)
    for fn in (lambda xp, v: v[()], lambda xp, v: v[None], lambda xp, v: v[...],
               lambda xp, v: xp.reshape(v, (1, 1)), lambda xp, v: xp.reshape(v, -1),
               lambda xp, v: xp.expand_dims(v, 0), lambda xp, v: xp.broadcast_to(v, (2, 3)),
               lambda xp, v: xp.transpose(v), lambda xp, v: v.T, lambda xp, v: xp.flip(v),
               lambda xp, v: xp.squeeze(v), lambda xp, v: v[0]):
        check(lambda: fn(np, x), lambda: fn(lt, t))


# ------------------------------------------------------------------ contraction and joining

S = tuple[int, ...]
CONTRACTIONS: list[tuple[str, Callable[[Any, Any, Any], Any], S, S]] = [
    ("matmul-2d", lambda xp, a, b: xp.matmul(a, b), (2, 3), (3, 4)),
    ("matmul-op", lambda xp, a, b: a @ b, (2, 3), (3, 4)),
    ("matmul-vec-mat", lambda xp, a, b: a @ b, (3,), (3, 4)),
    ("matmul-mat-vec", lambda xp, a, b: a @ b, (2, 3), (3,)),
    ("matmul-vec-vec", lambda xp, a, b: a @ b, (3,), (3,)),
    ("matmul-batch", lambda xp, a, b: a @ b, (2, 1, 2, 3), (4, 3, 2)),
    ("matmul-empty", lambda xp, a, b: a @ b, (0, 3), (3, 2)),
    ("matmul-empty-k", lambda xp, a, b: a @ b, (2, 0), (0, 3)),
    ("matmul-mismatch", lambda xp, a, b: a @ b, (2, 3), (4, 2)),
    ("matmul-0d", lambda xp, a, b: xp.matmul(a, b), (), (3,)),
    ("matmul-T", lambda xp, a, b: a.T @ b[::-1], (3, 2), (3, 4)),
    ("matmul-zero-strides", lambda xp, a, b: xp.broadcast_to(a, (2, 2, 3)) @ xp.broadcast_to(
        b[:, :1], (3, 4)), (2, 3), (3, 4)),
    ("tensordot-zero-strides", lambda xp, a, b: xp.tensordot(xp.broadcast_to(a, (4, 2, 3)), b,
                                                              ([2], [0])), (2, 3), (3, 4)),
    ("dot-zero-strides", lambda xp, a, b: xp.dot(xp.broadcast_to(a[:1], (5, 3)), b), (2, 3),
     (3, 4)),
    ("tensordot", lambda xp, a, b: xp.tensordot(a, b), (2, 3, 4), (3, 4, 2)),
    ("tensordot-1", lambda xp, a, b: xp.tensordot(a, b, 1), (2, 3), (3, 4)),
    ("tensordot-0", lambda xp, a, b: xp.tensordot(a, b, 0), (2, 3), (3,)),
    ("tensordot-axes", lambda xp, a, b: xp.tensordot(a, b, ([0, 2], [2, 1])),
     (2, 3, 4), (3, 4, 2)),
    ("tensordot-neg", lambda xp, a, b: xp.tensordot(a, b, axes=(-1, 0)), (2, 3), (3, 4)),
    ("tensordot-bad", lambda xp, a, b: xp.tensordot(a, b, axes=(0, 0)), (2, 3), (3, 4)),
    ("vecdot", lambda xp, a, b: xp.vecdot(a, b), (2, 3), (3,)),
    ("vecdot-axis", lambda xp, a, b: xp.vecdot(a, b, axis=0), (3, 2), (3, 1)),
    ("vecdot-bad", lambda xp, a, b: xp.vecdot(a, b), (2, 3), (2,)),
    ("outer", lambda xp, a, b: xp.outer(a, b), (3,), (2, 2)),
    ("outer-0d", lambda xp, a, b: xp.outer(a, b), (), (4,)),
    ("inner", lambda xp, a, b: xp.inner(a, b), (2, 3), (4, 3)),
    ("inner-1d", lambda xp, a, b: xp.inner(a, b), (3,), (3,)),
    ("inner-0d", lambda xp, a, b: xp.inner(a, b), (), (2, 3)),
    ("inner-bad", lambda xp, a, b: xp.inner(a, b), (2, 3), (2,)),
    ("dot", lambda xp, a, b: xp.dot(a, b), (2, 3), (3, 4)),
    ("dot-nd", lambda xp, a, b: xp.dot(a, b), (2, 3), (2, 3, 4)),
    ("dot-vec", lambda xp, a, b: xp.dot(a, b), (2, 3), (3,)),
    ("dot-0d", lambda xp, a, b: xp.dot(a, b), (), (2, 3)),
    ("dot-method", lambda xp, a, b: a.dot(b), (3,), (3,)),
    ("dot-bad", lambda xp, a, b: xp.dot(a, b), (2, 3), (2, 3)),
    ("trace", lambda xp, a, b: xp.trace(a), (3, 4), ()),
    ("trace-offset", lambda xp, a, b: xp.trace(a, 1, 0, 2), (3, 2, 4), ()),
    ("trace-neg", lambda xp, a, b: a.trace(offset=-1), (3, 3), ()),
    ("trace-1d", lambda xp, a, b: xp.trace(a), (3,), ()),
    ("concat", lambda xp, a, b: xp.concat([a, b, a]), (2, 3), (1, 3)),
    ("concat-axis", lambda xp, a, b: xp.concat([a, b], axis=-1), (2, 3), (2, 1)),
    ("concat-none", lambda xp, a, b: xp.concat([a, b], axis=None), (2, 3), (4,)),
    ("concatenate", lambda xp, a, b: xp.concatenate((a, b), 1), (2, 0), (2, 2)),
    ("concat-bad", lambda xp, a, b: xp.concat([a, b]), (2, 3), (2, 2)),
    ("concat-0d", lambda xp, a, b: xp.concat([a, b]), (), ()),
    ("stack", lambda xp, a, b: xp.stack([a, b]), (2, 3), (2, 3)),
    ("stack-axis", lambda xp, a, b: xp.stack([a, b, a], axis=-1), (2, 3), (2, 3)),
    ("stack-0d", lambda xp, a, b: xp.stack([a, b]), (), ()),
    ("stack-bad", lambda xp, a, b: xp.stack([a, b]), (2, 3), (3, 2)),
    ("hstack", lambda xp, a, b: xp.hstack([a, b]), (2, 3), (2, 1)),
    ("hstack-1d", lambda xp, a, b: xp.hstack([a, b]), (3,), (2,)),
    ("hstack-0d", lambda xp, a, b: xp.hstack([a, b]), (), ()),
    ("vstack", lambda xp, a, b: xp.vstack([a, b]), (2, 3), (3,)),
    ("vstack-0d", lambda xp, a, b: xp.vstack([a, b]), (), ()),
    ("vstack-3d", lambda xp, a, b: xp.vstack([a, b]), (1, 2, 3), (2, 2, 3)),
]


def contraction_operand(dtype: np.dtype[Any], shape: S, flip: bool,
                        rng: np.random.Generator) -> Pair:
    """Non-contiguous operands: a reversed, stepped view of a bigger array."""
    if not flip or not shape:
        a = values(rng, dtype, shape)
        return a, lt.asarray(a)
    big = values(rng, dtype, tuple(2 * d for d in shape))
    idx = tuple(slice(None, None, -2) for _ in shape)
    return big[idx], lt.asarray(big)[idx]


# Contractions compute, so every dtype; joins move bytes, so one dtype per kind.
CONTRACTION_ROWS = [pytest.param(name, fn, sa, sb, dt, id=f"{name}-{dt}")
                    for name, fn, sa, sb in CONTRACTIONS for dt in DTYPES
                    if dt in VIEW_DTYPES or name.startswith(("matmul", "tensordot", "vecdot",
                                                             "dot", "trace", "inner"))]


@pytest.mark.parametrize("name,fn,sa,sb,dtype", CONTRACTION_ROWS)
def test_contraction_and_join(engine: Any, name: str, fn: Callable[..., Any], sa: S, sb: S,
                              dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(14)
    rtol = 5e-3 if dtype == np.float16 else (1e-5 if dtype in (np.float32, np.complex64)
                                             else None)
    for flip in (False, True):
        a, ta = contraction_operand(dtype, sa, flip, rng)
        b, tb = contraction_operand(dtype, sb, flip, rng)
        check(lambda: fn(np, a, b), lambda: fn(lt, ta, tb), rtol=rtol)


def test_einsum_path_reads_shapes_only() -> None:
    a, b, c = (np.ones(s) for s in ((2, 30), (30, 40), (40, 5)))
    lazy = [lt.asarray(v) * 2 for v in (a, b, c)]        # not computed
    for opt in ("greedy", "optimal"):
        got = lt.einsum_path("ij,jk,kl->il", *lazy, optimize=opt)
        want = np.einsum_path("ij,jk,kl->il", a, b, c, optimize=opt)
        assert got[0] == want[0] and got[1] == want[1]
    assert all(t.node.value is None for t in lazy)


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
def test_einsum_is_numpys_to_the_bit(engine: Any, optimize: Any) -> None:
    """NumPy's own einsum loops by default (optimize=False), as eager NumPy:
    with optimize=True the bits were BLAS's, other than NumPy's default."""
    rng = np.random.default_rng(15)
    A, B = rng.standard_normal((300, 250)), rng.standard_normal((300, 250))
    C = rng.standard_normal((250, 7))
    ta, tb, tc = lt.asarray(A), lt.asarray(B), lt.asarray(C)
    for sub, arrays, tensors in [("ij,ij->i", (A, B), (ta, tb)), ("ij,jk->ik", (A, C), (ta, tc)),
                                 ("ij,ij", (A, B), (ta, tb)), ("ij,jk,ij->k", (A, C, B),
                                                               (ta, tc, tb))]:
        got = lt.einsum(sub, *tensors, optimize=optimize).eval()
        np.testing.assert_array_equal(got, np.einsum(sub, *arrays, optimize=optimize))
    with pytest.raises(TypeError, match="optimize"):
        lt.einsum("ij->i", ta, optimize="fast")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_inner_is_numpys_to_the_bit(engine: Any, dtype: Any) -> None:
    """``np.inner`` is ``dot`` with ``b``'s last axis moved second-to-last;
    ``tensordot`` over the last axes sums in another order (4 ulp off)."""
    rng = np.random.default_rng(6)
    for sa, sb in (((4, 3), (2, 4, 3)), ((40, 30), (50, 30)), ((2, 3, 4), (5, 2, 4)),
                   ((30,), (5, 30)), ((2, 4, 30), (30,))):
        a, b = rng.standard_normal(sa).astype(dtype), rng.standard_normal(sb).astype(dtype)
        np.testing.assert_array_equal(lt.inner(lt.asarray(a)[::-1], lt.asarray(b)).eval(),
                                      np.inner(a[::-1], b))


def test_geomspace_and_dtype_helpers(engine: Any) -> None:
    for args, kw in (((1, 1000, 4), {}), ((-1, -1000, 5), {"dtype": np.float32}),
                     ((1j, 1000j, 3), {}), ((1, 256, 9), {"endpoint": False}),
                     (([1, 2], [100, 200], 3), {"axis": 1}), ((0, 10), {})):
        check(lambda: np.geomspace(*args, **kw), lambda: lt.geomspace(*args, **kw))
    # tensor endpoints (also NumPy's geomspace given them): computed now
    lo, hi = np.array([1.0, -2.0]), np.array(100.0)
    for got in (lt.geomspace(lt.asarray(lo) * 1, lt.asarray(hi), 3),
                np.geomspace(lt.asarray(lo), hi, 3)):
        assert_eq(got, np.geomspace(lo, hi, 3))
    i8, f4 = np.ones(2, np.int8), np.ones(2, np.float32)
    assert lt.common_type(lt.asarray(i8), f4) is np.common_type(i8, f4)
    assert lt.promote_types("i1", "u1") == np.promote_types("i1", "u1")
    assert lt.isscalar(3.0) and not lt.isscalar(lt.ones(()))
    check(lambda: np.linalg.matrix_power(np.eye(2) * 2, 3),
          lambda: lt.matrix_power(lt.eye(2) * 2, 3))


def test_meshgrid(engine: Any) -> None:
    xs = [np.arange(3.0), np.arange(4, dtype=np.int8), np.array([[1j, 2]])]
    ts = [lt.asarray(x) for x in xs]
    for n in range(4):
        for kw in ({}, {"indexing": "ij"}, {"sparse": True}, {"sparse": True, "indexing": "ij"},
                   {"copy": False}):
            check(lambda: np.meshgrid(*xs[:n], **kw), lambda: lt.meshgrid(*ts[:n], **kw))
    check(lambda: np.meshgrid(xs[0], indexing="yx"), lambda: lt.meshgrid(ts[0], indexing="yx"))
    X, Y = np.meshgrid(*xs[:2])
    TX, TY = lt.meshgrid(*ts[:2])
    X[0, 0] = TX[0, 0] = 99             # a copy: written alone
    assert_eq(TX, X)
    assert_eq(TY, Y)
    with pytest.raises(ValueError):
        lt.meshgrid(*ts[:2], copy=False)[0][0, 0] = 1    # read-only views, as NumPy's


def test_joins_mixed_dtypes(engine: Any) -> None:
    a = np.arange(6, dtype=np.int8).reshape(2, 3)
    b = np.ones((1, 3), np.float32)
    c = np.array([[True, False, True]])
    ta, tb, tc = lt.asarray(a), lt.asarray(b), lt.asarray(c)
    check(lambda: np.concat([a, b]), lambda: lt.concat([ta, tb]))
    check(lambda: np.concat([a, c]), lambda: lt.concat([ta, c]))
    check(lambda: np.vstack([a, b, c]), lambda: lt.vstack([ta, b, tc]))
    check(lambda: np.stack([a[0], b[0]]), lambda: lt.stack([ta[0], tb[0]]))
    check(lambda: np.matmul(a, b.T), lambda: lt.matmul(ta, tb.T))
    check(lambda: np.tensordot(a, c, ([1], [1])), lambda: lt.tensordot(ta, tc, ([1], [1])))


# ------------------------------------------------------------------ creation


@pytest.mark.parametrize("dtype", [None] + DTYPES, ids=["default"] + DTYPE_IDS)
def test_creation(engine: Any, dtype: np.dtype[Any] | None) -> None:
    for shape in ((), (0,), 3, (2, 3), (1, 0, 2)):
        check(lambda: np.zeros(shape, dtype), lambda: lt.zeros(shape, dtype))
        check(lambda: np.ones(shape, dtype), lambda: lt.ones(shape, dtype))
        check(lambda: np.full(shape, 7, dtype), lambda: lt.full(shape, 7, dtype))
        e = lt.empty(shape, dtype)
        ref = np.empty(shape, dtype)
        assert (e.shape, e.dtype) == (ref.shape, ref.dtype)
        ev = e.eval()
        assert (ev.shape, ev.dtype) == (ref.shape, ref.dtype)
    like = np.ones((2, 3), np.int16)[:, ::-1]
    tl = lt.asarray(like)
    check(lambda: np.zeros_like(like, dtype), lambda: lt.zeros_like(tl, dtype))
    check(lambda: np.ones_like(like, dtype), lambda: lt.ones_like(tl, dtype))
    check(lambda: np.full_like(like, 3, dtype), lambda: lt.full_like(tl, 3, dtype))
    check(lambda: np.zeros_like(like, dtype), lambda: lt.zeros_like(like, dtype))
    el = lt.empty_like(tl, dtype)
    assert (el.shape, el.dtype) == (like.shape, np.empty_like(like, dtype).dtype)
    check(lambda: np.eye(3, dtype=dtype), lambda: lt.eye(3, dtype=dtype))
    check(lambda: np.eye(2, 4, k=1, dtype=dtype), lambda: lt.eye(2, 4, k=1, dtype=dtype))
    check(lambda: np.eye(3, 2, k=-1, dtype=dtype), lambda: lt.eye(3, 2, k=-1, dtype=dtype))
    check(lambda: np.identity(4, dtype=dtype), lambda: lt.identity(4, dtype=dtype))
    check(lambda: np.eye(0, dtype=dtype), lambda: lt.eye(0, dtype=dtype))
    check(lambda: np.eye(3, k=5, dtype=dtype), lambda: lt.eye(3, k=5, dtype=dtype))
    check(lambda: np.eye(2, 3, k=-4, dtype=dtype), lambda: lt.eye(2, 3, k=-4, dtype=dtype))


def test_full_fill_values(engine: Any) -> None:
    for fill in (True, 3, -2, 2.5, 1 + 2j, np.float32(1.5), np.int8(-3), np.uint16(7)):
        check(lambda: np.full((2, 2), fill), lambda: lt.full((2, 2), fill))
        check(lambda: np.full((2,), fill, np.float16), lambda: lt.full((2,), fill, np.float16))
    check(lambda: np.full(3, np.nan), lambda: lt.full(3, np.nan))
    # NumPy's conversion of the fill value: out-of-range Python ints raise
    for fill, dt in ((300, np.int8), (-1, np.uint8), (2 ** 63, np.int64), (2.7, np.int32),
                     (-1.5, np.uint16), (255, np.uint8), (1e300, np.float32)):
        check(lambda: np.full(2, fill, dt), lambda: lt.full(2, fill, dt))
        check(lambda: np.full_like(np.zeros(2, dt), fill),
              lambda: lt.full_like(lt.zeros(2, dt), fill))
    check(lambda: np.full_like(np.zeros(3, np.int8), 5), lambda: lt.full_like(lt.zeros(3,
                                                                                np.int8), 5))
    # A tensor or array fill keeps its dtype, is cast unsafely, and broadcasts.
    for fill in (np.float32(1.5), np.int8(-3), np.uint8(200), np.arange(3), [1, 2, 3],
                 np.arange(2.0)[:, None], np.ones((2, 2)), 2 ** 70, [[[1, 2, 3]]],
                 np.ones((2, 2, 3))):
        for dt in (None, np.int8, np.float64):
            if isinstance(fill, int) and dt is None:
                continue                 # (NumPy: an object array; not supported here)
            check(lambda: np.full((2, 3), fill, dt), lambda: lt.full((2, 3), fill, dt))
            if np.ndim(fill):
                check(lambda: np.full((2, 3), fill, dt),
                      lambda: lt.full((2, 3), lt.asarray(fill), dt))
    check(lambda: np.full_like(np.zeros(2, np.int8), np.uint8(200)),
          lambda: lt.full_like(lt.zeros(2, np.int8), lt.asarray(np.uint8(200))))
    t = lt.full(3, lt.asarray(np.float32(2)))
    t[0] = 5                                     # a tensor of its own: writes stay in it
    assert_eq(t, np.array([5, 2, 2], np.float32))
    for shape in (np.array(3), np.int8(2), (np.int64(2), 1)):
        check(lambda: np.zeros(shape), lambda: lt.zeros(shape))
    with pytest.raises(ValueError, match="too big"):
        lt.zeros((2 ** 31, 2 ** 31))             # (NumPy's check when it allocates)


ARANGES: list[tuple[tuple[Any, ...], Any]] = [
    ((5,), None), ((0,), None), ((-3,), None), ((2, 10, 3), None), ((10, 2, -3), None),
    ((0.0, 1.0, 0.1), None), ((1, 2.5, 0.5), None), ((5,), np.float32), ((3,), np.uint8),
    ((0, 5, 2), np.int8), ((np.int16(4),), None), ((np.float32(3),), None),
    ((-1.5, 2), None), ((0, 1, 0.3), np.float16), ((3,), np.complex128),
    ((5,), np.bool_), ((2,), np.bool_), ((0, 3), np.bool_), ((1, 0.3, -0.2), None),
    ((0, 5, 0.5), np.int64), ((np.uint64(1), np.int64(3)), None), ((0, np.uint64(3)), None),
    # NumPy's length rule, ceil((stop - start) / step) on the arguments: a
    # float quotient of wide ints, NumPy integers that wrap, its errors.
    ((0, 10 ** 18 + 1, 10 ** 17), None), ((np.int8(-100), np.int8(100)), None),
    ((np.uint8(5), np.uint8(0), np.int8(-1)), None), ((0, 3, 0), None), ((0, 3, 0.0), None),
    ((0, 3, np.int64(0)), None), ((0, np.inf), None), ((0, np.nan), None), ((0, 2 ** 70), None),
    ((np.array(3),), None), ((np.array(2.5), 4), np.float32), ((np.array([3]),), None),
    ((True,), None),
    # a quotient that underflows to +0 is one element, to -0 none (an
    # infinite step too); wrapping NumPy integers are its ValueError
    ((0, 5, np.inf), None), ((0, 1e-300, 1e300), None), ((5, 0, -np.inf), None),
    ((0, 5, -np.inf), None), ((0, -5, np.inf), None), ((np.int8(0), 200, np.int8(50)), None),
    ((np.arange(3),), None), ((np.zeros(0),), None),
    ((np.arange(3),), None), ((np.zeros(0),), None),
]


@pytest.mark.parametrize("args,dtype", ARANGES, ids=[f"{a}-{d}" for a, d in ARANGES])
def test_arange(engine: Any, args: tuple[Any, ...], dtype: Any) -> None:
    check(lambda: np.arange(*args, dtype=dtype), lambda: lt.arange(*args, dtype=dtype))


def test_arange_keywords_and_tensor_bounds(engine: Any) -> None:
    check(lambda: np.arange(stop=3), lambda: lt.arange(stop=3))
    check(lambda: np.arange(5, step=2), lambda: lt.arange(5, step=2))
    check(lambda: np.arange(), lambda: lt.arange())
    check(lambda: np.arange(None, 3), lambda: lt.arange(None, 3))
    check(lambda: np.arange(3, None), lambda: lt.arange(3, None))
    check(lambda: np.arange(np.int16(7)), lambda: lt.arange(lt.asarray(np.int16(7))))
    check(lambda: np.arange(1, 4.5), lambda: lt.arange(lt.asarray(1), lt.asarray(2.0) * 2.25))


LINSPACES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((0, 1), {}), ((0, 1, 5), {}), ((1, 0, 4), {"endpoint": False}), ((0, 10, 0), {}),
    ((0, 10, 1), {}), ((-1, 1, 7), {"dtype": np.float32}), ((0, 10, 5), {"dtype": np.int32}),
    ((0, 1 + 1j, 3), {}), ((2, 3, 4), {"dtype": np.float16}),
    # NumPy's signature: endpoint positional, retstep (NumPy's step), axis,
    # array and 0-d array bounds (computed by NumPy), a NumPy scalar's dtype.
    ((0, 1, 5, False), {}), ((0, 1, 5), {"retstep": True}), ((0, 1, 1), {"retstep": True}),
    ((0, 1, 0), {"retstep": True}), ((0, 1, 1, False), {"retstep": True}),
    ((0, 10, 4), {"retstep": True, "dtype": int}), ((0, 1 + 1j, 3), {"retstep": True}),
    ((np.float32(0), 1, 3), {"retstep": True}), ((0, 1, 3), {"axis": -1}),
    ((0, 1, 3), {"axis": 1}), (([0, 1], 2, 3), {}), (([0, 1], [2, 5], 3), {"axis": 1}),
    (([0, 1], 2, 3), {"retstep": True, "axis": -1}),
    ((np.array(0.0), np.array(1.0, np.float32), 3), {}), ((0, 1, 3.0), {}),
    ((0, 1, np.int64(3)), {}), ((0, 1, -1), {}),
]


@pytest.mark.parametrize("args,kw", LINSPACES, ids=[f"{a}-{k}" for a, k in LINSPACES])
def test_linspace(engine: Any, args: tuple[Any, ...], kw: dict[str, Any]) -> None:
    check(lambda: np.linspace(*args, **kw), lambda: lt.linspace(*args, **kw))
    bounds = [lt.asarray(np.asarray(v)) if np.ndim(v) else v for v in args[:2]]
    check(lambda: np.linspace(*args, **kw), lambda: lt.linspace(*bounds, *args[2:], **kw))


def test_eye_takes_numpys_keywords(engine: Any) -> None:
    check(lambda: np.eye(2, M=3, k=1), lambda: lt.eye(2, M=3, k=1))
    check(lambda: np.eye(N=3), lambda: lt.eye(N=3))
    with pytest.raises(ValueError, match="device"):
        lt.eye(2, device="gpu")


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_asarray_and_array(engine: Any, dtype: np.dtype[Any]) -> None:
    from lazyten.exec.executor import evaluate
    rng = np.random.default_rng(15)
    a = values(rng, dtype, (3, 4))
    for obj in (a, a[::-1, 1::2], a[0, 0], a.tolist(), a[0].tolist()):
        check(lambda: np.asarray(obj), lambda: lt.asarray(obj))
        check(lambda: np.array(obj), lambda: lt.array(obj))
        for dt in (None, np.float64, np.int8):
            check(lambda: np.asarray(obj, dtype=dt), lambda: lt.asarray(obj, dtype=dt))
    # copy=None / False wrap the user's array; copy=True and lt.array copy it now.
    for copy in (None, False):
        t = lt.asarray(a, copy=copy)
        assert np.shares_memory(evaluate([t.node])[0], a)
    b = a.copy()
    t_copy, t_arr, t_view = lt.asarray(b, copy=True), lt.array(b), lt.asarray(b)
    snapshot = b.copy()
    b[...] = b[0, 0]
    assert_eq(t_copy, snapshot)
    assert_eq(t_arr, snapshot)
    assert_eq(t_view, b)        # zero-copy: reads the array when evaluated
    assert not np.shares_memory(evaluate([t_copy.node])[0], b)
    # copy=False where a copy is needed: NumPy and lazyten both raise ValueError
    check(lambda: np.asarray(a.tolist(), copy=False), lambda: lt.asarray(a.tolist(), copy=False))
    other = np.dtype(np.float32) if dtype != np.float32 else np.dtype(np.int8)
    check(lambda: np.asarray(a, dtype=other, copy=False),
          lambda: lt.asarray(a, dtype=other, copy=False))


def test_asarray_of_tensor(engine: Any) -> None:
    a = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(a) * 2
    assert lt.asarray(t) is t
    assert_eq(lt.asarray(t, dtype=np.float32), (a * 2).astype(np.float32))
    with pytest.raises(ValueError):
        lt.asarray(t, dtype=np.int32, copy=False)
    assert_eq(lt.asarray(t, copy=True), a * 2)
    assert_eq(lt.array(t), a * 2)
    assert_eq(lt.array(t, dtype=np.int8), (a * 2).astype(np.int8))


def test_random_is_seeded_and_reproducible(engine: Any) -> None:
    g1, g2 = lt.random.default_rng(42), lt.random.default_rng(42)
    ref = np.random.default_rng(42)
    for method, args in (("random", ((2, 3),)), ("standard_normal", ((4,),)),
                         ("normal", (1.0, 2.0, (3,))), ("uniform", (-1, 1, (2, 2))),
                         ("integers", (0, 10, (5,))), ("permutation", (6,))):
        t1, t2 = getattr(g1, method)(*args), getattr(g2, method)(*args)
        expected = getattr(ref, method)(*args)
        assert_eq(t1, expected)
        assert_eq(t2, expected)
    assert_eq(g1.random(3, dtype=np.float32), ref.random(3, dtype=np.float32))
    assert_eq(g1.integers(0, 5, 4, dtype=np.uint8), ref.integers(0, 5, 4, dtype=np.uint8))
    # two draws are two different samples, never merged as one subexpression
    a, b = g1.random(8), g1.random(8)
    assert not np.array_equal(a.eval(), b.eval())
    assert not np.array_equal((a + 0).eval(), (b + 0).eval())
    lt.random.seed(7)
    x = lt.random.rand(3, 2)
    lt.random.seed(7)
    assert_eq(lt.random.rand(3, 2), x.eval())
    assert lt.random.randn(2, 2).shape == (2, 2)


# ------------------------------------------------------------------ operators and scalars

BIN_OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv,
                 operator.floordiv, operator.mod, operator.pow, operator.and_, operator.or_,
                 operator.xor, operator.lshift, operator.rshift, operator.lt, operator.le,
                 operator.gt, operator.ge, operator.eq, operator.ne]
OP_IDS = [f.__name__ for f in BIN_OPERATORS]


@pytest.mark.parametrize("op", BIN_OPERATORS, ids=OP_IDS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "uint64", "float16",
                                   "float32", "complex64"])
def test_operators_every_operand_kind(engine: Any, op: Callable[[Any, Any], Any],
                                      dtype: str) -> None:
    """Tensor op X and X op Tensor, for X a Python scalar (weak), a NumPy scalar,
    a NumPy array, and another Tensor; the result is always a Tensor."""
    dt = np.dtype(dtype)
    rng = np.random.default_rng(16)
    x = values(rng, dt, (2, 3), 1)
    t = lt.asarray(x)
    pyscalars: list[Any] = [True, 2, 2.5, 1 - 1j] if dt.kind != "b" else [True, 1]
    others: list[tuple[Any, Any]] = [(s, s) for s in pyscalars]
    others += [(np.int8(3), np.int8(3)), (np.float32(1.5), np.float32(1.5)),
               (np.uint64(2), np.uint64(2))]
    y = values(rng, dt, (3,), 1)
    z = values(rng, np.dtype(np.int32), (1, 3), 1)
    others += [(y, y), (z, z), (y, lt.asarray(y)), (z, lt.asarray(z))]
    for other_np, other_lt in others:
        check(lambda: op(x, other_np), lambda: _is_tensor(op(t, other_lt)))
        check(lambda: op(other_np, x), lambda: _is_tensor(op(other_lt, t)))


def _is_tensor(r: Any) -> Any:
    assert isinstance(r, lt.Tensor), f"expected a Tensor, got {type(r).__name__}"
    return r


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_unary_operators(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(17)
    for layout in ("0d", "strided", "negstride"):
        x, t = operand(layout, dtype, rng)
        for op in (operator.neg, operator.pos, operator.abs, operator.invert):
            check(lambda: op(x), lambda: _is_tensor(op(t)))


def test_divmod_and_matmul_operators(engine: Any) -> None:
    x = np.arange(1, 7, dtype=np.int16).reshape(2, 3)
    y = np.array([2, 3, 4], np.int16)
    t, u = lt.asarray(x), lt.asarray(y)
    for a, b, ta, tb in ((x, y, t, u), (x, y, x, u), (x, y, t, y), (x, 4, t, 4), (7, y, 7, u)):
        q, r = divmod(ta, tb)
        eq, er = divmod(a, b)
        assert_eq(_is_tensor(q), eq)
        assert_eq(_is_tensor(r), er)
    m = np.ones((3, 2), np.float32)
    assert_eq(_is_tensor(x @ lt.asarray(m)), x @ m)
    assert_eq(_is_tensor(t @ m), x @ m)
    assert_eq(_is_tensor(m.T @ t.T), m.T @ x.T)
    assert_eq(_is_tensor(np.matmul(x, lt.asarray(m))), x @ m)


WEAK_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("int8", lambda a: a + 1), ("int8", lambda a: 1 + a), ("int8", lambda a: a * -3),
    ("int8", lambda a: a // 2), ("int8", lambda a: 100 - a), ("uint8", lambda a: a + 200),
    ("uint8", lambda a: a & 0xF0), ("int16", lambda a: a ** 2), ("int8", lambda a: a < 300),
    ("uint8", lambda a: a == -1), ("int8", lambda a: a + 2.5), ("int8", lambda a: a / 2),
    ("float32", lambda a: a * 2.5), ("float32", lambda a: 2.5 * a), ("float32", lambda a: a + 1),
    ("float16", lambda a: a - 1e3), ("float16", lambda a: a / 3), ("float32", lambda a: a ** 0.5),
    ("float32", lambda a: a + 1j), ("complex64", lambda a: a * 2.5), ("bool", lambda a: a + 1),
    ("bool", lambda a: a * 1.5), ("bool", lambda a: a & True), ("uint64", lambda a: a + 1),
    ("uint64", lambda a: a * 2.0), ("uint32", lambda a: a - 1), ("int8", lambda a: a + True),
    ("float16", lambda a: 65504.0 + a), ("int8", lambda a: a + 1000), ("uint8", lambda a: a - (-1)),
    ("uint8", lambda a: a + -1), ("int64", lambda a: a + 2 ** 63), ("float32", lambda a: a + 1e300),
]


@pytest.mark.parametrize("dtype,fn", WEAK_CASES, ids=[f"{d}-{i}" for i, (d, _) in
                                                      enumerate(WEAK_CASES)])
def test_python_scalars_are_weak(engine: Any, dtype: str, fn: Callable[[Any], Any]) -> None:
    """NEP 50: ``int8 + 1`` is int8, ``float32 * 2.5`` is float32; a Python int
    that does not fit the array's dtype is an OverflowError when built."""
    x = values(np.random.default_rng(18), np.dtype(dtype), (2, 3), 1)
    check(lambda: fn(x), lambda: fn(lt.asarray(x)))


@pytest.mark.parametrize("first", [1.0, -1.0])
def test_nan_constants_keep_their_sign(engine: Any, first: float) -> None:
    """``nan`` and ``-nan`` are different constants (repr drops the sign):
    built in either order, each keeps its own, for Python and NumPy scalars."""
    x = np.arange(3.0)
    for nan in (float("nan"), np.float32("nan"), np.float64("nan")):
        for sign in (first, -first):
            v = nan * sign if not isinstance(nan, float) else math.copysign(nan, sign)
            check(lambda: np.copysign(1.0, x + v), lambda: lt.copysign(1.0, lt.asarray(x) + v))
            check(lambda: np.signbit(x * v), lambda: lt.signbit(lt.asarray(x) * v))


def test_weak_dtype_named(engine: Any) -> None:
    assert (lt.asarray(np.ones(3, np.int8)) + 1).dtype == np.int8
    assert (lt.asarray(np.ones(3, np.float32)) * 2.5).dtype == np.float32
    assert (1 + lt.asarray(np.ones(3, np.uint8))).dtype == np.uint8
    # NumPy scalars are strong
    assert (lt.asarray(np.ones(3, np.float32)) * np.float64(2.5)).dtype == np.float64
    assert (np.int16(1) + lt.asarray(np.ones(3, np.int8))).dtype == np.int16


def test_numpy_functions_accept_tensors(engine: Any) -> None:
    x = np.linspace(-1, 1, 6).reshape(2, 3)
    t = lt.asarray(x)
    assert_eq(_is_tensor(np.sin(t)), np.sin(x))
    assert_eq(_is_tensor(np.add(x, t)), x + x)
    assert_eq(_is_tensor(np.maximum(0.0, t)), np.maximum(0.0, x))
    np.testing.assert_allclose(np.add.reduce(t, axis=0), x.sum(0))  # eager fallback
    np.testing.assert_allclose(np.mean(np.asarray(t)), x.mean())


def test_complex_multiply_by_one_is_not_an_identity(engine: Any) -> None:
    x = np.array([complex(-0.0, -0.5), complex(np.nan, 1.0), 2 - 1j])
    assert_eq(lt.asarray(x) * 1, x * 1)
    np.testing.assert_array_equal(np.signbit((lt.asarray(x) * 1).eval().real),
                                  np.signbit((x * 1).real))


# Python scalars on either side of every binary op: NEP 50 weak typing, and
# NumPy's errors for values the array's dtype cannot hold (uint8 + -1).
PY_SCALARS: list[Any] = [True, 3, -2, 300, 2 ** 64, 2.5, -0.0, float("nan"), 1.5j, 1e-8,
                         2 ** 40]


@pytest.mark.parametrize("name", BINARY_OPS)
def test_binary_with_python_scalars(engine: Any, name: str) -> None:
    rng = np.random.default_rng(19)
    np_fn, lt_fn = getattr(np, name), getattr(lt, name)
    for dtype in DTYPES:
        x, t = operand("strided", dtype, rng, 1)
        for s in PY_SCALARS:
            check(lambda: np_fn(x, s), lambda: lt_fn(t, s))
            check(lambda: np_fn(s, x), lambda: lt_fn(s, t))


@pytest.mark.parametrize("name", BINARY_OPS)
def test_binary_with_python_scalars_on_the_fast_path(name: str) -> None:
    """The second evaluation of a structure (new leaves: nothing cached)
    runs its cached plan's fast path, which binds a scalar once as a 0-d
    array where NumPy's loop would convert it the same way (not under
    ``check=True``, the engine fixture's: hence default options here)."""
    rng = np.random.default_rng(19)
    np_fn, lt_fn = getattr(np, name), getattr(lt, name)
    for dtype in DTYPES:
        x, _ = operand("plain", dtype, rng, 1)
        for s in PY_SCALARS:
            for _ in range(2):
                check(lambda: np_fn(x, s), lambda: lt_fn(lt.asarray(x), s))
                check(lambda: np_fn(s, x), lambda: lt_fn(s, lt.asarray(x)))


def test_where_with_scalar_branches(engine: Any) -> None:
    c = np.array([[True, False, True]])
    t = lt.asarray(c)
    x8 = np.arange(3, dtype=np.int8)
    for a, b in ((1, 2.5), (True, 0), (1j, 2), (x8, 1), (1, x8), (x8, 1.5), (np.float32(1), 2),
                 (x8, 300)):
        ta = lt.asarray(a) if isinstance(a, np.ndarray) else a
        tb = lt.asarray(b) if isinstance(b, np.ndarray) else b
        check(lambda: np.where(c, a, b), lambda: lt.where(t, ta, tb))


# Integer-array and boolean-mask indexing (beyond the basic views): gathers.
_X3 = np.arange(24).reshape(2, 3, 4)
_MASK = _X3 % 3 == 0
ADVANCED: list[Any] = [
    [1, 0], (slice(None), [2, -1, 0]), (Ellipsis, [3, 3]), np.array([[0, 1], [1, 0]]),
    (slice(None), slice(None), np.array([], dtype=np.int64)), _MASK, (slice(None), _MASK[0, :, 0]),
    [True, False], (slice(1, None), [0, 1]), (slice(None, None, -1), slice(None), [1]),
    [0, 2], (slice(None), [-4]), np.array([0.5]), _MASK[0], _MASK[..., :2],
    # several arrays, arrays with ints or None (NumPy's ``gather``): side by
    # side their axes stay in place, apart (or with ``...`` between) first
    ([0, 1], [2, 0]), (slice(None), [0, 2], [[3], [1]]), ([1, 0], slice(None), [0, 3]),
    (0, slice(None), [1, 3]), (0, [1, 2]), ([1], None, [2, 0]), (Ellipsis, 1, [0, 3]),
    ([0, 1], Ellipsis, [1, 2]), (_MASK[0, :, 0], [[1], [3]]), (_MASK[:, :, 0], 2),
    (np.array(1), [0, 2]), (slice(None, None, -1), [2], [[0, 3]]), ([0, 1], [2, 9]),
    ([0, 1], [0, 1, 2]), (slice(None), _MASK[0, :, 0], slice(1, None)),
    (Ellipsis, _MASK[0]), (_MASK[:, 0], slice(None, None, -1)), [],
    # NumPy checks no index when nothing is gathered; a mask axis of length 0
    # fits any axis
    (np.array([], np.intp), slice(None), [9]), (slice(None), np.zeros(0, bool)),
    np.zeros((2, 0), bool), (np.zeros((0, 3), bool), 1), np.zeros((1, 0), bool),
    [slice(None), 0],                   # a list holding a slice is no index array
    # 0-d booleans: a new axis of length 1 (True) or 0 (False), indexed
    True, False, np.True_, (True, 0), ([0, 1], True), (Ellipsis, True),
    (True, Ellipsis, 1), (None, False, slice(None, None, -1)), (np.array(True), [2], True),
]


@pytest.mark.parametrize("dtype", VIEW_DTYPES, ids=[str(d) for d in VIEW_DTYPES])
def test_advanced_indexing(engine: Any, dtype: np.dtype[Any]) -> None:
    x = _X3.astype(dtype)
    for t in (lt.asarray(x), lt.asarray(x[::-1, :, ::-1].copy())[::-1, :, ::-1]):
        for idx in ADVANCED:
            check(lambda: x[idx], lambda: t[idx])
        check(lambda: x[..., ::2][[1]], lambda: t[..., ::2][[1]])
        check(lambda: x[:, [2, 0]].sum(axis=1), lambda: t[:, [2, 0]].sum(axis=1))
        idx_t = lt.asarray(np.array([1, 0, 1]))
        check(lambda: x[:, [1, 0, 1]], lambda: t[:, idx_t])
        check(lambda: x[[1, 0], 1:, idx_t[:2] + 1], lambda: t[[1, 0], 1:, idx_t[:2] + 1])
        check(lambda: x[(1, 0),], lambda: t[(1, 0),])             # a tuple inside: an array
        for ind in ([], [True, False], [[0, 2]]):                  # np.take's sequences
            check(lambda: np.take(x, ind, axis=1), lambda: lt.take(t, ind, axis=1))


ASSIGNMENTS: list[tuple[Any, Any]] = [
    (([0, 1], [2, 0]), -1), (([1, 1], [2, 2]), np.array([5, 6])),    # repeated: the last write
    ((slice(None), [0, 2], [[3], [1]]), np.arange(4).reshape(2, 2)),
    ((0, slice(None), [1, 3]), np.array([[7], [8], [9]])), (_MASK, 0), (_MASK, 2.7),
    (_MASK, np.arange(8)), ((_MASK[:, :, 0], 2), -3), ((Ellipsis, _MASK[0]), 1),
    ((_MASK[:, 0],), np.ones((1, 1, 4))), (([0, 1], [0, 1, 2]), 0), (([5],), 0),
    ((True,), 7), ((False,), 7), ((1, True, Ellipsis), np.arange(4)), ((Ellipsis, True), -2),
]


@pytest.mark.parametrize("dtype", VIEW_DTYPES, ids=[str(d) for d in VIEW_DTYPES])
def test_advanced_assignment(engine: Any, dtype: np.dtype[Any]) -> None:
    for idx, val in ASSIGNMENTS:
        n = _X3.astype(dtype)
        for t in (lt.asarray(n.copy()), lt.asarray(n.copy())[::-1][::-1]):
            def numpy_write() -> Any:
                m = n.copy()
                m[idx] = val
                return m

            def lazy_write() -> Any:
                t[idx] = val
                return t
            check(numpy_write, lazy_write)


@pytest.mark.parametrize("dtype", ["int64", "uint64", "int8"])
def test_huge_python_int_in_a_fused_kernel(any_engine: Any, dtype: str) -> None:
    x = np.arange(1, 4, dtype=dtype)
    for s in (2 ** 64, 2 ** 63):
        check(lambda: x / s, lambda: lt.asarray(x) / s)
        check(lambda: s / x, lambda: s / lt.asarray(x))
        check(lambda: (x / s) * 2.0 + 1, lambda: (lt.asarray(x) / s) * 2.0 + 1)
        # comparisons with out-of-range Python ints are defined (NEP 50)
        check(lambda: x == s, lambda: lt.asarray(x) == s)
        check(lambda: x < -s, lambda: lt.asarray(x) < -s)
        check(lambda: s >= x, lambda: s >= lt.asarray(x))


def test_comparison_with_none_and_strings(engine: Any) -> None:
    """NumPy compares elementwise as objects: nothing is equal to None or 'a'."""
    x = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(x)
    for other in (None, "a"):
        check(lambda: x == other, lambda: _is_tensor(t == other))
        check(lambda: x != other, lambda: _is_tensor(t != other))
    check(lambda: x + "a", lambda: t + "a")   # arithmetic with a string: TypeError


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float16", "float32", "float64",
                                   "bool", "int8"])
def test_power_operator_is_ndarrays_to_the_bit(any_engine: Any, dtype: str) -> None:
    """``a ** 2``, ``a ** -1`` (Python ints) and ``a ** 0.5`` (a Python float)
    are NumPy's square, reciprocal and sqrt, which differ from ``np.power``
    on complex numbers; ``np.power``/``lt.pow`` and other exponents stay
    ``power``.  ``**=`` is the operator too."""
    rng = np.random.default_rng(21)
    a = (rng.standard_normal(64) * 3).astype(dtype)
    if a.dtype.kind == "c":
        a = a + 1j * rng.standard_normal(64).astype(dtype)
    if a.dtype.kind in "fc":
        a[:6] = [-4, 0, 1, -np.inf, -0.0, np.nan]
    t = lt.asarray(a)
    with np.errstate(all="ignore"):
        for k in (0.5, 2, -1, 2.0, -1.0, 3, np.float64(0.5), True):
            if a.dtype.kind in "biu" and k == -1:
                continue                     # (integers to negative powers: an error)
            same_bits((t ** k).eval(), a ** k)
            same_bits(lt.pow(t, k).eval(), np.power(a, k))
            n, u = a.copy(), lt.asarray(a.copy())
            try:
                n **= k
            except TypeError:                # (a result that does not cast back)
                with pytest.raises(TypeError):
                    u **= k
                continue
            u **= k
            same_bits(u.eval(), n)


def test_functions_of_python_scalars_and_arrays_keep_the_scalars_weak(engine: Any) -> None:
    """With no tensor among its operands, lt.f makes the first operand that
    is not a Python scalar one, so Python scalars stay weak (NEP 50)."""
    i8, f32 = np.array([2, 100], np.int8), np.ones(2, np.float32)
    for name, args in (("add", (1, i8)), ("add", (100, i8)), ("multiply", (2.5, f32)),
                       ("add", (1.0, np.float16(2))), ("multiply", (1j, np.float32(2))),
                       ("add", (200, np.int8(3))),                # OverflowError
                       ("add", (1, 2)), ("add", ([1, 2], 3.5))):
        check(lambda: getattr(np, name)(*args), lambda: getattr(lt, name)(*args))
    # np.real(1) is the Python number itself: weak in what follows
    i16 = np.array([1, 2], np.int16)
    for fn in ("real", "imag"):
        assert type(getattr(lt, fn)(100)) is int
        check(lambda: i16 | getattr(np, fn)(100), lambda: lt.asarray(i16) | getattr(lt, fn)(100))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_products_are_numpys_bits(any_engine: Any, dtype: str) -> None:
    """numexpr's complex product differs from NumPy's in the last bit (44%
    of random complex128 products): a kernel with one runs NumPy's loops."""
    rng = np.random.default_rng(22)
    a, b = (rng.standard_normal((2, 3000)) + 1j * rng.standard_normal((2, 3000))).astype(dtype)
    ta, tb = lt.asarray(a), lt.asarray(b)
    same_bits((ta * tb + ta).eval(), a * b + a)
    same_bits(lt.square(ta - tb).eval(), np.square(a - b))


def test_complex_division_by_zero(any_engine: Any) -> None:
    x = np.array([1 + 2j, -1 - 1j, 0j], np.complex128)
    for s in (0, 0.0, -0.0, 0j):
        check(lambda: x / s, lambda: lt.asarray(x) / s)
    z = np.zeros(3, np.complex128)
    check(lambda: x / z, lambda: lt.asarray(x) / lt.asarray(z))


# Integer wrap-around is NumPy's (C) arithmetic in every engine: numexpr would
# widen int8/uint8/uint32 and must not be used where that changes the result.
WRAP_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


@pytest.mark.parametrize("dtype", WRAP_DTYPES)
def test_integer_wraparound(any_engine: Any, dtype: str) -> None:
    info = np.iinfo(dtype)
    x = np.array([info.min, info.max, info.max - 1, 0, 1, info.min + 1], dtype)
    y = np.array([info.max, info.max, 2, info.min, info.max, 3], dtype)
    tx, ty = lt.asarray(x), lt.asarray(y)
    for fn in (lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b,
               lambda a, b: (a * b + a) * 3 - b, lambda a, b: -a, lambda a, b: abs(a),
               lambda a, b: a + 1, lambda a, b: a * 2, lambda a, b: a << 3, lambda a, b: ~a,
               lambda a, b: (a + b) // 7, lambda a, b: (a - b) % 5, lambda a, b: a ** 3,
               lambda a, b: (a + b).sum(), lambda a, b: (a * b).cumsum()):
        check(lambda: fn(x, y), lambda: fn(tx, ty))


def test_type_checkers_see_every_generated_function_with_its_operands() -> None:
    # The elementwise functions are generated from the registry; functions.py
    # declares them for type checkers under TYPE_CHECKING.  That list must be
    # exactly ELEMENTWISE's names, each with its op's number of operands.
    import ast
    from pathlib import Path

    import lazyten.functions as F
    tree = ast.parse(Path(F.__file__).read_text())
    block = [n for n in tree.body if isinstance(n, ast.If)
             and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING"]
    assert len(block) == 1
    declared = {d.name: len(d.args.posonlyargs) for d in block[0].body
                if isinstance(d, ast.FunctionDef)}
    arity = {}
    for spec in REGISTRY.values():
        for name in (spec.name, *spec.aliases):
            if name in ELEMENTWISE:
                arity[name] = spec.arity or 1
    assert declared == arity and set(arity) == set(ELEMENTWISE)


@pytest.mark.parametrize("call", [
    lambda m: m.add(2**63, 1), lambda m: m.add(2**63, 2**63),
    lambda m: m.bitwise_and(2**64 - 1, 1),
    lambda m: m.equal(2**63, True), lambda m: m.add(True, 2**63), lambda m: m.ldexp(1.0, 2**40),
    lambda m: m.ldexp(3, -2**63), lambda m: m.add(-2**63, 1), lambda m: m.multiply(1, 2.5j),
    lambda m: m.left_shift(1, 70), lambda m: m.power(2, -1), lambda m: m.add(1, 2.5),
    lambda m: m.divide(True, 2), lambda m: m.maximum(2**62, 1.0), lambda m: m.negative(2**63),
    lambda m: m.add(m.add(1, 2), np.int8(1)), lambda m: m.subtract(1, np.float32(2.5)),
], ids=lambda c: "")
def test_python_scalar_operands_only(engine: Any, call: Any) -> None:
    """A call of Python scalars only: NumPy converts each to its default
    dtype (int64, float64, complex128, bool), none weak, so an int past
    int64's range is its OverflowError (lazyten's uint64 before) and
    ``ldexp(1.0, 2**40)`` takes the int64 exponent loop (lazyten's weak int
    aimed at int32's and overflowed).  One operand alone is NumPy's array
    of it (``negative(2**63)`` is uint64), and a NumPy scalar stays strong."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = call(np)
        except Exception as e:  # noqa: BLE001 - NumPy's error, mirrored
            with pytest.raises(type(e)):
                # (a value's error, ``power(2, -1)``'s: when it runs, as for
                # NumPy scalars)
                call(lt).eval()
            return
        check(lambda: want, lambda: call(lt))
