"""Random layout programs (``tests/layout_programs.py``) against NumPy:
the layout inferred as each graph is built, the evaluated result's values,
flags and memory order, and which flattenings of it are views, node by
node, optimized, planned and from the cached plan, and under
``check=True``.  ``benchmarks/fuzz_programs.py layouts`` runs many more."""

from __future__ import annotations

import pytest

from tests.layout_programs import check, program


@pytest.mark.parametrize("mode, seeds, big", [
    ("default", range(0, 200), False),
    ("noopt", range(1000, 1150), False),
    ("check", range(2000, 2150), False),
    ("repeat", range(3000, 3150), False),
    # as @lt.jit functions of their arrays, traced and from the cache
    ("jit", range(5000, 5300), False),
    ("planned", range(7000, 7200), False),
    # thousands of elements: planned, blocked, in place
    ("repeat", range(4000, 4040), True),
    ("jit", range(6000, 6030), True)])
def test_random_layout_programs_match_numpy(mode: str, seeds: range, big: bool) -> None:
    for seed in seeds:
        lines = program(seed, big)
        res = check(lines, mode)
        assert res is None, f"seed {seed} ({mode}): {res}\n" + "\n".join(lines)
