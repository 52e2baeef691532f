"""Transposed, Fortran-ordered and strided operands: lazyten vs NumPy eager vs numexpr.

NumPy's ufuncs run in their operands' memory order and lay out the result so
(``a.T * 2`` is Fortran-ordered).  lazyten's kernels do the same
(``lazyten/exec/layout.py``): before, they read such operands in C order,
a whole row's stride between two reads, and ``a.T * 2 + 1`` took 2.3x
NumPy's time.  The "layout" column says whether lazyten's result has
NumPy's strides, "bits" whether its values are NumPy's to the bit.  L9-L12
are stencils: strided slices of one array read in one loop, and time steps
written back into an array's interior (L11, L12: the kernel writes the
step's buffer by its rows, where NumPy writes a temporary and copies it).

    OPENBLAS_CORETYPE= OPENBLAS_L2_SIZE= python benchmarks/bench_layouts.py [--rounds 5] [--only L11 L12]

Rounds are interleaved and every timed call starts from cold caches, as in
``bench_workloads.py`` (whose timer, flush and tracemalloc peak this uses);
times are medians as a ratio to NumPy eager in the same run.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numexpr as ne
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_workloads import same_bits_cell, side_by_side  # noqa: E402

import lazyten as lt  # noqa: E402


def workloads(rows: int, cols: int) -> list[tuple[str, dict[str, Callable[[], Any]]]]:
    rng = np.random.default_rng(0)
    a = rng.random((rows, cols))
    f = np.asfortranarray(rng.random((rows, cols)))
    la, lf = lt.asarray(a), lt.asarray(f)
    at = a.T
    row = rng.random(rows)
    lrow = lt.asarray(row)
    # as many elements as the others: (rows // 10, 1, cols) over (1, 10, cols)
    p, q = rng.random((rows // 10, 1, cols)), rng.random((1, 10, cols))
    w = rng.random(cols)
    lp, lq, lw = lt.asarray(p), lt.asarray(q), lt.asarray(w)
    return [
        ("L1 a.T*2 + 1", {
            "numpy": lambda: a.T * 2 + 1,
            "numexpr": lambda: ne.evaluate("at*2 + 1", {"at": at}),
            "lazyten": lambda: lt.compute(la.T * 2 + 1)[0]}),
        ("L2 f*f - 3 (Fortran)", {
            "numpy": lambda: f * f - 3,
            "numexpr": lambda: ne.evaluate("f*f - 3", {"f": f}),
            "lazyten": lambda: lt.compute(lf * lf - 3)[0]}),
        ("L3 sin(a.T)*a.T + 1", {
            "numpy": lambda: np.sin(a.T) * a.T + 1,
            "numexpr": lambda: ne.evaluate("sin(at)*at + 1", {"at": at}),
            "lazyten": lambda: lt.compute(lt.sin(la.T) * la.T + 1)[0]}),
        ("L4 (a.T*2 + 1).sum(0)", {
            "numpy": lambda: (a.T * 2 + 1).sum(axis=0),
            "numexpr": lambda: ne.evaluate("at*2 + 1", {"at": at}).sum(axis=0),
            "lazyten": lambda: lt.compute((la.T * 2 + 1).sum(axis=0))[0]}),
        ("L5 (f*2 + 1).sum(1)", {
            "numpy": lambda: (f * 2 + 1).sum(axis=1),
            "numexpr": lambda: ne.evaluate("f*2 + 1", {"f": f}).sum(axis=1),
            "lazyten": lambda: lt.compute((lf * 2 + 1).sum(axis=1))[0]}),
        ("L6 a.T * row + 1", {
            "numpy": lambda: a.T * row + 1,
            "numexpr": lambda: ne.evaluate("at*row + 1", {"at": at, "row": row}),
            "lazyten": lambda: lt.compute(la.T * lrow + 1)[0]}),
        ("L7 (f*2 + 1).sum()", {
            "numpy": lambda: (f * 2 + 1).sum(),
            "numexpr": lambda: ne.evaluate("sum(f*2 + 1)", {"f": f}),
            "lazyten": lambda: lt.compute((lf * 2 + 1).sum())[0]}),
        # operands broadcast along a middle axis: a loop an axis ("ewn")
        ("L8 ((p-q)**2*w + 1)*0.5", {
            "numpy": lambda: ((p - q) ** 2 * w + 1) * 0.5,
            "numexpr": lambda: ne.evaluate("((p-q)**2*w + 1)*0.5", {"p": p, "q": q, "w": w}),
            "lazyten": lambda: lt.compute(((lp - lq) ** 2 * lw + 1) * 0.5)[0]}),
        # strided slices of one array (a stencil): read by rows of their
        # strides in one compiled loop ("grid" operands), where NumPy makes
        # a temporary an op
        ("L9 stencil of a's slices", {
            "numpy": lambda: 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]),
            "numexpr": lambda: ne.evaluate("0.25*(n + s + w + e)", {
                "n": a[:-2, 1:-1], "s": a[2:, 1:-1], "w": a[1:-1, :-2], "e": a[1:-1, 2:]}),
            "lazyten": lambda: lt.compute(0.25 * (la[:-2, 1:-1] + la[2:, 1:-1]
                                                  + la[1:-1, :-2] + la[1:-1, 2:]))[0]}),
        ("L10 a[:,::2]*3 - a[:,1::2]", {
            "numpy": lambda: a[:, ::2] * 3 - a[:, 1::2],
            "numexpr": lambda: ne.evaluate("ev*3 - od", {"ev": a[:, ::2], "od": a[:, 1::2]}),
            "lazyten": lambda: lt.compute(la[:, ::2] * 3 - la[:, 1::2])[0]}),
        # time steps of a stencil written back into the array (Jacobi, in
        # place as NumPy users write it) and double-buffered: the kernel
        # writes the interior of the step's buffer by its rows, where NumPy
        # (and numexpr) write a temporary and copy it in
        ("L11 10 Jacobi steps", {
            "numpy": lambda: jacobi(np, a, STEPS),
            "numexpr": lambda: jacobi_numexpr(a, STEPS),
            "lazyten": lambda: lt.compute(jacobi(lt, a, STEPS))[0]}),
        ("L12 10 steps, 2 buffers", {
            "numpy": lambda: double_buffered(np, a, STEPS),
            "numexpr": lambda: double_buffered_numexpr(a, STEPS),
            "lazyten": lambda: lt.compute(double_buffered(lt, a, STEPS))[0]}),
    ]


# Time steps of L11 and L12.
STEPS = 10


def jacobi(m: Any, a: np.ndarray[Any, Any], steps: int) -> Any:
    """``steps`` Jacobi steps over a copy of ``a`` with module ``m``
    (NumPy or lazyten), each written back into the array's interior."""
    u = m.asarray(a.copy())
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


def double_buffered(m: Any, a: np.ndarray[Any, Any], steps: int) -> Any:
    """``jacobi`` with two arrays, each step written into the other's interior."""
    u, v = m.asarray(a.copy()), m.asarray(a.copy())
    for _ in range(steps):
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        u, v = v, u
    return u


_STENCIL = "0.25*(n + s + w + e)"


def _neighbours(u: np.ndarray[Any, Any]) -> dict[str, np.ndarray[Any, Any]]:
    return {"n": u[:-2, 1:-1], "s": u[2:, 1:-1], "w": u[1:-1, :-2], "e": u[1:-1, 2:]}


def jacobi_numexpr(a: np.ndarray[Any, Any], steps: int) -> np.ndarray[Any, Any]:
    u = a.copy()
    for _ in range(steps):
        u[1:-1, 1:-1] = ne.evaluate(_STENCIL, _neighbours(u))
    return u


def double_buffered_numexpr(a: np.ndarray[Any, Any], steps: int) -> np.ndarray[Any, Any]:
    u, v = a.copy(), a.copy()
    for _ in range(steps):
        v[1:-1, 1:-1] = ne.evaluate(_STENCIL, _neighbours(u))
        u, v = v, u
    return u


def _layout_cell(got: Any, want: Any) -> str:
    same = [s for s, d in zip(got.strides, got.shape) if d > 1] == \
        [s for s, d in zip(want.strides, want.shape) if d > 1]
    return "same" if same else "other"


def run(rows: int, cols: int, rounds: int, only: list[str] | None = None) -> None:
    chosen = [w for w in workloads(rows, cols) if not only or w[0].split()[0] in only]
    side_by_side(f"({rows}, {cols}) float64, rounds={rounds}, interleaved from cold caches; "
                 f"times are medians, ratios to NumPy eager (lower is better)",
                 chosen, rounds,
                 (("layout", _layout_cell), ("bits", same_bits_cell)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rows", type=int, default=2500)
    p.add_argument("--cols", type=int, default=4000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", nargs="*", help="workload ids (L1 ... L12)")
    args = p.parse_args()
    run(args.rows, args.cols, args.rounds, args.only)


if __name__ == "__main__":
    main()
