"""Random masked-array programs (``tests/masked_programs.py``) against
numpy.ma: operands made every way numpy.ma makes them (nomask, mask arrays,
masks it shrinks), then computed, written in place and read, node by node,
optimized, under ``check=True``, planned however small, from the cached
plan, as ``@lt.jit`` functions of numpy.ma arguments and with the arrays
given as tensors.  ``benchmarks/fuzz_programs.py masked`` runs many more."""

from __future__ import annotations

import pytest

from tests.masked_programs import check, program


@pytest.mark.parametrize("mode, seeds", [
    ("default", range(0, 800)),
    ("noopt", range(1000, 1400)),
    ("check", range(2000, 2300)),
    ("repeat", range(3000, 3300)),
    ("planned", range(4000, 4400)),
    ("jit", range(5000, 5400)),
    ("tensors", range(6000, 6300))])
def test_random_masked_programs_match_numpy_ma(mode: str, seeds: range) -> None:
    for seed in seeds:
        p = program(seed)
        res = check(p, mode)
        assert res is None, f"seed {seed} ({mode}): {res}\n{p}"
