"""Hypothesis: broadcasting, random view chains, and views that are views.

* Random shape pairs: ``lt.broadcast_shapes`` and elementwise results equal
  NumPy's, and shapes that do not broadcast raise ``ValueError`` when built.
* Random chains of views (reshape with -1 or (), transpose, slices with steps
  and negative bounds, ints, None, ..., flip, swapaxes, expand_dims, squeeze,
  broadcast_to, diagonal) give NumPy's values, or NumPy's exception type at
  build time.
* Zero copy: ``.eval()`` returns a copy by contract, so the internal evaluator
  (``lazyten.exec.executor.evaluate``) shows it: the value of a view chain on
  ``lt.asarray(a)`` shares memory with ``a`` exactly when NumPy's does (a
  reshape of a non-contiguous layout is the one case that copies).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazyten as lt
from lazyten.exec.executor import evaluate
from tests.util import advanced_index, assert_eq, basic_index, check

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# The engine fixture only sets options, so it is safe to share between examples.
fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])

DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64,
          np.complex64]


# ------------------------------------------------------------------ broadcasting

@fixture_ok
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=5,
                                         min_side=0, max_side=4))
def test_broadcast_shapes_agree(engine: Any, shapes: Any) -> None:
    a, b = shapes.input_shapes
    assert lt.broadcast_shapes(a, b) == np.broadcast_shapes(a, b) == shapes.result_shape


@fixture_ok
@given(st.lists(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3),
                min_size=1, max_size=4))
def test_broadcast_shapes_any(engine: Any, shapes: list[tuple[int, ...]]) -> None:
    """Arbitrary shapes: the same result, or ValueError in both, also when
    the tensors are combined (raised when the node is built)."""
    check(lambda: np.broadcast_shapes(*shapes), lambda: lt.broadcast_shapes(*shapes))
    arrays = [np.zeros(s, np.int8) for s in shapes]
    check(lambda: np.broadcast_arrays(*arrays),
          lambda: lt.broadcast_arrays(*[lt.asarray(a) for a in arrays]))
    if len(shapes) >= 2:
        check(lambda: arrays[0] + arrays[1], lambda: lt.asarray(arrays[0]) + arrays[1])


@st.composite
def broadcast_operands(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], ...]:
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=4,
                                                    min_side=0, max_side=4))
    dts = [np.dtype(draw(st.sampled_from(DTYPES))) for _ in range(2)]
    out = []
    for shape, dt in zip(shapes.input_shapes[:2], dts):
        elements = None
        if dt.kind == "f":
            elements = st.floats(-100, 100, width=dt.itemsize * 8)
        elif dt.kind == "c":
            elements = st.complex_numbers(max_magnitude=100, width=dt.itemsize * 8)
        out.append(draw(hnp.arrays(dt, shape, elements=elements)))
    cond = draw(hnp.arrays(np.bool_, shapes.input_shapes[2]))
    return out[0], out[1], cond


@fixture_ok
@given(broadcast_operands(), st.sampled_from(["add", "subtract", "multiply", "maximum",
                                              "equal", "less", "logical_and"]))
def test_broadcast_elementwise(engine: Any, ops: tuple[np.ndarray[Any, Any], ...],
                               name: str) -> None:
    a, b, c = ops
    ta, tb, tc = lt.asarray(a), lt.asarray(b), lt.asarray(c)
    check(lambda: getattr(np, name)(a, b), lambda: getattr(lt, name)(ta, tb))
    check(lambda: np.where(c, a, b), lambda: lt.where(tc, ta, tb))
    # a non-contiguous operand: the same data through a reversed view
    check(lambda: getattr(np, name)(a[..., ::-1], b), lambda: getattr(lt, name)(
        ta[..., ::-1], b))


# ------------------------------------------------------------------ view chains

def _factor_shape(draw: st.DrawFn, size: int) -> list[int]:
    """A random shape with ``size`` elements."""
    if size == 0:
        dims = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4))
        if 0 not in dims:
            dims[draw(st.integers(0, len(dims) - 1))] = 0
        return dims
    factors: list[int] = []
    n, p = size, 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    ndim = draw(st.integers(0 if size == 1 else 1, 4))
    dims = [1] * max(ndim, 1 if factors else 0)
    for f in factors:
        dims[draw(st.integers(0, len(dims) - 1))] *= f
    return dims


@st.composite
def view_step(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[str, Any]:
    nd = len(shape)
    kinds = ["reshape", "index", "index", "flip", "expand_dims", "broadcast_to"]
    if nd >= 1:
        kinds += ["transpose", "squeeze"]
    if nd >= 2:
        kinds += ["swapaxes", "T", "mT", "diagonal", "moveaxis"]
    kind = draw(st.sampled_from(kinds))
    if kind == "reshape":
        size = math.prod(shape)
        dims = _factor_shape(draw, size)
        if dims and draw(st.booleans()):
            dims[draw(st.integers(0, len(dims) - 1))] = -1
        if draw(st.integers(0, 20)) == 0:  # occasionally a bad reshape
            dims = dims + [2]
        return kind, tuple(dims)
    if kind == "index":
        items: list[Any] = []
        for d in shape:
            choice = draw(st.integers(0, 9))
            if choice == 0 and d > 0:
                items.append(draw(st.integers(-d, d - 1)))
            elif choice == 1:
                items.append(draw(st.integers(-d - 2, d + 2)))  # maybe out of range
            elif choice == 2:
                items.append(None)
                items.append(slice(None))
            else:
                bound = st.one_of(st.none(), st.integers(-d - 2, d + 2))
                step = draw(st.sampled_from([None, 1, 2, 3, -1, -2, -3]))
                items.append(slice(draw(bound), draw(bound), step))
        if draw(st.booleans()):
            # an ellipsis standing for some of the items (dropped after it)
            k = draw(st.integers(0, len(items)))
            m = draw(st.integers(0, len(items) - k))
            items = items[:k] + [Ellipsis] + items[k + m:]
        if draw(st.booleans()):
            items.insert(draw(st.integers(0, len(items))), None)
        return kind, tuple(items)
    if kind == "transpose":
        return kind, tuple(draw(st.permutations(range(nd))))
    if kind == "flip":
        axis = draw(st.one_of(st.none(), st.integers(-nd, nd - 1) if nd else st.none()))
        return kind, axis
    if kind == "expand_dims":
        return kind, draw(st.integers(-nd - 1, nd))
    if kind == "squeeze":
        ones = [i for i, d in enumerate(shape) if d == 1]
        return kind, (tuple(ones) if ones and draw(st.booleans()) else None)
    if kind == "broadcast_to":
        new = [draw(st.integers(0, 3)) if d == 1 else d for d in shape]
        return kind, tuple(draw(st.lists(st.integers(1, 3), max_size=2)) + new)
    if kind == "swapaxes":
        return kind, (draw(st.integers(-nd, nd - 1)), draw(st.integers(-nd, nd - 1)))
    if kind == "diagonal":
        return kind, draw(st.integers(-2, 2))
    if kind == "moveaxis":
        return kind, (draw(st.integers(-nd, nd - 1)), draw(st.integers(-nd, nd - 1)))
    return kind, None


def apply_step(xp: Any, x: Any, step: tuple[str, Any]) -> Any:
    kind, arg = step
    if kind == "reshape":
        return xp.reshape(x, arg)
    if kind == "index":
        return x[arg]
    if kind == "transpose":
        return xp.permute_dims(x, arg)
    if kind == "flip":
        return xp.flip(x, axis=arg)
    if kind == "expand_dims":
        return xp.expand_dims(x, arg)
    if kind == "squeeze":
        return xp.squeeze(x, axis=arg)
    if kind == "broadcast_to":
        return xp.broadcast_to(x, arg)
    if kind == "swapaxes":
        return xp.swapaxes(x, *arg)
    if kind == "moveaxis":
        return xp.moveaxis(x, *arg)
    if kind == "diagonal":
        return xp.diagonal(x, arg)
    if kind == "T":
        return x.T
    return x.mT


@st.composite
def user_array(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """(the buffer, the user's array): contiguous, or a strided/negative view."""
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    dt = np.dtype(draw(st.sampled_from(DTYPES)))
    size = math.prod(shape) * 4
    buf = (np.arange(size) % 251).astype(dt)
    layout = draw(st.sampled_from(["c", "f", "strided", "negative"]))
    if layout == "c" or not shape:
        return buf, buf[:math.prod(shape)].reshape(shape)
    if layout == "f":
        return buf, buf[:math.prod(shape)].reshape(shape[::-1]).T
    big = buf.reshape(shape[:-1] + (shape[-1] * 4,))
    if layout == "strided":
        return buf, big[..., ::4]
    return buf, big[..., ::-4]


@fixture_ok
@given(user_array(), st.data())
def test_view_chains(engine: Any, arrays: Any, data: st.DataObject) -> None:
    buf, x = arrays
    t = lt.asarray(x)
    ex: Any = x
    scalar = False  # NumPy made a scalar (a copy) on the way: x[0, 1], flip of 0-d
    reshapes = 0
    n_steps = data.draw(st.integers(1, 6), label="steps")
    for _ in range(n_steps):
        step = data.draw(view_step(ex.shape), label="step")
        reshapes += step[0] == "reshape"
        try:
            ex_next = apply_step(np, ex, step)
        except Exception:  # noqa: BLE001 - NumPy rejected it: lazyten must, when built
            check(lambda: apply_step(np, ex, step), lambda: apply_step(lt, t, step))
            return
        if not isinstance(ex_next, np.ndarray):
            scalar, ex_next = True, np.asarray(ex_next)
        t = apply_step(lt, t, step)
        ex = ex_next
        assert t.shape == ex.shape and t.dtype == ex.dtype
    assert_eq(t, ex)
    # zero copy: views of the user's array are views of it, exactly when NumPy's are
    internal = evaluate([t.node])[0]
    if np.shares_memory(ex, x):
        assert np.shares_memory(internal, x), "lazyten copied where NumPy made a view"
    elif not scalar and not (engine["optimize"] and reshapes >= 2):
        # (The optimizer folds a reshape of a reshape into one, which can view
        # what the first had to copy: x.reshape(32).reshape(8, 4) of some
        # strided x.  One copy fewer, and as safe as any view of the user's
        # array: plans never write into those.  Node by node it copies.)
        assert not np.shares_memory(internal, x), "aliases the user's array, NumPy copied"
    # and the public value is a copy, never the user's memory
    assert not np.shares_memory(t.eval(), buf)


@fixture_ok
@given(user_array(), st.data())
def test_view_chain_then_compute(engine: Any, arrays: Any, data: st.DataObject) -> None:
    """A view chain feeding elementwise work and a reduction, as NumPy computes it."""
    _, x = arrays
    t = lt.asarray(x)
    ex: Any = x
    for _ in range(data.draw(st.integers(1, 4), label="steps")):
        step = data.draw(view_step(ex.shape), label="step")
        try:
            ex_next = apply_step(np, ex, step)
        except Exception:  # noqa: BLE001
            return
        ex, t = ex_next, apply_step(lt, t, step)
    with np.errstate(all="ignore"):
        expected = ex * 2 + ex
        assert_eq(t * 2 + t, expected)
        if ex.dtype.kind != "b":
            assert_eq((t * 2 + t).sum(), expected.sum(),
                      rtol=1e-2 if ex.dtype == np.float16 else 1e-5)


# ------------------------------------------------------------------ fixed zero-copy cases

@pytest.mark.parametrize("fn", [
    lambda xp, v: v[1:, ::-2], lambda xp, v: v.T, lambda xp, v: xp.reshape(v, (4, 6)),
    lambda xp, v: v[None, ..., 0], lambda xp, v: xp.broadcast_to(v[:, :1], (3, 2, 5, 4)),
    lambda xp, v: xp.flip(v), lambda xp, v: xp.expand_dims(v, 1), lambda xp, v: v.mT,
    lambda xp, v: xp.squeeze(v[:1]), lambda xp, v: xp.diagonal(v), lambda xp, v: v[0, 1, 2, ...],
    lambda xp, v: xp.swapaxes(v, 0, 2), lambda xp, v: xp.moveaxis(v, 0, -1),
    # axes as NumPy takes them: sequences, NumPy integers, arrays and ranges
    lambda xp, v: xp.moveaxis(v, (0, 1), [2, 0]),
    lambda xp, v: xp.moveaxis(v, np.int64(2), 0),
    lambda xp, v: xp.moveaxis(v, np.array([0, 2]), range(2)),
    lambda xp, v: v.transpose(2, 0, 1), lambda xp, v: v.transpose([1, 0, 2]),
    lambda xp, v: v.transpose(None),
    lambda xp, v: xp.split(v, 2)[1], lambda xp, v: xp.broadcast_arrays(v, v[:1])[1],
    lambda xp, v: xp.permute_dims(v, (1, 2, 0))[::2][..., ::-1, None],
])
def test_views_share_memory(engine: Any, fn: Any) -> None:
    a = np.arange(24.0).reshape(2, 3, 4)
    t = fn(lt, lt.asarray(a))
    internal = evaluate([t.node])[0]
    assert np.shares_memory(fn(np, a), a)
    assert np.shares_memory(internal, a)
    assert_eq(t, fn(np, a))
    out = t.eval()
    assert not np.shares_memory(out, a)  # .eval() hands out a copy
    out[...] = -1
    assert a.min() >= 0  # lazyten never writes into the user's array


def test_reshape_of_noncontiguous_copies(engine: Any) -> None:
    a = np.arange(24.0).reshape(4, 6)
    t = lt.asarray(a)[:, :2].reshape(-1)
    assert not np.shares_memory(evaluate([t.node])[0], a)
    assert not np.shares_memory(a[:, :2].reshape(-1), a)
    assert_eq(t, a[:, :2].reshape(-1))


# ------------------------------------------------------------------ reductions over random axes

@st.composite
def axis_spec(draw: st.DrawFn, ndim: int) -> Any:
    ax = st.integers(-ndim - 1, ndim)   # sometimes out of range
    return draw(st.one_of(st.none(), ax, st.lists(ax, max_size=ndim + 1).map(tuple)))


@fixture_ok
@given(user_array(), st.data(), st.sampled_from(["sum", "prod", "mean", "std", "min", "max",
                                                 "any", "all", "argmin", "argmax",
                                                 "cumulative_sum"]),
       st.booleans())
def test_reductions_over_random_axes(engine: Any, arrays: Any, data: st.DataObject,
                                     name: str, keepdims: bool) -> None:
    _, x = arrays
    axis = data.draw(axis_spec(x.ndim), label="axis")
    if name == "cumulative_sum":
        kw: dict[str, Any] = {"axis": axis}
    else:
        kw = {"axis": axis, "keepdims": keepdims}
    rtol = 1e-2 if x.dtype == np.float16 else (1e-5 if x.dtype in (np.float32, np.complex64)
                                               else 1e-12)
    with np.errstate(all="ignore"):
        check(lambda: getattr(np, name)(x, **kw), lambda: getattr(lt, name)(lt.asarray(x), **kw),
              rtol=rtol)


@fixture_ok
@given(user_array(), st.data())
def test_views_of_computed_values(engine: Any, arrays: Any, data: st.DataObject) -> None:
    """Views taken after elementwise work (the optimizer pushes them towards
    the inputs) and then more work: the same values as NumPy."""
    _, x = arrays
    t = lt.asarray(x)
    with np.errstate(all="ignore"):
        ex: Any = x * 2 + x
        lz = t * 2 + t
        for _ in range(data.draw(st.integers(1, 4), label="steps")):
            step = data.draw(view_step(ex.shape), label="step")
            try:
                ex_next = apply_step(np, ex, step)
            except Exception:  # noqa: BLE001 - errors are covered by test_view_chains
                break
            ex, lz = np.asarray(ex_next), apply_step(lt, lz, step)
            if data.draw(st.booleans(), label="more work"):
                ex, lz = ex - 1, lz - 1
        assert_eq(lz, ex)


# ------------------------------------------------------------------ slices of slices

@settings(max_examples=300, deadline=None)
@given(st.data())
def test_composed_slices_are_numpys(data: st.DataObject) -> None:
    """``shapes.compose_index``: ``a[i][o]`` as one index, as NumPy reads it
    (pushdown composes slices so they sink into expressions)."""
    from lazyten.graph.shapes import compose_index, normalize_index
    shape = tuple(data.draw(st.lists(st.integers(0, 6), min_size=1, max_size=3)))
    a = np.arange(math.prod(shape)).reshape(shape)
    i1 = data.draw(basic_index(shape))
    v = a[i1]
    i2 = data.draw(basic_index(v.shape))
    composed = compose_index(normalize_index(shape, i1)[0], v.shape,
                             normalize_index(v.shape, i2)[0])
    if None not in i1:
        assert composed is not None       # (only the inner view's new axes stop it)
    if composed is not None:
        np.testing.assert_array_equal(a[composed], v[i2], strict=True)


# ------------------------------------------------------------------ advanced indexing

def _lazy_arrays(index: tuple[Any, ...], lazy: list[bool]) -> tuple[Any, ...]:
    """``index`` with some of its arrays as lazy tensors (computed ones)."""
    out = []
    for i, item in enumerate(index):
        if isinstance(item, np.ndarray) and item.ndim and lazy[i % len(lazy)]:
            item = lt.asarray(item) & True if item.dtype == bool else lt.asarray(item) + 0
        out.append(item)
    return tuple(out)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 3), min_size=1, max_size=4).map(tuple), st.data())
def test_advanced_indexing_is_numpys(engine: Any, shape: tuple[int, ...],
                                     data: st.DataObject) -> None:
    """Integer arrays and masks with ints, slices, None and ``...`` anywhere
    (arrays next to each other or apart, so the result's axes go where
    NumPy puts them), on a strided tensor, some index arrays lazy."""
    x = np.arange(math.prod(shape) * 2, dtype=np.float32)[::2].reshape(shape)
    idx = data.draw(advanced_index(shape), label="index")
    lazy = data.draw(st.lists(st.booleans(), min_size=1, max_size=3), label="lazy")
    t = lt.asarray(x) * 1
    try:
        first = x[idx]
    except IndexError:
        # Raised when built, as NumPy does; a lazy array's values are
        # only known when it runs (test_lazy_index_out_of_bounds).
        check(lambda: x[idx], lambda: t[idx])
        return
    check(lambda: x[idx], lambda: t[_lazy_arrays(idx, lazy)])
    if first.ndim:                 # the result indexed again
        check(lambda: x[idx][..., ::-1], lambda: t[idx][..., ::-1])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 3), min_size=1, max_size=4).map(tuple), st.data())
def test_advanced_assignment_is_numpys(engine: Any, shape: tuple[int, ...],
                                       data: st.DataObject) -> None:
    """``t[index] = value`` and ``t[index] += value`` for advanced indices:
    a scalar, or an array of the indexed part's shape (or a broadcast of
    it); repeated indices keep NumPy's last write."""
    x = np.arange(math.prod(shape), dtype=np.int16).reshape(shape)
    idx = data.draw(advanced_index(shape), label="index")
    n, t = x.copy(), lt.asarray(x)
    try:
        sub = n[idx].shape
    except IndexError:
        return                     # (covered by test_advanced_indexing_is_numpys)
    form = data.draw(st.sampled_from(["scalar", "full", "row", "iadd", "lifted"]),
                     label="value")
    val: Any = (data.draw(st.integers(-9, 9)) if form in ("scalar", "iadd")
                else np.arange(math.prod(sub), dtype=np.int64).reshape(sub) - 3
                if form == "full" else np.arange(sub[-1] if sub else 1, dtype=np.int8))
    if form == "lifted":
        # a leading 1 broadcasts away, except where NumPy's one-mask path
        # wants at most one dimension (TypeError)
        val = np.reshape(val, (1, *np.shape(val)))
    if form == "iadd":
        n[idx] += val
        t[idx] += val
    else:
        try:
            n[idx] = val
        except TypeError:
            with pytest.raises(TypeError, match="0 or 1-dimensional"):
                t[idx] = val
            return
        t[idx] = val
    assert_eq(t, n)
    np.testing.assert_array_equal(x, np.arange(math.prod(shape)).reshape(shape))
