"""Run the graph fuzzer's long profile (100,000 graphs) and report count and time.

    python benchmarks/fuzz_long.py                 # 100,000 graphs, one process
    python benchmarks/fuzz_long.py --examples 5000 --seed 7
    python benchmarks/fuzz_long.py --jobs 4        # 4 processes, different seeds

Each graph is evaluated under the 6 engine combinations (optimize on/off x
backend numpy/numexpr/auto; ``--loops`` adds backend="loop") and compared
with NumPy (tests/test_fuzz.py).
With ``--jobs`` each process runs ``examples / jobs`` graphs from its own seed.
Prints one line per process and a total, for the README.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=None, help="first Hypothesis seed")
    ap.add_argument("--loops", action="store_true",
                    help="also backend='loop' (compiled loops; each new kernel compiles)")
    args = ap.parse_args()
    per_job = -(-args.examples // args.jobs)
    tmp = tempfile.mkdtemp(prefix="lazyten-fuzz-")
    procs = []
    t0 = time.perf_counter()
    for j in range(args.jobs):
        stats = os.path.join(tmp, f"stats{j}.json")
        env = dict(os.environ, LAZYTEN_LONG="1", LAZYTEN_FUZZ_EXAMPLES=str(per_job),
                   LAZYTEN_FUZZ_LOOPS="1" if args.loops else "0",
                   LAZYTEN_FUZZ_STATS=stats, PYTHONPATH=ROOT + os.pathsep
                   + os.environ.get("PYTHONPATH", ""))
        cmd = [sys.executable, "-m", "pytest", "tests/test_fuzz.py::test_fuzz_graphs", "-q",
               "-x", "-p", "no:cacheprovider", "-W", "ignore::DeprecationWarning"]
        if args.seed is not None or args.jobs > 1:
            cmd.append(f"--hypothesis-seed={(args.seed or 0) + j}")
        log = open(os.path.join(tmp, f"log{j}.txt"), "w")
        procs.append((j, stats, log, subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log,
                                                      stderr=subprocess.STDOUT)))
    total = {"graphs": 0, "instructions": 0, "evaluations": 0, "dropped": 0}
    failed = False
    for j, stats, log, p in procs:
        rc = p.wait()
        log.close()
        st = json.load(open(stats)) if os.path.exists(stats) else {}
        for k in total:
            total[k] += st.get(k, 0)
        ok = "passed" if rc == 0 else f"FAILED (rc {rc}, see {log.name})"
        failed |= rc != 0
        print(f"job {j}: {st.get('graphs', 0)} graphs, {st.get('evaluations', 0)} engine runs: {ok}")
    dt = time.perf_counter() - t0
    print(f"total: {total['graphs']} graphs ({total['instructions']} instructions, "
          f"{total['dropped']} dropped as NumPy errors), {total['evaluations']} engine runs "
          f"in {dt:.0f} s ({dt / max(total['graphs'], 1) * 1e3:.1f} ms/graph)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
