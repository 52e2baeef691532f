"""``lt.set_options``: as a call and as a context manager, restored on exit
(also on errors), validated, and private to each thread."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

import lazyten as lt
from lazyten.exec import optimized
from tests.util import plans_counted


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
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="tiny_elements"):
            lt.set_options(tiny_elements=bad)


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


def test_a_graph_of_small_arrays_not_in_the_plan_cache_runs_as_numpy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the default backend a graph none of whose operations computes
    more than ``tiny_elements`` elements, whose plan is not cached, runs node by node
    (optimizing it costs more than it saves); a cached plan runs as it is,
    and a larger node, ``tiny_elements=0``, ``check=True``, an explicit
    backend or a ``memory_limit`` optimize.  The values are NumPy's."""
    planned = plans_counted(monkeypatch)
    rng = np.random.default_rng(3)

    def run(n: int, **opts: Any) -> tuple[int, bool]:
        a = rng.standard_normal(n)
        planned.clear()
        with lt.set_options(**opts):
            t = lt.asarray(a)
            for _ in range(3000):                 # (too large for the plan cache)
                t = t * 0.5 + 1.0
            got = lt.compute(t)[0]
        want = a
        for _ in range(3000):
            want = want * 0.5 + 1.0
        return len(planned), bool(np.array_equal(got, want))
    assert run(4096) == (0, True)
    assert run(4097) == (1, True)
    assert run(100, tiny_elements=100) == (0, True)
    assert run(100, tiny_elements=99) == (1, True)
    for opts in ({"tiny_elements": 0}, {"check": True}, {"backend": "numpy"},
                 {"memory_limit": 1 << 30}):
        assert run(100, **opts) == (1, True), opts
    # A small structure seen for the first time runs as NumPy; its second
    # evaluation caches its plan, which later ones run.
    planned.clear()
    for k in range(4):
        a = np.arange(7.0) + k
        np.testing.assert_array_equal(lt.compute(lt.asarray(a) * 2.75 - 1.25)[0], a * 2.75 - 1.25)
    assert planned == [1]
    # The leaves and views may be of any size: what counts is what the
    # operations compute (a few elements of large arrays, read in a loop).
    big = np.arange(100_000.0)
    planned.clear()
    for i in range(50):
        k = 661 * i
        assert float(lt.asarray(big)[k] * lt.asarray(big)[::-3][k] + 1.0) == \
            big[k] * big[::-3][k] + 1.0
    assert planned == [1]                        # (the structure's plan, cached when seen twice)
    planned.clear()
    assert float((lt.asarray(big) * 2.0)[7]) == 14.0   # (a large operation: planned)
    assert planned == [1]
    # lt.explain says so.
    small, large = lt.asarray(np.ones(10)) * 2.0, lt.asarray(np.ones(5000)) * 2.0
    assert "-- tiny: no operation computes over 4096 elements" in lt.explain(small)
    assert "-- tiny" not in lt.explain(large)
    with lt.set_options(tiny_elements=0):
        assert "-- tiny" not in lt.explain(small)


def test_a_read_of_views_of_values_runs_without_a_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """``int(a[i])`` for each ``i`` (a slice bound read from an index array,
    npbench's spmv): views of a value have nothing to plan, and each index
    was a structure of its own, planned when seen twice (80-100 us a read)
    and filling the plan cache.  They run as NumPy's views, whatever the
    size; a view of a pending result is planned as before, and ``check=True``
    plans all."""
    planned = plans_counted(monkeypatch)
    n = np.arange(100_000, dtype=np.uint32) * 3
    a = lt.asarray(n)
    cached = len(optimized._plans)
    for _ in range(2):
        for i in range(0, 100_000, 997):
            assert int(a[i]) == int(n[i])
            np.testing.assert_array_equal(a[i:i + 5][::-1].eval(), n[i:i + 5][::-1])
    big = a[::-2].reshape(-1, 2).T
    np.testing.assert_array_equal(big.eval(), n[::-2].reshape(-1, 2).T)
    assert planned == []
    b = a * 2
    b.eval()                                      # (a value now: planned)
    planned.clear()
    for i in range(3):
        assert int(b[i + 7]) == int(n[i + 7] * 2)
    assert planned == [] and len(optimized._plans) == cached
    assert "-- views: the read is views of values" in lt.explain(a[3])
    assert "-- views" not in lt.explain((a + 1)[3])
    for i in range(3):
        assert int((a + 1)[i]) == int(n[i] + 1)   # (a pending base: planned)
    assert planned
    planned.clear()
    with lt.set_options(check=True):
        assert int(a[11]) == int(n[11])
        assert planned == [1]
        assert "-- views" not in lt.explain(a[3])


def _views_result(v: Any) -> Any:
    return v * 2.0 + 1.0                          # (one line: one structure for every view)


def test_views_of_values_are_leaves_of_one_cached_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view of a value is a leaf of the graphs built over it (summary and
    walk alike): ``a[i] > 0.5`` for every ``i`` is one structure, planned
    once, where each ``i`` was planned on its own when seen twice (100-170
    us) and 300 of them overflowed the plan cache, planned again on every
    second pass.  Views of every layout (rows, columns, transposed and
    reversed blocks, a computed value's) share a plan and give NumPy's
    values and layout."""
    planned = plans_counted(monkeypatch)
    n = np.random.default_rng(5).random(300)
    a = lt.asarray(n)
    for _ in range(3):
        got = [bool(a[i] > 0.5) for i in range(300)]
        assert got == [bool(n[i] > 0.5) for i in range(300)]
    assert len(planned) <= 1
    m = np.random.default_rng(6).random((6, 6))
    b = lt.asarray(m)
    c = b * 3.0
    c.eval()                                      # (a computed value)
    planned.clear()
    views = [(lambda x: x[1], 1), (lambda x: x[:, 2], 1), (lambda x: x[::-1, 3], 1),
             (lambda x: x[1:4, 2:5], 2), (lambda x: x.T[1:4, 2:5], 2),
             (lambda x: x[::-1, ::2][:3], 2), (lambda x: x.T[::-1][2:5, 1:4], 2)]
    for _ in range(2):
        for view, _nd in views:
            for t, x in ((b, m), (c, m * 3.0)):
                want = _views_result(view(x))
                out = lt.compute(_views_result(view(t)))[0]
                np.testing.assert_array_equal(out, want)
                assert out.dtype == want.dtype
                got = _views_result(view(t)).eval()
                assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
                    (want.flags.c_contiguous, want.flags.f_contiguous)
    # (one structure per shape: [6] and [3, 3], planned once each when seen twice)
    assert len(planned) <= 4
