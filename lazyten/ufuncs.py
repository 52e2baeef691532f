"""NumPy's ufunc methods and attributes on lazyten's elementwise functions.

``lt.add`` is a plain generated function (``functions._make_elementwise``);
calling it is a hot path, so it stays one: what NumPy's ``np.add`` has
besides ``__call__`` is attached to the function object as attributes
(free for calls, where a class with ``__call__`` would add a Python-level
hop to every ``lt.add(x, y)``), so code written against a ufunc's duck type
works unchanged:

- ``nin, nout, nargs, identity, ntypes, types, signature``: NumPy's ufunc's.
- ``reduce(array, axis=0, dtype=None, out=None, keepdims=False,
  initial=<no value>, where=True)``: lazy.  Where a lazyten reduction is
  NumPy's very call (``np.sum`` *is* ``np.add.reduce``; ``max`` is
  ``maximum.reduce``, ``prod``, ``min``, ``all``/``any`` of
  ``logical_and``/``logical_or``, ``fmax``/``fmin``'s masked_reduce) the
  node is that reduction's, so it fuses and optimizes like ``lt.sum``;
  any other ufunc is one opaque node, ``ufunc_reduce``, that runs NumPy's
  ``ufunc.reduce`` itself (no fold of lazyten's reproduces NumPy's order
  bit for bit: float16's loop accumulates in float32 within a buffer).
- ``accumulate(array, axis=0, dtype=None, out=None)``: ``cumulative_sum`` /
  ``cumulative_prod`` for add / multiply (NumPy's ``add.accumulate``, with
  the loop's dtype given), else the opaque ``ufunc_accumulate``.
- ``reduceat(array, indices, axis=0, dtype=None, out=None)``: the opaque
  ``ufunc_reduceat``.
- ``outer(A, B, **kwargs)``: ``A`` reshaped to ``A.shape + (1,) * B.ndim``
  and the elementwise call, as NumPy's ``ufunc.outer`` does it (its operands
  made arrays first: a Python scalar is no weak scalar there).
- ``at(a, indices, b=None)``: an unbuffered in-place update of ``a``; for a
  tensor a write, as ``t[idx] = v``: ``a`` takes a new version (the opaque
  ``ufunc_at`` node, NumPy's ``ufunc.at`` on a copy), seen through its views.
  An ndarray ``a`` is NumPy's own call, which writes it.

Every method checks its arguments when it is called by running NumPy's own
method on a stand-in of the operand (each axis 0 or 1 long, so errors that
depend on an axis being empty stay): NumPy's exceptions, raised on the line
that built the node, and NumPy's result dtype.  ``out=`` and ``where=`` are
NumPy's own call, now (``run_now``), as they are for the elementwise call.

``__name__`` stays lazyten's op name (``lt.acos.__name__`` is ``"acos"``
where ``np.acos.__name__`` is ``"arccos"``): the op table reads it.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from . import functions as F  # (partly initialised while it calls attach_ufunc_methods)
from .graph import ops
from .graph import shapes as S
from .graph.node import Node, reaches_placeholder
from .tensor import Tensor, run_now, snapshot, wrap, writes

# NumPy's "no value given" (``initial=<no value>``): ``initial=None`` is a
# value of its own to ``ufunc.reduce`` (no identity: empty is an error).
_NO_VALUE: Any = getattr(np, "_NoValue")
_PY_SCALARS = (bool, int, float, complex)
_ATTRIBUTES = ("nin", "nout", "nargs", "identity", "ntypes", "types", "signature")


class LazyUfunc(Protocol):
    """What type checkers may read of an elementwise function that is a
    NumPy ufunc (``cast(LazyUfunc, lt.add).reduce(t)``): the generated
    functions are declared as plain functions in ``functions.py``."""

    __name__: str
    nin: int
    nout: int
    nargs: int
    identity: Any
    ntypes: int
    types: list[str]
    signature: str | None

    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

    def reduce(self, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None,
               keepdims: bool = False, initial: Any = ..., where: Any = True) -> Any: ...

    def accumulate(self, array: Any, axis: Any = 0, dtype: Any = None,
                   out: Any = None) -> Any: ...

    def reduceat(self, array: Any, indices: Any, axis: Any = 0, dtype: Any = None,
                 out: Any = None) -> Any: ...

    def outer(self, A: Any, B: Any, /, **kwargs: Any) -> Any: ...

    def at(self, a: Any, indices: Any, b: Any = None, /) -> None: ...


# ------------------------------------------------------------------ probes


def _stand_in(shape: tuple[int, ...], dtype: np.dtype[Any],
              keep: int | None = None) -> np.ndarray[Any, Any]:
    """A read-only array of ``shape`` clipped to 0 or 1 per axis (axis
    ``keep`` keeps its length), one element of memory: what NumPy's checks
    of a ufunc method see of the operand (ndim, empty axes, dtype)."""
    shp = tuple(d if i == keep else min(d, 1) for i, d in enumerate(shape))
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), shp, (0,) * len(shp),
                                           writeable=False)


def _probe(call: Callable[[], Any]) -> np.dtype[Any]:
    """NumPy's method run on stand-ins: its exceptions, and its result's dtype."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(call()).dtype


def _now(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """NumPy's own method, now (``out=``/``where=``): a tensor result, or
    what NumPy returns when it wrote ``out``."""
    result = run_now(method, *args, **kwargs)
    if kwargs.get("out") is not None:
        return result
    return wrap(np.asarray(result))


def _scalar_initial(v: Any) -> Any:
    """``initial=`` (NumPy accepted it) as a hashable node attribute."""
    if isinstance(v, Tensor):
        v = v.eval()
    if isinstance(v, (np.ndarray, list, tuple)):
        return np.asarray(v).reshape(-1)[0]
    return v


def _dtype_attr(dtype: Any) -> np.dtype[Any] | None:
    return None if dtype is None else np.dtype(dtype)


# ------------------------------------------------------------------ opaque ops


def _reduce_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[S.Shape, dict[str, Any]]:
    x = inputs[0]
    if x.ndim == 0:          # (0-d: axis 0, -1, None or (); NumPy's result is 0-d)
        return (), attrs
    axes = S.reduction_axes(attrs["axis"], x.ndim)
    return S.reduce_shape(x.shape, axes, bool(attrs["keepdims"])), attrs


def _reduce_kwargs(attrs: dict[str, Any]) -> dict[str, Any]:
    kw = {k: attrs[k] for k in ("axis", "dtype", "keepdims")}
    if "initial" in attrs:
        kw["initial"] = attrs["initial"]
    return kw


def _reduce_impl(x: Any, **attrs: Any) -> Any:
    uf = getattr(np, attrs["ufunc"])
    return np.asarray(uf.reduce(x, **_reduce_kwargs(attrs)))


def _reduce_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    uf = getattr(np, attrs["ufunc"])
    return _probe(lambda: uf.reduce(_stand_in(inputs[0].shape, inputs[0].dtype),
                                    **_reduce_kwargs(attrs)))


def _accumulate_infer(inputs: Sequence[Node],
                      attrs: dict[str, Any]) -> tuple[S.Shape, dict[str, Any]]:
    return inputs[0].shape, attrs


def _accumulate_impl(x: Any, ufunc: str, axis: int, dtype: Any) -> Any:
    return getattr(np, ufunc).accumulate(x, axis=axis, dtype=dtype)


def _accumulate_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    uf = getattr(np, attrs["ufunc"])
    return _probe(lambda: uf.accumulate(_stand_in(inputs[0].shape, inputs[0].dtype),
                                        axis=attrs["axis"], dtype=attrs["dtype"]))


def _reduceat_infer(inputs: Sequence[Node],
                    attrs: dict[str, Any]) -> tuple[S.Shape, dict[str, Any]]:
    x, idx = inputs
    if idx.ndim != 1:
        raise ValueError(f"reduceat: indices must be 1-d, got shape {idx.shape}")
    ax = attrs["axis"]
    return x.shape[:ax] + idx.shape + x.shape[ax + 1:], attrs


def _reduceat_impl(x: Any, idx: Any, ufunc: str, axis: int, dtype: Any) -> Any:
    return getattr(np, ufunc).reduceat(x, idx, axis=axis, dtype=dtype)


def _reduceat_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    uf = getattr(np, attrs["ufunc"])
    x, ax = inputs[0], attrs["axis"]
    one = x.shape[ax] > 0 and inputs[1].shape[0] > 0
    return _probe(lambda: uf.reduceat(_stand_in(x.shape, x.dtype),
                                      np.zeros(int(one), np.intp), axis=ax,
                                      dtype=attrs["dtype"]))


def _at_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[S.Shape, dict[str, Any]]:
    return inputs[0].shape, attrs


def _at_index(key: tuple[Any, ...], arrays: Sequence[Any]) -> tuple[Any, ...]:
    """``ufunc_at``'s index from its attribute ``key`` and index arrays."""
    items: list[Any] = []
    for it in key:
        tag = it[0]
        items.append(arrays[it[1]] if tag == "a" else slice(*it[1:]) if tag == "s"
                     else None if tag == "n" else Ellipsis if tag == "e" else it[1])
    return tuple(items)


def _at_impl(a: Any, *rest: Any, ufunc: str, key: tuple[Any, ...], b: Any) -> Any:
    out = np.array(a, copy=True)
    arrays = rest[1:] if b == "input" else rest
    operand = () if b is None else (rest[0],) if b == "input" else (b[1],)
    getattr(np, ufunc).at(out, _at_index(key, arrays), *operand)
    return out


ops.register(ops.OpSpec(
    "ufunc_reduce", "linalg", _reduce_impl, _reduce_infer, _reduce_dtype, 1,
    doc="NumPy's attrs['ufunc'].reduce (axis, dtype, keepdims, initial): a ufunc "
        "lazyten has no reduction of its own for (subtract, power, ...)"))
ops.register(ops.OpSpec(
    "ufunc_accumulate", "linalg", _accumulate_impl, _accumulate_infer, _accumulate_dtype, 1,
    doc="NumPy's attrs['ufunc'].accumulate along attrs['axis']"))
ops.register(ops.OpSpec(
    "ufunc_reduceat", "linalg", _reduceat_impl, _reduceat_infer, _reduceat_dtype, 2,
    doc="NumPy's attrs['ufunc'].reduceat of input 0 at the indices input 1"))
ops.register(ops.OpSpec(
    "ufunc_at", "linalg", _at_impl, _at_infer, ops._same_dtype, None,
    doc="a copy of input 0 updated by NumPy's unbuffered attrs['ufunc'].at; the "
        "operand b is input 1 (attrs['b'] == 'input') or a Python scalar "
        "(('scalar', v)); the index arrays follow"))


# ------------------------------------------------------------------ reduce


def _binary_only(uf: np.ufunc, what: str) -> None:
    if uf.nin != 2:
        # (NumPy's words: "outer product only ...", "reduce only ...")
        raise ValueError(f"{'outer product' if what == 'outer' else what} only supported "
                         f"for binary functions")
    if uf.nout != 1:
        raise ValueError(f"{what} only supported for functions returning a single value")


def reduce(uf: np.ufunc, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None,
           keepdims: bool = False, initial: Any = _NO_VALUE, where: Any = True) -> Any:
    """NumPy's ``uf.reduce``, lazily (see the module's docstring)."""
    _binary_only(uf, "reduce")
    kw: dict[str, Any] = {"axis": axis, "dtype": dtype, "keepdims": keepdims}
    if initial is not _NO_VALUE:
        kw["initial"] = initial.eval() if isinstance(initial, Tensor) else initial
    if out is not None or where is not True:
        return _now(uf.reduce, array, out=out, where=where, **kw)
    t = wrap(array)
    dt = _probe(lambda: uf.reduce(_stand_in(t.shape, t.dtype), **kw))
    keepdims = bool(keepdims)
    shape = () if t.ndim == 0 else S.reduce_shape(
        t.shape, S.reduction_axes(axis, t.ndim), keepdims)
    if "initial" in kw and kw["initial"] is not None:
        kw["initial"] = _scalar_initial(kw["initial"])
    lazy = _mapped_reduce(uf.__name__, t, axis, dtype, keepdims, kw.get("initial", _NO_VALUE))
    if lazy is not None and lazy.dtype == dt and lazy.shape == shape:
        return lazy
    attrs = {**kw, "dtype": _dtype_attr(dtype), "keepdims": keepdims}
    return Tensor(ops.apply("ufunc_reduce", [t._node], ufunc=uf.__name__, **attrs))


def _mapped_reduce(name: str, t: Tensor, axis: Any, dtype: Any, keepdims: bool,
                   initial: Any) -> Tensor | None:
    """The lazyten reduction that is NumPy's ``name.reduce`` call itself
    (``np.sum(x, ...)`` is ``np.add.reduce(x, ...)``, ``np.max`` is
    ``np.maximum.reduce``, ``np.all``/``np.any`` are ``logical_and``/
    ``logical_or``'s reduce with dtype=bool, which on a bool result is no
    cast), or None where there is none."""
    if initial is None:
        return None                    # (no identity: NumPy's first-element start)
    init = None if initial is _NO_VALUE else initial
    if name == "add":
        return F.sum(t, axis=axis, dtype=dtype, keepdims=keepdims, initial=init)
    if name == "multiply":
        return F.prod(t, axis=axis, dtype=dtype, keepdims=keepdims, initial=init)
    if dtype is not None:
        return None
    if name == "maximum":
        return F.max(t, axis=axis, keepdims=keepdims, initial=init)
    if name == "minimum":
        return F.min(t, axis=axis, keepdims=keepdims, initial=init)
    if name in ("fmax", "fmin"):
        extra = {} if init is None else {"initial": init}
        return Tensor(ops.apply("masked_reduce", [t._node], reduce=name, axis=axis,
                                keepdims=keepdims, **extra))
    if init is not None:
        return None
    boolean = t.dtype == np.bool_
    if name == "logical_and" or (name == "bitwise_and" and boolean):
        return F.all(t, axis=axis, keepdims=keepdims)
    if name == "logical_or" or (name == "bitwise_or" and boolean):
        return F.any(t, axis=axis, keepdims=keepdims)
    return None


# ------------------------------------------------------------------ accumulate


def accumulate(uf: np.ufunc, array: Any, axis: Any = 0, dtype: Any = None,
               out: Any = None) -> Any:
    """NumPy's ``uf.accumulate``, lazily (see the module's docstring)."""
    _binary_only(uf, "accumulate")
    if out is not None:
        return _now(uf.accumulate, array, axis=axis, dtype=dtype, out=out)
    t = wrap(array)
    dt = _probe(lambda: uf.accumulate(_stand_in(t.shape, t.dtype), axis=axis, dtype=dtype))
    # (NumPy took it: None or a 1-tuple on a 1-d array is axis 0)
    one = axis[0] if isinstance(axis, tuple) else 0 if axis is None else axis
    ax = S.normalize_axis(one, t.ndim)
    if uf.__name__ in ("add", "multiply"):
        # np.cumulative_sum(x, dtype=d) is add.accumulate(x, dtype=d), and d,
        # the loop's dtype NumPy picks without one, picks the same loop.
        fn = F.cumulative_sum if uf.__name__ == "add" else F.cumulative_prod
        lazy = fn(t, axis=ax, dtype=dt)
        if lazy.dtype == dt and lazy.shape == t.shape:
            return lazy
    return Tensor(ops.apply("ufunc_accumulate", [t._node], ufunc=uf.__name__, axis=ax,
                            dtype=_dtype_attr(dtype)))


# ------------------------------------------------------------------ reduceat


def reduceat(uf: np.ufunc, array: Any, indices: Any, axis: Any = 0, dtype: Any = None,
             out: Any = None) -> Any:
    """NumPy's ``uf.reduceat``, lazily; the indices are checked now (a lazy
    tensor of them computed for it, unless it reads a compiled function's
    placeholder: then NumPy checks them when it runs)."""
    _binary_only(uf, "reduceat")
    if out is not None:
        return _now(uf.reduceat, array, indices, axis=axis, dtype=dtype, out=out)
    t = wrap(array)
    values: Any = indices
    if isinstance(indices, Tensor):
        values = None if reaches_placeholder(indices._node) else indices.eval()
    one = axis[0] if isinstance(axis, tuple) and len(axis) == 1 else axis
    if one is None and t.ndim == 1:
        one = 0                             # (NumPy's axis=None of a vector: its axis)
    try:
        keep: int | None = S.normalize_axis(one, t.ndim) if t.ndim else None
    except (TypeError, np.exceptions.AxisError):
        keep = None                         # (NumPy's error, from the probe)
    if values is not None:
        # NumPy's conversion of the indices and its bounds check, on a
        # stand-in whose reduced axis has its length (read, not stored).
        _probe(lambda: uf.reduceat(_stand_in(t.shape, t.dtype, keep), values,
                                   axis=axis, dtype=dtype))
    else:
        _probe(lambda: uf.reduceat(_stand_in(t.shape, t.dtype), np.zeros(0, np.intp),
                                   axis=axis, dtype=dtype))
    if keep is None:                        # (NumPy took what lazyten cannot: its call)
        return _now(uf.reduceat, array, indices, axis=axis, dtype=dtype)
    idx = indices if isinstance(indices, Tensor) else wrap(np.asarray(indices).astype(np.intp))
    return Tensor(ops.apply("ufunc_reduceat", [t._node, idx._node], ufunc=uf.__name__,
                            axis=keep, dtype=_dtype_attr(dtype)))


# ------------------------------------------------------------------ outer


def outer(fn: Callable[..., Any], uf: np.ufunc, A: Any, B: Any, **kwargs: Any) -> Any:
    """NumPy's ``uf.outer``: ``fn(A[..., None, ...], B, **kwargs)``, the
    operands made arrays first (``np.multiply.outer(2, int8)`` is int64)."""
    _binary_only(uf, "outer")
    a, b = (x if isinstance(x, Tensor) else wrap(np.asarray(x)) for x in (A, B))
    return fn(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


# ------------------------------------------------------------------ at


def _index_items(indices: Any) -> tuple[tuple[Any, ...], list[Tensor], tuple[Any, ...] | None]:
    """``ufunc.at``'s index: (the key of hashable items, index arrays as
    tensors, the index with NumPy values for the probe, None where a lazy
    array reads a placeholder)."""
    items = indices if isinstance(indices, tuple) else (indices,)
    key: list[tuple[Any, ...]] = []
    arrays: list[Tensor] = []
    probe: list[Any] | None = []
    for it in items:
        if it is None:
            key.append(("n",))
        elif it is Ellipsis:
            key.append(("e",))
        elif isinstance(it, slice):
            key.append(("s", it.start, it.stop, it.step))
        elif isinstance(it, (bool, np.bool_)):
            key.append(("b", bool(it)))
        elif isinstance(it, (int, np.integer)):
            key.append(("i", operator.index(it)))
        else:
            t = it if isinstance(it, Tensor) else wrap(np.asarray(it))
            key.append(("a", len(arrays)))
            arrays.append(t)
            if probe is not None and reaches_placeholder(t._node):
                probe = None
            it = t
        if probe is not None:
            probe.append(it.eval() if isinstance(it, Tensor) else it)
    return tuple(key), arrays, None if probe is None else tuple(probe)


@writes
def at(uf: np.ufunc, a: Any, indices: Any, b: Any = None) -> None:
    """NumPy's ``uf.at(a, indices, b)``: unbuffered, so a repeated index
    applies once per occurrence.  A tensor ``a`` takes the result as a new
    version (a write, as ``a[indices] = ...``); an ndarray is NumPy's."""
    operand = () if b is None else (b,)
    if not isinstance(a, Tensor):
        run_now(uf.at, a, indices, *operand, written=(0,))
        return None
    indices, b = snapshot(indices), snapshot(b)        # (a write: read at the call)
    key, arrays, probe = _index_items(indices)
    b_attr: Any = None
    inputs: list[Node] = [a._node]
    b_probe: tuple[Any, ...] = ()
    if b is not None:
        if type(b) in _PY_SCALARS:
            # (kept a Python number: NumPy reads it as a weak scalar)
            b_attr, b_probe = ("scalar", b), (b,)
        else:
            tb = wrap(b)
            b_attr = "input"
            inputs.append(tb._node)
            # (a NumPy array's values, copied at the call, checked as NumPy
            # checks them: int8 ** -1 is its ValueError now, not at the run)
            b_probe = (b if isinstance(b, np.ndarray) else np.zeros(tb.shape, tb.dtype),)
    if probe is not None:
        # NumPy's checks (index bounds, shapes, casting) on zeros of a's
        # shape (np.zeros maps untouched pages: no memory until written).
        _probe(lambda: uf.at(np.zeros(a.shape, a.dtype), probe, *b_probe))
    elif b is None and uf.nin == 2:
        raise ValueError("second operand needed for ufunc")
    elif b is not None and uf.nin == 1:
        raise ValueError("second operand provided when ufunc is unary")
    node = ops.apply("ufunc_at", inputs + [t._node for t in arrays], ufunc=uf.__name__,
                     key=key, b=b_attr)
    a._write(node)
    return None


# ------------------------------------------------------------------ attaching


def _methods(fn: Callable[..., Any], uf: np.ufunc) -> dict[str, Callable[..., Any]]:
    """The bound methods of ``fn`` (NumPy's signatures; errors located, as
    a build error, on the user's line)."""
    name = uf.__name__

    def reduce_(array: Any, axis: Any = 0, dtype: Any = None, out: Any = None,
                keepdims: bool = False, initial: Any = _NO_VALUE, where: Any = True) -> Any:
        return reduce(uf, array, axis, dtype, out, keepdims, initial, where)

    def accumulate_(array: Any, axis: Any = 0, dtype: Any = None, out: Any = None) -> Any:
        return accumulate(uf, array, axis, dtype, out)

    def reduceat_(array: Any, indices: Any, axis: Any = 0, dtype: Any = None,
                  out: Any = None) -> Any:
        return reduceat(uf, array, indices, axis, dtype, out)

    def outer_(A: Any, B: Any, /, **kwargs: Any) -> Any:
        return outer(fn, uf, A, B, **kwargs)

    def at_(a: Any, indices: Any, b: Any = None, /) -> None:
        return at(uf, a, indices, b)

    methods: dict[str, Callable[..., Any]] = {
        "reduce": reduce_, "accumulate": accumulate_, "reduceat": reduceat_,
        "outer": outer_, "at": at_}
    for meth, f in methods.items():
        f.__name__ = meth
        f.__qualname__ = f"{fn.__name__}.{meth}"
        f.__doc__ = (f"NumPy's ``numpy.{name}.{meth}``, lazily "
                     f"(``lazyten.ufuncs.{meth}``).\n\n{getattr(uf, meth).__doc__ or ''}")
        methods[meth] = ops.reports(f"{name}.{meth}")(f)
    return methods


def attach_ufunc_methods(elementwise: dict[str, Callable[..., Any]]) -> None:
    """Give every generated elementwise function that is a NumPy ufunc
    under its name (``np.fix``, ``np.real`` are plain functions: theirs
    stay plain) NumPy's ufunc attributes and methods.  An alias is the same
    function object as its op's, attached once."""
    for name, fn in elementwise.items():
        uf = getattr(np, name, None)
        spec = ops.REGISTRY.get(fn.__name__)
        if not isinstance(uf, np.ufunc) or spec is None or spec.ufunc is not uf:
            continue
        if getattr(fn, "types", None) is not None:
            continue
        for attr in _ATTRIBUTES:
            setattr(fn, attr, getattr(uf, attr))
        for meth, f in _methods(fn, uf).items():
            setattr(fn, meth, f)


__all__ = ["LazyUfunc", "accumulate", "at", "attach_ufunc_methods", "outer", "reduce",
           "reduceat"]
