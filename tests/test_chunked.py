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
