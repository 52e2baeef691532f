"""Compile once, run many: placeholders, ``lt.function``, ``@lt.jit``.

A forced evaluation pays for optimization and planning every time.  A batch
loop should pay once: the user builds the computation over *placeholders*
(graph inputs bound at call time), and a compiled function optimizes and
plans it once per concrete input signature, then only runs the plan.  The
options of the calling context (``lt.set_options``: memory_limit, backend,
threads, optimize, ...) decide a plan as they decide ``lt.compute``'s, so
they are part of the signature: each context gets its own plan.

    placeholders --lt.function--> per signature: specialize -> optimize -> plan
                                   (bounded LRU of plans)     --call--> execute
                                   or, in a size class seen at two sizes:
                                   resize its optimized graph -> plan

* ``lt.placeholder(shape, dtype, name=...)``: a ``Tensor`` over a unique
  ``placeholder`` node.  A ``None`` dimension means "any size".  Shape
  inference needs concrete sizes, so a ``None`` dimension is built with the
  representative size ``SYMBOLIC_DIM`` (a prime, so it broadcasts with
  nothing but itself and 1 and its multiples are recognizable in
  attributes), and the function *specializes* the graph per call shape: it
  rebuilds every node that depends on a placeholder over concrete-shape
  placeholders, in id order (no recursion).  Ops whose attributes were
  resolved against the representative size (reshapes of several None axes,
  shapes fixed by ``zeros((x.shape[0],))``, a size used as a number:
  ``x.sum() / x.shape[0]``) cannot be re-specialized; where that is
  detectable it raises a ``ValueError`` naming the op and its line, and
  ``@lt.jit`` (which re-runs the Python function per shape) is the answer
  there.  Detectable means: a multiple of the representative size that a
  node's attributes brought in (no input of the node has one) and that the
  call's sizes did not change.  The call's own sizes and the user's arrays
  (``lt.asarray`` leaves) are real by construction and never checked, so
  any size works, however large.  Slices and integer
  indices on a None axis or one sliced from it (``x[1:]``, ``x[-1]``,
  ``x[1:][::2]``), reshapes that keep one None axis (``x.reshape(-1)``,
  ``x[1:].reshape(-1, 1)``, of several merged into one, adding or dropping
  unit axes) and
  broadcasts of a None axis (``lt.tile``, ``lt.repeat``) and index
  assignments (``y[0] = v``, ``y[1:, [0, 2]] += 1``, writes through views)
  are re-specialized exactly, and ``lt.zeros_like(x)`` and the other
  ``*_like`` functions read ``x``'s shape at each call (``full_like`` nodes).  A size used in
  arithmetic that hides it (``1 / x.shape[0]``) cannot be detected: do not
  use a None dimension's size as a number outside ``@lt.jit``.  Every None
  dimension is built at the one stand-in size, so a size read from one
  does not say which: a slice bound read from it (``x[:, :x.shape[0]]``)
  is the call's size where the call gives every None dimension one size,
  and a reshape matching two None axes that had that one size
  (``x.reshape(x.shape[::-1])``) needs their call sizes equal; otherwise
  the call is a ``ValueError`` saying so.  Library
  functions that compute with a length while the graph is built
  (``lt.resize``, ``lt.diag``, ``lt.put(mode="clip")``, ...) refuse such a
  length when it is built (``refuse_call_axis``), as do ``roll`` and ``pad``.
  An axis sliced to a bound (``x[:2]``, ``x[-3:]``) is built at the bound's
  length, which a call with fewer elements shortens: a broadcast or reshape
  whose target was made from that length (``broadcast_to(x[:2], (3, 2))``)
  cannot tell it from a size the user fixed, and such a call is a
  ``ValueError`` saying so (as for a finely strided ``x[::5]``).
* A new size costs a specialization, the passes and a plan.  Sizes that no
  pass can tell apart form a *size class* (``Function._size_class``: which
  None dimensions are 0, 1, equal to each other or to a fixed size, and
  their bit lengths); once two sizes of a class gave one optimized graph
  apart from its shapes (``exec.resize.size_form``), later sizes of the
  class resize that graph and only plan it: a mean's ``1/n`` or a slice's
  bounds make the graphs differ, and those sizes are specialized each time.
* ``lt.function(inputs, outputs)``: a callable on NumPy arrays.  Wrong shapes
  raise ``ValueError``, wrong dtypes ``TypeError``, naming the input.  Only a
  Python number (weak, NEP 50) takes a 0-d input's dtype; a NumPy scalar or
  0-d array of another dtype is a wrong dtype, as an n-d array is (one of
  the input's dtype in the other byte order is converted).  A masked array
  or an ``np.matrix`` is a ``TypeError`` (reading it as an ndarray would
  drop its mask or its operators' meaning); other ndarray subclasses
  (``np.memmap``) are read as their data.  A placeholder's layout is
  known only at a call, so a decision by layout that changes values (a
  write through a reshape of a computed value, ``reshape(order="A")``)
  takes it as C when the graph is built; a call with an array of another
  layout for it is a ``ValueError`` naming that line (``@lt.jit`` traces
  with each call's layout: C, F, or the strides of a permuted, strided or
  broadcast array).
* ``@lt.jit``: traces a Python function with placeholders on the first call
  per (shapes, dtypes, layouts, static arguments) and caches the plan (one per options
  context, from the one trace).  Python control flow on a traced value
  forces it, which raises ``TracingError``.  A ``numpy.ma`` argument is
  traced as an ``lt.ma`` masked tensor (its data and mask placeholders; its
  nomask-ness and fill value in the signature) and masked results come
  back as ``numpy.ma`` arrays (``_masked_output``).

Thread safety: a compiled function may be called from several threads at
once.  The plan is read-only after compilation; every call has its own
values, temporaries and outputs (``execute`` keeps them in locals; the small-
size fast path keeps its scratch buffers and its compiled numexpr programs,
which numexpr does not allow to run in two threads at once, in a
``threading.local``), and the cache is guarded by a lock.  Buffers given with ``out=`` belong to the
caller: two threads must not pass the same ``out`` array at once.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import math
import struct
import threading
import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from typing import Any, NamedTuple

import numpy as np

from .graph import ops
from .graph import shapes as S
from .graph.layout import array_layout, copied
from .graph.node import Node, intern, symbolic_placeholder, toposort, user_source
from .exec import fpflags
from .exec.kernels import numexpr_now
from .exec.numpy_backend import keep_arrays, overlaps, take_arrays
from . import options as _options
from .options import Options, get_options
from .tensor import Tensor


#: Plans of at most this many bytes (all buffers) may run on the fast path.
FAST_PATH_BYTES = 1 << 18

# The options in force are read on every call (they are part of the plan's
# key) as ``_context.get() or _options._defaults``: ``get_options()``
# inline, whose Python call cost 35 ns of a 1.5 us call.
_context = _options._current

#: The size a ``None`` placeholder dimension has until a call specializes it.
#: Integers carry no provenance, so a size read from it while the graph was
#: built (``x.shape[0]``, ``x.size``) is recognized by value, as a multiple
#: of it (``_rep_multiple``), where no input explains it: hence a prime, and
#: no round number a user would write as a size or a constant (it was
#: 1,000,003, which real batch sizes and constants hit).  It cannot be made
#: impossible as a real size: view inference hands NumPy zero-stride
#: stand-ins of the traced shapes, whose bytes must stay below 2**63, and
#: three None dimensions of float64 need it below 2**20.  (One constant,
#: ``graph.shapes.SYMBOLIC_DIM``: ``shapes.sized_at_call`` recognizes what
#: is made from it.)
SYMBOLIC_DIM = S.SYMBOLIC_DIM

_tracing: contextvars.ContextVar[int] = contextvars.ContextVar("lazyten_tracing", default=0)


class TracingError(TypeError):
    """A value that is only known when a compiled function runs was needed now.

    Raised when a tensor that depends on a placeholder is forced (``bool``,
    ``float``, ``int``, ``.item()``, ``np.asarray``, iteration, ``.eval()``,
    ``print``), e.g. by Python control flow inside an ``@lt.jit`` function.
    """


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int


# ---------------------------------------------------------------- placeholders

def placeholder(shape: Sequence[int | None] | int, dtype: Any = np.float64,
                name: str | None = None) -> Tensor:
    """A graph input bound when a compiled function is called.

    ``None`` in ``shape`` means any size (see the module docstring).

    >>> import lazyten as lt, numpy as np
    >>> x = lt.placeholder((None, 3), "float64", name="x")
    >>> f = lt.function([x], (x * 2).sum(axis=1))
    >>> f(np.ones((2, 3)))
    array([6., 6.])
    >>> f(np.ones((4, 3))).shape
    (4,)
    """
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    for d in dims:
        if d is not None and (not isinstance(d, (int, np.integer)) or d < 0):
            raise ValueError(f"placeholder: dimensions must be non-negative ints or None, "
                             f"got shape {tuple(shape) if not isinstance(shape, int) else shape}")
    dims = tuple(None if d is None else int(d) for d in dims)
    dt = np.dtype(dtype)
    node = _placeholder_node(dims, dt, name)
    return Tensor(node)


def _placeholder_node(dims: tuple[int | None, ...], dt: np.dtype[Any], name: str | None,
                      src: tuple[str, int] | None = None) -> Node:
    proto = tuple(SYMBOLIC_DIM if d is None else d for d in dims)
    attrs = {"shape": proto, "dtype": dt, "name": name, "dims": dims}
    node = intern(ops.REGISTRY["placeholder"], (), attrs, proto, dt,
                  src if src is not None else user_source(), unique=True)
    return symbolic_placeholder(node) if None in dims else node


def _is_placeholder(n: Node) -> bool:
    return n.op.name == "placeholder" and n.value is None


# Nodes over placeholders (built before any call, so of no known layout)
# whose layout a decision that changes values took as C while the graph was
# built (a write through a reshape of a computed value, a reshape in order
# "A": ``tensor.settle_layout``).  ``lt.function`` refuses other layouts for
# the placeholders under those in its graph (``_c_inputs``), where NumPy's
# answer may differ.
_assumed_c: weakref.WeakSet[Node] = weakref.WeakSet()


def assume_c_layout(n: Node) -> None:
    """Note that a value-deciding layout of ``n``, which a placeholder of
    unknown layout feeds, was taken as C (``tensor.settle_layout``)."""
    _assumed_c.add(n)


def _c_inputs(graph: Sequence[Node], inputs: Sequence[Node]) -> dict[int, str]:
    """Positions of ``inputs`` whose layout a decision in ``graph`` took as
    C (``_assumed_c``) -> where that decision was made."""
    if not _assumed_c:
        return {}
    at = {n.id: k for k, n in enumerate(inputs) if n.layout is None}
    found: dict[int, str] = {}
    for d in graph:
        if d in _assumed_c:
            for m in toposort([d]):
                if m.id in at:
                    found.setdefault(at[m.id], d.where)
    return found


def _label(n: Node, pos: int | None = None) -> str:
    name = n.attrs.get("name")
    at = f" (position {pos})" if pos is not None else ""
    dims = n.attrs.get("dims", n.shape)
    shown = "(" + ", ".join("None" if d is None else str(d) for d in dims) + \
        ("," if len(dims) == 1 else "") + ")"
    return f"input {name!r}{at}, declared {shown} {n.dtype}"


def tracing_error(outputs: Sequence[Node]) -> TracingError | None:
    """The ``TracingError`` for forcing ``outputs``, if they need a placeholder.

    Called by the executor when an evaluation fails, so the common path pays
    nothing for the check.
    """
    unbound = [n for n in toposort(outputs) if _is_placeholder(n)]
    if not unbound:
        return None
    names = ", ".join(repr(n.attrs.get("name") or f"%{n.id}") for n in unbound[:4])
    what = outputs[0].type_str() if len(outputs) == 1 else f"{len(outputs)} tensors"
    return TracingError(
        f"this tensor ({what}) depends on placeholder(s) {names}, whose values are only "
        f"known when the compiled function runs, so it cannot be converted to a Python "
        f"value or NumPy array now (bool/float/int/item/np.asarray/iteration/eval/print). "
        f"Inside @lt.jit, Python control flow on traced values is not allowed: use "
        f"lt.where(cond, a, b) / lt.select for data-dependent choices, or pass the value "
        f"that decides the control flow as a static (non-array) argument.")


# ---------------------------------------------------------------- specialization

def _rep_multiple(d: int) -> bool:
    """Whether size ``d`` could have been read from None dimensions while
    the graph was built: a nonzero multiple of the representative size
    (``x.shape[0]``, ``3 * len(x)``, ``x.size`` of a ``(None, 3)``)."""
    return d > 0 and d % SYMBOLIC_DIM == 0


def _brought_in(n: Node, inputs: Sequence[Node], before: Node | None = None) -> bool:
    """Whether ``n``'s shape has a multiple of the representative size that
    its attributes brought in: none of ``inputs`` has one (a real array of
    such a size explains the sizes computed from it).  ``before``: the node
    ``n`` was rebuilt from, whose sizes that specialization changed are the
    call's (``concat`` of two calls' sizes may add up to one), not stale.

    A None dimension bound at the call has the call's size, not the
    representative one, so only the node's attributes can still hold it.
    """
    was = before.shape if before is not None and before.ndim == n.ndim else None
    for k, d in enumerate(n.shape):   # (a loop, no calls: run for every node rebuilt)
        if d and d % SYMBOLIC_DIM == 0 and (was is None or was[k] == d):
            break
    else:
        return False                   # (the common case)
    return not any(_rep_multiple(e) for i in inputs for e in i.shape)


def _respecialize(n: Node, new_inputs: list[Node]) -> Node:
    """``n`` rebuilt over inputs whose shapes changed: same op and attributes,
    except where an attribute was resolved against a symbolic size and can be
    mapped to the new size exactly; otherwise a clear error."""
    attrs = dict(n.attrs)
    name = n.op.name
    old_in, new_in = n.inputs[0].shape if n.inputs else (), \
        new_inputs[0].shape if new_inputs else ()
    changed = [k for k, (a, b) in enumerate(zip(old_in, new_in)) if a != b]
    if name == "getitem" and "user_key" in attrs:
        # The user's key resolved for the call's sizes, by Python's rules.
        attrs["index"] = _call_bounds(n, attrs["user_key"])
        try:
            return ops.build(name, new_inputs, attrs, n.source)
        except IndexError as e:
            raise IndexError(f"{e} (getitem built at {n.where})") from None
    if name in ("getitem", "gather", "setitem", "scatter"):
        # (A write's index, ``y[0] = v``, ``y[1:, [0, 2]] += 1``, on its
        # base's axes, as a read's: its value is an input, rebuilt already.)
        field = "index" if name in ("getitem", "setitem") else "key"
        items = list(attrs[field])
        dim = 0
        for k, it in enumerate(items):
            if it[0] in ("n", "e"):
                continue
            if dim in changed and it[0] != "a":     # (an index array's values are data)
                items[k] = _reindex(n, it, old_in[dim], new_in[dim])
            dim += 1
        attrs[field] = tuple(items)
    elif name == "reshape" and changed:
        attrs["shape"] = _reshaped(n, tuple(attrs["shape"]), old_in, new_in, changed)
    elif name == "broadcast_to" and changed:
        # (``lt.tile``, ``lt.repeat``): a target dimension aligned with a
        # changed input dimension other than 1 is that dimension's size.
        target = list(attrs["shape"])
        lead = len(target) - len(old_in)
        for k in changed:
            if old_in[k] < SYMBOLIC_DIM // 4:
                raise _cannot(n, _bounded(k, old_in[k], new_in[k], "its target shape "
                                          f"{tuple(target)}"), _BoundChanged)
            if old_in[k] == 1 or target[lead + k] != old_in[k]:
                raise _cannot(n, f"its target shape {tuple(target)} cannot be mapped to "
                              f"the call size")
            target[lead + k] = new_in[k]
        attrs["shape"] = tuple(target)
    elif name == "view_update" and changed:
        # A write through views (``d = y[1:]; d[0] = v``): each view step
        # re-specialized as the view itself would be, on the new base.
        old_v, new_v = n.inputs[0], new_inputs[0]
        path = []
        for vname, a in attrs["path"]:
            old_v = ops.build(vname, [old_v], dict(a), n.source)
            new_v = ops.build(vname, [new_v], dict(a), n.source) \
                if new_v.shape == old_v.inputs[0].shape else _respecialize(old_v, [new_v])
            step = tuple(new_v.attrs.items())
            path.append((vname, step if len(step) < 2 else tuple(sorted(step))))
        attrs["path"] = tuple(path)
    elif n.op.kind in ("update", "creation") or name == "broadcast_to":
        raise _cannot(n, "its attributes hold sizes fixed when the graph was built")
    try:
        return ops.build(name, new_inputs, attrs, n.source)
    except (ValueError, IndexError, TypeError) as e:
        raise _cannot(n, str(e)) from None


def _call_bounds(n: Node, key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A basic index's items with bounds read from a None dimension's size
    (``x[:, :x.shape[0]]``: multiples of the stand-in) made the call's size,
    where the call gives every None dimension one size; otherwise which
    dimension each came from is not known: a clear error."""
    def call(v: Any) -> Any:
        if v is None:
            return v
        if not _rep_multiple(abs(v)):
            if _computed_from_size(v):
                raise _cannot(n, f"its index bound {v} was computed from a None dimension's "
                                 f"size (x.shape[0] - 1, len(x) // 2), which is known only "
                                 f"when the function runs")
            return v
        sizes = _call_sizes.get()
        if len(sizes) != 1:
            raise _cannot(n, f"its index bound {v} was read from a None dimension's size "
                             f"(x.shape[k]) and this call gives None dimensions the sizes "
                             f"{sorted(sizes)}: which one it was is not known")
        (size,) = sizes
        return v // SYMBOLIC_DIM * size
    return tuple(slice(call(i.start), call(i.stop), call(i.step)) if type(i) is slice
                 else call(i) if type(i) is int else i for i in key)


def _reshaped(n: Node, old_t: tuple[int, ...], old_in: tuple[int, ...],
              new_in: tuple[int, ...], changed: list[int]) -> tuple[int, ...]:
    """A reshape's target shape ``old_t`` (of an input of shape ``old_in``)
    redone for the input shape ``new_in``, whose axes ``changed`` are None
    axes or were sliced from them.

    A reshape that only adds or drops unit axes (``expand_dims``) maps its
    axes one to one; otherwise the changed axes must all merge into one
    target dimension (``x.reshape(-1)``, ``x[1:].reshape(-1, 1)``), which
    is then a multiple of their sizes' product.
    """
    src = [k for k, d in enumerate(old_in) if d != 1]
    dst = [j for j, d in enumerate(old_t) if d != 1]
    positional = [old_in[k] for k in src] == [old_t[j] for j in dst]
    if positional:
        # Axes matched by their build sizes: where two changed ones had one
        # size (the stand-in's) and the call gives them two, the target may
        # have named them in another order (``x.reshape(x.shape[::-1])``)
        built: dict[int, int] = {}
        for k in changed:
            if old_in[k] >= SYMBOLIC_DIM // 4 \
                    and built.setdefault(old_in[k], new_in[k]) != new_in[k]:
                raise _cannot(n, f"its target shape {old_t} holds sizes of None dimensions "
                                 f"that were one size when built and differ at this call "
                                 f"({', '.join(str(new_in[c]) for c in changed)}): which "
                                 f"dimension each entry came from is not known")
    if old_t == old_in:
        # A reshape to its input's shape (``ravel`` of a 1-d ``x[:5]``, as
        # ``np.cumsum`` and ``np.sort(axis=None)`` make): the call's.  (Of a
        # bound, it could have been ``x[:5].reshape(5)``, which NumPy refuses
        # at a call with fewer elements: one node with ``reshape(-1)``.)
        return new_in
    new_t = list(old_t)
    for k in changed:
        if old_in[k] < SYMBOLIC_DIM // 4:
            # (``x[:2].reshape(2, 1)`` and ``x[:2].reshape(-1, 1)`` are one
            # node: at a call with 1 element NumPy refuses the first.)
            raise _cannot(n, _bounded(k, old_in[k], new_in[k], f"its target shape {old_t}"),
                          _BoundChanged)
    if positional:
        for k, j in zip(src, dst):
            new_t[j] = new_in[k]
        return tuple(new_t)
    ratio_num = math.prod(new_in[k] for k in changed)
    ratio_den = math.prod(old_in[k] for k in changed)
    hits = [j for j, d in enumerate(old_t) if d > 0 and d % ratio_den == 0]
    if len(hits) != 1:
        raise _cannot(n, f"its target shape {old_t} cannot be mapped to the call size: "
                         f"its None dimensions do not merge into one")
    new_t[hits[0]] = old_t[hits[0]] // ratio_den * ratio_num
    return tuple(new_t)


def _reindex(n: Node, it: tuple[Any, ...], old: int, new: int) -> tuple[Any, ...]:
    """A normalized index item on a symbolic axis, redone for size ``new``.

    The axis is a None dimension, or one made from it by slicing or
    reshaping (``x[1:][1:]``, ``x[::2][-1]``): its size ``old`` is the
    representative size or of its order.  Normalization made bounds
    concrete for ``old``; values in its upper half can only have come from
    negative (end-relative) indices or from "to the end" (a user writes
    ``x[-1]``, ``x[1:]``, ``x[:-2]``, not ``x[:500000]``), so the user's
    index is recovered and applied to ``new`` with Python's own slice rules.
    An axis made smaller than a quarter of the representative size
    (``x[::5]``) is not told apart from a fixed one that way: an error.
    """
    if old < SYMBOLIC_DIM // 4:
        raise _cannot(n, _bounded(None, old, new, "its index"), _BoundChanged)
    half = old // 2

    def back(v: int) -> int:
        return v - old if v >= half else v

    if it[0] == "i":
        k = back(it[1])
        if not -new <= k < new:
            raise IndexError(f"index {k} is out of bounds for axis with size {new} "
                             f"(getitem built at {n.where})")
        return ("i", k % new)
    _s, start, stop, step = it
    if step > 0:
        sl = slice(back(start), None if stop == old else back(stop), step)
    else:
        sl = slice(back(start), None if stop == -1 else back(stop), step)
    return ("s", *sl.indices(new))


def _bounded(k: int | None, old: int, new: int, what: str) -> str:
    """Why a node reading an axis that a call changed from ``old`` (far
    below the stand-in size) to ``new`` cannot be specialized."""
    axis = "an axis of its input" if k is None else f"axis {k} of its input"
    return (f"{axis} comes from a None dimension and was {old} long when the graph was "
            f"built, {new} at this call: it was sliced to a bound (x[:2], x[-3:]) or "
            f"strided finely (x[::5]), so {what}, made from its build length, cannot be "
            f"told apart from sizes the user fixed")


def _symbolic_number(v: Any) -> bool:
    # ``x.sum() / x.shape[0]`` on a None axis bakes SYMBOLIC_DIM into the
    # graph; a constant is a value alone, so its value is all there is to go on.
    try:
        return v != 0 and float(v).is_integer() and int(v) % SYMBOLIC_DIM == 0 \
            or _computed_from_size(v)
    except (TypeError, ValueError, OverflowError):
        return False


# How far from the representative size a number computed from it may lie
# and still be taken for one: ``n - 1``, ``n // 2``, ``k / n``, ... for k up
# to this.  (The size, 1,013,627, is prime, and a user's constant this close
# to one of these numbers in a graph over a None dimension is unlikely; it
# is refused with the same message, never computed wrong.)
_NEAR = 64


def _computed_from_size(v: Any) -> bool:
    """Whether the number ``v`` looks computed from a None dimension's
    representative size ``n`` (``SYMBOLIC_DIM``) other than as a multiple of
    it: ``n`` give or take a little (``x.shape[0] - 1``), a small fraction
    of it (``n // 2``, ``n / 4``), a small multiple of its reciprocal
    (``1 / n``, ``2.0 / x.shape[0]``) or its square root (``sqrt(n)``,
    ``1 / sqrt(n)``).  Such a number, baked into the graph, would be the
    stand-in's at every call (lt.function's results were silently wrong)."""
    try:
        f = abs(float(v))
    except (TypeError, ValueError, OverflowError):
        return False
    if not math.isfinite(f) or f == 0:
        return False
    n = SYMBOLIC_DIM
    r = round(f / n)
    if r and abs(f - r * n) <= _NEAR:
        return True                              # n - 1, 2 * n + 3
    if f < n and any(abs(f * k - n) <= k for k in range(2, _NEAR + 1)):
        return True                              # n // 2, n / 3
    inv = f * n
    if 0.5 <= inv <= _NEAR + 0.5 and abs(inv - round(inv)) <= 1e-6 * inv:
        return True                              # 1 / n, 2.0 / n, 1 / (n - 1)
    return abs(f * f - n) <= 1e-6 * n or abs(n * f * f - 1) <= 1e-6   # sqrt(n), 1 / sqrt(n)


class _BoundChanged(ValueError):
    """``_cannot`` for an axis sliced to a bound that a call made shorter
    (``_bounded``)."""


def _cannot(n: Node, why: str, cls: type[ValueError] = ValueError) -> ValueError:
    return cls(
        f"lt.function: cannot specialize {n.op.name} (built at {n.where}) for the call's "
        f"input shapes: {why}. Give the placeholder concrete sizes, or trace the "
        f"computation with @lt.jit, which re-runs the Python function for each shape.")


def specialize(outputs: Sequence[Node], binding: dict[int, Node]) -> list[Node]:
    """``outputs`` rebuilt with placeholder nodes replaced per ``binding``
    (old placeholder id -> concrete placeholder node).

    Walks the graph iteratively in id order (inputs come first); nodes that
    depend on no replaced placeholder are kept as they are.  Every node of
    the result is checked as it is made (``_brought_in``): placeholders
    (the call's sizes, or fixed ones) and the user's arrays are real sizes
    by construction and never checked.
    """
    nodes = toposort(outputs, stop_at_values=True)
    sizes = {binding[n.id].shape[k] for n in nodes if n.id in binding
             for k, d in enumerate(n.shape) if d == SYMBOLIC_DIM}
    token = _call_sizes.set(frozenset(sizes))
    try:
        return _specialized(nodes, outputs, binding)
    finally:
        _call_sizes.reset(token)


# The sizes a call gives the placeholders' None dimensions (``specialize``):
# a size read from one of them while the graph was built (``x.shape[0]`` as a
# slice bound, ``x.shape[::-1]`` as a reshape's target) is the stand-in's,
# the same for all, so it maps to the call's only where they agree.
_call_sizes: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar(
    "lazyten_call_sizes", default=frozenset())


def _specialized(nodes: list[Node], outputs: Sequence[Node], binding: dict[int, Node]
                 ) -> list[Node]:
    """``specialize``'s walk over ``nodes`` (the outputs' graph, inputs first)."""
    mapping: dict[int, Node] = {}
    for n in nodes:
        if n.id in binding:
            mapping[n.id] = binding[n.id]
            continue
        new_inputs = [mapping.get(i.id, i) for i in n.inputs]
        if all(a is b for a, b in zip(new_inputs, n.inputs)):
            if n.op.name == "const" and _symbolic_number(n.attrs["value"]):
                raise _cannot(n, f"the constant {n.attrs['value']!r} was computed from the "
                              f"placeholder's representative size {SYMBOLIC_DIM} (a multiple "
                              f"of it, n - 1, n // 2, 1 / n, sqrt(n)): a None dimension's "
                              f"size (x.shape[0], x.size) was used as a number")
            if n.op.name not in ("input", "placeholder") and _brought_in(n, n.inputs):
                # Not rebuilt (no placeholder input), yet sized by one: a
                # ``zeros_like(x)`` / ``full`` / ``broadcast_to(c, x.shape)``
                # fixed at build time.
                raise _cannot(n, f"its shape {n.shape} was fixed from a None dimension "
                              f"when the graph was built")
            mapping[n.id] = n
            continue
        if all(a.shape == b.shape for a, b in zip(new_inputs, n.inputs)) \
                and not _brought_in(n, n.inputs):
            m = ops.build(n.op.name, new_inputs, dict(n.attrs), n.source)
        else:
            m = _respecialize(n, new_inputs)
        if _brought_in(m, new_inputs, n):
            raise _cannot(m, f"its shape {m.shape} still has the placeholder's "
                          f"representative size {SYMBOLIC_DIM}")
        mapping[n.id] = m
    return [mapping[o.id] for o in outputs]


def call_sized(t: Tensor | Node, axis: int | None = None) -> bool:
    """Whether ``t``'s length along ``axis`` (its size for ``None``) is
    known only when a compiled function runs: a ``None`` dimension of a
    placeholder, an axis made from one (``x[1:]``, ``x.reshape(-1)``), or
    one sliced from it to a bound (``x[:2]``, ``x[-3:]``), which is shorter
    at a call with fewer elements than the bound.

    For library code that computes with a length while the graph is built
    (a repetition count, a clip bound, an ``eye(n)``): such a number would be
    the stand-in's (``SYMBOLIC_DIM``) or the bound's at every call.  Use
    ``refuse_call_axis`` to refuse with the common message.  Outside a graph
    over a ``None``-dimension placeholder (eager code, ``@lt.jit``'s traces,
    whose placeholders have the call's shapes) it is False at no cost.

    >>> import lazyten as lt
    >>> from lazyten.compile import call_sized
    >>> x = lt.placeholder((None, 3), "float64")
    >>> call_sized(x, 0), call_sized(x, 1), call_sized(x[:2], 0), call_sized(x)
    (True, False, True, True)
    """
    from .graph.node import _symbolic_placeholders, reaches_placeholder
    node = t._node if isinstance(t, Tensor) else t
    if not _symbolic_placeholders:
        return False
    d = math.prod(node.shape) if axis is None else node.shape[axis]
    if S.sized_at_call((d,)):
        return reaches_placeholder(node)
    if d == 0 or not reaches_placeholder(node):
        return False        # (a call can only shorten an axis sliced to a bound)
    # A small length of a graph over a None dimension: fixed (the 3 of a
    # ``(None, 3)``) or a bound a call may cut (``x[:2]``).  The graph
    # specialized to a call with 0 (else 1) elements along every None
    # dimension tells them apart.
    phs = [n for n in toposort([node]) if _is_placeholder(n) and None in n.attrs["dims"]]
    for size in (0, 1):
        binding = {p.id: _placeholder_node(tuple(size if e is None else e
                                                 for e in p.attrs["dims"]),
                                           p.dtype, p.attrs.get("name"), p.source)
                   for p in phs}
        try:
            (m,) = specialize([node], binding)
        except _BoundChanged:
            return True     # (an axis sliced to a bound on the way, cut by the call)
        except (ValueError, IndexError, TypeError):
            continue
        return (math.prod(m.shape) if axis is None else m.shape[axis]) != d
    return False


def refuse_call_axis(t: Tensor | Node, axis: int | None, what: str) -> None:
    """Refuse ``what`` (the user's function, as it was called: ``"lt.resize"``)
    at build time where it computes with ``t``'s length along ``axis`` (its
    size for ``None``) and that length is known only when a compiled
    function runs (``call_sized``): a ``ValueError`` saying so."""
    if call_sized(t, axis):
        node = t._node if isinstance(t, Tensor) else t
        d = math.prod(node.shape) if axis is None else node.shape[axis]
        which = "size" if axis is None else f"length along axis {axis}"
        raise ValueError(
            f"{what} cannot be compiled with a None dimension: it needs its input's {which}, "
            f"which depends on a None dimension of a placeholder and is known only when "
            f"the compiled function runs (it is {d} while the graph is built). Give the "
            f"placeholder a fixed size there, or trace the computation with @lt.jit, which "
            f"re-runs the Python function for each shape.")


# ---------------------------------------------------------------- one compiled signature

class _Compiled:
    """The plan for one signature and how to run it (read-only after init)."""

    def __init__(self, outputs: Sequence[Node], inputs: Sequence[Node], opts: Options,
                 name: str, fast_limit: int | None = FAST_PATH_BYTES,
                 plan: Any = None) -> None:
        """``name``: the function's, for ``label``; ``plan``: the plan
        already made (``Function``'s resized graph), whose outputs stand for
        ``outputs``."""
        from .exec.numpy_backend import threads_for
        from .exec.optimized import plan_for
        self.name = name
        self.single = True    # @lt.jit: the traced function returned one value
        # @lt.jit: how its outputs make the values it returned (None: one an
        # output; see ``_masked_output``), where some are masked
        self.packing: list[Any] | None = None
        self.inputs = tuple(inputs)
        self.outputs = tuple(outputs)
        self.threads = threads_for(opts)
        self.opts = opts      # (the cache key's: a plan is made for one options context)
        self.in_ids = [n.id for n in inputs]
        self.chunked: str | None = None
        # Where the plan came from when not from this signature's own passes
        # (``Function._resized``), for ``explain``.
        self.origin = ""
        self.fast: Callable[..., list[Any]] | None = None
        # Per output, whether the plan may lay it out otherwise than NumPy
        # (``_relaid_outputs``); None where no output may.
        self.relayout: list[bool] | None = None
        self.plan: Any = None     # a Plan; None when the signature runs in chunks
        # The user's arrays the function reads without the caller passing
        # them (``lt.asarray`` leaves captured when it was built): an
        # ``out=`` overlapping one would change what later steps read, so the
        # call refuses it as it refuses its inputs.  (Cached values are
        # lazyten's own read-only buffers: no caller holds them writeable.)
        self.captured = tuple(n.value for n in toposort(self.outputs)
                              if n.op.name == "input" and isinstance(n.value, np.ndarray)
                              and n.value.size)
        # optimize=False: no passes and no plan, as for ``lt.compute`` under
        # it: each call runs the graph as built, specialized to the call, on
        # the reference executor (what a suspected optimizer bug is checked
        # against).
        self.reference = not opts.optimize and plan is None
        if self.reference:
            return
        try:
            self.plan = plan if plan is not None else plan_for(list(outputs), opts)
        except MemoryError as e:
            # Over memory_limit: run in chunks when the graph allows it
            # (lazyten.chunked), re-planned per call; else the error stands.
            if opts.memory_limit is None:
                raise
            from .chunked import NotChunkable, check_chunkable
            try:
                check_chunkable(self.outputs, self.inputs)
            except NotChunkable as why:
                e.add_note(f"lazyten: not evaluated in chunks either: {why}")
                raise e from None
            self.chunked = f"runs in chunks within memory_limit ({e})"
            return
        self.out_ids = [n.id for n in self.plan.outputs]
        self.fast = _fast_runner(self.plan, self.in_ids, opts.backend, fast_limit)
        self.relayout = _relaid_outputs(self.outputs)

    @property
    def label(self) -> str:
        """The signature, as ``explain`` heads its plan: ``f(x: float64[5])``
        (made when asked: formatting dtypes was a tenth of a new size's call)."""
        args = ", ".join(f"{n.attrs.get('name') or f'arg{k}'}: {n.type_str()}"
                         for k, n in enumerate(self.inputs))
        # The options it was planned under, where not the defaults: one
        # signature has a plan per options context (``Function.__call__``).
        opts = ", ".join(f"{f.name}={getattr(self.opts, f.name)!r}" for f in fields(Options)
                         if getattr(self.opts, f.name) != f.default)
        return f"{self.name}({args})" + (f" with {opts}" if opts else "")

    # One method dispatching on what __init__ found, not a closure or bound
    # method stored on the instance: either would make every compiled
    # signature a reference cycle, left to the cyclic collector.
    def run(self, arrays: Sequence[np.ndarray[Any, Any]],
            outs: Sequence[np.ndarray[Any, Any] | None] | None) -> list[np.ndarray[Any, Any]]:
        relayout = self.relayout
        if relayout is not None:
            # (as ``lt.compute`` lays its results out; not those written
            # into the caller's ``out=``, which keep its buffers)
            from .exec.executor import in_numpys_layout
            if outs is not None:
                relayout = [r and o is None for r, o in zip(relayout, outs)]
            return in_numpys_layout(self.outputs, self._run(arrays, outs), relayout)
        return self._run(arrays, outs)

    def _run(self, arrays: Sequence[np.ndarray[Any, Any]],
             outs: Sequence[np.ndarray[Any, Any] | None] | None) -> list[np.ndarray[Any, Any]]:
        fast = self.fast
        if fast is not None:
            try:
                return fast(arrays, outs)
            except Exception:
                # The generated code knows no step names: run the plan again
                # through the executor, which raises the same error naming
                # the failing step and the line that built it.
                self._run_plan(arrays, outs)
                raise
        if self.chunked is not None:
            return self._run_chunked(arrays, outs)
        if self.reference:
            return self._run_reference(arrays, outs)
        return self._run_plan(arrays, outs)

    def _run_plan(self, arrays: Sequence[np.ndarray[Any, Any]],
                  outs: Sequence[np.ndarray[Any, Any] | None] | None
                  ) -> list[np.ndarray[Any, Any]]:
        from .exec.optimized import execute
        bindings = dict(zip(self.in_ids, arrays))
        out_map = None
        if outs is not None:
            out_map = {}
            for oid, o in zip(self.out_ids, outs):
                if o is not None and oid not in out_map:
                    out_map[oid] = o
        vals = execute(self.plan, self.threads, bindings, out_map)
        return _finish(vals, arrays, outs, self.captured)


    def _run_chunked(self, arrays: Sequence[np.ndarray[Any, Any]],
                     outs: Sequence[np.ndarray[Any, Any] | None] | None
                     ) -> list[np.ndarray[Any, Any]]:
        from .chunked import evaluate_chunked
        binding = {nid: ops.source(a) for nid, a in zip(self.in_ids, arrays)}
        vals = evaluate_chunked(specialize(self.outputs, binding), self.opts)
        return _finish(vals, arrays, outs, self.captured)

    def _run_reference(self, arrays: Sequence[np.ndarray[Any, Any]],
                       outs: Sequence[np.ndarray[Any, Any] | None] | None
                       ) -> list[np.ndarray[Any, Any]]:
        from .exec.reference import run_reference
        binding = {nid: ops.source(a) for nid, a in zip(self.in_ids, arrays)}
        vals = run_reference(specialize(self.outputs, binding))
        return _finish(vals, arrays, outs, self.captured)

    def format(self, verbose: bool = False) -> str:
        if self.chunked is not None:
            return self.chunked
        if self.reference:
            return ("runs unoptimized (optimize=False): the graph as built, specialized "
                    "to each call, on the reference executor")
        text = self.plan.format(verbose=verbose)
        return f"{text}\n-- {self.origin}" if self.origin else text


def _relaid_outputs(outputs: Sequence[Node]) -> list[bool] | None:
    """Per output, whether the optimizer moves a view into its expression
    (``pushed_views``), whose operands then decide the plan's result's
    layout, perhaps otherwise than NumPy's (``(x + y).T > 1.5`` of an F
    ``x`` and a C ``y``), and NumPy's is known from ``@lt.jit``'s
    argument layouts (``infer``, remembered on the node for each call's
    ``in_numpys_layout``); None where no output is such."""
    from .exec.executor import pushed_views
    from .graph.layout import infer
    found = [len(n.shape) >= 2 and pushed_views(n) and infer(n)[1] for n in outputs]
    return found if True in found else None


def _finish(vals: list[Any], arrays: Sequence[Any], outs: Sequence[Any] | None,
            captured: Sequence[Any] = ()) -> list[Any]:
    """Results the caller owns: written into ``outs`` where given, else copied
    when they alias an input, a cached value, a constant, an array the
    function captured (``captured``: the user's, which a caller writing its
    result would change) or another result."""
    res: list[Any] = []
    for k, v in enumerate(vals):
        o = outs[k] if outs is not None else None
        if o is not None:
            if v is not o:
                o[...] = v
            res.append(o)
            continue
        if not isinstance(v, np.ndarray):
            v = np.asarray(v)
            res.append(v)
            continue
        if v.base is not None or not v.flags.writeable or not v.flags.owndata \
                or any(v is a for a in arrays) or any(v is r for r in res) \
                or any(v is c for c in captured):
            v = copied(v)
        res.append(v)
    return res


# ---------------------------------------------------------------- the fast path

# Generated source -> its code object: compiling took 220 us of the 320 that
# generating a 15-node plan's runner took, and a structure planned again at
# another size gives the same source (``_fast_runner``).  Code objects are
# immutable, so one serves every runner made from it.
_codes: dict[str, Any] = {}
_CODES_MAX = 512


def _code_for(src: str) -> Any:
    code = _codes.get(src)
    if code is None:
        if len(_codes) >= _CODES_MAX:
            _codes.clear()
        code = _codes[src] = compile(src, "<lazyten fast path plan>", "exec")
    return code


def _fast_runner(plan: Any, in_ids: list[int], backend: str = "auto",
                 limit: int | None = FAST_PATH_BYTES,
                 hold_scratch: int | None = None) -> Callable[..., list[Any]] | None:
    """A straight-line Python function for a small plan, or None.

    ``limit`` bounds the plan's buffers (None: any size, for chunk plans,
    whose size the chunking already bounds and whose scratch is then reused
    from chunk to chunk instead of allocated per chunk).  Each thread keeps
    its scratch buffers between calls (a compiled function) when they take at
    most ``hold_scratch`` bytes (None: any); a plan with more allocates its
    own on every call (the implicit plan cache of ``lt.compute`` must not
    hold much memory for hundreds of cached plans, so it holds tiny ones only).

    ``execute`` interprets the plan (dict lookups, pool bookkeeping) at about
    20 us a call; for tiny arrays that is more than the arithmetic.  Here the
    plan becomes generated code: one NumPy call per kernel instruction with
    ``out=`` into scratch buffers kept per thread, constants bound as names.
    The code text is built only from generated names (``v3``, ``s1``, ``F2``),
    never from user text.  Only small plans (all buffers at most
    ``FAST_PATH_BYTES``) of sources, kernels and NumPy/BLAS/view steps; the
    results are NumPy's own (the same ufunc loops as the reference executor).
    """
    total = sum(nb for nb, _dt in plan.buffers.values())
    if limit is not None and total > limit:
        return None
    # A kernel's temporaries have its element shape: a reduction kernel's can
    # be far larger than its (scalar) buffer, and here they are not blocked.
    if limit is not None and any(
            math.prod(s.node.attrs["elem_shape"]) * 16 > limit
            for s in plan.steps if s.kind == "kernel"):
        return None
    ns: dict[str, Any] = {"np": np, "_empty": np.empty, "_asarray": np.asarray,
                          "_finite": fpflags.finite, "_overlaps": overlaps,
                          "_ran_again": fpflags.count_run_again}
    lines: list[str] = []
    # Per-thread state: (shape, dtype) of a scratch buffer, or a factory.
    scratch: list[Any] = []
    name_of: dict[int, str] = {}
    in_pos = {nid: k for k, nid in enumerate(in_ids)}
    out_nodes = list(plan.outputs)
    out_ids = {n.id for n in out_nodes}
    # Names are tagged by position, not node id, and shapes are bound as
    # names, not written as literals: the same structure at other sizes (a
    # new plan for each, in the plan cache or a compiled function's
    # specializations) then gives the same text, compiled once (``_code_for``).
    # The inputs come first, in call order (a plan orders its sources by node
    # id, and a constant cached by an earlier build is older than new
    # arrays), then the other steps in plan order.
    tag = dict(in_pos)
    for s in plan.steps:
        tag.setdefault(s.node.id, len(tag))

    def new_scratch(shape: tuple[int, ...], dt: np.dtype[Any]) -> str:
        scratch.append((shape, dt))
        return f"_s[{len(scratch) - 1}]"

    sources: list[tuple[int, str]] = []   # (tag, line): bound first, in tag order
    for s in plan.steps:
        n = s.node
        t = tag[n.id]
        v = f"v{t}"
        name_of[n.id] = v
        if s.kind == "source":
            if n.id in in_pos:
                sources.append((t, f"{v} = _a[{in_pos[n.id]}]"))
            elif _is_placeholder(n):
                return None
            else:
                val = n.value if n.value is not None else n.attrs["value"]
                ns[f"K{t}"] = val
                sources.append((t, f"{v} = K{t}"))
            continue
        args = [name_of[i.id] for i in s.inputs]
        if s.kind == "kernel":
            k = s.kernel
            if k is None:
                return None
            prog, reduce = n.attrs["program"], n.attrs["reduce"]
            elem = tuple(n.attrs["elem_shape"])
            is_out = n.id in out_ids
            # Where the cost model (or backend="numexpr") picked numexpr, its
            # compiled program runs the whole kernel in one C call, without
            # numexpr.evaluate's parsing and cache lookups.  Otherwise (and
            # where numexpr would lose NumPy's warnings or errors, below)
            # one NumPy ufunc per instruction, the same loops as eager NumPy.
            ne_call = _numexpr_call(ns, n, t, k, args, scratch) \
                if k.backend == "numexpr" and reduce is None else None
            block: list[str] = []        # the kernel's lines, in C order
            after: list[str] = []        # then, either way
            k_out = out_nodes.index(n) if is_out else -1
            given = f"_o[{k_out}] if _o is not None and _o[{k_out}] is not None else "
            held = ""
            if reduce is None:
                ns[f"D{t}"] = np.dtype(n.dtype)
                if is_out:
                    ns[f"E{t}"] = elem
                    block.append(f"{v} = {given}_empty(E{t}, D{t})")
                else:
                    held = new_scratch(elem, np.dtype(n.dtype))
                    block.append(f"{v} = {held}")
            kernel_lines: list[str] = []
            temps: list[str] = []
            # Scratch slots as the blocked backend plans them (``slots``): few,
            # reused in place once dead, so they stay hot in cache.
            prep = k.prepared
            slot_names = [new_scratch(elem, np.dtype(d)) for d in prep.slot_dtypes]
            for j, (name, refs, attrs, _dt) in enumerate(prog):
                spec = ops.REGISTRY[name]
                operands = []
                for r in refs:
                    if r < 0:
                        operands.append(temps[-1 - r])
                    elif n.inputs[r].weak:
                        operands.append(_weak_operand(ns, n, tag, prog, j, r))
                    else:
                        operands.append(args[r])
                slot = prep.steps[j][3]
                dst = v if slot < 0 else slot_names[slot]
                fn = f"F{t}_{j}"
                if spec.ufunc is not None and not attrs:
                    ns[fn] = spec.ufunc
                    # ``out`` positionally: keyword parsing costs more than
                    # the arithmetic on 100 elements (NumPy deprecates that
                    # for maximum/minimum only, which take it by keyword).
                    if spec.ufunc in (np.maximum, np.minimum):
                        kernel_lines.append(f"{fn}({', '.join(operands)}, out={dst})")
                    else:
                        kernel_lines.append(f"{fn}({', '.join(operands)}, {dst})")
                else:
                    ns[fn] = functools.partial(spec.impl, **dict(attrs))
                    kernel_lines.append(f"{dst}[...] = {fn}({', '.join(operands)})")
                temps.append(dst)
            if reduce is not None:
                fn = f"R{t}"
                ns[fn] = functools.partial(ops.REGISTRY[reduce[0]].impl, **dict(reduce[1]))
                kernel_lines.append(f"{v} = _asarray({fn}({temps[-1]}))")
                if is_out:
                    after.append(f"if _o is not None and _o[{k_out}] is not None:")
                    after.append(f"    _o[{k_out}][...] = {v}; {v} = _o[{k_out}]")
            if ne_call is not None:
                # numexpr only where NumPy's warnings are not lost
                # (``kernels.numexpr_now``): "check" runs NumPy again where
                # the output is not all finite, which an error left there
                ns[f"NE{t}"] = functools.partial(numexpr_now, k.numexpr, k.numexpr_asked)
                block.append(f"_h = NE{t}()")
                block.append("if _h == 'run':")
                block.append(f"    {ne_call.format(out=v)}")
                block.append(f"elif _h == 'check' and not _overlaps({v}, ({', '.join(args)},)):")
                block.append(f"    {ne_call.format(out=v)}")
                block.append(f"    if not _finite({v}):")
                block.append("        _ran_again()")
                block.extend(f"        {ln}" for ln in kernel_lines)
                block.append("else:")
                block.extend(f"    {ln}" for ln in kernel_lines)
            else:
                block.extend(kernel_lines)
            if k.probe != -1:
                # Transposed or Fortran-ordered operands: the kernel runs in
                # their memory order (``Kernel.run``), as in the executor, so
                # values are laid out (and sums added) as NumPy's either way;
                # the same test of the operands' flags (``_not_c_ordered``:
                # the probe's, or where every operand is broadcast, each one's)
                ns[f"RUN{t}"] = k.run
                into = f"{held}, 1, True" if held else \
                    f"{given}None, 1" if is_out and reduce is None else "None, 1"
                c_ordered = [f"{args[k.probe]}.flags.c_contiguous"] if k.probe >= 0 else \
                    [f"{a}.flags.c_contiguous" for a, i in zip(args, n.inputs) if i.shape]
                lines.append(f"if {' and '.join(c_ordered) or 'True'}:")
                lines.extend(f"    {ln}" for ln in block)
                lines.append("else:")
                lines.append(f"    {v} = RUN{t}([{', '.join(args)}], {into})")
            else:
                lines.extend(block)
            lines.extend(after)
            continue
        if s.kind in ("numpy", "blas", "view"):
            fn = f"F{t}"
            ns[fn] = functools.partial(n.op.impl, **n.attrs)
            if n.op.kind == "view" or not args:
                lines.append(f"{v} = {fn}({', '.join(args)})")
            else:                            # (a new array: ``unaliased``)
                from .exec.reference import unaliased
                ns["UNALIASED"] = unaliased
                lines.append(f"{v} = UNALIASED({fn}({', '.join(args)}), "
                             f"({', '.join(args)},))")
            continue
        return None
    results = ", ".join(name_of[o.id] for o in out_nodes)
    lines[:0] = [line for _t, line in sorted(sources)]
    src = "def _run(_a, _o, _s):\n    " + "\n    ".join(lines) + \
        f"\n    return [{results}{',' if len(out_nodes) == 1 else ''}]\n"
    exec(_code_for(src), ns)  # noqa: S102 - generated from our own names only
    # Popped, not read: the function's globals are ``ns``, and ``ns`` holding
    # the function would make every runner a reference cycle.
    body: Callable[..., list[Any]] = ns.pop("_run")
    local = threading.local()
    shapes = list(scratch)
    scratch_bytes = sum(math.prod(x[0]) * x[1].itemsize for x in shapes if not callable(x))
    hold = hold_scratch is None or scratch_bytes <= hold_scratch
    specs = tuple([(x[0], x[1]) for x in shapes if not callable(x)])

    # Kernel outputs are fresh arrays (or the caller's ``out``): nothing to
    # copy unless an output is a view, an input, a constant or repeated.
    fresh = len({o.id for o in out_nodes}) == len(out_nodes) and all(
        s.kind == "kernel" for s in plan.steps if s.node.id in out_ids)
    # The user's arrays the plan reads as they are: an output that is one
    # is copied (``_finish``).
    captured = tuple(s.node.value for s in plan.steps
                     if s.kind == "source" and isinstance(s.node.value, np.ndarray))

    def run(arrays: Sequence[Any], outs: Sequence[Any] | None) -> list[Any]:
        s = getattr(local, "s", None)
        if s is not None:
            # This thread's scratch, taken while it runs: a run nested in
            # this one on the thread (from NumPy's errstate callback, a
            # signal handler) makes its own instead of writing into it.
            local.s = None
            try:
                res = body(arrays, outs, s)
            finally:
                local.s = s
            return res if fresh else _finish(res, arrays, outs, captured)
        # This thread's first run (or a nested one): scratch buffers and
        # numexpr programs.  The programs are kept even where the buffers
        # are not: making one compiles its expression, about 1 ms for a
        # chain of 20 ops (a 10,000-element chain took 1.1 ms a call,
        # numexpr 0.1).
        progs = getattr(local, "progs", None)
        if progs is None:
            progs = local.progs = {k: x() for k, x in enumerate(shapes) if callable(x)}
        if hold:
            s = [progs[k] if callable(x) else np.empty(x[0], x[1])
                 for k, x in enumerate(shapes)]
            res = body(arrays, outs, s)
            local.s = s                      # kept for this thread's next run
        else:
            # Buffers too big to hold per plan: this thread's pool's
            # (``numpy_backend.take_arrays``), given back after the run.
            got = iter(take_arrays(specs))
            s = [progs[k] if callable(x) else next(got) for k, x in enumerate(shapes)]
            try:
                res = body(arrays, outs, s)
            finally:
                keep_arrays(specs, [b for b in s if isinstance(b, np.ndarray)])
        return res if fresh else _finish(res, arrays, outs, captured)

    run.source = src  # type: ignore[attr-defined]
    # Held per thread between calls (chunked evaluation budgets with it).
    run.scratch_bytes = scratch_bytes  # type: ignore[attr-defined]
    return run


def _numexpr_call(ns: dict[str, Any], n: Node, t: int, k: Any, args: list[str],
                  per_thread: list[Any]) -> str | None:
    """Code calling a compiled numexpr program for kernel ``n`` (``{out}`` to
    fill in), or None where the kernel has no exact numexpr form.

    A compiled ``NumExpr`` object is not safe to call from two threads at
    once (numexpr itself keeps one per thread), so the program is a
    per-thread object: a factory appended to ``per_thread``, called once in
    each thread beside its scratch buffers."""
    kern = k.numexpr
    if kern is None:
        return None
    try:
        from numexpr.necompiler import NumExpr, getContext, getExprNames
        sig = []
        operands = []
        for name, r, cast in kern.names:
            if cast is not None:
                key = f"K{t}_{name}"
                arr = np.asarray(n.inputs[r].attrs["value"], dtype=cast)
                arr.flags.writeable = False
                ns[key] = arr
                operands.append(key)
                sig.append((name, cast.type))
            else:
                operands.append(args[r])
                sig.append((name, n.inputs[r].dtype.type))
        NumExpr(kern.expr, signature=sig)
        _names, vml = getExprNames(kern.expr, getContext({}))
    except Exception:  # numexpr declined: the ufunc code runs instead
        return None
    per_thread.append(functools.partial(NumExpr, kern.expr, signature=sig))
    slot = len(per_thread) - 1
    return f"_s[{slot}]({', '.join(operands)}, out={{out}}, ex_uses_vml={bool(vml)})"


def _weak_operand(ns: dict[str, Any], n: Node, tag: dict[int, int], prog: Any, j: int,
                  r: int) -> str:
    """The name of a Python-scalar operand of instruction ``j``.

    NumPy converts a Python scalar on every call (about 0.4 us).  Where the
    ufunc's loop for the operands takes every input as the dtype ``D`` of the
    instruction's array operands (``ufunc.resolve_dtypes`` with the scalar's
    Python type, NEP 50), it is bound once as a 0-d ``D`` array: the same
    loop, the same values.  Otherwise it stays a Python scalar: NumPy reads
    it another way (``logical_or(float16, 1e-8)`` by its truth, in a bool
    loop; ``float_power`` in float64; ``ldexp``'s exponent as an int).
    """
    name, refs, _attrs, _dt = prog[j]
    value = n.inputs[r].attrs["value"]
    dts = set()
    for rr in refs:
        if rr < 0:
            dts.add(np.dtype(prog[-1 - rr][3]))
        elif not n.inputs[rr].weak:
            dts.add(n.inputs[rr].dtype)
    key = f"K{tag[n.inputs[r].id]}"
    uf = ops.REGISTRY[name].ufunc
    if len(dts) == 1 and name != "where" and uf is not None:
        (d,) = dts
        try:
            # NEP 50 keeps ``d`` for any Python int, in range or not: a value
            # out of d's range (int32 / 2**40 is a float64 division) raises
            # converting, and stays a Python scalar.
            kinds = tuple((np.dtype(bool) if type(value) is bool else type(value))
                          if rr == r else d for rr in refs)
            loop = uf.resolve_dtypes(kinds + (None,) * uf.nout)
            same = all(x == d for x in loop[:uf.nin]) and np.result_type(d, value) == d
            arr = np.asarray(value, dtype=d) if same else None
        except (TypeError, OverflowError, ValueError):
            same = False
        if same and arr is not None:
            key = f"K{tag[n.inputs[r].id]}_{d.str.strip('<>=|')}"
            arr.flags.writeable = False   # shared by every call and thread
            ns[key] = arr
            return key
    ns[key] = value
    return key


# ---------------------------------------------------------------- calling conventions

_SCALAR_TYPES = (bool, int, float, complex)


def _as_input(x: Any, owner: str = "", node: Node | None = None,
              pos: Any = None) -> np.ndarray[Any, Any]:
    """A call argument as an ndarray (never copied when it is one already).

    An ndarray subclass is read as its data (``np.memmap``), except where
    that would drop what the caller meant: a masked array's mask, an
    ``np.matrix``'s matrix semantics (``*`` is a product): a ``TypeError``
    naming the argument (``owner``: the function; ``node``/``pos``: the
    input it is for)."""
    if type(x) is np.ndarray:
        return x
    if isinstance(x, (np.ma.MaskedArray, np.matrix)):
        who = _label(node, pos) if node is not None else f"argument {pos}"
        if isinstance(x, np.ma.MaskedArray):
            why = ("a numpy.ma.MaskedArray, whose mask a compiled function would drop "
                   "(it computes on plain arrays); pass np.ma.getdata(a) or a.filled(v), "
                   "or compute with lt.ma in an @lt.jit function, which takes masked "
                   "arrays")
        else:
            why = ("a numpy.matrix, whose operators are matrix operations (* is a "
                   "product); pass np.asarray(m)")
        raise TypeError(f"{owner}: {who} got {why}")
    if isinstance(x, Tensor):
        from .exec.executor import evaluate
        (v,) = evaluate([x._node])
        return v
    return np.asarray(x)


def _check_out(outs: Any, n_out: int, results: Sequence[Node],
               arrays: Sequence[np.ndarray[Any, Any]],
               captured: Sequence[np.ndarray[Any, Any]] = ()) -> list[np.ndarray[Any, Any] | None]:
    """``out=`` as one entry per output, checked against the outputs' types
    and against overlapping what the call reads (``captured``: arrays the
    function holds)."""
    lst = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    if len(lst) != n_out:
        raise ValueError(f"out= needs {n_out} array(s) (one per output, None to allocate), "
                         f"got {len(lst)}")
    for k, (o, node) in enumerate(zip(lst, results)):
        if o is None:
            continue
        if not isinstance(o, np.ndarray):
            raise TypeError(f"out[{k}] must be a numpy.ndarray, got {type(o).__name__}")
        if o.shape != node.shape:
            raise ValueError(f"out[{k}] has shape {o.shape}, output {k} has shape {node.shape}")
        if o.dtype != node.dtype:
            raise TypeError(f"out[{k}] has dtype {o.dtype}, output {k} has dtype {node.dtype}")
        if not o.flags.writeable:
            raise ValueError(f"out[{k}] is read-only")
        if any(np.may_share_memory(o, a) for a in arrays):
            raise ValueError(f"out[{k}] overlaps an input: lazyten never writes into the "
                             f"inputs of a call")
        if any(np.may_share_memory(o, a) for a in captured):
            raise ValueError(f"out[{k}] overlaps an array the function captured when it was "
                             f"built (an lt.asarray of it): later steps still read it")
        for j, p in enumerate(lst[:k]):
            if p is not None and np.may_share_memory(o, p):
                raise ValueError(f"out[{k}] overlaps out[{j}]: each output is written into "
                                 f"memory of its own (one would hold the other's values)")
    return lst


def _quick_out(out: Any, results: Sequence[Node], arrays: Sequence[Any],
               captured: Sequence[np.ndarray[Any, Any]] = ()) -> list[Any] | None:
    """``out=`` as a list when every check passes cheaply, else None (then
    ``_check_out`` runs and says what is wrong).  Two arrays that own their
    data are separate allocations: no overlap test needed."""
    lst = [out] if type(out) is np.ndarray else out
    if not isinstance(lst, (list, tuple)) or len(lst) != len(results):
        return None
    for a in arrays:
        if a.base is not None:
            return None
    seen: list[Any] = []
    for o, node in zip(lst, results):
        if o is None:
            continue
        if type(o) is not np.ndarray or o.shape != node.shape or o.dtype != node.dtype \
                or o.base is not None or not o.flags.writeable:
            return None
        for p in seen:                   # (one array given twice)
            if p is o:
                return None
        seen.append(o)
        for a in arrays:
            if a is o:
                return None
        for a in captured:
            if np.may_share_memory(a, o):
                return None
    return list(lst)


class _LRU:
    """A small thread-safe LRU map with hit/miss counters."""

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"cache_size must be >= 1, got {maxsize}")
        self.maxsize = maxsize
        self._d: OrderedDict[Any, _Compiled] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self.last: _Compiled | None = None

    def has(self, key: Any) -> bool:
        """Whether ``key`` is cached now (not counted, not reordered)."""
        return key in self._d          # (one dict lookup: atomic)

    def get(self, key: Any) -> _Compiled | None:
        with self._lock:
            hit = self._d.get(key)
            if hit is not None:
                self._d.move_to_end(key)
                self.hits += 1
                self.last = hit
            else:
                self.misses += 1
            return hit

    def put(self, key: Any, value: _Compiled) -> _Compiled:
        with self._lock:
            old = self._d.get(key)
            if old is not None:   # another thread compiled it first: keep one
                return old
            self._d[key] = value
            while len(self._d) > self.maxsize:
                self._d.popitem(last=False)
            self.last = value
            return value

    def find(self, match: Callable[[Any], bool]) -> _Compiled | None:
        """A value whose key ``match`` accepts, or None (not counted, not
        reordered)."""
        with self._lock:
            for key, value in self._d.items():
                if match(key):
                    return value
            return None

    def info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self.hits, self.misses, self.maxsize, len(self._d))

    def clear(self) -> None:
        with self._lock:
            self._d.clear()
            self.hits = self.misses = 0
            self.last = None

    def values(self) -> list[_Compiled]:
        with self._lock:
            return list(self._d.values())


class _Callable:
    """What ``Function`` and ``Jit`` share: cache, ``explain``, ``map``."""

    _cache: _LRU
    _single: bool
    # The last call's key and compiled signature: a batch loop's next call
    # finds it without the cache's lock.
    _recent: tuple[Any, _Compiled] | None = None

    def cache_info(self) -> CacheInfo:
        """Hits, misses, maxsize and current size of the plan cache."""
        return self._cache.info()

    def cache_clear(self) -> None:
        """Forget every compiled plan (and the counters)."""
        self._cache.clear()
        self._recent = None

    def explain(self, all: bool = False, verbose: bool = False) -> str:  # noqa: A002
        """The plan text of the signature used last (every cached one with
        ``all=True``), each headed by its signature."""
        entries = self._cache.values() if all else \
            ([self._cache.last] if self._cache.last is not None else [])
        if not entries:
            return "(nothing compiled yet: call the function first)"
        return "\n\n".join(f"== {c.label}\n{c.format(verbose=verbose)}" for c in entries)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def map(self, batches: Iterable[Any], progress: bool = False, stack: bool = False,
            **kwargs: Any) -> Any:
        """Run over an iterable of batches (each a tuple of arguments or one array).

        Returns a list of results, or with ``stack=True`` the results stacked
        along a new first axis (a tuple of stacked arrays for several outputs).
        ``progress=True`` shows a tqdm progress bar (tqdm is optional: without
        it a warning says so and the loop runs without a bar).

        >>> import lazyten as lt, numpy as np
        >>> x = lt.placeholder((2,), "float64", name="x")
        >>> f = lt.function([x], x.sum())
        >>> f.map([np.ones(2), np.zeros(2)], stack=True)
        array([2., 0.])
        """
        it: Iterable[Any] = batches
        if progress:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                warnings.warn("progress=True needs tqdm (pip install tqdm); running "
                              "without a progress bar", RuntimeWarning, stacklevel=2)
            else:
                total = len(batches) if hasattr(batches, "__len__") else None  # type: ignore
                it = tqdm(batches, total=total, desc=getattr(self, "__name__", "lazyten"))
        results = []
        for b in it:
            args = b if isinstance(b, tuple) else (b,)
            results.append(self(*args, **kwargs))
        if not stack:
            return results
        if not results:
            raise ValueError("stack=True needs at least one batch")
        if isinstance(results[0], tuple):
            return tuple(np.stack([r[k] for r in results]) for k in range(len(results[0])))
        return np.stack(results)


# ---------------------------------------------------------------- lt.function

class _SizeClass(NamedTuple):
    """A size class's last specialization (``Function._learn``)."""
    compiled: _Compiled
    form: tuple[Any, ...]                 # ``exec.resize.size_form`` of its plan's graph
    shapes: tuple[tuple[int, ...], ...]
    opts: Options
    shared: bool                          # two sizes gave this form: later ones resize it


class Function(_Callable):
    """A compiled computation from placeholders to outputs (``lt.function``).

    >>> import lazyten as lt, numpy as np
    >>> x = lt.placeholder((3,), "float64", name="x")
    >>> y = lt.placeholder((3,), "float64", name="y")
    >>> f = lt.function([x, y], [x + y, (x * y).sum()])
    >>> f(np.ones(3), np.arange(3.0))
    (array([1., 2., 3.]), array(3.))
    >>> f.cache_info().currsize
    1
    """

    def __init__(self, inputs: Sequence[Tensor], outputs: Tensor | Sequence[Tensor],
                 cache_size: int = 32, name: str | None = None) -> None:
        self._single = isinstance(outputs, Tensor)
        outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
        if not outs:
            raise ValueError("lt.function needs at least one output")
        nodes: list[Node] = []
        for k, x in enumerate(inputs):
            if not isinstance(x, Tensor) or not _is_placeholder(x._node):
                raise _not_a_placeholder(x, k)
            nodes.append(x._node)
        if len({n.id for n in nodes}) != len(nodes):
            raise ValueError("lt.function: the same placeholder is given twice in inputs")
        self._inputs = tuple(nodes)
        self._outputs = tuple(_output_node(o, k) for k, o in enumerate(outs))
        self.__name__ = name or "function"
        given = {n.id for n in nodes}
        graph = toposort(self._outputs)
        missing = [n for n in graph if _is_placeholder(n) and n.id not in given]
        if missing:
            raise ValueError(f"lt.function: the outputs depend on placeholder(s) not listed "
                             f"in inputs: {', '.join(_label(n) for n in missing)}")
        self._names = {n.attrs.get("name"): k for k, n in enumerate(nodes)
                       if n.attrs.get("name") is not None}
        self._symbolic = [tuple(k for k, d in enumerate(n.attrs["dims"]) if d is None)
                          for n in nodes]
        self._static = not any(self._symbolic)
        self._sig = [(n.shape, n.dtype) for n in nodes]
        # Inputs whose layout the graph took as C (``_assumed_c``): a call
        # with another is refused (``_check_c``)
        self._c_only = _c_inputs(graph, nodes)
        self._cache = _LRU(cache_size)
        # Per size class (``_size_class``): the last specialization compiled
        # in it, and whether two sizes of the class gave one optimized graph
        # (then later sizes resize that graph: ``exec.resize``).
        self._fixed = frozenset(d for n in nodes for d in n.attrs["dims"] if d is not None)
        self._classes: OrderedDict[Any, _SizeClass] = OrderedDict()
        self._classes_lock = threading.Lock()
        self._const: _Compiled | None = None
        self._const_opts: Options | None = None
        if self._static:
            # One possible signature: compile now, so errors show at once.
            # Its calls under these options run it without a lookup; under
            # others they find their own plan in the cache (``__call__``).
            opts = self._const_opts = get_options()
            shapes = tuple(n.shape for n in nodes)
            self._const = self._cache.put((shapes, opts), self._compile(shapes, opts))
            self._cache.misses += 1

    @property
    def inputs(self) -> tuple[Node, ...]:
        return self._inputs

    def _check_c(self, arrays: Sequence[np.ndarray[Any, Any]]) -> None:
        """Refuse an array of another layout than C for an input whose layout
        the graph took as C where it decides values (``_assumed_c``)."""
        for k, where in self._c_only.items():
            a = arrays[k]
            if a.ndim > 1 and a.size > 1 and not a.flags.c_contiguous:
                raise ValueError(
                    f"{self.__name__}: {_label(self._inputs[k], k)} got an array that is not "
                    f"C-contiguous (strides {a.strides}), but the graph, built before any "
                    f"call, took its layout as C at {where} (a write "
                    f"through a reshape of a computed value, ravel('K'/'A'), "
                    f"reshape(order='A')), where NumPy's answer follows the layout: pass "
                    f"np.ascontiguousarray(x), or trace with @lt.jit, which follows each "
                    f"call's layout")

    def cache_clear(self) -> None:
        """Forget every compiled plan, the counters and the size classes.  A
        function of fixed shapes keeps its one plan, compiled when it was
        made (its calls run it without a lookup): ``cache_info`` and
        ``explain`` go on showing it."""
        super().cache_clear()
        with self._classes_lock:
            self._classes.clear()
        if self._const is not None:
            self._cache.put((tuple(n.shape for n in self._inputs), self._const_opts),
                            self._const)

    def _compile(self, shapes: Sequence[tuple[int, ...]], opts: Options) -> _Compiled:
        """The plan for ``shapes`` under ``opts`` (the options of the calling
        context: part of the cache key, as they decide the plan)."""
        binding: dict[int, Node] = {}
        concrete: list[Node] = []
        for n, shp in zip(self._inputs, shapes):
            if shp == n.shape:
                c = n
            else:
                c = _placeholder_node(tuple(shp), n.dtype, n.attrs.get("name"), n.source)
                binding[n.id] = c
            concrete.append(c)
        # (Options as part of the class: two contexts alternating do not
        # overwrite each other's class, and a graph resized is planned under
        # the options its class was optimized with.)
        cls = None if self._static else (self._size_class(shapes), opts)
        if cls is not None:
            resized = self._resized(cls, concrete, opts)
            if resized is not None:
                return resized
        outs = specialize(self._outputs, binding) if binding else list(self._outputs)
        compiled = _Compiled(outs, concrete, opts, self.__name__)
        if cls is not None:
            self._learn(cls, tuple(shapes), compiled, opts)
        return compiled

    def _size_class(self, shapes: Sequence[tuple[int, ...]]) -> tuple[Any, ...]:
        """The call's None dimensions as far as any pass or inference can
        tell them apart: 0, 1 and a size equal to a fixed dimension as
        themselves, any other by its bit length (cost rules compare sizes)
        and which of the others it equals (broadcasting does)."""
        fixed = self._fixed
        seen: dict[int, int] = {}
        out: list[Any] = []
        for shp, sym in zip(shapes, self._symbolic):
            for k in sym:
                v = shp[k]
                if v <= 1 or v in fixed:
                    out.append(v)
                else:
                    out.append((v.bit_length(), seen.setdefault(v, len(seen))))
        return tuple(out)

    def _resized(self, cls: tuple[Any, ...], concrete: list[Node],
                 opts: Options) -> _Compiled | None:
        """The compiled function at the new sizes from its class's optimized
        graph, where two sizes of the class gave one (``exec.resize``); None
        otherwise, or where the graph does not fit the sizes (the caller then
        specializes and optimizes, which says why if it cannot either)."""
        with self._classes_lock:
            known = self._classes.get(cls)
            if known is not None:
                self._classes.move_to_end(cls)
        if known is None or not known.shared or known.opts != opts:
            return None
        from .exec.optimized import plan_optimized
        from .exec.resize import resize
        plan = known.compiled.plan
        try:
            g = resize(plan.graph, known.compiled.inputs, concrete)
            if opts.check:
                from .graph.verify import verify_graph
                verify_graph(g.outputs)
            new_plan = plan_optimized(g, opts, plan.before_nodes, dict(plan.removed))
        except (ValueError, TypeError, IndexError, MemoryError):
            return None
        compiled = _Compiled(new_plan.outputs, concrete, opts, self.__name__, plan=new_plan)
        compiled.origin = (f"no specialization or passes: the optimized graph of "
                           f"{known.compiled.label}, resized (its size class)")
        return compiled

    def _learn(self, cls: tuple[Any, ...], shapes: tuple[tuple[int, ...], ...],
               compiled: _Compiled, opts: Options) -> None:
        """Remember ``compiled`` as its class's last specialization, shared
        by the class when the one before, at other sizes, had its form."""
        if compiled.plan is None:
            return                                # (runs in chunks: re-planned per call)
        from .exec.resize import size_form
        form = size_form(compiled.plan.graph, compiled.inputs)
        if form is None:
            return
        with self._classes_lock:
            before = self._classes.get(cls)
            shared = before is not None and before.form == form \
                and before.shapes != shapes and before.opts == opts
            self._classes[cls] = _SizeClass(compiled, form, shapes, opts, shared)
            self._classes.move_to_end(cls)
            while len(self._classes) > self._cache.maxsize:
                self._classes.popitem(last=False)

    def _arrays(self, args: tuple[Any, ...], kwargs: dict[str, Any]
                ) -> tuple[list[Any], Sequence[Any]]:
        """The call's arguments as arrays, in input order, and as given
        (``_check_dtypes`` tells Python scalars from NumPy's)."""
        n_in = len(self._inputs)
        if kwargs:
            lst: list[Any] = list(args) + [_MISSING] * (n_in - len(args))
            for key, v in kwargs.items():
                k = self._names.get(key)
                if k is None:
                    raise TypeError(f"{self.__name__}() got an unexpected keyword argument "
                                    f"{key!r}; inputs are {list(self._names)}")
                if lst[k] is not _MISSING:
                    raise TypeError(f"{self.__name__}() got multiple values for {key!r}")
                lst[k] = v
            args = tuple(lst)
        if len(args) != n_in or any(a is _MISSING for a in args):
            raise TypeError(f"{self.__name__}() takes {n_in} input(s) "
                            f"({', '.join(_label(n, k) for k, n in enumerate(self._inputs))}), "
                            f"got {sum(a is not _MISSING for a in args)}")
        return self._converted(args), args

    def _converted(self, args: Sequence[Any]) -> list[Any]:
        return [a if type(a) is np.ndarray else
                _as_input(a, self.__name__, self._inputs[k], k) for k, a in enumerate(args)]

    def _check_dtypes(self, arrays: list[Any], given: Sequence[Any]) -> None:
        """Each array of the input's dtype, or a TypeError naming the input;
        ``given``: the arguments as passed, to tell Python scalars apart."""
        for k, (a, n) in enumerate(zip(arrays, self._inputs)):
            if a.dtype != n.dtype:
                if type(given[k]) in _SCALAR_TYPES and n.ndim == 0:
                    # A Python scalar (weak, NEP 50) for a 0-d input: it
                    # takes the input's dtype.  NumPy scalars and 0-d arrays
                    # have their own, strong dtype: as n-d arrays, below.
                    # An integer is made the input's integer dtype as NumPy
                    # makes it (``300`` for int8 is an OverflowError, ``3``
                    # for uint8 fits); other numbers cast within their kind.
                    if a.dtype.kind in "iuO" and n.dtype.kind in "iu":
                        try:
                            arrays[k] = np.asarray(given[k] if a.dtype.kind == "O"
                                                   else a.item(), dtype=n.dtype)
                        except OverflowError as e:
                            raise OverflowError(f"{self.__name__}: {_label(n, k)}: {e}") \
                                from None
                        continue
                    if np.can_cast(a.dtype, n.dtype, "same_kind"):
                        arrays[k] = a.astype(n.dtype)
                        continue
                    if a.dtype.kind == "O" and n.dtype.kind in "fc":
                        # (an int past int64, which NumPy makes the float:
                        # 2**70 for float32 is 1.18e21)
                        arrays[k] = np.asarray(given[k], dtype=n.dtype)
                        continue
                elif a.dtype.newbyteorder("=") == n.dtype.newbyteorder("="):
                    # The input's dtype in the other byte order (a big-endian
                    # file, a memmap): the same values, as @lt.jit takes them.
                    arrays[k] = a.astype(n.dtype)
                    continue
                raise TypeError(f"{self.__name__}: {_label(n, k)} got dtype {a.dtype}")

    def _check(self, arrays: list[Any], given: Sequence[Any]) -> None:
        self._check_dtypes(arrays, given)
        self._check_shapes(arrays)

    def _check_shapes(self, arrays: list[Any]) -> None:
        for k, (a, n) in enumerate(zip(arrays, self._inputs)):
            dims = n.attrs["dims"]
            if a.ndim != len(dims) or any(d is not None and d != s
                                          for d, s in zip(dims, a.shape)):
                raise ValueError(f"{self.__name__}: {_label(n, k)} got shape {a.shape}")

    def __call__(self, *args: Any, out: Any = None, **kwargs: Any) -> Any:
        """Run on arrays; returns an ndarray (a tuple for several outputs).

        ``out=`` gives caller-owned arrays (one per output; ``None`` for
        "allocate") that the results are written into: a loop with ``out=``
        allocates no output per call.
        """
        if out is not None and "out" in self._names:
            kwargs["out"], out = out, None   # (an input named "out": no result buffers)
        c = self._const
        if c is not None and not kwargs and len(args) == len(self._sig) \
                and (_context.get() or _options._defaults) is self._const_opts \
                and not self._c_only:
            # The hot path of a fixed-shape function called under the options
            # it was made under: a few comparisons, then the plan.
            for a, (shp, dt) in zip(args, self._sig):
                if type(a) is not np.ndarray or a.shape != shp or a.dtype != dt:
                    break
            else:
                outs = None if out is None else _quick_out(out, c.outputs, args, c.captured)
                if out is None or outs is not None:
                    self._cache.hits += 1  # unlocked: a statistic only
                    self._cache.last = c   # (for ``explain``: other contexts have plans too)
                    res = c.run(args, outs)
                    return res[0] if self._single else tuple(res)
        given: Sequence[Any]
        if kwargs or len(args) != len(self._inputs):
            arrays, given = self._arrays(args, kwargs)
        else:
            given = args
            arrays = [a if type(a) is np.ndarray else _as_input(a, self.__name__,
                                                                  self._inputs[k], k)
                      for k, a in enumerate(args)]
        # The options of the calling context are part of the key: they decide
        # the plan (memory_limit: chunked or refused; optimize, backend,
        # threads, ...), and each context (or thread) may have its own.
        # Options hash once and compare by identity first: a small call of a
        # None-dimension function measured 2.18 us, from 2.15 without them.
        opts = _context.get() or _options._defaults
        key = (tuple([a.shape for a in arrays]), opts)
        if self._c_only:
            self._check_c(arrays)
        if self._static:
            self._check(arrays, given)
        else:
            self._check_dtypes(arrays, given)
        recent = self._recent
        if recent is not None and recent[0] == key:
            c = recent[1]      # (no lock, no reordering of the cache)
            self._cache.hits += 1  # unlocked: a statistic only
        else:
            # Shapes are checked when a signature is compiled, not at each
            # call (a third of a small call's overhead), and before the
            # cache counts a miss.
            if not self._static and not self._cache.has(key):
                self._check_shapes(arrays)
            c = self._cache.get(key)
            if c is None:
                c = self._cache.put(key, self._compile(key[0], opts))
            self._recent = (key, c)
        outs = None if out is None else _check_out(out, len(c.outputs), c.outputs, arrays,
                                                   c.captured)
        res = c.run(arrays, outs)
        return res[0] if self._single else tuple(res)


_MISSING: Any = object()


def _not_a_placeholder(x: Any, k: int) -> TypeError:
    """The error for ``inputs[k]``, which is not a placeholder."""
    msg = f"lt.function: inputs[{k}] must be a placeholder tensor (lt.placeholder), got "
    if not isinstance(x, Tensor):
        return TypeError(msg + type(x).__name__)
    phs = [n for n in toposort([x._node]) if _is_placeholder(n)]
    if not phs:
        return TypeError(msg + f"a Tensor ({x._node.type_str()}) computed from no placeholder")
    names = ", ".join(repr(n.attrs.get("name") or f"%{n.id}") for n in phs[:4])
    return TypeError(
        msg + f"a Tensor computed from placeholder(s) {names}. If this variable held a "
        f"placeholder, an in-place operation on it or on another name for it (y = x; "
        f"y += 1; x[0] = v) replaced its value by that computation, as for any tensor: "
        f"keep the placeholder in a variable of its own and compute into another "
        f"(y = x + 1).")


def _output_node(o: Any, k: int) -> Node:
    """An output of ``lt.function``: a Tensor's node; an array (or a list
    of numbers) is a constant output, the user's array read at each call
    as an ``lt.asarray`` of it is (never the result itself: ``_finish``)."""
    if isinstance(o, Tensor):
        return o._node
    if isinstance(o, (np.ndarray, list, tuple)):
        from .creation import asarray
        try:
            return asarray(o)._node
        except (TypeError, ValueError) as e:
            raise TypeError(f"lt.function: outputs[{k}] is neither a Tensor nor an array "
                            f"({e})") from None
    try:
        return ops.const(o)
    except TypeError:
        raise TypeError(f"lt.function: outputs[{k}] must be a Tensor, an array or a "
                        f"number, got {type(o).__name__}") from None


def function(inputs: Sequence[Tensor], outputs: Tensor | Sequence[Tensor],
             cache_size: int = 32, name: str | None = None) -> Function:
    """Compile ``outputs`` as a function of the placeholders ``inputs``.

    Optimizes and plans once per input-shape signature (one signature when no
    placeholder has a ``None`` dimension; plans kept in an LRU of
    ``cache_size``).  Call it with NumPy arrays (or Tensors), positionally or
    by placeholder name; it returns an ndarray, or a tuple when ``outputs``
    is a list.  See ``Function`` and the module docstring.

    >>> import lazyten as lt, numpy as np
    >>> a = lt.placeholder((None,), "float64", name="a")
    >>> f = lt.function([a], 2 * a ** 2 - lt.sin(a))
    >>> f(np.zeros(3))
    array([0., 0., 0.])
    >>> f(a=np.zeros(5)).shape, f.cache_info().currsize
    ((5,), 2)
    """
    return Function(inputs, outputs, cache_size, name)


# ---------------------------------------------------------------- @lt.jit

def _is_traced_arg(x: Any) -> bool:
    return isinstance(x, (np.ndarray, Tensor))


def _static_key(x: Any, where: str) -> Any:
    try:
        hash(x)
    except TypeError:
        raise TypeError(f"lt.jit: argument {where} of type {type(x).__name__} is neither an "
                        f"array (traced) nor hashable (static); pass arrays or hashable "
                        f"values (numbers, strings, tuples)") from None
    return _typed(x)


def _typed(x: Any) -> Any:
    """``x`` with the type of every value in it: ``1``, ``1.0`` and ``True``
    are equal keys, and so are ``(1,)`` and ``(1.0,)``, but a trace made for
    one gives another dtype (NEP 50) than the other's would.

    A float or complex number is keyed by its bits: ``0.0 == -0.0`` would
    give ``-0.0`` the trace made for ``0.0`` (``x * k``, ``copysign``: the
    other sign), and ``nan != nan`` would miss the cache at every call (a
    new trace and cache entry each time)."""
    if type(x) is tuple:
        return (tuple, tuple(_typed(v) for v in x))
    if type(x) is frozenset:
        return (frozenset, frozenset(_typed(v) for v in x))
    if isinstance(x, (float, complex, np.inexact)):
        return (type(x), _bits(x))
    return (type(x), x)


def _bits(x: Any) -> Any:
    """A float or complex number (Python's or NumPy's) as a hashable key
    equal only for the same bits (the sign of zero and a NaN's payload
    count; a NaN equals a NaN of its bits)."""
    if isinstance(x, np.generic) and x.dtype.char not in "gG":
        return x.tobytes()
    z = complex(x)
    # (A long double's padding bytes are not data: its value, read as a
    # double, and its repr, which keeps its precision and signs.)
    if isinstance(x, np.generic):
        return (struct.pack("<dd", z.real, z.imag), repr(x))
    return struct.pack("<dd", z.real, z.imag)


class Jit(_Callable):
    """A Python function traced into a compiled plan per signature (``@lt.jit``).

    Array arguments (NumPy arrays, Tensors) are traced as placeholders; every
    other argument is static: part of the cache key, seen by the Python code
    as its value.

    >>> import lazyten as lt, numpy as np
    >>> @lt.jit
    ... def scale(x, k):
    ...     return x * k + 1
    >>> scale(np.ones(3), 2)
    array([3., 3., 3.])
    >>> _ = scale(np.zeros(3), 2); scale.cache_info().hits
    1
    """

    def __init__(self, fn: Callable[..., Any], cache_size: int = 32) -> None:
        self._fn = fn
        self._cache = _LRU(cache_size)
        functools.update_wrapper(self, fn)
        self.__name__: str = getattr(fn, "__name__", "jit")
        self.traces = 0   # how many times the Python function ran (tests)
        self._single = True
        # A function with a parameter named ``out`` takes ``out=`` itself
        # (no buffers given for the results then: ``_run``'s ``out``).
        try:
            self._takes_out = "out" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            self._takes_out = False

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        # Decorating a method: bind like a function.
        return self if obj is None else functools.partial(self.__call__, obj)

    def __call__(self, *args: Any, out: Any = None, **kwargs: Any) -> Any:
        if self._takes_out and out is not None:
            kwargs["out"], out = out, None   # (the function's own argument)
        if _tracing.get():
            # Inside another trace: inline (the outer trace compiles it all).
            return self._fn(*args, **kwargs)
        recent = self._recent
        opts = _context.get() or _options._defaults
        if recent is not None and not kwargs and recent[0][1] is opts:
            # Arrays only, of the call before's shapes and dtypes, under its
            # options: its plan.
            sig = recent[0][0]
            for a, (shp, dt, lay) in zip(args, sig):
                if type(a) is not np.ndarray or a.shape != shp or a.dtype != dt \
                        or array_layout(a) != lay:
                    break
            else:
                if len(args) == len(sig):
                    c = recent[1]
                    self._cache.hits += 1  # unlocked: a statistic only
                    return self._run(c, list(args), out)
        from .ma.core import MaskedTensor
        if any(isinstance(a, MaskedTensor) for a in (*args, *kwargs.values())):
            # (a masked tensor is an argument by its value, as a tensor is)
            args = tuple(a.eval() if isinstance(a, MaskedTensor) else a for a in args)
            kwargs = {k: a.eval() if isinstance(a, MaskedTensor) else a
                      for k, a in kwargs.items()}
        traced: list[np.ndarray[Any, Any]] = []
        key_parts: list[Any] = []
        for k, a in enumerate(args):
            if isinstance(a, np.ma.MaskedArray):
                arrays, mkey = _masked_parts(a)
                traced.extend(arrays)
                key_parts.append(mkey)
            elif _is_traced_arg(a):
                arr = _as_input(a, f"lt.jit: {self.__name__}", None, k)
                traced.append(arr)
                key_parts.append(("a", arr.shape, arr.dtype.str, array_layout(arr)))
            else:
                key_parts.append(_static_key(a, f"{k}"))
        for name in sorted(kwargs):
            a = kwargs[name]
            if isinstance(a, np.ma.MaskedArray):
                arrays, mkey = _masked_parts(a)
                traced.extend(arrays)
                key_parts.append((name, mkey))
            elif _is_traced_arg(a):
                arr = _as_input(a, f"lt.jit: {self.__name__}", None, repr(name))
                traced.append(arr)
                key_parts.append((name, "a", arr.shape, arr.dtype.str, array_layout(arr)))
            else:
                key_parts.append((name, _static_key(a, repr(name))))
        # The options of the calling context are part of the key, as for
        # ``lt.function``: they decide the plan.  A signature traced under
        # other options is not traced again, only planned under these.
        sig_key = tuple(key_parts)
        key = (sig_key, opts)
        hit = self._cache.get(key)
        if hit is None:
            before = self._cache.find(lambda k: k[0] == sig_key)
            hit = self._cache.put(key, self._trace(args, kwargs, opts) if before is None
                                  else self._replan(before, opts))
        c = hit
        self._recent = None
        if not kwargs and all(type(a) is np.ndarray for a in args):
            self._recent = ((tuple([(a.shape, a.dtype, array_layout(a)) for a in args]),
                             opts), c)
        return self._run(c, traced, out)

    def _replan(self, traced: _Compiled, opts: Options) -> _Compiled:
        """The plan of ``traced``'s graph (another options context's) under ``opts``."""
        c = _Compiled(traced.outputs, traced.inputs, opts, self.__name__)
        c.single = traced.single
        c.packing = traced.packing
        return c

    def _run(self, c: _Compiled, traced: list[np.ndarray[Any, Any]], out: Any) -> Any:
        if out is not None and c.packing is not None:
            raise TypeError(f"lt.jit: {self.__name__} returns masked arrays: out= is not "
                            f"supported (a masked result is a new numpy.ma array)")
        outs = None if out is None else _check_out(out, len(c.outputs), c.outputs, traced,
                                                   c.captured)
        res = c.run(traced, outs)
        if c.packing is not None:
            res = _unpacked(res, c.packing)
        return res[0] if c.single else tuple(res)

    def _trace(self, args: tuple[Any, ...], kwargs: dict[str, Any], opts: Options) -> _Compiled:
        phs: list[Node] = []

        def ph(a: Any, name: str) -> Any:
            if isinstance(a, np.ma.MaskedArray):
                return _masked_placeholder(a, name, phs)
            if not _is_traced_arg(a):
                return a
            arr = _as_input(a)
            t = placeholder(arr.shape, arr.dtype, name=name)
            # The argument's layout, part of the signature ("C", "F" or its
            # strides), is the placeholder's: views and reshapes decide as
            # NumPy's do on it (``(x * 2).reshape(-1)`` of F data is a copy)
            t._node.layout = array_layout(arr)
            phs.append(t._node)
            return t

        try:
            params = list(inspect.signature(self._fn).parameters)
        except (TypeError, ValueError):
            params = []
        targs = [ph(a, params[k] if k < len(params) else f"arg{k}")
                 for k, a in enumerate(args)]
        tkwargs = {name: ph(kwargs[name], name) for name in sorted(kwargs)}
        token = _tracing.set(_tracing.get() + 1)
        try:
            result = self._fn(*targs, **tkwargs)
        finally:
            _tracing.reset(token)
        self.traces += 1
        single = not isinstance(result, (tuple, list))
        leaves = [result] if single else list(result)
        nodes: list[Node] = []
        packing: list[Any] = []
        from .ma.core import MaskedTensor
        for k, r in enumerate(leaves):
            if isinstance(r, MaskedTensor):
                packing.append(_masked_output(r, nodes))
                continue
            packing.append(None)
            if isinstance(r, Tensor):
                nodes.append(r._node)
            elif isinstance(r, (np.ndarray, np.generic) + _SCALAR_TYPES):
                from .creation import asarray
                nodes.append(asarray(np.array(r)).node)
            else:
                raise TypeError(f"lt.jit: {self.__name__} returned {type(r).__name__} as "
                                f"output {k}; return a Tensor, an array, or a tuple/list "
                                f"of them")
        c = _Compiled(nodes, phs, opts, self.__name__)
        c.single = single
        c.packing = packing if any(p is not None for p in packing) else None
        return c


# ------------------------------------------------------------------ masked arguments and results

def _masked_parts(a: np.ma.MaskedArray) -> tuple[list[np.ndarray[Any, Any]], Any]:
    """A numpy.ma argument as a compiled function takes it: its data, and its
    mask unless it holds none (``nomask``: the trace makes one of its own),
    and its part of the signature (shapes, dtype, layouts, nomask or not,
    the fill value: each decides the trace's results)."""
    d = np.asarray(np.ma.getdata(a))
    nomask = np.ma.getmask(a) is np.ma.nomask
    arrays = [d] if nomask else [d, np.asarray(np.ma.getmaskarray(a))]
    fv = getattr(a, "_fill_value", None)
    fill = None if fv is None else (fv.dtype.str, fv.tobytes())
    return arrays, ("ma", d.shape, d.dtype.str, array_layout(d), nomask,
                    None if nomask else array_layout(arrays[1]), fill)


def _masked_placeholder(a: np.ma.MaskedArray, name: str, phs: list[Node]) -> Any:
    """The masked tensor a traced function sees for ``a``: placeholders of
    its data and mask (a mask of all False where it holds nomask), its fill
    value and nomask-ness."""
    from .creation import zeros_like
    from .ma.core import MaskedTensor
    arrays, _ = _masked_parts(a)
    tensors = []
    for suffix, arr in zip((".data", ".mask"), arrays):
        t = placeholder(arr.shape, arr.dtype, name=name + suffix)
        t._node.layout = array_layout(arr)
        phs.append(t._node)
        tensors.append(t)
    nomask = len(tensors) == 1
    mask = zeros_like(tensors[0], dtype=np.bool_) if nomask else tensors[1]
    m = MaskedTensor(tensors[0], mask)
    fv = getattr(a, "_fill_value", None)
    m._fill_value = None if fv is None else np.array(fv)
    m._shrink = () if nomask else None
    return m


def _masked_output(r: Any, nodes: list[Node]) -> tuple[Any, str]:
    """A masked result as outputs of the plan: its data and mask, and, where
    numpy.ma's nomask depends on the values, whether a mask is held (a 0-d
    bool); with its fill value, how to make it a numpy.ma array again."""
    from .ma.core import _holds_mask
    nodes += [r._data._node, r._mask._node]
    state = r._shrink
    if state:
        held = _holds_mask(state)
        nodes.append(held._node)
        kind = "decided"
    else:
        kind = "nomask" if state == () else "mask"
    return (None if r._fill_value is None else r._fill_value.copy()), kind


def _unpacked(res: list[Any], packing: list[Any]) -> list[Any]:
    """The plan's outputs as the traced function returned them: masked
    results as numpy.ma arrays (``MaskedTensor.eval``'s)."""
    from .ma.core import as_numpy_ma
    out: list[Any] = []
    it = iter(res)
    for p in packing:
        if p is None:
            out.append(next(it))
            continue
        fill, kind = p
        d, m = next(it), next(it)
        nomask = kind == "nomask" or (kind == "decided" and not bool(next(it)))
        out.append(as_numpy_ma(d, None if nomask else m, fill))
    return out


def jit(fn: Callable[..., Any] | None = None, *, cache_size: int = 32) -> Any:
    """Trace ``fn`` into a compiled plan on the first call per signature
    (array shapes and dtypes, plus the values of non-array arguments).

    Usable as ``@lt.jit`` or ``@lt.jit(cache_size=8)``.  Python control flow
    on traced values raises ``lt.TracingError``: use ``lt.where`` or make the
    deciding value a static argument.

    >>> import lazyten as lt, numpy as np
    >>> @lt.jit
    ... def f(x):
    ...     return (x - x.mean()) / x.std()
    >>> f(np.array([1.0, 3.0]))
    array([-1.,  1.])
    """
    if fn is None:
        return lambda f: Jit(f, cache_size)
    return Jit(fn, cache_size)
