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
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.graph import node as N
from lazyten.graph import ops
from lazyten.graph.rewrite import rebuild
from tests.util import plans_counted


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


def _run_threads(n: int, worker: Callable[[int], None]) -> None:
    """``worker(0)`` ... ``worker(n - 1)``, each on its own thread."""
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


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
    _run_threads(n_threads, worker)
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


# ------------------------------------------------------------ pending nodes
#
# An operator whose structure was built before makes its node *pending*: not
# entered in the intern table until something reads it as a graph node
# (``N.entered``), so that ``lt.compute`` of a small expression built in a
# loop skips the table.  Hash-consing must still hold for every node anyone
# but the plan cache sees.

def _f(a: lt.Tensor) -> lt.Tensor:
    return lt.sin(a) * 2.0 + a                      # one line: one structure per node


def _pending(a: lt.Tensor) -> lt.Tensor:
    """``_f(a)`` made of pending nodes (its structure is known by then)."""
    # Structures whose nodes were entered before (by an earlier test) are
    # entered as they are built; forget that.
    N._entered_structs.clear()
    _f(a)                                           # learns the structures (and dies)
    t = _f(a)
    assert t._n.pending and t._n.inputs[0].pending  # the test's premise
    return t


def test_a_pending_node_is_entered_when_read() -> None:
    a = lt.asarray(np.arange(4.0))
    t, u = _pending(a), _f(a)
    assert t._n is not u._n                        # neither is in the table yet
    n = t.node
    assert not n.pending and t._n is n             # the handle now holds the entered node
    assert n is u.node is _f(a).node               # one node, as hash-consing promises
    key = N.intern_key(n.op, n.inputs, n.attrs, n.dtype)
    assert N._intern[key]() is n
    assert all(not i.pending for i in n.inputs)
    np.testing.assert_array_equal(t.eval(), np.sin(np.arange(4.0)) * 2.0 + np.arange(4.0))


def test_a_pending_node_enters_as_an_equal_node_with_a_value() -> None:
    # As if the operator had found that node when it ran: the value cached
    # since then stands for it.
    x = np.arange(4.0)
    a = lt.asarray(x)
    t, u = _pending(a), _f(a)
    first = t.eval()                               # enters t's nodes, caches the result
    assert u._n.pending
    np.testing.assert_array_equal(u.eval(), first)
    # An operator on the (now entered) node is built on it and reads its value.
    np.testing.assert_array_equal((u * 1.0).eval(), first)
    # Caching drops what t was computed from (a loop's earlier values would
    # stay alive): an equal structure built anew is a node of its own, which
    # reads the user's array when evaluated, as a new graph does.
    x[:] = 100.0
    v = _f(a)
    assert v.node is not t.node
    np.testing.assert_array_equal(v.eval(), np.sin(x) * 2.0 + x)
    assert not t.node.inputs
    np.testing.assert_array_equal(t.eval(), first)


def test_a_pending_node_over_merged_inputs_is_entered_as_a_copy() -> None:
    a = lt.asarray(np.arange(3.0))
    t, u = _pending(a), _f(a)
    s = lt.sin(a).node                             # entered, and kept
    p = u._n
    n = u.node
    # u's own sin(a) was pending and merged into the entered one: u's other
    # nodes are entered as copies over it, the pending ones stand for those.
    assert n is not p and p.pending and p.canon is n
    assert n.inputs[0].inputs[0] is s and not n.inputs[0].pending
    # Its summary is its own (the merged sin(a) was built on another line).
    assert N.summary_current(n) and n.leaves == p.leaves and n.skey != p.skey
    assert t.node is n


def test_compute_runs_pending_nodes_from_the_plan_cache_without_entering_them() -> None:
    x = np.linspace(-1.0, 1.0, 50)
    a = lt.asarray(x)
    lt.compute(_pending(a))                        # plans this structure
    t = _pending(a)
    before = len(N._intern)
    (v,) = lt.compute(t)
    assert t._n.pending and len(N._intern) == before
    np.testing.assert_array_equal(v, np.sin(x) * 2.0 + x)
    with lt.set_options(optimize=False):           # the reference path enters them
        (w,) = lt.compute(t)
    np.testing.assert_array_equal(w, v)


def test_structures_entered_once_are_entered_as_they_are_built() -> None:
    # A loop that calls .eval() enters every node it builds: after the first
    # round its operators enter them as they build them (no walk later),
    # while a loop that only calls lt.compute keeps them pending.
    a = lt.asarray(np.arange(4.0))
    t = _pending(a)
    t.eval()                                        # enters _f's structures
    u = _f(a)
    assert not u._n.pending and not u._n.inputs[0].pending
    del t, u                                        # (their nodes die)
    assert not _f(a)._n.pending
    N._entered_structs.clear()                     # as in a process that never entered them
    assert _f(a)._n.pending


def test_a_long_pending_chain_is_entered_without_recursion() -> None:
    a = lt.asarray(np.ones(2))
    depth = N.SUMMARY_NODES // 2 - 10              # (a step adds a node and a constant)

    def chain() -> lt.Tensor:
        t = a
        for _ in range(depth):
            t = t * 1.0001
        return t
    chain()
    t = chain()
    assert t._n.pending
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth // 2)              # a frame per node would run out
    try:
        n = t.node
    finally:
        sys.setrecursionlimit(limit)
    assert not n.pending
    np.testing.assert_allclose(t.eval(), np.full(2, 1.0001 ** depth))


def test_threads_entering_one_pending_graph_get_one_node() -> None:
    a = lt.asarray(np.arange(5.0))
    n_threads, rounds = 8, 100
    barrier = threading.Barrier(n_threads)
    graphs = []
    for _ in range(rounds):
        graphs.append([_pending(a) if i == 0 else _f(a) for i in range(n_threads)])
    seen: list[list[N.Node]] = [[] for _ in range(n_threads)]

    def worker(i: int) -> None:
        for r in range(rounds):
            barrier.wait()
            # Each thread enters its own pending graph of round r: the graphs
            # share no node but are equal, so the threads race to enter
            # equal nodes.
            seen[i].append(graphs[r][i].node)
    _run_threads(n_threads, worker)
    for r in range(rounds):
        assert len({id(seen[i][r]) for i in range(n_threads)}) == 1, r
        assert not seen[0][r].pending


@pytest.mark.parametrize("optimize", [False, True])
def test_graphs_are_freed_without_the_cyclic_collector(optimize: bool) -> None:
    # A leaf's summary used to hold the leaf itself ((node,)): every input was
    # a reference cycle, and its array (often the largest thing a program
    # holds) waited for the cyclic collector to be freed.
    arr = np.arange(12.0).reshape(3, 4)
    gc.collect()
    gc.disable()
    try:
        x = lt.asarray(arr)
        y = lt.asarray(np.ones(4))
        z = ((x * 2.0 + y).T[::2] - lt.sin(x).sum(axis=1)).mean()
        with lt.set_options(optimize=optimize):
            np.testing.assert_allclose(lt.compute(z)[0], ((arr * 2 + 1).T[::2]
                                       - np.sin(arr).sum(axis=1)).mean())
        refs = [weakref.ref(t._node) for t in (x, y, z)]
        data = weakref.ref(x._node.value) if x._node.value is not None else None
        del x, y, z
        assert [r() for r in refs] == [None, None, None]
        assert data is None or data() is None or data() is arr
    finally:
        gc.enable()


def test_view_inference_is_reused_exactly() -> None:
    # One-input views keep their inference per (op, input shape, dtype,
    # attrs): a hit must give what inference gives, typed attrs apart
    # (np.int64(1) and 1 index alike but are different constants), slices
    # included, and errors are never remembered.
    x = lt.asarray(np.arange(24.0).reshape(4, 6))
    y = lt.asarray(np.arange(24.0).reshape(4, 6) + 1)
    for _ in range(2):
        for idx in (1, np.int64(1), slice(1, 3), (slice(None), 2), (None, 1), Ellipsis):
            a, b = x[idx], y[idx]
            assert a.shape == b.shape == np.empty((4, 6))[idx].shape
            assert a.node.attrs == b.node.attrs
            np.testing.assert_array_equal(b.eval(), (np.arange(24.0).reshape(4, 6) + 1)[idx])
        assert x.T.shape == (6, 4) and x.reshape(-1, 8).shape == (3, 8)
        with pytest.raises(IndexError):
            x[7]
        with pytest.raises(ValueError):
            x.reshape(5, -1)
    z = lt.asarray(np.zeros((4, 6), np.float32))           # same shape, other dtype
    assert z.T.dtype == np.float32 and z[1].dtype == np.float32


def _rows_every_other_column(t: lt.Tensor) -> lt.Tensor:
    return t[1:3, ::2]          # one line: every call builds the same structure


def test_a_view_built_again_is_made_from_its_inputs_summary(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The first view of a structure is inferred and summarized the general way
    # and remembered; the next one of a same-structured input is made from
    # that (``intern_view``): it must be the node the general way makes, with
    # the same structure id, so both find one cached plan.
    arrs = [np.arange(24.0).reshape(4, 6) + k for k in range(3)]
    first = _rows_every_other_column(lt.asarray(arrs[0]))

    def no_general_path(*args: object, **kwargs: object) -> None:
        raise AssertionError("a remembered view went the general way")
    root = lt.asarray(arrs[1])
    monkeypatch.setattr(ops, "intern", no_general_path)
    second = _rows_every_other_column(root)
    monkeypatch.undo()
    a, b = first.node, second.node
    assert (a.op, a.attrs, a.shape, a.dtype, a.source, a.skey, a.scount) == \
           (b.op, b.attrs, b.shape, b.dtype, b.source, b.skey, b.scount)
    # (a view of a user's array is a leaf of what is built over it: is_leaf)
    assert b.leaves is None and N.is_view_leaf(b) and N.summary_current(b)
    x = lt.asarray(arrs[2])
    assert _rows_every_other_column(x).node is _rows_every_other_column(x).node  # hash-consed
    np.testing.assert_array_equal(second.eval(), arrs[1][1:3, ::2])
    # A write through the view still reaches its root, not the user's array.
    second[0, 0] = -1.0
    assert root.eval()[1, 0] == -1.0 and arrs[1][1, 0] == 7.0
    # A leaf's structure is its shape and dtype: another line is the same one
    # (errors in taking the view name the view's own line, view_leaf_value);
    # another dtype is not a hit.
    assert lt.asarray(arrs[2])[1:3, ::2].node.skey == a.skey
    y = _rows_every_other_column(lt.asarray(arrs[0].astype(np.float32)))
    assert y.dtype == np.float32 and y.node.skey != a.skey


def test_a_view_of_an_input_with_a_stale_summary_goes_the_general_way() -> None:
    # A computed input given a value starts a new epoch: a view of it is then a
    # view of a leaf, a leaf itself (is_leaf), not made from the old summary.
    x = lt.asarray(np.arange(24.0).reshape(4, 6))
    _rows_every_other_column(x * 2)          # remembered over an elementwise input
    y = x * 2
    y.eval()
    v = _rows_every_other_column(y)
    assert v.node.leaves is None and N.is_view_leaf(v.node) and N.summary_current(v.node)
    np.testing.assert_array_equal(v.eval(), (np.arange(24.0).reshape(4, 6) * 2)[1:3, ::2])


def test_tensor_methods_that_are_module_functions_are_class_attributes() -> None:
    """``t.sum()``, ``t.argsort()`` ... (``functions.METHODS``, extended by
    sorting and manipulation) are set on the class, which has no
    ``__getattr__``: one leaves every attribute read of a tensor (``_n``,
    ``_root`` in each operator) unspecialized by the interpreter."""
    from lazyten.functions import METHODS
    assert "__getattr__" not in vars(lt.Tensor)
    t = lt.asarray(np.arange(6.0).reshape(2, 3))
    for name in METHODS:
        assert name in vars(lt.Tensor) or name in dir(lt.Tensor), name
        assert getattr(t, name).__self__ is t, name
    np.testing.assert_array_equal(t.swapaxes(0, 1).eval(), np.arange(6.0).reshape(2, 3).T)
    assert t.sum().eval() == 15.0
    with pytest.raises(AttributeError, match="'Tensor' object has no attribute 'nosuch'"):
        t.nosuch  # noqa: B018


def _two_line_stencil(A: Any, B: Any) -> None:
    for _ in range(4):
        B[1:-1] = (0.1 * (A[2:] - 2.0 * A[1:-1]) +
                   0.2 * (A[:-2] - 2.0 * A[1:-1]) +
                   A[1:-1])
        A[1:-1] = (0.1 * (B[2:] - 2.0 * B[1:-1]) +
                   0.2 * (B[:-2] - 2.0 * B[1:-1]) +
                   B[1:-1])


def test_a_statement_repeating_a_subexpression_on_two_lines_settles_in_the_plan_cache(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``2.0 * A[1:-1]`` on a statement's two lines is one node, built on the
    first; its structure is entered as an operator builds it from then on,
    so every run of the loop keeps the first line.  Left pending, the next
    run entered the second line's copy first, and the graph's lines (part of
    its structure) changed from run to run: npbench's heat_3d planned in its
    first five runs.  Now a run plans where its structure is new (the first
    run, once per read) or seen twice (the second), and never again."""
    planned = plans_counted(monkeypatch)
    counts = []
    rng = np.random.default_rng(11)
    for _ in range(6):
        a, b = rng.random(10_000), rng.random(10_000)
        A, B = lt.asarray(a), lt.asarray(b)
        planned.clear()
        _two_line_stencil(A, B)
        got_a, got_b = np.asarray(A), np.asarray(B)
        counts.append(len(planned))
        _two_line_stencil(a, b)                  # (NumPy's, on its arrays)
        np.testing.assert_array_equal(got_a, a)
        np.testing.assert_array_equal(got_b, b)
    assert counts[2:] == [0, 0, 0, 0], counts
