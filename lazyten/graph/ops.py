"""The op registry: one ``OpSpec`` per operation, and ``apply`` to build nodes.

An entry says everything the rest of the engine needs about an op: its kind
(which passes may touch it), how to infer its shape (a pure rule from
``shapes``) and dtype (NumPy itself, probed on tiny arrays, so NEP 50 and every
special case are exactly NumPy's), its NumPy implementation (the reference
executor and the fallback backend), its numexpr template (fused kernels), and
its aliasing (which input its output is a view of).  Adding an op means adding
one entry here and one row to the op test table.
"""

from __future__ import annotations

import functools
import math
import operator
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import numpy as np

from . import shapes as S
from .node import (Node, Shape, _hashable, intern, intern_elementwise, intern_key, intern_view,
                   reaches_placeholder, remember_view, scalar_key, user_source)

# What an op is, for the passes: only "elementwise" ops fuse, only "view" ops
# alias their input, "source"/"creation" ops have no inputs; "linalg" ops are
# opaque library calls (LAPACK, scipy.sparse, NumPy's masked reductions) that
# passes leave alone.
KINDS = ("source", "creation", "elementwise", "view", "reduction", "scan",
         "contraction", "join", "update", "linalg", "kernel")

InferFn = Callable[[Sequence[Node], dict[str, Any]], tuple[Shape, dict[str, Any]]]
DtypeFn = Callable[[Sequence[Node], dict[str, Any]], np.dtype[Any]]


@dataclass(frozen=True)
class OpSpec:
    name: str
    kind: str
    impl: Callable[..., Any]
    infer: InferFn
    dtype: DtypeFn | None = None      # None: probe ``impl`` on tiny arrays (NumPy decides)
    arity: int | None = None          # None: variadic
    ufunc: np.ufunc | None = None     # elementwise ufunc: blocked loops call it with out=
    numexpr: str | None = None        # template over {0}, {1}, ...: the fused-kernel form
    # Template of the compiled-loop backend's scalar form, only for ops whose
    # scalar form is IEEE-exact, as NumPy's loop (exec/loop_backend.py).
    loop: str | None = None
    view_of: int | None = None        # aliasing: the output is a view of this input
    doc: str = ""
    aliases: tuple[str, ...] = field(default=())

    def __repr__(self) -> str:
        return f"OpSpec({self.name})"


REGISTRY: dict[str, OpSpec] = {}


def register(spec: OpSpec) -> OpSpec:
    if spec.name in REGISTRY:
        raise ValueError(f"op {spec.name} registered twice")
    REGISTRY[spec.name] = spec
    return spec


# ---------------------------------------------------------------- inference

def _broadcast(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    return S.broadcast_shapes(*(n.shape for n in inputs)), attrs


def _same_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return inputs[0].dtype


def _native_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    """The first input's dtype in the machine's byte order: NumPy's for a
    result it computes anew (``np.where``'s, ``tril``'s), where copies and
    gathers keep a big-endian ``>i4`` as it is."""
    return inputs[0].dtype.newbyteorder("=")


def _attr_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return np.dtype(attrs["dtype"])


# Cleared when full: attrs are part of the key, so ``round(a, k)`` adds an
# entry per distinct ``k`` (100,000 of them took 42 MB unbounded; 8,192 take
# about 3).
_probe_cache: dict[tuple[Any, ...], np.dtype[Any]] = {}
_PROBE_MAX = 8192
_probe_lock = threading.Lock()


def _probe_args(inputs: Sequence[Node]) -> list[Any]:
    # One element per axis, but empty where the input is empty: NumPy's
    # value-dependent errors (``int_array ** -1``) are not raised for empty
    # arrays, so the probe must not raise them either.
    return [n.attrs["value"] if n.weak else np.zeros(tuple(min(d, 1) for d in n.shape), n.dtype)
            for n in inputs]


def _weak_cacheable(v: Any) -> bool:
    """Whether a result dtype probed with the Python scalar ``v`` may be cached
    by ``v``'s type.  A Python int's *value* matters (it must fit the array's
    integer dtype: ``uint8 + -1`` and ``uint8 + 300`` raise), so only ints in
    0..127, which fit every integer dtype, share cached answers."""
    return type(v) is not int or 0 <= v <= 127


def probe_dtype(spec: OpSpec, inputs: Sequence[Node], attrs: dict[str, Any],
                attrs_key: Any = None) -> np.dtype[Any]:
    """The dtype NumPy gives ``spec.impl`` on these input dtypes.

    Weak (Python scalar) inputs are passed as the scalars themselves so NEP 50
    applies; NumPy's own errors (a bitwise op on floats, a Python int out of
    range for the array's dtype) surface here, at build time.  ``attrs_key``:
    ``_hashable(attrs)``, when the caller has it already.
    """
    sig: list[tuple[Any, ...]] = []
    cacheable = True
    for n in inputs:
        if n.weak:
            v = n.attrs["value"]
            sig.append((n.dtype, len(n.shape), type(v)))
            if not _weak_cacheable(v):
                cacheable = False
        else:
            sig.append((n.dtype, len(n.shape), None))
    key: tuple[Any, ...] = ()
    if cacheable:
        if attrs_key is None:
            attrs_key = _hashable(attrs) if attrs else ()
        key = (spec.name, attrs_key, tuple(sig))
        hit = _probe_cache.get(key)
        if hit is not None:
            return hit
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = np.asarray(spec.impl(*_probe_args(inputs), **attrs))
    dt = out.dtype
    if cacheable:
        with _probe_lock:
            if len(_probe_cache) >= _PROBE_MAX:
                _probe_cache.clear()
            _probe_cache[key] = dt
    return dt


# ---------------------------------------------------------------- elementwise ops

def _elementwise(name: str, impl: Callable[..., Any], arity: int, numexpr: str | None = None,
                 aliases: tuple[str, ...] = (), dtype: DtypeFn | None = None,
                 doc: str = "") -> OpSpec:
    uf = impl if isinstance(impl, np.ufunc) else None
    return register(OpSpec(name, "elementwise", impl, _broadcast, dtype, arity, uf,
                           numexpr, _LOOP.get(name), None, doc, aliases))


# The compiled-loop form of the ops that have one (exec/loop_backend.py):
# operands already cast to the dtype of NumPy's loop, IEEE-exact operations
# only (no libm call: NumPy's SIMD sin/exp... are not libm's).  sqrt is one:
# IEEE 754 rounds it correctly, as NumPy's SIMD loop and LLVM's do.  abs is
# fabs, which clears the sign bit of a NaN as np.abs does; maximum/minimum
# are NumPy's: the first operand if it is greater (less) or NaN, else the
# second (so maximum(-0.0, 0.0) is 0.0 and maximum(0.0, -0.0) is -0.0).
# Not negative: LLVM folds a negation into the op that reads it (-x + 1 into
# 1 - x, (-x) * (-y) into x * y), which keeps a NaN's sign where NumPy's
# negation flips it (LLVM treats NaN signs of arithmetic as unspecified).
_LOOP: dict[str, str] = {
    "add": "({0} + {1})", "subtract": "({0} - {1})", "multiply": "({0} * {1})",
    "divide": "({0} / {1})", "positive": "{0}",
    "square": "({0} * {0})", "abs": "abs({0})", "fabs": "abs({0})", "sqrt": "np.sqrt({0})",
    "maximum": "({0} if ({0} > {1} or {0} != {0}) else {1})",
    "minimum": "({0} if ({0} < {1} or {0} != {0}) else {1})",
    "less": "({0} < {1})", "less_equal": "({0} <= {1})", "greater": "({0} > {1})",
    "greater_equal": "({0} >= {1})", "equal": "({0} == {1})", "not_equal": "({0} != {1})",
    "logical_and": "({0} & {1})", "logical_or": "({0} | {1})",
    "logical_xor": "({0} != {1})", "logical_not": "(not {0})",
    # (bools only: the loop backend takes no integers)
    "bitwise_and": "({0} & {1})", "bitwise_or": "({0} | {1})",
    "bitwise_xor": "({0} != {1})", "bitwise_invert": "(not {0})",
    "where": "({1} if {0} else {2})",
    # rounding to an integral value is exact (no libm: LLVM's floor, ceil,
    # trunc and rint are the CPU's round instructions, as NumPy's SIMD ones;
    # rint rounds half to even, in the default rounding mode)
    "floor": "np.floor({0})", "ceil": "np.ceil({0})", "trunc": "np.trunc({0})",
    "rint": "np.rint({0})",
}


# name, ufunc, numexpr template (None: not fusable into numexpr), NumPy aliases.
# Templates are only used where ``exec.numexpr_backend`` has checked that
# numexpr's dtype rules give NumPy's exact result.
_UNARY: list[tuple[str, np.ufunc, str | None, tuple[str, ...]]] = [
    ("abs", np.absolute, "abs({0})", ("absolute",)),
    ("acos", np.arccos, "arccos({0})", ("arccos",)),
    ("acosh", np.arccosh, "arccosh({0})", ("arccosh",)),
    ("asin", np.arcsin, "arcsin({0})", ("arcsin",)),
    ("asinh", np.arcsinh, "arcsinh({0})", ("arcsinh",)),
    ("atan", np.arctan, "arctan({0})", ("arctan",)),
    ("atanh", np.arctanh, "arctanh({0})", ("arctanh",)),
    ("bitwise_count", np.bitwise_count, None, ()),
    ("bitwise_invert", np.invert, "(~{0})", ("invert", "bitwise_not")),
    ("cbrt", np.cbrt, None, ()),
    ("ceil", np.ceil, "ceil({0})", ()),
    ("conj", np.conjugate, "conj({0})", ("conjugate",)),
    ("cos", np.cos, "cos({0})", ()),
    ("cosh", np.cosh, "cosh({0})", ()),
    ("deg2rad", np.deg2rad, None, ("radians",)),
    ("exp", np.exp, "exp({0})", ()),
    ("exp2", np.exp2, None, ()),
    ("expm1", np.expm1, "expm1({0})", ()),
    ("fabs", np.fabs, "abs({0})", ()),
    ("floor", np.floor, "floor({0})", ()),
    ("isfinite", np.isfinite, "isfinite({0})", ()),
    ("isinf", np.isinf, "isinf({0})", ()),
    ("isnan", np.isnan, "isnan({0})", ()),
    ("log", np.log, "log({0})", ()),
    ("log10", np.log10, "log10({0})", ()),
    ("log1p", np.log1p, "log1p({0})", ()),
    ("log2", np.log2, "log2({0})", ()),
    ("logical_not", np.logical_not, "(~{0})", ()),
    ("negative", np.negative, "(-{0})", ()),
    ("positive", np.positive, "{0}", ()),
    ("rad2deg", np.rad2deg, None, ("degrees",)),
    ("reciprocal", np.reciprocal, "(1 / {0})", ()),
    ("rint", np.rint, None, ()),
    ("sign", np.sign, None, ()),
    ("signbit", np.signbit, "signbit({0})", ()),
    ("sin", np.sin, "sin({0})", ()),
    ("sinh", np.sinh, "sinh({0})", ()),
    ("spacing", np.spacing, None, ()),
    ("sqrt", np.sqrt, "sqrt({0})", ()),
    ("square", np.square, "({0} * {0})", ()),
    ("tan", np.tan, "tan({0})", ()),
    ("tanh", np.tanh, "tanh({0})", ()),
    ("trunc", np.trunc, "trunc({0})", ("fix",)),
]

_BINARY: list[tuple[str, np.ufunc, str | None, tuple[str, ...]]] = [
    ("add", np.add, "({0} + {1})", ()),
    ("atan2", np.arctan2, "arctan2({0}, {1})", ("arctan2",)),
    ("bitwise_and", np.bitwise_and, "({0} & {1})", ()),
    ("bitwise_left_shift", np.left_shift, None, ("left_shift",)),
    ("bitwise_or", np.bitwise_or, "({0} | {1})", ()),
    ("bitwise_right_shift", np.right_shift, None, ("right_shift",)),
    ("bitwise_xor", np.bitwise_xor, None, ()),
    ("copysign", np.copysign, "copysign({0}, {1})", ()),
    ("divide", np.divide, "({0} / {1})", ("true_divide",)),
    ("equal", np.equal, "({0} == {1})", ()),
    ("float_power", np.float_power, None, ()),
    ("floor_divide", np.floor_divide, None, ()),
    ("fmax", np.fmax, None, ()),
    ("fmin", np.fmin, None, ()),
    ("fmod", np.fmod, None, ()),
    ("gcd", np.gcd, None, ()),
    ("greater", np.greater, "({0} > {1})", ()),
    ("greater_equal", np.greater_equal, "({0} >= {1})", ()),
    ("heaviside", np.heaviside, None, ()),
    ("hypot", np.hypot, "hypot({0}, {1})", ()),
    ("lcm", np.lcm, None, ()),
    ("ldexp", np.ldexp, None, ()),
    ("less", np.less, "({0} < {1})", ()),
    ("less_equal", np.less_equal, "({0} <= {1})", ()),
    ("logaddexp", np.logaddexp, None, ()),
    ("logaddexp2", np.logaddexp2, None, ()),
    ("logical_and", np.logical_and, "({0} & {1})", ()),
    ("logical_or", np.logical_or, "({0} | {1})", ()),
    ("logical_xor", np.logical_xor, "({0} != {1})", ()),
    ("maximum", np.maximum, None, ()),
    ("minimum", np.minimum, None, ()),
    ("multiply", np.multiply, "({0} * {1})", ()),
    ("nextafter", np.nextafter, "nextafter({0}, {1})", ()),
    ("not_equal", np.not_equal, "({0} != {1})", ()),
    ("pow", np.power, "({0} ** {1})", ("power",)),
    ("remainder", np.remainder, None, ("mod",)),
    ("subtract", np.subtract, "({0} - {1})", ()),
]

for _name, _uf, _ne, _al in _UNARY:
    _elementwise(_name, _uf, 1, _ne, _al)
for _name, _uf, _ne, _al in _BINARY:
    _elementwise(_name, _uf, 2, _ne, _al)

_elementwise("where", np.where, 3, "where({0}, {1}, {2})",
             doc="where(cond, x, y): x where cond is true, else y")
_elementwise("real", np.real, 1, "real({0})")
_elementwise("imag", np.imag, 1, "imag({0})")


def _round_impl(x: Any, decimals: int = 0) -> Any:
    return np.round(x, decimals)


_elementwise("round", _round_impl, 1)


def _astype_impl(x: Any, dtype: Any, copy: bool = True, ufunc: bool = False) -> Any:
    x = np.asarray(x)
    if ufunc and x.ndim > 1 and not x.flags.c_contiguous:
        # A ufunc's own cast of its operand (``clip``'s) is laid out as a
        # ufunc's result, by its iterator's rule (a broadcast operand's
        # result is C), not as astype's "K" copy (broadcast axes innermost):
        # the values are the same, the layout is what ``layout.infer`` says
        from .layout import dense_layout, layout_stand_in, memory_order
        dt = np.dtype(dtype)
        lay = dense_layout(x.shape, dt.itemsize, memory_order([x], x.shape))
        out = np.empty(x.shape, dt, order="F" if lay == "F" else "C") \
            if isinstance(lay, str) else np.empty_like(layout_stand_in(x.shape, dt, lay), order="K")
        np.copyto(out, x, casting="unsafe")
        return out
    return x.astype(dtype, copy=copy)


register(OpSpec("astype", "elementwise", _astype_impl, _broadcast, _attr_dtype, 1,
                doc="cast to attrs['dtype'] (NumPy's unsafe casting)"))


def _full_like_impl(x: Any, fill_value: Any, dtype: Any) -> Any:
    shape = np.shape(x)
    return np.empty(shape, dtype) if fill_value is None else np.full(shape, fill_value, dtype)


# ``lt.zeros_like(x)`` and the like where ``x``'s shape is only known when a
# compiled function runs (``shapes.sized_at_call``): a node reading ``x``'s
# shape, so that specialization gives it each call's.  The optimizer makes
# it a ``full`` (``empty``) of that shape at once: ``x`` itself is not computed.
register(OpSpec("full_like", "elementwise", _full_like_impl, _broadcast, _attr_dtype, 1,
                doc="x's shape filled with attrs['fill_value'] (None: empty) in "
                    "attrs['dtype']; x's values are not read"))


# ---------------------------------------------------------------- sources and creation

def _no_impl(*args: Any, **kw: Any) -> Any:
    raise RuntimeError("source nodes carry their value; they are never executed")


def _const_impl(value: Any, shape: Shape = (), dtype: Any = None) -> Any:
    return value


def _shape_attr(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    return tuple(attrs["shape"]), attrs


register(OpSpec("input", "source", _no_impl, _shape_attr, _attr_dtype, 0,
                doc="a user array, read at evaluation time (zero-copy)"))
register(OpSpec("placeholder", "source", _no_impl, _shape_attr, _attr_dtype, 0,
                doc="an input bound when a compiled function is called"))
register(OpSpec("const", "source", _const_impl, _shape_attr, _attr_dtype, 0,
                doc="a scalar constant; Python scalars are weak (NEP 50)"))


def _full_impl(shape: Shape, fill_value: Any, dtype: Any) -> Any:
    # A broadcast of one element: read-only and free; the planner materializes
    # it only where a kernel must write.
    return np.full(shape, fill_value, dtype)


def _empty_impl(shape: Shape, dtype: Any) -> Any:
    return np.empty(shape, dtype)


def _arange_impl(start: Any, stop: Any, step: Any, dtype: Any, shape: Shape) -> Any:
    return np.arange(start, stop, step, dtype=dtype)


def _linspace_impl(start: Any, stop: Any, num: int, endpoint: bool, dtype: Any,
                   shape: Shape) -> Any:
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


def _eye_impl(n: int, m: int, k: int, dtype: Any, shape: Shape) -> Any:
    return np.eye(n, m, k, dtype=dtype)


register(OpSpec("full", "creation", _full_impl, _shape_attr, _attr_dtype, 0))
register(OpSpec("empty", "creation", _empty_impl, _shape_attr, _attr_dtype, 0))
register(OpSpec("arange", "creation", _arange_impl, _shape_attr, _attr_dtype, 0))
register(OpSpec("linspace", "creation", _linspace_impl, _shape_attr, _attr_dtype, 0))
register(OpSpec("eye", "creation", _eye_impl, _shape_attr, _attr_dtype, 0))


# ---------------------------------------------------------------- views

def _reshape_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    shape = S.reshape_shape(inputs[0].shape, attrs["shape"])
    return shape, {"shape": shape}


def _reshape_impl(x: Any, shape: Shape) -> Any:
    return np.reshape(x, shape)


def _transpose_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    axes = S.transpose_axes(inputs[0].ndim, attrs.get("axes"))
    return tuple(inputs[0].shape[a] for a in axes), {"axes": axes}


def _transpose_impl(x: Any, axes: tuple[int, ...]) -> Any:
    return np.transpose(x, axes)


def _getitem_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    index = attrs["index"]
    if _is_normalized_index(index):
        # Rebuilding from a node's own attrs (a view replayed on a new version
        # of its root, a pass copying a node) must give the same node.
        index = S.index_to_python(index)
    items, shape = S.normalize_index(inputs[0].shape, index)
    user_key = attrs.get("user_key")
    if user_key is None:
        return shape, {"index": items}
    # (On a graph over a placeholder's None sizes: the key as the user wrote
    # it, which each call's specialization resolves again, ``lt.function``.)
    return shape, {"index": items, "user_key": user_key}


def _is_normalized_index(index: Any) -> bool:
    return isinstance(index, tuple) and len(index) > 0 and all(
        isinstance(it, tuple) and it and it[0] in ("i", "s", "n") for it in index)


def _getitem_impl(x: Any, index: tuple[Any, ...], user_key: Any = None) -> Any:
    # The trailing ``...`` (covering no axes: the index is fully expanded) makes
    # an all-integer index a 0-d view rather than a NumPy scalar (a copy).
    return np.asarray(x)[S.index_to_python(index) + (Ellipsis,)]


def _broadcast_to_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    src, dst = inputs[0].shape, tuple(int(d) for d in attrs["shape"])
    if any(d < 0 for d in dst):
        raise ValueError(f"negative dimension in target shape {dst}")
    if not S.broadcasts_to(src, dst):
        raise ValueError(f"cannot broadcast shape {src} to {dst}")
    if math.prod(dst) > np.iinfo(np.intp).max:
        raise ValueError(f"iterator is too large (a view of shape {dst})")
    return dst, {"shape": dst}


def _broadcast_to_impl(x: Any, shape: Shape) -> Any:
    return np.broadcast_to(x, shape)


def _diagonal_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    nd = inputs[0].ndim
    shape = S.diagonal_shape(inputs[0].shape, attrs["offset"], attrs["axis1"], attrs["axis2"])
    return shape, {"offset": int(attrs["offset"]), "axis1": S.normalize_axis(attrs["axis1"], nd),
                   "axis2": S.normalize_axis(attrs["axis2"], nd)}


def _diagonal_impl(x: Any, offset: int, axis1: int, axis2: int) -> Any:
    return np.diagonal(x, offset, axis1, axis2)


def _view(name: str, impl: Callable[..., Any], infer: InferFn, doc: str) -> None:
    register(OpSpec(name, "view", impl, infer, _same_dtype, 1, view_of=0, doc=doc))


_view("reshape", _reshape_impl, _reshape_infer, "a view when the layout allows, else a copy")
_view("transpose", _transpose_impl, _transpose_infer, "permute axes (a view)")
_view("getitem", _getitem_impl, _getitem_infer, "basic indexing: ints, slices, None (a view)")
_view("broadcast_to", _broadcast_to_impl, _broadcast_to_infer, "a read-only broadcast view")
_view("diagonal", _diagonal_impl, _diagonal_infer, "a read-only diagonal view")


def _squeeze_guard_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                         ) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    for a in attrs["axes"]:
        if x.shape[a] == 1:
            raise ValueError(
                f"squeeze without axis: axis {a} is 1 long at this call, which NumPy would "
                f"squeeze out, but the compiled graph keeps it (its axes were chosen when it "
                f"was built, where that length depended on a None dimension); give squeeze "
                f"its axis, or trace with @lt.jit")
    return x.shape, {"axes": tuple(attrs["axes"])}


def _squeeze_guard_impl(x: Any, axes: tuple[int, ...]) -> Any:
    return x[...]


# ``squeeze()`` (no axis) over a compiled function's call-sized axes: the
# input itself, whose shape rule, made again for each call, refuses where
# one of those axes is 1 (the axes to drop were chosen when built).
_view("squeeze_guard", _squeeze_guard_impl, _squeeze_guard_infer,
      "input 0 itself (a view), whose shape rule raises where an axis in attrs['axes'] is 1")


def _view_dtype_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                      ) -> tuple[Shape, dict[str, Any]]:
    """NumPy's ``a.view(dtype)``: the same bytes read as ``dtype``; of
    another item size the last axis' length scales (its bytes must divide)."""
    x = inputs[0]
    dt = np.dtype(attrs["dtype"])
    if dt.kind not in "biufc":
        raise TypeError(f"view: unsupported dtype {dt}; lazyten handles bool, integer, "
                        f"floating and complex data")
    old, new = x.dtype.itemsize, dt.itemsize
    if old == new:
        return x.shape, {"dtype": dt}
    if x.ndim == 0:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize "
                         "is unchanged")
    nbytes = x.shape[-1] * old
    if nbytes % new:
        raise ValueError(f"When changing to a {'smaller' if new < old else 'larger'} dtype, "
                         f"its size must be a divisor of the size of the last axis of the "
                         f"array ({x.shape[-1]} x {old} bytes to {dt})")
    return x.shape[:-1] + (nbytes // new,), {"dtype": dt}


def _view_dtype_impl(x: Any, dtype: np.dtype[Any]) -> Any:
    return np.asarray(x).view(dtype)


# The one view whose dtype is not its input's (``graph.verify`` knows it).
register(OpSpec("view_dtype", "view", _view_dtype_impl, _view_dtype_infer,
                lambda inputs, attrs: np.dtype(attrs["dtype"]), 1, view_of=0,
                doc="the bytes of input 0 read as attrs['dtype'] (a.view(dtype)): a view"))


# ---------------------------------------------------------------- reductions and scans

def _reduce_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    axes = S.reduction_axes(attrs.get("axis"), x.ndim)
    keep = bool(attrs.get("keepdims", False))
    out = dict(attrs)
    out["axis"] = axes
    out["keepdims"] = keep
    return S.reduce_shape(x.shape, axes, keep), out


def _legacy_0d_axis(x: Node, axis: Any) -> bool:
    """NumPy's ufunc reductions, argmin/argmax and cumulative_sum accept axis 0
    or -1 on a 0-d array as if it were 1-d (mean, var and std do not)."""
    return (x.ndim == 0 and isinstance(axis, (int, np.integer))
            and not isinstance(axis, (bool, np.bool_)) and axis in (0, -1))


def _ufunc_reduce_infer(inputs: Sequence[Node],
                        attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    if _legacy_0d_axis(inputs[0], attrs.get("axis")):
        attrs = {**attrs, "axis": None}
    return _reduce_infer(inputs, attrs)


def _reduction(name: str, impl: Callable[..., Any], doc: str = "",
               infer: InferFn = _ufunc_reduce_infer) -> None:
    register(OpSpec(name, "reduction", impl, infer, None, 1, doc=doc))


def _sum_impl(x: Any, axis: tuple[int, ...], keepdims: bool, dtype: Any = None) -> Any:
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=dtype)


def _prod_impl(x: Any, axis: tuple[int, ...], keepdims: bool, dtype: Any = None) -> Any:
    return np.prod(x, axis=axis, keepdims=keepdims, dtype=dtype)


def _mean_impl(x: Any, axis: tuple[int, ...], keepdims: bool, dtype: Any = None) -> Any:
    return np.mean(x, axis=axis, keepdims=keepdims, dtype=dtype)


def _var_impl(x: Any, axis: tuple[int, ...], keepdims: bool, correction: float = 0,
              dtype: Any = None) -> Any:
    return np.var(x, axis=axis, keepdims=keepdims, ddof=correction, dtype=dtype)


def _std_impl(x: Any, axis: tuple[int, ...], keepdims: bool, correction: float = 0,
              dtype: Any = None) -> Any:
    return np.std(x, axis=axis, keepdims=keepdims, ddof=correction, dtype=dtype)


def _min_impl(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    return np.min(x, axis=axis, keepdims=keepdims)


def _max_impl(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    return np.max(x, axis=axis, keepdims=keepdims)


def _any_impl(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    return np.any(x, axis=axis, keepdims=keepdims)


def _all_impl(x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    return np.all(x, axis=axis, keepdims=keepdims)


_reduction("sum", _sum_impl)
_reduction("prod", _prod_impl)
_reduction("mean", _mean_impl, infer=_reduce_infer)
_reduction("var", _var_impl, infer=_reduce_infer)
_reduction("std", _std_impl, infer=_reduce_infer)
_reduction("min", _min_impl)
_reduction("max", _max_impl)
_reduction("any", _any_impl)
_reduction("all", _all_impl)


# A reduction with a ``where=`` mask (input 1, when given), an ``initial=``
# value or, for var/std, a precomputed ``mean=`` (the last input, when the
# attr ``with_mean`` says so); also NumPy's ``fmin``/``fmax`` reductions
# (``nanmin``/``nanmax``, whose zeros are not ``min``'s).  NumPy's masked reduction adds up runs of
# unmasked elements in its own order, which no rewrite over ``where(mask, x,
# 0)`` reproduces bit for bit, so NumPy runs it whole (an opaque call, like
# "linalg").
_MASKED_REDUCERS: dict[str, Callable[..., Any]] = {
    "sum": np.sum, "prod": np.prod, "mean": np.mean, "var": np.var, "std": np.std,
    "min": np.min, "max": np.max, "any": np.any, "all": np.all,
    "fmin": np.fmin.reduce, "fmax": np.fmax.reduce}
_NO_IDENTITY = frozenset({"min", "max", "fmin", "fmax"})


def _masked_reduce_infer(inputs: Sequence[Node],
                         attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x, where, mean = _masked_reduce_operands(inputs, attrs)
    if mean is not None:
        if attrs["reduce"] not in ("var", "std"):
            raise TypeError(f"{attrs['reduce']} takes no mean=")
        if not S.broadcasts_to(mean.shape, x.shape):
            # (NumPy's docs: "a shape as if it was calculated with keepdims=True")
            raise ValueError(f"mean= of shape {mean.shape} does not broadcast to the "
                             f"operand's shape {x.shape}; give it the shape of a mean "
                             f"taken with keepdims=True")
    if where is not None:
        if where.dtype != np.bool_:
            raise TypeError(f"where= must be a boolean array, got {where.dtype}")
        if not S.broadcasts_to(where.shape, x.shape):
            raise ValueError(f"where= of shape {where.shape} does not broadcast to the "
                             f"operand's shape {x.shape}")
    red = attrs["reduce"]
    # (with a mask NumPy's mean/var/std take a 0-d array's axis 0 too, as
    # its ufunc reductions do)
    shape, plain = _ufunc_reduce_infer([x], {"axis": attrs.get("axis"),
                                             "keepdims": attrs.get("keepdims", False)})
    if red in _NO_IDENTITY and attrs.get("initial") is None:
        if where is not None:
            raise ValueError(f"reduction operation {red!r} does not have an identity, so to "
                             f"use a where mask one has to specify 'initial'")
        if any(x.shape[a] == 0 for a in plain["axis"]):
            raise ValueError(f"zero-size array to reduction operation {red} which has no "
                             f"identity")
    return shape, {**attrs, "axis": plain["axis"], "keepdims": plain["keepdims"]}


def _masked_reduce_operands(inputs: Sequence[Any], attrs: dict[str, Any]
                            ) -> tuple[Any, Any | None, Any | None]:
    """(operand, where mask or None, mean or None) of a masked_reduce."""
    rest = list(inputs[1:])
    mean = rest.pop() if attrs.get("with_mean") else None
    return inputs[0], (rest[0] if rest else None), mean


def _masked_reduce_impl(*inputs: Any, reduce: str, with_mean: bool = False,
                        **kw: Any) -> Any:
    x, where, mean = _masked_reduce_operands(inputs, {"with_mean": with_mean})
    if where is not None:
        kw["where"] = where
    if mean is not None:
        kw["mean"] = mean
    return _MASKED_REDUCERS[reduce](x, **kw)


def _masked_reduce_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    # Run on one element: NumPy's own errors (``initial=300`` for int8) come
    # from this line, and ``dtype=`` / ``initial`` / the mean's dtype decide
    # the result's dtype.
    ones = [np.ones((1,) * n.ndim, n.dtype) for n in inputs]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(_masked_reduce_impl(*ones, **attrs)).dtype


register(OpSpec("masked_reduce", "linalg", _masked_reduce_impl, _masked_reduce_infer,
                _masked_reduce_dtype, None,
                doc="attrs['reduce'] (sum, ..., all, fmin, fmax) with NumPy's where= mask "
                    "(input 1, if any), initial= and, for var/std, mean= (the last "
                    "input, if attrs['with_mean'])"))


def _argreduce_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    axis, keep = attrs.get("axis"), bool(attrs.get("keepdims", False))
    if axis is None or _legacy_0d_axis(x, axis):
        shape: Shape = (1,) * x.ndim if keep else ()
        return shape, {"axis": None, "keepdims": keep}
    (ax,) = S.reduction_axes(axis, x.ndim)
    return S.reduce_shape(x.shape, (ax,), keep), {"axis": ax, "keepdims": keep}


def _argmin_impl(x: Any, axis: int | None, keepdims: bool) -> Any:
    return np.argmin(x, axis=axis, keepdims=keepdims)


def _argmax_impl(x: Any, axis: int | None, keepdims: bool) -> Any:
    return np.argmax(x, axis=axis, keepdims=keepdims)


register(OpSpec("argmin", "reduction", _argmin_impl, _argreduce_infer, None, 1))
register(OpSpec("argmax", "reduction", _argmax_impl, _argreduce_infer, None, 1))


def _cumsum_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    axis = attrs.get("axis")
    if isinstance(axis, tuple):  # NumPy's accumulate takes a 1-tuple too
        for a in axis:  # and checks each axis first
            S.normalize_axis(a, max(x.ndim, 1))
        if len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = axis[0]
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"axis must be given for a {x.ndim}-d input")
        axis = 0
    inc = bool(attrs.get("include_initial", False))
    if x.ndim == 0:  # NumPy scans a 0-d array as a 1-d array of one element
        (ax,) = S.reduction_axes(axis, 1)
        return (1 + inc,), {"axis": ax, "dtype": attrs.get("dtype"), "include_initial": inc}
    (ax,) = S.reduction_axes(axis, x.ndim)
    shape = tuple(d + (1 if inc and i == ax else 0) for i, d in enumerate(x.shape))
    return shape, {"axis": ax, "dtype": attrs.get("dtype"), "include_initial": inc}


def _cumsum_impl(x: Any, axis: int, dtype: Any, include_initial: bool) -> Any:
    return np.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)


def _cumprod_impl(x: Any, axis: int, dtype: Any, include_initial: bool) -> Any:
    return np.cumulative_prod(x, axis=axis, dtype=dtype, include_initial=include_initial)


register(OpSpec("cumulative_sum", "scan", _cumsum_impl, _cumsum_infer, None, 1))
register(OpSpec("cumulative_prod", "scan", _cumprod_impl, _cumsum_infer, None, 1))


# ---------------------------------------------------------------- contractions

def _matmul_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    return S.matmul_shape(inputs[0].shape, inputs[1].shape), attrs


def _tensordot_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    a, b = inputs[0].shape, inputs[1].shape
    ax_a, ax_b = S.tensordot_axes(a, b, attrs["axes"])
    return S.tensordot_shape(a, b, ax_a, ax_b), {"axes": (ax_a, ax_b)}


def _tensordot_impl(a: Any, b: Any, axes: Any) -> Any:
    return np.tensordot(a, b, axes)


def _vecdot_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    a, b = inputs[0].shape, inputs[1].shape
    if not a or not b:
        raise ValueError("vecdot needs at least one dimension in each operand")
    axis = attrs.get("axis", -1)
    ia, ib = S.normalize_axis(axis, len(a)), S.normalize_axis(axis, len(b))
    if a[ia] != b[ib]:
        raise ValueError(f"contracted dimensions differ: {a[ia]} (axis {axis} of {a}) vs "
                         f"{b[ib]} (axis {axis} of {b})")
    ra = a[:ia] + a[ia + 1:]
    rb = b[:ib] + b[ib + 1:]
    return S.broadcast_shapes(ra, rb), {"axis": int(axis)}


def _vecdot_impl(a: Any, b: Any, axis: int) -> Any:
    # NumPy's vecdot needs the contracted axis last in both operands.
    a = np.moveaxis(np.asarray(a), axis, -1)
    b = np.moveaxis(np.asarray(b), axis, -1)
    return np.vecdot(a, b)


def _matvec_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    """NumPy's ``matvec``, ``(..., m, n), (..., n) -> (..., m)``."""
    a, b = inputs[0].shape, inputs[1].shape
    if len(a) < 2 or len(b) < 1:
        raise ValueError(f"matvec: needs a matrix and a vector (at least 2 and 1 dimensions), "
                         f"got shapes {a} and {b}")
    if a[-1] != b[-1]:
        raise ValueError(f"matvec: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,n),(n)->(m) (size {b[-1]} is different "
                         f"from {a[-1]})")
    return S.broadcast_shapes(a[:-2], b[:-1]) + a[-2:-1], attrs


def _vecmat_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    """NumPy's ``vecmat``, ``(..., n), (..., n, m) -> (..., m)``."""
    a, b = inputs[0].shape, inputs[1].shape
    if len(a) < 1 or len(b) < 2:
        raise ValueError(f"vecmat: needs a vector and a matrix (at least 1 and 2 dimensions), "
                         f"got shapes {a} and {b}")
    if a[-1] != b[-2]:
        raise ValueError(f"vecmat: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n),(n,m)->(m) (size {b[-2]} is different "
                         f"from {a[-1]})")
    return S.broadcast_shapes(a[:-1], b[:-2]) + b[-1:], attrs


def _dot_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    a, b = inputs[0].shape, inputs[1].shape
    if not a or not b:
        return S.broadcast_shapes(a, b), attrs
    if len(b) == 1:
        if a[-1] != b[0]:
            raise ValueError(f"shapes {a} and {b} not aligned: {a[-1]} (dim {len(a) - 1}) "
                             f"!= {b[0]} (dim 0)")
        return a[:-1], attrs
    if a[-1] != b[-2]:
        raise ValueError(f"shapes {a} and {b} not aligned: {a[-1]} (dim {len(a) - 1}) != "
                         f"{b[-2]} (dim {len(b) - 2})")
    return a[:-1] + b[:-2] + b[-1:], attrs


def _trace_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    d = S.diagonal_shape(x.shape, attrs["offset"], attrs["axis1"], attrs["axis2"])
    nd = x.ndim
    return d[:-1], {"offset": int(attrs["offset"]), "axis1": S.normalize_axis(attrs["axis1"], nd),
                    "axis2": S.normalize_axis(attrs["axis2"], nd), "dtype": attrs.get("dtype")}


def _trace_impl(x: Any, offset: int, axis1: int, axis2: int, dtype: Any) -> Any:
    return np.trace(x, offset, axis1, axis2, dtype=dtype)


# einsum's labels, in the order of NumPy's integer labels (0-25 ``A``-``Z``,
# 26-51 ``a``-``z``), so that alphabetical order is the labels' order.
EINSUM_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _einsum_spelled(spec: str, shapes: Sequence[Shape]) -> tuple[list[str], str]:
    """The terms and the output of ``spec`` with every ``...`` spelled out
    in letters no term uses (the same letters, right-aligned, for every
    operand: they broadcast) and the output explicit (implicit: the
    ellipsis axes, then the letters used once, in alphabetical order)."""
    lhs, arrow, out = spec.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"{spec!r} names {len(terms)} operands, got {len(shapes)}")
    for t in terms + ([out] if arrow else []):
        if not all(c in EINSUM_LETTERS for c in t.replace("...", "", 1)):
            raise ValueError(f"einstein sum subscript {t!r} is not valid: letters and at most "
                             f"one '...' only")
    free = [c for c in EINSUM_LETTERS if c not in spec]
    extra = []
    for t, shape in zip(terms, shapes):
        count = len(t.replace("...", ""))
        if "..." not in t and count != len(shape) or count > len(shape):
            raise ValueError(f"operand has more dimensions than subscripts given in einstein "
                             f"sum, but no '...' ellipsis provided to broadcast the extra "
                             f"dimensions (term {t!r}, shape {shape})" if count < len(shape)
                             else f"term {t!r} has {count} axes but its operand has shape {shape}")
        extra.append(len(shape) - count)
    ell = "".join(free[:max(extra, default=0)])
    spelled = [t.replace("...", ell[len(ell) - k:]) for t, k in zip(terms, extra)]
    if not arrow:
        named = "".join(terms).replace("...", "")
        return spelled, ell + "".join(sorted(c for c in set(named) if named.count(c) == 1))
    if "..." not in out and ell:
        raise ValueError("output has more dimensions than subscripts given in einstein sum, "
                         "but no '...' ellipsis provided to broadcast the extra dimensions.")
    return spelled, out.replace("...", ell)


def _einsum_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    spec = attrs["subscripts"].replace(" ", "")
    terms, out = _einsum_spelled(spec, [n.shape for n in inputs])
    sizes: dict[str, int] = {}
    for t, n in zip(terms, inputs):
        own: dict[str, int] = {}
        for c, d in zip(t, n.shape):
            # (one operand's repeated label takes its diagonal: equal sizes,
            # where across operands a size 1 broadcasts)
            if own.setdefault(c, d) != d:
                raise ValueError(f"dimensions in single operand for collapsing index {c!r} "
                                 f"don't match ({own[c]} != {d})")
            old = sizes.get(c, d)
            if old != d and 1 not in (old, d):
                raise ValueError(f"axis {c!r} is {old} in one operand and {d} in another")
            sizes[c] = d if old == 1 else old
    if len(set(out)) != len(out):
        raise ValueError(f"einstein sum subscripts string includes output subscript {out!r} "
                         f"more than once")
    for c in out:
        if c not in sizes:
            raise ValueError(f"einstein sum subscripts string included output subscript {c!r} "
                             f"which never appeared in an input")
    return tuple(sizes[c] for c in out), {"subscripts": spec,
                                          "optimize": attrs.get("optimize", False)}


def _einsum_impl(*arrays: Any, subscripts: str, optimize: Any = False) -> Any:
    # (an explicit path is kept as a tuple, hashable; NumPy wants a list)
    return np.einsum(subscripts, *arrays,
                     optimize=list(optimize) if isinstance(optimize, tuple) else optimize)


def _einsum_view_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                       ) -> tuple[Shape, dict[str, Any]]:
    spec = attrs["subscripts"].replace(" ", "")
    shape, _ = _einsum_infer(inputs, {"subscripts": spec})
    return shape, {"subscripts": spec}


def _einsum_view_impl(x: Any, subscripts: str) -> Any:
    return np.einsum(subscripts, x)


# One operand's einsum that sums nothing: NumPy returns a view ('ii->i' is
# the diagonal, 'iij->ji' one transposed), writable, unlike ``np.diagonal``'s.
_view("einsum_view", _einsum_view_impl, _einsum_view_infer,
      "one operand's einsum that sums no label ('ii->i', 'iij->ji'): a writable view")

register(OpSpec("matmul", "contraction", np.matmul, _matmul_infer, None, 2))
register(OpSpec("tensordot", "contraction", _tensordot_impl, _tensordot_infer, None, 2))
register(OpSpec("vecdot", "contraction", _vecdot_impl, _vecdot_infer, None, 2))
register(OpSpec("dot", "contraction", np.dot, _dot_infer, None, 2))
# NumPy's own gufunc loops (a conjugating dot for complex vecmat): no
# composition of matmul or vecdot gives their bits.
register(OpSpec("matvec", "contraction", np.matvec, _matvec_infer, None, 2))
register(OpSpec("vecmat", "contraction", np.vecmat, _vecmat_infer, None, 2))
register(OpSpec("trace", "contraction", _trace_impl, _trace_infer, None, 1))
register(OpSpec("einsum", "contraction", _einsum_impl, _einsum_infer, None, None))


# ---------------------------------------------------------------- joining and updates

def _concat_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    axis = attrs.get("axis", 0)
    shape = S.concat_shape([n.shape for n in inputs], axis)
    ax = None if axis is None else S.normalize_axis(axis, inputs[0].ndim)
    return shape, {"axis": ax}


def _concat_impl(*arrays: Any, axis: int | None) -> Any:
    return np.concatenate(arrays, axis=axis)


register(OpSpec("concat", "join", _concat_impl, _concat_infer, None, None))


def _setitem_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    base, val = inputs
    index = attrs["index"]
    if _is_normalized_index(index):  # rebuilt from its own attrs (a pass, verify_graph)
        index = S.index_to_python(index)
    items, sub = S.normalize_index(base.shape, index)
    _check_assignment(base, val, sub)
    if attrs.get("scalar"):
        return base.shape, {"index": items, "scalar": True}
    return base.shape, {"index": items}


def _check_assignment(base: Node, val: Node, sub: Shape) -> None:
    if not S.fits_assignment(val.shape, sub):
        raise ValueError(f"could not broadcast input array from shape {val.shape} into "
                         f"shape {sub}")
    if not np.can_cast(val.dtype, base.dtype, "unsafe"):
        raise TypeError(f"cannot assign {val.dtype} into {base.dtype}")


def _setitem_into(out: Any, val: Any, index: tuple[Any, ...], scalar: bool = False) -> Any:
    # ``scalar``: the value is NumPy's scalar (an element, a 0-d result),
    # which NumPy converts as a number: a float NaN or infinity into
    # integers is its ValueError, where a 0-d array is cast (a warning).
    # Otherwise it is an array, though computed as a scalar here
    # (``np.asarray(t.sum())``: cast, never converted).
    out[S.index_to_python(index)] = val[()] if scalar else \
        np.asarray(val) if isinstance(val, np.generic) else val
    return out


def _setitem_impl(base: Any, val: Any, index: tuple[Any, ...], scalar: bool = False) -> Any:
    return _setitem_into(np.array(base, copy=True), val, index, scalar)


register(OpSpec("setitem", "update", _setitem_impl, _setitem_infer, _same_dtype, 2,
                doc="functional update: a copy of input 0 with input 1 written at index"))


def _view_update_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    base, val = inputs
    dt = base.dtype
    for name, a in attrs["path"]:
        spec = REGISTRY[name]
        if name in ("real", "imag"):
            # ``c.real`` / ``c.imag`` are NumPy views of a complex array's
            # parts; a real array's ``.imag`` is a read-only array of zeros.
            if dt.kind != "c" and name == "imag":
                raise ValueError("assignment destination is read-only: a real array's "
                                 ".imag is not part of it")
            dt = np.empty(0, dt).real.dtype
            continue
        if spec.kind != "view":
            raise TypeError(f"cannot write through {name}: it is not a view")
        if name in _READ_ONLY_VIEWS:  # NumPy refuses at once; so do we, at build time
            raise ValueError(f"assignment destination is read-only: cannot write through "
                             f"a {name} view")
    order = attrs.get("order", "K")
    if order not in ("K", "F") and not isinstance(order, tuple):
        raise ValueError(f"view_update: order must be 'K', 'F' or strides, got {order!r}")
    return base.shape, attrs


# Views NumPy returns read-only: a write through them is an error.
_READ_ONLY_VIEWS = frozenset({"broadcast_to", "diagonal"})


def _view_update_impl(base: Any, val: Any, path: tuple[tuple[str, Any], ...],
                      order: Literal["K", "F"] | tuple[int, ...] = "K") -> Any:
    # The copy keeps the base's layout, or takes the one that the build-time
    # view decisions assumed (``tensor.write_order``: "F"), since a reshape
    # is a view or a copy by it.
    out = _copy_in_layout(base, order) if isinstance(order, tuple) else \
        np.array(base, copy=True, order=order)
    return _written_through(out, val, path)


def _view_update_into(out: Any, val: Any, path: tuple[tuple[str, Any], ...],
                      order: Literal["K", "F"] | tuple[int, ...] = "K") -> Any:
    """``_view_update_impl`` written into ``out`` itself (a planner's dying
    buffer: ``UPDATE_INTO``) where the copy would be laid out as ``out`` is
    (dense, in its own order or Fortran's), else into that copy."""
    if out.flags.writeable and (order == "K" and (out.flags.c_contiguous or
                                                  out.flags.f_contiguous)
                                or order == "F" and out.flags.f_contiguous):
        return _written_through(out, val, path)
    return _view_update_impl(out, val, path, order)


def _written_through(out: Any, val: Any, path: tuple[tuple[str, Any], ...]) -> Any:
    """``val`` written into ``out`` through the chain of views ``path``."""
    v = out
    for name, a in path:
        v = REGISTRY[name].impl(v, **dict(a))
    # A view lies inside ``out``'s buffer, a copy in a new one: the bounds check
    # decides (the exact np.shares_memory can be slow, and says False for an
    # empty view, which is still a view and writes nothing).
    if v.size and not np.may_share_memory(v, out):
        if any(name in ("real", "imag", "view_dtype") for name, _ in path):
            raise ValueError("cannot write through this view: its layout forced a copy "
                             "(e.g. a reshape of a non-contiguous slice)")
        # The view was decided on NumPy's layout (a view there), and the
        # data computed here are laid out otherwise (a fused kernel's order):
        # the same elements, found by their positions in C order
        pos = np.arange(out.size).reshape(out.shape)
        for name, a in path:
            pos = REGISTRY[name].impl(pos, **dict(a))
        flat = np.array(out, copy=True, order="C")
        flat.reshape(-1)[pos] = np.broadcast_to(val, pos.shape)
        out[...] = flat
        return out
    if not v.flags.writeable:
        raise ValueError("cannot write through a read-only view (broadcast_to, diagonal)")
    # (the view's new value: an array, cast, though computed as a scalar)
    v[...] = np.asarray(val) if isinstance(val, np.generic) else val
    return out


def _copy_in_layout(base: Any, strides: tuple[int, ...]) -> Any:
    """A copy of ``base`` in the layout of a strided user array of
    ``strides``: its memory order ("K") with the signs of those strides, so
    that every reshape that is a view of such an array is a view of the
    copy (``a[::-1]`` of a reversed array is contiguous, and so is its
    ``reshape(-1)``: not of a "K" copy, whose strides are all positive)."""
    flip = tuple(slice(None, None, -1) if st < 0 else slice(None) for st in strides)
    return np.array(base[flip], copy=True, order="K")[flip]


register(OpSpec("view_update", "update", _view_update_impl, _view_update_infer, _same_dtype, 2,
                doc="functional write through a chain of views: a copy of input 0 whose "
                    "view attrs['path'] holds input 1"))


def _take_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x, idx = inputs
    if idx.dtype.kind not in "iu":
        raise IndexError(f"arrays used as indices must be of integer type, got {idx.dtype}")
    axis = attrs.get("axis")
    # (``indexing``: NumPy's ``x[:, idx]``, whose result layout is not take's)
    layout = {"indexing": True} if attrs.get("indexing") else {}
    if axis is None:
        return idx.shape, {"axis": None, **layout}
    ax = S.normalize_axis(axis, x.ndim)
    return x.shape[:ax] + idx.shape + x.shape[ax + 1:], {"axis": ax, **layout}


def _take_impl(x: Any, idx: Any, axis: int | None, indexing: bool = False) -> Any:
    if indexing and axis:
        # NumPy's ``x[:, idx]`` puts the gathered axes outermost in memory
        # (``x[:, [0, 2]]`` of a (3000, 40) array has strides (8, 24000)),
        # where ``take``'s result is C-ordered: a sum along axis 0 of it adds
        # in another order.  Indexing gives NumPy's layout.
        return x[(slice(None),) * axis + (idx,)]
    return np.take(x, idx, axis=axis)


def _take_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    # (one element is NumPy's scalar, in the machine's byte order)
    x, idx = inputs
    return _native_dtype(inputs, attrs) if not idx.shape and (
        attrs.get("axis") is None or x.ndim == 1) else x.dtype


register(OpSpec("take", "join", _take_impl, _take_infer, _take_dtype, 2,
                doc="gather along an axis by integer indices (bounds checked at run time)"))


def _advanced_key(inputs: Sequence[Node], key: tuple[Any, ...]) -> tuple[tuple[Any, ...], Shape]:
    """``gather``/``scatter``'s key normalized for ``inputs[0]``, indexed by
    the integer arrays ``inputs[1:]`` (``("a", j)`` in the key): (items,
    shape of the indexed part)."""
    x, idx = inputs[0], inputs[1:]
    for i in idx:
        if i.dtype.kind not in "iu":
            raise IndexError(f"arrays used as indices must be of integer type, got {i.dtype}")
    # A key rebuilt from a node's own attrs is normalized already; its
    # items go back to Python's form, and normalizing them again is exact.
    py = tuple(S.python_item(it) if type(it) is tuple else it for it in key)
    return S.advanced_index(x.shape, py, [i.shape for i in idx])


def _numpy_key(key: tuple[Any, ...], idx: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(idx[it[1]] if it[0] == "a" else S.python_item(it) for it in key)


def _gather_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    items, shape = _advanced_key(inputs, attrs["key"])
    return shape, {"key": items}


def _gather_impl(x: Any, *idx: Any, key: tuple[Any, ...]) -> Any:
    out = np.asarray(np.asarray(x)[_numpy_key(key, idx)])
    # Index arrays that are all 0-d are integers to NumPy, and a view.
    return out.copy() if np.may_share_memory(out, x) else out


register(OpSpec("gather", "join", _gather_impl, _gather_infer, _same_dtype, None,
                doc="NumPy's advanced indexing by integer arrays (inputs 1...) and "
                    "ints/slices/None in attrs['key'] (a copy)"))


def _scatter_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    base, val = inputs[0], inputs[1]
    items, sub = _advanced_key([base, *inputs[2:]], attrs["key"])
    _check_assignment(base, val, sub)
    return base.shape, {"key": items}


def _scatter_into(out: Any, val: Any, *idx: Any, key: tuple[Any, ...]) -> Any:
    out[_numpy_key(key, idx)] = val
    return out


def _scatter_impl(base: Any, val: Any, *idx: Any, key: tuple[Any, ...]) -> Any:
    return _scatter_into(np.array(base, copy=True), val, *idx, key=key)


# The functional updates as writes into their base's array, for a planner
# that gives a step its base's dying buffer (``x[i] = v`` in a loop over a
# big array: one copy of the array, not one per write).
UPDATE_INTO: dict[str, Callable[..., Any]] = {"setitem": _setitem_into,
                                              "scatter": _scatter_into,
                                              "view_update": _view_update_into}


register(OpSpec("scatter", "update", _scatter_impl, _scatter_infer, _same_dtype, None,
                doc="functional advanced assignment: a copy of input 0 with input 1 "
                    "written where the integer arrays (inputs 2...) and attrs['key'] say"))


# ---------------------------------------------------------------- sorting and searching

def _sort_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    ax = S.normalize_axis(attrs.get("axis", -1), x.ndim)
    return x.shape, {"axis": ax, "descending": bool(attrs.get("descending", False)),
                     "kind": attrs.get("kind")}


def _sort_impl(x: Any, axis: int, descending: bool, kind: Any) -> Any:
    if not descending:
        return np.sort(x, axis=axis, kind=kind)
    # Descending and stable: the ascending sort of the reversed array,
    # reversed (equal elements keep their order), as array_api_compat does.
    return np.flip(np.sort(np.flip(x, axis), axis=axis, kind=kind), axis)


def _argsort_impl(x: Any, axis: int, descending: bool, kind: Any) -> Any:
    if not descending:
        return np.argsort(x, axis=axis, kind=kind)
    flipped = np.flip(np.argsort(np.flip(x, axis), axis=axis, kind=kind), axis)
    return x.shape[axis] - 1 - flipped


def _intp(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return np.dtype(np.intp)


register(OpSpec("sort", "scan", _sort_impl, _sort_infer, _same_dtype, 1,
                doc="sorted along an axis (NumPy's sort; descending as the array API's)"))
register(OpSpec("argsort", "scan", _argsort_impl, _sort_infer, _intp, 1,
                doc="the indices that sort along an axis"))


def _searchsorted_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                        ) -> tuple[Shape, dict[str, Any]]:
    a, v = inputs[0], inputs[1]
    if a.ndim != 1:
        raise ValueError(f"searchsorted: the sorted array must be 1-d, got shape {a.shape}")
    if len(inputs) > 2 and (inputs[2].shape != a.shape or inputs[2].dtype.kind not in "iu"):
        raise ValueError(f"searchsorted: sorter must be integer indices of shape {a.shape}, "
                         f"got {inputs[2].dtype}{list(inputs[2].shape)}")
    side = attrs.get("side", "left")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    return v.shape, {"side": side}


def _searchsorted_impl(a: Any, v: Any, *sorter: Any, side: Any) -> Any:
    return np.searchsorted(a, v, side=side, sorter=sorter[0] if sorter else None)


register(OpSpec("searchsorted", "join", _searchsorted_impl, _searchsorted_infer, _intp, None,
                doc="insertion points of input 1 in the sorted 1-d input 0 (input 2: sorter)"))


def _take_along_axis_infer(inputs: Sequence[Node], attrs: dict[str, Any]
                           ) -> tuple[Shape, dict[str, Any]]:
    x, idx = inputs
    ax = S.normalize_axis(attrs.get("axis", -1), x.ndim)      # (NumPy's first check)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"arrays used as indices must be of integer type, got {idx.dtype}")
    if x.ndim != idx.ndim:
        raise ValueError(f"`indices` and `arr` must have the same number of dimensions: "
                         f"{idx.ndim} and {x.ndim}")
    try:
        rest = S.broadcast_shapes(tuple(d for i, d in enumerate(x.shape) if i != ax),
                                  tuple(d for i, d in enumerate(idx.shape) if i != ax))
    except ValueError as e:      # NumPy's fancy indexing raises it: an IndexError
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast "
                         f"together: {e}") from None
    shape = rest[:ax] + (idx.shape[ax],) + rest[ax:]
    return shape, {"axis": ax}


def _take_along_axis_impl(x: Any, idx: Any, axis: int) -> Any:
    return np.take_along_axis(x, idx, axis=axis)


register(OpSpec("take_along_axis", "join", _take_along_axis_impl, _take_along_axis_infer,
                _same_dtype, 2, doc="gather along an axis by indices of the same rank "
                                    "(argsort's result; bounds checked at run time)"))


def _tri_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    if x.ndim == 0:
        raise TypeError("tril/triu of a 0-d array: it has no diagonal")
    k = attrs.get("k", 0)
    # (A float k is NumPy's too: its mask compares positions with k.)
    k = float(k) if isinstance(k, (float, np.floating)) else operator.index(k)
    # (NumPy masks a 1-d array as the rows of an (n, n) one)
    return (x.shape * 2 if x.ndim == 1 else x.shape), {"k": k}


def _tril_impl(x: Any, k: int) -> Any:
    return np.tril(x, k)


def _triu_impl(x: Any, k: int) -> Any:
    return np.triu(x, k)


register(OpSpec("tril", "scan", _tril_impl, _tri_infer, _native_dtype, 1,
                doc="zeros above the k-th diagonal of the last two axes"))
register(OpSpec("triu", "scan", _triu_impl, _tri_infer, _native_dtype, 1,
                doc="zeros below the k-th diagonal of the last two axes"))


# ---------------------------------------------------------------- building nodes

def _describe(inputs: Sequence[Node]) -> str:
    return ", ".join(f"{n.attrs['value']!r} (Python scalar)" if n.weak else
                     f"{_shown_shape(n)} {n.dtype}" for n in inputs)


def _shown_shape(n: Node) -> str:
    """``n``'s shape as the user knows it: a compiled function's None
    dimension as ``None``, not its stand-in size (``SYMBOLIC_DIM``)."""
    if not S.sized_at_call(n.shape) or not reaches_placeholder(n):
        return str(n.shape)
    dims = ["None" if d == S.SYMBOLIC_DIM else str(d) for d in n.shape]
    return f"({', '.join(dims)}{',' if len(dims) == 1 else ''})"


def apply(name: str, inputs: Sequence[Node], **attrs: Any) -> Node:
    """Build (or find) the node ``name(inputs, attrs)``, inferring shape and dtype.

    Any error is raised here, with NumPy's exception type, naming the op, the
    operands and the user's line.
    """
    return build(name, inputs, attrs, user_source())


_MAX_DIMS = 64


def build(name: str, inputs: Sequence[Node], attrs: dict[str, Any],
          src: tuple[str, int]) -> Node:
    """``apply`` with an explicit source line (passes keep the user's line)."""
    spec = REGISTRY[name]
    ins = tuple(inputs)
    if spec.arity is not None and len(ins) != spec.arity:
        raise TypeError(f"{name} takes {spec.arity} operands, got {len(ins)}")
    if not attrs and spec.kind == "elementwise" and spec.dtype is None:
        # The commonest node of all.  Built before in this structure, it needs
        # no inference (0: an input in a graph too big to summarize).
        if len(ins) <= 2 and ins[0].skey and ins[-1].skey:
            node = intern_elementwise(spec, ins, src)
            if node is not None:
                return node
        return _build_elementwise(spec, ins, attrs, src)
    vkey: Any = None
    given: Any = None
    hit: Any = None
    if spec.kind == "view" and len(ins) == 1:
        # A view's inference depends on its input's shape, dtype and its
        # attrs alone, and loops repeat it (x[i], t.T on same-shaped tensors).
        x = ins[0]
        given = _hashable(attrs)
        try:
            # Built before in this structure: no inference, no summary's tuple.
            node = intern_view(spec, x, given, src)
            if node is not None:
                return node
            vkey = (name, x.shape, x.dtype, x.weak, given)
            hit = _view_infers.get(vkey)
        except TypeError:                    # attrs with no key (an array)
            hit = vkey = None
    if hit is not None:
        shape, attrs, attrs_key, dtype = hit
    else:
        try:
            shape, attrs = spec.infer(ins, attrs)
            if len(shape) > _MAX_DIMS:
                # (NumPy's limit; elementwise results never pass their inputs')
                raise (IndexError if name in ("getitem", "gather") else ValueError)(
                    f"maximum supported dimension for an ndarray is currently {_MAX_DIMS}, "
                    f"found {len(shape)}")
            # The attrs' key serves both the dtype probe and the intern table.
            attrs_key = _hashable(attrs) if attrs else ()
            if spec.dtype is not None:
                dtype = spec.dtype(ins, attrs)
            else:
                dtype = probe_dtype(spec, ins, attrs, attrs_key)
        except BUILD_ERRORS as e:
            raise located(name, ins, e, src) from None
        if vkey is not None:
            if len(_view_infers) >= _VIEW_INFERS_MAX:
                _view_infers.clear()
            _view_infers[vkey] = (shape, attrs, attrs_key, dtype)   # (an atomic store)
    node = intern(spec, ins, attrs, shape, dtype, src, attrs_key=attrs_key,
                  key=intern_key(spec, ins, attrs, dtype, attrs_key=attrs_key))
    if vkey is not None:
        remember_view(node, given, src, attrs_key)
    return node


# (view op, input shape, dtype, weak, attrs key) -> (shape, normalized attrs,
# their key, dtype): one-input views' inference, done once per such key.  The
# attrs dict is shared by the nodes built from an entry; nodes never mutate it.
_view_infers: dict[tuple[Any, ...], tuple[Shape, dict[str, Any], Any, np.dtype[Any]]] = {}
_VIEW_INFERS_MAX = 4096


# (op, dtype, weak, dtype, weak, ...) -> result dtype, for attribute-less
# elementwise ops.  A weak node's dtype names its Python type (int -> int64,
# float -> float64, ...), so this says what ``probe_dtype``'s key says without
# hashing attrs or building a tuple per operand.  The number of dimensions is
# left out: NumPy 2 (NEP 50) gives 0-d and n-d arrays the same result dtype.
_elementwise_dtypes: dict[tuple[Any, ...], np.dtype[Any]] = {}


def _build_elementwise(spec: OpSpec, ins: tuple[Node, ...], attrs: dict[str, Any],
                       src: tuple[str, int]) -> Node:
    """``build`` for the commonest node of all, an attribute-less elementwise op:
    the same shape, dtype, errors and node as the general path, with one pass
    over the operands instead of a generic rule, probe key and intern key each."""
    shape = ins[0].shape
    broadcast = False
    sig: list[Any] = [spec.name]
    cacheable = True
    for n in ins:
        s = n.shape
        if s != shape:  # most operands share one shape, or are scalars
            if not shape:
                shape = s
            elif s:
                broadcast = True
        sig += (n.dtype, n.weak)
        if n.weak and not _weak_cacheable(n.attrs["value"]):
            cacheable = False
    key = tuple(sig)
    try:
        # (the loop's dtypes first: NumPy's type error, or a Python int's
        # OverflowError, comes before its shapes' ValueError)
        dtype = _elementwise_dtypes.get(key) if cacheable else None
        if dtype is None:
            dtype = probe_dtype(spec, ins, attrs)
            if cacheable:
                _elementwise_dtypes[key] = dtype  # an atomic store; racing writers agree
        if broadcast:
            shape = S.broadcast_shapes(*[n.shape for n in ins])
    except BUILD_ERRORS as e:
        raise located(spec.name, ins, e, src) from None
    # ``intern`` gives such a node its short (op, input ids) key itself.
    return intern(spec, ins, attrs, shape, dtype, src)


# The exception types a bad build raises (NumPy's); anything else is a bug.
BUILD_ERRORS = (ValueError, IndexError, TypeError, OverflowError)


def located(name: str, inputs: Sequence[Node], e: BaseException,
            src: tuple[str, int] | None = None) -> BaseException:
    """``e`` as the same (public) exception type, its message naming the op,
    the operands and the user's line; marked so outer wrappers leave it be.

    Composite functions (``stack``, ``swapaxes``, ...) that check arguments
    before building any node use this too, so every build error reads alike.
    """
    if getattr(e, "lazyten_source", None) is not None:
        return e
    src = user_source() if src is None else src
    where = f"{src[0].rsplit('/', 1)[-1]}:{src[1]}"
    text = str(e)
    # (a message that names the function already, ``put: mode must be ...``)
    text = text[len(name) + 2:] if text.startswith(f"{name}: ") else text
    msg = f"{name}: {text} [operands: {_describe(inputs)}] (at {where})"
    err = _same_type(e, msg)
    err.lazyten_source = src  # type: ignore[attr-defined]
    return err


def _operand_nodes(args: Sequence[Any]) -> list[Node]:
    out: list[Node] = []
    for a in args:
        for x in (a if isinstance(a, (list, tuple)) else (a,)):
            n = getattr(x, "node", None)  # a Tensor (ops does not import it)
            if isinstance(n, Node):
                out.append(n)
    return out


F = TypeVar("F", bound=Callable[..., Any])


# How many ``reports`` functions are running in this thread: only the
# outermost, the one the user called, names an error.
_reporting = threading.local()


def reports(name: str) -> Callable[[F], F]:
    """Decorator for composite functions: an error raised while checking
    arguments (before any node is built) is ``located`` like a build error,
    and one located by an op or function it built on is named after it as
    well (``hstack: concat: ...``): the user called ``hstack``."""
    def deco(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            depth = getattr(_reporting, "depth", 0)
            _reporting.depth = depth + 1
            try:
                return fn(*args, **kwargs)
            except BUILD_ERRORS as e:
                if depth:
                    raise                    # (the function the user called names it)
                src = getattr(e, "lazyten_source", None)
                if src is None:
                    raise located(name, _operand_nodes(args), e) from None
                if str(e).startswith(f"{name}: "):
                    raise
                err = _same_type(e, f"{name}: {e}")
                err.lazyten_source = src  # type: ignore[attr-defined]
                raise err from None
            finally:
                _reporting.depth = depth
        return wrapper  # type: ignore[return-value]
    return deco


def _same_type(e: BaseException, msg: str) -> BaseException:
    # NumPy's private subclasses (``_UFuncNoLoopError(ufunc, dtypes)``,
    # ``_UFuncInputCastingError``) take other constructor arguments: NumPy's
    # own exception is kept (``except np._core._exceptions.UFuncTypeError``
    # and its ``.casting``, ``.from_``, ``.to`` work), lazyten's text a note.
    if type(e).__module__.startswith("numpy"):
        try:
            type(e)(msg)
        except Exception:  # noqa: BLE001 - a constructor that wants more than a message
            e.add_note(msg)
            return e
    for cls in type(e).__mro__:
        if cls.__module__ in ("builtins", "numpy.exceptions") or cls is type(e):
            try:
                return cls(msg)
            except Exception:  # a constructor that wants more than a message
                continue
    return ValueError(msg)


_WEAK_DTYPES: dict[type, np.dtype[Any]] = {
    bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64),
    complex: np.dtype(np.complex128)}


# Weak constants written again and again (``x * 2``, ``t - 1.0``) are kept
# alive here, so rebuilding an expression finds each literal's node instead of
# making and freeing one per use.  These are the interned nodes themselves (same
# key), so sharing is unchanged, only their lifetime is longer; a constant's
# own source line already means "where first written" (printers show its
# reader's line).  Bounded, so code with endless distinct literals cannot grow it.
# The operator methods (tensor.py) look an int literal up here themselves,
# by ``const``'s key ("const", int, value): the table is cleared in place,
# never replaced.
_weak_consts: dict[tuple[Any, ...], Node] = {}
_WEAK_CONSTS_MAX = 1024
_CONST = REGISTRY["const"]


def const(value: Any, src: tuple[str, int] | None = None) -> Node:
    """A scalar constant node: Python scalars weak (NEP 50), NumPy scalars strong.

    ``src``: the user's line, when the caller has already looked it up."""
    t = type(value)
    dt = _WEAK_DTYPES.get(t)
    if dt is not None:
        # The value's repr tells 1 from 1.0 from True and makes NaN equal NaN.
        key = ("const", t, scalar_key(value) if t is float or t is complex else value)
        node = _weak_consts.get(key)
        if node is None:
            node = intern(_CONST, (), {"value": value, "shape": (), "dtype": dt}, (), dt,
                          user_source() if src is None else src, weak=True, key=key)
            if len(_weak_consts) >= _WEAK_CONSTS_MAX:
                _weak_consts.clear()
            _weak_consts[key] = node
        return node
    arr = np.asarray(value)
    v = arr[()]
    return intern(_CONST, (), {"value": v, "shape": (), "dtype": arr.dtype},
                  (), arr.dtype, user_source() if src is None else src)


def source(array: np.ndarray[Any, Any], name: str | None = None) -> Node:
    """A user array as a graph input: never shared, never written to."""
    attrs = {"shape": array.shape, "dtype": array.dtype, "name": name}
    return intern(REGISTRY["input"], (), attrs, array.shape, array.dtype, user_source(),
                  unique=True, value=array)
