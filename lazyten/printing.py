"""NumPy-style ``repr``/``str`` of tensors, computing only what is shown.

NumPy summarizes an array over ``threshold`` elements as its first and last
``edgeitems`` along each long axis.  For such a tensor lazyten evaluates only
those corner blocks (slices that the optimizer pushes down to the inputs, so
``print(huge_expression)`` touches a few dozen elements), places them in a
small array with one filler row between the corners of each long axis, and
lets NumPy format that under the user's print options with summarization
forced: the text is NumPy's own, since NumPy only ever looks at the corner
elements to format a summary.  Two exceptions: ``edgeitems=0``, where NumPy
formats every element, and the ``shape=`` suffix of the repr, which names the
tensor's shape (and so may move to a line of its own).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .tensor import Tensor

MAX_SUMMARY_DIMS = 8   # 2**8 corner blocks at most; beyond that evaluate it all
_NUMPY_PREFIX = "array("
_TENSOR_PREFIX = "Tensor("


def _print_options() -> dict[str, Any]:
    """NumPy's current print options, as ``set_printoptions`` takes them.

    A plain dict: NumPy's stubs type them as a TypedDict that lags the
    runtime (no ``override_repr``, no ``legacy="2.2"``).
    """
    return dict(np.get_printoptions())


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
    opts = _print_options()
    e = int(opts["edgeitems"])
    if t.size <= opts["threshold"] or t._node.value is not None or t.ndim > MAX_SUMMARY_DIMS:
        return None
    if e <= 0:
        # NumPy's corners for edgeitems=0 are ``a[:0]`` and ``a[-0:]``, the
        # whole axis: it formats every element (their widths decide the
        # layout) and shows the last one, so only the full value prints alike.
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


@contextlib.contextmanager
def _summarized() -> Iterator[None]:
    """The user's print options with summarization forced.

    ``np.printoptions(threshold=0)`` alone would reset ``formatter`` and
    ``override_repr`` (``set_printoptions`` always replaces those two), so
    every current option is passed back in; ``get_printoptions`` returns them
    in the form ``set_printoptions`` takes.
    """
    with np.printoptions(**{**_print_options(), "threshold": 0}):
        yield


def _with_shape(r: str, small: tuple[int, ...], shape: tuple[int, ...]) -> str:
    """NumPy's repr ``r`` of the summary array, with ``shape=`` spelling the
    tensor's ``shape`` instead of the summary's ``small`` shape.

    NumPy appends ``shape=...`` (on legacy=False only) after the values, then
    a ``, dtype=...`` when needed: ``arr_str + spacer + extras``, where the
    spacer is a newline plus indent when ``extras`` would overflow the
    linewidth.  The longer shape can change that choice, so it is made again
    with NumPy's rule.
    """
    arr_str, found, rest = r.rpartition(f"shape={small}")
    if not found or not (rest == ")" or rest.startswith(", dtype=")):
        return r        # a legacy mode: NumPy prints no shape
    arr_str = arr_str.rstrip()        # ends with the ","; drop the spacer
    extras = f"shape={shape}{rest}"
    last_line_len = len(arr_str) - (arr_str.rfind("\n") + 1)
    fits = last_line_len + len(extras) + 1 <= _print_options()["linewidth"]
    return arr_str + (" " if fits else "\n" + " " * len(_NUMPY_PREFIX)) + extras


def tensor_str(t: Tensor) -> str:
    small = _summary_value(t)
    if small is None:
        return str(_value(t))
    with _summarized():
        return str(small)


def tensor_repr(t: Tensor) -> str:
    """NumPy's ``array(...)`` repr, spelled ``Tensor(...)`` and re-indented.

    The line breaks are NumPy's for ``array(``; each continuation line is
    indented one more column, under the longer prefix.
    """
    if _print_options().get("override_repr") is not None:      # (NumPy >= 2.1)
        # The user's own repr function replaces NumPy's text, which need not
        # start with "array(": it gets the whole value and is returned as is.
        return np.array_repr(_value(t))
    small = _summary_value(t)
    if small is None:
        r = np.array_repr(_value(t))
    else:
        with _summarized():
            r = _with_shape(np.array_repr(small), small.shape, t.shape)
    indent = "\n" + " " * len(_NUMPY_PREFIX)
    return _TENSOR_PREFIX + r[len(_NUMPY_PREFIX):].replace(indent, indent + " ")
