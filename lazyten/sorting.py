"""Sorting, searching and set functions (the array API's, with NumPy's
spellings and defaults), NumPy's ``select``, and the differences and splits
built from views.

``sort``, ``argsort``, ``searchsorted``, ``take_along_axis``, ``tril`` and
``triu`` are graph nodes (``graph/ops.py``), lazy like any other.  Functions
whose result's shape depends on the values (``nonzero``, ``unique_*``,
``argwhere``, ``flatnonzero``) evaluate their input when called, as boolean
indexing does, and return tensors of the evaluated results.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Literal, NamedTuple

import numpy as np

from . import functions as _functions
from .creation import asarray, full_along
from .functions import broadcast_to, concat, where
from .graph import ops
from .graph import shapes as S
from .tensor import Tensor, numpy_names, wrap


@numpy_names(a='x')
def sort(x: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
         descending: bool = False, stable: bool | None = None) -> Tensor:
    """NumPy's ``sort`` (``axis=None`` flattens; ``kind="stable"`` or
    ``stable=True`` keeps equal elements in order; NumPy's default kind
    otherwise, where the array API's default is stable) and the array API's
    ``descending``, stable unless ``stable=False`` or a ``kind`` says not."""
    t = _flat_if_none(x, axis)
    if descending and kind is None and stable is None:
        stable = True                 # (the array API's default; NumPy has no descending)
    return Tensor(ops.apply("sort", [t._node], axis=-1 if axis is None else axis,
                            descending=descending, kind=_kind(kind, order, stable)))


@numpy_names(a='x')
def argsort(x: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
            descending: bool = False, stable: bool | None = None) -> Tensor:
    """The indices that sort ``x`` along ``axis`` (as ``sort``).  Unlike
    ``sort``, a 0-d ``x`` is sorted as a 1-d one, as NumPy's argsort does:
    ``[0]`` for axis 0, -1 or None, and any other axis out of bounds."""
    t = wrap(x)
    t = _flat_if_none(t, None if t.ndim == 0 else axis)
    if descending and kind is None and stable is None:
        stable = True                 # (the array API's default; NumPy has no descending)
    return Tensor(ops.apply("argsort", [t._node], axis=-1 if axis is None else axis,
                            descending=descending, kind=_kind(kind, order, stable)))


def _flat_if_none(x: Any, axis: int | None) -> Tensor:
    t = wrap(x)
    return t.reshape(-1) if axis is None else t


def _kind(kind: str | None, order: Any, stable: bool | None) -> Any:
    """The node's ``kind``: NumPy's ``kind``, or "stable" for ``stable=True``
    (at most one of them, as NumPy), checked now; None: NumPy's default."""
    if order is not None:
        raise ValueError("sort: order= (fields of a structured dtype) is not supported")
    if kind is not None and stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                         "Use only one of them.")
    if kind is not None:
        if not isinstance(kind, str) or kind[:4].lower() not in ("quic", "merg", "heap",
                                                                  "stab"):
            raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' "
                             f"(got {kind!r})")
        return kind
    return "stable" if stable else None


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """Where the elements of ``v`` would be inserted into the sorted 1-d
    ``a`` (``sorter``: the indices that sort ``a``).  NumPy's parameter
    names; the array API's ``x1, x2`` are positional, so its calls are these.

    >>> import lazyten as lt
    >>> lt.searchsorted(lt.asarray([1.0, 2.0, 3.0]), v=[1.5, 3.0], side="right").eval()
    array([1, 3])
    """
    ta = wrap(a)
    nodes = [ta._node, _search_key(v, ta.dtype, side)._node]
    if sorter is not None:
        ts = wrap(sorter)
        # NumPy's exception types, which the node's check (a ValueError for
        # any bad sorter) does not tell apart: intp indices of a's 1 axis
        if ts.ndim != 1:
            raise TypeError(f"searchsorted: could not parse sorter argument (a 1-d array of "
                            f"indices), got shape {ts.shape}")
        if ts.dtype.kind not in "iu":
            raise TypeError(f"searchsorted: sorter must only contain integers, got {ts.dtype}")
        if not np.can_cast(ts.dtype, np.intp):
            raise ValueError(f"searchsorted: could not parse sorter argument ({ts.dtype} "
                             f"indices are not intp)")
        nodes.append(ts._node)
    return Tensor(ops.apply("searchsorted", nodes, side=side))


def _search_key(v: Any, dtype: np.dtype[Any], side: str) -> Tensor:
    """``v`` as the node's keys.  A Python int that no int64 or uint64 holds
    is an object to NumPy, which compares it with the elements exactly: it
    is replaced by a value of the same place among any elements of ``dtype``
    (for ``side``), as no lazyten tensor holds Python objects."""
    if type(v) is not int or -2**63 <= v < 2**64:
        return wrap(v)
    if dtype.kind in "biu":
        return wrap(math.inf if v > 0 else -math.inf)      # beyond every integer
    if dtype.kind != "f":
        raise TypeError(f"searchsorted: '<' not supported between {dtype} elements and the "
                        f"Python int {v}")
    # The float of the dtype next to v on the side's side: the smallest one
    # >= v for "left" (elements < v are those < it), the largest <= v for
    # "right".  (Python compares a float with an int exactly.)
    try:
        with np.errstate(over="ignore"):                   # (beyond the dtype: inf)
            f = np.asarray(float(v), dtype)
    except OverflowError:                                  # (beyond float64)
        f = np.asarray(math.inf if v > 0 else -math.inf, dtype)
    up, down = np.asarray(math.inf, dtype), np.asarray(-math.inf, dtype)
    if side == "left" and float(f) < v:
        f = np.nextafter(f, up)
    elif side == "right" and float(f) > v:
        f = np.nextafter(f, down)
    return asarray(np.asarray(f, dtype))


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    """NumPy's ``select``: where ``condlist[i]`` is the first true condition,
    ``choicelist[i]``; where none is, ``default``.  Conditions broadcast
    together, choices and ``default`` too, and the two shapes against each
    other.  The dtype is ``result_type`` of the choices and ``default``
    (Python scalars weak); NumPy then casts each choice into it with
    ``same_kind`` and ``default`` unsafely, a Python scalar as its NumPy
    array (``int64``, ...), so ``-1`` with ``uint8`` choices wraps as a
    default and is a TypeError as a choice.  Lazy: a chain of ``where``,
    the last condition innermost, as NumPy writes the choices in reverse.

    (TensorFlow's ``select``, whose vector condition picks rows, is
    ``lt.tfcompat.select``.)

    >>> import lazyten as lt
    >>> x = lt.arange(6)
    >>> lt.select([x < 3, x > 3], [-x, x**2], 42).eval()
    array([ 0, -1, -2, 42, 16, 25])
    """
    if len(condlist) != len(choicelist):
        raise ValueError("select: list of cases must be same length as list of conditions "
                         f"(got {len(condlist)} conditions, {len(choicelist)} choices)")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    # Python scalars stay weak for the dtype (NumPy's own special case)
    values = [*choicelist, default]
    items = [v if type(v) in (int, float, complex) else wrap(v) for v in values]
    try:
        dtype = np.result_type(*(i.dtype if isinstance(i, Tensor) else i for i in items))
    except TypeError as e:
        raise TypeError(f"select: Choicelist and default value do not have a common dtype: "
                        f"{e}") from None
    conds = [wrap(c) for c in condlist]
    cond_shape = S.broadcast_shapes(*(c.shape for c in conds))
    shape = S.broadcast_shapes(*(i.shape if isinstance(i, Tensor) else () for i in items))
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"select: invalid entry {i} in condlist: should be boolean "
                            f"ndarray, got {c.dtype}")
    shape = S.broadcast_shapes(cond_shape, shape)
    # (``shape`` is checked above, the ``where`` chain broadcasts to it: no
    # broadcast_to of ``default``, whose target would hold the sizes as
    # numbers, wrong at another call of a compiled function)
    result = _cast(items[-1], dtype, "unsafe")                         # (np.full's cast)
    for c, choice in zip(conds[::-1], items[-2::-1]):
        result = where(c, _cast(choice, dtype, "same_kind"), result)    # (np.copyto's)
    # (NumPy's result is its np.full's, a C array, whatever the operands'
    # layouts, which the where chain's would follow)
    from .memory import filled_array
    return filled_array(wrap(result), "C")


def _cast(x: Tensor | complex, dtype: np.dtype[Any],
          casting: Literal["unsafe", "same_kind"]) -> Tensor:
    """``x`` cast as ``np.select`` casts it: a Python scalar as NumPy's
    array of it (cast now, with NumPy: it is one number), a tensor lazily."""
    if isinstance(x, Tensor):
        return x.astype(dtype, casting=casting, copy=False)
    return asarray(np.asarray(x).astype(dtype, casting=casting))


@numpy_names(arr='x')
def take_along_axis(x: Any, indices: Any, axis: int | None = -1) -> Tensor:
    """``np.take_along_axis``: gather with indices of ``x``'s rank (as
    ``argsort`` returns them); ``axis=None`` reads ``x`` flattened."""
    t, idx = wrap(x), wrap(indices)
    if axis is None:
        t, axis = t.reshape(-1), 0
    return Tensor(ops.apply("take_along_axis", [t._node, idx._node], axis=axis))


@numpy_names(m='x')
def tril(x: Any, k: int = 0) -> Tensor:
    """Zeros above the ``k``-th diagonal of the last two axes."""
    return Tensor(ops.apply("tril", [wrap(x)._node], k=k))


@numpy_names(m='x')
def triu(x: Any, k: int = 0) -> Tensor:
    """Zeros below the ``k``-th diagonal of the last two axes."""
    return Tensor(ops.apply("triu", [wrap(x)._node], k=k))


@numpy_names(a='x')
@ops.reports("diff")
def diff(x: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None
         ) -> Tensor:
    """``x[1:] - x[:-1]`` along ``axis``, ``n`` times (``!=`` for bools, as
    NumPy): slices and a subtraction, so the optimizer fuses and pushes
    slices through it like any expression."""
    t = wrap(x)
    # NumPy's order of checks: n == 0 returns the input as it is (a 0-d one,
    # any axis), then the sign of n, the dimensions, the axis, prepend and
    # append, and only then range(n)'s TypeError for a non-integer n.
    if n == 0:
        return t
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    if t.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = S.normalize_axis(axis, t.ndim)
    parts = [t]
    for at, extra in ((0, prepend), (1, append)):
        if extra is not None:
            e = wrap(extra)
            if e.ndim == 0 and not isinstance(extra, Tensor):
                # a scalar: one slice along the axis, as NumPy (its dtype:
                # NumPy makes it an array first)
                e = full_along(t, ax, 1, np.asarray(extra)[()], e.dtype)
            elif e.ndim == 0:
                e = broadcast_to(e, t.shape[:ax] + (1,) + t.shape[ax + 1:])
            parts.insert(0 if at == 0 else len(parts), e)
    if len(parts) > 1:
        t = concat(parts, axis=ax)
    lo = (slice(None),) * ax + (slice(1, None),)
    hi = (slice(None),) * ax + (slice(None, -1),)
    # (the registry's generated functions: NumPy's diff subtracts, or compares bools)
    op = getattr(_functions, "not_equal" if t.dtype == np.bool_ else "subtract")
    for _ in range(operator.index(n)):
        t = op(t[lo], t[hi])
    return t


def unstack(x: Any, axis: int = 0) -> tuple[Tensor, ...]:
    """The slices of ``x`` along ``axis``, as views."""
    t = wrap(x)
    ax = S.normalize_axis(axis, t.ndim)
    return tuple(t[(slice(None),) * ax + (i,)] for i in range(t.shape[ax]))


# ------------------------------------------------------------------ shapes known only from values

@numpy_names(a='x')
def nonzero(x: Any) -> tuple[Tensor, ...]:
    """The indices of the nonzero elements, one array per axis.  Evaluates
    ``x``: how many there are depends on its values."""
    v = _values(x, "nonzero")
    if v.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return tuple(asarray(i) for i in np.nonzero(v))


@numpy_names(a='x')
def flatnonzero(x: Any) -> Tensor:
    """Indices of the nonzero elements of ``x`` flattened (evaluates ``x``)."""
    return asarray(np.flatnonzero(_values(x, "flatnonzero")))


@numpy_names(a='x')
def argwhere(x: Any) -> Tensor:
    """Indices of the nonzero elements, one row each (evaluates ``x``)."""
    return asarray(np.argwhere(_values(x, "argwhere")))


class UniqueAllResult(NamedTuple):
    values: Tensor
    indices: Tensor
    inverse_indices: Tensor
    counts: Tensor


class UniqueCountsResult(NamedTuple):
    values: Tensor
    counts: Tensor


class UniqueInverseResult(NamedTuple):
    values: Tensor
    inverse_indices: Tensor


def unique_values(x: Any) -> Tensor:
    """The sorted distinct values of ``x`` (evaluates ``x``)."""
    return asarray(np.unique_values(_values(x, "unique_values")))


def unique_counts(x: Any) -> UniqueCountsResult:
    r = np.unique_counts(_values(x, "unique_counts"))
    return UniqueCountsResult(*(asarray(a) for a in r))


def unique_inverse(x: Any) -> UniqueInverseResult:
    r = np.unique_inverse(_values(x, "unique_inverse"))
    return UniqueInverseResult(*(asarray(a) for a in r))


def unique_all(x: Any) -> UniqueAllResult:
    r = np.unique_all(_values(x, "unique_all"))
    return UniqueAllResult(*(asarray(a) for a in r))


@numpy_names(ar='x')
def unique(x: Any, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *,
           equal_nan: bool = True, sorted: bool = True) -> Any:  # noqa: A002 - NumPy's
    """NumPy's ``unique`` (evaluates ``x``): the values, and the requested
    arrays after them, as tensors.  ``equal_nan`` (NumPy's default True)
    makes all NaNs one value; False keeps each NaN apart.  ``sorted=False``
    allows any order: NumPy's (sorted, here)."""
    flags: dict[str, Any] = {"return_index": return_index, "return_inverse": return_inverse,
                             "return_counts": return_counts, "axis": axis,
                             "equal_nan": equal_nan, "sorted": sorted}
    r: Any = np.unique(_values(x, "unique"), **flags)
    if isinstance(r, tuple):
        return tuple(asarray(a) for a in r)
    return asarray(r)


def _values(x: Any, name: str) -> np.ndarray[Any, Any]:
    t = wrap(x)
    if t.dtype.kind not in "biufc":
        raise TypeError(f"{name}: unsupported dtype {t.dtype}")
    return np.asarray(t)


def from_dlpack(x: Any, *, device: Any = None, copy: bool | None = None) -> Tensor:
    """A tensor over the memory of a DLPack producer (the array API's
    interchange), without a copy where NumPy can share it."""
    return asarray(np.from_dlpack(x, device=device, copy=copy))


def _sort_in_place(t: Tensor, axis: int | None = -1, kind: str | None = None,
                   order: Any = None, *, stable: bool | None = None) -> None:
    """``t.sort()``: NumPy's in-place sort, as a new version of ``t`` (a
    functional write, as ``t[...] = v``; through views to their root)."""
    if axis is None:        # (NumPy's TypeError: an array sorts in place along one axis)
        raise TypeError("sort in place: axis=None: 'NoneType' object cannot be interpreted "
                        "as an integer (np.sort(a, axis=None) returns a flattened copy)")
    t[...] = sort(t, axis=axis, kind=kind, order=order, stable=stable)


def _searchsorted_method(t: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    return searchsorted(t, v, side=side, sorter=sorter)


# ndarray's methods of these names (Tensor.__getattr__ looks them up here).
_functions.METHODS.update(argsort=argsort, sort=_sort_in_place, nonzero=nonzero,
                          searchsorted=_searchsorted_method)
