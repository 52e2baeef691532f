"""Rendering 10,000-node graphs: summarized pictures stay within a budget.

For graphs of several shapes (a chain, a long sum of side branches, a lattice
with no single-reader chains, thousands of inputs, thousands of outputs), each
about 10,000 nodes, this times

* ``lt.to_dot`` (building the picture, summarizing it to at most 500 boxes;
  for the optimized plan this includes optimizing and planning, also shown
  alone as "plan"),
* Graphviz's ``dot -Tsvg`` on the result,

("summed": the boxes before summarizing: graph nodes, or plan steps.)

for the graph as built and for the optimized plan, and checks the total
against ``--budget`` seconds.  ``--raw N`` also renders one *unsummarized*
N-node chain, to show what summarizing saves (``dot`` grows superlinearly).

    python benchmarks/render_large.py [--nodes 10000] [--budget 5] [--raw 2000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

import lazyten as lt
from lazyten import viz
from lazyten.graph.node import toposort


def chain(n: int) -> list[lt.Tensor]:
    x = lt.asarray(np.ones(10))
    for _ in range(n - 1):
        x = lt.sin(x)
    return [x]


def branches(n: int) -> list[lt.Tensor]:
    k = n // 3
    a = lt.asarray(np.ones((k, 4)))
    s = a[0]
    for i in range(1, k):
        s = s + lt.exp(a[i])
    return [s]


def lattice(n: int) -> list[lt.Tensor]:
    x, y = lt.asarray(np.ones(4)), lt.asarray(np.ones(4))
    for _ in range(n // 3):
        x, y = x * y + y, x - y
    return [x, y]


def many_inputs(n: int) -> list[lt.Tensor]:
    xs = [lt.asarray(np.ones(3)) for _ in range(n // 2)]
    s = xs[0]
    for v in xs[1:]:
        s = s + v
    return [s]


def many_outputs(n: int) -> list[lt.Tensor]:
    a = lt.asarray(np.ones(3))
    return [lt.exp(a * float(k)) for k in range(n // 3)]


SHAPES: dict[str, Callable[[int], list[lt.Tensor]]] = {
    "chain": chain, "branches": branches, "lattice": lattice,
    "many inputs": many_inputs, "many outputs": many_outputs,
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--budget", type=float, default=5.0, help="seconds per picture")
    p.add_argument("--raw", type=int, default=0,
                   help="also render an unsummarized chain of this many nodes")
    args = p.parse_args()
    if viz.find_dot() is None:
        print("Graphviz's dot is not installed: " + viz.INSTALL_HINT)
        return 2
    print(f"{'graph':<14} {'picture':<8} {'nodes':>7} {'boxes':>6} {'summed':>7} "
          f"{'plan':>7} {'to_dot':>8} {'dot -Tsvg':>10} {'total':>8}  budget {args.budget:.1f} s")
    worst = 0.0
    for name, make in SHAPES.items():
        tensors = make(args.nodes)
        n_nodes = len(toposort([t.node for t in tensors]))
        for optimized in (False, True):
            t0 = time.perf_counter()
            # "plan": optimizing and planning alone (what to_dot(optimized=True)
            # spends before drawing anything)
            if optimized:
                lt.plan(*tensors)
            t_plan = time.perf_counter() - t0
            t0 = time.perf_counter()
            vg = viz.build(tensors, optimized=optimized)
            src = viz.dot_source(vg)
            t1 = time.perf_counter()
            svg = viz.render_bytes(src, "svg")
            t2 = time.perf_counter()
            assert svg.lstrip().startswith(b"<?xml")
            total = t2 - t0
            worst = max(worst, total)
            ok = "ok" if total <= args.budget else "OVER"
            print(f"{name:<14} {'plan' if optimized else 'graph':<8} {n_nodes:>7,} "
                  f"{len(vg.nodes):>6} {vg.total:>7,} {t_plan:>6.2f}s {t1 - t0:>7.2f}s "
                  f"{t2 - t1:>9.2f}s {total:>7.2f}s  {ok}")
    if args.raw:
        tensors = chain(args.raw)
        src = lt.to_dot(*tensors, max_nodes=None)
        t0 = time.perf_counter()
        viz.render_bytes(src, "svg")
        print(f"unsummarized chain of {args.raw:,} nodes: dot -Tsvg "
              f"{time.perf_counter() - t0:.2f}s")
    print(f"slowest picture {worst:.2f}s (budget {args.budget:.1f}s)")
    return 0 if worst <= args.budget else 1


if __name__ == "__main__":
    sys.exit(main())
