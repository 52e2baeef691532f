"""Seeing the graph: Graphviz DOT, rendering, networkx export, a notebook view.

Everything here starts from one intermediate picture, a ``VizGraph``: a list of
boxes (``VizNode``: op, shape, dtype, source line, role, kernel) and the edges
between them.  It is built from either

* the graph as the user wrote it (``optimized=False``): one box per node, or
* the plan that actually runs (``optimized=True``): one box per step, and every
  fused kernel drawn as a cluster holding one box per instruction, so the
  picture is what executes, not the graph before fusion.

``to_dot`` and ``to_networkx`` are two printers of that picture, so a DOT file
parsed back (pydot / ``networkx.nx_pydot.read_dot``) has the same node names as
``to_networkx``.

Graphviz lays out a few hundred boxes in well under a second but takes
minutes on tens of thousands, so a picture with more than ``max_nodes`` boxes
is *summarized* first (``summarize``): runs of the same op chain become one box
labelled ``sin x 9,998``, many inputs feeding the same place become one box,
side branches fold into the chain they feed, and only as a last resort the
oldest part of the graph becomes one ``... N earlier nodes`` box.  Every step is
a contraction of the DAG that cannot create a cycle, and nothing recurses.

>>> import lazyten as lt
>>> x = lt.asarray([1.0, 2.0])
>>> src = lt.to_dot(lt.exp(x) + 1)
>>> src.splitlines()[0]
'digraph lazyten {'
>>> g = lt.to_networkx(lt.exp(x) + 1)
>>> sorted(d["op"] for _, d in g.nodes(data=True))
['add', 'const', 'exp', 'input']
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .graph.node import Node, toposort

if TYPE_CHECKING:
    import networkx as nx

    from .exec.planner import Plan

#: Above this many boxes a picture is summarized (see the module docstring).
MAX_NODES = 500

INSTALL_HINT = ("Install Graphviz (which provides `dot`): `apt-get install graphviz` "
                "(Debian/Ubuntu), `brew install graphviz` (macOS) or "
                "`conda install graphviz` (conda), then make sure `dot` is on PATH.")

FORMATS = ("svg", "png", "pdf", "dot")

# Colours: inputs blue, outputs green, fused kernels yellow clusters, BLAS
# purple, views dashed; a buffer written in place is orange, a reused one tan.
_FILL = {"input": "#dbe9f6", "const": "#f2f2f2", "cached": "#dbe9f6", "output": "#d4edda",
         "op": "#ffffff", "summary": "#ececec"}


@dataclass
class VizNode:
    """One box of the picture.

    ``key`` is its DOT name and its networkx node: ``n12`` for graph node
    %12 (in optimized pictures only inputs and constants), ``step7`` for the
    value plan step 7 computes, ``k5_t0`` for instruction t0 of the kernel
    computed at step 5, ``g3`` for a summary box.
    """

    key: str
    op: str
    shape: tuple[int, ...]
    dtype: str
    source: str                  # "model.py:12"
    role: str                    # input | const | cached | op | summary
    label: list[str]
    output: bool = False
    node_id: int | None = None   # the graph node's id (%12), when there is one
    kernel: int | None = None    # step index of the fused kernel holding it
    step: int | None = None      # plan step index (optimized pictures)
    count: int = 1               # graph nodes this box stands for (summaries)
    op_kind: str = ""            # the op's kind (elementwise, view, reduction, ...)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Cluster:
    """A fused kernel: the boxes of its instructions, and a caption."""

    step: int
    label: list[str]
    keys: list[str]


@dataclass
class VizGraph:
    """The picture: boxes in topological order, data edges (source key,
    target key, argument position), kernel clusters, and buffer marks
    (in-place writes: overwritten value's key -> the writer's key)."""

    nodes: list[VizNode]
    edges: list[tuple[str, str, int]]
    clusters: list[Cluster] = field(default_factory=list)
    inplace: list[tuple[str, str]] = field(default_factory=list)
    optimized: bool = False
    summarized: bool = False
    total: int = 0               # boxes before summarizing

    def __len__(self) -> int:
        return len(self.nodes)


# --------------------------------------------------------------------------- building

def _nodes_of(tensors: Sequence[Any]) -> list[Node]:
    from .tensor import wrap
    return [wrap(t)._node for t in tensors]


def _role(n: Node) -> str:
    if n.op.kind == "source":
        return "const" if n.op.name == "const" else "input"
    if n.value is not None:
        return "cached"
    return "op"


def _short(s: str, width: int = 48) -> str:
    return s if len(s) <= width else s[:width - 3] + "..."


def _node_label(n: Node, head: str) -> list[str]:
    from .graph.printer import _attr_str
    attrs = _attr_str(n)
    first = f"%{n.id} {head}"
    if n.op.name == "const":
        first = f"%{n.id} const {_short(attrs, 24)}"
        attrs = ""
    elif n.value is not None and n.op.kind != "source":
        first += " (cached)"
    lines = [first]
    if attrs and n.op.name != "fused":
        lines.append(_short(attrs))
    lines += [n.type_str(), n.where]
    return lines


def _vnode(n: Node, outputs: set[int], head: str | None = None, **kw: Any) -> VizNode:
    return VizNode(key=f"n{n.id}", op=n.op.name, shape=tuple(n.shape), dtype=str(n.dtype),
                   source=n.where, role=_role(n),
                   label=_node_label(n, head or n.op.name), output=n.id in outputs,
                   node_id=n.id, op_kind=n.op.kind, **kw)


def build_unoptimized(outputs: Sequence[Node]) -> VizGraph:
    """One box per node of the graph as built (cached values are leaves)."""
    outs = {n.id for n in outputs}
    order = toposort(outputs)
    nodes = [_vnode(n, outs) for n in order]
    edges = []
    for n in order:
        if n.value is not None and n.op.kind != "source":
            continue
        for k, i in enumerate(n.inputs):
            edges.append((f"n{i.id}", f"n{n.id}", k))
    return VizGraph(nodes, edges, optimized=False, total=len(nodes))


def build_optimized(plan: Plan, expand_kernels: bool | set[int] = True) -> VizGraph:
    """One box per plan step; each fused kernel in ``expand_kernels`` (all
    with True, none with False, else a set of step indices) is a cluster with
    one box per instruction (and one for a fused reduction)."""
    from .exec.explain import _Names, buffer_text, step_kind
    from .graph.passes.fuse import program_str
    names = _Names(plan, renumber=False)
    outs = {n.id for n in plan.outputs}
    key_of: dict[int, str] = {}        # graph node id -> key of the box holding its value
    nodes: list[VizNode] = []
    edges: list[tuple[str, str, int]] = []
    clusters: list[Cluster] = []
    inplace: list[tuple[str, str]] = []
    for s in plan.steps:
        n = s.node
        extra: dict[str, Any] = {"step_kind": step_kind(s)}
        if s.kind != "source":
            extra["buffer"] = buffer_text(plan, s, names)
        if s.kind == "kernel" and s.kernel is not None:
            extra["backend"] = s.kernel.backend
            extra["expression"] = program_str(n.attrs["program"], n.attrs["reduce"])
        expand = expand_kernels if isinstance(expand_kernels, bool) \
            else s.index in expand_kernels
        if s.kind == "kernel" and expand:
            key_of[n.id] = _expand_kernel(plan, s, key_of, nodes, edges, clusters, outs, extra)
        else:
            head = f"step {s.index}: {n.op.name}" if s.kind != "source" else n.op.name
            if s.kind == "kernel":
                head = f"step {s.index}: kernel[{extra['backend']}]"
            v = _vnode(n, outs, head, step=s.index,
                       kernel=s.index if s.kind == "kernel" else None, extra=extra)
            if s.kind != "source":
                # Passes build new nodes on every plan, so a step is named by
                # its index: the same name in to_dot and to_networkx.
                v.key = f"step{s.index}"
            if s.kind == "kernel":
                v.label.insert(1, _short("{ " + extra["expression"] + " }", 60))
            elif s.kind != "source":
                v.label.insert(1, step_kind(s))
            if s.kind != "source":
                v.label.append("-> " + extra["buffer"])
            nodes.append(v)
            key_of[n.id] = v.key
            if s.kind == "source":
                continue        # a cached value is a leaf: its inputs are not in the plan
            for k, i in enumerate(n.inputs):
                edges.append((key_of[i.id], v.key, k))
        if s.inplace_of is not None and s.inplace_of in key_of:
            inplace.append((key_of[s.inplace_of], key_of[n.id]))
    return VizGraph(nodes, edges, clusters, inplace, optimized=True, total=len(nodes))


def _expand_kernel(plan: Plan, s: Any, key_of: dict[int, str], nodes: list[VizNode],
                   edges: list[tuple[str, str, int]], clusters: list[Cluster],
                   outs: set[int], extra: dict[str, Any]) -> str:
    """Add the boxes of one fused kernel's instructions; return the key of the
    box that holds the kernel's result."""
    n = s.node
    program = n.attrs["program"]
    reduce = n.attrs["reduce"]
    elem_shape = tuple(n.attrs.get("elem_shape") or n.shape)
    # The fuse pass keeps each instruction's user line (else: the kernel's).
    sources = n.attrs.get("sources") or ()
    wheres = [f"{os.path.basename(f)}:{line}" for f, line in sources]
    keys: list[str] = []
    for j, (name, refs, attrs, dt) in enumerate(program):
        key = f"k{s.index}_t{j}"
        where = wheres[j] if j < len(wheres) else n.where
        label = [f"t{j} = {name}"]
        if attrs:
            label.append(_short(" ".join(f"{k}={v!r}" for k, v in attrs)))
        label.append(f"{dt}[{','.join(map(str, elem_shape))}]")
        label.append(where)
        nodes.append(VizNode(key, name, elem_shape, str(dt), where, "op", label,
                             kernel=s.index, step=s.index, op_kind="elementwise"))
        keys.append(key)
        for pos, r in enumerate(refs):
            src = key_of[n.inputs[r].id] if r >= 0 else keys[-1 - r]
            edges.append((src, key, pos))
    if reduce is not None:
        key = f"k{s.index}_r"
        rattrs = dict(reduce[1])
        nodes.append(VizNode(key, reduce[0], tuple(n.shape), str(n.dtype), n.where, "op",
                             [f"{reduce[0]} axis={rattrs.get('axis')}", n.type_str(),
                              n.where],
                             kernel=s.index, step=s.index, op_kind="reduction"))
        edges.append((keys[-1], key, 0))
        keys.append(key)
    last = nodes[-1]
    # The result box carries the graph node's identity and buffer.
    last.node_id = n.id
    last.output = n.id in outs
    last.extra = extra
    last.label[0] = f"%{n.id} " + last.label[0]
    last.label.append("-> " + extra["buffer"])
    caption = [f"step {s.index}: kernel[{extra['backend']}]",
               _short("{ " + extra["expression"] + " }", 70)]
    clusters.append(Cluster(s.index, caption, keys))
    return last.key


def build(tensors: Sequence[Any], optimized: bool = False,
          max_nodes: int | None = MAX_NODES) -> VizGraph:
    """The picture of ``tensors`` (see ``to_dot``), summarized above
    ``max_nodes`` boxes (None: never)."""
    outputs = _nodes_of(tensors)
    if not optimized:
        vg = build_unoptimized(outputs)
    else:
        from .profile import plan_as_run
        # What runs: with optimize=False that is every node as its own step.
        plan = plan_as_run(outputs)
        vg = build_optimized(plan, _kernels_to_expand(plan, max_nodes))
    if max_nodes is not None and len(vg) > max_nodes:
        vg = summarize(vg, max_nodes)
    return vg


def _kernels_to_expand(plan: Plan, max_nodes: int | None) -> set[int]:
    """The kernels drawn as clusters of their instructions: all of them when
    that fits in ``max_nodes`` boxes, else the smallest first while it fits
    (the others are one box each)."""
    kernels = [(len(s.node.attrs["program"]) + (s.node.attrs["reduce"] is not None), s.index)
               for s in plan.steps if s.kind == "kernel"]
    if max_nodes is None:
        return {k for _, k in kernels}
    boxes = len(plan.steps)
    chosen: set[int] = set()
    for size, k in sorted(kernels):
        if boxes + size - 1 > max_nodes:
            break
        boxes += size - 1
        chosen.add(k)
    return chosen


# --------------------------------------------------------------------------- summarizing

class _Groups:
    """Union-find over box indices; a group's representative is its first
    (topologically smallest) member, so groups keep a topological order."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        root = i
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[i] != root:          # path compression
            self.parent[i], i = root, self.parent[i]
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if rb < ra:
                ra, rb = rb, ra
            self.parent[rb] = ra


@dataclass
class _Quotient:
    """The picture with each group as one box: members, edges between groups,
    and per group whether it holds only leaves (inputs/constants) or an output."""

    members: dict[int, list[int]]
    preds: dict[int, set[int]]
    succs: dict[int, set[int]]
    leaf: dict[int, bool]
    out: dict[int, bool]

    def inner_preds(self, r: int) -> list[int]:
        """Predecessor groups that are not leaves."""
        return [p for p in self.preds[r] if not self.leaf[p]]


def _quotient(leaf: list[bool], out: list[bool], edges: list[tuple[int, int]],
              g: _Groups) -> _Quotient:
    members: dict[int, list[int]] = {}
    for i in range(len(leaf)):
        members.setdefault(g.find(i), []).append(i)
    preds: dict[int, set[int]] = {r: set() for r in members}
    succs: dict[int, set[int]] = {r: set() for r in members}
    for a, b in edges:
        ra, rb = g.find(a), g.find(b)
        if ra != rb:
            succs[ra].add(rb)
            preds[rb].add(ra)
    is_leaf = {r: all(leaf[i] for i in m) for r, m in members.items()}
    is_out = {r: any(out[i] for i in m) for r, m in members.items()}
    return _Quotient(members, preds, succs, is_leaf, is_out)


def _acyclic(q: _Quotient) -> bool:
    """Kahn's algorithm on the group graph (iterative)."""
    indeg = {r: len(p) for r, p in q.preds.items()}
    ready = [r for r, d in indeg.items() if d == 0]
    seen = 0
    while ready:
        r = ready.pop()
        seen += 1
        for s in q.succs[r]:
            indeg[s] -= 1
            if indeg[s] == 0:
                ready.append(s)
    return seen == len(indeg)


def summarize(vg: VizGraph, max_nodes: int = MAX_NODES) -> VizGraph:
    """Collapse repeated structure until at most ``max_nodes`` boxes remain.

    Stages, each applied only while the picture is still too big.  Each is a
    contraction that keeps the picture a DAG: an edge ``a -> b`` where ``b`` is
    ``a``'s only reader, a merge of source boxes, a merge checked for cycles,
    or a prefix of the topological order:

    1. chains: runs of 3 or more boxes, each the only reader of the previous,
       become one box (``sin x 9,998``, ``(multiply -> add) x 5,000``);
    2. inputs and constants read by the same boxes become one box;
    3. side branches that read only inputs fold into the box they feed, and
       chains are collapsed again (a long sum of small terms becomes one box);
    4. boxes built on the same source line (a loop body) become one box, for
       each line where that makes no cycle;
    5. any box with a single reader folds into it;
    6. the oldest boxes become one ``... N earlier nodes`` box.

    >>> import lazyten as lt
    >>> x = lt.asarray([1.0])
    >>> for _ in range(1000):
    ...     x = lt.sin(x)
    >>> vg = summarize(build_unoptimized([x.node]), 10)
    >>> [v.label[0] for v in vg.nodes]
    ['%... input', 'sin x 1,000']
    """
    nodes = vg.nodes
    n = len(nodes)
    index = {v.key: i for i, v in enumerate(nodes)}
    edges = [(index[a], index[b]) for a, b, _ in vg.edges]
    leaf = [v.role in ("input", "const", "cached") for v in nodes]
    out = [v.output for v in nodes]
    g = _Groups(n)

    def quotient() -> _Quotient:
        return _quotient(leaf, out, edges, g)

    def chains(min_len: int) -> _Quotient:
        q = quotient()
        nxt: dict[int, int] = {}
        for r in q.members:
            if q.leaf[r] or q.out[r] or len(q.succs[r]) != 1:
                continue
            (s,) = q.succs[r]
            if q.inner_preds(s) == [r]:
                nxt[r] = s
        has_prev = set(nxt.values())
        for head in list(nxt):
            if head in has_prev:
                continue
            run = [head]
            while run[-1] in nxt:
                run.append(nxt[run[-1]])
            if len(run) >= min_len:
                for r in run[1:]:
                    g.union(head, r)
        return quotient()

    def merge_leaves(q: _Quotient) -> _Quotient:
        by_readers: dict[tuple[Any, ...], list[int]] = {}
        for r in q.members:
            if q.leaf[r] and not q.out[r]:
                key = (nodes[r].role, tuple(sorted(q.succs[r])))
                by_readers.setdefault(key, []).append(r)
        for same in by_readers.values():
            for r in same[1:]:
                g.union(same[0], r)
        return quotient()

    def absorb(only_leaf_fed: bool) -> _Quotient:
        q = quotient()
        # Readers first, so a whole tree folds in one sweep.
        for r in sorted(q.members, reverse=True):
            if q.leaf[r] or q.out[r]:
                continue
            if only_leaf_fed and q.inner_preds(r):
                continue
            me = g.find(r)
            readers = {g.find(s) for s in q.succs[r]}
            readers.discard(me)
            if len(readers) == 1:
                g.union(me, readers.pop())
        return quotient()

    def by_line(q: _Quotient) -> _Quotient:
        lines: dict[tuple[bool, str], list[int]] = {}
        for r, mem in q.members.items():
            srcs = {nodes[i].source for i in mem}
            # (not leaves: a loop's constants of one line made one box whose
            # edges reached every step, which Graphviz's layout did not finish)
            if len(srcs) == 1 and not q.leaf[r]:
                lines.setdefault((False, srcs.pop()), []).append(r)
        # Biggest lines first; stop trying after a few cycles.
        failures = 0
        for _key, reps in sorted(lines.items(), key=lambda kv: -len(kv[1])):
            if len(reps) < 2 or failures > 20 or len(q.members) <= max_nodes:
                continue
            saved = list(g.parent)
            for r in reps[1:]:
                g.union(reps[0], r)
            q2 = quotient()
            if _acyclic(q2):
                q = q2
            else:
                g.parent = saved
                failures += 1
        return q

    def small(q: _Quotient) -> bool:
        return len(q.members) <= max_nodes

    q = chains(3)
    if not small(q):
        q = merge_leaves(q)
    if not small(q):
        absorb(only_leaf_fed=True)
        chains(2)
        q = merge_leaves(quotient())
    if not small(q):
        q = by_line(q)
        q = merge_leaves(q)
    if not small(q):
        absorb(only_leaf_fed=False)
        q = merge_leaves(quotient())
    prefix_rep: int | None = None
    if not small(q):
        # Keep the newest max_nodes - 1 groups (nearest the outputs); the rest,
        # a prefix of the topological order, becomes one box.
        reps = sorted(q.members)
        prefix = reps[:len(reps) - (max_nodes - 1)]
        for r in prefix[1:]:
            g.union(prefix[0], r)
        prefix_rep = g.find(prefix[0])
        q = quotient()

    reps = sorted(q.members)
    new_key: dict[int, str] = {}
    new_nodes: list[VizNode] = []
    for k, r in enumerate(reps):
        mem = q.members[r]            # ascending: filled in index order
        if len(mem) == 1:
            v = nodes[mem[0]]
        else:
            v = _summary_node(f"g{k}", [nodes[i] for i in mem], r == prefix_rep)
        new_key[r] = v.key
        new_nodes.append(v)
    seen: set[tuple[str, str]] = set()
    new_edges: list[tuple[str, str, int]] = []
    for a, b, pos in vg.edges:
        ka, kb = new_key[g.find(index[a])], new_key[g.find(index[b])]
        if ka != kb and (ka, kb) not in seen:
            seen.add((ka, kb))
            new_edges.append((ka, kb, pos))
    kept = set(new_key.values())
    inplace = [(a, b) for a, b in vg.inplace if a in kept and b in kept]
    return VizGraph(new_nodes, new_edges, [], inplace, vg.optimized, True, vg.total)


def _period(seq: list[str], longest: int = 6) -> int | None:
    """The shortest repeating unit of ``seq`` (repeated at least twice)."""
    for p in range(1, min(longest, len(seq) // 2) + 1):
        if all(seq[i] == seq[i % p] for i in range(len(seq))):
            return p
    return None


def _summary_node(key: str, members: list[VizNode], prefix: bool) -> VizNode:
    """One box for many: ``sin x 9,998`` / ``(multiply -> add) x 5,000`` / op counts."""
    # A kernel box's op is "fused"; say "kernel" as explain does.
    ops = ["kernel" if m.op == "fused" else m.op for m in members]
    total = sum(m.count for m in members)
    last = members[-1]
    p = _period(ops)
    if prefix:
        lines = [f"... {total:,} earlier nodes"]
        lines += [f"{op} x {c:,}" for op, c in Counter(ops).most_common(3)]
    elif p is not None and len(ops) % p == 0:
        unit = " -> ".join(ops[:p])
        lines = [f"{unit} x {len(ops) // p:,}" if p == 1 else f"({unit}) x {len(ops) // p:,}"]
    elif len(ops) <= 4:
        lines = [" -> ".join(ops)]
    else:
        common = Counter(ops).most_common(3)
        lines = [", ".join(f"{op} x {c:,}" for op, c in common)]
        if len(Counter(ops)) > 3:
            lines[0] += ", ..."
        lines.append(f"{total:,} nodes")
    types = {f"{m.dtype}[{','.join(map(str, m.shape))}]" for m in members}
    lines.append(types.pop() if len(types) == 1 else f"... -> {last.dtype}"
                 f"[{','.join(map(str, last.shape))}]")
    sources = sorted({m.source for m in members})
    lines.append(sources[0] if len(sources) == 1 else f"{len(sources)} source lines")
    roles = {m.role for m in members}
    role = roles.pop() if len(roles) == 1 and not prefix else "summary"
    return VizNode(key, ops[0] if len(set(ops)) == 1 else "summary", last.shape, last.dtype,
                   last.source, role, lines, output=any(m.output for m in members),
                   count=total, extra={"ops": dict(Counter(ops))})


# --------------------------------------------------------------------------- DOT

def _q(s: str) -> str:
    """A DOT double-quoted string (labels hold user paths and reprs)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(d: dict[str, Any]) -> str:
    return "[" + ", ".join(f"{k}={_q(str(v))}" for k, v in d.items()) + "]"


def _style(v: VizNode) -> dict[str, Any]:
    a: dict[str, Any] = {"label": "\n".join(v.label), "fillcolor": _FILL.get(v.role, "#ffffff")}
    if v.role in ("input", "cached"):
        a["shape"] = "ellipse"
    elif v.role == "const":
        a["shape"] = "note"
        a["fontsize"] = "9"
    if v.count > 1:
        a["shape"] = "box3d"
        a["fillcolor"] = _FILL["summary"] if v.role not in ("input", "const") else a["fillcolor"]
    kind = v.extra.get("step_kind", "")
    if kind == "view" or v.op_kind == "view":          # no data moved: dashed
        a["style"] = "rounded,filled,dashed"
    if kind == "blas":
        a["fillcolor"] = "#e6dcf2"
    buf = str(v.extra.get("buffer", ""))
    if "in place" in buf:
        a["fillcolor"] = "#fdd9b5"
    elif "reused" in buf:
        a["fillcolor"] = "#f3e9d2"
    if v.output:
        a["fillcolor"] = _FILL["output"]
        a["peripheries"] = "2"
        a["penwidth"] = "2"
    return a


def dot_source(vg: VizGraph, title: str = "lazyten") -> str:
    """DOT text for a picture (no Graphviz needed)."""
    lines = [f"digraph {title} {{",
             '  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.25, '
             'ranksep=0.35];',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
             'margin="0.08,0.04"];',
             '  edge [arrowsize=0.6, color="#555555", fontname="Helvetica", fontsize=9];']
    caption = "optimized plan" if vg.optimized else "graph as built"
    if vg.summarized:
        caption += f" (summarized: {len(vg.nodes):,} boxes for {vg.total:,})"
    lines.append(f"  label={_q(caption)}; labelloc=t;")
    in_cluster = {k for c in vg.clusters for k in c.keys}
    by_key = {v.key: v for v in vg.nodes}
    for c in vg.clusters:
        lines.append(f"  subgraph cluster_{c.step} {{")
        lines.append(f'    label={_q(chr(10).join(c.label))}; style="rounded,filled"; '
                     f'fillcolor="#fff8dc"; color="#c9a227";')
        for k in c.keys:
            lines.append(f"    {k} {_attrs(_style(by_key[k]))};")
        lines.append("  }")
    for v in vg.nodes:
        if v.key not in in_cluster:
            lines.append(f"  {v.key} {_attrs(_style(v))};")
    for a, b, _pos in vg.edges:
        lines.append(f"  {a} -> {b};")
    for a, b in vg.inplace:
        lines.append(f'  {a} -> {b} [style=dashed, color="#d95f02", fontcolor="#d95f02", '
                     f'label="in place", constraint=false];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_dot(*tensors: Any, optimized: bool = False, max_nodes: int | None = MAX_NODES) -> str:
    """Graphviz DOT source for the graph of ``tensors``.  Computes nothing.

    Each box shows its op, shape, dtype and the source line that built it;
    inputs are blue ellipses, constants notes, outputs green with a double
    border.  With ``optimized=True`` the picture is the plan that runs: one box
    per step, each fused kernel a cluster (``cluster_<step>``) of its
    instructions, buffers written in place orange (with a dashed ``in place``
    arrow from the value overwritten) and reused buffers tan.  Pictures over
    ``max_nodes`` boxes are summarized (repeated chains collapsed with counts).

    >>> import lazyten as lt
    >>> x = lt.asarray([1.0, 2.0])
    >>> with lt.set_options(backend="numpy"):
    ...     src = lt.to_dot(lt.exp(x) * 2 + 1, optimized=True)
    >>> src.count("subgraph cluster_")
    1
    """
    return dot_source(build(tensors, optimized, max_nodes))


# --------------------------------------------------------------------------- networkx

def to_networkx(*tensors: Any, optimized: bool = False) -> nx.DiGraph:
    """The graph as a ``networkx.DiGraph`` (never summarized).

    Nodes are keyed like the DOT boxes (``n12`` for node %12; optimized,
    ``step7`` for step 7's value and ``k5_t0`` for an instruction of the kernel
    at step 5) and carry ``op``, ``shape``,
    ``op_kind`` (elementwise, view, reduction, ...), ``dtype``, ``source``
    (``file.py:12``), ``role`` (input, const, cached, op),
    ``output``, ``node_id``, ``label`` and, optimized, ``step`` and ``kernel``
    (the step index of the fused kernel the instruction belongs to, else None)
    plus ``step_kind``, ``backend``, ``expression`` and ``buffer`` where they
    apply.  Edges carry ``args``: the argument positions they feed.

    >>> import lazyten as lt
    >>> x = lt.asarray([1.0, 2.0])
    >>> y = x * x
    >>> g = lt.to_networkx(y)
    >>> g.edges[f"n{x.node.id}", f"n{y.node.id}"]["args"]
    [0, 1]
    """
    import networkx as nx
    vg = build(tensors, optimized, max_nodes=None)
    g = nx.DiGraph(optimized=optimized,
                   outputs=[v.key for v in vg.nodes if v.output])
    for v in vg.nodes:
        g.add_node(v.key, op=v.op, op_kind=v.op_kind, shape=v.shape, dtype=v.dtype,
                   source=v.source, role=v.role, output=v.output, node_id=v.node_id,
                   kernel=v.kernel,
                   step=v.step, label="\n".join(v.label), **v.extra)
    for a, b, pos in vg.edges:
        if g.has_edge(a, b):
            g.edges[a, b]["args"].append(pos)
        else:
            g.add_edge(a, b, args=[pos])
    return g


# --------------------------------------------------------------------------- rendering

def find_dot() -> str | None:
    """The path of Graphviz's ``dot`` program, or None."""
    return shutil.which("dot")


def render_bytes(source: str, format: str = "svg") -> bytes:
    """Run ``dot -T<format>`` on DOT source (through the ``graphviz`` package
    when it is installed).  Raises RuntimeError with install instructions when
    ``dot`` is missing."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {format!r}")
    if format == "dot":
        return source.encode()
    if find_dot() is None:
        raise RuntimeError(f"cannot render the graph as {format}: Graphviz's `dot` program "
                           f"was not found on PATH. {INSTALL_HINT}")
    try:
        import graphviz
    except ImportError:  # the package is optional: call dot directly
        return subprocess.run(["dot", f"-T{format}"], input=source.encode(),
                              capture_output=True, check=True).stdout
    try:
        return graphviz.Source(source).pipe(format=format)
    except graphviz.ExecutableNotFound as e:
        raise RuntimeError(f"cannot render the graph as {format}: {e}. {INSTALL_HINT}") from e


class Graph:
    """A picture of a lazy graph for notebooks and files (``lt.graph(t)``).

    Displays as SVG in Jupyter (``_repr_svg_`` / ``_repr_mimebundle_``) without
    evaluating anything; ``source`` is the DOT text, ``render(filename,
    format)`` writes a file, ``path`` is the last file written.

    >>> import lazyten as lt
    >>> g = lt.graph(lt.asarray([1.0]) + 1)
    >>> g.source.startswith("digraph")
    True
    """

    def __init__(self, viz: VizGraph) -> None:
        self.viz = viz
        self.source = dot_source(viz)
        self.path: str | None = None
        self._svg: str | None = None

    def __repr__(self) -> str:
        kind = "optimized plan" if self.viz.optimized else "graph"
        extra = f", summarized from {self.viz.total:,}" if self.viz.summarized else ""
        return f"<lazyten.Graph: {kind}, {len(self.viz.nodes):,} boxes{extra}>"

    def pipe(self, format: str = "svg") -> bytes:
        """The rendered picture as bytes."""
        return render_bytes(self.source, format)

    def svg(self) -> str:
        if self._svg is None:
            self._svg = self.pipe("svg").decode()
        return self._svg

    def render(self, filename: str | os.PathLike[str], format: str | None = None) -> str:
        """Write the picture to ``filename`` (format from its extension, else
        ``svg``); return the path written.  Without ``dot`` the DOT source is
        written next to it and RuntimeError says how to install Graphviz."""
        path, fmt = _target(filename, format)
        if fmt != "dot" and find_dot() is None:
            dot_path = os.path.splitext(path)[0] + ".dot"
            _write(dot_path, self.source.encode())
            self.path = dot_path
            raise RuntimeError(f"cannot render {path}: Graphviz's `dot` program was not found "
                               f"on PATH; the DOT source was written to {dot_path} instead. "
                               f"{INSTALL_HINT}")
        _write(path, self.pipe(fmt))
        self.path = path
        return path

    def _repr_svg_(self) -> str | None:
        if find_dot() is None:
            return None
        return self.svg()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        bundle = {"text/plain": repr(self)}
        if find_dot() is not None:
            bundle["image/svg+xml"] = self.svg()
        else:
            bundle["text/plain"] += "\n(install Graphviz to see the picture: " + INSTALL_HINT + ")"
        return bundle


def _target(filename: str | os.PathLike[str], format: str | None) -> tuple[str, str]:
    path = os.fspath(filename)
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    fmt = format or (ext if ext in FORMATS else "svg")
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
    if ext != fmt:
        path = f"{path}.{fmt}"
    return path, fmt


def _write(path: str, data: bytes) -> None:
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def graph(*tensors: Any, optimized: bool = False,
          max_nodes: int | None = MAX_NODES) -> Graph:
    """A displayable picture of the graph (SVG in Jupyter); computes nothing.

    >>> import lazyten as lt
    >>> lt.graph(lt.asarray([1.0]) * 2)
    <lazyten.Graph: graph, 3 boxes>
    """
    return Graph(build(tensors, optimized, max_nodes))


def visualize(*tensors: Any, filename: str | os.PathLike[str] | None = None,
              format: str | None = None, optimized: bool = False,
              max_nodes: int | None = MAX_NODES) -> Graph:
    """Render the graph of ``tensors`` with Graphviz; return the ``Graph``.

    ``filename`` given: the picture is written there (format from ``format``,
    else the extension, else ``svg``; ``format="dot"`` writes DOT source and
    needs no Graphviz) and ``Graph.path`` is the file.  ``filename=None``:
    nothing is written; the returned ``Graph`` shows in a notebook.  Without
    Graphviz's ``dot`` the DOT file is written instead and a RuntimeError
    says how to install Graphviz.  Computes nothing.
    """
    g = graph(*tensors, optimized=optimized, max_nodes=max_nodes)
    if filename is not None:
        g.render(filename, format)
    elif format not in (None, "dot", "svg"):
        g.pipe(format)        # fails early with install instructions without dot
    return g


def _tensor_visualize(self: Any, filename: str | os.PathLike[str] | None = None,
                      format: str | None = None, optimized: bool = False,
                      max_nodes: int | None = MAX_NODES) -> Graph:
    """``t.visualize(filename=None, format=None, optimized=False)``: render
    this tensor's graph (see ``lazyten.visualize``)."""
    return visualize(self, filename=filename, format=format, optimized=optimized,
                     max_nodes=max_nodes)


def _attach() -> None:
    from .tensor import Tensor
    Tensor.visualize = _tensor_visualize  # type: ignore[attr-defined]


_attach()
