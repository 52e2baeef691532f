"""``assert_eq``: a lazy result against its NumPy reference (dask's idea)."""

from __future__ import annotations

from typing import Any

import numpy as np

import lazyten as lt


def assert_eq(lazy: Any, expected: Any, *, rtol: float | None = None, atol: float = 0.0,
              check_dtype: bool = True) -> np.ndarray[Any, Any]:
    """Check values, shape and dtype of ``lazy`` against ``expected``.

    Also checks that the shape and dtype inferred when the graph was built are
    what evaluation produced.  Integers and bools must match exactly; floats
    within a few ulps (``rtol`` defaults by dtype); NaN where NumPy has NaN.
    """
    exp = np.asarray(expected)
    if isinstance(lazy, lt.Tensor):
        inferred_shape, inferred_dtype = lazy.shape, lazy.dtype
        got = lazy.eval()
        assert got.shape == inferred_shape, f"inferred shape {inferred_shape}, got {got.shape}"
        assert got.dtype == inferred_dtype, f"inferred dtype {inferred_dtype}, got {got.dtype}"
    else:
        got = np.asarray(lazy)
    assert got.shape == exp.shape, f"shape {got.shape} != expected {exp.shape}"
    if check_dtype:
        assert got.dtype == exp.dtype, f"dtype {got.dtype} != expected {exp.dtype}"
    if got.dtype.kind in "biu" and exp.dtype.kind in "biu":
        np.testing.assert_array_equal(got, exp)
    else:
        if rtol is None:
            kind = np.result_type(got.dtype, exp.dtype)
            eps = np.finfo(kind).eps if kind.kind in "fc" else 1e-15
            rtol = 8 * float(eps)
        np.testing.assert_allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True)
    return got
