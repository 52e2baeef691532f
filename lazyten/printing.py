"""NumPy-style ``repr``/``str`` of tensors, computing only what is shown.

NumPy summarizes an array over ``threshold`` elements as its first and last
``edgeitems`` along each long axis.  For such a tensor lazyten evaluates only
those corner blocks (slices that the optimizer pushes down to the inputs, so
``print(huge_expression)`` touches a few dozen elements), places them in a
small array with one filler row between the corners of each long axis, and
lets NumPy format that with summarization forced: the text is NumPy's own,
since NumPy only ever looks at the corner elements to format a summary.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .tensor import Tensor

MAX_SUMMARY_DIMS = 8   # 2**8 corner blocks at most; beyond that evaluate it all


def _value(t: Tensor) -> np.ndarray[Any, Any]:
    from .exec.executor import evaluate
    node = t._node
    if node.value is not None:
        return node.value
    (v,) = evaluate([node])
    return v


def _summary_value(t: Tensor) -> np.ndarray[Any, Any] | None:
    """A small array NumPy prints exactly as it would print ``t``, or None
    when ``t`` is printed in full anyway."""
    opts = np.get_printoptions()
    e = int(opts["edgeitems"])
    if t.size <= opts["threshold"] or t._node.value is not None or t.ndim > MAX_SUMMARY_DIMS:
        return None
    long_axes = [i for i, d in enumerate(t.shape) if d > 2 * e]
    if not long_axes:
        return None
    from .exec.executor import evaluate
    corners = list(itertools.product((0, 1), repeat=len(long_axes)))
    nodes = []
    for corner in corners:
        index: list[Any] = [slice(None)] * t.ndim
        for ax, side in zip(long_axes, corner):
            index[ax] = slice(None, e) if side == 0 else slice(-e, None)
        nodes.append(t[tuple(index)]._node)
    values = evaluate(nodes)      # one plan: shared work done once
    shape = tuple(2 * e + 1 if i in long_axes else d for i, d in enumerate(t.shape))
    out = np.zeros(shape, t.dtype)
    for corner, v in zip(corners, values):
        index = [slice(None)] * t.ndim
        for ax, side in zip(long_axes, corner):
            index[ax] = slice(None, e) if side == 0 else slice(e + 1, None)
        out[tuple(index)] = v
    return out


def tensor_str(t: Tensor) -> str:
    small = _summary_value(t)
    if small is None:
        return str(_value(t))
    with np.printoptions(threshold=0):
        return str(small)


def tensor_repr(t: Tensor) -> str:
    """NumPy's ``array(...)`` repr, spelled ``Tensor(...)`` and re-indented."""
    small = _summary_value(t)
    if small is None:
        r = np.array_repr(_value(t))
    else:
        with np.printoptions(threshold=0):
            r = np.array_repr(small)
        r = re.sub(r"\s*shape=\([0-9, ]*\)", f" shape={t.shape}", r)
        head, _, last = r.rpartition("\n")
        if len(last) > np.get_printoptions()["linewidth"]:
            # NumPy moves a suffix that does not fit onto its own line.
            cut = last.rfind(", shape=")
            indent = " " * len("array(")
            last = last[:cut + 1] + "\n" + indent + last[cut + 2:]
            r = f"{head}\n{last}" if head else last
    body = r[len("array("):]
    return "Tensor(" + body.replace("\n      ", "\n       ")
