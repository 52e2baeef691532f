"""Text form of a graph: one line per node, shared nodes shown once.

    %3:float64[1000,3] = input                       # model.py:10
    %5:float64[] = const 2.0                         # model.py:11
    %7:float64[1000,3] = multiply %3 %5              # model.py:11
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .node import Node, toposort


def _attr_str(node: Node) -> str:
    a = node.attrs
    kind = node.op.kind
    if node.op.name == "fused":
        from .passes.fuse import program_str
        return "{ " + program_str(a["program"], a["reduce"]) + " }"
    if node.op.name == "const":
        return repr(a["value"]) + (" (weak)" if node.weak else "")
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


def format_node(node: Node, name: dict[int, str] | None = None) -> str:
    nm = name or {}
    args = " ".join(nm.get(i.id, f"%{i.id}") for i in node.inputs)
    attrs = _attr_str(node)
    lhs = f"{nm.get(node.id, f'%{node.id}')}:{node.type_str()}"
    rhs = " ".join(x for x in (node.op.name, args, attrs) if x)
    if node.value is not None and node.op.kind != "source":
        rhs += "  [cached]"
    return f"{lhs} = {rhs}"


def format_graph(outputs: Sequence[Node], stop_at_values: bool = True) -> str:
    """Every node the outputs need, inputs first, with the user's source line."""
    order = toposort(outputs, stop_at_values=stop_at_values)
    lines = []
    body = [format_node(n) for n in order]
    width = min(max((len(b) for b in body), default=0) + 2, 60)
    for n, b in zip(order, body):
        lines.append(f"{b:<{width}}  # {n.where}")
    outs = ", ".join(f"%{n.id}" for n in outputs)
    lines.append(f"return {outs}")
    return "\n".join(lines)
