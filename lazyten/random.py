"""Seeded random tensors (``lt.random``), with NumPy's values.

Two sources, as in NumPy:

* ``lt.random.default_rng(seed)`` returns a ``Generator`` that draws exactly
  what ``np.random.default_rng(seed)`` draws (PCG64), call for call: it holds
  one and delegates to it.
* The module's functions named like NumPy's legacy ones (``seed``, ``rand``,
  ``randn``, ``randint``, ``random_sample``, ``choice``, ``shuffle``,
  ``permutation``, ``normal``, ...) draw what ``np.random.seed(s)`` then the
  same ``np.random`` calls draw (the MT19937 ``RandomState``): they are the
  methods of one module-level ``RandomState``, as NumPy's are.  (They never
  touch NumPy's own global state.)

Random draws are made when the tensor is created and enter the graph as
inputs.  Drawing lazily would let two identical draw nodes be merged as
common subexpressions, giving equal "random" tensors; drawing eagerly keeps
every tensor a distinct, reproducible sample, in the order of the calls.

``shuffle`` works in place as NumPy's does: an ndarray or a list given to it
is shuffled (NumPy writes it); a tensor gets a new version, as ``t[...] = v``
writes it (through views to their root; the user array it wraps is not
written, as no write to a tensor writes one).

>>> import lazyten as lt
>>> lt.random.default_rng(0).random(3).eval()  # np.random.default_rng(0).random(3)
array([0.63696169, 0.26978671, 0.04097352])
>>> lt.random.seed(0)
>>> lt.random.rand(3).eval()            # np.random.seed(0); np.random.rand(3)
array([0.5488135 , 0.71518937, 0.60276338])
"""

from __future__ import annotations

import builtins
import threading
from typing import Any

import numpy as np

from .creation import asarray
from .tensor import Tensor

__all__ = ["Generator", "RandomState", "beta", "binomial", "bytes", "choice", "default_rng",
           "exponential", "gamma", "get_state", "integers", "lognormal", "multivariate_normal",
           "normal", "permutation", "poisson", "rand", "randint", "randn", "random",
           "random_sample", "ranf", "sample", "seed", "set_state", "shuffle", "standard_normal",
           "uniform"]


def _plain(x: Any) -> Any:
    """A tensor argument as its value: NumPy's draws read arrays."""
    return x.eval() if isinstance(x, Tensor) else x


class _Source:
    """What ``numpy.random.Generator`` and ``RandomState`` share: each method
    draws from the NumPy object held in ``_np`` and returns a tensor."""

    def __init__(self, source: Any) -> None:
        self._np = source
        self._lock = threading.Lock()  # NumPy's sources are not thread-safe

    def __repr__(self) -> str:
        return repr(self._np)          # (NumPy's, e.g. "Generator(PCG64) at 0x...")

    def _call(self, name: str, /, *args: Any, **kwargs: Any) -> Any:
        args = tuple(_plain(a) for a in args)
        kwargs = {k: _plain(v) for k, v in kwargs.items()}
        with self._lock:
            return getattr(self._np, name)(*args, **kwargs)

    def _draw(self, name: str, /, *args: Any, **kwargs: Any) -> Tensor:
        # (a new array NumPy made for this draw: wrapped without a copy)
        return asarray(np.asarray(self._call(name, *args, **kwargs)))

    def _shuffle(self, x: Any, **kwargs: Any) -> None:
        if not isinstance(x, Tensor):
            self._call("shuffle", x, **kwargs)   # NumPy writes the array or list it is given
            return
        value = x.eval()                         # (a new array, ours to shuffle)
        self._call("shuffle", value, **kwargs)
        x[...] = value

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Tensor:
        return self._draw("normal", loc, scale, size)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Tensor:
        return self._draw("uniform", low, high, size)

    def standard_normal(self, size: Any = None) -> Tensor:
        return self._draw("standard_normal", size)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Tensor:
        return self._draw("exponential", scale, size)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Tensor:
        return self._draw("poisson", lam, size)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Tensor:
        return self._draw("binomial", n, p, size)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Tensor:
        return self._draw("gamma", shape, scale, size)

    def beta(self, a: Any, b: Any, size: Any = None) -> Tensor:
        return self._draw("beta", a, b, size)

    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None) -> Tensor:
        return self._draw("lognormal", mean, sigma, size)

    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None,
                            check_valid: str = "warn", tol: float = 1e-8) -> Tensor:
        return self._draw("multivariate_normal", mean, cov, size, check_valid, tol)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Tensor:
        return self._draw("choice", a, size, replace, p)

    def permutation(self, x: Any) -> Tensor:
        return self._draw("permutation", x)

    def shuffle(self, x: Any) -> None:
        self._shuffle(x)

    def bytes(self, length: int) -> builtins.bytes:
        """Random bytes (NumPy's ``bytes``: a ``bytes`` object, not a tensor)."""
        result: builtins.bytes = self._call("bytes", length)
        return result


class Generator(_Source):
    """A seeded source of random tensors: ``numpy.random.Generator``'s
    methods and values (it holds ``np.random.default_rng(seed)``; ``seed``
    is anything that takes, a ``BitGenerator`` or a NumPy ``Generator`` too)."""

    def __init__(self, seed: Any = None) -> None:
        super().__init__(np.random.default_rng(_plain(seed)))

    @property
    def bit_generator(self) -> np.random.BitGenerator:
        """The NumPy bit generator whose state this generator advances."""
        bits: np.random.BitGenerator = self._np.bit_generator
        return bits

    def spawn(self, n_children: int) -> list[Generator]:
        """``n_children`` independent generators, NumPy's children of this one."""
        return [Generator(child) for child in self._call("spawn", n_children)]

    def random(self, size: Any = None, dtype: Any = np.float64) -> Tensor:
        return self._draw("random", size, dtype=dtype)

    def standard_normal(self, size: Any = None, dtype: Any = np.float64) -> Tensor:
        return self._draw("standard_normal", size, dtype=dtype)

    def integers(self, low: Any, high: Any = None, size: Any = None,
                 dtype: Any = np.int64, endpoint: bool = False) -> Tensor:
        return self._draw("integers", low, high, size, dtype=dtype, endpoint=endpoint)

    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None,
                            check_valid: str = "warn", tol: float = 1e-8, *,
                            method: str = "svd") -> Tensor:
        return self._draw("multivariate_normal", mean, cov, size, check_valid, tol,
                          method=method)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True) -> Tensor:
        return self._draw("choice", a, size, replace, p, axis, shuffle)

    def permutation(self, x: Any, axis: int = 0) -> Tensor:
        return self._draw("permutation", x, axis=axis)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        self._shuffle(x, axis=axis)

    def permuted(self, x: Any, *, axis: int | None = None, out: Any = None) -> Tensor:
        """``x`` with each slice along ``axis`` shuffled on its own (NumPy's
        ``permuted``).  ``out``: NumPy writes an ndarray and returns it (here:
        a tensor over it); a tensor gets the result as a new version, and is
        returned."""
        if not isinstance(out, Tensor):
            return self._draw("permuted", x, axis=axis, out=out)
        value = out.eval()            # (NumPy checks its shape and casts x into it)
        self._call("permuted", x, axis=axis, out=value)
        out[...] = value
        return out


class RandomState(_Source):
    """NumPy's legacy ``RandomState`` (MT19937) as a source of tensors: the
    values ``np.random.RandomState(seed)`` draws."""

    def __init__(self, seed: Any = None) -> None:
        super().__init__(np.random.RandomState(_plain(seed)))

    def seed(self, seed: Any = None) -> None:
        """Reseed in place (NumPy's ``seed``: an int below 2**32, an array of
        them, or None for fresh entropy)."""
        self._call("seed", seed)

    def get_state(self, legacy: bool = True) -> Any:
        return self._call("get_state", legacy)

    def set_state(self, state: Any) -> None:
        self._call("set_state", state)

    def rand(self, *shape: int) -> Tensor:
        return self._draw("rand", *shape)

    def randn(self, *shape: int) -> Tensor:
        return self._draw("randn", *shape)

    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Tensor:
        return self._draw("randint", low, high, size, dtype)

    def random_sample(self, size: Any = None) -> Tensor:
        return self._draw("random_sample", size)

    random = random_sample                       # (NumPy's other name of it)


def default_rng(seed: Any = None) -> Generator:
    """A ``Generator`` with ``np.random.default_rng(seed)``'s values (a
    ``Generator`` is returned as it is, as NumPy's is)."""
    return seed if isinstance(seed, Generator) else Generator(seed)


# The module's legacy functions: the bound methods of one RandomState, as
# NumPy's module functions are those of its global one.
_legacy = RandomState()
get_state, set_state = _legacy.get_state, _legacy.set_state
rand, randn, randint = _legacy.rand, _legacy.randn, _legacy.randint
random_sample = random = ranf = sample = _legacy.random_sample
choice, shuffle, permutation = _legacy.choice, _legacy.shuffle, _legacy.permutation
normal, uniform, standard_normal = _legacy.normal, _legacy.uniform, _legacy.standard_normal
exponential, poisson, binomial = _legacy.exponential, _legacy.poisson, _legacy.binomial
gamma, beta, lognormal = _legacy.gamma, _legacy.beta, _legacy.lognormal
multivariate_normal, bytes = _legacy.multivariate_normal, _legacy.bytes

# A Generator for what NumPy's module has no legacy name of: ``integers``
# and gorgonia's ``Random`` (lazyten/gorgonia.py reads ``_global``); ``seed``
# reseeds it too, so those stay reproducible under ``lt.random.seed``.
_global = Generator()


def seed(seed: Any = None) -> None:
    """NumPy's ``np.random.seed``: the module's functions then draw NumPy's
    values for ``seed`` (``integers``: ``default_rng(seed)``'s)."""
    global _global
    _legacy.seed(seed)
    _global = Generator(seed)


def integers(low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64,
             endpoint: bool = False) -> Tensor:
    """``Generator.integers`` (NumPy's module has no such function; its
    legacy ``randint`` is ``lt.random.randint``)."""
    return _global.integers(low, high, size, dtype=dtype, endpoint=endpoint)
