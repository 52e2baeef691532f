"""The compiled-loop backend (numba): NumPy's bits, one pass, and when it runs.

Every value is checked bit for bit against NumPy (sums included: the loop
replays NumPy's pairwise summation), on the layouts the loop takes
(contiguous, 1-d strided, scalars) and on those it hands to its NumPy
fallback (non-contiguous n-d operands or outputs).
"""

from __future__ import annotations

import math

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

import lazyten as lt
from lazyten.exec import cost, loop_backend
from tests.util import same_bits

pytestmark = pytest.mark.skipif(not loop_backend.available(), reason="numba not installed")


def backend_of(t: lt.Tensor) -> str:
    (k,) = lt.plan(t).kernels
    assert k.kernel is not None
    return k.kernel.backend


@pytest.fixture
def fresh_loops(monkeypatch: Any, tmp_path: Path) -> Iterator[Path]:
    """No loop compiled, counted or failed yet, and a cache directory of our own."""
    monkeypatch.setenv("LAZYTEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(loop_backend, "_compiled", {})
    monkeypatch.setattr(loop_backend, "_runs", {})
    monkeypatch.setattr(loop_backend, "_failed", {})
    monkeypatch.setattr(loop_backend, "_called", set())
    monkeypatch.setattr(loop_backend, "_available", True)
    monkeypatch.setattr(loop_backend, "_spent", {})
    monkeypatch.setattr(loop_backend, "_on_disk", {})
    yield tmp_path


SIZES = [0, 1, 7, 8, 9, 127, 128, 129, 1000, 2 * loop_backend.SPLIT_MIN + 13, 300_001]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sum_is_numpys_pairwise_sum_bit_for_bit(dtype: Any) -> None:
    rng = np.random.default_rng(0)
    n = max(SIZES)
    # Cancelling terms of mixed magnitudes: any other summation order shows.
    A = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 6, n)).astype(dtype)
    B = rng.standard_normal(n).astype(dtype)
    C = (-A * B + rng.standard_normal(n).astype(dtype)).astype(dtype)
    for size in SIZES:
        a, b, c = (lt.asarray(x[:size]) for x in (A, B, C))
        e = lt.sum(a * b + c * 0.5)
        for threads in (1, 2, 4):
            with lt.set_options(backend="loop", threads=threads, check=True):
                if size:                 # (the sum of nothing is folded away)
                    assert backend_of(e) == "loop"
                (got,) = lt.compute(e)   # computed again: no cached value
            exp = np.sum(A[:size] * B[:size] + C[:size] * dtype(0.5))
            same_bits(got, exp)


def test_sum_over_all_axes_of_nd_and_keepdims(fresh_loops: Path) -> None:
    rng = np.random.default_rng(1)
    M = rng.standard_normal((300, 77)) * 1e4
    m = lt.asarray(M)
    with lt.set_options(backend="loop", check=True):
        same_bits(lt.sum(m * m - 3.0).eval(), np.sum(M * M - 3.0))
        same_bits(lt.sum(-m, keepdims=True).eval(), np.sum(-M, keepdims=True))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sums_over_leading_or_trailing_axes_are_numpys(dtype: Any) -> None:
    # NumPy sums a contiguous last axis pairwise row by row, and a leading
    # axis row after row into the result (both from the identity).
    rng = np.random.default_rng(6)
    # (size-1 axes: NumPy's iterator drops them, so a sum over the first
    # axis of (m, 1) is a pairwise sum of m contiguous elements)
    cases = [(300, 77), (7, 1000), (1000, 7), (5, 3, 130), (2, 0, 4), (0, 5), (64, 2048),
             (130, 1), (1, 300), (40, 1, 30), (3, 1, 1, 200)]
    for shape in cases:
        X = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 6, shape)).astype(dtype)
        x = lt.asarray(X)
        nd = len(shape)
        for split, axes in [(k, tuple(range(k, nd))) for k in range(1, nd)] + \
                [(k, tuple(range(k))) for k in range(1, nd)]:
            # a row (the axes after the split) and a column (those before)
            R = rng.standard_normal(shape[split:]).astype(dtype)
            C = rng.standard_normal(shape[:split] + (1,) * (nd - split)).astype(dtype)
            r, c = lt.asarray(R), lt.asarray(C)
            for keep in (False, True):
                for threads in (1, 2):
                    with lt.set_options(backend="loop", threads=threads, check=True):
                        e = lt.sum(x * r - c, axis=axes, keepdims=keep)
                        (k,) = lt.plan(e).kernels
                        # (over size-1 axes only: no loop, the sum is the terms)
                        assert k.kernel is not None and (k.kernel.backend == "loop") \
                            != all(shape[i] == 1 for i in axes)
                        (got,) = lt.compute(e)
                    same_bits(got, np.sum(X * R - C, axis=axes, keepdims=keep))
    # -0.0's: every result starts from +0.0
    z = lt.asarray(np.full((4, 300), -0.0, dtype))
    with lt.set_options(backend="loop"):
        for axis in (0, 1):
            got = lt.compute(lt.sum(z * 1.0, axis=axis))[0]
            assert not np.signbit(got).any()
            same_bits(got, np.sum(np.full((4, 300), -0.0, dtype) * 1.0, axis=axis))


def loop_axes(nd: int) -> list[tuple[int, ...] | None]:
    """The reductions a loop runs over ``nd`` axes: every axis (None), the
    trailing axes after each split, the leading axes before it."""
    return [None] + [tuple(range(k, nd)) for k in range(1, nd)] + \
        [tuple(range(k)) for k in range(1, nd)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_products_are_numpys_one_element_after_the_other(dtype: Any) -> None:
    """NumPy's multiply.reduce has no pairwise form: over every axis, along
    each row and down each column it multiplies in index order, from 1.
    The loops do the same (blocked partial products only come close)."""
    rng = np.random.default_rng(8)
    for shape in [(2 * loop_backend.SPLIT_MIN + 13,), (300, 77), (7, 1000), (1000, 7),
                  (5, 3, 130), (0, 4), (1, 300)]:
        # near 1, so that a long product neither overflows nor underflows,
        # with specials: any other order of the multiplies shows
        X = (1 + (rng.random(shape) - 0.5) * 1e-2).astype(dtype)
        if X.size > 100:
            X.reshape(-1)[[3, 50]] = [np.inf, -0.0]
        x = lt.asarray(X)
        nd = len(shape)
        for axes in loop_axes(nd):
            for threads in (1, 2):
                with lt.set_options(backend="loop", threads=threads, check=True):
                    e = lt.prod(x * dtype(0.999) + dtype(0.002), axis=axes)
                    if X.size and not all(shape[a] == 1 for a in axes or range(nd)):
                        assert backend_of(e) == "loop"
                    (got,) = lt.compute(e)
                with np.errstate(all="ignore"):
                    same_bits(got, np.prod(X * dtype(0.999) + dtype(0.002), axis=axes))
    # "auto" takes the exact loop over the blocked loop's partial products,
    # though these are faster over every axis (the chain of multiplies)
    big = lt.asarray(rng.random(4 * loop_backend.AUTO_MIN).astype(dtype))
    assert backend_of(lt.prod(big * dtype(0.5) + dtype(0.75))) == "loop"
    # transposed: in memory order, as NumPy's temporary is laid out
    T = rng.random((300, 77)) + 0.5
    with lt.set_options(backend="loop", check=True):
        for axes in (None, 0, 1):
            same_bits(lt.prod(lt.asarray(T).T * 1.0001, axis=axes).eval(),
                      np.prod(T.T * 1.0001, axis=axes))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_scans_are_numpys_chains_in_loops(dtype: Any) -> None:
    """cumsum and cumprod of an expression: one chain per lane in index
    order, as NumPy's accumulate runs it (from the first element, not from
    the identity: -0.0 stays), over a 1-d kernel, along rows, down
    columns, with row and column operands; a middle axis or a transposed
    operand runs on the blocked loop, block after block."""
    rng = np.random.default_rng(9)
    for shape in [(2 * loop_backend.SPLIT_MIN + 13,), (300, 77), (7, 1000), (1000, 7),
                  (5, 3, 130), (1, 300), (300, 1)]:
        X = (rng.standard_normal(shape) * 0.01).astype(dtype)
        X.reshape(-1)[[0, 7, 40]] = [-0.0, np.nan, np.inf]
        nd = len(shape)
        R = rng.standard_normal(shape[-1:]).astype(dtype)
        C = rng.standard_normal(shape[:1] + (1,) * (nd - 1)).astype(dtype)
        x, r, c = lt.asarray(X), lt.asarray(R), lt.asarray(C)
        for axis in range(nd):
            loop = nd == 1 or axis in (0, nd - 1) and shape[axis] > 1 \
                or all(d == 1 for i, d in enumerate(shape) if i != axis)
            for threads in (1, 2):
                with lt.set_options(backend="loop", threads=threads, check=True):
                    e = lt.cumsum(x * dtype(2) + dtype(1), axis=axis)
                    assert (backend_of(e) == "loop") == loop, (shape, axis)
                    same_bits(lt.compute(e)[0], np.cumsum(X * dtype(2) + dtype(1), axis=axis))
                    # (a loop where the operands are rows or columns of the
                    # scan's split, else blocked or mixed)
                    for e, exp in [(lt.cumprod(x * r + dtype(1), axis=axis),
                                    np.cumprod(X * R + dtype(1), axis=axis)),
                                   (lt.cumsum(x - c, axis=axis), np.cumsum(X - C, axis=axis)),
                                   # (-0.0 first: kept, as NumPy starts from it)
                                   (lt.cumsum(x * dtype(2), axis=axis),
                                    np.cumsum(X * dtype(2), axis=axis))]:
                        same_bits(lt.compute(e)[0], exp)
    T = rng.standard_normal((300, 77)).astype(dtype)
    with lt.set_options(backend="loop", check=True):
        for axis in (0, 1):
            same_bits(lt.cumsum(lt.asarray(T).T * dtype(3), axis=axis).eval(),
                      np.cumsum(T.T * dtype(3), axis=axis))
    # "auto" takes the loop: NumPy's accumulate is a slower chain
    big = lt.asarray(rng.random(4 * loop_backend.AUTO_MIN).astype(dtype))
    assert backend_of(lt.cumsum(big * dtype(2))) == "loop"


def test_float32_statistics_are_numpys_sums_divided_in_float64() -> None:
    """mean/var/std of float32 decompose into sums (which fuse and are
    loops) divided by the count as NumPy's ``_mean``/``_var`` divide: in
    float64, rounded back to float32; the bits are NumPy's."""
    rng = np.random.default_rng(10)
    for shape in [(300_001,), (700, 600), (3, 40, 500)]:
        X = (rng.standard_normal(shape) * 10 + 3).astype(np.float32)
        x = lt.asarray(X)
        for axis in (None, 0, -1):
            for name, kw in [("mean", {}), ("var", {}), ("std", {"ddof": 1}),
                             ("var", {"ddof": 1.5})]:
                e = getattr(lt, name)(x * 2 - 1, axis=axis, **kw)
                with lt.set_options(backend="loop", check=True):
                    (got,) = lt.compute(e)
                    plan = lt.plan(e)
                assert not [s for s in plan.steps if s.node.op.name == name]
                same_bits(got, getattr(np, name)(X * 2 - 1, axis=axis, **kw))


def test_counts_of_masks_are_loops_with_an_int64_accumulator() -> None:
    """``sum(x > r)``, ``count_nonzero`` and a mask's mean: the pairwise, row
    and column loops on an int64 accumulator, over every axis, leading and
    trailing axes, with NaN (which compares False)."""
    rng = np.random.default_rng(7)
    for shape in [(2 * loop_backend.SPLIT_MIN + 13,), (300, 77), (5, 3, 130), (0, 4)]:
        X = rng.standard_normal(shape)
        X.reshape(-1)[::17] = np.nan
        x = lt.asarray(X)
        nd = len(shape)
        for axes in loop_axes(nd):
            for threads in (1, 2):
                with lt.set_options(backend="loop", threads=threads, check=True):
                    for e, exp in [(lt.sum(x > 0.25, axis=axes), np.sum(X > 0.25, axis=axes)),
                                   (lt.count_nonzero(x <= x * 0.5, axis=axes),
                                    np.count_nonzero(X <= X * 0.5, axis=axes))]:
                        if X.size:
                            assert backend_of(e) == "loop"
                        (got,) = lt.compute(e)
                        assert got.dtype == np.int64
                        np.testing.assert_array_equal(got, exp)
                    if axes is None and X.size:
                        same_bits(lt.compute(lt.mean(x > 0))[0], np.mean(X > 0))


def test_elementwise_with_row_and_column_operands(monkeypatch: Any) -> None:
    # W4's last kernel: (A - mean) / std with (n,) rows over (m, n).
    rng = np.random.default_rng(7)
    A = rng.standard_normal((400, 250))
    mu, sd = A.mean(0), A.std(0)
    col = rng.standard_normal((400, 1))
    a, m, s, c = (lt.asarray(v) for v in (A, mu, sd, col))
    with lt.set_options(backend="loop", check=True):
        for e, exp in [((a - m) / s, (A - mu) / sd), (a * c + m, A * col + mu),
                       (lt.where(a > m, c, 0.5), np.where(A > mu, col, 0.5)),
                       (lt.maximum(c, m) * 2.0, np.maximum(col, mu) * 2.0)]:
            (k,) = lt.plan(e).kernels
            assert k.kernel is not None and k.kernel.loop is not None
            assert k.kernel.loop.mode == "ew2"
            same_bits(lt.compute(e)[0], exp)
        # a broadcast along a middle axis: no rows or columns, but a loop an
        # axis when elementwise ("ewn") or reducing the last axis; a
        # reduction over the middle axis has no loop
        B, T = rng.standard_normal((4, 1, 6)), rng.standard_normal((4, 5, 6))
        b, t = lt.asarray(B), lt.asarray(T)
        (k,) = lt.plan(t * b + 1.0).kernels
        assert k.kernel is not None and k.kernel.loop is not None
        assert k.kernel.loop.mode == "ewn"
        same_bits(lt.compute(t * b + 1.0)[0], T * B + 1.0)
        (k,) = lt.plan(lt.sum(t * b + 1.0, axis=-1)).kernels
        assert k.kernel is not None and k.kernel.backend == "loop"
        same_bits(lt.compute(lt.sum(t * b + 1.0, axis=-1))[0], np.sum(T * B + 1.0, axis=-1))
        (k,) = lt.plan(lt.sum(t * b + 1.0, axis=1)).kernels
        assert k.kernel is not None and k.kernel.backend != "loop"


def test_sum_of_signed_zeros_starts_from_the_identity(fresh_loops: Path) -> None:
    # np.add.reduce starts from +0.0: the sum of -0.0's is +0.0.
    z = lt.asarray(np.full(1000, -0.0))
    with lt.set_options(backend="loop"):
        got = lt.sum(z * 1.0).eval()
    same_bits(got, np.sum(np.full(1000, -0.0) * 1.0))
    assert not np.signbit(got)


SPECIALS = np.array([0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 5e-324, -2.2e-308,
                     1.7e308, -1.7e308, 3.0, 1e-300, 0.1])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_elementwise_ops_on_special_values_are_numpys(dtype: Any) -> None:
    with np.errstate(all="ignore"):
        x = np.resize(SPECIALS, 40_000).astype(dtype)
        y = np.roll(x, 3)
    a, b = lt.asarray(x), lt.asarray(y)
    cases = [
        (lambda p, q: p * q + q, lambda p, q: p * q + q),
        (lambda p, q: (p - q) / q, lambda p, q: (p - q) / q),
        (lambda p, q: p * p - abs(p), lambda p, q: np.square(p) - np.abs(p)),
        (lambda p, q: lt.square(p) / 0.0, lambda p, q: np.square(p) / dtype(0.0)),
        # A Python float takes the array's dtype (NEP 50): float32 stays float32.
        (lambda p, q: p * 2.5 + 1, lambda p, q: p * 2.5 + 1),
        (lambda p, q: p.astype(np.float64) * 3.0 - q,
         lambda p, q: p.astype(np.float64) * 3.0 - q),
        (lambda p, q: (p * 1e30).astype(np.float32) + 1,
         lambda p, q: (p * 1e30).astype(np.float32) + 1),
        (lambda p, q: lt.sum(abs(p - q) * 0.5), lambda p, q: np.sum(np.abs(p - q) * 0.5)),
        # NumPy's maximum/minimum: NaN from either side, and of two zeros the
        # second operand (maximum(-0.0, 0.0) is 0.0, maximum(0.0, -0.0) -0.0)
        (lambda p, q: lt.maximum(p, q) - lt.minimum(q, p),
         lambda p, q: np.maximum(p, q) - np.minimum(q, p)),
        (lambda p, q: lt.maximum(p, q) * 1.0, lambda p, q: np.maximum(p, q) * 1.0),
        (lambda p, q: lt.minimum(p, q) * 1.0, lambda p, q: np.minimum(p, q) * 1.0),
        (lambda p, q: lt.maximum(p, 0.0) + lt.minimum(0.0, q),
         lambda p, q: np.maximum(p, 0.0) + np.minimum(0.0, q)),
        # comparisons (NaN compares false, != true), their logic, and where
        (lambda p, q: lt.where(p > q, p, q * 0.5), lambda p, q: np.where(p > q, p, q * 0.5)),
        (lambda p, q: lt.where((p <= 1.0) & ~(q == p), 2.0, p),
         lambda p, q: np.where((p <= 1.0) & ~(q == p), dtype(2.0), p)),
        (lambda p, q: (p != q) | (p >= 3) ^ (q < -1), lambda p, q: (p != q) | (p >= 3) ^ (q < -1)),
        (lambda p, q: (p > 0).astype(p.dtype) * q, lambda p, q: (p > 0).astype(p.dtype) * q),
        (lambda p, q: lt.sum(lt.where(p == p, p, 0.0) * 1.0),
         lambda p, q: np.sum(np.where(p == p, p, dtype(0.0)) * 1.0)),
        # rounding: -0.0 kept, halves (q * 0.5: 1.5, 0.5, -0.75...) to even
        (lambda p, q: lt.floor(p * 2.5) + lt.ceil(q * 0.5),
         lambda p, q: np.floor(p * 2.5) + np.ceil(q * 0.5)),
        (lambda p, q: lt.trunc(p * 2.5) - lt.rint(q * 0.5) * 1.0,
         lambda p, q: np.trunc(p * 2.5) - np.rint(q * 0.5) * 1.0),
        (lambda p, q: lt.rint(p) * 1.0 + lt.floor(q * -1.0) * 1.0,
         lambda p, q: np.rint(p) * 1.0 + np.floor(q * -1.0) * 1.0),
    ]
    for lz, ref in cases:
        with lt.set_options(backend="loop", check=True), np.errstate(all="ignore"):
            e = lz(a, b)
            assert backend_of(e) == "loop"
            got = e.eval()
            exp = ref(x, y)
        same_bits(got, exp)


def test_int64_and_uint64_compare_exactly() -> None:
    """Their common dtype is float64, which rounds 2**63 - 2 and 2**63 - 1
    to one value; NumPy 2 compares them exactly, so no float loop does."""
    a = np.full(50_000, 2**63 - 2, np.int64)
    b = np.full(50_000, 2**63 - 1, np.uint64)
    with lt.set_options(backend="loop"):
        for op in ("less", "less_equal", "greater", "equal", "not_equal"):
            for x, y in ((a, b), (b, a)):
                got = getattr(lt, op)(lt.asarray(x), lt.asarray(y)).eval()
                np.testing.assert_array_equal(got, getattr(np, op)(x, y))


def test_a_negation_keeps_numpys_nan_sign() -> None:
    """NumPy's negation flips a NaN's sign; LLVM folds -x + 1 into 1 - x,
    which does not, so kernels with a negation run NumPy's loops (the NaN
    of one NaN operand keeps its sign through the other ops on x86)."""
    a = lt.asarray(np.full(50_000, np.nan))
    b = lt.asarray(np.full(50_000, 2.0))
    for e, want in ((-a + 1.0, True), (b - -a, True), (-(a * b) + 1.0, True),
                    ((-a) * (-b), True), (a * -1.0 + b, False)):
        with lt.set_options(backend="loop"):
            for _ in range(2):               # (the second run: the compiled loop)
                got = e.eval()
        assert np.signbit(got).all() == want


def test_mixed_dtypes_and_broadcast_scalars() -> None:
    rng = np.random.default_rng(2)
    x32 = rng.standard_normal(70_001).astype(np.float32)
    y64 = rng.standard_normal(70_001)
    s = np.float32(1.25)
    a, b, c = lt.asarray(x32), lt.asarray(y64), lt.asarray(np.array([s]))
    with lt.set_options(backend="loop", check=True):
        e = a * c + b          # float32 * float32, then float64
        assert backend_of(e) == "loop"
        same_bits(e.eval(), x32 * np.array([s]) + y64)
        same_bits(lt.sum(a * c).eval(), np.sum(x32 * np.array([s])))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_operands_broadcast_along_any_axes_are_one_nested_loop(dtype: Any) -> None:
    """``P[:, None, :] - Q[None, :, :]``, ``B * r`` with ``r`` of shape
    (n, 1, m): no split into leading and trailing axes serves, so the loop
    nests an axis a loop ("ewn", up to MAX_EWN_AXES axes), each broadcast
    operand read from its own data; NumPy's bits, on special values too."""
    rng = np.random.default_rng(12)
    with np.errstate(all="ignore"):
        S = np.resize(SPECIALS, 4000).astype(dtype)
    cases = [((40, 1, 60), (1, 30, 60)), ((40, 30, 60), (40, 1, 60)),
             ((40, 30, 60), (1, 30, 1)), ((6, 1, 7, 50), (1, 5, 7, 1)),
             ((6, 5, 1, 50), (6, 1, 7, 50))]
    for sa, sb in cases:
        A = rng.permutation(np.resize(S, math.prod(sa))).reshape(sa)
        B = rng.permutation(np.resize(S, math.prod(sb))).reshape(sb)
        a, b = lt.asarray(A), lt.asarray(B)
        for threads in (1, 2):
            with lt.set_options(backend="loop", threads=threads, check=True), \
                    np.errstate(all="ignore"):
                d = a - b               # (every op full-size: one kernel)
                e = d * d * dtype(0.5) + d / dtype(3)
                (k,) = lt.plan(e).kernels
                assert k.kernel is not None and k.kernel.loop is not None
                assert k.kernel.loop.mode == "ewn"
                assert "an axis a loop" in lt.explain(e, verbose=True)
                (got,) = lt.compute(e)
                exp = (A - B) * (A - B) * dtype(0.5) + (A - B) / dtype(3)
            same_bits(got, exp)
    # five axes: beyond MAX_EWN_AXES, the blocked loop runs it
    F = rng.random((3, 1, 4, 1, 50)).astype(dtype)
    G = rng.random((1, 2, 1, 5, 50)).astype(dtype)
    with lt.set_options(backend="loop", check=True):
        e = lt.asarray(F) * lt.asarray(G) + 1
        assert backend_of(e) != "loop"
        same_bits(e.eval(), F * G + 1)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_reductions_along_the_last_axis_of_broadcasts_are_nested_loops(dtype: Any) -> None:
    """``((P[:, None, :] - Q[None, :, :])**2).sum(-1)`` (pairwise squared
    distances) and the like: the rows of the last axis are reached by
    nested loops, as "ewn"'s are, and each row is reduced as NumPy reduces
    a contiguous last axis (pairwise sums and counts, products and scans
    one element after the other); NumPy's bits, on special values too."""
    rng = np.random.default_rng(13)
    with np.errstate(all="ignore"):
        S = np.resize(SPECIALS, 6000).astype(dtype)
    # rows shorter than 8, of one pairwise leaf, of several (129, 300)
    cases = [((40, 1, 3), (1, 30, 3)), ((20, 1, 129), (1, 10, 129)),
             ((7, 9, 300), (7, 1, 300)), ((6, 1, 7, 50), (1, 5, 7, 1)),
             ((3, 4, 1, 20), (1, 4, 5, 20)), ((40, 30, 10), (1, 30, 1))]
    for sa, sb in cases:
        A = rng.permutation(np.resize(S, math.prod(sa))).reshape(sa)
        B = rng.permutation(np.resize(S, math.prod(sb))).reshape(sb)
        # near 1 for products, so that long rows neither overflow nor vanish
        C, D = ((1 + (rng.random(sh) - 0.5) * 1e-2).astype(dtype) for sh in (sa, sb))
        a, b, c, dd = lt.asarray(A), lt.asarray(B), lt.asarray(C), lt.asarray(D)
        for threads in (1, 2):
            with lt.set_options(backend="loop", threads=threads, check=True), \
                    np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("error")       # (a loop that fails warns)
                d = a - b
                cases_ = [
                    (lt.sum(d * d, axis=-1), np.sum((A - B) * (A - B), axis=-1)),
                    (lt.sum(a * dtype(0.5) + b, axis=-1, keepdims=True),
                     np.sum(A * dtype(0.5) + B, axis=-1, keepdims=True)),
                    (lt.sum(a > b, axis=-1), np.sum(A > B, axis=-1)),
                    (lt.count_nonzero(a < b, axis=-1), np.count_nonzero(A < B, axis=-1)),
                    (lt.prod(c * dd, axis=-1), np.prod(C * D, axis=-1)),
                    (lt.cumsum(a + b, axis=-1), np.cumsum(A + B, axis=-1)),
                    (lt.cumprod(c / dd, axis=-1), np.cumprod(C / D, axis=-1)),
                ]
                got = []
                for e, _ in cases_:
                    # (``a * 0.5`` is its own kernel, over ``a``'s elements)
                    k = lt.plan(e).kernels[-1]
                    assert k.kernel is not None and k.kernel.loop is not None, (sa, sb, e)
                    assert k.kernel.loop.mode == "rows" and k.kernel.loop.dims
                    got.append(lt.compute(e)[0])
            for g, (_, exp) in zip(got, cases_):
                same_bits(g, exp)
    # rows of two operands broadcast along different axes, and the explain
    A, B = rng.random((5, 1, 16)).astype(dtype), rng.random((1, 4, 16)).astype(dtype)
    with lt.set_options(backend="loop", check=True):
        e = lt.sum(lt.asarray(A) * lt.asarray(B), axis=-1)
        assert "pairwise sum of each row over 320 elements (5 x 4 x 16)" in \
            lt.explain(e, verbose=True)
        same_bits(e.eval(), np.sum(A * B, axis=-1))
        # a middle axis is no row: the blocked loop reduces it
        e = lt.sum(lt.asarray(A) * lt.asarray(B), axis=1)
        assert backend_of(e) != "loop"
        same_bits(e.eval(), np.sum(A * B, axis=1))
    # transposed and Fortran-ordered operands: NumPy's fallback or a loop
    # in memory order, NumPy's bits either way
    P, Q = rng.random((16, 30)).astype(dtype), rng.random((16, 20)).astype(dtype)
    with lt.set_options(backend="loop", check=True):
        for p, q, pn, qn in [(lt.asarray(P).T, lt.asarray(Q).T, P.T, Q.T),
                             (lt.asarray(np.asfortranarray(P.T)), lt.asarray(Q.T), P.T, Q.T)]:
            e = lt.sum((p[:, None, :] - q[None, :, :])**2, axis=-1)
            same_bits(e.eval(), np.sum((pn[:, None, :] - qn[None, :, :])**2, axis=-1))
    # "auto" takes the loop for a large pairwise-distance kernel
    P, Q = rng.random((300, 40)).astype(dtype), rng.random((200, 40)).astype(dtype)
    e = lt.sum((lt.asarray(P)[:, None, :] - lt.asarray(Q)[None, :, :])**2, axis=-1)
    assert backend_of(e) == "loop"


def test_layouts_the_loop_takes_and_those_it_hands_to_numpy(monkeypatch: Any) -> None:
    ran: list[int] = []
    real = loop_backend.run

    def spy(*args: Any) -> int | None:
        done = real(*args)
        ran.append(int(done is not None))
        return done
    monkeypatch.setattr(loop_backend, "run", spy)
    rng = np.random.default_rng(3)
    base = rng.standard_normal((400, 300))
    flat = rng.standard_normal(240_000)
    cases = [                         # (array, elementwise loop, sum loop)
        (base, 1, 1),                 # contiguous 2-d: flattened
        (flat[::2], 1, 1),            # 1-d strided: the loop indexes with strides
        (base[:, ::2], 1, 0),         # n-d non-contiguous: by rows (a grid) or NumPy
        (base[1:, 1:], 1, 0),
        (base.T, 1, 1),               # transposed: the loop runs in memory order
        (np.asfortranarray(base), 1, 1),
        (base[::-1], 0, 0),           # (a negative stride: NumPy)
    ]
    for arr, ew_loops, sum_loops in cases:
        x = lt.asarray(arr)
        # (x * x + 1: the sum of x * x alone is a BLAS dot)
        for e, exp, loops in [(x * 3.0 - 1.0, arr * 3.0 - 1.0, ew_loops),
                              (lt.sum(x * x + 1.0), np.sum(arr * arr + 1.0), sum_loops)]:
            ran.clear()
            with lt.set_options(backend="loop", check=True):
                assert backend_of(e) == "loop"
                got = e.eval()
            assert ran == ([1] if loops else []), (arr.shape, arr.strides)
            if loops or e.ndim:
                same_bits(got, exp)
            else:  # the fallback's blocked sum is not in NumPy's exact order
                np.testing.assert_allclose(got, exp, rtol=1e-12)


def _loops_run(monkeypatch: Any) -> list[Any]:
    """The forms of the compiled loops that ran (``loop_backend.run``
    wrote their values), in order, from now on."""
    ran: list[Any] = []
    real = loop_backend.run

    def spy(fn: Any, form: Any, *rest: Any) -> int | None:
        done = real(fn, form, *rest)
        if done is not None:
            ran.append(form)
        return done
    monkeypatch.setattr(loop_backend, "run", spy)
    return ran


def test_slices_of_a_grid_are_read_by_rows_in_one_loop(monkeypatch: Any) -> None:
    # A stencil's operands are strided views of one array: the loop reads
    # each by rows of its own strides in that array's memory ("g": rows
    # contiguous, "gs": any column stride), where NumPy's fallback made a
    # temporary an op; the bits are NumPy's.
    ran = _loops_run(monkeypatch)
    rng = np.random.default_rng(11)
    X = rng.standard_normal((600, 700))
    X32 = X.astype(np.float32)
    X3 = rng.standard_normal((6, 50, 70))
    I16 = rng.integers(-300, 300, (300, 400)).astype(np.int16)
    F = np.asfortranarray(X)
    row = rng.standard_normal(698)
    cases: list[tuple[Any, Any, set[str] | None]] = [
        # (lazyten's and NumPy's expression of the arrays, the grid kinds used)
        (lambda m, u: 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]),
         X, {"g"}),
        (lambda m, u: (u[1:, 1:] - u[:-1, :-1]) * 0.5, X32, {"g"}),
        (lambda m, u: u[:, ::2] * 3.0 - u[:, 1::2], X, {"gs"}),
        (lambda m, u: u[1:-1, 1:-1] / 7.0 + u[2:, 2:], I16, {"g"}),   # cast in the loop
        (lambda m, u: u.T[1:-1, 2:] * 2.0 + 1.0, X, {"g"}),           # in memory order
        (lambda m, u: u[1:-1, 2:] * 2.0 - u[:-2, :-2], F, {"g"}),     # a Fortran base
        (lambda m, u: u[1:-1, 1:-1] + m.broadcast_to(row, (598, 698)), X, {"g"}),
        (lambda m, u: u[:, :, 1:] - u[:, :, :-1], X3, {"g"}),         # two axes merged
        (lambda m, u: u[1:-1, 1:-1, 1:-1] * 2.0, X3, None),           # no view merges them
        (lambda m, u: u[::-1, 1:] + 1.0, X, None),                    # a negative stride
        # a view 4 bytes into its base: no whole number of elements (NumPy)
        (lambda m, u: u[1:, 1:] * 2.0 + u[:-1, :-1], np.ndarray(
            (300, 400), np.float64, buffer=X, offset=4, strides=(5600, 8)), None),
        (lambda m, u: u[:0, 1:] + 1.0, X, set()),                     # empty: flat
    ]
    for threads in (1, 2):
        for k, (fn, arr, grids) in enumerate(cases):
            ran.clear()
            with lt.set_options(backend="loop", check=True, threads=threads):
                got = fn(lt, lt.asarray(arr)).eval()
            same_bits(got, fn(np, arr))
            kinds = [form.kinds for form in ran]
            used = {kd for ks in kinds for kd in ks if kd in loop_backend.GRIDS}
            if grids is None:
                assert kinds == [], k
            else:
                assert len(kinds) == 1 and used == grids, (k, kinds)
    # Time steps of a stencil written back into its interior: the interior's
    # new values are computed from the old ones, never read half-written.
    U = rng.standard_normal((300, 300))
    u = lt.asarray(U.copy())
    with lt.set_options(backend="loop", check=True):
        for _ in range(3):
            u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            U[1:-1, 1:-1] = 0.25 * (U[:-2, 1:-1] + U[2:, 1:-1] + U[1:-1, :-2] + U[1:-1, 2:])
            same_bits(u.eval(), U)


def test_outputs_without_a_flat_view_are_written_by_rows(monkeypatch: Any) -> None:
    # A kernel writing into the part of a write's buffer (``v[1:-1, 1:-1] =
    # k``) or into its slice of a stack along the last axis has a strided
    # destination: the loop writes it by rows of its own strides ("g":
    # rows contiguous, "gs": any column stride), NumPy's bits, on 1 and 2
    # threads; an output sharing memory with an operand is NumPy's.
    ran = _loops_run(monkeypatch)
    rng = np.random.default_rng(4)
    A = rng.standard_normal((300, 400))
    I16 = rng.integers(-300, 300, (300, 400)).astype(np.int16)
    F = np.asfortranarray(A)

    def interior(m: Any, base: Any, x: Any) -> Any:
        v = m.asarray(base.copy()) if m is lt else base.copy()
        v[1:-1, 1:-1] = x[:-2, 1:-1] * 0.5 + x[2:, 1:-1]
        return v

    def odd_columns(m: Any, base: Any, x: Any) -> Any:
        v = m.asarray(base.copy()) if m is lt else base.copy()
        v[:, 1::2] = x[:, :200] * 3.0 - 1.0
        return v
    cases: list[tuple[Any, Any, list[str]]] = [
        # (lazyten's and NumPy's program of (base, x), base, x, the outputs' kinds)
        (interior, (A, A[::-1].copy()), ["g"]),
        (interior, (A, I16), ["g"]),                            # cast in the loop
        (odd_columns, (A, A), ["gs"]),
        (lambda m, b, x: m.stack([x * 2.0, x + 1.0], axis=-1), (A, A), ["gs", "gs"]),
        (interior, (F, F), ["g"]),                              # in memory order
    ]
    for threads in (1, 2):
        for k, (fn, (base, x), outs) in enumerate(cases):
            ran.clear()
            with lt.set_options(backend="loop", check=True, threads=threads):
                got = fn(lt, base, lt.asarray(x)).eval()
            same_bits(got, fn(np, base, x))
            assert [form.out_kind for form in ran] == outs, k
    # an output over an operand's memory (never planned so): no grid
    form = loop_backend.loop_form((("multiply", (0, 1), (), np.dtype(np.float64)),),
                                  lt.plan(lt.asarray(A[1:, 1:]) * 2.0).steps[-1].node.inputs,
                                  None, (299, 399), np.dtype(np.float64))
    assert form is not None and form.mode == "ew"
    B = A.copy()
    assert loop_backend.grid_kinds(form, [B[1:, 1:], 2.0], B[:-1, :-1], 299, 399) is None
    kinds = loop_backend.grid_kinds(form, [B[1:, 1:], 2.0], A.copy()[:-1, :-1], 299, 399)
    assert kinds is not None and kinds[0] == ("g", None) and kinds[2] is not None


def test_sqrt_and_integer_or_bool_inputs_cast_to_floats_are_loops() -> None:
    # IEEE 754 rounds sqrt and integer-to-float casts correctly: NumPy's
    # float loops and the compiled loop give the same bits.
    rng = np.random.default_rng(31)
    n = 100_003
    F = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
    F[:4] = [np.inf, -0.0, np.nan, -1.0]
    F32 = F.astype(np.float32)
    ints = {"i64": rng.integers(-2**62, 2**62, n), "i32": rng.integers(-2**31, 2**31, n,
                                                                      dtype=np.int32),
            "i16": rng.integers(-3000, 3000, n).astype(np.int16),
            "u8": rng.integers(0, 256, n).astype(np.uint8),
            "u64": rng.integers(0, 2**64 - 1, n, dtype=np.uint64), "b": F > 0}
    d = {"f": F, "f32": F32, **ints}
    t = {k: lt.asarray(v) for k, v in d.items()}
    cases = [
        lambda m, d: m.sqrt(d["f"] * d["f"] + 1.0),
        lambda m, d: m.sqrt(d["f32"]) * np.float32(2),
        lambda m, d: m.sum(m.sqrt(abs(d["f"]))),
        lambda m, d: d["f"] * d["i64"] + d["u64"],       # 2**53 and up round
        lambda m, d: d["f32"] * d["i16"] - d["u8"],      # the float32 loop
        lambda m, d: d["f32"] * d["i32"],                # the float64 loop
        lambda m, d: d["i64"] / d["i32"] + 0.5,          # ints divided: float64
        lambda m, d: m.sqrt(d["i16"]) + d["f32"],        # sqrt of int16: float32
        lambda m, d: m.where(d["f"] > d["i64"], d["i32"], d["f"]),
        lambda m, d: m.where(d["f32"] <= d["i16"], d["f32"], 0.0),
        lambda m, d: d["f"] * d["b"] + d["b"],           # bools as 0.0 and 1.0
        lambda m, d: d["u64"].astype(np.float32) + d["f32"],
        lambda m, d: m.maximum(d["f"], d["i64"]) - m.minimum(d["u8"], d["f32"]),
        lambda m, d: m.sum(d["f"] * d["i32"]),
        lambda m, d: (d["f"] >= d["u64"]).astype(np.float64) + d["f"],
    ]
    with np.errstate(all="ignore"):
        for fn in cases:
            exp = fn(np, d)
            for threads in (1, 2):
                with lt.set_options(backend="loop", threads=threads):
                    e = fn(lt, t)
                    assert backend_of(e) == "loop"
                    same_bits(lt.compute(e)[0], exp)
        with lt.set_options(backend="loop"):
            # an integer op, or a compare of two integers, has no loop
            assert backend_of(t["i64"] * 2 + t["f"]) == "mixed"
            assert backend_of(lt.where(t["i64"] > t["i32"], t["f"], 0.0)) != "loop"


def test_ops_without_an_exact_loop_do_not_get_one() -> None:
    x = np.linspace(0.1, 1, 100_000)
    with lt.set_options(backend="loop", check=True):
        a = lt.asarray(x)
        for e in [lt.sin(a), lt.asarray(np.arange(100_000)) * 3,
                  lt.asarray(x.astype(np.float16)) + 1, lt.exp(lt.sin(a) * 2),
                  lt.sqrt(lt.asarray(np.arange(100_000, dtype=np.int8)))]:  # (float16)
            (k,) = lt.plan(e).kernels
            assert k.kernel is not None and k.kernel.backend not in ("loop", "mixed")
            assert "no exact loop" in k.kernel.why
        # Their exact ops around them can be a compiled tail (mixed kernels).
        for e in [lt.sin(a) * 2, lt.exp(a) + 1]:
            (k,) = lt.plan(e).kernels
            assert k.kernel is not None and k.kernel.backend == "mixed"
        # Reductions other than a plain sum or product keep NumPy's (the
        # elementwise part may still be a loop of its own).
        for e in [lt.max(a * 2), lt.sum(a * 2, dtype=np.float32),
                  lt.prod(a * 2, dtype=np.float32)]:
            for k in lt.plan(e).kernels:
                assert k.kernel is not None
                assert k.node.attrs["reduce"] is None or k.kernel.backend != "loop"
    assert loop_backend.loop_form((), [], None, (3,), np.dtype(np.float64)) is None


def test_errstate_raise_surfaces_errors_from_loops() -> None:
    # The loop runs, raises the divide flag, and NumPy runs the kernel again:
    # NumPy raises (tests/test_fpflags.py counts the runs).
    a = lt.asarray(np.array([1.0, 0.0] * 50_000))
    e = 1.0 / a * 2.0
    with lt.set_options(backend="loop"):
        assert backend_of(e) == "loop"
        with np.errstate(divide="raise"), \
                pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            e.eval()
        with np.errstate(divide="ignore"):
            same_bits(e.eval(), 1.0 / np.array([1.0, 0.0] * 50_000) * 2.0)


def test_auto_compiles_a_loop_at_its_second_run_and_caches_it(fresh_loops: Path,
                                                              monkeypatch: Any) -> None:
    # (the compile priced at nothing: the rule of runs alone; priced below)
    monkeypatch.setattr(loop_backend, "COMPILE_SHARE", 0.0)
    rng = np.random.default_rng(5)
    X, Y = rng.standard_normal(2_000_000), rng.standard_normal(2_000_000)
    x, y = lt.asarray(X), lt.asarray(Y)
    e = lt.sum(x * y - x)
    with lt.set_options(backend="auto"):
        (k,) = lt.plan(e).kernels
        assert k.kernel is not None and k.kernel.backend == "loop"
        assert k.kernel.fallback == "blocked"
        assert "blocked until the loop is compiled" in k.kernel.why
        assert "loop: not compiled yet (blocked runs it until run 2 and until its runs have " \
            "taken 0% of the 0.95 s compiling is expected to take: 0.000 s so far)" in \
            lt.explain(e, verbose=True)
        form = k.kernel.loop
        assert form is not None
        (first,) = lt.compute(e)               # the blocked fallback
        assert not loop_backend.is_compiled(form)
        (second,) = lt.compute(e)              # computed again: the loop
        assert loop_backend.is_compiled(form)
        assert "loop: compiled; pairwise sum" in lt.explain(e, verbose=True)
    same_bits(second, np.sum(X * Y - X))
    np.testing.assert_allclose(first, second, rtol=1e-12)
    files = sorted(p.name for p in (fresh_loops / "loops").iterdir())
    assert f"lazyten_loop_{form.key}.py" in files
    # The generated text is the loop's whole definition, and only ours.
    text = (fresh_loops / "loops" / f"lazyten_loop_{form.key}.py").read_text()
    assert text == form.source and "def pw(" in text


def test_cost_model_picks_loops_for_large_kernels_only() -> None:
    m = cost.CostModel()
    w3 = m.estimate(["multiply", "add"], 10**7, threads=2, float32=False, arrays=4,
                    reduces=True)
    assert w3["loop"] < w3["blocked"]
    w2 = m.estimate(["multiply", "add"] * 10, 10**7, threads=2, float32=False)
    assert w2["loop"] < min(w2["blocked"], w2["numexpr"])
    with lt.set_options(backend="auto"):
        # small kernels: never worth a compile, whatever the estimate
        small = loop_backend.AUTO_MIN - 1
        assert backend_of(lt.sum(lt.asarray(np.ones(small)) * 2.0 + 1)) != "loop"
        assert backend_of(lt.asarray(np.ones(10**6)) * 2.0 + 1.0) == "loop"


def test_splits_follow_numpys_pairwise_recursion() -> None:
    for n in [129, 1000, 12345, 10**6 + 7]:
        for parts in (2, 4, 8):
            r = loop_backend.splits(0, n, parts)
            assert sum(m for _, m in r) == n and r[0][0] == 0
            assert all(lo + m == r[i + 1][0] for i, (lo, m) in enumerate(r[:-1]))
            assert all(lo % 8 == 0 for lo, m in r if m)
            assert len(r) == parts      # (empty ranges after an unsplit one)


def test_parts_are_many_small_ones_only_with_threads() -> None:
    n = 10**7
    assert loop_backend._parts(1, n, n) == [0, n]
    b = loop_backend._parts(2, n, n)
    assert len(b) - 1 == 2 * loop_backend.PARTS_PER_THREAD and b[0] == 0 and b[-1] == n
    assert all(hi - lo >= loop_backend.SPLIT_MIN for lo, hi in zip(b, b[1:]))
    # no part under SPLIT_MIN elements of work, however many threads
    assert len(loop_backend._parts(8, 3 * loop_backend.SPLIT_MIN, 100)) - 1 == 3
    assert len(loop_backend._parts(2, n, 2500, per_thread=1)) - 1 == 2


def test_loops_split_into_many_parts_keep_numpys_bits() -> None:
    # 16 parts on 2 threads (and 24 on 3), taken in any order: the sum's
    # subtrees are combined in NumPy's tree shape, elementwise parts are
    # disjoint.
    rng = np.random.default_rng(12)
    n = 16 * loop_backend.SPLIT_MIN + 1001
    A = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 6, n)
    B = rng.standard_normal(n)
    a, b = lt.asarray(A), lt.asarray(B)
    M = rng.standard_normal((n // 100, 100))
    m, r = lt.asarray(M), lt.asarray(M[0])
    for threads in (2, 3):
        with lt.set_options(backend="loop", threads=threads, check=True):
            assert backend_of(lt.sum(a * b - 1.0)) == "loop"
            s, e, rows = lt.compute(lt.sum(a * b - 1.0), a * b - 1.0, lt.sum(m * r, axis=1))
        same_bits(s, np.sum(A * B - 1.0))
        same_bits(e, A * B - 1.0)
        same_bits(rows, np.sum(M * M[0], axis=1))


def test_spread_runs_here_and_waits_for_every_thread() -> None:
    import threading
    import time
    from lazyten.exec.numpy_backend import spread
    seen: list[str] = []
    done: list[int] = []

    def work(taken: Any) -> None:
        seen.append(threading.current_thread().name)
        for p in taken:
            time.sleep(0.001)
            done.append(p)

    spread(work, 40, 3)
    # this thread worked too, every part once
    assert threading.current_thread().name in seen and len(seen) == 3
    assert sorted(done) == list(range(40))

    def failing(taken: Any) -> None:
        for p in taken:
            time.sleep(0.002)
            done.append(p)
            if p == 5:
                raise ValueError("part 5")

    # A pool thread that has not started when this thread is done is not
    # waited for: here every pool thread is busy until we let them go.
    from lazyten.exec import numpy_backend
    busy = threading.Event()
    blockers = [numpy_backend.pool(1).submit(busy.wait)
                for _ in range(numpy_backend._pool_size)]
    seen.clear()
    done.clear()
    try:
        spread(work, 3, 2)
        assert seen == [threading.current_thread().name] and sorted(done) == [0, 1, 2]
    finally:
        busy.set()
    for b in blockers:
        b.result()

    done.clear()
    with pytest.raises(ValueError, match="part 5"):
        spread(failing, 1000, 3)
    # no part is handed out after the failure, and nobody is still working
    # when spread returns
    n = len(done)
    assert n < 20
    time.sleep(0.05)
    assert len(done) == n


# Random expressions of the loop's ops over float32/float64 operands and
# Python scalars, against the reference executor, bit for bit.
_BIN = [lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q, lambda p, q: p / q,
        lt.maximum, lt.minimum, lambda p, q: lt.where(p > q, p, q),
        lambda p, q: lt.where((p <= 0.5) | (q != q), q, -p)]
# (sin and exp have no loop: kernels with them are mixed, a NumPy head and a
# compiled tail)
_UN = [lambda p: -p, lambda p: abs(p), lambda p: p * p, lambda p: p.astype(np.float32),
       lambda p: p.astype(np.float64), lambda p: p * 0.75, lambda p: 2.0 - p,
       lambda p: lt.maximum(p, 0.0), lambda p: (p > 1).astype(p.dtype), lt.sin,
       lambda p: lt.exp(-abs(p)), lt.sqrt]


@st.composite
def _exprs(draw: Any) -> tuple[Any, list[np.ndarray[Any, Any]], Any]:
    """Operands of one shape (1-d), or over (m, c) full (contiguous or views
    of larger arrays: ``_laid_out``), rows (c,), columns (m, 1) and scalars;
    no sum, a sum of all, or over one axis of two."""
    two_d = draw(st.booleans())
    if two_d:
        m, c = draw(st.sampled_from([(3, 130), (130, 9), (400, 300), (1, 70)]))
        shapes = [(m, c)] + [draw(st.sampled_from([(m, c), (c,), (m, 1), (1,)]))
                             for _ in range(draw(st.integers(1, 2)))]
        reduce = draw(st.sampled_from([None, "all", 0, 1]))
    else:
        n = draw(st.sampled_from([1, 9, 130, 70_000]))
        shapes = [(n,)] * draw(st.integers(2, 3))
        reduce = draw(st.sampled_from([None, "all"]))
    arrays = []
    for k, shape in enumerate(shapes):
        # (integers and bools: loops read them cast to a float, as NumPy's
        # float loops do; their own arithmetic goes to NumPy)
        dt = np.dtype(draw(st.sampled_from([np.float32, np.float64] if k == 0 else
                                           [np.float32, np.float64, np.int64, np.int16,
                                            np.uint8, np.uint64, np.bool_])))
        size = int(np.prod(shape))
        if dt.kind in "iub":
            info = np.iinfo(dt) if dt.kind != "b" else None
            ints = st.booleans() if info is None else st.one_of(
                st.sampled_from([0, 1, info.max, info.min, 2**53 + 1 if info.bits == 64 else 3]),
                st.integers(info.min, info.max))
            vals = draw(st.lists(ints, min_size=4, max_size=4))
            arrays.append(np.resize(np.array(vals, dtype=dt), size).reshape(shape))
            continue
        vals = draw(st.lists(st.sampled_from(list(SPECIALS[:6]) + [2.5, -3.25, 1e10, 7e-5]),
                             min_size=4, max_size=4))
        arrays.append(_laid_out((np.resize(np.array(vals), size).astype(dt)
                                 * np.linspace(1, 2, size, dtype=dt)).reshape(shape),
                                draw(st.sampled_from(["C", "slice", "step", "T slice"]))))
    steps = draw(st.lists(st.tuples(st.integers(0, len(_BIN) + len(_UN) - 1),
                                    st.integers(0, 10), st.integers(0, 10)),
                          min_size=1, max_size=5))
    return steps, arrays, reduce


def _laid_out(a: np.ndarray[Any, Any], how: str) -> np.ndarray[Any, Any]:
    """``a``'s values as a view of a larger array (2-d only): its interior
    ("slice"), every other column ("step"), or a transposed interior."""
    if a.ndim != 2 or how == "C":
        return a
    m, c = a.shape
    if how == "slice":
        big = np.zeros((m + 2, c + 3), a.dtype)
        big[1:m + 1, 2:c + 2] = a
        return big[1:m + 1, 2:c + 2]
    if how == "step":
        big = np.zeros((m, 2 * c), a.dtype)
        big[:, ::2] = a
        return big[:, ::2]
    big = np.zeros((c + 1, m + 1), a.dtype)
    big[1:, 1:] = a.T
    return big[1:, 1:].T


def _summed(r: Any, reduce: Any) -> Any:
    if reduce is None:
        return r
    return lt.sum(r) if reduce == "all" else lt.sum(r, axis=reduce % max(r.ndim, 1))


def _build(steps: Any, vals: list[Any]) -> Any:
    vals = list(vals)
    for op, i, j in steps:
        p, q = vals[i % len(vals)], vals[j % len(vals)]
        vals.append(_BIN[op](p, q) if op < len(_BIN) else _UN[op - len(_BIN)](p))
    return vals[-1]


@settings(max_examples=60)
@given(_exprs())
def test_random_loop_expressions_match_the_reference_bit_for_bit(case: Any) -> None:
    steps, arrays, reduce = case
    with np.errstate(all="ignore"):
        with lt.set_options(optimize=False, backend="numpy"):
            try:
                r = _build(steps, [lt.asarray(a) for a in arrays])
            except TypeError:
                reject()                  # (-b of a bool b: NumPy has none either)
            exp = _summed(r, reduce).eval()
            terms = r.eval()
        with lt.set_options(backend="loop", check=True):
            r = _build(steps, [lt.asarray(a) for a in arrays])
            e = _summed(r, reduce)
            summed_by_loop = any(k.kernel is not None and k.kernel.loop is not None
                                 and k.kernel.loop.reduces for k in lt.plan(e).kernels)
            got = e.eval()
    if reduce is not None and not summed_by_loop and exp.dtype.kind == "f":
        # The optimizer made the sum something else (sum(x*x) is a BLAS dot),
        # or the loop had no layout for it: close to NumPy's sum, not its bits.
        assert got.dtype == exp.dtype and got.shape == exp.shape
        with np.errstate(all="ignore"):
            mags = np.abs(terms.astype(np.float64))
            scale = _summed(lt.asarray(mags), reduce if terms.ndim else "all").eval()
            tol = 4 * max(terms.size, 1) * float(np.finfo(exp.dtype).eps) * scale
            fin = np.isfinite(tol) & np.isfinite(exp)
            assert np.all(np.abs(got.astype(np.float64) - exp)[fin] <= tol[fin])
        return
    same_bits(got, exp)


def test_a_later_process_loads_the_compiled_loop_from_the_disk_cache(tmp_path: Path) -> None:
    code = (
        "import numpy as np, lazyten as lt\n"
        "from lazyten.exec import loop_backend\n"
        "x = lt.asarray(np.arange(100_000.0))\n"
        "with lt.set_options(backend='loop'):\n"
        "    (got,) = lt.compute(lt.sum(x * 0.5 - 1.0))\n"
        "assert got == np.sum(np.arange(100_000.0) * 0.5 - 1.0)\n"
        "(fn,) = loop_backend._compiled.values()\n"
        "print(sum(fn.stats.cache_hits.values()), sum(fn.stats.cache_misses.values()))\n")
    env = {**os.environ, "LAZYTEN_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    assert runs[0] == ["0", "1"]          # compiled, and written to the cache
    assert runs[1] == ["1", "0"]          # loaded from it


def test_a_loop_that_does_not_compile_warns_once_and_runs_on_numpy(
        fresh_loops: Path, monkeypatch: Any) -> None:
    real = loop_backend._source

    def broken(*args: Any) -> str:   # a typing error, found at the first call
        return real(*args).replace("o[k] = ", "o[k] = 'not a float' + ")
    monkeypatch.setattr(loop_backend, "_source", broken)
    X = np.linspace(-1, 1, 100_000)
    x = lt.asarray(X)
    e = x * 3.0 + 1.0
    with lt.set_options(backend="loop"):
        with pytest.warns(RuntimeWarning, match="unusable .*its kernel runs on NumPy"):
            (got,) = lt.compute(e)
        same_bits(got, X * 3.0 + 1.0)
        (k,) = lt.plan(e).kernels
        assert k.kernel is not None and k.kernel.loop is not None
        assert "loop: unusable (" in lt.explain(e, verbose=True)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error")           # no second warning
            same_bits(lt.compute(e)[0], X * 3.0 + 1.0)


def test_numba_that_cannot_be_imported_turns_loops_off(
        fresh_loops: Path, monkeypatch: Any) -> None:
    def no_numba(form: Any) -> Any:
        raise ImportError("numba needs a NumPy older than this one")
    monkeypatch.setattr(loop_backend, "_load", no_numba)
    X = np.linspace(-1, 1, 100_000)
    x = lt.asarray(X)
    with lt.set_options(backend="loop"):
        with pytest.warns(RuntimeWarning, match="numba needs"):
            same_bits(lt.compute(lt.sum(x * x + 1.0))[0], np.sum(X * X + 1.0))
        assert not loop_backend.available()
        (k,) = lt.plan(x * 5.0 - 2.0).kernels
        assert k.kernel is not None and k.kernel.backend != "loop"


def test_profile_shows_a_loop_compile_apart(fresh_loops: Path) -> None:
    X = np.linspace(0, 1, 100_000)
    x = lt.asarray(X)
    with lt.set_options(backend="loop"):
        (_,), first = lt.profile(lt.sum(x * 2.0 - 1.0))
        (got,), again = lt.profile(lt.sum(x * 2.0 - 1.0))
    (r1,), (r2,) = first.rows, again.rows
    assert r1.backend == "loop" and 0 < r1.compile_seconds <= r1.seconds
    assert "(compiling " in str(first)
    assert r2.compile_seconds == 0 and "(compiling" not in str(again)
    same_bits(got, np.sum(X * 2.0 - 1.0))


# ------------------------------------------------------------ mixed kernels

def w1(m: Any, a: Any, b: Any, c: Any) -> Any:
    return 2 * a**2 + 3 * b * c - m.sin(a) * m.exp(-b)


@pytest.fixture
def tails(monkeypatch: Any) -> list[bool]:
    """Whether each run of a mixed kernel ran its compiled tail (True) or all
    of it on NumPy (False: no flat view of some operand)."""
    runs: list[bool] = []
    real = loop_backend.tail_call

    def spy(*args: Any) -> Any:
        call = real(*args)
        runs.append(call is not None)
        return call
    monkeypatch.setattr(loop_backend, "tail_call", spy)
    return runs


LAYOUTS = {
    "contiguous": (lambda x: x, True),
    "1-d strided": (lambda x: x[::3], True),
    "2-d": (lambda x: x[:99_000].reshape(330, 300), True),
    # (run in memory order: the tail reads them flat)
    "2-d transposed": (lambda x: x[:99_000].reshape(300, 330).T, True),
    "2-d reversed rows": (lambda x: x[:99_000].reshape(330, 300)[::-1], False),
    "empty": (lambda x: x[:0], True),
    "one element": (lambda x: x[:1], True),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_mixed_kernels_give_numpys_bits(dtype: Any, layout: str, tails: list[bool],
                                        fresh_loops: Path) -> None:
    view, flat = LAYOUTS[layout]
    rng = np.random.default_rng(21)
    arrays = [view(rng.standard_normal(300_000).astype(dtype) * 3) for _ in range(3)]
    with lt.set_options(backend="loop", check=True):
        e = w1(lt, *(lt.asarray(x) for x in arrays))
        (k,) = lt.plan(e).kernels
        assert k.kernel is not None and k.kernel.backend == "mixed"
        got = e.eval()
    same_bits(got, w1(np, *arrays))
    assert tails == [flat]
    # (a tail that could not run is not compiled either)
    assert k.kernel.mixed is not None
    assert loop_backend.is_compiled(k.kernel.mixed.loop) == flat


def test_a_mixed_kernel_splits_at_the_ops_without_a_loop() -> None:
    a, b, c = (lt.asarray(np.ones(100_000)) for _ in range(3))
    with lt.set_options(backend="loop"):
        (k,) = lt.plan(w1(lt, a, b, c)).kernels
    assert k.kernel is not None and k.kernel.mixed is not None
    m = k.kernel.mixed
    assert [ins[0] for ins in m.head] == ["sin", "negative", "exp"]
    assert sorted(m.tail_ops) == ["add"] + ["multiply"] * 5 + ["subtract"]
    assert len(m.operands) == 7         # a, b, c, 2, 3, sin(a), exp(-b)
    text = lt.explain(w1(lt, a, b, c), verbose=True)
    assert "mixed: 3 ops as NumPy ufuncs (sin, negative, exp), 7 in one compiled loop" in text


def test_mixed_kernels_with_scalars_integers_bools_and_broadcasts() -> None:
    rng = np.random.default_rng(22)
    X = rng.standard_normal((400, 300))
    R = rng.standard_normal(300)
    I = rng.integers(-5, 5, (400, 300))
    x, r, i = lt.asarray(X), lt.asarray(R), lt.asarray(I)
    f32 = np.float32(1.5)
    cases = [
        lambda m, x, r, i: m.sin(x) * f32 + 2.5,
        lambda m, x, r, i: m.sin(i) * 2.0 - x,            # an int input in the head
        lambda m, x, r, i: m.where(m.sin(x) > 0, x * 2, x - 1),
        lambda m, x, r, i: m.exp(-abs(x)) * r + x * r,    # a row: read by the head
        lambda m, x, r, i: m.exp(abs(x)) * (x > 0.5) + m.asarray(np.float64(3)),
        lambda m, x, r, i: (i * 3) * x - i,               # integer arithmetic in the head
    ]
    with lt.set_options(backend="loop", check=True):
        for fn in cases:
            e = fn(lt, x, r, i)
            assert backend_of(e) == "mixed"
            same_bits(e.eval(), fn(np, X, R, I))


def test_mixed_reductions_match_the_blocked_numpy_loop() -> None:
    rng = np.random.default_rng(23)
    X = rng.standard_normal((500, 400))
    x = lt.asarray(X)
    for e in [lambda: lt.sum(lt.sin(x) * x + 1.0), lambda: lt.sum(lt.exp(-abs(x)) * x, axis=1),
              lambda: lt.max(lt.sin(x) * 2.0 - x, axis=0)]:
        with lt.set_options(backend="numpy"):
            exp = e().eval()
        with lt.set_options(backend="loop", check=True):
            assert backend_of(e()) == "mixed"
            got = e().eval()
        same_bits(got, exp)          # the same blocks, partial results and combine


def test_auto_compiles_once_the_fallback_has_paid_its_share_of_the_compile(
        fresh_loops: Path, monkeypatch: Any) -> None:
    """A loop is compiled once its NumPy fallback has taken COMPILE_SHARE of
    the compile's expected time: a small kernel runs on NumPy meanwhile
    instead of stalling at run 2.  The fallback's time is what the kernel
    measured, and a loop in numba's disk cache is cheap to load."""
    rng = np.random.default_rng(6)
    x, y = lt.asarray(rng.standard_normal(2_000_000)), lt.asarray(rng.standard_normal(2_000_000))
    e = lambda: lt.sum(x * y - x)  # noqa: E731   (a loop by the cost model: see above)
    with lt.set_options(backend="auto"):
        form = lt.plan(e()).kernels[0].kernel.loop
        assert form is not None
        assert loop_backend.expected_compile_seconds(form) == pytest.approx(
            loop_backend.START_SECONDS + loop_backend.COMPILE_SECONDS)
        for _ in range(5):
            lt.compute(e())
        spent = loop_backend.fallback_seconds(form)
        assert 0 < spent < loop_backend.COMPILE_SHARE * loop_backend.expected_compile_seconds(form)
        assert not loop_backend.is_compiled(form)
        assert f"{spent:.3f} s so far" in lt.explain(e(), verbose=True)
        # The fallback's runs have paid for it: the next run compiles.
        monkeypatch.setattr(loop_backend, "START_SECONDS", spent)
        monkeypatch.setattr(loop_backend, "COMPILE_SECONDS", 0.0)
        lt.compute(e())
        assert loop_backend.is_compiled(form)
        assert loop_backend.fallback_seconds(form) == spent    # (no longer counted)
    # Another process finds the loop in numba's cache: a load, not a compile.
    monkeypatch.setattr(loop_backend, "_on_disk", {})
    monkeypatch.setattr(loop_backend, "START_SECONDS", 0.35)
    monkeypatch.setattr(loop_backend, "COMPILE_SECONDS", 0.6)
    assert loop_backend.expected_compile_seconds(form) == pytest.approx(
        loop_backend.LOAD_SECONDS)       # (numba started: a loop is loaded)


def test_auto_picks_mixed_by_cost_and_compiles_the_tail_at_run_two(fresh_loops: Path,
                                                                   monkeypatch: Any) -> None:
    monkeypatch.setattr(loop_backend, "COMPILE_SHARE", 0.0)
    rng = np.random.default_rng(24)
    A, B, C = (rng.standard_normal(1_000_000) for _ in range(3))
    a, b, c = lt.asarray(A), lt.asarray(B), lt.asarray(C)
    with lt.set_options(backend="auto"):
        assert backend_of(w1(lt, a, b, c)) == "mixed"
        # one cheap op after a sin: a loop call saves no ufunc call
        assert backend_of(lt.sin(a) + 1.0) == "blocked"
        for run in range(1, 4):
            text = lt.explain(w1(lt, a, b, c), verbose=True)
            assert ("loop: compiled" in text) == (run > loop_backend.HOT_RUNS)
            same_bits(lt.compute(w1(lt, a, b, c))[0], w1(np, A, B, C))


def test_errstate_raise_surfaces_errors_from_mixed_kernels() -> None:
    X = np.array([1.0, 0.0] * 50_000)
    x = lt.asarray(X)
    with lt.set_options(backend="loop"):
        for e in [lt.log(x) * 2.0 + 1.0, lt.sin(x) / x * 2.0]:
            assert backend_of(e) == "mixed"
            with np.errstate(divide="raise", invalid="raise"), \
                    pytest.raises(FloatingPointError):
                e.eval()
        with np.errstate(all="ignore"):
            same_bits((lt.sin(x) / x * 2.0).eval(), np.sin(X) / X * 2.0)


def test_a_mixed_tail_that_does_not_compile_warns_once_and_runs_on_numpy(
        fresh_loops: Path, monkeypatch: Any) -> None:
    real = loop_backend._source

    def broken(*args: Any) -> str:   # a typing error, found when compiling
        return real(*args).replace("o[k] = ", "o[k] = 'not a float' + ")
    monkeypatch.setattr(loop_backend, "_source", broken)
    X = np.linspace(-1, 1, 100_000)
    x = lt.asarray(X)
    with lt.set_options(backend="loop"):
        with pytest.warns(RuntimeWarning, match="unusable .*its kernel runs on NumPy"):
            (got,) = lt.compute(lt.sin(x) * 3.0 + 1.0)
        same_bits(got, np.sin(X) * 3.0 + 1.0)
        assert "loop: unusable (" in lt.explain(lt.sin(x) * 3.0 + 1.0, verbose=True)


def test_profile_shows_a_mixed_tail_compile_apart(fresh_loops: Path) -> None:
    X = np.linspace(0, 1, 100_000)
    x = lt.asarray(X)
    with lt.set_options(backend="loop"):
        (_,), first = lt.profile(lt.sin(x) * 2.0 - x)
        (got,), again = lt.profile(lt.sin(x) * 2.0 - x)
    (r1,), (r2,) = first.rows, again.rows
    assert r1.backend == "mixed" and 0 < r1.compile_seconds <= r1.seconds
    assert r2.compile_seconds == 0
    same_bits(got, np.sin(X) * 2.0 - X)
