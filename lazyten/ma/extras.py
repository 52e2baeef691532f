"""numpy.ma.extras's functions for masked tensors (see ``lazyten.ma``).

Each is built as numpy.ma.extras builds it, on data and mask tensors, so
it stays lazy and gives numpy.ma's values, masks, dtypes and fill values.
The functions whose answer is made of positions that depend on the mask's
values (``notmasked_edges``, ``clump_masked``, ``compress_rows``, the set
operations, ``unique``, ...) compute their operands when called, as
``lt.ma.compressed`` does, and answer what numpy.ma answers for them
(index arrays, slices, masked tensors of the results).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from .. import creation as _creation
from .. import functions as F
from ..tensor import Tensor
from .core import (MaskedTensor, _cat, _from_numpy, _is_masked_type, _make, _masked, _own,
                   _seq, concatenate, filled, getmaskarray, hstack, masked_array, sqrt)

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "column_stack", "dstack", "row_stack",
           "hsplit", "diagflat", "ediff1d", "compress_nd", "compress_rowcols",
           "compress_rows", "compress_cols", "mask_rowcols", "mask_rows", "mask_cols",
           "notmasked_edges", "flatnotmasked_edges", "notmasked_contiguous",
           "flatnotmasked_contiguous", "clump_masked", "clump_unmasked", "cov", "corrcoef",
           "vander", "unique", "intersect1d", "union1d", "setdiff1d", "setxor1d", "isin",
           "in1d", "polyfit", "apply_along_axis", "apply_over_axes", "ndenumerate"]


# ------------------------------------------------------------ NumPy's functions of data and mask

def _allargs(fn: Callable[..., Tensor], arys: tuple[Any, ...]) -> Any:
    # numpy.ma's _fromnxfunction_allargs: each operand's data and full mask
    # through ``fn``; a mask array, the default fill value.
    out = tuple(_make(fn(_masked(a)._data), fn(getmaskarray(a)), None) for a in arys)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys: Any) -> Any:
    return _allargs(F.atleast_1d, arys)


def atleast_2d(*arys: Any) -> Any:
    return _allargs(F.atleast_2d, arys)


def atleast_3d(*arys: Any) -> Any:
    return _allargs(F.atleast_3d, arys)


def column_stack(tup: Any) -> MaskedTensor:
    """``numpy.ma.column_stack`` (data and masks; a mask array)."""
    return _seq(F.column_stack, tup)


def dstack(tup: Any) -> MaskedTensor:
    """``numpy.ma.dstack`` (data and masks; a mask array)."""
    return _seq(F.dstack, tup)


def row_stack(tup: Any) -> MaskedTensor:
    """``numpy.ma.row_stack``: ``vstack``."""
    return _seq(F.vstack, tup)


def hsplit(ary: Any, indices_or_sections: Any) -> MaskedTensor:
    """numpy.ma's ``hsplit``: NumPy's pieces of the data and of the mask,
    made one masked tensor, as numpy.ma's ``masked_array(data=[pieces])``
    does (stacked: the pieces must have one shape)."""
    from ..manipulation import hsplit as plain
    x = _masked(ary)
    return _make(F.stack(plain(x._data, indices_or_sections)),
                 F.stack(plain(x._mask, indices_or_sections)), None)


def diagflat(v: Any, k: int = 0) -> MaskedTensor:
    """numpy.ma's ``diagflat``: of the data and of the mask (a mask array)."""
    from ..manipulation import diagflat as plain
    x = _masked(v)
    return _make(plain(x._data, k), plain(x._mask, k), None)


def ediff1d(arr: Any, to_end: Any = None, to_begin: Any = None) -> MaskedTensor:
    """numpy.ma's ``ediff1d``: the differences of the flattened array (masked
    where either element is), ``to_begin``/``to_end`` joined (``hstack``)."""
    x = _masked(arr).ravel()
    ed = x[1:] - x[:-1]
    arrays: list[Any] = [ed]
    if to_begin is not None:
        arrays.insert(0, to_begin)
    if to_end is not None:
        arrays.append(to_end)
    return hstack(arrays) if len(arrays) != 1 else ed


# ---------------------------------------------------------------- rows and columns

def _two_d(a: MaskedTensor, what: str) -> None:
    if a.ndim != 2:
        raise NotImplementedError(f"{what} works for 2D arrays only.")


def mask_rowcols(a: Any, axis: int | None = None) -> MaskedTensor:
    """A copy of the 2-d ``a`` with every row (``axis=0``), column
    (``axis=1``) or both (None) that holds a masked element masked: lazy
    (numpy.ma's; nomask and the fill value kept)."""
    x = masked_array(a).copy()
    _two_d(x, "mask_rowcols")
    mk = x._mask
    rows, cols = F.any(mk, axis=1, keepdims=True), F.any(mk, axis=0, keepdims=True)
    if not axis:
        mk = mk | rows
    if axis in (None, 1, -1):
        mk = mk | cols
    return _make(x._data, mk, x._fill_value, shrink=x._shrink)


def _ignored_axis(axis: Any) -> None:
    if axis is not np._NoValue:
        warnings.warn("The axis argument has always been ignored, in future passing it will "
                      "raise TypeError", DeprecationWarning, stacklevel=3)


def mask_rows(a: Any, axis: Any = np._NoValue) -> MaskedTensor:
    """``mask_rowcols(a, 0)``."""
    _ignored_axis(axis)
    return mask_rowcols(a, 0)


def mask_cols(a: Any, axis: Any = np._NoValue) -> MaskedTensor:
    """``mask_rowcols(a, 1)``."""
    _ignored_axis(axis)
    return mask_rowcols(a, 1)


def compress_nd(x: Any, axis: Any = None) -> Tensor:
    """The data without the slices (along each of ``axis``, every axis when
    None) that hold a masked element: a plain tensor, as numpy.ma's.  The
    mask is computed now: it decides the result's shape."""
    from .. import compute
    a = _masked(x)
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim)
    m = compute(a._mask)[0]
    data = a._data
    if not m.any():
        return data
    if m.all():
        return _creation.asarray(np.array([]))
    for ax in axes:
        others = tuple(k for k in range(a.ndim) if k != ax)
        keep = np.flatnonzero(~m.any(axis=others))
        data = F.take(data, _creation.asarray(keep), axis=ax)
    return data


def compress_rowcols(x: Any, axis: int | None = None) -> Tensor:
    """``compress_nd`` of a 2-d array: rows (0), columns (1) or both (None)."""
    _two_d(_masked(x), "compress_rowcols")
    return compress_nd(x, axis=axis)


def compress_rows(a: Any) -> Tensor:
    _two_d(_masked(a), "compress_rows")
    return compress_nd(a, axis=0)


def compress_cols(a: Any) -> Tensor:
    _two_d(_masked(a), "compress_cols")
    return compress_nd(a, axis=1)


# ---------------------------------------------------------------- runs of the mask
# Their answers are positions: the mask is computed, numpy.ma's function
# reads it.

def _evaluated(x: Any) -> Any:
    """``x`` as numpy.ma's function reads it: computed, a masked tensor as a
    ``numpy.ma`` array, a tensor as an ndarray."""
    if isinstance(x, MaskedTensor):
        return x.eval()
    if isinstance(x, Tensor):
        return x.eval()
    return x


def notmasked_edges(a: Any, axis: int | None = None) -> Any:
    """The indices of the first and last unmasked elements (along ``axis``),
    numpy.ma's (computed now)."""
    return np.ma.notmasked_edges(_evaluated(a), axis)


def flatnotmasked_edges(a: Any) -> Any:
    return np.ma.flatnotmasked_edges(_evaluated(a))


def notmasked_contiguous(a: Any, axis: int | None = None) -> Any:
    """The runs of unmasked elements as slices (along ``axis``), numpy.ma's
    (computed now)."""
    return np.ma.notmasked_contiguous(_evaluated(a), axis)


def flatnotmasked_contiguous(a: Any) -> Any:
    return np.ma.flatnotmasked_contiguous(_evaluated(a))


def clump_masked(a: Any) -> list[slice]:
    """The runs of masked elements of a 1-d array as slices (computed now)."""
    return list(np.ma.clump_masked(_evaluated(a)))


def clump_unmasked(a: Any) -> list[slice]:
    """The runs of unmasked elements of a 1-d array as slices (computed now)."""
    return list(np.ma.clump_unmasked(_evaluated(a)))


# ---------------------------------------------------------------- covariance

def _covhelper(x: Any, y: Any, rowvar: bool,
               allow_masked: bool) -> tuple[MaskedTensor, Tensor, int]:
    """numpy.ma's ``_covhelper``: ``x`` (and ``y`` joined) as float, at least
    2-d, centred on the unmasked means; the float32 (float64 past 2**24
    rows) "not masked" counts' operand."""
    from .. import compute

    def prepared(v: Any) -> MaskedTensor:
        t = masked_array(v).astype(float)
        return t.reshape(1, -1) if t.ndim < 2 else t

    xa = prepared(x)
    xmask = xa._mask
    if not allow_masked and bool(compute(F.any(xmask))[0]):
        raise ValueError("Cannot process masked data.")
    if xa.shape[0] == 1:
        rowvar = True
    row = int(bool(rowvar))
    axis = 1 - row
    if y is not None:
        ya = prepared(y)
        ymask = ya._mask
        if not allow_masked and bool(compute(F.any(ymask))[0]):
            raise ValueError("Cannot process masked data.")
        if ya.shape == xa.shape:
            # numpy.ma gives both the union when either has a masked element;
            # else each keeps its own (nomask stays nomask: then a NaN mean
            # is not masked)
            xmask = ymask = _own(xmask | ymask)
            xa = _make(xa._data, xmask, xa._fill_value, shrink=_cat(xa._shrink, (xmask,)))
            ya = _make(ya._data, ymask, ya._fill_value, shrink=_cat(ya._shrink, (ymask,)))
        xa = concatenate((xa, ya), axis)
        notmasked = ~F.concatenate((xmask, ymask), axis=axis)
    else:
        notmasked = ~xmask
    big = xa.shape[0] > 2 ** 24 or xa.shape[1] > 2 ** 24
    notmasked = notmasked.astype(np.float64 if big else np.float32)
    mean = xa.mean(axis=row)
    centre = mean[:, None] if row else mean[None, :]
    return xa - centre, notmasked, row


def cov(x: Any, y: Any = None, rowvar: bool = True, bias: bool = False,
        allow_masked: bool = True, ddof: int | None = None) -> MaskedTensor:
    """numpy.ma's ``cov``: the covariance of the unmasked pairs, each
    normalised by its own count less ``ddof`` (masked where that is not
    positive); ``allow_masked=False`` computes the masks to refuse them."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be an integer")
    if ddof is None:
        ddof = 0 if bias else 1
    xc, notmasked, row = _covhelper(x, y, rowvar, allow_masked)
    if not row:
        fact = F.dot(notmasked.T, notmasked) - ddof
        num = F.dot(filled(xc.T, 0), filled(xc.conj(), 0))
    else:
        fact = F.dot(notmasked, notmasked.T) - ddof
        num = F.dot(filled(xc, 0), filled(xc.T.conj(), 0))
    mk = F.less_equal(fact, 0)
    # (numpy.ma divides under errstate(ignore): where ``fact`` is 0 the
    # quotient is masked, and divided by 1 here, quietly; an unmasked NaN
    # or infinity divides as it is)
    quotient = num / F.where(F.equal(fact, 0), np.float32(1), fact)
    return _make(quotient, mk, None).squeeze()


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, bias: Any = np._NoValue,
             allow_masked: bool = True, ddof: Any = np._NoValue) -> MaskedTensor:
    """numpy.ma's ``corrcoef``: ``cov`` divided by the outer product of its
    diagonal's square roots (``bias`` and ``ddof`` have no effect, as in
    NumPy, and are deprecated there)."""
    if bias is not np._NoValue or ddof is not np._NoValue:
        warnings.warn("bias and ddof have no effect and are deprecated", DeprecationWarning,
                      stacklevel=2)
    corr = cov(x, y, rowvar, allow_masked=allow_masked)
    if corr.ndim < 2:
        # (one variable: numpy.ma's diagonal of the 0-d covariance fails, and
        # it answers its masked constant, a float64)
        return _make(_creation.zeros(()), _creation.ones((), dtype=np.bool_), None)
    std = sqrt(corr.diagonal())
    corr /= _outer(std, std)          # (numpy.ma's in-place division: its domain)
    return corr


def _outer(a: MaskedTensor, b: MaskedTensor) -> MaskedTensor:
    # numpy.ma's ``multiply.outer``: the data's outer product (of any
    # dimensions: ``a.shape + b.shape``), the masks or'ed (a mask array).
    def lifted(t: Tensor) -> Tensor:
        return t.reshape(t.shape + (1,) * b.ndim)
    return _make(F.multiply(lifted(a._data), b._data), lifted(a._mask) | b._mask, None)


def vander(x: Any, n: int | None = None) -> Tensor:
    """numpy.ma's ``vander``: NumPy's of the data, rows of masked elements
    zero; a plain tensor, as numpy.ma's."""
    from ..manipulation import vander as plain
    a = _masked(x)
    v = plain(a._data, n)
    return F.where(a._mask[:, None], np.zeros((), v.dtype)[()], v)


# ---------------------------------------------------------------- computed now: sets, fits, loops

def _lifted(res: Any) -> Any:
    """numpy.ma's answer as lazyten's: masked arrays as masked tensors,
    arrays as tensors, tuples and lists item by item."""
    if isinstance(res, np.ma.MaskedArray):
        return _from_numpy(res)
    if isinstance(res, np.ndarray):
        return _creation.asarray(res)
    if isinstance(res, (tuple, list)):
        return type(res)(_lifted(r) for r in res)
    return res


def _numpy_ma(fn: Callable[..., Any], *arrays: Any, **kwargs: Any) -> Any:
    return _lifted(fn(*(_evaluated(a) for a in arrays), **kwargs))


def unique(ar1: Any, return_index: bool = False, return_inverse: bool = False) -> Any:
    """The sorted unique elements, masked ones as one masked element at the
    end (numpy.ma's; computed now: their number depends on the values)."""
    return _numpy_ma(np.ma.unique, ar1, return_index=return_index,
                     return_inverse=return_inverse)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedTensor:
    return _numpy_ma(np.ma.intersect1d, ar1, ar2, assume_unique=assume_unique)


def union1d(ar1: Any, ar2: Any) -> MaskedTensor:
    return _numpy_ma(np.ma.union1d, ar1, ar2)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedTensor:
    return _numpy_ma(np.ma.setdiff1d, ar1, ar2, assume_unique=assume_unique)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedTensor:
    return _numpy_ma(np.ma.setxor1d, ar1, ar2, assume_unique=assume_unique)


def isin(element: Any, test_elements: Any, assume_unique: bool = False,
         invert: bool = False) -> MaskedTensor:
    """Whether each element is in ``test_elements`` (masked elements equal
    masked ones), numpy.ma's (computed now)."""
    return _numpy_ma(np.ma.isin, element, test_elements, assume_unique=assume_unique,
                     invert=invert)


def in1d(ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False) -> MaskedTensor:
    """``isin`` of the flattened ``ar1`` (numpy.ma's ``in1d``; computed now)."""
    return _numpy_ma(np.ma.in1d, ar1, ar2, assume_unique=assume_unique, invert=invert)


def polyfit(x: Any, y: Any, deg: int, rcond: Any = None, full: bool = False, w: Any = None,
            cov: Any = False) -> Any:
    """numpy.ma's ``polyfit`` (least squares on the points where neither
    ``x`` nor ``y`` is masked; computed now, as ``lt.polyfit``)."""
    return _numpy_ma(np.ma.polyfit, x, y, deg, rcond=rcond, full=full,
                     w=None if w is None else _evaluated(w), cov=cov)


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any,
                     **kwargs: Any) -> Any:
    """numpy.ma's ``apply_along_axis``: ``func1d`` called on each 1-d slice,
    a ``numpy.ma`` array (``arr`` is computed first: the function is
    Python called once a slice, as ``lt.apply_along_axis`` does)."""
    return _lifted(np.ma.apply_along_axis(func1d, axis, _evaluated(arr), *args, **kwargs))


def apply_over_axes(func: Callable[..., Any], a: Any, axes: Any) -> Any:
    """numpy.ma's ``apply_over_axes`` (``a`` computed first; ``func`` gets
    ``numpy.ma`` arrays)."""
    return _lifted(np.ma.apply_over_axes(func, _evaluated(a), axes))


def ndenumerate(a: Any, compressed: bool = True) -> Iterator[tuple[tuple[int, ...], Any]]:
    """The (index, value) pairs of the unmasked elements (all, masked ones as
    ``lt.ma.masked``, without ``compressed``): computed once, when
    iteration starts."""
    yield from np.ma.ndenumerate(_evaluated(_masked(a) if _is_masked_type(a) else a),
                                 compressed=compressed)

