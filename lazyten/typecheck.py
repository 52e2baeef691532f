"""NumPy's array type tests (``iscomplexobj``, ``isrealobj``) and its
checked conversion ``asarray_chkfinite``.

The type tests read the dtype alone, known when a tensor is built: they
answer a Python bool at once, as NumPy does.  ``asarray_chkfinite`` must see
the values (NumPy's ValueError for a NaN or an infinity): the test, a fused
``all(isfinite(a))``, is computed now, and the tensor returned stays the
lazy ``asarray(a)``.

>>> import lazyten as lt
>>> lt.iscomplexobj(lt.asarray([1 + 0j])), lt.isrealobj(lt.asarray([1.0]))
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import functions as F
from .creation import asarray
from .tensor import Tensor, cache_now

__all__: list[str] = ["iscomplexobj", "isrealobj", "asarray_chkfinite"]


def iscomplexobj(x: Any) -> bool:
    """Whether ``x``'s dtype is complex, whatever its values
    (``numpy.iscomplexobj``).  Reads only the dtype: nothing is computed.

    >>> import lazyten as lt
    >>> lt.iscomplexobj(lt.asarray([1.0, 2.0]))
    False
    """
    if isinstance(x, Tensor):
        return bool(issubclass(x.dtype.type, np.complexfloating))
    return bool(np.iscomplexobj(x))


def isrealobj(x: Any) -> bool:
    """Whether ``x``'s dtype is not complex (``numpy.isrealobj``).  Reads
    only the dtype: nothing is computed."""
    return not iscomplexobj(x)


def asarray_chkfinite(a: Any, dtype: Any = None, order: str | None = None) -> Tensor:
    """``asarray(a, dtype, order)``, with NumPy's ValueError if a float or
    complex element is NaN or infinite (``numpy.asarray_chkfinite``).  The
    check is computed now; the result is the lazy ``asarray`` (a computed
    input's value cached by the check).

    >>> import lazyten as lt
    >>> lt.asarray_chkfinite([1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: array must not contain infs or NaNs
    """
    t = asarray(a, dtype=dtype, order=order)
    # (a computed ``t`` is cached first: the test and the result read its value)
    if t.dtype.char in np.typecodes["AllFloat"] and not bool(F.all(F.isfinite(cache_now(t)))):
        raise ValueError("array must not contain infs or NaNs")
    return t
