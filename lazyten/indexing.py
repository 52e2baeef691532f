"""``t[index]`` and ``t[index] = value``.

Basic indexing (ints, slices, ``...``, ``None``) is a zero-copy view node.
One integer array (or list) among slices gathers along that axis (``take``),
and a boolean mask selects elements; a mask's result size depends on its
values, so a lazy mask is evaluated first (said in the docstring of
``getitem``).  Writes are functional updates of the tensor's root.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .graph import ops
from .tensor import Tensor, node_of, wrap


def _is_basic(item: Any) -> bool:
    return (item is None or item is Ellipsis or isinstance(item, slice)
            or (isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))))


def _advanced(item: Any) -> np.ndarray[Any, Any] | Tensor | None:
    if isinstance(item, Tensor):
        return item
    if isinstance(item, (list, np.ndarray)) or isinstance(item, (bool, np.bool_)):
        return np.asarray(item)
    return None


@ops.reports("getitem")
def getitem(t: Tensor, index: Any) -> Tensor:
    """NumPy indexing.  Basic indices give views.  An integer array along one
    axis (others plain slices) gathers; a boolean mask over all leading axes
    selects elements (a lazy mask is evaluated: the result's size depends on it).
    """
    items = index if isinstance(index, tuple) else (index,)
    basic = every_int = True
    for i in items:     # a loop, not all()/any() over generators: t[i] is a hot path
        if i is None or i is Ellipsis or type(i) is slice:
            every_int = False
        elif not _is_basic(i):
            basic = False
            break
    if basic:
        view = t._view("getitem", index=items)
        if every_int and len(items) == t.ndim:
            # An integer for every axis: NumPy returns a scalar, a copy, so
            # writing to it (``s = a[0, 1]; s += 1``) must not reach ``t``.
            return Tensor(view._node)
        return view
    adv = [(k, _advanced(i)) for k, i in enumerate(items) if not _is_basic(i)]
    if len(adv) != 1 or adv[0][1] is None:
        bad = [type(i).__name__ for i in items if not _is_basic(i)]
        raise IndexError(f"unsupported index {bad}: lazyten takes ints, slices, ..., None, "
                         f"one integer array, or one boolean mask")
    pos, arr = adv[0]
    assert arr is not None                  # checked just above
    rest = items[:pos] + (slice(None),) + items[pos + 1:]
    if any(isinstance(i, (int, np.integer)) or i is None for i in rest):
        raise IndexError("mixing an array index with integer or None indices is not "
                         "supported; index in two steps")
    if any(i is Ellipsis for i in items[:pos]):
        n_after = sum(1 for i in items[pos + 1:] if i is not Ellipsis)
        axis = t.ndim - 1 - n_after
    else:
        axis = pos
    if arr.dtype.kind == "b":
        mask = arr.eval() if isinstance(arr, Tensor) else arr
        return _boolean_index(t, rest, axis, mask)
    base = t._view("getitem", index=rest) if any(i != slice(None) for i in rest
                                                  if isinstance(i, slice)) else t
    idx = arr if isinstance(arr, Tensor) else wrap(np.asarray(arr))
    if idx.dtype.kind not in "iu":
        raise IndexError(f"arrays used as indices must be of integer type, got {idx.dtype}")
    if not isinstance(arr, Tensor) and arr.size:
        n = base.shape[axis]
        if arr.max() >= n or arr.min() < -n:
            raise IndexError(f"index {int(arr.max() if arr.max() >= n else arr.min())} is out "
                             f"of bounds for axis {axis} with size {n}")
    return Tensor(ops.apply("take", [base._node, idx._node], axis=axis))


def _boolean_index(t: Tensor, rest: tuple[Any, ...], axis: int,
                   mask: np.ndarray[Any, Any]) -> Tensor:
    if mask.ndim == 0:
        raise IndexError("a 0-d boolean index is not supported")
    dims = t.shape[axis:axis + mask.ndim]
    if tuple(dims) != mask.shape:
        raise IndexError(f"boolean index of shape {mask.shape} does not match the indexed "
                         f"dimensions {tuple(dims)} of shape {t.shape}")
    merged_shape = t.shape[:axis] + (int(np.prod(dims)),) + t.shape[axis + mask.ndim:]
    flat = t.reshape(merged_shape)
    positions = np.flatnonzero(mask)
    return Tensor(ops.apply("take", [flat._node, wrap(positions)._node], axis=axis))


@ops.reports("setitem")
def setitem(t: Tensor, index: Any, value: Any) -> None:
    """``t[index] = value`` as a new version of ``t`` (and of its root, for views)."""
    items = index if isinstance(index, tuple) else (index,)
    if not all(_is_basic(i) for i in items):
        raise IndexError("assignment supports basic indices (ints, slices, ..., None); for "
                         "masks use lt.where(mask, value, t)")
    val = node_of(value)
    if isinstance(value, int) and not isinstance(value, bool) and t.dtype.kind in "iu":
        # NumPy checks that an assigned Python int fits the array's dtype.
        val = ops.const(_checked_int(value, t.dtype))
    t._write(ops.apply("setitem", [t._node, val], index=items))


def _checked_int(v: int, dtype: np.dtype[Any]) -> Any:
    info = np.iinfo(dtype)
    if not info.min <= v <= info.max:
        raise OverflowError(f"Python integer {v} out of bounds for {dtype}")
    return np.asarray(v, dtype=dtype)
