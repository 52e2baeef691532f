"""TensorFlow's documented ``tf.reshape`` and ``tf.select`` (TF1 ``tf.where``;
lazyten's ``lt.tfcompat.select``, as ``lt.select`` is NumPy's) examples,
rewritten for lazyten; NumPy is the judge."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from util import assert_eq

import lazyten as lt

# ---------------------------------------------------------------- tf.reshape

T9 = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9], np.int32)
T222 = np.array([[[1, 1], [2, 2]], [[3, 3], [4, 4]]], np.int32)
T323 = np.array([[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]],
                np.int32)


def test_reshape_doc_examples(engine: Any) -> None:
    # tensor 't' is [1, 2, 3, 4, 5, 6, 7, 8, 9]; reshape(t, [3, 3])
    assert_eq(lt.reshape(lt.asarray(T9), [3, 3]), np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                                                           np.int32))
    # 't' has shape [2, 2, 2]; reshape(t, [2, 4])
    assert_eq(lt.reshape(lt.asarray(T222), [2, 4]),
              np.array([[1, 1, 2, 2], [3, 3, 4, 4]], np.int32))
    t = lt.asarray(T323)
    # pass '[-1]' to flatten 't'
    assert_eq(lt.reshape(t, [-1]),
              np.array([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6], np.int32))
    # -1 is inferred to be 9: reshape(t, [2, -1])
    assert_eq(lt.reshape(t, [2, -1]), np.array([[1, 1, 1, 2, 2, 2, 3, 3, 3],
                                                [4, 4, 4, 5, 5, 5, 6, 6, 6]], np.int32))
    # -1 is inferred to be 2: reshape(t, [-1, 9])
    assert_eq(lt.reshape(t, [-1, 9]), np.array([[1, 1, 1, 2, 2, 2, 3, 3, 3],
                                                [4, 4, 4, 5, 5, 5, 6, 6, 6]], np.int32))
    # -1 is inferred to be 3: reshape(t, [2, -1, 3])
    assert_eq(lt.reshape(t, [2, -1, 3]),
              np.array([[[1, 1, 1], [2, 2, 2], [3, 3, 3]],
                        [[4, 4, 4], [5, 5, 5], [6, 6, 6]]], np.int32))
    # tensor 't' is [7]; shape `[]` reshapes to a scalar
    s = lt.reshape(lt.asarray(np.array([7], np.int32)), [])
    assert s.shape == ()
    assert_eq(s, np.int32(7))
    assert_eq(lt.reshape(lt.asarray(np.array([7], np.int32)), ()), np.int32(7))


def test_reshape_tf2_doc_examples(engine: Any) -> None:
    t1 = lt.asarray(np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    t2 = lt.reshape(t1, [6])
    assert_eq(t2, np.array([1, 2, 3, 4, 5, 6], np.int32))
    assert_eq(lt.reshape(t2, [3, 2]), np.array([[1, 2], [3, 4], [5, 6]], np.int32))
    # reshape keeps the order; transpose reorders
    assert_eq(lt.transpose(t1, (1, 0)), np.array([[1, 4], [2, 5], [3, 6]], np.int32))
    # tf.reshape(t, [-1]) flattens; the method spelling too
    assert_eq(t1.reshape(-1), np.arange(1, 7, dtype=np.int32))


def test_reshape_errors() -> None:
    # "Input to reshape is a tensor with 3 values, but the requested shape has 4"
    with pytest.raises(ValueError, match=r"reshape.*size 3.*\(2, 2\)"):
        lt.reshape(lt.asarray([1, 2, 3]), [2, 2])
    # at most one component of shape can be -1
    with pytest.raises(ValueError, match="reshape"):
        lt.reshape(lt.asarray(T9), [-1, -1])
    with pytest.raises(ValueError, match="reshape"):
        lt.reshape(lt.asarray(T9), [2, -1])          # 9 is not divisible by 2
    with pytest.raises(ValueError, match="reshape"):
        lt.reshape(lt.asarray(T9), [])               # only a 1-element tensor is a scalar


def test_reshape_is_a_view_that_writes_through(engine: Any) -> None:
    a = lt.asarray(T9.copy())
    r = lt.reshape(a, [3, -1])
    r[1, 1] = 50
    exp = T9.copy()
    exp[4] = 50
    assert_eq(a, exp)


# ---------------------------------------------------------------- tf.select / tf.where (TF1)

def test_select_doc_examples(engine: Any) -> None:
    t = np.array([[1, 2], [3, 4]])
    e = np.array([[5, 6], [7, 8]])
    # 'condition' tensor is [[True, False], [False, True]]  ==> [[1, 6], [7, 4]]
    cond = np.array([[True, False], [False, True]])
    assert_eq(lt.tfcompat.select(lt.asarray(cond), lt.asarray(t), lt.asarray(e)),
              np.array([[1, 6], [7, 4]]))
    # 'condition' tensor is [True, False]  ==> [[1, 2], [7, 8]]  (whole rows)
    assert_eq(lt.tfcompat.select(lt.asarray([True, False]), lt.asarray(t), lt.asarray(e)),
              np.array([[1, 2], [7, 8]]))


def test_select_tf_where_examples(engine: Any) -> None:
    # tf.where([True, False, False, True], [1,2,3,4], [100,200,300,400]) => [1, 200, 300, 4]
    assert_eq(lt.tfcompat.select(lt.asarray([True, False, False, True]),
                                 lt.asarray([1, 2, 3, 4]), lt.asarray([100, 200, 300, 400])),
              np.array([1, 200, 300, 4]))
    # a scalar condition picks all of x or all of y
    x, y = np.arange(6.0).reshape(2, 3), -np.arange(6.0).reshape(2, 3)
    assert_eq(lt.tfcompat.select(lt.asarray(True), lt.asarray(x), lt.asarray(y)), x)
    assert_eq(lt.tfcompat.select(np.bool_(False), lt.asarray(x), lt.asarray(y)), y)
    # a vector condition picks rows of higher-rank tensors too
    x3, y3 = np.arange(24).reshape(3, 2, 4), np.zeros((3, 2, 4), np.int64)
    c = np.array([False, True, True])
    assert_eq(lt.tfcompat.select(lt.asarray(c), lt.asarray(x3), lt.asarray(y3)),
              np.where(c[:, None, None], x3, y3))
    # lazy operands, NumPy's dtype promotion
    xf = lt.asarray(np.ones((2, 2), np.float32))
    assert_eq(lt.tfcompat.select(lt.asarray([True, False]), xf * 2, lt.zeros((2, 2), np.float32)),
              np.array([[2, 2], [0, 0]], np.float32))


def test_select_errors() -> None:
    x, y = lt.ones((3, 2)), lt.zeros((3, 2))
    with pytest.raises(ValueError, match="vector of length x.shape"):
        lt.tfcompat.select(lt.asarray([True, False]), x, y)             # length 2 != 3 rows
    with pytest.raises(ValueError, match="condition of shape"):
        lt.tfcompat.select(lt.asarray([[True, False]]), x, y)           # no general broadcasting
    with pytest.raises(ValueError, match="same shape"):
        lt.tfcompat.select(lt.asarray(True), x, lt.zeros(2))
    with pytest.raises(TypeError, match="boolean"):
        lt.tfcompat.select(lt.asarray([1, 0, 1]), x, y)
