"""The cost model that picks a fused kernel's backend.

Costs are nanoseconds per element per instruction, by op class and backend,
plus fixed per-call overheads.  They are *measured* on the machine by
``python -m lazyten.exec.calibrate`` and cached as JSON (in
``$LAZYTEN_CACHE_DIR`` or ``~/.cache/lazyten``); without a calibration file the
defaults below are used.  The defaults are that script's results on the
development machine (2 cores, float64), so they are measurements too, only
from another machine.
"""

from __future__ import annotations

import json
import math
import os
import threading
import warnings
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

# Op classes: the cost of one element of one instruction differs by an order
# of magnitude between an add and a sin, and between NumPy's SIMD loops and
# numexpr's VM.
TRANSCENDENTAL = frozenset({"sin", "cos", "tan", "exp", "expm1", "log", "log1p", "log2",
                            "log10", "sinh", "cosh", "tanh", "asin", "acos", "atan",
                            "asinh", "acosh", "atanh", "atan2", "hypot", "exp2", "cbrt",
                            "logaddexp", "logaddexp2"})
HEAVY = frozenset({"pow", "divide", "sqrt", "floor_divide", "remainder", "fmod",
                   "reciprocal"})


def op_class(name: str) -> str:
    if name in TRANSCENDENTAL:
        return "transcendental"
    if name in HEAVY:
        return "heavy"
    return "cheap"


def class_counts(names: Iterable[str]) -> dict[str, int]:
    """How many of ``names`` fall in each op class."""
    counts: dict[str, int] = {}
    for k in names:
        c = op_class(k)
        counts[c] = counts.get(c, 0) + 1
    return counts


def _weighted(rates: dict[str, float], counts: dict[str, int]) -> float:
    """The sum of ``rates`` over ops counted by class (``class_counts``)."""
    return sum(rates[c] * m for c, m in counts.items())


# numexpr runs a call of this many elements or fewer on the calling thread
# (measured: 1,000 elements took the same time on one thread or two, 2,048
# on two 20 us more, 3,000 60 us more).
NUMEXPR_SERIAL = 1024


@dataclass
class CostModel:
    """Nanoseconds per element, one thread, float64.

    A kernel of k ops over m full-size arrays (inputs + output) costs
    * plain NumPy: each op streams its operands through memory:
      ``sum(numpy_plain[op])`` (``numpy_block``'s where the arrays are a
      block or less: in cache);
    * blocked NumPy: the ops run on cache-resident blocks, the arrays stream
      once: ``sum(numpy_block[op]) + mem * m``, spread over threads, plus
      ``gil_us`` per ufunc call with more than one thread;
    * numexpr: its VM on cache-resident blocks: ``sum(numexpr[op]) + mem * m``,
      spread over threads, plus ``numexpr_call_us`` a call and
      ``numexpr_split_us`` where it wakes its threads;
    * a compiled loop (numba): one pass, ``sum(loop[op]) + mem * m`` for an
      elementwise kernel (LLVM vectorizes it), ``sum(loop_sum[op]) + mem * m``
      for a full sum (NumPy's pairwise order: scalar code), spread over
      threads, plus ``loop_call_us`` a call and ``loop_split_us`` where it
      is split over threads.
    """
    # Defaults: ``python -m lazyten.exec.calibrate`` on the development
    # machine (2 cores, NumPy 2.4, numexpr 2.14), rounded.
    numpy_plain: dict[str, float] = field(default_factory=lambda: {
        "cheap": 0.58, "heavy": 0.67, "transcendental": 3.1})
    numpy_block: dict[str, float] = field(default_factory=lambda: {
        "cheap": 0.21, "heavy": 0.69, "transcendental": 2.6})
    numexpr: dict[str, float] = field(default_factory=lambda: {
        "cheap": 0.34, "heavy": 0.94, "transcendental": 4.9})
    mem: float = 0.38                 # one float64 array streamed through memory
    # numexpr's VM has few float32 paths: its per-op cost may grow in float32.
    numexpr_float32_factor: float = 1.0
    # Fixed costs, in microseconds.
    numpy_call_us: float = 0.27       # one ufunc call
    numexpr_call_us: float = 7.2      # one numexpr.evaluate (parse cache hit)
    # numexpr's own threads, which it wakes for more than NUMEXPR_SERIAL
    # elements: a call's time on them over one thread's shared out.  Here
    # 45-80 us: a 20-op chain of 10,000 elements took 160 us on numexpr (its
    # VM 60 on one thread), 26 on plain NumPy, and the model sent it to
    # numexpr.
    numexpr_split_us: float = 60.0
    # Compiled loops: a cheap op is free next to memory traffic (0.01 is the
    # calibration's floor); in a pairwise sum the code is scalar.  No loop
    # has a transcendental op (not exact): those entries are never used.
    loop: dict[str, float] = field(default_factory=lambda: {
        "cheap": 0.01, "heavy": 0.29, "transcendental": 10.0})
    loop_sum: dict[str, float] = field(default_factory=lambda: {
        "cheap": 0.16, "heavy": 1.35, "transcendental": 10.0})
    # A product of every element multiplies one after the other (NumPy's
    # order): nanoseconds an element on one thread, the multiply's latency.
    loop_chain: float = 0.9
    loop_call_us: float = 0.34        # one call of a compiled loop (numba's dispatch)
    loop_split_us: float = 71.0       # handing parts of a loop to the threads and back
    # A compiled loop's cost per element per array it reads or writes in
    # cache (a mixed kernel's tail, on blocks): the one-op loop on a block.
    loop_cached: float = 0.1
    # Per ufunc call of a blocked kernel when several threads run it: handing
    # the GIL between threads around each call does not overlap, so it is
    # paid once per call, not divided by threads.  Cheap-op chains suffer
    # (20 ops x 306 blocks on W2: 1.1x from two threads, where numexpr's VM,
    # one GIL release per block, gets 1.85x).  Measured here: the two-thread
    # time over half the one-thread time, per call, on W1 and W2 alike.
    gil_us: float = 3.7
    # The smallest block, in float64 elements (narrower kernels get as many
    # bytes, so more elements): per-ufunc-call overhead favours big blocks,
    # the L2 cache and the scratch memory (threads x slots x block) small
    # ones.  A kernel whose temporaries take few scratch slots gets bigger
    # blocks, up to ``scratch_bytes`` of scratch per thread (``block_for``),
    # as much as W1's three slots of the smallest block take: one slot of
    # 768 KiB ran sum(a*b+c) at 0.39 of NumPy's time from cold caches, one of
    # 256 KiB at 0.66 (fewer calls, fewer GIL handoffs; the cheap chain of
    # W2 2x faster), while W1's slots were no faster beyond 256 KiB each.
    block_elems: int = 32768
    scratch_bytes: int = 768 * 1024
    source: str = "defaults"

    def block_for(self, itemsize: int, slots: int) -> int:
        """Elements per block of a kernel whose widest dtype has ``itemsize``
        bytes and whose temporaries take ``slots`` scratch blocks: blocks of
        equal bytes whatever the dtype (float32 kernels got 0.39 -> 0.33 of
        NumPy's time on W1 from that: half as many ufunc calls per byte),
        at least ``block_elems`` float64's worth, more while the scratch stays
        within ``scratch_bytes``.

        >>> m = CostModel(block_elems=32768, scratch_bytes=768 * 1024)
        >>> m.block_for(8, 1), m.block_for(8, 2), m.block_for(8, 5), m.block_for(4, 3)
        (98304, 49152, 32768, 65536)
        """
        nbytes = max(self.block_elems * 8, self.scratch_bytes // max(slots, 1))
        return max(1, nbytes // itemsize)

    def estimate(self, names: list[str], n: int, threads: int, float32: bool,
                 arrays: int = 2, block_elems: int | None = None,
                 reduces: bool = False, tail: tuple[str, ...] = (),
                 tail_operands: int = 0, sequential: bool = False) -> dict[str, float]:
        """Estimated seconds for each backend on ``n`` elements, ``arrays``
        full-size operands streamed (inputs and output), in blocks of
        ``block_elems`` elements (default: the model's smallest block);
        ``reduces``: the kernel's loop is a pairwise sum (scalar code);
        ``sequential``: it is one chain of multiplies, on one thread;
        ``tail``: the ops of a mixed kernel's compiled tail (of ``names``),
        which reads ``tail_operands`` arrays (adds a "mixed" estimate)."""
        width = 0.5 if float32 else 1.0          # bytes per element, relative
        # (temporaries of a block or less stay in cache: the blocked rate;
        # a 20-op chain of 10,000 elements ran at 0.13 ns an op and element)
        rates = self.numpy_block if n <= self.block_elems else self.numpy_plain
        # Ops counted by class once: a 10,000-op kernel is planned in one pass
        # over its names, not one per rate table.
        counts = class_counts(names)
        plain = _weighted(rates, counts) * width
        block = _weighted(self.numpy_block, counts) * width
        ne = _weighted(self.numexpr, counts)
        if float32:
            ne *= self.numexpr_float32_factor
        stream = self.mem * arrays * width
        nblocks = max(1, -(-n // (block_elems or self.block_elems)))
        eff = min(threads, nblocks)
        calls = self.numpy_call_us * 1e3 * len(names)
        gil = self.gil_us * 1e3 * len(names) * nblocks if eff > 1 else 0.0
        lp = _weighted(self.loop_sum if reduces else self.loop, counts)
        # Threads split a loop into parts of at least loop_backend.SPLIT_MIN.
        leff = 1 if sequential else max(1, min(threads, n >> 16))
        if sequential:     # (the chain's latency hides the ops and the reads)
            lp = max(self.loop_chain, lp * width + stream) - stream
        est = {
            "numpy": (plain * n + calls) * 1e-9,
            "blocked": ((block + stream) * n / eff + calls * nblocks / eff + gil) * 1e-9,
            "numexpr": ((ne + stream) * n / threads + self.numexpr_call_us * 1e3
                        + (self.numexpr_split_us * 1e3
                           if threads > 1 and n > NUMEXPR_SERIAL else 0.0)) * 1e-9,
            "loop": ((lp * width + stream) * n / leff + self.loop_call_us * 1e3
                     + (self.loop_split_us * 1e3 if leff > 1 else 0.0)) * 1e-9,
        }
        if tail:
            # The blocked loop with the tail's ufunc calls replaced by one
            # loop call a block, which reads its operands from cache once.
            in_tail = class_counts(tail)
            head = {c: m - in_tail.get(c, 0) for c, m in counts.items()}   # names - tail
            n_head = len(names) - len(tail)
            per = (_weighted(self.numpy_block, head) + _weighted(self.loop, in_tail)
                   + self.loop_cached * (tail_operands + 1)) * width
            mcalls = self.numpy_call_us * 1e3 * n_head + self.loop_call_us * 1e3
            mgil = self.gil_us * 1e3 * (n_head + 1) * nblocks if eff > 1 else 0.0
            est["mixed"] = ((per + stream) * n / eff + mcalls * nblocks / eff + mgil) * 1e-9
        return est


def cache_dir() -> Path:
    return Path(os.environ.get("LAZYTEN_CACHE_DIR", Path.home() / ".cache" / "lazyten"))


def cache_file() -> Path:
    return cache_dir() / "costs.json"


_model: CostModel | None = None
_lock = threading.Lock()


def get_model() -> CostModel:
    """The calibrated model if a calibration file exists, else the defaults."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                _model = _load()
    return _model


def _load() -> CostModel:
    """The model in the calibration file, or the defaults: silently where
    there is no file, with a warning where it cannot be read or is not a
    model (every evaluation plans with it, so a bad file must not break
    them: a ``"numpy_block": "abc"`` made each one raise TypeError)."""
    path = cache_file()
    try:
        text = path.read_text()
    except FileNotFoundError:
        return CostModel()
    except OSError as e:
        return _bad_file(path, f"it cannot be read ({e})")
    try:
        data = json.loads(text)
    except ValueError as e:
        return _bad_file(path, f"it is not JSON ({e})")
    problem = _invalid(data)
    if problem is not None:
        return _bad_file(path, problem)
    return CostModel(**data)


# ``CostModel``'s fields by the check ``_invalid`` makes of them.
_NUMBER_FIELDS = {f.name for f in fields(CostModel) if f.type in ("float", float)}
_RATE_FIELDS = {f.name for f in fields(CostModel) if str(f.type).startswith("dict")}
_INT_FIELDS = {"block_elems": 1, "scratch_bytes": 0}          # and their least values
_CLASSES = frozenset({"cheap", "heavy", "transcendental"})


def _rate(v: Any) -> bool:
    """A usable cost: a finite number, not negative (bools are ints to
    Python, never costs)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) \
        and math.isfinite(v) and v >= 0


def _invalid(data: Any) -> str | None:
    """What is wrong with a calibration file's contents, or None: a JSON
    object of ``CostModel``'s fields (any may be left out), each of its type."""
    if not isinstance(data, dict):
        return f"it holds a JSON {type(data).__name__}, not an object of the model's fields"
    for name, v in data.items():
        if name in _RATE_FIELDS:
            if not isinstance(v, dict) or set(v) != _CLASSES \
                    or not all(_rate(x) for x in v.values()):
                return (f"field {name!r} is {v!r}, not an object with a number >= 0 for "
                        f"each op class ({', '.join(sorted(_CLASSES))})")
        elif name in _NUMBER_FIELDS:
            if not _rate(v):
                return f"field {name!r} is {v!r}, not a number >= 0"
        elif name in _INT_FIELDS:
            least = _INT_FIELDS[name]
            if not isinstance(v, int) or isinstance(v, bool) or v < least:
                return f"field {name!r} is {v!r}, not an integer >= {least}"
        elif name == "source":
            if not isinstance(v, str):
                return f"field 'source' is {v!r}, not a string"
        else:
            return f"it has a field {name!r} that the cost model does not"
    return None


def _bad_file(path: Path, why: str) -> CostModel:
    warnings.warn(f"lazyten: ignoring the cost calibration file {path}: {why}; using the "
                  "default costs.  Run `python -m lazyten.exec.calibrate` to write it "
                  "again, or delete it", RuntimeWarning, stacklevel=4)
    return CostModel()


def save(model: CostModel) -> Path:
    global _model
    path = cache_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(model), indent=2))
    _model = model
    return path
