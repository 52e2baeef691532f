"""NumPy's call forms: a call written for NumPy works on lazyten and means
the same.  Keyword names where lazyten names a parameter after the array API
(``np.tile(A=...)``), ``out=`` given by name or position (NumPy's own call,
now), NumPy's positional order (``asarray(a, dtype, order)``), einsum's
forms, and the keywords a tensor accepts and does not read (``like=``,
``subok=``)."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import assert_eq, check, same_bits

A = np.arange(6.0).reshape(2, 3) - 2.5
V = np.arange(3.0)
SQ = np.array([[2.0, 1.0], [1.0, 3.0]])

# (NumPy's call, lazyten's): each by NumPy's keyword names.
KEYWORD_CALLS: list[tuple[str, Callable[[Any], Any]]] = [
    ("tile", lambda m: m.tile(A=V, reps=2)),
    ("sum", lambda m: m.sum(a=A, axis=0)),
    ("mean", lambda m: m.mean(a=A)),
    ("std", lambda m: m.std(a=A, ddof=1)),
    ("amax", lambda m: m.amax(a=A, axis=1)),
    ("argmin", lambda m: m.argmin(a=A)),
    ("cumsum", lambda m: m.cumsum(a=A, axis=1)),
    ("clip", lambda m: m.clip(a=A, a_min=-1, a_max=1)),
    ("round", lambda m: m.round(a=A * 1.37, decimals=1)),
    ("flip", lambda m: m.flip(m=A, axis=0)),
    ("tril", lambda m: m.tril(m=A, k=1)),
    ("triu", lambda m: m.triu(m=A)),
    ("broadcast_to", lambda m: m.broadcast_to(array=V, shape=(2, 3))),
    ("take_along_axis", lambda m: m.take_along_axis(arr=A, indices=np.zeros((2, 1), int),
                                                    axis=1)),
    ("unique", lambda m: m.unique(ar=np.array([3, 1, 3]))),
    ("vstack", lambda m: m.vstack(tup=[V, V])),
    ("split", lambda m: m.split(ary=V, indices_or_sections=3)),
    ("array_split", lambda m: m.array_split(ary=V, indices_or_sections=2)),
    ("transpose", lambda m: m.transpose(a=A)),
    ("moveaxis", lambda m: m.moveaxis(a=A, source=0, destination=1)),
    ("diagonal", lambda m: m.diagonal(a=A)),
    ("trace", lambda m: m.trace(a=A)),
    ("copy", lambda m: m.copy(a=A)),
    ("empty_like", lambda m: m.empty_like(prototype=A).shape),
    ("zeros_like", lambda m: m.zeros_like(a=A)),
    ("asarray", lambda m: m.asarray(a=A)),
    ("array", lambda m: m.array(object=A)),
    ("sort", lambda m: m.sort(a=A[::-1], axis=0)),
    ("diff", lambda m: m.diff(a=V)),
    ("nonzero", lambda m: m.nonzero(a=V)),
    ("count_nonzero", lambda m: m.count_nonzero(a=V)),
    ("fix", lambda m: m.fix(x=A)),
    ("real", lambda m: m.real(val=A + 1j)),
    ("imag", lambda m: m.imag(val=A + 2j)),
    ("linalg.inv", lambda m: m.linalg.inv(a=SQ)),
    ("linalg.det", lambda m: m.linalg.det(a=SQ)),
    ("linalg.matrix_rank", lambda m: m.linalg.matrix_rank(A=A)),
    ("linalg.eigvalsh", lambda m: m.linalg.eigvalsh(a=SQ)),
]


def _values(x: Any) -> Any:
    if isinstance(x, lt.Tensor):
        return x.eval()
    if isinstance(x, (list, tuple)):
        return [_values(e) for e in x]
    return x


@pytest.mark.parametrize("name,call", KEYWORD_CALLS, ids=[n for n, _ in KEYWORD_CALLS])
def test_numpy_keyword_names(engine: Any, name: str, call: Callable[[Any], Any]) -> None:
    want, got = call(np), _values(call(lt))
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same_bits(g, w)
    elif isinstance(want, tuple) or not hasattr(want, "dtype"):
        assert got == want
    else:
        same_bits(got, want)


def test_both_names_at_once_is_an_error() -> None:
    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        lt.sum(x=A, a=A)
    with pytest.raises(TypeError, match="multiple values"):
        lt.tile(V, A=V, reps=2)


@pytest.mark.parametrize("name,args,kwargs", [
    ("round", (A * 1.37, 1), {}), ("clip", (A, -1, 1), {}), ("dot", (V, V), {}),
    ("outer", (V, V), {}), ("trace", (A,), {"_keyword": True}), ("matmul", (A, A.T), {}),
    ("vecdot", (A, A), {}), ("concat", ([V, V],), {"_keyword": True}), ("matvec", (A, V), {}),
    ("vecmat", (V[:2], A), {}), ("fix", (A,), {}),
    ("cumulative_sum", (V,), {"_keyword": True}),
], ids=lambda v: v if isinstance(v, str) else "")
def test_out_by_name_and_position(name: str, args: tuple[Any, ...],
                                  kwargs: dict[str, Any]) -> None:
    """``out=`` is NumPy's own call, now: the array written and returned,
    by name and (where NumPy takes it so) by position."""
    want = getattr(np, name)(*args)
    forms = ["name"] if kwargs.get("_keyword") else ["name", "position"]
    for form in forms:
        out, np_out = np.full_like(want, -7), np.full_like(want, -7)
        got = (getattr(lt, name)(*args, out=out) if form == "name"
               else getattr(lt, name)(*args, out))
        np_got = getattr(np, name)(*args, out=np_out)
        assert (got is out) == (np_got is np_out)   # (np.dot of vectors: a scalar)
        same_bits(out, np_out)
        same_bits(np.asarray(got), np.asarray(np_got))
    # a tensor as out takes the result as its new value (t[...] = v), and
    # is returned where NumPy returns its out (np.dot of vectors: a scalar)
    t = lt.zeros(np.shape(want), want.dtype)
    got = getattr(lt, name)(*args, out=t)
    assert (got is t) == (np_got is np_out)
    same_bits(t.eval(), want)
    same_bits(np.asarray(got), want)


def test_tensor_methods_take_out() -> None:
    t = lt.asarray(A)
    for method, args in (("round", (1,)), ("clip", (-1, 1)), ("trace", ()), ("dot", (A.T,))):
        want = getattr(A, method)(*args)
        out = np.empty_like(want)
        assert getattr(t, method)(*args, out=out) is out
        same_bits(out, want)


def test_positional_order_is_numpys() -> None:
    # asarray(a, dtype, order): the third is the layout, not copy
    f = lt.asarray(A, None, "F")
    assert f.eval().flags.f_contiguous
    same_bits(f.eval(), A)
    assert lt.asarray(lt.asarray(A) * 2, None, "F").eval().flags.f_contiguous
    assert lt.array(A, order="F").eval().flags.f_contiguous
    # vecdot(x1, x2, out): axis is keyword-only (NumPy's and the array API's)
    out = np.empty(2)
    assert lt.vecdot(A, A, out) is out
    same_bits(out, np.vecdot(A, A))
    with pytest.raises(TypeError):
        lt.vecdot(A, A, 0, 1)


def test_permute_dims_reverses_without_axes(engine: Any) -> None:
    x = np.arange(24.0).reshape(2, 3, 4)
    assert_eq(lt.permute_dims(x), np.permute_dims(x))
    assert_eq(lt.permute_dims(x, (1, 0, 2)), np.permute_dims(x, (1, 0, 2)))


def test_concat_is_numpys_concatenate(engine: Any) -> None:
    assert_eq(lt.concat(A), np.concat(A))            # an array: its rows
    assert_eq(lt.concat([V, V], axis=None), np.concat([V, V], axis=None))
    assert_eq(lt.concat([V, V.astype(np.int8)], dtype=np.float32, casting="same_kind"),
              np.concat([V, V.astype(np.int8)], dtype=np.float32, casting="same_kind"))
    with pytest.raises(TypeError, match="Cannot cast"):
        lt.concat([V, V], dtype=np.int64)
    with pytest.raises(TypeError):
        lt.concat(5)


def test_gufunc_keywords_are_numpys_call(engine: Any) -> None:
    B = np.arange(12.0).reshape(3, 4)
    same_bits(lt.matmul(A, B, dtype=np.float32).eval(), np.matmul(A, B, dtype=np.float32))
    x = np.arange(24.0).reshape(2, 3, 4)
    same_bits(lt.matmul(x, x, axes=[(1, 2), (2, 1), (1, 2)]).eval(),
              np.matmul(x, x, axes=[(1, 2), (2, 1), (1, 2)]))
    same_bits(lt.vecdot(A, A, axis=0, keepdims=True).eval(),
              np.vecdot(A, A, axis=0, keepdims=True))
    same_bits(lt.clip(np.arange(5), 1, 3, dtype=np.float32).eval(),
              np.clip(np.arange(5), 1, 3, dtype=np.float32))
    with pytest.raises(TypeError, match="unexpected keyword"):
        lt.matmul(A, B, bogus=1)
    with pytest.raises(TypeError, match="unexpected keyword"):
        lt.clip(A, 0, 1, bogus=1)


@pytest.mark.parametrize("batch", [(), (2,), (3, 1)], ids=str)
def test_matvec_vecmat(engine: Any, batch: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    m = rng.standard_normal(batch + (3, 4))
    v4, v3 = rng.standard_normal((2, 4)), rng.standard_normal(3) + 1j
    v = v4 if batch == (3, 1) else v4[0]      # (batch axes broadcast: (3, 1) with (2,))
    assert_eq(lt.matvec(m, v), np.matvec(m, v))
    assert_eq(lt.vecmat(v3, m), np.vecmat(v3, m))
    with pytest.raises(ValueError):
        lt.matvec(V, V)


EINSUM_CASES = [
    ("...ij,...jk", [(5, 2, 3), (3, 4)]), ("a...,a...->...", [(3, 2), (3,)]),
    ("...", [(2, 3)]), ("ij...->...", [(3, 2, 4)]), ("...ii->...i", [(2, 3, 3)]),
    ("i...,i...", [(3, 2), (3, 1)]), ("ij,jk", [(2, 3), (3, 4)]), ("ii", [(3, 3)]),
    ("b...,...", [(2, 0), (0,)]), ("ij,jk->ik", [(2, 1), (3, 4)]),
]


@pytest.mark.parametrize("spec,shapes", EINSUM_CASES, ids=[c[0] for c in EINSUM_CASES])
def test_einsum_ellipsis(engine: Any, spec: str, shapes: list[tuple[int, ...]]) -> None:
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal(s) for s in shapes]
    t = lt.einsum(spec, *[lt.asarray(x) for x in xs])
    want = np.einsum(spec, *xs)
    assert t.shape == want.shape
    same_bits(t.eval(), want)


@pytest.mark.parametrize("spec,shapes", [
    ("ii->i", [(1, 3)]), ("...i->i", [(2, 3)]), ("i->i", [(2, 3)]), ("...->", [(2, 3)]),
    ("i..j", [(2, 3)]), ("ij->ii", [(2, 2)]), ("ij->k", [(2, 2)]), ("i,i", [(3,)]),
], ids=str)
def test_einsum_errors_when_built(spec: str, shapes: list[tuple[int, ...]]) -> None:
    """NumPy's ValueError, raised on the line that builds the node."""
    xs = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError):
        np.einsum(spec, *xs)
    with pytest.raises(ValueError):
        lt.einsum(spec, *xs)


def test_einsum_forms_and_keywords(engine: Any) -> None:
    rng = np.random.default_rng(2)
    a, b, c = rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), rng.standard_normal(4)
    for args in ((a, [0, 1], b, [1, 2]), (a, [1, 0]), (a, [Ellipsis, 0], [Ellipsis]),
                 (a, [0, 1], b, [1, 2], [2, 0]), (a, [0, 27]), (b, [30, 2], c, [2])):
        same_bits(lt.einsum(*args).eval(), np.einsum(*args))
    same_bits(lt.einsum("ij,jk", a, b, dtype=np.float32, casting="same_kind").eval(),
              np.einsum("ij,jk", a, b, dtype=np.float32, casting="same_kind"))
    with pytest.raises(TypeError, match="Cannot cast"):
        lt.einsum("ij,jk", a, b, dtype=np.float32)          # casting="safe"
    path = ["einsum_path", (0, 1), (0, 1)]
    same_bits(lt.einsum("ij,jk,k", a, b, c, optimize=path).eval(),
              np.einsum("ij,jk,k", a, b, c, optimize=path))
    out = np.empty((2, 4))
    assert lt.einsum("ij,jk", a, b, out=out) is out
    same_bits(out, np.einsum("ij,jk", a, b))
    with pytest.raises(ValueError):
        lt.einsum(a, [0, 60])


def test_view_as_ndarray_and_as_other_classes() -> None:
    t = lt.asarray(V)
    v = t.view(np.ndarray)
    assert isinstance(v, lt.Tensor)
    v[0] = 9.0                                # a view: written through
    assert t.eval()[0] == 9.0
    m = lt.asarray(V).view(np.ma.MaskedArray)   # NumPy's object, read-only
    assert isinstance(m, np.ma.MaskedArray) and not m.flags.writeable
    # numpy.ma views its operands as MaskedArray to compare them
    n2 = np.ma.masked_array([0.0, 5.0, 1.0], mask=[1, 0, 0])
    got = n2 < lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    want = n2 < np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    assert got.tolist() == want.tolist()
    with pytest.raises(TypeError):
        t.view(type=int)


def test_put_takes_numpys_names() -> None:
    t = lt.asarray(V.copy())
    t.put(indices=[0], values=[9.0])
    a = V.copy()
    a.put(indices=[0], values=[9.0])
    same_bits(t.eval(), a)


def test_save_takes_numpys_names() -> None:
    f = io.BytesIO()
    lt.save(file=f, arr=lt.ones(2), allow_pickle=False)
    f.seek(0)
    same_bits(np.load(f), np.ones(2))
    f = io.BytesIO()
    lt.savez(f, path=lt.ones(2), file_=V)    # an array may be named 'path'
    f.seek(0)
    got = np.load(f)
    assert sorted(got.files) == ["file_", "path"]


def test_masked_and_sparse_are_refused_where_data_would_be_lost() -> None:
    import scipy.sparse as sp
    m = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    for fn in (lambda: lt.sum(m), lambda: lt.exp(m), lambda: lt.std(m),
               lambda: lt.sum(np.ma.masked_array([1.0, 2.0], mask=[0, 1]))):
        with pytest.raises(TypeError, match="mask would be dropped"):
            fn()
    same_bits(lt.asarray(m).eval(), np.asarray(np.ma.masked_array([1.0, 2.0, 3.0])))
    with pytest.raises(NotImplementedError, match="mask"):
        lt.save(io.BytesIO(), m)
    with pytest.raises(TypeError, match="sparse"):
        lt.savez(io.BytesIO(), lt.sparse.asarray(sp.csr_array(np.eye(2))))


def test_like_and_subok_are_accepted() -> None:
    for fn in (lambda: lt.zeros(3, like=A), lambda: lt.ones(3, like=A),
               lambda: lt.empty(3, like=A), lambda: lt.full(3, 2.0, like=A),
               lambda: lt.arange(3, like=A), lambda: lt.eye(3, like=A),
               lambda: lt.identity(3, like=A), lambda: lt.asarray(V, like=A),
               lambda: lt.array(V, like=A, subok=True),
               lambda: lt.ascontiguousarray(V, like=A),
               lambda: lt.fromfunction(lambda i: i, (3,), like=A),
               lambda: lt.copy(V, subok=True),
               lambda: lt.broadcast_to(V, (2, 3), subok=True)):
        assert isinstance(fn(), lt.Tensor)
    assert all(isinstance(t, lt.Tensor) for t in lt.broadcast_arrays(V, A, subok=True))
    assert lt.array([[1, 2], [3, 4]], ndmax=2).shape == (2, 2)
    with pytest.raises(ValueError):
        lt.array([[1, 2], [3, 4]], ndmax=1)


def test_tensordot_takes_numpy_integer_axes(engine: Any) -> None:
    s = np.arange(4.0).reshape(2, 2)
    for axes in (np.int64(1), np.array(0), np.array([[1], [0]])):
        assert_eq(lt.tensordot(s, s, axes), np.tensordot(s, s, axes))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64, np.float32, np.int16],
                         ids=["c16", "c8", "f4", "i2"])
def test_matvec_vecmat_are_numpys_loops(engine: Any, dtype: Any) -> None:
    """One step running NumPy's gufunc: complex vecmat's conjugating dot
    sums otherwise than ``conj(a) @ b`` (other last bits)."""
    rng = np.random.default_rng(1)
    v = (rng.standard_normal((5, 64)) * 3 + 1j * rng.standard_normal((5, 64))).astype(dtype) \
        if np.dtype(dtype).kind == "c" else (rng.standard_normal((5, 64)) * 3).astype(dtype)
    m = v[:, :33].copy()
    for got, want in ((lt.vecmat(lt.asarray(v)[::-1], np.ascontiguousarray(v.T)),
                       np.vecmat(v[::-1], np.ascontiguousarray(v.T))),
                      (lt.matvec(lt.asarray(v).T, v[:, 0]), np.matvec(v.T, v[:, 0])),
                      (lt.vecmat(lt.asarray(v[:, 0]) * 1, m), np.vecmat(v[:, 0], m))):
        assert got.shape == want.shape and got.dtype == want.dtype
        same_bits(got.eval(), want)


def test_gufunc_keywords_at_their_defaults_stay_lazy() -> None:
    """``dtype=None`` and the like change nothing: still a lazy node, so it
    runs inside a compiled function."""
    p = lt.placeholder((None, 4), np.float64)
    f = lt.function([p], [lt.matvec(lt.ones((3, 4)), p[0], dtype=None, casting="same_kind"),
                          lt.matmul(p, lt.ones((4, 2)), axes=None)])
    got = f(np.arange(8.0).reshape(2, 4))
    same_bits(got[0], np.matvec(np.ones((3, 4)), np.arange(4.0)))
    same_bits(got[1], np.arange(8.0).reshape(2, 4) @ np.ones((4, 2)))


def test_clip_bound_given_twice_is_an_error() -> None:
    a = lt.asarray(A)
    with pytest.raises(TypeError, match="multiple values"):
        lt.clip(a, 0, 1, a_min=5)
    with pytest.raises(TypeError, match="multiple values"):
        lt.clip(a, a_max=1, max=2)


def test_array_order_is_checked_as_numpys() -> None:
    t = lt.asarray(np.ones((2, 3))) * 1
    assert lt.array(t, order="f").eval().flags.f_contiguous
    for bad, err in (("ka", ValueError), ("", ValueError), (5, TypeError)):
        with pytest.raises(err):
            np.array(np.ones(2), order=bad)
        with pytest.raises(err):
            lt.array(t, order=bad)


DIAGONAL_SPECS = [("ii->i", (3, 3)), ("iij->ji", (3, 3, 2)), ("iij->ij", (3, 3, 2)),
                  ("ii...->i...", (3, 3, 2)), ("...ii->...i", (2, 3, 3)), ("iii->i", (2, 2, 2)),
                  ("jii->ij", (2, 4, 4)), ("ii->i", (0, 0)), ("iij->ji", (2, 2, 0))]


@pytest.mark.parametrize("spec,shape", DIAGONAL_SPECS)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "broadcast", "lazy"])
def test_einsum_of_diagonals_is_a_writable_view(engine: Any, spec: str, shape: Any,
                                                 layout: str) -> None:
    """One operand's einsum that sums no label ('ii->i', 'iij->ji') is
    NumPy's writable view of the diagonals: a write through it reaches the
    operand (not the user's array it wraps), and it reads the operand's
    later writes, as NumPy's view does; the values are NumPy's on every
    layout."""
    base = np.arange(math.prod(shape) * 2, dtype=np.float64)
    a = {"contiguous": base[:math.prod(shape)].reshape(shape),
         "strided": base[::2].reshape(shape),
         "broadcast": np.broadcast_to(base[:shape[-1]], shape),
         "lazy": base[:math.prod(shape)].reshape(shape)}[layout]
    user = a.copy()
    t = lt.asarray(a) * 1 if layout == "lazy" else lt.asarray(a)
    w = np.einsum(spec, np.array(a) if layout != "broadcast" else a)
    r = lt.einsum(spec, t)
    assert r.node.op.name == "einsum_view" and (r.shape, r.dtype) == (w.shape, w.dtype)
    same_bits(r.eval(), w)
    np.testing.assert_array_equal(a, user)
    if not r.size:
        return
    # (a tensor's writes make its own new value, also over a read-only
    # broadcast array: compared with NumPy on a writable copy)
    mine = np.array(a)
    mw = np.einsum(spec, mine)
    r[...] = -1.0
    mw[...] = -1.0
    same_bits(t.eval(), mine)
    t[(0,) * len(shape)] = 42.0                 # a later write to the operand
    mine[(0,) * len(shape)] = 42.0
    same_bits(r.eval(), mw)
    r += 1.0
    mw += 1.0
    same_bits(t.eval(), mine)
    np.testing.assert_array_equal(a, user)       # the user's array is never written


@pytest.mark.parametrize("spec", ["ij->ji", "ji", "ij", "...i->...i", "i...->...i"])
def test_einsum_of_a_permutation_is_a_view(engine: Any, spec: str) -> None:
    """NumPy returns a writable view for a spec that only permutes one
    operand's axes: a write through it reaches the operand."""
    a = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(a.copy())
    r, w = lt.einsum(spec, t), np.einsum(spec, a)
    assert r.shape == w.shape
    same_bits(r.eval(), w)
    index = (0, 1) if r.shape[1] > 1 else (1, 0)
    r[index] = 100.0
    w[index] = 100.0                          # (w is a view of a)
    same_bits(t.eval(), a)


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "any", "all", "prod", "std", "var",
                                  "argmax", "argmin", "nansum", "count_nonzero"])
def test_keepdims_is_read_as_numpy_reads_it(name: str) -> None:
    """NumPy's ufunc reductions read ``keepdims`` as an integer (None, a
    float or ``np.True_`` is a TypeError); argmin/argmax test its truth."""
    x = np.arange(6.0).reshape(2, 3)
    for kd in (None, 0, 1, 2, True, np.True_, np.int64(1), 1.0, "a", [1]):
        check(lambda: getattr(np, name)(x, axis=0, keepdims=kd),
              lambda: getattr(lt, name)(lt.asarray(x), axis=0, keepdims=kd))
