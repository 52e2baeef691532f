"""``t[index]`` and ``t[index] = value``.

Basic indexing (ints, slices, ``...``, ``None``) is a zero-copy view node.
One integer array (or list) among slices gathers along that axis (``take``,
which the optimizer can push into elementwise expressions); any other mix of
integer arrays, integers, slices, ``None`` and ``...`` is NumPy's advanced
indexing (``gather``).  A boolean mask stands for its ``nonzero()`` arrays
(a 0-d one for a new axis, indexed by ``[0]`` or ``[]``);
a mask's result size depends on its values, so a lazy mask is evaluated
first (said in the docstring of ``getitem``).

Writes are functional updates of the tensor's root: ``setitem`` for basic
indices, ``scatter`` for advanced ones, and ``t[mask] = scalar`` is
``where(mask, scalar, t)``, which stays lazy and fuses.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from .graph import ops
from .graph import shapes as S
from .graph.layout import layout_known
from .graph.node import Node, _symbolic_placeholders, reaches_placeholder
from .tensor import Tensor, element, node_of, numpy_writes, snapshot, wrap, writes


def _is_basic(item: Any) -> bool:
    return (item is None or item is Ellipsis or isinstance(item, slice)
            or (isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))))


def _advanced(item: Any) -> np.ndarray[Any, Any] | Tensor | None:
    """A prepared item's index array (``_prepare``): itself, or a 0-d array
    for a Python or NumPy bool; None for a basic item."""
    if isinstance(item, (Tensor, np.ndarray)):
        return item
    if isinstance(item, (bool, np.bool_)):
        return np.asarray(item)
    return None


_NOT_AN_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                 "integer or boolean arrays are valid indices")


def _prepare(shape: tuple[int, ...], items: tuple[Any, ...]) -> tuple[Any, ...]:
    """An index that is not all ints, slices, ``None`` and ``...``, read as
    NumPy's ``prepare_index`` reads it, with its errors, before any node or
    shortcut: at most one ``...``; an object with ``__index__`` (not a bool,
    not an array) is an integer; anything else not an ndarray or a Tensor is
    ``np.asarray``'s array (a list, a range, a memoryview; an empty one is an
    integer array, an empty ndarray keeps its dtype); arrays must be integer
    or boolean; then no more indices than axes (a k-d mask indexes k axes, a
    0-d one and ``None`` none), then each mask's shape against its axes.
    The items come back with those integers as ``int`` and array-likes as
    arrays.

    >>> _prepare((4,), (range(2),))
    (array([0, 1]),)
    >>> _prepare((4,), ([True, False, True, False], slice(None)))
    Traceback (most recent call last):
    IndexError: too many indices for array: array is 1-dimensional, but 2 were indexed
    """
    out: list[Any] = []
    ellipsis = masks = False
    count = 0                            # the axes of ``shape`` indexed
    for i in items:
        if i is None:
            out.append(i)
            continue
        if i is Ellipsis:
            if ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            ellipsis = True
            out.append(i)
            continue
        if type(i) is slice or (isinstance(i, (int, np.integer))
                                and not isinstance(i, (bool, np.bool_))):
            count += 1
            out.append(i)
            continue
        if isinstance(i, (bool, np.bool_)):
            out.append(i)                # (a new axis: indexes none of ``shape``)
            continue
        if isinstance(i, (np.ndarray, Tensor)):
            if i.dtype.kind not in "biu":
                raise IndexError("arrays used as indices must be of integer (or boolean) "
                                 f"type, got {i.dtype}")
            a: Any = i
        else:
            if type(i) is not list:      # (no list is an integer)
                try:
                    k = operator.index(i)    # (NumPy clears any error, then tries an array)
                except Exception:
                    pass
                else:
                    count += 1
                    out.append(k)
                    continue
            a = np.asarray(i)
            if a.size == 0:
                a = a.astype(np.intp)    # (``t[[]]``: an empty list is float to asarray)
            if a.dtype.kind not in "biu":
                raise IndexError(f"{_NOT_AN_INDEX}; got {type(i).__name__}")
        if isinstance(a, np.ndarray) and a.dtype == np.uint64:
            a = a.astype(np.intp)        # (NumPy's cast: 2**64 - 1 is -1, the last)
        if a.dtype.kind == "b":
            count += a.ndim
            masks = True
        else:
            count += 1
        out.append(a)
    if count > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {count} were indexed")
    prepared = tuple(out)
    for k, axis in _first_axes(len(shape), prepared) if masks else ():
        a = prepared[k]
        if isinstance(a, (np.ndarray, Tensor)) and a.ndim and a.dtype.kind == "b":
            _check_mask(shape, axis, a.shape)
    return prepared


def _first_axes(ndim: int, items: tuple[Any, ...]) -> list[tuple[int, int]]:
    """(position, first axis indexed) of each item of a prepared index that
    indexes axes (not ``None``, ``...`` or a 0-d bool)."""
    def width(i: Any) -> int:
        if i is None or i is Ellipsis or isinstance(i, (bool, np.bool_)):
            return 0
        if isinstance(i, (np.ndarray, Tensor)) and i.dtype.kind == "b":
            return i.ndim
        return 1
    widths = [width(i) for i in items]
    skipped = ndim - sum(widths)         # the axes ``...`` stands for
    axes: list[tuple[int, int]] = []
    dim = 0
    for k, (i, w) in enumerate(zip(items, widths)):
        if i is Ellipsis:
            dim += skipped
        elif w:
            axes.append((k, dim))
            dim += w
    return axes


def _check_ints(shape: tuple[int, ...], items: tuple[Any, ...]) -> None:
    """The integers of a prepared index (and its concrete 0-d integer arrays,
    integers to NumPy) against their axes: the checks NumPy makes before it
    reads an assigned value."""
    for k, axis in _first_axes(len(shape), items):
        i = items[k]
        if isinstance(i, np.ndarray) and i.ndim == 0 and i.dtype.kind in "iu":
            i = int(i)
        if isinstance(i, (int, np.integer)) and not -shape[axis] <= i < shape[axis]:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size "
                             f"{shape[axis]}")


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
    if not basic:
        # The whole index checked as NumPy checks it, whichever path serves it.
        given = {id(i) for i in items}
        items = _prepare(t.shape, items)
        # The caller's index arrays, read now as NumPy reads them: the gather
        # runs later (``t[i] += v`` then ``i[:] = 3``: its read and its write
        # must take the same positions)
        items = tuple(i.copy() if type(i) is np.ndarray and id(i) in given else i
                      for i in items)
        basic = all(_is_basic(i) for i in items)       # (``__index__`` objects: ints now)
        every_int = basic and not any(i is None or i is Ellipsis or type(i) is slice
                                      for i in items)
    if not basic and _has_scalar_bool(items):
        view, rest = _scalar_bools(t, items)
        return view[rest]
    if basic:
        view = _basic_view(t, items)
        if every_int and len(items) == t.ndim:
            # An integer for every axis: NumPy returns a scalar, a copy, so
            # writing to it (``s = a[0, 1]; s += 1``) must not reach ``t``.
            return element(view._node)
        return t._as_new(view)
    adv = [(k, _advanced(i)) for k, i in enumerate(items) if not _is_basic(i)]
    pos, arr = adv[0]
    if len(adv) > 1 or arr is None or any(
            isinstance(i, (int, np.integer)) or i is None for i in items) or (
            isinstance(arr, Tensor) and t.size == 0 and arr.dtype.kind != "b"):
        # (A lazy index into an empty tensor: ``np.take`` checks no index
        # when the other axes are empty, NumPy's indexing does, when it runs.)
        key, arrays, checks = _advanced_key(t, items)
        out = Tensor(ops.apply("gather", [t._node, *arrays], key=key))
        _check_arrays(checks, arrays)
        return out
    width = arr.ndim if arr.dtype.kind == "b" else 1       # the axes it indexes
    rest = items[:pos] + (slice(None),) * width + items[pos + 1:]
    if any(i is Ellipsis for i in items[:pos]):
        n_after = sum(1 for i in items[pos + 1:] if i is not Ellipsis)
        axis = t.ndim - n_after - width
    else:
        axis = pos
    # The other items are slices (and ``...``): a view first, then the gather.
    base = t._view("getitem", index=rest) if any(i != slice(None) for i in rest
                                                  if isinstance(i, slice)) else t
    if arr.dtype.kind == "b":
        mask = arr.eval() if isinstance(arr, Tensor) else arr
        return _boolean_index(base, axis, mask)
    if not isinstance(arr, Tensor):
        _check_bounds(arr, base.shape[axis], axis)
    return Tensor(ops.apply("take", [base._node, wrap(arr)._node], axis=axis, indexing=True))


def _user_key(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """A basic index's items as plain Python ints, slices, None and ``...``."""
    def plain(v: Any) -> Any:
        return v if v is None else operator.index(v)
    return tuple(slice(plain(i.start), plain(i.stop), plain(i.step)) if type(i) is slice
                 else i if i is None or i is Ellipsis else operator.index(i) for i in items)


def _is_scalar_bool(i: Any) -> bool:
    return isinstance(i, (bool, np.bool_)) or (
        isinstance(i, (np.ndarray, Tensor)) and i.ndim == 0 and i.dtype == np.bool_)


def _has_scalar_bool(items: tuple[Any, ...]) -> bool:
    return any(_is_scalar_bool(i) for i in items)


def _scalar_bools(t: Tensor, items: tuple[Any, ...]) -> tuple[Tensor, tuple[Any, ...]]:
    """An index with 0-d booleans as NumPy reads it: each adds an axis of
    length 1, which it indexes by ``[0]`` when True and by ``[]`` when
    False, an index array like any other (placed by NumPy's rule).  So
    ``t[items]`` is ``view[rest]``, ``view`` (a view of ``t``) having the
    new axes where the booleans and ``None``s stand."""
    first: list[Any] = []
    rest: list[Any] = []
    for i in items:
        if _is_scalar_bool(i):
            value = bool(i.eval() if isinstance(i, Tensor) else i)
            first.append(None)
            rest.append(np.arange(int(value), dtype=np.intp))
        elif i is None:
            first.append(None)
            rest.append(slice(None))          # the view's new axis, kept
        elif i is Ellipsis:
            first.append(i)
            rest.append(i)
        else:
            a = None if _is_basic(i) else _advanced(i)
            width = a.ndim if a is not None and a.dtype == np.bool_ else 1   # (axes indexed)
            first.extend([slice(None)] * width)
            rest.append(i)
    if Ellipsis not in first:
        first.append(Ellipsis)                # (the view, never an element)
    # (a view of ``t`` itself, also of a 0-d result: ``s[s > 1] = v`` writes
    # through it)
    return _basic_view(t, tuple(first)), tuple(rest)


def _basic_view(t: Tensor, items: tuple[Any, ...]) -> Tensor:
    """The view ``t[items]`` of a basic index (ints, slices, None, ...)."""
    if _symbolic_placeholders and reaches_placeholder(t._node):
        # Sizes known only per call: the key as written is kept too, so
        # that each call resolves it by Python's rules for its sizes
        # (``x[::5][1:]``; the normalized bounds alone are for one size).
        return t._view("getitem", index=items, user_key=_user_key(items))
    return t._view("getitem", index=items)


def _int_array(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    # ``t[[]]``: NumPy reads an empty list as an empty integer index.
    return a.astype(np.intp) if a.size == 0 and a.dtype.kind == "f" else a


def _check_bounds(a: np.ndarray[Any, Any], size: int, axis: int) -> None:
    """A concrete index array's values, checked on the line that uses them
    (a lazy one's are checked when it runs)."""
    if a.size and (a.max() >= size or a.min() < -size):
        bad = int(a.max() if a.max() >= size else a.min())
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {size}")


def _advanced_key(t: Tensor, items: tuple[Any, ...]
                  ) -> tuple[tuple[Any, ...], list[Any], list[tuple[Any, int, int]]]:
    """A prepared advanced index (``_prepare``) as ``gather``/``scatter``
    take it: the key (ints, slices, None, ``...``, and ``("a", j)`` for the
    j-th index array), the index arrays' nodes, and the arrays (or tensors) with
    their axes, for ``_check_arrays`` once the node is built (NumPy checks
    integers and shapes before those values).  A boolean mask becomes its
    ``nonzero()`` arrays (a lazy mask is evaluated: their length is its count
    of True); a 0-d integer array is an integer, as in NumPy."""
    n_ell = sum(1 for i in items if i is Ellipsis)
    consumed = 0
    for i in items:
        a = None if _is_basic(i) else _advanced(i)
        consumed += (a.ndim if a is not None and a.dtype.kind == "b"
                     else int(i is not None and i is not Ellipsis))
    key: list[Any] = []
    arrays: list[Any] = []
    checks: list[tuple[Any, int, int]] = []  # (array or tensor, axis size, axis)
    dim = 0
    for i in items:
        if i is Ellipsis:
            if n_ell == 1:
                dim += max(t.ndim - consumed, 0)
            key.append(i)
            continue
        if _is_basic(i):
            key.append(i)
            dim += i is not None
            continue
        a = _advanced(i)
        if a is None:
            raise IndexError(f"{_NOT_AN_INDEX}; got {type(i).__name__}")
        if a.dtype.kind == "b":
            mask = a.eval() if isinstance(a, Tensor) else a    # (its shape checked)
            for nz in np.nonzero(mask):
                key.append(("a", len(arrays)))
                arrays.append(wrap(nz)._node)
            dim += mask.ndim
            continue
        if dim < t.ndim:
            checks.append((a, t.shape[dim], dim))
        if not isinstance(a, Tensor):
            if a.ndim == 0:
                key.append(int(a))
                dim += 1
                continue
        key.append(("a", len(arrays)))
        arrays.append(wrap(a)._node)
        dim += 1
    return tuple(key), arrays, checks


def _check_arrays(checks: list[tuple[Any, int, int]], arrays: list[Any],
                  writes: bool = False) -> None:
    """The values of an advanced index's arrays against their axes
    (``_advanced_key``'s checks), unless the arrays select nothing: the
    concrete ones, and for a write the lazy ones too (``check_write_bounds``)."""
    shapes = [n.shape for n in arrays]
    try:
        gathers = math.prod(np.broadcast_shapes(*shapes)) if shapes else 1
    except ValueError:
        gathers = 1                     # (the op's inference raised NumPy's error)
    if gathers:                         # NumPy checks no index when it gathers nothing
        for a, size, axis in checks:
            if isinstance(a, Tensor):
                if writes:
                    check_write_bounds(a, size, axis)
                continue
            _check_bounds(a, size, axis)


def check_write_bounds(a: Any, size: int, axis: int) -> None:
    """An index array of a write checked now, a lazy one computed for it: an
    index out of range must fail on the write's line and leave the tensor
    as it was, not make every later read of it fail.  A compiled function's
    placeholders have no values yet: checked when it runs."""
    if isinstance(a, Tensor):
        if _symbolic_placeholders and reaches_placeholder(a._node):
            return
        from .compile import TracingError
        try:
            a = a.eval()
        except TracingError:
            return
    _check_bounds(a, size, axis)


def _check_mask(shape: tuple[int, ...], dim: int, mask: tuple[int, ...]) -> None:
    """A boolean mask of shape ``mask`` indexing the axes from ``dim`` of an
    array of ``shape``: NumPy's check (a mask axis of length 0 fits an
    axis of any length)."""
    if not mask:
        raise IndexError("a 0-d boolean index is not supported")
    if dim + len(mask) > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but a boolean index of shape {mask} indexes from axis {dim}")
    for k, n in enumerate(mask):
        if n and shape[dim + k] != n:
            raise IndexError(f"boolean index did not match indexed array along axis "
                             f"{dim + k}; size of axis is {shape[dim + k]} but size of "
                             f"corresponding boolean axis is {n}")


def _boolean_index(t: Tensor, axis: int, mask: np.ndarray[Any, Any]) -> Tensor:
    """``t[..., mask, ...]``, the mask's axes from ``axis`` (its shape checked
    by ``_prepare``): a take of its True positions from the merged axes."""
    dims = t.shape[axis:axis + mask.ndim]
    if mask.size == 0:
        mask = np.zeros(dims, bool)          # (a mask with no elements: nothing taken)
    merged_shape = t.shape[:axis] + (int(np.prod(dims)),) + t.shape[axis + mask.ndim:]
    flat = t.reshape(merged_shape)
    positions = np.flatnonzero(mask)
    return Tensor(ops.apply("take", [flat._node, wrap(positions)._node], axis=axis,
                            indexing=True))


@ops.reports("setitem")
def setitem(t: Tensor, index: Any, value: Any) -> None:
    """``t[index] = value`` as a new version of ``t`` (and of its root, for views)."""
    index, value = snapshot(index), snapshot(value)      # (read at the call, as NumPy's)
    items = index if isinstance(index, tuple) else (index,)
    basic = True
    for i in items:
        if not (i is None or i is Ellipsis or type(i) is slice or _is_basic(i)):
            basic = False
            break
    if not basic:
        # The whole index checked as NumPy checks it, before any shortcut.
        items = _prepare(t.shape, items)
        basic = all(_is_basic(i) for i in items)       # (``__index__`` objects: ints now)
    if (isinstance(value, (list, tuple, range)) or isinstance(value, (np.ndarray, Tensor))
            and value.ndim) and len(items) == t.ndim and all(_is_int(i) for i in items):
        # One element (NumPy's scalar assignment): a sequence is read as one
        # value, by the dtype's rules (index errors first, as NumPy's).
        _check_index(t, items, basic)
        value = _element(t, value)
    try:
        val = _assigned(t, value)
        if basic and isinstance(value, np.generic):
            # NumPy converts a scalar written through a basic index as a
            # Python number (np.float64(300.7) into int8: its OverflowError);
            # through a mask or index arrays it casts it.
            buf = np.empty((), t.dtype)
            buf[()] = value
            val = ops.const(buf[()])
    except Exception:
        _check_index(t, items, basic)      # (NumPy reads the value after the index)
        raise
    if basic:
        if isinstance(value, (list, tuple)):
            # NumPy reads a sequence at most as deep as the destination is.
            depth = len(S.normalize_index(t.shape, items)[1])
            if len(val.shape) > depth:
                raise ValueError(f"setting an array element with a sequence. The requested "
                                 f"array would exceed the maximum number of dimension of "
                                 f"{depth}.")
        if val.shape and all(i is Ellipsis or _is_int(i) for i in items) and math.prod(
                val.shape) == 1 and not S.normalize_index(t.shape, items)[1]:
            # One element through ``...`` (``t[0, ...] = [[v]]``): a view to
            # NumPy, which broadcasts a 1-element array into it; the op writes
            # its normalized index, all integers, where NumPy would not.
            val = ops.apply("reshape", [val], shape=())
        # NumPy's scalar of another dtype into integers is converted as a
        # number (NaN: its ValueError; np.int64(2**40) into int32, or -1 from
        # uint32: its OverflowError), where a 0-d array is cast (wraps): a
        # lazy one is known when the write runs
        scalar = isinstance(value, Tensor) and not val.shape and val.dtype.kind in "iufc" \
            and val.dtype != t.dtype and t.dtype.kind in "iu" and value._is_scalar()
        if t._root is None and _whole(t, items) and (val.shape == t.shape or not val.shape) \
                and not _sized_at_call(t) and not scalar and layout_known(t._node):
            # ``t[...] = v``, ``t[:] = 0``: every element written, so the
            # new value is ``v`` itself (cast, broadcast), not a copy of the
            # old one written over (which held both in memory).  (A computed
            # result's layout not known yet is the old one's: written over.)
            t._write(val, whole=True)
            return
        t._write(ops.apply("setitem", [t._node, val], index=items,
                           **({"scalar": True} if scalar else {})))
        return
    mask = _advanced(items[0])
    if (len(items) == 1 and mask is not None and mask.dtype.kind == "b"
            and mask.ndim == t.ndim and len(val.shape) > 1):
        # NumPy's own path for one full-rank mask takes only a scalar or a
        # 1-d run of values (``t[..., mask]`` broadcasts, as a gather's key);
        # a 0-d tensor's ``True`` is such a mask too
        raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or "
                        f"1-dimensional input, input has {len(val.shape)} dimensions")
    if _has_scalar_bool(items):
        view, rest = _scalar_bools(t, items)
        view[rest] = value
        return
    if (mask is not None and mask.dtype.kind == "b" and mask.ndim
            and all(i is Ellipsis or (type(i) is slice and i == slice(None))
                    for i in items[1:])
            and math.prod(val.shape) == 1):
        # ``t[mask] = 0``: where(mask, 0, t), lazy (a lazy mask is not
        # evaluated) and fused with what follows.  (``_prepare`` checked
        # the mask's shape and the index's length.)
        if mask.size == 0:
            return                           # (a mask with no elements: nothing written)
        cond = wrap(mask)
        if mask.ndim < t.ndim:               # (the mask covers the leading axes)
            cond = cond.reshape(mask.shape + (1,) * (t.ndim - mask.ndim))
        fill = ops.apply("reshape", [val], shape=()) if val.shape else val
        if fill.dtype != t.dtype:
            # (cast first, as NumPy's assignment does: a where() of two dtypes
            # would promote, and the cast back change the elements left alone)
            fill = ops.apply("astype", [fill], dtype=t.dtype)
        t._write(ops.apply("where", [cond._node, fill, t._node]))
        return
    key, arrays, checks = _advanced_key(t, items)
    new = ops.apply("scatter", [t._node, val, *arrays], key=key)
    _check_arrays(checks, arrays, writes=True)   # (NumPy: the value's shape first)
    t._write(new)


def _whole(t: Tensor, items: tuple[Any, ...]) -> bool:
    """Whether the basic index ``items`` selects all of ``t``, as it is."""
    for i in items:
        if not (i is Ellipsis or (type(i) is slice and i == slice(None))):
            return False
    return sum(1 for i in items if i is not Ellipsis) <= t.ndim


def _sized_at_call(t: Tensor) -> bool:
    """Whether a compiled function's call sizes ``t``: its setitem checks
    the value against the call's shape (a broadcast to its shape's numbers
    would hold the stand-in's)."""
    if not _symbolic_placeholders:
        return False
    from .compile import call_sized
    return call_sized(t)


def _is_int(i: Any) -> bool:
    """An item NumPy reads as an integer: an int or a 0-d integer array."""
    if isinstance(i, (int, np.integer)):
        return not isinstance(i, (bool, np.bool_))
    return isinstance(i, (np.ndarray, Tensor)) and i.ndim == 0 and i.dtype.kind in "iu"


def _check_index(t: Tensor, items: tuple[Any, ...], basic: bool) -> None:
    """The errors NumPy finds in an index before it reads the value written
    (a prepared advanced index: only its integers are left to check)."""
    if basic:
        S.normalize_index(t.shape, items)
    else:
        _check_ints(t.shape, items)


def _element(t: Tensor, value: Any) -> Any:
    """A list, tuple, range or an array of 1 or more dimensions written to
    one element, as NumPy reads it: a bool element takes a sequence's truth
    (an array's if it has one element); an integer or complex element calls
    ``int()`` or ``complex()`` on a sequence (TypeError); a complex element
    refuses an array (TypeError); anything else is ValueError.

    >>> _element(wrap(np.zeros(2, bool)), [0])
    True
    """
    kind = t.dtype.kind
    if isinstance(value, (list, tuple, range)):
        name = type(value).__name__
        if kind == "b":
            return bool(value)
        if kind in "iu":
            raise TypeError(f"int() argument must be a string, a bytes-like object or a real "
                            f"number, not '{name}'")
        if kind == "c":
            raise TypeError(f"must be real number, not {name}")
    elif kind == "c":
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    elif kind == "b" and value.size == 1:
        return value.reshape(())
    raise ValueError("setting an array element with a sequence.")


def _assigned(t: Tensor, value: Any) -> Node:
    """The node of a value assigned into ``t``.  A Python scalar or list is
    made ``t``'s dtype here, as NumPy does, with NumPy's errors on this line
    (``300`` into int8, NaN or ``1j`` into an integer array)."""
    if type(value) in (bool, int, float, complex):  # (NumPy's scalars: their own dtype)
        return ops.const(np.asarray(value, dtype=t.dtype)[()])
    if isinstance(value, (list, tuple)):
        return wrap(np.asarray(value, dtype=t.dtype))._node
    if value is None or isinstance(value, (str, bytes)):
        # (NumPy converts these into the array's dtype as it stores them:
        # None into floats is NaN, "5" into integers 5; its errors otherwise)
        buf = np.empty((), t.dtype)
        buf[()] = value
        return ops.const(buf[()])
    return node_of(value)


@numpy_writes(np.put)
@ops.reports("put")
@writes
def put(a: Tensor, ind: Any, v: Any, mode: str = "raise") -> None:
    """NumPy's ``put``: the elements of ``a`` at the flat (C-order) indices
    ``ind`` become ``v``, repeated as needed, in place (a new version of
    ``a``, seen through its views, as a write; an ndarray ``a`` is NumPy's
    to write, now).  ``mode``: ``"raise"`` (an index out of range is an
    error), ``"wrap"`` or ``"clip"`` (a negative index clips to 0, as in
    NumPy)."""
    ind, v = snapshot(ind), snapshot(v)      # (read at the call, as NumPy's)
    if not isinstance(a, Tensor):
        raise TypeError(f"put: a must be a lazyten Tensor (it is written in place), got "
                        f"{type(a).__name__}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"put: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    if (v.size if isinstance(v, Tensor) else np.size(v)) == 0:
        return                                   # NumPy: no values, nothing read or put
    if not isinstance(ind, Tensor):
        arr = np.asarray(ind)
        if arr.dtype.kind in "fc" and arr.size and not isinstance(ind, (np.ndarray, np.generic)):
            # Python numbers: NumPy converts each with int() (1.7 is 1, NaN a
            # ValueError, a complex a TypeError); an array of floats is refused.
            arr = np.array(ind, dtype=np.intp)
        ind = _int_array(arr)
        if mode == "raise" and ind.dtype.kind in "iu":
            _check_bounds(ind, a.size, 0)
    elif mode == "raise" and ind.dtype.kind in "iu":
        check_write_bounds(ind, a.size, 0)
    idx = wrap(ind).reshape(-1)
    if idx.dtype == np.bool_:
        idx = idx.astype(np.intp)            # (NumPy casts them: True is index 1)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"put: indices must be integers, got {idx.dtype}")
    n = a.size
    if mode != "raise":
        # (``n - 1`` and ``% n`` are numbers of the graph, made now.)
        from .compile import refuse_call_axis
        refuse_call_axis(a, None, f"lt.put(..., mode={mode!r})")
    if n == 0 and idx.size:
        raise IndexError("cannot replace elements of an empty array")
    if mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = idx.clip(0, n - 1)
    vals = Tensor(_assigned(a, v)).reshape(-1)
    if vals.size == 0 or idx.size == 0:
        return                                   # NumPy: nothing to put
    if vals.size != idx.size:
        # ``v`` repeated (or cut) to one value an index, as NumPy does.
        vals = vals[wrap(np.arange(idx.size) % vals.size)]
    flat = ops.apply("reshape", [a._node], shape=(-1,))
    new = ops.apply("scatter", [flat, vals._node, idx._node], key=(("a", 0),))
    a._write(ops.apply("reshape", [new], shape=a.shape))
