"""Fused kernels as NumPy ufunc calls: plain, or blocked over a thread pool.

The blocked loop applies the kernel's ufuncs with ``out=`` to cache-sized
blocks of rows, so the temporaries of a long expression are a few small
scratch buffers instead of full-size arrays, and the blocks are spread over a
thread pool (ufuncs release the GIL).  It runs the very same NumPy loops as
eager NumPy on the same dtypes, so results are NumPy's.  Reductions of a
kernel reduce each block and combine the partial results with the same op
(argmax and argmin: each block's first extreme with its value, the earliest
of the best kept; any and all: until a block decides them, where no op can
warn; scans: each block's chain, continued from the block before).
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..graph.ops import REGISTRY
from ..graph.passes.fuse import Instr, run_program
from ..options import Options
from . import fpflags

# The ufunc whose ``reduce`` is the reduction (what np.sum etc. call), and
# which combines the partial results of a blockwise reduction.
COMBINE = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum,
           "any": np.logical_or, "all": np.logical_and}
# argmax and argmin: a block's candidates are its first extreme (or first
# NaN) along the axis, with its value; ``_pick`` keeps an earlier block's
# unless the later one's is strictly better, so ties and NaN go to the first
# index, as NumPy's do.
ARG = {"argmax": (np.argmax, np.greater), "argmin": (np.argmin, np.less)}
# Ops that never set a floating-point flag NumPy reports (its comparisons
# are quiet): a kernel of these only may skip blocks without losing a
# warning, as ``any``/``all`` over every axis do once a block decides them.
QUIET_OPS = frozenset({"less", "less_equal", "greater", "greater_equal", "equal",
                       "not_equal", "logical_and", "logical_or", "logical_xor",
                       "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
                       "bitwise_invert", "isnan", "isinf", "isfinite", "signbit"})
# Scans: each block's values are accumulated along the axis; along the
# blocks' axis, in block order, each from the last row of the one before
# (an accumulate of out[lo-1:hi] in place: NumPy's chain, continued).
SCAN = {"cumulative_sum": np.add, "cumulative_prod": np.multiply}


class _InOrder:
    """``run(i)`` for blocks ``0..n-1`` in block order, whichever thread
    finishes the block next in line (``put``)."""

    def __init__(self, run: Callable[[int], None]) -> None:
        self.run = run
        self.ready: set[int] = set()
        self.next = 0
        self.lock = threading.Lock()

    def put(self, i: int) -> None:
        with self.lock:
            self.ready.add(i)
            while self.next in self.ready:
                self.ready.discard(self.next)
                self.run(self.next)
                self.next += 1


class _Turns:
    """Blocks ``0..n-1`` taking turns: ``wait(i)`` returns True once every
    block before ``i`` is ``done``.  (Threads take blocks in increasing
    order, so the blocks a thread waits for are taken, and none of them
    waits on it.)  A thread that fails ``abandon``s the turns: every wait
    returns False then, so no thread waits for a turn that will not come
    (``spread`` re-raises the error once every thread has returned)."""

    def __init__(self) -> None:
        self.next = 0
        self.abandoned = False
        self.cond = threading.Condition()

    def wait(self, i: int) -> bool:
        with self.cond:
            self.cond.wait_for(lambda: self.next == i or self.abandoned)
            return not self.abandoned

    def done(self, i: int) -> None:
        with self.cond:
            self.next = i + 1
            self.cond.notify_all()

    def abandon(self) -> None:
        with self.cond:
            self.abandoned = True
            self.cond.notify_all()


def _taking_turns(work: Callable[[Iterator[int]], None], err: dict[str, Any], turns: _Turns
                  ) -> Callable[[Iterator[int]], None]:
    """``work`` for ``spread`` under the caller's errstate (``_errstate``):
    if it fails it abandons ``turns``, so that no thread waits for a turn
    that will not come."""
    def run(taken: Iterator[int]) -> None:
        with np.errstate(**err):
            try:
                work(taken)
            except BaseException:
                turns.abandon()
                raise
    return run


def _pick(better: Any) -> Callable[[Any, Any], Any]:
    """The fold of (values, indices) candidates of consecutive blocks."""
    def pick(acc: Any, new: Any) -> Any:
        (bv, bi), (nv, ni) = acc, new
        # (x != x: NaN, for bools and integers too; NumPy compares NaN quietly)
        take = better(nv, bv) | ((nv != nv) & (bv == bv))
        if np.ndim(take) == 0:
            return new if take else acc
        return np.where(take, nv, bv), np.where(take, ni, bi)
    return pick


def _candidates(arg: Any, val: Any, axis: int | None, lo: int) -> Any:
    """A block's argmax/argmin candidates (``ARG``), their indices counted
    from the start of the kernel's first axis (the block starts at ``lo``)."""
    if axis is None or val.ndim == 1:
        k = int(arg(val))
        return val.reshape(-1)[k], k + lo * (val.size // max(val.shape[0], 1))
    k = arg(val, axis=0)
    return np.take_along_axis(val, k[None], 0)[0], k + lo

_pool: ThreadPoolExecutor | None = None
_pool_size = 0


def pool(workers: int) -> ThreadPoolExecutor:
    """The worker pool, with at least ``workers`` threads."""
    global _pool, _pool_size
    if _pool is None or _pool_size < workers:
        _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lazyten")
        _pool_size = workers
    return _pool


def spread(work: Callable[[Iterator[int]], None], parts: int, threads: int) -> None:
    """Parts ``0..parts-1`` of a job, taken in turn by ``work(taken)`` on this
    thread and on up to ``threads - 1`` pool threads; return when every
    ``work`` has returned, re-raising the first error.

    Each ``work`` takes the next part from a shared counter until none is
    left, so a thread that starts late or is slowed (a woken pool thread can
    take milliseconds to run here, a VM's idle vCPU) takes fewer parts
    instead of holding the others up.  This thread works from the start
    instead of waiting, so only the other threads' wake-ups are late, and a
    pool thread that has not started when this one is done is not waited
    for (it would find no part left): a small job does not pay a wake-up.
    Once a ``work`` has failed (or been interrupted), no part is handed out.
    """
    next_part = itertools.count().__next__        # one atomic step under the GIL
    failed = False

    def taken() -> Iterator[int]:
        while not failed and (p := next_part()) < parts:
            yield p

    def run() -> None:
        nonlocal failed
        try:
            work(taken())
        except BaseException:
            failed = True
            raise

    threads = max(1, min(threads, parts))
    if threads == 1:
        run()
        return
    futs = [pool(threads - 1).submit(run) for _ in range(threads - 1)]
    try:
        run()
    finally:
        for f in futs:
            if not f.cancel():           # (a running one: nothing writes after we return)
                f.exception()
    for f in futs:
        if not f.cancelled():
            f.result()                   # (re-raises a worker's error here)


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def threads_for(opts: Options) -> int:
    """The worker threads ``opts`` asks for: its ``threads``, else every core
    this process may run on (looked up each time: a system call)."""
    return opts.threads or default_threads()


def slots(program: tuple[Instr, ...], last_in_scratch: bool = False,
          one_element: bool = False) -> tuple[list[int], int]:
    """Scratch buffer per instruction, reusing a buffer once its value is dead.

    Returns (slot of each instruction, number of slots).  An instruction
    writes in place into the slot of a temporary that dies at it (same dtype):
    an elementwise op reads and writes the same positions, so that is safe,
    and fewer scratch buffers stay hotter in cache (15% faster on
    ``sum(a*b+c)`` here).  The last instruction gets slot -1, the kernel's
    output, unless ``last_in_scratch`` (a reduction reduces it from scratch).

    ``one_element``: a kernel of one element, whose complex instructions are
    not written over an operand: NumPy's complex loops give a lone element
    written over an operand other bits (its scalar math's, without fused
    multiply-adds: ``np.multiply(z, z, out=z)`` differs from ``z * z`` in
    the last bit for 40% of random draws), as the planner's buffers know
    (``planner._inplace``).
    """
    dies_at: list[list[int]] = [[] for _ in program]  # temps whose last read is there
    last: dict[int, int] = {}
    for k, (_n, refs, _a, _d) in enumerate(program):
        for r in refs:
            if r < 0:
                last[-1 - r] = k
    for t, k in last.items():
        dies_at[k].append(t)
    free: dict[np.dtype[Any], list[int]] = {}
    slot_of: list[int] = []
    n_slots = 0
    final = len(program) - 1
    # Plain loops, not comprehensions (a call each in 3.11): this runs once
    # per instruction of every kernel planned, 100,000 for a long chain.
    for k, (_n, _refs, _a, dt) in enumerate(program):
        dying = []
        same = -1                                # a dying operand's slot of this dtype
        for t in dies_at[k]:
            st = slot_of[t]
            if st >= 0:
                dying.append(t)
                if same < 0 and program[t][3] == dt:
                    same = st
        if k == final and not last_in_scratch:
            sl = -1
        elif same >= 0 and not (one_element and dt.kind == "c"):
            sl = same                            # in place over a dying operand
        elif free.get(dt):
            sl = free[dt].pop()
        else:
            sl = n_slots
            n_slots += 1
        slot_of.append(sl)
        for t in dying:
            if slot_of[t] != sl:
                free.setdefault(program[t][3], []).append(slot_of[t])
    return slot_of, n_slots


# A program instruction made ready to run: (function, is a ufunc, positions of
# its operands in [kernel inputs..., temporaries...], scratch slot or -1 = out).
Ready = tuple[Callable[..., Any], bool, tuple[int, ...], int]


def ready(program: tuple[Instr, ...], slot_of: list[int], n_args: int) -> list[Ready]:
    """Resolve registry lookups and operand positions once per kernel (at plan
    time), not once per block: the block loop is the hot path."""
    out: list[Ready] = []
    for k, (name, refs, attrs, _dt) in enumerate(program):
        spec = REGISTRY[name]
        src = tuple([r if r >= 0 else n_args - 1 - r for r in refs])
        if spec.ufunc is not None and not attrs:
            out.append((spec.ufunc, True, src, slot_of[k]))
        else:
            out.append((functools.partial(spec.impl, **dict(attrs)), False, src, slot_of[k]))
    return out


@dataclass(frozen=True)
class Prepared:
    """A kernel program resolved once, at plan time: its instructions ready to
    call and the scratch slots (with their dtypes) they write.  A mixed
    kernel's (``loop_backend.MixedForm``) steps are its head, and ``tail``
    says where its compiled tail reads (positions in [kernel inputs, head
    values]) and writes (a scratch slot, or -1: the output)."""
    steps: list[Ready]
    slot_dtypes: list[Any]
    tail: tuple[tuple[int, ...], int] | None = None
    quiet: bool = False          # every instruction in ``QUIET_OPS``


@dataclass(frozen=True)
class TailCall:
    """A mixed kernel's compiled tail, ready for one run: the loop, called on
    each block as ``fn(*operands, out, 0, n)`` with 1-d views of the block's
    arrays, and its operands that are single elements, once for the run.
    ``raised`` collects the floating-point flags of the blocks' calls that
    raised any (``fpflags``), which NumPy's ufuncs would have reported."""
    fn: Callable[..., Any]
    operands: tuple[int, ...]
    scalars: tuple[Any, ...]     # per operand: its value if a single element, else None
    slot: int
    raised: list[int] = field(default_factory=list)


# ``prepare``'s results by its arguments: a program planned again at another
# size (a plan cache miss, a compiled function's new size) is prepared once.
# Bounded by entries and by the instructions they hold together: an entry
# keeps its whole program (and its ready steps, about 300 bytes an
# instruction), so a loop that grows a chain by a few ops an iteration and
# evaluates it each time (``t = t*0.5 + 1; float(abs(t).max())``) cached
# programs of every length up to n: 82 MB at 500 iterations with a bound by
# entries alone.  A program longer than the whole budget is not cached (its
# plan holds it; preparing it again costs as much as planning it).
_prepared: dict[Any, Prepared] = {}
_PREPARED_MAX = 512
_PREPARED_INSTRS_MAX = 1 << 15      # about 10 MB
_prepared_instrs = 0                # instructions in ``_prepared``'s keys
_prepared_lock = threading.Lock()


def prepare(program: tuple[Instr, ...], n_args: int, reduces: bool = False,
            one_element: bool = False) -> Prepared:
    """``reduces``: the kernel reduces its last value, which therefore stays
    in scratch (see ``slots``) instead of going to the output;
    ``one_element``: the kernel has one element (``slots``)."""
    global _prepared_instrs
    key = (program, n_args, reduces, one_element)
    try:
        hit = _prepared.get(key)
    except TypeError:                   # an instruction's attrs hold an array
        return _prepare(program, n_args, reduces, one_element)
    if hit is None:
        hit = _prepare(program, n_args, reduces, one_element)
        size = len(program)
        if size > _PREPARED_INSTRS_MAX:
            return hit
        with _prepared_lock:
            if key in _prepared:
                return _prepared[key]
            # (cleared from outside, the count only overstates: the next
            # insert clears again and restarts it from 0)
            if len(_prepared) >= _PREPARED_MAX \
                    or _prepared_instrs + size > _PREPARED_INSTRS_MAX:
                _prepared.clear()
                _prepared_instrs = 0
            _prepared[key] = hit
            _prepared_instrs += size
    return hit


def _prepare(program: tuple[Instr, ...], n_args: int, reduces: bool,
             one_element: bool) -> Prepared:
    slot_of, n_slots = slots(program, last_in_scratch=reduces, one_element=one_element)
    dtypes: list[Any] = [None] * n_slots
    for k, s in enumerate(slot_of):
        if s >= 0:
            dtypes[s] = program[k][3]
    return Prepared(ready(program, slot_of, n_args), dtypes,
                    quiet=all(ins[0] in QUIET_OPS for ins in program))


def prepare_mixed(head: tuple[Instr, ...], n_args: int, operands: tuple[int, ...],
                  dtype: np.dtype[Any], reduces: bool) -> Prepared:
    """A mixed kernel's head ready to run, and its tail's operands and
    destination: the head's values stay in their scratch slots until the
    tail, last, has read them."""
    tail: Instr = ("tail", tuple(-1 - (p - n_args) for p in operands if p >= n_args), (),
                   dtype)
    slot_of, n_slots = slots(head + (tail,), last_in_scratch=reduces)
    if slot_of[-1] >= 0 and slot_of[-1] in {slot_of[-1 - r] for r in tail[1]}:
        # Not in place over an operand: LLVM cannot vectorize a loop whose
        # output may alias an input without checking, and falls back to
        # scalar code where it does.
        slot_of[-1] = n_slots
        n_slots += 1
    dtypes: list[Any] = [None] * n_slots
    for k, s in enumerate(slot_of):
        if s >= 0:
            dtypes[s] = head[k][3] if k < len(head) else dtype
    return Prepared(ready(head, slot_of[:-1], n_args), dtypes, (operands, slot_of[-1]))


def _run_block(steps: list[Ready], scratch: list[Any], args: list[Any], out: Any,
               tail: TailCall | None = None) -> Any:
    """Run the instructions on one block (then a mixed kernel's tail); return
    the last one's value."""
    vals = args + [None] * len(steps)
    pos = len(args)
    dst = out
    for fn, is_ufunc, src, slot in steps:
        dst = out if slot < 0 else scratch[slot]
        if is_ufunc:
            fn(*[vals[i] for i in src], out=dst)  # (positional out is deprecated for some)
        else:
            dst[...] = fn(*[vals[i] for i in src])
        vals[pos] = dst
        pos += 1
    if tail is not None:
        dst = out if tail.slot < 0 else scratch[tail.slot]
        # (1-d views: the caller checked that blocks of every array have them)
        o = dst if dst.ndim == 1 else dst.reshape(-1)
        operands = [v if v is not None else a if (a := vals[p]).ndim == 1 else a.reshape(-1)
                    for p, v in zip(tail.operands, tail.scalars)]
        fpflags.clear()          # (the head's ufuncs leave theirs set)
        tail.fn(*operands, o, 0, o.shape[0])
        if flags := fpflags.raised():
            tail.raised.append(flags)            # (append: atomic under the GIL)
    return dst


def run_plain(program: tuple[Instr, ...], prep: Prepared, reduce: Any, args: list[Any],
              out: np.ndarray[Any, Any] | None,
              elem_shape: tuple[int, ...] | None = None, tail: TailCall | None = None) -> Any:
    """Unblocked NumPy, for small arrays where per-call overhead dominates.

    With ``out`` and the kernel's element shape, intermediates live in the
    few scratch arrays that ``slots`` assigns (``plain_scratch_bytes``) and
    the last instruction writes straight into ``out``, or, for a reduction,
    stays in scratch to be reduced: no copy, no temporary per instruction.
    """
    if out is None or elem_shape is None or not elem_shape \
            or (out.ndim == 0 and reduce is None):
        val = run_program(program, args)
        if reduce is not None:
            val = REGISTRY[reduce[0]].impl(val, **dict(reduce[1]))
        if out is None:
            return val
        out[...] = val
        return out
    scratch = take_scratch(elem_shape, prep.slot_dtypes)
    if reduce is None:
        _run_block(prep.steps, scratch, list(args), out, tail)
    else:
        val = _run_block(prep.steps, scratch, list(args), None, tail)   # the last value in scratch
        out[...] = REGISTRY[reduce[0]].impl(val, **dict(reduce[1]))
    keep_scratch(elem_shape, prep.slot_dtypes, scratch)
    return out


# Scratch each thread keeps between runs, in bytes at most (``take_arrays``):
# memory outside any plan's peak estimate, held by each thread that ran a
# block loop (the caller's and the pool's).
HELD_SCRATCH_BYTES = 4 << 20
_held = threading.local()


def take_scratch(shape: tuple[int, ...], dtypes: list[Any]) -> list[np.ndarray[Any, Any]]:
    """Scratch arrays of ``shape`` and ``dtypes`` for one run of a block
    loop on this thread (``take_arrays``)."""
    return take_arrays(tuple([(shape, d) for d in dtypes]))


def keep_scratch(shape: tuple[int, ...], dtypes: list[Any],
                 arrays: list[np.ndarray[Any, Any]]) -> None:
    """``keep_arrays`` for ``take_scratch``'s arrays."""
    keep_arrays(tuple([(shape, d) for d in dtypes]), arrays)


def take_arrays(specs: tuple[tuple[tuple[int, ...], Any], ...]) -> list[np.ndarray[Any, Any]]:
    """Arrays of ``specs`` ((shape, dtype) each) for one run on this thread:
    the ones ``keep_arrays`` kept from its last run of those specs, else
    new.  Scratch of a few hundred KiB allocated and freed at every run was
    handed back by glibc and faulted in again at the next, at a page
    fault's cost on this VM: ``a*b+c`` of 1e5 elements took 0.8 ms a run
    where NumPy's took 0.05 (0.14 with glibc's trimming off).  (Taken out of
    the pool while in use: a run nested in this one, from an errstate
    callback, gets its own.)"""
    pool: dict[Any, list[np.ndarray[Any, Any]]] | None = getattr(_held, "pool", None)
    got = pool.pop(specs, None) if pool else None
    if got is not None:
        _held.nbytes -= sum(a.nbytes for a in got)
        return got
    return [np.empty(shape, d) for shape, d in specs]


def keep_arrays(specs: tuple[tuple[tuple[int, ...], Any], ...],
                arrays: list[np.ndarray[Any, Any]]) -> None:
    """Keep ``arrays`` (``take_arrays``') for this thread's next run, the
    oldest kept ones going where the thread's would pass
    ``HELD_SCRATCH_BYTES``."""
    nbytes = sum(a.nbytes for a in arrays)
    if nbytes > HELD_SCRATCH_BYTES:
        return
    pool: dict[Any, list[np.ndarray[Any, Any]]] | None = getattr(_held, "pool", None)
    if pool is None:
        pool = _held.pool = {}
        _held.nbytes = 0
    if specs in pool:                         # (a nested run's: keep one)
        return
    while pool and _held.nbytes + nbytes > HELD_SCRATCH_BYTES:
        _held.nbytes -= sum(a.nbytes for a in pool.pop(next(iter(pool))))
    pool[specs] = arrays
    _held.nbytes += nbytes


def overlaps(out: np.ndarray[Any, Any], args: Sequence[Any]) -> bool:
    """Whether ``out`` may share memory with an array among a kernel's
    ``args``: then NumPy cannot run the kernel again after a loop or numexpr
    wrote ``out`` (the planner writes in place over inputs that die)."""
    for a in args:
        if isinstance(a, np.ndarray) and np.may_share_memory(a, out):
            return True
    return False


def drop_scratch() -> None:
    """Forget the scratch this thread keeps between runs (``take_arrays``)."""
    _held.pool, _held.nbytes = {}, 0


def plain_scratch_bytes(prep: Prepared, elem_shape: tuple[int, ...]) -> int:
    """The scratch ``run_plain`` allocates for a kernel with ``out``."""
    n = math.prod(elem_shape)
    return sum(n * np.dtype(d).itemsize for d in prep.slot_dtypes)


def blocked_scratch_bytes(prep: Prepared, reduce: Any, elem_shape: tuple[int, ...],
                          dtype: np.dtype[Any], block_elems: int, threads: int,
                          tail: bool = False) -> int:
    """The scratch ``run_blocked`` allocates: one block per slot and thread
    (``tail``: a mixed kernel's compiled tail runs)."""
    per, blocks = block_layout(reduce, elem_shape, dtype, block_elems, tail)
    nthreads = max(1, min(threads, blocks))
    return nthreads * sum(per * np.dtype(d).itemsize for d in prep.slot_dtypes)


def block_layout(reduce: Any, elem_shape: tuple[int, ...], dtype: np.dtype[Any],
                 block_elems: int, tail: bool = False) -> tuple[int, int]:
    """(elements a block, number of blocks) of the blocked loop: blocks of
    columns (``column_frame``), of each row (``row_frame``), else rows of
    ``block_frame``'s frame (a float sum's ranges of NumPy's pairwise split
    are at most such a block)."""
    if not tail and (cols := column_frame(reduce, elem_shape, block_elems)) is not None:
        i, m, level = cols
        width = _column_width(reduce, elem_shape, FRAME_BLOCKS * block_elems, i, m, level)
        return (math.prod(elem_shape[i:i + m]) * width * math.prod(elem_shape[level + 1:]),
                math.prod(elem_shape[:i]) * math.prod(elem_shape[i + m:level])
                * -(-elem_shape[level] // width))
    if (by_row := row_frame(reduce, elem_shape, dtype, block_elems)) is not None:
        j, level = by_row
        frame, rows = _row_split_frame(elem_shape, block_elems, j, level)
        return rows * math.prod(frame[1:]), math.prod(elem_shape[:j]) * -(-frame[0] // rows)
    frame = block_frame(reduce, elem_shape, block_elems)[1]
    rows = block_rows(frame, block_elems)
    return rows * math.prod(frame[1:]), -(-frame[0] // rows)


def block_rows(elem_shape: tuple[int, ...], block_elems: int) -> int:
    """Rows of ``elem_shape`` in one block: blocks are whole rows, as many as
    fit in ``block_elems`` elements, at least one."""
    return max(1, block_elems // max(math.prod(elem_shape[1:]), 1))


# Blocks have at least this many rows where the kernel allows (``block_frame``).
MIN_ROWS = 4

# The blocks of scratch a block of the long-row frames may take: a row of
# ``row_frame``, whole or a range of it, and a block of ``column_frame``'s
# columns.  Each such block costs 15-25 us of Python (its ufunc calls, its
# compiled tail's, its reduction), and a row's range of a block was 0.5-1
# blocks under NumPy's pairwise split: on two threads, where the Python of
# one waits for the other's, ranges of a block ran sums over rows of 1-16
# blocks 1.1-2.9x slower than whole rows, ranges of four blocks as fast or
# faster (whole rows of 16 blocks were 1.5x slower again: out of the
# caches); columns four blocks wide ran 1.0-1.4x faster than one wide.
FRAME_BLOCKS = 4


def block_frame(reduce: Any, elem_shape: tuple[int, ...], block_elems: int
                ) -> tuple[int, tuple[int, ...]]:
    """(``level``, ``frame``): the blocked loop's blocks are rows of
    ``frame``, the element shape with its first ``level + 1`` axes seen as
    one.  ``level`` is 0 (``frame`` the element shape) unless a row holds
    more than a ``MIN_ROWS``-th of a block and the kernel is elementwise or
    reduces every axis: then blocks would be one or two rows, each one far
    more scratch than a block (a (2, 5e6) kernel took 40 MB of it a
    thread), and a float sum's blocks could not be ranges of NumPy's
    pairwise split.  A row of the deeper frame is computed in segments, one
    for each index of the axes before ``level`` it spans (``_Segments``).

        (3, 1000, 1000), 98304 elements a block => (1, (3000, 1000))"""
    nd = len(elem_shape)
    if nd < 2 or reduce is not None and (
            reduce[0] in ARG and dict(reduce[1])["axis"] is not None
            or REGISTRY[reduce[0]].kind == "scan"
            or not _every_axis(_reduce_axes(reduce, nd), elem_shape)):
        return 0, elem_shape
    level = 0
    while level < nd - 1 and math.prod(elem_shape[level + 1:]) * MIN_ROWS > block_elems:
        level += 1
    if not level:
        return 0, elem_shape
    return level, (math.prod(elem_shape[:level + 1]),) + elem_shape[level + 1:]


def _every_axis(axes: tuple[int, ...], elem_shape: tuple[int, ...]) -> bool:
    """A reduction over ``axes`` reduces every axis longer than 1: it is one
    over every axis (NumPy's iterator drops length-1 axes)."""
    return all(i in axes or d == 1 for i, d in enumerate(elem_shape))


def column_frame(reduce: Any, elem_shape: tuple[int, ...], block_elems: int
                 ) -> tuple[int, int, int] | None:
    """(``i``, ``m``, ``level``) where the blocked loop runs a reduction
    over the ``m`` axes from ``i`` (the first ones, or a middle run), whose
    rows hold more than a ``MIN_ROWS``-th of a block, in blocks of columns:
    each block is every reduced row of a range of axis ``level`` (at an
    index of the kept axes before it, those before axis ``i`` too), reduced
    into its part of the result.  NumPy reduces each result element over
    those rows one after the other: so does a column, with no turns; and
    its scratch is up to ``FRAME_BLOCKS`` blocks (``_column_width`` of that
    many) where a row block's was a row or two, beside a
    running result of the result's size (a (2, 5e6) sum over axis 0 took
    160 MB, NumPy 120).  None otherwise: rows are short, the reduction is
    another one, or the reduced rows are too many (a block holds fewer
    than ``MIN_COLUMN`` elements, or a ``MIN_ROWS``-th of a block, of each:
    short runs of memory).  An argmax/argmin or a scan over one such axis
    runs so too: each block's columns are whole along it (a (2, 5e6) one
    took a row of scratch a thread; a mean over the channels of a (2, 3,
    1e6) batch, a row of 24 MB).

        sum over (0,) of (3, 10**6), 98304 elements a block => (0, 1, 1)
        sum over (1,) of (2, 3, 10**6), 98304 elements a block => (1, 1, 2)"""
    if reduce is None or reduce[0] not in COMBINE and reduce[0] not in ARG \
            and reduce[0] not in SCAN:
        return None
    nd = len(elem_shape)
    axes = _reduce_axes(reduce, nd)
    m = len(axes)
    i = axes[0]
    if axes != tuple(range(i, i + m)) or i + m == nd or _every_axis(axes, elem_shape) \
            or math.prod(elem_shape[1:]) * MIN_ROWS <= block_elems:
        return None
    reduced = math.prod(elem_shape[i:i + m])
    level = i + m
    while level < nd - 1 and reduced * math.prod(elem_shape[level + 1:]) * MIN_ROWS > block_elems:
        level += 1
    if reduced * math.prod(elem_shape[level + 1:]) * MIN_ROWS > block_elems or \
            _column_width(reduce, elem_shape, block_elems, i, m, level) \
            * math.prod(elem_shape[level + 1:]) < min(MIN_COLUMN, block_elems // MIN_ROWS):
        return None
    return i, m, level


def _column_width(reduce: Any, elem_shape: tuple[int, ...], block_elems: int, i: int, m: int,
                  level: int) -> int:
    """The length along axis ``level`` of a block of columns (``column_frame``):
    half a block's for argmax/argmin, whose NumPy call copies its block to
    move axis 0 last."""
    if reduce[0] in ARG:
        block_elems //= 2
    return max(1, block_elems // (math.prod(elem_shape[i:i + m])
                                  * math.prod(elem_shape[level + 1:])))


# The fewest elements of each reduced row a column block holds.
MIN_COLUMN = 1024


def row_frame(reduce: Any, elem_shape: tuple[int, ...], dtype: np.dtype[Any],
              block_elems: int) -> tuple[int, int] | None:
    """(``j``, ``level``) where the blocked loop runs a reduction over the
    last axes ``j..`` of rows longer than ``FRAME_BLOCKS`` blocks, or an
    argmax/argmin or a scan over the last axis, each row in ranges of its
    own of up to ``FRAME_BLOCKS`` blocks: rows of the frame at ``level``
    (``block_frame``, from axis ``j``).  Per row, a float sum's ranges are
    those of NumPy's pairwise split of the row, added in the tree's shape
    (NumPy sums each row pairwise); a float product's take turns, each
    going on from the product so far (NumPy multiplies one element after
    the other; so it does complex ones, which are not fused today); integer
    and bool sums and products, min/max, any/all and argmax/argmin combine
    in range order; a scan's go on from the last value of the range before.
    A whole-row block's scratch is a row, or two (a (2, 5e6) argmax over
    axis 1: 80 MB a thread, where NumPy's temporary is 40).  None otherwise:
    rows of up to ``FRAME_BLOCKS`` blocks run whole, a block each (as fast
    as in ranges, or faster); float16 products, which NumPy multiplies in
    float32; reduced axes before the last ones, ``axis=(0, 2)``, whose
    whole-row blocks in turns were 1.4-1.8x faster on two threads than
    ranges of a block, for a row of scratch a thread.

        sum over (1, 2) of (3, 1000, 1000), 98304 elements a block => (1, 1)"""
    if reduce is None:
        return None
    name = reduce[0]
    if name not in COMBINE and name not in ARG and name not in SCAN \
            or name == "prod" and dtype.kind == "f" and dtype not in PAIRWISE:
        return None
    nd = len(elem_shape)
    axes = _reduce_axes(reduce, nd)
    j = nd - len(axes)
    span = FRAME_BLOCKS * block_elems
    if not 1 <= j < nd or axes != tuple(range(j, nd)) \
            or math.prod(elem_shape[1:]) <= span \
            or name == "sum" and dtype.kind in "fc" and dtype not in PAIRWISE:
        return None
    level = j
    while level < nd - 1 and math.prod(elem_shape[level + 1:]) * MIN_ROWS > span:
        level += 1
    if name == "sum" and dtype in PAIRWISE and _pairwise_blocks(
            *_row_split_frame(elem_shape, block_elems, j, level)) is None:
        return None
    return j, level


def _row_split_frame(elem_shape: tuple[int, ...], block_elems: int, j: int, level: int
                     ) -> tuple[tuple[int, ...], int]:
    """A row of ``row_frame`` as a frame (its axes ``j..level`` as one) and
    that frame's rows a range (``FRAME_BLOCKS`` blocks at most)."""
    frame = (math.prod(elem_shape[j:level + 1]),) + elem_shape[level + 1:]
    return frame, block_rows(frame, FRAME_BLOCKS * block_elems)


def _run_row_blocks(prep: Prepared, reduce: Any, args: list[Any],
                    elem_shape: tuple[int, ...], dtype: np.dtype[Any],
                    out: np.ndarray[Any, Any], block_elems: int, threads: int,
                    tail: TailCall | None, j: int, level: int) -> Any:
    """``run_blocked`` of a reduction or scan over long rows, each in blocks
    of its own (``row_frame``)."""
    nd = len(elem_shape)
    frame, rows = _row_split_frame(elem_shape, block_elems, j, level)
    per_row = frame[0]                       # frame rows a row of the kernel has
    inner = math.prod(frame[1:])
    name = reduce[0]
    pairwise = name == "sum" and dtype in PAIRWISE
    if pairwise and (got := _pairwise_blocks(frame, rows)) is not None:
        ranges, flat = got
        rows = max(hi - lo for lo, hi in ranges)
    else:
        ranges = [(lo, min(lo + rows, per_row)) for lo in range(0, per_row, rows)]
        flat = [(0, (hi - lo) * inner) for lo, hi in ranges]
    lead = elem_shape[:j]
    nrows = math.prod(lead)
    blocks = [(p, i) for p in range(nrows) for i in range(len(ranges))]
    parts: list[list[Any]] = [[None] * len(ranges) for _ in range(nrows)]
    arg, better = ARG.get(name, (None, None))
    scan: Any = SCAN.get(name)
    combine = COMBINE.get(name, np.add)
    adds = name in ("sum", "prod")
    counts = name == "sum" and dtype.kind in "iu"   # (a bool block: count_nonzero)
    # a float product: each block in turn goes on from the row's product so
    # far (``carry``), as NumPy's one element after the other (``1 *`` the
    # row's first element changes nothing)
    carry = np.ones(nrows, dtype) if name == "prod" and dtype.kind in "fc" else None
    turns = _Turns()
    segments = _Segments(args, elem_shape, level)
    steps, err = prep.steps, _errstate()
    last = tail.slot if tail is not None else steps[-1][3]

    def chain(b: int) -> None:
        """Block ``b`` of a scan, its values in ``out``: accumulated from
        the last value of the block before it in its row."""
        p, i = blocks[b]
        lo, hi = ranges[i]
        part = out[np.unravel_index(p, lead) + (slice(max(lo - 1, 0), hi),)]
        scan.accumulate(part, axis=0, out=part)
    in_order = _InOrder(chain)

    def work(taken: Iterator[int]) -> None:
        bshape = (rows,) + frame[1:]
        scratch = take_scratch(bshape, prep.slot_dtypes)
        for b in taken:
            p, i = blocks[b]
            lo, hi = ranges[i]
            off, m = flat[i]
            if not m:
                parts[p][i] = dtype.type(0)      # (an empty range of the tree)
                continue
            scr = scratch if hi - lo == rows else [s[:hi - lo] for s in scratch]
            segments.run(steps, scr, p * per_row + lo, p * per_row + hi, None, tail)
            val = scr[last].reshape(-1)[off:off + m]
            if scan is not None:                 # (a scan's rows are 1-d: j = nd - 1)
                out[np.unravel_index(p, lead) + (slice(lo, hi),)] = val  # (cast to its dtype)
                in_order.put(b)
            elif arg is not None:
                k = int(arg(val))
                parts[p][i] = val[k], k + lo * inner
            elif carry is not None:
                if not turns.wait(b):
                    return                       # (another block failed)
                try:
                    term = val[:1]
                    np.multiply(carry[p:p + 1], term, out=term)
                    carry[p] = np.multiply.reduce(val)
                finally:
                    turns.done(b)
            else:
                parts[p][i] = np.count_nonzero(val) if counts and val.dtype == np.bool_ else \
                    combine.reduce(val, dtype=dtype) if adds else combine.reduce(val)
        keep_scratch(bshape, prep.slot_dtypes, scratch)

    spread(_taking_turns(work, err, turns), len(blocks), threads)
    if scan is not None:
        return out
    kd = out.reshape(lead + (1,) * (nd - j))   # (length-1 axes only)
    for p, row in enumerate(parts):
        kd[np.unravel_index(p, lead) + (0,) * (nd - j)] = \
            carry[p] if carry is not None else \
            functools.reduce(_pick(better), row)[1] if arg is not None else \
            dtype.type(0) + combine_splits(row) if pairwise else \
            combine.reduce(np.asarray(row, dtype=dtype))
    return out


def _run_columns(prep: Prepared, reduce: Any, args: list[Any],
                 elem_shape: tuple[int, ...], dtype: np.dtype[Any],
                 out: np.ndarray[Any, Any], block_elems: int, threads: int,
                 i: int, m: int, level: int) -> Any:
    """``run_blocked`` of a reduction or scan in blocks of columns
    (``column_frame``)."""
    nd = len(elem_shape)
    scan: Any = SCAN.get(reduce[0])
    arg = ARG[reduce[0]][0] if reduce[0] in ARG else None
    # (keepdims: length-1 axes only; a scan's columns keep the reduced axes)
    into = out if scan is not None else out.reshape(elem_shape[:i] + elem_shape[i + m:])
    whole = (slice(None),) * m if scan is not None else ()
    # a block's place: an index of the kept axes before ``level`` (those
    # before axis ``i``, then those after the reduced ones) and a range of
    # axis ``level``
    lead, n = elem_shape[:i] + elem_shape[i + m:level], elem_shape[level]
    width = _column_width(reduce, elem_shape, FRAME_BLOCKS * block_elems, i, m, level)
    blocks = [(p, lo, min(lo + width, n)) for p in range(math.prod(lead))
              for lo in range(0, n, width)]
    combine = COMBINE.get(reduce[0], np.add)
    adds = reduce[0] in ("sum", "prod")
    axes = tuple(range(m))
    steps, err = prep.steps, _errstate()
    # per operand: used whole (a scalar), or its kernel axis of its first
    # axis and which of its axes are length 1
    how = [None if not isinstance(a, np.ndarray) else
           (nd - a.ndim, tuple(d == 1 for d in a.shape)) for a in args]

    def view(a: Any, h: tuple[int, tuple[bool, ...]] | None, prefix: tuple[Any, ...],
             lo: int, hi: int) -> Any:
        if h is None:
            return a
        first, ones = h
        idx: list[Any] = []
        for ax in range(first, nd):
            one = ones[ax - first]
            if i <= ax < i + m or ax > level:
                idx.append(slice(None))
            elif ax < level:
                idx.append(0 if one else prefix[ax if ax < i else ax - m])
            else:
                idx.append(slice(0, 1) if one else slice(lo, hi))
        return a[tuple(idx)]

    def work(taken: Iterator[int]) -> None:
        with np.errstate(**err):
            bshape = elem_shape[i:i + m] + (width,) + elem_shape[level + 1:]
            scratch = take_scratch(bshape, prep.slot_dtypes)
            for b in taken:
                p, lo, hi = blocks[b]
                prefix = tuple(int(j) for j in np.unravel_index(p, lead))
                cut = (slice(None),) * m + (slice(0, hi - lo),)
                scr = scratch if hi - lo == width else [s[cut] for s in scratch]
                val = _run_block(steps, scr, [view(a, h, prefix, lo, hi)
                                              for a, h in zip(args, how)], None)
                dst = into[prefix[:i] + whole + prefix[i:] + (slice(lo, hi),)]
                if scan is not None:                 # (over one axis: m = 1)
                    scan.accumulate(val, axis=0, dtype=dtype, out=dst)
                elif arg is not None:
                    arg(val, axis=0, out=dst)
                elif adds:
                    combine.reduce(val, axis=axes, dtype=dtype, out=dst)
                else:
                    combine.reduce(val, axis=axes, out=dst)
            keep_scratch(bshape, prep.slot_dtypes, scratch)

    spread(work, len(blocks), threads)
    return out


def _errstate() -> dict[str, Any]:
    """The caller's ``np.errstate``, for worker threads: it is per thread,
    and without it errstate(all="raise") would only warn in blocked
    kernels, and its callback, or errstate(divide="call") would find none
    there."""
    err: dict[str, Any] = dict(np.geterr())
    if (call := np.geterrcall()) is not None:
        err["call"] = call
    return err


class _Segments:
    """Rows ``lo..hi`` of a kernel's deeper frame (``block_frame``) as
    segments of the kernel: an index of its first ``level`` axes and a range
    of axis ``level``; each segment's operands are views of the kernel's."""

    def __init__(self, args: list[Any], elem_shape: tuple[int, ...], level: int) -> None:
        self.args, self.level = args, level
        self.lead, self.n = elem_shape[:level], elem_shape[level]
        nd = len(elem_shape)
        # Per operand: None (used whole: a scalar, or an array broadcast
        # over the axes up to ``level``), or the kernel axis of its first
        # axis and whether it is broadcast (length 1) along each axis up to
        # ``level``.
        self.how: list[tuple[int, tuple[bool, ...]] | None] = [
            None if not isinstance(a, np.ndarray) or a.ndim < nd - level else
            (nd - a.ndim, tuple(a.shape[ax - nd + a.ndim] == 1
                                for ax in range(nd - a.ndim, level + 1)))
            for a in args]

    def run(self, steps: list[Ready], scratch: list[Any], lo: int, hi: int,
            out: np.ndarray[Any, Any] | None, tail: TailCall | None) -> None:
        """Rows ``lo..hi`` into ``scratch`` (a block of ``hi - lo`` rows)
        and, with ``out`` (the kernel's), into it."""
        off, r = 0, lo
        while r < hi:
            p, s0 = divmod(r, self.n)
            s1 = min(self.n, s0 + hi - r)
            prefix = np.unravel_index(p, self.lead)
            a = [x if how is None else x[tuple(
                0 if one else prefix[ax] for ax, one in zip(range(how[0], self.level), how[1]))
                + (slice(0, 1) if how[1][-1] else slice(s0, s1),)]
                for x, how in zip(self.args, self.how)]
            m = s1 - s0
            _run_block(steps, [s[off:off + m] for s in scratch], a,
                       None if out is None else out[tuple(prefix) + (slice(s0, s1),)], tail)
            off, r = off + m, r + m


PW_BLOCKSIZE = 128    # NumPy's pairwise-summation leaf size
# The dtypes NumPy sums pairwise in their own type (float16 adds in float32;
# complex splits its interleaved parts at other bounds).
PAIRWISE = frozenset({np.dtype(np.float32), np.dtype(np.float64)})


def splits(lo: int, n: int, parts: int) -> list[tuple[int, int]]:
    """NumPy's pairwise split of ``[lo, lo+n)`` into ``parts`` ranges (a
    power of two), left to right: the subtrees that threads or blocks can
    sum independently and add back as NumPy's recursion does
    (``combine_splits``).  A range NumPy sums without splitting it
    (``PW_BLOCKSIZE`` elements or fewer) is followed by empty ones, so the
    ranges are always the leaves of a complete tree.

    >>> splits(0, 1000, 2), splits(0, 100, 2)
    ([(0, 496), (496, 504)], [(0, 100), (100, 0)])
    """
    if parts < 2:
        return [(lo, n)]
    if n <= PW_BLOCKSIZE:
        return [(lo, n)] + [(lo + n, 0)] * (parts - 1)
    n2 = n // 2
    n2 -= n2 % 8
    return splits(lo, n2, parts // 2) + splits(lo + n2, n - n2, parts // 2)


def combine_splits(sums: list[Any]) -> Any:
    """Add the ranges' sums (``splits``) back in the tree's shape.  (Each
    may be ``0.0 +`` its range's pairwise sum, as ``np.add.reduce`` gives
    it: that changes only a -0.0 to 0.0, which the final ``0.0 +`` that
    NumPy's reduction adds does too.)"""
    if len(sums) == 1:
        return sums[0]
    half = len(sums) // 2
    return combine_splits(sums[:half]) + combine_splits(sums[half:])


@functools.lru_cache(maxsize=256)
def _pairwise_blocks(elem_shape: tuple[int, ...], rows: int
                     ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """Blocks for a sum of the flat kernel in NumPy's pairwise order: the
    ranges of ``splits``, as the rows each block computes and the range's
    (offset, length) in those rows' elements.  A range is at most a block
    of ``rows`` less a row (the rows it covers, from mid-row to mid-row, fit
    a block, so the scratch is the planner's estimate): the split halves
    ranges, so they are 0.5-1 blocks, a third more blocks than fixed ones
    (W3 on the blocked loop 10-15% slower; ranges of up to 1.5 blocks were
    within 5% but took more scratch).  None
    where blocks have too few rows (a range would compute mostly rows it
    does not sum) or too few elements (NumPy splits no range of
    ``PW_BLOCKSIZE`` or fewer).  (Cached: a kernel asks at every run; the
    lists are only read.)"""
    inner = math.prod(elem_shape[1:])
    most = (rows - 1) * inner
    if len(elem_shape) > 1 and rows < 4 or most < PW_BLOCKSIZE:
        return None
    n = elem_shape[0] * inner
    parts = 1
    while max(m for _, m in splits(0, n, parts)) > most:
        parts *= 2
    blocks, flat = [], []
    for lo, m in splits(0, n, parts):
        r0 = lo // inner
        blocks.append((r0, max(r0, -(-(lo + m) // inner))))
        flat.append((lo - r0 * inner, m))
    return blocks, flat


class _Fold:
    """Partial results of blocks ``0..n-1``, put in any order from any thread,
    combined in block order as soon as they are next in line (so few wait)."""

    def __init__(self, combine: Any, n: int) -> None:
        self.combine, self.n = combine, n
        self.waiting: dict[int, Any] = {}
        self.next = 0
        self.acc: Any = None
        self.lock = threading.Lock()

    def put(self, i: int, part: Any) -> None:
        with self.lock:
            self.waiting[i] = part
            while self.next in self.waiting:
                p = self.waiting.pop(self.next)
                self.acc = p if self.acc is None else self.combine(self.acc, p)
                self.next += 1

    def result(self) -> Any:
        assert self.next == self.n, "a block's partial result is missing"
        return self.acc


def _reduce_axes(reduce: Any, nd: int) -> tuple[int, ...]:
    """The axes a kernel's reduction (or scan) runs over; () for none."""
    if reduce is None:
        return ()
    ax = dict(reduce[1])["axis"]
    return tuple(range(nd)) if ax is None else (ax,) if isinstance(ax, int) else tuple(ax)


def reduction_order(reduce: Any, elem_shape: tuple[int, ...], dtype: np.dtype[Any],
                    block_elems: int, tail: bool = False) -> str:
    """How the blocked loop, on blocks of ``block_elems``, puts together a
    reduction over blocks: "pairwise" (a float sum over every axis longer
    than 1: blocks are ranges of NumPy's pairwise split, their sums added in
    the tree's shape), "in turn" (another float sum over the blocks' axis, or
    a float product over it: each block goes on from the result of the
    blocks before it), "folded" (block results combined left to right:
    exact for integers, bools, min/max, any/all; close for the float sums
    that have too few rows a block for the split), "per block" (the
    reduction keeps the blocks' axis), "by columns" (``column_frame``; not
    with a mixed kernel's compiled ``tail``, which reads blocks flat),
    "pairwise by row", "in turn by row" or "by row" (``row_frame``: a float
    sum, a float product, others), "" (none); a scan's: "scan by columns",
    "scan by row", "scan in turn" (along the blocks' axis: each block's
    chain goes on from the last row of the block before it) or "scan per
    block"."""
    nd = len(elem_shape)
    axes = _reduce_axes(reduce, nd)
    if not axes:
        return ""
    scan = REGISTRY[reduce[0]].kind == "scan"
    if not tail and column_frame(reduce, elem_shape, block_elems) is not None:
        return "scan by columns" if scan else "by columns"
    if row_frame(reduce, elem_shape, dtype, block_elems) is not None:
        return "scan by row" if scan else \
            "pairwise by row" if reduce[0] == "sum" and dtype in PAIRWISE else \
            "in turn by row" if reduce[0] == "prod" and dtype.kind in "fc" else "by row"
    if scan:
        return "scan in turn" if 0 in axes else "scan per block"
    level, frame = block_frame(reduce, elem_shape, block_elems)
    rows = block_rows(frame, block_elems)
    if level:
        elem_shape, axes = frame, tuple(range(len(frame)))
    if 0 not in axes:
        return "per block"
    if dtype in PAIRWISE and reduce[0] in ("sum", "prod"):
        # NumPy's iterator drops length-1 axes: a sum over the others is
        # one pairwise sum of the flat array
        if reduce[0] == "sum" and all(i in axes or d == 1 for i, d in enumerate(elem_shape)):
            return "pairwise" if _pairwise_blocks(elem_shape, rows) else "folded"
        return "in turn"
    return "folded"


def turn_axes(reduce: Any, elem_shape: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A reduction "in turn" as NumPy's reduce runs it on a C-ordered array:
    (``rows``, ``rest``).  ``rows``: a sum's reduced axes longer than 1 that
    only reduced or length-1 axes follow, which NumPy's iterator joins into
    its inner loop, one pairwise sum a row; ``rest``: the other reduced axes,
    over which NumPy adds those sums (a product: the elements), one after
    the other in C order, into the result.  ``sum(T, axis=(0, 2))`` of a
    (A, B, C) ``T`` is ``T.sum(2).sum(0)``: ((2,), (0,))."""
    axes = _reduce_axes(reduce, len(elem_shape))
    rows: list[int] = []
    if reduce[0] == "sum":
        for i in range(len(elem_shape) - 1, -1, -1):
            if i not in axes and elem_shape[i] != 1:
                break
            if i in axes and elem_shape[i] != 1:
                rows.insert(0, i)
    return tuple(rows), tuple(a for a in axes if a not in rows)


def run_blocked(prep: Prepared, reduce: Any, args: list[Any],
                elem_shape: tuple[int, ...], dtype: np.dtype[Any],
                out: np.ndarray[Any, Any], block_elems: int, threads: int,
                tail: TailCall | None = None) -> Any:
    """Blocks of rows of ``elem_shape`` (or of its deeper frame:
    ``block_frame``); ``out`` has the kernel's final shape."""
    if tail is None and (cols := column_frame(reduce, elem_shape, block_elems)) is not None:
        return _run_columns(prep, reduce, args, elem_shape, dtype, out, block_elems, threads,
                            *cols)
    if (by_row := row_frame(reduce, elem_shape, dtype, block_elems)) is not None:
        return _run_row_blocks(prep, reduce, args, elem_shape, dtype, out, block_elems,
                               threads, tail, *by_row)
    order = reduction_order(reduce, elem_shape, dtype, block_elems, tail is not None)
    level, frame = block_frame(reduce, elem_shape, block_elems)
    segments = _Segments(args, elem_shape, level) if level else None
    if level:
        # a reduction over every axis of the kernel is one over the frame's
        elem_shape = frame
        if reduce is not None and reduce[0] not in ARG:   # (an arg's axis stays None: flat)
            reduce = (reduce[0], tuple({**dict(reduce[1]),
                                        "axis": tuple(range(len(frame)))}.items()))
    n0 = elem_shape[0]
    rows = block_rows(elem_shape, block_elems)
    blocks = [(lo, min(lo + rows, n0)) for lo in range(0, n0, rows)]
    steps, slot_dtypes = prep.steps, prep.slot_dtypes
    nd = len(elem_shape)
    sliced = [isinstance(a, np.ndarray) and a.ndim == nd and a.shape[0] == n0 and n0 > 1
              for a in args]
    # (a reduction's value: the last instruction's, or the tail's, scratch slot)
    last = tail.slot if tail is not None else steps[-1][3] if reduce is not None else -1

    reduce_axes = _reduce_axes(reduce, nd)
    keep = False
    arg: Any = None
    scan: Any = None
    if reduce is not None:
        rattrs = dict(reduce[1])
        keep = bool(rattrs.get("keepdims"))
        if reduce[0] in ARG:
            arg, better = ARG[reduce[0]]
        scan = SCAN.get(reduce[0])
    across = 0 in reduce_axes  # blocks are combined, not placed
    # A float sum over every axis: its blocks are subtrees of NumPy's
    # pairwise split of the flat kernel, their sums added back in the tree's
    # shape, which is NumPy's sum to the bit (blocks folded left to right
    # came only close).  (A float result is the value's own dtype: fusion
    # keeps a sum into another dtype, which NumPy casts in buffers, out of
    # the kernel.)
    tree: list[Any] | None = None
    flat: list[tuple[int, int]] = []
    if order == "pairwise" and (got := _pairwise_blocks(elem_shape, rows)) is not None:
        blocks, flat = got
        rows = max(hi - lo for lo, hi in blocks)
        tree = [None] * len(blocks)
    # A float sum over the leading axes, or a product over them or every
    # axis: NumPy adds (multiplies) one row (element) after the other into
    # the result.  So does the kernel: each block, in turn, goes on from
    # the rows before it (``carry``: the running result, a row), where
    # folding block results came only close.
    carry: np.ndarray[Any, Any] | None = None
    turns = _Turns()
    in_rows: tuple[int, ...] = ()
    first: tuple[Any, ...] = ()
    if order == "in turn":
        in_rows = turn_axes(reduce, elem_shape)[0]
        carry = np.full(tuple(d for i, d in enumerate(elem_shape) if i not in reduce_axes),
                        0 if reduce[0] == "sum" else 1, dtype)
        # the block's first term: its first row sum (a sum; ``in_rows`` are
        # kept as length 1) or element
        first = tuple(0 if i in reduce_axes else slice(None) for i in range(nd))
    # any/all over every axis: a block that decides them (a True for any, a
    # False for all) ends the kernel where skipping blocks loses no warning.
    decided = reduce[0] == "any" if reduce is not None and reduce[0] in ("any", "all") \
        and len(reduce_axes) == nd and prep.quiet else None
    stop = False
    combine: Any = _pick(better) if arg is not None else \
        COMBINE.get(reduce[0], np.add) if reduce is not None else np.add  # (unused: np.add)
    # A sum or product adds up in the result's dtype (``sum(x > 0.5)``:
    # int64, as NumPy's does; integer partials combine exactly), and a
    # count of a bool block over every axis is ``count_nonzero``: NumPy's
    # bool-to-int64 add.reduce casts in small buffers, 7x slower.
    adds = reduce is not None and reduce[0] in ("sum", "prod")
    counts = adds and reduce[0] == "sum" and len(reduce_axes) == nd
    # Where each block's (keepdims) result goes when blocks are not combined.
    kd_shape = tuple(1 if i in reduce_axes else d for i, d in enumerate(elem_shape))
    out_kd = out.reshape(kd_shape) if reduce is not None and not across \
        and scan is None else out

    err = _errstate()                       # (np.errstate is per thread)
    # Each thread takes the next block when it is done with one (``spread``):
    # a fixed half each made the whole kernel wait for a half slowed by
    # another process or by BLAS threads still spinning after a call.
    # Partial reductions are folded in block order, so the result is the
    # same for any number of threads and any timing.
    nblocks = len(blocks)
    fold = _Fold(combine, nblocks)

    def chain(i: int) -> None:
        """Block ``i`` of a scan along the blocks' axis, its values in
        ``out``: accumulated from the last row of block ``i - 1``."""
        lo, hi = blocks[i]
        part = out[max(lo - 1, 0):hi]
        scan.accumulate(part, axis=0, out=part)
    in_order = _InOrder(chain)

    def work(taken: Iterator[int]) -> None:
        nonlocal stop
        bshape = (rows,) + elem_shape[1:]
        scratch = take_scratch(bshape, slot_dtypes)
        for i in taken:
            if stop:
                break
            lo, hi = blocks[i]
            n = hi - lo
            scr = scratch if n == rows else [s[:n] for s in scratch]
            if reduce is None:
                if segments is None:
                    _run_block(steps, scr, [x[lo:hi] if s else x for x, s in zip(args, sliced)],
                               out[lo:hi], tail)
                else:
                    segments.run(steps, scr, lo, hi, out, tail)
                continue
            if tree is not None and not flat[i][1]:
                tree[i] = dtype.type(0)                  # (an empty range of the tree)
                continue
            # the last value stays in scratch
            if segments is None:
                val = _run_block(steps, scr, [x[lo:hi] if s else x for x, s in zip(args, sliced)],
                                 None, tail)
            else:
                segments.run(steps, scr, lo, hi, None, tail)
                val = scr[last]
            if scan is not None:
                if across:
                    out[lo:hi] = val                     # (cast to the scan's dtype)
                    in_order.put(i)
                else:
                    scan.accumulate(val, axis=reduce_axes[0], dtype=dtype, out=out[lo:hi])
                continue
            # np.sum & co. are these ufuncs' reduce behind a Python wrapper
            # that costs more than a cache-sized block's work
            if arg is not None:
                if across:
                    fold.put(i, _candidates(arg, val, rattrs["axis"], lo))
                else:
                    out_kd[lo:hi] = arg(val, axis=reduce_axes[0], keepdims=True)
                continue
            if tree is not None:
                off, m = flat[i]
                tree[i] = combine.reduce(val.reshape(-1)[off:off + m], dtype=dtype)
                continue
            if carry is not None:
                # The block's rows are summed pairwise as NumPy's inner loop
                # sums them (``in_rows``); then its first term goes on from
                # the running result, and its terms are reduced one after the
                # other into it: ``0 +`` (``1 *``) that first term changes
                # nothing, as the running result, from the identity on, is
                # never -0.0.  (``val`` is this thread's scratch; ``part``
                # is that or a block's row sums.  Reducing ``in_rows`` again,
                # each of length 1 now, adds nothing: NumPy's iterator drops
                # length-1 axes.)
                part = combine.reduce(val, axis=in_rows, keepdims=True) if in_rows else val
                if not turns.wait(i):
                    return                               # (another block failed)
                try:
                    term = part[first + (...,)]          # (a view, 0-d too)
                    combine(carry, term, out=term)
                    combine.reduce(part, axis=reduce_axes, out=carry)
                finally:
                    turns.done(i)
                continue
            part = np.count_nonzero(val) if counts and val.dtype == np.bool_ else \
                combine.reduce(val, axis=reduce_axes, keepdims=True, dtype=dtype) if adds \
                else combine.reduce(val, axis=reduce_axes, keepdims=True)
            if across:
                if decided is not None and bool(part.reshape(-1)[0]) == decided:
                    stop = True
                fold.put(i, part)
            else:
                out_kd[lo:hi] = part
        keep_scratch(bshape, slot_dtypes, scratch)

    spread(_taking_turns(work, err, turns), nblocks, threads)
    if stop:
        out[...] = decided
    elif reduce is not None and across and scan is None:
        res = np.asarray(dtype.type(0) + combine_splits(tree) if tree is not None else
                         carry if carry is not None else
                         fold.result()[1] if arg is not None else fold.result(), dtype=dtype)
        out[...] = res.reshape(out.shape) if keep or res.size == out.size else res
    return out
