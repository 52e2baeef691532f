"""The CPU's floating-point exception flags, read around compiled loops.

NumPy warns ("divide by zero encountered in divide") or raises, as
``np.errstate`` says, from the flags that its ufunc loops leave set in the
CPU's floating-point status.  A compiled loop (numba) sets the same flags,
but nothing reads them, so its kernels were silent where eager NumPy warns.
This module reads them (C99's ``fetestexcept``, through ctypes: 0.3 us a
call), per thread, as the flags are.  What a kernel does with them is in
``kernels.Kernel.run``: run again on NumPy, which warns exactly as eager
NumPy does, or, where the loop overwrote an input, ``report``.

Not every flag is NumPy's: LLVM compiles a vectorized ``<``, ``<=``, ``>``,
``>=`` (and maximum/minimum, which compare) to signalling compares, which
raise "invalid" on a NaN, where NumPy's comparisons are quiet.  Running
again on NumPy sorts that out; ``report`` leaves such an "invalid" out.

Where libm has no ``fetestexcept`` (or the flags' bits are not known for
this CPU), ``AVAILABLE`` is False: loops stay silent, as numexpr is
(its threads' flags are its own: ``kernels.numexpr_now`` says where it may
run), and under ``np.errstate(...="raise")`` kernels run on NumPy instead
(``loops_may_run``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

# np.errstate's names for the flags, in the order NumPy reports them.
DIVIDE, OVER, UNDER, INVALID = 1, 2, 4, 8
NAMES = {DIVIDE: "divide", OVER: "over", UNDER: "under", INVALID: "invalid"}

# <fenv.h>'s FE_* bits: the hardware's status bits on each architecture.
_FE_BITS = {
    "x86": {DIVIDE: 0x04, OVER: 0x08, UNDER: 0x10, INVALID: 0x01},
    "arm": {DIVIDE: 0x02, OVER: 0x04, UNDER: 0x08, INVALID: 0x01},
}
_ARCH = {"x86_64": "x86", "amd64": "x86", "i386": "x86", "i686": "x86",
         "aarch64": "arm", "arm64": "arm"}


def _libm() -> tuple[Callable[[int], int], Callable[[int], int]] | None:
    name = ctypes.util.find_library("m")
    if name is None or platform.machine().lower() not in _ARCH:
        return None
    try:
        lib = ctypes.CDLL(name)
        test, clear = lib.fetestexcept, lib.feclearexcept
    except (OSError, AttributeError):
        return None
    for f in (test, clear):
        f.argtypes, f.restype = [ctypes.c_int], ctypes.c_int
    return test, clear


_fns = _libm()
AVAILABLE = _fns is not None
_bits = _FE_BITS[_ARCH.get(platform.machine().lower(), "x86")]
_ALL = sum(_bits.values())


def clear() -> None:
    """Clear this thread's flags (before a loop runs)."""
    if _fns is not None:
        _fns[1](_ALL)


def raised() -> int:
    """This thread's flags raised since ``clear``, as DIVIDE | OVER | ..."""
    if _fns is None:
        return 0
    fe = _fns[0](_ALL)
    return sum(f for f, b in _bits.items() if fe & b) if fe else 0


def union(flags: Sequence[int]) -> int:
    """The flags raised on any of several threads or blocks."""
    out = 0
    for f in flags:
        out |= f
    return out


_again = threading.local()


def ran_again() -> int:
    """Kernels this thread has run again on NumPy for their flags (``lt.profile``
    shows which: a kernel that compares NaNs pays a NumPy run each time)."""
    return int(getattr(_again, "n", 0))


def count_run_again() -> None:
    _again.n = ran_again() + 1


def loops_may_run() -> bool:
    """Whether a compiled loop may run under the current ``np.errstate``:
    its flags are read, or nothing raises (then a loop is only silent
    where NumPy would warn)."""
    return AVAILABLE or not errstate_now()[1]


def heeded(flags: int) -> int:
    """The flags among ``flags`` that ``np.errstate`` does not ignore."""
    return flags & errstate_now()[0] if flags else 0


ALL = DIVIDE | OVER | UNDER | INVALID

try:   # NumPy 2's errstate: an immutable object a context variable holds
    from numpy._core._multiarray_umath import _extobj_contextvar as _errstate_var
except ImportError:  # pragma: no cover - another NumPy layout
    _errstate_var = None
_last_state: tuple[Any, int, bool] = (None, 0, False)


def errstate_now() -> tuple[int, bool]:
    """(the flags ``np.errstate`` heeds now, whether it raises for one):
    ``np.geterr``'s, kept for the state object it was read from (identity
    is the state: a small kernel asks at every run, and ``np.geterr`` is a
    dict of five strings)."""
    global _last_state
    state = _errstate_var.get() if _errstate_var is not None else None
    last = _last_state
    if state is not None and last[0] is state:
        return last[1], last[2]
    err: dict[str, Any] = dict(np.geterr())
    heeds = 0
    for f, name in NAMES.items():
        if err[name] != "ignore":
            heeds |= f
    raises = "raise" in err.values()
    if state is not None:
        _last_state = (state, heeds, raises)     # (one tuple: threads see all or none)
    return heeds, raises


def finite(a: np.ndarray[Any, Any]) -> bool:
    """Whether every value of float or complex ``a`` is finite, as far as its
    sum tells: a NaN or an infinity makes the sum one (so do finite values
    that overflow it, a false alarm).  One pass, no temporary."""
    with np.errstate(all="ignore"):       # (inf + -inf in the sum: its own "invalid")
        return bool(np.isfinite(a.sum()))


# Ops of the loops that compare (signalling in LLVM's vector code), and per
# flag, the loop ops that can raise it with a computation that raises it in
# NumPy: ``report`` names the kernel's first such op, as NumPy's message
# names the ufunc.
COMPARES = frozenset({"less", "less_equal", "greater", "greater_equal", "maximum",
                      "minimum"})
_HUGE, _TINY, _INF = 1e308, 1e-308, float("inf")
_RAISE: dict[int, dict[str, Callable[[], Any]]] = {
    DIVIDE: {"divide": lambda: np.divide(1.0, 0.0)},
    OVER: {"multiply": lambda: np.multiply(_HUGE, 10.0),
           "add": lambda: np.add(_HUGE, _HUGE),
           "subtract": lambda: np.subtract(-_HUGE, _HUGE),
           "divide": lambda: np.divide(_HUGE, 0.1),
           "square": lambda: np.square(_HUGE),
           "astype": lambda: np.array(_HUGE).astype(np.float32),
           "sum": lambda: np.add.reduce(np.array([_HUGE, _HUGE]))},
    UNDER: {"multiply": lambda: np.multiply(_TINY, _TINY),
            "divide": lambda: np.divide(_TINY, 1e10),
            "square": lambda: np.square(_TINY),
            "astype": lambda: np.array(_TINY).astype(np.float32)},
    INVALID: {"subtract": lambda: np.subtract(_INF, _INF),
              "add": lambda: np.add(_INF, -_INF),
              "multiply": lambda: np.multiply(0.0, _INF),
              "divide": lambda: np.divide(0.0, 0.0)},
}


def report(flags: int, ops: Sequence[str]) -> None:
    """Warn or raise for ``flags`` as NumPy would, through NumPy's own error
    handling (so every ``np.errstate`` mode and ``np.seterrcall`` work): the
    fallback where a kernel cannot run again on NumPy.  One message a flag,
    naming the first of ``ops`` that can raise it (NumPy names each ufunc
    that did); no "invalid" from a kernel that compares (see above)."""
    for flag in (DIVIDE, OVER, UNDER, INVALID):
        if not flags & flag or (flag == INVALID and COMPARES.intersection(ops)):
            continue
        make = next((_RAISE[flag][op] for op in ops if op in _RAISE[flag]), None)
        if make is not None:
            # (only this flag: the others that the computation raises, such
            # as an overflow's inexact, are not the kernel's)
            modes: dict[str, Any] = {k: "ignore" for k in NAMES.values()}
            modes[NAMES[flag]] = dict(np.geterr())[NAMES[flag]]
            with np.errstate(**modes):
                make()
