"""Error provenance: a failure while running names the node and the user's line."""

from __future__ import annotations

from ..graph.node import Node


def describe(node: Node) -> str:
    args = " ".join(f"%{i.id}" for i in node.inputs)
    return f"%{node.id}:{node.type_str()} = {node.op.name} {args}".rstrip()


def with_provenance(err: BaseException, node: Node, step: str | None = None) -> BaseException:
    """``err`` with a note naming the node (or fused step) and where it was built.

    The exception keeps its type (FloatingPointError, MemoryError, ...) so
    callers' ``except`` clauses still work; the note shows in the traceback.
    """
    what = step if step is not None else describe(node)
    note = f"lazyten: while computing {what}, built at {node.source[0]}:{node.source[1]}"
    notes = list(getattr(err, "__notes__", []))
    if note not in notes:
        if hasattr(err, "add_note"):
            err.add_note(note)
        else:  # Python 3.10: the attribute is kept, only not printed
            err.__notes__ = notes + [note]  # type: ignore[attr-defined]
    return err
