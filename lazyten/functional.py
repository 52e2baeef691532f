"""NumPy's functional-programming helpers that apply a user's Python
function: ``vectorize`` and ``apply_over_axes``.

- ``vectorize`` calls a Python function once per element: no graph node can
  run it, so a call computes its tensor arguments now and runs NumPy's own
  ``np.vectorize`` (its ``otypes``, ``excluded``, ``signature``, ``cache``
  and its dtype rule: the first output's type, unless ``otypes``), and
  wraps the result as a tensor (a tuple of them for several outputs).
- ``apply_over_axes`` is NumPy's loop on tensors: the function gets a
  tensor and an axis, so a lazyten function (``lt.sum``) keeps the whole
  computation lazy.

>>> import lazyten as lt
>>> f = lt.vectorize(lambda a, b: a - b if a > b else a + b)
>>> f(lt.asarray([1, 2, 3, 4]), 2).eval()
array([3, 4, 1, 2])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import functions as F
from .tensor import Tensor, values_now, wrap

__all__: list[str] = ["vectorize", "apply_over_axes"]


def _wrapped(res: Any) -> Any:
    if isinstance(res, tuple):
        return tuple(_wrapped(r) for r in res)
    return wrap(np.asarray(res))


class vectorize(np.vectorize):  # noqa: N801 - NumPy's name
    """NumPy's ``vectorize`` (a subclass: the same construction, decorator
    forms, ``otypes``, ``excluded``, ``cache`` and ``signature``) whose calls
    take tensors and return tensors.  A call computes its tensor arguments
    now (the function is Python, run per element by NumPy) and wraps the
    result; an excluded argument is passed to the function as given.

    >>> import lazyten as lt
    >>> @lt.vectorize(otypes=[float])
    ... def half(x):
    ...     return x / 2
    >>> half(lt.asarray([1, 2])).eval()
    array([0.5, 1. ])
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.pyfunc is np._NoValue:          # (the decorator form's second step)
            return super().__call__(*args, **kwargs)
        excluded = self.excluded
        # (the tensor arguments computed in one plan: work they share done once)
        got = iter(values_now(*[a for i, a in enumerate(args) if i not in excluded],
                              *[v for k, v in kwargs.items() if k not in excluded]))
        vals = [a if i in excluded else next(got) for i, a in enumerate(args)]
        kw = {k: v if k in excluded else next(got) for k, v in kwargs.items()}
        return _wrapped(super().__call__(*vals, **kw))


def apply_over_axes(func: Callable[..., Any], a: Any, axes: Any) -> Tensor:
    """``func(a, axis)`` for each axis in turn, each result kept with the
    reduced axis re-inserted (``numpy.apply_over_axes``).  ``func`` gets a
    tensor: with lazyten functions the result stays lazy.

    >>> import lazyten as lt
    >>> lt.apply_over_axes(lt.sum, lt.arange(24).reshape(2, 3, 4), [0, 2]).eval()
    array([[[ 60],
            [ 92],
            [124]]])
    """
    val = wrap(a)
    n = val.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = wrap(func(val, axis))
        if res.ndim != val.ndim:
            res = F.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val
