"""Reading and writing tensors: ``.npy``/``.npz`` (never pickles) and CSV.

Saving forces the tensor; loading returns a lazy tensor over the loaded array
(a graph input like ``lt.asarray``).  Pickled object arrays are refused on
load (``allow_pickle=False`` always): a ``.npy`` file from elsewhere cannot run
code.

>>> import os, tempfile, lazyten as lt
>>> path = os.path.join(tempfile.mkdtemp(), "x.npy")
>>> lt.save(path, lt.arange(3.0) * 2)
>>> lt.load(path).eval()
array([0., 2., 4.])
"""

from __future__ import annotations

import os
from typing import Any, Literal

import numpy as np

from .creation import asarray
from .tensor import Tensor

__all__ = ["save", "load", "savez", "savez_compressed", "save_csv", "load_csv", "savetxt",
           "loadtxt"]

PathLike = str | os.PathLike[str]


def _value(t: Any) -> np.ndarray[Any, Any]:
    return t.eval() if isinstance(t, Tensor) else np.asarray(t)


def save(path: PathLike, t: Any) -> None:
    """Write one tensor to a ``.npy`` file (NumPy appends ``.npy`` if missing)."""
    np.save(path, _value(t), allow_pickle=False)


def savez(path: PathLike, *args: Any, **kwds: Any) -> None:
    """Write several tensors to an uncompressed ``.npz`` (``arr_0``, ... or by name).
    All are computed in one plan."""
    _savez(np.savez, path, args, kwds)


def savez_compressed(path: PathLike, *args: Any, **kwds: Any) -> None:
    """Like ``savez``, compressed."""
    _savez(np.savez_compressed, path, args, kwds)


def _savez(fn: Any, path: PathLike, args: tuple[Any, ...], kwds: dict[str, Any]) -> None:
    from . import compute
    items = list(args) + list(kwds.values())
    lazy = [i for i, x in enumerate(items) if isinstance(x, Tensor)]
    vals: list[Any] = [np.asarray(x) if not isinstance(x, Tensor) else None for x in items]
    for i, v in zip(lazy, compute(*(items[i] for i in lazy))):
        vals[i] = v
    pos = vals[:len(args)]
    named = dict(zip(kwds, vals[len(args):]))
    fn(path, *pos, allow_pickle=False, **named)


def load(path: PathLike) -> Tensor | dict[str, Tensor]:
    """Read a ``.npy`` file as a Tensor, or a ``.npz`` file as ``{name: Tensor}``.

    Object (pickled) arrays are refused: ``ValueError``, as NumPy raises with
    ``allow_pickle=False``.
    """
    with open(path, "rb") as f:
        loaded = np.load(f, allow_pickle=False)
        if isinstance(loaded, np.lib.npyio.NpzFile):
            with loaded:
                return {k: asarray(loaded[k]) for k in loaded.files}
    return asarray(loaded)


def save_csv(path: PathLike, t: Any, delimiter: str = ",") -> None:
    """Write a 1-d (one value per line) or 2-d tensor as delimited text.

    Floats are written with 19 significant digits, so float64 values survive
    a round trip exactly; integers and bools as integers.
    """
    arr = _value(t)
    if arr.ndim not in (1, 2):
        raise ValueError(f"save_csv: CSV holds 1-d or 2-d data, got shape {arr.shape}")
    if arr.dtype.kind == "c":
        raise TypeError("save_csv: complex values have no CSV form; save real and imag "
                        "parts, or use lt.save (.npy)")
    if arr.dtype.kind in "biu":
        np.savetxt(path, arr.astype(np.int64) if arr.dtype.kind == "b" else arr, fmt="%d",
                   delimiter=delimiter)
    else:
        np.savetxt(path, arr, fmt="%.18e", delimiter=delimiter)


def load_csv(path: PathLike, dtype: Any = np.float64, delimiter: str = ",",
             ndmin: int = 0) -> Tensor:
    """Read delimited text written by ``save_csv`` (or any numeric CSV) as a Tensor.

    A single column comes back 1-d, as ``numpy.loadtxt`` does; ``ndmin=2``
    keeps a one-row or one-column file 2-d.
    """
    if ndmin not in (0, 1, 2):
        raise ValueError(f"load_csv: ndmin must be 0, 1 or 2, got {ndmin}")
    nd: Literal[0, 1, 2] = 2 if ndmin == 2 else (1 if ndmin == 1 else 0)
    return asarray(np.loadtxt(path, dtype=np.dtype(dtype), delimiter=delimiter, ndmin=nd))


def savetxt(fname: Any, X: Any, *args: Any, **kwargs: Any) -> None:
    """NumPy's ``savetxt`` of a tensor's value (evaluated), with all of its
    options (``fmt``, ``delimiter``, ``header``, ...)."""
    np.savetxt(fname, _value(X), *args, **kwargs)


def loadtxt(fname: Any, *args: Any, **kwargs: Any) -> Any:
    """NumPy's ``loadtxt``, its array (or arrays, with ``unpack=True``) as
    tensors."""
    out = np.loadtxt(fname, *args, **kwargs)
    if isinstance(out, tuple):
        return tuple(asarray(a) for a in out)
    return asarray(out)
