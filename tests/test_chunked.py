"""Chunked evaluation under a memory budget: the peak (tracemalloc) stays
within the budget, values match NumPy, and graphs that need two passes keep
raising MemoryError."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.chunked import NotChunkable, evaluate_chunked


def traced_peak(fn: Callable[[], Any]) -> tuple[Any, int]:
    """``fn()`` and the peak of memory it allocated (bytes above the start)."""
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        res = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return res, peak - base


def test_compute_chunked_stays_under_budget() -> None:
    n = 1_000_000
    rng = np.random.default_rng(0)
    X, Y = rng.random(n), rng.random(n)
    x, y = lt.asarray(X), lt.asarray(Y)
    s = lt.exp(x) * y
    outs = [s.sum(), s.max(), (s * s).mean(), lt.sqrt((s * s).sum()) + 1]
    unchunked = lt.plan(*outs).peak_bytes
    budget = 2_000_000
    assert unchunked > 4 * budget          # the plain plan would not fit
    (vals, info), peak = traced_peak(lambda: lt.compute_chunked(*outs, memory_limit=budget,
                                                                info=True))
    assert peak <= budget
    assert info.chunks > 4 and info.chunk_peak_bytes <= info.budget
    S = np.exp(X) * Y
    want = [S.sum(), S.max(), (S * S).mean(), np.sqrt((S * S).sum()) + 1]
    for v, w in zip(vals, want):
        assert v.shape == () and v.dtype == np.float64
        np.testing.assert_allclose(v, w, rtol=1e-10)
    # Without a budget-aware path the plan alone would have needed `unchunked`.
    with lt.set_options(memory_limit=budget):
        with pytest.raises(MemoryError):
            lt.plan(*outs)


def test_evaluate_chunks_automatically_over_memory_limit() -> None:
    n = 500_000
    rng = np.random.default_rng(1)
    X, Y = rng.standard_normal(n), rng.standard_normal(n)
    x, y = lt.asarray(X), lt.asarray(Y)
    s = lt.sin(x) * y + 1
    budget = 1_000_000
    with lt.set_options(memory_limit=budget):
        vals, peak = traced_peak(lambda: lt.compute(s.sum(), s.min(), (s > 1).any(),
                                                    s.astype(np.float32).mean()))
        total = float((x * y).sum())                       # forcing chunks too
    assert peak <= budget
    S = np.sin(X) * Y + 1
    np.testing.assert_allclose(vals[0], S.sum(), rtol=1e-10)
    assert vals[1] == S.min() and vals[2] == (S > 1).any()
    assert vals[3].dtype == np.float32
    np.testing.assert_allclose(vals[3], S.astype(np.float32).mean(), rtol=1e-5)
    np.testing.assert_allclose(total, (X * Y).sum(), rtol=1e-10)


def test_nanmean_along_rows_is_chunked_with_numpys_bits_and_warning() -> None:
    """nanmean's division by the count (an op of its own, for NumPy's
    warning) computes each row from that row: it runs in chunks."""
    x = np.random.default_rng(0).random((20000, 50))
    x[::7, 3] = np.nan
    x[5] = np.nan                                           # an all-NaN row
    budget = 2_000_000
    with lt.set_options(memory_limit=budget), pytest.warns(RuntimeWarning, match="empty slice"):
        (got,), peak = traced_peak(lambda: lt.compute(lt.nanmean(lt.asarray(x), axis=1)))
    assert peak <= budget
    with pytest.warns(RuntimeWarning, match="empty slice"):
        np.testing.assert_array_equal(got, np.nanmean(x, axis=1))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64])
def test_axes_keepdims_broadcasting_and_dtypes(dtype: Any) -> None:
    rng = np.random.default_rng(2)
    A = (rng.random((400, 30)) * 10).astype(dtype)
    b = (rng.random(30) * 3).astype(dtype)                 # broadcast along the chunk axis
    c = (rng.random((400, 1)) * 3).astype(dtype)           # sliced with the chunk axis
    a, bb, cc = lt.asarray(A), lt.asarray(b), lt.asarray(c)
    t = a * bb + cc
    outs = [t.sum(axis=1), t.sum(axis=0), t.max(axis=0, keepdims=True), t.mean(axis=0),
            t.min(), (t > 5).all(axis=1), t.sum(axis=1, keepdims=True), t, (t * 2).sum() - 1]
    T = A * b + c
    want = [T.sum(axis=1), T.sum(axis=0), T.max(axis=0, keepdims=True), T.mean(axis=0),
            T.min(), (T > 5).all(axis=1), T.sum(axis=1, keepdims=True), T, (T * 2).sum() - 1]
    out_bytes = sum(np.asarray(w).nbytes for w in want if np.ndim(w) and len(w) == 400)
    info: list[Any] = []
    got = evaluate_chunked([o.node for o in outs], memory_limit=out_bytes + 20_000, info=info)
    assert info[0].chunks > 1
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_two_pass_graphs_are_not_chunked() -> None:
    X = np.random.default_rng(3).random(400_000)
    x = lt.asarray(X)
    centered = ((x - x.mean()) ** 2).sum()                 # needs the mean first
    with pytest.raises(NotChunkable, match="two passes"):
        evaluate_chunked([centered.node], memory_limit=100_000)
    with pytest.raises(NotChunkable, match="only elementwise ops and reductions"):
        evaluate_chunked([(lt.exp(x)[::2] * 2).sum().node], memory_limit=100_000)
    with pytest.raises(NotChunkable, match="no combine op"):
        evaluate_chunked([lt.exp(x).var().node], memory_limit=100_000)
    big = lt.exp(x) * 2
    with pytest.raises(MemoryError, match="outputs alone"):
        evaluate_chunked([big.node], memory_limit=100_000)
    # Automatic evaluation: the MemoryError stands, with a note saying why.
    s = lt.exp(x)
    with lt.set_options(memory_limit=1_000_000):
        with pytest.raises(MemoryError) as e:
            lt.compute(((s - s.mean()) ** 2).sum(), s.max())
    assert any("not evaluated in chunks either" in n for n in e.value.__notes__)


# ---------------------------------------------------------------- accumulation dtypes
# Chunked partial sums are made and combined in the dtype NumPy accumulates
# in, and a mean is divided as NumPy's ``_mean`` divides: values equal to
# NumPy's bit for bit wherever the order of the additions cannot change
# them (integers, bools, ints summed in float64, float16 runs that NumPy
# adds in float32 and rounds once).  Float sums in their own dtype round
# with the chunks: the tests above allow rtol 1e-5 (float32) and 1e-12.


def both_paths(outs: list[Any], limit: int) -> list[list[np.ndarray[Any, Any]]]:
    """``outs`` by ``lt.compute_chunked`` and by ``lt.compute`` under
    ``memory_limit`` (the optimizer's plan is over it: chunked too)."""
    vals, info = lt.compute_chunked(*outs, memory_limit=limit, info=True)
    assert info.chunks > 1
    with lt.set_options(memory_limit=limit):
        with pytest.raises(MemoryError):
            lt.plan(*outs)
        auto = lt.compute(*outs)
    return [list(vals), list(auto)]


def assert_same(got: list[np.ndarray[Any, Any]], want: list[Any]) -> None:
    """Bit for bit: dtype, shape and every value (NaN where NumPy has NaN)."""
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), i
        assert np.array_equal(g, w, equal_nan=True), (i, g, w)


def test_float16_mean_accumulates_in_float32() -> None:
    # float16 partial sums overflowed (100,000 ones) and the count was a
    # float16 inf: nan where NumPy, which sums float16 in float32, has 1.0.
    H = np.full(100_000, 1.0, np.float16)
    h, o = lt.asarray(H), lt.asarray(np.ones_like(H))
    # (``h * 1`` is ``h`` to the optimizer: one chunk, the bug all the same;
    # and a plan that fits, so lt.compute does not chunk it)
    assert_same(list(lt.compute_chunked((h * 1).mean(), memory_limit=10**6)),
                [np.float16(1.0)])
    for got in both_paths([(h * o).mean(), (h * o).mean(keepdims=True)], 150_000):
        assert_same(got, [np.float16(1.0), np.ones(1, np.float16)])
    rng = np.random.default_rng(7)
    X = (rng.random(100_000) * 0.6).astype(np.float16)
    M = (rng.random((4000, 25)) * 0.6).astype(np.float16)
    x, m = lt.asarray(X), lt.asarray(M)
    t, u = x * 2, m * 2
    T, U = X * 2, M * 2
    outs = [t.mean(), t.mean(keepdims=True), t.mean(dtype=np.float16), u.mean(),
            u.mean(axis=0), u.mean(axis=(0, 1), keepdims=True), u.mean(axis=0, keepdims=True)]
    want = [T.mean(), T.mean(keepdims=True), T.mean(dtype=np.float16), U.mean(),
            U.mean(axis=0), U.mean(axis=(0, 1), keepdims=True), U.mean(axis=0, keepdims=True)]
    for got in both_paths(outs, 200_000):
        assert_same(got, want)


@pytest.mark.parametrize("reduce", ["sum", "prod"])
def test_float16_sums_and_products_add_up_in_float32(reduce: str) -> None:
    # NumPy's float16 loop runs the whole array in float32 and rounds once;
    # float16 partials rounded at every chunk (a sum 0.07% high).
    rng = np.random.default_rng(0)
    if reduce == "sum":
        X = (rng.random(100_000) * 0.6).astype(np.float16)
    else:
        X = (1 + (rng.random(100_000) - 0.5) * 0.004).astype(np.float16)
    M = X.reshape(4000, 25)          # (a reshape of chunked data is not chunked)
    x, o, m = lt.asarray(X), lt.asarray(np.ones_like(X)), lt.asarray(M)
    t, T = x * o, X * 1
    u, U = m * o.reshape(4000, 25), M * 1
    outs = [getattr(t, reduce)(), getattr(t, reduce)(keepdims=True), getattr(u, reduce)(),
            getattr(u, reduce)(axis=(0, 1), keepdims=True)]
    want = [getattr(T, reduce)(), getattr(T, reduce)(keepdims=True), getattr(U, reduce)(),
            getattr(U, reduce)(axis=(0, 1), keepdims=True)]
    for got in both_paths(outs, 150_000):
        assert_same(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int16,
                                   np.int32, np.uint8, np.bool_, np.complex64])
def test_mean_into_float16_divides_by_an_intp_count(dtype: Any) -> None:
    # mean(dtype=float16): the count 100,000 was cast to float16 (inf), so
    # the mean was 0 (or nan); NumPy divides by an intp, in float64.  The
    # data's sums are small integers: exact in float16 in any order.
    X = np.zeros(100_000, dtype)
    X[::100] = 1
    M = X.reshape(2000, 50)
    x, o, m = lt.asarray(X), lt.asarray(np.ones_like(X)), lt.asarray(M)
    t, T = x * o, X * np.ones_like(X)
    u, U = m * o.reshape(2000, 50), M * np.ones_like(M)
    f16 = np.float16
    outs = [t.mean(dtype=f16), t.mean(dtype=f16, keepdims=True),
            u.mean(axis=(0, 1), dtype=f16), u.mean(axis=(0, 1), dtype=f16, keepdims=True)]
    want = [T.mean(dtype=f16), T.mean(dtype=f16, keepdims=True),
            U.mean(axis=(0, 1), dtype=f16), U.mean(axis=(0, 1), dtype=f16, keepdims=True)]
    limit = 150_000 if np.dtype(dtype).itemsize < 8 else 600_000
    if np.dtype(dtype) != np.float16:
        # NumPy casts other data to float16 in buffers and rounds its
        # running total per buffer: no chunks' partials give its bits
        # (``test_a_float16_total_of_other_data_is_not_chunked``).
        with pytest.raises(lt.chunked.NotChunkable, match="float16 mean"):
            lt.compute_chunked(*outs, memory_limit=limit)
        assert_same(list(lt.compute(*outs)), want)
        return
    for got in both_paths(outs, limit):
        assert_same(got, want)


def test_a_float16_total_of_other_data_is_not_chunked() -> None:
    # Down the chunk axis NumPy's float16 total of float32 or int8 data
    # saturates at 2048 (20,000 rows of ones); partials restarted at each
    # chunk gave 9450 (a mean 0.4724 for 0.1024), and along it the
    # per-buffer roundings differ in the last bits: refused, with the reason.
    for data, limit in [(np.ones((20_000, 4), np.float32), 300_000),
                        (np.ones((20_000, 4), np.int8), 30_000)]:
        t = lt.asarray(data) * data.dtype.type(1)
        for e, want in [(t.sum(axis=0, dtype=np.float16), data.sum(axis=0, dtype=np.float16)),
                        (t.mean(axis=0, dtype=np.float16),
                         data.mean(axis=0, dtype=np.float16))]:
            with lt.set_options(memory_limit=limit):
                with pytest.raises(MemoryError) as err:
                    e.eval()
            assert "cannot be split" in str(err.value.__notes__)
            assert_same([lt.compute(e)[0]], [want])


def test_float32_mean_divides_in_float64() -> None:
    # A count over 2**24 is not a float32: NumPy divides the float32 sum by
    # an intp (in float64); dividing by the count as float32 was 1 ulp off.
    X = np.zeros(2**24 + 1, np.int8)
    X[::7] = 3
    x = lt.asarray(X)
    for got in both_paths([(x * 2).mean(dtype=np.float32)], 2_000_000):
        assert_same(got, [(X * 2).mean(dtype=np.float32)])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.bool_])
def test_integer_and_bool_reductions_are_exact(dtype: Any) -> None:
    # Integer partials combine exactly: int8 sums and products in int64
    # (wrapping as NumPy's do), bool sums in int64, means of ints in float64.
    rng = np.random.default_rng(8)
    if dtype == np.bool_:
        A = rng.random((4000, 50)) > 0.3
    else:
        info = np.iinfo(dtype)
        A = rng.integers(max(info.min, -100), min(info.max, 100), (4000, 50)).astype(dtype)
    O = np.ones_like(A)
    a, o = lt.asarray(A), lt.asarray(O)
    t, T = (a & o, A & O) if dtype == np.bool_ else (a * o, A * O)
    outs: list[Any] = []
    want: list[Any] = []
    for axis in [None, 0, (0, 1)]:          # (the chunk axis: partials combined)
        for keep in [False, True]:
            for name in ["sum", "prod", "mean", "min", "max", "any", "all"]:
                outs.append(getattr(t, name)(axis=axis, keepdims=keep))
                want.append(getattr(T, name)(axis=axis, keepdims=keep))
            outs.append(t.sum(axis=axis, keepdims=keep, dtype=np.int8))
            want.append(T.sum(axis=axis, keepdims=keep, dtype=np.int8))
    for got in both_paths(outs, 150_000):
        assert_same(got, want)


def test_argmax_argmin_and_float16_row_sums_are_refused_or_exact() -> None:
    """argmax/argmin keep an int axis (the analysis read a tuple: TypeError);
    along another axis they still chunk.  A float16 sum down the chunk axis
    adds row after row in float16 in NumPy (saturating at 2048 for ones):
    chunk partials gave 8210, so it is not chunked."""
    x = lt.asarray(np.random.default_rng(0).standard_normal((2000, 300)))
    with lt.set_options(memory_limit=400_000):
        with pytest.raises(MemoryError):
            (x + 1).argmax().eval()
        np.testing.assert_array_equal((x + 1).argmax(axis=1).eval(),
                                      (x.eval() + 1).argmax(axis=1))
    with pytest.raises(NotChunkable):
        lt.compute_chunked((x + 1).argmin(axis=0), memory_limit=400_000)
    h = np.ones((20000, 10), np.float16)
    with lt.set_options(memory_limit=400_000):
        with pytest.raises(MemoryError):
            (lt.asarray(h) * 1).sum(axis=0).eval()
        np.testing.assert_array_equal((lt.asarray(h) * 1).sum(axis=1).eval(), (h * 1).sum(axis=1))


@pytest.mark.parametrize("limit", [0, -5, 1.5e5, True], ids=str)
def test_memory_limit_is_checked_as_set_options_checks_it(limit: Any) -> None:
    x = lt.asarray(np.ones((100, 10)))
    with pytest.raises(ValueError, match="positive int"):
        lt.compute_chunked((x * 2).sum(), memory_limit=limit)
    with pytest.raises(ValueError, match="positive int"):
        lt.set_options(memory_limit=limit)


def test_chunked_results_are_laid_out_as_numpys() -> None:
    # A Fortran-ordered operand: NumPy's elementwise result is F, and so is
    # what compute_chunked hands back (its chunks were written into C).
    XF = np.random.default_rng(0).standard_normal((4, 50_000)).T
    x = lt.asarray(XF)
    (got,), info = lt.compute_chunked(x * 2 + 1, memory_limit=2_000_000, info=True)
    assert info.chunks > 1
    want = XF * 2 + 1
    assert got.strides == want.strides and np.array_equal(got, want)
