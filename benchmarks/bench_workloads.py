"""Issue 3's workloads W1-W8: lazyten vs NumPy eager vs numexpr, side by side.

Each workload runs interleaved (NumPy, numexpr, lazyten first call, lazyten
steady state) for several rounds; the table shows median times as a ratio to
NumPy eager in the same run, and the peak extra memory of one call measured
with tracemalloc (NumPy reports its buffers to tracemalloc).

    OPENBLAS_CORETYPE= OPENBLAS_L2_SIZE= python benchmarks/bench_workloads.py [--n 10000000] [--rounds 5] [--threads 1]
        [--back-to-back] [--only W5 W6 W7]

"lazyten first" builds the graph and evaluates it in one plan (lt.compute: no
value caching, so every round really computes); "lazyten steady" is the same
call again with the kernel/probe caches warm and its compiled loops compiled
("warm-up": the calls after the first that took, untimed).  "by hand" is the rewrite a
NumPy user would write for W5 (slice first) and W6 (A @ (B @ v)): the floor
for what lazyten's optimizer can reach there.  ``--back-to-back`` runs each
engine's rounds in a row instead: for the small results of W5-W7, where one
engine's full-size NumPy temporaries otherwise disturb the next one's caches
and TLBs, it shows the warm steady state.  Interleaved, every timed call
starts with cold caches (``flush``) on a quiet machine (``SETTLE`` seconds
after the call before it: OpenBLAS's threads spin for about 100 ms after a
BLAS call), except W7's, a per-call cost timed warm over 2,000 calls a
round; the engines' order turns by one each round.  With JAX installed
(``pip install -e '.[anchors]'``) a "jax" column shows JAX's jit on the CPU:
one of the anchors of issue 3's table, measured on this machine.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numexpr as ne
import numpy as np

import lazyten as lt
from lazyten.exec import loop_backend
from lazyten.exec.cost import get_model


def timed(fn: Callable[[], Any], reps: int = 1) -> float:
    """Seconds per call of ``fn``, over ``reps`` calls in a row."""
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


# Workloads timed with warm caches even when interleaved: W7 is the per-call
# cost of a tiny expression, which in any real use runs in a loop (a flush
# before each 4 us call made NumPy's own call 10x slower).
WARM = {"W7"}
# Calls of lazyten's at most, after its first, until its loops are compiled.
WARMUP_MAX = 200
# Seconds between interleaved calls: OpenBLAS's worker threads spin for about
# 100 ms after a BLAS call (measured: 104 ms of CPU during a 200 ms sleep).
SETTLE = 0.15
# Workloads timed per call over this many calls a round: one call of W7 takes
# a few microseconds, where a lone call's time is mostly the timer's and the
# caches' noise (the table said 7.3x where 20,000 calls in a row said 4.7x).
BATCH = {"W7": 2000}


# Bytes of fresh memory written and freed before each interleaved call.  This
# machine is a VM whose guest hands memory freed a while ago back to the host
# (virtio_balloon): memory allocated after SETTLE's sleep was then often
# faulted in from the host, and an engine's fresh arrays cost up to 10x
# their normal page faults.  NumPy eager allocates the most (five 80 MB
# temporaries on W1): its W1 took 170-230 ms in some calls and 460-700 ms in
# others, and the table's median often fell in the slow mode (510-840 ms),
# which made every ratio to it look better than on an ordinary machine.
# Writing 512 MiB just before the call leaves that much resident memory in
# the guest's free lists for the engine's allocations: the slow calls were
# then rare (NumPy W1 191-193 ms medians over 7 rounds).
PREFAULT = 512 << 20


def flush() -> None:
    """Write over a buffer twice the largest cache size (64 MiB at least),
    so the next call starts with cold caches.  Without it an engine timed
    right after NumPy found W6's matrices or W5's last pages in cache (the
    "by hand" rewrite, next in line, ran 2-3x faster interleaved than after
    JAX).  First, ``PREFAULT`` bytes of fresh memory are written and freed
    (see there)."""
    np.ones(PREFAULT // 8)
    _flush_buffer()[...] += 1.0


@functools.cache
def _flush_buffer() -> np.ndarray[Any, Any]:
    return np.zeros(max(64 << 20, 2 * _last_level_cache()) // 8)


def _last_level_cache() -> int:
    sizes = []
    for index in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            text = (index / "size").read_text().strip()
        except OSError:
            continue
        mult = {"K": 1 << 10, "M": 1 << 20}.get(text[-1:], 1)
        sizes.append(int(text.rstrip("KM")) * mult)
    return max(sizes, default=0)


def peak_mb(fn: Callable[[], Any]) -> float:
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    r = fn()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    del r
    return peak / 1e6


def cold_medians(fns: dict[str, Callable[[], Any]], rounds: int
                 ) -> tuple[dict[str, float], list[float]]:
    """Median seconds per engine over ``rounds`` interleaved rounds, each call
    from cold caches (``flush``), and the peak extra MB of one call of the
    numpy, numexpr and lazyten engines (the joins' and layouts' tables)."""
    ts: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            flush()
            ts[k].append(timed(fn))
    med = {k: statistics.median(v) for k, v in ts.items()}
    return med, [peak_mb(fns[k]) for k in ("numpy", "numexpr", "lazyten")]


# A column after the side-by-side ones: its header, and its cell for
# (lazyten's result, NumPy's).
Column = tuple[str, Callable[[Any, Any], str]]


def side_by_side(title: str, workloads: list[tuple[str, dict[str, Callable[[], Any]]]],
                 rounds: int, columns: tuple[Column, ...] = (), rtol: float = 1e-9,
                 name_width: int = 26) -> None:
    """The joins', layouts' and reductions' tables: per workload, NumPy
    eager's median time, numexpr's and lazyten's as ratios to it, the three
    engines' peak extra MB (``cold_medians``), then ``columns``.  Each
    engine's result is checked against NumPy's first, and lazyten is run
    until its loops are compiled: the steady state is timed."""
    print(title)
    print(f"{'workload':{name_width}} {'numpy':>9} {'numexpr':>8} {'lazyten':>8}   "
          f"{'peak MB np/ne/lt':>18}" + "".join(f"  {h}" for h, _ in columns))
    for name, fns in workloads:
        want = fns["numpy"]()
        for fn in fns.values():
            np.testing.assert_allclose(fn(), want, rtol=rtol)
        got = fns["lazyten"]()
        for _ in range(100):          # (a loop compiles once its fallback paid for it)
            got = fns["lazyten"]()
            if not loop_backend.pending():
                break
        med, peaks = cold_medians(fns, rounds)
        base = med["numpy"]
        cells = "".join(f"  {cell(got, want):>{len(h)}}" for h, cell in columns)
        print(f"{name:{name_width}} {base * 1e3:7.1f}ms {med['numexpr'] / base:8.2f} "
              f"{med['lazyten'] / base:8.2f}   "
              f"{peaks[0]:6.1f}/{peaks[1]:5.1f}/{peaks[2]:5.1f}{cells}")


def main_n_rounds(run: Callable[[int, int, list[str] | None], None], doc: str | None) -> None:
    """The command line of the joins' and reductions' scripts: ``--n``,
    ``--rounds`` and ``--only`` (workload ids), then ``run(n, rounds, only)``."""
    p = argparse.ArgumentParser(description=(doc or "").split("\n")[0])
    p.add_argument("--n", type=int, default=10_000_000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", nargs="*", help="workload ids to run (R17 R18 ...)")
    args = p.parse_args()
    run(args.n, args.rounds, args.only)


def only_these(workloads: list[tuple[str, Any]], only: list[str] | None) -> list[tuple[str, Any]]:
    """The workloads whose id (the name's first word) ``only`` names; all without it."""
    return [w for w in workloads if not only or w[0].split()[0] in only]


def same_bits_cell(got: Any, want: Any) -> str:
    """A table cell: "same" where lazyten's values are NumPy's to the bit."""
    return "same" if np.array_equal(got, want) else "close"


def w1(x: Any, y: Any, z: Any, m: Any) -> Any:
    """W1 in the array module ``m`` (NumPy, lazyten or jax.numpy)."""
    return 2 * x**2 + 3 * y * z - m.sin(x) * m.exp(-y)


def workloads(n: int, rng: np.random.Generator) -> list[tuple[str, dict[str, Callable[[], Any]]]]:
    a, b, c = (rng.random(n) for _ in range(3))
    a32, b32, c32 = (x.astype(np.float32) for x in (a, b, c))
    A = rng.random((4000, 2500))
    M1, M2 = rng.random((2000, 2000)), rng.random((2000, 2000))
    v = rng.random(2000)
    la, lb, lc = lt.asarray(a), lt.asarray(b), lt.asarray(c)
    la32, lb32, lc32 = lt.asarray(a32), lt.asarray(b32), lt.asarray(c32)
    lA, lM1, lM2, lv = lt.asarray(A), lt.asarray(M1), lt.asarray(M2), lt.asarray(v)
    small = (rng.random(100), rng.random(100), rng.random(100))
    ls = (lt.asarray(small[0]), lt.asarray(small[1]), lt.asarray(small[2]))

    def w2_np(x: np.ndarray[Any, Any]) -> Any:
        for k in range(10):
            x = x * 1.0001
            x = x + 0.5
        return x

    def w2_lt(x: Any) -> Any:
        for k in range(10):
            x = x * 1.0001
            x = x + 0.5
        return x

    w2_ne = "(" * 20 + "a" + "".join(
        ["*1.0001)" if k % 2 == 0 else "+0.5)" for k in range(20)])

    w1_ne = "2*a**2 + 3*b*c - sin(a)*exp(-b)"
    jx = _jax_workloads(w2_np, a, b, c, a32, b32, c32, A, M1, M2, v, small)
    return [
        ("W1 2a^2+3bc-sin(a)exp(-b)", {
            "numpy": lambda: w1(a, b, c, np),
            "numexpr": lambda: ne.evaluate(w1_ne, local_dict={"a": a, "b": b, "c": c}),
            **jx.get("W1", {}),
            "lazyten": lambda: lt.compute(w1(la, lb, lc, lt))[0]}),
        ("W2 20 ops x*k,+c", {
            "numpy": lambda: w2_np(a),
            "numexpr": lambda: ne.evaluate(w2_ne, local_dict={"a": a}),
            **jx.get("W2", {}),
            "lazyten": lambda: lt.compute(w2_lt(la))[0]}),
        ("W3 sum(a*b+c)", {
            "numpy": lambda: np.sum(a * b + c),
            # reads each input once through BLAS and one sum: about the
            # memory-bandwidth floor, but not lazyten's rewrite (below)
            "by hand": lambda: np.dot(a, b) + np.sum(c),
            "numexpr": lambda: ne.evaluate("sum(a*b+c)", local_dict={"a": a, "b": b, "c": c}),
            **jx.get("W3", {}),
            "lazyten": lambda: lt.compute(lt.sum(la * lb + lc))[0]}),
        ("W4 (A-mean0)/std0 4000x2500", {
            "numpy": lambda: (A - A.mean(0)) / A.std(0),
            "numexpr": lambda: ne.evaluate("(A - m) / s", local_dict={
                "A": A, "m": A.mean(0), "s": A.std(0)}),
            **jx.get("W4", {}),
            "lazyten": lambda: lt.compute((lA - lA.mean(0)) / lA.std(0))[0]}),
        ("W5 ((a*b+c)**2)[::1000]", {
            "numpy": lambda: ((a * b + c) ** 2)[::1000],
            "by hand": lambda: (a[::1000] * b[::1000] + c[::1000]) ** 2,
            "numexpr": lambda: ne.evaluate("(a*b+c)**2", local_dict={
                "a": a, "b": b, "c": c})[::1000],
            **jx.get("W5", {}),
            "lazyten": lambda: lt.compute(((la * lb + lc) ** 2)[::1000])[0]}),
        ("W6 A@B@v 2000", {
            "numpy": lambda: M1 @ M2 @ v,
            "by hand": lambda: M1 @ (M2 @ v),
            "numexpr": lambda: M1 @ M2 @ v,
            **jx.get("W6", {}),
            "lazyten": lambda: lt.compute(lM1 @ lM2 @ lv)[0]}),
        ("W7 W1 at N=100 (build+eval)", {
            "numpy": lambda: w1(*small, np),
            "numexpr": lambda: ne.evaluate(w1_ne, local_dict=dict(zip("abc", small))),
            **jx.get("W7", {}),
            "lazyten": lambda: lt.compute(w1(*ls, lt))[0]}),
        ("W8 W1 float32", {
            "numpy": lambda: w1(a32, b32, c32, np),
            "numexpr": lambda: ne.evaluate(w1_ne, local_dict={"a": a32, "b": b32, "c": c32}),
            **jx.get("W8", {}),
            "lazyten": lambda: lt.compute(w1(la32, lb32, lc32, lt))[0]}),
    ]


def _jax_workloads(w2: Callable[..., Any], *arrays: Any) -> dict[str, dict[str, Callable[[], Any]]]:
    """JAX (jit, CPU, float64 enabled) on the same data, where JAX is
    installed (``pip install -e '.[anchors]'``): one of the anchors issue 3's
    targets were set from, measured here in the same run.  Inputs are moved to JAX
    once, outside the timing (PyTensor's "trusted inputs"); each call waits
    for its result.  XLA's buffers are invisible to tracemalloc."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return {}
    jax.config.update("jax_enable_x64", True)
    a, b, c, a32, b32, c32, A, M1, M2, v, small = arrays
    ja, jb, jc, ja32, jb32, jc32, jA, jM1, jM2, jv = (
        jnp.asarray(x) for x in (a, b, c, a32, b32, c32, A, M1, M2, v))
    js = [jnp.asarray(x) for x in small]

    def f_w1(x: Any, y: Any, z: Any) -> Any:
        return w1(x, y, z, jnp)
    jitted = {
        "W1": (jax.jit(f_w1), (ja, jb, jc)),
        "W2": (jax.jit(w2), (ja,)),
        "W3": (jax.jit(lambda x, y, z: jnp.sum(x * y + z)), (ja, jb, jc)),
        "W4": (jax.jit(lambda X: (X - X.mean(0)) / X.std(0)), (jA,)),
        "W5": (jax.jit(lambda x, y, z: ((x * y + z) ** 2)[::1000]), (ja, jb, jc)),
        "W6": (jax.jit(lambda P, Q, u: P @ Q @ u), (jM1, jM2, jv)),
        "W7": (jax.jit(f_w1), tuple(js)),
        "W8": (jax.jit(f_w1), (ja32, jb32, jc32)),
    }

    def waiting(fn: Callable[..., Any], args: tuple[Any, ...]) -> Callable[[], Any]:
        fn(*args).block_until_ready()          # compile outside the timing
        return lambda: fn(*args).block_until_ready()
    return {wid: {"jax": waiting(fn, args)} for wid, (fn, args) in jitted.items()}


def run(n: int, rounds: int, threads: int | None, back_to_back: bool = False,
        only: list[str] | None = None) -> None:
    rng = np.random.default_rng(0)
    if threads is not None:
        ne.set_num_threads(threads)
        lt.set_default_options(threads=threads)
        if threads == 1:  # read when JAX is first imported (in workloads)
            os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                                       " --xla_cpu_multi_thread_eigen=false"
                                       " intra_op_parallelism_threads=1")
    print(f"N={n:.0e}, rounds={rounds}, threads={threads or 'all'}, "
          f"{'back to back' if back_to_back else 'interleaved'}; "
          f"times are medians, ratios to NumPy eager (lower is better); "
          f"cost model: {get_model().source}")
    print(f"{'workload':30} {'numpy':>9} {'numexpr':>9} {'jax':>6} {'lt first':>9} "
          f"{'lt steady':>9} {'by hand':>8}   {'peak MB np/ne/lt':>18}  warm-up")
    for name, fns in only_these(workloads(n, rng), only):
        before = loop_backend.pending()
        first = timed(fns["lazyten"])
        # The steady state: "auto" compiles a loop once its NumPy runs have
        # paid a quarter of the compile (loop_backend.COMPILE_SHARE): at the
        # 2nd call for W1, after more for cheap kernels in a process that
        # has loaded no loop yet.  The calls until then are counted.
        warmup = 0
        while loop_backend.pending() - before and warmup < WARMUP_MAX:
            fns["lazyten"]()
            warmup += 1
        reps = BATCH.get(name.split()[0], 1)
        ts: dict[str, list[float]] = {k: [] for k in fns}
        if back_to_back:
            # each engine's rounds in a row: caches and TLBs stay warm for it
            for k, fn in fns.items():
                ts[k] = [timed(fn, reps) for _ in range(rounds)]
        else:
            order = list(fns.items())
            for r in range(rounds):
                # interleaved: noise hits every engine alike; the order turns
                # each round; and each call starts on a quiet machine: after
                # a BLAS call (the by-hand np.dot) OpenBLAS's threads spin on
                # both cores for about 100 ms, and a two-thread kernel run
                # next took 1.5 ms longer on W3
                for k, fn in order[r % len(order):] + order[:r % len(order)]:
                    if name.split()[0] not in WARM:
                        time.sleep(SETTLE)
                        flush()  # and none inherits the cache the one before it left
                    ts[k].append(timed(fn, reps))
        med = {k: statistics.median(v) for k, v in ts.items()}
        base = med["numpy"]
        peaks = [peak_mb(fns[k]) for k in ("numpy", "numexpr", "lazyten")]
        hand = f"{med['by hand'] / base:8.3f}" if "by hand" in med else f"{'-':>8}"
        jx = f"{med['jax'] / base:6.3f}" if "jax" in med else f"{'-':>6}"
        print(f"{name:30} {base * 1e3:7.2f}ms {med['numexpr'] / base:9.2f} {jx} "
              f"{first / base:9.2f} {med['lazyten'] / base:9.3f} {hand}   "
              f"{peaks[0]:6.1f}/{peaks[1]:5.1f}/{peaks[2]:5.1f}  {warmup:7d}")


def w7_breakdown(rng: np.random.Generator, reps: int = 20000) -> None:
    """Where W7's per-call time goes: the whole call (build and compute a
    fresh graph), building alone, computing an already built graph, the plan
    cache's signature and the cached plan (best of 5 loops, warm).  Building
    is timed while no graph of W1 is alive: one alive would hand every
    build its nodes back from the intern table."""
    import timeit

    from lazyten.exec import optimized
    from lazyten.options import get_options
    small = (rng.random(100), rng.random(100), rng.random(100))
    ls = (lt.asarray(small[0]), lt.asarray(small[1]), lt.asarray(small[2]))

    def us(fn: Callable[[], Any]) -> float:
        return min(timeit.repeat(fn, number=reps, repeat=5)) / reps * 1e6
    for _ in range(3):
        lt.compute(w1(*ls, lt))             # plan, then generate its fast path
    parts = {"numpy eager": us(lambda: w1(*small, np)),
             "lt build+compute": us(lambda: lt.compute(w1(*ls, lt))),
             "  of which build": us(lambda: w1(*ls, lt))}
    y = w1(*ls, lt)
    outs = [y.node]
    sig, leaves = optimized.signature(outs) or ((), [])
    fast = optimized._plans[(sig, get_options())].fast
    values = [n.value for n in leaves]
    parts.update({
        "lt compute (a built graph)": us(lambda: lt.compute(y)),
        "  of which signature": us(lambda: optimized.signature(outs)),
        "  of which cached plan": us(lambda: fast(values, None)) if fast else float("nan")})
    print("W7 per call, warm: " + ", ".join(f"{k} {v:.1f} us" for k, v in parts.items()))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=10_000_000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--back-to-back", action="store_true",
                   help="run each engine's rounds in a row instead of interleaved")
    p.add_argument("--only", nargs="*", help="workload ids to run (W5 W6 ...)")
    args = p.parse_args()
    run(args.n, args.rounds, args.threads, args.back_to_back, args.only)
    if not args.only or "W7" in args.only:
        w7_breakdown(np.random.default_rng(1))


if __name__ == "__main__":
    main()
