"""TensorFlow's ``select`` (``tf.where`` in TF1, ``tf.compat.v1.where``), as
``lt.tfcompat.select``: ``lt.select`` is NumPy's ``select`` (lists of
conditions and choices), which a user swapping ``np`` for ``lt`` calls.

>>> import lazyten as lt
>>> x, y = lt.asarray([[1, 2], [3, 4]]), lt.asarray([[10, 20], [30, 40]])
>>> lt.tfcompat.select(lt.asarray([True, False]), x, y).eval()   # whole rows
array([[ 1,  2],
       [30, 40]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import functions as F
from .tensor import Tensor, wrap

__all__ = ["select"]


def select(condition: Any, x: Any, y: Any) -> Tensor:
    """Elements of ``x`` where ``condition`` is true, else of ``y``.

    ``x`` and ``y`` have the same shape.  ``condition`` is boolean and either
    has that shape too (elementwise), or is a scalar (all of ``x`` or all of
    ``y``), or is a vector whose length is ``x.shape[0]``: then it picks whole
    rows (it is reshaped to ``(n, 1, ..., 1)`` and broadcast).  Any other shape
    is an error, as in TensorFlow (no general broadcasting: use ``lt.where``).
    """
    c, tx, ty = wrap(condition), wrap(x), wrap(y)
    if tx.shape != ty.shape:
        raise ValueError(f"select: x and y must have the same shape, got {tx.shape} and "
                         f"{ty.shape}")
    if c.dtype != np.bool_:
        raise TypeError(f"select: condition must be boolean, got {c.dtype}")
    if c.shape == tx.shape or c.ndim == 0:
        return F.where(c, tx, ty)
    if c.ndim == 1 and tx.ndim >= 1 and c.shape[0] == tx.shape[0]:
        return F.where(c.reshape((c.shape[0],) + (1,) * (tx.ndim - 1)), tx, ty)
    raise ValueError(f"select: condition of shape {c.shape} must be a scalar, have x's shape "
                     f"{tx.shape}, or be a vector of length x.shape[0]"
                     f"{'' if not tx.shape else f' = {tx.shape[0]}'}")
