"""Differential graph fuzzer: random expression DAGs, lazyten against plain NumPy.

Hypothesis draws a small *program*: a pool of input arrays (every dtype lazyten
supports, 0-d and empty shapes, NaN/inf, negative-stride and non-contiguous
layouts, now and then a big one so blocked kernels run) and a list of
instructions (elementwise ops with broadcasting and Python/NumPy scalars, Python
operators, in-place operators, views, reductions, cumulative sums, matmul,
concat, ``where``, ``astype``, creation ops).  An interpreter applies each instruction twice: to lazyten tensors
(building a graph, nothing computed) and to NumPy arrays (eagerly).  Operands
are drawn from everything built so far, so subexpressions are shared.

Each graph is evaluated (``lt.compute`` of its sinks, so nothing is cached)
under every combination of ``optimize`` on/off and backend
numpy/numexpr/auto, then once more after caching an intermediate with
``.eval()``, and compared with NumPy:

- same dtype and shape (and equal to the inferred ones);
- integers and bools exactly;
- floats within an *uncertainty* ``u`` tracked per element alongside the NumPy
  value: 0 for inputs; an op adds a few ulps of its result (IEEE ops 4 eps,
  transcendental functions and complex arithmetic 16 eps, reductions
  ``n * eps * sum|x|``, matmul ``k * eps * |a| @ |b|``), and input uncertainty is
  pushed through each op by evaluating it at ``x +- u`` (so cancellation,
  comparisons near ties and casts near integer boundaries widen ``u`` instead
  of failing); ``u = inf`` marks "either answer is right" (a comparison whose
  inputs may be on either side, a value past an overflow boundary);
- NaN where NumPy has NaN and the same infinity, wherever ``u`` is finite.

A build that NumPy rejects (a Python int out of range for the dtype, an
invalid ufunc loop, bad shapes) must be rejected by lazyten too, and an
instruction whose NumPy evaluation raises is dropped from the program after
checking lazyten raises as well (at build time, or for value-dependent errors
such as integer negative powers, at evaluation time).  ``verify_graph`` runs on
every graph.

Profiles: the default (CI) runs 1,500 graphs, about a minute;
``LAZYTEN_LONG=1`` runs 100,000 (see ``benchmarks/fuzz_long.py``).  A failure
message contains the program as runnable code.
"""

from __future__ import annotations

import json
import math
import operator
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazyten as lt
from lazyten.graph.verify import verify_graph

LONG = bool(os.environ.get("LAZYTEN_LONG"))
# LAZYTEN_FUZZ_EXAMPLES overrides both profiles' counts (benchmarks/fuzz_long.py uses it).
N_EXAMPLES = int(os.environ.get("LAZYTEN_FUZZ_EXAMPLES") or (100_000 if LONG else 1500))
MAX_STEPS = 14 if LONG else 10

DTYPES = [np.dtype(d) for d in (np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64,
                                np.float16, np.float32, np.float64, np.complex64,
                                np.complex128)]
# LAZYTEN_FUZZ_OPTIMIZE=0 leaves the optimizer out (to debug the fuzzer itself).
_OPT = (False,) if os.environ.get("LAZYTEN_FUZZ_OPTIMIZE") == "0" else (False, True)
COMBOS = [{"optimize": o, "backend": b} for o in _OPT for b in ("numpy", "numexpr", "auto")]
# LAZYTEN_FUZZ_LOOPS=1 adds compiled loops wherever exact (backend="loop"): each
# new kernel compiles (a fraction of a second), so only on request.
if os.environ.get("LAZYTEN_FUZZ_LOOPS") == "1":
    COMBOS.append({"optimize": True, "backend": "loop"})
F64 = np.dtype(np.float64)
INF = math.inf
MAX_ELEMS = 400_000   # larger results are dropped (a big input @ its transpose)
BIG = 40_000      # elements in a "big" input: above the cost model's block size (16,384)

# Rounding slack, in eps of the result dtype, per op class.
K_EXACT = 4       # correctly rounded IEEE ops (+ - * / sqrt, casts): a few ulps
K_TRANS = 16      # libm / SIMD / numexpr transcendental functions, complex * / etc.

# ------------------------------------------------------------------ statistics

_STATS = {"graphs": 0, "instructions": 0, "evaluations": 0, "dropped": 0}


def _write_stats() -> None:
    path = os.environ.get("LAZYTEN_FUZZ_STATS")
    if path:
        with open(path, "w") as f:
            json.dump(_STATS, f)


@contextmanager
def quiet() -> Iterator[None]:
    """NumPy floating-point warnings and ComplexWarning off, on both sides."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# ------------------------------------------------------------------ values


@dataclass
class Val:
    lazy: lt.Tensor
    ref: np.ndarray[Any, Any]
    unc: np.ndarray[Any, Any]      # float64, ref.shape: 0 exact ... inf don't care
    name: str
    used: bool = False


@dataclass
class Program:
    vals: list[Val] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def add(self, lazy: lt.Tensor, ref: Any, unc: np.ndarray[Any, Any], expr: str) -> Val:
        name = f"v{len(self.vals)}"
        ref = np.asarray(ref)
        v = Val(lazy, ref, _fix_unc(unc, ref), name)
        self.vals.append(v)
        self.lines.append(f"{name} = {expr}")
        return v

    def code(self) -> str:
        head = ["import numpy as np, lazyten as lt", "nan, inf = np.nan, np.inf"]
        return "\n".join(head + self.lines)


def _fix_unc(unc: Any, ref: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    u = np.broadcast_to(np.asarray(unc, dtype=F64), ref.shape).copy()
    u[np.isnan(u)] = INF
    if ref.dtype.kind in "biu":   # an integer is either right or "don't care"
        u = np.where(u > 0, INF, 0.0)
    return u


def _eps(dt: np.dtype[Any]) -> float:
    return float(np.finfo(dt).eps) if dt.kind in "fc" else 0.0


def _tiny(dt: np.dtype[Any]) -> float:
    return float(np.finfo(dt).smallest_normal) if dt.kind in "fc" else 0.0


def _mag(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """|x| as float64 (complex modulus; bools and ints as numbers)."""
    return np.abs(np.asarray(x).astype(np.complex128 if x.dtype.kind == "c" else F64))


def _isnan(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.isnan(x) if x.dtype.kind in "fc" else np.zeros(x.shape, bool)


def _dist(got: np.ndarray[Any, Any], exp: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Elementwise distance: 0 where equal (incl. equal infinities, both NaN), inf where
    exactly one is NaN or they are different infinities."""
    if exp.dtype.kind in "biu" and got.dtype.kind in "biu":
        return np.where(got == exp, 0.0, INF)
    if "c" in (got.dtype.kind, exp.dtype.kind):
        # Componentwise: (-2.34 - inf j) vs (-2.3400002 - inf j) differ by an ulp of
        # the real part, not by |inf - inf| = nan.
        # Any NaN component makes a complex NaN (np.isnan); which one is kept
        # when both operands are NaN (maximum, where) is not NumPy semantics.
        g, e = got.astype(np.complex128), exp.astype(np.complex128)
        d = np.hypot(_dist(g.real, e.real), _dist(g.imag, e.imag))
        return np.where(np.isnan(g) & np.isnan(e), 0.0, d)
    g, e = got.astype(F64), exp.astype(F64)
    d = np.asarray(np.abs(g - e), dtype=F64)
    d = np.where(np.isnan(d), INF, d)
    return np.where((g == e) | (np.isnan(g) & np.isnan(e)), 0.0, d)


def _slack(center: np.ndarray[Any, Any], k: float) -> np.ndarray[Any, Any]:
    """``k`` ulps of the result where it is finite (non-finite results are exact)."""
    dt = center.dtype
    if dt.kind not in "fc":
        return np.zeros(center.shape)
    m = _mag(center)
    s = k * _eps(dt) * m + k * _tiny(dt)
    return np.where(np.isfinite(m), s, 0.0)


# ------------------------------------------------------------------ uncertainty propagation

EXACT_UNARY = {"negative", "positive", "abs", "floor", "ceil", "trunc", "rint", "sign", "square",
               "reciprocal", "conj", "isnan", "isinf", "isfinite", "logical_not",
               "bitwise_invert", "signbit", "real", "imag", "sqrt"}
EXACT_BINARY = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "maximum",
                "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal",
                "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
                "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
                "copysign", "nextafter", "fmod", "heaviside", "where", "astype"}
# With complex operands these stay exact (componentwise or a pure selection).
COMPLEX_EXACT = {"negative", "positive", "conj", "real", "imag", "isnan", "isinf", "isfinite",
                 "logical_not", "add", "subtract", "equal", "not_equal", "logical_and",
                 "logical_or", "logical_xor", "where", "astype", "maximum", "minimum", "fmax",
                 "fmin", "less", "less_equal", "greater", "greater_equal"}
COMPARISONS = {"equal", "not_equal"}
SAWTOOTH = {"fmod", "remainder"}   # discontinuous with slopes between the jumps


def _perturbed(a: np.ndarray[Any, Any], u: np.ndarray[Any, Any]) -> list[np.ndarray[Any, Any]]:
    dirs: list[complex] = [1, -1] + ([1j, -1j] if a.dtype.kind == "c" else [])
    out = []
    for d in dirs:
        p = a + d * u if d.imag == 0 else a + np.where(u > 0, d * u, 0)
        out.append(np.asarray(p).astype(a.dtype))
    return out


def ew_unc(name: str, fn: Callable[..., Any], args: Sequence[Any], uncs: Sequence[Any],
           center: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Uncertainty of an elementwise result (see the module docstring)."""
    shape = center.shape
    u = np.zeros(shape)
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    has_complex = any(a.dtype.kind == "c" for a in arrays) or center.dtype.kind == "c"
    exact = name in (EXACT_UNARY | EXACT_BINARY)
    if has_complex and name not in COMPLEX_EXACT:
        exact = False
    if name in COMPARISONS:
        # equal/not_equal can flip wherever |x - y| <= ux + uy.
        x, y = args
        ux, uy = (np.broadcast_to(np.asarray(q if q is not None else 0.0), shape) for q in uncs)
        close = _dist(np.asarray(x), np.asarray(y)) <= ux + uy
        return np.where(close & ((ux > 0) | (uy > 0)), INF, 0.0)
    for i, (a, ua) in enumerate(zip(args, uncs)):
        if ua is None or not isinstance(a, np.ndarray) or not np.any(ua > 0):
            continue
        if a.dtype.kind in "biu":
            u = u + np.broadcast_to(np.where(ua > 0, INF, 0.0), shape)
            continue
        worst = np.zeros(shape)
        for p in _perturbed(a, ua):
            alt = list(args)
            alt[i] = p
            c2 = np.asarray(fn(*alt))
            d = _dist(c2, center) if c2.dtype == center.dtype else np.full(shape, INF)
            if name in SAWTOOTH:
                # A jump inside [x - u, x + u] can put the true value anywhere in
                # the tooth: the corners alone underestimate it.
                d = np.where(d > 0, d + _mag(center) + _mag(c2), 0.0)
            worst = np.maximum(worst, d)
        u = u + worst
    if center.dtype.kind in "fc":
        u = u + _slack(center, K_EXACT if exact else K_TRANS)
        if not exact:
            u = np.maximum(u, _overflow_edge(fn, args, center))
            if has_complex:
                # C99 Annex G corner cases (inf * finite, inf / inf) differ between
                # NumPy and other complex kernels: non-finite complex results are
                # "don't care".
                u = np.where(np.isfinite(_mag(center)), u, INF)
    return u


def _overflow_edge(fn: Callable[..., Any], args: Sequence[Any],
                   center: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """inf where a transcendental result is at an overflow/domain edge: scaling float
    inputs by (1 +- 64 eps) changes whether the result is finite."""
    out = np.zeros(center.shape)
    fin = np.isfinite(_mag(center))
    for s in (1.0, -1.0):
        alt = []
        for a in args:
            if isinstance(a, np.ndarray) and a.dtype.kind in "fc":
                alt.append((a * (1 + s * 64 * _eps(a.dtype))).astype(a.dtype))
            else:
                alt.append(a)
        c2 = np.asarray(fn(*alt))
        if c2.shape == center.shape:
            out = np.where(np.isfinite(_mag(c2)) != fin, INF, out)
    return out


def _truth_uncertain(x: np.ndarray[Any, Any], u: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Where ``bool(x)`` may differ between engines."""
    if x.dtype.kind in "biu":
        return u > 0
    return (u > 0) & (_mag(x) <= u)


def red_unc(name: str, x: np.ndarray[Any, Any], ux: np.ndarray[Any, Any], axis: Any,
            keepdims: bool, ddof: int, center: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    axes = tuple(range(x.ndim)) if axis is None else (
        tuple(a % x.ndim for a in axis) if isinstance(axis, tuple) else (axis % x.ndim,))
    n = math.prod(x.shape[a] for a in axes)

    def red(f: Callable[..., Any], v: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.asarray(f(v, axis=axes, keepdims=keepdims))

    if name in ("any", "all"):
        return np.where(red(np.any, _truth_uncertain(x, ux)), INF, 0.0)
    if name in ("argmin", "argmax"):
        ax = None if axis is None else axis
        flag = ux > 0
        if ax is None:
            r = np.any(flag, keepdims=keepdims)
            return np.where(r, INF, 0.0) if not keepdims else np.where(r, INF, 0.0).reshape(
                (1,) * x.ndim)
        return np.where(np.any(flag, axis=ax, keepdims=keepdims), INF, 0.0)
    if name in ("min", "max"):
        return red(np.max, ux) if n else np.zeros(center.shape)
    dt = center.dtype
    eps = _eps(dt) if dt.kind in "fc" else 0.0
    m = _mag(x)
    mf = np.where(np.isfinite(m), m, 0.0)
    if name in ("sum", "mean"):
        u = red(np.sum, ux) + K_EXACT * (n + 1) * eps * red(np.sum, mf) + K_EXACT * _tiny(dt)
        if name == "mean":
            u = u / max(n, 1) + _slack(center, K_EXACT)
        return u
    if name == "prod":
        rel = np.where(ux == 0, 0.0, ux / np.where(m == 0, 1e-300, m))
        return _mag(center) * (red(np.sum, rel) + K_EXACT * (n + 1) * eps) + K_EXACT * _tiny(dt)
    if name in ("var", "std"):
        mean = np.mean(x.astype(np.complex128 if x.dtype.kind == "c" else F64), axis=axes,
                       keepdims=True)
        dev = np.abs(x - mean)
        dev = np.where(np.isfinite(dev), dev, 0.0)
        denom = max(n - ddof, 1)
        uvar = (2 * red(np.sum, dev * ux) + red(np.sum, ux) ** 2 / max(n, 1)) / denom
        scale = red(np.sum, (dev + np.abs(np.where(np.isfinite(mean), mean, 0))) ** 2) / denom
        uvar = uvar + K_TRANS * (n + 1) * eps * scale + K_EXACT * _tiny(dt)
        if name == "var":
            return uvar
        return np.sqrt(uvar) + _slack(center, K_EXACT)
    raise AssertionError(name)


def cumsum_unc(x: np.ndarray[Any, Any], ux: np.ndarray[Any, Any], axis: int,
               center: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    dt = center.dtype
    if dt.kind in "biu":
        return np.cumulative_sum(ux, axis=axis)
    m = _mag(x)
    m = np.where(np.isfinite(m), m, 0.0)
    n = x.shape[axis]
    return (np.cumulative_sum(ux, axis=axis)
            + K_EXACT * (n + 1) * _eps(dt) * np.cumulative_sum(m, axis=axis)
            + K_EXACT * _tiny(dt))


def matmul_unc(a: np.ndarray[Any, Any], ua: np.ndarray[Any, Any], b: np.ndarray[Any, Any],
               ub: np.ndarray[Any, Any], center: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    A, B = _mag(a), _mag(b)
    k = a.shape[-1]
    if center.dtype.kind in "biu":
        hit = (np.matmul((ua > 0).astype(F64), np.ones_like(B))
               + np.matmul(np.ones_like(A), (ub > 0).astype(F64)))
        return np.where(hit > 0, INF, 0.0)
    eps = _eps(center.dtype)
    with quiet():
        u = (np.matmul(A, ub) + np.matmul(ua, B) + np.matmul(ua, ub)
             + K_TRANS * (k + 1) * eps * np.matmul(A, B) + K_TRANS * _tiny(center.dtype))
    # inf * 0 and inf - inf in a different summation order (BLAS blocking,
    # matrix-chain reordering) change which non-finite value comes out.
    return np.where(np.isfinite(u), u, INF)


# ------------------------------------------------------------------ strategies

def _elements(dt: np.dtype[Any]) -> st.SearchStrategy[Any]:
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        small = st.integers(max(info.min, -4), min(info.max, 6))
        return st.one_of(small, small, st.integers(int(info.min), int(info.max)),
                         st.sampled_from([int(info.min), int(info.max)]))
    width: Literal[16, 32, 64] = {2: 16, 4: 32, 8: 64, 16: 64}[dt.itemsize] \
        if dt.kind == "f" else (32 if dt == np.complex64 else 64)  # type: ignore[assignment]
    lim = 60000.0 if width == 16 else 1e6
    fl = st.one_of(st.floats(-4, 4, width=width), st.floats(-lim, lim, width=width),
                   st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0, 0.5, 1.0]))
    if dt.kind == "f":
        return fl
    return st.builds(complex, fl, fl)


@st.composite
def input_arrays(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], str]:
    """An array with a random layout, and the code that makes it."""
    dt = draw(st.sampled_from(DTYPES))
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.sampled_from([0, 1, 1, 2, 3, 4]), min_size=ndim,
                                max_size=ndim)))
    layout = draw(st.sampled_from(["c", "c", "flip", "step", "fortran", "T"]))
    if ndim == 0:
        layout = "c"
    if layout in ("flip", "step"):
        steps = [draw(st.sampled_from([1, -1, 2, -2])) if layout == "step" else -1
                 for _ in shape]
        base_shape = tuple(d * abs(s) for d, s in zip(shape, steps))
        idx = tuple(slice(None, None, s) for s in steps)
        idx_code = "[" + ", ".join(f"::{s}" for s in steps) + "]"
    elif layout == "T":
        base_shape = shape[::-1]
        idx_code = ".T"
    else:
        base_shape = shape
        idx_code = ""
    base = draw(hnp.arrays(dt, base_shape, elements=_elements(dt)))
    if layout == "fortran":
        arr = np.asfortranarray(base)
        code = f"np.asfortranarray({_array_code(base)})"
    elif layout == "T":
        arr = base.T
        code = f"{_array_code(base)}.T"
    elif layout in ("flip", "step"):
        arr = base[idx]
        code = f"{_array_code(base)}{idx_code}"
    else:
        arr = base
        code = _array_code(base)
    if arr.ndim and arr.size and draw(st.integers(0, 9)) == 0:
        # Now and then a big input (tiled along axis 0), so the optimizer's
        # blocked, threaded kernels and block-combined reductions run too.
        reps = -(-BIG // arr.size)
        arr = np.tile(arr, (reps,) + (1,) * (arr.ndim - 1))
        code = f"np.tile({code}, ({reps},) + (1,) * {arr.ndim - 1})"
    return arr, code


def _lit(x: Any) -> str:
    if isinstance(x, list):
        return "[" + ", ".join(_lit(v) for v in x) + "]"
    if isinstance(x, complex):
        return f"complex({_lit(x.real)}, {_lit(x.imag)})"
    if isinstance(x, float):
        return "nan" if math.isnan(x) else repr(x)
    return repr(x)


def _array_code(a: np.ndarray[Any, Any]) -> str:
    if a.size == 0:
        return f"np.zeros({a.shape}, dtype=np.{a.dtype.name})"
    return f"np.array({_lit(a.tolist())}, dtype=np.{a.dtype.name})"


def scalars() -> st.SearchStrategy[tuple[Any, str]]:
    """Python scalars (weak under NEP 50) and NumPy scalars (strong)."""
    py = st.one_of(
        st.booleans(), st.integers(-3, 5), st.sampled_from([127, 255, 300, -129, 2**40, 2**64]),
        st.sampled_from([0.5, -1.5, 2.0, 1e-3, 1e30, math.nan, math.inf]),
        st.sampled_from([1j, 2 - 0.5j]))
    npy = st.builds(lambda dt, v: np.asarray(v).astype(dt)[()],
                    st.sampled_from([np.int8, np.uint8, np.int32, np.float16, np.float32,
                                     np.float64, np.complex64]),
                    st.sampled_from([0, 1, 2, 3]))

    def code(v: Any) -> str:
        if isinstance(v, np.generic):
            return f"np.{v.dtype.name}({v.item()!r})"
        if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
            return "float('nan')" if math.isnan(v) else "float('inf')"
        r = repr(v)
        return f"({r})" if r.startswith("-") else r   # -1 ** x is -(1 ** x)

    return st.one_of(py, py, npy).map(lambda v: (v, code(v)))


# ------------------------------------------------------------------ instructions

UNARY = ["negative", "positive", "abs", "sqrt", "exp", "log", "log1p", "expm1", "sin", "cos",
         "tanh", "arctan", "floor", "ceil", "trunc", "rint", "sign", "square", "reciprocal",
         "conj", "isnan", "isinf", "isfinite", "logical_not", "bitwise_invert", "signbit",
         "exp2", "log2", "log10", "cbrt", "sinh", "arcsin", "arcsinh", "real", "imag"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow",
          "maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal",
          "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "arctan2", "hypot",
          "copysign", "nextafter", "logaddexp", "fmod", "heaviside"]
OPERATORS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//",
             "remainder": "%", "pow": "**", "bitwise_and": "&", "bitwise_or": "|",
             "bitwise_xor": "^", "left_shift": "<<", "right_shift": ">>", "less": "<",
             "less_equal": "<=", "greater": ">", "greater_equal": ">=", "equal": "==",
             "not_equal": "!="}
NP_NAME = {"pow": "power"}
REDUCTIONS = ["sum", "prod", "mean", "min", "max", "any", "all", "argmin", "argmax", "var",
              "std"]


class Rejected(Exception):
    """NumPy raised: the instruction is dropped (after checking lazyten raises too)."""


def _np(name: str) -> Callable[..., Any]:
    return getattr(np, NP_NAME.get(name, name))


def _shape_ok(*shapes: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(*shapes)
        return True
    except ValueError:
        return False


Draw = Callable[..., Any]   # data.draw / a composite's draw


class Interp:
    def __init__(self, draw: Draw, prog: Program) -> None:
        self.draw = draw
        self.prog = prog

    # -- helpers
    def pick(self, pred: Callable[[Val], bool] | None = None) -> Val:
        vals = self.prog.vals
        cands = [v for v in vals if pred is None or pred(v)] if pred else vals
        if not cands:
            cands = vals
        # Favor recent values (deep chains) but reuse old ones (shared subexpressions).
        i = self.draw(st.integers(0, len(cands) - 1))
        j = self.draw(st.integers(max(0, len(cands) - 3), len(cands) - 1))
        v = cands[self.draw(st.sampled_from([i, j]))]
        v.used = True
        return v

    def operand(self, like: Val) -> tuple[Any, Any, Any, str]:
        """(lazy, ref, unc, code): a value that broadcasts with ``like``, or a scalar."""
        kind = self.draw(st.sampled_from(["val", "val", "val", "scalar"]))
        if kind == "scalar":
            s, code = self.draw(scalars())
            return s, s, None, code
        fit = self.draw(st.integers(0, 3)) > 0   # mostly operands that broadcast
        v = self.pick((lambda w: _shape_ok(w.ref.shape, like.ref.shape)) if fit else None)
        return v.lazy, v.ref, v.unc, v.name

    def run(self, lazy_fn: Callable[[], lt.Tensor], ref_fn: Callable[[], Any],
            code: str) -> tuple[lt.Tensor, np.ndarray[Any, Any]]:
        """Apply an instruction to both sides; NumPy's error means lazyten must raise.

        lazyten builds first (nothing is computed), so an instruction whose result
        would be huge (``big @ big.mT``) is dropped before NumPy allocates it.
        """
        lazy: lt.Tensor | None = None
        lazy_err: BaseException | None = None
        try:
            with quiet():
                lazy = lazy_fn()
        except Exception as e:  # noqa: BLE001 - judged against NumPy below
            lazy_err = e
        if lazy is not None and lazy.size > MAX_ELEMS:
            raise Rejected(f"{code}: {lazy.size} elements")
        with quiet():
            try:
                ref = np.asarray(ref_fn())
            except Exception as np_err:  # noqa: BLE001 - NumPy rejected the instruction
                if lazy is not None:
                    self._expect_eval_error(lazy, code, np_err)
                raise Rejected(code) from None
        if lazy_err is not None or lazy is None:
            raise AssertionError(
                f"lazyten rejected what NumPy accepts: {code}\n{type(lazy_err).__name__}: "
                f"{lazy_err}\n--- program so far ---\n{self.prog.code()}") from lazy_err
        assert isinstance(lazy, lt.Tensor), code
        assert lazy.shape == ref.shape, (f"{code}: inferred shape {lazy.shape}, NumPy "
                                         f"{ref.shape}\n{self.prog.code()}")
        assert lazy.dtype == ref.dtype, (f"{code}: inferred dtype {lazy.dtype}, NumPy "
                                         f"{ref.dtype}\n{self.prog.code()}")
        return lazy, ref

    def _expect_eval_error(self, t: lt.Tensor, code: str, np_err: BaseException) -> None:
        """lazyten built what NumPy rejected: only a value-dependent NumPy error (an
        integer to a negative power) may do that, and it must then show up at
        evaluation time, under every engine."""
        for combo in COMBOS:
            with lt.set_options(**combo), quiet():
                try:
                    lt.compute(t)
                except Exception:  # noqa: BLE001
                    continue
            raise AssertionError(
                f"NumPy raises {type(np_err).__name__}: {np_err}\nbut lazyten builds and "
                f"evaluates (options {combo}): {code}\n{self.prog.code()}")

    # -- instructions
    def step(self) -> None:
        kind = self.draw(st.sampled_from(
            ["unary", "binary", "binary", "binary", "where", "astype", "view", "view", "view",
             "reduce", "reduce", "matmul", "cumsum", "concat", "inplace", "create"]))
        try:
            getattr(self, "i_" + kind)()
        except Rejected:
            _STATS["dropped"] += 1

    def i_unary(self) -> None:
        name = self.draw(st.sampled_from(UNARY))
        v = self.pick()
        fn = _np(name)
        use_op = name in ("negative", "positive", "abs", "bitwise_invert") and \
            self.draw(st.booleans())
        sym = {"negative": "-", "positive": "+", "abs": "abs", "bitwise_invert": "~"}.get(name)
        if use_op:
            lf: Callable[[], lt.Tensor] = {
                "negative": lambda: -v.lazy, "positive": lambda: +v.lazy,
                "abs": lambda: abs(v.lazy), "bitwise_invert": lambda: ~v.lazy}[name]
            code = f"abs({v.name})" if name == "abs" else f"{sym}{v.name}"
        else:
            lf = lambda: getattr(lt, name)(v.lazy)  # noqa: E731
            code = f"lt.{name}({v.name})"
        lazy, ref = self.run(lf, lambda: fn(v.ref), code)
        with quiet():
            u = ew_unc(name, fn, [v.ref], [v.unc], ref)
        self.prog.add(lazy, ref, u, code)

    def i_binary(self) -> None:
        name = self.draw(st.sampled_from(BINARY))
        a = self.pick()
        b_lazy, b_ref, b_unc, b_code = self.operand(a)
        if self.draw(st.booleans()):
            args_l, args_r, uncs, codes = [a.lazy, b_lazy], [a.ref, b_ref], [a.unc, b_unc], \
                [a.name, b_code]
        else:
            args_l, args_r, uncs, codes = [b_lazy, a.lazy], [b_ref, a.ref], [b_unc, a.unc], \
                [b_code, a.name]
        fn = _np(name)
        sym = OPERATORS.get(name)
        # Python operators too: reflected ones when a scalar is on the left
        # (a NumPy scalar on the left reaches Tensor.__array_ufunc__).
        if sym is not None and self.draw(st.booleans()):
            op = {"+": operator.add, "-": operator.sub, "*": operator.mul,
                  "/": operator.truediv, "//": operator.floordiv, "%": operator.mod,
                  "**": operator.pow, "&": operator.and_, "|": operator.or_,
                  "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
                  "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
                  "==": operator.eq, "!=": operator.ne}[sym]
            lf: Callable[[], lt.Tensor] = lambda: op(args_l[0], args_l[1])  # noqa: E731
            # NumPy's operator, not its ufunc: ``b ** 2`` of a bool array is
            # ``np.square``'s int8 where ``np.power(b, 2)`` is int64
            rf: Callable[[], Any] = lambda: op(args_r[0], args_r[1])  # noqa: E731
            code = f"({codes[0]} {sym} {codes[1]})"
        else:
            lf = lambda: getattr(lt, name)(args_l[0], args_l[1])  # noqa: E731
            rf = lambda: fn(args_r[0], args_r[1])  # noqa: E731
            code = f"lt.{name}({codes[0]}, {codes[1]})"
        lazy, ref = self.run(lf, rf, code)
        with quiet():
            u = ew_unc(name, fn, [np.asarray(x) if isinstance(x, np.ndarray) else x
                                  for x in args_r], uncs, ref)
        self.prog.add(lazy, ref, u, code)

    def i_where(self) -> None:
        c = self.pick()
        x_l, x_r, x_u, x_c = self.operand(c)
        y_l, y_r, y_u, y_c = self.operand(c)
        code = f"lt.where({c.name}, {x_c}, {y_c})"
        lazy, ref = self.run(lambda: lt.where(c.lazy, x_l, y_l),
                             lambda: np.where(c.ref, x_r, y_r), code)
        with quiet():
            shape = ref.shape
            ux = np.broadcast_to(0.0 if x_u is None else x_u, shape)
            uy = np.broadcast_to(0.0 if y_u is None else y_u, shape)
            cond = np.broadcast_to(np.asarray(c.ref).astype(bool), shape)
            u = np.where(cond, ux, uy)
            unsure = np.broadcast_to(_truth_uncertain(c.ref, c.unc), shape)
            if np.any(unsure):
                xr = np.broadcast_to(np.asarray(x_r).astype(ref.dtype), shape)
                yr = np.broadcast_to(np.asarray(y_r).astype(ref.dtype), shape)
                u = np.where(unsure, np.maximum(ux, uy) + _dist(xr, yr), u)
        self.prog.add(lazy, ref, u, code)

    def i_astype(self) -> None:
        v = self.pick()
        dt = self.draw(st.sampled_from(DTYPES))
        src = v
        if v.ref.dtype.kind in "fc" and dt.kind in "iu":
            # Casting NaN, inf or out-of-range floats to integers is undefined
            # in C (NumPy's result depends on the loop used), so clamp first,
            # as graph instructions of their own.
            if v.ref.dtype.kind == "c":
                self.prog.add(*self._simple("real", src))
                src = self.prog.vals[-1]
            lo = 0 if dt.kind == "u" else -100
            lazy, ref = self.run(lambda: lt.where((src.lazy > lo) & (src.lazy < 100), src.lazy, 0),
                                 lambda: np.where((src.ref > lo) & (src.ref < 100), src.ref, 0),
                                 f"lt.where(({src.name} > {lo}) & ({src.name} < 100), "
                                 f"{src.name}, 0)")
            with quiet():
                inside = (src.ref > lo) & (src.ref < 100)
                edge = (src.unc > 0) & ((_dist(src.ref, np.asarray(lo, src.ref.dtype)) <= src.unc)
                                        | (_dist(src.ref, np.asarray(100, src.ref.dtype))
                                           <= src.unc))
                u = np.where(edge, INF, np.where(inside, src.unc, 0.0))
            src = self.prog.add(lazy, ref, u, f"lt.where(({src.name} > {lo}) & "
                                              f"({src.name} < 100), {src.name}, 0)")
        s = src
        via_method = self.draw(st.booleans())
        code = f"{s.name}.astype(np.{dt.name})" if via_method else \
            f"lt.astype({s.name}, np.{dt.name})"
        lazy, ref = self.run((lambda: s.lazy.astype(dt)) if via_method else
                             (lambda: lt.astype(s.lazy, dt)),
                             lambda: s.ref.astype(dt), code)
        with quiet():
            u = ew_unc("astype", lambda x: np.asarray(x).astype(dt), [s.ref], [s.unc], ref)
        self.prog.add(lazy, ref, u, code)

    def _simple(self, name: str, v: Val) -> tuple[lt.Tensor, np.ndarray[Any, Any],
                                                   np.ndarray[Any, Any], str]:
        code = f"lt.{name}({v.name})"
        fn = _np(name)
        lazy, ref = self.run(lambda: getattr(lt, name)(v.lazy), lambda: fn(v.ref), code)
        with quiet():
            u = ew_unc(name, fn, [v.ref], [v.unc], ref)
        return lazy, ref, u, code

    def i_view(self) -> None:
        v = self.pick()
        shape = v.ref.shape
        nd = len(shape)
        kind = self.draw(st.sampled_from(["reshape", "transpose", "getitem", "getitem",
                                          "broadcast_to", "expand_dims", "flip", "squeeze",
                                          "take", "fancy", "fancy"]))
        d = self.draw
        if kind == "reshape":
            new = self._new_shape(shape)
            if new and d(st.booleans()):
                k = d(st.integers(0, len(new) - 1))
                if math.prod(new[:k] + new[k + 1:]) != 0:
                    new = new[:k] + (-1,) + new[k + 1:]
            code = f"{v.name}.reshape({new})"
            lf: Callable[[], lt.Tensor] = lambda: v.lazy.reshape(new)  # noqa: E731
            rf: Callable[[], Any] = lambda: np.reshape(v.ref, new)  # noqa: E731
            uf: Callable[[np.ndarray[Any, Any]], Any] = lambda u: np.reshape(u, new)  # noqa: E731
        elif kind == "transpose":
            perm = tuple(d(st.permutations(list(range(nd)))))
            if d(st.booleans()) or nd < 2:
                code = f"lt.permute_dims({v.name}, {perm})"
                lf = lambda: lt.permute_dims(v.lazy, perm)  # noqa: E731
                rf = lambda: np.transpose(v.ref, perm)  # noqa: E731
                uf = lambda u: np.transpose(u, perm)  # noqa: E731
            else:
                code = f"{v.name}.T"
                lf = lambda: v.lazy.T  # noqa: E731
                rf = lambda: v.ref.T  # noqa: E731
                uf = lambda u: u.T  # noqa: E731
        elif kind == "getitem":
            idx = self._index(shape)
            code = f"{v.name}[{_index_code(idx)}]"
            lf = lambda: v.lazy[idx]  # noqa: E731
            rf = lambda: v.ref[idx]  # noqa: E731
            uf = lambda u: u[idx]  # noqa: E731
        elif kind == "broadcast_to":
            lead = tuple(d(st.lists(st.integers(1, 3), max_size=2)))
            tgt = lead + tuple(d(st.sampled_from([0, 1, 2, 3])) if s == 1 and d(st.booleans())
                               else s for s in shape)
            code = f"lt.broadcast_to({v.name}, {tgt})"
            lf = lambda: lt.broadcast_to(v.lazy, tgt)  # noqa: E731
            rf = lambda: np.broadcast_to(v.ref, tgt)  # noqa: E731
            uf = lambda u: np.broadcast_to(u, tgt)  # noqa: E731
        elif kind == "expand_dims":
            ax = d(st.integers(-nd - 1, nd))
            code = f"lt.expand_dims({v.name}, {ax})"
            lf = lambda: lt.expand_dims(v.lazy, ax)  # noqa: E731
            rf = lambda: np.expand_dims(v.ref, ax)  # noqa: E731
            uf = lambda u: np.expand_dims(u, ax)  # noqa: E731
        elif kind == "flip":
            fax = None if nd == 0 or d(st.booleans()) else d(st.integers(-nd, nd - 1))
            code = f"lt.flip({v.name}, axis={fax})"
            lf = lambda: lt.flip(v.lazy, axis=fax)  # noqa: E731
            rf = lambda: np.flip(v.ref, axis=fax)  # noqa: E731
            uf = lambda u: np.flip(u, axis=fax)  # noqa: E731
        elif kind == "fancy" and nd > 0 and math.prod(shape):  # advanced indexing: a gather
            fidx = self._fancy_index(shape)
            code = f"{v.name}[{_index_code(fidx)}]"
            lf = lambda: v.lazy[fidx]  # noqa: E731
            rf = lambda: v.ref[fidx]  # noqa: E731
            uf = lambda u: u[fidx]  # noqa: E731
        elif kind == "take" and nd > 0:      # a gather (not a view; pushed down too)
            tax = d(st.integers(0, nd - 1))
            n_ax = shape[tax]
            picks = d(st.lists(st.integers(-n_ax, n_ax - 1), max_size=4)) if n_ax else []
            arr = np.array(picks, dtype=np.intp)
            code = f"lt.take({v.name}, np.array({picks}, dtype=np.intp), axis={tax})"
            lf = lambda: lt.take(v.lazy, arr, axis=tax)  # noqa: E731
            rf = lambda: np.take(v.ref, arr, axis=tax)  # noqa: E731
            uf = lambda u: np.take(u, arr, axis=tax)  # noqa: E731
        else:
            code = f"lt.squeeze({v.name})"
            lf = lambda: lt.squeeze(v.lazy)  # noqa: E731
            rf = lambda: np.squeeze(v.ref)  # noqa: E731
            uf = lambda u: np.squeeze(u)  # noqa: E731
        lazy, ref = self.run(lf, rf, code)
        self.prog.add(lazy, ref, uf(v.unc), code)

    def _fancy_index(self, shape: tuple[int, ...]) -> tuple[Any, ...]:
        """Integer arrays (in range, of one broadcast shape) on one or two
        axes, side by side or apart, an int or a slice on the others, maybe
        a new axis: gathers that take something, placed by NumPy's rule."""
        d = self.draw
        nd = len(shape)
        axes = sorted(d(st.lists(st.integers(0, nd - 1), min_size=1, max_size=2, unique=True)))
        m = d(st.sampled_from([(1,), (2,), (3,), (2, 1)]))
        items: list[Any] = []
        for k, n in enumerate(shape):
            if k in axes:
                shp = m if k == axes[0] else m[-1:]       # (the two broadcast together)
                items.append(np.array(d(st.lists(st.integers(-n, n - 1), min_size=math.prod(shp),
                                                 max_size=math.prod(shp))),
                                      dtype=np.intp).reshape(shp))
            elif d(st.booleans()):
                items.append(d(st.integers(-n, n - 1)))
            else:
                items.append(slice(d(st.sampled_from([None, 1, -1])), None,
                                   d(st.sampled_from([None, -1, 2]))))
        if d(st.booleans()):
            items.insert(d(st.integers(0, len(items))), None)
        return tuple(items)

    def _new_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        size = math.prod(shape)
        k = self.draw(st.integers(0, 4))
        if size == 0:
            dims = [self.draw(st.integers(0, 3)) for _ in range(max(k, 1))]
            dims[self.draw(st.integers(0, len(dims) - 1))] = 0
            return tuple(dims)
        if k == 0:
            return () if size == 1 else (size,)
        dims = [1] * k
        n, p = size, 2
        factors = []
        while n > 1:
            while n % p == 0:
                factors.append(p)
                n //= p
            p += 1
        for f in factors:
            dims[self.draw(st.integers(0, k - 1))] *= f
        return tuple(dims)

    def _index(self, shape: tuple[int, ...]) -> tuple[Any, ...]:
        d = self.draw
        items: list[Any] = []
        for s in shape[:d(st.integers(0, len(shape)))]:
            kind = d(st.sampled_from(["int", "slice", "slice", "full", "none"]))
            if kind == "int" and s > 0:
                items.append(d(st.integers(-s, s - 1)))
            elif kind == "none":
                items.append(None)
                items.append(slice(None))
            elif kind == "full":
                items.append(slice(None))
            else:
                b = st.one_of(st.none(), st.integers(-s - 1, s + 1))
                items.append(slice(d(b), d(b), d(st.sampled_from([None, 1, 2, 3, -1, -2]))))
        if d(st.booleans()):
            items.insert(d(st.integers(0, len(items))), Ellipsis)
        if d(st.booleans()):
            items.append(None)
        return tuple(items)

    def _axis(self, nd: int, multi: bool) -> Any:
        d = self.draw
        kind = d(st.sampled_from(["none", "int", "tuple"] if multi else ["none", "int"]))
        if kind == "none" or nd == 0:
            return None
        if kind == "int":
            return d(st.integers(-nd, nd - 1))
        axes = d(st.lists(st.integers(0, nd - 1), unique=True, min_size=1, max_size=nd))
        return tuple(a - nd if d(st.booleans()) else a for a in axes)

    def i_reduce(self) -> None:
        name = self.draw(st.sampled_from(REDUCTIONS))
        v = self.pick()
        nd = v.ref.ndim
        axis = self._axis(nd, multi=name not in ("argmin", "argmax"))
        keep = self.draw(st.booleans())
        ddof = self.draw(st.sampled_from([0, 1])) if name in ("var", "std") else 0
        extra = {"ddof": ddof} if ddof else {}
        method = self.draw(st.booleans())
        kw = f"axis={axis!r}, keepdims={keep}" + (f", ddof={ddof}" if ddof else "")
        code = f"{v.name}.{name}({kw})" if method else f"lt.{name}({v.name}, {kw})"
        lf = (lambda: getattr(v.lazy, name)(axis=axis, keepdims=keep, **extra)) if method \
            else (lambda: getattr(lt, name)(v.lazy, axis=axis, keepdims=keep, **extra))
        lazy, ref = self.run(lf, lambda: getattr(np, name)(v.ref, axis=axis, keepdims=keep,
                                                            **extra), code)
        with quiet():
            u = red_unc(name, v.ref, v.unc, axis, keep, ddof, ref)
        self.prog.add(lazy, ref, u, code)

    def i_cumsum(self) -> None:
        # 0-d inputs are left out: NumPy treats them as 1-d, lazyten (like the
        # array API) rejects them.
        v = self.pick(lambda w: w.ref.ndim >= 1)
        if v.ref.ndim == 0:
            raise Rejected("cumulative_sum of a 0-d value")
        nd = v.ref.ndim
        axis = self.draw(st.integers(-nd, nd - 1)) if nd else 0
        inc = self.draw(st.booleans())
        code = f"lt.cumulative_sum({v.name}, axis={axis}, include_initial={inc})"
        lazy, ref = self.run(lambda: lt.cumulative_sum(v.lazy, axis=axis, include_initial=inc),
                             lambda: np.cumulative_sum(v.ref, axis=axis, include_initial=inc),
                             code)
        with quiet():
            uu = np.cumulative_sum(v.unc, axis=axis % max(nd, 1), include_initial=inc) \
                if nd else v.unc
            m = _mag(v.ref)
            m = np.where(np.isfinite(m), m, 0.0)
            if ref.dtype.kind in "fc":
                n = v.ref.shape[axis] if nd else 1
                uu = uu + K_EXACT * (n + 1) * _eps(ref.dtype) * np.cumulative_sum(
                    m, axis=axis % nd, include_initial=inc) + K_EXACT * _tiny(ref.dtype)
        self.prog.add(lazy, ref, uu, code)

    def i_matmul(self) -> None:
        a = self.pick(lambda w: w.ref.ndim >= 1)
        d = self.draw
        kind = d(st.sampled_from(["mT", "any", "any"]))
        if kind == "mT" and a.ref.ndim >= 2:
            b_l, b_r, b_u, b_c = a.lazy.mT, np.matrix_transpose(a.ref), \
                np.matrix_transpose(a.unc), f"{a.name}.mT"
        else:
            def fits(w: Val) -> bool:
                s, t = a.ref.shape, w.ref.shape
                return len(t) >= 1 and (t[0] if len(t) == 1 else t[-2]) == s[-1]
            b = self.pick(fits if d(st.integers(0, 3)) else None)
            b_l, b_r, b_u, b_c = b.lazy, b.ref, b.unc, b.name
        use_op = d(st.booleans())
        code = f"({a.name} @ {b_c})" if use_op else f"lt.matmul({a.name}, {b_c})"
        lazy, ref = self.run((lambda: a.lazy @ b_l) if use_op else
                             (lambda: lt.matmul(a.lazy, b_l)),
                             lambda: np.matmul(a.ref, b_r), code)
        with quiet():
            u = matmul_unc(a.ref, a.unc, b_r, b_u, ref)
        self.prog.add(lazy, ref, u, code)

    def i_inplace(self) -> None:
        """``t op= x`` on a fresh handle (functionalization) vs NumPy's in-place op on a
        copy: same result, same casting ('same_kind') and broadcasting errors."""
        name = self.draw(st.sampled_from(["add", "subtract", "multiply", "divide",
                                          "floor_divide", "bitwise_or", "pow"]))
        v = self.pick()
        b_lazy, b_ref, b_unc, b_code = self.operand(v)
        fn = _np(name)
        iop = {"add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul,
               "divide": operator.itruediv, "floor_divide": operator.ifloordiv,
               "bitwise_or": operator.ior, "pow": operator.ipow}[name]
        sym = OPERATORS[name]

        def lazy() -> lt.Tensor:
            t = lt.copy(v.lazy)
            t = iop(t, b_lazy)
            return t

        def ref() -> Any:
            r = np.array(v.ref, copy=True)
            return iop(r, b_ref)

        code = f"lt.copy({v.name}); _t {sym}= {b_code}"
        lazy_t, ref_v = self.run(lazy, ref, code)
        with quiet():
            u = ew_unc(name, lambda x, y: fn(x, y).astype(v.ref.dtype), [v.ref, b_ref],
                       [v.unc, b_unc], ref_v)
        self.prog.lines += [f"_t = lt.copy({v.name})", f"_t {sym}= {b_code}"]
        self.prog.add(lazy_t, ref_v, u, "_t")

    def i_concat(self) -> None:
        a = self.pick(lambda w: w.ref.ndim >= 1)
        b = self.pick(lambda w: w.ref.ndim == a.ref.ndim)
        nd = a.ref.ndim
        axis = self.draw(st.integers(-nd, nd - 1)) if nd else 0
        code = f"lt.concat([{a.name}, {b.name}], axis={axis})"
        lazy, ref = self.run(lambda: lt.concat([a.lazy, b.lazy], axis=axis),
                             lambda: np.concatenate([a.ref, b.ref], axis=axis), code)
        self.prog.add(lazy, ref, np.concatenate([a.unc, b.unc], axis=axis), code)

    def i_create(self) -> None:
        d = self.draw
        dt = d(st.sampled_from(DTYPES))
        kind = d(st.sampled_from(["full", "arange", "zeros"]))
        if kind == "arange":
            n = d(st.integers(0, 6))
            if dt.kind == "b":
                dt = np.dtype(np.int64)
            code = f"lt.arange({n}, dtype=np.{dt.name})"
            lazy, ref = self.run(lambda: lt.arange(n, dtype=dt),
                                 lambda: np.arange(n, dtype=dt), code)
        else:
            shape = tuple(d(st.lists(st.integers(0, 3), max_size=3)))
            if kind == "zeros":
                code = f"lt.zeros({shape}, dtype=np.{dt.name})"
                lazy, ref = self.run(lambda: lt.zeros(shape, dtype=dt),
                                     lambda: np.zeros(shape, dtype=dt), code)
            else:
                fill = d(st.sampled_from([0, 1, -1, 2.5, math.nan, math.inf]))
                if dt.kind in "iub" and isinstance(fill, float):
                    fill = 3
                if dt.kind == "u" and fill < 0:
                    fill = 7
                code = f"lt.full({shape}, {_lit(fill)}, dtype=np.{dt.name})"
                lazy, ref = self.run(lambda: lt.full(shape, fill, dtype=dt),
                                     lambda: np.full(shape, fill, dtype=dt), code)
        self.prog.add(lazy, ref, np.zeros(ref.shape), code)


def _index_code(idx: tuple[Any, ...]) -> str:
    def one(i: Any) -> str:
        if i is None:
            return "None"
        if i is Ellipsis:
            return "..."
        if isinstance(i, (np.ndarray, np.bool_)):
            return f"np.array({np.asarray(i).tolist()!r}, dtype=np.{np.asarray(i).dtype})"
        if isinstance(i, slice):
            parts = ["" if i.start is None else str(i.start),
                     "" if i.stop is None else str(i.stop)]
            return ":".join(parts) + ("" if i.step is None else f":{i.step}")
        return str(i)
    return ", ".join(one(i) for i in idx) + ("," if len(idx) == 1 else "") if idx else "()"


# ------------------------------------------------------------------ comparison


def check_value(got: np.ndarray[Any, Any], v: Val, where: str, prog: Program) -> None:
    exp = v.ref
    ctx = f"{v.name} under {where}\n--- program ---\n{prog.code()}"
    assert got.shape == exp.shape, f"shape {got.shape} != NumPy {exp.shape}: {ctx}"
    assert got.dtype == exp.dtype, f"dtype {got.dtype} != NumPy {exp.dtype}: {ctx}"
    with quiet():
        dist = _dist(got, exp)
        bad = dist > v.unc
    if np.any(bad):
        k = tuple(np.argwhere(bad)[0]) if got.ndim else ()
        raise AssertionError(
            f"value mismatch in {v.name} at {k}: lazyten {got[k]!r}, NumPy {exp[k]!r}, "
            f"allowed |diff| <= {v.unc[k]!r} ({int(bad.sum())} of {bad.size} elements); {ctx}")


def evaluate_and_compare(prog: Program, outs: list[Val], draw: Draw) -> None:
    nodes = [o.lazy.node for o in outs]
    verify_graph(nodes)
    for combo in COMBOS:
        with lt.set_options(**combo, check=True), quiet():
            try:
                vals = lt.compute(*[o.lazy for o in outs])
            except Exception as e:  # noqa: BLE001
                raise AssertionError(f"evaluation failed under {combo}: {type(e).__name__}: "
                                     f"{e}\n--- program ---\n{prog.code()}") from e
        _STATS["evaluations"] += 1
        for o, g in zip(outs, vals):
            check_value(g, o, str(combo), prog)
    # Default options twice: the second run of a structure takes its cached
    # plan's fast path, which check=True (above) never does.
    for run in ("first", "second (the fast path)"):
        with quiet():
            vals = lt.compute(*[o.lazy for o in outs])
        _STATS["evaluations"] += 1
        for o, g in zip(outs, vals):
            check_value(g, o, f"default options, {run} run", prog)
    # Cache an intermediate with .eval(): later graphs start from its value.
    mid = prog.vals[draw(st.integers(0, len(prog.vals) - 1))]
    combo = draw(st.sampled_from(COMBOS))
    with lt.set_options(**combo), quiet():
        cached = mid.lazy.eval()
    check_value(cached, mid, f"{combo} .eval() of {mid.name}", prog)
    combo = draw(st.sampled_from(COMBOS))
    with lt.set_options(**combo), quiet():
        vals = lt.compute(*[o.lazy for o in outs])
    for o, g in zip(outs, vals):
        check_value(g, o, f"{combo} after caching {mid.name}", prog)
    verify_graph(nodes)


def run_program(data: st.DataObject, n_inputs: int, n_steps: int) -> Program:
    prog = Program()
    for _ in range(n_inputs):
        arr, code = data.draw(input_arrays())
        name = f"v{len(prog.vals)}"
        lazy = lt.asarray(arr, name=name)
        prog.add(lazy, arr, np.zeros(arr.shape), f"lt.asarray({code})")
    interp = Interp(data.draw, prog)
    for _ in range(n_steps):
        interp.step()
        _STATS["instructions"] += 1
    return prog


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(st.data())
def test_fuzz_graphs(data: st.DataObject) -> None:
    n_inputs = data.draw(st.integers(1, 4), label="inputs")
    n_steps = data.draw(st.integers(1, MAX_STEPS), label="steps")
    prog = run_program(data, n_inputs, n_steps)
    derived = prog.vals[n_inputs:]
    assume(derived)
    sinks = [v for v in derived if not v.used]
    extra = [v for v in derived if v.used and data.draw(st.integers(0, 3)) == 0]
    outs = sinks + extra or derived[-1:]
    note(prog.code())
    evaluate_and_compare(prog, outs, data.draw)
    _STATS["graphs"] += 1
    if _STATS["graphs"] % 1000 == 0:
        _write_stats()


# Build-time summaries against the walk: summary key -> (walked signature,
# where each summary leaf sits among the walk's leaves), across all examples,
# so structures that recur (the interpreter's lines repeat) are compared.
_SUMMARIES: dict[Any, tuple[Any, list[int]]] = {}
# The same without the nodes' source lines, for graphs with pending nodes too.
_SUMMARIES_NO_LINES: dict[Any, tuple[Any, list[int]]] = {}


def _no_lines(sig: tuple[Any, ...]) -> tuple[Any, ...]:
    """A walked signature without its operations' source lines (their
    items' last field; constants, leaves and the outputs have none)."""
    return tuple(it[:-1] if len(it) == 6 and isinstance(it[0], str) and it[0] not in "cs"
                 else it for it in sig)


def _check_summary(nodes: list[Any], prog: Program) -> bool:
    """``nodes``' summary against the walk of the nodes they enter as.

    Entering merges a pending node into an equal entered one, which may have
    been built on another line (hash-consing keeps the first node's line, as
    it always did), so a graph with pending nodes must walk to its key's
    signature up to lines; a graph of entered nodes, exactly."""
    from lazyten.exec.optimized import walk_signature
    from lazyten.graph.node import entered, graph_summary

    exact = not any(n.pending for n in nodes)   # (an entered node has no pending input)
    summary, walked = graph_summary(nodes), walk_signature([entered(n) for n in nodes])
    if summary is None or walked is None:
        return False
    ids = [id(x) for x in walked[1]]
    perm = [ids.index(id(x)) for x in summary[1]]
    assert sorted(perm) == list(range(len(ids))), prog.code()
    got = (_no_lines(walked[0]), perm)
    assert _SUMMARIES_NO_LINES.setdefault(summary[0], got) == got, prog.code()
    if exact:
        got = (walked[0], perm)
        assert _SUMMARIES.setdefault(summary[0], got) == got, prog.code()
    return True


@settings(max_examples=max(N_EXAMPLES // 5, 50), deadline=None)
@given(st.data())
def test_build_time_summaries_stand_for_the_walk(data: st.DataObject) -> None:
    """Every graph whose summaries are current has one structure per key: all
    graphs with its key walk to the same signature, with their leaves in the
    same order.  A few outputs run through the plan cache first, as built
    (operators leave nodes pending when their structure recurs), whose plan
    may have been made for another example's arrays."""
    n_inputs = data.draw(st.integers(1, 4), label="inputs")
    prog = run_program(data, n_inputs, data.draw(st.integers(1, MAX_STEPS), label="steps"))
    derived = prog.vals[n_inputs:]
    assume(derived)
    outs = data.draw(st.lists(st.sampled_from(derived), min_size=1, max_size=3))
    # The program once more from its code, on new arrays of the same values:
    # its lines recur, so its operators' nodes are pending.
    again: dict[str, Any] = {}
    from lazyten.graph import node
    node._entered_structs.clear()   # (earlier checks entered these structures' nodes)
    with quiet():
        exec(compile(prog.code(), "<fuzz program>", "exec"), again)  # noqa: S102 - our own code
    checked = pending = 0
    for lazies in ({v.name: v.lazy for v in prog.vals}, {v.name: again[v.name] for v in prog.vals}):
        heads = [lazies[o.name]._head for o in outs]
        pending += sum(t._head.pending for t in lazies.values())
        with quiet():
            got = lt.compute(*[lazies[o.name] for o in outs])
        for g, o in zip(got, outs):
            check_value(g, o, "through the plan cache", prog)
        checked += _check_summary(heads, prog)
        checked += sum(_check_summary([t._head], prog) for t in lazies.values())
    _STATS["summaries checked"] = _STATS.get("summaries checked", 0) + checked
    _STATS["pending nodes"] = _STATS.get("pending nodes", 0) + pending


def teardown_module() -> None:
    _write_stats()


# ------------------------------------------------------------------ regressions
# Plain tests for what the fuzzer found (and for the fuzzer's own corner cases).


def _check(lazy: lt.Tensor, expected: np.ndarray[Any, Any]) -> None:
    for combo in COMBOS:
        with lt.set_options(**combo), quiet():
            (got,) = lt.compute(lazy)
        assert got.dtype == expected.dtype, combo
        assert got.shape == expected.shape, combo
        if expected.dtype.kind in "fc":   # transcendental kernels differ by ulps
            np.testing.assert_allclose(got, expected, rtol=1e-13)
        else:
            np.testing.assert_array_equal(got, expected)


def test_python_int_out_of_range_raises_at_build() -> None:
    a = lt.asarray(np.arange(3, dtype=np.uint8))
    with pytest.raises(OverflowError):
        a + 300
    with pytest.raises(OverflowError):
        lt.add(lt.asarray(np.arange(3, dtype=np.int64)), 2**64)


def test_integer_negative_power_raises_at_evaluation() -> None:
    a = lt.asarray(np.array([2, 3], dtype=np.int64))
    b = lt.asarray(np.array([1, -1], dtype=np.int64))
    t = a ** b
    for combo in COMBOS:
        with lt.set_options(**combo), pytest.raises(ValueError):
            lt.compute(t)


@pytest.mark.parametrize("big", [2**40, 2**64])
def test_big_python_int_divided_by_int32(big: int) -> None:
    # Found by the fuzzer: the optimizer cast a Python int constant too large for
    # int32 (weak, so int32 / 2**40 is float64) to the other operand's dtype,
    # OverflowError at evaluation.
    a = np.array([1, 2], np.int32)
    _check(lt.divide(big, lt.asarray(a)), np.divide(big, a))


def test_new_axis_on_0d_elementwise_result() -> None:
    # Found by the fuzzer: view pushdown lost the new axis of a 0-d result.
    x = np.array(6, np.int8)
    t = lt.asarray(x)
    _check(lt.expand_dims(t + t, 0), np.expand_dims(x + x, 0))
    _check((t << t)[..., None].sum(axis=-1), (x << x)[..., None].sum(axis=-1))
    _check(lt.cumulative_sum((t + t)[None], axis=0), np.cumulative_sum((x + x)[None], axis=0))


def test_transpose_of_broadcast_with_lower_rank_computed_operand() -> None:
    # Found by the fuzzer (minimized): view pushdown moved the transpose onto the
    # rank-1 operand exp(y) of the rank-2 x + exp(y) (ValueError at evaluation).
    x, y = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    X, Y = lt.asarray(x), lt.asarray(y)
    _check((X + lt.exp(Y)).T, (x + np.exp(y)).T)
    _check(((X + Y) * lt.exp(Y)).mT, ((x + y) * np.exp(y)).T)


@pytest.mark.parametrize("dt", [np.int32, np.int64])
def test_abs_of_most_negative_int_in_numexpr_kernel(dt: Any) -> None:
    # Found by the fuzzer: v2 / abs(v2) with v2 = [.., -2**31] gave -1.0, NumPy 1.0
    # (numexpr's abs of INT_MIN is +2**31; NumPy wraps).
    m = np.array([0, np.iinfo(dt).min, 5], dt)
    t = lt.asarray(m)
    with quiet():
        _check(abs(t) < 0, np.abs(m) < 0)
        _check(t / abs(t), m / np.abs(m))


def test_empty_integer_array_to_negative_power() -> None:
    # Found by the fuzzer: NumPy's "integers to negative integer powers" check is
    # per element, so an empty array passes; the dtype probe raised at build.
    z = np.zeros((0, 2), np.int32)
    t = lt.asarray(z)
    _check(t ** -129, z ** -129)
    u = lt.copy(t)
    u **= -1
    _check(u, z ** -1)
    with pytest.raises(ValueError):
        lt.asarray(np.array([2, 3])) ** -1       # non-empty: still a build-time error


def test_matmul_chain_order_keeps_integer_wraparound() -> None:
    # Found by the fuzzer (long run): v0 int8 [[-128], [0]], v1 float16 [1, 0],
    # v1 @ (v0 @ v0.mT) gave 16384 where NumPy's int8 product wraps to 0: the
    # matrix-chain pass reassociated across dtypes.
    a = np.array([[-128], [0]], np.int8)
    h = np.array([1.0, 0.0], np.float16)
    A, H = lt.asarray(a), lt.asarray(h)
    _check(H @ (A @ A.mT), h @ (a @ a.T))
    b = np.array([[2**20], [1]], np.int32)
    f = np.array([1.0, 1.0])
    B = lt.asarray(b)
    _check(lt.asarray(f) @ (B @ B.mT), f @ (b @ b.T))


def test_negative_stride_broadcast_chain() -> None:
    x = np.arange(12.0).reshape(3, 4)[::-1, ::-2]
    t = lt.asarray(x)
    e = lt.broadcast_to(t[None], (2, 3, 2)) * 2.0 + t.sum(axis=0)
    with quiet():
        _check(e, np.broadcast_to(x[None], (2, 3, 2)) * 2.0 + x.sum(axis=0))


def test_uncertainty_rules_catch_a_wrong_value() -> None:
    """The comparison is not vacuous: an off-by-2-ulp value in an exact chain fails."""
    prog = Program()
    ref = np.array([1.0, 2.0])
    v = prog.add(lt.asarray(ref), ref * 3, np.zeros(2), "x * 3")
    v.unc = _slack(v.ref, 1)
    wrong = np.nextafter(np.nextafter(v.ref, 10), 10)
    with pytest.raises(AssertionError, match="value mismatch"):
        check_value(wrong, v, "test", prog)
    nan = np.array([np.nan, 2.0])
    with pytest.raises(AssertionError, match="value mismatch"):
        check_value(nan, v, "test", prog)


def test_stats_file(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "stats.json"
    monkeypatch.setenv("LAZYTEN_FUZZ_STATS", str(path))
    _write_stats()
    assert set(json.loads(path.read_text())) == set(_STATS)



def test_simplify_is_idempotent_after_an_identity_makes_a_foldable_node() -> None:
    # Found by the fuzzer: pow(copy(const), 2) -> multiply(c, c) was only
    # folded by a second simplify run, which the optimizer skips when the
    # graph did not change (and check mode asserts that it need not run).
    t = lt.copy(lt.full((), 3, dtype=np.int8))
    t **= 2
    _check(t, np.array(9, np.int8))
    from lazyten.graph.passes.simplify import simplify
    from lazyten.graph.rewrite import Graph
    g = simplify(Graph((t.node,)))
    assert simplify(g) is g
