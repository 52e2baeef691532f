"""``lt.sparse`` against ``scipy.sparse``: products, scalar ops, construction."""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from util import assert_eq

import lazyten as lt
from lazyten.graph.node import toposort


def _random_sparse(rng: np.random.Generator, shape: tuple[int, int], dtype: Any,
                   fmt: str) -> Any:
    dense = rng.standard_normal(shape) * 10
    dense[rng.random(shape) < 0.6] = 0
    return sp.csr_array(dense.astype(dtype)).asformat(fmt)


DTYPES = [np.float64, np.float32, np.int32, np.int64, np.complex128]


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_dense(engine: Any, rng: np.random.Generator, fmt: str, dtype: Any) -> None:
    m = _random_sparse(rng, (5, 4), dtype, fmt)
    S = lt.sparse.asarray(m)
    assert S.format == fmt and S.shape == (5, 4) and S.dtype == m.dtype and S.nnz == m.nnz
    v = rng.standard_normal(4)
    M = rng.standard_normal((4, 3)).astype(np.float32)
    assert_eq(S @ lt.asarray(v), m @ v)
    assert_eq(S @ lt.asarray(M), m @ M, rtol=1e-6)
    assert_eq(S @ M, m @ M, rtol=1e-6)              # a plain ndarray operand
    assert_eq(S.dot(lt.asarray(v)), m.dot(v))
    w = rng.standard_normal(5)
    A = rng.standard_normal((2, 5))
    assert_eq(lt.asarray(w) @ S, w @ m)             # dense @ sparse
    assert_eq(lt.asarray(A) @ S, A @ m)
    assert_eq(A @ S, A @ m)                         # ndarray @ sparse defers to lt.sparse
    assert_eq(S.to_dense(), m.toarray())
    assert_eq(lt.sparse.to_dense(S.T), m.T.toarray())
    assert_eq(S.T @ lt.asarray(w), m.T @ w)


def test_lazy_dense_operand_and_composition(engine: Any, rng: np.random.Generator) -> None:
    m = _random_sparse(rng, (6, 6), np.float64, "csr")
    S = lt.sparse.asarray(m)
    x = lt.asarray(rng.standard_normal(6))
    y = S @ (x * 2 + 1)                             # a lazy operand
    ref_x = x.eval()
    assert_eq(y, m @ (ref_x * 2 + 1))
    assert_eq((S @ (S @ x)).sum(), (m @ (m @ ref_x)).sum())
    assert any(n.op.name == "sparse_matmul" for n in toposort([y.node]))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128])
def test_scalar_ops(engine: Any, rng: np.random.Generator, fmt: str, dtype: Any) -> None:
    m = _random_sparse(rng, (4, 5), dtype, fmt)
    S = lt.sparse.asarray(m)
    for got, ref in [(S * 3, m * 3), (3 * S, 3 * m), (S * 2.5, m * 2.5), (S / 4, m / 4),
                     (-S, -m), (abs(S), abs(m)), (S + 0, m + 0), (S * np.float32(2),
                                                                  m * np.float32(2))]:
        _assert_same_sparse(got, ref)
    with pytest.raises(NotImplementedError, match="nonzero scalar"):
        m + 1  # scipy's own behaviour ...
    with pytest.raises(NotImplementedError, match="nonzero scalar"):
        S + 1  # ... is lazyten's
    with pytest.raises(ZeroDivisionError):
        S / 0


def _assert_same_sparse(got: lt.sparse.SparseMatrix, ref: Any) -> None:
    """Format, shape, dtype, stored entries and values of scipy's ``ref``."""
    assert got.format == ref.format and got.shape == ref.shape
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    assert got.nnz == ref.nnz
    ev = got.eval()
    assert ev.format == ref.format and ev.dtype == ref.dtype
    np.testing.assert_allclose(ev.toarray(), ref.toarray(), rtol=1e-6)
    assert_eq(got.to_dense(), ref.toarray(), rtol=1e-6)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128])
def test_reflected_scalar_ops(engine: Any, rng: np.random.Generator, fmt: str,
                              dtype: Any) -> None:
    """scipy: ``0 - S`` is ``-S`` and ``S - 0`` a copy, whatever the zero's type;
    a nonzero scalar is NotImplementedError, ``c / S`` a TypeError and
    ``c @ S`` a ValueError."""
    m = _random_sparse(rng, (4, 5), dtype, fmt)
    S = lt.sparse.asarray(m)
    for zero in (0, 0.0, 0j, False, np.float32(0), np.int8(0)):
        _assert_same_sparse(zero - S, zero - m)
        _assert_same_sparse(S - zero, m - zero)
        _assert_same_sparse(zero + S, zero + m)
    _assert_same_sparse(lt.asarray(0.0) - S, np.array(0.0) - m)      # a 0-d tensor
    _assert_same_sparse(2 * S - 0, 2 * m - 0)
    for c in (1, 2.5, np.float64(-1), True, np.True_, np.nan):
        for op in (operator.sub, operator.add):
            for left, right in ((c, m), (m, c)):
                with pytest.raises(NotImplementedError) as want:
                    op(left, right)
                with pytest.raises(NotImplementedError, match="nonzero scalar") as got:
                    op(*(S if x is m else x for x in (left, right)))
                assert str(want.value) in str(got.value)
    for c in (2, 0, 2.5):
        with pytest.raises(TypeError):
            c / m
        with pytest.raises(TypeError):
            c / S
    for op in (lambda a: 2 @ a, lambda a: a @ 2, lambda a: np.float64(2) @ a):
        with pytest.raises(ValueError, match="Scalar operands") as want:
            op(m)
        with pytest.raises(ValueError, match=str(want.value).replace("*", r"\*")):
            op(S)
    # a dense operand: a dense result, as scipy's (it was refused before)
    assert_eq(np.ones((4, 5)) - S, np.ones((4, 5)) - m)


def test_negating_a_boolean_matrix(engine: Any) -> None:
    m = sp.csr_array(np.array([[True, False], [False, True]]))
    S = lt.sparse.asarray(m)
    for op in (lambda a: -a, lambda a: 0 - a):
        with pytest.raises(NotImplementedError, match="negating a boolean") as want:
            op(m)
        with pytest.raises(NotImplementedError, match=str(want.value)):
            op(S)
    _assert_same_sparse(S - 0, m - 0)
    _assert_same_sparse(abs(S), abs(m))


def test_construction_from_coordinates(engine: Any) -> None:
    # scipy's documented example: duplicate (i, j) entries are summed
    row = np.array([0, 0, 1, 3, 1, 0, 0])
    col = np.array([0, 2, 1, 3, 1, 0, 0])
    data = np.array([1, 1, 1, 1, 1, 1, 1])
    ref = sp.coo_array((data, (row, col)), shape=(4, 4)).tocsr()
    S = lt.sparse.from_coo(data, row, col, shape=(4, 4))
    assert S.format == "csr" and S.nnz == ref.nnz == 4
    assert_eq(S.to_dense(), ref.toarray())
    S2 = lt.sparse.csr((data, (row, col)), shape=(4, 4))
    assert_eq(S2.to_dense(), ref.toarray())
    S3 = lt.sparse.csc((lt.asarray(data), (row, col)), shape=(4, 4))  # lazy data is forced
    assert S3.format == "csc"
    assert_eq(S3.to_dense(), ref.toarray())
    # scipy's csr_array((data, indices, indptr)) example
    indptr = np.array([0, 2, 3, 6])
    indices = np.array([0, 2, 2, 0, 1, 2])
    vals = np.array([1, 2, 3, 4, 5, 6])
    ref2 = sp.csr_array((vals, indices, indptr), shape=(3, 3))
    assert_eq(lt.sparse.csr((vals, indices, indptr), shape=(3, 3)).to_dense(), ref2.toarray())
    # from a dense array
    d = np.array([[0, 1.5], [0, 0]])
    assert_eq(lt.sparse.csr(d).to_dense(), d)
    assert lt.sparse.csr(d).nnz == 1


def test_asarray_formats_and_user_matrix_untouched() -> None:
    m = sp.coo_array((np.array([1.0, 2.0]), (np.array([0, 0]), np.array([1, 1]))),
                     shape=(2, 2))
    S = lt.sparse.asarray(m)                    # non-canonical COO -> canonical CSR
    assert S.format == "csr" and S.nnz == 1
    np.testing.assert_array_equal(S.eval().toarray(), [[0, 3.0], [0, 0]])
    assert m.nnz == 2                           # the user's matrix is not summed in place
    with pytest.warns(UserWarning, match="sparse-array rules"):
        assert lt.sparse.asarray(sp.csr_matrix(np.eye(2)), format="csc").format == "csc"
    assert lt.sparse.asarray(sp.lil_array(np.eye(2))).format == "csr"
    assert lt.sparse.issparse(S) and not lt.sparse.issparse(lt.ones(2))
    assert "CSR" in repr(S)


def test_errors() -> None:
    S = lt.sparse.asarray(sp.csr_array(np.eye(3)))
    with pytest.raises(ValueError, match=r"sparse_matmul.*dimension mismatch"):
        S @ lt.ones(4)
    with pytest.raises(ValueError, match="1-d or 2-d"):
        S @ lt.ones((3, 3, 3))
    with pytest.raises(TypeError, match="scipy.sparse matrix"):
        lt.sparse.asarray(np.eye(2))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        S * lt.ones((9, 9))       # (elementwise now, as scipy's sparse arrays)
    with pytest.raises(TypeError, match="sparse @ sparse"):
        S @ S


def test_inputs_that_are_no_matrix_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="2-d"):
        lt.sparse.csr(np.ones(3))
    with pytest.raises(TypeError, match="sparse matrix"):
        lt.sparse.to_dense(5)
    # a sparse matrix where a dense tensor is wanted: said so (it was
    # "unsupported dtype object", NumPy's 0-d object array of it)
    S = lt.sparse.asarray(sp.csr_array(np.eye(3)))
    for fn in (lt.asarray, lt.exp, lt.explain, lambda m: lt.asarray(m.eval())):
        with pytest.raises(TypeError, match="is not a dense tensor: use S.to_dense"):
            fn(S)


def test_equality_as_scipy(engine: Any) -> None:
    """Comparisons are elementwise, as scipy's: a sparse bool matrix against
    a sparse matrix or a scalar, a dense bool array against a dense operand
    (broadcast to the matrix's shape)."""
    import warnings
    m = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    n = sp.csr_array(np.array([[1.0, 0.0], [3.0, 0.0]]))
    A, B = lt.sparse.asarray(m), lt.sparse.asarray(n)
    d = np.array([[1.0, 5.0], [0.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # scipy's SparseEfficiencyWarning
        for got, ref in [(A == B, m == n), (A != B, m != n), (A == A, m == m),
                         (A == lt.sparse.asarray(m.copy()), m == m.copy()),
                         (A == 1, m == 1), (A != 0, m != 0), (A == 0, m == 0),
                         (A.T == B.T, m.T == n.T)]:
            _assert_same_sparse(got, ref)
        for got, ref in [(A == d, m == d), (A != d, m != d), (A == lt.asarray(d), m == d)]:
            assert_eq(got, ref)
        # ordering comparisons, and a dense operand broadcast as scipy's
        row = np.array([[1.0, 0.0]])
        for f in (lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b,
                  lambda a, b: a >= b, lambda a, b: a == b, lambda a, b: b > a):
            for other in (1, 0, 0.5, d, row, row[0], n):
                got, ref = f(A, B if other is n else other), f(m, other)
                if sp.issparse(ref):
                    _assert_same_sparse(got, ref)
                else:
                    assert_eq(got, ref)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        A == lt.sparse.asarray(sp.csr_array(np.eye(3)))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        A < np.ones((3, 2))


def test_float16_is_refused_when_built() -> None:
    """scipy.sparse has no float16: TypeError on the line that makes one."""
    S = lt.sparse.asarray(sp.csr_array(np.eye(2, dtype=np.int8)))
    with pytest.raises(ValueError, match="float16"):
        sp.csr_array(np.eye(2, dtype=np.float16))
    for make in (lambda: S * np.float16(2), lambda: S.astype(np.float16),
                 lambda: np.float16(2) * S, lambda: S * lt.asarray(np.float16(2))):
        with pytest.raises(TypeError, match="does not support dtype float16"):
            make()


def test_zero_d_arrays_duplicates_len_and_powers(engine: Any) -> None:
    m = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]], np.float32))
    S = lt.sparse.asarray(m)
    for got, ref in [(S * np.array(2.0), m * np.array(2.0)), (np.array(3) * S, np.array(3) * m),
                     (S + np.array(0), m + np.array(0)), (S / np.array(2.0), m / np.array(2.0)),
                     (S ** 2, m ** 2), (S ** 0.5, m ** 0.5), (S ** np.float32(3), m ** np.float32(3))]:
        _assert_same_sparse(got, ref)
    with pytest.raises(NotImplementedError, match="zero power"):
        S ** 0
    with pytest.raises(TypeError, match="length is ambiguous"):
        len(m)
    with pytest.raises(TypeError, match="length is ambiguous"):
        len(S)
    # scipy keeps duplicate entries of a csr given by (data, indices, indptr)
    arg = ([1.0, 2.0], [0, 0], [0, 2])
    ref = sp.csr_array(arg, shape=(1, 3))
    D = lt.sparse.csr(arg, shape=(1, 3))
    assert D.nnz == ref.nnz == 2
    assert_eq(D.to_dense(), ref.toarray())
    assert_eq(D @ np.ones(3), ref @ np.ones(3))


# ---------------------------------------------------------------- reductions, S +- S, multiply

RED_DTYPES = [np.float64, np.float32, np.int8, np.uint16, np.bool_, np.complex128]


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", RED_DTYPES)
def test_reductions_as_scipy(engine: Any, rng: np.random.Generator, fmt: str,
                             dtype: Any) -> None:
    """sum/mean (scipy's dtypes: small ints summed as int64, means of ints in
    float64) and max/min (implicit zeros count) as dense tensors; a sum or
    mean is scipy's to the bit (it adds the stored values in its order: a
    dense sum of the zeros too was a few ulps off in most matrices)."""
    for shape in [(4, 5), (1, 3), (3, 1), (7, 30), (40, 9)]:
        m = _random_sparse(rng, shape, dtype, fmt)
        S = lt.sparse.asarray(m)
        for axis in [None, 0, 1, -1, (0, 1), (1,)]:
            for name in ("sum", "mean"):
                got, want = getattr(S, name)(axis=axis), np.asarray(getattr(m, name)(axis=axis))
                assert_eq(got, want)
                assert np.array_equal(got.eval(), want), (name, shape, axis)
            if dtype != np.complex128:
                for name in ("max", "min"):
                    ref = getattr(m, name)(axis=axis)
                    ref = ref.toarray() if sp.issparse(ref) else np.asarray(ref)
                    assert_eq(getattr(S, name)(axis=axis), ref)
    S = lt.sparse.asarray(sp.csr_array(np.zeros((2, 3))))     # nothing stored
    assert_eq(S.sum(axis=0), np.zeros(3))
    assert_eq(S.max(), np.asarray(sp.csr_array(np.zeros((2, 3))).max()))
    with pytest.raises(ValueError):
        S.sum(axis=2)
    with pytest.raises(ValueError, match="0D axis"):
        S.sum(axis=())
    assert_eq((S * 2.0).sum(dtype=np.float32), np.float32(0))      # lazy data, scipy's dtype
    # scipy's mean over no elements: its ZeroDivisionError, when built
    E = lt.sparse.asarray(sp.csr_array((0, 3), dtype=np.float32))
    for axis in (None, 0):
        with pytest.raises(ZeroDivisionError):
            E.mean(axis=axis)
    assert_eq(E.mean(axis=1), np.asarray(sp.csr_array((0, 3), dtype=np.float32).mean(axis=1)))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex128])
def test_sparse_plus_minus_sparse(engine: Any, rng: np.random.Generator, fmt: str,
                                  dtype: Any) -> None:
    a, b = _random_sparse(rng, (4, 5), dtype, fmt), _random_sparse(rng, (4, 5), dtype, "csr")
    A, B = lt.sparse.asarray(a), lt.sparse.asarray(b)
    for got, ref in [(A + B, a + b), (A - B, a - b), (A - A, a - a), (A + b, a + b),
                     (A.multiply(B), a.multiply(b)), (A.multiply(b), a.multiply(b))]:
        _assert_same_sparse(got, ref)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        A + lt.sparse.asarray(sp.csr_array(np.ones((5, 4))))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a + sp.csr_array(np.ones((5, 4)))                    # (scipy's own)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_sparse_with_dense(engine: Any, rng: np.random.Generator, fmt: str, dtype: Any) -> None:
    """scipy's sparse arrays: ``S * D`` and ``S.multiply(D)`` elementwise (the
    stored entries of S, D broadcast), ``S + D`` and ``S - D`` dense."""
    m = _random_sparse(rng, (4, 5), dtype, fmt)
    S = lt.sparse.asarray(m)
    D = rng.standard_normal((8, 10))[::2, ::2].astype(np.float32)   # strided
    D[0, :] = 0.0
    for other in [D, D[:1], D[0], D[:, :1], np.arange(5)]:
        ref = m.multiply(other)
        for got in (S.multiply(lt.asarray(other)), S * other, S * lt.asarray(other)):
            assert got.dtype == ref.dtype and got.nnz == ref.nnz
            assert_eq(got.to_dense(), ref.toarray(), rtol=1e-6)
    ref_rm = D * m
    assert_eq((lt.asarray(D) * S).to_dense(), ref_rm.toarray(), rtol=1e-6)
    for got, ref in [(S + D, m + D), (S - D, m - D), (D - S, D - m), (D + S, D + m),
                     (lt.asarray(D) - S, D - m), (S + lt.asarray(D), m + D)]:
        assert isinstance(got, lt.Tensor)
        assert_eq(got, np.asarray(ref), rtol=1e-6)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        S.multiply(np.ones((3, 5)))
    for other in [D[:1], D[0], D[:, :1]]:                     # broadcast, as scipy
        assert_eq(S + other, m + other, rtol=1e-6)
        assert_eq(other - S, other - m, rtol=1e-6)
    # A dense dtype scipy does not hold: it adds float16 to a small-int S in
    # float32 (both cast), and subtracts by NumPy's rules (float16)
    H = np.array([[0.1, 2.5, -3.0, 1e3, 0.3]] * 4, np.float16)
    for small in (np.int8, np.uint8, np.bool_):
        m8 = (m * 100).astype(small)
        S8 = lt.sparse.asarray(m8)
        for f in (lambda a, b: a + b, lambda a, b: b + a, lambda a, b: a - b,
                  lambda a, b: b - a):
            got, ref = f(S8, H), np.asarray(f(m8, H))
            assert got.dtype == ref.dtype and np.array_equal(got.eval(), ref)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        S + np.ones((2, 5))
    with pytest.raises(ValueError):
        m + np.ones((2, 5))                                   # (scipy's own)


def test_a_scipy_sparse_matrix_comes_in_with_a_warning_of_the_array_rules() -> None:
    """scipy's matrix classes multiply with ``*`` and keep 2-d sums; lazyten's
    sparse matrices follow scipy's sparse arrays: ``A * B`` of two
    csr_matrix inputs gave the elementwise product where scipy's is the
    matrix product, with no word.  Taking one in warns, saying which rules
    hold and how to say so (``csr_array``); ``@`` is the product either way."""
    A, B = sp.csr_matrix([[2.0, 0], [0, 3]]), sp.csr_matrix([[1.0, 1], [1, 1]])
    with pytest.warns(UserWarning, match=r"`\*` is elementwise \(the matrix product is `@`\)"):
        LA = lt.sparse.asarray(A)
    with pytest.warns(UserWarning):
        LB = lt.sparse.asarray(B)
    v = np.array([1.0, 2.0])
    np.testing.assert_array_equal((LA @ v).eval(), A @ v)                  # the product
    np.testing.assert_array_equal((LA * LB).eval().toarray(), A.multiply(B).toarray())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lt.sparse.asarray(sp.csr_array(A))          # an array: its own rules, no warning
