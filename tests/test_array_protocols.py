"""The array object's protocols against NumPy's: ufuncs called with tensors
(``out=``, ``where=``, ``ufunc.at``), ``__index__``, ``in``, ``@=``, DLPack,
and the array API's namespace names (``__array_namespace__``, ``bool``,
``__array_api_version__``, ``__array_namespace_info__``, ``device=``)."""

from __future__ import annotations

import array
import collections
import math

import operator
import pickle
from typing import Any

import numpy as np
import pytest
from util import assert_eq, check, public_type

import lazyten as lt


def test_ufunc_out_writes_the_tensor(engine: Any) -> None:
    """NumPy writes ``out=``: a tensor given as ``out`` takes the result as
    its new value (views write through to their base), and is returned."""
    n, t = np.arange(3.0), lt.asarray(np.arange(3.0))
    assert np.add(n, 1, out=n) is n
    assert np.add(np.arange(3.0), 1, out=t) is t
    assert_eq(t, n)
    np.multiply(n, 2, out=n)
    np.multiply(t, 2, out=t)
    assert_eq(t, n)
    nv, tv = n[1:], t[1:]
    np.negative(nv, out=nv)
    np.negative(tv, out=tv)
    assert_eq(t, n)
    q, r = np.divmod(np.arange(5), 3, out=(lt.zeros(5, np.int64), lt.zeros(5, np.int64)))
    assert_eq(q, np.arange(5) // 3)
    assert_eq(r, np.arange(5) % 3)
    i = lt.zeros(3, np.int64)
    with pytest.raises(TypeError):          # NumPy's out= casting: same_kind
        np.add(np.ones(3), 0.5, out=i)
    assert_eq(i, np.zeros(3, np.int64))


def test_ufunc_at_and_where_take_tensors(engine: Any) -> None:
    n, t = np.arange(4.0), lt.asarray(np.arange(4.0))
    np.add.at(n, [0, 0, 3], 100)
    np.add.at(t, [0, 0, 3], 100)
    assert_eq(t, n)                          # (unbuffered: index 0 twice)
    mask = lt.asarray(np.array([True, False, True, False]))
    got = np.add(t, 1, out=lt.zeros(4), where=mask)
    assert_eq(got, np.add(n, 1, out=np.zeros(4), where=np.asarray(mask)))
    assert float(np.sum(np.arange(4.0), where=t > 100)) == np.sum(np.arange(4.0), where=n > 100)
    assert float(np.add.reduce(t, axis=0, where=t > 1)) == np.add.reduce(n, axis=0, where=n > 1)


@pytest.mark.parametrize("value", [np.array(True), np.array([1]), np.array([[1, 2]]),
                                   np.array(1.0), np.array(2), np.uint8(3), np.int64(-1)])
def test_index_is_numpys(value: Any) -> None:
    check(lambda: [10, 20, 30, 40][value], lambda: [10, 20, 30, 40][lt.asarray(value)])
    check(lambda: operator.index(value), lambda: operator.index(lt.asarray(value)))


def test_in_is_any_equal(engine: Any) -> None:
    for n in (np.arange(4).reshape(2, 2), np.array(1), np.array([np.nan]), np.zeros((0,))):
        for v in (1, 7, np.nan, 0.0, None, "a", b"a", object()):
            assert (v in lt.asarray(n)) == (v in n)


NOT_NUMBERS = [None, "a", b"a", object(), Ellipsis, {1: 2}, np.datetime64("2020"),
               np.array(["a", "b", "c"]), np.array([["a"], ["b"]]), [[None], [None]],
               np.array([1, 2, 3], object), np.array([1.5, 2, None], object),
               np.array([], object), [1, "a", 2], (1, 2, 3), [True, 1, 2.0]]


@pytest.mark.parametrize("other", NOT_NUMBERS, ids=lambda o: type(o).__name__)
def test_comparisons_with_what_holds_no_numbers(engine: Any, other: Any) -> None:
    """``==`` and ``!=`` with None, strings, bytes, dates, objects or arrays
    of them: NumPy answers "different" everywhere, in the broadcast shape
    (or its broadcast error); an object array of numbers compares them."""
    n = np.arange(3)
    t = lt.asarray(n)
    for fn in (operator.eq, operator.ne):
        check(lambda: fn(n, other), lambda: fn(t, other))
        check(lambda: fn(other, n), lambda: fn(other, t))


def test_in_place_matmul_errors_in_numpys_order(engine: Any) -> None:
    """``a @= scalar``: NumPy's conversion (OverflowError) and cast
    (TypeError) come before its core-dimension ValueError."""
    for dt in (np.int8, np.uint8, np.float64):
        for o in (2.5, 300, -1, 2, np.float64(2), np.array(2.5)):
            n, t = np.zeros((2, 2), dt), lt.zeros((2, 2), dt)
            with pytest.raises(Exception) as info:
                n @= o
            with pytest.raises(public_type(info.value)):
                t @= o


def test_pickles_and_deep_copies_hold_the_value(engine: Any, tmp_path: Any) -> None:
    """A pickled tensor loads as its value, as an ndarray does (node ids and
    structure keys mean nothing elsewhere, nor beside live nodes), and a deep
    copy does not follow later writes to the user's array it read."""
    import copy
    import pickle
    import subprocess
    import sys
    arr = np.array([1.0, 2.0, 3.0])
    t = lt.asarray(arr)
    loaded = pickle.loads(pickle.dumps(t))
    deep = copy.deepcopy({"t": t})["t"]
    arr[:] = 100.0
    assert_eq(t + loaded, np.array([101.0, 102.0, 103.0]))
    assert_eq(deep, np.array([1.0, 2.0, 3.0]))
    assert_eq(loaded * 2 + t, np.array([102.0, 104.0, 106.0]))
    # another process, whose own graphs have the same structure ids
    a, b = lt.asarray(np.array([1.0, 2.0, 3.0])), lt.asarray(np.array([10.0, 20.0, 30.0]))
    (tmp_path / "e.pkl").write_bytes(pickle.dumps((a + b)[::-1]))
    script = ("import pickle, numpy as np, lazyten as lt\n"
              "x, y = lt.asarray(np.array([1., 2., 3.])), lt.asarray(np.array([10., 20., 30.]))\n"
              "f = (x - y)[::-1]; lt.compute(f); lt.compute(f)\n"
              f"e = pickle.load(open({str(tmp_path / 'e.pkl')!r}, 'rb'))\n"
              "print(lt.compute(e * 2 + f)[0].tolist())\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["[39.0,", "26.0,", "13.0]"]          # (66-27, 44-18, 22-9)
    with pytest.raises(TypeError, match="placeholder"):
        pickle.dumps(lt.placeholder((3,), np.float64) * 2)


def test_array_protocol_copy_false_refuses_a_cast(engine: Any) -> None:
    n, t = np.arange(3.0), lt.asarray(np.arange(3.0))
    for kw in ({"dtype": np.int8, "copy": False}, {"dtype": np.int8}, {"copy": False},
               {"dtype": np.float64, "copy": False}, {"copy": True}):
        check(lambda: np.asarray(n, **kw), lambda: np.asarray(t, **kw))


def test_matmul_in_place_casts_same_kind(engine: Any) -> None:
    for a, b in ((np.eye(2, dtype=np.int64), np.full((2, 2), 0.6)),
                 (np.eye(2), np.eye(2) * 1j), (np.eye(2, dtype=bool), np.eye(2, dtype=np.int8)),
                 (np.eye(2), np.full((2, 2), 3, np.int16))):
        n, t = a.copy(), lt.asarray(a)
        try:
            n @= b
        except TypeError:
            with pytest.raises(TypeError, match="same_kind"):
                t @= lt.asarray(b)
            continue
        t @= lt.asarray(b)
        assert_eq(t, n)


def test_dlpack_and_devices(engine: Any) -> None:
    t = lt.asarray(np.arange(3.0)) * 2
    assert_eq(lt.asarray(np.from_dlpack(t)), np.arange(3.0) * 2)
    assert t.__dlpack_device__() == np.arange(1.0).__dlpack_device__()
    assert t.to_device("cpu") is t and t.device == "cpu"
    with pytest.raises(ValueError, match="device"):
        t.to_device("cuda")
    for make in (lambda d: lt.zeros(2, device=d), lambda d: lt.ones_like(t, device=d),
                 lambda d: lt.arange(3, device=d), lambda d: lt.linspace(0, 1, 3, device=d),
                 lambda d: lt.full(2, 1.0, device=d), lambda d: lt.empty_like(t, device=d)):
        assert make("cpu").device == "cpu"
        with pytest.raises(ValueError, match="device"):
            make("gpu")


def test_namespace_names() -> None:
    t = lt.asarray(np.arange(3.0))
    assert t.__array_namespace__() is lt and t.__array_namespace__("2023.12") is lt
    with pytest.raises(ValueError):
        t.__array_namespace__("1999.01")
    assert lt.__array_api_version__ == "2023.12"
    assert lt.bool is np.bool_ and lt.zeros(2, dtype=lt.bool).dtype == np.bool_
    info = lt.__array_namespace_info__()
    assert info.default_device() == "cpu"
    assert info.default_dtypes()["real floating"] == np.float64


def test_descending_sort_is_stable_by_default(engine: Any) -> None:
    """The array API's default is ``stable=True``; for ``descending`` (which
    NumPy lacks) equal elements keep their order."""
    x = np.array([0, 0, 5, 5, 1, 1, 2, 2, 9, 9, 9])
    assert_eq(lt.argsort(lt.asarray(x), descending=True), np.argsort(-x, kind="stable"))
    assert_eq(lt.sort(lt.asarray(x), descending=True), np.sort(x)[::-1])


def test_ndarray_methods_numpy_has(engine: Any) -> None:
    """``conj`` of a real array is the array itself; ``real``/``imag`` can be
    assigned; ``fill``, ``tobytes``; the reductions' positional order
    ``(axis, dtype, out, keepdims)`` and the scans' ``out`` slot."""
    c = np.array([1 + 1j, 2 - 2j])
    n, t = c.copy(), lt.asarray(c)
    n.real = 5
    t.real = 5
    n.imag += 1
    t.imag += 1
    assert_eq(t, n)
    for dt in (np.bool_, np.int8, np.float32):
        x = lt.asarray(np.arange(3).astype(dt))
        assert x.conj() is x and x.conjugate() is x
    r, nr = lt.asarray(np.arange(3.0)), np.arange(3.0)
    r[1:].conj()[0] = 9
    nr[1:].conj()[0] = 9
    assert_eq(r, nr)
    for value, dt in ((2.5, np.float64), (1.5, np.int16), (True, np.int8), (-1, np.float32)):
        f, nf = lt.zeros(3, dt), np.zeros(3, dt)
        f.fill(value)
        nf.fill(value)
        assert_eq(f, nf)
        assert f.tobytes() == nf.tobytes()
    m = np.arange(6.0).reshape(2, 3)
    tm = lt.asarray(m)
    for name in ("sum", "prod", "mean"):
        check(lambda: getattr(m, name)(0, None, None, True),
              lambda: getattr(tm, name)(0, None, None, True))
        check(lambda: getattr(np, name)(m, 1, np.float32, None, True),
              lambda: getattr(lt, name)(tm, 1, np.float32, None, True))
    for name in ("cumsum", "cumprod"):
        check(lambda: getattr(m, name)(1, None, None), lambda: getattr(tm, name)(1, None, None))


def test_format_is_numpys(engine: Any) -> None:
    for a in (np.arange(3.0), np.array(2.5), np.array(7), np.zeros((2, 0))):
        for spec in ("", ".2f", ">20"):
            try:
                want = format(a, spec)
            except TypeError:
                with pytest.raises(TypeError):
                    format(lt.asarray(a), spec)
                continue
            assert format(lt.asarray(a), spec) == want


def test_take_and_put_cast_bool_indices(engine: Any) -> None:
    """``np.take``/``put`` cast bool indices to intp (True is index 1): they
    are positions here, not a mask."""
    x = np.arange(4.0)
    for idx in ([True, False], np.array([True, False]), np.array([[True], [True]])):
        check(lambda: np.take(x, idx), lambda: lt.take(lt.asarray(x), idx))
        check(lambda: np.take(x, idx), lambda: lt.take(lt.asarray(x), lt.asarray(np.asarray(idx))))
        n, t = x.copy(), lt.asarray(x)
        n.put(idx, [7, 8])
        t.put(idx, [7, 8])
        assert_eq(t, n)


def test_numpys_exception_types_for_bool_powers_and_vector_matrix_norms(engine: Any) -> None:
    for o in (-1, 2, True):
        b, t = np.array([True, False]), lt.asarray(np.array([True, False]))
        with pytest.raises(TypeError):      # the cast back to bool, first
            b **= o
        with pytest.raises(TypeError):
            t **= o
    with pytest.raises(np.exceptions.AxisError):
        np.linalg.matrix_norm(np.ones(3))
    with pytest.raises(np.exceptions.AxisError):
        lt.linalg.matrix_norm(lt.ones(3))


_X = np.arange(24.0).reshape(4, 6) - 7.5
_X[1, 2] = np.nan
OUT_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    *[(n, (), {"axis": 0}) for n in ("sum", "prod", "mean", "var", "std", "min", "max", "any",
                                     "all", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
                                     "nanmin", "nanmax", "ptp", "median", "nanmedian")],
    *[(n, (), {"axis": 1}) for n in ("argmin", "argmax", "nanargmin", "nanargmax")],
    *[(n, (), {"axis": 1}) for n in ("cumsum", "cumprod", "nancumsum", "nancumprod")],
    *[(n, (0.3,), {"axis": 0}) for n in ("quantile", "nanquantile")],
    *[(n, (30,), {"axis": 0}) for n in ("percentile", "nanpercentile")],
    ("take", ([1, 5, 7],), {}), ("isposinf", (), {}), ("isneginf", (), {}),
    ("sum", (), {"axis": 1, "keepdims": True, "where": _X > 0, "initial": 1.0}),
    ("var", (), {"axis": 1, "ddof": 1}), ("cumsum", (), {}),
]


@pytest.mark.parametrize("name,args,kw", OUT_CALLS, ids=lambda v: v if isinstance(v, str) else "")
def test_out_is_numpys_own_call(engine: Any, name: str, args: tuple[Any, ...],
                                kw: dict[str, Any]) -> None:
    """``out=``: lazyten runs NumPy's function now and it writes ``out``
    (its casting, its accumulator in ``out``'s dtype), given by name or
    position, as an ndarray (returned) or a tensor (which takes the value);
    the same through ``np.<name>(tensor, out=...)`` and the method."""
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(_X, *args, **kw)
    for dtype in {expected.dtype, np.dtype(np.float32)}:
        n_out, l_out = np.zeros(expected.shape, dtype), np.zeros(expected.shape, dtype)
        with np.errstate(all="ignore"):
            try:
                getattr(np, name)(_X, *args, out=n_out, **kw)
            except TypeError:                 # (NumPy's casting error for this out)
                with pytest.raises(TypeError):
                    getattr(lt, name)(lt.asarray(_X), *args, out=l_out, **kw)
                continue
            assert getattr(lt, name)(lt.asarray(_X), *args, out=l_out, **kw) is l_out
            assert l_out.tobytes() == n_out.tobytes()
            t_out = lt.zeros(expected.shape, dtype)
            assert getattr(lt, name)(lt.asarray(_X), *args, out=t_out, **kw) is t_out
            assert_eq(t_out, n_out)
            if hasattr(np.ndarray, name) and name != "ptp":
                via = np.zeros(expected.shape, dtype)
                getattr(np, name)(lt.asarray(_X), *args, out=via, **kw)
                assert via.tobytes() == n_out.tobytes()


def test_out_by_position(engine: Any) -> None:
    n_out, l_out = np.zeros(6), np.zeros(6)
    np.sum(_X, 0, None, n_out)
    assert lt.sum(lt.asarray(_X), 0, None, l_out) is l_out
    assert l_out.tobytes() == n_out.tobytes()
    with pytest.raises(ValueError):           # NumPy's shape error, from its call
        lt.sum(lt.asarray(_X), axis=0, out=np.zeros(4))


def _ufunc_ops() -> list[str]:
    from lazyten.functions import ELEMENTWISE
    from lazyten.graph.ops import REGISTRY
    return sorted(n for n in ELEMENTWISE if n in REGISTRY and REGISTRY[n].ufunc is not None)


@pytest.mark.parametrize("name", _ufunc_ops())
def test_ufunc_keywords_of_the_elementwise_functions(engine: Any, name: str) -> None:
    """``lt.add(a, b, dtype=..., casting=..., out=..., where=...)``: NumPy's
    loop for ``dtype=``/``signature=`` (lazily, inputs cast to it), NumPy's
    own call for ``out=`` (by name or position) and ``where=``."""
    from lazyten.graph.ops import REGISTRY
    spec = REGISTRY[name]
    ufunc, arity = spec.ufunc, spec.arity or 1
    assert ufunc is not None
    xs = [np.array([0.5, -1.5, 2.0, 3.0]), np.array([1, 2, 0, 3], np.int8),
          np.array([True, False, True, False])][:arity]
    if arity == 1:
        xs = [np.array([0.5, -1.5, 2.0, 3.0])]
    mask = np.array([True, False, True, True])
    calls: list[dict[str, Any]] = [{"dtype": np.float32}, {"dtype": np.int16},
                                   {"dtype": np.float32, "casting": "unsafe"},
                                   {"dtype": np.float64, "casting": "safe"},
                                   {"order": "C", "subok": True}, {"order": "f"},
                                   {"order": None}, {"casting": "no"}, {"casting": "equiv"},
                                   {"casting": "unsafe"}, {"casting": "bogus"}]
    for kw in calls:
        with np.errstate(all="ignore"):
            check(lambda: ufunc(*xs, **kw),
                  lambda: getattr(lt, name)(*[lt.asarray(x) for x in xs], **kw))
    with np.errstate(all="ignore"):
        try:
            expected = ufunc(*xs)
        except TypeError:
            return
        if ufunc.nout != 1:
            return
        for out_by_position in (False, True):
            n_out, l_out = np.zeros_like(expected), np.zeros_like(expected)
            args_n = (*xs, n_out) if out_by_position else xs
            args_l = (*[lt.asarray(x) for x in xs], l_out) if out_by_position else xs
            ufunc(*args_n, **({} if out_by_position else {"out": n_out}), where=mask)
            got = getattr(lt, name)(*args_l, **({} if out_by_position else {"out": l_out}),
                                    where=mask)
            assert got is l_out
            assert l_out.tobytes() == n_out.tobytes()
    with pytest.raises(TypeError, match="invalid keyword"):
        getattr(lt, name)(*xs, bogus=1)


def test_ufunc_keywords_with_python_numbers_and_layouts(engine: Any) -> None:
    """A Python number is converted to the loop's input dtype that
    ``dtype=``/``signature=`` pick (2.5 is 2 in an int64 loop: it stayed a
    float); NumPy's errors for a number the casting rule refuses (a crash
    of NumPy's ``resolve_dtypes`` before: its call is probed first);
    ``sig=`` is ``signature=``; an explicit C or F order lays the result
    out so (a transposed operand gave an F-ordered one)."""
    a = np.array([1, 2, 3])
    i8 = np.array([1, 2], np.int8)
    cases: list[tuple[Any, tuple[Any, ...], dict[str, Any]]] = [
        (np.multiply, (a, 2.5), {"dtype": "int64", "casting": "unsafe"}),
        (np.multiply, (2.5, a), {"signature": "ll->l", "casting": "unsafe"}),
        (np.bitwise_and, (i8, 2), {"dtype": bool, "casting": "unsafe"}),
        (np.add, (i8, 3), {"dtype": "int8", "casting": "equiv"}),
        (np.add, (i8, 300), {"dtype": "u1"}),
        (np.add, (i8, 3), {"dtype": "int8"}),
        (np.add, (np.array([1.0, 2.0]), 1), {"sig": "dd->d"}),
        (np.add, (np.array([1.0, 2.0]), 1), {"sig": "dd->d", "signature": "dd->d"}),
        (np.power, (a, -1.5), {"dtype": np.float32}),
    ]
    for ufunc, args, kw in cases:
        ours = getattr(lt, ufunc.__name__)
        check(lambda: ufunc(*args, **kw),
              lambda: ours(*[lt.asarray(x) if isinstance(x, np.ndarray) else x
                             for x in args], **kw))
    x = np.arange(6.0).reshape(2, 3)
    for order in ("C", "F", "c"):
        got = lt.add(lt.asarray(x).T, 1, order=order).eval()
        want = np.add(x.T, 1, order=order)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (want.flags.c_contiguous, want.flags.f_contiguous)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["divmod", "modf", "frexp"])
def test_ufuncs_of_two_outputs_take_numpys_keywords(engine: Any, name: str) -> None:
    ufunc = getattr(np, name)
    ours = getattr(lt, name)
    xs = [np.array([7.5, -7.0, 0.25])] + ([np.array([2.0, 3.0, -0.5])] if ufunc.nin == 2 else [])
    ts = [lt.asarray(x) for x in xs]
    outs = (np.zeros(3), np.zeros(3, np.int32 if name == "frexp" else np.float64))
    mine = (outs[0].copy(), outs[1].copy())
    want = ufunc(*xs, out=outs, where=[True, False, True])
    got = ours(*ts, out=mine, where=[True, False, True])
    assert got[0] is mine[0] and got[1] is mine[1]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w, strict=True)
    t_outs = (lt.zeros(3), lt.zeros(3, np.int32 if name == "frexp" else np.float64))
    got = ours(*ts, *t_outs)                                  # outputs by position
    assert got[0] is t_outs[0] and got[1] is t_outs[1]
    for g, w in zip(got, ufunc(*xs)):
        np.testing.assert_array_equal(g.eval(), w, strict=True)
    if name != "frexp":
        for g, w in zip(ours(*ts, dtype=np.float32), ufunc(*xs, dtype=np.float32)):
            np.testing.assert_array_equal(g.eval(), w, strict=True)
    with pytest.raises(TypeError, match="invalid keyword"):
        ours(*ts, bogus=1)


def test_flatten_copy_array_and_broadcast_arrays_forms(engine: Any) -> None:
    x = np.arange(6.0).reshape(2, 3)
    for a in (x, np.asfortranarray(x), x.T, x[:, ::2]):
        for order in "CFAK":
            check(lambda: a.flatten(order), lambda: lt.asarray(a).flatten(order))
            check(lambda: a.copy(order), lambda: lt.asarray(a).copy(order))
    for v in (5, [1, 2], np.ones((2, 3)), lt.ones((2, 3))):
        for ndmin in (0, 1, 2, 3):
            check(lambda: np.array(np.asarray(v), ndmin=ndmin), lambda: lt.array(v, ndmin=ndmin))
    got = lt.broadcast_arrays(lt.asarray(x), 1.0)
    assert isinstance(got, tuple) and isinstance(np.broadcast_arrays(x, 1.0), tuple)
    with pytest.raises(ValueError):
        lt.asarray(x).flatten("X")


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=",
                                "<<=", ">>="])
def test_in_place_operators_on_an_element_are_numpys_scalar(engine: Any, op: str) -> None:
    """``t[i] op= v`` with an int per axis: NumPy's ``a[i]`` is a scalar, so
    the new value is stored back by ``__setitem__`` with its cast (no
    same_kind error), and ``x = t[i]; x op= v`` leaves ``t`` alone."""
    for dt in (np.int64, np.int8, np.uint8, np.bool_, np.float32):
        for v in (1.5, 2, True, 300, -1):
            a = np.array([[3, 2], [1, 0]], dt)
            t = lt.asarray(a.copy())
            with np.errstate(all="ignore"):
                try:
                    exec(f"a[0, 1] {op} v")
                except Exception as e:  # noqa: BLE001 - NumPy's error, mirrored
                    with pytest.raises(public_type(e)):
                        exec(f"t[0, 1] {op} v")
                    continue
                exec(f"t[0, 1] {op} v")
            assert_eq(t, a)
    t = lt.asarray(np.arange(3))
    x = t[0]
    x += 5
    assert_eq(t, np.arange(3))
    # views of an element (NumPy's scalar) are new arrays: writes to them
    # reach neither ``t`` nor the element
    e = t[1]
    check(lambda: np.arange(3)[1].reshape(()), lambda: e.reshape(()))
    check(lambda: np.arange(3)[1][None], lambda: e[None])
    ev = e[None]
    ev[0] = 7
    assert_eq(t, np.arange(3))
    assert_eq(e, np.arange(3)[1])
    assert_eq(ev, np.array([7]))
    # np.copy of an element, or t[...] of a 0-d tensor, is a 0-d array: in
    # place (a same_kind error); an element's own copy and a product of one
    # are scalars: new values
    for m in (np, lt):
        t = m.asarray(np.arange(3))
        zero_ds = (m.copy(t[0]), m.asarray(np.array(3))[...], m.asarray(np.array(3))[()] * 1,
                   t[0].copy())
        for k, zero_d in enumerate(zero_ds):
            if k < 2:
                with pytest.raises(TypeError, match="same_kind"):
                    zero_d += 1.5
            else:
                zero_d += 1.5
                assert zero_d.dtype == np.float64 and float(zero_d) == (4.5, 1.5)[k - 2]


def test_isdtype_of_a_tensor_is_numpys_type_error() -> None:
    with pytest.raises(TypeError, match="NumPy dtype"):
        lt.isdtype(lt.ones(3), "real floating")
    assert lt.isdtype(lt.ones(3).dtype, "real floating")


def test_flat_reads_and_writes_as_numpys(engine: Any) -> None:
    """``t.flat``: C-order reads, iteration and writes (values repeated as
    ``put`` repeats them), through strided and transposed tensors and views;
    NumPy's own ``fill_diagonal`` works on a tensor through it."""
    x = np.arange(12.0).reshape(3, 4)
    for base in (x, x.T, x[:, ::2]):
        for idx, v in ((3, 99.0), (slice(None, None, 2), [1.0, 2.0]), ([0, 5], -1.0),
                       (Ellipsis, 7.0), (np.arange(base.size) < 3, 5.0)):
            n, t = base.copy(), lt.asarray(base.copy())
            n.flat[idx] = v
            t.flat[idx] = v
            assert_eq(t, n)
            check(lambda: n.flat[idx], lambda: t.flat[idx])
        assert list(lt.asarray(base).flat) == list(base.flat)
        assert len(lt.asarray(base).flat) == base.size
    n, t = np.zeros((3, 3)), lt.zeros((3, 3))
    np.fill_diagonal(n, 5)
    np.fill_diagonal(t, 5)
    assert_eq(t, n)
    n, t = np.zeros((2, 2)), lt.zeros((2, 2))
    n.flat = [1, 2]
    t.flat = [1, 2]
    assert_eq(t, n)
    v = lt.zeros((2, 3))
    v[:, 1:].flat[0] = 9
    assert_eq(v, np.array([[0.0, 9.0, 0.0], [0.0, 0.0, 0.0]]))


def test_flat_reads_are_copies_and_single_items_take_one_value(engine: Any) -> None:
    """NumPy's ``flat[idx]`` is a copy, of a slice too: a write to the
    tensor after it, or to it, does not reach the other.  A write of one
    item checks the index's bounds, then takes one value (a sequence of any
    length: NumPy's ValueError, where the first value was written); a 0-d
    index is refused."""
    x = np.arange(12.0).reshape(3, 4)
    for base in (x, x.T):
        for idx in (slice(1, 5), slice(None, None, 3), [1, 2], 2):
            n, t = base.copy(), lt.asarray(base.copy())
            got, want = t.flat[idx], np.asarray(n.flat[idx]).copy()
            t[0, 1] = -1.0
            t[2, 0] = -2.0
            assert_eq(got, want)
            if got.ndim:
                got[0] = 99.0
                assert_eq(t, _written(base, {(0, 1): -1.0, (2, 0): -2.0}))
    n, t = np.arange(6), lt.asarray(np.arange(6))
    for idx, v in ((3, [100, 200, 300]), (3, [5]), (3, np.array([5])), (3, []), (2, [[4]]),
                   (12, []), (-7, 1), ((), [7, 8]), ((), 5)):
        with pytest.raises(Exception) as want:
            n.flat[idx] = v
        with pytest.raises(type(want.value)):
            t.flat[idx] = v
    for idx, v in ((3, np.array(5)), (-1, 7), ((1,), 5), (3, 5.5), (Ellipsis, 4),
                   (slice(1, 3), []), ([1, 2], [])):
        n.flat[idx] = v
        t.flat[idx] = v
        assert_eq(t, n)
    assert_eq(t.flat.copy(), n.flat.copy())
    assert t.flat.base is t


def _written(base: np.ndarray, writes: dict[tuple[int, int], float]) -> np.ndarray:
    out = base.copy()
    for k, v in writes.items():
        out[k] = v
    return out


@pytest.mark.parametrize("idx", [None, (0, 1), [True, False], np.True_, (slice(None), None),
                                 np.ones((2, 3), bool)], ids=repr)
def test_flat_refuses_what_numpys_flat_iterator_refuses(idx: Any) -> None:
    n, t = np.arange(6.0).reshape(2, 3), lt.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(IndexError):
        n.flat[idx]
    with pytest.raises(IndexError):
        t.flat[idx]
    with pytest.raises(IndexError):
        t.flat[idx] = 1.0


@pytest.mark.parametrize("shape,new", [((6,), 8), ((6,), (2, 2)), ((2, 3), (3, 3)), ((6,), 0),
                                       ((2, 3), [6]), ((2, 3), (1, 6))], ids=str)
def test_resize_in_place_as_numpy(shape: tuple[int, ...], new: Any) -> None:
    """``t.resize``: the data read in C order, cut or followed by zeros,
    in place; graphs built before keep the old value."""
    a = np.arange(float(np.prod(shape))).reshape(shape)
    want = a.copy()
    want.resize(new)
    t = lt.asarray(a) * 1
    before = t + 0
    t.resize(new)
    got = t.eval()
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(before.eval(), a)


def test_resize_refuses_views_and_other_references() -> None:
    t = lt.arange(6.0)
    other = t
    with pytest.raises(ValueError, match="referenced"):
        t.resize(8)
    del other
    t.resize(8)
    v = t[:2]
    with pytest.raises(ValueError, match="referenced"):
        t.resize(3)                 # a view of it would read the resized data
    with pytest.raises(ValueError, match="own its data"):
        v.resize(1)
    t.resize(3, refcheck=False)
    np.testing.assert_array_equal(t.eval(), [0.0, 1.0, 2.0])
    with pytest.raises(ValueError):
        t.resize(-1)
    t.resize()                      # no shape: nothing changes (NumPy's)
    assert t.shape == (3,)


def test_tofile_dump_dumps_byteswap(tmp_path: Any) -> None:
    a = np.array([1, 256, -2], np.int16)
    t = lt.asarray(a) * 1
    p = tmp_path / "x.bin"
    t.tofile(str(p))
    np.testing.assert_array_equal(np.fromfile(p, np.int16), a)
    t.tofile(str(p), sep=",")
    assert p.read_text() == "1,256,-2"
    np.testing.assert_array_equal(pickle.loads(t.dumps()).eval(), a)
    t.dump(str(tmp_path / "t.pkl"))
    with open(tmp_path / "t.pkl", "rb") as f:
        np.testing.assert_array_equal(pickle.load(f).eval(), a)
    np.testing.assert_array_equal(t.byteswap().eval(), a.byteswap())
    u = lt.asarray(a.copy())
    assert u.byteswap(inplace=True) is u
    np.testing.assert_array_equal(u.eval(), a.byteswap())


def test_equality_with_fractions_and_decimals_is_refused_not_guessed(engine: Any) -> None:
    """NumPy compares a Fraction or a Decimal exactly, as an object; lazyten
    has no object dtype.  ``==``, ``!=`` and ``in`` answered "different
    everywhere" (``arange(3) == Fraction(1)`` all False): a TypeError now.
    None, strings and object arrays of numbers and non-numbers still
    compare as NumPy does."""
    import decimal
    import fractions
    t = lt.arange(3)
    for other in (fractions.Fraction(1), decimal.Decimal(1),
                  np.array([fractions.Fraction(1), 2], dtype=object)):
        for compare in (lambda: t == other, lambda: t != other):
            with pytest.raises(TypeError, match="no object dtype"):
                compare()
    with pytest.raises(TypeError, match="no object dtype"):
        fractions.Fraction(1) in t  # noqa: B015
    a = np.arange(3)
    for other in (None, "a", [1, None, 2]):
        np.testing.assert_array_equal((t == other).eval(), a == other)
        np.testing.assert_array_equal((t != other).eval(), a != other)


def test_np_matrix_products_are_refused_not_made_elementwise(engine: Any) -> None:
    """``np.matrix``'s ``*`` is a matrix product, which its operator leaves to
    the tensor (NotImplemented): the tensor multiplied elementwise, other
    values silently.  Refused now, in either order and in place; ``+`` and
    ``-`` stay elementwise (as for a matrix), with NumPy's values."""
    M = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    S = np.arange(4.0).reshape(2, 2)
    t = lt.asarray(S)
    for f in (lambda: M * t, lambda: t * M, lambda: t ** M):
        with pytest.raises(TypeError, match="np.matrix"):
            f()
    m = M.copy()
    with pytest.raises(TypeError, match="np.matrix"):
        m *= t
    np.testing.assert_array_equal(np.asarray(t + M), np.asarray(S + M))
    np.testing.assert_array_equal(np.asarray(M - t), np.asarray(M - S))


def test_elements_and_0d_results_act_as_numpys_scalars() -> None:
    """An element read (``t[3]``) is NumPy's scalar: it repeats Python
    sequences; a 0-d result (a reduction's, NumPy's scalar too) takes
    round() and math.trunc/floor/ceil. A 0-d tensor that is no element is
    a 0-d array, whose ``[0] * a`` is elementwise, as NumPy's."""
    x = np.arange(5)
    t = lt.asarray(x)
    Pair = collections.namedtuple("Pair", "a b")

    class Row(list):                                     # (subclasses repeat too)
        pass
    for seq in ([0], (1, 2), "-", b"ab", Pair(1, 2), Row([7]), bytearray(b"z"),
                array.array("d", [1.5])):
        assert seq * t[3] == seq * x[3]
        assert t[2] * seq == x[2] * seq
    assert_eq([0] * lt.asarray(np.array(3)), [0] * np.array(3))
    assert [0] * t.sum() == [0] * x.sum()               # (NumPy's sum is a scalar)
    with pytest.raises(TypeError):
        [0] * (t > 0)[1]                                 # (a bool scalar repeats nothing)
    f = lt.asarray(np.array([1.26, 2.0, -3.5]))
    fn = np.array([1.26, 2.0, -3.5])
    for got, want in ((round(f.sum(), 1), round(fn.sum(), 1)), (round(f[0]), round(fn[0])),
                      (math.trunc(f[2]), math.trunc(fn[2])), (math.floor(f[2]), math.floor(fn[2])),
                      (math.ceil(f.mean()), math.ceil(fn.mean())),
                      (round(t[4], -1), round(x[4], -1))):
        assert got == want and type(got) is type(want)
    with pytest.raises(TypeError):
        round(f)


def test_shape_and_dtype_are_not_set_in_place() -> None:
    # NumPy 2.5 deprecates ``a.shape = s`` and ``a.dtype = d``: a tensor
    # refuses both and names the view that replaces each; the data is unchanged.
    t = lt.asarray(np.arange(12.0))
    with pytest.raises(AttributeError, match=r"t\.reshape\(\(3, 4\), copy=False\)"):
        t.shape = (3, 4)
    with pytest.raises(AttributeError, match=r"t\.view\('int64'\)"):
        t.dtype = np.int64
    assert t.shape == (12,) and t.dtype == np.float64
    np.testing.assert_array_equal(t.eval(), np.arange(12.0))


def test_numpys_type_names_and_print_functions_are_in_the_namespace() -> None:
    # Code moving from ``np.`` to ``lt.`` keeps NumPy's scalar types, abstract
    # types, dtype helpers and printing functions (they were missing).
    for name in ("intp", "uintp", "int_", "uint", "double", "single", "half", "cdouble",
                 "longdouble", "floating", "integer", "number", "dtype", "issubdtype"):
        assert getattr(lt, name) is getattr(np, name), name
    t = lt.asarray(np.arange(4.0)) / 3
    assert lt.issubdtype(t.dtype, lt.floating) and not lt.issubdtype(t.dtype, lt.integer)
    with lt.printoptions(precision=2):
        assert str(t) == str(np.arange(4.0) / 3) == lt.array_str(t)
    assert lt.array2string(t) == np.array2string(np.arange(4.0) / 3)
    assert lt.array_repr(t) == np.array_repr(np.arange(4.0) / 3)
