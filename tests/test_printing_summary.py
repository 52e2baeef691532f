"""Printing a large lazy tensor computes only what NumPy's summary shows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import lazyten as lt


@pytest.mark.parametrize("shape", [(5000,), (300, 400), (3, 2000), (40, 30, 50), (1, 1, 2000)])
def test_summarized_text_is_numpys(engine: Any, shape: tuple[int, ...]) -> None:
    base = np.random.default_rng(0).standard_normal(shape)
    e = (lt.asarray(base) * 2 + 1) ** 2
    ref = (base * 2 + 1) ** 2
    assert str(e) == str(ref)
    assert repr(e) == "Tensor(" + np.array_repr(ref)[len("array("):].replace("\n      ",
                                                                           "\n       ")


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


def test_small_and_cached_tensors_print_in_full(engine: Any) -> None:
    a = lt.arange(10) * 2
    assert str(a) == str(np.arange(10) * 2)
    big = lt.arange(5000.0) + 1
    big.eval()
    assert str(big) == str(np.arange(5000.0) + 1)
