"""Fused kernels as compiled loops (numba): one pass over memory, NumPy's bits.

The blocked NumPy loop still writes each instruction's block to a scratch
buffer and reads it back; for a reduction such as ``sum(a*b + c)`` that is
three ufunc calls and three cache round trips per block.  A compiled loop
reads each input element once, computes the expression in registers and
accumulates it, so the kernel costs little more than reading its inputs.

Only where the loop gives NumPy's exact result:

* values float32 and float64, and bools as the results of comparisons, their
  logic and ``where``'s condition; every operand is cast to the dtype of
  NumPy's loop for the instruction first (the result dtype, or for a
  comparison the operands' common dtype), as NumPy's ufuncs cast.  Kernel
  inputs may also be integers or bools where an instruction casts them to
  a float so (``INTS``); no instruction computes an integer;
* only ops whose scalar form is IEEE-exact: the registry's ``loop`` templates
  (``+ - * /``, negation, square, abs, sqrt, NumPy's maximum/minimum,
  comparisons, logic on bools, ``where``, float casts), never a libm
  function (NumPy's SIMD sin/exp differ from libm's in the last bits);
* no fast-math: LLVM neither reassociates nor contracts ``a*b + c`` to an FMA;
* a sum over all axes is NumPy's own pairwise summation (``pairwise_sum`` in
  NumPy's ``loops_utils.h``: eight accumulators over blocks of at most 128,
  halves split at multiples of 8), replayed exactly, on ``0.0 +`` that, as
  ``np.add.reduce`` starts from the identity.  Threads take subtrees of that
  same split, so the bits do not depend on the number of threads.  A sum
  over trailing axes is one such pairwise sum per row; over leading axes,
  rows are added one after the other into the result, from 0.0 (threads
  take rows or columns: each result element is one thread's).  A sum of
  bools (``sum(x > 0.5)``, ``count_nonzero``, a mask's mean) is a count into
  an int64 accumulator in the same loops: integers add exactly in any order;
* a product is NumPy's too: ``multiply.reduce`` has no pairwise form and
  multiplies one element after the other from 1, over every axis (so on
  one thread), along each row, or row after row into the result.

Inputs must be full-size (read in C order: contiguous, or 1-d with any
stride), single elements, or broadcast along the leading or the trailing
axes, or, elementwise over 3 or 4 axes, along any of them ("ewn", see
``LoopForm``).  An elementwise loop also reads full-size operands that are
strided views of a contiguous array, as slices of one grid are
(``u[:-2, 1:-1] + u[2:, 1:-1]``: "grid" operands, ``grid_kinds``), by rows
of their own strides; anything else runs on the kernel's NumPy fallback.
A loop warns and raises nothing itself, but it raises the CPU's
floating-point flags, which ``_in_turn`` reads on each thread (``fpflags``):
``Kernel.run`` runs NumPy again where ``np.errstate`` heeds one, for NumPy's
own warnings or errors.

A kernel with ops that have no such loop can still be a mixed kernel
(``MixedForm``): NumPy's ufuncs for those ops and what they read, then one
compiled elementwise loop for the rest, on each block of the blocked loop.

Compiling takes about a second, so in ``backend="auto"`` a kernel's loop is
compiled once the same loop has run ``HOT_RUNS`` times in this process and
its NumPy fallback's runs (timed) have taken ``COMPILE_SHARE`` of the time
compiling is expected to take (``expected_compile_seconds``); the runs
before use the fallback.  ``backend="loop"`` compiles it at its first run.
The generated source is written to ``<cache dir>/loops/`` and numba caches
the machine code beside it, so another process loads a loop it
has compiled before instead of compiling it (importing and initializing
numba takes most of that: 0.3-0.5 s here).  numba is imported only then.
Where the cache directory cannot be written, loops go to one temporary
directory of the process, removed at exit, with a warning (``_load``); a
generated module found garbled is written again, and numba's cache files of
a loop that fail to load are deleted and the loop compiled again, once
(``_fresh``), so that one bad file does not turn the loop off in every
later process.
"""

from __future__ import annotations

import atexit
import glob
import hashlib
import importlib.util
import math
import os
import shutil
import sys
import tempfile
import threading
import time
import types
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..graph.node import Node
from ..graph.ops import REGISTRY
from ..graph.passes.fuse import Instr
from . import fpflags
from .cost import cache_dir
from .numpy_backend import PW_BLOCKSIZE, Prepared, TailCall, combine_splits, splits, spread

FLOATS = frozenset({np.dtype(np.float32), np.dtype(np.float64)})
BOOL = np.dtype(np.bool_)
VALUE_DTYPES = FLOATS | {BOOL}      # the values a loop computes
# Kernel inputs a loop also reads, but only where an instruction casts them
# to a float, as NumPy's float loop for it does (int64 + float64 is the
# float64 loop): IEEE 754 rounds an integer to a float correctly, in NumPy's
# C casts and in LLVM's alike.  Integer arithmetic has no loop.
INTS = frozenset(np.dtype(c) for c in "bhilqBHILQ")
CASTABLE = FLOATS | INTS | {BOOL}
COMPARE = frozenset({"less", "less_equal", "greater", "greater_equal", "equal",
                     "not_equal"})
# On bools only (``&``, ``|``, ``^``, ``~`` of comparisons are the bitwise ops).
LOGICAL = frozenset({"logical_and", "logical_or", "logical_xor", "logical_not",
                     "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert"})
MAX_OPS = 48          # the pairwise leaf writes each instruction 8 times
HOT_RUNS = 2          # runs of one loop, at least, before "auto" compiles it
# ... and the share of the expected compile time its NumPy fallback must
# have taken by then.  A kernel of 100,000 elements (0.6 ms a run on its
# fallback, 0.1 ms compiled) stalled a second at its second run: it now
# compiles once its runs have taken a quarter of that (a rent-or-buy rule:
# the stall is at most 4x the time the kernel has already taken, and a
# kernel that keeps running pays for it), sooner where the loop is in the
# disk cache; W1 (150 ms a run) still compiles at run 2.  Measured here:
# importing and starting numba 0.23 + 0.12 s once a process, a fresh
# compile 0.16-1.0 s a loop, a load from numba's cache 4-6 ms.
COMPILE_SHARE = 0.25
START_SECONDS = 0.35
COMPILE_SECONDS = 0.6
LOAD_SECONDS = 0.01
SPLIT_MIN = 1 << 16   # elements per part, at least, when splitting a loop
# Parts per thread, at most, that a split loop's threads take in turn
# (``numpy_backend.spread``): with one part each, a thread that started late
# made the whole loop wait for its part.
PARTS_PER_THREAD = 8
# "auto" considers a loop only for kernels of this many elements or more:
# smaller ones take microseconds on any backend, and compiling the loop (about
# a second) would take millions of runs to pay back.
AUTO_MIN = 1 << 16
_TNAME = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def available() -> bool:
    """Whether numba can be imported (looked up once, without importing it)."""
    global _available
    if _available is None:
        _available = importlib.util.find_spec("numba") is not None
    return _available


_available: bool | None = None


@dataclass(frozen=True)
class LoopForm:
    """The generated loop of one kernel: its source and how to call it.

    The element shape is seen as ``(outer, inner)``, split after some axis.
    An input is "full" (every element), "scalar" (one element), "row" (the
    inner axes only: broadcast over the outer ones) or "col" (the outer axes
    only).  Modes: "ew" elementwise over the flat kernel, "ew2" elementwise
    by rows (with row or column inputs), "ewn" elementwise with a loop an
    axis over ``dims`` (inputs broadcast along any axes, "b" kinds), "sum" a sum of everything (NumPy's
    pairwise order over the flat kernel), "rows" a sum over the inner axes
    (pairwise per row, as NumPy reduces a contiguous last axis; over "b"
    kinds, the last axis only, its rows reached by nested loops as "ewn"'s
    are: ``((P[:, None] - Q[None])**2).sum(-1)``) and "cols" a
    sum over the outer axes (row after row into the result, as NumPy
    reduces a leading axis).  ``op`` "prod": the same modes multiply, in
    NumPy's order for a product: one element after the other (so "sum"
    runs on one thread); a scan (``SCANS``): they accumulate into a
    full-size result, over the flat kernel, the rows or the columns.
    """
    source: str
    key: str                      # hash of the source: the cache's key
    kinds: tuple[str, ...]        # per input: "full", "scalar", "row", "col", "b..." or a grid's
    mode: str                     # "ew", "ew2", "sum", "rows" or "cols"
    n: int                        # elements of the kernel's element shape
    outer: int
    inner: int
    op: str = "sum"               # a reduction's or scan's name ("sum", "prod", ``SCANS``)
    dims: tuple[int, ...] = ()    # with "b" kinds: the element shape its nested loops run over
    # How it writes its output: "full" (flat, C order) or a grid kind: by rows
    # of the output's own strides in the memory it views (a slice of a
    # write's buffer: ``planner.update_targets``); "ew2" only.
    out_kind: str = "full"

    @property
    def reduces(self) -> bool:
        return self.mode in ("sum", "rows", "cols") and self.op not in SCANS


def _kinds(shapes: Sequence[tuple[int, ...] | None], elem_shape: tuple[int, ...],
           split: int | None) -> tuple[str, ...] | None:
    """Each input's kind for the split of ``elem_shape`` after ``split``
    axes (``shapes``: the inputs' broadcast shapes, None for one element),
    or None where one is none of them.  ``split`` None: the "ewn" kinds,
    where an operand broadcast along any axes is ``b`` and a digit per axis,
    1 where it spans it (``b101`` for ``x[:, None, :]`` over three axes)."""
    kinds = []
    for shape in shapes:
        if shape is None:
            kinds.append("scalar")
        elif shape == elem_shape:
            kinds.append("full")
        elif split is None:
            kinds.append("b" + "".join("1" if d != 1 else "0" for d in shape))
        elif all(d == 1 for d in shape[:split]) and shape[split:] == elem_shape[split:]:
            kinds.append("row")
        elif shape[:split] == elem_shape[:split] and all(d == 1 for d in shape[split:]):
            kinds.append("col")
        else:
            return None
    return tuple(kinds)


# Axes, at most, of an elementwise loop over operands broadcast along any
# of them ("ewn": one nested loop an axis).
MAX_EWN_AXES = 4


def _broadcasts(inputs: list[tuple[int, ...] | None], elem_shape: tuple[int, ...]
                ) -> tuple[str, int, tuple[str, ...]] | None:
    """The "ewn" layout, of operands full-size, single elements, or
    broadcast along any axes, as in ``P[:, None, :] - Q[None, :, :]``,
    where no single split of the axes into leading and trailing ones
    serves."""
    if not 2 < len(elem_shape) <= MAX_EWN_AXES:
        return None
    kinds = _kinds(inputs, elem_shape, None)
    return None if kinds is None else ("ewn", 0, kinds)


def _squeezed(inputs: Sequence[Node], reduce: Any, elem_shape: tuple[int, ...],
              axes: tuple[int, ...] | None = None
              ) -> tuple[tuple[int, ...], list[tuple[int, ...] | None], tuple[int, ...]]:
    """The kernel without its size-1 axes, as NumPy's iterator sees it: the
    element shape, the inputs' shapes in it (None: one element) and the
    reduced axes.  (A sum over the first axis of (m, 1) is then a sum of m
    contiguous elements, which NumPy sums pairwise, not row after row.)
    ``axes``: the kernel's axes permuted so first (run in memory order:
    ``layout``)."""
    nd = len(elem_shape)
    padded: list[tuple[int, ...] | None] = [
        None if node.weak or node.size == 1 else (1,) * (nd - node.ndim) + tuple(node.shape)
        for node in inputs]
    ax = dict(reduce[1])["axis"] if reduce is not None else ()
    red = {ax} if isinstance(ax, int) else set(ax)     # (a scan's is one axis)
    if axes is not None:
        elem_shape = tuple(elem_shape[a] for a in axes)
        padded = [None if p is None else tuple(p[a] for a in axes) for p in padded]
        red = {axes.index(a) for a in red}
    keep = [i for i, d in enumerate(elem_shape) if d != 1] or [nd - 1]
    shapes = [None if p is None else tuple(p[i] for i in keep) for p in padded]
    kept_red = tuple(j for j, i in enumerate(keep) if i in red)
    return tuple(elem_shape[i] for i in keep), shapes, kept_red


def _layout(inputs: Sequence[Node], reduce: Any, full_shape: tuple[int, ...],
            axes: tuple[int, ...] | None = None
            ) -> tuple[str, int, tuple[str, ...], tuple[int, ...]] | None:
    """(mode, split, input kinds, squeezed element shape) of the kernel's
    loop, or None."""
    elem_shape, shapes, red = _squeezed(inputs, reduce, full_shape, axes)
    if reduce is not None and not red:
        return None          # (a sum over size-1 axes only: not worth a loop)
    layout = _choose(shapes, reduce is not None, red, elem_shape)
    return None if layout is None else (*layout, elem_shape)


def _choose(inputs: list[tuple[int, ...] | None], reduces: bool, axes: tuple[int, ...],
            elem_shape: tuple[int, ...]) -> tuple[str, int, tuple[str, ...]] | None:
    nd = len(elem_shape)
    if not reduces:
        flat = _kinds(inputs, elem_shape, 0)
        if flat is not None and "row" not in flat and "col" not in flat:
            return "ew", 0, flat
        for split in range(1, nd):
            kinds = _kinds(inputs, elem_shape, split)
            if kinds is not None:
                return "ew2", split, kinds
        return _broadcasts(inputs, elem_shape)
    if axes == tuple(range(nd)):
        flat = _kinds(inputs, elem_shape, 0)
        if flat is None or "row" in flat or "col" in flat:
            return None            # (pairwise over broadcast inputs: not done)
        return "sum", 0, flat
    for split in range(1, nd):
        for mode, want in (("rows", tuple(range(split, nd))), ("cols", tuple(range(split)))):
            if axes == want:
                kinds = _kinds(inputs, elem_shape, split)
                if kinds is None and mode == "rows" and split == nd - 1:
                    # (a middle-axis broadcast: each row's operands found by
                    # nested loops, as "ewn" finds them)
                    nested = _broadcasts(inputs, elem_shape)
                    return None if nested is None else ("rows", split, nested[2])
                return (mode, split, kinds) if kinds is not None else None
    return None


def loop_form(program: tuple[Instr, ...], inputs: Sequence[Node], reduce: Any,
              elem_shape: tuple[int, ...], dtype: np.dtype[Any],
              axes: tuple[int, ...] | None = None,
              grids: tuple[str | None, ...] = (), out_grid: str | None = None
              ) -> LoopForm | None:
    """The kernel as a compiled loop, or None where a loop would not give
    NumPy's exact result (see the module docstring); ``axes``: of the kernel
    run with its axes permuted so (in its operands' memory order, where its
    rows and columns are other axes: ``layout``).  ``grids``: per input, the
    grid kind ("g", "gs": ``grid_kinds``) of a full-size one read by rows
    of its own strides, or None; an elementwise loop only, by rows.
    ``out_grid``: the grid kind of an output written so, or None (flat)."""
    if not program or len(program) > MAX_OPS or not elem_shape:
        return None
    n = math.prod(elem_shape)
    if reduce is not None and not _reduction_has_loop(program, reduce, dtype):
        return None
    in_dtypes = [_input_dtype(node) for node in inputs]
    if any(d is UNUSABLE for d in in_dtypes):
        return None
    layout = _layout(inputs, reduce, elem_shape, axes)
    casts = _casts(program, in_dtypes)
    if layout is None or casts is None:
        return None
    mode, split, kinds, squeezed = layout
    if grids or out_grid:
        if mode == "ew" and len(squeezed) > 1:
            mode, split = "ew2", len(squeezed) - 1     # (rows of the last axis)
        if mode != "ew2" or any(g is not None and k != "full" for g, k in zip(grids, kinds)):
            return None
        if grids:
            kinds = tuple(k if g is None else g for k, g in zip(kinds, grids))
    op = reduce[0] if reduce is not None else "sum"
    out_kind = out_grid or "full"
    source = _source(program, kinds, casts, mode, op, out_kind)
    key = hashlib.sha1(source.encode()).hexdigest()[:20]
    return LoopForm(source, key, kinds, mode, n, math.prod(squeezed[:split]),
                    math.prod(squeezed[split:]), op, squeezed if _nests(kinds) else (),
                    out_kind)


def _nests(kinds: tuple[str, ...]) -> bool:
    """Some operand is broadcast along a middle axis ("b" kinds): the loop
    nests a loop an axis (``_nested``)."""
    return any(kind[0] == "b" for kind in kinds)


# A scan's op between the running value and the next element.
SCANS = {"cumulative_sum": "+", "cumulative_prod": "*"}


def _reduction_has_loop(program: tuple[Instr, ...], reduce: Any, dtype: np.dtype[Any]
                        ) -> bool:
    """A sum or product of floats in their dtype, a count of bools, or a
    cumulative sum or product of floats in their dtype."""
    name, rattrs = reduce[0], dict(reduce[1])
    allowed = {"axis", "keepdims", "dtype"} if name in ("sum", "prod") else \
        {"axis", "dtype", "include_initial"} if name in SCANS else None
    if allowed is None or set(rattrs) - allowed or rattrs.get("include_initial"):
        return False
    if name == "sum" and _counts(program, dtype):
        return True
    return rattrs.get("dtype") in (None, dtype) and np.dtype(program[-1][3]) == dtype \
        and dtype in FLOATS


def _counts(program: tuple[Instr, ...], dtype: np.dtype[Any]) -> bool:
    """The kernel's sum counts bools into int64 (``sum(x > 0.5)``): exact in
    any order, so the pairwise and the row loops serve as they are, on an
    int64 accumulator."""
    return np.dtype(program[-1][3]) == BOOL and dtype == np.int64


def _acc(program: tuple[Instr, ...]) -> str:
    """The type a reduction loop adds up in: the value's float, or int64
    for a count of bools (``_counts``)."""
    dt = np.dtype(program[-1][3])
    return "np.int64" if dt == BOOL else _TNAME[dt]


# The dtype a loop cannot take (an input no loop may read is given it).
UNUSABLE = np.dtype(object)


def _input_dtype(node: Node) -> np.dtype[Any] | None:
    """The dtype a loop reads a kernel input as: None for a weak Python
    scalar, ``UNUSABLE`` where no loop may read it."""
    if node.weak:
        value = node.attrs.get("value")
        # (ints beyond 2**53: NumPy and numba might round them differently)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or isinstance(value, int) and abs(value) > 2**53:
            return UNUSABLE
        return None
    return node.dtype if node.dtype in VALUE_DTYPES or node.dtype in INTS else UNUSABLE


@dataclass(frozen=True)
class MixedForm:
    """A kernel run in two parts on each block (or on the whole array).

    The head is the instructions that have no exact loop form (sin, exp,
    integer ops...) and everything they read: NumPy's ufuncs, as the blocked
    loop runs them.  The tail is every other instruction: one compiled
    elementwise loop over the block, which reads the kernel's inputs and the
    head's values and writes the kernel's value.  W1, ``2*a**2 + 3*b*c -
    sin(a)*exp(-b)``, keeps NumPy's own sin and exp and runs seven of its
    cheap ops as one pass instead of seven ufunc calls that each write a
    block and read it back.  The bits are NumPy's: the head is NumPy's own
    loops, the tail only IEEE-exact ops.

        before: kernel { t1 := sin(i0); t2 := exp(-i1); 2*i0*i0 + 3*i1*i2 - t1*t2 }
        after:  head [sin(i0), negative(i1), exp(h1)]; tail loop(i0, i1, i2, h0, h2)
    """
    head: tuple[Instr, ...]       # refs: r >= 0 a kernel input, r < 0 an earlier head value
    operands: tuple[int, ...]     # the tail's inputs: positions in [kernel inputs, head values]
    loop: LoopForm                # the tail: mode "ew" over its operands
    tail_ops: tuple[str, ...]     # the tail's op names (for the cost model and explain)


def mixed_form(program: tuple[Instr, ...], inputs: Sequence[Node],
               elem_shape: tuple[int, ...], dtype: np.dtype[Any]) -> MixedForm | None:
    """The kernel split into a NumPy head and a compiled tail (``MixedForm``),
    or None where its last instruction has no exact loop form or every
    instruction has one (a whole loop then, where its layout allows).  The
    tail reads full-size inputs and single elements only: an instruction
    reading a broadcast input goes to the head (NumPy broadcasts it into a
    full-size block)."""
    if not program or not elem_shape or np.dtype(program[-1][3]) != dtype:
        return None
    dts = [_input_dtype(node) for node in inputs]
    kinds_in: list[str] = []
    nd = len(elem_shape)
    for node, d in zip(inputs, dts):
        if node.weak or node.size == 1:
            kinds_in.append("scalar")
        elif (1,) * (nd - node.ndim) + tuple(node.shape) == tuple(elem_shape):
            kinds_in.append("full")
        else:
            kinds_in.append("broadcast")
    readable = [UNUSABLE if k == "broadcast" else d for k, d in zip(kinds_in, dts)]
    head = [_cast(name, attrs, np.dtype(dt),
                  [np.dtype(program[-1 - r][3]) if r < 0 else readable[r] for r in refs]) is None
            for name, refs, attrs, dt in program]
    # What a head instruction reads is computed in the head too.
    for k in range(len(program) - 1, -1, -1):
        if head[k]:
            for r in program[k][1]:
                if r < 0:
                    head[-1 - r] = True
    ntail = head.count(False)
    if head[-1] or ntail == len(program) or ntail > MAX_OPS:
        return None
    n_in = len(inputs)
    hprog: list[Instr] = []
    tprog: list[Instr] = []
    at: dict[int, int] = {}              # instruction -> its index in the head or the tail
    operands: list[int] = []
    op_of: dict[int, int] = {}

    def operand(pos: int) -> int:
        if pos not in op_of:
            op_of[pos] = len(operands)
            operands.append(pos)
        return op_of[pos]
    for k, (name, refs, attrs, dt) in enumerate(program):
        if head[k]:
            hprog.append((name, tuple(r if r >= 0 else -1 - at[-1 - r] for r in refs),
                          attrs, dt))
        else:
            tprog.append((name, tuple(
                operand(r) if r >= 0 else operand(n_in + at[-1 - r]) if head[-1 - r]
                else -1 - at[-1 - r] for r in refs), attrs, dt))
        at[k] = len(hprog if head[k] else tprog) - 1
    kinds = tuple(kinds_in[p] if p < n_in else "full" for p in operands)
    tdts = [readable[p] if p < n_in else np.dtype(hprog[p - n_in][3]) for p in operands]
    casts = _casts(tuple(tprog), tdts)
    assert casts is not None, "each tail instruction was checked on these dtypes"
    source = _source(tuple(tprog), kinds, casts, "ew")
    key = hashlib.sha1(source.encode()).hexdigest()[:20]
    n = math.prod(elem_shape)
    return MixedForm(tuple(hprog), tuple(operands), LoopForm(source, key, kinds, "ew", n, 1, n),
                     tuple(ins[0] for ins in tprog))


def _casts(program: tuple[Instr, ...], in_dtypes: Sequence[np.dtype[Any] | None]
           ) -> list[list[str | None]] | None:
    """Per instruction, the type each operand is cast to before the op (None:
    none), as NumPy's ufunc loop for those dtypes does; None where some
    instruction has no exact loop form."""
    out: list[list[str | None]] = []
    for name, refs, attrs, dt in program:
        ops = [np.dtype(program[-1 - r][3]) if r < 0 else in_dtypes[r] for r in refs]
        cast = _cast(name, attrs, np.dtype(dt), ops)
        if cast is None:
            return None
        out.append(cast)
    return out


def _cast(name: str, attrs: Any, dt: np.dtype[Any], ops: list[np.dtype[Any] | None]
          ) -> list[str | None] | None:
    """The types one instruction's operands (dtypes ``ops``, None: a weak
    Python scalar) are cast to in its loop, or None where it has no exact
    loop form."""
    known = [d for d in ops if d is not None]
    if name == "astype":
        if dt not in FLOATS or not known or known[0] not in CASTABLE:
            return None
        return [_TNAME[dt]]
    if REGISTRY[name].loop is None or attrs:
        return None
    if name in COMPARE:
        # The loop of the operands' common dtype (a float: with an integer,
        # as NumPy compares int64 with float64); the result is bool.
        if dt != BOOL or not known or any(d not in CASTABLE or d == BOOL for d in known):
            return None
        common = np.result_type(*known)
        if all(d.kind in "iu" for d in known):
            # int64 with uint64 promotes to float64, but NumPy 2 compares
            # them exactly (2**63 - 2 < 2**63 - 1): no float loop for that.
            return None
        return [_TNAME[common]] * len(ops) if common in FLOATS else None
    if name in LOGICAL:
        if dt != BOOL or len(known) != len(ops) or any(d != BOOL for d in known):
            return None
        return [None] * len(ops)
    if name == "where":
        if dt not in FLOATS or ops[0] != BOOL \
                or any(d is not None and d not in CASTABLE for d in ops[1:]):
            return None
        return [None, _TNAME[dt], _TNAME[dt]]
    # A float result: NumPy's loop is that float's, every operand cast to it
    # (a bool to 0.0 or 1.0, an integer rounded).
    if dt not in FLOATS or any(d is not None and d not in CASTABLE for d in known):
        return None
    return [_TNAME[dt]] * len(ops)


# ------------------------------------------------------------------ codegen

def _operand(kind: str, r: int, flat: str, row: str, col: str) -> str:
    """Input ``r`` at the flat index ``flat`` (row index ``row`` within the
    inner axes, ``col`` over the outer ones; a broadcast operand ("b"
    kinds) at its own index, its row's start ``b{r}`` plus ``row`` if it
    spans the last axis)."""
    if kind == "scalar":
        return f"s{r}"
    if kind[0] == "b":
        return f"i{r}[b{r} + {row}]" if kind[-1] == "1" else f"i{r}[b{r}]"
    if kind in GRIDS:
        return _grid_at(f"i{r}", str(r), kind, row, col)
    index = flat if kind == "full" else row if kind == "row" else col
    return f"i{r}[{index}]"


def _grid_at(mem: str, tag: str, kind: str, row: str, col: str) -> str:
    """The element at row ``col``, column ``row`` of a grid (``_grid_setup``
    names its offset and strides ``g{tag}o``, ``g{tag}r``, ``g{tag}c``) in
    the flat array ``mem`` of the memory it views."""
    inner = row if kind == "g" else f"{row} * g{tag}c"
    return f"{mem}[g{tag}o + {col} * g{tag}r + {inner}]"


def _element(program: tuple[Instr, ...], kinds: tuple[str, ...],
             casts: list[list[str | None]], flat: str, sfx: str,
             row: str = "", col: str = "") -> tuple[list[str], str]:
    """Statements computing the kernel's value at flat index ``flat`` into
    names ending in ``sfx``; returns (statements, the name of the value)."""
    lines = []
    names: list[str] = []
    for k, (name, refs, _attrs, dt) in enumerate(program):
        ops = []
        for r, cast in zip(refs, casts[k]):
            o = names[-1 - r] if r < 0 else _operand(kinds[r], r, flat, row, col)
            ops.append(f"{cast}({o})" if cast is not None else o)
        v = f"t{k}{sfx}"
        if name == "astype":
            expr = ops[0]
        else:
            tmpl = REGISTRY[name].loop
            assert tmpl is not None
            expr = tmpl.format(*ops)
        # Every float result is rounded to its dtype (numba would keep
        # float32 * float64-literal in float64).
        t = _TNAME.get(np.dtype(dt))
        lines.append(f"{v} = {t}({expr})" if t is not None else f"{v} = {expr}")
        names.append(v)
    return lines, names[-1]


def _grid_setup(kinds: tuple[str, ...], out_kind: str = "full") -> list[str]:
    """Each grid operand's place in the flat array ``i{r}`` of the memory it
    views (``v{r}``, its (outer, inner) view): the offset of its first
    element and its strides, in elements (``grid_kinds``); the same for a
    grid output (``o`` and ``vo``, names ``gOo``...)."""
    places = [(f"i{r}", f"v{r}", str(r), kind) for r, kind in enumerate(kinds)]
    places.append(("o", "vo", "O", out_kind))
    lines = []
    for mem, view, r, kind in places:
        if kind in GRIDS:
            lines += [f"w{r} = numba.uint64({mem}.itemsize)",
                      f"g{r}o = numba.uint64({view}.ctypes.data - {mem}.ctypes.data) // w{r}",
                      f"g{r}r = numba.uint64({view}.strides[0]) // w{r}"]
            if kind == "gs":
                lines.append(f"g{r}c = numba.uint64({view}.strides[1]) // w{r}")
    return lines


def _source(program: tuple[Instr, ...], kinds: tuple[str, ...],
            casts: list[list[str | None]], mode: str, op: str = "sum",
            out_kind: str = "full") -> str:
    params = ", ".join(f"s{r}" if kd == "scalar" else f"i{r}, v{r}" if kd in GRIDS else f"i{r}"
                       for r, kd in enumerate(kinds))
    head = [
        "# Generated by lazyten.exec.loop_backend: do not edit.",
        "import numba",
        "import numpy as np",
        "f32, f64 = np.float32, np.float64",
        # Unsigned offsets: numba wraps negative signed indices around, and
        # the branch that costs per access keeps LLVM from vectorizing.
        *[f"U{j} = numba.uint64({j})" for j in range(9)],
        "",
        "",
    ]
    jit = '@numba.njit(nogil=True, error_model="numpy", cache=True)'
    if mode == "ew":
        body, last = _element(program, kinds, casts, "k", "")
        src = head + [
            jit,
            f"def ew({params}, o, lo, hi):",
            "    k = numba.uint64(lo)",
            "    e = numba.uint64(hi)",
            "    while k < e:",
            *[f"        {ln}" for ln in body],
            f"        o[k] = {last}",
            "        k += U1",
        ]
    elif mode == "ew2":
        # rows lo..hi of (outer, inner): row inputs by j, column inputs by q
        body, last = _element(program, kinds, casts, "k", "", row="j", col="q")
        # (a grid output by its own rows, as a grid operand is read)
        dest = "o[k]" if out_kind not in GRIDS else _grid_at("o", "O", out_kind, "j", "q")
        src = head + [
            jit,
            f"def ew2({params}, o, {'vo, ' if out_kind in GRIDS else ''}lo, hi, inner):",
            "    m = numba.uint64(inner)",
            *[f"    {ln}" for ln in _grid_setup(kinds, out_kind)],
            *_by_rows("numba.uint64(lo)", "numba.uint64(hi)", "U0", "m", body,
                      f"{dest} = {last}"),
        ]
    elif mode == "ewn":
        body, last = _element(program, kinds, casts, "k", "", row="j")
        src = head + _nested(kinds, params, jit, "ewn", _along(kinds, body, [f"o[k] = {last}"]))
    elif op in SCANS or op == "prod" and mode != "cols":
        src = head + _chains(program, kinds, casts, params, jit, mode, op)
    elif mode == "cols":
        # NumPy reduces leading axes row after row into the result, which
        # starts at the identity: o[j] = ((0 + x[0, j]) + x[1, j]) + ...
        acc = _acc(program)
        body, last = _element(program, kinds, casts, "k", "", row="j", col="q")
        ident, sign = ("1.0", "*") if op == "prod" else ("0.0", "+")
        src = head + [
            jit,
            f"def cols({params}, o, lo, hi, outer, inner):",
            "    m = numba.uint64(inner)",
            "    e = numba.uint64(hi)",
            "    j = numba.uint64(lo)",
            "    while j < e:",
            f"        o[j] = {acc}({ident})",
            "        j += U1",
            *_by_rows("U0", "numba.uint64(outer)", "numba.uint64(lo)", "e", body,
                      f"o[j] = {acc}(o[j] {sign} {last})"),
        ]
    else:
        src = head + _pairwise(program, kinds, casts, params, jit, mode)
    return "\n".join(src) + "\n"


def _by_rows(q_from: str, q_to: str, j_from: str, j_to: str, body: list[str],
             store: str) -> list[str]:
    """Rows ``q`` and, in each, columns ``j`` of (outer, inner) (``m`` is
    inner): ``body`` computes the element at flat index ``k``, ``store``
    puts it away."""
    return [
        f"    q = {q_from}",
        f"    while q < {q_to}:",
        "        base = q * m",
        f"        j = {j_from}",
        f"        while j < {j_to}:",
        "            k = base + j",
        *[f"            {ln}" for ln in body],
        f"            {store}",
        "            j += U1",
        "        q += U1",
    ]


def _nested(kinds: tuple[str, ...], params: str, jit: str, name: str, row: list[str],
            setup: Sequence[str] = ()) -> list[str]:
    """A loop over operands broadcast along any axes ("b" kinds): one nested
    loop an axis but the last (the first's range ``lo..hi`` split among
    threads), ``row`` the statements for each row of the last axis (its
    length ``n{nd-1}``), with ``orow`` the row's index, ``ob`` its first
    element's flat index and ``b{r}`` where each broadcast operand's row
    starts in its own C-ordered data (so a loop along the row reads it
    contiguously or as one element, and LLVM vectorizes it).  ``setup``:
    statements before the loops."""
    nd = _nest_axes(kinds)
    dims = [f"n{a}" for a in range(nd)]
    lines = [jit, f"def {name}({params}, o, lo, hi, {', '.join(dims[1:])}):"]
    lines += [f"    {d} = numba.uint64({d})" for d in dims[1:]] + [f"    {ln}" for ln in setup]
    pad = "    "
    for a in range(nd - 1):
        start = "numba.uint64(lo)" if a == 0 else "U0"
        stop = "numba.uint64(hi)" if a == 0 else dims[a]
        lines += [f"{pad}q{a} = {start}", f"{pad}while q{a} < {stop}:"]
        pad += "    "
    # the row (q0, ..., q[nd-2]), its first element, each broadcast operand's
    orow = "q0"
    for a in range(1, nd - 1):
        orow = f"({orow} * {dims[a]} + q{a})"
    lines += [f"{pad}orow = {orow}", f"{pad}ob = orow * {dims[-1]}"]
    for r, kind in enumerate(kinds):
        if kind[0] == "b":
            span = kind[1:]
            terms = []
            for a in range(nd - 1):
                if span[a] == "1":
                    stride = " * ".join(dims[c] for c in range(a + 1, nd) if span[c] == "1")
                    terms.append(f"q{a} * {stride}" if stride else f"q{a}")
            lines.append(f"{pad}b{r} = {' + '.join(terms) if terms else 'U0'}")
    lines += [f"{pad}{ln}" for ln in row]
    for a in range(nd - 2, -1, -1):
        pad = pad[:-4]
        lines.append(f"{pad}    q{a} += U1")
    return lines


def _nest_axes(kinds: tuple[str, ...]) -> int:
    """The axes of a nested loop (``_nested``): a "b" kind has a digit each."""
    return len(next(k for k in kinds if k[0] == "b")) - 1


def _row_length(kinds: tuple[str, ...]) -> str:
    """The name of a nested loop's last axis length (``_nested``)."""
    return f"n{_nest_axes(kinds) - 1}"


def _along(kinds: tuple[str, ...], body: list[str], step: list[str]) -> list[str]:
    """A nested loop's row (``_nested``): ``body`` computes the element at
    ``k`` (``j`` along the row), ``step`` uses it."""
    return ["j = U0", f"while j < {_row_length(kinds)}:", "    k = ob + j",
            *[f"    {ln}" for ln in body + step], "    j += U1"]


def _chains(program: tuple[Instr, ...], kinds: tuple[str, ...],
            casts: list[list[str | None]], params: str, jit: str, mode: str,
            op: str) -> list[str]:
    """A product or a scan: one chain per lane in index order, ``r = r * v``
    (``r = r + v``) from the identity, 1.0 (-0.0, which adds to every value
    exactly, -0.0 too: NumPy's accumulate starts from the first element).
    A product has no pairwise form in NumPy, and a scan is one chain by
    definition.  Over the flat kernel (``pw(lo, hi)``: one chain, the
    product returned) or along each row (``rows``); a scan writes each
    running value into the full-size ``o``, a product each row's last.  A
    scan down the columns (``cols``) adds row after row into ``o``."""
    acc = _acc(program)
    scan = op in SCANS
    sign = SCANS.get(op, "*")
    ident = "-0.0" if sign == "+" else "1.0"
    if mode == "cols":             # (a product's is the sums' form: ``_source``)
        body, last = _element(program, kinds, casts, "k", "", row="j", col="q")
        return [
            jit,
            f"def cols({params}, o, lo, hi, outer, inner):",
            "    m = numba.uint64(inner)",
            "    e = numba.uint64(hi)",
            "    q = U0",
            "    j = numba.uint64(lo)",
            "    while j < e:",
            "        k = j",
            *[f"        {ln}" for ln in body],
            f"        o[k] = {last}",
            "        j += U1",
            *_by_rows("U1", "numba.uint64(outer)", "numba.uint64(lo)", "e", body,
                      f"o[k] = {acc}(o[k - m] {sign} {last})"),
        ]
    flat = mode == "sum"
    body, last = _element(program, kinds, casts, "k", "", row="j", col="q")
    step = [*body, f"r = {acc}(r {sign} {last})", *(["o[k] = r"] if scan else [])]
    if _nests(kinds):          # each row's chain, its operands by nested loops
        return _nested(kinds, params, jit, "rows", [
            f"r = {acc}({ident})", *_along(kinds, [], step), *([] if scan else ["o[orow] = r"])])
    if flat:
        return [
            jit,
            f"def pw({params}, {'o, ' if scan else ''}lo, hi):",
            f"    r = {acc}({ident})",
            "    k = numba.uint64(lo)",
            "    e = numba.uint64(hi)",
            "    while k < e:",
            *[f"        {ln}" for ln in step],
            "        k += U1",
            *([] if scan else ["    return r"]),
        ]
    return [
        jit,
        f"def rows({params}, o, lo, hi, inner):",
        "    m = numba.uint64(inner)",
        "    q = numba.uint64(lo)",
        "    while q < numba.uint64(hi):",
        "        base = q * m",
        f"        r = {acc}({ident})",
        "        j = U0",
        "        while j < m:",
        "            k = base + j",
        *[f"            {ln}" for ln in step],
        "            j += U1",
        *([] if scan else ["        o[q] = r"]),
        "        q += U1",
    ]


def _pairwise(program: tuple[Instr, ...], kinds: tuple[str, ...],
              casts: list[list[str | None]], params: str, jit: str, mode: str) -> list[str]:
    """NumPy's pairwise_sum over the flat range ``[lo, lo+n)``, with an
    explicit stack instead of recursion (numba's calls cost more than a
    leaf's work), and its driver: ``pw`` over the whole kernel ("sum"), or
    ``rows``, one pairwise sum per row into ``o`` ("rows").  A frame is
    (start, length, stage); stage 0: split, 1: left half done, 2: both done.
    A leaf (``_leaf``) is a function of its own: a row of ``PW_BLOCKSIZE``
    elements or fewer calls it directly (the stack machine's setup had cost
    18 ns a row of 3 elements, 4x the leaf's work).  In a row, row inputs
    are read at ``k - base``, column inputs at ``q``, and broadcast ones
    ("b" kinds, the rows reached by ``_nested``) at ``b{r} + k - base``."""
    acc = _acc(program)
    # where broadcast operands' rows start ("b" kinds: ``_nested``)
    bx = "".join(f", b{r}" for r, kind in enumerate(kinds) if kind[0] == "b")
    # (a count adds bools as int64s)
    as_acc = "np.int64({})" if np.dtype(program[-1][3]) == BOOL else "{}"
    leaf8, lane = [], []
    for j in range(8):
        lines, v = _element(program, kinds, casts, f"k + U{j}", f"_{j}",
                            row=f"k + U{j} - base", col="q")
        leaf8 += lines
        lane.append(as_acc.format(v))
    one, v1 = _element(program, kinds, casts, "k", "_x", row="k - base", col="q")
    v1 = as_acc.format(v1)
    src = [
        # one leaf of NumPy's recursion: at most PW_BLOCKSIZE elements
        jit,
        f"def _leaf({params}, L, N, q, base{bx}):",
        "    u = numba.uint64(L)",
        "    e = u + numba.uint64(N)",
        "    if N < 8:",
        f"        res = {acc}(-0.0)",
        "        k = u",
        "    else:",
        "        k = u",
        *[f"        {ln}" for ln in leaf8],
        *[f"        r{j} = {lane[j]}" for j in range(8)],
        "        m = u + numba.uint64(N - N % 8)",
        "        k = u + U8",
        "        while k < m:",
        *[f"            {ln}" for ln in leaf8],
        *[f"            r{j} += {lane[j]}" for j in range(8)],
        "            k += U8",
        "        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))",
        # what is left past the last multiple of 8 (below 8: everything),
        # added in order, as NumPy does in both cases
        "    while k < e:",
        *[f"        {ln}" for ln in one],
        f"        res += {v1}",
        "        k += U1",
        "    return res",
        "",
        "",
        jit,
        f"def _pw({params}, lo, n, q, base{bx}, slo, sn, sst, sval):",
        "    top = 0",
        "    slo[0] = lo",
        "    sn[0] = n",
        "    sst[0] = 0",
        f"    ret = {acc}(0.0)",
        "    while top >= 0:",
        "        L = slo[top]",
        "        N = sn[top]",
        f"        if N <= {PW_BLOCKSIZE}:",
        f"            ret = _leaf({params}, L, N, q, base{bx})",
        "            top -= 1",
        "            continue",
        "        n2 = N // 2",
        "        n2 -= n2 % 8",
        "        st = sst[top]",
        "        if st == 0:",
        "            sst[top] = 1",
        "            top += 1",
        "            slo[top] = L",
        "            sn[top] = n2",
        "            sst[top] = 0",
        "        elif st == 1:",
        "            sval[top] = ret",
        "            sst[top] = 2",
        "            top += 1",
        "            slo[top] = L + n2",
        "            sn[top] = N - n2",
        "            sst[top] = 0",
        "        else:",
        "            ret = sval[top] + ret",
        "            top -= 1",
        "    return ret",
        "",
        "",
        jit,
    ]
    stack = ["    slo = np.empty(64, np.int64)", "    sn = np.empty(64, np.int64)",
             "    sst = np.empty(64, np.int64)", f"    sval = np.empty(64, {acc})"]
    if mode == "sum":
        return src + [
            f"def pw({params}, lo, n):",
            *stack,
            f"    return _pw({params}, lo, n, U0, U0, slo, sn, sst, sval)",
        ]
    # NumPy reduces a contiguous last axis row by row, each from the identity.
    if bx:
        m = _row_length(kinds)
        return src[:-1] + _nested(kinds, params, jit, "rows", [
            f"o[orow] = {acc}(0.0) + (_leaf({params}, ob, {m}, U0, ob{bx}) if {m} <= "
            f"{PW_BLOCKSIZE} else _pw({params}, ob, {m}, U0, ob{bx}, slo, sn, sst, sval))"],
            setup=[ln.strip() for ln in stack])
    return src + [
        f"def rows({params}, o, lo, hi, inner):",
        *stack,
        "    q = numba.uint64(lo)",
        "    m = numba.uint64(inner)",
        "    while q < numba.uint64(hi):",
        "        base = q * m",
        f"        o[q] = {acc}(0.0) + (_leaf({params}, base, inner, q, base) if inner <= "
        f"{PW_BLOCKSIZE} else _pw({params}, base, inner, q, base, slo, sn, sst, sval))",
        "        q += U1",
    ]


# ------------------------------------------------------------------ compiling

# Seconds this thread spent loading loops and in their first calls (numba
# compiles there, for the arguments' types): lt.profile shows them apart.
_first = threading.local()
_called: set[tuple[str, tuple[Any, ...]]] = set()


def first_call_seconds() -> float:
    """Seconds this thread has spent loading and first calling loops (compiling)."""
    return float(getattr(_first, "seconds", 0.0))


_compiled: dict[str, Callable[..., Any]] = {}
_runs: dict[str, int] = {}
_spent: dict[str, float] = {}     # seconds its fallback ran, until compiled
_on_disk: dict[str, bool] = {}    # numba's cache holds its machine code
_failed: dict[str, str] = {}      # loops that failed to load or compile: why
_lock = threading.Lock()


def compiled(form: LoopForm, force: bool) -> Callable[..., Any] | None:
    """The loop's compiled function, compiling it now if ``force`` or if it
    has run ``HOT_RUNS`` times and its fallback paid ``COMPILE_SHARE`` of
    the compile; None while it stays on the NumPy fallback (and for good
    where it could not be loaded: see ``failed``)."""
    fn = _compiled.get(form.key)
    if fn is not None:
        return fn
    with _lock:
        fn = _compiled.get(form.key)
        if fn is not None or form.key in _failed:
            return fn
        runs = _runs.get(form.key, 0) + 1
        _runs[form.key] = runs
        if not force and (runs < HOT_RUNS or _spent.get(form.key, 0.0)
                          < COMPILE_SHARE * expected_compile_seconds(form)):
            return None
        t0 = time.perf_counter()
        try:
            fn = _load(form)
        except Exception as e:  # noqa: BLE001 (an unusable numba must not break evaluation)
            failed(form, e)
            return None
        finally:        # (importing numba and the module: part of compiling)
            _first.seconds = first_call_seconds() + time.perf_counter() - t0
        _compiled[form.key] = fn
        return fn


def ran_fallback(form: LoopForm, seconds: float) -> None:
    """Count ``seconds`` of a run of the loop's NumPy fallback while the loop
    is not compiled (``compiled`` weighs them against the compile)."""
    with _lock:
        _spent[form.key] = _spent.get(form.key, 0.0) + seconds


def pending() -> set[str]:
    """The loops that have run (on their fallback) but are not compiled yet,
    nor given up on: what "auto" may still compile."""
    with _lock:
        return set(_runs) - set(_compiled) - set(_failed)


def fallback_seconds(form: LoopForm) -> float:
    """Seconds the loop's fallback has run so far, uncompiled."""
    return _spent.get(form.key, 0.0)


def expected_compile_seconds(form: LoopForm) -> float:
    """What compiling the loop now is expected to cost: starting numba if no
    loop has been loaded in this process, then a load from numba's disk
    cache if it holds the loop (its index file beside the generated
    source), else a compile."""
    cached = _on_disk.get(form.key)
    if cached is None:
        folder = cache_dir() / "loops" / "__pycache__"
        cached = _on_disk[form.key] = any(folder.glob(f"lazyten_loop_{form.key}.*.nbi"))
    return (0.0 if _compiled else START_SECONDS) + (LOAD_SECONDS if cached else COMPILE_SECONDS)


class LoopUnusableWarning(RuntimeWarning):
    """A compiled loop could not be loaded or compiled; NumPy runs its kernel."""


class LoopCacheWarning(RuntimeWarning):
    """The cache directory cannot hold compiled loops: they go to a temporary
    directory of this process, and other processes compile them again."""


def failed(form: LoopForm, error: BaseException) -> None:
    """Give up on a loop that would not import or compile: warn once, and
    run its kernel on the NumPy fallback from then on.  A numba that cannot
    be imported at all turns loops off for the process."""
    global _available
    # (numba's typing errors run to dozens of lines: the first says what)
    first = (str(error).strip().splitlines() or [""])[0][:200]
    _failed[form.key] = why = f"{type(error).__name__}: {first}"
    _compiled.pop(form.key, None)
    if isinstance(error, ImportError):
        _available = False
    folder = _folders.get(form.key)
    files = ""
    if folder is not None and not isinstance(error, ImportError):
        # (which files: a bad one on disk would fail in every later process)
        name = f"lazyten_loop_{form.key}"
        files = (f"; its files are {os.path.join(folder, name + '.py')} (generated source) "
                 f"and {os.path.join(folder, '__pycache__', name)}.*.nbi/.nbc (numba's "
                 "cache): deleting them makes the next process generate and compile it "
                 "again")
    warnings.warn(f"lazyten: the compiled loop {form.key} is unusable ({why}); "
                  f"its kernel runs on NumPy{files}", LoopUnusableWarning, stacklevel=3)


def failure(form: LoopForm) -> str | None:
    """Why the loop could not be used, or None."""
    return _failed.get(form.key)


def is_compiled(form: LoopForm) -> bool:
    return form.key in _compiled


_folders: dict[str, str] = {}       # loop key -> the folder its module is in
_refreshed: set[str] = set()        # loops whose numba cache was deleted (``_fresh``)
_temp: tuple[str, int] | None = None   # this process's temporary folder, and its pid
_warned_dirs: set[str] = set()      # unusable cache folders already warned about


def _load(form: LoopForm) -> Callable[..., Any]:
    """Import the generated module from the cache directory (numba caches the
    machine code beside it), or, where that cannot be written, from a
    temporary one of this process (``_temp_folder``)."""
    name = f"lazyten_loop_{form.key}"
    base = str(cache_dir() / "loops")
    try:
        folder = base
        path = _write_source(folder, name, form.source)
    except OSError as e:
        _unusable_dir(base, e)
        folder = _temp_folder()
        path = _write_source(folder, name, form.source)
    _folders[form.key] = folder
    # Compiled from the source itself, not imported from the file: a
    # corrupt bytecode cache (.pyc) beside it cannot break the loop.  numba
    # finds its cache by the code's file name, the path.
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module               # numba's cache looks it up
    exec(compile(form.source, path, "exec"), module.__dict__)
    fn: Callable[..., Any] = getattr(module, {"sum": "pw"}.get(form.mode, form.mode))
    return fn


def _write_source(folder: str, name: str, source: str) -> str:
    """The path of ``name``'s module in ``folder``, written with ``source``
    unless it holds that already: a file left truncated or garbled (a full
    disk, a crash, an edit) is written again, and numba's cache of the
    loop, stamped with the file's time and size, is then not used."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + ".py")
    try:
        with open(path, "rb") as f:
            if f.read() == source.encode():
                return path
    except FileNotFoundError:
        pass
    # Written whole, then renamed: another process may read it.
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(source)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return path


def _temp_folder() -> str:
    """This process's temporary folder for loops, made once (a child made
    by ``fork`` makes its own) and removed at exit."""
    global _temp
    if _temp is None or _temp[1] != os.getpid():
        _temp = (tempfile.mkdtemp(prefix="lazyten-loops-"), os.getpid())
        atexit.register(_remove_temp, *_temp)
    return _temp[0]


def _remove_temp(folder: str, pid: int) -> None:
    if os.getpid() == pid:          # (not the parent's, from a forked child)
        shutil.rmtree(folder, ignore_errors=True)


def _unusable_dir(folder: str, error: OSError) -> None:
    """Warn, once a folder, that compiled loops will not be cached there."""
    if folder in _warned_dirs:
        return
    _warned_dirs.add(folder)
    env = os.environ.get("LAZYTEN_CACHE_DIR")
    how = f"LAZYTEN_CACHE_DIR is {env!r}" if env is not None \
        else "LAZYTEN_CACHE_DIR is not set: ~/.cache/lazyten"
    warnings.warn(f"lazyten: compiled loops cannot be cached in {folder} ({how}): "
                  f"{type(error).__name__}: {error}.  They go to a temporary directory "
                  "removed at exit, so every process compiles them again; set "
                  "LAZYTEN_CACHE_DIR to a writable directory to cache them",
                  LoopCacheWarning, stacklevel=5)


def _cache_files(form: LoopForm) -> list[str]:
    """numba's cache files of the loop (index and machine code), in the
    folder lazyten wrote its module to: only those."""
    folder = _folders.get(form.key)
    if folder is None:
        return []
    pattern = os.path.join(glob.escape(folder), "__pycache__", f"lazyten_loop_{form.key}.*")
    return sorted(f for f in glob.glob(pattern) if f.endswith((".nbi", ".nbc")))


def _fresh(form: LoopForm, stale: Callable[..., Any]) -> Callable[..., Any] | None:
    """After a first call of ``stale`` failed: the loop loaded again without
    numba's cache of it, whose files are deleted (a corrupt index or machine
    code fails in every process that loads it, as "invalid literal for
    int()" from pickle), once a loop and only where there are such files;
    else None (the failure is the loop's own).  The loop another thread
    loaded again meanwhile, if one did."""
    with _lock:
        current = _compiled.get(form.key)
        if current is not None and current is not stale:
            return current
        files = _cache_files(form)
        if form.key in _refreshed or not files:
            return None
        _refreshed.add(form.key)
        for f in files:
            try:
                os.remove(f)
            except FileNotFoundError:
                pass
        fn = _load(form)
        _compiled[form.key] = fn
        return fn


# ------------------------------------------------------------------ running

def _flat_view(a: Any, size: int) -> np.ndarray[Any, Any] | None:
    """``a`` as a 1-d array of ``size`` elements in C order, without a copy
    (1-d with any stride, C-contiguous, or one axis longer than 1 with any
    stride: a row or column permuted into memory order), or None."""
    if not isinstance(a, np.ndarray) or a.size != size:
        return None
    if a.ndim == 1:
        return a
    if a.flags.c_contiguous or sum(d != 1 for d in a.shape) <= 1:
        return a.reshape(-1)        # (a view in both cases)
    return None


_UNTAKEN = object()


def _scalar(a: Any) -> Any:
    """A single-element operand as the scalar a loop takes (``_UNTAKEN``:
    an int beyond int64, which numba does not take)."""
    if isinstance(a, np.ndarray):
        return a.reshape(-1)[0]
    if isinstance(a, int) and not -2**63 <= a < 2**63:
        return _UNTAKEN
    return a


def flat_args(form: LoopForm, args: list[Any],
              grids: Sequence[tuple[Any, Any, str] | None] = (),
              out_grid: tuple[Any, Any, str] | None = None) -> list[Any] | None:
    """The kernel's arguments as the loop takes them: full, row and column
    operands as 1-d arrays in C order, scalars as scalars of their dtype,
    grid operands as their memory and view (``grids``: made already, per
    operand, by ``grid_kinds``), then a grid output's (``out_grid``, where
    the form writes one); None where an operand's layout has no such view
    (the NumPy fallback runs then)."""
    flat: list[Any] = []
    sizes = {"full": form.n, "row": form.inner, "col": form.outer}
    for r, (a, kind) in enumerate(zip(args, form.kinds)):
        if kind == "scalar":
            if (a := _scalar(a)) is _UNTAKEN:
                return None
            flat.append(a)
            continue
        if kind in GRIDS:
            grid = grids[r] if grids else _grid(a, form.outer, form.inner)
            if grid is None or grid[2] != kind:
                return None
            flat += grid[:2]
            continue
        v = _flat_view(a, sizes[kind] if kind[0] != "b" else
                       math.prod(d for d, s in zip(form.dims, kind[1:]) if s == "1"))
        if v is None:
            return None
        flat.append(v)
    if form.out_kind in GRIDS:
        if out_grid is None or out_grid[2] != form.out_kind:
            return None
        flat += out_grid[:2]
    return flat


# The grid kinds: a full-size operand read as rows of its own strides in
# the contiguous array whose memory it views; "g" where its rows are
# contiguous (the loop along a row vectorizes), "gs" with any column stride.
GRIDS = frozenset({"g", "gs"})


def _grid(a: Any, outer: int, inner: int) -> tuple[Any, Any, str] | None:
    """``a`` as a grid operand of ``(outer, inner)``: the flat array of the
    memory it views, its (outer, inner) view, and its kind; None where it
    views no contiguous array of its dtype, starts between its elements or
    has a negative stride (the loop's offsets are unsigned whole elements)."""
    if not isinstance(a, np.ndarray) or a.size != outer * inner or not a.size:
        return None
    try:
        v = np.reshape(a, (outer, inner), copy=False)
    except ValueError:
        return None                  # (axes that no view merges: NumPy's fallback)
    b = v.base
    # (NumPy points a view's base at the array owning the memory)
    if type(b) is not np.ndarray or b.dtype != v.dtype:
        return None
    rs, cs = v.strides
    w = v.itemsize
    if rs < 0 or cs < 0 or rs % w or cs % w or v.dtype.alignment != w \
            or not (v.flags.aligned and b.flags.aligned):
        # (offsets count whole elements: both aligned to the itemsize puts
        # the view a whole number of elements into its base; a field at byte
        # 4 of a record of float64s, or a buffer read from offset 4, is not)
        return None
    # the base's memory in order, a view (offsets are in memory: any
    # contiguous base serves, a Fortran-ordered one as its transpose)
    if b.flags.c_contiguous:
        mem = b.reshape(-1)
    elif b.flags.f_contiguous:
        mem = b.T.reshape(-1)
    else:
        return None
    return mem, v, "g" if cs == w else "gs"


def grid_shape(form: LoopForm, elem_shape: tuple[int, ...]) -> tuple[int, int] | None:
    """The (outer, inner) a grid form of the elementwise ``form`` runs over
    (``loop_form``'s ``grids``): its rows where it has them, else the last
    axis of the squeezed ``elem_shape``; None for one axis, which any
    stride serves already."""
    if form.mode == "ew2":
        return form.outer, form.inner
    sq = [d for d in elem_shape if d != 1]
    if form.mode != "ew" or len(sq) < 2:
        return None
    return form.n // sq[-1], sq[-1]


def flat_out(form: LoopForm, out: np.ndarray[Any, Any]) -> bool:
    """Whether the elementwise ``form`` writes ``out`` flat (``run``), or
    is no form a grid output serves (``grid_shape``): else the loop writes
    it by its rows, as a grid (``grid_kinds``)."""
    return form.mode not in ("ew", "ew2") or _flat_view(out, form.n) is not None


GridKinds = tuple[tuple[str | None, ...], list[tuple[Any, Any, str] | None],
                  tuple[Any, Any, str] | None]


def grid_kinds(form: LoopForm, args: list[Any], out: np.ndarray[Any, Any], outer: int,
               inner: int) -> GridKinds | None:
    """Per operand of the elementwise ``form``, the grid kind of a full-size
    one without a flat view (None for the others), and its grid (``_grid``,
    for ``flat_args``), then the output's grid where it has no flat view;
    None where one of those is no grid either, or where such an output
    shares memory with an operand (a loop writing row after row would read
    its own writes there; NumPy's ufuncs buffer them)."""
    grids: list[tuple[Any, Any, str] | None] = []
    for a, kind in zip(args, form.kinds):
        grid = None
        if kind == "full" and _flat_view(a, form.n) is None:
            grid = _grid(a, outer, inner)
            if grid is None:
                return None
        grids.append(grid)
    out_grid = None
    if _flat_view(out, form.n) is None:
        out_grid = _grid(out, outer, inner)
        if out_grid is None or any(isinstance(a, np.ndarray) and np.may_share_memory(out, a)
                                   for a in args):
            return None
    kinds = tuple(None if g is None else g[2] for g in grids)
    return (kinds, grids, out_grid) if any(kinds) or out_grid is not None else None


def _parts(threads: int, work: int, items: int, per_thread: int = PARTS_PER_THREAD
           ) -> list[int]:
    """Bounds splitting ``items`` (rows, columns, elements) into parts for the
    threads to take in turn: one part on one thread, else up to
    ``per_thread`` parts a thread, each at least SPLIT_MIN elements of
    ``work`` in all."""
    parts = 1 if threads <= 1 else max(1, min(threads * per_thread, items,
                                              work // SPLIT_MIN))
    return [items * p // parts for p in range(parts + 1)]


def _in_turn(part: Callable[[int], None], parts: int, threads: int) -> int:
    """``part(p)`` for ``p`` in ``range(parts)``, the threads taking parts in
    turn; return the floating-point flags the parts raised (``fpflags``: per
    thread, so each thread reads its own)."""
    raised: list[int] = []

    def work(taken: Iterator[int]) -> None:
        fpflags.clear()
        for p in taken:
            part(p)
        raised.append(fpflags.raised())          # (append: atomic under the GIL)

    spread(work, parts, threads)
    return fpflags.union(raised)


def _spread(fn: Callable[..., Any], threads: int, bounds: list[int],
            call: Callable[[int, int], tuple[Any, ...]]) -> int:
    """``fn(*call(lo, hi))`` for each part, the threads taking parts in turn;
    the floating-point flags raised."""
    return _in_turn(lambda p: fn(*call(bounds[p], bounds[p + 1])), len(bounds) - 1, threads)


def run(fn: Callable[..., Any], form: LoopForm, flat: list[Any], out: np.ndarray[Any, Any],
        threads: int) -> int | None:
    """Run the loop into ``out`` and return the floating-point flags it
    raised (``fpflags``); None (nothing written) where ``out`` has no flat
    view, so the caller runs the fallback.  A first call for these argument
    types compiles, and its time is counted (``first_call_seconds``)."""
    sig = (form.key, _type_keys(flat))
    if sig in _called:
        return _run(fn, form, flat, out, threads)
    t0 = time.perf_counter()
    try:
        try:
            return _run(fn, form, flat, out, threads)
        except Exception:
            # (numba loads its cache at the first call: it fails there, before
            # any element is written; the new loop writes them all)
            fresh = _fresh(form, fn)
            if fresh is None:
                raise
            return _run(fresh, form, flat, out, threads)
    finally:
        _called.add(sig)
        _first.seconds = first_call_seconds() + time.perf_counter() - t0


def _run(fn: Callable[..., Any], form: LoopForm, flat: list[Any], out: np.ndarray[Any, Any],
         threads: int) -> int | None:
    n = form.n
    scan = form.op in SCANS
    if form.mode == "sum" and form.op != "sum":
        # one chain, one element after the other (NumPy's order): one part,
        # on this thread; a scan's into the full-size output
        if scan:
            if (o := _flat_view(out, n)) is None:
                return None
            return _in_turn(lambda _p: fn(*flat, o, 0, n), 1, 1)

        def whole(_p: int) -> None:
            out[...] = out.dtype.type(fn(*flat, 0, n))
        return _in_turn(whole, 1, 1)
    if form.mode == "sum":
        parts = 1
        if threads > 1:
            while parts * 2 <= threads * PARTS_PER_THREAD and n // (parts * 2) >= SPLIT_MIN:
                parts *= 2
        ranges = splits(0, n, parts)
        # In the result's dtype, as NumPy adds (numba returns floats).
        dt = out.dtype.type
        sums: list[Any] = [None] * len(ranges)

        def part(p: int) -> None:
            sums[p] = dt(fn(*flat, *ranges[p]))

        flags = _in_turn(part, len(ranges), threads)
        # np.add.reduce starts from the identity: 0.0 + (-0.0) is 0.0.
        out[...] = dt(0) + combine_splits(sums)
        return flags
    # (a scan's rows and columns run as a reduction's, into a full-size output)
    size = n if scan else {"rows": form.outer, "cols": form.inner}.get(form.mode, n)
    if form.out_kind in GRIDS:      # (its memory and view are the last of ``flat``)
        return _spread(fn, threads, _parts(threads, n, form.outer),
                       lambda lo, hi: (*flat, lo, hi, form.inner))
    o = _flat_view(out, size)      # (None: a chunk of a chunked plan, a strided slice)
    if o is None:
        return None
    if form.mode == "ew":
        return _spread(fn, threads, _parts(threads, n, n), lambda lo, hi: (*flat, o, lo, hi))
    if form.dims:                   # ranges of the first axis to each thread
        return _spread(fn, threads, _parts(threads, n, form.dims[0]),
                       lambda lo, hi: (*flat, o, lo, hi, *form.dims[1:]))
    if form.mode in ("ew2", "rows"):
        # whole rows to each thread: a row's sum is one pairwise tree
        return _spread(fn, threads, _parts(threads, n, form.outer),
                       lambda lo, hi: (*flat, o, lo, hi, form.inner))
    # columns to each thread: each result element sums its own column.
    # One part a thread: narrower parts read shorter runs of each row.
    return _spread(fn, threads, _parts(threads, n, form.inner, per_thread=1),
                   lambda lo, hi: (*flat, o, lo, hi, form.outer, form.inner))


def tail_call(form: MixedForm, prep: Prepared, args: list[Any],
              out: np.ndarray[Any, Any] | None, force: bool) -> TailCall | None:
    """A mixed kernel's tail ready for one run on ``args`` into ``out``
    (None: a reduction's tail writes scratch), compiled for these argument
    types now, on this thread (timed: ``first_call_seconds``).  None where a
    full-size operand or the output has no 1-d view in C order, which
    blocks of it would lack too, or while the loop is not compiled (see
    ``compiled``; ``force``: compile it now): the NumPy head and tail run
    then."""
    assert prep.tail is not None
    n_in = len(args)
    scalars: list[Any] = []
    sample: list[Any] = []           # the tail's arguments, as numba will type them
    for p, kind in zip(form.operands, form.loop.kinds):
        if p >= n_in:                # a head value: a contiguous block of scratch
            scalars.append(None)
            sample.append(np.empty(0, form.head[p - n_in][3]))
            continue
        a = args[p]
        if kind == "scalar":
            if (a := _scalar(a)) is _UNTAKEN:
                return None
            scalars.append(a)
            sample.append(a)
            continue
        v = _flat_view(a, a.size) if isinstance(a, np.ndarray) else None
        if v is None:
            return None
        scalars.append(None)
        sample.append(v)
    o = np.empty(0, prep.slot_dtypes[prep.tail[1]]) if out is None \
        else _flat_view(out, out.size)
    if o is None:
        return None
    fn = compiled(form.loop, force)
    if fn is None:
        return None
    try:
        fn = _specialize(fn, form.loop, [*sample, o, 0, 0])
    except Exception as e:  # noqa: BLE001 (a loop that will not compile: NumPy runs)
        failed(form.loop, e)
        return None
    return TailCall(fn, prep.tail[0], tuple(scalars), prep.tail[1])


def _type_keys(values: Sequence[Any]) -> tuple[Any, ...]:
    """What numba types each of ``values`` by, cheaply: an array's dtype,
    layout and writability, else its type.  Dtype objects, not their names:
    formatting a dtype is Python code in NumPy, and keys built from names
    took 13 us a run of a three-input loop."""
    keys: list[Any] = []
    for v in values:  # a loop, not a generator: this runs on every loop kernel's run
        if isinstance(v, np.ndarray):
            flags = v.flags
            keys.append((v.dtype, flags.c_contiguous, flags.writeable))
        else:
            keys.append(type(v))
    return tuple(keys)


def _specialize(fn: Callable[..., Any], form: LoopForm, sample: list[Any]
                ) -> Callable[..., Any]:
    """Compile ``fn`` for the types of ``sample`` unless done (or loaded from
    numba's cache), timed: the tail's blocks run on worker threads, where a
    first call's compile would not be counted.  The loop to call: ``fn``, or
    ``fn`` loaded again where numba's cache of it would not load (``_fresh``)."""
    sig = (form.key, _type_keys(sample))
    if sig in _called:
        return fn
    import numba
    types_ = tuple(numba.typeof(v) for v in sample)
    t0 = time.perf_counter()
    try:
        try:
            fn.compile(types_)  # type: ignore[attr-defined]
        except Exception:
            fresh = _fresh(form, fn)
            if fresh is None:
                raise
            fn = fresh
            fn.compile(types_)  # type: ignore[attr-defined]
    finally:
        _first.seconds = first_call_seconds() + time.perf_counter() - t0
    _called.add(sig)
    return fn
