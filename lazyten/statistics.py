"""NumPy's statistics, comparisons and NaN-aware functions beyond the core
reductions (``functions.py``): each written as NumPy's own Python code
composes its ufuncs and reductions (the same steps, in the same dtypes), so
lazily and with NumPy's bits.

Ops of NumPy's own stand where no composition gives NumPy's bits (or its
warnings, given when the values are computed):

* ``partition`` (``np.partition``, registered by ``manipulation``): ``median``
  and ``quantile`` select with it, as NumPy does (a sort orders equal values,
  -0.0 and 0.0, otherwise);
* ``nan_extreme``: ``nanmin`` and ``nanmax``, NumPy's function whole
  (``np.fmin.reduce``, whose zeros are not ``min``'s, and its warning for an
  all-NaN slice when the values are computed);
* ``divide_by_count``: NumPy's ``_divide_by_count`` in ``nanmean`` and
  ``nanvar`` (the division's floating-point warnings ignored, NumPy's
  "Mean of empty slice" and "Degrees of freedom <= 0" given instead);
* ``gradient_length``: a view whose shape rule is ``gradient``'s length
  check, made again when a compiled function specializes a None dimension;
* ``numpy_quantile``: ``nanmedian``, ``nanquantile``, ``nanpercentile`` of
  floats (NumPy compacts each lane's non-NaN values in an order that depends
  on where the NaNs are, then selects), and the medians and quantiles over a
  length known only when a compiled function runs;
* ``convolve`` (with ``correlate``) and ``interp``: NumPy's C loops.

Evaluated when called, because the values decide the result's shape or an
error NumPy raises: ``histogram``, ``histogram_bin_edges`` and ``bincount``
(their input), ``nanargmin``/``nanargmax`` of floats (an all-NaN lane
raises), and the small arguments NumPy checks by value (weights, bins,
coordinates, a tensor ``q``).

>>> import numpy as np, lazyten as lt
>>> x = lt.asarray([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
>>> lt.nanmean(x, axis=1).eval()
array([2., 5.])
>>> float(lt.median(x[1]))
5.0
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from . import functions as F
from . import manipulation as _manipulation  # noqa: F401  (registers the partition op)
from .compile import call_sized
from .creation import asarray, full_like, ones_like
from .graph import ops
from .graph import shapes as S
from .graph.node import Node, Shape, refuse_call_sizes
from .sorting import argsort, diff, searchsorted, take_along_axis
from .tensor import Tensor, node_of, numpy_out, values_now, wrap

__all__: list[str] = [
    "allclose", "array_equal", "array_equiv", "average", "bincount", "convolve", "corrcoef",
    "correlate", "cov", "digitize", "ediff1d", "gradient", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd",
    "interp", "isclose", "median", "nanargmax", "nanargmin", "nancumprod", "nancumsum",
    "nanmax", "nanmean", "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile",
    "nanstd", "nansum", "nanvar", "percentile", "ptp", "quantile", "trapezoid"]


# ------------------------------------------------------------------ shared helpers

def _concrete(x: Any) -> np.ndarray[Any, Any]:
    """``x``'s values now: small arguments NumPy checks by value (quantiles,
    weights, bins, distances); a tensor is evaluated (and keeps its value)."""
    return np.asarray(x) if isinstance(x, Tensor) else np.asanyarray(x)


def _replace_nan(t: Tensor, val: float) -> tuple[Tensor, Tensor | None]:
    """NumPy's ``_replace_nan``: ``t`` with its NaNs replaced by ``val`` and
    the NaN mask, for inexact dtypes; ``(t, None)`` for the others."""
    if t.dtype.kind not in "fc":
        return t, None
    mask = F.isnan(t)
    return F.where(mask, val, t), mask


def _divide_by_count(a: Tensor, b: Tensor, bad: str | None = None) -> Tensor:
    """NumPy's ``_divide_by_count``: ``a / b`` written back into ``a``'s dtype
    (a float32 sum over an intp count divides in float64), invalid and
    division warnings ignored; with ``bad``, the check NumPy makes on the
    count after it (``_COUNT_CHECKS``).  One op (``divide_by_count``): the
    warnings must be silenced for this division only and NumPy's own raised
    when the values are computed, which a composition cannot do."""
    return Tensor(ops.apply("divide_by_count", [a._node, b._node], bad=bad))


def _inexact_dtype(dtype: Any) -> np.dtype[Any] | None:
    if dtype is None:
        return None
    dt = np.dtype(dtype)
    if dt.kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    return dt


def _along(axis: int, item: Any) -> tuple[Any, ...]:
    """An index taking ``item`` on ``axis`` and everything on the axes before."""
    return (slice(None),) * axis + (item,)


def _probe(fn: Callable[..., Any], t: Tensor, *args: Any, **kw: Any) -> Any:
    """NumPy's ``fn`` on zeros shaped like ``t`` (each axis at most one long;
    an empty one stays empty): its own argument errors (axes, methods,
    quantile ranges, dtypes) raised here, at build time, and its result's
    dtype for values without NaNs."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(np.zeros(tuple(min(d, 1) for d in t.shape), t.dtype), *args, **kw)


def _ureduce(t: Tensor, axis: Any) -> tuple[Tensor, int, tuple[int, ...]]:
    """NumPy's ``_ureduce``: (``t`` with the reduced axes as one axis, that
    axis, the reduced axes).  ``None`` flattens; several axes are moved last
    (the kept ones first, in order) and merged."""
    if axis is None:
        return t.reshape(-1), 0, tuple(range(t.ndim))
    axes = normalize_axis_tuple(axis, t.ndim)
    if len(axes) == 1:
        return t, axes[0], axes
    keep = [i for i in range(t.ndim) if i not in axes]
    m = F.moveaxis(t, keep, list(range(len(keep))))
    return m.reshape(m.shape[:len(keep)] + (-1,)), len(keep), axes


def _length_at_call(t: Tensor, axis: Any) -> bool:
    """Whether a reduced length is known only when a compiled function runs
    (a placeholder's None dimension, or an axis sliced from one to a bound:
    ``x[-3:]`` is 2 long at a call with two elements): a composition
    needing it as a number cannot be built now."""
    axes = range(t.ndim) if axis is None else normalize_axis_tuple(axis, t.ndim)
    return any(call_sized(t, a) for a in axes)


def _keepdims(r: Tensor, ndim: int, axes: tuple[int, ...], keepdims: bool) -> Tensor:
    """``_ureduce``'s ``keepdims``: ``r[..., new axes where reduced]``."""
    if not keepdims:
        return r
    return r[(Ellipsis,) + tuple(None if i in axes else slice(None) for i in range(ndim))]


def _same_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return inputs[0].dtype


# ------------------------------------------------------------------ ops of NumPy's own

def _partition(x: Tensor, kth: Sequence[int], axis: int) -> Tensor:
    # (manipulation's ``partition`` op: np.partition itself)
    return Tensor(ops.apply("partition", [x._node], kth=tuple(int(k) for k in kth),
                            axis=axis))


def _mode(mode: Any) -> int:
    """``convolve``/``correlate``'s mode as NumPy's C converter reads it."""
    if isinstance(mode, str):
        names = {"valid": 0, "same": 1, "full": 2}
        if mode not in names:
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
        return names[mode]
    if isinstance(mode, (int, np.integer)) and not isinstance(mode, bool):
        if mode not in (0, 1, 2):
            raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
        return int(mode)
    raise TypeError("convolve/correlate mode not understood")


def _conv_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    a, v = inputs
    convolve = attrs["op"] == "convolve"
    for x in (a, v):
        if x.ndim > 1:
            raise ValueError("object too deep for desired array")
        if x.ndim == 0 and not convolve:      # (convolve reads a scalar as 1-d)
            raise ValueError("object of too small depth for desired array")
    n, m = (math.prod(x.shape) for x in (a, v))
    if n == 0 or m == 0:
        raise ValueError(("a cannot be empty" if n == 0 else "v cannot be empty") if convolve
                         else ("first" if n == 0 else "second")
                         + " array argument cannot be empty")
    mode = _mode(attrs["mode"])
    length = (max(n, m) - min(n, m) + 1, max(n, m), n + m - 1)[mode]
    return (length,), {"op": attrs["op"], "mode": mode}


def _conv_impl(a: Any, v: Any, op: str, mode: int) -> Any:
    return getattr(np, op)(a, v, ("valid", "same", "full")[mode])


ops.register(ops.OpSpec(
    "convolve", "linalg", _conv_impl, _conv_infer, None, 2,
    doc="np.convolve or np.correlate (attrs['op']) of two 1-d operands: NumPy's own "
        "dot-product loop"))


def _interp_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x, xp, fp = inputs
    period = attrs.get("period")
    if period is not None and period == 0:
        raise ValueError("period must be a non-zero value")
    for p in (fp, xp):
        if p.ndim != 1:
            raise ValueError("Data points must be 1-D sequences" if period is not None else
                             "object too deep for desired array" if p.ndim > 1 else
                             "object of too small depth for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length" + ("" if period else "."))
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    # NumPy's own complaints about the dtypes (complex x) and left/right,
    # on one sample point.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.interp(np.zeros(tuple(min(d, 1) for d in x.shape), x.dtype), np.zeros(1, xp.dtype),
                  np.zeros(1, fp.dtype), attrs.get("left"), attrs.get("right"), period)
    return x.shape, {"left": attrs.get("left"), "right": attrs.get("right"), "period": period}


def _interp_impl(x: Any, xp: Any, fp: Any, left: Any, right: Any, period: Any) -> Any:
    return np.interp(x, xp, fp, left=left, right=right, period=period)


def _interp_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return np.dtype(np.complex128 if inputs[2].dtype.kind == "c" else np.float64)


ops.register(ops.OpSpec(
    "interp", "linalg", _interp_impl, _interp_infer, _interp_dtype, 3,
    doc="np.interp(x, xp, fp) (inputs 0-2) with attrs left, right, period"))


# (the check NumPy's nanmean and nanvar make on the count after dividing by
# it: which lanes are bad, the warning, whether they become NaN)
_COUNT_CHECKS: dict[str, tuple[Callable[[Any], Any], str, bool]] = {
    "empty": (lambda cnt: cnt == 0, "Mean of empty slice", False),
    "dof": (lambda dof: dof <= 0, "Degrees of freedom <= 0 for slice.", True)}


def _divide_by_count_infer(inputs: Sequence[Node],
                           attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    a, b = inputs
    if not S.broadcasts_to(b.shape, a.shape):        # (NumPy divides with out=a)
        raise ValueError(f"divide_by_count: the count's shape {b.shape} does not broadcast "
                         f"to the sum's {a.shape}")
    bad = attrs.get("bad")
    if bad is not None and bad not in _COUNT_CHECKS:
        raise ValueError(f"divide_by_count: unknown check {bad!r}")
    return a.shape, {"bad": bad}


def _divide_by_count_impl(a: Any, b: Any, bad: str | None) -> Any:
    a = np.asarray(a)
    r = np.empty_like(a)
    with np.errstate(invalid="ignore", divide="ignore"):
        np.divide(a, b, out=r, casting="unsafe")
    if bad is not None:
        test, message, to_nan = _COUNT_CHECKS[bad]
        isbad = test(np.asarray(b))
        if np.any(isbad):
            warnings.warn(message, RuntimeWarning, stacklevel=2)
            if to_nan:       # (NaN, inf or a negative value: each replaced by NaN)
                np.copyto(r, np.nan, where=isbad, casting="unsafe")
    return r


ops.register(ops.OpSpec(
    "divide_by_count", "linalg", _divide_by_count_impl, _divide_by_count_infer,
    _same_dtype, 2,
    doc="NumPy's _divide_by_count: input 0 / input 1 in input 0's dtype, invalid and "
        "divide warnings ignored; attrs['bad']: nanmean's empty-slice or nanvar's "
        "degrees-of-freedom check and warning after it"))


class _NotNdarray(np.ndarray):
    """An array that NumPy's ``nanmin``/``nanmax`` do not take for an
    ndarray (they test ``type(a) is np.ndarray``): they then run their path
    for other inputs, as for a list or a NumPy scalar (``amin`` of the NaNs
    replaced by infinities, whose signed zeros are not ``fmin``'s; NaN where
    a slice was all NaN, with the warning "All-NaN axis encountered")."""


_MASKED_REDUCE = ops.REGISTRY["masked_reduce"]


def _nan_extreme_infer(inputs: Sequence[Node],
                       attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    # (masked_reduce's rules: axes, keepdims, where= and initial=)
    return _MASKED_REDUCE.infer(inputs, attrs)


def _nan_extreme_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    assert _MASKED_REDUCE.dtype is not None
    return _MASKED_REDUCE.dtype(inputs, {k: v for k, v in attrs.items() if k != "ndarray"})


def _nan_extreme_impl(*inputs: Any, reduce: str, axis: Any, keepdims: bool, ndarray: bool,
                      initial: Any = None) -> Any:
    x = np.asarray(inputs[0])
    if not ndarray:
        x = x.view(_NotNdarray)
    kw: dict[str, Any] = {} if initial is None else {"initial": initial}
    if len(inputs) > 1:
        kw["where"] = inputs[1]
    fn = np.nanmin if reduce == "fmin" else np.nanmax
    return np.asarray(fn(x, axis=axis, keepdims=keepdims, **kw))


ops.register(ops.OpSpec(
    "nan_extreme", "linalg", _nan_extreme_impl, _nan_extreme_infer, _nan_extreme_dtype, None,
    doc="np.nanmin or np.nanmax (attrs['reduce'] fmin or fmax) of input 0, where= input 1 "
        "if any: NumPy's function whole (fmin/fmax.reduce, or for what was no ndarray "
        "(attrs['ndarray'] false) its other path), with its All-NaN warning"))


_GRADIENT_TOO_SHORT = ("Shape of array too small to calculate a numerical gradient, at least "
                       "(edge_order + 1) elements are required.")


def _gradient_length_infer(inputs: Sequence[Node],
                           attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    if x.shape[attrs["axis"]] < attrs["edge_order"] + 1:
        raise ValueError(_GRADIENT_TOO_SHORT)
    return x.shape, attrs


def _gradient_length_impl(x: Any, axis: int, edge_order: int) -> Any:
    return np.asarray(x)[...]


ops.register(ops.OpSpec(
    "gradient_length", "view", _gradient_length_impl, _gradient_length_infer, _same_dtype, 1,
    view_of=0,
    doc="input 0 itself (a view), whose shape rule raises NumPy's gradient error where "
        "axis attrs['axis'] is shorter than attrs['edge_order'] + 1: gradient's check on a "
        "None dimension, made again when a compiled function specializes for a call"))


# ------------------------------------------------------------------ comparisons

@ops.reports("isclose")
def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """NumPy's ``isclose``: ``|a - b| <= atol + rtol * |b|`` where ``b`` is
    finite, or ``a == b``; ``b`` taken as a float (an int as float64), Python
    scalars weak.  NumPy's expression, lazily."""
    def conv(v: Any) -> Any:
        return v if isinstance(v, (int, float, complex, Tensor)) else np.asanyarray(v)
    x, y, atol, rtol = (conv(v) for v in (a, b, atol, rtol))
    dtype = getattr(y, "dtype", None)
    if dtype is not None:
        dt = np.result_type(dtype, 1.0)
        y = F.astype(y, dt, copy=False) if isinstance(y, Tensor) else np.asanyarray(y, dtype=dt)
    elif isinstance(y, int):
        y = float(y)
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        # A tensor result, even of scalars: the operand made one is an
        # array, so that a Python-number ``b`` stays weak (NEP 50).
        if isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
            x = wrap(x)
        else:
            y = wrap(y)
    tols = [_concrete(v) if isinstance(v, Tensor) else v for v in (atol, rtol)]
    if not (np.all(np.isfinite(tols[0])) and np.all(np.isfinite(tols[1]))):
        msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        err = np.geterr()["invalid"]
        if err == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
        elif err == "raise":
            raise FloatingPointError(msg)
        elif err == "print":
            print(msg)
    result: Tensor = F.less_equal(abs(x - y), atol + rtol * abs(y)) & F.isfinite(y) | (x == y)
    if equal_nan:
        result = result | F.isnan(x) & F.isnan(y)
    return result


@ops.reports("allclose")
def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08,
             equal_nan: bool = False) -> Tensor:
    """``all(isclose(...))``, as NumPy; a lazy 0-d bool (NumPy returns a
    Python bool: ``bool()`` of this forces it, as ``if lt.allclose(a, b):``)."""
    return F.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _false() -> Tensor:
    return asarray(np.False_)


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Tensor:
    """NumPy's ``array_equal``: a lazy 0-d bool, false at once for other
    shapes; ``equal_nan`` counts NaNs in the same places as equal.  (Data
    lazyten does not hold, strings or objects, is its TypeError, not False.)"""
    try:
        t1, t2 = wrap(a1), wrap(a2)
    except ValueError:                # NumPy: what is no array (ragged) is not equal
        return _false()
    refuse_call_sizes(t1.node, t1.shape, "array_equal's shape comparison")
    refuse_call_sizes(t2.node, t2.shape, "array_equal's shape comparison")
    if t1.shape != t2.shape:
        return _false()
    if not equal_nan or (t1.dtype.kind in "biu" and t2.dtype.kind in "biu"):
        return F.all(t1 == t2)
    if a1 is a2:
        return asarray(np.True_)
    n1, n2 = F.isnan(t1), F.isnan(t2)
    # NumPy compares the non-NaN elements of a1 once the NaNs agree.
    return F.all(n1 == n2) & F.all(F.where(n1, True, t1 == t2))


def array_equiv(a1: Any, a2: Any) -> Tensor:
    """NumPy's ``array_equiv``: equal after broadcasting (false if they do not)."""
    try:
        t1, t2 = wrap(a1), wrap(a2)
    except ValueError:
        return _false()
    refuse_call_sizes(t1.node, t1.shape, "array_equiv's broadcast check")
    refuse_call_sizes(t2.node, t2.shape, "array_equiv's broadcast check")
    try:
        S.broadcast_shapes(t1.shape, t2.shape)
    except ValueError:               # NumPy: shapes that do not broadcast are not equal
        return _false()
    return F.all(t1 == t2)


# ------------------------------------------------------------------ NaN-aware reductions

@numpy_out(np.nansum)
@ops.reports("nansum")
def nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
           keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    """``sum`` with NaNs read as zero (NumPy: ``sum(_replace_nan(a, 0))``)."""
    t, _ = _replace_nan(wrap(a), 0)
    return F.sum(t, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                 where=where)


@numpy_out(np.nanprod)
@ops.reports("nanprod")
def nanprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    """``prod`` with NaNs read as one."""
    t, _ = _replace_nan(wrap(a), 1)
    return F.prod(t, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                  where=where)


@numpy_out(np.nancumsum)
@ops.reports("nancumsum")
def nancumsum(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Tensor:
    """``cumsum`` with NaNs read as zero."""
    t, _ = _replace_nan(wrap(a), 0)
    return F.cumsum(t, axis=axis, dtype=dtype)


@numpy_out(np.nancumprod)
@ops.reports("nancumprod")
def nancumprod(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Tensor:
    """``cumprod`` with NaNs read as one."""
    t, _ = _replace_nan(wrap(a), 1)
    return F.cumprod(t, axis=axis, dtype=dtype)


@numpy_out(np.nanmean)
@ops.reports("nanmean")
def nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False, *, where: Any = True) -> Tensor:
    """NumPy's ``nanmean``: the sum of the non-NaN elements (in ``a``'s dtype,
    float16 too) divided by their intp count, in ``_divide_by_count``'s way;
    all-NaN slices give NaN, and NumPy's "Mean of empty slice" warning when
    computed.  Other dtypes: ``mean``."""
    arr, mask = _replace_nan(wrap(a), 0)
    if mask is None:
        return F.mean(arr, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    dt = _inexact_dtype(dtype)
    cnt = F.sum(~mask, axis=axis, dtype=np.intp, keepdims=keepdims, where=where)
    tot = F.sum(arr, axis=axis, dtype=dt, keepdims=keepdims, where=where)
    return _divide_by_count(tot, cnt, "empty")


@numpy_out(np.nanvar)
@ops.reports("nanvar")
def nanvar(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None,
           correction: float | None = None) -> Tensor:
    """NumPy's ``nanvar``, its steps in its order: the mean of the non-NaN
    elements, deviations written back into ``a``'s dtype, NaNs zeroed, squares
    (``x * conj(x)`` real for complex) summed and divided by ``count - ddof``;
    NaN where that is not positive, with NumPy's "Degrees of freedom <= 0"
    warning when computed.  Other dtypes: ``var``."""
    arr, mask = _replace_nan(wrap(a), 0)
    if mask is None:
        # np.var with ddof=0 and a correction: the correction alone.
        return F.var(arr, axis=axis, dtype=dtype, ddof=None if ddof == 0 else ddof,
                     keepdims=keepdims, where=where, mean=mean, correction=correction)
    dt = _inexact_dtype(dtype)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    masked = where is not True
    cnt = F.sum(~mask, axis=axis, dtype=np.intp, keepdims=True, where=where)
    if mean is None:
        avg = _divide_by_count(F.sum(arr, axis=axis, dtype=dt, keepdims=True, where=where), cnt)
    else:
        avg = wrap(mean)
        # (NumPy subtracts it with out= the operand: its shape must fit)
        if not S.broadcasts_to(avg.shape, arr.shape):
            raise ValueError(f"nanvar: mean= of shape {avg.shape} does not broadcast to the "
                             f"operand's shape {arr.shape}")
    # np.subtract(arr, avg, out=arr, casting="unsafe", where=where)
    dev = F.astype(arr - avg, arr.dtype, copy=False)
    if masked:
        dev = F.where(where, dev, arr)
    dev = F.where(mask, 0, dev)
    sqr = dev * F.conj(dev) if dev.dtype.kind == "c" else dev * dev
    if masked:
        sqr = F.where(where, sqr, dev)
    if sqr.dtype.kind == "c":
        sqr = F.real(sqr)
    var = F.sum(sqr, axis=axis, dtype=dt, keepdims=keepdims, where=where)
    if var.ndim < cnt.ndim:
        cnt = cnt.reshape(var.shape)
    return _divide_by_count(var, cnt - ddof, "dof")


@numpy_out(np.nanstd)
@ops.reports("nanstd")
def nanstd(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None,
           correction: float | None = None) -> Tensor:
    """The square root of ``nanvar``; for data that holds no NaN (integers,
    bools) ``std`` itself, as NumPy (whose ``std`` keeps an integer
    ``dtype=``: a square root cast back, or its casting error)."""
    t = wrap(a)
    if t.dtype.kind not in "fc":
        return F.std(t, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                     where=where, mean=mean, correction=correction)
    return F.sqrt(nanvar(t, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                         where=where, mean=mean, correction=correction))


def _nan_extreme(ufunc: str, a: Any, axis: Any, keepdims: bool, initial: Any,
                 where: Any) -> Tensor:
    S.axis_argument(axis)                    # (NumPy's ufunc reduce: an int or a tuple)
    t = wrap(a)
    if t.dtype.kind not in "fc":             # no NaN to skip: fmin.reduce is min
        fn = F.min if ufunc == "fmin" else F.max
        return fn(t, axis=axis, keepdims=keepdims, initial=initial, where=where)
    # NumPy's function whole (np.fmin.reduce / np.fmax.reduce, and its
    # warning for all-NaN slices, raised when the values are computed); it
    # takes another path for what is no ndarray (a list, a NumPy scalar).
    ndarray = isinstance(a, Tensor) or type(a) in (np.ndarray, np.memmap)
    nodes = [t._node] if where is True else [t._node, node_of(where)]
    if initial is not None:                  # (a scalar, as the reductions read it)
        initial = F.initial_value(initial, "max" if ufunc == "fmax" else "min", t.dtype)
    return Tensor(ops.apply("nan_extreme", nodes, reduce=ufunc, axis=axis,
                            keepdims=bool(keepdims), ndarray=ndarray,
                            **({} if initial is None else {"initial": initial})))


@numpy_out(np.nanmin)
@ops.reports("nanmin")
def nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = None, where: Any = True) -> Tensor:
    """NumPy's ``nanmin``: ``np.fmin.reduce`` (one op: its signed zeros are
    not ``min``'s); NaN for all-NaN slices, with NumPy's warning when
    computed."""
    return _nan_extreme("fmin", a, axis, keepdims, initial, where)


@numpy_out(np.nanmax)
@ops.reports("nanmax")
def nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = None, where: Any = True) -> Tensor:
    """NumPy's ``nanmax``: ``np.fmax.reduce``; NaN for all-NaN slices (and
    NumPy's warning)."""
    return _nan_extreme("fmax", a, axis, keepdims, initial, where)


def _nan_arg(name: str, a: Any, axis: int | None, keepdims: bool) -> Tensor:
    t = wrap(a)
    arr, mask = _replace_nan(t, np.inf if name == "nanargmin" else -np.inf)
    if mask is not None and t.size:
        # NumPy's order: ``np.all(mask, axis=axis)`` (its axis errors: a
        # tuple of axes is valid there), the all-NaN check, and only then
        # argmin's (a tuple is its TypeError).  The axis is checked on a
        # probe first; the check needs the values, so ``a`` is evaluated
        # here (and keeps its value for the result).
        _probe(np.all, t, axis=axis)
        if np.isnan(t.eval()).all(axis=axis).any():
            raise ValueError("All-NaN slice encountered")
    fn = F.argmin if name == "nanargmin" else F.argmax
    return fn(arr, axis=axis, keepdims=keepdims)        # NumPy's axis and size errors


@numpy_out(np.nanargmin)
@ops.reports("nanargmin")
def nanargmin(a: Any, axis: int | None = None, out: Any = None, *,
              keepdims: bool = False) -> Tensor:
    """``argmin`` with NaNs read as +inf.  Evaluates ``a`` when it is inexact:
    NumPy raises ``ValueError`` for an all-NaN slice."""
    return _nan_arg("nanargmin", a, axis, keepdims)


@numpy_out(np.nanargmax)
@ops.reports("nanargmax")
def nanargmax(a: Any, axis: int | None = None, out: Any = None, *,
              keepdims: bool = False) -> Tensor:
    """``argmax`` with NaNs read as -inf (evaluates an inexact ``a``, as
    ``nanargmin``)."""
    return _nan_arg("nanargmax", a, axis, keepdims)


@numpy_out(np.ptp)
@ops.reports("ptp")
def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Tensor:
    """``max - min`` (NumPy's ``_ptp``; not an ndarray method in NumPy 2)."""
    t = wrap(a)
    return F.max(t, axis=axis, keepdims=keepdims) - F.min(t, axis=axis, keepdims=keepdims)


# ------------------------------------------------------------------ averages

def _weights_layout(wshape: Shape, shape: Shape, axes: tuple[int, ...] | None
                    ) -> tuple[tuple[int, ...], Shape] | None:
    """NumPy's ``_weights_are_valid`` on shapes: None for weights of the
    values' ``shape``; for weights of the lengths of ``axes``, the transpose
    and the shape that make them broadcast against the values."""
    if wshape == shape:
        return None
    if axes is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    if wshape != tuple(shape[ax] for ax in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along "
                         "specified axis.")
    return (tuple(int(i) for i in np.argsort(axes)),
            tuple(s if ax in axes else 1 for ax, s in enumerate(shape)))


@ops.reports("average")
def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
            keepdims: bool = False) -> Any:
    """NumPy's ``average``: ``mean`` without weights; with them
    ``sum(a * w) / sum(w)`` in NumPy's result dtype (float64 for integers).
    ``returned``: also the sum of weights (the count without them), in the
    average's shape.  NumPy raises ``ZeroDivisionError`` when weights sum to
    zero: the weights' sum is evaluated (and kept) to check it."""
    t = wrap(a)
    axes = None if axis is None else normalize_axis_tuple(axis, t.ndim, argname="axis")
    if weights is None:
        avg = F.mean(t, axis=axes, keepdims=keepdims)
        scl: Tensor
        if _length_at_call(t, axes):          # a None dimension's count: counted at the call
            ones = ones_like(t, dtype=np.float64)
            scl = F.astype(F.sum(ones, axis=axes, keepdims=keepdims), avg.dtype)
        else:
            scl = full_like(avg, avg.dtype.type(t.size / avg.size))
    else:
        w = wrap(weights)
        lay = _weights_layout(w.shape, t.shape, axes)
        wgt = w if lay is None else F.transpose(w, lay[0]).reshape(lay[1])
        rdt = (np.result_type(t.dtype, w.dtype, "f8") if t.dtype.kind in "biu"
               else np.result_type(t.dtype, w.dtype))
        scl = F.sum(wgt, axis=axes, dtype=rdt, keepdims=keepdims)
        if np.any(scl.eval() == 0.0):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        prod = F.astype(t, rdt, copy=False) * F.astype(wgt, rdt, copy=False)
        avg = F.sum(prod, axis=axes, keepdims=keepdims) / scl
        if scl.shape != avg.shape:
            # (NumPy's broadcast copy; times ones, not a broadcast_to, whose
            # target would hold sizes a compiled function's call may change)
            scl = scl * ones_like(avg, dtype=scl.dtype)
    return (avg, scl) if returned else avg


def _check_weights(w: np.ndarray[Any, Any], what: str, n: int) -> None:
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {what}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {what}")
    if np.any(w < 0):
        raise ValueError(f"{what} cannot be negative")


@ops.reports("cov")
def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> Tensor:
    """NumPy's ``cov``: rows (or columns) centred by ``average`` and
    ``dot(X, X.T.conj())`` scaled by ``1 / fact``.  The weights are checked
    by value (integer, non-negative), so they are evaluated."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    mt = wrap(m)
    if mt.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    yt = None if y is None else wrap(y)
    if yt is not None and yt.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(mt.dtype, np.float64) if yt is None else \
            np.result_type(mt.dtype, yt.dtype, np.float64)
    X = F.astype(F.atleast_2d(mt), dtype, copy=False)
    if not rowvar and mt.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return asarray(np.array([]).reshape(0, 0))
    if yt is not None:
        Y = F.astype(F.atleast_2d(yt), dtype, copy=False)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = F.concat((X, Y), axis=0)
    if any(call_sized(X, a) for a in range(1, X.ndim)):
        raise ValueError("the number of observations is known only when the compiled "
                         "function runs (a None dimension of a placeholder, or one sliced to "
                         "a bound), and NumPy scales by 1 / (n - ddof) as a number: give "
                         "it a concrete size, or trace with @lt.jit")
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = aw = None
    if fweights is not None:
        w = np.asarray(_concrete(fweights), dtype=float)
        if not np.all(w == np.around(w)):
            raise TypeError("fweights must be integer")
        _check_weights(w, "fweights", X.shape[1])
    if aweights is not None:
        aw = np.asarray(_concrete(aweights), dtype=float)
        _check_weights(aw, "aweights", X.shape[1])
        w = aw if w is None else w * aw
    avg, w_sum_t = average(X, axis=1, weights=w, returned=True)
    fact: Any
    if w is None:
        fact = X.shape[1] - ddof
    else:
        w_sum = np.asarray(w_sum_t)[0]
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * np.sum(w * aw) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    centred = X - avg[:, None]
    if not np.can_cast(centred.dtype, X.dtype, "same_kind"):     # X -= avg[:, None]
        raise ops.located("cov", [X.node], TypeError(
            f"Cannot cast ufunc 'subtract' output from {centred.dtype!r} to {X.dtype!r} "
            f"with casting rule 'same_kind' (dtype={X.dtype})"))
    X = F.astype(centred, X.dtype, copy=False)
    X_T = X.T if w is None else (X * w).T
    # ndarray.conj() of a real array is the array itself: NumPy's dot then
    # sees X times its own transpose (BLAS syrk), and so does this.
    c = F.dot(X, F.conj(X_T) if X_T.dtype.kind == "c" else X_T)
    with np.errstate(divide="ignore"):
        scale = np.true_divide(1, fact)
    c = F.astype(c * scale, c.dtype, copy=False)                 # c *= 1 / fact
    return F.squeeze(c)


@ops.reports("corrcoef")
def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Tensor:
    """NumPy's ``corrcoef``: ``cov`` divided by the outer product of the
    standard deviations (its diagonal's roots), clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:                          # np.diag raises: NumPy returns c / c
        return c / c
    stddev = F.sqrt(F.real(F.diagonal(c)))
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind != "c":
        return F.clip(c, -1, 1)
    for part in ("real", "imag"):            # np.clip(c.real, -1, 1, out=c.real), ...
        view = getattr(c, part)
        view[...] = F.clip(view, -1, 1)      # (a functional write: c is rebound)
    return c


# ------------------------------------------------------------------ medians and quantiles

def _median_along(x: Tensor, ax: int) -> Tensor:
    """NumPy's ``_median`` along ``ax``: partition at the middle (and the
    end, where NaNs gather), the mean of the middle one or two, NaN where the
    lane holds one (``_median_nancheck``)."""
    sz = x.shape[ax]
    kth = [sz // 2 - 1, sz // 2] if sz % 2 == 0 else [(sz - 1) // 2]
    nans = x.dtype.kind in "fc"
    if nans:
        kth.append(-1)
    part = _partition(x, kth, ax)
    i = sz // 2
    r = F.mean(part[_along(ax, slice(i, i + 1) if sz % 2 else slice(i - 1, i + 1))], axis=ax)
    if nans and sz > 0 and x.size > 0:
        last = part[_along(ax, -1)]
        r = F.where(F.isnan(last), last, r)
    return r


@numpy_out(np.median)
@ops.reports("median")
def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Tensor:
    """NumPy's ``median`` (``overwrite_input`` changes nothing here: inputs
    are never written)."""
    t = wrap(a)
    _probe(np.median, t, axis=axis, keepdims=keepdims)
    if _length_at_call(t, axis):
        return _quantile_op("median", t, axis, keepdims)
    x, ax, axes = _ureduce(t, axis)
    return _keepdims(_median_along(x, ax), t.ndim, axes, keepdims)


# (NumPy's alpha and beta: Python ints for two methods, so an integer q
# keeps an integer virtual index there, and the result the data's dtype.)
_CONTINUOUS = {"interpolated_inverted_cdf": (0, 1), "hazen": (0.5, 0.5),
               "weibull": (0, 0), "median_unbiased": (1 / 3.0, 1 / 3.0),
               "normal_unbiased": (3 / 8.0, 3 / 8.0)}
# Methods whose virtual index is an integer (NumPy's fix_gamma None).
_DISCRETE = frozenset({"inverted_cdf", "closest_observation", "lower", "higher", "nearest"})


def _discrete_index(index: Any, odd_ties: bool) -> Any:
    """NumPy's ``_discrete_interpolation_to_boundaries``."""
    previous = np.floor(index)
    nxt = previous + 1
    gamma = index - previous
    cond = gamma == 0
    if odd_ties:                             # closest_observation
        cond = cond & (np.floor(index) % 2 == 1)
    res = np.where(cond, previous, nxt).astype(np.intp)
    return np.where(res < 0, 0, res)


def _virtual_index(method: str, n: int, q: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """NumPy's ``get_virtual_index`` of ``method`` for ``n`` values (a Python
    int, so it meets ``q`` in ``q``'s dtype)."""
    vi: Any
    if method == "inverted_cdf":
        vi = _discrete_index(n * q - 1, False)
    elif method == "averaged_inverted_cdf":
        vi = n * q - 1
    elif method == "closest_observation":
        vi = _discrete_index(n * q - 1 - 0.5, True)
    elif method in _CONTINUOUS:
        alpha, beta = _CONTINUOUS[method]
        vi = n * q + (alpha + q * (1 - alpha - beta)) - 1
    elif method == "linear":
        vi = (n - 1) * q
    elif method == "lower":
        vi = np.floor((n - 1) * q).astype(np.intp)
    elif method == "higher":
        vi = np.ceil((n - 1) * q).astype(np.intp)
    elif method == "nearest":
        vi = np.around((n - 1) * q).astype(np.intp)
    elif method == "midpoint":
        vi = 0.5 * (np.floor((n - 1) * q) + np.ceil((n - 1) * q))
    else:
        raise ValueError(f"{method!r} is not a valid method")
    return np.asanyarray(vi)


def _indexes_and_gamma(method: str, vi: np.ndarray[Any, Any], n: int
                       ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """NumPy's ``_get_indexes`` and ``_get_gamma``: the positions below and
    above each virtual index (-1: the last value) and the weight between."""
    previous = np.floor(vi)
    nxt = previous + 1
    above = vi >= n - 1
    previous, nxt = np.where(above, -1, previous), np.where(above, -1, nxt)
    below = vi < 0
    previous, nxt = np.where(below, 0, previous), np.where(below, 0, nxt)
    previous, nxt = previous.astype(np.intp), nxt.astype(np.intp)
    gamma = vi - previous
    if method == "averaged_inverted_cdf":
        gamma = np.where(gamma == 0, 0.5, 1.0)
    elif method == "midpoint":
        gamma = np.where(vi % 1 == 0, 0.0, 0.5)
    return previous, nxt, np.asanyarray(gamma, dtype=vi.dtype)


def _lerp(a: Tensor, b: Tensor, t: Any, t_hi: Any, upper: Any) -> Tensor:
    """NumPy's ``_lerp``: ``a + (b - a) * t``, or ``b - (b - a) * (1 - t)``
    where ``t >= 0.5`` (``upper``); ``t_hi`` is ``1 - t`` as NumPy computes it."""
    d = b - a
    lo = a + d * t
    if upper is True or upper is False:      # a Python float t: one branch
        return F.astype(b - d * t_hi, lo.dtype, copy=False) if upper else lo
    return F.where(upper, F.astype(b - d * t_hi, lo.dtype, copy=False), lo)


def _quantile_along0(arr: Tensor, q: np.ndarray[Any, Any], method: str, weak: bool) -> Tensor:
    """NumPy's ``_quantile`` over axis 0 of ``arr``: the indexes and weights
    computed now, in NumPy, from ``q`` and the length; ``arr`` partitioned
    there and interpolated lazily.  Result: ``q.shape + arr.shape[1:]``."""
    n = arr.shape[0]
    nans = arr.dtype.kind in "fc"
    vi = _virtual_index(method, n, q)
    result: Tensor
    if method in _DISCRETE or (method == "linear" and vi.dtype.kind in "iu"):
        kth = np.concatenate((vi.ravel(), [-1])) if nans else vi.ravel()
        part = _partition(arr, kth.tolist(), 0)
        result = F.take(part, asarray(vi % n), axis=0)
    else:
        prev, nxt, gamma = _indexes_and_gamma(method, vi, n)
        kth = np.unique(np.concatenate(([0, -1], prev.ravel(), nxt.ravel())))
        part = _partition(arr, kth.tolist(), 0)
        below = F.take(part, asarray(prev % n), axis=0)
        above = F.take(part, asarray(nxt % n), axis=0)
        if weak:                             # NumPy: gamma = float(gamma), a weak scalar
            g = float(gamma)
            result = _lerp(below, above, g, 1 - g, g >= 0.5)
        else:
            g_arr = gamma.reshape(vi.shape + (1,) * (arr.ndim - 1))
            result = _lerp(below, above, asarray(g_arr), asarray(1 - g_arr),
                           asarray(g_arr >= 0.5))
    if nans:                                 # NumPy: a lane holding a NaN gives it
        last = part[-1]
        result = F.where(F.isnan(last), last, result)
    return result


def _take_lanes(s: Tensor, idx: Tensor, lead: Shape) -> Tensor:
    """``s[idx]`` lane by lane along axis 0: ``idx`` of shape ``lead + s.shape[1:]``."""
    flat = idx.reshape((math.prod(lead),) + s.shape[1:])
    return take_along_axis(s, flat, axis=0).reshape(lead + s.shape[1:])


def _quantile_weighted(arr: Tensor, q: np.ndarray[Any, Any], w: np.ndarray[Any, Any]) -> Tensor:
    """NumPy's weighted ``inverted_cdf`` over axis 0: values sorted (its
    argsort), the cumulative weights normalized (in q's float dtype), and each
    quantile's ``searchsorted`` as the count of those below it."""
    n = arr.shape[0]
    order = argsort(arr, axis=0)
    s = take_along_axis(arr, order, axis=0)
    ws = take_along_axis(asarray(np.ascontiguousarray(w)), order, axis=0)
    cdf = F.cumsum(ws, axis=0, dtype=np.float64)
    cdf = cdf / cdf[-1]
    if q.dtype.kind == "f":
        cdf = F.astype(cdf, q.dtype)
    # NumPy sets zeros to -1 where a lane starts with zero weight; the
    # cumulative weights rise, so only such lanes have zeros at all.
    cdf = F.where(cdf == 0, -1, cdf)
    below = (cdf.reshape((1,) * q.ndim + cdf.shape)
             < asarray(q.reshape(q.shape + (1,) * arr.ndim)))
    result = _take_lanes(s, F.minimum(F.sum(below, axis=q.ndim), n - 1), q.shape)
    if arr.dtype.kind in "fc":
        last = s[-1]
        result = F.where(F.isnan(last), last, result)
    return result


def _quantile_weights(w: np.ndarray[Any, Any], shape: Shape,
                      axes: tuple[int, ...] | None) -> np.ndarray[Any, Any]:
    """Concrete quantile weights checked as NumPy checks them (shape,
    non-negative, each lane's sum positive and finite), broadcast to the
    values' ``shape``."""
    lay = _weights_layout(w.shape, shape, axes)
    if lay is not None:
        w = w.transpose(lay[0]).reshape(lay[1])
    if np.any(w < 0):
        raise ValueError("Weights must be non-negative.")
    w = np.broadcast_to(w, shape)
    with np.errstate(all="ignore"):
        tot = np.sum(w, axis=axes, dtype=np.float64)
        if np.isnan(tot / tot).any():
            raise ValueError("Weights included NaN, inf or were all zero.")
    return w


def _lanes_first(w: np.ndarray[Any, Any], axis: Any) -> np.ndarray[Any, Any]:
    """Concrete ``w`` laid out as ``_ureduce`` lays out the values, the
    merged reduced axis first."""
    if axis is None:
        return w.reshape(-1)
    axes = normalize_axis_tuple(axis, w.ndim)
    if len(axes) == 1:
        return np.moveaxis(w, axes[0], 0)
    keep = [i for i in range(w.ndim) if i not in axes]
    w = np.moveaxis(w, keep, list(range(len(keep))))
    return np.moveaxis(w.reshape(w.shape[:len(keep)] + (-1,)), -1, 0)


# ---- NumPy's own function as one op: the NaN-skipping ones, and any whose
# reduced length is a None dimension of a placeholder
#
# NumPy drops each lane's NaNs by moving its last values into their places,
# then partitions that lane: which of two equal zeros it returns depends on
# that data-dependent order, which no static composition reproduces.  And
# the composition's positions come from the reduced length, which a None
# dimension only has when a compiled function runs.

def _q_attr(q: Any) -> tuple[Any, ...]:
    """``q`` as a hashable attribute that gives NumPy back the same ``q``: a
    Python int or float stays one (NumPy treats it as weak), anything else
    becomes an array of its dtype."""
    if type(q) in (int, float):
        return ("scalar", q)
    a = np.asarray(q)
    return ("array", str(a.dtype), a.shape, tuple(a.ravel().tolist()))


def _q_value(q: tuple[Any, ...]) -> Any:
    if q[0] == "scalar":
        return q[1]
    return np.array(q[3], dtype=q[1]).reshape(q[2])


def _dummy(shape: Shape) -> np.ndarray[Any, Any]:
    """An array of ``shape`` holding no memory: for NumPy's shape steps."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, bool), shape, (0,) * len(shape))


def _quantile_shape(fn: str, shape: Shape, qshape: Shape, axis: Any, keepdims: bool) -> Shape:
    """The shape NumPy's ``fn`` (median, quantile, ... nanpercentile) gives:
    ``_ureduce``, then q's axes and the kept ones.  The NaN-skipping quantiles
    run ``apply_along_axis`` and ``moveaxis`` from ``axis + i`` (``axis`` -1
    after several merged: a 2-d q's axes then mix with the values'), and
    return ``nanmean``'s result for an empty array, as their code does."""
    nan = fn.startswith("nan")
    axes = tuple(range(len(shape))) if axis is None else normalize_axis_tuple(axis, len(shape))
    if nan and math.prod(shape) == 0:
        return S.reduce_shape(shape, axes, keepdims)
    rest = tuple(d for i, d in enumerate(shape) if i not in axes)
    r: Shape = qshape + rest
    if nan and qshape and rest and axis is not None:
        ax = axes[0] if len(axes) == 1 else -1
        pos = ax if ax >= 0 else len(rest)
        r = np.moveaxis(_dummy(rest[:pos] + qshape + rest[pos:]),
                        [ax + i for i in range(len(qshape))], list(range(len(qshape)))).shape
    if keepdims:
        index = tuple(None if i in axes else slice(None) for i in range(len(shape)))
        r = _dummy(r)[(Ellipsis,) + index].shape
    return r


def _quantile_op_infer(inputs: Sequence[Node],
                       attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    q = attrs.get("q")
    qshape = () if q is None else np.shape(_q_value(q))
    return _quantile_shape(attrs["fn"], inputs[0].shape, qshape, attrs["axis"],
                           attrs["keepdims"]), dict(attrs)


def _quantile_op_impl(x: Any, fn: str, axis: Any, keepdims: bool, dtype: np.dtype[Any],
                      q: Any = None, method: str = "linear") -> Any:
    kw: dict[str, Any] = {"axis": axis, "keepdims": keepdims}
    if q is not None:
        kw["method"] = method
    r = getattr(np, fn)(x, *(() if q is None else (_q_value(q),)), **kw)
    # NumPy gives an all-NaN lane (a lane with a NaN, for quantile) its
    # input's dtype (data-dependent): the dtype inferred at build time holds.
    return np.asarray(r, dtype=dtype)


ops.register(ops.OpSpec(
    "numpy_quantile", "linalg", _quantile_op_impl, _quantile_op_infer,
    lambda inputs, attrs: np.dtype(attrs["dtype"]), 1,
    doc="np.median, np.quantile, np.percentile or their nan- forms (attrs['fn']) of "
        "input 0, NumPy's function whole"))


def _quantile_op(fn: str, t: Tensor, axis: Any, keepdims: bool, **kw: Any) -> Tensor:
    """The ``numpy_quantile`` node of ``t`` (its arguments checked by NumPy on
    zeros, which also gives the dtype of a lane without NaNs)."""
    args = () if "q" not in kw else (_q_value(kw["q"]),)
    probe_kw = {"axis": axis, "keepdims": keepdims, **({"method": kw["method"]} if args else {})}
    dtype = np.asarray(_probe(getattr(np, fn), t, *args, **probe_kw)).dtype
    ax = None if axis is None else normalize_axis_tuple(axis, t.ndim)
    return Tensor(ops.apply("numpy_quantile", [t._node], fn=fn, axis=ax,
                            keepdims=bool(keepdims), dtype=dtype, **kw))


def _quantile_entry(fn: Callable[..., Any], a: Any, q: Any, axis: Any, method: str,
                    keepdims: bool, weights: Any, *, percent: bool, nan: bool) -> Tensor:
    """quantile, percentile and their NaN-skipping forms, as NumPy composes
    them: q checked (by value: a tensor q is evaluated), then the values
    reduced as one merged axis, moved first."""
    t = wrap(a)
    weak = type(q) in (int, float)
    qv = _concrete(q) if isinstance(q, Tensor) else q
    # NumPy's own checks: real input, q's range, the method, the axes, q's
    # rank; with weights, in NumPy's order: those (a method that takes any
    # array), then the method, the weights, and last the rest (an empty
    # axis: inverted_cdf's IndexError)
    if weights is None:
        _probe(fn, t, q=qv, axis=axis, method=method, keepdims=keepdims)
    else:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(np.zeros((1,) * t.ndim, t.dtype), qv)           # (no axis checked yet)
    wv = None
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        if not nan:
            axes_n = None if axis is None else normalize_axis_tuple(axis, t.ndim, argname="axis")
            wv = _quantile_weights(_concrete(weights), t.shape, axes_n)
        _probe(fn, t, q=qv, axis=axis, method=method, keepdims=keepdims)
        if nan:
            # NumPy drops each lane's NaNs with their weights and raises when
            # the weights left sum to zero: that needs the values, so the
            # whole function runs now, in NumPy.
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return asarray(fn(np.asarray(t), qv, axis=axis, method=method,
                                  keepdims=keepdims, weights=_concrete(weights)))
    if (nan and t.dtype.kind in "fc") or _length_at_call(t, axis):
        return _quantile_op(fn.__name__, t, axis, keepdims, q=_q_attr(qv), method=method)
    if nan and t.size == 0:
        return nanmean(t, axis, keepdims=keepdims)
    qa = np.true_divide(qv, 100, out=...) if percent else np.asanyarray(qv)
    x, ax, axes = _ureduce(t, axis)
    arr = F.moveaxis(x, ax, 0) if ax else x
    if wv is not None:
        r = _quantile_weighted(arr, qa, _lanes_first(wv, axis))
    else:
        r = _quantile_along0(arr, qa, method, weak)
    if nan and qa.ndim > 1 and len(axes) > 1 and x.ndim > 1:
        # NumPy's nanquantile puts q's axes first with moveaxis from
        # ``axis + i``, ``axis`` being -1 after several axes merged: q's
        # first axes are then taken from the values' (as NumPy does).
        rq = F.moveaxis(r, list(range(qa.ndim)), list(range(arr.ndim - 1, r.ndim)))
        r = F.moveaxis(rq, [-1 + i for i in range(qa.ndim)], list(range(qa.ndim)))
    return _keepdims(r, t.ndim, axes, keepdims)


@numpy_out(np.quantile)
@ops.reports("quantile")
def quantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
             method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Tensor:
    """NumPy's ``quantile``, every method (weights with ``inverted_cdf``):
    the indexes from ``q`` and the length, computed now; the values
    partitioned there and interpolated with NumPy's ``_lerp``, lazily.
    Weights are checked by value (evaluated)."""
    return _quantile_entry(np.quantile, a, q, axis, method, keepdims, weights,
                           percent=False, nan=False)


@numpy_out(np.percentile)
@ops.reports("percentile")
def percentile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
               method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Tensor:
    """``quantile`` of ``q / 100``."""
    return _quantile_entry(np.percentile, a, q, axis, method, keepdims, weights,
                           percent=True, nan=False)


@numpy_out(np.nanquantile)
@ops.reports("nanquantile")
def nanquantile(a: Any, q: Any, axis: Any = None, out: Any = None,
                overwrite_input: bool = False, method: str = "linear", keepdims: bool = False,
                *, weights: Any = None) -> Tensor:
    """NumPy's ``nanquantile``: for floats one op running NumPy's (which
    value NumPy returns depends on where the NaNs are); for other dtypes
    ``quantile``.  With weights on floats it runs NumPy's now (which weights
    remain depends on the values).  Where NumPy's result dtype depends on the
    data (an all-NaN lane with a q array wider than ``a``) the dtype of the
    other lanes holds."""
    return _quantile_entry(np.nanquantile, a, q, axis, method, keepdims, weights,
                           percent=False, nan=True)


@numpy_out(np.nanpercentile)
@ops.reports("nanpercentile")
def nanpercentile(a: Any, q: Any, axis: Any = None, out: Any = None,
                  overwrite_input: bool = False, method: str = "linear", keepdims: bool = False,
                  *, weights: Any = None) -> Tensor:
    """``nanquantile`` of ``q / 100``."""
    return _quantile_entry(np.nanpercentile, a, q, axis, method, keepdims, weights,
                           percent=True, nan=True)


@numpy_out(np.nanmedian)
@ops.reports("nanmedian")
def nanmedian(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
              keepdims: bool = False) -> Tensor:
    """NumPy's ``nanmedian``: for floats one op running NumPy's (the median
    of each lane's non-NaN values, which NumPy averages in two ways by lane
    length); for other dtypes ``median``, which NumPy's every path equals."""
    t = wrap(a)
    if t.dtype.kind not in "fc":
        if t.size == 0:                      # NumPy: nanmean of the empty array
            return nanmean(t, axis, keepdims=keepdims)
        _probe(np.nanmedian, t, axis=axis, keepdims=keepdims)
        return median(t, axis=axis, keepdims=keepdims)
    return _quantile_op("nanmedian", t, axis, keepdims)


# ------------------------------------------------------------------ counting (evaluated)

def _eager(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """``fn`` (NumPy's) on the values of ``args`` now: for functions whose
    result's shape (or whose errors) depend on the values."""
    got = values_now(*args, *kw.values())           # (one plan for all of them)
    return fn(*got[:len(args)], **dict(zip(kw, got[len(args):])))


@ops.reports("histogram")
def histogram(a: Any, bins: Any = 10, range: Any = None, density: Any = None,
              weights: Any = None) -> tuple[Tensor, Tensor]:
    """NumPy's ``histogram``: counts and bin edges.  Evaluates ``a`` (the
    edges come from its range, and NumPy checks it is finite)."""
    hist, edges = _eager(np.histogram, a, bins=bins, range=range,
                         density=density, weights=weights)
    return asarray(hist), asarray(edges)


@ops.reports("histogram2d")
def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: Any = None,
                weights: Any = None) -> tuple[Tensor, Tensor, Tensor]:
    """NumPy's ``histogram2d``: counts and both axes' edges (evaluates its
    inputs, as ``histogram``)."""
    hist, xe, ye = _eager(np.histogram2d, x, y, bins=bins, range=range, density=density,
                          weights=weights)
    return asarray(hist), asarray(xe), asarray(ye)


@ops.reports("histogramdd")
def histogramdd(sample: Any, bins: Any = 10, range: Any = None, density: Any = None,
                weights: Any = None) -> tuple[Tensor, list[Tensor]]:
    """NumPy's ``histogramdd``: counts and each axis' edges (evaluates the
    sample: an (N, D) array or a sequence of D coordinate arrays)."""
    if isinstance(sample, (list, tuple)):
        sample = [_concrete(s) if isinstance(s, Tensor) else s for s in sample]
    hist, edges = _eager(np.histogramdd, sample, bins=bins, range=range, density=density,
                         weights=weights)
    return asarray(hist), [asarray(e) for e in edges]


@ops.reports("histogram_bin_edges")
def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None,
                        weights: Any = None) -> Tensor:
    """NumPy's ``histogram_bin_edges`` (evaluates ``a``)."""
    return asarray(_eager(np.histogram_bin_edges, a, bins=bins,
                          range=range, weights=weights))


@ops.reports("bincount")
def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """NumPy's ``bincount``: its length is the largest value, so ``x`` (and
    the weights) are evaluated."""
    return asarray(_eager(np.bincount, x, weights=weights, minlength=minlength))


def _monotonicity(bins: np.ndarray[Any, Any]) -> int:
    """NumPy's ``_monotonicity`` (C): 1 rising, -1 falling, 0 neither, read
    as NumPy reads it (equal leading values skipped; a NaN compares false)."""
    b = np.asarray(bins)
    if not np.can_cast(b.dtype, np.float64, "safe"):      # (NumPy's C reads them so)
        raise TypeError(f"Cannot cast array data from {b.dtype!r} to dtype('float64') "
                        f"according to the rule 'safe'")
    b = b.astype(np.float64, copy=False)
    if b.ndim != 1:
        raise ValueError("object too deep for desired array" if b.ndim > 1 else
                         "object of too small depth for desired array")
    n = len(b)
    if n == 0:
        return 1
    i = 1
    while i < n and b[i] == b[i - 1]:
        i += 1
    if i == n:
        return 1
    last, nxt = b[i - 1], b[i]
    rising = last < nxt
    for k in range(i + 1, n):
        last, nxt = nxt, b[k]
        if (rising and last > nxt) or (not rising and last < nxt):
            return 0
    return 1 if rising else -1


@ops.reports("digitize")
def digitize(x: Any, bins: Any, right: bool = False) -> Tensor:
    """NumPy's ``digitize``: ``searchsorted`` of ``x`` into the bins (reversed
    for falling bins), lazily in ``x``.  The bins are checked by value
    (monotonic), so a tensor of bins is evaluated."""
    t = wrap(x)
    b = _concrete(bins)
    if t.dtype.kind == "c":
        raise TypeError("x may not be complex")
    mono = _monotonicity(b)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        return len(b) - searchsorted(asarray(b[::-1]), t, side=side)
    return searchsorted(asarray(b), t, side=side)


@ops.reports("interp")
def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None,
           period: Any = None) -> Tensor:
    """NumPy's ``interp`` as one op (its C search and formula): float64, or
    complex128 for complex ``fp``."""
    # Scalars: a 0-d array or tensor is read now, as NumPy reads it.
    left, right, period = (_concrete(v)[()] if isinstance(v, (Tensor, np.ndarray))
                           and np.ndim(v) == 0 else v for v in (left, right, period))
    return Tensor(ops.apply("interp", [wrap(v)._node for v in (x, xp, fp)], left=left,
                            right=right, period=period))


# ------------------------------------------------------------------ differences and integrals

@ops.reports("trapezoid")
def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Tensor:
    """NumPy's ``trapezoid``: ``sum(d * (y[1:] + y[:-1]) / 2.0)`` along
    ``axis``, ``d`` the spacing ``dx`` or ``diff(x)``."""
    yt = wrap(y)
    d: Any
    if x is None:
        d = dx
    else:
        xt = wrap(x)
        if xt.ndim == 1:
            d = diff(xt)
            shape = [1] * yt.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(xt, axis=axis)
    nd = yt.ndim
    slice1: list[Any] = [slice(None)] * nd
    slice2: list[Any] = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    return F.sum(d * (yt[tuple(slice1)] + yt[tuple(slice2)]) / 2.0, axis=axis)


def _dx_list(f: Tensor, axes: tuple[int, ...], varargs: tuple[Any, ...]) -> list[Any]:
    """``gradient``'s spacings, as NumPy reads them: a scalar, or per axis a
    scalar or coordinates (whose differences, if all equal, are one scalar)."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and np.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, distances in enumerate(dx):
        distances = _concrete(distances)
        if distances.ndim == 0:
            continue
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(distances) != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding "
                             "dimension")
        if np.issubdtype(distances.dtype, np.integer):
            distances = distances.astype(np.float64)
        diffx = np.diff(distances)
        dx[i] = diffx[0] if (diffx == diffx[0]).all() else diffx
    return dx


def _shaped(c: Any, axis: int, nd: int) -> Any:
    """Coefficients along ``axis`` (NumPy reshapes them to broadcast)."""
    shape = [1] * nd
    shape[axis] = -1
    return asarray(np.reshape(c, shape))


@ops.reports("gradient")
def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """NumPy's ``gradient``: central differences inside, one-sided ones (first
    or second order) at the edges, each with NumPy's formula and spacing,
    joined along the axis; float64 for integers.  A tuple for several axes."""
    t = orig = wrap(f)
    nd = t.ndim
    axes = tuple(range(nd)) if axis is None else normalize_axis_tuple(axis, nd)
    dx = _dx_list(t, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = t.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            t = F.astype(t, np.float64)
        otype = np.dtype(np.float64)

    for ax in axes:
        if call_sized(t, ax):
            # A None dimension's length is known only when a compiled
            # function specializes for a call: the check is then a node's
            # shape rule, made again there, under every axis' result (NumPy
            # raises for the call whichever of them is used).
            t = Tensor(ops.apply("gradient_length", [t._node], axis=ax, edge_order=edge_order))

    def at(ax: int, item: Any) -> Tensor:
        return t[_along(ax, item)]

    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if t.shape[ax] < edge_order + 1:       # (in NumPy's loop: after the axes before)
            raise ValueError(_GRADIENT_TOO_SHORT)
        uniform = np.ndim(ax_dx) == 0
        if uniform:
            inner = (at(ax, slice(2, None)) - at(ax, slice(None, -2))) / (2.0 * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            a = -dx2 / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            inner = (_shaped(a, ax, nd) * at(ax, slice(None, -2))
                     + _shaped(b, ax, nd) * at(ax, slice(1, -1))
                     + _shaped(c, ax, nd) * at(ax, slice(2, None)))
        # The edges as length-1 views (NumPy writes out[0] and out[-1]), taken
        # by an integer and a new axis.
        first, second, last, last2 = (
            t[(slice(None),) * ax + (k, None)] for k in (0, 1, -1, -2))
        if edge_order == 1:
            dx_0 = ax_dx if uniform else ax_dx[0]
            dx_n = ax_dx if uniform else ax_dx[-1]
            head = (second - first) / dx_0
            tail = (last - last2) / dx_n
        else:
            third, last3 = (t[(slice(None),) * ax + (k, None)] for k in (2, -3))
            if uniform:
                a0, b0, c0 = -1.5 / ax_dx, 2.0 / ax_dx, -0.5 / ax_dx
                a1, b1, c1 = 0.5 / ax_dx, -2.0 / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a0 = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b0 = (dx1 + dx2) / (dx1 * dx2)
                c0 = -dx1 / (dx2 * (dx1 + dx2))
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a1 = dx2 / (dx1 * (dx1 + dx2))
                b1 = -(dx2 + dx1) / (dx1 * dx2)
                c1 = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2))
            head = a0 * first + b0 * second + c0 * third
            tail = a1 * last3 + b1 * last2 + c1 * last
        parts = [F.astype(p, otype, copy=False) for p in (head, inner, tail)]
        # (NumPy fills ``np.empty_like(f)``: "K" of ``f``, a broadcast
        # operand's axes kept in their memory order)
        from .memory import filled_array
        outvals.append(filled_array(F.concat(parts, axis=ax), "K", orig,
                                    orig.dtype if orig.dtype.kind in "fc" else None))
    return outvals[0] if len(axes) == 1 else tuple(outvals)


@ops.reports("ediff1d")
def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Tensor:
    """NumPy's ``ediff1d``: ``ary.ravel()[1:] - [:-1]``, with ``to_begin`` and
    ``to_end`` (castable under ``same_kind``) joined around it, in ``ary``'s
    dtype."""
    t = wrap(ary).reshape(-1)
    d = t[1:] - t[:-1]
    if to_begin is None and to_end is None:
        return d
    dt = t.dtype
    parts: list[Tensor | None] = []
    for extra, what in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            parts.append(None)
            continue
        e = extra if isinstance(extra, Tensor) else np.asanyarray(extra)
        if not np.can_cast(e.dtype, dt, casting="same_kind"):
            raise TypeError(f"dtype of `{what}` must be compatible with input `ary` under the "
                            f"`same_kind` rule.")
        parts.append(F.astype(wrap(e).reshape(-1), dt, copy=False))
    head, tail = parts
    return F.concat([p for p in (head, F.astype(d, dt, copy=False), tail) if p is not None])


@ops.reports("convolve")
def convolve(a: Any, v: Any, mode: str = "full") -> Tensor:
    """NumPy's ``convolve`` as one op (its dot-product loop)."""
    return Tensor(ops.apply("convolve", [wrap(a)._node, wrap(v)._node], op="convolve",
                            mode=mode))


@ops.reports("correlate")
def correlate(a: Any, v: Any, mode: str = "valid") -> Tensor:
    """NumPy's ``correlate`` as one op (``v`` conjugated, as NumPy does)."""
    return Tensor(ops.apply("convolve", [wrap(a)._node, wrap(v)._node], op="correlate",
                            mode=mode))
