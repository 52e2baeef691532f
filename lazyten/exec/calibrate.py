"""Measure the cost model's constants on this machine and cache them.

    python -m lazyten.exec.calibrate [--quick]

On one thread, in float64: the cost of streaming an array through memory;
for each op class (cheap: add/multiply, heavy: divide/sqrt, transcendental:
sin/exp/log) the per-element cost of a NumPy ufunc on whole arrays (plain
NumPy) and on a cache-resident block (the blocked backend's inner loop), and
of one op inside a numexpr expression (a chain of 8 minus a chain of 1); the
fixed cost of one ufunc call and of one ``numexpr.evaluate``; numexpr's
float32 slowdown; the block sizes that run representative kernels fastest
(the smallest block, and the scratch a thread may use for bigger blocks
where a kernel has few temporaries); and what handing the GIL between two
threads costs per ufunc call of a blocked kernel, and numexpr's own
threads a call; with numba, the per-op
costs of compiled loops.  Results go to
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

# One representative op per class, as (ufunc, numexpr form over ``a``).
CLASSES: dict[str, list[tuple[np.ufunc, str]]] = {
    "cheap": [(np.multiply, "a * 1.0001"), (np.add, "a + 0.5")],
    "heavy": [(np.sqrt, "sqrt(a)"), (np.divide, "a / 1.0001")],
    "transcendental": [(np.sin, "sin(a)"), (np.exp, "exp(a)"), (np.log, "log(a)")],
}
CHAIN = 8
# Candidates for the smallest block (float64 elements) and for the scratch a
# thread may use (bytes).  Both stop where memory-lean would end: a kernel of
# three slots or fewer holds at most 768 KiB of scratch per thread (1.6 MB on
# two threads, within issue 3's "output + 2 MB" for W1 and "2 MB" for W3),
# and bigger blocks gained nothing measurable on W1 here.
BLOCKS = (8192, 16384, 32768)
SCRATCH = (256 << 10, 512 << 10, 768 << 10)


def _best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _ufunc_args(uf: np.ufunc, x: np.ndarray[Any, Any]) -> tuple[Any, ...]:
    return (x,) if uf.nin == 1 else (x, 1.0001)


def calibrate(n: int = 2_000_000, repeat: int = 5) -> CostModel:
    """Measure every constant of ``CostModel`` (one thread, float64)."""
    rng = np.random.default_rng(0)
    a = rng.random(n) + 0.5
    big_out = np.empty(n)
    block = 16384
    blk = a[:block].copy()
    blk_out = np.empty(block)
    reps = max(1, n // block)
    old_threads = numexpr.set_num_threads(1)
    try:
        # Streaming one array in and one out: the memory cost per array.
        mem = _best(lambda: np.copyto(big_out, a), repeat) / n * 1e9 / 2
        plain: dict[str, float] = {}
        blocked: dict[str, float] = {}
        ne: dict[str, float] = {}
        for cls, members in CLASSES.items():
            p, bl, e = [], [], []
            for uf, expr in members:
                args = _ufunc_args(uf, a)
                p.append(_best(lambda: uf(*args, out=big_out), repeat) / n * 1e9)
                bargs = _ufunc_args(uf, blk)
                bl.append(_best(lambda: [uf(*bargs, out=blk_out) for _ in range(reps)],
                                repeat) / (reps * block) * 1e9)
                # numexpr: a chain of CHAIN copies of the op minus one copy
                # leaves the VM's per-op cost, memory traffic excluded.
                chain = expr
                for _ in range(CHAIN - 1):
                    chain = expr.replace("a", f"({chain})", 1)
                t1 = _best(lambda: numexpr.evaluate(expr, local_dict={"a": a}, out=big_out),
                           repeat)
                tk = _best(lambda: numexpr.evaluate(chain, local_dict={"a": a}, out=big_out),
                           repeat)
                e.append(max(0.01, (tk - t1) / (CHAIN - 1) / n * 1e9))
            plain[cls], blocked[cls], ne[cls] = (statistics.mean(p), statistics.mean(bl),
                                                  statistics.mean(e))
        tiny, tiny_out = np.ones(8), np.empty(8)
        call_us = _best(lambda: [np.add(tiny, tiny, out=tiny_out) for _ in range(1000)],
                        repeat) / 1000 * 1e6
        ne_us = _best(lambda: [numexpr.evaluate("a + b", local_dict={"a": tiny, "b": tiny})
                               for _ in range(200)], repeat) / 200 * 1e6
        a32 = a.astype(np.float32)
        r32 = np.empty(n, np.float32)
        ex = "sin(a) * 1.0001 + a"
        t32 = _best(lambda: numexpr.evaluate(ex, local_dict={"a": a32}, out=r32), repeat)
        t64 = _best(lambda: numexpr.evaluate(ex, local_dict={"a": a}, out=big_out), repeat)
    finally:
        numexpr.set_num_threads(old_threads)
    model = CostModel(numpy_plain=plain, numpy_block=blocked, numexpr=ne, mem=mem,
                      numexpr_float32_factor=max(1.0, t32 / t64),
                      numpy_call_us=call_us, numexpr_call_us=ne_us,
                      source="calibrated")
    # Blocks are timed on arrays bigger than the last-level cache (32 MiB
    # here) where the calibration's own are not: the trade between per-call
    # overhead and cache misses is the one of large arrays.
    big = rng.random(max(4 * n, block * 8))
    model.block_elems, model.scratch_bytes = _best_blocks(big, repeat)
    model.gil_us = _gil_us(a, repeat)
    model.numexpr_split_us = _numexpr_split_us(a, repeat, ne_us)
    loops = _loop_costs(a, repeat)
    if loops is not None:
        (model.loop, model.loop_sum, model.loop_call_us, model.loop_split_us,
         model.loop_cached, model.loop_chain) = loops
    return model


def _numexpr_split_us(a: np.ndarray[Any, Any], repeat: int, call_us: float) -> float:
    """numexpr's own threads' cost a call (``CostModel.numexpr_split_us``):
    a one-op expression on 16 Ki elements on all of them, less its time on
    one thread shared out among them (its fixed cost once)."""
    threads = numexpr.set_num_threads(1)
    numexpr.set_num_threads(threads)
    if threads < 2:
        return 0.0
    x = a[:16 * 1024]
    out = np.empty_like(x)

    def calls() -> Any:
        return [numexpr.evaluate("x * 1.0001", local_dict={"x": x}, out=out)
                for _ in range(50)]
    many = _best(calls, repeat) / 50 * 1e6
    numexpr.set_num_threads(1)
    try:
        one = _best(calls, repeat) / 50 * 1e6
    finally:
        numexpr.set_num_threads(threads)
    return max(0.0, many - one / threads - call_us * (1 - 1 / threads))


def _loop_costs(a: np.ndarray[Any, Any], repeat: int
                ) -> tuple[dict[str, float], dict[str, float], float, float, float,
                           float] | None:
    """Compiled loops (numba), one thread: the cost of one op per element,
    elementwise and inside a pairwise sum (a chain of CHAIN minus a chain of
    one, so memory traffic cancels), of one call, of handing parts of a
    loop to the threads, per element of an array read or written in
    cache (a mixed kernel's tail on a block), and per element of a
    product's chain of multiplies.  None without numba."""
    from . import loop_backend
    from .numpy_backend import pool
    if not loop_backend.available():
        return None
    import lazyten as lt
    x = lt.asarray(a)
    ops: dict[str, Callable[[Any], Any]] = {"cheap": lambda v: v * 1.0001,
                                            "heavy": lambda v: v / 1.0001}
    ew: dict[str, float] = {}
    sm: dict[str, float] = {}
    with lt.set_options(backend="loop", threads=1):
        for cls, op in ops.items():
            for reduces, dst in ((False, ew), (True, sm)):
                times = []
                for k in (1, CHAIN):
                    v = x
                    for _ in range(k):
                        v = op(v)
                    e = lt.sum(v) if reduces else v
                    lt.compute(e)                         # compiles the loop
                    times.append(_best(lambda: lt.compute(e), repeat))
                dst[cls] = max(0.01, (times[1] - times[0]) / (CHAIN - 1) / a.size * 1e9)
    # No loop has a transcendental op (not exact): the default stays.
    ew["transcendental"] = CostModel().loop["transcendental"]
    sm["transcendental"] = CostModel().loop_sum["transcendental"]
    # One call: the one-op elementwise loop on 8 elements of ``a``.
    with lt.set_options(backend="loop", threads=1):
        (k,) = lt.plan(x * 1.0001).kernels
    assert k.kernel is not None and k.kernel.loop is not None
    fn = loop_backend.compiled(k.kernel.loop, force=True)
    assert fn is not None
    out = np.empty_like(a)
    call_us = _best(lambda: [fn(a, 1.0001, out, 0, 8) for _ in range(1000)],
                    repeat) / 1000 * 1e6
    split_us = _best(lambda: [pool(2).submit(int).result() for _ in range(100)],
                     repeat) / 100 * 1e6
    # In cache: the same loop on a block (the smallest), less its op, over
    # the two arrays it touches.
    b = min(CostModel().block_elems, a.size)     # (the loop checks no bounds)
    per = _best(lambda: [fn(a, 1.0001, out, 0, b) for _ in range(20)], repeat) / 20 / b * 1e9
    cached = max(0.01, (per - ew["cheap"]) / 2)
    with lt.set_options(backend="loop", threads=1):
        p = lt.prod(x * 1.0001)
        lt.compute(p)                                 # compiles the loop
        chain = max(0.01, _best(lambda: lt.compute(p), repeat) / a.size * 1e9)
    return ew, sm, call_us, split_us, cached, chain


def _gil_us(a: np.ndarray[Any, Any], repeat: int) -> float:
    """Microseconds per ufunc call that two threads do not overlap: a 20-op
    chain run blocked on two threads, against half its one-thread time (with
    the block size in force, which sets the number of calls)."""
    import lazyten as lt

    def chain() -> Any:
        x = lt.asarray(a)
        for _ in range(10):
            x = x * 1.0001 + 0.5
        return x
    with lt.set_options(backend="numpy", threads=1):
        one = _best(lambda: lt.compute(chain()), repeat)
    with lt.set_options(backend="numpy", threads=2):
        two = _best(lambda: lt.compute(chain()), repeat)
        (step,) = lt.plan(chain()).kernels     # the block size it ran with
    assert step.kernel is not None
    calls = 20 * -(-len(a) // step.kernel.block_elems)
    return max(0.0, (two - one / 2) / calls * 1e6)


def _best_blocks(a: np.ndarray[Any, Any], repeat: int) -> tuple[int, int]:
    """``(block_elems, scratch_bytes)`` that run representative kernels
    fastest (all threads): the smallest block on a transcendental mix with
    three scratch slots, then the scratch a thread may use on kernels of
    one slot (a 20-op cheap chain, a fused sum), which get bigger blocks.
    Of two sizes within 3% the smaller wins (memory-lean)."""
    import lazyten as lt
    from ..functions import ELEMENTWISE
    from . import cost
    from .optimized import clear_plan_cache
    sin, exp = ELEMENTWISE["sin"], ELEMENTWISE["exp"]
    la, lb = lt.asarray(a), lt.asarray(a[::-1])

    def chain() -> Any:
        x = la
        for _ in range(10):
            x = x * 1.0001 + 0.5
        return x

    model = cost.get_model()
    old = model.block_elems, model.scratch_bytes

    def fastest(kernels: list[Callable[[], Any]], sizes: list[tuple[int, int]]) -> tuple[int, int]:
        best, best_t = sizes[0], float("inf")
        for size in sizes:
            model.block_elems, model.scratch_bytes = size
            # Cached plans keep the kernels (and block sizes) they were made
            # with: without this every size would time the first one's plan.
            clear_plan_cache()
            with lt.set_options(backend="numpy"):
                for k in kernels:
                    lt.compute(k())           # plan outside the timing
                t = sum(_best(lambda: lt.compute(k()), repeat) for k in kernels)
            if t < best_t * 0.97:
                best, best_t = size, t
        return best

    try:
        block, _ = fastest([lambda: 2 * la * la + 3 * la * lb - sin(la) * exp(-lb)],
                           [(size, 0) for size in BLOCKS])
        _, scratch = fastest([chain, lambda: (la * lb + la).sum()],
                             [(block, nbytes) for nbytes in SCRATCH if nbytes >= block * 8])
    finally:
        model.block_elems, model.scratch_bytes = old
        clear_plan_cache()
    return block, scratch


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
