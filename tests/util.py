"""``assert_eq``: a lazy result against its NumPy reference (dask's idea)."""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

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


def same_bits(got: np.ndarray[Any, Any], exp: np.ndarray[Any, Any]) -> None:
    """Equal dtype, shape and bits (float arrays, any layout); NaNs only in
    the same places (the sign of a NaN from two NaN operands is not a NumPy
    contract)."""
    got, exp = np.asarray(got), np.asarray(exp)
    assert got.dtype == exp.dtype and got.shape == exp.shape
    if exp.dtype.kind == "c":               # its real and imaginary parts, side by side
        real = np.empty(0, exp.dtype).real.dtype
        got, exp = (np.ascontiguousarray(v).view(real) for v in (got, exp))
    nan = np.isnan(exp)
    np.testing.assert_array_equal(np.isnan(got), nan)
    u = np.dtype(f"u{exp.dtype.itemsize}")
    np.testing.assert_array_equal(got[~nan].view(u), exp[~nan].view(u))


def same(a: Any, b: Any) -> bool:
    """Equal shape, dtype and values, bit for bit but NaN equal to NaN: the
    random programs' comparison (``tests/*_programs.py``), which reports a
    difference rather than asserting."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    try:
        return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    except TypeError:
        return bool(np.array_equal(a, b))


def public_type(e: BaseException) -> type[BaseException]:
    """The exception class a user would catch: NumPy's private subclasses
    (``_UFuncNoLoopError``) are reduced to their public base (``TypeError``)."""
    for cls in type(e).__mro__:
        if cls.__module__ in ("builtins", "numpy.exceptions"):
            return cls
    return Exception  # pragma: no cover


def check(np_fn: Callable[[], Any], lt_fn: Callable[[], Any], **kw: Any) -> None:
    """``lt_fn()`` builds what ``np_fn()`` computes: ``assert_eq`` the results
    (also lists/tuples of them), or, when NumPy raises, check that *building*
    the lazy graph raises the same (public) exception type.
    """
    try:
        with np.errstate(all="ignore"):
            expected = np_fn()
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        with pytest.raises(public_type(e)):
            lt_fn()  # building only: nothing is evaluated here
        return
    got = lt_fn()
    with np.errstate(all="ignore"):
        if isinstance(expected, (list, tuple)):
            assert isinstance(got, (list, tuple)) and len(got) == len(expected)
            for g, x in zip(got, expected):
                assert_eq(g, x, **kw)
        else:
            assert_eq(got, expected, **kw)


@st.composite
def basic_index(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A random basic index of ``shape``: ints, slices with any bounds and
    steps, perhaps a new axis, and a trailing ``...`` (a view, never a scalar)."""
    items: list[Any] = []
    for d in shape:
        if d and draw(st.integers(0, 3)) == 0:
            items.append(draw(st.integers(-d, d - 1)))
        else:
            items.append(slice(draw(st.one_of(st.none(), st.integers(-d - 1, d + 1))),
                               draw(st.one_of(st.none(), st.integers(-d - 1, d + 1))),
                               draw(st.sampled_from([None, 1, 2, -1, -2]))))
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), None)
    return tuple(items) + (Ellipsis,)   # always an ndarray view in NumPy, never a scalar


@st.composite
def advanced_index(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A random NumPy index of ``shape`` with at least one integer array or
    boolean mask (in range: values are NumPy's to check) among ints, slices,
    ``None``, perhaps one ``...`` and a 0-d boolean in any place, so that the
    arrays stand next to each other or apart."""
    items: list[Any] = []
    dim = 0
    while dim < len(shape):
        d = shape[dim]
        kind = draw(st.sampled_from(["array", "array", "mask", "int", "slice", "stop"]))
        if kind == "stop":
            break
        if kind == "mask":
            k = draw(st.integers(1, len(shape) - dim))
            items.append(draw(st.lists(st.booleans(), min_size=math.prod(shape[dim:dim + k]),
                                       max_size=math.prod(shape[dim:dim + k])).map(
                lambda v, s=shape[dim:dim + k]: np.array(v, bool).reshape(s))))
            dim += k
            continue
        if kind == "array" and d:
            dims = draw(st.sampled_from([(), (1,), (2,), (2, 1), (1, 3), (0,)]))
            items.append(draw(st.lists(st.integers(-d, d - 1), min_size=math.prod(dims),
                                       max_size=math.prod(dims)).map(
                lambda v, s=dims: np.array(v, np.intp).reshape(s))))
        elif kind == "int" and d:
            items.append(draw(st.integers(-d, d - 1)))
        else:
            items.append(slice(draw(st.one_of(st.none(), st.integers(-d - 1, d + 1))),
                               draw(st.one_of(st.none(), st.integers(-d - 1, d + 1))),
                               draw(st.sampled_from([None, 1, -1, 2]))))
        dim += 1
    if not any(isinstance(i, np.ndarray) and i.ndim for i in items):
        d = shape[dim] if dim < len(shape) else 0
        if dim == len(shape) or not d:
            # nothing left to index with an array: a mask over the leading axes
            lead = shape[:1]
            return (np.ones(lead, bool),) + (Ellipsis,) * draw(st.booleans())
        items.append(np.array([d - 1, 0], np.intp))
    for extra in (None, Ellipsis, np.bool_(draw(st.booleans()))):   # (a 0-d boolean adds an axis)
        if draw(st.booleans()):
            items.insert(draw(st.integers(0, len(items))), extra)
    return tuple(items)


def finishes_in_child(script: str, timeout: float = 120) -> None:
    """Run ``script`` in a fresh interpreter, which must print ``done``: a
    guard for code that once hung (a deadlock, an exponential walk), so a
    regression fails the test instead of hanging the suite."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=timeout)
    assert out.returncode == 0 and out.stdout.strip() == "done", out.stderr


def plans_counted(monkeypatch: Any) -> list[int]:
    """A list that gets the number of outputs of every graph optimized and
    planned (``exec.optimized.plan_for``) from now on (``monkeypatch``'s
    scope): what tests of the plan cache and the node-by-node rules count."""
    from lazyten.exec import optimized
    planned: list[int] = []
    real = optimized.plan_for

    def spy(outputs: Any, opts: Any) -> Any:
        planned.append(len(outputs))
        return real(outputs, opts)
    monkeypatch.setattr(optimized, "plan_for", spy)
    return planned


# Engine modes every kind of random program (``tests/*_programs.py``) runs
# in, beside its own ``MODES``; a key with ``_`` is the harness's.
SHARED_MODES: dict[str, dict[str, Any]] = {
    # planned and fused however small (small graphs run node by node at
    # their first run otherwise: ``Options.tiny_elements``)
    "planned": {"tiny_elements": 0},
    # the program as an ``@lt.jit`` function of its arrays: traced, then
    # called with other arrays of the same layouts (the cached plan)
    "jit": {"_jit": True},
}


def crash(e: BaseException, when: str = "") -> str:
    """An exception a random program raised, reported as a difference
    (``when``: which call, for the ``jit`` modes)."""
    at = f" ({when})" if when else ""
    return f"CRASH{at} {type(e).__name__}: {e}\n{traceback.format_exc()[-1500:]}"


def fewer_lines(lines: list[str], fails: Callable[[list[str]], bool], first: int = 0,
                last: int = 0) -> list[str]:
    """A failing random program's ``lines`` with lines dropped, one at a
    time, while ``fails`` of what is left holds (the random programs'
    shrinking; ``first``/``last``: lines at either end that stay).  A
    shorter program that raises (NumPy rejects it: a name dropped) does not
    fail."""
    changed = True
    while changed:
        changed = False
        for i in range(first, len(lines) - last):
            fewer = lines[:i] + lines[i + 1:]
            try:
                still = fails(fewer)
            except Exception:  # noqa: BLE001 (the shorter program is not one)
                still = False
            if still:
                lines, changed = fewer, True
                break
    return lines
