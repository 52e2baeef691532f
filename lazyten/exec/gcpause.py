"""Pausing Python's automatic garbage collection while a plan is made.

Optimizing and planning a large graph allocates several container objects a
node (rebuilt nodes, their input tuples, the passes' maps) that all survive
until the plan is done.  CPython's collector counts those allocations and
every so often walks *every* tracked object in the process: for a
100,000-node chain, three full collections took 280 ms of a 1.2 s
evaluation, while the passes themselves make no garbage cycles worth
collecting.  Mercurial's ``util.nogc`` pauses the collector around its bulk
parsing for the same reason.

The pause is process-wide (``gc.disable`` is), so it is counted: concurrent
plans on several threads resume collection when the last one is done, and
only if collection was enabled when the first one began.  A collection the
pause held back simply runs at the next allocation after it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_resume = False          # whether the outermost pause found collection enabled


@contextmanager
def gc_paused() -> Iterator[None]:
    """Automatic collection off for the ``with`` block (explicit
    ``gc.collect()`` still works), back on after the last concurrent one."""
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
