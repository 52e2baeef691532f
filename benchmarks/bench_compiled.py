"""Per-call overhead of a compiled function, and multi-output sharing.

W1 = 2*a**2 + 3*b*c - sin(a)*exp(-b) at N = 100, 10k (and 10M with --big):

* numpy      eager NumPy
* numexpr    numexpr.evaluate on the expression string
* compiled   lt.function([a, b, c], W1)(A, B, C)   (planned once)
* compiled+out  the same with out= (no output allocated per call)
* compiled, None dims  lt.function over (None,) placeholders, at a length it has seen
* @lt.jit      the same expression traced by lt.jit (at the signature of its last call)
* lazy       build the graph and evaluate it on every call (lt.asarray ... .eval())

Every variant runs interleaved with the others for several rounds; each
round times a batch of calls; the table shows the median time per call and
the ratio to NumPy eager and to numexpr in the same run.

Then W1 with every call at a new length (a new plan each, for the
implicit plan cache and for a compiled function over ``None`` dimensions),
and multi-output: three outputs sharing an expensive subexpression (a
matmul and a transcendental), one plan (lt.compute / a compiled function with
three outputs) against evaluating each output separately.

    python benchmarks/bench_compiled.py [--big] [--rounds 15] [--threads N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numexpr as ne
import numpy as np

import lazyten as lt

EXPR = "2*a**2 + 3*b*c - sin(a)*exp(-b)"


def w1(a: Any, b: Any, c: Any, mod: Any) -> Any:
    return 2 * a ** 2 + 3 * b * c - mod.sin(a) * mod.exp(-b)


def per_call(fn: Callable[[], Any], calls: int) -> float:
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t0) / calls


def interleaved(variants: dict[str, Callable[[], Any]], calls: int,
                rounds: int) -> dict[str, float]:
    for fn in variants.values():    # warm: plan caches, numexpr's cache, scratch
        fn()
    times: dict[str, list[float]] = {k: [] for k in variants}
    for _ in range(rounds):
        for k, fn in variants.items():
            times[k].append(per_call(fn, calls))
    return {k: statistics.median(v) for k, v in times.items()}


def bench_w1(n: int, rounds: int) -> None:
    rng = np.random.default_rng(0)
    a, b, c = (rng.random(n) for _ in range(3))
    pa, pb, pc = (lt.placeholder((n,), "float64", name=k) for k in "abc")
    f = lt.function([pa, pb, pc], w1(pa, pb, pc, lt))
    qa, qb, qc = (lt.placeholder((None,), "float64", name=k) for k in "abc")
    g = lt.function([qa, qb, qc], w1(qa, qb, qc, lt))     # any length: this one cached
    j = lt.jit(lambda x, y, z: w1(x, y, z, lt))
    out = np.empty(n)
    expect = w1(a, b, c, np)
    assert np.allclose(f(a, b, c), expect) and np.allclose(ne.evaluate(EXPR), expect)

    def lazy() -> Any:
        x, y, z = lt.asarray(a), lt.asarray(b), lt.asarray(c)
        return w1(x, y, z, lt).eval()

    variants: dict[str, Callable[[], Any]] = {
        "numpy": lambda: w1(a, b, c, np),
        "numexpr": lambda: ne.evaluate(EXPR, local_dict={"a": a, "b": b, "c": c}),
        "compiled": lambda: f(a, b, c),
        "compiled+out": lambda: f(a, b, c, out=out),
        "compiled, None dims": lambda: g(a, b, c),
        "@lt.jit": lambda: j(a, b, c),
        "lazy build+eval": lazy,
    }
    calls = max(1, min(2000, 2_000_000 // max(n, 1)))
    med = interleaved(variants, calls, rounds)
    path = "fast path (generated code)" if f._const is not None and \
        f._const.fast is not None else "execute()"
    print(f"\nW1 at N={n:,} ({calls} calls x {rounds} rounds; compiled runs the {path})")
    print(f"{'variant':20s} {'per call':>12s} {'/ numpy':>9s} {'/ numexpr':>10s}")
    for k, t in med.items():
        unit = f"{t * 1e6:10.2f} us" if t < 1e-3 else f"{t * 1e3:10.2f} ms"
        print(f"{k:20s} {unit:>12s} {t / med['numpy']:9.2f} {t / med['numexpr']:10.2f}")


def bench_new_sizes(rounds: int, per_round: int = 100) -> None:
    """W1 where every call has a length not seen before (records of varying
    length): each is a new plan for ``lt.compute``'s plan cache and a new
    specialization of a compiled function over ``(None,)`` placeholders.
    Each round takes ``per_round`` new lengths, the same for every variant."""
    rng = np.random.default_rng(2)
    px, py, pz = (lt.placeholder((None,), "float64", name=k) for k in "abc")
    f = lt.function([px, py, pz], w1(px, py, pz, lt))
    f.cache_clear()

    def lazy(a: Any, b: Any, c: Any) -> Any:
        return lt.compute(w1(lt.asarray(a), lt.asarray(b), lt.asarray(c), lt))[0]

    variants: dict[str, Callable[..., Any]] = {
        "numpy": lambda a, b, c: w1(a, b, c, np),
        "lazy build+compute": lazy,
        "compiled, None dims": f,
    }
    times: dict[str, list[float]] = {k: [] for k in variants}
    for r in range(rounds):
        lengths = range(1000 + r * per_round, 1000 + (r + 1) * per_round)
        data = [tuple(rng.random(n) for _ in range(3)) for n in lengths]
        for k, fn in variants.items():
            t0 = time.perf_counter()
            for a, b, c in data:
                fn(a, b, c)
            times[k].append((time.perf_counter() - t0) / len(data))
        a, b, c = data[-1]
        assert np.array_equal(f(a, b, c), w1(a, b, c, np))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\nW1, every call at a new length (1,000 to {1000 + rounds * per_round - 1}; "
          f"{per_round} calls x {rounds} rounds)")
    print(f"{'variant':20s} {'per call':>12s} {'/ numpy':>9s}")
    for k, t in med.items():
        print(f"{k:20s} {t * 1e6:9.1f} us {t / med['numpy']:9.1f}")


def bench_multi_output(n: int, rounds: int) -> None:
    rng = np.random.default_rng(1)
    A, B = rng.standard_normal((n, 64)), rng.standard_normal((64, n))
    a, b = lt.asarray(A), lt.asarray(B)

    def outs(x: Any, y: Any) -> list[Any]:
        m = lt.tanh(x @ y)
        return [m.sum(axis=0), (m * m).mean(), m.max(axis=1)]

    tensors = outs(a, b)
    joint = lt.plan(*tensors)
    separate = [lt.plan(t) for t in tensors]

    def steps(p: Any) -> int:
        return sum(1 for s in p.steps if s.kind in ("kernel", "numpy", "blas"))

    x = lt.placeholder((n, 64), "float64", name="x")
    f = lt.function([x], outs(x, b))
    fs = [lt.function([x], o) for o in outs(x, b)]
    variants: dict[str, Callable[[], Any]] = {
        "lt.compute(a, b, c)": lambda: lt.compute(*outs(a, b)),
        "a, b, c separately": lambda: [lt.compute(t) for t in outs(a, b)],
        "compiled 3 outputs": lambda: f(A),
        "3 compiled, 1 each": lambda: [g(A) for g in fs],
    }
    med = interleaved(variants, 3, rounds)
    print(f"\nMulti-output: tanh(A @ B) ({n}x64 @ 64x{n}) -> sum(0), mean(m*m), max(1)")
    print(f"compute steps: one plan {steps(joint)}, separate plans "
          f"{sum(steps(p) for p in separate)} "
          f"(BLAS calls {sum(s.kind == 'blas' for s in joint.steps)} vs "
          f"{sum(s.kind == 'blas' for p in separate for s in p.steps)})")
    base = med["a, b, c separately"]
    for k, t in med.items():
        print(f"{k:22s} {t * 1e3:10.2f} ms {t / base:8.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--big", action="store_true", help="also N=10M (slow)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    ne.set_num_threads(args.threads or ne.detect_number_of_cores())
    with lt.set_options(threads=args.threads):
        for n in [100, 10_000] + ([10_000_000] if args.big else []):
            bench_w1(n, args.rounds if n < 1_000_000 else max(3, args.rounds // 5))
        bench_new_sizes(max(3, args.rounds // 3))
        bench_multi_output(1000, max(3, args.rounds // 3))


if __name__ == "__main__":
    main()
