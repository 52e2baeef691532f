"""Fused kernels as numexpr expressions, only where numexpr is exact.

numexpr is not NumPy (DESIGN 4): it computes uint8 + uint8 as int32, float16
as float32, ``float32 * 2.5`` as float64, uint64 as int64.  A kernel goes to
numexpr only if every value in it has a dtype numexpr handles exactly, every
instruction's operands have one dtype (so numexpr's upcasting never differs
from NumPy's), Python scalars are passed as operands already cast to that
dtype (NEP 50: a weak scalar takes the array's dtype), and a trial run on
one-element arrays gives the kernel's dtype.  The expression text is built
only from the registry's templates and generated names (``i0``, ``c1``),
never from user text.
"""

from __future__ import annotations

import threading
from typing import Any

import numexpr
import numpy as np

from ..graph.node import Node
from ..graph.ops import REGISTRY
from ..graph.passes.fuse import Instr
from . import fpflags
from .cost import TRANSCENDENTAL

EXACT_DTYPES = frozenset(np.dtype(t) for t in ("bool", "int32", "int64", "float32",
                                               "float64", "complex128"))
# Ops whose numexpr form matches NumPy on integers too; the rest need floats.
# Not abs: numexpr's abs of the most negative int is +2**31 where NumPy wraps.
INT_OK = frozenset({"add", "subtract", "multiply", "negative", "positive", "equal",
                    "not_equal", "less", "less_equal", "greater", "greater_equal", "where",
                    "divide", "square"})
BOOL_ONLY = frozenset({"logical_and", "logical_or", "logical_not", "logical_xor",
                       "bitwise_and", "bitwise_or", "bitwise_invert"})
# Not divide: numexpr's complex division by zero gives nan+nanj, NumPy's inf+infj.
# Not multiply or square: NumPy's complex product (its SIMD loop, with fused
# multiply-adds) and numexpr's differ in the last bit of 44% of random
# complex128 products.
COMPLEX_OK = frozenset({"add", "subtract", "negative", "positive",
                        "conj", "real", "imag", "equal", "not_equal", "where"})
# Ops whose numexpr form differs from NumPy on some floats: pow follows C's
# pow (pow(-inf, 0.5) is +inf) where NumPy gives nan (found by the fuzzer);
# the transcendental functions are libm's (or VML's) in numexpr and NumPy's
# own SIMD loops in NumPy: float32 values differ in the last bits, and so does
# the sign of the NaN of a domain error (log10(-1) is -nan in NumPy, +nan in
# numexpr; copysign sees it: found by the fuzzer).  NumPy's loops are also
# the faster ones here (cost.py), so they run blocked NumPy.
NOT_EXACT = frozenset({"pow"}) | TRANSCENDENTAL
MAX_OPS = 64   # longer expressions hit numexpr's parser limits and gain nothing
# and its text (numexpr has no temporaries: a value an instruction uses twice
# is written out twice, so ``x = x - 0.1 * x * x`` ten times was 3**10 copies
# of ``i0``, and compiling it took 3 s, twelve times 30 s)
MAX_CHARS = 4096

# numexpr reports no floating-point errors (its threads keep their flags),
# where NumPy warns ("overflow encountered in multiply") or raises as
# ``np.errstate`` says.  Ops that can raise a flag in NumPy: these on float
# or complex operands (integer arithmetic raises none), and these on any.
RAISES_ON_FLOATS = frozenset({"add", "subtract", "multiply", "square"})
RAISES = frozenset({"divide", "reciprocal", "sqrt", "nextafter"})
# Ops whose result is not finite where an operand is not (divide: its
# numerator's), so an error's infinity or NaN reaches the kernel's output
# through them: where a kernel's errors all do, a finite output means none
# was raised (but underflow, which leaves no trace).  Not ``where`` or the
# compares, which can leave it out (``where(x > 0, y * 1e300, 0)``), nor
# ``reciprocal`` (``1 / inf`` is 0).
TRANSPARENT = frozenset({"add", "subtract", "multiply", "square", "sqrt", "negative",
                         "positive", "abs", "fabs", "ceil", "floor", "trunc"})


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _scalar_kind(v: Any) -> str:
    if isinstance(v, bool):
        return "b"
    if isinstance(v, int):
        return "i"
    if isinstance(v, float):
        return "f"
    return "c"


class NumexprKernel:
    """A compiled numexpr form of one kernel program, and how its
    floating-point errors show: ``flags``, those its ops can raise in NumPy
    (``fpflags.ALL`` or 0), and ``traced``, whether each leaves a NaN or an
    infinity in the output (``TRANSPARENT``)."""

    def __init__(self, expr: str, names: list[tuple[str, int, np.dtype[Any] | None]],
                 flags: int = 0, traced: bool = True) -> None:
        self.expr = expr
        # (name, kernel input number, dtype to cast a Python scalar to, or None)
        self.names = names
        self.flags, self.traced = flags, traced

    def __call__(self, args: list[Any], out: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        local = {}
        for name, k, cast in self.names:
            v = args[k]
            local[name] = np.asarray(v, dtype=cast) if cast is not None else v
        numexpr.evaluate(self.expr, local_dict=local, global_dict={}, out=out)
        return out


def _operand_dtype(instr: Instr, in_dtypes: list[np.dtype[Any] | None],
                   temp_dtypes: list[np.dtype[Any]]) -> tuple[np.dtype[Any] | None, bool]:
    """The one dtype of an instruction's non-weak operands, or (None, False)."""
    name, refs, _attrs, _dt = instr
    found: set[np.dtype[Any]] = set()
    for pos, r in enumerate(refs):
        if name == "where" and pos == 0:
            continue  # the condition is bool by construction
        dt = in_dtypes[r] if r >= 0 else temp_dtypes[-1 - r]
        if dt is not None:
            found.add(dt)
    if len(found) > 1:
        return None, False
    return (found.pop() if found else None), True


def compile_numexpr(program: tuple[Instr, ...], inputs: list[Node]) -> NumexprKernel | None:
    """The numexpr form of ``program``, or None where numexpr is not exact."""
    if len(program) > MAX_OPS:
        return None
    in_dtypes: list[np.dtype[Any] | None] = [None if n.weak else n.dtype for n in inputs]
    if any(dt is not None and dt not in EXACT_DTYPES for dt in in_dtypes):
        return None
    temp_dtypes: list[np.dtype[Any]] = []
    texts: list[str] = []
    names: dict[tuple[int, str], str] = {}
    name_list: list[tuple[str, int, np.dtype[Any] | None]] = []
    # per instruction: whether an error raised at it or before may be in its value
    erred: list[bool] = []
    raises, traced = False, True
    for instr in program:
        name, refs, attrs, dt_str = instr
        spec = REGISTRY[name]
        dt = np.dtype(dt_str)
        if spec.numexpr is None or attrs or dt not in EXACT_DTYPES or name in NOT_EXACT:
            return None
        opd, ok = _operand_dtype(instr, in_dtypes, temp_dtypes)
        if not ok:
            return None
        kind = opd.kind if opd is not None else dt.kind
        if name in BOOL_ONLY and kind != "b":
            return None
        if kind in "iu" and name not in INT_OK:
            return None
        if kind == "c" and name not in COMPLEX_OK:
            return None
        if name in ("conj", "real", "imag") and kind != "c":
            return None          # (numexpr's conj makes a real operand complex: imag -0.0)
        if kind == "b" and name not in BOOL_ONLY | {"equal", "not_equal", "where"}:
            return None
        args = []
        for pos, r in enumerate(refs):
            if r < 0:
                args.append(texts[-1 - r])
                continue
            cast = None
            if inputs[r].weak:
                cast = np.dtype(bool) if name == "where" and pos == 0 else (opd or dt)
                # NEP 50: a scalar of a higher kind than the array (1j with an
                # int array) promotes the array; numexpr would not.
                value = inputs[r].attrs["value"]
                if _KIND_RANK[_scalar_kind(value)] > _KIND_RANK[cast.kind]:
                    return None
                if cast.kind in "iu" and isinstance(value, int):
                    info = np.iinfo(cast.type)
                    if not info.min <= value <= info.max:
                        return None   # NumPy compares/promotes out-of-range ints specially
            key = (r, str(cast))
            if key not in names:
                names[key] = f"{'c' if cast is not None else 'i'}{len(names)}"
                name_list.append((names[key], r, cast))
            args.append(names[key])
        texts.append(spec.numexpr.format(*args))
        if len(texts[-1]) > MAX_CHARS:
            return None
        temp_dtypes.append(dt)
        here = name in RAISES or name in RAISES_ON_FLOATS and kind in "fc"
        raises |= here
        # (complex errors: NumPy's flags there are its loops' own; run NumPy)
        traced &= not (here and kind == "c")
        for pos, r in enumerate(refs):
            if r < 0 and erred[-1 - r]:
                here = True
                traced &= name in TRANSPARENT or name == "divide" and pos == 0
        erred.append(here)
    expr = texts[-1]
    kernel = NumexprKernel(expr, name_list, fpflags.ALL if raises else 0, traced)
    if not _trial(kernel, inputs, np.dtype(program[-1][3])):
        return None
    return kernel


# ``_trial``'s answers by expression and input dtypes.  Bounded, and cleared
# when full as the other caches are: a program generating many distinct
# expressions (20,000 random ones made 19,485 entries) must not grow it
# without end.  By entries and by the characters of their keys, which
# ``MAX_CHARS`` keeps to a few kilobytes each.
_trial_cache: dict[tuple[str, tuple[str, ...]], bool] = {}
_TRIAL_MAX = 4096
_TRIAL_CHARS_MAX = 1 << 21
_trial_chars = 0                    # characters in ``_trial_cache``'s keys
_trial_lock = threading.Lock()


def _trial(kernel: NumexprKernel, inputs: list[Node], dtype: np.dtype[Any]) -> bool:
    """Run on one-element arrays: numexpr must agree on the result dtype."""
    global _trial_chars
    sig = tuple(f"{n.dtype}{'w' if n.weak else ''}" for n in inputs)
    key = (kernel.expr + repr(kernel.names), sig)
    hit = _trial_cache.get(key)
    if hit is not None:
        return hit
    args = [n.attrs["value"] if n.weak else np.ones(1, n.dtype) for n in inputs]
    local = {name: (np.asarray(args[k], dtype=cast) if cast is not None else args[k])
             for name, k, cast in kernel.names}
    try:
        with np.errstate(all="ignore"):
            res = numexpr.evaluate(kernel.expr, local_dict=local, global_dict={})
        ok = np.asarray(res).dtype == dtype
    except Exception:
        ok = False
    size = len(key[0]) + sum(map(len, sig))
    with _trial_lock:
        if key not in _trial_cache:
            if len(_trial_cache) >= _TRIAL_MAX or _trial_chars + size > _TRIAL_CHARS_MAX:
                _trial_cache.clear()
                _trial_chars = 0
            _trial_chars += size
        _trial_cache[key] = ok
    return ok
