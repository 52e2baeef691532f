"""``lt.linalg``: NumPy's ``numpy.linalg`` (and the array API's ``linalg``) lazily.

Every function builds one node (or a few views of one node) whose
implementation is the NumPy/LAPACK routine itself, so values are NumPy's
bit for bit; shapes and dtypes are inferred when the node is built, and a
non-square matrix given to ``inv`` raises on that line, not at evaluation.

Decompositions with several results (``svd``, ``qr``, ``eigh``,
``slogdet``) are one *packed* node: its implementation runs the LAPACK
routine once and concatenates the raveled results along a last axis (in
their common dtype); each result is then a slice + reshape view of that node
(plus a cast back when the part's dtype is narrower, e.g. the real singular
values of a complex matrix).  So ``U, S, Vh = lt.linalg.svd(a)`` runs one
SVD however many of its parts are used, and the graph stays a graph of
single-array nodes (no tuple values for the executor to special-case).
The results come back as the same named tuples NumPy uses
(``SVDResult(U, S, Vh)``, ...).

>>> import numpy as np, lazyten as lt
>>> a = lt.asarray([[4.0, 1.0], [2.0, 3.0]])
>>> lt.linalg.det(a).shape, lt.linalg.det(a).dtype
((), dtype('float64'))
>>> round(float(lt.linalg.det(a)), 6)
10.0
>>> U, S, Vh = lt.linalg.svd(a)
>>> np.allclose((U * S[None, :]) @ Vh, a.eval())
True
"""

from __future__ import annotations

import math
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

import numpy as np

from .functions import diagonal as _diagonal
from .functions import matmul, matrix_transpose, tensordot
from .functions import trace as _trace
from .functions import vecdot as _vecdot
from .graph import ops
from .graph import shapes as S
from .graph.node import Node, Shape
from .tensor import Tensor, numpy_names, numpy_out, wrap

LinAlgError = np.linalg.LinAlgError

__all__ = ["LinAlgError", "cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv",
           "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "norm",
           "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace",
           "vecdot", "vector_norm", "SVDResult", "QRResult", "EighResult", "SlogdetResult",
           "eig", "eigvals", "lstsq", "EigResult", "LstsqResult", "multi_dot", "cond",
           "tensorinv", "tensorsolve"]


class SVDResult(NamedTuple):
    U: Tensor
    S: Tensor
    Vh: Tensor


class QRResult(NamedTuple):
    Q: Tensor
    R: Tensor


class EighResult(NamedTuple):
    eigenvalues: Tensor
    eigenvectors: Tensor


class SlogdetResult(NamedTuple):
    sign: Tensor
    logabsdet: Tensor


# ---------------------------------------------------------------- inference helpers

def _matrix(x: Node, what: str) -> tuple[Shape, int, int]:
    """(batch shape, rows, cols) of a stack of matrices."""
    if x.ndim < 2:
        raise LinAlgError(f"{x.ndim}-dimensional array given; {what} needs an array of at "
                          f"least two dimensions (a stack of matrices)")
    if x.dtype.kind not in "biufc":
        raise TypeError(f"{what}: unsupported dtype {x.dtype}")
    return x.shape[:-2], x.shape[-2], x.shape[-1]


def _square(x: Node, what: str) -> tuple[Shape, int]:
    batch, m, n = _matrix(x, what)
    if m != n:
        raise LinAlgError(f"last 2 dimensions of the array must be square, got {x.shape}")
    return batch, n


# Cleared when full: attrs are part of the key, so ``matrix_power(M, k)``
# adds an entry per distinct ``k``.
_probe_cache: dict[tuple[Any, ...], np.dtype[Any]] = {}
_PROBE_MAX = 1024
_probe_lock = threading.Lock()


def _probe_ones(inputs: Sequence[Node], attrs: dict[str, Any], impl: Callable[..., Any],
                name: str, size: int = 1) -> np.dtype[Any]:
    """The dtype NumPy gives ``impl`` on these input dtypes.

    Like the registry's probe, but on arrays of ones: the zeros it uses are
    singular matrices, on which ``inv``, ``solve`` and ``cholesky`` raise.
    ``size`` is the length of every probe axis (``cross`` needs 3), except
    that an axis empty in the input is empty in the probe too, as in the
    registry's probe: NumPy takes another path for empty matrices (``pinv``
    returns one of the input's dtype, an integer one included); and an axis
    of length 1 stays 1, so that it still broadcasts against an empty one.
    """
    from .graph.node import _hashable
    shapes = [tuple(size if d > 1 else d for d in n.shape) for n in inputs]
    key = (name, _hashable(attrs), tuple(str(n.dtype) for n in inputs), tuple(shapes), size)
    hit = _probe_cache.get(key)
    if hit is not None:
        return hit
    args = [np.ones(shape, n.dtype) for shape, n in zip(shapes, inputs)]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dt = np.asarray(impl(*args, **attrs)).dtype
    with _probe_lock:
        if len(_probe_cache) >= _PROBE_MAX:
            _probe_cache.clear()
        _probe_cache[key] = dt
    return dt


def _reg(name: str, impl: Callable[..., Any],
         infer: Callable[[Sequence[Node], dict[str, Any]], tuple[Shape, dict[str, Any]]],
         arity: int | None, doc: str, probe_size: int = 1) -> None:
    def dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
        return _probe_ones(inputs, attrs, impl, name, probe_size)
    ops.register(ops.OpSpec(name, "linalg", impl, infer, dtype, arity, doc=doc))


def _node(name: str, operands: Sequence[Any], **attrs: Any) -> Tensor:
    return Tensor(ops.apply(name, [wrap(x)._node for x in operands], **attrs))


# ---------------------------------------------------------------- single-result ops

def _det_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    batch, _ = _square(inputs[0], "det")
    return batch, {}


def _same_square_infer(what: str) -> Callable[[Sequence[Node], dict[str, Any]],
                                              tuple[Shape, dict[str, Any]]]:
    def infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
        _square(inputs[0], what)
        return inputs[0].shape, dict(attrs)
    return infer


def _solve_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    a, b = inputs
    batch, n = _square(a, "solve")
    if b.ndim == 0:
        raise ValueError("solve: b must have at least one dimension")
    if b.ndim == 1:  # NumPy 2: a 1-d b is one vector
        if b.shape[0] != n:
            raise ValueError(f"solve: b has {b.shape[0]} rows but a is {n}x{n}")
        return batch + (n,), {}
    if b.shape[-2] != n:
        raise ValueError(f"solve: b has {b.shape[-2]} rows (shape {b.shape}) but a is {n}x{n}")
    return S.broadcast_shapes(batch, b.shape[:-2]) + (n, b.shape[-1]), {}


def _cholesky_impl(a: Any, upper: bool) -> Any:
    return np.linalg.cholesky(a, upper=upper)


# ``pinv``'s ``rtol`` not given (``None`` given is the array API's
# ``max(M, N) * eps``, where no cutoff at all is NumPy's ``rcond`` 1e-15).
_UNSET = "unset"


def _pinv_impl(a: Any, *tol: Any, rcond: Any, rtol: Any, hermitian: bool,
               tol_arg: str | None = None) -> Any:
    kw: dict[str, Any] = {} if rtol == _UNSET else {"rtol": rtol}
    if rcond is not None:
        kw["rcond"] = rcond
    if tol_arg is not None:                  # an array tolerance: the second input
        kw[tol_arg] = tol[0]
    return np.linalg.pinv(a, hermitian=hermitian, **kw)


def _tolerance_input(inputs: Sequence[Node], batch: Shape, what: str,
                     grows: bool = False) -> Shape:
    """The batch shape with an array tolerance (input 1), one cut-off per
    matrix, broadcast in (as NumPy's ``rtol[..., newaxis]``): it may make
    the batch larger where ``grows`` (matrix_rank counts per cut-off)."""
    if len(inputs) == 1:
        return batch
    tol = inputs[1]
    if tol.dtype.kind not in "biuf":
        raise TypeError(f"{what}: the tolerance must be real, got {tol.dtype}")
    out = S.broadcast_shapes(tol.shape, batch)
    if out != batch and not grows:
        raise ValueError(f"{what}: a tolerance of shape {tol.shape} does not broadcast "
                         f"against the batch shape {batch}")
    return out


def _pinv_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    batch, m, n = _matrix(inputs[0], "pinv")
    hermitian = bool(attrs["hermitian"])
    # NumPy returns an empty matrix before it looks at ``hermitian`` (whose
    # eigh needs a square one).
    if hermitian and m != n and m * n != 0:
        raise LinAlgError(f"pinv(hermitian=True): last 2 dimensions of the array must be "
                          f"square, got {inputs[0].shape}")
    _tolerance_input(inputs, batch, "pinv")
    return batch + (n, m), {"rcond": attrs.get("rcond"), "rtol": attrs.get("rtol", _UNSET),
                            "hermitian": hermitian, "tol_arg": attrs.get("tol_arg")}


def _rank_impl(a: Any, *tols: Any, tol: Any, hermitian: bool, rtol: Any,
               tol_arg: str | None = None) -> Any:
    kw = {"tol": tol, "rtol": rtol}
    if tol_arg is not None:                  # an array tolerance: the second input
        kw[tol_arg] = tols[0]
    # NumPy gives a Python int for a vector or a scalar (the rank is 0 or 1),
    # which has no dtype: the intp array its count_nonzero gives matrices.
    return np.asarray(np.linalg.matrix_rank(a, hermitian=hermitian, **kw), dtype=np.intp)


def _rank_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    if x.ndim < 2:  # NumPy: a vector has rank 0 or 1, whatever the tolerance
        return (), dict(attrs)
    batch, _, _ = _matrix(x, "matrix_rank")
    return _tolerance_input(inputs, batch, "matrix_rank", grows=True), dict(attrs)


def _power_impl(a: Any, n: int) -> Any:
    return np.linalg.matrix_power(a, n)


def _svdvals_impl(a: Any, hermitian: bool = False) -> Any:
    return np.linalg.svd(a, compute_uv=False, hermitian=hermitian)


def _svdvals_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    hermitian = bool(attrs.get("hermitian", False))
    if hermitian:  # NumPy's |eigvalsh(a)|, sorted: square matrices only
        batch, n = _square(inputs[0], "svd(hermitian=True)")
        return batch + (n,), {"hermitian": True}
    batch, m, n = _matrix(inputs[0], "svdvals")
    return batch + (min(m, n),), {"hermitian": False}


def _eigvalsh_impl(a: Any, UPLO: Literal["L", "U"]) -> Any:
    return np.linalg.eigvalsh(a, UPLO=UPLO)


def _eigvalsh_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    uplo = _uplo(attrs["UPLO"])  # (NumPy reads UPLO before it looks at the array)
    batch, n = _square(inputs[0], "eigvalsh")
    return batch + (n,), {"UPLO": uplo}


def _uplo(u: Any) -> str:
    """``UPLO`` as NumPy reads it: ``UPLO.upper()`` (so 'l' is 'L'), then checked."""
    if not isinstance(u, str):  # NumPy's UPLO.upper() on a non-string
        raise AttributeError(f"UPLO must be a string 'L' or 'U', got {u!r}")
    if u.upper() not in ("L", "U"):
        raise ValueError(f"UPLO argument must be 'L' or 'U', got {u!r}")
    return u.upper()


def _cross_impl(a: Any, b: Any, axis: int) -> Any:
    return np.linalg.cross(a, b, axis=axis)


def _cross_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    """NumPy's ``cross(a, b, axis=axis)``: each operand's vector axis moved to
    the end, the other axes broadcast, the 3-vector axis put back at ``axis``
    of the result (normalized against the result's ndim)."""
    a, b = inputs
    axis = int(attrs["axis"])
    # NumPy reads both x1.shape[axis] and x2.shape[axis] (its error message
    # does) before it compares them with 3: an axis out of range for either
    # is an IndexError (AxisError is both), whatever the other's length.
    for x in (a, b):
        if x.ndim == 0:
            raise np.exceptions.AxisError("cross: operands must have at least one dimension")
    ax = [S.normalize_axis(axis, x.ndim) for x in (a, b)]
    if a.shape[ax[0]] != 3 or b.shape[ax[1]] != 3:
        raise ValueError(f"cross: both input vectors must have 3 elements along axis "
                         f"{axis}, got shapes {a.shape} and {b.shape}")
    rest = [x.shape[:k] + x.shape[k + 1:] for x, k in zip((a, b), ax)]
    out = S.broadcast_shapes(rest[0], rest[1])
    at = S.normalize_axis(axis, len(out) + 1)
    return out[:at] + (3,) + out[at:], {"axis": axis}


_VECTOR_ORDS_MSG = "a number (inf, -inf, 0, p)"


def _vector_norm_impl(x: Any, axis: Any, keepdims: bool, ord: Any) -> Any:
    return np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)


_AXIS_TYPE_MSG = "'axis' must be None, an integer or a tuple of integers"


def _int_axis(axis: Any) -> int:
    """A single ``axis`` as ``numpy.linalg.norm`` reads it: ``int(axis)``, so
    a float is accepted and a list is not, with NumPy's TypeError."""
    try:
        return int(axis)
    except Exception as e:  # noqa: BLE001 - whatever int() raises, NumPy says TypeError
        raise TypeError(_AXIS_TYPE_MSG) from e


def _vector_norm_infer(inputs: Sequence[Node],
                       attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    x = inputs[0]
    ord_ = attrs["ord"]
    axis, keep = attrs["axis"], bool(attrs["keepdims"])
    # (the axis first: NumPy checks it before it looks at the order)
    if axis is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        # NumPy moves these axes, in the order given, to the front and
        # reshapes them into one before it reduces: the order is the
        # summation's, so it is kept (normalized, not sorted).
        axis = tuple(S.normalize_axis(a, x.ndim) for a in axis)
        if len(set(axis)) != len(axis):
            raise ValueError(f"repeated axis in {attrs['axis']}")
        axes = tuple(sorted(axis))
    else:
        # NumPy hands a single axis to ``norm`` (``int(axis)``)
        axes = (S.normalize_axis(_int_axis(axis), x.ndim),)
    # None is the 2-norm and a bool a number (True == 1), as in NumPy; the
    # order is kept as given: an np.float64 one makes NumPy's in-place
    # ``absx **= ord`` compute in float64 where a Python float would not.
    if ord_ is not None and (isinstance(ord_, str) or not isinstance(
            ord_, (int, float, np.integer, np.floating, np.bool_))):
        raise ValueError(f"vector_norm: invalid norm order {ord_!r}; use {_VECTOR_ORDS_MSG}")
    if axis is not None and not isinstance(axis, tuple):
        if keep:  # then, for keepdims, to normalize_axis_tuple (an integer only)
            S.normalize_axis(axis, x.ndim)
        axis = axes[0]
    return S.reduce_shape(x.shape, axes, keep), {"axis": axis, "keepdims": keep, "ord": ord_}


_MATRIX_ORDS = (None, "fro", "f", "nuc", math.inf, -math.inf, 1, -1, 2, -2)
# The inexact dtypes NumPy's LAPACK wrappers take (its _commonType)
_LAPACK_FLOATS = tuple(np.dtype(c) for c in "fdFD")


def _norm_impl(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    return np.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)


def _cond_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    """``numpy.linalg.cond``'s checks, in its order."""
    x, p = inputs[0], attrs["p"]
    if math.prod(x.shape) == 0 and math.prod(x.shape[-2:]) == 0:  # NumPy's _is_empty_2d
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p in (2, -2):  # from the singular values: any matrix
        batch, _, _ = _matrix(x, "cond")
    else:  # from the norms of the matrix and its inverse
        batch, _ = _square(x, "cond")
        # NumPy's inverse rejects float16 (and long double) before its norm
        # looks at the order
        if x.dtype.kind not in "biu" and x.dtype not in _LAPACK_FLOATS:
            raise TypeError(f"cond: array type {x.dtype} is unsupported in linalg")
    if p not in _MATRIX_ORDS:
        raise ValueError(f"cond: invalid norm order {p!r} for matrices; use one of "
                         f"{_MATRIX_ORDS}")
    # the order as spelled in _MATRIX_ORDS (2.0 -> 2, np.inf -> inf, True ->
    # 1): NumPy computes the same for equal orders, and equal nodes are then
    # one node
    return batch, {"p": _MATRIX_ORDS[_MATRIX_ORDS.index(p)]}


def _norm_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    """``numpy.linalg.norm``'s rules: one axis is a vector norm, two a matrix norm.

    ``axis=None`` stays None in the node: NumPy takes its fast path,
    ``sqrt(dot(x.ravel(), x.ravel()))``, for ``ord`` None (any ndim), 'f'
    or 'fro' (2-d) and 2 (1-d), whose last bits differ from the reduction
    over all axes; for the other orders it reduces over all axes itself.
    """
    x = inputs[0]
    ord_, axis, keep = attrs["ord"], attrs["axis"], bool(attrs["keepdims"])
    if axis is None:
        if ord_ is None:  # the 2-norm of the flattened array, any ndim
            return S.reduce_shape(x.shape, tuple(range(x.ndim)), keep), \
                {"ord": None, "axis": None, "keepdims": keep}
        if x.ndim not in (1, 2):
            raise ValueError(f"Improper number of dimensions to norm: an order needs a 1-d or "
                             f"2-d array or an axis, got shape {x.shape}")
        given: tuple[Any, ...] = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        given = axis
    else:
        given = (_int_axis(axis),)
    axes = tuple(S.normalize_axis(a, x.ndim) for a in given)
    if len(axes) == 1:
        if isinstance(ord_, str):
            raise ValueError(f"Invalid norm order {ord_!r} for vectors")
    elif len(axes) == 2:
        if axes[0] == axes[1]:
            raise ValueError(f"Duplicate axes given: {axis}")
        if ord_ not in _MATRIX_ORDS:
            raise ValueError(f"Invalid norm order {ord_!r} for matrices; use one of "
                             f"{_MATRIX_ORDS}")
    else:
        raise ValueError(f"Improper number of dimensions to norm: axis {axis}")
    return S.reduce_shape(x.shape, tuple(sorted(axes)), keep), \
        {"ord": ord_, "axis": None if axis is None else axes, "keepdims": keep}


_reg("linalg_det", np.linalg.det, _det_infer, 1, "determinant of each matrix (LAPACK getrf)")
_reg("linalg_inv", np.linalg.inv, _same_square_infer("inv"), 1,
     "matrix inverse (LAPACK gesv); LinAlgError at run time if singular")
_reg("linalg_solve", np.linalg.solve, _solve_infer, 2, "solve a @ x = b (LAPACK gesv)")
_reg("linalg_cholesky", _cholesky_impl, _same_square_infer("cholesky"), 1,
     "Cholesky factor (LAPACK potrf); attrs['upper'] picks U instead of L")
_reg("linalg_pinv", _pinv_impl, _pinv_infer, None,
     "Moore-Penrose pseudo-inverse (via SVD); input 1, if any, an array tolerance")
_reg("linalg_matrix_rank", _rank_impl, _rank_infer, None,
     "rank by SVD with NumPy's tolerance; input 1, if any, an array tolerance")
_reg("linalg_matrix_power", _power_impl, _same_square_infer("matrix_power"), 1,
     "integer matrix power by repeated squaring (inverse first for n < 0)")
_reg("linalg_svdvals", _svdvals_impl, _svdvals_infer, 1,
     "singular values (LAPACK gesdd; attrs['hermitian']: |eigenvalues| sorted, NumPy's path)")
_reg("linalg_eigvalsh", _eigvalsh_impl, _eigvalsh_infer, 1,
     "eigenvalues of a Hermitian matrix (LAPACK syevd/heevd), ascending")
_reg("linalg_cross", _cross_impl, _cross_infer, 2, "cross product of 3-vectors",
     probe_size=3)
_reg("linalg_vector_norm", _vector_norm_impl, _vector_norm_infer, 1,
     "vector p-norm over the given axes (array API vector_norm)")
_reg("linalg_norm", _norm_impl, _norm_infer, 1,
     "numpy.linalg.norm: vector norm over one axis, matrix norm over two")
_reg("linalg_cond", np.linalg.cond, _cond_infer, 1,
     "condition number of each matrix in the norm p (NumPy's routine, inf where singular)")


# ---------------------------------------------------------------- packed decompositions

def _pack(parts: Sequence[Any], batch: Shape) -> np.ndarray[Any, Any]:
    """Concatenate results along a new last axis, per batch element."""
    arrs = [np.asarray(p) for p in parts]
    dt = np.result_type(*arrs)
    # explicit sizes, not -1: a batch with a zero dimension has no size to infer
    flat = [a.reshape(batch + (math.prod(a.shape[len(batch):]),)) for a in arrs]
    return np.concatenate(flat, axis=-1, dtype=dt)


def _svd_impl(a: Any, full_matrices: bool, hermitian: bool) -> Any:
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices, hermitian=hermitian)
    return _pack((u, s, vh), np.shape(a)[:-2])


def _qr_impl(a: Any, mode: Literal["reduced", "complete", "r"]) -> Any:
    res = np.linalg.qr(a, mode=mode)
    parts = (res,) if isinstance(res, np.ndarray) else tuple(res)
    return _pack(parts, np.shape(a)[:-2])


def _eigh_impl(a: Any, UPLO: Literal["L", "U"]) -> Any:
    w, v = np.linalg.eigh(a, UPLO=UPLO)
    return _pack((w, v), np.shape(a)[:-2])


def _slogdet_impl(a: Any) -> Any:
    sign, logdet = np.linalg.slogdet(a)
    return _pack((sign, logdet), np.shape(a)[:-2])


def _svd_parts(batch: Shape, m: int, n: int, attrs: dict[str, Any]) -> list[Shape]:
    k = min(m, n)
    if attrs["full_matrices"]:  # (hermitian: square, U and Vh n x n whatever full_matrices)
        return [(m, m), (k,), (n, n)]
    return [(m, k), (k,), (k, n)]


def _qr_parts(batch: Shape, m: int, n: int, attrs: dict[str, Any]) -> list[Shape]:
    k = min(m, n)
    mode = attrs["mode"]
    if mode == "reduced":
        return [(m, k), (k, n)]
    if mode == "complete":
        return [(m, m), (m, n)]
    if mode == "raw":  # LAPACK's Householder reflectors (transposed) and their scales
        return [(n, m), (k,)]
    return [(k, n)]  # "r"


def _eigh_parts(batch: Shape, m: int, n: int, attrs: dict[str, Any]) -> list[Shape]:
    return [(n,), (n, n)]


def _slogdet_parts(batch: Shape, m: int, n: int, attrs: dict[str, Any]) -> list[Shape]:
    return [(), ()]


def _check_svd(attrs: dict[str, Any]) -> dict[str, Any]:
    hermitian = bool(attrs.get("hermitian", False))
    # NumPy's hermitian path (eigh) ignores full_matrices: one node for both
    return {"full_matrices": bool(attrs["full_matrices"]) or hermitian, "hermitian": hermitian}


def _check_qr(attrs: dict[str, Any]) -> dict[str, Any]:
    if attrs["mode"] not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"qr: unrecognized mode {attrs['mode']!r}; lazyten supports "
                         f"'reduced', 'complete', 'r' and 'raw'")
    return {"mode": attrs["mode"]}


def _check_eigh(attrs: dict[str, Any]) -> dict[str, Any]:
    return {"UPLO": _uplo(attrs["UPLO"])}


def _check_slogdet(attrs: dict[str, Any]) -> dict[str, Any]:
    return {}


_PACKED: dict[str, tuple[Callable[..., list[Shape]], Callable[[dict[str, Any]], dict[str, Any]],
                         bool]] = {
    # name: (part shapes, attribute check, needs a square matrix (also where
    # the checked attrs say hermitian))
    "linalg_svd": (_svd_parts, _check_svd, False),
    "linalg_qr": (_qr_parts, _check_qr, False),
    "linalg_eigh": (_eigh_parts, _check_eigh, True),
    "linalg_slogdet": (_slogdet_parts, _check_slogdet, True),
}


def _packed_infer(name: str) -> Callable[[Sequence[Node], dict[str, Any]],
                                         tuple[Shape, dict[str, Any]]]:
    parts_of, check, square = _PACKED[name]
    what = name.removeprefix("linalg_")

    def infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
        x = inputs[0]
        # NumPy checks its arguments (qr's mode, eigh's UPLO) before the array
        attrs = check(attrs)
        if square or attrs.get("hermitian"):
            _square(x, what)
        batch, m, n = _matrix(x, what)
        total = sum(math.prod(p) for p in parts_of(batch, m, n, attrs))
        return batch + (total,), attrs
    return infer


for _name, _impl in (("linalg_svd", _svd_impl), ("linalg_qr", _qr_impl),
                     ("linalg_eigh", _eigh_impl), ("linalg_slogdet", _slogdet_impl)):
    _reg(_name, _impl, _packed_infer(_name), 1,
         f"{_name.removeprefix('linalg_')}: all results packed along a last axis; "
         f"lazyten.linalg unpacks them as views")

# The NumPy routine whose results a packed node holds, for their dtypes.
_UNPACKED_FN: dict[str, Callable[..., Any]] = {
    "linalg_svd": lambda a, full_matrices, hermitian: np.linalg.svd(
        a, full_matrices=full_matrices, hermitian=hermitian),
    "linalg_qr": lambda a, mode: np.linalg.qr(a, mode=mode),
    "linalg_eigh": lambda a, UPLO: np.linalg.eigh(a, UPLO=UPLO),
    "linalg_slogdet": lambda a: np.linalg.slogdet(a),
}


def _unpack(name: str, x: Tensor, **attrs: Any) -> list[Tensor]:
    packed = _node(name, [x], **attrs)
    node = packed._node
    a = x._node
    batch, m, n = a.shape[:-2], a.shape[-2], a.shape[-1]
    shapes = _PACKED[name][0](batch, m, n, node.attrs)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _UNPACKED_FN[name](np.ones((1, 1), a.dtype), **node.attrs)
    dtypes = [np.asarray(r).dtype for r in ((res,) if isinstance(res, np.ndarray) else res)]
    out: list[Tensor] = []
    off = 0
    lead = (slice(None),) * len(batch)
    for shape, dt in zip(shapes, dtypes):
        size = math.prod(shape)
        part = packed[lead + (slice(off, off + size),)].reshape(batch + shape)
        if dt != packed.dtype:  # e.g. real singular values of a complex matrix
            part = part.real if dt.kind == "f" and packed.dtype.kind == "c" else part
            if part.dtype != dt:
                part = part.astype(dt)
        out.append(Tensor(part._node))  # a result, not a writable window into the pack
        off += size
    return out


# ---------------------------------------------------------------- public functions

@numpy_names(a='x')
def det(x: Any) -> Tensor:
    """Determinant of each matrix in a stack (``numpy.linalg.det``).

    >>> import lazyten as lt
    >>> round(float(lt.linalg.det(lt.asarray([[1.0, 2.0], [3.0, 4.0]]))), 6)
    -2.0
    """
    return _node("linalg_det", [x])


@numpy_names(a='x')
def slogdet(x: Any) -> SlogdetResult:
    """``(sign, logabsdet)`` of each matrix (``numpy.linalg.slogdet``), one LAPACK call.

    >>> import lazyten as lt
    >>> sign, logdet = lt.linalg.slogdet(lt.asarray([[1.0, 2.0], [3.0, 4.0]]))
    >>> float(sign)
    -1.0
    """
    return SlogdetResult(*_unpack("linalg_slogdet", wrap(x)))


@numpy_names(a='x')
def inv(x: Any) -> Tensor:
    """Matrix inverse (``numpy.linalg.inv``).  Not ``lt.inv``, which is gorgonia's
    elementwise reciprocal.

    >>> import lazyten as lt
    >>> lt.linalg.inv(lt.asarray([[2.0, 0.0], [0.0, 4.0]])).eval()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return _node("linalg_inv", [x])


def solve(a: Any, b: Any) -> Tensor:
    """Solve ``a @ x = b`` (``numpy.linalg.solve``, NumPy 2's shape rules: a 1-d
    ``b`` is one vector, otherwise ``b`` is a stack of matrices).

    >>> import lazyten as lt
    >>> lt.linalg.solve(lt.asarray([[2.0, 0.0], [0.0, 4.0]]), lt.asarray([2.0, 4.0])).eval()
    array([1., 1.])
    """
    return _node("linalg_solve", [a, b])


def cholesky(x: Any, /, *, upper: bool = False) -> Tensor:
    """Cholesky factor of a Hermitian positive-definite matrix.

    >>> import lazyten as lt
    >>> lt.linalg.cholesky(lt.asarray([[4.0, 2.0], [2.0, 2.0]])).eval()
    array([[2., 0.],
           [1., 1.]])
    """
    return _node("linalg_cholesky", [x], upper=bool(upper))


@numpy_names(a='x')
def pinv(x: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = _UNSET) -> Tensor:
    """Moore-Penrose pseudo-inverse, with ``numpy.linalg.pinv``'s signature:
    singular values below ``rcond`` (default 1e-15) or ``rtol`` (the array
    API's; ``rtol=None`` is ``max(M, N) * eps``) times the largest are cut.

    >>> import lazyten as lt
    >>> lt.linalg.pinv(lt.asarray([[1.0, 0.0, 0.0]])).shape
    (3, 1)
    """
    if rcond is not None and rtol is not _UNSET:
        raise ValueError("pinv: `rtol` and `rcond` can't be both set.")
    given = {"rcond": rcond, "rtol": rtol}
    arg, extra = _array_tolerance(given)
    return _node("linalg_pinv", [x, *extra], rcond=_float_or(given["rcond"]),
                 rtol=given["rtol"] if given["rtol"] is _UNSET else _float_or(given["rtol"]),
                 hermitian=bool(hermitian), tol_arg=arg)


def _float_or(v: Any) -> float | None:
    return None if v is None else float(v)


def _array_tolerance(given: dict[str, Any]) -> tuple[str | None, list[Any]]:
    """The one tolerance of ``given`` that is an array or a tensor (then an
    input of the node, per matrix; its entry is set to None), if any."""
    for k, v in given.items():
        if v is not None and v is not _UNSET and (isinstance(v, Tensor) or np.ndim(v)):
            given[k] = None
            return k, [v]
    return None, []


@numpy_names(A='x')
def matrix_rank(x: Any, tol: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Tensor:
    """Rank of each matrix by SVD (``numpy.linalg.matrix_rank``).

    >>> import lazyten as lt
    >>> int(lt.linalg.matrix_rank(lt.asarray([[1.0, 2.0], [2.0, 4.0]])))
    1
    """
    if tol is not None and rtol is not None:
        raise ValueError("matrix_rank: `tol` and `rtol` can't be both set.")
    x = wrap(x)
    if x.ndim < 2:
        # NumPy returns ``int(not all(A == 0))`` before it reads a tolerance:
        # none is an input (a lazy one would be evaluated for nothing)
        tol = rtol = None
    given = {"tol": tol, "rtol": rtol}
    arg, extra = _array_tolerance(given)
    return _node("linalg_matrix_rank", [x, *extra], tol=_float_or(given["tol"]),
                 hermitian=bool(hermitian), rtol=_float_or(given["rtol"]), tol_arg=arg)


@numpy_names(a='x')
def matrix_power(x: Any, n: int) -> Tensor:
    """``x`` multiplied by itself ``n`` times (``numpy.linalg.matrix_power``).

    >>> import lazyten as lt
    >>> lt.linalg.matrix_power(lt.asarray([[1, 1], [0, 1]]), 3).eval()
    array([[1, 3],
           [0, 1]])
    """
    import operator
    return _node("linalg_matrix_power", [x], n=operator.index(n))


@numpy_names(a='x')
def svd(x: Any, full_matrices: bool = True, compute_uv: bool = True,
        hermitian: bool = False) -> SVDResult | Tensor:
    """Singular value decomposition ``a = U @ diag(S) @ Vh`` (``numpy.linalg.svd``).

    One node runs LAPACK ``gesdd`` once; ``U``, ``S``, ``Vh`` are views of it.
    With ``compute_uv=False`` only the singular values (``svdvals``).
    ``hermitian=True`` is NumPy's own path, through ``eigh`` (``eigvalsh``
    without ``U`` and ``Vh``): its bits, not gesdd's.

    >>> import lazyten as lt
    >>> U, S, Vh = lt.linalg.svd(lt.ones((3, 2)), full_matrices=False)
    >>> U.shape, S.shape, Vh.shape
    ((3, 2), (2,), (2, 2))
    """
    if not compute_uv:
        return _node("linalg_svdvals", [x], hermitian=bool(hermitian))
    return SVDResult(*_unpack("linalg_svd", wrap(x), full_matrices=bool(full_matrices),
                              hermitian=bool(hermitian)))


def svdvals(x: Any) -> Tensor:
    """Singular values, descending (array API ``svdvals``).

    >>> import lazyten as lt
    >>> lt.linalg.svdvals(lt.asarray([[3.0, 0.0], [0.0, 4.0]])).eval()
    array([4., 3.])
    """
    return _node("linalg_svdvals", [x])


@numpy_names(a='x')
def qr(x: Any, mode: str = "reduced") -> QRResult | Tensor | tuple[Tensor, Tensor]:
    """QR decomposition (``numpy.linalg.qr``): ``(Q, R)``, or ``R`` alone for
    ``mode="r"``, or for ``mode="raw"`` the plain tuple ``(h, tau)`` of
    LAPACK's ``geqrf`` (``h`` transposed, as NumPy gives it).

    >>> import lazyten as lt
    >>> Q, R = lt.linalg.qr(lt.ones((3, 2)))
    >>> Q.shape, R.shape
    ((3, 2), (2, 2))
    """
    parts = _unpack("linalg_qr", wrap(x), mode=mode)
    if mode == "r":
        return parts[0]
    if mode == "raw":
        return parts[0], parts[1]
    return QRResult(*parts)


@numpy_names(a='x')
def eigh(x: Any, UPLO: str = "L") -> EighResult:
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix.

    >>> import lazyten as lt
    >>> w, v = lt.linalg.eigh(lt.asarray([[2.0, 0.0], [0.0, 1.0]]))
    >>> w.eval()
    array([1., 2.])
    """
    return EighResult(*_unpack("linalg_eigh", wrap(x), UPLO=UPLO))


@numpy_names(a='x')
def eigvalsh(x: Any, UPLO: str = "L") -> Tensor:
    """Eigenvalues of a Hermitian matrix, ascending (``numpy.linalg.eigvalsh``)."""
    return _node("linalg_eigvalsh", [x], UPLO=UPLO)


def cross(a: Any, b: Any, /, *, axis: int = -1) -> Tensor:
    """Cross product of 3-vectors along ``axis`` (``numpy.linalg.cross``).

    >>> import lazyten as lt
    >>> lt.linalg.cross(lt.asarray([1.0, 0, 0]), lt.asarray([0.0, 1, 0])).eval()
    array([0., 0., 1.])
    """
    return _node("linalg_cross", [a, b], axis=int(axis))


def outer(a: Any, b: Any, /) -> Tensor:
    """Outer product of two vectors (array API: both must be 1-d).

    >>> import lazyten as lt
    >>> lt.linalg.outer(lt.asarray([1, 2]), lt.asarray([3, 4])).eval()
    array([[3, 4],
           [6, 8]])
    """
    ta, tb = wrap(a), wrap(b)
    if ta.ndim != 1 or tb.ndim != 1:
        raise ValueError(f"outer: both operands must be 1-d, got shapes {ta.shape} and "
                         f"{tb.shape}")
    return ta[:, None] * tb[None, :]


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Tensor:
    """Sum of the diagonal of each matrix (the last two axes; array API ``trace``)."""
    t = wrap(x)
    if t.ndim < 2:
        raise ValueError(f"trace: needs at least 2 dimensions, got shape {t.shape}")
    return _trace(t, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x: Any, /, *, offset: int = 0) -> Tensor:
    """The diagonal of each matrix (last two axes), a read-only view."""
    t = wrap(x)
    if t.ndim < 2:
        raise ValueError(f"diagonal: needs at least 2 dimensions, got shape {t.shape}")
    return _diagonal(t, offset=offset, axis1=-2, axis2=-1)


def vecdot(a: Any, b: Any, /, *, axis: int = -1) -> Tensor:
    """Dot products of vectors along ``axis`` (conjugating ``a``, as NumPy does)."""
    return _vecdot(a, b, axis=axis)


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False,
                ord: float = 2) -> Tensor:
    """Vector p-norm over ``axis`` (all axes when None); ``ord`` any number,
    ``inf``/``-inf`` for max/min of ``|x|``, 0 for the count of nonzeros.

    >>> import lazyten as lt
    >>> float(lt.linalg.vector_norm(lt.asarray([3.0, 4.0])))
    5.0
    """
    return _node("linalg_vector_norm", [x], axis=axis, keepdims=bool(keepdims), ord=ord)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Tensor:
    """Matrix norm of each matrix (last two axes): ``'fro'``, ``'nuc'``,
    ``inf``, ``-inf``, 1, -1, 2, -2.

    >>> import lazyten as lt
    >>> float(lt.linalg.matrix_norm(lt.asarray([[3.0, 0.0], [0.0, 4.0]]), ord="nuc"))
    7.0
    """
    t = wrap(x)
    if t.ndim < 2:          # (NumPy's AxisError, also a ValueError)
        raise np.exceptions.AxisError(f"matrix_norm: axis -2 is out of bounds for array "
                                      f"of dimension {t.ndim} (needs matrices)")
    return _node("linalg_norm", [t], ord=ord, axis=(-2, -1), keepdims=bool(keepdims))


def cond(x: Any, p: Any = None) -> Tensor:
    """Condition number of each matrix (``numpy.linalg.cond``): ``s_max / s_min``
    for ``p`` None, 2, -2 (from the singular values), else
    ``norm(x, p) * norm(inv(x), p)``; inf for a singular matrix.

    One node running NumPy's routine, not a composition of ``svdvals``,
    ``inv`` and ``norm``: NumPy inverts in float64 (complex128) whatever the
    input's precision, ignores a singular matrix's errors, turns the NaNs
    they give into inf except where the matrix holds a NaN, and only then
    casts back: its bits, and its inf, come from that order of steps.

    >>> import lazyten as lt
    >>> float(lt.linalg.cond(lt.asarray([[1.0, 2.0], [2.0, 4.0]]), "fro"))
    inf
    """
    return _node("linalg_cond", [x], p=p)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    """``numpy.linalg.norm``: a vector norm over one axis, a matrix norm over two,
    the 2-norm of the flattened array when both ``ord`` and ``axis`` are None.

    >>> import lazyten as lt
    >>> a = lt.asarray([[1.0, -2.0], [3.0, 4.0]])
    >>> float(lt.linalg.norm(a, lt.inf))  # max row sum of |a|
    7.0
    """
    if isinstance(ord, Tensor):
        # (an order given as a 0-d tensor: NumPy compares its value)
        ord = ord.eval()[()]
    return _node("linalg_norm", [x], ord=ord, axis=axis, keepdims=bool(keepdims))


# ---------------------------------------------------------------- value-dependent results
#
# NumPy's ``eig``/``eigvals`` return real arrays when every eigenvalue is real
# and complex ones otherwise, and ``lstsq``'s residuals are empty unless the
# system has full rank: the result type depends on the values, so no node can
# know it when built.  These functions therefore evaluate their inputs (like a
# boolean mask does) and return tensors wrapping NumPy's exact results.  So,
# unlike a lazy node, they read an ``lt.asarray`` buffer when they are called:
# a later write into that array does not reach their results (NumPy's eager
# call behaves the same).  Kept: a lazy eig would need its dtype guessed.

class EigResult(NamedTuple):
    eigenvalues: Tensor
    eigenvectors: Tensor


class LstsqResult(NamedTuple):
    x: Tensor
    residuals: Tensor
    rank: Tensor
    singular_values: Tensor


def _forced(x: Any, what: str, stacked: bool = True) -> np.ndarray[Any, Any]:
    t = wrap(x)
    if t.ndim < 2:  # NumPy's _assert_stacked_2d / _assert_2d: a LinAlgError
        raise LinAlgError(f"{what}: {t.ndim}-dimensional array given. Array must be "
                          f"{'at least ' if stacked else ''}two-dimensional")
    return t.eval()


@numpy_names(a='x')
def eig(x: Any) -> EigResult:
    """``numpy.linalg.eig``.  Evaluates ``x`` (the result dtype depends on the values).

    >>> import lazyten as lt
    >>> lt.linalg.eig(lt.asarray([[2.0, 0.0], [0.0, 3.0]])).eigenvalues.eval()
    array([2., 3.])
    """
    w, v = np.linalg.eig(_forced(x, "eig"))
    return EigResult(wrap(w), wrap(v))


@numpy_names(a='x')
def eigvals(x: Any) -> Tensor:
    """``numpy.linalg.eigvals``.  Evaluates ``x`` (the result dtype depends on the values)."""
    return wrap(np.linalg.eigvals(_forced(x, "eigvals")))


def lstsq(a: Any, b: Any, rcond: Any = None) -> LstsqResult:
    """``numpy.linalg.lstsq``.  Evaluates ``a`` and ``b`` (the residuals' shape
    depends on the rank found).

    >>> import lazyten as lt
    >>> r = lt.linalg.lstsq(lt.asarray([[1.0, 0.0], [0.0, 2.0]]), lt.asarray([1.0, 4.0]))
    >>> r.x.eval()
    array([1., 2.])
    """
    x, res, rank, sv = np.linalg.lstsq(_forced(a, "lstsq", stacked=False), wrap(b).eval(),
                                       rcond=rcond)
    return LstsqResult(wrap(x), wrap(res), wrap(np.asarray(rank)), wrap(sv))


# ---------------------------------------------------------------- compositions

@numpy_out(np.linalg.multi_dot)
def multi_dot(arrays: Sequence[Any], *, out: Any = None) -> Tensor:
    """``numpy.linalg.multi_dot``: the product of a chain of matrices (the first
    and last may be vectors), in NumPy's order.

    NumPy picks the cheapest parenthesization by the operands' shapes
    (``_multi_dot_three`` for three arrays, the matrix-chain program for
    more) and multiplies with ``dot``; this builds that same tree of ``dot``
    nodes.  The order is not left to the optimizer: its ``matmul_order``
    pass rewrites ``matmul`` chains only, and with mixed dtypes the order
    decides each product's dtype (an int8 product wraps where NumPy's,
    taken in another order, is float64).  Two arrays are just ``dot`` (any
    number of dimensions), as in NumPy.  ``out=`` is NumPy's call, run now.

    >>> import lazyten as lt
    >>> lt.linalg.multi_dot([lt.ones((10, 100)), lt.ones((100, 5)), lt.ones(5)]).shape
    (10,)
    """
    ts = [wrap(a) for a in arrays]
    n = len(ts)
    if n < 2:
        raise ValueError("multi_dot: expecting at least two arrays")
    if n == 2:
        return _node("dot", ts)
    nd_first, nd_last = ts[0].ndim, ts[-1].ndim
    # NumPy's atleast_2d(first) and atleast_2d(last).T: views, a row and a column
    if nd_first == 1:
        ts[0] = ts[0][None, :]
    if nd_last == 1:
        ts[-1] = ts[-1][:, None]
    for t in ts:
        if t.ndim != 2:
            raise LinAlgError(f"multi_dot: {t.ndim}-dimensional array given. Array must be "
                              f"two-dimensional")
    if n == 3:
        out = _multi_dot_three(*ts)
    else:
        out = _multi_dot_chain(ts, _chain_order([t.shape[0] for t in ts] + [ts[-1].shape[1]]))
    if nd_first == 1 and nd_last == 1:
        return out[0, 0]
    if nd_first == 1 or nd_last == 1:
        return out.reshape(-1)
    return out


def _multi_dot_three(a: Tensor, b: Tensor, c: Tensor) -> Tensor:
    """NumPy's choice for three matrices: ``(ab)c`` only when strictly cheaper."""
    a0, a1b0 = a.shape
    b1c0, c1 = c.shape
    if a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0):
        return _node("dot", [_node("dot", [a, b]), c])
    return _node("dot", [a, _node("dot", [b, c])])


def _chain_order(p: list[int]) -> list[list[int]]:
    """NumPy's ``_multi_dot_matrix_chain_order``: split[i][j] is where the
    product of matrices i..j splits.  Costs are float64, as NumPy's array
    holds them, and a split replaces the best only when strictly cheaper, so
    ties (and costs past 2**53) resolve as NumPy's do."""
    n = len(p) - 1
    m = [[0.0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i][j] = math.inf
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + float(p[i] * p[k + 1] * p[j + 1])
                if q < m[i][j]:
                    m[i][j], s[i][j] = q, k
    return s


def _multi_dot_chain(ts: list[Tensor], split: list[list[int]]) -> Tensor:
    """The ``dot`` tree of ``split`` over ``ts``, built bottom-up without recursion."""
    done: dict[tuple[int, int], Tensor] = {(i, i): t for i, t in enumerate(ts)}
    todo = [(0, len(ts) - 1)]
    while todo:
        i, j = todo[-1]
        k = split[i][j]
        left, right = done.get((i, k)), done.get((k + 1, j))
        if left is None:
            todo.append((i, k))
        elif right is None:
            todo.append((k + 1, j))
        else:
            done[(i, j)] = _node("dot", [left, right])
            todo.pop()
    return done[(0, len(ts) - 1)]


def tensorinv(a: Any, ind: int = 2) -> Tensor:
    """``numpy.linalg.tensorinv``: the inverse of ``a`` seen as a matrix of its
    first ``ind`` axes by the rest."""
    t = wrap(a)
    if ind <= 0:
        raise ValueError(f"tensorinv: ind must be a positive integer, got {ind}")
    head, tail = t.shape[:ind], t.shape[ind:]
    n = math.prod(tail)
    # NumPy's errors: its reshape(n, -1) has no -1 to infer when n is 0, and
    # its inv rejects a matrix that is not square.
    if n == 0:
        raise ValueError(f"tensorinv: cannot invert shape {t.shape} with ind={ind}: the "
                         f"trailing axes {tail} hold no elements")
    if math.prod(head) != n:
        raise LinAlgError(f"tensorinv: shape {t.shape} with ind={ind} is not 'square' "
                          f"({head} vs {tail})")
    return inv(t.reshape(n, -1)).reshape(tail + head)


def tensorsolve(a: Any, b: Any, axes: Sequence[int] | None = None) -> Tensor:
    """``numpy.linalg.tensorsolve``: x with ``tensordot(a, x, x.ndim) == b``."""
    ta, tb = wrap(a), wrap(b)
    an = ta.ndim
    if axes is not None:
        order = [k for k in range(an) if k not in [S.normalize_axis(x, an) for x in axes]]
        order += [S.normalize_axis(x, an) for x in axes]
        ta = ta.transpose(order)
    oldshape = ta.shape[-(an - tb.ndim):]
    n = int(np.prod(oldshape))
    if int(np.prod(ta.shape)) != n * n or int(np.prod(tb.shape)) != n:
        raise LinAlgError(f"tensorsolve: a of shape {ta.shape} and b of shape {tb.shape} do "
                          f"not form a square system")
    return solve(ta.reshape(-1, n), tb.reshape(-1)).reshape(oldshape)
