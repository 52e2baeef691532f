"""Graph -> Plan: steps in order, liveness, buffer reuse and in-place writes.

Liveness is computed once (``last_use``: the last step that reads a value)
and every decision reads from it:

* a buffer dies when the last step reading its value *or any view of it* has
  run; a view never outlives the buffer it looks at;
* a kernel writes in place into an input buffer that dies at that very step,
  has the output's dtype and shape, is read by no other operand of the step
  (``x + x.T`` must not overwrite ``x``), and was allocated by the plan:
  user arrays and cached values are never written;
* otherwise a kernel takes a dead buffer of the same dtype and size from the
  pool, or a new one;
* a kernel whose only reader is a join (concat, stack) writes straight into
  its slice of the join's buffer, which is allocated when the first such
  operand runs: no buffer of its own, no copy at the join (``join_targets``);
* a kernel whose only reader is a write (``v[1:-1] = k(u)``, ``x[2:5] +=
  1``: ``part_index``) writes straight into the written part of the write's buffer: its base's
  dying buffer where the kernel reads none of it, else a copy of the base
  made first (``update_targets``); the write then has nothing left to do;
* outputs stay alive to the end and are returned as they are.

The plan is data (``Plan``) and prints as text (``Plan.format``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..graph import shapes as S
from ..graph.node import Node
from ..graph.passes.fuse import FUSED, program_str
from ..graph.ops import UPDATE_INTO
from ..graph.rewrite import Graph
from ..options import Options
from .kernels import Kernel, compile_kernel

EXTERNAL = -1  # buffer id of user arrays, cached values and constants


@dataclass
class Step:
    index: int
    node: Node
    kind: str                      # kernel | numpy | blas | view | source
    buffer: int                    # buffer the value lives in (EXTERNAL for inputs)
    new_buffer: bool = False       # this step allocates ``buffer``
    reused: int | None = None      # buffer taken from the pool (reused)
    inplace_of: int | None = None  # node id whose dying buffer is overwritten
    kernel: Kernel | None = None
    frees: list[int] = field(default_factory=list)   # buffers dead after this step
    # Of ``frees``, those a later step reuses: the executor keeps only these
    # (a buffer no step takes again is released, not held in the pool).
    recycles: set[int] = field(default_factory=set)
    why: str = ""                  # why in place / reuse / new
    # A kernel writing into its join's buffer: (join node, start, stop)
    # along the join's axis.  On the join's step: its operands written so.
    into: tuple[Node, int, int] | None = None
    joined: frozenset[int] = frozenset()
    # A kernel writing into the part of a write's buffer that the write
    # (``part_index``, the next step) writes: (that node, its base); its buffer
    # is the write's, and ``inplace_of`` the base it writes over (None: a
    # copy of the base).  On the write's step: ``filled``, nothing to write.
    update: tuple[Node, Node] | None = None
    filled: bool = False
    # The node's inputs as planned: another thread caching the node's value
    # meanwhile drops ``node.inputs`` (``executor.cache``), which a step
    # already planned still reads.
    inputs: tuple[Node, ...] = ()


@dataclass
class Plan:
    graph: Graph                   # the optimized graph the plan runs
    steps: list[Step]
    outputs: tuple[Node, ...]
    buffers: dict[int, tuple[int, np.dtype[Any]]]   # id -> (nbytes, dtype)
    # The most memory alive at once: buffers, plus the running kernel's
    # scratch (``Kernel.scratch_bytes``); what ``memory_limit`` is held to.
    peak_bytes: int
    removed: dict[str, int]        # what the optimizer removed, by kind
    before_nodes: int
    buffer_peak_bytes: int = 0     # the peak of the buffers alone
    scratch_bytes: int = 0         # the largest kernel scratch
    # Join node id -> the kernel steps writing into its buffer (``Step.into``),
    # whose layouts the buffer's takes (``optimized._join_buffer``)
    join_kernels: dict[int, list[Step]] = field(default_factory=dict)

    @property
    def kernels(self) -> list[Step]:
        return [s for s in self.steps if s.kind == "kernel"]

    def format(self, verbose: bool = False) -> str:
        from .explain import format_plan
        return format_plan(self, verbose)

    def __str__(self) -> str:
        return self.format()


BLAS_OPS = frozenset({"matmul", "dot", "tensordot", "vecdot", "einsum", "inner"})


def _kind(node: Node) -> str:
    if node.value is not None or node.op.kind == "source":
        return "source"
    if node.op is FUSED:
        return "kernel"
    if node.op.kind == "view":
        return "view"
    if node.op.name in BLAS_OPS:
        return "blas"
    return "numpy"


# Joins smaller than this copy their operands as before: the saving is a
# small copy, and plans of small joins keep the generated-code fast path,
# which writes each kernel into its own buffer.
JOIN_INTO_MIN_BYTES = 1 << 16


def _reads(order: list[Node]) -> dict[int, int]:
    """Node id -> how many times the pending nodes of ``order`` read it."""
    uses: dict[int, int] = {}
    for n in order:
        if n.value is None:
            for i in n.inputs:
                uses[i.id] = uses.get(i.id, 0) + 1
    return uses


def join_targets(order: list[Node], outputs: set[int], min_bytes: int | None = None
                 ) -> tuple[list[Node], dict[int, tuple[Node, int, int]]]:
    """``order`` with the kernels that write straight into their slice of a
    join's buffer moved to just before the join, and kernel node id ->
    (join node, start, stop) for them.

    A kernel qualifies when the join is its only reader (once), it is no
    output, has the join's dtype and no reduction.  Its slice may be
    strided (a join along a later axis): NumPy's ufuncs and numexpr write
    any ``out``.  A cached value is no kernel.  Moved next to the join,
    every operand's value, or its kernel's operands, are there when the
    first of them runs: the buffer is laid out as NumPy's ``concatenate``
    lays out its result over them (``optimized._join_buffer``).

        concat(k1(a), k2(b), x)  =>  k1 -> J[0:n1], k2 -> J[n1:n1+n2]; J copies x only
    """
    limit = JOIN_INTO_MIN_BYTES if min_bytes is None else min_bytes
    uses = _reads(order)
    into: dict[int, tuple[Node, int, int]] = {}
    for j in order:
        if j.op.name != "concat" or j.value is not None or j.nbytes < limit:
            continue
        axis = j.attrs["axis"]
        if axis is None:
            continue                         # (a join of flattened operands)
        lo = 0
        for x in j.inputs:
            hi = lo + x.shape[axis]
            if x.op is FUSED and x.value is None and uses.get(x.id) == 1 \
                    and x.id not in outputs and x.dtype == j.dtype \
                    and x.attrs["reduce"] is None:
                into[x.id] = (j, lo, hi)
            lo = hi
    if not into:
        return order, into
    moved: list[Node] = []
    for n in order:
        if n.id in into:
            continue
        if n.op.name == "concat":
            moved.extend(x for x in n.inputs if into.get(x.id, (None,))[0] is n)
        moved.append(n)
    return moved, into


def part_index(update: Node) -> Any:
    """The (normalized) index of the part a write writes: a ``setitem``'s,
    or a ``view_update``'s through one slice of its base (``x[2:5] += 1``:
    ``x[2:5]`` updated in place); None for other writes."""
    if update.op.name == "setitem":
        return update.attrs["index"]
    if update.op.name == "view_update" and update.attrs.get("order", "K") == "K":
        path = update.attrs["path"]
        if len(path) == 1 and path[0][0] == "getitem":
            attrs = dict(path[0][1])
            if set(attrs) == {"index"}:
                return attrs["index"]
    return None


def written_part(update: Node) -> tuple[Any, ...]:
    """The index a write (``part_index``) writes at, as NumPy takes it."""
    return S.index_to_python(part_index(update))


def _positions(index: Any) -> list[range] | None:
    """Per axis of the base, the positions a normalized basic index selects
    (an integer's as a range of one); None where it adds an axis."""
    out = []
    for item in index:
        if item[0] == "s":
            out.append(range(item[1], item[2], item[3]))
        elif item[0] == "i":
            out.append(range(item[1], item[1] + 1))
        else:
            return None
    return out


def written_rest(update: Node) -> list[tuple[slice, ...]] | None:
    """The blocks of a write's base that it does not write, where its
    index is integers and slices of step 1 (None otherwise): along each
    axis in turn, what lies before and after the written range, within the
    written ranges of the axes before it.

        [1:-1, 2:] of (5, 6)  =>  [0:1, :], [4:5, :], [1:4, 0:2]
    """
    ranges = _positions(part_index(update))
    if ranges is None or any(r.step != 1 for r in ranges):
        return None
    rest: list[tuple[slice, ...]] = []
    for ax, r in enumerate(ranges):
        inner = tuple(slice(q.start, max(q.start, q.stop)) for q in ranges[:ax])
        for a, b in ((0, r.start), (max(r.start, r.stop), update.shape[ax])):
            if b > a:
                rest.append(inner + (slice(a, b),))
    return rest


def update_targets(order: list[Node], outputs: set[int], min_bytes: int | None = None
                   ) -> tuple[list[Node], dict[int, Node]]:
    """``order`` with each kernel that may write into the part of a write
    (``part_index``) it is the value of moved to just before the write, and
    kernel node id -> that write.

    A kernel qualifies when the write is its only reader (once, as its
    value), it is no output, has the write's dtype and exactly the written
    part's shape (no broadcast, no cast: a kernel's ``out``), and the write
    is no NumPy scalar conversion (``scalar``).  Moved next to the write, no
    step runs between the kernel writing that part and the write, which is
    what lets the kernel write over the base's buffer (``make_plan``).
    Small writes keep the generated-code fast path's plans (as joins do).

        setitem(v, k(u), [1:-1])  =>  k(u) -> v's buffer[1:-1]; the setitem writes nothing
    """
    limit = JOIN_INTO_MIN_BYTES if min_bytes is None else min_bytes
    uses = _reads(order)
    targets: dict[int, Node] = {}
    for u in order:
        if u.op.kind != "update" or u.value is not None or u.nbytes < limit \
                or u.attrs.get("scalar") or part_index(u) is None:
            continue
        base, x = u.inputs
        if x.op is FUSED and x.value is None and uses.get(x.id) == 1 and x is not base \
                and x.id not in outputs and x.dtype == u.dtype \
                and S.normalize_index(base.shape, written_part(u))[1] == x.shape:
            targets[x.id] = u
    if not targets:
        return order, targets
    kernel_of = {u.id: u.inputs[1] for u in targets.values()}
    moved: list[Node] = []
    for n in order:
        if n.id in targets:
            continue
        if n.id in kernel_of:
            moved.append(kernel_of[n.id])
        moved.append(n)
    return moved, targets


def make_plan(graph: Graph, opts: Options, threads: int, before_nodes: int = 0,
              removed: dict[str, int] | None = None) -> Plan:
    outputs = {n.id for n in graph.outputs}
    order, updates = update_targets(graph.nodes(), outputs)
    order, into = join_targets(order, outputs)
    join_buffer: dict[int, int] = {}     # join node id -> its buffer, once allocated
    join_kernels: dict[int, list[Step]] = {}     # join node id -> its kernels' steps
    filling: dict[int, Step] = {}        # write node id -> the kernel step writing its part
    last_use: dict[int, int] = {}
    for k, n in enumerate(order):
        if n.value is None:
            for i in n.inputs:
                last_use[i.id] = k
    end = len(order)
    for o in outputs:
        last_use[o] = end

    buffer_of: dict[int, int] = {}
    buf_last: dict[int, int] = {}
    # Step -> buffers whose last reader it was when last heard of, and the
    # order buffers (re)entered buf_last: freeing looks at the dying buffers
    # only, not at every live one per step (quadratic for a stack of 10,000
    # computed operands), and frees them in buf_last's order, as it did.
    dies_at: dict[int, list[int]] = {}
    born: dict[int, int] = {}
    buffers: dict[int, tuple[int, np.dtype[Any]]] = {}
    pool: dict[tuple[int, np.dtype[Any]], list[int]] = {}
    steps: list[Step] = []
    live = 0
    # Per step: the bytes in use when it runs, and its kernel's scratch; a
    # buffer dead and waiting in the pool counts (``held``) from its free to
    # its reuse, and not at all where no step reuses it.
    live_at: list[int] = []
    scratch_at: list[int] = []
    freed_at: dict[int, int] = {}
    held: list[tuple[int, int, int]] = []         # (first step, reuse step, bytes)

    def take_dead(key: tuple[int, np.dtype[Any]], step: Step) -> int | None:
        """A dead buffer of ``key``'s size and dtype for ``step``, or None."""
        nonlocal live
        if not pool.get(key):
            return None
        b = pool[key].pop()
        live += key[0]
        held.append((freed_at[b] + 1, step.index, key[0]))
        steps[freed_at[b]].recycles.add(b)
        step.reused = b
        return b

    # Pass 1: which buffer each value lives in, and how long each buffer lives.
    # Views extend the life of their base's buffer (never free under a view).
    def alias_buffer(n: Node) -> int | None:
        if n.op.kind == "view" and n.value is None:
            return buffer_of.get(n.inputs[0].id)
        return None

    for k, n in enumerate(order):
        # (inputs read before the kind: ``cache`` sets the value, then drops
        # the inputs, so dropped inputs come with a value: a source step)
        ins = n.inputs
        kind = _kind(n)
        step = Step(k, n, kind, EXTERNAL, inputs=ins)
        if kind == "source":
            buffer_of[n.id] = EXTERNAL
        elif kind == "view":
            b = alias_buffer(n)
            buffer_of[n.id] = EXTERNAL if b is None else b
        else:
            # The pool only holds buffers that no later step reads.
            nbytes = n.nbytes
            key = (nbytes, n.dtype)
            target: int | None = None
            dest = into.get(n.id)
            u = updates.get(n.id) if kind == "kernel" else None
            if u is not None:
                target, why = _update_in_place(u, k + 1, buffer_of, buf_last, outputs)
                if target is not None and not _reads_apart(n, u, buffer_of):
                    # It reads the base it would write over elsewhere than
                    # where it writes (a stencil written back, ``u[1:-1] =
                    # k(u)``): into another buffer, the rest of the base
                    # copied there (the base's buffer dies at the write: the
                    # next step's such buffer, from the pool), where the
                    # rest is blocks smaller than the part; else a buffer of
                    # its own, which the write copies into the base's dying
                    # one (``x[10:20] = k(x)`` of a large x).
                    target, why = None, f"it reads %{u.inputs[0].id}"
                    rest = written_rest(u)
                    if rest is None or 2 * n.size <= u.size:
                        u = None
            if u is not None:
                step.kernel = compile_kernel(n, opts, threads)
                base = u.inputs[0]
                step.update = (u, base)
                if target is not None:
                    step.inplace_of = target
                    buffer_of[n.id] = buffer_of[target]
                    step.why = (f"into the part %{u.id} writes, in place of %{base.id} "
                                f"(it dies there)")
                else:
                    # Over a copy of the base (of the rest of it, where that
                    # is blocks), made at this step before the kernel runs.
                    if (b := take_dead((u.nbytes, u.dtype), step)) is None:
                        b = len(buffers)
                        buffers[b] = (u.nbytes, u.dtype)
                        step.new_buffer = True
                        live += u.nbytes
                    buffer_of[n.id] = b
                    step.why = (f"into the part %{u.id} writes, over a copy of %{base.id} "
                                f"({why.removesuffix(': copied')})")
                filling[u.id] = step
            elif kind == "kernel" and dest is not None:
                # Into its join's buffer, allocated by the first such operand.
                step.kernel = compile_kernel(n, opts, threads)
                j, lo, hi = dest
                step.into = dest
                join_kernels.setdefault(j.id, []).append(step)
                jb = join_buffer.get(j.id)
                if jb is None:
                    jb = join_buffer[j.id] = len(buffers)
                    buffers[jb] = (j.nbytes, j.dtype)
                    step.new_buffer = True
                    live += j.nbytes
                buffer_of[n.id] = jb
                step.why = f"into its slice [{lo}:{hi}] of %{j.id}'s buffer"
            elif kind == "kernel":
                step.kernel = compile_kernel(n, opts, threads)
                target, step.why = _inplace(n, k, buffer_of, buf_last, last_use, outputs)
                if target is not None:
                    step.inplace_of = target
                    buffer_of[n.id] = buffer_of[target]
                elif (b := take_dead(key, step)) is not None:
                    buffer_of[n.id] = b
                    step.why = f"reuses dead buffer b{b}"
            elif (ks := filling.pop(n.id, None)) is not None:
                step.filled = True
                step.inplace_of = ks.inplace_of
                buffer_of[n.id] = ks.buffer
                step.why = f"written by its kernel %{ks.node.id}"
            elif n.op.name in UPDATE_INTO:
                target, step.why = _update_in_place(n, k, buffer_of, buf_last, outputs)
                if target is not None:
                    step.inplace_of = target
                    buffer_of[n.id] = buffer_of[target]
            elif n.id in join_buffer:
                buffer_of[n.id] = join_buffer[n.id]
                step.joined = frozenset(i.id for i in n.inputs if i.id in into)
                step.why = (f"{len(step.joined)} of {len(n.inputs)} operands written into it "
                            f"by their kernels")
            if n.id not in buffer_of:
                b = len(buffers)
                buffers[b] = (nbytes, n.dtype)
                buffer_of[n.id] = b
                step.new_buffer = True
                live += nbytes
        b = step.buffer = buffer_of[n.id]
        if b != EXTERNAL:
            if b not in buf_last:
                born[b] = k
            last = buf_last[b] = max(buf_last.get(b, -1), last_use.get(n.id, k))
            dies_at.setdefault(last, []).append(b)
        steps.append(step)
        # Buffers whose last reader is this step die now.
        live_at.append(live)
        scratch_at.append(step.kernel.scratch_bytes(threads) if step.kernel is not None else 0)
        dying = dies_at.pop(k, None)
        if dying is not None:
            for b in sorted({b for b in dying if buf_last.get(b) == k}, key=born.__getitem__):
                step.frees.append(b)
                del buf_last[b]
                nb, dt = buffers[b]
                pool.setdefault((nb, dt), []).append(b)
                freed_at[b] = k
                live -= nb
    # The pool's bytes per step, from the (free, reuse) intervals.
    change = [0] * (len(steps) + 1)
    for first, last, nb in held:
        change[first] += nb
        change[last] -= nb
    pooled = peak = buffer_peak = 0
    for k, (in_use, scratch) in enumerate(zip(live_at, scratch_at)):
        pooled += change[k]
        buffer_peak = max(buffer_peak, in_use + pooled)
        peak = max(peak, in_use + pooled + scratch)
    return Plan(graph, steps, tuple(graph.outputs), buffers, peak, removed or {},
                before_nodes, buffer_peak, max(scratch_at, default=0), join_kernels)


# Reasons an in-place write was not taken, listed in a step's ``why`` up to
# this many (a kernel over 10,000 user arrays has as many).
WHY_NOT_SHOWN = 4


def _inplace(n: Node, k: int, buffer_of: dict[int, int], buf_last: dict[int, int],
             last_use: dict[int, int], outputs: set[int]) -> tuple[int | None, str]:
    """An input whose buffer this kernel may overwrite, and why (not)."""
    if n.dtype.kind == "c" and n.size == 1:
        # NumPy's complex loops give other bits for one element written over
        # an operand (``multiply(a, b, out=b)``: 40% of random draws,
        # measured; none at 2 to 17 elements)
        return None, "one complex element: NumPy's loop over an operand gives other bits"
    reasons: list[str] = []
    others = 0                            # reasons past WHY_NOT_SHOWN
    scalar_out = not n.shape
    for i in n.inputs:
        b = buffer_of.get(i.id, EXTERNAL)
        if i.weak or not i.shape and not scalar_out:
            continue
        if b == EXTERNAL:
            why = " is user/cached data"
        elif buf_last.get(b) != k or i.id in outputs:
            why = " is read later"
        elif i.dtype != n.dtype or i.shape != n.shape or n.attrs["reduce"] is not None:
            why = " has another dtype/shape"
        elif i.op.kind == "view":
            why = " is a view"
        elif sum(1 for j in n.inputs if buffer_of.get(j.id) == b) > 1:
            why = "'s buffer is read through another operand"
        else:
            # (the plan holds for operands of any layout; the executor takes
            # a new buffer where this one is not laid out as NumPy's result:
            # ``Kernel.keeps_layout_in``)
            when = ", when laid out as NumPy's result" if len(n.shape) >= 2 else ""
            return i.id, f"in place into %{i.id} (it dies here{when})"
        if len(reasons) < WHY_NOT_SHOWN:
            reasons.append(f"%{i.id}{why}")
        else:
            others += 1
    if others:
        reasons.append(f"{others} more")
    return None, "; ".join(reasons) if reasons else "no full-size input"


def reads_apart(i: Node, n: Node, u: Node) -> bool:
    """Whether operand ``i`` of the kernel ``n`` reads its write ``u``'s base
    only where ``n`` may write over it: a slice of the base that is the part
    ``u`` writes, read element for element by an elementwise ``n``
    (``x[2:5] += 1``), or one outside that part (``x[2:5] *= x[8:11]``)."""
    if i.op.name != "getitem" or i.inputs[0] is not u.inputs[0]:
        return False
    index, part = i.attrs["index"], part_index(u)
    if index == part:
        return n.attrs["reduce"] is None and i.shape == n.shape
    return _apart(index, part)


def _apart(a: Any, b: Any) -> bool:
    """Whether the normalized basic indices ``a`` and ``b`` of one array
    select no element in common: their ranges along some axis do not meet."""
    ra, rb = _positions(a), _positions(b)
    if ra is None or rb is None:
        return False                           # (a new axis: axes no longer line up)
    return any(not x or not y or max(x) < min(y) or max(y) < min(x) for x, y in zip(ra, rb))


def _reads_apart(n: Node, u: Node, buffer_of: dict[int, int]) -> bool:
    """Whether the kernel ``n`` reads its write ``u``'s base's buffer only
    where it may write over it (``reads_apart``)."""
    b = buffer_of.get(u.inputs[0].id)
    return all(reads_apart(i, n, u) for i in n.inputs if buffer_of.get(i.id) == b)


def _update_in_place(n: Node, k: int, buffer_of: dict[int, int], buf_last: dict[int, int],
                     outputs: set[int]) -> tuple[int | None, str]:
    """The base whose buffer a functional update (``setitem``, ``scatter``)
    may write into, and why (not): the base's own buffer, dying here and
    read by no other operand of the step (a value that is a view of it)."""
    base = n.inputs[0]
    b = buffer_of.get(base.id, EXTERNAL)
    if b == EXTERNAL:
        return None, f"%{base.id} is user/cached data: copied"
    if buf_last.get(b) != k or base.id in outputs:
        return None, f"%{base.id} is read later: copied"
    if base.op.kind == "view" or base.dtype != n.dtype or base.shape != n.shape:
        return None, f"%{base.id} is a view: copied"
    if any(buffer_of.get(i.id) == b for i in n.inputs[1:]):
        return None, f"%{base.id}'s buffer is read through another operand: copied"
    return base.id, f"in place into %{base.id} (it dies here)"


def describe_step(step: Step) -> str:
    n = step.node
    if step.kind == "kernel":
        return "{ " + program_str(n.attrs["program"], n.attrs["reduce"]) + " }"
    return n.op.name
