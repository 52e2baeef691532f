"""Immutable graph nodes, hash-consed at construction.

A ``Node`` is one operation applied to input nodes with attributes; its shape
and dtype are inferred when it is built (``apply``), so a bad shape raises on
the user's line.  Building the same op on the same inputs with the same
attributes returns the *same* node (tinygrad's ``ucache``): common
subexpressions are shared for free, and a value cached on a node serves every
graph that contains it.  (An operator's node may stay *pending*, outside the
table, until something reads it: ``entered`` then gives the table's node, so
what anyone but the plan cache sees is hash-consed all the same.)

Node ids grow monotonically and a node's inputs always exist before it does,
so sorting by id is a topological order; nothing here recurses over a graph.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import weakref
from _weakref import _remove_dead_weakref  # type: ignore[attr-defined]  # no stub
from collections.abc import Iterable, Sequence
from types import CodeType, FrameType
from typing import TYPE_CHECKING, Any

import numpy as np

from .shapes import sized_at_call

if TYPE_CHECKING:
    from .ops import OpSpec

Shape = tuple[int, ...]

_ids = itertools.count(1)
_new = object.__new__


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
# NumPy's own Python frames are passed over too: ``np.sum(t, axis=3)`` calls
# ``t.sum`` from fromnumeric.py, and the line to blame is the user's.
_SKIPPED_DIRS = (_PKG_DIR, os.path.dirname(os.path.abspath(np.__file__)) + os.sep)


class Node:
    """One operation in the graph.  Never mutated after construction, except
    for ``value`` (the cached result, written once, atomically), on a
    pending node ``pending``/``canon`` when it is entered (``entered``), and
    the caches of what follows from it (``layout``, ``akey``)."""

    __slots__ = ("id", "op", "inputs", "attrs", "shape", "dtype", "weak", "source",
                 "value", "skey", "leaves", "sepoch", "scount", "pending", "canon",
                 "layout", "akey", "__weakref__")

    id: int
    op: OpSpec
    inputs: tuple[Node, ...]
    attrs: dict[str, Any]
    shape: Shape
    dtype: np.dtype[Any]
    weak: bool                    # a Python scalar constant (NEP 50 weak typing)
    source: tuple[str, int]       # (file, line) of the user's code that built it
    value: np.ndarray[Any, Any] | None
    # The structural summary (``summarize``), kept up to date as the graph is
    # built so the plan cache needs no walk: the structure's id (0: none), the
    # distinct leaves in the structure's order, the values epoch it was made
    # in, and an upper bound on the node count.  A leaf's leaves are itself,
    # stored as None: ``(self,)`` would make every leaf a reference cycle,
    # whose array (often large) only the cyclic collector would free.
    skey: int
    leaves: tuple[Node, ...] | None
    sepoch: int
    scount: int
    # A node an operator made without entering it in the intern table
    # (``intern_elementwise(enter=False)``), and, once entered, the table's
    # node it stands for (itself entered: ``pending`` is then False).
    pending: bool
    canon: Node | None
    # The memory layout of the node's data once known (``graph.layout.infer``):
    # "C", "F" or strides; None while not known.  Written once, like value:
    # a known layout does not change, and remembering it spares the walks
    # over long chains (a loop of whole writes) every later query made.
    layout: str | tuple[int, ...] | None
    # ``_hashable(attrs)`` (``()`` without attrs), once made (``attrs_key``):
    # the plan cache's signature reads it on every evaluation of a graph
    # walked (an index's slices, 2-4 us a node each time).
    akey: Any

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
        self.pending = False
        self.canon = None
        self.layout = None
        self.akey = None

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


class Lines(dict[int, tuple[str, int]]):
    """One code object's ``{instruction offset: (file, line)}`` (an offset's
    line never changes), holding the code object whose id keys it in
    ``_lines``: alive, its id is not another's."""

    __slots__ = ("code",)

    def __init__(self, code: CodeType | None) -> None:
        super().__init__()
        self.code = code


# Code objects are looked up by id, not by themselves: a code object's hash
# hashes its constants, 3 us for a function of 70 (measured), on every node
# built from it.
# id(code) -> (code, whether it is lazyten's or NumPy's own): every node
# built walks a few frames, and a dict lookup is cheaper than comparing paths.
_in_package: dict[int, tuple[CodeType, bool]] = {}
# id(the user's code) -> its calls that built nodes (``Lines``), filled by
# ``user_source``: an operator finds its caller's line as
# ``_lines.get(id(f.f_code), NO_LINES).get(f.f_lasti)``, where
# ``f.f_lineno`` decodes the code's line table on every read.
_lines: dict[int, Lines] = {}
# What ``_lines`` gives for code it has not seen, lazyten's own among it: never written.
NO_LINES = Lines(None)
_MAX_CODES = 100_000         # generated code (exec) must not pile up


def user_source() -> tuple[str, int]:
    """The first stack frame outside the lazyten package (and NumPy's, which
    calls a tensor's methods from its functions): the line to blame."""
    f: FrameType | None = sys._getframe(1)
    while f is not None:
        code = f.f_code
        lines = _lines.get(id(code))
        if lines is not None:                # the user's code, seen before
            src = lines.get(f.f_lasti)
            if src is None:
                src = lines[f.f_lasti] = (code.co_filename, f.f_lineno)
            return src
        known = _in_package.get(id(code))
        if known is None:
            if len(_in_package) > _MAX_CODES:
                _in_package.clear()
            known = _in_package[id(code)] = (code, code.co_filename.startswith(_SKIPPED_DIRS))
        if not known[1]:
            if len(_lines) > _MAX_CODES:
                _lines.clear()
            lines = _lines[id(code)] = Lines(code)
            src = lines[f.f_lasti] = (code.co_filename, f.f_lineno)
            return src
        f = f.f_back
    return ("<lazyten>", 0)


# Leaf types whose values compare exactly once their types match (no NaN, no
# -0.0, no 1 == 1.0 == True across types).
_EXACT_LEAVES = frozenset({int, bool, str, type(None)})
# Tags a tuple of exact leaves in a key; no attribute value can be this object.
_EXACT = object()
_INT_OR_NONE = frozenset({int, type(None)})


def scalar_key(v: Any) -> Any:
    """A scalar's key: its repr (1 from 1.0, -0.0 from 0.0, NaN equal to
    NaN), with a NaN's bits, whose sign and payload its repr drops
    (``copysign(1, x + -nan)`` is -1)."""
    r = repr(v)
    return (r, np.asarray(v).tobytes()) if "nan" in r else r


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
            if type(x) is slice:             # an index's slices: no call each
                a, b, c = x.start, x.stop, x.step
                if type(a) in _INT_OR_NONE and type(b) in _INT_OR_NONE \
                        and type(c) in _INT_OR_NONE:
                    out.append((slice, a if a is None else (int, a),
                                b if b is None else (int, b), c if c is None else (int, c)))
                    continue
            out.append(_hashable(x))
        return tuple(out)
    if t is dict:
        if len(v) == 1:                      # most attrs (axes, index, shape)
            for k, x in v.items():
                return ((k, _hashable(x)),)
        items = []
        for k, x in v.items():
            items.append((k, _hashable(x)))
        items.sort()
        return tuple(items)
    if t is slice:                           # (unhashable before Python 3.12)
        return (slice, _hashable(v.start), _hashable(v.stop), _hashable(v.step))
    if isinstance(v, (bool, int, float, complex, np.generic)):
        return (t.__name__, scalar_key(v))
    if isinstance(v, (tuple, list)):
        return tuple([_hashable(x) for x in v])
    if isinstance(v, dict):
        return tuple(sorted([(k, _hashable(x)) for k, x in v.items()]))
    return v


def attrs_key(n: Node) -> Any:
    """``_hashable(n.attrs)`` (``()`` without attrs), made once (``Node.akey``)."""
    k = n.akey
    if k is None:
        k = n.akey = _hashable(n.attrs) if n.attrs else ()
    return k


def intern(op: OpSpec, inputs: tuple[Node, ...], attrs: dict[str, Any], shape: Shape,
           dtype: np.dtype[Any], source: tuple[str, int], weak: bool = False,
           unique: bool = False, value: Any = None, key: Any = None,
           attrs_key: Any = None) -> Node:
    """The node for ``op(inputs, attrs)``: an existing identical one, or a new one.

    ``unique`` nodes (user inputs, placeholders) are never shared.  ``key``
    replaces the generic key (a hot caller that knows a cheaper exact one);
    ``attrs_key`` is ``_hashable(attrs)`` when the caller has it already.
    """
    if unique:
        node = Node(op, inputs, attrs, shape, dtype, source, weak, value)
        if op.kind == "source":
            _summarize_leaf(node)
        else:
            _no_summary(node)           # never shared: no structure stands for it
        return node
    if key is None:
        if attrs_key is None:
            attrs_key = _hashable(attrs) if attrs else ()
        key = intern_key(op, inputs, attrs, dtype, weak, attrs_key)
    ref = _intern.get(key)
    if ref is not None:
        found = ref()
        if found is not None:
            if not attrs and found.skey and op.kind == "elementwise":
                # Built again (``2.0 * A[1:-1]`` on a statement's second line):
                # the next node of the found one's structure is entered as an
                # operator makes it (``intern_elementwise``), so that the
                # second line finds it again.  Left pending, the second
                # line's copy was entered first in the next run of a loop,
                # and the line the graph keeps changed from run to run, each
                # a new structure to plan (heat_3d planned in its first five).
                _note_entered(found.skey)
            return found
    node = Node(op, inputs, attrs, shape, dtype, source, weak, value)
    if inputs:
        if attrs_key is None:
            attrs_key = _hashable(attrs) if attrs else ()
        node.akey = attrs_key
        _summarize(node, inputs, attrs_key, _epoch)
    elif op.name == "const":
        # A constant's intern key names it exactly (no input ids), and it is
        # never given a value (a source), so its summary never goes stale.
        node.skey = _struct_id(("c", key))
        node.leaves, node.sepoch, node.scount = (), _NEVER_STALE, 1
    else:
        # A creation op (zeros, arange, ...) is named by its key and line too,
        # but can be given a value, so its summary lasts for this epoch.
        node.skey = _struct_id((key, source))
        node.leaves, node.sepoch, node.scount = (), _epoch, 1
    return _insert(key, node)


def _insert(key: Any, node: Node) -> Node:
    """Enter the new ``node`` under ``key``; the node already there if another
    thread entered one first."""
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


# ---------------------------------------------------------------- structural summaries
#
# The plan cache finds the plan of a graph with the same *structure* (ops,
# attributes, shapes, dtypes, constants, source lines and wiring, any leaf
# arrays).  Rather than walk the graph on every evaluation, each node built
# gets a summary from its inputs' summaries: an integer naming its structure
# and the distinct leaves under it, in the structure's order.  Hash-consing
# makes this exact: equal subexpressions over the same leaves are one node
# (pending ones become one when entered), so a graph is fixed by its tree of
# structures and which leaves coincide.
#
# A node given a value (``cache``) becomes a leaf for graphs built after it,
# but summaries made before still count it as an operation.  So caching any
# value starts a new epoch, and a summary is trusted only in the epoch it was
# made in (the plan cache walks the graph otherwise): coarse, but one integer
# compare, and a loop that builds and evaluates fresh graphs stays in one.

# structure -> its id; for attribute-less elementwise structures, which also
# fix the node's shape and dtype, structure -> (id, shape, dtype), so such a
# node built again needs no inference (``intern_elementwise``).  Ids are never
# reused (the counter only grows), so a table can be cleared at any time: a
# structure then gets a new id, which only costs a plan-cache miss.
_struct_ids: dict[Any, int] = {}
_elementwise_structs: dict[Any, tuple[int, Shape, np.dtype[Any]]] = {}
# Ids of elementwise structures whose pending nodes were entered: an operator
# enters their nodes as it builds them (``intern_elementwise``).
_entered_structs: set[int] = set()
_struct_counter = itertools.count(1)
_STRUCTS_MAX = 100_000
_NEVER_STALE = sys.maxsize      # the epoch of leaves and constants: nothing under them
# Summaries stop (skey 0: the plan cache walks) above these sizes: the plan
# cache does not keep plans of larger graphs, and merging leaf tuples grows
# with their length.
SUMMARY_NODES = 2000
SUMMARY_LEAVES = 64


def _note_entered(skey: int) -> None:
    """Note the elementwise structure ``skey`` as entered (``_entered_structs``)."""
    if len(_entered_structs) >= _STRUCTS_MAX:
        _entered_structs.clear()
    _entered_structs.add(skey)


_epochs = itertools.count(1)
_epoch = next(_epochs)


def values_changed() -> None:
    """A node was given a value: every summary made before is stale."""
    global _epoch
    # next() is one atomic step, so of two threads caching values at once
    # neither can undo the other's new epoch (``_epoch += 1`` could).
    _epoch = next(_epochs)


def summary_current(node: Node) -> bool:
    """Whether ``node``'s summary describes its graph as it is now."""
    return node.skey != 0 and (node.sepoch == _epoch or node.sepoch == _NEVER_STALE)


def graph_summary(outputs: Sequence[Node]) -> tuple[Any, list[Node]] | None:
    """The structure of the graph computing ``outputs`` and its leaves in the
    structure's order, from the outputs' summaries; None unless every output
    is an operation without a value whose summary is current."""
    if len(outputs) == 1:                    # most evaluations: no merging
        o = outputs[0]
        ol = o.leaves
        if not o.inputs or o.value is not None or not summary_current(o) or ol is None:
            return None                      # (None: a leaf's; an op has its tuple)
        return ((o.skey, None),), list(ol)
    leaves: tuple[Node, ...] = ()
    parts = []
    for o in outputs:
        ol = o.leaves
        if not o.inputs or o.value is not None or not summary_current(o) or ol is None:
            return None
        leaves, how = _wire(leaves, ol)
        parts.append((o.skey, how))
    return tuple(parts), list(leaves)


def _struct_id(item: Any) -> int:
    sid = _struct_ids.get(item)
    if sid is None:
        if len(_struct_ids) >= _STRUCTS_MAX:
            _struct_ids.clear()
        sid = _struct_ids.setdefault(item, next(_struct_counter))
    return sid


def _no_summary(node: Node) -> None:
    node.skey, node.leaves, node.sepoch, node.scount = 0, (), 0, 0


def without_summary(node: Node) -> Node:
    """``node`` (a new leaf) with no summary, so that nothing built over it
    has one either: for graphs no summary will stand for (the plan cache's
    templates), whose nodes then skip summarizing at one failed check each."""
    _no_summary(node)
    return node


def _summarize_leaf(node: Node) -> None:
    node.skey = _struct_id(("s", node.shape, node.dtype))
    node.leaves, node.sepoch, node.scount = None, _NEVER_STALE, 1   # None: (node,)


# A view of a leaf (``a[i]``, ``a[2:5].T`` of a user's array or a computed
# value) is a leaf too, to the summaries and the plan cache's walk alike: its
# value is NumPy's view of the value under it, taken when a plan binds its
# leaves (``exec.reference.view_leaf_value``).  Each index was a structure of
# its own, so a loop reading ``a[i] > 0`` planned one per ``i`` (each 100-170
# us, seen twice) and filled the plan cache; now every ``i`` shares one
# plan.  A view leaf is the one node with inputs whose summary's leaves are
# None (a leaf's own mark; a value drops its node's inputs), so telling one
# costs no walk down its chain; one made before the value under it was given
# has a stale summary, and the walk sees it as the operation it was summarized
# as.
def is_leaf(n: Node) -> bool:
    """Whether ``n`` is a leaf of the graphs built over it: a value, a
    source (a user's array, a placeholder) or a view of one."""
    return n.value is not None or n.leaves is None


def is_view_leaf(n: Node) -> bool:
    """Whether ``n`` is a view summarized as a leaf (``is_leaf``)."""
    return n.value is None and n.leaves is None and bool(n.inputs)


def _input_summary(i: Node, epoch: int) -> tuple[int, tuple[Node, ...], int]:
    """An input's (structure id, leaves, node count) as a consumer built in
    ``epoch`` sees it; structure id 0 when it has no current summary.

    A summary of this epoch (or a leaf's or constant's) is current, and its
    node has no value: giving one starts a new epoch."""
    se = i.sepoch
    if se == epoch or se == _NEVER_STALE:
        il = i.leaves
        return i.skey, (i,) if il is None else il, i.scount
    if i.value is not None:
        return _struct_id(("s", i.shape, i.dtype)), (i,), 1   # a cached value: a leaf now
    return 0, (), 0


def _wire(leaves: tuple[Node, ...], il: tuple[Node, ...]) -> tuple[tuple[Node, ...], Any]:
    """The leaves with an input's leaves ``il`` merged in, and how they were
    merged: None when all are new (appended in order), the number of leaves
    when ``il`` is the leaves so far, else each one's position."""
    if not leaves:
        return il, None
    if not il:
        return leaves, None
    if il is leaves or il == leaves:          # x * x: the commonest overlap
        return leaves, len(il)
    for x in il:  # loops, not comprehensions: each of those is a call (3.11)
        if x in leaves:                       # identity: Node has no __eq__
            break
    else:
        return leaves + il, None
    merged = list(leaves)
    wires = []
    for x in il:
        if x in merged:
            wires.append(merged.index(x))
        else:
            wires.append(len(merged))
            merged.append(x)
    return tuple(merged), tuple(wires)


def _elementwise_item(op: OpSpec, ins: tuple[Node, ...], source: tuple[str, int],
                      epoch: int) -> tuple[Any, tuple[Node, ...], int] | None:
    """The structure of an attribute-less elementwise node of one or two
    inputs, its leaves and node count; None when an input has no current
    summary.  Shape, dtype and weakness are left out: the inputs' fix them."""
    k0, leaves, count = _input_summary(ins[0], epoch)
    if k0 == 0:
        return None
    if len(ins) == 1:
        return (op.name, source, k0), leaves, count + 1
    k1, l1, c1 = _input_summary(ins[1], epoch)
    if k1 == 0:
        return None
    leaves, how = _wire(leaves, l1)
    return (op.name, source, k0, k1, how), leaves, count + c1 + 1


def _summarize(node: Node, inputs: tuple[Node, ...], attrs_key: Any, epoch: int) -> None:
    """Set ``node``'s summary from its inputs' (``epoch``: the current one).

    Its structure is (op, source line, attributes, shape, dtype, weak) and per
    input the input's structure id and how its leaves merge into the node's
    (``_wire``), so equal ids mean equal graphs up to the leaves' arrays, with
    leaves in the same order.
    """
    op = node.op
    if op.kind == "view" and len(inputs) == 1 and is_leaf(inputs[0]):
        return _summarize_leaf(node)
    if len(inputs) <= 2 and not attrs_key and op.kind == "elementwise":
        got = _elementwise_item(op, inputs, node.source, epoch)
        if got is None:
            return _no_summary(node)
        item, leaves, count = got
        if count > SUMMARY_NODES or len(leaves) > SUMMARY_LEAVES:
            return _no_summary(node)
        hit = _elementwise_structs.get(item)
        if hit is None:
            if len(_elementwise_structs) >= _STRUCTS_MAX:
                _elementwise_structs.clear()
            hit = _elementwise_structs.setdefault(
                item, (next(_struct_counter), node.shape, node.dtype))
        node.skey, node.leaves, node.sepoch, node.scount = hit[0], leaves, epoch, count
        return None
    parts: list[Any] = [op.name, node.source, attrs_key, node.shape, node.dtype, node.weak]
    leaves = ()
    count = 1
    for i in inputs:
        k, il, c = _input_summary(i, epoch)
        if k == 0:
            return _no_summary(node)
        leaves, how = _wire(leaves, il)
        parts += (k, how)
        count += c
        if count > SUMMARY_NODES or len(leaves) > SUMMARY_LEAVES:
            # At once, not after the loop: merging leaves costs their number
            # per input, quadratic for a stack of 10,000 operands.
            return _no_summary(node)
    node.skey = _struct_id(tuple(parts))
    node.leaves, node.sepoch, node.scount = leaves, epoch, count
    return None


# The attrs of every attribute-less node an operator makes: one dict, never
# written (no code writes into a node's attrs; rewrites build new dicts).
_NO_ATTRS: dict[str, Any] = {}


def intern_elementwise(op: OpSpec, ins: tuple[Node, ...], source: tuple[str, int],
                       enter: bool = True) -> Node | None:
    """The attribute-less elementwise node ``op(ins)`` (one or two inputs),
    found or made from its inputs' summaries alone when this structure was
    built before: its shape and dtype are then known, no inference needed.
    None otherwise: the caller infers and calls ``intern``.

    Without ``enter`` a node not found is made *pending*: not entered in the
    intern table until something needs it as a graph node (``entered``), and
    ``ins`` may be pending; unless nodes of its structure were entered before
    and its inputs are not pending (then it is entered as it is made).  That is for operators, whose results most often
    live only until the plan cache has run them from their summaries: the
    table's weak entry, its insertion and its removal when the node dies were
    a tenth of building and evaluating a small expression.

    ``_elementwise_item`` written out for current inputs: this is the path
    of nearly every operator on small arrays, where calls are the cost."""
    if len(ins) > 2:
        return None
    epoch = _epoch
    a = ins[0]
    se = a.sepoch
    if se != epoch and se != _NEVER_STALE:
        return None                          # a value or a stale summary: the general path
    b: Node | None = None
    if len(ins) == 1:
        item: Any = (op.name, source, a.skey)
        leaves = a.leaves
        if leaves is None:
            leaves = (a,)                    # a leaf (see Node.leaves)
        count = a.scount + 1
        key: Any = (op.name, a.id)
    else:
        b = ins[1]
        se = b.sepoch
        if se != epoch and se != _NEVER_STALE:
            return None
        la, lb = a.leaves, b.leaves
        if la is None:
            la = (a,)                        # a leaf (see Node.leaves)
        if lb is None:
            lb = (b,)
        if not lb:
            leaves, how = la, None
        elif not la:
            leaves, how = lb, None
        elif lb is la or lb == la:
            leaves, how = la, len(la)
        elif len(la) == 1 == len(lb):         # two different leaves: a * b
            leaves, how = la + lb, None
        else:
            leaves, how = _wire(la, lb)
        item = (op.name, source, a.skey, b.skey, how)
        count = a.scount + b.scount + 1
        key = (op.name, a.id, b.id)
    hit = _elementwise_structs.get(item)     # (an input without summary has skey 0: no hit)
    if hit is None or count > SUMMARY_NODES or len(leaves) > SUMMARY_LEAVES:
        return None
    # No entered node has a pending input: with one, there is nothing to find.
    over_pending = a.pending or (b is not None and b.pending)
    ref = None if over_pending else _intern.get(key)
    if ref is not None:
        found = ref()
        if found is not None:
            return found
    # Node(op, ins, {}, shape, dtype, source) with its summary, written out:
    # the call of __init__ was a tenth of building the node.
    # One store a statement: ``a.x, a.y = x, y`` builds and unpacks a tuple.
    node = _new(Node)
    node.id = next(_ids)
    node.op = op
    node.inputs = ins
    node.attrs = _NO_ATTRS
    node.shape = hit[1]
    node.dtype = hit[2]
    node.weak = False
    node.source = source
    node.value = None
    node.canon = None
    node.layout = None
    node.akey = ()
    node.skey = hit[0]
    node.leaves = leaves
    node.sepoch = epoch
    node.scount = count
    # Left pending unless nodes of this structure were entered before (a
    # loop that evaluates with .eval() enters what it builds: entering as it
    # is built is cheaper than entering later).
    if enter or (not over_pending and hit[0] in _entered_structs):
        node.pending = False
        return _insert(key, node)
    node.pending = True
    return node


# (view op, source line, input's structure id, key of the attrs as given) ->
# (structure id, shape, normalized attrs, their key, dtype): one-input views
# (``x[i]``, ``t.T``) built before in this structure, so that the same view of
# a same-structured input needs neither inference nor a summary's tuple.
# Entries are made by ``remember_view`` from nodes built the general way, so
# both ways give a structure one id.
_view_structs: dict[Any, tuple[int, Shape, dict[str, Any], Any, np.dtype[Any]]] = {}


def intern_view(op: OpSpec, x: Node, given_key: Any, source: tuple[str, int]) -> Node | None:
    """The view ``op(x)`` of attrs whose key (``_hashable``) is ``given_key``,
    found or made from ``x``'s summary when this structure was built before
    (``remember_view``); None otherwise: the caller infers and interns."""
    epoch = _epoch                           # (read once: another thread may start a new one)
    se = x.sepoch
    if not x.skey or (se != epoch and se != _NEVER_STALE):
        return None
    hit = _view_structs.get((op.name, source, x.skey, given_key))
    count = x.scount + 1
    if hit is None or count > SUMMARY_NODES:
        return None
    sid, shape, attrs, attrs_key, dtype = hit
    key = intern_key(op, (x,), attrs, dtype, attrs_key=attrs_key)
    ref = _intern.get(key)
    if ref is not None:
        found = ref()
        if found is not None:
            return found
    # Its summary as ``_summarize`` would make it: a leaf's view is a leaf;
    # otherwise a one-input node's leaves are its input's.
    node = Node(op, (x,), attrs, shape, dtype, source)
    leaves = x.leaves
    node.skey = sid
    if leaves is None or x.value is not None:
        node.leaves, node.sepoch, node.scount = None, _NEVER_STALE, 1
    else:
        node.leaves, node.sepoch, node.scount = leaves, epoch, count
    return _insert(key, node)


def remember_view(node: Node, given_key: Any, source: tuple[str, int],
                  attrs_key: Any) -> None:
    """Let ``intern_view`` make views like ``node`` (one input, just built
    from attrs of key ``given_key`` at ``source``; ``attrs_key``: its own
    attrs' key).  Only a node summarized in this epoch from its input's
    current summary at this line is one a new node would equal: a node found
    in the table may date from another line or epoch."""
    x = node.inputs[0]
    if (not summary_current(node) or node.source != source
            or node.weak or not summary_current(x)
            or (node.sepoch != _epoch and not is_view_leaf(node))):
        return
    if len(_view_structs) >= _STRUCTS_MAX:
        _view_structs.clear()
    _view_structs[(node.op.name, source, x.skey, given_key)] = (
        node.skey, node.shape, node.attrs, attrs_key, node.dtype)


# Held while a graph is optimized and planned (``optimized.plan_for``) and
# while ``executor.cache`` drops a node's inputs: the passes read a node's
# inputs many times, and another thread caching that node meanwhile left
# them reading ``()`` (a fused program of too few operands, a step without
# arguments).  Executing a plan reads its steps' own copies of the inputs.
STRUCTURE_LOCK = threading.RLock()


def entered(node: Node) -> Node:
    """The intern table's node for ``node``: itself unless it is pending
    (``intern_elementwise(enter=False)``).

    A pending node is entered with its pending inputs, inputs first: each
    becomes the table's equal node where there is one (which may have a
    cached value, as if the operator had found it when it ran), else itself,
    or a copy over the entered inputs when one of those is another node.
    Everything but operators and the plan cache's summary lookup sees
    entered nodes only, so hash-consing holds for them as before.  (A
    pending graph's summary stands for its entered graph up to the lines of
    merged nodes: the entered node keeps the line it was first built on.)"""
    if not node.pending:
        return node
    canon = node.canon
    if canon is not None:
        return canon
    todo: dict[int, Node] = {}
    stack = [node]
    while stack:
        n = stack.pop()
        if n.pending and n.canon is None and n.id not in todo:
            todo[n.id] = n
            stack.extend(n.inputs)
    # Loops written out, no comprehensions or generators (each a call, in
    # 3.11): this runs for every node an operator made that is then read.
    for k in sorted(todo):                   # ids: inputs before their consumers
        n = todo[k]
        ins = n.inputs
        if not ins or not n.pending or n.canon is not None:
            # Entered meanwhile by another thread (and perhaps evaluated and
            # cached, which drops its inputs: read them first, then this)
            continue
        for i in ins:
            if i.pending and i.canon is not None:   # merged into another node
                ins = tuple([_settled(j) for j in ins])
                break
        # intern_key's for an attribute-less elementwise node, as pending ones are
        key = (n.op.name, ins[0].id) if len(ins) == 1 else (n.op.name, ins[0].id, ins[1].id)
        ref = _intern.get(key)
        got = ref() if ref is not None else None
        if got is None:
            if ins is n.inputs:
                got = _insert(key, n)
            else:
                # Its own summary, not n's: a merged input may carry another
                # line than the pending one it replaces.
                copy = Node(n.op, ins, {}, n.shape, n.dtype, n.source)
                _summarize(copy, ins, (), _epoch)
                got = _insert(key, copy)
        _note_entered(n.skey)
        if got is n:
            # Entered itself.  Set only after the insertion: a thread that
            # finds it in the table meanwhile enters it again, finding itself.
            n.pending = False
        else:
            n.canon = got
    return _settled(node)


def _settled(n: Node) -> Node:
    """``n`` or, pending and entered as another node, that node."""
    return n.canon if n.pending and n.canon is not None else n


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


def toposort(outputs: Iterable[Node], stop_at_values: bool = True,
             stop: set[int] | None = None) -> list[Node]:
    """All nodes the outputs depend on, inputs first.

    With ``stop_at_values`` a node whose value is cached is a leaf: what it was
    computed from is not needed again; so is a node whose id is in ``stop``.
    Iterative; ids give the order.
    """
    seen: dict[int, Node] = {}
    stack = list(outputs)
    while stack:
        n = stack.pop()
        if n.id in seen:
            continue
        seen[n.id] = n
        if (stop_at_values and n.value is not None) or (stop is not None and n.id in stop):
            continue
        stack.extend(n.inputs)  # seen ones are skipped when popped: cheaper than a filter
    return [seen[k] for k in sorted(seen)]



# The placeholders with a ``None`` dimension that are alive
# (``symbolic_placeholder``): where there is none, the usual case,
# ``reaches_placeholder`` answers without looking at the graph.
_symbolic_placeholders: weakref.WeakSet[Node] = weakref.WeakSet()


def symbolic_placeholder(node: Node) -> Node:
    """Note ``node``, a new placeholder with a ``None`` dimension."""
    _symbolic_placeholders.add(node)
    return node


def reaches_placeholder(node: Node) -> bool:
    """Whether ``node``'s graph reads a placeholder with a ``None`` dimension
    (a compiled function's input), whose size is only known when the
    function runs.  A placeholder is a leaf, so the structural summary's
    leaves answer; a graph without one (``without_summary``, or deeper than
    ``SUMMARY_NODES``) is walked, unless no such placeholder is alive."""
    if not _symbolic_placeholders:
        return False
    leaves: Sequence[Node]
    if node.skey:
        leaves = (node,) if node.leaves is None else node.leaves
    else:
        leaves = toposort([node])
    for n in leaves:
        while is_view_leaf(n):               # (the source under a view leaf)
            n = n.inputs[0]
        if n in _symbolic_placeholders and n.value is None:
            return True
    return False


def refuse_call_sizes(node: Node, dims: Sequence[int], what: str) -> None:
    """Refuse ``what``, decided now from ``dims`` (sizes in ``node``'s
    graph), where those are a compiled function's None dimensions, known
    only when it runs (a result that would be fixed for every call)."""
    if _symbolic_placeholders and sized_at_call(tuple(dims)) and reaches_placeholder(node):
        raise ValueError(
            f"{what} depends on the size of a None dimension of a compiled function, "
            f"known only when it runs; give the placeholder a fixed size there, or trace "
            f"the computation with @lt.jit")


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
