"""Matrix-chain reassociation by FLOP count.

    matmul(matmul(A, B), v)   =>   matmul(A, matmul(B, v))     when cheaper

A chain is a tree of ``matmul`` nodes over 1-D/2-D operands whose inner
products are used nowhere else; its cheapest parenthesization comes from the
classic O(n^3) dynamic program over the dimensions.  Transposed operands stay
views: NumPy hands a transposed C-contiguous matrix to BLAS with the
transpose flag instead of copying it.
"""

from __future__ import annotations

from ..node import Node
from ..ops import build
from ..rewrite import Graph, rewrite


def _chain(node: Node, uses: dict[int, int]) -> list[Node]:
    """The operands of the matmul chain rooted at ``node``, left to right."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.op.name == "matmul" and n.value is None and (n is node or uses.get(n.id, 0) == 1) \
                and all(i.ndim in (1, 2) for i in n.inputs):
            stack.append(n.inputs[1])
            stack.append(n.inputs[0])
        else:
            out.append(n)
    return out


def _best_order(dims: list[int]) -> list[list[int]]:
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def matmul_order(graph: Graph) -> Graph:
    """Reassociate chains of matrix products to the fewest FLOPs."""
    if "matmul" not in graph.op_names:
        return graph
    uses = {k: len(v) for k, v in graph.consumers().items()}

    def rule(node: Node, ins: tuple[Node, ...]) -> Node | None:
        if node.op.name != "matmul" or node.dtype.kind not in "fc":
            return None
        if ins != node.inputs:
            return None
        ops_ = _chain(node, uses)
        if len(ops_) < 3 or any(o.ndim not in (1, 2) for o in ops_):
            return None
        if any(o.dtype != node.dtype for o in ops_):
            # Mixed dtypes: an integer inner product wraps, a float16 one
            # rounds; reassociating would compute it in another dtype.
            return None
        if any(o.ndim == 1 for o in ops_[1:-1]):
            return None
        # A vector at either end is a 1-wide matrix for the cost model.
        first = ops_[0]
        dims = [1 if first.ndim == 1 else first.shape[0]]
        dims += [o.shape[1] if o.ndim == 2 else (o.shape[0] if o is first else 1)
                 for o in ops_]
        split = _best_order(dims)
        # Build bottom-up with an explicit stack (no recursion).
        result: dict[tuple[int, int], Node] = {(i, i): o for i, o in enumerate(ops_)}
        todo = [(0, len(ops_) - 1, False)]
        while todo:
            i, j, ready = todo.pop()
            if (i, j) in result:
                continue
            k = split[i][j]
            if not ready:
                todo.append((i, j, True))
                todo.append((i, k, False))
                todo.append((k + 1, j, False))
                continue
            result[(i, j)] = build("matmul", [result[(i, k)], result[(k + 1, j)]], {},
                                   node.source)
        out = result[(0, len(ops_) - 1)]
        return out if out.shape == node.shape and out.dtype == node.dtype else None

    return rewrite(graph, rule, only=frozenset({"matmul"}))
