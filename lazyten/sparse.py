"""``lt.sparse``: CSR and CSC matrices (``scipy.sparse``) as graph inputs.

A ``SparseMatrix`` is its three compressed arrays as lazy tensors, ``data``,
``indices`` and ``indptr``, plus a format (``"csr"``/``"csc"``) and a shape.
The structure (``indices``, ``indptr``, so ``nnz``) is fixed when the matrix is
built; the values (``data``) are an ordinary lazy tensor, so scaling a sparse
matrix is a lazy elementwise op on its stored values and fuses like any other.
Products with dense tensors are graph nodes whose implementation is
``scipy.sparse``'s own (a CSR/CSC matrix-vector or matrix-matrix kernel); the
transpose of a CSR matrix is the CSC matrix with the same three arrays, so
``dense @ sparse`` costs no conversion.

Semantics follow ``scipy.sparse``: ``S * c`` scales the stored values (NumPy's
type promotion on them), ``S / c`` is ``S.astype(float64) * (1 / c)`` as in
scipy, ``S + 0`` and ``S - 0`` are copies, ``0 - S`` is ``-S``, and a sum or
difference with any other scalar raises ``NotImplementedError`` (scipy: it
would make the matrix dense).  As for scipy's sparse arrays, ``S * D`` is
elementwise (``S.multiply(D)``: S's stored entries times a dense ``D``
broadcast to S's shape, lazy), ``S + D`` and ``S - D`` are dense tensors,
``S + S2``, ``S - S2`` and ``S.multiply(S2)`` are scipy's sparse results
(computed when built: their structure depends on the values), and
``sum``/``mean``/``max``/``min`` give dense tensors with scipy's dtypes (a
sum or mean is scipy's own call on the lazy values: its bits).

>>> import numpy as np, scipy.sparse as sp, lazyten as lt
>>> S = lt.sparse.asarray(sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]])))
>>> S.nnz, S.shape, S.format
(2, (2, 2), 'csr')
>>> (S * 3 @ lt.asarray([1.0, 1.0])).eval()
array([3., 6.])
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import dispatch
from .graph import ops
from .graph.node import Node, Shape
from .tensor import Tensor, wrap

__all__ = ["SparseMatrix", "asarray", "csr", "csc", "from_coo", "issparse", "to_dense"]

_FORMATS = {"csr": sp.csr_array, "csc": sp.csc_array}


# The dtypes scipy.sparse holds (``scipy.sparse._sputils.supported_dtypes``):
# float16 is not one of them.
_SUPPORTED = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
    np.uint64, np.float32, np.float64, np.longdouble, np.complex64, np.complex128,
    np.clongdouble))


def _check_dtype(dtype: np.dtype[Any], what: str) -> None:
    """scipy.sparse's refusal, when the node is built (not when it runs)."""
    if dtype not in _SUPPORTED:
        raise TypeError(f"{what}: scipy.sparse does not support dtype {dtype} (supported: "
                        f"bool, integers, float32/64, longdouble and complex)")


def _scipy(data: Any, indices: Any, indptr: Any, format: str, shape: Shape) -> Any:
    return _FORMATS[format]((data, indices, indptr), shape=shape)


# ---------------------------------------------------------------- ops

def _check_structure(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[str, Shape]:
    data, indices, indptr = inputs[:3]
    fmt, shape = attrs["format"], tuple(int(d) for d in attrs["shape"])
    if fmt not in _FORMATS:
        raise ValueError(f"unknown sparse format {fmt!r}; use 'csr' or 'csc'")
    if len(shape) != 2:
        raise ValueError(f"sparse matrices are 2-d, got shape {shape}")
    major = shape[0] if fmt == "csr" else shape[1]
    if data.ndim != 1 or indices.shape != data.shape or indptr.shape != (major + 1,):
        raise ValueError(f"inconsistent {fmt} arrays for shape {shape}: data {data.shape}, "
                         f"indices {indices.shape}, indptr {indptr.shape}")
    return fmt, shape


def _probe_matrix(fmt: str, dtype: np.dtype[Any], index_dtype: np.dtype[Any]) -> Any:
    return _scipy(np.ones(1, dtype), np.zeros(1, index_dtype), np.array([0, 1], index_dtype),
                  fmt, (1, 1))


def _to_dense_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    fmt, shape = _check_structure(inputs, attrs)
    return shape, {"format": fmt, "shape": shape}


def _to_dense_impl(data: Any, indices: Any, indptr: Any, format: str, shape: Shape) -> Any:
    return _scipy(data, indices, indptr, format, shape).toarray()


def _to_dense_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    return inputs[0].dtype


def _matmul_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    fmt, shape = _check_structure(inputs, attrs)
    dense = inputs[3]
    if dense.ndim not in (1, 2):
        raise ValueError(f"sparse @ dense needs a 1-d or 2-d dense operand, got shape "
                         f"{dense.shape}")
    if dense.shape[0] != shape[1]:
        raise ValueError(f"dimension mismatch: sparse {shape} @ dense {dense.shape}")
    return (shape[0],) + dense.shape[1:], {"format": fmt, "shape": shape}


def _matmul_impl(data: Any, indices: Any, indptr: Any, dense: Any, format: str,
                 shape: Shape) -> Any:
    return np.asarray(_scipy(data, indices, indptr, format, shape) @ dense)


def _matmul_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    # scipy's own upcasting, on a 1x1 matrix of these dtypes.
    m = _probe_matrix(attrs["format"], inputs[0].dtype, inputs[1].dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(m @ np.ones((1,) * inputs[3].ndim, inputs[3].dtype)).dtype


def _reduce_infer(inputs: Sequence[Node], attrs: dict[str, Any]) -> tuple[Shape, dict[str, Any]]:
    fmt, shape = _check_structure(inputs, attrs)
    axis = _axis(attrs["axis"])
    return (() if axis is None else (shape[1 - axis],)), {**attrs, "format": fmt, "shape": shape}


def _reduce_impl(data: Any, indices: Any, indptr: Any, format: str, shape: Shape, how: str,
                 axis: Any, dtype: Any) -> Any:
    # scipy's own sum or mean (of the stored values: its order of the adds)
    m = _scipy(data, indices, indptr, format, shape)
    return np.asarray(getattr(m, how)(axis=axis, dtype=dtype))


def _reduce_dtype(inputs: Sequence[Node], attrs: dict[str, Any]) -> np.dtype[Any]:
    # scipy's dtype, on a 1x1 matrix of these dtypes.
    m = _probe_matrix(attrs["format"], inputs[0].dtype, inputs[1].dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(getattr(m, attrs["how"])(axis=attrs["axis"],
                                                   dtype=attrs["dtype"])).dtype


ops.register(ops.OpSpec("sparse_to_dense", "linalg", _to_dense_impl, _to_dense_infer,
                        _to_dense_dtype, 3,
                        doc="the dense array of a CSR/CSC matrix given as (data, indices, "
                            "indptr)"))
ops.register(ops.OpSpec("sparse_matmul", "linalg", _matmul_impl, _matmul_infer, _matmul_dtype,
                        4, doc="CSR/CSC (data, indices, indptr) @ a dense vector or matrix, "
                               "by scipy.sparse"))
ops.register(ops.OpSpec("sparse_reduce", "linalg", _reduce_impl, _reduce_infer, _reduce_dtype,
                        3, doc="the sum or mean of a CSR/CSC (data, indices, indptr) matrix, "
                               "over an axis or all, by scipy.sparse"))


# ---------------------------------------------------------------- the matrix type

class SparseMatrix:
    """A lazy CSR or CSC matrix.

    >>> import lazyten as lt
    >>> S = lt.sparse.from_coo([5.0, 7.0], [0, 1], [2, 0], shape=(2, 3))
    >>> S.to_dense().eval()
    array([[0., 0., 5.],
           [7., 0., 0.]])
    """

    __slots__ = ("data", "indices", "indptr", "format", "_shape")

    # ndarray @ SparseMatrix must come to our __rmatmul__, not NumPy's.
    __array_priority__ = 1002.0
    __array_ufunc__ = None

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        # NumPy's functions would read a sparse matrix as a 0-d object array
        # (np.dot(S, v): an array of matrices): refused, with the ways that
        # work, but for those reading shapes and dtypes alone (np.shape(S)).
        answered, got = dispatch.metadata_call(func, args, kwargs, (SparseMatrix,))
        if answered:
            return got
        raise TypeError(f"numpy.{func.__name__}: an lt.sparse matrix ({self.format}, shape "
                        f"{self.shape}) is not a NumPy array; use its operators and "
                        f"methods (S @ v, S.sum(axis=0)), lt.sparse's functions, or "
                        f"S.to_dense()")

    def __init__(self, data: Tensor, indices: Tensor, indptr: Tensor, format: str,
                 shape: Sequence[int]) -> None:
        self.data = data
        self.indices = indices
        self.indptr = indptr
        self.format = format
        self._shape = (int(shape[0]), int(shape[1]))
        _check_dtype(data.dtype, f"sparse {format} matrix")
        _check_structure([data._node, indices._node, indptr._node],
                         {"format": format, "shape": self._shape})

    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    @property
    def ndim(self) -> int:
        return 2

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.data.dtype

    @property
    def nnz(self) -> int:
        """Stored entries (explicit zeros included, as in scipy); known at build time."""
        return self.data.shape[0]

    def __len__(self) -> int:
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def getnnz(self) -> int:
        return self.nnz

    def __repr__(self) -> str:
        return (f"<lazyten {self.format.upper()} sparse matrix {self.dtype}{list(self.shape)} "
                f"with {self.nnz} stored elements>")

    # ------------------------------------------------------------ forcing
    def eval(self) -> Any:
        """Compute the stored values; returns a ``scipy.sparse`` ``csr_array``/``csc_array``."""
        from . import compute
        d, i, p = compute(self.data, self.indices, self.indptr)
        return _scipy(d, i, p, self.format, self.shape)

    def to_dense(self) -> Tensor:
        """The dense matrix as a lazy tensor."""
        return Tensor(ops.apply("sparse_to_dense", [self.data._node, self.indices._node,
                                                    self.indptr._node],
                                format=self.format, shape=self.shape))

    todense = toarray = to_dense

    # ------------------------------------------------------------ structure-keeping ops
    def _with_data(self, data: Tensor) -> SparseMatrix:
        return SparseMatrix(data, self.indices, self.indptr, self.format, self.shape)

    @property
    def T(self) -> SparseMatrix:
        """The transpose: CSR <-> CSC over the same three arrays (no work)."""
        return SparseMatrix(self.data, self.indices, self.indptr,
                            "csc" if self.format == "csr" else "csr", self.shape[::-1])

    def transpose(self) -> SparseMatrix:
        return self.T

    def astype(self, dtype: Any) -> SparseMatrix:
        return self._with_data(self.data.astype(dtype))

    def tocsr(self) -> SparseMatrix:
        return self if self.format == "csr" else _wrap_scipy(self.eval().tocsr())

    def tocsc(self) -> SparseMatrix:
        return self if self.format == "csc" else _wrap_scipy(self.eval().tocsc())

    def __neg__(self) -> SparseMatrix:
        if self.dtype == np.bool_:  # scipy's error, not NumPy's TypeError
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(-self.data)

    def __abs__(self) -> SparseMatrix:
        return self._with_data(abs(self.data))

    def __mul__(self, other: Any) -> SparseMatrix:
        """``S * x``: elementwise, as scipy's sparse arrays (``S.multiply``)."""
        return self.multiply(other)

    __rmul__ = __mul__

    def multiply(self, other: Any) -> SparseMatrix:
        """Elementwise product, with scipy's sparse-array semantics.

        - a scalar scales the stored values (lazy);
        - a dense operand (broadcast to ``S.shape``) multiplies each stored
          value by the dense value at its position: the structure is ``S``'s,
          explicit zeros included (lazy in the values; scipy returns a COO
          array with these entries, lazyten keeps ``S``'s format);
        - a sparse operand: scipy's product, computed now (its structure
          depends on the values).
        """
        if isinstance(other, SparseMatrix) or sp.issparse(other):
            o = other.eval() if isinstance(other, SparseMatrix) else other
            return asarray(self.eval().multiply(o))
        if _is_scalar(other):
            return self._with_data(self.data * _scalar(other))
        d = self._dense_operand(other, "multiply")
        from .functions import broadcast_to
        rows, cols = self._coords()
        dd = broadcast_to(d, self.shape) if d.shape != self.shape else d
        return self._with_data(self.data * dd[rows, cols])

    def _coords(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Row and column of each stored value (the structure, computed now)."""
        from . import compute
        idx, ptr = compute(self.indices, self.indptr)
        major = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
        return (major, idx) if self.format == "csr" else (idx, major)

    # ------------------------------------------------------------ reductions
    def sum(self, axis: Any = None, dtype: Any = None) -> Tensor:
        """scipy's sum, by scipy (its bits: the stored values added in its
        order): a 0-d tensor (axis None, or both axes) or a 1-d one; small
        integer and bool dtypes summed as int64 (uint64 for unsigned)."""
        return self._reduce("sum", axis, dtype)

    def mean(self, axis: Any = None, dtype: Any = None) -> Tensor:
        """scipy's mean, by scipy (``(S.astype(inter) * (1 / n)).sum(axis)``,
        ``inter`` float64 for integers and bool, else the dtype); over no
        elements scipy's ZeroDivisionError, when built."""
        ax = _axis(axis)
        if (self.shape[0] * self.shape[1] if ax is None else self.shape[ax]) == 0:
            raise ZeroDivisionError(f"mean over an empty axis of a sparse {self.shape} matrix "
                                    f"(scipy: float division by zero)")
        return self._reduce("mean", axis, dtype)

    def _reduce(self, how: str, axis: Any, dtype: Any) -> Tensor:
        return Tensor(ops.apply("sparse_reduce", [self.data._node, self.indices._node,
                                                  self.indptr._node],
                                format=self.format, shape=self.shape, how=how,
                                # (as given: scipy adds a row of CSR by its
                                # data for axis 1 or -1, by a product for (1,))
                                axis=_given_axis(axis),
                                dtype=None if dtype is None else np.dtype(dtype)))

    def max(self, axis: int | None = None) -> Tensor:
        """scipy's max (implicit zeros count).  Along an axis scipy returns a
        1-d COO array; lazyten's sparse matrices are 2-d, so this is its
        dense values as a tensor."""
        from .functions import max as dmax
        return dmax(self.to_dense(), axis=_axis(axis))

    def min(self, axis: int | None = None) -> Tensor:
        """scipy's min (as ``max``)."""
        from .functions import min as dmin
        return dmin(self.to_dense(), axis=_axis(axis))

    def __truediv__(self, other: Any) -> SparseMatrix:
        if not _is_scalar(other):
            raise TypeError("sparse / x: lazyten supports a scalar x")
        # scipy: self.astype(float64) * (1 / other), and ZeroDivisionError for 0.
        recip = 1.0 / _scalar(other)
        data = self.data
        if np.can_cast(self.dtype, np.float64) and self.dtype != np.float64:
            data = data.astype(np.float64)
        return self._with_data(data * recip)

    def _scipys(self, other: Any, op: Any, name: str) -> SparseMatrix:
        """``op`` of this and another sparse matrix as scipy computes it, now:
        the result's structure depends on the values."""
        o = other.eval() if isinstance(other, SparseMatrix) else other
        if o.shape != self.shape:
            raise ValueError(f"sparse {name}: inconsistent shapes {self.shape} and {o.shape}")
        return _wrap_scipy(op(self.eval(), o))

    def _dense_operand(self, other: Any, name: str) -> Tensor:
        """A dense operand as a tensor, which scipy broadcasts to S's shape
        (and refuses where that is not S's shape)."""
        d = wrap(other)
        try:
            full = np.broadcast_shapes(d.shape, self.shape)
        except ValueError:
            full = None
        if full != self.shape:
            raise ValueError(f"sparse {name}: inconsistent shapes {self.shape} and {d.shape}")
        return d

    # S + c, c + S, S - c, c - S: scipy's rule, only a scalar 0 keeps the
    # matrix sparse (S, or -S for c - S); any other scalar would make it dense.
    # S +- sparse: scipy's sum (its structure depends on the values: computed
    # now, CSR as scipy's).  S +- dense: a dense tensor (lazy), as scipy's.
    def _sparse_or_dense(self, other: Any, op: Any, name: str) -> Any:
        if isinstance(other, SparseMatrix) or sp.issparse(other):
            return self._scipys(other, op, name)
        d = self._dense_operand(other, name)
        # scipy's dtype, on a 1x1 matrix: it adds a dense operand of a dtype
        # it does not hold (float16) in its own upcast (float32 with an int8
        # S: both operands cast to it), where it subtracts by NumPy's rules
        m = _probe_matrix(self.format, self.dtype, self.indices.dtype)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.asarray(op(m, np.ones((1, 1), d.dtype))).dtype
        if want != np.result_type(self.dtype, d.dtype):
            return op(self.astype(want).to_dense(), d.astype(want))
        return op(self.to_dense(), d)

    def __add__(self, other: Any) -> Any:
        if not _is_scalar(other):
            return self._sparse_or_dense(other, lambda a, b: a + b, "+")
        _zero_scalar(other, "sparse + x", "adding a nonzero scalar to a sparse array",
                     "S.to_dense() + c")
        return self._with_data(Tensor(self.data._node))

    def __radd__(self, other: Any) -> Any:
        if not _is_scalar(other):
            return self._sparse_or_dense(other, lambda a, b: b + a, "+")
        return self + other

    def __sub__(self, other: Any) -> Any:
        if not _is_scalar(other):
            return self._sparse_or_dense(other, lambda a, b: a - b, "-")
        _zero_scalar(other, "sparse - x", "subtracting a nonzero scalar from a sparse array",
                     "S.to_dense() - c")
        return self._with_data(Tensor(self.data._node))

    def __rsub__(self, other: Any) -> Any:
        if not _is_scalar(other):
            return self._sparse_or_dense(other, lambda a, b: b - a, "-")
        _zero_scalar(other, "x - sparse", "subtracting a sparse array from a nonzero scalar",
                     "c - S.to_dense()")
        return -self

    # (no __rtruediv__: c / S is a TypeError, as in scipy)

    def __pow__(self, other: Any) -> SparseMatrix:
        """``S ** c`` elementwise on the stored values (scipy's sparse arrays);
        ``S ** 0`` would be dense: NotImplementedError, as in scipy."""
        if not _is_scalar(other):
            raise TypeError("sparse ** x: lazyten supports a scalar x")
        if other == 0:
            raise NotImplementedError("zero power is not supported as it would densify the "
                                      "matrix. Use `np.ones(A.shape, dtype=A.dtype)` for this "
                                      "case.")
        return self._with_data(self.data ** _scalar(other))

    # ------------------------------------------------------------ comparisons
    # scipy.sparse: with a dense operand the result is a dense bool array (a
    # lazy tensor here); with a sparse matrix or a scalar it is a sparse bool
    # matrix whose stored entries depend on the values, so both operands are
    # evaluated and scipy compares them (as ``tocsr()`` of a CSC evaluates).
    def _compare(self, other: Any, op: Any, name: str) -> Any:
        if isinstance(other, SparseMatrix) or sp.issparse(other):
            return self._scipys(other, op, name)
        if _is_scalar(other):
            return _wrap_scipy(op(self.eval(), _scalar(other)))
        d = self._dense_operand(other, name)
        return op(self.to_dense(), d)

    def __eq__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a == b, "==")

    def __ne__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a != b, "!=")

    def __lt__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a < b, "<")

    def __le__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a <= b, "<=")

    def __gt__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a > b, ">")

    def __ge__(self, other: Any) -> Any:
        return self._compare(other, lambda a, b: a >= b, ">=")

    __hash__ = None  # type: ignore[assignment]

    def __matmul__(self, other: Any) -> Tensor:
        if isinstance(other, SparseMatrix):
            raise TypeError("sparse @ sparse is not supported lazily; use .eval() (scipy)")
        _not_scalar_operand(other)
        d = wrap(other)
        return Tensor(ops.apply("sparse_matmul", [self.data._node, self.indices._node,
                                                  self.indptr._node, d._node],
                                format=self.format, shape=self.shape))

    def __rmatmul__(self, other: Any) -> Tensor:
        # x @ S == (S.T @ x.T).T, and S.T is the same arrays in the other format.
        _not_scalar_operand(other)
        d = wrap(other)
        if d.ndim == 1:
            return self.T @ d
        return (self.T @ d.T).T

    def dot(self, other: Any) -> Tensor:
        return self @ other


def _given_axis(axis: Any) -> Any:
    """``axis`` checked (``_axis``) and as scipy takes it: ints, a tuple."""
    _axis(axis)
    return tuple(operator.index(a) for a in axis) if isinstance(axis, tuple) \
        else None if axis is None else operator.index(axis)


def _axis(axis: Any) -> int | None:
    """An axis of a 2-d matrix as scipy reads it (negative counted from the
    end; a tuple of one axis is that axis, of both None, as scipy's)."""
    if isinstance(axis, tuple):
        if not axis:
            raise ValueError("sparse does not accept 0D axis (); use S.to_dense() for a "
                             "dense reduction")
        axes = {_axis(a) for a in axis}
        if len(axes) != len(axis):
            raise ValueError(f"duplicate value in axis {axis}")
        return None if len(axes) == 2 else axes.pop()
    if axis is None:
        return None
    a = operator.index(axis)
    if not -2 <= a < 2:
        raise ValueError(f"axis {axis} out of range for a 2-d sparse matrix")
    return a % 2


def _is_scalar(x: Any) -> bool:
    # (a 0-d ndarray too, as scipy reads it)
    return isinstance(x, (bool, int, float, complex, np.generic)) or \
        (isinstance(x, (Tensor, np.ndarray)) and x.ndim == 0)


def _scalar(x: Any) -> Any:
    """A scalar operand as NumPy's own operators take it: a 0-d ndarray as its
    NumPy scalar (scipy's ``np.asarray(other)`` then the stored values' ufunc)."""
    return x[()] if isinstance(x, np.ndarray) else x


def _zero_scalar(other: Any, what: str, nonzero: str, dense: str) -> None:
    """Check ``other`` for a sum or difference ``what`` with a sparse matrix
    (``dense``: the dense spelling to suggest): scipy's NotImplementedError
    for a nonzero scalar, TypeError for an operand that is not a scalar."""
    if not _is_scalar(other):
        raise TypeError(f"{what}: lazyten supports scalars only; use S.to_dense() for a "
                        f"dense result")
    if other != 0:
        raise NotImplementedError(f"{nonzero} is not supported (scipy.sparse: the result "
                                  f"would be dense; use {dense})")


def _not_scalar_operand(other: Any) -> None:
    """scipy's error for ``S @ c`` and ``c @ S`` with a scalar ``c``."""
    if _is_scalar(other):
        raise ValueError("Scalar operands are not allowed, use '*' instead")


def issparse(x: Any) -> bool:
    return isinstance(x, SparseMatrix)


def _wrap_scipy(m: Any) -> SparseMatrix:
    if len(m.shape) != 2:
        raise ValueError(f"lt.sparse holds matrices (2-d); got a {len(m.shape)}-d input of "
                         f"shape {m.shape} (reshape it to (1, n) or (n, 1))")
    fmt = m.format
    # Duplicate entries are kept, as scipy keeps them (its nnz counts them);
    # every kernel here (scipy's) sums them.
    from .creation import asarray as dense
    return SparseMatrix(dense(m.data), dense(m.indices), dense(m.indptr), fmt, m.shape)


def _materialize(x: Any) -> Any:
    """Constructor inputs as NumPy: lazy tensors are evaluated (the sparse
    structure depends on their values)."""
    if isinstance(x, Tensor):
        return x.eval()
    if isinstance(x, tuple):
        return tuple(_materialize(v) for v in x)
    return x


def asarray(m: Any, format: str | None = None) -> SparseMatrix:
    """A ``scipy.sparse`` matrix (any format) as a lazy CSR/CSC matrix.

    CSR and CSC inputs keep their format and arrays (read at evaluation time,
    never written); other formats are converted to CSR (or ``format``).

    >>> import numpy as np, scipy.sparse as sp, lazyten as lt
    >>> lt.sparse.asarray(sp.coo_array(np.eye(2))).format
    'csr'
    """
    if isinstance(m, SparseMatrix):
        return m if format in (None, m.format) else (m.tocsr() if format == "csr"
                                                     else m.tocsc())
    if not sp.issparse(m):
        raise TypeError(f"lt.sparse.asarray takes a scipy.sparse matrix, got "
                        f"{type(m).__name__}; use lt.sparse.csr(dense) for dense input")
    if m.ndim != 2:
        raise ValueError(f"lazyten sparse matrices are 2-d, got shape {m.shape}")
    if isinstance(m, sp.spmatrix):
        # (scipy's matrix classes multiply with ``*`` and keep 2-d sums;
        # lazyten's follow its sparse arrays: the same code gives other
        # numbers, so it says so where the matrix comes in)
        warnings.warn(
            f"lt.sparse.asarray: a scipy.sparse {type(m).__name__} is taken with scipy's "
            f"sparse-array rules: `*` is elementwise (the matrix product is `@`), `sum(axis)` "
            f"drops the axis, `**` is elementwise; convert with scipy.sparse.csr_array(m) "
            f"to say so", UserWarning, stacklevel=2)
    fmt = format or (m.format if m.format in _FORMATS else "csr")
    if fmt not in _FORMATS:
        raise ValueError(f"unknown sparse format {fmt!r}; use 'csr' or 'csc'")
    if m.format != fmt:
        m = m.asformat(fmt)
    return _wrap_scipy(m)


def csr(arg: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> SparseMatrix:
    """A CSR matrix, from anything ``scipy.sparse.csr_array`` takes: a dense
    array, ``(data, (row, col))`` coordinates (duplicates summed),
    ``(data, indices, indptr)``, or a sparse matrix.

    >>> import lazyten as lt
    >>> lt.sparse.csr(([1.0, 2.0], ([0, 1], [1, 0])), shape=(2, 2)).to_dense().eval()
    array([[0., 1.],
           [2., 0.]])
    """
    return _wrap_scipy(sp.csr_array(_materialize(arg), shape=shape, dtype=dtype))


def csc(arg: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> SparseMatrix:
    """A CSC matrix (arguments as for ``csr``)."""
    return _wrap_scipy(sp.csc_array(_materialize(arg), shape=shape, dtype=dtype))


def from_coo(data: Any, row: Any, col: Any, shape: Sequence[int] | None = None,
             format: str = "csr") -> SparseMatrix:
    """Build from coordinates (COO -> CSR, duplicates summed, as scipy does).

    >>> import lazyten as lt
    >>> lt.sparse.from_coo([1, 2, 3], [0, 0, 1], [1, 1, 0]).to_dense().eval()
    array([[0, 3],
           [3, 0]])
    """
    coo = sp.coo_array((_materialize(data), (_materialize(row), _materialize(col))),
                       shape=shape)
    return asarray(coo, format)


def to_dense(m: SparseMatrix) -> Tensor:
    if not isinstance(m, SparseMatrix):
        raise TypeError(f"to_dense: expected an lt.sparse matrix, got {type(m).__name__}")
    return m.to_dense()
