"""Run random layout programs against NumPy and report the differences.

    python benchmarks/fuzz_layouts.py                          # 1,000 programs, default and repeat
    python benchmarks/fuzz_layouts.py --start 5000 --count 20000 --modes noopt,check

The programs and modes are ``tests/layout_programs.py``'s: an array of
any layout (Fortran, permuted, strided, broadcast; seven dtypes) through
elementwise ops, reductions and views; the layout lazyten infers as it
builds the graph, the evaluated result's values, flags and memory order,
and which of its flattenings are views, each against NumPy.  "repeat" runs
each program three times in one process (node by node, planned, from the
cached plan).  Each failing program is printed shrunk (``--no-shrink``:
as generated), then a total.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.layout_programs import MODES, check, program, shrink  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--count", type=int, default=1000, help="number of programs")
    ap.add_argument("--modes", default="default,repeat",
                    help=f"comma-separated, of {', '.join(MODES)}")
    ap.add_argument("--no-shrink", action="store_true")
    args = ap.parse_args()
    modes = args.modes.split(",")
    for m in modes:
        if m not in MODES:
            ap.error(f"unknown mode {m!r}; modes: {', '.join(MODES)}")
    t0 = time.perf_counter()
    failures = 0
    for seed in range(args.start, args.start + args.count):
        lines = program(seed)
        for mode in modes:
            res = check(lines, mode)
            if res:
                failures += 1
                if not args.no_shrink:
                    lines = shrink(lines, mode)
                    res = check(lines, mode) or res
                print(f"=== seed {seed} mode {mode}\n" + "\n".join(lines))
                print(res[:3000], flush=True)
                break
    print(f"{args.count} programs (seeds {args.start}-{args.start + args.count - 1}), modes "
          f"{','.join(modes)}: {failures} failing, {time.perf_counter() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
