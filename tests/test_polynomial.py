"""The legacy polynomial API (``lazyten/polynomial.py``) against NumPy's:
the lazy compositions bit for bit (Horner's NaNs and infinities included),
the evaluated ones (``roots``, ``polyfit``, ``polydiv``) equal to NumPy's
results, ``poly1d`` construction, calls and arithmetic, NumPy's exceptions;
with the optimizer on and off."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten import polynomial as P
from tests.util import check, same_bits

X = np.array([0.5, -1.5, 2.0, np.nan, np.inf, -np.inf, 0.0, -0.0, 1e300])
COEFFS = [[3.0, 0.0, 1.0], [1, 2, 3], np.float32([1.5, 2.0, 3.0]), [2.5], [], [1j, 2.0],
          np.array([[1.0, 2.0]] * 9).T]


def _same(got: Any, exp: Any) -> None:
    """Bits, shape and dtype (inferred too); tuples and poly1d's alike."""
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            _same(g, e)
        return
    if isinstance(exp, np.poly1d):
        assert isinstance(got, P.poly1d), type(got)
        same_bits(got.coeffs, exp.coeffs)
        return
    if isinstance(got, lt.Tensor):
        shape, dtype = got.shape, got.dtype
        with np.errstate(all="ignore"):
            got = got.eval()
        assert (got.shape, got.dtype) == (shape, dtype)
    same_bits(np.asarray(got), np.asarray(exp))


@pytest.mark.parametrize("p", COEFFS, ids=range(len(COEFFS)))
@pytest.mark.parametrize("xdt", ["f8", "f4"])
def test_polyval(engine: Any, p: Any, xdt: str) -> None:
    with np.errstate(all="ignore"):
        x = X.astype(xdt)
        exp = np.polyval(p, x)
    _same(P.polyval(lt.asarray(p), lt.asarray(x)), exp)
    _same(P.polyval(p, lt.asarray(x)), exp)


def test_polyval_ints_scalars_and_errors(engine: Any) -> None:
    _same(P.polyval([1, 2, 3], lt.arange(5)), np.polyval([1, 2, 3], np.arange(5)))
    _same(P.polyval([1, 2, 3], 2), np.polyval([1, 2, 3], 2))
    _same(P.polyval(lt.asarray(np.int8([1, 2])), lt.asarray(np.int8([3]))),
          np.polyval(np.int8([1, 2]), np.int8([3])))
    check(lambda: np.polyval(np.array(2.0), [1.0]), lambda: P.polyval(lt.asarray(2.0), [1.0]))
    check(lambda: np.polyval(np.ones((2, 3)), np.ones(2)),
          lambda: P.polyval(lt.ones((2, 3)), lt.ones(2)))


PAIRS = [([1, 2], [9, 5, 4]), ([1.0, 2, 3], [1]), ([1, 2], [3, 4]),
         (np.float32([1, 2]), [1, 2, 3]), ([0, 0, 1, 2], [0, 3]), ([0, 0], [1.0, 3]),
         ([1j, 2], [1.0, 0.5])]


@pytest.mark.parametrize("a1,a2", PAIRS, ids=range(len(PAIRS)))
def test_add_sub_mul(engine: Any, a1: Any, a2: Any) -> None:
    for np_fn, lt_fn in ((np.polyadd, P.polyadd), (np.polysub, P.polysub),
                         (np.polymul, P.polymul)):
        exp = np_fn(a1, a2)
        _same(lt_fn(lt.asarray(a1), lt.asarray(a2)), exp)
        _same(lt_fn(a1, lt.asarray(a2)), exp)


@pytest.mark.parametrize("a1,a2", PAIRS[:4] + PAIRS[6:], ids=range(5))
def test_polydiv(engine: Any, a1: Any, a2: Any) -> None:
    _same(P.polydiv(lt.asarray(a1), lt.asarray(a2)), np.polydiv(a1, a2))


@pytest.mark.parametrize("p", [[1, 2, 3, 4], [1.5, 2, 3], [3], np.float32([1, 2, 3]), [],
                               [1j, 2, 3]], ids=range(6))
@pytest.mark.parametrize("m", [0, 1, 2, 5])
def test_polyder_polyint(engine: Any, p: Any, m: int) -> None:
    _same(P.polyder(lt.asarray(p), m), np.polyder(p, m))
    _same(P.polyint(lt.asarray(p), m), np.polyint(p, m))
    _same(P.polyint(lt.asarray(p), m, k=3), np.polyint(p, m, k=3))
    k = [1, 2.5, 3, 4, 5][:max(m, 1)]
    _same(P.polyint(lt.asarray(p), m, k=k), np.polyint(p, m, k=k))
    _same(P.polyint(lt.asarray(p), m, k=lt.asarray(k)), np.polyint(p, m, k=k))


def test_polyder_polyint_errors(engine: Any) -> None:
    check(lambda: np.polyder([1, 2], -1), lambda: P.polyder(lt.asarray([1, 2]), -1))
    check(lambda: np.polyint([1, 2], -1), lambda: P.polyint(lt.asarray([1, 2]), -1))
    check(lambda: np.polyint([1, 2], 3, k=[1, 2]), lambda: P.polyint([1, 2], 3, k=[1, 2]))
    check(lambda: np.polyder(np.array(1.0)), lambda: P.polyder(lt.asarray(1.0)))


@pytest.mark.parametrize("z", [[1.0, 2.0], [1, 2, 3], np.float32([1, 2]), [1j, -1j],
                               [1j, 2], np.array([[1.0, 2], [3, 4]]),
                               np.array([[0, -1.0], [1, 0]]), [0.5], [2.0 + 1j, 2.0 - 1j]],
                         ids=range(9))
def test_poly(engine: Any, z: Any) -> None:
    _same(P.poly(lt.asarray(z)), np.poly(z))


def test_poly_edges(engine: Any) -> None:
    assert P.poly([]) == np.poly([]) == 1.0
    check(lambda: np.poly(np.ones((2, 3))), lambda: P.poly(lt.ones((2, 3))))


@pytest.mark.parametrize("p", [[1, -3, 2], [1, 0, 1], [0, 0, 1, 2, 0, 0], [0, 0], [5],
                               np.float32([1, -1])], ids=range(6))
def test_roots(engine: Any, p: Any) -> None:
    _same(P.roots(lt.asarray(p)), np.roots(p))


def test_polyfit(engine: Any) -> None:
    xs = np.linspace(0, 1, 10)
    ys = xs ** 2 + np.sin(xs)
    w = np.linspace(1, 2, 10)
    _same(P.polyfit(lt.asarray(xs), lt.asarray(ys), 2), np.polyfit(xs, ys, 2))
    _same(P.polyfit(xs, lt.asarray(ys), 2, w=lt.asarray(w)), np.polyfit(xs, ys, 2, w=w))
    full, exp = P.polyfit(lt.asarray(xs), ys, 2, full=True), np.polyfit(xs, ys, 2, full=True)
    _same(full[:2] + full[3:4], exp[:2] + exp[3:4])
    assert full[2] == exp[2] and full[4] == exp[4]
    _same(P.polyfit(lt.asarray(xs), ys, 2, cov=True), np.polyfit(xs, ys, 2, cov=True))
    y2 = np.stack([ys, 2 * ys], axis=1)
    _same(P.polyfit(lt.asarray(xs), lt.asarray(y2), 1), np.polyfit(xs, y2, 1))
    with pytest.warns(np.exceptions.RankWarning):
        P.polyfit(lt.asarray([1.0, 1.0, 1.0]), lt.asarray([1.0, 2.0, 3.0]), 2)
    check(lambda: np.polyfit(xs, ys, -1), lambda: P.polyfit(lt.asarray(xs), ys, -1))


# ------------------------------------------------------------------ poly1d

def test_poly1d_construction() -> None:
    p = P.poly1d(lt.asarray([0, 1.0, 2, 3]))
    q = np.poly1d([0, 1.0, 2, 3])
    assert isinstance(p, np.poly1d) and p == q
    same_bits(p.coeffs, q.coeffs)
    assert (str(p), repr(p), p.order, p.variable) == (str(q), repr(q), q.order, q.variable)
    np.testing.assert_array_equal(p.roots, q.roots)
    assert P.poly1d([1, 2], r=True) == np.poly1d([1, 2], r=True)
    assert P.poly1d(lt.asarray([1, 2]), r=True) == np.poly1d([1, 2], r=True)
    assert P.poly1d([0, 0]) == np.poly1d([0, 0])
    assert P.poly1d(q).variable == "x" and P.poly1d(q, variable="z").variable == "z"
    with pytest.raises(ValueError):
        P.poly1d(lt.ones((2, 2)))
    # the coefficients are the poly1d's own (NumPy's p[k] = v writes them);
    # the tensor given is not written
    t = lt.asarray([1.0, 2.0])
    p = P.poly1d(t)
    p[0] = 7.0
    np.testing.assert_array_equal(t.eval(), [1.0, 2.0])
    np.testing.assert_array_equal(p.coeffs, [1.0, 7.0])


def test_poly1d_call_is_lazy(engine: Any) -> None:
    p, q = P.poly1d([1.0, 2.0, 3.0]), np.poly1d([1.0, 2.0, 3.0])
    got = p(lt.asarray(X))
    assert isinstance(got, lt.Tensor)
    with np.errstate(all="ignore"):
        _same(got, q(X))
    _same(p(2), q(2))
    _same(p(p), q(q))
    _same(P.polyval(p, lt.asarray([1.0, 2.0])), np.polyval(q, [1.0, 2.0]))


OPS = [lambda a: a * a, lambda a: a + [1, 2], lambda a: [1, 2] + a, lambda a: 2 - a,
       lambda a: a - 2, lambda a: a ** 3, lambda a: -a, lambda a: +a, lambda a: a / 2,
       lambda a: a / [1, 1], lambda a: 2 / a, lambda a: a.deriv(), lambda a: a.deriv(2),
       lambda a: a.integ(), lambda a: a.integ(2, k=1), lambda a: a * 2, lambda a: 3 * a]


@pytest.mark.parametrize("op", OPS, ids=range(len(OPS)))
def test_poly1d_arithmetic(op: Any) -> None:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(op(P.poly1d([1.0, 2.0, 3.0])), op(np.poly1d([1.0, 2.0, 3.0])))


def test_poly1d_with_tensors_and_functions(engine: Any) -> None:
    p, q = P.poly1d([1.0, 2.0]), np.poly1d([1.0, 2.0])
    _same(p * lt.asarray([1.0, 1.0]), q * np.array([1.0, 1.0]))
    _same(p + lt.asarray([1.0]), q + np.array([1.0]))
    for np_fn, lt_fn in ((np.polyadd, P.polyadd), (np.polysub, P.polysub),
                         (np.polymul, P.polymul), (np.polydiv, P.polydiv)):
        _same(lt_fn(p, lt.asarray([1.0, 0.0, 1.0])), np_fn(q, [1.0, 0.0, 1.0]))
        _same(lt_fn([3.0], p), np_fn([3.0], q))
    _same(P.polyder(p), np.polyder(q))
    _same(P.polyint(p, 2), np.polyint(q, 2))
    _same(P.polyint(p, 0), np.polyint(q, 0))


@pytest.mark.parametrize("build", [
    lambda q: lt.polyval(q, lt.asarray([1.0, 2.0])), lambda q: lt.polyadd(q, lt.asarray([1.0])),
    lambda q: lt.polysub(lt.asarray([1.0]), q), lambda q: lt.polyder(q),
    lambda q: lt.polyint(q)], ids=["polyval", "polyadd", "polysub", "polyder", "polyint"])
def test_coefficients_of_a_none_dimension_are_refused_when_built(build: Any) -> None:
    """The number of coefficients is read as a number when built (polyval's
    loop ran over the ~1M stand-in coefficients and never finished)."""
    q = lt.placeholder((None,), np.float64)
    with pytest.raises(ValueError, match="None dimension"):
        build(q)
    f = lt.function([q], lt.polyval(lt.asarray([1.0, 2.0]), q))   # x of any length: fine
    np.testing.assert_array_equal(f(np.arange(3.0)), np.polyval([1.0, 2.0], np.arange(3.0)))
