"""NumPy's functions given tensors (NEP 18, ``Tensor.__array_function__``):
``np.f(t)`` is lazyten's ``lt.f(t)``, lazy, with NumPy's values, shapes and
dtypes; a function lazyten lacks runs now on the values; writes reach the
tensor; another library's array is left to that library."""

from __future__ import annotations

import inspect
import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.dispatch import twin
from tests.util import assert_eq

RNG = np.random.default_rng(7)
A = RNG.random((4, 6))
B = RNG.random((4, 6))
SQUARE = RNG.random((4, 4)) + 4 * np.eye(4)


def layouts(x: np.ndarray[Any, Any]) -> dict[str, np.ndarray[Any, Any]]:
    """``x``'s values as NumPy holds them in several layouts."""
    big = np.zeros((2 * x.shape[0], 3 * x.shape[1]))
    big[::2, ::3] = x
    return {
        "contiguous": x,
        "strided": big[::2, ::3],
        "fortran": np.asfortranarray(x),
        "broadcast": np.broadcast_to(x[:1], x.shape),
    }


# NumPy calls on two (4, 6) arrays; each runs on ndarrays and on tensors.
CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "concatenate": lambda a, b: np.concatenate([a, b], axis=1),
    "stack": lambda a, b: np.stack([a, b], axis=-1),
    "vstack": lambda a, b: np.vstack((a, b)),
    "where": lambda a, b: np.where(a > 0.5, a, b),
    "mean": lambda a, b: np.mean(a, axis=0),
    "std": lambda a, b: np.std(a, axis=1, ddof=1),
    "sum_by_numpys_name": lambda a, b: np.sum(a=a, axis=1, keepdims=True),
    "clip": lambda a, b: np.clip(a, a_min=0.25, a_max=0.75),
    "einsum": lambda a, b: np.einsum("ij,ij->i", a, b),
    "tensordot": lambda a, b: np.tensordot(a, b, axes=([1], [1])),
    "dot": lambda a, b: np.dot(a, b.T),
    "transpose": lambda a, b: np.transpose(a),
    "moveaxis": lambda a, b: np.moveaxis(a, 0, 1),
    "reshape": lambda a, b: np.reshape(a, (3, -1)),
    "diagonal": lambda a, b: np.diagonal(a, offset=1),
    "tril": lambda a, b: np.tril(a, k=-1),
    "cumsum": lambda a, b: np.cumsum(a, axis=1),
    "diff": lambda a, b: np.diff(a, n=2, axis=0),
    "round": lambda a, b: np.round(a, 2),
    "outer": lambda a, b: np.outer(a[0], b[:, 1]),
    "trace": lambda a, b: np.trace(a),
    "roll": lambda a, b: np.roll(a, 2, axis=1),
    "flip": lambda a, b: np.flip(a),
    "tile": lambda a, b: np.tile(a[0], (2, 1)),
    "pad": lambda a, b: np.pad(a, 1),
    "average": lambda a, b: np.average(a, axis=1, weights=b[0]),
    "linalg.norm": lambda a, b: np.linalg.norm(a, axis=1),
    "linalg.matmul": lambda a, b: np.linalg.matmul(a, b.T),
    "fft.rfft": lambda a, b: np.fft.rfft(a, axis=1),
    "emath.sqrt": lambda a, b: np.emath.sqrt(a - 0.5),
}


@pytest.mark.parametrize("layout", ["contiguous", "strided", "fortran", "broadcast"])
@pytest.mark.parametrize("name", list(CALLS))
def test_numpy_function_on_tensors_is_lazyten_and_lazy(engine: Any, name: str,
                                                       layout: str) -> None:
    a, b = layouts(A)[layout], layouts(B)[layout]
    want = CALLS[name](a * 2, b)
    # Operands that are themselves computed: still lazy after NumPy's call
    ta = lt.asarray(a) * 2
    got = CALLS[name](ta, lt.asarray(b))
    assert isinstance(got, lt.Tensor), type(got)
    assert ta.node.value is None and got.node.value is None
    assert_eq(got, want)


@pytest.mark.parametrize("name", ["concatenate", "where", "mean", "clip", "cumsum", "flip",
                                  "emath.sqrt"])
def test_numpy_function_on_empty_tensors(engine: Any, name: str) -> None:
    a, b = A[:0], B[:0]
    assert_eq(CALLS[name](lt.asarray(a), lt.asarray(b)), CALLS[name](a, b))


def test_numpy_function_on_0d_and_mixed_tensors(engine: Any) -> None:
    x = np.float32(2.5)
    t = lt.asarray(np.asarray(x))
    assert_eq(np.mean(t), np.mean(np.asarray(x)))
    assert_eq(np.where(t > 2, t, np.float64(0)), np.where(x > 2, x, np.float64(0)))
    assert_eq(np.concatenate([lt.asarray(A), B]), np.concatenate([A, B]))
    assert_eq(np.concatenate([B, lt.asarray(A)]), np.concatenate([B, A]))
    assert_eq(np.atleast_1d(t), np.atleast_1d(x))


def test_numpy_functions_fuse_into_one_kernel() -> None:
    with lt.set_options(optimize=True, backend="auto"):
        t = lt.asarray(A)
        e = np.clip(np.where(t > 0.5, t * 2, 0.0) + np.sqrt(t), 0.1, 1.5)
        assert len(lt.plan(e).kernels) == 1
        assert_eq(e, np.clip(np.where(A > 0.5, A * 2, 0.0) + np.sqrt(A), 0.1, 1.5))


def test_predicates_answer_python_bools(engine: Any) -> None:
    t = lt.asarray(A)
    for got, want in ((np.allclose(t, A), True), (np.allclose(t, B), False),
                      (np.array_equal(t, A), True), (np.array_equiv(t[:1], A), False)):
        assert got is want


def test_linalg_on_tensors(engine: Any) -> None:
    t = lt.asarray(SQUARE)
    v = lt.asarray(A[:, 0])
    assert_eq(np.linalg.solve(t, v), np.linalg.solve(SQUARE, A[:, 0]))
    assert_eq(np.linalg.inv(t) @ t, np.linalg.inv(SQUARE) @ SQUARE)
    assert_eq(np.linalg.multi_dot([t, t, v]), np.linalg.multi_dot([SQUARE, SQUARE, A[:, 0]]))
    out = np.empty(4)                       # (NumPy's out=: its call, now)
    assert np.linalg.multi_dot([t, v], out=out) is out
    np.testing.assert_allclose(out, SQUARE @ A[:, 0])


def test_numpy_writes_reach_the_tensor(engine: Any) -> None:
    t = lt.zeros((3, 4))
    view = t[::2, 1:]
    np.copyto(view, 7.0)                    # through a view, into its base
    want = np.zeros((3, 4))
    want[::2, 1:] = 7.0
    assert_eq(t, want)

    np.putmask(t, t > 5, -1.0)
    np.putmask(want, want > 5, -1.0)
    np.fill_diagonal(t, 3.0)
    np.fill_diagonal(want, 3.0)
    np.place(t, t == 0, [1.0, 2.0])
    np.place(want, want == 0, [1.0, 2.0])
    np.put(t, [0, 5], [8.0, 9.0])
    np.put(want, [0, 5], [8.0, 9.0])
    assert_eq(t, want)


def test_memory_questions_answered_from_the_graph() -> None:
    t = lt.asarray(np.arange(12.0))
    assert np.shares_memory(t, t[::3])
    assert not np.shares_memory(t[:6], t[6:])
    assert np.may_share_memory(t, t[::2])


def test_dtype_rules_read_no_values() -> None:
    t = lt.asarray(np.arange(3.0, dtype=np.float32)) * 2
    assert np.result_type(t, 2.0) == np.float32        # NEP 50: the Python float is weak
    assert lt.result_type(t, np.float64) == np.float64
    assert not np.can_cast(t, np.int32)
    assert np.min_scalar_type(t) == np.float32
    assert t.node.value is None
    assert np.min_scalar_type(lt.asarray(np.array(3, np.int64)) + 1) == np.uint8


def test_function_without_a_twin_runs_now_on_values() -> None:
    t = lt.asarray(A) * 2
    assert twin(np.lib.stride_tricks.sliding_window_view) is None
    got = np.lib.stride_tricks.sliding_window_view(t, 3, axis=1)
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, np.lib.stride_tricks.sliding_window_view(A * 2, 3, axis=1))
    assert np.array2string(lt.asarray(np.arange(3))) == "[0 1 2]"


def test_like_makes_tensors() -> None:
    t = lt.asarray(A)
    for got in (np.zeros(3, like=t), np.asarray([1, 2], like=t), np.arange(3, like=t),
                np.genfromtxt(io.StringIO("1 2\n3 4"), like=t)):   # (no twin: NumPy's, wrapped)
        assert isinstance(got, lt.Tensor)
    assert_eq(np.genfromtxt(io.StringIO("1 2\n3 4"), like=t), np.array([[1.0, 2.0], [3.0, 4.0]]))


class _Theirs:
    """Another library's array: it answers NumPy's functions itself."""
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        return self.answer


def test_another_librarys_array_is_its_own_to_answer() -> None:
    t = lt.asarray(A)
    assert np.concatenate([t, _Theirs("theirs")]) == "theirs"
    with pytest.raises(TypeError, match="no implementation found"):
        np.concatenate([t, _Theirs(NotImplemented)])


def test_masked_and_sparse_operands_keep_their_masks_or_are_refused() -> None:
    m = lt.ma.masked_array([1.0, 2.0], mask=[False, True])
    nm = np.ma.masked_array([1.0, 2.0], mask=[False, True])
    # lt.ma's function where it has one (masks kept, as np.ma.concatenate's)
    got = np.concatenate([lt.asarray(np.zeros(2)), m]).eval()
    want = np.ma.concatenate([np.zeros(2), nm])
    np.testing.assert_array_equal(got.mask, want.mask)
    np.testing.assert_array_equal(got.filled(-1), want.filled(-1))
    assert float(np.sum(m)) == float(np.ma.sum(nm))
    np.testing.assert_array_equal(np.round(m * 1.26, 1).eval().filled(-1),
                                  np.round(nm * 1.26, 1).filled(-1))      # (the method)
    # others would drop the mask: refused, not answered from the data
    with pytest.raises(TypeError, match="drop its mask"):
        np.median(m)
    with pytest.raises(TypeError, match="mask would be dropped"):
        np.concatenate([lt.asarray(np.zeros(2)), np.ma.masked_array([1.0], mask=[True])])
    S = lt.sparse.from_coo([5.0, 7.0], [0, 1], [2, 0], shape=(2, 3))
    with pytest.raises(TypeError, match="lt.sparse matrix"):
        np.dot(S, np.ones(3))
    # functions reading shapes and dtypes alone answer, as NumPy's do
    m2 = lt.ma.masked_array(np.zeros((2, 3), np.float32), mask=np.eye(2, 3, dtype=bool))
    n2 = np.ma.masked_array(np.zeros((2, 3), np.float32), mask=np.eye(2, 3, dtype=bool))
    for x, want in ((m2, n2), (S, np.zeros((2, 3)))):
        assert np.shape(x) == np.shape(want) and np.ndim(x) == np.ndim(want)
        assert np.size(x) == np.size(want) and np.size(x, 1) == np.size(want, 1)
        assert np.result_type(x, 1j) == np.result_type(want, 1j)
        assert np.result_type(x, np.float16) == np.result_type(want, np.float16)
        assert np.iscomplexobj(x) is np.iscomplexobj(want)
        assert np.isrealobj(x) is np.isrealobj(want)
    with pytest.raises(IndexError):
        np.size(m2, 5)                                   # (NumPy's own error)


_NAMESPACES = {"numpy": lt, "numpy.linalg": lt.linalg, "numpy.fft": lt.fft,
               "numpy.lib.scimath": lt.emath}
# NumPy functions lazyten leaves to NumPy (run now on values): text, dates,
# printing, file parsing and window views.
WITHOUT_TWIN = {
    "array2string", "array_repr", "array_str", "busday_count", "busday_offset",
    "datetime_as_string", "fromfile", "genfromtxt", "is_busday",
}


def _dispatched() -> list[Any]:
    overrides = pytest.importorskip("numpy._core.overrides")
    return sorted((f for f in overrides.ARRAY_FUNCTIONS if f.__module__ in _NAMESPACES),
                  key=lambda f: (f.__module__, f.__name__))


def test_numpys_functions_have_twins() -> None:
    """Every function NumPy dispatches in its main namespaces has a lazyten
    twin, except those listed: a new NumPy function shows up here."""
    missing = {f.__name__ for f in _dispatched() if twin(f) is None}
    assert missing == WITHOUT_TWIN


def test_twins_take_numpys_parameters() -> None:
    """Each twin takes each of its NumPy function's parameters by NumPy's
    name (by lazyten's signature, or by its NumPy-name keywords)."""
    wrong = []
    for f in _dispatched():
        fn = twin(f)
        if fn is None:
            continue
        try:
            theirs = inspect.signature(f).parameters
        except ValueError:                  # (a C function without a signature)
            continue
        ours = inspect.signature(fn).parameters
        if any(p.kind is p.VAR_KEYWORD for p in ours.values()):
            continue
        for name, p in theirs.items():
            # ``like`` is NumPy's dispatch (never passed on); einsum_path's
            # ``einsum_call`` is NumPy's private flag.
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or name in ("like", "einsum_call"):
                continue
            if name in ours or p.kind is p.POSITIONAL_ONLY:
                continue
            try:
                fn(**{name: np.ones((2, 2))})
            except TypeError as e:
                if "unexpected keyword" in str(e):
                    wrong.append(f"{f.__module__}.{f.__name__}({name}=)")
            except Exception:  # noqa: BLE001 - taken by name; other errors are the value's
                pass
    assert wrong == []


def test_out_tensors_written_and_returned_as_numpys(engine: Any) -> None:
    x = np.array([1.5, -2.5, 0.5])
    o = lt.zeros(3)
    assert np.fix(lt.asarray(x), o) is o               # out by position (np.fix is no ufunc)
    assert_eq(o, np.fix(x))
    assert isinstance(np.fix(lt.asarray(x), None), lt.Tensor)
    q, r = lt.zeros(3), lt.zeros(3)
    got = np.divmod(lt.asarray(x), 2, out=(q, r))
    assert got[0] is q and got[1] is r
    assert_eq(q, np.floor_divide(x, 2))
    # NumPy's hfft returns a new array whatever its out: so does the call here
    o2, n2 = lt.zeros(4, dtype=complex), np.zeros(4, dtype=complex)
    got = np.fft.hfft(lt.asarray(x), out=o2)
    want = np.fft.hfft(x, out=n2)
    assert got is not o2
    assert_eq(lt.asarray(got), want)
    assert_eq(o2, n2)


# NumPy's ufuncs with keywords, their methods and the gufuncs, on tensors:
# lazyten's functions for them (``functions.ufunc_twin``), lazy.
UFUNC_CALLS: dict[str, Callable[[Any], Any]] = {
    "reduce": lambda a: np.add.reduce(a, axis=1),
    "reduce_keepdims": lambda a: np.maximum.reduce(a, axis=0, keepdims=True),
    "reduce_bool": lambda a: np.logical_and.reduce(a > 0.3),
    "reduce_opaque": lambda a: np.power.reduce(a[:, :3] + 1, axis=0),
    "accumulate": lambda a: np.multiply.accumulate(a, axis=1),
    "accumulate_dtype": lambda a: np.add.accumulate(a > 0.5, dtype=np.int64),
    "reduceat": lambda a: np.add.reduceat(a, [0, 2, 5], axis=1),
    "outer": lambda a: np.subtract.outer(a[0], a[:, 1]),
    "dtype": lambda a: np.exp(a, dtype=np.float32),
    "casting": lambda a: np.add(a, 1, casting="same_kind"),
    "order": lambda a: np.subtract(a, 1, order="F"),
    "degrees": lambda a: np.degrees(a),
    "radians": lambda a: np.radians(a),
    "vecdot": lambda a: np.vecdot(a, a),
    "matvec": lambda a: np.matvec(a, a[0]),
    "divmod": lambda a: np.divmod(a, 0.25),
}


@pytest.mark.parametrize("layout", ["contiguous", "strided", "fortran"])
@pytest.mark.parametrize("name", list(UFUNC_CALLS))
def test_ufunc_keywords_and_methods_on_tensors_are_lazy(engine: Any, name: str,
                                                        layout: str) -> None:
    a = layouts(A)[layout]
    want = UFUNC_CALLS[name](a * 2)
    ta = lt.asarray(a) * 2
    got = UFUNC_CALLS[name](ta)
    assert ta.node.value is None
    for g, w in zip(*((got, want) if isinstance(want, tuple) else ((got,), (want,)))):
        assert isinstance(g, lt.Tensor), type(g)
        assert_eq(g, w)


def test_ufunc_at_and_out_write_tensors(engine: Any) -> None:
    t, n = lt.zeros(5), np.zeros(5)
    np.add.at(t, [0, 0, 3], 1.5)
    np.add.at(n, [0, 0, 3], 1.5)
    assert_eq(t, n)
    o = lt.zeros((4, 6))
    assert np.sin(lt.asarray(A), out=o) is o
    assert_eq(o, np.sin(A))


def test_a_twin_handing_tensors_back_to_numpy_does_not_recurse(monkeypatch: Any) -> None:
    a = lt.asarray(np.array([1.0, -3.0, 2.0]))
    assert_eq(lt.asarray(np.roots([a[0], a[1], a[2]])), np.roots([1.0, -3.0, 2.0]))
    assert np.einsum_path(a, [0], [0])[0] == ["einsum_path", (0,)]
    # any twin that calls its NumPy function on tensors gets NumPy's answer
    from lazyten import dispatch
    monkeypatch.setitem(dispatch._twins, np.sinc, lambda x: np.sinc(x))
    np.testing.assert_array_equal(np.asarray(np.sinc(a)), np.sinc(np.array([1.0, -3.0, 2.0])))


I8 = np.array([0, 5, 100], np.int8)
UFUNC_KEYWORD_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    # a Python int past the loop's range: NumPy's comparison takes it exactly
    ("less_1000", lambda a: np.less(a, 1000, dtype=bool)),
    ("equal_256", lambda a: np.equal(a, 256, signature=(None, None, bool))),
    ("greater_-1000", lambda a: np.greater(a, -1000, dtype=bool)),
    ("less_2**64", lambda a: np.less(a.astype(np.uint8), 2**64, dtype=bool)),
    # a Python bool operand with dtype=
    ("bool_operand", lambda a: np.add(a, True, dtype=np.float64)),
    # where=np.True_ is every element; a where= result is a tensor
    ("where_true", lambda a: np.add(a, 1, where=np.True_)),
    # reduceat of a vector with axis=None, vecdot with axes=
    ("reduceat_none", lambda a: np.add.reduceat(a, [0, 2, 1], axis=None)),
    ("vecdot_axes", lambda a: np.vecdot(a[:, None] * 1.0, a[:, None] * 1.0, axes=[(0,), (0,), ()])),
    ("divmod_outer", lambda a: np.divmod.outer(a, a + 1)),
]


@pytest.mark.parametrize("name,call", UFUNC_KEYWORD_CASES, ids=[c[0] for c in UFUNC_KEYWORD_CASES])
def test_ufunc_keyword_corners_are_numpys(engine: Any, name: str, call: Callable[[Any], Any]) -> None:
    want, got = call(I8), call(lt.asarray(I8))
    for g, w in zip(*((got, want) if isinstance(want, tuple) else ((got,), (want,)))):
        assert isinstance(g, lt.Tensor), type(g)
        assert_eq(g, w)


def test_eager_ufunc_calls_read_strided_operands_as_numpy(engine: Any) -> None:
    """``out=`` is NumPy's call, now, on the operand as it is laid out: a
    contiguous copy of a reversed view would take NumPy's other loop (other
    last bits for exp)."""
    a = np.random.default_rng(2).standard_normal(1000) * 3
    o, ot = np.empty(1000), lt.zeros(1000)
    np.exp(a[::-1], out=o)
    np.exp(lt.asarray(a)[::-1], out=ot)
    np.testing.assert_array_equal(ot.eval(), o)
    x = lt.asarray(np.arange(5.0))
    np.add(x[::-1], 1, out=x)                          # (its operand aliases its out)
    assert_eq(x, np.arange(5.0)[::-1] + 1)


def test_ufunc_at_checks_values_at_the_call() -> None:
    t = lt.asarray(np.array([2, 3], np.int8))
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power.at(t, [0], np.array(-1, np.int8))
    assert_eq(t, np.array([2, 3], np.int8))            # (left as it was)
