"""gorgonia's ``tensor`` package (Go), spelled for lazyten: ``lt.gorgonia``.

The names a gorgonia user looks for.  Values and dtypes are NumPy's (NEP 50
promotion), except where gorgonia's documented behaviour differs and is kept:

- ``div`` and ``mod`` are Go's ``/`` and ``%``: for integers the quotient
  truncates toward zero (``-7 / 2 == -3``, not ``floor_divide``'s ``-4``) and
  the remainder takes the dividend's sign (``-7 % 2 == -1``, NumPy's ``fmod``);
  for floats ``/`` is IEEE division and ``mod`` is ``math.Mod`` (``fmod``).
- Axes are gorgonia's: non-negative.  ``AllAxes`` (``-1``) means *every axis*
  in the functions gorgonia gives it to: ``argmax``/``argmin`` of the flattened
  tensor, ``repeat`` of the flattened tensor, ``concat`` along axis 0.  Any
  other negative axis raises ``AxisError`` (gorgonia rejects or panics), so
  ``-1`` is never NumPy's "last axis" here; ``lt.argmax`` & co. take NumPy's.
  ``lt.reduce`` (top-level) takes NumPy's axes.
- ``S(i)`` is one index and drops its axis; ``slice_`` is ``T.Slice`` with
  gorgonia's checks (see ``S``).

The most used ones are also top-level: ``lt.at``, ``lt.set_at``, ``lt.clone``,
``lt.materialize``, ``lt.copy_to``, ``lt.safe_t``, ``lt.ut``, ``lt.clamp``,
``lt.reduce``, ``lt.mat_vec_mul``, ``lt.contract``, ``lt.tensor_mul``,
``lt.range_``, ``lt.I``.

gorgonia's function options become keywords:

- ``reuse=r``: the result is written into the existing tensor ``r`` (gorgonia
  writes into ``r``'s memory; lazily, ``r``'s handle is rebound to the result,
  through its root when ``r`` is a view).  Shape and dtype must match.
- ``incr=acc``: ``acc += result`` (a new version of ``acc``).
- ``unsafe=True``: the result overwrites the first operand (rebinds it).
- ``as_same_type=True`` (comparisons): 1/0 in the operands' dtype, not bool.

>>> import lazyten as lt
>>> a = lt.gorgonia.new(shape=(2, 2), backing=[1.0, 2.0, 3.0, 4.0])
>>> acc = lt.zeros((2, 2))
>>> _ = lt.gorgonia.mul(a, 10, incr=acc)
>>> acc.eval()
array([[10., 20.],
       [30., 40.]])
>>> lt.gorgonia.gt(a, 2.0, as_same_type=True).eval()
array([[0., 0.],
       [1., 1.]])
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
from numpy.exceptions import AxisError

from . import functions as F
from .creation import arange, asarray, eye
from .creation import ones as _ones
from .creation import tensor_from
from .graph import ops
from .graph.shapes import normalize_axis
from .tensor import Tensor, snapshot, wrap

__all__ = ["new", "at", "set_at", "clone", "materialize", "copy_to", "safe_t", "ut", "T",
           "clamp", "reduce", "mat_vec_mul", "mat_mul", "contract", "tensor_mul", "ones",
           "range_", "I", "random", "S", "slice_", "AllAxes", "add", "sub", "mul", "div", "pow",
           "mod", "add_scalar", "sub_scalar", "mul_scalar", "div_scalar", "pow_scalar",
           "mod_scalar", "gt", "gte", "lt",
           "lte", "eq", "ne", "sum", "max", "min", "argmax", "argmin", "concat", "stack",
           "repeat", "diag", "sign", "cbrt", "cube", "inv", "inv_sqrt", "fma", "square", "sqrt",
           "exp", "log", "abs", "neg", "dot", "inner", "outer", "trace", "svd", "norm"]

# ---------------------------------------------------------------- construction


def new(shape: Sequence[int] | None = None, backing: Any = None, dtype: Any = None) -> Tensor:
    """``New(WithShape(...), WithBacking(...), Of(dtype))``.

    >>> import lazyten as lt
    >>> lt.gorgonia.new(shape=(2, 3), backing=range(6)).shape
    (2, 3)
    """
    return tensor_from(shape, backing, dtype)


def ones(dtype: Any, *shape: int) -> Tensor:
    """``Ones(dt, shape...)``."""
    return _ones(shape, dtype)


def range_(dtype: Any, start: int, end: int) -> Tensor:
    """``Range(dt, start, end)``: ``start, start+1, ..., end-1`` as ``dtype``.

    >>> import lazyten as lt
    >>> lt.range_(lt.float32, 0, 4).eval()
    array([0., 1., 2., 3.], dtype=float32)
    """
    return arange(start, end, 1, dtype=dtype)


def I(dtype: Any, r: int, c: int, k: int = 0) -> Tensor:  # noqa: E743 - gorgonia's name
    """``I(dt, r, c, k)``: an ``r x c`` matrix with ones on the ``k``-th diagonal."""
    return eye(r, c, k, dtype=dtype)


def random(dtype: Any, *shape: int) -> Tensor:
    """``Random(dt, size)``: uniform [0, 1) floats, or non-negative integers,
    from ``lt.random``'s seeded module generator (``lt.random.seed``)."""
    from . import random as R
    dt = np.dtype(dtype)
    g = R._global
    if dt.kind == "f":
        return g.random(shape, dtype=np.float64).astype(dt) if dt != np.float64 \
            else g.random(shape)
    if dt.kind == "c":  # gorgonia: the imaginary part is 0
        return g.random(shape).astype(dt)
    if dt.kind in "iu":
        hi = builtins.min(int(np.iinfo(dt).max), 2**31 - 1)
        return g.integers(0, hi, shape, dtype=dt)
    if dt.kind == "b":
        return g.integers(0, 2, shape, dtype=np.int8).astype(np.bool_)
    raise TypeError(f"random: unsupported dtype {dt}")


def _slice_name(start: int, end: int | None, step: int | None) -> str:
    return f"S({', '.join(str(v) for v in (start, end, step) if v is not None)})"


def _make_slice(name: str, start: int, end: int, step: int | None) -> int | slice:
    """``S``'s checks and result (``name`` starts its error messages)."""
    step = (0 if end == start + 1 else 1) if step is None else step
    if start < 0:
        raise IndexError(f"{name}: gorgonia's slices take no negative start (it is no "
                         f"count from the end)")
    if start > end:
        raise ValueError(f"{name}: start {start} > end {end}")
    if step < 0:
        raise ValueError(f"{name}: gorgonia's slices go forward; a negative step is not taken")
    if step == 0:
        if end - start > 1:
            raise ValueError(f"{name}: a step of 0 selects one index, but start {start} and "
                             f"end {end} span {end - start}")
        return start if end > start else slice(start, start)
    if 0 < end - start <= step:     # one element: AP.S drops its axis
        return start
    return slice(start, end, step)


def S(start: int, end: int | None = None, step: int | None = None) -> int | slice:
    """gorgonia's ``S(start, end, step)``: one axis of ``t[...]`` or ``slice_``.

    A single index, ``S(i)`` (gorgonia's ``ss``; also ``S(i, i + 1)``, to which
    gorgonia gives step 0), is the int ``i``: it selects index ``i`` and drops
    the axis, as gorgonia's ``AP.S`` does (and NumPy's int index): of a (3, 3)
    tensor ``t[S(1)]`` and ``t[:, S(1)]`` are (3,), ``t[S(1), S(1)]`` is 0-d.
    ``S(a, b)`` and ``S(a, b, step)`` are the slice ``a:b:step`` and keep the
    axis; but ``AP.S`` drops every sliced axis left with one element, so a
    range that can only hold one (``b - a <= step``, e.g. ``S(0, 2, 2)``) is
    the int ``a`` too.  ``S(i, i)`` is empty, as written (gorgonia's ``AP.S``
    would read one element there).

    gorgonia's ``CheckSlice`` errors that need no size are raised here: a
    negative start (there is no counting from the end: ``S(-1)`` is no "last
    element"), start > end, a step of 0 over more than one element; a
    negative step (gorgonia's slices go forward) too.  ``t[S(i)]`` with ``i``
    past the axis raises ``IndexError`` there; a range starting past the axis
    is empty in ``t[...]`` (Python's rule) and an ``IndexError`` in
    ``slice_``, which knows the sizes.

    >>> import lazyten as lt
    >>> t = lt.arange(9).reshape(3, 3)
    >>> t[lt.gorgonia.S(1)].eval()
    array([3, 4, 5])
    >>> t[lt.gorgonia.S(0, 3, 2), lt.gorgonia.S(1, 3)].eval()
    array([[1, 2],
           [7, 8]])
    """
    name = _slice_name(start, end, step)
    start = operator.index(start)
    return _make_slice(name, start, start + 1 if end is None else operator.index(end),
                       None if step is None else operator.index(step))


def slice_(t: Any, *slices: int | slice | None) -> Tensor:
    """``T.Slice(slices...)``: a view, with gorgonia's checks and shapes.

    One item per leading axis: ``None`` (gorgonia's ``nil``) for the whole
    axis, an int or ``S(...)`` (a Python slice of non-negative ints too);
    missing trailing items are ``nil``.  ``CheckSlice`` applies to each with
    its axis' size (``IndexError`` for a start past it, naming the slice,
    the axis and the shape); an end past it is clamped.  As in ``AP.S``, an
    axis an index or range leaves with one element is dropped, and a view of
    one element is a scalar (0-d).  Writing to the view writes ``t``.

    >>> import lazyten as lt
    >>> G = lt.gorgonia
    >>> t = lt.arange(9.0).reshape(3, 3)
    >>> G.slice_(t, None, G.S(1)).eval()
    array([1., 4., 7.])
    >>> G.slice_(t, G.S(2, 9)).shape      # (one row left: its axis is dropped)
    (3,)
    """
    x = wrap(t)
    if len(slices) > x.ndim:
        raise IndexError(f"slice_: {len(slices)} slices for a {x.ndim}-d tensor of shape "
                         f"{x.shape}")
    key: list[int | slice] = []
    for ax, (sl, n) in enumerate(zip(slices + (None,) * (x.ndim - len(slices)), x.shape)):
        if sl is None:
            key.append(builtins.slice(None))
            continue
        if isinstance(sl, builtins.slice):
            a = 0 if sl.start is None else operator.index(sl.start)
            b = n if sl.stop is None else operator.index(sl.stop)
            c = 1 if sl.step is None else operator.index(sl.step)
            name = _slice_name(a, b, None if c == 1 else c)
        else:
            a = operator.index(sl)
            b, c, name = a + 1, 0, _slice_name(a, None, None)
        where = f"slice_: {name} on axis {ax} of shape {x.shape}"
        if a >= n and isinstance(sl, builtins.slice) and sl.stop is None:
            # (an open end is the axis' size: the start past it is the
            # error, not "start > end" about an end the user did not write)
            raise IndexError(f"{where}: start {a} is not below the size {n}")
        item = _make_slice(where, a, b, c)
        if a >= n:
            raise IndexError(f"{where}: start {a} is not below the size {n}")
        if isinstance(item, builtins.slice) and item.step:
            b = builtins.min(b, n)
            item = a if -(-(b - a) // item.step) == 1 else builtins.slice(a, b, item.step)
        key.append(item)
    view = x[tuple(key) + (Ellipsis,)]  # (``...``: a view even when every item is an int)
    if view.ndim and view.size == 1:    # AP.S: a view of one element is a scalar
        view = view[(0,) * view.ndim + (Ellipsis,)]
    return view


# ---------------------------------------------------------------- element access and copies

def _check_coords(t: Tensor, coords: tuple[int, ...], what: str) -> tuple[int, ...]:
    if len(coords) != t.ndim:
        raise IndexError(f"{what}: {len(coords)} coordinates given for a {t.ndim}-d tensor "
                         f"of shape {t.shape}")
    out = []
    for ax, (c, d) in enumerate(zip(coords, t.shape)):
        c = operator.index(c)
        if not 0 <= c < d:  # gorgonia takes no negative coordinates
            raise IndexError(f"{what}: coordinate {c} out of bounds for axis {ax} of shape "
                             f"{t.shape}")
        out.append(c)
    return tuple(out)


def at(t: Tensor, *coords: int) -> Any:
    """``T.At(coords...)``: the element's value (forces evaluation; a NumPy scalar).

    >>> import lazyten as lt
    >>> lt.at(lt.arange(6).reshape(2, 3), 1, 2)
    np.int64(5)
    """
    t = wrap(t)
    c = _check_coords(t, coords, "at")
    return t[c].eval()[()]


def set_at(t: Tensor, value: Any, *coords: int) -> None:
    """``T.SetAt(v, coords...)``: a new version of ``t`` with one element replaced
    (written through to the root when ``t`` is a view)."""
    if not isinstance(t, Tensor):
        raise TypeError("set_at needs a Tensor to update")
    c = _check_coords(t, coords, "set_at")
    t[c] = value


def clone(t: Any) -> Tensor:
    """``T.Clone()``: an independent tensor with the same value.  Lazily free:
    the same immutable node, in a handle that is not a view of anything, so
    writing to either never changes the other."""
    return Tensor(wrap(t)._node)


def materialize(t: Any) -> Tensor:
    """``T.Materialize()``: compute now and return a tensor that holds the value
    (a graph input, no longer a view of its source)."""
    return asarray(wrap(t).eval())


def copy_to(dst: Tensor, src: Any) -> Tensor:
    """``Copy(dst, src)``: write ``src``'s elements (flat, C order) into ``dst``,
    cast to ``dst``'s dtype; through to the root when ``dst`` is a view."""
    if not isinstance(dst, Tensor):
        raise TypeError("copy_to needs a Tensor destination")
    s = wrap(snapshot(src))                      # (a write: read at the call)
    if s.size != dst.size:
        raise ValueError(f"copy_to: source has {s.size} elements {s.shape}, destination "
                         f"{dst.size} {dst.shape}")
    if s.shape != dst.shape:
        s = s.reshape(dst.shape)
    dst._write(s._node)
    return dst


def T(t: Any, *axes: int) -> Tensor:
    """``T.T(axes...)``: a transposed view (reversed axes by default); the
    axes gorgonia's (no negative one)."""
    x = wrap(t)
    if not axes:
        return x.T
    return x.transpose(*(_axis("T", a, x.ndim) for a in axes))


def safe_t(t: Any, *axes: int) -> Tensor:
    """``SafeT``: a transposed *copy*: writing to it does not touch ``t``."""
    return Tensor(T(t, *axes)._node)


def ut(t: Tensor) -> Tensor:
    """``T.UT()``: undo the last transpose: the tensor the transposed view was
    taken from (sharing its root), or ``t`` itself when it is no transpose view.

    >>> import lazyten as lt
    >>> a = lt.zeros((2, 3))
    >>> lt.ut(a.T).shape
    (2, 3)
    """
    t = wrap(t)
    path, root = t._path, t._root
    if root is None or not path or path[-1][0] != "transpose":
        return t
    rest = path[:-1]
    if not rest:
        return root
    node = root._node
    for name, attrs in rest:
        node = ops.apply(name, [node], **dict(attrs))
    out = Tensor(node, root, rest)
    out._tentative = t._tentative            # (its reshapes, as they were taken)
    return out


# ---------------------------------------------------------------- options: reuse, incr, unsafe

def _deliver(what: str, res: Tensor, first: Any, reuse: Tensor | None, incr: Tensor | None,
             unsafe: bool) -> Tensor:
    given = builtins.sum(x is not None and x is not False for x in (reuse, incr, unsafe))
    if given > 1:
        raise ValueError(f"{what}: give at most one of reuse=, incr=, unsafe=")
    # gorgonia's reuse and incr tensors have the result's shape and dtype
    # (its "shape mismatch"): no broadcast into them, no cast.
    for name, given_t in (("reuse", reuse), ("incr", incr)):
        if given_t is None:
            continue
        if not isinstance(given_t, Tensor):
            raise TypeError(f"{what}: {name}= must be a Tensor")
        if given_t.shape != res.shape or given_t.dtype != res.dtype:
            raise ValueError(f"{what}: {name}= tensor is {given_t.dtype}{list(given_t.shape)} "
                             f"but the result is {res.dtype}{list(res.shape)}")
    if reuse is not None:
        reuse._write(res._node)
        return reuse
    if incr is not None:
        incr += res
        return incr
    if unsafe:
        if not isinstance(first, Tensor):
            raise TypeError(f"{what}: unsafe=True overwrites the first operand, which must "
                            f"be a Tensor")
        if res.shape != first.shape:
            raise ValueError(f"{what}: unsafe=True: the result's shape {res.shape} differs "
                             f"from the first operand's {first.shape}")
        if not np.can_cast(res.dtype, first.dtype, "same_kind"):
            raise TypeError(f"{what}: unsafe=True: cannot store a {res.dtype} result in the "
                            f"{first.dtype} first operand")
        first._write(res._node)
        return first
    return res


def _go_div(a: Any, b: Any) -> Tensor:
    """Go's ``/``: integers truncate toward zero (``-7 / 2 == -3``); otherwise
    NumPy's true division (IEEE, as Go's for floats)."""
    if _operand_dtype(a, b).kind not in "iu":
        return F._apply_elementwise("divide", a, b)
    # a - fmod(a, b) is an exact multiple of b, nearer zero than a (so it
    # cannot overflow): its floor division is exact, the truncated quotient.
    # A division by zero gives 0, as gorgonia's VecDiv does (it also returns
    # an error, which a lazy graph cannot; NumPy warns).
    exact = F._apply_elementwise("subtract", a, F._apply_elementwise("fmod", a, b))
    return F._apply_elementwise("floor_divide", exact, b)


def _arith(compute: Callable[[Any, Any], Tensor], what: str, semantics: str
           ) -> Callable[..., Tensor]:
    def fn(a: Any, b: Any, *, reuse: Tensor | None = None, incr: Tensor | None = None,
           unsafe: bool = False) -> Tensor:
        if reuse is not None or incr is not None or unsafe:
            a, b = snapshot(a), snapshot(b)      # (a write: its operands read at the call)
        if not isinstance(a, Tensor) and not isinstance(b, Tensor):
            a = wrap(a)
        return _deliver(what, compute(a, b), a, reuse, incr, unsafe)
    fn.__name__ = fn.__qualname__ = what
    fn.__doc__ = (f"gorgonia's ``{what.capitalize()}``: elementwise {semantics}; either "
                  f"operand may be a scalar (NumPy's promotion).  Options ``reuse=``, "
                  f"``incr=``, ``unsafe=``.")
    return fn


def _elementwise(name: str) -> Callable[[Any, Any], Tensor]:
    return lambda a, b: F._apply_elementwise(name, a, b)


add = _arith(_elementwise("add"), "add", "``add``")
sub = _arith(_elementwise("subtract"), "sub", "``subtract``")
mul = _arith(_elementwise("multiply"), "mul", "``multiply``")
div = _arith(_go_div, "div", "Go's ``/``: integers truncate toward zero (``-7 / 2 == -3``; "
             "0 where the divisor is 0, as gorgonia gives, without its error), floats and "
             "complex numbers divide (IEEE)")
pow = _arith(_elementwise("pow"), "pow", "``pow``")  # noqa: A001 - gorgonia's name
mod = _arith(_elementwise("fmod"), "mod", "Go's ``%`` (integers) and ``math.Mod`` (floats): "
             "``fmod``, the remainder taking the dividend's sign (``-7 % 2 == -1``; an "
             "integer ``% 0``, a panic in Go, gives 0)")


def _scalar_variant(fn: Callable[..., Tensor], what: str) -> Callable[..., Tensor]:
    def scalar_fn(t: Any, s: Any, left_tensor: bool = True, **opts: Any) -> Tensor:
        return fn(t, s, **opts) if left_tensor else fn(s, t, **opts)
    scalar_fn.__name__ = scalar_fn.__qualname__ = what
    scalar_fn.__doc__ = (f"gorgonia's ``{what}``: ``t op s`` (``s op t`` when "
                         f"``left_tensor=False``).")
    return scalar_fn


add_scalar = _scalar_variant(add, "add_scalar")
sub_scalar = _scalar_variant(sub, "sub_scalar")
mul_scalar = _scalar_variant(mul, "mul_scalar")
div_scalar = _scalar_variant(div, "div_scalar")
pow_scalar = _scalar_variant(pow, "pow_scalar")
mod_scalar = _scalar_variant(mod, "mod_scalar")


def _operand_dtype(a: Any, b: Any) -> np.dtype[Any]:
    """The dtype arithmetic on these operands would have (NEP 50: Python
    scalars weak), without arithmetic's check that a Python int fits: a
    comparison of int8 with 1000 is defined."""
    return np.result_type(*(x.dtype if isinstance(x, Tensor) else
                            x if isinstance(x, (bool, int, float, complex)) else np.asarray(x)
                            for x in (a, b)))


def _compare(name: str, what: str) -> Callable[..., Tensor]:
    def fn(a: Any, b: Any, *, as_same_type: bool = False, reuse: Tensor | None = None,
           unsafe: bool = False) -> Tensor:
        if reuse is not None or unsafe:
            a, b = snapshot(a), snapshot(b)      # (a write: its operands read at the call)
        if not isinstance(a, Tensor) and not isinstance(b, Tensor):
            a = wrap(a)
        res = F._apply_elementwise(name, a, b)
        if as_same_type or unsafe:  # gorgonia: unsafe implies the operands' type
            res = res.astype(_operand_dtype(a, b))
        return _deliver(what, res, a, reuse, None, unsafe)
    fn.__name__ = fn.__qualname__ = what
    fn.__doc__ = (f"gorgonia's ``{what.capitalize()}``: elementwise ``{name}``; with "
                  f"``as_same_type=True`` 1/0 in the operands' dtype instead of bool; "
                  f"``unsafe=True`` overwrites the first operand with those 1/0s.")
    return fn


gt = _compare("greater", "gt")
gte = _compare("greater_equal", "gte")
lt = _compare("less", "lt")
lte = _compare("less_equal", "lte")
eq = _compare("equal", "eq")
ne = _compare("not_equal", "ne")


# ---------------------------------------------------------------- unary and ternary

def clamp(t: Any, lo: Any, hi: Any) -> Tensor:
    """``Clamp(t, min, max)``: values limited to ``[lo, hi]`` (``t``'s dtype kept
    for Python-scalar bounds).

    >>> import lazyten as lt
    >>> lt.clamp(lt.asarray([-2, 0, 5]), -1, 3).eval()
    array([-1,  0,  3])
    """
    return F.clip(wrap(t), lo, hi)


sign = F.ELEMENTWISE["sign"]
cbrt = F.ELEMENTWISE["cbrt"]
square = F.ELEMENTWISE["square"]
sqrt = F.ELEMENTWISE["sqrt"]
exp = F.ELEMENTWISE["exp"]
log = F.ELEMENTWISE["log"]
abs = F.ELEMENTWISE["abs"]  # noqa: A001 - gorgonia's name
neg = F.ELEMENTWISE["negative"]
cube, inv, inv_sqrt, fma = F.cube, F.inv, F.inv_sqrt, F.fma


# ---------------------------------------------------------------- axes

AllAxes: Final = -1
"""gorgonia's ``AllAxes``: every axis, in ``argmax``, ``argmin``, ``repeat``
(the flattened tensor) and ``concat`` (axis 0).  Not NumPy's "last axis"."""


def _axis(what: str, axis: int, ndim: int, all_axes: bool = False) -> int:
    """An axis as gorgonia takes it: ``0 <= axis < ndim``, or ``AllAxes``
    (returned as is) where ``all_axes``.  NumPy's other negative axes are
    refused, not counted from the end: gorgonia has none (``Concat`` says
    "no negative indexing here"; elsewhere they panic)."""
    ax = operator.index(axis)
    if ax < 0 and not (all_axes and ax == AllAxes):
        allowed = "its only negative axis is AllAxes (-1), every axis" if all_axes else \
            "no negative axis"
        raise AxisError(f"{what}: negative axis {ax}: gorgonia's {what} takes {allowed} "
                        f"(lt.{what} takes NumPy's axes)")
    if ax >= ndim:
        raise AxisError(f"{what}: axis {ax} is out of bounds for a {ndim}-d tensor")
    return ax


# ---------------------------------------------------------------- reductions

def sum(t: Any, *along: int) -> Tensor:  # noqa: A001 - gorgonia's name
    """``Sum(t, along...)``: over the given axes, all when none (gorgonia's
    axes: non-negative; no ``AllAxes``)."""
    x = wrap(t)
    return F.sum(x, axis=tuple(_axis("sum", a, x.ndim) for a in along) or None)


def max(t: Any, *along: int) -> Tensor:  # noqa: A001
    """``Max(t, along...)``, as ``sum``."""
    x = wrap(t)
    return F.max(x, axis=tuple(_axis("max", a, x.ndim) for a in along) or None)


def min(t: Any, *along: int) -> Tensor:  # noqa: A001
    """``Min(t, along...)``, as ``sum``."""
    x = wrap(t)
    return F.min(x, axis=tuple(_axis("min", a, x.ndim) for a in along) or None)


def argmax(t: Any, axis: int) -> Tensor:
    """``Argmax(t, axis)``: indices of the maxima along ``axis``; with
    ``AllAxes`` (-1) the flat index in the flattened tensor, a scalar.

    >>> import lazyten as lt
    >>> t = lt.asarray([[0, 100], [200, 3]])
    >>> lt.gorgonia.argmax(t, 0).eval(), lt.gorgonia.argmax(t, lt.gorgonia.AllAxes).eval()
    (array([1, 0]), array(2))
    """
    x = wrap(t)
    ax = _axis("argmax", axis, x.ndim, all_axes=True)
    return F.argmax(x, axis=None if ax == AllAxes else ax)


def argmin(t: Any, axis: int) -> Tensor:
    """``Argmin(t, axis)``, as ``argmax`` (``AllAxes``: the flat index)."""
    x = wrap(t)
    ax = _axis("argmin", axis, x.ndim, all_axes=True)
    return F.argmin(x, axis=None if ax == AllAxes else ax)


def reduce(fn: Callable[[Any, Any], Any], t: Any, axis: int | tuple[int, ...] | None = None,
           initial: Any = None) -> Tensor:
    """``Reduce(f, default, Along(axis))`` with a user binary function.

    A NumPy ufunc reduces with ``ufunc.reduce`` (NumPy's dtype); any other
    callable is applied to pairs of elements (``numpy.frompyfunc``), and the
    result keeps ``t``'s dtype, as gorgonia's does.  ``initial`` starts each
    reduction (gorgonia's default value); without it the first element does.
    This *forces* ``t``: a Python function cannot run inside the graph; the
    result is a new graph input.  ``axis`` is NumPy's (negative counts from
    the end; ``None``: every element; a tuple of axes for a ufunc NumPy can
    reorder, as ``ufunc.reduce``); out of range, NumPy's ``AxisError``.

    >>> import lazyten as lt
    >>> lt.reduce(lambda a, b: a * 10 + b, lt.asarray([[1, 2, 3], [4, 5, 6]]), axis=1).eval()
    array([123, 456])
    """
    arr = wrap(t).eval()
    if axis is None:
        arr, axis = arr.reshape(-1), 0
    if isinstance(axis, tuple) and isinstance(fn, np.ufunc):
        # (NumPy's: several axes for a reorderable ufunc, else its ValueError)
        kw = {} if initial is None else {"initial": initial}
        return asarray(np.asarray(fn.reduce(arr, axis=axis, **kw)))
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError(f"reduce: a Python function reduces along one axis at a time, "
                             f"got axis={axis}")
        axis = axis[0]
    try:
        axis = normalize_axis(axis, arr.ndim)
    except AxisError:
        raise AxisError(f"reduce: axis {axis} is out of bounds for a {arr.ndim}-d tensor of "
                        f"shape {arr.shape}") from None
    if isinstance(fn, np.ufunc):
        kw = {} if initial is None else {"initial": initial}
        return asarray(np.asarray(fn.reduce(arr, axis=axis, **kw)))
    if arr.shape[axis] == 0 and initial is None:
        raise ValueError("reduce: an empty axis needs an initial value")
    moved = np.moveaxis(arr, axis, 0)
    acc: Any = np.full(moved.shape[1:], initial, dtype=object) if initial is not None \
        else moved[0].astype(object)
    vec = np.frompyfunc(fn, 2, 1)
    for k in range(0 if initial is not None else 1, moved.shape[0]):
        acc = vec(acc, moved[k].astype(object))
    return asarray(np.asarray(acc, dtype=object).astype(arr.dtype))


# ---------------------------------------------------------------- joining and shapes

def concat(axis: int, t: Any, *others: Any) -> Tensor:
    """``Concat(axis, t, others...)``; ``AllAxes`` (-1) is axis 0, as in
    gorgonia's ``Shape.Concat``."""
    ax = _axis("concat", axis, wrap(t).ndim, all_axes=True)
    return F.concat([t, *others], axis=0 if ax == AllAxes else ax)


def stack(axis: int, t: Any, *others: Any) -> Tensor:
    """``t.Stack(axis, others...)``: along a new axis, ``0 <= axis <= t.ndim``
    (no negative axis, no ``AllAxes``)."""
    return F.stack([t, *others], axis=_axis("stack", axis, wrap(t).ndim + 1))


def repeat(t: Any, axis: int | None, *repeats: int) -> Tensor:
    """``Repeat(t, axis, repeats...)``: one count for every element, or one per
    element along ``axis`` (a lazy gather).  ``AllAxes`` (-1; also ``None``)
    repeats the elements of the flattened tensor.

    >>> import lazyten as lt
    >>> lt.gorgonia.repeat(lt.asarray([1, 2, 3]), 0, 1, 2, 3).eval()
    array([1, 2, 2, 3, 3, 3])
    >>> lt.gorgonia.repeat(lt.asarray([[1, 2], [3, 4]]), lt.gorgonia.AllAxes, 2).eval()
    array([1, 1, 2, 2, 3, 3, 4, 4])
    """
    x = wrap(t)
    if axis is None or _axis("repeat", axis, x.ndim, all_axes=True) == AllAxes:
        x, axis = x.reshape(-1), 0
    if len(repeats) == 1:
        return F.repeat(x, repeats[0], axis=axis)
    n = x.shape[axis]
    if len(repeats) != n:
        raise ValueError(f"repeat: {len(repeats)} counts for an axis of length {n}")
    if builtins.any(r < 0 for r in repeats):
        raise ValueError(f"repeat: negative count in {repeats}")
    return F.take(x, np.repeat(np.arange(n), repeats), axis=axis)


def diag(t: Any) -> Tensor:
    """``np.diag``'s two directions: a vector becomes a diagonal matrix, a
    matrix gives its diagonal."""
    x = wrap(t)
    if x.ndim == 1:
        n = x.shape[0]
        return F.where(eye(n, dtype=np.bool_), x[None, :], x.dtype.type(0))
    if x.ndim == 2:
        return F.diagonal(x)
    raise ValueError(f"diag: needs a 1-d or 2-d tensor, got shape {x.shape}")


# ---------------------------------------------------------------- linear algebra

def mat_vec_mul(a: Any, x: Any, *, reuse: Tensor | None = None,
                incr: Tensor | None = None) -> Tensor:
    """``MatVecMul(a, x)``: a matrix times a vector (BLAS gemv)."""
    if reuse is not None or incr is not None:
        a, x = snapshot(a), snapshot(x)          # (a write: its operands read at the call)
    ta, tx = wrap(a), wrap(x)
    if ta.ndim != 2 or tx.ndim != 1:
        raise ValueError(f"mat_vec_mul: needs a matrix and a vector, got shapes {ta.shape} "
                         f"and {tx.shape}")
    if ta.shape[1] != tx.shape[0]:
        raise ValueError(f"mat_vec_mul: shapes {ta.shape} and {tx.shape} not aligned")
    return _deliver("mat_vec_mul", F.matmul(ta, tx), ta, reuse, incr, False)


def mat_mul(a: Any, b: Any, *, reuse: Tensor | None = None,
            incr: Tensor | None = None) -> Tensor:
    """``MatMul(a, b)``: two matrices (BLAS gemm)."""
    if reuse is not None or incr is not None:
        a, b = snapshot(a), snapshot(b)          # (a write: its operands read at the call)
    ta, tb = wrap(a), wrap(b)
    if ta.ndim != 2 or tb.ndim != 2:
        raise ValueError(f"mat_mul: needs two matrices, got shapes {ta.shape} and {tb.shape}")
    return _deliver("mat_mul", F.matmul(ta, tb), ta, reuse, incr, False)


def contract(a: Any, b: Any, a_axes: Sequence[int], b_axes: Sequence[int]) -> Tensor:
    """``Contract(a, b, aAxes, bAxes)``: sum over the paired axes (``tensordot``).

    >>> import lazyten as lt
    >>> lt.contract(lt.ones((2, 3)), lt.ones((3, 4)), [1], [0]).shape
    (2, 4)
    """
    return F.tensordot(a, b, axes=(tuple(a_axes), tuple(b_axes)))


tensor_mul = contract
dot, inner, outer = F.dot, F.inner, F.outer


def trace(t: Any) -> Tensor:
    """``Trace``: the sum of a matrix's diagonal."""
    x = wrap(t)
    if x.ndim != 2:
        raise ValueError(f"trace: needs a matrix, got shape {x.shape}")
    return F.trace(x)


def svd(t: Any, uv: bool = True, full: bool = False) -> Any:
    """``T.SVD(uv, full)``: ``(S, U, V)`` in gorgonia's order, ``V`` not transposed
    (``a = U @ diag(S) @ V.T``); ``(S, None, None)`` when ``uv`` is false, as
    gorgonia's nil ``u`` and ``v`` (``S`` alone unpacked into three values
    for a matrix of three singular values, silently)."""
    from . import linalg
    if not uv:
        return linalg.svdvals(t), None, None
    U, s, Vh = linalg.svd(t, full_matrices=full)
    return s, U, Tensor(Vh.mT._node)


def norm(t: Any, ord: Any = None, *axes: int) -> Tensor:
    """``T.Norm(ord, axes...)`` (``numpy.linalg.norm``): Frobenius by default,
    ``"nuc"``, ``inf``, ``-inf``, or any p."""
    from . import linalg
    x = wrap(t)
    return linalg.norm(x, ord, axis=tuple(_axis("norm", a, x.ndim) for a in axes) or None)
