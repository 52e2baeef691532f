"""Random layout programs, run with NumPy and with lazyten, compared.

A program starts from one array (C or Fortran ordered, permuted, a
stepped slice of a larger array, or broadcast from a smaller one; seven
dtypes, zero-size shapes among them) and applies one to four operations:
elementwise ops with scalars and arrays of other layouts and dtypes
(outer ones too, ``x[:, None] - y``), ``where``, ``clip``, comparisons,
scans (``cumsum``, ``cumprod``, ``sort``) and reductions over random axes
(with ``keepdims``), and views in between (transposes, slices with steps,
integer indices, new axes, broadcasts).  ``check`` compares the result
with NumPy's in three ways:

* its layout as lazyten infers it when the graph is built
  (``lazyten.graph.layout.infer``), against the memory order and the
  contiguity flags of NumPy's result;
* its values, dtype, flags and memory order once evaluated, by ``eval``
  and by ``lt.compute`` (each its own way to NumPy's layout);
* view or copy: ``r.reshape(-1)``, ``r.ravel("K")`` and ``r.ravel("A")``
  are views of ``r`` exactly where NumPy's are, so a write into one shows
  in ``r`` (or not) as in NumPy, whether ``r`` was evaluated first or not.

In the "jit" mode the program is an ``@lt.jit`` function of the arrays it
wraps (``W``), called twice (traced, then from the cache with other
values): its results' values and layouts against NumPy's.

``tests/test_layout_programs.py`` runs a few hundred; ``benchmarks/fuzz_programs.py
layouts`` as many as asked.
"""

from __future__ import annotations

import math
import random
import warnings
from typing import Any

import numpy as np

import lazyten as lt
from lazyten.graph.layout import infer, layout_stand_in

from tests.util import SHARED_MODES, crash, fewer_lines, same

DTYPES = ["b", "i4", "i8", "f4", "f8", "c16", "u1"]
SCALARS = ["2", "3", "1.5", "0.5", "True", "(1+2j)", "np.float32(2.5)", "-1"]
# the most elements a starting array and any value may have (``big``: the
# planned paths, beyond ``tiny_elements``, with blocks and threads)
START_SIZE, MAX_SIZE = 150, 400
BIG_START_SIZE, BIG_MAX_SIZE = 40_000, 160_000
# the views a result is written through, and when its writes reach it
VIEWS = ['reshape(-1)', 'ravel("K")', 'ravel("A")']

MODES: dict[str, dict[str, Any]] = {
    "default": {},
    "noopt": {"optimize": False, "backend": "numpy"},
    "check": {"check": True},
    # three runs in one process: node by node, planned, from the cached plan
    "repeat": {"_reps": 3},
    **SHARED_MODES,
}


def mk(shape: tuple[int, ...], dt: str, order: str = "C", k: int = 0
       ) -> np.ndarray[Any, Any]:
    """A new array of ``shape`` and dtype code ``dt`` laid out in ``order``
    ("C" or "F"), its values varied by ``k``: small multiples of 1/8,
    exact in every dtype."""
    n = math.prod(shape)
    v = ((np.arange(n) * 7 + k * 3) % 13 - 6).astype(np.float64)
    if dt == "b":
        a: np.ndarray[Any, Any] = v > 0
    elif dt in ("f4", "f8"):
        a = (v * 0.375 + 0.125).astype(dt)
    elif dt == "c16":
        a = (v * 0.5 + 1j * (v % 3 - 1)).astype(np.complex128)
    elif dt == "u1":
        a = (v + 6).astype(np.uint8)
    else:
        a = v.astype(dt)
    a = a.reshape(shape)
    return np.asfortranarray(a) if order == "F" else a.copy()


def program(seed: int, big: bool = False) -> list[str]:
    """The program of ``seed``: statements binding ``x`` and, last, ``r``,
    for a namespace where ``m`` is NumPy or lazyten and ``W`` makes a
    NumPy array an operand (``lt.asarray`` or nothing); ``big``: arrays of
    thousands of elements."""
    rng = random.Random(seed)
    while True:
        lines = _Gen(rng, big).program()
        if lines is not None:
            return lines


class _Gen:
    """One attempt at a program (None from ``program`` when a statement
    NumPy rejects or one too large could not be avoided)."""

    def __init__(self, rng: random.Random, big: bool = False) -> None:
        self.r = rng
        self.big = big
        self.max_size = BIG_MAX_SIZE if big else MAX_SIZE

    def shape(self, nd: int) -> tuple[int, ...]:
        sizes = [1, 3, 16, 33, 64, 128] if self.big else [1, 2, 2, 3, 3, 4, 5]
        while True:
            s = tuple(self.r.choice(sizes + [0] if self.r.random() < 0.08 else sizes)
                      for _ in range(nd))
            if not self.big and math.prod(s) <= START_SIZE or \
                    self.big and BIG_START_SIZE // 10 <= math.prod(s) <= BIG_START_SIZE:
                return s

    def slice(self, shape: tuple[int, ...]) -> str:
        parts = []
        for _ in shape:
            c = self.r.choice([":", ":", "::2", "::-1", "1:", "::-2", "1:2", ":1", "-1::-2"])
            parts.append("0:0" if self.r.random() < 0.03 else c)
        while parts and parts[-1] == ":" and self.r.random() < 0.5:
            parts.pop()
        return "[" + ", ".join(parts or ["::-1"]) + "]"

    def view(self, e: str, shape: tuple[int, ...]) -> str:
        """A random view of expression ``e`` of ``shape``."""
        nd, k = len(shape), self.r.random()
        if k < 0.2:
            return e + ".T"
        if k < 0.4:
            p = list(range(nd))
            self.r.shuffle(p)
            return f"{e}.transpose({tuple(p)})"
        if k < 0.62:
            return e + self.slice(shape)
        if k < 0.7 and nd > 1 and all(shape):
            # an integer on one axis (the axis dropped)
            ax = self.r.randrange(nd)
            i = self.r.randrange(-shape[ax], shape[ax])
            return e + "[" + ", ".join([":"] * ax + [str(i)]) + "]"
        if k < 0.82 and nd < 4:
            pos = self.r.randrange(nd + 1)
            return e + "[" + ", ".join([":"] * pos + ["None"]) + "]"
        # a broadcast: length-1 axes stretched, maybe an axis in front
        ns = [self.r.choice([2, 3]) if d == 1 and self.r.random() < 0.7 else d for d in shape]
        if nd < 4 and self.r.random() < 0.4:
            ns = [self.r.choice([1, 2, 3])] + ns
        if ns == list(shape):
            return e + ".T"
        return f"m.broadcast_to({e}, {tuple(ns)})"

    def base(self, shape: tuple[int, ...], dt: str, k: int) -> str:
        """An expression of ``shape`` over a new array, maybe through a view
        taken by NumPy before lazyten sees it (``W(a.T)``) or after
        (``W(a).T``)."""
        nd, order, kind = len(shape), self.r.choice("CCF"), self.r.random()
        numpy_side = self.r.random() < 0.5
        def wrap(e: str, view: str) -> str:
            return f"W({e}{view})" if numpy_side else f"W({e}){view}"
        if kind < 0.35 or nd == 0:
            return f"W(mk({shape}, '{dt}', '{order}', {k}))"
        if kind < 0.55:   # a permuted array
            p = list(range(nd))
            self.r.shuffle(p)
            inv = tuple(int(i) for i in np.argsort(p))
            return wrap(f"mk({tuple(shape[i] for i in p)}, '{dt}', '{order}', {k})",
                        f".transpose({inv})")
        if kind < 0.8:    # every other element of an array twice the size
            big = tuple(2 * d if d > 0 else 3 for d in shape)
            sl = ", ".join(self.r.choice(["::2", "::-2", "1::2"]) if d > 0 else "0:0"
                           for d in shape)
            return wrap(f"mk({big}, '{dt}', '{order}', {k})", f"[{sl}]")
        small = tuple(1 if self.r.random() < 0.5 else d for d in shape)
        if self.r.random() < 0.3:
            small = small[self.r.randrange(len(small) + 1):]
        e = f"mk({small}, '{dt}', '{order}', {k})"
        if numpy_side:
            return f"W(np.broadcast_to({e}, {shape}))"
        return f"m.broadcast_to(W({e}), {shape})"

    def operand(self, shape: tuple[int, ...], k: int) -> str:
        """A scalar or an array broadcastable to ``shape``."""
        if self.r.random() < 0.35:
            return self.r.choice(SCALARS)
        s, r = list(shape), self.r.random()
        if r < 0.3:
            s = [1 if self.r.random() < 0.5 else d for d in s]
        elif r < 0.45:
            s = s[self.r.randrange(len(s) + 1):]
        return self.base(tuple(s), self.r.choice(DTYPES), k)

    def op(self, shape: tuple[int, ...], k: int) -> tuple[str, str]:
        """A statement rebinding ``x`` and its kind (elementwise, reduction
        or view)."""
        kind = self.r.random()
        if kind < 0.25:
            op = self.r.choice(["+", "-", "*", "/", "+", "*"])
            y = self.operand(shape, k)
            return (f"x = x {op} {y}" if self.r.random() < 0.6 else f"x = {y} {op} x"), "ew"
        if kind < 0.4:
            f = self.r.choice(["-x", "m.abs(x)", "m.sqrt(m.abs(x))", "m.exp(x * 0.1)",
                               "m.sin(x)", "m.square(x)", "x.astype(np.float32)", "m.conj(x)",
                               "m.logical_not(x)", "x.astype(np.int64)"])
            return f"x = {f}", "ew"
        if kind < 0.5:
            y = self.operand(shape, k)
            c = self.r.choice(["x > 0", "x < 1", f"{self.operand(shape, k + 50)} > 0"])
            if self.r.random() < 0.5:
                return f"x = m.where({c}, x, {y})", "ew"
            return f"x = m.where({c}, {y}, x)", "ew"
        if kind < 0.56:
            lo, hi = self.r.choice(["-1", "0", "-2.5"]), self.r.choice(["2", "3.5"])
            return f"x = m.clip(x, {lo}, {hi})", "ew"
        if kind < 0.61:
            cmp = self.r.choice([">", "<", "==", "!=", ">="])
            return f"x = x {cmp} {self.operand(shape, k)}", "ew"
        if kind < 0.64 and len(shape) < 4:
            # an outer operation: a new axis of x against an operand without
            # x's leading axes, so that no operand has the result's shape
            pos = self.r.randrange(len(shape) + 1)
            full = shape[:pos] + (self.r.choice([2, 3]),) + shape[pos:]
            other = (1,) * (pos + 1) + shape[pos:] if self.r.random() < 0.5 else full[pos:]
            op = self.r.choice(["+", "-", "*"])
            x = "x[" + ", ".join([":"] * pos + ["None"]) + "]"
            return f"x = {x} {op} {self.base(other, self.r.choice(DTYPES), k)}", "ew"
        if kind < 0.67 and shape:
            # a scan along an axis: laid out as an elementwise result
            # (cumulative ops) or as NumPy's "K" copy (sort)
            f = self.r.choice(["m.cumsum", "m.cumprod", "m.sort"])
            return f"x = {f}(x, axis={self.r.randrange(-len(shape), len(shape))})", "ew"
        if kind < 0.82 and shape:
            f = self.r.choice(["sum", "mean", "max", "any", "std", "sum", "min"])
            nd, r = len(shape), self.r.random()
            if r < 0.1:
                ax = "None"
            elif r < 0.35:
                ax = str(self.r.randrange(-nd, nd))
            else:
                axs = self.r.sample(range(nd), self.r.randint(1, max(1, nd - 1)))
                ax = str(tuple(a - nd if self.r.random() < 0.2 else a for a in axs))
            kd = ", keepdims=True" if self.r.random() < 0.35 else ""
            return f"x = x.{f}(axis={ax}{kd})", "red"
        return f"x = {self.view('x', shape)}", "view"

    def program(self) -> list[str] | None:
        shape = self.shape(self.r.choice([2, 2, 3, 3, 4]))
        lines = [f"x = {self.base(shape, self.r.choice(DTYPES), 0)}"]
        try:
            x = _numpy_x(lines)
        except Exception:  # noqa: BLE001 (NumPy rejects it: another attempt)
            return None
        nops, ops, k, last = self.r.randint(1, 4), 0, 1, None
        for _ in range(40):
            if (ops >= nops and last in ("ew", "red")) or x.ndim == 0:
                break
            line, kind = self.op(x.shape, k)
            if ops >= nops and kind == "view":
                continue
            try:
                x2 = _numpy_x(lines + [line])
            except Exception:  # noqa: BLE001 (NumPy rejects it: another statement)
                continue
            if x2.size > self.max_size:
                continue
            lines.append(line)
            x, k, last = x2, k + 1, kind
            ops += kind != "view"
        if last not in ("ew", "red"):
            return None
        return lines + ["r = x"]


def _numpy_x(lines: list[str]) -> np.ndarray[Any, Any]:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(run(lines, np, "x"))


def run(lines: list[str], m: Any, name: str = "r", W: Any = None, shift: int = 0) -> Any:
    """Run the program with ``m`` (NumPy or lazyten); the value of ``name``.
    ``W`` replaces the function making an operand of an array (by default
    ``lt.asarray`` for lazyten, nothing for NumPy); ``shift`` varies the
    values of every array the program makes."""
    made: list[np.ndarray[Any, Any]] = []

    def held(shape: tuple[int, ...], dt: str, order: str = "C", k: int = 0
             ) -> np.ndarray[Any, Any]:
        # (referenced here, a new array is no temporary NumPy's operators
        # may write into: "temporary elision", of 256 KiB and more, lays a
        # result out as that operand, which lazyten does not follow: README)
        made.append(mk(shape, dt, order, k + shift))
        return made[-1]
    if W is None:
        W = (lambda a: a) if m is np else lt.asarray
    ns: dict[str, Any] = {"np": np, "m": m, "mk": held, "W": W}
    exec("\n".join(lines), ns)
    return ns[name]


def axes_by_stride(a: np.ndarray[Any, Any] | Any) -> list[int]:
    """The axes longer than 1, outermost in memory first."""
    return sorted((i for i, d in enumerate(a.shape) if d > 1),
                  key=lambda i: -abs(a.strides[i]))


def flags(a: np.ndarray[Any, Any]) -> tuple[bool, bool]:
    return bool(a.flags.c_contiguous), bool(a.flags.f_contiguous)


def layout_differs(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any]) -> str | None:
    """How ``got``'s layout differs from ``want``'s (contiguity flags, or
    the memory order of a non-empty array); None when it does not."""
    if flags(got) != flags(want):
        return f"flags {flags(got)} (strides {got.strides}), NumPy's {flags(want)} " \
               f"(strides {want.strides})"
    if want.size and axes_by_stride(got) != axes_by_stride(want):
        return f"strides {got.strides}, NumPy's {want.strides}"
    return None


def check(lines: list[str], mode: str) -> str | None:
    """What differs from NumPy when the program runs in ``mode`` (see
    ``MODES``); None when nothing does."""
    opts = dict(MODES[mode])
    reps = opts.pop("_reps", 1)
    if opts.pop("_jit", False):
        with lt.set_options(**opts):
            return _check_jit(lines)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")     # (both sides': casts, overflows)
        want = np.asarray(run(lines, np))
        for rep in range(reps):
            try:
                with lt.set_options(**opts):
                    res = _check_once(lines, want)
            except Exception as e:  # noqa: BLE001 (reported as a difference)
                res = crash(e)
            if res:
                return f"(run {rep + 1} of {reps})\n{res}" if reps > 1 else res
    return None


def _check_once(lines: list[str], want: np.ndarray[Any, Any]) -> str | None:
    # the layout inferred as the graph is built (no evaluation)
    r = run(lines, lt)
    lay, known = infer(r.node)
    if known:
        stand_in = layout_stand_in(tuple(r.shape), np.dtype(r.dtype), lay)
        if (d := layout_differs(stand_in, want)) is not None:
            return f"inferred layout {lay}: {d}"
    got = np.asarray(r.eval())
    if not same(got, want):
        return f"value: NumPy's {want!r}\nlazyten's {got!r}"
    if (d := layout_differs(got, want)) is not None:
        return f"evaluated: {d}"
    # (``eval`` lays a value out as inferred before it keeps it; ``lt.compute``
    # hands out the executor's array, laid out again where a view was pushed)
    (computed,) = lt.compute(run(lines, lt))
    if not same(computed, want):
        return f"lt.compute's value: NumPy's {want!r}\nlazyten's {computed!r}"
    if (d := layout_differs(computed, want)) is not None:
        return f"lt.compute's: {d}"
    if want.size == 0 or want.ndim == 0:
        return None
    # view or copy: a write into the flattened result
    for view in VIEWS:
        for evaluated in (False, True):
            want2 = np.asarray(run(lines, np))
            flat = eval(f"want2.{view}")
            flat[0] = 123
            r2 = run(lines, lt)
            if evaluated:
                r2.eval()
            flat2 = eval(f"r2.{view}")
            flat2[0] = 123
            when = "evaluated" if evaluated else "lazy"
            if not same(r2.eval(), want2):
                return (f"r.{view}[0] = 123 on a {when} r: NumPy's r "
                        f"{'changed' if not same(want2, want) else 'kept'}, lazyten's "
                        f"{'changed' if not same(r2.eval(), want) else 'kept'}")
            if not same(flat2.eval(), flat):
                return f"r.{view}[0] = 123 on a {when} r: the view differs"
    return None


def _check_jit(lines: list[str]) -> str | None:
    """The program as ``@lt.jit`` of the arrays it makes operands (each
    ``W(...)``, views NumPy took among them), called with its arrays, then
    with others of the same layouts and other values: each result's value
    and layout against NumPy's."""
    def body(*args: Any) -> Any:
        given = iter(args)
        return run(lines, lt, W=lambda a: next(given))
    traced = lt.jit(body)
    for shift in (0, 5):
        arrays: list[np.ndarray[Any, Any]] = []
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            want = np.asarray(run(lines, np, W=lambda a: arrays.append(a) or a, shift=shift))
            call = "traced" if shift == 0 else "from the cached trace"
            try:
                got = traced(*arrays)
            except Exception as e:  # noqa: BLE001 (reported as a difference)
                return crash(e, call)
        if not isinstance(got, np.ndarray) or not same(got, want):
            return f"@lt.jit ({call}): NumPy's {want!r}\nlazyten's {got!r}"
        if (d := layout_differs(got, want)) is not None:
            return f"@lt.jit ({call}): {d}"
    return None


def shrink(lines: list[str], mode: str) -> list[str]:
    """A failing program with statements dropped while it fails (the
    first, the last operation and ``r = x`` stay: a program ending in a
    view has a view's answers, which ``check`` does not ask for)."""
    assert check(lines, mode)
    return fewer_lines(lines, lambda fewer: check(fewer, mode) is not None, first=1, last=2)
