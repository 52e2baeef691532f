"""Slice and view pushdown: views of elementwise expressions become
elementwise expressions of views, so only the needed elements are computed.

    getitem(add(a, b), [::1000])   =>  add(getitem(a, [::1000]), getitem(b, [::1000]))
    transpose(exp(x), (1, 0))      =>  exp(transpose(x, (1, 0)))

Broadcast operands get the index mapped onto their own dimensions (a size-1
dimension is indexed at 0, a missing leading one is skipped or kept as a new
axis), so broadcasting still lines up.  A view is pushed through a node that
other consumers also need only when it selects at most half of its elements:
otherwise the full and the sliced computation would both run.  A slice
reaching a slice of an elementwise node composes with it and sinks on
(``_through_slices``): ``diff(u, 2)[::1000]`` computes 3,000 elements of
``u``, not 1,000,000.

    getitem(sub(getitem(u, [1:]), getitem(u, [:-1])), [::1000])
        =>  sub(getitem(u, [1::1000]), getitem(u, [0:-1:1000]))   (then through u)
"""

from __future__ import annotations

from typing import Any

from ..node import Node
from ..ops import build
from ..rewrite import Graph, rewrite
from ..shapes import IndexItem, compose_index, index_to_python, normalize_index

PUSH_VIEWS = frozenset({"getitem", "transpose"})


def _input_view(view: str, attrs: dict[str, Any], out_shape: tuple[int, ...],
                x: Node) -> tuple[str, dict[str, Any]] | None:
    """The view to take of elementwise operand ``x`` (None: use ``x`` as is)."""
    if x.weak:
        return None                      # a Python scalar broadcasts to anything
    off = len(out_shape) - x.ndim
    if view == "transpose":
        if x.ndim == 0:
            return None
        # The transpose acts on the target padded to ``pad`` more leading
        # axes; x, of lower rank still, needs those and its own missing ones.
        return ("transpose", {"axes": attrs["axes"], "pad": attrs["pad"] + off})
    items: tuple[IndexItem, ...] = normalize_index(out_shape, attrs["index"])[0]
    res: list[Any] = []
    j = 0
    for it in items:
        if it[0] == "n":
            res.append(None)
            continue
        if j < off:                      # x lacks this leading dimension
            if it[0] == "s":
                res.append(None)         # keep a size-1 axis so alignment holds
        elif x.shape[j - off] == 1 and out_shape[j] != 1:
            res.append(0 if it[0] == "i" else slice(0, 1))
        else:
            res.append(index_to_python((it,))[0])
        j += 1
    return ("getitem", {"index": tuple(res)})


def _take_view(view: str, attrs: dict[str, Any], x: Node, src: tuple[str, int]) -> Node:
    if view == "transpose":
        pad = attrs["pad"]
        if pad:
            x = build("getitem", [x], {"index": (None,) * pad + (Ellipsis,)}, src)
        return build("transpose", [x], {"axes": attrs["axes"]}, src)
    return build("getitem", [x], attrs, src)


def _through_slices(task: tuple[str, dict[str, Any], Node]) -> tuple[str, dict[str, Any], Node]:
    """A getitem of a (computed) getitem as one getitem of the latter's base,
    so the view keeps sinking: ``(u[1:] - u[:-1])[::1000]`` reaches ``u``
    through its two slices and computes 2 x 1,000 of its elements, not all.

        getitem(getitem(u, [1:]), [::1000])  =>  getitem(u, [1::1000])
    """
    name, attrs, n = task
    while name == "getitem" and n.op.name == "getitem" and n.value is None:
        outer = normalize_index(n.shape, attrs["index"])[0]
        composed = compose_index(n.attrs["index"], n.shape, outer)
        if composed is None:
            break
        attrs, n = {"index": composed}, n.inputs[0]
    return name, attrs, n


def pushdown(graph: Graph) -> Graph:
    """Push getitem/transpose views through elementwise ops (see module doc)."""
    if PUSH_VIEWS.isdisjoint(graph.op_names):
        return graph
    uses = {k: len(v) for k, v in graph.consumers().items()}

    def sink(view: Node, target: Node) -> Node:
        # Iterative: a chain of elementwise ops is walked with an explicit stack.
        # Each frame: (view op name, attrs, node to view, source line).
        if view.op.name == "getitem":
            root_attrs: dict[str, Any] = {"index": index_to_python(view.attrs["index"])}
        else:
            root_attrs = {"axes": view.attrs["axes"], "pad": 0}
        root_task = (view.op.name, root_attrs, target)
        stack: list[tuple[tuple[str, dict[str, Any], Node], bool]] = [(root_task, False)]
        done: dict[tuple[str, str, int], Node] = {}

        def key(t: tuple[str, dict[str, Any], Node]) -> tuple[str, str, int]:
            return (t[0], repr(sorted(t[1].items())), t[2].id)

        def pushable(t: tuple[str, dict[str, Any], Node], out_size: int) -> bool:
            n = t[2]
            return (n.op.kind == "elementwise" and n.value is None and n.op.name != "astype"
                    and (uses.get(n.id, 1) <= 1 or 2 * out_size <= n.size))

        while stack:
            task, expanded = stack.pop()
            k = key(task)
            if k in done:
                continue
            name, attrs, n = task
            taken = _take_view(name, attrs, n, view.source)
            if not pushable(task, taken.size):
                done[k] = taken
                continue
            subtasks = []
            for x in n.inputs:
                iv = _input_view(name, attrs, n.shape, x)
                subtasks.append(None if iv is None else _through_slices((iv[0], iv[1], x)))
            if not expanded:
                stack.append((task, True))
                stack.extend((st, False) for st in subtasks if st is not None)
                continue
            new_ins = [x if st is None else done[key(st)] for x, st in zip(n.inputs, subtasks)]
            pushed = build(n.op.name, new_ins, dict(n.attrs), n.source)
            # Broadcasting must give back exactly the view's shape; if it
            # cannot (it always should), keep the view where it was.
            done[k] = pushed if pushed.shape == taken.shape else taken
        return done[key(root_task)]

    def rule(node: Node, ins: tuple[Node, ...]) -> Node | None:
        if node.op.name in PUSH_VIEWS and ins and ins[0].op.kind == "elementwise" \
                and ins[0].value is None:
            return sink(node, ins[0])
        return None

    return rewrite(graph, rule, only=PUSH_VIEWS)
