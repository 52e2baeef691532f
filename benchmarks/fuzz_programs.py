"""Run random programs against NumPy and report the differences.

    python benchmarks/fuzz_programs.py writes                   # 1,000 programs, their default modes
    python benchmarks/fuzz_programs.py writes --start 5000 --count 20000 --modes default,noopt,loop
    python benchmarks/fuzz_programs.py writes --big             # arrays of 10,000 elements and more
    python benchmarks/fuzz_programs.py layouts --count 20000 --modes noopt,check
    python benchmarks/fuzz_programs.py layouts --big           # the planned paths: blocks, threads
    python benchmarks/fuzz_programs.py stencils --modes loop,repeat
    python benchmarks/fuzz_programs.py masked --count 5000 --modes default,planned

Four kinds of program, each a module of ``tests/`` whose docstring says
what it draws and compares, and whose ``MODES`` are the engine settings it
runs in ("repeat": three times in one process, node by node, planned and
from the cached plan's generated code; "planned": fused and planned at the
first run however small the arrays, ``tiny_elements=0``):

* ``writes`` (``tests/write_programs.py``): slices written plainly,
  augmented, through views and aliases, arrays rebound, evaluated and read,
  over arrays of every layout and nine dtypes ("jit": the program as an
  ``@lt.jit`` function of its arrays);
* ``layouts`` (``tests/layout_programs.py``): elementwise ops, reductions
  and views over arrays of every layout; the layout inferred as the graph
  is built, the result's values, flags and memory order, and which of its
  flattenings are views; "jit": the program as an ``@lt.jit`` function;
* ``stencils`` (``tests/stencil_programs.py``): time-stepping loops writing
  windows of a grid with sums of overlapping windows of it ("jit": the loop
  as an ``@lt.jit`` function of the grid);
* ``masked`` (``tests/masked_programs.py``): lt.ma against numpy.ma, masked
  arrays made every way numpy.ma makes them, computed, written and read.

Each failing program is printed shrunk (``--no-shrink``: as generated),
then a total; the exit status is 1 where any failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lazyten.exec import planner  # noqa: E402
from tests import layout_programs, masked_programs, stencil_programs, write_programs  # noqa: E402


@dataclass(frozen=True)
class Kind:
    """A kind of program: its modes, the ones run by default, and its
    generator, checker, shrinker and text for a program drawn."""
    modes: dict[str, Any]
    default: str
    program: Callable[[int, bool], Any]
    check: Callable[[Any, str], str | None]
    shrink: Callable[[Any, str], Any]
    text: Callable[[Any], str]


KINDS = {
    "writes": Kind(write_programs.MODES, "repeat,check",
                   lambda seed, big: write_programs.program(seed, big),
                   lambda p, mode: write_programs.check(*p, mode),
                   lambda p, mode: write_programs.shrink(*p, mode),
                   lambda p: f"inits={p[0]}\n" + "\n".join(p[1])),
    "layouts": Kind(layout_programs.MODES, "default,repeat,jit",
                    layout_programs.program,
                    layout_programs.check, layout_programs.shrink, "\n".join),
    "stencils": Kind(stencil_programs.MODES, "default,repeat",
                     lambda seed, big: stencil_programs.program(seed),
                     stencil_programs.check, stencil_programs.shrink, str),
    "masked": Kind(masked_programs.MODES, "default,noopt,repeat",
                   lambda seed, big: masked_programs.program(seed),
                   masked_programs.check, masked_programs.shrink, str),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--count", type=int, default=1000, help="number of programs")
    ap.add_argument("--modes", help="comma-separated (default: the kind's own)")
    ap.add_argument("--big", action="store_true",
                    help="writes and layouts: large arrays (thousands of elements and more)")
    ap.add_argument("--no-shrink", action="store_true")
    args = ap.parse_args()
    kind = KINDS[args.kind]
    modes = (args.modes or kind.default).split(",")
    for m in modes:
        if m not in kind.modes:
            ap.error(f"unknown mode {m!r} for {args.kind}; modes: {', '.join(kind.modes)}")
    if not args.big:
        planner.JOIN_INTO_MIN_BYTES = 0   # (the join-into path at any size)
    t0 = time.perf_counter()
    failures = 0
    for seed in range(args.start, args.start + args.count):
        p = kind.program(seed, args.big)
        for mode in modes:
            res = kind.check(p, mode)
            if res:
                failures += 1
                if not args.no_shrink:
                    p = kind.shrink(p, mode)
                    res = kind.check(p, mode) or res
                print(f"=== {args.kind} seed {seed} mode {mode}\n{kind.text(p)}")
                print(res[:3000], flush=True)
                break
    print(f"{args.count} {args.kind} programs (seeds {args.start}-"
          f"{args.start + args.count - 1}), modes {','.join(modes)}: {failures} failing, "
          f"{time.perf_counter() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
