"""Robustness: process-wide caches stay bounded, and a fork while another
thread plans leaves the child a working process.

Each cache here is keyed by something a program can make without end (a
kernel program as a chain grows, an expression, an op's attrs), so each is
bounded, by entries and where entries can be large by their total size too,
and cleared when full as the codebase's other caches are.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
import warnings
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import lazyten as lt
import lazyten.linalg as la
from lazyten.exec import numexpr_backend, numpy_backend
from lazyten.exec.gcpause import gc_paused
from lazyten.graph import ops
from lazyten.graph.passes.fuse import Instr

F64 = np.dtype(np.float64)


def _chain(length: int) -> tuple[Instr, ...]:
    """A program of ``length`` adds, each of the one before and input 0."""
    return (("add", (0, 1), (), F64),) + tuple(("add", (-k, 0), (), F64)
                                                for k in range(1, length))


def test_prepared_programs_are_bounded_by_their_instructions(monkeypatch: Any) -> None:
    # A chain grown a little and evaluated on each iteration plans a kernel
    # program of each length: under the 512-entry bound alone they held
    # 82 MB at 500 iterations (the programs and their ready steps).
    monkeypatch.setattr(numpy_backend, "_prepared", {})
    monkeypatch.setattr(numpy_backend, "_prepared_instrs", 0, raising=False)
    for length in range(200, 500):                 # 104,850 instructions in all
        numpy_backend.prepare(_chain(length), 2)
    held = sum(len(key[0]) for key in numpy_backend._prepared)
    assert 0 < held <= 50_000                      # (some 300 bytes each)
    assert held <= numpy_backend._PREPARED_INSTRS_MAX
    # still a cache: the same program again is the same preparation
    program = _chain(100)
    assert numpy_backend.prepare(program, 2) is numpy_backend.prepare(program, 2)
    # one longer than the whole budget runs, uncached
    huge = _chain(numpy_backend._PREPARED_INSTRS_MAX + 1)
    assert len(numpy_backend.prepare(huge, 2).steps) == len(huge)
    assert all(len(key[0]) <= numpy_backend._PREPARED_INSTRS_MAX
               for key in numpy_backend._prepared)


class _Stub:
    """numexpr, answering each trial at once with one float64 element."""

    @staticmethod
    def evaluate(expr: str, local_dict: Any, global_dict: Any) -> Any:
        return np.ones(1)


def test_numexpr_trials_are_bounded_by_count_and_size(monkeypatch: Any) -> None:
    # 20,000 distinct small expressions under backend="numexpr" left 19,485
    # entries; a trial's answer is by its expression text, so the cache is
    # bounded by entries and by the characters of the texts.
    monkeypatch.setattr(numexpr_backend, "_trial_cache", {})
    monkeypatch.setattr(numexpr_backend, "_trial_chars", 0, raising=False)
    monkeypatch.setattr(numexpr_backend, "numexpr", _Stub)
    node: Any = SimpleNamespace(dtype=F64, weak=False, attrs={})
    names: list[tuple[str, int, np.dtype[Any] | None]] = [("i0", 0, None)]

    def trial(expr: str) -> bool:
        kernel = numexpr_backend.NumexprKernel(expr, names)
        return numexpr_backend._trial(kernel, [node], F64)

    for k in range(6000):
        assert trial(f"i0 + {k}")
    assert 0 < len(numexpr_backend._trial_cache) < 6000
    assert len(numexpr_backend._trial_cache) <= numexpr_backend._TRIAL_MAX
    long = " + ".join(["i0"] * 2000)           # 10,000 characters a text
    for k in range(400):
        assert trial(f"{long} + {k}")
    chars = sum(len(e) + sum(map(len, sig)) for e, sig in numexpr_backend._trial_cache)
    assert chars < 400 * 10_000
    assert chars <= numexpr_backend._TRIAL_CHARS_MAX


def test_dtype_probes_are_bounded_by_entries() -> None:
    # Attrs are part of a probe's key: an entry per distinct ``decimals``,
    # per distinct matrix power (100,000 of them took 42 MB).
    a = lt.asarray(np.arange(10.0))
    for k in range(10_000):
        lt.round(a, k)
    assert 0 < len(ops._probe_cache) < 10_000
    assert len(ops._probe_cache) <= ops._PROBE_MAX
    m = lt.asarray(np.eye(2))
    for k in range(2000):
        la.matrix_power(m, k)
    assert 0 < len(la._probe_cache) < 2000
    assert len(la._probe_cache) <= la._PROBE_MAX
    # and they still answer
    np.testing.assert_array_equal(lt.round(a / 3, 2).eval(), np.round(np.arange(10.0) / 3, 2))


def _child_status(held: bool) -> int:
    """In a forked child just out of its own pause (``held``: collection was
    off in it): 0 if collection is back on and a pause still pauses it."""
    if not held:
        return 2
    if not gc.isenabled():
        return 3                           # off for good
    with gc_paused():
        if gc.isenabled():
            return 4
    return 0 if gc.isenabled() else 5


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_fork_during_another_threads_gc_pause_leaves_gc_on_in_the_child() -> None:
    # The other thread's pause never ends in the child (the thread is not
    # there): the child's collection was off for good.  The forking thread is
    # in a pause of its own, which does end in the child.
    if not gc.isenabled():
        pytest.skip("automatic collection is off in this process")
    inside, release = threading.Event(), threading.Event()

    def planner() -> None:                 # another thread, planning a big graph
        with gc_paused():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=planner)
    thread.start()
    try:
        assert inside.wait(10)
        with warnings.catch_warnings():
            # (Python 3.12+: forking a process with threads warns)
            warnings.simplefilter("ignore", DeprecationWarning)
            with gc_paused():
                pid = os.fork()
                held = not gc.isenabled()
            if pid == 0:                   # the child: report by the exit status
                try:
                    os._exit(_child_status(held))
                finally:
                    os._exit(9)
        deadline = time.monotonic() + 10
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:        # (a child hung on the lock)
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                pytest.fail("the child hung in a gc pause")
            time.sleep(0.01)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        release.set()
        thread.join()
    assert gc.isenabled()
