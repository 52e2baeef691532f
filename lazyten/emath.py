"""``lt.emath``: NumPy's ``numpy.emath`` (``numpy.lib.scimath``), the
mathematical functions that answer in the complex plane where the real
function has no value (``sqrt(-1)`` is ``1j``, not NaN).

NumPy decides the result's dtype from the *values*: ``emath.sqrt`` of a
float64 array is float64 when no element is negative and complex128 when
one is.  A lazy node must know its dtype when it is built, so each function
here computes that one test now (a fused boolean reduction, evaluated as
``real_if_close`` and ``linalg.eig`` do for their value-dependent types) and
builds the result lazily from it: the same ufunc on the same (perhaps
complex) operand as NumPy's, so NumPy's bits.  Only the test reads the
values now; it is skipped where the dtype cannot change (a complex input
that stays in its dtype, unsigned and boolean inputs that are never
negative), so those stay wholly lazy.

As NumPy, each operand is first an array (``np.asarray``): a Python number
is a strong 0-d array here, not a weak scalar (``emath.power(float32
array, 2)`` is float64, as in NumPy).  A 0-d result is a 0-d tensor where
NumPy returns a scalar.

>>> import lazyten as lt
>>> lt.emath.sqrt(lt.asarray([4.0, -4.0])).eval()
array([2.+0.j, 0.+2.j])
>>> lt.emath.sqrt(lt.asarray([4.0, 9.0])).eval()   # no negative value: float
array([2., 3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import functions as F
from .tensor import Tensor, cache_now, wrap

__all__: list[str] = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin",
                      "arctanh"]

# NumPy's ``_tocomplex``: these become complex64, everything else complex128
# (float16 too, and longdouble / clongdouble, which lose precision there).
_TO_CSINGLE = frozenset(np.dtype(c) for c in (np.single, np.byte, np.short, np.ubyte,
                                               np.ushort, np.csingle))


def _complex_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.csingle) if dt in _TO_CSINGLE else np.dtype(np.cdouble)


def _any_now(test: Tensor, t: Tensor) -> bool:
    """``test.any()`` computed now: the one value-dependent decision.  A
    computed ``t`` (the operand ``test`` reads) is evaluated first, so its
    cached value serves both the test and the result built on it (the
    expression below ``t`` ran twice)."""
    cache_now(t)
    return bool(F.any(test))


def _real_where(t: Tensor, bad: Tensor) -> Tensor:
    """NumPy's ``isreal(x) & bad``: for a real dtype ``isreal`` is all true."""
    return F.logical_and(t.imag == 0, bad) if t.dtype.kind == "c" else bad


def _fix_real_lt_zero(x: Any) -> Tensor:
    """NumPy's ``_fix_real_lt_zero``: ``x`` as complex if any real element
    is negative."""
    t = wrap(x)
    cdt = _complex_dtype(t.dtype)
    # (unsigned and bool are never negative; a dtype that stays is moot)
    if cdt == t.dtype or t.dtype.kind in "ub":
        return t
    if t.dtype.kind not in "biufc":
        raise TypeError(f"emath: unsupported dtype {t.dtype}")
    return t.astype(cdt) if _any_now(_real_where(t, t < 0), t) else t


def _fix_int_lt_zero(x: Any) -> Tensor:
    """NumPy's ``_fix_int_lt_zero`` (``power``'s exponent): ``x * 1.0`` if
    any real element is negative; only an integer's dtype changes so."""
    t = wrap(x)
    if t.dtype.kind != "i":
        return t
    return t * 1.0 if _any_now(t < 0, t) else t


def _fix_real_abs_gt_1(x: Any) -> Tensor:
    """NumPy's ``_fix_real_abs_gt_1``: ``x`` as complex if any real element
    has ``abs(x) > 1``."""
    t = wrap(x)
    cdt = _complex_dtype(t.dtype)
    if cdt == t.dtype:
        return t
    if t.dtype.kind not in "biufc":
        raise TypeError(f"emath: unsupported dtype {t.dtype}")
    return t.astype(cdt) if _any_now(_real_where(t, F.abs(t) > 1), t) else t


def sqrt(x: Any) -> Tensor:
    """The square root, complex where a real element is negative
    (``numpy.emath.sqrt``; the dtype test is computed now).

    >>> import lazyten as lt
    >>> lt.emath.sqrt(lt.asarray([-1.0])).eval()
    array([0.+1.j])
    """
    return F.sqrt(_fix_real_lt_zero(x))


def log(x: Any) -> Tensor:
    """The natural logarithm, complex where a real element is negative
    (``numpy.emath.log``; the dtype test is computed now)."""
    return F.log(_fix_real_lt_zero(x))


def log10(x: Any) -> Tensor:
    """The base-10 logarithm, complex where a real element is negative
    (``numpy.emath.log10``; the dtype test is computed now)."""
    return F.log10(_fix_real_lt_zero(x))


def log2(x: Any) -> Tensor:
    """The base-2 logarithm, complex where a real element is negative
    (``numpy.emath.log2``; the dtype test is computed now)."""
    return F.log2(_fix_real_lt_zero(x))


def logn(n: Any, x: Any) -> Tensor:
    """``log(x) / log(n)``, each complex where a real element is negative
    (``numpy.emath.logn``; the dtype tests are computed now).

    >>> import lazyten as lt
    >>> lt.emath.logn(2, lt.asarray([8.0, 16.0])).eval()
    array([3., 4.])
    """
    # (NumPy's order: x's test first, then n's)
    tx = _fix_real_lt_zero(x)
    tn = _fix_real_lt_zero(n)
    return F.log(tx) / F.log(tn)


def power(x: Any, p: Any) -> Tensor:
    """``x ** p``, complex where a real element of ``x`` is negative, and an
    integer ``p`` as float where one of its elements is negative
    (``numpy.emath.power``; the dtype tests are computed now).

    >>> import lazyten as lt
    >>> lt.emath.power(lt.asarray([-4.0, 4.0]), 0.5).eval()
    array([1.2246468e-16+2.j, 2.0000000e+00+0.j])
    """
    tx = _fix_real_lt_zero(x)
    tp = _fix_int_lt_zero(p)
    return F.power(tx, tp)


def arccos(x: Any) -> Tensor:
    """The inverse cosine, complex where a real element has ``|x| > 1``
    (``numpy.emath.arccos``; the dtype test is computed now)."""
    return F.arccos(_fix_real_abs_gt_1(x))


def arcsin(x: Any) -> Tensor:
    """The inverse sine, complex where a real element has ``|x| > 1``
    (``numpy.emath.arcsin``; the dtype test is computed now)."""
    return F.arcsin(_fix_real_abs_gt_1(x))


def arctanh(x: Any) -> Tensor:
    """The inverse hyperbolic tangent, complex where a real element has
    ``|x| > 1`` (``numpy.emath.arctanh``; the dtype test is computed now)."""
    return F.arctanh(_fix_real_abs_gt_1(x))
