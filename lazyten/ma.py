"""``lt.ma``: lazy masked tensors with ``numpy.ma`` semantics.

A ``MaskedTensor`` is two lazy tensors, ``data`` and a boolean ``mask`` of the
same shape (``True`` = invalid), and a ``fill_value``.  Everything is built
from core ops (``where``, comparisons, reductions), so masked computations
fuse and optimize like any other graph; ``eval()`` computes data and mask in
one plan and returns a ``numpy.ma.MaskedArray``.

The mask is always a full boolean tensor (NumPy's ``nomask`` shortcut is not
modelled): results equal ``numpy.ma`` on an array whose mask is an explicit
array, which is what ``numpy.ma``'s ``masked_*`` functions produce.  Result
dtypes are ``numpy.ma``'s own, found by probing ``numpy.ma`` on a tiny masked
array (so, e.g., the masked mean of float32 data is float64, as in NumPy).

>>> import lazyten as lt
>>> m = lt.ma.masked_greater(lt.asarray([1.0, 5.0, 2.0, 9.0]), 4.0)
>>> m.eval()
masked_array(data=[1.0, --, 2.0, --],
             mask=[False,  True, False,  True],
       fill_value=1e+20)
>>> float(m.sum().data), int(m.count())
(3.0, 2)
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import functions as F
from .creation import zeros
from .graph import shapes as S
from .tensor import Tensor, wrap

__all__ = ["MaskedTensor", "array", "masked_array", "masked_equal", "masked_not_equal",
           "masked_greater", "masked_greater_equal", "masked_less", "masked_less_equal",
           "masked_inside", "masked_outside", "masked_where", "masked_invalid", "filled",
           "count", "compressed", "getdata", "getmask", "getmaskarray", "is_masked",
           "sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax",
           "sqrt", "log", "exp", "abs", "default_fill_value"]

_TINY = float(np.finfo(float).tiny)  # numpy.ma's tolerance for "division by zero"


def default_fill_value(dtype: Any) -> Any:
    """``numpy.ma``'s default fill value for a dtype (1e20, 999999, True, ...)."""
    return np.ma.default_fill_value(np.dtype(dtype))


def _probe(dtype: np.dtype[Any], fn: Callable[[Any], Any]) -> np.dtype[Any]:
    """The dtype ``numpy.ma`` gives ``fn`` on a tiny partly masked array of ``dtype``."""
    probe = np.ma.array(np.ones((2, 2), dtype), mask=[[False, True], [False, False]])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(fn(probe)).dtype


class MaskedTensor:
    """A lazy masked array: ``data`` and ``mask`` tensors and a ``fill_value``.

    >>> import lazyten as lt
    >>> m = lt.ma.masked_array([1, 2, 3], mask=[False, True, False])
    >>> (m * 10).filled(0).eval()
    array([10,  0, 30])
    """

    __slots__ = ("_data", "_mask", "_fill_value")

    # Tensor/ndarray op MaskedTensor -> our reflected operators (NumPy's protocol).
    __array_priority__ = 1001.0
    __array_ufunc__ = None

    def __init__(self, data: Tensor, mask: Tensor, fill_value: Any = None) -> None:
        if mask.shape != data.shape:
            mask = F.broadcast_to(mask, data.shape)
        if mask.dtype != np.bool_:
            mask = mask.astype(np.bool_)
        self._data = data
        self._mask = mask
        self._fill_value = fill_value

    # ------------------------------------------------------------ metadata
    @property
    def data(self) -> Tensor:
        """The underlying values (masked positions hold whatever is there)."""
        return self._data

    @property
    def mask(self) -> Tensor:
        return self._mask

    @property
    def fill_value(self) -> Any:
        fv = self._fill_value
        if fv is None:
            return default_fill_value(self.dtype)
        return np.asarray(fv).astype(self.dtype)[()]

    @property
    def shape(self) -> tuple[int, ...]:
        return self._data.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._data.dtype

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return self._data.size

    def __len__(self) -> int:
        return len(self._data)

    # ------------------------------------------------------------ forcing
    def eval(self) -> np.ma.MaskedArray:
        """Data and mask in one plan, as a ``numpy.ma.MaskedArray``."""
        from . import compute
        d, m = compute(self._data, self._mask)
        return np.ma.MaskedArray(d, mask=m, fill_value=self.fill_value)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        # Like np.asarray(masked_array): the data, mask dropped.
        v = self._data.eval()
        return v if dtype is None else v.astype(dtype)

    def __repr__(self) -> str:
        return repr(self.eval())

    def __str__(self) -> str:
        return str(self.eval())

    # ------------------------------------------------------------ conversions
    def filled(self, fill_value: Any = None) -> Tensor:
        """A plain tensor with masked positions replaced by ``fill_value``."""
        return filled(self, fill_value)

    def count(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return count(self, axis, keepdims)

    def compressed(self) -> Tensor:
        return compressed(self)

    # ------------------------------------------------------------ views
    def _both(self, fn: Callable[[Tensor], Tensor]) -> MaskedTensor:
        return MaskedTensor(fn(self._data), fn(self._mask), self._fill_value)

    def __getitem__(self, index: Any) -> MaskedTensor:
        return self._both(lambda t: t[index])

    @property
    def T(self) -> MaskedTensor:
        return self._both(lambda t: t.T)

    def reshape(self, *shape: Any) -> MaskedTensor:
        return self._both(lambda t: t.reshape(*shape))

    def astype(self, dtype: Any) -> MaskedTensor:
        return MaskedTensor(self._data.astype(dtype), self._mask)

    # ------------------------------------------------------------ reductions
    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
        return sum(self, axis, dtype, keepdims)

    def prod(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
        return prod(self, axis, dtype, keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> MaskedTensor:
        return mean(self, axis, keepdims)

    def var(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> MaskedTensor:
        return var(self, axis, ddof, keepdims)

    def std(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> MaskedTensor:
        return std(self, axis, ddof, keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> MaskedTensor:
        return min(self, axis, keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> MaskedTensor:
        return max(self, axis, keepdims)

    def argmin(self, axis: int | None = None, keepdims: bool = False) -> Tensor:
        return argmin(self, axis, keepdims)

    def argmax(self, axis: int | None = None, keepdims: bool = False) -> Tensor:
        return argmax(self, axis, keepdims)

    # ------------------------------------------------------------ arithmetic
    def _bin(self, name: str, other: Any, reflected: bool = False) -> MaskedTensor:
        a, b = (other, self) if reflected else (self, other)
        return _binary(name, a, b)

    def __add__(self, o: Any) -> MaskedTensor: return self._bin("add", o)
    def __radd__(self, o: Any) -> MaskedTensor: return self._bin("add", o, True)
    def __sub__(self, o: Any) -> MaskedTensor: return self._bin("subtract", o)
    def __rsub__(self, o: Any) -> MaskedTensor: return self._bin("subtract", o, True)
    def __mul__(self, o: Any) -> MaskedTensor: return self._bin("multiply", o)
    def __rmul__(self, o: Any) -> MaskedTensor: return self._bin("multiply", o, True)
    def __truediv__(self, o: Any) -> MaskedTensor: return self._bin("divide", o)
    def __rtruediv__(self, o: Any) -> MaskedTensor: return self._bin("divide", o, True)
    def __floordiv__(self, o: Any) -> MaskedTensor: return self._bin("floor_divide", o)
    def __rfloordiv__(self, o: Any) -> MaskedTensor: return self._bin("floor_divide", o, True)
    def __mod__(self, o: Any) -> MaskedTensor: return self._bin("remainder", o)
    def __rmod__(self, o: Any) -> MaskedTensor: return self._bin("remainder", o, True)
    def __pow__(self, o: Any) -> MaskedTensor: return self._bin("pow", o)
    def __rpow__(self, o: Any) -> MaskedTensor: return self._bin("pow", o, True)
    def __lt__(self, o: Any) -> MaskedTensor: return self._bin("less", o)
    def __le__(self, o: Any) -> MaskedTensor: return self._bin("less_equal", o)
    def __gt__(self, o: Any) -> MaskedTensor: return self._bin("greater", o)
    def __ge__(self, o: Any) -> MaskedTensor: return self._bin("greater_equal", o)
    def __eq__(self, o: Any) -> MaskedTensor: return self._bin("equal", o)  # type: ignore[override]
    def __ne__(self, o: Any) -> MaskedTensor:  # type: ignore[override]
        return self._bin("not_equal", o)

    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> MaskedTensor:
        return MaskedTensor(-self._data, self._mask, self._fill_value)

    def __abs__(self) -> MaskedTensor:
        return MaskedTensor(F.ELEMENTWISE["abs"](self._data), self._mask, self._fill_value)


# ---------------------------------------------------------------- helpers

def _parts(x: Any) -> tuple[Tensor | Any, Tensor | None]:
    """(data, mask or None) of an operand.

    ``numpy.ma`` turns a Python scalar into a 0-d array (``getdata(2)``) before
    the ufunc sees it, so it is *not* weak as NEP 50 would make it: a masked
    int32 array times 2 is int64.  A NumPy scalar (a strong constant) does the same.
    """
    if isinstance(x, MaskedTensor):
        return x._data, x._mask
    if isinstance(x, np.ma.MaskedArray):
        return wrap(np.ma.getdata(x)), wrap(np.ma.getmaskarray(x))
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        return np.asarray(x)[()], None
    return wrap(x), None


def _or(*masks: Tensor | None) -> Tensor | None:
    out: Tensor | None = None
    for m in masks:
        if m is not None:
            out = m if out is None else out | m
    return out


# numpy.ma's domains: where an operation is undefined the result is masked.
def _divide_domain(a: Any, b: Any) -> Tensor:
    return F.ELEMENTWISE["abs"](a) * _TINY >= F.ELEMENTWISE["abs"](b)


_DOMAINS: dict[str, Callable[[Any, Any], Tensor]] = {
    "divide": _divide_domain, "floor_divide": _divide_domain, "remainder": _divide_domain,
}


def _binary(name: str, a: Any, b: Any) -> MaskedTensor:
    """``numpy.ma``'s binary operation: masks or'ed (plus the op's domain), and
    the first operand's data kept under the mask."""
    da, ma = _parts(a)
    db, mb = _parts(b)
    res = F._apply_elementwise(name, da, db)
    dom = _DOMAINS.get(name)
    m = _or(ma, mb, dom(da, db) if dom is not None else None)
    if m is None:
        m = zeros(res.shape, dtype=np.bool_)
    elif m.shape != res.shape:
        m = F.broadcast_to(m, res.shape)
    if isinstance(da, Tensor) and np.can_cast(da.dtype, res.dtype, "same_kind"):
        res = F.where(m, da, res)
    fv = a._fill_value if isinstance(a, MaskedTensor) and a.dtype.kind == res.dtype.kind \
        else None
    return MaskedTensor(res, m, fv)


def _unary(name: str, x: Any, domain: Callable[[Tensor], Tensor] | None) -> MaskedTensor:
    d, m = _parts(masked_array(x) if not isinstance(x, MaskedTensor) else x)
    assert isinstance(d, Tensor)
    res = F.ELEMENTWISE[name](d)
    mm = _or(m, domain(d) if domain is not None else None)
    assert mm is not None
    if np.can_cast(d.dtype, res.dtype, "same_kind"):
        res = F.where(mm, d, res)
    return MaskedTensor(res, mm)


def sqrt(x: Any) -> MaskedTensor:
    """Square root; negative values are masked (``numpy.ma.sqrt``)."""
    return _unary("sqrt", x, lambda d: d < 0)


def log(x: Any) -> MaskedTensor:
    """Natural log; values <= 0 are masked (``numpy.ma.log``)."""
    return _unary("log", x, lambda d: d <= 0)


def exp(x: Any) -> MaskedTensor:
    return _unary("exp", x, None)


def abs(x: Any) -> MaskedTensor:  # noqa: A001 - numpy.ma's name
    return _unary("abs", x, None)


# ---------------------------------------------------------------- construction

def masked_array(data: Any, mask: Any = False, fill_value: Any = None,
                 dtype: Any = None) -> MaskedTensor:
    """A masked tensor from data and a mask (broadcast to the data's shape).

    >>> import lazyten as lt
    >>> lt.ma.masked_array([1.0, 2.0], mask=[True, False]).eval()
    masked_array(data=[--, 2.0],
                 mask=[ True, False],
           fill_value=1e+20)
    """
    if isinstance(data, MaskedTensor):
        d, m0 = data._data, data._mask
        fill_value = data._fill_value if fill_value is None else fill_value
    elif isinstance(data, np.ma.MaskedArray):
        d, m0 = wrap(np.ma.getdata(data)), wrap(np.ma.getmaskarray(data))
        if fill_value is None and getattr(data, "_fill_value", None) is not None:
            fill_value = data.fill_value
    else:
        d, m0 = wrap(data), None
    if dtype is not None:
        d = d.astype(dtype)
    m = wrap(mask)
    try:
        S.broadcast_shapes(m.shape, d.shape)
        if S.broadcast_shapes(m.shape, d.shape) != d.shape:
            raise ValueError
    except ValueError:
        raise np.ma.MAError(f"masked_array: mask of shape {m.shape} does not fit data of "
                            f"shape {d.shape}") from None
    m = F.broadcast_to(m.astype(np.bool_), d.shape)
    if m0 is not None:
        m = m0 | m
    return MaskedTensor(d, m, fill_value)


array = masked_array


def masked_where(condition: Any, a: Any) -> MaskedTensor:
    """Mask ``a`` where ``condition`` is true (or'ed with ``a``'s own mask).

    >>> import lazyten as lt
    >>> a = lt.arange(4)
    >>> lt.ma.masked_where(a <= 2, a).eval()
    masked_array(data=[--, --, --, 3],
                 mask=[ True,  True,  True, False],
           fill_value=999999)
    """
    d, m = _parts(a) if isinstance(a, (MaskedTensor, np.ma.MaskedArray)) else (wrap(a), None)
    assert isinstance(d, Tensor)
    cond = wrap(condition)
    if cond.shape != d.shape:
        raise IndexError(f"masked_where: inconsistent shape between the condition "
                         f"{cond.shape} and the input {d.shape}")
    fv = a._fill_value if isinstance(a, MaskedTensor) else None
    return MaskedTensor(d, _or(cond.astype(np.bool_), m), fv)  # type: ignore[arg-type]


def _base(x: Any) -> Tensor:
    return x._data if isinstance(x, MaskedTensor) else wrap(x)


def masked_equal(x: Any, value: Any) -> MaskedTensor:
    """Mask where ``x == value``; the fill value becomes ``value`` (as NumPy does)."""
    out = masked_where(_base(x) == value, x)
    out._fill_value = value
    return out


def masked_not_equal(x: Any, value: Any) -> MaskedTensor:
    return masked_where(_base(x) != value, x)


def masked_greater(x: Any, value: Any) -> MaskedTensor:
    return masked_where(_base(x) > value, x)


def masked_greater_equal(x: Any, value: Any) -> MaskedTensor:
    return masked_where(_base(x) >= value, x)


def masked_less(x: Any, value: Any) -> MaskedTensor:
    return masked_where(_base(x) < value, x)


def masked_less_equal(x: Any, value: Any) -> MaskedTensor:
    return masked_where(_base(x) <= value, x)


def masked_inside(x: Any, v1: Any, v2: Any) -> MaskedTensor:
    """Mask values in the closed interval ``[v1, v2]`` (either order)."""
    if v2 < v1:
        v1, v2 = v2, v1
    d = _base(x)
    return masked_where((d >= v1) & (d <= v2), x)


def masked_outside(x: Any, v1: Any, v2: Any) -> MaskedTensor:
    """Mask values outside the closed interval ``[v1, v2]`` (either order)."""
    if v2 < v1:
        v1, v2 = v2, v1
    d = _base(x)
    return masked_where((d < v1) | (d > v2), x)


def masked_invalid(a: Any) -> MaskedTensor:
    """Mask NaN and infinities."""
    d = _base(a)
    return masked_where(~F.ELEMENTWISE["isfinite"](d), a)


# ---------------------------------------------------------------- queries

def getdata(a: Any) -> Tensor:
    return _base(a)


def getmaskarray(a: Any) -> Tensor:
    if isinstance(a, MaskedTensor):
        return a._mask
    return zeros(wrap(a).shape, dtype=np.bool_)


getmask = getmaskarray  # lazyten's masks are always full arrays


def is_masked(x: Any) -> bool:
    """Whether any element is masked (forces the mask)."""
    return isinstance(x, MaskedTensor) and bool(F.any(x._mask))


def filled(a: Any, fill_value: Any = None) -> Tensor:
    """``a`` with masked positions replaced by ``fill_value`` (``a.fill_value``
    when None).  Plain tensors pass through."""
    if not isinstance(a, MaskedTensor):
        return wrap(a)
    fv = a.fill_value if fill_value is None else fill_value
    fv = np.asarray(fv).astype(a.dtype)[()]  # numpy.ma casts the fill value to the dtype
    return F.where(a._mask, fv, a._data)


def count(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The number of unmasked elements (along ``axis``), as int64 (NumPy's intp)."""
    if not isinstance(a, MaskedTensor):
        a = masked_array(a)
    return F.sum(~a._mask, axis=axis, keepdims=keepdims, dtype=np.intp)


def compressed(a: Any) -> Tensor:
    """The unmasked values as a 1-d tensor.  Forces evaluation: the result's
    length depends on the mask's values."""
    if not isinstance(a, MaskedTensor):
        return wrap(a).reshape(-1)
    from . import compute
    from .creation import asarray
    d, m = compute(a._data, a._mask)
    return asarray(d[~m])


# ---------------------------------------------------------------- reductions

def _reduced_mask(a: MaskedTensor, axis: Any, keepdims: bool) -> Tensor:
    return F.all(a._mask, axis=axis, keepdims=keepdims)


def _cast(t: Tensor, dt: np.dtype[Any]) -> Tensor:
    return t if t.dtype == dt else t.astype(dt)


def _axis_kw(axis: Any) -> Any:
    return 0 if axis is not None else None


def _masked(a: Any) -> MaskedTensor:
    return a if isinstance(a, MaskedTensor) else masked_array(a)


def sum(a: Any, axis: Any = None, dtype: Any = None,  # noqa: A001 - numpy.ma's name
        keepdims: bool = False) -> MaskedTensor:
    """Sum of the unmasked elements; masked where every element was masked.

    >>> import lazyten as lt
    >>> m = lt.ma.masked_array([[1, 2], [3, 4]], mask=[[0, 1], [1, 1]])
    >>> m.sum(axis=0).eval()
    masked_array(data=[1, --],
                 mask=[False,  True],
           fill_value=999999)
    """
    a = _masked(a)
    d = F.sum(F.where(a._mask, 0, a._data), axis=axis, dtype=dtype, keepdims=keepdims)
    return MaskedTensor(d, _reduced_mask(a, axis, keepdims))


def prod(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
    a = _masked(a)
    d = F.prod(F.where(a._mask, 1, a._data), axis=axis, dtype=dtype, keepdims=keepdims)
    return MaskedTensor(d, _reduced_mask(a, axis, keepdims))


def mean(a: Any, axis: Any = None, keepdims: bool = False) -> MaskedTensor:
    """Mean of the unmasked elements (``numpy.ma``'s dtype: float64 for ints and,
    as ``numpy.ma`` divides by an intp count, for float32 too)."""
    a = _masked(a)
    dt = _probe(a.dtype, lambda p: p.mean(axis=_axis_kw(axis)))
    acc = np.float64 if a.dtype.kind in "biu" else None
    s = F.sum(F.where(a._mask, 0, a._data), axis=axis, dtype=acc, keepdims=keepdims)
    n = count(a, axis, keepdims)
    # Fully masked slices divide by 1, not 0: their result is masked anyway,
    # and no divide-by-zero warning escapes.
    return MaskedTensor(_cast(s / _nonzero(n), dt), _reduced_mask(a, axis, keepdims))


def _nonzero(n: Tensor) -> Tensor:
    return F.where(n > 0, n, 1)


def var(a: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> MaskedTensor:
    """Variance of the unmasked elements; masked where fewer than ``ddof + 1``."""
    a = _masked(a)
    ddof = operator.index(ddof)
    dt = _probe(a.dtype, lambda p: p.var(axis=_axis_kw(axis), ddof=0))
    acc = np.float64 if a.dtype.kind in "biu" else None
    s = F.sum(F.where(a._mask, 0, a._data), axis=axis, dtype=acc, keepdims=True)
    n_keep = count(a, axis, keepdims=True)
    dev = F.where(a._mask, 0, a._data - s / _nonzero(n_keep))
    sq = F.ELEMENTWISE["abs"](dev) ** 2 if dev.dtype.kind == "c" else dev * dev
    cnt = count(a, axis, keepdims) - ddof
    v = F.sum(sq, axis=axis, keepdims=keepdims) / _nonzero(cnt)
    m = _reduced_mask(a, axis, keepdims) | (cnt <= 0)
    return MaskedTensor(_cast(v, dt), m)


def std(a: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> MaskedTensor:
    v = var(a, axis, ddof, keepdims)
    a = _masked(a)
    dt = _probe(a.dtype, lambda p: p.std(axis=_axis_kw(axis), ddof=0))
    return MaskedTensor(_cast(F.ELEMENTWISE["sqrt"](v._data), dt), v._mask)


def _extreme(a: Any, axis: Any, keepdims: bool, lowest: bool) -> MaskedTensor:
    a = _masked(a)
    probe = np.zeros(1, a.dtype)
    fv = np.ma.minimum_fill_value(probe) if lowest else np.ma.maximum_fill_value(probe)
    red = F.min if lowest else F.max
    d = red(F.where(a._mask, np.asarray(fv, a.dtype)[()], a._data), axis=axis,
            keepdims=keepdims)
    return MaskedTensor(d, _reduced_mask(a, axis, keepdims))


def min(a: Any, axis: Any = None, keepdims: bool = False) -> MaskedTensor:  # noqa: A001
    """Minimum of the unmasked elements; masked where every element was masked."""
    return _extreme(a, axis, keepdims, lowest=True)


def max(a: Any, axis: Any = None, keepdims: bool = False) -> MaskedTensor:  # noqa: A001
    """Maximum of the unmasked elements; masked where every element was masked."""
    return _extreme(a, axis, keepdims, lowest=False)


def argmin(a: Any, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Index of the smallest unmasked element (a plain tensor, as in NumPy: masked
    elements are filled with the dtype's largest value first)."""
    a = _masked(a)
    fv = np.ma.minimum_fill_value(np.zeros(1, a.dtype))
    return F.argmin(F.where(a._mask, np.asarray(fv, a.dtype)[()], a._data), axis=axis,
                    keepdims=keepdims)


def argmax(a: Any, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Index of the largest unmasked element (masked ones filled with the lowest value)."""
    a = _masked(a)
    fv = np.ma.maximum_fill_value(np.zeros(1, a.dtype))
    return F.argmax(F.where(a._mask, np.asarray(fv, a.dtype)[()], a._data), axis=axis,
                    keepdims=keepdims)
