"""Each rewrite pass on golden text of the graph printer, plus the structure
the optimizer promises (one kernel for W1, N/1000 elements for W5, two
matrix-vector products for W6, no temporary beyond the planned ones)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazyten as lt
from lazyten.exec.numpy_backend import default_threads
from lazyten.exec.optimized import optimize
from lazyten.graph.passes.canonicalize import cse
from lazyten.graph.passes.decompose import blas_dots, decompose
from lazyten.graph.passes.fuse import FUSED, fuse, kernel_count
from lazyten.graph.passes.matmul_order import matmul_order
from lazyten.graph.passes.pushdown import pushdown
from lazyten.graph.passes.simplify import simplify
from lazyten.graph.rewrite import Graph
from lazyten.graph.verify import verify_graph

from util import assert_eq, basic_index, same_bits


def text(g: Graph) -> str:
    """The printer's canonical, renumbered text with source lines cut, so
    golden strings do not depend on what other tests built before."""
    from lazyten.graph.printer import format_graph
    return re.sub(r"\s+# .*", "", format_graph(g.outputs, renumber=True))


def graph(*ts: lt.Tensor) -> Graph:
    return Graph(tuple(t.node for t in ts))


x = lt.asarray(np.linspace(-2, 2, 12), name="x")
y = lt.asarray(np.linspace(1, 3, 12), name="y")
i = lt.asarray(np.arange(12), name="i")

# Identities drop an operation on a computed operand (``e``, ``k``): one on an
# input or a view stays, a new array as NumPy's (its own memory and layout).
e = lt.exp(x)
k = i * 3
E = "%0:float64[12] = input name=x\n%1:float64[12] = exp %0\nreturn %1"
K = "%0:int64[12] = input name=i\n%1:int64[] = const 3 (weak)\n%2:int64[12] = multiply %0 %1\n" \
    "return %2"

SIMPLIFY = [
    ("x*1", lambda: e * 1, E),
    ("1*x", lambda: 1 * e, E),
    ("x/1", lambda: e / 1, E),
    ("x**1", lambda: e ** 1, E),
    ("x-0", lambda: e - 0, E),
    ("i+0", lambda: k + 0, K),
    ("input*1", lambda: x * 1, "%0:float64[12] = input name=x\n%1:int64[] = const 1 (weak)\n"
                               "%2:float64[12] = multiply %0 %1\nreturn %2"),
    ("view*1", lambda: x[::-1] * 1,
     "%0:float64[12] = input name=x\n%1:float64[12] = getitem %0 index=(('s', 11, -1, -1),)\n"
     "%2:int64[] = const 1 (weak)\n%3:float64[12] = multiply %1 %2\nreturn %3"),
    # x + 0.0 turns -0.0 into +0.0: not exact for floats, kept.
    ("x+0", lambda: x + 0, "%0:float64[12] = input name=x\n%1:int64[] = const 0 (weak)\n"
                           "%2:float64[12] = add %0 %1\nreturn %2"),
    # x * 0 is NaN for NaN and inf: kept.
    ("x*0", lambda: x * 0, "%0:float64[12] = input name=x\n%1:int64[] = const 0 (weak)\n"
                           "%2:float64[12] = multiply %0 %1\nreturn %2"),
    ("x**2", lambda: x ** 2, "%0:float64[12] = input name=x\n"
                             "%1:float64[12] = multiply %0 %0\nreturn %1"),
    # NumPy's power loop computes these so for a scalar exponent
    ("y**0.5", lambda: y ** 0.5, "%0:float64[12] = input name=y\n"
                                 "%1:float64[12] = sqrt %0\nreturn %1"),
    ("x**-1", lambda: x ** -1, "%0:int64[] = const 1 (weak)\n%1:float64[12] = input name=x\n"
                               "%2:float64[12] = divide %0 %1\nreturn %2"),
    # (an int64 ** 0.5 is a float64 power of a cast: kept)
    ("i**0.5", lambda: i ** 0.5, "%0:int64[12] = input name=i\n%1:float64[] = const 0.5 (weak)\n"
                                 "%2:float64[12] = pow %0 %1\nreturn %2"),
    ("--x", lambda: -(-e), E),
    ("astype-same", lambda: e.astype(np.float64), E),
    ("--input", lambda: -(-x), "%0:float64[12] = input name=x\n%1:float64[12] = negative %0\n"
                               "%2:float64[12] = negative %1\nreturn %2"),
    ("reshape-reshape", lambda: x.reshape(3, 4).reshape(2, 6),
     "%0:float64[12] = input name=x\n%1:float64[2,6] = reshape %0 shape=(2, 6)\nreturn %1"),
    ("reshape-back", lambda: x.reshape(3, 4).reshape(12),
     "%0:float64[12] = input name=x\nreturn %0"),
    ("transpose-twice", lambda: x.reshape(3, 4).T.T,
     "%0:float64[12] = input name=x\n%1:float64[3,4] = reshape %0 shape=(3, 4)\nreturn %1"),
    # a bool's != 0 (count_nonzero's test) is the bool itself
    ("mask!=0", lambda: (x > y) != 0, "%0:float64[12] = input name=x\n"
     "%1:float64[12] = input name=y\n%2:bool[12] = greater %0 %1\nreturn %2"),
    ("0!=mask", lambda: lt.not_equal(False, x > y), "%0:float64[12] = input name=x\n"
     "%1:float64[12] = input name=y\n%2:bool[12] = greater %0 %1\nreturn %2"),
    # ... but a number's is a comparison
    ("x!=0", lambda: x != 0, "%0:float64[12] = input name=x\n%1:int64[] = const 0 (weak)\n"
                             "%2:bool[12] = not_equal %0 %1\nreturn %2"),
    # int8 ** 2 with a weak 2 stays int8, so x*x is the same op.
    ("fold", lambda: lt.full((), 2.0) * 3 + x, None),
    # A fill the other operands' shape covers is its value, 0-d (and typed:
    # float32 + a float64 fill is float64 either way) ...
    ("x*fill", lambda: x * lt.full((12,), 2.0),
     "%0:float64[12] = input name=x\n%1:float64[] = const 2.0\n"
     "%2:float64[12] = multiply %0 %1\nreturn %2"),
    ("f32+fill", lambda: x.astype(np.float32) + lt.full((12,), 1.5),
     "%0:float64[12] = input name=x\n%1:float32[12] = astype %0 dtype=dtype('float32')\n"
     "%2:float64[] = const 1.5\n%3:float64[12] = add %1 %2\nreturn %3"),
    ("where-zeros_like", lambda: lt.where(x > y, x, lt.zeros_like(x)),
     "%0:float64[12] = input name=x\n%1:float64[12] = input name=y\n"
     "%2:bool[12] = greater %0 %1\n%3:float64[] = const 0.0\n"
     "%4:float64[12] = where %2 %0 %3\nreturn %4"),
    # ... but not where the fill makes the result's shape.
    ("fill-broadcasts", lambda: lt.full((3, 12), 2.0) + x,
     "%0:float64[3,12] = full fill_value=np.float64(2.0)\n%1:float64[12] = input name=x\n"
     "%2:float64[3,12] = add %0 %1\nreturn %2"),
    # A part written back where it was read (Python's ``t[2:5] += 1`` updates
    # the view, then writes it back): the write is dropped ...
    ("written-back", lambda: _written_back(e), E),
    ("t[2:5]+=1", lambda: _augmented(lt.exp(x)),
     "%0:float64[12] = input name=x\n%1:float64[12] = exp %0\n"
     "%2:float64[3] = getitem %1 index=(('s', 2, 5, 1),)\n%3:int64[] = const 1 (weak)\n"
     "%4:float64[3] = add %2 %3\n%5:float64[12] = view_update %1 %4 "
     "path=(('getitem', (('index', (('s', 2, 5, 1),)),)),)\nreturn %5"),
    # ... but not as an input (a new array, as NumPy's copy)
    ("input-written-back", lambda: _written_back(x),
     "%0:float64[12] = input name=x\n%1:float64[3] = getitem %0 index=(('s', 2, 5, 1),)\n"
     "%2:float64[12] = setitem %0 %1 index=(('s', 2, 5, 1),)\nreturn %2"),
]


def _written_back(t: lt.Tensor) -> lt.Tensor:
    from lazyten.graph import ops
    return lt.Tensor(ops.apply("setitem", [t.node, t[2:5].node], index=(slice(2, 5),)))


def _augmented(t: lt.Tensor) -> lt.Tensor:
    t[2:5] += 1
    return t


@pytest.mark.parametrize("name,build,golden", SIMPLIFY, ids=[s[0] for s in SIMPLIFY])
def test_simplify_golden(name: str, build: Any, golden: str | None) -> None:
    t = build()
    g = simplify(graph(t))
    verify_graph(g.outputs)
    if golden is not None:
        assert text(g) == golden
    # (the reference executor keeps no value: ``t.eval()`` would keep shared
    # inputs such as ``e`` for the next case, which would print them so)
    from lazyten.exec.reference import run_reference
    expected = run_reference(graph(t).outputs)[0]
    np.testing.assert_array_equal(run_reference(g.outputs)[0], expected)


_FILL_DTYPES = [np.dtype(d) for d in (np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                      np.float32, np.float64, np.complex64)]


@settings(max_examples=150, deadline=None)
@given(op=st.sampled_from(["add", "subtract", "multiply", "maximum", "minimum", "divide",
                           "equal", "less", "arctan2", "logical_and", "where"]),
       xdt=st.sampled_from(_FILL_DTYPES), fdt=st.sampled_from(_FILL_DTYPES),
       shape=st.sampled_from([(5,), (2, 3), (0, 4), (3, 1)]), fill_first=st.booleans(),
       value=st.sampled_from([0, 1, 3, -2]))
def test_a_fill_the_result_covers_is_replaced_by_its_value(
        op: str, xdt: np.dtype[Any], fdt: np.dtype[Any], shape: tuple[int, ...],
        fill_first: bool, value: int) -> None:
    # NumPy's own answer with the filled array, to the dtype and the bit,
    # against the graph with the fill as a 0-d value.
    rng = np.random.default_rng(len(shape))
    X = (rng.uniform(-4, 4, shape) * 4).round().astype(xdt)
    F = np.full(shape, value).astype(fdt)
    args = (F, X) if fill_first else (X, F)
    fill = lt.full(shape, np.asarray(value).astype(fdt)[()], fdt)
    lazy = (fill, lt.asarray(X)) if fill_first else (lt.asarray(X), fill)
    with np.errstate(all="ignore"):
        try:
            want = np.where(X != 0, *args) if op == "where" else getattr(np, op)(*args)
        except TypeError:
            return                                   # (no such loop: nothing to compare)
        t = lt.where(lt.asarray(X) != 0, *lazy) if op == "where" else getattr(lt, op)(*lazy)
        g = simplify(graph(t))
        assert "full" not in text(g)
        verify_graph(g.outputs)
        from lazyten.exec.reference import run_reference
        got = run_reference(g.outputs)[0]
        assert got.dtype == want.dtype and got.shape == want.shape
        if want.dtype.kind == "f":
            same_bits(got, want)
        else:
            np.testing.assert_array_equal(got, want)
        # Optimized and compiled too, by ``lt.compute``, which keeps no value:
        # ``eval`` would keep the fill, an interned node, when a later example
        # reads it again (as a result two reads share), so that example's
        # graph had it as a value, not a fill to replace.
        (opt,) = lt.compute(t)
        assert opt.dtype == t.dtype and opt.shape == t.shape
        assert_eq(opt, want)


def test_constant_folding_golden() -> None:
    c = lt.full((), 2.0) * 3 + 1
    g = simplify(graph(c * x))
    out = text(g)
    assert "const 7.0" in out and "add" not in out, out


def test_cse_merges_commuted_operands() -> None:
    j = lt.asarray(np.arange(12) * 3, name="j")
    e = (i * j) + (j * i)
    before = text(graph(e))
    after = text(cse(graph(e)))
    assert before.count("multiply") == 2
    assert after == ("%0:int64[12] = input name=i\n%1:int64[12] = input name=j\n"
                     "%2:int64[12] = multiply %0 %1\n%3:int64[12] = add %2 %2\nreturn %3")
    # Comparisons commute on any dtype.
    assert text(cse(graph((x == y) | (y == x)))).count("equal") == 1


def test_cse_keeps_float_operand_order_for_nan_signs(engine: Any) -> None:
    # Found by the fuzzer: with two NaNs, the first one comes out, and
    # copysign shows its sign; swapping maximum's operands changed the result.
    a = np.array(np.nan, np.float16)
    t = lt.asarray(a)
    e = lt.copysign(1, lt.maximum(+t, -t))
    assert_eq(e, np.copysign(1, np.maximum(+a, -a)))
    assert text(cse(graph(x * y + y * x))).count("multiply") == 2


def test_identical_subexpressions_are_one_node() -> None:
    assert (x * y + 1).node is (x * y + 1).node


def test_pushdown_golden() -> None:
    e = ((x * y + 1) ** 2)[::4]
    g = pushdown(graph(e))
    assert text(g) == (
        "%0:float64[12] = input name=x\n"
        "%1:float64[3] = getitem %0 index=(('s', 0, 12, 4),)\n"
        "%2:float64[12] = input name=y\n"
        "%3:float64[3] = getitem %2 index=(('s', 0, 12, 4),)\n"
        "%4:float64[3] = multiply %1 %3\n%5:int64[] = const 1 (weak)\n"
        "%6:float64[3] = add %4 %5\n%7:int64[] = const 2 (weak)\n"
        "%8:float64[3] = pow %6 %7\nreturn %8")


def test_pushdown_keeps_a_rebuilt_shared_node_whole() -> None:
    """``c = a - (a*0.5)[:, :1]; c @ c.T``: the slice is pushed into ``c``'s
    operand first, which rebuilds ``c``; the transpose must not then be
    pushed through the new ``c``, which the matmul reads too (``c`` would be
    computed twice, and NumPy's X @ X.T, one BLAS syrk, lost its bits)."""
    a = lt.asarray(np.random.default_rng(12).standard_normal((7, 9)), name="a")
    c = a - (a * 0.5)[:, :1]
    g = pushdown(graph(c @ c.T))
    assert text(g).count("subtract") == 1, text(g)
    x_ = np.asarray(a)
    cn = x_ - (x_ * 0.5)[:, :1]
    assert np.array_equal((c @ c.T).eval(), cn @ cn.T)


def test_pushdown_through_reductions_and_scans_golden() -> None:
    """An index of a reduction or scan reaches the expression it reduces:
    ``sum(m*2, axis=1)[:2]`` reduces two rows, ``cumsum(m, axis=1)[3]``
    scans one; a float sum's kept axis cut to one element keeps its place
    (NumPy would sum that row pairwise, not row after row)."""
    m = lt.asarray(np.ones((4, 3)), name="m")
    assert text(pushdown(graph(lt.sum(m * 2, axis=1)[:2]))) == (
        "%0:float64[4,3] = input name=m\n"
        "%1:float64[2,3] = getitem %0 index=(('s', 0, 2, 1), ('s', 0, 3, 1))\n"
        "%2:int64[] = const 2 (weak)\n%3:float64[2,3] = multiply %1 %2\n"
        "%4:float64[2] = sum %3 axis=(1,) keepdims=False\nreturn %4")
    assert text(pushdown(graph(lt.cumulative_sum(m, axis=1)[3]))) == (
        "%0:float64[4,3] = input name=m\n"
        "%1:float64[3] = getitem %0 index=(('i', 3), ('s', 0, 3, 1))\n"
        "%2:float64[3] = cumulative_sum %1 axis=0 include_initial=False\n"
        "return %2")
    for kept in (lt.sum(m * 2, axis=0)[1], lt.sum(m * 2, axis=0)[1:2]):
        g = pushdown(graph(kept))
        assert g.outputs[0].op.name == "getitem", text(g)
    # order-free: an integer's row is fine
    assert pushdown(graph(lt.argmax(m * 2, axis=0)[1])).outputs[0].op.name == "argmax"


def test_gathers_of_expressions_gather_from_the_operands(engine: Any) -> None:
    """``(M*r + c)[idx]`` gathers the rows of ``M`` and ``c`` (``r`` is
    broadcast along them) and computes 4 rows, not 1000; a gather that
    repeats more elements than the expression has stays above it; an index
    out of bounds still raises when the result is computed."""
    rng = np.random.default_rng(3)
    M, r, c = rng.random((1000, 300)), rng.random(300), rng.random((1000, 1))
    lM, lr, lc = lt.asarray(M, name="M"), lt.asarray(r, name="r"), lt.asarray(c, name="c")
    idx = np.array([1, 5, 7, -1])
    g = pushdown(graph((lM * lr + lc)[idx]))
    assert g.outputs[0].op.name == "add" and g.outputs[0].shape == (4, 300)
    assert sum(n.op.name == "take" for n in g.nodes()) == 2        # M's and c's
    many = np.arange(3000) % 1000
    assert pushdown(graph((lM * lr + lc)[many])).outputs[0].op.name == "take"
    with np.errstate(all="ignore"):
        cases = [((lM * lr + lc)[idx], (M * r + c)[idx]),
                 ((lM * lr + lc)[:, idx], (M * r + c)[:, idx]),
                 (lt.take(lM * 2 - lc, np.array([[1, 2], [3, 999]]), axis=0),
                  np.take(M * 2 - c, np.array([[1, 2], [3, 999]]), axis=0)),
                 ((lt.sin(lr) * lr)[np.array([299, 0, 0])], (np.sin(r) * r)[[299, 0, 0]]),
                 ((lM * lr + lc)[many], (M * r + c)[many])]
    for e, want in cases:
        same_bits(assert_eq(e, want), want)
    with pytest.raises(IndexError):
        (lM * lr + lc)[np.array([0, 1000])].eval()
    # An empty result is not gathered from the operands: NumPy's take of it
    # checks nothing, one of an operand broadcast along its empty axis would
    # raise (found by the masked programs, planned however small).
    e, row = np.zeros(0), np.arange(3.0)
    for index in ([0, -1], [5]):
        out = lt.take(lt.outer(lt.asarray(e), lt.asarray(row)), index, axis=-1)
        assert pushdown(graph(out)).outputs[0].op.name == "take"
        with lt.set_options(tiny_elements=0):
            assert_eq(out, np.take(np.outer(e, row), index, axis=-1))


def test_views_of_joins_take_from_the_operands_they_reach(engine: Any) -> None:
    """``concat([x*2, y+1])[10:14]`` computes two elements of each operand;
    an integer along the join picks one operand; ``stack``'s operands (new
    axes of views) are reached too; a lone piece of a promoted join is cast
    to the join's dtype, as NumPy's ``concatenate`` casts it."""
    assert text(pushdown(graph(lt.concat([x * 2, y + 1])[10:14]))) == (
        "%0:float64[12] = input name=x\n%1:float64[2] = getitem %0 index=(('s', 10, 12, 1),)\n"
        "%2:int64[] = const 2 (weak)\n%3:float64[2] = multiply %1 %2\n"
        "%4:float64[12] = input name=y\n%5:float64[2] = getitem %4 index=(('s', 0, 2, 1),)\n"
        "%6:int64[] = const 1 (weak)\n%7:float64[2] = add %5 %6\n"
        "%8:float64[4] = concat %3 %7 axis=0\nreturn %8")
    rng = np.random.default_rng(4)
    A, B, C = rng.random((5, 4)), rng.integers(0, 9, (6, 4)), rng.integers(0, 9, (5, 3))
    for f in [lambda m: m.concatenate([m.asarray(A) * 2, m.asarray(B) + 1])[3:7],
              lambda m: m.concatenate([m.asarray(A) * 2, m.asarray(B) + 1])[::4, 1],
              lambda m: m.concatenate([m.asarray(A) * 2, m.asarray(B) + 1])[-3:],
              lambda m: m.concatenate([m.asarray(A) * 2, m.asarray(B) + 1])[7],
              lambda m: m.concatenate([m.asarray(A) * 2, m.asarray(B) + 1])[2:2],
              lambda m: m.concatenate([m.asarray(A) * 2, m.asarray(C) + 1], axis=1)[2, 3:6],
              lambda m: m.stack([m.asarray(A) * 2, m.asarray(A) + 1])[:, 1:3, 2],
              lambda m: m.stack([m.asarray(A) * 2, m.asarray(A) + 1], axis=-1)[3],
              lambda m: m.stack([m.sin(m.asarray(A)), m.asarray(A) + 1])[1, ::-1]]:
        want = f(np)
        same_bits(assert_eq(f(lt), want), want)
    one = lt.stack([lt.asarray(A) * 2, lt.asarray(A) + 1])[1]
    assert pushdown(graph(one)).outputs[0].op.name == "add"


def test_rows_of_a_reshaped_expression_are_a_range_of_it(engine: Any) -> None:
    """``(a*b).reshape(4, 6)[1:3]`` computes elements 6-17 of ``a*b``; a
    strided or larger choice of rows stays above the reshape."""
    a = lt.asarray(np.linspace(0, 1, 24), name="a")
    b = lt.asarray(np.linspace(1, 2, 24), name="b")
    assert text(pushdown(graph((a * b).reshape(4, 6)[1:3, ::2]))) == (
        "%0:float64[24] = input name=a\n%1:float64[12] = getitem %0 index=(('s', 6, 18, 1),)\n"
        "%2:float64[24] = input name=b\n%3:float64[12] = getitem %2 index=(('s', 6, 18, 1),)\n"
        "%4:float64[12] = multiply %1 %3\n%5:float64[2,6] = reshape %4 shape=(2, 6)\n"
        "%6:float64[2,3] = getitem %5 index=(('s', 0, 2, 1), ('s', 0, 6, 2))\nreturn %6")
    for kept in ((a * b).reshape(4, 6)[::2], (a * b).reshape(4, 6)[1:4]):
        assert pushdown(graph(kept)).outputs[0].op.name == "getitem"
        assert pushdown(graph(kept)).outputs[0].inputs[0].op.name == "reshape"
    A, B = np.linspace(0, 1, 24), np.linspace(1, 2, 24)
    for f in [lambda m: (m.asarray(A) * m.asarray(B)).reshape(4, 6)[1:3, ::2],
              lambda m: (m.asarray(A) * m.asarray(B)).reshape(2, 3, 4)[1, 2:, None],
              lambda m: (m.asarray(A) - 1).reshape(-1, 4)[2],
              lambda m: (m.asarray(A) - 1).reshape(-1, 4)[2:2]]:
        want = f(np)
        same_bits(assert_eq(f(lt), want), want)


LAYOUTS = ["C", "F", "T", "strided", "broadcast"]


@st.composite
def cutting_index(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """An index that often cuts an axis to one element or drops it (where
    NumPy's reduction order would change), else keeps two or more."""
    items: list[Any] = []
    for d in shape:
        k = draw(st.integers(0, d - 1)) if d else 0
        items.append(draw(st.sampled_from(
            [k, slice(k, k + 1), slice(k, k + 1), slice(k, k + 2), slice(None, None, -1),
             slice(None)]))
            if d else slice(None))
    return tuple(items)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_views_of_reductions_and_scans_are_numpys_bits(data: st.DataObject) -> None:
    """A random basic index of a random reduction or scan of an expression
    over operands of any layout, optimized (the index pushed to the inputs
    where ``pushdown`` finds it exact), is NumPy's index of NumPy's result to
    the bit: rows long enough (40) for pairwise and sequential sums to differ."""
    ndim = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.sampled_from([1, 2, 9, 40, 40]),
                                     min_size=ndim, max_size=ndim)))
    layout = data.draw(st.sampled_from(LAYOUTS))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    scale = 10.0 ** rng.uniform(-3, 3, size=shape)
    base = rng.standard_normal(shape) * scale
    if layout == "F":
        X = np.asfortranarray(base)
    elif layout == "T":
        X = np.ascontiguousarray(base.T).T
    elif layout == "strided":
        X = np.repeat(base, 2, axis=-1)[..., ::2]
    else:
        X = base
    Y = (rng.standard_normal(shape[-1:]) if layout == "broadcast"
         else rng.standard_normal(shape))
    op = data.draw(st.sampled_from(["sum", "sum", "sum", "prod", "min", "max", "mean", "argmax",
                                    "any", "int_sum", "cumulative_sum", "sort"]))
    axes = data.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim,
                              unique=True))
    keep = data.draw(st.booleans())
    # np.add, not ``+``: NumPy's operator adds into a temporary of 256 KiB or
    # more in place (temporary elision), so ``X * 0.5 + Y`` of 40x40x40 takes
    # the temporary's (Fortran) layout, not the C order NumPy's iterator gives
    # a ufunc whose operands disagree; the sums over that layout differ in
    # their last bits.  lazyten follows the iterator, as its reference does.
    expr_np = np.add(X * 0.5, Y)
    expr = lt.asarray(X) * 0.5 + lt.asarray(Y)
    if op in ("argmax", "cumulative_sum", "sort"):
        ax = axes[0]
        if op == "argmax":
            want, got = np.argmax(expr_np, axis=ax), lt.argmax(expr, axis=ax)
        elif op == "sort":
            want, got = np.sort(expr_np, axis=ax), lt.sort(expr, axis=ax)
        else:
            want = np.cumulative_sum(expr_np, axis=ax)
            got = lt.cumulative_sum(expr, axis=ax)
    elif op == "any":
        want = np.any(expr_np > 0.5, axis=tuple(axes), keepdims=keep)
        got = lt.any(expr > 0.5, axis=tuple(axes), keepdims=keep)
    elif op == "int_sum":
        want = np.sum((expr_np * 7).astype(np.int32), axis=tuple(axes), keepdims=keep)
        got = lt.sum((expr * 7).astype(np.int32), axis=tuple(axes), keepdims=keep)
    else:
        with np.errstate(all="ignore"):
            want = getattr(np, op)(expr_np * (0.9 if op == "prod" else 1.0),
                                   axis=tuple(axes), keepdims=keep)
        got = getattr(lt, op)(expr * (0.9 if op == "prod" else 1.0),
                              axis=tuple(axes), keepdims=keep)
    if want.ndim == 0:
        return
    index = data.draw(st.one_of(basic_index(want.shape), cutting_index(want.shape),
                                cutting_index(want.shape)))
    with lt.set_options(check=True), np.errstate(all="ignore"):
        value = got[index].eval()
    same_bits(value, want[index])


@pytest.mark.parametrize("layout", ["C", "F"])
def test_views_that_would_change_numpys_sum_order_stay_above_the_sum(layout: str) -> None:
    """Cutting the kept axis of a sum over rows to one element makes NumPy
    sum that column pairwise where it added row after row (33 of 40 columns
    differ here): such views are not pushed, every other one is, and both
    give NumPy's bits."""
    rng = np.random.default_rng(1)
    base = rng.standard_normal((40, 40)) * 10.0 ** rng.uniform(-3, 3, (40, 40))
    X = np.asfortranarray(base) if layout == "F" else base
    ax = 0 if layout == "C" else 1            # the kept axis is the inner loop
    want = np.sum(X * 0.5 + 1, axis=ax)
    for index, pushed in [(3, False), (slice(3, 4), False), (slice(3, 5), True),
                          (slice(None, None, -1), True), (slice(0, 40, 39), True)]:
        # (a sum of its own each: a second read of one is computed whole)
        s = lt.sum(lt.asarray(X) * 0.5 + 1, axis=ax)
        assert (pushdown(graph(s[index])).outputs[0].op.name == "sum") == pushed, index
        with lt.set_options(check=True):
            same_bits(s[index].eval(), want[index])


def test_printing_a_huge_reduction_reduces_only_the_rows_shown() -> None:
    # (10**6, 10**6, 3) summed over its last axis, scanned, stacked, and a
    # reshaped 10**12-element expression: printing works only if the corner
    # slices reach the operands (10**12 elements otherwise).
    v = np.array([0.1, 0.2, 0.7])
    huge = lt.broadcast_to(lt.asarray(v), (10**6, 10**6, 3))
    small = np.broadcast_to(v, (7, 7, 3))
    with lt.set_options(optimize=True, check=True), np.printoptions(threshold=1000):
        text_sum = str(lt.sum(lt.sin(huge) * 2 + 1, axis=-1))
        text_scan = str(lt.cumulative_sum(huge * 2, axis=-1))
        text_join = str(lt.stack([lt.sin(huge), huge * 2]))
        flat = lt.broadcast_to(lt.asarray(v[:1]), (10**12,))
        text_rows = str((lt.sin(flat) * 2).reshape(10**6, 10**6))
    with np.printoptions(threshold=0):
        assert text_sum == str(np.sum(np.sin(small) * 2 + 1, axis=-1))
        assert text_scan == str(np.cumulative_sum(small * 2, axis=-1))
        assert text_join == str(np.stack([np.sin(small), small * 2]))
        assert text_rows == str(np.broadcast_to(np.sin(v[:1]) * 2, (7, 7)))


def test_pushdown_through_broadcasting_and_transpose(engine: Any) -> None:
    m = lt.asarray(np.arange(12.0).reshape(3, 4))
    v = lt.asarray(np.arange(4.0))
    for e, ref in [
        ((m * v + 1)[1:, ::-2], (np.arange(12.0).reshape(3, 4) * np.arange(4.0) + 1)[1:, ::-2]),
        ((m * v)[2], (np.arange(12.0).reshape(3, 4) * np.arange(4.0))[2]),
        ((m + v).T, (np.arange(12.0).reshape(3, 4) + np.arange(4.0)).T),
        ((lt.exp(v) * m)[None, 1:, 2], (np.exp(np.arange(4.0)) * np.arange(12.0).reshape(3, 4))
         [None, 1:, 2]),
    ]:
        g = pushdown(graph(e))
        verify_graph(g.outputs)
        assert_eq(e, ref)


def test_decompose_and_blas_dots_golden() -> None:
    """mean as NumPy's sum over the count; ``sum(a*b)`` stays a sum (NumPy's
    pairwise bits) unless ``blas_dots`` runs (``blas_dot=True``)."""
    a = lt.asarray(np.ones(8), name="a")
    b = lt.asarray(np.ones(8), name="b")
    assert text(decompose(graph(lt.mean(a)))) == (
        "%0:float64[8] = input name=a\n%1:float64[] = sum %0 axis=(0,) keepdims=False\n"
        "%2:int64[] = const 8 (weak)\n%3:float64[] = divide %1 %2\nreturn %3")
    g = graph(lt.sum(a * b))
    assert decompose(g) is g or text(decompose(g)) == text(g)
    assert text(blas_dots(g)) == (
        "%0:float64[8] = input name=a\n%1:float64[8] = reshape %0 shape=(8,)\n"
        "%2:float64[8] = input name=b\n%3:float64[8] = reshape %2 shape=(8,)\n"
        "%4:float64[] = dot %1 %3\nreturn %4")


def test_matmul_order_golden() -> None:
    A = lt.asarray(np.ones((50, 50)), name="A")
    B = lt.asarray(np.ones((50, 50)), name="B")
    v = lt.asarray(np.ones(50), name="v")
    g = matmul_order(graph(A @ B @ v))
    assert text(g) == ("%0:float64[50,50] = input name=A\n%1:float64[50,50] = input name=B\n"
                       "%2:float64[50] = input name=v\n%3:float64[50] = matmul %1 %2\n"
                       "%4:float64[50] = matmul %0 %3\nreturn %4")
    g2 = matmul_order(graph(v @ A @ B))
    assert "matmul %0 %1" in text(g2)  # (v @ A) @ B is already cheapest


def test_matmul_order_can_be_turned_off_for_numpys_bits() -> None:
    """Reassociation rounds otherwise and can turn NaN into inf (``inf * 0``
    in one order only); ``matmul_order=False`` keeps NumPy's order."""
    A = np.array([[1.0], [np.inf]])
    B, C = np.array([[0.0, 1.0]]), np.array([[1.0], [1.0]])
    e = lt.asarray(A) @ lt.asarray(B) @ lt.asarray(C)
    want = (A @ B) @ C                            # [[1], [nan]]
    with lt.set_options(tiny_elements=0):        # (small: else run as NumPy, its order)
        assert np.isinf(lt.compute(e)[0][1, 0])  # A @ (B @ C): inf
    with lt.set_options(matmul_order=False):
        same_bits(lt.compute(e)[0], want)
        rng = np.random.default_rng(0)
        M, N, v = rng.random((60, 60)), rng.random((60, 60)), rng.random(60)
        same_bits(lt.compute(lt.asarray(M) @ lt.asarray(N) @ lt.asarray(v))[0], M @ N @ v)
        assert sum(s.kind == "blas" for s in lt.plan(lt.asarray(M) @ lt.asarray(N)
                                                     @ lt.asarray(v)).steps) == 2
    with pytest.raises(TypeError):
        lt.set_options(matmul_order=1)


def test_fuse_golden() -> None:
    e = 2 * x**2 + 3 * x * y - lt.sin(x) * lt.exp(-y)
    g = fuse(simplify(graph(e)))
    assert kernel_count(g) == 1
    assert "{ (((i3 * (i1 * i1)) + ((i0 * i1) * i2)) - (sin(i1) * exp((-i2)))) }" in text(g)


def test_identities_keep_signed_zeros_and_float16_nans(engine: Any) -> None:
    """x - (-0.0) is x + 0.0 (it makes -0.0 into +0.0): not dropped; x ** 1
    in float16 runs in float32 and quiets a NaN: not dropped either."""
    z = np.array([-0.0, 1.0, -2.5])
    for c in (-0.0, np.float64(-0.0), -0j):
        same_bits((lt.asarray(z) - c).eval(), z - c)
    h = np.array([np.nan, -1.0], np.float16)
    h.view(np.uint16)[0] |= 0x8001          # -NaN with a payload
    same_bits((lt.asarray(h) ** 1).eval(), h ** 1)
    assert (lt.asarray(h) ** 1).eval().view(np.uint16)[0] == (h ** 1).view(np.uint16)[0]


def test_a_scalar_written_under_a_mask_fuses_with_the_mask(engine: Any) -> None:
    """``t[t > c] = v`` is ``where(t > c, v, t)``: the mask is not evaluated
    when the line runs, and the write is one kernel with what reads it."""
    t = 2 * x
    t[t > 1] = 0.0
    t[lt.abs(y) < 2] = -1          # an int into float64: made float64 on this line
    assert t.node.op.name == "where"
    assert kernel_count(fuse(simplify(graph(t + 1)))) == 1
    n = 2 * x.eval()
    n[n > 1] = 0.0
    n[np.abs(y.eval()) < 2] = -1
    assert_eq(t + 1, n + 1)


def test_fusion_keeps_shared_node_once() -> None:
    # (a fresh input: ``lt.exp(x)`` is interned, and may be kept by now)
    t = lt.exp(lt.asarray(np.linspace(-2, 2, 12)))
    g = fuse(graph(t * t + t))
    assert kernel_count(g) == 1
    assert "t0 := exp(i0)" in text(g)


def test_fusion_stops_at_outputs_and_broadcast_operands() -> None:
    m = lt.asarray(np.ones((5, 12)))
    z = lt.asarray(np.linspace(-2, 2, 12))
    small = lt.exp(z)               # 12 elements, read by a 60-element kernel
    g = fuse(graph(small * m))
    assert kernel_count(g) == 2     # exp is not recomputed 5 times
    a = z + 1
    g2 = fuse(graph(a, a * 2))
    assert kernel_count(g2) == 2    # the output a is materialized, not fused away


# Above the size where a stored temporary stops fitting in cache.
X = lt.asarray(np.linspace(-2, 2, 200_000), name="X")
Y = lt.asarray(np.linspace(1, 3, 200_000), name="Y")


def test_cheap_shared_node_is_recomputed_in_each_group(engine: Any) -> None:
    # X + Y is read by a kernel and a fused reduction: storing it costs a
    # write and two reads, recomputing a second read of X and Y.
    s = X + Y
    u, m = s * 3, lt.max(s)
    g = fuse(graph(u, m))
    assert kernel_count(g) == 2
    assert text(g).count("(i0 + i1)") == 2          # one copy in each kernel
    assert not any(n.op.name == "add" for n in g.nodes())  # never stored
    assert len(lt.plan(u, m).buffers) == 2            # the two outputs only
    assert_eq(u, (X.eval() + Y.eval()) * 3)
    assert_eq(m, np.max(X.eval() + Y.eval()))
    # a cheap chain read only through the shared node follows it into each copy
    c = (X * 2 + 1) * Y
    g2 = fuse(graph(c - 1, lt.min(c)))
    assert kernel_count(g2) == 2
    assert text(g2).count("(((i0 * i1) + i2) * i3)") == 2
    assert_eq(lt.min(c), np.min((X.eval() * 2 + 1) * Y.eval()))


def test_costly_widely_shared_or_small_node_is_stored_once() -> None:
    e = lt.exp(X)                     # transcendental: computed once
    g = fuse(graph(e + 1, lt.max(e)))
    assert kernel_count(g) == 2 and text(g).count("exp(") == 1
    assert any(n.op.name == "max" for n in g.nodes())  # reads the stored exp
    s = X + Y                         # read by 5 groups: 4 more reads of X and Y
    outs = [s * k for k in range(2, 7)]  # cost more than one write + 5 reads
    assert text(fuse(graph(*outs))).count("(i0 + i1)") == 1
    # two more reads of X and Y (float64) cost more than one write and
    # three reads of the float32 result
    f = (X * Y).astype(np.float32)
    assert text(fuse(graph(f + 1, f - 1, f * 2))).count("astype(") == 1
    # 12 elements stay in cache when stored: recomputing would only add calls
    s2 = x + y
    assert text(fuse(graph(s2 * 3, lt.max(s2)))).count("(i0 + i1)") == 1


def test_recomputation_is_bounded_on_a_lattice(engine: Any) -> None:
    # every node read by two others: each is copied into at most 4 groups
    u, v = X, Y
    for _ in range(12):
        u, v = u * v + v, u - v
    g = fuse(graph(u, v))
    copies = sum(n.attrs["program"].__len__() for n in g.nodes() if n.op is FUSED)
    assert copies <= 4 * 3 * 12
    uu, vv = X.eval(), Y.eval()
    for _ in range(12):
        uu, vv = uu * vv + vv, uu - vv
    assert_eq(u, uu)
    assert_eq(v, vv)


def test_reduction_fuses_with_elementwise() -> None:
    g = fuse(graph(lt.sum(x * y + 1)))
    (k,) = [n for n in g.nodes() if n.op is FUSED]
    assert k.attrs["reduce"][0] == "sum"


i8 = lt.asarray(np.arange(12, dtype=np.int8), name="i8")
x2 = lt.asarray(np.linspace(0, 1, 12).reshape(3, 4), name="x2")
# Reductions whose dtype differs from their input's fuse where the result is
# exact in any order: integer sums and products, any/all of numbers.
DTYPE_CHANGING = [
    ("sum(mask)", lambda: lt.sum(x > y), "sum", "int64"),
    ("sum(mask, axis)", lambda: lt.sum(x2 > 0.5, axis=1), "sum", "int64"),
    ("count_nonzero", lambda: lt.count_nonzero(x > y), "sum", "int64"),
    ("mean(mask)", lambda: lt.mean(x > y), "sum", "int64"),
    ("sum(int8)", lambda: lt.sum(i8 * 3), "sum", "int64"),
    ("prod(int8)", lambda: lt.prod(i8 + 1), "prod", "int64"),
    ("sum(int8, dtype=int16)", lambda: lt.sum(i8 * 3, dtype=np.int16), "sum", "int16"),
    ("any(float)", lambda: lt.any(x - y), "any", "bool"),
    ("all(int)", lambda: lt.all(i8 - 1), "all", "bool"),
    ("argmax", lambda: lt.argmax(x * y), "argmax", "int64"),
    ("argmin(axis)", lambda: lt.argmin(x2 * 2, axis=1), "argmin", "int64"),
    # scans too: their chain runs in order over the kernel's values
    ("cumsum", lambda: lt.cumsum(x * y), "cumulative_sum", "float64"),
    ("cumprod(axis)", lambda: lt.cumprod(x2 + 1, axis=0), "cumulative_prod", "float64"),
    ("cumsum(mask)", lambda: lt.cumsum(x > y), "cumulative_sum", "int64"),
]


@pytest.mark.parametrize("name,build,red,dtype", DTYPE_CHANGING,
                         ids=[c[0] for c in DTYPE_CHANGING])
def test_reduction_changing_dtype_fuses_where_exact(name: str, build: Any, red: str,
                                                    dtype: str) -> None:
    t = build()
    g, _removed, _before = optimize(graph(t).outputs, lt.get_options())
    ks = [n for n in g.nodes() if n.op is FUSED and n.attrs["reduce"] is not None]
    assert [(k.attrs["reduce"][0], k.dtype) for k in ks] == [(red, np.dtype(dtype))]
    assert not [n for n in g.nodes() if n.op.kind in ("reduction", "scan")], text(g)
    with lt.set_options(optimize=False):
        expected = t.eval()
    assert_eq(t, expected)


def test_float_sum_into_another_dtype_does_not_fuse() -> None:
    """NumPy casts float32 to float64 in buffers of its own, whose bounds
    order the additions: a blockwise sum would not be NumPy's."""
    x32 = lt.asarray(np.linspace(0, 1, 12, dtype=np.float32))
    t = lt.sum(x32 * 2, dtype=np.float64)
    g, _removed, _before = optimize(graph(t).outputs, lt.get_options())
    assert [n.attrs["reduce"] for n in g.nodes() if n.op is FUSED] == [None]
    assert "the reduction gives float64, not float32" in lt.explain(t, verbose=True)
    # nor a scan with its initial value (a longer result than the kernel's)
    g, _removed, _before = optimize(graph(lt.cumulative_sum(x * y, include_initial=True)).outputs,
                                    lt.get_options())
    assert [n.op.name for n in g.nodes() if n.op.kind == "scan"] == ["cumulative_sum"]
    assert "its result's shape is not this kernel's" in lt.explain(
        lt.cumulative_sum(x * y, include_initial=True), verbose=True)
    # nor a complex argmax (NumPy orders complex numbers and NaNs its own way)
    z = lt.asarray(np.linspace(0, 1, 12) + 1j)
    g, _removed, _before = optimize(graph(lt.argmax(z * 2)).outputs, lt.get_options())
    assert [n.op.name for n in g.nodes() if n.op.kind == "reduction"] == ["argmax"]
    # nor a float16 sum or product: NumPy's float16 loop works in float32
    # and rounds once, where blocks would round every partial result
    # (500.0 against NumPy's 500.2 on a sum of 1e6 elements)
    X16 = np.random.default_rng(3).random(1_000_000).astype(np.float16)
    h = lt.asarray(X16)
    h4 = lt.asarray(X16[:4000])           # (a product of 4,000 stays finite)
    for red, exp in [(lt.sum(h * np.float16(0.001)), np.sum(X16 * np.float16(0.001))),
                     (lt.prod(h4 * np.float16(1e-3) + np.float16(1)),
                      np.prod(X16[:4000] * np.float16(1e-3) + np.float16(1)))]:
        g, _removed, _before = optimize(graph(red).outputs, lt.get_options())
        assert [n.attrs["reduce"] for n in g.nodes() if n.op is FUSED] == [None]
        assert "NumPy sums float16 in float32, rounding once" in lt.explain(red, verbose=True)
        for backend in ("numpy", "auto"):
            with lt.set_options(backend=backend):
                got = lt.compute(red)[0]
                assert got.dtype == exp.dtype and got == exp
    # a float16 max still fuses: exact in any order
    g, _removed, _before = optimize(graph(lt.max(h * np.float16(2))).outputs, lt.get_options())
    assert [n.attrs["reduce"][0] for n in g.nodes() if n.op is FUSED] == ["max"]


# ----------------------------------------------------------- structure of plans

N = 200_000


@pytest.fixture(scope="module")
def big() -> tuple[lt.Tensor, ...]:
    rng = np.random.default_rng(0)
    return tuple(lt.asarray(rng.random(N)) for _ in range(3))


def test_w1_is_one_kernel(big: tuple[lt.Tensor, ...]) -> None:
    a, b, c = big
    p = lt.plan(2 * a**2 + 3 * b * c - lt.sin(a) * lt.exp(-b))
    assert len(p.kernels) == 1
    assert len(p.buffers) == 1            # only the output: no temporaries
    assert p.buffer_peak_bytes == N * 8
    # issue 3's W1 memory target: the output plus at most 2 MB, the blocks
    assert p.peak_bytes == N * 8 + p.scratch_bytes
    assert 0 < p.scratch_bytes <= 2 << 20


def test_w3_reduction_has_no_full_size_temporary(big: tuple[lt.Tensor, ...]) -> None:
    a, b, c = big
    p = lt.plan(lt.sum(a * b + c))
    assert len(p.kernels) == 1
    assert p.buffer_peak_bytes <= 64
    assert 0 < p.peak_bytes <= 2 << 20    # W3's target: scratch blocks only


@pytest.mark.parametrize("backend", ["numpy", "loop"])
def test_w3_runs_without_a_full_size_temporary(backend: str) -> None:
    import tracemalloc
    n = 1_000_000                  # several blocks a thread
    rng = np.random.default_rng(1)
    a, b, c = (lt.asarray(rng.random(n)) for _ in range(3))
    x0, y0 = lt.placeholder((n,)), lt.placeholder((n,))
    with lt.set_options(backend=backend):      # (a function plans when made)
        f = lt.function([x0, y0], lt.sum(x0 * y0 + 1))
    a0, b0 = a.eval(), b.eval()

    def peak(run: Any) -> int:
        tracemalloc.start()
        run()
        p = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return p
    with lt.set_options(backend=backend):
        if backend == "loop":
            # compiling: numba's compiler makes some 30 MB of Python objects, once
            lt.compute(lt.sum(c * b + a))
        # the first call also plans (and starts the thread pool): under n floats
        assert peak(lambda: lt.compute(lt.sum(c * b + a))) < n * 8
        (k,) = [s.kernel for s in lt.plan(lt.sum(c * b + a)).steps if s.kernel is not None]
        if backend == "loop":
            # one pass, nothing but the result (and the loop's own 2 KiB
            # frame stack, outside Python's allocator)
            assert k.backend == "loop" and k.loop is not None and k.loop.reduces
            assert peak(lambda: lt.compute(lt.sum(c * b + a))) < 64 * 1024
            f(a0, b0)
            assert peak(lambda: f(a0, b0)) < 64 * 1024
            return
        # then the cached plan, and a compiled function: blocks of scratch
        # only, one per thread (the kernel keeps a*b+c in one slot)
        assert k.backend == "blocked" and len(k.prepared.slot_dtypes) == 1
        threads = min(default_threads(), -(-n // k.block_elems))
        scratch = threads * k.block_elems * 8 + 64 * 1024
        assert scratch < n * 8 // 4
        assert peak(lambda: lt.compute(lt.sum(c * b + a))) < scratch
        f(a0, b0)
        assert peak(lambda: f(a0, b0)) < scratch


def test_w5_computes_one_thousandth(big: tuple[lt.Tensor, ...]) -> None:
    a, b, c = big
    e = ((a * b + c) ** 2)[::1000]
    p = lt.plan(e)
    (k,) = p.kernels
    assert k.node.size == N // 1000
    assert p.buffer_peak_bytes == N // 1000 * 8
    assert p.peak_bytes == N // 1000 * 8 * 2     # and one scratch slot of the slice's size
    assert_eq(e, ((a.eval() * b.eval() + c.eval()) ** 2)[::1000])


def test_views_are_not_pushed_below_what_is_computed_whole(engine: Any) -> None:
    """A stencil's rolls of ``u`` beside ``0.5 * u``: ``u`` is computed
    whole for the product, so its rolls' slices read it (views) instead of
    computing their parts of it again (a time loop of such steps pushed
    slices down every shared step: seconds to plan, work added)."""
    x = np.random.default_rng(3).random(64)
    u = lt.asarray(x) * 2 + 1
    e = 0.25 * np.roll(u, 1) + 0.5 * u + 0.25 * np.roll(u, -1)
    if lt.get_options().optimize:
        assert [k.node.size for k in lt.plan(e).kernels] == [64, 64]
    un = x * 2 + 1
    assert_eq(e, 0.25 * np.roll(un, 1) + 0.5 * un + 0.25 * np.roll(un, -1))


def test_views_are_not_pushed_below_what_a_view_of_all_of_it_reads(engine: Any) -> None:
    """Floyd-Warshall's step, ``path[:] = minimum(path[:], add.outer(path[:,
    k], path[k, :]))``: the next step reads the state whole through
    ``path[:]`` (a view of all of it), so its row and column are read from
    the computed state, not pushed below it (each step's row and column
    were computed again from every earlier step: 100 steps under
    ``lt.jit`` took 7x NumPy's time, now 2x)."""
    P = np.random.default_rng(5).integers(1, 100, (60, 60)).astype(np.int32)
    path, want = lt.asarray(P.copy()), P.copy()
    for m, t in ((np, want), (lt, path)):
        for k in range(8):
            t[:] = m.minimum(t[:], m.add.outer(t[:, k], t[k, :]))
    if lt.get_options().optimize:
        assert [k.node.size for k in lt.plan(path).kernels] == [3600] * 8
    assert_eq(path, want)


def test_views_are_pushed_below_nodes_read_only_on_the_way_to_them(engine: Any) -> None:
    """``z + 1`` and ``z - 1`` both read ``z`` whole, but both lie below the
    view: the push computes ten elements of each, not ``z`` (a rule that
    counted them as whole readers computed 1e7 for ``[:10]``); a reader of
    ``z`` that is an output still keeps ``z`` whole."""
    x = np.random.default_rng(4).random(4096)
    z = lt.asarray(x) * 2
    e = ((z + 1) / (z - 1))[:10]
    w = z + 3
    f = ((z + 1) / (z - 1))[:10]
    if lt.get_options().optimize:
        assert [k.node.size for k in lt.plan(e).kernels] == [10]
        assert sorted(k.node.size for k in lt.plan(f, w).kernels) == [10, 4096, 4096]
    zn = x * 2
    assert_eq(e, ((zn + 1) / (zn - 1))[:10])
    assert_eq(f, ((zn + 1) / (zn - 1))[:10])


def test_w6_two_matrix_vector_products() -> None:
    rng = np.random.default_rng(1)
    A, B, v = rng.random((300, 300)), rng.random((300, 300)), rng.random(300)
    e = lt.asarray(A) @ lt.asarray(B) @ lt.asarray(v)
    p = lt.plan(e)
    mm = [s.node for s in p.steps if s.node.op.name == "matmul"]
    assert len(mm) == 2 and all(n.ndim == 1 for n in mm)
    assert_eq(e, A @ (B @ v), rtol=1e-12)


def test_dead_buffers_are_reused_and_inplace(big: tuple[lt.Tensor, ...]) -> None:
    a, b, _ = big
    x1 = lt.exp(a)                   # kernel 1
    y1 = (x1 + 1) * (x1 - 1)         # kernel 2 (an output)
    z1 = lt.sqrt(y1) + x1            # kernel 3: x1 dies here -> in place
    p = lt.plan(z1, y1)
    k1, _k2, k3 = p.kernels
    assert k3.inplace_of == k1.node.id
    assert len(p.buffers) == 2
    # A chain of reductions and kernels reuses the dead buffers it frees.
    e = lt.exp(a) @ lt.exp(b)
    q = lt.plan(lt.sin(lt.exp(a) * 2) + e)
    assert len(q.buffers) <= 4


def test_dead_buffers_no_step_reuses_are_released() -> None:
    """Writes through a view in a loop: each copies the array (a
    view_update), and the dead copies were all kept in the executor's pool,
    which only kernels draw from (200 writes into 8 MB held 3 GB). A dead
    buffer is kept only for a step that reuses it; the estimate counts it so."""
    import tracemalloc
    x = np.random.default_rng(5).random((200, 100))
    y = lt.asarray(x) * 2
    r = y[3]
    yn = x * 2
    rn = yn[3]
    for i in range(40):
        r[i] = i
        rn[i] = i
        y[1, i] = -i
        yn[1, i] = -i
    plan = lt.plan(y)
    # (a copy of the row per write through r: the writes into y itself, the
    # row's view_update among them, take y's dying buffer since the tenth round)
    assert sum(s.new_buffer for s in plan.steps) >= 40
    assert plan.peak_bytes <= 4 * x.nbytes
    tracemalloc.start()
    try:
        got = y.eval()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 6 * x.nbytes
    np.testing.assert_array_equal(got, yn)
    # A dead buffer a later kernel reuses is kept for it, and counted
    a = lt.asarray(x)
    m = lt.exp(a) @ lt.asarray(np.ones((100, 5)))
    w = lt.sin(a) * m.sum()
    q = lt.plan(w)
    assert [s.index for s in q.steps if s.recycles == {0}] == [3]
    assert [s.reused for s in q.steps][-1] == 0
    assert q.buffer_peak_bytes == x.nbytes + m.nbytes + 8   # (b0 held for its reuse)
    assert_eq(w, np.sin(x) * (np.exp(x) @ np.ones((100, 5))).sum())


def test_inplace_never_targets_user_arrays_or_live_views(engine: Any) -> None:
    base = np.arange(1.0, 9.0)
    keep = base.copy()
    a = lt.asarray(base)
    t = lt.exp(a)
    tv = t[::2]
    u = t * 2 + 1            # t dies at this kernel, but the view tv is still live
    r1, r2 = lt.compute(u, tv + 1)
    np.testing.assert_array_equal(base, keep)
    np.testing.assert_allclose(r1, np.exp(keep) * 2 + 1)
    np.testing.assert_allclose(r2, np.exp(keep)[::2] + 1)


def test_operand_reading_buffer_through_a_view_blocks_inplace(engine: Any) -> None:
    m = lt.asarray(np.arange(16.0).reshape(4, 4))
    t = lt.exp(m)            # a kernel output that dies in the next kernel...
    e = t + t.T              # ...which also reads it transposed: no in place
    p = lt.plan(e)
    assert p.kernels[-1].inplace_of is None
    ref = np.exp(np.arange(16.0).reshape(4, 4))
    assert_eq(e, ref + ref.T)


def test_w1_allocates_only_the_output_and_block_scratch(big: tuple[lt.Tensor, ...]) -> None:
    import tracemalloc

    from lazyten.exec import cost
    a, b, c = big
    e = 2 * a**2 + 3 * b * c - lt.sin(a) * lt.exp(-b)
    with lt.set_options(backend="numpy", threads=2):
        lt.compute(e)                        # warm caches (probes, plan)
        tracemalloc.start()
        (out,) = lt.compute(e)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    scratch = 2 * 4 * cost.get_model().block_elems * 8      # threads x slots x block
    assert peak <= out.nbytes + scratch + 256 * 1024, (peak, out.nbytes)
    # NumPy eager holds several full-size temporaries at once.
    tracemalloc.start()
    a0, b0, c0 = a.eval(), b.eval(), c.eval()
    tracemalloc.reset_peak()
    _ = 2 * a0**2 + 3 * b0 * c0 - np.sin(a0) * np.exp(-b0)
    eager = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert eager > 2 * out.nbytes


def test_plan_over_available_memory_raises_before_allocating() -> None:
    # 10**12 float64 elements (8 TB): no machine here has that; the plan says
    # so naming the buffer and the line, before allocating anything.
    huge = lt.broadcast_to(lt.asarray(np.ones(3)), (10**6, 333_333, 3))
    e = lt.exp(huge) + 1
    with pytest.raises(MemoryError) as info:
        e.eval()
    msg = str(info.value)
    assert "memory available now" in msg and "test_passes.py" in msg
    assert "chunk" in msg


def test_plan_cache_runs_a_reused_small_plan_as_generated_code() -> None:
    from lazyten.exec import optimized
    optimized.clear_plan_cache()
    a0, b0 = np.arange(5.0), np.arange(5.0) + 1

    def build(a: Any, b: Any) -> lt.Tensor:
        return lt.sin(a) * b + 1

    for k in range(3):                   # new arrays each time: same structure
        got = lt.compute(build(lt.asarray(a0 * k), lt.asarray(b0)))[0]
        np.testing.assert_array_equal(got, np.sin(a0 * k) * b0 + 1)
        if k == 0:                       # evaluated once: planned, not cached
            assert not optimized._plans
            continue
        (entry,) = optimized._plans.values()
        assert entry.uses == k           # cached on the 2nd evaluation,
        assert entry.fast is not None    # with its generated code
    # a long chain stays with the executor: its code would take long to compile
    optimized.clear_plan_cache()
    t = lt.asarray(a0)
    for _ in range(300):
        t = t * 1.5
    for _ in range(3):
        lt.compute(t)
    (entry,) = optimized._plans.values()
    assert entry.uses == 2 and entry.fast is None


def test_signature_is_structural_not_by_creation_order() -> None:
    from lazyten.exec.optimized import signature
    sigs = []
    for k in range(2):   # one line: the user's line is part of the key
        p, q = lt.asarray(np.ones(3)), lt.asarray(np.ones(3))
        _ = p * 7.5 if k == 0 else None        # 7.5 is then older than p, q
        sigs.append(signature([(p * q + 7.5).node]))
    assert sigs[0][0] == sigs[1][0] and len(sigs[0][1]) == len(sigs[1][1]) == 2
    for k in range(3):
        e = p * q + 7.5 if k == 0 else (p * p + 7.5 if k == 1 else q * p + 7.5)
        sigs.append(signature([e.node]))
    assert sigs[3][0] != sigs[2][0]             # other wiring, other plan
    assert sigs[4][1] == [q.node, p.node]       # leaves in the structure's order


def test_rebuilt_expression_finds_its_plan_without_a_walk() -> None:
    # W7's loop: the same expression built on fresh arrays and evaluated.  The
    # build-time summary is the plan-cache key, so no walk runs, and one plan
    # serves every call.
    from lazyten.exec import optimized
    optimized.clear_plan_cache()
    rng = np.random.default_rng(0)
    for k in range(4):
        xs = [rng.random(50) for _ in range(3)]
        a, b, c = (lt.asarray(x) for x in xs)
        y = 2 * a**2 + 3 * b * c - lt.sin(a) * lt.exp(-b)
        sig = optimized.signature([y.node])
        assert sig is not None and sig[0][0] == "summary"
        assert sig[1] == [a.node, b.node, c.node]     # leaves in the structure's order
        got = y.eval()
        np.testing.assert_allclose(got, 2 * xs[0]**2 + 3 * xs[1] * xs[2]
                                   - np.sin(xs[0]) * np.exp(-xs[1]), rtol=1e-15)
        assert [e.uses for e in optimized._plans.values()] == ([k] if k else [])


def test_summary_made_before_a_value_was_cached_is_not_trusted() -> None:
    # z is built while y is an operation; then y gets a value.  z's summary
    # still counts y as a multiply over the user's array, so it must not be
    # the key: z has to start from y's cached value, which the walk does.
    from lazyten.exec import optimized
    from lazyten.graph.node import summary_current
    arr = np.arange(4.0)
    a = lt.asarray(arr)
    y = a * 2.0
    z = y + 1.0
    assert summary_current(z.node)
    y_val = y.eval()
    assert not summary_current(z.node)
    sig = optimized.signature([z.node])
    assert sig is not None and sig[0][0] != "summary" and sig[1] == [y.node]
    arr[:] = 100.0                  # the user changes the array y was computed from
    np.testing.assert_array_equal(z.eval(), y_val + 1.0)
    w = y - 1.0                     # built after: y is a leaf of its summary
    assert summary_current(w.node) and w.node.leaves == (y.node,)


def test_summaries_tell_wiring_apart() -> None:
    p, q = lt.asarray(np.ones(3)), lt.asarray(np.full(3, 2.0))
    same = [(p * q + p).node, (q * p + q).node]     # one structure, leaves swapped
    other = [(p * q + q).node, (p * p + q).node, (p * q + 7.5).node]
    assert same[0].skey == same[1].skey
    assert same[0].leaves == (p.node, q.node) and same[1].leaves == (q.node, p.node)
    assert len({n.skey for n in other} | {same[0].skey}) == 4


def test_several_outputs_share_one_summary_key_only_with_the_same_wiring() -> None:
    from lazyten.exec import optimized
    optimized.clear_plan_cache()
    x, y = np.arange(3.0), np.arange(3.0) + 10
    p, q = lt.asarray(x), lt.asarray(y)

    def sines(a: lt.Tensor, b: lt.Tensor) -> list[lt.Tensor]:
        return [lt.sin(a), lt.sin(b)]    # one line: the same structure ids

    sig_pq = optimized.signature([t.node for t in sines(p, q)])
    sig_pp = optimized.signature([t.node for t in sines(p, p)])
    assert sig_pq is not None and sig_pp is not None
    assert sig_pq[0][0] == sig_pp[0][0] == "summary" and sig_pq[0] != sig_pp[0]
    assert sig_pq[1] == [p.node, q.node] and sig_pp[1] == [p.node]
    for _ in range(3):               # each through its own cached plan, the fast path too
        np.testing.assert_array_equal(lt.compute(*sines(p, q))[1], np.sin(y))
        np.testing.assert_array_equal(lt.compute(*sines(p, p))[1], np.sin(x))


@pytest.mark.parametrize("build", [
    lambda m, a, b: 2 * a**2 + 3 * a * b - m.sin(a) * m.exp(-b),
    lambda m, a, b: (a * b + 1.0).reshape(4, 5).T,       # a view of a scratch result
    lambda m, a, b: m.sum(a * b + 1.0),
    lambda m, a, b: m.concat([a * b, a - b]),
])
def test_cached_plans_scratch_held_between_calls_never_leaks_into_results(build: Any) -> None:
    # A small cached plan keeps its (tiny) scratch buffers from call to call:
    # no result handed out earlier may live in them.
    from lazyten.exec import optimized
    optimized.clear_plan_cache()
    rng = np.random.default_rng(3)
    got, want = [], []
    for _ in range(4):
        x, y = rng.random(20), rng.random(20)
        got.append(lt.compute(build(lt, lt.asarray(x), lt.asarray(y)))[0])
        want.append(build(np, x, y))
    (entry,) = optimized._plans.values()
    assert entry.uses == 3 and entry.fast is not None    # cached on the 2nd call
    assert 0 < entry.fast.scratch_bytes <= optimized.FAST_PATH_HELD_BYTES
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-15)


# ------------------------------------------------------- kernels into a join's buffer

def _into_steps(p: Any) -> list[Any]:
    return [s for s in p.steps if s.into is not None]


@pytest.mark.parametrize("min_bytes", [0, None])
def test_join_operands_write_into_the_joins_buffer(engine: dict[str, Any],
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   min_bytes: int | None) -> None:
    from lazyten.exec import planner
    if min_bytes is not None:
        monkeypatch.setattr(planner, "JOIN_INTO_MIN_BYTES", min_bytes)
    rng = np.random.default_rng(5)
    a, b = rng.random((3, 5000)), rng.random(5000)
    x, y = lt.asarray(a), lt.asarray(b)
    # three kernels (one a reduction-free numexpr candidate), an input, an int operand
    s = lt.stack([lt.sin(x[0]), y, x[1] * 2 + 1, lt.cos(y)])
    c = lt.concat([x * 3.0, lt.exp(x[:1]), x[2:] - 1.0])
    want_s = np.stack([np.sin(a[0]), b, a[1] * 2 + 1, np.cos(b)])
    want_c = np.concatenate([a * 3.0, np.exp(a[:1]), a[2:] - 1.0])
    if engine["optimize"]:
        small = min_bytes is None              # 160 KB and 360 KB: both over the default
        for t, kernels in ((s, 3), (c, 3)):
            p = lt.plan(t)
            assert len(_into_steps(p)) == kernels
            assert len(p.buffers) == 1 and p.buffer_peak_bytes == t.nbytes   # no operand buffers
            (join,) = [st for st in p.steps if st.node.op.name == "concat"]
            assert len(join.joined) == kernels
            assert "(into the join" in lt.explain(t) and small is not None
            # c's kernels write all its operands: its step does no work of its own
            assert ("1 join filled in place" in lt.explain(t)) == (t is c)
    assert_eq(s, want_s)
    assert_eq(c, want_c)
    (gs, gc) = lt.compute(s, c)
    np.testing.assert_array_equal(gs, s.eval())
    np.testing.assert_array_equal(gc, c.eval())
    # The same plan over values no buffer held before: a join that failed to
    # copy its input operand would show stale memory here, not b + 1.
    b2 = b + 1.0
    s2 = lt.stack([lt.sin(x[0]), lt.asarray(b2), x[1] * 2 + 1, lt.cos(y)])
    assert_eq(s2, np.stack([np.sin(a[0]), b2, a[1] * 2 + 1, np.cos(b)]))


def test_join_operands_that_cannot_write_into_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from lazyten.exec import planner
    monkeypatch.setattr(planner, "JOIN_INTO_MIN_BYTES", 0)
    rng = np.random.default_rng(6)
    a = rng.random((4, 6))
    x = lt.asarray(a)
    k = lt.sin(x)
    shared = lt.concat([k, k * 2.0, lt.cos(x)])           # k is read twice: own buffer
    p = lt.plan(shared)
    (own,) = [st for st in p.kernels if st.into is None]
    assert len(p.kernels) == 3 and "sin" in str(own.node.attrs["program"])
    assert_eq(shared, np.concatenate([np.sin(a), np.sin(a) * 2, np.cos(a)]))
    also_out = lt.concat([k, lt.cos(x)])                  # k is an output too
    p = lt.plan(also_out, k)
    assert [("sin" in str(st.node.attrs["program"])) for st in _into_steps(p)] == [False]
    got = lt.compute(also_out, k)
    np.testing.assert_array_equal(got[0], np.concatenate([np.sin(a), np.cos(a)]))
    np.testing.assert_array_equal(got[1], np.sin(a))
    cols = lt.concat([lt.sin(x), lt.cos(x), x], axis=1)   # strided slices
    assert len(_into_steps(lt.plan(cols))) == 2
    assert_eq(cols, np.concatenate([np.sin(a), np.cos(a), a], axis=1))
    for k, backend in enumerate(("numpy", "numexpr", "auto")):   # numexpr writes strided too
        f = float(k + 2)                                 # (a new graph each time)
        last = lt.stack([lt.sin(x) * f, x * f + 1.0, x], axis=-1)
        with lt.set_options(backend=backend, check=True):
            assert len(_into_steps(lt.plan(last))) == 2
            assert_eq(last, np.stack([np.sin(a) * f, a * f + 1.0, a], axis=-1))
    x = lt.asarray(a.copy())      # (sin(x), cos(x) of the x above, read twice, are kept)
    promoted = lt.concat([lt.sin(x).astype(np.float32), lt.cos(x)])   # float32 operand
    assert len(_into_steps(lt.plan(promoted))) == 1
    assert_eq(promoted, np.concatenate([np.sin(a).astype(np.float32), np.cos(a)]))
    ones = lt.asarray(np.ones((1, 4, 6)))
    x = lt.asarray(a.copy())      # (sin(x), cos(x) of the x above are kept by now)
    lead = lt.concat([lt.sin(x)[None] * ones, lt.cos(x)[None]], axis=1)  # leading 1 axis
    assert len(_into_steps(lt.plan(lead))) == 2
    assert_eq(lead, np.concatenate([np.sin(a)[None], np.cos(a)[None]], axis=1))


# ------------------------------------------------------- kernels into a write's part

def _update_steps(p: Any) -> list[Any]:
    return [s for s in p.steps if s.update is not None]


def test_a_kernel_writes_into_the_part_its_write_writes(engine: dict[str, Any]) -> None:
    # ``v[1:-1, 1:-1] = k(u)``: the kernel writes straight into the part of
    # the write's buffer (the base's own where it dies at the write and the
    # kernel reads none of it, else a copy of the base made first): no
    # buffer of its own, no copy at the write.  A double-buffered stencil's
    # time steps run in two buffers; the user's arrays are never written.
    rng = np.random.default_rng(8)
    U0, V0 = rng.random((300, 400)), rng.random((300, 400))
    U, V = U0.copy(), V0.copy()
    u, v = lt.asarray(U0), lt.asarray(V0)
    kept = U0.copy(), V0.copy()
    for _ in range(4):
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        V[1:-1, 1:-1] = 0.25 * (U[:-2, 1:-1] + U[2:, 1:-1] + U[1:-1, :-2] + U[1:-1, 2:])
        u, v, U, V = v, u, V, U
    if engine["optimize"]:
        p = lt.plan(u)
        ups = _update_steps(p)
        # the first two write into copies of the user's arrays, then in place
        assert [s.inplace_of is not None for s in ups] == [False, False, True, True]
        assert [s.new_buffer for s in ups] == [True, True, False, False]
        assert all(p.steps[s.index + 1].filled and p.steps[s.index + 1].node is s.update[0]
                   for s in ups)
        assert len(p.buffers) == 2 and p.buffer_peak_bytes == 2 * u.nbytes
        text = lt.explain(u)
        assert "b0[1:299, 1:399] (into the write" in text and "(written by its kernel)" in text
    same_bits(u.eval(), U)
    same_bits(v.eval(), V)
    same_bits(U0, kept[0])
    same_bits(V0, kept[1])
    # A copy of the base whose buffer dies there (``t.copy()``): in place.
    w = (lt.asarray(V0) * 2.0).copy()
    w[10:20] = lt.sin(u[:10])
    W = V0 * 2.0
    W[10:20] = np.sin(U[:10])
    same_bits(w.eval(), W)


def test_a_stencil_written_back_runs_in_two_buffers(engine: dict[str, Any]) -> None:
    # ``u[1:-1, 1:-1] = k(u)`` reads the base it writes: the kernel writes
    # into another buffer, where the rest of the base (its border) is copied
    # first; the base's buffer dies at the write and takes the next step's
    # value.  NumPy's bits; a Fortran-ordered base's writes keep its layout
    # (each was copied into it again after the write), a written row along
    # the way too.
    rng = np.random.default_rng(10)
    for order in "CF":
        U0 = np.asarray(rng.random((200, 300)), order=order)
        U = U0.copy(order="K")
        u = lt.asarray(U0)
        for step in range(4):
            u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            U[1:-1, 1:-1] = 0.25 * (U[:-2, 1:-1] + U[2:, 1:-1] + U[1:-1, :-2] + U[1:-1, 2:])
            if step == 1:
                u[-1] = u[0] * 0.5 + 1.0
                U[-1] = U[0] * 0.5 + 1.0
        if engine["optimize"]:
            p = lt.plan(u)
            ups = _update_steps(p)
            # (u[-1]'s kernel reads row 0, apart from the row it writes: in place)
            assert len(ups) == 5 and sum(s.inplace_of is not None for s in ups) == 1
            # (an F array's writes keep its layout: no copy into it after each)
            assert len(p.buffers) == 2 and sum(s.reused is not None for s in ups) == 2
            assert "(into the write" in lt.explain(u)
        got = u.eval()
        same_bits(got, U)
        assert got.flags.f_contiguous == (order == "F")
    # The rest: along each axis, before and after the written range, within
    # the written ranges of the axes before it; None where no blocks are.
    from lazyten.exec import planner
    sl = slice
    x = lt.asarray(np.zeros((5, 6)))
    for index, blocks in [
            ((sl(1, -1), sl(2, None)), [(sl(0, 1),), (sl(4, 5),), (sl(1, 4), sl(0, 2))]),
            ((-2,), [(sl(0, 3),), (sl(4, 5),)]),
            ((sl(None), 0), [(sl(0, 5), sl(1, 6))]),
            ((sl(None, None, 2),), None),
            ((None, sl(1, 2)), None)]:
        y = x.copy()
        y[index] = 1.0
        rest = planner.written_rest(y.node)
        assert rest == blocks, index
        if rest is not None:          # the blocks and the written part cover it once
            cover = np.zeros((5, 6), int)
            for b in rest:
                cover[b] += 1
            cover[index] += 1
            assert (cover == 1).all()


def test_augmented_writes_of_parts_run_in_place(engine: dict[str, Any]) -> None:
    # ``x[i:j] += v`` in a loop over a large array: the view's update writes
    # into the base's dying buffer (it copied the whole array, twice, per
    # write: the update and the write back), its kernel straight into the
    # part it reads element for element, or beside other parts it reads.
    rng = np.random.default_rng(12)
    X0 = rng.random(50_000)
    kept = X0.copy()
    x, X = lt.asarray(X0), X0.copy()
    for m, t in ((lt, x), (np, X)):
        for i in range(0, 40, 4):
            t[i:i + 6] += 1.0
            t[i + 1] *= 2.0                           # one element: a 0-d part
            t[i + 2:i + 4] *= t[i + 20:i + 22]        # beside another part
            t[i + 3:i + 8] -= t[i + 5:i + 10]         # overlapping: NumPy's old values
    if engine["optimize"]:
        p = lt.plan(x)
        ups = _update_steps(p)
        # the first write copies the user's array; x[i+3:i+8]'s kernels, which
        # read their part elsewhere, have buffers of their own (the rest is
        # most of x), which their updates write over x's dying buffer
        assert len(ups) == 30 and sum(s.inplace_of is not None for s in ups) == 29
        writes = [s for s in p.steps if s.node.op.kind == "update"]
        assert len(writes) == 40 and all(s.filled or s.inplace_of is not None
                                         for s in writes)
        assert len(p.buffers) == 2
    same_bits(x.eval(), X)
    same_bits(X0, kept)


def test_kernels_that_cannot_write_into_their_write(monkeypatch: pytest.MonkeyPatch) -> None:
    from lazyten.exec import planner
    monkeypatch.setattr(planner, "JOIN_INTO_MIN_BYTES", 0)
    rng = np.random.default_rng(9)
    A = rng.random((6, 8))
    x = lt.asarray(A)

    def case(write: Callable[[Any, Any], None], updates: int, *also: Any) -> None:
        # ``write(m, t)`` on a computed base, lazyten's and NumPy's
        t = lt.asarray(A) * 2.0
        write(lt, t)
        want = A * 2.0
        write(np, want)
        with lt.set_options(check=True):
            assert len(_update_steps(lt.plan(t, *also))) == updates
            same_bits(t.eval(), want)

    def every_other(m: Any, t: Any) -> None:         # reads the base it would write over,
        t[1:-1:2] = (t[:-2:2] + t[2::2]) * 0.5      # and its rest is no set of blocks
    case(every_other, 0)
    case(lambda m, t: t.__setitem__((slice(1, 3),), m.sin(A[0] if m is np else x[0])), 0)
    case(lambda m, t: t.__setitem__((slice(1, 3),), (x if m is lt else A)[1:3] * 2.0), 1)
    # another dtype (the write casts), a broadcast, a value read twice
    case(lambda m, t: t.__setitem__(2, ((x if m is lt else A)[0] * 3.0).astype(np.float32)), 0)
    k = x[:1] * 5.0
    case(lambda m, t: t.__setitem__((slice(0, 1),), k if m is lt else A[:1] * 5.0), 0, k)
    i8 = lt.asarray(np.arange(48, dtype=np.int8).reshape(6, 8))
    i8[2] = lt.sum(x[0] * 1.5)                      # a float 0-d into int8: NumPy's scalar
    want = np.arange(48, dtype=np.int8).reshape(6, 8)
    want[2] = np.sum(A[0] * 1.5)
    assert not _update_steps(lt.plan(i8))
    same_bits(i8.eval(), want)


def test_join_into_the_callers_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from lazyten.exec import planner
    monkeypatch.setattr(planner, "JOIN_INTO_MIN_BYTES", 0)
    x0 = lt.placeholder((3, 50_000))        # large: the executor, not the generated code
    f = lt.function([x0], lt.stack([lt.sin(x0[0]), lt.cos(x0[1]), x0[2] * 2.0]))
    a = np.random.default_rng(7).random((3, 50_000))
    out = np.empty((3, 50_000))
    got = f(a, out=out)
    assert got is out
    np.testing.assert_array_equal(out, np.stack([np.sin(a[0]), np.cos(a[1]), a[2] * 2.0]))


def test_stacked_kernels_run_blocked() -> None:
    # After pushdown a stack's operand kernels are (1, n): blocks are rows of
    # the first axis, so the leading size-1 axis is dropped for blocking
    # instead of running one unblocked NumPy pass with full-size temporaries.
    n = 400_000
    rng = np.random.default_rng(8)
    a, b, c = rng.random(n), rng.random(n), rng.random(n)
    x, y, z = lt.asarray(a), lt.asarray(b), lt.asarray(c)
    w = 2 * x**2 + 3 * y * z - lt.sin(x) * lt.exp(-y)
    s = lt.stack([w, x * y])
    p = lt.plan(s)
    ks = p.kernels
    # (x * y may be a compiled loop, which runs blocked until compiled)
    assert len(ks) == 2 and all(
        k.kernel.lead == 1 and "blocked" in (k.kernel.backend, k.kernel.fallback)
        for k in ks if k.node.shape == (1, n))
    with lt.set_options(threads=2):
        assert_eq(s, np.stack([2 * a**2 + 3 * b * c - np.sin(a) * np.exp(-b), a * b]))


@pytest.mark.parametrize("case", ["w1", "w3", "plain_sum", "plain"])
def test_plan_peak_counts_kernel_scratch(case: str, monkeypatch: Any) -> None:
    # The estimate memory_limit is held to: buffers plus the running kernel's
    # scratch (blocked: a block per slot and thread; plain: full-size slots),
    # checked against what executing the plan allocates (scratch not kept
    # between runs here: each thread would allocate it once, then reuse it).
    import tracemalloc

    from lazyten.exec import numpy_backend
    from lazyten.exec.optimized import execute
    monkeypatch.setattr(numpy_backend, "HELD_SCRATCH_BYTES", 0)
    n = {"w1": 400_000, "w3": 400_000, "plain_sum": 20_000, "plain": 20_000}[case]
    rng = np.random.default_rng(9)
    a, b, c = (lt.asarray(rng.random(n)) for _ in range(3))
    t = {"w1": 2 * a**2 + 3 * b * c - lt.sin(a) * lt.exp(-b),
         "w3": lt.sum(a * b + c),
         "plain_sum": lt.sum((a - 0.5) * (b + 1.0) + c),
         "plain": (a - 0.5) * (b + 1.0) * c}[case]
    with lt.set_options(threads=2, backend="numpy"):
        p = lt.plan(t)
        (k,) = p.kernels
        assert k.kernel.backend == ("blocked" if n > 100_000 else "numpy")
        assert p.scratch_bytes > 0 and p.peak_bytes == p.buffer_peak_bytes + p.scratch_bytes
        assert (k.node.attrs["reduce"] is not None) == (case in ("w3", "plain_sum"))
        execute(p, 2)                                   # warm: pool threads, imports
        numpy_backend.drop_scratch()
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            execute(p, 2)
            used = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
    # (at least one thread's blocks: the two threads' need not overlap in time;
    # a float sum's blocks are ranges of NumPy's pairwise split, half a block
    # or more: 400,000 elements are 8 ranges of 50,000, where one thread that
    # ran them all while the other slept peaked at 410 KB, not a block)
    share = p.scratch_bytes // (2 if k.kernel.backend == "blocked" else 1)
    if k.kernel.backend == "blocked" and k.node.attrs["reduce"] is not None:
        share //= 2
    assert p.buffer_peak_bytes + share - 64 * 1024 <= used <= p.peak_bytes + 64 * 1024


@st.composite
def _join_programs(draw: st.DrawFn) -> tuple[bool, int, list[tuple[str, tuple[int, ...]]], int]:
    """(stack?, axis, [(operand kind, its shape)], seed): a concat or stack
    of operands of every kind a join meets."""
    ndim = draw(st.integers(1, 3))
    base = draw(hnp.array_shapes(min_dims=ndim, max_dims=ndim, min_side=1, max_side=4))
    stack = draw(st.booleans())
    axis = draw(st.integers(-ndim - 1, ndim) if stack else st.integers(-ndim, ndim - 1))
    kinds = ["sin", "axpy", "input", "view", "cast", "reduce", "shared", "int"]
    ops_: list[tuple[str, tuple[int, ...]]] = []
    for _ in range(draw(st.integers(1, 4))):
        shape = list(base)
        if not stack:
            shape[axis] = draw(st.integers(0, 3))
        ops_.append((draw(st.sampled_from(kinds)), tuple(shape)))
    return stack, axis, ops_, draw(st.integers(0, 2**31))


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_join_programs())
def test_joins_of_any_operands_match_numpy(engine: dict[str, Any],
                                           monkeypatch: pytest.MonkeyPatch,
                                           prog: Any) -> None:
    # Every join takes the into-the-join path here (threshold 0): kernels,
    # inputs, views, casts, keepdims reductions, an operand also returned,
    # integer operands, empty slices, strided slices along any axis.
    from lazyten.exec import planner
    monkeypatch.setattr(planner, "JOIN_INTO_MIN_BYTES", 0)
    stack, axis, operands, seed = prog
    rng = np.random.default_rng(seed)
    lazy: list[Any] = []
    ref: list[Any] = []
    extra: list[tuple[Any, Any]] = []
    for kind, shape in operands:
        if kind == "reduce" and not stack:
            # keepdims over the join axis: size 1 there, from a wider operand
            wide = list(shape)
            wide[axis] = 3
            a = rng.random(wide)
            lazy.append(lt.sum(lt.asarray(a) * 2.0, axis=axis, keepdims=True))
            ref.append(np.sum(a * 2.0, axis=axis, keepdims=True))
            continue
        a = rng.standard_normal(shape)
        x = lt.asarray(a)
        if kind in ("sin", "shared", "reduce"):
            lazy.append(lt.sin(x))
            ref.append(np.sin(a))
            if kind == "shared":
                extra.append((lazy[-1], ref[-1]))
        elif kind == "axpy":
            b = rng.random(shape[-1:])                  # broadcast along the last axis
            lazy.append(x * 2.0 + lt.asarray(b))
            ref.append(a * 2.0 + b)
        elif kind == "input":
            lazy.append(x)
            ref.append(a)
        elif kind == "view":
            lazy.append(x[::-1])
            ref.append(a[::-1])
        elif kind == "cast":
            lazy.append((x * 3.0).astype(np.float32))
            ref.append((a * 3.0).astype(np.float32))
        else:                                           # int: a promoted operand
            ai = rng.integers(-5, 5, shape)
            lazy.append(lt.asarray(ai) * 3)
            ref.append(ai * 3)
    if stack:
        got_t, want = lt.stack(lazy, axis=axis), np.stack(ref, axis=axis)
    else:
        got_t, want = lt.concat(lazy, axis=axis), np.concatenate(ref, axis=axis)
    outs = lt.compute(got_t, *[t for t, _ in extra])
    np.testing.assert_array_equal(outs[0], want)
    assert outs[0].dtype == want.dtype and outs[0].shape == want.shape
    for got, (_, r) in zip(outs[1:], extra):
        np.testing.assert_array_equal(got, r)
    assert_eq(got_t, want)


def test_rewrite_shows_a_rule_only_the_ops_it_names() -> None:
    """``rewrite(only=...)``: the rule sees the named ops' nodes alone (the
    rest are rebuilt on their rewritten inputs), a graph without them comes
    back as it is, and so does one the rule leaves alone."""
    from lazyten.graph.rewrite import rewrite
    from lazyten.graph.ops import REGISTRY
    from lazyten.graph.node import intern
    x = lt.asarray(np.arange(4.0))
    y = lt.sin(x * 2.0 + 1.0) - x
    g = Graph((y.node,))
    seen: list[str] = []

    def rule(n: Any, ins: Any) -> Any:
        seen.append(n.op.name)
        if n.op.name == "add":      # add -> subtract, to see the change carried up
            return intern(REGISTRY["subtract"], ins, {}, n.shape, n.dtype, n.source)
        return None

    out = rewrite(g, rule, only=frozenset({"add", "multiply"}))
    assert sorted(seen) == ["add", "multiply"]
    got = out.outputs[0]
    assert [n.op.name for n in out.nodes() if n.inputs] == \
        ["multiply", "subtract", "sin", "subtract"]
    np.testing.assert_array_equal(lt.compute(lt.Tensor(got))[0],
                                  np.sin(np.arange(4.0) * 2.0 - 1.0) - np.arange(4.0))
    assert rewrite(g, rule, only=frozenset({"cos"})) is g
    assert rewrite(g, lambda n, ins: None, only=frozenset({"sin"})) is g


def test_a_filled_exponent_is_not_a_scalar_one(engine: Any) -> None:
    """``x ** full(s, 0.5)``: NumPy's power loop takes ``sqrt`` for an
    exponent of stride 0 only, so a filled array stays an array there
    (``(-inf) ** 0.5`` is ``inf`` by ``pow``, NaN by ``sqrt``)."""
    x = np.array([-np.inf, -0.0, 4.0, 2.0])
    for v in (0.5, -1.0, 2.0, 1.0):
        for dt in (np.float64, np.float32):
            xs = x.astype(dt)
            with np.errstate(all="ignore"):
                expected = np.power(xs, np.full(4, v, dt))
                for _ in range(2):                # (the cached plan's fast path too)
                    same_bits(lt.power(lt.asarray(xs), lt.full(4, v, dt)).eval(), expected)
                    same_bits((lt.asarray(xs) ** lt.full_like(lt.asarray(xs), v)).eval(),
                              expected)


def test_views_a_sum_over_several_axes_reads_stay_where_numpy_has_them(engine: Any) -> None:
    """NumPy sums a strided or reversed view in its memory layout (rows
    pairwise, added one after the other); pushed into the operands, the view
    would be a contiguous array summed in one pairwise run: other bits.  So
    such views stay; over one axis, or for order-free reductions, they sink."""
    rng = np.random.default_rng(8)
    x = rng.standard_normal((300, 200))
    f32 = rng.random((3000, 40)).astype(np.float32)[::-1]
    X, F = lt.asarray(x), lt.asarray(f32)
    cases: list[Callable[[Any, Any], Any]] = [
        lambda m, a: (a * 1.5)[::2].sum(), lambda m, a: m.flip(a * 1.5, 1).mean(),
        lambda m, a: m.sin(a)[:, 1:].sum(), lambda m, a: (a * 1.5)[:, ::2].T.sum(),
        lambda m, a: (a * 1.5)[::-1].sum(keepdims=True), lambda m, a: (a * 1.5)[:, :37].std(),
        lambda m, a: m.stack([a * 1, a * 2], -1)[..., 0].sum(),
        lambda m, a: m.nansum((a * 2)[::2]), lambda m, a: (a * 3)[::3].prod(axis=(0, 1))]
    for f in cases:
        for n, t in ((x, X), (f32, F)):
            with np.errstate(all="ignore"):
                same_bits(lt.compute(f(lt, t))[0], f(np, n))
    # over all axes the slice stays on the product; over one it still sinks
    # to the input (half the elements computed)
    with lt.set_options(optimize=True):
        assert "-> view of b0" in lt.explain((X * 1.5)[::2].sum())
        assert "-> view of input" in lt.explain((X * 1.5)[::2].sum(axis=1))


def test_views_stay_above_complex_abs_whose_loop_depends_on_strides(engine: Any) -> None:
    """NumPy's complex ``abs`` runs one loop on positive strides and another
    on negative ones (other last bits): a slice or gather is not pushed into
    its operand, whose strides it would change."""
    rs = np.random.RandomState(0)
    base = (rs.randn(64) + 1j * rs.randn(64)) * 5
    idx = np.arange(0, 64, 3)
    for x in (base, base[::-1], base.astype(np.complex64)[::-1]):
        t = lt.asarray(x)
        for f in (lambda m, a: m.abs(a)[idx], lambda m, a: m.abs(a)[::-1],
                  lambda m, a: m.abs(a * 2)[::-2], lambda m, a: (m.abs(a) + 1)[1::3]):
            same_bits(lt.compute(f(lt, t))[0], f(np, x))


SIGN_CASES = [
    ("arccos(x)[::-1]", lambda m, a: m.arccos(a)[::-1]),
    ("arccos((x*1)[::-1])", lambda m, a: m.arccos((a * 1)[::-1])),
    ("arccos((x[::-1]*1)[::-1])", lambda m, a: m.arccos((a[::-1] * 1)[::-1])),
    ("log(x+2)[::-2]", lambda m, a: m.log(a + 2)[::-2]),
    ("exp(x[::-1])[idx]", lambda m, a: m.exp(a[::-1])[np.arange(0, a.size, 3)]),
    ("arctan2(x, x+1)[::-1]", lambda m, a: m.arctan2(a, a + 1)[::-1]),
    ("(|x|**1.7)[::-1]", lambda m, a: (abs(a) ** 1.7)[::-1]),
    ("flip(exp(x*2))", lambda m, a: m.flip(m.exp(a * 2))),
    ("tan(x)[::-1][:100]", lambda m, a: m.tan(a)[::-1][:100]),
    # BLAS's dot of two reversed vectors (negative increments) sums otherwise
    ("dot((x*1)[::-1], (x*2)[::-1])", lambda m, a: m.dot((a * 1)[::-1], (a * 2)[::-1])),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f4", "f8"])
@pytest.mark.parametrize("name,f", SIGN_CASES, ids=[c[0] for c in SIGN_CASES])
def test_reversed_views_stay_where_numpys_loop_reads_the_strides_sign(
        engine: Any, dtype: Any, name: str, f: Any) -> None:
    """NumPy's SIMD loops for exp, log, arccos, arctan2, power, ... run on
    positive strides, a scalar loop on negative ones (other bits on AVX-512):
    a reversing view is neither pushed into nor out of such an op's operand.
    A slice of positive step still sinks (a summarized print computes only
    the corners)."""
    x = (np.random.default_rng(0).random(4096) * 1.8 - 0.9).astype(dtype)
    same_bits(lt.compute(f(lt, lt.asarray(x)))[0], f(np, x))


HALF_CASES = [
    ("arcsin(x)[::3]", lambda m, a: m.arcsin(a)[::3]),
    ("arccos(x)[1::3]", lambda m, a: m.arccos(a)[1::3]),
    ("log10(x)[::3]", lambda m, a: m.log10(a)[::3]),
    ("cbrt(x)[::3]", lambda m, a: m.cbrt(a)[::3]),
    ("cbrt(x*2)[1::2]", lambda m, a: m.cbrt(a * 2)[1::2]),
    ("tan(x)[idx]", lambda m, a: m.tan(a)[np.arange(0, a.size, 5)]),
]


@pytest.mark.parametrize("name,f", HALF_CASES, ids=[c[0] for c in HALF_CASES])
def test_no_view_sinks_into_float16s_simd_functions(engine: Any, name: str, f: Any) -> None:
    """NumPy's float16 cos, arcsin, cbrt, ... (AVX-512's half-precision
    loops) run on contiguous operands only, a scalar float32 loop on any
    other: ``cbrt(x)[::3]`` computed as ``cbrt(x[::3])`` was a last bit off
    (-1.385 for -1.386; arcsin's and log10's NaNs had other signs, which
    ``same_bits`` leaves alone)."""
    x = np.concatenate([np.linspace(-3, 3, 6000), np.full(300, -2.658)]).astype(np.float16)
    with np.errstate(all="ignore"):
        want = f(np, x)
        for tiny in (0, 4096):
            with lt.set_options(tiny_elements=tiny):
                same_bits(lt.compute(f(lt, lt.asarray(x)))[0], want)


@pytest.mark.parametrize("f", [lambda m, a, b: (a * b)[::-1], lambda m, a, b: m.flip(a * b),
                               lambda m, a, b: m.square(a)[::-2],
                               lambda m, a, b: (a * b)[np.arange(0, a.size, 3)]])
def test_reversed_views_stay_above_complex64_products(engine: Any, f: Any) -> None:
    """complex64 ``multiply`` and ``square`` (as complex ``abs``) give other
    bits on negative strides."""
    rng = np.random.default_rng(0)
    a, b = ((rng.normal(size=6000) + 1j * rng.normal(size=6000)).astype(np.complex64)
            for _ in range(2))
    same_bits(lt.compute(f(lt, lt.asarray(a), lt.asarray(b)))[0], f(np, a, b))


def test_positive_slices_still_sink_into_sign_dependent_ops() -> None:
    big = lt.asarray(np.random.default_rng(1).random((3000, 3000)))
    with lt.set_options(optimize=True):
        text = lt.explain(lt.exp(big)[:3, :3])
    assert "peak estimate 72 B" in text


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint32, np.bool_,
                                   np.complex64], ids=lambda d: np.dtype(d).name)
def test_views_sink_through_casts_except_float_to_int(engine: Any, dtype: Any) -> None:
    """A cast between floats (or to bool) is the same per element in any
    layout, so a slice sinks through it (printing ``x.astype(float32)``
    computes its corners); a float to integer cast out of range is not
    (NumPy's contiguous and strided loops differ for 1e20 to uint32)."""
    rng = np.random.default_rng(0)
    x = rng.random(5000) * 1e10 - 5e9
    x[::7] = np.nan
    for f in (lambda m, a: m.sin(a).astype(dtype)[::-3],
              lambda m, a: (a * 2).astype(dtype)[5:100],
              lambda m, a: (a * 1).astype(dtype)[np.arange(0, 5000, 7)]):
        with np.errstate(all="ignore"):
            want = f(np, x)
            got = lt.compute(f(lt, lt.asarray(x)))[0]
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_a_summarized_print_of_a_float_cast_computes_its_corners() -> None:
    big = lt.asarray(np.random.default_rng(0).random((3000, 3000)))
    with lt.set_options(optimize=True):
        assert "peak estimate 108 B" in lt.explain(lt.sin(big).astype(np.float32)[:3, :3])


@pytest.mark.parametrize("make", [
    lambda x: abs(x.astype(np.complex128) * 1j + 1),      # complex abs: stride-dependent
    lambda x: (x * 2.5).astype(np.int32),                   # float -> int: a layout cast
    lambda x: lt.exp(x * 0.5)])                             # a stride-sign op
def test_views_sink_past_operands_with_cached_values(make: Any) -> None:
    """A view pushed down stops at an operand whose value is cached (a
    leaf: ``executor.cache`` dropped its inputs, which pushdown's tests of
    the op read: an IndexError, found by fuzz_long)."""
    a = np.linspace(-2.0, 3.0, 7)
    x = lt.asarray(a)
    inner = make(x)
    inner.eval()                                            # cached: a leaf now
    for view in (lambda t: (t + 1)[::-1], lambda t: (t * 2)[1:5:2], lambda t: (t - 1).T):
        got = view(inner).eval()
        want = view(np.asarray(make(a)))                  # (lt.exp of an ndarray: a tensor)
        np.testing.assert_array_equal(got, want, strict=True)
