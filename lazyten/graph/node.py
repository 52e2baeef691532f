"""Immutable graph nodes, hash-consed at construction.

A ``Node`` is one operation applied to input nodes with attributes; its shape
and dtype are inferred when it is built (``apply``), so a bad shape raises on
the user's line.  Building the same op on the same inputs with the same
attributes returns the *same* node (tinygrad's ``ucache``): common
subexpressions are shared for free, and a value cached on a node serves every
graph that contains it.

Node ids grow monotonically and a node's inputs always exist before it does,
so sorting by id is a topological order; nothing here recurses over a graph.
"""

from __future__ import annotations

import itertools
import os
import sys
import weakref
from _weakref import _remove_dead_weakref  # type: ignore[attr-defined]  # no stub
from collections.abc import Iterable, Sequence
from types import CodeType, FrameType
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .ops import OpSpec

Shape = tuple[int, ...]

_ids = itertools.count(1)


class _KeyedRef(weakref.ref["Node"]):
    """A weak reference that knows its intern-table key, so its callback can
    remove the entry when the node dies."""

    __slots__ = ("key",)
    key: Any


# key -> weak reference to the node.  A plain dict of weak references rather
# than a WeakValueDictionary: that class does its lookups and insertions in
# Python (a KeyedRef built by Python-level __new__ and __init__ per node), which
# cost as much as the rest of building an elementwise node.  The semantics are
# the same: the table never keeps a node alive, and a dead node's entry is
# removed by its reference's callback with the atomic "delete only if still
# dead" that WeakValueDictionary itself uses, so a callback that runs late can
# never remove a live node that has since taken the key.  No lock: every step
# (a read, ``setdefault``, that removal) is one atomic dict operation.
_intern: dict[Any, _KeyedRef] = {}


def _forget(ref: _KeyedRef) -> None:
    _remove_dead_weakref(_intern, ref.key)


_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class Node:
    """One operation in the graph.  Never mutated after construction, except
    for ``value`` (the cached result, written once, atomically)."""

    __slots__ = ("id", "op", "inputs", "attrs", "shape", "dtype", "weak", "source",
                 "value", "__weakref__")

    id: int
    op: OpSpec
    inputs: tuple[Node, ...]
    attrs: dict[str, Any]
    shape: Shape
    dtype: np.dtype[Any]
    weak: bool                    # a Python scalar constant (NEP 50 weak typing)
    source: tuple[str, int]       # (file, line) of the user's code that built it
    value: np.ndarray[Any, Any] | None

    def __init__(self, op: OpSpec, inputs: tuple[Node, ...], attrs: dict[str, Any],
                 shape: Shape, dtype: np.dtype[Any], source: tuple[str, int],
                 weak: bool = False, value: Any = None) -> None:
        self.id = next(_ids)
        self.op = op
        self.inputs = inputs
        self.attrs = attrs
        self.shape = shape
        self.dtype = dtype
        self.weak = weak
        self.source = source
        self.value = value

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def where(self) -> str:
        """``file.py:12``: the user's line that built this node."""
        return f"{os.path.basename(self.source[0])}:{self.source[1]}"

    def type_str(self) -> str:
        """``float64[1000,3]``"""
        return f"{self.dtype}[{','.join(map(str, self.shape))}]"

    def __repr__(self) -> str:
        return f"<Node %{self.id} {self.op.name} {self.type_str()}>"


# code object -> whether it is lazyten's own: every node built walks a few
# frames, and a dict lookup is several times cheaper than comparing paths.
_in_package: dict[CodeType, bool] = {}


def user_source() -> tuple[str, int]:
    """The first stack frame outside the lazyten package: the line to blame."""
    f: FrameType | None = sys._getframe(1)
    while f is not None:
        code = f.f_code
        inside = _in_package.get(code)
        if inside is None:
            if len(_in_package) > 100_000:  # generated code (exec) must not pile up
                _in_package.clear()
            inside = _in_package[code] = code.co_filename.startswith(_PKG_DIR)
        if not inside:
            return (code.co_filename, f.f_lineno)
        f = f.f_back
    return ("<lazyten>", 0)


# Leaf types whose values compare exactly once their types match (no NaN, no
# -0.0, no 1 == 1.0 == True across types).
_EXACT_LEAVES = frozenset({int, bool, str, type(None)})
# Tags a tuple of exact leaves in a key; no attribute value can be this object.
_EXACT = object()


def _hashable(v: Any) -> Any:
    """``v`` (an attribute value) as a hashable key that equals another's
    exactly when the two values are the same constant.

    1 == 1.0 == True hash alike but are different constants, so scalars are
    tagged with their type; floats, complex and NumPy scalars compare by repr,
    so NaN equals NaN and -0.0 differs from 0.0.  This runs for every node
    built with attributes, so the usual ones (ints, None, strings, and tuples
    of them: axes, shapes, index items) are tested first, by exact type, and a
    tuple of exact leaves is keyed by its item types and itself, without a
    call per item.
    """
    t = type(v)
    if t is int or t is bool:
        return (t, v)
    if v is None or t is str:
        return v
    if t is tuple or t is list:
        types = tuple(map(type, v))
        if _EXACT_LEAVES.issuperset(types):
            return (_EXACT, types, tuple(v))
        out = []
        for x in v:  # loops, not comprehensions: each of those is a call (3.11)
            out.append(_hashable(x))
        return tuple(out)
    if t is dict:
        items = []
        for k, x in v.items():
            items.append((k, _hashable(x)))
        items.sort()
        return tuple(items)
    if isinstance(v, (bool, int, float, complex, np.generic)):
        return (t.__name__, repr(v))
    if isinstance(v, (tuple, list)):
        return tuple([_hashable(x) for x in v])
    if isinstance(v, dict):
        return tuple(sorted([(k, _hashable(x)) for k, x in v.items()]))
    return v


def intern(op: OpSpec, inputs: tuple[Node, ...], attrs: dict[str, Any], shape: Shape,
           dtype: np.dtype[Any], source: tuple[str, int], weak: bool = False,
           unique: bool = False, value: Any = None, key: Any = None) -> Node:
    """The node for ``op(inputs, attrs)``: an existing identical one, or a new one.

    ``unique`` nodes (user inputs, placeholders) are never shared.  ``key``
    replaces the generic key (a hot caller that knows a cheaper exact one).
    """
    if unique:
        return Node(op, inputs, attrs, shape, dtype, source, weak, value)
    if key is None:
        key = intern_key(op, inputs, attrs, dtype, weak)
    ref = _intern.get(key)
    if ref is not None:
        node = ref()
        if node is not None:
            return node
    node = Node(op, inputs, attrs, shape, dtype, source, weak, value)
    ref = _KeyedRef(node, _forget)
    ref.key = key
    while True:
        # setdefault is one atomic step: of two threads building the same node,
        # one inserts and the other gets that node back (and drops its own,
        # whose callback then finds a live entry and leaves it).
        found = _intern.setdefault(key, ref)
        if found is ref:
            return node
        other = found()
        if other is not None:
            return other
        # A dead entry whose callback has not run yet: clear it and retry.
        _remove_dead_weakref(_intern, key)


def intern_key(op: OpSpec, inputs: tuple[Node, ...], attrs: dict[str, Any],
               dtype: np.dtype[Any], weak: bool = False, attrs_key: Any = None) -> Any:
    """The key under which ``intern`` shares a node (``attrs_key``:
    ``_hashable(attrs)``, when the caller has it already).

    An elementwise node without attributes is identified by its op and inputs
    alone: its shape and dtype are functions of them (and it is never weak), so
    the short key finds the same nodes as the general one, and it is cheaper to
    build and hash on the hottest path of all.
    """
    if not attrs and op.kind == "elementwise":
        if len(inputs) == 2:  # most nodes: no list built (a call, in 3.11)
            return (op.name, inputs[0].id, inputs[1].id)
        return (op.name, *[n.id for n in inputs])
    if attrs_key is None:
        attrs_key = _hashable(attrs) if attrs else ()
    return (op.name, tuple([n.id for n in inputs]), attrs_key, dtype, weak)


def toposort(outputs: Iterable[Node], stop_at_values: bool = True) -> list[Node]:
    """All nodes the outputs depend on, inputs first.

    With ``stop_at_values`` a node whose value is cached is a leaf: what it was
    computed from is not needed again.  Iterative; ids give the order.
    """
    seen: dict[int, Node] = {}
    stack = list(outputs)
    while stack:
        n = stack.pop()
        if n.id in seen:
            continue
        seen[n.id] = n
        if stop_at_values and n.value is not None:
            continue
        stack.extend(n.inputs)  # seen ones are skipped when popped: cheaper than a filter
    return [seen[k] for k in sorted(seen)]


def consumers(order: Sequence[Node]) -> dict[int, list[Node]]:
    """node id -> the nodes (in ``order``) that read it."""
    out: dict[int, list[Node]] = {n.id: [] for n in order}
    for n in order:
        if n.value is not None and n.op.kind != "source":
            continue
        for i in n.inputs:
            if i.id in out:
                out[i.id].append(n)
    return out
