"""Graph verifier: re-check every node a set of outputs depends on.

A node's shape and dtype are inferred once, when it is built.  A rewrite pass
that builds nodes by hand (or edits attributes) can break that promise without
anything failing until a kernel produces garbage.  ``verify_graph`` re-runs each
node's inference from its inputs and compares:

- arity: ``len(inputs)`` is what the op takes;
- order: every input has a smaller id (ids are a topological order, so this
  also proves the graph acyclic);
- shape: ``spec.infer(inputs, attrs)`` gives the stored shape;
- dtype: ``spec.dtype`` (or NumPy itself, via ``probe_dtype``) gives the
  stored dtype, and a view has its input's dtype;
- cached values: a node's cached value (or a source's array) has the node's
  shape and dtype (a cached operation, whose inputs were dropped, only this).

It walks the graph with an explicit stack (no recursion: 100,000-node chains
are fine) and raises ``GraphError`` naming the first bad node as ``%id op``.

>>> import lazyten as lt
>>> x = lt.asarray([1.0, 2.0])
>>> verify_graph([(x * 2 + 1).sum().node])
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .node import Node, Shape
from .ops import KINDS, OpSpec, probe_dtype


class GraphError(AssertionError):
    """A graph breaks an invariant: a lazyten bug (usually in a rewrite pass)."""


def _name(node: Node) -> str:
    op = getattr(node.op, "name", repr(node.op))
    return f"%{node.id} {op}"


def _fail(node: Node, what: str) -> GraphError:
    where = ""
    try:
        where = f" (built at {node.where})"
    except Exception:  # a corrupted node may lack a usable source
        pass
    return GraphError(f"{_name(node)}: {what}{where}")


def _is_shape(shape: Any) -> bool:
    return isinstance(shape, tuple) and all(
        isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0 for d in shape)


def _reachable(outputs: Sequence[Node]) -> list[Node]:
    """Every node the outputs depend on (through cached values too), by id.

    Unlike ``toposort`` this does not trust ids: a cycle or an input with a
    larger id is found by ``_check_node`` rather than looping forever.
    """
    seen: dict[int, Node] = {}
    stack = list(outputs)
    while stack:
        n = stack.pop()
        if not isinstance(n, Node):
            raise GraphError(f"not a Node: {n!r}")
        if id(n) in seen:
            continue
        seen[id(n)] = n
        stack.extend(i for i in n.inputs if id(i) not in seen)
    return sorted(seen.values(), key=lambda n: n.id)


def _check_node(node: Node, ids: dict[int, Node]) -> None:
    spec = node.op
    if not isinstance(spec, OpSpec):
        raise _fail(node, f"op is {spec!r}, not an OpSpec")
    if spec.kind not in KINDS:
        raise _fail(node, f"unknown op kind {spec.kind!r}")
    other = ids.get(node.id)
    if other is not None and other is not node:
        raise _fail(node, f"two different nodes share id {node.id}")
    ids[node.id] = node
    if not isinstance(node.inputs, tuple):
        raise _fail(node, f"inputs must be a tuple, got {type(node.inputs).__name__}")
    if node.value is not None and not node.inputs and spec.kind != "source":
        # A cached operation: its inputs were dropped (``executor.cache``),
        # its value stands for it.
        if not _is_shape(node.shape):
            raise _fail(node, f"shape {node.shape!r} is not a tuple of non-negative ints")
        _check_value(node)
        return
    if spec.arity is not None and len(node.inputs) != spec.arity:
        raise _fail(node, f"arity: {spec.name} takes {spec.arity} inputs, node has "
                          f"{len(node.inputs)}")
    for k, i in enumerate(node.inputs):
        if i.id >= node.id:
            # Inputs are built before their consumers, so this is either a
            # cycle or a node whose inputs were swapped after construction.
            raise _fail(node, f"input {k} is %{i.id} {i.op.name}, whose id is not smaller "
                              f"(ids must be a topological order; is there a cycle?)")
    if not _is_shape(node.shape):
        raise _fail(node, f"shape {node.shape!r} is not a tuple of non-negative ints")
    if not isinstance(node.dtype, np.dtype):
        raise _fail(node, f"dtype {node.dtype!r} is not a numpy.dtype")
    if node.weak and spec.name != "const":
        raise _fail(node, "only const nodes can be weak (Python scalars)")

    try:
        shape, attrs = spec.infer(node.inputs, dict(node.attrs))
    except Exception as e:  # noqa: BLE001 - any failure to re-infer is the finding
        raise _fail(node, f"shape inference fails on its own inputs and attrs: "
                          f"{type(e).__name__}: {e}") from None
    if tuple(shape) != node.shape:
        raise _fail(node, f"shape: stored {node.shape}, inference gives {tuple(shape)}")
    # Attributes are not compared with the re-inferred ones: equivalent forms
    # (an empty reversed slice as (-1, -1, -1) or (0, 0, -1)) are both correct.

    try:
        if spec.dtype is not None:
            dtype = spec.dtype(node.inputs, attrs)
        else:
            dtype = probe_dtype(spec, node.inputs, attrs)
    except Exception as e:  # noqa: BLE001
        raise _fail(node, f"dtype rule fails on its own inputs: {type(e).__name__}: {e}") \
            from None
    if np.dtype(dtype) != node.dtype:
        raise _fail(node, f"dtype: stored {node.dtype}, the dtype rule gives {dtype}")

    if spec.view_of is not None and spec.name != "view_dtype":   # (reads bytes as another)
        base = node.inputs[spec.view_of]
        if base.dtype != node.dtype:
            raise _fail(node, f"view of %{base.id} must keep its dtype {base.dtype}, "
                              f"has {node.dtype}")
    _check_value(node)


def _check_value(node: Node) -> None:
    v = node.value
    if v is None or node.weak:
        return
    if not isinstance(v, (np.ndarray, np.generic)):
        raise _fail(node, f"cached value is a {type(v).__name__}, not an ndarray")
    got: Shape = tuple(np.shape(v))
    if got != node.shape or v.dtype != node.dtype:
        raise _fail(node, f"cached value is {v.dtype}{list(got)}, node is {node.type_str()}")


def verify_graph(outputs: Sequence[Node]) -> None:
    """Check every node reachable from ``outputs``; raise ``GraphError`` on the first bad one.

    Nodes are checked inputs first, so the error names the earliest broken
    node rather than a consumer that merely inherited a wrong shape.
    """
    ids: dict[int, Node] = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for n in _reachable(outputs):
            _check_node(n, ids)


__all__ = ["GraphError", "verify_graph"]
