"""Memory layout and memory sharing: ``ascontiguousarray``,
``asfortranarray``, ``asanyarray``, ``require``, ``shares_memory`` and
``may_share_memory``.

A lazy tensor has no memory until it is evaluated, so these functions say
what the tensor's *evaluated* value is laid out like, and whose memory it
reads:

- Layout.  ``ascontiguousarray(t)`` (``asfortranarray``, ``require(t,
  requirements="C")``, ...) is a tensor whose evaluated value (``t.eval()``,
  ``np.asarray(t)``, ``lt.compute``) is C-contiguous (Fortran-contiguous),
  as NumPy's is.  Where the layout of ``t``'s value is known now (``t`` wraps
  a user's array, or is a view of one, or was evaluated already) and is
  already right, the result is ``t`` itself, as NumPy returns its argument;
  otherwise it is a ``layout_copy`` node: NumPy's ``np.array(x, order=...)``
  when it runs, one copy (a computed value's layout is only known when it
  runs, so the copy is made even where it turns out to be laid out right).
  Like NumPy's, the copy is a tensor of its own: writing to it does not
  reach ``t``.
- Memory.  Two kinds.  A user's array (wrapped by ``lt.asarray``,
  ``lt.load``, ``lt.frombuffer``) is read when a tensor is evaluated, never
  written: a tensor has its memory when its graph reaches it through view
  ops only (the wrapping tensor, its views, and lazy copies of those such
  as ``lt.copy(t)``, which read it when evaluated: change the array and
  they change).  Any other tensor (an operation's result, a copy made by a
  copy op, a reshape that had to copy) is memory of lazyten's own: each
  root tensor has its own, which its views (slicing, ``reshape``, ``.T``,
  ``broadcast_to``, ...) share, as writing through them writes it; no
  other root shares it, even one with the same value.  A root written to
  (``t[0] = 1``) has memory of its own from then on: lazyten never writes
  into a user's array.  ``shares_memory`` and ``may_share_memory`` answer
  NumPy's questions on that memory: the view steps are replayed on the
  user's array (or, for memory of lazyten's own, on a stand-in of the root
  laid out as ``lazyten.tensor.write_order`` says, which nothing reads), so
  two views share memory exactly when NumPy's views of those arrays would.

>>> import numpy as np, lazyten as lt
>>> a = np.arange(6.0)
>>> t = lt.asarray(a)
>>> lt.shares_memory(t[:4], t[3:]), lt.shares_memory(t[::2], t[1::2]), lt.shares_memory(t, a)
(True, False, True)
>>> lt.ascontiguousarray(t[::2]).eval().flags.c_contiguous
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .creation import asarray
from .functions import layout_of
from .graph import ops
from .graph.layout import (Layout, array_layout, dense_layout, empty, infer, keep_order,
                           layout_known, layout_stand_in, replay_views, write_order)
from .graph.node import Node, Shape
from .tensor import Tensor, array0, check_device, check_order, ignores_like

__all__ = ["ascontiguousarray", "asfortranarray", "asanyarray", "require", "shares_memory",
           "may_share_memory"]


# ------------------------------------------------------------------ the copy op

def _layout_copy_impl(x: Any, order: Any, dtype: Any) -> Any:
    # Always a new array, never ``x`` itself: the planner gives this step a
    # buffer of its own, which it may reuse once the step's value is dead; an
    # alias of the input's buffer (np.ascontiguousarray's ``x`` when already
    # contiguous) could then be overwritten while the input is still read.
    if isinstance(order, tuple):                 # (dense strides: a ``*_like``'s "K")
        out = empty(np.shape(x), dtype, order)
        np.copyto(out, x, casting="unsafe")
        return out
    return np.array(x, dtype=dtype, copy=True, order=order)


def _layout_copy_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                       ) -> tuple[Shape, dict[str, Any]]:
    return inputs[0].shape, attrs


def _layout_copy_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return np.dtype(attrs["dtype"])


# "linalg": an opaque call that the passes leave alone (a fused kernel would
# lay its result out in its operands' order, not the one asked for).
ops.register(ops.OpSpec("layout_copy", "linalg", _layout_copy_impl, _layout_copy_infer,
                        _layout_copy_dtype, 1,
                        doc="a copy of input 0 in attrs['dtype'], laid out in attrs['order'] "
                            "('C', 'F', 'A': F if the input is F-contiguous and not C, "
                            "else C, 'K': as the input), as np.array(x, order=..., "
                            "copy=True); or a tuple of dense strides"))


def _flatten_impl(x: Any, order: Any) -> Any:
    return np.asarray(x).flatten(order)


def _flatten_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                   ) -> tuple[Shape, dict[str, Any]]:
    return (math.prod(inputs[0].shape),), attrs


# Also opaque: the order of "A" and "K" is the memory layout of the value as
# it runs (a computed Fortran-ordered result's included), which a reshape
# decided when built cannot know.
ops.register(ops.OpSpec("flatten", "linalg", _flatten_impl, _flatten_infer,
                        ops._same_dtype, 1,
                        doc="input 0's elements as a new 1-d array in attrs['order'] ('A': "
                            "Fortran order for Fortran-contiguous data, 'K': memory "
                            "order), as ndarray.flatten when it runs"))


def flattened(t: Tensor, order: str) -> Tensor:
    """``t.flatten(order)`` for "A" and "K": read in the layout ``t``'s value
    has when it runs."""
    return Tensor(ops.apply("flatten", [t._node], order=order))


def layout_copy(t: Tensor, order: Layout, dtype: np.dtype[Any]) -> Tensor:
    """``t`` copied in ``dtype``, laid out in ``order`` when it runs."""
    return Tensor(ops.apply("layout_copy", [t._node], order=order, dtype=dtype))



# ------------------------------------------------------------------ what a tensor reads

def _root_and_path(t: Tensor) -> tuple[Tensor, tuple[Any, ...]]:
    """The tensor whose memory ``t`` is a view of (itself, for a root) and
    the view steps from it, oldest first."""
    # (A root's ``_steps`` may hold the mark of an element, which is no view.)
    return (t, ()) if t._root is None else (t._root, t._path)


def _viewed(node: Node, inputs_only: bool) -> tuple[np.ndarray[Any, Any] | None,
                                                   tuple[Any, ...]]:
    """The array that ``node`` is a chain of view ops of, and the chain's
    steps (oldest first), where the chain ends at a user's array (an
    ``input``) or, unless ``inputs_only``, at any value known now (a cached
    one); else ``(None, ())``."""
    steps = []
    n = node
    while n.value is None and n.op.kind == "view" and n.op.view_of is not None:
        steps.append((n.op.name, tuple(n.attrs.items())))
        n = n.inputs[n.op.view_of]
    v = n.value
    if isinstance(v, np.ndarray) and (n.op.name == "input" or not inputs_only):
        return v, tuple(reversed(steps))
    return None, ()


def known_value(t: Tensor) -> np.ndarray[Any, Any] | None:
    """The array ``t`` evaluates to, as laid out in memory, where that is
    known without computing anything: it is (a view of) a user's array or a
    value computed already."""
    root, path = _root_and_path(t)
    base, steps = _viewed(root._node, inputs_only=False)
    return None if base is None else replay_views(base, steps + path)


def _stand_in(root: Tensor, writeable: bool = False) -> np.ndarray[Any, Any]:
    """An array of ``root``'s shape and dtype laid out as its value will be
    (``write_order``: C unless a Fortran-ordered or strided user array was
    written), over one element: NumPy reads its strides and extent, nothing
    reads its memory."""
    return layout_stand_in(root.shape, root.dtype, write_order(root._node), writeable)


def _memory(x: Any, stand_ins: dict[int, np.ndarray[Any, Any]]) -> Any:
    """What ``x`` reads, for ``np.shares_memory``: an ndarray (a user's
    array, or the view of one that a tensor is), or ``(root, view)`` for a
    tensor over memory of its own (``view``: on the root's stand-in, one per
    root, so that two views of one root are compared on one array), or None
    (memory no other argument can share)."""
    if not isinstance(x, Tensor):
        return x if isinstance(x, np.ndarray) else None
    root, path = _root_and_path(x)
    # (An element ``t[i, j]`` is NumPy's scalar: a copy, memory of its own.)
    user, steps = (None, ()) if root._is_element() else _viewed(root._node, inputs_only=True)
    if user is not None:
        viewed = replay_views(user, steps)
        if viewed is not None:
            return replay_views(viewed, path)
        # (a reshape among the root's steps copies the user's array, as
        # ``reshape(order="F")`` of C data does: memory of the root's own)
    base = stand_ins.get(id(root))
    if base is None:
        base = stand_ins[id(root)] = _stand_in(root)
    v = replay_views(base, path)
    return None if v is None else (root, v)


def _overlap(fn: Any, a: Any, b: Any, max_work: int) -> bool:
    for x in (a, b):
        if isinstance(x, Tensor):
            # (first, for both: a reshape of a computed result is NumPy's
            # view or copy by the layout it has when it runs, settled now)
            x._settle_view()
    stand_ins: dict[int, np.ndarray[Any, Any]] = {}
    ma, mb = _memory(a, stand_ins), _memory(b, stand_ins)
    if ma is None or mb is None:
        return False
    if isinstance(ma, tuple) or isinstance(mb, tuple):
        # Memory of a root's own: shared only with views of that same root.
        if not (isinstance(ma, tuple) and isinstance(mb, tuple) and ma[0] is mb[0]):
            return False
        ma, mb = ma[1], mb[1]
    return bool(fn(ma, mb, max_work=max_work))


def shares_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """NumPy's ``shares_memory`` for tensors and arrays: whether some element
    of ``a`` is in the memory of ``b`` (``max_work``: NumPy's, -1 by default,
    the exact answer; NumPy's ``TooHardError`` when it is exceeded).

    A tensor's memory is the user's array it reads through views
    (``lt.asarray``, its views), or else memory of its root's own, which
    only that root's views share (the module's docstring says more).  Other
    objects (lists, numbers) are new arrays in NumPy: they share nothing.

    >>> import numpy as np, lazyten as lt
    >>> a = np.zeros((3, 4))
    >>> t = lt.asarray(a)
    >>> lt.shares_memory(t[0], a[0]), lt.shares_memory(t[0], t[1]), lt.shares_memory(t, t + 0)
    (True, False, False)
    """
    return _overlap(np.shares_memory, a, b, -1 if max_work is None else max_work)


def may_share_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """NumPy's ``may_share_memory``: by default only whether the memory
    bounds of ``a`` and ``b`` overlap (so ``t[::2]`` and ``t[1::2]`` may
    share), with ``max_work`` as in ``shares_memory``; tensors' memory as
    ``shares_memory`` reads it.

    >>> import lazyten as lt
    >>> t = lt.arange(6) * 2
    >>> lt.may_share_memory(t[::2], t[1::2]), lt.shares_memory(t[::2], t[1::2])
    (True, False)
    """
    return _overlap(np.may_share_memory, a, b, 0 if max_work is None else max_work)


# ------------------------------------------------------------------ layout

def _dtype(t: Tensor, dtype: Any) -> np.dtype[Any]:
    dt = t.dtype if dtype is None else np.dtype(dtype)
    if dt.kind not in "biufc":
        raise TypeError(f"unsupported dtype {dt}; lazyten handles bool, integer, floating "
                        f"and complex data")
    return dt


def _in_order(t: Tensor, order: str, dtype: Any) -> Tensor:
    """``t`` in ``dtype`` with its evaluated value laid out in ``order``
    ('C' or 'F'): ``t`` itself where its value is known to be (or has at
    most one element), else a ``layout_copy``."""
    dt = _dtype(t, dtype)
    if dt == t.dtype:
        if t.size <= 1:
            return t                    # (NumPy: both contiguous, whatever the strides)
        v = known_value(t)
        if v is not None and (v.flags.c_contiguous if order == "C" else v.flags.f_contiguous):
            return t
    return layout_copy(t, order, dt)


def filled_array(t: Tensor, order: str, like: Tensor | None = None,
                 dtype: np.dtype[Any] | None = None) -> Tensor:
    """``t``, the value of a NumPy function that makes a new array with
    ``np.empty(shape, order=...)`` and fills it (``pad``, ``insert``,
    ``select``, ...), laid out as that array: ``order`` "C", or "A" of
    ``like`` (NumPy's ``arrorder``: F where ``like`` is Fortran- and not
    C-contiguous, else C), decided now where ``like``'s layout is known,
    else by ``t``'s own when it runs.  ``t`` itself (a new handle) where
    its layout is known to be that one already: no copy.  "K" of ``like``:
    ``np.empty_like(like)``'s (``keep_order``: ``gradient``'s, or a
    function's ``np.array(like, copy=True)`` it then writes into, as
    ``nan_to_num``'s), where ``like``'s layout is known.  ``dtype``: the
    new array's, where NumPy gives it the operand's own (``np.empty(shape,
    arr.dtype)``: a big-endian ``>i4`` kept, where lazyten's joins compute
    in the machine's order)."""
    dt = t.dtype if dtype is None else np.dtype(dtype)
    if dt != t.dtype:
        if t.size <= 1 or t.ndim < 2:
            return layout_copy(t, "C", dt)
    elif t.size <= 1 or t.ndim < 2:
        return t._handle()
    layout: Layout = order
    if order in ("A", "K") and like is not None:
        root = like if like._root is None else like._root
        probe = layout_of(like) if known_value(root) is not None or \
            layout_known(root._node) else None
        if probe is None:
            return layout_copy(t, order, dt) if order == "A" or dt != t.dtype else t._handle()
        if order == "A":
            layout = "F" if probe.flags.f_contiguous and not probe.flags.c_contiguous else "C"
        else:
            layout = dense_layout(t.shape, dt.itemsize, keep_order(probe))
    if dt == t.dtype:
        v = known_value(t)
        if v is not None and array_layout(v) == layout:
            return t._handle()
        n = t._node
        if t._root is None and n.value is None and n.op.kind not in ("source", "view") \
                and infer(n) == (layout, True):
            return t._handle()
    return layout_copy(t, layout, dt)


def copied(t: Tensor, order: str) -> Tensor:
    """NumPy's copy of ``t`` in ``order`` (``ndarray.copy``'s 'C',
    ``np.copy``'s 'K', 'F', 'A'): a new tensor (writes to it do not reach
    ``t``) whose evaluated value is laid out as NumPy's copy is, which a
    float sum of it adds in.  The same node where that is its layout
    already: a value computed here (contiguous, in its operands' memory
    order, which "K" keeps), or a contiguous user's array; else a
    ``layout_copy`` (a strided or reversed view, a C copy of F data)."""
    root = t if t._root is None else t._root
    if order == "A" and (known_value(root) is not None or layout_known(root._node)):
        # Data of a layout known now (a user's array, a cached value, a
        # result whose layout NumPy's rules give: ``x[...] = x[::-1]`` of F
        # data stays F): "A" fixed now.  (Where it is known only when it
        # runs, "A" is read then.)
        probe = layout_of(t)
        if probe is not None:
            order = "F" if probe.flags.f_contiguous and not probe.flags.c_contiguous else "C"
    if order in ("C", "F"):
        r = _in_order(t, order, None)
        return t._handle() if r is t else r
    v = known_value(t)
    if t.size <= 1 or (v is not None and (v.flags.c_contiguous or (
            v.flags.f_contiguous and order == "K"))):
        return t._handle()
    if v is None and t._root is None and t._node.op.kind not in ("source", "view") \
            and order == "K":
        return Tensor(t._node)               # (computed: contiguous, in "K" order)
    if v is not None and order == "K":
        # (a strided or permuted array's: its axes' order, known now, so that
        # the copy's layout is known, and a write to it keeps it, as NumPy's)
        return layout_copy(t, dense_layout(t.shape, t.dtype.itemsize, keep_order(v)), t.dtype)
    return layout_copy(t, order, t.dtype)


@ignores_like
def ascontiguousarray(a: Any, dtype: Any = None) -> Tensor:
    """NumPy's ``ascontiguousarray``: ``a`` (in ``dtype``) with at least one
    dimension (a 0-d tensor becomes a view of shape ``(1,)``), whose evaluated
    value is C-contiguous.  ``a`` itself where it is known to be laid out so
    already (a wrapped C-contiguous array, a contiguous view of one), as
    NumPy returns ``a``; else a copy, laid out in C order when it runs (the
    module's docstring).

    >>> import numpy as np, lazyten as lt
    >>> t = lt.asarray(np.ones((3, 4), order="F"))
    >>> v = lt.ascontiguousarray(t).eval()
    >>> v.flags.c_contiguous, lt.ascontiguousarray(t) is t
    (True, False)
    >>> lt.ascontiguousarray(lt.asarray(5.0)).shape
    (1,)
    """
    if not isinstance(a, Tensor):
        return asarray(np.ascontiguousarray(a, dtype=dtype))
    t = a.reshape((1,)) if a.ndim == 0 else a
    return _in_order(t, "C", dtype)


@ignores_like
def asfortranarray(a: Any, dtype: Any = None) -> Tensor:
    """NumPy's ``asfortranarray``: as ``ascontiguousarray``, with the
    evaluated value Fortran-contiguous (column-major).

    >>> import lazyten as lt
    >>> lt.asfortranarray(lt.ones((2, 3)) * 2).eval().flags.f_contiguous
    True
    """
    if not isinstance(a, Tensor):
        return asarray(np.asfortranarray(a, dtype=dtype))
    t = a.reshape((1,)) if a.ndim == 0 else a
    return _in_order(t, "F", dtype)


@ignores_like
def asanyarray(a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
               copy: bool | None = None) -> Any:
    """NumPy's ``asanyarray``: ``lt.asarray`` that keeps a masked array
    masked (an ``lt.ma`` masked tensor, or a ``numpy.ma`` array made one).

    ``order``: 'C' or 'F' lay the evaluated value out so (as
    ``ascontiguousarray``, without its extra dimension for 0-d input), 'A'
    and 'K' (and None) keep the layout, as NumPy does unless it copies;
    with ``copy=True`` (or a new ``dtype``) the copy is laid out as NumPy
    lays it out ('A': Fortran order for Fortran-contiguous data, else C;
    'K': the data's).  ``copy=False`` raises NumPy's ValueError where a
    copy is needed, and for 'C' and 'F' also where lazyten cannot tell that
    none is: a computed tensor's layout is only known when it runs.

    >>> import lazyten as lt
    >>> t = lt.arange(6).reshape(2, 3)
    >>> lt.asanyarray(t) is t, lt.asanyarray(t, order="F").eval().flags.f_contiguous
    (True, True)
    """
    check_device(device, "asanyarray")
    o: Any = "K" if order is None else order.upper() if isinstance(order, str) else order
    check_order(o, "asanyarray")
    from . import ma
    if isinstance(a, (ma.MaskedTensor, np.ma.MaskedArray)):
        if o in ("C", "F"):
            raise NotImplementedError(f"asanyarray: order={order!r} of a masked array: "
                                      f"lay out its data and mask with ascontiguousarray")
        return ma.masked_array(a, dtype=dtype, copy=bool(copy))
    if not isinstance(a, Tensor):
        # NumPy lays it out (or refuses to copy); the tensor wraps that array.
        return asarray(np.asarray(a, dtype=dtype, order=o, copy=copy))
    dt = _dtype(a, dtype)
    if o in ("C", "F"):
        laid = _in_order(a, o, dt)
        if laid is a:
            return layout_copy(a, o, dt) if copy else array0(a)
    elif dt != a.dtype or copy:
        # A copy node, not just a new handle: a new handle would still read
        # the user's array when evaluated (``shares_memory``).
        laid = layout_copy(a, o, dt)
    else:
        return array0(a)
    if copy is False:
        raise ValueError(f"asanyarray: unable to avoid a copy (copy=False) while making "
                         f"{a.dtype} data of shape {a.shape} {dt} in order {o!r}")
    return laid


# ``np.require``'s names of the flags it takes (np._core.numeric's).
_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C",
          "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
          "A": "A", "ALIGNED": "A",
          "W": "W", "WRITEABLE": "W",
          "O": "O", "OWNDATA": "O",
          "E": "E", "ENSUREARRAY": "E"}


@ignores_like
def require(a: Any, dtype: Any = None, requirements: Any = None) -> Any:
    """NumPy's ``require``: ``a`` as a tensor (in ``dtype``) that meets the
    ``requirements``, copied where it does not.

    For a tensor: 'C' / 'F' (contiguous), as ``ascontiguousarray`` /
    ``asfortranarray`` lay the evaluated value out (no extra dimension for
    0-d); 'A' (aligned) always holds; 'W' (writeable) holds except for a
    read-only view (``broadcast_to``, ``diagonal``): lazyten writes a new
    version of a tensor, never the user's array, so a tensor over a
    read-only array is writeable; 'O' (owns its data) holds for a tensor
    with memory of its own, not a view of another (``shares_memory`` says
    what memory a tensor has), and for a tensor over a user's array that
    owns its data, as NumPy's flag of that array says; 'E' (a base-class
    array) always holds.  A tensor that fails one is copied (a
    ``layout_copy``: its own memory, writing to it reaches nothing else).
    NumPy's errors: a ``KeyError`` for an unknown flag, a ``ValueError``
    for both 'C' and 'F'.  Other objects: NumPy's ``require``, wrapped.

    >>> import lazyten as lt
    >>> t = lt.arange(6).reshape(2, 3)
    >>> lt.require(t, requirements="F").eval().flags.f_contiguous
    True
    >>> lt.require(t[0], requirements="O") is t[0]
    False
    """
    if not isinstance(a, Tensor):
        if isinstance(a, np.ma.MaskedArray):
            from . import ma
            return ma.masked_array(np.require(a, dtype, requirements))
        return asarray(np.require(a, dtype, requirements))
    if not requirements:
        return asanyarray(a, dtype=dtype)
    reqs = {_FLAGS[x.upper()] for x in requirements}
    reqs.discard("E")                    # (a tensor is no subclass)
    reqs.discard("A")                    # (lazyten's buffers are NumPy's: aligned)
    if {"C", "F"} <= reqs:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in reqs else "F" if "F" in reqs else "A"
    t = asanyarray(a, dtype=dtype, order=order)
    if t is not a:
        return t                         # a copy: its own, writeable data
    root, path = _root_and_path(t)
    if ("O" in reqs and not _owns(t)) or ("W" in reqs and not _writeable(root, path)):
        return layout_copy(t, order, t.dtype)
    return t


def _owns(t: Tensor) -> bool:
    """NumPy's OWNDATA flag of the memory ``t`` has (``_memory``)."""
    m = _memory(t, {})
    if isinstance(m, np.ndarray):
        return bool(m.flags.owndata)        # (a view of the user's array owns none)
    return t._root is None

def _writeable(root: Tensor, path: tuple[Any, ...]) -> bool:
    """Whether a write through the view steps ``path`` of ``root`` is
    allowed: NumPy's flag of the same views of a writeable stand-in (never
    written: ``broadcast_to`` and ``diagonal`` views are NumPy's read-only ones)."""
    v = replay_views(_stand_in(root, writeable=True), path)
    return v is not None and bool(v.flags.writeable)
