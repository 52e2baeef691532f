"""Slice and view pushdown: views of elementwise expressions become
elementwise expressions of views, so only the needed elements are computed.

    getitem(add(a, b), [::1000])   =>  add(getitem(a, [::1000]), getitem(b, [::1000]))
    transpose(exp(x), (1, 0))      =>  exp(transpose(x, (1, 0)))

Broadcast operands get the index mapped onto their own dimensions (a size-1
dimension is indexed at 0, a missing leading one is skipped or kept as a new
axis), so broadcasting still lines up.  A view is pushed through a node that
other consumers also need only when it selects at most half of its elements:
otherwise the full and the sliced computation would both run.  A slice
reaching a slice of an elementwise node composes with it and sinks on
(``_through_slices``): ``diff(u, 2)[::1000]`` computes 3,000 elements of
``u``, not 1,000,000.

    getitem(sub(getitem(u, [1:]), getitem(u, [:-1])), [::1000])
        =>  sub(getitem(u, [1::1000]), getitem(u, [0:-1:1000]))   (then through u)

An index of a reduction or a scan moves to its input where the result is
NumPy's to the bit (``_reduced_task``): each element of the result is the
same reduction of the same elements in the same order, so printing
``x.sum(axis=1)`` of a (10**4, 10**4) expression reduces the 6 rows shown.

    getitem(sum(mul(x, 2), axis=1), [:3])  =>  sum(mul(getitem(x, [:3, :]), 2), axis=1)
    getitem(cumulative_sum(x, axis=1), [5])  =>  cumulative_sum(getitem(x, [5, :]), axis=0)

A view that a float sum (or product, mean, ...) over several axes reads
stays where it is (``_read_in_memory_order``): NumPy adds in the view's
memory layout, and a view pushed into the operands is a contiguous array.
So does a transpose of a computed value anywhere in the expression a sum
reads, which may decide that expression's layout.

A gather (``x[idx]``, ``take``) of an elementwise expression gathers from
its operands, the same index array for each (an operand broadcast along the
gathered axis is left as it is):

    take(mul(a, b), idx, axis=0)  =>  mul(take(a, idx, axis=0), take(b, idx, axis=0))

An index of a join (``concat``, and so ``stack``, whose operands are new
axes of views) takes from the operands it reaches and joins those pieces:

    getitem(concat(mul(a, 2), add(b, 1), axis=0), [3:7])
        =>  concat(mul(getitem(a, [3:5]), 2), add(getitem(b, [0:2]), 1), axis=0)

Rows of a reshaped 1-d array are a range of it, which sinks on in its turn
(printing ``(a*b).reshape(1000, 1000)`` computes its first and last 3,000
elements):

    getitem(reshape(mul(a, b), (1000, 1000)), [:3, :3])
        =>  getitem(reshape(mul(getitem(a, [0:3000]), getitem(b, [0:3000])), (3, 1000)), [:, :3])

A slice of a creation is made as one, so a summarized print of
``lt.arange(10**10) * 2`` makes its corners (``_created_part``):

    getitem(full((10**10,), 1.0), [:3])      =>  full((3,), 1.0)
    getitem(arange(0, 10**10, 1), [-3:])     =>  arange(10**10 - 3, 10**10, 1)

Matrix products keep their views: OpenBLAS picks its kernels by shape, and
``A[:3] @ B`` differed from the first rows of ``A @ B`` in the last bits
(float64, (300, 200) @ (200, 400) and (3000, 2000) @ (2000, 3000); single
rows too, column slices not).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..node import Node
from ..ops import build
from ..rewrite import Graph, rewrite
from ..layout import layout_stand_in
from ..shapes import IndexItem, compose_index, index_to_python, normalize_index

PUSH_VIEWS = frozenset({"getitem", "transpose"})
# ... and gathers: ``take`` copies, but what it gathers from an elementwise
# expression is the expression of what it gathers from the operands.
PUSHED = PUSH_VIEWS | {"take"}
# (``pushdown``'s budget: steps a node of the graph, for the whole pass; a
# print's corners of a deep 3-d expression, 8 views through all of it, fit)
PUSH_STEPS_PER_NODE = 16
# Reductions whose result does not depend on the order the elements are
# visited in, for the dtypes ``_order_free`` allows.
ORDER_FREE = frozenset({"any", "all", "argmin", "argmax"})
EXACT_INT = frozenset({"sum", "prod", "min", "max"})
# Scans: each lane along the axis is computed alone, in index order.
LANE_SCANS = frozenset({"cumulative_sum", "cumulative_prod", "sort", "argsort"})
# A view to take: (view op, its attrs, the node it views); once split, its
# input tasks, how to build the node again from what they become, and the
# view as it is (``_split``).
Task = tuple[str, dict[str, Any], Node]
Split = tuple[list[Task | None], Callable[[list[Node | None]], Node], Node]


def _input_view(view: str, attrs: dict[str, Any], out_shape: tuple[int, ...],
                x: Node) -> tuple[str, dict[str, Any]] | None:
    """The view to take of elementwise operand ``x`` (None: use ``x`` as is)."""
    if x.weak:
        return None                      # a Python scalar broadcasts to anything
    off = len(out_shape) - x.ndim
    if view == "transpose":
        if x.ndim == 0:
            return None
        # The transpose acts on the target padded to ``pad`` more leading
        # axes; x, of lower rank still, needs those and its own missing ones.
        return ("transpose", {"axes": attrs["axes"], "pad": attrs["pad"] + off})
    items: tuple[IndexItem, ...] = normalize_index(out_shape, attrs["index"])[0]
    res: list[Any] = []
    j = 0
    for it in items:
        if it[0] == "n":
            res.append(None)
            continue
        if j < off:                      # x lacks this leading dimension
            if it[0] == "s":
                res.append(None)         # keep a size-1 axis so alignment holds
        elif x.shape[j - off] == 1 and out_shape[j] != 1:
            res.append(0 if it[0] == "i" else slice(0, 1))
        else:
            res.append(index_to_python((it,))[0])
        j += 1
    return ("getitem", {"index": tuple(res)})


def _take_tasks(attrs: dict[str, Any], n: Node) -> list[Task | None] | None:
    """For ``take(n, indices, axis)`` of elementwise ``n``: per operand the
    gather to take of it (None: the operand as it is), or None where an
    operand cannot follow (broadcast along the axis while the indices are
    not one list, or a flat gather of a broadcast operand) or ``n`` is
    empty."""
    axis, idx = attrs["axis"], attrs["indices"]
    indexing = attrs.get("indexing", False)  # (NumPy's x[:, idx]: its layout)
    if n.size == 0:
        # Nothing to save, and NumPy's take checks its indices (and the
        # taken axis's length) only where the result has elements: of an
        # operand broadcast along an axis that is 0 here, it would raise.
        return None
    tasks: list[Task | None] = []
    for x in n.inputs:
        off = n.ndim - x.ndim
        if x.weak:
            tasks.append(None)
        elif axis is None:
            if x.shape != n.shape:
                return None
            tasks.append(("take", {"axis": None, "indices": idx, "indexing": indexing}, x))
        elif axis < off:                     # x lacks the axis: aligns after it
            tasks.append(None)
        elif x.shape[axis - off] == 1 and n.shape[axis] != 1:
            if idx.ndim != 1:
                return None
            tasks.append(None)               # broadcasts to len(idx) as before
        else:
            tasks.append(("take", {"axis": axis - off, "indices": idx, "indexing": indexing},
                          x))
    return tasks


def _join_tasks(attrs: dict[str, Any], n: Node) -> tuple[list[Task], int | None] | None:
    """For ``getitem(n, index)`` of ``concat`` node ``n``: the getitem of
    each operand the index reaches, and the axis to join those pieces on
    (None: one piece, the join's axis indexed by an integer), or None where
    the index does not split so simply (a new axis, a reversed step along
    the join, nothing selected)."""
    axis = n.attrs["axis"]
    if axis is None:
        return None
    items, _ = normalize_index(n.shape, attrs["index"])
    if any(it[0] == "n" for it in items):
        return None
    at = items[axis]
    if at[0] == "s" and at[3] < 0:
        return None
    pieces: list[Task] = []
    lo = 0
    for x in n.inputs:
        hi = lo + x.shape[axis]
        if at[0] == "i":
            local: IndexItem | None = ("i", at[1] - lo) if lo <= at[1] < hi else None
        else:
            start, stop, step = at[1], at[2], at[3]
            first = start if start >= lo else start + -(-(lo - start) // step) * step
            end = min(stop, hi)
            local = ("s", first - lo, end - lo, step) if first < end else None
        if local is not None:
            mine = items[:axis] + (local,) + items[axis + 1:]
            pieces.append(("getitem", {"index": index_to_python(mine)}, x))
        lo = hi
    if not pieces:
        return None
    if at[0] == "i":
        return pieces, None
    return pieces, axis - sum(1 for it in items[:axis] if it[0] == "i")


def _sinks_into(view: str, n: Node) -> bool:
    """Whether ``view`` (getitem, transpose, take) of ``n`` can move into it."""
    return n.value is None and (n.op.kind == "elementwise" or (
        view == "getitem" and (n.op.kind in ("reduction", "scan") or n.op.name == "concat"
                               or n.op.name in ("full", "empty", "arange"))))


def _rows_of_reshape(index: tuple[IndexItem, ...], r: Node
                     ) -> tuple[slice, tuple[int, ...], tuple[Any, ...]] | None:
    """For an index of ``r = reshape(x, shape)`` of a 1-d ``x`` whose first
    item takes a step-1 range of rows (or one row) and at most half of
    ``x``: (the range of ``x``, the shape to reshape it to, the index left
    for that), else None."""
    x = r.inputs[0]
    if x.ndim != 1 or r.ndim == 0 or not index or index[0][0] not in "si":
        return None
    row = math.prod(r.shape[1:])
    first = index[0]
    lead: int | slice
    if first[0] == "i":
        start, count, lead = first[1], 1, 0
    elif first[3] == 1:
        start, count, lead = first[1], len(range(first[1], first[2])), slice(None)
    else:
        return None
    if 2 * count * row > x.size:
        return None
    rest = (lead,) + index_to_python(index[1:])
    return slice(start * row, (start + count) * row), (count,) + r.shape[1:], rest


def _order_free(n: Node) -> bool:
    """Whether reduction ``n`` gives the same bits in any order: logic,
    first extremes, and integer arithmetic (wraparound is associative)."""
    name, x = n.op.name, n.inputs[0]
    if name == "masked_reduce":
        name = n.attrs["reduce"]
    return name in ORDER_FREE or (name in EXACT_INT and x.dtype.kind in "biu"
                                  and n.dtype.kind in "biu")


# Real ufuncs whose NumPy loop gives other bits on an operand with negative
# strides than on one with positive strides (measured with NumPy 2.4 on an
# AVX-512 machine: SVML's SIMD loops run on positive strides, a scalar libm
# loop on negative ones; a few ulps for arccos, a NaN's sign for log).  Which
# loops differ depends on the CPU and NumPy's build: the list is the union
# seen, and costs elsewhere only a reversed view left above the op.
STRIDE_SIGN_OPS = frozenset({
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cosh", "exp", "exp2",
    "expm1", "log", "log10", "log1p", "log2", "sinh", "tan", "pow", "atan2"})


# float16 ufuncs NumPy builds a SIMD loop for (AVX-512's half-precision
# SVML, numpy/_core/src/umath/loops_umath_fp.dispatch.c.src) that runs on
# contiguous operands only; a strided one goes through float32's scalar loop,
# which gives other bits (cos, arcsin and cbrt of ``x[::3]``, not only of
# ``x[::-1]``, seen here).
HALF_SIMD_OPS = frozenset({
    "sin", "cos", "tan", "exp", "exp2", "log", "log2", "log10", "expm1", "log1p", "cbrt",
    "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"})
# complex64 ufuncs whose NumPy loop gives other bits on negative strides
# (a SIMD loop on positive ones), as complex ``abs`` of either width.
COMPLEX64_SIGN_OPS = frozenset({"multiply", "square"})


def _stride_dependent(n: Node) -> bool:
    """Whether NumPy's loop for ``n`` gives other bits by its operands'
    strides whatever the view: complex ``abs`` runs a SIMD loop on positive
    strides and a scalar one on negative, which differ in the last bit, so a
    view pushed into its operand (``abs(x)[::-1]`` as ``abs(x[::-1])``, a
    gather made contiguous) could change the result; float16's SIMD
    functions (``HALF_SIMD_OPS``) differ on any view that is not
    contiguous, a slice with steps too."""
    name = n.op.name
    return name == "abs" and n.inputs[0].dtype.kind == "c" or \
        name in HALF_SIMD_OPS and n.dtype == np.float16


def _layout_cast(n: Node) -> bool:
    """Whether ``n`` casts floats (complex) to integers: out of range (inf,
    NaN, 1e20 to uint32) the C conversion is undefined, and NumPy's
    contiguous and strided cast loops give other integers, so a view pushed
    into its operand could change them.  Other casts (between floats,
    integers to anything, to bool) are the same per element in any layout
    and let views through: a summarized print of ``x.astype(np.float32)``
    computes only its corners."""
    return n.op.name == "astype" and n.inputs[0].dtype.kind in "fc" and n.dtype.kind in "iu"


def _sign_dependent(n: Node) -> bool:
    """Whether ``n`` is a ``STRIDE_SIGN_OPS`` op on real floats (or a
    ``COMPLEX64_SIGN_OPS`` one on complex64): a view may
    sink into its operands only if it keeps their strides' signs (a slice of
    positive step, a transpose), not one that reverses or gathers (a
    gather's contiguous result has the signs of no operand)."""
    return n.op.name in STRIDE_SIGN_OPS and n.dtype.kind == "f" or \
        n.op.name in COMPLEX64_SIGN_OPS and n.dtype == np.complex64


def _reverses(n: Node) -> bool:
    """Whether ``n`` is a basic index with a slice of negative step."""
    return n.op.name == "getitem" and any(
        it[0] == "s" and it[3] < 0 for it in n.attrs["index"])


def _steps(n: Node) -> bool:
    """Whether ``n`` is a basic index whose view of contiguous data is not
    contiguous (a slice of a step other than 1, a column ``[:, 2]``): read
    so, a BLAS dot adds in another order than over a contiguous copy."""
    if n.op.name != "getitem":
        return False
    if any(it[0] == "s" and it[3] != 1 for it in n.attrs["index"]):
        return True
    x = n.inputs[0]
    stand = layout_stand_in(x.shape, x.dtype, "C")
    return not stand[index_to_python(n.attrs["index"])].flags.c_contiguous


def _read_with_strides(graph: Graph) -> set[int]:
    """The views on the way (through views only) to an operand of a
    ``_sign_dependent`` op or a contraction where one of them reverses:
    NumPy's loop reads that operand with negative strides (BLAS's dot with
    a negative increment sums otherwise), and sunk into the expression below
    the views would make it contiguous (``exp((x * 2)[::-1])``)."""
    out: set[int] = set()
    for n in graph.nodes():
        contraction = n.op.kind == "contraction"
        if not contraction and not _sign_dependent(n):
            continue
        # (BLAS's dot also adds in another order for a step other than 1:
        # ``(x * 2)[::2] @ y`` sunk below the slice would read it contiguous)
        strided = _steps if contraction else _reverses
        for x in n.inputs:
            chain = []
            while x.value is None and x.inputs and x.op.name in PUSHED:
                chain.append(x)
                x = x.inputs[0]
            if any(strided(v) for v in chain):
                out.update(v.id for v in chain)
    return out


def _read_in_memory_order(graph: Graph) -> set[int]:
    """The views whose layout a reduction's order reads: those on the way
    (through views only) to a reduction over two or more axes (of more than
    one element) that is not ``_order_free``.

    NumPy reduces such an input in its memory layout: ``e[::2].sum()`` of a
    2-d ``e`` is a pairwise sum per row added row after row, where the
    contiguous array the view would become if pushed into ``e``'s operands
    is one pairwise sum (the last bits differ).  Over one axis the order is
    the same either way (rows pairwise, columns one row after the other).

    Also the views on the way to a ``flatten`` ("A"/"K": ``ravel``,
    ``tobytes``), which reads its operand in its memory layout: a slice of
    an F-ordered value is neither C nor F contiguous, the slice sunk into
    it gives an F-contiguous one ("A" reads it in F order, NumPy in C).

    And the transposes of computed values anywhere in the elementwise
    expression such a reduction (of one axis too) or ``flatten`` reads
    (``_transposes_below``): the expression's layout is its ops' one by
    one (``exec.layout.program_order``), which a transpose between them
    decides where their operands leave the order open (a broadcast, mixed
    layouts); pushed into the operands it is decided otherwise, and the
    sum adds in another order (a last bit: the layout fuzzer's find)."""
    out: set[int] = set()
    seen: set[int] = set()
    for n in graph.nodes():
        if n.op.name == "flatten":
            if not n.inputs:
                continue                     # (computed: a leaf, read as it is)
            x = n.inputs[0]
        else:
            if not n.inputs or (n.op.kind != "reduction" and n.op.name != "masked_reduce") \
                    or _order_free(n):
                continue
            x = n.inputs[0]
            axis = n.attrs.get("axis")
            axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
            reduced = sum(1 for a in axes if x.shape[a] > 1)
            if reduced == 0:
                continue
            if reduced == 1:
                out |= _transposes_below(x, seen)
                continue
        while x.value is None and x.inputs and (x.op.kind == "view" or x.op.name in PUSHED):
            out.add(x.id)
            x = x.inputs[0]
        out |= _transposes_below(x, seen)
    return out


def _transposes_below(x: Node, seen: set[int]) -> set[int]:
    """The transposes of computed values in the elementwise expression
    ``x`` (through its elementwise ops and views; ``seen``: nodes walked
    before, by other reductions, not walked again)."""
    out: set[int] = set()
    stack = [x]
    while stack:
        m = stack.pop()
        if m.id in seen or m.value is not None or not m.inputs:
            continue
        seen.add(m.id)
        if m.op.name == "transpose":
            if m.inputs[0].value is None and m.inputs[0].inputs:
                out.add(m.id)
        elif m.op.kind != "elementwise" and m.op.kind != "view":
            continue
        stack.extend(m.inputs)
    return out


def _reduced_task(attrs: dict[str, Any], n: Node) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """For ``getitem(n, index)`` of a reduction or scan ``n``: (the index to
    take of its input, ``n``'s attrs over that input), or None where the
    result would not be NumPy's to the bit.

    The reduced (or scanned) axes stay whole, so each element of the result
    reduces the same elements.  Their order matters for float sums and
    products (NumPy sums a row pairwise where the reduced axis is the inner
    loop, row after row where a kept axis is, and it drops an axis of length
    1 from its loop), so there every kept axis must keep its length or at
    least two elements (slices only: an integer drops the axis): NumPy's
    loop order then stays the same.  Order-free reductions and lane-wise
    scans take any integers and slices."""
    x = n.inputs[0]
    name = n.op.name
    items, _ = normalize_index(n.shape, attrs["index"])
    if any(it[0] == "n" for it in items):
        return None
    keep = True
    if n.op.kind == "scan":
        if name not in LANE_SCANS:
            return None
        axes: tuple[int, ...] = (n.attrs["axis"],)
        if x.ndim != n.ndim:                 # a 0-d input scanned as 1-d
            return None
    else:
        axis = n.attrs["axis"]
        if axis is None:                     # argmax of the flat array
            return None
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        keep = bool(n.attrs["keepdims"])
        exact = _order_free(n) or (x.dtype == n.dtype and n.dtype.kind in "fc"
                                   and n.dtype.itemsize >= 4
                                   and n.attrs.get("dtype") is None)
        if not exact:                        # float16, casts, int means...
            return None
    ordered = n.op.kind == "reduction" and not _order_free(n)
    # Each output axis's item, placed on the input axis it came from.
    per_axis: list[IndexItem] = []
    it_iter = iter(items)
    for ax in range(x.ndim):
        if ax in axes and not keep:
            per_axis.append(("s", 0, x.shape[ax], 1))
            continue
        it = next(it_iter)
        if ax in axes:
            if n.op.kind == "reduction":     # a kept length-1 axis: whole only
                if it != ("s", 0, 1, 1):
                    return None
                it = ("s", 0, x.shape[ax], 1)
            elif it != ("s", 0, n.shape[ax], 1):
                return None                  # the scanned lane itself is cut
            else:
                it = ("s", 0, x.shape[ax], 1)  # (include_initial: one longer)
        elif ordered and it[0] != "s":
            return None
        elif ordered:
            length = len(range(it[1], it[2], it[3]))
            if length not in (0, x.shape[ax]) and length < 2:
                return None
        per_axis.append(it)
    dropped = [ax for ax, it in enumerate(per_axis) if it[0] == "i"]
    new_axes = tuple(ax - sum(1 for d in dropped if d < ax) for ax in axes)
    new_attrs = dict(n.attrs)
    new_attrs["axis"] = new_axes if isinstance(n.attrs["axis"], tuple) else new_axes[0]
    return {"index": index_to_python(tuple(per_axis))}, new_attrs


def _take_view(view: str, attrs: dict[str, Any], x: Node, src: tuple[str, int]) -> Node:
    if view == "take":
        return build("take", [x, attrs["indices"]],
                     {"axis": attrs["axis"], "indexing": attrs.get("indexing", False)}, src)
    if view == "transpose":
        pad = attrs["pad"]
        if pad:
            x = build("getitem", [x], {"index": (None,) * pad + (Ellipsis,)}, src)
        return build("transpose", [x], {"axes": attrs["axes"]}, src)
    got = build("getitem", [x], attrs, src)
    made = _created_part(got, x)
    return got if made is None else made


def _created_part(got: Node, x: Node) -> Node | None:
    """The part ``got`` (a getitem) of the creation ``x`` made as one
    (printing ``lt.ones(10**10) + 1`` makes the 6 elements shown), or None:

        getitem(full(shape, v), index)       =>  full(index's shape, v)
        getitem(arange(a, b, s), [i:j:k])    =>  arange(range(a, b, s)[i:j:k])

    An integer ``arange`` only (a float one's elements are ``a + i * d``, a
    part's would be rounded from another start); the values are the same."""
    if x.value is not None or x.op.kind != "creation":
        return None
    if x.op.name in ("full", "empty"):
        return build(x.op.name, [], {**x.attrs, "shape": got.shape}, got.source)
    if x.op.name != "arange" or x.dtype not in _EXACT_ARANGE:
        return None
    (item,) = got.attrs["index"] if len(got.attrs["index"]) == 1 else (None,)
    a = x.attrs
    if item is None or item[0] != "s" or not all(type(a[k]) is int
                                                 for k in ("start", "stop", "step")):
        return None
    start, stop, step = item[1:]
    # (a normalized slice: a negative step's stop -1 is "past the first")
    r = range(a["start"], a["stop"], a["step"])[
        slice(start, None if step < 0 and stop < 0 else stop, step)]
    return build("arange", [], {**a, "start": r.start, "stop": r.stop, "step": r.step,
                                "shape": (len(r),)}, got.source)


# ``arange`` dtypes whose elements ``start + i * step`` are exact (``_created_part``).
_EXACT_ARANGE = frozenset(np.dtype(t) for t in (np.int64, np.int32, np.uint64, np.uint32))


def _through_slices(task: Task) -> Task:
    """A getitem of a (computed) getitem as one getitem of the latter's base,
    so the view keeps sinking: ``(u[1:] - u[:-1])[::1000]`` reaches ``u``
    through its two slices and computes 2 x 1,000 of its elements, not all.

        getitem(getitem(u, [1:]), [::1000])  =>  getitem(u, [1::1000])
    """
    name, attrs, n = task
    while name == "getitem" and n.op.name == "getitem" and n.value is None:
        outer = normalize_index(n.shape, attrs["index"])[0]
        composed = compose_index(n.attrs["index"], n.shape, outer)
        if composed is None:
            break
        attrs, n = {"index": composed}, n.inputs[0]
    return name, attrs, n


def _split(task: Task) -> tuple[list[Task | None], Callable[[list[Node | None]], Node]] | None:
    """The view ``task`` as views of its node's inputs (None: an input as it
    is) and how to build the node again from what they become; None where
    the view stays."""
    name, attrs, n = task
    if n.op.kind == "creation":
        return None                          # (the view makes its part: ``_take_view``)
    if n.op.name == "concat":
        got = _join_tasks(attrs, n)
        if got is None:
            return None
        axis = got[1]

        def join(pieces: list[Node | None]) -> Node:
            ins = [p for p in pieces if p is not None]
            out = ins[0] if axis is None or len(ins) == 1 else \
                build("concat", ins, {"axis": axis}, n.source)
            # (the pieces left may promote to less than the join did)
            return out if out.dtype == n.dtype else \
                build("astype", [out], {"dtype": n.dtype}, n.source)
        return [_through_slices(t) for t in got[0]], join
    new_attrs = n.attrs
    subtasks: list[Task | None]
    if name == "take":
        tasks = _take_tasks(attrs, n)
        if tasks is None:
            return None
        subtasks = list(tasks)
    elif n.op.kind == "elementwise":
        subtasks = []
        for x in n.inputs:
            iv = _input_view(name, attrs, n.shape, x)
            subtasks.append(None if iv is None else _through_slices((iv[0], iv[1], x)))
    else:
        reduced = _reduced_task(attrs, n)
        if reduced is None:
            return None
        subtasks = [_through_slices(("getitem", reduced[0], n.inputs[0]))]
        new_attrs = reduced[1]

    def rebuild(vals: list[Node | None]) -> Node:
        ins = [x if v is None else v for x, v in zip(n.inputs, vals)]
        return build(n.op.name, ins, dict(new_attrs), n.source)
    return subtasks, rebuild


def pushdown(graph: Graph) -> Graph:
    """Push getitem/transpose views and take gathers through elementwise
    ops, and getitem through joins, and through reductions and scans where
    exact (see module doc)."""
    if PUSHED.isdisjoint(graph.op_names):
        return graph
    users = graph.consumers()
    uses = {k: len(v) for k, v in users.items()}
    # What reads a node whole (an op that is no pushed view: ``0.5 * u``
    # beside ``roll(u, 1)``; a view of all of it: ``path[:]``, the state a
    # loop's next step reads beside its row ``path[k, :]``), and the
    # outputs: a view pushed below a node that another consumer computes
    # whole anyway computes its part a second time (a stencil's rolls
    # pushed down a time loop's shared steps took seconds to plan, for work
    # added, not saved).  By the original graph's nodes (``replaced`` adds
    # the nodes rebuilt for them).
    outputs = {n.id for n in graph.outputs}
    whole_by = {k: {c.id: c for c in v if c.op.name not in PUSHED or c.size >= c.inputs[0].size}
                for k, v in users.items()}
    kept = _read_in_memory_order(graph) | _read_with_strides(graph)
    # Steps of pushing a view one node down, for the whole pass: each view
    # walks the expression below it, so a chain of N views over elementwise
    # ops (``t = t[::-1] + 1`` N times) took N**2 / 2 steps (500: 2 s).  Past
    # this many, views stay where they are (every placement is exact).
    budget = [PUSH_STEPS_PER_NODE * len(graph.nodes())]

    def sink(view: Node, target: Node, ins: tuple[Node, ...], top: Node) -> Node:
        # Iterative: a chain of elementwise ops is walked with an explicit stack.
        # Each frame: (view op name, attrs, node to view, source line).
        # ``top``: the original graph's node ``target`` stands for.
        if view.op.name == "getitem":
            root_attrs: dict[str, Any] = {"index": index_to_python(view.attrs["index"])}
        elif view.op.name == "take":
            root_attrs = {"axis": view.attrs["axis"], "indices": ins[1],
                          "indexing": view.attrs.get("indexing", False)}
        else:
            root_attrs = {"axes": view.attrs["axes"], "pad": 0}
        root_task = (view.op.name, root_attrs, target)
        # A frame is a task, and once split (``split``) its input tasks, how
        # to build the pushed node from their results, and the view as it is.
        stack: list[tuple[Task, Split | None]] = [(root_task, None)]
        done: dict[tuple[str, str, int], Node] = {}
        via: dict[tuple[str, str, int], int] = {}     # a task's key -> the node split into it

        def key(t: Task) -> tuple[str, str, int]:
            return (t[0], repr(sorted(t[1].items())), t[2].id)

        inside: dict[int, bool] = {top.id: True, target.id: True}

        def below_view(c: Node) -> bool:
            """Whether every whole read of ``c`` leads to the view, and to
            no output: the push then computes the part of ``c`` the view
            needs, not ``c`` (``z + 1`` and ``z - 1`` under
            ``((z + 1) / (z - 1))[:10]``).  Consumers are walked up
            (iteratively, remembered per push), each step out of the budget."""
            stack = [c]
            while stack:
                d = stack[-1]
                if d.id in inside:
                    stack.pop()
                    continue
                budget[0] -= 1
                readers = whole_by.get(d.id, {}).values()
                if d.id in outputs or budget[0] <= 0 \
                        or any(inside.get(e.id) is False for e in readers):
                    inside[d.id] = False
                else:
                    nxt = next((e for e in readers if e.id not in inside), None)
                    if nxt is not None:
                        stack.append(nxt)
                        continue
                    inside[d.id] = True
                stack.pop()
            return inside[c.id]

        def computed_whole(n: Node, via: int | None) -> bool:
            """Whether ``n`` is computed whole whatever the push does: an
            output, or read whole by another consumer than ``via`` (the node
            the push comes down through) that is not itself below the view."""
            return n.id in outputs or any(
                k != via and not below_view(c) for k, c in whole_by.get(n.id, {}).items())

        def pushable(t: Task, out_size: int, via: int | None) -> bool:
            n = t[2]
            budget[0] -= 1
            # (``_sinks_into`` first: a node with a value is a leaf, whose
            # inputs, dropped by ``executor.cache``, the other tests read)
            return (budget[0] > 0 and _sinks_into(t[0], n)
                    and not _layout_cast(n) and not _stride_dependent(n)
                    and not (_sign_dependent(n) and (
                        t[0] == "take" or t[0] == "getitem" and any(
                            isinstance(i, slice) and (i.step or 1) < 0
                            for i in t[1]["index"])))
                    and (uses.get(n.id, 1) <= 1
                         or (2 * out_size <= n.size and not computed_whole(n, via)))
                    # a gather may repeat elements: never compute more than all
                    and (t[0] != "take" or out_size <= n.size))

        while stack:
            task, how = stack.pop()
            k = key(task)
            if k in done:
                continue
            if how is None:
                name, attrs, n = task
                taken = _take_view(name, attrs, n, view.source)
                got = _split(task) if pushable(task, taken.size, via.get(k)) else None
                if got is None:
                    done[k] = taken
                    continue
                stack.append((task, (got[0], got[1], taken)))
                for st in got[0]:
                    if st is not None:
                        via.setdefault(key(st), n.id)
                        stack.append((st, None))
                continue
            subtasks, rebuild, taken = how
            pushed = rebuild([None if st is None else done[key(st)] for st in subtasks])
            # Broadcasting must give back exactly the view's shape; if it
            # cannot (it always should), keep the view where it was.
            done[k] = pushed if pushed.shape == taken.shape else taken
        return done[key(root_task)]

    def through_reshape(node: Node, r: Node) -> Node | None:
        got = _rows_of_reshape(tuple(node.attrs["index"]), r)
        if got is None:
            return None
        flat, shape, rest = got
        x = r.inputs[0]
        if not _sinks_into("getitem", x):
            return None                      # nothing computed to spare
        part = sink(build("getitem", [x], {"index": (flat,)}, node.source), x, (x,),
                    node.inputs[0].inputs[0])
        rows = build("reshape", [part], {"shape": shape}, r.source)
        out = build("getitem", [rows], {"index": rest}, node.source)
        return out if out.shape == node.shape else None

    def rule(node: Node, ins: tuple[Node, ...]) -> Node | None:
        if node.id in kept:
            return None
        if node.op.name == "getitem" and ins and ins[0].op.name == "reshape" \
                and ins[0].value is None:
            return through_reshape(node, ins[0])
        if node.op.name in PUSHED and ins and _sinks_into(node.op.name, ins[0]):
            return sink(node, ins[0], ins, node.inputs[0])
        return None

    def replaced(old: Node, new: Node) -> None:
        # A node rebuilt (or replaced) stands for the original everywhere:
        # its consumers are the original's, so a view is not pushed through
        # it when others read it whole.  (Nodes the pass makes for a view it
        # pushes have one consumer: the default.)
        count = uses.get(old.id, 1)
        if count > uses.get(new.id, 1):
            uses[new.id] = count
        if old.id in outputs:
            outputs.add(new.id)
        if old.id in whole_by:
            whole_by.setdefault(new.id, {}).update(whole_by[old.id])

    return rewrite(graph, rule, only=PUSHED, replaced=replaced)
