"""``lt.fft``: NumPy's ``numpy.fft`` lazily.

Each transform is one node whose implementation is ``numpy.fft`` itself,
run on the evaluated input, so values are NumPy's bit for bit.  Shapes and
dtypes are inferred when the node is built, following NumPy's own code path
step by step (``_raw_fft``, ``_cook_nd_args``), so a bad ``n``, ``s``,
``axes`` or ``norm`` raises NumPy's exception type on the user's line, not
at evaluation.

Four ops cover the fourteen transforms: ``fft_fftn`` (``fft``, ``fft2``,
``fftn``), ``fft_ifftn`` (``ifft``, ``ifft2``, ``ifftn``), ``fft_rfftn``
(``rfft``, ``rfft2``, ``rfftn``) and ``fft_irfftn`` (``irfft``, ``irfft2``,
``irfftn``); a one-axis transform calls NumPy's 1-D function, which is what
NumPy's n-D functions call per axis, so ``fft(x)`` and ``fftn(x, axes=(-1,))``
are one node.  ``hfft`` and ``ihfft`` are NumPy's compositions: a conjugate
and an ``irfft``, an ``rfft`` and a conjugate.  Their attributes are
``s`` (per transformed axis, a length or None: "the default length where
the step runs", so a compiled function's None dimension is resolved per
call), ``axes`` (non-negative, in NumPy's order, repeats kept: NumPy
transforms a repeated axis again) and ``norm``.

The ops are of kind "linalg": opaque library calls that no pass rewrites.
A slice of a transform is not pushed into it (each output element depends
on every input element along the axes), it is not fused, and a plan runs
it as one NumPy step.

``fftfreq``/``rfftfreq`` are one op (``fft_freq``, NumPy's function on the
spacing ``d``); ``fftshift``/``ifftshift`` are ``lt.roll`` (NumPy's own
definition), or, along a compiled function's None dimension whose half
length is known only at call time, an op running NumPy's function.

``out=`` runs NumPy now (``tensor.numpy_out``): a lazy result cannot be
written into an existing array, and NumPy's ``out`` rules are then its own
(``hfft``, ``ifft2`` and ``irfft2`` ignore ``out``, as NumPy 2.x does).

>>> import numpy as np, lazyten as lt
>>> x = lt.asarray([1.0, 2.0, 1.0, -1.0])
>>> y = lt.fft.fft(x)
>>> y.shape, y.dtype
((4,), dtype('complex128'))
>>> np.array_equal(y.eval(), np.fft.fft([1.0, 2.0, 1.0, -1.0]))
True
>>> lt.fft.rfft(lt.zeros((3, 10), "float32"), n=7).shape
(3, 4)
"""

from __future__ import annotations

import operator
import os
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import functions as F
from .graph import ops
from .graph import shapes as S
from .compile import call_sized
from .graph.node import Node, Shape, refuse_call_sizes
from .manipulation import roll
from .tensor import Tensor, check_device, node_of, numpy_out, wrap

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift"]


# ---------------------------------------------------------------- NumPy's rules

# A step of a transform, as NumPy's ``_raw_fft`` runs it: complex to complex,
# real to half-spectrum complex, half-spectrum complex to real.
C2C, R2C, C2R = "c2c", "r2c", "c2r"

# op name -> (NumPy's 1-D function, its n-D function, forward)
_OPS: dict[str, tuple[Callable[..., Any], Callable[..., Any], bool]] = {
    "fft_fftn": (np.fft.fft, np.fft.fftn, True),
    "fft_ifftn": (np.fft.ifft, np.fft.ifftn, False),
    "fft_rfftn": (np.fft.rfft, np.fft.rfftn, True),
    "fft_irfftn": (np.fft.irfft, np.fft.irfftn, False),
}

_NORMS = (None, "backward", "ortho", "forward")
_SWAP_DIRECTION = {"backward": "forward", None: "forward", "ortho": "ortho",
                   "forward": "backward"}


def _swap_direction(norm: Any) -> Any:
    """NumPy's ``_swap_direction`` (its error and message)."""
    try:
        return _SWAP_DIRECTION[norm]
    except KeyError:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", '
                         '"ortho" or "forward".') from None


def _steps(name: str, count: int) -> list[tuple[int, str]]:
    """(index into ``s``/``axes``, step) in the order NumPy runs them:
    ``_raw_fftnd`` goes from the last axis to the first; ``rfftn`` halves
    the last axis first, then the others last to first; ``irfftn``
    transforms the others first to last, then makes the last one real."""
    if name in ("fft_fftn", "fft_ifftn"):
        return [(i, C2C) for i in reversed(range(count))]
    if name == "fft_rfftn":
        return [(count - 1, R2C)] + [(i, C2C) for i in reversed(range(count - 1))]
    return [(i, C2C) for i in range(count - 1)] + [(count - 1, C2R)]


def _length(n: Any) -> int:
    """``n`` checked as NumPy's ``_raw_fft`` checks it: ``n < 1`` first (a
    float below 1 is its ValueError), the integer only later (``n=2.5`` is
    a TypeError; a bool is one, from NumPy's C loop)."""
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n  # (its type is checked by ``_step`` after the axis, NumPy's order)


def _step(shape: Shape, step: str, n: Any, axis: Any, norm: Any,
          forward: bool) -> tuple[Shape, int, int]:
    """One 1-D transform of an array of ``shape`` along ``axis`` as NumPy's
    ``fft``/``rfft``/... run it, with NumPy's checks in its order: (the
    result's shape, its length ``n``, the normalized axis).  ``n`` None:
    the 1-D function's default (the axis' length; ``2 * (m - 1)`` for the
    inverse real transform)."""
    if n is None:
        m = shape[axis]                    # (NumPy's ``a.shape[axis]``: IndexError)
        n = (m - 1) * 2 if step == C2R else m
    _length(n)
    if not forward:
        norm = _swap_direction(norm)
    elif norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or '
                         f'"forward".')
    ax = normalize_axis_index(axis, len(shape))  # (NumPy's AxisError)
    # NumPy's C loops refuse a bool length, except the real-input one
    # (``rfft(a, n=True)`` is the 1-point transform).
    if isinstance(n, (bool, np.bool_)):
        if step != R2C:
            raise TypeError("an integer is required")
        k = int(n)
    else:
        k = operator.index(n)
    out = k // 2 + 1 if step == R2C else k
    return shape[:ax] + (out,) + shape[ax + 1:], k, ax


def _cook(name: str, shape: Shape, attrs: dict[str, Any], dtype: np.dtype[Any] | None = None
          ) -> tuple[Shape, dict[str, Any], list[int]]:
    """NumPy's argument handling and steps for the transform ``name`` of an
    array of ``shape``: (result shape, normalized attrs, the length of each
    entry of ``s`` as run).

    ``attrs``: ``n`` and ``axis`` (a 1-D function's), or ``s`` and ``axes``
    (an n-D function's, as the user gave them, ``_cook_nd_args``' rules),
    and ``norm``.  The normalized attrs give the same transform whatever
    the input's sizes: an entry of ``s`` is None where it is the 1-D
    default at its step (so a compiled function's None dimension is
    resolved per call), else the length."""
    forward = _OPS[name][2]
    norm = attrs.get("norm")
    defaults: list[bool]                   # entry i: the default length at its step
    if "n" in attrs:                       # a 1-D function
        s: list[Any] = [attrs["n"]]
        axes: list[Any] = [attrs.get("axis", -1)]
        defaults = [attrs["n"] is None]
    else:
        s_in, axes_in = attrs.get("s"), attrs.get("axes")
        shapeless = s_in is None
        if s_in is None:
            s = list(shape) if axes_in is None else \
                [int(v) for v in np.take(np.array(shape, dtype=np.intp), axes_in)]
        else:
            s = list(s_in)
        axes = list(range(-len(s), 0)) if axes_in is None else list(axes_in)
        if len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
        defaults = [shapeless or v is None for v in s]
        if name == "fft_irfftn" and shapeless:
            s[-1] = (shape[axes[-1]] - 1) * 2
        for i, (v, a) in enumerate(zip(s, axes)):
            if v is not None and not isinstance(v, (bool, np.bool_)) and v == -1:
                s[i] = shape[a]
                # (the input's length: the default, except for the inverse
                # real transform's last axis, whose default is 2 * (m - 1))
                defaults[i] = not (name == "fft_irfftn" and i == len(s) - 1)
    out = shape
    lengths = [0] * len(s)
    norm_axes = [0] * len(s)
    for i, step in _steps(name, len(s)):
        out, lengths[i], norm_axes[i] = _step(out, step, s[i], axes[i], norm, forward)
        if step == R2C and dtype is not None and dtype.kind == "c":
            # NumPy's rfft loop refuses complex input when this first step
            # runs: after its own axis and length checks, before the others'.
            raise TypeError(f"ufunc 'rfft_n_{'even' if lengths[i] % 2 == 0 else 'odd'}' not "
                            f"supported for the input types, and the inputs could not be "
                            f"safely coerced to any supported types according to the casting "
                            f"rule ''safe''")
    # An entry stays "default" only where its axis is transformed once: a
    # repeated axis' later steps see the length an earlier step made.
    once = [norm_axes.count(a) == 1 for a in norm_axes]
    s_norm = tuple(None if d and o else k for d, o, k in zip(defaults, once, lengths))
    return out, {"s": s_norm, "axes": tuple(norm_axes),
                 "norm": "backward" if norm is None else norm}, lengths


def _infer(name: str) -> ops.InferFn:
    def infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
        x = inputs[0]
        shape, norm_attrs, lengths = _cook(name, x.shape, attrs, x.dtype)
        # A length given as a number read from a compiled function's None
        # dimension (``n=x.shape[0]``) would be fixed for every call.
        given = [k for k, v in zip(lengths, norm_attrs["s"]) if v is not None]
        refuse_call_sizes(x, given, "the transform's length (n or s)")
        return shape, norm_attrs
    return infer


# (op, input dtype, axes (1 or 2), norm) -> result dtype
_dtype_cache: dict[tuple[Any, ...], np.dtype[Any]] = {}
_dtype_lock = threading.Lock()


def _dtype(name: str) -> ops.DtypeFn:
    nd_fn = _OPS[name][1]

    def dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
        # NumPy decides, on a tiny array of the input's dtype: integers and
        # bools give complex128/float64, float16 and float32 complex64 (and
        # irfft of float16 float16, but float32 over two axes or more: its
        # first steps make complex64).  Its own TypeError for a dtype it has
        # no loop for (``rfft`` of complex input) is raised here.
        x = inputs[0]
        k = min(len(attrs["axes"]), 2)
        key = (name, x.dtype, k, attrs["norm"])
        hit = _dtype_cache.get(key)
        if hit is not None:
            return hit
        probe = np.zeros((2,) * k, x.dtype)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dt = np.asarray(nd_fn(probe, s=(2,) * k, axes=tuple(range(k)),
                                  norm=attrs["norm"])).dtype
        with _dtype_lock:
            _dtype_cache[key] = dt
        return dt
    return dtype


def _impl(name: str) -> Callable[..., Any]:
    one_fn, nd_fn, _ = _OPS[name]

    def impl(x: Any, *, s: tuple[int | None, ...], axes: tuple[int, ...], norm: str) -> Any:
        a = np.asarray(x)
        # Each length made concrete for this input (the same steps as at
        # build time), so NumPy runs exactly the user's call and warns of
        # nothing (a None in ``s`` is deprecated in NumPy 2).
        _, _, lengths = _cook(name, a.shape, {"s": s, "axes": axes, "norm": norm})
        if len(axes) == 1:
            return one_fn(a, n=lengths[0], axis=axes[0], norm=norm)
        return nd_fn(a, s=lengths, axes=axes, norm=norm)
    return impl


for _name in _OPS:
    ops.register(ops.OpSpec(
        _name, "linalg", _impl(_name), _infer(_name), _dtype(_name), 1,
        doc=f"numpy.fft's {_OPS[_name][1].__name__} of input 0 over attrs['axes'] "
            f"(in NumPy's order, repeats kept), lengths attrs['s'] (None: the 1-D "
            f"default where the step runs), attrs['norm']"))


# ---------------------------------------------------------------- building

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _warn_user(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the user's line: the first frame
    outside lazyten (the decorators' wrappers are inside)."""
    frame: Any = sys._getframe(0)
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


_AXES_NONE = ("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). "
              "In a future version of NumPy, this will raise an error and `s[i]` will "
              "correspond to the size along the transformed axis specified by `axes[i]`. "
              "To retain current behaviour, pass a sequence [0, ..., k-1] to `axes` for "
              "an array of dimension k.")
_S_NONE = ("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 "
           "and will raise an error in a future version of NumPy. To use the default "
           "behaviour of the corresponding 1-D transform, pass the value matching the "
           "default for its `n` parameter. To use the default behaviour for every axis, "
           "the `s` argument can be omitted.")


def _one(name: str, a: Any, n: Any, axis: Any, norm: Any) -> Tensor:
    t = wrap(a)
    return Tensor(ops.apply(name, [t._node], n=n, axis=axis, norm=norm))


def _no_axes(t: Tensor, s: Any, axes: Any) -> bool:
    """Whether NumPy's ``_cook_nd_args`` leaves no axis to transform (then
    its c2c functions return ``asarray(a)`` itself); False where it raises."""
    try:
        n_s = None if s is None else len(s)
        n_axes = len(axes) if axes is not None else t.ndim if n_s is None else n_s
    except TypeError:
        return False
    return n_axes == 0 and n_s in (None, 0)


def _nd(name: str, a: Any, s: Any, axes: Any, norm: Any) -> Tensor:
    t = wrap(a)
    if s is not None and axes is None:
        _warn_user(_AXES_NONE, DeprecationWarning)
    if s is not None:
        s = list(s)                        # (NumPy's ``list(s)``: its TypeError)
    if name in ("fft_fftn", "fft_ifftn") and _no_axes(t, s, axes):
        return t                           # (NumPy returns ``asarray(a)`` itself)
    # (``s`` and ``axes`` as given: the op's shape rule checks them as NumPy
    # does, and normalizes them)
    out = Tensor(ops.apply(name, [t._node], s=s, axes=axes, norm=norm))
    if s is not None and None in s:
        _warn_user(_S_NONE, DeprecationWarning)
    return out


@numpy_out(np.fft.fft)
@ops.reports("fft")
def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
        out: Any = None) -> Tensor:
    """The 1-D discrete Fourier transform (``numpy.fft.fft``): ``n`` points
    (the input cut or padded with zeros) along ``axis``.

    >>> import lazyten as lt
    >>> lt.fft.fft(lt.asarray([1.0, 0.0, 0.0, 0.0])).eval()
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _one("fft_fftn", a, n, axis, norm)


@numpy_out(np.fft.ifft)
@ops.reports("ifft")
def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
         out: Any = None) -> Tensor:
    """The 1-D inverse discrete Fourier transform (``numpy.fft.ifft``).

    >>> import lazyten as lt
    >>> lt.fft.ifft(lt.asarray([4.0, 0.0, 0.0, 0.0])).eval()
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _one("fft_ifftn", a, n, axis, norm)


@numpy_out(np.fft.rfft)
@ops.reports("rfft")
def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
         out: Any = None) -> Tensor:
    """The 1-D transform of real input (``numpy.fft.rfft``): the
    ``n // 2 + 1`` non-negative frequency terms.

    >>> import lazyten as lt
    >>> lt.fft.rfft(lt.ones(4)).eval()
    array([4.+0.j, 0.+0.j, 0.+0.j])
    """
    return _one("fft_rfftn", a, n, axis, norm)


@numpy_out(np.fft.irfft)
@ops.reports("irfft")
def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
          out: Any = None) -> Tensor:
    """The inverse of ``rfft`` (``numpy.fft.irfft``): ``n`` real points
    (default ``2 * (m - 1)`` for ``m`` input points).

    >>> import lazyten as lt
    >>> lt.fft.irfft(lt.asarray([4.0, 0.0, 0.0])).eval()
    array([1., 1., 1., 1.])
    """
    return _one("fft_irfftn", a, n, axis, norm)


@numpy_out(np.fft.hfft)
@ops.reports("hfft")
def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
         out: Any = None) -> Tensor:
    """The transform of a Hermitian-symmetric signal (``numpy.fft.hfft``):
    NumPy's ``irfft(conjugate(a), n, axis, norm=<swapped>)``, lazily.

    >>> import lazyten as lt
    >>> lt.fft.hfft(lt.asarray([1.0, 0.0, 0.0])).eval()
    array([1., 1., 1., 1.])
    """
    t = wrap(a)
    if n is None:
        t.shape[axis]                      # (NumPy's default first: its IndexError)
    new_norm = _swap_direction(norm)
    return _one("fft_irfftn", F.conj(t), n, axis, new_norm)


@numpy_out(np.fft.ihfft)
@ops.reports("ihfft")
def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None,
          out: Any = None) -> Tensor:
    """The inverse of ``hfft`` (``numpy.fft.ihfft``): NumPy's
    ``conjugate(rfft(a, n, axis, norm=<swapped>))``, lazily.

    >>> import lazyten as lt
    >>> lt.fft.ihfft(lt.ones(4)).eval()
    array([1.-0.j, 0.-0.j, 0.-0.j])
    """
    t = wrap(a)
    if n is None:
        t.shape[axis]
    new_norm = _swap_direction(norm)
    return F.conj(_one("fft_rfftn", t, n, axis, new_norm))


@numpy_out(np.fft.fftn)
@ops.reports("fftn")
def fftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str | None = None, out: Any = None) -> Tensor:
    """The n-D discrete Fourier transform (``numpy.fft.fftn``) over ``axes``
    (default: all, or the last ``len(s)``), lengths ``s``.

    >>> import lazyten as lt
    >>> lt.fft.fftn(lt.ones((2, 2))).eval()
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return _nd("fft_fftn", a, s, axes, norm)


@numpy_out(np.fft.ifftn)
@ops.reports("ifftn")
def ifftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None, out: Any = None) -> Tensor:
    """The n-D inverse discrete Fourier transform (``numpy.fft.ifftn``).

    >>> import lazyten as lt
    >>> lt.fft.ifftn(lt.ones((2, 2))).eval()
    array([[1.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return _nd("fft_ifftn", a, s, axes, norm)


@numpy_out(np.fft.fft2)
@ops.reports("fft2")
def fft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = (-2, -1),
         norm: str | None = None, out: Any = None) -> Tensor:
    """The 2-D discrete Fourier transform (``numpy.fft.fft2``): ``fftn``
    over the last two axes.

    >>> import lazyten as lt
    >>> lt.fft.fft2(lt.ones((2, 2))).shape
    (2, 2)
    """
    return _nd("fft_fftn", a, s, axes, norm)


@numpy_out(np.fft.ifft2)
@ops.reports("ifft2")
def ifft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = (-2, -1),
          norm: str | None = None, out: Any = None) -> Tensor:
    """The 2-D inverse discrete Fourier transform (``numpy.fft.ifft2``).

    >>> import lazyten as lt
    >>> lt.fft.ifft2(lt.ones((2, 3))).shape
    (2, 3)
    """
    return _nd("fft_ifftn", a, s, axes, norm)


@numpy_out(np.fft.rfftn)
@ops.reports("rfftn")
def rfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None, out: Any = None) -> Tensor:
    """The n-D transform of real input (``numpy.fft.rfftn``): the last axis
    halved as by ``rfft``, the others as by ``fft``.

    >>> import lazyten as lt
    >>> lt.fft.rfftn(lt.ones((4, 6))).shape
    (4, 4)
    """
    return _nd("fft_rfftn", a, s, axes, norm)


@numpy_out(np.fft.irfftn)
@ops.reports("irfftn")
def irfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str | None = None, out: Any = None) -> Tensor:
    """The inverse of ``rfftn`` (``numpy.fft.irfftn``).

    >>> import lazyten as lt
    >>> lt.fft.irfftn(lt.ones((4, 4))).shape
    (4, 6)
    """
    return _nd("fft_irfftn", a, s, axes, norm)


@numpy_out(np.fft.rfft2)
@ops.reports("rfft2")
def rfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = (-2, -1),
          norm: str | None = None, out: Any = None) -> Tensor:
    """The 2-D transform of real input (``numpy.fft.rfft2``).

    >>> import lazyten as lt
    >>> lt.fft.rfft2(lt.ones((4, 6))).shape
    (4, 4)
    """
    return _nd("fft_rfftn", a, s, axes, norm)


@numpy_out(np.fft.irfft2)
@ops.reports("irfft2")
def irfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = (-2, -1),
           norm: str | None = None, out: Any = None) -> Tensor:
    """The inverse of ``rfft2`` (``numpy.fft.irfft2``).

    >>> import lazyten as lt
    >>> lt.fft.irfft2(lt.ones((4, 4))).shape
    (4, 6)
    """
    return _nd("fft_irfftn", a, s, axes, norm)


# ---------------------------------------------------------------- frequencies

def _freq_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    n, half = attrs["n"], attrs["rfft"]
    if half:
        length = max(int(n) // 2 + 1, 0)  # (NumPy's ``arange(0, N)``: empty, no error)
        return S.broadcast_shapes((length,), inputs[0].shape), attrs
    if isinstance(n, bool):
        # (NumPy's ``empty(True)``)
        raise TypeError("expected a sequence of integers or a single integer, got 'True'"
                        if n else "expected a sequence of integers or a single integer, "
                                  "got 'False'")
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    return S.broadcast_shapes((int(n),), inputs[0].shape), attrs


def _freq_impl(d: Any, *, n: Any, rfft: bool) -> Any:
    return (np.fft.rfftfreq if rfft else np.fft.fftfreq)(n, d)


def _freq_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    d = inputs[0]
    probe = d.attrs["value"] if d.weak else np.ones(tuple(min(k, 1) for k in d.shape), d.dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # (``n`` of the user's type: NumPy's scalar arithmetic differs from Python's)
        n = attrs["n"]
        n_probe = type(n)(2) if isinstance(n, np.integer) else 2
        return np.asarray(_freq_impl(probe, n=n_probe, rfft=attrs["rfft"])).dtype


ops.register(ops.OpSpec(
    "fft_freq", "linalg", _freq_impl, _freq_infer, _freq_dtype, 1,
    doc="numpy.fft.fftfreq (attrs['rfft']: rfftfreq) of attrs['n'] points, spacing input 0"))


def _freq(half: bool, what: str, n: Any, d: Any, device: Any) -> Tensor:
    if not isinstance(n, (int, np.integer)):
        raise ValueError("n should be an integer")
    check_device(device, what)
    if isinstance(n, int) and isinstance(d, (int, float, complex)):
        # NumPy's ``1.0 / (n * d)`` in Python numbers: a zero spacing is its
        # ZeroDivisionError (of NumPy numbers, a warning and infinities).
        1.0 / (n * d)
    return Tensor(ops.apply("fft_freq", [node_of(d)], n=n, rfft=half))


@ops.reports("fftfreq")
def fftfreq(n: int, d: Any = 1.0, device: Any = None) -> Tensor:
    """The sample frequencies of an ``n``-point ``fft`` with sample spacing
    ``d`` (``numpy.fft.fftfreq``): ``[0, 1, ..., n/2-1, -n/2, ..., -1] / (d*n)``.

    >>> import lazyten as lt
    >>> lt.fft.fftfreq(4, d=0.5).eval()
    array([ 0. ,  0.5, -1. , -0.5])
    """
    return _freq(False, "fftfreq", n, d, device)


@ops.reports("rfftfreq")
def rfftfreq(n: int, d: Any = 1.0, device: Any = None) -> Tensor:
    """The sample frequencies of an ``n``-point ``rfft`` (``numpy.fft.rfftfreq``).

    >>> import lazyten as lt
    >>> lt.fft.rfftfreq(4, d=0.5).eval()
    array([0. , 0.5, 1. ])
    """
    return _freq(True, "rfftfreq", n, d, device)


# ---------------------------------------------------------------- shifts

def _shift_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    return inputs[0].shape, attrs


def _shift_impl(x: Any, *, axes: tuple[int, ...], inverse: bool) -> Any:
    return (np.fft.ifftshift if inverse else np.fft.fftshift)(x, axes)


def _same_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return inputs[0].dtype


# Only along a compiled function's None dimension, whose half length is
# known only when it runs; elsewhere a shift is ``roll`` (views and a gather
# that passes can see through).
ops.register(ops.OpSpec(
    "fft_shift", "linalg", _shift_impl, _shift_infer, _same_dtype, 1,
    doc="numpy.fft.fftshift (attrs['inverse']: ifftshift) of input 0 over attrs['axes']"))


def _shift(x: Any, axes: Any, sign: int, inverse: bool) -> Tensor:
    t = wrap(x)
    shape = t.shape
    # NumPy's own steps: the lengths read with Python's tuple indexing
    # (its IndexError and TypeError), then ``roll``.
    if axes is None:
        axes_t: tuple[Any, ...] = tuple(range(t.ndim))
        shift: Any = [sign * (dim // 2) for dim in shape]
    elif isinstance(axes, (int, np.integer)):
        axes_t = (axes,)
        shift = sign * (shape[axes] // 2)
    else:
        axes_t = tuple(axes)
        shift = [sign * (shape[ax] // 2) for ax in axes_t]
    if t.ndim == 0:
        # (NumPy's ``roll`` of a 0-d array over no axes fails so)
        raise ValueError("not enough values to unpack (expected 2, got 0)")
    norm_axes = tuple(S.normalize_axis(a, t.ndim) for a in axes_t)
    if any(call_sized(t, a) for a in norm_axes):
        return Tensor(ops.apply("fft_shift", [t._node], axes=norm_axes, inverse=inverse))
    return roll(t, shift, axes if axes is not None else axes_t)


@ops.reports("fftshift")
def fftshift(x: Any, axes: Any = None) -> Tensor:
    """The zero-frequency term moved to the center (``numpy.fft.fftshift``):
    ``lt.roll`` by half of each axis in ``axes`` (default: all).

    >>> import lazyten as lt
    >>> lt.fft.fftshift(lt.fft.fftfreq(5)).eval()
    array([-0.4, -0.2,  0. ,  0.2,  0.4])
    """
    return _shift(x, axes, 1, False)


@ops.reports("ifftshift")
def ifftshift(x: Any, axes: Any = None) -> Tensor:
    """The inverse of ``fftshift`` (``numpy.fft.ifftshift``).

    >>> import lazyten as lt
    >>> lt.fft.ifftshift(lt.fft.fftshift(lt.fft.fftfreq(5))).eval()
    array([ 0. ,  0.2,  0.4, -0.4, -0.2])
    """
    return _shift(x, axes, -1, True)
