"""``lt.set_options``: as a call and as a context manager, restored on exit
(also on errors), validated, and private to each thread."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import lazyten as lt


def test_context_manager_restores() -> None:
    before = lt.get_options()
    with lt.set_options(optimize=False, backend="numpy") as opts:
        assert opts.optimize is False and opts.backend == "numpy"
        assert lt.get_options() == opts
        with lt.set_options(backend="numexpr"):
            assert lt.get_options().backend == "numexpr"
            assert lt.get_options().optimize is False   # inherited
        assert lt.get_options().backend == "numpy"
    assert lt.get_options() == before


def test_restored_when_the_block_raises() -> None:
    before = lt.get_options()
    with pytest.raises(RuntimeError):
        with lt.set_options(optimize=not before.optimize):
            raise RuntimeError("boom")
    assert lt.get_options() == before


def test_plain_call_sets_options_for_this_context() -> None:
    before = lt.get_options()
    token = lt.set_options(backend="numpy")
    try:
        assert lt.get_options().backend == "numpy"
    finally:
        token.__exit__(None, None, None)
    assert lt.get_options() == before


def test_validation() -> None:
    with pytest.raises(TypeError):
        lt.set_options(no_such_option=1)
    with pytest.raises(ValueError):
        lt.set_options(backend="cuda")
    with pytest.raises(TypeError):
        lt.set_options(optimize="yes")


def test_threads_do_not_see_each_others_options() -> None:
    seen: dict[str, object] = {}
    inside = threading.Event()
    release = threading.Event()

    def worker() -> None:
        with lt.set_options(backend="numexpr", optimize=False):
            inside.set()
            release.wait(5)
            seen["worker"] = lt.get_options().backend
            x = lt.asarray(np.arange(4.0))
            seen["value"] = (x * 2).eval().tolist()

    th = threading.Thread(target=worker)
    with lt.set_options(backend="numpy"):
        th.start()
        inside.wait(5)
        assert lt.get_options().backend == "numpy"   # not the worker's
        release.set()
        th.join(5)
        assert lt.get_options().backend == "numpy"
    assert seen == {"worker": "numexpr", "value": [0.0, 2.0, 4.0, 6.0]}


@pytest.mark.parametrize("opts", [dict(optimize=False, backend="numpy"),
                                  dict(optimize=True, backend="auto"),
                                  dict(optimize=True, backend="numpy"),
                                  dict(optimize=True, backend="numexpr")])
def test_every_option_combination_gives_numpys_result(opts: dict[str, object]) -> None:
    a = np.linspace(-1, 1, 12).reshape(3, 4)
    with lt.set_options(**opts):
        t = lt.asarray(a)
        got = ((t * 2 + 1) ** 2 - lt.sin(t)).sum(axis=1).eval()
    np.testing.assert_allclose(got, ((a * 2 + 1) ** 2 - np.sin(a)).sum(axis=1), rtol=1e-12)
