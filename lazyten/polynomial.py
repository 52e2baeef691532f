"""NumPy's legacy polynomial API (``numpy/lib/_polynomial_impl.py``):
``polyval``, ``polyadd``, ``polysub``, ``polymul``, ``polydiv``, ``polyder``,
``polyint``, ``poly``, ``roots``, ``polyfit`` and the ``poly1d`` class.

How each is built, and why:

- Lazy compositions, NumPy's own loops over the same ufuncs in the same
  order (so NumPy's bits): ``polyval`` (Horner, ``y = y * x + p[i]`` from
  ``zeros_like(x)``), ``polyadd``/``polysub`` (zeros concatenated in front),
  ``polyder``, ``polyint``, and ``poly`` of a 1-d sequence of zeros (a
  chain of ``convolve`` ops).  Their lengths follow from the operands'
  shapes.
- Lazy, with one test computed now: ``polymul`` (NumPy makes each operand a
  ``poly1d``, whose leading zeros are dropped: the operand is evaluated
  (its value is cached) to count them, then sliced and convolved lazily),
  and ``poly`` of complex zeros (a real result when the zeros come in
  conjugate pairs: the zeros are evaluated for that test).
- Evaluated when called, NumPy's own function on the values, wrapped:
  ``roots`` and ``poly`` of a square matrix (eigenvalues: the dtype depends
  on the values), ``polyfit`` (``lstsq``; ``full``/``cov`` results too) and
  ``polydiv`` (the remainder's length depends on which leading terms are
  close to zero).
- ``poly1d`` is ``numpy.poly1d`` (a subclass): its coefficients are the
  trimmed ndarray NumPy holds (their length depends on the values, and
  ``p[k] = v`` writes them in place, as NumPy's), so it is built now from a
  tensor's values.  Calling it, ``p(x)``, is the lazy ``polyval`` (a tensor
  for any ``x`` but a ``poly1d``); its arithmetic is NumPy's, the results
  are ``lt.poly1d``.

A polynomial given as a ``poly1d`` gives a ``poly1d`` back, as in NumPy.

>>> import lazyten as lt
>>> lt.polyval([3.0, 0.0, 1.0], lt.asarray([1.0, 2.0])).eval()
array([ 4., 13.])
>>> lt.polyder(lt.asarray([1.0, 2.0, 3.0])).eval()
array([2., 2.])
"""

from __future__ import annotations

from typing import Any, SupportsIndex, SupportsInt

import numpy as np

from . import functions as F
from .compile import refuse_call_axis
from .creation import arange, ones, zeros, zeros_like
from .statistics import convolve
from .tensor import Tensor, values_now, wrap

__all__: list[str] = ["poly", "roots", "polyint", "polyder", "polyadd", "polysub", "polymul",
                      "polydiv", "polyval", "polyfit", "poly1d"]


# ------------------------------------------------------------------ helpers

def _coeffs(p: Any) -> Any:
    """``p`` as NumPy's ``asarray`` reads it: a ``poly1d``'s coefficients."""
    return p.coeffs if isinstance(p, np.poly1d) else p


def _value(p: Any) -> Any:
    """``p``'s value for NumPy's own function: a tensor's, computed now (a
    fresh array: NumPy may keep it, as ``poly1d`` does)."""
    if isinstance(p, Tensor):
        return np.array(p.eval())
    return values_now(p)[0]                  # (a list of tensors: their values)


def _trimmed(a: Any) -> Tensor:
    """``np.poly1d(a).coeffs`` as a tensor: at least 1-d, 1-d only, leading
    zeros dropped (their count computed now), ``[0]`` if nothing is left."""
    if isinstance(a, np.poly1d):
        return wrap(a.coeffs)
    t = F.atleast_1d(wrap(a))
    if t.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    nonzero = np.flatnonzero(t.eval())        # (cached: the slice below reads it)
    if not nonzero.size:
        return zeros(1, t.dtype)
    return t[int(nonzero[0]):]


# ------------------------------------------------------------------ lazy compositions

def polyval(p: Any, x: Any) -> Any:
    """The polynomial with coefficients ``p`` (highest power first) at
    ``x``, NumPy's Horner loop: ``y = zeros_like(x)``, then ``y = y * x +
    pv`` for each ``pv`` in ``p`` (a 2-d ``p`` is a stack of coefficient
    rows, as NumPy iterates it).  Lazy; with a ``poly1d`` ``x``, the
    composed ``poly1d`` (computed now).

    >>> import lazyten as lt
    >>> lt.polyval(lt.asarray([1, 0, -1]), lt.asarray([2, 3])).eval()
    array([3, 8])
    """
    if isinstance(x, np.poly1d):
        return poly1d(np.polyval(_value(_coeffs(p)), x))
    pt = wrap(_coeffs(p))
    refuse_call_axis(pt, 0, "lt.polyval (its number of coefficients)")
    xt = wrap(x)
    y = zeros_like(xt)
    for i in range(len(pt)):
        # (p[i] is strong, as NumPy's scalar ``pv`` is)
        y = y * xt + pt[i]
    return y


def _padded_op(a1: Any, a2: Any, subtract: bool) -> Any:
    """``polyadd``/``polysub``: the shorter operand with zeros in front."""
    truepoly = isinstance(a1, np.poly1d) or isinstance(a2, np.poly1d)
    t1 = F.atleast_1d(wrap(_coeffs(a1)))
    t2 = F.atleast_1d(wrap(_coeffs(a2)))
    refuse_call_axis(t1, 0, "lt.polyadd/polysub")
    refuse_call_axis(t2, 0, "lt.polyadd/polysub")
    diff = len(t2) - len(t1)
    if diff > 0:
        t1 = F.concat((zeros(diff, t1.dtype), t1))
    elif diff < 0:
        t2 = F.concat((zeros(-diff, t2.dtype), t2))
    val = t1 - t2 if subtract else t1 + t2
    return poly1d(val) if truepoly else val


def polyadd(a1: Any, a2: Any) -> Any:
    """The sum of two polynomials (``numpy.polyadd``), lazily.

    >>> import lazyten as lt
    >>> lt.polyadd(lt.asarray([1, 2]), lt.asarray([9, 5, 4])).eval()
    array([9, 6, 6])
    """
    return _padded_op(a1, a2, subtract=False)


def polysub(a1: Any, a2: Any) -> Any:
    """The difference of two polynomials (``numpy.polysub``), lazily."""
    return _padded_op(a1, a2, subtract=True)


def polyder(p: Any, m: int = 1) -> Any:
    """The ``m``-th derivative (``numpy.polyder``): ``p[:-1] * arange(n, 0,
    -1)``, ``m`` times, lazily.

    >>> import lazyten as lt
    >>> lt.polyder(lt.asarray([1, 1, 1, 1]), 2).eval()
    array([6, 2])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, np.poly1d)
    t = wrap(_coeffs(p))
    refuse_call_axis(t, 0, "lt.polyder")
    n = len(t) - 1
    y = t[:-1] * arange(n, 0, -1)     # (built even for m == 0, as NumPy does)
    val = t if m == 0 else polyder(y, m - 1)
    return poly1d(val) if truepoly else val


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The ``m``-th antiderivative with integration constants ``k``
    (``numpy.polyint``): ``concat(p / arange(len(p), 0, -1), [k[0]])``,
    ``m`` times, lazily.

    >>> import lazyten as lt
    >>> lt.polyint(lt.asarray([3.0, 2.0, 1.0])).eval()
    array([1., 1., 1., 0.])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    kt = zeros(m) if k is None else wrap(k)
    kt = F.atleast_1d(kt)
    if len(kt) == 1 and m > 1:
        kt = kt[0] * ones(m)
    if len(kt) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, np.poly1d)
    t = wrap(_coeffs(p))
    refuse_call_axis(t, 0, "lt.polyint")
    if m == 0:
        return poly1d(t) if truepoly else t
    # (NumPy's ``[k[0]]``: a one-element array of k's dtype, as k[:1] is)
    y = F.concat((t / arange(len(t), 0, -1), kt[:1]))
    val = polyint(y, m - 1, k=kt[1:])
    return poly1d(val) if truepoly else val


def polymul(a1: Any, a2: Any) -> Any:
    """The product of two polynomials (``numpy.polymul``): NumPy makes each
    a ``poly1d`` (leading zeros dropped: their count is computed now, from
    the operand's value) and convolves them (lazily).

    >>> import lazyten as lt
    >>> lt.polymul(lt.asarray([1, 2]), lt.asarray([0, 1, 1])).eval()
    array([1, 3, 2])
    """
    truepoly = isinstance(a1, np.poly1d) or isinstance(a2, np.poly1d)
    val = convolve(_trimmed(a1), _trimmed(a2))
    return poly1d(val) if truepoly else val


def poly(seq_of_zeros: Any) -> Any:
    """The coefficients of the monic polynomial with the given zeros
    (``numpy.poly``): a chain of lazy ``convolve(a, [1, -zero])``.  Computed
    now: the eigenvalues of a square matrix given instead of zeros, and,
    for complex zeros, whether they come in conjugate pairs (then the
    result is real: its dtype depends on the values).  No zeros: NumPy's
    Python float ``1.0``.

    >>> import lazyten as lt
    >>> lt.poly(lt.asarray([1.0, 2.0])).eval()
    array([ 1., -3.,  2.])
    """
    t = F.atleast_1d(wrap(seq_of_zeros))
    sh = t.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        t = wrap(np.linalg.eigvals(t.eval()))
    elif len(sh) == 1:
        if t.dtype != object:
            t = t.astype(np.mintypecode(t.dtype.char))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if len(t) == 0:
        return 1.0
    dt = t.dtype
    a = ones((1,), dtype=dt)
    one = ones((1,), dtype=dt)
    for i in range(len(t)):
        a = convolve(a, F.concat((one, -t[i:i + 1])), mode="full")
    if dt.kind == "c":
        r = np.asarray(t.eval(), complex)
        if np.all(np.sort(r) == np.sort(r.conjugate())):
            a = F.copy(a.real)
    return a


# ------------------------------------------------------------------ evaluated now

def roots(p: Any) -> Tensor:
    """The roots of the polynomial ``p`` (``numpy.roots``: the eigenvalues
    of its companion matrix).  Evaluates ``p``: the dtype depends on the
    values.

    >>> import lazyten as lt
    >>> lt.roots(lt.asarray([1.0, -3.0, 2.0])).eval()
    array([2., 1.])
    """
    return wrap(np.roots(_value(_coeffs(p))))


def polydiv(u: Any, v: Any) -> tuple[Any, Any]:
    """Quotient and remainder of ``u / v`` (``numpy.polydiv``).  Evaluates
    both: the remainder's length depends on the values.

    >>> import lazyten as lt
    >>> q, r = lt.polydiv(lt.asarray([3.0, 5.0, 2.0]), lt.asarray([2.0, 1.0]))
    >>> q.eval(), r.eval()
    (array([1.5 , 1.75]), array([0.25]))
    """
    q, r = np.polydiv(_value(u), _value(v))
    if isinstance(q, np.poly1d):
        return poly1d(q), poly1d(r)
    return wrap(q), wrap(r)


def polyfit(x: Any, y: Any, deg: int, rcond: Any = None, full: bool = False, w: Any = None,
            cov: bool | str = False) -> Any:
    """The least-squares polynomial fit (``numpy.polyfit``, with NumPy's
    ``RankWarning``).  Evaluates ``x``, ``y`` and ``w``: it solves with
    ``lstsq``.  Arrays come back as tensors; ``full``'s rank and ``rcond``
    are NumPy's numbers.

    >>> import lazyten as lt
    >>> lt.polyfit(lt.asarray([0.0, 1.0, 2.0]), lt.asarray([1.0, 3.0, 5.0]), 1).eval()
    array([2., 1.])
    """
    fit: Any = np.polyfit      # (its overloads want literal full/cov flags)
    res = fit(_value(x), _value(y), deg, rcond=rcond, full=full, w=_value(w), cov=cov)
    if isinstance(res, tuple):
        return tuple(wrap(r) if isinstance(r, np.ndarray) else r for r in res)
    return wrap(res)


# ------------------------------------------------------------------ poly1d

def _lifted(v: Any) -> Any:
    """NumPy's ``poly1d`` results (its methods build ``numpy.poly1d``) as
    ``lt.poly1d``."""
    if isinstance(v, np.poly1d) and not isinstance(v, poly1d):
        return poly1d(v)
    if isinstance(v, tuple):
        return tuple(_lifted(e) for e in v)
    return v


class poly1d(np.poly1d):  # noqa: N801 - NumPy's name
    """NumPy's one-dimensional polynomial class, whose evaluation at a
    tensor is lazy.

    The coefficients are NumPy's: an ndarray with the leading zeros
    dropped, so a tensor given to the constructor is computed now (the
    length depends on its values).  ``p(x)`` is ``lt.polyval(p.coeffs, x)``:
    a lazy tensor (a ``poly1d`` for a ``poly1d`` ``x``).  Arithmetic,
    ``integ``, ``deriv``, ``roots``, ``str`` and item access are NumPy's, on
    the coefficients; results are ``lt.poly1d``.

    >>> import lazyten as lt
    >>> p = lt.poly1d([1.0, 2.0, 3.0])
    >>> p(lt.asarray([0.0, 1.0])).eval()
    array([3., 6.])
    >>> (p * p).coeffs
    array([ 1.,  4., 10., 12.,  9.])
    """

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        super().__init__(_value(c_or_r), r=r, variable=variable)

    def __call__(self, val: Any) -> Any:
        return polyval(self.coeffs, val)

    # NumPy's methods, their operands' tensors computed, their results lifted.
    def __neg__(self) -> poly1d:
        return poly1d(super().__neg__())

    def __mul__(self, other: Any) -> Any:
        return _lifted(super().__mul__(_value(other)))

    def __rmul__(self, other: Any) -> Any:
        return _lifted(super().__rmul__(_value(other)))

    def __add__(self, other: Any) -> Any:
        return _lifted(super().__add__(_value(other)))

    def __radd__(self, other: Any) -> Any:
        return _lifted(super().__radd__(_value(other)))

    def __sub__(self, other: Any) -> Any:
        return _lifted(super().__sub__(_value(other)))

    def __rsub__(self, other: Any) -> Any:
        return _lifted(super().__rsub__(_value(other)))

    def __pow__(self, val: Any) -> Any:
        return _lifted(super().__pow__(val))

    def __truediv__(self, other: Any) -> Any:
        return _lifted(super().__truediv__(_value(other)))

    def __rtruediv__(self, other: Any) -> Any:
        return _lifted(super().__rtruediv__(_value(other)))

    def integ(self, m: SupportsInt | SupportsIndex = 1, k: Any = 0) -> poly1d:
        return poly1d(super().integ(m=m, k=_value(k)))

    def deriv(self, m: SupportsInt | SupportsIndex = 1) -> poly1d:
        return poly1d(super().deriv(m=m))
