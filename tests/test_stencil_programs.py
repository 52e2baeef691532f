"""Random stencil programs (``tests/stencil_programs.py``) against NumPy:
time-stepping loops writing windows of a grid with sums of overlapping,
stepped and reversed windows of it, through views too, node by node,
optimized (kernels writing into the written part), planned and from the
cached plan, with compiled loops, under ``check=True`` and as ``@lt.jit``
functions of the grid.
``benchmarks/fuzz_programs.py stencils`` runs many more."""

from __future__ import annotations

import pytest

from tests.stencil_programs import check, program


@pytest.mark.parametrize("mode, seeds", [
    ("default", range(0, 200)),
    ("noopt", range(1000, 1100)),
    ("check", range(2000, 2100)),
    ("repeat", range(3000, 3100)),
    ("loop", range(4000, 4020)),
    ("jit", range(5000, 5150)),
    ("planned", range(6000, 6100))])
def test_random_stencil_programs_match_numpy(mode: str, seeds: range) -> None:
    for seed in seeds:
        p = program(seed)
        res = check(p, mode)
        assert res is None, f"seed {seed} ({mode}): {res}\n{p}"
