"""``verify_graph``: every check fires on a hand-corrupted node, and real graphs pass."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.graph import ops
from lazyten.graph.node import Node
from lazyten.graph.verify import GraphError, verify_graph

SRC = ("test_verify.py", 1)
F64 = np.dtype(np.float64)


def _input(shape: tuple[int, ...] = (3,), dtype: Any = F64) -> Node:
    return ops.source(np.zeros(shape, dtype))


def _raw(name: str, inputs: tuple[Node, ...], attrs: dict[str, Any], shape: tuple[int, ...],
         dtype: Any) -> Node:
    """A node built without inference: whatever we say it is."""
    return Node(ops.REGISTRY[name], inputs, attrs, shape, np.dtype(dtype), SRC)


def _raises(node: Node, *words: str) -> str:
    with pytest.raises(GraphError) as ei:
        verify_graph([node])
    msg = str(ei.value)
    assert f"%{node.id}" in msg or any(f"%{i.id}" in msg for i in node.inputs), msg
    for w in words:
        assert w in msg, msg
    return msg


def test_graph_error_is_an_assertion_error() -> None:
    assert issubclass(GraphError, AssertionError)


def test_real_graphs_verify() -> None:
    a = lt.asarray(np.arange(24.0).reshape(2, 3, 4))
    b = lt.asarray(np.arange(4, dtype=np.int8))
    outs = [a[0, ::-1, None], lt.expand_dims(a, 1), lt.flip(a), a.reshape(6, -1), a.T,
            lt.broadcast_to(b, (3, 4)), a.sum(axis=(0, 2), keepdims=True), a.argmax(axis=1),
            a.var(ddof=1), lt.cumsum(a, axis=1), a @ a.mT, lt.vecdot(a, a),
            lt.einsum("ijk,ijk->i", a, a), lt.concat([a, a], axis=-1),
            lt.take(a, lt.asarray([0, 2]), axis=1), lt.where(a > 2, a, 0), a.astype(np.float16),
            b + 3, 2.5 * b, lt.diagonal(a), lt.full((2, 2), 3.0), lt.arange(5), lt.eye(3)]
    verify_graph([t.node for t in outs])


def test_functional_writes_verify() -> None:
    """setitem / view_update nodes re-infer from their own normalized index."""
    c = lt.asarray(np.zeros((3, 4)))
    c[0, ::-1] = 5
    d = lt.asarray(np.zeros((3, 4)))
    v = d[1:, ::2]
    v[0] = 7
    v += 1
    verify_graph([c.node, d.node, v.node])


def test_cached_values_verify() -> None:
    a = lt.asarray(np.arange(6.0))
    t = (a * 2).sum()
    t.eval()
    verify_graph([(t + 1).node])


def test_shape_mismatch() -> None:
    x = _input((3,))
    bad = _raw("negative", (x,), {}, (4,), F64)
    _raises(bad, "negative", "shape", "(4,)", "(3,)")


def test_dtype_mismatch() -> None:
    x = _input((3,), np.int8)
    bad = _raw("add", (x, x), {}, (3,), np.int16)
    _raises(bad, "add", "dtype", "int16", "int8")


def test_dtype_mismatch_with_weak_scalar() -> None:
    # uint8 + 3 (a Python int, weak) is uint8 under NEP 50, not int64.
    x = _input((3,), np.uint8)
    c = ops.const(3)
    bad = _raw("add", (x, c), {}, (3,), np.int64)
    _raises(bad, "dtype", "uint8")


def test_arity() -> None:
    x = _input()
    bad = _raw("add", (x,), {}, (3,), F64)
    _raises(bad, "arity", "add takes 2")


def test_input_with_larger_id() -> None:
    x = _input()
    consumer = _raw("exp", (x,), {}, (3,), F64)
    newer = _raw("negative", (x,), {}, (3,), F64)
    consumer.inputs = (newer,)  # reads a node built after it
    _raises(consumer, "id is not smaller")


def test_cycle_is_found_not_looped() -> None:
    x = _input()
    a = _raw("negative", (x,), {}, (3,), F64)
    b = _raw("exp", (a,), {}, (3,), F64)
    a.inputs = (b,)  # a -> b -> a
    _raises(b, "cycle")


def test_view_changes_dtype() -> None:
    x = _input((2, 3))
    bad = _raw("transpose", (x,), {"axes": (1, 0)}, (3, 2), np.float32)
    msg = _raises(bad, "transpose")
    assert "float32" in msg


def test_view_dtype_check_is_separate_from_dtype_rule() -> None:
    # A view op whose dtype rule was broken (returns the stored dtype) is still
    # caught by the "views keep their input's dtype" check.
    x = _input((2, 3))
    spec = ops.REGISTRY["transpose"]
    from dataclasses import replace
    lying = replace(spec, dtype=lambda ins, attrs: np.dtype(np.float32))
    bad = Node(lying, (x,), {"axes": (1, 0)}, (3, 2), np.dtype(np.float32), SRC)
    _raises(bad, "view of", "keep its dtype")


def test_inference_raises_on_own_attrs() -> None:
    x = _input((2, 3))
    bad = _raw("transpose", (x,), {"axes": (0, 0)}, (2, 2), F64)
    _raises(bad, "shape inference fails")


def test_bad_shape_value() -> None:
    x = _input()
    bad = _raw("negative", (x,), {}, (3,), F64)
    bad.shape = [3]  # type: ignore[assignment]
    _raises(bad, "not a tuple")


def test_cached_value_wrong_shape() -> None:
    x = _input((3,))
    n = _raw("negative", (x,), {}, (3,), F64)
    n.value = np.zeros(4)
    _raises(n, "cached value")


def test_source_value_wrong_dtype() -> None:
    x = _input((3,))
    x.value = np.zeros(3, np.float32)
    _raises(x, "cached value", "float32")


def test_error_names_earliest_bad_node() -> None:
    x = _input()
    bad = _raw("negative", (x,), {}, (4,), F64)
    top = _raw("exp", (bad,), {}, (4,), F64)  # consistent with its (bad) input
    msg = _raises(top)
    assert msg.startswith(f"%{bad.id} negative"), msg


def test_deep_chain_no_recursion() -> None:
    t = lt.asarray(np.ones(2))
    for _ in range(20_000):
        t = t + 1.0
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        verify_graph([t.node])
    finally:
        sys.setrecursionlimit(limit)


def test_verify_plan_checks_writes_into_a_join(monkeypatch: pytest.MonkeyPatch) -> None:
    # verify_plan re-checks the planner's join destinations: a kernel may
    # write into a join's buffer only as an operand that join counts as
    # written, and the join may skip copying only what a kernel wrote.
    import dataclasses

    from lazyten.exec import planner
    from lazyten.exec.checks import PlanError, verify_plan
    monkeypatch.setattr(planner, "JOIN_INTO_MIN_BYTES", 0)
    x = lt.asarray(np.arange(12.0).reshape(3, 4))
    p = lt.plan(lt.concat([lt.sin(x), x, lt.cos(x)]))
    verify_plan(p)
    (join,) = [s for s in p.steps if s.joined]
    into = [s for s in p.steps if s.into is not None]
    assert len(into) == 2 and len(join.joined) == 2

    def with_join(joined: frozenset[int]) -> Any:
        steps = [dataclasses.replace(s, joined=joined) if s is join else s for s in p.steps]
        return dataclasses.replace(p, steps=steps)
    with pytest.raises(PlanError, match="without being an operand only that join reads"):
        verify_plan(with_join(frozenset({into[0].node.id})))     # a write the join ignores
    with pytest.raises(PlanError, match="no kernel wrote it there"):
        verify_plan(with_join(join.joined | {x.node.id}))        # a copy the join skips


def test_verify_plan_checks_kernels_written_into_a_writes_part() -> None:
    # verify_plan re-checks a kernel written into the part of a write's
    # buffer: only as that write's value, read by it next, and over the
    # base's buffer only where the kernel reads none of it.
    import dataclasses

    from lazyten.exec.checks import PlanError, verify_plan
    x = lt.asarray(np.arange(40_000.0).reshape(200, 200))
    t = x * 2.0
    t[1:-1] = lt.sin(x[2:])
    p = lt.plan(t)
    verify_plan(p)
    (k,) = [s for s in p.steps if s.update is not None]
    (w,) = [s for s in p.steps if s.filled]
    assert k.inplace_of is not None and w.index == k.index + 1

    def changed(step: Any, **kw: Any) -> Any:
        return dataclasses.replace(p, steps=[dataclasses.replace(s, **kw) if s is step else s
                                             for s in p.steps])
    with pytest.raises(PlanError, match="overwrites b"):
        verify_plan(changed(k, update=None))          # a plain in-place kernel there
    with pytest.raises(PlanError, match="without being its value"):
        verify_plan(changed(w, filled=False))
    with pytest.raises(PlanError, match="no kernel wrote it there"):
        # (the kernel in a buffer of its own, the write still taken as filled)
        verify_plan(changed(k, update=None, inplace_of=None, buffer=len(p.buffers)))
    # the kernel reading the base it writes over (``t[1:-1] = t[2:] * 3``):
    # planned over a copy of it; forced over the base itself, refused
    t2 = x * 2.0
    t2[1:-1] = t2[2:] * 3.0
    p2 = lt.plan(t2)
    verify_plan(p2)
    (k2,) = [s for s in p2.steps if s.update is not None]
    (w2,) = [s for s in p2.steps if s.filled]
    base = k2.update[1]
    assert k2.inplace_of is None and w2.index == k2.index + 1
    (bs,) = [s for s in p2.steps if s.node is base]
    forced = dataclasses.replace(p2, steps=[
        dataclasses.replace(s, inplace_of=base.id, buffer=bs.buffer, new_buffer=False)
        if s is k2 or s is w2 else s for s in p2.steps])
    with pytest.raises(PlanError, match="writes into b.* while .* is still read"):
        verify_plan(forced)
