"""The array object's protocols against NumPy's: ufuncs called with tensors
(``out=``, ``where=``, ``ufunc.at``), ``__index__``, ``in``, ``@=``, DLPack,
and the array API's namespace names (``__array_namespace__``, ``bool``,
``__array_api_version__``, ``__array_namespace_info__``, ``device=``)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pytest
from util import assert_eq, check

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
        for v in (1, 7, np.nan, 0.0):
            assert (v in lt.asarray(n)) == (v in n)


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
