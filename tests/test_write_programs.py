"""Random write programs (``tests/write_programs.py``) against NumPy: each
run node by node, planned and from the cached plan's generated code in one
process (the plan cache's paths: a scalar written into integers wrapped on
the cached one only), under ``check=True``, without the optimizer and as
``@lt.jit`` functions of their arrays.
``benchmarks/fuzz_programs.py writes`` runs many more."""

from __future__ import annotations

import pytest

from lazyten.exec import planner
from tests.write_programs import check, program


@pytest.mark.parametrize("mode, seeds", [
    ("repeat", range(1000, 1400)),
    ("check", range(2000, 2150)),
    ("noopt", range(3000, 3150)),
    # as @lt.jit functions of the arrays, traced and from the cache
    ("jit", range(5000, 5300)),
    ("planned", range(6000, 6200)),
    # a computed scalar's np.asarray(...).astype(...) written into integers:
    # NumPy's 0-d array, cast (it wraps); lazyten converted it as a scalar
    # (OverflowError) before 54a0afa
    ("planned", [10244, 11614]),
    # np.negative(np.uint64(3)) written into an int32 slice: NumPy converts
    # the scalar as a number (OverflowError), lazyten when the write runs;
    # its cached plan's second run wrapped it instead, before 0e1b051
    ("repeat", [301554])])
def test_random_write_programs_match_numpy(mode: str, seeds: range | list[int],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Joins written into their consumer's buffer at any size (small arrays
    # here: the planner's default threshold would leave that path unrun).
    monkeypatch.setattr(planner, "JOIN_INTO_MIN_BYTES", 0)
    for seed in seeds:
        inits, lines = program(seed)
        res = check(inits, lines, mode)
        assert res is None, f"seed {seed} ({mode}): {res}\ninits={inits}\n" + "\n".join(lines)
