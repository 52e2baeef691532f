"""Per-step profiling: where the time of one evaluation goes.

``lt.profile(*tensors)`` (also ``lt.compute(*tensors, profile=True)``) plans and
runs the tensors once, exactly as ``lt.compute`` does, timing every step, and
returns the results with a ``Profile``: one row per executed step with its
kind, what it ran, its output type, wall time, bytes read and written, the
bandwidth that implies (GB/s) and its share of the total.  ``print(profile)``
shows the table; ``profile.rows`` / ``profile.top(n)`` / ``profile.to_dicts()``
give the numbers.

With ``lt.set_options(optimize=False)`` the graph is planned without the
rewrite passes, so every node is a step of its own: profile both ways to see
what fusion bought.

>>> import numpy as np
>>> import lazyten as lt
>>> x = lt.asarray(np.ones(1000))
>>> (y,), prof = lt.profile(lt.exp(x) * 2 + 1)
>>> y[:2]
array([6.43656366, 6.43656366])
>>> [r.kind for r in prof.rows]
['kernel']
>>> print(prof)  # doctest: +ELLIPSIS
step  kind ...
...
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .options import get_options

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .exec.optimized import StepTiming
    from .graph.node import Node
    from .exec.planner import Plan


def _time(s: float) -> str:
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    return f"{s * 1e6:.1f} us"


def _size(n: float) -> str:
    for unit, k in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= k:
            return f"{n / k:.1f} {unit}"
    return f"{int(n)} B"


@dataclass(frozen=True)
class ProfileRow:
    """One executed step."""

    step: int               # index in the plan (``lt.explain`` numbers steps alike)
    kind: str               # kernel | numpy | blas | view
    backend: str            # numexpr / blocked / numpy for kernels, else the kind
    what: str               # the kernel's expression or the op with its attrs
    type: str               # output dtype[shape]
    seconds: float
    bytes_read: int
    bytes_written: int
    share: float            # of the summed step times, 0..1
    source: str             # the user's line that built it
    compile_seconds: float = 0.0   # of ``seconds``: compiling the kernel's loop
    # Its compiled loop raised floating-point flags that np.errstate heeds,
    # and NumPy ran the kernel again for its warnings (``exec/fpflags.py``).
    ran_again: bool = False

    @property
    def gbps(self) -> float:
        """Bytes moved (read + written) per second, in GB/s."""
        moved = self.bytes_read + self.bytes_written
        return moved / self.seconds / 1e9 if self.seconds > 0 else 0.0


@dataclass
class Profile:
    """The per-step table of one evaluation (see the module docstring)."""

    rows: list[ProfileRow]
    plan: Plan
    plan_seconds: float     # optimizing and planning
    run_seconds: float      # executing, wall clock, steps plus the executor's own work

    @property
    def step_seconds(self) -> float:
        return sum(r.seconds for r in self.rows)

    @property
    def bytes_moved(self) -> int:
        return sum(r.bytes_read + r.bytes_written for r in self.rows)

    def top(self, n: int = 5) -> list[ProfileRow]:
        """The ``n`` slowest steps, slowest first."""
        return sorted(self.rows, key=lambda r: -r.seconds)[:n]

    def to_dicts(self) -> list[dict[str, Any]]:
        """The rows as dicts (``pandas.DataFrame(profile.to_dicts())``)."""
        return [{**asdict(r), "gbps": r.gbps} for r in self.rows]

    def format(self, width: int = 44) -> str:
        """The table: one row per step (``what`` cut to ``width`` characters),
        then a total line."""
        head = ("step", "kind", "what", "output", "time", "read", "written", "GB/s", "share",
                "line")
        body = []
        for r in self.rows:
            kind = f"{r.kind}[{r.backend}]" if r.kind == "kernel" else r.kind
            what = r.what if len(r.what) <= width else r.what[:width - 3] + "..."
            took = _time(r.seconds) + (f" (compiling {_time(r.compile_seconds)})"
                                       if r.compile_seconds > 0 else "") + (
                " (run again on NumPy: FP flags)" if r.ran_again else "")
            body.append((str(r.step), kind, what, r.type, took, _size(r.bytes_read),
                         _size(r.bytes_written), f"{r.gbps:.2f}" if r.kind != "view" else "-",
                         f"{r.share:.1%}", r.source))
        widths = [max([len(h)] + [len(b[k]) for b in body]) for k, h in enumerate(head)]
        # Text columns left-aligned, numbers right-aligned.
        left = {1, 2, 3, 9}

        def fmt(cells: tuple[str, ...]) -> str:
            return "  ".join(c.ljust(w) if k in left else c.rjust(w)
                             for k, (c, w) in enumerate(zip(cells, widths))).rstrip()

        lines = [fmt(head)] + [fmt(b) for b in body]
        total = self.step_seconds
        gbps = self.bytes_moved / total / 1e9 if total > 0 else 0.0
        steps = f"{len(self.rows)} step" + ("" if len(self.rows) == 1 else "s")
        lines.append(f"-- {steps} ran in {_time(total)} "
                     f"(run {_time(self.run_seconds)}, plan {_time(self.plan_seconds)}); "
                     f"{_size(self.bytes_moved)} moved, {gbps:.2f} GB/s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def _repr_html_(self) -> str:
        # Jupyter: the same table, monospaced (the text is the format).
        import html
        return f"<pre>{html.escape(self.format())}</pre>"

    def __repr__(self) -> str:
        return (f"<lazyten.Profile: {len(self.rows)} steps, {_time(self.step_seconds)}, "
                f"{_size(self.bytes_moved)} moved>")


def build_profile(plan: Plan, timings: list[StepTiming], plan_seconds: float,
                  run_seconds: float) -> Profile:
    """A ``Profile`` from the executor's ``StepTiming`` list."""
    from .exec.explain import step_what
    total = sum(t.seconds for t in timings) or 1.0
    rows = []
    for t in timings:
        s = t.step
        backend = s.kernel.backend if s.kind == "kernel" and s.kernel is not None else s.kind
        # A view moves no data: counting its operand's bytes would show an
        # absurd bandwidth.
        moved = (0, 0) if s.kind == "view" else (t.bytes_read, t.bytes_written)
        rows.append(ProfileRow(s.index, s.kind, backend, step_what(s), s.node.type_str(),
                               t.seconds, moved[0], moved[1], t.seconds / total,
                               s.node.where, t.compile_seconds, t.ran_again))
    return Profile(rows, plan, plan_seconds, run_seconds)


def plan_as_run(nodes: Sequence[Node]) -> Plan:
    """The plan of what evaluating ``nodes`` runs under the current options:
    the optimized plan, or with ``optimize=False`` the graph as built with
    every node a step of its own (what the reference executor runs)."""
    from .exec.numpy_backend import threads_for
    from .exec.optimized import plan_for
    from .exec.planner import make_plan
    from .graph.rewrite import Graph
    opts = get_options()
    if opts.optimize:
        return plan_for(nodes, opts)
    g = Graph(tuple(nodes))
    return make_plan(g, opts, threads_for(opts), len(g.nodes()), {})


def profile(*tensors: Any) -> tuple[tuple[np.ndarray[Any, Any], ...], Profile]:
    """Evaluate ``tensors`` like ``lt.compute`` and time every step.

    Returns ``(results, profile)``; ``print(profile)`` shows the table.
    """
    from .exec.executor import caller_owned
    from .exec.numpy_backend import threads_for
    from .exec.optimized import execute
    from .tensor import wrap
    nodes = [wrap(t)._node for t in tensors]
    opts = get_options()
    threads = threads_for(opts)
    t0 = time.perf_counter()
    plan = plan_as_run(nodes)
    t1 = time.perf_counter()
    timings: list[StepTiming] = []
    vals = execute(plan, threads, timings=timings)
    t2 = time.perf_counter()
    # As in lt.compute: the caller owns what it gets.
    return caller_owned(nodes, vals), build_profile(plan, timings, t1 - t0, t2 - t1)
