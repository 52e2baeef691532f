"""Seeded random tensors (``lt.random``).

Random draws are made when the tensor is created, from a NumPy ``Generator``,
and enter the graph as inputs.  Drawing lazily would let two identical draw
nodes be merged as common subexpressions, giving equal "random" tensors;
drawing eagerly keeps every tensor a distinct, reproducible sample.

>>> import lazyten as lt
>>> g = lt.random.default_rng(0)
>>> g.standard_normal((2, 3)).shape
(2, 3)
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from .creation import asarray
from .tensor import Tensor


class Generator:
    """A seeded source of random tensors, mirroring ``numpy.random.Generator``."""

    def __init__(self, seed: Any = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._lock = threading.Lock()  # NumPy generators are not thread-safe

    def _draw(self, method: str, *args: Any, **kwargs: Any) -> Tensor:
        with self._lock:
            out = getattr(self._rng, method)(*args, **kwargs)
        return asarray(np.asarray(out))

    def random(self, size: Any = None, dtype: Any = np.float64) -> Tensor:
        return self._draw("random", size, dtype=dtype)

    def standard_normal(self, size: Any = None, dtype: Any = np.float64) -> Tensor:
        return self._draw("standard_normal", size, dtype=dtype)

    def normal(self, loc: float = 0.0, scale: float = 1.0, size: Any = None) -> Tensor:
        return self._draw("normal", loc, scale, size)

    def uniform(self, low: float = 0.0, high: float = 1.0, size: Any = None) -> Tensor:
        return self._draw("uniform", low, high, size)

    def integers(self, low: int, high: int | None = None, size: Any = None,
                 dtype: Any = np.int64, endpoint: bool = False) -> Tensor:
        return self._draw("integers", low, high, size, dtype=dtype, endpoint=endpoint)

    def permutation(self, x: Any) -> Tensor:
        return self._draw("permutation", x)


_global = Generator()


def default_rng(seed: Any = None) -> Generator:
    return Generator(seed)


def seed(s: int | None = None) -> None:
    """Reseed the module-level generator used by ``rand``, ``randn``, ..."""
    global _global
    _global = Generator(s)


def rand(*shape: int) -> Tensor:
    return _global.random(shape)


def randn(*shape: int) -> Tensor:
    return _global.standard_normal(shape)


def random(size: Any = None) -> Tensor:
    return _global.random(size)


def normal(loc: float = 0.0, scale: float = 1.0, size: Any = None) -> Tensor:
    return _global.normal(loc, scale, size)


def uniform(low: float = 0.0, high: float = 1.0, size: Any = None) -> Tensor:
    return _global.uniform(low, high, size)


def integers(low: int, high: int | None = None, size: Any = None, dtype: Any = np.int64) -> Tensor:
    return _global.integers(low, high, size, dtype=dtype)
