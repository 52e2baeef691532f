"""Algebraic identities that are exact in floating point, and constant folding.

    multiply(x, 1)            =>  x          (exact: x*1 == x for NaN, inf, -0.0)
                                             (x computed here: see below)
    divide(x, 1), pow(x, 1)   =>  x          (pow: not float16, computed in float32)
    subtract(x, 0)            =>  x          (x - 0.0 keeps -0.0; x + 0.0 does not,
    add(x, 0)                 =>  x             so add is only dropped for integers,
                                                and x - (-0.0) is kept)
    pow(x, 2)                 =>  multiply(x, x)
    pow(x, 0.5)               =>  sqrt(x)    (float32/64 x, a scalar exponent: NumPy's
    pow(x, -1)                =>  divide(1, x)  power loop computes these so)
    negative(negative(x))     =>  x
    astype(x, x.dtype)        =>  x
    not_equal(x, 0)           =>  x          (x bool: count_nonzero(x > y) is sum(x > y))
    transpose(transpose(x))   =>  transpose(x) with the composed axes (or x)
    reshape(reshape(x))       =>  reshape(x)
    full_like(x)              =>  full(x.shape)  (or empty: x's values are never read)
    op(x, full(s, v))         =>  op(x, v)   (v 0-d, of the fill's dtype, where x's
                                              shape is the result's anyway)
    op(small constants)       =>  constant   (folded with NumPy)
    setitem(x, x[i], i)       =>  x          (the values written back: Python's
                                             ``x[i] += v`` writes the view it
                                             updated back into x)

NumPy's float power loop, given one exponent for every element, computes
``x ** 0.5`` as ``sqrt(x)`` (``-0.0 ** 0.5`` is ``-0.0``, ``-inf ** 0.5``
NaN, unlike C's ``pow``), ``x ** -1`` as ``1.0 / x`` and ``x ** 2`` as
``x * x``: the rewrites are those very computations (and sqrt is an exact
loop op, where pow is libm's).

``x * 0`` is *not* folded: it is NaN for NaN and inf.  Complex ``x * 1``,
``x / 1`` and ``x ** 1|2`` are not rewritten either: complex multiplication
by ``1+0j`` turns ``-0.0`` real parts into ``+0.0`` and ``nan+1j`` into
``nan+nanj``.  A rule applies only
when the result keeps the node's shape and dtype, so broadcasting and NEP 50
promotion are never changed by a rewrite.  An operation (not a view) is not
rewritten as a user's array, a cached value or a view: ``x * 1`` of an input
``x`` stays a kernel, a new array as NumPy's (``_not_fresh``).
"""

from __future__ import annotations

import math

from collections.abc import Callable
from typing import Any

import numpy as np

from ..node import Node, intern
from ..ops import REGISTRY, build, const
from ..layout import infer, row_major
from ..rewrite import Graph, rebuild, rewrite
from ..shapes import broadcast_shapes

FOLD_LIMIT = 1024  # elements: larger constants stay lazy (memory over speed)
# The dtypes whose power loop has NumPy's scalar-exponent fast paths.
_POW_FAST = frozenset({np.dtype(np.float32), np.dtype(np.float64)})


def _is_scalar_const(n: Node, value: float) -> bool:
    if n.op.name != "const" or n.shape != ():
        return False
    v = n.attrs["value"]
    return not isinstance(v, (bool, np.bool_)) and bool(v == value)


def _same(node: Node, x: Node) -> bool:
    return x.shape == node.shape and x.dtype == node.dtype


def _multiply(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if node.dtype.kind == "c":
        # Complex arithmetic is not exact with 1: (-0.0-0.5j)*1 has real part
        # -0.0 - (-0.5*0.0) = +0.0, and nan+1j times 1 is nan+nanj.
        return None
    for a, b in ((0, 1), (1, 0)):
        if _is_scalar_const(ins[b], 1) and _same(node, ins[a]):
            return ins[a]
    return None


def _divide(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if node.dtype.kind != "c" and _is_scalar_const(ins[1], 1) and _same(node, ins[0]):
        return ins[0]
    return None


def _pow(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if node.dtype.kind == "c":
        return None
    x, e = ins
    # (not float16: NumPy's float16 power runs in float32, so a NaN comes out
    # quieted with another payload)
    if _is_scalar_const(e, 1) and _same(node, x) and node.dtype != np.float16:
        return x
    if e.weak and _is_scalar_const(e, 2) and x.dtype == node.dtype and x.shape == node.shape:
        return _apply_like(node, "multiply", (x, x))
    if node.dtype in _POW_FAST and _same(node, x):
        if _is_scalar_const(e, 0.5):
            return _apply_like(node, "sqrt", (x,))
        if _is_scalar_const(e, -1):
            return _apply_like(node, "divide", (const(1, node.source), x))
    return None


def _subtract(node: Node, ins: tuple[Node, ...]) -> Node | None:
    # x - 0 is x, also -0.0 - 0 (-0.0); but x - (-0.0) is x + 0.0, which
    # makes -0.0 into +0.0: only a zero without a negative sign.
    c = ins[1]
    if _is_scalar_const(c, 0) and _same(node, ins[0]) and not _negative_zero(c.attrs["value"]):
        return ins[0]
    return None


def _negative_zero(v: Any) -> bool:
    """Whether the zero ``v`` (a Python or NumPy scalar) has a negative sign
    in its real or imaginary part."""
    z = complex(v)
    return math.copysign(1.0, z.real) < 0 or math.copysign(1.0, z.imag) < 0


def _add(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if node.dtype.kind in "iu":
        for a, b in ((0, 1), (1, 0)):
            if _is_scalar_const(ins[b], 0) and _same(node, ins[a]):
                return ins[a]
    return None


def _not_equal(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if node.dtype == np.bool_:
        for a, b in ((0, 1), (1, 0)):
            c = ins[b]
            if ins[a].dtype == np.bool_ and _same(node, ins[a]) and c.op.name == "const" \
                    and c.shape == () and c.attrs["value"] == 0:
                return ins[a]
    return None


def _negative(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if ins[0].op.name == "negative" and ins[0].value is None:
        return ins[0].inputs[0]
    return None


def _astype(node: Node, ins: tuple[Node, ...]) -> Node | None:
    return ins[0] if ins[0].dtype == node.dtype else None


def _transpose(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if ins[0].op.name != "transpose" or ins[0].value is not None:
        return None
    inner = ins[0].attrs["axes"]
    axes = tuple(inner[a] for a in node.attrs["axes"])
    base = ins[0].inputs[0]
    if axes == tuple(range(len(axes))):
        return base
    return rebuild(node, (base,), axes=axes)


def _reshape(node: Node, ins: tuple[Node, ...]) -> Node | None:
    base = ins[0]
    if base.op.name == "reshape" and base.value is None:
        base = base.inputs[0]
        if not _c_contiguous(base):
            # (NumPy's first reshape of other data copies it in C order:
            # ``(x.T * 2).ravel().reshape(s)`` is C where ``x.T * 2`` is F,
            # and a float sum over it adds in that order)
            return None
    if base.shape == node.shape:
        return base
    if base is not ins[0]:
        return rebuild(node, (base,))
    return None


def _c_contiguous(n: Node) -> bool:
    """Whether ``n``'s value is known to be C-contiguous before it runs (a
    reshape of it is then a view in NumPy): a value so, or a result this
    plan makes that ``layout.infer`` knows to be C (not a view's)."""
    if n.value is not None:
        return bool(n.value.flags.c_contiguous)
    if n.op.kind in ("source", "view"):
        return len(n.shape) < 2 and n.op.kind == "source"
    return infer(n) == ("C", True)


def _full_like(node: Node, ins: tuple[Node, ...]) -> Node | None:
    fill = node.attrs["fill_value"]
    if fill is None:
        return build("empty", (), {"shape": node.shape, "dtype": node.dtype}, node.source)
    return build("full", (), {"shape": node.shape, "dtype": node.dtype, "fill_value": fill},
                 node.source)


def _setitem(node: Node, ins: tuple[Node, ...]) -> Node | None:
    base, val = ins
    if val.op.name == "getitem" and val.inputs[0] is base and not node.attrs.get("scalar") \
            and val.attrs["index"] == node.attrs["index"]:
        return base
    return None


Identity = Callable[[Node, tuple[Node, ...]], Node | None]
# One entry per op with identities: every other op is only tried for folding
# (a lookup, not a dozen comparisons, for each node of a large graph).
_IDENTITIES: dict[str, Identity] = {
    "multiply": _multiply, "divide": _divide, "pow": _pow, "subtract": _subtract,
    "add": _add, "not_equal": _not_equal, "negative": _negative, "astype": _astype,
    "transpose": _transpose, "reshape": _reshape, "full_like": _full_like,
    "setitem": _setitem}


def _identity(node: Node, ins: tuple[Node, ...]) -> Node | None:
    f = _IDENTITIES.get(node.op.name)
    if f is None:
        return None
    out = f(node, ins)
    if out is not None and node.op.kind != "view" and _not_fresh(out):
        return None
    return out


def _not_fresh(n: Node) -> bool:
    """Whether ``n``'s value is not an array this plan makes: a user's array,
    a cached value, or a view (of anything).  A computed node (``x * 1``)
    must not become one: its value would alias the user's array (handed
    out or cached as the result, it would change when the array does), and
    its layout would be the input's (a reversed or strided view, F order)
    where NumPy's result is a new array in the operands' memory order, so a
    float sum of it would add in another order."""
    return n.value is not None or n.op.kind in ("source", "view")


def _identity_or_fill(node: Node, ins: tuple[Node, ...]) -> Node | None:
    """``_identity``, then ``_scalar_fill``: for graphs with fills only
    (looking for one cost every binary node of a long chain 0.4 us)."""
    out = _identity(node, ins)
    if out is None and len(ins) > 1 and node.op.kind == "elementwise":
        out = _scalar_fill(node, ins)
    return out


def _scalar_fill(node: Node, ins: tuple[Node, ...]) -> Node | None:
    """An operand that is one value filled to a shape the other operands
    give anyway (``maximum(x, zeros_like(x))``) becomes that value, 0-d: a
    0-d array promotes as the filled one (under NEP 50 only Python scalars
    are weak, arrays of any ndim are not), the values are the same, and no
    buffer of the fill is made.  Not a power's exponent: NumPy's power
    loop takes ``sqrt`` (and the like) for an exponent of stride 0 only, and
    ``(-inf) ** 0.5`` is ``inf`` by ``pow``, NaN by ``sqrt``."""
    for k, f in enumerate(ins):
        if f.op.name != "full" or f.value is not None or not f.shape:
            continue
        if k == 1 and node.op.name in ("power", "pow", "float_power"):
            continue
        others = [i.shape for j, i in enumerate(ins) if j != k]
        if broadcast_shapes(*others) != node.shape:
            continue
        if len(f.shape) > 1 and not all(_runs_in_c_order(i) for j, i in enumerate(ins)
                                        if j != k):
            # (the fill, a C array of the result's shape, makes NumPy's
            # result C whatever the others' layouts: without it, the kernel
            # would take theirs, ``zeros + x.T`` F)
            continue
        new = list(ins)
        # (a NumPy scalar of the fill's dtype: a Python one would be weak)
        new[k] = const(np.asarray(f.attrs["fill_value"], f.dtype)[()], f.source)
        return rebuild(node, new)
    return None


def _runs_in_c_order(n: Node, depth: int = 0) -> bool:
    """Whether ``n``'s value is known, before it runs, to have its axes in
    C's memory order (an elementwise kernel over it is then C): a value so
    laid out, one of fewer than two axes, a creation, an elementwise result
    of such operands; anything else (a view, a reduction: their layouts
    follow their operands') answers no."""
    if len(n.shape) < 2:
        return True
    v = n.value
    if v is not None:
        return row_major(v)
    kind = n.op.kind
    if kind == "creation":
        return True
    return (kind == "elementwise" and depth < 8
            and all(_runs_in_c_order(i, depth + 1) for i in n.inputs))


def _apply_like(node: Node, name: str, ins: tuple[Node, ...]) -> Node:
    return intern(REGISTRY[name], ins, {}, node.shape, node.dtype, node.source)


def _fold(node: Node, ins: tuple[Node, ...]) -> Node | None:
    if not ins:
        return None
    for i in ins:                        # (most nodes fail here, at their first input)
        if i.op.name != "const" and not (i.op.kind == "creation" and i.size <= FOLD_LIMIT):
            return None
    if node.op.kind in ("source", "view") or node.size > FOLD_LIMIT:
        return None
    from ...exec.reference import run_reference
    rebuilt = rebuild(node, ins)
    with np.errstate(all="ignore"):
        (v,) = run_reference([rebuilt])
    arr = np.asarray(v, dtype=node.dtype)
    if arr.ndim == 0:
        value: Any = arr[()]
        return intern(REGISTRY["const"], (), {"value": value, "shape": (), "dtype": arr.dtype},
                      (), arr.dtype, node.source)
    arr.flags.writeable = False
    return intern(REGISTRY["input"], (), {"shape": arr.shape, "dtype": arr.dtype,
                                          "name": "folded"},
                  arr.shape, arr.dtype, node.source, unique=True, value=arr)


def _make_rule(identity: Identity) -> Callable[[Node, tuple[Node, ...]], Node | None]:
    def rule(node: Node, ins: tuple[Node, ...]) -> Node | None:
        out = identity(node, ins)
        if out is None:
            return _fold(node, ins)
        # What an identity built may simplify or fold in turn (``c ** 2`` ->
        # ``c * c`` -> a constant), so that the pass is idempotent: the optimizer
        # does not run it again on a graph it has already seen.
        for _ in range(8):
            if out.value is not None or not out.inputs:
                break
            nxt = identity(out, out.inputs) or _fold(out, out.inputs)
            if nxt is None or nxt is out:
                break
            out = nxt
        return out
    return rule


_rule = _make_rule(_identity)
_rule_with_fills = _make_rule(_identity_or_fill)


def simplify(graph: Graph) -> Graph:
    """Exact algebraic identities and constant folding (see module docstring)."""
    names = graph.op_names
    return rewrite(graph, _rule_with_fills if "full" in names or "full_like" in names
                   else _rule)
