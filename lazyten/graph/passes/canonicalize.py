"""Common subexpressions: commutative operands put in one canonical order.

    add(%5, %3)  and  add(%3, %5)   =>  add(%3, %5)   (one node, computed once)
    multiply(2, %4)                 =>  multiply(%4, 2)   (constants last)

Hash-consing already merges nodes built alike, and every pass rebuilds
through it, so identical subexpressions are shared after any rewrite; this
pass also merges the ones that differ only in operand order.  Only ops whose
NumPy result is the same for swapped operands are listed (add/multiply of
floats are commutative in IEEE arithmetic; NaN payloads aside).
"""

from __future__ import annotations

from ..node import Node
from ..rewrite import Graph, rebuild, rewrite

COMMUTATIVE = frozenset({"add", "multiply", "maximum", "minimum", "equal", "not_equal",
                         "logical_and", "logical_or", "logical_xor", "bitwise_and",
                         "bitwise_or", "bitwise_xor", "hypot", "fmax", "fmin"})


def _order(n: Node) -> tuple[bool, int]:
    # Constants go last, the rest by id: ``2*x`` and ``x*2`` meet as ``x*2``,
    # and the common ``x * const`` chains need no rebuilding at all.
    return (n.op.name == "const", n.id)


def _rule(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if node.op.name in COMMUTATIVE and _order(ins[0]) > _order(ins[1]):
        return rebuild(node, (ins[1], ins[0]))
    return None


def cse(graph: Graph) -> Graph:
    """Merge common subexpressions, including commuted ones."""
    return rewrite(graph, _rule, only=COMMUTATIVE)
