"""``lt.ma``: lazy masked tensors with ``numpy.ma`` semantics.

A ``MaskedTensor`` is two lazy tensors, ``data`` and a boolean ``mask`` of the
same shape (``True`` = invalid), and a ``fill_value``.  Everything is built
from core ops (``where``, comparisons, reductions), so masked computations
fuse and optimize like any other graph; ``eval()`` computes data and mask in
one plan and returns a ``numpy.ma.MaskedArray``.

The mask is always a full boolean tensor; where ``numpy.ma`` would hold
``nomask`` instead (``masked_array(x)`` without a mask, a ``masked_where`` or
comparison that masked nothing), the tensor is all False and the
``MaskedTensor`` knows it (``_shrink``): ``getmask`` gives ``lt.ma.nomask``,
float32 means stay float32, views do not share a mask given later, as in
numpy.ma.  Where that depends on the values, it is decided when something
needs it (which computes the mask).  Each
operation is built the way ``numpy.ma`` computes it, so values, masks, the
data left under the mask, dtypes and fill values are ``numpy.ma``'s own.  In
particular ``numpy.ma`` has two kinds of operators:

- its own (``+ - * / // **``, comparisons, and so ``masked_greater`` & co.)
  read a Python scalar as a 0-d array, which NEP 50 does not treat as weak:
  a masked int8 array times 2 is int64, a float32 one times 2.5 is float64;
- the ones ``MaskedArray`` leaves to ``ndarray`` (``%``, ``divmod``) run the
  NumPy ufunc, where Python scalars are weak: a masked int8 array % 3 is int8.

``m[index] = value`` and ``m += x`` (every in-place operator) write lazily,
with numpy.ma's semantics (see ``MaskedTensor.__setitem__``).  Indexing is lazy
too: ``m[1]`` is a 0-d ``MaskedTensor``, never numpy.ma's ``masked``
constant, so ``m[1] is lt.ma.masked`` is never true (``lt.ma.is_masked(m[1])``
asks it).  ``bool``, ``float``, ``int`` force a value as numpy.ma's do, a
0-d masked value counting as numpy.ma's ``masked``.  As in numpy.ma, views (``m[1:]``, ``m.T``,
``m.reshape``, ``m.data``, ``m.mask``) and the tensors ``masked_array`` was
given share the writes; every operation's result owns its data and mask.
A write never reaches a NumPy array: lazyten reads its inputs, never writes
them.

NumPy's ufuncs take masked tensors (``np.exp(m)``, ``np.add(m, 1)``) and
give what numpy.ma's ``__array_wrap__`` gives (its domains: ``np.log`` of
x <= 0 masked, division by zero masked); ``ndarray op m`` is numpy.ma's
reflected operator.  ``a @ b`` is numpy.ma's (NumPy 2: the operands' masks
or'ed elementwise, see ``_matmul``); ``lt.ma.dot`` is the masked product.

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

import builtins
import math
import operator
import warnings
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.ma.core as _ma_core_module
from numpy.lib.array_utils import normalize_axis_tuple

from .. import dispatch
from .. import functions as F
from .. import creation as _creation
from ..creation import zeros_like as _zeros_like
from ..graph.layout import dense_layout, keep_order, layout_stand_in
from ..graph.layout import infer as infer_layout
from ..tensor import Tensor, snapshot, wrap

__all__ = ["MaskedTensor", "masked", "array", "masked_array", "masked_values", "where",
           "concatenate", "concat", "stack", "hstack", "vstack", "dot", "any", "all", "masked_equal", "masked_not_equal",
           "masked_greater", "masked_greater_equal", "masked_less", "masked_less_equal",
           "masked_inside", "masked_outside", "masked_where", "masked_invalid", "filled",
           "count", "compressed", "getdata", "getmask", "getmaskarray", "is_masked",
           "sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax",
           "sqrt", "log", "exp", "abs", "default_fill_value", "nomask", "shrink_mask",
           "count_masked", "fix_invalid", "anom", "anomalies", "ptp", "argsort", "sort",
           "average", "median"]

# numpy.ma's tolerance for "division by zero".  A NumPy scalar, as in numpy.ma:
# it is strong, so the domain test runs in float64 for float32 data too.
_TINY = np.finfo(np.float64).tiny

_op = F._apply_elementwise
_ma_core: Any = _ma_core_module   # (ufunc_domain, ufunc_fills: not in NumPy's stubs)

# numpy.ma's masked constant: ``m[i] = lt.ma.masked`` masks, as with np.ma.masked.
masked = np.ma.masked
# numpy.ma's "no mask" marker (``np.False_``): what ``getmask`` returns for an
# array numpy.ma holds without a mask array (see ``MaskedTensor._shrink``).
nomask = np.ma.nomask


def as_numpy_ma(data: np.ndarray[Any, Any], mask: np.ndarray[Any, Any] | None,
                fill: np.ndarray[Any, Any] | None) -> np.ma.MaskedArray:
    """A computed masked tensor as numpy.ma's array: ``mask`` None for
    nomask; the stored fill value as numpy.ma's own results get it
    (``_update_from``: not cast to the data's dtype, which the
    constructor's ``fill_value=`` would do)."""
    out = np.ma.MaskedArray(data, mask=np.ma.nomask if mask is None else mask)
    if fill is not None:
        out._fill_value = fill.copy()  # type: ignore[attr-defined]
    return out


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


# NumPy's other names of functions lt.ma has under one.
_NUMPY_ALIASES = {"around": "round", "amax": "max", "amin": "min"}
# NumPy's functions that are not lt.ma's of the name: ``np.sort`` sorts a
# copy where the method sorts in place, ``np.argsort``'s axis is -1 where
# numpy.ma's default flattens; ``np.median`` of a MaskedArray reads its data
# (not numpy.ma's median), and so does ``np.ptp``: refused, as the others
# that would drop the mask.
_NUMPY_OWN: dict[str, Callable[..., Any] | None] = {
    "ptp": None,
    "sort": lambda a, axis=-1, kind=None, order=None, *, stable=None: sort(
        a, axis, kind, order, stable=stable),
    "argsort": lambda a, axis=-1, kind=None, order=None, *, stable=None: argsort(
        a, axis, kind, order, stable=stable),
    "median": None}


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

    __slots__ = ("_data", "_mask", "_fill_value", "_shrink")

    # Tensor/ndarray op MaskedTensor -> our reflected operators (NumPy's protocol).
    __array_priority__ = 1001.0
    __array_ufunc__ = None

    def __array_function__(self, func: Any, types: Any, args: tuple[Any, ...],
                           kwargs: dict[str, Any]) -> Any:
        """NumPy's functions given masked tensors: the method NumPy's own
        code calls on one array (``np.sum(m, axis=0)`` is ``m.sum(axis=0)``,
        ``np.round(m, 2)`` is ``m.round(2)``), else lt.ma's function of the
        name (``np.concatenate([m, t])`` keeps the masks); any other would
        read the data and drop the mask (``np.median(m)``): refused, where it
        used to answer silently."""
        for t in types:
            if not issubclass(t, (MaskedTensor, Tensor, np.ndarray)):
                return NotImplemented
        answered, got = dispatch.metadata_call(func, args, kwargs, (MaskedTensor,))
        if answered:
            return got                                  # (np.shape(m), np.ndim(m))
        name = _NUMPY_ALIASES.get(func.__name__, func.__name__)
        numpys_own = func.__module__ == "numpy" and name in _NUMPY_OWN
        if numpys_own:
            own = _NUMPY_OWN[name]
            if own is not None and args and args[0] is self:
                return own(*args, **kwargs)
        elif args and args[0] is self and callable(getattr(MaskedTensor, name, None)):
            return getattr(self, name)(*args[1:], **kwargs)     # (NumPy's own way)
        from .. import ma as namespace          # (core's functions and extras')
        fn = getattr(namespace, name, None) if func.__module__ == "numpy" and not numpys_own \
            else None
        if callable(fn) and name in namespace.__all__:
            return fn(*args, **kwargs)
        raise TypeError(f"{func.__module__}.{func.__name__} of a masked tensor would read its "
                        f"data and drop its mask; use lt.ma's functions or the masked "
                        f"tensor's methods, m.filled(value) or m.compressed(), or "
                        f"np.asarray(m) for the data alone")

    def __init__(self, data: Tensor, mask: Tensor, fill_value: Any = None) -> None:
        if mask.dtype != np.bool_:
            mask = mask.astype(np.bool_)
        if mask.shape != data.shape:
            F.broadcast_to(mask, data.shape)      # (NumPy's error where it cannot)
            # A mask of its own (a broadcast view is read-only), made from the
            # data, not its shape's numbers (a compiled function's call may
            # change them)
            mask = F.logical_or(mask, _zeros_like(data, dtype=np.bool_))
        self._data = data
        self._mask = mask
        # numpy.ma's ``_fill_value``: None (the dtype's default) or a 0-d
        # array.  Its dtype may differ from the data's: an operation's result
        # takes an operand's fill value as it is (numpy.ma's ``_update_from``),
        # which shows in ``fill_value`` and in the repr.
        self._fill_value: np.ndarray[Any, Any] | None = (
            None if fill_value is None else _check_fill_value(fill_value, data.dtype))
        # numpy.ma's ``nomask``.  numpy.ma holds either a mask array or
        # ``nomask``, and some results depend on which (a float32 mean is
        # float32 without a mask, float64 with one; ``getmask``; a view of a
        # nomask array does not share a mask given to it later).  lazyten's
        # mask is always a tensor (all False where numpy.ma has nomask), and
        # ``_shrink`` says what numpy.ma holds: None, a mask array; a tuple of
        # boolean tensors, nomask exactly when none of them has a True, which
        # is how numpy.ma's "shrinking" operations (``masked_where``,
        # comparisons, ``**``) decide it from the values.  ``()`` is nomask,
        # known when the graph is built; a tuple of tensors is decided when
        # something needs it (``_nomask``).
        self._shrink: tuple[Tensor, ...] | None = None

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

    def _nomask(self) -> bool:
        """Whether numpy.ma would hold ``nomask`` (``_shrink``).  Where that
        depends on the values, the masks it depends on are computed now (and
        the answer kept: they are snapshots, immutable)."""
        s = self._shrink
        if s is None or not s:
            return s is not None
        from .. import compute
        known = not builtins.any(bool(v) for v in compute(*(F.any(t) for t in s)))
        self._shrink = () if known else None
        return known

    def _own_mask_if_nomask(self) -> None:
        """Before a mask is written: numpy.ma gives an array it holds without
        a mask (``nomask``) a new mask array of its own, which its views (and
        its base) do not share; one with a mask array writes that one."""
        if self._nomask():
            self._mask = _own(self._mask)
        self._shrink = None

    # ------------------------------------------------------------ truth and scalars
    # As numpy.ma's: the data decides (ndarray's rules), except that a 0-d
    # masked value is numpy.ma's ``masked`` constant (what its operations and
    # reductions return for one): false, NaN as a float (with numpy.ma's
    # warning), no int, 0j, no index.
    def _scalar_state(self, kind: str) -> tuple[Any, bool]:
        from .. import compute
        if self.size != 1:
            raise TypeError(f"Only length-1 arrays can be converted to Python scalars "
                            f"({kind}() of a masked tensor of shape {self.shape})")
        d, m = compute(self._data, self._mask)
        return d.reshape(()).item(), bool(m.reshape(()))

    def __bool__(self) -> bool:
        if self.size == 0:
            raise ValueError("The truth value of an empty masked tensor is ambiguous; use "
                             ".size > 0 to check that it is not empty")
        if self.size != 1:
            raise ValueError(f"The truth value of a masked tensor with {self.size} elements "
                             f"is ambiguous; use .any() or .all()")
        value, is_masked = self._scalar_state("bool")
        return False if is_masked and self.ndim == 0 else bool(value)

    def __float__(self) -> float:
        value, is_masked = self._scalar_state("float")
        if is_masked:
            warnings.warn("Warning: converting a masked element to nan.", stacklevel=2)
            return float("nan")
        return float(value)

    def __int__(self) -> int:
        value, is_masked = self._scalar_state("int")
        if is_masked:
            raise np.ma.MaskError("Cannot convert masked element to a Python int.")
        return int(value)

    def __format__(self, spec: str) -> str:
        """A 0-d masked tensor formats as numpy.ma's element: its value, or
        ``--`` where masked (``f"{m[0]:.2f}"``); others as their text."""
        if self.ndim or not spec:
            return format(str(self), spec)
        value, is_masked = self._scalar_state("format")
        return "--" if is_masked else format(value, spec)

    def item(self, *args: Any) -> Any:
        """numpy.ma's ``item``: the element of the data (``m.item()``,
        ``m.item(i)``, ``m.item(i, j)``), the mask not read."""
        return self._data.eval().item(*args)

    def __complex__(self) -> complex:
        value, is_masked = self._scalar_state("complex")
        return 0j if is_masked and self.ndim == 0 else complex(value)

    def __index__(self) -> int:
        if self.dtype.kind not in "iu" or self.ndim:
            raise TypeError(f"only integer scalar arrays can be converted to a scalar index "
                            f"(a masked tensor {self.dtype}{list(self.shape)})")
        value, is_masked = self._scalar_state("index")
        if is_masked:  # numpy.ma's masked constant is a float
            raise TypeError("a masked element cannot be converted to a scalar index")
        return operator.index(value)

    # ------------------------------------------------------------ forcing
    def eval(self) -> np.ma.MaskedArray:
        """Data and mask in one plan, as a ``numpy.ma.MaskedArray``."""
        from .. import compute
        s = self._shrink
        if s is None or s:
            d, m, *anys = compute(self._data, self._mask, *(F.any(t) for t in (s or ())))
            if s and not builtins.any(bool(v) for v in anys):
                self._shrink = ()
        else:
            d, m = compute(self._data)[0], None
        return as_numpy_ma(d, None if self._shrink == () else m, self._fill_value)

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
        """A plain tensor with masked positions replaced by ``fill_value``
        (``lt.ma.filled``)."""
        return filled(self, fill_value)

    def count(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return count(self, axis, keepdims)

    def compressed(self) -> Tensor:
        return compressed(self)

    # ------------------------------------------------------------ views
    def _both(self, fn: Callable[[Tensor], Tensor]) -> MaskedTensor:
        # numpy.ma's views keep the fill value as it is (``_update_from``),
        # and share data and mask: a write to the view is one to its base.
        return _make(fn(self._data), fn(self._mask), self._fill_value, view=True,
                     shrink=self._shrink)

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
        out = MaskedTensor(self._data.astype(dtype), _own(self._mask), self._fill_value)
        out._shrink = self._shrink
        return out

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
        if value is not np.ma.masked:
            # (a write: a NumPy value, its mask too, and the index are read
            # at the call, as numpy.ma's)
            value = snapshot(value)
        key = _key(snapshot(index))
        data: Any
        mask: Any
        if value is np.ma.masked:
            self._own_mask_if_nomask()
            self._mask[key] = True
            return
        if _is_masked_type(value):
            v = _masked(value)
            data, mask = v._data, v._mask
            if isinstance(value, MaskedTensor) and value._data._is_element():
                # numpy.ma's element read is a NumPy scalar, written as data,
                # or its ``masked``, which masks and leaves the data: only
                # that gives an array without a mask a mask array (the
                # element's mask decides, lazily)
                if self._shrink is not None:
                    self._shrink = self._shrink + (_own(mask),)
                data = F.where(mask, self._data[key], data)
            elif not v._nomask():
                # (numpy.ma: a value without a mask leaves a nomask array so)
                self._own_mask_if_nomask()
        elif _is_masked_type(index):
            self._data[key] = value
            return
        else:
            data, mask = value, False
        self._data[key] = data
        self._mask[key] = mask

    # ------------------------------------------------------------ reductions
    # ``out=``: NumPy's functions (np.sum(m), np.std(m), ...) call these
    # methods with ``out=None``; lazy results are new tensors, so another
    # ``out`` is refused.
    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False, *,
            out: Any = None) -> MaskedTensor:
        _no_out(out, "sum")
        return sum(self, axis, dtype, keepdims)

    def prod(self, axis: Any = None, dtype: Any = None, keepdims: bool = False, *,
             out: Any = None) -> MaskedTensor:
        _no_out(out, "prod")
        return prod(self, axis, dtype, keepdims)

    def mean(self, axis: Any = None, dtype: Any = None, keepdims: bool = False, *,
             out: Any = None) -> MaskedTensor:
        _no_out(out, "mean")
        return mean(self, axis, dtype, keepdims)

    def var(self, axis: Any = None, dtype: Any = None, ddof: int = 0,
            keepdims: bool = False, *, out: Any = None) -> MaskedTensor:
        _no_out(out, "var")
        return var(self, axis, dtype, ddof, keepdims)

    def std(self, axis: Any = None, dtype: Any = None, ddof: int = 0,
            keepdims: bool = False, *, out: Any = None) -> MaskedTensor:
        _no_out(out, "std")
        return std(self, axis, dtype, ddof, keepdims)

    def min(self, axis: Any = None, keepdims: bool = False, *,
            out: Any = None, fill_value: Any = None) -> MaskedTensor:
        _no_out(out, "min")
        return min(self, axis, keepdims, fill_value=fill_value)

    def max(self, axis: Any = None, keepdims: bool = False, *,
            out: Any = None, fill_value: Any = None) -> MaskedTensor:
        _no_out(out, "max")
        return max(self, axis, keepdims, fill_value=fill_value)

    def ptp(self, axis: Any = None, out: Any = None, fill_value: Any = None,
            keepdims: bool = False) -> MaskedTensor:
        return ptp(self, axis, out, fill_value, keepdims)

    def anom(self, axis: int | None = None, dtype: Any = None) -> MaskedTensor:
        return anom(self, axis, dtype)

    def argsort(self, axis: Any = np._NoValue, kind: str | None = None, order: Any = None,
                endwith: bool | None = True, fill_value: Any = None, *,
                stable: bool | None = None) -> Tensor:
        return argsort(self, axis, kind, order, endwith, fill_value, stable=stable)

    def sort(self, axis: int = -1, kind: str | None = None, order: Any = None,
             endwith: bool | None = True, fill_value: Any = None, *,
             stable: bool | None = None) -> None:
        """Sort in place (numpy.ma's): data and mask moved together, masked
        elements last (``endwith``) or first; views and shared tensors see
        it, as numpy.ma's write does."""
        done = sort(self, axis, kind, order, endwith, fill_value, stable=stable)
        self._data[...] = done._data
        if self._shrink != ():               # (nomask: nothing to move)
            self._mask[...] = done._mask

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

    # ndarray's bitwise operators: NumPy's ufunc on the data, masks or'ed
    # (and shrunk, as numpy.ma's __array_wrap__ does).
    def __and__(self, o: Any) -> MaskedTensor: return _bitwise("bitwise_and", self, o)
    def __rand__(self, o: Any) -> MaskedTensor: return _bitwise("bitwise_and", o, self)
    def __or__(self, o: Any) -> MaskedTensor: return _bitwise("bitwise_or", self, o)
    def __ror__(self, o: Any) -> MaskedTensor: return _bitwise("bitwise_or", o, self)
    def __xor__(self, o: Any) -> MaskedTensor: return _bitwise("bitwise_xor", self, o)
    def __rxor__(self, o: Any) -> MaskedTensor: return _bitwise("bitwise_xor", o, self)
    def __lshift__(self, o: Any) -> MaskedTensor:
        return _bitwise("bitwise_left_shift", self, o)
    def __rlshift__(self, o: Any) -> MaskedTensor:
        return _bitwise("bitwise_left_shift", o, self)
    def __rshift__(self, o: Any) -> MaskedTensor:
        return _bitwise("bitwise_right_shift", self, o)
    def __rrshift__(self, o: Any) -> MaskedTensor:
        return _bitwise("bitwise_right_shift", o, self)

    __hash__ = None  # type: ignore[assignment]

    # ndarray's unary operators: the ufunc on the data, the mask copied (a
    # mask array even where the operand has none: numpy.ma's __array_wrap__).
    def __neg__(self) -> MaskedTensor:
        return _make(-self._data, self._mask, self._fill_value)

    def __pos__(self) -> MaskedTensor:
        return _make(_op("positive", self._data), self._mask, self._fill_value)

    def __invert__(self) -> MaskedTensor:
        return _make(_op("bitwise_invert", self._data), self._mask, self._fill_value)

    def __abs__(self) -> MaskedTensor:
        return _make(_op("abs", self._data), self._mask, self._fill_value)

    # ------------------------------------------------------------ more of numpy.ma's methods
    def any(self, axis: Any = None, out: Any = None, keepdims: bool = False) -> MaskedTensor:
        _no_out(out, "any")
        return any(self, axis, keepdims)

    def all(self, axis: Any = None, out: Any = None, keepdims: bool = False) -> MaskedTensor:
        _no_out(out, "all")
        return all(self, axis, keepdims)

    # numpy.ma's _arraymethod on views: data and mask share the base's, the
    # fill value kept (a write reaches the base, as in numpy.ma).
    def squeeze(self, axis: Any = None) -> MaskedTensor:
        return self._both(lambda t: F.squeeze(t, axis) if axis is not None else F.squeeze(t))

    def transpose(self, *axes: Any) -> MaskedTensor:
        ax = axes[0] if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))) \
            else (axes or None)
        return self._both(lambda t: F.transpose(t, ax))

    def ravel(self, order: str = "C") -> MaskedTensor:
        """Data and mask flattened by NumPy's ``ravel`` (numpy.ma's): a view
        where NumPy's is, else a copy, so a write to it reaches this tensor
        as in numpy.ma; "A"/"K" as the data's layout decides (F order for
        Fortran-ordered data); nomask and the fill value kept."""
        from ..manipulation import ravel as plain
        if order not in ("C", "F", "A", "K"):
            raise ValueError(f"ravel: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
        if order in ("A", "K"):
            # (numpy.ma: "F" where the data are Fortran- and not C-contiguous)
            d = self._data
            order = "F" if d.ndim > 1 and F.is_f_contiguous(d) and \
                not F.is_c_contiguous(d) else "C"
        return self._both(lambda t: plain(t, order))

    def flatten(self, order: str = "C") -> MaskedTensor:
        """A flat copy (data and mask its own; the fill value kept)."""
        return self.ravel(order).copy()

    def copy(self, order: str = "C") -> MaskedTensor:
        """A copy (numpy.ma: data and mask copied, nomask and fill value kept)."""
        return _make(self._data, self._mask, self._fill_value, shrink=self._shrink)

    def __copy__(self) -> MaskedTensor:
        # (``copy.copy``: numpy.ma's is a copy of data and mask, not a second
        # handle on them, whose writes each reached the other)
        return self.copy()

    def __contains__(self, value: Any) -> bool:
        """numpy.ma's ``value in m``: ``(m == value).any()``, masked elements
        left out (computed now); not Python's walk over the rows, whose
        truth values a 2-d tensor's rows do not have."""
        return bool((self == value).any())

    def cumsum(self, axis: Any = None, dtype: Any = None, out: Any = None) -> MaskedTensor:
        """numpy.ma's cumsum: of the data filled with 0; the mask copied
        (flattened for ``axis=None``; nomask kept); the default fill value."""
        _no_out(out, "cumsum")
        return _cumulative(self, F.cumsum, 0, axis, dtype)

    def cumprod(self, axis: Any = None, dtype: Any = None, out: Any = None) -> MaskedTensor:
        """numpy.ma's cumprod: of the data filled with 1 (as ``cumsum``)."""
        _no_out(out, "cumprod")
        return _cumulative(self, F.cumprod, 1, axis, dtype)

    def clip(self, min: Any = None, max: Any = None,  # noqa: A002 - NumPy's names
             out: Any = None) -> MaskedTensor:
        """ndarray's clip (NumPy's ufunc, wrapped by numpy.ma): clipped data
        everywhere, the operands' masks or'ed and shrunk, the fill value kept."""
        _no_out(out, "clip")
        return _clip(self, min, max)

    def round(self, decimals: int = 0, out: Any = None) -> MaskedTensor:
        """numpy.ma's round: the data rounded; mask, nomask and fill value kept."""
        _no_out(out, "round")
        return _make(F.round(self._data, decimals), self._mask, self._fill_value,
                     shrink=self._shrink)

    def conj(self) -> MaskedTensor:
        """ndarray's conj: real data as they are (nomask kept), complex ones by
        NumPy's ufunc (numpy.ma gives them a mask array)."""
        if self.dtype.kind != "c":
            return _make(self._data, self._mask, self._fill_value, shrink=self._shrink)
        out: MaskedTensor = _ufunc_call(np.conjugate, self)
        return out

    conjugate = conj

    def _part(self, name: str) -> MaskedTensor:
        # numpy.ma's real/imag: the data's part, the mask copied (nomask
        # kept), the default fill value.
        out = MaskedTensor(_op(name, self._data), _own(self._mask))
        out._shrink = self._shrink
        return out

    @property
    def real(self) -> MaskedTensor:
        return self._part("real")

    @property
    def imag(self) -> MaskedTensor:
        return self._part("imag")

    # numpy.ma's ``_arraymethod``s that give views: data and mask both, the
    # fill value kept (a write reaches the base).
    def swapaxes(self, axis1: int, axis2: int) -> MaskedTensor:
        return self._both(lambda t: F.swapaxes(t, axis1, axis2))

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> MaskedTensor:
        return self._both(lambda t: F.diagonal(t, offset, axis1, axis2))

    @property
    def mT(self) -> MaskedTensor:  # noqa: N802 - NumPy's name
        return self._both(lambda t: t.mT)

    def repeat(self, repeats: Any, axis: int | None = None) -> MaskedTensor:
        """Data and mask repeated (numpy.ma's ``_arraymethod``: a copy, the
        fill value and nomask kept)."""
        return _make(F.repeat(self._data, repeats, axis), F.repeat(self._mask, repeats, axis),
                     self._fill_value, shrink=self._shrink)

    def take(self, indices: Any, axis: int | None = None, out: Any = None,
             mode: str = "raise") -> MaskedTensor:
        """Data and mask taken at ``indices`` (numpy.ma's: a masked index
        reads element 0 and masks its result; the default fill value)."""
        _no_out(out, "take")
        idx, imask = indices, None
        if _is_masked_type(indices):
            mi = _masked(indices)
            idx, imask = filled(mi, 0), (None if mi._nomask() else mi._mask)
        d = F.take(self._data, idx, axis=axis, mode=mode)
        m = F.take(self._mask, idx, axis=axis, mode=mode)
        if imask is None:
            return _make(d, m, None, shrink=self._shrink)
        return _make(d, F.broadcast_to(m | imask, d.shape), None)

    def compress(self, condition: Any, axis: int | None = None,
                 out: Any = None) -> MaskedTensor:
        """The slices where ``condition`` is true, data and mask (numpy.ma's;
        the condition is computed now: it decides the result's length)."""
        _no_out(out, "compress")
        from ..manipulation import compress as plain
        cond = np.asarray(condition)
        return _make(plain(cond, self._data, axis), plain(cond, self._mask, axis),
                     self._fill_value, shrink=self._shrink)

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
              out: Any = None) -> Tensor | MaskedTensor:
        """The sum along a diagonal, masked elements left out, cast to
        ``dtype``, which is float64 when None (numpy.ma casts its result with
        ``astype(dtype)``): a plain tensor, as numpy.ma's, but for an array
        of 3 or more dimensions without a mask, whose traces numpy.ma gives
        as a masked array (without a mask, the fill value kept)."""
        _no_out(out, "trace")
        if self._nomask():
            res: Tensor = F.trace(self._data, offset, axis1, axis2).astype(np.dtype(dtype))
            if self.ndim > 2:
                return _make(res, _zeros_like(res, dtype=np.bool_), self._fill_value, shrink=())
            return res
        diag = self.diagonal(offset, axis1, axis2).astype(np.dtype(dtype))
        return F.sum(diag.filled(0), axis=-1)

    def put(self, indices: Any, values: Any, mode: str = "raise") -> None:
        """The elements at the flat ``indices`` become ``values`` (repeated as
        needed), in place, as numpy.ma's: their mask is cleared, or becomes
        ``values``' mask, and the result's mask is shrunk."""
        indices, values = snapshot(indices), snapshot(values)
        vmask: Any = False
        if _is_masked_type(values):
            v = _masked(values)
            values, vmask = v._data, (False if v._nomask() else v._mask)
        self._data.put(indices, values, mode=mode)
        if vmask is False and self._nomask():
            return
        self._own_mask_if_nomask()
        self._mask.put(indices, vmask, mode=mode)
        self._shrink = (_own(self._mask),)

    def fill(self, value: Any) -> None:
        """Every element of the data becomes ``value`` (ndarray's ``fill``,
        which numpy.ma keeps: the mask is not changed)."""
        self._data.fill(value)

    def get_fill_value(self) -> Any:
        return self.fill_value

    def set_fill_value(self, value: Any = None) -> None:
        self.fill_value = value

    def get_real(self) -> MaskedTensor:
        return self.real

    def get_imag(self) -> MaskedTensor:
        return self.imag

    def product(self, axis: Any = None, dtype: Any = None, keepdims: bool = False, *,
                out: Any = None) -> MaskedTensor:
        return self.prod(axis, dtype, keepdims, out=out)

    def shrink_mask(self) -> MaskedTensor:
        return shrink_mask(self)

    def unshare_mask(self) -> MaskedTensor:
        """The mask made this tensor's own: a later write to it does not
        reach the views it shared it with (numpy.ma's ``unshare_mask``)."""
        self._mask = _own(self._mask)
        return self

    # ndarray's and numpy.ma's metadata and conversions
    @property
    def hardmask(self) -> bool:
        """False: lazyten's masks are soft (numpy.ma's default; a write
        unmasks what it writes)."""
        return False

    @property
    def baseclass(self) -> type:
        return np.ndarray

    @property
    def recordmask(self) -> Tensor:
        """The mask (of a dtype without fields, numpy.ma's is the mask)."""
        return self._mask

    def iscontiguous(self) -> bool:
        """Whether the data is C-contiguous, as its value is laid out."""
        return F.is_c_contiguous(self._data)

    def tobytes(self, fill_value: Any = None,
                order: Literal["C", "F", "A", "K"] = "C") -> bytes:
        """The data's bytes, masked elements as ``fill_value`` (numpy.ma's;
        computed now)."""
        return bytes(self.filled(fill_value).eval().tobytes(order))

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
        """ndarray's ``searchsorted`` of the data (numpy.ma does not
        override it: the mask is not read)."""
        return self._data.searchsorted(_base(v) if _is_masked_type(v) else v, side, sorter)

    def resize(self, *args: Any, **kwargs: Any) -> None:
        raise ValueError("A masked array does not own its data and therefore cannot be "
                         "resized.\nUse the numpy.ma.resize function instead.")

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def tolist(self, fill_value: Any = None) -> Any:
        """Nested lists, masked values as None, as numpy.ma (computed now)."""
        from .. import compute
        if fill_value is not None:
            return compute(self.filled(fill_value))[0].tolist()
        if self._nomask():
            return compute(self._data)[0].tolist()
        d, m = compute(self._data, self._mask)
        obj = np.array(d.ravel(), dtype=object)
        obj[m.ravel()] = None
        return obj.reshape(d.shape).tolist()

    def nonzero(self) -> tuple[Tensor, ...]:
        """Indices of the unmasked nonzero elements (masked ones read as 0;
        computed now: their number depends on the values)."""
        from ..sorting import nonzero as nz
        return nz(self.filled(0))

    def dot(self, b: Any, out: Any = None, strict: bool = False) -> MaskedTensor:
        _no_out(out, "dot")
        return dot(self, b, strict)

    def __matmul__(self, o: Any) -> MaskedTensor:
        return _matmul(self, o)

    def __rmatmul__(self, o: Any) -> MaskedTensor:
        return _matmul(o, self)

    # ------------------------------------------------------------ in-place operators
    # They write this tensor, so its views and its base see the change, as in
    # numpy.ma: + - * / // ** by numpy.ma's own in-place methods, the others
    # by ndarray's (the ufunc into the data, a new mask).  NumPy's casting
    # rule (same_kind) and shape rule apply: int += 2.5 is a TypeError.
    def __iadd__(self, o: Any) -> MaskedTensor: return _iarith(self, "add", o, 0)
    def __isub__(self, o: Any) -> MaskedTensor: return _iarith(self, "subtract", o, 0)
    def __imul__(self, o: Any) -> MaskedTensor: return _iarith(self, "multiply", o, 1)
    def __itruediv__(self, o: Any) -> MaskedTensor: return _idivide(self, "divide", o)
    def __ifloordiv__(self, o: Any) -> MaskedTensor:
        return _idivide(self, "floor_divide", o)
    def __ipow__(self, o: Any) -> MaskedTensor: return _ipow(self, o)
    def __imod__(self, o: Any) -> MaskedTensor: return _iufunc(self, "remainder", o)
    def __iand__(self, o: Any) -> MaskedTensor: return _iufunc(self, "bitwise_and", o)
    def __ior__(self, o: Any) -> MaskedTensor: return _iufunc(self, "bitwise_or", o)
    def __ixor__(self, o: Any) -> MaskedTensor: return _iufunc(self, "bitwise_xor", o)
    def __ilshift__(self, o: Any) -> MaskedTensor:
        return _iufunc(self, "bitwise_left_shift", o)
    def __irshift__(self, o: Any) -> MaskedTensor:
        return _iufunc(self, "bitwise_right_shift", o)


_INPLACE_METHODS = {"add": "__iadd__", "subtract": "__isub__", "multiply": "__imul__",
                    "divide": "__itruediv__", "floor_divide": "__ifloordiv__",
                    "remainder": "__imod__", "bitwise_and": "__iand__",
                    "bitwise_or": "__ior__", "bitwise_xor": "__ixor__",
                    "bitwise_left_shift": "__ilshift__", "bitwise_right_shift": "__irshift__"}


def _tensor_inplace(t: Tensor, name: str, o: Any) -> Tensor:
    """``t <op>= o`` by the Tensor's own in-place operator (its casting and
    shape errors; it writes ``t``, or is a new value for an element
    ``m[i]``, which NumPy gives as a scalar)."""
    out: Tensor = getattr(t, _INPLACE_METHODS[name])(o)
    return out


def _write_all(t: Tensor, value: Tensor) -> Tensor:
    """``t[...] = value`` (same shape, cast), as an in-place operator writes."""
    if t._is_element():
        return value.astype(t.dtype) if value.dtype != t.dtype else value
    t._write(value._node)
    return t


def _mask_for_write(self: MaskedTensor) -> None:
    """numpy.ma's ``self._mask |= ...`` on an array it holds without a mask
    makes a new mask, not shared with its views or its base."""
    if self._shrink is not None and self._nomask():
        self._mask = _own(self._mask)


def _or_mask_into(self: MaskedTensor, m: Tensor) -> None:
    mk = self._mask
    mk |= m
    self._mask = mk


def _iarith(self: MaskedTensor, name: str, other: Any, neutral: int) -> MaskedTensor:
    """numpy.ma's ``__iadd__``, ``__isub__``, ``__imul__``: the other's mask
    or'ed in, its data replaced by ``neutral`` where masked (so masked data
    stays), then ndarray's in-place operator on the data."""
    o = _operand(snapshot(other), strong=True)     # (read at the call: a write)
    od = wrap(o.data)
    if o.mask is not None:
        nomask_before = self._shrink is not None and self._nomask()
        _mask_for_write(self)
        _or_mask_into(self, o.mask)
        # (nomask stays so where the other's mask has no True)
        self._shrink = (_own(o.mask),) if nomask_before else None
    self._data = _tensor_inplace(self._data, name, _put(self._mask, neutral, od))
    return self


def _idivide(self: MaskedTensor, name: str, other: Any) -> MaskedTensor:
    """numpy.ma's ``__itruediv__``/``__ifloordiv__``: masked also where the
    divisor is too small (``_divide_domain``), the divisor 1 where masked."""
    o = _operand(snapshot(other), strong=True)     # (read at the call: a write)
    od = wrap(o.data)
    dom = _divide_domain(self._data, od)
    new = dom if o.mask is None else o.mask | dom
    nomask_before = self._shrink is not None and self._nomask()
    _mask_for_write(self)
    _or_mask_into(self, new)
    self._shrink = (_own(new),) if nomask_before else None
    self._data = _tensor_inplace(self._data, name, _put(self._mask, 1, _put(dom, 1, od)))
    return self


def _ipow(self: MaskedTensor, other: Any) -> MaskedTensor:
    """numpy.ma's ``__ipow__``: the exponent 1 where masked, then what is not
    finite masked (in the mask, which views share) and set to the fill
    value; the other's mask is or'ed into a new mask (views keep theirs);
    the mask shrinks."""
    o = _operand(snapshot(other), strong=True)     # (read at the call: a write)
    od = _put(self._mask, 1, wrap(o.data))
    d = self._data
    if self.dtype == np.bool_ and od.dtype == np.bool_:
        res, bad = _op("pow", d, od), None
    else:
        res, bad = _quiet("pow", d, od)
    if not np.can_cast(res.dtype, self.dtype, "same_kind"):
        raise TypeError(f"pow: cannot cast the result from {res.dtype} to {self.dtype} with "
                        f"casting rule 'same_kind' (in-place on a masked {self.dtype} tensor)")
    if res.shape != self.shape:
        raise ValueError(f"pow: non-broadcastable output: in-place result has shape "
                         f"{res.shape} but the masked tensor has shape {self.shape}")
    res = res if res.dtype == self.dtype else res.astype(self.dtype)
    invalid = None
    if _inexact(self.dtype):
        invalid = ~_op("isfinite", res)
        invalid = invalid if bad is None else invalid | bad
        res = F.where(invalid, _fill_as(self._fill_value, self.dtype), res)
    self._data = _write_all(d, res)
    if invalid is not None or o.mask is not None:
        _mask_for_write(self)
    if invalid is not None:
        _or_mask_into(self, invalid)
    if o.mask is not None:
        self._mask = _own(_full(self._mask | o.mask, self._data))
    self._shrink = (_own(self._mask),)
    return self


def _iufunc(self: MaskedTensor, name: str, other: Any) -> MaskedTensor:
    """ndarray's in-place operators (``%= &= |= ^= <<= >>=``) on a
    MaskedArray: the ufunc writes the data everywhere (Python scalars
    weak); numpy.ma's ``__array_wrap__`` then gives it a new mask (views keep
    the old one), the operands' masks or'ed and shrunk, and for ``%`` masks
    its domain, tested on the result as numpy.ma does, setting the data there
    to 1."""
    o = _operand(other, strong=False)
    od = o.data
    m = _full(_or(self._mask, o.mask), self._data)
    d = _tensor_inplace(self._data, name, od)
    if name == "remainder":
        dom = _divide_domain(d, _strong(od))
        d = _write_all(d, F.where(dom, np.asarray(1, d.dtype)[()], d))
        m = m | dom
    self._data = d
    self._mask = _own(m)
    self._shrink = (_own(m),)
    return self


def _bitwise(name: str, a: Any, b: Any) -> MaskedTensor:
    return _ufunc_op(name, a, b, domain=False)


def _no_out(out: Any, name: str) -> None:
    if out is not None:
        raise TypeError(f"lt.ma {name}: out= is not supported (a lazy result is a new masked "
                        f"tensor); use the returned value")


def _make(data: Tensor, mask: Tensor, fill: np.ndarray[Any, Any] | None,
          view: bool = False, shrink: tuple[Tensor, ...] | None = None) -> MaskedTensor:
    """A MaskedTensor with a stored fill value taken as it is (no check).

    An operation's result owns its data and mask, which may be an operand's
    passed through (``-m`` keeps ``m``'s mask): a later write to it must not
    reach the operand.  A ``view`` shares its base's."""
    out = MaskedTensor(data if view else _own(data), mask if view else _own(mask))
    out._fill_value = fill
    out._shrink = shrink
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
    shrink: tuple[Tensor, ...] | None = ()  # MaskedTensor._shrink (a plain one: nomask)


def _refuse_sparse(x: Any, what: str) -> None:
    import scipy.sparse as sp

    from ..sparse import SparseMatrix
    if isinstance(x, SparseMatrix) or sp.issparse(x):
        raise TypeError(f"lt.ma: {what} cannot be a sparse matrix (lt.sparse/scipy.sparse "
                        f"matrices have no masked form); use S.to_dense() (a dense tensor)")


def _operand(x: Any, strong: bool) -> _Operand:
    """An operand as numpy.ma sees it.  ``strong``: as numpy.ma's own
    operations read it (``getdata``), a Python scalar becoming a 0-d array,
    which NEP 50 does not treat as weak; otherwise as ndarray's operators
    pass it to the ufunc (a Python scalar stays weak)."""
    if isinstance(x, np.ma.MaskedArray):
        x = _from_numpy(x)
    if isinstance(x, MaskedTensor):
        return _Operand(x._data, x._mask, x._fill_value, x._shrink)
    _refuse_sparse(x, "an operand of a masked operation")
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
                 None if fv is None else np.array(fv),
                 shrink=() if np.ma.getmask(x) is np.ma.nomask else None)


def _cat(*states: tuple[Tensor, ...] | None) -> tuple[Tensor, ...] | None:
    """The ``_shrink`` of a result that numpy.ma holds without a mask exactly
    when every operand has none (``_MaskedBinaryOperation``'s mask)."""
    out: tuple[Tensor, ...] = ()
    for st in states:
        if st is None:
            return None
        out += st
    return out


def _shrunk(mask: Tensor, *states: tuple[Tensor, ...] | None) -> tuple[Tensor, ...]:
    """The ``_shrink`` of a result whose mask numpy.ma shrinks (``mask_or``,
    ``make_mask(shrink=True)``): nomask where ``mask`` has no True (known
    where no operand has a mask)."""
    return () if _cat(*states) == () else (_own(mask),)


def _or(*masks: Tensor | None) -> Tensor | None:
    out: Tensor | None = None
    for m in masks:
        if m is not None:
            out = m if out is None else out | m
    return out


def _full(m: Tensor | None, like: Tensor) -> Tensor:
    """A mask of ``like``'s shape (all False for None): made from ``like``,
    not from its shape's numbers, which a compiled function's call may
    change (a None dimension, ``x[:2]``)."""
    if m is None:
        return _zeros_like(like, dtype=np.bool_)
    return m if m.shape == like.shape else F.logical_or(m, _zeros_like(like, dtype=np.bool_))


def _put(cond: Tensor, value: Any, x: Any) -> Tensor:
    """``x`` with ``value`` (in ``x``'s dtype) where ``cond``: an operand made
    harmless where NumPy would raise a flag that numpy.ma ignores."""
    return F.where(cond, np.asarray(value, dtype=x.dtype)[()], x)


def _keep(m: Tensor, x: Any, res: Tensor) -> Tensor:
    """``res`` with ``x`` where ``m``: the data numpy.ma leaves under the mask
    (``np.copyto(result, x, where=m)``, cast to the result's dtype), laid out
    as ``res``, as copyto's (``_mask_laid_out_as``)."""
    out = F.where(_mask_laid_out_as(m, res), x, res)
    return out if out.dtype == res.dtype else out.astype(res.dtype)


def _mask_laid_out_as(m: Tensor, data: Tensor) -> Tensor:
    """``m`` laid out in the memory order of ``data`` where that is known and
    not C (a copy of the mask, a byte an element), so that ``where(m, v,
    data)`` is laid out as the data, as numpy.ma's writes into (a copy of)
    its data are; with the mask's own layout (C) NumPy's iterator would
    take another order, and a sum of the result add in it."""
    if data.ndim < 2:
        return m
    layout, known = infer_layout(data._node)
    if not known or layout == "C":
        return m
    target = dense_layout(m.shape, 1, keep_order(layout_stand_in(data.shape, data.dtype,
                                                                 layout)))
    if infer_layout(m._node) == (target, True):
        return m
    from ..memory import layout_copy
    return layout_copy(m, target, np.dtype(np.bool_))


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


# (the others, numpy.ma's comparisons, logical and bitwise functions,
# ``arctan2`` and ``hypot``, raise neither flag)
_FLAGGED: dict[str, Callable[[Any, Any], Tensor | None]] = {
    "add": _flag_add, "subtract": _flag_subtract, "multiply": _flag_multiply,
    "divide": _flag_divide, "floor_divide": _flag_divide, "remainder": _flag_divide,
    "fmod": _flag_divide, "pow": _flag_pow,
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
    flag = _FLAGGED.get(name)
    bad = None if flag is None else flag(x, y)
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
    m = _full(_or(x.mask, y.mask), res)
    return _make(_keep(m, x.data, res), m, _fill_of(x, y), shrink=_cat(x.shrink, y.shrink))


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
    m = _full(m, res)
    laid = _mask_laid_out_as(m, res)     # (numpy.ma writes into ``res``: its layout)
    data = F.where(laid, 0, res)
    if np.can_cast(x.data.dtype, res.dtype, "safe"):
        data = data + laid * x.data
    return _make(data, m, _fill_of(x, y))


def _power(a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``power``: the base's data kept under the mask, then every
    position that is not finite (NaN or inf, masked or not) masked and set
    to the fill value.  The result takes the base's fill value only."""
    x, y = _operand(a, strong=True), _operand(b, strong=True)
    res, bad = _quiet("pow", x.data, y.data)
    m = _or(x.mask, y.mask)
    if m is not None:
        res = _keep(_full(m, res), x.data, res)
    # (nomask where numpy.ma's mask_or of the operands' masks is, and nothing
    # is invalid)
    if bad is None:  # integers: never NaN or inf
        return _make(res, _full(m, res), x.fill, shrink=_mask_or_state(x, y))
    invalid = ~_op("isfinite", res) | (bad if m is None else bad & ~m)
    mk = _full(_or(m, invalid), res)
    return _make(F.where(invalid, _fill_as(x.fill, res.dtype), res), mk, x.fill,
                 shrink=_mask_or_state(x, y) + (_own(invalid),))


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
    mk = _full(m, res)
    return _make(res, mk, fill, shrink=_mask_or_state(x, y))


def _mask_or_state(x: _Operand, y: _Operand) -> tuple[Tensor, ...]:
    """The ``_shrink`` of numpy.ma's ``mask_or(getmask(x), getmask(y))``:
    nomask where what it or's has no True, which is one operand's mask as
    it is where the other holds nomask, both masks broadcast together where
    both hold one (a True that an empty axis broadcasts away then counts
    for nothing)."""
    if _cat(x.shrink, y.shrink) == ():
        return ()
    if x.mask is None or y.mask is None:
        return tuple(_own(t) for t in (x.mask, y.mask) if t is not None)
    hx, hy = _holds_mask(x.shrink), _holds_mask(y.shrink)
    alone = F.any(x.mask) | F.any(y.mask)       # (one holds nomask: all False)
    union = F.any(x.mask | y.mask)
    return (_own(F.where(F.logical_and(hx, hy), union, alone)),)


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
    mk = _full(m, res)
    # (numpy.ma's __array_wrap__: ``reduce(mask_or, ...)`` shrinks)
    return _make(res, mk, _fill_of(x, y),
                 shrink=_shrunk(mk, x.shrink, y.shrink) if not domain else (_own(mk),))


def _divmod(a: Any, b: Any) -> tuple[MaskedTensor, MaskedTensor]:
    # np.divmod has no domain in numpy.ma: only the masks are or'ed.
    return (_ufunc_op("floor_divide", a, b, domain=False),
            _ufunc_op("remainder", a, b, domain=False))


def _unary(name: str | Callable[[Tensor], Tensor], x: Any,
           domain: Callable[[Tensor], Tensor] | None) -> MaskedTensor:
    """numpy.ma's unary functions (``_MaskedUnaryOperation``): a function with
    a domain is also masked outside it and where its result is not finite;
    the data is kept under the mask where it casts (same kind).  ``name``:
    an elementwise op, or a function of tensors (``angle``)."""
    a = _masked(x)
    d = a._data
    fn: Callable[[Tensor], Tensor] = name if callable(name) else lambda t: _op(name, t)
    if domain is None:
        res = fn(d)
        m = a._mask
    else:
        # numpy.ma ignores the flags that come outside the domain (sqrt(-1),
        # log(0)): there the function gets 1 instead, silently.
        dom = domain(d)
        res = fn(_put(dom, 1, d))
        m = a._mask | dom | ~_op("isfinite", res)
    if np.can_cast(d.dtype, res.dtype, "same_kind"):
        res = F.where(_mask_laid_out_as(m, res), d, res)   # (numpy.ma's copyto into res)
    return _make(res, m, a._fill_value, shrink=a._shrink if domain is None else None)


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


# numpy.ma's functions of its ufuncs, by their rules: ``_MaskedUnaryOperation``
# (``_unary``, with numpy.ma's domain where it has one: ``tan``, ``arcsin``,
# ``log2``, ...), ``_MaskedBinaryOperation`` (``_masked_op``: ``add``,
# ``arctan2``, ``equal``, ``logical_and``, ...), ``_DomainedBinaryOperation``
# (``_domained_op``: the divisions and remainders) and ``_extrema_operation``
# (``maximum``, ``minimum``).  Named one by one, so that type checkers see them.

def _ma_function(ufunc: Any, kind: str) -> Callable[..., MaskedTensor]:
    from ..functions import UFUNC_OPS
    name = UFUNC_OPS[ufunc]
    f: Callable[..., MaskedTensor]
    if kind == "unary":
        def f(x: Any) -> MaskedTensor:
            return _unary(name, x, _unary_domain(ufunc))
    elif kind == "masked":
        def f(a: Any, b: Any) -> MaskedTensor:
            return _masked_op(name, a, b)
    else:
        def f(a: Any, b: Any) -> MaskedTensor:
            return _domained_op(name, a, b)
    f.__name__ = f.__qualname__ = ufunc.__name__
    f.__doc__ = f"numpy.ma's ``{ufunc.__name__}``: NumPy's on the data, masked as numpy.ma masks."
    return f


sin = _ma_function(np.sin, "unary")
cos = _ma_function(np.cos, "unary")
tan = _ma_function(np.tan, "unary")
arcsin = _ma_function(np.arcsin, "unary")
arccos = _ma_function(np.arccos, "unary")
arctan = _ma_function(np.arctan, "unary")
arcsinh = _ma_function(np.arcsinh, "unary")
arccosh = _ma_function(np.arccosh, "unary")
arctanh = _ma_function(np.arctanh, "unary")
sinh = _ma_function(np.sinh, "unary")
cosh = _ma_function(np.cosh, "unary")
tanh = _ma_function(np.tanh, "unary")
absolute = _ma_function(np.absolute, "unary")
fabs = _ma_function(np.fabs, "unary")
negative = _ma_function(np.negative, "unary")
floor = _ma_function(np.floor, "unary")
ceil = _ma_function(np.ceil, "unary")
logical_not = _ma_function(np.logical_not, "unary")
conjugate = _ma_function(np.conjugate, "unary")
log2 = _ma_function(np.log2, "unary")
log10 = _ma_function(np.log10, "unary")
add = _ma_function(np.add, "masked")
subtract = _ma_function(np.subtract, "masked")
multiply = _ma_function(np.multiply, "masked")
arctan2 = _ma_function(np.arctan2, "masked")
hypot = _ma_function(np.hypot, "masked")
equal = _ma_function(np.equal, "masked")
not_equal = _ma_function(np.not_equal, "masked")
less = _ma_function(np.less, "masked")
less_equal = _ma_function(np.less_equal, "masked")
greater = _ma_function(np.greater, "masked")
greater_equal = _ma_function(np.greater_equal, "masked")
logical_and = _ma_function(np.logical_and, "masked")
logical_or = _ma_function(np.logical_or, "masked")
logical_xor = _ma_function(np.logical_xor, "masked")
bitwise_and = _ma_function(np.bitwise_and, "masked")
bitwise_or = _ma_function(np.bitwise_or, "masked")
bitwise_xor = _ma_function(np.bitwise_xor, "masked")
divide = _ma_function(np.divide, "domained")
floor_divide = _ma_function(np.floor_divide, "domained")
remainder = _ma_function(np.remainder, "domained")
fmod = _ma_function(np.fmod, "domained")
true_divide = divide
mod = remainder
__all__ += ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "arcsinh", "arccosh",
            "arctanh", "sinh", "cosh", "tanh", "absolute", "fabs", "negative", "floor",
            "ceil", "logical_not", "conjugate", "log2", "log10", "add", "subtract",
            "multiply", "arctan2", "hypot", "equal", "not_equal", "less", "less_equal",
            "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
            "bitwise_and", "bitwise_or", "bitwise_xor", "divide", "floor_divide",
            "remainder", "fmod", "true_divide", "mod", "power", "maximum", "minimum"]


def power(a: Any, b: Any, third: Any = None) -> MaskedTensor:
    """numpy.ma's ``power`` (``a ** b``)."""
    if third is not None:
        raise np.ma.MaskError("3-argument power not supported.")
    return _power(a, b)


def maximum(a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``maximum`` of two operands: ``where(greater(a, b), a, b)``,
    numpy.ma's ``where`` (masked where the comparison is)."""
    return where(_masked_op("greater", a, b), a, b)


def minimum(a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``minimum`` of two operands (see ``maximum``)."""
    return where(_masked_op("less", a, b), a, b)


# numpy.ma's functions of its methods (``_frommethod``: the operand made a
# masked array first), under their names and numpy.ma's aliases.

def _ma_method_function(name: str, method: str) -> Callable[..., Any]:
    def f(a: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(_masked(a), method)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy.ma's ``{name}``: ``masked_array(a).{method}(...)``."
    return f


clip = _ma_method_function("clip", "clip")
copy = _ma_method_function("copy", "copy")
cumprod = _ma_method_function("cumprod", "cumprod")
cumsum = _ma_method_function("cumsum", "cumsum")
nonzero = _ma_method_function("nonzero", "nonzero")
ravel = _ma_method_function("ravel", "ravel")
reshape = _ma_method_function("reshape", "reshape")
squeeze = _ma_method_function("squeeze", "squeeze")
transpose = _ma_method_function("transpose", "transpose")
round = _ma_method_function("round", "round")  # noqa: A001 - numpy.ma's name
round_ = _ma_method_function("round_", "round")
around = _ma_method_function("around", "round")
amax = _ma_method_function("amax", "max")
amin = _ma_method_function("amin", "min")
product = _ma_method_function("product", "prod")
__all__ += ["clip", "copy", "cumprod", "cumsum", "nonzero", "ravel", "reshape", "squeeze",
            "transpose", "round", "round_", "around", "amax", "amin", "product"]


# numpy.ma's creation functions: masked arrays without a mask (``nomask``),
# a ``_like``'s keeping its operand's mask and fill value, ``masked_all``'s
# all masked.

def zeros(shape: Any, dtype: Any = float) -> MaskedTensor:
    return masked_array(_creation.zeros(shape, dtype=dtype))


def ones(shape: Any, dtype: Any = float) -> MaskedTensor:
    return masked_array(_creation.ones(shape, dtype=dtype))


def empty(shape: Any, dtype: Any = float) -> MaskedTensor:
    return masked_array(_creation.empty(shape, dtype=dtype))


def arange(*args: Any, **kwargs: Any) -> MaskedTensor:
    return masked_array(_creation.arange(*args, **kwargs))


def _like(make: Callable[..., Tensor], a: Any, dtype: Any) -> MaskedTensor:
    if not _is_masked_type(a):
        return masked_array(make(wrap(a), dtype=dtype))
    m = _masked(a)
    data = make(m._data, dtype=dtype)
    out = MaskedTensor(data, _own(m._mask), m._fill_value)
    out._shrink = m._shrink
    return out


def zeros_like(a: Any, dtype: Any = None) -> MaskedTensor:
    return _like(_creation.zeros_like, a, dtype)


def ones_like(a: Any, dtype: Any = None) -> MaskedTensor:
    return _like(_creation.ones_like, a, dtype)


def empty_like(a: Any, dtype: Any = None) -> MaskedTensor:
    return _like(_creation.empty_like, a, dtype)


def masked_all(shape: Any, dtype: Any = float) -> MaskedTensor:
    """Every element masked (numpy.ma's ``masked_all``; the data zeros)."""
    return masked_array(_creation.zeros(shape, dtype=dtype),
                        mask=_creation.ones(shape, dtype=np.bool_))


def masked_all_like(a: Any) -> MaskedTensor:
    """Every element of ``a``'s shape and dtype masked, its fill value kept."""
    m = _masked(a)
    return MaskedTensor(_zeros_like(m._data), _creation.ones(m.shape, dtype=np.bool_),
                        m._fill_value)


__all__ += ["zeros", "ones", "empty", "arange", "zeros_like", "ones_like", "empty_like",
            "masked_all", "masked_all_like"]


def isMaskedArray(x: Any) -> bool:  # noqa: N802 - numpy.ma's name
    """Whether ``x`` is a masked tensor (or numpy.ma's masked array)."""
    return isinstance(x, (MaskedTensor, np.ma.MaskedArray))


isMA = isarray = isMaskedArray


def asarray(a: Any, dtype: Any = None) -> MaskedTensor:
    """``a`` as a masked tensor (its mask kept; none for other arrays), in
    ``dtype`` (numpy.ma's ``asarray``)."""
    m = _masked(a)
    return m if dtype is None or np.dtype(dtype) == m.dtype else m.astype(dtype)


asanyarray = asarray


def shape(a: Any) -> tuple[int, ...]:
    return tuple(_masked(a).shape)


def size(a: Any, axis: int | None = None) -> int:
    sh = shape(a)
    return math.prod(sh) if axis is None else sh[axis]


def ndim(a: Any) -> int:
    return len(shape(a))


__all__ += ["isMaskedArray", "isMA", "isarray", "asarray", "asanyarray", "shape", "size",
            "ndim"]


# ---------------------------------------------------------------- construction

def _fit_mask(mask: Any, data: Tensor) -> Tensor:
    """numpy.ma's reading of a mask for ``data``: cast to bool; one element
    is repeated (over ``data``'s shape as a compiled function's call has
    it), as many elements as the data are reshaped, and any other shape
    raises ``MaskError``."""
    m = wrap(False if mask is None else mask)
    shape = data.shape
    if m.shape != shape:
        size = int(np.prod(shape))
        if m.size == 1:
            # (writable: a mask of its own)
            m = F.logical_or(m.reshape(()), _zeros_like(data, dtype=np.bool_))
        elif m.size == size:
            m = m.reshape(shape)
        else:
            raise np.ma.MaskError(f"Mask and data not compatible: data size is {size}, "
                                  f"mask size is {m.size}.")
    return m if m.dtype == np.bool_ else m.astype(np.bool_)


def masked_array(data: Any, mask: Any = np.ma.nomask, fill_value: Any = None,
                 dtype: Any = None, copy: bool = False, keep_mask: bool = True,
                 shrink: bool = True) -> MaskedTensor:
    """A masked tensor from data and a mask (``numpy.ma.masked_array``).

    A mask of one element applies to all; one of the data's size but another
    shape is reshaped; others raise ``np.ma.MaskError``.  A masked ``data``
    keeps its mask (or'ed with ``mask``) and its fill value.

    As in numpy.ma (``copy=False``), a tensor given as ``data`` or ``mask``
    is shared, so ``m[i] = v`` writes it too, and so is a masked ``data``'s
    mask when no ``mask`` is given; ``copy=True`` makes them the result's
    own.  NumPy arrays are never written.

    Without ``mask`` (and without a masked ``data``, or with
    ``keep_mask=False``), numpy.ma holds ``nomask``: ``getmask`` gives
    ``lt.ma.nomask`` and float32 means stay float32; ``keep_mask=False,
    shrink=False`` makes that an all-False mask array instead, as in numpy.ma.

    >>> import lazyten as lt
    >>> lt.ma.masked_array([1.0, 2.0], mask=[True, False]).eval()
    masked_array(data=[--, 2.0],
                 mask=[ True, False],
           fill_value=1e+20)
    """
    if isinstance(data, np.ma.MaskedArray):
        data = _from_numpy(data)
    _refuse_sparse(data, "masked data")
    state: tuple[Tensor, ...] | None
    if isinstance(data, MaskedTensor):
        d, m0, fv, state = data._data, data._mask, data._fill_value, data._shrink
    else:
        d, m0, fv, state = wrap(data), None, None, ()
    if not keep_mask:
        m0, state = None, ()
    if dtype is not None:
        d = d.astype(dtype)
    if m0 is not None and mask is np.ma.nomask:
        m = m0                                # numpy.ma keeps (shares) the mask
    else:
        if mask is not np.ma.nomask or not (keep_mask or shrink):
            state = None                      # numpy.ma holds the mask array given
        m = _fit_mask(mask, d)
        m = m if m0 is None else m0 | m
    if copy:
        d, m = _own(d), _own(m)
    # An inherited fill value is checked against the (new) dtype too.
    out = MaskedTensor(d, m, fv if fill_value is None else fill_value)
    out._shrink = state
    return out


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
    mk = _full(cond | x._mask, x._data)
    # numpy.ma sets the shrunk mask into the operand's copy: nomask stays so
    # where nothing is masked, a mask array stays one (all False or not)
    return _make(x._data, mk, x._fill_value, shrink=_cat(x._shrink, (_own(mk),)))


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
    out = masked_where(~F.ELEMENTWISE["isfinite"](d), a)
    out._shrink = None    # numpy.ma (gh-22842): masked_invalid never gives nomask
    return out


# ---------------------------------------------------------------- queries

def getdata(a: Any) -> Tensor:
    return _base(a)


def getmaskarray(a: Any) -> Tensor:
    """The mask as a full boolean tensor (all False for a plain tensor)."""
    if _is_masked_type(a):
        return _masked(a)._mask
    return _zeros_like(wrap(a), dtype=np.bool_)


def getmask(a: Any) -> Any:
    """The mask, or ``lt.ma.nomask`` where numpy.ma holds none (a plain
    tensor, ``masked_array(x)``, a ``masked_where`` that masked nothing).
    Where that depends on the values (numpy.ma "shrinks" the mask of
    ``masked_where``, comparisons, ``**``), the mask is computed now."""
    if not _is_masked_type(a):
        return nomask
    x = _masked(a)
    return nomask if x._nomask() else x._mask


def shrink_mask(a: MaskedTensor) -> MaskedTensor:
    """``a`` holding ``nomask`` where its mask has no True (numpy.ma's
    ``MaskedArray.shrink_mask``, in place; decided when it is needed)."""
    if a._shrink is not None and a._shrink:
        return a
    a._shrink = () if a._shrink == () else (_own(a._mask),)
    return a


def is_masked(x: Any) -> bool:
    """Whether any element is masked (forces the mask)."""
    return _is_masked_type(x) and bool(F.any(_masked(x)._mask))


def filled(a: Any, fill_value: Any = None) -> Tensor:
    """``a`` with masked positions replaced by ``fill_value`` (``a.fill_value``
    when None), laid out as its data; without a mask, the data themselves
    (a write to them is one to ``a``), as numpy.ma's.  Plain tensors pass
    through.  A fill value the dtype cannot hold raises TypeError, as in
    numpy.ma (-1 for uint8, not 255)."""
    if not _is_masked_type(a):
        return wrap(a)
    a = _masked(a)
    fv = a._fill_value if fill_value is None else _check_fill_value(fill_value, a.dtype)
    return _data_filled(a, _fill_as(fv, a.dtype))


def count(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The number of unmasked elements (along ``axis``), as int64 (NumPy's intp)."""
    return F.sum(~_masked(a)._mask, axis=axis, keepdims=keepdims, dtype=np.intp)


def compressed(a: Any) -> Tensor:
    """The unmasked values as a 1-d tensor.  Forces evaluation: the result's
    length depends on the mask's values."""
    if not _is_masked_type(a):
        return wrap(a).reshape(-1)
    from .. import compute
    from ..creation import asarray
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


def _data_filled(a: MaskedTensor, value: Any) -> Tensor:
    """numpy.ma's ``filled``: the data, ``value`` where masked, laid out as
    the data (numpy.ma copies them in their own order and writes the value
    where masked), so that a sum adds in their memory order (a C mask over
    Fortran-ordered data would lay ``where(mask, value, data)`` out C);
    without a mask the data themselves, as numpy.ma's."""
    if a._shrink == ():
        return a._data                # (numpy.ma: the data themselves)
    return F.where(_mask_laid_out_as(a._mask, a._data), np.asarray(value, a.dtype)[()],
                   a._data)


def _reduced_mask(a: MaskedTensor, axis: Any, keepdims: bool) -> Tensor:
    """numpy.ma's reduced mask: true where every element along ``axis`` is
    masked; none where it holds nomask (an empty axis's ``all`` is true)."""
    m = F.all(a._mask, axis=axis, keepdims=keepdims)
    if a.size:
        return m                  # (no empty axis: nomask's all-False mask says it)
    held = _holds_mask(a._shrink)
    return m if held is True else F.logical_and(m, held)


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
    d = F.sum(_data_filled(a, 0), axis=axis, dtype=dtype, keepdims=keepdims)
    return _make(d, _reduced_mask(a, axis, keepdims), None, shrink=a._shrink)


def prod(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> MaskedTensor:
    a = _masked(a)
    d = F.prod(_data_filled(a, 1), axis=axis, dtype=dtype, keepdims=keepdims)
    return _make(d, _reduced_mask(a, axis, keepdims), None, shrink=a._shrink)


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
    return _as_numpy_ma_reduces(
        a, lambda: F.mean(a._data, axis=axis, dtype=dtype, keepdims=keepdims),
        lambda: _masked_mean(a, axis, dtype, keepdims), exact=True,
        domain=lambda res: _too_large(res, _reduced_count(a, res)))


def _reduced_count(a: MaskedTensor, res: Tensor) -> int:
    """How many elements each of a reduction's results ``res`` read."""
    return a.size // res.size if res.size else 1


def _too_large(q: Tensor, n: int) -> Tensor:
    """numpy.ma's domain of ``q = s / n`` (``_DomainSafeDivide``, which
    ndarray's ``mean`` and ``var`` run into on a MaskedArray: their division
    has an ``out`` of that class): ``|q| * tiny >= n``, in float64 (tiny is
    a NumPy float64) -- an infinite mean, an overflowed variance."""
    mag = F.abs(q)
    if mag.dtype != np.float64:
        mag = mag.astype(np.float64)
    return mag * np.finfo(np.float64).tiny >= n


def _as_numpy_ma_reduces(a: MaskedTensor, plain: Callable[[], Tensor],
                         masked: Callable[[], MaskedTensor], exact: bool,
                         real_part: bool = False,
                         domain: Callable[[Tensor], Tensor] | None = None) -> MaskedTensor:
    """numpy.ma's ``mean`` and ``var``: ndarray's own (``plain``) on an array it
    holds without a mask, its masked computation otherwise.  The two differ
    in dtype (float32 data: float32 against float64), in the fill value
    (``mean``) and in the last bits (float16; complex ``var``, where ``exact``
    is false); only then is a mask that numpy.ma may have shrunk computed to
    choose (``MaskedTensor._nomask``).  ``domain``: where ndarray's result
    is masked all the same, by numpy.ma's division it runs into
    (``_too_large``), its data there 1 (numpy.ma's fill for a division)."""
    s = a._shrink
    if s is None:
        return masked()
    if s:
        out = masked()
        same = (exact and out.dtype in (np.float64, np.complex128)
                and plain().dtype == out.dtype and out._fill_value is a._fill_value)
        if same:
            # The same values either way, but not the same mask: the masked
            # computation's division masks means that are not finite, and
            # ndarray's does not.  Chosen by the mask's values, lazily.
            return _either(_holds_mask(s), out, _unmasked_reduction(a, plain, real_part,
                                                                    domain))
        if not a._nomask():
            return out
    return _unmasked_reduction(a, plain, real_part, domain)


def _unmasked_reduction(a: MaskedTensor, plain: Callable[[], Tensor], real_part: bool,
                        domain: Callable[[Tensor], Tensor] | None) -> MaskedTensor:
    res = plain()
    # ndarray's reduction of a MaskedArray: nomask, the operand's fill value
    # (not for a complex var, which ndarray takes from ``.real``: numpy.ma's
    # property gives it the default one).
    fill = None if real_part else a._fill_value
    if domain is None or res.dtype.kind not in "fc":
        return _make(res, _zeros_like(res, dtype=np.bool_), fill, shrink=())
    m = domain(res)
    return _make(F.where(m, 1, res), m, fill, shrink=(_own(m),))


def _holds_mask(state: tuple[Tensor, ...] | None) -> Any:
    """Whether numpy.ma holds a mask array (not ``nomask``) in the
    ``_shrink`` state ``state``: a bool, or a lazy 0-d bool."""
    if state is None:
        return True
    return _or(*(F.any(t) for t in state)) if state else False


def _either(held: Any, x: MaskedTensor, y: MaskedTensor) -> MaskedTensor:
    """``x`` where ``held`` (a lazy 0-d bool) is true, else ``y``: data,
    mask and nomask-ness (the fill values are the same)."""
    flag = F.where(held, _holds_mask(x._shrink), _holds_mask(y._shrink))
    return _make(F.where(held, x._data, y._data), F.where(held, x._mask, y._mask),
                 x._fill_value, shrink=(_own(flag),))


def _masked_mean(a: MaskedTensor, axis: Any, dtype: Any, keepdims: bool) -> MaskedTensor:
    acc = None if dtype is None else np.dtype(dtype)
    half = False
    if acc is None and a.dtype.kind in "biu":
        acc = np.dtype(np.float64)
    elif acc is None and a.dtype == np.float16:
        acc, half = np.dtype(np.float32), True
    s = sum(a, axis, acc, keepdims)
    n = count(a, axis, keepdims)
    if s.ndim == 0 and a.size == 0:
        # (no element: numpy.ma's ``masked``, its float64 constant, whatever
        # the data's dtype; known from the shape)
        return _make(_creation.zeros(()), _creation.ones((), dtype=np.bool_), None)
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
    def domain(res: Tensor) -> Tensor:
        # (ndarray's var divides twice: the mean by the count, the sum of
        # squares by the count less ddof)
        n = _reduced_count(a, res)
        avg = F.mean(a._data, axis=axis, dtype=dtype, keepdims=keepdims)
        return _too_large(res, builtins.max(n - ddof, 0)) | _too_large(avg, n)
    return _as_numpy_ma_reduces(
        a, lambda: F.var(a._data, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims),
        lambda: _masked_var(a, axis, dtype, ddof, keepdims), exact=a.dtype.kind != "c",
        real_part=a.dtype.kind == "c", domain=domain)


def _masked_var(a: MaskedTensor, axis: Any, dtype: Any, ddof: int,
                keepdims: bool) -> MaskedTensor:
    cnt = count(a, axis, keepdims) - ddof
    dev = _masked_op("subtract", a, _masked_mean(a, axis, dtype, keepdims=True))
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
    return _make(v._data, m, a._fill_value, shrink=(_own(m),))   # (mask_or shrinks)


def std(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
        keepdims: bool = False) -> MaskedTensor:
    """numpy.ma's ``sqrt`` of ``var``: a negative variance is masked too."""
    return sqrt(var(a, axis, dtype, ddof, keepdims))


def _extreme(a: Any, axis: Any, keepdims: bool, lowest: bool,
             fill_value: Any = None) -> MaskedTensor:
    a = _masked(a)
    if fill_value is None:
        probe = np.zeros(1, a.dtype)
        fv = np.ma.minimum_fill_value(probe) if lowest else np.ma.maximum_fill_value(probe)
        stand_in = np.asarray(fv, a.dtype)[()]
    else:                                    # (numpy.ma's ``filled(fill_value)`` first)
        stand_in = _fill_as(_check_fill_value(fill_value, a.dtype), a.dtype)
    red = F.min if lowest else F.max
    d = red(F.where(a._mask, stand_in, a._data), axis=axis, keepdims=keepdims)
    m = _reduced_mask(a, axis, keepdims)
    # numpy.ma: ``np.copyto(result, result.fill_value, where=newmask)``, the
    # result's fill value being the dtype's default (not the array's).
    return _make(F.where(m, _fill_as(None, d.dtype), d), m, None, shrink=a._shrink)


def min(a: Any, axis: Any = None, keepdims: bool = False, *,  # noqa: A001
        fill_value: Any = None) -> MaskedTensor:
    """Minimum of the unmasked elements; masked where every element was
    masked (``fill_value``: what masked elements read as, numpy.ma's)."""
    return _extreme(a, axis, keepdims, lowest=True, fill_value=fill_value)


def max(a: Any, axis: Any = None, keepdims: bool = False, *,  # noqa: A001
        fill_value: Any = None) -> MaskedTensor:
    """Maximum of the unmasked elements; masked where every element was masked."""
    return _extreme(a, axis, keepdims, lowest=False, fill_value=fill_value)


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


# ---------------------------------------------------------------- NumPy's ufuncs
#
# numpy.ma has no ``__array_ufunc__``: a ufunc runs on the data and
# ``MaskedArray.__array_wrap__`` gives the result a mask, the operands' full
# masks or'ed (``mask_or``: shrunk for two or more operands, the operand's
# mask array for one), plus numpy.ma's domain (``ufunc_domain``: log of
# x <= 0, sqrt of x < 0, division by a too small number, ...), where the
# data becomes ``ufunc_fills``'s value.  NumPy's own warnings are not
# silenced (numpy.ma does not silence them either).

def _unary_domain(ufunc: Any) -> Callable[[Tensor], Tensor] | None:
    """numpy.ma's domain of a unary ufunc as a lazy test (True: outside)."""
    dom = _ma_core.ufunc_domain.get(ufunc)
    if dom is None:
        return None
    core: Any = _ma_core
    if isinstance(dom, core._DomainGreaterEqual):
        c = dom.critical_value
        return lambda x: _op("less", x, c)
    if isinstance(dom, core._DomainGreater):
        c = dom.critical_value
        return lambda x: _op("less_equal", x, c)
    if isinstance(dom, core._DomainTan):
        eps = dom.eps
        return lambda x: _op("less", _op("abs", _op("cos", x)), eps)
    if isinstance(dom, core._DomainCheckInterval):
        lo, hi = dom.a, dom.b
        return lambda x: _op("greater", x, hi) | _op("less", x, lo)
    raise NotImplementedError(f"numpy.ma domain {type(dom).__name__}")  # pragma: no cover


def _ufunc_call(ufunc: Any, *inputs: Any) -> Any:
    """``ufunc(*inputs)`` on masked operands, as numpy.ma's ``__array_wrap__``."""
    from ..functions import UFUNC_OPS
    if ufunc is np.matmul:
        return _matmul(*inputs)
    if ufunc is np.divmod:
        return _divmod(*inputs)
    name = UFUNC_OPS.get(ufunc)
    if name is None or ufunc.nout != 1:
        raise TypeError(f"lt.ma: NumPy's {ufunc.__name__} is not supported on masked tensors")
    if ufunc.nin == 1:
        a = _masked(inputs[0])
        res = _op(name, a._data)
        m = a._mask                           # (getmaskarray: never nomask)
        domain = _unary_domain(ufunc)
        if domain is not None:
            # numpy.ma tests the domain on the masked operand and fills the
            # test's mask with True: masked positions are "outside" too.
            d = domain(a._data) | a._mask
            res = _put(d, _ma_core.ufunc_fills[ufunc], res)
            m = m | d
        return _make(res, m, a._fill_value)
    if ufunc.nin == 2:
        return _ufunc_op(name, inputs[0], inputs[1],
                         domain=_ma_core.ufunc_domain.get(ufunc) is not None)
    ops_ = [_operand(x, strong=False) for x in inputs]
    res = _op(name, *(o.data for o in ops_))
    mk = _full(_or(*(o.mask for o in ops_)), res)
    fill = next((o.fill for o in ops_ if o.mask is not None), None)
    return _make(res, mk, fill, shrink=_shrunk(mk, *(o.shrink for o in ops_)))


# ndarray op MaskedTensor reaches ``__array_ufunc__`` as ``ufunc(ndarray, m)``,
# where numpy.ma (a subclass of ndarray) gets its own reflected operator
# first: for these ufuncs an ndarray on the left is read as that operator.
_REFLECTED_OPS = {np.add: "add", np.subtract: "subtract", np.multiply: "multiply",
                  np.divide: "divide", np.floor_divide: "floor_divide", np.power: "pow"}
_REFLECTED_COMPARE = {np.less: "greater", np.less_equal: "greater_equal",
                      np.greater: "less", np.greater_equal: "less_equal",
                      np.equal: "equal", np.not_equal: "not_equal"}


def _array_ufunc(self: MaskedTensor, ufunc: Any, method: str, *inputs: Any,
                 **kwargs: Any) -> Any:
    if method != "__call__":
        raise TypeError(f"lt.ma: {ufunc.__name__}.{method} is not supported on masked "
                        f"tensors; use the masked tensor's methods (m.sum(), m.cumsum(), ...)")
    if kwargs.get("out") is not None or set(kwargs) - {"out"}:
        raise TypeError(f"lt.ma: {ufunc.__name__} takes no keyword arguments on masked "
                        f"tensors (out=, dtype=, where=: a lazy result is a new masked "
                        f"tensor)")
    if (len(inputs) == 2 and type(inputs[0]) is np.ndarray
            and isinstance(inputs[1], MaskedTensor)):
        if ufunc in _REFLECTED_OPS:
            return _MA_BINARY[_REFLECTED_OPS[ufunc]](_REFLECTED_OPS[ufunc], *inputs)
        if ufunc in _REFLECTED_COMPARE:
            return _compare(_REFLECTED_COMPARE[ufunc], inputs[1], inputs[0])
    return _ufunc_call(ufunc, *inputs)


class _ArrayUfunc:
    """``MaskedTensor.__array_ufunc__``: NumPy looks it up on the class and
    finds ``_array_ufunc`` (so ``np.exp(m)`` comes here); read on an instance
    it is None, which is how numpy.ma's operators (``MaskedArray._delegate_binop``)
    and lazyten's Tensor operators (``tensor._defers``) learn to leave
    ``numpy_masked + m`` and ``tensor + m`` to ``m.__radd__``."""

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        return None if obj is not None else _array_ufunc


MaskedTensor.__array_ufunc__ = _ArrayUfunc()  # type: ignore[assignment]


# ---------------------------------------------------------------- products

def _matmul(a: Any, b: Any) -> MaskedTensor:
    """``a @ b`` as numpy.ma computes it in NumPy 2: MaskedArray has no
    ``__matmul__``, so ``np.matmul`` runs on the data and
    ``__array_wrap__`` or's the operands' *elementwise* masks (broadcast
    together, shrunk).  That is only a mask of the product where the shapes
    agree (square matrices); elsewhere the product is valid only if nothing
    is masked, which is then decided now (numpy.ma builds an array that
    fails later; lazyten raises here).  For a masked matrix product use
    ``lt.ma.dot`` (numpy.ma's ``dot``)."""
    x, y = _operand(a, strong=False), _operand(b, strong=False)
    xd, yd = wrap(x.data), wrap(y.data)
    res = F.matmul(xd, yd)
    try:
        bshape = np.broadcast_shapes(xd.shape, yd.shape)
    except ValueError as e:
        raise ValueError(f"lt.ma matmul: numpy.ma or's the operands' masks elementwise, and "
                         f"shapes {xd.shape} and {yd.shape} do not broadcast (use "
                         f"lt.ma.dot for a masked matrix product)") from e
    mx, my = _full(x.mask, xd), _full(y.mask, yd)
    mk = F.broadcast_to(mx | my, bshape) if (mx | my).shape != bshape else mx | my
    fill = _fill_of(x, y)
    if bshape == res.shape:
        mk = _own(mk)
        return _make(res, mk, fill, shrink=_shrunk(mk, x.shrink, y.shrink))
    if _cat(x.shrink, y.shrink) != () and bool(F.any(mk)):
        raise ValueError(f"lt.ma matmul: numpy.ma's mask of a @ b is the operands' masks "
                         f"or'ed elementwise, of shape {bshape}, which is not the product's "
                         f"shape {res.shape} (numpy.ma makes an array that fails when used); "
                         f"use lt.ma.dot(a, b) for a masked matrix product")
    return _make(res, _zeros_like(res, dtype=np.bool_), fill, shrink=())


def _propagate(m: Tensor, axis: int) -> Tensor:
    # numpy.ma's _mask_propagate: a row (column) with a masked element is masked.
    return m | F.any(m, axis=axis, keepdims=True)


def dot(a: Any, b: Any, strict: bool = False) -> MaskedTensor:
    """``numpy.ma.dot``: ``np.dot`` of the data with masked values as 0,
    masked where no pair of unmasked values meets (``strict=True``: where any
    masked value meets, rows and columns with one masked propagate).  The
    result holds a mask array and the default fill value.

    >>> import lazyten as lt
    >>> a = lt.ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]])
    >>> lt.ma.dot(a, a).eval()
    masked_array(
      data=[[1.0, --],
            [15.0, 16.0]],
      mask=[[False,  True],
            [False, False]],
      fill_value=1e+20)
    """
    x, y = _masked(a), _masked(b)
    mx, my = x._mask, y._mask
    if strict is True and x.ndim and y.ndim:
        mx = _propagate(mx, x.ndim - 1)
        my = _propagate(my, y.ndim - 1 if y.ndim == 1 else y.ndim - 2)
    d = F.dot(F.where(mx, np.asarray(0, x.dtype)[()], x._data),
              F.where(my, np.asarray(0, y.dtype)[()], y._data))
    # np.dot of the two "unmasked" arrays (bool): counted in float64, exact.
    hits = F.dot((~mx).astype(np.float64), (~my).astype(np.float64))
    m = ~(hits > 0)
    # (a 0-d mask is a NumPy bool, and np.False_ is numpy.ma's nomask)
    return _make(d, m, None, shrink=(_own(m),) if m.ndim == 0 else None)


# ---------------------------------------------------------------- more of numpy.ma

def _logical_reduce(a: Any, axis: Any, keepdims: bool, all_: bool) -> MaskedTensor:
    """numpy.ma's ``all``/``any``: the data filled with True (False), reduced;
    masked where every element along ``axis`` was; nomask for a nomask
    operand; the default fill value (True)."""
    x = _masked(a)
    d = F.where(x._mask, all_, x._data.astype(np.bool_) if x.dtype != np.bool_ else x._data)
    red = F.all if all_ else F.any
    m = _reduced_mask(x, axis, keepdims)
    # (a 0-d result that is not masked is a NumPy bool in numpy.ma: no mask)
    return _make(red(d, axis=axis, keepdims=keepdims), m, None,
                 shrink=(_own(m),) if m.ndim == 0 else x._shrink)


def all(a: Any, axis: Any = None, keepdims: bool = False) -> MaskedTensor:  # noqa: A001
    """Whether all unmasked elements are true (``numpy.ma.all``)."""
    return _logical_reduce(a, axis, keepdims, True)


def any(a: Any, axis: Any = None, keepdims: bool = False) -> MaskedTensor:  # noqa: A001
    """Whether any unmasked element is true (``numpy.ma.any``)."""
    return _logical_reduce(a, axis, keepdims, False)


def where(condition: Any, x: Any, y: Any) -> MaskedTensor:
    """``numpy.ma.where``: ``x`` where the condition is true, ``y`` where it is
    false or masked; masked where the chosen value is or the condition is.
    Python scalars are strong (numpy.ma reads them as 0-d arrays: a float32
    ``x`` with ``y=5`` gives float64); ``lt.ma.masked`` as ``x`` or ``y``
    masks those positions.  The mask shrinks; the fill value is the default.

    >>> import lazyten as lt
    >>> a = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    >>> lt.ma.where(a > 1.5, a, 0.0).eval()
    masked_array(data=[0.0, --, 3.0],
                 mask=[False,  True, False],
           fill_value=1e+20)
    """
    c = filled(condition, False) if _is_masked_type(condition) else wrap(condition)
    cm = getmaskarray(condition)
    if x is np.ma.masked and y is np.ma.masked:
        raise TypeError("lt.ma.where: x and y cannot both be lt.ma.masked")
    xo = None if x is np.ma.masked else _operand(x, strong=True)
    yo = None if y is np.ma.masked else _operand(y, strong=True)
    xd = np.zeros((), wrap(yo.data).dtype)[()] if xo is None else xo.data  # type: ignore[union-attr]
    yd = np.zeros((), wrap(xo.data).dtype)[()] if yo is None else yo.data  # type: ignore[union-attr]
    xm: Any = True if xo is None else (False if xo.mask is None else xo.mask)
    ym: Any = True if yo is None else (False if yo.mask is None else yo.mask)
    cf = c if c.dtype == np.bool_ else c.astype(np.bool_)
    data = F.where(cf, xd, yd)
    mk = F.where(cm, True, F.where(cf, xm, ym))
    mk = _own(mk if mk.shape == data.shape else F.broadcast_to(mk, data.shape))
    return _make(data, mk, None, shrink=(_own(mk),))


def _states(arrays: Any) -> list[MaskedTensor]:
    return [_masked(a) for a in arrays]


def concatenate(arrays: Any, axis: int | None = 0) -> MaskedTensor:
    """``numpy.ma.concatenate``: data and masks joined; nomask where no
    operand has a True (numpy.ma shrinks the joined mask); the default fill
    value."""
    xs = _states(arrays)
    d = F.concat([x._data for x in xs], axis=axis)
    mk = F.concat([x._mask for x in xs], axis=axis).reshape(d.shape)
    return _make(d, mk, None, shrink=_shrunk(mk, *(x._shrink for x in xs)))


concat = concatenate


def _seq(fn: Callable[..., Tensor], arrays: Any, *args: Any, **kwargs: Any) -> MaskedTensor:
    # numpy.ma's _fromnxfunction_seq: the function on the data and on the
    # full masks; a mask array (never shrunk), the default fill value.
    xs = _states(arrays)
    d = fn([x._data for x in xs], *args, **kwargs)
    return _make(d, fn([x._mask for x in xs], *args, **kwargs), None)


def stack(arrays: Any, axis: int = 0) -> MaskedTensor:
    """``numpy.ma.stack`` (data and masks stacked; a mask array)."""
    return _seq(F.stack, arrays, axis=axis)


def hstack(arrays: Any) -> MaskedTensor:
    """``numpy.ma.hstack`` (a mask array)."""
    return _seq(F.hstack, arrays)


def vstack(arrays: Any) -> MaskedTensor:
    """``numpy.ma.vstack`` (a mask array)."""
    return _seq(F.vstack, arrays)


def masked_values(x: Any, value: Any, rtol: float = 1e-5, atol: float = 1e-8,
                  copy: bool = True, shrink: bool = True) -> MaskedTensor:
    """``numpy.ma.masked_values``: masked where ``x`` is close to ``value``
    (``isclose`` for floats, ``==`` otherwise), ``x``'s masked positions
    filled with ``value`` first; the fill value is ``value``; with
    ``shrink``, nomask where nothing matched.

    >>> import lazyten as lt
    >>> lt.ma.masked_values(lt.asarray([1.0, 1.1, 2.0]), 1.1).eval()
    masked_array(data=[1.0, --, 2.0],
                 mask=[False,  True, False],
           fill_value=1.1)
    """
    from ..statistics import isclose
    xnew = filled(x, value) if _is_masked_type(x) else wrap(x)
    if xnew.dtype.kind == "f":
        mk = isclose(xnew, value, atol=atol, rtol=rtol)
    else:
        mk = _op("equal", xnew, value)
    out = MaskedTensor(_own(xnew), _own(mk), value)
    out._shrink = (_own(mk),) if shrink else None
    return out


def _cumulative(a: MaskedTensor, fn: Callable[..., Tensor], neutral: Any, axis: Any,
                dtype: Any) -> MaskedTensor:
    # numpy.ma: ``filled(neutral).cumsum(...)`` and ``__setmask__(self._mask)``
    # (a copy, flattened for axis=None; nomask stays nomask); default fill.
    d = fn(F.where(a._mask, np.asarray(neutral, a.dtype)[()], a._data), axis=axis, dtype=dtype)
    return _make(d, a._mask.reshape(d.shape), None, shrink=a._shrink)


def _clip(self: MaskedTensor, lo: Any, hi: Any) -> MaskedTensor:
    ops_ = [_operand(v, strong=False) for v in (self, lo, hi) if v is not None]
    bounds = iter(o.data for o in ops_[1:])
    res = F.clip(self._data, None if lo is None else next(bounds),
                 None if hi is None else next(bounds))
    mk = _full(_or(*(o.mask for o in ops_)), res)
    return _make(res, mk, self._fill_value, shrink=_shrunk(mk, *(o.shrink for o in ops_)))


# ---------------------------------------------------------------- numpy.ma's sorting and statistics

def count_masked(arr: Any, axis: Any = None) -> Tensor:
    """The number of masked elements (along ``axis``): numpy.ma's
    ``getmaskarray(arr).sum(axis)``, an int64 tensor."""
    return F.sum(getmaskarray(arr), axis=axis)


def fix_invalid(a: Any, mask: Any = nomask, copy: bool = True,
                fill_value: Any = None) -> MaskedTensor:
    """``a`` masked where its data are NaN or infinite, those data replaced
    by ``fill_value`` (``a``'s fill value when None), as numpy.ma's: a masked
    tensor of ``a`` (``masked_array(a, mask=mask, copy=copy)``), written in
    place, so with ``copy=False`` a tensor given shares the write; nomask
    kept where nothing was invalid.

    >>> import numpy as np, lazyten as lt
    >>> lt.ma.fix_invalid(lt.asarray([1.0, np.nan, 3.0]), fill_value=0).eval()
    masked_array(data=[1.0, --, 3.0],
                 mask=[False,  True, False],
           fill_value=1e+20)
    """
    x = masked_array(a, mask=mask, copy=copy)
    if x.dtype.kind not in "fc":
        return x                             # (nothing is invalid)
    invalid = _own(~F.isfinite(x._data))
    fv = x._fill_value if fill_value is None else _check_fill_value(fill_value, x.dtype)
    state = x._shrink
    _mask_for_write(x)
    _or_mask_into(x, invalid)
    x._data[invalid] = _fill_as(fv, x.dtype)
    x._shrink = None if state is None else state + (invalid,)
    return x


def anom(a: Any, axis: int | None = None, dtype: Any = None) -> MaskedTensor:
    """The deviations from the mean along ``axis`` (numpy.ma's ``anom``:
    ``a - a.mean(axis)``, the mean's axis put back where ``axis`` is given
    and not 0)."""
    a = _masked(a)
    m = mean(a, axis, dtype)
    if not axis:
        return a - m
    return a - m._both(lambda t: F.expand_dims(t, axis))


anomalies = anom


def ptp(a: Any, axis: Any = None, out: Any = None, fill_value: Any = None,
        keepdims: bool = False) -> MaskedTensor:
    """Peak to peak (numpy.ma's: ``max - min`` of the unmasked elements,
    masked where every element was; ``fill_value`` stands in for masked
    elements in both, as in numpy.ma's ``max``/``min``)."""
    _no_out(out, "ptp")
    a = _masked(a)
    if a.dtype == np.bool_ and axis is None and a.size and not builtins.bool(F.any(~a._mask)):
        # (numpy.ma's ``masked - masked``; any other boolean ptp is NumPy's
        # TypeError: booleans do not subtract, and an empty one NumPy's
        # ValueError: max of nothing)
        shape = () if not keepdims else (1,) * a.ndim
        return _make(_creation.zeros(shape, np.bool_), ~_creation.zeros(shape, np.bool_), None)
    res = _extreme(a, axis, keepdims, lowest=False, fill_value=fill_value)
    res -= _extreme(a, axis, keepdims, lowest=True, fill_value=fill_value)
    return res


def _sort_fill(a: MaskedTensor, endwith: bool | None, fill_value: Any) -> Any:
    """The value masked elements sort as (numpy.ma's ``argsort``): last
    (``endwith``) NaN for floats, the dtype's largest otherwise; first the
    dtype's smallest."""
    if fill_value is not None:
        return _fill_as(_check_fill_value(fill_value, a.dtype), a.dtype)
    probe = np.zeros(1, a.dtype)
    if endwith and a.dtype.kind == "f":
        fv: Any = np.nan
    else:
        fv = np.ma.minimum_fill_value(probe) if endwith else np.ma.maximum_fill_value(probe)
    return np.asarray(fv, a.dtype)[()]


def _no_fields(order: Any, what: str) -> None:
    if order is not None:
        raise ValueError(f"{what}: order= names fields of a structured dtype; lazyten's "
                         f"dtypes have none")


def argsort(a: Any, axis: Any = np._NoValue, kind: str | None = None, order: Any = None,
            endwith: bool | None = True, fill_value: Any = None, *,
            stable: bool | None = None) -> Tensor:
    """The indices that sort ``a`` along ``axis`` (a plain tensor), masked
    elements sorting last (``endwith``) or first, as numpy.ma's: the data
    filled with ``fill_value`` or NaN (floats) or the dtype's extreme, then
    NumPy's argsort.  Without ``axis``, numpy.ma's default: -1 for at most
    one dimension, else the flattened array, with its FutureWarning."""
    a = _masked(a)
    _no_fields(order, "argsort")
    if axis is np._NoValue:
        if a.ndim <= 1:
            axis = -1
        else:
            warnings.warn("In the future the default for argsort will be axis=-1, not the "
                          "current None, to match its documentation and np.argsort. "
                          "Explicitly pass -1 or None to silence this warning.",
                          _ma_core.MaskedArrayFutureWarning, stacklevel=2)
            axis = None
    filled_ = F.where(a._mask, _sort_fill(a, endwith, fill_value), a._data)
    from ..sorting import argsort as plain_argsort
    return plain_argsort(filled_, axis=axis, kind=kind, stable=stable)


def sort(a: Any, axis: int | None = -1, kind: str | None = None, order: Any = None,
         endwith: bool | None = True, fill_value: Any = None, *,
         stable: bool | None = None) -> MaskedTensor:
    """A sorted copy of ``a`` (numpy.ma's ``sort``): data and mask moved
    together by ``argsort`` (masked elements last, or first), flattened for
    ``axis=None``; nomask and the fill value kept."""
    a = _masked(a)
    if axis is None:
        a, axis = a.flatten(), 0
    elif a.ndim == 0:
        raise np.exceptions.AxisError(axis, 0)
    idx = argsort(a, axis, kind, order, endwith, fill_value, stable=stable)
    from ..sorting import take_along_axis
    return _make(take_along_axis(a._data, idx, axis), take_along_axis(a._mask, idx, axis),
                 a._fill_value, shrink=a._shrink)


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
            keepdims: Any = np._NoValue) -> Any:
    """The weighted average of the unmasked elements (numpy.ma's): without
    ``weights`` the masked ``mean``; with them ``sum(a * w) / sum(w)`` over
    unmasked elements, in float64 for integer data (a 1-d ``weights`` along
    a given ``axis`` broadcast as numpy.ma's).  ``returned``: also the sum
    of the weights (the count, without weights), of the average's shape."""
    a = _masked(a)
    if axis is not None:
        axis = normalize_axis_tuple(axis, a.ndim, argname="axis")
    keep = bool(keepdims) if keepdims is not np._NoValue else False
    scl: Any
    if weights is None:
        avg = mean(a, axis, None, keep)
        # (numpy.ma's count has no kept axes: ``returned`` broadcasts it,
        # and refuses where a kept axis is not the first)
        scl = count(a, axis).astype(avg.dtype)
    else:
        if _is_masked_type(weights):
            wt = _masked(weights)            # (numpy.ma's asarray keeps its mask)
        else:
            wd = _base(weights)
            wt = _make(wd, _zeros_like(wd, dtype=np.bool_), None, shrink=())
        if a.dtype.kind in "biu":
            rdt = np.result_type(a.dtype, wt.dtype, "f8")
        else:
            rdt = np.result_type(a.dtype, wt.dtype)
        if wt.shape != a.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if wt.shape != tuple(a.shape[ax] for ax in axis):
                raise ValueError("Shape of weights must be consistent with shape of a along "
                                 "specified axis.")
            # (weights along the axes as given, set in the array's order)
            wt = wt.transpose(tuple(int(k) for k in np.argsort(axis)))
            wt = wt.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
        if not a._nomask():
            # numpy.ma's ``wgt = wgt * ~a.mask; wgt.mask |= a.mask``: a mask array
            wm = F.broadcast_to(wt._mask, a.shape) | a._mask
            wt = _make(F.broadcast_to(wt._data, a.shape) * ~a._mask, wm, None)
        pm = a._mask | F.broadcast_to(wt._mask, a.shape)
        prod_ = _make(F.multiply(a._data, wt._data, dtype=rdt), pm, None, shrink=(_own(pm),))
        scl = sum(wt, axis, rdt, keep)
        num = sum(prod_, axis, None, keep)
        if num.ndim == 0:                    # (numpy.ma's scalars: NumPy's division)
            avg = MaskedTensor(num._data / scl._data, num._mask | scl._mask)
        else:
            avg = _binary("divide", num, scl)
    if returned:
        if scl.shape != avg.shape:
            scl = (scl._both(lambda t: F.broadcast_to(t, avg.shape)).copy()
                   if isinstance(scl, MaskedTensor) else F.broadcast_to(scl, avg.shape).copy())
        return avg, scl
    return avg


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> MaskedTensor:
    """The median of the unmasked elements along ``axis`` (several axes:
    merged, as NumPy's), computed as numpy.ma's: sorted with masked
    elements last (inf stands in for them in float data, so an unmasked NaN
    sorts after them and makes the median NaN), the middle one or two of
    the unmasked elements averaged (float data: their sum halved; integers:
    numpy.ma's float64 mean); masked where every element was.  A plain
    tensor's is NumPy's median.  ``overwrite_input`` changes nothing: inputs
    are never written."""
    _no_out(out, "median")
    from ..statistics import _keepdims, _ureduce
    from ..statistics import median as plain_median
    if not _is_masked_type(a):
        m = plain_median(a, axis=axis, keepdims=keepdims)
        return _make(m, _zeros_like(m, dtype=np.bool_), None, shrink=())
    x = _masked(a)
    ax: int = 0
    axes: tuple[int, ...] = ()

    def merged(t: Tensor) -> Tensor:
        nonlocal ax, axes
        r, ax, axes = _ureduce(t, axis)
        return r

    y = _make(merged(x._data), merged(x._mask), x._fill_value, shrink=x._shrink)
    res = _median_along(y, ax)
    if not keepdims:
        return res
    return res._both(lambda t: _keepdims(t, x.ndim, axes, True))


def _median_along(a: MaskedTensor, axis: int) -> MaskedTensor:
    """numpy.ma's ``_median`` of ``a`` along ``axis``."""
    inexact = a.dtype.kind in "fc"
    asorted = sort(a, axis=axis, fill_value=np.inf if inexact else None)
    n_axis = asorted.shape[axis]
    if n_axis == 0:
        return mean(asorted, axis)
    from ..sorting import take_along_axis
    counts = count(asorted, axis, keepdims=True)
    h = counts // 2
    odd = counts % 2 == 1
    low = F.where(odd, h, h - 1)
    # (no element unmasked: the last one, masked, as numpy.ma's -1)
    low = F.where(low < 0, n_axis - 1, low)
    every = F.all(asorted._mask, axis=axis, keepdims=True)
    fill_low = np.ma.minimum_fill_value(np.zeros(1, a.dtype))
    picked = []
    for idx in (low, h):
        d = take_along_axis(asorted._data, idx, axis)
        mk = take_along_axis(asorted._mask, idx, axis)
        if asorted.ndim > 1:
            # numpy.ma's ``replace_masked``: a masked pick (an unmasked
            # value tied with the masked ones' stand-in) reads as the
            # dtype's largest, unless every element is masked
            rep = mk & ~every
            d = F.where(rep, np.asarray(fill_low, a.dtype)[()], d)
            mk = mk & ~rep
        picked.append(_make(d, mk, asorted._fill_value, shrink=asorted._shrink))
    if asorted.ndim == 1:
        return _median_1d(asorted, picked, odd, every, fill_low)
    # (numpy.ma's ``take_along_axis``: a mask array where ``asorted`` has one)
    # (its fill value: numpy.ma's take_along_axis keeps it, which the mean of
    # integers without a mask, ndarray's, keeps too)
    lh = _make(F.concatenate([p._data for p in picked], axis=axis),
               F.concatenate([p._mask for p in picked], axis=axis), asorted._fill_value,
               shrink=asorted._shrink)
    if inexact:
        s = sum(lh, axis)
        s = _make(F.true_divide(s._data, 2.0).astype(s.dtype), s._mask, s._fill_value,
                  shrink=s._shrink)
        return _nancheck(asorted, s, axis)
    return mean(lh, axis)


def _median_1d(asorted: MaskedTensor, picked: list[MaskedTensor], odd: Tensor, every: Tensor,
               fill_low: Any) -> MaskedTensor:
    """numpy.ma's 1-d ``_median``: the sum (inexact data: halved where the
    count is even) or the mean of ``asorted[idx + odd - 1:idx + 1]``, one
    or two elements; masked where all are, where only the picks are (a tie
    with the masked ones' stand-in) the dtype's largest."""
    (lo, hi), odd0 = picked, odd.reshape(())
    # the slice holds the low pick always and the high one where the count is even
    hi_in = _make(hi._data, hi._mask | odd0, None)
    mid = concatenate([lo.reshape(1), hi_in.reshape(1)])
    if asorted.dtype.kind in "fc":
        s = sum(mid)
        half = F.where(odd0, s._data, F.true_divide(s._data, 2.0).astype(s.dtype))
        s = _nancheck(asorted, _make(half, s._mask, None), 0)
    else:
        s = mean(mid)
    allm = every.reshape(())
    tie = s._mask & ~allm
    return _make(F.where(tie, np.asarray(fill_low, s.dtype)[()], s._data), s._mask & allm, None)


def _nancheck(asorted: MaskedTensor, s: MaskedTensor, axis: int) -> MaskedTensor:
    """NumPy's ``_median_nancheck``: an unmasked NaN sorts last (after the
    masked elements' inf): the median is that NaN."""
    if asorted.size == 0 or asorted.dtype.kind not in "fc":
        return s
    last = F.take(asorted._data, -1, axis=axis)
    nan = F.isnan(last) & ~F.take(asorted._mask, -1, axis=axis)
    return _make(F.where(nan, last, s._data), s._mask, s._fill_value, shrink=s._shrink)


# ---------------------------------------------------------------- numpy.ma.core's other functions

MaskError = np.ma.MaskError
MAError = np.ma.MAError
MaskType = bool_ = np.bool_
masked_singleton = masked
# numpy.ma's own: a masked tensor prints as the numpy.ma array it evaluates to
masked_print_option = np.ma.masked_print_option


def _shift(name: str, a: Any, n: Any) -> MaskedTensor:
    # numpy.ma's left_shift/right_shift: of the data filled with 0, ``n`` as
    # it is given (a Python int stays weak: an int8 array stays int8).
    x, no = _masked(a), _operand(n, strong=False)
    res = _op(name, F.where(x._mask, np.zeros((), x.dtype)[()], x._data), no.data)
    mk = _full(_or(x._mask, no.mask), res)
    return _make(res, mk, None, shrink=x._shrink if no.mask is None else None)


def left_shift(a: Any, n: Any) -> MaskedTensor:
    """numpy.ma's ``left_shift``: the bits of ``a``'s data (0 where masked)
    shifted by ``n``; ``a``'s mask (nomask kept), the default fill value."""
    return _shift("bitwise_left_shift", a, n)


def right_shift(a: Any, n: Any) -> MaskedTensor:
    """numpy.ma's ``right_shift`` (see ``left_shift``)."""
    return _shift("bitwise_right_shift", a, n)


def angle(z: Any, deg: bool = False) -> MaskedTensor:
    """numpy.ma's ``angle`` (a unary operation without a domain: the data
    kept under the mask where it casts, the mask and fill value kept)."""
    from ..setops import angle as plain
    return _unary(lambda d: plain(d, deg), z, None)


def expand_dims(a: Any, axis: Any) -> Any:
    """NumPy's ``expand_dims`` (numpy.ma's is NumPy's own): a view of data
    and mask with a new axis; a plain tensor for a plain operand."""
    if not _is_masked_type(a):
        return F.expand_dims(a, axis)
    return _masked(a)._both(lambda t: F.expand_dims(t, axis))


def take(a: Any, indices: Any, axis: int | None = None, out: Any = None,
         mode: str = "raise") -> MaskedTensor:
    return masked_array(a).take(indices, axis, out, mode)


def compress(condition: Any, a: Any, axis: int | None = None, out: Any = None) -> MaskedTensor:
    return _masked(a).compress(condition, axis, out)


repeat = _ma_method_function("repeat", "repeat")
swapaxes = _ma_method_function("swapaxes", "swapaxes")
diagonal = _ma_method_function("diagonal", "diagonal")
trace = _ma_method_function("trace", "trace")


def _writable(a: Any, what: str) -> MaskedTensor | Tensor:
    if isinstance(a, (MaskedTensor, Tensor)):
        return a
    raise TypeError(f"lt.ma.{what}: a must be a masked tensor or a tensor (it is written in "
                    f"place; lazyten never writes a NumPy array), got {type(a).__name__}")


def put(a: Any, indices: Any, values: Any, mode: str = "raise") -> None:
    """``a.put(indices, values, mode)`` (numpy.ma's; in place)."""
    _writable(a, "put").put(indices, values, mode=mode)


def putmask(a: Any, mask: Any, values: Any) -> None:
    """numpy.ma's ``putmask``: where ``mask`` is true, ``a``'s data become
    ``values``' data (broadcast, NumPy's ``copyto``: same-kind casting) and
    ``a``'s mask ``values``' mask, in place.  ``a`` without a mask gets one
    only where ``values`` has one; a plain tensor's data are written."""
    t = _writable(a, "putmask")
    values = snapshot(values)
    mask = snapshot(mask)
    # (a masked condition is read as its data, as NumPy's copyto reads it)
    cond = _base(mask) if _is_masked_type(mask) else wrap(mask)
    cond = cond if cond.dtype == np.bool_ else cond.astype(np.bool_)
    vmasked = _is_masked_type(values)
    vdata = _base(values) if vmasked else values
    target = t._data if isinstance(t, MaskedTensor) else t
    # NumPy's copyto checks: the cast (same kind) and the broadcast into ``a``.
    probe = vdata if isinstance(vdata, (bool, int, float, complex)) else \
        np.empty((0,) * wrap(vdata).ndim, wrap(vdata).dtype)
    np.copyto(np.empty((0,) * target.ndim, target.dtype), probe, casting="same_kind")
    src = np.broadcast_shapes(cond.shape, wrap(vdata).shape)
    if np.broadcast_shapes(src, target.shape) != target.shape:
        raise ValueError(f"lt.ma.putmask: could not broadcast the values and condition "
                         f"(shape {src}) into the array's shape {target.shape}")
    if isinstance(t, MaskedTensor):
        v = _masked(values) if vmasked else None
        if v is not None and not v._nomask():
            t._own_mask_if_nomask()
            t._mask[...] = F.where(cond, v._mask, t._mask)
        elif not t._nomask():
            t._mask[...] = F.where(cond, False, t._mask)
    target[...] = F.where(cond, vdata, target).astype(target.dtype)


def choose(indices: Any, choices: Any, out: Any = None, mode: str = "raise") -> MaskedTensor:
    """numpy.ma's ``choose``: NumPy's of ``indices`` (0 where masked) among
    the choices' data (each filled with its fill value; ``lt.ma.masked``
    chooses a masked element), masked where the chosen element or the
    index is, the mask shrunk."""
    _no_out(out, "choose")
    from ..manipulation import choose as plain
    c = filled(indices, 0)
    masks = [True if x is np.ma.masked else getmaskarray(x) for x in choices]
    data = [True if x is np.ma.masked else filled(x) for x in choices]
    mk = plain(c, masks, mode=mode) | getmaskarray(indices)
    d = plain(c, data, mode=mode)
    mk = _own(mk if mk.shape == d.shape else F.broadcast_to(mk, d.shape))
    return _make(d, mk, None, shrink=(mk,))


def resize(x: Any, new_shape: Any) -> MaskedTensor:
    """NumPy's ``resize`` of data and mask (numpy.ma's: nomask kept; the
    fill value the default, but where NumPy's ``zeros_like`` of the operand
    answers, with no element in it or in the result)."""
    from ..manipulation import resize as plain
    a = _masked(x)
    d, mk = plain(a._data, new_shape), plain(a._mask, new_shape)
    return _make(d, mk, a._fill_value if not (a.size and d.size) else None,
                 shrink=a._shrink)


def outer(a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``outer``: of the flattened data (0 where masked), masked
    where either element is, the mask shrunk; nomask for unmasked
    operands."""
    x, y = _masked(a), _masked(b)
    d = F.outer(filled(x, 0).reshape(-1), filled(y, 0).reshape(-1))
    mk = F.outer(x._mask.reshape(-1), np.ones(1, bool)) | F.outer(np.ones(1, bool),
                                                                  y._mask.reshape(-1))
    mk = F.broadcast_to(mk, d.shape)
    return _make(d, mk, None, shrink=_shrunk(mk, x._shrink, y._shrink))


outerproduct = outer


def inner(a: Any, b: Any) -> MaskedTensor:
    """numpy.ma's ``inner``: NumPy's of the data filled with 0 (0-d operands
    read as 1-d), without a mask."""
    fa, fb = (filled(_masked(v), 0) for v in (a, b))
    fa, fb = (f.reshape(1) if f.ndim == 0 else f for f in (fa, fb))
    return masked_array(F.inner(fa, fb))


innerproduct = inner


def diag(v: Any, k: int = 0) -> MaskedTensor:
    """numpy.ma's ``diag``: NumPy's of the data and of the mask (nomask
    kept); a 2-d operand's fill value kept."""
    from ..manipulation import diag as plain
    x = _masked(v)
    return _make(plain(x._data, k), plain(x._mask, k),
                 x._fill_value if x.ndim == 2 else None, shrink=x._shrink)


def identity(n: int, dtype: Any = None, *, fill_value: Any = None) -> MaskedTensor:
    return masked_array(_creation.identity(n, dtype=dtype), fill_value=fill_value)


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False, *,
            fill_value: Any = None) -> Any:
    """NumPy's ``indices`` as masked tensors without a mask (a tuple of them
    for ``sparse``)."""
    from ..manipulation import indices as plain
    res = plain(dimensions, dtype=dtype, sparse=sparse)
    if isinstance(res, tuple):
        return tuple(masked_array(r, fill_value=fill_value) for r in res)
    return masked_array(res, fill_value=fill_value)


def fromfunction(function: Any, shape: Any, *, dtype: Any = float, fill_value: Any = None,
                 **kwargs: Any) -> Any:
    res = _creation.fromfunction(function, shape, dtype=dtype, **kwargs)
    return masked_array(res, fill_value=fill_value) if isinstance(res, Tensor) else res


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0, *,
               fill_value: Any = None) -> MaskedTensor:
    return masked_array(_creation.frombuffer(buffer, dtype=dtype, count=count, offset=offset),
                        fill_value=fill_value)


def append(a: Any, b: Any, axis: int | None = None) -> MaskedTensor:
    """numpy.ma's ``append``: ``concatenate([a, b], axis)``."""
    return concatenate([a, b], axis)


def diff(a: Any, /, n: int = 1, axis: int = -1, prepend: Any = np._NoValue,
         append: Any = np._NoValue) -> Any:
    """numpy.ma's ``diff``: NumPy's loop of masked subtractions (``!=`` for
    booleans), ``prepend``/``append`` joined first (a scalar broadcast
    along ``axis``)."""
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    x = _masked(a)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    combined = []
    for extra in (prepend, None, append):
        if extra is None:
            combined.append(x)
        elif extra is not np._NoValue:
            e = _masked(extra)
            if e.ndim == 0:
                shape = list(x.shape)
                shape[axis] = 1
                e = e._both(lambda t: F.broadcast_to(t, tuple(shape)))
            combined.append(e)
    if len(combined) > 1:
        x = concatenate(combined, axis)
    axis = normalize_axis_tuple(axis, x.ndim)[0]
    ufunc = np.not_equal if x.dtype == np.bool_ else np.subtract
    upper = (slice(None),) * axis + (slice(1, None),)
    lower = (slice(None),) * axis + (slice(None, -1),)
    for _ in range(n):
        x = _ufunc_call(ufunc, x[upper], x[lower])
    return x


def _convolve_or_correlate(name: str, a: Any, v: Any, mode: str,
                           propagate_mask: bool) -> MaskedTensor:
    from .. import statistics
    f = getattr(statistics, name)
    x, y = _masked(a), _masked(v)
    if propagate_mask:
        # (masked wherever a masked element takes part)
        mk = f(x._mask, _creation.ones_like(y._mask), mode=mode) | \
            f(_creation.ones_like(x._mask), y._mask, mode=mode)
        d = f(x._data, y._data, mode=mode)
    else:
        mk = ~f(~x._mask, ~y._mask, mode=mode)
        d = f(filled(x, 0), filled(y, 0), mode=mode)
    return _make(d, mk, None)


def convolve(a: Any, v: Any, mode: str = "full", propagate_mask: bool = True) -> MaskedTensor:
    """numpy.ma's ``convolve``: of the data, masked wherever a masked
    element takes part (``propagate_mask``), or of the data filled with 0,
    masked where only masked elements do."""
    return _convolve_or_correlate("convolve", a, v, mode, propagate_mask)


def correlate(a: Any, v: Any, mode: str = "valid", propagate_mask: bool = True) -> MaskedTensor:
    """numpy.ma's ``correlate`` (see ``convolve``)."""
    return _convolve_or_correlate("correlate", a, v, mode, propagate_mask)


def allequal(a: Any, b: Any, fill_value: bool = True) -> Tensor:
    """Whether ``a`` and ``b`` are equal elementwise, masked elements
    counting as equal (``fill_value``) or making the answer False, as
    numpy.ma's: a lazy 0-d bool (``bool()`` forces it)."""
    x, y = _operand(a, strong=True), _operand(b, strong=True)
    eq = F.equal(x.data, y.data)
    m = _or(x.mask, y.mask)
    if m is None:
        return F.all(eq)
    if fill_value:
        return F.all(F.where(m, True, eq))
    # (numpy.ma: False where its union of the masks, shrunk, is not nomask)
    state = _mask_or_state(x, y)
    return F.logical_and(F.all(eq), ~_holds_mask(state)) if state else F.all(eq)


def allclose(a: Any, b: Any, masked_equal: bool = True, rtol: float = 1e-5,
             atol: float = 1e-8) -> Tensor:
    """numpy.ma's ``allclose``: ``|a - b| <= atol + rtol * |b|`` everywhere
    that is not masked (masked elements count as close with
    ``masked_equal``), infinities equal only to themselves, in ``b``'s
    float dtype: a lazy 0-d bool (``bool()`` forces it)."""
    x = masked_array(a)
    y = masked_array(b)
    if y.dtype.kind != "m":
        dt = np.result_type(y.dtype, 1.0)
        if y.dtype != dt:
            y = y.astype(dt)
    m = _or(x._mask, y._mask)
    assert m is not None
    xinf = F.where(m, False, F.isinf(x._data))
    yinf = F.where(y._mask, False, F.isinf(y._data))
    same_inf = F.all(xinf == yinf)
    # (numpy.ma leaves the infinities out of the difference: inf - inf would
    # warn; the masked operations it uses are quiet, so 0 stands in for them)
    xd, yd = (F.where(F.isinf(t), np.zeros((), t.dtype)[()], t) if t.dtype.kind in "fc"
              else t for t in (x._data, y._data))
    close = F.less_equal(F.absolute(xd - yd), atol + rtol * F.absolute(yd))
    with_inf = F.where(xinf, F.equal(x._data, y._data), close)
    ok = F.all(F.where(m, masked_equal, with_inf))
    return F.logical_and(same_inf, ok)


def _reduce_logical(target: Any, axis: int | None, all_: bool) -> MaskedTensor:
    # numpy.ma's ``_MaskedBinaryOperation.reduce`` of logical_and (filled
    # with 1) or logical_or (filled with 0): ``all``/``any``'s reduction, of
    # a 0-d operand read as 1-d.
    x = _masked(target)
    return _logical_reduce(x.reshape(1) if x.ndim == 0 else x, axis, False, all_)


def alltrue(target: Any, axis: int | None = 0, dtype: Any = None) -> MaskedTensor:
    """numpy.ma's ``alltrue`` (``logical_and.reduce``; masked elements read
    as True, masked where all along ``axis`` are)."""
    return _reduce_logical(target, axis, True)


def sometrue(target: Any, axis: int | None = 0, dtype: Any = None) -> MaskedTensor:
    """numpy.ma's ``sometrue`` (``logical_or.reduce``; masked elements read
    as False)."""
    return _reduce_logical(target, axis, False)


# ---------------------------------------------------------------- masks

def make_mask(m: Any, copy: bool = False, shrink: bool = True, dtype: Any = np.bool_) -> Any:
    """``m`` as a boolean mask tensor (masked elements of ``m`` read as
    True), or ``lt.ma.nomask`` where ``shrink`` and nothing is true: that
    depends on the values, which are computed now, as numpy.ma decides."""
    if m is nomask:
        return nomask
    if np.dtype(dtype) != np.bool_:
        raise NotImplementedError("lt.ma.make_mask: structured mask dtypes are not offered")
    t = filled(m, True) if _is_masked_type(m) else wrap(m)
    t = t.astype(np.bool_) if t.dtype != np.bool_ else _own(t)
    if shrink and not builtins.bool(F.any(t)):
        return nomask
    return t


def make_mask_none(newshape: Any, dtype: Any = None) -> Tensor:
    """A mask of ``newshape``, all False."""
    if dtype is not None and np.dtype(dtype).names is not None:
        raise NotImplementedError("lt.ma.make_mask_none: structured dtypes are not offered")
    return _creation.zeros(newshape, dtype=np.bool_)


def mask_or(m1: Any, m2: Any, copy: bool = False, shrink: bool = True) -> Any:
    """The union of two masks (``lt.ma.nomask`` or ``False`` for none),
    shrunk to ``nomask`` where nothing is masked (computed now), as
    numpy.ma's ``mask_or``; masks of two dtypes raise ValueError."""
    if m1 is nomask or m1 is False:
        return make_mask(m2, copy=copy, shrink=shrink)
    if m2 is nomask or m2 is False:
        return make_mask(m1, copy=copy, shrink=shrink)
    d1, d2 = getattr(m1, "dtype", None), getattr(m2, "dtype", None)
    if d1 != d2:
        raise ValueError(f"Incompatible dtypes '{d1}'<>'{d2}'")
    return make_mask(F.logical_or(m1, m2), copy=copy, shrink=shrink)


def is_mask(m: Any) -> bool:
    """Whether ``m`` is a boolean array (a valid mask)."""
    return getattr(getattr(m, "dtype", None), "type", None) is np.bool_


def flatten_mask(mask: Any) -> Tensor:
    """A mask flattened (a 0-d one into one element)."""
    t = _base(mask)
    return t.reshape(-1).astype(np.bool_)


# ---------------------------------------------------------------- fill values

def _dtype_of(obj: Any) -> Any:
    return obj.dtype if isinstance(obj, (Tensor, MaskedTensor)) else obj


def maximum_fill_value(obj: Any) -> Any:
    """The smallest value of ``obj``'s dtype (numpy.ma's fill for maxima)."""
    return np.ma.maximum_fill_value(_dtype_of(obj))


def minimum_fill_value(obj: Any) -> Any:
    """The largest value of ``obj``'s dtype (numpy.ma's fill for minima)."""
    return np.ma.minimum_fill_value(_dtype_of(obj))


def set_fill_value(a: Any, fill_value: Any) -> None:
    """``a``'s fill value becomes ``fill_value`` (nothing for others)."""
    if isinstance(a, MaskedTensor):
        a.fill_value = fill_value


def get_fill_value(a: Any) -> Any:
    return a.fill_value if isinstance(a, MaskedTensor) else np.ma.default_fill_value(_dtype_of(a))


def common_fill_value(a: Any, b: Any) -> Any:
    """The fill value of ``a`` and ``b`` when they have the same, else None."""
    t1, t2 = get_fill_value(a), get_fill_value(b)
    return t1 if t1 == t2 else None


__all__ += ["MaskError", "MAError", "MaskType", "bool_", "masked_singleton",
            "masked_print_option", "left_shift",
            "right_shift", "angle", "expand_dims", "take", "compress", "repeat", "swapaxes",
            "diagonal", "trace", "put", "putmask", "choose", "resize", "outer",
            "outerproduct", "inner", "innerproduct", "diag", "identity", "indices",
            "fromfunction", "frombuffer", "append", "diff", "convolve", "correlate",
            "allequal", "allclose", "alltrue", "sometrue", "make_mask", "make_mask_none",
            "mask_or", "is_mask", "flatten_mask", "maximum_fill_value", "minimum_fill_value",
            "set_fill_value", "get_fill_value", "common_fill_value"]
