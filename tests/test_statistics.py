"""Statistics, comparisons and NaN-aware functions (``lazyten/statistics.py``)
against NumPy bit for bit: values, shape and dtype (also the ones inferred at
build time), over dtypes, layouts (contiguous, strided, 0-d, empty), NaNs,
infinities and signed zeros, axes and keepdims, with the optimizer on and off;
NumPy's exceptions raised when the graph is built."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import check, public_type, same_bits

FLOATS = [np.dtype(d) for d in (np.float16, np.float32, np.float64)]
SOME = [np.dtype(d) for d in (np.bool_, np.float16, np.float32, np.float64, np.complex128)]
ids = str


def _quiet(fn: Callable[[], Any]) -> Any:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _same(got: Any, exp: Any) -> None:
    assert isinstance(got, lt.Tensor), type(got)
    shape, dtype = got.shape, got.dtype
    v = _quiet(got.eval)
    assert (v.shape, v.dtype) == (shape, dtype), "executed shape/dtype differ from inferred"
    same_bits(v, np.asarray(exp))


def exact(np_fn: Callable[[], Any], lt_fn: Callable[[], Any]) -> None:
    """``lt_fn()`` gives ``np_fn()``'s bits, shape and dtype (tuples too), or
    raises NumPy's exception type while the graph is built."""
    try:
        expected = _quiet(np_fn)
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        with pytest.raises(public_type(e)):
            _quiet(lt_fn)
        return
    got = _quiet(lt_fn)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, x in zip(got, expected):
            _same(g, x)
    else:
        _same(got, expected)


def data(dtype: np.dtype[Any], shape: tuple[int, ...], rng: np.random.Generator,
         specials: bool = True) -> np.ndarray[Any, Any]:
    """Values with ties; floats rounded to one decimal (so -0.0 and 0.0 both
    occur) and, with ``specials``, NaNs, infinities and an all-NaN lane."""
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -20, 20, shape).astype(dtype)
    x = rng.standard_normal(shape).round(1) * 3
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape).round(1)
    x = x.astype(dtype)
    if specials and x.size > 4:
        flat = x.reshape(-1)
        flat[rng.choice(x.size, 4, replace=False)] = [np.nan, np.inf, -np.inf, np.nan]
        if x.ndim == 3:
            x[1, 2, :] = np.nan
    return x


def cases(dtype: np.dtype[Any], rng: np.random.Generator, specials: bool = True
          ) -> Iterator[tuple[np.ndarray[Any, Any], lt.Tensor, list[Any]]]:
    """(array, tensor, axes to try): contiguous (every kind of axis), strided
    (a lazy slice with a negative step), a lazy expression, 0-d, empty."""
    base = data(dtype, (5, 6, 7), rng, specials)
    yield base, lt.asarray(base), [None, 0, -1, (0, 2), (2, 0, 1)]
    yield base[::-2, 1:5, ::3], lt.asarray(base)[::-2, 1:5, ::3], [-1, (0, 2)]
    if dtype.kind != "b":
        yield base[:, ::2] * 1, lt.asarray(base)[:, ::2] * 1, [1]
    x0 = data(dtype, (), rng)
    yield x0, lt.asarray(x0), [None, 0]
    for shape in ((0, 4), (3, 0)):
        e = data(dtype, shape, rng)
        yield e, lt.asarray(e), [0, -1]


def reductions(dtype: np.dtype[Any], rng: np.random.Generator, specials: bool = True
               ) -> Iterator[tuple[np.ndarray[Any, Any], lt.Tensor, Any, bool, bool]]:
    """(array, tensor, axis, keepdims, whether the layout is the contiguous
    one) over ``cases``: keepdims for its whole reduction, one axis and two."""
    for i, (x, t, axes) in enumerate(cases(dtype, rng, specials)):
        for axis in axes:
            yield x, t, axis, False, i == 0
            if i == 0 and axis in (None, -1, (0, 2)):
                yield x, t, axis, True, True


CORE = ("nansum", "nanmean", "nanvar", "nanmin")


# ------------------------------------------------------------------ NaN-aware reductions

@pytest.mark.parametrize("dtype", SOME, ids=ids)
def test_nan_reductions(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(1)
    for x, t, axis, kd, contiguous in reductions(dtype, rng):
        # every function on the contiguous layout, the core ones on the others
        for name in ("nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax",
                     "ptp") if contiguous else CORE:
            exact(lambda: getattr(np, name)(x, axis=axis, keepdims=kd),
                  lambda: getattr(lt, name)(t, axis=axis, keepdims=kd))
    for x, t, axes in cases(dtype, rng):
        for axis in axes[:1]:
            exact(lambda: np.nanvar(x, axis=axis, ddof=2), lambda: lt.nanvar(t, axis=axis, ddof=2))
            exact(lambda: np.nanstd(x, axis=axis, correction=1.5),
                  lambda: lt.nanstd(t, axis=axis, correction=1.5))
            exact(lambda: np.nansum(x, axis=axis, dtype=np.float64),
                  lambda: lt.nansum(t, axis=axis, dtype=np.float64))
            exact(lambda: np.nanmean(x, axis=axis, dtype=np.float32),
                  lambda: lt.nanmean(t, axis=axis, dtype=np.float32))    # ints: TypeError
            exact(lambda: np.nanvar(x, axis=axis, dtype=np.float64),
                  lambda: lt.nanvar(t, axis=axis, dtype=np.float64))


@pytest.mark.parametrize("dtype", [np.dtype(np.int16), np.dtype(np.float32)], ids=ids)
def test_nan_reductions_masked(engine: Any, dtype: np.dtype[Any]) -> None:
    """where= masks and initial= values, as NumPy's masked reductions."""
    rng = np.random.default_rng(2)
    x = data(dtype, (4, 6), rng)
    t = lt.asarray(x)
    w = rng.random((4, 6)) < 0.6
    row = rng.random(6) < 0.5
    for axis in (None, 0, 1):
        for mask in (w, row):
            for name in ("nansum", "nanprod", "nanmean", "nanvar", "nanstd"):
                exact(lambda: getattr(np, name)(x, axis=axis, where=mask),
                      lambda: getattr(lt, name)(t, axis=axis, where=mask))
            for name in ("nanmin", "nanmax"):
                exact(lambda: getattr(np, name)(x, axis=axis, where=mask, initial=-1.5),
                      lambda: getattr(lt, name)(t, axis=axis, where=mask, initial=-1.5))
                exact(lambda: getattr(np, name)(x, axis=axis, where=mask),    # ValueError
                      lambda: getattr(lt, name)(t, axis=axis, where=mask))
        exact(lambda: np.nansum(x, axis=axis, initial=10), lambda: lt.nansum(t, axis=axis, initial=10))
        exact(lambda: np.nanmax(x, axis=axis, initial=0.5), lambda: lt.nanmax(t, axis=axis, initial=0.5))


@pytest.mark.parametrize("dtype", [np.dtype(np.int16), np.dtype(np.float32),
                                   np.dtype(np.complex128)], ids=ids)
def test_precomputed_mean(engine: Any, dtype: np.dtype[Any]) -> None:
    """var/std/nanvar/nanstd with ``mean=``: NumPy subtracts that mean as
    given (in the operands' promoted dtype, not in dtype=), as a lazy mean
    or an array, with where= masks and corrections too."""
    rng = np.random.default_rng(3)
    x = data(dtype, (4, 6), rng)
    t = lt.asarray(x)
    w = rng.random((4, 6)) < 0.6
    for axis in (0, 1, (0, 1)):
        m = _quiet(lambda: np.mean(x, axis=axis, keepdims=True))
        for name in ("var", "std", "nanvar", "nanstd"):
            for mean in (m, m.astype(np.float32), lt.mean(t, axis=axis, keepdims=True)):
                exact(lambda: getattr(np, name)(x, axis=axis, mean=np.asarray(mean)),
                      lambda: getattr(lt, name)(t, axis=axis, mean=mean))
            exact(lambda: getattr(np, name)(x, axis=axis, mean=m, ddof=1, keepdims=True),
                  lambda: getattr(lt, name)(t, axis=axis, mean=m, ddof=1, keepdims=True))
            exact(lambda: getattr(np, name)(x, axis=axis, mean=m, where=w),
                  lambda: getattr(lt, name)(t, axis=axis, mean=m, where=w))
            exact(lambda: getattr(np, name)(x[::-1, ::2], axis=axis, mean=m[..., :3],
                                            dtype=np.complex64),
                  lambda: getattr(lt, name)(t[::-1, ::2], axis=axis, mean=m[..., :3],
                                            dtype=np.complex64))
    with pytest.raises(ValueError, match="keepdims=True"):
        lt.var(t, axis=0, mean=np.zeros((2, 4, 6)))
    if dtype.kind in "fc":               # (NumPy's nanvar writes into the operand: out= shape)
        exact(lambda: np.nanvar(x, axis=0, mean=np.zeros((2, 4, 6))),
              lambda: lt.nanvar(t, axis=0, mean=np.zeros((2, 4, 6))))
    exact(lambda: np.var(x, axis=0, mean=np.zeros(7)), lambda: lt.var(t, axis=0, mean=np.zeros(7)))


def test_signed_zeros_are_numpys(engine: Any) -> None:
    """fmin.reduce (nanmin) and min pick different zeros; NumPy's partition and
    its sort different ones: each function gives NumPy's."""
    z = np.array([0.0, -0.0, 1.0, -0.0, 0.0, 2.0, 0.0] * 5)
    for x in (z, -z[::-1], z.reshape(5, 7), np.array([-0.0, 0.0, -0.0, 5.0, np.nan])):
        t = lt.asarray(x)
        for axis in (None, -1):
            for name in ("nanmin", "nanmax", "median", "nanargmin", "nanargmax"):
                exact(lambda: getattr(np, name)(x, axis=axis), lambda: getattr(lt, name)(t, axis=axis))
            for method in ("linear", "lower", "nearest", "inverted_cdf"):
                exact(lambda: np.quantile(x, [0.2, 0.5], axis=axis, method=method),
                      lambda: lt.quantile(t, [0.2, 0.5], axis=axis, method=method))


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float16),
                                   np.dtype(np.complex64)], ids=ids)
def test_nan_scans(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(3)
    for x, t, axes in cases(dtype, rng):
        for axis in (None, 0, -1):
            for name in ("nancumsum", "nancumprod"):
                exact(lambda: getattr(np, name)(x, axis=axis), lambda: getattr(lt, name)(t, axis=axis))
        exact(lambda: np.nancumsum(x, dtype=np.float64), lambda: lt.nancumsum(t, dtype=np.float64))


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float16), np.dtype(np.float64)],
                         ids=ids)
def test_nanargmin_nanargmax(engine: Any, dtype: np.dtype[Any]) -> None:
    """All-NaN lanes raise NumPy's ValueError (the values are read for it)."""
    rng = np.random.default_rng(4)
    for x, t, _ in cases(dtype, rng):
        for axis in (None, -1, 2):
            for kd in (False, True)[:1 + (axis == -1)]:
                for name in ("nanargmin", "nanargmax"):
                    exact(lambda: getattr(np, name)(x, axis=axis, keepdims=kd),
                          lambda: getattr(lt, name)(t, axis=axis, keepdims=kd))
    if dtype.kind == "f":
        x = data(dtype, (3, 4), rng, specials=False)
        x[1, 1:3] = np.nan
        t = lt.asarray(x)
        for axis in (None, 0, 1):
            exact(lambda: np.nanargmax(x, axis=axis), lambda: lt.nanargmax(t, axis=axis))


@pytest.mark.parametrize("dtype", [np.dtype(np.int8), np.dtype(np.float64)], ids=ids)
def test_nanargmin_nanargmax_check_in_numpys_order(engine: Any, dtype: np.dtype[Any]) -> None:
    """NumPy tests the axis on ``np.all(mask, axis=axis)`` (a tuple of axes
    is valid there, one out of bounds is AxisError), then raises for an
    all-NaN slice, and only then is a tuple argmin's TypeError; integers and
    empty arrays go to argmin at once."""
    nan = np.nan
    arrays = [np.ones((2, 3), dtype), np.ones((0, 3), dtype), np.array(1, dtype)]
    if dtype.kind == "f":
        arrays += [np.full((2, 3), nan), np.array([[1.0, nan, 2.0], [nan, nan, nan]]),
                   np.array(nan)]
    for x in arrays:
        for axis in (None, 0, -1, 2, (0,), (0, 1), (5,), (0, 0), 1.5, [0], "a"):
            for kd in (False, True):
                for name in ("nanargmin", "nanargmax"):
                    exact(lambda: getattr(np, name)(x, axis=axis, keepdims=kd),
                          lambda: getattr(lt, name)(lt.asarray(x), axis=axis, keepdims=kd))


def _warned(fn: Callable[[], Any]) -> tuple[Any, list[tuple[type[Warning], str]]]:
    """``fn()``'s value (a tensor's evaluated) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = fn()
        v = r.eval() if isinstance(r, lt.Tensor) else r
    return v, [(w.category, str(w.message)) for w in caught]


def warns_as_numpy(np_fn: Callable[[], Any], lt_fn: Callable[[], Any]) -> None:
    """``lt_fn()`` gives NumPy's bits and, when evaluated, NumPy's warnings:
    the same categories and messages, none more (no floating-point one)."""
    want, want_w = _warned(np_fn)
    got, got_w = _warned(lt_fn)
    same_bits(got, np.asarray(want))
    assert got_w == want_w, f"warnings {got_w}, NumPy's {want_w}"


def test_nanmin_nanmax_warn_for_all_nan_slices(engine: Any) -> None:
    """NumPy's "All-NaN slice encountered" for an all-NaN slice (any axis,
    0-d, where= masks), raised when the value is computed; its path for what
    is no ndarray (a list, a NumPy scalar) warns "All-NaN axis encountered"
    and gives min's signed zeros, not fmin's."""
    nan = np.nan
    a = np.array([[1.0, nan], [nan, nan]])
    cases: list[tuple[Any, dict[str, Any]]] = [
        (a, {"axis": 1}), (a, {"axis": 0}), (a, {}), (a, {"axis": (0, 1), "keepdims": True}),
        (a[:, :1], {"axis": 0}), (a[0], {}), (np.full((2, 3), nan, np.float32), {"axis": -1}),
        (np.array(nan), {}), (np.array(nan), {"axis": ()}), (np.float16(nan), {}),
        (a, {"axis": 1, "where": np.array([True, False]), "initial": -5.0}),
        (a, {"axis": 1, "where": np.array([False, True]), "initial": -5.0}),
        (np.array([1 + 1j, nan]), {}), (np.array([[1.0, 2.0]]), {"axis": 0}),
        (np.zeros((0, 2)), {"axis": 1}), (np.arange(4), {}),
        ([nan, 1.0], {}), ([[nan, nan], [1.0, nan]], {"axis": 1}), (nan, {}),
        ([0.0, -0.0], {}), ([-0.0, 0.0], {})]
    for x, kw in cases:
        for name in ("nanmin", "nanmax"):
            warns_as_numpy(lambda: getattr(np, name)(x, **kw),
                           lambda: getattr(lt, name)(x, **kw))
            if isinstance(x, np.ndarray):
                warns_as_numpy(lambda: getattr(np, name)(x, **kw),
                               lambda: getattr(lt, name)(lt.asarray(x) * 1, **kw))


def test_nanmean_nanvar_nanstd_warnings_are_numpys(engine: Any) -> None:
    """nanvar/nanstd with ddof >= the count: NumPy's "Degrees of freedom
    <= 0 for slice." and NaN there; nanmean of an empty or all-NaN slice:
    "Mean of empty slice".  No "invalid value encountered in divide"
    besides (NumPy divides by the count with those warnings ignored)."""
    nan = np.nan
    one = np.array([1.0, nan])
    ones = np.ones((2, 3))
    a = np.array([[1.0, nan, 2.0], [nan, nan, nan]])
    c = np.array([[1 + 2j, nan, 3j], [nan, 1j, nan]], np.complex64)
    for name in ("nanvar", "nanstd"):
        for x, kw in ((one, {"ddof": 1}), (ones, {"ddof": 3, "axis": 1}),
                      (ones, {"ddof": 2, "axis": 1}), (ones, {"ddof": 2.5, "axis": 0}),
                      (ones, {"ddof": 7}), (a, {}), (a, {"axis": 1}), (a, {"axis": 0}),
                      (a, {"axis": 1, "ddof": 1, "keepdims": True}), (a, {"correction": 2}),
                      (a, {"axis": 1, "where": np.array([True, False, True])}),
                      (a, {"axis": 1, "mean": np.zeros((2, 1))}), (c, {"axis": 0}),
                      (c, {"ddof": 1}), (np.float32(nan), {}), (np.zeros((0, 3)), {"axis": 0}),
                      (a.astype(np.float16), {"axis": 1, "dtype": np.float32})):
            warns_as_numpy(lambda: getattr(np, name)(x, **kw), lambda: getattr(lt, name)(x, **kw))
    for x, kw in ((a, {}), (a, {"axis": 1}), (a, {"axis": 0, "dtype": np.float32}),
                  (a, {"axis": 1, "where": np.array([False, True, False])}), (c, {"axis": 0}),
                  (np.array(nan), {}), (np.zeros((0, 3)), {"axis": 0}),
                  (np.zeros((2, 0)), {"axis": 0})):
        warns_as_numpy(lambda: np.nanmean(x, **kw), lambda: lt.nanmean(x, **kw))


# ------------------------------------------------------------------ medians and quantiles

@pytest.mark.parametrize("dtype", [*SOME, np.dtype(np.int16)], ids=ids)
def test_median_and_nanmedian(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(5)
    for x, t, axis, kd, _ in reductions(dtype, rng):
        exact(lambda: np.median(x, axis=axis, keepdims=kd),
              lambda: lt.median(t, axis=axis, keepdims=kd))
        exact(lambda: np.nanmedian(x, axis=axis, keepdims=kd),
              lambda: lt.nanmedian(t, axis=axis, keepdims=kd))


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_nanmedian_paths(engine: Any, dtype: np.dtype[Any]) -> None:
    """NumPy's three nanmedian paths (one lane; lanes under 600, its masked
    median averaging in the dtype; longer lanes, averaging as mean does) and
    the median, with odd and even counts, values near the dtype's largest
    and a subnormal."""
    rng = np.random.default_rng(6)
    big = np.finfo(dtype).max / 1.5
    for shape, axis in (((3, 9), 1), ((9, 4), 0), ((2, 601), 1), ((3, 10), None), ((31,), 0)):
        x = data(dtype, shape, rng, specials=False)
        x.reshape(-1)[rng.choice(x.size, x.size // 3, replace=False)] = np.nan
        x[..., :2] = big
        x.reshape(-1)[:3] = np.array([big, 0.5 * big, np.float16(1e-7)], dtype)
        t = lt.asarray(x)
        exact(lambda: np.nanmedian(x, axis=axis), lambda: lt.nanmedian(t, axis=axis))
        exact(lambda: np.median(x, axis=axis), lambda: lt.median(t, axis=axis))


METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("dtype", [np.dtype(np.uint8), np.dtype(np.float16),
                                   np.dtype(np.float64)], ids=ids)
def test_quantile_methods(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(7)
    x = data(dtype, (5, 8, 3), rng)
    t = lt.asarray(x)
    qs: list[Any] = [0.3, np.array([0.0, 0.25, 0.5, 0.999, 1.0], np.float32)]
    for method in METHODS:
        for q in qs:
            for axis, name in ((None, "quantile"), (1, "quantile"), ((0, 2), "nanquantile"))[
                    :2 if isinstance(q, float) else 3]:
                exact(lambda: getattr(np, name)(x, q, axis=axis, method=method),
                      lambda: getattr(lt, name)(t, q, axis=axis, method=method))
        exact(lambda: np.percentile(x, [10, 95], axis=-1, method=method, keepdims=True),
              lambda: lt.percentile(t, [10, 95], axis=-1, method=method, keepdims=True))
        exact(lambda: np.nanpercentile(x, 40, axis=0, method=method),
              lambda: lt.nanpercentile(t, 40, axis=0, method=method))


@pytest.mark.parametrize("dtype", [np.dtype(np.int64), np.dtype(np.float32)], ids=ids)
def test_quantile_forms(engine: Any, dtype: np.dtype[Any]) -> None:
    """q as Python ints and floats (weak), NumPy scalars, 0-d, 1-d and 2-d
    arrays, lazy tensors; layouts; keepdims."""
    rng = np.random.default_rng(8)
    qs: list[Any] = [1, 0.5, np.float64(0.75), np.float32(0.1), np.array(0.5),
                     np.array([1, 0]), [[0.1, 0.9], [0.5, 0.6]], lt.asarray([0.2, 0.4]),
                     True, np.array([0, 1], np.int8)]
    for x, t, axes in cases(dtype, rng):
        for i, q in enumerate(qs):
            qn = np.asarray(q) if isinstance(q, lt.Tensor) else q
            for axis in (axes[i % 2], axes[-2 - i % 2]) if len(axes) > 3 else axes[i % 2:][:1]:
                for name in ("quantile", "nanquantile"):
                    if name == "quantile" and _nan_dtype_case(x, qn, axis):
                        continue
                    exact(lambda: getattr(np, name)(x, qn, axis=axis, keepdims=True),
                          lambda: getattr(lt, name)(t, q, axis=axis, keepdims=True))
            exact(lambda: np.nanpercentile(x, np.asarray(qn) * 100, axis=axes[0]),
                  lambda: lt.nanpercentile(t, np.asarray(qn) * 100, axis=axes[0]))


def test_quantile_of_integer_q_keeps_numpys_dtype(engine: Any) -> None:
    """Two methods' alpha and beta are Python ints in NumPy: an integer or
    bool q keeps an integer virtual index and the data's (or int64) dtype."""
    for x in (np.array([3, 1, 2, 5], np.int8), np.array([3, 1, 2, 5], np.float32)):
        for q in ([0, 1], True, np.array([0, 1], np.int8), 1, [0.5, 1]):
            for method in ("weibull", "interpolated_inverted_cdf", "hazen", "linear"):
                for name in ("quantile", "nanquantile"):
                    exact(lambda: getattr(np, name)(x, q, method=method),
                          lambda: getattr(lt, name)(lt.asarray(x), q, method=method))


def _nan_dtype_case(x: np.ndarray[Any, Any], q: Any, axis: Any) -> bool:
    """NumPy's quantile of a whole array holding a NaN, for a 0-d q array (or
    NumPy scalar) of a wider dtype: NaN in ``x``'s dtype, where it gives the
    wider one without NaNs (a dtype that depends on the data)."""
    return (axis is None and np.ndim(q) == 0 and type(q) not in (int, float)
            and x.dtype.kind == "f" and bool(np.isnan(x).any())
            and np.result_type(x.dtype, np.asarray(q).dtype) != x.dtype)


def test_quantile_dtype_that_depends_on_the_data(engine: Any) -> None:
    """Where NumPy's dtype depends on the values (see ``_nan_dtype_case``),
    lazyten gives the dtype without NaNs, and the NaN."""
    x = np.array([1.0, np.nan, 3.0], np.float32)
    r = lt.quantile(lt.asarray(x), np.float64(0.5))
    assert r.dtype == np.float64 and np.isnan(r.eval())
    assert _quiet(lambda: np.quantile(x, np.float64(0.5))).dtype == np.float32
    same_bits(lt.quantile(lt.asarray(x[::2]), np.float64(0.5)).eval(),
              np.quantile(x[::2], np.float64(0.5)))


def test_quantile_weights(engine: Any) -> None:
    rng = np.random.default_rng(9)
    for dtype in (np.dtype(np.int32), np.dtype(np.float32)):
        x = data(dtype, (4, 7, 3), rng, specials=False)
        t = lt.asarray(x)
        full = rng.integers(0, 4, x.shape).astype(float)
        full[..., 0] += 1
        for q in (0.5, [0.0, 0.3, 1.0], np.array([0.2, 0.7], np.float32))[dtype.kind == "i":]:
            for axis, w in ((1, rng.random(7)), ((0, 2), rng.random((4, 3))), (None, full),
                            (-1, full), ((2, 0), rng.random((3, 4)))):
                for name in ("quantile", "nanquantile"):
                    exact(lambda: getattr(np, name)(x, q, axis=axis, method="inverted_cdf",
                                                    weights=w),
                          lambda: getattr(lt, name)(t, q, axis=axis, method="inverted_cdf",
                                                    weights=w))
                exact(lambda: np.percentile(x, 40, axis=axis, method="inverted_cdf", weights=w),
                      lambda: lt.percentile(t, 40, axis=axis, method="inverted_cdf", weights=w))
    x = data(np.dtype(np.float64), (4, 6), rng)            # NaNs: nanquantile runs NumPy's
    t = lt.asarray(x)
    w = rng.random(6)
    exact(lambda: np.nanquantile(x, [0.2, 0.6], axis=1, method="inverted_cdf", weights=w),
          lambda: lt.nanquantile(t, [0.2, 0.6], axis=1, method="inverted_cdf", weights=w))
    for bad in (-w, np.zeros(6), np.r_[w[:5], np.inf], np.ones(5)):
        exact(lambda: np.quantile(x, 0.5, axis=1, method="inverted_cdf", weights=bad),
              lambda: lt.quantile(t, 0.5, axis=1, method="inverted_cdf", weights=bad))
    exact(lambda: np.quantile(x, 0.5, axis=1, weights=w), lambda: lt.quantile(t, 0.5, axis=1, weights=w))
    exact(lambda: np.quantile(x, 0.5, method="inverted_cdf", weights=w),       # TypeError
          lambda: lt.quantile(t, 0.5, method="inverted_cdf", weights=w))


def test_quantile_and_median_errors(engine: Any) -> None:
    x = np.arange(12.0).reshape(3, 4)
    t = lt.asarray(x)
    e = np.zeros((0, 3))
    for np_fn, lt_fn in (
            (lambda: np.quantile(x + 1j, 0.5), lambda: lt.quantile(t + 1j, 0.5)),
            (lambda: np.quantile(x, 1.5), lambda: lt.quantile(t, 1.5)),
            (lambda: np.quantile(x, [0.5, -0.1]), lambda: lt.quantile(t, [0.5, -0.1])),
            (lambda: np.percentile(x, 101), lambda: lt.percentile(t, 101)),
            (lambda: np.quantile(x, 0.5, method="spline"), lambda: lt.quantile(t, 0.5, method="spline")),
            (lambda: np.quantile(x, np.full((2, 2, 2), 0.5)), lambda: lt.quantile(t, np.full((2, 2, 2), 0.5))),
            (lambda: np.quantile(x, 0.5, axis=2), lambda: lt.quantile(t, 0.5, axis=2)),
            (lambda: np.quantile(x, 0.5, axis=(0, 0)), lambda: lt.quantile(t, 0.5, axis=(0, 0))),
            (lambda: np.quantile(e, 0.5, axis=0), lambda: lt.quantile(lt.asarray(e), 0.5, axis=0)),
            (lambda: np.nanquantile(e, [0.5, 0.7], axis=0), lambda: lt.nanquantile(lt.asarray(e), [0.5, 0.7], axis=0)),
            (lambda: np.median(x, axis=-3), lambda: lt.median(t, axis=-3)),
            (lambda: np.nanmedian(x, axis=(1, 2)), lambda: lt.nanmedian(t, axis=(1, 2))),
            (lambda: np.quantile(x > 3, 0.5), lambda: lt.quantile(t > 3, 0.5)),
            (lambda: np.quantile(x > 3, 0.5, method="lower"), lambda: lt.quantile(t > 3, 0.5, method="lower"))):
        exact(np_fn, lt_fn)
    o = np.empty(x.shape[1:])                # (out= is NumPy's own call, now)
    assert lt.median(t, axis=0, out=o) is o
    same_bits(o, np.median(x, axis=0))


# ------------------------------------------------------------------ averages

@pytest.mark.parametrize("dtype", SOME, ids=ids)
def test_average(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(10)
    for x, t, axis, kd, _ in reductions(dtype, rng, specials=False):
        exact(lambda: np.average(x, axis=axis, returned=True, keepdims=kd),
              lambda: lt.average(t, axis=axis, returned=True, keepdims=kd))
    x = data(dtype, (4, 5), rng, specials=False)
    t = lt.asarray(x)
    for wdt in (np.float16, np.int32):
        w5 = (rng.random(5) * 4 + 0.5).astype(wdt)
        w45 = (rng.random((4, 5)) * 4 + 0.5).astype(wdt)
        for axis, w in ((1, w5), (None, w45), (0, w45), ((1, 0), w45.T)):
            for kd in (False, True):
                exact(lambda: np.average(x, axis=axis, weights=w, returned=True, keepdims=kd),
                      lambda: lt.average(t, axis=axis, weights=w, returned=True, keepdims=kd))
    exact(lambda: np.average(x, weights=np.ones(5)), lambda: lt.average(t, weights=np.ones(5)))
    exact(lambda: np.average(x, axis=0, weights=np.ones(5)), lambda: lt.average(t, axis=0, weights=np.ones(5)))
    exact(lambda: np.average(x, axis=1, weights=np.zeros(5)), lambda: lt.average(t, axis=1, weights=np.zeros(5)))
    exact(lambda: np.average(x, axis=1, weights=lt.asarray(w5) * 0), lambda: lt.average(t, axis=1, weights=lt.asarray(w5) * 0))
    exact(lambda: np.average(np.zeros((0, 3)), axis=1), lambda: lt.average(lt.zeros((0, 3)), axis=1))


@pytest.mark.parametrize("dtype", [np.dtype(np.int16), np.dtype(np.float64),
                                   np.dtype(np.complex128)], ids=ids)
def test_cov_and_corrcoef(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(11)
    m = data(dtype, (3, 10), rng, specials=False)
    y = data(dtype, (10,), rng, specials=False)
    tm, ty = lt.asarray(m), lt.asarray(y)
    fw = rng.integers(1, 4, 10)
    aw = rng.random(10)
    for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 3}, {"fweights": fw},
               {"aweights": aw}, {"fweights": fw, "aweights": aw, "ddof": 1},
               {"aweights": aw, "bias": True}, {"dtype": np.float32}, {"ddof": 10},
               {"dtype": np.int64}, {"dtype": np.bool_}):   # (NumPy: X -= avg refuses)
        exact(lambda: np.cov(m, **kw), lambda: lt.cov(tm, **kw))
        exact(lambda: np.cov(m, y, **kw), lambda: lt.cov(tm, ty, **kw))
        exact(lambda: np.cov(m[1], **kw), lambda: lt.cov(tm[1], **kw))
    exact(lambda: np.cov(m.T, rowvar=False), lambda: lt.cov(tm.T, rowvar=False))
    exact(lambda: np.cov(m[:, ::2].T, y[::2], rowvar=False), lambda: lt.cov(tm[:, ::2].T, ty[::2], rowvar=False))
    for x_, t_ in ((m, tm), (m[1], tm[1]), (m[:, :1], tm[:, :1]), (m[:0], tm[:0])):
        exact(lambda: np.corrcoef(x_), lambda: lt.corrcoef(t_))
    exact(lambda: np.corrcoef(m, y, rowvar=True), lambda: lt.corrcoef(tm, ty))
    exact(lambda: np.corrcoef(m, dtype=np.float32), lambda: lt.corrcoef(tm, dtype=np.float32))
    exact(lambda: np.corrcoef(m, dtype=np.int16), lambda: lt.corrcoef(tm, dtype=np.int16))
    for kw in ({"fweights": fw + 0.5}, {"fweights": -fw}, {"aweights": -aw},
               {"aweights": aw[:4]}, {"fweights": np.ones((2, 10))}, {"ddof": 1.5}):
        exact(lambda: np.cov(m, **kw), lambda: lt.cov(tm, **kw))
    exact(lambda: np.cov(np.ones((2, 2, 2))), lambda: lt.cov(lt.ones((2, 2, 2))))


# ------------------------------------------------------------------ comparisons

@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.float16),
                                   np.dtype(np.float64), np.dtype(np.complex128)], ids=ids)
def test_isclose_allclose(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(12)
    x = data(dtype, (4, 6), rng)
    y = x.copy()
    if dtype.kind in "fc":
        y = (y * (1 + 1e-6)).astype(dtype)
        y[0, :3] += 1
    elif dtype.kind != "b":
        y[0, :3] += 1
    tx, ty = lt.asarray(x), lt.asarray(y)
    for kw in ({}, {"equal_nan": True, "rtol": np.float32(1e-3)}, {"rtol": 0.0, "atol": 1e-3},
               {"atol": np.array([1e-9, 1.0] * 3), "rtol": 1e-3}):
        for a_, b_, ta, tb in ((x, y, tx, ty), (x, y[1], tx, ty[1]), (x[::-1, ::2], y[::-1, ::2], tx[::-1, ::2], ty[::-1, ::2])):
            exact(lambda: np.isclose(a_, b_, **kw), lambda: lt.isclose(ta, tb, **kw))
            exact(lambda: np.allclose(a_, b_, **kw), lambda: lt.allclose(ta, tb, **kw))
        exact(lambda: np.isclose(x, 1.5, **kw), lambda: lt.isclose(tx, 1.5, **kw))
        exact(lambda: np.isclose(2, y, **kw), lambda: lt.isclose(2, ty, **kw))
        exact(lambda: np.isclose(x[0, 0], y[0, 0], **kw), lambda: lt.isclose(tx[0, 0], ty[0, 0], **kw))
    exact(lambda: np.isclose(1, 1.0000001), lambda: lt.isclose(1, 1.0000001))
    exact(lambda: np.isclose(x, y[:2]), lambda: lt.isclose(tx, ty[:2]))          # shape mismatch
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        lt.isclose(tx, ty, atol=np.inf)


@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.float16),
                                   np.dtype(np.float64), np.dtype(np.complex64)], ids=ids)
def test_array_equal_and_equiv(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(13)
    x = data(dtype, (3, 4), rng)
    y = x.copy()
    z = x.copy()
    z[2, 3] = 1 - z[2, 3] if dtype.kind != "b" else not z[2, 3]
    tx, ty, tz = lt.asarray(x), lt.asarray(y), lt.asarray(z)
    for en in (False, True):
        for a_, b_, ta, tb in ((x, y, tx, ty), (x, z, tx, tz), (x, x, tx, tx),
                               (x, y[:2], tx, ty[:2]), (x[:0], y[:0], tx[:0], ty[:0]),
                               (x[0, 0], y[0, 0], tx[0, 0], ty[0, 0])):
            exact(lambda: np.array_equal(a_, b_, equal_nan=en),
                  lambda: lt.array_equal(ta, tb, equal_nan=en))
    for a_, b_, ta, tb in ((x, y, tx, ty), (x, z, tx, tz), (x, y[1:2], tx, ty[1:2]),
                           (x, y[:, :2], tx, ty[:, :2]), (x[1], np.tile(x[1], (2, 1)), tx[1], lt.tile(tx[1], (2, 1)))):
        exact(lambda: np.array_equiv(a_, b_), lambda: lt.array_equiv(ta, tb))
    exact(lambda: np.array_equal(x, [[1, 2], [3]]), lambda: lt.array_equal(tx, [[1, 2], [3]]))


# ------------------------------------------------------------------ counting

@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.int16), np.dtype(np.float32)],
                         ids=ids)
def test_histogram(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(14)
    x = data(dtype, (6, 7), rng, specials=False)
    t = lt.asarray(x)[::-1] * 1 if dtype.kind != "b" else lt.asarray(x)[::-1]
    xr = x[::-1]
    w = rng.random((6, 7))
    for kw in ({}, {"bins": 5}, {"bins": [-3, -1, 0, 0.5, 4]}, {"range": (-2, 2)},
               {"density": True}, {"weights": w}, {"bins": "auto"}, {"bins": 3, "weights": w,
                                                                     "density": True}):
        exact(lambda: np.histogram(xr, **kw), lambda: lt.histogram(t, **kw))
        if "density" not in kw:
            exact(lambda: np.histogram_bin_edges(xr, **kw), lambda: lt.histogram_bin_edges(t, **kw))
    if dtype.kind == "f":
        xn = x.copy()
        xn[0, 0] = np.nan
        exact(lambda: np.histogram(xn), lambda: lt.histogram(lt.asarray(xn)))        # ValueError
    exact(lambda: np.histogram(xr, bins=[1, 0]), lambda: lt.histogram(t, bins=[1, 0]))


def test_bincount_and_digitize(engine: Any) -> None:
    rng = np.random.default_rng(15)
    x = rng.integers(0, 9, 20)
    t = lt.asarray(x)
    w = rng.random(20)
    exact(lambda: np.bincount(x), lambda: lt.bincount(t))
    exact(lambda: np.bincount(x[::-3], weights=w[::-3], minlength=12),
          lambda: lt.bincount(t[::-3], weights=lt.asarray(w)[::-3], minlength=12))
    exact(lambda: np.bincount(x - 3), lambda: lt.bincount(t - 3))                  # ValueError
    exact(lambda: np.bincount(x * 0.5), lambda: lt.bincount(t * 0.5))              # TypeError
    v = np.array([[-1.0, 0.0, 0.5, 2.0, 3.0], [np.nan, np.inf, -np.inf, 1.0, 2.5]])
    for xv in (v, v.astype(np.float32), (v * 2).astype(np.int16)[:, ::-1], v[0, 0]):
        tv = lt.asarray(xv)
        for bins in ([0.0, 1.0, 2.5], [3, 2, 2, 1, 0], [1.0], [], [0, 2, 1], [[0, 1]],
                     np.array([0.5, np.nan, 3.0]), lt.asarray([0.0, 0.5])):
            for right in (False, True):
                bn = np.asarray(bins) if isinstance(bins, lt.Tensor) else bins
                exact(lambda: np.digitize(xv, bn, right=right), lambda: lt.digitize(tv, bins, right=right))
    exact(lambda: np.digitize(v + 1j, [0, 1]), lambda: lt.digitize(lt.asarray(v) + 1j, [0, 1]))
    for bins in (np.array([0, 1j, 2]), np.array([0, 1, 2], complex)):   # (read as float64, 'safe')
        exact(lambda: np.digitize([0, 1, 2], bins), lambda: lt.digitize([0, 1, 2], bins))


def test_interp(engine: Any) -> None:
    rng = np.random.default_rng(16)
    xp = np.sort(rng.uniform(-3, 3, 9))
    fp = rng.standard_normal(9)
    x = np.r_[rng.uniform(-4, 4, 15), xp[2], np.nan, np.inf].reshape(3, 6)
    tx = lt.asarray(x)
    for kw in ({}, {"left": -10.0}, {"right": np.float32(5)}, {"period": 2.5}, {"period": -7},
               {"left": lt.asarray(-3.0), "right": np.array(4.0)}):
        exact(lambda: np.interp(x, xp, fp, **kw), lambda: lt.interp(tx, xp, fp, **kw))
        exact(lambda: np.interp(x[::-1, 1], xp, fp + 1j, **kw), lambda: lt.interp(tx[::-1, 1], xp, fp + 1j, **kw))
        exact(lambda: np.interp(x[0, 0], xp.astype(np.float32), fp, **kw),
              lambda: lt.interp(tx[0, 0], lt.asarray(xp.astype(np.float32)), lt.asarray(fp) * 1, **kw))
    exact(lambda: np.interp(x.astype(np.int32), [0, 1], [1, 3]), lambda: lt.interp(tx.astype(np.int32), [0, 1], [1, 3]))
    for args in ((xp, fp[:5]), ([], []), (xp.reshape(3, 3), fp), (xp, fp.reshape(3, 3))):
        exact(lambda: np.interp(x, *args), lambda: lt.interp(tx, *args))
    exact(lambda: np.interp(x, xp, fp, period=0), lambda: lt.interp(tx, xp, fp, period=0))
    exact(lambda: np.interp(x + 1j, xp, fp), lambda: lt.interp(tx + 1j, xp, fp))


@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.float16),
                                   np.dtype(np.float64), np.dtype(np.complex128)], ids=ids)
def test_convolve_correlate(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(17)
    a = data(dtype, (11,), rng, specials=False)
    v = data(dtype, (4,), rng, specials=False)
    ta, tv = lt.asarray(a), lt.asarray(v)
    for name in ("convolve", "correlate"):
        for mode in ("full", "same", "valid"):
            for a_, v_, sa, sv in ((v, a, tv, ta), (a[::-2], v[1:], ta[::-2], tv[1:]),
                                   (a[3], v, ta[3], tv)):
                exact(lambda: getattr(np, name)(a_, v_, mode), lambda: getattr(lt, name)(sa, sv, mode))
        for mode in ("FULL", 0, 3, None):
            exact(lambda: getattr(np, name)(a, v, mode), lambda: getattr(lt, name)(ta, tv, mode))
        for a_, v_ in ((a[:0], v), (a, v[:0]), (a.reshape(1, 11), v)):
            exact(lambda: getattr(np, name)(a_, v_), lambda: getattr(lt, name)(lt.asarray(a_), lt.asarray(v_)))
    exact(lambda: np.convolve(a, v.astype(np.float32)), lambda: lt.convolve(ta, tv.astype(np.float32)))


# ------------------------------------------------------------------ differences and integrals

@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.int16), np.dtype(np.float16),
                                   np.dtype(np.complex64)], ids=ids)
def test_trapezoid(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(18)
    for y, t, _ in cases(dtype, rng):
        for axis in (-1, 3):
            exact(lambda: np.trapezoid(y, axis=axis), lambda: lt.trapezoid(t, axis=axis))
            exact(lambda: np.trapezoid(y, dx=0.25, axis=axis), lambda: lt.trapezoid(t, dx=0.25, axis=axis))
        if y.ndim == 3:
            xs = np.cumsum(rng.random(y.shape[1]))
            exact(lambda: np.trapezoid(y, x=xs, axis=1), lambda: lt.trapezoid(t, x=xs, axis=1))
            xf = rng.random(y.shape).astype(np.float32)
            exact(lambda: np.trapezoid(y, x=xf, axis=0), lambda: lt.trapezoid(t, x=lt.asarray(xf), axis=0))
            exact(lambda: np.trapezoid(y, dx=np.float32(0.5)), lambda: lt.trapezoid(t, dx=np.float32(0.5)))


@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.uint8), np.dtype(np.float16),
                                   np.dtype(np.complex128)], ids=ids)
def test_gradient(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(19)
    f = data(dtype, (5, 6, 4), rng)
    for x, t in ((f, lt.asarray(f)), (f[::-1, 1:4], lt.asarray(f)[::-1, 1:4]),
                 (f[:2, :1], lt.asarray(f)[:2, :1])):
        for eo in (1, 2):
            for axis in (None, (2, 0)):
                exact(lambda: np.gradient(x, axis=axis, edge_order=eo),
                      lambda: lt.gradient(t, axis=axis, edge_order=eo))
            exact(lambda: np.gradient(x, 0.5, axis=1, edge_order=eo), lambda: lt.gradient(t, 0.5, axis=1, edge_order=eo))
            exact(lambda: np.gradient(x, np.float32(3), edge_order=eo), lambda: lt.gradient(t, np.float32(3), edge_order=eo))
            n0 = x.shape[0]
            coords = np.cumsum(rng.random(n0) + 0.1)
            exact(lambda: np.gradient(x, coords, 2, axis=(0, 2), edge_order=eo),
                  lambda: lt.gradient(t, coords, 2, axis=(0, 2), edge_order=eo))
            exact(lambda: np.gradient(x, np.arange(n0) * 3, axis=0, edge_order=eo),
                  lambda: lt.gradient(t, lt.arange(n0) * 3, axis=0, edge_order=eo))
            exact(lambda: np.gradient(x, coords.astype(np.float32), axis=0, edge_order=eo),
                  lambda: lt.gradient(t, coords.astype(np.float32), axis=0, edge_order=eo))
    x1 = data(dtype, (7,), rng)
    t1 = lt.asarray(x1)
    for args in ((), (1, 2), (np.ones((2, 7)),), (np.ones(4),)):
        exact(lambda: np.gradient(x1, *args), lambda: lt.gradient(t1, *args))
    exact(lambda: np.gradient(x1, edge_order=3), lambda: lt.gradient(t1, edge_order=3))
    exact(lambda: np.gradient(x1[:2], edge_order=2), lambda: lt.gradient(t1[:2], edge_order=2))
    exact(lambda: np.gradient(x1[:3], edge_order=0), lambda: lt.gradient(t1[:3], edge_order=0))
    exact(lambda: np.gradient(x1[0]), lambda: lt.gradient(t1[0]))


@pytest.mark.parametrize("dtype", [np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.float32),
                                   np.dtype(np.complex64)], ids=ids)
def test_ediff1d(engine: Any, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(20)
    x = data(dtype, (3, 5), rng)
    t = lt.asarray(x)
    for a_, ta in ((x, t), (x[::-1, ::2], t[::-1, ::2]), (x[0, 0], t[0, 0]), (x[:0], t[:0])):
        for kw in ({}, {"to_begin": 7}, {"to_end": [1, 2]}, {"to_begin": np.array([300]), "to_end": -1},
                   {"to_end": 2.5}, {"to_begin": lt.asarray([True])}, {"to_end": np.zeros((2, 2), dtype)}):
            kn = {k: np.asarray(v) if isinstance(v, lt.Tensor) else v for k, v in kw.items()}
            exact(lambda: np.ediff1d(a_, **kn), lambda: lt.ediff1d(ta, **kw))


# ------------------------------------------------------------------ laziness and safety

CALLS: list[tuple[str, Callable[..., Any]]] = [
    ("nansum", lambda m, t: m.nansum(t, axis=0)),
    ("nanvar", lambda m, t: m.nanvar(t, axis=1, ddof=1)),
    ("nanmin", lambda m, t: m.nanmin(t)),
    ("median", lambda m, t: m.median(t, axis=0)),
    ("median", lambda m, t: m.median(t, axis=1, keepdims=True)),
    ("nanmedian", lambda m, t: m.nanmedian(t, axis=1)),
    ("quantile", lambda m, t: m.quantile(t, [0.1, 0.9], axis=0, method="hazen")),
    ("quantile", lambda m, t: m.quantile(t, 0.3, axis=1)),
    ("percentile", lambda m, t: m.percentile(t, 30, axis=(0, 1), keepdims=True)),
    ("nanpercentile", lambda m, t: m.nanpercentile(t, [[30, 2]], axis=0)),
    ("isclose", lambda m, t: m.isclose(t, t @ t.T[:, :1] / 10)),
    ("gradient", lambda m, t: m.gradient(t, axis=0, edge_order=2)),
    ("trapezoid", lambda m, t: m.trapezoid(t, axis=0)),
    ("digitize", lambda m, t: m.digitize(t, [0.0, 0.5])),
    ("interp", lambda m, t: m.interp(t, [0.0, 1.0], [2.0, 3.0])),
    ("convolve", lambda m, t: m.convolve(t[:, 0], t[0])),
    ("cov", lambda m, t: m.cov(t)),
    ("average", lambda m, t: m.average(t, axis=0, returned=True)[1]),
    ("average", lambda m, t: m.average(t, axis=1, weights=np.arange(1.0, 6.0))),
    ("ediff1d", lambda m, t: m.ediff1d(t, to_begin=3)),
    ("nancumsum", lambda m, t: m.nancumsum(t))]


def test_decisions_on_a_none_dimension_are_refused_or_checked_per_call() -> None:
    """A result decided from a None dimension's size when the graph is built
    would be fixed for every call: refused (use @lt.jit); gradient's length
    is checked per call (a call too short raises NumPy's ValueError)."""
    p, q = lt.placeholder((None,), "float64"), lt.placeholder((None,), "float64")
    for fn in (lt.array_equal, lt.array_equiv):
        with pytest.raises(ValueError, match="None dimension"):
            fn(p, q)
        with pytest.raises(ValueError, match="None dimension"):
            fn(p, np.arange(3.0))
    f = lt.function([p], [lt.gradient(p), lt.gradient(p * 2, edge_order=2)])
    for n in (3, 9):
        v = np.arange(float(n)) ** 2
        for got, want in zip(f(v), [np.gradient(v), np.gradient(v * 2, edge_order=2)]):
            same_bits(got, want)
    for n in (1, 2):
        with pytest.raises(ValueError, match="too small to calculate a numerical gradient"):
            f(np.ones(n))


def test_gradient_over_a_none_dimension_too_short_is_numpys_error() -> None:
    """A call whose None dimension is shorter than edge_order + 1 raises
    NumPy's ValueError when the function specializes for it (it was an
    IndexError from the edges' indexes), whichever axis' result is used;
    longer calls, before and after, give NumPy's bits."""
    p = lt.placeholder((None, 3), np.float64)
    for eo in (1, 2):
        f = lt.function([p], lt.gradient(p, axis=0, edge_order=eo))
        both = lt.function([p], lt.gradient(p, edge_order=eo)[1])   # (axis 1's only)
        jitted = lt.jit(lambda x: lt.gradient(x, axis=0, edge_order=eo))
        for n in (4, 0, 1, 2, 3, 2, 5):
            v = np.arange(n * 3.0).reshape(n, 3) ** 2
            try:
                want = np.gradient(v, axis=0, edge_order=eo)
            except ValueError as e:
                for fn in (f, both, jitted):
                    with pytest.raises(ValueError, match=re.escape(str(e))):
                        fn(v)
                continue
            same_bits(f(v), want)
            same_bits(both(v), np.gradient(v, edge_order=eo)[1])
            same_bits(jitted(v), want)


def test_compiled_over_placeholders() -> None:
    """Over placeholders, which have no values until a compiled function is
    called, the lazy functions build; the compiled function gives NumPy's bits
    at several sizes of a None dimension (medians and quantiles along it run
    NumPy's function whole: their positions depend on its length)."""
    x = lt.placeholder((None, 5), np.float64, name="x")
    f = lt.function([x], [call(lt, x) for _, call in CALLS])
    for n in (3, 8):
        v = np.random.default_rng(n).random((n, 5))
        v[0, 1] = np.nan
        for (name, call), got in zip(CALLS, _quiet(lambda: f(v))):
            same_bits(got, _quiet(lambda: call(np, v)))
    with pytest.raises(ValueError, match="None dimension"):
        lt.cov(x.T)                           # NumPy's 1 / (n - ddof), n unknown
    with pytest.raises(lt.TracingError):
        lt.nanargmin(x)                       # NumPy raises for all-NaN lanes: needs values


def test_user_arrays_are_not_written(engine: Any) -> None:
    rng = np.random.default_rng(22)
    x = data(np.dtype(np.float64), (5, 6, 7), rng)
    w = rng.random(6) + 0.1
    keep = x.copy(), w.copy()
    t = lt.asarray(x)
    outs = [lt.nanvar(t, axis=1), lt.median(t, axis=1), lt.nanmedian(t, axis=1),
            lt.quantile(t, 0.3, axis=1, overwrite_input=True), lt.nanquantile(t, [0.5], axis=1),
            lt.average(t, axis=1, weights=w), lt.gradient(t, axis=1), lt.nancumsum(t),
            lt.cov(t[0], aweights=np.full(7, 0.5), fweights=np.ones(7)),
            lt.quantile(t, 0.5, axis=1, method="inverted_cdf", weights=w)]
    _quiet(lambda: lt.compute(*outs))
    np.testing.assert_array_equal(x, keep[0])
    np.testing.assert_array_equal(w, keep[1])


def test_errors_name_the_function() -> None:
    t = lt.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(np.exceptions.AxisError, match="median"):
        lt.median(t, axis=2)
    with pytest.raises(ValueError, match="nanargmin.*All-NaN"):
        lt.nanargmin(t * np.nan)
    with pytest.raises(ValueError, match="convolve.*cannot be empty"):
        lt.convolve(t[0, :0], t[0])


def test_edge_cases_found_by_review(engine: Any) -> None:
    """A Python-number b stays weak when a is an array (it was made a strong
    float64); nanstd of integers is std (an integer dtype= kept, or NumPy's
    casting error); a list axis is NumPy's TypeError, but for median."""
    a = np.array([0.1, 1.0], np.float32)
    h = np.array([1.0, 2.0], np.float16)
    for x, y in ((a, 0.1), (h, 1.0001), (np.float32(0.1), 0.1), (0.1, a), (a, 0.1 + 0j)):
        check(lambda: np.isclose(x, y, rtol=0, atol=0), lambda: lt.isclose(x, y, rtol=0, atol=0))
        check(lambda: np.allclose(x, y), lambda: lt.allclose(x, y))
    i8 = np.arange(12, dtype=np.int8).reshape(3, 4)
    check(lambda: np.nanstd(i8, dtype="i8"), lambda: lt.nanstd(lt.asarray(i8), dtype="i8"))
    check(lambda: np.nanstd(i8, axis=0, dtype="i8"),
          lambda: lt.nanstd(lt.asarray(i8), axis=0, dtype="i8"))
    x = np.ones((2, 3))
    for name in ("sum", "mean", "var", "min", "ptp", "nansum", "nanmean", "nanmin", "nanmax",
                 "median"):
        check(lambda: getattr(np, name)(x, axis=[0, 1]),
              lambda: getattr(lt, name)(lt.asarray(x), axis=[0, 1]))


def test_histogram2d_and_histogramdd(engine: Any) -> None:
    rng = np.random.default_rng(40)
    x, y = rng.standard_normal(60), rng.uniform(-1, 1, 60)
    tx = lt.asarray(x) * 1                       # lazy inputs: evaluated
    for kw in ({}, {"bins": 4}, {"bins": [3, 5], "range": [[-1, 1], [0, 1]]},
               {"density": True, "weights": np.abs(x)}):
        for got, want in zip(lt.histogram2d(tx, y, **kw), np.histogram2d(x, y, **kw)):
            same_bits(got.eval(), want)
    h, edges = lt.histogramdd([tx, lt.asarray(y)], bins=3)
    wh, wedges = np.histogramdd([x, y], bins=3)
    same_bits(h.eval(), wh)
    for e, we in zip(edges, wedges):
        same_bits(e.eval(), we)
    check(lambda: np.histogram2d(x, y[:5]), lambda: lt.histogram2d(tx, y[:5]))


@pytest.mark.parametrize("call", [
    lambda m: m.quantile(np.zeros((3, 0)), 0.5, axis=1, weights=np.ones(0)),
    lambda m: m.quantile(np.zeros((3, 0)), 0.5, axis=1, weights=np.ones(2), method="inverted_cdf"),
    lambda m: m.percentile(np.zeros((3, 0)), 50, axis=0, weights=np.ones(3)),
    lambda m: m.quantile(np.zeros((3, 0)), 1.5, axis=1, weights=np.ones(0)),
    lambda m: m.quantile(np.zeros((3, 2)), 0.5, axis=3, weights=np.ones(2)),
    lambda m: m.quantile(np.ones((3, 2)), 0.5, axis=1, weights=-np.ones(2), method="inverted_cdf"),
    lambda m: m.nanquantile(np.zeros((3, 0)), 0.5, axis=1, weights=np.ones(0)),
    lambda m: m.quantile(np.zeros(3, complex), 0.5, weights=np.ones(3)),
], ids=lambda c: "")
def test_weighted_quantile_checks_in_numpys_order(call: Any) -> None:
    """With weights, NumPy checks q (and real input) first, then the method,
    then the weights, and only then computes (where an empty axis is
    inverted_cdf's IndexError): an empty input gave that IndexError before
    the method's or the weights' ValueError."""
    with pytest.raises(Exception) as want, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(np)
    with pytest.raises(type(want.value)):
        call(lt)
