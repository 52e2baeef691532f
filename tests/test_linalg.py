"""``lt.linalg`` against ``numpy.linalg``: values, shapes, dtypes, build-time errors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.graph.node import toposort

from util import assert_eq, check, same_bits

DTYPES = [np.float64, np.float32, np.complex128, np.int64]


def _mat(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind in "iu":
        a = np.round(a * 4)
    return a.astype(dtype)


def _spd(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    a = _mat(rng, shape, dtype)
    n = shape[-1]
    h = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=a.dtype)
    return h.astype(dtype)


def _tol(dtype: Any) -> float:
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
def test_square_ops(engine: Any, rng: np.random.Generator, dtype: Any,
                    shape: tuple[int, ...]) -> None:
    a = _mat(rng, shape, dtype) + 5 * np.eye(shape[-1], dtype=dtype)
    t = lt.asarray(a)
    tol = _tol(dtype)
    assert_eq(lt.linalg.det(t), np.linalg.det(a), rtol=tol)
    assert_eq(lt.linalg.inv(t), np.linalg.inv(a), rtol=tol, atol=tol)
    assert_eq(lt.linalg.matrix_power(t, 3), np.linalg.matrix_power(a, 3), rtol=tol, atol=tol)
    assert_eq(lt.linalg.matrix_power(t, 0), np.linalg.matrix_power(a, 0))
    sign, logdet = lt.linalg.slogdet(t)
    ref = np.linalg.slogdet(a)
    assert_eq(sign, ref.sign, rtol=tol)
    assert_eq(logdet, ref.logabsdet, rtol=tol)
    assert_eq(lt.linalg.trace(t), np.linalg.trace(a))
    assert_eq(lt.linalg.diagonal(t, offset=1), np.linalg.diagonal(a, offset=1))
    assert_eq(lt.linalg.matrix_rank(t), np.linalg.matrix_rank(a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve(engine: Any, rng: np.random.Generator, dtype: Any) -> None:
    a = _mat(rng, (2, 3, 3), dtype) + 6 * np.eye(3, dtype=dtype)
    b_vec = _mat(rng, (3,), dtype)
    b_mat = _mat(rng, (2, 3, 2), dtype)
    tol = _tol(dtype)
    assert_eq(lt.linalg.solve(lt.asarray(a), lt.asarray(b_vec)), np.linalg.solve(a, b_vec),
              rtol=tol, atol=tol)
    assert_eq(lt.linalg.solve(lt.asarray(a), lt.asarray(b_mat)), np.linalg.solve(a, b_mat),
              rtol=tol, atol=tol)
    with pytest.raises(ValueError, match="linalg_solve"):
        lt.linalg.solve(lt.asarray(a), lt.ones(4))


@pytest.mark.parametrize("dtype", DTYPES)
def test_hermitian(engine: Any, rng: np.random.Generator, dtype: Any) -> None:
    h = _spd(rng, (2, 3, 3), dtype)
    t = lt.asarray(h)
    tol = _tol(dtype)
    assert_eq(lt.linalg.cholesky(t), np.linalg.cholesky(h), rtol=tol, atol=tol)
    assert_eq(lt.linalg.cholesky(t, upper=True), np.linalg.cholesky(h, upper=True),
              rtol=tol, atol=tol)
    w, v = lt.linalg.eigh(t)
    ref = np.linalg.eigh(h)
    assert_eq(w, ref.eigenvalues, rtol=tol)
    # eigenvectors are unique up to a phase: compare the reconstruction
    got_v = v.eval()
    assert got_v.dtype == ref.eigenvectors.dtype and got_v.shape == v.shape
    rec = got_v @ (w.eval()[..., None] * np.conj(np.swapaxes(got_v, -1, -2)))
    np.testing.assert_allclose(rec, h, rtol=tol * 10, atol=tol * 100)
    assert_eq(lt.linalg.eigvalsh(t, UPLO="U"), np.linalg.eigvalsh(h, UPLO="U"), rtol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_svd_qr_pinv(engine: Any, rng: np.random.Generator, dtype: Any,
                     shape: tuple[int, ...]) -> None:
    a = _mat(rng, shape, dtype)
    t = lt.asarray(a)
    tol = _tol(dtype)
    for full in (True, False):
        U, S, Vh = lt.linalg.svd(t, full_matrices=full)
        rU, rS, rVh = np.linalg.svd(a, full_matrices=full)
        # Singular vectors are unique up to sign/phase; LAPACK is deterministic
        # on the same input, so lazyten (which calls it) gives NumPy's exactly.
        assert_eq(U, rU, rtol=tol, atol=tol)
        assert_eq(S, rS, rtol=tol, atol=tol)
        assert_eq(Vh, rVh, rtol=tol, atol=tol)
    assert_eq(lt.linalg.svdvals(t), np.linalg.svdvals(a), rtol=tol, atol=tol)
    assert_eq(lt.linalg.svd(t, compute_uv=False), np.linalg.svd(a, compute_uv=False),
              rtol=tol, atol=tol)
    for mode in ("reduced", "complete"):
        Q, R = lt.linalg.qr(t, mode=mode)
        rQ, rR = np.linalg.qr(a, mode=mode)
        assert_eq(Q, rQ, rtol=tol, atol=tol)
        assert_eq(R, rR, rtol=tol, atol=tol)
    assert_eq(lt.linalg.qr(t, mode="r"), np.linalg.qr(a, mode="r"), rtol=tol, atol=tol)
    assert_eq(lt.linalg.pinv(t), np.linalg.pinv(a), rtol=tol * 10, atol=tol * 10)


def test_svd_is_one_lapack_call() -> None:
    """U, S and Vh are views of one packed node: one SVD however many are used."""
    U, S, Vh = lt.linalg.svd(lt.asarray(np.arange(6.0).reshape(2, 3)))
    nodes = toposort([U._node, S._node, Vh._node])
    assert [n.op.name for n in nodes].count("linalg_svd") == 1
    got = lt.compute(U, S, Vh)
    ref = np.linalg.svd(np.arange(6.0).reshape(2, 3))
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, atol=1e-12)


@pytest.mark.parametrize("ord_", [None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_matrix_norms(engine: Any, rng: np.random.Generator, ord_: Any, dtype: Any) -> None:
    a = _mat(rng, (2, 3, 4), dtype)
    t = lt.asarray(a)
    tol = _tol(dtype)
    assert_eq(lt.linalg.norm(t, ord_, axis=(1, 2)), np.linalg.norm(a, ord_, axis=(1, 2)),
              rtol=tol)
    assert_eq(lt.linalg.norm(t, ord_, axis=(2, 0), keepdims=True),
              np.linalg.norm(a, ord_, axis=(2, 0), keepdims=True), rtol=tol)
    assert_eq(lt.linalg.norm(t[0], ord_), np.linalg.norm(a[0], ord_), rtol=tol)
    if ord_ is not None:
        assert_eq(lt.linalg.matrix_norm(t, ord=ord_), np.linalg.matrix_norm(a, ord=ord_),
                  rtol=tol)


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # NumPy's own, for -1
@pytest.mark.parametrize("ord_", [2, 1, 3, 0.5, 0, np.inf, -np.inf, -1])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_vector_norms(engine: Any, rng: np.random.Generator, ord_: Any, dtype: Any) -> None:
    a = _mat(rng, (3, 4), dtype)
    t = lt.asarray(a)
    tol = _tol(dtype)
    for axis in (None, 0, 1, (0, 1)):
        assert_eq(lt.linalg.vector_norm(t, axis=axis, ord=ord_),
                  np.linalg.vector_norm(a, axis=axis, ord=ord_), rtol=tol)
    assert_eq(lt.linalg.vector_norm(t, axis=1, keepdims=True, ord=ord_),
              np.linalg.vector_norm(a, axis=1, keepdims=True, ord=ord_), rtol=tol)
    assert_eq(lt.linalg.norm(t, ord_, axis=1), np.linalg.norm(a, ord_, axis=1), rtol=tol)
    assert_eq(lt.linalg.norm(t[0], ord_), np.linalg.norm(a[0], ord_), rtol=tol)


def test_norm_default_flattens(engine: Any, rng: np.random.Generator) -> None:
    a = rng.standard_normal((2, 3, 4))
    assert_eq(lt.linalg.norm(lt.asarray(a)), np.linalg.norm(a))
    assert_eq(lt.linalg.norm(lt.asarray(a), keepdims=True), np.linalg.norm(a, keepdims=True))


def test_products(engine: Any, rng: np.random.Generator) -> None:
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 5))
    assert_eq(lt.linalg.matmul(lt.asarray(a), lt.asarray(b)), np.linalg.matmul(a, b))
    u, v = rng.standard_normal(3), rng.integers(0, 5, 4)
    assert_eq(lt.linalg.outer(lt.asarray(u), lt.asarray(v)), np.linalg.outer(u, v))
    assert_eq(lt.linalg.tensordot(lt.asarray(a), lt.asarray(b), axes=([2], [1])),
              np.linalg.tensordot(a, b, axes=([2], [1])))
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    assert_eq(lt.linalg.vecdot(lt.asarray(x), lt.asarray(y)), np.linalg.vecdot(x, y))
    assert_eq(lt.linalg.cross(lt.asarray(x), lt.asarray(y)), np.linalg.cross(x, y))
    xi, yi = rng.integers(-3, 3, (2, 3)), rng.integers(-3, 3, (3,))
    assert_eq(lt.linalg.cross(lt.asarray(xi), lt.asarray(yi)), np.linalg.cross(xi, yi))
    xf = x.astype(np.float32)
    assert_eq(lt.linalg.cross(lt.asarray(xf), lt.asarray(xf[::-1])),
              np.linalg.cross(xf, xf[::-1]))
    assert_eq(lt.linalg.matrix_transpose(lt.asarray(a)), np.linalg.matrix_transpose(a))
    assert_eq(lt.linalg.trace(lt.asarray(a[:, :, :3]), offset=-1),
              np.linalg.trace(a[:, :, :3], offset=-1))


def test_linalg_in_a_graph(engine: Any, rng: np.random.Generator) -> None:
    """Linalg nodes compose with the rest of the graph (and the optimizer)."""
    a = rng.standard_normal((4, 4)) + 4 * np.eye(4)
    b = rng.standard_normal(4)
    ta, tb = lt.asarray(a), lt.asarray(b)
    x = lt.linalg.solve(ta * 2 + 1, tb - 1)
    assert_eq((ta * 2 + 1) @ x - (tb - 1), (a * 2 + 1) @ np.linalg.solve(a * 2 + 1, b - 1)
              - (b - 1), atol=1e-12)
    assert_eq(lt.linalg.inv(ta).T @ tb, np.linalg.inv(a).T @ b, rtol=1e-10)


def test_build_time_errors() -> None:
    rect = lt.ones((2, 3))
    for fn in (lt.linalg.det, lt.linalg.inv, lt.linalg.cholesky, lt.linalg.eigh,
               lt.linalg.eigvalsh, lt.linalg.slogdet):
        with pytest.raises(np.linalg.LinAlgError, match="square"):
            fn(rect)
    with pytest.raises(np.linalg.LinAlgError, match="two dimensions"):
        lt.linalg.svd(lt.ones(3))
    with pytest.raises(ValueError, match=r"linalg_cross.*3 elements"):
        lt.linalg.cross(lt.ones(2), lt.ones(2))
    with pytest.raises(ValueError, match="outer"):
        lt.linalg.outer(lt.ones((2, 2)), lt.ones(2))
    with pytest.raises(ValueError, match="Invalid norm order"):
        lt.linalg.norm(lt.ones(3), "fro")
    with pytest.raises(ValueError, match="Invalid norm order"):
        lt.linalg.norm(lt.ones((3, 3)), 3)
    with pytest.raises(ValueError, match="Improper number of dimensions"):
        lt.linalg.norm(lt.ones((2, 2, 2)), 2)
    with pytest.raises(ValueError, match="qr: unrecognized mode"):
        lt.linalg.qr(rect, mode="economic")
    with pytest.raises(ValueError, match="UPLO"):
        lt.linalg.eigh(lt.ones((2, 2)), UPLO="X")
    # singular matrices are a run-time (value) error, as in NumPy
    with pytest.raises(np.linalg.LinAlgError):
        lt.linalg.inv(lt.zeros((2, 2))).eval()


@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 0, 0), (3, 0), (0, 2)])
def test_empty_matrices(engine: Any, shape: tuple[int, ...]) -> None:
    a = np.zeros(shape)
    t = lt.asarray(a)
    for got, ref in zip(lt.linalg.svd(t), np.linalg.svd(a)):
        assert_eq(got, ref)
    for got, ref in zip(lt.linalg.qr(t), np.linalg.qr(a)):
        assert_eq(got, ref)
    assert_eq(lt.linalg.svdvals(t), np.linalg.svdvals(a))
    if shape[-1] == shape[-2]:
        for got, ref in zip(lt.linalg.slogdet(t), np.linalg.slogdet(a)):
            assert_eq(got, ref)
        for got, ref in zip(lt.linalg.eigh(t), np.linalg.eigh(a)):
            assert_eq(got, ref)
        assert_eq(lt.linalg.det(t), np.linalg.det(a))


@pytest.mark.parametrize("m", [np.array([[2.0, 1.0], [1.0, 3.0]]),      # real eigenvalues
                               np.array([[0.0, -1.0], [1.0, 0.0]])])     # complex ones
def test_eig_and_eigvals_match_numpy_including_dtype(engine: Any, m: np.ndarray) -> None:
    w, v = lt.linalg.eig(lt.asarray(m))
    nw, nv = np.linalg.eig(m)
    assert_eq(w, nw)
    assert_eq(v, nv)
    assert_eq(lt.linalg.eigvals(lt.asarray(m) * 1), np.linalg.eigvals(m))


def test_lstsq_matches_numpy(engine: Any) -> None:
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((6, 3)), rng.standard_normal(6)
    r = lt.linalg.lstsq(lt.asarray(a), lt.asarray(b) + 0)
    n = np.linalg.lstsq(a, b)
    assert_eq(r.x, n[0], rtol=1e-10)
    assert_eq(r.residuals, n[1], rtol=1e-10)
    assert int(r.rank) == n[2]
    assert_eq(r.singular_values, n[3], rtol=1e-12)
    with pytest.raises(ValueError):
        lt.linalg.eig(lt.asarray([1.0, 2.0]))


def test_multi_dot_cond_tensorinv_tensorsolve(engine: Any) -> None:
    rng = np.random.default_rng(7)
    A, B, C = rng.random((10, 30)), rng.random((30, 5)), rng.random(5)
    assert_eq(lt.linalg.multi_dot([lt.asarray(A), lt.asarray(B), lt.asarray(C)]),
              np.linalg.multi_dot([A, B, C]), rtol=1e-12)
    M = rng.random((4, 4)) + 4 * np.eye(4)
    for p in (None, 2, -2, 1, -1, np.inf, "fro"):
        assert_eq(lt.linalg.cond(lt.asarray(M), p), np.linalg.cond(M, p), rtol=1e-10)
    T = rng.random((4, 6, 8, 3)) + 0
    T = np.eye(24).reshape(4, 6, 8, 3) + 0.1 * T
    assert_eq(lt.linalg.tensorinv(lt.asarray(T), ind=2), np.linalg.tensorinv(T, ind=2),
              rtol=1e-9)
    a = np.eye(2 * 3 * 4).reshape(2 * 3, 4, 2, 3, 4) + 0.01 * rng.random((6, 4, 2, 3, 4))
    b = rng.random((6, 4))
    assert_eq(lt.linalg.tensorsolve(lt.asarray(a), lt.asarray(b)), np.linalg.tensorsolve(a, b),
              rtol=1e-9)
    with pytest.raises(ValueError):
        lt.linalg.multi_dot([lt.asarray(A)])


@pytest.mark.parametrize("v", [[1.0, 0.0], [0.0, 0.0], [3, -1], [], 3.0, 0.0, True])
def test_matrix_rank_of_vectors_and_scalars(engine: Any, v: Any) -> None:
    """NumPy's rank of a vector or a scalar is a Python int (0 or 1): an intp 0-d array."""
    x = np.asarray(v)
    assert_eq(lt.linalg.matrix_rank(lt.asarray(x)), np.asarray(np.linalg.matrix_rank(x)))
    assert_eq(lt.linalg.matrix_rank(lt.asarray(x) * 2), np.asarray(np.linalg.matrix_rank(x * 2)))


COND_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


def _cond_stack(dtype: Any) -> np.ndarray[Any, Any]:
    """Matrices that are regular, singular, zero, and NaN-holding."""
    rng = np.random.default_rng(6)
    a = _mat(rng, (5, 3, 3), dtype)
    a[1] = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 0]]).astype(dtype)   # singular
    a[2] = 0                                                             # 0 / 0
    a[3] = np.array([[1, 2, 0], [2, 4, 0], [0, 0, 0]]).astype(dtype)   # rank 1
    if np.dtype(dtype).kind in "fc":
        a[4, 0, 1] = np.nan                # NaN stays NaN: no inf where x has a NaN
    return a


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64,
                                   np.int64, np.bool_])
@pytest.mark.parametrize("p", COND_ORDS)
def test_cond_is_numpys_bits_and_inf_where_singular(engine: Any, dtype: Any, p: Any) -> None:
    """NumPy inverts in float64/complex128 with errors ignored, turns NaN into
    inf unless the matrix holds a NaN, then casts to the input's precision."""
    a = _cond_stack(dtype)
    for x in (a, a[0], a[1], a[2], a[3], a[1:4]):
        try:
            with np.errstate(all="ignore"):
                want = np.asarray(np.linalg.cond(x, p))
        except np.linalg.LinAlgError:  # 'nuc' of the NaNs an inverse gave: SVD fails
            with pytest.raises(np.linalg.LinAlgError):
                lt.linalg.cond(lt.asarray(x), p).eval()
            continue
        got = lt.linalg.cond(lt.asarray(x), p)
        assert got.shape == want.shape and got.dtype == want.dtype
        same_bits(got.eval(), want)


def test_cond_of_a_singular_matrix_is_inf(engine: Any) -> None:
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    for p in ("fro", 1, -1, np.inf, -np.inf):
        assert float(lt.linalg.cond(lt.asarray(s), p)) == np.linalg.cond(s, p) == np.inf


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_cond_of_single_precision_is_computed_in_double(engine: Any, dtype: Any) -> None:
    c = _mat(np.random.default_rng(6), (3, 3), dtype)
    for p in ("fro", 1, -1, np.inf, -np.inf, "nuc"):
        got = lt.linalg.cond(lt.asarray(c), p)
        assert got.dtype == np.float32
        same_bits(got.eval(), np.asarray(np.linalg.cond(c, p)))


@pytest.mark.parametrize("p", COND_ORDS)
def test_cond_build_time_errors(engine: Any, p: Any) -> None:
    for shape in [(0, 0), (2, 0, 0), (3, 0), (0, 2), (1, 0, 4), (0,)]:
        with pytest.raises(np.linalg.LinAlgError, match="empty"):
            np.linalg.cond(np.zeros(shape), p)
        with pytest.raises(np.linalg.LinAlgError, match="empty"):
            lt.linalg.cond(lt.zeros(shape), p)            # built, not evaluated
    assert_eq(lt.linalg.cond(lt.zeros((0, 3, 3)), p), np.linalg.cond(np.zeros((0, 3, 3)), p))
    for shape in [(3,), ()]:
        with pytest.raises(np.linalg.LinAlgError):
            lt.linalg.cond(lt.ones(shape), p)
    rect = np.arange(6.0).reshape(2, 3) + np.eye(2, 3)
    if p is None or p in (2, -2):
        assert_eq(lt.linalg.cond(lt.asarray(rect), p), np.linalg.cond(rect, p))
    else:
        with pytest.raises(np.linalg.LinAlgError, match="square"):
            lt.linalg.cond(lt.asarray(rect), p)
    with pytest.raises(TypeError):
        lt.linalg.cond(lt.ones((2, 2), dtype=np.float16), p)   # NumPy: unsupported in linalg


def test_cond_invalid_order() -> None:
    check(lambda: np.linalg.cond(np.eye(2), 3), lambda: lt.linalg.cond(lt.eye(2), 3))
    check(lambda: np.linalg.cond(np.eye(2), "max"), lambda: lt.linalg.cond(lt.eye(2), "max"))


EMPTY_SHAPES = [(0, 0), (2, 0, 0), (3, 0), (0, 2), (0, 1, 0), (0, 3, 3)]


@pytest.mark.parametrize("dtype", [np.int64, np.bool_, np.float16, np.float32, np.complex64])
@pytest.mark.parametrize("shape", EMPTY_SHAPES)
def test_empty_matrices_keep_numpys_dtype(engine: Any, dtype: Any,
                                          shape: tuple[int, ...]) -> None:
    """NumPy's pinv returns an empty matrix of the input's dtype (an integer one
    too) before any SVD; the dtype probe must take the same path."""
    a = np.zeros(shape, dtype)
    t = lt.asarray(a)
    check(lambda: np.linalg.pinv(a), lambda: lt.linalg.pinv(t))
    check(lambda: np.linalg.pinv(a, rtol=0.1), lambda: lt.linalg.pinv(t, rtol=0.1))
    check(lambda: np.linalg.pinv(a, hermitian=True), lambda: lt.linalg.pinv(t, hermitian=True))
    # the other functions of numpy.linalg, on the same matrices
    check(lambda: np.linalg.matrix_rank(a), lambda: lt.linalg.matrix_rank(t))
    check(lambda: np.linalg.svdvals(a), lambda: lt.linalg.svdvals(t))
    check(lambda: np.linalg.matrix_norm(a, ord=2), lambda: lt.linalg.matrix_norm(t, ord=2))
    check(lambda: np.linalg.norm(a, axis=(-2, -1)), lambda: lt.linalg.norm(t, axis=(-2, -1)))
    if shape[-1] == shape[-2]:
        for fn in ("det", "inv", "eigvalsh", "cholesky"):
            check(lambda: getattr(np.linalg, fn)(a), lambda: getattr(lt.linalg, fn)(t))
        check(lambda: np.linalg.matrix_power(a, -1), lambda: lt.linalg.matrix_power(t, -1))


def test_pinv_cutoffs_are_numpys(engine: Any) -> None:
    """``rcond`` (positional, NumPy's default 1e-15), ``rtol`` (the array
    API's: ``None`` given is ``max(M, N) * eps``), never both."""
    a = np.array([[1.0, 0.0, 0.0], [0.0, 1e-15, 0.0]])
    t = lt.asarray(a)
    for kw in ({}, {"rtol": None}, {"rtol": 1e-16}, {"rcond": 1e-16}, {"rcond": 0.5},
               {"hermitian": False, "rtol": None}):
        check(lambda: np.linalg.pinv(a, **kw), lambda: lt.linalg.pinv(t, **kw), rtol=0.0)
    check(lambda: np.linalg.pinv(a, 1e-16), lambda: lt.linalg.pinv(t, 1e-16), rtol=0.0)
    check(lambda: np.linalg.pinv(a, 0.1, rtol=0.1), lambda: lt.linalg.pinv(t, 0.1, rtol=0.1))


def test_pinv_hermitian_needs_square_matrices() -> None:
    """NumPy's eigh rejects a non-square matrix, when it is not empty."""
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        np.linalg.pinv(np.ones((2, 3)), hermitian=True)
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        lt.linalg.pinv(lt.ones((2, 3)), hermitian=True)        # when built
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        lt.linalg.pinv(lt.ones((0, 2, 3)), hermitian=True)


@pytest.mark.parametrize("shape, ind", [((0, 3, 3), 1), ((2, 3), 1), ((0, 2), 1), ((4, 6), 2),
                                        ((3, 0), 1), ((0, 0), 1), ((2, 2), 1)])
def test_tensorinv_error_types(engine: Any, shape: tuple[int, ...], ind: int) -> None:
    """A 'non-square' tensor is NumPy's inv's LinAlgError (not a plain ValueError);
    trailing axes with no elements are its reshape's ValueError."""
    a = np.arange(math.prod(shape), dtype=float).reshape(shape) + 1
    try:
        want = np.linalg.tensorinv(a, ind)
    except ValueError as e:
        with pytest.raises(type(e)) as got:
            lt.linalg.tensorinv(lt.asarray(a), ind)
        assert type(got.value) is type(e)
        return
    assert_eq(lt.linalg.tensorinv(lt.asarray(a), ind), want)


def test_array_tolerances_are_per_matrix(engine: Any) -> None:
    """The array API's ``rtol: float | array`` (NumPy's ``rcond``/``tol``
    too): broadcast against the batch, one cut-off per matrix, an input of
    the node (a tensor stays lazy)."""
    x = np.random.default_rng(0).standard_normal((2, 3, 4))
    x[1, 2] = x[1, 0] + 1e-9 * x[1, 1]        # nearly rank 2
    t = lt.asarray(x)
    for kw in ({"rtol": np.array([0.1, 0.9])}, {"rtol": np.array(0.5)}, {"tol": np.array([0.5, 3.0])},
               {"rtol": np.array([[0.1], [0.2]])}, {"rtol": np.ones(3)}):
        check(lambda: np.linalg.matrix_rank(x, **kw), lambda: lt.linalg.matrix_rank(t, **kw))
    for kw in ({"rtol": np.array([0.1, 0.9])}, {"rcond": np.array([0.1, 1e-12])},
               {"rtol": np.ones(3)}):
        check(lambda: np.linalg.pinv(x, **kw), lambda: lt.linalg.pinv(t, **kw))
    lazy = lt.asarray(np.array([0.1, 0.9])) * 1
    assert_eq(lt.linalg.matrix_rank(t, rtol=lazy), np.linalg.matrix_rank(x, rtol=[0.1, 0.9]))
    assert_eq(lt.linalg.pinv(t, rtol=lazy), np.linalg.pinv(x, rtol=np.array([0.1, 0.9])))


# ---------------------------------------------------------------- NumPy's code paths, bit for bit

def _bits(t: Any, expected: Any) -> None:
    """``t`` is NumPy's result exactly: value bits, shape, dtype, and the
    shape and dtype inferred when it was built."""
    assert isinstance(t, lt.Tensor)
    got = t.eval()
    assert (got.shape, got.dtype) == (t.shape, t.dtype)
    same_bits(got, np.asarray(expected))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_norm_without_axis_takes_numpys_fast_path(engine: Any, dtype: Any) -> None:
    """axis=None with ord None (any ndim), 'f'/'fro' (2-d) or 2 (1-d) is NumPy's
    sqrt(dot(x.ravel(), x.ravel())), whose last bits differ from a reduction's."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        m, v = _mat(rng, (3, 3), dtype), _mat(rng, (20,), dtype)
        for x, ords in ((m, (None, "fro", "f")), (v, (None, 2, 2.0))):
            for o in ords:
                for keep in (False, True):
                    _bits(lt.linalg.norm(lt.asarray(x), o, keepdims=keep),
                          np.linalg.norm(x, o, keepdims=keep))
        _bits(lt.linalg.norm(lt.asarray(m).T), np.linalg.norm(m.T))
        _bits(lt.linalg.norm(lt.asarray(m)[:, ::2], "fro"), np.linalg.norm(m[:, ::2], "fro"))
        _bits(lt.linalg.norm(lt.asarray(m) + 0, 1), np.linalg.norm(m, 1))


def test_vector_norm_keeps_the_order_of_a_tuple_axis(engine: Any) -> None:
    """NumPy's vector_norm moves the axes, in the order given, to the front and
    reshapes them into one: that order is the summation's."""
    x = np.random.default_rng(0).standard_normal((3, 40, 3))
    for axis in ((2, 0), (-1, 0), (0, 2), (2, 1, 0), (1,), 1, -2, ()):
        for keep in (False, True):
            for o in (2, 1, 3):
                _bits(lt.linalg.vector_norm(lt.asarray(x), axis=axis, keepdims=keep, ord=o),
                      np.linalg.vector_norm(x, axis=axis, keepdims=keep, ord=o))


def test_multi_dot_is_numpys_parenthesization(engine: Any) -> None:
    """NumPy multiplies in the cheapest order (_multi_dot_three, the chain
    DP for more), each product a dot; with mixed dtypes the order decides the
    dtype of each product (an int8 product wraps)."""
    r = np.random.default_rng(0)
    A = r.integers(-100, 100, (10, 100)).astype(np.int8)
    B = r.integers(-100, 100, (100, 100)).astype(np.int8)
    C = r.standard_normal((100, 1))
    _bits(lt.linalg.multi_dot([A, B, C]), np.linalg.multi_dot([A, B, C]))
    _bits(lt.linalg.multi_dot([A, B, C[:, 0]]), np.linalg.multi_dot([A, B, C[:, 0]]))
    H = [r.standard_normal(s).astype(np.float16) * 30 for s in ((30, 40), (40, 50), (50, 2))]
    _bits(lt.linalg.multi_dot(H), np.linalg.multi_dot(H))
    _bits(lt.linalg.multi_dot(H[:2] + [C[:50]]), np.linalg.multi_dot(H[:2] + [C[:50]]))
    # longer chains, equal dtypes: the DP's order, kept by the optimizer
    dims = [(7, 30), (30, 3), (3, 50), (50, 9), (9, 40), (40, 2)]
    M = [r.standard_normal(s) for s in dims]
    for k in range(3, len(M) + 1):
        _bits(lt.linalg.multi_dot(M[:k]), np.linalg.multi_dot(M[:k]))
        _bits(lt.linalg.multi_dot([M[0][0]] + M[1:k]), np.linalg.multi_dot([M[0][0]] + M[1:k]))
        last = M[k - 1][:, 0]
        _bits(lt.linalg.multi_dot(M[:k - 1] + [last]), np.linalg.multi_dot(M[:k - 1] + [last]))
        _bits(lt.linalg.multi_dot([M[0][0]] + M[1:k - 1] + [last]),
              np.linalg.multi_dot([M[0][0]] + M[1:k - 1] + [last]))
    I8 = [r.integers(-50, 50, s).astype(np.int8) for s in dims[:4]] + [r.standard_normal((9, 4))]
    _bits(lt.linalg.multi_dot(I8), np.linalg.multi_dot(I8))
    _bits(lt.linalg.multi_dot([lt.asarray(m) * 1 for m in M]), np.linalg.multi_dot(M))


def test_multi_dot_of_two_arrays_is_dot(engine: Any) -> None:
    r = np.random.default_rng(3)
    S3, Z = r.standard_normal((3, 3)), r.standard_normal((2, 3, 3))
    _bits(lt.linalg.multi_dot([S3, Z]), np.linalg.multi_dot([S3, Z]))
    _bits(lt.linalg.multi_dot([np.float64(2.0), S3]), np.linalg.multi_dot([np.float64(2.0), S3]))
    v = r.standard_normal(3)
    _bits(lt.linalg.multi_dot([v, v]), np.linalg.multi_dot([v, v]))
    _bits(lt.linalg.multi_dot([Z, v]), np.linalg.multi_dot([Z, v]))


def test_multi_dot_errors_are_numpys() -> None:
    with pytest.raises(ValueError):
        lt.linalg.multi_dot([np.ones(3)])
    with pytest.raises(np.linalg.LinAlgError):       # NumPy's _assert_2d
        lt.linalg.multi_dot([np.ones((2, 2)), np.ones((2, 2, 2)), np.ones((2, 2))])
    with pytest.raises(np.linalg.LinAlgError):
        lt.linalg.multi_dot([np.float64(2.0), np.ones((2, 2)), np.ones((2, 2))])
    with pytest.raises(ValueError):
        lt.linalg.multi_dot([np.ones((2, 3)), np.ones((2, 2)), np.ones((2, 2))])


@pytest.mark.parametrize("a_shape, b_shape, axis", [
    ((3, 1, 3), (3, 3), 0), ((3, 4, 2), (3, 2), 0), ((1, 3), (2, 4, 3), -1),
    ((3, 1), (2, 3, 1), -2), ((2, 3, 4), (3, 4), -2), ((2, 3, 4), (3, 4), 1),
    ((3,), (4, 3), 0), ((3, 0), (3, 1), 0), ((3,), (3,), 1), ((), (3,), -1),
    ((4, 3, 2), (3, 2), 2), ((4, 3, 2), (3,), -3)])   # IndexError: NumPy reads both lengths
def test_linalg_cross_moves_the_vector_axis(engine: Any, a_shape: tuple[int, ...],
                                            b_shape: tuple[int, ...], axis: int) -> None:
    r = np.random.default_rng(2)
    a, b = r.standard_normal(a_shape), r.standard_normal(b_shape)
    check(lambda: np.linalg.cross(a, b, axis=axis),
          lambda: lt.linalg.cross(lt.asarray(a), lt.asarray(b), axis=axis), rtol=0)


def test_eager_functions_raise_linalgerror() -> None:
    for fn in (lambda: lt.linalg.eig(np.ones(3)), lambda: lt.linalg.eigvals(np.ones(3)),
               lambda: lt.linalg.lstsq(np.ones(3), np.ones(3)),
               lambda: lt.linalg.lstsq(np.ones((2, 2, 2)), np.ones(2))):
        with pytest.raises(np.linalg.LinAlgError):
            fn()


def test_uplo_is_case_insensitive(engine: Any) -> None:
    S = np.array([[2.0, 1.0], [1.0, 3.0]])
    for u in ("l", "u", "L", "U"):
        _bits(lt.linalg.eigh(S, UPLO=u)[0], np.linalg.eigh(S, UPLO=u)[0])
        _bits(lt.linalg.eigvalsh(S, UPLO=u), np.linalg.eigvalsh(S, UPLO=u))
    with pytest.raises(ValueError):
        lt.linalg.eigvalsh(S, UPLO="x")
    for fn in (lt.linalg.eigh, lt.linalg.eigvalsh):   # UPLO.upper() comes first in NumPy
        with pytest.raises(AttributeError):
            fn(np.ones(3), UPLO=1)


def test_norm_order_f(engine: Any) -> None:
    S = np.array([[2.0, 1.0], [1.0, 3.0]])
    A = np.random.default_rng(4).standard_normal((2, 3, 3))
    _bits(lt.linalg.norm(S, "f"), np.linalg.norm(S, "f"))
    _bits(lt.linalg.norm(A, "f", axis=(2, 1), keepdims=True),
          np.linalg.norm(A, "f", axis=(2, 1), keepdims=True))
    _bits(lt.linalg.matrix_norm(A, ord="f"), np.linalg.matrix_norm(A, ord="f"))
    _bits(lt.linalg.cond(A, "f"), np.linalg.cond(A, "f"))
    with pytest.raises(ValueError):
        lt.linalg.norm(np.ones(3), "f")
    # NumPy's inverse rejects float16 before its norm rejects the order
    h = np.eye(2, dtype=np.float16)
    check(lambda: np.linalg.cond(h, 3), lambda: lt.linalg.cond(h, 3))


def test_bool_and_none_orders(engine: Any) -> None:
    v, M = np.array([3.0, -4.0]), np.array([[2.0, -1.0], [0.5, 3.0]])
    for o in (True, False):
        _bits(lt.linalg.norm(v, o), np.linalg.norm(v, o))
        _bits(lt.linalg.norm(M, o, axis=1), np.linalg.norm(M, o, axis=1))
        _bits(lt.linalg.vector_norm(v, ord=o), np.linalg.vector_norm(v, ord=o))
    _bits(lt.linalg.norm(M, True), np.linalg.norm(M, True))
    _bits(lt.linalg.cond(M, True), np.linalg.cond(M, True))
    _bits(lt.linalg.vector_norm(M, ord=None), np.linalg.vector_norm(M, ord=None))
    _bits(lt.linalg.vector_norm(M, ord=None, axis=(1, 0)),
          np.linalg.vector_norm(M, ord=None, axis=(1, 0)))
    x32 = np.array([0.3, 1.7, 2.9], np.float32)
    _bits(lt.linalg.vector_norm(x32, ord=np.float64(3)),
          np.linalg.vector_norm(x32, ord=np.float64(3)))


def test_norm_axis_types_are_numpys(engine: Any) -> None:
    S = np.array([[2.0, 1.0], [1.0, 3.0]])
    _bits(lt.linalg.norm(S, axis=1.0), np.linalg.norm(S, axis=1.0))
    _bits(lt.linalg.norm(S, axis=np.int64(-1)), np.linalg.norm(S, axis=np.int64(-1)))
    _bits(lt.linalg.vector_norm(S, axis=0.0), np.linalg.vector_norm(S, axis=0.0))
    for fn in (lambda m: m.linalg.norm(S, axis=[0, 1]), lambda m: m.linalg.norm(S, axis=[0]),
               lambda m: m.linalg.vector_norm(S, axis=[0]),
               lambda m: m.linalg.vector_norm(S, axis=0.0, keepdims=True),
               lambda m: m.linalg.norm(S, axis="x"),
               lambda m: m.linalg.vector_norm(S, axis=[0], ord="x")):   # the axis first
        with pytest.raises(TypeError):
            fn(np)
        with pytest.raises(TypeError):
            fn(lt)
    # ... but the keepdims check on a float axis after the order's
    check(lambda: np.linalg.vector_norm(S, axis=1.0, keepdims=True, ord="x"),
          lambda: lt.linalg.vector_norm(S, axis=1.0, keepdims=True, ord="x"))


def test_matrix_rank_ignores_tolerances_of_vectors(engine: Any) -> None:
    for x in (np.ones(3), np.zeros(2), np.float64(2.0)):
        for kw in ({"tol": np.array([0.1, 0.5])}, {"rtol": np.array([[0.1], [0.5]])},
                   {"tol": lt.asarray([0.1, 0.5])}):
            got = lt.linalg.matrix_rank(x, **kw)
            assert_eq(got, np.asarray(np.linalg.matrix_rank(x)))
    with pytest.raises(ValueError):
        lt.linalg.matrix_rank(np.ones((2, 2)), tol=0.1, rtol=0.1)


@pytest.mark.parametrize("dtype", DTYPES + [np.complex64])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 2, 2), (2, 0, 0)])
def test_svd_hermitian_is_numpys_eigh_path(engine: Any, dtype: Any,
                                          shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(8)
    a = _mat(rng, shape, dtype)
    h = a + np.conj(np.swapaxes(a, -1, -2))
    h[..., :1, :1] = 0     # an eigenvalue near zero: copysign's sign matters
    got = lt.linalg.svd(lt.asarray(h), hermitian=True)
    ref = np.linalg.svd(h, hermitian=True)
    assert type(got).__name__ == "SVDResult"
    for g, x in zip(got, ref):
        _bits(g, x)
    for full in (True, False):
        for g, x in zip(lt.linalg.svd(h, full, hermitian=True),
                        np.linalg.svd(h, full, hermitian=True)):
            _bits(g, x)
    _bits(lt.linalg.svd(h, compute_uv=False, hermitian=True),
          np.linalg.svd(h, compute_uv=False, hermitian=True))
    _bits(lt.linalg.pinv(h, hermitian=True), np.linalg.pinv(h, hermitian=True))


def test_svd_hermitian_errors() -> None:
    for cu in (True, False):
        with pytest.raises(np.linalg.LinAlgError):
            lt.linalg.svd(np.ones((2, 3)), hermitian=True, compute_uv=cu)
        with pytest.raises(np.linalg.LinAlgError):
            lt.linalg.svd(np.ones(3), hermitian=True, compute_uv=cu)


@pytest.mark.parametrize("dtype", DTYPES + [np.complex64])
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3), (0, 2), (2, 0, 3)])
def test_qr_raw(engine: Any, dtype: Any, shape: tuple[int, ...]) -> None:
    a = _mat(np.random.default_rng(9), shape, dtype)
    got = lt.linalg.qr(lt.asarray(a), mode="raw")
    ref = np.linalg.qr(a, mode="raw")
    assert type(got) is tuple and len(got) == 2
    for g, x in zip(got, ref):
        _bits(g, x)
    with pytest.raises(ValueError):
        lt.linalg.qr(lt.asarray(a), mode="bogus")
    with pytest.raises(ValueError):          # the mode is checked before the shape, as in NumPy
        lt.linalg.qr(np.ones(3), mode="bogus")
