"""Forcing evaluation: eval and its cache, lt.compute, printing, conversions
to NumPy and Python, iteration, and a 100,000-op chain (no recursion)."""

from __future__ import annotations

import gc
import sys
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten import tensor as tensor_mod
from lazyten.graph.node import toposort
from tests.util import assert_eq


# ------------------------------------------------------------------ eval and caching

def test_eval_returns_a_new_array_and_caches(engine: Any) -> None:
    a = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(a) * 2 + 1
    assert t.node.value is None
    v = t.eval()
    assert isinstance(v, np.ndarray) and v.flags.writeable and v.flags.owndata
    np.testing.assert_array_equal(v, a * 2 + 1)
    assert t.node.value is not None                       # cached on the node
    assert not np.shares_memory(v, t.node.value)
    v[...] = -7                                           # the caller's copy
    assert_eq(t, a * 2 + 1)                               # later results unchanged
    assert_eq(t.sum(), (a * 2 + 1).sum())
    w = t.eval()
    assert w is not v and not np.shares_memory(w, v)


def test_later_graphs_start_from_the_cached_value(engine: Any) -> None:
    a = np.arange(4.0)
    t = lt.asarray(a) ** 2
    before = t.eval()
    u = t + 1
    # the graph for u stops at t: what t was computed from is not needed again
    order = toposort([u.node])
    assert t.node in order and all(n.op.name != "pow" for n in order if n is not t.node)
    assert "[cached]" in lt.debugprint(u)
    assert_eq(u, before + 1)
    # The user's array is read when a graph runs; a cached value is not re-read.
    a[...] = 100.0
    assert_eq(u, before + 1)
    assert_eq(t, before)
    assert_eq(lt.asarray(a) ** 2, a ** 2)


def test_cached_value_is_read_only_inside(engine: Any) -> None:
    t = lt.ones(3) * 3
    t.eval()
    assert not t.node.value.flags.writeable
    np.testing.assert_array_equal(t.node.value, [3.0, 3.0, 3.0])


def test_eval_of_views_and_inputs_is_a_copy(engine: Any) -> None:
    a = np.arange(12.0).reshape(3, 4)
    for t in (lt.asarray(a), lt.asarray(a)[1:, ::-1], lt.asarray(a).T, lt.asarray(a)[1, 2]):
        v = t.eval()
        assert not np.shares_memory(v, a)
        v[...] = -1
    assert a.min() == 0.0


def test_compute_shares_work_and_returns_owned_arrays(engine: Any) -> None:
    a = np.linspace(0.0, 1.0, 6).reshape(2, 3)
    x = lt.asarray(a)
    s = lt.sin(x) * 2
    outs = lt.compute(s + 1, s.sum(), s, x, x.T, s)
    assert isinstance(outs, tuple) and len(outs) == 6
    exp_s = np.sin(a) * 2
    for got, exp in zip(outs, (exp_s + 1, exp_s.sum(), exp_s, a, a.T, exp_s)):
        assert isinstance(got, np.ndarray)
        np.testing.assert_allclose(got, exp, rtol=1e-15)
    assert outs[2] is not outs[5] and not np.shares_memory(outs[2], outs[5])
    assert not np.shares_memory(outs[3], a) and not np.shares_memory(outs[4], a)
    for o in outs:
        o[...] = 42                      # the caller owns every returned array
    assert a.max() <= 1.0
    assert_eq(s, exp_s)
    assert_eq(s + 1, exp_s + 1)
    assert lt.compute() == ()
    (one,) = lt.compute(np.arange(3))   # array-likes are accepted
    np.testing.assert_array_equal(one, np.arange(3))


def test_compute_after_eval_uses_cache(engine: Any) -> None:
    t = lt.arange(5.0) * 3
    v = t.eval()
    (c,) = lt.compute(t)
    np.testing.assert_array_equal(c, v)
    c[...] = 0
    assert_eq(t, np.arange(5.0) * 3)


def _owned_results_of(build: Any, x: lt.Tensor, a: np.ndarray[Any, Any], runs: int = 4) -> list[Any]:
    """``lt.compute(build(x))`` ``runs`` times (planned, then cached with
    generated code, then ``compute_cached``'s way): each result NumPy's,
    and the caller's own (writing it changes neither ``a`` nor the next)."""
    got = []
    for _ in range(runs):
        (r,) = lt.compute(build(x))
        exp = build(a)
        np.testing.assert_array_equal(r, exp)
        assert r.dtype == exp.dtype and r.shape == exp.shape
        assert type(r) is np.ndarray and r.flags.writeable
        assert not np.shares_memory(r, a) and all(not np.shares_memory(r, g) for g in got)
        got.append(r)
    before = a.copy()
    for r in got:
        r[...] = 7
    np.testing.assert_array_equal(a, before)
    return got


@pytest.mark.parametrize("build", [
    lambda x: 2 * x**2 + 3 * x - abs(x) * x,       # one fused kernel, a fresh result
    lambda x: x * 1,                               # simplified to the input itself
    lambda x: (x * 2).sum(),                       # 0-d
    lambda x: (x > 0.5) & (x < 2),                 # bool
    lambda x: x.astype(np.int32) + 1,
], ids=["kernel", "input", "0d", "bool", "int"])
@pytest.mark.parametrize("opts", [
    {}, {"optimize": False, "backend": "numpy"}, {"check": True},
], ids=["plan-cache", "reference", "check"])
def test_compute_of_one_small_output_through_the_plan_cache(opts: Any, build: Any) -> None:
    """The third ``lt.compute(t)`` of a structure runs in ``compute_cached``
    (the plan cache's generated code, found from ``t``'s summary), whose
    results must be as owned as ``evaluate``'s way's; not with the reference
    engine or ``check=True`` (which verifies every plan: no plan cache)."""
    a = np.linspace(-1.0, 3.0, 12)
    x = lt.asarray(a)
    with lt.set_options(**opts):
        _check_compute_cached(build, x, a, not opts)


def _check_compute_cached(build: Any, x: lt.Tensor, a: np.ndarray[Any, Any],
                          cached: bool) -> None:
    from lazyten.exec import optimized
    _owned_results_of(build, x, a)
    ran = optimized.compute_cached(build(x)._head, lt.get_options())
    if cached:
        assert ran is not None
        np.testing.assert_array_equal(ran[0], build(a))
        # lt.compute takes that way: evaluate is not called
        real, calls = tensor_mod.evaluate, []
        tensor_mod.evaluate = lambda nodes: calls.append(nodes) or real(nodes)  # type: ignore
        try:
            lt.compute(build(x))
        finally:
            tensor_mod.evaluate = real
        assert calls == []
    else:
        assert ran is None                          # the reference runs node by node
    # Views and tensors with values take evaluate's way, owned as well.
    _owned_results_of(lambda y: (y * 2)[::-1], x, a)
    _owned_results_of(lambda y: y, x, a)
    t = x * 3
    t.eval()
    assert optimized.compute_cached(t._head, lt.get_options()) is None
    _owned_results_of(lambda y: y * 3, x, a)


def test_compute_cached_leaves_unbound_placeholders_to_the_executor() -> None:
    """A structure's cached plan found for a graph over a placeholder (whose
    value is None): ``compute_cached`` declines, and evaluation names the
    placeholder as before."""
    from lazyten.exec import optimized
    a = lt.asarray(np.arange(4.0))
    for _ in range(3):
        lt.compute(a * 2 + 1)
    p = lt.placeholder((4,), np.float64, name="p")
    assert optimized.compute_cached((p * 2 + 1)._head, lt.get_options()) is None
    with pytest.raises((ValueError, RuntimeError, lt.TracingError), match="p"):
        lt.compute(p * 2 + 1)


# ------------------------------------------------------------------ printing

PRINT_CASES = [
    np.arange(6.0).reshape(2, 3) / 7, np.array(3.5), np.array([], np.float32),
    np.zeros((2, 0, 3), np.int8), np.array([True, False]), np.array([1 + 2j, 0.5j], np.complex64),
    np.arange(2000, dtype=np.int64).reshape(40, 50), np.array([np.nan, np.inf, -0.0]),
    np.array([1e-20, 1e20], np.float32), np.arange(24, dtype=np.uint16).reshape(2, 3, 4),
    np.array(7, np.int8), np.array([1.5, 2.5], np.float16),
]


@pytest.mark.parametrize("x", PRINT_CASES, ids=[f"{c.dtype}{c.shape}" for c in PRINT_CASES])
def test_repr_and_str_like_numpy(engine: Any, x: np.ndarray[Any, Any],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    t = lt.asarray(x) * 1 if x.dtype != np.bool_ else lt.asarray(x) | False
    x = np.asarray(x * 1 if x.dtype != np.bool_ else x | False)  # the same in NumPy
    assert str(t) == str(x)
    r = repr(t)
    assert r.startswith("Tensor(")
    # NumPy's repr, spelled Tensor(...) and re-indented by the name's length
    assert r.replace("Tensor(", "array(", 1).replace("\n       ", "\n      ") == np.array_repr(x)
    print(t)
    assert capsys.readouterr().out == str(x) + "\n"
    assert f"{t}" == str(x)


def test_format_of_0d(engine: Any) -> None:
    t = lt.asarray(2.0) / 3
    assert f"{t:.3f}" == "0.667"
    assert format(t) == str(np.float64(2.0) / 3)


def test_printing_uses_numpy_print_options(engine: Any) -> None:
    x = np.linspace(0, 1, 5)
    with np.printoptions(precision=2):
        assert str(lt.asarray(x) * 1) == str(x)
        assert repr(lt.asarray(x) * 1).replace("Tensor(", "array(") == np.array_repr(x)


# ------------------------------------------------------------------ conversions

def test_numpy_conversions(engine: Any) -> None:
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    t = lt.asarray(a) * 2
    for got in (np.asarray(t), np.array(t), t.__array__(), t.numpy()):
        assert isinstance(got, np.ndarray)
        assert_eq(got, a * 2)
    assert_eq(np.asarray(t, dtype=np.float32), (a * 2).astype(np.float32))
    assert_eq(np.array(t, dtype=np.int8), (a * 2).astype(np.int8))
    got = np.asarray(t)
    got[...] = 0                      # a copy: the tensor is unchanged
    assert_eq(t, a * 2)
    # NumPy functions that are not ufuncs convert through __array__
    assert np.concatenate([t, a]).shape == (4, 3)
    assert np.median(t) == np.median(a * 2)
    assert np.allclose(t, a * 2)
    assert np.array_equal(np.stack([t, t]), np.stack([a * 2, a * 2]))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
def test_python_scalars(engine: Any, dtype: str) -> None:
    x0 = np.array(3, dtype)
    x = np.array([[3]], dtype)
    for arr in (x0, x):
        t = lt.asarray(arr) * np.ones((), dtype)
        for conv in (float, int, complex, bool):
            try:
                expected = conv(arr)          # NumPy decides what converts
            except TypeError:
                with pytest.raises(TypeError):
                    conv(t)
                continue
            got = conv(t)
            assert got == expected and type(got) is type(expected)
        assert t.item() == arr.item() and type(t.item()) is type(arr.item())
        assert t.item(0) == arr.item(0)
        assert t.tolist() == arr.tolist()
    assert len(lt.asarray(x)) == 1


def test_conversion_errors(engine: Any) -> None:
    t = lt.asarray(np.arange(3.0))
    with pytest.raises(TypeError):
        float(t)
    with pytest.raises(TypeError):
        int(t)
    with pytest.raises(ValueError):
        bool(t)                          # ambiguous, as in NumPy
    with pytest.raises(ValueError):
        t.item()
    s = lt.asarray(5.0)
    with pytest.raises(TypeError):
        len(s)
    with pytest.raises(TypeError):
        iter(s)
    assert bool(lt.asarray(np.zeros((1, 1)))) is False
    with pytest.raises(TypeError):
        range(10)[lt.asarray(2.0)]       # a float tensor is not an index
    assert range(10)[lt.asarray(np.int8(4))] == 4  # __index__


def test_iteration_len_tolist(engine: Any) -> None:
    x = np.arange(24).reshape(2, 3, 4)[:, ::-1]
    t = lt.asarray(np.arange(24).reshape(2, 3, 4))[:, ::-1]
    assert len(t) == 2
    rows = list(t)
    assert len(rows) == 2
    for r, e in zip(rows, x):
        np.testing.assert_array_equal(r, e)
    assert [v for v in lt.asarray(np.arange(3)) * 2] == [0, 2, 4]
    assert t.tolist() == x.tolist()
    assert lt.asarray(np.array(2.5)).tolist() == 2.5
    assert (lt.zeros((0, 3)) + 1).tolist() == []
    assert list(lt.zeros((0, 3))) == []
    assert t.item(5) == x.item(5)
    assert t.item(1, 2, 3) == x.item(1, 2, 3)


def test_truth_in_control_flow(engine: Any) -> None:
    t = lt.asarray(np.array([1.0, -2.0]))
    assert (t.sum() < 0)
    assert not (t.max() > 5)
    assert (t > -3).all()
    if t[0] > 0:
        pass
    else:  # pragma: no cover
        pytest.fail("t[0] > 0 should be true")


# ------------------------------------------------------------------ deep graphs

N_DEEP = 100_000


@pytest.fixture
def deep(engine: Any) -> Any:
    """The engine, without ``check`` (re-verifying a 100,000-node graph after
    every pass triples the time; the values are checked against NumPy here)."""
    with lt.set_options(check=False):
        yield engine


def test_100k_op_chain_builds_evaluates_and_prints(deep: Any) -> None:
    """No recursion over the graph anywhere: build, optimize, plan, run, print."""
    limit = sys.getrecursionlimit()
    a = np.linspace(0.0, 1.0, 4)
    t = lt.asarray(a)
    for i in range(N_DEEP):
        # alternate ops so no simplification can collapse the chain wholesale
        t = t * 1.0000001 if i % 2 else t + 1e-6
    assert t.shape == (4,)
    text = lt.debugprint(t)
    assert text.count("\n") >= N_DEEP
    assert "multiply" in text and "add" in text
    expected = a.copy()
    for i in range(N_DEEP):
        expected = expected * 1.0000001 if i % 2 else expected + 1e-6
    assert_eq(t, expected, rtol=1e-9)
    assert str(t) == str(t.eval())
    assert repr(t).startswith("Tensor(")
    assert sys.getrecursionlimit() == limit  # not raised to get through
    del t, text
    gc.collect()                              # freeing a deep chain: no recursion either


def test_100k_view_chain(deep: Any) -> None:
    a = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(a)
    for _ in range(N_DEEP // 4):
        t = t.T
    for _ in range(N_DEEP // 4):
        t = t[::-1]
    assert t.shape == (2, 3)
    assert_eq(t, a[::-1] if (N_DEEP // 4) % 2 else a)
    assert lt.debugprint(t).count("\n") > 100


def test_deep_chain_with_many_uses(deep: Any) -> None:
    """A ladder where every step reads the two before it (a DAG, not a tree)."""
    x = lt.asarray(np.array([1.0, 2.0]))
    prev, cur = x, x * 0.5
    e_prev, e_cur = np.array([1.0, 2.0]), np.array([0.5, 1.0])
    for _ in range(20_000):
        prev, cur = cur, (cur + prev) * 0.5
        e_prev, e_cur = e_cur, (e_cur + e_prev) * 0.5
    assert_eq(cur, e_cur)


# ------------------------------------------------------------------ the graph itself

def test_nodes_are_hash_consed_and_record_the_users_line(engine: Any) -> None:
    a = lt.asarray(np.arange(3.0))
    b = a * 2 + 1
    c = a * 2 + 1
    assert b.node is c.node                       # identical nodes are the same node
    assert (a * 2).node is b.node.inputs[0]
    assert lt.asarray(np.arange(3.0)).node is not a.node   # user arrays are never merged
    # 1, 1.0 and True are different constants; NaN constants are shared
    assert len({(a + 1).node.id, (a + 1.0).node.id, (a + True).node.id}) == 3
    assert (a + np.nan).node is (a + float("nan")).node
    assert (a + 1).node is not (a + np.int64(1)).node      # weak vs strong
    line = sys._getframe().f_lineno + 1
    d = lt.exp(a)
    assert d.node.where == f"test_forcing.py:{line}"
    assert d.node.source[0] == __file__


def test_lines_of_operators_repeated_in_a_loop_and_on_one_line(engine: Any) -> None:
    """An operator's line comes from a table of its caller's instruction
    offsets (``graph.node._lines``): each call on a line gets that line, on
    every iteration, and another line its own, also in a function of many
    constants (whose code is found by id, not by hash)."""
    from lazyten.graph import node as N
    a = lt.asarray(np.arange(3.0))
    first = sys._getframe().f_lineno + 3
    for _ in range(3):
        nodes = [
            (a * 2).node, lt.sin(a).node, (-a).node, (a ** 2).node, (2 + a).node,
        ]
        b = a * 3
        assert {n.source for n in nodes} == {(__file__, first)}
        assert b.node.source == (__file__, first + 2)
    lines = N._lines[id(sys._getframe().f_code)]
    assert lines.code is sys._getframe().f_code and (__file__, first) in lines.values()
    consts = ", ".join(repr(f"c{k}") for k in range(80))
    src = f"def f(a):\n    c = ({consts})\n    return a + 1, a * 5\n"
    ns: dict[str, Any] = {"lt": lt}
    exec(compile(src, "<many constants>", "exec"), ns)
    for _ in range(2):
        p, q = ns["f"](a)
        assert p.node.source == ("<many constants>", 3) == q.node.source


def test_shape_and_dtype_known_before_evaluation(engine: Any) -> None:
    a = lt.asarray(np.ones((3, 1), np.float32))
    b = lt.asarray(np.arange(4, dtype=np.int16))
    c = (a + b).sum(axis=0, keepdims=True) @ lt.ones((4, 2), np.float16)
    assert (c.shape, c.dtype, c.ndim, c.size) == ((1, 2), np.float32, 2, 2)
    assert c.node.value is None and a.nbytes == 12 and c.itemsize == 4
    assert c.node.type_str() == "float32[1,2]"


def test_a_loop_that_evaluates_each_step_keeps_only_the_last_value() -> None:
    """A cached value is a leaf: what it was computed from is dropped, so
    ``x = x * 0.5 + 1; x.eval()`` in a loop holds one array, not one per
    step (as NumPy's loop does)."""
    import tracemalloc
    x = lt.asarray(np.random.default_rng(0).random(100_000))
    want = np.asarray(x.eval())
    tracemalloc.start()
    try:
        for _ in range(30):
            x = x * 0.5 + 1.0
            x.eval()
            want = want * 0.5 + 1.0
        gc.collect()
        alive = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert alive < 4 * want.nbytes, alive        # (30 steps held were 24 MB)
    np.testing.assert_array_equal(x.eval(), want)
    assert not x.node.inputs


def test_a_node_cached_by_another_thread_while_its_plan_is_made() -> None:
    """The plan cache's template is made from the graph as its signature
    saw it; a node that another thread caches in between (a leaf now) is
    no longer that graph: evaluated without caching the plan, not a KeyError."""
    from lazyten.exec import optimized as O

    def build() -> tuple[lt.Tensor, lt.Tensor]:
        a, b = lt.asarray(np.ones(10)), lt.asarray(np.ones(10))
        p = a * b
        return p, (p + 1) * 2
    build()[1].eval()                            # the structure is seen once
    p, y = build()
    template = O._template

    def racing(outputs: Any, leaves: Any) -> Any:
        p.eval()                                 # "another thread" caches p now
        return template(outputs, leaves)
    O._template = racing
    try:
        np.testing.assert_array_equal(y.eval(), np.full(10, 4.0))
    finally:
        O._template = template


def test_a_chain_of_views_over_operations_optimizes_in_linear_time() -> None:
    """``t = t[::-1] + 1`` repeated: each view used to be pushed through all
    the operations below it (N**2 / 2 steps, 2 s for 500); the pass has a
    budget of steps, past which views stay where they are."""
    from lazyten.exec.optimized import optimize
    from lazyten.graph.passes import pushdown as P
    x = np.arange(10.0)
    t, e = lt.asarray(x), x.copy()
    for _ in range(300):
        t, e = t[::-1] + 1, e[::-1] + 1
    steps = [0]
    split = P._split

    def counted(task: Any) -> Any:
        steps[0] += 1
        return split(task)
    P._split = counted
    try:
        optimize([t.node], lt.get_options())
    finally:
        P._split = split
    assert steps[0] <= P.PUSH_STEPS_PER_NODE * 3 * 300
    np.testing.assert_array_equal(t.eval(), e)


def test_numpy_calls_made_now_compute_their_tensor_arguments_in_one_plan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Functions that call NumPy now on their arguments' values (``out=``
    forms, ``vectorize``, value-dependent statistics, random draws) compute
    every tensor argument in one evaluation (``tensor.values_now``): work
    they share runs once; each value is cached, as ``eval`` caches it."""
    import lazyten.tensor as T
    calls: list[int] = []
    real = T.evaluate

    def counted(nodes: Any) -> Any:
        calls.append(len(nodes))
        return real(nodes)
    monkeypatch.setattr(T, "evaluate", counted)
    a = np.linspace(0.0, 1.0, 8)

    def fresh() -> tuple[lt.Tensor, lt.Tensor]:
        y = lt.exp(lt.asarray(a))
        return y, y * 2 + 1
    cases = [
        (lambda y, z: lt.vectorize(lambda p, q: p * q)(y, z),
         lambda y, z: np.vectorize(lambda p, q: p * q)(y, z)),
        (lambda y, z: lt.histogram(y, bins=3, weights=z)[0],
         lambda y, z: np.histogram(y, bins=3, weights=z)[0]),
        (lambda y, z: lt.clip(y, 0.5, z, out=lt.zeros(8)),
         lambda y, z: np.clip(y, 0.5, z, out=np.zeros(8))),
    ]
    for ours, theirs in cases:
        y, z = fresh()
        calls.clear()
        got = ours(y, z)
        assert len(calls) == 1 and calls[0] >= 2, calls      # (clip's out= is a third)
        assert y.node.value is not None and z.node.value is not None
        e = np.exp(a)
        np.testing.assert_array_equal(np.asarray(got), theirs(e, e * 2 + 1))
    y, z = fresh()
    calls.clear()
    lt.random.default_rng(0).normal(y, z)
    assert calls == [2], calls


def test_an_element_read_in_a_loop_keeps_the_loops_value(engine: Any) -> None:
    """``float(u[5, 5])`` in a loop updating ``u``: a read computes only the
    element (slice pushdown) and keeps nothing, so each read recomputed every
    earlier step (100 steps of a 300x300 stencil: 2 s against NumPy's 18 ms).
    A base read a second time through a view is computed whole and kept: the
    graph left pending stays a step or two long, and the values are NumPy's."""
    A = np.random.default_rng(5).standard_normal((30, 30))

    def run(m: Any, n: int) -> Any:
        u = m.asarray(A).copy()
        s = 0.0
        for _ in range(n):
            u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            s += float(u[5, 5])
        return u, s
    (u, s), (un, sn) = run(lt, 40), run(np, 40)
    assert_eq(u, un)
    assert abs(s - sn) <= 1e-12 * abs(sn)
    u, _ = run(lt, 40)
    pending = [n for n in toposort([u.node]) if n.value is None]
    assert len(pending) < 30, len(pending)        # (one or two iterations' nodes)
    # Each step's base is computed whole once, at its read: the previous
    # step's, kept, counts as read (it was computed every other step, two
    # steps at a time, the other reads one element each).
    whole: list[int] = []
    real = tensor_mod.evaluate

    def spy(nodes: Any) -> Any:
        whole.extend(n.size for n in nodes if n.shape == A.shape)
        return real(nodes)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tensor_mod, "evaluate", spy)
        run(lt, 20)
    assert len(whole) >= 19 and all(n == A.size for n in whole), whole


@pytest.mark.parametrize("read", ["sum", "compare", "dot", "element+1", "mask"])
def test_a_number_read_from_a_loops_state_keeps_the_state(engine: Any, read: str) -> None:
    """A number read from a loop's state every step, other than through a
    view (``float(np.sum(u))``, ``bool(u[5, 5] > u[5, 6])``): each read
    recomputed every earlier step (200 steps of a 64x64 stencil: 6 s, NumPy
    4 ms).  A pending node an earlier evaluation computed too is kept when
    seen again: the graph left pending stays a step or two long, and the
    values are NumPy's."""
    A = np.random.default_rng(6).standard_normal((30, 30))
    reads = {"sum": lambda u: float(np.sum(u)),
             "compare": lambda u: bool(u[5, 5] > u[5, 6]),
             "dot": lambda u: float(u[:, 1] @ u[:, 2]),
             "element+1": lambda u: float(u[5, 5] + 1),
             "mask": lambda u: float(u[u > 0].sum())}

    def run(m: Any, n: int) -> Any:
        u = m.asarray(A).copy()
        got = []
        for _ in range(n):
            u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            got.append(reads[read](u))
        return u, got
    (u, got), (un, want) = run(lt, 40), run(np, 40)
    pending = [n for n in toposort([u.node]) if n.value is None]
    assert len(pending) < 30, len(pending)        # (one or two iterations' nodes)
    assert_eq(u, un)
    assert got == want


def test_a_loop_rebinding_its_state_keeps_it(engine: Any) -> None:
    """``x = x - lr * g(x)`` with ``float(loss(x))`` read every step: no
    write, no view; each read recomputed every earlier step.  The state an
    earlier read computed is kept at the next (as NumPy computes each step
    once); an expression two reads share (``a.sum()``, then ``a.max()``)
    is kept at the second, and not recomputed by the ones after."""
    X = np.random.default_rng(7).random(500)

    def run(m: Any, n: int) -> Any:
        x = m.asarray(X)
        losses = []
        for _ in range(n):
            x = x - 0.1 * x * x
            losses.append(float(m.sum(x * x)))
        return x, losses
    (x, got), (xn, want) = run(lt, 30), run(np, 30)
    pending = [n for n in toposort([x.node]) if n.value is None]
    assert len(pending) < 12, len(pending)        # (one or two steps' nodes)
    assert got == want
    assert_eq(x, xn)
    a = lt.exp(lt.asarray(X) * 3.0)
    s1, m1 = float(a.sum()), float(a.max())
    assert a.node.value is not None               # kept at the second read
    e = np.exp(X * 3.0)
    assert (s1, m1, float(a.min())) == (float(e.sum()), float(e.max()), float(e.min()))


def test_what_one_read_keeps_is_within_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two earlier results read again: kept together only within the cap
    # (1 GiB or the memory_limit), not each up to it.
    monkeypatch.setattr(tensor_mod, "_reread_cap", lambda: 10_000)
    X = np.random.default_rng(8).random(1000)
    a, b = lt.exp(lt.asarray(X)), lt.sin(lt.asarray(X))       # 8,000 bytes each
    float((a + b).sum())
    got = float((a * b).sum())
    assert [a.node.value is not None, b.node.value is not None].count(True) == 1
    assert got == float((np.exp(X) * np.sin(X)).sum())


def test_a_keep_over_the_memory_limit_reads_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # The results read again are computed in the read's plan: where that is
    # over the memory_limit (a MemoryError), the read goes on as before.
    X = np.random.default_rng(9).random(1000)
    a = lt.exp(lt.asarray(X))
    float(a.sum())
    real = tensor_mod.evaluate
    calls: list[int] = []

    def over(nodes: Any) -> Any:
        calls.append(len(nodes))
        if len(calls) == 1:                 # (the plan with the kept result)
            raise MemoryError("over memory_limit")
        return real(nodes)
    monkeypatch.setattr(tensor_mod, "evaluate", over)
    assert float(a.max()) == float(np.exp(X).max())
    assert calls == [2, 1] and a.node.value is None


@pytest.mark.parametrize("order", ["C", "F"])
def test_arrays_written_in_turn_are_kept_by_the_read_that_computes_them(
        engine: Any, order: str) -> None:
    """``B[1:-1] = f(A); A[1:-1] = g(B)`` in a loop, then ``A`` and ``B``
    read: ``A``'s read computes ``B``'s last value along the way, and keeps
    it (the data of an array written in place), so ``B``'s read computes
    nothing; it recomputed every step.  The values and layouts are NumPy's."""
    rng = np.random.default_rng(10)
    A0, B0 = (np.asarray(rng.random((12, 10)), order=order) for _ in range(2))

    def run(m: Any) -> Any:
        a, b = m.asarray(A0).copy(order="K"), m.asarray(B0).copy(order="K")
        for _ in range(6):
            b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 2:])
            a[1:-1, 1:-1] = 0.2 * (b[1:-1, 1:-1] + b[:-2, 1:-1] + b[2:, 1:-1] + b[1:-1, :-2])
        return a, b
    an, bn = run(np)
    a, b = run(lt)
    real = tensor_mod.evaluate
    calls: list[int] = []

    def spy(nodes: Any) -> Any:
        calls.append(sum(n.value is None for n in nodes))    # (nodes to compute)
        return real(nodes)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tensor_mod, "evaluate", spy)
        ga = np.asarray(a)
        assert b.node.value is not None
        gb = np.asarray(b)
    assert calls == [2, 0]                       # (A, with B's data kept; then none)
    for got, want in ((ga, an), (gb, bn)):
        assert_eq(got, want)
        assert got.flags.f_contiguous == want.flags.f_contiguous


def test_an_array_written_whole_is_left_to_fuse(engine: Any) -> None:
    """``y[...] = a * b`` makes ``y``'s data the expression itself, not a
    buffer of a write's: a read of ``(y + 1).sum()`` fuses it as before
    (keeping it would write the full-size product)."""
    X = np.random.default_rng(11).random(1000)
    a = lt.asarray(X)
    y = lt.zeros(1000)
    y[...] = a * 2.0
    got = float((y + 1).sum())
    assert y.node.value is None
    assert got == float((X * 2.0 + 1).sum())


def test_compute_keeps_the_data_of_arrays_written_in_place(engine: Any) -> None:
    """``lt.compute`` keeps no result of its own, but the data of an array
    written in place that it computes is kept, as ``eval`` keeps it: a loop
    computing ``u.sum()`` every step computed every earlier step again
    (150 steps of a 64x64 stencil: 4 s, the last 50 2.3 s; now 60 ms).
    Nothing else is kept: not an expression two of its calls read."""
    A = np.random.default_rng(12).standard_normal((30, 30))

    def run(m: Any, compute: Any) -> Any:
        u = m.asarray(A).copy()
        got = []
        for _ in range(25):
            u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            got.append(compute(u.sum()))
        return u, got
    (u, got), (un, want) = run(lt, lambda s: lt.compute(s)[0]), run(np, lambda s: s)
    pending = [n for n in toposort([u.node]) if n.value is None]
    assert len(pending) < 12, len(pending)        # (one step's nodes)
    assert got == want
    assert_eq(u, un)
    # An output that is such data is kept too, and handed out as a copy.
    v = lt.asarray(A).copy()
    v[2] = 7.0
    (got_v,) = lt.compute(v)
    assert v.node.value is not None and got_v.flags.writeable
    got_v[...] = 0
    expected = A.copy()
    expected[2] = 7.0
    assert_eq(v, expected)
    # Nothing else is kept.
    w = lt.asarray(A) * 3.0
    (got_w,) = lt.compute(w + 1)
    (got_w2,) = lt.compute(w - 1)
    assert w.node.value is None
    assert_eq(got_w, A * 3.0 + 1)
    assert_eq(got_w2, A * 3.0 - 1)


def test_a_numpy_function_run_now_keeps_written_arrays_it_computes(engine: Any) -> None:
    """A NumPy function without a lazy twin computes its tensor arguments
    now (``values_now``), as a read: the data of another array written in
    place that it computes along the way is kept as ``eval`` keeps it."""
    rng = np.random.default_rng(13)
    A0, B0 = rng.random((8, 9)), rng.random((8, 9))

    def run(m: Any) -> Any:
        a, b = m.asarray(A0).copy(), m.asarray(B0).copy()
        for _ in range(5):
            b[1:-1] = 0.5 * (a[:-2] + a[2:])
            a[1:-1] = 0.5 * (b[:-2] + b[2:])
        return a, b
    an, bn = run(np)
    a, b = run(lt)
    assert np.array2string(a) == np.array2string(an)
    assert b.node.value is not None
    assert_eq(b, bn)


def test_compute_in_a_loop_rebinding_its_state_keeps_the_state() -> None:
    """``x = x - lr * g(x)`` with ``lt.compute(loss(x))`` every step: each
    call computed every earlier step (300 steps: 1.0 s, the last 100 0.6 s;
    now 50 ms).  What an earlier read computed is kept once it stands on
    more than ``_RECOMPUTE_DEEP`` pending nodes, so the graph left pending
    stays short; an expression two calls share is not (above)."""
    X = np.random.default_rng(15).random(500)

    def run(m: Any, compute: Any) -> Any:
        x = m.asarray(X)
        losses = []
        for _ in range(60):
            x = x - 0.1 * x * x
            losses.append(compute(m.sum(x * x)))
        return x, losses
    (x, got), (xn, want) = run(lt, lambda s: lt.compute(s)[0]), run(np, lambda s: s)
    assert got == want
    pending = [n for n in toposort([x.node]) if n.value is None]
    assert len(pending) <= 40, len(pending)       # (_RECOMPUTE_DEEP, 32, and a step)
    assert_eq(x, xn)
