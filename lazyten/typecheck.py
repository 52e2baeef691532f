"""NumPy's array type tests (``iscomplexobj``, ``isrealobj``), its dtype
rules on arrays (``result_type``, ``can_cast``, ``min_scalar_type``) and its
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

__all__: list[str] = ["iscomplexobj", "isrealobj", "asarray_chkfinite", "result_type",
                      "can_cast", "min_scalar_type"]


def _dtype_of(x: Any) -> Any:
    """A tensor as its dtype, anything else as given: NumPy's dtype rules
    read an array's dtype alone (NEP 50: no array's value decides a type,
    a 0-d one's neither), so nothing is computed."""
    return x.dtype if isinstance(x, Tensor) else x


def result_type(*arrays_and_dtypes: Any) -> np.dtype[Any]:
    """NumPy's ``result_type``, a tensor read as an array of its dtype
    (Python numbers stay weak); nothing is computed.

    >>> import lazyten as lt
    >>> lt.result_type(lt.ones(3, dtype="float32"), 2.0)
    dtype('float32')
    """
    return np.result_type(*map(_dtype_of, arrays_and_dtypes))


def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    """NumPy's ``can_cast``, a tensor ``from_`` read as its dtype; nothing
    is computed."""
    # (NumPy checks the casting name: its stubs' Literal is what it accepts)
    return bool(np.can_cast(_dtype_of(from_), to, casting))  # type: ignore[arg-type]


def min_scalar_type(a: Any, /) -> np.dtype[Any]:
    """NumPy's ``min_scalar_type``: of an array with dimensions its dtype
    (nothing computed), of a 0-d one the smallest type holding its value,
    which is computed now."""
    if isinstance(a, Tensor):
        return a.dtype if a.ndim else np.min_scalar_type(a.eval())
    return np.min_scalar_type(a)


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
