"""Printing a large lazy tensor computes only what NumPy's summary shows.

The text must be NumPy's, character for character, under the user's print
options: the summary array lazyten formats must be printed with every option
the user set (``formatter``, ``legacy``, ``edgeitems``, ...), not only with the
forced summarization.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lazyten as lt
from tests.util import assert_eq

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# The engine fixture only sets options, so it is safe to share between examples.
fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])

DTYPES = ["float16", "float32", "float64", "int8", "int64", "uint64", "bool",
          "complex64", "complex128"]
# Each over the default threshold (1000 elements), with 1 to 4 long axes.
BIG_SHAPES = [(2001,), (40, 60), (3, 7, 120), (2, 9, 9, 30)]


def sample(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray[Any, Any]:
    """Values of both signs over many magnitudes (so NumPy's choice of
    notation and widths depends on which elements it looks at), with a nan
    and an inf in float data.  An array also for shape ``()``, where the
    generator returns scalars (which print differently)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        v = rng.random(shape) < 0.5
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    else:
        x = rng.standard_normal(shape) * 10.0 ** rng.integers(-4, 5, size=shape)
        if dt.kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        x = np.array(x)
        if x.size > 2:
            x.flat[-1], x.flat[1] = np.nan, np.inf
        v = x.astype(dt)
    return np.asarray(v)


def lazy(a: np.ndarray[Any, Any]) -> lt.Tensor:
    """``a`` as a tensor that is not yet computed (a view of the input node),
    so that printing it goes through the summary."""
    return lt.asarray(a)[...]


def numpy_repr(a: np.ndarray[Any, Any]) -> str:
    """NumPy's repr of ``a`` as lazyten spells it: ``Tensor(`` for ``array(``,
    each continuation line one column deeper; a user's ``override_repr``
    text as it is."""
    r = np.array_repr(a)
    if dict(np.get_printoptions()).get("override_repr") is not None:
        return r
    return "Tensor(" + r[len("array("):].replace("\n      ", "\n       ")


def assert_prints_like_numpy(t: lt.Tensor, a: np.ndarray[Any, Any]) -> None:
    assert str(t) == str(a)
    assert repr(t) == numpy_repr(a)


@pytest.mark.parametrize("shape", [(5000,), (300, 400), (3, 2000), (40, 30, 50), (1, 1, 2000)])
def test_summarized_text_is_numpys(engine: Any, shape: tuple[int, ...]) -> None:
    base = np.random.default_rng(0).standard_normal(shape)
    e = (lt.asarray(base) * 2 + 1) ** 2
    ref = (base * 2 + 1) ** 2
    assert_prints_like_numpy(e, ref)


def test_print_never_computes_the_hidden_elements() -> None:
    # 10**12 elements (7 TiB as float64): printing works only if just the
    # corners are computed (the optimizer pushes the corner slices down).
    huge = lt.broadcast_to(lt.asarray(np.arange(3.0)), (10**6, 333_333, 3))
    e = lt.sin(huge) * 2 + 1
    with lt.set_options(optimize=True, check=True):
        text = str(e)
    small = np.broadcast_to(np.sin(np.arange(3.0)) * 2 + 1, (7, 7, 3))
    with np.printoptions(threshold=0):
        expected = str(small)
    assert text == expected


def test_print_of_created_arrays_computes_only_the_corners() -> None:
    # A slice of a creation is made as one: full/ones/zeros/empty of the
    # part's shape, an integer arange's range (printing lt.arange(10**10) * 2
    # planned 80 GB; a float arange's elements are not a part's, so it stays)
    with lt.set_options(optimize=True, check=True):
        for e, small in [(lt.arange(10**10) * 2, np.arange(10**10 - 3, 10**10) * 2),
                         (lt.ones(10**10) + 1, np.full(3, 2.0)),
                         (lt.zeros((10**5, 10**5), np.int32) - 1, np.full((3, 3), -1, np.int32))]:
            corners = [e[tuple(slice(None, 3) for _ in range(e.ndim))],
                       e[tuple(slice(-3, None) for _ in range(e.ndim))]]
            assert max(lt.plan(c).peak_bytes for c in corners) < 10**4
            assert_eq(corners[1], small)
            assert "..." in str(e)
    N = 1_000_003
    for args in [(N,), (7, N, 3), (N, 5, -4), (-5, N, 7)]:
        t, a = lt.arange(*args, dtype=np.int64) * 3, np.arange(*args, dtype=np.int64) * 3
        assert str(t) == str(a)
        for sl in (slice(None, None, -2), slice(10, 2, -3), slice(-7, None), slice(5, 5)):
            assert_eq(lt.arange(*args)[sl], np.arange(*args)[sl])


def test_small_and_cached_tensors_print_in_full(engine: Any) -> None:
    a = lt.arange(10) * 2
    assert str(a) == str(np.arange(10) * 2)
    big = lt.arange(5000.0) + 1
    big.eval()
    assert str(big) == str(np.arange(5000.0) + 1)


# ------------------------------------------------- the user's print options

FORMATTERS: dict[str, Any] = {    # kind -> NumPy's formatter dict
    "float": {"float": lambda x: f"{x:.1f}"},
    "int": {"int": lambda x: f"i{x}"},
    "all": {"all": lambda x: f"<{x!s:.4}>"},
    "complex_kind": {"complex_kind": lambda x: f"{x.real:.2g}|{x.imag:.2g}"},
    "bool": {"bool": lambda x: "Y" if x else "n"},
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", FORMATTERS)
def test_formatter_is_kept(engine: Any, kind: str, dtype: str) -> None:
    """``np.printoptions(threshold=0)`` resets ``formatter``: the summary
    array must be printed with the user's."""
    for shape in BIG_SHAPES:
        a = sample(shape, dtype)
        with np.printoptions(formatter=FORMATTERS[kind]):
            assert_prints_like_numpy(lazy(a), a)


@pytest.mark.parametrize("dtype", ["float64", "int8", "complex64", "bool"])
@pytest.mark.parametrize("edgeitems", [0, 1, 2, 4])
def test_edgeitems(engine: Any, edgeitems: int, dtype: str) -> None:
    """edgeitems=0 makes NumPy format every element and show the last one."""
    for shape in BIG_SHAPES + [(2001, 1), (1, 3, 1, 700)]:
        a = sample(shape, dtype)
        with np.printoptions(edgeitems=edgeitems):
            assert_prints_like_numpy(lazy(a), a)
    if edgeitems == 0:
        with np.printoptions(edgeitems=0):
            assert str(lt.asarray(np.arange(2000.0)) * 1) == "[... 1.999e+03]"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("legacy", ["1.13", "1.21", "1.25", "2.1", "2.2", False])
def test_legacy_modes(engine: Any, legacy: Any, dtype: str) -> None:
    """Legacy modes print no ``shape=``; 1.13 may print a last line longer
    than the linewidth, which is NumPy's text and stays as it is."""
    for shape in BIG_SHAPES:
        a = sample(shape, dtype)
        for linewidth in (20, 75):
            with np.printoptions(legacy=legacy, linewidth=linewidth):
                assert_prints_like_numpy(lazy(a), a)


def test_legacy_113_repr_of_a_long_last_line(engine: Any) -> None:
    for dtype in ("float32", "float16"):
        a = np.linspace(0, 1, 2000, dtype=dtype) * 1000
        with np.printoptions(legacy="1.13"):
            assert_prints_like_numpy(lt.asarray(a) * 1, a * 1)


@pytest.mark.parametrize("linewidth", [1, 10, 40, 52, 60, 75, 200])
def test_shape_moves_to_its_own_line_as_numpys(engine: Any, linewidth: int) -> None:
    """``shape=(...)`` goes to a new line when the tensor's (longer) shape
    would overflow the last line, which the summary's shape need not."""
    for shape in [(2001,), (1001, 2), (12345, 1), (3, 1000)]:
        for dtype in ("float64", "int8", "float32"):
            a = sample(shape, dtype)
            with np.printoptions(linewidth=linewidth):
                assert_prints_like_numpy(lazy(a), a)


def test_override_repr_gets_the_whole_value(engine: Any) -> None:
    def override(x: np.ndarray[Any, Any]) -> str:
        return f"custom{x.shape}{x.dtype}"

    for shape in [(2001,), (40, 60), (3,), ()]:
        a = sample(shape, "float32")
        with np.printoptions(override_repr=override):
            assert_prints_like_numpy(lazy(a), a)
            assert repr(lazy(a)) == f"custom{shape}float32"


# ------------------------------------------------- random options, shapes, dtypes

print_options = st.fixed_dictionaries({
    "threshold": st.sampled_from([0, 5, 40, 1000]),
    "edgeitems": st.integers(0, 4),
    "precision": st.integers(0, 10),
    "linewidth": st.sampled_from([1, 10, 30, 75, 200]),
    "legacy": st.sampled_from([False, "1.13", "1.21", "1.25", "2.1", "2.2"]),
    "sign": st.sampled_from(["-", "+", " "]),
    "floatmode": st.sampled_from(["fixed", "unique", "maxprec", "maxprec_equal"]),
    "suppress": st.booleans(),
    "nanstr": st.sampled_from(["nan", "NaN"]),
    "formatter": st.sampled_from([None, *FORMATTERS.values()]),
    "override_repr": st.sampled_from([None, lambda x: f"R{x.shape}"]),
})


@st.composite
def shapes(draw: st.DrawFn) -> tuple[int, ...]:
    """0-d to 4-d, empty ones included, often with one long axis."""
    shape = tuple(draw(st.lists(st.sampled_from([0, 1, 2, 3, 5, 9]), max_size=4)))
    if shape and draw(st.booleans()):
        axis = draw(st.integers(0, len(shape) - 1))
        shape = shape[:axis] + (draw(st.sampled_from([11, 300, 1001])),) + shape[axis + 1:]
    return shape


def outcome(f: Callable[[], str]) -> str:
    """The text, or the type of the error (NumPy has some, e.g. legacy 1.13
    with floatmode "unique" and precision=0 on exponent notation)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - any NumPy error must be mirrored
        return f"raises {type(e).__name__}"


@fixture_ok
@given(print_options, shapes(), st.sampled_from(DTYPES), st.integers(0, 2**16))
def test_random_options_print_like_numpy(engine: Any, opts: dict[str, Any],
                                         shape: tuple[int, ...], dtype: str,
                                         seed: int) -> None:
    a = sample(shape, dtype, seed)
    with np.printoptions(**opts):
        assert outcome(lambda: str(lazy(a))) == outcome(lambda: str(a))
        assert outcome(lambda: repr(lazy(a))) == outcome(lambda: numpy_repr(a))
