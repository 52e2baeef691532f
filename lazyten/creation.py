"""Creating tensors: wrapping user data, and lazy constant-pattern tensors."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .graph import ops
from .graph.node import Node, reaches_placeholder
from .graph.shapes import sized_at_call
from .tensor import Tensor


def _dtype_ok(dt: np.dtype[Any], what: str) -> np.dtype[Any]:
    if dt.kind not in "biufc":
        raise TypeError(f"{what}: unsupported dtype {dt}; lazyten handles bool, integer, "
                        f"floating and complex data")
    return dt


def _shape(shape: Any, what: str) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        out = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"{what}: shape must be an int or a sequence of ints, "
                        f"got {shape!r}") from None
    if any(d < 0 for d in out):
        raise ValueError(f"{what}: negative dimensions are not allowed, got {out}")
    return out


def asarray(obj: Any, dtype: Any = None, copy: bool | None = None, *,
            device: Any = None, name: str | None = None) -> Tensor:
    """Wrap ``obj`` as a lazy tensor, without copying when possible (``np.asarray``).

    ``copy=True`` always copies, ``copy=False`` raises if a copy would be needed,
    ``copy=None`` copies only if needed (array API semantics).  A wrapped
    ndarray is read at evaluation time and never written by lazyten.

    >>> import numpy as np, lazyten as lt
    >>> a = np.arange(3.0)
    >>> lt.asarray(a).eval()
    array([0., 1., 2.])
    """
    if isinstance(obj, Tensor):
        t = obj
        if dtype is not None and np.dtype(dtype) != t.dtype:
            if copy is False:
                raise ValueError("asarray: a dtype change needs a copy, but copy=False")
            return t.astype(dtype)
        return Tensor(t._node) if copy else t
    if device not in (None, "cpu"):
        raise ValueError(f"asarray: unsupported device {device!r} (only 'cpu')")
    if isinstance(obj, str):
        raise TypeError(f"asarray: cannot make a tensor from a string ({obj!r})")
    try:
        arr = np.array(obj, dtype=dtype, copy=copy)
    except ValueError as e:
        if copy is False:
            raise ValueError(f"asarray: copy=False but a copy is needed ({e})") from None
        raise ValueError(f"asarray: cannot convert {type(obj).__name__} to an array: {e}") \
            from None
    _dtype_ok(arr.dtype, "asarray")
    return Tensor(ops.source(arr, name))


def array(obj: Any, dtype: Any = None, copy: bool = True) -> Tensor:
    """A tensor holding a copy of ``obj`` (``np.array``)."""
    if isinstance(obj, Tensor):
        return obj.astype(obj.dtype if dtype is None else dtype, copy=True)
    return asarray(obj, dtype=dtype, copy=copy)


def from_numpy(a: np.ndarray[Any, Any]) -> Tensor:
    return asarray(a)


def _int(v: Any, what: str, arg: str) -> int:
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what}: {arg} must be an integer, got {v!r}") from None


def _creation(name: str, shape: tuple[int, ...], dtype: np.dtype[Any], **attrs: Any) -> Tensor:
    node: Node = ops.apply(name, [], shape=shape, dtype=dtype, **attrs)
    return Tensor(node)


def _default_dtype(dtype: Any, fill: Any = 0.0) -> np.dtype[Any]:
    if dtype is None:
        return np.result_type(fill) if not isinstance(fill, float) else np.dtype(np.float64)
    return _dtype_ok(np.dtype(dtype), "creation")


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    shp = _shape(shape, "full")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if np.asarray(fill_value).dtype.kind not in "biufc":
        # Checked first: NumPy's own complaint ("could not convert string to
        # float") would not say which argument was wrong.
        raise TypeError(f"full: fill_value must be a number, got {fill_value!r}")
    dt = _default_dtype(dtype, fill_value) if dtype is not None else _dtype_ok(
        np.asarray(fill_value).dtype, "full")
    # NumPy's own conversion: an out-of-range Python int (full(3, 300, int8)) raises.
    return _creation("full", shp, dt, fill_value=np.full((), fill_value, dt)[()])


def zeros(shape: Any, dtype: Any = None) -> Tensor:
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "zeros")
    return _creation("full", _shape(shape, "zeros"), dt, fill_value=dt.type(0))


def ones(shape: Any, dtype: Any = None) -> Tensor:
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "ones")
    return _creation("full", _shape(shape, "ones"), dt, fill_value=dt.type(1))


def empty(shape: Any, dtype: Any = None) -> Tensor:
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "empty")
    return _creation("empty", _shape(shape, "empty"), dt)


def _like(x: Any, dtype: Any, shape: Any) -> tuple[tuple[int, ...], Any]:
    t = x if isinstance(x, Tensor) else asarray(x)
    return (t.shape if shape is None else _shape(shape, "like"),
            t.dtype if dtype is None else dtype)


def _sized_like(x: Any, shape: Any, made: Tensor) -> Tensor:
    """``made``, a ``full`` or ``empty`` of ``x``'s shape; where that shape
    is only known when a compiled function runs (a None placeholder
    dimension), the same as a ``full_like`` node reading ``x``'s shape, so
    that each call's specialization gets the call's (the optimizer makes it
    a ``full`` again: ``x`` is not computed)."""
    if shape is not None or not isinstance(x, Tensor) or not sized_at_call(x.shape) \
            or not reaches_placeholder(x.node):   # (a real array that large)
        return made
    n = made.node
    return Tensor(ops.apply("full_like", [x.node], fill_value=n.attrs.get("fill_value"),
                            dtype=n.dtype))


def zeros_like(x: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    return _sized_like(x, shape, zeros(*_like(x, dtype, shape)))


def ones_like(x: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    return _sized_like(x, shape, ones(*_like(x, dtype, shape)))


def empty_like(x: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    return _sized_like(x, shape, empty(*_like(x, dtype, shape)))


def full_like(x: Any, fill_value: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    shp, dt = _like(x, dtype, shape)
    return _sized_like(x, shape, full(shp, fill_value, dt))


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> Tensor:
    """``np.arange``: the length is known when the node is built."""
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if not isinstance(v, (int, float, np.integer, np.floating, np.bool_)):
            raise TypeError(f"arange: start, stop and step must be real numbers, got {v!r}")
    if step == 0:
        raise ValueError("arange: step must not be zero")
    # NumPy's arange does not use NEP 50 here: each argument counts with its
    # default dtype and the result is at least intp (np.arange(np.int16(4)) is int64).
    dt = np.dtype(dtype) if dtype is not None else np.result_type(
        np.intp, *(np.asarray(v).dtype for v in (start, stop, step)))
    if all(isinstance(v, (int, np.integer)) for v in (start, stop, step)):
        n = len(range(int(start), int(stop), int(step)))
    else:
        n = max(0, math.ceil((stop - start) / step))  # NumPy's length rule
    if np.dtype(dt) == np.bool_ and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at "
                        "most length 2.")
    return _creation("arange", (n,), _dtype_ok(np.dtype(dt), "arange"), start=start,
                     stop=stop, step=step)


def linspace(start: Any, stop: Any, num: int = 50, *, endpoint: bool = True,
             dtype: Any = None) -> Tensor:
    num = _int(num, "linspace", "num")
    for v in (start, stop):
        if not isinstance(v, (int, float, complex, np.number, np.bool_)):
            raise TypeError(f"linspace: start and stop must be numbers, got {v!r}")
    if num < 0:
        raise ValueError(f"linspace: number of samples, {num}, must be non-negative")
    dt = np.linspace(start, stop, 2, dtype=dtype).dtype
    return _creation("linspace", (num,), _dtype_ok(dt, "linspace"), start=start, stop=stop,
                     num=num, endpoint=bool(endpoint))


def eye(n_rows: int, n_cols: int | None = None, k: int = 0, dtype: Any = None) -> Tensor:
    n = _int(n_rows, "eye", "the number of rows")
    m = n if n_cols is None else _int(n_cols, "eye", "the number of columns")
    if n < 0 or m < 0:
        raise ValueError(f"eye: negative dimensions ({n}, {m})")
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "eye")
    return _creation("eye", (n, m), dt, n=n, m=m, k=_int(k, "eye", "k"))


def identity(n: int, dtype: Any = None) -> Tensor:
    return eye(n, dtype=dtype)


def meshgrid(*xs: Any, copy: bool = True, sparse: bool = False,
             indexing: str = "xy") -> tuple[Tensor, ...]:
    """NumPy's ``meshgrid``: coordinate grids of the 1-d ``xs`` (flattened).
    ``sparse=True`` gives each only its own axis (the grids broadcast);
    ``copy=False`` gives read-only broadcast views, as NumPy's, where the
    default gives tensors that may be written (each its own)."""
    from .functions import broadcast_arrays
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    ts = [asarray(x).reshape(-1) for x in xs]
    n = len(ts)
    pos = list(range(n))
    if indexing == "xy" and n >= 2:  # Cartesian: the first two axes swap
        pos[0], pos[1] = 1, 0
    out = []
    for i, t in enumerate(ts):
        shape = [1] * n
        shape[pos[i]] = t.shape[0]
        out.append(t.reshape(shape))
    if not sparse:
        out = broadcast_arrays(*out)
    # A copy is a new tensor: written, it leaves the inputs and the others be.
    return tuple(Tensor(t._node) if copy else t for t in out)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """NumPy's ``geomspace``: a constant computed now by NumPy (its values
    come from NumPy's handling of signs and complex endpoints, which a lazy
    ``logspace`` would have to repeat); tensors as endpoints are refused."""
    if isinstance(start, Tensor) or isinstance(stop, Tensor):
        raise TypeError("geomspace: start and stop must be numbers or arrays, not tensors")
    return asarray(np.geomspace(start, stop, _int(num, "geomspace", "num"),
                                endpoint=endpoint, dtype=dtype, axis=axis))


def tensor_from(shape: Sequence[int] | None = None, backing: Any = None, dtype: Any = None) -> Tensor:
    """gorgonia's ``New(WithShape(...), WithBacking(...), Of(dtype))``."""
    if backing is None:
        if shape is None:
            raise ValueError("tensor_from needs a shape or a backing")
        return zeros(shape, dtype)
    t = asarray(backing, dtype=dtype)
    if shape is not None:
        shp = _shape(shape, "tensor_from")
        if math.prod(shp) != t.size:
            raise ValueError(f"tensor_from: backing has {t.size} elements, shape {shp} needs "
                             f"{math.prod(shp)}")
        t = t.reshape(shp)
    return t
