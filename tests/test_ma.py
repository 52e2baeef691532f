"""``lt.ma`` against ``numpy.ma``: masks, unmasked values, dtypes, fill values.

The examples are numpy.ma's documented ones (``masked_equal``, ``masked_inside``,
``masked_where``, ``count``, ``compressed``, ...) rewritten for lazyten.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from util import assert_eq

import lazyten as lt
from lazyten.ma import MaskedTensor


def assert_ma_eq(lazy: MaskedTensor, expected: Any, *, rtol: float | None = None,
                 check_fill: bool = False) -> None:
    """Same shape, dtype and mask as numpy.ma; same values where unmasked."""
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
    keep = ~np.ma.getmaskarray(exp)
    g, e = np.ma.getdata(got)[keep], np.ma.getdata(exp)[keep]
    if g.dtype.kind in "fc":
        eps = float(np.finfo(np.result_type(g.dtype, np.float32)).eps)
        np.testing.assert_allclose(g, e, rtol=rtol or 8 * eps)
    else:
        np.testing.assert_array_equal(g, e)
    if check_fill:
        assert got.fill_value == exp.fill_value, (got.fill_value, exp.fill_value)


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
    with pytest.raises(np.ma.MAError, match="mask of shape"):
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
