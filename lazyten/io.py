"""Reading and writing tensors: ``.npy``/``.npz`` and CSV.

Saving forces the tensor; loading returns a lazy tensor over the loaded array
(a graph input like ``lt.asarray``).  Files are paths or file objects, as for
``np.save``/``np.load``.  Pickles are refused on load unless
``allow_pickle=True`` (NumPy's default: a ``.npy`` file from elsewhere cannot
run code), and lazyten has no object dtype, so an object array is refused even
then.

>>> import os, tempfile, lazyten as lt
>>> path = os.path.join(tempfile.mkdtemp(), "x.npy")
>>> lt.save(path, lt.arange(3.0) * 2)
>>> lt.load(path).eval()
array([0., 2., 4.])
"""

from __future__ import annotations

import os
from typing import IO, Any, Literal

import numpy as np

from .creation import asarray
from .memory import known_value
from .tensor import Tensor

__all__ = ["save", "load", "savez", "savez_compressed", "save_csv", "load_csv", "savetxt",
           "loadtxt"]

PathLike = str | os.PathLike[str]
FileLike = PathLike | IO[bytes]           # what np.save and np.load take

MmapMode = Literal["r", "c", "r+", "w+"]   # np.load's (its other spellings fail there)
# The modes that map a file for writing ('w+' truncates it first).
_WRITE_MODES = ("r+", "w+")


def _value(t: Any) -> np.ndarray[Any, Any]:
    """What a file gets for ``t``: the array it is (a user's array or a view
    of one, a value computed already: NumPy writes it as it is laid out, a
    broadcast in C order) without a copy, else its computed value."""
    _refuse_unsaveable(t, "save")
    if not isinstance(t, Tensor):
        return np.asarray(t)
    v = known_value(t)
    return t.eval() if v is None else v


def _refuse_unsaveable(t: Any, what: str) -> None:
    """NumPy's refusal of what a ``.npy`` file cannot hold, and lazyten's of
    what ``np.asarray`` would flatten silently: a masked tensor's mask and a
    sparse matrix's structure would be lost."""
    from .ma import MaskedTensor
    from .sparse import SparseMatrix
    if isinstance(t, (MaskedTensor, np.ma.MaskedArray)):
        raise NotImplementedError(f"{what}: a masked array's mask cannot be saved in a .npy "
                                  f"file (NumPy: MaskedArray.tofile() not implemented); save "
                                  f"m.filled() or m.data and m.mask separately")
    if isinstance(t, SparseMatrix):
        raise TypeError(f"{what}: a sparse matrix is not an array: save s.to_dense() or "
                        f"use scipy.sparse.save_npz")


def save(file: FileLike, arr: Any, allow_pickle: bool = True) -> None:
    """Write one tensor to a ``.npy`` file, a path (NumPy appends ``.npy`` if
    missing) or a binary file object (written at its position).  A tensor
    holds numbers only, so no pickle is ever written (``allow_pickle`` is
    NumPy's, accepted)."""
    np.save(file, _value(arr), allow_pickle=False)


def savez(file: FileLike, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """Write several tensors to an uncompressed ``.npz`` (``arr_0``, ... or by name).
    All are computed in one plan (``allow_pickle`` as in ``save``)."""
    _savez(np.savez, file, args, kwds)


def savez_compressed(file: FileLike, *args: Any, allow_pickle: bool = True,
                     **kwds: Any) -> None:
    """Like ``savez``, compressed."""
    _savez(np.savez_compressed, file, args, kwds)


def _savez(fn: Any, file: FileLike, args: tuple[Any, ...], kwds: dict[str, Any]) -> None:
    from . import compute
    items = list(args) + list(kwds.values())
    for x in items:
        _refuse_unsaveable(x, fn.__name__)
    # (what is an array already, a view of a user's array: written as it is)
    vals: list[Any] = [known_value(x) if isinstance(x, Tensor) else np.asarray(x)
                       for x in items]
    lazy = [i for i, v in enumerate(vals) if v is None]
    for i, v in zip(lazy, compute(*(items[i] for i in lazy))):
        vals[i] = v
    pos = vals[:len(args)]
    named = dict(zip(kwds, vals[len(args):]))
    fn(file, *pos, allow_pickle=False, **named)


def load(file: FileLike, mmap_mode: MmapMode | None = None, allow_pickle: bool = False,
         **kwargs: Any) -> Tensor | dict[str, Tensor]:
    """Read a ``.npy`` file as a Tensor, or a ``.npz`` file as ``{name: Tensor}``
    (``np.load``).

    ``file``: a path or a binary file object; a file object is read from its
    position and left open there, so arrays saved one after another into one
    file read back one call each.  ``kwargs`` go to ``np.load``
    (``max_header_size``, ...).

    ``mmap_mode='r'`` (or ``'c'``) maps a ``.npy`` file instead of reading it:
    the tensor's graph input is the mapped array, read when the tensor is
    evaluated, as ``lt.asarray``'s array is (so the file must not change
    while the tensor is in use).  lazyten never writes it, so ``'c'`` (copy on
    write) reads the same as ``'r'``.  ``'r+'`` and ``'w+'`` are refused: in
    NumPy they map the file so that writes to the array reach it, but
    ``t[i] = v`` makes a new version of a lazyten tensor and never writes its
    input, so those writes would be lost silently (and ``'w+'`` truncates the
    file).  As in ``np.load``, ``.npz`` files ignore ``mmap_mode`` and a file
    object cannot be mapped.

    Pickles are refused by default: ``ValueError``, as ``np.load`` raises with
    ``allow_pickle=False``.  With ``allow_pickle=True`` a pickled numeric
    array loads; an object array still cannot be a tensor (``TypeError``).

    >>> import io, lazyten as lt
    >>> f = io.BytesIO()
    >>> lt.save(f, lt.arange(3))
    >>> _ = f.seek(0)
    >>> lt.load(f).eval()
    array([0, 1, 2])
    """
    if mmap_mode in _WRITE_MODES:
        raise ValueError(
            f"lt.load: mmap_mode={mmap_mode!r} maps the file for writing, but lazyten "
            f"never writes a loaded array in place (t[i] = v makes a new version of t), "
            f"so writes could not reach the file; use mmap_mode='r', or write through "
            f"np.load(file, mmap_mode='r+') and read that array with lt.asarray")
    loaded = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, **kwargs)
    if isinstance(loaded, np.lib.npyio.NpzFile):
        # Every member is read now, so the archive can be closed (a file
        # object the caller passed stays open: NpzFile closes only its own).
        with loaded:
            return {k: _loaded(loaded[k]) for k in loaded.files}
    return _loaded(loaded)


def _loaded(value: Any) -> Tensor:
    # A memory map stays the graph input (not read into memory): lazyten never
    # writes its inputs, and asarray takes an ndarray without copying.
    if not isinstance(value, np.ndarray):
        # (only a pickle, with allow_pickle=True, holds something else)
        raise TypeError(f"lt.load: the file holds a pickled {type(value).__name__}, not "
                        f"an array; read it with pickle.load")
    return asarray(value)


def save_csv(path: PathLike, t: Any, delimiter: str = ",") -> None:
    """Write a 1-d (one value per line) or 2-d tensor as delimited text.

    Floats are written with 19 significant digits, so float64 values survive
    a round trip exactly; integers and bools as integers.  The text holds no
    shape: read it back with ``load_csv(path, ndmin=t.ndim)`` (a 2-d tensor
    with no elements writes no values, and comes back ``(0, 1)``).
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
    """Read numeric delimited text (``save_csv``'s, or any) as a Tensor.

    The shape is ``numpy.loadtxt``'s, which squeezes: a file of one row or one
    column comes back 1-d and a file of one value 0-d, unless ``ndmin``
    (0, 1 or 2) asks for at least that many dimensions.  So what ``save_csv``
    wrote comes back with its shape only with ``ndmin`` set to its ``ndim``
    (a 2-d tensor with no elements excepted: its text holds no values).

    >>> import os, tempfile, lazyten as lt
    >>> path = os.path.join(tempfile.mkdtemp(), "row.csv")
    >>> lt.save_csv(path, lt.ones((1, 3), dtype=int))
    >>> lt.load_csv(path, dtype=int).shape, lt.load_csv(path, dtype=int, ndmin=2).shape
    ((3,), (1, 3))
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
    tensors: a structured dtype unpacked is NumPy's list of its fields,
    each a tensor of the field's dtype."""
    out = np.loadtxt(fname, *args, **kwargs)
    if isinstance(out, (tuple, list)):
        return type(out)(asarray(a) for a in out)
    return asarray(out)
