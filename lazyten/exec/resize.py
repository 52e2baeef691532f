"""One optimized graph at other sizes: how a compiled function over ``None``
dimensions runs a new size without specializing and optimizing again.

    size_form(g, inputs)       g's structure with its sizes left out, or None
                               where a node's attributes may hold a size
    resize(g, inputs, new)     g over the placeholders ``new`` (other shapes):
                               every node's shape inferred again, attributes kept

    fused{a*b + c; shape (1000,)}(a, b, c)  =>  fused{a*b + c; shape (1200,)}(a', b', c')

The passes may read sizes: a mean becomes a sum times ``1/n``, a slice's
bounds are resolved against its axis, a simplification holds for a size-1
axis only, a cost rule compares bytes.  So a graph is reused at another size
only when (``lt.function`` checks this) two specializations of one *size
class* (which None dimensions are 0, 1 or equal to each other, and their bit
lengths) gave equal forms: then no pass wrote a size into the graph where
its form shows (a ``1/n`` is a different constant, a resolved bound a
different attribute).  What a form may hold is limited to ops whose
attributes carry no size (elementwise, reductions and scans over axes,
contractions, transposes, fused kernels, whose shapes are re-derived and
checked), so a bound equal at two sizes (``x[:5]``) never gets that far.
Cost decisions (fusion's recompute rule, the matmul order) may differ at
the new size; they choose among equal results, and the plan itself (buffers,
in-place writes, backends) is made again for the new size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..graph import ops
from ..graph.node import Node, attrs_key, intern
from ..graph.passes.fuse import FUSED
from ..graph.rewrite import Graph
from ..graph.shapes import broadcast_shapes, normalize_axes, reduce_shape

# Op kinds whose attributes hold no size (axes, offsets, dtypes, subscripts),
# and whose shapes ``ops.build`` infers again from their inputs'.
_SIZE_FREE_KINDS = frozenset({"elementwise", "reduction", "scan", "contraction"})
_SIZE_FREE_OPS = frozenset({"transpose", "masked_reduce", "nan_extreme", "divide_by_count",
                            "view_dtype", "einsum_view", "squeeze_guard"})


def reduced_shape(elem: tuple[int, ...], reduce: Any) -> tuple[int, ...] | None:
    """A fused kernel's result shape from its elementwise shape and its
    ``reduce`` attribute; None for a reduction this does not know (the
    caller then treats the kernel as sized).

    >>> reduced_shape((4, 5), ("sum", (("axis", (0,)), ("keepdims", False))))
    (5,)
    >>> reduced_shape((4, 5), ("max", (("axis", -1), ("keepdims", True))))
    (4, 1)
    >>> reduced_shape((4, 5), ("cumulative_sum", (("axis", None),)))
    (20,)
    """
    if reduce is None:
        return elem
    name, items = reduce
    a = dict(items)
    if set(a) - {"axis", "keepdims", "dtype", "ddof", "correction", "include_initial"}:
        return None
    axis = a.get("axis")
    if ops.REGISTRY[name].kind == "scan":
        if a.get("include_initial"):
            return None
        return elem if axis is not None else (math.prod(elem),)
    return reduce_shape(elem, normalize_axes(axis, len(elem)), bool(a.get("keepdims", False)))


def size_form(g: Graph, inputs: Sequence[Node]) -> tuple[Any, ...] | None:
    """The optimized graph ``g`` over the placeholders ``inputs`` as a
    hashable structure without its shapes: ops, attributes, dtypes, lines and
    wiring; leaves other than ``inputs`` by identity (a constant made from a
    size is a different node at another size), folded constants by value.  None when a node's
    attributes may hold a size, or a fused kernel's shapes are not the ones
    ``resize`` derives."""
    pos: dict[int, int] = {}
    where = {n.id: k for k, n in enumerate(inputs)}
    items: list[Any] = []
    for n in _post_order(g.outputs):
        pos[n.id] = len(items)
        if n.id in where:
            items.append(("in", where[n.id]))
            continue
        if n.value is not None or not n.inputs:
            v = n.value
            if v is not None and n.op.name == "input" and n.attrs.get("name") == "folded":
                # Folded constants (at most ``FOLD_LIMIT`` elements) are new
                # nodes at every compile: by value.
                items.append(("folded", n.shape, n.dtype, v.tobytes()))
            else:
                items.append(("leaf", n.id))
            continue
        if n.op is FUSED:
            a = n.attrs
            elem = a["elem_shape"]
            if _broadcast(n.inputs) != elem or reduced_shape(elem, a["reduce"]) != n.shape:
                return None
            key: Any = (a["program"], a["reduce"], a["sources"], a["recomputed"])
        elif n.op.kind in _SIZE_FREE_KINDS or n.op.name in _SIZE_FREE_OPS:
            key = attrs_key(n)
        else:
            return None
        items.append((n.op.name, key, n.dtype, n.weak, n.source,
                      tuple([pos[i.id] for i in n.inputs])))
    items.append(tuple([pos[o.id] for o in g.outputs]))
    form = tuple(items)
    try:
        hash(form)
    except TypeError:                   # attrs holding an unhashable value
        return None
    return form


def _post_order(outputs: Sequence[Node]) -> list[Node]:
    """The graph's nodes in depth-first post-order from ``outputs``, inputs
    in order: the same for the same structure, where ``toposort``'s order
    follows node ids (a constant made by an earlier compile is older than
    this one's placeholders).  Cached values are leaves."""
    done: set[int] = set()
    order: list[Node] = []
    stack: list[tuple[Node, bool]] = [(o, False) for o in reversed(outputs)]
    while stack:
        n, expanded = stack.pop()
        if n.id in done:
            continue
        if expanded or n.value is not None or not n.inputs:
            done.add(n.id)
            order.append(n)
            continue
        stack.append((n, True))
        for i in reversed(n.inputs):
            if i.id not in done:
                stack.append((i, False))
    return order


def _broadcast(nodes: Sequence[Node]) -> tuple[int, ...] | None:
    try:
        return broadcast_shapes(*[i.shape for i in nodes])
    except ValueError:
        return None


def resize(g: Graph, inputs: Sequence[Node], new: Sequence[Node]) -> Graph:
    """``g`` (a graph ``size_form`` accepts) over ``new`` in place of
    ``inputs``: fused kernels get the broadcast and reduced shapes of their
    new inputs, other nodes are built again (``ops.build``: inference checks
    every shape).  Raises ``ValueError`` where a shape does not fit, as
    building the graph at that size would."""
    mapping = {o.id: m for o, m in zip(inputs, new)}
    for n in g.nodes():
        if n.id in mapping:
            continue
        if n.value is not None or not n.inputs:
            mapping[n.id] = n
            continue
        ins = [mapping[i.id] for i in n.inputs]
        if n.op is FUSED:
            elem = _broadcast(ins)
            shape = None if elem is None else reduced_shape(elem, n.attrs["reduce"])
            if elem is None or shape is None:
                raise ValueError(f"fused kernel %{n.id}: inputs "
                                 f"{[i.shape for i in ins]} do not broadcast")
            attrs = {**n.attrs, "shape": shape, "elem_shape": elem}
            # (unique, as ``fuse`` makes kernels)
            mapping[n.id] = intern(FUSED, tuple(ins), attrs, shape, n.dtype, n.source,
                                   n.weak, unique=True)
        else:
            m = ops.build(n.op.name, ins, dict(n.attrs), n.source)
            if m.dtype != n.dtype:
                raise ValueError(f"%{n.id} {n.op.name}: dtype {m.dtype} at the new "
                                 f"size, {n.dtype} before")
            mapping[n.id] = m
    return Graph(tuple(mapping[o.id] for o in g.outputs))
