"""Compile once, run many: placeholders, lt.function, @lt.jit, plan cache,
multi-output sharing, buffer donation, streaming.  Structural assertions only
(cache counters, kernel counts, allocation sizes), never wall time."""

from __future__ import annotations

import gc
import math
import threading
import tracemalloc
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyten as lt
from lazyten.compile import SYMBOLIC_DIM


def w1(a: Any, b: Any, c: Any, mod: Any = lt) -> Any:
    return 2 * a ** 2 + 3 * b * c - mod.sin(a) * mod.exp(-b)


def abc(n: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(n) for _ in range(3)]


# ---------------------------------------------------------------- lt.function

@pytest.mark.parametrize("n", [100, 10_000, 300_000])   # fast path, execute, numexpr/blocked
def test_function_matches_numpy(engine: Any, n: int) -> None:
    a, b, c = (lt.placeholder((n,), "float64", name=k) for k in "abc")
    f = lt.function([a, b, c], w1(a, b, c))
    A, B, C = abc(n)
    for _ in range(3):
        np.testing.assert_allclose(f(A, B, C), w1(A, B, C, np), rtol=1e-12)
    info = f.cache_info()
    assert (info.misses, info.currsize) == (1, 1) and info.hits == 3


def test_none_dims_across_shapes() -> None:
    x = lt.placeholder((None, 3), "float64", name="x")
    w = lt.placeholder((3,), "float64", name="w")
    assert x.shape == (SYMBOLIC_DIM, 3)
    outs = [(x * w).sum(axis=1), x.mean(axis=0), x.reshape(-1), x[1:, ::-1], x[-1],
            x.T @ x, lt.exp(x).max()]
    f = lt.function([x, w], outs)
    rng = np.random.default_rng(1)
    W = rng.standard_normal(3)
    for n in (1, 2, 5, 7, 5, 2):
        X = rng.standard_normal((n, 3))
        got = f(X, W)
        want = [(X * W).sum(axis=1), X.mean(axis=0), X.reshape(-1), X[1:, ::-1], X[-1],
                X.T @ X, np.exp(X).max()]
        for g, e in zip(got, want):
            assert g.shape == e.shape and g.dtype == e.dtype
            np.testing.assert_allclose(g, e, rtol=1e-12)
    info = f.cache_info()
    assert info.misses == 4 and info.hits == 2 and info.currsize == 4
    assert "float64[7,3]" in f.explain(all=True) and "float64[2,3]" in f.explain()


def test_none_dims_two_placeholders_and_keywords() -> None:
    x = lt.placeholder((None,), "float32", name="x")
    y = lt.placeholder((None,), "float32", name="y")
    f = lt.function([x, y], x * y + 1)
    X, Y = np.arange(4, dtype=np.float32), np.ones(4, np.float32)
    np.testing.assert_array_equal(f(y=Y, x=X), X * Y + 1)
    assert f(X, Y).dtype == np.float32
    np.testing.assert_array_equal(f(X, np.ones(1, np.float32)), X + 1)  # broadcasting 1
    with pytest.raises(ValueError, match="cannot specialize"):
        f(X, np.ones(3, np.float32))


def test_sizes_read_from_none_dimensions_map_to_the_calls_or_are_refused() -> None:
    # Every None dimension is built at one stand-in size, so a size read
    # from one (``x.shape[::-1]``, ``x[:, :x.shape[0]]``) does not say which:
    # the call's size where every None dimension has one, else a clear
    # error (the swap was the shape unswapped, the bound the whole axis).
    A, Q = np.arange(8.0).reshape(2, 4), np.arange(16.0).reshape(4, 4)
    for body in (lambda x: x.reshape(x.shape[::-1]), lambda x: x.reshape(x.shape[1], -1),
                 lambda x: x.reshape(x.shape[0], x.shape[1], 1) * 1,
                 lambda x: x[:, :x.shape[0]] * 1, lambda x: x[:x.shape[1]] * 1):
        p = lt.placeholder((None, None), np.float64, name="x")
        f = lt.function([p], body(p))
        with pytest.raises(ValueError, match="not known"):
            f(A)
        np.testing.assert_array_equal(f(Q), body(Q))            # one size: NumPy's
    X3 = np.arange(30.0).reshape(2, 5, 3)
    p = lt.placeholder((None, None, 3), np.float64, name="x")
    with pytest.raises(ValueError, match="not known"):
        lt.function([p], np.swapaxes(p, 0, 1).reshape(p.shape) * 1)(X3)
    # One None dimension: a bound read from it is the call's size.
    p = lt.placeholder((None, 3), np.float64, name="x")
    f = lt.function([p], p[:, :p.shape[0]] * 2)
    for n in (2, 5):
        X = np.arange(n * 3.0).reshape(n, 3)
        np.testing.assert_array_equal(f(X), X[:, :n] * 2)
    # A 1-d slice to a bound flattened (np.cumsum, ravel, np.sort(axis=None)
    # reshape it to its own shape) at a call shorter than the bound.
    for body in (lambda x: np.cumsum(x[:5]), lambda x: x[:5].ravel() * 1,
                 lambda x: np.sort(x[:5], axis=None)):
        p = lt.placeholder((None,), np.float64, name="x")
        f = lt.function([p], body(p))
        for n in (7, 4):
            X = np.arange(n, 0.0, -1.0)
            np.testing.assert_array_equal(f(X), body(X))
    # A Python int past int64 for a 0-d float input: NumPy's float of it.
    s = lt.placeholder((), np.float32, name="s")
    assert lt.function([s], s * 2)(2**70) == np.float32(2**70) * 2


def test_layouts_a_graph_took_as_c_are_refused_or_followed() -> None:
    # lt.function's graph is built before any call, so a decision by layout
    # (a write through a reshape of a computed value: NumPy's view on C
    # data, its copy on F) was taken as C and silently wrong for F data;
    # such a call is refused now, naming the line.  @lt.jit traces with each
    # call's layout (C, F or strides: permuted, broadcast arrays), NumPy's.
    def body(x: Any) -> Any:
        z = x * 2
        z.reshape(-1)[0] = 99.0
        return z
    C = np.arange(9.0).reshape(3, 3)
    F = np.asfortranarray(C)
    for dims in [(3, 3), (None, 3), (None, None)]:
        p = lt.placeholder(dims, np.float64, name="x")
        f = lt.function([p], body(p))             # (None, None): no 8 TB plan at build
        np.testing.assert_array_equal(f(C), body(C.copy()))
        with pytest.raises(ValueError, match=r"not C-contiguous.*test_compile.py:\d+"):
            f(F)
    p = lt.placeholder((3, 3), np.float64, name="x")
    with pytest.raises(ValueError, match="not C-contiguous"):
        lt.function([p], p.reshape(-1, order="A") + 0)(F)
    np.testing.assert_array_equal(lt.function([p], p.ravel("K") * 1)(F), F.ravel("K"))
    P3 = np.arange(24.0).reshape(2, 3, 4).transpose(1, 0, 2)     # permuted
    B = np.broadcast_to(np.arange(3.0), (2, 3))                   # zero strides
    for arr in (F, P3, B):
        want = body(arr)                          # (x itself is not written)
        np.testing.assert_array_equal(lt.jit(body)(arr), want)
        for fn in (lambda x: np.zeros_like(x * 1), lambda x: x.astype(np.float32).ravel("K"),
                   lambda x: (np.zeros_like(x) + x).ravel("K")):
            got, exp = lt.jit(fn)(arr), fn(arr)
            np.testing.assert_array_equal(got, exp)
            assert got.strides == exp.strides


def test_jit_results_are_laid_out_as_numpys_where_a_view_was_pushed() -> None:
    # The optimizer moves ``.T`` of ``x + y`` into its operands: over an F
    # ``x`` and a C ``y`` the plan's comparison came out C, NumPy's (a view
    # of the sum, then a "K" ufunc) F; eval and lt.compute relaid it, the
    # traced function's plan handed it out as it ran.  ``out=`` keeps the
    # caller's buffer.
    def f(x: Any, y: Any) -> Any:
        return (x + y).T > 1.5, (x * y).T[:, ::2] + 1.0
    C = np.arange(60.0).reshape(3, 4, 5)
    F = np.asfortranarray(C)
    for args in [(F, C), (C, F), (F, F[::-1])]:
        want = f(*args)
        g = lt.jit(f)
        for call in range(2):                      # traced, then from the cache
            got = g(*args)
            for r, w in zip(got, want):
                np.testing.assert_array_equal(r, w)
                assert r.strides == w.strides, (call, args[0].strides, r.strides, w.strides)
        bufs = (np.zeros(want[0].shape, bool), np.zeros(want[1].shape))
        assert g(*args, out=bufs)[0] is bufs[0]
        np.testing.assert_array_equal(bufs[1], want[1])


def test_ufunc_out_and_where_in_traced_functions() -> None:
    # NumPy's ufunc keywords ran NumPy's own call on values (eager), which a
    # trace has not: out= a tensor (a view of one too) and where= are now
    # the same writes, lazily, with NumPy's cast check.
    def f(x: Any) -> Any:
        y = x * 1
        np.multiply(y[::2], 3, out=y[::2])
        np.add(y, 1, out=y, where=y > 5)
        return y

    def g(x: Any) -> Any:
        return np.add(x, 1, where=x > 2)     # (NumPy's others: uninitialized)
    X = np.arange(6.0)
    np.testing.assert_array_equal(lt.jit(f)(X), f(X.copy()))
    p = lt.placeholder((None,), np.float64, name="x")
    np.testing.assert_array_equal(lt.function([p], f(p))(X), f(X.copy()))
    np.testing.assert_array_equal(lt.jit(g)(X)[3:], g(X)[3:])
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        lt.jit(lambda x: np.add(x, 0.5, out=(x * 1).astype(np.int64)))(np.arange(3))
    with pytest.raises(lt.TracingError, match="out must be one tensor"):
        lt.jit(lambda x: np.add(x, 1, out=np.zeros(6)))(X)


def test_an_argument_named_out_is_the_functions() -> None:
    # ``out=`` is the compiled function's buffer keyword, unless the traced
    # function has a parameter (or lt.function an input) of that name.
    def f(x: Any, out: Any) -> Any:
        return x + out
    a, b = np.ones(3), np.full(3, 5.0)
    np.testing.assert_array_equal(lt.jit(f)(a, out=b), f(a, out=b))
    x = lt.placeholder((3,), np.float64, name="x")
    o = lt.placeholder((3,), np.float64, name="out")
    np.testing.assert_array_equal(lt.function([x, o], x + o)(x=a, out=b), a + b)
    buf = np.empty(3)
    assert lt.jit(lambda x: x * 2)(a, out=buf) is buf            # (the buffer keyword)


def test_unsupported_specialization_is_a_clear_error() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    f = lt.function([x], x + lt.zeros((SYMBOLIC_DIM,)))   # a shape fixed at build time
    with pytest.raises(ValueError, match=r"lt.jit"):
        f(np.ones(3))


def test_wrong_inputs_name_the_input() -> None:
    x = lt.placeholder((None, 2), "float64", name="x")
    y = lt.placeholder((2,), "int32", name="y")
    f = lt.function([x, y], x * y)
    with pytest.raises(ValueError, match=r"'x' \(position 0\), declared \(None, 2\) float64 "
                                         r"got shape \(3, 3\)"):
        f(np.ones((3, 3)), np.ones(2, np.int32))
    with pytest.raises(ValueError, match=r"'y' \(position 1\).*got shape \(3,\)"):
        f(np.ones((3, 2)), np.ones(3, np.int32))
    with pytest.raises(TypeError, match=r"'y' \(position 1\), declared \(2,\) int32 got dtype "
                                        r"float64"):
        f(np.ones((3, 2)), np.ones(2))
    with pytest.raises(TypeError, match="takes 2 input"):
        f(np.ones((3, 2)))
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        f(np.ones((3, 2)), z=1)
    with pytest.raises(TypeError, match="placeholder"):
        lt.function([lt.asarray([1.0])], x)
    with pytest.raises(ValueError, match="not listed in inputs"):
        lt.function([x], x * y)


def test_inputs_are_never_written_and_results_are_owned() -> None:
    x = lt.placeholder((50,), "float64", name="x")
    f = lt.function([x], [x, x.T, x + 1, x + 1, x[::2]])
    X = np.arange(50.0)
    X.flags.writeable = False
    before = X.copy()
    outs = f(X)
    np.testing.assert_array_equal(X, before)
    for o in outs:
        assert o.flags.writeable and not np.shares_memory(o, X)
    assert outs[2] is not outs[3]
    outs[2][:] = -1
    np.testing.assert_array_equal(f(X)[2], before + 1)


def test_tensor_arguments_and_constants_in_the_graph() -> None:
    x = lt.placeholder((3,), "float64", name="x")
    k = lt.asarray(np.array([1.0, 2.0, 3.0]))
    f = lt.function([x], x * k)
    np.testing.assert_array_equal(f(lt.arange(3.0) + 1), [1.0, 4.0, 9.0])
    np.testing.assert_array_equal(f(x=np.ones(3)), [1.0, 2.0, 3.0])


# ---------------------------------------------------------------- tracing errors

@pytest.mark.parametrize("force", [bool, float, int, lambda t: t.item(), np.asarray, list,
                                   lambda t: t.eval(), print, repr,
                                   lambda t: lt.compute(t)])
def test_forcing_a_placeholder_raises_tracing_error(engine: Any, force: Any) -> None:
    x = lt.placeholder((1,), "float64", name="x")
    with pytest.raises(lt.TracingError, match=r"depends on placeholder\(s\) 'x'.*lt.where"):
        force(x.sum() + 1 if force is not list else x + 1)
    assert issubclass(lt.TracingError, TypeError)


def test_jit_control_flow_is_an_error() -> None:
    @lt.jit
    def f(x: Any) -> Any:
        if x.sum() > 0:
            return x
        return -x

    with pytest.raises(lt.TracingError, match="Python control flow on traced values"):
        f(np.ones(3))

    @lt.jit
    def g(x: Any, positive: bool) -> Any:          # the fix: a static argument...
        return x if positive else -x

    @lt.jit
    def h(x: Any) -> Any:                          # ... or lt.where
        return lt.where(x.sum() > 0, x, -x)

    np.testing.assert_array_equal(g(np.ones(3), False), -np.ones(3))
    np.testing.assert_array_equal(h(-np.ones(3)), np.ones(3))


# ---------------------------------------------------------------- @lt.jit

def test_jit_traces_once_per_signature() -> None:
    @lt.jit
    def f(a: Any, b: Any, c: Any, scale: float = 1.0) -> Any:
        return w1(a, b, c) * scale

    A, B, C = abc(64)
    for _ in range(5):
        np.testing.assert_allclose(f(A, B, C), w1(A, B, C, np), rtol=1e-12)
    assert f.traces == 1 and f.cache_info().hits == 4 and f.cache_info().misses == 1
    f(A, B, C, scale=2.0)                              # a static argument: new trace
    f(A[:10], B[:10], C[:10])                          # a new shape: new trace
    f(A.astype(np.float32), B.astype(np.float32), C.astype(np.float32))   # new dtypes
    assert f.traces == 4 and f.cache_info().currsize == 4
    np.testing.assert_allclose(f(A, B, C, scale=2.0), 2 * w1(A, B, C, np), rtol=1e-12)
    assert f.traces == 4
    assert f.explain().startswith("== f(a: float64[64], b: float64[64], c: float64[64])")
    f.cache_clear()
    assert f.cache_info() == (0, 0, 32, 0)
    f(A, B, C)
    assert f.traces == 5


def test_jit_repeats_the_call_before_only_for_the_same_arrays_signature() -> None:
    # A call of the arrays' shapes and dtypes of the call before runs its
    # plan at once; anything else (a static argument, another shape, another
    # byte order) is looked up and traced as usual.
    @lt.jit
    def f(a: Any, b: Any, k: float = 1.0) -> Any:
        return (a * b + 1) * k

    A, B = abc(8)[:2]
    want = A * B + 1
    for args, expect, traces in [((A, B), want, 1), ((A, B), want, 1),
                                 ((A, B, 2.0), 2 * want, 2), ((A, B), want, 2),
                                 ((A[:4], B[:4]), want[:4], 3), ((A, B), want, 3),
                                 ((A.astype(">f8"), B), want, 4), ((A, B), want, 4)]:
        got = f(*args)
        np.testing.assert_array_equal(got, expect)
        assert got.dtype == np.float64 and f.traces == traces
    info = f.cache_info()
    assert (info.hits, info.misses) == (4, 4)
    f.cache_clear()
    np.testing.assert_array_equal(f(A, B), want)
    assert f.traces == 5


def test_jit_multiple_outputs_lru_bound_and_nesting() -> None:
    @lt.jit(cache_size=2)
    def stats(x: Any) -> Any:
        return x.mean(), x.std(), x.max()

    @lt.jit
    def outer(x: Any) -> Any:
        m, s, _ = stats(x)                             # inlined into the outer trace
        return (x - m) / s

    for n in (3, 4, 5, 3):
        X = np.arange(float(n))
        m, s, mx = stats(X)
        assert (m, s, mx) == (X.mean(), X.std(), X.max())
    assert stats.cache_info().currsize == 2 and stats.cache_info().misses == 4
    X = np.arange(6.0)
    np.testing.assert_allclose(outer(X), (X - X.mean()) / X.std())
    with pytest.raises(TypeError, match="neither an array"):
        stats([1.0, 2.0])


def test_jit_method_and_unhashable() -> None:
    class Model:
        def __init__(self) -> None:
            self.w = np.array([1.0, 2.0])

        @lt.jit
        def forward(self, x: Any) -> Any:
            return x * self.w.sum()

    m = Model()
    np.testing.assert_array_equal(m.forward(np.ones(2)), [3.0, 3.0])


# ---------------------------------------------------------------- out= / donation

def test_out_writes_into_caller_buffers() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    f = lt.function([x], [x * 2, x.sum(), x[::-1]])
    X = np.arange(5.0)
    o = [np.empty(5), np.empty(()), np.empty(5)]
    res = f(X, out=o)
    assert all(r is b for r, b in zip(res, o))
    np.testing.assert_array_equal(o[0], X * 2)
    assert o[1] == 10.0
    np.testing.assert_array_equal(o[2], X[::-1])
    res = f(X, out=(None, None, o[2]))
    assert res[2] is o[2] and res[0] is not o[0]
    with pytest.raises(ValueError, match="needs 3 array"):
        f(X, out=o[:2])
    with pytest.raises(ValueError, match=r"out\[0\] has shape"):
        f(X, out=[np.empty(4), None, None])
    with pytest.raises(TypeError, match=r"out\[0\] has dtype"):
        f(X, out=[np.empty(5, np.float32), None, None])
    with pytest.raises(ValueError, match="overlaps an input"):
        f(X, out=[X, None, None])
    # Outputs written into one memory: one would hold the other's values
    # (accepted before: the first result silently held the second's)
    for shared in ((o[0], None, o[0]), (o[0][:5], None, o[0][::-1])):
        with pytest.raises(ValueError, match=r"out\[2\] overlaps out\[0\]"):
            f(X, out=shared)


@pytest.mark.parametrize("n", [6, 300_000])          # the fast path and the executor
def test_out_may_not_overlap_a_captured_array(n: int) -> None:
    # A function that reads a user's array it captured: writing an output
    # into that array would change what a later step reads (the second
    # output came out as 10 * (2x + w) instead of 10 * w).
    w = np.arange(float(n))
    W = lt.asarray(w)
    x0 = lt.placeholder((n,))
    f = lt.function([x0], [x0 * 2 + W, W * 10])
    g = lt.jit(lambda x: x * 2 + W)
    a = np.ones(n)
    for _ in range(2):                                   # the quick check, then the full one
        with pytest.raises(ValueError, match="captured"):
            f(a, out=[w, None])
        with pytest.raises(ValueError, match="captured"):
            f(a, out=[w[::-1], None])                    # a view of it too
        with pytest.raises(ValueError, match="captured"):
            g(a, out=w)
    np.testing.assert_array_equal(w, np.arange(float(n)))   # untouched
    o = np.empty(n)
    r = f(a, out=[o, None])
    assert r[0] is o
    np.testing.assert_array_equal(o, 2 + np.arange(float(n)))
    np.testing.assert_array_equal(r[1], np.arange(float(n)) * 10)


@pytest.mark.parametrize("n,backend", [(100, "auto"), (200_000, "numexpr")])
def test_out_loop_allocates_nothing_per_call(n: int, backend: str) -> None:
    # Small: the fast path (per-thread scratch).  Large: a numexpr kernel
    # writes straight into ``out`` (plain NumPy kernels would allocate their
    # full-size temporaries per call: the cost model's choice, not donation's).
    a, b, c = (lt.placeholder((n,), "float64", name=k) for k in "abc")
    # numexpr runs arithmetic only (its sin/exp are not NumPy's, bit for bit)
    expr = w1(a, b, c) if backend != "numexpr" else 2 * a * a + 3 * b * c - a / (b + 1)
    with lt.set_options(threads=1, backend=backend):   # (the calls' options pick their plan)
        f = lt.function([a, b, c], expr)
        if backend == "numexpr" and n > 1000:
            assert "kernel[numexpr]" in f.explain()
        A, B, C = abc(n)
        out = np.empty(n)
        f(A, B, C, out=out)                                # warm: caches, scratch
        f(A, B, C)
        tracemalloc.start()
        try:
            base, _ = tracemalloc.get_traced_memory()
            tracemalloc.reset_peak()
            for _ in range(10):
                f(A, B, C, out=out)
            _, peak10 = tracemalloc.get_traced_memory()
            tracemalloc.reset_peak()
            for _ in range(100):
                f(A, B, C, out=out)
            now, peak100 = tracemalloc.get_traced_memory()
            tracemalloc.reset_peak()
            for _ in range(100):
                f(A, B, C)
            _, peak_alloc = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        # With out=: nothing kept per call (flat), the peak does not grow with the
        # number of calls, and it stays below one output array (only a few small
        # Python objects live during a call).
        assert now - base < 16_384
        # (a few KiB of slack: an interpreter-level allocation, a GC generation,
        # may land in either window; a per-call leak would be 100 x bigger)
        assert peak100 <= peak10 + 16_384
        assert peak100 - base < max(4_096, 8 * n // 8)
        # Without out=: each call allocates its output (tracemalloc does see arrays).
        assert peak_alloc - base >= 8 * n
        want = w1(A, B, C, np) if backend != "numexpr" else 2 * A * A + 3 * B * C - A / (B + 1)
        np.testing.assert_allclose(out, want, rtol=1e-12)


def test_fast_path_compiles_its_numexpr_program_once_a_thread(monkeypatch: Any) -> None:
    """A small plan's fast path keeps its numexpr programs per thread even
    where its scratch is too big to keep (over 16 KiB): making a program
    compiles its expression (a 10,000-element chain took 1.1 ms a call,
    numexpr itself 0.1)."""
    import numexpr.necompiler
    from lazyten.exec import optimized
    made: list[int] = []
    real = numexpr.necompiler.NumExpr

    def counting(*args: Any, **kw: Any) -> Any:
        made.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(numexpr.necompiler, "NumExpr", counting)
    optimized.clear_plan_cache()
    X = np.linspace(0.0, 1.0, 10_000)
    x = lt.asarray(X)
    c, want = x, X
    for _ in range(10):
        c, want = c * 1.0001 + 0.5, want * 1.0001 + 0.5
    with lt.set_options(backend="numexpr"):
        for _ in range(3):
            np.testing.assert_array_equal(lt.compute(c)[0], want)
        n = len(made)
        fast = optimized._plans[(optimized.signature([c.node])[0], lt.get_options())].fast
        assert fast is not None and fast.scratch_bytes > optimized.FAST_PATH_HELD_BYTES
        for _ in range(5):
            np.testing.assert_array_equal(lt.compute(c)[0], want)
    assert len(made) == n


# ---------------------------------------------------------------- threads

@pytest.mark.parametrize("n", [100, 50_000])
def test_calls_from_several_threads(n: int) -> None:
    x = lt.placeholder((None,), "float64", name="x")
    y = lt.placeholder((None,), "float64", name="y")
    f = lt.function([x, y], [w1(x, y, x), (x * y).sum()])
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def work(seed: int) -> None:
        try:
            barrier.wait()
            rng = np.random.default_rng(seed)
            out = [np.empty(n), np.empty(())]
            for k in range(30):
                X, Y = rng.standard_normal(n), rng.standard_normal(n)
                u, v = f(X, Y, out=out) if k % 2 else f(X, Y)
                np.testing.assert_allclose(u, w1(X, Y, X, np), rtol=1e-12)
                np.testing.assert_allclose(v, (X * Y).sum(), rtol=1e-9)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors[0]
    assert f.cache_info().currsize == 1


# ---------------------------------------------------------------- multi-output sharing

def _compute_steps(plan: Any) -> int:
    return sum(1 for s in plan.steps if s.kind in ("kernel", "numpy", "blas"))


def test_multi_output_plans_share_work() -> None:
    rng = np.random.default_rng(2)
    A, B = rng.standard_normal((60, 40)), rng.standard_normal((40, 50))
    a, b = lt.asarray(A), lt.asarray(B)
    m = lt.tanh(a @ b)
    outs = [m.sum(axis=0), (m * m).mean(), m.max(axis=1)]
    joint = _compute_steps(lt.plan(*outs))
    separate = sum(_compute_steps(lt.plan(o)) for o in outs)
    assert joint < separate
    assert lt.explain(*outs).count("blas") < sum(lt.explain(o).count("blas") for o in outs)
    M = np.tanh(A @ B)
    for got, want in zip(lt.compute(*outs), [M.sum(axis=0), (M * M).mean(), M.max(axis=1)]):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    # The same in a compiled function with several outputs.
    x = lt.placeholder((60, 40), "float64", name="x")
    mm = lt.tanh(x @ b)
    f = lt.function([x], [mm.sum(axis=0), (mm * mm).mean(), mm.max(axis=1)])
    assert _compute_steps(f._const.plan) == joint
    np.testing.assert_allclose(f(A)[1], (M * M).mean(), rtol=1e-12)


# ---------------------------------------------------------------- streaming

def test_map_lists_and_stacks() -> None:
    x = lt.placeholder((None, 2), "float64", name="x")
    y = lt.placeholder((), "float64", name="y")
    f = lt.function([x, y], [x.sum(axis=0) * y, x.max()])
    batches = [(np.full((k + 1, 2), float(k)), 2.0) for k in range(4)]
    res = f.map(batches)
    assert len(res) == 4 and isinstance(res[0], tuple)
    sums, maxes = f.map(iter(batches), stack=True)
    assert sums.shape == (4, 2) and maxes.shape == (4,)
    np.testing.assert_array_equal(maxes, [0.0, 1.0, 2.0, 3.0])
    g = lt.function([x], x.sum())
    stacked = g.map((np.ones((k, 2)) for k in range(1, 4)), progress=True, stack=True)
    np.testing.assert_array_equal(stacked, [2.0, 4.0, 6.0])


def test_map_without_tqdm_warns(monkeypatch: Any) -> None:
    import builtins
    real = builtins.__import__

    def no_tqdm(name: str, *args: Any, **kw: Any) -> Any:
        if name.startswith("tqdm"):
            raise ImportError("no tqdm")
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    x = lt.placeholder((2,), "float64", name="x")
    f = lt.function([x], x + 1)
    with pytest.warns(RuntimeWarning, match="needs tqdm"):
        res = f.map([np.zeros(2)], progress=True)
    np.testing.assert_array_equal(res[0], [1.0, 1.0])


def test_fast_path_code_and_weak_scalars() -> None:
    # Small plans run as generated straight-line code; NEP 50 results kept.
    x = lt.placeholder((8,), "int32", name="x")
    f = lt.function([x], [x * 2 + 1, x < 2.5, x / 2, (x + 3).sum()])
    assert f._const.fast is not None
    X = np.arange(8, dtype=np.int32)
    for got, want in zip(f(X), [X * 2 + 1, X < 2.5, X / 2, (X + 3).sum()]):
        assert got.dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(got, want)


def test_a_none_size_used_as_a_number_is_detected() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    f = lt.function([x], x.sum() / x.shape[0])
    with pytest.raises(ValueError, match=r"x.shape\[0\], x.size\) was used as a number"):
        f(np.ones(4))
    g = lt.function([x], x.mean())                      # the way that works
    assert g(np.arange(4.0)) == 1.5


@pytest.mark.parametrize("build", [
    lambda x, y: x.sum() / (x.shape[0] - 1), lambda x, y: x / math.sqrt(x.shape[0]),
    lambda x, y: x * (1.0 / x.shape[0]), lambda x, y: x + (x.shape[0] - 1),
    lambda x, y: x * (2.0 / len(x)), lambda x, y: x / math.sqrt(x.shape[0] - 1),
    lambda x, y: y[:y.shape[0] - 1], lambda x, y: y[:y.shape[0] // 2],
    lambda x, y: y[::max(1, y.shape[0] // 2)], lambda x, y: y[:len(y) - 1] * 1,
    lambda x, y: y[y.shape[0] // 2], lambda x, y: y[len(y) // 3:] + 1,
], ids=lambda b: "")
def test_numbers_computed_from_a_none_size_are_refused(build: Any) -> None:
    """A None dimension's size is its stand-in's (``SYMBOLIC_DIM``) while the
    graph is built: a number computed from it (``n - 1``, ``n // 2``,
    ``1 / n``, ``sqrt(n)``), as a constant or a slice bound, was baked into
    the plan and gave wrong results silently (``y[:len(y) - 1]`` was all of
    ``y``, ``x.sum() / (n - 1)`` divided by 1,013,626).  Refused when the
    function is called, with @lt.jit named (which gives NumPy's answers)."""
    x = lt.placeholder((None, 4), "float64", name="x")
    y = lt.placeholder((None,), "float64", name="y")
    out = build(x, y)
    f = lt.function([x, y], [out])
    with pytest.raises(ValueError, match="lt.jit"):
        f(np.arange(12.0).reshape(3, 4), np.arange(6.0))
    jf = lt.jit(build)
    a, b = np.arange(12.0).reshape(3, 4), np.arange(6.0)
    np.testing.assert_allclose(jf(a, b), build(a, b), rtol=1e-15)


def test_none_dims_take_sizes_near_and_above_the_representative() -> None:
    # The call's sizes are real by construction: however large, and even
    # the representative size itself or a multiple of it, they are the
    # call's (it was 1,000,003, and every size above it was refused).
    # (uint8: the sizes matter here, not the bytes.)
    x = lt.placeholder((None,), "uint8", name="x")
    f = lt.function([x], x * 2)
    for n in (1_000_003, 1_000_004, 2_000_006, 3_000_009, SYMBOLIC_DIM, 2 * SYMBOLIC_DIM):
        got = f(np.ones(n, np.uint8))
        assert got.shape == (n,) and got[0] == got[-1] == 2
    y = lt.placeholder((None, 3), "uint8", name="y")
    g = lt.function([y], [(y * 2).sum(axis=1), y.reshape(-1) + 1])
    for n in (1_000_004, 2_000_006, 2 * SYMBOLIC_DIM):
        s, r = g(np.ones((n, 3), np.uint8))
        assert s.shape == (n,) and s[-1] == 6 and r.shape == (3 * n,) and r[-1] == 2


def test_big_captured_arrays_and_constants_are_not_taken_for_a_none_size() -> None:
    # The user's arrays are real sizes by construction, and a constant is
    # refused only as a multiple of the representative size, which is no
    # number a user writes.
    x = lt.placeholder((None,), "float64", name="x")
    X = np.arange(4.0)
    for m in (1_000_003, 2_000_006, SYMBOLIC_DIM, 2 * SYMBOLIC_DIM):
        W = np.arange(m, dtype=np.int64).astype(np.int8)
        w = lt.asarray(W)
        f = lt.function([x], [x * 2, w[-3:] + x.sum(), w * 1, w.reshape(-1, 1)[-2:]])
        a, b, c, d = f(X)
        np.testing.assert_array_equal(b, W[-3:] + X.sum())
        assert c.shape == (m,) and c[-1] == W[-1]
        np.testing.assert_array_equal(d, W.reshape(-1, 1)[-2:])
    for k in (1000003.0, 2000006, 3000009.0):
        np.testing.assert_array_equal(lt.function([x], x * k + 1)(X), X * k + 1)
    # A None dimension's size read while building is still refused.
    y = lt.placeholder((None, 3), "float64", name="y")
    for built in (y.sum() / y.size, lt.arange(y.shape[0]), lt.zeros((2 * len(y),)),
                  lt.broadcast_to(lt.asarray(1.0), y.shape)):
        with pytest.raises(ValueError, match="cannot specialize"):
            lt.function([y], [y * 2, built])(np.ones((4, 3)))


_bound = st.one_of(st.none(), st.integers(-12, 12))


@settings(max_examples=150, deadline=None)
@given(start=_bound, stop=_bound, step=st.one_of(st.none(), st.integers(-4, 4).filter(bool)),
       k=st.integers(-12, 11), sizes=st.lists(st.integers(0, 15), min_size=1, max_size=3))
def test_none_axis_indexing_matches_numpy(start: int | None, stop: int | None,
                                          step: int | None, k: int,
                                          sizes: list[int]) -> None:
    # Slices and integer indices on a None axis are re-specialized per size.
    x = lt.placeholder((None, 2), "float64", name="x")
    f = lt.function([x], (x[start:stop:step] * 2).sum(axis=1))
    g = lt.function([x], x[k] + 1)
    for n in sizes:
        X = np.arange(2.0 * n).reshape(n, 2)
        np.testing.assert_array_equal(f(X), (X[start:stop:step] * 2).sum(axis=1))
        if -n <= k < n:
            np.testing.assert_array_equal(g(X), X[k] + 1)
        else:
            with pytest.raises(IndexError):
                g(X)


_step = st.one_of(st.none(), st.integers(-7, 7).filter(bool))


@settings(max_examples=150, deadline=None)
@given(first=st.tuples(_bound, _bound, _step), second=st.tuples(_bound, _bound, _step),
       k=st.integers(-6, 5), sizes=st.lists(st.integers(0, 15), min_size=1, max_size=3))
def test_slices_of_a_sliced_none_axis_match_numpy(first: tuple[Any, Any, Any],
                                                   second: tuple[Any, Any, Any], k: int,
                                                   sizes: list[int]) -> None:
    # An axis sliced from a None axis is re-specialized like the None axis:
    # each call resolves the keys as written by Python's rules for its size
    # (also where the first slice made the axis small: ``x[::5][1:]``).
    x = lt.placeholder((None,), "float64", name="x")
    s1, s2 = slice(*first), slice(*second)
    f = lt.function([x], (x[s1] * 2)[s2] + 1)
    for n in sizes:
        X = np.arange(1.0, n + 1)
        np.testing.assert_array_equal(f(X), (X[s1] * 2)[s2] + 1)
    g = lt.function([x], x[1:][k])
    for n in sizes:
        X = np.arange(1.0, n + 1)
        if -(n - 1) <= k < n - 1:
            np.testing.assert_array_equal(g(X), X[1:][k])
        else:
            with pytest.raises(IndexError):
                g(X)


@settings(max_examples=100, deadline=None)
@given(start=_bound, k=st.integers(-12, 11), sizes=st.lists(st.integers(1, 15), min_size=1,
                                                             max_size=3))
def test_advanced_indices_beside_a_none_axis_match_numpy(start: int | None, k: int,
                                                          sizes: list[int]) -> None:
    """``gather``/``scatter`` keys hold slices and ints of a None axis: they
    are re-specialized per size as basic indices are; the arrays are data."""
    x = lt.placeholder((None, 4), "float64", name="x")
    f = lt.function([x], [x[start:, [0, 2]], x[k, [3, 1]], x[[0, -1], None, 1:]])

    @lt.jit
    def g(a: Any) -> Any:
        a = a * 2
        a[start:, [1, 3]] = -1
        a[a > 10] = 0
        return a

    for n in sizes:
        X = np.arange(4.0 * n).reshape(n, 4)
        G = X * 2
        G[start:, [1, 3]] = -1
        G[G > 10] = 0
        np.testing.assert_array_equal(g(X), G)
        if not -n <= k < n:
            with pytest.raises(IndexError):
                f(X)
            continue
        for got, want in zip(f(X), [X[start:, [0, 2]], X[k, [3, 1]], X[[0, -1], None, 1:]]):
            np.testing.assert_array_equal(got, want, strict=True)


def test_a_finely_strided_none_axis_indexed_again() -> None:
    x = lt.placeholder((None, 3), "float64", name="x")
    f = lt.function([x], [x[::5][1:], x[..., ::2][::5, None][-1], x[::4].T[:, 1::3]])
    for n in (0, 1, 6, 20, 33):
        X = np.arange(3.0 * n).reshape(n, 3)
        want = [X[::5][1:], X[..., ::2][::5, None][-1] if n else None, X[::4].T[:, 1::3]]
        if not n:
            with pytest.raises(IndexError, match="out of bounds.*getitem built at"):
                f(X)
            continue
        for got, w in zip(f(X), want):
            np.testing.assert_array_equal(got, w, strict=True)


def test_function_over_memory_limit_runs_in_chunks() -> None:
    n = 200_000
    x = lt.placeholder((None,), "float64", name="x")
    y = lt.placeholder((None,), "float64", name="y")
    s = lt.exp(x) * y
    with lt.set_options(memory_limit=400_000):
        f = lt.function([x, y], [s.sum(), s.max(), (s * s).mean()])
        X, Y = abc(n)[:2]
        got = f(X, Y)
        assert "runs in chunks within memory_limit" in f.explain()
        g = lt.function([x, y], [(s - s.mean()).sum(), s.max()])   # two passes
        with pytest.raises(MemoryError, match="memory_limit") as e:
            g(X, Y)
        assert any("not evaluated in chunks either" in m for m in e.value.__notes__)
    S = np.exp(X) * Y
    for g, w in zip(got, [S.sum(), S.max(), (S * S).mean()]):
        np.testing.assert_allclose(g, w, rtol=1e-10)


def test_a_plan_follows_the_options_of_its_call() -> None:
    # The calling context's options decide the plan, as they decide
    # lt.compute's; a plan made under others (at the first call, or when a
    # fixed-shape function was made) is not used: each context has its own.
    n = 200_000
    x = lt.placeholder((None,), "float64", name="x")
    y = lt.placeholder((n,), "float64", name="y")
    s, t = lt.exp(x) * 2, lt.exp(y) * 2
    f = lt.function([x], [s.sum(), s.max()])
    g = lt.function([y], [t.sum(), t.max()])              # planned when made
    h = lt.function([x], [(s - s.mean()).sum(), s.max()])  # two passes: no chunks
    with lt.set_options(memory_limit=400_000):
        k = lt.function([y], [t.sum(), t.max()])          # planned under the limit
    X = abc(n)[0]
    want = [(np.exp(X) * 2).sum(), (np.exp(X) * 2).max()]
    for fn in (f, g, h):
        fn(X)
    with lt.set_options(memory_limit=400_000):
        for fn in (f, g):
            for got, w in zip(fn(X), want):
                np.testing.assert_allclose(got, w, rtol=1e-10)
            assert "runs in chunks within memory_limit" in fn.explain()
            assert "with memory_limit=400000" in fn.explain()
        with pytest.raises(MemoryError, match="memory_limit"):
            h(X)
    for fn in (f, g, k):
        for got, w in zip(fn(X), want):
            np.testing.assert_allclose(got, w, rtol=1e-10)
        assert "runs in chunks" not in fn.explain()
    assert f.cache_info().currsize == 2 and f.cache_info().misses == 2
    with lt.set_options(optimize=False):
        for got, w in zip(f(X), want):
            np.testing.assert_allclose(got, w, rtol=1e-10)
        assert "unoptimized" in f.explain()

    # Another thread's options: its own plan, not the first caller's.
    def run() -> None:
        with lt.set_options(threads=1, backend="numpy"):
            f(X)
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert any(c.threads == 1 and c.opts.backend == "numpy" for c in f._cache.values())


def test_jit_plans_per_options_context_from_one_trace() -> None:
    @lt.jit
    def k(a: Any) -> Any:
        s = lt.exp(a) * 2
        return s.sum(), s.max()
    X = abc(200_000)[0]
    want = [(np.exp(X) * 2).sum(), (np.exp(X) * 2).max()]
    k(X)
    with lt.set_options(memory_limit=400_000):
        for got, w in zip(k(X), want):
            np.testing.assert_allclose(got, w, rtol=1e-10)
        assert "runs in chunks within memory_limit" in k.explain()
    k(X)
    assert "runs in chunks" not in k.explain()
    assert k.traces == 1 and k.cache_info().currsize == 2


@pytest.mark.parametrize("big", [2**40, -(2**40)])
def test_fast_path_keeps_an_out_of_range_python_int_a_scalar(big: int) -> None:
    # NEP 50: int32 / 2**40 divides in float64; the fast path must not bind
    # the constant as an int32 array (it overflowed converting it).
    x = lt.placeholder((3,), np.int32)
    f = lt.function([x], big / x + x * 2)
    a = np.array([1, 2, 3], np.int32)
    np.testing.assert_array_equal(f(a), big / a + a * 2)
    assert f(a).dtype == np.float64


def test_compiled_functions_are_freed_without_the_cyclic_collector() -> None:
    # A compiled signature used to store a closure over its own bound method
    # (and the generated code's namespace held the code): each was a cycle,
    # left with its plan and placeholders to the cyclic collector.
    gc.collect()
    gc.disable()
    try:
        f = lt.jit(lambda x: lt.sin(x) * 2.0)
        for n in (3, 3, 4):                        # a fast-path signature, then another
            np.testing.assert_allclose(f(np.ones(n)), np.sin(np.ones(n)) * 2.0)
        compiled = [weakref.ref(c) for c in f._cache.values()]
        assert len(compiled) == 2 and all(c().fast is not None for c in compiled)
        ref = weakref.ref(f)
        del f
        assert ref() is None and [c() for c in compiled] == [None, None]
    finally:
        gc.enable()


def test_one_structure_at_other_sizes_shares_its_generated_code() -> None:
    # A small plan's fast path is generated Python; plans of one structure
    # at other sizes (each a new plan) give the same source, compiled once,
    # and each runner still computes its own sizes.
    from lazyten import compile as C
    C._codes.clear()
    runners, data = [], []
    for n in (37, 41, 1000):
        arrays = abc(n, seed=n)
        ts = [lt.asarray(x) for x in arrays]
        plan = lt.plan(w1(*ts) * 0.5, w1(*ts).sum())
        runner = C._fast_runner(plan, [t.node.id for t in ts])
        assert runner is not None
        runners.append(runner)
        data.append(arrays)
    assert runners[0].source == runners[1].source == runners[2].source
    assert len(C._codes) == 1
    for runner, arrays in zip(runners, data):
        got_half, got_sum = runner(arrays, None)
        want = w1(*arrays, mod=np)
        np.testing.assert_array_equal(got_half, want * 0.5)
        assert got_half.shape == want.shape and got_half.dtype == want.dtype
        np.testing.assert_array_equal(got_sum, want.sum())


# ---------------------------------------------------------------- new sizes of a size class

def _count_calls(monkeypatch: Any, module: Any, name: str) -> list[int]:
    calls = [0]
    real = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_new_size_of_a_size_class_resizes_its_optimized_graph(monkeypatch: Any) -> None:
    # Two sizes of one class (here 32-63 elements) that optimize to one
    # graph: later sizes of the class resize that graph and plan it, with no
    # specialization and no passes, and compute NumPy's bits.
    from lazyten import compile as C
    from lazyten.exec import optimized
    optimizing = _count_calls(monkeypatch, optimized, "optimize")
    specializing = _count_calls(monkeypatch, C, "specialize")
    a, b, c = (lt.placeholder((None,), "float64", name=k) for k in "abc")
    y = w1(a, b, c)
    f = lt.function([a, b, c], [y, y.sum(), lt.cumulative_sum(y * 0.5)])
    for k, n in enumerate((37, 41, 45, 63, 50)):
        A, B, C_ = abc(n, seed=n)
        got = f(A, B, C_)
        want = w1(A, B, C_, np)
        for g, e in zip(got, (want, want.sum(), np.cumulative_sum(want * 0.5))):
            assert g.shape == e.shape and g.dtype == e.dtype
            np.testing.assert_array_equal(g, e)
        assert optimizing[0] == specializing[0] == min(k + 1, 2)
    assert f.cache_info().misses == 5
    assert "a: float64[50]" in f.explain() and "float64[63]" in f.explain(all=True)
    assert "the optimized graph of function(a: float64[41], b: float64[41], " \
        "c: float64[41]), resized" in f.explain()
    # Another class (64-127 elements) learns again; a call of mismatched
    # sizes is still the specialization's error.
    for n in (64, 100, 127):
        np.testing.assert_array_equal(f(*abc(n))[0], w1(*abc(n), mod=np))
    assert optimizing[0] == 4
    with pytest.raises(ValueError, match="cannot specialize"):
        f(np.ones(40), np.ones(41), np.ones(40))


def test_sizes_the_passes_wrote_into_the_graph_are_never_resized(monkeypatch: Any) -> None:
    # A mean is a sum times 1/n once optimized: its graph differs at every
    # size, so every size is specialized and optimized.
    from lazyten.exec import optimized
    optimizing = _count_calls(monkeypatch, optimized, "optimize")
    x = lt.placeholder((None, 3), "float64", name="x")
    f = lt.function([x], [(x - x.mean(axis=0)) / x.std(axis=0), x.var()])
    rng = np.random.default_rng(3)
    for n in (40, 44, 48, 52):
        X = rng.standard_normal((n, 3))
        got = f(X)
        np.testing.assert_allclose(got[0], (X - X.mean(axis=0)) / X.std(axis=0), rtol=1e-12)
        np.testing.assert_allclose(got[1], X.var(), rtol=1e-12)
    assert optimizing[0] == 4


def test_size_classes_keep_broadcasting_and_empty_sizes_apart(monkeypatch: Any) -> None:
    # Sizes 0 and 1 and equal or unequal None dimensions are classes of
    # their own: (n, 1) broadcasts where (n, n) does not, (0, 0) is empty.
    from lazyten.exec import optimized
    optimizing = _count_calls(monkeypatch, optimized, "optimize")
    x = lt.placeholder((None,), "float64", name="x")
    y = lt.placeholder((None,), "float64", name="y")
    f = lt.function([x, y], [lt.exp(x) * y - x, (x * y).sum()])
    rng = np.random.default_rng(4)
    for nx, ny in ((40, 40), (41, 41), (42, 1), (43, 43), (44, 1), (45, 1), (46, 1),
                   (0, 0), (0, 1), (1, 1), (1, 47)):
        X, Y = rng.standard_normal(nx), rng.standard_normal(ny)
        got = f(X, Y)
        for g, e in zip(got, (np.exp(X) * Y - X, (X * Y).sum())):
            assert g.shape == e.shape and g.dtype == e.dtype
            np.testing.assert_array_equal(g, e)
    # (40, 40) and (41, 41) learn, (43, 43) resizes; (n, 1): 42 and 44
    # learn, 45 and 46 resize; the rest are classes of one size each.
    assert optimizing[0] == 2 + 2 + 4
    assert f.cache_info().misses == 11


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_resized_graphs_match_numpy(data: st.DataObject) -> None:
    # Random expressions over two (None, 3) inputs and a fixed (3,) one at
    # sizes drawn in one bit length (one size class), so calls after the
    # first two distinct sizes are resized ones wherever the graph allows.
    unary = [("sin", np.sin), ("exp", np.exp), ("abs", np.abs), ("negative", np.negative)]
    binary = [("add", np.add), ("multiply", np.multiply), ("subtract", np.subtract),
              ("maximum", np.maximum)]
    reductions = [("sum", np.sum), ("max", np.max), ("prod", np.prod), ("mean", np.mean)]
    x = lt.placeholder((None, 3), "float64", name="x")
    y = lt.placeholder((None, 3), "float64", name="y")
    w = lt.placeholder((3,), "float64", name="w")
    lazy: list[Any] = [x, y, w]
    code: list[Callable[[list[Any]], Any]] = [lambda v: v[0], lambda v: v[1], lambda v: v[2]]
    for _ in range(data.draw(st.integers(1, 6), label="ops")):
        kind = data.draw(st.sampled_from("ubbsrtwcfg"), label="kind")
        i = data.draw(st.integers(0, len(lazy) - 1), label="operand")
        j = data.draw(st.integers(0, len(lazy) - 1), label="other")
        p, q, li, lj = code[i], code[j], lazy[i], lazy[j]
        try:
            np.broadcast_shapes(li.shape, lj.shape)
            fits = True
        except ValueError:
            fits = False
        if kind == "u":
            name, fn = data.draw(st.sampled_from(unary), label="unary")
            lazy.append(getattr(lt, name)(li))
            code.append(lambda v, p=p, fn=fn: fn(p(v)))
        elif kind == "b" and fits:
            name, fn = data.draw(st.sampled_from(binary), label="binary")
            lazy.append(getattr(lt, name)(li, lj))
            code.append(lambda v, p=p, q=q, fn=fn: fn(p(v), q(v)))
        elif kind == "s":
            k = data.draw(st.sampled_from([0.5, 2, -1.25]), label="scalar")
            lazy.append(li * k + 1)
            code.append(lambda v, p=p, k=k: p(v) * k + 1)
        elif kind == "r" and li.ndim == 2:
            name, fn = data.draw(st.sampled_from(reductions), label="reduction")
            axis = data.draw(st.sampled_from([0, 1, None]), label="axis")
            lazy.append(getattr(lt, name)(li, axis=axis))
            code.append(lambda v, p=p, fn=fn, axis=axis: fn(p(v), axis=axis))
        elif kind == "t" and li.ndim == 2:
            m = lj.ndim == 2 and lj.shape[0] == li.shape[0]
            lazy.append(li.T @ lj if m else li.T)
            code.append(lambda v, p=p, q=q, m=m: p(v).T @ q(v) if m else p(v).T)
        elif kind == "w" and fits:
            lazy.append(lt.where(li > lj, li, lj * 2))
            code.append(lambda v, p=p, q=q: np.where(p(v) > q(v), p(v), q(v) * 2))
        elif kind == "c" and li.ndim:
            axis = data.draw(st.integers(0, li.ndim - 1), label="axis")
            lazy.append(lt.cumulative_sum(li, axis=axis))
            code.append(lambda v, p=p, axis=axis: np.cumulative_sum(p(v), axis=axis))
        elif kind == "f":
            lazy.append(li.astype(np.float32) * 3)
            code.append(lambda v, p=p: p(v).astype(np.float32) * 3)
        elif kind == "g" and li.ndim and li.shape[0] == SYMBOLIC_DIM:
            # (a slice of a None axis; of a sliced one cannot be specialized)
            lazy.append(li[1:] * 2)
            code.append(lambda v, p=p: p(v)[1:] * 2)
    outs = lazy[3:] or [x + y]
    f = lt.function([x, y, w], outs)
    base = data.draw(st.sampled_from([2, 8, 32, 256]), label="base")
    sizes = data.draw(st.lists(st.integers(base, 2 * base - 1), min_size=3, max_size=6),
                      label="sizes")
    rng = np.random.default_rng(base)
    W = rng.uniform(-2, 2, 3)
    for n in sizes:
        X, Y = rng.uniform(-2, 2, (n, 3)), rng.uniform(-2, 2, (n, 3))
        with np.errstate(all="ignore"):
            got = f(X, Y, W)
            want = [np.asarray(fn([X, Y, W])) for fn in code[3:]] or [X + Y]
        for g, e in zip(got, want):
            assert g.shape == e.shape and g.dtype == e.dtype
            # (a matmul chain may be reassociated: its rounding is BLAS's)
            scale = float(np.abs(e[np.isfinite(e)]).max(initial=0.0))
            tol = 1e-5 if e.dtype == np.float32 else 1e-10
            np.testing.assert_allclose(g, e, rtol=tol, atol=tol * scale)


def test_size_forms_leave_out_what_may_hold_a_size() -> None:
    # Views (but transposes), slices and joins may hold sizes in their
    # attributes: their graphs have no form, and are never resized.
    from lazyten.exec.resize import size_form
    x = lt.placeholder((None, 3), "float64", name="x")
    rng = np.random.default_rng(5)
    X = rng.standard_normal((40, 3))
    cases = {"transpose, matmul": (lt.exp(x).T @ x, True),
             "reduction": ((x * 2).sum(axis=1), True),
             "masked reduction": ((x * 2).sum(axis=0, where=np.array([True, False, True])),
                                  True),
             "slice": (x[:5] * 2, False), "reshape": (x.reshape(-1) + 1, False),
             "concat": (lt.concat([x, x]) * 2, False)}
    for what, (expr, ok) in cases.items():
        f = lt.function([x], expr)
        f(X)
        c = f._cache.last
        assert c is not None and c.plan is not None
        assert (size_form(c.plan.graph, c.inputs) is not None) == ok, what


def test_like_functions_of_a_none_axis_are_specialized(engine: Any) -> None:
    # lt.zeros_like(x) of a None-dim x reads x's shape at each call; the
    # optimizer makes it a constant fill, so x's expression is not computed.
    x = lt.placeholder((None, 2), "float32", name="x")
    expensive = lt.exp(lt.sin(x)) * 3
    outs = [lt.maximum(x, lt.zeros_like(x)), lt.ones_like(expensive, dtype=np.int16),
            lt.full_like(x[1:], 7.5) + x[1:], lt.empty_like(x, dtype=np.uint8)]
    f = lt.function([x], outs)
    rng = np.random.default_rng(8)
    for n in (1, 3, 40, 44, 48):
        X = rng.standard_normal((n, 2)).astype(np.float32)
        got = f(X)
        want = [np.maximum(X, np.zeros_like(X)), np.ones_like(X, dtype=np.int16),
                np.full_like(X[1:], 7.5) + X[1:]]
        for g, e in zip(got, want):
            assert g.shape == e.shape and g.dtype == e.dtype
            np.testing.assert_array_equal(g, e)
        assert got[3].shape == X.shape and got[3].dtype == np.uint8
    if engine["optimize"]:
        g = lt.function([x], lt.ones_like(expensive))
        g(np.ones((4, 2), np.float32))
        plan = g.explain()
        assert "kernel" not in plan and "sin" not in plan and "full" in plan
    # A tensor of known shape keeps its plain constant fill, however large.
    for t in (lt.asarray(np.ones(3)), lt.asarray(np.ones(SYMBOLIC_DIM + 5, np.int8)) * 2):
        assert lt.zeros_like(t).node.op.name == "full"


def test_tile_and_repeat_of_a_none_axis_are_specialized() -> None:
    # Both broadcast an expanded axis to a target holding the None size.
    x = lt.placeholder((None, 3), "float64", name="x")
    cases = [(lambda m, t: m.tile(t, (2, 1))), (lambda m, t: m.tile(t, 2)),
             (lambda m, t: m.repeat(t, 2, axis=0)), (lambda m, t: m.repeat(t, 3, axis=1)),
             (lambda m, t: m.broadcast_to(t[:, None], (t.shape[0], 2, 3)))]
    f = lt.function([x], [case(lt, x) * 2 for case in cases])
    rng = np.random.default_rng(9)
    for n in (0, 1, 4, 7):
        X = rng.standard_normal((n, 3))
        for got, case in zip(f(X), cases):
            want = case(np, X) * 2
            assert got.shape == want.shape
            np.testing.assert_array_equal(got, want)
    # A target size of the None dimension in a position no input axis gives
    # is still the clear error.
    y = lt.placeholder((None,), "float64", name="y")
    g = lt.function([y], lt.broadcast_to(y[:, None], (y.shape[0], y.shape[0])))
    with pytest.raises(ValueError, match="representative size"):
        g(np.ones(3))


def test_reshapes_of_a_sliced_none_axis_are_specialized() -> None:
    x = lt.placeholder((None, 2), "float64", name="x")
    cases = [lambda t: t[1:].reshape(-1), lambda t: t[::2].reshape(-1, 1, 2),
             lambda t: t[1:].T.reshape(2, -1), lambda t: t.reshape(2, -1)]
    f = lt.function([x], [case(x) + 1 for case in cases[:3]])
    g = lt.function([x], cases[3](x) + 1)
    for n in (1, 2, 4, 7):
        X = np.arange(2.0 * n).reshape(n, 2)
        for got, case in zip(f(X), cases):
            np.testing.assert_array_equal(got, case(X) + 1)
        np.testing.assert_array_equal(g(X), X.reshape(2, -1) + 1)


def test_reshapes_of_several_none_axes_are_specialized() -> None:
    # Merged into one dimension, or only unit axes added and dropped.
    x = lt.placeholder((None, 3, None), "float64", name="x")
    cases = [lambda m, t: t.reshape(-1), lambda m, t: t.reshape(-1, 1),
             lambda m, t: m.expand_dims(t, 1), lambda m, t: m.expand_dims(t, -1)[:, :, 1:],
             lambda m, t: m.squeeze(m.expand_dims(t, 0), axis=0)]
    f = lt.function([x], [case(lt, x) * 2 for case in cases])
    for shape in ((1, 3, 1), (2, 3, 5), (4, 3, 2), (0, 3, 3)):
        X = np.arange(float(np.prod(shape))).reshape(shape)
        for got, case in zip(f(X), cases):
            want = case(np, X) * 2
            assert got.shape == want.shape
            np.testing.assert_array_equal(got, want)
    # Transposed first: a copy in the transposed order, merged the same way.
    y = lt.placeholder((None, None), "float64", name="y")
    g = lt.function([y], lt.swapaxes(y, 0, 1).reshape(-1) - y.reshape(-1))
    for shape in ((2, 3), (5, 1), (3, 3)):
        Y = np.arange(float(np.prod(shape))).reshape(shape)
        np.testing.assert_array_equal(g(Y), Y.T.reshape(-1) - Y.reshape(-1))


def test_a_cached_signature_still_checks_dtypes() -> None:
    # A call at the shapes of the call before skips the shape checks (done
    # when they were compiled), never the dtype ones.
    x = lt.placeholder((None,), "float64", name="x")
    s = lt.placeholder((), "float64", name="s")
    f = lt.function([x, s], x * s)
    for _ in range(3):
        np.testing.assert_array_equal(f(np.arange(3.0), 2.0), np.arange(3.0) * 2)
        np.testing.assert_array_equal(f(np.arange(3.0), np.float64(0.5)),
                                      np.arange(3.0) * 0.5)
        with pytest.raises(TypeError, match="got dtype int64"):
            f(np.arange(3), 2.0)
        with pytest.raises(TypeError, match="got dtype float32"):   # (a NumPy scalar: strong)
            f(np.arange(3.0), np.float32(0.5))
        with pytest.raises(ValueError, match=r"got shape \(3, 1\)"):
            f(np.ones((3, 1)), 2.0)
    info = f.cache_info()
    assert (info.misses, info.currsize) == (1, 1) and info.hits == 5
    f.cache_clear()
    assert f._recent is None and f.cache_info() == (0, 0, 32, 0)


def test_a_constant_made_by_the_first_compile_does_not_split_the_size_class(
        monkeypatch: Any) -> None:
    # The 0.0 that simplify makes of zeros_like(x) is new at the first
    # compile and an older node at the second: the form numbers nodes by
    # the graph's structure, not their ids, so the class is shared from the
    # second size on.
    from lazyten.exec import optimized
    optimizing = _count_calls(monkeypatch, optimized, "optimize")
    x = lt.placeholder((None,), "float64", name="x")
    w = lt.placeholder((None,), "float64", name="w")
    f = lt.function([x, w], [(x * w).sum() / w.sum(), lt.maximum(x, lt.zeros_like(x))])
    rng = np.random.default_rng(10)
    for n in (900, 1000, 950, 1020, 800):
        X, W = rng.standard_normal(n), rng.random(n)
        got = f(X, W)
        np.testing.assert_array_equal(got[0], (X * W).sum() / W.sum())
        np.testing.assert_array_equal(got[1], np.maximum(X, 0.0))
    assert optimizing[0] == 2
    assert "function(x: float64[1000], w: float64[1000]), resized" in f.explain()
    # A folded constant is a new node at every compile: compared by value.
    y = lt.placeholder((None, 3), "float64", name="y")
    g = lt.function([y], y * (lt.arange(3) * 2.0 + 1))
    for n in (40, 41, 42, 43):
        Y = rng.standard_normal((n, 3))
        np.testing.assert_array_equal(g(Y), Y * (np.arange(3) * 2.0 + 1))
    assert optimizing[0] == 4 and "resized" in g.explain()


def test_a_captured_array_returned_is_the_callers_copy() -> None:
    """An output that is an array the function captured (``lt.asarray(c)``,
    or an expression the optimizer reduces to it) is copied: a caller
    writing its result must not change ``c`` or later calls."""
    c = np.arange(3.0)
    x = lt.placeholder((3,), np.float64, name="x")

    @lt.jit
    def g(a: Any) -> Any:
        return lt.asarray(c)

    for f in (lambda a: lt.function([x], [x + 1, lt.asarray(c)])(a)[1],
              lambda a: lt.function([x], lt.asarray(c) * 1)(a), g):
        for _ in range(2):                 # the first call and the cached one
            r = f(np.zeros(3))
            assert not np.shares_memory(r, c)
            r[0] = 99.0
        np.testing.assert_array_equal(c, np.arange(3.0))


def test_jit_keys_static_values_by_type_inside_containers() -> None:
    """``(1,)``, ``(1.0,)`` and ``(True,)`` are equal but trace to other
    dtypes (NEP 50): each has its own trace."""
    @lt.jit
    def f(a: Any, k: Any) -> Any:
        return a * k[0] + next(iter(k[1]))

    a = np.arange(3, dtype=np.int8)
    for k in ((1, frozenset({1})), (1.0, frozenset({1})), (True, frozenset({1.0})),
              (1, frozenset({True}))):
        np.testing.assert_array_equal(f(a, k), a * k[0] + next(iter(k[1])), strict=True)
    assert f.cache_info().currsize == 4


def test_a_python_int_for_a_0d_integer_input_is_range_checked() -> None:
    si = lt.placeholder((), np.int32, name="si")
    h = lt.function([si], si * 2)
    with pytest.raises(OverflowError, match="si"):
        h(2 ** 40)                          # it wrapped to 0
    su = lt.placeholder((), np.uint8, name="su")
    h2 = lt.function([su], su * 2)
    np.testing.assert_array_equal(h2(3), np.uint8(6), strict=True)   # it was refused
    with pytest.raises(OverflowError):
        h2(-1)
    with pytest.raises(TypeError):
        h2(1.5)


def test_cache_clear_of_a_fixed_shape_function_keeps_its_plan() -> None:
    x = lt.placeholder((3,), np.float64, name="x")
    f = lt.function([x], x * 2)
    f(np.ones(3))
    f.cache_clear()
    assert f.cache_info().currsize == 1 and "function(x: float64[3])" in f.explain()
    f(np.ones(3))
    assert f.cache_info().hits == 1


def test_numpy_steps_that_return_an_argument_give_fresh_results() -> None:
    """``matrix_power(a, 1)`` is ``a`` itself and ``einsum('ij->ji', a)`` a
    view of it: the fast path copies such results, so a call's result is not
    its scratch buffer, which the next call would overwrite."""
    p = lt.placeholder((3, 3), np.float64)
    for out in (lt.linalg.matrix_power(p * 2, 1), lt.einsum("ij->ji", p * 2) + 0):
        f = lt.function([p], out)
        r1 = f(np.ones((3, 3)))
        r2 = f(np.full((3, 3), 5.0))
        r3 = f(np.full((3, 3), 5.0))
        assert r1 is not r2 and r2 is not r3
        np.testing.assert_array_equal(r1, np.full((3, 3), 2.0))
        np.testing.assert_array_equal(r2, np.full((3, 3), 10.0))


# ---------------------------------------------------------------- hunt fixes (compile-once)

def test_jit_keys_static_floats_by_their_bits() -> None:
    """``0.0 == -0.0`` and ``nan != nan``: static float (and complex)
    arguments are keyed by their bits, so ``-0.0`` gets its own trace and a
    NaN finds its trace again, also inside tuples, keywords and NumPy scalars."""
    @lt.jit
    def f(x: Any, k: Any) -> Any:
        return x * k

    @lt.jit
    def g(x: Any, k: Any = 1.0) -> Any:
        v = k[0] if isinstance(k, tuple) else k
        return x * np.copysign(1.0, np.real(v)) * np.copysign(1.0, np.imag(v) or 1.0)

    one = np.ones(2)
    for k in (0.0, -0.0, np.float64(0.0), np.float64(-0.0), np.float32(-0.0)):
        np.testing.assert_array_equal(f(one, k), one * k, strict=True)
    for k in ((0.0,), (-0.0,), complex(0.0, 0.0), complex(0.0, -0.0), complex(-0.0, 1.0)):
        v = k[0] if isinstance(k, tuple) else k
        want = one * np.copysign(1.0, np.real(v)) * np.copysign(1.0, np.imag(v) or 1.0)
        np.testing.assert_array_equal(g(one, k), want, strict=True)
        np.testing.assert_array_equal(g(one, k=k), want, strict=True)
    nan = float("nan")
    f.cache_clear()
    before = f.traces
    for _ in range(3):
        assert np.isnan(f(one, nan)).all()
        assert np.isnan(f(one, np.float64("nan"))).all()
        assert np.isnan(f(one, (nan,)[0])).all()
    assert f.traces - before == 2 and f.cache_info().currsize == 2


def test_resize_of_a_none_dimension_is_refused_when_built() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    with pytest.raises(ValueError, match="None dimension"):
        lt.resize(x, 4)
    with pytest.raises(ValueError, match="None dimension"):
        lt.resize(x[1:], (2, 2))
    with pytest.raises(ValueError, match="lt.resize.*None dimension"):
        lt.resize(x[:2], 3)                 # 2 long when built, 1 at a call with 1
    # Fixed sizes beside it still work, and @lt.jit (concrete shapes) too.
    y = lt.placeholder((3,), "float64", name="y")
    f = lt.function([y], lt.resize(y, 4) * 2)
    np.testing.assert_array_equal(f(np.arange(3.0)), np.resize(np.arange(3.0), 4) * 2)
    jf = lt.jit(lambda t: lt.resize(t, 4))
    for n in (0, 2, 5):
        np.testing.assert_array_equal(jf(np.arange(float(n))), np.resize(np.arange(float(n)), 4),
                                      strict=True)


def test_put_with_clip_or_wrap_on_a_none_dimension_is_refused_when_built() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    for mode in ("clip", "wrap"):
        y = x * 1
        with pytest.raises(ValueError, match="None dimension"):
            lt.put(y, [5], -1.0, mode=mode)
    z = lt.placeholder((4,), "float64", name="z")
    w = z * 1
    lt.put(w, [9, -3], -1.0, mode="clip")
    Z = np.arange(4.0)
    W = Z * 1
    np.put(W, [9, -3], -1.0, mode="clip")
    np.testing.assert_array_equal(lt.function([z], w)(Z), W)


@pytest.mark.parametrize("case", [
    lambda m, t: m.broadcast_to(t[:2], (3, 2)),
    lambda m, t: t[:2].reshape(2, 1),
    lambda m, t: m.tile(t[:2], 2),
    lambda m, t: m.repeat(t[:2], 2),
    lambda m, t: m.broadcast_to(t[-3:][:, None], (3, 2)),
])
def test_an_axis_sliced_to_a_bound_is_never_resized_as_a_none_axis(case: Any) -> None:
    """``x[:2]`` of a None dimension is 2 long when built, and shorter at a
    call with fewer elements: a size read from it when the graph was built
    (a broadcast target, a reshape) is the user's bound, not the call's.
    Where the call makes such an axis shorter, the result is NumPy's or a
    clear error, never a silently other shape."""
    x = lt.placeholder((None,), "float64", name="x")
    f = lt.function([x], case(lt, x))
    for n in (5, 3, 2, 1, 0, 4):
        X = np.arange(1.0, n + 1)
        try:
            want = case(np, X)
        except ValueError:
            want = None
        try:
            got = f(X)
        except ValueError as e:
            assert "None dimension" in str(e) or want is None, str(e)
            continue
        assert want is not None, f"n={n}: got {got!r}, NumPy raises"
        np.testing.assert_array_equal(got, want, strict=True)


@pytest.mark.parametrize("name, build", [
    ("lt.diag", lambda t: lt.diag(t, -1)), ("lt.diag", lambda t: lt.diag(t)),
    ("lt.diag", lambda t: lt.diag(t[:2], 1)), ("lt.diagflat", lambda t: lt.diagflat(t)),
    ("lt.vander (without N)", lambda t: lt.vander(t))])
def test_square_results_of_a_none_dimension_are_refused_when_built(name: str,
                                                                     build: Any) -> None:
    # An n-by-n result needs n as a number when the graph is built.
    x = lt.placeholder((None,), "float64", name="x")
    import re
    with pytest.raises(ValueError, match=re.escape(f"{name} cannot be compiled with a None "
                                                   f"dimension")):
        build(x)
    # Fixed sizes, and @lt.jit, which traces each shape.
    y = lt.placeholder((3,), "float64", name="y")
    Y = np.arange(1.0, 4.0)
    want = build(lt.asarray(Y)).eval()
    np.testing.assert_array_equal(lt.function([y], build(y))(Y), want, strict=True)
    np.testing.assert_array_equal(lt.jit(build)(Y), want, strict=True)


def test_vander_with_n_of_a_none_dimension_is_specialized() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    fs = {N: lt.function([x], lt.vander(x, N)) for N in (0, 1, 3)}
    g = lt.function([x], lt.vander(x, 3, increasing=True))
    for n in (0, 1, 2, 5):
        X = np.arange(1.0, n + 1)
        for N, f in fs.items():
            np.testing.assert_array_equal(f(X), np.vander(X, N), strict=True)
        np.testing.assert_array_equal(g(X), np.vander(X, 3, increasing=True), strict=True)


def test_masked_arrays_and_matrices_are_refused_naming_the_input() -> None:
    # np.asarray would drop the mask (or np.matrix's ``*``), silently.
    m = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    x = lt.placeholder((None,), "float64", name="x")
    f = lt.function([x], x * 2)
    with pytest.raises(TypeError, match="'x'.*MaskedArray"):
        f(m)
    with pytest.raises(TypeError, match="'x'.*MaskedArray"):
        f(x=m)
    # (@lt.jit takes it as a masked tensor: test_jit_takes_and_returns_masked_arrays)
    p = lt.placeholder((2, 2), "float64", name="p")
    with pytest.raises(TypeError, match="'p'.*matrix"):
        lt.function([p], p * p)(np.matrix(np.eye(2)))
    # Other subclasses (a memmap) are their data, as np.asarray reads them.
    class Sub(np.ndarray):
        pass
    np.testing.assert_array_equal(f(np.arange(3.0).view(Sub)), np.arange(3.0) * 2,
                                  strict=True)


def test_jit_takes_and_returns_masked_arrays(engine: Any) -> None:
    """``@lt.jit`` of numpy.ma arguments traces them as lt.ma masked tensors
    (their mask, nomask or not and fill value part of the signature) and
    returns masked results as numpy.ma arrays (their nomask decided by the
    values where numpy.ma's is), traced once per signature; it refused
    masked arguments and results.  ``out=`` is refused for masked results."""
    @lt.jit
    def f(m: Any, k: Any) -> Any:
        return (m * k).sum(axis=0), m > 1, lt.ma.masked_where(m > 100, m), (m * k).filled(0)

    def want(m: Any, k: Any) -> Any:
        return (m * k).sum(axis=0), m > 1, np.ma.masked_where(m > 100, m), (m * k).filled(0)
    x = np.arange(6.0).reshape(2, 3)
    cases = [np.ma.masked_array(x, mask=x > 3, fill_value=7.0), np.ma.masked_array(x),
             np.ma.masked_array(x * 100, mask=[[1, 0, 0], [0, 0, 0]]),
             np.ma.masked_array(x + 1, mask=x < 3, fill_value=7.0)]
    for a in cases:
        for got, exp in zip(f(a, 2), want(a, 2)):
            if isinstance(exp, np.ma.MaskedArray):
                assert isinstance(got, np.ma.MaskedArray)
                np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(exp))
                np.testing.assert_array_equal(got.filled(0), exp.filled(0), strict=True)
                assert (np.ma.getmask(got) is np.ma.nomask) == \
                    (np.ma.getmask(exp) is np.ma.nomask)
                assert got.fill_value == exp.fill_value
            else:
                np.testing.assert_array_equal(got, exp, strict=True)
    assert f.traces == 3          # (the last case is the first's signature)
    with pytest.raises(TypeError, match="out= is not supported"):
        f(cases[0], 2, out=[None] * 6)
    # a masked tensor returned alone; an lt.ma argument taken by its value
    g = lt.jit(lambda m: lt.ma.sqrt(m))
    exp = np.ma.sqrt(np.ma.masked_array([4.0, -1.0, 9.0], mask=[0, 0, 1]))
    for arg in (np.ma.masked_array([4.0, -1.0, 9.0], mask=[0, 0, 1]),
                lt.ma.masked_array([4.0, -1.0, 9.0], mask=[0, 0, 1])):
        got = g(arg)
        np.testing.assert_array_equal(got.filled(-5), exp.filled(-5))
        np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(exp))


def test_only_python_scalars_are_cast_to_a_0d_input() -> None:
    """A Python number is weak (NEP 50): it takes the 0-d input's dtype.
    NumPy scalars and 0-d arrays have their own dtype: a wrong one is the
    TypeError an n-d array of it gets."""
    s = lt.placeholder((), np.float32, name="s")
    f = lt.function([s], s * 3)
    np.testing.assert_array_equal(f(0.1), np.float32(0.1) * 3, strict=True)
    for bad in (np.array(0.1), np.float64(0.1), np.float16(0.1)):
        with pytest.raises(TypeError, match="'s'.*float"):
            f(bad)
    si = lt.placeholder((), np.int8, name="si")
    g = lt.function([si], si + 1)
    np.testing.assert_array_equal(g(5), np.int8(6), strict=True)
    np.testing.assert_array_equal(g(np.int8(5)), np.int8(6), strict=True)
    for bad in (np.array(5), np.int64(300), np.int64(5)):
        with pytest.raises(TypeError, match="'si'.*int64"):
            g(bad)
    with pytest.raises(OverflowError, match="'si'.*Python integer 300"):
        g(300)


def test_array_outputs_and_byte_swapped_inputs() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    c = np.ones(3)
    f = lt.function([x], [x * 2, c])
    got = f(np.arange(2.0))
    np.testing.assert_array_equal(got[0], np.arange(2.0) * 2, strict=True)
    np.testing.assert_array_equal(got[1], c, strict=True)
    got[1][0] = 5.0
    assert c[0] == 1.0
    X = np.arange(3.0).astype(">f8")
    np.testing.assert_array_equal(f(X)[0], np.arange(3.0) * 2, strict=True)
    s = lt.placeholder((), np.int16, name="s")
    np.testing.assert_array_equal(lt.function([s], s + 1)(np.array(3, ">i2")), np.int16(4),
                                  strict=True)
    with pytest.raises(TypeError, match="'x'.*>f4"):
        f(np.ones(2, ">f4"))


def test_index_assignment_on_a_none_dimension_is_specialized() -> None:
    """``y[0] = 5``, ``y[1:] = ...``, ``y[[0, -1]] += 1`` on a tensor over a
    None dimension: the index is resolved for each call's size, as a read's."""
    def body(m: Any, x: Any) -> Any:
        y = x * 1
        y[0] = 5
        y[-1, 1:] = -1
        y[1:] = y[1:] + y[:-1]
        y[[0, -1], 2] += 1
        y[::2, [0, 2]] = 7
        return y

    x = lt.placeholder((None, 3), "float64", name="x")
    f = lt.function([x], body(lt, x))
    for n in (1, 2, 5, 3):
        X = np.arange(3.0 * n).reshape(n, 3)
        np.testing.assert_array_equal(f(X), body(np, X.copy()), strict=True)
    with pytest.raises(IndexError):
        f(np.zeros((0, 3)))


def test_an_in_place_operation_on_a_placeholder_handle_is_named() -> None:
    x = lt.placeholder((None,), "float64", name="x")
    y = x
    y += 1
    with pytest.raises(TypeError, match="in-place"):
        lt.function([y], y * 2)


def test_writes_through_views_of_a_none_dimension_are_specialized() -> None:
    def through_view(t: Any) -> Any:
        y = t * 1
        d = y[1:]
        d[0] = 5
        y[::-1][::2] = 0
        return y

    def through_reshape(t: Any) -> Any:
        y = t * 1
        r = y.reshape(-1, 1)
        r[-1, 0] = 3
        return y

    x = lt.placeholder((None,), "float64", name="x")
    for case in (through_view, through_reshape):
        f = lt.function([x], case(x))
        for n in (2, 5, 1, 0):
            X = np.arange(1.0, n + 1)
            try:
                want = case(X.copy())
            except IndexError:
                with pytest.raises(IndexError):
                    f(X)
                continue
            np.testing.assert_array_equal(f(X), want, strict=True)


@pytest.mark.parametrize("build", [
    lambda x: lt.array_split(x, 3), lambda x: lt.split(x, 3),
    lambda x: lt.take(x, [5], mode="clip"), lambda x: lt.take(x[1:], [-5], mode="wrap"),
    lambda x: lt.array_split(x[1:], 2)],
    ids=["array_split", "split", "take-clip", "take-wrap", "array_split-of-a-slice"])
def test_sizes_from_a_none_dimension_are_refused_when_built(build: Any) -> None:
    """Sections and clipped or wrapped indices computed from a None
    dimension's stand-in size would be that size's for every call (array_split
    returned the whole array as its first piece): refused on the line."""
    x = lt.placeholder((None,), np.float64)
    with pytest.raises(ValueError, match="None dimension"):
        build(x)
    # explicit bounds, and a fixed size, still work
    f = lt.function([x], lt.array_split(x, [1, 3]))
    assert [p.tolist() for p in f(np.arange(6.0))] == [[0.0], [1.0, 2.0], [3.0, 4.0, 5.0]]
    y = lt.placeholder((5,), np.float64)
    assert lt.function([y], lt.take(y, [7], mode="clip"))(np.arange(5.0)).tolist() == [4.0]


@pytest.mark.parametrize("build", [
    lambda x: lt.meshgrid(x, x[:2])[0], lambda x: lt.meshgrid(x, x)[0],
    lambda x: lt.broadcast_arrays(x[:, None], lt.ones(3))[1],
    lambda x: lt.broadcast_to_same(x[:1][:, None], lt.ones(3))[1]],
    ids=["meshgrid-bound", "meshgrid", "broadcast_arrays", "broadcast_to_same-bound"])
def test_an_operand_broadcast_to_a_none_dimension_is_refused_when_built(build: Any) -> None:
    """An operand broadcast along an axis takes its length from another
    operand; a None dimension's (or one sliced to a bound: ``x[:2]`` is one
    long at one element) would stay the build's number in that operand's
    ``broadcast_to``: meshgrid(x, x[:2]) gave two rows at one element.
    Refused on the line; broadcasting a fixed length still compiles."""
    x = lt.placeholder((None,), np.float64)
    with pytest.raises(ValueError, match="None dimension"):
        build(x)
    f = lt.function([x], lt.broadcast_arrays(x[:, None], x[:, None] * lt.ones(3))[0])
    for n in (0, 1, 4):
        a = np.arange(n * 1.0)
        want = np.broadcast_arrays(a[:, None], a[:, None] * np.ones(3))[0]
        np.testing.assert_array_equal(f(a), want, strict=True)


CALL_SIZED_CASES = [
    ("zeros_like-bound", (None,), lambda m, x: m.zeros_like(x[:2]) + x[:2]),
    ("ones_like-bound-2d", (None, 3), lambda m, x: m.ones_like(x[:2])),
    ("polyval-bound", (None,), lambda m, x: m.polyval([1.0, 2.0], x[:2])),
    ("cov-bound", (None,), lambda m, x: m.cov(x[-3:])),
    ("median-bound", (None, 3), lambda m, x: m.median(x[-3:], axis=0)),
    ("average-returned", (None,), lambda m, x: m.average(x[:2], returned=True)),
    ("average-returned-axis0", (None, 3), lambda m, x: m.average(x[-3:], axis=0, returned=True)),
    ("average-returned-axis1", (None, 3), lambda m, x: m.average(x[:2], axis=1, returned=True)),
    ("average-weights", (None, 3),
     lambda m, x: m.average(x[:2], axis=1, weights=[1.0, 2.0, 3.0], returned=True)),
    ("iscomplex-bound", (None,), lambda m, x: m.iscomplex(x[:2])),
    ("ma-mask-false", (None,), lambda m, x: m.ma.masked_array(x[:2], mask=False).filled(9.0)),
    ("ma-mask-true", (None,), lambda m, x: m.ma.array(x[:2], mask=True).filled(9.0)),
    ("ma-getmaskarray", (None,), lambda m, x: m.ma.getmaskarray(m.ma.masked_array(x[:2]))),
]


@pytest.mark.parametrize("name,dims,build", CALL_SIZED_CASES, ids=[c[0] for c in CALL_SIZED_CASES])
def test_lengths_known_at_the_call_are_never_baked_in(name: str, dims: Any, build: Any) -> None:
    """Library functions that compute with a length a compiled function's
    call may change (a None dimension, or one sliced to a bound: ``x[:2]``
    is 1 long at a call with one element) either refuse when built or give
    NumPy's result at every call; they gave the build's lengths (hunt 54:
    ``zeros_like(x[:2])`` was 2 long at one element, ``cov(x[-3:])``
    divided by the bound, masks of ``x[:2]`` were 2 long)."""
    x = lt.placeholder(dims, np.float64)
    try:
        f = lt.function([x], build(lt, x))
    except ValueError as e:
        assert "None dimension" in str(e) or "known only when" in str(e), e
        return
    for n in (0, 1, 2, 5):
        a = np.arange(n * math.prod(d for d in dims if d is not None), dtype=np.float64)
        a = a.reshape(tuple(n if d is None else d for d in dims))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = build(np, a)
            except ZeroDivisionError:
                continue     # (average's count of an empty result: NumPy's Python 0 / 0)
            except Exception as e:  # noqa: BLE001 - NumPy's error must be the call's
                with pytest.raises(type(e)):
                    f(a)
                continue
            got = f(a)
        for g, w in zip(got if isinstance(want, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            np.testing.assert_array_equal(g, np.asarray(w), strict=True, err_msg=f"n={n}")


@pytest.mark.parametrize("dims,build,fails", [
    ((None,), lambda m, x: m.squeeze(x), {1}), ((None, 1), lambda m, x: x.squeeze(), {1}),
    ((None, 3), lambda m, x: m.squeeze(x[:2]), {0, 1}),      # (x[:2] cut: the bound's error)
    ((None, 3), lambda m, x: m.cov(x), {1})],
    ids=["none", "method", "bound", "cov-variables"])
def test_squeeze_without_axis_is_checked_at_each_call(dims: Any, build: Any,
                                                      fails: set[int]) -> None:
    """``squeeze()`` chooses its axes when built; a call where a kept axis
    of a None dimension (or one sliced to a bound) is 1 long, which NumPy
    would drop, raises (it returned that axis kept); other calls are
    NumPy's, and a write through the squeezed view reaches the input."""
    x = lt.placeholder(dims, np.float64)
    f = lt.function([x], build(lt, x))
    for n in (0, 2, 5, 1):
        a = np.arange(n * math.prod(d for d in dims if d is not None), dtype=np.float64)
        a = a.reshape(tuple(n if d is None else d for d in dims))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = build(np, a)
            if n in fails:
                with pytest.raises(ValueError, match="squeeze without axis|sliced to a bound"):
                    f(a)
                continue
            np.testing.assert_array_equal(f(a), want, strict=True, err_msg=f"n={n}")
    y = lt.asarray(np.zeros((3, 1)))
    v = y.squeeze()
    v[0] = 5.0
    np.testing.assert_array_equal(y.eval(), [[5.0], [0.0], [0.0]])


def test_lexsort_keys_of_two_none_dimensions_are_checked_at_the_call() -> None:
    p, q = lt.placeholder((None,), np.float64), lt.placeholder((None,), np.float64)
    f = lt.function([p, q], lt.lexsort([p, q]))
    np.testing.assert_array_equal(f(np.array([2.0, 1.0]), np.array([0.0, 0.0])),
                                  np.lexsort([np.array([2.0, 1.0]), np.zeros(2)]))
    for a, b in (([1.0], [2.0, 1.0]), ([1.0, 2.0], [3.0, 4.0, 0.0])):
        with pytest.raises(ValueError):
            np.lexsort([np.array(a), np.array(b)])
        with pytest.raises(ValueError):
            f(np.array(a), np.array(b))


def test_select_over_a_none_dimension_is_specialized() -> None:
    """``select``'s default is broadcast by its ``where`` chain, not by a
    ``broadcast_to`` of the build's sizes (the call failed, naming it)."""
    x = lt.placeholder((None,), np.float64)
    f = lt.function([x], lt.select([x > 0.5, x < 0.2], [x, x * 2], default=-1))
    for n in (0, 1, 5):
        a = np.linspace(0.0, 1.0, n)
        want = np.select([a > 0.5, a < 0.2], [a, a * 2], default=-1)
        np.testing.assert_array_equal(f(a), want, strict=True)


def test_errors_over_a_none_dimension_do_not_quote_its_stand_in() -> None:
    """The user never had the stand-in size: a reshape that cannot fit every
    length says so, and the operands show the None dimension as None."""
    x = lt.placeholder((None, 3), np.float64)
    with pytest.raises(ValueError) as ei:
        x.reshape(-1, 6)
    msg = str(ei.value)
    assert "None dimension" in msg and "(None, 3) float64" in msg
    assert str(SYMBOLIC_DIM) not in msg and str(3 * SYMBOLIC_DIM) not in msg


@pytest.mark.parametrize("build", [
    lambda m, v: m.pad(v, ((0, 0), (1, 1))),
    lambda m, v: m.pad(v, ((1, 2), (2, 0)), constant_values=((7, 8), (9, 1))),
    lambda m, v: m.diff(v, axis=1, prepend=0), lambda m, v: m.diff(v, axis=0, append=2.5)],
    ids=["pad", "pad_values", "diff_prepend", "diff_append"])
def test_constant_blocks_beside_a_none_dimension(build: Any) -> None:
    """pad's constant blocks and diff's scalar prepend along a fixed axis
    take the None axis' length from the operand, call by call (they were
    full blocks of the stand-in's length: every call failed)."""
    x = lt.placeholder((None, 3), "float64", name="x")
    f = lt.function([x], build(np, x))
    for n in (0, 1, 4):
        X = np.arange(n * 3.0).reshape(n, 3)
        got, want = f(X), build(np, X)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    # Both axes None, the padded one 0 long at a call (its block took one
    # slice of it: refused there)
    y = lt.placeholder((None, None), "float64", name="y")
    g = lt.function([y], build(np, y))
    for shape in ((0, 3), (2, 0), (0, 0), (2, 3)):
        Y = np.arange(float(np.prod(shape))).reshape(shape)
        got, want = g(Y), build(np, Y)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_in_place_operators_over_none_dimensions_refuse_a_growing_target() -> None:
    """``z += y`` where a call gives y more rows than z: NumPy's in-place
    refuses to broadcast the target; the compiled function refused nothing
    and gave a result of y's rows (helper 65)."""
    x = lt.placeholder((None, 3), "float64", name="x")
    y = lt.placeholder((None, 3), "float64", name="y")
    z = x.copy()
    z += y
    f = lt.function([x, y], [z, z.sum(axis=0)])
    with pytest.raises(ValueError, match="broadcast"):
        f(np.ones((1, 3)), np.ones((4, 3)))
    for a, b in (((4, 3), (4, 3)), ((4, 3), (1, 3)), ((0, 3), (1, 3))):
        X, Y = np.ones(a), np.arange(np.prod(b), dtype=float).reshape(b)
        want = X.copy()
        want += Y
        got, s = f(X, Y)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(s, want.sum(axis=0))
