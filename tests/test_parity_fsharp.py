"""The F# Tensor library (Deep.Net ``Tensor``): its documented examples for
``broadcastToSame`` and for slicing, element access and writes through views,
rewritten for lazyten.

In F# a slice is a view: writing through it changes the original.  lazyten
does the same lazily (functionalization): a write makes a new version of the
view's root, every view of that root sees it, and graphs built before the
write keep the old value, exactly as eager NumPy would give.  NumPy, run
eagerly on a copy, is the judge; every test runs with the optimizer off and on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from util import assert_eq

import lazyten as lt


def _init(rows: int, cols: int) -> np.ndarray[Any, Any]:
    """``HostTensor.init [rows; cols] (fun [|i; j|] -> cols * float i + float j)``."""
    i, j = np.indices((rows, cols))
    return (cols * i + j).astype(np.float64)


# ---------------------------------------------------------------- broadcastToSame

def test_broadcast_to_same_two(engine: Any) -> None:
    # Tensor.broadcastToSame (a, b): a [4; 5], b [5]  ->  both [4; 5]
    a, b = np.zeros((4, 5)), np.arange(5.0)
    pa, pb = lt.broadcast_to_same(lt.asarray(a), lt.asarray(b))
    ra, rb = np.broadcast_arrays(a, b)
    assert pa.shape == pb.shape == (4, 5)
    assert_eq(pa, ra)
    assert_eq(pb, rb)


def test_broadcast_to_same_three_and_list(engine: Any) -> None:
    # size-one dimensions are added on the left, then size-one dimensions broadcast
    a, b, c = np.arange(4.0).reshape(4, 1), np.arange(5.0), np.arange(3.0).reshape(3, 1, 1)
    pa, pb, pc = lt.broadcast_to_same(lt.asarray(a), lt.asarray(b), lt.asarray(c))
    for got, ref in zip((pa, pb, pc), np.broadcast_arrays(a, b, c)):
        assert got.shape == (3, 4, 5)
        assert_eq(got, ref)
    many = lt.broadcast_to_same([lt.asarray(a), lt.asarray(b), lt.asarray(c)])  # list form
    assert [m.shape for m in many] == [(3, 4, 5)] * 3
    assert_eq(many[1], np.broadcast_to(b, (3, 4, 5)))


def test_broadcast_to_same_views_share_storage(engine: Any) -> None:
    # the results are views of the inputs: a later write to the source shows in them
    b = lt.asarray(np.arange(3.0))
    _, pb = lt.broadcast_to_same(lt.zeros((2, 3)), b)
    assert pb.node.op.kind == "view"
    b[1] = 10.0
    assert_eq(pb, np.broadcast_to([0.0, 10.0, 2.0], (2, 3)))


def test_broadcast_to_same_errors() -> None:
    with pytest.raises(ValueError, match=r"\(4, 5\) and \(4,\)"):
        lt.broadcast_to_same(lt.ones((4, 5)), lt.ones(4))
    with pytest.raises(ValueError):
        lt.broadcast_to_same(lt.ones((2, 3)), lt.ones((3, 2)), lt.ones(3))


# ---------------------------------------------------------------- element access

def test_element_access_and_assignment(engine: Any) -> None:
    # a.[[1L; 1L]] reads one element; a.[[1L; 1L]] <- 6.0 writes it
    ref = _init(7, 5)
    a = lt.asarray(ref)
    assert float(a[1, 1]) == ref[1, 1]
    assert a[1, 1].shape == ()
    a[1, 1] = 6.0
    ref = ref.copy()
    ref[1, 1] = 6.0
    assert float(a[1, 1]) == 6.0
    assert_eq(a, ref)
    a[2, 2] = 55
    ref[2, 2] = 55
    assert_eq(a, ref)
    with pytest.raises(IndexError):
        a[7, 0] = 1.0


# ---------------------------------------------------------------- slices are views

def test_slice_reads(engine: Any) -> None:
    ref = _init(7, 5)
    a = lt.asarray(ref)
    assert_eq(a[1, :], ref[1, :])              # a.[1L, *]
    assert_eq(a[1:4, 2:5], ref[1:4, 2:5])      # a.[1L..3L, 2L..4L] (F# ranges are inclusive)
    assert_eq(a[:, None, :], ref[:, None, :])  # a.[*, NewAxis, *]
    assert_eq(a[0, ...], ref[0, ...])          # a.[0L, Fill]
    assert_eq(a[::2, ::-1], ref[::2, ::-1])


def test_assign_row_through_slice(engine: Any) -> None:
    # a.[0L, *] <- HostTensor.ofList [7.0; 8.0; 9.0]
    ref = _init(2, 3)
    a = lt.asarray(ref)
    old = a + 0                                # built before the write
    a[0, :] = lt.asarray([7.0, 8.0, 9.0])
    ref2 = ref.copy()
    ref2[0, :] = [7.0, 8.0, 9.0]
    assert_eq(a, ref2)
    assert_eq(old, ref)                        # keeps the old value


def test_write_through_a_view_changes_the_original(engine: Any) -> None:
    # let d = a.[1L, 0L..1L]; d.[[1L]] <- 0.0  changes a.[[1L; 1L]]
    ref = _init(2, 3)
    a = lt.asarray(ref)
    d = a[1, 0:2]
    d[1] = 0.0
    exp = ref.copy()
    exp[1, 1] = 0.0
    assert_eq(a, exp)
    assert_eq(d, exp[1, 0:2])
    assert float(a[1, 1]) == 0.0


def test_all_views_of_a_root_see_a_write(engine: Any) -> None:
    ref = _init(4, 4)
    a = lt.asarray(ref)
    row, col, t = a[2], a[:, 1], a.T
    row[1] = -1.0                              # a[2, 1]
    exp = ref.copy()
    exp[2, 1] = -1.0
    assert_eq(col, exp[:, 1])
    assert_eq(t, exp.T)
    assert_eq(a, exp)


def test_chains_of_views(engine: Any) -> None:
    ref = np.arange(24.0).reshape(2, 3, 4)
    a = lt.asarray(ref)
    exp = ref.copy()
    v = a[1]                                   # a view
    w = v[:, 1:3]                              # a view of a view
    x = w.T                                    # ... and its transpose
    x[0, 2] = 100.0
    exp_v = exp[1]
    exp_v[:, 1:3].T[0, 2] = 100.0
    assert_eq(a, exp)
    assert_eq(v, exp[1])
    assert_eq(w, exp[1][:, 1:3])
    r = a.reshape(6, 4)[2:4]                   # reshape of a contiguous root is a view
    r[...] = 0.0
    exp.reshape(6, 4)[2:4] = 0.0
    assert_eq(a, exp)
    e = lt.expand_dims(a, 0)[0, 0, ::2]        # views with new axes and steps
    e[:, 0] = 7.0
    exp[0, ::2][:, 0] = 7.0
    assert_eq(a, exp)


def test_in_place_operators_on_views(engine: Any) -> None:
    ref = _init(3, 4)
    a = lt.asarray(ref)
    exp = ref.copy()
    v = a[1:, ::2]
    v += 1.0
    exp[1:, ::2] += 1.0
    assert_eq(a, exp)
    v *= 2
    exp[1:, ::2] *= 2
    assert_eq(a, exp)
    a[0] -= 5                                  # x[i] op= y through the row view
    exp[0] -= 5
    assert_eq(a, exp)
    t = a.T
    t /= 4.0
    exp.T[...] /= 4.0
    assert_eq(a, exp)
    assert_eq(v, exp[1:, ::2])
    i = lt.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    ei = np.arange(6, dtype=np.int32).reshape(2, 3)
    iv = i[:, 1]
    iv //= 2
    ei[:, 1] //= 2
    assert_eq(i, ei)
    with pytest.raises(TypeError, match="same_kind"):
        iv += 0.5                              # NumPy: float result into an int view


def test_repeated_writes_and_old_graphs(engine: Any) -> None:
    ref = np.zeros((3, 3))
    a = lt.asarray(ref)
    snapshots = []
    exps = []
    exp = ref.copy()
    for k in range(5):
        snapshots.append(a.sum() + a[k % 3])   # graphs built between writes
        exps.append(exp.sum() + exp[k % 3])
        a[k % 3, k % 3] += k + 1
        exp[k % 3, k % 3] += k + 1
        d = a[:, k % 3]
        d[(k + 1) % 3] = -k
        exp[(k + 1) % 3, k % 3] = -k
    assert_eq(a, exp)
    for s, e in zip(snapshots, exps):          # each keeps the value of its time
        assert_eq(s, e)


def test_evaluated_then_written(engine: Any) -> None:
    # a value cached by eval() must not leak into later versions, nor a write into it
    ref = _init(2, 2)
    a = lt.asarray(ref)
    first = a.eval()
    a[0, 0] = 42.0
    assert first[0, 0] == 0.0
    got = a.eval()
    got[1, 1] = -5.0                           # changing the returned array ...
    assert float(a[1, 1]) == ref[1, 1]         # ... changes nothing lazyten holds
    assert ref[0, 0] == 0.0                    # the user's array is never written


def test_reading_a_view_after_its_root_is_rebound(engine: Any) -> None:
    a = lt.asarray(np.arange(5.0))
    v = a[1:4]
    a += 10                                    # rebinds the root
    assert_eq(v, np.arange(5.0)[1:4] + 10)
    a[2] = 0.0
    assert_eq(v, np.array([11.0, 0.0, 13.0]))


def test_write_through_read_only_views_errors() -> None:
    # As in NumPy, broadcast and diagonal views are read-only: the write raises
    # on its own line, and the root is left as it was.
    a = lt.asarray(np.arange(3.0))
    b = lt.broadcast_to(a, (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        b += 1.0
    assert_eq(a, np.arange(3.0))
    m = lt.asarray(np.eye(3))
    with pytest.raises(ValueError, match="read-only"):
        lt.diagonal(m)[0] = 5.0
    _, pb = lt.broadcast_to_same(lt.zeros((2, 3)), a)
    with pytest.raises(ValueError, match="read-only"):
        pb[1, 1] = 0.0


# ---------------------------------------------------------------- random view chains and writes

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _random_view(draw: Any, ln: Any, nn: np.ndarray[Any, Any]) -> tuple[Any, Any]:
    """One random view op applied to a lazy tensor and its NumPy twin."""
    kind = draw(st.sampled_from(["slice", "int", "T", "newaxis"]))
    if nn.ndim == 0 or (kind == "int" and min(nn.shape) == 0):
        kind = "newaxis"
    if kind == "T":
        return ln.T, nn.T
    if kind == "newaxis":
        ax = draw(st.integers(0, nn.ndim))
        idx = (slice(None),) * ax + (None,)
        return ln[idx], nn[idx]
    ax = draw(st.integers(0, nn.ndim - 1))
    n = nn.shape[ax]
    if kind == "int":
        k = draw(st.integers(-n, n - 1))
        # a trailing ... keeps a 0-d result a view in NumPy too
        idx2: tuple[Any, ...] = (slice(None),) * ax + (k, Ellipsis)
    else:
        start = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
        stop = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
        step = draw(st.sampled_from([None, 1, 2, -1, -2]))
        idx2 = (slice(None),) * ax + (slice(start, stop, step),)
    return ln[idx2], nn[idx2]


# The engine fixture only sets options, which hold for every example.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_writes_through_view_chains(engine: Any, data: st.DataObject) -> None:
    """Random chains of views and writes, mirrored on an eager NumPy array."""
    draw = data.draw
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    base = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    ref = base.copy()
    root = lt.asarray(base)
    views: list[tuple[Any, Any]] = [(root, ref)]
    snapshots: list[tuple[Any, Any]] = []
    for step in range(draw(st.integers(1, 6))):
        lv, nv = views[draw(st.integers(0, len(views) - 1))]
        for _ in range(draw(st.integers(0, 2))):
            lv, nv = _random_view(draw, lv, nv)
            views.append((lv, nv))
        if nv.size == 0:
            continue
        what = draw(st.sampled_from(["fill", "element", "iadd", "imul"]))
        value = float(draw(st.integers(-9, 9)))
        if what == "fill":
            lv[...] = value
            nv[...] = value
        elif what == "element":
            idx = tuple(draw(st.integers(0, d - 1)) for d in nv.shape)
            lv[idx] = value
            nv[idx] = value
        elif what == "iadd":
            lv += value
            nv += value
        else:
            lv *= 2.0
            nv *= 2.0
        snapshots.append((root.sum() + 0.5 * step, ref.sum() + 0.5 * step))
    assert_eq(root, ref)
    for lv, nv in views:                      # every view sees the last version
        assert_eq(lv, nv)
    for snap, expected in snapshots:          # graphs built earlier keep their value
        assert_eq(snap, expected)
    np.testing.assert_array_equal(base, np.arange(base.size, dtype=np.float64).reshape(shape))


def test_pushdown_keeps_new_axis_of_0d_view() -> None:
    # Regression: a new-axis getitem of a 0-d elementwise node whose operands
    # are all 0-d was pushed through and the axis lost.
    with lt.set_options(optimize=True, check=True):
        root = lt.asarray(np.arange(4.0))
        root *= -1.0                        # the root is now an elementwise node
        v = root[-1, ...][None]             # a 0-d view, then a new axis
        v[0] = 5.0
        assert_eq(root, np.array([-0.0, -1.0, -2.0, 5.0]))
        assert_eq(root.sum(), np.float64(2.0))
