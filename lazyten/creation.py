"""Creating tensors: wrapping user data, and lazy constant-pattern tensors."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .graph import layout as L
from .graph import ops
from .graph.node import Node
from .graph.shapes import fits_assignment
from .tensor import Tensor, array0, check_device, check_order, ignores_like, numpy_names


def _dtype_ok(dt: np.dtype[Any], what: str) -> np.dtype[Any]:
    if dt.kind not in "biufc":
        raise TypeError(f"{what}: unsupported dtype {dt}; lazyten handles bool, integer, "
                        f"floating and complex data")
    return dt


def _shape(shape: Any, what: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = shape.eval()             # (its values are the sizes: needed now)
    if isinstance(shape, (int, np.integer)) or (isinstance(shape, np.ndarray)
                                                 and shape.ndim == 0):
        shape = (shape,)
    try:
        out = tuple(_size(d) for d in shape)
    except TypeError:
        raise TypeError(f"{what}: shape must be an int or a sequence of ints, "
                        f"got {shape!r}") from None
    if any(d < 0 for d in out):
        raise ValueError(f"{what}: negative dimensions are not allowed, got {out}")
    return out


@numpy_names(a='obj')
def asarray(obj: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
            copy: bool | None = None, like: Any = None, name: str | None = None) -> Tensor:
    """Wrap ``obj`` as a lazy tensor, without copying when possible (``np.asarray``).

    ``copy=True`` always copies, ``copy=False`` raises if a copy would be needed,
    ``copy=None`` copies only if needed (array API semantics).  A wrapped
    ndarray is read at evaluation time and never written by lazyten.
    ``order`` lays the data out as NumPy's ``asarray`` does (copied where
    its layout is another); ``like`` (NEP 35) is accepted and not read: the
    result is a tensor whatever it is.

    >>> import numpy as np, lazyten as lt
    >>> a = np.arange(3.0)
    >>> lt.asarray(a).eval()
    array([0., 1., 2.])
    """
    if isinstance(obj, Tensor):
        t = obj
        if order is not None:
            from .memory import asanyarray     # (a tensor laid out in an order)
            laid: Tensor = asanyarray(t, dtype, order, device=device, copy=copy)
            return laid
        if dtype is not None and np.dtype(dtype) != t.dtype:
            if copy is False:
                raise ValueError("asarray: a dtype change needs a copy, but copy=False")
            return array0(t.astype(dtype))
        # (NumPy's array of a scalar's value is a 0-d array: ``array0``)
        return array0(t._handle() if copy else t)
    check_device(device, "asarray")
    if isinstance(obj, str):
        raise TypeError(f"asarray: cannot make a tensor from a string ({obj!r})")
    _refuse_sparse(obj, "asarray")
    o: Any = None if order is None else _order_arg(order, "asarray", "K", "CFAK")
    try:
        arr = np.array(obj, dtype=dtype, copy=copy, order=o)
    except ValueError as e:
        if copy is False:
            raise ValueError(f"asarray: copy=False but a copy is needed ({e})") from None
        raise ValueError(f"asarray: cannot convert {type(obj).__name__} to an array: {e}") \
            from None
    _dtype_ok(arr.dtype, "asarray")
    return Tensor(ops.source(arr, name))


def _refuse_sparse(obj: Any, what: str) -> None:
    """A sparse matrix (lt.sparse's, scipy's) is no dense array: NumPy would
    make a 0-d object array of it ("unsupported dtype object")."""
    import scipy.sparse as sp
    from .sparse import SparseMatrix
    if isinstance(obj, SparseMatrix) or sp.issparse(obj):
        raise TypeError(f"{what}: a sparse matrix ({type(obj).__name__}, shape {obj.shape}) "
                        f"is not a dense tensor: use S.to_dense() (or S.toarray()), or "
                        f"lt.sparse's operations")


@numpy_names(object='obj')
def array(obj: Any, dtype: Any = None, copy: bool | None = True, *, order: str | None = "K",
          subok: bool = False, ndmin: int = 0, ndmax: int = 0, like: Any = None) -> Tensor:
    """A tensor holding a copy of ``obj`` (``np.array``); ``ndmin``: at
    least that many dimensions, ones prepended.  Of a tensor, ``copy=None``
    copies only to change the dtype and ``copy=False`` never (NumPy's
    ValueError where it would have to): the tensor itself, or a view of it
    for ``ndmin``, which writes reach, as ``np.array(a, copy=False)``.
    ``order`` lays the copy out as NumPy's does; ``ndmax`` (NumPy 2.4)
    bounds the depth a nested sequence is read to; ``subok`` and ``like``
    are accepted and not read (a tensor has no subclasses)."""
    if order is not None:
        order = _order_arg(order, "array", "K", "CFAK")
    if isinstance(obj, Tensor):
        dt = obj.dtype if dtype is None else np.dtype(dtype)
        if order not in (None, "K", "A"):
            from .memory import asanyarray     # (a copy laid out in an order)
            t = asanyarray(obj, dt, order, copy=copy)
        elif copy or dt != obj.dtype:
            if copy is False:
                raise ValueError(f"array: unable to avoid a copy (copy=False) while "
                                 f"casting {obj.dtype} to {dt}")
            t = obj.astype(dt, copy=True)
        else:
            t = obj
        t = array0(t)
    else:
        if ndmax:
            obj = np.array(obj, dtype=dtype, copy=copy, order=order,  # type: ignore[arg-type]
                           ndmax=ndmax)
        t = asarray(obj, dtype=dtype, copy=copy, order=order)
    ndmin = _int(ndmin, "array", "ndmin")
    if ndmin > 64:
        raise ValueError("ndmin bigger than allowable number of dimensions NPY_MAXDIMS (=64)")
    return t if t.ndim >= ndmin else t.reshape((1,) * (ndmin - t.ndim) + t.shape)


def from_numpy(a: np.ndarray[Any, Any]) -> Tensor:
    return asarray(a)


def _size(v: Any) -> int:
    """A size as NumPy reads one: an integer, not a bool (``zeros(True)``
    is NumPy's TypeError, though ``True`` is an ``int``)."""
    if isinstance(v, (bool, np.bool_)) or isinstance(v, np.ndarray) and v.dtype == np.bool_:
        raise TypeError(f"a bool is not a size: {v!r}")
    return operator.index(v)


def _int(v: Any, what: str, arg: str, size: bool = False) -> int:
    """``v`` as an integer argument (``size``: a size, no bool, as ``_size``)."""
    try:
        return _size(v) if size else operator.index(v)
    except TypeError:
        raise TypeError(f"{what}: {arg} must be an integer, got {v!r}") from None


def _creation(name: str, shape: tuple[int, ...], dtype: np.dtype[Any], **attrs: Any) -> Tensor:
    if math.prod(shape) * dtype.itemsize > _MAX_BYTES:
        # NumPy's check when it allocates: here when the node is built.
        raise ValueError(f"{name}: array is too big; `arr.size * arr.dtype.itemsize` is "
                         f"larger than the maximum possible size (shape {shape}, {dtype})")
    node: Node = ops.apply(name, [], shape=shape, dtype=dtype, **attrs)
    return Tensor(node)


_MAX_BYTES = np.iinfo(np.intp).max


def copyto_source(src: Tensor, shape: tuple[int, ...], what: str) -> Tensor:
    """``src`` as ``np.copyto`` reads it for a destination of ``shape``: it
    must broadcast there after its extra leading unit axes are dropped (an
    assignment's rule, ``fits_assignment``), which are dropped here."""
    if not fits_assignment(src.shape, shape):
        raise ValueError(f"{what}: could not broadcast input array from shape {src.shape} "
                         f"into shape {shape}")
    return src.reshape(src.shape[src.ndim - len(shape):]) if src.ndim > len(shape) else src


def _order_arg(order: Any, what: str, default: str, allowed: str) -> str:
    """An ``order`` argument as NumPy's converter reads it: None is the
    default, any case, a string (NumPy's TypeError for another type), one
    of ``allowed`` (``check_order``'s ValueError)."""
    if order is None:
        return default
    if not isinstance(order, str):
        raise TypeError(f"{what}: order must be str, not {type(order).__name__}")
    check_order(order.upper(), what, allowed)
    return order.upper()


def _laid_out(t: Tensor, order: Any, what: str, broadcast: bool = False) -> Tensor:
    """``t``, a new array of a creation function, laid out in ``order`` as
    NumPy's is ('C' or 'F': NumPy's ValueError for another; a float sum of
    it adds in that layout's order): an 'F' of two or more dimensions is a
    copy in that order when it runs (``memory.layout_copy``), and so is a
    ``broadcast`` view (``full`` of an array: NumPy's is a new array)."""
    if isinstance(order, tuple):
        # (a ``*_like``'s order of the axes, ``_order_like``: its dense strides)
        order = L.dense_layout(t.shape, t.dtype.itemsize, order)
    else:
        order = _order_arg(order, what, "C", "CF")
    if (order == "C" and not broadcast) or t.ndim < 2 or t.size <= 1:
        return t
    from .memory import layout_copy
    return layout_copy(t, order, t.dtype)


def _order_like(x: Any, order: Any, what: str, shape: Any = None) -> str | tuple[int, ...]:
    """The layout of a ``*_like`` result: 'C' or 'F' as given, or the
    prototype's (a user's array, a value computed already, a lazy result's
    as NumPy's will be laid out: ``_computed_layout``): for 'A' F if it is
    Fortran-contiguous, for 'K' C or F where it is contiguous so, else its
    axes in the order of their strides (every axis, length-1 ones too,
    largest first, a stable sort: NumPy's ``PyArray_CreateSortedStridePerm``),
    that order of the axes, outer to inner."""
    order = _order_arg(order, what, "K", "CFAK")
    if order in ("C", "F"):
        return order
    if shape is not None and len(_shape(shape, what)) != np.ndim(x):
        return "C"                           # (NumPy: another ndim than the prototype's)
    if isinstance(x, Tensor):
        from .memory import known_value
        v = known_value(x)
        if v is None and x.ndim > 1:
            v = _computed_layout(x)
    else:
        v = x if isinstance(x, np.ndarray) else None
    if v is None or v.flags.c_contiguous:
        return "C"
    if order == "A" or v.flags.f_contiguous:
        return "F" if v.flags.f_contiguous else "C"
    perm = L.keep_order(v)
    if perm is None or list(perm) == list(range(v.ndim)):
        return "C"
    return "F" if list(perm) == list(range(v.ndim - 1, -1, -1)) else perm


def _computed_layout(x: Tensor) -> np.ndarray[Any, Any] | None:
    """A stand-in laid out as the computed result ``x``'s data is, which
    NumPy's follows its operands' (``x.T * 2``: F): known from them, or
    else learnt by computing ``x`` (``tensor.settle_layout``), as a
    ``*_like``'s "K" copies it.  None in a function being traced, where it
    is taken as C."""
    from .tensor import settle_layout
    n = x.node
    settle_layout(n)
    if not L.layout_known(n):
        return None
    return L.layout_stand_in(x.shape, x.dtype, L.write_order(n))


@ignores_like
def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *,
         device: Any = None) -> Tensor:
    """``np.full``: ``fill_value`` (a number, an array or a tensor) cast to
    ``dtype`` (default: its own) and broadcast to ``shape``.

    >>> import lazyten as lt
    >>> lt.full((2, 3), [1, 2, 3]).eval()
    array([[1, 2, 3],
           [1, 2, 3]])
    """
    check_device(device, "full")
    shp = _shape(shape, "full")
    if isinstance(fill_value, Tensor) or np.ndim(fill_value):
        # NumPy copies it into the new array, casting="unsafe": broadcast.
        fill = asarray(fill_value)
        dt = fill.dtype if dtype is None else _dtype_ok(np.dtype(dtype), "full")
        fill = copyto_source(fill, shp, "full")
        if math.prod(shp) * dt.itemsize > _MAX_BYTES:
            return _creation("full", shp, dt, fill_value=dt.type(0))   # (its error)
        # (A new tensor over a broadcast view: written, it gets its own copy.)
        return _laid_out(Tensor(ops.apply("broadcast_to", [fill.astype(dt, copy=False)._node],
                                          shape=shp)), order, "full", broadcast=True)
    try:
        # NumPy's own conversion: an out-of-range Python int (full(3, 300,
        # int8)) raises; a NumPy scalar is cast unsafely.
        value = np.full((), fill_value, dtype)
    except (TypeError, ValueError, OverflowError) as e:
        if np.asarray(fill_value).dtype.kind not in "biufcO":
            raise TypeError(f"full: fill_value must be a number, got {fill_value!r}") \
                from None
        raise type(e)(f"full: {e}") from None
    if value.dtype.kind not in "biufc":
        # (NumPy would make an object array of a string or a huge int)
        raise TypeError(f"full: fill_value must be a number, got {fill_value!r}")
    return _laid_out(_creation("full", shp, value.dtype, fill_value=value[()]), order, "full")


@ignores_like
@ops.reports("zeros")
def zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    check_device(device, "zeros")
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "zeros")
    return _laid_out(_creation("full", _shape(shape, "zeros"), dt, fill_value=dt.type(0)), order, "zeros")


@ignores_like
@ops.reports("ones")
def ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    check_device(device, "ones")
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "ones")
    return _laid_out(_creation("full", _shape(shape, "ones"), dt, fill_value=dt.type(1)), order, "ones")


@ignores_like
@ops.reports("empty")
def empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> Tensor:
    check_device(device, "empty")
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "empty")
    return _laid_out(_creation("empty", _shape(shape, "empty"), dt), order, "empty")


def _like(x: Any, dtype: Any, shape: Any) -> tuple[tuple[int, ...], Any]:
    t = x if isinstance(x, Tensor) else asarray(x)
    return (t.shape if shape is None else _shape(shape, "like"),
            t.dtype if dtype is None else dtype)


def _sized_like(x: Any, shape: Any, made: Tensor) -> Tensor:
    """``made``, a ``full`` or ``empty`` of ``x``'s shape; where that shape
    is only known when a compiled function runs (a None placeholder
    dimension, or an axis sliced from one to a bound: ``x[:2]`` is 1 long at
    a call with one element), the same as a ``full_like`` node reading ``x``'s shape, so
    that each call's specialization gets the call's (the optimizer makes it
    a ``full`` again: ``x`` is not computed)."""
    from .compile import call_sized
    if shape is not None or not isinstance(x, Tensor) \
            or not any(call_sized(x, a) for a in range(x.ndim)):
        return made
    n = made.node
    if n.op.name not in ("full", "empty"):
        return made          # (an array fill: its shape stays fixed, which specializing refuses)
    return Tensor(ops.apply("full_like", [x.node], fill_value=n.attrs.get("fill_value"),
                            dtype=n.dtype))


@numpy_names(a='x')
def zeros_like(x: Any, dtype: Any = None, order: str = "K", subok: bool = True,
               shape: Any = None, *, device: Any = None) -> Tensor:
    check_device(device, "zeros_like")
    return _laid_out(_sized_like(x, shape, zeros(*_like(x, dtype, shape))),
                     _order_like(x, order, "zeros_like", shape), "zeros_like")


@numpy_names(a='x')
def ones_like(x: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None, *, device: Any = None) -> Tensor:
    check_device(device, "ones_like")
    return _laid_out(_sized_like(x, shape, ones(*_like(x, dtype, shape))),
                     _order_like(x, order, "ones_like", shape), "ones_like")


@numpy_names(prototype='x')
def empty_like(x: Any, dtype: Any = None, order: str = "K", subok: bool = True,
               shape: Any = None, *, device: Any = None) -> Tensor:
    check_device(device, "empty_like")
    return _laid_out(_sized_like(x, shape, empty(*_like(x, dtype, shape))),
                     _order_like(x, order, "empty_like", shape), "empty_like")


@numpy_names(a='x')
def full_like(x: Any, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None, *, device: Any = None) -> Tensor:
    check_device(device, "full_like")
    shp, dt = _like(x, dtype, shape)
    return _laid_out(_sized_like(x, shape, full(shp, fill_value, dt)),
                     _order_like(x, order, "full_like", shape), "full_like")


def full_along(t: Tensor, axis: int, length: int, fill_value: Any, dtype: Any) -> Tensor:
    """A block of ``t``'s shape but ``length`` along ``axis``, all
    ``fill_value`` in ``dtype`` (``pad``'s constant blocks, ``diff``'s
    scalar ``prepend``).  Where another axis of ``t`` is sized by a
    compiled function's call (a None dimension), the block takes that
    length from ``t``'s node, not from the number it is while the graph is
    built (a ``full`` of that shape failed at every call)."""
    from .compile import call_sized
    shape = t.shape[:axis] + (length,) + t.shape[axis + 1:]
    if not any(call_sized(t, k) for k in range(t.ndim) if k != axis):
        return full(shape, fill_value, dtype)
    from .functions import repeat
    # One along ``axis`` whatever its length at a call (0 too): the sum of
    # an empty slice, which reads nothing (``t[..., 0:1]`` was empty, and
    # refused, where the axis is 0 long at a call).
    one = t[(slice(None),) * axis + (slice(0, 0),)].sum(axis=axis, keepdims=True)
    return repeat(full_like(one, fill_value, dtype), length, axis=axis)


class _NotGiven:
    """``arange``'s default start: ``arange(stop=3)`` starts at 0, where
    NumPy refuses an explicit ``arange(None, 3)``."""

    def __repr__(self) -> str:
        return "<not given>"


_NOT_GIVEN: Any = _NotGiven()


@ignores_like
def arange(start_or_stop: Any = _NOT_GIVEN, /, stop: Any = None, step: Any = None,
           dtype: Any = None, *, start: Any = _NOT_GIVEN, device: Any = None) -> Tensor:
    """``np.arange``: the length is known when the node is built (a tensor
    argument is computed now: the length depends on it).  NumPy's call
    forms: ``arange(stop)``, ``arange(start, stop[, step])``, ``stop=`` and
    ``start=`` by name (``start=`` alone is its TypeError).

    >>> import lazyten as lt
    >>> lt.arange(1, 2, 0.25).eval()
    array([1.  , 1.25, 1.5 , 1.75])
    """
    check_device(device, "arange")
    if start_or_stop is not _NOT_GIVEN:
        if start is not _NOT_GIVEN:
            raise TypeError("arange() got multiple values for argument 'start'")
        if stop is None:                     # arange(stop)
            if start_or_stop is None:
                raise TypeError("arange() requires stop to be specified.")
            start, stop = 0, start_or_stop
        else:
            start = start_or_stop
    if stop is None:
        raise TypeError("arange() requires stop to be specified.")
    elif start is _NOT_GIVEN:                # arange(stop=3)
        start = 0
    elif start is None:
        raise TypeError("arange: start is None (NumPy's unsupported operand type for -)")
    start, stop, step = (_real_number(v) for v in (start, stop, 1 if step is None else step))
    # NumPy's arange does not use NEP 50 here: each argument counts with its
    # default dtype and the result is at least intp (np.arange(np.int16(4)) is int64).
    dt = np.dtype(dtype) if dtype is not None else np.result_type(
        np.intp, *(np.asarray(v).dtype for v in (start, stop, step)))
    n = _arange_length(start, stop, step)
    if np.dtype(dt) == np.bool_ and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at "
                        "most length 2.")
    return _creation("arange", (n,), _dtype_ok(np.dtype(dt), "arange"), start=start,
                     stop=stop, step=step)


def _real_number(v: Any) -> Any:
    """An ``arange`` argument as NumPy reads it: a number, or a 0-d array's
    (a tensor's computed) NumPy scalar, which keeps its dtype."""
    if isinstance(v, Tensor):
        v = v.eval()
    if isinstance(v, np.ndarray):
        if v.ndim:
            # (NumPy's types: a one-element array's conversion, another's truth value)
            raise (TypeError if v.size == 1 else ValueError)(
                f"arange: only 0-dimensional arrays can be converted to Python scalars, "
                f"got shape {v.shape}")
        v = v[()]
    if not isinstance(v, (int, float, np.integer, np.floating, np.bool_)):
        raise TypeError(f"arange: start, stop and step must be real numbers, got {v!r}")
    return v


def _arange_length(start: Any, stop: Any, step: Any) -> int:
    """NumPy's length rule: ``ceil((stop - start) / step)`` on the arguments
    themselves, so a float quotient of wide ints rounds and NumPy integer
    scalars wrap, as in NumPy (``arange(0, 10**18 + 1, 10**17)`` has 10
    elements; a zero Python step raises ZeroDivisionError)."""
    try:
        delta = stop - start
        q = float(delta / step)
    except ZeroDivisionError:
        raise ZeroDivisionError("arange: division by zero (step is 0)") from None
    except OverflowError:   # (NEP 50: np.int8(0) - 200)
        raise ValueError(f"Maximum allowed size exceeded (arange({start!r}, {stop!r}, "
                         f"{step!r}) overflows the arguments' integer type)") from None
    if math.isnan(q):
        raise ValueError("arange: cannot compute length")
    if q == 0 and delta != 0:
        # the quotient underflowed (or the step is infinite): NumPy makes
        # one element when it is +0, none when it is -0
        return 0 if math.copysign(1.0, q) < 0 else 1
    if math.isinf(q) or q > _MAX_BYTES:
        raise ValueError("Maximum allowed size exceeded")
    return max(0, math.ceil(q))


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
             retstep: bool = False, dtype: Any = None, axis: int = 0, *,
             device: Any = None) -> Any:
    """``np.linspace``: a lazy creation node for number bounds; array (or
    tensor) bounds are computed by NumPy now.  ``retstep=True`` also returns
    the step, as NumPy computes it.

    >>> import lazyten as lt
    >>> lt.linspace(0, 1, 5).eval()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    check_device(device, "linspace")
    num = _int(num, "linspace", "num")
    if num < 0:
        raise ValueError(f"linspace: number of samples, {num}, must be non-negative")
    bounds = []
    for v in (start, stop):
        if isinstance(v, Tensor):
            v = v.eval()                    # (bounds decide values: NumPy's own code)
        if isinstance(v, np.ndarray) and v.ndim == 0:
            v = v[()]                       # a NumPy scalar keeps its dtype
        bounds.append(v)
    lo, hi = bounds
    for v in bounds:
        if not isinstance(v, (int, float, complex, np.number, np.bool_)):
            try:
                asarray(v)      # (what no array of numbers is: asarray's error)
            except (TypeError, ValueError) as e:
                raise type(e)(f"linspace: start and stop must be numbers or arrays of "
                              f"them: {e}") from None
    if any(np.ndim(v) for v in bounds) or not all(
            isinstance(v, (int, float, complex, np.number, np.bool_)) for v in bounds):
        if retstep:
            y, step = np.linspace(lo, hi, num, endpoint=endpoint, retstep=True,
                                  dtype=dtype, axis=axis)
            return asarray(y), step
        return asarray(np.linspace(lo, hi, num, endpoint=endpoint, dtype=dtype, axis=axis))
    if axis not in (0, -1):
        raise np.exceptions.AxisError(axis, 1)
    dt = np.linspace(lo, hi, 2, dtype=dtype).dtype
    t = _creation("linspace", (num,), _dtype_ok(dt, "linspace"), start=lo, stop=hi,
                  num=num, endpoint=bool(endpoint))
    if not retstep:
        return t
    # NumPy's step: (stop - start) / div in the bounds' float type, NaN
    # when there is nothing to divide by.
    div = num - 1 if endpoint else num
    ft = np.result_type(lo, hi, float(num))
    return t, (np.subtract(hi, lo, dtype=ft) / div if div > 0 else math.nan)


@ignores_like
def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
        device: Any = None) -> Tensor:
    check_device(device, "eye")
    n = _int(N, "eye", "the number of rows", size=True)
    m = n if M is None else _int(M, "eye", "the number of columns", size=True)
    if n < 0 or m < 0:
        raise ValueError(f"eye: negative dimensions ({n}, {m})")
    dt = np.dtype(np.float64) if dtype is None else _dtype_ok(np.dtype(dtype), "eye")
    return _laid_out(_creation("eye", (n, m), dt, n=n, m=m, k=_int(k, "eye", "k")), order, "eye")


@ignores_like
@ops.reports("identity")
def identity(n: int, dtype: Any = None) -> Tensor:
    return eye(n, dtype=dtype)


def meshgrid(*xs: Any, copy: bool = True, sparse: bool = False,
             indexing: str = "xy") -> tuple[Tensor, ...]:
    """NumPy's ``meshgrid``: coordinate grids of the 1-d ``xs`` (flattened).
    ``sparse=True`` gives each only its own axis (the grids broadcast);
    ``copy=False`` gives read-only broadcast views, as NumPy's, where the
    default gives tensors that may be written (each its own)."""
    from .functions import broadcast_together
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    ts = [asarray(x).reshape(-1) for x in xs]
    n = len(ts)
    pos = list(range(n))
    if indexing == "xy" and n >= 2:  # Cartesian: the first two axes swap
        pos[0], pos[1] = 1, 0
    parts = []
    for i, t in enumerate(ts):
        shape = [1] * n
        shape[pos[i]] = t.shape[0]
        parts.append(t.reshape(shape))
    out: Sequence[Tensor] = parts if sparse else broadcast_together(parts, "lt.meshgrid")
    # A copy is a new tensor: written, it leaves the inputs and the others be.
    return tuple(Tensor(t._node) if copy else t for t in out)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """NumPy's ``geomspace``: a constant computed now by NumPy (its values
    come from NumPy's handling of signs and complex endpoints, which a lazy
    ``logspace`` would have to repeat); tensor endpoints are computed now,
    as ``linspace``'s array endpoints are (their values decide the result)."""
    from .tensor import values_now
    start, stop = values_now(start, stop)
    return asarray(np.geomspace(start, stop, _int(num, "geomspace", "num"),
                                endpoint=endpoint, dtype=dtype, axis=axis))


@ignores_like
def fromfunction(function: Any, shape: Any, *, dtype: Any = float, **kwargs: Any) -> Any:
    """NumPy's ``fromfunction``: ``function(*grids, **kwargs)``, where the
    k-th grid holds each element's index along axis k in ``dtype`` (the
    rows of ``lt.indices(shape, dtype)``, as NumPy passes the rows of
    ``np.indices``).  The grids are lazy tensors, so the result is a lazy
    tensor when ``function`` builds it with lazyten's operations (NumPy's
    ufuncs on tensors are lazyten's too); whatever ``function`` returns is
    returned, as in NumPy.

    >>> import lazyten as lt
    >>> lt.fromfunction(lambda i, j: i + 10 * j, (2, 3), dtype=int).eval()
    array([[ 0, 10, 20],
           [ 1, 11, 21]])
    """
    from .manipulation import indices
    grids = indices(shape, dtype=dtype)
    assert isinstance(grids, Tensor)
    # (Rows by index, lazily: unpacking ``*grids`` would iterate, which evaluates.)
    return function(*(grids[k] for k in range(grids.shape[0] if grids.ndim > 1 else 0)),
                    **kwargs)


@ignores_like
def frombuffer(buffer: Any, dtype: Any = None, count: int = -1, offset: int = 0) -> Tensor:
    """NumPy's ``frombuffer``: the buffer's bytes read as a 1-d tensor, over
    the buffer's memory without a copy (read when evaluated, as ``lt.asarray``
    reads an array, and never written: a writeable buffer changed later is
    seen by later evaluations, as NumPy's view sees it).  NumPy's errors
    (a ``ValueError`` for a size that is not a multiple of the item size or
    an offset past the end); lazyten's ``TypeError`` for a dtype it does not
    handle (strings, records).

    >>> import lazyten as lt
    >>> lt.frombuffer(b"\\x01\\x02\\x03", dtype="u1", offset=1).eval()
    array([2, 3], dtype=uint8)
    """
    return asarray(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


@ignores_like
def fromiter(iter: Any, dtype: Any, count: int = -1) -> Tensor:  # noqa: A002 - NumPy's name
    """NumPy's ``fromiter``: a 1-d tensor of the iterable's items, read now
    (the length is the data's); ``count``: read at most that many (NumPy's
    ``ValueError`` if the iterable is shorter).

    >>> import lazyten as lt
    >>> lt.fromiter((x * x for x in range(4)), dtype=int).eval()
    array([0, 1, 4, 9])
    """
    if isinstance(iter, Tensor):
        iter = iter.eval()      # (its rows, as NumPy iterates an array; computed once)
    return asarray(np.fromiter(iter, dtype=dtype, count=count))


def fromstring(string: Any, dtype: Any = float, count: int = -1, *, sep: str = "") -> Tensor:
    """NumPy's ``fromstring`` of numbers in text separated by ``sep`` (read
    now).  NumPy's errors: its binary mode (``sep=""``, the default) is
    removed in NumPy 2 (a ``ValueError``: ``frombuffer`` reads bytes), and
    text that does not parse to its end is a ``ValueError`` too.

    >>> import lazyten as lt
    >>> lt.fromstring("1 2 3", dtype=int, sep=" ").eval()
    array([1, 2, 3])
    """
    return asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


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
