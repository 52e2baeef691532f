"""Errors raised while running name the node (or plan step) and the user's line.

The exception keeps its type (so ``except FloatingPointError`` still works)
and gains notes (``e.__notes__``, shown under the traceback):

    FloatingPointError: divide by zero encountered in divide
    lazyten: while computing step 3: { ((i0 / i1) + i2) }, built at test_provenance.py:40
    lazyten: in that fused kernel, divide (t0) was built at test_provenance.py:39
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt

FILE = __file__


def line() -> int:
    """The caller's line number."""
    return sys._getframe(1).f_lineno


def at(n: int) -> str:
    return f"{FILE}:{n}"


ENGINES = [
    pytest.param({"optimize": False, "backend": "numpy"}, id="reference"),
    pytest.param({"optimize": True, "backend": "numpy"}, id="optimized-numpy"),
    pytest.param({"optimize": True, "backend": "numexpr"}, id="optimized-numexpr"),
    # (tiny_elements=0: these arrays are small, and a fused kernel's notes are tested)
    pytest.param({"optimize": True, "backend": "auto", "tiny_elements": 0}, id="optimized-auto"),
]

FORCERS: list[Callable[[lt.Tensor], Any]] = [
    lambda t: t.eval(),
    lambda t: lt.compute(t),
    lambda t: lt.profile(t),
    lambda t: np.asarray(t),
]


def notes(err: BaseException) -> list[str]:
    return list(getattr(err, "__notes__", []))


@pytest.mark.parametrize("opts", ENGINES)
def test_division_by_zero_names_the_users_line(opts: dict[str, Any]) -> None:
    a = lt.asarray(np.ones(4))
    b = lt.asarray(np.zeros(4))
    y = a / b; L_div = line()  # noqa: E702
    with lt.set_options(**opts), np.errstate(all="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero") as info:
            y.eval()
    text = "\n".join(notes(info.value))
    assert at(L_div) in text
    if opts["optimize"]:
        assert "step " in text and "(i0 / i1)" in text    # the plan step, as explain shows it
    else:
        assert f"%{y.node.id}:float64[4] = divide" in text  # the node, as debugprint shows it


@pytest.mark.parametrize("opts", ENGINES)
def test_failure_inside_a_fused_kernel_names_the_failing_ops_line(opts: dict[str, Any]) -> None:
    a = lt.asarray(np.ones(4))
    b = lt.asarray(np.zeros(4))
    y = a / b; L_div = line()  # noqa: E702
    z = lt.sqrt(y + 1) * 2; L_root = line()  # noqa: E702
    if opts["optimize"]:
        with lt.set_options(**opts):
            plan = lt.plan(z)
        assert len(plan.kernels) == 1 and len(plan.kernels[0].node.attrs["program"]) == 4
    with lt.set_options(**opts), np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as info:
            z.eval()
    ns = notes(info.value)
    assert any(at(L_div) in n for n in ns), ns
    if opts["optimize"]:
        # first note: the kernel step (built at its last line); second: the
        # instruction that failed and the line that built it
        assert ns[0].startswith("lazyten: while computing step ")
        assert ns[0].endswith(f"built at {at(L_root)}")
        assert ns[1] == f"lazyten: in that fused kernel, divide (t0) was built at {at(L_div)}"


@pytest.mark.parametrize("opts", ENGINES)
def test_overflow_in_a_kernel(opts: dict[str, Any]) -> None:
    x = lt.asarray(np.array([1.0, 1000.0]))
    y = x * 2; L_mul = line()  # noqa: E702
    z = lt.exp(y) - 1; L_exp = line()  # noqa: E702
    with lt.set_options(**opts), np.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="overflow encountered in exp") as info:
            z.eval()
    text = "\n".join(notes(info.value))
    assert at(L_exp) in text
    if opts["optimize"]:
        assert f"exp (t1) was built at {at(L_exp)}" in text
        assert at(L_mul) not in text          # the multiply did not fail


@pytest.mark.parametrize("opts", ENGINES)
def test_a_non_floating_point_failure_in_a_kernel(opts: dict[str, Any]) -> None:
    a = lt.asarray(np.array([2, 3]))
    b = lt.asarray(np.array([-1, 2]))
    y = a ** b; L_pow = line()  # noqa: E702
    z = y + 1; L_add = line()  # noqa: E702
    with lt.set_options(**opts):
        with pytest.raises(ValueError, match="negative integer powers") as info:
            z.eval()
    ns = notes(info.value)
    if opts["optimize"]:
        # NumPy's message does not name the ufunc: every line of the kernel
        assert ns[1] == (f"lazyten: that fused kernel was built from pow at {at(L_pow)}; "
                         f"add at {at(L_add)}")
    else:
        assert ns == [f"lazyten: while computing %{y.node.id}:int64[2] = pow "
                      f"%{a.node.id} %{b.node.id}, built at {at(L_pow)}"]


@pytest.mark.parametrize("opts", [
    pytest.param({"optimize": False, "backend": "numpy"}, id="reference"),
    pytest.param({"optimize": True, "backend": "numpy"}, id="optimized"),
])
def test_an_allocation_too_big_raises_memory_error_naming_the_line(opts: dict[str, Any]) -> None:
    z = lt.zeros((10**6, 10**7)) + 1; L_z = line()  # noqa: E702  (80 TB: NumPy refuses at once)
    with lt.set_options(**opts):
        with pytest.raises(MemoryError) as info:
            z.eval()
    assert any(at(L_z) in n for n in notes(info.value))


def test_memory_error_inside_a_kernel_keeps_its_type(monkeypatch: pytest.MonkeyPatch) -> None:
    from lazyten.exec import kernels

    def boom(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise MemoryError("simulated: kernel buffer could not be allocated")

    monkeypatch.setattr(kernels.Kernel, "run", boom)
    a = lt.asarray(np.ones(40_000))  # past the fast path's size: runs Kernel.run
    z = lt.exp(a) + 1; L_z = line()  # noqa: E702
    with lt.set_options(optimize=True, backend="numpy"):
        with pytest.raises(MemoryError, match="simulated") as info:
            z.eval()
    ns = notes(info.value)
    assert ns[0].startswith("lazyten: while computing step 2: { (exp(i0) + i1) }")
    assert ns[0].endswith(at(L_z))


@pytest.mark.parametrize("force", FORCERS, ids=["eval", "compute", "profile", "asarray"])
def test_every_way_of_forcing_carries_the_note(force: Callable[[lt.Tensor], Any]) -> None:
    a = lt.asarray(np.ones(3))
    y = lt.log(a - 1); L_log = line()  # noqa: E702
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as info:
            force(y)
    assert any(at(L_log) in n for n in notes(info.value))


def test_the_note_shows_in_the_printed_traceback() -> None:
    a = lt.asarray(np.zeros(2))
    y = a / a; L_div = line()  # noqa: E702
    with np.errstate(all="raise"):
        try:
            y.eval()
        except FloatingPointError as e:
            printed = "".join(traceback.format_exception(e))
        else:
            pytest.fail("no error raised")
    assert "FloatingPointError: invalid value encountered in divide" in printed
    assert f"built at {at(L_div)}" in printed


def test_no_error_no_note() -> None:
    a = lt.asarray(np.ones(2))
    with np.errstate(divide="ignore"):
        assert np.isinf(lt.compute(a / 0)[0]).all()


@pytest.mark.parametrize("backend", ["numpy", "auto"])
def test_errstate_reaches_blocked_kernels_on_worker_threads(backend: str) -> None:
    # Big enough to run blocked, in parallel: np.errstate is per thread, so
    # the workers must take the caller's settings.
    from lazyten.exec.cost import get_model
    n = get_model().block_elems * 8
    a = lt.asarray(np.ones((n, 1)))
    b = lt.asarray(np.zeros((n, 1)))
    y = a / b + 1; L_y = line()  # noqa: E702
    with lt.set_options(backend="numpy", threads=4):
        assert "kernel[blocked]" in lt.explain(y)
    with lt.set_options(backend=backend, threads=4), np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as info:
            y.eval()
    assert any(at(L_y) in n for n in notes(info.value))
    assert y.node.value is None             # nothing cached from a failed run


def build_here(a: lt.Tensor, b: lt.Tensor) -> tuple[lt.Tensor, int]:
    return a / b + 1, line()


def build_there(a: lt.Tensor, b: lt.Tensor) -> tuple[lt.Tensor, int]:
    return a / b + 1, line()


def test_a_cached_plan_names_this_graphs_lines() -> None:
    # Two graphs of the same structure built on different lines: the plan
    # cached for one must not make errors in the other name its lines.
    ones = np.ones(1000)
    for build in (build_here, build_there):
        build(lt.asarray(ones), lt.asarray(ones))[0].eval()
    y, L_y = build_here(lt.asarray(ones), lt.asarray(np.zeros(1000)))
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as info:
            y.eval()
    text = "\n".join(notes(info.value))
    assert at(L_y) in text
    assert at(build_there(y, y)[1]) not in text


def test_compiled_function_errors_name_the_line() -> None:
    x = lt.placeholder((4,), np.float64, name="x")
    y = 1 / x + 1; L_y = line()  # noqa: E702
    f = lt.function([x], [y])
    f(np.ones(4))
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as info:
            f(np.zeros(4))
    assert any(at(L_y) in n for n in notes(info.value))


def test_errors_through_numpys_functions_name_the_users_line() -> None:
    """``np.sum(t, axis=3)`` calls ``t.sum`` from NumPy's fromnumeric.py:
    the build error names the user's line, not NumPy's."""
    t = lt.asarray(np.ones((2, 3)))
    with pytest.raises(np.exceptions.AxisError) as info:
        n = line(); np.sum(t, axis=3)  # noqa: E702 - the line the error must name
    assert f"test_provenance.py:{n})" in str(info.value), str(info.value)
    with pytest.raises(ValueError) as info:
        n = line(); np.reshape(t, (4, 2))  # noqa: E702
    assert f"test_provenance.py:{n})" in str(info.value), str(info.value)
    with pytest.raises(ValueError) as info:
        n = line(); np.transpose(t, (0, 0))  # noqa: E702
    assert f"test_provenance.py:{n})" in str(info.value), str(info.value)
