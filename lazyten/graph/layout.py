"""Memory layouts: NumPy's rules for where a result's elements lie, and
their inference over the graph before anything runs.

NumPy decides a result's layout from its operands' (``x.T * 2`` is
Fortran-ordered, a reduction keeps its axes in the operand's memory order,
``astype`` and ``sort`` copy in "K" order), and the layout decides NumPy's
answers beyond values: whether a reshape is a view (so a write through it
reaches the base), ``ravel("K")``'s element order, the ``*_like`` functions'
layouts, the order a float sum adds in.  ``infer`` gives a node's layout
from its operands' by those rules without computing it, where they are
known (a user's array, a cached value, a write's declared order, a
creation's C), and remembers it on the node (``Node.layout``).  The
executor's kernels follow the same rule at run time (``exec.layout``,
``memory_order``).

A layout is "C", "F", or a tuple of strides (a dense block of permuted axes,
or a user's strided or broadcast array's).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from . import ops
from .node import STRUCTURE_LOCK, Node

# The layout ``write_order`` gives: "C", "F", or strides.
Layout = str | tuple[int, ...]


def memory_order(args: list[Any], shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """The axes of ``shape``, outer to inner, in the order NumPy's iterator
    gives a ufunc's result on these operands (broadcast to ``shape``); None
    for C order.

    NumPy's ``npyiter_find_best_axis_ordering``: a stable insertion sort of
    the axes by stride, innermost first, where each pair of axes is decided
    by the operands with a nonzero stride on both (a broadcast or length-1
    axis has none), and operands that disagree leave the pair in C order.

    >>> a = np.zeros((3, 4))
    >>> memory_order([a.T, 2.0], (4, 3)), memory_order([a.T, a.T], (4, 3))
    ((1, 0), (1, 0))
    >>> memory_order([a.T, np.zeros((4, 3))], (4, 3)) is None   # they disagree: C
    True
    """
    nd = len(shape)
    keys: list[list[int | None]] = []
    for a in args:
        if isinstance(a, np.ndarray) and a.ndim:
            # (innermost first, so a stride's key is its negation; a length-1
            # or broadcast axis has no say)
            key: list[int | None] = [None] * (nd - a.ndim)
            keys.append(key + [None if d == 1 or not st else -abs(st)
                               for d, st in zip(a.shape, a.strides)])
    perm = _sorted_axes(keys, list(range(nd - 1, -1, -1)))
    order = tuple(reversed(perm))
    return None if order == tuple(range(nd)) else order


def _sorted_axes(keys: Sequence[Sequence[int | None]], perm: list[int]) -> list[int]:
    """``perm`` sorted by NumPy's stable insertion sort of axes (its
    iterator's ``npyiter_find_best_axis_ordering``, and in the other
    direction ``PyArray_CreateMultiSortedStridePerm``): a pair of axes is
    decided by the operands with a key on both (None: no say), the later
    axis moving ahead only where its key is the smaller for every operand
    that has a say; where they disagree, the pair stays as it was (C order
    wins a conflict)."""
    for i0 in range(1, len(perm)):
        ax0 = perm[i0]
        pos = i0
        for i1 in range(i0 - 1, -1, -1):
            ax1 = perm[i1]
            ambiguous, swap = True, False
            for k in keys:
                a, b = k[ax0], k[ax1]
                if a is not None and b is not None:
                    if a <= b:
                        swap = False             # C order wins a conflict
                    elif ambiguous:
                        swap = True
                    ambiguous = False
            if ambiguous:
                continue
            if not swap:
                break
            pos = i1
        if pos != i0:
            perm.insert(pos, perm.pop(i0))
    return perm


def dense_layout(shape: tuple[int, ...], itemsize: int,
                 axes: Sequence[int] | None) -> str | tuple[int, ...]:
    """The layout of a new array of ``shape`` with its axes in memory in the
    order ``axes`` (outer to inner; None: C): "C", "F" or its strides; an
    empty one's strides are all 0, as NumPy allocates it (``np.empty((3,
    0)).strides``), which orders the axes of results over it as C (a
    reduction over its empty axis, a copy of its transpose)."""
    nd = len(shape)
    if nd >= 2 and 0 in shape:
        return (0,) * nd
    if axes is None or nd < 2 or list(axes) == list(range(nd)):
        return "C"
    if list(axes) == list(range(nd - 1, -1, -1)):
        return "F"
    dense = [0] * nd
    step = itemsize
    for k in reversed(axes):
        dense[k] = step
        step *= shape[k]
    return tuple(dense)


def copies_in_k_order(name: str, attrs: Mapping[str, Any]) -> bool:
    """Whether the elementwise op ``name`` lays its result out as NumPy's
    "K" copy of its operand (``keep_order``: ``astype``), not by its
    iterator's rule over its operands (``memory_order``: the ufuncs, and
    a ufunc's own cast, ``astype`` with ``ufunc``: ``clip``'s)."""
    return name == "astype" and not attrs.get("ufunc")


def rounds_in_a_order(name: str, attrs: Mapping[str, Any], dtype: Any) -> bool:
    """Whether the elementwise op ``name`` lays its result out as NumPy's
    ``round`` with ``decimals`` does, a new array in "A" order (``a_order``:
    ``PyArray_Round`` of floats, ``np.round(x.transpose(2, 0, 1), 1)`` is
    C, and of integers to tens and more), not by its ufuncs' rule
    (``rint``, ``decimals=0``, keeps the operand's order; integers to
    ``decimals >= 0`` are a "K" copy, and so are complex arrays, whose
    parts are rounded into it)."""
    decimals, kind = attrs.get("decimals", 0), np.dtype(dtype).kind
    return name == "round" and (kind == "f" and decimals != 0 or kind in "iu" and decimals < 0)


def a_order(v: np.ndarray[Any, Any]) -> tuple[int, ...] | None:
    """The order of the axes (outer to inner; None: C) of NumPy's new array
    "like" ``v`` in order "A": Fortran where ``v`` is Fortran- and not
    C-contiguous, else C."""
    if v.ndim > 1 and v.flags.f_contiguous and not v.flags.c_contiguous:
        return tuple(range(v.ndim - 1, -1, -1))
    return None


def keep_order(v: np.ndarray[Any, Any]) -> tuple[int, ...] | None:
    """The order of the axes (outer to inner; None: C) of NumPy's new array
    "like" ``v`` in order "K" (``copy(order="K")``, ``empty_like``): C or F
    where ``v`` is contiguous so, else its axes by their strides, largest
    first, every axis (broadcast and length-1 ones too), a stable sort
    (``PyArray_CreateSortedStridePerm``)."""
    if v.ndim < 2 or v.flags.c_contiguous:
        return None
    if v.flags.f_contiguous:
        return tuple(range(v.ndim - 1, -1, -1))
    return tuple(sorted(range(v.ndim), key=lambda k: -abs(v.strides[k])))


def join_order(arrays: Sequence[np.ndarray[Any, Any]]) -> tuple[int, ...] | None:
    """The order of the axes (outer to inner; None: C) of NumPy's
    ``concatenate`` of ``arrays`` (of one number of axes) along any axis.

    NumPy's ``PyArray_CreateMultiSortedStridePerm``: a stable insertion
    sort of the axes, largest stride first, where each pair of axes is
    decided by the arrays longer than 1 on both (a broadcast axis's stride
    0 votes too, unlike a ufunc's iterator: ``memory_order``), and arrays
    that disagree leave the pair in C order.

    >>> a = np.zeros((3, 4))
    >>> join_order([a.T, a.T]), join_order([a.T, np.zeros((4, 3))]) is None
    ((1, 0), True)
    """
    nd = arrays[0].ndim if arrays else 0
    perm = _sorted_axes([[None if d == 1 else abs(st) for d, st in zip(v.shape, v.strides)]
                         for v in arrays], list(range(nd)))
    order = tuple(perm)
    return None if order == tuple(range(nd)) else order


def row_major(v: np.ndarray[Any, Any]) -> bool:
    """Whether ``v``'s axes lie in memory in C order (contiguous or not: a
    slice with steps, a reversed axis): NumPy's results over it are C."""
    steps = [abs(st) for st, d in zip(v.strides, v.shape) if d > 1]
    return all(a >= b for a, b in zip(steps, steps[1:]))


def empty(shape: tuple[int, ...], dtype: Any, layout: Layout) -> np.ndarray[Any, Any]:
    """A new array of ``shape`` laid out as ``layout``: "C", "F", or the
    strides of a dense block (``dense_layout``'s; a view of a new buffer)."""
    if isinstance(layout, tuple):
        return np.lib.stride_tricks.as_strided(np.empty(max(math.prod(shape), 1), dtype),
                                               shape, layout, writeable=True)
    return np.empty(shape, dtype, order="F" if layout == "F" else "C")


def relaid(v: np.ndarray[Any, Any], layout: Layout) -> np.ndarray[Any, Any]:
    """``v`` itself where it is laid out as ``layout`` already (or that is
    no layout a new array takes: a strided one's), else a copy laid out so."""
    if v.ndim < 2 or not v.size or array_layout(v) == layout \
            or not is_dense(layout, v.shape, v.itemsize):
        return v
    out = empty(v.shape, v.dtype, layout)
    np.copyto(out, v)
    return out


def copied(v: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A new array of ``v``'s values in its memory order (NumPy's "K" copy),
    but C where ``v`` is a broadcast (a zero stride on an axis longer than
    1; a length-1 axis's stride is no broadcast): NumPy's new arrays over
    one (``tile``, ``b.copy()``) are C, where a "K" copy of a broadcast row
    is F."""
    broadcast = any(st == 0 and d > 1 for st, d in zip(v.strides, v.shape))
    return np.array(v, copy=True, order="C" if broadcast else "K")


def layout_stand_in(shape: tuple[int, ...], dt: np.dtype[Any], order: str | tuple[int, ...],
                    writeable: bool = False) -> np.ndarray[Any, Any]:
    """An array of ``shape`` in the layout ``order`` (a ``write_order``): an
    ``as_strided`` over one element, whose strides NumPy reads and whose
    memory nothing touches (nor writes: ``writeable`` only lets NumPy's
    checks of writeability pass)."""
    if isinstance(order, tuple):
        strides = order
    else:
        dims = shape if order == "C" else shape[::-1]
        strides = tuple(math.prod(dims[k + 1:]) * dt.itemsize for k in range(len(dims)))
        if order != "C":
            strides = strides[::-1]
    return np.lib.stride_tricks.as_strided(np.empty(1, dt), shape, strides,
                                           writeable=writeable)


def replay_views(base: np.ndarray[Any, Any], steps: Iterable[tuple[str, Any]]
                 ) -> np.ndarray[Any, Any] | None:
    """``base`` with the view ``steps`` (op name, attrs items; oldest first)
    applied by the registry's own view functions (NumPy views: nothing is
    copied or read); None where a step would copy (a reshape NumPy cannot
    do as a view of this layout, an element: a NumPy scalar)."""
    v = base
    for name, attrs in steps:
        a = dict(attrs)
        if name == "reshape":
            try:
                v = np.reshape(v, a["shape"], copy=False)
            except ValueError:
                return None
        else:
            v = ops.REGISTRY[name].impl(v, **a)
            if not isinstance(v, np.ndarray):
                return None
    return v


# How many nodes ``infer`` looks at: past them a chain of pending writes
# is taken as laid out as it was decided, an elementwise result as unknown.
_WALK = 64


def is_dense(layout: Layout, shape: tuple[int, ...], itemsize: int) -> bool:
    """Whether ``layout`` is one a new array has ("C", "F", or the strides
    of a dense block: a permutation's), not a user's strided or broadcast
    array's strides, which no copy takes."""
    if not isinstance(layout, tuple):
        return True
    step = itemsize
    for k in sorted(range(len(shape)), key=lambda k: abs(layout[k])):
        if shape[k] > 1 and layout[k] != step:     # (a reversed axis: no)
            return False
        step *= max(shape[k], 1)
    return True


def array_layout(v: Any) -> Layout:
    """The layout of the array ``v`` as it is: "C", "F", or its strides (an
    empty one by its strides, which order NumPy's results over it); an
    ``@lt.jit`` argument's, part of the trace's signature."""
    if not isinstance(v, np.ndarray) or (v.flags.c_contiguous and v.size):
        return "C"
    if not v.size:
        # (NumPy calls every empty array contiguous, and orders the axes of
        # results over it by its strides all the same: its own strides, which
        # may be all 0, ``np.zeros((0, 4, 3))``'s, whose transpose is then C
        # to NumPy where a C array's strides would make it F)
        if v.ndim < 2 or v.strides == layout_stand_in(v.shape, v.dtype, "C").strides:
            return "C"
        return v.strides
    return "F" if v.flags.f_contiguous else v.strides


def infer(n: Node, budget: list[int] | None = None) -> tuple[Layout, bool]:
    """The layout of ``n``'s data, and whether it is known (not C taken).

    Writes copy their base as it is laid out (``setitem``, ``scatter``, a
    ``view_update`` without ``order``: NumPy's ``np.array(base, order="K")``,
    or in place in its buffer), so their layout is their base's.  Known: a
    value's (a user's array, a cached result), a write's declared order, a
    creation's, a matrix product's or one of fewer than two dimensions (C),
    an elementwise result's by its operands' (``_elementwise_layout``),
    a view's of a known layout (a copy's root node may be one:
    ``np.copy(t.T)``).  Any other computed result's is NumPy's, known when
    it runs (``x.T * 2`` is Fortran-ordered).  ``_WALK`` nodes are
    looked at, at most; a layout once known is remembered on its node
    (``Node.layout``), where the walks stop."""
    if n.layout is not None:
        return n.layout, True
    if budget is None:
        # (a walk reads nodes' inputs, which another thread caching one of
        # them drops: the walk is whole under the structure lock)
        with STRUCTURE_LOCK:
            return infer(n, [_WALK])
    layout = _walk_layout(n, budget)
    if layout[1]:
        n.layout = layout[0]
    return layout


def _walk_layout(n: Node, budget: list[int]) -> tuple[Layout, bool]:
    m = _through_writes(n, budget)
    if m.layout is not None:
        return m.layout, True
    if m.value is not None:
        return array_layout(m.value), True
    if m.op.name == "view_update" and "order" in m.attrs:
        o = m.attrs["order"]
        return (o if isinstance(o, tuple) else "F" if o == "F" else "C"), True
    if budget[0] <= 0:
        return "C", False                    # (past the walk: to be settled)
    if len(m.shape) < 2:
        return "C", True
    kind = m.op.kind
    if len(m.shape) > 1 and copies_in_k_order(m.op.name, m.attrs):
        # (NumPy's astype copies in "K" order: broadcast axes innermost,
        # not a ufunc's C; ``keep_order``)
        v, known = _operand_stand_in(m.inputs[0], budget)
        if not known or v is None:
            return "C", False
        return _new_layout(keep_order(v), m), True
    if len(m.shape) > 1 and rounds_in_a_order(m.op.name, m.attrs, m.dtype):
        v, known = _operand_stand_in(m.inputs[0], budget)
        if not known or v is None:
            return "C", False
        return _new_layout(a_order(v), m), True
    if kind == "elementwise":
        return _elementwise_layout(m, budget)
    if kind == "reduction" and m.op.name not in ("argmin", "argmax"):
        return _reduction_layout(m, budget)
    if kind == "scan":
        # (NumPy's sort copies its operand in "K" order and sorts it in place,
        # a cumulative sum allocates as a ufunc does; argsort's indices are a
        # new C array; tril/triu are a ``where`` with a C mask of the last
        # two axes, whose vote is not an input here: learnt by running)
        if m.op.name == "argsort":
            return "C", True
        if m.op.name == "sort":
            v, known = _operand_stand_in(m.inputs[0], budget)
            if not known or v is None:
                return "C", False
            return _new_layout(keep_order(v), m), True
        if m.op.name in ("cumulative_sum", "cumulative_prod"):
            return _elementwise_layout(m, budget, m.inputs[:1])
    if kind == "view" and m.op.view_of is not None:
        return _view_layout(m, budget)
    if m.op.name == "take" and not m.attrs.get("indexing"):
        return "C", True                     # (np.take's result: a new C array)
    if m.op.name == "concat" and m.attrs["axis"] is not None:
        # (NumPy's concatenate: its operands' axes by their strides,
        # ``join_order``; the executor's join buffer takes the same)
        operands = []
        for i in m.inputs:
            v, known = _operand_stand_in(i, budget)
            if not known or v is None:
                return "C", False
            operands.append(v)
        return _new_layout(join_order(operands), m), True
    if m.op.name == "layout_copy" and (m.attrs["order"] in ("C", "F")
                                       or isinstance(m.attrs["order"], tuple)):
        return m.attrs["order"], True
    # (NumPy's matrix products are C whatever their operands' layouts; a
    # placeholder's data is a call's, known then)
    return "C", (kind in ("source", "creation", "update") and m.op.name != "placeholder"
                 or m.op.name in ("matmul", "dot"))


def _view_layout(m: Node, budget: list[int]) -> tuple[Layout, bool]:
    """A chain of views' layout (of NumPy's copy of it: ``_copy_layout``):
    its steps replayed on a stand-in of its base's (a reshape that copies:
    C, NumPy's copy)."""
    v, known = _view_stand_in(m, budget)
    return ("C" if v is None else _copy_layout(v)), known


def _view_stand_in(m: Node, budget: list[int]) -> tuple[np.ndarray[Any, Any] | None, bool]:
    """The chain of views ``m`` replayed on a stand-in of its base's layout:
    an array with the view's own strides, and whether the base's layout is
    known.  A reshape in it that copies (NumPy's copy, C: the nodes of
    ``x.reshape(s, order="F")`` are a transpose of such a copy) starts a C
    stand-in the later steps replay on; None past the budget."""
    chain = []
    b = m
    while b.value is None and b.op.kind == "view" and b.op.view_of is not None:
        budget[0] -= 1
        if budget[0] <= 0:
            return None, False
        chain.append(b)
        b = b.inputs[b.op.view_of]
    order, known = infer(b, budget)
    v = layout_stand_in(b.shape, b.dtype, order)
    for n in reversed(chain):
        w = replay_views(v, ((n.op.name, tuple(n.attrs.items())),))
        v = layout_stand_in(n.shape, n.dtype, "C") if w is None else w
    return v, known


def _copy_layout(v: np.ndarray[Any, Any]) -> Layout:
    """The layout of NumPy's copy of ``v`` in its memory order ("K"): its
    axes by their strides, densely (a transpose of C data: "F"); C where a
    stride is 0 (a broadcast) and NumPy's order is its own."""
    strides = v.strides
    if v.ndim < 2 or v.flags.c_contiguous:
        return "C"
    if v.flags.f_contiguous:
        return "F"
    if 0 in strides:
        return "C"
    return dense_layout(v.shape, v.itemsize,
                          sorted(range(v.ndim), key=lambda k: -abs(strides[k])))


def _through_writes(n: Node, budget: list[int]) -> Node:
    """``n``, or the base whose layout its pending writes keep (or a write
    whose layout is known already)."""
    while (n.value is None and n.layout is None and n.op.kind == "update"
           and "order" not in n.attrs and n.inputs and budget[0] > 0):
        budget[0] -= 1
        n = n.inputs[0]
    return n


def _elementwise_layout(n: Node, budget: list[int],
                        operands: tuple[Node, ...] | None = None) -> tuple[Layout, bool]:
    """The layout of the elementwise ``n``'s result from its operands'
    (``operands``, or all its inputs) known layouts, by NumPy's iterator
    rule (``exec.layout.memory_order``: ``x.T * 2`` of a C ``x`` is F,
    ``A + A.T`` C), which the executor's kernels follow; not known where
    an operand's is not.  Operands are looked at out of ``budget`` (each a
    step of this recursion)."""
    stand_ins = []       # (views')
    known_layouts: list[tuple[Node, Layout]] = []
    for i in n.inputs if operands is None else operands:
        if len(i.shape) < 2:
            continue                         # (no say over two axes)
        budget[0] -= 1
        if budget[0] <= 0:
            return "C", False
        if i.value is None and i.op.kind == "view" and i.op.view_of is not None:
            # (a view's own strides, a broadcast's zeros among them, not the
            # layout of a copy of it, which ``infer`` gives)
            v, known = _view_stand_in(i, budget)
            if not known or v is None:
                return "C", False
            stand_ins.append(v)
            continue
        lay, known = infer(i, budget)
        if not known:
            return "C", False
        known_layouts.append((i, lay))
    if not stand_ins and all(lay == "C" for _, lay in known_layouts):
        # (C operands, some broadcast, vote for C on every pair of axes they
        # span: the common case, without stand-ins, which cost 5 us each;
        # the order of the votes does not matter)
        return _new_layout(None, n), True
    stand_ins += [layout_stand_in(i.shape, i.dtype, lay) for i, lay in known_layouts]
    return _new_layout(memory_order(stand_ins, n.shape), n), True


def _reduction_layout(n: Node, budget: list[int]) -> tuple[Layout, bool]:
    """A reduction's layout from its operand's: NumPy's iterator allocates
    it with the kept axes in the operand's memory order (``(x.T * 1).sum(0)``
    of a C ``x`` is F; the fused kernels do the same:
    ``exec.layout.in_memory_order``)."""
    (i,) = n.inputs[:1]
    if not i.size and n.op.name in ("std", "var"):
        # (NumPy's var reduces ``x - x.mean()``, a new array, whose strides
        # are all 0 where it is empty: C; a ``dense_layout``)
        return "C", True
    v, known = _operand_stand_in(i, budget)
    if not known or v is None or n.attrs.get("axis") is None:
        return "C", False
    axes = memory_order([v], i.shape)
    if axes is None:
        return "C", True
    reduced = set(n.attrs["axis"])
    if n.attrs.get("keepdims"):
        return _new_layout(axes, n), True
    kept = [a for a in range(i.ndim) if a not in reduced]
    return _new_layout(tuple(kept.index(a) for a in axes if a not in reduced), n), True


def _operand_stand_in(i: Node, budget: list[int]) -> tuple[np.ndarray[Any, Any] | None, bool]:
    """An array laid out as the operand ``i``'s data (a view's own strides,
    not a copy's layout), and whether that is known; None past the budget."""
    budget[0] -= 1
    if budget[0] <= 0:
        return None, False
    if i.value is None and i.op.kind == "view" and i.op.view_of is not None:
        v, known = _view_stand_in(i, budget)
        return (layout_stand_in(i.shape, i.dtype, "C") if v is None else v), known
    lay, known = infer(i, budget)
    return layout_stand_in(i.shape, i.dtype, lay), known


def _new_layout(axes: Sequence[int] | None, n: Node) -> Layout:
    """A new array of ``n``'s shape and dtype, its axes in memory in the
    order ``axes`` (``dense_layout``)."""
    return dense_layout(n.shape, n.dtype.itemsize, axes)


def layout_known(n: Node) -> bool:
    """Whether ``write_order(n)`` is the layout of ``n``'s data, not C taken
    for a computed result not yet run (``infer``)."""
    return infer(n)[1]


def write_order(n: Node) -> Layout:
    """The memory layout of the data that a write through views of the root
    ``n`` runs on, which decides whether a reshape among those views is a
    view (NumPy decides by the memory layout): "C", "F", or the strides of
    a user's array that is neither (a slice with steps, a reversed or a
    broadcast array, whose ``reshape(-1)`` NumPy copies).

    Writes keep the layout of the array written to, as NumPy's in-place
    writes do (``infer``), so this is the layout of the user's array or
    the cached result under ``n``'s writes, where that array is
    Fortran-ordered (a ``pandas`` frame's ``.values``,
    ``np.asfortranarray``, ``x.T * 2`` computed) or strided; any other data
    is taken as C-ordered, computed values not yet run included: their
    layout (NumPy's) is known only when they run, and a write through a
    reshape of one settles it first (``_copy_link``).

    A write to a root of another layout than "C" makes its new node a
    ``view_update`` with that ``order`` (``Tensor._write``), so the walk
    stops there.
    """
    return infer(n)[0]
