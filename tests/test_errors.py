"""Errors are raised when the node is built, with NumPy's exception types, and
their messages name the operation, the operands' shapes/dtypes and the user's
source line (this file and the line of the call)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from numpy.exceptions import AxisError

import lazyten as lt

HERE = os.path.basename(__file__)

f64 = lt.asarray(np.zeros((2, 3)))
i32 = lt.asarray(np.zeros((4,), np.int32))
f32 = lt.asarray(np.zeros((3, 4), np.float32))
u8 = lt.asarray(np.zeros((5,), np.uint8))
m45 = lt.asarray(np.ones((4, 5)))
empty = lt.asarray(np.zeros((0, 3)))

# (id, expected exception, the building call, words the message must contain).
# Each call is a one-line lambda, so its line is the user's line to report.
CASES: list[tuple[str, type[BaseException], Callable[[], Any], list[str]]] = [
    ("broadcast-add", ValueError, lambda: f64 + i32, ["add", "(2, 3)", "(4,)", "float64", "int32"]),
    ("broadcast-func", ValueError, lambda: lt.multiply(f64, f32), ["multiply", "(2, 3)", "(3, 4)"]),
    ("broadcast-where", ValueError, lambda: lt.where(i32 > 0, f64, 0.0), ["where", "(4,)", "(2, 3)"]),
    ("broadcast-ndarray-left", ValueError, lambda: np.ones((5,)) - f64, ["subtract", "(5,)", "(2, 3)"]),
    ("broadcast-to", ValueError, lambda: lt.broadcast_to(f64, (3, 3)), ["broadcast_to", "(2, 3)", "(3, 3)"]),
    ("reshape-size", ValueError, lambda: f64.reshape(4, 2), ["reshape", "size 6", "(4, 2)", "(2, 3)"]),
    ("reshape-func", ValueError, lambda: lt.reshape(f64, (5, -1)), ["reshape", "(5, -1)", "(2, 3)"]),
    ("reshape-two-unknown", ValueError, lambda: f64.reshape(-1, -1), ["reshape", "(-1, -1)", "(2, 3)"]),
    ("reshape-scalar", ValueError, lambda: f64.reshape(()), ["reshape", "()", "(2, 3)"]),
    ("index-int", IndexError, lambda: f64[2], ["getitem", "index 2", "axis 0", "size 2", "(2, 3)"]),
    ("index-neg", IndexError, lambda: f64[:, -4], ["getitem", "-4", "axis 1", "size 3"]),
    ("index-too-many", IndexError, lambda: i32[0, 0], ["getitem", "too many indices", "(4,)"]),
    ("index-setitem", IndexError, lambda: f64.__setitem__((0, 5), 1.0), ["5", "axis 1", "size 3"]),
    ("index-float", IndexError, lambda: f64[1.5], ["getitem", "float"]),
    ("axis-sum", AxisError, lambda: f64.sum(axis=2), ["sum", "axis 2", "dimension 2", "(2, 3)"]),
    ("axis-neg-mean", AxisError, lambda: lt.mean(i32, axis=-2), ["mean", "axis -2", "dimension 1"]),
    ("axis-tuple", AxisError, lambda: lt.max(f64, axis=(0, 3)), ["max", "axis 3"]),
    ("axis-argmax", AxisError, lambda: lt.argmax(f64, axis=-3), ["argmax", "axis -3"]),
    ("axis-cumsum", AxisError, lambda: lt.cumulative_sum(f64, axis=2), ["cumulative_sum", "axis 2"]),
    ("axis-concat", AxisError, lambda: lt.concat([f64, f64], axis=2), ["concat", "axis 2"]),
    ("axis-swapaxes", AxisError, lambda: lt.swapaxes(f64, 0, 2), ["swapaxes", "axis 2", "(2, 3)"]),
    ("axis-moveaxis", AxisError, lambda: lt.moveaxis(f64, 0, 5), ["moveaxis", "axis 5", "(2, 3)"]),
    ("axis-expand", AxisError, lambda: lt.expand_dims(f64, 4), ["expand_dims", "axis 4", "(2, 3)"]),
    ("axis-squeeze", AxisError, lambda: lt.squeeze(f64, axis=2), ["squeeze", "axis 2", "(2, 3)"]),
    ("axis-flip", AxisError, lambda: lt.flip(f64, axis=-3), ["flip", "axis -3", "(2, 3)"]),
    ("axis-vecdot", AxisError, lambda: lt.vecdot(f64, f64, axis=2), ["vecdot", "axis 2"]),
    ("bitwise-float", TypeError, lambda: f64 & 1, ["bitwise_and", "float64"]),
    ("bitwise-func", TypeError, lambda: lt.bitwise_xor(f32, i32), ["bitwise_xor", "float32", "int32"]),
    ("invert-float", TypeError, lambda: ~f64, ["bitwise_invert", "float64", "(2, 3)"]),
    ("shift-float", TypeError, lambda: u8 << 1.5, ["bitwise_left_shift", "uint8", "1.5"]),
    ("bool-subtract", TypeError, lambda: (i32 > 0) - (i32 > 1), ["subtract", "bool"]),
    ("floor-complex", TypeError, lambda: lt.floor(f64 * 1j), ["floor", "complex128"]),
    ("python-int-overflow", OverflowError, lambda: u8 + 256, ["add", "256", "uint8"]),
    ("matmul", ValueError, lambda: f64 @ m45, ["matmul", "(2, 3)", "(4, 5)", "float64"]),
    ("matmul-func", ValueError, lambda: lt.matmul(i32, f64), ["matmul", "(4,)", "(2, 3)", "int32"]),
    ("matmul-batch", ValueError, lambda: lt.ones((2, 2, 3)) @ lt.ones((3, 3, 4)), ["matmul", "(2, 2, 3)", "(3, 3, 4)"]),
    ("matmul-scalar", ValueError, lambda: lt.asarray(2.0) @ f64, ["matmul", "()"]),
    ("tensordot", ValueError, lambda: lt.tensordot(f64, m45, 1), ["tensordot", "(2, 3)", "(4, 5)"]),
    ("dot", ValueError, lambda: lt.dot(f64, f64), ["dot", "(2, 3)"]),
    ("concat-shapes", ValueError, lambda: lt.concat([f64, f32]), ["concat", "(2, 3)", "(3, 4)"]),
    ("stack-shapes", ValueError, lambda: lt.stack([f64, f32]), ["stack", "(2, 3)", "(3, 4)"]),
    ("split-uneven", ValueError, lambda: lt.split(i32, 3), ["split", "(4,)", "3"]),
    ("min-empty", ValueError, lambda: lt.min(empty), ["min", "zero-size", "(0, 3)"]),
    ("argmin-empty", ValueError, lambda: empty.argmin(axis=0), ["argmin", "(0, 3)"]),
    ("mT-1d", ValueError, lambda: i32.mT, ["mT", "(4,)"]),
    ("transpose-axes", ValueError, lambda: f64.transpose(0, 0), ["transpose", "(0, 0)"]),
    ("inplace-cast", TypeError, lambda: i32.__iadd__(1.5), ["add", "int32", "float64"]),
]


@pytest.mark.parametrize("name,exc,build,words", CASES, ids=[c[0] for c in CASES])
def test_error_at_build_time(name: str, exc: type[BaseException], build: Callable[[], Any],
                             words: list[str]) -> None:
    line = build.__code__.co_firstlineno
    with pytest.raises(exc) as info:
        build()
    # (NumPy's private exception classes keep NumPy's text, lazyten's a note)
    msg = " ".join([str(info.value), *getattr(info.value, "__notes__", [])])
    for w in words:
        assert w in msg, f"{w!r} missing from: {msg}"
    assert f"{HERE}:{line}" in msg, f"user's line {HERE}:{line} missing from: {msg}"


def test_axis_error_is_numpys() -> None:
    """NumPy's AxisError, which is also a ValueError and an IndexError."""
    with pytest.raises(np.exceptions.AxisError):
        f64.sum(axis=5)
    for exc in (ValueError, IndexError):
        with pytest.raises(exc):
            f64.sum(axis=5)


def test_error_names_the_line_inside_a_helper() -> None:
    def helper(t: lt.Tensor) -> lt.Tensor:
        return t.reshape(7)   # the line reported is this one, the user's code

    line = helper.__code__.co_firstlineno + 1
    with pytest.raises(ValueError, match=rf"{HERE}:{line}"):
        helper(f64)


def test_errors_do_not_wait_for_eval(engine: Any) -> None:
    """The error comes when the bad node is built, even deep inside a lazy
    expression whose other parts are fine; nothing is evaluated."""
    a = lt.asarray(np.arange(6.0)).reshape(2, 3)
    ok = (a * 2 + 1).sum(axis=0)
    with pytest.raises(ValueError, match="add"):
        ok + lt.ones(4)
    with pytest.raises(IndexError):
        ok[3]
    assert a.node.value is None or a.node.op.kind == "source"
    assert ok.node.value is None  # nothing was computed


def test_runtime_error_names_the_node_line(engine: Any) -> None:
    """A failure only NumPy can see (integer power with a negative exponent)
    still names the node and where it was built."""
    a = lt.asarray(np.array([2, 3]))
    b = a ** lt.asarray(np.array([-1, 2]))  # built fine: the sign is data
    line = b.node.source[1]
    with pytest.raises(ValueError) as info:
        b.eval()
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert f"{HERE.replace('.py', '')}" in notes and str(line) in notes, notes


def test_a_bool_is_no_axis_of_a_reduction_or_scan(engine: Any) -> None:
    """NumPy's reductions and scans read the axis in C, where a bool is no
    integer (TypeError); its Python functions (flip, moveaxis) take True as 1."""
    x = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(x)
    for np_f, lt_f in ((lambda a, ax: a.sum(axis=ax), lambda a, ax: a.sum(axis=ax)),
                       (np.mean, lt.mean), (np.argmax, lt.argmax), (np.cumsum, lt.cumsum),
                       (np.nanmax, lt.nanmax), (np.ptp, lt.ptp), (np.any, lt.any)):
        for axis in (True, (np.True_,)):
            with pytest.raises(TypeError):
                np_f(x, axis)
            with pytest.raises(TypeError, match="integer"):
                lt_f(t, axis)
    np.testing.assert_array_equal(lt.flip(t, True).eval(), np.flip(x, True))


def test_numpys_own_exception_classes_are_kept() -> None:
    """NumPy's private exception classes (a casting error's, a missing
    loop's) are what lazyten raises too, with their attributes; lazyten's
    text (op, operands, line) is a note."""
    from numpy._core._exceptions import UFuncTypeError
    for call in (lambda m: m.add(m.asarray([1.5]), 1, dtype=np.int8),
                 lambda m: m.gcd(m.asarray([1.5]), m.asarray([2.5]))):
        with pytest.raises(UFuncTypeError) as want:
            call(np)
        with pytest.raises(UFuncTypeError) as got:
            call(lt)
        assert type(got.value) is type(want.value)
        assert any("[operands:" in n for n in got.value.__notes__)
    with pytest.raises(UFuncTypeError) as got:
        np.add(np.array([1.5]), 1, dtype=np.int8)
    assert got.value.casting == "same_kind"


def _in_place(op: str, x: Any, o: Any) -> Callable[[Any], Any]:
    def call(m: Any) -> Any:
        t = m.asarray(x.copy())
        return getattr(t, f"__i{op}__")(o)
    return call


@pytest.mark.parametrize("call", [
    _in_place("add", np.arange(3), 1.5), _in_place("truediv", np.arange(3), 2),
    _in_place("mul", np.arange(3, dtype=np.int8), np.ones(3, np.float32)),
    _in_place("pow", np.ones(3, bool), -1), _in_place("pow", np.ones(3, int), 0.5),
    _in_place("matmul", np.ones((2, 2), int), np.ones((2, 2))),
    _in_place("floordiv", np.ones((2, 2), np.uint8), np.ones(2, complex)),
    # the cast refused before the shapes (NumPy's order)
    _in_place("add", np.zeros((3, 4), np.int8), np.ones(3, np.float32)),
    _in_place("sub", np.zeros((3, 4), np.int16), np.ones((2, 1), np.float64)),
    # no cast error: the shapes', or the loop's
    _in_place("add", np.ones(2), np.ones(3)), _in_place("and", np.ones(2), 1),
    _in_place("lshift", np.ones(2, int), 1.0),
    _in_place("sub", np.ones(2, bool), np.ones(3, bool)),
], ids=lambda c: "")
def test_in_place_operators_raise_numpys_exception_classes(call: Any) -> None:
    """``t op= o`` whose result cannot be cast back raises NumPy's own
    ``_UFuncOutputCastingError`` (``except UFuncTypeError``, ``.casting``,
    ``.from_``, ``.to``), checked before the shapes as NumPy checks it;
    lazyten's text a note."""
    with pytest.raises(Exception) as want:
        call(np)
    with pytest.raises(Exception) as got:
        call(lt)
    assert type(got.value) is type(want.value), (got.value, want.value)
    for attr in ("casting", "from_", "to"):
        assert getattr(got.value, attr, None) == getattr(want.value, attr, None)
    assert "[operands:" in " ".join([str(got.value), *getattr(got.value, "__notes__", [])])


@pytest.mark.parametrize("call", [
    lambda m: m.asarray(np.ones(2, bool)) - m.asarray(np.ones(3, bool)),
    lambda m: m.asarray(np.ones(2)) & m.asarray(np.ones(3)),
    lambda m: m.asarray(np.ones(2)) << m.asarray(np.ones(3, int)),
    lambda m: m.asarray(np.ones(2, complex)) // m.asarray(np.ones(3)),
    lambda m: m.asarray(np.ones((3, 3), np.uint8)) @ 300,
    lambda m: 300 @ m.asarray(np.ones((3, 3), np.uint8)),
    lambda m: m.matmul(m.asarray(np.ones((2, 2), np.int8)), -300),
    # no type error: the shapes'
    lambda m: m.asarray(np.ones(2, np.uint8)) + m.asarray(np.ones(3)),
    lambda m: m.asarray(np.ones((3, 3))) @ 2.5,
], ids=lambda c: "")
def test_a_type_error_comes_before_a_shape_error_as_numpys(call: Any) -> None:
    """NumPy resolves a ufunc's loop (and converts a Python scalar) before
    it broadcasts: with both wrong, its TypeError or OverflowError, not the
    shapes' ValueError."""
    with pytest.raises(Exception) as want:
        call(np)
    with pytest.raises(type(want.value)):
        call(lt)
