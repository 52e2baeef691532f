"""``lt.random`` against NumPy: a ``default_rng(seed)`` Generator draws
``np.random.default_rng(seed)``'s values, bit for bit, and the module's
legacy functions (``seed``, ``rand``, ``randint``, ...) draw those of
``np.random.seed``'s ``RandomState``; NumPy's exception types; in-place
shuffles write what NumPy writes (a tensor: through ``t[...] = v``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import assert_eq, check, same_bits

X = np.arange(24.0).reshape(4, 6)


def _same(got: Any, want: Any) -> None:
    """Values, shape and dtype, bit for bit; evaluated twice (the second
    from the cached value)."""
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if isinstance(want, (bytes, type(None))):
        assert got == want
        return
    assert isinstance(got, lt.Tensor)
    want = np.asarray(want)
    for _ in range(2):
        assert_eq(got, want)
        same_bits(got.eval(), want)


# (method, args, kwargs): each Generator method, called the same way on both
GENERATOR_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("random", ((2, 3),), {}),
    ("random", (), {}),
    ("random", (3,), {"dtype": np.float32}),
    ("standard_normal", ((4,),), {"dtype": np.float32}),
    ("normal", (1.0, 2.0, (3,)), {}),
    ("uniform", (-1, 1, (2, 2)), {}),
    ("integers", (0, 10, (5,)), {}),
    ("integers", (0, 5, 4), {"dtype": np.uint8, "endpoint": True}),
    ("permutation", (6,), {}),
    ("permutation", (X,), {}),
    ("permutation", (X,), {"axis": 1}),
    ("permutation", (X,), {"axis": -1}),
    ("choice", (5,), {}),
    ("choice", (5, 3), {"replace": False}),
    ("choice", (X, 2), {}),
    ("choice", (X, (2, 2)), {"axis": 1, "replace": False, "shuffle": False}),
    ("choice", (np.array([1.5, 2.5, 3.5]), 4), {"p": [0.2, 0.3, 0.5]}),
    ("permuted", (X,), {}),
    ("permuted", (X,), {"axis": 1}),
    ("exponential", (2.0, (3,)), {}),
    ("poisson", (3.0, 4), {}),
    ("poisson", (), {}),
    ("binomial", (10, 0.3, (2, 2)), {}),
    ("gamma", (2.0, 1.5, 3), {}),
    ("beta", (0.5, 0.5, 3), {}),
    ("lognormal", (0.0, 1.0, 3), {}),
    ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]], 3), {}),
    ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]], 2),
     {"method": "cholesky"}),
    ("bytes", (7,), {}),
]


def _lazy_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(lt.asarray(a) * 1 if isinstance(a, np.ndarray) else a for a in args)


@pytest.mark.parametrize("method,args,kwargs", GENERATOR_CALLS,
                         ids=[f"{m}-{i}" for i, (m, _, _) in enumerate(GENERATOR_CALLS)])
def test_generator_draws_numpys_values(engine: Any, method: str, args: tuple[Any, ...],
                                       kwargs: dict[str, Any]) -> None:
    ref = np.random.default_rng(42)
    g = lt.random.default_rng(42)
    for _ in range(2):                     # and the stream after the first draw too
        _same(getattr(g, method)(*args, **kwargs), getattr(ref, method)(*args, **kwargs))
    # a tensor argument (lazy, evaluated when drawn) gives the same values
    _same(getattr(g, method)(*_lazy_args(args), **kwargs), getattr(ref, method)(*args, **kwargs))


def test_generator_errors_are_numpys() -> None:
    for call in (lambda g: g.choice(0), lambda g: g.choice(3, 4, replace=False),
                 lambda g: g.permutation(X, axis=2), lambda g: g.binomial(-1, 0.5),
                 lambda g: g.choice(X, p=[0.5, 0.5]), lambda g: g.permuted(X, axis=3),
                 lambda g: g.shuffle(np.array(1.0)), lambda g: g.poisson(-1.0),
                 lambda g: g.integers(5, 1), lambda g: g.spawn(-1)):
        check(lambda: call(np.random.default_rng(0)),
              lambda: call(lt.random.default_rng(0)))


def test_generator_shuffle_writes_what_numpy_writes(engine: Any) -> None:
    ref, g = np.random.default_rng(3), lt.random.default_rng(3)
    # an ndarray or a list: shuffled in place, as NumPy does
    a, b = X.copy(), X.copy()
    ref.shuffle(a)
    g.shuffle(b)                                 # (returns None, as NumPy's)
    np.testing.assert_array_equal(a, b)
    la, lb = list(range(10)), list(range(10))
    ref.shuffle(la)
    g.shuffle(lb)
    assert la == lb
    ref.shuffle(a, axis=1)
    g.shuffle(b, axis=1)
    np.testing.assert_array_equal(a, b)
    # a tensor: a new version of the tensor (a functional write); the user's
    # array it wraps is never written, as for any write to a tensor
    user, a = X.copy(), X.copy()
    t = lt.asarray(user)
    before = t + 0                               # built before: keeps the old value
    ref.shuffle(a, axis=1)
    g.shuffle(t, axis=1)
    _same(t, a)
    np.testing.assert_array_equal(user, X)
    _same(before, X)
    # a view of a tensor: written through to its root
    ref.shuffle(a[1])
    g.shuffle(t[1])
    _same(t, a)


def test_generator_permuted_out(engine: Any) -> None:
    ref, g = np.random.default_rng(4), lt.random.default_rng(4)
    want = np.zeros_like(X)
    ref.permuted(X, axis=0, out=want)
    out = lt.zeros(X.shape)
    assert g.permuted(lt.asarray(X), axis=0, out=out) is out      # the tensor, written
    _same(out, want)
    mine = np.zeros_like(X)
    ref.permuted(X, out=want)
    _same(g.permuted(X, out=mine), want)
    np.testing.assert_array_equal(mine, want)                       # NumPy writes out=: so here
    check(lambda: np.random.default_rng(0).permuted(X, out=np.zeros(3)),
          lambda: lt.random.default_rng(0).permuted(X, out=lt.zeros(3)))
    check(lambda: np.random.default_rng(0).permuted(X, out=np.zeros(X.shape, np.int8)),
          lambda: lt.random.default_rng(0).permuted(X, out=lt.zeros(X.shape, np.int8)))


def test_spawn_and_bit_generator() -> None:
    ref, g = np.random.default_rng(5), lt.random.default_rng(5)
    assert g.bit_generator.state == ref.bit_generator.state
    kids, ref_kids = g.spawn(2), ref.spawn(2)
    assert all(isinstance(k, lt.random.Generator) for k in kids)
    for k, r in zip(kids, ref_kids):
        _same(k.random(3), r.random(3))
    _same(g.random(2), ref.random(2))             # the parent's stream: untouched
    # seeds NumPy's default_rng takes: a BitGenerator, a Generator; a lazyten one is itself
    _same(lt.random.default_rng(np.random.PCG64(9)).random(2),
          np.random.default_rng(np.random.PCG64(9)).random(2))
    _same(lt.random.default_rng(np.random.default_rng(9)).random(2),
          np.random.default_rng(9).random(2))
    assert lt.random.default_rng(g) is g
    assert repr(g).startswith("Generator(PCG64)")


def _legacy_calls() -> list[Callable[[Any], Any]]:
    """Calls of NumPy's legacy module functions, on ``np.random`` or ``lt.random``."""
    return [lambda m: m.rand(3), lambda m: m.rand(), lambda m: m.randn(2, 3),
            lambda m: m.randint(10, size=5), lambda m: m.randint(-3, 3, (2, 2), np.int8),
            lambda m: m.random_sample((2,)), lambda m: m.random(3), lambda m: m.random(),
            lambda m: m.choice(5, 3),
            lambda m: m.choice([1.5, 2.5, 3.5], 4, p=[0.2, 0.3, 0.5]),
            lambda m: m.choice(6, 3, replace=False), lambda m: m.permutation(5),
            lambda m: m.permutation(X), lambda m: m.normal(1.0, 2.0, 3),
            lambda m: m.uniform(-1, 1, (2, 2)), lambda m: m.standard_normal(4),
            lambda m: m.exponential(2.0, 3), lambda m: m.poisson(3.0, 4),
            lambda m: m.binomial(10, 0.3, 3), lambda m: m.gamma(2.0, 1.0, 3),
            lambda m: m.beta(0.5, 0.5, 3), lambda m: m.lognormal(size=3),
            lambda m: m.multivariate_normal([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]], 2),
            lambda m: m.bytes(5)]


def test_module_functions_draw_numpys_legacy_values(engine: Any) -> None:
    """``lt.random.seed(s)`` then the module's functions: NumPy's values for
    ``np.random.seed(s)`` (its legacy MT19937 ``RandomState``), not the
    Generator's PCG64 ones (``lt.random.default_rng``)."""
    ref = np.random.RandomState(0)               # what np.random.seed(0) seeds
    lt.random.seed(0)
    _same(lt.random.rand(3), np.random.RandomState(0).rand(3))
    lt.random.seed(0)
    for call in _legacy_calls():
        _same(call(lt.random), call(ref))
    # shuffle: an ndarray in place, as NumPy; a tensor through a write
    a, b = X.copy(), X.copy()
    ref.shuffle(a)
    lt.random.shuffle(b)
    np.testing.assert_array_equal(a, b)
    t, a = lt.asarray(X), X.copy()
    ref.shuffle(a)
    lt.random.shuffle(t)
    _same(t, a)
    # the state round-trips as NumPy's
    state = lt.random.get_state()
    x = lt.random.rand(4)
    lt.random.set_state(state)
    _same(lt.random.rand(4), x.eval())
    assert lt.random.get_state()[0] == "MT19937"
    # NumPy's module names of random_sample
    assert lt.random.ranf is lt.random.sample is lt.random.random_sample


def test_random_state_class_and_seed_errors() -> None:
    rs, ref = lt.random.RandomState(3), np.random.RandomState(3)
    for call in _legacy_calls()[:8]:
        _same(call(rs), call(ref))
    bad: Any
    for bad in (-1, 2**32, 1.5, "x"):
        check(lambda: np.random.RandomState().seed(bad), lambda: lt.random.seed(bad))
    lt.random.seed()                             # fresh entropy, as NumPy
    lt.random.seed(np.array([1, 2, 3]))
    np.random.RandomState([1, 2, 3])             # (the same seeds NumPy's takes)


def test_draws_are_distinct_inputs(engine: Any) -> None:
    """Two draws are two samples, never merged as one subexpression."""
    lt.random.seed(1)
    a, b = lt.random.rand(8), lt.random.rand(8)
    assert not np.array_equal((a + 0).eval(), (b + 0).eval())
    g = lt.random.default_rng(1)
    c, d = g.choice(100, 8), g.choice(100, 8)
    assert not np.array_equal((c + 0).eval(), (d + 0).eval())
