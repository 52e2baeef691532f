"""The text form of a plan (``lt.explain``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .planner import Plan


def _bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def format_plan(plan: Plan, verbose: bool = False) -> str:
    """One line per step: kind, output type, what runs, which buffer it writes.

        step 2  kernel[blocked] float64[10000000] = { ((i0 * i1) + i2) }  -> b0 (new)
    """
    from .planner import EXTERNAL, describe_step
    lines = []
    for s in plan.steps:
        n = s.node
        if s.kind == "source":
            what = "cached" if n.op.kind != "source" else n.op.name
            lines.append(f"step {s.index:<3} {'input':<16} %{n.id}:{n.type_str()} ({what})")
            continue
        kind = f"kernel[{s.kernel.backend}]" if s.kind == "kernel" and s.kernel else s.kind
        ins = " ".join(f"%{i.id}" for i in n.inputs)
        if s.buffer == EXTERNAL:
            dest = "view of input"
        elif s.kind == "view":
            dest = f"view of b{s.buffer}"
        elif s.inplace_of is not None:
            dest = f"b{s.buffer} (in place of %{s.inplace_of})"
        elif s.reused is not None:
            dest = f"b{s.buffer} (reused)"
        else:
            dest = f"b{s.buffer} (new)"
        line = (f"step {s.index:<3} {kind:<16} %{n.id}:{n.type_str()} = "
                f"{describe_step(s)} {ins} -> {dest}")
        if s.frees:
            line += "  free " + ",".join(f"b{b}" for b in s.frees)
        lines.append(line)
        if verbose and s.kind == "kernel" and s.kernel is not None:
            lines.append(f"         backend: {s.kernel.why}")
            lines.append(f"         buffer: {s.why or 'new buffer'}")
        if verbose:
            lines.append(f"         built at {n.where}")
    kernels = len(plan.kernels)
    temp = sum(nb for b, (nb, _d) in plan.buffers.items()
               if not any(s.buffer == b for s in plan.steps if s.node in plan.outputs))
    removed = ", ".join(f"{v} {k}" for k, v in plan.removed.items() if v) or "nothing"
    lines.append(f"-- {len(plan.steps)} steps, {kernels} fused kernel(s), "
                 f"{len(plan.buffers)} buffer(s), temporaries {_bytes(temp)}, "
                 f"peak estimate {_bytes(plan.peak_bytes)}")
    lines.append(f"-- graph: {plan.before_nodes} nodes before optimization, "
                 f"{len(plan.steps)} after; removed: {removed}")
    return "\n".join(lines)
