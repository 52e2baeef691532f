"""How graph size scales: build, evaluate and print time and peak memory at 1k/10k/100k nodes.

    python benchmarks/graph_scaling.py            # 1k, 10k, 100k
    python benchmarks/graph_scaling.py 1000 5000  # chosen sizes
    python benchmarks/graph_scaling.py --repeat 5 # median of 5 graphs a row (default 3)

Three graph shapes: a deep elementwise chain (``t = t + 2; t = t - 1`` ...), a
wide sum of many inputs (an add chain over N leaves) and a chain of views.
Time is measured without tracemalloc (it slows Python down), then the run is
repeated under tracemalloc for the peak of Python allocations.  Each row's
times are the medians over ``--repeat`` graphs of one size that are new to
lazyten: their leaves' lengths differ (8, 9, 10, ...), so every graph is a
structure not seen before (a seen one would find its plan in the cache, or
its nodes' shapes and dtypes without inference).  One timing of a 1,000-node
graph is 5-20 ms, which a noisy machine can double.  The last
columns divide by the node count: flat per-node numbers mean linear growth;
"all" is build plus evaluation (optimize, plan and run), what issue 3's
20 us a node is about.  Small graphs of each shape are evaluated before the
table, so one-time setup (printed on the first line) is not in the 1k rows.
"""

from __future__ import annotations

import argparse
import functools
import gc
import operator
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

try:
    import lazyten as lt
except ImportError:  # run from a checkout without installing
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import lazyten as lt


# ``k``: the leaves' length is 8 + k (another structure for each k).

def chain(n: int, k: int = 0) -> lt.Tensor:
    t = lt.asarray(np.arange(8.0 + k))
    for i in range(n):
        t = t + 2.0 if i % 2 == 0 else t - 1.0
    return t


def wide(n: int, k: int = 0) -> lt.Tensor:
    leaves = [lt.asarray(np.full(8 + k, float(i))) for i in range(n // 2)]
    return functools.reduce(operator.add, leaves)


def views(n: int, k: int = 0) -> lt.Tensor:
    t = lt.asarray(np.ones((4, 8 + k)))
    for _ in range(n // 3):
        t = (t.T * 1.0).T
    return t


SHAPES: dict[str, Callable[..., lt.Tensor]] = {"chain": chain, "wide": wide, "views": views}


def _phases(build: Callable[..., lt.Tensor], n: int, optimize: bool,
            repeat: int) -> dict[str, float]:
    """Median seconds of each phase over ``repeat`` new graphs."""
    runs = [_phases_once(build, n, optimize, k) for k in range(1, repeat + 1)]
    return {ph: statistics.median(r[ph] for r in runs) for ph in runs[0]}


# (tiny_elements=0: these graphs' arrays are small, which the default
# options would run node by node as NumPy; the optimized rows measure the
# optimizer and planner)
def _phases_once(build: Callable[..., lt.Tensor], n: int, optimize: bool,
                 k: int) -> dict[str, float]:
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    t = build(n, k)
    out["build"] = time.perf_counter() - t0
    with lt.set_options(optimize=optimize, tiny_elements=0):
        t0 = time.perf_counter()
        lt.compute(t)
        out["eval"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    lt.debugprint(t)
    out["print"] = time.perf_counter() - t0
    return out


def _peak(build: Callable[..., lt.Tensor], n: int, optimize: bool) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        t = build(n)
        with lt.set_options(optimize=optimize, tiny_elements=0):
            lt.compute(t)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del t
    return peak / 2**20


def warm_up() -> float:
    """Seconds of one-time setup, paid by the first evaluations in a process
    (the optimizer's and backends' imports, the thread pool): run on small
    graphs of each shape first, so the 1k rows measure the graphs."""
    t0 = time.perf_counter()
    for build in SHAPES.values():
        for optimize in (False, True):
            with lt.set_options(optimize=optimize, tiny_elements=0):
                lt.compute(build(30))
    return time.perf_counter() - t0


def main(sizes: list[int], repeat: int = 3) -> None:
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"recursion limit {sys.getrecursionlimit()}; medians of {repeat} graphs a row; "
          f"one-time setup before the table: {warm_up():.3f} s")
    head = (f"{'graph':6} {'opt':5} {'nodes':>7} {'build s':>8} {'eval s':>8} {'print s':>8} "
            f"{'peak MiB':>9} {'us/node build':>13} {'us/node eval':>12} {'us/node all':>11} "
            f"{'KiB/node':>9}")
    print(head)
    print("-" * len(head))
    rows = [(name, build, optimize, n) for name, build in SHAPES.items()
            for optimize in (False, True) for n in sizes]
    # Every row's times first, then the peaks: the first evaluation after a
    # large graph ran under tracemalloc took 4-8x its time (92 ms instead of
    # 12-20 for the 1,000-node chain), the allocator's state after tracing.
    times = [_phases(build, n, optimize, repeat) for _, build, optimize, n in rows]
    for (name, build, optimize, n), ph in zip(rows, times):
        peak = _peak(build, n, optimize)
        print(f"{name:6} {str(optimize):5} {n:>7} {ph['build']:>8.3f} {ph['eval']:>8.3f} "
              f"{ph['print']:>8.3f} {peak:>9.1f} {1e6 * ph['build'] / n:>13.1f} "
              f"{1e6 * ph['eval'] / n:>12.1f} "
              f"{1e6 * (ph['build'] + ph['eval']) / n:>11.1f} {peak * 1024 / n:>9.2f}",
              flush=True)

if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("sizes", nargs="*", type=int, default=[1_000, 10_000, 100_000])
    p.add_argument("--repeat", type=int, default=3, help="graphs a row (median)")
    args = p.parse_args()
    main(args.sizes, args.repeat)
