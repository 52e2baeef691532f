"""``lt.ma`` against ``numpy.ma``: masks, unmasked values, dtypes, fill values.

The examples are numpy.ma's documented ones (``masked_equal``, ``masked_inside``,
``masked_where``, ``count``, ``compressed``, ...) rewritten for lazyten.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from util import assert_eq, same_bits

import lazyten as lt
from lazyten.ma import MaskedTensor


def assert_ma_eq(lazy: MaskedTensor, expected: Any, *, rtol: float | None = None,
                 check_fill: bool = False, exact: bool = False) -> None:
    """Same shape, dtype and mask as numpy.ma; same values where unmasked.

    ``exact``: bit for bit, as numpy.ma computes it: the values everywhere
    (under the mask too, zeros' signs included) and the fill value with its
    type (an int8 array's is np.int64(999999)).
    """
    assert isinstance(lazy, MaskedTensor)
    got = lazy.eval()
    assert isinstance(got, np.ma.MaskedArray)
    if expected is np.ma.masked:
        assert got.shape == () and bool(got.mask), f"expected masked, got {got!r}"
        return
    exp = np.ma.asanyarray(expected)
    assert got.shape == exp.shape == lazy.shape, (got.shape, exp.shape, lazy.shape)
    assert got.dtype == exp.dtype == lazy.dtype, (got.dtype, exp.dtype, lazy.dtype)
    np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(exp))
    keep = np.ones(exp.shape, bool) if exact else ~np.ma.getmaskarray(exp)
    g, e = np.ma.getdata(got)[keep], np.ma.getdata(exp)[keep]
    if exact:
        np.testing.assert_array_equal(g, e)  # NaN matches NaN
        if g.dtype.kind in "fc":
            num = ~np.isnan(e)
            np.testing.assert_array_equal(np.signbit(g[num].real), np.signbit(e[num].real))
    elif g.dtype.kind in "fc":
        eps = float(np.finfo(np.result_type(g.dtype, np.float32)).eps)
        np.testing.assert_allclose(g, e, rtol=rtol or 8 * eps)
    else:
        np.testing.assert_array_equal(g, e)
    if check_fill or (exact and isinstance(expected, np.ma.MaskedArray)):
        gf, ef = got.fill_value, exp.fill_value
        assert type(gf) is type(ef) or not exact, (gf, ef)
        assert gf == ef or (np.isnan(gf) and np.isnan(ef)), (gf, ef)


@contextmanager
def no_runtime_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


# ---------------------------------------------------------------- numpy.ma's examples

def test_masked_equal_doc(engine: Any) -> None:
    a = np.arange(4)
    assert_ma_eq(lt.ma.masked_equal(lt.asarray(a), 2), np.ma.masked_equal(a, 2),
                 check_fill=True)


def test_masked_comparisons_doc(engine: Any) -> None:
    a = np.arange(4)
    t = lt.asarray(a)
    for lname, ref in [("masked_greater", np.ma.masked_greater),
                       ("masked_greater_equal", np.ma.masked_greater_equal),
                       ("masked_less", np.ma.masked_less),
                       ("masked_less_equal", np.ma.masked_less_equal),
                       ("masked_not_equal", np.ma.masked_not_equal),
                       ("masked_equal", np.ma.masked_equal)]:
        assert_ma_eq(getattr(lt.ma, lname)(t, 2), ref(a, 2), check_fill=True)


def test_masked_inside_outside_doc(engine: Any) -> None:
    x = np.array([0.31, 1.2, 0.01, 0.2, -0.4, -1.1])
    t = lt.asarray(x)
    assert_ma_eq(lt.ma.masked_inside(t, -0.3, 0.3), np.ma.masked_inside(x, -0.3, 0.3))
    # the order of v1 and v2 does not matter
    assert_ma_eq(lt.ma.masked_inside(t, 0.3, -0.3), np.ma.masked_inside(x, 0.3, -0.3))
    assert_ma_eq(lt.ma.masked_outside(t, -0.3, 0.3), np.ma.masked_outside(x, -0.3, 0.3))
    assert_ma_eq(lt.ma.masked_outside(t, 0.3, -0.3), np.ma.masked_outside(x, 0.3, -0.3))


def test_masked_where_doc(engine: Any) -> None:
    a = np.arange(4)
    t = lt.asarray(a)
    assert_ma_eq(lt.ma.masked_where(t <= 2, t), np.ma.masked_where(a <= 2, a))
    b = ["a", "b", "c", "d"]
    del b  # numpy's string example has no lazyten equivalent (no string dtype)
    c = np.ma.masked_where(a == 2, a)
    lc = lt.ma.masked_where(t == 2, t)
    # conditions are or'ed with an existing mask
    assert_ma_eq(lt.ma.masked_where(t == 3, lc), np.ma.masked_where(a == 3, c))
    with pytest.raises(IndexError, match="inconsistent shape"):
        lt.ma.masked_where(lt.asarray([True, False]), t)


def test_masked_invalid_doc(engine: Any) -> None:
    a = np.arange(5, dtype=float)
    a[2] = np.nan
    a[3] = np.inf
    assert_ma_eq(lt.ma.masked_invalid(lt.asarray(a)), np.ma.masked_invalid(a))


def test_count_doc(engine: Any) -> None:
    a = np.ma.arange(6).reshape((2, 3))
    a[1, :] = np.ma.masked
    la = lt.ma.masked_array(np.arange(6).reshape((2, 3)), mask=[[0, 0, 0], [1, 1, 1]])
    assert_eq(la.count(), np.asarray(a.count()))
    assert_eq(la.count(axis=0), a.count(axis=0))
    assert_eq(la.count(axis=1), a.count(axis=1))
    assert_eq(lt.ma.count(la, axis=1, keepdims=True), a.count(axis=1, keepdims=True))


def test_compressed_and_filled_doc(engine: Any) -> None:
    x = np.ma.array(np.arange(5), mask=[0] * 2 + [1] * 3)
    lx = lt.ma.array(np.arange(5), mask=[0] * 2 + [1] * 3)
    assert_eq(lx.compressed(), x.compressed())
    assert_eq(lt.ma.compressed(lx), np.ma.compressed(x))
    x2 = np.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [1, 0]])
    lx2 = lt.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [1, 0]])
    assert_eq(lx2.filled(), x2.filled())
    assert_eq(lx2.filled(fill_value=333), x2.filled(fill_value=333))
    assert_eq(lt.ma.filled(lx2, 1.5), np.ma.filled(x2, 1.5))  # cast to the dtype, as NumPy
    assert_eq(lt.ma.masked_equal(lt.asarray([1.0, 2.0]), 2.0).filled(),
              np.ma.masked_equal([1.0, 2.0], 2.0).filled())


def test_eval_is_masked_array() -> None:
    m = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[False, True, False], fill_value=-1.0)
    got = m.eval()
    assert isinstance(got, np.ma.MaskedArray)
    assert got.fill_value == -1.0
    assert got.tolist() == [1.0, None, 3.0]
    assert lt.ma.is_masked(m) and not lt.ma.is_masked(lt.ma.masked_array([1.0]))


# ---------------------------------------------------------------- reductions

MASKS = [
    np.array([[0, 1, 0, 0], [1, 1, 1, 1], [0, 0, 0, 1]], bool),   # one fully masked row
    np.zeros((3, 4), bool),
    np.ones((3, 4), bool),                                         # everything masked
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.complex128])
@pytest.mark.parametrize("mask", MASKS, ids=["partial", "none", "all"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reductions(engine: Any, rng: np.random.Generator, dtype: Any, mask: Any,
                    axis: Any) -> None:
    data = (rng.standard_normal((3, 4)) * 10)
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.standard_normal((3, 4))
    data = data.astype(dtype)
    ref = np.ma.array(data, mask=mask)
    lz = lt.ma.masked_array(lt.asarray(data), mask=mask)
    assert_ma_eq(lz.sum(axis=axis), ref.sum(axis=axis))
    assert_ma_eq(lz.prod(axis=axis), ref.prod(axis=axis), rtol=1e-5)
    assert_ma_eq(lz.mean(axis=axis), ref.mean(axis=axis), rtol=1e-5)
    with np.errstate(all="ignore"):
        for ddof in (0, 1):
            assert_ma_eq(lz.var(axis=axis, ddof=ddof), ref.var(axis=axis, ddof=ddof),
                         rtol=1e-5)
            assert_ma_eq(lz.std(axis=axis, ddof=ddof), ref.std(axis=axis, ddof=ddof),
                         rtol=1e-5)
    if np.dtype(dtype).kind != "c":
        assert_ma_eq(lz.min(axis=axis), ref.min(axis=axis))
        assert_ma_eq(lz.max(axis=axis), ref.max(axis=axis))
        assert_eq(lz.argmin(axis=axis), np.asarray(ref.argmin(axis=axis)))
        assert_eq(lz.argmax(axis=axis), np.asarray(ref.argmax(axis=axis)))
    assert_ma_eq(lt.ma.sum(lz, axis=axis, keepdims=True), ref.sum(axis=axis, keepdims=True))


# ---------------------------------------------------------------- arithmetic

def test_arithmetic_propagates_masks(engine: Any) -> None:
    a = np.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
    b = np.ma.array([2.0, 0.0, 0.0, 5.0], mask=[0, 0, 0, 1])
    la = lt.ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
    lb = lt.ma.masked_array([2.0, 0.0, 0.0, 5.0], mask=[0, 0, 0, 1])
    with np.errstate(all="ignore"):
        assert_ma_eq(la + lb, a + b)
        assert_ma_eq(la - lb, a - b)
        assert_ma_eq(la * lb, a * b)
        assert_ma_eq(la / lb, a / b)          # division by zero is masked (numpy.ma's domain)
        assert_ma_eq(la // lb, a // b)
        assert_ma_eq(la % lb, a % b)
        assert_ma_eq(la ** 2, a ** 2)
        assert_ma_eq(2 * la + 1, 2 * a + 1)
        assert_ma_eq(1 / la, 1 / a)
        assert_ma_eq(la + np.arange(4.0), a + np.arange(4.0))
        assert_ma_eq(la + lt.arange(4.0), a + np.arange(4.0))
        assert_ma_eq(la > 2, a > 2)
        assert_ma_eq(la == lb, a == b)
        assert_ma_eq(-la, -a)
        assert_ma_eq(abs(la - 3), abs(a - 3))
        assert_ma_eq(lt.ma.sqrt(la - 2), np.ma.sqrt(a - 2))   # negatives masked
        assert_ma_eq(lt.ma.log(la - 2), np.ma.log(a - 2))     # <= 0 masked
        assert_ma_eq(lt.ma.exp(la), np.ma.exp(a))
    i = np.ma.masked_equal(np.arange(5, dtype=np.int32), 3)
    li = lt.ma.masked_equal(lt.arange(5, dtype=np.int32), 3)
    assert_ma_eq(li * 2, i * 2, check_fill=True)   # fill value kept from the first operand
    assert_ma_eq((li * 2).sum(), (i * 2).sum())


def test_views_and_broadcasting(engine: Any) -> None:
    x = np.arange(12.0).reshape(3, 4)
    mask = x % 5 == 0
    ref = np.ma.array(x, mask=mask)
    lz = lt.ma.masked_array(x, mask=mask)
    assert_ma_eq(lz[1:, ::2], ref[1:, ::2])
    assert_ma_eq(lz.T, ref.T)
    assert_ma_eq(lz.reshape(4, 3), ref.reshape(4, 3))
    # a scalar mask broadcasts, as numpy.ma allows
    assert_ma_eq(lt.ma.masked_array(x, mask=True), np.ma.array(x, mask=True))
    with pytest.raises(np.ma.MaskError, match="not compatible"):
        lt.ma.masked_array(x, mask=[True, False])


def test_lazy_until_eval() -> None:
    """Nothing runs until eval: a masked pipeline is one graph."""
    x = lt.asarray(np.arange(6.0))
    m = lt.ma.masked_greater(x * 2, 5.0)
    s = m.mean()
    assert isinstance(s.data, lt.Tensor) and s.data.node.value is None
    assert_ma_eq(s, np.ma.masked_greater(np.arange(6.0) * 2, 5.0).mean())


def test_numpy_masked_arrays_as_inputs(engine: Any) -> None:
    x = np.ma.masked_equal([1.0, 2.0, 3.0], 2.0)
    m = lt.ma.array(x)                                  # mask and fill value carried over
    assert_ma_eq(m, x, check_fill=True)
    y = np.ma.array([1.0, 1.0, 1.0], mask=[1, 0, 0])
    assert_ma_eq(m + y, x + y)                          # a numpy.ma operand keeps its mask
    assert_ma_eq(lt.ma.masked_equal(m, 3.0), np.ma.masked_equal(x, 3.0), check_fill=True)
    assert_ma_eq(lt.ma.masked_array(x, mask=[0, 0, 1]), np.ma.masked_array(x, mask=[0, 0, 1]))
    assert_eq(lt.ma.getdata(m), np.ma.getdata(x))
    assert_eq(lt.ma.getmaskarray(lt.ones(2)), np.ma.getmaskarray(np.ones(2)))


# ---------------------------------------------------------------- fill values

SMALL_INTS = [np.int8, np.uint8, np.int16, np.uint16]


@pytest.mark.parametrize("dtype", SMALL_INTS + [np.float16, np.uint64, np.complex64])
def test_eval_and_print_with_default_fill_value(engine: Any, dtype: Any) -> None:
    """numpy.ma's default fill value is not cast to the dtype (int8: int64
    999999, float16: float64 1e20); evaluating must not try to."""
    data = np.array([1, 2, 3], dtype)
    ref = np.ma.masked_array(data, mask=[0, 1, 0])
    m = lt.ma.masked_array(data, mask=[0, 1, 0])
    with no_runtime_warnings():
        assert_ma_eq(m, ref, exact=True)
        assert repr(m) == repr(ref) and str(m) == str(ref)
        assert repr(m.fill_value) == repr(ref.fill_value)
        assert_ma_eq(m.sum(dtype=dtype), ref.sum(dtype=dtype), exact=True)
        assert_ma_eq(m.sum(dtype=dtype, keepdims=True), ref.sum(dtype=dtype, keepdims=True),
                     exact=True)
        assert repr(m.sum(dtype=dtype, keepdims=True)) == repr(ref.sum(dtype=dtype,
                                                                       keepdims=True))


@pytest.mark.parametrize("dtype", SMALL_INTS + [np.float32, np.bool_])
@pytest.mark.parametrize("fill", [-1, 300, 1.5, 1e20, "x", np.int64(-1)])
def test_fill_values_are_checked_as_numpy_ma_does(engine: Any, dtype: Any, fill: Any) -> None:
    """filled(), masked_array(fill_value=), the fill_value setter and
    masked_equal check the value against the dtype (np.ma.core's
    _check_fill_value): -1 for uint8 is a TypeError, not 255."""
    data = np.array([1, 0, 1], dtype)
    ref = np.ma.masked_array(data, mask=[0, 1, 0])
    m = lt.ma.masked_array(data, mask=[0, 1, 0])
    cases: list[tuple[Callable[[], Any], Callable[[], Any]]] = [
        (lambda: lt.ma.masked_array(m.filled(fill)), lambda: ref.filled(fill)),
        (lambda: lt.ma.filled(m, fill), lambda: np.ma.filled(ref, fill)),
        (lambda: lt.ma.masked_array(data, mask=[0, 1, 0], fill_value=fill),
         lambda: np.ma.masked_array(data, mask=[0, 1, 0], fill_value=fill)),
        (lambda: lt.ma.masked_equal(data, fill), lambda: np.ma.masked_equal(data, fill)),
    ]
    for lazy, eager in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # 1e20 -> int: as NumPy
            try:
                exp = eager()
            except TypeError:
                with pytest.raises(TypeError):
                    lazy()
                continue
            got = lazy()
            if isinstance(got, MaskedTensor):
                assert_ma_eq(got, exp, exact=True)
            else:
                assert_eq(got, exp)
    with pytest.raises(TypeError, match="Cannot convert fill_value -1 to dtype uint8"):
        lt.ma.masked_array(np.array([1, 2], np.uint8), mask=[0, 1]).filled(-1)


def test_fill_value_setter_writes_into_the_stored_one() -> None:
    for dtype in [np.float16, np.int8]:
        ref = np.ma.masked_array(np.array([1, 2], dtype), mask=[0, 1], fill_value=-1)
        m = lt.ma.masked_array(np.array([1, 2], dtype), mask=[0, 1], fill_value=-1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # 1e20 to float16: as NumPy
            ref.fill_value = None
            m.fill_value = None
        assert repr(m.fill_value) == repr(ref.fill_value)


def test_fill_values_are_kept(engine: Any) -> None:
    """masked_where, astype, views and operations keep the fill value as
    numpy.ma does (an operation's result takes the first masked operand's,
    uncast; comparisons cast it to bool)."""
    x = np.ma.array([1, 2, 3], fill_value=7)
    cond = np.array([True, False, False])
    assert_ma_eq(lt.ma.masked_where(cond, x), np.ma.masked_where(cond, x), exact=True)
    assert_ma_eq(lt.ma.masked_where(True, x), np.ma.masked_where(True, x), exact=True)
    lx = lt.ma.masked_array(x)
    assert_ma_eq(lt.ma.masked_where(cond, lx), np.ma.masked_where(cond, x), exact=True)
    assert_ma_eq(lt.ma.masked_greater(lx, 2), np.ma.masked_greater(x, 2), exact=True)
    f = np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0], fill_value=7)
    lf = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0], fill_value=7)
    for dtype in [np.float32, np.int8, np.float16, np.complex64, np.bool_]:
        assert_ma_eq(lf.astype(dtype), f.astype(dtype), exact=True)
    assert_ma_eq(lf[1:], f[1:], exact=True)
    assert_ma_eq(lf.reshape(3, 1).T, f.reshape(3, 1).T, exact=True)
    i = np.ma.array(np.array([1, 2, 3], np.int32), mask=[0, 1, 0], fill_value=3)
    li = lt.ma.masked_array(np.array([1, 2, 3], np.int32), mask=[0, 1, 0], fill_value=3)
    for lazy, eager in [(li * 2, i * 2), (2 * li, 2 * i), (np.arange(3) - li, np.arange(3) - i),
                        (li / 2, i / 2), (li ** 2, i ** 2), (li[::2] + 1, i[::2] + 1),
                        (-li, -i), (abs(li), abs(i)), (lt.ma.sqrt(li), np.ma.sqrt(i)),
                        (li > 1, i > 1), (lf > 1, f > 1), (li % 2, i % 2)]:
        assert_ma_eq(lazy, eager, exact=True)
    z = np.ma.array([1.0, 2.0], mask=[0, 1], fill_value=0.0)
    lz = lt.ma.masked_array([1.0, 2.0], mask=[0, 1], fill_value=0.0)
    assert_ma_eq(lz == 1.0, z == 1.0, exact=True)         # fill value False, not True
    assert_ma_eq(lf.var(axis=0, keepdims=True), f.var(axis=0, keepdims=True), exact=True)


def test_mask_of_another_shape(engine: Any) -> None:
    """numpy.ma repeats a one-element mask, reshapes one of the data's size,
    and raises MaskError (a subclass of MAError) for anything else."""
    x = np.arange(12.0).reshape(3, 4)
    for mask in [True, [True], np.zeros((4, 3), bool) | (np.arange(3) == 1)[None, :],
                 np.arange(12) % 5 == 0]:
        assert_ma_eq(lt.ma.masked_array(x, mask=mask), np.ma.masked_array(x, mask=mask),
                     exact=True)
    for mask in [[True, False], [[True, False, True, False]]]:
        with pytest.raises(np.ma.MaskError, match="not compatible") as info:
            lt.ma.masked_array(x, mask=mask)
        assert type(info.value) is np.ma.MaskError
        with pytest.raises(np.ma.MaskError):
            np.ma.masked_array(x, mask=mask)


# ---------------------------------------------------------------- operators

POWER_DATA = np.array([4.0, -1.0, 2.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, -2.5])
POWER_MASK = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, 1], bool)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8])
def test_power_masks_nan_and_inf(engine: Any, dtype: Any) -> None:
    """numpy.ma's power masks the positions where the result is NaN or inf
    (and puts the fill value there), keeps the base's data under the mask,
    and takes the base's fill value; it warns about none of them."""
    with np.errstate(invalid="ignore"):
        d = POWER_DATA.astype(dtype) if np.dtype(dtype).kind == "f" \
            else np.array([4, -1, 2, 0, 0, 3, -3, 1, 5, -2], dtype)
    e = np.array([0.5, 2.0, -1.0, -1.0, 0.5, 0.5, 0.5, 2.0, 0.5, 0.5], dtype=np.float32)
    ref, lz = np.ma.masked_array(d, mask=POWER_MASK, fill_value=7), \
        lt.ma.masked_array(d, mask=POWER_MASK, fill_value=7)
    emask = np.roll(POWER_MASK, 3)
    ref_e, lz_e = np.ma.masked_array(e, mask=emask), lt.ma.masked_array(e, mask=emask)
    cases = [(lambda x: x ** 0.5), (lambda x: x ** -1.0), (lambda x: x ** 2),
             (lambda x: x ** np.float32(0.5)), (lambda x: x ** e),
             (lambda x: 2.0 ** x), (lambda x: 0.0 ** x), (lambda x: (-8.0) ** x),
             (lambda x: e ** x)]
    with no_runtime_warnings():
        for case in cases:
            if np.dtype(dtype).kind in "iu" and case(np.ones(1, dtype)).dtype.kind in "iu":
                continue  # integers to negative powers raise (as in NumPy)
            assert_ma_eq(case(lz), case(ref), exact=True)
        assert_ma_eq(lz ** lz_e, ref ** ref_e, exact=True)
        assert_ma_eq(lz_e ** lz, ref_e ** ref, exact=True)
        assert_ma_eq(lz ** np.ma.masked_array(e, mask=emask), ref ** ref_e, exact=True)
    d = np.array([4.0, -1.0, 2.0, 0.0])   # the example of the issue
    assert_ma_eq(lt.ma.masked_array(d, mask=False) ** 0.5,
                 np.ma.masked_array(d, mask=False) ** 0.5, exact=True)
    assert_ma_eq(lt.ma.masked_array(d, mask=False) ** -1.0,
                 np.ma.masked_array(d, mask=False) ** -1.0, exact=True)
    c = np.array([0j, 1 + 1j, -4, 2j], np.complex64)
    for p in [-1, 0.5, 1 + 1j, 0]:
        assert_ma_eq(lt.ma.masked_array(c, mask=[0, 0, 0, 1]) ** p,
                     np.ma.masked_array(c, mask=[0, 0, 0, 1]) ** p, exact=True)
    with pytest.raises(ValueError, match="negative integer powers"):
        (lt.ma.masked_array(np.array([1, 2]), mask=False) ** -1).eval()


MOD_DTYPES = [np.int8, np.uint8, np.int16, np.float32, np.float16, np.float64]


@pytest.mark.parametrize("dtype", MOD_DTYPES)
def test_operators_scalar_promotion(engine: Any, dtype: Any) -> None:
    """numpy.ma's own operators (+ - * / // ** and comparisons) read a Python
    scalar as a 0-d array (strong: masked int8 + 3 is int64); % and divmod,
    which MaskedArray leaves to ndarray, take it weak (int8 % 3 is int8)."""
    data = np.array([5, 7, 9, 0, 1], dtype)
    mask = [0, 1, 0, 0, 0]
    ref, lz = np.ma.masked_array(data, mask=mask), lt.ma.masked_array(data, mask=mask)
    other = np.ma.masked_array(data[::-1], mask=mask[::-1])
    lother = lt.ma.masked_array(data[::-1], mask=mask[::-1])
    scalars: list[Any] = [3, 2.5, True, 0, np.float32(2.5), np.int8(3)]
    with np.errstate(divide="ignore", invalid="ignore"):
        for s in scalars:
            for lazy, eager in [(lz % s, ref % s), (s % lz, s % ref),
                                (lz + s, ref + s), (s - lz, s - ref), (lz * s, ref * s),
                                (lz / s, ref / s), (s / lz, s / ref),
                                (lz // s, ref // s), (s // lz, s // ref),
                                (lz ** s, ref ** s), (lz < s, ref < s), (lz == s, ref == s)]:
                assert_ma_eq(lazy, eager, exact=True)
            for lazy_t, eager_t in [(divmod(lz, s), divmod(ref, s)),
                                    (divmod(s, lz), divmod(s, ref))]:
                for lazy, eager in zip(lazy_t, eager_t):
                    assert_ma_eq(lazy, eager, exact=True)
        assert_ma_eq(lz % lother, ref % other, exact=True)
        assert_ma_eq(data % lz, data % ref, exact=True)
        for lazy, eager in zip(divmod(lz, lother), divmod(ref, other)):
            assert_ma_eq(lazy, eager, exact=True)
    x = lt.ma.masked_array(np.array([5, -7, 9], np.int8), mask=[0, 1, 0])
    assert (x % 3).dtype == np.int8 and (x * 3).dtype == np.int64


def test_strong_comparisons(engine: Any) -> None:
    """numpy.ma compares a float32 array with 0.1 in float64, in its
    operators and in masked_greater & co."""
    f = np.array([0.1, 0.2, 0.3], np.float32)
    ref, lz = np.ma.masked_array(f, mask=[0, 0, 1]), lt.ma.masked_array(f, mask=[0, 0, 1])
    for op in ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]:
        assert_ma_eq(getattr(lz, op)(0.1), getattr(ref, op)(0.1), exact=True)
    for name in ["masked_equal", "masked_not_equal", "masked_greater", "masked_greater_equal",
                 "masked_less", "masked_less_equal"]:
        assert_ma_eq(getattr(lt.ma, name)(f, 0.1), getattr(np.ma, name)(f, 0.1), exact=True)
        assert_ma_eq(getattr(lt.ma, name)(lz, 0.1), getattr(np.ma, name)(ref, 0.1),
                     exact=True)


def test_division_masks_nan_and_inf_quietly(engine: Any) -> None:
    """numpy.ma's divisions mask a zero divisor (its domain) and results that
    are not finite, keep 0 + the dividend under the mask, and ignore the
    divide and invalid flags; + - * ignore them too (inf - inf is an
    unmasked NaN)."""
    a = np.array([1.0, 0.0, np.inf, -np.inf, np.nan, 5.0, -1.0, 3.0, 2.0, -0.0, 1e300])
    b = np.array([0.0, 0.0, np.inf, 2.0, 0.0, 1e-300, -np.inf, 2.0, 1.0, 4.0, 1e-10])
    mask = np.zeros(11, bool)
    mask[-3] = True
    for dtype in [np.float64, np.float32, np.int32]:
        with np.errstate(all="ignore"):
            x, y = a.astype(dtype), b.astype(dtype)
        ref = np.ma.masked_array(x, mask=mask)
        lz = lt.ma.masked_array(x, mask=mask)
        with np.errstate(over="ignore"), no_runtime_warnings():
            for lazy, eager in [(lz / y, ref / y), (lz[:-1] // y[:-1], ref[:-1] // y[:-1]),
                                (y / lz, y / ref),
                                (lz - lz, ref - ref), (lz + lz[::-1], ref + ref[::-1]),
                                (lz * 0, ref * 0), (0.0 * lz, 0.0 * ref),
                                (lt.ma.sqrt(lz - 1), np.ma.sqrt(ref - 1)),
                                (lt.ma.log(lz), np.ma.log(ref)), (lz / 0, ref / 0)]:
                assert_ma_eq(lazy, eager, exact=True)


def test_numpy_scalar_on_the_left(engine: Any) -> None:
    """A NumPy scalar's operator runs NumPy's ufunc on a MaskedArray, which
    numpy.ma only wraps: masks or'ed (and the division domain masked), the
    data left as computed."""
    d = np.array([4.0, -1.0, 0.0, 2.0])
    ref, lz = np.ma.masked_array(d, mask=[0, 0, 0, 1]), lt.ma.masked_array(d, mask=[0, 0, 0, 1])
    s = np.float32(2.5)
    with np.errstate(divide="ignore", invalid="ignore"):
        for lazy, eager in [(s + lz, s + ref), (s - lz, s - ref), (s * lz, s * ref),
                            (s / lz, s / ref), (s // lz, s // ref), (s ** lz, s ** ref)]:
            assert_ma_eq(lazy, eager, exact=True)


# ---------------------------------------------------------------- mean, var, std

def test_float16_mean_as_numpy_ma(engine: Any) -> None:
    """numpy.ma sums float16 data in float32 and rounds the mean to float16."""
    h = np.array([3.455078125, 8.21875, 3.3046875, -13.03125, 9.0546875, 4.46484375],
                 np.float16)
    m = [0, 0, 1, 0, 0, 0]
    got = lt.ma.masked_array(h, mask=m).mean()
    assert_ma_eq(got, np.ma.masked_array(h, mask=m).mean(), exact=True)
    assert got.eval() == np.float16(2.432)


@pytest.mark.parametrize("dtype,mean_dtype", [
    (np.float16, None), (np.float16, np.float32), (np.float16, np.float16),
    (np.float32, None), (np.complex64, None), (np.float64, None),
    (np.int16, None), (np.int16, np.float32), (np.int16, np.float16), (np.int32, np.int32),
    (np.uint8, None), (np.bool_, None)])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_mean_var_std_bit_exact(engine: Any, rng: np.random.Generator, dtype: Any,
                                mean_dtype: Any, axis: Any, keepdims: bool) -> None:
    """mean, var and std computed as numpy.ma computes them: the same
    intermediate dtypes (float16 deviations from the float16 mean), the same
    rounding, masks (a non-finite array mean is masked, a negative scalar
    variance is not) and fill values."""
    data = rng.standard_normal((4, 7)) * 10
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.standard_normal((4, 7))
    data[2, 3] = np.inf                                          # a non-finite column and row
    data = data.astype(dtype) if np.dtype(dtype).kind in "fc" else (data % 50).astype(dtype)
    mask = rng.random((4, 7)) < 0.3
    mask[1] = True                                               # a fully masked row
    ref = np.ma.masked_array(data, mask=mask, fill_value=None if dtype is np.bool_ else 5)
    lz = lt.ma.masked_array(data, mask=mask, fill_value=None if dtype is np.bool_ else 5)
    with np.errstate(invalid="ignore", over="ignore"), warnings.catch_warnings():
        # numpy.ma's cast of a complex fill value into a real variance
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        assert_ma_eq(lz.mean(axis=axis, dtype=mean_dtype, keepdims=keepdims),
                     ref.mean(axis=axis, dtype=mean_dtype, keepdims=keepdims), exact=True)
        for ddof in (0, 1, 6):
            kw = {"axis": axis, "dtype": mean_dtype, "ddof": ddof, "keepdims": keepdims}
            assert_ma_eq(lz.var(**kw), ref.var(**kw), exact=True)
            assert_ma_eq(lz.std(**kw), ref.std(**kw), exact=True)
    assert_ma_eq(lt.ma.mean(lz, axis, mean_dtype, keepdims),
                 np.ma.mean(ref, axis, mean_dtype, keepdims=keepdims), exact=True)


# ---------------------------------------------------------------- writes

def _write_pair(dtype: Any = np.float64) -> tuple[np.ma.MaskedArray, MaskedTensor]:
    """The same masked array in numpy.ma and lazyten (an explicit mask, a fill
    value of its own); lazyten's over NumPy arrays that its writes must not touch."""
    d = (np.arange(12) % 7).reshape(3, 4).astype(dtype)
    mask = np.arange(12).reshape(3, 4) % 5 == 0
    ref = np.ma.masked_array(d.copy(), mask=mask.copy(), fill_value=6)
    lz = lt.ma.masked_array(d, mask=mask, fill_value=6)
    return ref, lz


def _lazy(x: Any) -> Any:
    """``x`` as lazyten spells it: numpy.ma arrays, arrays and keys as tensors."""
    if x is np.ma.masked:
        return lt.ma.masked
    if isinstance(x, np.ma.MaskedArray):
        return lt.ma.array(x)
    if isinstance(x, np.ndarray):
        return lt.asarray(x)
    return tuple(_lazy(k) for k in x) if isinstance(x, tuple) else x


ROWS = np.array([True, False, True])
CELLS = np.arange(12).reshape(3, 4) % 3 == 1
WRITES = [
    (0, 5),
    ((1, 2), 3),
    ((-1, -1), np.ma.masked),
    (slice(None, None, 2), np.arange(4.0)),
    ((Ellipsis, 1), np.ma.masked),
    ((None, 1), [[1, 2, 3, 4]]),
    (1, np.ma.masked_array([9, 8, 7, 6], mask=[1, 0, 0, 1], fill_value=3)),
    ((slice(1, None), [0, 3]), np.ma.masked_array(5, mask=True)),
    ([0, 2], np.ma.masked_array([1, 2, 3, 4])),                   # no mask: unmasks
    ([2, 0, 2], np.ma.masked),
    ((np.array([0, 0, 2]), np.array([1, 1, 3])), np.array([1, 2, 3])),   # repeats: last wins
    (CELLS, 0),
    (CELLS, np.ma.masked),
    (ROWS, np.ma.masked_array([1, 2, 3, 4], mask=[0, 1, 0, 1])),
    ((ROWS, slice(1, 3)), np.ma.masked),
    ((), np.ma.masked_array(np.ones((3, 4)), mask=CELLS)),
]


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
@pytest.mark.parametrize("lazy_operands", [False, True], ids=["numpy", "lazy"])
@pytest.mark.parametrize("index,value", WRITES)
def test_setitem_as_numpy_ma(engine: Any, dtype: Any, lazy_operands: bool, index: Any,
                             value: Any) -> None:
    """Data (under the mask too), mask and fill value after ``m[index] = value``,
    with keys and values from NumPy or as lazyten tensors."""
    ref, lz = _write_pair(dtype)
    ref[index] = value
    key, val = (_lazy(index), _lazy(value)) if lazy_operands else (index, value)
    lz[key] = val
    assert_ma_eq(lz, ref, exact=True)


def test_setitem_masked_keys(engine: Any) -> None:
    """A masked key is read as its data; with a plain value numpy.ma writes the
    data only (masked elements stay masked)."""
    for value in (0, np.ma.masked, np.ma.masked_array([7.0] * 6, mask=[1, 0, 0, 0, 0, 1])):
        ref, lz = _write_pair()
        ref[ref > 2] = value
        lz[lz > 2] = _lazy(value)
        assert_ma_eq(lz, ref, exact=True)
        ref, lz = _write_pair()
        key = ref > 2                                            # a numpy.ma key for both
        ref[key] = value
        lz[key] = value
        assert_ma_eq(lz, ref, exact=True)
    ref, lz = _write_pair(np.bool_)                              # a key that is the data
    ref[ref.data] = np.ma.masked_array(False, mask=True)
    lz[lz.data] = np.ma.masked_array(False, mask=True)
    assert_ma_eq(lz, ref, exact=True)


def test_setitem_is_lazy_and_errors_as_numpy_ma() -> None:
    ref, lz = _write_pair(np.int8)
    lz[0] = 1
    assert lz.data.node.value is None                            # nothing computed yet
    ref[0] = 1
    for index, value, err in [(0, 300, OverflowError), (5, 1, IndexError),
                              ((0, 0, 0), 1, IndexError)]:
        with pytest.raises(err):
            ref[index] = value
        with pytest.raises(err):
            lz[index] = value
    assert_ma_eq(lz, ref, exact=True)                            # a failed write changes nothing


def test_setitem_views_write_their_base(engine: Any) -> None:
    """numpy.ma's views share data and mask: a write to one is a write to its
    base; an advanced index takes a copy."""
    views: list[Callable[[Any], Any]] = [
        lambda m: m[1:], lambda m: m[1:][:, ::2], lambda m: m.T, lambda m: m.reshape(4, 3),
        lambda m: m[None, 2], lambda m: m[[0, 2]]]
    for view in views:
        ref, lz = _write_pair()
        rv, lv = view(ref), view(lz)
        for index, value in [(0, 100), ((Ellipsis, -1), np.ma.masked),
                             (0, np.ma.masked_array(5.0, mask=True))]:
            rv[index] = value
            lv[index] = value
        assert_ma_eq(lv, rv, exact=True)
        assert_ma_eq(lz, ref, exact=True)
    ref, lz = _write_pair()
    rv, lv = ref[1:], lz[1:]
    ref[2] = np.ma.masked                                        # and the base's writes reach
    lz[2] = lt.ma.masked                                         # its views
    assert_ma_eq(lv, rv, exact=True)
    ref[1:] = ref[:-1]                                           # overlapping, as NumPy
    lz[1:] = lz[:-1]
    assert_ma_eq(lz, ref, exact=True)


def test_setitem_shares_what_numpy_ma_shares(engine: Any) -> None:
    """A tensor given to masked_array is shared (numpy.ma's copy=False), and so
    is a masked array's mask when no mask is given; copy=True, and every
    operation's result, own theirs.  NumPy arrays are never written."""
    d, mask = np.arange(4.0), np.array([False, True, False, False])
    for copy in (False, True):
        x, k = lt.asarray(d), lt.asarray(mask)
        rx, rk = d.copy(), mask.copy()
        m, ref = lt.ma.masked_array(x, mask=k, copy=copy), np.ma.masked_array(
            rx, mask=rk, copy=copy)
        m[0], ref[0] = 9.0, 9.0
        m[1], ref[1] = lt.ma.masked, np.ma.masked
        m[2], ref[2] = lt.ma.masked, np.ma.masked
        assert_ma_eq(m, ref, exact=True)
        assert_eq(x, rx)
        assert_eq(k, rk)
    np.testing.assert_array_equal(d, np.arange(4.0))
    np.testing.assert_array_equal(mask, [False, True, False, False])
    # numpy.ma's constructor shares a masked array's data, and its mask unless
    # given one; operations (and astype) return copies.
    makes: list[Callable[[Any, Any], Any]] = [
        lambda ma, m: ma.masked_array(m), lambda ma, m: ma.masked_array(m, mask=True),
        lambda ma, m: ma.masked_array(m, copy=True), lambda ma, m: m + 0,
        lambda ma, m: m * np.ones((2, 3, 4)), lambda ma, m: ma.masked_where(m.data > 4, m),
        lambda ma, m: m.astype(np.float32)]
    for make in makes:
        ref, lz = _write_pair()
        r, lr = make(np.ma, ref), make(lt.ma, lz)
        for index, value in [((Ellipsis, 0), 100), ((Ellipsis, 1), np.ma.masked)]:
            r[index] = value
            lr[index] = value
        assert_ma_eq(lr, r, exact=True)
        assert_ma_eq(lz, ref, exact=True)


def test_setitem_on_unary_results_and_default_masks(engine: Any) -> None:
    """numpy.ma's unary functions share their operand's mask, so a write to
    ``-m`` changes ``m``'s; lazyten's results are their own, as numpy.ma's
    binary ones are.  Masks made by broadcasting (no mask given, a scalar
    mask, a broadcast operand) take writes too."""
    ref, lz = _write_pair()
    for r in (-lz, abs(lz), lt.ma.exp(lz), lt.ma.sqrt(lz)):
        r[...] = 1.0
        r[0] = lt.ma.masked
    assert_ma_eq(lz, ref, exact=True)
    for mask in (np.ma.nomask, True, False):
        ref, lz = np.ma.masked_array(np.arange(3.0), mask=mask), lt.ma.masked_array(
            np.arange(3.0), mask=mask)
        ref[0], lz[0] = np.ma.masked, lt.ma.masked
        ref[1], lz[1] = 7.0, 7.0
        assert_ma_eq(lz, ref, exact=True)
    ref, lz = _write_pair()
    ref, lz = ref[0] + np.zeros((2, 4)), lz[0] + np.zeros((2, 4))
    ref[1, 1], lz[1, 1] = np.ma.masked, lt.ma.masked
    ref[0, 0], lz[0, 0] = 1.0, 1.0
    assert_ma_eq(lz, ref, exact=True)


# ---------------------------------------------------------------- extremes of masked slices

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.uint8, np.int16, np.bool_])
def test_min_max_data_under_a_fully_masked_slice(engine: Any, dtype: Any) -> None:
    """numpy.ma puts the dtype's default fill value (cast: 999999 is 63 in
    uint8) under a fully masked slice's min and max, whatever the array's
    fill value."""
    a = np.array([[3, 1], [0, 5]]).astype(dtype)
    mk = [[1, 1], [0, 0]]
    ref = np.ma.masked_array(a, mask=mk, fill_value=1)
    lz = lt.ma.masked_array(a, mask=mk, fill_value=1)
    for axis in (0, 1):
        assert_ma_eq(lz.min(axis=axis), ref.min(axis=axis), exact=True)
        assert_ma_eq(lz.max(axis=axis), ref.max(axis=axis), exact=True)
        assert_ma_eq(lz.max(axis=axis, keepdims=True), ref.max(axis=axis, keepdims=True),
                     exact=True)


# ---------------------------------------------------------------- truth and scalars

def test_truth_value_and_scalar_conversions() -> None:
    """bool(), float(), int(), complex() and operator.index() as numpy.ma's."""
    import operator
    m = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    ref = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    assert bool(lt.ma.masked_array([0.0])) is bool(np.ma.masked_array([0.0])) is False
    assert bool(lt.ma.masked_array([5.0], mask=[True])) is True     # the data decides
    for lz, r in [(m == 5, ref == 5), (lt.ma.masked_array(np.zeros(0)), np.ma.array([]))]:
        with pytest.raises(ValueError) as want:
            bool(r)
        with pytest.raises(ValueError, match="ambiguous") as got:
            bool(lz)
        del want, got
    assert bool(m.sum() > 3) is bool(ref.sum() > 3) is True
    assert bool(m.sum() > 5) is bool(ref.sum() > 5) is False
    full = lt.ma.masked_array([1.0, 2.0], mask=[1, 1])
    assert bool(full.sum() > 0) is bool(np.ma.masked_array([1.0, 2.0], mask=[1, 1]).sum() > 0)
    assert float(m.sum()) == float(ref.sum()) == 4.0
    assert int(m.max()) == int(ref.max()) == 3
    assert complex(m.sum()) == complex(ref.sum())
    assert operator.index(lt.ma.masked_array(np.arange(3)).sum()) == 3
    assert [1, 2, 3, 4][lt.ma.masked_array(np.arange(3)).sum()] == 4
    with pytest.warns(UserWarning, match="masked element to nan"):
        assert np.isnan(float(full.sum()))
    with pytest.raises(np.ma.MaskError, match="masked element"):
        int(full.sum())
    for conv in (float, int, complex):
        with pytest.raises(TypeError):
            conv(ref)
        with pytest.raises(TypeError, match="length-1|size 1"):
            conv(m)
    with pytest.raises(TypeError):
        operator.index(m.sum())                                   # float data
    # lazy indexing: m[1] is a 0-d MaskedTensor, never numpy.ma's constant;
    # lt.ma.is_masked answers the question ``m[1] is masked`` asks.
    assert lt.ma.is_masked(m[1]) and not lt.ma.is_masked(m[0])
    assert lt.ma.masked is np.ma.masked


# ---------------------------------------------------------------- nomask

def _same_mask_kind(lazy: MaskedTensor, ref: Any) -> None:
    """getmask gives nomask exactly where numpy.ma does, and so does eval()."""
    want = np.ma.getmask(ref) is np.ma.nomask
    assert (lt.ma.getmask(lazy) is lt.ma.nomask) is want
    assert (np.ma.getmask(lazy.eval()) is np.ma.nomask) is want


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, np.int16, np.complex64])
def test_nomask_reductions_keep_numpy_ma_dtypes(engine: Any, dtype: Any) -> None:
    """An array numpy.ma holds without a mask takes ndarray's mean/var/std:
    float32 and float16 stay so (values computed in them); a masked_* that
    masked nothing shrinks its mask to nomask, one that masked something not."""
    x = (np.arange(12.0).reshape(3, 4) ** 1.5 / 7).astype(dtype)
    makes: list[Callable[[Any, Any], Any]] = [
        lambda ma, v: ma.masked_array(v),
        lambda ma, v: ma.masked_less(v, -1),
        lambda ma, v: ma.masked_greater(v, 100),
        lambda ma, v: ma.masked_equal(v, 1234),
        lambda ma, v: ma.masked_inside(v, 100, 200),
        lambda ma, v: ma.masked_where(np.zeros(v.shape, bool), v),
        lambda ma, v: ma.masked_less(v, 2),                   # masks something
        lambda ma, v: ma.masked_array(v, mask=np.zeros(v.shape, bool)),
        lambda ma, v: ma.masked_array(v, shrink=False, keep_mask=False),
        lambda ma, v: ma.masked_array(ma.masked_less(v, -1)),
        lambda ma, v: ma.masked_invalid(v),                   # never nomask
    ]
    for make in makes:
        ref = make(np.ma, x)
        lz = make(lt.ma, lt.asarray(x))
        _same_mask_kind(lz, ref)
        for axis in (None, 0, 1):
            with np.errstate(all="ignore"):
                assert_ma_eq(lz.mean(axis=axis), ref.mean(axis=axis), exact=True)
                assert_ma_eq(lz.var(axis=axis), ref.var(axis=axis), exact=True)
                assert_ma_eq(lz.std(axis=axis, ddof=1), ref.std(axis=axis, ddof=1),
                             exact=True)
                assert_ma_eq(lt.ma.mean(lz, axis, np.float32), np.ma.mean(ref, axis, np.float32),
                             exact=True)
            if axis is not None:
                _same_mask_kind(lz.sum(axis=axis), ref.sum(axis=axis))
                _same_mask_kind(lz.mean(axis=axis), ref.mean(axis=axis))
                _same_mask_kind(lz.var(axis=axis), ref.var(axis=axis))
        # (last: reading numpy.ma's fill_value stores it, and its nomask
        # reductions then take it)
        assert_ma_eq(lz, ref, exact=True)
    assert lt.ma.getmask(lt.asarray(x)) is lt.ma.nomask is np.ma.nomask
    assert_ma_eq(lt.ma.std(x), np.ma.std(x), exact=True)    # a plain array: nomask


def test_nomask_through_operations(engine: Any) -> None:
    """numpy.ma's nomask passes through + - * and unary functions, shrinks
    in comparisons and **, and becomes a mask array in / and -m."""
    x = np.array([1.0, -2.0, 4.0, 0.0], np.float32)
    a, la = np.ma.masked_array(x), lt.ma.masked_array(x)
    b, lb = np.ma.masked_array(x, mask=[0, 0, 0, 0]), lt.ma.masked_array(x, mask=[0, 0, 0, 0])
    c, lc = np.ma.masked_array(x, mask=[0, 1, 0, 0]), lt.ma.masked_array(x, mask=[0, 1, 0, 0])
    with np.errstate(all="ignore"):
        for f in [lambda p, q: p + q, lambda p, q: p * 2, lambda p, q: p == q,
                  lambda p, q: p < 3, lambda p, q: p ** 2, lambda p, q: p ** 0.5,
                  lambda p, q: p / q, lambda p, q: -p, lambda p, q: p % 3,
                  lambda p, q: p.sum(axis=0), lambda p, q: p.min(axis=0)]:
            for (r1, l1), (r2, l2) in [((a, la), (a, la)), ((a, la), (b, lb)),
                                       ((b, lb), (b, lb)), ((c, lc), (a, la))]:
                ref, lz = f(r1, r2), f(l1, l2)
                if isinstance(ref, np.ma.MaskedArray) and ref.shape:
                    _same_mask_kind(lz, ref)
                    assert_ma_eq(lz, ref, exact=True)
        ref, lz = np.ma.exp(a), lt.ma.exp(la)
        _same_mask_kind(lz, ref)
        _same_mask_kind(lt.ma.sqrt(la), np.ma.sqrt(a))


def test_nomask_views_and_writes(engine: Any) -> None:
    """A view of an array numpy.ma holds without a mask gets a mask of its own
    when masked (the base does not see it), and so does the base."""
    for make in (lambda ma, v: ma.masked_array(v),
                 lambda ma, v: ma.masked_less(v, -1),
                 lambda ma, v: ma.masked_array(v, mask=False),
                 lambda ma, v: ma.masked_less(v, 1.5)):
        ref, lz = make(np.ma, np.arange(4.0)), make(lt.ma, lt.asarray(np.arange(4.0)))
        rv, lv = ref[1:], lz[1:]
        rv[1], lv[1] = np.ma.masked, lt.ma.masked
        rv[0], lv[0] = 10.0, 10.0
        assert_ma_eq(lz, ref, exact=True)
        assert_ma_eq(lv, rv, exact=True)
        _same_mask_kind(lz, ref)
        _same_mask_kind(lv, rv)
        ref[0], lz[0] = np.ma.masked, lt.ma.masked
        ref[2], lz[2] = np.ma.masked_array(7.0), lt.ma.masked_array(7.0)
        assert_ma_eq(lz, ref, exact=True)
        assert_ma_eq(lv, rv, exact=True)
        _same_mask_kind(lz, ref)
    m = lt.ma.masked_array(np.arange(3.0), mask=[0, 0, 0])
    assert lt.ma.getmask(lt.ma.shrink_mask(m)) is lt.ma.nomask
    assert np.ma.getmask(m.eval()) is np.ma.nomask


# ---------------------------------------------------------------- in-place operators

INPLACE = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"]


def _iop(op: str, a: Any, b: Any) -> Any:
    ns = {"a": a, "b": b}
    exec(f"a {op}= b", ns)   # noqa: S102 - the operator under test, from INPLACE
    return ns["a"]


@pytest.mark.parametrize("op", INPLACE)
@pytest.mark.parametrize("base_mask", [[0, 1, 0, 0], None], ids=["mask", "nomask"])
def test_inplace_operators_write_through(engine: Any, op: str, base_mask: Any) -> None:
    """``m op= x`` writes m (and its views, and its base) as numpy.ma does:
    data everywhere, the mask per numpy.ma's own in-place rules."""
    ints = op in "& | ^ << >>".split()
    data = np.array([5, 6, 7, 8]) if ints else np.array([5.0, 6.0, -7.0, 8.0])
    others = [np.ma.masked_array(np.array([1, 2, 0, 3]).astype(data.dtype),
                                 mask=[0, 0, 1, 0]),
              np.array([1, 2, 0, 3]).astype(data.dtype), 2,
              np.ma.masked_array(np.array([2, 1, 1, 2]).astype(data.dtype))]
    for other in others:
        mk = np.ma.nomask if base_mask is None else base_mask
        ref = np.ma.masked_array(data.copy(), mask=mk)
        lz = lt.ma.masked_array(data, mask=mk)
        rv, lv = ref[1:], lz[1:]
        with np.errstate(all="ignore"):
            r = _iop(op, ref, other)
            got = _iop(op, lz, _lazy(other))
        assert r is ref and got is lz
        assert_ma_eq(lz, ref, exact=True)
        assert_ma_eq(lv, rv, exact=True)
        _same_mask_kind(lz, ref)
    # through a view: the base sees it
    ref = np.ma.masked_array(data.copy(), mask=[0, 1, 0, 0])
    lz = lt.ma.masked_array(data, mask=[0, 1, 0, 0])
    rv, lv = ref[1:], lz[1:]
    with np.errstate(all="ignore"):
        _iop(op, rv, 3)
        _iop(op, lv, 3)
    assert_ma_eq(lz, ref, exact=True)
    assert_ma_eq(lv, rv, exact=True)


def test_inplace_operator_casting_and_shapes() -> None:
    """NumPy's same_kind error for int += float; a result of another shape is a
    ValueError; a failed operator leaves the tensor as it was."""
    for op in ["+", "-", "*", "/", "//", "**"]:
        ref = np.ma.masked_array(np.arange(3), mask=[0, 1, 0])
        lz = lt.ma.masked_array(np.arange(3), mask=[0, 1, 0])
        with pytest.raises(TypeError):
            _iop(op, ref, 2.5)
        with pytest.raises(TypeError, match="same_kind"):
            _iop(op, lz, 2.5)
        assert_ma_eq(lz, np.ma.masked_array(np.arange(3), mask=[0, 1, 0]), exact=True)
    lz = lt.ma.masked_array(np.ones((2, 2)), mask=[[0, 1], [0, 0]])
    with pytest.raises(ValueError):
        lz += np.ones((2, 2, 2))
    lz = lt.ma.masked_array(np.arange(3, dtype=np.int8), mask=[0, 1, 0])
    ref = np.ma.masked_array(np.arange(3, dtype=np.int8), mask=[0, 1, 0])
    lz *= 100
    ref *= 100
    lz += np.int64(3)
    ref += np.int64(3)
    assert_ma_eq(lz, ref, exact=True)
    x = lt.ma.masked_array(np.arange(3.0), mask=[0, 1, 0])
    y = x
    x += 1
    assert y is x and y.data.eval().tolist() == [1.0, 1.0, 3.0]   # masked: + 0


def test_clear_errors_and_numpy_functions() -> None:
    """Sparse matrices are no masked data or operands (a message that says so);
    np.sum & co. call the methods with out=, which works for out=None."""
    import scipy.sparse as sp
    m = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    ref = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    S = lt.sparse.asarray(sp.csr_array(np.eye(3)))
    for bad in (lambda: lt.ma.masked_array(S), lambda: m + S, lambda: m * sp.csr_array(np.eye(3)),
                lambda: lt.ma.masked_array(sp.csr_array(np.eye(3)))):
        with pytest.raises(TypeError, match="sparse"):
            bad()
    for f in (np.sum, np.prod, np.mean, np.var, np.std, np.min, np.max):
        assert float(f(m)) == float(f(ref))
    assert float(np.sum(m, axis=0)) == 4.0
    with pytest.raises(TypeError, match="out="):
        np.sum(m, out=np.zeros(()))


# ---------------------------------------------------------------- NumPy's ufuncs, @, more of numpy.ma

def _ma_cases() -> list[tuple[np.ma.MaskedArray, MaskedTensor]]:
    """Pairs (numpy.ma, lt.ma): explicit mask with a set fill value, nomask,
    an all-False mask array, 0-d, empty, strided (a transposed view)."""
    x = np.array([[1.5, -2.0, 0.0], [4.0, 0.25, -0.5]])
    mk = [[0, 1, 0], [0, 0, 1]]
    out = []
    for make in (lambda ma, d: ma.masked_array(d, mask=mk),
                 lambda ma, d: ma.masked_array(d),
                 lambda ma, d: ma.masked_array(d, mask=np.zeros((2, 3), bool))):
        out.append((make(np.ma, x), make(lt.ma, lt.asarray(x))))
    out[0][0].fill_value, out[0][1].fill_value = 7, 7
    out.append((np.ma.masked_array(x, mask=mk).T, lt.ma.masked_array(x, mask=mk).T))
    out.append((np.ma.masked_array(np.array(-3.0), mask=False),
                lt.ma.masked_array(np.array(-3.0), mask=False)))
    out.append((np.ma.masked_array(np.zeros((0, 3))), lt.ma.masked_array(np.zeros((0, 3)))))
    return out


def _check(lz: Any, ref: Any) -> None:
    """numpy.ma's result exactly, mask kind (nomask or array) included."""
    if isinstance(ref, np.ma.MaskedArray) or ref is np.ma.masked:
        if ref is not np.ma.masked:
            _same_mask_kind(lz, ref)
        assert_ma_eq(lz, ref, exact=ref is not np.ma.masked)
    else:   # a NumPy scalar (numpy.ma's 0-d reductions): unmasked, same value
        got = lz.eval()
        assert not np.ma.getmaskarray(got) and got.dtype == np.asarray(ref).dtype
        assert got.item() == ref


UNARY_UFUNCS = [np.exp, np.log, np.sqrt, np.arcsin, np.tan, np.negative, np.absolute,
                np.log10, np.arccosh, np.sin, np.floor]


@pytest.mark.parametrize("ufunc", UNARY_UFUNCS, ids=lambda u: u.__name__)
def test_numpy_unary_ufuncs(engine: Any, ufunc: Any) -> None:
    """np.exp(m) & co.: numpy.ma's __array_wrap__ (the operand's mask array,
    its domain masked and filled with ufunc_fills' value, its fill value)."""
    for ref, lz in _ma_cases():
        with np.errstate(all="ignore"):
            r = ufunc(ref)
            got = ufunc(lz)
        assert isinstance(got, MaskedTensor)
        _check(got, r)


BINARY_UFUNC_CALLS: list[Callable[[Any], Any]] = [
    lambda p: np.add(p, 1), lambda p: np.multiply(2.5, p), lambda p: np.divide(p, 0),
    lambda p: np.divide(1, p), lambda p: np.floor_divide(p, 0.5), lambda p: np.less(p, 1),
    lambda p: np.equal(p, p), lambda p: np.maximum(p, 0), lambda p: np.add(p, p),
    lambda p: np.remainder(p, 0), lambda p: np.arctan2(p, 1.0), lambda p: np.power(p, 2),
    lambda p: np.float32(2) * p, lambda p: np.int8(3) - p, lambda p: np.float64(1) < p]


@pytest.mark.parametrize("call", range(len(BINARY_UFUNC_CALLS)))
def test_numpy_binary_ufuncs(engine: Any, call: int) -> None:
    """np.add(m, 1) & co. and NumPy scalars on the left: the ufunc on the
    data (weak Python scalars), masks or'ed and shrunk, numpy.ma's division
    domain masked and set to 1, the first masked operand's fill value."""
    f = BINARY_UFUNC_CALLS[call]
    for ref, lz in _ma_cases():
        with np.errstate(all="ignore"):
            r, got = f(ref), f(lz)
        _check(got, r)
    i8 = np.ma.masked_array(np.arange(3, dtype=np.int8), mask=[0, 1, 0])
    li8 = lt.ma.masked_array(np.arange(3, dtype=np.int8), mask=[0, 1, 0])
    _check(np.add(li8, 1), np.add(i8, 1))            # weak: int8


def test_ndarray_on_the_left_is_numpy_ma_operator(engine: Any) -> None:
    """``ndarray op m`` is numpy.ma's reflected operator (MaskedArray is an
    ndarray subclass, so Python calls it first): strong, the data under the
    mask kept, numpy.ma's own domains; % and & are NumPy's ufuncs."""
    for ref, lz in _ma_cases()[:4]:
        arr = np.arange(1.0, 7.0).reshape(ref.shape) - 3
        with np.errstate(all="ignore"):
            for f in (lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q,
                      lambda p, q: p / q, lambda p, q: p // q, lambda p, q: p ** q,
                      lambda p, q: p < q, lambda p, q: p == q, lambda p, q: p >= q,
                      lambda p, q: p % q):
                _check(f(arr, lz), f(arr, ref))
    m = np.ma.masked_array([1, 2, 3], mask=[0, 1, 0])
    lm = lt.ma.masked_array([1, 2, 3], mask=[0, 1, 0])
    _check(np.array([7, 7, 7]) & lm, np.array([7, 7, 7]) & m)


def test_numpy_masked_arrays_still_defer(engine: Any) -> None:
    """numpy.ma's operators leave ``numpy_masked op m`` to lt.ma (the
    instance's ``__array_ufunc__`` reads None, as MaskedArray._delegate_binop
    asks); np.add(numpy_masked, m) is the ufunc."""
    n2 = np.ma.masked_array([0.0, 5.0, 1.0], mask=[1, 0, 0])
    ref = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    lz = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    assert lz.__array_ufunc__ is None and callable(type(lz).__array_ufunc__)  # type: ignore[misc]
    for f in (lambda p, q: p + q, lambda p, q: p * q, lambda p, q: p / q,
              lambda p, q: np.add(p, q), lambda p, q: np.divide(p, q)):
        with np.errstate(all="ignore"):
            _check(f(n2, lz), f(n2, ref))
    # (numpy.ma's comparisons do not defer: numpy.ma computes n2 < lz itself)


def test_ufunc_protocol_refusals() -> None:
    m = lt.ma.masked_array([1.0, 2.0], mask=[0, 1])
    with pytest.raises(TypeError, match="reduce"):
        np.add.reduce(m)
    with pytest.raises(TypeError, match="keyword"):
        np.exp(m, out=np.zeros(2))
    with pytest.raises(TypeError, match="keyword"):
        np.exp(m, dtype=np.float32)


def test_tensor_on_the_left_defers(engine: Any) -> None:
    ref = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    lz = lt.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    t, x = lt.asarray([4.0, 0.0, 2.0]), np.array([4.0, 0.0, 2.0])
    with np.errstate(all="ignore"):
        for f in (lambda p, q: p + q, lambda p, q: p / q, lambda p, q: p < q,
                  lambda p, q: np.add(p, q)):
            _check(f(t, lz), f(x, ref))


MATMUL_SHAPES = [((2, 2), (2, 2)), ((3,), (3,)), ((2, 3), (3, 4)), ((3, 3), (3,)),
                 ((2, 2, 2), (2, 2)), ((0, 2), (2, 2))]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_as_numpy_ma(engine: Any, sa: Any, sb: Any) -> None:
    """numpy.ma's ``a @ b`` (NumPy 2: the matmul ufunc, masks or'ed
    elementwise): nomask operands give nomask; masks of the product's shape
    are or'ed; other shapes with something masked are refused (numpy.ma
    makes an array that fails later)."""
    rng = np.random.default_rng(5)
    xa, xb = rng.standard_normal(sa), rng.standard_normal(sb)
    ma_ = np.ma.masked_array(xa, mask=rng.random(sa) < 0.4)
    la = lt.ma.masked_array(xa, mask=np.ma.getmaskarray(ma_))
    for lazy, ref in [(lambda: lt.ma.masked_array(xa) @ lt.ma.masked_array(xb),
                       lambda: np.ma.masked_array(xa) @ np.ma.masked_array(xb)),
                      (lambda: lt.ma.masked_array(xa) @ xb, lambda: np.ma.masked_array(xa) @ xb),
                      (lambda: la @ lt.ma.masked_array(xb), lambda: ma_ @ np.ma.masked_array(xb)),
                      (lambda: la @ xb, lambda: ma_ @ xb),
                      (lambda: np.matmul(la, xb), lambda: np.matmul(ma_, xb)),
                      (lambda: xb.T @ la.T, lambda: xb.T @ ma_.T)]:
        try:
            with np.errstate(all="ignore"):
                want = ref()
                repr(want)    # (where numpy.ma's mask does not fit, this fails)
        except ValueError:
            with pytest.raises(ValueError, match="lt.ma.dot"):
                lazy()
        else:
            _check(lazy(), want)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("sa,sb", [((2, 3), (3, 4)), ((3,), (3,)), ((3, 3), (3,)),
                                   ((2, 3), (3,)), ((0, 3), (3, 2))])
def test_dot_as_numpy_ma(engine: Any, sa: Any, sb: Any, strict: bool) -> None:
    rng = np.random.default_rng(6)
    xa, xb = rng.standard_normal(sa), rng.standard_normal(sb)
    for ma_mask in (rng.random(sa) < 0.3, np.ma.nomask):
        ra = np.ma.masked_array(xa, mask=ma_mask)
        rb = np.ma.masked_array(xb, mask=rng.random(sb) < 0.3)
        la = lt.ma.masked_array(xa, mask=ma_mask)
        lb = lt.ma.masked_array(xb, mask=np.ma.getmaskarray(rb))
        _check(lt.ma.dot(la, lb, strict=strict), np.ma.dot(ra, rb, strict=strict))
        _check(la.dot(lb, strict=strict), ra.dot(rb, strict=strict))


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_any_all(engine: Any, axis: Any, keepdims: bool) -> None:
    x = np.array([[1, 0, 2], [0, 0, 3]])
    for mk in ([[0, 1, 0], [1, 1, 0]], [[1, 1, 1], [1, 1, 0]], np.ma.nomask,
               [[0, 0, 0], [0, 0, 0]]):
        ref, lz = np.ma.masked_array(x, mask=mk), lt.ma.masked_array(x, mask=mk)
        for name in ("any", "all"):
            r = getattr(ref, name)(axis=axis, keepdims=keepdims)
            _check(getattr(lz, name)(axis=axis, keepdims=keepdims), r)
            _check(getattr(lt.ma, name)(lz, axis=axis, keepdims=keepdims),
                   getattr(np.ma, name)(ref, axis=axis, keepdims=keepdims))
    _check(lt.ma.all(lt.asarray(np.ones((0, 2)))), np.ma.all(np.ones((0, 2))))
    _check(lt.ma.any(lt.asarray(np.ones((0, 2))), axis=0), np.ma.any(np.ones((0, 2)), axis=0))


def test_where(engine: Any) -> None:
    x = np.array([1.0, -2.0, 3.0, -4.0], np.float32)
    for mk in ([0, 1, 0, 0], np.ma.nomask):
        ref, lz = np.ma.masked_array(x, mask=mk), lt.ma.masked_array(x, mask=mk)
        _check(lt.ma.where(lz > 0, lz, 5), np.ma.where(ref > 0, ref, 5))   # strong 5
        _check(lt.ma.where(lz > 0, 0.5, lz), np.ma.where(ref > 0, 0.5, ref))
        _check(lt.ma.where(lz > 0, lt.ma.masked, lz), np.ma.where(ref > 0, np.ma.masked, ref))
        _check(lt.ma.where(x > 0, lz, lt.ma.masked), np.ma.where(x > 0, ref, np.ma.masked))
        cond = np.ma.masked_array([True, False, True, False], mask=[0, 0, 1, 0])
        lcond = lt.ma.masked_array([True, False, True, False], mask=[0, 0, 1, 0])
        _check(lt.ma.where(lcond, lz, x), np.ma.where(cond, ref, x))
        _check(lt.ma.where(lt.asarray(x)[::2] > 0, lz[::2], lz[1::2]),
               np.ma.where(x[::2] > 0, ref[::2], ref[1::2]))
    _check(lt.ma.where(True, lt.ma.masked_array(2.0), 3.0), np.ma.where(True, 2.0, 3.0))


def test_concatenate_and_stacks(engine: Any) -> None:
    cases = _ma_cases()
    (ra, la), (rn, ln), (rz, lz) = cases[:3]
    for arrs in ([0, 1], [1, 1], [1, 2], [2, 2], [0, 0]):
        refs = [cases[i][0] for i in arrs]
        lzs = [cases[i][1] for i in arrs]
        for axis in (0, 1, None):
            _check(lt.ma.concatenate(lzs, axis=axis), np.ma.concatenate(refs, axis=axis))
        _check(lt.ma.stack(lzs, axis=1), np.ma.stack(refs, axis=1))
        _check(lt.ma.hstack(lzs), np.ma.hstack(refs))
        _check(lt.ma.vstack(lzs), np.ma.vstack(refs))
    _check(lt.ma.concatenate([la.T, cases[3][1]]), np.ma.concatenate([ra.T, cases[3][0]]))
    _check(lt.ma.concatenate([cases[5][1], ln]), np.ma.concatenate([cases[5][0], rn]))
    _check(lt.ma.concatenate([la, np.ones((1, 3))]), np.ma.concatenate([ra, np.ones((1, 3))]))


@pytest.mark.parametrize("value", [1.5, 9.0, 0.0])
def test_masked_values(engine: Any, value: float) -> None:
    x = np.array([1.5, 1.5 + 1e-9, -2.0, 0.0])
    for shrink in (True, False):
        _check(lt.ma.masked_values(lt.asarray(x), value, shrink=shrink),
               np.ma.masked_values(x, value, shrink=shrink))
        _check(lt.ma.masked_values(lt.asarray(x), value, rtol=0, atol=0, shrink=shrink),
               np.ma.masked_values(x, value, rtol=0, atol=0, shrink=shrink))
    m = np.ma.masked_array(x, mask=[0, 0, 1, 0])
    _check(lt.ma.masked_values(lt.ma.masked_array(x, mask=[0, 0, 1, 0]), value),
           np.ma.masked_values(m, value))
    xi = np.array([1, 2, 3])
    _check(lt.ma.masked_values(lt.asarray(xi), 2), np.ma.masked_values(xi, 2))
    _check(lt.ma.masked_values(lt.asarray(xi[::2]), 5), np.ma.masked_values(xi[::2], 5))


METHODS: list[Callable[[Any], Any]] = [
    lambda p: p.ravel(), lambda p: p.flatten(), lambda p: p.reshape(1, -1).squeeze(),
    lambda p: p.transpose(), lambda p: p.copy(), lambda p: p.cumsum(),
    lambda p: p.cumsum(axis=0), lambda p: p.cumprod(axis=-1), lambda p: p.clip(0, 1),
    lambda p: p.clip(None, 0.1), lambda p: p.round(), lambda p: p.round(1), lambda p: p.real,
    lambda p: p.imag, lambda p: p.conj(), lambda p: p.ravel("F")]


@pytest.mark.parametrize("method", range(len(METHODS)))
def test_methods_as_numpy_ma(engine: Any, method: int) -> None:
    f = METHODS[method]
    for ref, lz in _ma_cases():
        if ref.ndim == 0 and method in (3, 6, 7, 15):
            continue   # (axes a 0-d array has not)
        _check(f(lz), f(ref))
    c = np.array([1 + 2j, 3j, -1.5])
    for mk in ([0, 1, 0], np.ma.nomask):
        _check(f(lt.ma.masked_array(c, mask=mk)) if method not in (8, 9) else
               lt.ma.masked_array(c, mask=mk).conj(),
               f(np.ma.masked_array(c, mask=mk)) if method not in (8, 9) else
               np.ma.masked_array(c, mask=mk).conj())


def test_views_share_writes_and_copies_do_not(engine: Any) -> None:
    ref = np.ma.masked_array(np.arange(6.0).reshape(2, 3), mask=[[0, 1, 0], [0, 0, 0]])
    lz = lt.ma.masked_array(np.arange(6.0).reshape(2, 3), mask=[[0, 1, 0], [0, 0, 0]])
    rv, lv = ref.ravel(), lz.ravel()
    rt, lt_ = ref.transpose(), lz.transpose()
    rc, lc = ref.copy(), lz.copy()
    rv[0], lv[0] = np.ma.masked, lt.ma.masked
    rt[2, 1], lt_[2, 1] = 50.0, 50.0
    rc[1, 1], lc[1, 1] = np.ma.masked, lt.ma.masked
    for got, want in ((lz, ref), (lv, rv), (lt_, rt), (lc, rc)):
        assert_ma_eq(got, want, exact=True)


def test_tolist_and_nonzero(engine: Any) -> None:
    for ref, lz in _ma_cases():
        assert lz.tolist() == ref.tolist()
        assert lz.tolist(fill_value=-1) == ref.tolist(fill_value=-1)
        if ref.ndim:   # (NumPy 2 refuses nonzero of 0-d arrays)
            for g, w in zip(lz.nonzero(), ref.nonzero(), strict=True):
                np.testing.assert_array_equal(g.eval(), w)
    assert lt.ma.masked_array(2.0, mask=True).tolist() is None
    assert lt.ma.masked_array([[1, 2]], mask=[[1, 0]]).tolist() == [[None, 2]]


# ---------------------------------------------------------------- sorting and statistics

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_MA_DTYPES = [np.float64, np.float32, np.int64, np.int16, np.uint8]


@st.composite
def _masked_pairs(draw: Any) -> tuple[Any, MaskedTensor, np.ndarray[Any, Any]]:
    """A numpy.ma array and lt.ma's of the same data and mask (or both
    without one), 0-d to 3-d, empty axes, strided or broadcast data, NaN
    and infinities among floats."""
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    dt = np.dtype(draw(st.sampled_from(_MA_DTYPES)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if dt.kind == "f":
        d = (rng.normal(size=shape) * 10).astype(dt)
        if d.size and draw(st.booleans()):
            d.flat[rng.integers(0, d.size)] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    else:
        d = rng.integers(0 if dt.kind == "u" else -20, 20, shape).astype(dt)
    layout = draw(st.sampled_from(["c", "strided", "broadcast"]))
    if layout == "strided" and d.ndim:
        d = np.repeat(d, 2, axis=-1)[..., ::2]           # (same values, a step of 2)
    elif layout == "broadcast" and d.ndim:
        d = np.broadcast_to(d[..., :1], d.shape) if d.shape[-1] else d
    mk = rng.random(shape) < draw(st.sampled_from([0.0, 0.3, 0.8, 1.0]))
    if draw(st.integers(0, 4)) == 0:
        return np.ma.masked_array(d), lt.ma.masked_array(lt.asarray(d)), d
    return (np.ma.masked_array(d, mask=mk), lt.ma.masked_array(lt.asarray(d), mask=mk), d)


# numpy.ma's own failures on valid input, not errors to mirror: its median
# writes a NaN into its read-only ``masked`` result, and with ``keepdims``
# indexes the float it got for an all-masked slice beside an inf.
_NUMPY_MA_BUGS = ("assignment destination is read-only", "object is not subscriptable")


def _same_or_both_raise(got: Callable[[], Any], want: Callable[[], Any]) -> None:
    try:
        expected = want()
    except (ValueError, TypeError, IndexError) as e:
        if any(bug in str(e) for bug in _NUMPY_MA_BUGS):
            return
        with pytest.raises(type(e)):
            # (when built, or, depending on the values, when evaluated:
            # ``2 ** m`` of a negative integer)
            res = got()
            for r in res if isinstance(res, tuple) else (res,):
                if isinstance(r, (MaskedTensor, lt.Tensor)):
                    r.eval()
        return
    g = got()
    for lazy, exp in zip(g, expected) if isinstance(g, tuple) else [(g, expected)]:
        if isinstance(lazy, MaskedTensor):
            assert_ma_eq(lazy, exp, rtol=1e-12 if lazy.dtype == np.float64 else None)
        else:
            assert_eq(lazy, np.asarray(exp))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_masked_pairs(), st.data())
def test_sorting_and_statistics_are_numpy_mas(engine: Any, pair: Any,
                                              data: st.DataObject) -> None:
    """median, average (``returned``, ``keepdims``), ptp, count_masked,
    anom, sort (masked last or first), argsort and fix_invalid of lt.ma
    against numpy.ma's: values, masks, dtypes, errors."""
    na, lm, d = pair
    ax = data.draw(st.sampled_from([None, *range(-d.ndim, d.ndim)]))
    kd = data.draw(st.booleans())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # (all masked: numpy.ma's median is its float64 ``masked`` constant,
        # of a dtype lazyten cannot know before the mask is computed)
        if not (kd and d.dtype == np.float32 and np.ma.getmaskarray(na).all()):
            _same_or_both_raise(lambda: lt.ma.median(lm, axis=ax, keepdims=kd),
                                lambda: np.ma.median(na, axis=ax, keepdims=kd))
        if not (d.dtype == np.float32 and np.isinf(d).any()):   # (the same constant)
            _same_or_both_raise(lambda: lt.ma.average(lm, axis=ax, keepdims=kd, returned=True),
                                lambda: np.ma.average(na, axis=ax, keepdims=kd, returned=True))
            _same_or_both_raise(lambda: lt.ma.anom(lm, axis=ax), lambda: np.ma.anom(na, axis=ax))
        _same_or_both_raise(lambda: lt.ma.ptp(lm, axis=ax, keepdims=kd),
                            lambda: np.ma.ptp(na, axis=ax, keepdims=kd))
        _same_or_both_raise(lambda: lt.ma.count_masked(lm, axis=ax),
                            lambda: np.ma.count_masked(na, axis=ax))
        for endwith in (True, False):
            _same_or_both_raise(lambda: lt.ma.sort(lm, axis=ax, endwith=endwith),
                                lambda: np.ma.sort(na, axis=ax, endwith=endwith))
        if d.dtype.kind != "f":              # (floats: masked and NaN tie, in any order)
            _same_or_both_raise(lambda: lt.ma.argsort(lm, axis=ax, kind="stable"),
                                lambda: np.ma.argsort(na, axis=ax, kind="stable"))
        _same_or_both_raise(lambda: lt.ma.fix_invalid(lm), lambda: np.ma.fix_invalid(na.copy()))


def test_weighted_average_and_its_errors(engine: Any) -> None:
    """Weights of ``a``'s shape or along ``axis`` (broadcast as numpy.ma's),
    masked elements left out of both sums, float64 for integer data; the
    shapes numpy.ma refuses, refused."""
    rng = np.random.default_rng(3)
    d = rng.integers(0, 9, (3, 4))
    mk = rng.random((3, 4)) < 0.4
    na, lm = np.ma.masked_array(d, mask=mk), lt.ma.masked_array(lt.asarray(d), mask=mk)
    w = rng.random((3, 4))
    for ax, wt in ((None, w), (1, w), (0, w[:, 0]), (1, w[0]), ((0, 1), w)):
        got = lt.ma.average(lm, axis=ax, weights=wt, returned=True)
        want = np.ma.average(na, axis=ax, weights=wt, returned=True)
        for g, e in zip(got, want):
            assert_ma_eq(g, e)
    with pytest.raises(TypeError, match="Axis must be specified"):
        lt.ma.average(lm, weights=w[0])
    with pytest.raises(ValueError, match="consistent"):
        lt.ma.average(lm, axis=0, weights=w[0])
    assert_ma_eq(np.average(lm, axis=0), np.ma.average(na, axis=0))     # (NumPy's, dispatched)


def test_sort_in_place_and_numpys_functions_on_masked_tensors(engine: Any) -> None:
    """``m.sort()`` sorts in place (a view and the tensors given see it);
    ``np.sort``/``np.argsort`` of a masked tensor are numpy.ma's (a sorted
    copy, axis -1); ``np.median`` and ``np.ptp`` would read the data
    (NumPy's of a MaskedArray are not numpy.ma's): refused."""
    d = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]])
    mk = np.array([[False, True, False], [False, False, True]])
    data = lt.asarray(d)
    m, nm = lt.ma.masked_array(data, mask=mk), np.ma.masked_array(d.copy(), mask=mk.copy())
    assert_ma_eq(np.sort(m), np.sort(nm))
    assert_eq(np.argsort(m), np.argsort(nm))
    row = m[0]
    assert m.sort() is None
    nm.sort()
    assert_ma_eq(m, nm)
    assert_ma_eq(row, nm[0])
    assert_eq(data, nm.data)                          # (the tensor given is written)
    for numpys in (np.median, np.ptp):   # (NumPy's read a MaskedArray's data alone)
        with pytest.raises(TypeError, match="drop its mask"):
            numpys(m)
    assert_ma_eq(m.ptp(axis=1), nm.ptp(axis=1))
    with pytest.warns(np.ma.core.MaskedArrayFutureWarning):
        lt.ma.argsort(m)


def test_means_of_arrays_without_a_mask_are_masked_where_numpy_mas_division_masks(
        engine: Any) -> None:
    """ndarray's mean and var of a MaskedArray without a mask divide into a
    MaskedArray: numpy.ma's division masks an infinite (or overflowed)
    result; NaN stays unmasked."""
    for arr in (np.array([np.inf, 1.0]), np.array([[np.inf, 1.0], [1.0, 2.0]]),
                np.array([[1e200, -1e200], [1.0, 2.0]]), np.array([np.nan, 1.0]),
                np.array([[np.inf, 1.0], [2.0, 4.0]], np.float32)):
        na, lm = np.ma.masked_array(arr), lt.ma.masked_array(lt.asarray(arr))
        ax = 1 if arr.ndim == 2 else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_ma_eq(lm.mean(axis=ax), na.mean(axis=ax))
            assert_ma_eq(lm.var(axis=ax), na.var(axis=ax))


def test_average_median_ptp_sort_edges_as_numpy_ma(engine: Any) -> None:
    """Helper 75's cases: weights along a tuple of axes in the order given;
    masked weights keep their mask; ``nomask`` where numpy.ma holds none
    (a median of data without a mask, the weights' sum of unmasked data)
    and a mask array where it holds one; ``ptp`` of all-masked booleans is
    masked; ``sort`` of a 0-d array is NumPy's AxisError."""
    rng = np.random.default_rng(5)
    d = rng.integers(0, 9, (2, 3, 4)).astype(float)
    mk = rng.random((2, 3, 4)) < 0.3
    na, lm = np.ma.masked_array(d, mask=mk), lt.ma.masked_array(lt.asarray(d), mask=mk)
    w = rng.random((4, 2))
    assert_ma_eq(lt.ma.average(lm, axis=(2, 0), weights=w),
                 np.ma.average(na, axis=(2, 0), weights=w))
    with pytest.raises(ValueError, match="consistent"):
        lt.ma.average(lm, axis=(2, 0), weights=w.T)
    d2 = rng.integers(0, 9, (3, 4)).astype(float)
    mw = np.ma.masked_array(rng.random((3, 4)), mask=rng.random((3, 4)) < 0.4)
    for weights in (mw, lt.ma.masked_array(lt.asarray(mw.data), mask=mw.mask)):
        got = lt.ma.average(lt.ma.masked_array(lt.asarray(d2)), axis=0, weights=weights,
                            returned=True)
        want = np.ma.average(np.ma.masked_array(d2), axis=0, weights=mw, returned=True)
        for g, e in zip(got, want):
            assert_ma_eq(g, e)
    got_avg, got_scl = lt.ma.average(lt.ma.masked_array(lt.asarray(d2)), axis=1,
                                     weights=mw.data, returned=True)
    assert lt.ma.getmask(got_scl) is lt.ma.nomask
    ints = rng.integers(0, 9, (3, 4))
    assert lt.ma.getmask(lt.ma.median(lt.ma.masked_array(lt.asarray(ints)), axis=0)) \
        is lt.ma.nomask
    assert lt.ma.getmask(lt.ma.median(lt.asarray(ints), axis=0)) is lt.ma.nomask
    got_med = lt.ma.median(lm, axis=1)
    want_med = np.ma.median(na, axis=1)
    assert_ma_eq(got_med, want_med)
    assert (lt.ma.getmask(got_med) is lt.ma.nomask) == (np.ma.getmask(want_med) is np.ma.nomask)
    b = np.array([True, False])
    assert_ma_eq(lt.ma.ptp(lt.ma.masked_array(lt.asarray(b), mask=[True, True])),
                 np.ma.ptp(np.ma.masked_array(b, mask=[True, True])))
    with pytest.raises(np.exceptions.AxisError):
        lt.ma.sort(lt.ma.masked_array(lt.asarray(np.float64(1.0)), mask=False))


def test_copy_copy_and_in_are_numpy_mas() -> None:
    # ``copy.copy`` was a second handle on the data and mask (writes to either
    # reached the other); ``x in m`` of a 2-d one walked the rows, whose truth
    # values are ambiguous (numpy.ma: ``(m == x).any()``, masked left out).
    import copy
    d = np.array([[1.5, 2, 3], [4, 5, 6]])
    mk = np.array([[0, 1, 0], [0, 0, 1]], bool)
    nm, lm = np.ma.masked_array(d.copy(), mk.copy()), lt.ma.masked_array(d.copy(), mk.copy())
    nc, lc = copy.copy(nm), copy.copy(lm)
    for m in (nm, lm):
        m[0, 0] = 100.0
        m[0, 2] = np.ma.masked
    lc[1, 0] = -1.0
    nc[1, 0] = -1.0
    for got, want in ((lc, nc), (lm, nm)):
        np.testing.assert_array_equal(lt.ma.getmaskarray(got).eval(), np.ma.getmaskarray(want))
        np.testing.assert_array_equal(got.filled(0).eval(), want.filled(0))
    for v in (1.5, 2.0, 3.0, 6.0, 7.0, 100.0):
        assert (v in lm) == (v in nm), v


def test_format_and_item_are_numpy_mas() -> None:
    # ``f"{m[0]:.2f}"`` raised (no __format__ for a spec) and ``m.item()``
    # was missing; numpy.ma: the element's value or "--", the data's item.
    d, mk = np.array([1.5, 2.25, -3.0]), np.array([0, 1, 0], bool)
    lm, nm = lt.ma.masked_array(d, mk), np.ma.masked_array(d, mk)
    for k in range(3):
        for spec in (".2f", "", ">8.3e"):
            assert format(lm[k], spec) == format(nm[k], spec), (k, spec)
        assert lm.item(k) == nm.item(k)
    assert lm[:1].item() == nm[:1].item() and format(lm, "") == format(nm, "")


_MA_FUNCTIONS_1 = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "arcsinh", "arccosh",
                   "arctanh", "sinh", "cosh", "tanh", "absolute", "fabs", "negative", "floor",
                   "ceil", "logical_not", "conjugate", "log2", "log10"]
_MA_FUNCTIONS_2 = ["add", "subtract", "multiply", "arctan2", "hypot", "equal", "not_equal",
                   "less", "less_equal", "greater", "greater_equal", "logical_and",
                   "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
                   "divide", "true_divide", "floor_divide", "remainder", "mod", "fmod",
                   "power", "maximum", "minimum"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_masked_pairs(), st.data())
def test_numpy_ma_functions_of_ufuncs(engine: Any, pair: Any, data: st.DataObject) -> None:
    """numpy.ma's module functions of its ufuncs (``ma.sin``, ``ma.arctan2``,
    ``ma.remainder``, ``ma.maximum``, ...; lt.ma had only ``sqrt``, ``log``,
    ``exp`` and ``abs``): their domains, masks, data under the mask, dtypes
    and errors, on every operand kind (masked, ndarray, NumPy and Python
    scalars) against numpy.ma's."""
    na, lm, d = pair
    name = data.draw(st.sampled_from(_MA_FUNCTIONS_1 + _MA_FUNCTIONS_2))
    ours, theirs = getattr(lt.ma, name), getattr(np.ma, name)
    if name in _MA_FUNCTIONS_1:
        args_np, args_lt = (na,), (lm,)
    else:
        other = data.draw(st.sampled_from(["reversed", "array", "int", "float", "np.float32"]))
        if other == "reversed" and d.ndim:
            o_np, o_lt = na[..., ::-1], lm[..., ::-1]
        elif other == "array":
            o_np = o_lt = (np.arange(d.size).reshape(d.shape) % 5 - 2).astype(d.dtype)
        else:
            o_np = o_lt = {"int": 3, "float": 0.5, "np.float32": np.float32(2.5),
                           "reversed": 2}[other]
        first = data.draw(st.booleans())
        args_np, args_lt = ((na, o_np), (lm, o_lt)) if first else ((o_np, na), (o_lt, lm))
    with np.errstate(all="ignore"):
        _same_or_both_raise(lambda: ours(*args_lt), lambda: theirs(*args_np))


_MA_METHOD_CALLS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("reshape", lambda m, a: m.reshape(a, -1)), ("ravel", lambda m, a: m.ravel(a)),
    ("squeeze", lambda m, a: m.squeeze(a)), ("transpose", lambda m, a: m.transpose(a)),
    ("cumsum", lambda m, a: m.cumsum(a, axis=-1)), ("cumprod", lambda m, a: m.cumprod(a)),
    ("clip", lambda m, a: m.clip(a, 0, 2)), ("round", lambda m, a: m.round(a, 1)),
    ("round_", lambda m, a: m.round_(a)), ("around", lambda m, a: m.around(a, 1)),
    ("amax", lambda m, a: m.amax(a, axis=0)), ("amin", lambda m, a: m.amin(a)),
    ("product", lambda m, a: m.product(a, axis=-1)), ("copy", lambda m, a: m.copy(a)),
    ("asarray", lambda m, a: m.asarray(a, dtype=np.float32)),
    ("asanyarray", lambda m, a: m.asanyarray(a)),
    ("shape", lambda m, a: m.shape(a)), ("size", lambda m, a: m.size(a)),
    ("ndim", lambda m, a: m.ndim(a)), ("isMaskedArray", lambda m, a: m.isMaskedArray(a)),
    ("isMA", lambda m, a: m.isMA(np.ones(2))), ("isarray", lambda m, a: m.isarray(a))]


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_masked_pairs(), st.data())
def test_numpy_ma_functions_of_methods(engine: Any, pair: Any, data: st.DataObject) -> None:
    """numpy.ma's functions of its methods and their aliases (``ma.reshape``,
    ``ma.cumsum``, ``ma.amax``, ``ma.round_``, ...), its predicates and
    ``asarray``, on masked operands and plain arrays, against numpy.ma's."""
    na, lm, d = pair
    name, call = data.draw(st.sampled_from(_MA_METHOD_CALLS))
    if name == "clip" and d.ndim == 0:
        return          # (numpy.ma's clip of a 0-d array is its float64 masked constant)
    for np_a, lt_a in ((na, lm), (d, d)):
        with np.errstate(all="ignore"):
            if name in ("shape", "size", "ndim", "isMaskedArray", "isMA", "isarray"):
                assert call(lt.ma, lt_a) == call(np.ma, np_a)
                continue
            _same_or_both_raise(lambda: call(lt.ma, lt_a), lambda: call(np.ma, np_a))


def test_numpy_ma_creation_functions(engine: Any) -> None:
    """numpy.ma's ``zeros``, ``ones``, ``empty``, ``arange`` (masked arrays
    without a mask), ``zeros_like`` & co. (the operand's mask and fill
    value kept) and ``masked_all``/``masked_all_like``: ``lt.ma.zeros`` was
    lazyten's plain ``zeros`` (a tensor without a mask), imported into the
    module for its own use."""
    a = np.ma.masked_array([1, 2, 3], mask=[0, 1, 0], fill_value=7)
    la = lt.ma.masked_array([1, 2, 3], mask=[0, 1, 0], fill_value=7)
    for name, args in (("zeros", ((2, 3),)), ("ones", ((4,), np.int32)),
                       ("arange", (1, 7, 2)), ("masked_all", ((2, 2), np.int8))):
        want, got = getattr(np.ma, name)(*args), getattr(lt.ma, name)(*args)
        assert_ma_eq(got, want, check_fill=True)
        assert (lt.ma.getmask(got) is lt.ma.nomask) == (np.ma.getmask(want) is np.ma.nomask)
    assert lt.ma.empty((2, 3)).shape == (2, 3) and lt.ma.empty((2,)).dtype == np.float64
    for name in ("zeros_like", "ones_like"):
        for dtype in (None, np.float32):
            for np_a, lt_a in ((a, la), (np.arange(3), np.arange(3))):
                assert_ma_eq(getattr(lt.ma, name)(lt_a, dtype=dtype),
                             getattr(np.ma, name)(np_a, dtype=dtype), check_fill=True)
    got = lt.ma.empty_like(la)
    assert got.shape == (3,) and np.array_equal(np.ma.getmaskarray(got.eval()), a.mask)
    assert_ma_eq(lt.ma.masked_all_like(la), np.ma.masked_all_like(a), check_fill=True)


def test_mean_and_var_of_a_shrunk_mask_with_nan_are_numpy_mas(engine: Any) -> None:
    """A mask numpy.ma shrinks (``masked_where`` that masked nothing): its
    ``mean``/``var`` are ndarray's, a NaN unmasked; with a masked element,
    numpy.ma's division masks the NaN mean.  lazyten took the masked
    computation for both (the same values, it assumed), masking the NaN
    where numpy.ma holds nomask (found by ``lt.ma.cov`` against numpy.ma)."""
    x = np.array([[np.nan, 1.0], [2.0, 3.0]])
    for cut in (100.0, 2.5):
        for fn in (lambda m: m.mean(axis=1), lambda m: m.var(axis=0), lambda m: m.var(),
                   lambda m: m.mean(), lambda m: m.std(axis=1)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _same_answer(fn(lt.ma.masked_where(x > cut, x)),
                             fn(np.ma.masked_where(x > cut, x)))


def _same_answer(got: Any, want: Any) -> None:
    """lt.ma's answer against numpy.ma's, whatever it is: a masked tensor
    (values, mask, dtype, fill value, nomask or not), a tensor, a mask or
    nomask, tuples and lists of these, slices, numbers."""
    if isinstance(got, MaskedTensor):
        exact_type = isinstance(want, np.ma.MaskedArray) and want is not np.ma.masked
        assert_ma_eq(got, want, rtol=1e-12 if got.dtype == np.float64 else None,
                     check_fill=exact_type)
        if exact_type:
            assert (lt.ma.getmask(got) is lt.ma.nomask) == (np.ma.getmask(want) is np.ma.nomask)
    elif isinstance(got, lt.Tensor):
        assert not isinstance(want, np.ma.MaskedArray), type(want)
        assert_eq(got, np.asarray(want))
    elif isinstance(got, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            _same_answer(g, w)
    elif got is lt.ma.nomask or want is np.ma.nomask:
        assert got is want
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want and type(got) is type(want), (got, want)


def _agree(got: Callable[[], Any], want: Callable[[], Any]) -> None:
    try:
        expected = want()
    except AttributeError as e:
        # numpy.ma's own failures: nothing to compare with (its choose of
        # 0-d arrays calls a NumPy scalar's ``__setmask__``; the fill value
        # of its ``masked`` constant, read, is stored into it)
        if "__setmask__" in str(e) or "attributes of masked are not writeable" in str(e):
            return
        raise
    except (ValueError, TypeError, IndexError, NotImplementedError) as e:
        if any(bug in str(e) for bug in _NUMPY_MA_BUGS):
            return
        with pytest.raises(type(e)):
            res = got()
            for r in res if isinstance(res, (tuple, list)) else (res,):
                if isinstance(r, (MaskedTensor, lt.Tensor)):
                    r.eval()
        return
    _same_answer(got(), expected)


def _choice_index(m: Any, d: np.ndarray[Any, Any]) -> Any:
    idx = (np.arange(d.size) % 2).reshape(d.shape)
    return m.masked_array(idx, mask=(np.arange(d.size) % 3 == 1).reshape(d.shape))


# numpy.ma's remaining functions (lt.ma had none of them: AttributeError), each
# called as numpy.ma code calls it, ``m`` the module (lt.ma or numpy.ma).
_MA_MORE_CALLS: list[tuple[str, Callable[[Any, Any, Any], Any]]] = [
    ("left_shift", lambda m, a, d: m.left_shift(a, 2)),
    ("right_shift", lambda m, a, d: m.right_shift(a, 1)),
    ("angle", lambda m, a, d: m.angle(a)),
    ("expand_dims", lambda m, a, d: m.expand_dims(a, 0)),
    ("take", lambda m, a, d: m.take(a, [0, -1])),
    ("take axis", lambda m, a, d: m.take(a, [1, 0], axis=-1)),
    ("take masked", lambda m, a, d: m.take(a, m.masked_array([0, 1, 0], mask=[0, 1, 0]))),
    ("compress", lambda m, a, d: m.compress([True, False, True], a, axis=-1)),
    ("repeat", lambda m, a, d: m.repeat(a, 2, axis=-1)),
    ("repeat flat", lambda m, a, d: m.repeat(a, 2)),
    ("swapaxes", lambda m, a, d: m.swapaxes(a, 0, -1)),
    ("diagonal", lambda m, a, d: m.diagonal(a)),
    ("trace", lambda m, a, d: m.trace(a)),
    ("trace offset", lambda m, a, d: m.trace(a, 1, dtype=np.float32)),
    ("choose", lambda m, a, d: m.choose(_choice_index(m, d), [a, a * 2])),
    ("choose masked", lambda m, a, d: m.choose(_choice_index(m, d), [a, m.masked])),
    ("resize", lambda m, a, d: m.resize(a, (2, 3))),
    ("outer", lambda m, a, d: m.outer(a, a)),
    ("outerproduct", lambda m, a, d: m.outerproduct(a, 2)),
    ("inner", lambda m, a, d: m.inner(a, a)),
    ("innerproduct", lambda m, a, d: m.innerproduct(a, 3)),
    ("diag", lambda m, a, d: m.diag(a)),
    ("diag k", lambda m, a, d: m.diag(a, 1)),
    ("append", lambda m, a, d: m.append(a, a)),
    ("append axis", lambda m, a, d: m.append(a, a, axis=-1)),
    ("diff", lambda m, a, d: m.diff(a)),
    ("diff 2", lambda m, a, d: m.diff(a, 2, axis=0)),
    ("diff prepend", lambda m, a, d: m.diff(a, prepend=1, append=a)),
    ("convolve", lambda m, a, d: m.convolve(a.ravel(), a.ravel()[:2])),
    ("convolve quiet", lambda m, a, d: m.convolve(a.ravel()[::-1], a.ravel(), "same",
                                                  propagate_mask=False)),
    ("correlate", lambda m, a, d: m.correlate(a.ravel(), a.ravel()[:3], "full")),
    ("allclose", lambda m, a, d: m.allclose(a, a * (1 + 1e-7))),
    ("allclose far", lambda m, a, d: m.allclose(a, a + 1, masked_equal=False)),
    ("allequal", lambda m, a, d: m.allequal(a, a)),
    ("allequal strict", lambda m, a, d: m.allequal(a, d, fill_value=False)),
    ("alltrue", lambda m, a, d: m.alltrue(a)),
    ("sometrue", lambda m, a, d: m.sometrue(a, axis=-1)),
    ("atleast_1d", lambda m, a, d: m.atleast_1d(a)),
    ("atleast_2d", lambda m, a, d: m.atleast_2d(a, d)),
    ("atleast_3d", lambda m, a, d: m.atleast_3d(a)),
    ("column_stack", lambda m, a, d: m.column_stack([a, d])),
    ("dstack", lambda m, a, d: m.dstack([a, a])),
    ("row_stack", lambda m, a, d: m.row_stack([a, d])),
    ("hsplit", lambda m, a, d: m.hsplit(a, 1)),
    ("diagflat", lambda m, a, d: m.diagflat(a, -1)),
    ("ediff1d", lambda m, a, d: m.ediff1d(a, to_end=[5], to_begin=m.masked_array([1], mask=1))),
    ("compress_nd", lambda m, a, d: m.compress_nd(a)),
    ("compress_nd axis", lambda m, a, d: m.compress_nd(a, 0)),
    ("compress_rowcols", lambda m, a, d: m.compress_rowcols(a)),
    ("compress_rows", lambda m, a, d: m.compress_rows(a)),
    ("compress_cols", lambda m, a, d: m.compress_cols(a)),
    ("mask_rowcols", lambda m, a, d: m.mask_rowcols(a)),
    ("mask_rows", lambda m, a, d: m.mask_rows(a)),
    ("mask_cols", lambda m, a, d: m.mask_cols(a)),
    ("notmasked_edges", lambda m, a, d: m.notmasked_edges(a)),
    ("notmasked_edges axis", lambda m, a, d: m.notmasked_edges(a, axis=0)),
    ("flatnotmasked_edges", lambda m, a, d: m.flatnotmasked_edges(a)),
    ("notmasked_contiguous", lambda m, a, d: m.notmasked_contiguous(a)),
    ("flatnotmasked_contiguous", lambda m, a, d: m.flatnotmasked_contiguous(a)),
    ("clump_masked", lambda m, a, d: m.clump_masked(a.ravel())),
    ("clump_unmasked", lambda m, a, d: m.clump_unmasked(a.ravel())),
    ("cov", lambda m, a, d: m.cov(a)),
    ("cov cols", lambda m, a, d: m.cov(a, rowvar=False, ddof=0)),
    ("cov xy", lambda m, a, d: m.cov(a, d, bias=True)),
    ("corrcoef", lambda m, a, d: m.corrcoef(a)),
    ("vander", lambda m, a, d: m.vander(a, 3)),
    ("unique", lambda m, a, d: m.unique(a)),
    ("unique index", lambda m, a, d: m.unique(a, return_index=True, return_inverse=True)),
    ("intersect1d", lambda m, a, d: m.intersect1d(a, d)),
    ("union1d", lambda m, a, d: m.union1d(a, [1, 2])),
    ("setdiff1d", lambda m, a, d: m.setdiff1d(a, [1, 2])),
    ("setxor1d", lambda m, a, d: m.setxor1d(a, d)),
    ("isin", lambda m, a, d: m.isin(a, [1, 2, 3])),
    ("in1d", lambda m, a, d: m.in1d(a, d, invert=True)),
    ("mask_or", lambda m, a, d: m.mask_or(m.getmaskarray(a), d > 3)),
    ("mask_or nomask", lambda m, a, d: m.mask_or(m.nomask, m.getmaskarray(a), shrink=False)),
    ("make_mask", lambda m, a, d: m.make_mask(m.getmaskarray(a))),
    ("make_mask of data", lambda m, a, d: m.make_mask(a, shrink=False)),
    ("make_mask_none", lambda m, a, d: m.make_mask_none(d.shape)),
    ("is_mask", lambda m, a, d: m.is_mask(m.getmaskarray(a))),
    ("flatten_mask", lambda m, a, d: m.flatten_mask(m.getmaskarray(a))),
    ("maximum_fill_value", lambda m, a, d: m.maximum_fill_value(a)),
    ("minimum_fill_value", lambda m, a, d: m.minimum_fill_value(a)),
    ("common_fill_value", lambda m, a, d: m.common_fill_value(a, a * 1)),
]


@settings(max_examples=1000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_masked_pairs(), st.sampled_from(_MA_MORE_CALLS))
def test_numpy_ma_remaining_functions(engine: Any, pair: Any,
                                      call: tuple[str, Callable[..., Any]]) -> None:
    """numpy.ma's remaining module functions (shifts, ``take``, ``choose``,
    ``outer``, ``diff``, ``convolve``, ``allclose``, the stacking helpers,
    rows and columns, runs of the mask, ``cov``, the set operations, mask
    and fill-value helpers, ...): lt.ma had none of them.  Values, masks,
    dtypes, fill values, nomask and errors against numpy.ma's, on masked
    operands and plain arrays of every layout, 0-d to 3-d and empty."""
    na, lm, d = pair
    name, fn = call
    for np_a, lt_a in ((na, lm), (d, d)):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _agree(lambda: fn(lt.ma, lt_a, d), lambda: fn(np.ma, np_a, d))


def test_numpy_ma_in_place_functions_write_as_numpy_mas(engine: Any) -> None:
    """``put``/``putmask`` (functions and the method), ``fill``,
    ``set_fill_value``: written as numpy.ma writes (masks cleared or taken
    from a masked value, views see the write, the mask shrunk after
    ``put``); NumPy arrays are refused, never written."""
    d = np.arange(6.0).reshape(2, 3)
    mk = np.array([[0, 1, 0], [0, 0, 1]], bool)
    value = np.ma.masked_array([10.0, 20.0], mask=[1, 0])
    steps: list[Callable[[Any, Any], None]] = [
        lambda m, a: m.put(a, [0, 1, 5], [7.0, 8.0]),
        lambda m, a: m.put(a, [1, 2], m.masked_array(value.data, value.mask)),
        lambda m, a: a.put([4], -1.0),
        lambda m, a: m.putmask(a, a.data > 3, 9.0),
        lambda m, a: m.putmask(a, [True, False, True], m.masked_array([1.0, 2.0, 3.0],
                                                                       mask=[0, 0, 1])),
        lambda m, a: a.fill(4.5),
        lambda m, a: m.set_fill_value(a, -7.0)]
    for k, step in enumerate(steps):
        for masked in (True, False):
            na = np.ma.masked_array(d.copy(), mk.copy() if masked else np.ma.nomask)
            la = lt.ma.masked_array(d.copy(), mk.copy() if masked else lt.ma.nomask)
            nv, lv = na[1], la[1]                     # (views see the writes)
            step(np.ma, na)
            step(lt.ma, la)
            assert_ma_eq(la, na, check_fill=True, exact=True)
            assert_ma_eq(lv, nv, exact=True)
            assert (lt.ma.getmask(la) is lt.ma.nomask) == (np.ma.getmask(na) is np.ma.nomask), k
    t = lt.asarray(d)
    lt.ma.putmask(t, t > 3, 0.0)
    assert_eq(t, np.where(d > 3, 0.0, d))
    for bad in (lambda: lt.ma.put(d, [0], 1.0), lambda: lt.ma.putmask(d, d > 1, 0.0)):
        with pytest.raises(TypeError, match="never writes a NumPy array"):
            bad()
    with pytest.raises(TypeError):          # (copyto's same-kind rule, as numpy.ma)
        lt.ma.putmask(lt.ma.masked_array([1, 2]), [True, False], 1.5)
    assert np.array_equal(d, np.arange(6.0).reshape(2, 3))


def test_numpy_functions_dispatch_to_numpy_ma_remaining_functions(engine: Any) -> None:
    """NumPy's functions of a masked tensor reach lt.ma's new functions and
    methods (``np.diff(m)``, ``np.trace(m)``, ``np.atleast_2d(m)``, ...),
    where they were refused as dropping the mask: numpy.ma's answers (NumPy's
    own ``np.append``/``np.cov`` of a numpy.ma array drop its mask)."""
    d = np.arange(12.0).reshape(3, 4) - 5
    mk = (np.arange(12) % 5 == 1).reshape(3, 4)
    na, la = np.ma.masked_array(d, mk), lt.ma.masked_array(d, mk)
    for name, args in (("diff", ()), ("trace", ()), ("atleast_3d", ()), ("swapaxes", (0, 1)),
                       ("take", ([1, 3],)), ("repeat", (2, 0)), ("expand_dims", (1,)),
                       ("diagonal", ()), ("append", (na,)), ("cov", ()), ("corrcoef", ())):
        lt_args = tuple(la if a is na else a for a in args)
        _same_answer(getattr(np, name)(la, *lt_args), getattr(np.ma, name)(na, *args))
    _same_answer(np.column_stack([la, la]), np.ma.column_stack([na, na]))


def test_found_by_the_masked_programs(engine: Any) -> None:
    """Differences from numpy.ma that the random masked programs
    (``tests/masked_programs.py``) found, each against numpy.ma."""
    x = np.array([[np.nan, 1.0], [2.0, 3.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # masked_where of a masked array holding a mask array keeps one (it
        # shrank to nomask: then an empty mean was NaN, numpy.ma's masked)
        for m_np, m_lt in ((np.ma.masked_invalid(x), lt.ma.masked_invalid(x)),
                           (np.ma.masked_array(x), lt.ma.masked_array(x))):
            _same_answer(lt.ma.masked_where(m_lt > 100, m_lt),
                         np.ma.masked_where(m_np > 100, m_np))
        e = np.zeros(0)
        _same_answer(lt.ma.masked_where(lt.ma.masked_invalid(e) > 1,
                                        lt.ma.masked_invalid(e)).mean(axis=0),
                     np.ma.masked_where(np.ma.masked_invalid(e) > 1,
                                        np.ma.masked_invalid(e)).mean(axis=0))
        # an empty boolean ptp is NumPy's ValueError (it was numpy.ma's masked)
        b = np.zeros(0, bool)
        _agree(lambda: lt.ma.ptp(lt.ma.masked_array(b, mask=b)),
               lambda: np.ma.ptp(np.ma.masked_array(b, mask=b)))
        # the mean of no element is numpy.ma's masked, a float64, for every dtype
        for dt in (np.float16, np.float32, np.int8):
            z = np.zeros((0, 2), dt)
            got = lt.ma.masked_array(z, mask=z > 0).mean()
            assert got.dtype == np.float64 and bool(got.eval().mask)
            assert np.ma.masked_array(z, mask=z > 0).mean() is np.ma.masked
        # a sum over an empty axis is masked only where numpy.ma holds a mask
        z = np.zeros((1, 2, 0), np.int16)
        for make in (lambda m: m.masked_where(z > 1, z), lambda m: m.masked_array(z),
                     lambda m: m.masked_array(z, mask=np.zeros(z.shape, bool))):
            _same_answer(make(lt.ma).sum(axis=-1, keepdims=True),
                         make(np.ma).sum(axis=-1, keepdims=True))
    # an element of another masked array written into one without a mask:
    # numpy.ma's element is a scalar, which gives it no mask (unless masked)
    for cut in (0.5, -5.0):
        d = np.array([0.25, 1.0, 2.0])
        a_np, a_lt = np.ma.masked_where(d > 5, d.copy()), lt.ma.masked_where(d > 5, d.copy())
        o_np, o_lt = np.ma.masked_where(d > cut, d), lt.ma.masked_where(d > cut, d)
        a_np[0], a_lt[0] = o_np[1], o_lt[1]
        _same_answer(a_lt, a_np)
    # a masked element written masks and leaves the data (numpy.ma's
    # ``masked``): its data, an inf here, was cast into the integers and
    # overflowed
    for m in (np.ma, lt.ma):
        a = m.masked_array(np.array([1, 2, 3]), mask=[0, 0, 0])
        b = m.masked_array(np.array([np.inf, 2.5, 7.0]), mask=[1, 0, 0])
        a[0], a[1], a[2:] = b[0], b[1], b[2]
        if m is np.ma:
            want = a
        else:
            _same_answer(a, want)
            np.testing.assert_array_equal(a.data.eval(), want.data)
    # ravel is NumPy's: a copy of reversed data (a write to it stays there)
    d = np.arange(7.0)[2::-1]
    m_np, m_lt = (m.masked_array(d.copy()[::-1][::-1], mask=np.zeros(3, bool))
                  for m in (np.ma, lt.ma))
    r_np, r_lt = m_np.ravel(), m_lt.ravel()
    r_np -= r_np
    r_lt -= r_lt
    _same_answer(m_lt, m_np)
    # numpy.ma's mask_or (comparisons, allequal): one operand's mask as it is
    # where the other holds nomask, both broadcast together where both hold
    # one (then a True an empty axis broadcasts away counts for nothing)
    e2, one = np.zeros((0, 1)), np.zeros(1)
    for m_np, m_lt in ((np.ma.fix_invalid(e2), lt.ma.fix_invalid(e2)),
                       (np.ma.masked_invalid(e2), lt.ma.masked_invalid(e2))):
        o_np, o_lt = np.ma.masked_where(one < 0.5, one), lt.ma.masked_where(one < 0.5, one)
        _same_answer(m_lt > o_lt, m_np > o_np)
        _same_answer(lt.ma.allequal(m_lt, o_lt, fill_value=False),
                     np.ma.allequal(m_np, o_np, fill_value=False))
    # putmask reads a masked condition as its data
    d = np.array([1.0, 5.0, 9.0])
    a_np, a_lt = np.ma.masked_array(d.copy(), [0, 1, 0]), lt.ma.masked_array(d.copy(), [0, 1, 0])
    np.ma.putmask(a_np, a_np > 4, -1.0)
    lt.ma.putmask(a_lt, a_lt > 4, -1.0)
    _same_answer(a_lt, a_np)
    # resize keeps the fill value only where NumPy's zeros_like answers;
    # mask_rowcols keeps it; sometrue/alltrue over an empty axis are masked
    # only where a mask is held
    f = np.array([1, 2, 3])
    for shape in ((2, 2), (0,)):
        _same_answer(lt.ma.resize(lt.ma.masked_array(f, [0, 1, 0], fill_value=7), shape),
                     np.ma.resize(np.ma.masked_array(f, [0, 1, 0], fill_value=7), shape))
    g = np.arange(4.0).reshape(2, 2)
    _same_answer(lt.ma.mask_rowcols(lt.ma.masked_array(g, [[0, 1], [0, 0]], fill_value=7)),
                 np.ma.mask_rowcols(np.ma.masked_array(g, [[0, 1], [0, 0]], fill_value=7)))
    z = np.zeros((0, 2))
    for fn in ("sometrue", "alltrue"):
        for make in (lambda m: m.masked_array(z), lambda m: m.masked_array(z, mask=z > 0)):
            _same_answer(getattr(lt.ma, fn)(make(lt.ma)), getattr(np.ma, fn)(make(np.ma)))


def test_allclose_with_infinities_is_quiet_as_numpy_mas(engine: Any) -> None:
    """numpy.ma's ``allclose`` leaves infinities out of ``|a - b|``; lazyten
    subtracted them, and ``inf - inf`` warned when it ran."""
    a, b = np.array([np.inf, 1.0, -np.inf]), np.array([np.inf, 1.0, np.inf])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x, y in ((a, a), (a, b), (b, a[::-1])):
            for mk in ([0, 0, 0], [0, 0, 1]):
                assert bool(lt.ma.allclose(lt.ma.masked_array(x, mask=mk), y)) == \
                    bool(np.ma.allclose(np.ma.masked_array(x, mask=mk), y))


def test_power_holds_a_mask_where_numpy_mas_mask_or_does(engine: Any) -> None:
    """``**``'s nomask is numpy.ma's ``mask_or`` of the operands' masks (and
    nothing invalid): a True of the exponent's mask broadcast away by an
    empty base still gives a mask array (found by the masked programs)."""
    for base in (np.zeros((0, 2), np.int64), np.arange(4.0).reshape(2, 2) - 1):
        for e in (np.array([0, 1]), np.array([0.5, -1.5])):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _same_answer(lt.ma.fix_invalid(base) ** lt.ma.masked_where(e < 0.5, e),
                             np.ma.fix_invalid(base) ** np.ma.masked_where(e < 0.5, e))


def test_masked_sums_add_in_the_datas_memory_order(engine: Any) -> None:
    """numpy.ma's reductions read its ``filled`` data, laid out as the data:
    a Fortran-ordered or permuted float32 array under a C mask is summed in
    its memory order, to the bit, and so are the results of its operations
    (copied into with ``copyto``, the operands' layout kept).  lazyten
    computed both as ``where(mask, ..., data)``, which the C mask lays out
    C: another order of addition (found by the masked programs: a float32
    mean 1 ulp off)."""
    rng = np.random.default_rng(5)
    base = rng.random((40, 30, 20)).astype(np.float32)
    for d in (np.asfortranarray(base), base.transpose(2, 0, 1), base[:, ::2]):
        k = rng.random(d.shape) < 0.2
        for ax in (None, 0, 1, (0, 2)):
            for fn in (lambda m: m.sum(axis=ax), lambda m: m.mean(axis=ax),
                       lambda m: m.prod(axis=ax), lambda m: (m * 2).sum(axis=ax),
                       lambda m: (m + m).mean(axis=ax), lambda m: (m / 3).sum(axis=ax),
                       lambda m: m.filled(0).sum(axis=ax), lambda m: (m ** 2).sum(axis=ax),
                       lambda m: np.ma.sqrt(m).sum(axis=ax) if isinstance(m, np.ma.MaskedArray)
                       else lt.ma.sqrt(m).sum(axis=ax), lambda m: m.round(1).sum(axis=ax)):
                want = fn(np.ma.masked_array(d, mask=k))
                got = fn(lt.ma.masked_array(d, mask=k)).eval()
                same_bits(np.ma.getdata(got), np.ma.getdata(want))


def test_masked_print_option_is_numpy_mas(engine: Any) -> None:
    """``lt.ma.masked_print_option`` is numpy.ma's: a masked tensor prints
    as the numpy.ma array it evaluates to, with what it is set to show."""
    m = lt.ma.masked_array([1.0, 2.0], mask=[0, 1])
    assert lt.ma.masked_print_option is np.ma.masked_print_option
    shown = lt.ma.masked_print_option.display()
    try:
        lt.ma.masked_print_option.set_display("??")
        assert "??" in str(m) and str(m) == str(np.ma.masked_array([1.0, 2.0], mask=[0, 1]))
    finally:
        lt.ma.masked_print_option.set_display(shown)
    assert "--" in str(m)


def test_metadata_and_conversion_methods_are_numpy_mas(engine: Any) -> None:
    """``hardmask`` (False: soft masks), ``baseclass``, ``recordmask``,
    ``iscontiguous``, ``tobytes`` (masked elements as the fill value),
    ``searchsorted`` (ndarray's, of the data) and ``resize`` (numpy.ma's
    ValueError) against numpy.ma's."""
    d = np.array([3.0, 1.0, 2.0])
    nm = np.ma.masked_array(d, mask=[0, 1, 0], fill_value=7)
    lm = lt.ma.masked_array(d, mask=[0, 1, 0], fill_value=7)
    assert lm.hardmask is nm.hardmask is False and lm.baseclass is nm.baseclass
    np.testing.assert_array_equal(np.asarray(lm.recordmask), nm.recordmask)
    for order in ("C", "F"):
        assert lm.tobytes(order=order) == nm.tobytes(order=order)
        assert lm.tobytes(0, order) == nm.tobytes(0, order)
    for v in (2.5, [0.5, 3.5]):
        assert_eq(lm.searchsorted(v), np.asarray(nm.searchsorted(v)))
    two = np.ones((2, 3))
    for m_np, m_lt in ((np.ma.masked_array(two), lt.ma.masked_array(two)),
                       (np.ma.masked_array(two)[:, ::2], lt.ma.masked_array(two)[:, ::2])):
        assert m_lt.iscontiguous() == m_np.iscontiguous()
    for m in (nm, lm):
        with pytest.raises(ValueError, match="cannot be resized"):
            m.resize((4,))


def test_filled_without_a_mask_is_the_data_as_numpy_mas(engine: Any) -> None:
    """numpy.ma's ``filled`` of an array holding no mask is its data: a write
    to it is one to the array; with a mask array it is a copy."""
    for mask in (np.ma.nomask, [False, True]):
        arrays = []
        for mod in (np.ma, lt.ma):
            m = mod.masked_array(np.array([1.0, 2.0]), mask=mask)
            f = m.filled(0)
            f += 1
            arrays.append(m)
        _same_answer(arrays[1], arrays[0])
        np.testing.assert_array_equal(arrays[1].data.eval(), arrays[0].data)
