"""Building nodes: the guarantees the fast paths of ``build``, ``intern`` and
``const`` must keep.

Attribute-less elementwise nodes skip the generic shape rule, probe key and
intern key; weak constants are kept in a small cache; the intern table is a
dict of weak references filled with ``setdefault``.  None of that may change
what a user sees: the same node for the same expression (from any thread, and
from a pass that rebuilds it), NumPy's dtypes and build-time errors (NEP 50:
a Python int must fit the array's integer dtype), errors naming the op,
operands and line, and no node kept alive by the table.
"""

from __future__ import annotations

import gc
import threading
import weakref

import numpy as np
import pytest

import lazyten as lt
from lazyten.graph import node as N
from lazyten.graph import ops
from lazyten.graph.rewrite import rebuild


def test_same_expression_same_node() -> None:
    a, b = lt.asarray(np.arange(4.0)), lt.asarray(np.ones(4))
    assert (a * b).node is (a * b).node
    assert (a * 2).node is (a * 2).node
    assert lt.sin(a).node is lt.sin(a).node
    assert (a * 2).node is not (2 * a).node          # operand order is kept
    assert (a * 2).node is not (a * 2.0).node        # 2 and 2.0 are different constants
    assert (a + True).node is not (a + 1).node       # so are True and 1
    assert (a * np.nan).node is (a * float("nan")).node


def test_a_pass_rebuilding_a_node_finds_the_built_one() -> None:
    # rebuild() interns without the elementwise fast path: both must use one key.
    a, b = lt.asarray(np.arange(4.0)), lt.asarray(np.ones(4))
    s = a + b
    t = b + a
    assert rebuild(t.node, (a.node, b.node)) is s.node
    assert rebuild(s.node, (b.node, a.node)) is t.node


@pytest.mark.parametrize("dtype, value", [
    (np.uint8, -1), (np.uint8, 300), (np.int8, 200), (np.int8, -200), (np.uint16, 70_000),
    (np.int64, 2**63), (np.uint64, -1)])
def test_python_int_out_of_range_raises_at_build_time(dtype: type, value: int) -> None:
    x = np.arange(3, dtype=dtype)
    t = lt.asarray(x)
    with pytest.raises(OverflowError):
        _ = x + value
    # A cached answer for an in-range value of the same types must not leak.
    assert (t + 1).dtype == (x + 1).dtype
    with pytest.raises(OverflowError, match=r"add: .*Python scalar.*\(at test_build\.py:\d+\)"):
        _ = t + value
    assert (t + 1).dtype == (x + 1).dtype            # and the failure is not cached either


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.float16,
                                   np.float32, np.complex64])
@pytest.mark.parametrize("scalar", [True, 3, 127, 128, -1, 2.5, 1e300, 1j])
def test_weak_scalar_dtypes_match_numpy(dtype: type, scalar: object) -> None:
    for x in (np.ones(3, dtype), np.ones((), dtype), np.ones((2, 0), dtype)):
        t = lt.asarray(x)
        for name in ("add", "multiply", "less"):
            fn = getattr(np, name)
            try:
                with np.errstate(all="ignore"):
                    want = fn(x, scalar)
            except (TypeError, OverflowError) as e:
                with pytest.raises(type(e)):
                    getattr(lt, name)(t, scalar)
                continue
            got = getattr(lt, name)(t, scalar)
            assert got.dtype == np.asarray(want).dtype, (name, x.dtype, x.shape, scalar)
            assert got.shape == np.shape(want)


def test_broadcasting_in_the_fast_path() -> None:
    x, y, z = np.ones((3, 1)), np.ones(4), np.ones(())
    X, Y, Z = lt.asarray(x), lt.asarray(y), lt.asarray(z)
    assert (X + Y).shape == (3, 4)
    assert (Z + X).shape == (3, 1)
    assert (Z * 2 + Y).shape == (4,)
    assert lt.where(Z > 0, X, Y).shape == (3, 4)
    with pytest.raises(ValueError, match=r"add: .*\(3, 1\).*\(4, 2\).*\(at test_build\.py:\d+\)"):
        _ = X + lt.asarray(np.ones((4, 2)))


def test_a_type_error_names_the_op_and_operands() -> None:
    f = lt.asarray(np.ones(3))
    with pytest.raises(TypeError, match=r"bitwise_and: .*float64.*\(at test_build\.py:\d+\)"):
        _ = f & f


def test_the_intern_table_keeps_no_node_alive() -> None:
    a = lt.asarray(np.arange(3.0))
    t = lt.exp(a) * a
    ref = weakref.ref(t.node)
    keys = {k for k, r in N._intern.items() if r() is t.node}
    assert keys
    del t
    gc.collect()
    assert ref() is None
    assert not keys & N._intern.keys()               # the entry went with the node


def test_a_dead_entry_is_replaced() -> None:
    # A node that died but whose entry is still there (its callback not yet
    # run, as can happen between threads): building it again makes a new node.
    a = lt.asarray(np.arange(3.0))
    key = ("negative", a.node.id)

    class Dead:
        __slots__ = ("__weakref__",)

    d = Dead()
    stale = N._KeyedRef(d)  # no callback: the entry stays
    stale.key = key
    N._intern[key] = stale  # type: ignore[assignment]
    del d
    n = (-a).node
    assert n.op.name == "negative" and n.inputs == (a.node,)
    assert N._intern[key]() is n
    assert (-a).node is n


def test_threads_building_one_expression_get_one_node() -> None:
    a, b = lt.asarray(np.arange(5.0)), lt.asarray(np.ones(5))
    n_threads, rounds = 8, 200
    barrier = threading.Barrier(n_threads)
    seen: list[list[int]] = [[] for _ in range(n_threads)]
    keep: list[object] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        for r in range(rounds):
            barrier.wait()
            t = (a * float(r) + b) - a                # several new nodes per round
            seen[i].append(id(t.node))
            with lock:
                keep.append(t)                        # ids stay unique while kept
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for r in range(rounds):
        assert len({seen[i][r] for i in range(n_threads)}) == 1, r


def test_weak_constants_are_cached_but_the_cache_is_bounded() -> None:
    assert ops.const(2) is ops.const(2)
    assert ops.const(2.0) is ops.const(2.0) is not ops.const(2)
    assert ops.const(-0.0) is not ops.const(0.0)
    assert ops.const(np.float32(2)) is not ops.const(2.0)   # NumPy scalars are strong
    assert not ops.const(np.float32(2)).weak and ops.const(2.0).weak
    for i in range(3 * ops._WEAK_CONSTS_MAX):
        ops.const(i + 0.5)
    assert len(ops._weak_consts) <= ops._WEAK_CONSTS_MAX


def test_attribute_keys_tell_equal_looking_constants_apart() -> None:
    h = N._hashable
    keys = [h({"v": 1}), h({"v": 1.0}), h({"v": True}), h({"v": np.int64(1)}),
            h({"v": (1,)}), h({"v": 1 + 0j})]
    assert len(set(keys)) == len(keys)
    assert h(float("nan")) == h(float("nan"))
    assert h(-0.0) != h(0.0)
    assert h({"axes": [1, 0]}) == h({"axes": (1, 0)})
    assert h({"b": 2, "a": 1}) == h({"a": 1, "b": 2})
    m = lt.asarray(np.ones((2, 3)))
    assert m.sum(axis=0).node is m.sum(axis=0).node
    assert m.transpose(1, 0).node is m.T.node
