"""Kernels over transposed and Fortran-ordered operands run in their memory
order (``lazyten.exec.layout``): results laid out as NumPy's ufuncs lay them
out, sums added in NumPy's order over that layout, on every path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyten as lt
from lazyten.exec import loop_backend
from lazyten.exec.layout import program_order
from lazyten.graph import layout as L
from lazyten.graph.layout import memory_order

from tests.util import assert_eq, finishes_in_child, same_bits

needs_numba = pytest.mark.skipif(not loop_backend.available(), reason="numba not installed")


def same_layout(got: np.ndarray[Any, Any], exp: np.ndarray[Any, Any]) -> None:
    """Equal strides on every axis longer than 1 (the others' do not matter)."""
    assert [s for s, d in zip(got.strides, got.shape) if d > 1] == \
        [s for s, d in zip(exp.strides, exp.shape) if d > 1], (got.strides, exp.strides)


@st.composite
def operand(draw: st.DrawFn, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """An array of ``shape`` (or broadcastable to it) in any layout: its axes
    permuted, stepped, reversed, some of them length 1 or dropped."""
    nd = len(shape)
    perm = draw(st.permutations(range(nd)))
    steps = [draw(st.sampled_from([1, 2, -1])) for _ in range(nd)]
    base = np.zeros(tuple(shape[i] * abs(steps[i]) for i in perm))
    v = base[tuple(slice(None, None, steps[i]) for i in perm)]
    v = v[tuple(slice(0, shape[i]) for i in perm)].transpose(np.argsort(perm))
    if draw(st.booleans()):
        v = v[tuple(slice(0, 1) if draw(st.integers(0, 2)) == 0 else slice(None)
                    for _ in range(nd))]
    if nd > 1 and draw(st.integers(0, 4)) == 0:
        v = v[(0,) * draw(st.integers(1, nd - 1))]
    return v


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_memory_order_is_numpys(data: st.DataObject) -> None:
    """The layout NumPy's ufuncs give their results, on random layouts."""
    nd = data.draw(st.integers(1, 4), label="ndim")
    shape = tuple(data.draw(st.lists(st.sampled_from([1, 2, 3, 5]), min_size=nd, max_size=nd)))
    ops = [data.draw(operand(shape)) for _ in range(data.draw(st.integers(1, 2)))]
    res = np.add(*ops) if len(ops) > 1 else np.negative(ops[0])
    axes = memory_order(ops, res.shape) or tuple(range(res.ndim))
    want = np.empty([res.shape[a] for a in axes]).transpose(np.argsort(axes))
    same_layout(res, want)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_kernels_order_is_numpys_ops_one_by_one(data: st.DataObject) -> None:
    """``program_order``: the layout NumPy gives a chain of ops run one by
    one (each ufunc by its iterator's rule over its operands, ``astype``
    as its "K" copy), on random layouts, broadcasts among them: the fused
    kernel's result is laid out so, and a sum over it adds in that order."""
    nd = data.draw(st.integers(2, 4), label="ndim")
    shape = tuple(data.draw(st.lists(st.sampled_from([1, 2, 3, 5]), min_size=nd, max_size=nd)))
    args = []
    for _ in range(data.draw(st.integers(1, 3))):
        v = data.draw(operand(shape))
        if data.draw(st.integers(0, 3)) == 0:
            v = np.broadcast_to(v, shape)
        args.append(v)
    program, vals = [], []
    for _ in range(data.draw(st.integers(1, 4))):
        x = data.draw(st.sampled_from([-1 - k for k in range(len(vals))]
                                      + list(range(len(args)))))
        xv = vals[-1 - x] if x < 0 else args[x]
        op = data.draw(st.sampled_from(["add", "negative", "astype"]))
        if op == "add":
            y = data.draw(st.integers(0, len(args) - 1))
            res = np.add(xv, args[y])
            program.append(("add", (x, y), (), res.dtype))
        elif op == "negative":
            res = np.negative(xv)
            program.append(("negative", (x,), (), res.dtype))
        else:
            res = xv.astype(np.float32)
            program.append(("astype", (x,), (("dtype", np.dtype(np.float32)),), res.dtype))
        vals.append(res)
    res = np.asarray(vals[-1])
    if res.shape != shape:
        return                       # (the kernel's shape: all of its operands')
    axes = program_order(tuple(program), args) or tuple(range(nd))
    want = np.empty([res.shape[a] for a in axes], res.dtype).transpose(np.argsort(axes))
    same_layout(res, want)


def test_inferring_an_expression_of_c_arrays_makes_no_stand_ins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``eval`` infers its result's layout (NumPy's, which it keeps): over
    C-ordered operands, broadcast ones among them, every elementwise result
    is C without replaying NumPy's rule on stand-in arrays (5 us each: W1
    over (100, 100) arrays spent 100 us of its 250 there, at every eval of
    a new graph).  Where an operand is not C the rule runs, and gives
    NumPy's layout."""
    made = []
    real = L.layout_stand_in
    monkeypatch.setattr(L, "layout_stand_in", lambda *a, **k: made.append(a) or real(*a, **k))
    rng = np.random.default_rng(0)
    a, b, c = rng.random((40, 30)), rng.random((40, 30)), rng.random((1, 30))
    for x in (a, np.asfortranarray(a), a.T.copy().T):
        A, B, C = lt.asarray(x), lt.asarray(b), lt.asarray(c)
        t = 2 * A**2 + 3 * B * C - lt.sin(A) * lt.exp(-B)
        made.clear()
        layout, known = L.infer(t.node)
        assert (len(made) == 0) == x.flags.c_contiguous, len(made)
        want = 2 * x**2 + 3 * b * c - np.sin(x) * np.exp(-b)
        assert known
        assert real(want.shape, want.dtype, layout).strides == want.strides


A = np.random.default_rng(1).standard_normal((300, 400))
F = np.asfortranarray(A)
P = np.transpose(np.random.default_rng(2).standard_normal((20, 30, 40)), (2, 0, 1))
ELEMENTWISE = {
    "a.T * 2 + 1": (lambda m, a, p: a.T * 2 + 1),
    "f * f - 3": (lambda m, a, p: np.asfortranarray(a) * np.asfortranarray(a) - 3
                  if m is np else m.asarray(F) * m.asarray(F) - 3),
    "sin(a.T) * a.T": (lambda m, a, p: m.sin(a.T) * a.T),
    "a.T * row": (lambda m, a, p: a.T * a[:, 0]),
    "a.T * col": (lambda m, a, p: a.T * a[0][:, None]),
    "3-d permuted": (lambda m, a, p: m.sqrt(m.abs(p)) + p * 2),
    "a.T < 0.5 where": (lambda m, a, p: m.where(a.T < 0.5, a.T, -a.T)),
    "float32": (lambda m, a, p: a.T.astype(np.float32) * np.float32(3)),
    # no operand has the result's shape: the broadcast ones lay it out
    "a.T[:, None] - a.T[None]": (lambda m, a, p: a[:30, :40].T[:, None, :] -
                                 a[30:60, :40].T[None, :, :] * 2),
}


def _inputs(m: Any) -> tuple[Any, Any]:
    return (A, P) if m is np else (lt.asarray(A), lt.asarray(P))


@pytest.mark.parametrize("backend", ["auto", "numpy", "numexpr", "loop"])
@pytest.mark.parametrize("case", list(ELEMENTWISE))
def test_elementwise_results_are_laid_out_as_numpys(case: str, backend: str) -> None:
    fn = ELEMENTWISE[case]
    exp = fn(np, *_inputs(np))
    with lt.set_options(backend=backend, check=True):
        for _ in range(3):       # the executor, then the cached plan's fast path
            got = lt.compute(fn(lt, *_inputs(lt)))[0]
            same_bits(got, exp)
            same_layout(got, exp)
            # A new result owns its memory, as NumPy's: no copy on the way out.
            assert got.base is None
    with lt.set_options(optimize=False):
        same_layout(lt.compute(fn(lt, *_inputs(lt)))[0], exp)


@needs_numba
@pytest.mark.parametrize("case,mode", [
    ("a.T * 2 + 1", "ew"),
    ("a.T * row", "ew2"),                # the row is a column of the permuted axes
    ("a.T * col", "ew2"),
    ("(a.T + 1).sum()", "sum"),
    ("(a.T + 1).sum(0)", "rows"),        # innermost in memory: a pairwise sum a row
    ("(a.T + 1).sum(1)", "cols"),        # outermost: row after row
])
def test_transposed_operands_run_the_compiled_loop_of_their_memory_order(
        monkeypatch: Any, case: str, mode: str) -> None:
    ran: list[str] = []
    real = loop_backend.run

    def spy(fn: Any, form: loop_backend.LoopForm, *args: Any) -> int | None:
        done = real(fn, form, *args)
        ran.append(form.mode if done is not None else "fallback")
        return done
    monkeypatch.setattr(loop_backend, "run", spy)
    fns = {"a.T * 2 + 1": lambda x: x.T * 2 + 1,
           "a.T * row": lambda x: x.T * x[:, 0],
           "a.T * col": lambda x: x.T * x[0][:, None],
           "(a.T + 1).sum()": lambda x: (x.T + 1).sum(),
           "(a.T + 1).sum(0)": lambda x: (x.T + 1).sum(axis=0),
           "(a.T + 1).sum(1)": lambda x: (x.T + 1).sum(axis=1)}
    fn = fns[case]
    with lt.set_options(backend="loop"):
        got = fn(lt.asarray(A)).eval()
    assert ran == [mode]
    exp = fn(A)
    same_bits(got, exp)
    same_layout(got, exp)


REDUCTIONS = {
    "sum()": (lambda x: (x * 2 + 1).sum()),
    # (axis 0 is innermost in memory in all three layouts: pairwise sums;
    # axis 1 is not: NumPy adds row after row, blocks fold their partials)
    "sum(0)": (lambda x: (x * 2 + 1).sum(axis=0)),
    "sum(1)": (lambda x: (x * 2 + 1).sum(axis=1)),
    "sum(0) keepdims": (lambda x: (x * 2 + 1).sum(axis=0, keepdims=True)),
    "max(1)": (lambda x: (x * 3 - 1).max(axis=1)),
    "mean()": (lambda x: (x * x).mean()),
}


@pytest.mark.parametrize("backend", ["auto", "numpy", "loop"])
@pytest.mark.parametrize("case", list(REDUCTIONS))
@pytest.mark.parametrize("layout", ["transposed", "fortran", "3-d permuted"])
def test_reductions_add_in_numpys_order(case: str, layout: str, backend: str) -> None:
    """NumPy adds up its elementwise value in that value's memory order: so
    does the kernel, on every path (the compiled loops of the permuted
    axes, the blocked loop: pairwise sums over the axes innermost in memory
    and over every axis, blocks taking turns over the outermost ones;
    plain NumPy)."""
    fn = REDUCTIONS[case]
    arr = {"transposed": A.T, "fortran": F, "3-d permuted": P}[layout]
    exp = fn(arr)
    with lt.set_options(backend=backend, check=True):
        for _ in range(3):
            same_bits(lt.compute(fn(lt.asarray(arr)))[0], exp)


@pytest.mark.parametrize("backend", ["auto", "numpy", "loop"])
def test_a_reduction_of_broadcast_operands_adds_in_their_layouts_order(backend: str) -> None:
    """Pairwise squared distances of transposed points: no operand has the
    kernel's shape, yet their layouts make the last axis outermost in
    NumPy's temporary, which NumPy's sum then adds row after row (not
    pairwise): so does the kernel, also from a small plan's generated code
    (the cached plan's fast path), which ran such a kernel in C order
    whatever its operands' layouts (other bits, other strides)."""
    rng = np.random.default_rng(4)
    for n, m in ((30, 20), (6, 5)):
        Pt, Qt = rng.standard_normal((16, n)), rng.standard_normal((16, m))
        for pn, qn in [(Pt.T, Qt.T), (np.asfortranarray(Pt.T), Qt.T), (Pt.T, Qt.T.copy())]:
            diff = pn[:, None, :] - qn[None, :, :]
            for check in (True, False):
                with lt.set_options(backend=backend, check=check):
                    for _ in range(3):
                        p, q = lt.asarray(pn), lt.asarray(qn)
                        same_bits(lt.compute(((p[:, None, :] - q[None, :, :])**2).sum(-1))[0],
                                  (diff**2).sum(-1))
                        got = lt.compute(p[:, None, :] - q[None, :, :])[0]
                        assert got.strides == diff.strides, (got.strides, diff.strides)


@pytest.mark.parametrize("backend", ["auto", "numpy", "loop"])
def test_a_sum_over_an_astype_of_a_broadcast_adds_in_numpys_order(backend: str) -> None:
    """NumPy's ``astype`` copies in "K" order, broadcast axes innermost
    (``np.broadcast_to(b, (4, 3, 3)).astype(int)`` has strides (24, 8, 96)),
    where a ufunc lays its result over a broadcast out C; a float sum over
    it adds in that order.  A kernel holding the astype laid it out as a
    ufunc's (a std's last bit: the layout fuzzer's find, seed 13094), on
    every path but node by node."""
    row = np.random.default_rng(5).standard_normal((1, 7, 1, 5)).astype(np.float32)

    def cases(m: Any, x: Any) -> list[Any]:
        b = m.broadcast_to(x, (6, 7, 4, 5)).astype(np.float64)
        return [(b * 1.1).sum(axis=(0, 2)), (b * 1.1).sum(axis=(0, 1, 3)),
                b.std(axis=(0, 2, 3)), m.exp(b[..., None] * 0.1).std(axis=(4, 0, 2))]
    want = cases(np, row)
    # (the same sums over a C-ordered copy differ in their last bits)
    in_c = cases(np, np.ascontiguousarray(np.broadcast_to(row, (6, 7, 4, 5))))
    assert not any(np.array_equal(w, c) for w, c in zip(want, in_c))
    with lt.set_options(backend=backend):
        for _ in range(3):      # node by node, planned, from the plan cache
            for got, exp in zip(lt.compute(*cases(lt, lt.asarray(row))), want):
                same_bits(got, exp)
    # the kernel lays the astype's result out as NumPy's: no copy after it
    b = np.broadcast_to(row, (6, 7, 4, 5))
    with lt.set_options(backend=backend):
        for _ in range(3):
            same_layout(lt.compute(lt.asarray(b).astype(np.float64) * 2)[0],
                        b.astype(np.float64) * 2)


def test_a_reduction_of_an_empty_operand_is_ordered_by_its_strides_as_numpys(
        engine: Any) -> None:
    """NumPy orders a reduction's result by its operand's strides, an empty
    one's too: ``np.zeros((0, 4, 3))``'s are all 0, so its transpose's
    reductions are C (lazyten took it as a C array, whose transpose is F: a
    layout fuzzer's find, ``x.T.std(axis=-1)``), where the same shape made
    by a reshape has C strides and its transpose's results are F."""
    def flags(v: Any) -> tuple[bool, bool]:
        return v.flags.c_contiguous, v.flags.f_contiguous
    cases = []
    for shape in ((0, 4, 3), (2, 4, 0), (2, 0, 3), (5, 4, 3)):
        cases += [np.zeros(shape, np.float32),
                  np.zeros(int(np.prod(shape)), np.float32).reshape(shape)]
    for x in cases:
        for name in ("sum", "mean", "std", "prod", "all"):
            for axis in (0, 1, 2, (0, 1)):
                for keep in (False, True):
                    with np.errstate(all="ignore"):
                        want = getattr(x.T, name)(axis=axis, keepdims=keep)
                        t = getattr(lt.asarray(x).T, name)(axis=axis, keepdims=keep)
                        got = t.eval()
                        assert_eq(t, want)
                        case = (x.shape, x.strides, name, axis, keep)
                        assert flags(got) == flags(want), case
                        assert flags(lt.compute(t)[0]) == flags(want), case


def test_a_small_plain_reduction_is_numpys_on_any_axis() -> None:
    """Plain NumPy reduces a temporary laid out as NumPy's own would be."""
    arr = np.asfortranarray(np.random.default_rng(3).standard_normal((60, 70)))
    for axis in (0, 1, None):
        with lt.set_options(backend="numpy"):
            for _ in range(3):
                same_bits(lt.compute((lt.asarray(arr) * 2 + 1).sum(axis=axis))[0],
                          (arr * 2 + 1).sum(axis=axis))


def test_chains_of_kernels_keep_the_layout_and_reuse_buffers() -> None:
    """Fortran-ordered intermediates feed later kernels (in place, or in
    dead buffers): values and layout stay NumPy's."""
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((2, 200, 300))
    la, lb = lt.asarray(a), lt.asarray(b)

    def prog(m: Any, x: Any, y: Any) -> Any:
        t = m.sin(x.T) * 2                      # Fortran-ordered
        s = (t * t).sum(axis=0)                 # a reduction reads it...
        u = m.exp(t - s)                        # ...and a kernel after it
        v = (u + y.T).cumsum(axis=1)            # a NumPy step on a kernel's result
        return v * 2 + u
    exp = prog(np, a, b)
    for backend in ("auto", "numpy", "loop"):
        with lt.set_options(backend=backend, check=True):
            for _ in range(2):
                got = lt.compute(prog(lt, la, lb))[0]
                assert_eq(got, exp)
                same_layout(got, exp)


def test_the_callers_out_keeps_its_layout() -> None:
    """A compiled function's ``out=``: C order where the caller's array is,
    whatever the operands' layout."""
    f = lt.jit(lambda x: x.T * 2 + 1)
    out = np.empty((400, 300))
    res = f(A, out=out)
    assert res is out and out.flags.c_contiguous
    same_bits(out, A.T * 2 + 1)
    fout = np.empty((400, 300), order="F")
    assert f(A, out=fout) is fout
    same_bits(fout, A.T * 2 + 1)


@pytest.mark.parametrize("make", [
    lambda m, a: a.T * 2, lambda m, a: m.asfortranarray(a) + 1, lambda m, a: a * 2,
    lambda m, a: (a.T * 2)[::2], lambda m, a: m.exp(a.T) * a.T + 1],
    ids=["transposed", "fortran", "c", "strided", "fused"])
def test_writes_through_reshapes_of_computed_results_are_numpys(engine: Any, make: Any) -> None:
    """A computed result's layout is NumPy's (``a.T * 2`` is
    Fortran-ordered), so its ``reshape(-1)`` is a copy where NumPy's is, and
    ``.T.reshape(-1)`` a view: a write through the first stays its own, the
    second reaches the result; ``copy=False`` answers as NumPy's.  (The
    write computes the result to learn its layout.  The first was refused
    when evaluated, the result with it; the second's write was lost.)"""
    a = A[:4, :6]
    for settled in (False, True):
        y, yn = make(lt, lt.asarray(a)), make(np, a)
        if settled:
            y.eval()
        r, rn = y.reshape(-1), yn.reshape(-1)
        s, sn = y.T.reshape(-1), yn.T.reshape(-1)
        r[0] = 100.0
        rn[0] = 100.0
        s[1] = -5.0
        sn[1] = -5.0
        assert_eq(r, rn)
        assert_eq(s, sn)
        assert_eq(y, yn)
        # a read after the result is written: a copy keeps its values
        y, yn = make(lt, lt.asarray(a)), make(np, a)
        r, rn, s, sn = y.reshape(-1), yn.reshape(-1), y.T.reshape(-1), yn.T.reshape(-1)
        if settled:                          # (np.shares_memory computes y)
            assert np.shares_memory(r, y) == np.shares_memory(rn, yn)
            assert np.shares_memory(s, y) == np.shares_memory(sn, yn)
        y[0, 1] = 7.0
        yn[0, 1] = 7.0
        assert_eq(r, rn)
        assert_eq(s, sn)
        for f in (lambda v: v.reshape(-1, copy=False), lambda v: v.T.reshape(-1, copy=False)):
            z, zn = make(lt, lt.asarray(a)), make(np, a)
            try:
                f(zn)
            except ValueError:
                with pytest.raises(ValueError, match="avoid creating a copy"):
                    f(z)
            else:
                assert_eq(f(z), f(zn))


def test_writes_through_reshapes_compute_only_results_of_unknown_layout() -> None:
    """An elementwise result's layout follows its operands' by NumPy's
    iterator rule (C operands, a slice with steps too: C; a transpose: F),
    known without computing it: a write through its reshape leaves it
    lazy.  Only a result of an op whose layout is learnt when it runs
    (``tril`` of a transpose) is computed to learn it."""
    a = A[:4, :6]
    for make, computed in ((lambda m, x: x * 2 + x, False),
                           (lambda m, x: (x + 1) * m.zeros(6), False),
                           (lambda m, x: x.T * 2, False), (lambda m, x: x[:, ::2] + 1, False),
                           (lambda m, x: np.tril(x.T), True)):
        y, yn = make(lt, lt.asarray(a)), make(np, a)
        before = y._node
        y.reshape(-1)[1] = 5.0
        yn.reshape(-1)[1] = 5.0
        assert (before.value is not None) == computed
        assert_eq(y, yn)
    # A matrix product is C (NumPy's, whatever the operands' layouts): a
    # whole write over it needs not compute it to keep its layout
    p = lt.asarray(np.asfortranarray(a)) @ lt.asarray(a.T.copy())
    before = p._node
    p[...] = 0.0
    p.reshape(-1)[2] = 1.0
    assert before.value is None
    assert_eq(p, np.eye(1, 16, 2).reshape(4, 4))


def test_a_loop_of_results_written_through_reshapes_stays_linear() -> None:
    """``y = y * 0.5 + 1; y.reshape(-1)[i] = i`` in a loop: the layout walk
    looked at each level's write twice (2**N steps: 50 iterations ran for
    minutes).  In a child process, so a regression fails instead of hanging."""
    script = (
        "import numpy as np, lazyten as lt\n"
        "x0 = np.arange(12.0).reshape(3, 4)\n"
        "y, n = lt.asarray(x0), x0.copy()\n"
        "for i in range(300):\n"
        "    y = y * 0.5 + 1\n"
        "    n = n * 0.5 + 1\n"
        "    y.reshape(-1)[i % 12] = i\n"
        "    n.reshape(-1)[i % 12] = i\n"
        "    z = y * y + y\n"
        "    z.reshape(-1)[0] = 1\n"
        "np.testing.assert_array_equal(np.asarray(y), n)\n"
        "print('done')\n")
    finishes_in_child(script)


def _copying_reshape_views(m: Any, a: Any) -> Any:
    y = a.T * 2
    r = y.reshape(-1)
    v = r[2:5]
    v[0] = -1.0                          # (through a view of the copy: reaches it)
    w = r.reshape(2, -1)
    r[3] = -2.0                          # (seen by the views taken before)
    w[1, 0] += 5.0
    return [r, v, w, y]


def _two_copying_reshapes(m: Any, a: Any) -> Any:
    y = a.T * 2
    r = y.reshape(2, 6)
    s = r.T.reshape(-1)                  # (a copy of a copy: both copy)
    s[0] = 100.0
    return [s, r, y]


def _whole_write_then_reshape(m: Any, a: Any) -> Any:
    y = a.T * 2
    y[...] = 7.0                         # (in place: y keeps its layout)
    r = y.reshape(-1)
    y[0, 0] = 190.0
    z = a.T * 2
    m.copyto(z, 7.0)
    s = z.reshape(-1)
    s[0] = 1.0
    return [r, y, z, s]


def _long_write_chain(m: Any, a: Any) -> Any:
    y = a.T * 2
    for i in range(70):
        y[i % 4, 0] = i
    r = y.reshape(-1)
    r[1] = -5.0
    return [y, r]


def _copies_of_views(m: Any, a: Any) -> Any:
    y = m.copy(a.T)
    y.reshape(-1)[0] = 5.0
    z = m.tile(a.T, (1, 1))
    q = z.reshape(-1)
    q[0] = 5.0
    return [y, z, q]


def _ravel_and_order_a(m: Any, a: Any) -> Any:
    y = a.T * 2
    r = y.T.ravel()
    r *= 2                               # (NumPy's ravel of C data: a view)
    return [y, r, (a.T * 2).reshape(-1, order="A")]


def _reshape_of_a_view_settled_since(m: Any, a: Any) -> Any:
    y = a.T * 2
    r = y.reshape(-1)                    # (to NumPy a copy: y is F)
    np.asarray(y)                        # (y's layout known from here)
    s = r.reshape(4, 3)                  # (a view of the copy r)
    q = r.ravel()
    r[0] = 5.0
    return [y, r, s, q]


@pytest.mark.parametrize("scenario", [_copying_reshape_views, _two_copying_reshapes,
                                      _whole_write_then_reshape, _reshape_of_a_view_settled_since,
                                      _long_write_chain, _copies_of_views, _ravel_and_order_a])
def test_views_of_computed_results_follow_numpys_layouts(engine: Any, scenario: Any) -> None:
    """Views of a reshape that copies share the copy (they were views of
    the root, each writing alone); a whole write keeps the written result's
    layout; a long chain of writes, a copy of a view, ``ravel`` and
    ``reshape(order="A")`` read the real layout (they took C: wrong values,
    or a write refused when evaluated and the result with it)."""
    a = np.arange(12.0).reshape(3, 4)
    got, want = scenario(lt, lt.asarray(a)), scenario(np, a.copy())
    for g, w in zip(got, want):
        assert_eq(g, w)
    y = a.T * 2
    t = lt.asarray(a).T * 2
    r, rn = t.reshape(-1), y.reshape(-1)
    for p, q in ((t, r), (r, t), (r, r), (r, r[2:5])):
        pn, qn = (y if p is t else rn), (y if q is t else rn if q is r else rn[2:5])
        assert np.shares_memory(p, q) == np.shares_memory(pn, qn)


def test_a_flatten_computed_already_is_sliced() -> None:
    """``r = (x * 2).ravel("K")`` evaluated, then a slice of it: the
    flatten node is a leaf then (its inputs dropped); the pass read its
    input (IndexError)."""
    a = np.arange(12.0).reshape(3, 4)
    for order in ("K", "A"):
        r = (lt.asarray(a) * 2).ravel(order)
        e = r[1:3]
        np.asarray(r)
        assert_eq(e, (a * 2).ravel(order)[1:3])


def test_writes_through_reshapes_in_traced_functions() -> None:
    """In a function being traced the result has no value to learn its
    layout from: taken as C, as when built (the write is not refused)."""
    x = lt.placeholder((3, 4), "float64", name="x")
    y = x * 2
    r = y.reshape(-1)
    r[0] = 100.0
    f = lt.function([x], y)
    want = np.full((3, 4), 2.0)
    want[0, 0] = 100.0
    np.testing.assert_array_equal(f(np.ones((3, 4))), want)

    @lt.jit
    def g(a: Any) -> Any:
        z = a * 2
        z.reshape(-1)[0] = 100.0
        return z
    np.testing.assert_array_equal(g(np.ones((3, 4))), want)


def test_an_index_array_gathers_in_numpys_layout(engine: Any) -> None:
    """``x[:, idx]`` (and a mask there) is laid out as NumPy's indexing lays
    it out, the gathered axis outermost in memory, not as ``take``'s C
    order: a float sum along the other axis adds in NumPy's order."""
    rng = np.random.default_rng(0)
    y = rng.random((3000, 40)).astype(np.float32)
    f = np.asfortranarray(rng.random((100000, 3)).astype(np.float32))
    for x in (y, f):
        for ix in (np.s_[:, [0, 2]], np.s_[..., [1, 2]], np.s_[:, np.arange(x.shape[1]) % 2 == 0],
                   np.s_[[0, 2]], np.s_[:, [[0], [1]]]):
            same_layout(lt.asarray(x)[ix].eval(), x[ix])
            for make in (lambda a: a[ix].sum(0), lambda a: a[ix].mean(0),
                         lambda a: (a * 2)[ix].sum(0), lambda a: (a[ix] + 1).sum(axis=0)):
                same_bits(lt.compute(make(lt.asarray(x)))[0], make(x))
    # lt.take is NumPy's take: C order
    same_layout(lt.take(lt.asarray(y), [0, 2], axis=1).eval(), np.take(y, [0, 2], axis=1))


def test_copies_are_laid_out_as_numpys(engine: Any) -> None:
    """``t.copy()`` is C-ordered and ``lt.copy(t)`` keeps the memory order,
    as NumPy's: a float sum of the copy adds in that layout's order."""
    rng = np.random.default_rng(0)
    x = rng.random((300, 40)).astype(np.float32)
    h = np.asfortranarray(np.array([[146.6, -143.8, -85.56, -244.5],
                                    [8.32, -111.5, 55.44, 57.16]], np.float16))
    for v in (x[::-1], x.T, x[:, ::2], np.asfortranarray(x), x[::2, ::-1], h, x):
        for order in "CFAK":
            for t in (lt.asarray(v), lt.asarray(v) * 1):
                got, want = t.copy(order=order), v.copy(order=order)
                same_layout(got.eval(), want)
                same_bits(lt.compute(got.sum())[0], want.sum())
                same_bits(lt.compute(got.sum(axis=-1))[0], want.sum(axis=-1))
        same_layout(lt.copy(lt.asarray(v)).eval(), np.copy(v))
        same_bits(lt.compute(lt.copy(lt.asarray(v)).sum(-1))[0], np.copy(v).sum(-1))
    t = lt.asarray(x)
    c = t.copy()
    c[0, 0] = -1.0                          # a copy: the write does not reach t
    assert t.eval()[0, 0] == x[0, 0]
    with pytest.raises(ValueError):
        t.copy(order="X")


def test_creation_functions_take_numpys_order(engine: Any) -> None:
    """``order=`` of zeros, ones, empty, full, eye and the ``*_like``
    functions (their 'K' reads a known prototype's layout), in NumPy's
    parameter order: the values and NumPy's layout, so a float sum of a
    filled-in array adds in its order; NumPy's ValueError for another."""
    F = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    for order in "CF":
        for np_fn, lt_fn in ((np.zeros, lt.zeros), (np.ones, lt.ones), (np.empty, lt.empty)):
            got, want = lt_fn((3, 4), np.float32, order).eval(), np_fn((3, 4), np.float32, order)
            same_layout(got, want)
            assert got.dtype == want.dtype and got.shape == want.shape
        same_layout(lt.full((3, 4), 2.5, None, order).eval(), np.full((3, 4), 2.5, None, order))
        same_layout(lt.eye(3, 4, 1, None, order).eval(), np.eye(3, 4, 1, None, order))
        assert_eq(lt.eye(3, 4, 1, None, order), np.eye(3, 4, 1, None, order))
    for proto in (F, np.ones((3, 4)), F[::-1]):
        for order in ("K", "A", "C", "F"):
            for np_fn, lt_fn in ((np.zeros_like, lt.zeros_like), (np.ones_like, lt.ones_like),
                                 (np.empty_like, lt.empty_like)):
                for p in (proto, lt.asarray(proto)):
                    same_layout(lt_fn(p, None, order).eval(), np_fn(proto, None, order))
            same_layout(lt.full_like(lt.asarray(proto), 7, None, order).eval(),
                        np.full_like(proto, 7, None, order))
    # A lazy prototype's layout is its result's, NumPy's (``x.T * 2``: F),
    # as a write through a reshape shows (to NumPy a copy of F data)
    A2 = np.arange(12.0).reshape(4, 3)
    for make in (lambda m, a: m.asarray(a).T * 2, lambda m, a: (m.asarray(a).T + 1)[:, 1:],
                 lambda m, a: m.asarray(a) * 2):
        for np_fn, lt_fn in ((np.zeros_like, lt.zeros_like), (np.ones_like, lt.ones_like)):
            for order in ("K", "A"):
                got, want = lt_fn(make(lt, A2), None, order), np_fn(make(np, A2), None, order)
                got.reshape(-1)[1] = 9.0
                want.reshape(-1)[1] = 9.0
                assert_eq(got, want)
                same_layout(got.eval(), want)
    t = lt.zeros((3, 4), order="F")
    t[0] = 1.0                                    # (written: values as NumPy's)
    assert_eq(t, np.where(np.arange(3)[:, None] == 0, 1.0, np.zeros((3, 4))))
    for bad in (lambda: lt.zeros(3, order="K"), lambda: lt.eye(2, order="X"),
                lambda: lt.zeros_like(F, order="X")):
        with pytest.raises(ValueError):
            bad()


def test_creation_orders_spelled_as_numpy_takes_them_and_in_compiled_functions() -> None:
    """``order=None``/``'f'``/``'k'`` as NumPy's converter reads them; a
    ``*_like`` of another ``shape=`` ndim is C; ``full`` of an array is a
    C array; and a ``*_like(order="F")`` over a None dimension is its
    fill, not garbage."""
    F = np.asfortranarray(np.ones((3, 4)))
    same_layout(lt.zeros((2, 3), order="f").eval(), np.zeros((2, 3), order="f"))
    same_layout(lt.zeros((2, 3), order=None).eval(), np.zeros((2, 3), order=None))
    same_layout(lt.ones_like(F, order="k").eval(), np.ones_like(F, order="k"))
    same_layout(lt.zeros_like(F, shape=(2, 3, 4)).eval(), np.zeros_like(F, shape=(2, 3, 4)))
    same_layout(lt.full((3, 4), lt.arange(4)).eval(), np.full((3, 4), np.arange(4)))
    with pytest.raises(TypeError):
        lt.zeros(2, order=1)
    x = lt.placeholder((None, 3))
    f = lt.function([x], [lt.zeros_like(x, order="F"), lt.ones_like(x, order="F") * 1,
                          lt.full_like(x, 2.5, order="F")])
    for opts in ({}, {"optimize": False, "backend": "numpy"}):
        with lt.set_options(**opts):
            z, o, h = f(np.full((2, 3), 7.0))
        np.testing.assert_array_equal(z, np.zeros((2, 3)))
        np.testing.assert_array_equal(o, np.ones((2, 3)))
        np.testing.assert_array_equal(h, np.full((2, 3), 2.5))
        assert z.flags.f_contiguous and h.flags.f_contiguous


# ------------------------------------------------------------------ found by hunt 60 (4 Dec)

def _layouts_of(x: np.ndarray) -> list[tuple[str, np.ndarray, Any]]:
    """(name, NumPy's array, how lazyten builds the same) for a 2-d ``x``."""
    F = np.asfortranarray(x)
    return [("C", x, lambda: lt.asarray(x)), ("F", F, lambda: lt.asarray(F)),
            ("T", x.T, lambda: lt.asarray(x).T), ("F*1", F * 1, lambda: lt.asarray(F) * 1),
            ("T*1", x.T * 1, lambda: lt.asarray(x).T * 1),
            ("bcast", np.broadcast_to(x[:1], x.shape), lambda: lt.asarray(
                np.broadcast_to(x[:1], x.shape)))]


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_flatten_tobytes_and_astype_follow_the_values_layout(engine: Any, order: str) -> None:
    """``flatten('A'/'K')`` reads the layout of the value as it runs (a
    computed Fortran-ordered result gave C order: other values);
    ``tobytes('A')`` too (a broadcast array's bytes came out in F order);
    ``astype(order=)`` lays the result out so (it was ignored)."""
    x = np.random.default_rng(7).standard_normal((37, 53))
    y3 = np.arange(24.0).reshape(2, 3, 4).transpose(1, 0, 2)
    for name, a, build in _layouts_of(x) + [("perm", y3, lambda: lt.asarray(y3))]:
        np.testing.assert_array_equal(build().flatten(order).eval(), a.flatten(order),
                                      err_msg=name)
        assert build().tobytes(order) == a.tobytes(order), name
        got = build().astype(np.float32, order=order).eval()
        want = a.astype(np.float32, order=order)
        np.testing.assert_array_equal(got, want, err_msg=name)
        # (K: as the value's layout, ours may differ; astype's "A" of data
        # neither C nor F is C in NumPy, the input's layout here: left)
        if order in ("C", "F"):
            assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
                (want.flags.c_contiguous, want.flags.f_contiguous), name


def test_a_strided_dot_operand_keeps_its_strides(engine: Any) -> None:
    """BLAS's dot adds a vector read with a step in another order than a
    contiguous one: a slice with a step, or a column, stays above the
    elementwise expression below it (sunk, it read a contiguous result)."""
    rng = np.random.default_rng(3)
    xx, yy = rng.standard_normal(200), rng.standard_normal(100)
    A, B = rng.standard_normal((30, 29)), rng.standard_normal((29, 40))
    same_bits(((lt.asarray(xx) * 2)[::2] @ lt.asarray(yy)).eval(), (xx * 2)[::2] @ yy)
    same_bits(lt.dot((lt.asarray(xx) * 2)[::2], lt.asarray(yy)).eval(), np.dot((xx * 2)[::2], yy))
    same_bits(((lt.asarray(A) * 1)[3] @ (lt.asarray(B) * 1)[:, 2]).eval(),
              (A * 1)[3] @ (B * 1)[:, 2])


def test_repeat_is_c_ordered_as_numpys() -> None:
    x = np.random.default_rng(5).standard_normal((37, 53))
    F = np.asfortranarray(x)
    got = lt.repeat(lt.asarray(F), 1, axis=0)
    assert got.eval().strides == np.repeat(F, 1, axis=0).strides
    same_bits(got.sum(-1).eval(), np.repeat(F, 1, axis=0).sum(-1))


@pytest.mark.parametrize("backend", ["numpy", "numexpr", "auto"])
@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_one_complex_element_is_not_written_over_an_operand(backend: str, dt: Any) -> None:
    """NumPy's complex loops give other bits for one element when the output
    is an operand (``multiply(a, b, out=b)``: hunt 59): the planner writes
    such a kernel into a buffer of its own."""
    rng = np.random.default_rng(11)
    values = [0.21996761 + 0.22984887j] + list(
        rng.standard_normal(30) + 1j * rng.standard_normal(30))
    for v in values:
        x = np.repeat(np.array([v], dt), 5).reshape(1, 5)
        m = x.mean(axis=1)
        want = (3 - m) * m
        with lt.set_options(backend=backend):
            M = lt.asarray(x).mean(axis=1)
            same_bits(((3 - M) * M).eval(), want)


@pytest.mark.parametrize("check", [False, True])
@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_one_complex_element_is_not_written_over_a_kernel_temporary(check: bool,
                                                                    dt: Any) -> None:
    """Inside a kernel too: its scratch slots were reused in place over a
    dying temporary, so ``p * square(sin(x))`` of one complex element
    squared in place (``multiply(t, t, out=t)``: NumPy's scalar bits, where
    eager ``np.square`` gives its array loop's) from the second run on,
    planned or from the cached plan's generated code (the write fuzzer's
    find, seed 901327)."""
    rng = np.random.default_rng(12)
    for _ in range(40):
        x, p = (rng.standard_normal((2, 1)) + 1j * rng.standard_normal((2, 1))).astype(dt)
        want = p * np.square(np.sin(x))
        with lt.set_options(check=check):
            for _ in range(3):   # node by node, planned, from the cached plan
                same_bits(lt.compute(lt.asarray(p) * lt.square(lt.sin(lt.asarray(x))))[0], want)


def test_sibling_views_of_a_copying_reshape_read_in_two_threads_share_one_copy() -> None:
    """Two views of one reshape that copies (``r = y.reshape(-1)`` of F
    data), read at once in two threads after the root was written: each
    found the reshape a copy and entered its own, so a write through one
    was lost to the other (7 runs in 100 here).  The copy is made and
    entered under one lock, the second thread adopting the first's.  In a
    child process: a lock taken again on that path hung (``_rebase``)."""
    script = (
        "import threading, numpy as np, lazyten as lt\n"
        "for _ in range(100):\n"
        "    y = lt.asarray(np.arange(600.0).reshape(20, 30)).T * 1.0\n"
        "    r = y.reshape(-1)\n"
        "    a, b = r[:300], r[100:400]\n"
        "    y[0, 0] = -1.0\n"
        "    start = threading.Barrier(2)\n"
        "    def read(v):\n"
        "        start.wait()\n"
        "        np.asarray(v)\n"
        "    threads = [threading.Thread(target=read, args=(v,)) for v in (a, b)]\n"
        "    for t in threads:\n"
        "        t.start()\n"
        "    for t in threads:\n"
        "        t.join()\n"
        "    a[150] = 12345.0\n"
        "    assert float(np.asarray(b)[50]) == 12345.0\n"
        "    assert float(np.asarray(r)[0]) == 0.0      # (copied before the write)\n"
        "print('done')\n")
    finishes_in_child(script)


@pytest.mark.parametrize("order", ["A", "K"])
def test_ravel_in_memory_order_of_a_computed_result_is_numpys_view(engine: Any,
                                                                   order: str) -> None:
    """``ravel("A"/"K")`` of a computed result follows its layout, NumPy's
    (``x.T * 2`` is F, ``x * 2`` C): a view where NumPy's is, so a write
    through it reaches the result, and a copy where NumPy's is (a reversed
    axis).  Lazy results were always copied: the write was lost."""
    a = np.arange(12.0).reshape(3, 4)
    makers = (lambda m, x: x.T * 2, lambda m, x: x * 2, lambda m, x: (x.T * 2)[::-1],
              lambda m, x: np.sort(x.T, axis=0), lambda m, x: (x.T * 2)[:, 1:],
              lambda m, x: (x.T + 1).T)
    for make in makers:
        y, yn = make(lt, lt.asarray(a)), make(np, a.copy())
        r, rn = y.ravel(order), yn.ravel(order)
        r[1] = -7.0
        rn[1] = -7.0
        assert_eq(r, rn)
        assert_eq(y, yn)
        assert np.shares_memory(y, r) == np.shares_memory(yn, rn)


def test_layout_decisions_after_this_sessions_review(engine: Any) -> None:
    """Helper 74's cases, each against NumPy: ``ravel("K"/"A")`` in a
    traced function reads the call's layout (a placeholder's is not C
    known); ``zeros_like`` of a broadcast view does not make later results
    over it taken as C; ``ravel("K")`` of a reshape NumPy copied is a view
    of that copy; a whole write into a C array keeps it C; ``zeros_like``
    of an F array with a length-1 axis is F."""
    xf = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    p = lt.placeholder((2, 3), "float64", name="x")
    assert_eq(lt.function([p], p.ravel("K"))(xf), xf.ravel("K"))
    assert_eq(lt.jit(lambda x: (x * 2).ravel("A"))(xf), (xf * 2).ravel("A"))

    def broadcast_then_like(m: Any, x: Any) -> Any:
        b = np.broadcast_to((x * 2).T[:, :, None], (3, 2, 2))
        np.zeros_like(b)
        w = b * 1
        w.reshape(-1)[0] = 100.0             # (NumPy's w is strided: a copy)
        return w

    def ravel_k_of_a_copied_reshape(m: Any, x: Any) -> Any:
        t = (x.T * 2).reshape(2, 3)
        r = t.ravel("K")
        r[0] = 100.0                         # (a view of NumPy's copy t)
        return t

    def whole_write_into_c(m: Any, x: Any) -> Any:
        y = m.asarray(np.zeros((3, 2)))
        y[...] = x.T * 2                     # (y stays C: its reshape a view)
        y.reshape(-1)[0] = 100.0
        z = m.asarray(np.zeros((3, 2)))
        np.copyto(z, x.T * 2)
        z.reshape(-1)[1] = 50.0
        return [y, z]

    def like_of_f_with_a_unit_axis(m: Any, x: Any) -> Any:
        z = np.zeros_like(m.asarray(np.asfortranarray(np.arange(6.0).reshape(3, 1, 2))))
        z.reshape(-1)[1] = 7.0               # (NumPy's z is F: a copy)
        return z

    a = np.arange(6.0).reshape(2, 3)
    for case in (broadcast_then_like, ravel_k_of_a_copied_reshape, whole_write_into_c,
                 like_of_f_with_a_unit_axis):
        got, want = case(lt, lt.asarray(a)), case(np, a.copy())
        for g, w in zip(got, want) if isinstance(want, list) else [(got, want)]:
            assert_eq(g, w)


def test_reductions_of_permuted_operands_are_laid_out_as_numpys(engine: Any) -> None:
    """A reduction over transposed operands: NumPy lays its result out with
    the kept axes in the operands' memory order (``(x.T * 1).sum(axis=0)``
    of a C ``x`` is F).  The fused kernels made it C: ``ravel("K")`` read
    another order and a reshape of it was taken as NumPy's view."""
    a = np.arange(24.0).reshape(2, 3, 4)
    cases = [lambda x: (x.T * 1).sum(axis=0), lambda x: (x.T * 1).sum(axis=1),
             lambda x: (x.T > 3).any(axis=0), lambda x: (x.T * 1).std(axis=0, keepdims=True),
             lambda x: (x.transpose(1, 0, 2) * 2).mean(axis=2), lambda x: (x.T + 1).max(axis=2),
             lambda x: (x.T * 0.5).prod(axis=0), lambda x: (x.T * 1).sum(axis=(0, 2), keepdims=True)]
    for make in cases:
        want, t = make(a), make(lt.asarray(a))
        got = t.eval()
        assert_eq(got, want)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (want.flags.c_contiguous, want.flags.f_contiguous)
        assert_eq(t.ravel("K"), want.ravel("K"))
        r, rn = t.reshape(-1), want.reshape(-1)
        r[0], rn[0] = -1, -1
        assert_eq(t, want)
    # known from the operand's layout, without computing (NumPy's rule)
    s = (lt.asarray(a).T * 1).sum(axis=0)
    before = s.node
    s.reshape(-1)[0] = -1.0
    assert before.value is None
    assert_eq(s, (a.T * 1).sum(axis=0))           # (F: the reshape was NumPy's copy)


def test_a_fill_folded_into_a_kernel_keeps_numpys_c_result(engine: Any) -> None:
    """``zeros + x.T``: the C fill of the result's shape makes NumPy's
    result C (C wins in its iterator).  The optimizer made the fill a 0-d
    constant, and the kernel then took the transposed operand's layout: F,
    and a write through ``reshape(-1)`` was lost or refused (helper 75)."""
    x = np.arange(8.0).reshape(2, 4)

    def cases(m: Any, xx: Any) -> list[Any]:
        s = m.zeros((4, 2)) + xx.T
        s.reshape(-1)[0] = 50.0
        y = m.zeros((4, 2))
        y += xx.T
        y.reshape(-1)[0] = 99.0
        acc = m.zeros((4, 2))
        acc += (m.asarray(np.arange(16.0).reshape(2, 2, 4)).T * 1).sum(1)
        acc.reshape(-1)[0] = 1.0
        r = m.maximum(xx, m.zeros_like(xx))          # (C operands: still a 0-d fill)
        return [s, y, acc, r]
    for g, w in zip(cases(lt, lt.asarray(x)), cases(np, x.copy())):
        got = g.eval()
        assert_eq(got, w)
        assert got.flags.c_contiguous == w.flags.c_contiguous
    if engine["optimize"]:
        plan = lt.explain(lt.maximum(lt.asarray(x), lt.zeros_like(lt.asarray(x))))
        assert "full" not in plan.split("-- ")[0]


def test_jit_traces_per_argument_layout_and_decides_views_as_numpy() -> None:
    """``@lt.jit`` keys its traces by each argument's layout (C, F or
    other) and gives the placeholder that layout: a write through
    ``(x * 2).reshape(-1)`` of F data is NumPy's copy (it was refused at
    the call: the trace had taken C), and the elementwise layouts of the
    trace follow NumPy's iterator rule without computing."""
    xc = np.arange(6.0).reshape(2, 3)
    xf = np.asfortranarray(xc)

    def write_through(x: Any) -> Any:
        y = x * 2
        y.reshape(-1)[0] = 100.0
        z = x.T * 2
        z.reshape(-1)[1] = -5.0
        return y, z, (x * 3).ravel("K")

    f = lt.jit(write_through)
    for arg in (xc, xf, xf, xc):
        got = f(arg)
        want = write_through(arg.copy(order="K"))
        for g, w in zip(got, want):
            assert_eq(g, w)
    assert f.traces == 2


def test_like_functions_keep_a_permuted_prototypes_axis_order(engine: Any) -> None:
    """``*_like`` (order "K") of a prototype neither C nor F keeps its
    axes' order by their strides, length-1 axes included (NumPy's sorted
    stride permutation): NHWC data moved to NCHW, a 3-d transpose, a slice
    with a unit axis.  They were C: a reshape of the result was a view
    where NumPy's copies, and ``ravel("K")`` read another order."""
    C = np.arange(60.0).reshape(3, 4, 5)
    protos = [lambda m, a: m.asarray(a).transpose(1, 0, 2),
              lambda m, a: m.asarray(a)[:, :1, :].T,
              lambda m, a: m.asarray(a).reshape(1, 3, 4, 5).transpose(0, 3, 1, 2) + 0.0,
              lambda m, a: m.asarray(a).transpose(2, 0, 1)[::-1]]
    for proto in protos:
        for fn, args in ((np.zeros_like, ()), (np.ones_like, ()), (np.full_like, (7,)),
                         (np.empty_like, ())):
            got, want = fn(proto(lt, C), *args), fn(proto(np, C), *args)
            want[...] = 3.0
            got[...] = 3.0
            v = got.eval()
            assert v.strides == want.strides
            r, rn = got.reshape(-1), want.reshape(-1)
            r[:3] = 1.0
            rn[:3] = 1.0
            assert_eq(got, want)
            assert_eq(got.ravel("K"), want.ravel("K"))
        assert np.zeros_like(proto(lt, C), dtype=np.int8).eval().strides == \
            np.zeros_like(proto(np, C), dtype=np.int8).strides


def test_sorts_and_cumulative_sums_have_numpys_layout_without_computing(engine: Any) -> None:
    """``np.sort`` copies its operand in "K" order (NumPy's sorted stride
    permutation, broadcast axes too), a cumulative sum is laid out as a
    ufunc's result, argsort's indices are C: known without computing them,
    so a write through a reshape of one leaves it lazy and is NumPy's."""
    x = np.arange(24.0).reshape(2, 3, 4)
    cases = [lambda m, a: np.sort(m.asarray(a).T, axis=0),
             lambda m, a: np.sort(m.asarray(a).transpose(1, 0, 2) * 1, axis=1),
             lambda m, a: np.cumsum(m.asarray(a).T, axis=0),
             lambda m, a: np.argsort(m.asarray(a).T, axis=1),
             lambda m, a: np.sort(m.broadcast_to(m.asarray(a[0, 0]), (3, 4)), axis=0)]
    for make in cases:
        t, want = make(lt, x), make(np, x)
        before = t.node
        t.reshape(-1)[0] = -1
        want.reshape(-1)[0] = -1
        assert before.value is None
        assert_eq(t, want)


def test_view_decisions_stay_numpys_when_the_executor_lays_out_otherwise(engine: Any) -> None:
    """Helper 77's fuzzing: a fused kernel may lay a result out otherwise
    than NumPy (a transpose between fused ops): the layout is inferred
    before the value is kept, so later view decisions stay NumPy's, and a
    write through a view decided on NumPy's layout reaches the elements by
    their positions where the computed data are laid out otherwise (it was
    refused); ``astype`` of a broadcast copies in "K" order; an empty
    operand orders a result's axes by its strides."""
    A = np.arange(16.0).reshape(4, 4)
    B = np.arange(16.0).reshape(4, 4) % 5
    cases = [lambda m: m.square((m.asarray(A) >= m.asarray(B).T).T),
             lambda m: -m.broadcast_to(m.asarray(np.arange(3.0)), (2, 3))
             + m.asarray(np.asfortranarray(np.ones((2, 3)))),
             lambda m: m.broadcast_to(m.asarray(np.arange(6).reshape(3, 2)), (2, 3, 2)).astype(
                 np.float64),
             lambda m: m.asarray(np.zeros(0).reshape(0, 2, 5, 5).transpose(2, 3, 0, 1)).mean(
                 axis=2),
             lambda m: m.clip(m.broadcast_to(m.asarray(np.arange(6).reshape(3, 2)), (2, 3, 2)),
                              -2.5, 3.5)]
    for make in cases:
        for evaluated in (False, True):
            with np.errstate(all="ignore"):
                t, want = make(lt), make(np)
                if evaluated:
                    v = t.eval()           # (kept in NumPy's layout: its flags)
                    assert (v.flags.c_contiguous, v.flags.f_contiguous) == \
                        (want.flags.c_contiguous, want.flags.f_contiguous)
                t.reshape(-1)[0] = 123.0
                want.reshape(-1)[0] = 123.0
                assert_eq(t, want)


def test_results_over_casts_of_broadcasts_have_numpys_strides_on_every_path(
        any_engine: Any) -> None:
    """``astype`` copies in "K" order (a broadcast's axes innermost), a
    ufunc's own cast (``clip``'s of uint8 by a float bound) as a ufunc's
    result (a broadcast's C), and a kernel's ops each by its own rule (a
    broadcast's C result disagrees with a Fortran operand: C).  ``eval``
    copied such results into NumPy's layout; ``lt.compute`` handed out
    the executor's own (the layout fuzzer's finds: node by node, clip's
    cast was astype's; fused, the kernel took all its operands at once)."""
    row = np.arange(3, dtype=np.uint8).reshape(1, 3)
    F = np.asfortranarray(np.arange(12.0).reshape(4, 3))
    cases = [lambda m: m.broadcast_to(m.asarray(row), (4, 3)).astype(np.float64) * 2,
             lambda m: m.clip(m.broadcast_to(m.asarray(row), (4, 3)), 0, 3.5),
             lambda m: m.clip(m.broadcast_to(m.asarray(row), (2, 4, 3)), 0, 2)
             * m.asarray(np.asfortranarray(np.ones((2, 1, 1), np.uint8))),
             lambda m: m.conj(m.broadcast_to(m.asarray(row), (4, 3))) + m.asarray(F)]
    for make in cases:
        want = make(np)
        for _ in range(3):      # node by node, planned, from the plan cache
            for got in (lt.compute(make(lt))[0], make(lt).eval()):
                assert_eq(got, want)
                assert got.strides == want.strides, (got.strides, want.strides)


@pytest.mark.parametrize("check", [False, True])
def test_a_kernel_writes_in_place_only_into_a_buffer_of_numpys_layout(check: bool) -> None:
    """The planner writes a kernel over a dying operand into its buffer,
    whatever its layout: a Fortran-ordered sum plus a C slice is C to
    NumPy (its operands disagree), and written into the sum's buffer it was
    F, and the sum over it added in another order (the layout fuzzer's
    find, seed 34549).  Such a kernel takes a new buffer now."""
    rng = np.random.default_rng(7)
    X = np.asfortranarray(rng.random((3, 100, 60, 3)))
    Y = rng.random((200, 120)).astype(np.float32)

    def f(m: Any, x: Any, y: Any) -> tuple[Any, Any]:
        s = m.exp(x * 0.1).sum(axis=(3, 0)) + y[1::2, ::-2]
        return s, (s * 1.5).sum(axis=1)
    want = f(np, X, Y)
    with lt.set_options(check=check):
        assert "(in place of" in lt.explain(*f(lt, lt.asarray(X), lt.asarray(Y)))
        for _ in range(3):
            got = lt.compute(*f(lt, lt.asarray(X), lt.asarray(Y)))
            assert got[0].strides == want[0].strides
            same_bits(got[0], want[0])
            same_bits(got[1], want[1])


@pytest.mark.parametrize("check", [False, True])
def test_a_transpose_inside_a_reduced_expression_stays_where_numpy_has_it(check: bool) -> None:
    """``sum(sqrt(where(c, b.T, y).T))`` with a broadcast ``b``: NumPy lays
    ``where``'s result out by ``c`` alone (the broadcast and the one-element
    ``y`` have no say), so the outer transpose makes the summed value
    F-ordered.  Pushed into ``where``'s operands, the transposes left a C
    ``where``, and the sum added in another order (a last bit; the layout
    fuzzer's find, seed 44467).  A transpose of a computed value inside an
    expression a reduction reads stays where it is."""
    b = np.broadcast_to(np.full((1, 1, 1, 1), 0.125), (3, 5, 5, 2))
    c = (np.arange(15.0).reshape(1, 1, 5, 3) % 4 - 1) + 0.5j
    y = np.full((1, 1, 1, 1), -2.5, np.float32)

    def f(m: Any, b: Any, c: Any, y: Any) -> Any:
        e = m.where(m.broadcast_to(c, (1, 1, 5, 3)) > 0, b.transpose(3, 2, 1, 0), y)
        return m.sqrt(m.abs(e.transpose(3, 2, 1, 0))).sum(axis=(1, 0), keepdims=True)
    want = f(np, b, c, y)
    with lt.set_options(check=check):
        for _ in range(3):
            same_bits(lt.compute(f(lt, lt.asarray(b), lt.asarray(c), lt.asarray(y)))[0], want)


def test_lt_compute_lays_out_as_numpy_a_view_pushed_into_an_expression(
        any_engine: Any) -> None:
    """A transpose or an index of a computed value, pushed into the
    expression's operands: where they leave the order open (a broadcast,
    mixed layouts), the kernel's result is laid out otherwise than NumPy's
    view of the computed value; ``eval`` copied it into NumPy's layout,
    ``lt.compute`` handed it out as it was (the layout fuzzer's finds).  It
    lays it out as NumPy's now, also under scans and reductions."""
    b = np.broadcast_to(np.arange(3.0), (3, 3, 3))
    i = np.arange(3, dtype=np.int32).reshape(1, 3, 1).transpose(2, 0, 1)
    x = np.arange(24, dtype=np.int32).reshape(2, 2, 2, 3).transpose(0, 3, 2, 1) % 5 > 0
    f = (np.arange(6, dtype=np.float32).reshape(3, 1, 2, 1) * 0.5 + 1).transpose(3, 0, 1, 2)
    cases = [lambda m, b, i, x, f: (i - b).transpose(2, 1, 0),
             lambda m, b, i, x, f: m.cumprod((i - b).transpose(2, 1, 0), axis=-1),
             lambda m, b, i, x, f: m.sort(m.exp(b * 0.1).T, axis=0),
             lambda m, b, i, x, f: m.square((f / x)[-1::-2, ::2, ::-1, :1])]
    for make in cases:
        want = make(np, b, i, x, f)
        for _ in range(3):      # node by node, planned, from the plan cache
            got = lt.compute(make(lt, *map(lt.asarray, (b, i, x, f))))[0]
            assert_eq(got, want)
            assert got.strides == want.strides, (got.strides, want.strides)


def test_new_arrays_over_broadcasts_are_c_as_numpys() -> None:
    # ``tile`` is a view chain over a broadcast here and a new C array in
    # NumPy; its value was handed out as NumPy's "K" copy of the broadcast
    # (F for a tiled row) by eval, lt.compute and @lt.jit alike.
    X = np.arange(3.0).reshape(1, 3)
    want = np.tile(X, (2, 1))
    t = lt.tile(lt.asarray(X), (2, 1))
    for got in (t.eval(), np.asarray(t), lt.compute(t)[0], lt.compute(t, t * 2)[0],
                lt.jit(lambda x: np.tile(x, (2, 1)))(X)):
        assert_eq(got, want)
        assert got.strides == want.strides
    # a view's value: its memory order as before (a transpose's copy is F)
    v = lt.asarray(np.arange(6.0).reshape(2, 3)).T
    assert v.eval().flags.f_contiguous


def test_a_k_copy_of_a_permuted_or_strided_array_keeps_its_layout_through_writes(
        engine: Any) -> None:
    """``np.copy(a)`` / ``a.copy("K")`` of a permuted or strided array is laid
    out in its axes' order, and a write into the copy keeps it, as NumPy's
    in-place write does; lazyten's copy's layout was known only when it ran,
    so a masked write fused into a kernel of the mask's layout (C), and a
    sum of the result added in another order (found through lt.ma's
    ``filled``, a float32 mean 1 ulp off numpy.ma's)."""
    rng = np.random.default_rng(5)
    base = rng.random((40, 30, 20)).astype(np.float32)
    for d in (base.transpose(2, 0, 1), base[:, ::2], base.transpose(1, 2, 0)[::-1]):
        k = rng.random(d.shape) < 0.3
        for copy in (lambda x: x.copy("K"), lambda x: (np if x is d else lt).copy(x)):
            want = copy(d)
            want[k] = 0
            got = copy(lt.asarray(d))
            got[lt.asarray(k)] = 0
            value = got.eval()
            assert value.strides == want.strides
            same_bits(value, want)
            same_bits(got.sum().eval(), want.sum())


@pytest.mark.parametrize("opts", [{}, {"tiny_elements": 0}, {"backend": "loop", "tiny_elements": 0},
                                  {"backend": "numexpr", "tiny_elements": 0}])
def test_round_lays_its_result_out_as_numpys(opts: dict[str, Any]) -> None:
    """``np.round`` of floats to ``decimals != 0`` (and of integers to tens
    and more) makes a new array in "A" order (C for a permuted operand, F
    for a Fortran one), not its ufuncs' "K" order (``decimals=0`` is
    ``rint``'s, integers to ``decimals >= 0`` and complex arrays a "K" copy):
    lazyten kept the operand's order, and a sum of the result added in
    another order (found through lt.ma's round against numpy.ma)."""
    base = np.random.default_rng(5).random((4, 3, 2))
    ints = np.arange(24).reshape(4, 3, 2)
    operands = [base.transpose(2, 0, 1), np.asfortranarray(base), ints.transpose(2, 0, 1),
                (base + 1j * base).transpose(2, 0, 1), base.transpose(2, 0, 1)[::-1],
                base[:, ::2], ints.astype(np.uint8).transpose(1, 2, 0)]
    with lt.set_options(**opts):
        for a in operands:
            for dec in (0, 1, -1):
                for build in (lambda m, x: m.round(x, dec), lambda m, x: m.round(x * 2, dec) + 1,
                              lambda m, x: m.round(x, dec).sum(axis=0)):
                    want = build(np, a)
                    got = build(lt, lt.asarray(a)).eval()
                    assert got.strides == want.strides, (a.strides, a.dtype, dec)
                    same_bits(got, want)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_join_order_is_numpys_concatenate(data: st.DataObject) -> None:
    nd = data.draw(st.integers(2, 4))
    axis = data.draw(st.integers(0, nd - 1))
    shape = data.draw(st.lists(st.integers(1, 4), min_size=nd, max_size=nd))
    arrays = []
    for _ in range(data.draw(st.integers(1, 3))):
        shape[axis] = data.draw(st.integers(1, 3))
        # (operands broadcast to the shape: their zero strides vote in a join)
        arrays.append(np.broadcast_to(data.draw(operand(tuple(shape))), shape))
    want = np.concatenate(arrays, axis=axis)
    got = L.layout_stand_in(want.shape, want.dtype,
                            L.dense_layout(want.shape, want.itemsize, L.join_order(arrays)))
    same_layout(got, want)


@pytest.mark.parametrize("layout", ["C", "F", "3-d permuted", "mixed", "broadcast"])
def test_kernels_written_into_a_join_lay_it_out_as_numpys(engine: Any, layout: str) -> None:
    # (joins of 64 KiB and more: the operands' kernels write into the join's
    # buffer, which a C buffer put in C order where NumPy's is F: a sum over
    # it added in another order)
    rng = np.random.default_rng(5)
    x = {"C": rng.standard_normal((100, 120)),
         "F": rng.standard_normal((120, 100)).T,
         "3-d permuted": rng.standard_normal((20, 30, 40)).transpose(1, 2, 0),
         "mixed": rng.standard_normal((120, 100)).T,
         "broadcast": np.broadcast_to(rng.standard_normal((1, 120)), (100, 120))}[layout]
    y = x if layout != "mixed" else np.ascontiguousarray(x)
    t, u = lt.asarray(x), lt.asarray(y)
    for axis in range(x.ndim):
        for lazy, want in (
                (lt.concatenate([t, u * 2], axis=axis), np.concatenate([x, y * 2], axis=axis)),
                (lt.concatenate([lt.exp(t), u - 1.0, t], axis=axis),
                 np.concatenate([np.exp(x), y - 1.0, x], axis=axis)),
                (lt.stack([t * 3, lt.sin(u)], axis=axis),
                 np.stack([x * 3, np.sin(y)], axis=axis))):
            if engine["optimize"]:
                assert "(into the join" in lt.explain(lazy)
            got = lazy.eval()
            same_layout(got, want)
            assert_eq(lazy, want)
            same_bits(lt.sum(lazy, axis=0).eval(), want.sum(axis=0))
            same_bits(lazy.sum().eval(), want.sum())


def test_a_reshape_of_a_copying_reshape_is_not_folded_into_one(engine: Any) -> None:
    """``reshape(reshape(x))`` is one reshape only where the first is a view
    (C-contiguous data): of other data NumPy's first reshape copies in C
    order, so ``(x.T * 2).ravel().reshape(s)`` is C where ``x.T * 2`` is F,
    and a float sum over it adds in that order."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((120, 100)).T
    xc = rng.standard_normal((100, 130))
    for lazy, want in ((lambda m, a: (a * 2).ravel().reshape(a.shape), x),
                       (lambda m, a: (a * 2).reshape(-1).reshape(60, 200), x),
                       (lambda m, a: (a * 2).ravel(order="F").reshape(130, 100), xc),
                       (lambda m, a: m.exp(a).reshape(-1).reshape(a.shape), x[::2]),
                       (lambda m, a: (a + 1).reshape(-1).reshape(a.shape), xc)):
        got, exp = lazy(lt, lt.asarray(want)), lazy(np, want)
        same_layout(got.eval(), exp)
        same_bits(got.sum(axis=0).eval(), exp.sum(axis=0))
        same_bits(got.sum().eval(), exp.sum())
    # (C data: still one view where the optimizer runs)
    t = lt.asarray(xc)
    if engine["optimize"]:
        assert lt.explain(t.reshape(-1).reshape(130, 100) * 2).count("reshape") == 1


_FILLED = {
    "delete int": lambda m, x: m.delete(x, 1, axis=1),
    "delete slice": lambda m, x: m.delete(x, slice(0, 4, 2), axis=1),
    "delete list": lambda m, x: m.delete(x, [0, 2], axis=1),
    "insert": lambda m, x: m.insert(x, 1, 5.0, axis=1),
    "insert list": lambda m, x: m.insert(x, [1, 3], 5.0, axis=1),
    "pad constant": lambda m, x: m.pad(x, 1),
    "pad edge": lambda m, x: m.pad(x, 1, "edge"),
    "pad reflect": lambda m, x: m.pad(x, 2, "reflect"),
    "compress": lambda m, x: m.compress([1, 0, 1], x, axis=0),
    "take": lambda m, x: m.take(x, [2, 0, 1], axis=1),
    "select": lambda m, x: m.select([x > 0, x < -1], [x, x * 2], 0.0),
    "tile of ones": lambda m, x: m.tile(x, 1),
    "nan_to_num": lambda m, x: m.nan_to_num(x),
    "gradient": lambda m, x: m.gradient(x, axis=0),
    "cross": lambda m, x: m.cross(x[..., :3], x[..., 3:6]),
    "concat": lambda m, x: m.concatenate([x, x * 2], axis=1),
    "vander": lambda m, x: m.vander(m.ravel(x)[:50], 5),
}


@pytest.mark.parametrize("layout", ["C", "F", "permuted", "broadcast", "F 2-d", "transposed"])
@pytest.mark.parametrize("name", list(_FILLED))
def test_new_arrays_numpys_functions_fill_are_laid_out_as_numpys(engine: Any, name: str,
                                                                 layout: str) -> None:
    """NumPy's functions that make a new array and fill it lay it out their
    own way: ``np.empty(shape, order=arrorder)`` ("A" of the operand:
    ``pad``, ``insert``, ``delete`` of a position or slice), C (``select``'s
    ``np.full``, ``take``, ``compress``, ``cross``, ``vander``), "K" of the
    operand (``empty_like``: ``gradient``; ``np.array(x, copy=True)``:
    ``nan_to_num``, ``tile`` of ones), advanced indexing's (``delete`` of a
    list); lazyten's joins of views followed their operands: ``ravel("K")``
    read another order, a float sum added in one."""
    rng = np.random.default_rng(0)
    x = {"C": rng.standard_normal((20, 25, 30)),
         "F": np.asfortranarray(rng.standard_normal((20, 25, 30))),
         "permuted": rng.standard_normal((25, 30, 20)).transpose(2, 0, 1),
         "broadcast": np.broadcast_to(rng.standard_normal((1, 25, 30)), (20, 25, 30)),
         "F 2-d": np.asfortranarray(rng.standard_normal((25, 30))),
         "transposed": rng.standard_normal((30, 25)).T}[layout]
    f = _FILLED[name]
    with np.errstate(all="ignore"):
        want = f(np, x)
        lazy = f(lt, lt.asarray(x))
        np.testing.assert_array_equal(lt.ravel(lazy, "K").eval(), np.ravel(want, "K"))
        same_bits(lazy.sum(axis=0).eval(), want.sum(axis=0))
        same_bits(lazy.sum().eval(), want.sum())
    if layout == "C" and engine["optimize"] and name != "vander":
        # (a C operand's result is known C when built: no copy to lay it out)
        assert "layout_copy" not in lt.explain(f(lt, lt.asarray(x)))


def test_ravel_of_data_a_reshape_would_view_is_a_contiguous_copy(engine: Any) -> None:
    """NumPy's ``ravel`` copies data that are not C-contiguous even where its
    ``reshape(-1)`` would be a (strided) view (``x[:, ::2]`` of an even row
    length): lazyten's value was that strided view, and a float32 BLAS dot
    of it added up otherwise (a last bit of ``x.ravel() @ x.ravel()``)."""
    rng = np.random.default_rng(4)
    base = (rng.standard_normal((7, 300)) * 1000 + rng.standard_normal((7, 300))).astype(
        np.float32)
    for x in (base[:, ::2], base[::2, ::2], base[:, 1::2]):
        t = lt.asarray(x)
        got = t.ravel().eval()
        assert got.flags.c_contiguous and not np.shares_memory(got, x)
        same_bits(lt.compute(t.ravel() @ t.ravel())[0], np.asarray(x.ravel() @ x.ravel()))
        same_bits(lt.jit(lambda a: a.ravel() @ a.ravel())(x), np.asarray(x.ravel() @ x.ravel()))
        r = t.ravel()
        r[0] = 5.0                          # (a copy: the write stays in it)
        assert t.eval()[0, 0] == x[0, 0] and r.eval()[0] == 5.0
