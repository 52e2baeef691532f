"""Random stencil programs, run with NumPy and with lazyten, compared.

A program is a time-stepping loop over one 2-D or 3-D grid ``u`` (C or
Fortran ordered, transposed, strided or reversed; four dtypes): each step
writes a window of a grid with a sum of shifted, stepped and reversed
windows of the same grid (``H[0][1:5:1, 2:8:2] = 0.5*H[0][0:4:1, 0:6:2]
+ ...``, plainly or augmented, or through ``np.add(..., out=...)``), reads
an element or a sum, rebinds a grid to a computed one, or evaluates it.
Windows overlap the ones written, so every write must read the grid as it
was before it; ``H`` also holds views of the grid (transposes, windows),
written through too.  ``check`` compares the grids' final values, the
reads and the user's array (never modified) with NumPy's; in the "jit"
mode the loop is an ``@lt.jit`` function of the grid returning its reads
and grids, traced and then called with another grid.

``tests/test_stencil_programs.py`` runs a few dozen; ``benchmarks/fuzz_programs.py
stencils`` as many as asked.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import lazyten as lt

from tests.util import SHARED_MODES, crash, fewer_lines, same

DTYPES = ["float64", "float64", "float32", "int64", "int32"]
KINDS = ["C", "F", "T", "S", "N"]

MODES: dict[str, dict[str, Any]] = {
    "default": {},
    "noopt": {"optimize": False, "backend": "numpy"},
    "check": {"check": True},
    "loop": {"backend": "loop"},
    # three runs in one process: node by node, planned, from the cached plan
    "repeat": {"_reps": 3},
    **SHARED_MODES,         # ("jit": the loop a function of the grid, its reads outputs)
}


class Program:
    """A grid (``shape``, ``dtype``, ``kind`` and the values' ``seed``) and
    the loop's statements, for a namespace holding ``H = [u]``, ``m``
    (NumPy or lazyten), ``np``, ``out`` and ``num``."""

    def __init__(self, shape: tuple[int, ...], dtype: str, kind: str, seed: int,
                 lines: list[str]) -> None:
        self.shape, self.dtype, self.kind, self.seed = shape, dtype, kind, seed
        self.lines = lines

    def grid(self) -> np.ndarray[Any, Any]:
        """The user's grid: C, F, "T" (axes permuted in memory), "S" (every
        other element of a larger array) or "N" (negative strides)."""
        r = np.random.default_rng(self.seed)
        base = (r.normal(size=[2 * s + 1 for s in self.shape]) * 3).astype(self.dtype)
        window = base[tuple(slice(0, s) for s in self.shape)]
        if self.kind == "C":
            return np.ascontiguousarray(window)
        if self.kind == "F":
            return np.asfortranarray(window)
        if self.kind == "T":
            return np.moveaxis(np.ascontiguousarray(np.moveaxis(window, 0, -1)), -1, 0)
        if self.kind == "S":
            return base[tuple(slice(1, 1 + 2 * s, 2) for s in self.shape)]
        return base[tuple(slice(2 * s, None, -2) for s in self.shape)]

    def __str__(self) -> str:
        head = f"# u: {self.shape} {self.dtype}, kind {self.kind}, values' seed {self.seed}"
        return "\n".join([head] + self.lines)


def _window(n: int, m: int, r: np.random.Generator, step: int) -> str:
    """A slice of ``m`` elements, ``step`` apart, of an axis of ``n``."""
    span = (m - 1) * abs(step) + 1
    start = int(r.integers(0, n - span + 1))
    if step > 0:
        return f"{start}:{start + span}:{step}"
    first, stop = start + span - 1, start - 1
    return f"{first}:{stop if stop >= 0 else ''}:{step}"


def _length(n: int, sl: str) -> int:
    a, b, c = (int(p) if p else None for p in sl.split(":"))
    return len(range(n)[slice(a, b, c)])


def program(seed: int, length: int = 30) -> Program:
    """The program of ``seed``, of ``length`` statements."""
    r = np.random.default_rng(seed)
    dtype = DTYPES[int(r.integers(0, len(DTYPES)))]
    # a fifth of the grids large enough to be planned at their first run
    # (beyond ``tiny_elements``): kernels written into the written part
    big = r.random() < 0.2
    nd = 2 if r.random() < 0.8 else 3
    shape = tuple(int(r.integers(4, (130 if nd == 2 else 26) if big else 12))
                  for _ in range(nd))
    kind = KINDS[int(r.integers(0, len(KINDS)))]
    isint = dtype.startswith("int")
    def coef() -> str:
        return str(int(r.integers(-3, 4)) if isint else float(np.round(r.normal(), 2)))
    lines: list[str] = []
    shapes = [shape]        # of H's grids
    while len(lines) < length:
        h = int(r.integers(0, len(shapes)))
        sh, g = shapes[h], f"H[{h}]"
        if r.random() < 0.12 and len(shapes) < 4:     # a view of a grid
            if r.random() < 0.3:
                lines.append(f"H.append({g}.T)")
                shapes.append(sh[::-1])
                continue
            sts = [int(r.choice([1, 1, 2, -1])) for _ in sh]
            sl = [_window(n, int(r.integers(max(1, n // 3 // abs(st)), (n - 1) // abs(st) + 2)),
                          r, st) for n, st in zip(sh, sts)]
            nsh = tuple(_length(n, s) for n, s in zip(sh, sl))
            if min(nsh) >= 2:
                lines.append(f"H.append({g}[{', '.join(sl)}])")
                shapes.append(nsh)
            continue
        what = r.random()
        # each axis's step, and the windows' lengths along it
        steps = [int(r.choice([1, 1, 1, 2, -1, -2])) for _ in sh]
        ms = [min(int(r.integers(1, max(2, (n - 1) // abs(st) + 1) + 1)), (n - 1) // abs(st) + 1)
              for n, st in zip(sh, steps)]
        terms = []
        for _ in range(int(r.integers(1, 5))):
            st2 = [s if r.random() < 0.8 else -s for s in steps]
            win = ", ".join(_window(n, mm, r, st) for n, mm, st in zip(sh, ms, st2))
            terms.append(f"{coef()}*{g}[{win}]")
        target = f"{g}[{', '.join(_window(n, mm, r, st) for n, mm, st in zip(sh, ms, steps))}]"
        if what < 0.45:
            lines.append(f"{target} = {' + '.join(terms)}")
        elif what < 0.6:
            lines.append(f"{target} += {' + '.join(terms)}")
        elif what < 0.7:
            a, b = [t.split("*", 1)[1] for t in (terms * 2)[:2]]
            lines.append(f"np.add({a}, {b}, out={target})")
        elif what < 0.8:
            i = ", ".join(str(int(r.integers(0, n))) for n in sh)
            lines.append(f"out.append(num({g}[{i}]))")
        elif what < 0.88:
            lines.append(f"H[{h}] = {g} * {coef()} + 1")
        elif what < 0.94:
            lines.append(f"ev({g})")
        else:
            lines.append(f"out.append(np.asarray({g}.sum(axis={int(r.integers(0, len(sh)))})))")
    return Program(shape, dtype, kind, int(r.integers(0, 2**31)), lines)


def run(p: Program, m: Any) -> tuple[list[Any], np.ndarray[Any, Any], np.ndarray[Any, Any],
                                     np.ndarray[Any, Any]]:
    """Run ``p`` with ``m`` (NumPy or lazyten): its reads, every grid
    raveled end to end, the user's array after and a copy of it before."""
    u = p.grid()
    kept = u.copy()
    ns: dict[str, Any] = {
        "m": m, "np": np, "out": [], "H": [u if m is np else lt.asarray(u)],
        "num": lambda v: np.asarray(v)[()],
        "ev": (lambda v: None) if m is np else (lambda v: v.eval())}
    exec("\n".join(p.lines), ns)
    grids = np.concatenate([np.asarray(g).ravel() for g in ns["H"]])
    return ns["out"], grids, u, kept


def check(p: Program, mode: str) -> str | None:
    """What differs from NumPy when ``p`` runs in ``mode`` (see ``MODES``);
    None when nothing does."""
    opts = dict(MODES[mode])
    reps = opts.pop("_reps", 1)
    if opts.pop("_jit", False):
        with lt.set_options(**opts):
            return _check_jit(p)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")     # (both sides': overflows)
        want, want_grids, _, _ = run(p, np)
        for rep in range(reps):
            try:
                with lt.set_options(**opts):
                    got, grids, u, kept = run(p, lt)
            except Exception as e:  # noqa: BLE001 (reported as a difference)
                return crash(e)
            probs = []
            if not same(grids, want_grids):
                if grids.shape == want_grids.shape:
                    bad = np.flatnonzero(~((grids == want_grids)
                                           | (np.isnan(grids) & np.isnan(want_grids))))
                    probs.append(f"grids differ at raveled {bad[:4].tolist()}: lazyten's "
                                 f"{grids[bad[:4]]}, NumPy's {want_grids[bad[:4]]}")
                else:
                    probs.append("grids differ in shape or dtype")
            if len(got) != len(want) or not all(map(same, got, want)):
                probs.append(f"reads: lazyten's {got}\nNumPy's {want}")
            if not same(u, kept):
                probs.append("the user's array was modified")
            if probs:
                where = f"(run {rep + 1} of {reps})\n" if reps > 1 else ""
                return where + "\n".join(probs)
    return None


def _check_jit(p: Program) -> str | None:
    """``p`` as an ``@lt.jit`` function of the grid, returning its reads
    (lazily: ``num(v)`` and ``np.asarray(v)`` are ``v``, ``ev(v)`` nothing)
    and grids, called with ``p``'s grid and then with another of the same
    layout and other values: each call's reads and grids against NumPy's,
    and the caller's grid unchanged."""
    lines = [ln.replace("out.append(num(", "out.append((")
             .replace("out.append(np.asarray(", "out.append((") for ln in p.lines]
    code = "\n".join("pass" if ln.startswith("ev(") else ln for ln in lines)

    def body(u: Any) -> Any:
        ns: dict[str, Any] = {"m": lt, "np": np, "out": [], "H": [u]}
        exec(code, ns)                      # noqa: S102 - our own program
        return tuple(ns["out"]) + tuple(ns["H"])
    traced = lt.jit(body)
    for seed in (p.seed, p.seed + 1):
        q = Program(p.shape, p.dtype, p.kind, seed, p.lines)
        call = "traced" if seed == p.seed else "from the cached trace"
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            want, want_grids, _, _ = run(q, np)
            u = q.grid()
            kept = u.copy()
            try:
                res = traced(u)
            except Exception as e:  # noqa: BLE001 (reported as a difference)
                return crash(e, call)
        got = [np.asarray(v)[()] for v in res[:len(want)]]
        grids = np.concatenate([np.asarray(g).ravel() for g in res[len(want):]])
        if not same(grids, want_grids):
            return f"@lt.jit ({call}): grids differ"
        if not all(map(same, got, want)):
            return f"@lt.jit ({call}): reads: lazyten's {got}\nNumPy's {want}"
        if not same(u, kept):
            return f"@lt.jit ({call}): the caller's grid was modified"
    return None


def shrink(p: Program, mode: str) -> Program:
    """A failing program with statements dropped while it fails."""
    assert check(p, mode)
    return Program(p.shape, p.dtype, p.kind, p.seed, fewer_lines(
        p.lines, lambda lines: check(Program(p.shape, p.dtype, p.kind, p.seed, lines),
                                     mode) is not None))
