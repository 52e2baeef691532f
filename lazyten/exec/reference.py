"""The reference executor: every node runs as its plain NumPy implementation.

This is the judge every optimized result is compared with
(``lt.set_options(optimize=False, backend="numpy")``).  It walks the nodes in
topological order (no recursion, so 100,000-node chains run), frees each
intermediate after its last use, and confirms that every executed shape and
dtype equals the one inferred when the node was built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..graph.node import Node, is_view_leaf, toposort
from .errors import with_provenance


class InferenceMismatch(AssertionError):
    """An executed shape/dtype differs from the inferred one: a lazyten bug."""


def confirm(node: Node, value: Any) -> None:
    """Execution only confirms inference (DESIGN 5.2)."""
    if node.weak:
        return
    shape = np.shape(value)
    dtype = getattr(value, "dtype", None)
    if shape != node.shape or dtype != node.dtype:
        raise InferenceMismatch(
            f"%{node.id} {node.op.name}: inferred {node.type_str()} but NumPy produced "
            f"{dtype}[{','.join(map(str, shape))}] (built at {node.where})")


def run_node(node: Node, args: Sequence[Any]) -> Any:
    try:
        return node.op.impl(*args, **node.attrs)
    except Exception as e:
        with_provenance(e, node)
        raise


def view_leaf_value(n: Node) -> Any:
    """The value of ``n``, a view leaf (``graph.node.is_view_leaf``): NumPy's
    view of the value under its chain of views; None where that is a
    placeholder without one (a function being traced)."""
    chain: list[Node] = []
    while is_view_leaf(n):
        chain.append(n)
        n = n.inputs[0]
    v = n.value                # (a view cached meanwhile by another thread: its own)
    if v is None:
        return None
    for m in reversed(chain):
        v = run_node(m, (v,))
    return v


def unaliased(v: Any, args: Sequence[Any]) -> Any:
    """The result ``v`` of a step that is no view, as a new array where NumPy
    returned an argument or a view of one (``matrix_power(a, 1)`` is ``a``;
    ``einsum('ij->ji', a)`` a view): the plan gave it a buffer of its own,
    which it may write in place or reuse, while the argument lives on (a
    user's array, a cached value, a buffer the plan reuses)."""
    if isinstance(v, np.ndarray) and v.size:
        for a in args:
            if isinstance(a, np.ndarray) and np.may_share_memory(v, a):
                return v.copy()
    return v


def run_reference(outputs: Sequence[Node], order: list[Node] | None = None) -> list[Any]:
    """Values of ``outputs`` (ndarrays, or views of cached/user arrays);
    ``order``: their graph's ``toposort``, where the caller has it."""
    if order is None:
        order = toposort(outputs)
    uses: dict[int, int] = {}
    for n in order:
        if n.value is None:
            for i in n.inputs:
                uses[i.id] = uses.get(i.id, 0) + 1
    keep = {n.id for n in outputs}
    vals: dict[int, Any] = {}
    for n in order:
        # (the inputs first: another thread caching ``n`` meanwhile sets its
        # value, then drops its inputs, ``executor.cache``)
        ins = n.inputs
        if n.value is not None:
            vals[n.id] = n.value
            continue
        args = [vals[i.id] for i in ins]
        v = run_node(n, args)
        if n.op.kind != "view":
            # (NumPy's ``matrix_power(a, 1)``, ``real`` of a real ``a``: ``a``
            # itself, a user's array lt.compute would hand out to be written)
            v = unaliased(v, args)
        confirm(n, v)
        vals[n.id] = v
        for i in ins:
            uses[i.id] -= 1
            if uses[i.id] == 0 and i.id not in keep:
                del vals[i.id]
    return [vals[n.id] for n in outputs]
