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
import threading
import weakref
from collections.abc import Iterable, Sequence
from types import CodeType, FrameType
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .ops import OpSpec

Shape = tuple[int, ...]

_ids = itertools.count(1)
_intern: weakref.WeakValueDictionary[tuple[Any, ...], Node] = weakref.WeakValueDictionary()
_intern_lock = threading.Lock()

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


def _hashable(v: Any) -> Any:
    # 1 == 1.0 == True hash alike but are different constants; NaN != NaN would
    # defeat sharing.  Tag scalars with their type and compare by repr.
    if isinstance(v, (bool, int, float, complex, np.generic)):
        return (type(v).__name__, repr(v))
    if isinstance(v, (tuple, list)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
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
        key = (op.name, tuple(n.id for n in inputs), _hashable(attrs) if attrs else (),
               dtype, weak)
    node = _intern.get(key)
    if node is not None:
        return node
    with _intern_lock:
        node = _intern.get(key)
        if node is None:
            node = Node(op, inputs, attrs, shape, dtype, source, weak, value)
            _intern[key] = node
    return node


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
        stack.extend(i for i in n.inputs if i.id not in seen)
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
