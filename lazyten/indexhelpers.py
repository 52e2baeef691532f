"""NumPy's index helpers: ``mgrid``, ``ogrid``, ``r_``, ``c_``, ``s_``,
``index_exp``, ``ndindex`` and ``ndenumerate``.

- ``mgrid`` and ``ogrid`` run NumPy's own ``ogrid`` on the slices: one
  short vector per axis (its values, dtype and errors NumPy's), wrapped as
  tensors; ``mgrid`` broadcasts them lazily to the full grid and stacks them
  (NumPy computes each grid element as ``index * step + start``, as the
  vector's elements, so the values are the same), so a grid is only
  materialized where an evaluation needs it.
- ``r_`` and ``c_`` are NumPy's ``AxisConcatenator`` written over lazyten's
  functions: slices become NumPy's ``arange``/``linspace`` constants,
  tensors stay lazy, and the join is a lazy ``concatenate`` (NumPy's
  directives and result dtype).  NumPy's matrix forms (the ``'r'``/``'c'``
  directives) give 2-d tensors: lazyten has no matrix type.
- ``s_``, ``index_exp`` and ``ndindex`` are NumPy's own: they build index
  tuples and never touch data.
- ``ndenumerate`` computes the tensor (once, when iteration starts) and walks
  the values, as NumPy's.

>>> import lazyten as lt
>>> lt.mgrid[0:2, 0:3].shape, lt.r_[1:4, 0, lt.arange(2)].eval()
((2, 2, 3), array([1, 2, 3, 0, 0, 1]))
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .creation import array, asarray
from .tensor import Tensor, wrap

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "ndindex", "ndenumerate"]

s_ = np.s_
index_exp = np.index_exp
ndindex = np.ndindex


class _Grid:
    """``mgrid`` (``sparse=False``) and ``ogrid`` (``sparse=True``)."""

    __slots__ = ("sparse",)

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        from .functions import broadcast_to, stack
        # NumPy's values, dtypes and errors: its sparse grid is one vector
        # per axis (shaped to broadcast), at most as large as the slices.
        parts = np.ogrid[key]
        if isinstance(parts, np.ndarray):
            return asarray(parts)            # a single slice: a 1-d range
        if self.sparse or not parts:
            if not parts and not self.sparse:
                return asarray(np.mgrid[key])   # (no slices: NumPy's empty grid)
            return tuple(asarray(p) for p in parts)
        # mgrid writes each axis's values into one array of the common
        # type of every start, stop and step (NumPy's ``nd_grid``).
        typ = np.result_type(*_grid_numbers(key))
        shape = tuple(math.prod(p.shape) for p in parts)
        return stack([broadcast_to(asarray(p.astype(typ, copy=False)), shape) for p in parts])


def _grid_numbers(key: tuple[Any, ...]) -> list[Any]:
    """What NumPy's ``nd_grid`` takes the common type of: 0 (at least
    NumPy's default integer, as ``arange``), then each slice's start, stop
    and step (a complex step's magnitude: a count)."""
    nums: list[Any] = [0]
    for k in key:
        step = 1 if k.step is None else k.step
        if isinstance(step, (np.complexfloating, complex)):
            step = abs(step)
        nums += [0 if k.start is None else k.start, k.stop, step]
    return nums


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class _Concatenator:
    """NumPy's ``AxisConcatenator`` (``r_``, ``c_``) with lazyten's joins."""

    __slots__ = ("axis", "ndmin", "trans1d")

    def __init__(self, axis: int = 0, ndmin: int = 1, trans1d: int = -1) -> None:
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key: Any) -> Tensor:
        from .functions import concatenate
        if isinstance(key, str):
            raise NotImplementedError("lazyten has no matrix type: the matrix-building "
                                      "string form of r_/c_ is not supported")
        if not isinstance(key, tuple):
            key = (key,)
        trans1d, ndmin, axis = self.trans1d, self.ndmin, self.axis
        matrix, col = False, False
        objs: list[Any] = []
        types: list[Any] = []            # dtypes, or scalars (weak, NEP 50)
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if isinstance(step, (np.complexfloating, complex)):
                    num = int(abs(complex(step)))   # (a complex step: a count)
                    new: Any = asarray(np.linspace(start, item.stop, num=num))
                else:
                    new = asarray(np.arange(start, item.stop, step))
                if ndmin > 1:
                    new = array(new, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        new = new.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, col = True, item == "c"
                    continue
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            elif type(item) in np.ScalarType:
                scalar, new = True, item
            else:
                item_ndim = wrap(item).ndim if isinstance(item, Tensor) else np.ndim(item)
                new = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    defaxes = list(range(ndmin))
                    new = new.transpose(defaxes[:k1] + defaxes[k2:] + defaxes[k1:k2])
            objs.append(new)
            types.append(item if scalar else new.dtype)
        if types:
            final = np.result_type(*types)
            objs = [array(o, dtype=final, copy=None, ndmin=ndmin) for o in objs]
        res = concatenate(tuple(objs), axis=axis)
        if matrix:
            # np.matrix's shapes: a 1-d result is a row (a column for 'c').
            if res.ndim == 1:
                res = res.reshape((-1, 1) if col else (1, -1))
            elif res.ndim > 2:
                raise ValueError("shape too large to be a matrix.")
        return res

    def __len__(self) -> int:
        return 0


r_ = _Concatenator(0)
c_ = _Concatenator(-1, ndmin=2, trans1d=0)


class ndenumerate:  # noqa: N801 - NumPy's name
    """NumPy's ``ndenumerate``: ``(index, value)`` for every element in C
    order.  A tensor is computed once, when iteration starts, with the value
    it had when ``ndenumerate`` was called (a later write to it is not seen);
    the values are NumPy scalars, as NumPy's.

    >>> import lazyten as lt
    >>> [(i, int(v)) for i, v in lt.ndenumerate(lt.arange(4).reshape(2, 2) * 10)]
    [((0, 0), 0), ((0, 1), 10), ((1, 0), 20), ((1, 1), 30)]
    """

    def __init__(self, arr: Any) -> None:
        self._it: Any = None
        self._t: Tensor | None = None
        if isinstance(arr, Tensor):
            self._t = Tensor(arr._node)      # (this value: a write to arr rebinds arr)
        else:
            self._it = np.ndenumerate(arr)

    def __iter__(self) -> ndenumerate:
        return self

    def __next__(self) -> tuple[tuple[int, ...], Any]:
        if self._it is None:
            assert self._t is not None
            self._it = np.ndenumerate(self._t.eval())
            self._t = None
        item: tuple[tuple[int, ...], Any] = next(self._it)
        return item
