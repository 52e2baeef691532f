"""Elementwise fusion: maximal convex groups of elementwise ops become one
``fused`` kernel node; a reduction or scan of such a group fuses with it.

    %5 = multiply %1 %2
    %6 = add %5 %3             =>   %9 = fused %1 %2 %3 %4  { t0 = multiply i0 i1
    %7 = sin %1                                              t1 = add t0 i2
    %8 = subtract %6 %7                                      t2 = sin i0
                                                             t3 = subtract t1 t2 }
    sum(fused{...})            =>   fused{...; reduce sum}   (no full-size temporary)
    cumsum(fused{...})         =>   fused{...; reduce cumulative_sum}  (no temporary)

Legality (``placement``): a node joins its consumers' group only if *every*
consumer is in that one group, it is not a graph output, and it has the
group's element count (a smaller, broadcast operand such as ``exp(v)[None, :]``
would be recomputed for every row, so it stays a separate kernel).  A group
built this way is convex: a path leaving the group and coming back would need
a member with a consumer outside it.  Fusion never changes results: the kernel
runs the same NumPy ufunc loops on the same dtypes (or numexpr, only where it
is exact).

A node shared by several groups is computed once into a buffer, or
recomputed inside each group when that moves fewer bytes (``recompute``):

    x = a * b
    u = x + 1;  v = sum(x)     =>   fused{a*b + 1};  fused{a*b; reduce sum}
                                    (no full-size x: a and b are read twice,
                                    instead of x written once and read twice)

The same ufunc on the same operands gives the same bits in every copy, so
recomputing never changes results either.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..node import Node, consumers, intern
from ..ops import REGISTRY, OpSpec, register
from ..rewrite import Graph, rebuild

# Reductions that can run blockwise over a fused group: combining per-block
# partial results with the same op gives NumPy's answer (up to the order of
# floating-point summation, which NumPy itself does pairwise).
# argmax and argmin: an index, whose blocks' candidates fold in order (and
# count in C order: they never run in memory order, ``exec/layout.py``).
ARG_REDUCTIONS = frozenset({"argmax", "argmin"})
FUSABLE_REDUCTIONS = frozenset({"sum", "prod", "min", "max", "any", "all"}) | ARG_REDUCTIONS
# Scans that fuse the same way (as the kernel's ``reduce``, though their
# value is full size): NumPy's accumulate is one chain per lane, in index
# order, so a kernel that runs the chain in that order, block after block
# or in a compiled loop, gives NumPy's bits whatever else it fuses.
FUSABLE_SCANS = frozenset({"cumulative_sum", "cumulative_prod"})


def fusable_root(n: Node) -> bool:
    """``n`` is a reduction or scan that may close the group of its input."""
    name = n.op.name
    if name in FUSABLE_REDUCTIONS:
        return True
    return name in FUSABLE_SCANS and not n.attrs.get("include_initial") \
        and n.shape == n.inputs[0].shape


F16 = np.dtype(np.float16)


def reduction_dtype_issue(red: Node) -> str | None:
    """Why the reduction (or scan) ``red`` of a fused group cannot join it,
    as far as dtypes go (None: it can).  A scan joins in any real dtypes:
    accumulate casts each element to its dtype in index order anyway.

    A reduction keeping its input's dtype (bool, integer or float) fuses,
    but for a float16 sum or product (NumPy computes it in float32).
    So do those whose result is exact in any order although the dtype
    changes: a sum or product of bools or integers into an integer (NumPy
    adds ``x > 0.5`` up as int64: modular integer arithmetic is associative,
    so block partials combine to NumPy's value), ``any``/``all`` of numbers
    (a bool), and ``argmax``/``argmin`` of real numbers (an index: each
    block's first extreme, the earliest of the best kept).  A float sum
    into another dtype (``sum(x_f32, dtype=f64)``) does not: NumPy casts in
    buffers of its own, whose boundaries set the order of the additions.
    """
    x = red.inputs[0]
    name, dt, xk = red.op.name, red.dtype, x.dtype.kind
    if name in ("sum", "prod") and dt == F16:
        # NumPy's float16 loop adds (multiplies) a whole reduction in
        # float32 and rounds once; blocks would round each partial result.
        return "NumPy sums float16 in float32, rounding once"
    if dt == x.dtype and dt.kind in "biuf":
        return None
    if name in FUSABLE_SCANS and dt.kind in "biuf" and xk in "biuf":
        return None      # (accumulate casts each element to dt: in order anyway)
    if name in ("sum", "prod") and dt.kind in "iu" and xk in "biu":
        return None
    if name in ("any", "all") and xk in "biuf":
        return None
    if name in ARG_REDUCTIONS and xk in "biuf":
        return None      # (an index, int64; complex order and NaNs are not fused)
    return f"the reduction gives {dt}, not {x.dtype}" if dt != x.dtype \
        else f"{dt} reductions are not fused"

# An instruction: (op name, argument refs, attrs items, result dtype).
# A ref >= 0 is kernel input number ref; a ref < 0 is temporary number -1-ref.
Instr = tuple[str, tuple[int, ...], tuple[tuple[str, Any], ...], np.dtype[Any]]


def run_program(program: tuple[Instr, ...], args: list[Any]) -> Any:
    """Run a kernel program with plain NumPy calls: the kernel's reference."""
    temps: list[Any] = []
    for name, refs, attrs, _dt in program:
        spec = REGISTRY[name]
        vals = [args[r] if r >= 0 else temps[-1 - r] for r in refs]
        temps.append(spec.ufunc(*vals) if spec.ufunc is not None and not attrs
                     else spec.impl(*vals, **dict(attrs)))
    return temps[-1]


MAX_INLINE = 120


def program_str(program: tuple[Instr, ...], reduce: Any = None) -> str:
    """The kernel as one readable expression over its inputs ``i0, i1, ...``.

    Shared temporaries are written once as ``t3 := ...`` and referred to after.
    A temporary whose text grows past ``MAX_INLINE`` characters is bound the
    same way, so a 100,000-op chain prints in linear space, not quadratic.
    """
    uses: dict[int, int] = {}
    for _n, refs, _a, _d in program:
        for r in refs:
            if r < 0:
                uses[-1 - r] = uses.get(-1 - r, 0) + 1
    text: list[str] = []
    lets: list[str] = []
    for k, (name, refs, attrs, _dt) in enumerate(program):
        args = [f"i{r}" if r >= 0 else text[-1 - r] for r in refs]
        tmpl = REGISTRY[name].numexpr
        if tmpl is not None and not attrs:
            s = tmpl.format(*args)
        else:
            extra = [f"{k2}={v!r}" for k2, v in attrs]
            s = f"{name}({', '.join(args + extra)})"
        if (uses.get(k, 0) > 1 or len(s) > MAX_INLINE) and k != len(program) - 1:
            lets.append(f"t{k} := {s}")
            s = f"t{k}"
        text.append(s)
    body = text[-1] if text else ""
    if reduce is not None:
        rattrs = dict(reduce[1])
        body = f"{reduce[0]}({body}, axis={rattrs.get('axis')})"
    return "; ".join(lets + [body])


def _fused_impl(*args: Any, program: tuple[Instr, ...], reduce: Any, shape: Any,
                dtype: Any, elem_shape: Any, sources: Any = None) -> Any:
    out = run_program(program, list(args))
    if reduce is not None:
        name, rattrs = reduce
        out = REGISTRY[name].impl(out, **dict(rattrs))
    return out


def _fused_infer(inputs: Any, attrs: dict[str, Any]) -> tuple[tuple[int, ...], dict[str, Any]]:
    return tuple(attrs["shape"]), attrs


def _fused_dtype(inputs: Any, attrs: dict[str, Any]) -> np.dtype[Any]:
    return np.dtype(attrs["dtype"])


FUSED: OpSpec = register(OpSpec("fused", "kernel", _fused_impl, _fused_infer, _fused_dtype, None,
                                 doc="a fused elementwise kernel (attrs['program']), "
                                     "optionally reduced (attrs['reduce'])"))


def _elementwise(n: Node) -> bool:
    return n.op.kind == "elementwise" and n.value is None


# Recomputing a shared node in each group that reads it (instead of storing it
# once) is considered for at most this many groups and this many ops.
MAX_RECOMPUTE_GROUPS = 4
MAX_RECOMPUTE_OPS = 8
# Below this size a stored temporary stays in cache and costs no memory
# traffic, while recomputing still costs ufunc calls: store it.
RECOMPUTE_MIN_BYTES = 1 << 20


def recompute(n: Node, groups: int, cons: dict[int, list[Node]],
              outputs: set[int]) -> list[Node] | None:
    """The cost rule for a node read by ``groups`` > 1 fused groups: the nodes
    to recompute in each group (``n`` and the cheap elementwise nodes only it
    reads), or None to store ``n`` once.

    Stored, ``n`` is written once and read by every group: ``(1 + groups) *
    nbytes``.  Recomputed, every group but one reads the operands below it
    again: ``(groups - 1) * sum(their nbytes)``.  It is recomputed when that
    is no more, and only cheap ops qualify (no transcendental or division work
    repeated); it also saves the full-size buffer.  A node recomputed this
    way may read other recomputed nodes, but no node is copied into more
    than ``MAX_RECOMPUTE_GROUPS`` groups, so work grows by that factor at most.
    """
    from ...exec.cost import op_class  # the cost model's op classes
    if groups > MAX_RECOMPUTE_GROUPS or n.nbytes < RECOMPUTE_MIN_BYTES:
        return None
    sub: list[Node] = []
    reread: dict[int, int] = {}         # operand id -> nbytes (each counted once)
    todo = [n]
    while todo:
        m = todo.pop()
        if op_class(m.op.name) != "cheap" or len(sub) == MAX_RECOMPUTE_OPS:
            return None
        sub.append(m)
        for i in m.inputs:
            if _elementwise(i) and i.id not in outputs and i.size == n.size \
                    and all(c is m for c in cons[i.id]):
                todo.append(i)           # only m reads it: it follows m into each copy
            elif i.size == n.size:
                reread[i.id] = i.nbytes  # stored anyway: read again by each copy
    if (groups - 1) * sum(reread.values()) <= (1 + groups) * n.nbytes:
        return sub
    return None


def fuse(graph: Graph) -> Graph:
    """Group elementwise ops into ``fused`` kernels (see module docstring)."""
    order = graph.nodes()
    cons = consumers(order)
    outputs = {n.id for n in graph.outputs}
    root_of: dict[int, int] = {}        # member id -> root id
    copies: dict[int, list[int]] = {}   # recomputed node id -> the roots it is copied into
    size_of: dict[int, int] = {}        # root id -> element count of its elementwise part
    by_id = {n.id: n for n in order}

    forced: set[int] = set()            # below a recomputed node: copied with it

    def placement(n: Node) -> list[int] | None:
        """The group(s) ``n`` joins: one, several (recomputed), or None (a root)."""
        cs = cons[n.id]
        if n.id in outputs or not cs:
            return None
        if n.id in forced:
            return copies[cs[0].id]
        if len(cs) == 1 and cs[0].id not in copies:
            # One reader, the commonest case (a chain): its group, if it has one.
            r = root_of.get(cs[0].id)
            return None if r is None or size_of[r] != n.size else [r]
        roots: set[int] = set()
        for c in cs:
            if c.id in copies:
                roots.update(copies[c.id])
            elif c.id in root_of:
                roots.add(root_of[c.id])
            else:
                return None  # read outside any group: it must be stored anyway
        if any(size_of[r] != n.size for r in roots):
            return None
        if len(roots) == 1:
            return sorted(roots)
        sub = recompute(n, len(roots), cons, outputs)
        if sub is None:
            return None
        forced.update(m.id for m in sub if m is not n)
        return sorted(roots)

    for n in reversed(order):
        kind = n.op.kind
        if kind == "reduction" or kind == "scan":
            if n.value is None and fusable_root(n) and _elementwise(n.inputs[0]) \
                    and n.inputs[0].id not in outputs and n.inputs[0].size > 0 \
                    and reduction_dtype_issue(n) is None:
                # sum(elementwise...), exact blockwise in its dtypes: fuse.
                root_of[n.id] = n.id
                size_of[n.id] = n.inputs[0].size
            continue
        if kind != "elementwise" or n.value is not None:
            continue
        rs = placement(n)
        if rs is None:
            root_of[n.id] = n.id
            size_of[n.id] = n.size
        elif len(rs) == 1:
            root_of[n.id] = rs[0]
        else:
            copies[n.id] = rs

    members: dict[int, list[Node]] = {}
    for nid, r in root_of.items():
        members.setdefault(r, []).append(by_id[nid])
    for nid, rs in copies.items():
        for r in rs:
            members[r].append(by_id[nid])

    mapping: dict[int, Node] = {}
    for n in order:
        root = root_of.get(n.id)
        if (root is not None and root != n.id) or n.id in copies:
            continue  # an inner member: only its group's kernel(s) read it
        if root is None:
            if n.value is not None or not n.inputs:
                mapping[n.id] = n
            else:
                mapping[n.id] = rebuild(n, [mapping[i.id] for i in n.inputs])
            continue
        group = sorted(members[root], key=lambda m: m.id)
        if len(group) == 1 and n.op.kind in ("reduction", "scan"):
            mapping[n.id] = rebuild(n, [mapping[i.id] for i in n.inputs])
            continue
        mapping[n.id] = _kernel(n, group, mapping, copies)
    return Graph(tuple(mapping[o.id] for o in graph.outputs))


def _kernel(root: Node, group: list[Node], mapping: dict[int, Node],
            copies: dict[int, list[int]]) -> Node:
    """One ``fused`` node for ``group`` (ids ascending, so inputs come first);
    members in ``copies`` are also computed in other kernels (``recompute``)."""
    reduce_root = root.op.kind in ("reduction", "scan")
    body = [m for m in group if m is not root] if reduce_root else group
    index: dict[int, int] = {}          # member id -> temp number
    ext: dict[int, int] = {}            # external node id -> kernel input number
    ext_nodes: list[Node] = []
    program: list[Instr] = []
    for m in body:
        refs = []
        for i in m.inputs:
            if i.id in index:
                refs.append(-1 - index[i.id])
            else:
                if i.id not in ext:
                    ext[i.id] = len(ext_nodes)
                    ext_nodes.append(mapping[i.id])
                refs.append(ext[i.id])
        index[m.id] = len(program)
        attrs = m.attrs
        program.append((m.op.name, tuple(refs), tuple(sorted(attrs.items())) if attrs else (),
                        m.dtype))
    reduce = (root.op.name, tuple(sorted(root.attrs.items()))) if reduce_root else None
    attrs = {"program": tuple(program), "reduce": reduce, "shape": root.shape,
             "dtype": root.dtype, "elem_shape": body[-1].shape,
             # each instruction's (and the reduction's) user line, so an error
             # inside the kernel names the line that built the failing op
             "sources": tuple(m.source for m in body) + ((root.source,) if reduce_root else ()),
             # instructions recomputed here and in other kernels, not stored
             "recomputed": tuple(k for k, m in enumerate(body) if m.id in copies)}
    # Never shared (unique): hashing a long program would cost more than any
    # sharing of kernels between plans could save.
    return intern(FUSED, tuple(ext_nodes), attrs, root.shape, root.dtype, root.source,
                  unique=True)


def kernel_count(graph: Graph) -> int:
    return sum(1 for n in graph.nodes() if n.op is FUSED)
