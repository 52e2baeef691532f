"""``lt.fft`` against ``numpy.fft``: values to the bit, shapes and dtypes
inferred at build time, NumPy's exception types raised when the node is
built, and the optimizer leaving the transforms whole.

Every transform runs NumPy's own function on the evaluated input, so the
comparison is ``same_bits`` (not a tolerance) on every engine.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lazyten as lt
from lazyten import fft as ltfft
from tests.util import public_type, same_bits

# The engine fixture only sets options, so it is safe to share between examples.
fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture],
                      max_examples=40, deadline=None)

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "rfft2", "irfft2"]
DTYPES = [np.bool_, np.int32, np.float16, np.float32, np.float64, np.complex64,
          np.complex128]


def _data(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(-50, 50, shape).astype(dt)
    v = rng.standard_normal(shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


def _layouts(dtype: Any) -> dict[str, tuple[np.ndarray[Any, Any], Callable[[], Any]]]:
    """name -> (NumPy operand, a builder of the same operand as a tensor)."""
    base = _data((6, 10, 8), dtype)
    small = _data((10, 8), dtype, 1)
    return {
        "contiguous": (base, lambda: lt.asarray(base)),
        "strided": (base[::2, 1::2, ::-1], lambda: lt.asarray(base[::2, 1::2, ::-1])),
        "transposed": (base.transpose(2, 0, 1), lambda: lt.asarray(base).transpose(2, 0, 1)),
        "broadcast": (np.broadcast_to(small, (3, 10, 8)),
                      lambda: lt.broadcast_to(lt.asarray(small), (3, 10, 8))),
        # a lazy operand: a view of an expression of every dtype's
        "lazy": (np.maximum(base, base[::-1])[:, ::3],
                 lambda: lt.maximum(lt.asarray(base), lt.asarray(base)[::-1])[:, ::3]),
    }


# NumPy's inverse real transforms of an empty axis padded to n points read
# memory they never wrote (``np.fft.irfft(np.ones(0), n=3)`` is a few
# denormal numbers that change from run to run): only shape and dtype are
# NumPy's contract there.
C2R = {"irfft", "hfft", "irfftn", "irfft2"}


def _both(np_fn: Callable[[], Any], lt_fn: Callable[[], Any], values: bool = True) -> None:
    """``lt_fn()`` gives ``np_fn()`` to the bit (shape and dtype inferred
    when built), or, where NumPy raises, building raises the same type."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            expected = np_fn()
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        with pytest.raises(public_type(e)), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            lt_fn()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        got = lt_fn()
    expected = np.asarray(expected)
    assert (got.shape, got.dtype) == (expected.shape, expected.dtype)
    value = got.eval()
    assert (value.shape, value.dtype) == (expected.shape, expected.dtype)
    if values:
        same_bits(value, expected)


# ------------------------------------------------------------------ the transforms

CASES: list[tuple[str, dict[str, Any]]] = [
    ("fft", {}), ("fft", {"n": 5, "axis": 0}), ("fft", {"n": 12, "norm": "ortho"}),
    ("ifft", {"axis": -2, "norm": "forward"}), ("ifft", {"n": 3}),
    ("rfft", {}), ("rfft", {"n": 7, "axis": 1, "norm": "forward"}),
    ("irfft", {}), ("irfft", {"n": 9, "axis": 0, "norm": "ortho"}),
    ("hfft", {}), ("hfft", {"n": 5, "norm": "ortho"}),
    ("ihfft", {}), ("ihfft", {"n": 6, "axis": 0, "norm": "forward"}),
    ("fftn", {}), ("fftn", {"s": (3, 9), "axes": (0, -1)}), ("fftn", {"axes": (1, 1)}),
    ("ifftn", {"axes": (2, 0), "norm": "ortho"}),
    ("fft2", {}), ("fft2", {"s": (4, 4)}), ("ifft2", {"axes": (0, 1), "norm": "forward"}),
    ("rfftn", {}), ("rfftn", {"s": (5, 6), "axes": (0, 2)}),
    ("irfftn", {}), ("irfftn", {"s": (4, -1), "axes": (1, 2)}), ("irfftn", {"axes": (2, 2)}),
    ("rfft2", {"norm": "ortho"}), ("irfft2", {"s": (5, 7)}),
]


@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed", "broadcast", "lazy"])
@pytest.mark.parametrize("name,kw", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_transform_matches_numpy(engine: Any, name: str, kw: dict[str, Any],
                                 layout: str) -> None:
    for dtype in DTYPES:
        a, build = _layouts(dtype)[layout]
        before = a.copy()
        _both(lambda: getattr(np.fft, name)(a, **kw),
              lambda: getattr(ltfft, name)(build(), **kw))
        np.testing.assert_array_equal(a, before)     # the user's array is never written


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_zero_d_and_empty(engine: Any, name: str) -> None:
    fn_np, fn_lt = getattr(np.fft, name), getattr(ltfft, name)
    one_d = name in ONE_D
    for shape, kw in [((), {}), ((), {"n": 2} if one_d else {"axes": ()}),
                      ((0, 4), {}), ((3, 0), {}), ((3, 0), {"n": 4} if one_d else
                                                   {"s": (2, 4), "axes": (0, 1)}),
                      ((4, 1), {}), ((0,), {"n": 3} if one_d else {"s": (3,), "axes": (0,)})]:
        a = np.ones(shape)
        _both(lambda: fn_np(a, **kw), lambda: fn_lt(lt.asarray(a), **kw),
              values=not (a.size == 0 and name in C2R))


def test_no_axes_is_the_input(engine: Any) -> None:
    """NumPy's c2c n-D transforms over no axes return their input itself."""
    a = np.arange(6.0).reshape(2, 3)
    t = lt.asarray(a)
    assert ltfft.fftn(t, axes=()) is t and np.fft.fftn(a, axes=()) is a
    z = lt.asarray(np.float32(2))
    assert ltfft.ifftn(z) is z


# ------------------------------------------------------------------ errors at build time

ERRORS: list[tuple[str, Any, dict[str, Any]]] = [
    ("fft", (), {}), ("fft", (), {"n": 2}), ("rfftn", (3, 4), {"axes": ()}),
    ("irfftn", (3, 4), {"axes": ()}), ("rfftn", (), {}), ("fft", (3, 4), {"axis": 5}),
    ("fft", (3, 4), {"n": 3, "axis": 5}), ("fft", (3, 4), {"axis": -3}),
    ("fft", (3, 4), {"n": 0}), ("fft", (3, 4), {"n": -1}), ("fft", (3, 4), {"n": 4.0}),
    ("fft", (3, 4), {"n": 0.5}), ("fft", (3, 4), {"n": True}), ("fft", (3, 4), {"n": "3"}),
    ("fft", (3, 0), {}), ("irfft", (1,), {}), ("hfft", (1,), {}),
    ("fft", (3, 4), {"norm": "bad"}), ("ifft", (3, 4), {"norm": "bad"}),
    ("hfft", (3, 4), {"norm": "bad"}), ("ihfft", (3, 4), {"norm": "bad"}),
    ("fftn", (3, 4), {"s": (3,), "axes": (0, 1)}), ("fftn", (3, 4), {"s": (-2, 5), "axes": (0, 1)}),
    ("fft2", (4,), {}), ("fftn", (3, 4), {"axes": 1}), ("fftn", (3, 4), {"s": 3, "axes": (1,)}),
    ("fftn", (3, 4), {"axes": (5,)}), ("fftn", (3, 4), {"s": (2,), "axes": (5,)}),
    ("fft", (3, 4), {"axis": 1.0}), ("fft", (3, 4), {"axis": None}),
    ("fftn", (3, 4), {"s": (3.0, 4), "axes": (0, 1)}), ("fftn", (3, 4), {"axes": (1.5,)}),
    ("fftn", (3, 4), {"s": (), "axes": (0,)}), ("irfftn", (3, 1), {}),
    ("irfft2", (3, 4), {"s": (2, 3, 4)}), ("fftn", (3, 4), {"axes": (), "norm": "bad"}),
    ("fftshift", (), {}), ("fftshift", (), {"axes": 0}), ("fftshift", (2, 3), {"axes": 5}),
    ("ifftshift", (2, 3), {"axes": (1.0,)}),
]


@pytest.mark.parametrize("name,shape,kw", ERRORS,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(ERRORS)])
def test_errors_at_build(name: str, shape: tuple[int, ...], kw: dict[str, Any]) -> None:
    a = np.ones(shape)
    # A lazy operand: the error must come from building, not evaluating.
    _both(lambda: getattr(np.fft, name)(a, **kw),
          lambda: getattr(ltfft, name)(lt.asarray(a) * 1, **kw))


def test_dtype_errors_and_message() -> None:
    c = lt.asarray(np.ones(4, np.complex64))
    for fn in (ltfft.rfft, ltfft.ihfft, ltfft.rfftn, ltfft.rfft2):
        with pytest.raises(TypeError):
            fn(c.reshape(2, 2))
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points.*test_fft\.py"):
        ltfft.fft(c, n=0)
    with pytest.raises(np.exceptions.AxisError):
        ltfft.fft(c, n=3, axis=1)


def test_deprecated_s_warns_at_the_users_line() -> None:
    x = lt.ones((3, 4))
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None`") as rec:
        ltfft.fftn(x, s=(3, 5))
    assert rec[0].filename == __file__
    with pytest.warns(DeprecationWarning, match="containing `None`"):
        y = ltfft.fftn(x, s=(None, 5), axes=(0, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # evaluating warns of nothing
        same_bits(y.eval(), np.fft.fftn(np.ones((3, 4)), s=(3, 5), axes=(0, 1)))


# ------------------------------------------------------------------ properties

@st.composite
def _transform_case(draw: st.DrawFn) -> tuple[str, tuple[int, ...], dict[str, Any]]:
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=0, max_size=3)))
    name = draw(st.sampled_from(ONE_D + N_D))
    nd = len(shape)
    axis_values = st.integers(-nd - 1, nd) if nd else st.integers(-1, 0)
    norm = draw(st.sampled_from([None, "backward", "ortho", "forward"]))
    kw: dict[str, Any] = {"norm": norm}
    if name in ONE_D:
        kw["n"] = draw(st.one_of(st.none(), st.integers(-1, 7)))
        kw["axis"] = draw(axis_values)
    else:
        axes = draw(st.one_of(st.none(), st.lists(axis_values, min_size=0, max_size=3)))
        if axes is not None:
            kw["axes"] = axes
        if draw(st.booleans()):
            k = len(axes) if axes is not None else draw(st.integers(0, 3))
            if draw(st.integers(0, 4)) == 0:
                k += 1                           # lengths that do not match
            kw["s"] = draw(st.lists(st.one_of(st.integers(-1, 7), st.none()),
                                    min_size=k, max_size=k))
    return name, shape, kw


@fixture_ok
@given(_transform_case(), st.sampled_from([np.float32, np.float64, np.complex128, np.int16]))
def test_random_transforms(engine: Any, case: Any, dtype: Any) -> None:
    name, shape, kw = case
    a = _data(shape, dtype, 7)
    _both(lambda: getattr(np.fft, name)(a, **kw),
          lambda: getattr(ltfft, name)(lt.asarray(a).T.T, **kw),
          values=not (a.size == 0 and name in C2R))


@fixture_ok
@given(st.lists(st.integers(0, 5), min_size=0, max_size=3),
       st.one_of(st.none(), st.integers(-3, 2), st.lists(st.integers(-3, 2), max_size=3)),
       st.booleans())
def test_random_shifts(engine: Any, shape: list[int], axes: Any, inverse: bool) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    name = "ifftshift" if inverse else "fftshift"
    _both(lambda: getattr(np.fft, name)(a, axes=axes),
          lambda: getattr(ltfft, name)(lt.asarray(a) + 0, axes=axes))


# ------------------------------------------------------------------ frequencies and shifts

@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_frequencies(engine: Any, name: str) -> None:
    np_fn, lt_fn = getattr(np.fft, name), getattr(ltfft, name)
    for args, kw in [((8,), {}), ((9,), {"d": 0.1}), ((1,), {}), ((0,), {"d": np.float64(1)}),
                     ((5,), {"d": np.float32(0.3)}), ((6,), {"d": 2j}), ((7,), {"d": 3}),
                     ((np.int8(5),), {}), ((True,), {}), ((-1,), {}), ((4.0,), {}),
                     ((0,), {}), ((4,), {"d": 0}), ((4,), {"d": np.array([1.0, 2.0, 3.0])}),
                     ((4,), {"device": "cpu"}), ((4,), {"device": "gpu"})]:
        with np.errstate(all="ignore"):
            _both(lambda: np_fn(*args, **kw), lambda: lt_fn(*args, **kw))
    # a lazy spacing
    d = lt.asarray(np.array(0.25)) * 2
    same_bits(lt_fn(6, d).eval(), np_fn(6, 0.5))


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts(engine: Any, name: str) -> None:
    np_fn, lt_fn = getattr(np.fft, name), getattr(ltfft, name)
    a = _data((5, 4, 3), np.complex64)
    for axes in [None, 0, -1, (0, 2), [1, 1], ()]:
        _both(lambda: np_fn(a, axes=axes), lambda: lt_fn(lt.asarray(a), axes=axes))
        _both(lambda: np_fn(a.T[::2], axes=axes),
              lambda: lt_fn(lt.asarray(a).T[::2], axes=axes))
    # the classic: a centered spectrum and its frequencies
    x = _data((16,), np.float64)
    same_bits(ltfft.fftshift(ltfft.fft(lt.asarray(x))).eval(), np.fft.fftshift(np.fft.fft(x)))
    same_bits(ltfft.fftshift(ltfft.fftfreq(16, 0.1)).eval(),
              np.fft.fftshift(np.fft.fftfreq(16, 0.1)))


# ------------------------------------------------------------------ out=

@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn",
                                  "ifft2", "rfftn", "irfftn"])
def test_out_runs_numpy_now(name: str) -> None:
    a = _data((4, 6), np.float64) if name not in ("irfft", "hfft", "irfftn") \
        else _data((4, 6), np.complex128)
    expected = getattr(np.fft, name)(a)
    out = np.zeros_like(expected)
    res = getattr(ltfft, name)(lt.asarray(a), out=out)
    ref_out = np.zeros_like(expected)
    ref = getattr(np.fft, name)(a, out=ref_out)
    same_bits(np.asarray(res), ref)
    same_bits(out, ref_out)                   # (hfft, ifft2 ignore out, as NumPy's do)
    # positionally, and into a tensor
    t = lt.zeros(expected.shape, expected.dtype)
    if name in ONE_D:
        getattr(ltfft, name)(lt.asarray(a), None, -1, None, t)
    else:
        getattr(ltfft, name)(lt.asarray(a), None, None if name != "ifft2" else (-2, -1),
                             None, t)
    same_bits(t.eval(), ref_out)
    with pytest.raises(ValueError):
        ltfft.fft(lt.asarray(a), out=np.zeros((4, 5), complex))


# ------------------------------------------------------------------ the optimizer

def test_plan_has_one_fft_step_and_keeps_slices_outside() -> None:
    a = _data((64, 32), np.float64)
    with lt.set_options(optimize=True, backend="auto"):
        spec = ltfft.fft(lt.asarray(a) * 2 + 1)
        part = spec[3:5, ::4]
        steps = lt.plan(part).steps
        ffts = [s for s in steps if s.node.op.name.startswith("fft_")]
        assert len(ffts) == 1
        # the transform reads the whole (64, 32) expression: the slice was
        # not pushed through it
        (fft_step,) = ffts
        assert fft_step.node.shape == (64, 32) and fft_step.node.inputs[0].shape == (64, 32)
        text = lt.explain(part)
        assert text.count("fft_fftn") == 1 and "getitem" in text
        same_bits(part.eval(), np.fft.fft(a * 2 + 1)[3:5, ::4])
        # transposed: not pushed either
        tr = ltfft.rfft(lt.asarray(a) - 1).T[1:3]
        same_bits(tr.eval(), np.fft.rfft(a - 1).T[1:3])


def test_not_fused_and_shared() -> None:
    a = _data((8, 16), np.float32)
    x = lt.asarray(a)
    # hash-consing: fft(x) and fftn over the same axis are one node
    assert ltfft.fft(x)._node is ltfft.fftn(x, axes=(-1,))._node
    assert ltfft.fft2(x)._node is ltfft.fftn(x, axes=(0, 1))._node
    with lt.set_options(optimize=True, backend="auto"):
        y = lt.exp(ltfft.irfft(ltfft.rfft(x * 3) * 2) + 1)
        plan = lt.plan(y)
        names = [s.node.op.name for s in plan.steps if s.node.op.name.startswith("fft_")]
        assert names == ["fft_rfftn", "fft_irfftn"]
        for k in plan.kernels:                  # fused kernels hold no transform
            assert "fft" not in repr(k.node.attrs.get("program", ""))
        same_bits(y.eval(), np.exp(np.fft.irfft(np.fft.rfft(a * 3) * 2) + 1))


def test_printers_show_it() -> None:
    x = lt.asarray(np.ones((4, 4)))
    y = ltfft.rfft2(x, norm="ortho")
    assert "fft_rfftn" in lt.to_dot(y) and "fft_rfftn" in lt.to_dot(y, optimized=True)
    assert "fft_rfftn" in lt.debugprint(y)
    with lt.set_options(optimize=False):
        assert "fft_rfftn" in lt.explain(y)


def test_cached_value_and_user_array_untouched(engine: Any) -> None:
    a = _data((5, 6), np.complex128)
    before = a.copy()
    t = lt.asarray(a)
    y = ltfft.ifft(t)
    v = y.eval()
    v[...] = 0                                  # the caller's copy
    same_bits(y.eval(), np.fft.ifft(before))
    same_bits(ltfft.hfft(t).eval(), np.fft.hfft(before))
    same_bits(ltfft.ihfft(t.real).eval(), np.fft.ihfft(before.real))
    np.testing.assert_array_equal(a, before)


# ------------------------------------------------------------------ compiled functions

def test_compiled_function_with_a_none_dimension() -> None:
    x = lt.placeholder((None, 8), "float64", name="x")
    spec = ltfft.rfft(x)
    centered = ltfft.fftshift(ltfft.fft(x, axis=0), axes=0)
    back = ltfft.irfft(ltfft.fft(x, axis=0) + 1)
    f = lt.function([x], [spec, centered, back])
    for n in (3, 6, 1):
        a = _data((n, 8), np.float64, n)
        got = f(a)
        for g, e in zip(got, [np.fft.rfft(a), np.fft.fftshift(np.fft.fft(a, axis=0), axes=0),
                              np.fft.irfft(np.fft.fft(a, axis=0) + 1)]):
            same_bits(g, e)
    # a length read from the None dimension would be fixed for every call
    with pytest.raises(ValueError, match="None dimension"):
        ltfft.fft(x, n=x.shape[0], axis=0)


def test_jit_traces_per_shape() -> None:
    @lt.jit
    def spectrum(a: Any) -> Any:
        return ltfft.fftshift(ltfft.fftn(a, s=(a.shape[0], 4), axes=(0, 1)), axes=1)

    for n in (3, 5):
        a = _data((n, 8), np.float32, n)
        same_bits(spectrum(a), np.fft.fftshift(np.fft.fftn(a, s=(n, 4), axes=(0, 1)), axes=1))


@pytest.mark.parametrize("s", [[1, 1], [0, 1], [2]], ids=str)
def test_rfftn_refuses_complex_input_in_numpys_order(s: list[int]) -> None:
    """NumPy's rfftn halves the last axis first: complex input is its
    TypeError there, before the other axes' AxisError or length errors."""
    for dt in (np.complex128, np.float64):
        try:
            np.fft.rfftn(np.zeros(0, dt), s=s)
            want = None
        except Exception as e:  # noqa: BLE001 - whichever NumPy raises
            want = type(e)
        if want is None:
            ltfft.rfftn(np.zeros(0, dt), s=s)
        else:
            with pytest.raises(want):
                ltfft.rfftn(np.zeros(0, dt), s=s)


@pytest.mark.parametrize("n", [True, np.True_, False])
@pytest.mark.parametrize("name", ONE_D)
def test_a_bool_length_as_numpy_takes_it(engine: Any, name: str, n: Any) -> None:
    """NumPy's C loops refuse a bool ``n`` (TypeError), except the
    real-input one: ``rfft(a, n=True)`` and ``ihfft`` are 1-point
    transforms; ``n=False`` is below 1 (ValueError) everywhere."""
    a = np.arange(8.0).reshape(2, 4)
    _both(lambda: getattr(np.fft, name)(a, n=n), lambda: getattr(ltfft, name)(lt.asarray(a), n=n))
    _both(lambda: np.fft.rfftn(a, s=(True, n), axes=(0, 1)),
          lambda: ltfft.rfftn(lt.asarray(a), s=(True, n), axes=(0, 1)))
