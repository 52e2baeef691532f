"""NumPy's array-manipulation and index functions beyond the core ones
(``functions.py``): each a composition of registry ops where that gives
NumPy's values, dtypes and bits, or one registry op running NumPy's own
function where it does not.

How each is built, and why:

- Views, as NumPy's are views: ``rot90``, ``fliplr``, ``flipud``, ``ravel``
  (where NumPy's is), ``hsplit``, ``vsplit``, ``dsplit``, ``ix_``, ``diag``
  of a matrix (a read-only diagonal).
- Joins of views (``concat``, which the optimizer pushes slices through
  and fuses into): ``append``, ``block``, ``pad`` in mode constant (and
  empty: zeros).  ``resize`` is a broadcast, a slice and a reshape.
- Data movement by a static position map along one axis (``_gather``): runs
  of consecutive, reversed or repeated positions become slices and
  broadcasts joined by ``concat``; a ``take`` where the map has many runs.
  ``insert``, ``delete`` (NumPy's own function on ``arange(n)`` gives the
  map, and its errors), ``roll``, ``pad`` in modes edge, wrap, and
  reflect/symmetric with the default even ``reflect_type`` (``np.pad`` of
  ``arange(n)``: its iterative reflections of wide pads included),
  ``compress`` and ``extract`` (their condition is evaluated: it decides
  the size).
- Elementwise and other compositions: ``tri``, ``diag`` of a vector,
  ``diagflat`` (a ``where`` on a lazy ``eye``), ``kron`` (NumPy's
  broadcast product), ``vander`` (a ``cumulative_prod``, as NumPy's
  ``multiply.accumulate``), ``indices``, ``diag_indices``, ``lexsort``
  (stable ``argsort`` of each key, least significant first: a stable
  order is unique), ``sort_complex``.
- Writes (in place in NumPy; here functional writes to the tensor handle,
  as ``t[...] = v``): ``fill_diagonal``, ``place``, ``putmask`` (a lazy
  ``where``: its mask is not evaluated), ``put_along_axis``.
- Registry ops running NumPy's function: ``partition`` and
  ``argpartition`` (the order of the other elements is introselect's),
  ``choose`` (NumPy's bounds check, a ``ValueError`` when it runs), ``pad``
  in the modes no position map gives (``linear_ramp``, ``maximum``,
  ``minimum``, ``mean``, ``median``, ``reflect_type="odd"``, a function),
  ``ravel_multi_index`` and ``unravel_index`` of lazy indices (NumPy's
  bounds checks when they run; concrete indices are computed at once, so
  their errors come from the line that built them).
- Shape queries: ``ndim``, ``shape``, ``size``; ``tril_indices`` and
  ``triu_indices`` (and their ``*_from`` forms) are computed from their
  integer arguments, as constants.
"""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import functions as F
from .compile import call_sized, refuse_call_axis
from .creation import arange, asarray, eye, full_along, ones, ones_like, zeros
from .graph import ops
from .graph import shapes as S
from .graph.layout import layout_known
from .graph.node import Node, Shape
from .indexing import _assigned, check_write_bounds
from .indexing import put as _put
from .sorting import _values, argsort, sort, take_along_axis
from .tensor import (Tensor, check_order, numpy_out, numpy_writes, settle_layout, snapshot, wrap,
                     writes)

__all__: list[str] = [
    "append", "insert", "delete", "roll", "rot90", "fliplr", "flipud", "pad", "resize",
    "block", "tri", "tril_indices", "triu_indices", "tril_indices_from", "mask_indices",
    "triu_indices_from", "diag", "diagflat", "diag_indices", "diag_indices_from",
    "fill_diagonal", "kron", "vander", "indices", "ix_", "ravel", "ravel_multi_index",
    "unravel_index", "hsplit", "vsplit", "dsplit", "choose", "compress", "extract",
    "place", "putmask", "put_along_axis", "ndim", "shape", "size", "partition",
    "argpartition", "lexsort", "sort_complex", "trim_zeros",
]


# ------------------------------------------------------------------ registry ops

def _partition_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                     ) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    ax = S.normalize_axis(attrs["axis"], x.ndim)
    # NumPy checks no kth of an empty array (median of an empty lane passes
    # [-1, 0, -1]).
    return x.shape, {"kth": _kth(attrs["kth"], x.shape[ax], bool(x.size)), "axis": ax}


def _kth(kth: Any, n: int, check: bool = True) -> int | tuple[int, ...]:
    """``kth`` checked as NumPy checks it for an axis of length ``n``: an
    integer or a 1-d sequence of them, each in ``[-n, n)`` (if ``check``)."""
    k = np.asarray(kth)
    if k.dtype == np.bool_:
        raise ValueError("Booleans unacceptable as partition index")
    if k.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if k.ndim > 1:
        raise ValueError("object too deep for desired array")
    for v in k.reshape(-1).tolist() if check else ():
        if not -n <= v < n:
            raise ValueError(f"kth(={v + n if v < 0 else v}) out of bounds ({n})")
    return int(k) if k.ndim == 0 else tuple(k.tolist())


def _partition_impl(x: Any, kth: Any, axis: int) -> Any:
    return np.partition(x, kth, axis=axis)


def _argpartition_impl(x: Any, kth: Any, axis: int) -> Any:
    return np.argpartition(x, kth, axis=axis)


def _same_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return inputs[0].dtype


def _intp(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return np.dtype(np.intp)


def _clipmode(mode: Any) -> str:
    """A clip mode as NumPy reads one (a name as str or bytes, an int code
    0/1/2 for clip/wrap/raise, None for raise) by its name; NumPy's own
    errors for others (TypeError for ``True`` or ``1.0``, ValueError for
    an unknown name or code)."""
    # NumPy parses the mode before it looks at an index: an empty choice
    # checks it alone.
    np.choose(np.zeros(0, np.intp), [np.zeros(0)], mode=mode)
    try:
        # index -1 of two choices: clip gives choice 0, wrap choice 1.
        got = np.choose(np.array([-1]), [0, 1], mode=mode)
    except ValueError:                        # (out of range: mode raise)
        return "raise"
    return "clip" if got[0] == 0 else "wrap"


def _choose_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                  ) -> tuple[Shape, dict[str, Any]]:
    attrs = {**attrs, "mode": _clipmode(attrs["mode"])}
    if not np.can_cast(inputs[0].dtype, np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {inputs[0].dtype!r} to "
                        f"{np.dtype(np.intp)!r} according to the rule 'safe'")
    return S.broadcast_shapes(*(n.shape for n in inputs)), attrs


def _choose_impl(a: Any, *choices: Any, mode: Any) -> Any:
    return np.asarray(np.choose(a, choices, mode=mode))


def _pad_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    widths = attrs["pad_width"]
    if not callable(attrs["mode"]):   # (a user's function is called only when the op runs)
        # NumPy's checks (keywords, stat_length of 0, empty axes) on a small
        # stand-in: each axis empty or not as x's, each width zero or not.
        probe = np.zeros(tuple(min(d, 1) for d in x.shape), x.dtype)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.pad(probe, _width_array([(min(b, 1), min(a, 1)) for b, a in widths]),
                   attrs["mode"], **dict(attrs["kwargs"]))
    return tuple(d + b + a for d, (b, a) in zip(x.shape, widths)), attrs


def _width_array(widths: Sequence[tuple[int, int]]) -> Any:
    """Pad widths as ``np.pad`` takes them.  A 0-d array has none: NumPy
    refuses an empty list (a float64 array: not integral) and an empty
    integer array (it takes its minimum), so one width, 0, for every axis
    of none."""
    return [tuple(w) for w in widths] if widths else 0


def _pad_impl(x: Any, pad_width: Any, mode: Any, kwargs: Any) -> Any:
    return np.pad(x, _width_array(pad_width), mode, **dict(kwargs))


def _index_arrays_check(inputs: Sequence[Node], call: Callable[..., Any]) -> None:
    """NumPy's checks of index dtypes, dims, mode and order: ``call`` on
    empty arrays of the inputs' dtypes (no value to be out of bounds), a 0-d
    zero for a 0-d input (NumPy takes no 1-d one for an empty shape)."""
    call(*(np.zeros((0,) if n.ndim else (), n.dtype) for n in inputs))


def _ravel_multi_index_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                             ) -> tuple[Shape, dict[str, Any]]:
    dims = attrs["dims"]
    if len(inputs) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    _index_arrays_check(inputs, lambda *a: np.ravel_multi_index(
        a, dims, mode=attrs["mode"], order=attrs["order"]))
    return S.broadcast_shapes(*(n.shape for n in inputs)), attrs


def _ravel_multi_index_impl(*idx: Any, dims: Any, mode: Any, order: Any) -> Any:
    return np.asarray(np.ravel_multi_index(idx, dims, mode=mode, order=order))


def _unravel_index_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                         ) -> tuple[Shape, dict[str, Any]]:
    _index_arrays_check(inputs, lambda a: np.unravel_index(a, attrs["shape"],
                                                           order=attrs["order"]))
    return (len(attrs["shape"]),) + inputs[0].shape, attrs


def _unravel_index_impl(idx: Any, shape: Any, order: Any) -> Any:
    return np.stack(np.unravel_index(idx, shape, order=order))


# "join": NumPy's function runs whole; no pass looks inside such an op.
ops.register(ops.OpSpec("partition", "join", _partition_impl, _partition_infer, _same_dtype,
                        1, doc="np.partition along attrs['axis'] at attrs['kth']"))
ops.register(ops.OpSpec("argpartition", "join", _argpartition_impl, _partition_infer, _intp,
                        1, doc="np.argpartition: the indices that partition along an axis"))
# dtype None: probed, so np.choose itself checks the index dtype on this line.
ops.register(ops.OpSpec("choose", "join", _choose_impl, _choose_infer, None, None,
                        doc="np.choose: input 0 picks among inputs 1... (one dtype), "
                            "broadcast together"))
ops.register(ops.OpSpec("pad", "join", _pad_impl, _pad_infer, _same_dtype, 1,
                        doc="np.pad in modes no composition gives (linear_ramp, "
                            "statistics, odd reflections, a function)"))
ops.register(ops.OpSpec("ravel_multi_index", "linalg", _ravel_multi_index_impl,
                        _ravel_multi_index_infer, _intp, None,
                        doc="np.ravel_multi_index of the index arrays (inputs)"))
ops.register(ops.OpSpec("unravel_index", "linalg", _unravel_index_impl,
                        _unravel_index_infer, _intp, 1,
                        doc="np.unravel_index, its arrays stacked along a new first axis"))


def _op(name: str, operands: Sequence[Any], **attrs: Any) -> Tensor:
    return Tensor(ops.apply(name, [wrap(x)._node for x in operands], **attrs))


# ------------------------------------------------------------------ helpers

def _copy(t: Tensor) -> Tensor:
    """``t``'s value as a new array (NumPy returns a copy): a handle of its
    own, so a write to it never reaches what ``t`` views."""
    return Tensor(t._node)


def _new_as_numpys(t: Tensor, order: str, like: Tensor | None = None) -> Tensor:
    """``t``'s value as the new array NumPy's function makes and fills
    (``np.empty(shape, like.dtype, order=arrorder)``: "C", or "A" or "K" of
    ``like``), laid out so (``memory.filled_array``): a float sum of it adds
    in that order, and ``ravel("K")`` reads it so; in ``like``'s dtype, a
    big-endian one kept."""
    from .memory import filled_array
    return filled_array(t, order, like, None if like is None else like.dtype)


def _along(t: Tensor, axis: int, item: Any) -> Tensor:
    """``t[..., item, ...]`` with ``item`` on ``axis``."""
    return t[(slice(None),) * axis + (item,)]


def _fit(v: Tensor, target: Shape, advanced: bool = False) -> Tensor:
    """``v`` as an assignment broadcasts it into ``target``: extra leading
    unit axes dropped, then broadcast (NumPy's ValueError otherwise).

    ``advanced``: as an assignment through an index array, which reshapes
    ``v`` to its trailing ``len(target)`` axes (numpy/_core/src/multiarray/
    mapping.c): extra leading axes of any length go when those hold all
    of ``v``'s elements, so any empty ``v`` ending in an empty axis fits
    an empty ``target``."""
    tail = v.shape[v.ndim - len(target):]
    if advanced and v.ndim > len(target) and math.prod(tail) == v.size:
        v = v.reshape(tail)
    if not S.fits_assignment(v.shape, target):
        raise ValueError(f"could not broadcast input array from shape {v.shape} into "
                         f"shape {target}")
    if v.ndim > len(target):
        v = v.reshape(v.shape[v.ndim - len(target):])
    return v if v.shape == target else F.broadcast_to(v, target)


# More runs than this in a position map: one gather instead of many views.
_MAX_RUNS = 16


def _runs(perm: np.ndarray[Any, Any], part: np.ndarray[Any, Any]
          ) -> list[tuple[int, int, int]] | None:
    """``perm`` as runs ``(i, j, step)``: ``perm[i:j]`` steps by 1, -1 or 0
    within one part; None when there are more than ``_MAX_RUNS``."""
    n = perm.size
    d = np.diff(perm)
    same = part[1:] == part[:-1]
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < n:
        if len(out) == _MAX_RUNS:
            return None
        step = int(d[i]) if i < n - 1 and same[i] else 2
        if step not in (-1, 0, 1):
            out.append((i, i + 1, 1))
            i += 1
            continue
        brk = np.flatnonzero((d[i:] != step) | ~same[i:])
        j = i + 1 + (int(brk[0]) if brk.size else n - 1 - i)
        out.append((i, j, step))
        i = j
    return out


def _fixed_length(t: Tensor, axis: int) -> None:
    """Refuse a position map along a ``None`` dimension of a compiled
    function (see ``_gather``)."""
    refuse_call_axis(t, axis, f"the positions it moves along axis {axis}")


def _gather(parts: Sequence[Tensor], perm: np.ndarray[Any, Any], axis: int) -> Tensor:
    """The concatenation of ``parts`` along ``axis``, taken at the static
    positions ``perm`` (in range) along it.

    Runs of consecutive, reversed or repeated positions are views (a slice,
    a reversed slice, a broadcast of one slice) joined by ``concat``, so
    the optimizer pushes slices through and fuses into them:

        perm [2 1 0 1 2 3 2 1] of x (n=4)  =>  concat(x[2::-1], x[1:], x[2:0:-1])

    A map of more than ``_MAX_RUNS`` runs is one ``take`` instead.

    The map is made for the parts' lengths: along a ``None`` dimension of a
    compiled function, whose length each call decides (``roll``'s shift is
    taken modulo it, ``pad``'s reflections repeat by it), it would be the
    placeholder's stand-in size's: an error."""
    for part in parts:
        _fixed_length(part, axis)
    bounds = np.cumsum([p.shape[axis] for p in parts])
    which = np.searchsorted(bounds, perm, side="right")
    runs = _runs(perm, which)
    if runs is None:
        whole = parts[0] if len(parts) == 1 else F.concat(list(parts), axis=axis)
        return Tensor(ops.apply("take", [whole._node, wrap(perm.astype(np.intp))._node],
                                axis=axis))
    pieces: list[Tensor] = []
    for i, j, step in runs:
        p = int(which[i])
        t = parts[p]
        lo = int(perm[i]) - (int(bounds[p - 1]) if p else 0)
        count = j - i
        if step == 1 and lo == 0 and count == t.shape[axis]:
            pieces.append(t)
        elif step == 1 or count == 1:
            pieces.append(_along(t, axis, slice(lo, lo + count)))
        elif step == -1:
            stop = lo - count
            pieces.append(_along(t, axis, slice(lo, stop if stop >= 0 else None, -1)))
        else:                                   # one position, repeated
            one = _along(t, axis, slice(lo, lo + 1))
            pieces.append(F.broadcast_to(one, one.shape[:axis] + (count,)
                                         + one.shape[axis + 1:]))
    if not pieces:                              # nothing taken: an empty slice
        return _along(parts[0], axis, slice(0, 0))
    return pieces[0] if len(pieces) == 1 else F.concat(pieces, axis=axis)


def _flat_or_axis(t: Tensor, axis: int | None) -> tuple[Tensor, int]:
    """NumPy's ``axis=None``: the array flattened (a 1-d one as it is)."""
    if axis is None:
        return (t if t.ndim == 1 else t.reshape(-1)), 0
    return t, S.normalize_axis(axis, t.ndim)


def _axis_proxy(n: int, ndim: int, axis: int) -> np.ndarray[Any, Any]:
    """``arange(n)`` along ``axis`` of an ``ndim``-d array: NumPy's own
    ``insert``/``delete`` run on it give the position map, their errors
    naming the right axis."""
    return np.arange(n).reshape((1,) * axis + (n,) + (1,) * (ndim - axis - 1))


def _indices_from(obj: Any) -> np.ndarray[Any, Any]:
    """An index argument's values (a tensor is evaluated: they decide the
    result's shape)."""
    return _values(obj, "index") if isinstance(obj, Tensor) else np.asarray(obj)


def _written_values(values: Any, dtype: np.dtype[Any]) -> Tensor:
    """``values`` as ``place`` and ``putmask`` write them into an array of
    ``dtype``: arrays by the 'safe' casting rule (else NumPy's TypeError),
    Python scalars and lists as an assignment converts them."""
    if isinstance(values, (Tensor, np.ndarray)):
        v = wrap(values)
        if not np.can_cast(v.dtype, dtype, "safe"):
            raise TypeError(f"Cannot cast array data from {v.dtype!r} to {dtype!r} according "
                            f"to the rule 'safe'")
        return F.astype(v, dtype, copy=False)
    return asarray(np.asarray(values, dtype=dtype))


def _writable(a: Any, name: str) -> Tensor:
    if not isinstance(a, Tensor):
        raise TypeError(f"{name}: a must be a lazyten Tensor (NumPy writes it in place; "
                        f"here the tensor is rebound to the new value), got "
                        f"{type(a).__name__}")
    return a


# ------------------------------------------------------------------ joining and cutting

@ops.reports("append")
def append(arr: Any, values: Any, axis: int | None = None) -> Tensor:
    """``values`` after ``arr`` along ``axis`` (both flattened when None): a
    ``concat``, with NumPy's promotion of both as arrays (a Python int is
    an int64 array here, as in NumPy).

    >>> import lazyten as lt
    >>> lt.append(lt.asarray([1, 2]), [[3, 4]]).eval()
    array([1, 2, 3, 4])
    """
    t, v = wrap(arr), wrap(values)
    if axis is None:
        t, v = t.reshape(-1), v.reshape(-1)
        axis = 0
    return F.concat([t, v], axis=axis)


@ops.reports("insert")
def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> Tensor:
    """``values`` inserted before the positions ``obj`` (an int, a slice,
    integers or a boolean mask) along ``axis`` (flattened when None).

    As NumPy: one position puts all of ``values`` there (cast to ``arr``'s
    dtype, given ``arr``'s number of dimensions, for a scalar ``obj`` with
    its first axis moved to ``axis``); several put one slice each.  Built
    as views of ``arr`` and of ``values`` joined in NumPy's order
    (``_gather``).  A tensor ``obj`` is evaluated: it decides the shape.

    >>> import lazyten as lt
    >>> lt.insert(lt.asarray([1, 2, 3]), [0, 2], [8, 9]).eval()
    array([8, 1, 2, 9, 3])
    """
    a = wrap(arr)
    t, ax = _flat_or_axis(a, axis)
    n = t.shape[ax]
    if isinstance(obj, slice):
        idx = np.arange(*obj.indices(n), dtype=np.intp)
    else:
        idx = _indices_from(obj)
        if idx.dtype == np.bool_:
            if idx.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one "
                                 "dimensional")
            idx = np.flatnonzero(idx)
        elif idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional "
                             "or scalar")
    if idx.size == 1:
        pos = idx.item()
        if pos < -n or pos > n:
            raise IndexError(f"index {obj} is out of bounds for axis {ax} with size {n}")
        # NumPy converts the values before it slices at the position (300
        # into int8: its OverflowError before a float position's TypeError).
        v = _cast_block(values, t.dtype)
        v = v.reshape((1,) * (t.ndim - v.ndim) + v.shape)        # NumPy's ndmin
        if idx.ndim == 0:
            v = F.moveaxis(v, 0, ax)
        if not isinstance(pos, int):
            raise TypeError("slice indices must be integers or None or have an __index__ "
                            "method")
        pos += n if pos < 0 else 0
        if pos not in (0, n):               # (the start and the end: any length has them)
            _fixed_length(t, ax)
        v = _fit(v, t.shape[:ax] + (v.shape[ax],) + t.shape[ax + 1:])
        return _new_as_numpys(F.concat([_along(t, ax, slice(None, pos)), v,
                                        _along(t, ax, slice(pos, None))], axis=ax), "A", a)
    if idx.size == 0 and not isinstance(obj, (np.ndarray, Tensor)):
        idx = idx.astype(np.intp)
    k = idx.size
    # NumPy's insert of the new positions' numbers into the old ones': the
    # position map, and NumPy's own errors for the indices.
    perm = np.insert(_axis_proxy(n, t.ndim, ax), idx,
                     _axis_proxy(k, t.ndim, ax) + n, axis=ax).reshape(-1)
    # (NumPy writes them through an index array: ``new[..., idx, ...] = values``)
    v = _fit(Tensor(_assigned(t, values)), t.shape[:ax] + (k,) + t.shape[ax + 1:],
             advanced=True)
    return _new_as_numpys(_gather([t, F.astype(v, t.dtype, copy=False)], perm, ax), "A", a)


def _cast_block(values: Any, dtype: np.dtype[Any]) -> Tensor:
    """``np.array(values, dtype=dtype)``: NumPy's conversion (unsafe for
    arrays; an out-of-range Python int raises)."""
    if isinstance(values, Tensor):
        return F.astype(values, dtype, copy=False)
    return asarray(np.array(values, dtype=dtype))


@ops.reports("delete")
def delete(arr: Any, obj: Any, axis: int | None = None) -> Tensor:
    """``arr`` without the positions ``obj`` (an int, a slice, integers or a
    boolean mask of the axis's length) along ``axis`` (flattened when
    None): the kept runs as views joined by ``concat`` (``_gather``).  A
    tensor ``obj`` is evaluated: it decides the shape.

    >>> import lazyten as lt
    >>> lt.delete(lt.asarray([1, 2, 3, 4]), [0, 2]).eval()
    array([2, 4])
    """
    a = wrap(arr)
    t, ax = _flat_or_axis(a, axis)
    if isinstance(obj, Tensor):
        obj = _values(obj, "delete")
    # NumPy's own delete on the positions: its rules and errors.
    kept = np.delete(_axis_proxy(t.shape[ax], t.ndim, ax), obj, axis=ax).reshape(-1)
    if isinstance(obj, slice) or isinstance(obj, (int, np.integer)) and \
            not isinstance(obj, (bool, np.bool_)) or \
            np.size(obj) == 1 and np.asarray(obj).dtype.kind in "ui":
        # (NumPy fills a new array in "A" order with the kept blocks)
        return _new_as_numpys(_gather([t], kept, ax), "A", a)
    # (NumPy indexes with a mask of the kept positions: its advanced
    # indexing's layout, the indexed axis outermost)
    return _along(t, ax, kept)


@ops.reports("roll")
def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """Elements shifted by ``shift`` along ``axis`` (several: ``shift`` and
    ``axis`` broadcast, shifts of one axis added), those leaving one end
    coming back at the other; flattened when ``axis`` is None.  Two slices
    per axis, joined.

    >>> import lazyten as lt
    >>> lt.roll(lt.arange(5), 2).eval()
    array([3, 4, 0, 1, 2])
    """
    t = orig = wrap(a)
    if isinstance(shift, Tensor):
        shift = _values(shift, "roll")
    if axis is None:
        return _copy(roll(t.reshape(-1), shift, 0).reshape(t.shape))
    # (NumPy's normalize_axis_tuple: one axis or several, repeats allowed)
    axes = tuple(S.normalize_axis(x, t.ndim) for x in F._axis_list(axis))
    b = np.broadcast(shift, axes)
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(t.ndim), 0)
    for sh, ax in b:
        shifts[int(ax)] += int(sh)
    for ax, sh in shifts.items():
        n = t.shape[ax]
        if n and sh % n:
            t = _gather([t], (np.arange(n) - sh % n) % n, ax)
    # (NumPy's: ``np.empty_like(a)``, filled: "K" of ``a``, its dtype)
    return _new_as_numpys(t, "K", orig)


@ops.reports("resize")
def resize(a: Any, new_shape: Any) -> Tensor:
    """``a`` flattened, repeated as often as needed and cut to fill
    ``new_shape`` (zeros if either is empty), as ``np.resize``: a broadcast,
    a slice and a reshape.

    >>> import lazyten as lt
    >>> lt.resize(lt.asarray([1, 2, 3]), (2, 2)).eval()
    array([[1, 2],
           [3, 1]])
    """
    t = wrap(a).reshape(-1)
    dims = (new_shape,) if isinstance(new_shape, (int, np.integer)) else tuple(new_shape)
    total = 1
    for d in dims:
        total *= d
        if d < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    dims = tuple(operator.index(d) for d in dims)
    # (Its repetition count and its empty case are decided from the input's
    # size, here: at a None dimension's stand-in size for every call.)
    refuse_call_axis(t, None, "lt.resize")
    if t.size == 0 or total == 0:
        return zeros(dims, t.dtype)
    reps = -(-total // t.size)
    flat = F.broadcast_to(t[None, :], (reps, t.size)).reshape(-1)
    r = _copy(flat[:total].reshape(dims))
    # (NumPy's is its concatenate's, in the machine's byte order)
    if not t.dtype.isnative:
        from .memory import filled_array
        return filled_array(r, "C", dtype=t.dtype.newbyteorder("="))
    return r


@ops.reports("block")
def block(arrays: Any) -> Tensor:
    """An array assembled from nested lists of blocks (``np.block``): the
    innermost lists joined along the last axis, the next along the one
    before, ...; each block first given the result's number of dimensions
    (leading unit axes).  ``concat`` nodes, as NumPy's small-block path.

    >>> import lazyten as lt
    >>> lt.block([[lt.ones((1, 2)), 5], [lt.zeros((1, 3))]]).eval()
    array([[1., 1., 5.],
           [0., 0., 0.]])
    """
    bottom, arr_ndim = _block_depths(arrays, [])
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_block_index(bottom)} cannot be empty")
    list_ndim = len(bottom)
    return _copy(_block(arrays, list_ndim, max(arr_ndim, list_ndim), 0))


def _block_index(index: Sequence[int | None]) -> str:
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _block_depths(arrays: Any, index: list[int | None]) -> tuple[list[int | None], int]:
    """NumPy's ``_block_check_depths_match``: the index of the first
    innermost block (ending in None at an empty list) and the largest
    block's number of dimensions; lists of mismatched depths raise."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_block_index(index)} is a tuple. Only lists can be used to "
                        f"arrange blocks, and np.block does not allow implicit conversion "
                        f"from tuple to ndarray.")
    if not isinstance(arrays, list):
        return index, arrays.ndim if isinstance(arrays, Tensor) else np.ndim(arrays)
    if not arrays:
        return index + [None], 0
    first, nd = _block_depths(arrays[0], index + [0])
    for i, x in enumerate(arrays[1:], 1):
        sub, sub_nd = _block_depths(x, index + [i])
        nd = max(nd, sub_nd)
        if len(sub) != len(first):
            raise ValueError(f"List depths are mismatched. First element was at depth "
                             f"{len(first)}, but there is an element at depth {len(sub)} "
                             f"({_block_index(sub)})")
        if sub[-1] is None:
            first = sub
    return first, nd


def _block(arrays: Any, depth_left: int, nd: int, depth: int) -> Tensor:
    if depth < depth_left:
        return F.concat([_block(x, depth_left, nd, depth + 1) for x in arrays],
                        axis=-(depth_left - depth))
    t = wrap(arrays)
    return t.reshape((1,) * (nd - t.ndim) + t.shape)


def _split_check(x: Any, nd: int, name: str) -> Tensor:
    t = wrap(x)
    if t.ndim < nd:
        raise ValueError(f"{name} only works on arrays of {nd} or more dimensions")
    return t


@ops.reports("hsplit")
def hsplit(ary: Any, indices_or_sections: Any) -> list[Tensor]:
    """``split`` along axis 1 (axis 0 of a 1-d array): views."""
    t = _split_check(ary, 1, "hsplit")
    return F.split(t, indices_or_sections, axis=1 if t.ndim > 1 else 0)


@ops.reports("vsplit")
def vsplit(ary: Any, indices_or_sections: Any) -> list[Tensor]:
    """``split`` along axis 0 of an array of 2 or more dimensions: views."""
    return F.split(_split_check(ary, 2, "vsplit"), indices_or_sections, axis=0)


@ops.reports("dsplit")
def dsplit(ary: Any, indices_or_sections: Any) -> list[Tensor]:
    """``split`` along axis 2 of an array of 3 or more dimensions: views."""
    return F.split(_split_check(ary, 3, "dsplit"), indices_or_sections, axis=2)


# ------------------------------------------------------------------ padding

_PAD_KWARGS: dict[str, tuple[str, ...]] = {
    "empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
    "linear_ramp": ("end_values",), "maximum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


def _pairs(x: Any, nd: int, as_index: bool = False) -> list[tuple[Any, Any]]:
    """A pad argument as one (before, after) pair per axis, read as NumPy's
    ``_as_pairs`` reads it (numpy/lib/_arraypad_impl.py)."""
    a = np.array(x)
    if as_index:
        a = np.round(a).astype(np.intp, copy=False)
    if a.ndim < 3 and (a.size == 1 or (a.size == 2 and a.shape != (2, 1))):
        v = a.ravel()
        pair = (v[0], v[0]) if a.size == 1 else (v[0], v[1])
        if as_index and (pair[0] < 0 or pair[1] < 0):
            raise ValueError("index can't contain negative values")
        return [pair] * nd
    if as_index and a.min() < 0:
        raise ValueError("index can't contain negative values")
    return [(p[0], p[1]) for p in np.broadcast_to(a, (nd, 2)).tolist()]


def _frozen(v: Any) -> Any:
    """A keyword argument as a hashable node attribute (nested tuples; a
    tensor's values, computed now: NumPy's function reads them)."""
    if isinstance(v, Tensor):
        v = _values(v, "pad")
    if isinstance(v, (list, tuple, np.ndarray)):
        out = np.asarray(v).tolist()
        return tuple(_frozen(x) for x in out) if isinstance(out, list) else out
    return v


@ops.reports("pad")
def pad(array: Any, pad_width: Any, mode: str | Callable[..., Any] = "constant",
        **kwargs: Any) -> Tensor:
    """``array`` padded by ``pad_width`` (before, after) per axis, as
    ``np.pad``, axis after axis (a later axis's padding covers the corners).

    ``constant`` (and ``empty``, here zeros) joins ``full`` blocks of the
    cast ``constant_values``; ``edge``, ``wrap``, ``reflect`` and
    ``symmetric`` (``reflect_type="even"``) move data: ``np.pad`` of
    ``arange(n)`` gives each axis's position map (its repeated reflections
    of wide pads included), taken as views (``_gather``).  The other modes
    compute new values: one node running ``np.pad``.

    >>> import lazyten as lt
    >>> lt.pad(lt.asarray([1, 2, 3]), (2, 1), mode="reflect").eval()
    array([3, 2, 1, 2, 3, 2])
    """
    t = orig = wrap(array)
    if isinstance(pad_width, dict):
        seq: list[Any] = [(0, 0)] * t.ndim
        for ax, w in pad_width.items():
            seq[ax] = (w, w) if isinstance(w, int) else tuple(w)
        pad_width = seq
    if np.asarray(pad_width).dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    widths = [(int(b), int(a)) for b, a in _pairs(pad_width, t.ndim, as_index=True)]
    op_attrs = {"pad_width": tuple(widths), "mode": mode,
                "kwargs": tuple(sorted((k, _frozen(v)) for k, v in kwargs.items()))}
    if callable(mode):
        return _op("pad", [t], **op_attrs)
    if mode not in _PAD_KWARGS:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    even = mode in ("edge", "wrap") or (mode in ("reflect", "symmetric")
                                        and kwargs.get("reflect_type", "even") != "odd")
    if mode in ("constant", "empty"):
        fills = _pairs(kwargs.get("constant_values", 0), t.ndim)
        for ax, ((b, a), pair) in enumerate(zip(widths, fills)):
            # Each value as NumPy assigns it into the padded array (300 into
            # int8 raises, 1.7 into int8 is 1), for every axis as NumPy does.
            vals = [_assigned_scalar(v, t.dtype) for v in pair]
            if b or a:
                blocks = [full_along(t, ax, w, v, t.dtype) for w, v in zip((b, a), vals)]
                t = F.concat([blocks[0], t, blocks[1]], axis=ax)
        return _new_as_numpys(t, "A", orig)   # (NumPy's _pad_simple)
    if t.size == 0:
        for ax, (b, a) in enumerate(widths):
            if t.shape[ax] == 0 and (b or a):
                raise ValueError(f"can't extend empty axis {ax} using modes other than "
                                 f"'constant' or 'empty'")
        return zeros(tuple(d + b + a for d, (b, a) in zip(t.shape, widths)), t.dtype)
    if not even:
        return _op("pad", [t], **op_attrs)
    moved: Any = mode                       # (edge, wrap, reflect or symmetric)
    for ax, (b, a) in enumerate(widths):
        if b or a:
            t = _gather([t], np.pad(np.arange(t.shape[ax]), (b, a), moved), ax)
    return _new_as_numpys(t, "A", orig)


def _assigned_scalar(value: Any, dtype: np.dtype[Any]) -> Any:
    """``value`` as an assignment into an array of ``dtype`` converts it."""
    buf = np.empty((), dtype)
    buf[...] = value
    return buf[()]


# ------------------------------------------------------------------ rotations and flips

@ops.reports("rot90")
def rot90(m: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> Tensor:
    """``m`` rotated by 90 degrees ``k`` times in the plane ``axes``, from
    the first axis towards the second: flips and a transpose, views as
    NumPy's.

    >>> import lazyten as lt
    >>> lt.rot90(lt.asarray([[1, 2], [3, 4]])).eval()
    array([[2, 4],
           [1, 3]])
    """
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    t = wrap(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == t.ndim:
        raise ValueError("Axes must be different.")
    if not all(-t.ndim <= x < t.ndim for x in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={t.ndim}.")
    k %= 4
    if k == 0:
        return t[...]
    if k == 2:
        return F.flip(F.flip(t, axes[0]), axes[1])
    perm = list(range(t.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return F.transpose(F.flip(t, axes[1]), perm)
    return F.flip(F.transpose(t, perm), axes[1])


@ops.reports("fliplr")
def fliplr(m: Any) -> Tensor:
    """``m[:, ::-1]``: a view (2 or more dimensions)."""
    t = wrap(m)
    if t.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return t[:, ::-1]


@ops.reports("flipud")
def flipud(m: Any) -> Tensor:
    """``m[::-1, ...]``: a view (1 or more dimensions)."""
    t = wrap(m)
    if t.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return t[::-1, ...]


# ------------------------------------------------------------------ triangles and diagonals

@ops.reports("tri")
def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = float) -> Tensor:
    """Ones at and below the ``k``-th diagonal of an ``N`` by ``M`` array:
    NumPy's comparison of row and shifted column numbers, lazy and fusable.

    >>> import lazyten as lt
    >>> lt.tri(2, 3, dtype=int).eval()
    array([[1, 0, 0],
           [1, 1, 0]])
    """
    if M is None:
        M = N
    rows = arange(N)
    cols = arange(-k, M - k)
    return F.astype(rows[:, None] >= cols[None, :], np.dtype(dtype))


def _index_pair(r: tuple[Any, ...]) -> tuple[Tensor, Tensor]:
    return asarray(r[0]), asarray(r[1])


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """The indices of the lower triangle of an ``n`` by ``m`` array (at and
    below the ``k``-th diagonal): computed now from the integers, as
    constants."""
    return _index_pair(np.tril_indices(n, k, m))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """The indices of the upper triangle (at and above the ``k``-th
    diagonal), as constants."""
    return _index_pair(np.triu_indices(n, k, m))


def _matrix(arr: Any) -> Tensor:
    t = wrap(arr)
    if t.ndim != 2:
        raise ValueError("input array must be 2-d")
    return t


@ops.reports("tril_indices_from")
def tril_indices_from(arr: Any, k: int = 0) -> tuple[Tensor, Tensor]:
    """``tril_indices`` for ``arr``'s (2-d) shape."""
    t = _matrix(arr)
    return tril_indices(t.shape[-2], k=k, m=t.shape[-1])


@ops.reports("triu_indices_from")
def triu_indices_from(arr: Any, k: int = 0) -> tuple[Tensor, Tensor]:
    """``triu_indices`` for ``arr``'s (2-d) shape."""
    t = _matrix(arr)
    return triu_indices(t.shape[-2], k=k, m=t.shape[-1])


@ops.reports("diag")
def diag(v: Any, k: int = 0) -> Tensor:
    """A 2-d array's ``k``-th diagonal (a read-only view, as NumPy's), or a
    square array with a 1-d ``v`` on its ``k``-th diagonal: ``where`` on a
    lazy ``eye`` mask, ``v`` (padded with zeros) along rows for ``k >= 0``,
    along columns otherwise.

    >>> import lazyten as lt
    >>> lt.diag(lt.asarray([1, 2]), 1).eval()
    array([[0, 1, 0],
           [0, 0, 2],
           [0, 0, 0]])
    """
    return _diag(v, k, "lt.diag")


def _diag(v: Any, k: int, what: str) -> Tensor:
    t = wrap(v)
    k = operator.index(k)
    if t.ndim == 2:
        return F.diagonal(t, k)
    if t.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    refuse_call_axis(t, 0, what)          # (``eye(n)``: n is a number here)
    n = t.shape[0] + abs(k)
    zero = zeros((), t.dtype)
    padded = F.concat([t, zeros((abs(k),), t.dtype)]) if k else t
    lane = padded[:, None] if k >= 0 else padded[None, :]
    r = F.where(eye(n, n, k, dtype=np.bool_), lane, zero)
    # (NumPy's is ``zeros((n, n), v.dtype)`` filled: a big-endian ``>i4``
    # kept, where ``where`` computes in the machine's order)
    return r if t.dtype.isnative else _new_as_numpys(r, "C", t)


@ops.reports("diagflat")
def diagflat(v: Any, k: int = 0) -> Tensor:
    """``diag`` of ``v`` flattened."""
    return _diag(wrap(v).reshape(-1), k, "lt.diagflat")


def diag_indices(n: int, ndim: int = 2) -> tuple[Tensor, ...]:
    """``(arange(n),) * ndim``: the indices of the main diagonal of an
    ``n`` by ... by ``n`` array (one lazy ``arange``)."""
    return (arange(n),) * ndim


@ops.reports("diag_indices_from")
def diag_indices_from(arr: Any) -> tuple[Tensor, ...]:
    """``diag_indices`` for ``arr`` (2 or more equal dimensions)."""
    t = wrap(arr)
    if t.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(t.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(t.shape[0], t.ndim)


@numpy_writes(np.fill_diagonal)
@ops.reports("fill_diagonal")
@writes
def fill_diagonal(a: Tensor, val: Any, wrap: bool = False) -> None:
    """Writes ``val`` (repeated as needed) on the main diagonal of ``a``, as
    NumPy's ``a.flat[::step] = val`` (a tall matrix's diagonal restarts
    after a gap row when ``wrap``): a functional write, like ``t[...] = v``,
    through views to their root; an ndarray ``a`` is NumPy's to write, now
    (``tensor.numpy_writes``).

    >>> import lazyten as lt
    >>> t = lt.zeros((2, 2), int)
    >>> lt.fill_diagonal(t, 7)
    >>> t.eval()
    array([[7, 0],
           [0, 7]])
    """
    t = _writable(a, "fill_diagonal")
    val = snapshot(val)                              # (read at the call, as NumPy's)
    if t.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if t.ndim == 2:
        step = t.shape[1] + 1
        if not wrap:
            end = t.shape[1] * t.shape[1]
    else:
        if len(set(t.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(t.shape[:-1]).sum())
    positions = np.arange(t.size)[:end:step]
    if positions.size:
        _put(t, positions, val)
    elif not isinstance(val, (Tensor, np.ndarray, np.generic)):
        # NumPy writes nothing but still converts a Python value (300 into
        # int8: OverflowError; "abc", None, a ragged list: its errors).
        np.asarray(val, dtype=t.dtype)


# ------------------------------------------------------------------ products and grids

@ops.reports("kron")
def kron(a: Any, b: Any) -> Tensor:
    """The Kronecker product, as NumPy builds it: both given the same number
    of dimensions, interleaved unit axes, one broadcast ``multiply``
    (fusable), reshaped.

    >>> import lazyten as lt
    >>> lt.kron(lt.asarray([1, 10]), lt.asarray([1, 2])).eval()
    array([ 1,  2, 10, 20])
    """
    tb = wrap(b)
    ta = wrap(a)
    ta = ta.reshape((1,) * (tb.ndim - ta.ndim) + ta.shape)    # NumPy's ndmin=b.ndim
    nd = ta.ndim
    if nd == 0 or tb.ndim == 0:
        return ta * tb
    bs = (1,) * (nd - tb.ndim) + tb.shape
    tb = tb.reshape(bs)
    x = ta[tuple(p for _ in range(nd) for p in (slice(None), None))]
    y = tb[tuple(p for _ in range(nd) for p in (None, slice(None)))]
    return (x * y).reshape(tuple(i * j for i, j in zip(ta.shape, bs)))


@ops.reports("vander")
def vander(x: Any, N: int | None = None, increasing: bool = False) -> Tensor:
    """The powers of the 1-d ``x`` as columns (decreasing unless
    ``increasing``), in ``x``'s dtype promoted with int: as NumPy, a column
    of ones and the running product of ``x`` along the columns
    (``cumulative_prod``, NumPy's ``multiply.accumulate``).

    >>> import lazyten as lt
    >>> lt.vander(lt.asarray([2, 3]), 3).eval()
    array([[4, 2, 1],
           [9, 3, 1]])
    """
    t = wrap(x)
    if t.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        refuse_call_axis(t, 0, "lt.vander (without N)")   # (N columns: a number here)
    n = t.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    dt = np.promote_types(t.dtype, int)
    # (``ones_like`` reads the rows at each call of a compiled function.)
    cols = [ones_like(t[:, None][:, :min(n, 1)], dtype=dt)]
    if n > 1:
        xs = F.broadcast_to(F.astype(t, dt)[:, None], (t.shape[0], n - 1))
        cols.append(F.cumulative_prod(xs, axis=1))
    v = cols[0] if len(cols) == 1 else F.concat(cols, axis=1)
    # (NumPy's: a new C array, which it fills from the last column when
    # not increasing)
    return _new_as_numpys(v if increasing else v[:, ::-1], "C")


@ops.reports("indices")
def indices(dimensions: Sequence[int], dtype: Any = int, sparse: bool = False
            ) -> Tensor | tuple[Tensor, ...]:
    """The index of each element along each axis of a grid: lazy
    ``arange``s, broadcast and stacked (``sparse``: the ``arange``s as
    views with unit axes).

    >>> import lazyten as lt
    >>> lt.indices((2, 2)).eval()
    array([[[0, 0],
            [1, 1]],
    <BLANKLINE>
           [[0, 1],
            [0, 1]]])
    """
    dims = tuple(operator.index(d) for d in dimensions)
    if any(d < 0 for d in dims) and not sparse:
        raise ValueError("negative dimensions are not allowed")
    dt = np.dtype(dtype)
    # (sparse, NumPy reshapes an empty arange to a negative length: it means 0)
    grids = [arange(d, dtype=dt).reshape((1,) * i + (max(d, 0),) + (1,) * (len(dims) - i - 1))
             for i, d in enumerate(dims)]
    if sparse:
        return tuple(grids)
    if not dims:
        return zeros((0,), dt)
    return F.stack([F.broadcast_to(g, dims) for g in grids])


@ops.reports("ix_")
def ix_(*args: Any) -> tuple[Tensor, ...]:
    """Open-mesh index arrays: the k-th 1-d sequence as a view with its axis
    k of ``len(args)`` (a boolean one replaced by its nonzero positions,
    evaluated).

    >>> import lazyten as lt
    >>> r, c = lt.ix_([0, 1], [2, 0])
    >>> r.shape, c.shape
    ((2, 1), (1, 2))
    """
    out = []
    nd = len(args)
    for k, a in enumerate(args):
        if isinstance(a, (Tensor, np.ndarray)):
            t = wrap(a)
        else:
            arr = np.asarray(a)
            t = asarray(arr.astype(np.intp) if arr.size == 0 else arr)
        if t.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if t.dtype == np.bool_:
            t = asarray(np.flatnonzero(_values(t, "ix_")))
        out.append(t.reshape((1,) * k + (t.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


@ops.reports("trim_zeros")
def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Tensor:
    """NumPy's ``trim_zeros`` (2.2's n-d form): ``filt`` without its leading
    ('f') and trailing ('b') zeros along each axis in ``axis`` (None: every
    axis, the smallest box holding every nonzero; all zeros: an empty slice
    of every trimmed axis).  Where the zeros end depends on the data, so it
    is computed now; the result is then a lazy slice of ``filt``, a view as
    NumPy's is (``filt`` itself if no axis is trimmed).  A list or tuple
    comes back a tensor, where NumPy gives a list or tuple.

    >>> import lazyten as lt
    >>> lt.trim_zeros(lt.asarray([0, 0, 1, 2, 0, 3, 0])).eval()
    array([1, 2, 0, 3])
    >>> lt.trim_zeros(lt.asarray([[0, 0, 0], [0, 1, 0]]), axis=0).shape
    (1, 3)
    """
    t = wrap(filt)
    trim = trim.lower()                 # (NumPy's AttributeError for a non-string)
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = range(t.ndim) if axis is None else \
        np.lib.array_utils.normalize_axis_tuple(axis, t.ndim, argname="axis")
    if not axes:
        return t
    nonzero = np.argwhere(_values(t, "trim_zeros"))
    if nonzero.size == 0:
        # (NumPy: an empty slice of each trimmed axis, whatever ``trim`` says)
        bounds: list[tuple[int | None, int | None]] = [(0, 0)] * t.ndim
    else:
        lo, hi = nonzero.min(axis=0), nonzero.max(axis=0) + 1
        bounds = [(int(lo[k]) if "f" in trim else None, int(hi[k]) if "b" in trim else None)
                  for k in range(t.ndim)]
    return t[tuple(slice(*bounds[k]) if k in axes else slice(None) for k in range(t.ndim))]


# ------------------------------------------------------------------ flat indices

@ops.reports("ravel")
def ravel(a: Any, order: Any = "C") -> Tensor:
    """``a`` flattened, in column-major order for ``order="F"``: a view
    where NumPy's is (the data C-contiguous, F-contiguous for "F", in the
    layout writes see: ``functions.is_c_contiguous``), else a copy, so a
    write to it reaches ``a`` exactly as in NumPy.  ``"A"`` and ``"K"``
    follow the memory layout, of a computed result too (NumPy's follows its
    operands': ``(x.T * 2).ravel("K")`` is a view of F data), where it is
    not known from them learnt by computing the result
    (``tensor.settle_layout``): a view where NumPy's is, F order for
    Fortran-ordered data.  In a function being traced, where a layout is
    known only at a call, a copy read in the layout of the value as it runs
    (``memory.flattened``: a write to it stays there)."""
    t = wrap(a)
    o = "C" if order is None else order.upper() if isinstance(order, str) else order
    check_order(o, "ravel")
    if o in ("A", "K") and t.ndim > 1:
        from .memory import flattened
        root = t if t._root is None else t._root
        # (traced: ``flattened`` reads the layout a call gives)
        settle_layout(root._node)
        if not layout_known(root._node):
            return flattened(t, o)
        t._settle_tentative()                # (a reshape NumPy copied: that copy's)
        if F.is_c_contiguous(t):
            o = "C"
        elif F.is_f_contiguous(t):
            o = "F"
        elif o == "A":
            o = "C"                          # (a copy, in C order)
        else:
            # "K": the axes in memory order; a view where that is contiguous
            # (a permuted dense array, as NumPy's), else NumPy's copy
            probe = F.layout_of(t)
            if probe is None or any(s < 0 for s in probe.strides):
                return flattened(t, o)
            perm = sorted(range(t.ndim), key=lambda k: -probe.strides[k])
            t, o = t.transpose(perm), "C"
            if not F.is_c_contiguous(t):
                return flattened(t, "C")
    if o == "F" and t.ndim > 1:
        t = t.T
    flat = t.reshape(-1)
    if flat._root is not None and layout_known(flat._root._node) and not F.is_c_contiguous(t):
        # A copy in NumPy (``PyArray_Flatten``): writes stay in it.  Where
        # NumPy's reshape of these data would be a view (a slice with steps
        # that merge: ``x[:, ::2]`` of an even row length), so would the
        # reshape's value be, strided; NumPy's ravel is a contiguous copy,
        # which a BLAS dot of it adds up otherwise
        stand = F.layout_of(t)
        if stand is not None and _reshapes_as_a_view(stand):
            from .memory import flattened
            return flattened(t, "C")
        return Tensor(flat._node)
    return flat                              # (or as reshape decides: ``F.reshape``)


def _reshapes_as_a_view(probe: np.ndarray[Any, Any]) -> bool:
    """Whether NumPy's ``reshape(-1)`` of data laid out as ``probe`` (a
    stand-in) is a view."""
    try:
        np.reshape(probe, -1, copy=False)
    except ValueError:
        return False
    return True


def _dims(shape: Any) -> tuple[int, ...]:
    return (operator.index(shape),) if np.ndim(shape) == 0 else tuple(
        operator.index(d) for d in shape)


@ops.reports("ravel_multi_index")
def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise",
                      order: Any = "C") -> Tensor:
    """The flat index of each tuple of indices into an array of shape
    ``dims`` (``mode``: raise, wrap or clip, one or one per axis).  Concrete
    indices are computed now (NumPy's errors on this line); with a tensor
    among them, one node running ``np.ravel_multi_index`` (an index out of
    bounds raises its ValueError when it runs).

    >>> import lazyten as lt
    >>> lt.ravel_multi_index(([1, 2], [0, 3]), (3, 4)).eval()
    array([ 4, 11])
    """
    d = _dims(dims)
    arrays = ([multi_index[i] for i in range(multi_index.shape[0])]
              if isinstance(multi_index, Tensor) else list(multi_index))
    if not any(isinstance(x, Tensor) for x in arrays):
        concrete: Any = tuple(arrays)
        return asarray(np.ravel_multi_index(concrete, d, mode=mode, order=order))
    # One mode or a list or tuple of them, one per axis, each by its name
    # (NumPy takes ints and None too): a hashable attribute; NumPy checks
    # the count when the node is made.
    m: Any = (tuple(_clipmode(x) for x in mode) if isinstance(mode, (list, tuple))
              else _clipmode(mode))
    return _op("ravel_multi_index", arrays, dims=d, mode=m, order=order)


@ops.reports("unravel_index")
def unravel_index(indices: Any, shape: Any, order: Any = "C") -> tuple[Tensor, ...]:
    """The index along each axis of an array of ``shape`` for each flat
    index.  Concrete indices are computed now; a tensor's by one node
    running ``np.unravel_index`` (bounds checked when it runs), whose
    rows are the arrays returned.

    >>> import lazyten as lt
    >>> r, c = lt.unravel_index(lt.asarray([5, 7]), (2, 4))
    >>> r.eval(), c.eval()
    (array([1, 1]), array([1, 3]))
    """
    d = _dims(shape)
    if not isinstance(indices, Tensor) or not d:
        # Shape () has no rows to carry a deferred bounds check, so a lazy
        # index is computed now: NumPy raises unless it is 0.
        concrete = indices.eval() if isinstance(indices, Tensor) else indices
        return tuple(asarray(x) for x in np.unravel_index(concrete, d, order=order))
    rows = _op("unravel_index", [indices], shape=d, order=order)
    return tuple(_copy(rows[i]) for i in range(len(d)))


# ------------------------------------------------------------------ selecting

@numpy_out(np.choose)
@ops.reports("choose")
def choose(a: Any, choices: Any, out: Any = None, mode: Any = "raise") -> Tensor:
    """``choices[a[i]][i]`` for each ``i``, all broadcast together: one node
    running ``np.choose`` (an index out of range raises its ValueError
    when it runs, in mode "raise").  The choices are first brought to
    NumPy's common dtype (a Python scalar among arrays is weak).

    >>> import lazyten as lt
    >>> lt.choose(lt.asarray([0, 1, 0]), [lt.asarray([1, 2, 3]), 9]).eval()
    array([1, 9, 3])
    """
    # NumPy parses the mode first; by its name as the node's attribute
    # (mode 1 and mode True are equal as attributes, and only one is valid).
    mode = _clipmode(mode)
    if isinstance(choices, (Tensor, np.ndarray)):
        ct = wrap(choices)
        if ct.ndim == 0:
            raise TypeError("choose: choices must be a sequence of arrays")
        cs: list[Any] = [ct[i] for i in range(ct.shape[0])]
    else:
        cs = list(choices)
    if not cs:
        raise ValueError("0-length sequence.")
    # NumPy's common dtype, asked of NumPy: arrays by their dtypes, Python
    # scalars as themselves.
    probe = [np.zeros((), c.dtype) if isinstance(c, (Tensor, np.ndarray, np.generic))
             else c for c in cs]
    dt = np.asarray(np.choose(np.intp(0), probe)).dtype
    nodes = [F.astype(c, dt, copy=False) if isinstance(c, Tensor)
             else asarray(np.asarray(c).astype(dt)) for c in cs]
    return _op("choose", [a, *nodes], mode=mode)


def _condition_positions(condition: Any, flat: bool) -> np.ndarray[Any, Any]:
    """The nonzero positions of a condition (evaluated: their count is the
    result's length)."""
    c = _indices_from(condition)
    if flat:
        c = c.reshape(-1)
    elif c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return np.flatnonzero(c)


def _take(t: Tensor, positions: np.ndarray[Any, Any], axis: int) -> Tensor:
    """``t`` at the sorted ``positions`` along ``axis``, checked as NumPy's
    ``take`` checks them: an empty axis only where the result has elements,
    the bounds once for each index of the axes before ``axis`` (so not at
    all when there is none)."""
    n = t.shape[axis]
    if positions.size and n == 0 and math.prod(t.shape[:axis] + t.shape[axis + 1:]):
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if positions.size and math.prod(t.shape[:axis]) and positions[-1] >= n:
        first = positions[np.searchsorted(positions, n)]     # (NumPy names the first)
        raise IndexError(f"index {first} is out of bounds for axis {axis} with size {n}")
    if t.size == 0:
        return zeros(t.shape[:axis] + (positions.size,) + t.shape[axis + 1:], t.dtype)
    # (NumPy's take: a new C array of ``t``'s dtype)
    from .memory import filled_array
    return filled_array(_gather([t], positions, axis), "C", dtype=t.dtype)


@numpy_out(np.compress)
@ops.reports("compress")
def compress(condition: Any, a: Any, axis: int | None = None, out: Any = None) -> Tensor:
    """The slices of ``a`` along ``axis`` (flattened when None) where the 1-d
    ``condition`` is true (a shorter condition leaves the rest out).  The
    condition is evaluated; its runs of true are views, joined.

    >>> import lazyten as lt
    >>> lt.compress([True, False, True], lt.asarray([[1, 2], [3, 4], [5, 6]]), axis=0).eval()
    array([[1, 2],
           [5, 6]])
    """
    pos = _condition_positions(condition, flat=False)
    t = wrap(a)
    # (NumPy's PyArray_CheckAxis: a 0-d array is read as a 1-d one)
    t, ax = _flat_or_axis(t.reshape(1) if t.ndim == 0 else t, axis)
    return _take(t, pos, ax)


@ops.reports("extract")
def extract(condition: Any, arr: Any) -> Tensor:
    """The elements of ``arr`` (flattened) where ``condition`` (flattened)
    is true; the condition is evaluated."""
    pos = _condition_positions(condition, flat=True)
    t = wrap(arr).reshape(-1)
    return _take(t, pos, 0)


# ------------------------------------------------------------------ writes

def _mask_values(mask: Any, a: Tensor, name: str) -> Tensor:
    m = wrap(mask)
    if m.size != a.size:
        raise ValueError(f"{name}: mask and data must be the same size")
    return F.astype(m, np.bool_, copy=False).reshape(a.shape)


@numpy_writes(np.place)
@ops.reports("place")
@writes
def place(arr: Tensor, mask: Any, vals: Any) -> None:
    """Writes the first values of ``vals`` (repeated as needed) where
    ``mask`` is true, in flat order, as NumPy's ``place`` (arrays cast by
    the 'safe' rule): a functional write to the tensor ``arr`` (an ndarray is
    NumPy's to write, now: ``tensor.numpy_writes``).  The mask
    is evaluated: which values land where depends on its count of true.
    """
    t = _writable(arr, "place")
    mask, vals = snapshot(mask), snapshot(vals)      # (read at the call, as NumPy's)
    m = _mask_values(mask, t, "place")
    pos = np.flatnonzero(_values(m, "place"))
    v = _written_values(vals, t.dtype)
    if pos.size and v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    if pos.size:
        _put(t, pos, v)


@numpy_writes(np.putmask)
@ops.reports("putmask")
@writes
def putmask(a: Tensor, mask: Any, values: Any) -> None:
    """``a.flat[n] = values.flat[n % len(values)]`` where ``mask.flat[n]``,
    as NumPy's ``putmask`` (arrays cast by the 'safe' rule): a functional
    write to the tensor ``a`` (an ndarray is NumPy's to write, now),
    ``where(mask, resize(values, a.shape), a)``,
    lazy in the mask.

    >>> import lazyten as lt
    >>> t = lt.arange(5)
    >>> lt.putmask(t, t > 2, [10, 20])
    >>> t.eval()
    array([ 0,  1,  2, 20, 10])
    """
    t = _writable(a, "putmask")
    mask, values = snapshot(mask), snapshot(values)  # (read at the call, as NumPy's)
    m = _mask_values(mask, t, "putmask")
    v = _written_values(values, t.dtype)
    if v.size == 0:
        return                                   # NumPy: nothing to write
    t._write(F.where(m, resize(v, t.shape), t)._node)


@numpy_writes(np.put_along_axis)
@ops.reports("put_along_axis")
@writes
def put_along_axis(arr: Tensor, indices: Any, values: Any, axis: int | None) -> None:
    """``arr[idx] = values`` where ``idx`` indexes ``axis`` with ``indices``
    (of ``arr``'s rank) and the other axes with their ``arange``s, as
    NumPy's: an advanced assignment (``scatter``), a functional write to
    the tensor ``arr`` (an ndarray is NumPy's to write, now); ``axis=None``
    writes ``arr`` flattened.

    >>> import lazyten as lt
    >>> t = lt.zeros((2, 2), int)
    >>> lt.put_along_axis(t, lt.asarray([[1], [0]]), 5, axis=1)
    >>> t.eval()
    array([[0, 5],
           [5, 0]])
    """
    t = _writable(arr, "put_along_axis")
    indices, values = snapshot(indices), snapshot(values)   # (read at the call)
    # A concrete index array stays one: its values are checked on this line.
    idx = indices if isinstance(indices, Tensor) else np.asarray(indices)
    # NumPy's order: the axis (the indices' dimensions for axis=None), the
    # index dtype, the dimensions, then the assignment's checks (the index
    # arrays' shapes, the values, their shape, last the index bounds).
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
    else:
        ax = S.normalize_axis(axis, t.ndim)
    if idx.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        v = _fit(Tensor(_assigned(t, values)), idx.shape, advanced=True)
        check_write_bounds(idx, t.size, 0)
        flat = ops.apply("reshape", [t._node], shape=(-1,))
        new = ops.apply("scatter", [flat, v._node, wrap(idx)._node], key=(("a", 0),))
        t._write(ops.apply("reshape", [new], shape=t.shape))
        return
    if idx.ndim != t.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    key: list[Any] = []
    for dim, n in enumerate(t.shape):
        if dim == ax:
            key.append(idx)
        else:
            key.append(np.arange(n).reshape((1,) * dim + (-1,) + (1,) * (t.ndim - dim - 1)))
    try:
        target = np.broadcast_shapes(*(k.shape for k in key))
    except ValueError:
        target = None                        # (the assignment raises NumPy's IndexError)
    if target is not None:
        values = _fit(Tensor(_assigned(t, values)), target, advanced=True)
    t[tuple(key)] = values


# ------------------------------------------------------------------ shape queries

def ndim(a: Any) -> int:
    """The number of dimensions (``np.ndim``; a tensor's without evaluating)."""
    return a.ndim if isinstance(a, Tensor) else int(np.ndim(a))


def shape(a: Any) -> tuple[int, ...]:
    """The shape (``np.shape``; a tensor's without evaluating)."""
    return a.shape if isinstance(a, Tensor) else tuple(np.shape(a))


@ops.reports("size")
def size(a: Any, axis: int | Sequence[int] | None = None) -> int:
    """The number of elements, along ``axis`` (an int or a tuple of them)
    if given (``np.size``)."""
    if not isinstance(a, Tensor):
        return int(np.size(a, axis if axis is None or isinstance(axis, int)
                           else tuple(axis)))
    if axis is None:
        return a.size
    return math.prod(a.shape[x] for x in S.normalize_axes(axis, a.ndim))


# ------------------------------------------------------------------ partial sorts

@ops.reports("partition")
def partition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect",
              order: Any = None) -> Tensor:
    """``a`` with the ``kth`` element(s) in their sorted place along
    ``axis`` (flattened when None), smaller ones before, larger after: one
    node running ``np.partition`` (the others' order is introselect's).

    >>> import lazyten as lt
    >>> lt.partition(lt.asarray([7, 1, 5, 3, 9, 2]), 3).eval()
    array([1, 2, 3, 5, 7, 9])
    """
    t, ax = _partition_args(a, kth, axis, kind, order, arg=False)
    return _op("partition", [t], kth=_kthof(kth), axis=ax)


@ops.reports("argpartition")
def argpartition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect",
                 order: Any = None) -> Tensor:
    """The indices that ``partition`` ``a`` (``np.argpartition``; a 0-d
    ``a`` is partitioned as a 1-d one)."""
    t, ax = _partition_args(a, kth, axis, kind, order, arg=True)
    return _op("argpartition", [t], kth=_kthof(kth), axis=ax)


def _kthof(kth: Any) -> Any:
    return _values(kth, "partition") if isinstance(kth, Tensor) else kth


def _partition_args(a: Any, kth: Any, axis: int | None, kind: Any, order: Any,
                    arg: bool) -> tuple[Tensor, int]:
    if isinstance(kind, bytes):              # (NumPy takes b"introselect")
        kind = kind.decode("latin-1")
    if not isinstance(kind, str):
        raise TypeError(f"select kind must be str, not {type(kind).__name__}")
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError("partition: order= (fields of a structured dtype) is not supported")
    t = wrap(a)
    if axis is None or (arg and t.ndim == 0):
        return t.reshape(-1), 0 if axis is None else S.normalize_axis(axis, 1)
    return t, S.normalize_axis(axis, t.ndim)


# ------------------------------------------------------------------ sorts

@ops.reports("lexsort")
def lexsort(keys: Any, axis: int = -1) -> Tensor:
    """The indices that sort by the last key, then the one before, ...
    (``np.lexsort``; a 2-d array's rows are keys).  Stable ``argsort``s,
    least significant key first, each of the key gathered in the order so
    far: a stable order is unique, so it is NumPy's.

    >>> import lazyten as lt
    >>> lt.lexsort([lt.asarray([1, 0, 2]), lt.asarray([0, 0, 1])]).eval()
    array([1, 0, 2])
    """
    axis = operator.index(axis)              # (NumPy reads the axis first: None is a TypeError)
    if isinstance(keys, (Tensor, np.ndarray)):
        kt = wrap(keys)
        # (a 0-d array is no sequence of keys: NumPy's TypeError below)
        ks = [kt[i] for i in range(kt.shape[0])] if kt.ndim else []
    else:
        ks = [wrap(k) for k in keys]
    if not ks:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(k.shape != ks[0].shape for k in ks):
        raise ValueError("all keys need to be the same shape")
    if len(ks) > 1 and any(call_sized(k) for k in ks):
        # Shapes equal now may differ at a compiled function's call (two
        # None dimensions): stacked, the keys meet stack's shape rule then.
        st = F.stack(ks)
        ks = [st[i] for i in range(len(ks))]
    if ks[0].ndim == 0:                    # (NumPy: one scalar key sorts as itself)
        S.normalize_axis(axis, 1)
        return zeros((), np.intp)
    ax = S.normalize_axis(axis, ks[0].ndim)
    order = argsort(ks[0], axis=ax, stable=True)
    for k in ks[1:]:
        step = argsort(take_along_axis(k, order, axis=ax), axis=ax, stable=True)
        order = take_along_axis(order, step, axis=ax)
    return order


@ops.reports("sort_complex")
def sort_complex(a: Any) -> Tensor:
    """``a`` sorted along its last axis, as complex numbers (complex64 for
    8- and 16-bit integers, complex128 for other real dtypes, as NumPy)."""
    t = sort(a, axis=-1)
    if t.dtype.kind == "c":
        return t
    small = t.dtype.char in "bhBH"
    return F.astype(t, np.complex64 if small else np.complex128)


# ------------------------------------------------------------------ ndarray's method forms

def _partition_in_place(t: Tensor, kth: Any, axis: int = -1, kind: str = "introselect",
                        order: Any = None) -> None:
    """``t.partition(kth)``: NumPy's in-place partition, as a new version of
    ``t`` (a functional write, as ``t[...] = v``; through views to their
    root)."""
    if axis is None:                         # (NumPy's TypeError: no flattening in place)
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    t[...] = partition(t, kth, axis=axis, kind=kind, order=order)


def _compress_method(t: Tensor, condition: Any, axis: int | None = None,
                     out: Any = None) -> Tensor:
    """``t.compress(condition, axis)``: ``compress(condition, t, axis)``."""
    return compress(condition, t, axis=axis, out=out)


# ndarray's methods of these names (Tensor.__getattr__ looks them up here).
F.METHODS.update(compress=_compress_method, choose=choose, partition=_partition_in_place,
                 argpartition=argpartition)


@ops.reports("mask_indices")
def mask_indices(n: int, mask_func: Callable[..., Any], k: Any = 0) -> tuple[Tensor, ...]:
    """NumPy's ``mask_indices``: the indices where ``mask_func`` (``lt.triu``,
    ``np.tril``, ...) of an ``(n, n)`` array of ones with offset ``k`` is
    nonzero; computed now (their number depends on the mask's values)."""
    m = mask_func(ones((n, n), int), k)
    return tuple(asarray(i) for i in np.nonzero(np.asarray(m)))
