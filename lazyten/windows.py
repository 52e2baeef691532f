"""NumPy's window functions (``bartlett``, ``blackman``, ``hamming``,
``hanning``, ``kaiser``), lazily.

Each is NumPy's own Python expression (``numpy/lib/_function_base_impl.py``)
on an ``arange`` node, written in the same order with the same constants:
``M`` is NumPy's ``np.array([0.0, M])[1]``, a strong float64 (or wider)
scalar, and ``pi``, ``0.5``, ... are weak Python floats, so the same ufuncs
run on the same values in the same dtypes and give NumPy's bits; the length
is ``M`` itself, known when the node is built.  ``kaiser`` uses ``lt.i0``
(NumPy's Cephes composition, also lazy).

>>> import lazyten as lt
>>> lt.hanning(5).eval()
array([0. , 0.5, 1. , 0.5, 0. ])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import functions as F
from .creation import arange, ones
from .setops import i0
from .tensor import Tensor

__all__: list[str] = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _length(M: Any) -> tuple[Any, Tensor | None]:
    """NumPy's prologue: ``M`` as the float scalar of ``np.array([0.0, M])``
    (at least float64), and the window itself where NumPy answers without
    arithmetic: empty for ``M < 1``, ``[1.0]`` for ``M == 1``."""
    values = np.array([0.0, M])
    m = values[1]
    if m < 1:
        return m, F.astype(arange(0), values.dtype)
    if m == 1:
        return m, ones(1, dtype=values.dtype)
    return m, None


def bartlett(M: Any) -> Tensor:
    """The Bartlett (triangular) window of ``M`` points (``numpy.bartlett``).

    >>> import lazyten as lt
    >>> lt.bartlett(5).eval()
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    m, done = _length(M)
    if done is not None:
        return done
    n = arange(1 - m, m, 2)
    return F.where(F.less_equal(n, 0), 1 + n / (m - 1), 1 - n / (m - 1))


def blackman(M: Any) -> Tensor:
    """The Blackman window of ``M`` points (``numpy.blackman``).

    >>> import lazyten as lt
    >>> lt.blackman(3).eval()
    array([-1.38777878e-17,  1.00000000e+00, -1.38777878e-17])
    """
    m, done = _length(M)
    if done is not None:
        return done
    n = arange(1 - m, m, 2)
    return 0.42 + 0.5 * F.cos(np.pi * n / (m - 1)) + 0.08 * F.cos(2.0 * np.pi * n / (m - 1))


def hamming(M: Any) -> Tensor:
    """The Hamming window of ``M`` points (``numpy.hamming``).

    >>> import lazyten as lt
    >>> lt.hamming(3).eval()
    array([0.08, 1.  , 0.08])
    """
    return _raised_cosine(M, 0.54, 0.46)


def hanning(M: Any) -> Tensor:
    """The Hann window of ``M`` points (``numpy.hanning``).

    >>> import lazyten as lt
    >>> lt.hanning(3).eval()
    array([0., 1., 0.])
    """
    return _raised_cosine(M, 0.5, 0.5)


def _raised_cosine(M: Any, a: float, b: float) -> Tensor:
    """``a + b * cos(pi * n / (M - 1))`` over NumPy's ``n`` (hamming's and
    hanning's formula, both coefficients as NumPy writes them: ``1 - a``
    is not ``b`` in floating point)."""
    m, done = _length(M)
    if done is not None:
        return done
    n = arange(1 - m, m, 2)
    return a + b * F.cos(np.pi * n / (m - 1))


def kaiser(M: Any, beta: Any) -> Tensor:
    """The Kaiser window of ``M`` points and shape ``beta``
    (``numpy.kaiser``: ``i0(beta * sqrt(1 - ((n - alpha) / alpha)**2.0)) /
    i0(beta)``).  As NumPy, only ``M == 1`` is special: ``M < 1`` is an
    empty ``arange``.

    >>> import lazyten as lt
    >>> lt.kaiser(3, 0.0).eval()
    array([1., 1., 1.])
    """
    # (NumPy: "0.0 strongly typed", so M and beta are at least float64)
    values = np.array([0.0, M, beta])
    m, b = values[1], values[2]
    if m == 1:
        return ones(1, dtype=values.dtype)
    n = arange(0, m)
    alpha = (m - 1) / 2.0
    return i0(b * F.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(b)
