"""``lt.profile`` / ``lt.compute(..., profile=True)``: results plus a per-step table."""

from __future__ import annotations

import re

import numpy as np
import pytest

import lazyten as lt
from lazyten.profile import Profile, ProfileRow


def workload() -> tuple[lt.Tensor, lt.Tensor, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    a_np = rng.standard_normal((300, 200))
    b_np = rng.standard_normal(200)
    a, b = lt.asarray(a_np), lt.asarray(b_np)
    y = lt.sin(a * 2 + b)
    z = (y @ y.T).sum(axis=0) + y.sum()
    y_np = np.sin(a_np * 2 + b_np)
    return y, z, y_np, (y_np @ y_np.T).sum(axis=0) + y_np.sum()


@pytest.mark.parametrize("backend", ["numpy", "numexpr", "auto"])
def test_profile_returns_the_results_and_one_row_per_executed_step(backend: str) -> None:
    y, z, y_np, z_np = workload()
    with lt.set_options(backend=backend):
        (ry, rz), prof = lt.profile(y, z)
        plan = lt.plan(y, z)
    np.testing.assert_allclose(ry, y_np)
    np.testing.assert_allclose(rz, z_np)
    assert isinstance(prof, Profile)
    executed = [s for s in plan.steps if s.kind != "source"]
    # Rows follow the plan: the same step numbers and kinds lt.explain shows.
    assert [(r.step, r.kind) for r in prof.rows] == [(s.index, s.kind) for s in executed]
    assert all(isinstance(r, ProfileRow) and r.seconds >= 0 for r in prof.rows)
    assert sum(r.share for r in prof.rows) == pytest.approx(1.0)
    assert prof.step_seconds <= prof.run_seconds
    assert y.node.value is None        # like compute: nothing cached


def test_bytes_and_bandwidth() -> None:
    y, z, _, _ = workload()
    with lt.set_options(backend="numpy"):
        _, prof = lt.profile(y, z)
    kernel = [r for r in prof.rows if r.kind == "kernel"][0]
    assert kernel.type == "float64[300,200]"
    assert kernel.bytes_written == 300 * 200 * 8
    # reads a (480 KB), b (1.6 KB) and the constant 2 (a Python int: 8 bytes)
    assert kernel.bytes_read == 300 * 200 * 8 + 200 * 8 + 8
    if kernel.seconds > 0:
        assert kernel.gbps == pytest.approx((kernel.bytes_read + kernel.bytes_written)
                                            / kernel.seconds / 1e9)
    view = [r for r in prof.rows if r.kind == "view"][0]
    assert view.bytes_read == view.bytes_written == 0 and view.gbps == 0.0
    blas = [r for r in prof.rows if r.kind == "blas"][0]
    assert blas.bytes_written == 300 * 300 * 8
    assert prof.bytes_moved == sum(r.bytes_read + r.bytes_written for r in prof.rows)


def test_printed_table() -> None:
    y, z, _, _ = workload()
    with lt.set_options(backend="numexpr"):
        _, prof = lt.profile(y, z)
    text = str(prof)
    lines = text.splitlines()
    assert lines[0].split() == ["step", "kind", "what", "output", "time", "read", "written",
                                "GB/s", "share", "line"]
    assert len(lines) == len(prof.rows) + 2
    # sin is NumPy's own loop even under backend="numexpr" (numexpr's is not
    # bit for bit NumPy's): the row says which backend ran the kernel
    assert re.search(r"kernel\[blocked\]\s+\{ sin\(\(\(i0 \* i1\) \+ i2\)\) \}", lines[1])
    for row, line in zip(prof.rows, lines[1:-1]):
        assert line.lstrip().startswith(str(row.step))
        assert row.source in line and row.type in line
        assert re.search(r"\d+\.\d+ (s|ms|us)", line)
        assert re.search(r"\d+\.\d%", line)
    assert re.fullmatch(r"-- \d+ steps? ran in .+ \(run .+, plan .+\); .+ moved, \d+\.\d+ GB/s",
                        lines[-1])
    assert repr(prof).startswith("<lazyten.Profile: ")
    assert [r.step for r in prof.top(2)] == [r.step for r in sorted(
        prof.rows, key=lambda r: -r.seconds)[:2]]
    d = prof.to_dicts()[0]
    assert set(d) >= {"step", "kind", "seconds", "bytes_read", "bytes_written", "gbps", "share"}


def test_compute_profile_true() -> None:
    y, z, y_np, z_np = workload()
    results, prof = lt.compute(y, z, profile=True)
    np.testing.assert_allclose(results[0], y_np)
    np.testing.assert_allclose(results[1], z_np)
    assert isinstance(prof, Profile) and prof.rows
    assert isinstance(lt.compute(y), tuple)         # profile=False unchanged


def test_unoptimized_profile_has_a_step_per_node() -> None:
    y, z, y_np, z_np = workload()
    with lt.set_options(optimize=False):
        (ry, rz), prof = lt.profile(y, z)
    np.testing.assert_allclose(ry, y_np)
    np.testing.assert_allclose(rz, z_np)
    assert [r.what.split()[0] for r in prof.rows] == [
        "multiply", "add", "sin", "transpose", "matmul", "sum", "sum", "add"]
    assert "kernel" not in {r.kind for r in prof.rows}


def test_results_never_alias_user_or_cached_arrays() -> None:
    x_np = np.arange(5.0)
    x = lt.asarray(x_np)
    y = x * 2
    y.eval()                                   # y is cached now
    (rx, ry, ry2), _ = lt.profile(x, y, y)
    assert not np.shares_memory(rx, x_np)
    rx[0] = 99.0
    ry[0] = 99.0
    assert x_np[0] == 0.0 and y.eval()[0] == 0.0 and ry2[0] == 0.0
    # A view the optimizer removes (a reshape to the same shape, .T.T): the
    # plan's output is the user's array itself, handed out as a copy.
    a = np.random.default_rng(7).standard_normal((20, 30))     # owns its memory
    t = lt.asarray(a)
    for v in (t.reshape(20, 30), t.T.T):
        y = lt.asarray(np.ones((5000, 30)))
        for r in (lt.compute(v)[0], lt.compute(v, v * 1.0)[0], lt.profile(v)[0][0],
                  lt.compute_chunked(y.sum(axis=0), v, memory_limit=400_000)[1]):
            assert not np.shares_memory(r, a)
    # An op whose NumPy result is its argument itself (matrix_power(a, 1),
    # real of a real a): the reference executor handed out a (helper 84).
    s = np.ones((3, 3))
    for optimize in (False, True):
        with lt.set_options(optimize=optimize, backend="numpy"):
            for f in (lambda u: lt.matrix_power(u, 1), lt.real):
                r = lt.compute(f(lt.asarray(s)))[0]
                r[...] = -1.0
                np.testing.assert_array_equal(s, np.ones((3, 3)))


def test_profile_shows_in_jupyter_as_the_same_table() -> None:
    x = lt.asarray(np.ones(10))
    _, prof = lt.profile(lt.exp(x) < 2)
    html = prof._repr_html_()
    assert html.startswith("<pre>") and "&lt;" in html and "step" in html
