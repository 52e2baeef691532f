"""Reductions and scans of expressions: lazyten vs NumPy eager vs numexpr.

A count of a mask (``sum(a > 0.5)``, ``count_nonzero``, a mask's mean), an
``argmax`` and a cumulative sum of an expression fuse with it into one
kernel (``graph/passes/fuse.py``): no full-size temporary, and where a
compiled loop runs them, one pass over the inputs.  Before, each wrote the
expression in full and ran NumPy's reduction on it: ``count_nonzero(a > b)``
took 1.8x NumPy's time (NumPy's bool-to-int64 sum casts in small buffers),
``cumsum(a*2)`` 0.98x (NumPy's accumulate is a sequential loop, 3.4 ns an
element).  ``any`` of comparisons stops at the block that decides it.  A
product runs in NumPy's order (one element after the other), so its bits
are NumPy's too.  Pairwise squared distances (R10: operands broadcast along
a middle axis) reduce each row of the last axis in a compiled loop whose
nested loops find each operand's row; before, the blocked loop ran them.
R11-R16 have few long rows: the blocked loop runs each row in ranges of
its own (of up to four blocks), or blocks of columns, with a few blocks of
scratch a thread where it took a whole row (R12: 360 MB); R16's reduced axes before the last one
keep whole rows in turns (row blocks were slower there).  R17 and R18 take
a few rows of a reduction and of a scan: the optimizer moves the index to
the inputs (``graph/passes/pushdown.py``), so only those rows are computed.  The "bits" column says whether lazyten's
result is NumPy's to the bit.  numexpr reduces only sums and products of
whole expressions; elsewhere its column is numexpr's elementwise part then
NumPy's reduction.

    OPENBLAS_CORETYPE= OPENBLAS_L2_SIZE= python benchmarks/bench_reductions.py [--rounds 5] [--only R17 R18]

Rounds are interleaved and every timed call starts from cold caches, as in
``bench_workloads.py`` (whose table, timer, flush and tracemalloc peak this
uses); times are medians as a ratio to NumPy eager in the same run.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numexpr as ne
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_workloads import main_n_rounds, only_these, same_bits_cell, side_by_side  # noqa: E402

import lazyten as lt  # noqa: E402


def workloads(n: int) -> list[tuple[str, dict[str, Callable[[], Any]]]]:
    rng = np.random.default_rng(0)
    a, b = rng.random(n), rng.random(n)
    A = rng.random((n // 2500, 2500))
    la, lb, lA = lt.asarray(a), lt.asarray(b), lt.asarray(A)
    # points for pairwise squared distances: (1000, 1000, 10) at n = 1e7
    m = max(1, int((n / 10) ** 0.5))
    P, Q = rng.random((m, 10)), rng.random((m, 10))
    lP, lQ = lt.asarray(P), lt.asarray(Q)
    # few long rows: two rows (X), a batch of 2 three-channel images (Z), a
    # (4, 3, n/12) stack summed over axes (0, 2) (W)
    X, y = rng.random((2, n // 2)), rng.random(n // 2)
    Z, g = rng.random((2, 3, n // 6)), np.array([[[2.0]], [[-1.0]]])
    W = rng.random((4, 3, n // 12))
    lX, ly, lZ, lg, lW = (lt.asarray(v) for v in (X, y, Z, g, W))
    return [
        ("R1 sum(a > 0.5)", {
            "numpy": lambda: np.sum(a > 0.5),
            "numexpr": lambda: ne.evaluate("sum(where(a > 0.5, 1, 0))", {"a": a}),
            "lazyten": lambda: lt.compute(lt.sum(la > 0.5))[0]}),
        ("R2 count_nonzero(a > b)", {
            "numpy": lambda: np.count_nonzero(a > b),
            "numexpr": lambda: np.count_nonzero(ne.evaluate("a > b", {"a": a, "b": b})),
            "lazyten": lambda: lt.compute(lt.count_nonzero(la > lb))[0]}),
        ("R3 mean(a > 0.5)", {
            "numpy": lambda: np.mean(a > 0.5),
            "numexpr": lambda: ne.evaluate("sum(where(a > 0.5, 1.0, 0.0))", {"a": a}) / n,
            "lazyten": lambda: lt.compute(lt.mean(la > 0.5))[0]}),
        ("R4 (A > 0.5).sum(0)", {
            "numpy": lambda: (A > 0.5).sum(axis=0),
            "numexpr": lambda: ne.evaluate("sum(where(A > 0.5, 1, 0), axis=0)", {"A": A}),
            "lazyten": lambda: lt.compute((lA > 0.5).sum(axis=0))[0]}),
        ("R5 argmax(a*b)", {
            "numpy": lambda: np.argmax(a * b),
            "numexpr": lambda: np.argmax(ne.evaluate("a*b", {"a": a, "b": b})),
            "lazyten": lambda: lt.compute(lt.argmax(la * lb))[0]}),
        ("R6 prod(a*1e-7 + 1)", {
            "numpy": lambda: np.prod(a * 1e-7 + 1),
            "numexpr": lambda: ne.evaluate("prod(a*1e-7 + 1)", {"a": a}),
            "lazyten": lambda: lt.compute(lt.prod(la * 1e-7 + 1))[0]}),
        ("R7 cumsum(a*2)", {
            "numpy": lambda: np.cumsum(a * 2),
            "numexpr": lambda: np.cumsum(ne.evaluate("a*2", {"a": a})),
            "lazyten": lambda: lt.compute(lt.cumsum(la * 2))[0]}),
        ("R8 cumsum(A*2, axis=1)", {
            "numpy": lambda: np.cumsum(A * 2, axis=1),
            "numexpr": lambda: np.cumsum(ne.evaluate("A*2", {"A": A}), axis=1),
            "lazyten": lambda: lt.compute(lt.cumsum(lA * 2, axis=1))[0]}),
        # decided by its first block: the other blocks are not computed
        ("R9 any(a > 0.5)", {
            "numpy": lambda: np.any(a > 0.5),
            "numexpr": lambda: np.any(ne.evaluate("a > 0.5", {"a": a})),
            "lazyten": lambda: lt.compute(lt.any(la > 0.5))[0]}),
        # operands broadcast along a middle axis: nested loops reach the rows
        ("R10 ((P[:,None]-Q[None])**2).sum(-1)", {
            "numpy": lambda: ((P[:, None, :] - Q[None, :, :]) ** 2).sum(-1),
            "numexpr": lambda: ne.evaluate("(p - q)**2", {"p": P[:, None, :],
                                                        "q": Q[None, :, :]}).sum(-1),
            "lazyten": lambda: lt.compute(((lP[:, None, :] - lQ[None, :, :]) ** 2).sum(-1))[0]}),
        # few long rows, blocked within a row (``numpy_backend.row_frame``)
        # or in blocks of columns (``column_frame``): a block of scratch
        ("R11 argmax(X*y+1, axis=1) X (2,n/2)", {
            "numpy": lambda: np.argmax(X * y + 1, axis=1),
            "numexpr": lambda: np.argmax(ne.evaluate("X*y+1", {"X": X, "y": y}), axis=1),
            "lazyten": lambda: lt.compute(lt.argmax(lX * ly + 1, axis=1))[0]}),
        ("R12 argmax(X*y+1, axis=0)", {
            "numpy": lambda: np.argmax(X * y + 1, axis=0),
            "numexpr": lambda: np.argmax(ne.evaluate("X*y+1", {"X": X, "y": y}), axis=0),
            "lazyten": lambda: lt.compute(lt.argmax(lX * ly + 1, axis=0))[0]}),
        ("R13 prod(X*1e-7+1, axis=1)", {
            "numpy": lambda: np.prod(X * 1e-7 + 1, axis=1),
            "numexpr": lambda: ne.evaluate("prod(X*1e-7+1, axis=1)", {"X": X}),
            "lazyten": lambda: lt.compute(lt.prod(lX * 1e-7 + 1, axis=1))[0]}),
        ("R14 cumsum(X*y, axis=0)", {
            "numpy": lambda: np.cumsum(X * y, axis=0),
            "numexpr": lambda: np.cumsum(ne.evaluate("X*y", {"X": X, "y": y}), axis=0),
            "lazyten": lambda: lt.compute(lt.cumsum(lX * ly, axis=0))[0]}),
        ("R15 mean(Z*g+1, axis=1) Z (2,3,n/6)", {
            "numpy": lambda: np.mean(Z * g + 1, axis=1),
            "numexpr": lambda: np.mean(ne.evaluate("Z*g+1", {"Z": Z, "g": g}), axis=1),
            "lazyten": lambda: lt.compute(lt.mean(lZ * lg + 1, axis=1))[0]}),
        ("R16 sum(W*2+1,axis=(0,2)) (4,3,n/12)", {
            "numpy": lambda: np.sum(W * 2 + 1, axis=(0, 2)),
            "numexpr": lambda: np.sum(ne.evaluate("W*2+1", {"W": W}), axis=(0, 2)),
            "lazyten": lambda: lt.compute(lt.sum(lW * 2 + 1, axis=(0, 2)))[0]}),
        # views of reductions and scans: the rows shown reach the inputs
        ("R17 sum(A*2+1, axis=1)[-5:]", {
            "numpy": lambda: np.sum(A * 2 + 1, axis=1)[-5:],
            "numexpr": lambda: np.sum(ne.evaluate("A*2+1", {"A": A}), axis=1)[-5:],
            "lazyten": lambda: lt.compute(lt.sum(lA * 2 + 1, axis=1)[-5:])[0]}),
        ("R18 cumsum(A*b, axis=1)[7]", {
            "numpy": lambda: np.cumsum(A * A[0], axis=1)[7],
            "numexpr": lambda: np.cumsum(ne.evaluate("A*r", {"A": A, "r": A[0]}), axis=1)[7],
            "lazyten": lambda: lt.compute(lt.cumsum(lA * lA[0], axis=1)[7])[0]}),
    ]


def run(n: int, rounds: int, only: list[str] | None = None) -> None:
    side_by_side(f"N={n:.0e} float64, rounds={rounds}, interleaved from cold caches; times "
                 f"are medians, ratios to NumPy eager (lower is better)",
                 only_these(workloads(n), only), rounds, (("bits", same_bits_cell),),
                 name_width=36)


if __name__ == "__main__":
    main_n_rounds(run, __doc__)
