"""Measure the cost model's constants on this machine and cache them.

    python -m lazyten.exec.calibrate [--quick]

For each op class (cheap: add/multiply, heavy: divide/sqrt/pow, transcendental:
sin/exp/log) it times NumPy ufuncs with ``out=`` on cache-sized blocks (the
blocked backend's inner loop) and numexpr on one large array, both on one
thread, in float64; then the fixed cost of one ufunc call and of one
``numexpr.evaluate``, the float32 slowdown of numexpr, and the block size
that runs a representative kernel fastest.  Results go to
``~/.cache/lazyten/costs.json`` (``$LAZYTEN_CACHE_DIR`` to move it), which the
cost model reads at the next start.  Runs for about 10-30 seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numexpr
import numpy as np

from .cost import CostModel, save

CLASSES: dict[str, list[tuple[np.ufunc, str]]] = {
    "cheap": [(np.add, "a + b"), (np.multiply, "a * b")],
    "heavy": [(np.divide, "a / b"), (np.sqrt, "sqrt(a)")],
    "transcendental": [(np.sin, "sin(a)"), (np.exp, "exp(a)"), (np.log, "log(a)")],
}


def _best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def calibrate(n: int = 2_000_000, repeat: int = 5) -> CostModel:
    rng = np.random.default_rng(0)
    a, b = rng.random(n) + 0.5, rng.random(n) + 0.5
    block = 16384
    out = np.empty(block)
    old_threads = numexpr.set_num_threads(1)
    try:
        np_cost: dict[str, float] = {}
        ne_cost: dict[str, float] = {}
        for cls, members in CLASSES.items():
            np_ns, ne_ns = [], []
            for uf, expr in members:
                def blocked() -> None:
                    for lo in range(0, n, block):
                        args = (a[lo:lo + block],) if uf.nin == 1 else (a[lo:lo + block],
                                                                       b[lo:lo + block])
                        uf(*args, out=out[:len(args[0])])
                np_ns.append(_best(blocked, repeat) / n * 1e9)
                res = np.empty(n)
                ne_ns.append(_best(lambda: numexpr.evaluate(expr, local_dict={"a": a, "b": b},
                                                            out=res), repeat) / n * 1e9)
            np_cost[cls] = statistics.mean(np_ns)
            ne_cost[cls] = statistics.mean(ne_ns)
        tiny, tiny_out = np.ones(8), np.empty(8)
        call_us = _best(lambda: [np.add(tiny, tiny, out=tiny_out) for _ in range(1000)],
                        repeat) / 1000 * 1e6
        ne_us = _best(lambda: [numexpr.evaluate("a + b", local_dict={"a": tiny, "b": tiny})
                               for _ in range(200)], repeat) / 200 * 1e6
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
        r32 = np.empty(n, np.float32)
        t32 = _best(lambda: numexpr.evaluate("a * b + sin(a)", local_dict={"a": a32, "b": b32},
                                             out=r32), repeat)
        r64 = np.empty(n)
        t64 = _best(lambda: numexpr.evaluate("a * b + sin(a)", local_dict={"a": a, "b": b},
                                             out=r64), repeat)
    finally:
        numexpr.set_num_threads(old_threads)
    model = CostModel(numpy=np_cost, numexpr=ne_cost,
                      numexpr_float32_factor=max(1.0, t32 / t64 * 2),
                      numpy_call_us=call_us, numexpr_call_us=ne_us,
                      block_elems=_best_block(a, b, repeat), source="calibrated")
    return model


def _best_block(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], repeat: int) -> int:
    """The block size that runs ``2*a*a + 3*a*b - sin(a)*exp(-b)`` fastest."""
    import lazyten as lt
    from ..functions import ELEMENTWISE
    from . import cost
    sin, exp = ELEMENTWISE["sin"], ELEMENTWISE["exp"]
    la, lb = lt.asarray(a), lt.asarray(b)
    best, best_t = 16384, float("inf")
    model = cost.get_model()
    old = model.block_elems
    try:
        for size in (4096, 8192, 16384, 32768, 65536):
            model.block_elems = size
            with lt.set_options(backend="numpy", threads=1):
                t = _best(lambda: lt.compute(2 * la * la + 3 * la * lb
                                             - sin(la) * exp(-lb)), repeat)
            if t < best_t:
                best, best_t = size, t
    finally:
        model.block_elems = old
    return best


def main() -> None:
    p = argparse.ArgumentParser(description="Calibrate lazyten's backend cost model.")
    p.add_argument("--quick", action="store_true", help="smaller arrays, fewer repeats")
    args = p.parse_args()
    model = calibrate(n=500_000 if args.quick else 2_000_000, repeat=3 if args.quick else 5)
    path = save(model)
    print(f"wrote {path}")
    for k, v in vars(model).items():
        print(f"  {k}: {v}")


if __name__ == "__main__":
    main()
