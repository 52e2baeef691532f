"""Random masked-array programs, run with numpy.ma and with lt.ma, compared.

A program is a list of statements over NumPy arrays ``d0``, ``d1`` (1-d to
3-d, empty axes, C, Fortran, strided or reversed; four dtypes; NaN and
infinities among floats), boolean masks ``k0``, ``k1`` and the masked
arrays ``M0`` (``d0`` under ``k0``) and ``M1`` (``d1``, no mask): each makes a
masked array the way numpy.ma code does (``masked_array`` with or without
a mask, ``masked_where``, ``masked_invalid``, ``masked_values``,
comparisons, ...), so that nomask, mask arrays and masks numpy.ma shrinks
all occur, or computes a new one from earlier ones (ufunc functions and
operators with array and scalar operands, views, reductions along an axis,
``where``, joins, sorts, ``diff``, ...), or writes one in place (an element
or a slice masked or set, an in-place operator), or reads a value
(a reduction to a scalar, ``count``, ``filled``, taken as it is then).
``m`` is numpy.ma or lt.ma.  The program is drawn by running numpy.ma on
it: a statement that numpy.ma refuses is drawn again.

``check`` compares every array and read with numpy.ma's: values where
unmasked, masks, dtypes, fill values and whether numpy.ma holds nomask,
and the user's arrays (never modified).  One difference is accepted, as
documented: where numpy.ma answers its ``masked`` constant (a float64
whatever the data, decided by the values), lazyten's value is masked in the
data's dtype, which shows in what is computed from it.  Not drawn: writes
that numpy.ma makes reach another array than the one written (the user's
array a ``masked_array(d0)`` shares, the mask a unary function's result
shares with its operand), where lazyten's results own their data and
masks; fill values that are only some dtype's default, which numpy.ma
stores or not depending on what read them (``_a_default``); ``putmask`` of
an array into itself (NumPy's ``copyto`` does nothing where source and
destination are one array, even a read-only one); the median of
a whole array (numpy.ma answers a tie with the masked elements' stand-in
with that stand-in, a scalar of another dtype; along an axis it is drawn).

``tests/test_masked_programs.py`` runs a few thousand;
``benchmarks/fuzz_programs.py masked`` as many as asked.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np

import lazyten as lt

from tests.util import SHARED_MODES, crash, fewer_lines

DTYPES = ["float64", "float64", "float32", "int64", "int16"]
KINDS = ["C", "F", "S", "N"]

MODES: dict[str, dict[str, Any]] = {
    "default": {},
    "noopt": {"optimize": False, "backend": "numpy"},
    "check": {"check": True},
    # three runs in one process: node by node, planned, from the cached plan
    "repeat": {"_reps": 3},
    "planned": SHARED_MODES["planned"],
    # the program as an ``@lt.jit`` function of its arrays and of M0/M1
    # (numpy.ma arguments), returning its masked arrays and reads as
    # numpy.ma's: traced, then called with other values
    "jit": SHARED_MODES["jit"],
    # the arrays given to lt.ma as tensors (``lt.asarray(d0)``), not NumPy's
    "tensors": {"_tensors": True},
}


class Program:
    """The data's ``shape``, ``dtype``, ``kind`` and values' ``seed``, and
    the statements."""

    def __init__(self, shape: tuple[int, ...], dtype: str, kind: str, seed: int,
                 lines: list[str]) -> None:
        self.shape, self.dtype, self.kind, self.seed = shape, dtype, kind, seed
        self.lines = lines

    def arrays(self) -> dict[str, np.ndarray[Any, Any]]:
        """``d0``, ``d1`` (``d1`` of the last axis alone half the time: it
        broadcasts) and the masks ``k0``, ``k1``."""
        r = np.random.default_rng(self.seed)
        out: dict[str, np.ndarray[Any, Any]] = {}
        for name, shape in (("d0", self.shape), ("d1", self.shape[-1:] if self.seed % 2
                                                  else self.shape)):
            base = (r.normal(size=[2 * s + 1 for s in shape]) * 3).astype(self.dtype)
            if self.dtype.startswith("float") and base.size and r.random() < 0.6:
                base.flat[r.integers(0, base.size, 2)] = r.choice([np.nan, np.inf, -np.inf])
            d = base[tuple(slice(0, s) for s in shape)]
            if self.kind == "F":
                d = np.asfortranarray(d)
            elif self.kind == "S":
                d = base[tuple(slice(0, 2 * s, 2) for s in shape)]
            elif self.kind == "N":
                d = base[tuple(slice(s - 1, None, -1) if s else slice(0, 0) for s in shape)]
            else:
                d = d.copy()
            out[name] = d
            out["k" + name[1]] = r.random(shape) < r.choice([0.0, 0.3, 0.9])
        return out

    def __str__(self) -> str:
        return (f"shape={self.shape} dtype={self.dtype} kind={self.kind} seed={self.seed}\n"
                + "\n".join(self.lines))


# Statements, by what they need: ``{a}``/``{b}`` masked arrays of the program
# (``{b}`` of ``{a}``'s shape or broadcasting to it), ``{x}`` an axis of
# ``{a}``, ``{t}`` a threshold, ``{s}`` a scalar operand.
_MAKE = [
    "M0 * 1", "M1 + 0", "M0[::-1]", "m.where(M0 > {t}, M0, M1)",
    "m.masked_array(d0, mask=k0)", "m.masked_array(d1, mask=k1)", "m.masked_array(d0)",
    "m.masked_where(d0 > {t}, d0)", "m.masked_where(d1 < {t}, d1)", "m.masked_invalid(d0)",
    "m.masked_values(d0, 1.0)", "m.masked_greater(d0, {t})", "m.masked_inside(d1, -1, 1)",
    "m.masked_array(d0, mask=k0) > {t}", "m.masked_array(d0, mask=k0, fill_value=7)",
    "m.masked_array(d0, mask=np.zeros(d0.shape, bool))", "m.fix_invalid(d0)",
    "m.masked_equal(d0, 0)", "m.masked_array(d1, mask=k1) ** 2",
]
_UNARY = [
    "m.sqrt({a})", "m.log({a})", "m.exp({a})", "-{a}", "abs({a})", "m.sin({a})",
    "m.floor({a})", "np.exp({a})", "np.add({a}, 1)", "{a}.T", "{a}[::-1]", "{a}[..., 1:]",
    "{a}.reshape(-1)", "{a}.ravel()", "m.clip({a}, -1, 2)", "{a}.round(1)",
    "{a}.cumsum(axis={x})", "m.anom({a}, axis={x})", "m.diff({a}, axis={x})",
    "m.masked_where({a} > {t}, {a})", "{a}.astype(np.float32)", "{a}.astype(np.int64)",
    "m.sort({a}, axis={x})", "m.take({a}, [0, -1], axis={x})",
    "m.repeat({a}, 2, axis={x})", "m.expand_dims({a}, 0)", "{a}.copy()",
    "m.ones_like({a})", "{a}.conj()", "m.mask_rowcols({a})", "m.atleast_2d({a})",
    "{a}.swapaxes(0, -1)", "m.diagonal({a})", "m.resize({a}, (2, 3))", "m.diff({a}, 2)",
    "m.compress([True, False, True], {a}, axis={x})", "m.angle({a})",
]
_BINARY = [
    "{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / {b}", "{a} // {b}", "{a} % {b}",
    "{a} ** {b}", "{a} + {s}", "{s} * {a}", "{a} / {s}", "{s} - {a}", "{a} ** {s}",
    "m.maximum({a}, {b})", "m.minimum({a}, {s})", "m.where({a} > {t}, {a}, {b})",
    "m.arctan2({a}, {b})", "m.hypot({a}, {b})", "{a} > {b}", "{a} == {s}",
    "m.power({a}, 2)", "m.divide({a}, {b})", "m.remainder({a}, {s})",
    "m.concatenate([{a}, {a}], axis={x})", "m.stack([{a}, {a}])",
    "m.logical_and({a} > 0, {b} < 1)", "np.maximum({a}, {b})", "m.outer({a}, {b})",
    "m.choose({a} > {t}, [{a}, {b}])", "m.append({a}, {b})", "m.column_stack([{a}, {a}])",
    "m.convolve({a}.ravel(), {b}.ravel())", "m.cov({a})", "m.left_shift({a}, 1)",
    "m.take({a}, m.masked_array([0, 0], mask=[0, 1]))", "m.inner({a}, {b})",
]
_REDUCE = [
    "{a}.sum(axis={x}, keepdims=True)", "{a}.mean(axis={x})", "{a}.var(axis={x}, ddof=1)",
    "{a}.std(axis={x})", "{a}.min(axis={x})", "{a}.max(axis={x}, keepdims=True)",
    "{a}.prod(axis={x})", "m.median({a}, axis={x})", "m.average({a}, axis={x})",
    "m.ptp({a}, axis={x})", "{a}.any(axis={x})", "{a}.all(axis={x})",
    "m.count_masked({a}, axis={x})", "m.cumprod({a}, axis={x})",
    "m.alltrue({a}, axis={x})", "m.sometrue({a})", "{a}.trace()",
]
_READ = [
    "{a}.sum()", "{a}.mean()", "{a}.var()", "{a}.min()", "{a}.max()",
    "{a}.count()", "{a}.filled(0)", "m.getmaskarray({a})", "{a}.compressed()",
    "m.count_masked({a})", "{a}.argmax(axis={x})", "m.is_masked({a})", "{a}.std(ddof=1)",
    "m.allclose({a}, {b})", "m.allequal({a}, {b}, fill_value=False)", "m.compress_rows({a})",
    "m.notmasked_edges({a})", "m.clump_masked({a}.ravel())", "m.unique({a})",
    "m.isin({a}, [0, 1])", "m.vander({a}.ravel(), 2)", "m.flatnotmasked_contiguous({a})",
]
_WRITE = [
    "{a}[0] = m.masked", "{a}[..., -1:] = 5", "{a}[::2] = {s}", "{a} += {s}", "{a} *= 2",
    "{a}[{a} > {t}] = 0", "{a}[0] = {b}[0]", "{a} -= {b}", "{a}[...] = m.masked",
    "m.put({a}, [0, -1], [7, 8])", "m.putmask({a}, {a} > {t}, {b} * 1)",
    "m.putmask({a}, {a} < {t}, {s})", "{a}.fill(3)",
    "{a}.put([1], m.masked_array([4], mask=[1]))",
]


def _broadcasts(shape: tuple[int, ...], to: tuple[int, ...]) -> bool:
    try:
        return np.broadcast_shapes(shape, to) == to
    except ValueError:
        return False


def _fill(r: np.random.Generator, template: str, names: list[str],
          shapes: dict[str, tuple[int, ...]]) -> str:
    a = str(r.choice(names))
    ndim = len(shapes[a])
    fits = [n for n in names if _broadcasts(shapes[n], shapes[a])]
    b = str(r.choice(fits)) if fits else a
    return template.format(a=a, b=b, x=int(r.integers(-ndim, ndim)) if ndim else None,
                           t=float(r.choice([0.5, -1.0, 2.0, 100.0])),
                           s=str(r.choice(["2", "0.5", "-3", "np.float32(1.5)", "True"])))


def _state(ns: dict[str, Any]) -> dict[str, tuple[Any, Any, bool]]:
    """The data and masks of the namespace's arrays, copied."""
    return {k: (np.array(np.ma.getdata(v)), np.array(np.ma.getmaskarray(v)),
                np.ma.getmask(v) is np.ma.nomask)
            for k, v in ns.items() if isinstance(v, np.ndarray) and k != "reads"}


def _written_elsewhere(before: dict[str, tuple[Any, Any, bool]],
                       after: dict[str, tuple[Any, Any, bool]], line: str) -> bool:
    """Whether a write reached an array other than the one it names: the
    user's (``masked_array(d0)`` shares its data: lazyten never writes a
    NumPy array), or one whose mask numpy.ma shares (a unary function's
    result: lazyten's results own theirs).  Such writes are not drawn."""
    target = line.split("[")[0].split(" ")[0]
    return any(k != target and not (np.array_equal(b[0], after[k][0], equal_nan=True)
                                    and np.array_equal(b[1], after[k][1])
                                    and b[2] == after[k][2])
               for k, b in before.items())


def program(seed: int, length: int = 8) -> Program:
    """A program drawn with numpy.ma: each statement is kept where numpy.ma
    runs it (and makes a masked array where it names one)."""
    r = np.random.default_rng(seed)
    shape = tuple(int(s) for s in r.integers(0, 4, int(r.integers(1, 4))))
    p = Program(shape, str(r.choice(DTYPES)), str(r.choice(KINDS)), seed, [])
    names: list[str] = []
    shapes: dict[str, tuple[int, ...]] = {}
    tries = 0
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        while len(p.lines) < length and tries < 20 * length:
            tries += 1
            group = int(r.integers(0, 6)) if names else 0
            table = [_MAKE, _UNARY, _BINARY, _REDUCE, _READ, _WRITE][group]
            expr = _fill(r, str(r.choice(table)), names, shapes) if names else str(
                r.choice(table)).format(t=0.5)
            if group == 5:
                line = expr
            elif group == 4:
                line = f"reads.append(now({expr}))"
            else:
                line = f"v{len(names)} = {expr}"
            # (from the arrays as they were: a statement not drawn may have
            # written them)
            trial = _admitted(_replayed(p), line)
            if trial is None:
                continue
            if group < 4:
                shapes[f"v{len(names)}"] = trial[f"v{len(names)}"].shape
                names.append(f"v{len(names)}")
            p.lines.append(line)
    return p


def _replayed(p: Program) -> dict[str, Any]:
    """The namespace after numpy.ma runs ``p``."""
    ns = _namespace(np.ma, p.arrays())
    exec("\n".join(p.lines), ns)                   # noqa: S102 - our own program
    return ns


def _namespace(m: Any, arrays: dict[str, Any], masked: tuple[Any, Any] | None = None,
               now: Any = None) -> dict[str, Any]:
    """What a program runs in: ``m`` (numpy.ma or lt.ma), the arrays, the
    masked arrays ``M0`` (``d0`` under ``k0``) and ``M1`` (``d1`` without a
    mask, fill value 5) made by ``m`` (or given: a compiled function's
    arguments), ``reads`` and ``now``."""
    if masked is None:
        masked = (m.masked_array(arrays["d0"], mask=arrays["k0"]),
                  m.masked_array(arrays["d1"], fill_value=5))
    return {"m": m, "np": np, "reads": [], "now": _now if now is None else now,
            "M0": masked[0], "M1": masked[1], **arrays}


def _admitted(ns: dict[str, Any], line: str) -> dict[str, Any] | None:
    """The namespace ``ns`` after numpy.ma runs ``line`` in it, or None
    where the line is
    not drawn: numpy.ma refuses it, an array it names is not a masked array
    of 1 or more dimensions (numpy.ma's scalars are reads), or a write
    reaches another array (``_written_elsewhere``)."""
    trial = ns
    defines = re.match(r"v\d+ = ", line) is not None
    writes = not defines and not line.startswith("reads.")
    before = _state(trial) if writes else {}
    try:
        exec(line, trial)                           # noqa: S102 - our own program
    except Exception:  # noqa: BLE001 (numpy.ma refuses it)
        return None
    if writes and _written_elsewhere(before, _state(trial), line):
        return None
    if defines:
        v = trial[line.split(" = ")[0]]
        if not isinstance(v, np.ma.MaskedArray) or v is np.ma.masked or not v.ndim:
            return None
    return trial


def _valid(p: Program) -> bool:
    """Whether ``p`` is a program ``program`` could draw (a shrunk one may
    not be: a statement it dropped decided what a write reaches)."""
    ns = _namespace(np.ma, p.arrays())
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for line in p.lines:
            after = _admitted(ns, line)
            if after is None:
                return False
            ns = after
    return True


def _results(ns: dict[str, Any]) -> dict[str, Any]:
    """A program's arrays (``v0``, ...) and reads, by name."""
    out = {k: v for k, v in ns.items() if k.startswith("v") and k[1:].isdigit()}
    out.update({f"read {i}": v for i, v in enumerate(ns["reads"])})
    return out


def _now(v: Any) -> Any:
    """A read's value when it is read: numpy.ma's copied (``filled`` of an
    array without a masked element is its data, which later writes change:
    an alias lazyten's values do not mirror), lazyten's computed."""
    if isinstance(v, (lt.ma.MaskedTensor, lt.Tensor)):
        return v.eval()
    return v.copy() if isinstance(v, np.ndarray) else v


def run(p: Program, m: Any, tensors: bool = False
        ) -> tuple[dict[str, Any], dict[str, np.ndarray[Any, Any]]]:
    """Run ``p`` with ``m`` (numpy.ma or lt.ma): its arrays (``v0``, ...)
    and reads, evaluated, and the user's arrays after the run (``tensors``:
    given to lt.ma as tensors of them, ``lt.asarray``)."""
    arrays = p.arrays()
    ns = _namespace(m, {k: lt.asarray(a) for k, a in arrays.items()} if tensors else arrays)
    exec("\n".join(p.lines), ns)                    # noqa: S102 - our own program
    out = _results(ns)
    if m is not np.ma:
        out = {k: v.eval() if isinstance(v, (lt.ma.MaskedTensor, lt.Tensor)) else v
               for k, v in out.items()}
    return out, arrays


def _a_default(value: Any, dtype: np.dtype[Any]) -> bool:
    """Whether a fill value is some dtype's default cast to ``dtype``.
    numpy.ma stores a default when it is read (``fill_value``'s getter, as
    ``**`` does where a result is invalid), and a stored one is cast with
    the data (``astype``: 1e20 in int64 is its smallest); lazyten keeps the
    default unstored: such fill values are not compared."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        v = np.asarray(value).astype(dtype)
        for t in ("f8", "f4", "f2", "i8", "i2", "?"):
            d = np.asarray(np.ma.default_fill_value(np.dtype(t)))
            for via in ("f8", "f4", "f2", "i8", "i2", "?"):    # (cast once or twice)
                if np.array_equal(v, d.astype(via).astype(dtype), equal_nan=True):
                    return True
    return False


def _differs(got: Any, want: Any, data: str) -> str | None:
    """How lt.ma's value differs from numpy.ma's (None: it does not), for a
    program over ``data`` (its dtype)."""
    if want is np.ma.masked or (isinstance(want, np.ma.MaskedArray) and not want.ndim
                                and bool(want.mask)):
        ok = np.ndim(got) == 0 and bool(np.ma.getmaskarray(got))
        return None if ok else f"numpy.ma's masked, lazyten's {got!r}"
    g, w = np.ma.asanyarray(got), np.ma.asanyarray(want)
    if g.shape != w.shape:
        return f"shape {g.shape}, numpy.ma's {w.shape}"
    gm, wm = np.ma.getmaskarray(g), np.ma.getmaskarray(w)
    if not np.array_equal(gm, wm):
        return f"mask {gm.tolist()}, numpy.ma's {wm.tolist()}"
    if g.dtype != w.dtype:
        if wm.all() and w.dtype == np.float64 and g.dtype.kind == "f":
            return None                  # (numpy.ma's masked constant, documented above)
        return f"dtype {g.dtype}, numpy.ma's {w.dtype}"
    if isinstance(want, np.ma.MaskedArray) and want.ndim:
        if not isinstance(got, np.ma.MaskedArray):
            return f"a {type(got).__name__}, numpy.ma's masked array"
        if (np.ma.getmask(got) is np.ma.nomask) != (np.ma.getmask(want) is np.ma.nomask):
            return f"nomask: {np.ma.getmask(got) is np.ma.nomask}, numpy.ma's the other"
        gf, wf = got.fill_value, want.fill_value
        if not (gf == wf or (np.isnan(gf) and np.isnan(wf))
                or (_a_default(gf, w.dtype) and _a_default(wf, w.dtype))):
            return f"fill value {gf!r}, numpy.ma's {wf!r}"
    keep = ~wm
    gd, wd = np.asarray(np.ma.getdata(g))[keep], np.asarray(np.ma.getdata(w))[keep]
    if gd.dtype.kind in "fc":
        # (to the last bits of each element, and of the largest: a sum that
        # cancels, of products BLAS summed in another order, is not exact;
        # of float32 data, to float32's, which a float64 result computed
        # from them carries: NumPy's float32 loops round differently over
        # contiguous and strided operands, SIMD or not: ``**``, ``arctan2``)
        eps = float(np.finfo(np.result_type(gd.dtype, np.float32)).eps)
        if data == "float32":
            eps = float(np.finfo(np.float32).eps)
        finite = np.abs(wd[np.isfinite(wd)])
        scale = float(finite.max()) if finite.size else 0.0
        ok = np.allclose(gd, wd, rtol=8 * eps, atol=64 * eps * scale, equal_nan=True)
    else:
        ok = np.array_equal(gd, wd)
    return None if ok else f"values {gd.tolist()}, numpy.ma's {wd.tolist()}"


def check(p: Program, mode: str) -> str | None:
    """What differs from numpy.ma when ``p`` runs in ``mode`` (see
    ``MODES``); None when nothing does."""
    opts = dict(MODES[mode])
    reps = opts.pop("_reps", 1)
    tensors = opts.pop("_tensors", False)
    if opts.pop("_jit", False):
        with lt.set_options(**opts):
            return _check_jit(p)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want, _ = run(p, np.ma)
        for rep in range(reps):
            kept = p.arrays()
            try:
                with lt.set_options(**opts):
                    got, arrays = run(p, lt.ma, tensors)
            except Exception as e:  # noqa: BLE001 (reported as a difference)
                return crash(e)
            problem = _compared([got[k] for k in want], want, arrays, kept, p.dtype)
            if problem is not None:
                return problem + (f" (run {rep + 1} of {reps})" if reps > 1 else "")
    return None


def _compared(got: list[Any], want: dict[str, Any], arrays: dict[str, Any],
              kept: dict[str, Any], data: str) -> str | None:
    """The first of lt.ma's values (in ``want``'s order) that differs from
    numpy.ma's, or the user's array the run modified; None: none."""
    for (k, w), g in zip(want.items(), got):
        d = _differs(g, w, data)
        if d is not None:
            return f"{k}: {d}"
    for k, a in arrays.items():
        if not np.array_equal(a, kept[k], equal_nan=True):
            return f"the user's array {k} was modified"
    return None


def _snapshot(v: Any) -> Any:
    """A read in a traced program: its value when it is read, lazily (a
    copy: later writes to what it read do not reach it)."""
    return v.copy() if isinstance(v, (lt.Tensor, lt.ma.MaskedTensor)) else v


class _NotTraced(Exception):
    """A program an ``@lt.jit`` function cannot be made of: a read that is
    no array (a list of slices, a bool)."""


def _check_jit(p: Program) -> str | None:
    """``p`` as an ``@lt.jit`` function of ``d0, d1, k0, k1, M0, M1``
    (``now`` of a read: a lazy copy, ``_snapshot``), called with ``p``'s arrays
    and then with other values (the cached plan): each call's arrays and
    reads against numpy.ma's.  A program lt.ma decides by values while
    building (``put``, a masked index, ``is_masked``: ``lt.TracingError``)
    or with reads that are no arrays is not one."""
    code = "\n".join(p.lines)

    def body(d0: Any, d1: Any, k0: Any, k1: Any, M0: Any, M1: Any) -> Any:  # noqa: N803
        ns = _namespace(lt.ma, {"d0": d0, "d1": d1, "k0": k0, "k1": k1}, (M0, M1),
                        now=_snapshot)
        exec(code, ns)                               # noqa: S102 - our own program
        res = _results(ns)
        if not all(isinstance(v, (lt.Tensor, lt.ma.MaskedTensor)) for v in res.values()):
            raise _NotTraced
        return tuple(res.values())
    traced = lt.jit(body)
    for seed in (p.seed, p.seed + 2):           # (d1's shape goes with the seed's parity)
        q = Program(p.shape, p.dtype, p.kind, seed, p.lines)
        call = "traced" if seed == p.seed else "from the cached trace"
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            if seed != p.seed and not _valid(q):
                continue                 # (with these values a write reaches another array)
            want, _ = run(q, np.ma)
            arrays = q.arrays()
            kept = {k: a.copy() for k, a in arrays.items()}
            args = [arrays[k] for k in ("d0", "d1", "k0", "k1")] + [
                np.ma.masked_array(arrays["d0"], mask=arrays["k0"]),
                np.ma.masked_array(arrays["d1"], fill_value=5)]
            try:
                got = traced(*args)
            except (lt.TracingError, _NotTraced):
                return None
            except Exception as e:  # noqa: BLE001 (reported as a difference)
                return crash(e, call)
        problem = _compared(list(got), want, arrays, kept, p.dtype)
        if problem is not None:
            return f"@lt.jit ({call}): {problem}"
    return None


def shrink(p: Program, mode: str) -> Program:
    """A failing program with statements dropped while it fails (numpy.ma
    still running it as ``program`` would draw it)."""
    assert check(p, mode)

    def fails(lines: list[str]) -> bool:
        q = Program(p.shape, p.dtype, p.kind, p.seed, lines)
        return _valid(q) and check(q, mode) is not None
    return Program(p.shape, p.dtype, p.kind, p.seed, fewer_lines(p.lines, fails))
