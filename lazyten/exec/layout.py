"""An elementwise kernel in its operands' memory order: NumPy's ``order="K"``.

A NumPy ufunc allocates its result in the axis order its iterator chose from
the operands' strides, so ``a.T * 2`` is Fortran-ordered and every operand
is read, and the result written, in memory order.  A kernel whose operands
are transposed or Fortran-ordered runs the same way here: on the operands'
axes permuted into that order (C-contiguous, so the compiled loops and the
blocked loop take them as they take C arrays), into its buffer laid out in
that order, and hands back the permuted view of it, with NumPy's strides.
Read in C order instead, ``a.T * 2 + 1`` took 2.3x NumPy's time (each read
a stride of a whole row) and gave a C-ordered result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..graph.layout import (a_order, copies_in_k_order, dense_layout, keep_order,
                            layout_stand_in, memory_order, rounds_in_a_order)
from ..graph.ops import REGISTRY
from ..graph.passes.fuse import ARG_REDUCTIONS



@dataclass(frozen=True)
class Moved:
    """A kernel's run in its operands' memory order: the operands and the
    array it writes (``into``) with their axes in that order, the permuted
    element shape and reduction, and the result as the caller sees it."""
    args: list[Any]
    into: np.ndarray[Any, Any]
    axes: tuple[int, ...]         # the kernel's axes, outer to inner in memory
    shape: tuple[int, ...]
    reduce: Any
    result: np.ndarray[Any, Any]


def in_memory_order(args: list[Any], out: np.ndarray[Any, Any] | None, shape: tuple[int, ...],
                    reduce: Any, out_shape: tuple[int, ...], dtype: np.dtype[Any],
                    fresh: bool, probe: int, axes: tuple[int, ...] | None) -> Moved | None:
    """The kernel over ``shape`` (reducing as ``reduce`` says, if not None)
    run in the memory order ``axes`` of NumPy's elementwise result
    (``program_order``; outer to inner), or None where that is C or ``out``
    cannot be laid out so.

    ``out`` None: a new result, which owns its memory as NumPy's does
    (``np.empty_like`` of the operand ``probe`` where that one is laid out
    so; a negative ``probe``: no operand has the result's shape).
    ``fresh``: ``out`` is a dead C-contiguous buffer no operand reads, whose
    memory may take any layout; otherwise (an operand's buffer, the caller's
    ``out``) only an ``out`` already in that order is taken.

    A reduction adds up, as NumPy does, in the memory order of the value it
    reduces (NumPy's elementwise result, laid out as above): a sum over all
    axes pairwise over that memory, one over the axes that are innermost
    there pairwise per row.  Its result is laid out with the kept axes in
    that order too, as NumPy's, where new or ``fresh`` (a given ``out``
    keeps its layout); ``into`` is a view of it with the kept axes permuted.  A scan's
    result is laid out as an elementwise one's.
    """
    if reduce is not None and reduce[0] in ARG_REDUCTIONS:
        return None      # (its indices count in C order)
    if axes is None:
        return None
    moved_shape = tuple(shape[a] for a in axes)
    back = tuple(int(i) for i in np.argsort(axes))
    moved_scan = None
    if reduce is not None and REGISTRY[reduce[0]].kind == "scan":
        # A scan's result is laid out as an elementwise one; each lane's
        # chain along the scan's axis (permuted with the others) is the same.
        attrs = dict(reduce[1])
        attrs["axis"] = axes.index(attrs["axis"])
        moved_scan = (reduce[0], tuple(attrs.items()))
    elif reduce is not None:
        attrs = dict(reduce[1])
        reduced = set(attrs["axis"])
        attrs["axis"] = tuple(sorted(axes.index(a) for a in reduced))
        moved_reduce = (reduce[0], tuple(attrs.items()))
        if attrs.get("keepdims"):
            order = list(axes)
        else:
            kept = [a for a in range(len(shape)) if a not in reduced]
            order = [kept.index(a) for a in axes if a not in reduced]
        # NumPy's result is laid out with its axes in the operands' memory
        # order (the iterator allocates it: ``(x.T * 1).sum(axis=0)`` of a C
        # ``x`` is F), where new or in a dead buffer; a given ``out`` as is
        inner = tuple(out_shape[k] for k in order)
        back_r = tuple(int(i) for i in np.argsort(order))
        if out is None:
            result = np.empty(inner, dtype).transpose(back_r)
        elif fresh and out.flags.c_contiguous:
            result = out.reshape(-1).reshape(inner).transpose(back_r)
        else:
            result = out
        into = result.transpose(order)
        return Moved(_moved(args, axes, len(shape)), into, axes, moved_shape, moved_reduce,
                     result)
    if out is None:
        # (a negative probe: every operand broadcast, none of the result's shape)
        result = np.empty_like(args[probe], dtype=dtype, order="K") if probe >= 0 \
            else np.empty(shape, dtype)
        into = result.transpose(axes)
        if not into.flags.c_contiguous:           # the probe is not laid out so
            into = np.empty(moved_shape, dtype)
            result = into.transpose(back)
    elif fresh and out.flags.c_contiguous:
        into = out.reshape(-1).reshape(moved_shape)
        result = into.transpose(back)
    else:
        into = out.transpose(axes)
        if not into.flags.c_contiguous:
            return None
        result = out
    return Moved(_moved(args, axes, len(shape)), into, axes, moved_shape, moved_scan, result)


def program_order(program: Any, args: list[Any]) -> tuple[int, ...] | None:
    """The order of the axes (outer to inner; None: C) of NumPy's result of
    the kernel's elementwise ``program`` run op by op on ``args``: each
    instruction's result laid out by its own rule from its operands' layouts
    (a stand-in's strides), as ``graph.layout.infer`` does over the graph.

    ``memory_order`` over all the operands at once is not that where they
    disagree (``np.conj(row_broadcast) + f`` with a Fortran-ordered ``f``:
    the broadcast's result is C, which disagrees with ``f``'s F, so NumPy's
    sum is C; all at once, the broadcast has no say and ``f``'s F wins),
    nor across an ``astype``, which copies in "K" order (``keep_order``:
    ``np.broadcast_to(b, (4, 3, 3)).astype(int)`` has its broadcast axes
    innermost, strides (24, 8, 96), a ufunc's result over it is C).  A float
    sum over the result adds in that order: a last bit of ``std`` differed."""
    temps: list[np.ndarray[Any, Any]] = []
    axes: tuple[int, ...] | None = None
    for name, refs, attrs, dt in program:
        operands = [a for a in (args[r] if r >= 0 else temps[-1 - r] for r in refs)
                    if isinstance(a, np.ndarray) and a.ndim]
        shape = np.broadcast_shapes(*(a.shape for a in operands))
        if copies_in_k_order(name, dict(attrs)):
            axes = keep_order(operands[0]) if operands else None
        elif rounds_in_a_order(name, dict(attrs), dt):
            axes = a_order(operands[0]) if operands else None
        else:
            axes = memory_order(operands, shape)
        temps.append(layout_stand_in(shape, np.dtype(dt),
                                     dense_layout(shape, np.dtype(dt).itemsize, axes)))
    return axes


def _moved(args: list[Any], axes: tuple[int, ...], nd: int) -> list[Any]:
    """The operands broadcast to ``nd`` axes (leading length-1 ones added:
    a view) and permuted to ``axes``; scalars as they are."""
    return [a.reshape((1,) * (nd - a.ndim) + a.shape).transpose(axes)
            if isinstance(a, np.ndarray) and a.ndim else a for a in args]
