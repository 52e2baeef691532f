"""``lt.random``'s distributions, seeds and bit generators against NumPy's:
every distribution of ``Generator``, ``RandomState`` and the module draws
NumPy's values under the same seed, bit for bit, with NumPy's dtype and
shape, scalar and broadcast array parameters (tensors too), ``size=``,
``dtype=`` and ``out=``; NumPy's signatures and NumPy's errors."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.test_random import _lazy_args, _same
from tests.util import public_type

A = np.array

Call = tuple[str, tuple[Any, ...], dict[str, Any]]

# (method, args, kwargs): called the same way on a Generator, a RandomState
# and the module (each seeded 42, as its NumPy reference).  Array parameters
# broadcast against each other and against ``size``.
SHARED_CALLS: list[Call] = [
    ("chisquare", (3.0, 4), {}),
    ("chisquare", (A([1.0, 5.0, 10.0]),), {}),
    ("chisquare", (A([1.0, 2.0]),), {"size": (3, 2)}),
    ("dirichlet", ([0.5, 1.0, 2.0], 3), {}),
    ("dirichlet", (A([1.0, 2.0]),), {}),
    ("f", (2.0, 3.0, (2, 2)), {}),
    ("f", (A([1.0, 2.0]), A([[3.0], [4.0], [5.0]])), {}),
    ("geometric", (0.3, 5), {}),
    ("geometric", (A([0.2, 0.9]),), {"size": (3, 2)}),
    ("gumbel", (), {"size": 3}),
    ("gumbel", (A([0.0, 1.0]), 2.0), {}),
    ("hypergeometric", (10, 5, 7, 4), {}),
    ("hypergeometric", (A([10, 20]), 5, A([[3], [6]])), {}),
    ("laplace", (1.0, 2.0, 3), {}),
    ("laplace", (A([0.0, 1.0]), A([[1.0], [2.0]])), {}),
    ("logistic", (), {}),
    ("logistic", (A([0.0, 1.0]), A([[1.0], [2.0]]), (3, 2, 2)), {}),
    ("logseries", (0.6, 4), {}),
    ("logseries", (A([0.1, 0.9]),), {}),
    ("multinomial", (10, [0.2, 0.3, 0.5], 2), {}),
    ("multinomial", (7, A([0.5, 0.5])), {"size": (2, 3)}),
    ("negative_binomial", (5, 0.5, 4), {}),
    ("negative_binomial", (A([1.0, 5.5]), A([[0.3], [0.7]])), {}),
    ("noncentral_chisquare", (3.0, 2.0, 3), {}),
    ("noncentral_chisquare", (A([1.0, 4.0]), A([[0.0], [1.5]])), {}),
    ("noncentral_f", (3.0, 20.0, 3.0, 3), {}),
    ("noncentral_f", (A([3.0, 5.0]), 20.0, A([[0.0], [3.0]])), {}),
    ("pareto", (3.0, 4), {}),
    ("pareto", (A([1.0, 5.0]), (2, 2)), {}),
    ("power", (3.0, 4), {}),
    ("power", (A([0.5, 5.0]),), {}),
    ("rayleigh", (), {"size": 3}),
    ("rayleigh", (A([1.0, 2.0]),), {}),
    ("standard_cauchy", (), {}),
    ("standard_cauchy", ((2, 2),), {}),
    ("standard_exponential", (3,), {}),
    ("standard_exponential", (), {}),
    ("standard_gamma", (2.0, 3), {}),
    ("standard_gamma", (A([0.5, 1.0, 4.0]),), {}),
    ("standard_t", (5.0, 3), {}),
    ("standard_t", (A([1.0, 30.0]), (3, 2)), {}),
    ("triangular", (0.0, 1.0, 3.0, 4), {}),
    ("triangular", (A([0.0, 1.0]), A([1.0, 2.0]), A([[3.0], [4.0]])), {}),
    ("vonmises", (0.0, 4.0, 3), {}),
    ("vonmises", (A([0.0, 1.0]), A([[1e-9], [0.5], [8.0]])), {}),
    ("wald", (3.0, 2.0, 3), {}),
    ("wald", (A([1.0, 3.0]), A([[0.5], [2.0]])), {}),
    ("weibull", (5.0, 3), {}),
    ("weibull", (A([0.5, 2.0]),), {}),
    ("zipf", (2.0, 4), {}),
    ("zipf", (A([1.5, 3.0]), (2, 2)), {}),
    # NumPy's keywords, in any order
    ("noncentral_f", (), {"nonc": 1.0, "dfden": 5.0, "dfnum": 2.0, "size": 2}),
]

GENERATOR_CALLS: list[Call] = [
    ("standard_exponential", (3,), {"dtype": np.float32}),
    ("standard_exponential", (3,), {"method": "inv"}),
    ("standard_exponential", ((2, 2), np.float32, "inv"), {}),
    ("standard_gamma", (A([1.0, 2.0]),), {"dtype": np.float32}),
    ("standard_gamma", (2.0, (2, 2), np.float32), {}),
    ("standard_gamma", (0.5,), {}),
    ("multinomial", (A([5, 10]), A([0.5, 0.5])), {}),
    ("multinomial", (A([[5], [10]]), A([[0.2, 0.8], [0.5, 0.5], [1.0, 0.0]])), {}),
    ("multivariate_hypergeometric", ([3, 5, 2], 4), {}),
    ("multivariate_hypergeometric", (A([3, 5, 2]), 4, (2, 3)), {}),
    ("multivariate_hypergeometric", ([3, 5, 2], 4, 3), {"method": "count"}),
    ("random", (3,), {"dtype": np.float32}),
]

RANDOM_STATE_CALLS: list[Call] = [
    ("tomaxint", (3,), {}),
    ("tomaxint", ((2, 2),), {}),
    ("tomaxint", (), {}),
]


def _ids(calls: list[Call]) -> list[str]:
    return [f"{m}-{i}" for i, (m, _, _) in enumerate(calls)]


def _sources(kind: str) -> tuple[Any, Any]:
    """(lazyten's, NumPy's), seeded alike."""
    if kind == "generator":
        return lt.random.default_rng(42), np.random.default_rng(42)
    if kind == "random_state":
        return lt.random.RandomState(42), np.random.RandomState(42)
    lt.random.seed(42)                       # the module: np.random.seed(42)'s RandomState
    return lt.random, np.random.RandomState(42)


def _draws_alike(kind: str, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    mine, ref = _sources(kind)
    for _ in range(2):                       # and the stream after the first draw
        _same(getattr(mine, method)(*args, **kwargs), getattr(ref, method)(*args, **kwargs))
    # tensor parameters (lazy: evaluated when drawn), and tensor keywords
    lazy_kwargs = dict(zip(kwargs, _lazy_args(tuple(kwargs.values()))))
    _same(getattr(mine, method)(*_lazy_args(args), **lazy_kwargs),
          getattr(ref, method)(*args, **kwargs))


@pytest.mark.parametrize("kind", ["generator", "random_state", "module"])
@pytest.mark.parametrize("method,args,kwargs", SHARED_CALLS, ids=_ids(SHARED_CALLS))
def test_distributions_draw_numpys_values(kind: str, method: str, args: tuple[Any, ...],
                                          kwargs: dict[str, Any]) -> None:
    _draws_alike(kind, method, args, kwargs)


@pytest.mark.parametrize("method,args,kwargs", GENERATOR_CALLS, ids=_ids(GENERATOR_CALLS))
def test_generator_only_draws(method: str, args: tuple[Any, ...],
                              kwargs: dict[str, Any]) -> None:
    _draws_alike("generator", method, args, kwargs)


@pytest.mark.parametrize("method,args,kwargs", RANDOM_STATE_CALLS, ids=_ids(RANDOM_STATE_CALLS))
def test_random_state_only_draws(method: str, args: tuple[Any, ...],
                                 kwargs: dict[str, Any]) -> None:
    _draws_alike("random_state", method, args, kwargs)


def test_draws_under_the_engines(engine: Any) -> None:
    """A draw is an input of the graph: used in expressions, under either
    engine, it is the value NumPy drew."""
    g, ref = lt.random.default_rng(1), np.random.default_rng(1)
    x, y = g.gumbel(A([0.0, 1.0]), 2.0, (3, 2)), g.zipf(2.0, (3, 2))
    wx, wy = ref.gumbel(A([0.0, 1.0]), 2.0, (3, 2)), ref.zipf(2.0, (3, 2))
    _same(x * 2 + y, wx * 2 + wy)


# -- out= ---------------------------------------------------------------------

OUT_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("random", (), {}),
    ("random", ((2, 3),), {}),
    ("standard_normal", (), {}),
    ("standard_exponential", (), {"method": "inv"}),
    ("standard_gamma", (A([[0.5], [2.0]]),), {}),
    ("permuted", (np.arange(6.0).reshape(2, 3),), {"axis": 1}),
]


@pytest.mark.parametrize("method,args,kwargs", OUT_CALLS, ids=_ids(OUT_CALLS))
def test_out_is_written_as_numpy_writes_it(engine: Any, method: str, args: tuple[Any, ...],
                                           kwargs: dict[str, Any]) -> None:
    want = np.zeros((2, 3))
    assert getattr(np.random.default_rng(7), method)(*args, out=want, **kwargs) is want
    g = lt.random.default_rng(7)
    mine = np.zeros((2, 3))
    _same(getattr(g, method)(*args, out=mine, **kwargs), want)
    np.testing.assert_array_equal(mine, want)            # the ndarray, written
    # a tensor: its new version, and the tensor is returned; a graph built
    # on it before keeps the old value
    g, ref = lt.random.default_rng(7), np.random.default_rng(7)
    out = lt.zeros((2, 3))
    before = out + 1
    assert getattr(g, method)(*args, out=out, **kwargs) is out
    _same(out, getattr(ref, method)(*args, out=np.zeros((2, 3)), **kwargs))
    _same(before, np.ones((2, 3)))
    # float32 where the dtype says so
    if "dtype" in inspect.signature(getattr(np.random.Generator, method)).parameters:
        want32 = getattr(np.random.default_rng(7), method)(
            *args, dtype=np.float32, out=np.zeros((2, 3), np.float32), **kwargs)
        out = lt.zeros((2, 3), dtype=np.float32)
        _same(getattr(lt.random.default_rng(7), method)(*args, dtype=np.float32, out=out,
                                                        **kwargs), want32)


# -- random_integers (deprecated) --------------------------------------------------

def test_random_integers_warns_and_draws_as_numpy() -> None:
    """NumPy 2 still has it, deprecated: its warning (on the caller's line)
    and its values (``randint(low, high + 1, dtype='l')``)."""
    lt.random.seed(5)
    for mine, ref in ((lt.random.RandomState(5), np.random.RandomState(5)),
                      (lt.random, np.random.RandomState(5))):
        for args in ((5,), (1, 5), (-3, 4, (2, 3)), (A([1, 2]), 9)):
            with pytest.warns(DeprecationWarning) as got:
                value = mine.random_integers(*args)
            with pytest.warns(DeprecationWarning) as wanted:
                want = ref.random_integers(*args)
            assert str(got[0].message) == str(wanted[0].message)
            assert got[0].filename == __file__            # the caller's line, as NumPy's
            _same(value, want)
    with pytest.warns(DeprecationWarning, match=r"randint\(2, 7 \+ 1\)"):
        _same(lt.random.RandomState(1).random_integers(lt.asarray(2), lt.asarray(7), 3),
              np.random.RandomState(1).randint(2, 8, 3))


# -- signatures ----------------------------------------------------------------------

def _params(fn: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("mine,theirs", [(lt.random.Generator, np.random.Generator),
                                         (lt.random.RandomState, np.random.RandomState)])
def test_methods_have_numpys_signatures(mine: type, theirs: type) -> None:
    for name in dir(theirs):
        if name.startswith("_"):
            continue
        assert hasattr(mine, name), name
        if name == "bit_generator":
            continue                                     # (a property, in both)
        assert _params(getattr(mine, name)) == _params(getattr(theirs, name)), name


def test_module_has_numpys_names_and_signatures() -> None:
    for name in [*np.random.__all__, "get_bit_generator", "set_bit_generator"]:
        assert hasattr(lt.random, name), name
        theirs = getattr(np.random, name)
        if isinstance(theirs, type) or name in ("ranf", "sample"):   # ((*args, **kwargs))
            continue
        assert _params(getattr(lt.random, name)) == _params(theirs), name
    assert set(np.random.__all__) <= set(lt.random.__all__)
    for name in lt.random.__all__:
        assert hasattr(lt.random, name), name


# -- errors ----------------------------------------------------------------------------

def _raises_alike(np_fn: Callable[[], Any], lt_fn: Callable[[], Any]) -> None:
    """NumPy raises (the case is an error), and lazyten raises the same
    (public) type, at the call."""
    with pytest.raises(Exception) as theirs:  # noqa: B017, PT011 - any NumPy error
        np_fn()
    with pytest.raises(public_type(theirs.value)):
        lt_fn()


SHARED_ERRORS: list[Callable[[Any], Any]] = [
    lambda r: r.chisquare(0), lambda r: r.chisquare(A([1.0, -1.0]), 2),
    lambda r: r.chisquare(3, size=-1), lambda r: r.chisquare(3, size=1.5),
    lambda r: r.chisquare(df=3, sizes=2), lambda r: r.chisquare(),
    lambda r: r.standard_cauchy(3, 4), lambda r: r.dirichlet([-1.0, 1.0]),
    lambda r: r.dirichlet([[1.0, 2.0]]), lambda r: r.f(0, 1),
    lambda r: r.f([1.0, 2.0], [1.0, 2.0, 3.0]), lambda r: r.f(A([1.0, 2.0]), 1, size=3),
    lambda r: r.geometric(0), lambda r: r.geometric(1.5), lambda r: r.gumbel(0, -1),
    lambda r: r.hypergeometric(5, 5, 11), lambda r: r.hypergeometric(-1, 5, 3),
    lambda r: r.laplace(0, -1), lambda r: r.logistic(0, -1), lambda r: r.logseries(1.5),
    lambda r: r.logseries(-0.1), lambda r: r.multinomial(5, [0.7, 0.7, 0.1]),
    lambda r: r.multinomial(5, 0.5), lambda r: r.multinomial(-1, [0.5, 0.5]),
    lambda r: r.negative_binomial(0, 0.5), lambda r: r.negative_binomial(1, 1.5),
    lambda r: r.noncentral_chisquare(0, 1), lambda r: r.noncentral_chisquare(1, -1),
    lambda r: r.noncentral_f(1, 1, -1), lambda r: r.pareto(0), lambda r: r.power(-1),
    lambda r: r.rayleigh(-1), lambda r: r.standard_gamma(-1), lambda r: r.standard_t(0),
    lambda r: r.triangular(1, 0, 2), lambda r: r.triangular(0, 0, 0),
    lambda r: r.vonmises(0, -1), lambda r: r.wald(0, 1), lambda r: r.wald(1, 0),
    lambda r: r.weibull(-1), lambda r: r.zipf(1.0), lambda r: r.zipf(A([2.0, 0.5])),
]

GENERATOR_ERRORS: list[Callable[[Any], Any]] = [
    lambda g: g.integers(0, 5, dtype=np.float64),
    lambda g: g.standard_exponential(dtype=np.int32),
    lambda g: g.standard_gamma(1.0, dtype=np.int64),
    lambda g: g.multivariate_hypergeometric([3, 2], 6),
    lambda g: g.multivariate_hypergeometric([3, 2], 2, method="x"),
    lambda g: g.multivariate_hypergeometric([-1, 2], 1),
    lambda g: g.multinomial(A([5, 10]), [0.5, 0.5], size=3),
    lambda g: g.random(4, out=np.zeros(3)),
    lambda g: g.random(dtype=np.float32, out=np.zeros(3)),
    lambda g: g.standard_gamma(A([1.0, 2.0]), out=np.zeros(3)),
    lambda g: g.random(out=np.zeros((3, 4))[:, ::2]),
]


@pytest.mark.parametrize("kind", ["generator", "random_state"])
def test_errors_are_numpys(kind: str) -> None:
    calls = SHARED_ERRORS + (GENERATOR_ERRORS if kind == "generator" else [
        lambda r: r.tomaxint(-1), lambda r: r.multinomial(A([5, 10]), [0.5, 0.5])])
    for call in calls:
        _raises_alike(lambda: call(_sources(kind)[1]), lambda: call(_sources(kind)[0]))
    for call in SHARED_ERRORS[:6]:                      # the module's functions
        _raises_alike(lambda: call(np.random.RandomState(0)), lambda: call(lt.random))


def test_out_tensor_errors_are_numpys() -> None:
    """A tensor as ``out``: NumPy's checks of its shape and dtype."""
    for size, shape, dtype in ((4, (3,), np.float64), (None, (3,), np.float32),
                               ((2, 3), (3, 2), np.float64)):
        _raises_alike(lambda: np.random.default_rng(0).random(size, out=np.zeros(shape, dtype)),
                      lambda: lt.random.default_rng(0).random(size, out=lt.zeros(shape, dtype)))
    _raises_alike(lambda: np.random.default_rng(0).standard_gamma(A([1.0, 2.0]),
                                                                  out=np.zeros(3)),
                  lambda: lt.random.default_rng(0).standard_gamma(lt.asarray(A([1.0, 2.0])),
                                                                  out=lt.zeros(3)))


def test_random_integers_errors_are_numpys() -> None:
    for call in (lambda r: r.random_integers(A([1, 2]), A([3, 4])),
                 lambda r: r.random_integers(5, size=-1)):
        with pytest.warns(DeprecationWarning):
            _raises_alike(lambda: call(np.random.RandomState(0)),
                          lambda: call(lt.random.RandomState(0)))


# -- seeds and bit generators -------------------------------------------------------------

BIT_GENERATORS = ["PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"]


@pytest.mark.parametrize("name", BIT_GENERATORS)
def test_bit_generators_are_numpys(name: str) -> None:
    cls = getattr(lt.random, name)
    assert cls is getattr(np.random, name)
    g, ref = lt.random.Generator(cls(5)), np.random.Generator(getattr(np.random, name)(5))
    _same(g.random(3), ref.random(3))
    _same(g.chisquare(A([1.0, 2.0]), (2, 2)), ref.chisquare(A([1.0, 2.0]), (2, 2)))
    assert isinstance(g.bit_generator, cls)
    _same(lt.random.default_rng(cls(6)).integers(0, 100, 5),
          np.random.default_rng(cls(6)).integers(0, 100, 5))
    # a RandomState over it, as NumPy's
    _same(lt.random.RandomState(cls(7)).wald(1.0, 2.0, 3),
          np.random.RandomState(cls(7)).wald(1.0, 2.0, 3))


def test_seed_sequences_and_numpy_generators_as_seeds() -> None:
    assert lt.random.SeedSequence is np.random.SeedSequence
    assert lt.random.BitGenerator is np.random.BitGenerator
    assert isinstance(lt.random.PCG64(1), lt.random.BitGenerator)
    _same(lt.random.default_rng(lt.random.SeedSequence(5)).standard_t(3.0, 4),
          np.random.default_rng(np.random.SeedSequence(5)).standard_t(3.0, 4))
    _same(lt.random.Generator(lt.random.SeedSequence([1, 2])).pareto(2.0, 2),
          np.random.default_rng(np.random.SeedSequence([1, 2])).pareto(2.0, 2))
    # a NumPy Generator: taken as it is (its stream is the one advanced), as NumPy does
    theirs = np.random.default_rng(3)
    g = lt.random.default_rng(theirs)
    x = g.zipf(2.0, 3)
    _same(x, np.random.default_rng(3).zipf(2.0, 3))
    _same(lt.random.default_rng(3).random(), np.random.default_rng(3).random())
    assert g.bit_generator is theirs.bit_generator
    # a BitGenerator object is shared, as NumPy's Generator shares it
    bits = lt.random.PCG64(8)
    lt.random.Generator(bits).random(4)
    ref_bits = np.random.PCG64(8)
    np.random.Generator(ref_bits).random(4)
    assert bits.state == ref_bits.state


def test_get_and_set_bit_generator() -> None:
    old = lt.random.get_bit_generator()
    assert isinstance(old, lt.random.MT19937)
    try:
        lt.random.set_bit_generator(lt.random.PCG64(1))
        assert isinstance(lt.random.get_bit_generator(), lt.random.PCG64)
        _same(lt.random.rand(3), np.random.RandomState(np.random.PCG64(1)).rand(3))
        _same(lt.random.laplace(0.0, 2.0, 2),
              np.random.RandomState(np.random.PCG64(1)).laplace(0.0, 2.0, 5)[3:])
        # seed: as NumPy's module seed, a new PCG64 state (RandomState.seed refuses)
        lt.random.seed(3)
        _same(lt.random.rand(2), np.random.RandomState(np.random.PCG64(3)).rand(2))
        _raises_alike(lambda: np.random.RandomState(np.random.PCG64(1)).seed(3),
                      lambda: lt.random.RandomState(lt.random.PCG64(1)).seed(3))
        # not a bit generator: NumPy's AttributeError, and nothing changed
        bits = lt.random.get_bit_generator()
        for bad in (5, None, np.random.default_rng(0)):
            with pytest.raises(AttributeError, match="capsule"):
                lt.random.set_bit_generator(bad)    # type: ignore[arg-type]
            assert lt.random.get_bit_generator() is bits
    finally:
        lt.random.set_bit_generator(old)
    assert lt.random.get_bit_generator() is old
    lt.random.seed(4)
    _same(lt.random.rand(2), np.random.RandomState(4).rand(2))
