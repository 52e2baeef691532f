"""Seeded random tensors (``lt.random``), with NumPy's values.

Two sources, as in NumPy:

* ``lt.random.default_rng(seed)`` returns a ``Generator`` that draws exactly
  what ``np.random.default_rng(seed)`` draws (PCG64), call for call: it holds
  one and delegates to it.  ``seed`` may be anything NumPy's takes: an int, a
  ``SeedSequence``, a bit generator (``lt.random.PCG64(5)``, ...: NumPy's
  classes, re-exported) or a NumPy ``Generator``.
* The module's functions named like NumPy's legacy ones (``seed``, ``rand``,
  ``randn``, ``randint``, ``random_sample``, ``choice``, ``shuffle``,
  ``permutation``, ``normal``, ``chisquare``, ...) draw what
  ``np.random.seed(s)`` then the same ``np.random`` calls draw (the MT19937
  ``RandomState``, or the bit generator ``set_bit_generator`` gave it): they
  are the methods of one module-level ``RandomState``, as NumPy's are.
  (They never touch NumPy's own global state.)

Every distribution has NumPy's signature (names, order, defaults, ``size=``,
``dtype=`` and ``out=`` where NumPy has them) and NumPy's values, dtype,
shape, broadcasting of array parameters and errors: NumPy draws them.  Most
methods are declared by their signature alone (``@_numpys``): the method
passes its arguments, tensors evaluated, to NumPy's method of the same name
and wraps what it returns.

Random draws are made when the tensor is created and enter the graph as
inputs.  Drawing lazily would let two identical draw nodes be merged as
common subexpressions, giving equal "random" tensors; drawing eagerly keeps
every tensor a distinct, reproducible sample, in the order of the calls.
(NumPy's errors for bad parameters are so raised on the line of the call.)

``shuffle`` works in place as NumPy's does: an ndarray or a list given to it
is shuffled (NumPy writes it); a tensor gets a new version, as ``t[...] = v``
writes it (through views to their root; the user array it wraps is not
written, as no write to a tensor writes one).  ``out=`` likewise: NumPy
writes an ndarray given as ``out``; a tensor gets the draw as a new version.

>>> import lazyten as lt
>>> lt.random.default_rng(0).random(3).eval()  # np.random.default_rng(0).random(3)
array([0.63696169, 0.26978671, 0.04097352])
>>> lt.random.Generator(lt.random.PCG64(0)).random(3).eval()    # the same stream
array([0.63696169, 0.26978671, 0.04097352])
>>> lt.random.seed(0)
>>> lt.random.rand(3).eval()            # np.random.seed(0); np.random.rand(3)
array([0.5488135 , 0.71518937, 0.60276338])
"""

# The stubs' empty bodies are never run: ``@_numpys`` replaces them.
# mypy: disable-error-code="empty-body"

from __future__ import annotations

import builtins
import functools
import inspect
import threading
import warnings
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

import numpy as np

from .creation import asarray
from .tensor import Tensor, values_now

# NumPy's seeds and bit generators, as they are: a Generator is made from
# any of them (``lt.random.Generator(lt.random.PCG64(5))``).
SeedSequence = np.random.SeedSequence
BitGenerator = np.random.BitGenerator
MT19937, PCG64, PCG64DXSM = np.random.MT19937, np.random.PCG64, np.random.PCG64DXSM
Philox, SFC64 = np.random.Philox, np.random.SFC64

# NumPy's ``np.random.__all__`` (plus ``integers``); ``get_bit_generator``
# and ``set_bit_generator`` are, as in NumPy, public names left out of it.
__all__ = ["BitGenerator", "Generator", "MT19937", "PCG64", "PCG64DXSM", "Philox",
           "RandomState", "SFC64", "SeedSequence", "beta", "binomial", "bytes", "chisquare",
           "choice", "default_rng", "dirichlet", "exponential", "f", "gamma", "geometric",
           "get_state", "gumbel", "hypergeometric", "integers", "laplace", "logistic",
           "lognormal", "logseries", "multinomial", "multivariate_normal", "negative_binomial",
           "noncentral_chisquare", "noncentral_f", "normal", "pareto", "permutation", "poisson",
           "power", "rand", "randint", "randn", "random", "random_integers", "random_sample",
           "ranf", "rayleigh", "sample", "seed", "set_state", "shuffle", "standard_cauchy",
           "standard_exponential", "standard_gamma", "standard_normal", "standard_t",
           "triangular", "uniform", "vonmises", "wald", "weibull", "zipf"]


def _plain(x: Any) -> Any:
    """A tensor argument as its value: NumPy's draws read arrays."""
    return x.eval() if isinstance(x, Tensor) else x


_P = ParamSpec("_P")
_S = TypeVar("_S", bound="_Source")


def _numpys(stub: Callable[Concatenate[_S, _P], Tensor]) -> Callable[Concatenate[_S, _P], Tensor]:
    """The method that ``stub`` declares, drawing with NumPy's method of the
    same name: the arguments go to it as given (tensors evaluated), so NumPy
    binds them, broadcasts them, checks them and draws; the result is a
    tensor over the array it returns.  ``stub``'s signature is NumPy's
    (tests compare them), for readers, ``inspect`` and type checkers; its
    body is never run.

    An ``out=`` tensor (NumPy writes an ``out`` ndarray, and so it is here):
    NumPy draws into a copy of its value, which becomes the tensor's new
    version; the tensor is returned, as NumPy returns ``out``.
    """
    name = stub.__name__
    signature = inspect.signature(stub)
    takes_out = "out" in signature.parameters

    @functools.wraps(stub)
    def draw(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> Tensor:
        if takes_out:
            bound = signature.bind(self, *args, **kwargs)
            out = bound.arguments.get("out")
            if isinstance(out, Tensor):
                value = out.eval()    # (a new array; NumPy checks its shape and dtype)
                bound.arguments["out"] = value
                self._call(name, *bound.args[1:], **bound.kwargs)
                out[...] = value
                return out
        return self._draw(name, *args, **kwargs)

    if not draw.__doc__:
        draw.__doc__ = f"NumPy's ``{name}``: its parameters and values, as a tensor."
    return draw


class _Source:
    """What ``numpy.random.Generator`` and ``RandomState`` share: each method
    draws from the NumPy object held in ``_np`` and returns a tensor."""

    def __init__(self, source: Any) -> None:
        self._np = source
        self._lock = threading.Lock()  # NumPy's sources are not thread-safe

    def __repr__(self) -> str:
        return repr(self._np)          # (NumPy's, e.g. "Generator(PCG64) at 0x...")

    def _call(self, name: str, /, *args: Any, **kwargs: Any) -> Any:
        got = values_now(*args, *kwargs.values())      # (one plan for all of them)
        args, kwargs = tuple(got[:len(args)]), dict(zip(kwargs, got[len(args):]))
        with self._lock:
            return getattr(self._np, name)(*args, **kwargs)

    def _draw(self, name: str, /, *args: Any, **kwargs: Any) -> Tensor:
        # (a new array NumPy made for this draw, or the ``out`` ndarray it
        # wrote: wrapped without a copy)
        return asarray(np.asarray(self._call(name, *args, **kwargs)))

    def _shuffle(self, x: Any, **kwargs: Any) -> None:
        if not isinstance(x, Tensor):
            self._call("shuffle", x, **kwargs)   # NumPy writes the array or list it is given
            return
        value = x.eval()                         # (a new array, ours to shuffle)
        self._call("shuffle", value, **kwargs)
        x[...] = value

    def shuffle(self, x: Any) -> None:
        self._shuffle(x)

    def bytes(self, length: int) -> builtins.bytes:
        """Random bytes (NumPy's ``bytes``: a ``bytes`` object, not a tensor)."""
        result: builtins.bytes = self._call("bytes", length)
        return result

    # -- sampling (Generator adds axis=, shuffle=) ---------------------------
    @_numpys
    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Tensor: ...
    @_numpys
    def permutation(self, x: Any) -> Tensor: ...

    # -- continuous distributions (NumPy's order of parameters) --------------
    @_numpys
    def beta(self, a: Any, b: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def chisquare(self, df: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def dirichlet(self, alpha: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def exponential(self, scale: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def f(self, dfnum: Any, dfden: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def gumbel(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None,
                            check_valid: str = "warn", tol: float = 1e-8) -> Tensor: ...
    @_numpys
    def noncentral_chisquare(self, df: Any, nonc: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def noncentral_f(self, dfnum: Any, dfden: Any, nonc: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def pareto(self, a: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def power(self, a: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def rayleigh(self, scale: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def standard_cauchy(self, size: Any = None) -> Tensor: ...
    @_numpys
    def standard_exponential(self, size: Any = None) -> Tensor: ...
    @_numpys
    def standard_gamma(self, shape: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def standard_normal(self, size: Any = None) -> Tensor: ...
    @_numpys
    def standard_t(self, df: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def triangular(self, left: Any, mode: Any, right: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def vonmises(self, mu: Any, kappa: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def wald(self, mean: Any, scale: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def weibull(self, a: Any, size: Any = None) -> Tensor: ...

    # -- discrete distributions (int64) --------------------------------------
    @_numpys
    def binomial(self, n: Any, p: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def geometric(self, p: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def hypergeometric(self, ngood: Any, nbad: Any, nsample: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def logseries(self, p: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def multinomial(self, n: Any, pvals: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def negative_binomial(self, n: Any, p: Any, size: Any = None) -> Tensor: ...
    @_numpys
    def poisson(self, lam: Any = 1.0, size: Any = None) -> Tensor: ...
    @_numpys
    def zipf(self, a: Any, size: Any = None) -> Tensor: ...


class Generator(_Source):
    """A seeded source of random tensors: ``numpy.random.Generator``'s
    methods and values (it holds ``np.random.default_rng(seed)``; ``seed``
    is anything that takes: an int, a ``SeedSequence``, a ``BitGenerator``
    such as ``lt.random.PCG64(5)``, or a NumPy ``Generator``)."""

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

    def shuffle(self, x: Any, axis: int = 0) -> None:
        self._shuffle(x, axis=axis)

    @_numpys
    def random(self, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Tensor: ...
    @_numpys
    def standard_normal(self, size: Any = None, dtype: Any = np.float64,
                        out: Any = None) -> Tensor: ...
    @_numpys
    def standard_exponential(self, size: Any = None, dtype: Any = np.float64,
                             method: str = "zig", out: Any = None) -> Tensor: ...
    @_numpys
    def standard_gamma(self, shape: Any, size: Any = None, dtype: Any = np.float64,
                       out: Any = None) -> Tensor: ...
    @_numpys
    def integers(self, low: Any, high: Any = None, size: Any = None,
                 dtype: Any = np.int64, endpoint: bool = False) -> Tensor: ...
    @_numpys
    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None,
                            check_valid: str = "warn", tol: float = 1e-8, *,
                            method: str = "svd") -> Tensor: ...
    @_numpys
    def multivariate_hypergeometric(self, colors: Any, nsample: Any, size: Any = None,
                                    method: str = "marginals") -> Tensor: ...
    @_numpys
    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True) -> Tensor: ...
    @_numpys
    def permutation(self, x: Any, axis: int = 0) -> Tensor: ...
    @_numpys
    def permuted(self, x: Any, *, axis: int | None = None, out: Any = None) -> Tensor:
        """``x`` with each slice along ``axis`` shuffled on its own (NumPy's
        ``permuted``).  ``out``: NumPy writes an ndarray and returns it (here:
        a tensor over it); a tensor gets the result as a new version, and is
        returned."""


class RandomState(_Source):
    """NumPy's legacy ``RandomState`` (MT19937, or the bit generator given
    as ``seed``) as a source of tensors: the values
    ``np.random.RandomState(seed)`` draws."""

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

    @_numpys
    def rand(self, *args: int) -> Tensor: ...
    @_numpys
    def randn(self, *args: int) -> Tensor: ...
    @_numpys
    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Tensor: ...
    @_numpys
    def random_sample(self, size: Any = None) -> Tensor: ...
    @_numpys
    def tomaxint(self, size: Any = None) -> Tensor: ...

    random = random_sample                       # (NumPy's other name of it)

    def random_integers(self, low: Any, high: Any = None, size: Any = None) -> Tensor:
        """NumPy's deprecated ``random_integers``: integers in [low, high]
        (``high=None``: [1, low]), int64, with NumPy's ``DeprecationWarning``
        (on the caller's line, as NumPy's) and values: NumPy's own steps."""
        low, high = _plain(low), _plain(high)
        if high is None:
            call = f"randint(1, {low} + 1)"
            low, high = 1, low
        else:
            call = f"randint({low}, {high} + 1)"
        warnings.warn(f"This function is deprecated. Please call {call} instead",
                      DeprecationWarning, stacklevel=2)
        return self.randint(low, int(high) + 1, size=size, dtype="l")


def default_rng(seed: Any = None) -> Generator:
    """A ``Generator`` with ``np.random.default_rng(seed)``'s values (a
    ``Generator`` is returned as it is, as NumPy's is; a ``SeedSequence``, a
    bit generator or a NumPy ``Generator`` is taken as NumPy's takes it)."""
    return seed if isinstance(seed, Generator) else Generator(seed)


# The module's legacy functions: the bound methods of one RandomState, as
# NumPy's module functions are those of its global one.
_legacy = RandomState()
get_state, set_state = _legacy.get_state, _legacy.set_state
rand, randn, randint = _legacy.rand, _legacy.randn, _legacy.randint
random_sample = random = ranf = sample = _legacy.random_sample
random_integers = _legacy.random_integers
choice, shuffle, permutation = _legacy.choice, _legacy.shuffle, _legacy.permutation
multivariate_normal, bytes = _legacy.multivariate_normal, _legacy.bytes
beta, chisquare, dirichlet = _legacy.beta, _legacy.chisquare, _legacy.dirichlet
exponential, f, gamma = _legacy.exponential, _legacy.f, _legacy.gamma
gumbel, laplace, logistic = _legacy.gumbel, _legacy.laplace, _legacy.logistic
lognormal, normal, uniform = _legacy.lognormal, _legacy.normal, _legacy.uniform
noncentral_chisquare, noncentral_f = _legacy.noncentral_chisquare, _legacy.noncentral_f
pareto, power, rayleigh = _legacy.pareto, _legacy.power, _legacy.rayleigh
standard_cauchy, standard_exponential = _legacy.standard_cauchy, _legacy.standard_exponential
standard_gamma, standard_normal = _legacy.standard_gamma, _legacy.standard_normal
standard_t, triangular, vonmises = _legacy.standard_t, _legacy.triangular, _legacy.vonmises
wald, weibull = _legacy.wald, _legacy.weibull
binomial, geometric, hypergeometric = _legacy.binomial, _legacy.geometric, _legacy.hypergeometric
logseries, multinomial = _legacy.logseries, _legacy.multinomial
negative_binomial, poisson, zipf = _legacy.negative_binomial, _legacy.poisson, _legacy.zipf

# A Generator for what NumPy's module has no legacy name of: ``integers``
# and gorgonia's ``Random`` (lazyten/gorgonia.py reads ``_global``); ``seed``
# reseeds it too, so those stay reproducible under ``lt.random.seed``.
_global = Generator()


def seed(seed: Any = None) -> None:
    """NumPy's ``np.random.seed``: the module's functions then draw NumPy's
    values for ``seed`` (``integers``: ``default_rng(seed)``'s).  After
    ``set_bit_generator`` with another kind than MT19937, that bit generator
    gets the state of a new one seeded with ``seed``, as NumPy's does."""
    global _global
    bits = get_bit_generator()
    if isinstance(bits, MT19937):
        _legacy.seed(seed)
    else:
        with _legacy._lock:
            bits.state = type(bits)(_plain(seed)).state
    _global = Generator(seed)


def get_bit_generator() -> np.random.BitGenerator:
    """The bit generator under the module's legacy functions (NumPy's
    ``np.random.get_bit_generator``; lazyten's, not NumPy's global one)."""
    bits: np.random.BitGenerator = _legacy._np._bit_generator
    return bits


def set_bit_generator(bitgen: np.random.BitGenerator) -> None:
    """Make the module's legacy functions draw from ``bitgen`` (NumPy's
    ``np.random.set_bit_generator``), which they then advance.  What is not
    a bit generator raises NumPy's ``AttributeError``, before any change."""
    bitgen.capsule                   # noqa: B018 - NumPy's check (and error)
    state = np.random.RandomState(bitgen)
    with _legacy._lock:
        _legacy._np = state


def integers(low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64,
             endpoint: bool = False) -> Tensor:
    """``Generator.integers`` (NumPy's module has no such function; its
    legacy ``randint`` is ``lt.random.randint``)."""
    return _global.integers(low, high, size, dtype=dtype, endpoint=endpoint)
