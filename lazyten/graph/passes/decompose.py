"""Statistics decomposed into sums, so they fuse; dot products sent to BLAS.

    mean(x, axis)          =>  divide(sum(x, axis), n)
    var(x, axis, ddof)     =>  divide(sum(square(x - reshape(mean(x, axis))), axis), n - ddof)
    std(x, axis, ddof)     =>  sqrt(var(x, axis, ddof))

and, as the separate pass ``blas_dots`` (``lt.set_options(blas_dot=True)``
only: BLAS adds in its own order, so the bits are not NumPy's):

    sum(multiply(a, b))    =>  dot(reshape(a, -1), reshape(b, -1))      (BLAS ddot)

These are the very operations NumPy's ``_methods._mean``/``_var`` perform
(sum, true divide by the count, subtract, multiply, sum, divide), so values
match; but as graph nodes the ``(x - mean)**2`` pass fuses with its sum and
needs no full-size temporary, and ``mean`` is shared with a user's own
``x.mean(axis)`` by hash-consing.  float64 and float32 are decomposed; NumPy
divides a float32 sum by its count (an ``intp``) in float64 and rounds back,
and so does the graph:

    mean(x32, axis)        =>  astype(divide(astype(sum(x32, axis), f64), n), f32)

A bool's mean (``mean(x > 0.5)``) is decomposed too: its int64 count,
converted to float64, is NumPy's float64 sum of ones exactly (below 2**53
elements).  float16 is not: NumPy sums it in float32, cast in buffers.
"""

from __future__ import annotations

import math

import numpy as np

from ..node import Node
from ..ops import build, const
from ..rewrite import Graph, rewrite

F64 = np.dtype(np.float64)
F32 = np.dtype(np.float32)


def _count(x: Node, axes: tuple[int, ...]) -> int:
    return math.prod(x.shape[a] for a in axes)


def _by_count(s: Node, count: float, src: tuple[str, int]) -> Node:
    """``s`` divided by a count as NumPy's ``_mean``/``_var`` divide: in
    float64 (a float32 sum cast up, the quotient rounded back)."""
    if s.dtype == F32:
        up = build("astype", [s], {"dtype": F64}, src)
        return build("astype", [build("divide", [up, const(count)], {}, src)],
                     {"dtype": F32}, src)
    return build("divide", [s, const(count)], {}, src)


def _mean(x: Node, axes: tuple[int, ...], keep: bool, src: tuple[str, int]) -> Node:
    s = build("sum", [x], {"axis": axes, "keepdims": keep, "dtype": None}, src)
    return _by_count(s, _count(x, axes), src)


def _var(x: Node, axes: tuple[int, ...], keep: bool, ddof: float,
         src: tuple[str, int]) -> Node:
    m = _mean(x, axes, False, src)
    kd = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    d = build("subtract", [x, build("reshape", [m], {"shape": kd}, src)], {}, src)
    sq = build("multiply", [d, d], {}, src)
    s = build("sum", [sq], {"axis": axes, "keepdims": keep, "dtype": None}, src)
    div = max(_count(x, axes) - ddof, 0)
    return _by_count(s, float(div) if isinstance(ddof, float) else div, src)


def _rule(node: Node, ins: tuple[Node, ...]) -> Node | None:
    name = node.op.name
    if name not in ("mean", "var", "std") or node.dtype not in (F64, F32):
        return None
    x = ins[0]
    a = node.attrs
    if x.size == 0 or a.get("dtype") is not None:
        return None
    if x.dtype != node.dtype and not (x.dtype == np.bool_ and node.dtype == F64):
        # (a bool's float64 sum is its count, whatever the order of the
        # additions: NumPy's mean of a mask is sum(mask) / n exactly)
        return None
    axes, keep = a["axis"], a["keepdims"]
    if name == "mean":
        out = _mean(x, axes, keep, node.source)
    elif name == "var":
        out = _var(x, axes, keep, a.get("correction", 0), node.source)
    else:
        out = build("sqrt", [_var(x, axes, keep, a.get("correction", 0), node.source)], {},
                    node.source)
    return out if out.shape == node.shape and out.dtype == node.dtype else None


def _dot(node: Node, ins: tuple[Node, ...]) -> Node | None:
    """``sum(a*b)`` over every axis of equal-shape float64 operands -> BLAS dot."""
    x, attrs = ins[0], node.attrs
    if node.dtype != F64 or attrs.get("dtype") is not None or x.op.name != "multiply" \
            or x.value is not None or x.size == 0 or x.ndim == 0 \
            or len(attrs["axis"]) != x.ndim or attrs["keepdims"]:
        return None
    a, b = x.inputs
    if a.shape != x.shape or b.shape != x.shape or a.dtype != F64 or b.dtype != F64:
        return None
    src = node.source
    flat = [build("reshape", [v], {"shape": (-1,)}, src) for v in (a, b)]
    return build("dot", flat, {}, src)


def decompose(graph: Graph) -> Graph:
    """mean/var/std as sums (fusable)."""
    return rewrite(graph, _rule, only=frozenset({"mean", "var", "std"}))


def blas_dots(graph: Graph) -> Graph:
    """sum(a*b) of float64 operands as a BLAS dot.  Off by default: the
    dot adds in BLAS's order, not NumPy's pairwise one, and is no faster
    where the fused sum is a compiled loop at the memory's speed (5.4 ms
    against 5.4 at 1e7 elements; 1.4x faster only on data in cache)."""
    return rewrite(graph, _dot, only=frozenset({"sum"}))
