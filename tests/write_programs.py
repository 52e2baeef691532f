"""Random write programs, run with NumPy and with lazyten, compared.

A program makes one to three arrays (plain, Fortran-ordered, strided,
transposed, reversed, broadcast or computed; nine dtypes) and runs up to
ten statements over them: writes of slices (plain and augmented), writes
through views and aliases, rebindings (``a = a.T``, ``a = a * 1``),
evaluations, and reads appended to ``out``.  ``check`` runs it with NumPy
and under one of ``MODES`` and reports any difference: a value, a dtype, a
shape, an error raised by one side only, a user's array modified.  The
"repeat" modes run each program three times in one process: node by node
(a structure seen first), planned (seen twice), then from the cached
plan's generated code; "jit" runs it as an ``@lt.jit`` function of its
arrays, traced and then called with others.

``tests/test_write_programs.py`` runs a few hundred; ``benchmarks/fuzz_programs.py
writes`` as many as asked.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import lazyten as lt

from tests.util import SHARED_MODES, crash, same

DTYPES = ["float64", "float64", "float64", "float32", "int64", "int32", "complex128",
          "float16", "bool"]
NUMPY_SCALARS = ["np.int64(7)", "np.int32(-3)", "np.uint8(200)", "np.float32(1.5)",
                 "np.float64(2.5)", "np.complex64(1+2j)", "np.int64(2**40)",
                 "np.bool_(True)", "np.float16(0.25)", "np.uint64(3)"]
# (name, shape, dtype, kind, seed) of each array a program starts from
Init = tuple[str, tuple[int, ...], str, str, int]

MODES: dict[str, dict[str, Any]] = {
    "default": {},
    "check": {"check": True},
    "noopt": {"optimize": False},
    "loop": {"backend": "loop", "check": True},
    "numpy": {"backend": "numpy", "check": True},
    "repeat": {"_reps": 3},
    "repeatcheck": {"_reps": 3, "check": True},
    **SHARED_MODES,         # ("jit": returning its reads and variables)
}


def program(seed: int, big: bool = False) -> tuple[list[Init], list[str]]:
    """The program of ``seed`` (``big``: arrays of 10,000 elements and more)."""
    return Gen(seed, big).program()


class Gen:
    """One random program: its arrays (``inits``) and statements (``lines``),
    written for a namespace where ``m`` is NumPy or lazyten."""

    def __init__(self, seed: int, big: bool = False) -> None:
        self.r = np.random.default_rng(seed)
        self.big = big
        self.lines = []
        self.vars = {}     # name -> (shape, dtype)
        self.nviews = 0

    def ri(self, a: int, b: int) -> int:
        return int(self.r.integers(a, b + 1))

    def choice(self, seq: Any) -> Any:
        return seq[self.ri(0, len(seq) - 1)]

    def index(self, sh: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
        """A basic index into shape ``sh`` (its source) and its result's shape."""
        items = []
        out = []
        nd = len(sh)
        k = self.ri(1, nd) if nd else 0
        if self.r.random() < 0.15:
            k = nd
        for ax in range(k):
            D = sh[ax]
            c = self.r.random()
            if c < 0.2 and D > 0:
                i = self.ri(-D, D - 1)
                items.append(str(i))
            elif c < 0.28:
                items.append(":")
                out.append(D)
            else:
                step = self.choice([1, 1, 1, 2, -1, -2, 3, None])
                a = self.choice([None, self.ri(-D - 1, D + 1)])
                b = self.choice([None, self.ri(-D - 1, D + 1)])
                s = slice(a, b, step)
                L = len(range(*s.indices(D)))
                f = lambda v: "" if v is None else str(v)
                items.append(f"{f(a)}:{f(b)}" + ("" if step is None else f":{step}"))
                out.append(L)
        out += list(sh[k:])
        if self.r.random() < 0.08:
            pos = self.ri(0, len(items))
            items.insert(pos, "None")
            # compute real shape via numpy
        if self.r.random() < 0.08 and k < nd:
            items.append("...")
        if not items:
            items = ["..."]
        src = ", ".join(items)
        shp = np.empty(sh)[eval(f"np.s_[{src}]")].shape   # (NumPy's shape of it)
        return src, shp

    def exact_index(self, sh: tuple[int, ...], T: tuple[int, ...]) -> str | None:
        """An index into sh giving exactly shape T, or None."""
        if len(T) > len(sh):
            extra = len(T) - len(sh)
            if any(d != 1 for d in T[:extra]):
                return None
            sub = self.exact_index(sh, T[extra:])
            if sub is None:
                return None
            return ", ".join(["None"] * extra + [sub]) if sub != "..." else \
                ", ".join(["None"] * extra + ["..."])
        nd = len(sh)
        # choose axes of sh for each T dim (increasing)
        axes = sorted(self.r.choice(nd, len(T), replace=False).tolist()) if T else []
        items = []
        ti = 0
        for ax in range(nd):
            D = sh[ax]
            if ti < len(T) and axes[ti] == ax:
                L = T[ti]
                ti += 1
                if L == 0:
                    k = self.ri(0, D)
                    items.append(f"{k}:{k}")
                    continue
                steps = [s for s in (1, 1, 2, 3, -1, -2) if (L - 1) * abs(s) < D]
                if not steps:
                    return None
                s = self.choice(steps)
                span = (L - 1) * abs(s) + 1
                st = self.ri(0, D - span)
                if s > 0:
                    a, b = st, st + span
                    items.append(f"{a}:{b}:{s}" if s != 1 else f"{a}:{b}")
                else:
                    a = st + span - 1
                    b = a - span
                    items.append(f"{a}:{b if b >= 0 else ''}:{s}")
            else:
                if D == 0:
                    return None
                items.append(str(self.ri(-D, D - 1)))
        if not items:
            return "..."
        return ", ".join(items)

    def read(self, T: tuple[int, ...], depth: int = 0) -> str:
        """An expression of shape broadcastable to T."""
        r = self.r.random()
        names = list(self.vars)
        if r < 0.15 or depth > 2:
            if self.r.random() < 0.25:
                # NumPy's scalars: strong types (NEP 50), and written into an
                # element, converted as numbers (np.int64(2**40) into int32
                # raises where a 0-d array would wrap)
                return self.choice(NUMPY_SCALARS)
            return self.choice(["2", "3", "-1", "1.5", "0.5", "True"])
        if r < 0.6:
            for _ in range(6):
                nm = self.choice(names)
                sh = self.vars[nm][0]
                TT = list(T)
                if self.r.random() < 0.2 and TT:
                    # broadcast: drop leading dims or make some 1
                    if self.r.random() < 0.5:
                        TT = TT[self.ri(1, len(TT)):]
                    else:
                        j = self.ri(0, len(TT) - 1)
                        TT[j] = 1
                ix = self.exact_index(sh, tuple(TT))
                if ix is not None:
                    return f"{nm}[{ix}]"
            return "2"
        if r < 0.8:
            op = self.choice(["+", "-", "*"])
            return f"({self.read(T, depth + 1)} {op} {self.read(T, depth + 1)})"
        if r < 0.88:
            f = self.choice(["m.sin", "m.negative", "m.square"])
            return f"{f}({self.read(T, depth + 1)})"
        if r < 0.94:
            return f"m.asarray({self.read(T, depth + 1)}).astype({self.choice(DTYPES[:7])!r})"
        # a reduction
        for _ in range(4):
            nm = self.choice(names)
            sh = self.vars[nm][0]
            k = self.ri(1, 3)
            ix = self.exact_index(sh, (k,) + tuple(T))
            if ix is not None:
                return f"{nm}[{ix}].sum(axis=0)"
        return "1"

    def stmt(self) -> None:
        """One statement: a write (plain, augmented, through a view or an
        alias), a rebinding, an evaluation or a read."""
        names = list(self.vars)
        nm = self.choice(names)
        sh, dt = self.vars[nm]
        r = self.r.random()
        if r < 0.3:
            ix, T = self.index(sh)
            self.lines.append(f"{nm}[{ix}] = cp({self.read(T)})")
        elif r < 0.6:
            ix, T = self.index(sh)
            op = self.choice(["+=", "-=", "*=", "+=", "*="])
            self.lines.append(f"{nm}[{ix}] {op} {self.read(T)}")
        elif r < 0.7:
            # a view written through
            ix, T = self.index(sh)
            v = f"v{self.nviews}"
            self.nviews += 1
            self.lines.append(f"{v} = {nm}[{ix}]")
            if len(T) == 0:
                self.lines.append(f"{v}[...] += {self.read(T)}")
            else:
                ix2, T2 = self.index(T)
                op = self.choice(["+=", "=", "*=", "-="])
                val = self.read(T2)
                self.lines.append(f"{v}[{ix2}] {op} " + (f"cp({val})" if op == "=" else val))
            if self.r.random() < 0.5:
                self.lines.append(f"out.append(np.array({v}))")
            self.vars[v] = (T, dt)
        elif r < 0.75:
            # alias
            self.lines.append(f"al = {nm}")
            ix, T = self.index(sh)
            self.lines.append(f"al[{ix}] += {self.read(T)}")
        elif r < 0.82:
            # rebind to computed
            e = self.choice([f"{nm} + {nm}", f"{nm} * 1", f"m.negative({nm})",
                             f"{nm}.copy()", f"{nm}.T", f"{nm}[::-1]"])
            if dt == "bool" and "negative" in e:
                e = f"{nm} * 1"
            if e.endswith(".T"):
                sh = sh[::-1]
            self.lines.append(f"{nm} = {e}")
            self.vars[nm] = (sh, dt)
        elif r < 0.88:
            self.lines.append(f"ev({nm})")
        elif r < 0.94:
            self.lines.append(f"out.append(num(m.sum({nm})))")
        else:
            self.lines.append(f"out.append(np.array({nm}))")

    def program(self) -> tuple[list[Init], list[str]]:
        nv = self.ri(1, 3)
        inits = []
        for i in range(nv):
            nm = "abc"[i]
            if self.big:
                sh = self.choice([(100, 100), (12000,), (20, 30, 20)])
            else:
                sh = self.choice([(7, 9), (13,), (3, 4, 5), (6,), (1, 8), (9, 1), (0, 4)])
            dt = self.choice(DTYPES)
            kind = self.choice(["plain", "plain", "fortran", "strided", "T", "computed",
                                "computed", "bcast", "neg"])
            inits.append((nm, sh, dt, kind, self.ri(0, 2**31)))
            self.vars[nm] = (sh, dt)
        for _ in range(self.ri(1, 10)):
            self.stmt()
        return inits, self.lines


def user_array(sh: tuple[int, ...], dt: str, kind: str, seed: int) -> np.ndarray[Any, Any]:
    """A user's array of ``kind``: plain, Fortran, strided, transposed,
    reversed, broadcast (or plain, for "computed": made lazy by the caller)."""
    r = np.random.default_rng(seed)
    def mk(s: tuple[int, ...]) -> np.ndarray[Any, Any]:
        v = r.integers(-5, 6, size=s)
        if dt == "bool":
            return v > 0
        if dt == "complex128":
            return (v + 1j * r.integers(-3, 4, size=s)).astype(dt)
        return v.astype(dt) if dt.startswith("int") else (v * 0.5 + r.random(s) // 0.5 * 0.25).astype(dt)
    if kind == "fortran":
        return np.asfortranarray(mk(sh))
    if kind == "strided":
        big = mk(tuple(2 * d + 1 for d in sh))
        return big[tuple(slice(1, None, 2) for _ in sh)]
    if kind == "T":
        return mk(sh[::-1]).T
    if kind == "neg":
        return mk(sh)[tuple(slice(None, None, -1) for _ in sh)]
    if kind == "bcast" and len(sh) >= 1:
        return np.broadcast_to(mk(sh[-1:]), sh)
    return mk(sh)


def num(x: Any) -> Any:
    a = np.asarray(x)
    return a[()]


def run_prog(inits: list[Init], lines: list[str], m: Any, ev: Any) -> tuple[Any, ...]:
    """Run the program with ``m`` (NumPy or lazyten): its reads, its final
    variables, the users' arrays (with copies made first), the error that
    stopped it and how many statements ran."""
    # ``cp``: NumPy's copy of a value written (NumPy reads a view of the
    # array it writes as it writes; lazyten's values are the old ones)
    ns: dict[str, Any] = {
        "m": m, "np": np, "out": [], "ev": ev, "num": num,
        "cp": (lambda v: np.array(v, copy=True) if isinstance(v, np.ndarray) else v)
        if m is np else (lambda v: v)}
    users = {}
    for nm, sh, dt, kind, seed in inits:
        u = user_array(sh, dt, kind, seed)
        users[nm] = (u, u.copy())
        if m is np:
            # NumPy's own array of the same kind (strides and all: a float16
            # sum over a strided array adds in other chunks than over a
            # dense copy), but a broadcast, which NumPy cannot write into
            ns[nm] = np.array(u) if kind == "bcast" else user_array(sh, dt, kind, seed)
        else:
            ns[nm] = lt.asarray(u)
            if kind == "computed":
                ns[nm] = ns[nm] * 1 if dt != "bool" else ns[nm] | False
    err = None
    done = 0
    for ln in lines:
        try:
            exec(ln, ns)
            done += 1
        except Exception as e:  # noqa: BLE001 (either side's error: compared)
            err = (ln, type(e).__name__, str(e)[:200])
            break
    final = {}
    for nm in list(ns):
        if len(nm) <= 3 and nm[0] in "abcv" and nm not in ("np", "cp"):
            final[nm] = ns[nm]
    return ns["out"], final, users, err, done


def check(inits: list[Init], lines: list[str], mode: str) -> str | None:
    """What differs from NumPy when the program runs in ``mode`` (see
    ``MODES``); None when nothing does."""
    opts = dict(MODES[mode])
    reps = opts.pop("_reps", 1)
    if opts.pop("_jit", False):
        with warnings.catch_warnings(), lt.set_options(**opts):
            warnings.simplefilter("ignore")
            return _check_jit(inits, lines)
    for r in range(reps):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # (both sides': casts, overflows)
            res = _check_once(inits, lines, opts)
        if res:
            return f"(run {r + 1} of {reps})\n{res}"
    return None


def _check_once(inits: list[Init], lines: list[str], opts: dict[str, Any]) -> str | None:
    """``check`` for one run of the program."""
    outn, finn, _, errn, donen = run_prog(inits, lines, np, lambda x: None)
    with lt.set_options(**opts):
        try:
            outl, finl, users, errl, donel = run_prog(inits, lines, lt, lambda x: x.eval())
            if errn is not None and donel > donen:
                return _raised_when_run(inits, lines[:donen + 1], errn)
            # evaluate everything now
            finl = {k: (np.array(v) if isinstance(v, lt.Tensor) else v) for k, v in finl.items()}
        except Exception as e:  # noqa: BLE001 (reported as a difference)
            return crash(e)
    probs = []
    if (errn is None) != (errl is None) or donen != donel:
        probs.append(f"raise mismatch numpy={errn} lazyten={errl}")
    for nm, (u, u0) in users.items():
        if not same(u, u0):
            probs.append(f"user array {nm} modified")
    if len(outn) != len(outl):
        probs.append(f"out length {len(outn)} vs {len(outl)}")
    for i, (a, b) in enumerate(zip(outn, outl)):
        if not same(a, b):
            probs.append(f"out[{i}] numpy={np.asarray(a)!r} lazyten={np.asarray(b)!r}")
    for nm in finn:
        if nm in finl and not same(finn[nm], finl[nm]):
            probs.append(f"var {nm}: numpy={np.asarray(finn[nm])!r}\n lazyten={np.asarray(finl[nm])!r}")
    return "\n".join(probs) if probs else None


def _check_jit(inits: list[Init], lines: list[str]) -> str | None:
    """The program as an ``@lt.jit`` function of its users' arrays (a
    "computed" one multiplied by 1 inside), its reads lazy (``np.array(v)``
    a lazy copy, ``ev`` nothing) and returned with its final variables,
    called with the program's arrays and then with others of the same
    kinds: each call against NumPy's run, and the arrays passed unchanged.
    Programs NumPy stops with an error are not compared."""
    code = "\n".join(
        "pass" if ln.startswith("ev(") else
        ln.replace("out.append(np.array(", "out.append(m.copy(")
        .replace("out.append(num(", "out.append((") for ln in lines)
    names = [i[0] for i in inits]

    def body(*args: Any) -> Any:
        ns: dict[str, Any] = {"m": lt, "np": np, "out": [], "cp": lambda v: v}
        for (nm, _, dt, kind, _), a in zip(inits, args):
            ns[nm] = a if kind != "computed" else a * 1 if dt != "bool" else a | False
        exec(code, ns)                       # noqa: S102 - our own program
        final = sorted(nm for nm in ns if len(nm) <= 3 and nm[0] in "abcv"
                       and nm not in ("np", "cp"))
        return tuple(ns["out"]) + tuple(ns[nm] for nm in final)
    traced = lt.jit(body)
    for shift in (0, 1):
        moved = [(nm, sh, dt, kind, seed + shift) for nm, sh, dt, kind, seed in inits]
        outn, finn, _, errn, _ = run_prog(moved, lines, np, lambda x: None)
        if errn is not None:
            return None
        args = [user_array(sh, dt, kind, seed) for _, sh, dt, kind, seed in moved]
        kept = [a.copy() for a in args]
        call = "traced" if shift == 0 else "from the cached trace"
        try:
            res = traced(*args)
        except Exception as e:  # noqa: BLE001 (reported as a difference)
            return crash(e, call)
        want = list(outn) + [finn[nm] for nm in sorted(finn)]
        if len(res) != len(want):
            return f"@lt.jit ({call}): {len(res)} results, NumPy's {len(want)}"
        labels = [f"out[{i}]" for i in range(len(outn))] + sorted(finn)
        for label, got, w in zip(labels, res, want):
            if not same(np.asarray(got)[()] if label.startswith("out") else got, w):
                return f"@lt.jit ({call}): {label}: numpy={np.asarray(w)!r}\n" \
                       f" lazyten={np.asarray(got)!r}"
        for nm, a, k in zip(names, args, kept):
            if not same(a, k):
                return f"@lt.jit ({call}): the argument {nm} was modified"
    return None


def _raised_when_run(inits: list[Init], lines: list[str], errn: tuple[str, str, str]
                     ) -> str | None:
    """Where NumPy raised at the last of ``lines`` and lazyten did not: an
    error that depends on a lazy value (a NumPy scalar converted as it is
    written into integers) is raised when the write runs, at the
    evaluation; None where that is NumPy's error type."""
    _, _, _, errl, _ = run_prog(inits, lines, lt, lambda x: x.eval())
    if errl is not None:
        return f"raise mismatch numpy={errn} lazyten={errl}"
    _, fin, _, _, _ = run_prog(inits, lines, lt, lambda x: None)
    try:
        for v in fin.values():
            np.asarray(v)
    except Exception as e:  # noqa: BLE001 (compared with NumPy's)
        if type(e).__name__ == errn[1]:
            return None
        return f"raise mismatch numpy={errn} lazyten at evaluation={type(e).__name__}: {e}"
    return f"raise mismatch numpy={errn} lazyten=None, at evaluation too"


def shrink(inits: list[Init], lines: list[str], mode: str) -> tuple[list[Init], list[str]]:
    """A failing program with statements and arrays dropped while it fails."""
    assert check(inits, lines, mode)
    changed = True
    while changed:
        changed = False
        for i in range(len(lines)):
            fewer = lines[:i] + lines[i + 1:]
            if check(inits, fewer, mode):
                lines, changed = fewer, True
                break
        for i in range(len(inits)):
            rest = inits[:i] + inits[i + 1:]
            try:
                if rest and check(rest, lines, mode):
                    inits, changed = rest, True
                    break
            except Exception:  # noqa: BLE001 (a statement names the dropped array)
                pass
    return inits, lines
