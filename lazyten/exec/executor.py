"""Evaluation entry point: pick the reference or the optimized path, cache results."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..graph.layout import copied, infer, relaid
from ..graph.node import STRUCTURE_LOCK, Node, entered, values_changed
from ..options import Options, get_options
from .reference import run_reference


def _as_array(node: Node, v: Any) -> np.ndarray[Any, Any]:
    if isinstance(v, np.ndarray):
        return v
    return np.asarray(v, dtype=node.dtype)


@functools.cache
def _optimized() -> Callable[[Sequence[Node], Options], list[Any]]:
    """``optimized.run_optimized``, imported on first use (it pulls in every
    pass and backend, which ``import lazyten`` need not) and then kept: an
    import statement per evaluation cost 0.7 us, a sixth of a small one's
    overhead."""
    from .optimized import run_optimized
    return run_optimized


@functools.cache
def cached_runner() -> Callable[[Node, Options], list[Any] | None]:
    """``optimized.compute_cached`` (``lt.compute``'s way for one small
    output), imported on first use as ``_optimized`` is."""
    from .optimized import compute_cached
    return compute_cached


def evaluate(outputs: Sequence[Node]) -> list[np.ndarray[Any, Any]]:
    """The values of ``outputs`` as ndarrays (possibly views of cached or user
    arrays: callers copy before handing them out).  ``outputs`` may be
    pending nodes (``graph.node.entered``): only the optimized path's plan
    cache can run those without entering them."""
    opts = get_options()
    try:
        if opts.optimize:
            try:
                vals = _optimized()(outputs, opts)
            except MemoryError as e:
                # Over memory_limit: an elementwise-plus-reduction graph runs
                # in chunks within it (lazyten.chunked); anything else raises.
                if opts.memory_limit is None:
                    raise
                from ..chunked import NotChunkable, evaluate_chunked
                try:
                    vals = evaluate_chunked([entered(o) for o in outputs], opts)
                except NotChunkable as why:
                    e.add_note(f"lazyten: not evaluated in chunks either: {why}")
                    raise e from None
        else:
            vals = run_reference([entered(o) for o in outputs])
    except (ValueError, RuntimeError) as e:
        # An unbound placeholder (inside @lt.jit tracing, or a placeholder
        # forced by hand) surfaces as the executors' ValueError/RuntimeError;
        # say what happened instead.  Checked only on failure: free otherwise.
        from ..compile import tracing_error
        err = tracing_error([entered(o) for o in outputs])
        if err is None:
            raise
        raise err from e
    out = []
    for n, v in zip(outputs, vals):   # a loop, not a comprehension (a call, in 3.11)
        out.append(v if type(v) is np.ndarray else _as_array(n, v))
    return out


def pushed_views(n: Node) -> bool:
    """Whether the expression ``n`` reads, through elementwise ops, views,
    scans and reductions (each laid out by its operands), a transpose or a
    basic index of a computed elementwise value.  The optimizer moves such
    a view into that value's operands (``pushdown``), whose layouts then
    decide the result's: where they leave the order open (a broadcast,
    mixed layouts), another than NumPy's, which the view of the value
    computed first has.  Remembered by structure (a summary's key):
    ``lt.compute`` asks at every call."""
    key = n.skey
    if key:
        hit = _pushed.get(key)
        if hit is not None:
            return hit
    found = False
    stack: list[Node] = [n]
    seen: set[int] = set()
    while stack and not found:
        m = stack.pop()
        if m.id in seen or m.value is not None or not m.inputs:
            continue
        if len(seen) >= PUSHED_WALK:
            found = True                  # (past the walk: taken as pushed)
            break
        seen.add(m.id)
        if m.op.name in ("transpose", "getitem"):
            x = m.inputs[0]
            found = x.value is None and x.op.kind == "elementwise" and bool(x.inputs)
        if m.op.kind in _LAID_OUT_BY_OPERANDS:
            stack.extend(m.inputs)
    if key:
        if len(_pushed) >= PUSHED_KEPT:
            _pushed.clear()
        _pushed[key] = found
    return found


# The kinds of op whose result's layout follows its operands'.
_LAID_OUT_BY_OPERANDS = frozenset({"elementwise", "view", "scan", "reduction"})
# ``pushed_views``' answers by structure, at most this many; nodes it walks.
_pushed: dict[Any, bool] = {}
PUSHED_KEPT = 4096
PUSHED_WALK = 256


def in_numpys_layout(nodes: Sequence[Node], vals: Sequence[Any], pushed: Sequence[bool]
                     ) -> list[Any]:
    """``vals`` (the caller's arrays of ``nodes``' values) laid out as
    NumPy's where a view was pushed into their expression (``pushed``, by
    ``pushed_views`` before they ran): ``infer``'s layout, a copy where the
    executor's differs, as ``eval`` gives it."""
    out = list(vals)
    for k, (n, v, p) in enumerate(zip(nodes, vals, pushed)):
        if p and isinstance(v, np.ndarray):
            want, known = infer(n)
            if known:
                out[k] = relaid(v, want)
    return out


def caller_owned(nodes: Sequence[Node], vals: Sequence[Any]) -> tuple[np.ndarray[Any, Any], ...]:
    """``vals`` (the values of ``nodes``) as arrays the caller owns: each as
    it is, or a copy where it may alias a user array or a cached value (a
    view, not writeable, the node's value: a user's array it wraps) or an
    earlier result (one array twice).  Earlier results are found by id in a set, not by a
    scan of the list: lt.compute of 10,000 outputs spent 2 s there."""
    out: list[np.ndarray[Any, Any]] = []
    handed: set[int] = set()          # ids of the arrays in out (alive: ids unique)
    for node, v in zip(nodes, vals):  # a loop, not a comprehension (a call, in 3.11)
        if type(v) is not np.ndarray:
            v = _as_array(node, v)
        # (the node's value itself, a user's array it wraps, or its views'
        # base's, which the optimizer hands out for a view it removed
        # (``asarray(a).reshape(a.shape)``); not any value of a node with
        # one: the cached plan's code copied that already, and a second copy
        # of a large result cost as much again)
        if v.base is not None or v is _viewed_value(node) or not v.flags.writeable \
                or id(v) in handed:
            v = copied(v)
        out.append(v)
        handed.add(id(v))
    return tuple(out)


def _viewed_value(node: Node) -> Any:
    """The value of ``node``, or of the node its chain of views reads."""
    while node.value is None and node.op.kind == "view" and node.op.view_of is not None:
        node = node.inputs[node.op.view_of]
    return node.value


def cache(node: Node, value: np.ndarray[Any, Any]) -> None:
    """Remember ``value`` on ``node`` so later graphs start from it.

    Views are not cached: they are free to recompute, and a view of a user's
    array must keep reading that array as it is at evaluation time.  The
    node's inputs are dropped: it is a leaf from then on.
    """
    if node.op.kind in ("view", "source") or node.value is not None:
        return
    if node.layout is None and node.shape:
        # NumPy's layout of the value, while the inputs it follows from are
        # there: views and writes decide by it, not by the layout the
        # executor gave the value (a written strided array's copy is dense,
        # NumPy's array is still strided: its ravel copies)
        infer(node)
    frozen = value.view()
    frozen.flags.writeable = False
    with STRUCTURE_LOCK:        # (not while another thread plans over this node)
        node.value = frozen
        # A node with a value is a leaf to every walk: what it was computed
        # from is not read again.  Held, it would keep every earlier value of
        # a loop alive (``x = x * 0.5 + 1; x.eval()`` ten times: ten
        # arrays), and its summary's leaves the arrays they read.
        node.inputs = ()
        node.leaves = None
    values_changed()   # summaries made before count the node as an operation
