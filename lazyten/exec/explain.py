"""The text form of a plan (``lt.explain``).

One line per step, then a two-line summary::

    step 3  kernel[numexpr] %3:float64[4,3] = { sin((i2 + (i0 * i1))) } %0 %2 %1 -> b0 (new)  # model.py:4
    step 4  numpy           %4:float64[3] = sum %3 axis=(0,) -> b1 (new)  # model.py:5
    -- 7 steps: 1 fused kernel (1 numexpr), 1 numpy call, 1 BLAS call, 1 view; 3 buffers, ...
    -- graph: 9 nodes before optimization, 7 after; removed: 2 fused into kernels

A step's kind is ``kernel[<backend>]`` (a fused elementwise kernel, run by
numexpr, plain NumPy or blocked NumPy), ``numpy`` (one NumPy call), ``blas``
(a matrix product), ``view`` (no data moved) or ``input``.  ``-> bN`` names the
buffer the step writes: ``(new)``, ``(reused from %k, dead after step j)``,
``(in place of %k)``, or ``bN[i:j] (into the join %k)`` for a kernel that
writes straight into its slice of a concat's buffer (the concat then says how
many of its operands are in place).

With ``verbose=True`` each step is followed by indented lines saying why:
which ops were fused into a kernel, why a kernel was *not* fused with the
step that reads it, why its backend was chosen, and why it writes where it
does.

Node ids grow over the life of the process; ``renumber=True`` names every
value by its step number instead (``%k`` is the value step ``k`` computes),
with inputs and constants listed first in the order they are first read
(``display_order``), so the text is the same from run to run.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any


if TYPE_CHECKING:
    from ..graph.node import Node
    from .kernels import Kernel
    from .loop_backend import LoopForm
    from .planner import Plan, Step

_ID = re.compile(r"%(\d+)")


# How the blocked loop puts a reduction together (``numpy_backend.reduction_order``).
_ORDERS = {
    "": "",
    "pairwise": "the sum adds ranges of NumPy's pairwise split in its tree (NumPy's bits)",
    "in turn": "blocks take turns, each going on from the result before it (NumPy's order)",
    "folded": "block results folded left to right",
    "per block": "each block reduced on its own",
    "by columns": "blocks of columns, each reducing every row of its columns (NumPy's order)",
    "pairwise by row": "each row in ranges of NumPy's pairwise split, added in its tree "
                       "(NumPy's bits)",
    "in turn by row": "each row in blocks of its own, taking turns, each going on from the "
                      "product before it (NumPy's order)",
    "by row": "each row in blocks of its own, their results combined in order",
    "scan by columns": "blocks of columns, each scanning every row of its columns "
                       "(NumPy's order)",
    "scan by row": "each row in blocks of its own, each going on from the last value of "
                   "the block before (NumPy's order)",
    "scan in turn": "each block's chain goes on from the last row of the block before "
                    "(NumPy's order)",
    "scan per block": "each block scanned on its own",
}


def _bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Names:
    """Printed names of values: ``%<node id>``, or ``%<step>`` when renumbering.

    Texts produced elsewhere (the planner's and the kernel compiler's reasons)
    mention node ids as ``%<id>``; ``text`` maps those through the same table
    so a renumbered plan never shows a raw id.
    """

    def __init__(self, plan: Plan, renumber: bool) -> None:
        self.renumber = renumber
        self.order = display_order(plan) if renumber else list(plan.steps)
        self.map = {s.node.id: k for k, s in enumerate(self.order)}

    def __call__(self, node_id: int) -> str:
        if self.renumber and node_id in self.map:
            return f"%{self.map[node_id]}"
        return f"%{node_id}"

    def step(self, step: Step) -> int:
        """The number a step is shown with."""
        return self.map[step.node.id] if self.renumber else step.index

    def text(self, s: str) -> str:
        if not self.renumber:
            return s
        return _ID.sub(lambda m: self(int(m.group(1))), s)


def display_order(plan: Plan) -> list[Step]:
    """The steps as a renumbered plan shows them: inputs and constants first,
    in the order the computing steps first read them, then the computing
    steps in plan order.

    The plan orders steps by node id, and a constant is shared by every graph
    that uses it (hash-consing), so a constant made earlier by unrelated code
    would otherwise move to the front; inputs do nothing at run time, so
    listing them by first use changes nothing but the numbering.
    """
    sources = [s for s in plan.steps if s.kind == "source"]
    source_of = {s.node.id: s for s in sources}
    listed: dict[int, Step] = {}
    for s in plan.steps:
        if s.kind == "source":
            continue
        for i in s.node.inputs:
            if i.id in source_of and i.id not in listed:
                listed[i.id] = source_of[i.id]
    rest = [s for s in sources if s.node.id not in listed]   # outputs that are inputs
    return list(listed.values()) + rest + [s for s in plan.steps if s.kind != "source"]


def step_kind(step: Step) -> str:
    """``kernel[numexpr]``, ``numpy``, ``blas``, ``view`` or ``input``."""
    if step.kind == "kernel" and step.kernel is not None:
        return f"kernel[{step.kernel.backend}]"
    return "input" if step.kind == "source" else step.kind


def step_what(step: Step, name: _Names | None = None) -> str:
    """What a step runs: the fused kernel's expression over its inputs
    ``i0, i1, ...`` followed by those inputs, or the op, inputs and attrs."""
    from ..graph.passes.fuse import program_str
    from ..graph.printer import _attr_str
    n = step.node
    nm = name if name is not None else (lambda i: f"%{i}")
    ins = " ".join(nm(i.id) for i in n.inputs)
    if step.kind == "kernel":
        expr = "{ " + program_str(n.attrs["program"], n.attrs["reduce"]) + " }"
        return f"{expr} {ins}"
    return " ".join(x for x in (n.op.name, ins, _attr_str(n)) if x)


def _previous_holder(plan: Plan, step: Step) -> Step | None:
    """The last earlier step that wrote ``step.buffer`` (whose value died)."""
    for s in reversed(plan.steps[:step.index]):
        if s.buffer == step.buffer and s.kind != "view":
            return s
    return None


def _death_step(plan: Plan, buffer: int, before: int) -> Step | None:
    for s in reversed(plan.steps[:before]):
        if buffer in s.frees:
            return s
    return None


def buffer_text(plan: Plan, step: Step, name: _Names) -> str:
    """Where a step's value lives: ``b0 (new)``, ``b1 (in place of %3)``, ..."""
    from .planner import EXTERNAL
    if step.buffer == EXTERNAL:
        return "view of input" if step.kind == "view" else "input"
    if step.kind == "view":
        return f"view of b{step.buffer}"
    if step.into is not None:
        j, lo, hi = step.into
        new = ", new" if step.new_buffer else ""
        return f"b{step.buffer}[{lo}:{hi}] (into the join {name(j.id)}{new})"
    if step.joined:
        return f"b{step.buffer} ({len(step.joined)} of {len(step.node.inputs)} operands in place)"
    if step.update is not None:
        u, base = step.update
        if step.inplace_of is not None:
            over = f"in place of {name(base.id)}"
        else:
            fresh = ", new" if step.new_buffer else ", reused" if step.reused is not None else ""
            over = f"over a copy of {name(base.id)}{fresh}"
        return f"b{step.buffer}{_part_text(u)} (into the write {name(u.id)}, {over})"
    if step.filled:
        return f"b{step.buffer} (written by its kernel)"
    if step.inplace_of is not None:
        return f"b{step.buffer} (in place of {name(step.inplace_of)})"
    if step.reused is not None:
        prev = _previous_holder(plan, step)
        dead = _death_step(plan, step.buffer, step.index)
        src = f" from {name(prev.node.id)}" if prev is not None else ""
        when = f", dead after step {name.step(dead)}" if dead is not None else ""
        return f"b{step.buffer} (reused{src}{when})"
    return f"b{step.buffer} (new)"


def _part_text(update: Node) -> str:
    """The part a write writes, as NumPy's index reads: ``[1:999, 1:999]``."""
    from .planner import written_part

    def item(i: Any) -> str:
        if isinstance(i, slice):
            step = "" if i.step in (None, 1) else f":{i.step}"
            return f"{'' if i.start is None else i.start}:{'' if i.stop is None else i.stop}{step}"
        return "..." if i is Ellipsis else str(i)
    return "[" + ", ".join(item(i) for i in written_part(update)) + "]"


def _fusion_notes(plan: Plan, step: Step, readers: list[Step], name: _Names) -> list[str]:
    """Why this step's kernel holds what it holds, and why it was not fused
    further into the step that reads it.

    Mirrors the legality rule of the fuse pass (``placement`` in
    ``graph/passes/fuse.py``): a value joins its reader's kernel only if it
    is not an output, every reader is in that one kernel (or, by the cost
    rule, it is cheap enough to recompute in each), and it has the kernel's
    element count.
    """
    from ..graph.ops import REGISTRY
    from ..graph.passes.fuse import fusable_root, reduction_dtype_issue
    n = step.node
    notes: list[str] = []
    if step.kind == "kernel":
        ops = [ins[0] for ins in n.attrs["program"]]
        red = n.attrs["reduce"]
        kind = "reduction" if red is None else REGISTRY[red[0]].kind
        desc = _ops_with_lines(ops, n) + (f", then {red[0]} ({kind} fused: no full-size "
                                          f"temporary)" if red is not None else "")
        notes.append(f"fusion: {_plural(len(ops), 'op')} in one kernel: {desc}")
        again = n.attrs.get("recomputed") or ()
        if again:
            notes.append(f"fusion: recomputes {', '.join(ops[k] for k in again)}, also "
                         f"computed by other kernels: cheaper than storing it once "
                         f"(the fuse pass's cost rule)")
    if step.kind not in ("kernel", "numpy") or n.op.kind not in ("kernel", "elementwise"):
        return notes
    outputs = {o.id for o in plan.outputs}
    if n.id in outputs:
        notes.append("fusion: not fused into later steps: it is an output")
    elif len(readers) > 1:
        who = ", ".join(f"step {name.step(r)}" for r in readers)
        notes.append(f"fusion: not fused into its readers: read by {len(readers)} steps "
                     f"({who}); computing it in each would cost more than storing it "
                     f"once (the fuse pass's cost rule)")
    elif len(readers) == 1:
        r = readers[0]
        rn = r.node
        if r.kind == "kernel":
            elems = _prod(rn.attrs["elem_shape"]) if rn.attrs.get("elem_shape") else n.size
            if n.size != elems:
                notes.append(f"fusion: not fused into step {name.step(r)}: it has "
                             f"{_plural(n.size, 'element')}, step {name.step(r)} has {elems}; "
                             f"fusing would recompute it for every element it is broadcast to")
            else:
                notes.append(f"fusion: not fused into step {name.step(r)}")
        elif fusable_root(rn) or rn.op.kind == "scan":
            why = ("its result's shape is not this kernel's (an initial value, or a 0-d "
                   "input scanned as 1-d)"
                   if not fusable_root(rn) else reduction_dtype_issue(rn)
                   or "the reduction's input is needed elsewhere")
            notes.append(f"fusion: {rn.op.name} (step {name.step(r)}) not fused into this "
                         f"kernel: {why}")
        else:
            notes.append(f"fusion: read by step {name.step(r)} ({rn.op.name}), which is not "
                         f"elementwise and does not fuse")
    return notes


def _ops_with_lines(ops: list[str], n: Node) -> str:
    """``multiply, add (model.py:3), sin (model.py:4)``: each run of ops
    built on one line, followed by that line (kept by the fuse pass)."""
    import os
    sources = n.attrs.get("sources") or ()
    if len(sources) < len(ops):
        return ", ".join(ops)
    parts: list[str] = []
    run: list[str] = []
    for k, op in enumerate(ops):
        run.append(op)
        if k + 1 == len(ops) or sources[k + 1] != sources[k]:
            f, line = sources[k]
            parts.append(f"{', '.join(run)} ({os.path.basename(f)}:{line})")
            run = []
    return ", ".join(parts)


def _prod(shape: tuple[int, ...]) -> int:
    p = 1
    for d in shape:
        p *= d
    return p


def format_step(plan: Plan, step: Step, name: _Names) -> str:
    """The one-line form of a step (without the source comment)."""
    n = step.node
    head = f"step {name.step(step):<3} {step_kind(step):<16} {name(n.id)}:{n.type_str()}"
    if step.kind == "source":
        if n.op.kind != "source":
            what = "cached value"
        elif n.op.name == "const":
            what = f"const {n.attrs['value']!r}" + (", weak" if n.weak else "")
        else:
            what = n.op.name + (f" {n.attrs['name']!r}" if n.attrs.get("name") else "")
        return f"{head} ({what})"
    line = f"{head} = {step_what(step, name)} -> {buffer_text(plan, step, name)}"
    if step.frees:
        line += "  free " + ",".join(f"b{b}" for b in step.frees)
    return line


def format_plan(plan: Plan, verbose: bool = False, renumber: bool = False) -> str:
    """One line per step: kind, output type, what runs, which buffer it writes.

        step 2  kernel[blocked] float64[10000000] = { ((i0 * i1) + i2) }  -> b0 (new)

    >>> import lazyten as lt
    >>> a = lt.asarray([1.0, 2.0])
    >>> with lt.set_options(backend="numpy"):
    ...     print(format_plan(lt.plan(a * 2 + 1), renumber=True))  # doctest: +ELLIPSIS
    step 0   input            %0:float64[2] (input)  # <doctest ...
    step 1   input            %1:int64[] (const 2, weak)  # <doctest ...
    step 2   input            %2:int64[] (const 1, weak)  # <doctest ...
    step 3   kernel[numpy]    %3:float64[2] = { ((i0 * i1) + i2) } %0 %1 %2 -> b0 (new)  # ...
    -- 4 steps: 1 fused kernel (1 numpy); 1 buffer, temporaries 0 B, peak estimate 32 B (with kernel scratch 16 B)
    -- graph: 5 nodes before optimization, 4 after; removed: 1 fused into kernels
    """
    name = _Names(plan, renumber)
    readers: dict[int, list[Step]] = {}
    by_node = {s.node.id: s for s in plan.steps}
    for s in plan.steps:
        if s.kind == "source":
            continue
        seen: set[int] = set()
        for i in s.node.inputs:
            if i.id in by_node and i.id not in seen:
                seen.add(i.id)
                readers.setdefault(i.id, []).append(s)
    lines = []
    for s in name.order:
        where = s.node.where
        if s.node.op.name == "const" and readers.get(s.node.id):
            # A constant is shared process-wide: show the line of its reader here.
            where = readers[s.node.id][0].node.where
        lines.append(f"{format_step(plan, s, name)}  # {where}")
        if not verbose or s.kind == "source":
            continue
        notes = _fusion_notes(plan, s, readers.get(s.node.id, []), name)
        if s.kind == "kernel" and s.kernel is not None:
            notes.append(f"backend: {s.kernel.backend}: {name.text(s.kernel.why)}")
            if s.kernel.backend == "blocked" or (s.kernel.backend == "mixed"
                                                 and s.kernel.fallback == "blocked"):
                from . import loop_backend
                from .numpy_backend import block_layout, blocked_scratch_bytes, reduction_order
                k = s.kernel
                tail = k.mixed is not None and loop_backend.is_compiled(k.mixed.loop)
                elems = block_layout(k.reduce, k.block_shape, k.node.dtype, k.block_elems,
                                     tail)[0]
                slots = len(k.prepared.slot_dtypes)
                scratch = blocked_scratch_bytes(k.prepared, k.reduce, k.block_shape,
                                                k.node.dtype, k.block_elems, 1, tail)
                order = _ORDERS[reduction_order(k.reduce, k.block_shape, k.node.dtype,
                                                k.block_elems, tail)]
                notes.append(f"blocks: {elems} elements, {slots} scratch "
                             f"slot{'' if slots == 1 else 's'} ({scratch // 1024} KiB a thread)"
                             f"{'; ' + order if order else ''}")
            if s.kernel.loop is not None:
                form = s.kernel.loop
                what = {"ew": "elementwise", "ew2": "elementwise by rows",
                        "ewn": "elementwise, an axis a loop, over broadcast operands",
                        "sum": "pairwise sum", "rows": "pairwise sum of each row",
                        "cols": "sum of rows, one after the other"}[form.mode] \
                    if form.op == "sum" else {
                        "sum": "product, one element after the other (one thread)",
                        "rows": "product of each row, one element after the other",
                        "cols": "product of rows, one after the other"}[form.mode] \
                    if form.op == "prod" else {
                        "sum": "scan, one element after the other (one thread)",
                        "rows": "scan along each row",
                        "cols": "scan down the columns, row after row"}[form.mode]
                shape = " x ".join(map(str, form.dims or (form.outer, form.inner)))
                notes.append(f"loop: {_loop_state(s.kernel, form)}; {what} over {form.n} "
                             f"elements ({shape}), source {form.key}.py")
            if s.kernel.mixed is not None:
                m = s.kernel.mixed
                notes.append(f"mixed: {len(m.head)} ops as NumPy ufuncs "
                             f"({', '.join(ins[0] for ins in m.head)}), {len(m.tail_ops)} "
                             f"in one compiled loop a block over {len(m.operands)} operands; "
                             f"loop: {_loop_state(s.kernel, m.loop)}, source {m.loop.key}.py")
            if s.kernel.numexpr is not None:
                # The exact string handed to numexpr.evaluate (its own names).
                notes.append(f"numexpr: {s.kernel.numexpr.expr}")
            notes.append(f"buffer: {name.text(s.why) if s.why else 'new buffer'}")
        elif s.kind == "view":
            notes.append("buffer: a view, no data moved")
        else:
            notes.append("buffer: new (only fused kernels write in place or into reused "
                         "buffers)")
        lines.extend(f"         {t}" for t in notes)
    lines.extend(summary_lines(plan))
    return "\n".join(lines)


def _loop_state(k: Kernel, form: LoopForm) -> str:
    """Whether a kernel's compiled loop (or mixed tail) is compiled yet."""
    from . import loop_backend
    why_not = loop_backend.failure(form)
    if loop_backend.is_compiled(form):
        return "compiled"
    if why_not:
        return f"unusable ({why_not}): {k.fallback} runs it"
    if k.compile_now:
        return f"not compiled yet ({k.fallback} runs it until its first run)"
    return (f"not compiled yet ({k.fallback} runs it until run {loop_backend.HOT_RUNS} "
            f"and until its runs have taken {loop_backend.COMPILE_SHARE:.0%} of the "
            f"{loop_backend.expected_compile_seconds(form):.2f} s compiling is expected "
            f"to take: {loop_backend.fallback_seconds(form):.3f} s so far)")


def summary_lines(plan: Plan) -> list[str]:
    """``-- N steps: ...`` and ``-- graph: ...``: counts, memory, what was removed."""
    kernels = plan.kernels
    backends: dict[str, int] = {}
    for s in kernels:
        b = s.kernel.backend if s.kernel is not None else "?"
        backends[b] = backends.get(b, 0) + 1
    parts = []
    if kernels:
        by = ", ".join(f"{v} {k}" for k, v in sorted(backends.items()))
        parts.append(f"{_plural(len(kernels), 'fused kernel')} ({by})")
    # A join whose kernels wrote every operand into it does no work of its own.
    filled = sum(1 for s in plan.steps if s.joined and len(s.joined) == len(s.node.inputs))
    for kind, word in (("numpy", "numpy call"), ("blas", "BLAS call"), ("view", "view")):
        k = sum(1 for s in plan.steps if s.kind == kind) - (filled if kind == "numpy" else 0)
        if k:
            parts.append(_plural(k, word))
    if filled:
        parts.append(_plural(filled, "join") + " filled in place")
    out_ids = {n.id for n in plan.outputs}
    out_bufs = {s.buffer for s in plan.steps if s.node.id in out_ids}
    temp = sum(nb for b, (nb, _d) in plan.buffers.items() if b not in out_bufs)
    removed = ", ".join(f"{v} {k}" for k, v in plan.removed.items() if v) or "nothing"
    return [
        f"-- {_plural(len(plan.steps), 'step')}: {', '.join(parts) or 'no work'}; "
        f"{_plural(len(plan.buffers), 'buffer')}, temporaries {_bytes(temp)}, "
        f"peak estimate {_bytes(plan.peak_bytes)}"
        + (f" (with kernel scratch {_bytes(plan.scratch_bytes)})" if plan.scratch_bytes else ""),
        f"-- graph: {plan.before_nodes} nodes before optimization, {len(plan.steps)} after; "
        f"removed: {removed}",
    ]
