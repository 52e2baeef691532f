"""Error provenance: a failure while running names the node and the user's line.

    FloatingPointError: divide by zero encountered in divide
    lazyten: while computing step 3: { ((i0 / i1) + i2) }, built at model.py:4
    lazyten: in that fused kernel, divide (t0) was built at model.py:3
"""

from __future__ import annotations

import re

from ..graph.node import Node

# NumPy's floating-point errors name the ufunc: "overflow encountered in exp".
_UFUNC_IN_MESSAGE = re.compile(r"encountered in (\w+)")


def describe(node: Node) -> str:
    args = " ".join(f"%{i.id}" for i in node.inputs)
    return f"%{node.id}:{node.type_str()} = {node.op.name} {args}".rstrip()


def _add_note(err: BaseException, note: str) -> None:
    notes = list(getattr(err, "__notes__", []))
    if note not in notes:
        if hasattr(err, "add_note"):
            err.add_note(note)
        else:  # Python 3.10: the attribute is kept, only not printed
            err.__notes__ = notes + [note]


def kernel_culprits(err: BaseException, node: Node) -> str | None:
    """For a fused kernel: the instruction(s) that most likely failed, with
    the user's line of each, or else every line the kernel was built from.

    A kernel is built from many user lines; its own ``source`` is only the
    last one's.  The fuse pass keeps each instruction's line
    (``attrs["sources"]``); NumPy's message names the failing ufunc.
    """
    from ..graph.ops import REGISTRY
    program = node.attrs.get("program")
    sources = node.attrs.get("sources")
    if not program or not sources:
        return None
    names = [ins[0] for ins in program]
    labels = [f"{name} (t{k})" for k, name in enumerate(names)]
    reduce = node.attrs.get("reduce")
    if reduce is not None:
        names.append(reduce[0])
        labels.append(f"{reduce[0]} (the fused reduction)")
    m = _UFUNC_IN_MESSAGE.search(str(err))
    suspects = []
    if m is not None:
        for k, name in enumerate(names):
            spec = REGISTRY.get(name)
            ufunc = getattr(spec, "ufunc", None)
            if name == m.group(1) or (ufunc is not None and ufunc.__name__ == m.group(1)):
                suspects.append(k)

    def where(k: int) -> str:
        f, line = sources[k] if k < len(sources) else node.source
        return f"{f}:{line}"

    if suspects:
        parts = [f"{labels[k]} was built at {where(k)}" for k in suspects[:3]]
        return "lazyten: in that fused kernel, " + "; ".join(parts)
    seen: dict[str, list[str]] = {}
    for k, name in enumerate(names):
        seen.setdefault(where(k), []).append(name)
    parts = [f"{', '.join(ops)} at {w}" for w, ops in seen.items()]
    return "lazyten: that fused kernel was built from " + "; ".join(parts)


def with_provenance(err: BaseException, node: Node, step: str | None = None) -> BaseException:
    """``err`` with a note naming the node (or fused step) and where it was built.

    The exception keeps its type (FloatingPointError, MemoryError, ...) so
    callers' ``except`` clauses still work; the note shows in the traceback.
    A failure inside a fused kernel gets a second note naming the line of the
    operation that failed (see ``kernel_culprits``).
    """
    what = step if step is not None else describe(node)
    _add_note(err, f"lazyten: while computing {what}, built at {node.source[0]}:{node.source[1]}")
    if node.op.name == "fused":
        extra = kernel_culprits(err, node)
        if extra is not None:
            _add_note(err, extra)
    return err
