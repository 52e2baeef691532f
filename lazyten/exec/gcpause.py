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
pause held back simply runs at the next allocation after it.  A child made
by ``fork`` keeps only the forking thread: its count is reset to that
thread's own pauses (``_after_fork_child``), so the others' pauses, which
never end there, do not leave collection off in the child for good.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_resume = False          # whether the outermost pause found collection enabled
# Each thread's own depth: after a fork only the forking thread lives on in
# the child, and only its pauses will ever end there (``_after_fork_child``).
_mine = threading.local()


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
        _mine.depth = getattr(_mine, "depth", 0) + 1
    try:
        yield
    finally:
        with _lock:
            _mine.depth -= 1
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()


def _before_fork() -> None:
    # (the count and gc's state read consistently in the child: no thread
    # is between its count and its gc call)
    _lock.acquire()


def _after_fork_parent() -> None:
    _lock.release()


def _after_fork_child() -> None:
    """The other threads' pauses never end in the child (the threads are
    gone): without this, a fork while another thread planned left the child
    with collection off for good.  The count becomes the forking thread's
    own, and collection resumes now if that is none and the pauses turned
    it off."""
    global _lock, _depth
    _lock = threading.Lock()          # (held by the forking thread: a fresh one)
    paused = _depth > 0               # (else gc's state is the program's own)
    _depth = getattr(_mine, "depth", 0)
    if paused and _depth == 0 and _resume:
        gc.enable()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_parent,
                        after_in_child=_after_fork_child)
