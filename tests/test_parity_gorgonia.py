"""gorgonia's ``tensor`` package (Go): its documented examples, rewritten for lazyten.

Each test names the gorgonia example it follows (``ExampleDense_Add_unsafe``,
...).  gorgonia prints results; here NumPy computes the expected values, and
every example also runs with the optimizer off and on (``engine``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from util import assert_eq

import lazyten as lt
import lazyten.gorgonia as G


def rng_(dtype: Any, start: int, end: int) -> Tensor:
    return lt.range_(dtype, start, end)


Tensor = lt.Tensor
F64 = np.float64


# ---------------------------------------------------------------- construction

def test_new_with_shape_backing_of(engine: Any) -> None:
    t = G.new(shape=(2, 3), backing=[0.0, 1, 2, 3, 4, 5])
    assert_eq(t, np.arange(6.0).reshape(2, 3))
    assert_eq(G.new(shape=(2, 2), backing=[1, 2, 3, 4], dtype=np.float32),
              np.array([[1, 2], [3, 4]], np.float32))
    assert_eq(G.new(shape=(2, 2), dtype=np.int32), np.zeros((2, 2), np.int32))  # Of + shape
    assert_eq(lt.tensor_from((3,), [1, 2, 3]), np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="backing has 3 elements"):
        G.new(shape=(2, 2), backing=[1, 2, 3])


def test_range_ones_identity_random(engine: Any) -> None:
    assert_eq(lt.range_(np.float64, 0, 9), np.arange(0, 9, dtype=np.float64))
    assert_eq(lt.range_(np.int32, 10, 14), np.arange(10, 14, dtype=np.int32))
    assert_eq(G.ones(np.float32, 2, 3), np.ones((2, 3), np.float32))
    assert_eq(lt.I(np.float64, 3, 3, 0), np.eye(3))
    assert_eq(lt.I(np.int64, 2, 4, 1), np.eye(2, 4, 1, dtype=np.int64))
    lt.random.seed(7)
    r = G.random(np.float32, 3, 4)
    assert r.shape == (3, 4) and r.dtype == np.float32
    v = r.eval()
    assert ((v >= 0) & (v < 1)).all()
    ri = G.random(np.int32, 5)
    assert ri.dtype == np.int32 and (ri.eval() >= 0).all()
    lt.random.seed(7)
    np.testing.assert_array_equal(G.random(np.float32, 3, 4).eval(), v)  # seeded


def test_as_dense_diag(engine: Any) -> None:
    # Example (AsDenseDiag): a vector becomes a diagonal matrix
    assert_eq(G.diag(lt.asarray([1, 2, 3])), np.diag([1, 2, 3]))
    assert_eq(G.diag(lt.asarray([3.14, 6.28, 11111])), np.diag([3.14, 6.28, 11111]))
    m = np.arange(9.0).reshape(3, 3)
    assert_eq(G.diag(lt.asarray(m)), np.diag(m))


# ---------------------------------------------------------------- slicing and access

def test_dense_slice(engine: Any) -> None:
    # ExampleDense_Slice
    T = G.new(backing=rng_(F64, 0, 9).eval(), shape=(3, 3))
    ref = np.arange(9.0).reshape(3, 3)
    V = T[G.S(0, 2), G.S(0, 2)]
    assert_eq(V, ref[0:2, 0:2])
    assert_eq(V[:, 1], ref[0:2, 0:2][:, 1])           # T[:, 1] of the slice: [1 4]
    # ExampleDense_Slice_oneDimension
    T1 = G.new(backing=rng_(F64, 0, 9).eval())
    assert_eq(T1[G.S(0, 5)], np.arange(5.0))
    # slices with steps; S(2) alone is one index, which drops its axis
    assert_eq(T1[G.S(0, 9, 2)], np.arange(0.0, 9, 2))
    assert_eq(T[G.S(0, 3, 2), G.S(2)], ref[0:3:2, 2])


def test_slice_single_index_drops_dimension(engine: Any) -> None:
    # gorgonia's S(i) (an ``ss``, step 0) selects index i and drops the axis
    T = G.new(backing=np.arange(9.0), shape=(3, 3))
    ref = np.arange(9.0).reshape(3, 3)
    assert T[G.S(1)].shape == (3,)
    assert_eq(T[G.S(1)], ref[1])
    assert_eq(T[:, G.S(1)], ref[:, 1])
    assert_eq(T[G.S(1), G.S(1)], np.asarray(ref[1, 1]))          # 0-d
    assert_eq(T[G.S(2), :], ref[2])
    # S(i, i+1) is the same slice (gorgonia gives it step 0); a range that can
    # hold one element only is left with one, and AP.S drops that axis too
    assert G.S(1, 2) == G.S(1) == 1
    assert_eq(T[G.S(0, 2, 2)], ref[0])
    assert_eq(T[G.S(1, 2, 1), G.S(0, 3)], ref[1, 0:3])
    # ranges keep the axis
    assert_eq(T[G.S(1, 3)], ref[1:3])
    assert_eq(T[G.S(0, 3, 2), G.S(1, 3)], ref[0:3:2, 1:3])
    assert G.S(0, 3, 2) == slice(0, 3, 2) and G.S(1, 3) == slice(1, 3, 1)
    assert_eq(T[G.S(1, 1)], ref[1:1])                             # empty, as written


def test_slice_checks(engine: Any) -> None:
    # gorgonia's CheckSlice: no negative start (not NumPy's "from the end"),
    # start <= end, step 0 only for one index, start < the axis' size
    T = G.new(backing=np.arange(9.0), shape=(3, 3))
    with pytest.raises(IndexError, match=r"S\(-1\): .*negative start"):
        G.S(-1)
    with pytest.raises(IndexError, match=r"S\(-2, 1\): .*negative start"):
        G.S(-2, 1)
    with pytest.raises(ValueError, match=r"S\(2, 1\): start 2 > end 1"):
        G.S(2, 1)
    with pytest.raises(ValueError, match=r"S\(0, -1\): start 0 > end -1"):
        G.S(0, -1)
    with pytest.raises(ValueError, match=r"S\(0, 3, 0\): a step of 0"):
        G.S(0, 3, 0)
    with pytest.raises(ValueError, match=r"S\(0, 3, -1\): .*negative step"):
        G.S(0, 3, -1)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        T[G.S(3)]
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 3"):
        T[:, G.S(5)]
    # a range past the end: only slice_ knows the size when it checks
    with pytest.raises(IndexError, match=r"slice_: S\(3, 5\) on axis 1 of shape \(3, 3\): "
                                         r"start 3 is not below the size 3"):
        G.slice_(T, None, G.S(3, 5))
    with pytest.raises(IndexError, match=r"slice_: S\(4\) on axis 0 of shape \(3, 3\)"):
        G.slice_(T, G.S(4))
    with pytest.raises(IndexError, match=r"slice_: 3 slices for a 2-d tensor"):
        G.slice_(T, None, None, None)
    with pytest.raises(IndexError, match=r"slice_: .*negative start"):
        G.slice_(T, slice(-1, None))


def test_dense_slice_function(engine: Any) -> None:
    # T.Slice(slices...), nil for a whole axis, with AP.S's shape rules
    T = G.new(backing=np.arange(9.0), shape=(3, 3))
    ref = np.arange(9.0).reshape(3, 3)
    assert_eq(G.slice_(T, G.S(1)), ref[1])
    assert_eq(G.slice_(T, None, G.S(1)), ref[:, 1])
    assert_eq(G.slice_(T, G.S(0, 2)), ref[0:2])
    assert_eq(G.slice_(T, G.S(0, 9), G.S(1, 3)), ref[:, 1:3])     # the end is clamped
    assert_eq(G.slice_(T, G.S(0, 3, 2), None), ref[0:3:2])
    assert_eq(G.slice_(T, G.S(1), G.S(1)), np.asarray(ref[1, 1]))
    assert_eq(G.slice_(T), ref)
    # a range the size leaves with one element drops its axis
    C = G.new(backing=[1.0, 2.0, 3.0], shape=(3, 1))
    assert_eq(G.slice_(C, None, G.S(0, 5)), np.array([1.0, 2.0, 3.0]))
    assert_eq(G.slice_(T, G.S(2, 7)), ref[2])
    # a one-element view is a scalar (AP.S: ndEnd - ndStart == 1)
    assert_eq(G.slice_(C, G.S(1)), np.asarray(2.0))
    assert_eq(G.slice_(C, G.S(0, 2)), np.array([[1.0], [2.0]]))


def test_slice_views_write_through(engine: Any) -> None:
    T = G.new(backing=np.arange(9.0), shape=(3, 3))
    exp = np.arange(9.0).reshape(3, 3)
    row = T[G.S(1)]
    row[0] = 100.0
    exp[1, 0] = 100.0
    col = T[:, G.S(2)]
    col += 1
    exp[:, 2] += 1
    T[G.S(0), G.S(0)] = -5.0
    exp[0, 0] = -5.0
    s = G.slice_(T, G.S(2), G.S(0))                              # a 0-d view
    lt.set_at(s, 7.0)
    exp[2, 0] = 7.0
    v = G.slice_(T, None, G.S(1))
    v[...] = 0.5
    exp[:, 1] = 0.5
    assert_eq(T, exp)
    assert_eq(row, exp[1])
    assert_eq(s, np.asarray(7.0))
    C = G.new(backing=[1.0, 2.0, 3.0], shape=(3, 1))
    one = G.slice_(C, G.S(1))                                    # the one-element scalar
    one[...] = 20.0
    G.slice_(C, None, G.S(0, 5))[2] = 30.0                       # the dropped axis
    assert_eq(C, np.array([[1.0], [20.0], [30.0]]))


def test_dense_slice_view_mutation(engine: Any) -> None:
    # ExampleDense_Slice_viewMutation: writing into the slice changes T
    T = G.new(backing=np.arange(16), shape=(4, 4))
    V = T[1:3, 1:3]
    assert_eq(V, np.array([[5, 6], [9, 10]]))
    lt.set_at(V, 1000, 0, 0)
    exp = np.arange(16).reshape(4, 4)
    exp[1, 1] = 1000
    assert_eq(V, np.array([[1000, 6], [9, 10]]))
    assert_eq(T, exp)


def test_at_set_at(engine: Any) -> None:
    T = G.new(shape=(2, 3), backing=np.arange(6.0))
    assert lt.at(T, 1, 2) == 5.0 and isinstance(lt.at(T, 1, 2), np.float64)
    old = T * 1
    lt.set_at(T, 100.0, 0, 1)
    assert lt.at(T, 0, 1) == 100.0
    assert_eq(old, np.arange(6.0).reshape(2, 3))        # graphs built before keep the value
    with pytest.raises(IndexError, match="2 coordinates given for a 1-d"):
        lt.at(lt.ones(3), 0, 0)
    with pytest.raises(IndexError, match="out of bounds"):
        lt.at(T, 2, 0)
    with pytest.raises(IndexError, match="out of bounds"):
        lt.set_at(T, 1.0, 0, -1)


# ---------------------------------------------------------------- joining

def test_dense_hstack_vstack(engine: Any) -> None:
    # ExampleDense_Hstack
    T = G.new(backing=np.arange(4.0), shape=(2, 2))
    T1 = G.new(backing=[1000.0, 2000.0], shape=(2, 1))
    ref, ref1 = np.arange(4.0).reshape(2, 2), np.array([[1000.0], [2000.0]])
    assert_eq(lt.hstack([T, T1]), np.hstack([ref, ref1]))
    with pytest.raises(ValueError):
        lt.hstack([T, T1.reshape(2)])
    assert_eq(lt.hstack([T, T1, lt.clone(T1)]), np.hstack([ref, ref1, ref1]))
    assert_eq(lt.hstack([T, lt.zeros((2, 3))]), np.hstack([ref, np.zeros((2, 3))]))
    with pytest.raises(ValueError):
        lt.hstack([T, lt.zeros((3, 2))])
    # ExampleDense_Vstack
    T2 = G.new(backing=[1000.0, 2000.0], shape=(1, 2))
    assert_eq(lt.vstack([T, T2]), np.vstack([ref, [[1000.0, 2000.0]]]))
    assert_eq(lt.vstack([T, T2, lt.clone(T2)]),
              np.vstack([ref, [[1000.0, 2000.0]], [[1000.0, 2000.0]]]))


def test_stack_concat(engine: Any) -> None:
    # Example (Stack / Concat): two 2x2 tensors along every axis
    a, b = np.arange(4.0).reshape(2, 2), np.arange(4.0, 8.0).reshape(2, 2)
    T, T1 = lt.asarray(a), lt.asarray(b)
    for axis in (0, 1, 2):
        assert_eq(G.stack(axis, T, T1), np.stack([a, b], axis=axis))
    for axis in (0, 1):
        assert_eq(G.concat(axis, T, T1), np.concatenate([a, b], axis=axis))
        assert_eq(lt.concat([T, T1, T], axis=axis), np.concatenate([a, b, a], axis=axis))


def test_repeat(engine: Any) -> None:
    # Example (Repeat)
    T = G.new(backing=[1.0, 2.0], shape=(2,))
    assert_eq(G.repeat(T, 0, 3), np.repeat([1.0, 2.0], 3))
    M = lt.asarray([[1, 2], [3, 4]])
    assert_eq(G.repeat(M, 1, 2), np.repeat([[1, 2], [3, 4]], 2, axis=1))
    assert_eq(G.repeat(M, 0, 1, 3), np.repeat([[1, 2], [3, 4]], [1, 3], axis=0))
    assert_eq(G.repeat(M, None, 2), np.repeat([[1, 2], [3, 4]], 2))
    with pytest.raises(ValueError, match="3 counts for an axis of length 2"):
        G.repeat(M, 0, 1, 2, 3)


def test_rollaxis_transpose_ut_safet(engine: Any) -> None:
    x = np.arange(24.0).reshape(2, 3, 4)
    t = lt.asarray(x)
    assert_eq(lt.rollaxis(t, 2), np.rollaxis(x, 2))
    assert_eq(lt.rollaxis(t, 0, 3), np.rollaxis(x, 0, 3))
    # T is a view: writing through it changes the original
    m = lt.asarray(np.arange(6.0).reshape(2, 3))
    v = G.T(m)
    v[0, 1] = -1.0
    assert float(m[1, 0]) == -1.0
    # UT undoes the transpose view
    u = lt.ut(v)
    assert u.shape == (2, 3)
    assert_eq(u, m.eval())
    assert lt.ut(m) is m                                # nothing to undo
    w = m[0:2, 1:].T
    assert_eq(lt.ut(w), m.eval()[0:2, 1:])
    # SafeT is a transposed copy: writing to it does not touch the original
    s = lt.safe_t(m)
    s[0, 0] = 99.0
    assert float(m[0, 0]) == 0.0 and float(s[0, 0]) == 99.0
    assert_eq(lt.safe_t(t, 1, 2, 0), np.transpose(x, (1, 2, 0)))


def test_clone_materialize_copy_to(engine: Any) -> None:
    a = lt.asarray(np.arange(6.0).reshape(2, 3))
    c = lt.clone(a)
    a[0, 0] = 50.0
    assert float(c[0, 0]) == 0.0                        # the clone is independent
    view = a[:, 1:]
    mat = lt.materialize(view)
    assert mat.node.op.name == "input"                  # holds its value, not a view
    assert_eq(mat, np.array([[1.0, 2.0], [4.0, 5.0]]))
    dst = lt.zeros((2, 3))
    assert lt.copy_to(dst, lt.arange(6.0)) is dst       # flat copy, reshaped to dst
    assert_eq(dst, np.arange(6.0).reshape(2, 3))
    lt.copy_to(a[1], lt.asarray([7, 8, 9]))             # through a view, cast to float
    assert_eq(a, np.array([[50.0, 1, 2], [7, 8, 9]]))
    with pytest.raises(ValueError, match="copy_to"):
        lt.copy_to(dst, lt.ones(5))


# ---------------------------------------------------------------- arithmetic options

def _t1() -> Tensor:
    return G.new(backing=lt.range_(F64, 0, 9).eval(), shape=(3, 3))


def _t2() -> Tensor:
    return G.new(backing=lt.range_(F64, 10, 19).eval(), shape=(3, 3))


R1 = np.arange(9.0).reshape(3, 3)
R2 = np.arange(10.0, 19.0).reshape(3, 3)


@pytest.mark.parametrize("op,ref", [(G.add, np.add), (G.sub, np.subtract),
                                    (G.mul, np.multiply), (G.div, np.divide)])
def test_dense_arith_basic(engine: Any, op: Any, ref: Any) -> None:
    # ExampleDense_Add_basic / Sub / Mul / Div: safe by default
    T1, T2 = _t1(), _t2()
    assert_eq(op(T1, T2), ref(R1, R2))
    assert_eq(T1, R1)
    V = T1[0:2, 0:2]
    T2b = G.new(backing=lt.range_(F64, 10, 14).eval(), shape=(2, 2))
    assert_eq(op(V, T2b), ref(R1[0:2, 0:2], np.arange(10.0, 14).reshape(2, 2)))
    assert_eq(T1, R1)


@pytest.mark.parametrize("op,ref", [(G.add, np.add), (G.sub, np.subtract),
                                    (G.mul, np.multiply), (G.div, np.divide)])
def test_dense_arith_unsafe(engine: Any, op: Any, ref: Any) -> None:
    # ExampleDense_Add_unsafe: the result overwrites T1 (through the slice too)
    T1, T2 = _t1(), _t2()
    T3 = op(T1, T2, unsafe=True)
    assert T3 is T1
    assert_eq(T1, ref(R1, R2))
    T1 = _t1()
    V = T1[0:2, 0:2]
    T2b = lt.asarray(np.arange(10.0, 14).reshape(2, 2))
    op(V, T2b, unsafe=True)
    exp_v = ref(R1[0:2, 0:2], np.arange(10.0, 14).reshape(2, 2))
    assert_eq(V, exp_v)
    exp = R1.copy()
    exp[0:2, 0:2] = exp_v
    assert_eq(T1, exp)                                   # "Naturally, T1 is mutated too"


@pytest.mark.parametrize("op,ref", [(G.add, np.add), (G.sub, np.subtract),
                                    (G.mul, np.multiply), (G.div, np.divide)])
def test_dense_arith_reuse(engine: Any, op: Any, ref: Any) -> None:
    # ExampleDense_Add_reuse, ExampleDense_Add_reuse_operand
    T1, T2 = _t1(), _t2()
    Reuse = G.new(backing=lt.range_(F64, 100, 109).eval(), shape=(3, 3))
    assert op(T1, T2, reuse=Reuse) is Reuse
    assert_eq(Reuse, ref(R1, R2))
    T1 = _t1()
    assert op(T1, _t2(), reuse=T1) is T1                # an operand as the reuse tensor
    assert_eq(T1, ref(R1, R2))
    T2 = _t2()
    assert op(_t1(), T2, reuse=T2) is T2
    assert_eq(T2, ref(R1, R2))
    with pytest.raises(ValueError, match="reuse= tensor"):
        op(_t1(), _t2(), reuse=lt.zeros((2, 2)))


@pytest.mark.parametrize("op,ref", [(G.add, np.add), (G.sub, np.subtract),
                                    (G.mul, np.multiply), (G.div, np.divide)])
def test_dense_arith_incr(engine: Any, op: Any, ref: Any) -> None:
    # ExampleDense_Add_incr: Incr += T1 op T2
    Incr = lt.full((3, 3), 100.0)
    assert op(_t1(), _t2(), incr=Incr) is Incr
    assert_eq(Incr, 100 + ref(R1, R2))
    T1 = _t1()
    V = T1[0:2, 0:2]
    Incr2 = lt.full((2, 2), 100.0)
    op(V, lt.asarray(np.arange(10.0, 14).reshape(2, 2)), incr=Incr2)
    assert_eq(Incr2, 100 + ref(R1[0:2, 0:2], np.arange(10.0, 14).reshape(2, 2)))
    assert_eq(T1, R1)                                    # incr leaves the operands alone


def test_arith_scalar_variants_and_errors(engine: Any) -> None:
    T = lt.asarray(np.arange(4, dtype=np.int32))
    assert_eq(G.add_scalar(T, 5), np.arange(4, dtype=np.int32) + 5)
    assert_eq(G.sub_scalar(T, 5, left_tensor=False), 5 - np.arange(4, dtype=np.int32))
    assert_eq(G.mul(2, T), 2 * np.arange(4, dtype=np.int32))
    assert_eq(G.div_scalar(T, 2), np.arange(4, dtype=np.int32) // 2)      # Go's int /
    assert_eq(G.div_scalar(T, 2.0), np.arange(4, dtype=np.int32) / 2.0)
    assert_eq(G.div_scalar(T, 7, left_tensor=False),
              np.array([0, 7, 3, 2], np.int32))                      # 7/0 -> 0 below
    assert_eq(G.mod(T, 3), np.arange(4, dtype=np.int32) % 3)
    assert_eq(G.pow(T, 2), np.arange(4, dtype=np.int32) ** 2)
    # PowScalar and ModScalar (Go's % of negatives: the dividend's sign)
    assert_eq(G.pow_scalar(T, 3), np.arange(4, dtype=np.int32) ** 3)
    assert_eq(G.pow_scalar(T, 2, left_tensor=False), 2 ** np.arange(4, dtype=np.int32))
    assert_eq(G.mod_scalar(T - 2, 3), np.fmod(np.arange(4, dtype=np.int32) - 2, 3))
    assert_eq(G.mod_scalar(T + 1, -7, left_tensor=False),
              np.fmod(-7, np.arange(4, dtype=np.int32) + 1))
    with pytest.raises(ValueError, match="at most one"):
        G.add(T, 1, reuse=T, unsafe=True)
    with pytest.raises(TypeError, match="cannot store a float64 result"):
        G.div(T, 2.5, unsafe=True)                       # a float divisor: a float64 result
    assert G.div(T, 2, unsafe=True) is T                 # Go's int division: int32
    assert_eq(T, np.arange(4, dtype=np.int32) // 2)
    with pytest.raises(TypeError, match="first operand"):
        G.add(1, T, unsafe=True)


def test_go_division_and_mod(engine: Any) -> None:
    # Go's integer / truncates toward zero and % takes the dividend's sign
    # (-7/2 == -3, -7%2 == -1); floats: / is IEEE division, math.Mod is fmod
    a = np.array([-7, 7, -7, 7, 0, -1, 6], np.int32)
    b = np.array([2, 2, -2, -2, 3, 5, -3], np.int32)
    A, B = lt.asarray(a), lt.asarray(b)
    assert_eq(G.div(A, B), np.array([-3, 3, 3, -3, 0, 0, -2], np.int32))
    assert_eq(G.mod(A, B), np.array([-1, 1, -1, 1, 0, -1, 0], np.int32))
    assert_eq(G.div(A, 2), np.array([-3, 3, -3, 3, 0, 0, 3], np.int32))
    assert_eq(G.div(-7, B), np.array([-3, -3, 3, 3, -2, -1, 2], np.int32))
    assert_eq(G.mod(-7, B), np.array([-1, -1, -1, -1, -1, -2, -1], np.int32))
    # every sign pair, against q*b + r == a with |r| < |b| and r of a's sign
    x = np.arange(-20, 21, dtype=np.int64)[:, None]
    y = np.array([-7, -3, -2, -1, 1, 2, 3, 7], np.int64)[None, :]
    q = G.div(lt.asarray(x), lt.asarray(y)).eval()
    r = G.mod(lt.asarray(x), lt.asarray(y)).eval()
    np.testing.assert_array_equal(q, np.trunc(x / y).astype(np.int64))
    np.testing.assert_array_equal(r, np.fmod(x, y))
    np.testing.assert_array_equal(q * y + r, np.broadcast_to(x, q.shape))
    # Go: the most negative value / -1 wraps to itself
    with np.errstate(all="ignore"):
        assert_eq(G.div(lt.asarray(np.array([-128, 127], np.int8)), np.int8(-1)),
                  np.array([-128, -127], np.int8))
    # unsigned and mixed widths: NumPy's promotion, Go's truncation
    assert_eq(G.div(lt.asarray(np.array([7, 9], np.uint8)), 2), np.array([3, 4], np.uint8))
    assert_eq(G.div(A, lt.asarray(b.astype(np.int64))),
              np.array([-3, 3, 3, -3, 0, 0, -2], np.int64))
    # floats: true division, and fmod (math.Mod)
    f = np.array([-7.5, 7.5, -7.0, 0.5])
    assert_eq(G.div(lt.asarray(f), 2.0), f / 2.0)
    assert_eq(G.mod(lt.asarray(f), 2.0), np.fmod(f, 2.0))
    assert_eq(G.mod(lt.asarray(f.astype(np.float32)), -2.0),
              np.fmod(f.astype(np.float32), np.float32(-2.0)))
    assert_eq(G.div(A, 2.0), a / 2.0)                    # a float operand: float division
    # the options still apply
    acc = lt.full((7,), 100, np.int32)
    G.div(A, B, incr=acc)
    assert_eq(acc, 100 + np.array([-3, 3, 3, -3, 0, 0, -2], np.int32))
    A2 = lt.asarray(a)
    assert G.mod(A2, 4, unsafe=True) is A2
    assert_eq(A2, np.fmod(a, 4))


# ---------------------------------------------------------------- comparisons

CMPS = [(G.gt, np.greater), (G.gte, np.greater_equal), (G.lt, np.less),
        (G.lte, np.less_equal), (G.eq, np.equal), (G.ne, np.not_equal)]


@pytest.mark.parametrize("op,ref", CMPS)
def test_dense_cmp_basic_same_type(engine: Any, op: Any, ref: Any) -> None:
    # ExampleDense_Gt_basic: bool by default, the operands' type with AsSameType
    T1, T2 = _t1(), _t1()
    assert_eq(op(T1, T2), ref(R1, R1))
    assert_eq(op(T1, T2, as_same_type=True), ref(R1, R1).astype(np.float64))
    V = T1[0:2, 0:2]
    T2b = lt.asarray(np.arange(1.0, 5).reshape(2, 2))
    assert_eq(op(V, T2b), ref(R1[0:2, 0:2], np.arange(1.0, 5).reshape(2, 2)))
    assert_eq(op(V, T2b, as_same_type=True),
              ref(R1[0:2, 0:2], np.arange(1.0, 5).reshape(2, 2)).astype(np.float64))
    assert_eq(T1, R1)
    Ti = lt.asarray(np.arange(4, dtype=np.int16))
    assert_eq(op(Ti, 2, as_same_type=True), ref(np.arange(4, dtype=np.int16), 2).astype(np.int16))
    # a comparison with a Python int past the dtype's range is defined (NEP 50)
    assert_eq(op(Ti, 100_000, as_same_type=True),
              ref(np.arange(4, dtype=np.int16), 100_000).astype(np.int16))


@pytest.mark.parametrize("op,ref", CMPS)
def test_dense_cmp_unsafe_reuse(engine: Any, op: Any, ref: Any) -> None:
    # ExampleDense_Gt_unsafe: T1 is overwritten with 1/0 (through a slice too)
    T1 = _t1()
    op(T1, _t1(), unsafe=True)
    assert_eq(T1, ref(R1, R1).astype(np.float64))
    T1 = _t1()
    V = T1[0:2, 0:2]
    b = np.arange(1.0, 5).reshape(2, 2)
    op(V, lt.asarray(b), unsafe=True)
    exp = R1.copy()
    exp[0:2, 0:2] = ref(R1[0:2, 0:2], b)
    assert_eq(T1, exp)
    # ExampleDense_Gt_reuse: a bool reuse tensor, or a float one with AsSameType
    T3 = lt.asarray(np.array([True, False, True] * 3).reshape(3, 3))
    op(_t1(), _t1(), reuse=T3)
    assert_eq(T3, ref(R1, R1))
    T3f = lt.asarray(np.arange(100.0, 109).reshape(3, 3))
    op(_t1(), _t1(), reuse=T3f, as_same_type=True)
    assert_eq(T3f, ref(R1, R1).astype(np.float64))
    with pytest.raises(ValueError, match="reuse= tensor"):
        op(_t1(), _t1(), reuse=lt.zeros((3, 3)))         # float reuse without AsSameType


# ---------------------------------------------------------------- unary and misc

def test_unary_functions(engine: Any) -> None:
    x = np.array([-8.0, -1.5, 0.0, 2.0, 27.0])
    t = lt.asarray(x)
    assert_eq(lt.clamp(t, -1.0, 3.0), np.clip(x, -1.0, 3.0))
    assert_eq(lt.clamp(lt.asarray(np.arange(5, dtype=np.int8)), 1, 3),
              np.clip(np.arange(5, dtype=np.int8), 1, 3))
    assert_eq(G.sign(t), np.sign(x))
    assert_eq(G.cbrt(t), np.cbrt(x))
    assert_eq(G.cube(t), x ** 3)
    assert_eq(lt.cube(t), x ** 3)
    nz = np.array([0.5, 2.0, 4.0])
    assert_eq(lt.inv(lt.asarray(nz)), 1 / nz)
    assert_eq(lt.inv_sqrt(lt.asarray(nz)), 1 / np.sqrt(nz))
    assert_eq(lt.fma(t, 2.0, 1.0), x * 2.0 + 1.0)
    assert_eq(lt.mod(lt.asarray([5, -5, 7]), 3), np.mod([5, -5, 7], 3))
    assert_eq(G.square(t), x ** 2)
    assert_eq(G.neg(t), -x)


# ---------------------------------------------------------------- reductions

def test_sum_examples(engine: Any) -> None:
    # Example (Sum): T = [[0 1] [2 3]]
    T = G.new(backing=[0.0, 1, 2, 3], shape=(2, 2))
    ref = np.array([[0.0, 1], [2, 3]])
    assert_eq(G.sum(T), ref.sum())
    assert_eq(G.sum(T, 0), ref.sum(axis=0))
    assert_eq(G.sum(T, 1), ref.sum(axis=1))
    assert_eq(G.sum(T, 0, 1), ref.sum(axis=(0, 1)))
    assert_eq(G.max(T, 1), ref.max(axis=1))
    assert_eq(G.min(T, 0), ref.min(axis=0))


def test_argmax_argmin_examples(engine: Any) -> None:
    # Example (Argmax/Argmin): T = [[0 100] [200 3]]
    ref = np.array([[0.0, 100], [200, 3]])
    T = G.new(backing=ref.ravel(), shape=(2, 2))
    for ax in (0, 1):
        assert_eq(G.argmax(T, ax), ref.argmax(axis=ax))
        assert_eq(G.argmin(T, ax), ref.argmin(axis=ax))


def test_all_axes(engine: Any) -> None:
    # gorgonia's AllAxes (-1): Argmax/Argmin of the flattened tensor (a scalar),
    # Repeat of the flattened tensor, Concat along axis 0
    assert G.AllAxes == -1
    ref = np.array([[0.0, 100], [200, 3]])
    T = G.new(backing=ref.ravel(), shape=(2, 2))
    assert_eq(G.argmax(T, G.AllAxes), np.asarray(ref.argmax()))
    assert_eq(G.argmin(T, G.AllAxes), np.asarray(ref.argmin()))
    m = np.array([[1, 2], [3, 4]])
    M = lt.asarray(m)
    assert_eq(G.repeat(M, G.AllAxes, 2), np.repeat(m, 2))
    assert_eq(G.repeat(M, G.AllAxes, 1, 2, 0, 3), np.repeat(m.ravel(), [1, 2, 0, 3]))
    with pytest.raises(ValueError, match="3 counts for an axis of length 4"):
        G.repeat(M, G.AllAxes, 1, 2, 3)
    assert_eq(G.concat(G.AllAxes, M, M * 10), np.concatenate([m, m * 10], axis=0))
    # no other negative axis: -1 is never NumPy's last axis in this module
    for call in (lambda: G.argmax(T, -2), lambda: G.argmin(T, -2),
                 lambda: G.repeat(M, -2, 2), lambda: G.concat(-2, M, M),
                 lambda: G.stack(-1, M, M), lambda: G.sum(M, -1), lambda: G.max(M, 0, -1),
                 lambda: G.min(M, -1), lambda: G.norm(M, 2, -1), lambda: G.T(M, -1, 0)):
        with pytest.raises(np.exceptions.AxisError, match="negative axis"):
            call()
    with pytest.raises(np.exceptions.AxisError, match=r"argmax: axis 2 is out of bounds "
                                                       r"for a 2-d tensor"):
        G.argmax(T, 2)
    with pytest.raises(np.exceptions.AxisError, match=r"stack: axis 3"):
        G.stack(3, M, M)
    assert_eq(G.stack(2, M, M), np.stack([m, m], axis=2))


def test_reduce_with_user_function(engine: Any) -> None:
    x = np.arange(1, 13).reshape(3, 4)
    t = lt.asarray(x)
    assert_eq(lt.reduce(np.add, t, axis=0), np.add.reduce(x, axis=0))
    assert_eq(lt.reduce(np.multiply, t, axis=1, initial=2), np.multiply.reduce(x, 1, initial=2))
    assert_eq(lt.reduce(lambda a, b: a + b, t, axis=1), x.sum(axis=1))
    assert_eq(lt.reduce(lambda a, b: a if a > b else b, t * -1, axis=0), (-x).max(axis=0))
    assert_eq(lt.reduce(lambda a, b: a - b, t, axis=None, initial=100), 100 - x.sum())
    f = lt.reduce(lambda a, b: a * 0.5 + b, lt.asarray(x.astype(np.float32)), axis=1)
    assert f.dtype == np.float32                          # gorgonia keeps the type
    with pytest.raises(ValueError, match="initial"):
        lt.reduce(lambda a, b: a + b, lt.zeros((0, 2)), axis=0)


def test_reduce_axis_checks(engine: Any) -> None:
    # NumPy's axes (negative from the end), and NumPy's AxisError naming the axis
    x = np.arange(1, 13).reshape(3, 4)
    t = lt.asarray(x)
    assert_eq(lt.reduce(lambda a, b: a + b, t, axis=-1), x.sum(axis=-1))
    assert_eq(lt.reduce(lambda a, b: a + b, t, axis=-2), x.sum(axis=0))
    assert_eq(lt.reduce(np.add, t, axis=-1), x.sum(axis=-1))
    for fn in (lambda a, b: a + b, np.add):
        for axis in (2, -3, 7):
            with pytest.raises(np.exceptions.AxisError,
                               match=rf"reduce: axis {axis} is out of bounds for a 2-d "
                                     r"tensor of shape \(3, 4\)"):
                lt.reduce(fn, t, axis=axis)
    with pytest.raises(np.exceptions.AxisError, match=r"0-d tensor of shape \(\)"):
        lt.reduce(lambda a, b: a + b, lt.asarray(3), axis=0)


# ---------------------------------------------------------------- linear algebra

def test_linalg_examples(engine: Any) -> None:
    A = np.arange(6.0).reshape(2, 3)
    x = np.array([1.0, 2.0, 3.0])
    assert_eq(lt.mat_vec_mul(lt.asarray(A), lt.asarray(x)), A @ x)
    assert_eq(G.mat_mul(lt.asarray(A), lt.asarray(A.T)), A @ A.T)
    assert_eq(lt.dot(lt.asarray(x), lt.asarray(x)), np.dot(x, x))
    assert_eq(G.inner(lt.asarray(x), lt.asarray(x)), np.inner(x, x))
    assert_eq(G.outer(lt.asarray(x), lt.asarray(x[:2])), np.outer(x, x[:2]))
    B = np.arange(24.0).reshape(3, 4, 2)
    assert_eq(lt.contract(lt.asarray(A), lt.asarray(B), [1], [0]),
              np.tensordot(A, B, axes=([1], [0])))
    assert_eq(lt.tensor_mul(lt.asarray(B), lt.asarray(B), [0, 2], [0, 2]),
              np.tensordot(B, B, axes=([0, 2], [0, 2])))
    M = np.arange(9.0).reshape(3, 3)
    assert_eq(G.trace(lt.asarray(M)), np.trace(M))
    with pytest.raises(ValueError, match="mat_vec_mul"):
        lt.mat_vec_mul(lt.asarray(A), lt.asarray(A))
    with pytest.raises(ValueError, match="not aligned"):
        lt.mat_vec_mul(lt.asarray(A), lt.ones(2))
    # incr= on a matrix-vector product (gorgonia's MatVecMul(a, b, WithIncr(c)))
    acc = lt.ones(2)
    lt.mat_vec_mul(lt.asarray(A), lt.asarray(x), incr=acc)
    assert_eq(acc, 1 + A @ x)


def test_svd_and_norms(engine: Any) -> None:
    A = np.array([[3.0, 1.0, 1.0], [-1.0, 3.0, 1.0]])
    s, U, V = G.svd(lt.asarray(A))
    rU, rs, rVh = np.linalg.svd(A, full_matrices=False)
    assert_eq(s, rs)
    np.testing.assert_allclose((U.eval() * s.eval()) @ V.eval().T, A, atol=1e-12)
    assert_eq(V, rVh.T)
    S, no_u, no_v = G.svd(lt.asarray(A), uv=False)     # (gorgonia's nil u and v)
    assert_eq(S, rs)
    assert no_u is None and no_v is None
    # a matrix of three singular values: S was returned alone, and unpacking
    # it gave three scalars, silently
    D = np.array([[3.0, 0, 0], [0, 2, 0], [0, 0, 1], [0, 0, 0]])
    S3, U3, V3 = G.svd(lt.asarray(D), False, False)
    assert_eq(S3, np.array([3.0, 2.0, 1.0]))
    assert U3 is None and V3 is None
    for ord_ in (None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2):
        assert_eq(G.norm(lt.asarray(A), ord_), np.linalg.norm(A, ord_))
    assert_eq(G.norm(lt.asarray(A), 3, 1), np.linalg.norm(A, 3, axis=1))


# ---------------------------------------------------------------- iterators

def test_iterator_row_major(engine: Any) -> None:
    # Example_iteratorRowMajor: the elements of a 2x3 tensor, last axis fastest
    T = G.new(shape=(2, 3), backing=[0.0, 1, 2, 3, 4, 5])
    got = list(lt.iterate(T))
    assert [c for c, _ in got] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert [float(v) for _, v in got] == [0, 1, 2, 3, 4, 5]
    rev = list(lt.iterate(T, reverse=True))
    assert rev == got[::-1]


def test_iterator_col_major(engine: Any) -> None:
    # Example_iteratorColMajor: AsFortran backing 0..5 is the matrix [[0 2 4] [1 3 5]];
    # iterating in Fortran order visits the backing in memory order.
    T = lt.asarray(np.arange(6.0).reshape(3, 2).T)
    got = list(lt.iterate(T, order="F"))
    assert [float(v) for _, v in got] == [0, 1, 2, 3, 4, 5]
    assert [c for c, _ in got] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    assert [c for c, _ in lt.iterate(T, order="F", reverse=True)] == \
        [(1, 2), (0, 2), (1, 1), (0, 1), (1, 0), (0, 0)]
    with pytest.raises(ValueError, match="order"):
        lt.iterate(T, order="K")


def test_multi_iterator(engine: Any) -> None:
    a = np.arange(3.0).reshape(3, 1)
    b = np.array([10, 20])
    got = list(lt.multi_iterate(lt.asarray(a), lt.asarray(b) * 2))
    exp_a, exp_b = np.broadcast_arrays(a, b * 2)
    assert [c for c, _ in got] == list(np.ndindex(3, 2))
    for c, (va, vb) in got:
        assert va == exp_a[c] and vb == exp_b[c]
    got_f = [c for c, _ in lt.multi_iterate(lt.asarray(a), lt.asarray(b), order="F")]
    assert got_f == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    assert list(lt.iterate(lt.asarray(7))) == [((), 7)]
    with pytest.raises(ValueError):
        lt.multi_iterate(lt.ones(3), lt.ones(4))


def test_incr_and_reuse_take_the_results_shape_and_dtype_only(engine: Any) -> None:
    """gorgonia's incr and reuse tensors have the result's shape and dtype
    ("shape mismatch" otherwise): no broadcast into a bigger accumulator, no
    cast into another dtype; the accumulator is left as it was."""
    cases = [
        lambda acc: G.add(lt.ones(3), 1, incr=acc),
        lambda acc: G.mul(lt.ones(3), lt.ones(3), incr=acc),
        lambda acc: lt.mat_vec_mul(lt.ones((3, 2)), lt.ones(2), incr=acc),
    ]
    for case in cases:
        for bad in (lt.zeros((2, 3)), lt.zeros((4, 3)), lt.zeros(3, np.float32), lt.zeros(1)):
            with pytest.raises(ValueError, match="incr= tensor is"):
                case(bad)
            assert_eq(bad, np.zeros(bad.shape, bad.dtype))
            with pytest.raises(ValueError, match="reuse= tensor is"):
                G.add(lt.ones(3), 1, reuse=bad)
        good = lt.full(3, 10.0)
        assert case(good) is good
    acc = lt.full(3, 10.0)
    G.add(lt.ones(3), 1, incr=acc)
    assert_eq(acc, np.full(3, 12.0))


def test_slice_with_an_open_end_past_the_axis_is_an_index_error(engine: Any) -> None:
    """A start past the axis is CheckSlice's IndexError also when the end is
    left open (it was a "start > end" ValueError about the axis' size)."""
    t = lt.arange(9.0).reshape(3, 3)
    for start in (3, 5):
        with pytest.raises(IndexError, match=f"start {start} is not below the size 3"):
            G.slice_(t, slice(start, None))
    with pytest.raises(ValueError, match="start 5 > end 4"):      # an end the user wrote
        G.slice_(t, slice(5, 4))
    assert_eq(G.slice_(t, slice(1, None)), np.arange(9.0).reshape(3, 3)[1:])


def test_reduce_of_several_axes_with_a_ufunc_is_numpys(engine: Any) -> None:
    x = np.arange(24).reshape(2, 3, 4)
    t = lt.asarray(x)
    assert_eq(lt.reduce(np.add, t, axis=(0, 2)), np.add.reduce(x, axis=(0, 2)))
    assert_eq(lt.reduce(np.maximum, t, axis=(0, 1, 2)), np.maximum.reduce(x, axis=(0, 1, 2)))
    assert_eq(lt.reduce(lambda a, b: a + b, t, axis=(1,)), x.sum(axis=1))
    with pytest.raises(ValueError, match="not reorderable"):
        lt.reduce(np.subtract, t, axis=(0, 1))
    with pytest.raises(ValueError, match="one axis at a time"):
        lt.reduce(lambda a, b: a + b, t, axis=(0, 1))
