"""The array API functions: thin wrappers that build one node each, or
compositions of core ops (DESIGN 5.3).  Elementwise wrappers are generated
from the op registry, so a new elementwise op needs no code here."""

from __future__ import annotations

import builtins
import operator
from collections import OrderedDict
from collections.abc import Callable, Sequence
from sys import _getframe
from typing import TYPE_CHECKING, Any

import numpy as np

from .compile import call_sized, refuse_call_axis
from .graph import ops
from .graph import layout as L
from .graph.layout import layout_known, write_order
from .graph import shapes as S
from .graph.node import NO_LINES, _lines, user_source
from .tensor import (_ARRAY0, Tensor, _apply_elementwise, _unary_method, array0, check_device,
                     check_order, node_of, numpy_names, numpy_out, run_now, settle_layout, wrap)

# ------------------------------------------------------------------ elementwise


_PY_SCALARS = (bool, int, float, complex)


def _make_elementwise(name: str, alias: str | None = None) -> Callable[..., Tensor]:
    spec = ops.REGISTRY[name]
    arity = spec.arity or 1
    # lt.sin(t) of a tensor: the operator methods' short path (``-t``'s).
    unary = _unary_method(name) if arity == 1 else None
    parts = name in ("real", "imag")
    first = _OPERAND_NAMES.get(alias or name)

    def fn(*args: Any, **kwargs: Any) -> Tensor:
        if parts and len(args) == 1 and isinstance(args[0], Tensor) and not kwargs:
            # np.real(a) is a.real: a view, written through (t.real's)
            return getattr(args[0], name)
        if unary is not None and len(args) == 1 and type(args[0]) is Tensor and not kwargs:
            f = _getframe(1)                 # user_source's first step, without its call
            return unary(args[0], _lines.get(id(f.f_code), NO_LINES).get(f.f_lasti)
                         or user_source())
        if kwargs and first is not None and first in kwargs and not args:
            return fn(kwargs.pop(first), **kwargs)  # (NumPy's name for the operand)
        if alias == "fix" and (kwargs or len(args) > arity):
            # (np.fix(x, out): no ufunc.  Its out by name, so that run_now
            # writes a tensor given there; out=None is the lazy call.)
            if len(args) > arity:
                kwargs = {**kwargs, "out": args[arity]}
                args = args[:arity]
            if kwargs.get("out") is None:
                kwargs.pop("out", None)
                if not kwargs:
                    return fn(*args)
            return run_now(np.fix, *args, **kwargs)
        if kwargs or len(args) > arity:
            return _with_ufunc_keywords(spec, args, kwargs)
        if len(args) != arity:
            raise TypeError(f"{name}() takes {arity} argument(s), got {len(args)}")
        for a in args:  # a loop, not any(genexpr): this runs for every lt.sin(x)
            if isinstance(a, Tensor):
                break
        else:
            if parts and type(args[0]) in _PY_SCALARS:
                # np.real(1) is 1 itself, a Python number (weak), not an array
                return getattr(args[0], name)
            # No tensor among them: one operand becomes one, the first that is
            # not a Python scalar (those stay weak, NEP 50: lt.add(1, int8
            # array) is int8; one operand alone is NumPy's array of it).  All
            # Python scalars: NumPy converts each to its default dtype, none
            # weak (``add(2**63, 1)`` is int64's OverflowError, not uint64;
            # ``ldexp(1.0, 2**40)`` takes the int64 loop, not int32's).
            k = next((i for i, a in enumerate(args) if type(a) not in _PY_SCALARS),
                     0 if len(args) == 1 else -1)
            if k >= 0:
                args = args[:k] + (wrap(args[k]),) + args[k + 1:]
            else:
                args = tuple(wrap(_default_scalar(a)) for a in args)
        return _apply_elementwise(name, *args)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"Elementwise ``{name}``, lazily; NumPy semantics "
                  f"(``numpy.{spec.ufunc.__name__ if spec.ufunc else name}``)."
                  + (f"\n\n{spec.doc}" if spec.doc else ""))
    return fn


_UFUNC_KEYWORDS = frozenset({"out", "where", "dtype", "casting", "order", "subok",
                             "signature", "sig"})
# The operand's keyword name of NumPy's elementwise functions that are no
# ufuncs (a ufunc's operands are positional only).
_OPERAND_NAMES = {"fix": "x", "real": "val", "imag": "val"}


def _with_ufunc_keywords(spec: ops.OpSpec, args: tuple[Any, ...],
                         kwargs: dict[str, Any]) -> Any:
    """An elementwise function called with NumPy's ufunc keywords (or ``out``
    by position).  ``out=`` and ``where=`` are NumPy's own call, now
    (``run_now``: an existing array is written); ``dtype=``, ``signature=``
    and ``casting=`` pick NumPy's loop (``resolve_dtypes``), whose input
    dtypes the operands are cast to, lazily; ``order`` and ``subok`` only
    concern the layout and the array type of a result lazyten makes."""
    name, ufunc = spec.name, spec.ufunc
    arity = spec.arity or 1
    if ufunc is None:
        raise TypeError(f"{name}() takes no keyword arguments (it is not a NumPy ufunc)")
    if len(args) > arity:
        if len(args) > arity + ufunc.nout or "out" in kwargs:
            raise TypeError(f"{name}() takes from {arity} to {arity + ufunc.nout} positional "
                            f"arguments but {len(args)} were given")
        extra = args[arity:]
        kwargs = {**kwargs, "out": extra if len(extra) > 1 else extra[0]}
        args = args[:arity]
    if len(args) != arity:
        raise TypeError(f"{name}() takes {arity} argument(s), got {len(args)}")
    kwargs = _ufunc_keywords(ufunc, kwargs)
    where = kwargs.get("where", True)
    if where is not True and type(where) in (bool, np.bool_) and where:
        kwargs = {k: v for k, v in kwargs.items() if k != "where"}   # (np.True_: every element)
        where = True
    if kwargs.get("out") is not None or where is not True:
        from .compile import TracingError
        try:
            # (NumPy leaves the unselected elements of a new result as they come)
            got = run_now(ufunc, *args, **kwargs)
            return got if kwargs.get("out") is not None else wrap(got)
        except TracingError:
            # A traced function: no values now; the same lazily
            return _traced_ufunc_keywords(spec, args, kwargs, where)  # (where=: the mask)
    order = kwargs.get("order")
    # (NumPy's ufunc order: any case, None for K)
    order = "K" if order is None else order.upper() if isinstance(order, str) else order
    check_order(order, name)
    dtype, sig = kwargs.get("dtype"), kwargs.get("signature")
    if "casting" in kwargs or dtype is not None or sig is not None:
        _probe(ufunc, args, kwargs, name)
    result = _resolved_call(spec, args, dtype, sig, kwargs.get("casting", "same_kind"))
    # An explicit C or F order lays the result out so (a copy where the
    # operands' layout gave another); K and A keep lazyten's choice.
    return copy(result, order) if order in ("C", "F") else result


def _traced_ufunc_keywords(spec: ops.OpSpec, args: tuple[Any, ...], kwargs: dict[str, Any],
                           mask: Any) -> Any:
    """``out=`` and ``where=`` of a one-output ufunc in a traced function
    (``lt.function``, ``@lt.jit``), lazily: the result written into the
    ``out`` tensor (through views too) where ``mask`` (``where=``) holds,
    as NumPy writes it, after NumPy's cast check; without ``out``, zeros
    where it does not hold (NumPy's are whatever the new memory held).  An
    ndarray ``out`` cannot be written by a call that has not run yet."""
    from .compile import TracingError
    name, ufunc = spec.name, spec.ufunc
    assert ufunc is not None
    out = kwargs.get("out")
    if isinstance(out, tuple):
        out = out[0] if len(out) == 1 else out
    if ufunc.nout != 1 or (out is not None and not isinstance(out, Tensor)):
        raise TracingError(f"{name}(..., out=...) in a traced function: out must be one "
                           f"tensor (an array cannot be written by a call not yet run); "
                           f"use the result, or t[...] = {name}(...)")
    casting = kwargs.get("casting", "same_kind")
    result = _resolved_call(spec, args, kwargs.get("dtype"), kwargs.get("signature"), casting)
    if out is None:
        return where(wrap(mask), result, wrap(np.zeros((), result.dtype)))
    if not np.can_cast(result.dtype, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc '{ufunc.__name__}' output from {result.dtype!r} "
                        f"to {out.dtype!r} with casting rule {casting!r}")
    value = astype(result, out.dtype) if result.dtype != out.dtype else result
    out[...] = value if mask is True else where(wrap(mask), value, out)
    return out


def _resolved_call(spec: ops.OpSpec, args: tuple[Any, ...], dtype: Any, sig: Any,
                   casting: Any) -> Tensor:
    """``spec``'s function of ``args`` in the loop that ``dtype=`` or
    ``signature=`` picks (NumPy's ``resolve_dtypes``), the operands cast to
    its input dtypes, lazily; without either, the plain call."""
    name, ufunc = spec.name, spec.ufunc
    assert ufunc is not None
    arity = spec.arity or 1
    if dtype is None and sig is None:
        return ELEMENTWISE[name](*args)
    if dtype is not None and sig is not None:
        raise TypeError("cannot specify both 'signature' and 'dtype'")
    nout = ufunc.nout
    signature: tuple[Any, ...] = (
        (None,) * arity + (np.dtype(dtype),) * nout if dtype is not None
        else tuple(np.dtype(c) for c in sig.replace("->", "")) if isinstance(sig, str)
        else tuple(sig or ()))
    operands = [a if type(a) in _PY_SCALARS else wrap(a) for a in args]
    try:
        # (legal for these operands: ``_probe`` ran NumPy's own call first;
        # resolve_dtypes with a Python type crashed NumPy 2.4 where it is not)
        loop = ufunc.resolve_dtypes(
            tuple(a.dtype if isinstance(a, Tensor) else np.dtype(bool) if type(a) is bool
                  else type(a) for a in operands)
            + (None,) * nout,
            signature=tuple(None if d is None else np.dtype(d) for d in signature),
            casting=casting)
    except TypeError as e:
        raise ops.located(name, [a._node for a in operands if isinstance(a, Tensor)],
                          e) from None
    for i, a in enumerate(operands):
        if type(a) is int and loop[i].kind in "iu" and not (
                np.iinfo(loop[i]).min <= a <= np.iinfo(loop[i]).max):
            # A Python int past the loop's range, which NumPy's comparison
            # loops take exactly (1000 > every int8; converting it would
            # wrap): NumPy's own call, now.
            keys = {k: v for k, v in (("dtype", dtype), ("signature", sig)) if v is not None}
            return wrap(run_now(ufunc, *args, casting=casting, **keys))
    # Every operand in the loop's input dtype, a Python number too (NumPy
    # converts it to that dtype: 2.5 is 2 in an int64 loop), as a 0-d array.
    cast = [astype(a, loop[i], copy=False) if isinstance(a, Tensor)
            else wrap(np.asarray(a).astype(loop[i], casting="unsafe"))
            for i, a in enumerate(operands)]
    result = ELEMENTWISE[name](*cast)
    return result if result.dtype == loop[arity] else astype(result, loop[arity])


def _ufunc_keywords(ufunc: np.ufunc, kwargs: dict[str, Any]) -> dict[str, Any]:
    """NumPy's ufunc keywords checked (an unknown one is its TypeError),
    with ``sig`` read as its older spelling of ``signature``."""
    for k in kwargs:
        if k not in _UFUNC_KEYWORDS:
            raise TypeError(f"{k!r} is an invalid keyword to ufunc {ufunc.__name__!r}")
    if "sig" in kwargs:
        if "signature" in kwargs:
            raise TypeError("cannot specify both 'sig' and 'signature'")
        kwargs = dict(kwargs)
        kwargs["signature"] = kwargs.pop("sig")
    return kwargs


def _probe(ufunc: np.ufunc, args: tuple[Any, ...], kwargs: dict[str, Any], name: str) -> None:
    """NumPy's own call on one-element stand-ins of the tensor operands (the
    Python numbers as given, whose values NumPy checks) with the keywords
    that choose the loop: its errors (casting, a value out of range, a bad
    keyword) are raised here, on the user's line, as NumPy's."""
    stand_ins = [a if type(a) in _PY_SCALARS else np.ones(1, wrap(a).dtype) for a in args]
    keys = {k: v for k, v in kwargs.items() if k in ("dtype", "signature", "casting")}
    try:
        with np.errstate(all="ignore"):
            ufunc(*stand_ins, **keys)
    except (TypeError, ValueError, OverflowError) as e:
        raise ops.located(name, [wrap(a)._node for a in args if type(a) not in _PY_SCALARS],
                          e) from None


def ufunc_now(ufunc: np.ufunc, name: str, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """A ufunc of several outputs (``divmod``, ``modf``, ``frexp``) called
    with NumPy's ufunc keywords or outputs by position: NumPy's own call,
    now (``run_now``); its results as tensors, or the ``out`` arrays NumPy
    wrote, as NumPy returns them."""
    nin = ufunc.nin
    if len(args) > nin:
        if len(args) > nin + ufunc.nout or "out" in kwargs:
            raise TypeError(f"{name}() takes from {nin} to {nin + ufunc.nout} positional "
                            f"arguments but {len(args)} were given")
        kwargs = {**kwargs, "out": tuple(args[nin:])}
        args = args[:nin]
    kwargs = _ufunc_keywords(ufunc, kwargs)
    out = kwargs.get("out")
    given = out if isinstance(out, tuple) else (out,)
    res = run_now(ufunc, *args, **kwargs)
    return tuple(r if isinstance(r, Tensor) or builtins.any(r is o for o in given)
                 else wrap(np.asarray(r)) for r in res)


ELEMENTWISE: dict[str, Callable[..., Tensor]] = {}
UFUNC_OPS: dict[np.ufunc, str] = {}
for _spec in ops.REGISTRY.values():
    if _spec.kind == "elementwise" and _spec.name not in ("astype", "round", "where",
                                                          "full_like"):
        _fn = _make_elementwise(_spec.name)
        ELEMENTWISE[_spec.name] = _fn
        for _alias in _spec.aliases:
            # (an alias that is a NumPy function of its own, not a ufunc,
            # has its keywords: np.fix(x=..., out=...))
            ELEMENTWISE[_alias] = _make_elementwise(_spec.name, _alias) \
                if _alias in _OPERAND_NAMES else _fn
    if _spec.ufunc is not None:
        UFUNC_OPS.setdefault(_spec.ufunc, _spec.name)
        for _alias in _spec.aliases:
            # (np.degrees is a ufunc of its own, rad2deg's loops)
            _uf = getattr(np, _alias, None)
            if isinstance(_uf, np.ufunc) and _uf.types == _spec.ufunc.types:
                UFUNC_OPS.setdefault(_uf, _spec.name)


def ufunc_twin(ufunc: np.ufunc) -> Callable[..., Any] | None:
    """lazyten's function for the NumPy ufunc ``ufunc`` (the elementwise
    ones with NumPy's ufunc methods: ``reduce``, ``accumulate``, ``outer``,
    ``at``, ...), or None: what ``Tensor.__array_ufunc__`` hands
    ``np.add.reduce(t)`` and ``np.exp(t, dtype=...)`` to."""
    name = UFUNC_OPS.get(ufunc)
    if name is not None:
        return ELEMENTWISE[name]
    if ufunc in (np.matmul, np.vecdot, np.matvec, np.vecmat):
        fn: Callable[..., Any] = globals()[ufunc.__name__]
        return fn
    if ufunc in (np.divmod, np.modf, np.frexp):
        from . import setops             # (the two-output ufuncs; it imports this module)
        fn = getattr(setops, ufunc.__name__)
        return fn
    return None


from .ufuncs import attach_ufunc_methods  # noqa: E402 (it reads ELEMENTWISE's functions)
attach_ufunc_methods(ELEMENTWISE)  # np.add's reduce, accumulate, outer, at, nin, ...
globals().update(ELEMENTWISE)


if TYPE_CHECKING:
    # The generated functions, as type checkers see them (they cannot see
    # ``globals().update``); tests/test_ops_table.py checks that these are
    # exactly ELEMENTWISE's names, with each op's number of operands.
    def abs(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def absolute(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def acos(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def acosh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def add(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def arccos(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def arccosh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def arcsin(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def arcsinh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def arctan(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def arctan2(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def arctanh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def asin(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def asinh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def atan(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def atan2(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def atanh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_and(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_count(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_invert(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_left_shift(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_not(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_or(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_right_shift(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def bitwise_xor(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def cbrt(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def ceil(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def conj(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def conjugate(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def copysign(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def cos(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def cosh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def deg2rad(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def degrees(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def divide(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def equal(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def exp(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def exp2(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def expm1(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def fabs(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def fix(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def float_power(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def floor(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def floor_divide(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def fmax(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def fmin(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def fmod(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def gcd(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def greater(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def greater_equal(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def heaviside(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def hypot(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def imag(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def invert(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def isfinite(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def isinf(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def isnan(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def lcm(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def ldexp(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def left_shift(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def less(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def less_equal(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def log(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def log10(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def log1p(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def log2(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def logaddexp(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def logaddexp2(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def logical_and(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def logical_not(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def logical_or(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def logical_xor(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def maximum(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def minimum(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def mod(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def multiply(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def negative(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def nextafter(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def not_equal(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def positive(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def pow(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def power(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def rad2deg(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def radians(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def real(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def reciprocal(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def remainder(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def right_shift(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def rint(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def sign(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def signbit(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def sin(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def sinh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def spacing(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def sqrt(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def square(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def subtract(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def tan(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def tanh(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def true_divide(x1: Any, x2: Any, /, **ufunc_keywords: Any) -> Tensor: ...
    def trunc(x: Any, /, **ufunc_keywords: Any) -> Tensor: ...


def where(condition: Any, x: Any = None, y: Any = None) -> Tensor:
    """``x`` where ``condition`` is true, else ``y``; with the condition
    alone, NumPy's ``nonzero(condition)`` (the indices' count depends on the
    data, so it is computed now)."""
    if (x is None) != (y is None):
        raise ValueError("where: either both or neither of x and y should be given")
    if x is None:
        from .sorting import nonzero
        return nonzero(condition)  # type: ignore[return-value]
    if not isinstance(condition, Tensor):
        condition = wrap(condition)
    return _apply_elementwise("where", condition, x, y)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, casting: str = "unsafe",
           device: Any = None) -> Tensor:
    """``x`` cast to ``dtype`` (the array API's ``astype``; NumPy's
    ``casting`` rule is checked when the node is built)."""
    t = wrap(x)
    check_device(device, "astype")
    dt = _check_dtype(dtype, "astype")
    if casting != "unsafe" and not np.can_cast(t.dtype, dt, casting):  # type: ignore[arg-type]
        raise ops.located("astype", [t._node], TypeError(
            f"Cannot cast array data from {t.dtype!r} to {dt!r} according to the rule "
            f"{casting!r}"))
    if dt == t.dtype and not copy:
        return t
    res = Tensor(ops.apply("astype", [t._node], dtype=dt))
    # (NumPy's astype keeps a 0-d array an array, a scalar a scalar)
    return array0(res) if t._root is None and t._steps is _ARRAY0 else res


@numpy_names(a='x')
@numpy_out(np.round)
@ops.reports("round")
def round(x: Any, decimals: int = 0, out: Any = None) -> Tensor:  # noqa: A001 - NumPy's name
    return Tensor(ops.apply("round", [wrap(x)._node], decimals=operator.index(decimals)))


around = round


@numpy_names(a='x')
@numpy_out(np.clip)
@ops.reports("clip")
def clip(x: Any, min: Any = None, max: Any = None, out: Any = None, *,  # noqa: A002
         a_min: Any = None, a_max: Any = None, **kwargs: Any) -> Tensor:
    """``minimum(maximum(x, min), max)`` in the type of all three: NumPy's
    clip (a ufunc of three operands, Python scalars weak), NaN propagating.
    ``a_min``/``a_max`` are NumPy's older names; ``out=`` and the ufunc
    keywords that choose elements (``where=``) or a loop (``dtype=``,
    ``signature=``, ``casting=``) are NumPy's own call, now (``run_now``)."""
    for name, ours, theirs in (("min", min, a_min), ("max", max, a_max)):
        if ours is not None and theirs is not None:
            raise TypeError(f"clip() got multiple values for argument 'a_{name}' (as {name} "
                            f"and a_{name})")
    min = a_min if min is None else min
    max = a_max if max is None else max
    if kwargs:
        for k in kwargs:
            if k not in _UFUNC_KEYWORDS:
                raise TypeError(f"clip() got an unexpected keyword argument {k!r}")
        check_order(kwargs.get("order", "K"), "clip")
        if builtins.any(k not in ("order", "subok") for k in kwargs):
            return wrap(run_now(np.clip, x, min, max, **kwargs))
    t = wrapped = wrap(x)
    if t.dtype.kind in "iu":
        # NumPy's _clip: a Python int bound past the dtype's range on its own
        # side clips nothing (NEP 50 would refuse it as an operand).
        info = np.iinfo(t.dtype)
        if type(min) is int and min <= info.min:
            min = None
        if type(max) is int and max >= info.max:
            max = None
    # (Two steps alone would promote pairwise: int8 with 1.5 is float64
    # before a float32 max could make it float32, as NumPy's clip does.)
    dt = np.result_type(*(_operand_type(v) for v in (t, min, max) if v is not None))
    if dt != t.dtype:
        # (NumPy's clip is one ufunc: its cast is laid out as a ufunc's result)
        t = Tensor(ops.apply("astype", [t._node], dtype=dt, ufunc=True))
    # Which operand a tie gives (0.0 against -0.0).  NumPy's clip with both
    # bounds constant (its loop's stride-0 case) keeps x on a tie for real
    # floats (``x < min ? min : x``) and gives the bound for complex ones
    # (``x > min ? x : min``); maximum and minimum give their second
    # operand on a tie for float32/64 (SIMD loops), their first for float16
    # and complex.
    # Otherwise clip gives the bound on a tie and the first NaN of two, and
    # the order (x, bound) keeps NaNs right (float16's and complex ties
    # differ there); with one bound NumPy calls maximum(x, min) itself.
    bound_first = (dt.kind == "f" and dt not in _TIE_FIRST or dt.kind == "c") \
        and min is not None and max is not None and _one_value(min) and _one_value(max)
    if min is not None:
        t = _apply_elementwise("maximum", *((min, t) if bound_first else (t, min)))
    if max is not None:
        t = _apply_elementwise("minimum", *((max, t) if bound_first else (t, max)))
    if t is wrapped:
        # (no bound left, no cast: NumPy's clip still makes a new array, laid
        # out as its ufunc's result, which writes to ``x`` do not reach)
        t = Tensor(ops.apply("astype", [t._node], dtype=dt, ufunc=True))
    return t


# Real dtypes whose NumPy maximum and minimum give their first operand on a
# tie (scalar C loops, as clip's own).
_TIE_FIRST = frozenset({np.dtype(np.float16), np.dtype(np.longdouble)})


def _one_value(v: Any) -> bool:
    """Whether the operand ``v`` has one element, so that it is the same
    for every element of a ufunc's loop (stride 0 however it broadcasts)."""
    return type(v) in (bool, int, float, complex) or int(np.prod(np.shape(v))) == 1


def _operand_type(v: Any) -> Any:
    """What ``np.result_type`` reads for a ufunc operand: a tensor's or an
    array's dtype, a Python scalar itself (weak, NEP 50)."""
    return v if type(v) in (bool, int, float, complex) else wrap(v).dtype


@numpy_names(a='x')
def copy(x: Any, order: str = "K", subok: bool = False) -> Tensor:
    """NumPy's ``copy``: a tensor with the same value that writes to ``x``
    do not reach (nodes are immutable: no copy for that), laid out as
    NumPy's copy in ``order`` is ('K': as ``x``'s memory, positive strides;
    ``Tensor.copy``'s default 'C'), since a float sum of it adds in that
    layout's order: a copy where ``x``'s is another (``memory.copied``).
    ``subok`` is accepted and not read: a tensor has no subclasses."""
    check_order(order, "copy")
    if type(x) is np.ndarray:
        # NumPy's copy of a NumPy array is made now: the user's later writes
        # to the array do not reach it (a tensor wrapping one reads it when
        # evaluated, as every tensor does)
        return wrap(np.copy(x, order=order))  # type: ignore[call-overload]  # (checked above)
    from .memory import copied
    return array0(copied(wrap(x), order))        # (np.copy of a scalar: a 0-d array)


def _check_dtype(dtype: Any, what: str) -> np.dtype[Any]:
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"{what}: {dtype!r} is not a dtype ({e})") from None
    if dt.kind not in "biufc":
        raise TypeError(f"{what}: unsupported dtype {dt}; lazyten handles bool, integer, "
                        f"floating and complex dtypes")
    return dt


def _opt_dtype(dtype: Any, what: str) -> np.dtype[Any] | None:
    return None if dtype is None else _check_dtype(dtype, what)


# Convenience compositions of core ops.
def cube(x: Any) -> Tensor:
    t = wrap(x)
    return t * t * t


def inv(x: Any) -> Tensor:
    return ELEMENTWISE["reciprocal"](wrap(x))


def inv_sqrt(x: Any) -> Tensor:
    return 1 / ELEMENTWISE["sqrt"](wrap(x))


def fma(a: Any, b: Any, c: Any) -> Tensor:
    """``a * b + c`` (fused into one kernel by the optimizer)."""
    return _apply_elementwise("add", _apply_elementwise("multiply", a, b), c)


# ------------------------------------------------------------------ views

@ops.reports("reshape")
def reshape(x: Any, shape: Any, order: str = "C", copy: bool | None = None) -> Tensor:
    """Reshape, with one unknown (negative) dimension inferred and ``()``
    giving a scalar (TensorFlow's rules too).  A view when the layout
    allows.  ``order="F"`` reads and writes the elements in Fortran order
    (NumPy's: the reversed axes' C-order reshape, a view exactly when
    NumPy's is), ``"A"`` in Fortran order for Fortran-contiguous data."""
    t = wrap(x)
    check_order(order, "reshape", "CFA")
    dims = _reshape_dims(shape)
    # (it decides values: traced, its layout taken as C is noted on the result)
    assumed = order == "A" and settle_layout((t if t._root is None else t._root)._node)
    if order == "F" or (order == "A" and is_f_contiguous(t) and not is_c_contiguous(t)):
        return _noted(reshape(t.T, dims[::-1], copy=copy).T, assumed)
    # A view taken as one on a layout not known then (``r = y.reshape(-1)``
    # of a lazy ``x.T * 2``), known now: where NumPy's was a copy it becomes
    # that copy first, so this reshape is a view of it, as NumPy's is, not a
    # copy of its own that misses its writes
    t._settle_tentative()
    t2 = t._view("reshape", shape=dims)
    root = t2._root
    if copy is False and root is not None:
        # (NumPy's answer, by the real layout: an error or a view)
        assumed = settle_layout(root._node) or assumed
    if copy or (root is not None and not _reshape_is_view(t2)):
        if copy is False:
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        if copy is None and root is not None and not layout_known(root._node):
            # A computed result's layout is known when it runs (NumPy's
            # follows its operands'): a view, taken as C, may be NumPy's
            # view.  A write through it decides (``Tensor._write``).
            t2._tentative = True
            return _noted(t2, assumed)
        # A copy in NumPy: a write to it must not reach the base.
        return _noted(Tensor(t2._node), assumed)
    if root is not None and not t2._tentative and not layout_known(root._node):
        t2._tentative = True                 # (a view taken on C, the layout not known)
    return _noted(t._as_new(t2), assumed)


def _noted(t: Tensor, assumed: bool) -> Tensor:
    """``t``, noted as built on a layout a trace took as C where ``assumed``
    (``compile.assume_c_layout``)."""
    if assumed:
        from .compile import assume_c_layout
        assume_c_layout(t._node)
    return t


# View chains' layouts, replayed on stand-ins (``_stand_in``): id of a
# ``Tensor._steps`` link -> (the link, kept alive so the id stays its own, the
# root's write order, the stand-in after its steps).  A chain of reshapes of
# views then replays only the steps since the last reshape, not the whole
# chain each time.
_STAND_INS: OrderedDict[int, tuple[Any, Any, np.ndarray[Any, Any]]] = OrderedDict()
_STAND_INS_MAX = 256


def _reshape_is_view(t: Tensor) -> bool:
    """Whether the reshape ``t`` (the last of its view steps) is a view of its
    root (see ``_stand_in``)."""
    steps, root = t._steps, t._root
    assert steps is not None and root is not None
    if steps[1] is None and write_order(root._node) == "C":
        return True                          # a reshape of C-contiguous data
    return _stand_in(t) is not None


def _reshape_dims(shape: Any) -> tuple[int, ...]:
    """A reshape's new shape as ints, any negative one read as the unknown
    (NumPy's rule; two are its ValueError, when the op is built)."""
    if type(shape) is tuple:                 # (the common case: Python ints, >= -1)
        for d in shape:
            if type(d) is not int or d < -1:
                break
        else:
            return shape
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    elif isinstance(shape, np.ndarray):
        shape = shape.tolist() if shape.ndim else int(shape)
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, (bool, np.bool_)):
        shape = (shape,)
    dims = []
    for d in shape:
        if isinstance(d, (bool, np.bool_)):
            raise TypeError("reshape: an integer is required (got a bool dimension)")
        d = operator.index(d)
        dims.append(-1 if d < 0 else d)
    return tuple(dims)


def is_f_contiguous(t: Tensor) -> bool:
    """Whether ``t``'s data is Fortran-contiguous in the layout the view
    decisions read (``_stand_in``; a root: its write order)."""
    return _contiguous(t, "F")


def is_c_contiguous(t: Tensor) -> bool:
    """Whether ``t``'s data is C-contiguous in the layout the view decisions
    read (``_stand_in``): ``ravel`` is a view exactly then, as NumPy's."""
    return _contiguous(t, "C")


def _contiguous(t: Tensor, order: str) -> bool:
    """``is_c_contiguous`` (``order`` "C") or ``is_f_contiguous`` ("F"), by
    NumPy's flags: an array of one axis longer than 1 is both (a C
    ``x.sum(0, keepdims=True)`` of F data)."""
    if t._root is None:
        lay = write_order(t._node)
        if isinstance(lay, str):
            return lay == order or builtins.sum(d > 1 for d in t.shape) <= 1
    v = layout_of(t)
    return v is not None and bool(v.flags.c_contiguous if order == "C"
                                  else v.flags.f_contiguous)


def layout_of(t: Tensor) -> np.ndarray[Any, Any] | None:
    """A stand-in laid out as ``t``'s data is where a write or a view
    decision reads it (``write_order``, the view steps), or None where a
    reshape among those steps copies."""
    if t._root is None:
        return L.layout_stand_in(t.shape, t.dtype, write_order(t._node))
    return _stand_in(t)


def _stand_in(t: Tensor) -> np.ndarray[Any, Any] | None:
    """The layout of the view ``t`` of its root, or None where a reshape
    among its steps would copy.  A write through views runs on a copy of the
    root's data in the order ``write_order`` gives (``view_update``), so the
    steps are replayed on an array of the root's shape in that order: an
    ``as_strided`` over one element, whose strides NumPy reads and whose
    memory nothing touches."""
    steps = t._steps
    root = t._root
    assert steps is not None and root is not None
    order = write_order(root._node)
    todo: list[Any] = []                     # the steps to replay, newest first
    link = steps
    v = None
    while link is not None:
        hit = _STAND_INS.get(id(link))
        if hit is not None and hit[1] == order:
            v = hit[2]
            break
        todo.append(link[0])
        link = link[1]
    if v is None:
        v = L.layout_stand_in(root.shape, root.dtype, order)
    v = L.replay_views(v, reversed(todo))
    if v is None:
        return None
    if len(_STAND_INS) >= _STAND_INS_MAX:
        _STAND_INS.popitem(last=False)
    _STAND_INS[id(steps)] = (steps, order, v)
    return v


@numpy_names(a='x')
@ops.reports("permute_dims")
def permute_dims(x: Any, axes: Sequence[int] | None = None) -> Tensor:
    """The array API's ``permute_dims``; NumPy's (an alias of ``transpose``)
    reverses the axes when ``axes`` is None."""
    return wrap(x)._view("transpose", axes=None if axes is None else tuple(axes))


@numpy_names(a='x')
@ops.reports("transpose")
def transpose(x: Any, axes: Sequence[int] | None = None) -> Tensor:
    return wrap(x)._view("transpose", axes=None if axes is None else tuple(axes))


def matrix_transpose(x: Any) -> Tensor:
    return wrap(x).mT


@numpy_names(a='x')
@ops.reports("swapaxes")
def swapaxes(x: Any, axis1: int, axis2: int) -> Tensor:
    t = wrap(x)
    a1, a2 = S.normalize_axis(axis1, t.ndim), S.normalize_axis(axis2, t.ndim)
    axes = list(range(t.ndim))
    axes[a1], axes[a2] = axes[a2], axes[a1]
    return t._view("transpose", axes=tuple(axes))


def _axis_list(axes: Any) -> list[int]:
    """One axis or several as a list, by NumPy's ``normalize_axis_tuple`` rule:
    a tuple or list is several, anything ``operator.index`` takes is one, and
    any other iterable (an array, a range) is several."""
    if not isinstance(axes, (tuple, list)):
        try:
            return [operator.index(axes)]
        except TypeError:
            pass
    return list(axes)


@numpy_names(a='x')
@ops.reports("moveaxis")
def moveaxis(x: Any, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    t = wrap(x)
    src_l = [S.normalize_axis(a, t.ndim) for a in _axis_list(source)]
    dst_l = [S.normalize_axis(a, t.ndim) for a in _axis_list(destination)]
    for what, axes in (("source", src_l), ("destination", dst_l)):
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in `{what}` argument")
    if len(src_l) != len(dst_l):
        raise ValueError("source and destination must have the same number of "
                         "elements")
    order = [n for n in range(t.ndim) if n not in src_l]
    for d, s in sorted(zip(dst_l, src_l)):
        order.insert(d, s)
    return t._view("transpose", axes=tuple(order))


@numpy_names(a='x')
@ops.reports("rollaxis")
def rollaxis(x: Any, axis: int, start: int = 0) -> Tensor:
    """NumPy's ``rollaxis`` (gorgonia's ``RollAxis``)."""
    t = wrap(x)
    n = t.ndim
    axis = S.normalize_axis(axis, n)
    if not -n <= start <= n:
        raise np.exceptions.AxisError(f"start {start} out of range for {n} dimensions")
    if start < 0:
        start += n
    if axis < start:
        start -= 1
    if axis == start:
        return t
    return moveaxis(t, axis, start)


@numpy_names(a='x')
@ops.reports("expand_dims")
def expand_dims(x: Any, axis: int | Sequence[int] = 0) -> Tensor:
    t = wrap(x)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = t.ndim + len(axes)
    if nd > 64:                              # (NumPy's ValueError, before its getitem's)
        raise ValueError(f"maximum supported dimension for an ndarray is currently 64, "
                         f"found {nd}")
    norm = sorted(S.normalize_axis(a, nd) for a in axes)
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in {axis}")
    index: list[Any] = []
    for i in range(nd):
        index.append(None if i in norm else slice(None))
    return t._view("getitem", index=tuple(index))


@numpy_names(a='x')
@ops.reports("squeeze")
def squeeze(x: Any, axis: int | Sequence[int] | None = None) -> Tensor:
    t = wrap(x)
    if axis is None:
        axes = tuple(i for i, d in enumerate(t.shape) if d == 1)
        # Which axes go is decided now.  An axis a compiled function's call
        # sizes (a None dimension, x[:2]) and kept here is checked at each
        # call: where it is 1, NumPy would drop it (an error there).
        kept = tuple(i for i, d in enumerate(t.shape) if d != 1 and call_sized(t, i))
        if kept:
            t = t._view("squeeze_guard", axes=kept)
    elif t.ndim == 0:
        # NumPy lets a lone axis 0 or -1 through for a 0-d array (nothing to
        # remove), not the same in a tuple
        axes = ()
        given = S.axis_argument(axis)
        for a in given if isinstance(given, tuple) else ():
            raise np.exceptions.AxisError(operator.index(a), 0)
        if not isinstance(given, tuple) and operator.index(given) not in (0, -1):
            raise np.exceptions.AxisError(given, 0)
    else:
        axes = S.normalize_axes(S.axis_argument(axis), t.ndim)
        for a in axes:
            if t.shape[a] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not "
                                 f"equal to one (axis {a} of shape {t.shape})")
    index = tuple(0 if i in axes else slice(None) for i in range(t.ndim))
    return t._view("getitem", index=index)


@numpy_names(m='x')
@ops.reports("flip")
def flip(x: Any, axis: int | Sequence[int] | None = None) -> Tensor:
    t = wrap(x)
    axes = S.normalize_axes(axis, t.ndim)
    if t.ndim == 0:
        return Tensor(t._node)  # (NumPy's m[()]: a scalar, a copy, which writes do not reach)
    index = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(t.ndim))
    return t._view("getitem", index=index)


@numpy_names(array='x')
@ops.reports("broadcast_to")
def broadcast_to(x: Any, shape: Sequence[int], subok: bool = False) -> Tensor:
    """``x`` broadcast to ``shape``, a read-only view (``subok``: accepted,
    not read, as in ``copy``)."""
    if isinstance(shape, int):
        shape = (shape,)
    return wrap(x)._view("broadcast_to", shape=tuple(shape))


def broadcast_shapes(*shapes: int | Sequence[int]) -> tuple[int, ...]:
    """NumPy's ``broadcast_shapes``: an int stands for a 1-d shape."""
    given = [(operator.index(s),) if isinstance(s, (int, np.integer)) else
             tuple(operator.index(d) for d in s) for s in shapes]
    for s in given:
        if builtins.any(d < 0 for d in s):
            raise ValueError(f"negative dimensions are not allowed (shape {s})")
    return S.broadcast_shapes(*given)


@ops.reports("broadcast_arrays")
def broadcast_arrays(*arrays: Any, subok: bool = False) -> tuple[Tensor, ...]:
    """The operands broadcast to one shape (views), as a tuple (NumPy 2;
    ``subok``: accepted, not read, as in ``copy``)."""
    return broadcast_together([wrap(a) for a in arrays], "lt.broadcast_arrays")


def broadcast_together(ts: Sequence[Tensor], what: str) -> tuple[Tensor, ...]:
    """``ts`` broadcast to one shape (views); ``what``: the user's function.

    An operand broadcast along an axis takes that axis' length from another
    operand.  Where the length is known only when a compiled function runs
    (a None dimension, or one sliced to a bound: ``meshgrid(x, x[:2])``),
    the operand's ``broadcast_to`` would hold the number it is while the
    graph is built, which nothing in that operand's own graph corrects at a
    call (at one element, ``x[:2]`` is 1 long): refused when built.
    """
    shape = S.broadcast_shapes(*(t.shape for t in ts))
    nd = len(shape)
    lent: set[tuple[int, int]] = set()       # (operand, its axis) whose length is lent
    for t in ts:
        lead = nd - t.ndim
        for j in range(nd):
            if j < lead or t.shape[j - lead] != shape[j]:
                lent.update((u, j - nd + ts[u].ndim) for u in range(len(ts))
                            if j - nd + ts[u].ndim >= 0
                            and ts[u].shape[j - nd + ts[u].ndim] == shape[j])
    for u, k in sorted(lent):
        refuse_call_axis(ts[u], k, what)
    return tuple(t if t.shape == shape else broadcast_to(t, shape) for t in ts)


def broadcast_to_same(*arrays: Any) -> tuple[Tensor, ...]:
    """F# Tensor's ``broadcastToSame``: all operands broadcast to one shape (views).

    Accepts ``(a, b, ...)`` or a single list ``[a, b, ...]``.
    """
    if len(arrays) == 1 and isinstance(arrays[0], (list, tuple)):
        arrays = tuple(arrays[0])
    return broadcast_together([wrap(a) for a in arrays], "lt.broadcast_to_same")


@numpy_names(a='x')
def diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """NumPy's ``diagonal`` (axes 0 and 1 by default, as ``np.diagonal``; the
    array API's last-two-axes form is ``lt.linalg.diagonal``); a read-only view."""
    return wrap(x)._view("diagonal", offset=operator.index(offset), axis1=axis1, axis2=axis2)


@numpy_names(ary='x')
@ops.reports("split")
def split(x: Any, indices_or_sections: Any, axis: int = 0) -> list[Tensor]:
    """NumPy's ``split``: views along ``axis``, at the given indices or into
    that many equal sections."""
    t = wrap(x)
    ax = S.normalize_axis(axis, t.ndim)
    n = t.shape[ax]
    try:
        len(indices_or_sections)
    except TypeError:                        # (a number of sections: NumPy's n % k)
        refuse_call_axis(t, ax, "lt.split (into a number of sections)")
        if n % indices_or_sections:
            raise ValueError(f"array split does not result in an equal division: size {n} "
                             f"along axis {ax} into {indices_or_sections} sections") from None
    return _split_at(t, ax, _division_points(n, indices_or_sections))


@numpy_names(ary='x')
@ops.reports("array_split")
def array_split(x: Any, indices_or_sections: Any, axis: int = 0) -> list[Tensor]:
    """NumPy's ``array_split``: as ``split``, the first ``n % k`` of ``k``
    sections one longer."""
    t = wrap(x)
    ax = S.normalize_axis(axis, t.ndim)
    try:
        len(indices_or_sections)
    except TypeError:                        # (sections' bounds from the length)
        refuse_call_axis(t, ax, "lt.array_split (into a number of sections)")
    return _split_at(t, ax, _division_points(t.shape[ax], indices_or_sections))


def _division_points(n: int, indices_or_sections: Any) -> list[int]:
    """Where ``array_split`` cuts an axis of ``n``: the indices given (read
    as slice bounds), or the bounds of ``int(k)`` sections."""
    try:
        return [0, *(operator.index(i) for i in indices_or_sections), n]
    except TypeError:
        pass
    k = int(indices_or_sections)
    if k <= 0:
        raise ValueError("number sections must be larger than 0.")
    q, r = divmod(n, k)
    sizes = [q + 1] * r + [q] * (k - r)
    return [builtins.sum(sizes[:i]) for i in range(k + 1)]


def _split_at(t: Tensor, ax: int, bounds: list[int]) -> list[Tensor]:
    lead = (slice(None),) * ax
    return [t[lead + (slice(lo, hi),)] for lo, hi in zip(bounds[:-1], bounds[1:])]


# ------------------------------------------------------------------ reductions


def _reduce(name: str, x: Any, axis: Any, keepdims: bool,
            where: Any = True, initial: Any = None, mean: Any = None,
            **extra: Any) -> Tensor:
    """The reduction ``name``; with a ``where=`` mask, an ``initial=``
    value (None: none, as in NumPy) or var/std's precomputed ``mean=`` it
    is NumPy's masked reduction."""
    S.axis_argument(axis)
    if name not in ("argmin", "argmax"):
        # (NumPy's ufunc reductions read keepdims as an integer: None, a
        # float or np.True_ is its TypeError; argmin/argmax test its truth)
        keepdims = bool(operator.index(keepdims))
    t = wrap(x)
    if where is True and initial is None and mean is None:
        return Tensor(ops.apply(name, [t._node], axis=axis, keepdims=bool(keepdims), **extra))
    nodes = [t._node] if where is True else [t._node, node_of(where)]
    if initial is not None:
        extra["initial"] = initial_value(initial, name, t.dtype)
    if mean is not None:
        nodes.append(node_of(mean))
        extra["with_mean"] = True
    return Tensor(ops.apply("masked_reduce", nodes, reduce=name, axis=axis,
                            keepdims=bool(keepdims),
                            **{k: v for k, v in extra.items() if v is not None}))


def initial_value(v: Any, name: str, dt: np.dtype[Any]) -> Any:
    """``initial=`` as NumPy's reduce reads it: a scalar, a 0-d array's (a
    tensor's, computed now: it is an attribute of the node); a sequence as
    NumPy converts it to ``dt``, which refuses it for most dtypes (its own
    error, from a reduction of nothing) and takes a bool's one element."""
    if isinstance(v, Tensor):
        v = v.eval()
    if isinstance(v, np.ndarray) and v.ndim == 0:
        return v[()]
    if isinstance(v, (list, tuple, np.ndarray)):
        getattr(np, name)(np.empty(0, dt), initial=v)
        return np.asarray(v).reshape(-1)[0]
    return v


@numpy_names(a='x')
@numpy_out(np.sum)
def sum(x: Any, axis: Any = None, dtype: Any = None, out: Any = None,  # noqa: A001
        keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    return _reduce("sum", x, axis, keepdims, where, initial,
                   dtype=_opt_dtype(dtype, "sum"))


@numpy_names(a='x')
@numpy_out(np.prod)
def prod(x: Any, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: bool = False, initial: Any = None, where: Any = True) -> Tensor:
    return _reduce("prod", x, axis, keepdims, where, initial,
                   dtype=_opt_dtype(dtype, "prod"))


@numpy_names(a='x')
@numpy_out(np.mean)
def mean(x: Any, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: bool = False, *, where: Any = True) -> Tensor:
    return _reduce("mean", x, axis, keepdims, where, dtype=_opt_dtype(dtype, "mean"))


def _correction(correction: float | None, ddof: float | None) -> float:
    if correction is not None and ddof is not None and ddof != 0:
        # (NumPy: ddof=0 is its default, so it may come with a correction)
        raise ValueError("ddof and correction can't be provided simultaneously.")
    c = correction if correction is not None else (ddof if ddof is not None else 0)
    if isinstance(c, (bool, np.bool_)):
        return int(c)                        # (NumPy counts True as 1)
    if not isinstance(c, (int, float, np.integer, np.floating)):
        raise TypeError(f"var/std: correction (ddof) must be a number, got {c!r}")
    return float(c) if not float(c).is_integer() else int(c)


def _spread(name: str, x: Any, axis: Any, dtype: Any, ddof: float | None,
            keepdims: bool, where: Any, mean: Any, correction: float | None) -> Tensor:
    c = _correction(correction, ddof)
    dt = _opt_dtype(dtype, name)
    if where is True and mean is None:
        return _reduce(name, x, axis, keepdims, correction=c, dtype=dt)
    # (NumPy's own var/std, whole: with a precomputed mean it subtracts that
    # mean in the operands' promoted dtype, not in dtype=)
    return _reduce(name, x, axis, keepdims, where, mean=mean, ddof=c, dtype=dt)


@numpy_names(a='x')
@numpy_out(np.var)
@ops.reports("var")
def var(x: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float | None = None,
        keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> Tensor:
    return _spread("var", x, axis, dtype, ddof, keepdims, where, mean, correction)


@numpy_names(a='x')
@numpy_out(np.std)
@ops.reports("std")
def std(x: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float | None = None,
        keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> Tensor:
    return _spread("std", x, axis, dtype, ddof, keepdims, where, mean, correction)


@numpy_names(a='x')
@numpy_out(np.min)
@ops.reports("min")
def min(x: Any, axis: Any = None, out: Any = None, keepdims: bool = False,  # noqa: A001
        initial: Any = None, where: Any = True) -> Tensor:
    t = wrap(x)
    if initial is None:
        _check_nonempty_reduction("min", t, axis)
    return _reduce("min", t, axis, keepdims, where, initial)


@numpy_names(a='x')
@numpy_out(np.max)
@ops.reports("max")
def max(x: Any, axis: Any = None, out: Any = None, keepdims: bool = False,  # noqa: A001
        initial: Any = None, where: Any = True) -> Tensor:
    t = wrap(x)
    if initial is None:
        _check_nonempty_reduction("max", t, axis)
    return _reduce("max", t, axis, keepdims, where, initial)


amin, amax = min, max


def _check_nonempty_reduction(name: str, t: Tensor, axis: Any) -> None:
    if t.ndim == 0:  # never empty; the op checks the axis (0-d takes axis 0 or -1)
        return
    axes = S.normalize_axes(axis, t.ndim)
    if builtins.any(t.shape[a] == 0 for a in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has "
                         f"no identity (shape {t.shape}, axis {axis})")


@numpy_names(a='x')
@numpy_out(np.any)
def any(x: Any, axis: Any = None, out: Any = None, keepdims: bool = False,  # noqa: A001
        *, where: Any = True) -> Tensor:
    return _reduce("any", x, axis, keepdims, where)


@numpy_names(a='x')
@numpy_out(np.all)
def all(x: Any, axis: Any = None, out: Any = None, keepdims: bool = False,  # noqa: A001
        *, where: Any = True) -> Tensor:
    return _reduce("all", x, axis, keepdims, where)


@numpy_names(a='x')
@numpy_out(np.argmin)
@ops.reports("argmin")
def argmin(x: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    t = wrap(x)
    if axis is not None:  # NumPy checks the axis (an int) before the size
        S.normalize_axis(axis, builtins.max(t.ndim, 1))
    _check_nonempty_reduction("argmin", t, axis)
    return _reduce("argmin", t, axis, keepdims)


@numpy_names(a='x')
@numpy_out(np.argmax)
@ops.reports("argmax")
def argmax(x: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> Tensor:
    t = wrap(x)
    if axis is not None:  # NumPy checks the axis (an int) before the size
        S.normalize_axis(axis, builtins.max(t.ndim, 1))
    _check_nonempty_reduction("argmax", t, axis)
    return _reduce("argmax", t, axis, keepdims)


@numpy_out(np.cumulative_sum)
def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                   include_initial: bool = False) -> Tensor:
    t = wrap(x)
    return Tensor(ops.apply("cumulative_sum", [t._node], axis=axis,
                            dtype=_opt_dtype(dtype, "cumulative_sum"),
                            include_initial=include_initial))


@numpy_out(np.cumulative_prod)
def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                    include_initial: bool = False) -> Tensor:
    t = wrap(x)
    return Tensor(ops.apply("cumulative_prod", [t._node], axis=axis,
                            dtype=_opt_dtype(dtype, "cumulative_prod"),
                            include_initial=include_initial))


@numpy_names(a='x')
@numpy_out(np.cumsum)
@ops.reports("cumsum")
def cumsum(x: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Tensor:
    """NumPy's ``cumsum``: flattens when ``axis`` is None."""
    t = wrap(x)
    if axis is None:
        t = t.reshape(-1)
        axis = 0
    # (NumPy's cumsum takes one int axis: a tuple is its TypeError, where the
    # array API's cumulative_sum takes a 1-tuple)
    return cumulative_sum(t, axis=S.axis_argument(axis, tuples=False), dtype=dtype)


@numpy_names(a='x')
@numpy_out(np.cumprod)
def cumprod(x: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Tensor:
    t = wrap(x)
    if axis is None:
        t = t.reshape(-1)
        axis = 0
    # (NumPy's cumsum takes one int axis: a tuple is its TypeError, where the
    # array API's cumulative_sum takes a 1-tuple)
    return cumulative_prod(t, axis=S.axis_argument(axis, tuples=False), dtype=dtype)


def _default_scalar(x: Any) -> Any:
    """The Python scalar ``x`` as NumPy's scalar of its default dtype (an
    int past int64's range: NumPy's OverflowError)."""
    if type(x) is int:
        if not -2**63 <= x < 2**63:
            raise OverflowError("Python int too large to convert to C long")
        return np.int64(x)
    return np.asarray(x)[()]


@numpy_names(a='x')
def count_nonzero(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    t = wrap(x)
    return sum(t != 0, axis=axis, keepdims=keepdims)


# ------------------------------------------------------------------ contraction


def _binary(name: str, a: Any, b: Any, **attrs: Any) -> Tensor:
    ta, tb = wrap(a), wrap(b)
    return Tensor(ops.apply(name, [ta._node, tb._node], **attrs))


@numpy_out(np.matmul)
def matmul(a: Any, b: Any, /, out: Any = None, **kwargs: Any) -> Tensor:
    """``a @ b``; NumPy's gufunc keywords (``dtype=``, ``casting=``,
    ``axes=``, ``axis=``, ``out=``...) are NumPy's own call, now."""
    kwargs = _non_default(kwargs)
    if kwargs:
        return _gufunc_now(np.matmul, "matmul", (a, b), kwargs)
    if type(a) in _PY_SCALARS or type(b) in _PY_SCALARS:
        # NumPy converts a Python scalar (NEP 50: ``uint8 @ 300`` is its
        # OverflowError) before it checks the core dimensions (a scalar
        # has none): its own call on stand-ins gives its error in its order.
        def stand_in(x: Any) -> Any:
            return x if type(x) in _PY_SCALARS else np.zeros((1, 1), wrap(x).dtype)
        try:
            np.matmul(stand_in(a), stand_in(b))
        except Exception as e:  # noqa: BLE001 - NumPy's error, located
            raise ops.located("matmul", [wrap(x)._node for x in (a, b)
                                         if type(x) not in _PY_SCALARS], e) from None
    return _binary("matmul", a, b)


_GUFUNC_KEYWORDS = _UFUNC_KEYWORDS | {"axes", "axis", "keepdims"}


def _gufunc_now(fn: Any, what: str, operands: tuple[Any, ...], kwargs: dict[str, Any]) -> Tensor:
    """A NumPy gufunc (matmul, vecdot, matvec, vecmat) called with its
    keywords: NumPy's own call, now (``run_now``), its result a new tensor.
    The keywords choose axes, a loop's dtype or casting: a lazy graph of
    lazyten's would need the very same loop to give NumPy's bits."""
    for k in kwargs:
        if k not in _GUFUNC_KEYWORDS:
            raise TypeError(f"{what}() got an unexpected keyword argument {k!r}")
    return wrap(run_now(fn, *operands, **kwargs))


@ops.reports("tensordot")
def tensordot(a: Any, b: Any, axes: int | Sequence[Any] = 2) -> Tensor:
    if isinstance(axes, (np.integer, np.ndarray)) and np.ndim(axes) == 0:
        axes = operator.index(axes)          # (np.int64(1): NumPy's int form)
    if not isinstance(axes, int):
        axes = tuple(tuple(x) if isinstance(x, (list, tuple, np.ndarray)) else x for x in axes)
    return _binary("tensordot", a, b, axes=axes)


@numpy_out(np.vecdot)
def vecdot(a: Any, b: Any, /, out: Any = None, *, axis: int = -1, **kwargs: Any) -> Tensor:
    """The array API's ``vecdot`` (conjugating ``a``); NumPy's gufunc
    keywords other than ``axis`` are NumPy's own call, now."""
    if kwargs:
        # (``axes=`` names the axes itself: NumPy refuses it beside ``axis``)
        keys = kwargs if "axes" in kwargs and axis == -1 else {"axis": axis, **kwargs}
        return _gufunc_now(np.vecdot, "vecdot", (a, b), keys)
    return _binary("vecdot", a, b, axis=axis)


@numpy_out(np.matvec)
def matvec(a: Any, b: Any, /, out: Any = None, **kwargs: Any) -> Tensor:
    """NumPy's ``matvec``: the matrix-vector product over the last axes,
    batch axes broadcast; one step running NumPy's own loop (its bits)."""
    kwargs = _non_default(kwargs)
    if kwargs:
        return _gufunc_now(np.matvec, "matvec", (a, b), kwargs)
    return _binary("matvec", a, b)


@numpy_out(np.vecmat)
def vecmat(a: Any, b: Any, /, out: Any = None, **kwargs: Any) -> Tensor:
    """NumPy's ``vecmat``: the vector-matrix product over the last axes,
    the vector conjugated; one step running NumPy's own loop (its bits:
    ``conj(a) @ b`` sums complex products otherwise)."""
    kwargs = _non_default(kwargs)
    if kwargs:
        return _gufunc_now(np.vecmat, "vecmat", (a, b), kwargs)
    return _binary("vecmat", a, b)


# A gufunc keyword given its NumPy default changes nothing: dropped, so the
# call stays lazy (and traceable) instead of becoming NumPy's call now.
_GUFUNC_DEFAULTS = {"dtype": None, "casting": "same_kind", "order": "K", "subok": True,
                    "axes": None, "axis": None, "keepdims": False, "signature": None}


def _non_default(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items()
            if k not in _GUFUNC_DEFAULTS or v is not _GUFUNC_DEFAULTS[k]
            and (isinstance(v, np.ndarray) or v != _GUFUNC_DEFAULTS[k])}


@numpy_out(np.dot)
def dot(a: Any, b: Any, out: Any = None) -> Tensor:
    return _binary("dot", a, b)


@ops.reports("inner")
def inner(a: Any, b: Any) -> Tensor:
    """NumPy's ``inner``: contracts the last axes of both.  NumPy runs it as
    ``dot(a, b with its last axis moved to second-to-last)``, and so does
    this: ``tensordot`` over the last axes sums in another order."""
    ta, tb = wrap(a), wrap(b)
    if ta.ndim == 0 or tb.ndim == 0:
        return ta * tb
    return dot(ta, swapaxes(tb, -1, -2) if tb.ndim >= 2 else tb)


@numpy_out(np.outer)
@ops.reports("outer")
def outer(a: Any, b: Any, out: Any = None) -> Tensor:
    """NumPy's ``outer``: both flattened, every product."""
    ta, tb = wrap(a).reshape(-1), wrap(b).reshape(-1)
    return ta[:, None] * tb[None, :]


@numpy_names(a='x')
@numpy_out(np.trace)
def trace(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
          out: Any = None) -> Tensor:
    t = wrap(x)
    return Tensor(ops.apply("trace", [t._node], offset=offset, axis1=axis1, axis2=axis2,
                            dtype=_opt_dtype(dtype, "trace")))


@ops.reports("einsum")
def einsum(*operands: Any, out: Any = None, dtype: Any = None, order: str = "K",
           casting: str = "safe", optimize: Any = False) -> Tensor:
    """NumPy's ``einsum``: ``einsum(subscripts, *operands)`` or the sublist
    form ``einsum(op0, [0, 1], op1, [1, 2], [0, 2])``, with its default
    ``optimize=False`` (NumPy's own sum-of-products loops, so its bits;
    ``True``, ``"greedy"``, ``"optimal"`` or an explicit path: NumPy's
    contraction order and BLAS, faster for several operands).  ``dtype``
    casts the operands under ``casting`` first, as NumPy's loop does;
    ``out=`` is NumPy's own call, now."""
    if not operands:
        raise TypeError("einsum: no subscripts given")
    if out is not None:
        return run_now(np.einsum, *operands, out=out, dtype=dtype, order=order,
                       casting=casting, optimize=optimize)
    subscripts, arrays = _einsum_call(operands)
    check_order(order, "einsum")
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        optimize = ("einsum_path",) + tuple(tuple(p) for p in optimize[1:])  # (hashable)
    elif not isinstance(optimize, (bool, str)) or isinstance(optimize, str) \
            and optimize not in ("greedy", "optimal"):
        raise TypeError(f"einsum: optimize must be a bool, 'greedy', 'optimal' or an "
                        f"explicit ['einsum_path', ...] path, got {optimize!r}")
    ts = [wrap(o) for o in arrays]
    if len(ts) == 1 and dtype is None:
        # One operand, no label summed: NumPy returns a view, written
        # through: a permutation when each label is there once ('ij->ji',
        # 'ij', '...i->i...'), else diagonals ('ii->i', 'iij->ji').
        terms, out = ops._einsum_spelled(subscripts.replace(" ", ""), [ts[0].shape])
        term = terms[0]
        if set(out) == set(term) and len(set(out)) == len(out):
            if len(set(term)) == len(term):
                return ts[0]._view("transpose", axes=tuple(term.index(c) for c in out))
            return ts[0]._view("einsum_view", subscripts=f"{term}->{out}")
    if dtype is not None:
        dt = _check_dtype(dtype, "einsum")
        for t in ts:
            if not np.can_cast(t.dtype, dt, casting):  # type: ignore[arg-type]
                raise TypeError(f"einsum: Cannot cast array data from {t.dtype!r} to {dt!r} "
                                f"according to the rule {casting!r}")
        ts = [t if t.dtype == dt else t.astype(dt) for t in ts]
    return Tensor(ops.apply("einsum", [t._node for t in ts], subscripts=subscripts,
                            optimize=optimize))


def _einsum_call(args: tuple[Any, ...]) -> tuple[str, list[Any]]:
    """``einsum``'s subscripts and operands from either of NumPy's forms.
    The sublist form's integer labels become ``ops.EINSUM_LETTERS``, as
    NumPy's C parser makes them (alphabetical order, which decides an
    implicit output's, is the labels' order); ``Ellipsis`` becomes ``...``."""
    if isinstance(args[0], str):
        return args[0], list(args[1:])
    operands, terms = list(args[0::2]), list(args[1::2])
    out = None
    if len(operands) > len(terms):          # an odd count: the output sublist last
        out = operands.pop()

    def term(sub: Any) -> str:
        letters = []
        for label in sub:
            if label is Ellipsis:
                letters.append("...")
                continue
            try:
                k = operator.index(label)
            except TypeError:
                raise TypeError(f"einsum: each subscript must be an integer or Ellipsis, got "
                                f"{label!r}") from None
            if not 0 <= k < 52:
                raise ValueError(f"einsum: subscript is not within the valid range [0, 52), "
                                 f"got {k}")
            letters.append(ops.EINSUM_LETTERS[k])
        return "".join(letters)
    spec = ",".join(term(t) for t in terms)
    return (spec if out is None else f"{spec}->{term(out)}"), operands


def einsum_path(subscripts: str, *operands: Any, optimize: Any = "greedy") -> Any:
    """NumPy's ``einsum_path``: the contraction order and its report.  It
    reads only the operands' shapes and dtypes, so tensors are not computed:
    NumPy gets zero-stride stand-ins of their shapes (also in the
    interleaved form, ``einsum_path(a, [0], b, [0])``: ``subscripts`` is
    an operand there, the sublists stay lists)."""
    def stand_in(o: Any) -> Any:
        if isinstance(o, (str, list)):
            return o
        t = wrap(o)
        return np.broadcast_to(np.empty((), t.dtype), t.shape)
    return np.einsum_path(stand_in(subscripts), *map(stand_in, operands), optimize=optimize)


# ------------------------------------------------------------------ joining


@numpy_out(np.concat)
@ops.reports("concat")
def concat(arrays: Sequence[Any], axis: int | None = 0, out: Any = None, *,
           dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """The array API's ``concat``, which NumPy 2's is: its ``concatenate``
    (an array as the sequence of its rows, ``dtype``, ``casting``, ``out``)."""
    return _joined(_join_operands(arrays, dtype, casting, "concat"), axis)


def _joined(ts: list[Tensor], axis: int | None) -> Tensor:
    """The tensors ``ts`` joined along ``axis`` (None: each flattened)."""
    if axis is None:
        ts = [t.reshape(-1) for t in ts]
        axis = 0
    nodes = [t._node for t in ts]
    return Tensor(ops.apply("concat", nodes, axis=axis))


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _join_operands(arrays: Any, dtype: Any, casting: str, what: str) -> list[Tensor]:
    """The operands of a NumPy join (concatenate, stack, hstack, vstack),
    as NumPy takes them: a sequence, or an array read as the sequence of
    its rows; each cast to ``dtype`` (their result type when None) under
    the rule ``casting``, NumPy's TypeError where the rule refuses."""
    if isinstance(arrays, (np.ndarray, Tensor)):
        arrays = list(arrays)
    elif not isinstance(arrays, (list, tuple)):
        raise TypeError(f"{what}: arrays must be passed as a sequence type such as list or "
                        f"tuple, got {type(arrays).__name__}")
    if casting not in _CASTINGS:
        raise ValueError(f"{what}: casting must be one of {', '.join(map(repr, _CASTINGS))}, "
                         f"got {casting!r}")
    ts = [wrap(a) for a in arrays]
    if not ts or (dtype is None and casting == "same_kind"):
        return ts                            # (concat's own promotion: result_type)
    dt = np.dtype(dtype) if dtype is not None else np.result_type(*(t.dtype for t in ts))
    for t in ts:
        if not np.can_cast(t.dtype, dt, casting):  # type: ignore[arg-type]  # checked above
            raise TypeError(f"{what}: Cannot cast array data from {t.dtype!r} to {dt!r} "
                            f"according to the rule {casting!r}")
    return [t if t.dtype == dt else t.astype(dt) for t in ts]


@numpy_out(np.concatenate)
@ops.reports("concatenate")
def concatenate(arrays: Sequence[Any], axis: int | None = 0, out: Any = None, *,
                dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """NumPy's ``concatenate``: ``concat`` with NumPy's ``dtype``,
    ``casting`` and ``out`` (run now: see ``numpy_out``)."""
    return _joined(_join_operands(arrays, dtype, casting, "concatenate"), axis)


@numpy_out(np.stack)
@ops.reports("stack")
def stack(arrays: Sequence[Any], axis: int = 0, out: Any = None, *, dtype: Any = None,
          casting: str = "same_kind") -> Tensor:
    ts = _join_operands(arrays, dtype, casting, "stack")
    if not ts:
        raise ValueError("need at least one array to stack")
    shape = ts[0].shape
    for t in ts[1:]:
        if t.shape != shape:
            raise ValueError(f"all input arrays must have the same shape, got {shape} "
                             f"and {t.shape}")
    ax = S.normalize_axis(axis, len(shape) + 1)
    return concat([expand_dims(t, ax) for t in ts], axis=ax)


@numpy_names(tup='arrays')
@ops.reports("hstack")
def hstack(arrays: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    ts = [_at_least(1, a) for a in _join_operands(arrays, dtype, casting, "hstack")]
    return concat(ts, axis=0 if ts and ts[0].ndim == 1 else 1)


@numpy_names(tup='arrays')
@ops.reports("vstack")
def vstack(arrays: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    return concat([_at_least(2, a) for a in _join_operands(arrays, dtype, casting, "vstack")],
                  axis=0)


row_stack = vstack


@numpy_names(tup='arrays')
@ops.reports("dstack")
def dstack(arrays: Sequence[Any]) -> Tensor:
    return concat([_at_least(3, a) for a in arrays], axis=2)


@numpy_names(tup='arrays')
@ops.reports("column_stack")
def column_stack(arrays: Sequence[Any]) -> Tensor:
    ts = [wrap(a) for a in arrays]
    return concat([t[:, None] if t.ndim == 1 else _at_least(2, t) for t in ts], axis=1)


def _at_least(ndim: int, x: Any) -> Tensor:
    """``x`` with at least ``ndim`` (1-3) dimensions, NumPy's way: a 1-d
    array becomes a row (2) or the middle axis (3), a 2-d one gains a last
    axis (3); views."""
    t = wrap(x)
    if t.ndim >= ndim:
        return t
    if t.ndim == 0:
        return t.reshape((1,) * ndim)
    if t.ndim == 1:
        return t[None, :] if ndim == 2 else t[None, :, None]
    return t[:, :, None]


def atleast_1d(*arys: Any) -> Any:
    """NumPy's: one operand's view of at least 1 dimension, a tuple of
    them for several."""
    res = tuple(_at_least(1, a) for a in arys)
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys: Any) -> Any:
    res = tuple(_at_least(2, a) for a in arys)
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys: Any) -> Any:
    res = tuple(_at_least(3, a) for a in arys)
    return res[0] if len(res) == 1 else res


@numpy_names(a='x')
@ops.reports("repeat")
def repeat(x: Any, repeats: Any, axis: int | None = None) -> Tensor:
    """NumPy's ``repeat``: an integer count is a broadcast then a reshape; a
    count per element (the array API's ``int | array``) a gather of the
    positions that many times each.  Counts in a tensor are computed now:
    the length depends on them."""
    t = wrap(x)
    counts = np.asarray(repeats.eval() if isinstance(repeats, Tensor) else repeats)
    if isinstance(repeats, (Tensor, np.ndarray)):
        if not np.can_cast(counts.dtype, np.intp, "safe"):
            raise TypeError(f"Cannot cast array data from {counts.dtype!r} to "
                            f"{np.dtype(np.intp)!r} according to the rule 'safe'")
    elif counts.dtype.kind in "fb":
        counts = counts.astype(np.intp)      # (NumPy reads numbers as int() does)
    if counts.ndim > 1:
        raise ValueError(f"repeats must be an integer or a 1-d array, got shape {counts.shape}")
    if axis is None or t.ndim == 0:          # (NumPy repeats a 0-d array as a 1-d one)
        t = t.reshape(-1)
        axis = 0 if axis is None else axis
    ax = S.normalize_axis(axis, t.ndim)
    if counts.ndim == 1 and counts.shape != (1,):
        if counts.shape != (t.shape[ax],):
            raise ValueError(f"operands could not be broadcast together with shape "
                             f"({t.shape[ax]},) {counts.shape}")
        if (counts < 0).any():
            raise ValueError("repeats may not contain negative values.")
        return take(t, np.repeat(np.arange(t.shape[ax]), counts), axis=ax)
    repeats = operator.index(counts.reshape(())[()])
    if repeats < 0:
        if t.shape[ax]:                 # (NumPy's length n * repeats, made when it allocates)
            raise ValueError("negative dimensions are not allowed")
        repeats = 0
    e = expand_dims(t, ax + 1)
    shape = t.shape[:ax + 1] + (repeats,) + t.shape[ax + 1:]
    out_shape = t.shape[:ax] + (t.shape[ax] * repeats,) + t.shape[ax + 1:]
    # A new array, as NumPy's: where the reshape can stay a view (a count of
    # 1, a length-1 axis), a view would see later writes to ``x`` and refuse
    # writes of its own (a broadcast), and keep ``x``'s layout where NumPy's
    # is C (a sum of it adds in that order).
    r = broadcast_to(e, shape).reshape(out_shape)
    return copy(r, "C") if r._node.op.kind == "view" else Tensor(r._node)


@numpy_names(A='x')
@ops.reports("tile")
def tile(x: Any, reps: int | Sequence[int]) -> Tensor:
    t = wrap(x)
    try:
        reps_t = tuple(operator.index(r) for r in reps) \
            if isinstance(reps, (tuple, list, np.ndarray)) and np.ndim(reps) == 1 \
            else (operator.index(reps),)  # type: ignore[arg-type]  # checked here
    except TypeError:
        raise TypeError(f"reps must be an int or a sequence of ints, got {reps!r}") from None
    nd = builtins.max(t.ndim, len(reps_t))
    reps_t = (1,) * (nd - len(reps_t)) + reps_t
    t = t.reshape((1,) * (nd - t.ndim) + t.shape)
    if builtins.all(r == 1 for r in reps_t):
        # (NumPy's tile of ones is ``np.array(x, copy=True, ndmin=nd)``, a
        # "K" copy: a broadcast operand's keeps its axes' memory order)
        return copy(t)
    idx: list[Any] = []
    shape: list[int] = []
    for r, d in zip(reps_t, t.shape):
        idx += [None, slice(None)]
        shape += [r, d]
    tiled = broadcast_to(t[tuple(idx)], shape).reshape(
        tuple(r * d for r, d in zip(reps_t, t.shape)))
    return Tensor(tiled._node)                # a new array, as repeat's


@numpy_names(a='x')
@numpy_out(np.take)
@ops.reports("take")
def take(x: Any, indices: Any, axis: int | None = None, out: Any = None,
         mode: Any = "raise") -> Tensor:
    """NumPy's ``take``: elements along ``axis`` (the flattened ``x`` for
    None; a 0-d ``x`` reads as 1-d), with ``mode`` ``"raise"`` (an index out
    of range is an error), ``"wrap"`` or ``"clip"`` (a negative index clips
    to 0)."""
    from .manipulation import _clipmode
    how = _clipmode(mode)
    t = wrap(x)
    idx, known = _take_indices(indices)
    if idx.dtype == np.bool_:
        idx = astype(idx, np.intp)           # (NumPy casts them: True is index 1)
    if axis is None or (t.ndim == 0 and axis in (0, -1)):
        t = t.reshape(-1)
        axis = 0
    n = t.shape[S.normalize_axis(axis, t.ndim)] if t.ndim else 0
    ax = S.normalize_axis(axis, t.ndim) if t.ndim else 0
    if how == "raise" and known is not None and known.dtype.kind in "iu" \
            and 0 not in t.shape[:ax]:
        # (known indices are checked on this line, as NumPy does; a tensor's
        # values when it runs.  NumPy's loop checks them for each index of
        # the axes before ``axis``: none, none checked.)
        from .indexing import _check_bounds
        try:
            _check_bounds(known, n, S.normalize_axis(axis, t.ndim))
        except IndexError as e:
            raise ops.located("take", [t._node, idx._node], e) from None
    if how != "raise" and idx.dtype.kind in "iu":
        # (the bounds wrapped or clipped to are the axis' length, now)
        refuse_call_axis(t, S.normalize_axis(axis, t.ndim), f"lt.take(..., mode={mode!r})")
        if n == 0:
            if idx.size:
                raise ops.located("take", [t._node, idx._node], IndexError(
                    "cannot do a non-empty take from an empty axes."))
        else:
            idx = idx % n if how == "wrap" else idx.clip(0, n - 1)
    return Tensor(ops.apply("take", [t._node, idx._node], axis=axis))


def _take_indices(indices: Any) -> tuple[Tensor, np.ndarray[Any, Any] | None]:
    """Indices as ``np.take`` reads them, and their values where the call
    gives them (not a tensor): a Python number or sequence is converted to
    intp, floats truncated (``[1.7]`` is ``[1]``); ``[]`` and ``[True,
    False]`` are intp (0 and 1); an array or a tensor of floats is NumPy's
    same_kind cast error."""
    if isinstance(indices, (Tensor, np.ndarray)):
        if indices.dtype.kind in "fc":
            raise TypeError(f"take: Cannot cast array data from {indices.dtype!r} to "
                            f"dtype('int64') according to the rule 'same_kind'")
        return wrap(indices), None if isinstance(indices, Tensor) else indices
    a = np.asarray(indices)
    a = a.astype(np.intp) if a.size == 0 or a.dtype.kind in "bf" else a
    return wrap(a), a


# ------------------------------------------------------------------ methods

def _method_table() -> dict[str, Callable[..., Any]]:
    names = ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all", "argmin",
             "argmax", "cumsum", "cumprod", "swapaxes", "squeeze", "diagonal", "trace",
             "dot", "clip", "round", "conj", "repeat", "take", "flip", "moveaxis",
             "expand_dims", "broadcast_to", "count_nonzero", "tile"]
    g = globals()
    table = {n: g[n] for n in names}
    table["conjugate"] = g["conj"]
    return table


METHODS = _method_table()
