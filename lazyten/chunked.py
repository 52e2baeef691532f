"""Chunked evaluation: elementwise-plus-reduction graphs under a memory budget.

When a plan's estimated peak exceeds ``memory_limit``, a graph made of
elementwise ops and reductions can still run: split the iteration space into
chunks along one axis, run the (compiled once) plan per chunk, and combine:

    x: float64[N]                    for each chunk x[lo:hi]:
    s = exp(x) * y                       s_c = exp(x_c) * y_c        (chunk-sized)
    outputs: s.sum(), s.max(),  =>       acc_sum = acc_sum + s_c.sum()
             (s * s).mean()              acc_max = maximum(acc_max, s_c.max())
                                         acc_sq  = acc_sq + (s_c * s_c).sum()
                                     mean = acc_sq / N

* The chunk axis is the leading axis of the largest elementwise shape.
  Inputs that span it are sliced (zero-copy views); inputs broadcast along it
  (size 1 or fewer dimensions) are used whole.
* A reduction over the chunk axis is computed per chunk and combined with
  the same op (sum, prod, min, max, any, all); ``mean`` as a sum divided by
  the count at the end.  A reduction over other axes stays chunked.
* Partial sums and products are made and combined in the dtype NumPy
  accumulates in (``_Split``): a mean of ints or bools in float64, of
  float16 in float32 (NumPy's ``_mean``), int8 sums in int64; the total is
  then rounded and divided exactly as NumPy's ``_mean`` does.  Integer and
  bool results, min/max/any/all, and means of ints (whose sums stay under
  2**53) are NumPy's to the bit;
  a float sum or product added up in chunks rounds differently from
  NumPy's pairwise (sum) or one-after-the-other (product) order: close, not
  bit for bit (see ``_Split``).
* Outputs that keep the chunk axis are written chunk by chunk into their
  final array (``execute(..., outs=...)``: buffer donation, no copy).
* Anything computed from a combined reduction *and* from chunked data
  (``x - x.mean()``) would need a second pass: not chunkable, and the
  original ``MemoryError`` stands.  So do views, matmuls, scans... on chunked
  data, and ``var``/``std``/``argmax`` (no combine op here).

The chunk length comes from the chunk plan's own peak estimate: planned once
for a trial length, scaled to half the budget left after the outputs, and
re-checked.  Chunk plans run as generated code (``compile._fast_runner``)
whose scratch buffers are allocated once and reused by every chunk.

Used automatically by evaluation (``lt.set_options(memory_limit=...)``: a plan
over the limit runs chunked when it can) and explicitly by ``compute_chunked``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .exec.executor import caller_owned
from .exec.numpy_backend import COMBINE
from .graph import ops
from .graph.layout import empty, infer, is_dense
from .graph.node import STRUCTURE_LOCK, Node, toposort
from .options import Options, get_options

#: The chunk plan's estimated peak is kept under (budget left) / SAFETY.
SAFETY = 2

#: Reductions that can be combined across chunks, and how.
COMBINABLE = frozenset(COMBINE) | {"mean"}


# Ops that are no ufunc (the fuse pass leaves them) but compute each element
# from the same element of their broadcast operands, so chunks of their
# operands give chunks of them: nanmean's and nanvar's division by the count.
ELEMENTWISE_LIKE = frozenset({"divide_by_count"})


class NotChunkable(ValueError):
    """The graph cannot be evaluated in chunks (the message says why)."""


@dataclass
class ChunkInfo:
    """What a chunked evaluation did (``compute_chunked(..., info=True)``)."""
    axis_length: int
    chunk: int
    chunks: int
    chunk_peak_bytes: int
    output_bytes: int
    budget: int


# Classes of nodes: where each value lives relative to the chunk loop.
STATIC, CHUNKED, FINAL = "static", "chunked", "final"

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


@dataclass(frozen=True)
class _Split:
    """How a reduction over the chunk axis is split into chunks:

        mean(x16)   =>  each chunk: sum(x16_c, dtype=float32)      (``op``, ``attrs``)
                        partials:   acc = add(acc, part)   in float32 (``acc``, ``combine``)
                        at the end: float32 total / intp(count) -> float16  (``total``)

    ``total`` is the dtype of NumPy's own sum (product, ...) before any
    division: the result's dtype, except for ``mean`` (NumPy's ``_mean`` sums
    ints and bools into float64 and float16 into float32); ``acc`` is the
    dtype the partials are made and combined in: ``total``, except where
    NumPy's float16 loop itself adds up in float32 (``_split``).
    """
    op: str
    attrs: dict[str, Any]
    acc: np.dtype[Any]
    total: np.dtype[Any]
    combine: np.ufunc
    count: int = 0                # a mean's: the elements each result element is of


def _axes(n: Node) -> tuple[int, ...]:
    """The axes reduction ``n`` reduces (argmax/argmin keep an int or None)."""
    axis = n.attrs.get("axis")
    if axis is None:
        return tuple(range(n.inputs[0].ndim))
    return (axis,) if isinstance(axis, int) else tuple(axis)


def _split(n: Node, p: int) -> _Split:
    """The ``_Split`` of reduction ``n`` over axis ``p`` (the chunk axis) of
    its input.

    Exact: integer and bool partials (a mean of ints too while its float64
    sums stay under 2**53, where they are exact in any order: past that,
    int64 data of 2**62 rounds otherwise in chunks, about 1e-13 relative) and min/max/any/all combine
    to NumPy's result bit for bit.  So, but for a float32 rounding that
    lands on a float16 halfway point, do float16 runs that NumPy adds
    (multiplies) in float32 and rounds once.

    Not exact, necessarily: a float (complex) sum or product in its own
    dtype.  NumPy sums a contiguous run pairwise (blocks of 128, split in
    halves: ``numpy_backend.splits``), adds rows down a leading axis one after
    the other into the result, and multiplies one element after the other;
    partials of fixed-length chunks added up at the end round differently
    (the unchunked executor keeps NumPy's order, block by block: a chunk
    holds no running result).  Seen: a few ulps for a pairwise sum, 20-30
    for a column sum of 2,000 rows (float16 too, which NumPy rounds at
    every row), 30-200 for a float32 product of 100,000 factors (2e-5).
    The tests compare those with rtol 1e-5 for float32 and 1e-10 to 1e-12
    for float64 (``test_axes_keepdims_broadcasting_and_dtypes``,
    ``test_compute_chunked_stays_under_budget``).
    """
    x = n.inputs[0]
    name = n.op.name
    combine: np.ufunc = np.add if name == "mean" else COMBINE[name]
    if name not in ("sum", "prod", "mean"):
        return _Split(name, dict(n.attrs), n.dtype, n.dtype, combine)
    given = n.attrs.get("dtype")
    if name != "mean":
        total = n.dtype
    elif given is not None:
        total = np.dtype(given)
    elif x.dtype.kind in "biu":
        total = _F64
    elif x.dtype == _F16:
        total = _F32                 # NumPy's ``is_float16_result``: cast back at the end
    else:
        total = x.dtype
    # NumPy's float16 add (multiply) reduce loop works in float32 and rounds
    # to float16 once per inner loop.  Where the inner loop runs along the
    # chunk axis (every axis from it on is reduced or of length 1: the
    # iterator joins them) over float16 data (no cast: no 8192-element
    # buffers, each rounded), that is one rounding for the whole run, so the
    # partials are float32 and rounded once at the end; float16 partials
    # overflowed and rounded at every chunk (a mean of 100,000 ones: nan).
    # Down a leading axis NumPy adds in float16 slice after slice: so do the
    # partials.
    acc = total
    axes = _axes(n)
    if total == _F16 and x.dtype != _F16:
        # NumPy casts the data to float16 in buffers and rounds the running
        # total per buffer (or per row down a leading axis): partials of
        # chunks, restarted at each, gave 9450 for its saturated 2048.
        raise NotChunkable(f"a float16 {name} of {x.dtype} data at {n.where} rounds its "
                           f"running total as NumPy's buffers fall: it cannot be split")
    if total == _F16:
        if not all(a in axes or x.shape[a] == 1 for a in range(p, x.ndim)):
            # Down a leading axis NumPy's float16 total saturates and rounds
            # row after row: partials that restart at each chunk added up
            # gave 8210 for NumPy's 2048 (20,000 rows of ones).
            raise NotChunkable(f"a float16 {name} at {n.where} adds row after row in float16 "
                               f"down the chunk axis: its running total cannot be split")
        acc = _F32
    attrs = dict(n.attrs)
    if name == "mean" or acc != total:
        attrs = {"axis": attrs["axis"], "keepdims": attrs["keepdims"], "dtype": acc}
    count = math.prod(x.shape[a] for a in n.attrs["axis"]) if name == "mean" else 0
    return _Split("prod" if name == "prod" else "sum", attrs, acc, total, combine, count)


def _finish(n: Node, s: _Split, acc: Any) -> np.ndarray[Any, Any]:
    """The value of reduction ``n`` from its combined partials ``acc``: the
    total rounded to NumPy's dtype once, and for ``mean`` divided as
    NumPy's ``_mean`` divides (its steps, so its roundings):

        ret = umr_sum(arr, axis, dtype)                      (``total``)
        ndarray: true_divide(ret, intp(count), out=ret, casting='unsafe')
                 then float16(ret) for a float16 mean
        scalar:  result_dtype(ret / intp(count))

    The count is an ``intp``, as NumPy's: a Python int would take the
    total's dtype (NEP 50): 100,000 as float16 is inf (a float16 mean of
    0, or nan), and a float32 total would be divided in float32 (by a count
    over 2**24 rounded), where NumPy divides in float64.
    """
    total = np.array(acc, dtype=s.total)         # a copy: divided in place below
    if n.op.name != "mean":
        return total
    count = np.intp(s.count)     # (taken when analysed: ``n`` may be cached by now)
    with np.errstate(invalid="ignore", divide="ignore"):
        if total.ndim:
            q: Any = np.true_divide(total, count, out=total, casting="unsafe")
        else:
            q = total[()] / count
    return np.asarray(q).astype(n.dtype, copy=False)


class _Analysis:
    """Which nodes are chunked (and on which of their axes), which reductions
    are combined across chunks, and which nodes come after the loop.

    One walk in id order (no recursion).  ``kpos[n]``: the chunk axis of a
    chunked node; ``red_axis[r]``: the axis of a reduction's input that is
    chunked (the input may be a source array, sliced directly).
    """

    def __init__(self, outputs: Sequence[Node], bound: set[int] | frozenset[int] = frozenset()
                 ) -> None:
        self.outputs = list(outputs)
        self.order = toposort(outputs)
        for n in self.order:
            if n.op.name == "placeholder" and n.value is None and n.id not in bound:
                raise NotChunkable("the graph has unbound placeholders")
        space = [n for n in self.order if n.value is None and n.op.kind == "elementwise"]
        space += [n.inputs[0] for n in self.order
                  if n.value is None and n.op.kind == "reduction"]
        if not space:
            raise NotChunkable("no elementwise work or reduction to split")
        big = max(space, key=lambda n: (n.size, -n.id))
        if big.ndim == 0 or big.shape[0] < 2:
            raise NotChunkable(f"the largest array {big.type_str()} has no axis to split")
        self.length = big.shape[0]
        self.ndim = big.ndim
        self.kind: dict[int, str] = {}
        self.kpos: dict[int, int] = {}
        self.red_axis: dict[int, int] = {}
        self.partial: list[Node] = []
        self.split: dict[int, _Split] = {}
        for n in self.order:
            self.kind[n.id] = self._classify(n)

    def _spans(self, x: Node) -> bool:
        """A not-chunked value whose leading axis is the whole chunk axis."""
        return x.ndim == self.ndim and x.shape[0] == self.length

    def _classify(self, n: Node) -> str:
        if n.value is not None or n.op.kind == "source":
            return STATIC            # sliced per use (see ``slice_axis``)
        kinds = [self.kind[i.id] for i in n.inputs]
        chunked_in = [i for i in n.inputs if self.kind[i.id] == CHUNKED]
        if n.op.kind == "elementwise" or n.op.name in ELEMENTWISE_LIKE:
            if FINAL in kinds and (chunked_in or self._spans(n)):
                raise NotChunkable(f"{n.op.name} at {n.where} combines a reduction over "
                                   f"the whole chunk axis with chunked data (two passes)")
            if chunked_in:
                ps = {self.kpos[i.id] + n.ndim - i.ndim for i in chunked_in}
                if len(ps) != 1:
                    raise NotChunkable(f"{n.op.name} at {n.where}: operands are chunked "
                                       f"along different axes")
                self.kpos[n.id] = ps.pop()
                return CHUNKED
            if FINAL in kinds:
                return FINAL
            if self._spans(n):       # elementwise over full-length data: chunk it
                self.kpos[n.id] = 0
                return CHUNKED
            return STATIC
        if n.op.kind == "reduction":
            x = n.inputs[0]
            kind = self.kind[x.id]
            if kind == CHUNKED:
                p = self.kpos[x.id]
            elif kind == STATIC and self._spans(x):
                p = 0
            else:
                return kind
            self.red_axis[n.id] = p
            axes = _axes(n)
            if p in axes:
                if n.op.name not in COMBINABLE:
                    raise NotChunkable(f"{n.op.name} at {n.where} reduces the chunk axis "
                                       f"and has no combine op")
                self.partial.append(n)
                self.split[n.id] = _split(n, p)
                return FINAL
            keep = bool(n.attrs.get("keepdims"))
            self.kpos[n.id] = p if keep else p - sum(1 for a in axes if a < p)
            return CHUNKED
        if CHUNKED in kinds:
            raise NotChunkable(f"{n.op.name} ({n.op.kind}) at {n.where} reads chunked data; "
                               f"only elementwise ops and reductions can be chunked")
        return FINAL if FINAL in kinds else STATIC

    def slice_axis(self, src: Node, user: Node) -> int | None:
        """The axis of not-chunked ``src`` to slice where chunked ``user``
        reads it (None: ``src`` is broadcast along the chunk axis: whole)."""
        if user.op.kind == "reduction":
            a = self.red_axis[user.id]
        else:
            a = self.kpos[user.id] - (user.ndim - src.ndim)
        if a < 0 or src.shape[a] != self.length:
            return None
        return a

    def static_inputs(self) -> list[Node]:
        """Computed (not source) values read by the chunk loop: evaluated once
        before it rather than in every chunk."""
        out: dict[int, Node] = {}
        for n in self.order:
            if n.id in self.kpos or n.id in self.red_axis:
                for i in n.inputs:
                    if self.kind[i.id] == STATIC and i.value is None \
                            and i.op.kind != "source":
                        out[i.id] = i
        return list(out.values())


def _chunk_graph(an: _Analysis, c: int, pre: dict[int, np.ndarray[Any, Any]]
                 ) -> tuple[list[Node], list[Node], list[tuple[Any, int]], list[Node]]:
    """The per-chunk graph for chunk length ``c``: (its outputs, its
    placeholders, the (array, axis) each placeholder is a slice of, the
    original node each output stands for)."""
    from .compile import _placeholder_node
    mapping: dict[int, Node] = {}
    slots: dict[tuple[int, int], Node] = {}
    phs: list[Node] = []
    sliced: list[tuple[Any, int]] = []
    whole: dict[int, Node] = {}

    def use(i: Node, n: Node) -> Node:
        if an.kind[i.id] == CHUNKED:
            return mapping[i.id]
        a = an.slice_axis(i, n)
        value = i.value if i.value is not None else pre.get(i.id)
        if a is None:
            if value is not None and i.op.kind != "source":
                if i.id not in whole:   # precomputed: a constant input of the plan
                    whole[i.id] = ops.source(value)
                return whole[i.id]
            return i
        key = (i.id, a)
        if key not in slots:
            if value is None:
                value = i.attrs.get("value")
            shape = i.shape[:a] + (c,) + i.shape[a + 1:]
            slots[key] = _placeholder_node(shape, i.dtype, f"chunk{len(phs)}", i.source)
            phs.append(slots[key])
            sliced.append((value, a))
        return slots[key]

    outs: list[Node] = []
    stands_for: list[Node] = []
    partial = {n.id for n in an.partial}
    for n in an.order:
        if an.kind[n.id] == CHUNKED:
            ins = [use(i, n) for i in n.inputs]
            mapping[n.id] = ops.build(n.op.name, ins, dict(n.attrs), n.source)
        elif n.id in partial:
            x = use(n.inputs[0], n)
            s = an.split[n.id]   # (mean: a sum per chunk, divided by the count at the end)
            outs.append(ops.build(s.op, [x], dict(s.attrs), n.source))
            stands_for.append(n)
    seen = {n.id for n in stands_for}
    for o in an.outputs:
        if an.kind[o.id] == CHUNKED and o.id not in seen:
            outs.append(mapping[o.id])
            stands_for.append(o)
            seen.add(o.id)
    return outs, phs, sliced, stands_for


class _ChunkPlan:
    def __init__(self, an: _Analysis, c: int, pre: dict[int, np.ndarray[Any, Any]],
                 opts: Options) -> None:
        from .compile import _Compiled
        outs, phs, self.sliced, self.stands = _chunk_graph(an, c, pre)
        # Generated code for any chunk size: its scratch is allocated once
        # and reused by every chunk (no allocation per chunk), and it has no
        # hidden temporaries: plan buffers + scratch bound what a chunk holds.
        self.compiled = _Compiled(outs, phs, opts, f"chunk of {c}", fast_limit=None)
        fast = self.compiled.fast
        # The generated code holds its own scratch instead of the kernels'.
        plan = self.compiled.plan
        self.peak = plan.peak_bytes if fast is None else \
            plan.buffer_peak_bytes + fast.scratch_bytes  # type: ignore[attr-defined]


def check_chunkable(outputs: Sequence[Node], inputs: Sequence[Node] = ()) -> None:
    """Raise ``NotChunkable`` unless ``outputs`` can run in chunks, with the
    placeholders ``inputs`` bound to arrays of their shapes (``lt.function``)."""
    an = _Analysis(outputs, bound={n.id for n in inputs})
    if not an.partial and not any(an.kind[o.id] == CHUNKED for o in an.outputs):
        raise NotChunkable("no output depends on the chunked axis")


def evaluate_chunked(outputs: Sequence[Node], opts: Options | None = None,
                     memory_limit: int | None = None,
                     info: list[ChunkInfo] | None = None) -> list[np.ndarray[Any, Any]]:
    """Values of ``outputs`` computed chunk by chunk within ``memory_limit``
    (default ``opts.memory_limit``).  Raises ``NotChunkable`` when the graph
    has no such form and ``MemoryError`` when even one row is over budget."""
    from .exec.executor import evaluate
    from .options import set_options
    opts = opts or get_options()
    if memory_limit is not None:
        replace(opts, memory_limit=memory_limit)        # (Options checks it)
    limit = memory_limit if memory_limit is not None else opts.memory_limit
    if limit is None:
        raise ValueError("chunked evaluation needs a memory_limit")
    # The graph is read (analysed, planned) whole under the structure lock:
    # another thread caching a node of it meanwhile drops the node's inputs
    # ("add takes 2 operands, got 0"); the chunks then run on the plans.
    with STRUCTURE_LOCK:
        an = _Analysis(outputs)
        if not an.partial and not any(an.kind[o.id] == CHUNKED for o in an.outputs):
            raise NotChunkable("no output depends on the chunked axis")
        free = replace(opts, memory_limit=None)
        L = an.length
        final: dict[int, np.ndarray[Any, Any]] = {}
        for o in an.outputs:
            if an.kind[o.id] == CHUNKED and o.id not in final:
                # (laid out as NumPy's result, where that is known: the chunks'
                # kernels run in their operands' order)
                lay, known = infer(o)
                final[o.id] = empty(o.shape, o.dtype, lay if known and is_dense(
                    lay, o.shape, o.dtype.itemsize) else "C")
        out_bytes = sum(v.nbytes for v in final.values())
        # Leave room for what no estimate counts (a kernel's own temporaries
        # where the generated-code path does not apply, Python objects).
        budget = (limit - out_bytes) // SAFETY
        if budget <= 0:
            raise MemoryError(f"the outputs alone need {out_bytes / 1e6:.1f} MB, over the "
                              f"memory_limit of {limit / 1e6:.1f} MB: chunking cannot help")
        statics = an.static_inputs()
        with set_options(memory_limit=None):
            pre = dict(zip((n.id for n in statics), evaluate(statics))) if statics else {}

        # The plan's peak grows linearly with the chunk length: plan a trial
        # length, scale to the budget, re-plan until the estimate fits.
        trial = min(L, 1024)
        plan = _ChunkPlan(an, trial, pre, free)
        c = max(1, min(L, budget * trial // max(plan.peak, 1)))
        while c != trial:
            trial = c
            plan = _ChunkPlan(an, c, pre, free)
            if plan.peak <= budget or c == 1:
                break
            c = max(1, c * budget // plan.peak)
        if plan.peak > budget:
            raise MemoryError(f"a chunk of {c} row(s) needs {plan.peak / 1e6:.2f} MB, over the "
                              f"{budget / 1e6:.2f} MB left of memory_limit after the outputs")
        rest = None if L % c == 0 else _ChunkPlan(an, L % c, pre, free)
    acc: dict[int, Any] = {}
    n_chunks = 0
    for lo in range(0, L, c):
        hi = min(lo + c, L)
        run = plan
        if hi - lo != c:
            assert rest is not None
            run = rest
        arrays = [v[(slice(None),) * a + (slice(lo, hi),)] for v, a in run.sliced]
        # Chunked outputs: the plan writes straight into their final slices.
        outs_arg = [final[n.id][(slice(None),) * an.kpos[n.id] + (slice(lo, hi),)]
                    if n.id in final else None for n in run.stands]
        vals = run.compiled.run(arrays, outs_arg)
        for n, v in zip(run.stands, vals):
            if n.id not in final:
                # (in the partials' own dtype: ``_Split.acc``)
                acc[n.id] = v if n.id not in acc else an.split[n.id].combine(acc[n.id], v)
        n_chunks += 1
    # Finish the combined reductions, then what is computed from them.
    done: dict[int, np.ndarray[Any, Any]] = {}
    for n in an.partial:
        done[n.id] = _finish(n, an.split[n.id], acc[n.id])
    post = [o for o in an.outputs if o.id not in final and o.id not in done]
    post_vals: dict[int, Any] = {}
    if post:
        sub: dict[int, Node] = {}
        for n in toposort(post):
            if n.id in done:
                sub[n.id] = ops.source(done[n.id])
                continue
            ins = [sub.get(i.id, i) for i in n.inputs]
            sub[n.id] = n if all(a is b for a, b in zip(ins, n.inputs)) else \
                ops.build(n.op.name, ins, dict(n.attrs), n.source)
        with set_options(memory_limit=None):
            post_vals = dict(zip((o.id for o in post), evaluate([sub[o.id] for o in post])))
    if info is not None:
        info.append(ChunkInfo(L, c, n_chunks, plan.peak, out_bytes, budget))
    return [final[o.id] if o.id in final else done[o.id] if o.id in done else post_vals[o.id]
            for o in an.outputs]


def compute_chunked(*tensors: Any, memory_limit: int | None = None,
                    info: bool = False) -> Any:
    """Evaluate ``tensors`` in chunks so the plan's peak stays within
    ``memory_limit`` bytes (default: ``lt.get_options().memory_limit``).

    Returns a tuple of ndarrays (and a ``ChunkInfo`` with ``info=True``).

    >>> import lazyten as lt, numpy as np
    >>> x = lt.asarray(np.linspace(0, 1, 100_000))
    >>> s = lt.exp(x) * 2
    >>> total, top = lt.compute_chunked(s.sum(), s.max(), memory_limit=200_000)
    >>> bool(np.isclose(total, (np.exp(np.linspace(0, 1, 100_000)) * 2).sum()))
    True
    """
    from .tensor import wrap
    nodes = [wrap(t)._node for t in tensors]
    got: list[ChunkInfo] = []
    vals = evaluate_chunked(nodes, memory_limit=memory_limit, info=got)
    # Copies of what aliases a user array, a cached value or an earlier result.
    out = caller_owned(nodes, vals)
    return (out, got[0]) if info else out
