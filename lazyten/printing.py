"""NumPy-style ``repr``/``str`` of tensors (forcing evaluation)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .tensor import Tensor


def _value(t: Tensor) -> np.ndarray[Any, Any]:
    from .exec.executor import evaluate
    (v,) = evaluate([t._node])
    return v


def tensor_str(t: Tensor) -> str:
    return str(_value(t))


def tensor_repr(t: Tensor) -> str:
    """NumPy's ``array(...)`` repr, spelled ``Tensor(...)`` and re-indented."""
    r = np.array_repr(_value(t))
    body = r[len("array("):]
    return "Tensor(" + body.replace("\n      ", "\n       ")
