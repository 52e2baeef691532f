"""NumPy's manipulation and index functions (lazyten/manipulation.py) against
NumPy: values, shapes and dtypes over contiguous, strided (a lazy slice),
negative-stride, 0-d and empty inputs, with the optimizer on and off
(``engine``); NumPy's exceptions raised when the graph is built (``check``);
in-place functions as functional writes that never reach the user's array.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from tests.util import assert_eq, check, public_type

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning",
                                        "ignore::numpy.exceptions.ComplexWarning")

DTYPES = [np.dtype(d) for d in (np.bool_, np.int8, np.uint32, np.float16, np.float64,
                                np.complex64)]
# Data movement does not look at the values: a few dtypes of different
# kinds and sizes (promotions and casts are tested with more).
MOVE = [np.dtype(d) for d in (np.bool_, np.int8, np.complex64)]
Pair = tuple[np.ndarray[Any, Any], lt.Tensor]


def data(shape: tuple[int, ...], dtype: np.dtype[Any], seed: int = 0) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    v = rng.integers(-5, 6, shape)
    if dtype.kind == "b":
        return v > 0
    if dtype.kind == "u":
        return np.abs(v).astype(dtype)
    if dtype.kind == "c":
        return (v + 1j * rng.integers(-5, 6, shape)).astype(dtype)
    return v.astype(dtype)


def layouts(shape: tuple[int, ...], dtype: Any = np.float64) -> list[Pair]:
    """The same values three ways: a contiguous user array, a lazy strided
    slice of a bigger one, a user array with negative strides (0-d: one)."""
    dt = np.dtype(dtype)
    a = data(shape, dt)
    out = [(a, lt.asarray(a))]
    if shape:
        big = np.empty(shape[:-1] + (2 * shape[-1],), dt)
        big[..., ::2] = a
        out.append((a, lt.asarray(big)[..., ::2]))
        rev = np.ascontiguousarray(a[..., ::-1])[..., ::-1]
        out.append((rev, lt.asarray(rev)))
    return out


def each(shapes: list[tuple[int, ...]], dtypes: list[np.dtype[Any]] = MOVE
         ) -> list[Pair]:
    return [p for s in shapes for d in dtypes for p in layouts(s, d)]


def check_write(np_fn: Callable[[np.ndarray[Any, Any]], Any],
                lt_fn: Callable[[lt.Tensor], Any], a: np.ndarray[Any, Any]) -> None:
    """An in-place NumPy function against its functional lazyten form: the
    tensor's new value is NumPy's, errors are NumPy's (at build time), and
    the user's array is untouched."""
    original = a.copy()
    expected = a.copy()
    t = lt.asarray(a)
    try:
        np_fn(expected)
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        with pytest.raises(public_type(e)):
            lt_fn(t)
        return
    assert lt_fn(t) is None
    assert_eq(t, expected)
    np.testing.assert_array_equal(a, original)


# ------------------------------------------------------------------ joining and cutting

def test_append(engine: Any) -> None:
    for a, t in each([(), (0,), (4,), (2, 3)]):
        check(lambda: np.append(a, 5), lambda: lt.append(t, 5))
        check(lambda: np.append(a, a), lambda: lt.append(t, t))
        check(lambda: np.append(a, [[1.5]]), lambda: lt.append(t, [[1.5]]))
        if a.ndim:
            check(lambda: np.append(a, a, axis=-1), lambda: lt.append(t, t, axis=-1))
            check(lambda: np.append(a, a[:1], axis=0), lambda: lt.append(t, t[:1], axis=0))
            check(lambda: np.append(a, [1], axis=0), lambda: lt.append(t, [1], axis=0))
    check(lambda: np.append(np.ones((2, 2)), [1, 2], axis=0),
          lambda: lt.append(lt.ones((2, 2)), [1, 2], axis=0))


def test_insert(engine: Any) -> None:
    for a, t in each([(0,), (5,), (3, 4)], MOVE[::2]):
        for obj in (2, -1, [1], [3, 1, 3], slice(1, None, 2),
                    np.array([True, False, True, False, True]), -9, [], [9], [[1]], 1.5):
            for ax in (None, 0, -1):
                check(lambda: np.insert(a, obj, 7, axis=ax),
                      lambda: lt.insert(t, obj, 7, axis=ax))
                check(lambda: np.insert(a, obj, a[:1], axis=ax),
                      lambda: lt.insert(t, obj, t[:1], axis=ax))
    a = np.arange(6).reshape(2, 3)
    t = lt.asarray(a)
    for obj, values in ((1, [[1], [2]]), ([1], [[1], [2]]), (1, [1, 2, 3, 4]),
                        ([1, 1], [7, 8]), ([1, 1], [[7], [8]]), (0, 2.7), ([0, 3], 300)):
        check(lambda: np.insert(a, obj, values, axis=1), lambda: lt.insert(t, obj, values,
                                                                          axis=1))
    check(lambda: np.insert(np.arange(3, dtype=np.int8), 1, 300),
          lambda: lt.insert(lt.arange(3, dtype=np.int8), 1, 300))
    check(lambda: np.insert(np.arange(3), [1, 2], [[[1, 2]]]),
          lambda: lt.insert(lt.arange(3), [1, 2], [[[1, 2]]]))
    check(lambda: np.insert(np.arange(3), lt.asarray([2, 0]).eval(), [5, 6]),
          lambda: lt.insert(lt.arange(3), lt.asarray([2, 0]), lt.asarray([5, 6])))
    check(lambda: np.insert(a, 1, 5, axis=2), lambda: lt.insert(t, 1, 5, axis=2))
    check(lambda: np.insert(np.array(5), 0, 1), lambda: lt.insert(lt.asarray(5), 0, 1))
    check(lambda: np.insert(np.array(5), 0, 1, axis=0),
          lambda: lt.insert(lt.asarray(5), 0, 1, axis=0))


def test_insert_empty_values_and_error_order(engine: Any) -> None:
    # No new positions: NumPy's ``new[..., idx, ...] = values`` through an
    # index array reshapes values to the result's dimensions, so an empty
    # one with extra leading axes of any length fits.
    for a, obj, values, ax in ((np.arange(4.0), [], np.zeros((3, 0)), None),
                               (np.arange(4.0), [], np.zeros((2, 3, 0)), None),
                               (np.arange(4.0), [], np.zeros((0, 2)), None),
                               (np.arange(4.0), [], np.zeros((0, 2, 1)), None),
                               (np.zeros(0), slice(1, None, 2), np.zeros((3, 0)), None),
                               (np.zeros(0), slice(1, None, 2), [1, 2], None),
                               (np.zeros((2, 3)), [], np.zeros((3, 2, 0)), 1),
                               (np.zeros((2, 3)), [], np.zeros((3, 0)), 1),
                               (np.zeros((2, 3)), [], np.zeros((5, 0, 3)), 0)):
        check(lambda: np.insert(a, obj, values, axis=ax),
              lambda: lt.insert(lt.asarray(a), obj, values, axis=ax))
    # NumPy converts the values before it slices at a float position.
    i8 = np.arange(3, dtype=np.int8)
    for obj, values in ((1.0, 300), ([1.0], 300), (1.5, "abc"), (1.0, 3)):
        check(lambda: np.insert(i8, obj, values), lambda: lt.insert(lt.asarray(i8), obj, values))


def test_delete(engine: Any) -> None:
    for a, t in each([(0,), (6,), (3, 4)], MOVE[::2]):
        for obj in (-1, 6, [2, 0, 2], [], slice(1, None, 2), slice(None, None, -2),
                    slice(4, 1), np.array([True, False] * 3), [True], 1.5, [-7]):
            for ax in (None, 0, -1):
                check(lambda: np.delete(a, obj, axis=ax), lambda: lt.delete(t, obj, axis=ax))
    check(lambda: np.delete(np.array(5), 0), lambda: lt.delete(lt.asarray(5), 0))
    check(lambda: np.delete(np.arange(4), lt.asarray([1, 3]).eval()),
          lambda: lt.delete(lt.arange(4), lt.asarray([1, 3])))
    # Many kept runs: one gather instead of slices.
    a = np.arange(100.0)
    check(lambda: np.delete(a, slice(None, None, 2)), lambda: lt.delete(lt.asarray(a),
                                                                      slice(None, None, 2)))


def test_copies_are_not_views(engine: Any) -> None:
    a = np.arange(6.0)
    t = lt.asarray(a)
    for made in (lt.delete(t, []), lt.insert(t, [], []), lt.roll(t, 0), lt.pad(t, 0),
                 lt.resize(t, 6), lt.compress([True] * 6, t), lt.block([t])):
        made[0] = 99.0
        assert_eq(t, a)
    v = lt.fliplr(t.reshape(2, 3))           # views, as NumPy's: a write reaches t
    v[0, 0] = -1.0
    assert t.eval()[2] == -1.0 and a[2] == 2.0


def test_roll(engine: Any) -> None:
    for a, t in each([(), (0,), (5,), (3, 4), (2, 0, 3)], MOVE[1:2]):
        for shift in (0, -2, 7, 1.7):
            check(lambda: np.roll(a, shift), lambda: lt.roll(t, shift))
            for ax in (0, -1, 1):
                check(lambda: np.roll(a, shift, axis=ax), lambda: lt.roll(t, shift, axis=ax))
        check(lambda: np.roll(a, (1, 2), axis=(0, -1)), lambda: lt.roll(t, (1, 2), axis=(0, -1)))
        check(lambda: np.roll(a, (1, 2), axis=(0, 0)), lambda: lt.roll(t, (1, 2), axis=(0, 0)))
        check(lambda: np.roll(a, 2, axis=(0, 1)), lambda: lt.roll(t, 2, axis=(0, 1)))
        check(lambda: np.roll(a, [[1]], axis=0), lambda: lt.roll(t, [[1]], axis=0))
        check(lambda: np.roll(a, (1, 2, 3), axis=(0, 1)),
              lambda: lt.roll(t, (1, 2, 3), axis=(0, 1)))


def test_resize(engine: Any) -> None:
    for a, t in each([(), (0,), (3,), (2, 3)]):
        for shape in (0, 5, (2, 4), (4, 0), (7, 1), -1, (2, -1)):
            check(lambda: np.resize(a, shape), lambda: lt.resize(t, shape))


def test_block(engine: Any) -> None:
    for dt in DTYPES:
        a = data((2, 2), dt)
        b = data((2, 1), np.dtype(np.int8))
        c = data((3,), np.dtype(np.float32))
        ta, tb, tc = lt.asarray(a), lt.asarray(b), lt.asarray(c)
        check(lambda: np.block([[a, b], [c]]), lambda: lt.block([[ta, tb], [tc]]))
        check(lambda: np.block([a, b]), lambda: lt.block([ta, tb]))
        check(lambda: np.block([[a], [c[:2]]]), lambda: lt.block([[ta], [tc[:2]]]))
        check(lambda: np.block([[[a]], [[a]]]), lambda: lt.block([[[ta]], [[ta]]]))
        check(lambda: np.block(a), lambda: lt.block(ta))
    for arrays in ([[1, 2], [3, 4]], [1, 2.5], 5, [[1, 2], [3]], [[1, 2], 3], [[]], [],
                   (1, 2), [(1, 2)], [[1], [np.int8(2)]]):
        check(lambda: np.block(arrays), lambda: lt.block(arrays))
    check(lambda: np.block([np.ones((2, 2)), np.zeros(2)]),
          lambda: lt.block([lt.ones((2, 2)), lt.zeros(2)]))


def test_splits(engine: Any) -> None:
    for a, t in each([(), (6,), (4, 6), (2, 4, 6), (2, 0, 2)], DTYPES[:2]):
        for sections in (2, [1, 3], [5, 2], [10], 4):
            for f in ("hsplit", "vsplit", "dsplit"):
                check(lambda: getattr(np, f)(a, sections),
                      lambda: getattr(lt, f)(t, sections))


# ------------------------------------------------------------------ padding

def test_pad_moving_modes(engine: Any) -> None:
    for a, t in each([(), (1,), (4,), (3, 5)], MOVE[2:]):
        for width in (1, ((1, 0), (2, 3)), [[7, 9]], {-1: (1, 2)}):
            for mode in ("constant", "edge", "wrap", "reflect", "symmetric"):
                check(lambda: np.pad(a, width, mode), lambda: lt.pad(t, width, mode))
            check(lambda: np.pad(a, width, constant_values=((1, 2), (3, 4))),
                  lambda: lt.pad(t, width, constant_values=((1, 2), (3, 4))))
            check(lambda: np.pad(a, width, "symmetric", reflect_type="even"),
                  lambda: lt.pad(t, width, "symmetric", reflect_type="even"))
            check(lambda: np.zeros(np.pad(a, width, "empty").shape),     # (undefined values)
                  lambda: lt.asarray(np.zeros(lt.pad(t, width, "empty").shape)))


def test_pad_computing_modes(engine: Any) -> None:
    for dt in (np.int8, np.float32, np.complex128):
        for a, t in layouts((3, 4), dt)[:2]:
            for width in ((2, 3), ((1, 0), (4, 5))):
                for mode, kw in (("reflect", {"reflect_type": "odd"}),
                                 ("symmetric", {"reflect_type": "odd"}),
                                 ("linear_ramp", {}), ("linear_ramp", {"end_values": (5, -2)}),
                                 ("maximum", {}), ("minimum", {"stat_length": 2}),
                                 ("mean", {"stat_length": ((1, 2), (3, 1))}), ("median", {})):
                    check(lambda: np.pad(a, width, mode, **kw),
                          lambda: lt.pad(t, width, mode, **kw))


def test_pad_errors_and_edges(engine: Any) -> None:
    i8 = np.arange(4, dtype=np.int8)
    t8 = lt.asarray(i8)
    for kw in ({"constant_values": 300}, {"constant_values": 1.7},
               {"constant_values": (np.int64(300), 2)}, {"constant_values": np.nan},
               {"stat_length": 3}, {"bogus": 1}):
        check(lambda: np.pad(i8, 1, **kw), lambda: lt.pad(t8, 1, **kw))
    for width in (1.5, np.uint8(1), -1, ((1, -1),), ((1, 2), (3, 4))):
        check(lambda: np.pad(i8, width), lambda: lt.pad(t8, width))
    check(lambda: np.pad(i8, 1, "bogus"), lambda: lt.pad(t8, 1, "bogus"))
    check(lambda: np.pad(i8, 1, "maximum", stat_length=0),
          lambda: lt.pad(t8, 1, "maximum", stat_length=0))
    e = np.zeros((2, 0))
    for width in (0, ((1, 1), (0, 0)), ((0, 0), (1, 0))):
        for mode in ("constant", "edge", "wrap", "mean", "linear_ramp"):
            check(lambda: np.pad(e, width, mode), lambda: lt.pad(lt.asarray(e), width, mode))

    def twos(vector: Any, widths: Any, axis: int, kwargs: Any) -> None:
        vector[:widths[0]] = 2
        vector[vector.size - widths[1]:] = kwargs.get("v", 3)
    a = np.arange(6.0).reshape(2, 3)
    check(lambda: np.pad(a, 1, twos, v=5), lambda: lt.pad(lt.asarray(a), 1, twos, v=5))
    # A 0-d array in the computing modes: NumPy returns it, after its checks.
    z = np.array(3.5)
    for mode, kw in (("linear_ramp", {}), ("maximum", {}), ("minimum", {"stat_length": 0}),
                     ("mean", {}), ("median", {}), ("mean", {"stat_length": -1}),
                     ("reflect", {"reflect_type": "odd"}), (twos, {})):
        check(lambda: np.pad(z, 2, mode, **kw), lambda: lt.pad(lt.asarray(z), 2, mode, **kw))
    # A slice of a padded expression: the optimizer pushes it through the join.
    x = np.arange(50.0)
    check(lambda: np.pad(x * 2, 5, "reflect")[3:9], lambda: lt.pad(lt.asarray(x) * 2, 5,
                                                                   "reflect")[3:9])


# ------------------------------------------------------------------ rotations and flips

def test_rot90_and_flips(engine: Any) -> None:
    for a, t in each([(), (3,), (2, 3), (2, 3, 4)]):
        for k in (-1, 0, 1, 2, 3, 4, 5):
            check(lambda: np.rot90(a, k), lambda: lt.rot90(t, k))
        for axes in ((1, 0), (0, 2), (-1, 0), (0,), (0, 0), (0, -3), (0, 5)):
            check(lambda: np.rot90(a, 1, axes), lambda: lt.rot90(t, 1, axes))
        check(lambda: np.fliplr(a), lambda: lt.fliplr(t))
        check(lambda: np.flipud(a), lambda: lt.flipud(t))


# ------------------------------------------------------------------ triangles and diagonals

def test_tri_and_triangle_indices(engine: Any) -> None:
    for n, m, k in ((3, None, 0), (3, 5, 1), (4, 2, -1), (2, 3, -5), (-1, None, 0),
                    (2, -3, 0), (0, 0, 0)):
        for dt in (float, int, bool, None, np.complex64):
            check(lambda: np.tri(n, m, k, dtype=dt), lambda: lt.tri(n, m, k, dtype=dt))
        check(lambda: np.tril_indices(n, k, m), lambda: lt.tril_indices(n, k, m))
        check(lambda: np.triu_indices(n, k, m), lambda: lt.triu_indices(n, k, m))
    for a, t in each([(3,), (2, 4), (3, 3), (2, 2, 2)], DTYPES[:1]):
        for k in (0, 1, -2):
            check(lambda: np.tril_indices_from(a, k), lambda: lt.tril_indices_from(t, k))
            check(lambda: np.triu_indices_from(a, k), lambda: lt.triu_indices_from(t, k))
        check(lambda: np.diag_indices_from(a), lambda: lt.diag_indices_from(t))


def test_diag(engine: Any) -> None:
    for a, t in each([(), (0,), (3,), (2, 4), (2, 2, 2)], MOVE[1:]):
        for k in (0, 1, -5):
            check(lambda: np.diag(a, k), lambda: lt.diag(t, k))
            check(lambda: np.diagflat(a, k), lambda: lt.diagflat(t, k))
    for n, nd in ((3, 2), (2, 3), (0, 2), (-1, 2), (3, 0), (2.0, 2)):
        check(lambda: np.diag_indices(n, nd), lambda: lt.diag_indices(n, nd))


def test_fill_diagonal(engine: Any) -> None:
    for shape in ((3, 3), (5, 3), (3, 5), (2, 2, 2), (2, 3, 2), (0, 0), (3,)):
        for val in (7, [1, 2], 1.5, [], np.array([4, 5, 6, 7]), 300):
            for wrap in (False, True):
                check_write(lambda x: np.fill_diagonal(x, val, wrap),
                            lambda t: lt.fill_diagonal(t, val, wrap),
                            data(shape, np.dtype(np.int16)))
    a = np.zeros((4, 4))
    base = lt.asarray(a)
    view = base[1:, ::2]                     # through a view, to its root
    lt.fill_diagonal(view, 1.0)
    expected = a.copy()
    np.fill_diagonal(expected[1:, ::2], 1.0)
    assert_eq(base, expected)
    lt.fill_diagonal(a, 1)                   # an ndarray: NumPy's to write, now
    np.testing.assert_array_equal(a, np.eye(4))
    with pytest.raises(TypeError, match="Tensor"):
        lt.fill_diagonal([[0, 0], [0, 0]], 1)
    # Nothing written on an empty array, but NumPy still converts the value.
    for shape in ((3, 0), (0, 0), (0, 3)):
        for val in (300, [300], "abc", "5", None, np.nan, [[1, 2], [3]], [], np.int64(300)):
            check_write(lambda x: np.fill_diagonal(x, val),
                        lambda t: lt.fill_diagonal(t, val), np.zeros(shape, np.int8))


# ------------------------------------------------------------------ products and grids

def test_kron(engine: Any) -> None:
    for (a, t), (b, u) in zip(each([(), (3,), (2, 3)], DTYPES[1:]),
                              each([(2,), (), (2, 2)], DTYPES[:-1])):
        check(lambda: np.kron(a, b), lambda: lt.kron(t, u))
        check(lambda: np.kron(b, a), lambda: lt.kron(u, t))
        check(lambda: np.kron(a, 2), lambda: lt.kron(t, 2))
        check(lambda: np.kron(2, a), lambda: lt.kron(2, t))
    check(lambda: np.kron(np.int8(2), np.arange(3, dtype=np.int8)),
          lambda: lt.kron(np.int8(2), lt.arange(3, dtype=np.int8)))
    check(lambda: np.kron(np.ones((2, 0)), np.ones((3, 2, 2))),
          lambda: lt.kron(lt.ones((2, 0)), lt.ones((3, 2, 2))))


def test_vander(engine: Any) -> None:
    for a, t in each([(0,), (4,), (), (2, 2)],
                     [np.dtype(d) for d in (np.bool_, np.int8, np.uint64, np.float32,
                                            np.complex64)]):
        for n in (None, 0, 1, 5, -1):
            for inc in (False, True):
                check(lambda: np.vander(a, n, inc), lambda: lt.vander(t, n, inc))
    x = np.array([1.1, -0.7, 3.3, 1e10])
    check(lambda: np.vander(x, 6), lambda: lt.vander(lt.asarray(x), 6), rtol=0)


def test_indices_and_ix(engine: Any) -> None:
    for dims in ((), (2,), (2, 3), (2, 0, 3), (2, -3)):
        for dt in (int, float, np.int8, bool):
            for sparse in (False, True):
                check(lambda: np.indices(dims, dt, sparse),
                      lambda: lt.indices(dims, dt, sparse))
    bools = [True, False, True]
    for args in (([1, 0], bools), (), ([],), ([[1]],), (np.array(1),), ([1.5],),
                 (np.array([], float), [2])):
        check(lambda: np.ix_(*args), lambda: lt.ix_(*args))
    check(lambda: np.ix_(np.array(bools), np.arange(3)),
          lambda: lt.ix_(lt.asarray(bools), lt.arange(3)))
    a = np.arange(12).reshape(3, 4)
    check(lambda: a[np.ix_([2, 0], [1, 3])], lambda: lt.asarray(a)[lt.ix_([2, 0], [1, 3])])


# ------------------------------------------------------------------ flat indices

def test_ravel(engine: Any) -> None:
    for a, t in each([(), (3,), (2, 3), (2, 0, 3)]):
        for order in ("C", "F", "A", "K", "X"):
            check(lambda: np.ravel(a, order), lambda: lt.ravel(t, order))
    assert_eq(lt.ravel(lt.ones(3), "K"), np.ones(3))
    # "A" and "K" of computed values: read in the layout they run in
    # (NumPy's: a Fortran-ordered or permuted operand's)
    x = np.arange(24.0).reshape(2, 3, 4)
    for a in (x, np.asfortranarray(x), x.transpose(2, 0, 1), x[:, ::-1, ::2]):
        for order in ("A", "K"):
            check(lambda: np.ravel(a * 2, order), lambda: np.ravel(lt.asarray(a) * 2, order))
            check(lambda: np.ravel((a + 1)[1:], order),
                  lambda: lt.ravel((lt.asarray(a) + 1)[1:], order))


def _value_error(fn: Callable[[], Any], text: str) -> bool:
    """Whether ``fn`` raises NumPy's ValueError about a value (``text``)."""
    try:
        fn()
    except ValueError as e:
        return text in str(e)
    except Exception:  # noqa: BLE001 - other errors: checked at build time
        return False
    return False


def test_ravel_multi_index(engine: Any) -> None:
    cases: list[tuple[Any, Any, dict[str, Any]]] = [
        (([1, 2], [0, 3]), (3, 4), {}), (([1, 3], [0, 1]), (3, 4), {}),
        (([1, 3], [0, -1]), (3, 4), {"mode": "wrap"}),
        (([1, 3], [0, -1]), (3, 4), {"mode": ("clip", "wrap")}),
        (([1, 2],), (3, 4), {}), (([1.0, 2], [0, 1]), (3, 4), {}),
        (([[1], [2]], [0, 1, 2]), (3, 4), {}), (([1, 2], [0, 1]), (3, 4), {"order": "F"}),
        (([True], [True]), (3, 4), {}), ((1, 2), (3, 4), {}), (([1],), (3,), {"mode": "x"}),
        ((np.array([1], np.int8), np.array([1], np.uint8)), (3, 4), {}),
        (([0],), (2**62, 2**62), {}),
        # NumPy's other forms of a mode: int codes (0 clip, 1 wrap, 2 raise),
        # None (raise), bytes, or one per axis of any of these.
        (([1, 5], [0, -1]), (3, 4), {"mode": 1}), (([1, 5], [0, 1]), (3, 4), {"mode": 0}),
        (([1, 5], [0, 1]), (3, 4), {"mode": None}), (([1, 2], [0, 1]), (3, 4), {"mode": 2}),
        (([1, 5], [0, -1]), (3, 4), {"mode": b"wrap"}),
        (([1, 5], [0, -1]), (3, 4), {"mode": np.int64(1)}),
        (([1, 5], [0, -1]), (3, 4), {"mode": ("clip", 1)}),
        (([1, 5], [0, -1]), (3, 4), {"mode": [b"clip", None]}),
        (([1, 2], [0, 1]), (3, 4), {"mode": True}), (([1, 2], [0, 1]), (3, 4), {"mode": 1.0}),
        (([1, 2], [0, 1]), (3, 4), {"mode": ("clip",)}),
        (([1, 2], [0, 1]), (3, 4), {"mode": np.array(["clip", "wrap"])})]
    for mi, dims, kw in cases:
        check(lambda: np.ravel_multi_index(mi, dims, **kw),
              lambda: lt.ravel_multi_index(mi, dims, **kw))
        lazy = tuple(lt.asarray(x) for x in mi)
        if _value_error(lambda: np.ravel_multi_index(mi, dims, **kw), "invalid entry"):
            with pytest.raises(ValueError, match="invalid entry"):   # when it runs
                lt.ravel_multi_index(lazy, dims, **kw).eval()
            continue
        check(lambda: np.ravel_multi_index(mi, dims, **kw),
              lambda: lt.ravel_multi_index(lazy, dims, **kw))
    idx = np.array([[1, 2], [0, 3]])
    check(lambda: np.ravel_multi_index(idx, (3, 4)),
          lambda: lt.ravel_multi_index(lt.asarray(idx), (3, 4)))


def test_unravel_index(engine: Any) -> None:
    cases: list[tuple[Any, Any, dict[str, Any]]] = [
        (7, (2, 4), {}), (8, (2, 4), {}), (-1, (2, 4), {}), ([1, 2], (2, 4), {"order": "F"}),
        (np.array([1.0]), (2, 4), {}), (np.array([True]), (2, 4), {}),
        (np.array([[1, 7], [3, 0]], np.uint64), (2, 4), {}), (0, (), {}), (1, (), {}),
        (0, 5, {}), (np.arange(24).reshape(2, 12), (2, 3, 4), {}), ([0], (3,), {"order": "x"})]
    for idx, dims, kw in cases:
        check(lambda: np.unravel_index(idx, dims, **kw),
              lambda: lt.unravel_index(idx, dims, **kw))
        if _value_error(lambda: np.unravel_index(idx, dims, **kw), "out of bounds") and dims:
            with pytest.raises(ValueError, match="out of bounds"):      # when it runs
                lt.unravel_index(lt.asarray(idx), dims, **kw)[0].eval()
            continue
        # (An empty shape has no rows to defer a check to: the index is
        # computed at once, so (1, ()) raises when built.)
        check(lambda: np.unravel_index(idx, dims, **kw),
              lambda: lt.unravel_index(lt.asarray(idx), dims, **kw))


# ------------------------------------------------------------------ selecting

def test_choose(engine: Any) -> None:
    idx = np.array([[0, 1, 2], [2, 1, 0]])
    ti = lt.asarray(idx)
    for dt in DTYPES:
        c = [data((2, 3), dt, s) for s in range(3)]
        tc = [lt.asarray(x) for x in c]
        check(lambda: np.choose(idx, c), lambda: lt.choose(ti, tc))
        check(lambda: np.choose(idx, [c[0], 5, c[2][0]]), lambda: lt.choose(ti, [tc[0], 5,
                                                                               tc[2][0]]))
        check(lambda: np.choose(idx, [c[0], 300, 1.5]), lambda: lt.choose(ti, [tc[0], 300,
                                                                              1.5]))
        check(lambda: np.choose(idx[0], np.stack(c)[:, 0]),
              lambda: lt.choose(ti[0], lt.stack(tc)[:, 0]))
        for mode in ("wrap", "clip"):
            check(lambda: np.choose(idx * 2 - 3, c, mode=mode),
                  lambda: lt.choose(ti * 2 - 3, tc, mode=mode))
    for a, choices in ((np.array([0, 1, 0]), [1, 2]), (np.array([0.0, 1]), [1, 2]),
                       (np.array([True, False]), [1, 2]), (np.array(1), [1, 2]),
                       (np.array([0, 1]), []), (np.array([0, 1]), [[1, 2, 3], 4]),
                       (np.array([0, 1]), [1, 2, 3]), (np.array([0, 1]), np.array([[1, 2],
                                                                                   [3, 4]])),
                       (np.array([0], np.uint64), [1]), (np.array([0, 1]), [1, 2])):
        check(lambda: np.choose(a, choices), lambda: lt.choose(a, choices))
    check(lambda: np.choose([0, 1], [1, 2], mode="bogus"),
          lambda: lt.choose([0, 1], [1, 2], mode="bogus"))
    with pytest.raises(ValueError, match="invalid entry"):
        lt.choose(lt.asarray([0, 3]), [1, 2]).eval()      # a value's error: when it runs


def test_choose_modes(engine: Any) -> None:
    # NumPy's clip modes: names as str or bytes, int codes (0 clip, 1 wrap,
    # 2 raise), None (raise); TypeError for a bool or a float.
    idx = np.array([-1, 0, 3])
    for mode in (0, 1, b"wrap", b"clip", np.int64(1)):
        check(lambda: np.choose(idx, [10, 20], mode=mode),
              lambda: lt.choose(lt.asarray(idx), [10, 20], mode=mode))
    for mode in (2, None, 3, -1, True, False, 1.0, "w", "WRAP", b"bogus"):
        check(lambda: np.choose([0, 1], [10, 20], mode=mode),
              lambda: lt.choose(lt.asarray([0, 1]), [10, 20], mode=mode))
    for mode in (2, None):
        with pytest.raises(ValueError, match="invalid entry"):
            lt.choose(lt.asarray(idx), [10, 20], mode=mode).eval()


def test_compress_and_extract(engine: Any) -> None:
    for a, t in each([(), (3,), (3, 4), (0, 3)], MOVE[1:2]):
        for cond in ([1, 0, 2], [1, 0, 1, 1], [True, False, True, False], [[1, 0]], [],
                     [True]):
            for ax in (None, 0, -1):
                check(lambda: np.compress(cond, a, axis=ax),
                      lambda: lt.compress(cond, t, axis=ax))
            check(lambda: np.extract(cond, a), lambda: lt.extract(cond, t))
        check(lambda: np.extract(a != 0, a), lambda: lt.extract(t != 0, t))
        if a.ndim:
            c = np.arange(a.shape[-1]) % 2 == 0
            check(lambda: np.compress(c, a, -1), lambda: lt.compress(lt.asarray(c), t, -1))


# ------------------------------------------------------------------ writes

def test_place_and_putmask(engine: Any) -> None:
    for dt in (np.int8, np.complex64):
        a = data((3, 4), np.dtype(dt))
        for mask in (a.real > 0, [True, False] * 6, [True, False], np.arange(12) % 3):
            for vals in (7, [1, 2, 3], 1.5, [], np.array([4, 5], np.int8), 300, 1j,
                         np.array(3.5), [300]):
                check_write(lambda x: np.place(x, mask, vals),
                            lambda t: lt.place(t, mask, vals), a)
                check_write(lambda x: np.putmask(x, mask, vals),
                            lambda t: lt.putmask(t, mask, vals), a)
    a = np.arange(6.0)
    t = lt.asarray(a)
    lt.putmask(t, t > 2, lt.asarray([10.0, 20.0]))             # a lazy mask stays lazy
    expected = a.copy()
    np.putmask(expected, a > 2, [10.0, 20.0])
    assert_eq(t, expected)
    for fn, np_fn in ((lt.place, np.place), (lt.putmask, np.putmask)):
        with pytest.raises(TypeError, match="Tensor"):
            fn(list(a), a > 2, 1.0)
        n, w = a.copy(), a.copy()                 # an ndarray: NumPy's to write, now
        fn(w, a > 2, lt.asarray([1.0, 2.0]))
        np_fn(n, a > 2, [1.0, 2.0])
        np.testing.assert_array_equal(w, n)


def test_put_along_axis(engine: Any) -> None:
    a = data((3, 4), np.dtype(np.float32))
    for axis in (0, 1, -1):
        idx = np.argsort(a, axis=axis)[:2] if axis == 0 else np.argsort(a, axis=axis)[:, :2]
        for values in (9, np.arange(2.0)[:, None] if axis == 0 else np.arange(2.0), 1e40):
            check_write(lambda x: np.put_along_axis(x, idx, values, axis),
                        lambda t: lt.put_along_axis(t, idx, values, axis), a)
            check_write(lambda x: np.put_along_axis(x, idx, values, axis),
                        lambda t: lt.put_along_axis(t, lt.asarray(idx), values, axis), a)
    for idx, values, axis in ((np.array([0, 5, -1]), 7, None), (np.array([0, 5]), [7, 8], None),
                              (np.array([0, 1, 2]), [7, 8], None),
                              (np.array([[0, 5]]), 7, None), (np.array([[0.0]]), 7, 0),
                              (np.array([0]), 7, 0), (np.array([[0]]), 7, 2)):
        check_write(lambda x: np.put_along_axis(x, idx, values, axis),
                    lambda t: lt.put_along_axis(t, idx, values, axis), a)
    with pytest.raises(TypeError, match="Tensor"):
        lt.put_along_axis(a.tolist(), np.zeros((1, 1), int), 1, 0)
    n, w = a.copy(), a.copy()                     # an ndarray: NumPy's to write, now
    lt.put_along_axis(w, np.zeros((1, 1), int), 1, 0)
    np.put_along_axis(n, np.zeros((1, 1), int), 1, 0)
    np.testing.assert_array_equal(w, n)


def test_put_along_axis_error_order(engine: Any) -> None:
    # NumPy's order: the axis (or the indices' dimensions for axis=None),
    # the index dtype, the dimensions, the index arrays' shapes, the values
    # (their conversion, then their shape), last the index bounds.
    a = np.arange(12, dtype=np.int8).reshape(3, 4)
    for idx, values, axis in ((np.array([[0.5]]), 1, 5), (np.array([[0.5]]), 1, None),
                              (np.array([[9]]), np.zeros((2, 2)), 1),
                              (np.array([[9, 2]]), np.zeros(5), 1),
                              (np.array([[5]]), np.zeros((0, 0)), 1),
                              (np.array([20]), np.zeros((2, 2)), None),
                              (np.array([20]), 300, None), (np.array([[20]]), [300], 1),
                              (np.zeros((0, 1), int), np.zeros(5), 1),
                              (np.zeros(0, int), np.zeros((3, 0)), None),
                              (np.array([[1]]), np.zeros((2, 1, 1)), 1),
                              (np.array([[1]]), np.ones((1, 1, 1)), 1)):
        check_write(lambda x: np.put_along_axis(x, idx, values, axis),
                    lambda t: lt.put_along_axis(t, idx, values, axis), a)


# ------------------------------------------------------------------ shape queries

def test_shape_queries() -> None:
    for x in (lt.ones((2, 3)), np.ones((2, 3)), [[1, 2, 3]], 5, lt.asarray(5.0)):
        assert lt.ndim(x) == np.ndim(np.asarray(x))
        assert lt.shape(x) == np.shape(np.asarray(x))
        assert lt.size(x) == np.size(np.asarray(x))
    t = lt.ones((2, 3, 4)) * lt.zeros(4)           # a lazy expression: nothing computed
    assert (lt.ndim(t), lt.shape(t), lt.size(t)) == (3, (2, 3, 4), 24)
    for axis in (0, -1, (0, 2)):
        assert lt.size(t, axis) == np.size(np.ones((2, 3, 4)), axis)
    for axis in (3, (0, 0)):
        check(lambda: np.size(np.ones((2, 3, 4)), axis), lambda: lt.size(t, axis))


# ------------------------------------------------------------------ partial sorts and sorts

def test_partition(engine: Any) -> None:
    rng = np.random.default_rng(7)
    for dt in (np.int8, np.float32, np.complex128, np.bool_):
        a = rng.integers(-20, 20, (5, 17)).astype(dt)
        if a.dtype.kind == "f":
            a[1, 3] = np.nan
        for x, t in ((a, lt.asarray(a)), (a[:, ::2], lt.asarray(a)[:, ::2]),
                     (a * 2, lt.asarray(a) * 2) if dt != np.bool_ else (a, lt.asarray(a))):
            for kth in (3, -1, [-2, 0, 4], np.int64(2)):
                for axis in (-1, 0, None):
                    check(lambda: np.partition(x, kth, axis=axis),
                          lambda: lt.partition(t, kth, axis=axis))
                    check(lambda: np.argpartition(x, kth, axis=axis),
                          lambda: lt.argpartition(t, kth, axis=axis))
    a = np.arange(5)
    t = lt.asarray(a)
    for kth in (5, -6, 1.0, np.array([True]), [], [[1]], lt.asarray(2)):
        kv = kth.eval() if isinstance(kth, lt.Tensor) else kth
        check(lambda: np.partition(a, kv), lambda: lt.partition(t, kth))
        check(lambda: np.argpartition(a, kv), lambda: lt.argpartition(t, kth))
    for axis in (-1, 0, 1, None):
        check(lambda: np.partition(np.array(5), 0, axis=axis),
              lambda: lt.partition(lt.asarray(5), 0, axis=axis))
        check(lambda: np.argpartition(np.array(5), 0, axis=axis),
              lambda: lt.argpartition(lt.asarray(5), 0, axis=axis))
    check(lambda: np.partition(np.zeros((0, 3)), 1), lambda: lt.partition(lt.zeros((0, 3)), 1))
    for kind in ("quick", None, 1, b"introselect"):
        check(lambda: np.partition(a, 1, kind=kind), lambda: lt.partition(t, 1, kind=kind))
        check(lambda: np.argpartition(a, 1, kind=kind),
              lambda: lt.argpartition(t, 1, kind=kind))


def test_method_forms(engine: Any) -> None:
    from lazyten.manipulation import _compress_method, _partition_in_place
    a = np.array([[5.0, 1, 4, 2], [0, 9, 3, 7]])
    for axis in (0, -1, None):
        check_write(lambda x: x.partition(1, axis=axis),
                    lambda t: _partition_in_place(t, 1, axis=axis), a)
    base = lt.asarray(a)
    _partition_in_place(base[1], [0, 2])          # through a view, to its root
    expected = a.copy()
    expected[1].partition([0, 2])
    assert_eq(base, expected)
    check(lambda: a.compress([True, False, True], axis=1),
          lambda: _compress_method(lt.asarray(a), [True, False, True], axis=1))


def test_lexsort(engine: Any) -> None:
    rng = np.random.default_rng(8)
    k1 = rng.integers(0, 3, (4, 9)).astype(np.float64)
    k1[0, 2] = np.nan
    k2 = rng.integers(0, 2, (4, 9)).astype(np.int8)
    k3 = rng.random((4, 9)) < 0.5
    t1, t2, t3 = lt.asarray(k1), lt.asarray(k2), lt.asarray(k3)
    for axis in (-1, 0, 1, 2, None):
        check(lambda: np.lexsort((k1, k2, k3), axis), lambda: lt.lexsort((t1, t2, t3), axis))
        check(lambda: np.lexsort([k2[:, ::2]], axis), lambda: lt.lexsort([t2[:, ::2]], axis))
    check(lambda: np.lexsort(np.stack([k1, k1 * 2])), lambda: lt.lexsort(lt.stack([t1, t1 * 2])))
    check(lambda: np.lexsort(np.array([3, 1, 2])), lambda: lt.lexsort(lt.asarray([3, 1, 2])))
    for keys in ([[3, 1, 2], [1, 1, 0]], [], ([1, 2], [1, 2, 3]), (np.array(3),),
                 ([1 + 1j, 1 - 1j, 1 + 0j],), (np.zeros(0),)):
        check(lambda: np.lexsort(keys), lambda: lt.lexsort(keys))
    check(lambda: np.lexsort((np.array(3),), axis=1), lambda: lt.lexsort((lt.asarray(3),),
                                                                         axis=1))


def test_sort_complex(engine: Any) -> None:
    for dt in (np.bool_, np.int8, np.uint16, np.int32, np.float16, np.float32, np.complex64):
        for a, t in layouts((3, 5), dt) + layouts((0,), dt) + layouts((), dt):
            check(lambda: np.sort_complex(a), lambda: lt.sort_complex(t))
    c = np.array([1 + 2j, np.nan + 0j, 1 - 1j, 0.5 + np.nan * 1j, -1j])
    check(lambda: np.sort_complex(c), lambda: lt.sort_complex(lt.asarray(c)))


def test_build_errors_name_the_line() -> None:
    with pytest.raises(IndexError, match=r"insert: .*test_manipulation\.py"):
        lt.insert(lt.arange(3), 7, 1)
    with pytest.raises(ValueError, match=r"partition: .*kth.*test_manipulation\.py"):
        lt.partition(lt.arange(3), 3)


def test_position_maps_along_a_none_dimension_are_refused() -> None:
    """roll's shift is taken modulo the length, pad's reflections repeat by
    it, insert/delete check positions against it: along a None dimension of
    a compiled function each call's length decides, so these raise when
    built (they gave the placeholder's stand-in size's answer); the start
    and the end, and @lt.jit, are fine."""
    x = np.arange(6.0)
    p = lt.placeholder((None,), np.float64)
    for build in (lambda v: lt.roll(v, 7), lambda v: lt.pad(v, (8, 1), "reflect"),
                  lambda v: lt.insert(v, 3, 9.0), lambda v: lt.delete(v, 7),
                  lambda v: lt.delete(v, slice(None, None, 2))):
        with pytest.raises(ValueError, match="None dimension"):
            build(p)
    np.testing.assert_array_equal(lt.function([p], lt.insert(p, 0, 9.0))(x), np.insert(x, 0, 9))
    np.testing.assert_array_equal(lt.function([p], lt.append(p, 9.0))(x), np.append(x, 9))
    g = lt.jit(lambda v: lt.roll(v, 7))
    np.testing.assert_array_equal(g(x), np.roll(x, 7))
    np.testing.assert_array_equal(lt.roll(lt.asarray(np.arange(300_000.0)), 7).eval(),
                                  np.roll(np.arange(300_000.0), 7))   # a real long axis


def test_edge_cases_found_by_review(engine: Any) -> None:
    check(lambda: np.compress([False, True], np.zeros((1, 0)), axis=0),
          lambda: lt.compress([False, True], lt.zeros((1, 0)), axis=0))
    check(lambda: np.compress([True, False, True, True], np.zeros((0, 3)), axis=1),
          lambda: lt.compress([True, False, True, True], lt.zeros((0, 3)), axis=1))
    check(lambda: np.lexsort(np.array(3)), lambda: lt.lexsort(lt.asarray(3)))
    # NumPy's take refuses an empty axis only where the result has elements
    # (lt.ma.compress of a (0, 0) array raised: found against numpy.ma)
    for shape, ax in (((0, 0), 1), ((0, 0, 2), 1), ((2, 0, 0), 1), ((2, 0), 1), ((0, 2), 0)):
        check(lambda: np.compress([True, False, True], np.zeros(shape), axis=ax),
              lambda: lt.compress([True, False, True], lt.zeros(shape), axis=ax))
    with pytest.raises(IndexError, match="index 3 is out of bounds"):   # (NumPy's first)
        lt.compress([False] * 3 + [True] * 2, lt.zeros((2, 3)), axis=1)
    check(lambda: np.hsplit(np.ones((2, 4)), 0), lambda: lt.hsplit(lt.ones((2, 4)), 0))
    t = lt.arange(6.0).reshape(2, 3)
    with pytest.raises(IndexError):           # a concrete index, checked when built
        lt.put_along_axis(t, np.array([[5]]), 1.0, axis=1)
    with pytest.raises(IndexError):
        lt.put_along_axis(t, np.array([9]), 1.0, axis=None)
    np.testing.assert_array_equal(t.eval(), np.arange(6.0).reshape(2, 3))   # t still works


def test_mask_indices(engine: Any) -> None:
    for n, k in ((3, 0), (4, 1), (4, -1), (0, 0)):
        for lt_f, np_f in ((lt.triu, np.triu), (lt.tril, np.tril)):
            got = lt.mask_indices(n, lt_f, k)
            want = np.mask_indices(n, np_f, k)
            assert len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g.eval(), w, strict=True)


LAYOUTS = {"c": lambda x: x, "f": np.asfortranarray, "strided": lambda x: x[:, ::2],
           "transposed": lambda x: x.T, "f_transposed": lambda x: np.asfortranarray(x).T,
           "reversed": lambda x: x[::-1]}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_orders_read_and_write_as_numpys(engine: Any, layout: str, order: str) -> None:
    """``reshape(order=)``: NumPy's values, and a view exactly where NumPy's
    is (a write through it reaches the base) for every layout; any
    negative dimension is the unknown one."""
    x = LAYOUTS[layout](np.arange(24.0).reshape(4, 6))
    for shape in [(-1,), (2, -1), (-2, 2), (x.size,), x.shape[::-1], (2, 2, -1), (5, -1)]:
        check(lambda: x.copy().reshape(shape, order=order),
              lambda: lt.asarray(x.copy()).reshape(shape, order=order))
        try:
            n = x.copy()
            v = n.reshape(shape, order=order)
        except ValueError:
            continue
        t = lt.asarray(x.copy())
        tv = t.reshape(shape, order=order)
        v[...] = -np.arange(v.size).reshape(v.shape)
        tv[...] = -np.arange(v.size).reshape(v.shape)
        assert_eq(t, n)
        assert_eq(tv, v)


def test_reshape_shape_arguments_as_numpys(engine: Any) -> None:
    x = np.arange(24.0)
    t = lt.asarray(x)
    for shape in [(True, 24), (-1, -3), (2.0, 12), np.array([2, -1]), [2, 12], np.int8(24),
                  (np.int8(2), -5)]:
        check(lambda: x.reshape(shape), lambda: t.reshape(shape))
        check(lambda: np.reshape(x, shape), lambda: lt.reshape(t, shape))
    assert t.reshape(lt.asarray(np.array([2, -1]))).shape == (2, 12)
    with pytest.raises(TypeError):
        t.reshape()
    with pytest.raises(ValueError):
        t.reshape(24, order="K")
    with pytest.raises(ValueError, match="copy"):
        lt.asarray(x.reshape(4, 6)).T.reshape(24, copy=False)


def test_where_of_a_condition_alone_is_nonzero(engine: Any) -> None:
    for c in (np.array([[1, 0], [0, 3]]), np.array([True, False, True]), np.zeros((0, 2))):
        check(lambda: np.where(c), lambda: lt.where(lt.asarray(c)))
        check(lambda: np.where(c > 0), lambda: lt.where(lt.asarray(c) > 0))
    with pytest.raises(ValueError, match="both or neither"):
        lt.where(lt.asarray([True]), 1)


def test_split_and_array_split_arguments_as_numpys(engine: Any) -> None:
    x = np.arange(12.0).reshape(4, 3)
    t = lt.asarray(x)
    for ios in (2, 3, -1, 0, 2.0, [1, 3], [3, 1], [-1], [0, 10], (1,), np.array([1, 2]), [],
                [1.5]):
        for axis in (0, 1, -1):
            for np_fn, lt_fn in ((np.split, lt.split), (np.array_split, lt.array_split)):
                check(lambda: np_fn(x, ios, axis=axis), lambda: lt_fn(t, ios, axis=axis))


def test_axis_argument_types_as_numpys(engine: Any) -> None:
    """One int where NumPy takes one (cumsum's axis, lexsort's, checked
    first), an int or a tuple where it takes those (squeeze)."""
    x = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(x)
    for axis in ((1,), [1], np.int8(1), None, (0, 0)):
        for name in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
            check(lambda: getattr(np, name)(x, axis=axis), lambda: getattr(lt, name)(t, axis=axis))
    for axis in ([0], (0,), 0, None):
        check(lambda: np.squeeze(x[:1], axis=axis), lambda: lt.squeeze(t[:1], axis=axis))
    for keys in ([np.ones(3), np.ones(4)], [np.ones(3), np.zeros(3)]):
        for axis in (None, -1, 0):
            check(lambda: np.lexsort(keys, axis=axis), lambda: lt.lexsort(keys, axis=axis))


def test_take_modes_indices_and_bounds_as_numpys(engine: Any) -> None:
    """``take``: mode raise (known indices checked when built), wrap and
    clip; Python numbers and sequences converted as NumPy does (floats
    truncated), float arrays its TypeError; a 0-d array read as 1-d."""
    x = np.arange(12.0).reshape(3, 4)
    t = lt.asarray(x)
    for idx in (7, [1, -7], [13], np.array([5]), np.array([12]), [1.7, 2], 1.0, np.float32(2),
                np.array([1.0]), [True, False], [], np.array([[0, 11], [-12, 3]])):
        for mode in ("raise", "wrap", "clip", 0, "bogus"):
            for axis in (None, 0, 1, -1):
                check(lambda: np.take(x, idx, axis=axis, mode=mode),
                      lambda: lt.take(t, idx, axis=axis, mode=mode))
    z = np.array(3.0)
    for axis in (None, 0, -1, 1):
        check(lambda: np.take(z, [0, 0], axis=axis), lambda: lt.take(lt.asarray(z), [0, 0], axis=axis))
    check(lambda: np.take(np.zeros(0), [1], mode="wrap"),
          lambda: lt.take(lt.zeros(0), [1], mode="wrap"))
    with pytest.raises(IndexError):
        lt.take(t, [99])                          # (on this line, not when evaluated)


def test_numpys_limits_when_built(engine: Any) -> None:
    """More than 64 dimensions, or a view too big to index, raise on the
    line that builds them, with NumPy's exception types."""
    one, three = np.ones(1), np.ones(3)
    for np_fn, lt_fn in (
            (lambda: one.reshape((1,) * 65), lambda: lt.asarray(one).reshape((1,) * 65)),
            (lambda: one[(None,) * 64], lambda: lt.asarray(one)[(None,) * 64]),
            (lambda: np.expand_dims(one, tuple(range(64))),
             lambda: lt.expand_dims(lt.asarray(one), tuple(range(64)))),
            (lambda: np.ones((1,) * 65), lambda: lt.ones((1,) * 65)),
            (lambda: np.broadcast_to(three, (2**40, 2**40, 3)),
             lambda: lt.broadcast_to(lt.asarray(three), (2**40, 2**40, 3)))):
        with pytest.raises(Exception) as info:
            np_fn()
        with pytest.raises(public_type(info.value)):
            lt_fn()                               # (built: nothing is evaluated)


def test_tile_and_repeat_are_new_arrays_even_where_a_view_would_do(engine: Any) -> None:
    """A count of 1 or a length-1 axis could stay a view of the input;
    NumPy's result is a new array all the same: later writes to the input
    do not reach it, and it can be written (it is no broadcast)."""
    a = np.arange(3.0)
    for make in (lambda x: np.tile(x, (2, 1)), lambda x: np.tile(x, (2, 1, 1)),
                 lambda x: np.repeat(x, 1), lambda x: np.repeat(x[:1], 4),
                 lambda x: np.tile(x[:1], 5)):
        t = lt.asarray(a) * 1
        r = make(t)
        want = make(a.copy())
        t[0] = -100.0
        assert_eq(r, want)
        r[(0,) * r.ndim] = 7.0
        want[(0,) * want.ndim] = 7.0
        assert_eq(r, want)
        assert t.eval()[0] == -100.0


def test_flip_of_a_0d_tensor_is_a_copy_as_numpys(engine: Any) -> None:
    x = lt.asarray(np.array(5))
    y = lt.flip(x)                                 # NumPy: m[()], a scalar
    y += 1
    assert x.eval() == 5 and y.eval() == 6
    check(lambda: np.flip(np.array(5), 0), lambda: lt.flip(x, 0))


def test_real_and_imag_functions_are_views_as_numpys(engine: Any) -> None:
    c = np.array([1 + 2j, 3 - 4j])
    t = lt.asarray(c) * 1
    v = lt.real(t)
    v[0] = 9.0
    lt.imag(t)[1] = 5.0
    assert_eq(t, np.array([9 + 2j, 3 + 5j]))
    r = lt.asarray(np.arange(2.0)) * 1
    lt.real(r)[0] = 4.0                          # a real array's real part is itself
    assert_eq(r, np.array([4.0, 1.0]))
    with pytest.raises(TypeError):
        lt.real(t, 1)


def test_squeeze_broadcast_shapes_and_atleast_as_numpys(engine: Any) -> None:
    z = np.array(5.0)
    for axis in (0, -1, (0,), (), 1, -2, (0, 1)):
        check(lambda: np.squeeze(z, axis=axis), lambda: lt.squeeze(lt.asarray(z), axis=axis))
    for shapes in (((-1,),), (3, (2, 1)), (), ((2, 0), 1), ((2,), (3,)), ([4, 1], (4,))):
        try:
            want = np.broadcast_shapes(*shapes)
        except ValueError:
            with pytest.raises(ValueError):
                lt.broadcast_shapes(*shapes)
        else:
            assert lt.broadcast_shapes(*shapes) == want
    for np_fn, lt_fn in ((np.atleast_1d, lt.atleast_1d), (np.atleast_2d, lt.atleast_2d),
                         (np.atleast_3d, lt.atleast_3d)):
        assert lt_fn() == np_fn() == ()
        got, want = lt_fn(1.0, np.ones((2, 3)), [1, 2]), np_fn(1.0, np.ones((2, 3)), [1, 2])
        assert isinstance(got, tuple) and len(got) == 3
        for g, w in zip(got, want):
            assert_eq(g, w)
        assert_eq(lt_fn(np.ones(3)), np_fn(np.ones(3)))


def test_joins_take_numpys_dtype_casting_out_and_sequences(engine: Any) -> None:
    a, b = np.ones((2, 3)), np.arange(6).reshape(2, 3)
    ta, tb = lt.asarray(a), lt.asarray(b) * 1
    for np_fn, lt_fn in ((np.concatenate, lt.concatenate), (np.stack, lt.stack),
                         (np.hstack, lt.hstack), (np.vstack, lt.vstack)):
        for kw in ({"dtype": np.float32}, {"dtype": np.int64}, {"casting": "no"},
                   {"dtype": np.int8, "casting": "unsafe"}, {"dtype": complex},
                   {"casting": "bogus"}, {"dtype": np.float32, "casting": "safe"}):
            check(lambda: np_fn([a, b], **kw), lambda: lt_fn([ta, tb], **kw))
        # an array is the sequence of its rows; a generator is no sequence
        check(lambda: np_fn(a), lambda: lt_fn(ta))
    check(lambda: np.stack(x for x in [a, b]), lambda: lt.stack(x for x in [ta, tb]))
    check(lambda: np.concatenate(x for x in [a, b]), lambda: lt.concatenate(x for x in [ta, tb]))
    out = np.empty((4, 3))
    assert lt.concatenate([ta, tb], out=out) is out
    assert_eq(lt.asarray(out), np.concatenate([a, b]))
    out3 = np.zeros((2, 2, 3), np.float32)
    assert lt.stack([ta, tb], 1, out3) is out3
    assert_eq(lt.asarray(out3), np.stack([a, b], 1).astype(np.float32))


# One element of a big-endian array is NumPy's scalar, in the machine's
# byte order, where lazyten's 0-d view keeps the array's (the same value; a
# dtype that compares unequal): left as it is.
_BYTE_ORDER_LEFT = {"element"}


def test_big_endian_operands(engine: Any) -> None:
    """Operands of another byte order (``>i4``, ``>f8``: data read from a
    file): NumPy's values, and its dtype, byte order included: the
    machine's where the result is computed anew (``tril``'s ``where``, one
    element ``take``s; inferring the operand's made evaluation fail), the
    operand's where NumPy fills a new array of its dtype (``roll``, ``pad``,
    ``insert``, ``delete``, ``compress``, ``gradient``, ``diagflat``), the
    machine's for ``resize`` (its concatenate's)."""
    be = np.arange(12, dtype=">i4").reshape(3, 4)
    bf = np.arange(12, dtype=">f8").reshape(3, 4) / 7
    t, tf = lt.asarray(be), lt.asarray(bf)
    cases: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
        "tril": (lambda: np.tril(be), lambda: lt.tril(t)),
        "triu": (lambda: np.triu(bf, 1), lambda: lt.triu(tf, 1)),
        "take one": (lambda: np.take(be, 1), lambda: lt.take(t, 1)),
        "take row": (lambda: np.take(be, 1, axis=0), lambda: lt.take(t, 1, axis=0)),
        "take rows": (lambda: np.take(be, [1, 2], axis=0), lambda: lt.take(t, [1, 2], axis=0)),
        "quantile": (lambda: np.quantile(bf, 0.5), lambda: lt.quantile(tf, 0.5)),
        "median": (lambda: np.median(bf, axis=0), lambda: lt.median(tf, axis=0)),
        "add": (lambda: be + 1, lambda: t + 1),
        "sum": (lambda: bf.sum(0), lambda: tf.sum(0)),
        "copy": (lambda: np.copy(be.T), lambda: lt.copy(t.T)),
        "sort": (lambda: np.sort(bf, 0), lambda: lt.sort(tf, 0)),
        "where": (lambda: np.where(be > 2, be, 0), lambda: lt.where(t > 2, t, 0)),
        "concat": (lambda: np.concatenate([be, be]), lambda: lt.concatenate([t, t])),
        "gather": (lambda: be[[0, 2]], lambda: t[[0, 2]]),
        "mask": (lambda: bf[bf > 0.5], lambda: tf[tf > 0.5]),
        "cumsum": (lambda: np.cumsum(be, 1), lambda: lt.cumsum(t, 1)),
        "matmul": (lambda: bf @ bf.T, lambda: tf @ tf.T),
        "flip": (lambda: np.flip(be), lambda: lt.flip(t)),
        "roll": (lambda: np.roll(be, 1), lambda: lt.roll(t, 1)),
        "pad": (lambda: np.pad(be, 1), lambda: lt.pad(t, 1)),
        "insert": (lambda: np.insert(be, 1, 5), lambda: lt.insert(t, 1, 5)),
        "delete": (lambda: np.delete(be, 1), lambda: lt.delete(t, 1)),
        "diagflat": (lambda: np.diagflat(be[0]), lambda: lt.diagflat(t[0])),
        "compress": (lambda: np.compress([1, 0, 1], be, 0), lambda: lt.compress([1, 0, 1], t, 0)),
        "gradient": (lambda: np.gradient(bf[0]), lambda: lt.gradient(tf[0])),
        "resize": (lambda: np.resize(be, (5,)), lambda: lt.resize(t, (5,))),
        "element": (lambda: be[1, 2], lambda: t[1, 2]),
    }
    for name, (np_fn, lt_fn) in cases.items():
        want, got = np.asarray(np_fn()), lt_fn()
        value = got.eval()
        np.testing.assert_array_equal(value, want)
        assert value.dtype == got.dtype, name
        if name in _BYTE_ORDER_LEFT:
            assert got.dtype.newbyteorder("=") == want.dtype.newbyteorder("="), name
        else:
            assert got.dtype == want.dtype, name


@pytest.mark.parametrize("dt", [np.float64, np.int64])
def test_zero_d_tensors_as_parameters(engine: Any, dt: Any) -> None:
    """A 0-d tensor where NumPy takes a number or a 0-d array (pad's
    ``end_values``, ``stat_length``, ``constant_values``, norm's ``ord``):
    its value (it raised ``unhashable type: 'Tensor'``)."""
    x = np.arange(12.0).reshape(3, 4)
    a = np.array(2, dt)
    for f in (lambda m, t, v: m.pad(t, 1, "linear_ramp", end_values=v),
              lambda m, t, v: m.pad(t, 1, "maximum", stat_length=v),
              lambda m, t, v: m.pad(t, (1, 2), constant_values=v),
              lambda m, t, v: m.linalg.norm(t, v)):
        check(lambda: f(np, x, a), lambda: f(lt, lt.asarray(x), lt.asarray(a)))
