"""Window functions (``lazyten/windows.py``), ``packbits``/``unpackbits``
(``bits.py``), ``vectorize``/``apply_over_axes`` (``functional.py``),
``iscomplexobj``/``isrealobj``/``asarray_chkfinite`` (``typecheck.py``) and
``copyto`` (``copying.py``) against NumPy: bits, shapes and dtypes (inferred
too), NumPy's exceptions; with the optimizer on and off."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.bits import packbits, unpackbits
from lazyten.copying import copyto
from lazyten.functional import apply_over_axes, vectorize
from lazyten.typecheck import asarray_chkfinite, iscomplexobj, isrealobj
from lazyten.windows import bartlett, blackman, hamming, hanning, kaiser
from tests.util import check, same_bits


def _same(got: Any, exp: Any) -> None:
    assert isinstance(got, lt.Tensor), type(got)
    shape, dtype = got.shape, got.dtype
    v = got.eval()
    assert (v.shape, v.dtype) == (shape, dtype)
    same_bits(v, np.asarray(exp))


# ------------------------------------------------------------------ windows

WINDOWS = [(bartlett, np.bartlett), (blackman, np.blackman), (hamming, np.hamming),
           (hanning, np.hanning)]


@pytest.mark.parametrize("fns", WINDOWS, ids=[f.__name__ for f, _ in WINDOWS])
@pytest.mark.parametrize("M", [-1, 0, 1, 2, 3, 10, 51, 256, 7.0, np.float32(6), True])
def test_window(engine: Any, fns: Any, M: Any) -> None:
    ours, theirs = fns
    _same(ours(M), theirs(M))


@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 51])
@pytest.mark.parametrize("beta", [0, 0.5, 5, 14.0, np.float32(8.6)])
def test_kaiser(engine: Any, M: int, beta: Any) -> None:
    _same(kaiser(M, beta), np.kaiser(M, beta))


def test_windows_are_lazy() -> None:
    w = hanning(64)
    assert isinstance(w, lt.Tensor) and w.shape == (64,) and w.dtype == np.float64
    _same(w * lt.asarray(np.arange(64.0)), np.hanning(64) * np.arange(64.0))


# ------------------------------------------------------------------ packbits / unpackbits

_rng = np.random.default_rng(0)
PACK_INPUTS = [np.array(1), np.array([1, 0, 2, -1]), _rng.integers(-2, 3, (3, 10)),
               _rng.integers(0, 2, (4, 5, 17)).astype(bool), np.zeros((0, 3), np.uint8),
               _rng.integers(0, 255, (2, 3), dtype=np.uint16), [True, False, True]]


@pytest.mark.parametrize("a", PACK_INPUTS, ids=range(len(PACK_INPUTS)))
@pytest.mark.parametrize("axis", [None, 0, -1, 1, 3])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(engine: Any, a: Any, axis: Any, bitorder: str) -> None:
    check(lambda: np.packbits(a, axis=axis, bitorder=bitorder),
          lambda: packbits(lt.asarray(a), axis=axis, bitorder=bitorder))


UNPACK_INPUTS = [np.array(3, np.uint8), _rng.integers(0, 256, (3, 4), dtype=np.uint8),
                 _rng.integers(0, 256, (2, 3, 2), dtype=np.uint8), np.zeros((0, 2), np.uint8)]


@pytest.mark.parametrize("a", UNPACK_INPUTS, ids=range(len(UNPACK_INPUTS)))
@pytest.mark.parametrize("axis", [None, 0, -1, 1])
@pytest.mark.parametrize("count", [None, 0, 3, 8, 20, -1, -8, -17])
def test_unpackbits(engine: Any, a: Any, axis: Any, count: Any) -> None:
    if a.size == 0 and count is not None and count > 0:
        # NumPy pads an empty input's bits with uninitialized memory
        # (its values vary from run to run); lazyten's are zeros
        got = unpackbits(lt.asarray(a), axis=axis, count=count)
        exp = np.unpackbits(a, axis=axis, count=count)
        assert (got.shape, got.dtype) == (exp.shape, exp.dtype)
        assert not got.eval().any()
        return
    for bitorder in ("big", "little"):
        check(lambda: np.unpackbits(a, axis=axis, count=count, bitorder=bitorder),
              lambda: unpackbits(lt.asarray(a), axis=axis, count=count, bitorder=bitorder))


def test_bits_errors() -> None:
    check(lambda: np.packbits(np.array([1.0])), lambda: packbits(lt.asarray([1.0])))
    check(lambda: np.packbits([1, 0], bitorder="x"), lambda: packbits([1, 0], bitorder="x"))
    check(lambda: np.unpackbits(np.array([1])), lambda: unpackbits(lt.asarray([1])))
    check(lambda: np.packbits([1], axis=1.0), lambda: packbits([1], axis=1.0))


def test_bits_round_trip(engine: Any) -> None:
    a = _rng.integers(0, 2, (5, 13)).astype(bool)
    t = unpackbits(packbits(lt.asarray(a), axis=1), axis=1, count=13)
    _same(t, a.astype(np.uint8))


# ------------------------------------------------------------------ type tests, chkfinite

def test_type_tests() -> None:
    for v in ([1, 2], [1j], np.ones(2, np.complex64), np.ones(2, np.float16), 1j, 1.0, True):
        assert iscomplexobj(lt.asarray(v)) is np.iscomplexobj(np.asarray(v))
        assert isrealobj(lt.asarray(v)) is np.isrealobj(np.asarray(v))
        assert iscomplexobj(v) is np.iscomplexobj(v)
        assert isrealobj(v) is np.isrealobj(v)
    # the dtype alone: a placeholder has no values
    assert iscomplexobj(lt.placeholder((2,), np.complex128))


@pytest.mark.parametrize("a", [[1.0, 2.0], [1, 2], [1.0, np.nan], [np.inf], [1j, np.nan * 1j],
                               np.float32([1, -np.inf]), []], ids=range(7))
def test_asarray_chkfinite(engine: Any, a: Any) -> None:
    check(lambda: np.asarray_chkfinite(a), lambda: asarray_chkfinite(lt.asarray(a)))
    check(lambda: np.asarray_chkfinite(a, dtype=np.float32),
          lambda: asarray_chkfinite(a, dtype=np.float32))


def test_asarray_chkfinite_computes_its_input_once(engine: Any) -> None:
    """The check is computed now on a computed input's cached value, which
    the lazy result then reads: the expression below it runs once.  A user's
    array is checked as it is (not copied, not cached)."""
    a = np.arange(4.0)
    t = lt.asarray(a) * 2
    r = asarray_chkfinite(t)
    assert t.node.value is not None and r.node is t.node
    np.testing.assert_array_equal(r.eval(), a * 2)
    u = asarray_chkfinite(lt.asarray(a))
    assert u.node.op.kind == "source" and u.node.value is a
    v = lt.asarray(a)[::-1]                         # a view: never cached
    assert asarray_chkfinite(v).node.value is None


# ------------------------------------------------------------------ apply_over_axes, vectorize

@pytest.mark.parametrize("axes", [0, -1, [0, 2], (1,), [2, 0, 1]])
def test_apply_over_axes(engine: Any, axes: Any) -> None:
    a = np.arange(24.0).reshape(2, 3, 4)
    _same(apply_over_axes(lt.sum, lt.asarray(a), axes), np.apply_over_axes(np.sum, a, axes))
    _same(apply_over_axes(lambda t, ax: lt.max(t, axis=ax, keepdims=True), lt.asarray(a), axes),
          np.apply_over_axes(np.max, a, axes))
    bad = lambda t, ax: lt.sum(t)  # noqa: E731
    check(lambda: np.apply_over_axes(lambda x, ax: np.sum(x), a, axes),
          lambda: apply_over_axes(bad, lt.asarray(a), axes))


def test_vectorize(engine: Any) -> None:
    def fn(a: Any, b: Any) -> Any:
        return a - b if a > b else a + b

    x = np.array([1, 2, 3, 4])
    _same(vectorize(fn)(lt.asarray(x), 2), np.vectorize(fn)(x, 2))
    _same(vectorize(fn, otypes=[np.float32])(lt.asarray(x) * 2, lt.asarray(3)),
          np.vectorize(fn, otypes=[np.float32])(x * 2, 3))
    _same(vectorize(fn)(lt.asarray(x), b=lt.asarray([[1], [3]])),
          np.vectorize(fn)(x, b=np.array([[1], [3]])))
    # excluded: passed to the function as given
    g = vectorize(lambda v, p: np.polyval(p, v), excluded={"p", 1})
    _same(g(lt.asarray([1.0, 2.0]), p=[1, 2, 3]), np.polyval([1, 2, 3], [1.0, 2.0]))
    _same(g(lt.asarray([1.0, 2.0]), [1, 2, 3]), np.polyval([1, 2, 3], [1.0, 2.0]))
    # several outputs, a signature, a 0-d call
    two = vectorize(lambda a: (a, a * 2.5))(lt.arange(3))
    assert isinstance(two, tuple)
    _same(two[1], np.arange(3) * 2.5)
    conv = vectorize(np.convolve, signature="(n),(m)->(k)")
    _same(conv(lt.asarray(np.eye(3)), lt.asarray([1, 2, 1])),
          np.vectorize(np.convolve, signature="(n),(m)->(k)")(np.eye(3), [1, 2, 1]))
    _same(vectorize(lambda a: a + 1)(3), np.vectorize(lambda a: a + 1)(3))


def test_vectorize_decorator_and_attributes() -> None:
    @vectorize(otypes=[float])
    def half(x: Any) -> Any:
        """Half of x."""
        return x / 2

    assert isinstance(half, np.vectorize) and half.__name__ == "half"
    assert half.__doc__ == "Half of x." and half.otypes == [np.dtype(float)]
    _same(half(lt.asarray([1, 2])), np.array([0.5, 1.0]))
    with pytest.raises(TypeError):
        vectorize(3)
    with pytest.raises(ValueError):
        vectorize(abs, otypes="?q!")


# ------------------------------------------------------------------ copyto

COPY_CASES = [
    (np.zeros(3, np.int8), 300, {}), (np.zeros(3, np.int8), 1.5, {}),
    (np.zeros(3, np.int8), np.array([1.5]), {}),
    (np.zeros(3, np.int8), [1, 2, 3], {"where": [1, 0, 1]}),
    (np.zeros(3, np.int8), [1, 2], {}), (np.zeros(3, np.int8), 5, {"casting": "bogus"}),
    (np.zeros(3), 5.0, {"casting": None}),
    (np.zeros(3, np.int8), 2, {"where": np.array([[True]])}),
    (np.zeros((2, 3)), [[[1.0, 2, 3]]], {}),
    (np.zeros((2, 3)), np.float32(2), {"where": [True, False, True]}),
    (np.zeros((2, 3), complex), 1j, {}), (np.zeros(3, np.int8), np.int64(5), {"casting": "safe"}),
    (np.zeros(3, np.int8), 5, {"casting": "safe"}),
    (np.zeros(3, np.int16), np.array([1, 2, 3], np.int8), {"casting": "safe"}),
    (np.zeros(3, np.int16), np.array([1, 2, 3], np.int32), {"casting": "unsafe"}),
    (np.ones((2, 2)), np.array([np.nan, -0.0]), {"where": np.array([True, False])}),
]


@pytest.mark.parametrize("dst,src,kw", COPY_CASES, ids=range(len(COPY_CASES)))
def test_copyto_tensor(engine: Any, dst: Any, src: Any, kw: Any) -> None:
    exp = dst.copy()
    try:
        np.copyto(exp, src, **kw)
    except Exception as e:  # noqa: BLE001 - NumPy's error must be mirrored
        with pytest.raises(type(e)):
            copyto(lt.asarray(dst.copy()), src, **kw)
        return
    t = lt.asarray(dst)
    before = t * 1
    copyto(t, lt.asarray(src) if isinstance(src, (list, np.ndarray)) else src, **kw)
    _same(t, exp)
    _same(before, dst * 1)        # a graph built before the write keeps the old value
    assert not np.shares_memory(t.eval(), dst) or np.array_equal(dst, exp)


def test_copyto_view_and_ndarray(engine: Any) -> None:
    a = lt.zeros((2, 3))
    row = a[1]
    copyto(row, lt.asarray([1.0, 2.0, 3.0]))
    _same(a, np.array([[0.0, 0, 0], [1, 2, 3]]))
    nd = np.zeros(3)
    copyto(nd, lt.asarray([1.0, 2.0, 3.0]) * 2, where=lt.asarray([True, False, True]))
    np.testing.assert_array_equal(nd, [2.0, 0.0, 6.0])
    with pytest.raises(TypeError):
        copyto([1, 2], 1)
    src = np.zeros(2)
    copyto(lt.asarray(src), 5.0)      # the user's array behind a tensor is not written
    np.testing.assert_array_equal(src, [0.0, 0.0])


def test_bits_over_a_none_dimension_are_refused_when_built() -> None:
    """packbits' padding and unpackbits' count are read from the length when
    built: over a None dimension unpackbits(count=-3) returned every bit."""
    p = lt.placeholder((None,), np.uint8)
    for build in (lambda: lt.unpackbits(p, count=-3), lambda: lt.packbits(p)):
        with pytest.raises(ValueError, match="None dimension"):
            build()
    f = lt.function([p], lt.unpackbits(p))
    np.testing.assert_array_equal(f(np.array([200, 1], np.uint8)),
                                  np.unpackbits(np.array([200, 1], np.uint8)))


def test_copyto_where_is_cast_safely_as_numpys() -> None:
    with pytest.raises(TypeError):
        np.copyto(np.zeros(3), np.ones(3), where=np.array([1, 0, 2]))
    t = lt.zeros(3)
    with pytest.raises(TypeError, match="safe"):
        lt.copyto(t, lt.ones(3), where=np.array([1, 0, 2]))
    lt.copyto(t, lt.ones(3), where=np.array([True, False, True]))
    np.testing.assert_array_equal(t.eval(), [1.0, 0.0, 1.0])


@pytest.mark.parametrize("order", ["l", "b", "bigx", "littlefoo", "little", "big", "L", None,
                                   "x", ""], ids=repr)
def test_bitorder_spellings_are_numpys(order: Any) -> None:
    """NumPy's parser: packbits compares 'little'/'big' as prefixes of the
    string, unpackbits its first letter; a non-string is a TypeError."""
    for np_fn, lt_fn, arg in ((np.packbits, lt.packbits, np.array([1, 0, 1], bool)),
                              (np.unpackbits, lt.unpackbits, np.array([5], np.uint8))):
        try:
            want = np_fn(arg, bitorder=order)
        except (TypeError, ValueError) as e:
            with pytest.raises(type(e)):
                lt_fn(arg, bitorder=order)
            continue
        np.testing.assert_array_equal(lt_fn(arg, bitorder=order).eval(), want)
