"""Fused-kernel backends: numexpr only where exact, the cost model, calibration."""

from __future__ import annotations

import atexit
import contextlib
import math
import threading
import tracemalloc
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyten as lt
from lazyten.exec import cost, loop_backend, numpy_backend, optimized
from lazyten.exec.numexpr_backend import compile_numexpr
from lazyten.graph.passes.fuse import FUSED

from util import assert_eq, same_bits


def kernel_node(t: lt.Tensor) -> Any:
    (k,) = lt.plan(t).kernels
    return k


@pytest.mark.parametrize("dtype,expr_ok", [
    (np.float64, True), (np.int64, True), (np.int32, True), (np.float32, True),
    (np.complex128, False),  # numexpr's complex product is not NumPy's to the bit
    (np.uint8, False),    # numexpr: uint8 + uint8 -> int32
    (np.float16, False),  # numexpr: float16 -> float32
    (np.uint64, False),   # numexpr: uint64 -> int64
    (np.int8, False), (np.uint32, False), (np.complex64, False),
])
def test_numexpr_only_for_exact_dtypes(dtype: Any, expr_ok: bool) -> None:
    a = lt.asarray(np.arange(1, 7, dtype=dtype))
    e = a * a + a
    k = kernel_node(e)
    assert (compile_numexpr(k.node.attrs["program"], list(k.node.inputs)) is not None) == expr_ok
    with lt.set_options(backend="numexpr", check=True):
        assert_eq(e, np.arange(1, 7, dtype=dtype) ** 2 + np.arange(1, 7, dtype=dtype))


def test_weak_scalars_are_cast_to_the_array_dtype_for_numexpr() -> None:
    x = np.linspace(0, 1, 11, dtype=np.float32)
    e = lt.asarray(x) * 2.5 + 1
    with lt.set_options(backend="numexpr", check=True):
        k = kernel_node(e)
        assert k.kernel.backend == "numexpr"
        got = e.eval()
    assert got.dtype == np.float32               # not float64, as numexpr would give
    np.testing.assert_array_equal(got, x * 2.5 + 1)


def test_scalar_of_higher_kind_is_not_sent_to_numexpr() -> None:
    e = lt.asarray(np.arange(5)) * 1.5          # int64 * float -> float64 (NumPy)
    with lt.set_options(backend="numexpr", check=True):
        assert kernel_node(e).kernel.backend != "numexpr"
        assert_eq(e, np.arange(5) * 1.5)


def test_conj_of_a_real_operand_is_not_sent_to_numexpr() -> None:
    """numexpr's conj makes a real operand complex (its imaginary part then
    -0.0, NumPy's +0.0)."""
    x = np.array([1.0, -2.0, 0.0])
    for e, expected in ((lt.imag(lt.conj(lt.asarray(x))), np.imag(np.conj(x))),
                        (lt.real(lt.conj(lt.asarray(x))) * 2 + 1, np.real(np.conj(x)) * 2 + 1)):
        with lt.set_options(backend="numexpr"):
            for _ in range(2):
                same_bits(lt.compute(e)[0], expected)


def test_integer_division_and_power_stay_numpy_exact(any_engine: Any) -> None:
    a = np.array([7, -7, 9, 0, 3], dtype=np.int64)
    b = np.array([2, 2, -4, 5, 3], dtype=np.int64)
    la, lb = lt.asarray(a), lt.asarray(b)
    assert_eq(la // lb + la % lb, a // b + a % b)
    assert_eq(la ** 2 + lb, a ** 2 + b)
    assert_eq(la / lb, a / b)


def test_errstate_raise_runs_kernels_on_numpy() -> None:
    a = lt.asarray(np.array([1.0, 0.0]))
    with lt.set_options(backend="numexpr"), np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            (1 / a + 1).eval()


def test_cost_model_prefers_plain_numpy_for_small_arrays() -> None:
    a = lt.asarray(np.ones(100))
    assert kernel_node(lt.sin(a) * 2 + 1).kernel.backend == "numpy"


def test_cost_model_picks_the_cheaper_backend() -> None:
    m = cost.CostModel()
    est = m.estimate(["sin", "exp", "multiply"], 10**7, threads=2, float32=False)
    assert est["blocked"] < est["numpy"]
    slow_ne = cost.CostModel(numexpr={"cheap": 100.0, "heavy": 100.0, "transcendental": 100.0})
    est2 = slow_ne.estimate(["add"], 10**7, threads=2, float32=False)
    assert min(est2, key=est2.__getitem__) != "numexpr"


def test_cost_model_charges_the_gil_per_blocked_call_with_threads() -> None:
    # A long chain of cheap ops: many short ufunc calls per block.  On one
    # thread the blocked loop wins; on two, its GIL handoffs do not overlap
    # and numexpr's VM (one GIL release per block) wins (W2 here: 0.15 -> 0.13).
    m = cost.CostModel()
    chain = ["multiply", "add"] * 10
    one = m.estimate(chain, 10**7, threads=1, float32=False)
    two = m.estimate(chain, 10**7, threads=2, float32=False)
    assert one["blocked"] < one["numexpr"] and two["numexpr"] < two["blocked"]
    free = cost.CostModel(gil_us=0.0)
    assert free.estimate(chain, 10**7, threads=2, float32=False)["blocked"] < two["blocked"]
    # transcendental work hides it: long calls, few of them
    w1 = m.estimate(["sin", "exp", "multiply"], 10**7, threads=2, float32=False)
    assert w1["blocked"] < w1["numexpr"]


def test_calibration_writes_and_is_read_back(tmp_path: Path, monkeypatch: Any) -> None:
    from lazyten.exec import calibrate
    monkeypatch.setenv("LAZYTEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cost, "_model", None)
    model = calibrate.calibrate(n=40_000, repeat=1)
    assert model.source == "calibrated"
    assert all(v > 0 for v in model.numpy_block.values()) and model.numpy_call_us > 0
    assert model.mem > 0 and all(v > 0 for v in model.numexpr.values())
    assert model.gil_us >= 0
    if loop_backend.available():
        assert model.loop["cheap"] > 0 and model.loop_sum["heavy"] > 0
        assert model.loop_call_us > 0 and model.loop_split_us > 0 and model.loop_cached > 0
        assert model.loop_chain > 0
    path = cost.save(model)
    assert path.parent == tmp_path
    monkeypatch.setattr(cost, "_model", None)
    assert cost.get_model().source == "calibrated"
    monkeypatch.setattr(cost, "_model", None)  # leave the defaults for other tests


@pytest.mark.parametrize("text,why", [
    ('{"numpy_block": "abc"}', "field 'numpy_block' is 'abc'"),
    ('{"numexpr": {"cheap": 1.0}}', "field 'numexpr'"),
    ('{"mem": "fast"}', "field 'mem'"),
    ('{"gil_us": -1.0}', "field 'gil_us'"),
    ('{"block_elems": 0}', "field 'block_elems'"),
    ('{"scratch_bytes": 1.5}', "field 'scratch_bytes'"),
    ('{"no_such_cost": 1}', "'no_such_cost'"),
    ('[1, 2]', "JSON list"),
    ('{"mem": ', "not JSON"),
])
def test_a_bad_calibration_file_warns_and_the_defaults_are_used(
        text: str, why: str, tmp_path: Path, monkeypatch: Any) -> None:
    # A field of the wrong type made every evaluation raise TypeError.
    (tmp_path / "costs.json").write_text(text)
    monkeypatch.setenv("LAZYTEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cost, "_model", None)
    with pytest.warns(RuntimeWarning, match="costs.json") as caught:
        model = cost.get_model()
    (message,) = [str(w.message) for w in caught if "costs.json" in str(w.message)]
    assert str(tmp_path / "costs.json") in message and why in message
    assert model == cost.CostModel()
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # warned once: the model is kept
        x = lt.asarray(np.arange(9.0))
        assert_eq(lt.sum(x * 2.0 + 1.0), np.sum(np.arange(9.0) * 2.0 + 1.0))
    # a good file with some fields is read; no file at all is the defaults, silently
    (tmp_path / "costs.json").write_text('{"mem": 0.5, "block_elems": 4096}')
    monkeypatch.setattr(cost, "_model", None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (cost.get_model().mem, cost.get_model().block_elems) == (0.5, 4096)
        (tmp_path / "costs.json").unlink()
        monkeypatch.setattr(cost, "_model", None)
        assert cost.get_model() == cost.CostModel()


@pytest.mark.parametrize("backend", ["numpy", "numexpr", "auto"])
def test_blocked_kernels_match_numpy_on_layouts(backend: str) -> None:
    rng = np.random.default_rng(3)
    # several blocks even for one-slot kernels (the biggest blocks), and
    # still two for the half-width slice
    rows = 4 * cost.get_model().block_for(8, 1) // 90
    base = rng.standard_normal((rows, 90))
    cases = [base, base[::-1], base[:, ::2], base.T, base[::3, 5:80:7]]
    for arr in cases:
        x = lt.asarray(arr)
        row = lt.asarray(arr[0])
        e = lt.exp(-x * x) * row + lt.sin(x)
        with lt.set_options(backend=backend, check=True):
            # numexpr's sin/exp may differ from NumPy's by an ulp; the sum
            # cancels, so compare with an absolute tolerance of a few ulps of 1.
            assert_eq(e, np.exp(-arr * arr) * arr[0] + np.sin(arr), atol=4e-16 * 8)
            s = lt.sum(x * 2 + 1, axis=0)
            assert_eq(s, np.sum(arr * 2 + 1, axis=0), rtol=1e-12)
            s1 = lt.max(x * 2 + 1, axis=1, keepdims=True)
            assert_eq(s1, np.max(arr * 2 + 1, axis=1, keepdims=True))


def test_blocked_reductions_do_not_depend_on_the_thread_count() -> None:
    # Threads take blocks as they come free; the partial results are still
    # folded in block order, so 1, 2 or 3 threads give the same bits.
    rng = np.random.default_rng(5)
    n = 9 * cost.get_model().block_for(8, 1) + 123          # many blocks, a short last one
    A, B = rng.standard_normal(n) * 1e3, rng.standard_normal(n)
    M = rng.standard_normal((n // 50, 50))
    a, b, m = lt.asarray(A), lt.asarray(B), lt.asarray(M)
    got = []
    for threads in (1, 2, 3):
        with lt.set_options(backend="numpy", threads=threads):
            got.append(lt.compute(lt.sum(a * b + 1.0), lt.max(a - b),
                                  lt.sum(m * m, axis=0)))
    for g in got[1:]:
        for x, y in zip(got[0], g):
            np.testing.assert_array_equal(x, y)
    # (a 1-d float sum is NumPy's to the bit: ``test_blocked_float_sums_are_numpys_pairwise_sums``)
    assert got[0][0] == np.sum(A * B + 1.0)
    assert got[0][1] == np.max(A - B)
    same_bits(got[0][2], np.sum(M * M, axis=0))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_blocked_float_sums_are_numpys_pairwise_sums(dtype: Any) -> None:
    """The blocked loop's blocks of a float sum over every axis are subtrees
    of NumPy's pairwise split, added back in the tree's shape, and those of
    a sum over leading axes or a product take turns, each going on from the
    result of the blocks before it: NumPy's bits on any number of threads
    (blocks folded left to right were only close), for sums, means,
    variances and products, with special values; an all -0.0 sum is +0.0
    as NumPy's."""
    rng = np.random.default_rng(11)
    block = cost.get_model().block_for(np.dtype(dtype).itemsize, 1)
    for n in [block - 1, block + 1, 3 * block + 5, 7 * block + 129, 300_001]:
        X = (rng.standard_normal(n) * 1e3).astype(dtype)
        Y = rng.standard_normal(n).astype(dtype)
        X[[0, n // 3, n - 1]] = [-0.0, np.inf if n % 2 else 1e30, 5e-40]
        x, y = lt.asarray(X), lt.asarray(Y)
        Z = np.full(n, -0.0, dtype)
        for threads in (1, 2):
            with lt.set_options(backend="numpy", threads=threads, check=True):
                for e, exp in [(lt.sum(x * y + dtype(1)), np.sum(X * Y + dtype(1))),
                               (lt.sum(x * y), np.sum(X * Y)),
                               (lt.mean(y * y), np.mean(Y * Y)),
                               (lt.std(y + dtype(2)), np.std(Y + dtype(2))),
                               (lt.sum(lt.asarray(Z) * dtype(2)), np.sum(Z * dtype(2)))]:
                    if n > block:
                        assert lt.plan(e).kernels[0].kernel.backend == "blocked"
                    same_bits(lt.compute(e)[0], exp)
    # n-d kernels: NumPy sums its C-ordered temporary pairwise over the
    # flat array; a block computes the rows its range of the split covers
    M, R = rng.standard_normal((9 * block // 500 + 7, 500)), rng.standard_normal(500)
    m, r = lt.asarray(M), lt.asarray(R)
    for threads in (1, 2):
        with lt.set_options(backend="numpy", threads=threads, check=True):
            for e, exp in [(lt.sum(m * r), np.sum(M * R)), (lt.std(m), np.std(M)),
                           (lt.sum(m.T * 2.0), np.sum(M.T * 2.0)),
                           (lt.sum(m * r - 1.0, keepdims=True), np.sum(M * R - 1.0, keepdims=True)),
                           (lt.mean(m[:, :1] * 3.0), np.mean(M[:, :1] * 3.0))]:
                same_bits(lt.compute(e)[0], exp)
    # sums over the leading axes and products: each block goes on from the
    # rows (elements) before it, one after the other, as NumPy's reduce runs
    T = rng.standard_normal((4, 9 * block // 400 + 3, 100))
    T[0, 0, :3] = [-0.0, np.nan, np.inf]
    t = lt.asarray(T)
    V = 1 + (rng.random(5 * block + 11) - 0.5) * 1e-3
    V[7] = -0.0 if V.size % 2 else 1.0
    v = lt.asarray(V)
    for threads in (1, 2, 3):
        with lt.set_options(backend="numpy", threads=threads, check=True):
            for e, exp in [(lt.sum(m * r, axis=0), np.sum(M * R, axis=0)),
                           (lt.var(m, axis=0), np.var(M, axis=0)),
                           (lt.sum(t * 2.0, axis=(0, 1)), np.sum(T * 2.0, axis=(0, 1))),
                           (lt.sum(t * 2.0, axis=(0, 1), keepdims=True),
                            np.sum(T * 2.0, axis=(0, 1), keepdims=True)),
                           (lt.prod(v * 1.0001), np.prod(V * 1.0001)),
                           (lt.prod(m * 1e-3 + 1.0, axis=0), np.prod(M * 1e-3 + 1.0, axis=0)),
                           (lt.prod(m * 1e-3 + 1.0), np.prod(M * 1e-3 + 1.0))]:
                # (var's last kernel divides its 500 sums: plain NumPy)
                assert "blocked" in [k.kernel.backend for k in lt.plan(e).kernels]
                same_bits(lt.compute(e)[0], exp)
    # other sets of axes with the first: NumPy's iterator drops length-1
    # axes, sums each row of the trailing reduced axes pairwise and adds
    # those sums (a product: its elements) one after the other in C order
    # into the result: ``sum(U, axis=(0, 2))`` is ``U.sum(2).sum(0)``
    U = rng.standard_normal((9 * block // 600 + 5, 6, 100)).astype(dtype)
    U[0, 0, :2] = [-0.0, np.inf]
    Q = rng.standard_normal((9 * block // 1200 + 3, 4, 10, 30)).astype(dtype)
    Q1 = rng.standard_normal((9 * block // 40 + 3, 4, 10, 1)).astype(dtype)
    u, q, q1 = lt.asarray(U), lt.asarray(Q), lt.asarray(Q1)
    UF = np.asfortranarray(U)                  # (NumPy reduces it in memory order)
    uf = lt.asarray(UF)
    S = rng.standard_normal((9 * block // 300 + 1, 300, 1)).astype(dtype)  # (0, 1): flat
    s = lt.asarray(S)
    for threads in (1, 2, 3):
        with lt.set_options(backend="numpy", threads=threads, check=True):
            for e, exp in [(lt.sum(u * 2.0, axis=(0, 2)), np.sum(U * 2.0, axis=(0, 2))),
                           (lt.sum(u - 1.0, axis=(0, 2), keepdims=True),
                            np.sum(U - 1.0, axis=(0, 2), keepdims=True)),
                           (lt.mean(u * u, axis=(0, 2)), np.mean(U * U, axis=(0, 2))),
                           (lt.var(u + 1.0, axis=(2, 0)), np.var(U + 1.0, axis=(2, 0))),
                           (lt.prod(u * 1e-3 + 1.0, axis=(0, 2)),
                            np.prod(U * 1e-3 + 1.0, axis=(0, 2))),
                           (lt.sum(uf * 2.0, axis=(0, 2)), np.sum(UF * 2.0, axis=(0, 2))),
                           (lt.sum(q * 3.0, axis=(0, 2)), np.sum(Q * 3.0, axis=(0, 2))),
                           (lt.sum(q * 3.0, axis=(0, 1, 3)), np.sum(Q * 3.0, axis=(0, 1, 3))),
                           (lt.sum(q * 3.0, axis=(0, 2, 3)), np.sum(Q * 3.0, axis=(0, 2, 3))),
                           (lt.sum(q[:, :1] * 3.0, axis=(0, 2)),
                            np.sum(Q[:, :1] * 3.0, axis=(0, 2))),
                           # (a length-1 reduced axis after the summed rows)
                           (lt.sum(q1 * 3.0, axis=(0, 2, 3)), np.sum(Q1 * 3.0, axis=(0, 2, 3))),
                           (lt.sum(s * 2.0, axis=(0, 1)), np.sum(S * 2.0, axis=(0, 1)))]:
                assert "blocked" in [k.kernel.backend for k in lt.plan(e).kernels]
                same_bits(lt.compute(e)[0], exp)
    assert numpy_backend.turn_axes(("sum", (("axis", (0, 2)),)), (5, 6, 7)) == ((2,), (0,))
    assert numpy_backend.turn_axes(("sum", (("axis", (0, 2)),)), (5, 6, 7, 1)) == ((2,), (0,))
    assert numpy_backend.turn_axes(("sum", (("axis", (0, 1)),)), (5, 1, 7)) == ((), (0, 1))
    assert numpy_backend.turn_axes(("prod", (("axis", (0, 2)),)), (5, 6, 7)) == ((), (0, 2))
    # NumPy's split into 4 ranges, the last two empty after an unsplit one
    assert numpy_backend.splits(0, 100, 4) == [(0, 100), (100, 0), (100, 0), (100, 0)]
    assert numpy_backend.splits(0, 1000, 4) == [(0, 248), (248, 248), (496, 248), (744, 256)]


def test_an_error_in_a_block_that_takes_turns_raises_and_frees_the_others() -> None:
    """Under errstate "raise", the first block of a product overflows: the
    thread that took the next block waits for its turn, which never comes;
    the failing thread abandons the turns, so the error surfaces (a thread
    left waiting would hang the call for ever)."""
    x = np.ones(2_000_000)
    x[5] = 1e308
    A = np.ones((4000, 600))
    A[2, 5] = 1e308
    raised: list[BaseException] = []

    def run() -> None:
        for e in (lt.prod(lt.asarray(x) * 10.0), lt.sum(lt.asarray(A) * 10.0, axis=0)):
            with lt.set_options(backend="numpy", threads=2), np.errstate(all="raise"):
                try:
                    lt.compute(e)
                except FloatingPointError as err:
                    raised.append(err)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout=60)
    assert not t.is_alive(), "a block waits for a turn that never comes"
    assert len(raised) == 2 and all("overflow" in str(e) for e in raised)


def _traced_peak(fn: Any) -> tuple[Any, int]:
    """``fn()`` and the peak of memory it allocated (bytes above the start)."""
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        res = fn()
        return res, tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_block_loops_keep_their_scratch_between_runs() -> None:
    """A thread keeps its block loops' scratch for its next run (up to
    ``HELD_SCRATCH_BYTES``): blocks allocated and freed at every run were
    handed back by glibc and faulted in again (``a*b+c`` of 1e5 elements
    0.8 ms a run, NumPy 0.05).  The second run of a kernel allocates its
    output only, on the blocked loop and on plain NumPy alike."""
    f64 = np.dtype(np.float64)
    block = cost.get_model().block_elems
    for n in (4 * block + 7, block // 2):           # blocked, then plain NumPy
        X = np.linspace(0.0, 1.0, n)
        x = lt.asarray(X)
        e = (x * 2.0 + 1.0) * x - x
        with lt.set_options(backend="numpy", threads=1):
            (k,) = lt.plan(e).kernels
            assert k.kernel is not None and k.kernel.backend == ("blocked" if n > block
                                                                 else "numpy")
            assert len(k.kernel.prepared.slot_dtypes) >= 1
            lt.compute(e)
            got, peak = _traced_peak(lambda: lt.compute(e)[0])
        assert peak < n * 8 + 16_384, (n, peak)
        np.testing.assert_array_equal(got, (X * 2.0 + 1.0) * X - X)
    # the pool: the same arrays back; none kept past the bound, oldest out first
    a = numpy_backend.take_scratch((10,), [f64])
    numpy_backend.keep_scratch((10,), [f64], a)
    assert numpy_backend.take_scratch((10,), [f64])[0] is a[0]
    assert numpy_backend.take_scratch((10,), [f64])[0] is not a[0]     # (taken: in use)
    most = numpy_backend.HELD_SCRATCH_BYTES // 8
    big = numpy_backend.take_scratch((most + 1,), [f64])
    numpy_backend.keep_scratch((most + 1,), [f64], big)
    assert numpy_backend.take_scratch((most + 1,), [f64])[0] is not big[0]
    half = numpy_backend.take_scratch((most // 2 + 1,), [f64])
    numpy_backend.keep_scratch((most // 2 + 1,), [f64], half)
    other = numpy_backend.take_scratch((most // 2 + 2,), [f64])
    numpy_backend.keep_scratch((most // 2 + 2,), [f64], other)    # pushes ``half`` out
    assert numpy_backend.take_scratch((most // 2 + 1,), [f64])[0] is not half[0]
    assert numpy_backend.take_scratch((most // 2 + 2,), [f64])[0] is other[0]


def test_kernels_of_few_long_rows_are_blocked_within_a_block() -> None:
    """An elementwise kernel or a reduction over every axis whose rows hold
    more than a quarter of a block is blocked over its first axes seen as
    one (``block_frame``), each block computed in segments: its scratch is a
    block, where it was one or two whole rows (a (2, 5e6) kernel took 40 MB
    a thread), and a float sum's blocks are ranges of NumPy's pairwise split
    again: NumPy's bits.  Operands broadcast along any of those axes, and
    strided ones, are sliced per segment."""
    rng = np.random.default_rng(2)
    block = cost.get_model().block_for(8, 1)
    n = 2 * block + 1001                               # rows of 2-3 blocks
    X = rng.standard_normal((3, n))
    X[0, 5] = -0.0
    C = np.array([[1.5], [-2.0], [0.5]])               # broadcast along axis 1
    R = rng.standard_normal(n)                         # broadcast along axis 0
    T = rng.standard_normal((2, 3, n // 3))            # level 1: (6, n // 3)
    W = rng.standard_normal((3, 2 * n))[:, ::2]        # strided
    x, c, r, t, w = (lt.asarray(v) for v in (X, C, R, T, W))
    I = rng.integers(-9, 9, (3, n))
    i = lt.asarray(I)
    cases = [(lambda m: m.sin(X * C + R), lambda: lt.sin(x * c + r)),
             (lambda m: X * C - W, lambda: x * c - w),
             (lambda m: m.sum(X * C + R), lambda: lt.sum(x * c + r)),
             (lambda m: m.sum(T * 2.0 + R[: n // 3], keepdims=True),
              lambda: lt.sum(t * 2.0 + r[: n // 3], keepdims=True)),
             (lambda m: m.mean(W * W), lambda: lt.mean(w * w)),
             (lambda m: m.std(X + 1.0), lambda: lt.std(x + 1.0)),
             (lambda m: m.prod(X * 1e-6 + 1.0), lambda: lt.prod(x * 1e-6 + 1.0)),
             (lambda m: m.max(X * C), lambda: lt.max(x * c)),
             (lambda m: m.sum(I * 3 + 1), lambda: lt.sum(i * 3 + 1)),
             (lambda m: m.count_nonzero(X > R), lambda: lt.count_nonzero(x > r)),
             (lambda m: m.any(X * C > 4.0), lambda: lt.any(x * c > 4.0)),
             # a flat index over every axis: the first NaN, the first extreme
             (lambda m: m.argmax(X * C + R), lambda: lt.argmax(x * c + r)),
             (lambda m: m.argmax(W * C), lambda: lt.argmax(w * c)),
             (lambda m: m.argmin(T * 2.0 + R[: n // 3]),
              lambda: lt.argmin(t * 2.0 + r[: n // 3]))]
    for threads in (1, 2):
        with lt.set_options(backend="numpy", threads=threads, check=True):
            for want, got in cases:
                e = got()
                k = next(s.kernel for s in lt.plan(e).kernels if s.kernel.backend == "blocked")
                level, frame = numpy_backend.block_frame(k.reduce, k.block_shape, k.block_elems)
                assert level >= 1 and frame[0] >= 6
                assert k.scratch_bytes(threads) <= threads * len(k.prepared.slot_dtypes) \
                    * k.block_elems * 8
                same_bits(lt.compute(e)[0], np.asarray(want(np)))
    # a mixed kernel's compiled tail runs on each segment (W1 keeps NumPy's
    # sin and exp in its head)
    Y = rng.standard_normal((3, n))
    y = lt.asarray(Y)
    want = 2 * X**2 + 3 * X * Y - np.sin(X) * np.exp(-Y)
    with lt.set_options(backend="loop", threads=2, check=True):
        for e, exp in [(2 * x**2 + 3 * x * y - lt.sin(x) * lt.exp(-y), want),
                       (lt.sum(2 * x**2 + 3 * x * y - lt.sin(x) * lt.exp(-y)), np.sum(want))]:
            (k,) = lt.plan(e).kernels
            assert k.kernel.backend == "mixed"
            same_bits(lt.compute(e)[0], exp)
            assert loop_backend.is_compiled(k.kernel.mixed.loop)
    # the peak: the result (and a block of scratch), not the rows
    with lt.set_options(backend="numpy", threads=1):
        _, peak = _traced_peak(lambda: lt.compute(lt.sum(x * c + r)))
        assert peak < 2 * block * 8
        _, peak = _traced_peak(lambda: lt.compute(x * c + r))
        assert peak < X.nbytes + 2 * block * 8
    assert numpy_backend.block_frame(None, (3, 1000, 1000), 98304) == (1, (3000, 1000))
    assert numpy_backend.block_frame(None, (3, 10, 10**6), 98304) == (2, (3 * 10**7,))
    assert numpy_backend.block_frame(None, (300, 1000), 98304) == (0, (300, 1000))
    # a reduction that keeps an axis keeps its rows
    assert numpy_backend.block_frame(("sum", (("axis", (0,)),)), (3, 10**6), 98304) \
        == (0, (3, 10**6))


def _long_rows(seed: int, blocks: int = 2) -> tuple[int, dict[str, np.ndarray[Any, Any]]]:
    """Rows of ``blocks`` blocks and a bit: (rows' length, arrays): ``X`` (3
    rows, a NaN and a -0.0), ``C`` broadcast along the rows, ``R`` along the
    first axis, ``W`` strided, ``T`` (2, 3, n // 3), ``Y`` (3 rows)."""
    rng = np.random.default_rng(seed)
    n = blocks * cost.get_model().block_for(8, 1) + 1001
    X = rng.standard_normal((3, n))
    X[1, 7] = np.nan
    X[0, 8] = -0.0
    return n, {"X": X, "C": np.array([[1.5], [-2.0], [0.5]]), "R": rng.standard_normal(n),
               "W": rng.standard_normal((3, 2 * n))[:, ::2],
               "T": rng.standard_normal((2, 3, n // 3)), "Y": rng.standard_normal((3, n))}


def _check_blocked(cases: list[tuple[Any, Any]], takes: Any, blocks: int = 1) -> None:
    """Each case (NumPy's expression of a module, lazyten's) on 1-3 threads:
    its blocked kernel ``takes`` (a frame of ``numpy_backend``), its scratch
    is at most ``blocks`` blocks a slot and thread, and its bits are NumPy's."""
    for threads in (1, 2, 3):
        with lt.set_options(backend="numpy", threads=threads, check=True), \
                np.errstate(invalid="ignore"):
            for want, got in cases:
                e = got()
                k = next(s.kernel for s in lt.plan(e).kernels if s.kernel.backend == "blocked")
                assert takes(k)
                assert k.scratch_bytes(threads) <= threads * len(k.prepared.slot_dtypes) \
                    * blocks * k.block_elems * 8
                same_bits(lt.compute(e)[0], np.asarray(want(np)))


def _mixed_w1_sum(Y: np.ndarray[Any, Any], R: np.ndarray[Any, Any], axis: int) -> str:
    """W1's sum over ``axis`` of 2-d ``Y`` (``R`` broadcast), a mixed kernel
    with its tail compiled (NumPy's sin and exp in its head): NumPy's bits;
    its explain text."""
    y, r = lt.asarray(Y), lt.asarray(R)
    with lt.set_options(backend="loop", threads=2, check=True):
        e = lt.sum(2 * y**2 + 3 * y * r - lt.sin(y) * lt.exp(-y), axis=axis)
        (k,) = lt.plan(e).kernels
        assert k.kernel.backend == "mixed"
        same_bits(lt.compute(e)[0],
                  np.sum(2 * Y**2 + 3 * Y * R - np.sin(Y) * np.exp(-Y), axis=axis))
        return lt.explain(e, verbose=True)


def test_reductions_over_the_leading_axes_of_long_rows_run_by_columns() -> None:
    """A reduction over the first axes of few long rows runs in blocks of
    columns (``column_frame``): each block reduces every row of its columns
    into its part of the result, in NumPy's order (one row after the
    other), with up to ``FRAME_BLOCKS`` blocks of scratch and no running
    result: the peak is the result and that scratch, where it was the
    result, a running result of its size and a row a thread.  A mixed
    kernel's compiled tail, which reads blocks flat, takes row blocks in
    turns instead: the same bits."""
    n, arrays = _long_rows(4, 2 * numpy_backend.FRAME_BLOCKS)
    block = cost.get_model().block_for(8, 1)
    most = (2 * numpy_backend.FRAME_BLOCKS + 1) * block * 8   # two threads' scratch
    assert most < 2 * n * 8                                   # (two threads' rows)
    X, C, R, W, T, Y = (arrays[k] for k in "XCRWTY")
    Ti = np.random.default_rng(4).integers(-9, 9, (3, 5, n // 5))
    x, c, r, w, t, ti = (lt.asarray(v) for v in (X, C, R, W, T, Ti))
    cases = [(lambda m: m.sum(X * C + R, axis=0), lambda: lt.sum(x * c + r, axis=0)),
             (lambda m: m.sum(X * C - W, axis=0, keepdims=True),
              lambda: lt.sum(x * c - w, axis=0, keepdims=True)),
             (lambda m: m.mean(m.sin(W) * 2.0, axis=0), lambda: lt.mean(lt.sin(w) * 2.0, axis=0)),
             (lambda m: m.prod(X * 1e-3 + 1.0, axis=0), lambda: lt.prod(x * 1e-3 + 1.0, axis=0)),
             (lambda m: m.max(X * C, axis=0), lambda: lt.max(x * c, axis=0)),
             (lambda m: m.min(X - R, axis=0), lambda: lt.min(x - r, axis=0)),
             (lambda m: m.sum(X > R, axis=0), lambda: lt.sum(x > r, axis=0)),
             (lambda m: m.any(X * C > 2.0, axis=0), lambda: lt.any(x * c > 2.0, axis=0)),
             (lambda m: m.sum(T * 2.0, axis=(0, 1)), lambda: lt.sum(t * 2.0, axis=(0, 1))),
             (lambda m: m.sum(T * 2.0, axis=0), lambda: lt.sum(t * 2.0, axis=0)),
             (lambda m: m.sum(Ti * 3 - 1, axis=0), lambda: lt.sum(ti * 3 - 1, axis=0)),
             # argmax/argmin (a NaN in row 1; ties of the clipped values: the
             # first index) and scans, each column whole along axis 0
             (lambda m: m.argmax(X * C + R, axis=0), lambda: lt.argmax(x * c + r, axis=0)),
             (lambda m: m.argmin(m.maximum(W * C, -0.5), axis=0, keepdims=True),
              lambda: lt.argmin(lt.maximum(w * c, -0.5), axis=0, keepdims=True)),
             (lambda m: m.argmax(T * 2.0, axis=0), lambda: lt.argmax(t * 2.0, axis=0)),
             (lambda m: m.cumsum(X * C + R, axis=0), lambda: lt.cumsum(x * c + r, axis=0)),
             (lambda m: m.cumprod(W * 1e-3 + 1.0, axis=0),
              lambda: lt.cumprod(w * 1e-3 + 1.0, axis=0)),
             (lambda m: m.cumsum(X > R, axis=0), lambda: lt.cumsum(x > r, axis=0)),
             (lambda m: m.cumsum(T * 2.0, axis=0), lambda: lt.cumsum(t * 2.0, axis=0))]
    _check_blocked(cases, lambda k: numpy_backend.column_frame(k.reduce, k.block_shape, k.block_elems),
                   numpy_backend.FRAME_BLOCKS)
    with lt.set_options(backend="numpy", threads=2):
        e = lt.sum(x * c + r, axis=0)
        assert "blocks of columns" in lt.explain(e, verbose=True)
        assert "blocks of columns, each scanning" in \
            lt.explain(lt.cumsum(x * c, axis=0), verbose=True)
        _, peak = _traced_peak(lambda: lt.compute(e))
        assert peak < n * 8 + most
        _, peak = _traced_peak(lambda: lt.compute(lt.argmax(x * c + r, axis=0)))
        assert peak < n * 8 + most
        _, peak = _traced_peak(lambda: lt.compute(lt.cumsum(x * c + r, axis=0)))
        assert peak < X.nbytes + most
        with np.errstate(over="raise"), pytest.raises(FloatingPointError, match="overflow"):
            lt.compute(lt.sum(x * 1e308 * 10.0, axis=0))
    # a mixed kernel with its tail: rows in turns
    assert "blocks take turns" in _mixed_w1_sum(Y, R, 0)
    assert numpy_backend.column_frame(("sum", (("axis", (0,)),)), (3, 10**6), 98304) == (0, 1, 1)
    assert numpy_backend.column_frame(("sum", (("axis", (0,)),)), (3, 10, 10**5), 98304) \
        == (0, 1, 2)
    assert numpy_backend.column_frame(("sum", (("axis", (0,)),)), (300, 1000), 98304) is None
    # blocks FRAME_BLOCKS blocks wide (an argmax's half that: NumPy copies them)
    f64, wide = np.dtype(np.float64), numpy_backend.FRAME_BLOCKS * 98304 // 3
    assert numpy_backend.block_layout(("sum", (("axis", (0,)),)), (3, 10**6), f64, 98304) \
        == (3 * wide, -(-10**6 // wide))
    assert numpy_backend.block_layout(("argmax", (("axis", 0),)), (3, 10**6), f64, 98304) \
        == (3 * (wide // 2), -(-10**6 // (wide // 2)))
    assert numpy_backend.column_frame(("sum", (("axis", (1,)),)), (3, 10**6), 98304) is None
    assert numpy_backend.column_frame(("argmax", (("axis", 0),)), (3, 10**6), 98304) \
        == (0, 1, 1)
    assert numpy_backend.column_frame(("cumulative_sum", (("axis", 0),)), (3, 10**6), 98304) \
        == (0, 1, 1)
    # a middle run of axes: the kept axes before it index the blocks too
    assert numpy_backend.column_frame(("sum", (("axis", (1,)),)), (2, 3, 10**6), 98304) \
        == (1, 1, 2)
    assert numpy_backend.column_frame(("sum", (("axis", (1, 2)),)), (2, 3, 4, 10**5), 98304) \
        == (1, 2, 3)
    assert numpy_backend.column_frame(("sum", (("axis", (1,)),)), (2, 10**6), 98304) is None


def test_reductions_over_middle_axes_of_long_rows_run_by_columns() -> None:
    """A reduction over a middle run of axes of few long rows (a mean over
    the channels of a batch of images) runs in blocks of columns too, the
    kept axes before the run indexing the blocks: NumPy's bits, and up to
    ``FRAME_BLOCKS`` blocks of scratch where it was a whole row a thread."""
    n, arrays = _long_rows(8, 2 * numpy_backend.FRAME_BLOCKS)
    block = cost.get_model().block_for(8, 1)
    most = (2 * numpy_backend.FRAME_BLOCKS + 1) * block * 8   # two threads' scratch
    assert most < 2 * n * 8                                   # (two threads' rows)
    T, R = arrays["T"], arrays["R"]
    rng = np.random.default_rng(8)
    Q = rng.standard_normal((2, 3, 4, n // 8))
    B = np.array([[[2.0]], [[-1.0]]])                    # broadcast along axes 1 and 2
    Qi = rng.integers(-9, 9, (2, 3, 4, n // 8))
    B4 = B[..., None]
    t, r, q, b, qi, b4 = (lt.asarray(v) for v in (T, R, Q, B, Qi, B4))
    k3 = n // 3
    cases = [(lambda m: m.sum(T * 2.0 + R[:k3], axis=1), lambda: lt.sum(t * 2.0 + r[:k3], axis=1)),
             (lambda m: m.mean(T * B, axis=1, keepdims=True),
              lambda: lt.mean(t * b, axis=1, keepdims=True)),
             (lambda m: m.mean(Q * 1.5, axis=(1, 2)), lambda: lt.mean(q * 1.5, axis=(1, 2))),
             (lambda m: m.prod(Q * 1e-3 + 1.0, axis=(1, 2)),
              lambda: lt.prod(q * 1e-3 + 1.0, axis=(1, 2))),
             (lambda m: m.max(Q * B4, axis=1), lambda: lt.max(q * b4, axis=1)),
             (lambda m: m.sum(Qi * 3 - 1, axis=(1, 2)), lambda: lt.sum(qi * 3 - 1, axis=(1, 2))),
             (lambda m: m.argmax(T * B, axis=1), lambda: lt.argmax(t * b, axis=1)),
             (lambda m: m.argmin(Q - 1.0, axis=2), lambda: lt.argmin(q - 1.0, axis=2)),
             (lambda m: m.cumsum(T * B, axis=1), lambda: lt.cumsum(t * b, axis=1)),
             (lambda m: m.cumprod(Q * 1e-3 + 1.0, axis=2),
              lambda: lt.cumprod(q * 1e-3 + 1.0, axis=2))]
    _check_blocked(cases, lambda k: (f := numpy_backend.column_frame(
        k.reduce, k.block_shape, k.block_elems)) is not None and f[0] > 0,
        numpy_backend.FRAME_BLOCKS)
    with lt.set_options(backend="numpy", threads=2):
        e = lt.mean(t * b, axis=1)
        assert "blocks of columns" in lt.explain(e, verbose=True)
        _, peak = _traced_peak(lambda: lt.compute(e))
        assert peak < 2 * k3 * 8 + most


def test_reductions_over_the_last_axes_of_long_rows_run_each_row_in_blocks() -> None:
    """A reduction over the last axes of few rows longer than ``FRAME_BLOCKS``
    blocks (a sum of each of an image's channels) runs each row in ranges
    of its own (``row_frame``): a float sum's are ranges of NumPy's pairwise
    split of the row, added in its tree (NumPy's bits), others are combined
    in order; the scratch is at most ``FRAME_BLOCKS`` blocks, where it was a
    row a thread, and two threads share three rows evenly.  Rows of up to
    ``FRAME_BLOCKS`` blocks run whole, a block each."""
    n, arrays = _long_rows(6, 2 * numpy_backend.FRAME_BLOCKS)
    block = cost.get_model().block_for(8, 1)
    X, C, R, W, T, Y = (arrays[k] for k in "XCRWTY")
    Ti = np.random.default_rng(6).integers(-9, 9, (3, n))
    T32 = T.astype(np.float32)
    x, c, r, w, t, ti, t32 = (lt.asarray(v) for v in (X, C, R, W, T, Ti, T32))
    cases = [(lambda m: m.sum(X * C + R, axis=1), lambda: lt.sum(x * c + r, axis=1)),
             (lambda m: m.sum(W * C - 1.0, axis=-1, keepdims=True),
              lambda: lt.sum(w * c - 1.0, axis=-1, keepdims=True)),
             (lambda m: m.mean(W * W, axis=1), lambda: lt.mean(w * w, axis=1)),
             (lambda m: m.max(X * C, axis=1), lambda: lt.max(x * c, axis=1)),
             (lambda m: m.min(X - R, axis=1), lambda: lt.min(x - r, axis=1)),
             (lambda m: m.sum(X > R, axis=1), lambda: lt.sum(x > r, axis=1)),
             (lambda m: m.all(X * C < 4.0, axis=1), lambda: lt.all(x * c < 4.0, axis=1)),
             (lambda m: m.sum(Ti * 3 - 1, axis=1), lambda: lt.sum(ti * 3 - 1, axis=1)),
             (lambda m: m.sum(T * 2.0, axis=(1, 2)), lambda: lt.sum(t * 2.0, axis=(1, 2))),
             (lambda m: m.sum(T * 2.0, axis=2), lambda: lt.sum(t * 2.0, axis=2)),
             # products in turns (and integer ones folded), argmax/argmin (a
             # NaN in row 1, ties of the clipped maxima: the first index),
             # scans going on from the block before
             (lambda m: m.prod(X * 1e-3 + 1.0, axis=1),
              lambda: lt.prod(x * 1e-3 + 1.0, axis=1)),
             (lambda m: m.prod(W * 1e-3 + 1.0, axis=-1, keepdims=True),
              lambda: lt.prod(w * 1e-3 + 1.0, axis=-1, keepdims=True)),
             (lambda m: m.prod(T32 * np.float32(1e-3) + np.float32(1), axis=(1, 2)),
              lambda: lt.prod(t32 * np.float32(1e-3) + np.float32(1), axis=(1, 2))),
             (lambda m: m.prod(Ti % 3 - 1, axis=1), lambda: lt.prod(ti % 3 - 1, axis=1)),
             (lambda m: m.argmax(X * C + R, axis=1), lambda: lt.argmax(x * c + r, axis=1)),
             (lambda m: m.argmin(m.minimum(W * C, 1.0), axis=1, keepdims=True),
              lambda: lt.argmin(lt.minimum(w * c, 1.0), axis=1, keepdims=True)),
             (lambda m: m.argmax(m.minimum(W * C, 1.0), axis=-1),
              lambda: lt.argmax(lt.minimum(w * c, 1.0), axis=-1)),
             (lambda m: m.cumsum(X * C + R, axis=1), lambda: lt.cumsum(x * c + r, axis=1)),
             (lambda m: m.cumprod(W * 1e-3 + 1.0, axis=-1),
              lambda: lt.cumprod(w * 1e-3 + 1.0, axis=-1)),
             (lambda m: m.cumsum(X > R, axis=1), lambda: lt.cumsum(x > r, axis=1)),
             (lambda m: m.cumsum(T * 2.0, axis=2), lambda: lt.cumsum(t * 2.0, axis=2))]
    _check_blocked(cases, lambda k: numpy_backend.row_frame(k.reduce, k.block_shape, k.node.dtype,
                                               k.block_elems), numpy_backend.FRAME_BLOCKS)
    with lt.set_options(backend="numpy", threads=2):
        e = lt.sum(x * c + r, axis=1)
        assert "each row in ranges of NumPy's pairwise split" in lt.explain(e, verbose=True)
        assert "each row in blocks of its own" in lt.explain(lt.max(x * c, axis=1), verbose=True)
        assert "each row in blocks of its own, taking turns" in \
            lt.explain(lt.prod(x * c, axis=1), verbose=True)
        assert "each going on from the last value of the block before" in \
            lt.explain(lt.cumsum(x * c, axis=1), verbose=True)
        # the peak: a range a thread, not a row (a scan's: its result too)
        most = (2 * numpy_backend.FRAME_BLOCKS + 1) * block * 8
        assert most < 2 * n * 8                           # (two threads' rows)
        for e in (e, lt.argmax(x * c + r, axis=1), lt.prod(x * c, axis=1)):
            _, peak = _traced_peak(lambda: lt.compute(e))
            assert peak < most
        _, peak = _traced_peak(lambda: lt.compute(lt.cumsum(x * c, axis=1)))
        assert peak < X.nbytes + most
        # a block that overflows raises, and no turn is left waiting
        with np.errstate(over="raise"), pytest.raises(FloatingPointError, match="overflow"):
            lt.compute(lt.prod(x * 1e308 * 10.0, axis=1))
    # a mixed kernel's compiled tail runs on each row's blocks
    assert "each row in ranges" in _mixed_w1_sum(Y, R, 1)
    f64 = np.dtype(np.float64)
    assert numpy_backend.row_frame(("sum", (("axis", (1, 2)),)), (3, 1000, 1000), f64,
                                   98304) == (1, 1)
    assert numpy_backend.row_frame(("sum", (("axis", (1,)),)), (300, 1000), f64, 98304) is None
    # rows of up to FRAME_BLOCKS blocks run whole, a block each
    span = numpy_backend.FRAME_BLOCKS * 98304
    assert numpy_backend.row_frame(("sum", (("axis", (1,)),)), (3, span), f64, 98304) is None
    assert numpy_backend.row_frame(("argmax", (("axis", 1),)), (3, span), f64, 98304) is None
    assert numpy_backend.row_frame(("sum", (("axis", (1,)),)), (3, span + 8), f64, 98304) \
        == (1, 1)
    assert numpy_backend.block_layout(("sum", (("axis", (1,)),)), (3, span), f64, 98304) \
        == (span, 3)
    assert numpy_backend.row_frame(("prod", (("axis", (1,)),)), (3, 10**6), f64, 98304) \
        == (1, 1)
    assert numpy_backend.row_frame(("argmax", (("axis", 1),)), (3, 10**6), f64, 98304) == (1, 1)
    # float16 products keep whole rows (NumPy multiplies them in float32)
    assert numpy_backend.row_frame(("prod", (("axis", (1,)),)), (3, 10**6),
                                   np.dtype(np.float16), 98304) is None
    assert numpy_backend.row_frame(("sum", (("axis", (1,)),)), (3, 10**6, 2), f64, 98304) \
        is None
    # reduced axes before the last ones keep whole rows, in turns (faster)
    assert numpy_backend.row_frame(("sum", (("axis", (0, 2)),)), (2, 3, 10**6), f64, 98304) \
        is None


def test_explain_says_how_blocked_reductions_are_put_together() -> None:
    A, x = lt.asarray(np.ones((2000, 600))), lt.asarray(np.ones(10**6))
    with lt.set_options(backend="numpy"):
        for e, says in [((A * 2).sum(), "ranges of NumPy's pairwise split"),
                        ((A * 2).sum(0), "blocks take turns"), (lt.prod(x * 2), "blocks take turns"),
                        ((A * 2).sum(1), "each block reduced on its own"),
                        (lt.max(x * 2), "block results folded left to right"),
                        (lt.cumsum(A * 2, axis=0), "chain goes on from the last row"),
                        (lt.cumsum(A * 2, axis=1), "each block scanned on its own"),
                        (lt.argmax(A * 2, axis=1), "each block reduced on its own")]:
            assert says in lt.explain(e, verbose=True)


def test_sum_of_products_is_a_blas_dot_only_when_asked() -> None:
    """``sum(a*b)`` of float64 vectors fuses by default (NumPy's pairwise
    bits); ``blas_dot=True`` sends it to BLAS's dot instead (its own order
    of the additions: close)."""
    rng = np.random.default_rng(12)
    A, B = rng.standard_normal(200_001), rng.standard_normal(200_001)
    a, b = lt.asarray(A), lt.asarray(B)
    e = lt.sum(a * b)
    assert "dot" not in lt.explain(e) and len(lt.plan(e).kernels) == 1
    same_bits(lt.compute(e)[0], np.sum(A * B))
    with lt.set_options(blas_dot=True):
        text = lt.explain(e)
        assert "= dot " in text and "kernel" not in text, text
        np.testing.assert_allclose(lt.compute(e)[0], np.dot(A, B), rtol=1e-13)
        # not for float32, a partial sum, or another reduction
        for other in (lt.sum(a * b, axis=0, keepdims=True), lt.sum(a.astype(np.float32) * 2),
                      lt.prod(a * b)):
            assert "= dot " not in lt.explain(other)
    with pytest.raises(TypeError, match="blas_dot must be a bool"):
        lt.set_options(blas_dot=1)


@pytest.mark.parametrize("threads", [1, 2])
def test_any_and_all_stop_at_the_block_that_decides_them(monkeypatch: Any,
                                                        threads: int) -> None:
    """``any(x > t)`` is True once one block has a True: the other blocks are
    not computed, where the kernel's ops cannot warn (comparisons, logic,
    isnan...: a skipped block loses no warning).  A kernel that can warn
    (``x * 2 > t`` may overflow) computes every block."""
    from lazyten.exec import numpy_backend
    calls = []
    real = numpy_backend._run_block

    def counting(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(numpy_backend, "_run_block", counting)
    n = 20 * cost.get_model().block_for(8, 1)
    X = np.linspace(0, 1, n)
    x = lt.asarray(X)
    cases = [(lambda v: lt.any(v < 0.01), True, False),      # decided by the first block
             (lambda v: lt.all(v > 0.01), False, False),
             (lambda v: lt.any(lt.isnan(v) | (v > 0.999)), True, True),  # by the last
             (lambda v: lt.all(v <= 1), True, True),          # undecided: every block
             (lambda v: lt.any(v * 2 < 0.02), True, True)]    # may warn: every block
    for build, want, every in cases:
        with lt.set_options(backend="numpy", threads=threads, check=True):
            (k,) = lt.plan(build(x)).kernels
            assert k.kernel is not None and k.kernel.backend == "blocked"
            blocks = -(-n // k.kernel.block_elems)
            assert blocks > 2
            calls.clear()
            (got,) = lt.compute(build(x))
        assert got == want and got.dtype == np.bool_
        if threads == 1:        # (other threads may take blocks before one decides)
            assert len(calls) == (blocks if every else 1)


def test_fused_node_kind_is_kernel() -> None:
    assert FUSED.kind == "kernel"


def _warned(fn: Any) -> tuple[Any, set[str]]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        val = fn()
    return val, {str(m.message) for m in w if issubclass(m.category, RuntimeWarning)}


def test_numexpr_kernels_the_cost_model_picks_warn_as_numpy() -> None:
    """numexpr reports no floating-point errors, so a numexpr form runs (the
    cost model's pick, a loop's fallback, the small-plan fast path) only
    where no warning is lost: its ops raise no flag that np.errstate heeds,
    or every error leaves a NaN or an infinity in its output and NumPy runs
    again where the output is not all finite.  Found: a chain of 10,000
    elements overflowed without NumPy's "overflow encountered in multiply"."""
    n = 10_000
    X = np.linspace(1.0, 2.0, n)
    B = X * 1e300                         # every element overflows below
    S = np.where(X > 1.5, 1e-300, 1.0)    # underflows, for errstate(under=...)
    x, b, sm = lt.asarray(X), lt.asarray(B), lt.asarray(S)

    def chain(v: Any) -> Any:
        for _ in range(10):
            v = v * 1.0001 + 0.5
        return v * 1e10
    with _cheap_numexpr():
        _numexpr_cases_warn_as_numpy(chain, x, b, sm, X, B, S)


def _cheap_numexpr() -> contextlib.AbstractContextManager[None]:
    """Plans made meanwhile take numexpr wherever it is exact: a cost model
    of a free numexpr (this machine's wakes its threads in 60 us)."""
    return _cost_model(numexpr={"cheap": 0.0, "heavy": 0.0, "transcendental": 0.0},
                       numexpr_call_us=0.0, numexpr_split_us=0.0)


@contextlib.contextmanager
def _cost_model(**constants: Any) -> Iterator[None]:
    """Plans made meanwhile use a cost model of the defaults but ``constants``."""
    saved = cost._model
    cost._model = cost.CostModel(**constants)
    optimized.clear_plan_cache()
    try:
        yield
    finally:
        cost._model = saved
        optimized.clear_plan_cache()


def _numexpr_cases_warn_as_numpy(chain: Any, x: Any, b: Any, sm: Any, X: Any, B: Any,
                                 S: Any) -> None:
    from lazyten.exec import fpflags
    from lazyten.exec.kernels import numexpr_now
    for v, V in ((b, B), (x, X), (sm, S)):
        e = chain(v * v) if V is S else chain(v)
        (k,) = lt.plan(e).kernels
        assert k.kernel is not None and k.kernel.backend == "numexpr"
        assert k.kernel.numexpr is not None and k.kernel.numexpr.traced
        for err in ({}, {"under": "warn"}, {"all": "ignore"}):
            with np.errstate(**err):
                want, want_msgs = _warned(lambda: chain(V * V) if V is S else chain(V))
                for run in range(2):      # (planned, then the plan cache's fast path)
                    got, msgs = _warned(lambda: lt.compute(e)[0])
                    assert msgs == want_msgs, (err, run, msgs, want_msgs)
                    same_bits(got, want)
        with np.errstate(over="raise"):
            if V is B:
                with pytest.raises(FloatingPointError, match="overflow"):
                    lt.compute(e)
            else:
                same_bits(lt.compute(e)[0], chain(V * V) if V is S else chain(V))
    # a finite output: numexpr's values, NumPy not run again
    again = fpflags.ran_again()
    same_bits(lt.compute(chain(x + 1.0))[0], chain(X + 1.0))
    assert fpflags.ran_again() == again
    # an error that ``where`` can leave out of the output: NumPy runs it
    # where errstate heeds the flags, numexpr where it ignores them
    hidden = compile_numexpr(*_program_and_inputs(lt.where(x > 1.5, b * 10.0, 0.0)))
    quiet = compile_numexpr(*_program_and_inputs((x > 1.5) & (x < 1.7)))
    assert hidden is not None and not hidden.traced and hidden.flags
    assert quiet is not None and quiet.flags == 0
    assert numexpr_now(hidden, False) == "numpy" and numexpr_now(quiet, False) == "run"
    with np.errstate(all="ignore"):
        assert numexpr_now(hidden, False) == "run"
    with np.errstate(under="raise"):
        assert numexpr_now(compile_numexpr(*_program_and_inputs(x * x)), False) == "numpy"
    # backend="numexpr" asked for: numexpr runs (silent), but under "raise"
    assert numexpr_now(hidden, True) == "run"
    with np.errstate(over="raise"):
        assert numexpr_now(hidden, True) == "numpy"
    for V in (B, X):
        e = lt.where(x > 1.5, lt.asarray(V) * 10.0, 0.0)
        want, want_msgs = _warned(lambda: np.where(X > 1.5, V * 10.0, 0.0))
        got, msgs = _warned(lambda: lt.compute(e)[0])
        assert msgs == want_msgs
        same_bits(got, want)


def test_cost_model_charges_numexpr_its_threads_and_plain_numpy_in_cache() -> None:
    """numexpr wakes its own threads for more than ``NUMEXPR_SERIAL``
    elements (about 60 us here), and plain NumPy's temporaries of a block or
    less stay in cache: a 20-op chain of 10,000 elements, 160 us on numexpr
    and 26 on plain NumPy, went to numexpr."""
    m = cost.CostModel()
    names = ["multiply", "add"] * 10
    two, one = m.estimate(names, 10_000, 2, False), m.estimate(names, 10_000, 1, False)
    call, split = m.numexpr_call_us * 1e-6, m.numexpr_split_us * 1e-6
    assert two["numexpr"] == pytest.approx((one["numexpr"] - call) / 2 + call + split)
    few = cost.NUMEXPR_SERIAL
    assert m.estimate(names, few, 2, False)["numexpr"] == \
        pytest.approx((m.estimate(names, few, 1, False)["numexpr"] - call) / 2 + call)
    calls = m.numpy_call_us * len(names)
    assert two["numpy"] == pytest.approx((10 * (m.numpy_block["cheap"] * 2) * 10_000
                                          + calls * 1e3) * 1e-9)
    big = m.estimate(names, m.block_elems + 1, 2, False)["numpy"]
    assert big == pytest.approx((10 * (m.numpy_plain["cheap"] * 2) * (m.block_elems + 1)
                                 + calls * 1e3) * 1e-9)
    x = lt.asarray(np.linspace(0.0, 1.0, 10_000))
    c = x
    for _ in range(10):
        c = c * 1.0001 + 0.5
    with lt.set_options(threads=2):
        (k,) = lt.plan(c).kernels
    assert k.kernel is not None and k.kernel.backend == "numpy", k.kernel.why


def _program_and_inputs(t: lt.Tensor) -> tuple[Any, list[Any]]:
    (k,) = lt.plan(t).kernels
    return k.node.attrs["program"], list(k.node.inputs)


def test_float_power_is_numpys_under_every_backend(any_engine: Any) -> None:
    # Found by the fuzzer: numexpr's pow(-inf, 0.5) is +inf (C's pow), NumPy's nan.
    x = np.full(40_000, -np.inf, np.float32)
    with np.errstate(all="ignore"):
        assert_eq(lt.asarray(x) ** 0.5, x ** 0.5)
        assert_eq(lt.asarray(x.astype(np.float64)) ** 1.5 + 1, x.astype(np.float64) ** 1.5 + 1)


def test_block_scratch_is_reused_in_place_over_dying_operands() -> None:
    from lazyten.exec.numpy_backend import slots
    a, b, c = (lt.asarray(np.arange(5.0) + k) for k in range(3))
    e = 2 * a**2 + 3 * b * c - lt.sin(a) * lt.exp(-b)
    (k,) = [s.kernel for s in lt.plan(e).steps if s.kernel is not None]
    slot_of, n = slots(k.program)
    assert slot_of[-1] == -1                 # the last op writes the output
    assert n == 3                  # 9 temporaries, at most 3 alive at once (t4, sin a, -b)
    # a reduction keeps its last value in scratch, over a dying operand
    (r,) = [s.kernel for s in lt.plan(lt.sum(a * b + c)).steps if s.kernel is not None]
    assert slots(r.program, last_in_scratch=True) == ([0, 0], 1)
    # a dtype change cannot reuse the operand's block
    (m,) = [s.kernel for s in lt.plan(lt.sum((a * b).astype(np.float32) + 1)).steps
            if s.kernel is not None]
    assert slots(m.program, last_in_scratch=True)[1] == 2
    assert_eq(lt.sum((a * b).astype(np.float32) + 1),
              np.sum((np.arange(5.0) * (np.arange(5.0) + 1)).astype(np.float32) + 1))


def test_blocks_hold_the_same_bytes_whatever_the_dtype() -> None:
    def kernel(dt: Any) -> Any:
        a = lt.asarray(np.ones(300_000, dt))
        (k,) = [s.kernel for s in lt.plan(a * a + 1).steps if s.kernel is not None]
        return k
    f64, f32, i8 = kernel(np.float64), kernel(np.float32), kernel(np.int8)
    assert len(f64.prepared.slot_dtypes) == 1      # a * a in scratch, + 1 to the output
    assert f64.block_elems == cost.get_model().block_for(8, 1)
    assert f32.block_elems == 2 * f64.block_elems and i8.block_elems == 8 * f64.block_elems
    # a float32 kernel with a float64 step inside blocks by the wider dtype
    b = lt.asarray(np.ones(300_000, np.float32))
    (m,) = [s.kernel for s in lt.plan((b.astype(np.float64) * 2).astype(np.float32)).steps
            if s.kernel is not None]
    assert m.block_elems == f64.block_elems


def test_kernels_with_fewer_scratch_slots_get_bigger_blocks() -> None:
    # Per-call overhead favours big blocks, the cache small scratch: a kernel
    # whose temporaries fit one slot (a fused sum, a cheap chain) gets up to
    # scratch_bytes of it per thread; W1's three slots keep the smallest block.
    m = cost.get_model()
    a, b, c = (lt.asarray(np.ones(600_000) + k) for k in range(3))

    def only_kernel(e: lt.Tensor) -> Any:
        (k,) = [s.kernel for s in lt.plan(e).steps if s.kernel is not None]
        return k
    w3 = only_kernel(lt.sum(a * b + c))
    w1 = only_kernel(2 * a**2 + 3 * b * c - lt.sin(a) * lt.exp(-b))
    assert (len(w3.prepared.slot_dtypes), len(w1.prepared.slot_dtypes)) == (1, 3)
    assert w3.block_elems * 8 == max(m.block_elems * 8, m.scratch_bytes)
    assert w1.block_elems * 8 == max(m.block_elems * 8, m.scratch_bytes // 3)
    # with the shipped defaults the one-slot kernel really gets the bigger block
    d = cost.CostModel()
    assert d.block_for(8, 1) == 3 * d.block_for(8, 3)
    with lt.set_options(backend="numpy"):
        text = lt.explain(lt.sum(a * b + c), verbose=True)
    assert (f"blocks: {w3.block_elems} elements, 1 scratch slot "
            f"({w3.block_elems * 8 // 1024} KiB a thread)") in text
    # the cost model counts the blocks the kernel really runs (GIL handoffs)
    names = [ins[0] for ins in w3.program]
    from lazyten.exec.numpy_backend import default_threads
    est = m.estimate(names, a.size, default_threads(), False, 4, w3.block_elems,
                     reduces=True)
    assert w3.estimates == est
    with lt.set_options(backend="numpy", threads=2):
        assert_eq(lt.sum(a * b + c), np.sum(a.eval() * b.eval() + c.eval()), rtol=1e-12)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_transcendentals_stay_numpy_under_numexpr(dt: Any) -> None:
    # Found by the fuzzer: numexpr's log10(-1) is +nan, NumPy's -nan, and
    # copysign reads that sign; numexpr's float32 sin/exp also differ in the
    # last bits.  Those ops run NumPy's loops even with backend="numexpr".
    x_np = np.array([-1.0, 0.5, 2.0], dt)
    x = lt.asarray(x_np)
    v4 = lt.log10(x)
    v11 = lt.copysign(x, lt.where(lt.asarray(np.array(False)), 0.0, v4))
    with lt.set_options(backend="numexpr"), np.errstate(invalid="ignore"):
        got4, got11 = lt.compute(v4, v11)
        plan = lt.plan(v4, v11)
        want4 = np.log10(x_np)
        want11 = np.copysign(x_np, np.where(False, 0.0, want4))
    (log_kernel,) = [k.kernel for k in plan.kernels
                     if any(ins[0] == "log10" for ins in k.kernel.program)]
    assert log_kernel.backend != "numexpr"
    np.testing.assert_array_equal(got4, want4)          # bit for bit, NaN sign too
    np.testing.assert_array_equal(np.signbit(got4), np.signbit(want4))
    np.testing.assert_array_equal(got11, want11)
    # arithmetic still goes to numexpr
    with lt.set_options(backend="numexpr"):
        assert lt.plan(x * 2 + 1).kernels[0].kernel.backend == "numexpr"


def _small_blocks(elems: int) -> contextlib.AbstractContextManager[None]:
    """Plans made meanwhile block kernels by ``elems`` elements (a cost
    model of that block), so small arrays take many blocks."""
    return _cost_model(block_elems=elems, scratch_bytes=elems * 8)


@settings(max_examples=150)      # (1 s a 60: many kinds of blocks to reach)
@given(shape=st.lists(st.sampled_from([1, 2, 3, 5, 8, 13, 40]), min_size=1, max_size=4),
       data=st.data())
def test_blocked_reductions_give_numpys_bits_on_random_shapes(shape: list[int],
                                                              data: st.DataObject) -> None:
    """The blocked loop, on blocks of 256 elements: elementwise kernels and
    reductions over any set of axes, on C, Fortran, transposed and strided
    operands and ones broadcast along random axes, give NumPy's values to
    the bit for float sums, means and products (NumPy's pairwise split, its
    turns, and deeper frames, blocks of columns or of each row where rows
    are long), max, argmax and cumsum, on 1-3 threads."""
    nd = len(shape)
    # at least 16 blocks: one axis grown, which makes few long rows (of more than
    # FRAME_BLOCKS blocks: row_frame) or many short ones
    grow = data.draw(st.integers(0, nd - 1), label="grown axis")
    while math.prod(shape) < 4096:
        shape[grow] *= 2
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    X = rng.standard_normal(shape) * 100
    how = data.draw(st.sampled_from(["C", "F", "T", "strided"]), label="layout")
    if how == "F":
        X = np.asfortranarray(X)
    elif how == "T":
        X = np.ascontiguousarray(X.T).T
    elif how == "strided":
        X = (rng.standard_normal([d * 2 for d in shape]) * 100)[(slice(None, None, 2),) * nd]
    # an operand broadcast along some axes (length 1 there), or of fewer axes
    bshape = [1 if data.draw(st.booleans(), label=f"broadcast axis {ax}") else d
              for ax, d in enumerate(shape)][data.draw(st.integers(0, nd - 1), label="drop"):]
    Y = rng.standard_normal(bshape)
    dtype = data.draw(st.sampled_from([np.float64, np.float32]), label="dtype")
    X, Y = X.astype(dtype, order="K"), Y.astype(dtype)
    op = data.draw(st.sampled_from(["sum", "mean", "prod", "max", "argmax", "cumsum", None]),
                   label="op")
    # (leading axes half the time: the turns, and blocks of columns where rows are long)
    axes = tuple(sorted(data.draw(st.sets(st.integers(0, nd - 1), min_size=1) | st.integers(
        1, nd).map(lambda m: set(range(m))), label="axes")))
    keep = data.draw(st.booleans(), label="keepdims")
    threads = data.draw(st.integers(1, 3), label="threads")
    x, y = lt.asarray(X), lt.asarray(Y)

    # (argmax: over the last axis drawn, or over every one, flat; cumsum: the last)
    axis: Any = axes if op not in ("argmax", "cumsum") else \
        None if op == "argmax" and len(axes) == nd else axes[-1]

    def f(m: Any, a: Any, b: Any) -> Any:
        v = a * b * dtype(1e-3) + dtype(1) if op == "prod" else a * b + dtype(1.5)
        return v if op is None else m.cumsum(v, axis=axis) if op == "cumsum" else \
            getattr(m, op)(v, axis=axis, keepdims=keep)
    with _small_blocks(256), lt.set_options(backend="numpy", threads=threads, check=True):
        with np.errstate(all="ignore"):
            want = np.asarray(f(np, X, Y))
            got = lt.compute(f(lt, x, y))[0]
        same_bits(got, want)


# ------------------------------------------------------------ the loops' disk cache

needs_numba = pytest.mark.skipif(not loop_backend.available(), reason="numba not installed")


@pytest.fixture
def fresh_loops(monkeypatch: Any, tmp_path: Path) -> Iterator[Path]:
    """No loop loaded, counted or failed yet, as in a new process, and a cache
    directory of our own."""
    monkeypatch.setenv("LAZYTEN_CACHE_DIR", str(tmp_path))
    empty: list[tuple[str, Any]] = [
        ("_compiled", {}), ("_runs", {}), ("_failed", {}), ("_called", set()), ("_spent", {}),
        ("_on_disk", {}), ("_folders", {}), ("_refreshed", set()), ("_warned_dirs", set()),
        ("_temp", None)]
    for name, value in empty:
        monkeypatch.setattr(loop_backend, name, value)
    monkeypatch.setattr(loop_backend, "_available", True)
    yield tmp_path


def _loop_of(t: lt.Tensor) -> Any:
    with lt.set_options(backend="loop"):
        form = kernel_node(t).kernel.loop
    assert form is not None
    return form


@needs_numba
def test_an_unusable_cache_dir_warns_once_and_loops_share_one_temporary_dir(
        fresh_loops: Path, monkeypatch: Any) -> None:
    # It made a temporary directory for each loop of each process, never
    # removed, and said nothing about the directory.
    bad = fresh_loops / "a-file"
    bad.write_text("not a directory")
    monkeypatch.setenv("LAZYTEN_CACHE_DIR", str(bad))
    monkeypatch.setattr(cost, "_model", cost.CostModel())   # (its file is not read here)
    at_exit: list[tuple[Any, tuple[Any, ...]]] = []
    register = atexit.register

    def recorded(fn: Any, *args: Any, **kwargs: Any) -> Any:
        at_exit.append((fn, args))
        return register(fn, *args, **kwargs)
    monkeypatch.setattr(atexit, "register", recorded)
    x = lt.asarray(np.linspace(0, 1, 1000))
    forms = [_loop_of(x * 3.0 + 1.0), _loop_of(x * 5.0 - 2.0), _loop_of(x * x - 0.5)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fns: list[Any] = [loop_backend._load(f) for f in forms]   # (numba dispatchers)
    (message,) = [str(w.message) for w in caught]
    assert issubclass(caught[0].category, RuntimeWarning)
    assert str(bad) in message and "LAZYTEN_CACHE_DIR" in message
    assert "every process compiles them again" in message
    folders = {Path(fn.py_func.__code__.co_filename).parent for fn in fns}
    assert len(folders) == 1
    (folder,) = folders
    assert folder.is_dir() and bad not in folder.parents
    # removed at exit (the handler registered once)
    (remove,) = [(fn, args) for fn, args in at_exit if str(folder) in map(str, args)]
    remove[0](*remove[1])
    assert not folder.exists()


@needs_numba
def test_a_corrupt_loop_cache_is_deleted_and_the_loop_compiled_again(
        fresh_loops: Path, monkeypatch: Any) -> None:
    # A garbled numba cache file or generated module turned the loop off in
    # every later process.
    X = np.linspace(-1, 1, 1000)

    def run() -> None:
        # (another array each time: a node of the same array is the same
        # node, whose value is kept; and no cached plan: a plan seen twice
        # runs as generated code, not through the kernel)
        optimized.clear_plan_cache()
        x = lt.asarray(X.copy())
        with lt.set_options(backend="loop"):
            same_bits(lt.compute(x * 7.0 - 0.25)[0], X * 7.0 - 0.25)

    run()
    form = _loop_of(lt.asarray(X) * 7.0 - 0.25)
    assert loop_backend.is_compiled(form)
    loops = fresh_loops / "loops"
    source = loops / f"lazyten_loop_{form.key}.py"

    def numba_cache() -> list[Path]:
        return sorted((loops / "__pycache__").glob(f"lazyten_loop_{form.key}.*.nb?"))

    def later_process() -> None:           # nothing loaded yet: the files are read
        monkeypatch.setattr(loop_backend, "_compiled", {})
        monkeypatch.setattr(loop_backend, "_called", set())
        with warnings.catch_warnings():
            warnings.simplefilter("error", loop_backend.LoopUnusableWarning)
            run()
        assert loop_backend.is_compiled(form) and loop_backend.failure(form) is None

    # numba's index and machine code garbled: deleted, and compiled again
    assert numba_cache()
    for f in numba_cache():
        f.write_bytes(b"garbage\n")
    later_process()
    assert numba_cache() and all(f.read_bytes() != b"garbage\n" for f in numba_cache())
    # the generated module garbled: written again
    source.write_text("def (\n")
    later_process()
    assert source.read_text() == form.source


@needs_numba
def test_an_unusable_loop_warning_names_its_files(fresh_loops: Path, monkeypatch: Any) -> None:
    real = loop_backend._source

    def broken(*args: Any) -> str:   # a typing error, found at the first call
        return real(*args).replace("o[k] = ", "o[k] = 'not a float' + ")
    monkeypatch.setattr(loop_backend, "_source", broken)
    x = lt.asarray(np.linspace(-1, 1, 1000))
    e = x * 3.0 + 1.0
    form = _loop_of(e)
    with lt.set_options(backend="loop"):
        with pytest.warns(loop_backend.LoopUnusableWarning) as caught:
            lt.compute(e)
    (message,) = [str(w.message) for w in caught]
    loops = fresh_loops / "loops"
    assert str(loops / f"lazyten_loop_{form.key}.py") in message
    assert str(loops / "__pycache__" / f"lazyten_loop_{form.key}") in message


def test_numexpr_refuses_an_expression_whose_text_would_blow_up() -> None:
    """numexpr has no temporaries: a value an instruction uses twice is
    written out twice, so ``x = x - 0.1 * x * x`` ten times was 3**10
    copies of ``x`` to compile (3 s; twelve times, 30 s).  Past
    ``MAX_CHARS`` of text the kernel runs blocked NumPy instead; a short
    chain still goes to numexpr.  NumPy's values either way."""
    X = np.random.default_rng(14).random(50_000)

    def chain(m: Any, n: int) -> Any:
        x = m.asarray(X)
        for _ in range(n):
            x = x - 0.1 * x * x
        return x
    with lt.set_options(backend="numexpr"):
        for n, backend in ((2, "numexpr"), (12, "blocked")):
            x = chain(lt, n)
            assert [k.kernel.backend for k in lt.plan(x).kernels] == [backend]
            np.testing.assert_array_equal(lt.compute(x)[0], chain(np, n))
