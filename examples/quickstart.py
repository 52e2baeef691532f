"""lazyten quickstart: build a lazy computation, look at it, evaluate it.

Run with ``bash scripts/demo.sh`` (sets everything up first).
"""

import os

import numpy as np

import lazyten as lt

rng = np.random.default_rng(0)
a = lt.asarray(rng.standard_normal(1_000_000))
b = lt.asarray(rng.standard_normal(1_000_000))
c = lt.asarray(rng.standard_normal(1_000_000))

# Building the expression computes nothing: each line adds nodes to a graph,
# with shape and dtype known at once.
y = 2 * a**2 + 3 * b * c - lt.sin(a) * lt.exp(-b)
total = (a * b + c).sum()
print("y:", y.shape, y.dtype, "| total:", total.shape, total.dtype)

print("\n== the graph as built (lt.debugprint)")
print(lt.debugprint(y, total))

print("\n== the optimized plan (lt.explain)")
print(lt.explain(y, total))

# The same plan as a picture: each fused kernel is a cluster of its
# instructions, buffers written in place are marked.  Needs Graphviz's `dot`;
# without it the DOT file is written and the error says how to install it.
print("\n== the fused graph as SVG (lt.visualize)")
svg_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "quickstart.svg")
try:
    picture = lt.visualize(y, total, filename=svg_path, optimized=True)
    print(f"wrote {picture.path}")
except RuntimeError as e:
    print(f"note: {e}")

y_val, total_val = lt.compute(y, total)
print("\n== results")
print("y[:5] =", y_val[:5])
print("total =", total_val)

ref = 2 * a.eval() ** 2 + 3 * b.eval() * c.eval() - np.sin(a.eval()) * np.exp(-b.eval())
print("matches NumPy:", np.allclose(y_val, ref))

# Where the time goes: one row per step of the plan.  This is the second
# run of `total`'s kernel, so its compiled loop (numba) is compiled now, or
# loaded from the disk cache: the row says how much of its time that took;
# the run after is the loop alone.
print("\n== profile (lt.compute(..., profile=True))")
_, prof = lt.compute(y, total, profile=True)
print(prof)
_, prof = lt.compute(y, total, profile=True)
print(prof)

# A slice of a lazy expression computes only the elements it needs.
print("\n== slice pushdown: ((a*b + c)**2)[::100000]")
print(lt.explain(((a * b + c) ** 2)[::100000]))
print(((a * b + c) ** 2)[::100000])

# Compile once, run on many batches: placeholders stand for the inputs, and
# a None dimension takes any length.  Each new length is specialized and
# planned; once two lengths of one size class (here 512-1023) optimized to
# the same graph, later ones reuse that graph and are only planned.
print("\n== compile once, run on many batches (lt.function)")
x = lt.placeholder((None,), np.float64, name="x")
w = lt.placeholder((None,), np.float64, name="w")
score = lt.function([x, w], [(x * w).sum() / w.sum(), lt.maximum(x, lt.zeros_like(x))])
for n in (900, 1000, 950, 1020, 800):
    xb, wb = rng.standard_normal(n), rng.random(n)
    weighted, relu = score(xb, wb)
    assert np.isclose(weighted, (xb * wb).sum() / wb.sum())
    assert np.array_equal(relu, np.maximum(xb, 0))
print(score.cache_info())
print(score.explain())
