"""Golden-text tests for the text printers: ``lt.debugprint`` (the graph as
built) and ``lt.explain`` (the optimized plan, also ``verbose=True``).

The texts are pinned exactly.  Two things would make them vary from run to
run, and both are removed at the source rather than masked: node ids (printed
with ``renumber=True``, so ``%k`` is the k-th value in order) and the cost
model's backend choice (each test forces ``backend=``).  Source lines are this
file's: a golden text says ``@name`` where the line marked ``# @name`` below
belongs, so editing the builders only moves markers, never the goldens.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator

import numpy as np
import pytest

import lazyten as lt

_HERE = os.path.basename(__file__)
LINES: dict[str, int] = {}
with open(__file__) as _f:
    for _k, _line in enumerate(_f, 1):
        for _m in re.findall(r"# @(\w+)$", _line):
            LINES[_m] = _k


def golden(text: str) -> str:
    """The golden text with ``@name`` replaced by the marked line number."""
    return re.sub(r"@(\w+)", lambda m: str(LINES[m.group(1)]), text.strip("\n"))


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    # Constants are hash-consed process-wide: a constant still alive from
    # another test (or held by a cached plan) would keep its older id, and
    # with it its source line and its place in the plan.  The builders use
    # constants no other test does, and nothing cached survives.
    from lazyten.exec.optimized import clear_plan_cache
    clear_plan_cache()
    gc.collect()
    yield


def model() -> tuple[lt.Tensor, lt.Tensor]:
    a = lt.asarray(np.arange(12.0).reshape(4, 3))  # @a
    b = lt.asarray(np.ones(3))  # @b
    c = lt.sin(a * 3.5 + b)  # @c
    d = c.sum(axis=0)  # @d
    e = c @ c.T  # @e
    f = -(-lt.exp(e)) + 0.25  # @f
    g = f @ f  # @g
    h = lt.sqrt(g) * 3.5 + (b * a + a * b).sum()  # @h
    return d, h


def reuse() -> tuple[lt.Tensor, lt.Tensor]:
    a = lt.asarray(np.arange(12.0).reshape(4, 3))  # @ra
    m = lt.asarray(np.ones((3, 3)))  # @rm
    y = lt.sqrt(a) @ m  # @ry
    z = lt.abs(a) * 3.5 + y.sum()  # @rz
    return z, y


GOLD_DEBUGPRINT = """
%0:float64[4,3] = input                               # test_explain.py:@a
%1:float64[] = const 3.5 (weak)                       # test_explain.py:@c
%2:float64[4,3] = multiply %0 %1                      # test_explain.py:@c
%3:float64[3] = input                                 # test_explain.py:@b
%4:float64[4,3] = add %2 %3                           # test_explain.py:@c
%5:float64[4,3] = sin %4                              # test_explain.py:@c
%6:float64[3] = sum %5 axis=(0,) keepdims=False       # test_explain.py:@d
%7:float64[3,4] = transpose %5 axes=(1, 0)            # test_explain.py:@e
%8:float64[4,4] = matmul %5 %7                        # test_explain.py:@e
%9:float64[4,4] = exp %8                              # test_explain.py:@f
%10:float64[4,4] = negative %9                        # test_explain.py:@f
%11:float64[4,4] = negative %10                       # test_explain.py:@f
%12:float64[] = const 0.25 (weak)                     # test_explain.py:@f
%13:float64[4,4] = add %11 %12                        # test_explain.py:@f
%14:float64[4,4] = matmul %13 %13                     # test_explain.py:@g
%15:float64[4,4] = sqrt %14                           # test_explain.py:@h
%16:float64[4,4] = multiply %15 %1                    # test_explain.py:@h
%17:float64[4,3] = multiply %3 %0                     # test_explain.py:@h
%18:float64[4,3] = multiply %0 %3                     # test_explain.py:@h
%19:float64[4,3] = add %17 %18                        # test_explain.py:@h
%20:float64[] = sum %19 axis=(0, 1) keepdims=False    # test_explain.py:@h
%21:float64[4,4] = add %16 %20                        # test_explain.py:@h
return %6, %21
"""

GOLD_EXPLAIN_NUMPY = """
step 0   input            %0:float64[4,3] (input)  # test_explain.py:@a
step 1   input            %1:float64[] (const 3.5, weak)  # test_explain.py:@c
step 2   input            %2:float64[3] (input)  # test_explain.py:@b
step 3   input            %3:float64[] (const 0.25, weak)  # test_explain.py:@f
step 4   kernel[numpy]    %4:float64[4,3] = { sin(((i0 * i1) + i2)) } %0 %1 %2 -> b0 (new)  # test_explain.py:@c
step 5   numpy            %5:float64[3] = sum %4 axis=(0,) keepdims=False -> b1 (new)  # test_explain.py:@d
step 6   view             %6:float64[3,4] = transpose %4 axes=(1, 0) -> view of b0  # test_explain.py:@e
step 7   blas             %7:float64[4,4] = matmul %4 %6 -> b2 (new)  free b0  # test_explain.py:@e
step 8   kernel[numpy]    %8:float64[] = { sum(((i0 * i1) + (i1 * i0)), axis=(0, 1)) } %2 %0 -> b3 (new)  # test_explain.py:@h
step 9   kernel[numpy]    %9:float64[4,4] = { (exp(i0) + i1) } %7 %3 -> b2 (in place of %7)  # test_explain.py:@f
step 10  blas             %10:float64[4,4] = matmul %9 %9 -> b4 (new)  free b2  # test_explain.py:@g
step 11  kernel[numpy]    %11:float64[4,4] = { ((sqrt(i0) * i1) + i2) } %10 %1 %8 -> b4 (in place of %10)  free b3  # test_explain.py:@h
-- 12 steps: 4 fused kernels (4 numpy), 1 numpy call, 2 BLAS calls, 1 view; 5 buffers, temporaries 232 B, peak estimate 352 B (with kernel scratch 192 B)
-- graph: 22 nodes before optimization, 12 after; removed: 2 by simplify, 8 fused into kernels
"""

GOLD_EXPLAIN_VERBOSE = """
step 0   input            %0:float64[4,3] (input)  # test_explain.py:@a
step 1   input            %1:float64[] (const 3.5, weak)  # test_explain.py:@c
step 2   input            %2:float64[3] (input)  # test_explain.py:@b
step 3   input            %3:float64[] (const 0.25, weak)  # test_explain.py:@f
step 4   kernel[numpy]    %4:float64[4,3] = { sin(((i0 * i1) + i2)) } %0 %1 %2 -> b0 (new)  # test_explain.py:@c
         fusion: 3 ops in one kernel: multiply, add, sin (test_explain.py:@c)
         fusion: not fused into its readers: read by 3 steps (step 5, step 6, step 7); computing it in each would cost more than storing it once (the fuse pass's cost rule)
         backend: numpy: backend='numpy'
         buffer: %0 is user/cached data; %2 is user/cached data
step 5   numpy            %5:float64[3] = sum %4 axis=(0,) keepdims=False -> b1 (new)  # test_explain.py:@d
         buffer: new (only fused kernels write in place or into reused buffers)
step 6   view             %6:float64[3,4] = transpose %4 axes=(1, 0) -> view of b0  # test_explain.py:@e
         buffer: a view, no data moved
step 7   blas             %7:float64[4,4] = matmul %4 %6 -> b2 (new)  free b0  # test_explain.py:@e
         buffer: new (only fused kernels write in place or into reused buffers)
step 8   kernel[numpy]    %8:float64[] = { sum(((i0 * i1) + (i1 * i0)), axis=(0, 1)) } %2 %0 -> b3 (new)  # test_explain.py:@h
         fusion: 3 ops in one kernel: multiply, multiply, add (test_explain.py:@h), then sum (reduction fused: no full-size temporary)
         fusion: not fused into step 11: it has 1 element, step 11 has 16; fusing would recompute it for every element it is broadcast to
         backend: numpy: backend='numpy'
         buffer: %2 is user/cached data; %0 is user/cached data
step 9   kernel[numpy]    %9:float64[4,4] = { (exp(i0) + i1) } %7 %3 -> b2 (in place of %7)  # test_explain.py:@f
         fusion: 2 ops in one kernel: exp, add (test_explain.py:@f)
         fusion: read by step 10 (matmul), which is not elementwise and does not fuse
         backend: numpy: backend='numpy'
         buffer: in place into %7 (it dies here, when laid out as NumPy's result)
step 10  blas             %10:float64[4,4] = matmul %9 %9 -> b4 (new)  free b2  # test_explain.py:@g
         buffer: new (only fused kernels write in place or into reused buffers)
step 11  kernel[numpy]    %11:float64[4,4] = { ((sqrt(i0) * i1) + i2) } %10 %1 %8 -> b4 (in place of %10)  free b3  # test_explain.py:@h
         fusion: 3 ops in one kernel: sqrt, multiply, add (test_explain.py:@h)
         fusion: not fused into later steps: it is an output
         backend: numpy: backend='numpy'
         buffer: in place into %10 (it dies here, when laid out as NumPy's result)
-- 12 steps: 4 fused kernels (4 numpy), 1 numpy call, 2 BLAS calls, 1 view; 5 buffers, temporaries 232 B, peak estimate 352 B (with kernel scratch 192 B)
-- graph: 22 nodes before optimization, 12 after; removed: 2 by simplify, 8 fused into kernels
"""

GOLD_EXPLAIN_REUSE_NUMEXPR = """
step 0   input            %0:float64[4,3] (input)  # test_explain.py:@ra
step 1   input            %1:float64[3,3] (input)  # test_explain.py:@rm
step 2   input            %2:float64[] (const 3.5, weak)  # test_explain.py:@rz
step 3   kernel[numexpr]  %3:float64[4,3] = { sqrt(i0) } %0 -> b0 (new)  # test_explain.py:@ry
         fusion: 1 op in one kernel: sqrt (test_explain.py:@ry)
         fusion: read by step 4 (matmul), which is not elementwise and does not fuse
         backend: numexpr: backend='numexpr'
         numexpr: sqrt(i0)
         buffer: %0 is user/cached data
step 4   blas             %4:float64[4,3] = matmul %3 %1 -> b1 (new)  free b0  # test_explain.py:@ry
         buffer: new (only fused kernels write in place or into reused buffers)
step 5   numpy            %5:float64[] = sum %4 axis=(0, 1) keepdims=False -> b2 (new)  # test_explain.py:@rz
         buffer: new (only fused kernels write in place or into reused buffers)
step 6   kernel[numexpr]  %6:float64[4,3] = { ((abs(i0) * i1) + i2) } %0 %2 %5 -> b0 (reused from %3, dead after step 4)  free b2  # test_explain.py:@rz
         fusion: 3 ops in one kernel: abs, multiply, add (test_explain.py:@rz)
         fusion: not fused into later steps: it is an output
         backend: numexpr: backend='numexpr'
         numexpr: ((abs(i0) * c1) + i2)
         buffer: reuses dead buffer b0
-- 7 steps: 2 fused kernels (2 numexpr), 1 numpy call, 1 BLAS call; 3 buffers, temporaries 8 B, peak estimate 200 B
-- graph: 9 nodes before optimization, 7 after; removed: 2 fused into kernels
"""


def test_debugprint_golden() -> None:
    assert lt.debugprint(*model(), renumber=True) == golden(GOLD_DEBUGPRINT)


def test_explain_golden_numpy_backend() -> None:
    with lt.set_options(backend="numpy"):
        assert lt.explain(*model(), renumber=True) == golden(GOLD_EXPLAIN_NUMPY)


def test_explain_verbose_golden() -> None:
    with lt.set_options(backend="numpy"):
        assert lt.explain(*model(), renumber=True, verbose=True) == golden(GOLD_EXPLAIN_VERBOSE)


def test_explain_reuse_numexpr_golden() -> None:
    with lt.set_options(backend="numexpr"):
        text = lt.explain(*reuse(), renumber=True, verbose=True)
    assert text == golden(GOLD_EXPLAIN_REUSE_NUMEXPR)


def test_renumbered_text_is_the_same_on_every_build() -> None:
    with lt.set_options(backend="numpy"):
        first = lt.explain(*model(), renumber=True, verbose=True)
        gc.collect()
        second = lt.explain(*model(), renumber=True, verbose=True)
    assert first == second
    # Both graphs alive at once: the second shares the first's (older)
    # constants, and the renumbered debug print still reads the same.
    one, two = model(), model()
    assert lt.debugprint(*one, renumber=True) == lt.debugprint(*two, renumber=True)


def test_default_numbering_uses_node_ids() -> None:
    # Without renumbering, explain and debugprint name the nodes themselves,
    # so ids can be matched with Tensor.node.id.
    d, h = model()
    a = h.node
    text = lt.debugprint(d, h)
    assert text.splitlines()[-1] == f"return %{d.node.id}, %{a.id}"
    with lt.set_options(backend="numpy"):
        plan = lt.plan(d, h)
    text = plan.format()            # the text of this plan (explain makes a new one)
    assert lt.explain(d, h).splitlines()[0] == text.splitlines()[0]
    kernel = plan.kernels[0].node
    assert f"%{kernel.id}:{kernel.type_str()} = " in text
    (inplace,) = [s for s in plan.steps if s.inplace_of is not None][:1]
    assert f"in place of %{inplace.inplace_of})" in text


def test_debugprint_shows_shared_nodes_once() -> None:
    x = lt.asarray(np.ones(5))  # @shared_x
    y = lt.exp(x)  # @shared_y
    z = y * y + y  # @shared_z
    text = lt.debugprint(z, renumber=True)
    assert text == golden("""
%0:float64[5] = input             # test_explain.py:@shared_x
%1:float64[5] = exp %0            # test_explain.py:@shared_y
%2:float64[5] = multiply %1 %1    # test_explain.py:@shared_z
%3:float64[5] = add %2 %1         # test_explain.py:@shared_z
return %3
""")


def test_debugprint_line_format_matches_the_issue() -> None:
    # ``%7:float64[1000,3] = add %3 %5   # model.py:12``
    x = lt.asarray(np.ones((1000, 3)))
    y = lt.asarray(np.ones((1000, 3)))
    text = lt.debugprint(x + y)
    line = text.splitlines()[2]
    assert re.fullmatch(rf"%\d+:float64\[1000,3\] = add %\d+ %\d+ +# {_HERE}:\d+", line)


def test_explain_marks_cached_values_and_empty_plans() -> None:
    x = lt.asarray(np.arange(4.0))
    y = x * 3
    y.eval()                  # cached: the next plan starts from it
    with lt.set_options(backend="numpy"):
        text = lt.explain(y + 1, renumber=True)
    assert "(cached value)" in text.splitlines()[0]
    with lt.set_options(backend="numpy"):
        text = lt.explain(x, renumber=True)
    assert text.splitlines()[-2].startswith("-- 1 step: no work; 0 buffers")


def test_explain_computes_nothing() -> None:
    x = lt.asarray(np.arange(4.0))
    y = lt.exp(x) + 1
    lt.explain(y, verbose=True)
    assert y.node.value is None


def test_explain_shows_blocked_kernels_and_removed_nodes() -> None:
    # A large kernel under backend="numpy" runs blocked (cache-sized pieces).
    from lazyten.exec.cost import get_model
    n = get_model().block_elems * 2 + 7
    x = lt.asarray(np.ones((n, 1)))
    with lt.set_options(backend="numpy"):
        text = lt.explain((lt.exp(x) * 1) * 2, renumber=True)
    assert "kernel[blocked]" in text
    assert "removed: 2 by simplify" in text   # exp(x) * 1 and the constant 1


def test_verbose_names_the_lines_a_kernel_was_built_from() -> None:
    x = lt.asarray(np.ones(5))
    y = x * 2  # @k1
    z = lt.exp(y) - 1  # @k2
    with lt.set_options(backend="numpy"):
        text = lt.explain(z, verbose=True, renumber=True)
    assert golden("fusion: 3 ops in one kernel: multiply (test_explain.py:@k1), "
                  "exp, subtract (test_explain.py:@k2)") in text


def test_renumbered_plan_does_not_depend_on_how_old_a_shared_constant_is() -> None:
    def build() -> lt.Tensor:
        x = lt.asarray(np.ones((3, 2)))
        m = lt.asarray(np.ones((2, 2)))
        return lt.exp(x @ m) - 0.75       # a constant in a non-commutative op

    with lt.set_options(backend="numpy"):
        fresh = lt.explain(build(), renumber=True, verbose=True)
        keep = lt.asarray(np.ones(1)) - 0.75   # the same constant, alive and older
        shared = lt.explain(build(), renumber=True, verbose=True)
    # hash-consing: every "- 0.75" reads the one constant node keep made
    assert (lt.asarray(np.ones(1)) - 0.75).node.inputs[1] is keep.node.inputs[1]
    # The constant node is shared, source line included: it names the line
    # that first built it (keep's), so compare without the comments.
    assert strip(fresh) == strip(shared)
    assert fresh.splitlines()[2].startswith("step 2   input            %2:float64[] "
                                            "(const 0.75, weak)")


def strip(text: str) -> list[str]:
    return [re.sub(r"  # \S+:\d+$", "", t) for t in text.splitlines()]


def test_explain_names_recomputed_ops() -> None:
    a = lt.asarray(np.arange(200_000.0))
    b = lt.asarray(np.ones(200_000))
    x = a * b                           # read by two kernels, cheap: recomputed
    text = lt.explain(x + 1, x.max(), verbose=True)
    assert text.count("fusion: recomputes multiply, also computed by other kernels") == 2
    e = lt.exp(a)                       # costly: stored once, and explain says why
    text = lt.explain(e + 1, e * 2, verbose=True)
    assert "computing it in each would cost more than storing it once" in text


def test_why_no_in_place_write_names_a_few_operands_and_counts_the_rest() -> None:
    # A sum of 10 user arrays: each one is a reason the kernel writes a new
    # buffer; the plan names the first WHY_NOT_SHOWN and counts the others
    # (a kernel over 10,000 arrays would otherwise carry 10,000 reasons).
    from lazyten.exec.planner import WHY_NOT_SHOWN
    xs = [lt.asarray(np.full(4, float(k))) for k in range(10)]
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    text = lt.explain(total, verbose=True, renumber=True)
    (line,) = [t for t in text.splitlines() if t.strip().startswith("buffer: %")]
    shown = [f"%{k} is user/cached data" for k in range(WHY_NOT_SHOWN)]
    assert line.strip() == "buffer: " + "; ".join(shown + [f"{10 - WHY_NOT_SHOWN} more"])
