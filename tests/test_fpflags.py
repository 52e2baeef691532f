"""Compiled loops warn (or call, or raise) as eager NumPy does.

A compiled loop raises the CPU's floating-point flags but reports nothing;
``exec/fpflags.py`` reads them after the loop, and a kernel whose loop raised
a flag that ``np.errstate`` heeds runs again on NumPy, which reports it
exactly (or, where the loop overwrote an input, ``fpflags.report`` does).
Each case compares the messages and the values with eager NumPy's.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.exec import fpflags, loop_backend, numpy_backend

pytestmark = pytest.mark.skipif(not (loop_backend.available() and fpflags.AVAILABLE),
                                reason="needs numba and C99's fetestexcept")

N = 200_000           # over loop_backend.AUTO_MIN, and several blocks


def messages(fn: Callable[[], Any]) -> tuple[Any, set[str]]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        val = fn()
    return val, {str(m.message) for m in w if issubclass(m.category, RuntimeWarning)}


def data() -> dict[str, np.ndarray[Any, Any]]:
    rng = np.random.default_rng(0)
    a = rng.standard_normal(N)
    b = rng.standard_normal(N)
    z = b.copy()
    z[[7, N // 2]] = 0.0                  # divide by zero
    big = np.full(N, 1e300)
    inf = np.full(N, 1.0)
    inf[[3, N - 5]] = np.inf              # inf - inf: invalid
    nan = a.copy()
    nan[::1000] = np.nan                  # NaN: no flag in NumPy
    return {"a": a, "b": b, "z": z, "big": big, "inf": inf, "nan": nan,
            "m": a.reshape(400, 500), "rz": z[:500].copy(), "mz": z.reshape(400, 500)}


# (name, expression over a namespace of tensors or arrays): each is computed
# eagerly by NumPy and as one kernel by lazyten.  ``lt`` and ``np`` name the
# same functions here.
CASES: list[tuple[str, Callable[[Any, dict[str, Any]], Any]]] = [
    ("divide ew", lambda m, d: d["a"] / d["z"] + 1.0),
    ("divide sum", lambda m, d: m.sum(d["a"] / d["z"])),
    ("divide rows", lambda m, d: m.sum(d["m"] / d["mz"], axis=1)),
    ("divide cols", lambda m, d: m.sum(d["m"] / d["mz"] - 1.0, axis=0)),
    ("divide by a row", lambda m, d: (d["m"] - 1.0) / d["rz"]),
    ("overflow", lambda m, d: d["big"] * d["big"] - 1.0),
    ("overflow in a cast", lambda m, d: (d["big"] * 2.0).astype(np.float32) + np.float32(1)),
    ("overflow in a sum", lambda m, d: m.sum(d["big"] * 1e8)),
    ("invalid", lambda m, d: (d["inf"] - d["inf"]) * 2.0),
    ("invalid beside a compare", lambda m, d: m.where(d["a"] > 0.0, d["inf"] - d["inf"], 1.0)),
    ("mixed: divide in the tail", lambda m, d: m.sin(d["a"]) / d["z"] + 1.0),
    ("mixed: divide in a sum's tail", lambda m, d: m.sum(m.sin(d["a"]) / d["z"] - 1.0)),
    ("mixed: overflow in the head", lambda m, d: m.exp(d["big"]) * 2.0 + d["a"]),
    ("NaNs compared: no flag in NumPy", lambda m, d: m.where(d["nan"] > 0.0, d["nan"], 0.0)
     * 2.0 + m.maximum(d["nan"], 0.5)),
    ("nothing raised", lambda m, d: d["a"] * d["b"] + 1.0),
]


@pytest.mark.parametrize("backend", ["loop", "auto"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_loops_warn_as_numpy(case: tuple[str, Any], backend: str) -> None:
    _, expr = case
    d = data()
    exp, exp_msgs = messages(lambda: expr(np, d))
    t = {k: lt.asarray(v) for k, v in d.items()}
    e = expr(lt, t)
    with lt.set_options(backend=backend):
        for run in range(3):              # ("auto" compiles at the 2nd run)
            got, msgs = messages(lambda: lt.compute(e)[0])
            assert msgs == exp_msgs, (run, msgs, exp_msgs)
            np.testing.assert_array_equal(got, exp)
        if backend == "loop":            # ("auto" may find NumPy faster)
            (k,) = lt.plan(e).kernels
            assert k.kernel is not None and k.kernel.backend in ("loop", "mixed")


def count_numpy_runs(monkeypatch: Any) -> list[str]:
    ran: list[str] = []
    for name in ("run_blocked", "run_plain"):
        real = getattr(numpy_backend, name)

        def spy(*args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            ran.append(_name)
            return _real(*args, **kw)
        monkeypatch.setattr(numpy_backend, name, spy)
    return ran


def test_numpy_runs_again_only_for_flags_errstate_heeds(monkeypatch: Any) -> None:
    d = data()
    a, b, z = (lt.asarray(d[k]) for k in "abz")
    clean, zero = a / b + 1.0, a / z + 1.0
    with lt.set_options(backend="loop", threads=2):
        messages(lambda: lt.compute(clean, zero))      # compiled
        ran = count_numpy_runs(monkeypatch)
        messages(lambda: lt.compute(clean))
        assert ran == []
        with np.errstate(divide="ignore"):
            _, msgs = messages(lambda: lt.compute(zero))
        assert ran == [] and msgs == set()
        _, msgs = messages(lambda: lt.compute(zero))
        assert ran == ["run_blocked"] and msgs == {"divide by zero encountered in divide"}
        # errstate's callback is called on NumPy's worker threads too
        log: list[str] = []
        with np.errstate(divide="call", call=lambda kind, flag: log.append(kind)):
            lt.compute(zero)
        assert set(log) == {"divide by zero"}


def test_errstate_raise_lets_loops_run_and_numpy_raise(monkeypatch: Any) -> None:
    d = data()
    a, b, z = (lt.asarray(d[k]) for k in "abz")
    clean, zero, mixed = a / b + 1.0, a / z + 1.0, lt.sin(a) / z + 1.0
    with lt.set_options(backend="loop", threads=2):
        messages(lambda: lt.compute(clean, zero, mixed))   # compiled
        ran = count_numpy_runs(monkeypatch)
        with np.errstate(all="raise"):
            np.testing.assert_array_equal(lt.compute(clean)[0], d["a"] / d["b"] + 1.0)
            assert ran == []                 # the loop, and no flag
            for e in (zero, mixed):
                with pytest.raises(FloatingPointError,
                                   match="divide by zero encountered in divide") as info:
                    lt.compute(e)
                assert any("in that fused kernel, divide (t" in n
                           for n in getattr(info.value, "__notes__", []))
        # Where the flags cannot be read, "raise" runs NumPy from the start.
        monkeypatch.setattr(fpflags, "AVAILABLE", False)
        ran.clear()
        with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
            lt.compute(zero)
        assert ran == ["run_blocked"]


def test_a_loop_that_overwrote_its_input_reports_the_flags() -> None:
    # cumsum's result dies at the kernel, which writes in place over it: the
    # input is gone, so NumPy cannot run again, and fpflags.report warns.
    d = data()
    x, z = lt.asarray(d["a"]), lt.asarray(d["z"])
    e = lt.cumsum(x) / z + 1.0
    with lt.set_options(backend="loop"):
        assert "(in place of %" in lt.explain(e)
        exp, exp_msgs = messages(lambda: np.cumsum(d["a"]) / d["z"] + 1.0)
        got, msgs = messages(lambda: lt.compute(e)[0])
        assert msgs == exp_msgs == {"divide by zero encountered in divide"}
        np.testing.assert_array_equal(got, exp)
        log: list[str] = []
        with np.errstate(divide="call", call=lambda kind, flag: log.append(kind)):
            lt.compute(e)
        assert log == ["divide by zero"]
        with np.errstate(divide="ignore"):
            assert messages(lambda: lt.compute(e))[1] == set()
        with np.errstate(divide="raise"), \
                pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            lt.compute(e)


def test_flags_are_read_and_cleared() -> None:
    fpflags.clear()
    assert fpflags.raised() == 0
    with np.errstate(all="ignore"):
        # NumPy clears the flags before a ufunc runs, and leaves its own set
        np.divide(np.array([1.0, 0.0]), 0.0)
    assert fpflags.raised() == fpflags.DIVIDE | fpflags.INVALID
    fpflags.clear()
    assert fpflags.raised() == 0
    with np.errstate(divide="ignore", invalid="warn"):
        assert fpflags.heeded(fpflags.DIVIDE | fpflags.INVALID) == fpflags.INVALID


@pytest.mark.parametrize("flag, ops, message", [
    (fpflags.DIVIDE, ["add", "divide"], "divide by zero encountered in divide"),
    (fpflags.OVER, ["add", "multiply"], "overflow encountered in add"),
    (fpflags.OVER, ["astype"], "overflow encountered in cast"),
    (fpflags.OVER, ["multiply", "sum"], "overflow encountered in multiply"),
    (fpflags.UNDER, ["add", "multiply"], "underflow encountered in multiply"),
    (fpflags.INVALID, ["negative", "multiply"], "invalid value encountered in multiply"),
])
def test_report_names_the_first_op_that_can_raise_the_flag(flag: int, ops: list[str],
                                                           message: str) -> None:
    with np.errstate(all="warn"):
        assert messages(lambda: fpflags.report(flag, ops))[1] == {message}
    with np.errstate(all="raise"), pytest.raises(FloatingPointError, match=message):
        fpflags.report(flag, ops)


def test_report_leaves_out_an_invalid_that_a_compare_may_have_raised() -> None:
    # LLVM's vector compares signal on NaN; NumPy's are quiet.
    with np.errstate(all="warn"):
        assert messages(lambda: fpflags.report(fpflags.INVALID, ["less", "subtract"]))[1] \
            == set()


def test_profile_shows_a_kernel_run_again_for_its_flags() -> None:
    d = data()
    a, b, z = (lt.asarray(d[k]) for k in "abz")
    with lt.set_options(backend="loop"):
        messages(lambda: lt.compute(a / z + 1.0, a / b + 1.0))     # compiled
        (_,), clean = lt.profile(a / b + 1.0)
        ((_,), again), msgs = messages(lambda: lt.profile(a / z + 1.0))
    assert msgs == {"divide by zero encountered in divide"}
    (r1,), (r2,) = clean.rows, again.rows
    assert r1.backend == r2.backend == "loop"
    assert not r1.ran_again and "run again" not in str(clean)
    assert r2.ran_again and "(run again on NumPy: FP flags)" in str(again)
