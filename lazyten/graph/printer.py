"""Text form of a graph: one line per node, shared nodes shown once.

    %3:float64[1000,3] = input                       # model.py:10
    %5:float64[] = const 2.0                         # model.py:11
    %7:float64[1000,3] = multiply %3 %5              # model.py:11

Node ids grow for the whole process, so the same program prints different ids
from run to run.  ``renumber=True`` prints ids ``%0, %1, ...`` in topological
order instead (a depth-first order from the outputs, so the text depends only
on the graph): stable text for golden tests and diffs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .node import Node, toposort


def _attr_str(node: Node) -> str:
    a = node.attrs
    kind = node.op.kind
    if node.op.name == "fused":
        from .passes.fuse import program_str
        return "{ " + program_str(a["program"], a["reduce"]) + " }"
    if node.op.name == "const":
        v = a["value"]
        shown = repr(v.item() if isinstance(v, np.generic) else v)
        return shown + (" (weak)" if node.weak else "")
    if kind == "source":
        return f"name={a['name']}" if a.get("name") else ""
    if kind == "creation":
        skip = {"shape", "dtype"}
    else:
        skip = set()
    parts = [f"{k}={_short(v)}" for k, v in a.items() if k not in skip and v is not None]
    return " ".join(parts)


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def numbering(order: Sequence[Node], renumber: bool) -> dict[int, str]:
    """Node id -> printed name: ``%<id>``, or ``%<position>`` with ``renumber``.

    >>> numbering([], True)
    {}
    """
    if renumber:
        return {n.id: f"%{k}" for k, n in enumerate(order)}
    return {n.id: f"%{n.id}" for n in order}


def canonical_order(outputs: Sequence[Node], stop_at_values: bool = True) -> list[Node]:
    """The nodes the outputs need, inputs first, in an order that depends only
    on the graph's shape: a depth-first post-order from the outputs, inputs
    taken left to right.  Unlike id order it does not change when a shared
    node (a hash-consed constant) happens to be older.  Iterative.

    >>> import lazyten as lt
    >>> x = lt.asarray([1.0])
    >>> [n.op.name for n in canonical_order([(x + 2).node])]
    ['input', 'const', 'add']
    """
    done: set[int] = set()
    order: list[Node] = []
    for out in outputs:
        if out.id in done:
            continue
        stack: list[tuple[Node, int]] = [(out, 0)]
        on_stack = {out.id}
        while stack:
            node, k = stack[-1]
            leaf = stop_at_values and node.value is not None
            if not leaf and k < len(node.inputs):
                stack[-1] = (node, k + 1)
                child = node.inputs[k]
                if child.id not in done and child.id not in on_stack:
                    stack.append((child, 0))
                    on_stack.add(child.id)
                continue
            stack.pop()
            on_stack.discard(node.id)
            done.add(node.id)
            order.append(node)
    return order


def format_node(node: Node, name: dict[int, str] | None = None) -> str:
    nm = name or {}
    args = " ".join(nm.get(i.id, f"%{i.id}") for i in node.inputs)
    attrs = _attr_str(node)
    lhs = f"{nm.get(node.id, f'%{node.id}')}:{node.type_str()}"
    rhs = " ".join(x for x in (node.op.name, args, attrs) if x)
    if node.value is not None and node.op.kind != "source":
        rhs += "  [cached]"
    return f"{lhs} = {rhs}"


def format_graph(outputs: Sequence[Node], stop_at_values: bool = True,
                 renumber: bool = False) -> str:
    """Every node the outputs need, inputs first, with the user's source line.

    >>> import lazyten as lt
    >>> x = lt.asarray([1.0, 2.0, 3.0])
    >>> print(format_graph([(x + x).node], renumber=True))  # doctest: +ELLIPSIS
    %0:float64[3] = input ...
    %1:float64[3] = add %0 %0 ...
    return %1
    """
    # Renumbered text must not depend on how old a shared node is, so it
    # uses the canonical order; plain ids keep the id (creation) order.
    order = (canonical_order(outputs, stop_at_values) if renumber
             else toposort(outputs, stop_at_values=stop_at_values))
    name = numbering(order, renumber)
    lines = []
    body = [format_node(n, name) for n in order]
    width = min(max((len(b) for b in body), default=0) + 2, 60)
    # A constant node is shared by every graph that uses the same scalar, so
    # its own line is wherever it was first written; show its first reader's.
    where = {n.id: n.where for n in order}
    for n in reversed(order):
        for i in n.inputs:
            if i.op.name == "const":
                where[i.id] = where[n.id]
    for n, b in zip(order, body):
        lines.append(f"{b:<{width}}  # {where[n.id]}")
    outs = ", ".join(name.get(n.id, f"%{n.id}") for n in outputs)
    lines.append(f"return {outs}")
    return "\n".join(lines)
