"""``lt.ma``: lazy masked tensors with ``numpy.ma`` semantics.

A ``MaskedTensor`` is two lazy tensors, ``data`` and a boolean ``mask`` of the
same shape (``True`` = invalid), and a ``fill_value``.  Everything is built
from core ops (``where``, comparisons, reductions), so masked computations
fuse and optimize like any other graph; ``eval()`` computes data and mask in
one plan and returns a ``numpy.ma.MaskedArray``.

The mask is always a full boolean tensor (NumPy's ``nomask`` shortcut is not
modelled): results equal ``numpy.ma`` on an array whose mask is an explicit
array, which is what ``numpy.ma``'s ``masked_*`` functions produce.  Each
operation is built the way ``numpy.ma`` computes it, so values, masks, the
data left under the mask, dtypes and fill values are ``numpy.ma``'s own.  In
particular ``numpy.ma`` has two kinds of operators:

- its own (``+ - * / // **``, comparisons, and so ``masked_greater`` & co.)
  read a Python scalar as a 0-d array, which NEP 50 does not treat as weak:
  a masked int8 array times 2 is int64, a float32 one times 2.5 is float64;
- the ones ``MaskedArray`` leaves to ``ndarray`` (``%``, ``divmod``) run the
  NumPy ufunc, where Python scalars are weak: a masked int8 array % 3 is int8.

``m[index] = value`` writes lazily, with numpy.ma's semantics (see
``MaskedTensor.__setitem__``).  As in numpy.ma, views (``m[1:]``, ``m.T``,
``m.reshape``, ``m.data``, ``m.mask``) and the tensors ``masked_array`` was
given share the writes; every operation's result owns its data and mask.
A write never reaches a NumPy array: lazyten reads its inputs, never writes
them.

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
from typing import Any, NamedTuple

import numpy as np

from . import functions as F
from .creation import zeros
from .tensor import Tensor, wrap

__all__ = ["MaskedTensor", "masked", "array", "masked_array", "masked_equal", "masked_not_equal",
           "masked_greater", "masked_greater_equal", "masked_less", "masked_less_equal",
           "masked_inside", "masked_outside", "masked_where", "masked_invalid", "filled",
           "count", "compressed", "getdata", "getmask", "getmaskarray", "is_masked",
           "sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax",
           "sqrt", "log", "exp", "abs", "default_fill_value"]

# numpy.ma's tolerance for "division by zero".  A NumPy scalar, as in numpy.ma:
# it is strong, so the domain test runs in float64 for float32 data too.
_TINY = np.finfo(np.float64).tiny

_op = F._apply_elementwise

# numpy.ma's masked constant: ``m[i] = lt.ma.masked`` masks, as with np.ma.masked.
masked = np.ma.masked


def _own(t: Tensor) -> Tensor:
    """A new handle on ``t``'s current value.  ``t[i] = v`` rebinds the handle
    it is called on (and a view's base), so a handle of its own keeps a write
    from reaching another tensor; it copies nothing (nodes are immutable), and
    it can be written where ``t`` is a read-only broadcast view."""
    return Tensor(t._node)


def default_fill_value(dtype: Any) -> Any:
    """``numpy.ma``'s default fill value for a dtype (1e20, 999999, True, ...)."""
    return np.ma.default_fill_value(np.dtype(dtype))


# ---------------------------------------------------------------- fill values

def _check_fill_value(fill_value: Any, dtype: Any) -> np.ndarray[Any, Any]:
    """A fill value for ``dtype`` as ``numpy.ma`` stores it: a 0-d array
    (``np.ma.core._check_fill_value``, for the dtypes lazyten has: no fields,
    no strings).

    None gives the default, which ``numpy.ma`` does not cast: an int8 array's
    is int64 999999 (uint64 for unsigned dtypes), a float16 array's float64
    1e20.  A Python value the dtype cannot hold raises TypeError, where a
    cast would wrap (-1 to 255 for uint8); a 0-d array (a fill value moving
    to another dtype, as in ``astype``) is cast as NumPy casts arrays.
    """
    dt = np.dtype(dtype)
    if fill_value is None:
        default = default_fill_value(dt)
        # NumPy 2: 999999 is no same-kind cast to a uint, the unsigned one is.
        return np.array(np.uint(default) if dt.kind == "u" else default)
    if isinstance(fill_value, str):
        raise TypeError(f"Cannot set fill value of string with array of dtype {dt}")
    try:
        return np.array(np.asarray(fill_value, dtype=dt))
    except (OverflowError, ValueError) as e:
        raise TypeError(f"Cannot convert fill_value {fill_value} to dtype {dt}") from e


def _fill_as(fill: np.ndarray[Any, Any] | None, dtype: np.dtype[Any]) -> Any:
    """A stored fill value (None: the default) as written into data of
    ``dtype``: NumPy's cast, so 999999 wraps to 63 in int8 and 1e20 is inf
    in float16.  Silent: it is cast when the graph is built, and numpy.ma's
    "overflow encountered in cast" comes only where something is masked,
    which is not known yet."""
    fv = _check_fill_value(None, dtype) if fill is None else fill
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a complex fill value in real data
        out = fv.astype(dtype)
    return out[()] if out.ndim == 0 else out


class MaskedTensor:
    """A lazy masked array: ``data`` and ``mask`` tensors and a ``fill_value``.

    ``fill_value`` is checked against the data's dtype as ``numpy.ma`` does
    (TypeError where it cannot be held).  Like ``numpy.ma.MaskedArray(data,
    mask)``, it holds the tensors it is given (a mask of another shape is
    broadcast into one of its own), so ``m[i] = v`` writes them too.

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
            mask = _own(F.broadcast_to(mask, data.shape))   # (a broadcast view is read-only)
        if mask.dtype != np.bool_:
            mask = mask.astype(np.bool_)
        self._data = data
        self._mask = mask
        # numpy.ma's ``_fill_value``: None (the dtype's default) or a 0-d
        # array.  Its dtype may differ from the data's: an operation's result
        # takes an operand's fill value as it is (numpy.ma's ``_update_from``),
        # which shows in ``fill_value`` and in the repr.
        self._fill_value: np.ndarray[Any, Any] | None = (
            None if fill_value is None else _check_fill_value(fill_value, data.dtype))

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
        """``numpy.ma``'s ``fill_value``: for an int8 array ``np.int64(999999)``."""
        fv = self._fill_value
        return (_check_fill_value(None, self.dtype) if fv is None else fv)[()]

    @fill_value.setter
    def fill_value(self, value: Any) -> None:
        target = _check_fill_value(value, self.dtype)
        if self._fill_value is not None:
            # numpy.ma writes into the fill value it has, which keeps its dtype.
            stored = self._fill_value.copy()
            stored[()] = target
            target = stored
        self._fill_value = target

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
        out = np.ma.MaskedArray(d, mask=m)
        if self._fill_value is not None:
            # As numpy.ma's own results get it (``_update_from``): not cast to
            # the data's dtype, which the constructor's fill_value= would do.
            out._fill_value = self._fill_value.copy()  # type: ignore[attr-defined]
        return out

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
        # numpy.ma's views keep the fill value as it is (``_update_from``),
        # and share data and mask: a write to the view is one to its base.
        return _make(fn(self._data), fn(self._mask), self._fill_value, view=True)

    def __getitem__(self, index: Any) -> MaskedTensor:
        return self._both(lambda t: t[index])

    @property
    def T(self) -> MaskedTensor:
        return self._both(lambda t: t.T)

    def reshape(self, *shape: Any) -> MaskedTensor:
        return self._both(lambda t: t.reshape(*shape))

    def astype(self, dtype: Any) -> MaskedTensor:
        """The data cast to ``dtype``; the fill value is cast too (numpy.ma).
        A copy: mask included."""
        return MaskedTensor(self._data.astype(dtype), _own(self._mask), self._fill_value)

    # ------------------------------------------------------------ writes
    def __setitem__(self, index: Any, value: Any) -> None:
        """``m[index] = value``, lazily, as ``numpy.ma`` writes (basic and
        advanced indices, a masked key read as its data):

        - ``value`` is ``lt.ma.masked`` (``np.ma.masked``): those elements are
          masked, their data left as it is;
        - a masked ``value`` (``MaskedTensor`` or ``numpy.ma`` array): its
          data is written, and its mask (data under it included);
        - any other value is written and unmasks what it writes, except that
          a masked key (``m[m > 2] = 0``) writes the data only, as numpy.ma
          does.

        Masks are soft (numpy.ma's default; lazyten has no ``hard_mask``).
        The fill value is kept.  A view (``m[1:]``, ``m.T``) writes its
        base, as in numpy.ma; the result of an operation (``-m``) is its own,
        where numpy.ma's unary functions share the operand's mask.

        >>> import lazyten as lt
        >>> m = lt.ma.masked_array([1, 2, 3], mask=[False, True, False])
        >>> m[1] = 20
        >>> m[0] = lt.ma.masked
        >>> m.eval()
        masked_array(data=[--, 20, 3],
                     mask=[ True, False, False],
               fill_value=999999)
        """
        key = _key(index)
        data: Any
        mask: Any
        if value is np.ma.masked:
            self._mask[key] = True
            return
        if _is_masked_type(value):
            v = _masked(value)
            data, mask = v._data, v._mask
        elif _is_masked_type(index):
            self._data[key] = value
            return
        else:
            data, mask = value, False
        self._data[key] = data
        self._mask[key] = mask

    # ------------------------------------------------------------ reductions
    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
        return sum(self, axis, dtype, keepdims)

    def prod(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
        return prod(self, axis, dtype, keepdims)

    def mean(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
        return mean(self, axis, dtype, keepdims)

    def var(self, axis: Any = None, dtype: Any = None, ddof: int = 0,
            keepdims: bool = False) -> MaskedTensor:
        return var(self, axis, dtype, ddof, keepdims)

    def std(self, axis: Any = None, dtype: Any = None, ddof: int = 0,
            keepdims: bool = False) -> MaskedTensor:
        return std(self, axis, dtype, ddof, keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> MaskedTensor:
        return min(self, axis, keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> MaskedTensor:
        return max(self, axis, keepdims)

    def argmin(self, axis: int | None = None, keepdims: bool = False) -> Tensor:
        return argmin(self, axis, keepdims)

    def argmax(self, axis: int | None = None, keepdims: bool = False) -> Tensor:
        return argmax(self, axis, keepdims)

    # ------------------------------------------------------------ arithmetic
    # numpy.ma's own operators (strong scalars) ...
    def __add__(self, o: Any) -> MaskedTensor: return _binary("add", self, o)
    def __radd__(self, o: Any) -> MaskedTensor: return _binary("add", o, self)
    def __sub__(self, o: Any) -> MaskedTensor: return _binary("subtract", self, o)
    def __rsub__(self, o: Any) -> MaskedTensor: return _binary("subtract", o, self)
    def __mul__(self, o: Any) -> MaskedTensor: return _binary("multiply", self, o)
    def __rmul__(self, o: Any) -> MaskedTensor: return _binary("multiply", o, self)
    def __truediv__(self, o: Any) -> MaskedTensor: return _binary("divide", self, o)
    def __rtruediv__(self, o: Any) -> MaskedTensor: return _binary("divide", o, self)
    def __floordiv__(self, o: Any) -> MaskedTensor: return _binary("floor_divide", self, o)
    def __rfloordiv__(self, o: Any) -> MaskedTensor:
        return _binary("floor_divide", o, self)
    def __pow__(self, o: Any) -> MaskedTensor: return _binary("pow", self, o)
    def __rpow__(self, o: Any) -> MaskedTensor: return _binary("pow", o, self)
    def __lt__(self, o: Any) -> MaskedTensor: return _compare("less", self, o)
    def __le__(self, o: Any) -> MaskedTensor: return _compare("less_equal", self, o)
    def __gt__(self, o: Any) -> MaskedTensor: return _compare("greater", self, o)
    def __ge__(self, o: Any) -> MaskedTensor: return _compare("greater_equal", self, o)
    def __eq__(self, o: Any) -> MaskedTensor:  # type: ignore[override]
        return _compare("equal", self, o)
    def __ne__(self, o: Any) -> MaskedTensor:  # type: ignore[override]
        return _compare("not_equal", self, o)

    # ... and ndarray's, which numpy.ma does not override (weak scalars).
    def __mod__(self, o: Any) -> MaskedTensor: return _ufunc_op("remainder", self, o)
    def __rmod__(self, o: Any) -> MaskedTensor: return _ufunc_op("remainder", o, self)
    def __divmod__(self, o: Any) -> tuple[MaskedTensor, MaskedTensor]:
        return _divmod(self, o)
    def __rdivmod__(self, o: Any) -> tuple[MaskedTensor, MaskedTensor]:
        return _divmod(o, self)

    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> MaskedTensor:
        return _make(-self._data, self._mask, self._fill_value)

    def __abs__(self) -> MaskedTensor:
        return _make(_op("abs", self._data), self._mask, self._fill_value)


def _make(data: Tensor, mask: Tensor, fill: np.ndarray[Any, Any] | None,
          view: bool = False) -> MaskedTensor:
    """A MaskedTensor with a stored fill value taken as it is (no check).

    An operation's result owns its data and mask, which may be an operand's
    passed through (``-m`` keeps ``m``'s mask): a later write to it must not
    reach the operand.  A ``view`` shares its base's."""
    out = MaskedTensor(data if view else _own(data), mask if view else _own(mask))
    out._fill_value = fill
    return out


def _key(index: Any) -> Any:
    """An index as ``m[index] = v`` applies it: a masked key read as its data,
    as NumPy indexes with a MaskedArray.  (Not a copy: as in numpy.ma, a key
    that is this tensor's data, ``m[m.data] = ...`` for bool data, is the
    data as written when the mask is written.)"""
    def one(k: Any) -> Any:
        if isinstance(k, np.ma.MaskedArray):
            return np.ma.getdata(k)
        return k._data if isinstance(k, MaskedTensor) else k
    return tuple(one(k) for k in index) if isinstance(index, tuple) else one(index)


# ---------------------------------------------------------------- operands

class _Operand(NamedTuple):
    data: Any                              # a Tensor, or a scalar
    mask: Tensor | None                    # None: not a masked operand
    fill: np.ndarray[Any, Any] | None      # numpy.ma's _fill_value


def _operand(x: Any, strong: bool) -> _Operand:
    """An operand as numpy.ma sees it.  ``strong``: as numpy.ma's own
    operations read it (``getdata``), a Python scalar becoming a 0-d array,
    which NEP 50 does not treat as weak; otherwise as ndarray's operators
    pass it to the ufunc (a Python scalar stays weak)."""
    if isinstance(x, np.ma.MaskedArray):
        x = _from_numpy(x)
    if isinstance(x, MaskedTensor):
        return _Operand(x._data, x._mask, x._fill_value)
    if isinstance(x, (bool, int, float, complex)):
        return _Operand(np.asarray(x)[()] if strong else x, None, None)
    return _Operand(x if isinstance(x, (Tensor, np.generic)) else wrap(x), None, None)


def _strong(x: Any) -> Any:
    return _operand(x, strong=True).data


def _fill_of(x: _Operand, y: _Operand) -> np.ndarray[Any, Any] | None:
    # numpy.ma's result takes the first masked operand's fill value.
    return x.fill if x.mask is not None else y.fill


def _from_numpy(x: np.ma.MaskedArray) -> MaskedTensor:
    fv = getattr(x, "_fill_value", None)
    return _make(wrap(np.ma.getdata(x)), wrap(np.ma.getmaskarray(x)),
                 None if fv is None else np.array(fv))


def _or(*masks: Tensor | None) -> Tensor | None:
    out: Tensor | None = None
    for m in masks:
        if m is not None:
            out = m if out is None else out | m
    return out


def _full(m: Tensor | None, shape: tuple[int, ...]) -> Tensor:
    """A mask of ``shape`` (all False for None)."""
    if m is None:
        return zeros(shape, dtype=np.bool_)
    return m if m.shape == shape else F.broadcast_to(m, shape)


def _put(cond: Tensor, value: Any, x: Any) -> Tensor:
    """``x`` with ``value`` (in ``x``'s dtype) where ``cond``: an operand made
    harmless where NumPy would raise a flag that numpy.ma ignores."""
    return F.where(cond, np.asarray(value, dtype=x.dtype)[()], x)


def _keep(m: Tensor, x: Any, res: Tensor) -> Tensor:
    """``res`` with ``x`` where ``m``: the data numpy.ma leaves under the mask
    (``np.copyto(result, x, where=m)``, cast to the result's dtype)."""
    out = F.where(m, x, res)
    return out if out.dtype == res.dtype else out.astype(res.dtype)


def _inexact(dtype: np.dtype[Any]) -> bool:
    return dtype.kind in "fc"


# ---------------------------------------------------------------- operations
#
# numpy.ma computes most operations under np.errstate(divide="ignore",
# invalid="ignore").  A lazy graph runs later, under the caller's errstate,
# so instead ``_quiet`` feeds NumPy harmless operands where a flag would come
# and reports those positions; each operation then puts there what numpy.ma
# has (a NaN, a mask, the fill value).  Overflow is not ignored by numpy.ma
# and warns here too.

def _both_float(x: Any, y: Any) -> bool:
    return x.dtype.kind == "f" and y.dtype.kind == "f"


def _isinf(x: Any) -> Tensor:
    return _op("isinf", x)


def _flag_add(x: Any, y: Any) -> Tensor | None:
    # inf + -inf is NaN
    return _isinf(x) & _isinf(y) & _op("not_equal", x, y) if _both_float(x, y) else None


def _flag_subtract(x: Any, y: Any) -> Tensor | None:
    # inf - inf is NaN
    return _isinf(x) & _isinf(y) & _op("equal", x, y) if _both_float(x, y) else None


def _flag_multiply(x: Any, y: Any) -> Tensor | None:
    # inf * 0 is NaN
    if np.result_type(x.dtype, y.dtype).kind != "f":
        return None
    terms = [_isinf(p) & _op("equal", q, 0) for p, q in ((x, y), (y, x)) if p.dtype.kind == "f"]
    return _or(*terms)


def _flag_divide(x: Any, y: Any) -> Tensor:
    # x / 0, 0 / 0, inf / inf, inf // y (integers: x // 0, which NumPy makes
    # 0).  Not a floor division that overflows (1e300 // 1e-10): NumPy raises
    # the invalid flag there as well as the overflow one, which numpy.ma
    # reports; both warn here.
    bad = _op("equal", y, 0)
    return bad | ~_op("isfinite", x) if _inexact(x.dtype) else bad


def _flag_pow(x: Any, y: Any) -> Tensor | None:
    # 0 to a negative power; a negative number to a non-integer one (NaN;
    # -inf too where NumPy takes a scalar 0.5 as sqrt); complex 0 to a power
    # that is not 0 and whose real part is not positive.
    kind = np.result_type(x.dtype, y.dtype).kind
    if kind not in "fc":
        return None  # integers raise no flag (negative powers raise ValueError)
    zero = _op("equal", x, 0)
    if kind == "c":
        return zero & _op("not_equal", y, 0) & ~(_op("real", y) > 0)
    bad = zero & _op("less", y, 0)
    if y.dtype.kind == "f":
        non_integer = _op("not_equal", y, _op("floor", y))
        negative = _op("less", x, 0) & (_op("greater", x, -np.inf) | _op("greater", y, 0))
        bad = bad | (negative & non_integer)
    return bad


_FLAGGED: dict[str, Callable[[Any, Any], Tensor | None]] = {
    "add": _flag_add, "subtract": _flag_subtract, "multiply": _flag_multiply,
    "divide": _flag_divide, "floor_divide": _flag_divide, "pow": _flag_pow,
}


def _quiet(name: str, x: Any, y: Any) -> tuple[Tensor, Tensor | None]:
    """NumPy's ``name(x, y)``, computed on harmless operands (0 and 1) where
    it would raise the divide or invalid flag; and those positions (None
    where the op raises neither).  There NumPy's result is NaN or infinite
    (for integers, x // 0 is 0, which 0 // 1 gives).

    ``pow`` gets 1 as the base only: its exponent, if a scalar, stays one
    (NumPy's power takes a scalar 0.5 as sqrt: -0.0 ** 0.5 is -0.0).
    Complex + - * are left as NumPy computes them (and warns).
    """
    bad = _FLAGGED[name](x, y)
    if bad is None:
        return _op(name, x, y), None
    if name == "pow":
        return _op(name, _put(bad, 1, x), y), bad
    return _op(name, _put(bad, 0, x), _put(bad, 1, y)), bad


def _nan(dtype: np.dtype[Any]) -> Any:
    """The NaN NumPy makes from inf - inf (negative on x86)."""
    with np.errstate(all="ignore"):
        inf = np.array(np.inf, dtype)
        return (inf - inf)[()]


def _masked_op(name: str, a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``add``, ``subtract``, ``multiply``
    (``_MaskedBinaryOperation``): masks or'ed, the first operand's data kept
    under the mask; a NaN result (inf - inf) is not masked."""
    x, y = _operand(a, strong=True), _operand(b, strong=True)
    res, bad = _quiet(name, x.data, y.data)
    if bad is not None:
        res = F.where(bad, _nan(res.dtype), res)
    m = _full(_or(x.mask, y.mask), res.shape)
    return _make(_keep(m, x.data, res), m, _fill_of(x, y))


def _divide_domain(x: Any, y: Any) -> Tensor:
    """numpy.ma's ``_DomainSafeDivide``: where ``|x| * tiny >= |y|``."""
    return _op("abs", x) * _TINY >= _op("abs", y)


def _domained_op(name: str, a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``divide`` and ``floor_divide`` (``_DomainedBinaryOperation``):
    masked also where the divisor is too small for the dividend
    (``_divide_domain``) and where the result is not finite; under the mask
    the data is 0 plus the dividend (``0 + m * x``, where that cast is safe)."""
    x, y = _operand(a, strong=True), _operand(b, strong=True)
    res, bad = _quiet(name, x.data, y.data)
    m = _or(x.mask, y.mask, _divide_domain(x.data, y.data))
    if _inexact(res.dtype):
        m = _or(m, bad, ~_op("isfinite", res))
    m = _full(m, res.shape)
    data = F.where(m, 0, res)
    if np.can_cast(x.data.dtype, res.dtype, "safe"):
        data = data + m * x.data
    return _make(data, m, _fill_of(x, y))


def _power(a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``power``: the base's data kept under the mask, then every
    position that is not finite (NaN or inf, masked or not) masked and set
    to the fill value.  The result takes the base's fill value only."""
    x, y = _operand(a, strong=True), _operand(b, strong=True)
    res, bad = _quiet("pow", x.data, y.data)
    m = _or(x.mask, y.mask)
    if m is not None:
        res = _keep(_full(m, res.shape), x.data, res)
    if bad is None:  # integers: never NaN or inf
        return _make(res, _full(m, res.shape), x.fill)
    invalid = ~_op("isfinite", res) | (bad if m is None else bad & ~m)
    return _make(F.where(invalid, _fill_as(x.fill, res.dtype), res),
                 _full(_or(m, invalid), res.shape), x.fill)


_MA_BINARY: dict[str, Callable[[str, Any, Any], MaskedTensor]] = {
    "add": _masked_op, "subtract": _masked_op, "multiply": _masked_op,
    "divide": _domained_op, "floor_divide": _domained_op,
    "pow": lambda name, a, b: _power(a, b),
}


def _binary(name: str, a: Any, b: Any) -> MaskedTensor:
    """``a <op> b`` with a masked operand, as numpy.ma computes it."""
    if isinstance(a, np.generic):
        # A NumPy scalar's own operator does not defer to a MaskedArray: it
        # runs NumPy's ufunc, which numpy.ma only wraps (as for %).  (Not
        # told apart: np.float32(1) < m, which Python turns into m > 1.)
        return _ufunc_op(name, a, b, domain=name in ("divide", "floor_divide"))
    return _MA_BINARY[name](name, a, b)


def _compare(name: str, a: MaskedTensor, b: Any) -> MaskedTensor:
    """numpy.ma's comparisons (``MaskedArray._comparison``): ``b`` is strong;
    under the mask, ``==`` and ``!=`` compare the masks (masked in both:
    equal), the others leave the comparison; the fill value becomes bool."""
    x, y = _operand(a, strong=True), _operand(b, strong=True)
    res = _op(name, x.data, y.data)
    m = _or(x.mask, y.mask)
    if m is not None and name in ("equal", "not_equal"):
        res = F.where(m, _op(name, x.mask if x.mask is not None else False,
                             y.mask if y.mask is not None else False), res)
    fill = None if x.fill is None else _check_fill_value(x.fill, np.bool_)
    return _make(res, _full(m, res.shape), fill)


def _ufunc_op(name: str, a: Any, b: Any, domain: bool = True) -> MaskedTensor:
    """A NumPy ufunc on a masked operand, which numpy.ma only wraps
    (``MaskedArray.__array_wrap__``): ``%`` and ``divmod``, which MaskedArray
    leaves to ndarray, and any operator with a NumPy scalar on the left.
    Python scalars are weak (a masked int8 array % 3 is int8) and NumPy's
    warnings are not silenced.  The masks are or'ed and, with ``domain``,
    numpy.ma's division domain is masked and set to 1; elsewhere the data is
    the ufunc's, masked or not."""
    x, y = _operand(a, strong=False), _operand(b, strong=False)
    res = _op(name, x.data, y.data)
    m = _or(x.mask, y.mask)
    if domain:
        dom = _divide_domain(_strong(x.data), _strong(y.data))
        res = F.where(dom, 1, res)
        m = _or(m, dom)
    return _make(res, _full(m, res.shape), _fill_of(x, y))


def _divmod(a: Any, b: Any) -> tuple[MaskedTensor, MaskedTensor]:
    # np.divmod has no domain in numpy.ma: only the masks are or'ed.
    return (_ufunc_op("floor_divide", a, b, domain=False),
            _ufunc_op("remainder", a, b, domain=False))


def _unary(name: str, x: Any, domain: Callable[[Tensor], Tensor] | None) -> MaskedTensor:
    """numpy.ma's unary functions (``_MaskedUnaryOperation``): a function with
    a domain is also masked outside it and where its result is not finite;
    the data is kept under the mask where it casts (same kind)."""
    a = _masked(x)
    d = a._data
    if domain is None:
        res = _op(name, d)
        m = a._mask
    else:
        # numpy.ma ignores the flags that come outside the domain (sqrt(-1),
        # log(0)): there the function gets 1 instead, silently.
        dom = domain(d)
        res = _op(name, _put(dom, 1, d))
        m = a._mask | dom | ~_op("isfinite", res)
    if np.can_cast(d.dtype, res.dtype, "same_kind"):
        res = F.where(m, d, res)
    return _make(res, m, a._fill_value)


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

def _fit_mask(mask: Any, shape: tuple[int, ...]) -> Tensor:
    """numpy.ma's reading of a mask for data of ``shape``: cast to bool; one
    element is repeated, as many elements as the data are reshaped, and any
    other shape raises ``MaskError``."""
    m = wrap(False if mask is None else mask)
    if m.shape != shape:
        size = int(np.prod(shape))
        if m.size == 1:
            m = _own(F.broadcast_to(m.reshape(()), shape))   # (writable: a mask of its own)
        elif m.size == size:
            m = m.reshape(shape)
        else:
            raise np.ma.MaskError(f"Mask and data not compatible: data size is {size}, "
                                  f"mask size is {m.size}.")
    return m if m.dtype == np.bool_ else m.astype(np.bool_)


def masked_array(data: Any, mask: Any = np.ma.nomask, fill_value: Any = None,
                 dtype: Any = None, copy: bool = False) -> MaskedTensor:
    """A masked tensor from data and a mask (``numpy.ma.masked_array``).

    A mask of one element applies to all; one of the data's size but another
    shape is reshaped; others raise ``np.ma.MaskError``.  A masked ``data``
    keeps its mask (or'ed with ``mask``) and its fill value.

    As in numpy.ma (``copy=False``), a tensor given as ``data`` or ``mask``
    is shared, so ``m[i] = v`` writes it too, and so is a masked ``data``'s
    mask when no ``mask`` is given; ``copy=True`` makes them the result's
    own.  NumPy arrays are never written.

    >>> import lazyten as lt
    >>> lt.ma.masked_array([1.0, 2.0], mask=[True, False]).eval()
    masked_array(data=[--, 2.0],
                 mask=[ True, False],
           fill_value=1e+20)
    """
    if isinstance(data, np.ma.MaskedArray):
        data = _from_numpy(data)
    if isinstance(data, MaskedTensor):
        d, m0, fv = data._data, data._mask, data._fill_value
    else:
        d, m0, fv = wrap(data), None, None
    if dtype is not None:
        d = d.astype(dtype)
    if m0 is not None and mask is np.ma.nomask:
        m = m0                                # numpy.ma keeps (shares) the mask
    else:
        m = _fit_mask(mask, d.shape)
        m = m if m0 is None else m0 | m
    if copy:
        d, m = _own(d), _own(m)
    # An inherited fill value is checked against the (new) dtype too.
    return MaskedTensor(d, m, fv if fill_value is None else fill_value)


array = masked_array


def masked_where(condition: Any, a: Any) -> MaskedTensor:
    """Mask ``a`` where ``condition`` is true (or'ed with ``a``'s own mask);
    ``a``'s fill value is kept.

    >>> import lazyten as lt
    >>> a = lt.arange(4)
    >>> lt.ma.masked_where(a <= 2, a).eval()
    masked_array(data=[--, --, --, 3],
                 mask=[ True,  True,  True, False],
           fill_value=999999)
    """
    x = _masked(a)
    # numpy.ma's make_mask: a masked condition counts as true where masked.
    cond = filled(condition, True) if _is_masked_type(condition) else wrap(condition)
    if cond.shape and cond.shape != x.shape:
        raise IndexError(f"masked_where: inconsistent shape between the condition "
                         f"{cond.shape} and the input {x.shape}")
    cond = cond if cond.dtype == np.bool_ else cond.astype(np.bool_)
    return _make(x._data, _full(cond | x._mask, x.shape), x._fill_value)


def _base(x: Any) -> Tensor:
    if isinstance(x, np.ma.MaskedArray):
        return wrap(np.ma.getdata(x))
    return x._data if isinstance(x, MaskedTensor) else wrap(x)


def _masked_compare(name: str, x: Any, value: Any) -> MaskedTensor:
    # numpy.ma's masked_greater & co. compare with its own ufuncs: ``value``
    # is strong (a float32 array is compared with 0.1 in float64).
    return masked_where(_op(name, _base(x), _strong(value)), x)


def masked_equal(x: Any, value: Any) -> MaskedTensor:
    """Mask where ``x == value``; the fill value becomes ``value`` (as NumPy does)."""
    out = _masked_compare("equal", x, value)
    out.fill_value = value
    return out


def masked_not_equal(x: Any, value: Any) -> MaskedTensor:
    return _masked_compare("not_equal", x, value)


def masked_greater(x: Any, value: Any) -> MaskedTensor:
    return _masked_compare("greater", x, value)


def masked_greater_equal(x: Any, value: Any) -> MaskedTensor:
    return _masked_compare("greater_equal", x, value)


def masked_less(x: Any, value: Any) -> MaskedTensor:
    return _masked_compare("less", x, value)


def masked_less_equal(x: Any, value: Any) -> MaskedTensor:
    return _masked_compare("less_equal", x, value)


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
    if _is_masked_type(a):
        return _masked(a)._mask
    return zeros(wrap(a).shape, dtype=np.bool_)


getmask = getmaskarray  # lazyten's masks are always full arrays


def is_masked(x: Any) -> bool:
    """Whether any element is masked (forces the mask)."""
    return _is_masked_type(x) and bool(F.any(_masked(x)._mask))


def filled(a: Any, fill_value: Any = None) -> Tensor:
    """``a`` with masked positions replaced by ``fill_value`` (``a.fill_value``
    when None).  Plain tensors pass through.  A fill value the dtype cannot
    hold raises TypeError, as in numpy.ma (-1 for uint8, not 255)."""
    if not _is_masked_type(a):
        return wrap(a)
    a = _masked(a)
    fv = a._fill_value if fill_value is None else _check_fill_value(fill_value, a.dtype)
    return F.where(a._mask, _fill_as(fv, a.dtype), a._data)


def count(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The number of unmasked elements (along ``axis``), as int64 (NumPy's intp)."""
    return F.sum(~_masked(a)._mask, axis=axis, keepdims=keepdims, dtype=np.intp)


def compressed(a: Any) -> Tensor:
    """The unmasked values as a 1-d tensor.  Forces evaluation: the result's
    length depends on the mask's values."""
    if not _is_masked_type(a):
        return wrap(a).reshape(-1)
    from . import compute
    from .creation import asarray
    a = _masked(a)
    d, m = compute(a._data, a._mask)
    return asarray(d[~m])


# ---------------------------------------------------------------- reductions

def _is_masked_type(x: Any) -> bool:
    return isinstance(x, (MaskedTensor, np.ma.MaskedArray))


def _masked(a: Any) -> MaskedTensor:
    if isinstance(a, MaskedTensor):
        return a
    return _from_numpy(a) if isinstance(a, np.ma.MaskedArray) else masked_array(a)


def _reduced_mask(a: MaskedTensor, axis: Any, keepdims: bool) -> Tensor:
    return F.all(a._mask, axis=axis, keepdims=keepdims)


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


def mean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
    """Mean of the unmasked elements, computed as ``numpy.ma`` computes it.

    The sum is in float64 for integers and in float32 for float16 (rounded
    back to float16 at the end), else in ``dtype`` or the data's dtype; then
    ``sum * 1. / count``.  Where the sum is a scalar, ``* 1.`` keeps its
    dtype (a NumPy scalar times a Python float) and the intp count promotes
    it: float32 data give float64.  Where it is an array, ``1.`` is strong,
    and numpy.ma's division masks means that are not finite.
    """
    a = _masked(a)
    acc = None if dtype is None else np.dtype(dtype)
    half = False
    if acc is None and a.dtype.kind in "biu":
        acc = np.dtype(np.float64)
    elif acc is None and a.dtype == np.float16:
        acc, half = np.dtype(np.float32), True
    s = sum(a, axis, acc, keepdims)
    n = count(a, axis, keepdims)
    if s.ndim == 0:
        # An empty count gives numpy.ma's ``masked``: divide by 1 instead, so
        # that no divide-by-zero warning escapes.
        out = MaskedTensor(s._data * 1.0 / F.where(n > 0, n, 1), n == 0)
    else:
        out = _domained_op("divide", _masked_op("multiply", s, 1.0), n)
    return out.astype(np.float16) if half else out


def var(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
        keepdims: bool = False) -> MaskedTensor:
    """Variance of the unmasked elements, computed as ``numpy.ma`` computes it:
    deviations from ``mean(keepdims=True)`` in the promoted dtype (float16
    data against their float16 mean), squared, summed, divided by
    ``count - ddof``.  An array result is masked where every element was or
    where ``count <= ddof``; a scalar where numpy.ma's division masks it."""
    a = _masked(a)
    ddof = operator.index(ddof)
    cnt = count(a, axis, keepdims) - ddof
    dev = _masked_op("subtract", a, mean(a, axis, dtype, keepdims=True))
    if dev.dtype.kind == "c":
        # np.absolute (a ufunc: the data as computed, the mask kept), then
        # numpy.ma's ** 2.
        sq = _power(_make(_op("abs", dev._data), dev._mask, dev._fill_value), 2)
    else:
        # dev *= dev (MaskedArray.__imul__): times 1 where masked, so that
        # masked values do not overflow.
        sq = _make(dev._data * _put(dev._mask, 1, dev._data), dev._mask, dev._fill_value)
    v = _domained_op("divide", sum(sq, axis, None, keepdims), cnt)
    m = v._mask if v.ndim == 0 else _reduced_mask(a, axis, keepdims) | (cnt <= 0)
    return _make(v._data, m, a._fill_value)


def std(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
        keepdims: bool = False) -> MaskedTensor:
    """numpy.ma's ``sqrt`` of ``var``: a negative variance is masked too."""
    return sqrt(var(a, axis, dtype, ddof, keepdims))


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
