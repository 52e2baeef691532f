"""The graph IR the passes work on, and the machinery every pass shares.

A ``Graph`` is just its output nodes: nodes are immutable and hash-consed, so
a pass never edits a node, it builds new ones (``rebuild``) and returns a new
``Graph``.  Rebuilding a node on equal inputs gives back the same node, which
is what makes common-subexpression elimination automatic after any rewrite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .node import Node, attrs_key, consumers, intern, toposort
from .printer import format_graph


@dataclass(frozen=True)
class Graph:
    outputs: tuple[Node, ...]

    def nodes(self) -> list[Node]:
        """Reachable nodes, inputs first (cached values are leaves)."""
        return self._order

    @cached_property
    def _order(self) -> list[Node]:
        # Computed once per Graph: several passes and the planner walk it.
        return toposort(self.outputs)

    @cached_property
    def op_names(self) -> frozenset[str]:
        """The ops in the graph: a pass that cannot apply skips the walk."""
        return frozenset(n.op.name for n in self._order)

    def consumers(self) -> dict[int, list[Node]]:
        return consumers(self.nodes())

    def format(self) -> str:
        return format_graph(self.outputs)

    def __str__(self) -> str:
        return self.format()


def rebuild(node: Node, inputs: Sequence[Node], **attrs: Any) -> Node:
    """``node`` on new inputs (and optionally new attrs), same shape, dtype and
    source line; the same node when nothing changed."""
    ins = tuple(inputs)
    if not attrs:
        if ins == node.inputs:
            return node
        # (the same attrs: their key as made for ``node``)
        return intern(node.op, ins, node.attrs, node.shape, node.dtype, node.source,
                      node.weak, attrs_key=attrs_key(node))
    return intern(node.op, ins, {**node.attrs, **attrs}, node.shape, node.dtype,
                  node.source, node.weak)


Rule = Callable[[Node, tuple[Node, ...]], Node | None]


def rewrite(graph: Graph, rule: Rule, only: frozenset[str] | None = None,
            replaced: Callable[[Node, Node], None] | None = None) -> Graph:
    """Apply ``rule`` bottom-up: each node sees its already-rewritten inputs.

    ``rule(node, new_inputs)`` returns a replacement node or None (keep the
    node, rebuilt on the new inputs).  Iterative over the topological order.
    With ``only`` (the op names the rule can change), the rule sees only
    nodes of those ops, and a graph without such ops is returned as it is,
    as is a graph the rule left unchanged.  ``replaced(old, new)`` hears of
    each node replaced or rebuilt, before any node that reads it is seen.
    """
    if only is not None and only.isdisjoint(graph.op_names):
        return graph
    # The walk is the cost of every pass on a large graph (10,000-op chains
    # run it several times a plan): the loop is written out, no call per
    # node but the rule's, and a node on unchanged inputs is kept as it is
    # (what ``rebuild`` would give back).
    mapping: dict[int, Node] = {}
    for n in graph.nodes():
        ins0 = n.inputs
        if n.value is not None or not ins0:
            mapping[n.id] = n
            continue
        ins = tuple([mapping[i.id] for i in ins0])
        if only is None or n.op.name in only:
            out = rule(n, ins)
            if out is not None:
                mapping[n.id] = out
                if replaced is not None and out is not n:
                    replaced(n, out)
                continue
        if ins == ins0:
            mapping[n.id] = n
        else:
            mapping[n.id] = new = rebuild(n, ins)
            if replaced is not None:
                replaced(n, new)
    outs = tuple([mapping[o.id] for o in graph.outputs])
    return graph if outs == graph.outputs else Graph(outs)
