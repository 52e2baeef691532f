"""NumPy's ``copyto``: values written into an existing array.

A tensor destination is written as ``dst[...] = value`` writes it: the
handle (and any view it is part of) is rebound to a new version whose value
is ``where(mask, src, dst)`` in ``dst``'s dtype, lazily; graphs built from
the old version keep it (DESIGN 4).  The checks NumPy makes from shapes and
dtypes (its casting rule, broadcasting ``src`` and ``where`` to ``dst``)
are made when the call is made, with NumPy's exception types.  An ndarray
destination is NumPy's own call, on the tensors' values (computed now): the
user's array is written, as they asked.

>>> import lazyten as lt
>>> d = lt.zeros(3)
>>> lt.copyto(d, lt.asarray([1.0, 2.0, 3.0]), where=[True, False, True])
>>> d.eval()
array([1., 0., 3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import functions as F
from .creation import asarray, copyto_source
from .graph.shapes import broadcasts_to
from .tensor import Tensor, run_now, snapshot, writes

__all__: list[str] = ["copyto"]

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def copyto(dst: Any, src: Any, casting: Any = "same_kind", where: Any = True) -> None:
    """Copy ``src`` into ``dst`` where ``where`` is true, ``src`` broadcast
    to ``dst``'s shape and cast by ``casting`` (``numpy.copyto``).

    A tensor ``dst`` is rebound, as by ``dst[...] = ...``: lazy.  An
    ndarray ``dst`` is written now by NumPy.
    """
    if not isinstance(casting, str):
        raise TypeError(f"copyto: casting must be str, not {type(casting).__name__}")
    if not isinstance(dst, Tensor):
        # (NumPy's TypeError for a dst that is no ndarray: a list, a scalar)
        run_now(np.copyto, dst, src, written=(0,), casting=casting, where=where)
        return
    # (read at the call, as NumPy's: the write is lazy)
    _copyto_tensor(dst, snapshot(src), casting, snapshot(where))


def _source(src: Any, dst: Tensor, casting: Any) -> Any:
    """``src`` as ``np.copyto`` writes it into ``dst``: a NumPy scalar of
    ``dst``'s dtype for a number (NumPy's own check, a Python number weak:
    its OverflowError, its TypeError), else a tensor cast to ``dst``'s dtype
    and fitted to its shape."""
    if not isinstance(src, Tensor) and np.ndim(src) == 0 and not isinstance(src, np.ndarray):
        buf = np.empty((), dst.dtype)
        np.copyto(buf, src, casting=casting)
        return buf[()]
    v = asarray(src)
    if not np.can_cast(v.dtype, dst.dtype, casting):
        raise TypeError(f"copyto: Cannot cast array data from {v.dtype!r} to {dst.dtype!r} "
                        f"according to the rule {casting!r}")
    return copyto_source(v, dst.shape, "copyto").astype(dst.dtype, copy=False)


@writes
def _copyto_tensor(dst: Tensor, src: Any, casting: Any, where: Any) -> None:
    if casting not in _CASTINGS:
        raise ValueError(f"copyto: casting must be one of {', '.join(map(repr, _CASTINGS))} "
                         f"(got {casting!r})")
    value = _source(src, dst, casting)
    if where is True:
        dst[...] = value
        return
    # (NumPy reads a Python sequence as bools, and casts an array "safe")
    mask = asarray(where) if isinstance(where, (np.ndarray, np.generic, Tensor)) \
        else asarray(np.asarray(where, dtype=np.bool_))
    if not np.can_cast(mask.dtype, np.bool_, "safe"):
        raise TypeError(f"copyto: Cannot cast array data from {mask.dtype!r} to "
                        f"dtype('bool') according to the rule 'safe' (the where mask)")
    mask = mask.astype(np.bool_, copy=False)
    # (unlike ``src``, NumPy drops no leading unit axes of the mask)
    if not broadcasts_to(mask.shape, dst.shape):
        raise ValueError(f"copyto: could not broadcast where mask from shape {mask.shape} "
                         f"into shape {dst.shape}")
    dst[...] = F.where(mask, value, dst)
