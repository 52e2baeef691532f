"""Pure shape rules: broadcasting, reductions, matmul, reshape, transpose, indexing.

Every rule takes shapes (tuples of ints) and attributes and returns the result
shape, or raises ``ValueError`` / ``IndexError`` / ``AxisError`` with a message
that says what was expected.  The caller (``graph.node.apply``) adds the op
name, the operands and the user's source line, so messages here stay short.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.exceptions import AxisError

Shape = tuple[int, ...]

#: The size a ``None`` placeholder dimension has in the unspecialized graph
#: (``lt.placeholder``): a prime far above any real small size, so it never
#: broadcasts by accident and a dimension derived from it (``3 *
#: SYMBOLIC_DIM`` after a reshape, about half of it after ``[::2]``) is
#: recognizable; no round number a user would write as a size or a
#: constant (it was 1,000,003, which real batch sizes and constants hit:
#: ``compile.py`` says why it cannot be made impossible as a real size).
SYMBOLIC_DIM = 1_013_627

_INTP_MAX = int(np.iinfo(np.intp).max)


def sized_at_call(shape: Shape) -> bool:
    """Whether ``shape`` has a dimension of a None placeholder dimension's
    order (``SYMBOLIC_DIM``, or what slicing or reshaping made of it), whose
    size is then only known when a compiled function runs (or a real
    dimension that large: callers that must know look for the placeholder)."""
    for d in shape:
        if d >= SYMBOLIC_DIM // 4:
            return True
    return False

# An index item after normalization (see ``normalize_index``):
#   ("i", k)              integer index (non-negative, in range)
#   ("s", start, stop, step)  a slice with concrete bounds (``slice.indices``)
#   ("n",)                a new axis (``None``)
IndexItem = tuple[Any, ...]


def broadcast_shapes(*shapes: Shape) -> Shape:
    """NumPy broadcasting of ``shapes``; ValueError if they do not broadcast.

    >>> broadcast_shapes((3, 1), (4,))
    (3, 4)
    """
    if len(shapes) == 1:
        return shapes[0]
    ndim = max((len(s) for s in shapes), default=0)      # (none at all: a scalar's)
    out = [1] * ndim
    for s in shapes:
        off = ndim - len(s)
        for i, d in enumerate(s):
            o = out[off + i]
            if d == o or d == 1:
                continue
            if o == 1:
                out[off + i] = d
            else:
                shown = " and ".join(str(tuple(x)) for x in shapes)
                raise ValueError(f"shapes {shown} do not broadcast "
                                 f"(dimension {i - len(s)} is {o} in one and {d} in another)")
    return tuple(out)


def normalize_axis(axis: int, ndim: int) -> int:
    """A possibly negative axis as a non-negative one; AxisError if out of range."""
    try:
        ax = operator.index(axis)
    except TypeError:
        raise TypeError(f"axis must be an integer, got {type(axis).__name__}") from None
    if not -ndim <= ax < ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return ax % ndim if ndim else ax


def normalize_axes(axis: int | Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    """``None`` -> all axes; an int or a tuple of ints -> sorted, checked, unique."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
    else:
        axes = (normalize_axis(axis, ndim),)  # type: ignore[arg-type]  # checked inside
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis in {axis}")
    return tuple(sorted(axes))


def axis_argument(axis: Any, tuples: bool = True) -> Any:
    """``axis`` as NumPy's C functions take it: None, an int or (where
    ``tuples``) a tuple of them; a list, or a tuple where one axis is
    wanted (``cumsum``), is their TypeError.  Returned as it is."""
    if isinstance(axis, list) or (not tuples and isinstance(axis, tuple)):
        raise TypeError(f"{type(axis).__name__!r} object cannot be interpreted as an integer")
    return axis


def reduction_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """``normalize_axes`` as NumPy's reductions and scans read an axis (in
    C): a bool is no axis there (TypeError), where its Python functions
    (``flip``, ``moveaxis``) take True as 1."""
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    for a in items:
        if isinstance(a, (bool, np.bool_)):
            raise TypeError(f"an integer is required for the axis, got {a!r}")
    return normalize_axes(axis, ndim)


def reduce_shape(shape: Shape, axes: tuple[int, ...], keepdims: bool) -> Shape:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def reshape_shape(shape: Shape, newshape: Sequence[int]) -> Shape:
    """Target shape with at most one ``-1`` inferred; ``()`` gives a scalar.

    >>> reshape_shape((2, 6), (3, -1))
    (3, 4)
    >>> reshape_shape((1,), ())
    ()
    """
    size = math.prod(shape)
    new = []
    for d in newshape:
        try:
            new.append(operator.index(d))
        except TypeError:
            raise TypeError(f"reshape dimensions must be integers, got {d!r}") from None
    unknown = [i for i, d in enumerate(new) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"can only specify one unknown dimension (-1), got {tuple(new)}")
    if any(d < -1 for d in new):
        raise ValueError(f"negative dimension in {tuple(new)}")
    if unknown:
        known = math.prod(d for d in new if d != -1)
        if known == 0 or size % known:
            raise ValueError(_cannot_reshape(shape, size, new))
        new[unknown[0]] = size // known
    if math.prod(new) != size:
        raise ValueError(_cannot_reshape(shape, size, new))
    return tuple(new)


def _cannot_reshape(shape: Shape, size: int, new: Sequence[int]) -> str:
    """NumPy's message, or, for a compiled function's None dimension, one
    that does not quote its stand-in size (which the user never had)."""
    if sized_at_call(shape):
        return (f"cannot reshape an array whose size depends on a None dimension of a "
                f"compiled function into shape {tuple(new)}: the sizes cannot match for every "
                f"length (the size must be a multiple of the other dimensions' product)")
    return f"cannot reshape array of size {size} into shape {tuple(new)}"


def transpose_axes(ndim: int, axes: Sequence[int] | None) -> tuple[int, ...]:
    if axes is None:
        return tuple(reversed(range(ndim)))
    if len(axes) != ndim:
        raise ValueError(f"axes {tuple(axes)} don't match array of dimension {ndim}")
    norm = tuple(normalize_axis(a, ndim) for a in axes)
    if sorted(norm) != list(range(ndim)):
        raise ValueError(f"axes {tuple(axes)} are not a permutation of {ndim} dimensions")
    return norm



def _past_intp(k: int) -> None:
    """NumPy's error for an integer index past intp's range: a Python int of
    64 bits at most (up to 2**64 - 1, a uint64) fails its conversion to
    intp (OverflowError); a larger one is no integer index to NumPy at all
    (IndexError, as for a float)."""
    if abs(k) >= 2**64:
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                         f"(`None`) and integer or boolean arrays are valid indices; got "
                         f"an int of {k.bit_length()} bits")
    if k > _INTP_MAX:
        raise OverflowError("Python int too large to convert to C long")

def normalize_index(shape: Shape, index: Any) -> tuple[tuple[IndexItem, ...], Shape]:
    """Basic NumPy indexing, made concrete: (normalized items, result shape).

    Integers are bounds-checked (IndexError), ``...`` is expanded, slices get
    concrete ``(start, stop, step)`` for this shape, ``None`` adds an axis.
    Integer-array and boolean indexing are not views and are handled elsewhere.
    """
    items = index if isinstance(index, tuple) else (index,)
    n_ell = sum(1 for it in items if it is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 for it in items if it is not None and it is not Ellipsis)
    if consumed > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {consumed} were indexed")
    expanded: list[Any] = []
    for it in items:
        if it is Ellipsis:
            expanded.extend([slice(None)] * (len(shape) - consumed))
        else:
            expanded.append(it)
    if n_ell == 0:
        expanded.extend([slice(None)] * (len(shape) - consumed))
    out_items: list[IndexItem] = []
    out_shape: list[int] = []
    dim = 0
    for it in expanded:
        if it is None:
            out_items.append(("n",))
            out_shape.append(1)
            continue
        size = shape[dim]
        if isinstance(it, slice):
            start, stop, step = it.indices(size)
            out_items.append(("s", start, stop, step))
            out_shape.append(len(range(start, stop, step)))
        else:
            if isinstance(it, bool) or (hasattr(it, "dtype") and getattr(it, "dtype").kind == "b"):
                raise IndexError("boolean scalar indices are not supported in basic indexing")
            try:
                k = operator.index(it)
            except TypeError:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                                 f"(`None`) and integer or boolean arrays are valid indices; "
                                 f"got {type(it).__name__}") from None
            if not -size <= k < size:
                _past_intp(k)                      # (NumPy's conversion to intp fails first)
                raise IndexError(f"index {k} is out of bounds for axis {dim} with size {size}")
            out_items.append(("i", k % size))
        dim += 1
    return tuple(out_items), tuple(out_shape)


_GAP = object()


def advanced_index(shape: Shape, index: tuple[Any, ...],
                   arrays: Sequence[Shape]) -> tuple[tuple[IndexItem, ...], Shape]:
    """NumPy's advanced (integer-array) indexing, made concrete: (normalized
    items, result shape).

    ``index`` holds ints, slices, ``None``, at most one ``...``, and
    ``("a", j)`` for the j-th integer index array, whose shape is
    ``arrays[j]`` (boolean masks are their ``nonzero()`` arrays by now).
    The arrays and the integers broadcast together to one shape ``B``; where
    they stand next to each other, ``B`` takes their place in the result,
    and where a slice, ``None`` or ``...`` separates them, ``B`` comes first
    (NumPy's rule).  Integers are bounds-checked here; the arrays' values
    are checked by the caller or at run time.

    >>> advanced_index((3, 4, 5), (slice(None), ("a", 0), ("a", 1)), [(2,), (2,)])
    ((('s', 0, 3, 1), ('a', 0), ('a', 1)), (3, 2))
    >>> advanced_index((3, 4, 5), (("a", 0), slice(None), 1), [(2, 1)])[1]
    (2, 1, 4)
    """
    if sum(1 for it in index if it is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 for it in index if it is not None and it is not Ellipsis)
    if consumed > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {consumed} were indexed")
    fill: list[Any] = [slice(None)] * (len(shape) - consumed)
    # ``...`` separates the arrays even where it stands for no axes: a
    # ``_GAP`` there, which only takes a place (item ``("e",)``).
    expanded: list[Any] = []
    for it in index:
        expanded.extend((fill or [_GAP]) if it is Ellipsis else [it])
    if not any(it is Ellipsis for it in index):
        expanded.extend(fill)
    items: list[IndexItem] = []
    basic: list[tuple[int, int]] = []       # (position in expanded, length)
    adv_pos: list[int] = []
    adv_shapes: list[Shape] = []
    dim = 0
    for pos, it in enumerate(expanded):
        if it is _GAP:
            items.append(("e",))            # kept: re-normalizing must see the gap too
            continue
        if it is None:
            items.append(("n",))
            basic.append((pos, 1))
            continue
        size = shape[dim]
        dim += 1
        if isinstance(it, tuple):           # ("a", j): an index array
            items.append(it)
            adv_pos.append(pos)
            adv_shapes.append(tuple(arrays[it[1]]))
        elif isinstance(it, slice):
            start, stop, step = it.indices(size)
            items.append(("s", start, stop, step))
            basic.append((pos, len(range(start, stop, step))))
        else:
            k = operator.index(it)
            if not -size <= k < size:
                _past_intp(k)
                raise IndexError(f"index {k} is out of bounds for axis {dim - 1} with "
                                 f"size {size}")
            items.append(("i", k % size))
            adv_pos.append(pos)
            adv_shapes.append(())
    try:
        b = broadcast_shapes(*adv_shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         "with shapes " + " ".join(str(s) for s in adv_shapes)) from None
    # Next to each other: B where they stand; else B first.
    at = adv_pos[0] if adv_pos[-1] - adv_pos[0] == len(adv_pos) - 1 else -1
    before = [n for p, n in basic if p < at]
    return tuple(items), (*before, *b, *(n for p, n in basic if p > at))


def index_to_python(items: tuple[IndexItem, ...]) -> tuple[Any, ...]:
    """Normalized index items back to a tuple NumPy can apply."""
    return tuple(python_item(it) for it in items)


def python_item(it: IndexItem) -> Any:
    """One normalized index item back as NumPy takes it (an index array's
    ``("a", j)`` marker is left to the caller)."""
    if it[0] == "i":
        return it[1]
    if it[0] == "s":
        start, stop, step = it[1], it[2], it[3]
        # slice.indices gives -1 for "before the first element" (stop of a
        # reversed slice to the start, or start of an empty reversed slice);
        # as a Python slice -1 would mean "the last element".
        if start < 0:
            return slice(0, 0, step)
        return slice(start, None if stop < 0 else stop, step)
    if it[0] == "n":
        return None
    if it[0] == "e":
        return Ellipsis
    return it


def broadcasts_to(src: Shape, dst: Shape) -> bool:
    """Whether an array of shape ``src`` broadcasts to ``dst`` one way (``dst``
    unchanged, as ``np.broadcast_to``)."""
    try:
        return broadcast_shapes(src, dst) == dst
    except ValueError:
        return False


def fits_assignment(value: Shape, target: Shape) -> bool:
    """Whether ``a[index] = v`` takes a ``v`` of shape ``value`` where
    ``a[index]`` has shape ``target``: ``v`` broadcasts to it, after NumPy
    drops its extra leading unit axes (``a[:2] = ones((1, 2))``)."""
    extra = len(value) - len(target)
    if extra > 0:
        if any(d != 1 for d in value[:extra]):
            return False
        value = value[extra:]
    return broadcasts_to(value, target)


def compose_index(inner: tuple[IndexItem, ...], inner_shape: Shape,
                  outer: tuple[IndexItem, ...]) -> tuple[Any, ...] | None:
    """``base[i][o]`` as one index ``base[c]`` (a Python index), for the
    normalized items ``inner`` of a view whose result has ``inner_shape`` and
    ``outer`` over that result; None where new axes make it awkward.

    >>> inner = normalize_index((10,), slice(1, None))[0]
    >>> compose_index(inner, (9,), normalize_index((9,), slice(None, None, 3))[0])
    (slice(1, 8, 3),)
    >>> inner = normalize_index((5,), (None, slice(None)))[0]     # expand_dims
    >>> compose_index(inner, (1, 5), normalize_index((1, 5), (0, slice(1, 3)))[0])
    (slice(1, 3, 1),)
    """
    out: list[Any] = []
    rest = list(outer)
    for it in inner:
        if it[0] == "i":
            out.append(it[1])                # consumed by the inner view: no outer item
            continue
        if not rest:
            return None
        o = rest.pop(0)
        while o[0] == "n":                   # the outer view's new axis goes first
            out.append(None)
            if not rest:
                return None
            o = rest.pop(0)
        if it[0] == "n":                     # the inner view's new axis (length 1)
            if o[0] == "i":
                continue                     # indexed away
            if len(range(o[1], o[2], o[3])) != 1:
                return None
            out.append(None)
            continue
        start, step = it[1], it[3]
        if o[0] == "i":
            out.append(start + o[1] * step)
        else:
            count = len(range(o[1], o[2], o[3]))
            first = start + o[1] * step
            st = step * o[3]
            if count == 0:
                out.append(slice(0, 0, 1))
            else:
                last = first + (count - 1) * st
                stop = last + (1 if st > 0 else -1)
                out.append(slice(first, None if stop < 0 else stop, st))
    if any(o[0] != "n" for o in rest):
        return None
    out.extend(None for _ in rest)
    return tuple(out)


def matmul_shape(a: Shape, b: Shape) -> Shape:
    if len(a) == 0 or len(b) == 0:
        raise ValueError("matmul: scalar operands are not allowed, use '*' instead")
    a2 = (1,) + a if len(a) == 1 else a
    b2 = b + (1,) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError(f"core dimensions do not match: {a} @ {b} needs "
                         f"{a2[-1]} (last of first) == {b2[-2]} (second-to-last of second)")
    batch = broadcast_shapes(a2[:-2], b2[:-2])
    out = batch + (a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def tensordot_axes(a: Shape, b: Shape, axes: int | Sequence[Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Normalize ``axes`` as ``np.tensordot`` accepts it into two checked tuples."""
    if isinstance(axes, int):
        if axes < 0 or axes > min(len(a), len(b)):
            raise ValueError(f"axes={axes} is out of range for shapes {a} and {b}")
        ax_a = tuple(range(len(a) - axes, len(a)))
        ax_b = tuple(range(axes))
    else:
        if len(axes) != 2:
            raise ValueError("axes must be an int or a pair of sequences")
        x, y = axes
        x = (x,) if isinstance(x, int) else tuple(x)
        y = (y,) if isinstance(y, int) else tuple(y)
        if len(x) != len(y):
            raise ValueError(f"axes {x} and {y} have different lengths")
        ax_a = tuple(normalize_axis(i, len(a)) for i in x)
        ax_b = tuple(normalize_axis(i, len(b)) for i in y)
    for i, j in zip(ax_a, ax_b):
        if a[i] != b[j]:
            raise ValueError(f"shape mismatch for sum: axis {i} of {a} has {a[i]}, "
                             f"axis {j} of {b} has {b[j]}")
    return ax_a, ax_b


def tensordot_shape(a: Shape, b: Shape, ax_a: tuple[int, ...], ax_b: tuple[int, ...]) -> Shape:
    return (tuple(d for i, d in enumerate(a) if i not in ax_a)
            + tuple(d for i, d in enumerate(b) if i not in ax_b))


def concat_shape(shapes: Sequence[Shape], axis: int | None) -> Shape:
    if not shapes:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        return (sum(math.prod(s) for s in shapes),)
    ndim = len(shapes[0])
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = normalize_axis(axis, ndim)
    for s in shapes[1:]:
        if len(s) != ndim:
            raise ValueError(f"all inputs must have the same number of dimensions, "
                             f"got {shapes[0]} and {s}")
        for i in range(ndim):
            if i != ax and s[i] != shapes[0][i]:
                raise ValueError(f"all dimensions except axis {ax} must match, "
                                 f"got {shapes[0]} and {s}")
    return shapes[0][:ax] + (sum(s[ax] for s in shapes),) + shapes[0][ax + 1:]


def diagonal_shape(shape: Shape, offset: int, axis1: int, axis2: int) -> Shape:
    if len(shape) < 2:
        raise ValueError(f"diagonal needs at least 2 dimensions, got shape {shape}")
    a1, a2 = normalize_axis(axis1, len(shape)), normalize_axis(axis2, len(shape))
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    n1, n2 = shape[a1], shape[a2]
    if offset >= 0:
        n = max(0, min(n1, n2 - offset))
    else:
        n = max(0, min(n1 + offset, n2))
    rest = tuple(d for i, d in enumerate(shape) if i not in (a1, a2))
    return rest + (n,)
