"""NumPy's ``packbits`` and ``unpackbits``, lazily: the result's shape
follows from the input's shape (and ``count``), so each is a composition of
core ops that fuse with what feeds them.

- ``packbits``: ``a != 0`` (NumPy packs truth values), zero bits appended
  to a multiple of 8 along the axis, grouped by 8, and each group's bits
  times their place values (128 ... 1 for ``'big'``, 1 ... 128 for
  ``'little'``) summed in uint8 (at most 255: no wrap).
- ``unpackbits``: each byte shifted right by 7 ... 0 (or 0 ... 7) and
  masked with 1, in uint8, the 8 bits laid out along the axis; ``count``
  keeps the first ``count`` bits, or appends zeros, or drops ``-count``.

Both work on the axis moved last and move it back: the result is a view
of that layout (NumPy's is C-contiguous; the values are the same).

>>> import lazyten as lt
>>> lt.packbits(lt.asarray([1, 0, 1, 1])).eval()
array([176], dtype=uint8)
>>> lt.unpackbits(lt.asarray([176], dtype=lt.uint8), count=4).eval()
array([1, 0, 1, 1], dtype=uint8)
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import functions as F
from .compile import refuse_call_axis
from .creation import zeros
from .tensor import Tensor, wrap

__all__: list[str] = ["packbits", "unpackbits"]

_BIG = np.array([128, 64, 32, 16, 8, 4, 2, 1], np.uint8)
_BIG_SHIFTS = np.array([7, 6, 5, 4, 3, 2, 1, 0], np.uint8)


def _bitorder(bitorder: Any, prefix: int) -> bool:
    """Whether ``bitorder`` says big-endian bits, read as NumPy's C parser
    reads it: its first ``prefix`` characters (packbits compares "little"
    and "big" whole, unpackbits only 'l' or 'b': ``'bigx'`` is big to both),
    NumPy's TypeError for a non-string and ValueError for neither."""
    if not isinstance(bitorder, str):
        raise TypeError(f"'order' must be a string, not {type(bitorder).__name__}")
    for word, big in (("big", True), ("little", False)):
        if bitorder[:prefix or len(word)] == word[:prefix or len(word)]:
            return big
    raise ValueError("'order' must be either 'little' or 'big'")


def _axis_last(t: Tensor, axis: Any) -> tuple[Tensor, int]:
    """``t`` with the packing axis last, and where it goes back: NumPy
    flattens for ``axis=None`` and reads a 0-d array as 1-d."""
    if axis is None:
        return t.reshape(-1), 0
    if t.ndim == 0:
        t = t.reshape(1)
    ax = normalize_axis_index(operator.index(axis), t.ndim)
    return F.moveaxis(t, ax, -1), ax


def packbits(a: Any, /, axis: int | None = None, bitorder: str = "big") -> Tensor:
    """The truth values of ``a`` packed into uint8 bytes along ``axis``
    (flattened when None), zero bits padding the last byte
    (``numpy.packbits``).  Lazy.

    >>> import lazyten as lt
    >>> lt.packbits(lt.asarray([[1, 1], [0, 1]]), axis=0).eval()
    array([[128, 192]], dtype=uint8)
    """
    t = wrap(a)
    if t.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    big = _bitorder(bitorder, 0)
    t, ax = _axis_last(t, axis)
    refuse_call_axis(t, -1, "lt.packbits")   # (its padding is the length's)
    lead, n = t.shape[:-1], t.shape[-1]
    k = -(-n // 8)
    bits = t != 0
    if k * 8 != n:
        bits = F.concat((bits, zeros(lead + (k * 8 - n,), np.bool_)), axis=-1)
    place = _BIG if big else _BIG[::-1].copy()
    packed = F.sum(bits.reshape(lead + (k, 8)) * place, axis=-1, dtype=np.uint8)
    return F.moveaxis(packed, -1, ax)


def unpackbits(a: Any, /, axis: int | None = None, count: int | None = None,
               bitorder: str = "big") -> Tensor:
    """The bits of the uint8 ``a`` along ``axis`` (flattened when None), as
    uint8 0s and 1s; ``count`` bits kept (zeros appended past the end; a
    negative ``count`` drops that many) (``numpy.unpackbits``).  Lazy.

    >>> import lazyten as lt
    >>> lt.unpackbits(lt.asarray([3], dtype=lt.uint8), bitorder="little").eval()
    array([1, 1, 0, 0, 0, 0, 0, 0], dtype=uint8)
    """
    t = wrap(a)
    if t.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    big = _bitorder(bitorder, 1)
    t, ax = _axis_last(t, axis)
    lead, total = t.shape[:-1], t.shape[-1] * 8
    shifts = _BIG_SHIFTS if big else _BIG_SHIFTS[::-1].copy()
    bits = ((t[..., None] >> shifts) & 1).reshape(lead + (total,))
    if count is not None:
        refuse_call_axis(t, -1, "lt.unpackbits (with a count)")
        keep = operator.index(count)
        if keep < 0:
            if -keep > total:
                raise ValueError("-count larger than number of elements")
            keep += total
        if keep <= total:
            bits = bits[..., :keep]
        else:
            bits = F.concat((bits, zeros(lead + (keep - total,), np.uint8)), axis=-1)
    return F.moveaxis(bits, -1, ax)
