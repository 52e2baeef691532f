"""Joins of computed operands: lazyten vs NumPy eager vs numexpr, side by side.

A concat or stack of computed arrays is where eager code holds every
operand and the joined copy at once.  lazyten's planner has each operand's
kernel write straight into its slice of the join's buffer, so the peak is
the result (plus block scratch), and no copy is made at the join.  J4 takes
ten elements across two operands of J2's join: the index reaches the
operands, so lazyten computes those ten.

    OPENBLAS_CORETYPE= OPENBLAS_L2_SIZE= python benchmarks/bench_joins.py [--n 10000000] [--rounds 5] [--only J4]

Rounds are interleaved and every timed call starts from cold caches, as in
``bench_workloads.py`` (whose timer, flush and tracemalloc peak this uses);
times are medians as a ratio to NumPy eager in the same run, peaks are the
extra memory of one call.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numexpr as ne
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_workloads import main_n_rounds, only_these, side_by_side  # noqa: E402

import lazyten as lt  # noqa: E402


def workloads(n: int) -> list[tuple[str, dict[str, Callable[[], Any]]]]:
    rng = np.random.default_rng(0)
    a, b, c = (rng.random(n) for _ in range(3))
    la, lb, lc = lt.asarray(a), lt.asarray(b), lt.asarray(c)
    env = {"a": a, "b": b, "c": c}
    return [
        ("J1 stack(sin a, cos b, a*b+c)", {
            "numpy": lambda: np.stack([np.sin(a), np.cos(b), a * b + c]),
            "numexpr": lambda: np.stack([ne.evaluate("sin(a)", env), ne.evaluate("cos(b)", env),
                                         ne.evaluate("a*b+c", env)]),
            "lazyten": lambda: lt.compute(lt.stack([lt.sin(la), lt.cos(lb), la * lb + lc]))[0]}),
        ("J2 concat(2a+1, b-c, a)", {
            "numpy": lambda: np.concatenate([2 * a + 1, b - c, a]),
            "numexpr": lambda: np.concatenate([ne.evaluate("2*a+1", env),
                                               ne.evaluate("b-c", env), a]),
            "lazyten": lambda: lt.compute(lt.concat([2 * la + 1, lb - lc, la]))[0]}),
        ("J3 stack(..J1.., axis=-1)", {
            "numpy": lambda: np.stack([np.sin(a), np.cos(b), a * b + c], axis=-1),
            "numexpr": lambda: np.stack([ne.evaluate("sin(a)", env), ne.evaluate("cos(b)", env),
                                         ne.evaluate("a*b+c", env)], axis=-1),
            "lazyten": lambda: lt.compute(lt.stack([lt.sin(la), lt.cos(lb), la * lb + lc],
                                                   axis=-1))[0]}),
        # a view of a join: the index reaches the operands (graph/passes/pushdown.py)
        ("J4 concat(2a+1, b-c, a)[n-5:n+5]", {
            "numpy": lambda: np.concatenate([2 * a + 1, b - c, a])[n - 5:n + 5],
            "numexpr": lambda: np.concatenate([ne.evaluate("2*a+1", env),
                                               ne.evaluate("b-c", env), a])[n - 5:n + 5],
            "lazyten": lambda: lt.compute(lt.concat([2 * la + 1, lb - lc, la])[n - 5:n + 5])[0]}),
    ]


def run(n: int, rounds: int, only: list[str] | None = None) -> None:
    side_by_side(f"N={n:.0e}, rounds={rounds}, interleaved from cold caches; times are "
                 f"medians, ratios to NumPy eager (lower is better)",
                 only_these(workloads(n), only), rounds,
                 (("result MB", lambda got, want: f"{want.nbytes / 1e6:.1f}"),),
                 rtol=1e-12, name_width=32)


if __name__ == "__main__":
    main_n_rounds(run, __doc__)
