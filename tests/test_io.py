"""``lt.save``/``lt.load`` (.npy, .npz, never pickles) and CSV round trips."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from util import assert_eq

import lazyten as lt

DTYPES = [np.float64, np.float32, np.float16, np.int8, np.int32, np.int64, np.uint16,
          np.bool_, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (2, 0, 3)])
def test_npy_round_trip(tmp_path: Path, rng: np.random.Generator, dtype: Any,
                        shape: tuple[int, ...]) -> None:
    a = (rng.standard_normal(shape) * 50).astype(dtype)
    t = lt.asarray(a) + 0 if dtype != np.bool_ else lt.asarray(a) | False  # a lazy result
    path = tmp_path / "x.npy"
    lt.save(path, t)
    np.testing.assert_array_equal(np.load(path), a)   # NumPy reads what lazyten wrote
    back = lt.load(path)
    assert isinstance(back, lt.Tensor)
    assert_eq(back, a)


def test_npy_views_and_numpy_files(tmp_path: Path) -> None:
    a = np.arange(12.0).reshape(3, 4)
    lt.save(tmp_path / "v.npy", lt.asarray(a)[::2, 1:].T)      # a non-contiguous view
    assert_eq(lt.load(tmp_path / "v.npy"), a[::2, 1:].T)
    np.save(tmp_path / "n.npy", a)                             # a file NumPy wrote
    assert_eq(lt.load(tmp_path / "n.npy") * 2, a * 2)
    lt.save(str(tmp_path / "noext"), lt.ones(2))               # NumPy adds .npy
    assert_eq(lt.load(tmp_path / "noext.npy"), np.ones(2))


def test_npz(tmp_path: Path) -> None:
    a, b = np.arange(3), np.eye(2)
    x = lt.asarray(a)
    lt.savez(tmp_path / "p.npz", x * 2, b, extra=x + 1)
    got = lt.load(tmp_path / "p.npz")
    assert isinstance(got, dict) and sorted(got) == ["arr_0", "arr_1", "extra"]
    assert_eq(got["arr_0"], a * 2)
    assert_eq(got["arr_1"], b)
    assert_eq(got["extra"], a + 1)
    lt.savez_compressed(tmp_path / "c.npz", y=lt.ones((50, 50)))
    assert_eq(lt.load(tmp_path / "c.npz")["y"], np.ones((50, 50)))


def test_pickles_are_refused(tmp_path: Path) -> None:
    obj = np.array([{"a": 1}, None], dtype=object)
    np.save(tmp_path / "o.npy", obj, allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle"):
        lt.load(tmp_path / "o.npy")
    np.savez(tmp_path / "o.npz", o=obj)
    with pytest.raises(ValueError, match="allow_pickle"):
        lt.load(tmp_path / "o.npz")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.bool_])
@pytest.mark.parametrize("shape", [(4,), (3, 2), (1, 3)])
def test_csv_round_trip(tmp_path: Path, rng: np.random.Generator, dtype: Any,
                        shape: tuple[int, ...]) -> None:
    a = (rng.standard_normal(shape) * 1e3).astype(dtype)
    path = tmp_path / "x.csv"
    lt.save_csv(path, lt.asarray(a))
    ndmin = 2 if len(shape) == 2 else 0
    back = lt.load_csv(path, dtype=dtype, ndmin=ndmin)
    assert_eq(back, a)                                         # exact, float64 included
    assert_eq(back, np.loadtxt(path, dtype=dtype, delimiter=",", ndmin=ndmin))


def test_csv_options_and_errors(tmp_path: Path) -> None:
    a = np.array([[1.5, -2.0], [3.25, 4.0]])
    lt.save_csv(tmp_path / "t.tsv", lt.asarray(a), delimiter="\t")
    assert "\t" in (tmp_path / "t.tsv").read_text()
    assert_eq(lt.load_csv(tmp_path / "t.tsv", delimiter="\t"), a)
    (tmp_path / "h.csv").write_text("1,2,3\n4,5,6\n")
    assert_eq(lt.load_csv(tmp_path / "h.csv", dtype=np.int32),
              np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    with pytest.raises(ValueError, match="1-d or 2-d"):
        lt.save_csv(tmp_path / "bad.csv", lt.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="1-d or 2-d"):
        lt.save_csv(tmp_path / "bad.csv", lt.asarray(1.0))
    with pytest.raises(TypeError, match="complex"):
        lt.save_csv(tmp_path / "bad.csv", lt.asarray([1j]))


def test_savetxt_and_loadtxt_are_numpys(tmp_path: Any) -> None:
    a = np.arange(6.0).reshape(2, 3) / 7
    for kw in ({}, {"delimiter": ",", "fmt": "%.3f", "header": "x y z"}):
        lt.savetxt(tmp_path / "t.txt", lt.asarray(a) * 1, **kw)
        np.savetxt(tmp_path / "n.txt", a, **kw)
        assert (tmp_path / "t.txt").read_text() == (tmp_path / "n.txt").read_text()
        load_kw = {"delimiter": kw.get("delimiter")}
        got = lt.loadtxt(tmp_path / "t.txt", **load_kw)
        np.testing.assert_array_equal(got.eval(), np.loadtxt(tmp_path / "n.txt", **load_kw))
    np.testing.assert_array_equal(lt.loadtxt(tmp_path / "n.txt", delimiter=",", unpack=True).eval(),
                                  np.loadtxt(tmp_path / "n.txt", delimiter=",", unpack=True))
