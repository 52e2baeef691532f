"""``lt.save``/``lt.load`` (.npy, .npz, never pickles) and CSV round trips."""

from __future__ import annotations

import io
import math
import pickle
import warnings
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
    # A user's array (or a view of one) is written as NumPy writes it: a
    # broadcast in C order (its K-order copy, F here, wrote fortran_order).
    b = np.broadcast_to(np.arange(6.0), (3, 6))
    F = np.asfortranarray(a)
    for arr in (b, b[:, ::2], F, F[1:]):
        np.save(tmp_path / "want.npy", arr)
        lt.save(tmp_path / "got.npy", lt.asarray(arr))
        lt.savez(tmp_path / "got.npz", x=lt.asarray(arr))
        np.savez(tmp_path / "want.npz", x=arr)
        assert (tmp_path / "got.npy").read_bytes() == (tmp_path / "want.npy").read_bytes()
        assert np.load(tmp_path / "got.npz")["x"].flags.f_contiguous == \
            np.load(tmp_path / "want.npz")["x"].flags.f_contiguous


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


@pytest.mark.parametrize("shape", [(1,), (0,), (5,), (1, 1), (1, 3), (3, 1), (2, 0), (0, 3)])
def test_csv_shapes_are_loadtxts(tmp_path: Path, shape: tuple[int, ...]) -> None:
    """load_csv squeezes as np.loadtxt does (one row or column: 1-d, one value:
    0-d); ``ndmin=ndim`` reads back what save_csv wrote, except a 2-d tensor
    with no elements, whose text holds no values (np.loadtxt: (0, 1))."""
    a = np.arange(math.prod(shape), dtype=np.float64).reshape(shape)
    path = tmp_path / "s.csv"
    lt.save_csv(path, lt.asarray(a))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)             # loadtxt: "no data"
        for ndmin in (0, 1, 2):
            assert_eq(lt.load_csv(path, ndmin=ndmin), np.loadtxt(path, delimiter=",",
                                                                  ndmin=ndmin))
        back = lt.load_csv(path, ndmin=a.ndim)
    assert_eq(back, a if a.size or a.ndim == 1 else np.zeros((0, 1)))


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
    # A structured dtype unpacked: NumPy's list of fields, each its dtype (was
    # one float64 tensor of them all: the int 2**53 + 1 rounded).
    (tmp_path / "s.txt").write_text("9007199254740993,2.5\n3,4.5\n")
    fields = [("a", "i8"), ("b", "f8")]
    got_f = lt.loadtxt(tmp_path / "s.txt", delimiter=",", dtype=fields, unpack=True)
    want_f = np.loadtxt(tmp_path / "s.txt", delimiter=",", dtype=fields, unpack=True)
    assert type(got_f) is type(want_f) is list and len(got_f) == 2
    for g, w in zip(got_f, want_f):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g.eval(), w)
    np.testing.assert_array_equal(lt.loadtxt(tmp_path / "n.txt", delimiter=",", unpack=True).eval(),
                                  np.loadtxt(tmp_path / "n.txt", delimiter=",", unpack=True))


# ---------------------------------------------------------------- file objects, mmap_mode


def test_file_objects_round_trip(tmp_path: Path) -> None:
    """Paths, pathlib paths and binary file objects, as np.save/np.load take them;
    arrays saved one after another into one file object read back in turn."""
    a, b = np.arange(6.0).reshape(2, 3), np.array([True, False])
    buf = io.BytesIO()
    lt.save(buf, lt.asarray(a) * 1)
    lt.save(buf, b)
    buf.seek(0)
    ref = [np.load(buf), np.load(buf)]
    buf.seek(0)
    for want in ref:
        got = lt.load(buf)
        assert isinstance(got, lt.Tensor)
        assert_eq(got, want)
    assert not buf.closed
    assert_eq(lt.load(io.BytesIO(buf.getvalue())), a)            # np.load(io.BytesIO(buf))
    with open(tmp_path / "f.npy", "wb") as f:                    # a real file handle
        lt.save(f, lt.asarray(a))
    with open(tmp_path / "f.npy", "rb") as f:
        assert_eq(lt.load(f), np.load(tmp_path / "f.npy"))
        assert not f.closed
    assert_eq(lt.load(str(tmp_path / "f.npy")), a)


@pytest.mark.parametrize("save", [lt.savez, lt.savez_compressed])
def test_npz_file_objects(save: Any) -> None:
    a = np.arange(3)
    buf = io.BytesIO()
    save(buf, lt.asarray(a) * 2, y=lt.ones(2))
    buf.seek(0)
    want = np.load(io.BytesIO(buf.getvalue()))
    got = lt.load(buf)
    assert isinstance(got, dict) and list(got) == want.files
    for k in want.files:
        assert_eq(got[k], want[k])
    assert not buf.closed                                        # the caller's file stays open


@pytest.mark.parametrize("mode", ["r", "c"])
def test_mmap_mode_reads_the_mapped_file(tmp_path: Path, mode: Any) -> None:
    """The mapped array is the tensor's graph input (not read in), never written."""
    a = np.arange(12.0).reshape(3, 4)
    path = tmp_path / "m.npy"
    np.save(path, np.asfortranarray(a))
    t = lt.load(path, mmap_mode=mode)
    assert isinstance(t, lt.Tensor)
    want = np.load(path, mmap_mode=mode)
    assert isinstance(t.node.value.base, np.memmap)              # a view of the map, no copy
    assert_eq(t.T @ t, want.T @ want)
    t[0] = -1.0                                                  # a new version of t ...
    assert_eq(t, np.concatenate([np.full((1, 4), -1.0), a[1:]]))
    np.testing.assert_array_equal(np.load(path), a)              # ... never the file
    np.save(tmp_path / "e.npy", np.zeros((0, 3)))                # an empty array maps too
    assert_eq(lt.load(tmp_path / "e.npy", mmap_mode=mode), np.zeros((0, 3)))
    with pytest.raises((TypeError, ValueError)):                 # as np.load: no mapping a
        lt.load(io.BytesIO(path.read_bytes()), mmap_mode=mode)   # file object
    np.savez(tmp_path / "z.npz", x=a)                            # .npz ignores it, as NumPy's
    assert_eq(lt.load(tmp_path / "z.npz", mmap_mode=mode)["x"], a)


@pytest.mark.parametrize("mode", ["r+", "w+"])
def test_mmap_write_modes_are_refused(tmp_path: Path, mode: Any) -> None:
    """Writes to a lazyten tensor never reach its input, so a map for writing
    would lose them silently (and NumPy's 'w+' truncates the file): refused
    before the file is touched."""
    path = tmp_path / "m.npy"
    np.save(path, np.arange(3.0))
    with pytest.raises(ValueError, match="never writes"):
        lt.load(path, mmap_mode=mode)
    np.testing.assert_array_equal(np.load(path), np.arange(3.0))


def test_allow_pickle_as_numpy(tmp_path: Path) -> None:
    arr = np.arange(3.0)
    with open(tmp_path / "a.pkl", "wb") as f:                    # a pickled numeric array
        pickle.dump(arr, f)
    for path in (tmp_path / "a.pkl", io.BytesIO((tmp_path / "a.pkl").read_bytes())):
        with pytest.raises(ValueError, match="allow_pickle"):
            np.load(path)
        if isinstance(path, io.BytesIO):
            path.seek(0)
        with pytest.raises(ValueError, match="allow_pickle"):
            lt.load(path)
        if isinstance(path, io.BytesIO):
            path.seek(0)
        assert_eq(lt.load(path, allow_pickle=True), arr)
    with open(tmp_path / "d.pkl", "wb") as f:
        pickle.dump({"a": 1}, f)
    with pytest.raises(TypeError, match="pickled dict"):
        lt.load(tmp_path / "d.pkl", allow_pickle=True)
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(TypeError, match="dtype object"):          # no object dtype in lazyten
        lt.load(tmp_path / "o.npy", allow_pickle=True)
