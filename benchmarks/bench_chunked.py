"""Chunked evaluation: peak memory against the budget, and what it costs in time.

    s = exp(x) * y                 x, y: float64[N]
    outputs: s.sum(), s.max(), (s * s).mean(), sqrt((s * s).sum()) + 1

Unchunked, the plan materializes ``s`` (read by several reductions) and its
square: about 2 x 8N bytes.  With ``lt.set_options(memory_limit=B)`` the
same ``lt.compute`` call runs in chunks and its peak (tracemalloc, which
NumPy reports its buffers to) stays under B.

    python benchmarks/bench_chunked.py [--n 10000000] [--rounds 3] [--threads 1]

The budget covers arrays; planning itself allocates a few hundred KB of
Python objects per evaluation (the chunk plan is made for each call), so
budgets under about 0.5 MB are exceeded by that fixed part ("ok" says NO).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

import lazyten as lt
from lazyten.chunked import evaluate_chunked


def measure(fn: Callable[[], Any], rounds: int) -> tuple[float, float]:
    """(median seconds, peak extra MB of one call)."""
    fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    fn()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return statistics.median(times), peak / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=4_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    with lt.set_options(threads=args.threads):
        run_all(args)


def run_all(args: Any) -> None:
    n = args.n
    rng = np.random.default_rng(0)
    X, Y = rng.random(n), rng.random(n)
    x, y = lt.asarray(X), lt.asarray(Y)

    def outs() -> list[Any]:
        s = lt.exp(x) * y
        return [s.sum(), s.max(), (s * s).mean(), lt.sqrt((s * s).sum()) + 1]

    def numpy() -> Any:
        s = np.exp(X) * Y
        return s.sum(), s.max(), (s * s).mean(), np.sqrt((s * s).sum()) + 1

    want = numpy()
    est = lt.plan(*outs()).peak_bytes
    print(f"N={n:,}: inputs {2 * 8 * n / 1e6:.0f} MB; unchunked plan peak estimate "
          f"{est / 1e6:.1f} MB")
    print(f"{'variant':28s} {'budget MB':>10s} {'peak MB':>9s} {'time ms':>9s} "
          f"{'chunks':>7s} {'ok':>4s}")
    t, p = measure(numpy, args.rounds)
    print(f"{'numpy eager':28s} {'-':>10s} {p:9.2f} {t * 1e3:9.1f} {'-':>7s} {'':>4s}")
    t, p = measure(lambda: lt.compute(*outs()), args.rounds)
    print(f"{'lt.compute, no limit':28s} {'-':>10s} {p:9.2f} {t * 1e3:9.1f} {1:7d} {'':>4s}")
    for budget in (est // 2, est // 8, est // 32, 1_000_000, 250_000):
        info: list[Any] = []

        def run(b: int = int(budget)) -> Any:
            with lt.set_options(memory_limit=b, threads=args.threads):
                return lt.compute(*outs())

        t, p = measure(run, args.rounds)
        evaluate_chunked([o.node for o in outs()], memory_limit=int(budget), info=info)
        got = run()
        ok = all(np.allclose(g, w, rtol=1e-9) for g, w in zip(got, want)) and \
            p * 1e6 <= budget
        print(f"{'lt.compute, memory_limit':28s} {budget / 1e6:10.2f} {p:9.2f} "
              f"{t * 1e3:9.1f} {info[0].chunks:7d} {'yes' if ok else 'NO':>4s}")


if __name__ == "__main__":
    main()
