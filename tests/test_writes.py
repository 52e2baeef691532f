"""Writes through slices and views are functional (DESIGN 4): each write makes
a new version of the root's data, so the handles see it the way eager NumPy's
arrays would, graphs built before the write keep the old value, and the
user's own array is never written.

Every test runs the same statements on a NumPy array and on a tensor, then
compares each name.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import assert_eq, basic_index, finishes_in_child


def pair(shape: tuple[int, ...] = (3, 4), dtype: Any = np.float64) -> tuple[Any, Any, Any]:
    """(the user's array, a NumPy copy to mutate eagerly, a tensor on the user's array)."""
    x = np.arange(np.prod(shape), dtype=dtype).reshape(shape)
    return x, x.copy(), lt.asarray(x)


def test_setitem_row(engine: Any) -> None:
    x, n, a = pair()
    n[0, :] = -1
    a[0, :] = -1
    assert_eq(a, n)
    assert x[0, 0] == 0  # the user's array is untouched


def test_write_through_a_view(engine: Any) -> None:
    x, n, a = pair()
    nd, d = n[1, 0:2], a[1, 0:2]
    nd[1] = 0.0
    d[1] = 0.0
    assert_eq(a, n)
    assert_eq(d, nd)
    assert x[1, 1] == 5.0


def test_iadd_rebinds_the_same_handle(engine: Any) -> None:
    x, n, a = pair()
    same_n, same_a = n, a
    n += 1
    a += 1
    assert same_a is a
    assert_eq(same_a, same_n)
    assert_eq(a, x + 1)
    np.testing.assert_array_equal(x, np.arange(12.0).reshape(3, 4))


def test_graphs_built_before_a_write_keep_the_old_value(engine: Any) -> None:
    x, n, a = pair()
    before_sum = a.sum()
    before_expr = a * 2 + 1
    before_copy = a.copy()
    a[0, :] = 100.0
    a += 1
    d = a[2, ::2]
    d[...] = -5
    assert_eq(before_sum, x.sum())
    assert_eq(before_expr, x * 2 + 1)
    assert_eq(before_copy, x)
    n[0, :] = 100.0
    n += 1
    n[2, ::2] = -5
    assert_eq(a, n)
    assert_eq(a.sum(), n.sum())    # built after: the new value


def test_views_taken_before_a_write_see_it(engine: Any) -> None:
    """Like NumPy: a view reads its base's current data."""
    _, n, a = pair()
    nv, v = n[0], a[0]
    nt, t = n.T, a.T
    n[0, 1] = 9.0
    a[0, 1] = 9.0
    assert_eq(v, nv)
    assert_eq(t, nt)
    # a graph built from the view before the write still has the old value
    _, n2, a2 = pair()
    v2 = a2[0]
    old = v2 * 1
    a2[0, 1] = 9.0
    assert_eq(old, n2[0])


def test_write_through_view_chains(engine: Any) -> None:
    _, n, a = pair((4, 6))
    steps: list[tuple[Any, Any]] = [
        (lambda m: m.T, (slice(1, 3), 0)),
        (lambda m: m[::2], (1, slice(None, None, -2))),
        (lambda m: m[1:, ::-1][:, 2:], (0,)),
        (lambda m: m[None, ..., 1], (0, slice(0, 2))),
        (lambda m: m.reshape(3, 8), (2, slice(4, None))),   # contiguous: a view
        (lambda m: np.swapaxes(m, 0, 1) if isinstance(m, np.ndarray) else lt.swapaxes(m, 0, 1),
         (3, 3)),
        (lambda m: m[2], (Ellipsis,)),
    ]
    for k, (view, idx) in enumerate(steps):
        view(n)[idx] = 100 + k
        view(a)[idx] = 100 + k
        assert_eq(a, n)


def test_inplace_operators_on_views(engine: Any) -> None:
    _, n, a = pair((3, 4), np.int32)
    nv, v = n[1], a[1]
    nv *= 2
    v *= 2
    assert_eq(a, n)
    nc, c = n[:, ::3], a[:, ::3]
    nc -= 7
    c -= 7
    nc //= 2
    c //= 2
    assert_eq(a, n)
    assert_eq(c, nc)
    n[0] <<= 1
    a[0] <<= 1
    assert_eq(a, n)


@pytest.mark.parametrize("op", ["__iadd__", "__isub__", "__imul__", "__itruediv__",
                                "__ifloordiv__", "__imod__", "__ipow__"])
def test_every_inplace_arithmetic_operator(engine: Any, op: str) -> None:
    _, n, a = pair((2, 3))
    getattr(n, op)(np.array([1.5, 2.0, 3.0]))
    getattr(a, op)(np.array([1.5, 2.0, 3.0]))
    assert_eq(a, n)


@pytest.mark.parametrize("op", ["__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"])
def test_every_inplace_bitwise_operator(engine: Any, op: str) -> None:
    _, n, a = pair((2, 3), np.uint8)
    getattr(n, op)(3)
    getattr(a, op)(3)
    assert_eq(a, n)


def test_inplace_matmul(engine: Any) -> None:
    _, n, a = pair((3, 3))
    m = np.eye(3)[::-1]
    n @= m
    a @= m
    assert_eq(a, n)


def test_inplace_keeps_dtype_and_shape_rules(engine: Any) -> None:
    _, n, a = pair((2, 3), np.int16)
    with pytest.raises(TypeError):
        n += 1.5   # NumPy: same_kind casting forbids float into int
    with pytest.raises(TypeError):
        a += 1.5
    with pytest.raises(ValueError):
        n += np.ones((2, 2, 3), np.int16)
    with pytest.raises(ValueError):
        a += np.ones((2, 2, 3), np.int16)
    a += np.int8(3)                        # a smaller int casts back
    n += np.int8(3)
    assert_eq(a, n)


def test_assignment_casts_and_broadcasts_like_numpy(engine: Any) -> None:
    _, n, a = pair((3, 4), np.int8)
    for idx, val in (((0,), 2.7), ((slice(None), 1), np.array([1, 2, 3])),
                     ((Ellipsis, slice(1, 3)), np.array([-1.9, 7.2])), ((2, 3), True),
                     ((slice(None, None, -1),), np.arange(4, dtype=np.int64)),
                     ((1,), lt.asarray(np.array([5, 6, 7, 8], np.uint8))),
                     ((0,), np.ones((1, 1, 4))),       # NumPy drops leading unit axes
                     ((slice(None, 2), 1), np.full((1, 2), 9))):
        n[idx] = np.asarray(val) if isinstance(val, lt.Tensor) is False else val.eval()
        a[idx] = val
        assert_eq(a, n)
    with pytest.raises(OverflowError):
        n[0, 0] = 300
    with pytest.raises(OverflowError):
        a[0, 0] = 300
    with pytest.raises(OverflowError):
        n[0, :2] = [1, 300]
    with pytest.raises(OverflowError):          # each item is checked, as NumPy does
        a[0, :2] = [1, 300]
    n[1, :2] = a[1, :2] = [1.9, -2.5]
    assert_eq(a, n)
    with pytest.raises(ValueError):
        n[0] = np.ones(3)
    with pytest.raises(ValueError):
        a[0] = np.ones(3)
    with pytest.raises(IndexError):
        a[3] = 1


def test_scalar_element_is_a_copy_like_numpy(engine: Any) -> None:
    """``a[0, 1]`` is a NumPy scalar (a copy): writing to it leaves ``a`` alone,
    while ``a[0]`` (and ``a[0, 1, ...]``) are views."""
    _, n, a = pair()
    ns, s = n[0, 1], a[0, 1]
    ns += 10
    s += 10
    assert_eq(a, n)
    assert_eq(s, np.asarray(ns))
    ne, e = n[0, 1, ...], a[0, 1, ...]   # a 0-d view
    ne += 10
    e += 10
    assert_eq(a, n)


def test_many_versions(engine: Any) -> None:
    _, n, a = pair((4,))
    versions = []
    for i in range(50):
        a[i % 4] = a[(i + 1) % 4] + i
        n[i % 4] = n[(i + 1) % 4] + i
        versions.append((a * 1, n.copy()))
    for lazy, eager in versions:
        assert_eq(lazy, eager)


def test_writes_after_eval_and_cached_values(engine: Any) -> None:
    _, n, a = pair()
    b = a * 2
    first = b.eval()                  # cached
    b[0] = 0.0
    n2 = n * 2
    n2[0] = 0.0
    assert_eq(b, n2)
    np.testing.assert_array_equal(first, n * 2)
    c = a + 1
    c.eval()
    c += 1                            # a new version, not a write into the cache
    assert_eq(c, n + 2)


def test_write_into_a_computed_tensor_and_its_views(engine: Any) -> None:
    x = np.linspace(0, 1, 12).reshape(3, 4)
    t = lt.sin(lt.asarray(x))
    e = np.sin(x)
    t[:, 0] = t[:, 1] * 2
    e[:, 0] = e[:, 1] * 2
    v, ev = t[::-1, 1:], e[::-1, 1:]
    v[0] = -1
    ev[0] = -1
    assert_eq(t, e)
    assert_eq(v, ev)


def test_write_to_read_only_view_is_refused_when_built(engine: Any) -> None:
    """NumPy: broadcast_to and diagonal views are read-only."""
    _, n, a = pair()
    with pytest.raises(ValueError):
        np.broadcast_to(n[0], (2, 4))[0, 0] = 5
    with pytest.raises(ValueError):
        lt.broadcast_to(a[0], (2, 4))[0, 0] = 5
    with pytest.raises(ValueError):
        np.diagonal(n)[0] = 5
    with pytest.raises(ValueError):
        lt.diagonal(a)[0] = 5
    assert_eq(a, n)


def _same_writes_through(view: Any, t: lt.Tensor, n: np.ndarray[Any, Any],
                         user: np.ndarray[Any, Any], before: np.ndarray[Any, Any]) -> None:
    """``view`` of the tensor ``t`` and of NumPy's ``n`` written alike: both
    (and both views) equal after it, and the user's array ``user`` as
    ``before`` (lazyten never writes it)."""
    nr, r = view(n), view(t)
    nr[0] = -100
    r[0] = -100
    assert_eq(t, n)
    assert_eq(r, nr)
    np.testing.assert_array_equal(user, before)


def test_write_through_a_copying_reshape(engine: Any) -> None:
    """A reshape NumPy must copy is a copy here too (decided when it is
    built): a write to it leaves the base alone, where it used to fail when
    the base was next evaluated."""
    _, n, a = pair((4, 6))
    for view in (lambda v: v[:, :2].reshape(-1), lambda v: v.T.reshape(3, 8),
                 lambda v: v[1:3].reshape(-1), lambda v: v[:, ::2].T.reshape(-1, 2)):
        nr, r = view(n), view(a)
        nr[0] = 100
        r[0] = 100
        assert_eq(a, n)
        assert_eq(r, nr)
    with pytest.raises(ValueError, match="copy"):
        np.reshape(n.T, -1, copy=False)
    # A Fortran-ordered array (``pandas``' ``.values``): NumPy copies where
    # the order differs, also after in-place updates, which keep the layout.
    for view in (lambda v: v.reshape(6, 4), lambda v: v.T.reshape(-1),
                 lambda v: v[:, 1].reshape(2, 2), lambda v: v[1:3].T.reshape(3, 4)):
        x = np.asfortranarray(np.arange(24.0).reshape(4, 6))
        nf, f = x.copy(order="K"), lt.asarray(x)
        nf += 1
        f += 1
        _same_writes_through(view, f, nf, x, np.arange(24.0).reshape(4, 6))
    with pytest.raises(ValueError, match="copy"):
        lt.reshape(a.T, -1, copy=False)
    assert_eq(lt.reshape(a[1:], (3, 2, 3), copy=False), np.reshape(n[1:], (3, 2, 3), copy=False))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_is_numpys(engine: Any, mode: str) -> None:
    """``lt.put``: flat C-order indices, ``v`` repeated to their number, the
    last of repeated indices wins; through a view it writes the base."""
    for ind, v in (([0, 2], [-44, -55]), ([[1], [5]], 9), ([-1, 7, 3], [1, 2]),
                   ([22, -30], [5]), ([], [1]), ([], [1, 2]), ([1, 1], [3, 4]),
                   (np.array([3]), 2.9)):
        _, n, a = pair((3, 4), np.int32)
        nv, v_ = n[:, ::-2], a[:, ::-2]
        try:
            np.put(nv, ind, v, mode=mode)
        except IndexError:
            with pytest.raises(IndexError):
                lt.put(v_, ind, v, mode=mode)
            continue
        v_.put(ind, v, mode=mode)
        assert_eq(a, n)
        assert_eq(v_, nv)
    _, n, a = pair()
    lt.put(a, lt.asarray(np.array([5, 0])), [1.5, 2.5])          # lazy indices
    np.put(n, [5, 0], [1.5, 2.5])
    assert_eq(a, n)
    with pytest.raises(TypeError):
        lt.put([1.0, 2.0], [0], 1)                               # not an array


def test_reshapes_of_a_strided_user_array_are_numpys_views_or_copies(engine: Any) -> None:
    """A user's array with steps, reversed or broadcast: NumPy decides a
    reshape or ravel by its strides (``x.reshape(-1)`` of ``base[::2]`` is a
    copy), also after in-place writes, which keep them; a write through a
    view reaches the tensor exactly where NumPy's reaches the array."""
    def arrays() -> list[np.ndarray[Any, Any]]:
        b = np.arange(24.0).reshape(4, 6)
        return [b[::2], b[:, ::2], b[::-1], b[::-1, ::-2], b.T[::2],
                np.arange(12.0)[::-1], np.arange(12.0)[::3], np.arange(6.0)[::-1].reshape(2, 3)]
    views = (lambda v: v.reshape(-1), lambda v: v.ravel(),
             lambda v: v.reshape(v.shape[0], 1, -1) if v.ndim == 2 else v.reshape(2, -1),
             lambda v: v[::-1].reshape(-1), lambda v: v.T.ravel())
    for k in range(len(arrays())):
        for view in views:
            for write_first in (False, True):
                x, nn = arrays()[k], arrays()[k]   # (nn: NumPy's own, of the same strides)
                before = x.copy()
                t = lt.asarray(x)
                if write_first:
                    nn += 1
                    t += 1
                _same_writes_through(view, t, nn, x, before)
    # a broadcast array: read-only in NumPy, so its reshape is a new array here
    bc = np.broadcast_to(np.array([1.0, 2.0]), (3, 2))
    t = lt.asarray(bc)
    r = t.reshape(-1)
    r[0] = 100.0
    assert_eq(t, bc)
    assert_eq(r, np.array([100.0, 2, 1, 2, 1, 2]))


def test_flatten_is_a_copy_and_ravel_a_view(engine: Any) -> None:
    _, n, a = pair()
    nf, f, nv, v = n.flatten(), a.flatten(), n.ravel(), a.ravel()
    nf[0] = f[0] = 50
    nv[1] = v[1] = 60
    assert_eq(a, n)
    assert_eq(f, nf)
    # A view exactly where NumPy's is: C-contiguous data ("F": F-contiguous),
    # in the layout writes see (a Fortran-ordered user array's too).
    for make in (lambda: np.arange(12.0).reshape(3, 4),
                 lambda: np.asfortranarray(np.arange(12.0).reshape(3, 4)),
                 lambda: np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1)):
        for view in (lambda v: v, lambda v: v[::2], lambda v: v[:, ::2], lambda v: v[::-1],
                     lambda v: v.T, lambda v: v[1:], lambda v: v[1], lambda v: v[..., :1]):
            for order in ("C", "F", None, "f", "A", "K"):
                x = make()
                nn, t = x.copy(order="K"), lt.asarray(x)
                nr, r = np.ravel(view(nn), order=order), lt.ravel(view(t), order=order)
                nr[0] = r[0] = -7
                assert_eq(t, nn)
                assert_eq(r, nr)
                np.testing.assert_array_equal(x, make())


def test_real_and_imag_are_views_writes_reach(engine: Any) -> None:
    n = np.array([[1 + 1j, 2 - 2j], [3 + 0j, -1j]])
    c = lt.asarray(n.copy())
    m = n.copy()
    m.real[0] = 5
    c.real[0] = 5
    m[1].imag[:] = 7
    c[1].imag[:] = 7
    part = m.imag
    part *= 2
    part_t = c.imag
    part_t *= 2
    assert_eq(c, m)
    _, nf, f = pair()
    nf.real[0, 0] = 9                 # a real array's .real is itself
    f.real[0, 0] = 9
    assert_eq(f, nf)
    with pytest.raises(ValueError):
        nf.imag[0, 0] = 1
    with pytest.raises(ValueError):   # ... and its .imag read-only zeros
        f.imag[0, 0] = 1


def test_iterating_gives_rows_that_are_views(engine: Any) -> None:
    _, n, a = pair()
    for nrow, row in zip(n, a):
        nrow[0] = -1
        row[0] = -1
    assert_eq(a, n)
    assert [type(v) for v in lt.asarray(np.arange(3.0))] == [np.float64] * 3
    # 1-d elements are read live, as NumPy's: a write in the loop is seen after it
    z, t = np.arange(5), lt.asarray(np.arange(5))
    seen_n, seen_t = [], []
    for v in z:
        z[-1] = z[-1] + v
        seen_n.append(int(v))
    for v in t:
        t[-1] = t[-1] + v
        seen_t.append(int(v))
    assert seen_t == seen_n
    assert_eq(t, z)


# ------------------------------------------------------------------ random write programs

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=40)
@given(st.data())
def test_random_write_programs_match_numpy(engine: Any, data: st.DataObject) -> None:
    """Random views, writes and in-place updates on NumPy arrays and tensors:
    every handle and every value captured on the way agrees at the end."""
    # (A Fortran-ordered root: its reshapes are copies where NumPy's are.)
    order = data.draw(st.sampled_from("CF"), label="root order")
    x = np.arange(20.0).reshape(4, 5).copy(order=order)
    handles: list[tuple[Any, Any]] = [(x.copy(order="K"), lt.asarray(x))]
    snapshots: list[tuple[Any, Any]] = []
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        k = data.draw(st.integers(0, len(handles) - 1), label="handle")
        n, t = handles[k]
        action = data.draw(st.sampled_from(["view", "T", "reshape", "set", "iadd", "imul",
                                            "snap"]))
        if action == "reshape" and n.size:
            shape = data.draw(st.sampled_from([(-1,), (n.size, 1), (1, -1, 1)]), label="shape")
            handles.append((n.reshape(shape), t.reshape(shape)))
        elif action == "view":
            idx = data.draw(basic_index(n.shape), label="view index")
            handles.append((n[idx], t[idx]))
        elif action == "T":
            handles.append((n.T, t.T))
        elif action == "set":
            idx = data.draw(basic_index(n.shape), label="write index")
            v = data.draw(st.integers(-50, 50), label="value")
            n[idx] = v
            t[idx] = v
        elif action in ("iadd", "imul"):
            v = data.draw(st.integers(-3, 3), label="operand")
            if action == "iadd":
                n += v
                t += v
            else:
                n *= v
                t *= v
        else:
            snapshots.append((n.copy(), t * 1))
    for n, t in handles:
        assert_eq(t, n)
    for n, t in snapshots:
        assert_eq(t, n)
    np.testing.assert_array_equal(x, np.arange(20.0).reshape(4, 5))   # never written


def test_reshapes_of_view_chains_replay_only_their_new_steps(monkeypatch: Any) -> None:
    """Deciding whether a reshape of a view is a view replays the chain's
    layout on a stand-in, from the last reshape's (cached): a chain of n
    reshapes of slices replays n slices, not n**2 / 2."""
    import dataclasses

    from lazyten.graph import ops
    calls = []
    spec = ops.REGISTRY["getitem"]
    monkeypatch.setitem(ops.REGISTRY, "getitem", dataclasses.replace(
        spec, impl=lambda *a, **k: calls.append(1) or spec.impl(*a, **k)))
    t = lt.asarray(np.zeros(1000))[::1]
    for _ in range(200):
        t = t[1:].reshape(-1)
    assert len(calls) <= 201
    assert t.shape == (800,)


def test_a_nested_list_no_deeper_than_the_destination(engine: Any) -> None:
    """NumPy reads a sequence value at most as deep as the destination of a
    basic index (``a[0] = [[1]]`` is its ValueError; an array broadcasts)."""
    for idx in (0, (0, slice(None)), (slice(None),), (0, 0), Ellipsis):
        for v in ([[1]], [[1, 2, 3]], [[[1]]], [1, 2, 3], [[1, 2, 3], [4, 5, 6]], 5,
                  (1, 2, 3), np.array([[1]])):
            n, t = np.zeros((2, 3)), lt.zeros((2, 3))
            try:
                n[idx] = v
            except ValueError:
                with pytest.raises(ValueError):
                    t[idx] = v
                continue
            t[idx] = v
            assert_eq(t, n)


def test_one_full_rank_mask_takes_at_most_a_vector(engine: Any) -> None:
    """``a[mask] = v`` with one mask of ``a``'s rank is NumPy's own path: a
    value of two or more dimensions is its TypeError even where it would
    broadcast; with the mask over leading axes or beside ``...`` it broadcasts."""
    x = np.arange(12.0).reshape(3, 4)
    for idx in (x > 4, (x > 4,), x[:, 0] > 4, (Ellipsis, x > 4)):
        for v in (np.ones((1, 7)), np.ones((1, 1)), np.ones(7), 2.0, np.ones((2, 1, 4))):
            n, t = x.copy(), lt.asarray(x) * 1
            try:
                n[idx] = v
            except (TypeError, ValueError) as e:
                with pytest.raises(type(e)):
                    t[idx] = v
                continue
            t[idx] = v
            assert_eq(t, n)


def test_writes_from_several_threads_are_each_whole(engine: Any) -> None:
    """Threads writing their own elements of one tensor (``t[i] = k``,
    ``t[i] += 1``, ``lt.put``) lose no write, as with a NumPy array: each
    write reads the tensor's version, builds the next and rebinds whole."""
    import sys
    import threading
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)                     # (switch threads as often as can be)
    try:
        t, u, p = lt.zeros(4), lt.zeros(4), lt.zeros(4)

        def work(i: int) -> None:
            for k in range(1, 101):
                t[i] = k
                u[i] += 1
                lt.put(p, [i], [k])
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(interval)
    for x in (t, u, p):
        assert_eq(x, np.full(4, 100.0))


def test_view_as_another_dtype_reads_and_writes_the_same_bytes(engine: Any) -> None:
    """``t.view(dtype)``, NumPy's: the same bytes read as another dtype (the
    last axis scaled for another item size), a view that writes reach
    ``t`` through; NumPy's errors (0-d, a last axis whose bytes do not
    divide, a non-contiguous last axis) when built."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 6))
    for dt in (np.int64, np.uint8, np.int32, np.complex128, np.float32, np.float64):
        for make in (lambda a: a, lambda a: a[1:3], lambda a: a * 1.5, lambda a: a[::2] + 1):
            n, t = make(x), make(lt.asarray(x))
            want = n.view(dt)
            with lt.set_options(check=True):
                assert_eq(t.view(dt), want)
                assert_eq(t.view(dt) + 0 if np.dtype(dt).kind != "b" else t.view(dt), want + 0)
    # writes through it reach the tensor, as NumPy's
    n, t = x.copy(), lt.asarray(x) * 1
    nv, v = n.view(np.int64), t.view(np.int64)
    nv[0, 1] = 4607182418800017408                   # the bits of 1.0
    v[0, 1] = 4607182418800017408
    sign = np.int64(-(2 ** 63))
    nv[1] ^= sign                                     # flip the signs of row 1
    v[1] ^= sign
    assert_eq(t, n)
    assert_eq(v, nv)
    assert_eq(lt.asarray(x).view(), x.view())
    assert_eq(lt.asarray(x.astype(np.int64)).view(None), x.astype(np.int64).view(None))
    # a computed value's layout is known when it runs: NumPy's F * 2 is F,
    # its transpose C, whose last axis may change item size
    fa = np.asfortranarray(x)
    assert_eq((lt.asarray(fa) * 2).T.view(np.float32), (fa * 2).T.view(np.float32))
    for a in (np.array(1.0), np.ones(5, np.int32), np.ones((3, 4)).T):
        dt = np.int64 if a.dtype == np.int32 else np.int32
        with pytest.raises(ValueError):
            a.view(dt)
        with pytest.raises(ValueError):
            lt.asarray(a).view(dt)                  # (when built)
    # another array class: NumPy's object over the value, read-only (writes
    # to it could not reach the tensor)
    m = lt.asarray(x).view(np.matrix)
    assert type(m) is np.matrix and not m.flags.writeable
    np.testing.assert_array_equal(m, x.view(np.matrix))


def test_writes_read_numpy_arrays_at_the_call(engine: Any) -> None:
    """A write reads its value, index arrays and mask when it is called, as
    NumPy's does, though it runs later: an array the caller changes after
    the call (a reused buffer) is not what the write reads."""
    def program(x: Any, xp_put: Any) -> Any:
        buf, idx, mask = np.empty(3), np.array([0, 1]), np.array([True, False, True])
        for k in range(3):
            buf[:] = np.arange(3.0) * (k + 1)
            x += buf                          # in-place operator
            x[idx] = x[idx] * 2               # index array
            x[mask] = -k                      # mask
            xp_put(x, idx, buf[:2])           # put of values
            np.copyto(x, buf, where=mask)     # copyto's source and where
            np.putmask(x, mask, buf)
            x[:2] = buf[1:]                   # a value through a slice
            np.add.at(x, idx, buf[:2])        # ufunc.at's indices and operand
            idx[:] = idx[::-1]
            mask[:] = ~mask
            buf[:] = 1e9
        return x
    want = program(np.zeros(3), np.put)
    got = program(lt.asarray(np.zeros(3)), lt.put)
    assert_eq(got, want)


def test_more_writes_read_their_arrays_at_the_call(engine: Any, tmp_path: Any) -> None:
    """The other ways to write a tensor read NumPy arrays (and buffers,
    subclasses, a namedtuple of arrays) at the call too."""
    import array
    # the read of ``t[i] += v`` takes the same positions as its write
    t, n, i = lt.asarray(np.arange(4.0)), np.arange(4.0), np.array([0, 1])
    t[i] += 1
    n[i] += 1
    i[:] = 3
    assert_eq(t, n)
    # ``@=``, an ndarray subclass (a memmap), buffers
    t, w = lt.ones(3), np.eye(3) * 2
    t @= w
    w[:] = 0
    assert_eq(t, np.full(3, 2.0))
    mm = np.memmap(tmp_path / "m", float, "w+", shape=3)
    mm[:] = [1.0, 2.0, 3.0]
    t = lt.zeros(3)
    t += mm
    mm[:] = 9
    assert_eq(t, np.array([1.0, 2.0, 3.0]))
    for make in (lambda b: memoryview(b), lambda b: array.array("d", b.tolist())):
        b = np.arange(3.0)
        src = make(b)
        t = lt.zeros(3)
        t[...] = src
        b[0] = 99.0
        if isinstance(src, array.array):
            src[0] = 99.0
        assert_eq(t, np.arange(3.0))
    # a namedtuple of arrays is a value (NumPy reads it as a sequence)
    s = np.linalg.slogdet(np.stack([np.eye(2) * 2, np.eye(2) * 3]))
    t, n2 = lt.zeros((2, 2)), np.zeros((2, 2))
    t[...] = s
    n2[...] = s
    assert_eq(t, n2)
    # a broadcast value is copied small, and broadcast again
    t = lt.zeros((300, 400))
    big = np.broadcast_to(np.arange(400.0), (300, 400))
    t[...] = big
    assert_eq(t, big)
    # masked tensors: in-place operators and masked values
    m, v = lt.ma.masked_array(np.zeros(3), mask=[0, 1, 0]), np.ones(3)
    m += v
    v[:] = 5
    np.testing.assert_array_equal(m.eval().filled(-1), [1.0, -1.0, 1.0])
    m, v, k = lt.ma.masked_array(np.zeros(3)), np.arange(3.0), np.array([0, 1, 0], bool)
    m[:] = np.ma.masked_array(v, mask=k)
    v[:], k[:] = 9, True
    np.testing.assert_array_equal(m.eval().filled(-1), [0.0, -1.0, 2.0])
    # gorgonia's reuse=, incr=, unsafe=, copy_to write now
    g = lt.gorgonia
    for write, want in ((lambda v, t: g.add(v, 0.0, reuse=t), [0.0, 1, 2]),
                        (lambda v, t: g.add(v, 1.0, incr=t), [1.0, 2, 3]),
                        (lambda v, t: g.add(t, v, unsafe=True), [0.0, 1, 2]),
                        (lambda v, t: g.copy_to(t, v), [0.0, 1, 2]),
                        (lambda v, t: g.mat_vec_mul(np.eye(3), v, reuse=t), [0.0, 1, 2])):
        v, t = np.arange(3.0), lt.zeros(3)
        write(v, t)
        v[:] = 77
        assert_eq(t, np.array(want))
    # nan_to_num in place: its fill arrays
    t, fill = lt.asarray(np.array([np.nan, 1.0])), np.array([5.0, 5.0])
    lt.nan_to_num(t, copy=False, nan=fill)
    fill[:] = -1
    assert_eq(t, np.array([5.0, 1.0]))


def test_a_chain_of_writes_runs_in_place(engine: Any) -> None:
    """``x[i] = ...`` in a loop over a computed array: the first write
    copies, the others write into the dying buffer (one copy of the array,
    not one per write), and a version read after a write is not overwritten."""
    n = np.arange(1000.0)
    x = lt.asarray(n) * 2
    want = n * 2
    for i in range(1, 20):
        x[i] = x[i - 1] * 0.5 + x[i]
        want[i] = want[i - 1] * 0.5 + want[i]
    if lt.get_options().optimize:
        steps = [s for s in lt.plan(x).steps if s.node.op.name == "setitem"]
        assert len(steps) == 19 and all(s.inplace_of is not None for s in steps[1:])
    assert_eq(x, want)
    # an old version still read after the write is kept
    a = lt.asarray(n) * 2
    old = a[::-1] + 0
    a[0] = -1.0
    got_a, got_old = lt.compute(a, old)
    np.testing.assert_array_equal(got_old, (n * 2)[::-1])
    np.testing.assert_array_equal(got_a[:2], [-1.0, 2.0])
    # advanced writes (scatter) too
    s = lt.asarray(n) * 1
    w = n.copy()
    for k in range(5):
        s[[k, k + 10]] = s[[k + 1, k + 11]]
        w[[k, k + 10]] = w[[k + 1, k + 11]]
    assert_eq(s, w)


def test_a_whole_write_is_the_value_not_a_copy_written_over(engine: Any) -> None:
    """``t[...] = v`` and ``t[:] = 0`` write every element: the tensor's
    new value is ``v`` (cast, broadcast), with no copy of the old value to
    write over (which held both in memory); views see it, casts are NumPy's."""
    x = lt.asarray(np.arange(6.0).reshape(2, 3)) * 1
    row = x[0]
    x[...] = 7
    assert x.node.op.name != "setitem"
    assert_eq(x, np.full((2, 3), 7.0))
    assert_eq(row, np.full(3, 7.0))
    y = lt.asarray(np.asfortranarray(np.arange(6.0).reshape(2, 3)))
    y[:] = np.arange(6.0).reshape(2, 3) * 2                  # (its F layout kept)
    assert_eq(y.ravel("K"), np.asfortranarray(np.arange(6.0).reshape(2, 3) * 2).ravel("K"))
    z = lt.zeros((2, 3), np.int8)
    with pytest.raises(OverflowError):
        z[...] = 300
    z[...] = np.float64(2.7)
    assert_eq(z, np.full((2, 3), 2, np.int8))


@pytest.mark.parametrize("computed", [False, True])
def test_augmented_scalar_writes_raise_or_wrap_as_numpy(engine: Any, computed: bool) -> None:
    """``x[3] += np.int64(2**40)`` into int32: the sum is an int64 scalar,
    and NumPy writes a scalar through a basic index (an element or a slice)
    as a Python number (its OverflowError; NaN into integers its
    ValueError), where an array written is cast (wraps).  On a leaf and on
    a computed array, when the write runs."""
    cases: list[tuple[Any, Any]] = [
        (lambda v: v.__setitem__(3, v[3] + np.int64(2**40)), OverflowError),
        (lambda v: v.__setitem__(3, v[3] + np.uint64(2**40)), OverflowError),
        (lambda v: v.__setitem__(3, v[3] + np.float64(1e20)), OverflowError),
        (lambda v: v.__setitem__(3, v[3] * np.float64(np.nan)), ValueError),
        (lambda v: v.__setitem__(slice(2, 5), v[3] + np.int64(2**40)), OverflowError),
        (lambda v: v.__setitem__(slice(3, 4), v[3:4] + np.int64(2**40)), None)]
    for write, err in cases:
        n = np.arange(10, dtype=np.int32)
        x = lt.asarray(n.copy()) * 1 if computed else lt.asarray(n.copy())
        if err is None:
            write(n)
            write(x)
            assert_eq(x, n)
            continue
        with pytest.raises(err):
            write(n)
        with pytest.raises(err):
            write(x)
            x.eval()


def test_scalar_writes_convert_as_numpy_for_every_dtype_pair(engine: Any) -> None:
    """``x[1] = src[0]``: an element of another dtype is NumPy's scalar,
    converted as a number into integers (an error where it does not fit,
    where uint8 wraps as NumPy does) and cast into others; each twice, the
    second run from the plan cache."""
    import warnings
    dtypes = [np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64,
              np.float16, np.float32, np.float64, np.complex128]
    values = [1, -1, 300, 2**40, 2.7, -2.7, np.nan, np.inf, 1e20, 1 + 2j]

    def outcome(xp: Any, src: np.ndarray, dst: Any) -> tuple[Any, ...]:
        x = xp.asarray(np.zeros(3, dst))
        try:
            x[1] = xp.asarray(src)[0]
            return ("ok", np.asarray(x).tobytes())
        except (OverflowError, ValueError, TypeError) as e:
            return (type(e),)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for sd in dtypes:
            for v in values:
                try:
                    src = np.array([v]).astype(sd)
                except (OverflowError, ValueError, TypeError):
                    continue
                for dd in dtypes:
                    want = outcome(np, src, dd)
                    for _ in range(2):
                        assert outcome(lt, src, dd) == want, (src, np.dtype(dd))


def test_an_astype_of_a_0d_array_is_written_as_an_array(engine: Any) -> None:
    """NumPy's ``astype`` keeps an array an array and a scalar a scalar: a
    0-d array's (``np.asarray(np.int64(2**40)).astype("float32")``) written
    into int32 is cast, an element's or a reduction's converted as a number
    (OverflowError).  The 0-d array's was taken as a scalar (a write
    fuzzer's find, seed 502948); ``[0] * it`` multiplies, as NumPy's."""
    import warnings

    def outcome(xp: Any, make: Any, index: Any) -> Any:
        a = xp.asarray(np.zeros(4, np.int32))
        try:
            a[index] = make(xp)
            return np.asarray(a).tobytes()
        except OverflowError as e:
            return type(e)
    makes = [lambda xp: xp.asarray(np.int64(2**40)).astype("float32"),
             lambda xp: xp.asarray(np.array([2**40], np.int64))[0].astype("float32"),
             lambda xp: xp.asarray(np.array([2**40], np.int64)).sum().astype("float32"),
             lambda xp: xp.asarray(np.int64(2**40)).astype(np.int64)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # (the cast's invalid value)
        for make in makes:
            for index in (1, slice(1, 3), slice(0, 0)):
                for _ in range(2):
                    assert outcome(lt, make, index) == outcome(np, make, index), index
    assert_eq([0] * lt.asarray(np.int64(3)).astype(int), [0] * np.asarray(np.int64(3)).astype(int))


def test_a_write_into_a_transposed_array_repeated_finds_its_earlier_value() -> None:
    """``a[:] = 2; a[2] = a[3, -3]`` on a transposed array, run again on a
    new array: the whole write's value and the write over it are the same
    interned nodes as in the earlier run, whose evaluation cached the
    write's value and dropped its inputs; keeping the root's layout read
    the write's first input and raised IndexError (a write fuzzer's find).
    A value laid out as the root is kept as it is."""
    for _ in range(4):
        n = np.random.default_rng(2).random((9, 7)).T
        a = lt.asarray(n)
        a[:] = 2
        a[2] = a[3, -3]
        n = n.copy()
        n[:] = 2
        n[2] = n[3, -3]
        got = np.asarray(a)
        np.testing.assert_array_equal(got, n)
        assert got.flags.f_contiguous


def test_a_loop_of_whole_writes_fuses_into_one_kernel() -> None:
    """``y[...] = y * 0.5 + i`` 400 times: each write's layout (C, which
    the whole write keeps) is known from its operands' without computing,
    remembered per node, so every write takes the whole-write path and the
    loop is one fused kernel.  The walk that decided it looked at the whole
    chain again at each write and gave up past 64 nodes, each later write
    then a kernel and a copy written over (369 kernels, 368 setitems)."""
    x = np.arange(12.0).reshape(3, 4)
    y, n = lt.asarray(x.copy()), x.copy()
    for i in range(400):
        y[...] = y * 0.5 + i
        n[...] = n * 0.5 + i
    plan = lt.explain(y)
    assert "setitem" not in plan
    assert "1 fused kernel" in plan
    assert_eq(y, n)


def test_numpy_in_place_updates_of_operands_leave_pending_results(engine: Any) -> None:
    """An ndarray an operation took as an operand (``X @ w``), then updated
    in place by NumPy through lazyten (``w -= lr * g`` with ``g`` a tensor
    is ``np.subtract(w, g, out=w)``, run here): the operation keeps the
    values it was given, as NumPy's computed them at its call; an array
    wrapped with ``lt.asarray`` stays read when evaluated (the README's rule)."""
    rng = np.random.default_rng(0)
    xn, y = rng.random((50, 3)), (rng.random(50) > 0.5) * 1.0

    def train(x: Any, w: np.ndarray[Any, Any]) -> Any:
        b = 0.0
        for _ in range(10):
            p = 1 / (1 + np.exp(-(x @ w + b)))
            g = x.T @ (p - y) / len(y)
            w -= 0.5 * g
            b -= 0.5 * float(np.mean(p - y))
        return np.asarray(w), b
    (wn, bn), (wt, bt) = train(xn, np.zeros(3)), train(lt.asarray(xn), np.zeros(3))
    np.testing.assert_allclose(wt, wn, rtol=1e-13)
    assert abs(bt - bn) < 1e-13
    x = lt.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]))
    w = np.zeros(2)
    p = x @ w
    w -= 0.1 * (x.T @ p + 1)
    assert_eq(p, np.zeros(2))
    w2 = np.zeros(2)
    q = x @ lt.asarray(w2)                   # explicitly wrapped: read when evaluated
    w2 -= 0.1 * (x.T @ lt.ones(2))
    assert_eq(q, np.array([[1.0, 2.0], [3.0, 4.0]]) @ w2)


@pytest.mark.parametrize("write", [
    lambda w, s: np.put(w, [0, 2], s), lambda w, s: np.put(a=w, ind=[1], v=s),
    lambda w, s: np.place(w, w == 0, s), lambda w, s: np.putmask(w, w == 0, s),
    lambda w, s: np.put_along_axis(w, np.array([1]), s, 0),
    lambda w, s: np.copyto(w, s), lambda w, s: np.copyto(w, 5.0, where=s > 0),
    lambda w, s: np.add.at(w, [0, 0], s), lambda w, s: lt.fill_diagonal(w.reshape(1, 3), s),
    lambda w, s: lt.put(w, [2], s)], ids=[
    "put", "put-by-name", "place", "putmask", "put_along_axis", "copyto", "copyto-where",
    "add.at", "fill_diagonal", "lt.put"])
def test_numpy_writes_of_operands_by_a_tensor_value(engine: Any, write: Any) -> None:
    """NumPy's writing functions given an ndarray target and a tensor value
    reach lazyten's twins (NEP 18: the tensor): the ndarray is NumPy's to
    write, now, and operations that took it as an operand before keep its
    values, as NumPy's computed them (they raised TypeError, or left
    pending results reading the new values)."""
    t = lt.asarray(np.array([2.0, 3.0]))
    w, n = np.zeros(3), np.zeros(3)
    p = t[0] + w
    q = t[1] * w.reshape(1, 3)[0, 1:]               # (over a view of it)
    write(w, t[0])
    write(n, np.float64(2.0))                       # (NumPy's own, no tensor)
    np.testing.assert_array_equal(w, n)
    assert_eq(p, np.full(3, 2.0))
    assert_eq(q, np.zeros(2))


def test_a_lazy_float_scalar_written_into_integers_is_converted_as_numpys() -> None:
    """``x[0] *= nan`` on integers: NumPy's element product is a float
    scalar, which NumPy converts as a number (NaN, infinity: ValueError);
    the lazy product is known when the write runs, which raises then (it
    was cast silently: the minimum int64).  A 0-d array is cast, as NumPy's."""
    for bad in (np.nan, np.inf):
        t = lt.asarray(np.arange(3))
        with pytest.raises(ValueError):
            np.arange(3)[0] *= bad                       # (NumPy: at the call)
        t[0] *= bad
        with pytest.raises(ValueError, match="convert float"):
            t.eval()
    t = lt.asarray(np.arange(3))
    t[1] = lt.asarray(np.arange(3.0)).sum() + 0.5       # (finite: converted, truncated)
    t[2] *= 2.5
    assert_eq(t, np.array([0, 3, 5]))
    t = lt.asarray(np.arange(3))
    x = np.arange(3)
    with np.errstate(invalid="ignore"):
        t[0] = lt.asarray(np.array(np.nan))              # a 0-d array: cast
        x[0] = np.array(np.nan)
        assert_eq(t, x)


def test_an_element_is_a_scalar_that_takes_no_item_assignment() -> None:
    """``t[1][...] = 7``, ``z[()][...] = 7`` of a 0-d ``z``: NumPy's element
    is a scalar, whose item assignment is a TypeError; here it was accepted
    and lost (the element is a copy).  Views take it, as NumPy's do."""
    for t, n, index in ((lt.asarray(np.arange(4.0)), np.arange(4.0), 1),
                        (lt.asarray(np.array(5.0)), np.array(5.0), ())):
        with pytest.raises(TypeError):
            n[index][...] = 7.0
        with pytest.raises(TypeError, match="does not support item assignment"):
            t[index][...] = 7.0
        assert_eq(t, n)
        t[...][...] = 8.0                                # (a view: written through)
        n[...][...] = 8.0
        assert_eq(t, n)


# Ways to make a 0-d value, each NumPy's scalar or 0-d array: ``m`` is
# NumPy or lazyten, ``a`` its arange(3.0).
ZERO_D = [
    "a.sum()", "a[1]", "a @ a", "a.sum() + 1", "m.zeros(()) + 1", "a.sum().astype(np.float32)",
    "a[1].astype(np.float32)", "a.max().copy()", "m.asarray(a.sum())", "m.array(a.sum())",
    "m.asanyarray(a[1])", "m.asarray(a.sum()).astype(np.float32)", "m.asarray(a.sum(), np.float32)",
    "m.zeros(())", "m.zeros(()).astype(np.float32)", "m.asarray(np.float64(2.0))",
    "m.asarray(np.array(2.0))", "a[1, ...]", "a.sum(keepdims=True).reshape(())"]


def _zero_d(m: Any, expr: str, written: bool, base: Any = 0.0) -> Any:
    a = m.arange(3.0) + base
    x = eval(expr)                 # noqa: S307 - our own expressions
    # a 0-d array written stays an array (NumPy's scalars take no item
    # assignment: not written)
    if written and isinstance(_zero_d(np, expr, False, base)[1], np.ndarray):
        x[...] = 5.0
    return a, x


@pytest.mark.parametrize("expr", ZERO_D)
@pytest.mark.parametrize("written", [False, True])
def test_scalars_are_values_and_0d_arrays_are_written(expr: str, written: bool) -> None:
    """NumPy's 0-d results are scalars (``t.sum()``, an element, ``astype``
    of one) or arrays (``np.asarray`` of a scalar, a creation, a view, one
    written): an in-place operator makes a new scalar, leaving its other
    names, and writes an array, which they see; item assignment is an
    element's TypeError.  ``y = t.sum(); x = y; x += 1`` changed ``y`` too."""
    for op in ("+=", "*=", "**="):
        (na, nx), (la, lx) = _zero_d(np, expr, written), _zero_d(lt, expr, written)
        ny, ly = nx, lx
        exec(f"nx {op} 2; lx {op} 2")          # noqa: S102 - our own statements
        for got, want in ((lx, nx), (ly, ny), (la, na)):
            assert_eq(got, np.asarray(want))
            assert lt.asarray(got).dtype == np.asarray(want).dtype
        assert (lx is ly) == (nx is ny), (expr, op)
    (_, nx), (_, lx) = _zero_d(np, expr, written), _zero_d(lt, expr, written)
    try:
        nx[...] = 7.0
    except TypeError:
        # (an element refuses it too; a 0-d result takes it, lazyten's own
        # functions writing theirs)
        if expr == "a[1]":
            with pytest.raises(TypeError, match="does not support item assignment"):
                lx[...] = 7.0
    else:
        lx[...] = 7.0
        assert_eq(lx, nx)


@pytest.mark.parametrize("expr", ZERO_D)
def test_a_0d_value_written_into_integers_converts_as_numpys(expr: str) -> None:
    """A scalar written into integers is converted as a number (out of
    range: NumPy's OverflowError), a 0-d array cast (it wraps): so
    ``t[:] = np.asarray(big_scalar).astype(...)`` raised where NumPy wraps."""
    def run(m: Any) -> Any:
        a, x = _zero_d(m, expr, False, np.int64(200))    # (values past int8's)
        b = m.zeros(3, np.int8)
        b[0] = x
        b[1:] = m.asarray(a.sum())                       # (an array: wraps)
        return np.asarray(b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = run(np)
        except (OverflowError, ValueError) as e:
            with pytest.raises(type(e)):
                run(lt)
            return
        assert_eq(run(lt), want)


def test_operands_remembered_while_collections_run() -> None:
    """Remembering an operand allocates; a collection then may free another
    operand, whose callback takes the same registry lock in the same thread:
    that hung the interpreter (and the test suite).  In a child process, so a
    regression fails here instead of hanging."""
    script = (
        "import gc, numpy as np, lazyten as lt\n"
        "t = lt.asarray(np.ones(3))\n"
        "gc.set_threshold(1)\n"
        "for i in range(2000):\n"
        "    class C: pass\n"
        "    c = C(); c.self = c; c.r = t + np.ones(3)\n"
        "    del c\n"
        "print('done')\n")
    finishes_in_child(script)


def test_a_whole_write_of_a_laid_out_result_does_not_compute_it(engine: Any) -> None:
    """``y[...] = 0`` of a lazy F result (a sort of a transpose): the new
    value is copied in y's layout (NumPy writes y's F buffer), so the old
    value is not computed (it was, to be written over), and a reshape of
    ``y`` afterwards is NumPy's copy."""
    x = np.arange(12.0).reshape(3, 4)

    def prog(m: Any, a: Any) -> Any:
        y = np.sort(m.asarray(a).T, axis=0)
        y[...] = np.arange(12.0).reshape(4, 3)
        y.reshape(-1)[0] = 5.0
        z = m.asarray(np.asfortranarray(a))
        z[:] = 1.0
        z.reshape(-1)[1] = 7.0
        return [y, z]
    from lazyten.graph.node import toposort
    t = np.sort(lt.asarray(x).T, axis=0)
    before = t.node
    t[...] = 0.0
    assert before not in toposort([t.node])          # (nothing reads the old value)
    for g, w in zip(prog(lt, x), prog(np, x)):
        got = g.eval()
        assert_eq(got, w)
        assert got.flags.f_contiguous == w.flags.f_contiguous


def test_ninth_round_writes_and_views_are_numpys() -> None:
    """Helper 81's cases, each against NumPy on a copy."""
    def check(make: Any, program: Any) -> None:
        x_np, x_lt = make(), lt.asarray(make())
        got, want = program(lt, x_lt), program(np, x_np)
        for g, w in zip(got, want):
            if isinstance(w, (bool, np.bool_)):
                assert g == w
            else:
                np.testing.assert_array_equal(np.asarray(g), w)
    # A written strided array, evaluated (or written by out=), stays
    # strided as NumPy's: its ravel is a copy (the evaluated value is a
    # dense copy, and the layout was read from it: writes leaked back).
    def ravel_after_eval(m: Any, x: Any) -> Any:
        x[0] = 9.0
        np.asarray(x)
        r = x.ravel()
        r[...] = -1.0
        return x, r
    def ravel_after_out(m: Any, x: Any) -> Any:
        x[0, 0] = 9.0
        np.add(x, 1.0, out=x)
        r = x.reshape(-1)
        r[...] = -1.0
        return x, r
    check(lambda: np.arange(10.0)[1::2], ravel_after_eval)
    check(lambda: np.arange(24.0).reshape(4, 6)[::2, ::2], ravel_after_out)
    # A copying reshape(order="F") is F: results computed from it too.
    def reshape_f(m: Any, x: Any) -> Any:
        z = x.reshape((3, 2), order="F") * 2
        k = np.asarray(z.ravel("K")).copy()
        v = z.reshape(-1, order="F")
        v[0] = 100.0
        return k, z
    check(lambda: np.arange(6.0).reshape(2, 3), reshape_f)
    # A (1, n) reduction of F data is C-contiguous too: its ravel a view.
    def keepdims_ravel(m: Any, x: Any) -> Any:
        s = x.sum(axis=0, keepdims=True)
        r = s.ravel()
        r[0] = -7.0
        return s, r
    check(lambda: np.asfortranarray(np.arange(30.0).reshape(6, 5)), keepdims_ravel)
    # copy("A") of F data written with a reversed view, or put into: F.
    def copy_a(m: Any, x: Any) -> Any:
        x[...] = x[::-1]
        c = x.copy("A")
        d = x.copy("A")
        np.put(d, [1], [-1.0])
        rc, rd = c.ravel(), d.ravel()
        rc[1] = 55.0
        rd[2] = 66.0
        return c, d
    check(lambda: np.asfortranarray(np.arange(12.0).reshape(3, 4)), copy_a)
    # An element (NumPy's scalar) and a computed 0-d result: their views
    # are new arrays.
    def scalar_views(m: Any, x: Any) -> Any:
        e = x[0]
        e -= 1.0
        s = x.sum()
        r, q = e.ravel(), s.reshape(1)
        r[...] = 7.0
        q[...] = 8.0
        return np.asarray(e), np.asarray(s), x
    check(lambda: np.array([3.0, 4.0]), scalar_views)
    # lazyten's own writes into a 0-d result still reach it (they take views)
    def scalar_bool_writes(m: Any, x: Any) -> Any:
        s = m.asarray(x.sum()) if m is np else x.sum()
        s[s > 1] = -1.0
        return (np.asarray(s),)
    check(lambda: np.arange(3.0), scalar_bool_writes)
    # The copy of a view of a written transposed array: NumPy's layout
    # (the executor's buffer for the root was C, so the view's copy was)
    X = np.ascontiguousarray(np.arange(72).reshape(6, 3, 4)).T
    t, x = lt.asarray(X.copy(order="K")), X.copy(order="K")
    t += t[::-1]
    x += x[::-1]
    got, want = t[:, None].eval(), x[:, None]
    np.testing.assert_array_equal(got, want)
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
        (want.flags.c_contiguous, want.flags.f_contiguous)
    # A copying reshape of an unwritten user's array shares its own memory.
    y = lt.asarray(np.arange(12.0).reshape(3, 4)).reshape((-1, 2), order="F")
    a = np.arange(12.0).reshape(3, 4).reshape((-1, 2), order="F")
    for f in (lambda v: v[1:], lambda v: v.T, lambda v: v):
        assert np.shares_memory(y, f(y)) == np.shares_memory(a, f(a))
