"""DOT export, rendering, networkx export and summarizing of large graphs.

DOT text is parsed back (pydot, ``networkx.nx_pydot.read_dot``) and checked
for structure: node counts, one cluster per fused kernel, labels with op,
type and this file's source lines.  Rendering tests need Graphviz's ``dot``
(``scripts/setup.sh`` installs it) and are skipped with a reason without it.
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pydot
import pytest

import lazyten as lt
from lazyten import viz
from lazyten.graph.node import toposort

HERE = os.path.basename(__file__)
needs_dot = pytest.mark.skipif(viz.find_dot() is None,
                               reason="Graphviz's `dot` is not installed "
                                      "(apt-get install graphviz)")


def line() -> int:
    """The caller's line number."""
    return sys._getframe(1).f_lineno


@pytest.fixture(autouse=True)
def _numpy_backend() -> Iterator[None]:
    # Kernel backends (and so labels) must not depend on the cost model.
    with lt.set_options(backend="numpy"):
        yield


def parse(src: str) -> pydot.Dot:
    (g,) = pydot.graph_from_dot_data(src)
    return g


def all_nodes(g: pydot.Dot) -> list[pydot.Node]:
    """Every real node, also inside clusters (pydot lists the defaults
    ``node``/``graph``/``edge`` as nodes too)."""
    out = []
    stack = [g]
    while stack:
        sg = stack.pop()
        out += [n for n in sg.get_nodes() if n.get_name() not in ("node", "graph", "edge")]
        stack += sg.get_subgraphs()
    return out


def label(n: pydot.Node) -> str:
    return n.get_attributes()["label"].strip('"').replace("\\n", "\n")


def model() -> tuple[lt.Tensor, lt.Tensor, dict[str, int]]:
    lines = {}
    a = lt.asarray(np.arange(12.0).reshape(4, 3)); lines["a"] = line()  # noqa: E702
    b = lt.asarray(np.ones(3)); lines["b"] = line()  # noqa: E702
    c = lt.sin(a * 2 + b); lines["c"] = line()  # noqa: E702
    d = c.sum(axis=0); lines["d"] = line()  # noqa: E702
    e = lt.exp(c @ c.T) + 1; lines["e"] = line()  # noqa: E702
    return d, e, lines


# --------------------------------------------------------------------------- unoptimized

def test_dot_has_one_box_per_node_with_op_type_and_line() -> None:
    d, e, lines = model()
    g = parse(lt.to_dot(d, e))
    nodes = all_nodes(g)
    order = toposort([d.node, e.node])
    assert len(nodes) == len(order)
    by_name = {n.get_name(): n for n in nodes}
    for node in order:
        text = label(by_name[f"n{node.id}"])
        assert node.op.name in text
        assert node.type_str() in text
        assert node.where in text
    assert f"{HERE}:{lines['c']}" in label(by_name[f"n{c_node(d).id}"])
    assert len(g.get_edges()) == sum(len(n.inputs) for n in order)
    assert g.get_subgraphs() == []


def c_node(d: lt.Tensor) -> Any:
    return d.node.inputs[0]        # sin(...), the input of the sum


def test_inputs_and_outputs_are_styled_apart() -> None:
    d, e, _ = model()
    nodes = {n.get_name(): n.get_attributes() for n in all_nodes(parse(lt.to_dot(d, e)))}
    for node in toposort([d.node, e.node]):
        attrs = nodes[f"n{node.id}"]
        if node.op.name == "input":
            assert attrs["shape"] == '"ellipse"'
        if node.id in (d.node.id, e.node.id):
            assert attrs["peripheries"] == '"2"'
        else:
            assert "peripheries" not in attrs
        if node.op.kind == "view":           # c.T: no data moved
            assert "dashed" in attrs["style"]
    assert any(n.op.kind == "view" for n in toposort([d.node, e.node]))


def test_dot_parses_with_networkx_and_matches_to_networkx() -> None:
    d, e, _ = model()
    for optimized in (False, True):
        parsed = nx.nx_pydot.from_pydot(parse(lt.to_dot(d, e, optimized=optimized)))
        exported = lt.to_networkx(d, e, optimized=optimized)
        assert set(parsed.nodes) - {"node", "graph", "edge"} == set(exported.nodes)
        assert {(a, b) for a, b, _k in parsed.edges} >= set(exported.edges)


def test_read_dot_from_a_file(tmp_path: Path) -> None:
    d, e, _ = model()
    path = tmp_path / "g.dot"
    lt.visualize(d, e, filename=path, format="dot")
    g = nx.nx_pydot.read_dot(path)
    assert len(g) == len(toposort([d.node, e.node]))


def test_to_networkx_attributes() -> None:
    d, e, lines = model()
    g = lt.to_networkx(d, e)
    assert isinstance(g, nx.DiGraph)
    assert nx.is_directed_acyclic_graph(g)
    sin = g.nodes[f"n{c_node(d).id}"]
    assert sin["op"] == "sin"
    assert sin["shape"] == (4, 3)
    assert sin["dtype"] == "float64"
    assert sin["source"] == f"{HERE}:{lines['c']}"
    assert sin["kernel"] is None
    assert g.graph["outputs"] == [f"n{d.node.id}", f"n{e.node.id}"]
    roles = {data["role"] for _, data in g.nodes(data=True)}
    assert roles == {"input", "const", "op"}


# --------------------------------------------------------------------------- optimized

def test_optimized_dot_draws_each_fused_kernel_as_a_cluster() -> None:
    d, e, _ = model()
    plan = lt.plan(d, e)
    g = parse(lt.to_dot(d, e, optimized=True))
    clusters = [s for s in g.get_subgraphs() if s.get_name().startswith("cluster_")]
    assert len(clusters) == len(plan.kernels) == 2
    for s in plan.kernels:
        (cl,) = [c for c in clusters if c.get_name() == f"cluster_{s.index}"]
        members = [n for n in cl.get_nodes() if n.get_name() not in ("node", "graph", "edge")]
        program = s.node.attrs["program"]
        n_boxes = len(program) + (s.node.attrs["reduce"] is not None)
        assert len(members) == n_boxes
        assert f"kernel[{s.kernel.backend}]" in cl.get_label()
        # every instruction's op is in its box
        ops = sorted(label(m).split(" = ")[1].split("\n")[0] for m in members
                     if " = " in label(m))
        assert ops == sorted(ins[0] for ins in program)
    # non-kernel steps are single boxes outside clusters
    outside = [n for n in g.get_nodes() if n.get_name() not in ("node", "graph", "edge")]
    assert len(outside) == sum(1 for s in plan.steps if s.kind != "kernel")


def test_optimized_picture_marks_in_place_and_reused_buffers() -> None:
    a = lt.asarray(np.arange(12.0).reshape(4, 3))
    m = lt.asarray(np.ones((3, 3)))
    y = lt.exp(a) @ m            # kernel b0, then BLAS; b0 dies
    z = lt.sin(a) * 2 + y.sum()  # kernel: reuses b0
    w = lt.exp(z @ m) + 1        # kernel: in place of the BLAS result
    plan = lt.plan(w, y)
    assert any(s.reused is not None for s in plan.steps)
    assert any(s.inplace_of is not None for s in plan.steps)
    g = parse(lt.to_dot(w, y, optimized=True))
    labels = [label(n) for n in all_nodes(g)]
    assert any("(reused from %" in t for t in labels)
    assert any("(in place of %" in t for t in labels)
    inplace_edges = [e for e in g.get_edges() if e.get_attributes().get("label") == '"in place"']
    assert len(inplace_edges) == sum(1 for s in plan.steps if s.inplace_of is not None)
    nxg = lt.to_networkx(w, y, optimized=True)
    kernels = {data["kernel"] for _, data in nxg.nodes(data=True)} - {None}
    assert kernels == {s.index for s in plan.kernels}
    bufs = [data.get("buffer", "") for _, data in nxg.nodes(data=True)]
    assert any("reused" in b for b in bufs) and any("in place" in b for b in bufs)


def test_optimized_networkx_has_kernel_ids_and_sources() -> None:
    d, e, lines = model()
    g = lt.to_networkx(d, e, optimized=True)
    assert nx.is_directed_acyclic_graph(g)
    inside = [data for _, data in g.nodes(data=True) if data["kernel"] is not None]
    assert {data["op"] for data in inside} >= {"multiply", "add", "sin", "exp"}
    sin = [data for data in inside if data["op"] == "sin"][0]
    assert sin["source"] == f"{HERE}:{lines['c']}"
    assert sin["backend"] == "numpy" and sin["step_kind"] == "kernel[numpy]"


def test_pictures_compute_nothing() -> None:
    d, e, _ = model()
    lt.to_dot(d, e, optimized=True)
    lt.to_networkx(d, e, optimized=True)
    g = lt.graph(d, e, optimized=True)
    g._repr_mimebundle_()
    assert d.node.value is None and e.node.value is None


# --------------------------------------------------------------------------- rendering

@needs_dot
def test_render_svg_and_png(tmp_path: Path) -> None:
    d, e, lines = model()
    g = e.visualize(filename=tmp_path / "model.svg", optimized=True)
    assert g.path == str(tmp_path / "model.svg")
    root = ET.parse(g.path).getroot()
    assert root.tag.endswith("svg")
    texts = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert "kernel[numpy]" in texts and "t0 = exp" in texts
    assert f"{HERE}:{lines['e']}" in texts
    png = e.visualize(filename=tmp_path / "model", format="png")
    assert png.path == str(tmp_path / "model.png")
    assert Path(png.path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = lt.visualize(d, filename=tmp_path / "d.pdf")
    assert Path(pdf.path).read_bytes()[:5] == b"%PDF-"


@needs_dot
def test_graph_displays_as_svg_in_jupyter() -> None:
    d, e, _ = model()
    g = lt.graph(d, e)
    bundle = g._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "image/svg+xml"}
    assert bundle["image/svg+xml"].lstrip().startswith("<?xml")
    assert g._repr_svg_() == bundle["image/svg+xml"]
    assert repr(g) == f"<lazyten.Graph: graph, {len(toposort([d.node, e.node]))} boxes>"
    assert d.node.value is None


def test_without_dot_visualize_writes_dot_and_says_how_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d, _, _ = model()
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert viz.find_dot() is None
    with pytest.raises(RuntimeError) as info:
        d.visualize(filename=tmp_path / "out.svg")
    msg = str(info.value)
    assert "apt-get install graphviz" in msg and "brew install graphviz" in msg
    assert "conda install graphviz" in msg
    written = tmp_path / "out.dot"
    assert str(written) in msg
    assert written.read_text().startswith("digraph lazyten {")
    # DOT output needs no Graphviz at all
    g = d.visualize(filename=tmp_path / "plain.dot")
    assert Path(g.path).read_text() == g.source
    # notebooks fall back to text, never raise
    bundle = lt.graph(d)._repr_mimebundle_()
    assert list(bundle) == ["text/plain"] and "install Graphviz" in bundle["text/plain"]
    assert lt.graph(d)._repr_svg_() is None


def test_bad_format_is_rejected(tmp_path: Path) -> None:
    d, _, _ = model()
    with pytest.raises(ValueError, match="format must be one of"):
        d.visualize(filename=tmp_path / "x", format="jpeg")


def test_labels_are_escaped() -> None:
    assert viz._q('a "b" \\ c\nd') == '"a \\"b\\" \\\\ c\\nd"'


# --------------------------------------------------------------------------- large graphs

def chain(n: int) -> lt.Tensor:
    x = lt.asarray(np.ones(10))
    for _ in range(n):
        x = lt.sin(x)
    return x


def lattice(n: int) -> tuple[lt.Tensor, lt.Tensor]:
    x, y = lt.asarray(np.ones(4)), lt.asarray(np.ones(4))
    for _ in range(n):
        x, y = x * y + y, x - y          # no single-reader chains at all
    return x, y


def check_summary(vg: viz.VizGraph, limit: int = viz.MAX_NODES) -> None:
    assert vg.summarized
    assert len(vg.nodes) <= limit
    assert sum(v.count for v in vg.nodes) == vg.total     # every node accounted for
    g = nx.nx_pydot.from_pydot(parse(viz.dot_source(vg)))
    g.remove_nodes_from(["node", "graph", "edge"])
    assert len(g) == len(vg.nodes)
    assert nx.is_directed_acyclic_graph(nx.DiGraph(g))


def test_a_10000_node_chain_collapses_into_one_counted_box() -> None:
    x = chain(9_998)
    vg = viz.build([x])
    check_summary(vg)
    assert vg.total == 9_999
    assert [v.label[0] for v in vg.nodes][1] == "sin x 9,998"
    text = lt.to_dot(x)
    assert "sin x 9,998" in text and "summarized: 2 boxes for 9,999" in text


def test_large_graphs_of_several_shapes_summarize_below_the_limit() -> None:
    a = lt.asarray(np.ones((2_500, 4)))
    s = a[0]
    for i in range(1, 2_500):
        s = s + lt.exp(a[i])             # a long sum of small side branches
    xs = [lt.asarray(np.ones(3)) for _ in range(3_000)]
    t = xs[0]
    for v in xs[1:]:
        t = t + v                          # thousands of inputs
    outs = [lt.exp(a[0] * k) for k in range(1_500)]      # many outputs
    for tensors in ([s], [t], list(lattice(3_000)), outs):
        for optimized in (False, True):
            vg = viz.build(tensors, optimized=optimized)
            assert vg.total > viz.MAX_NODES
            check_summary(vg)


def test_summary_respects_a_small_limit_with_a_prefix_box() -> None:
    x, y = lattice(50)
    vg = viz.summarize(viz.build_unoptimized([x.node, y.node]), max_nodes=5)
    assert len(vg.nodes) <= 5
    assert sum(v.count for v in vg.nodes) == vg.total


def test_max_nodes_none_never_summarizes() -> None:
    x = chain(600)
    assert len(viz.build([x], max_nodes=None)) == 601
    assert not viz.build([x], max_nodes=None).summarized


def test_deep_graphs_need_no_recursion() -> None:
    x = chain(30_000)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)        # anything recursive over the graph would fail
    try:
        vg = viz.build([x])
        g = lt.to_networkx(x)
    finally:
        sys.setrecursionlimit(limit)
    assert len(vg.nodes) == 2 and len(g) == 30_001


def test_cached_values_are_leaves_of_both_pictures() -> None:
    x = lt.asarray(np.ones(3))
    y = lt.exp(x)
    y.eval()                              # cached: later plans start from it
    z = y + 1
    for optimized in (False, True):
        g = lt.to_networkx(z, optimized=optimized)
        cached = [d for _, d in g.nodes(data=True) if d["role"] == "cached"]
        assert len(cached) == 1 and cached[0]["op"] == "exp"
        assert f"n{x.node.id}" not in g   # what it was computed from is not needed
        parse(lt.to_dot(z, optimized=optimized))


def test_optimized_picture_under_optimize_false_shows_what_runs() -> None:
    # With the optimizer off every node runs on its own: no kernels to draw.
    x = lt.asarray(np.ones(3))
    z = lt.exp(x) * 2 + 1
    with lt.set_options(optimize=False):
        g = lt.to_networkx(z, optimized=True)
        src = lt.to_dot(z, optimized=True)
    assert "cluster_" not in src
    assert sorted(d["op"] for _, d in g.nodes(data=True)) == [
        "add", "const", "const", "exp", "input", "multiply"]
    assert "cluster_" in lt.to_dot(z, optimized=True)


def test_big_kernels_become_single_boxes_small_ones_stay_clusters() -> None:
    x = lt.asarray(np.ones(8))
    m = lt.asarray(np.ones((8, 8)))
    big = x
    for _ in range(300):
        big = lt.sin(big) + 1                 # one kernel of 600 instructions
    small = lt.exp(big @ m) * 2               # a 2-instruction kernel after a BLAS call
    plan = lt.plan(small)
    sizes = sorted(len(s.node.attrs["program"]) for s in plan.kernels)
    assert sizes == [2, 600]
    vg = viz.build([small], optimized=True)
    assert not vg.summarized and len(vg.nodes) <= viz.MAX_NODES
    assert [c.step for c in vg.clusters] == [s.index for s in plan.kernels
                                             if len(s.node.attrs["program"]) == 2]
    g = parse(viz.dot_source(vg))
    assert len(g.get_subgraphs()) == 1
    assert any("kernel[" in label(n) for n in g.get_nodes()
               if n.get_name() not in ("node", "graph", "edge"))


def test_each_kernel_instruction_shows_the_line_that_built_it() -> None:
    x = lt.asarray(np.ones(5))
    y = x * 2; L_y = line()  # noqa: E702
    z = lt.exp(y) - 1; L_z = line()  # noqa: E702
    g = lt.to_networkx(z, optimized=True)
    by_op = {d["op"]: d for _, d in g.nodes(data=True) if d["kernel"] is not None}
    assert by_op["multiply"]["source"] == f"{HERE}:{L_y}"
    assert by_op["exp"]["source"] == f"{HERE}:{L_z}"
    assert f"{HERE}:{L_y}" in by_op["multiply"]["label"]


def test_a_loops_constants_make_no_hub_box() -> None:
    # A loop's constants of one line were merged into one box whose edges
    # reached every step (165 of them): Graphviz's layout of that summary did
    # not finish in 40 s.  Leaves are merged by their readers, not by line.
    x = lt.asarray(np.arange(1000.0))
    for i in range(500):
        if i % 3 == 0:
            x = x[1:][::-1]
        elif i % 3 == 1:
            x[0] = i
        else:
            x = x + i
    vg = viz.build([x])
    check_summary(vg)
    leaves = {v.key for v in vg.nodes if v.role in ("input", "const", "cached")}
    fan = {k: 0 for k in leaves}
    for a, _b, _pos in vg.edges:
        if a in fan:
            fan[a] += 1
    assert max(fan.values()) <= 8, fan
