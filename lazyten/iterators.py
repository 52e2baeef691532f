"""gorgonia's iterators: elements with their coordinates, in C or Fortran order.

Iterating needs the values, so these force evaluation, once, when iteration
starts (all tensors of ``multi_iterate`` in one plan); the iteration itself
walks the computed arrays.

>>> import lazyten as lt
>>> t = lt.arange(4).reshape(2, 2)
>>> [c for c, v in lt.iterate(t, order="F")]
[(0, 0), (1, 0), (0, 1), (1, 1)]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .graph import shapes as S
from .tensor import Tensor, wrap

__all__ = ["iterate", "multi_iterate"]


def _check_order(order: str) -> str:
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' (row-major) or 'F' (column-major), got {order!r}")
    return order


def _coords(shape: tuple[int, ...], order: str, reverse: bool) -> Iterator[tuple[int, ...]]:
    n = int(np.prod(shape, dtype=np.int64))
    flat = np.arange(n - 1, -1, -1) if reverse else np.arange(n)
    if not shape:
        yield from (() for _ in flat)
        return
    cols = np.unravel_index(flat, shape, order="F" if order == "F" else "C")
    for k in range(n):
        yield tuple(int(c[k]) for c in cols)


def iterate(t: Any, order: str = "C", reverse: bool = False
            ) -> Iterator[tuple[tuple[int, ...], Any]]:
    """``(coordinates, value)`` for every element: C order (last axis fastest) or
    F order (first axis fastest), forward or reverse (gorgonia's ``FlatIterator``).

    >>> import lazyten as lt
    >>> list(lt.iterate(lt.asarray([10, 20]), reverse=True))
    [((1,), np.int64(20)), ((0,), np.int64(10))]
    """
    _check_order(order)
    tensor = wrap(t)

    def gen() -> Iterator[tuple[tuple[int, ...], Any]]:
        arr = tensor.eval()
        for c in _coords(arr.shape, order, reverse):
            yield c, arr[c]
    return gen()


def multi_iterate(*tensors: Any, order: str = "C", reverse: bool = False
                  ) -> Iterator[tuple[tuple[int, ...], tuple[Any, ...]]]:
    """``(coordinates, (value of each tensor))`` over the tensors broadcast to one
    shape (gorgonia's ``MultIterator``).

    >>> import lazyten as lt
    >>> [(c, tuple(int(x) for x in v)) for c, v in
    ...  lt.multi_iterate(lt.asarray([[1], [2]]), lt.asarray([10, 20]))]
    [((0, 0), (1, 10)), ((0, 1), (1, 20)), ((1, 0), (2, 10)), ((1, 1), (2, 20))]
    """
    _check_order(order)
    if not tensors:
        raise ValueError("multi_iterate needs at least one tensor")
    ts: list[Tensor] = [wrap(x) for x in tensors]
    shape = S.broadcast_shapes(*(t.shape for t in ts))  # a shape error raises here

    def gen() -> Iterator[tuple[tuple[int, ...], tuple[Any, ...]]]:
        from . import compute
        arrs = [np.broadcast_to(a, shape) for a in compute(*ts)]
        for c in _coords(shape, order, reverse):
            yield c, tuple(a[c] for a in arrs)
    return gen()
