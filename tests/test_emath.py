"""``lt.emath`` (``lazyten/emath.py``) against ``numpy.emath`` bit for bit:
values, shape and dtype (the value-dependent dtype included), over dtypes
and values inside and outside each function's real domain, with the
optimizer on and off."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten import emath
from tests.util import same_bits

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]
DTYPES = ["f2", "f4", "f8", "i1", "i8", "u1", "c8", "c16", "?"]
VALUES = {
    "in": [0.0, 0.25, 0.5, 1.0],                  # in every real domain
    "neg": [-2.0, -0.5, 0.0, 0.5, 3.0],           # negative and |x| > 1
    "big": [0.0, 0.5, 2.0],                       # |x| > 1 only
    "special": [np.nan, np.inf, -np.inf, -0.0, 0.0],
}


def _array(kind: str, dt: str) -> np.ndarray[Any, Any]:
    vals = VALUES[kind]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if np.dtype(dt).kind in "iub":
            vals = [v for v in vals if np.isfinite(v)]
        if np.dtype(dt).kind in "ub":
            vals = [v for v in vals if v >= 0]
        a = np.array(vals).astype(dt)
        if np.dtype(dt).kind == "c":
            a[1:2] += 1j                          # one element off the real axis
        return a


def _same(got: lt.Tensor, exp: Any) -> None:
    shape, dtype = got.shape, got.dtype
    with np.errstate(all="ignore"):
        v = got.eval()
    assert (v.shape, v.dtype) == (shape, dtype)
    same_bits(v, np.asarray(exp))


@pytest.mark.parametrize("fn", UNARY)
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("kind", list(VALUES))
def test_unary(engine: Any, fn: str, dt: str, kind: str) -> None:
    a = _array(kind, dt)
    with np.errstate(all="ignore"):
        exp = getattr(np.emath, fn)(a)
    _same(getattr(emath, fn)(lt.asarray(a)), exp)


@pytest.mark.parametrize("x", [-4.0, 4.0, -3, 0, [[-1, 4], [9, 16]]])
def test_python_operands_are_arrays(engine: Any, x: Any) -> None:
    # NumPy makes a Python number a (strong) array first
    with np.errstate(all="ignore"):
        _same(emath.sqrt(x), np.emath.sqrt(x))
        _same(emath.log(x), np.emath.log(x))


@pytest.mark.parametrize("xdt", ["f4", "f8", "i8"])
@pytest.mark.parametrize("p", [2, -2, 0.5, [1, -1], [2, 3], np.float32(0.5)])
def test_power(engine: Any, xdt: str, p: Any) -> None:
    for vals in ([1.0, 4.0, 9.0], [-4.0, 4.0, 2.0]):
        x = np.array(vals[:np.size(p)] if np.ndim(p) else vals).astype(xdt)
        with np.errstate(all="ignore"):
            exp = np.emath.power(x, p)
        _same(emath.power(lt.asarray(x), p), exp)
        _same(emath.power(lt.asarray(x), lt.asarray(p)), exp)


@pytest.mark.parametrize("n", [2, 10, -2, 0.5, np.float32(3)])
def test_logn(engine: Any, n: Any) -> None:
    for x in (np.array([1.0, 8.0, 0.5]), np.array([-8.0, 8.0]), np.float32([4.0, 16.0])):
        with np.errstate(all="ignore"):
            exp = np.emath.logn(n, x)
        _same(emath.logn(n, lt.asarray(x)), exp)


def test_lazy_where_the_dtype_cannot_change() -> None:
    # complex (stays complex) and unsigned (never negative) inputs: no value
    # is needed, so a placeholder builds
    for dt in (np.complex128, np.complex64):
        assert emath.sqrt(lt.placeholder((3,), dt)).dtype == dt
        assert emath.arcsin(lt.placeholder((3,), dt)).dtype == dt
    assert emath.log(lt.placeholder((3,), np.uint8)).dtype == np.log(np.ones(1, np.uint8)).dtype


def test_result_is_lazy_and_fuses(engine: Any) -> None:
    x = lt.asarray(np.array([-1.0, 4.0]))
    y = emath.sqrt(x * 2 - 1) + 1
    assert isinstance(y, lt.Tensor)
    _same(y, np.emath.sqrt(np.array([-1.0, 4.0]) * 2 - 1) + 1)


def test_a_computed_operand_is_computed_once() -> None:
    """The domain test (any negative?) is computed now on the operand's
    cached value, which the lazy result reads: the expression below the
    operand runs once."""
    x = lt.asarray(np.arange(4.0))
    for fn, arg in ((emath.sqrt, x - 2), (emath.log, x - 1), (emath.arcsin, x / 2)):
        r = fn(arg)
        assert arg.node.value is not None
        np.testing.assert_array_equal(r.eval(), getattr(np.emath, fn.__name__)(arg.eval()))
