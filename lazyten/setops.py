"""NumPy's set operations and the remaining math helpers (``angle``,
``sinc``, ``nan_to_num``, ``divmod``, ``modf``, ``frexp``, ...): set
operations evaluate their inputs (their result's size depends on the data,
as ``unique``'s); the rest compose registry ops, or are registry ops.

How each is built, and why:

- Compositions, written as NumPy writes them in Python (``numpy/lib/
  _function_base_impl.py``, ``_type_check_impl.py``, ``_ufunclike_impl.py``,
  ``_core/numeric.py``), so the same ufuncs run on the same values in the
  same order and give NumPy's bits, lazily and fusably: ``angle``, ``sinc``,
  ``i0``, ``nan_to_num``, ``iscomplex``, ``isreal``, ``isposinf``,
  ``isneginf``, ``logspace``, ``cross`` and ``divmod`` (NumPy's ``divmod``
  loop is its ``floor_divide`` and ``remainder`` loops' arithmetic: the
  tests compare every edge value), ``modf`` (``trunc`` and an exact
  subtraction: see its docstring).
- Registry ops that run NumPy's function: ``isin`` (both operands stay
  lazy; NumPy picks its algorithm from the values), ``vdot`` (a C routine,
  BLAS ``dotc`` for complex numbers) and ``frexp`` (one op per output: no
  composition of ufuncs finds a float's exponent exactly).
- Evaluated when called: ``intersect1d``, ``union1d``, ``setdiff1d``,
  ``setxor1d`` (data-dependent sizes), ``apply_along_axis`` (NumPy calls
  the function once per 1-d slice, on ndarrays), ``real_if_close`` (its
  dtype depends on the data: the test is computed, the result stays lazy).
  ``piecewise`` runs NumPy's own algorithm on tensors: the conditions are
  evaluated (they decide the gathered sizes), ``x`` and what the functions
  build from it stay lazy.

``in1d`` is not here: NumPy 2.4 removed it (use ``isin``).
"""

from __future__ import annotations

import builtins
import functools
import importlib
import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import functions as F
from .creation import asarray, copyto_source, linspace, zeros_like
from .exec.executor import evaluate
from .graph import ops
from .graph import shapes as S
from .graph.node import Node, Shape
from .sorting import _values, diff
from .tensor import Tensor, numpy_out, snapshot, wrap

__all__: list[str] = [
    "isin", "intersect1d", "union1d", "setdiff1d", "setxor1d",
    "angle", "sinc", "i0", "nan_to_num", "iscomplex", "isreal", "isneginf", "isposinf",
    "real_if_close", "logspace", "vdot", "divmod", "modf", "frexp", "cross",
    "apply_along_axis", "piecewise", "unwrap",
]


# ------------------------------------------------------------------ registry ops

def _isin_impl(element: Any, test_elements: Any, assume_unique: bool, invert: bool,
               kind: Any) -> Any:
    return np.isin(element, test_elements, assume_unique=assume_unique, invert=invert,
                   kind=kind)


def _isin_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    kind = attrs["kind"]
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: {kind!r}. Please use None, 'sort' or 'table'.")
    # NumPy decides this from the dtypes alone, so it is known now; whether the
    # values' range fits a table is not (RuntimeError when the op runs).
    if kind == "table" and any(n.dtype.kind not in "uib" for n in inputs):
        raise ValueError("The 'table' method is only supported for boolean or integer "
                         "arrays. Please select 'sort' or None for kind.")
    return inputs[0].shape, {"assume_unique": bool(attrs["assume_unique"]),
                             "invert": bool(attrs["invert"]), "kind": kind}


def _bool_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return np.dtype(np.bool_)


def _vdot_impl(a: Any, b: Any) -> Any:
    return np.asarray(np.vdot(a, b))


def _vdot_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    a, b = inputs
    if math.prod(a.shape) != math.prod(b.shape):
        raise ValueError(f"vectors have different lengths ({math.prod(a.shape)} and "
                         f"{math.prod(b.shape)} elements)")
    return (), {}


def _frexp_mantissa(x: Any) -> Any:
    return np.frexp(x)[0]


def _frexp_exponent(x: Any) -> Any:
    return np.frexp(x)[1]


def _same_shape(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    return inputs[0].shape, attrs


# "linalg": an opaque call the passes leave alone (isin reads all of its
# second operand for each element; vdot is NumPy's own reduction order).
ops.register(ops.OpSpec("isin", "linalg", _isin_impl, _isin_infer, _bool_dtype, 2,
                        doc="whether each element of input 0 is in input 1 (np.isin)"))
ops.register(ops.OpSpec("vdot", "linalg", _vdot_impl, _vdot_infer, None, 2,
                        doc="np.vdot: both flattened, the first conjugated, summed products"))
# Elementwise (they fuse, and slices push through them) but not ufuncs with
# one output: each runs np.frexp and keeps its part.  dtype None: probed, so
# NumPy's loop decides (float16 for int8 and bool, int32 exponents).
ops.register(ops.OpSpec("frexp_mantissa", "elementwise", _frexp_mantissa, _same_shape, None, 1,
                        doc="np.frexp(x)[0]: the mantissa, in [0.5, 1) in magnitude"))
ops.register(ops.OpSpec("frexp_exponent", "elementwise", _frexp_exponent, _same_shape, None, 1,
                        doc="np.frexp(x)[1]: the exponent (int32)"))


def _apply(name: str, operands: Sequence[Any], **attrs: Any) -> Tensor:
    return Tensor(ops.apply(name, [wrap(x)._node for x in operands], **attrs))


# ------------------------------------------------------------------ set operations

def _evaluated(*xs: Any) -> list[Any]:
    """``xs`` with their tensors' values, computed in one plan (work they
    share done once); anything else as given, for NumPy to read as it does
    (a Python scalar stays weak: ``union1d(float32_array, 0.1)`` is float32).
    NumPy's set functions only read them (they sort copies)."""
    lazy = [i for i, x in enumerate(xs) if isinstance(x, Tensor)]
    out = list(xs)
    for i, v in zip(lazy, evaluate([xs[i]._node for i in lazy])):
        out[i] = np.asarray(v)
    return out


def isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False,
         *, kind: str | None = None) -> Tensor:
    """Whether each element of ``element`` is in ``test_elements`` (flattened),
    shaped like ``element``: one node running ``np.isin``, lazy in both
    operands.  NumPy picks its algorithm (table, loop, sort) from the sizes
    and values, which only the run knows; all give its result.

    >>> import lazyten as lt
    >>> lt.isin(lt.asarray([[0, 2], [4, 6]]), [1, 2, 4, 8]).eval()
    array([[False,  True],
           [ True, False]])
    """
    return _apply("isin", [element, test_elements], assume_unique=assume_unique,
                  invert=invert, kind=kind)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False,
                return_indices: bool = False) -> Any:
    """The sorted values in both (``np.intersect1d``; with ``return_indices``
    also where each first occurs in the flattened inputs).  Evaluates both.

    >>> import lazyten as lt
    >>> lt.intersect1d([1, 3, 4, 3], [3, 1, 2, 1]).eval()
    array([1, 3])
    """
    v1, v2 = _evaluated(ar1, ar2)
    if return_indices:
        r = np.intersect1d(v1, v2, assume_unique, return_indices=True)
        return tuple(asarray(v) for v in r)
    return asarray(np.intersect1d(v1, v2, assume_unique))


def union1d(ar1: Any, ar2: Any) -> Tensor:
    """The sorted values in either (``np.union1d``).  Evaluates both."""
    v1, v2 = _evaluated(ar1, ar2)
    return asarray(np.union1d(v1, v2))


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Tensor:
    """The values of ``ar1`` not in ``ar2`` (``np.setdiff1d``: sorted and
    unique unless ``assume_unique``).  Evaluates both."""
    v1, v2 = _evaluated(ar1, ar2)
    return asarray(np.setdiff1d(v1, v2, assume_unique=assume_unique))


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Tensor:
    """The sorted values in exactly one of them (``np.setxor1d``).  Evaluates both."""
    v1, v2 = _evaluated(ar1, ar2)
    return asarray(np.setxor1d(v1, v2, assume_unique=assume_unique))


# ------------------------------------------------------------------ complex and special values

def angle(z: Any, deg: bool = False) -> Tensor:
    """The counterclockwise angle from the positive real axis, as NumPy:
    ``arctan2(z.imag, z.real)`` (``arctan2(0, z)`` for real ``z``: the
    Python 0 is weak, so int8 gives float16), times ``180/pi`` for degrees.

    >>> import lazyten as lt
    >>> lt.angle(lt.asarray([1.0, 1j, 1 + 1j]), deg=True).eval()
    array([ 0., 90., 45.])
    """
    t = wrap(z)
    a = F.arctan2(t.imag, t.real) if t.dtype.kind == "c" else F.arctan2(0, t)
    return a * (180 / np.pi) if deg else a


def sinc(x: Any) -> Tensor:
    """``sin(pi x) / (pi x)``, 1 at 0, as NumPy: ``y = pi * x`` with the
    zeros replaced by the dtype's eps (1e-20 for complex), ``sin(y) / y``.

    >>> import lazyten as lt
    >>> lt.sinc(lt.asarray([0.0, 0.5])).eval()
    array([1.        , 0.63661977])
    """
    t = np.pi * wrap(x)
    eps = np.finfo(t.dtype).eps if t.dtype.kind == "f" else 1e-20
    # NumPy's condition is ``y`` itself: nonzero, as ``y != 0`` (NaN included).
    y = F.where(t != 0, t, eps)
    return F.sin(y) / y


@functools.cache
def _i0_coefficients() -> tuple[list[float], list[float]]:
    """Cephes' Chebyshev coefficients for ``i0``: NumPy's own lists (read
    when first needed, so a NumPy that moved them fails only ``i0``)."""
    impl = importlib.import_module("numpy.lib._function_base_impl")
    return list(impl._i0A), list(impl._i0B)


def _chbevl(x: Any, vals: list[float]) -> Any:
    b0: Any = vals[0]
    b1: Any = 0.0
    b2: Any = 0.0
    for i in range(1, len(vals)):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + vals[i]
    return 0.5 * (b0 - b2)


def i0(x: Any) -> Tensor:
    """The modified Bessel function of the first kind, order 0, NumPy's
    Cephes composition: ``|x|`` (as float64 unless floating), then
    ``exp(x) * chbevl(x/2 - 2, A)`` where ``x <= 8``, else
    ``exp(x) * chbevl(32/x - 2, B) / sqrt(x)``.

    NumPy's ``piecewise`` gives each function only its own elements; here
    both run on the whole tensor (elementwise, so the same bits), each fed a
    harmless stand-in (0, 16) where the other is used, so no
    overflow or division warning is raised that NumPy would not raise.

    >>> import lazyten as lt
    >>> lt.i0(lt.asarray([0.0, 1.0])).eval()
    array([1.        , 1.26606588])
    """
    t = wrap(x)
    if t.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if t.dtype.kind != "f":
        t = t.astype(np.float64)
    t = F.abs(t)
    small = t <= 8.0
    lo = F.where(small, t, 0.0)
    hi = F.where(small, 16.0, t)
    # (the same expressions as NumPy's _i0_1 and _i0_2, Python constants and all)
    a, b = _i0_coefficients()
    lo = F.exp(lo) * _chbevl(lo / 2.0 - 2, a)
    hi = F.exp(hi) * _chbevl(32.0 / hi - 2.0, b) / F.sqrt(hi)
    return F.where(small, lo, hi)


def _copyto_value(value: Any, dtype: np.dtype[Any], shape: Shape, what: str) -> Any:
    """``value`` as ``np.copyto`` writes it into an array of ``dtype`` and
    ``shape`` (same-kind casting: a complex fill for a float array is a
    TypeError), as a NumPy scalar, or a tensor of ``dtype`` for an array
    or a tensor (broadcast by copyto's rule): a strong operand either way,
    so the result keeps ``dtype``."""
    if not isinstance(value, Tensor) and not np.ndim(value):
        buf = np.empty((), dtype)
        np.copyto(buf, value)
        return buf[()]
    v = asarray(value)
    if not np.can_cast(v.dtype, dtype, "same_kind"):
        raise TypeError(f"{what}: cannot cast array data from {v.dtype} to {dtype} "
                        f"according to the rule 'same_kind'")
    return copyto_source(v, shape, what).astype(dtype, copy=False)


def nan_to_num(x: Any, copy: bool = True, nan: Any = 0.0, posinf: Any = None,
               neginf: Any = None) -> Tensor:
    """NaN, +inf and -inf replaced by ``nan``, ``posinf`` and ``neginf``
    (numbers, or arrays or tensors taken element by element as ``np.copyto``
    broadcasts them; defaults: 0 and the dtype's largest and smallest
    finite values), in
    the real and imaginary parts separately; other dtypes unchanged.

    NumPy copies and writes with ``copyto(where=...)``; lazily that is a
    ``where`` per replacement, and for complex numbers writes to the
    copy's ``.real`` and ``.imag`` (no arithmetic: a sum with ``1j * im``
    would change signed zeros).  ``copy=False`` on a tensor rebinds it, as
    ``t[...] = v`` does; lazyten never writes a user's ndarray, so for
    one it is ``copy=True``.

    >>> import numpy as np, lazyten as lt
    >>> lt.nan_to_num(lt.asarray([np.nan, np.inf, -np.inf]), posinf=9.0).eval()
    array([ 0.00000000e+000,  9.00000000e+000, -1.79769313e+308])
    """
    t = wrap(x)
    if t.dtype.kind not in "fc":
        return t if not copy else F.copy(t)
    if not copy:                             # (a write: its fill arrays read at the call)
        nan, posinf, neginf = snapshot(nan), snapshot(posinf), snapshot(neginf)
    real = np.finfo(t.dtype).dtype
    info = np.finfo(real)
    fill_nan, fill_pos, fill_neg = (
        _copyto_value(v, real, t.shape, f"nan_to_num: {name}")
        for name, v in (("nan", nan), ("posinf", info.max if posinf is None else posinf),
                        ("neginf", info.min if neginf is None else neginf)))

    def fixed(d: Tensor) -> Tensor:
        # (the three masks are disjoint: NumPy's order of copyto calls is moot)
        return F.where(F.isnan(d), fill_nan,
                       F.where(isposinf(d), fill_pos, F.where(isneginf(d), fill_neg, d)))

    in_place = not copy and isinstance(x, Tensor)
    if t.dtype.kind == "f":
        if not in_place:
            # (NumPy writes into its "K" copy of ``x``: that layout, a
            # broadcast operand's axes kept in their memory order)
            from .memory import filled_array
            return filled_array(fixed(t), "K", t, t.dtype)
        t[...] = fixed(t)
        return t
    re, im = fixed(t.real), fixed(t.imag)
    out = t if in_place else F.copy(t)
    out.real[...] = re
    out.imag[...] = im
    return out


def iscomplex(x: Any) -> Tensor:
    """True where the imaginary part is nonzero (``z.imag != 0``); all False
    for a real dtype (a lazy ``zeros``).

    >>> import lazyten as lt
    >>> lt.iscomplex(lt.asarray([1 + 1j, 1 + 0j, 4.5])).eval()
    array([ True, False, False])
    """
    t = wrap(x)
    if t.dtype.kind == "c":
        return t.imag != 0
    return zeros_like(t, dtype=np.bool_)      # (t's shape, also at a compiled function's call)


def isreal(x: Any) -> Tensor:
    """True where the imaginary part is zero (``imag(x) == 0``, so True
    everywhere for a real dtype, NaN included).

    >>> import lazyten as lt
    >>> lt.isreal(lt.asarray([1 + 1j, 1 + 0j])).eval()
    array([False,  True])
    """
    return F.imag(wrap(x)) == 0


def _signed_inf(x: Any, negative: bool) -> Tensor:
    t = wrap(x)
    is_inf = F.isinf(t)
    try:
        sign = F.signbit(t)
    except TypeError:
        raise TypeError(f"This operation is not supported for {t.dtype} values because it "
                        f"would be ambiguous.") from None
    return F.logical_and(is_inf, sign if negative else ~sign)


@numpy_out(np.isposinf)
@ops.reports("isposinf")
def isposinf(x: Any, out: Any = None) -> Tensor:
    """True at +inf: ``isinf(x) & ~signbit(x)``, as NumPy (complex: TypeError).

    >>> import numpy as np, lazyten as lt
    >>> lt.isposinf(lt.asarray([np.inf, -np.inf, 1.0])).eval()
    array([ True, False, False])
    """
    return _signed_inf(x, False)


@numpy_out(np.isneginf)
@ops.reports("isneginf")
def isneginf(x: Any, out: Any = None) -> Tensor:
    """True at -inf: ``isinf(x) & signbit(x)``, as NumPy (complex: TypeError).

    >>> import numpy as np, lazyten as lt
    >>> lt.isneginf(lt.asarray([np.inf, -np.inf, 1.0])).eval()
    array([False,  True, False])
    """
    return _signed_inf(x, True)


def real_if_close(a: Any, tol: float = 100) -> Tensor:
    """``a.real`` if every imaginary part is below ``tol`` (in machine
    epsilons of ``a``'s dtype when ``tol > 1``), else ``a``.  The result's
    dtype depends on the data: the test is evaluated now, the result is the
    lazy ``a.real`` or ``a``.

    >>> import lazyten as lt
    >>> lt.real_if_close(lt.asarray([2.1 + 4e-14j, 5.2 + 3e-15j]), tol=1000).eval()
    array([2.1, 5.2])
    """
    t = wrap(a)
    if t.dtype.kind != "c":
        return t
    if tol > 1:
        tol = np.finfo(t.dtype).eps * tol       # a NumPy scalar of the real dtype
    return t.real if bool(F.all(F.abs(t.imag) < tol)) else t


# ------------------------------------------------------------------ two outputs

def divmod(x1: Any, x2: Any, /, *outs: Any,  # noqa: A001 - NumPy's name
           **ufunc_keywords: Any) -> tuple[Any, Any]:
    """``(x1 // x2, x1 % x2)``: NumPy's ``divmod`` loop computes what its
    ``floor_divide`` and ``remainder`` loops do, bit for bit (division by
    zero, -0.0, infinities and NaN included), so two fusable ops.

    >>> import lazyten as lt
    >>> q, r = lt.divmod(lt.asarray([7, -7]), 2)
    >>> q.eval(), r.eval()
    (array([ 3, -4]), array([1, 1]))

    NumPy's ufunc keywords (``out=``, ``where=``, ``dtype=``, ...) or
    outputs by position are NumPy's own call, now.
    """
    if outs or ufunc_keywords:
        return F.ufunc_now(np.divmod, "divmod", (x1, x2, *outs), ufunc_keywords)
    return F.floor_divide(x1, x2), F.remainder(x1, x2)


@ops.reports("modf")
def modf(x: Any, /, *outs: Any, **ufunc_keywords: Any) -> tuple[Any, Any]:
    """``(fractional part, integral part)``, both with the sign of ``x``, in
    NumPy's loop dtype (float16 for int8 and bool, float64 for int64).

    A composition: the integral part is ``trunc(x)``; ``x - trunc(x)`` is
    exact (Sterbenz: ``trunc(x)`` is within a factor of two of ``x`` when
    ``|x| >= 1``, and 0 otherwise); ``copysign`` gives the fraction ``x``'s
    sign, as C's ``modf`` does (``-0.0`` for ``-3.0`` and for ``-0.0``).
    Infinities are replaced by 0 before the subtraction: their fraction is
    ±0, and ``inf - inf`` would raise an invalid-value warning that NumPy's
    ``modf`` does not.

    >>> import lazyten as lt
    >>> f, i = lt.modf(lt.asarray([2.5, -3.25]))
    >>> f.eval(), i.eval()
    (array([ 0.5 , -0.25]), array([ 2., -3.]))

    NumPy's ufunc keywords or outputs by position: NumPy's own call, now.
    """
    if outs or ufunc_keywords:
        return F.ufunc_now(np.modf, "modf", (x, *outs), ufunc_keywords)
    t = wrap(x)
    dt = np.modf.resolve_dtypes((t.dtype, None, None))[1]   # TypeError for complex
    t = F.astype(t, dt, copy=False)
    finite = F.where(F.isinf(t), 0, t)
    return F.copysign(finite - F.trunc(finite), t), F.trunc(t)


def frexp(x: Any, /, *outs: Any, **ufunc_keywords: Any) -> tuple[Any, Any]:
    """``(mantissa, exponent)`` with ``x == mantissa * 2**exponent`` (the
    exponent int32): two elementwise ops that each run ``np.frexp`` (a
    logarithm would misjudge values just below a power of two).

    >>> import lazyten as lt
    >>> m, e = lt.frexp(lt.asarray([8.0, 0.75]))
    >>> m.eval(), e.eval()
    (array([0.5 , 0.75]), array([4, 0], dtype=int32))

    NumPy's ufunc keywords or outputs by position: NumPy's own call, now.
    """
    if outs or ufunc_keywords:
        return F.ufunc_now(np.frexp, "frexp", (x, *outs), ufunc_keywords)
    t = wrap(x)
    return _apply("frexp_mantissa", [t]), _apply("frexp_exponent", [t])


# ------------------------------------------------------------------ ranges and products

def _shape_of(v: Any) -> Shape:
    return v.shape if isinstance(v, Tensor) else np.shape(v)


@ops.reports("logspace")
def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0,
             dtype: Any = None, axis: int = 0) -> Tensor:
    """``base ** linspace(start, stop, num)``, as NumPy: an array ``base``
    is broadcast with the bounds and gets a new axis at ``axis``; ``dtype``
    casts the result.  Lazy for scalar bounds (a ``linspace`` node and a
    ``pow``); array bounds are computed by ``np.linspace`` now.

    >>> import lazyten as lt
    >>> lt.logspace(0, 2, 3).eval()
    array([  1.,  10., 100.])
    """
    if not isinstance(base, (float, int)) and len(_shape_of(base)):
        ndmax = len(S.broadcast_shapes(_shape_of(start), _shape_of(stop), _shape_of(base)))
        start, stop = (np.array(v, ndmin=ndmax) for v in (start, stop))
        b = wrap(base)
        base = F.expand_dims(b.reshape((1,) * (ndmax - b.ndim) + b.shape), axis)
    y = F.pow(base, linspace(start, stop, num, endpoint, axis=axis))
    return y if dtype is None else F.astype(y, dtype, copy=False)


def vdot(a: Any, b: Any, /) -> Tensor:
    """The dot product of ``a`` and ``b`` flattened, ``a`` conjugated: one
    node running ``np.vdot`` (BLAS ``dotc`` for complex numbers).

    >>> import lazyten as lt
    >>> lt.vdot(lt.asarray([1 + 2j, 3 + 4j]), lt.asarray([5 + 6j, 7 + 8j])).eval()
    array(70.-8.j)
    """
    return _apply("vdot", [a, b])


@ops.reports("cross")
def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Tensor:
    """NumPy's ``cross``: the vectors along ``axisa`` of ``a`` and ``axisb``
    of ``b`` (``axis`` sets all three), 2 or 3 long (2-vectors are
    deprecated in NumPy 2 and warn: a 2 by 2 product is the scalar
    z-component, a 2-vector's z is 0), the result's vectors along ``axisc``.

    Written as NumPy's code: both cast to their promoted dtype, then each
    component as its products and differences (bools raise, as NumPy).
    ``lt.linalg.cross`` is the array API's, 3-vectors along one axis.

    >>> import lazyten as lt
    >>> lt.cross(lt.asarray([1.0, 0, 0]), lt.asarray([0.0, 1, 0])).eval()
    array([0., 0., 1.])
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    ta, tb = wrap(a), wrap(b)
    if ta.ndim < 1 or tb.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    ta = F.moveaxis(ta, S.normalize_axis(axisa, ta.ndim), -1)
    tb = F.moveaxis(tb, S.normalize_axis(axisb, tb.ndim), -1)
    na, nb = ta.shape[-1], tb.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if na == 2 or nb == 2:
        # stacklevel 3: past this function and ops.reports' wrapper, the user's line
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=3)
    shape = S.broadcast_shapes(ta.shape[:-1], tb.shape[:-1])
    if na == 3 or nb == 3:
        axisc = S.normalize_axis(axisc, len(shape) + 1)
    dtype = np.promote_types(ta.dtype, tb.dtype)
    ta, tb = F.astype(ta, dtype, copy=False), F.astype(tb, dtype, copy=False)
    a0, a1, b0, b1 = ta[..., 0], ta[..., 1], tb[..., 0], tb[..., 1]
    # (NumPy's result is a new C array it fills: ``np.empty(shape)``, then
    # moved to ``axisc``, a view)
    from .memory import filled_array
    if na == 2 and nb == 2:
        return filled_array(a0 * b1 - a1 * b0, "C")
    if na == 2:                                   # a2 = 0
        b2 = tb[..., 2]
        parts = [a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0]
    elif nb == 3:
        a2, b2 = ta[..., 2], tb[..., 2]
        parts = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    else:                                         # b2 = 0
        a2 = ta[..., 2]
        parts = [-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0]
    return F.moveaxis(filled_array(F.stack(parts, axis=-1), "C"), -1, axisc)


# ------------------------------------------------------------------ Python functions on data

def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any,
                     **kwargs: Any) -> Tensor:
    """``func1d`` on each 1-d slice along ``axis`` (``np.apply_along_axis``).

    Evaluates ``arr`` and runs NumPy's loop: it calls ``func1d`` once per
    slice on ndarrays, and the result's shape and dtype are those of what
    it returns, so nothing is gained by building one node per slice.

    >>> import lazyten as lt
    >>> lt.apply_along_axis(lambda v: v[0] + v[-1], 1, lt.asarray([[1, 2, 3], [4, 5, 6]])).eval()
    array([ 4, 10])
    """
    t = wrap(arr)
    try:                      # an AxisError before anything is computed
        S.normalize_axis(axis, t.ndim)
    except ops.BUILD_ERRORS as e:
        raise ops.located("apply_along_axis", [t._node], e) from None
    # (not ops.reports: an error of func1d's own reaches the user as it is)
    return asarray(np.apply_along_axis(func1d, axis, _values(t, "apply_along_axis"),
                                       *args, **kwargs))


@ops.reports("unwrap")
def unwrap(p: Any, discont: Any = None, axis: int = -1, *, period: Any = 2 * math.pi) -> Tensor:
    """Phase unwrapping (``np.unwrap``): jumps between neighbours larger than
    ``discont`` (``period / 2``) are taken back by multiples of ``period``.
    NumPy's code line for line, lazily: ``diff``, ``mod``, the boundary
    corrections as ``where`` (NumPy's ``copyto(where=)``), a ``cumsum``
    written into a copy of ``p`` in the result's dtype.

    >>> import lazyten as lt
    >>> lt.unwrap(lt.asarray([0.0, 3.0, 6.5, 0.2])).eval().round(3)
    array([0.   , 3.   , 0.217, 0.2  ])
    """
    t = wrap(p)
    dd = diff(t, axis=axis)
    if discont is None:
        discont = period / 2
    ax = S.normalize_axis(axis, t.ndim)
    slice1 = tuple(slice(1, None) if k == ax else slice(None) for k in range(t.ndim))
    dtype = np.result_type(dd.dtype, period)
    if np.issubdtype(dtype, np.integer):
        interval_high, rem = builtins.divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = F.remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        # (NumPy: for abs(dd) == period/2 the line above gave -period/2;
        # make it sign(dd) * period/2)
        ddmod = F.where((ddmod == interval_low) & (dd > 0),
                        F.astype(asarray(interval_high), ddmod.dtype), ddmod)
    ph_correct = ddmod - dd
    ph_correct = F.where(abs(dd) < discont, F.astype(asarray(0), ph_correct.dtype), ph_correct)
    up = F.astype(t, dtype)
    up[slice1] = t[slice1] + F.cumsum(ph_correct, axis=ax)
    return up


def _conditions(condlist: Any) -> np.ndarray[Any, Any]:
    """``np.asarray(condlist, dtype=bool)`` with the tensors in it computed
    in one plan."""
    if isinstance(condlist, Tensor):
        return np.asarray(condlist).astype(bool)
    ts = [c for c in condlist if isinstance(c, Tensor)]
    vals = dict(zip(map(id, ts), _evaluated(*ts))) if ts else {}
    return np.asarray([vals.get(id(c), c) for c in condlist], dtype=bool)


def _lists_arrays(condlist: Any) -> bool:
    """NumPy's ``isinstance(condlist[0], (list, ndarray))``, with tensors as
    arrays: whether ``condlist`` is already a list of conditions."""
    if isinstance(condlist, (Tensor, np.ndarray)):
        if condlist.ndim == 0:
            raise IndexError("too many indices for array: array is 0-dimensional, but 1 "
                             "were indexed")
        return condlist.ndim >= 2
    return isinstance(condlist[0], (list, np.ndarray, Tensor))


def piecewise(x: Any, condlist: Any, funclist: Sequence[Any], *args: Any,
              **kw: Any) -> Tensor:
    """``x``'s dtype and shape, each function's values where its condition
    holds (a later condition wins; one extra function is the "otherwise";
    a non-callable is a constant), zero elsewhere (``np.piecewise``).

    NumPy's own algorithm on tensors: the conditions are evaluated (each
    decides how many elements its function gets), then each function gets
    the gathered ``x[cond]``, a lazy tensor (operators, ``lt`` functions
    and NumPy ufuncs keep it lazy), and writes it back with ``y[cond] = ...``.

    >>> import lazyten as lt
    >>> x = lt.asarray([-2.0, -1.0, 1.0, 2.0])
    >>> lt.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 10]).eval()
    array([ 2.,  1., 10., 20.])
    """
    t = wrap(x)
    n2 = len(funclist)
    # (NumPy's undocumented rule: a single condition is a list of one; its
    # condlist[0] is read first, an IndexError for a 0-d array)
    # (a 0-d tensor, ``t > 0`` of a 0-d ``t``, is NumPy's scalar there)
    if np.isscalar(condlist) or isinstance(condlist, Tensor) and condlist.ndim == 0 \
            or (not _lists_arrays(condlist) and t.ndim != 0):
        condlist = [condlist]
    conds = _conditions(condlist)
    n = len(conds)
    if n == n2 - 1:
        conds = np.concatenate([conds, ~np.any(conds, axis=0, keepdims=True)], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"piecewise: with {n} condition(s), either {n} or {n + 1} "
                         f"functions are expected, got {n2}")
    y = zeros_like(t)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = t[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y
