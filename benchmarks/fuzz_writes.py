"""Run random write programs against NumPy and report the differences.

    python benchmarks/fuzz_writes.py                          # 1,000 programs, repeat and check
    python benchmarks/fuzz_writes.py --start 5000 --count 20000 --modes default,noopt,loop
    python benchmarks/fuzz_writes.py --big                    # arrays of 10,000 elements and more

The programs and modes are ``tests/write_programs.py``'s: slices written
(plainly, augmented, through views and aliases), arrays rebound, evaluated
and read, over plain, Fortran, strided, transposed, reversed, broadcast
and computed arrays of nine dtypes.  "repeat" runs each program three
times in one process (node by node, planned, from the cached plan's
generated code); "loop" compiles loops (numba).  Each failing program is
printed shrunk (``--no-shrink``: as generated), then a total.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lazyten.exec import planner  # noqa: E402
from tests.write_programs import MODES, check, program, shrink  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--count", type=int, default=1000, help="number of programs")
    ap.add_argument("--modes", default="repeat,check",
                    help=f"comma-separated, of {', '.join(MODES)}")
    ap.add_argument("--big", action="store_true", help="large arrays (10,000+ elements)")
    ap.add_argument("--no-shrink", action="store_true")
    args = ap.parse_args()
    modes = args.modes.split(",")
    for m in modes:
        if m not in MODES:
            ap.error(f"unknown mode {m!r}; modes: {', '.join(MODES)}")
    if not args.big:
        planner.JOIN_INTO_MIN_BYTES = 0   # (the join-into path at any size)
    t0 = time.perf_counter()
    failures = 0
    for seed in range(args.start, args.start + args.count):
        inits, lines = program(seed, args.big)
        for mode in modes:
            res = check(inits, lines, mode)
            if res:
                failures += 1
                if not args.no_shrink:
                    inits, lines = shrink(inits, lines, mode)
                    res = check(inits, lines, mode) or res
                print(f"=== seed {seed} mode {mode}\ninits={inits}\n" + "\n".join(lines))
                print(res[:3000], flush=True)
                break
    print(f"{args.count} programs (seeds {args.start}-{args.start + args.count - 1}), modes "
          f"{','.join(modes)}: {failures} failing, {time.perf_counter() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
