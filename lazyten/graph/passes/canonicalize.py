"""Common subexpressions: commutative operands put in one canonical order.

    add(%5, %3)  and  add(%3, %5)   =>  add(%3, %5)   (one node, computed once)
    multiply(2, %4)                 =>  multiply(%4, 2)   (constants last)

Hash-consing already merges nodes built alike, and every pass rebuilds
through it, so identical subexpressions are shared after any rewrite; this
pass also merges the ones that differ only in operand order, where the
result is bit-for-bit the same with the operands swapped: comparisons,
logical and bitwise ops always; add, multiply, maximum and minimum only on
integers and bools.  On floats, when both operands are NaN, the NaN that
comes out is the first one (``maximum(nan, -nan)`` is ``nan``, swapped it is
``-nan``), and ``copysign``/``signbit`` can see the difference (the fuzzer did).
"""

from __future__ import annotations

from ..node import Node
from ..rewrite import Graph, rebuild, rewrite

ALWAYS = frozenset({"equal", "not_equal", "logical_and", "logical_or", "logical_xor",
                    "bitwise_and", "bitwise_or", "bitwise_xor"})
EXACT_ON_INTEGERS = frozenset({"add", "multiply", "maximum", "minimum"})
COMMUTATIVE = ALWAYS | EXACT_ON_INTEGERS


def _order(n: Node) -> tuple[bool, int]:
    # Constants go last, the rest by id: ``2*x`` and ``x*2`` meet as ``x*2``,
    # and the common ``x * const`` chains need no rebuilding at all.
    return (n.op.name == "const", n.id)


def _rule(node: Node, ins: tuple[Node, ...]) -> Node | None:
    # (``rewrite`` calls this for COMMUTATIVE ops only: all binary.)
    a, b = ins
    if node.op.name in EXACT_ON_INTEGERS and (a.dtype.kind not in "biu"
                                              or b.dtype.kind not in "biu"):
        return None
    if _order(a) > _order(b):
        return rebuild(node, (b, a))
    return None


def cse(graph: Graph) -> Graph:
    """Merge common subexpressions, including commuted ones."""
    return rewrite(graph, _rule, only=COMMUTATIVE)
