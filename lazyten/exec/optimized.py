"""Optimized evaluation: rewrite passes, then a plan, then the plan's steps.

    optimize: simplify -> decompose [-> blas_dots] -> cse -> pushdown -> simplify -> matmul_order -> cse
              -> fuse
    plan:     liveness, in-place and reused buffers, a backend per kernel
    execute:  steps in order, each dead buffer a later step reuses returned to
              a pool at once (the others released)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..graph import node as _graph_node
from ..graph.node import (_NEVER_STALE, STRUCTURE_LOCK, Node, attrs_key, entered,
                          graph_summary, intern, scalar_key, toposort, without_summary)
from ..graph.layout import join_order, layout_stand_in
from ..graph.ops import REGISTRY, UPDATE_INTO
from ..graph.passes.canonicalize import cse
from ..graph.passes.decompose import blas_dots, decompose
from ..graph.passes.fuse import fuse
from ..graph.passes.matmul_order import matmul_order
from ..graph.passes.pushdown import pushdown
from ..graph.passes.simplify import simplify
from ..graph.rewrite import Graph, rebuild
from ..options import Options
from .errors import with_provenance
from .reference import run_reference, unaliased, view_leaf_value
from . import fpflags
from .loop_backend import first_call_seconds
from .gcpause import gc_paused
from .numpy_backend import threads_for
from .planner import (EXTERNAL, Plan, Step, describe_step, make_plan, written_part,
                      written_rest)
from .reference import confirm

Pass = Callable[[Graph], Graph]
PASSES: tuple[tuple[str, Pass], ...] = (
    ("simplify", simplify),
    ("decompose", decompose),
    ("cse", cse),
    ("pushdown", pushdown),
    ("simplify", simplify),
    ("matmul_order", matmul_order),
    ("cse", cse),
    ("fuse", fuse),
)
# With ``lt.set_options(blas_dot=True)``: ``blas_dots`` right after decompose.
_AT = [name for name, _ in PASSES].index("decompose") + 1
PASSES_BLAS_DOT = PASSES[:_AT] + (("blas_dots", blas_dots),) + PASSES[_AT:]


def optimize(outputs: Sequence[Node], opts: Options) -> tuple[Graph, dict[str, int], int]:
    """The optimized graph, what each pass removed (node counts), and the
    number of nodes before."""
    g = Graph(tuple(outputs))
    before = len(g.nodes())
    removed: dict[str, int] = {}
    count = before
    ran: dict[Pass, Graph] = {}         # pass -> the graph it last returned
    for name, p in PASSES_BLAS_DOT if opts.blas_dot else PASSES:
        if p is matmul_order and not opts.matmul_order:
            continue                         # (NumPy's order: lt.set_options(matmul_order=False))
        if ran.get(p) is g:
            # Nothing changed since this pass last ran, and every pass is
            # idempotent: skip it (the second simplify and cse, mostly).
            if opts.check and p(g).outputs != g.outputs:
                raise AssertionError(f"pass {name} is not idempotent")
            continue
        g = ran[p] = p(g)
        if opts.check:
            from ..graph.verify import verify_graph
            verify_graph(g.outputs)
        now = len(g.nodes())
        label = "fused into kernels" if name == "fuse" else f"by {name}"
        removed[label] = removed.get(label, 0) + max(0, count - now)
        count = now
    return g, removed, before


def plan_for(outputs: Sequence[Node], opts: Options) -> Plan:
    # (gc paused: the passes' surviving allocations set off full collections)
    with STRUCTURE_LOCK, gc_paused():
        g, removed, before = optimize(outputs, opts)
        return plan_optimized(g, opts, before, removed)


def plan_optimized(g: Graph, opts: Options, before: int = 0,
                   removed: dict[str, int] | None = None) -> Plan:
    """The plan of an optimized graph, held to ``memory_limit`` (and, with
    no limit, to the memory available) before anything is allocated."""
    with gc_paused():
        plan = make_plan(g, opts, threads_for(opts), before, removed)
    if opts.check:
        from .checks import verify_plan
        verify_plan(plan)
    if opts.memory_limit is not None and plan.peak_bytes > opts.memory_limit:
        raise plan_memory_error(plan, opts.memory_limit)
    if opts.memory_limit is None and plan.peak_bytes > (64 << 20):
        # Without a limit, the machine's available memory is one: fail with
        # a clear message before allocating, not half-way through a plan.
        avail = available_memory()
        if avail is not None and plan.peak_bytes > avail:
            raise plan_memory_error(plan, avail, "the memory available now")
    return plan


def available_memory() -> int | None:
    """Bytes of memory available now (Linux ``MemAvailable``), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def plan_memory_error(plan: Plan, limit: int, what: str = "memory_limit") -> MemoryError:
    big = sorted(((nb, b) for b, (nb, _d) in plan.buffers.items()), reverse=True)[:3]
    owners = {s.buffer: s.node for s in plan.steps if s.new_buffer}
    parts = [f"b{b} {nb / 1e6:.1f} MB for %{owners[b].id} {owners[b].op.name} "
             f"{owners[b].type_str()} (built at {owners[b].where})"
             for nb, b in big if b in owners]
    err = MemoryError(
        f"the plan needs about {plan.peak_bytes / 1e6:.1f} MB at its peak, over "
        f"{what} of {limit / 1e6:.1f} MB; largest buffers: {'; '.join(parts)}. "
        f"Evaluate in chunks (lt.compute_chunked, lt.set_options(memory_limit=...) for "
        f"elementwise-plus-reduction graphs, or slices of the inputs).")
    if big and big[0][1] in owners:
        with_provenance(err, owners[big[0][1]])
    return err


# Plans are cached by the graph's *structure*, so rebuilding the same
# expression on new arrays skips optimization and planning (what dominates
# for small arrays and for small slices of big ones).  A cached plan is made
# over placeholder leaves (``_template``): it keeps no user array alive.
PLAN_CACHE_NODES = 2000
PLAN_CACHE_SIZE = 256
# A structure is cached on its second evaluation, not its first: most graphs
# evaluated once (an interactive expression, a record of a new length) are
# never seen again, and their template was 2-3 us a node, a sixth of a first
# evaluation.  A loop pays one plan more, once.  The structures seen once are
# remembered by their keys' hashes (a walked signature can be large; a
# collision only caches a structure early).
_seen: set[int] = set()
_SEEN_MAX = 4 * PLAN_CACHE_SIZE
# A small cached plan runs as generated straight-line code
# (``compile._fast_runner``), made when the plan is cached: its structure has
# been seen twice.  Generating and compiling that code costs about 50 us a
# step (once per structure: other sizes share it), so only for plans of at
# most this many steps and kernel instructions.
FAST_PATH_STEPS = 256
# Its scratch buffers are kept between calls (per thread) up to this size:
# allocating them is a tenth of a 100-element call, and the cache's plans
# then hold at most PLAN_CACHE_SIZE x 16 KiB a thread.
FAST_PATH_HELD_BYTES = 16 << 10


# A graph none of whose operations computes more than
# ``Options.tiny_elements`` elements (4096; its leaves, arrays given or
# computed before, and its views, which compute nothing, may be of any size:
# ``a[5] * b[6] + 1`` of large arrays is tiny), whose plan is not cached (a
# structure seen once, or too large to cache), runs node by node as NumPy
# (``run_reference``) under the default backend: optimizing and planning it
# cost 20-40 us a node, where NumPy's call on so few elements takes 1-3 us (4
# us with the reference's checks), and fusing saves next to nothing (the data
# is in cache), nor can a slice pushed down.  npbench's kernels at their small
# sizes (30x30 to 60x60, graphs of thousands of writes) evaluated 3-5x faster
# so (adi 144 ms -> 33, lu 164 -> 34, seidel_2d 71 -> 13).  A cached plan runs
# as it is: its fused steps (10-25 us each) beat a node each where they fuse a
# few (jacobi_1d's 37 kernels over 300 nodes: 0.6 ms against 1.5).
# ``check=True`` (which verifies the optimizer), an explicit backend or a
# ``memory_limit`` (a plan's peak estimate) optimize whatever the size.


def _tiny(outputs: Sequence[Node], opts: Options) -> list[Node] | None:
    """The graph computing ``outputs`` (entered), inputs first, where it is
    to run node by node (above); else None."""
    most = opts.tiny_elements
    if not most or opts.backend != "auto" or opts.check or opts.memory_limit is not None:
        return None
    for o in outputs:
        if o.size > most and o.op.kind != "view":
            return None                      # (a large result: no walk)
    order = toposort(outputs)
    for n in order:
        if n.size > most and n.value is None and n.op.kind not in ("source", "view"):
            return None
    return order


# A read of views of computed or user arrays (``int(a[i])``,
# ``a[2:5].eval()``, a slice bound read from an index array) has nothing to
# compute, fuse or plan: it runs as NumPy's views whatever the size or the
# options (but ``check``, which verifies the optimizer).  Planned, a structure
# seen twice was templated, planned and given generated code (80-100 us), and
# every index read was a structure of its own: a loop reading ``a[i]`` for
# each ``i`` planned each one and filled the plan cache with them.
VIEW_CHAIN_MAX = 16


def _views_of_values(outputs: Sequence[Node]) -> list[Node] | None:
    """Each output's chain of one-input views down to a node with a value,
    inputs first, where every output is one (at most ``VIEW_CHAIN_MAX``
    views deep); else None."""
    if len(outputs) != 1:
        return None                          # (one read: the common case, no merging)
    chain: list[Node] = []
    n = outputs[0]
    while n.value is None:
        if n.op.kind != "view" or len(n.inputs) != 1 or len(chain) == VIEW_CHAIN_MAX:
            return None
        chain.append(n)
        n = n.inputs[0]
    if not chain:
        return None
    chain.append(n)
    chain.reverse()
    return chain


def node_by_node_note(outputs: Sequence[Node], opts: Options) -> str | None:
    """Why an evaluation of ``outputs`` runs node by node as NumPy (a read
    of views, ``_views_of_values``; a tiny graph whose plan is not cached,
    ``_tiny``), for ``lt.explain`` to say so; None when it is planned."""
    if opts.check:
        return None
    if _views_of_values(outputs) is not None:
        return ("views: the read is views of values computed or given, run as NumPy's "
                "views without a plan")
    if _tiny([entered(o) for o in outputs], opts) is not None:
        return (f"tiny: no operation computes over {opts.tiny_elements} elements "
                f"(tiny_elements): an evaluation whose plan is not cached runs the graph "
                f"node by node as NumPy, which costs less than optimizing it")
    return None


@dataclass
class CachedPlan:
    plan: Plan
    leaves: list[Node]                  # its placeholder leaves, in signature order
    uses: int = 0
    fast: Callable[..., list[Any]] | None = None

    def bindings(self, values: list[Any]) -> dict[int, Any]:
        """Placeholder node id -> the value of the leaf in its position."""
        return {t.id: v for t, v in zip(self.leaves, values)}


def _fast_for(entry: CachedPlan, opts: Options) -> Callable[..., list[Any]] | None:
    plan = entry.plan
    size = len(plan.steps) + sum(len(s.node.attrs["program"]) for s in plan.steps
                                 if s.kind == "kernel")
    if size > FAST_PATH_STEPS:
        return None
    from ..compile import _fast_runner
    return _fast_runner(plan, [t.id for t in entry.leaves], opts.backend,
                        hold_scratch=FAST_PATH_HELD_BYTES)


_plans: OrderedDict[tuple[Any, ...], CachedPlan] = OrderedDict()
_plans_lock = threading.Lock()


def signature(outputs: Sequence[Node]) -> tuple[tuple[Any, ...], list[Node]] | None:
    """A hashable description of the graph's structure, and its leaves in order.

    Two graphs with equal signatures get the same plan: same ops, attrs,
    shapes, dtypes, constants and wiring; only the leaves' arrays differ.
    Nodes are numbered in depth-first post-order from the outputs, not by
    id: ids depend on what was built before (a cached constant is older than
    the expression using it), the structure does not.  None when the graph
    is too large to cache.

    Outputs whose build-time summaries are current (``graph_summary``) need
    no walk: their structure ids are the signature (a key that never equals
    a walked one), their summaries' leaves the leaves.  Otherwise the walk
    sees the outputs entered (``run_optimized`` restates this, keeping the
    entered outputs for the plan).
    """
    summary = graph_summary(outputs)
    if summary is not None:
        return ("summary", summary[0]), summary[1]
    return walk_signature([entered(o) for o in outputs])


def walk_signature(outputs: Sequence[Node]) -> tuple[tuple[Any, ...], list[Node]] | None:
    """``signature`` by walking the graph (what a build-time summary stands for)."""
    pos: dict[int, int] = {}
    items: list[Any] = []
    leaves: list[Node] = []
    stack = list(reversed(outputs))
    while stack:
        n = stack.pop()
        p = pos.get(n.id)
        if p is None:
            if n.value is None and n.inputs and n.leaves is not None:   # (not a view leaf)
                if len(pos) >= PLAN_CACHE_NODES:
                    return None              # too large: say so before walking it all
                pos[n.id] = -1               # expanded: popped again once its inputs are
                stack.append(n)
                # loops, not comprehensions, here and below: each of those is a
                # call (3.11), and this runs per node of every evaluation
                for i in reversed(n.inputs):
                    if i.id not in pos:
                        stack.append(i)
                continue
        elif p >= 0:
            continue                         # numbered already
        if len(items) == PLAN_CACHE_NODES:
            return None
        pos[n.id] = len(items)
        if n.value is None and n.op.name == "const":
            v = n.attrs["value"]   # a scalar: (type, repr) tells 1 from 1.0 and NaN == NaN
            items.append(("c", type(v), scalar_key(v), n.dtype, n.weak))
        elif n.value is not None or n.op.kind == "source" or n.leaves is None:
            items.append(("s", n.shape, n.dtype))   # (a view leaf too: is_leaf)
            leaves.append(n)
        else:
            # The source line is part of the key: a cached plan's nodes are
            # what run-time errors name, so they must carry this graph's lines.
            wires = []
            for i in n.inputs:
                wires.append(pos[i.id])
            ak = n.akey
            if ak is None:
                ak = attrs_key(n)
            items.append((n.op.name, ak, n.shape, n.dtype,
                          tuple(wires), n.source))
    items.append(tuple(pos[o.id] for o in outputs))
    return tuple(items), leaves


class _Stale(Exception):
    """A node of the graph got a value while a plan was being cached."""


def _template(outputs: Sequence[Node], leaves: list[Node]) -> tuple[list[Node], list[Node]]:
    """The same graph over fresh placeholder leaves, so a cached plan holds no
    user array (or cached value) alive, however large.  The placeholders have
    no summary: the plan is found from the user's graph's, and the template's
    nodes need none (making them was half of building a template)."""
    placeholder = REGISTRY["placeholder"]
    is_leaf = {n.id for n in leaves}
    mapping: dict[int, Node] = {}
    for n in toposort(outputs, stop=is_leaf):    # (not below a view leaf)
        if n.value is not None and n.id not in is_leaf:
            # Another thread cached it since the signature was taken (whose
            # structure has it as an operation): the template would differ.
            raise _Stale
        if n.id in is_leaf:
            mapping[n.id] = without_summary(intern(
                placeholder, (), {"shape": n.shape, "dtype": n.dtype, "name": None},
                n.shape, n.dtype, n.source, unique=True))
        elif not n.inputs:
            mapping[n.id] = n
        else:
            # (entered: a pending node on unchanged inputs is rebuilt as itself)
            mapping[n.id] = entered(rebuild(n, [mapping[i.id] for i in n.inputs]))
    if any(n.id not in mapping for n in leaves):
        # A leaf below a node that another thread cached since the signature
        # was taken (the walk stops at that node now): the template differs.
        raise _Stale
    return [mapping[o.id] for o in outputs], [mapping[n.id] for n in leaves]


def run_optimized(outputs: Sequence[Node], opts: Options) -> list[Any]:
    """The outputs' values, from a cached plan where one fits: a structure
    evaluated before (``_seen``) is planned over a template and cached.

    ``outputs`` may be pending nodes (``lt.compute``'s): a plan found from
    their summaries runs without entering them, anything else enters them.
    """
    # (the thread count is looked up where a plan is executed: the fast path
    # needs none, and the lookup is a system call)
    if not opts.check:
        order = _views_of_values(outputs)
        if order is not None:
            return run_reference(outputs, order)
    summary = None if opts.check else graph_summary(outputs)
    sig: tuple[tuple[Any, ...], list[Node]] | None
    if summary is not None:
        sig = ("summary", summary[0]), summary[1]
    else:
        outputs = [entered(o) for o in outputs]   # past the summaries, all nodes are entered
        sig = None if opts.check else walk_signature(outputs)
    if sig is None:
        order = _tiny(outputs, opts)
        if order is not None:
            return run_reference(outputs, order)
        return execute(plan_for(outputs, opts), threads_for(opts))
    key = (sig[0], opts)
    hit = _plans.get(key)
    if hit is None:
        seen = hash(key)
        if seen not in _seen:
            # A first evaluation: planned on the graph itself, not cached.
            if len(_seen) >= _SEEN_MAX:
                _seen.clear()
            _seen.add(seen)
            if summary is not None:
                outputs = [entered(o) for o in outputs]
            order = _tiny(outputs, opts)
            if order is not None:
                return run_reference(outputs, order)
            return execute(plan_for(outputs, opts), threads_for(opts))
        _seen.discard(seen)
        try:
            with gc_paused():    # (the template's nodes survive: see plan_for)
                t_outputs, t_leaves = _template(outputs, sig[1])
                hit = CachedPlan(plan_for(t_outputs, opts), t_leaves)
        except _Stale:
            return execute(plan_for([entered(o) for o in outputs], opts), threads_for(opts))
        hit.fast = _fast_for(hit, opts)   # seen twice: worth generating code for
        with _plans_lock:
            _plans[key] = hit
            while len(_plans) > PLAN_CACHE_SIZE:
                _plans.popitem(last=False)
    hit.uses += 1
    values = []
    for n in sig[1]:  # a loop, not a generator: this runs on every small evaluation
        v = n.value
        if v is None:
            v = view_leaf_value(n) if n.inputs else None
            if v is None:
                # An unbound placeholder (tracing): the executor names it.
                return execute(plan_for([entered(o) for o in outputs], opts), threads_for(opts))
        values.append(v)
    if hit.fast is not None:
        # A small plan: its generated straight-line code, without the
        # executor's per-step bookkeeping (most of the time at N=100).
        return _run_fast(hit, values, opts)
    return execute(hit.plan, threads_for(opts), hit.bindings(values))


def _run_fast(hit: CachedPlan, values: list[Any], opts: Options) -> list[Any]:
    """The cached plan's generated code run on the leaves' ``values``."""
    try:
        return hit.fast(values, None)  # type: ignore[misc]
    except Exception:
        # The generated code knows no step names: the executor raises the
        # same error again, naming the failing step and the user's line.
        execute(hit.plan, threads_for(opts), hit.bindings(values))
        raise


def compute_cached(o: Node, opts: Options) -> list[Any] | None:
    """``[value]`` of the one output ``o`` (perhaps pending) as an array the
    caller owns, computed by a cached plan's generated code found from
    ``o``'s summary; None where that is not how ``o`` runs (no current
    summary, no cached plan or no generated code for it, a leaf without a
    value, options that plan otherwise): ``evaluate`` then runs it.

    ``run_optimized``'s commonest case in one call for ``lt.compute(t)``:
    the layers between (``evaluate``, ``graph_summary``'s lists and tuples,
    ``caller_owned``'s checks, needless after the generated code, which
    copies whatever aliases) were 2.4 us of W7's 22 (W1 at N=100).  The
    key is ``run_optimized``'s for a one-output summary.
    """
    ol = o.leaves
    se = o.sepoch
    if not o.skey or ol is None or not o.inputs or o.value is not None \
            or (se != _graph_node._epoch and se != _NEVER_STALE) \
            or opts.check or not opts.optimize:
        return None
    hit = _plans.get((("summary", ((o.skey, None),)), opts))
    if hit is None or hit.fast is None:
        return None
    values = []
    for n in ol:      # a loop, not a comprehension (a call, in 3.11)
        v = n.value
        if v is None:
            v = view_leaf_value(n) if n.inputs else None
            if v is None:
                return None
        values.append(v)
    hit.uses += 1
    return _run_fast(hit, values, opts)


def clear_plan_cache() -> None:
    _seen.clear()
    with _plans_lock:
        _plans.clear()


def _fresh(v: Any) -> bool:
    """A NumPy result that owns its memory: never a view of an input
    (``np.einsum`` can return one), so it may be overwritten later."""
    return isinstance(v, np.ndarray) and v.flags.owndata and v.flags.writeable \
        and v.flags.c_contiguous


def _join_buffer(j: Node, plan: Plan, vals: dict[int, Any],
                 pool: dict[tuple[int, np.dtype[Any]], list[np.ndarray[Any, Any]]],
                 outs: dict[int, np.ndarray[Any, Any]] | None) -> np.ndarray[Any, Any]:
    """The buffer join ``j``'s operand kernels write into (``Step.into``):
    the caller's ``out`` for it where that is contiguous, else a dead buffer
    of its size or a new one, laid out as NumPy's ``concatenate`` of the
    operands (``join_order``), the kernels' by their own operands, which are
    there when the first of them runs (``planner.join_targets``): ``x.T``
    joined with ``x.T * 2`` is Fortran-ordered, and a sum over it adds so."""
    if outs is not None and j.id in outs and outs[j.id].flags.c_contiguous:
        return outs[j.id]
    kernels = {s.node.id: s for s in plan.join_kernels[j.id]}
    operands = []
    for x in j.inputs:
        s = kernels.get(x.id)
        if s is None:
            operands.append(vals[x.id])
        else:
            assert s.kernel is not None
            lay = s.kernel.result_layout([vals[i.id] for i in s.inputs])
            operands.append(layout_stand_in(x.shape, x.dtype, lay))
    axes = join_order(operands)
    free = pool.get((j.nbytes, j.dtype))
    if axes is None:
        return free.pop().reshape(j.shape) if free else np.empty(j.shape, j.dtype)
    inner = tuple(j.shape[a] for a in axes)
    buf = free.pop().reshape(inner) if free else np.empty(inner, j.dtype)
    return buf.transpose(tuple(int(k) for k in np.argsort(axes)))


def _copy_of_rest(u: Node, base: Any,
                  pool: dict[tuple[int, np.dtype[Any]], list[np.ndarray[Any, Any]]] | None
                  ) -> np.ndarray[Any, Any]:
    """A copy of the write ``u``'s ``base`` for its kernel to write its part
    into (``Step.update``): of the rest only (``written_rest``), in a dead
    buffer from ``pool`` or a new one, where the base is C- or
    Fortran-ordered (the layout the copy then has, as ``_setitem_impl``'s);
    else all of it."""
    dense = isinstance(base, np.ndarray) and (base.flags.c_contiguous or
                                              base.flags.f_contiguous)
    rest = written_rest(u) if dense else None
    if rest is None:
        return np.array(base, copy=True)
    order: Literal["C", "F"] = "C" if base.flags.c_contiguous else "F"
    free = pool.get((u.nbytes, u.dtype)) if pool is not None else None
    buf = free.pop().reshape(u.shape, order=order) if free else \
        np.empty(u.shape, u.dtype, order=order)
    for block in rest:
        buf[block] = base[block]
    return buf


def _finish_join(j: Node, joined: frozenset[int], buf: np.ndarray[Any, Any],
                 args: list[Any]) -> np.ndarray[Any, Any]:
    """Join ``j``'s value in ``buf``, where the kernels of the operands in
    ``joined`` wrote theirs: copy in the others (as np.concatenate casts)."""
    axis = j.attrs["axis"]
    lo = 0
    for x, v in zip(j.inputs, args):
        hi = lo + x.shape[axis]
        if x.id not in joined:
            buf[(slice(None),) * axis + (slice(lo, hi),)] = v
        lo = hi
    return buf


@dataclass
class StepTiming:
    """One executed step, for profiling (``lt.profile``)."""
    step: Step
    seconds: float
    bytes_read: int
    bytes_written: int
    compile_seconds: float = 0.0    # of ``seconds``: compiling a loop (its first call)
    ran_again: bool = False         # its loop raised FP flags: NumPy ran it again


def execute(plan: Plan, threads: int, bindings: dict[int, Any] | None = None,
            outs: dict[int, np.ndarray[Any, Any]] | None = None,
            timings: list[StepTiming] | None = None) -> list[Any]:
    """Run the plan's steps; return the outputs' values.

    ``bindings`` gives values for placeholder nodes (by node id); ``outs``
    gives caller-owned arrays that kernels computing those outputs write into
    (buffer donation); ``timings``, when a list, receives one ``StepTiming``
    per step.
    """
    vals: dict[int, Any] = {}
    holders: dict[int, list[int]] = {}      # buffer -> node ids whose value lives in it
    # node id -> the memory its value occupies, for values in memory this run
    # allocated (or NumPy freshly returned): only those are ever overwritten
    # in place or recycled, whatever the plan says (a second line of defence
    # for user arrays).
    owned: dict[int, np.ndarray[Any, Any]] = {}
    pool: dict[tuple[int, np.dtype[Any]], list[np.ndarray[Any, Any]]] = {}
    joins: dict[int, np.ndarray[Any, Any]] = {}   # join node id -> its buffer (Step.into)
    written: dict[int, np.ndarray[Any, Any]] = {}  # write node id -> its buffer (Step.update)
    keep = {n.id for n in plan.outputs}
    for s in plan.steps:
        n = s.node
        if s.kind == "source":
            if bindings is not None and n.id in bindings:
                vals[n.id] = bindings[n.id]
            elif n.op.name == "const" and n.value is None:
                vals[n.id] = n.attrs["value"]
            elif n.value is None:
                raise ValueError(f"placeholder %{n.id} {n.attrs.get('name')!r} "
                                 f"({n.type_str()}) has no value bound")
            else:
                vals[n.id] = n.value
            continue
        args = [vals[i.id] for i in s.inputs]
        t0 = time.perf_counter() if timings is not None else 0.0
        c0 = first_call_seconds() if timings is not None else 0.0
        r0 = fpflags.ran_again() if timings is not None else 0
        try:
            if s.kind == "kernel":
                assert s.kernel is not None
                out = None
                # A dead buffer may take the operands' memory order
                # (``Kernel.run``); the caller's, a join's or an operand's not.
                fresh = False
                if outs is not None and n.id in outs:
                    out = outs[n.id]
                elif s.into is not None:
                    j, lo, hi = s.into
                    buf = joins.get(j.id)
                    if buf is None:
                        buf = joins[j.id] = _join_buffer(j, plan, vals, pool, outs)
                    out = buf[(slice(None),) * j.attrs["axis"] + (slice(lo, hi),)]
                    owned[n.id] = buf
                elif s.update is not None:
                    # Into the part its write writes (``Step.update``): of
                    # the base's dying buffer, or of a copy of the base
                    # (the write's own copy: ``_setitem_impl``).
                    u, written_base = s.update
                    if s.inplace_of is not None and s.inplace_of in owned:
                        buf = vals[s.inplace_of]
                        owned[n.id] = owned[s.inplace_of]
                    else:
                        buf = owned[n.id] = _copy_of_rest(u, vals[written_base.id],
                                                          pool if s.reused is not None else None)
                    written[u.id] = buf
                    out = buf[written_part(u) + (Ellipsis,)]     # (a 0-d part: a view too)
                elif s.inplace_of is not None and s.inplace_of in owned and \
                        s.kernel.keeps_layout_in(args, vals[s.inplace_of]):
                    # (else a new array: NumPy's layout, which the dying
                    # buffer's would not be)
                    out = vals[s.inplace_of]
                    owned[n.id] = owned[s.inplace_of]
                elif s.reused is not None and pool.get((n.nbytes, n.dtype)):
                    base = pool[(n.nbytes, n.dtype)].pop()
                    out = base.reshape(n.shape)
                    owned[n.id] = base
                    fresh = True
                v = s.kernel.run(args, out, threads, fresh)
                if out is None:
                    owned[n.id] = v          # new: the kernel's own array
            elif s.joined:
                v = _finish_join(n, s.joined, joins.pop(n.id), args)
                owned[n.id] = v
            elif s.filled:
                v = written.pop(n.id)          # (its kernel wrote the part)
                owned[n.id] = owned[s.inputs[1].id]
            elif s.inplace_of is not None and s.inplace_of in owned:
                # A functional update written into its base's dying buffer
                v = UPDATE_INTO[n.op.name](vals[s.inplace_of], *args[1:], **n.attrs)
                # (or into a copy, where the base's layout is not the one the
                # write keeps: ``_view_update_into``)
                owned[n.id] = owned[s.inplace_of] if v is vals[s.inplace_of] else v
            else:
                v = n.op.impl(*args, **n.attrs)
                if n.op.kind != "view":
                    v = unaliased(v, args)
                if _fresh(v):
                    owned[n.id] = v
        except Exception as e:
            with_provenance(e, n, f"step {s.index}: {describe_step(s)}")
            raise
        confirm(n, v)
        if outs is not None and n.id in outs and v is not outs[n.id]:
            outs[n.id][...] = v
            v = outs[n.id]
        if timings is not None:
            timings.append(StepTiming(s, time.perf_counter() - t0,
                                      sum(getattr(a, "nbytes", 8) for a in args),
                                      getattr(v, "nbytes", 8), first_call_seconds() - c0,
                                      fpflags.ran_again() > r0))
        vals[n.id] = v
        if s.buffer != EXTERNAL:
            holders.setdefault(s.buffer, []).append(n.id)
        for b in s.frees:
            nids = holders.pop(b, [])
            if any(nid in keep for nid in nids):
                continue
            mem = None
            for nid in nids:
                vals.pop(nid, None)
                mem = owned.pop(nid, None) if mem is None else mem
                owned.pop(nid, None)
            if mem is not None and b in s.recycles:
                # (in memory order: a view, also of a Fortran-ordered result)
                pool.setdefault((mem.nbytes, mem.dtype), []).append(mem.ravel(order="K"))
    return [vals[o.id] for o in plan.outputs]
