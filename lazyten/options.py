"""Engine options: ``lt.set_options(...)`` as a call or as a context manager.

Options live in a ``ContextVar``, so a ``with lt.set_options(...)`` block in one
thread (or asyncio task) never leaks into another, and is restored on exit even
when the block raises.  A plain call changes the options of the calling
context from then on; threads started afterwards begin from the defaults
(Python gives new threads a fresh context), which ``lt.set_default_options``
changes for everyone.
"""

from __future__ import annotations

import threading
from contextvars import ContextVar, Token
from dataclasses import dataclass, fields, replace
from types import TracebackType
from typing import Any

BACKENDS = ("auto", "numpy", "numexpr", "loop")


@dataclass(frozen=True)
class Options:
    optimize: bool = True             # run the rewrite passes and fusion
    # Fused kernels: "auto" (cost model), "numpy", "numexpr", or "loop"
    # (compiled loops, numba, where exact, or else a mixed kernel's compiled
    # tail; compiled at the first run).
    backend: str = "auto"
    memory_limit: int | None = None   # bytes; plans estimated above it raise MemoryError
    threads: int | None = None        # worker threads for blocked kernels (None: all cores)
    check: bool = False               # verify graphs and plans after every pass (tests)
    # sum(a*b) of float64 operands as a BLAS dot: BLAS's order of the
    # additions, not NumPy's, so not NumPy's bits (faster on data in cache).
    blas_dot: bool = False
    # Matrix chains reassociated by FLOP count (``A @ B @ v`` as two
    # matrix-vector products): other roundings than NumPy's left-to-right
    # order, and with infinities another non-finite value (inf * 0 is NaN in
    # one order only).  False: NumPy's order, NumPy's bits.
    matmul_order: bool = True
    # A graph none of whose operations computes more than this many elements
    # (its leaves and views may be larger), whose plan is not cached, runs
    # node by node as NumPy under backend "auto"
    # (``exec.optimized.run_optimized``: optimizing it costs more than it
    # saves).  0: never.
    tiny_elements: int = 4096

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {self.backend!r}")
        if not isinstance(self.optimize, bool):
            raise TypeError(f"optimize must be a bool, got {self.optimize!r}")
        if self.memory_limit is not None and (not isinstance(self.memory_limit, int)
                                              or isinstance(self.memory_limit, bool)
                                              or self.memory_limit <= 0):
            raise ValueError(f"memory_limit must be a positive int (bytes) or None, "
                             f"got {self.memory_limit!r}")
        for flag in ("blas_dot", "matmul_order"):
            if not isinstance(getattr(self, flag), bool):
                raise TypeError(f"{flag} must be a bool, got {getattr(self, flag)!r}")
        if not isinstance(self.tiny_elements, int) or isinstance(self.tiny_elements, bool) \
                or self.tiny_elements < 0:
            raise ValueError(f"tiny_elements must be a non-negative int, got "
                             f"{self.tiny_elements!r}")
        if self.threads is not None and (not isinstance(self.threads, int) or self.threads < 1):
            raise ValueError(f"threads must be a positive int or None, got {self.threads!r}")
        # Hashed once: options are part of the plan cache's key, looked up on
        # every evaluation, where the generated field-by-field hash cost 0.14 us.
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self))))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]


_defaults = Options()
_defaults_lock = threading.Lock()
_current: ContextVar[Options | None] = ContextVar("lazyten_options", default=None)


def get_options() -> Options:
    """The options in force in this context."""
    opts = _current.get()
    return _defaults if opts is None else opts


def _check_names(kwargs: dict[str, Any]) -> None:
    names = {f.name for f in fields(Options)}
    bad = sorted(set(kwargs) - names)
    if bad:
        raise TypeError(f"unknown option(s) {bad}; known: {sorted(names)}")


class set_options:
    """Set engine options; use as ``lt.set_options(optimize=False)`` or
    ``with lt.set_options(backend="numpy"): ...`` (restored on exit).

    >>> import lazyten as lt
    >>> with lt.set_options(optimize=False):
    ...     lt.get_options().optimize
    False
    """

    def __init__(self, **kwargs: Any) -> None:
        _check_names(kwargs)
        self._token: Token[Options | None] = _current.set(replace(get_options(), **kwargs))

    def __enter__(self) -> Options:
        return get_options()

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        _current.reset(self._token)


def set_default_options(**kwargs: Any) -> None:
    """Change the defaults that every thread and context starts from."""
    global _defaults
    _check_names(kwargs)
    with _defaults_lock:
        _defaults = replace(_defaults, **kwargs)
