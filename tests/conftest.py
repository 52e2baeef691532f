"""Shared fixtures: every engine test runs with the optimizer on and off."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# A cache directory of the test run's own (unless one is set): the tests see
# the cost model's defaults, not a calibration of this machine, and the loops
# they compile do not go to the user's ~/.cache/lazyten.
os.environ.setdefault("LAZYTEN_CACHE_DIR", tempfile.mkdtemp(prefix="lazyten-tests-"))
# Under pytest-xdist each worker inherits the controller's directory: give
# each its own below it, so that a test which expects to compile a loop does
# not find it already in numba's disk cache, compiled by the other worker.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["LAZYTEN_CACHE_DIR"] = os.path.join(os.environ["LAZYTEN_CACHE_DIR"],
                                                   os.environ["PYTEST_XDIST_WORKER"])

import lazyten as lt  # noqa: E402

# Hypothesis profiles: "ci" (bounded, the default), "long" (LAZYTEN_LONG=1 or
# --hypothesis-profile=long) for the 100,000-graph fuzzing run.
settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=100_000, deadline=None,
                          suppress_health_check=list(HealthCheck))
settings.load_profile("long" if os.environ.get("LAZYTEN_LONG") else "ci")

ENGINES = [
    pytest.param({"optimize": False, "backend": "numpy"}, id="reference"),
    pytest.param({"optimize": True, "backend": "auto", "check": True}, id="optimized"),
]
ALL_ENGINES = ENGINES + [
    pytest.param({"optimize": True, "backend": "numpy", "check": True}, id="optimized-numpy"),
    pytest.param({"optimize": True, "backend": "numexpr", "check": True},
                 id="optimized-numexpr"),
    # compiled loops wherever exact, whatever the size (each new kernel compiles)
    pytest.param({"optimize": True, "backend": "loop", "check": True}, id="optimized-loop"),
]


@pytest.fixture(params=ENGINES)
def engine(request: Any) -> Iterator[dict[str, Any]]:
    """Run the test under one engine configuration (reference / optimized)."""
    with lt.set_options(**request.param):
        yield request.param


@pytest.fixture(params=ALL_ENGINES)
def any_engine(request: Any) -> Iterator[dict[str, Any]]:
    """Every combination of optimizer and fused-kernel backend."""
    with lt.set_options(**request.param):
        yield request.param


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
