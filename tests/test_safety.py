# Bad arguments are passed on purpose.
# mypy: disable-error-code="arg-type,union-attr"
"""Safety: user arrays are never written, input aliasing has defined semantics,
bad arguments give clear errors, and no user text reaches numexpr.

Input aliasing semantics (what these tests pin down):

1. ``lt.asarray(arr)`` wraps ``arr`` without copying; the graph reads ``arr``
   when a result is evaluated, not when the graph is built (like dask).  So
   changing ``arr`` after building a graph but before its first evaluation
   changes the result.
2. ``t.eval()`` caches the value on ``t``'s node (a read-only array).  Later
   evaluations of that node, *and of any graph containing it*, use the cache,
   so changing ``arr`` afterwards does not change them.  Because identical
   expressions are one node (hash-consing), rebuilding the same expression
   (``x * 2`` again) finds the cached node too.  A new expression (``x * 3``)
   reads ``arr`` as it is then.
3. Views (slicing, reshape, transpose, ...) and inputs are never cached: a view
   of an input keeps reading the input's current contents.
4. ``lt.compute(...)`` and ``repr``/``str``/``print`` never cache; ``.eval()``
   and everything that calls it (``np.asarray(t)``, ``float``, ``bool``, ``item``,
   ``tolist``, iteration) does.
5. ``lt.array(arr)`` and ``lt.asarray(arr, copy=True)`` snapshot ``arr``.
6. Every array lazyten returns is the caller's own: writing into it changes
   neither the user's inputs nor later results.
7. lazyten never writes into a user's array, whatever the optimizer and planner
   do (in-place operators on tensors, writes through views and ``setitem``
   make new versions; they never touch the wrapped buffer), and read-only user
   arrays work everywhere.
"""

from __future__ import annotations

import os
import re
import traceback
from collections.abc import Callable
from typing import Any

import numexpr
import numpy as np
import pytest

import lazyten as lt
from lazyten.graph.ops import REGISTRY
from tests.util import same_bits

COMBOS = [pytest.param({"optimize": o, "backend": b}, id=f"opt={o}-{b}")
          for o in (False, True) for b in ("numpy", "numexpr", "auto")]
PKG = os.path.dirname(os.path.abspath(lt.__file__))


# ------------------------------------------------------------------ user arrays


def _user_arrays() -> dict[str, np.ndarray[Any, Any]]:
    rng = np.random.default_rng(7)
    base = rng.standard_normal((6, 8)).astype(np.float32)
    return {
        "a": rng.standard_normal((4, 3)),                 # float64, contiguous
        "b": base[::-2, ::-3],                            # float32, negative strides
        "c": np.arange(12, dtype=np.int32).reshape(4, 3),
        "f": np.asfortranarray(rng.standard_normal((4, 3))),
        "m": rng.standard_normal((3, 3)),
    }


Case = Callable[[dict[str, Any]], list[Any]]


def _chain(x: dict[str, Any]) -> list[Any]:
    a = x["a"]
    return [(a * 2 + 1) / 3 - a, ((a * 2 + 1) / 3 - a).sum(axis=0)]


def _inplace(x: dict[str, Any]) -> list[Any]:
    t = x["a"]
    t += 1
    t *= 2
    t -= x["f"]
    t /= 3
    return [t]


def _inplace_int(x: dict[str, Any]) -> list[Any]:
    t = x["c"]
    t += 3
    t //= 2
    t <<= 1
    t ^= 5
    return [t]


def _inplace_deep(x: dict[str, Any]) -> list[Any]:
    t = x["a"]
    for _ in range(40):
        t += 1.0
        t *= 0.5
    return [t]


def _setitem(x: dict[str, Any]) -> list[Any]:
    t = x["a"]
    t[0] = 5
    t[:, ::2] = -1
    t[-1, 1] = x["a"][0, 0] if isinstance(t, np.ndarray) else t[0, 0]
    return [t]


def _view_write(x: dict[str, Any]) -> list[Any]:
    t = x["a"]
    v = t[1:, ::-1]
    v[0] = 7
    v += 1
    return [t, v]


def _reshape_write(x: dict[str, Any]) -> list[Any]:
    t = x["a"].reshape(-1)
    t[3] = 0
    t[::4] += 10
    return [t]


def _transpose_inplace(x: dict[str, Any]) -> list[Any]:
    t = x["f"].T
    t += 1
    t[0, ::2] *= 3
    return [t]


def _noncontig(x: dict[str, Any]) -> list[Any]:
    b = x["b"]
    y = b * b + 1
    b += 2          # on tensors: a new version; the user's b stays
    return [y, b, y.sum(axis=1)]


def _broadcast_inplace(x: dict[str, Any]) -> list[Any]:
    t = x["a"]
    t += x["a"][0]
    t *= x["c"][:, :1]
    return [t]


def _mixed(x: dict[str, Any]) -> list[Any]:
    a, m = x["a"], x["m"]
    w = (a @ m) * 2 - a
    cond = a > 0
    return [w.sum(), (w @ m.T).max(axis=1), w.T @ a, w * cond, abs(w).mean(axis=0)]


def _self_ops(x: dict[str, Any]) -> list[Any]:
    a = x["a"]
    return [a + a + a, a * a - a, a, a.T, a[::-1]]


def _numpy_results_that_alias(x: dict[str, Any]) -> list[Any]:
    # NumPy returns an argument itself (matrix_power(m, 1)) or a view of one
    # (einsum's transpose): the plan must not write into or reuse it.
    m, a = x["m"], x["a"]
    xp: Any = lt if isinstance(m, lt.Tensor) else np
    c = a * 2
    d = xp.einsum("ij->ji", c)
    e = xp.exp(a) + 1
    return [xp.linalg.matrix_power(m, 1) * 2 + 1, d - e.T, d * 3 + (c + 1).T,
            xp.einsum("ij->ji", a) + 1]


CASES: dict[str, Case] = {
    "chain": _chain, "inplace": _inplace, "inplace_int": _inplace_int,
    "inplace_deep": _inplace_deep, "setitem": _setitem, "view_write": _view_write,
    "reshape_write": _reshape_write, "transpose_inplace": _transpose_inplace,
    "noncontig": _noncontig, "broadcast_inplace": _broadcast_inplace, "mixed": _mixed,
    "self_ops": _self_ops, "numpy_results_that_alias": _numpy_results_that_alias,
}


def _snapshot(arrs: dict[str, np.ndarray[Any, Any]]) -> dict[str, Any]:
    out = {}
    for k, a in arrs.items():
        base = a.base if a.base is not None else a
        out[k] = (a.copy(), base.tobytes(), a.strides, a.dtype, a.flags.writeable)
    return out


def _assert_untouched(arrs: dict[str, np.ndarray[Any, Any]], snap: dict[str, Any]) -> None:
    for k, a in arrs.items():
        copy, base_bytes, strides, dtype, writeable = snap[k]
        base = a.base if a.base is not None else a
        assert base.tobytes() == base_bytes, f"user array {k!r} was written to"
        np.testing.assert_array_equal(a, copy)
        assert (a.strides, a.dtype, a.flags.writeable) == (strides, dtype, writeable)


def _expected(case: Case) -> list[np.ndarray[Any, Any]]:
    """The case run eagerly on private copies (NumPy's in-place semantics)."""
    arrs = {k: np.array(v, copy=True) for k, v in _user_arrays().items()}
    return [np.array(r, copy=True) for r in case(arrs)]


@pytest.mark.parametrize("combo", COMBOS)
@pytest.mark.parametrize("readonly", [False, True], ids=["writeable", "readonly"])
@pytest.mark.parametrize("name", list(CASES))
def test_user_arrays_never_written(name: str, readonly: bool, combo: dict[str, Any]) -> None:
    case = CASES[name]
    want = _expected(case)
    arrs = _user_arrays()
    if readonly:
        for a in arrs.values():
            a.flags.writeable = False
    snap = _snapshot(arrs)
    with lt.set_options(**combo):
        tensors = case({k: lt.asarray(v) for k, v in arrs.items()})
        got = lt.compute(*tensors)
        _assert_untouched(arrs, snap)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-6 if w.dtype == np.float32 else 1e-12)
            g[...] = 0                     # the returned arrays are the caller's own
        _assert_untouched(arrs, snap)
        evals = [t.eval() for t in tensors]   # caches values on the nodes
        for e in evals:
            e[...] = -1
        again = lt.compute(*tensors)
        for g, w in zip(again, want):
            np.testing.assert_allclose(g, w, rtol=1e-6 if w.dtype == np.float32 else 1e-12)
        _assert_untouched(arrs, snap)
        asarr = [np.asarray(t) for t in tensors]
        for e in asarr:
            e[...] = -2
        _assert_untouched(arrs, snap)


@pytest.mark.parametrize("combo", COMBOS)
def test_returned_input_is_a_copy(combo: dict[str, Any]) -> None:
    a = np.arange(6.0)
    with lt.set_options(**combo):
        t = lt.asarray(a)
        for out in (lt.compute(t)[0], t.eval(), np.asarray(t), lt.compute(t.reshape(2, 3))[0],
                    lt.compute(t[::-1])[0], t.T.eval()):
            out[...] = 99
    np.testing.assert_array_equal(a, np.arange(6.0))


@pytest.mark.parametrize("combo", COMBOS)
def test_ufunc_interop_does_not_write(combo: dict[str, Any]) -> None:
    a = np.arange(6.0)
    a.flags.writeable = False
    with lt.set_options(**combo):
        t = lt.asarray(a)
        r = np.add(a, t) * np.multiply(t, a) - a
        np.testing.assert_allclose(r.eval(), (a + a) * (a * a) - a)
    np.testing.assert_array_equal(a, np.arange(6.0))


# ------------------------------------------------------------------ aliasing semantics


@pytest.mark.parametrize("combo", COMBOS)
def test_input_is_read_at_evaluation_time(combo: dict[str, Any]) -> None:
    with lt.set_options(**combo):
        arr = np.arange(4.0)
        x = lt.asarray(arr)
        y = x * 2
        arr[0] = 100.0                       # before the first evaluation: seen
        np.testing.assert_array_equal(lt.compute(y)[0], [200, 2, 4, 6])
        arr[1] = 50.0                        # compute() did not cache: seen again
        np.testing.assert_array_equal(y.eval(), [200, 100, 4, 6])
        arr[2] = -1.0                        # y is cached now: not seen
        np.testing.assert_array_equal(y.eval(), [200, 100, 4, 6])
        np.testing.assert_array_equal(lt.compute(y + 0.5)[0], [200.5, 100.5, 4.5, 6.5])
        np.testing.assert_array_equal((x * 2).eval(), [200, 100, 4, 6])   # same node
        np.testing.assert_array_equal((x * 3).eval(), [300, 150, -3, 9])  # a new node
        np.testing.assert_array_equal(x.eval(), arr)                     # inputs: never cached


@pytest.mark.parametrize("combo", COMBOS)
def test_views_of_inputs_are_not_cached(combo: dict[str, Any]) -> None:
    with lt.set_options(**combo):
        arr = np.arange(6.0)
        v = lt.asarray(arr)[1:].reshape(5)
        np.testing.assert_array_equal(v.eval(), arr[1:])
        arr[1] = 42.0
        np.testing.assert_array_equal(v.eval(), arr[1:])
        assert v.node.value is None


@pytest.mark.parametrize("combo", COMBOS)
def test_what_caches(combo: dict[str, Any]) -> None:
    with lt.set_options(**combo):
        arr = np.arange(3.0)
        y = lt.asarray(arr) + 1
        repr(y)
        str(y)
        lt.compute(y)
        arr[0] = 10.0                      # printing and compute() did not cache
        np.testing.assert_array_equal(np.asarray(y), [11, 2, 3])
        arr[0] = 20.0                      # np.asarray is .eval(): cached
        np.testing.assert_array_equal(y.eval(), [11, 2, 3])
        z = lt.asarray(arr).sum()
        assert float(z) == 23.0
        arr[0] = 0.0
        assert float(z) == 23.0


def test_array_and_copy_true_snapshot() -> None:
    arr = np.arange(3.0)
    s1, s2, live = lt.array(arr), lt.asarray(arr, copy=True), lt.asarray(arr)
    arr[:] = -1
    np.testing.assert_array_equal((s1 + 0).eval(), [0, 1, 2])
    np.testing.assert_array_equal((s2 + 0).eval(), [0, 1, 2])
    np.testing.assert_array_equal((live + 0).eval(), [-1, -1, -1])


def test_cached_value_is_read_only_and_survives_caller_writes() -> None:
    x = lt.asarray(np.arange(3.0))
    y = x + 1
    out = y.eval()
    out[:] = 0
    np.testing.assert_array_equal(y.eval(), [1, 2, 3])
    assert y.node.value is not None and not y.node.value.flags.writeable


def test_inplace_on_tensor_keeps_old_graphs() -> None:
    arr = np.arange(3.0)
    t = lt.asarray(arr)
    before = t * 1
    t += 10
    t[0] = -5
    np.testing.assert_array_equal(before.eval(), [0, 1, 2])
    np.testing.assert_array_equal(t.eval(), [-5, 11, 12])
    np.testing.assert_array_equal(arr, [0, 1, 2])


@pytest.mark.parametrize("combo", COMBOS)
def test_failed_evaluation_caches_nothing(combo: dict[str, Any]) -> None:
    """An evaluation that raises leaves no value (whole or half-written) on any node;
    a later evaluation recomputes correctly."""
    data = np.tile([1.0, 0.0], 50_000)
    with lt.set_options(**combo):
        x = lt.asarray(data)
        inner = lt.exp(x) * 2.0
        y = (1.0 / x) + inner
        with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
            y.eval()
        assert y.node.value is None and inner.node.value is None
        with np.errstate(divide="ignore"):
            got = y.eval()
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(got, 1.0 / data + np.exp(data) * 2.0, rtol=1e-14)


# ------------------------------------------------------------------ numexpr and user text

EVIL = ["__import__('os').system('touch {p}')",
        "open('{p}', 'w').write('pwned')",
        "a + b; __import__('pathlib').Path('{p}').touch()",
        "x); import os; os.system('touch {p}'); (",
        "i0", "c0", "out", "sin", "where"]


@pytest.fixture
def numexpr_spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[str, ...]]]:
    """Record every expression and local name handed to numexpr."""
    seen: list[tuple[str, tuple[str, ...]]] = []
    real_eval = numexpr.evaluate
    real_ne = numexpr.NumExpr

    def evaluate(ex: str, local_dict: Any = None, *a: Any, **k: Any) -> Any:
        seen.append((ex, tuple(local_dict or ())))
        return real_eval(ex, local_dict, *a, **k)

    def NumExpr(ex: str, *a: Any, **k: Any) -> Any:  # noqa: N802 - numexpr's name
        seen.append((ex, ()))
        return real_ne(ex, *a, **k)

    monkeypatch.setattr(numexpr, "evaluate", evaluate)
    monkeypatch.setattr(numexpr, "NumExpr", NumExpr)
    return seen


@pytest.mark.parametrize("template", EVIL)
def test_names_like_code_never_reach_numexpr(template: str, tmp_path: Any,
                                             numexpr_spy: list[Any]) -> None:
    target = tmp_path / "pwned"
    name = template.format(p=target)
    a_np, b_np = np.linspace(0.1, 1, 1000), np.linspace(1, 2, 1000)
    with lt.set_options(optimize=True, backend="numexpr"):
        a = lt.asarray(a_np, name=name)
        b = lt.asarray(b_np, name=name + "_b")
        y = lt.sqrt(a) * b + a / b - 2.5
        assert name in lt.debugprint(y)        # the name is kept for display...
        (got,) = lt.compute(y)
        np.testing.assert_allclose(got, np.sqrt(a_np) * b_np + a_np / b_np - 2.5, rtol=1e-12)
    assert not target.exists()
    for ex, names in numexpr_spy:
        if not name.isidentifier():
            assert name not in ex               # ...but never used as code
        for n in names:                         # only lazyten's generated names
            assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n), n


def test_numexpr_spy_is_not_vacuous(numexpr_spy: list[Any]) -> None:
    """The optimizer does send float64 elementwise chains to numexpr (else the test
    above proves nothing)."""
    x = np.linspace(0, 1, 100_000)
    with lt.set_options(optimize=True, backend="numexpr"):
        lt.compute(lt.sqrt(lt.asarray(x)) * 2.0 + 1.0)
    assert any("sqrt" in ex for ex, _ in numexpr_spy)


@pytest.mark.parametrize("value", ["__import__('os').system('x')", "1 + 1", b"1"])
def test_string_operands_are_rejected(value: Any) -> None:
    t = lt.asarray(np.arange(3.0))
    with pytest.raises(TypeError):
        t + value
    with pytest.raises(TypeError):
        lt.where(t > 0, value, t)
    with pytest.raises(TypeError):
        lt.asarray(value)


def test_placeholder_names_like_code(tmp_path: Any, numexpr_spy: list[Any]) -> None:
    target = tmp_path / "pwned"
    name = f"__import__('os').system('touch {target}')"
    x = lt.placeholder((100,), np.float64, name=name)
    f = lt.function([x], lt.exp(x) * 2.0 + x)
    with lt.set_options(backend="numexpr"):
        out = f(np.linspace(0, 1, 100))
    out = out[0] if isinstance(out, (tuple, list)) else out
    np.testing.assert_allclose(out, np.exp(np.linspace(0, 1, 100)) * 2 + np.linspace(0, 1, 100))
    assert not target.exists()
    assert all(name not in ex for ex, _ in numexpr_spy)


# ------------------------------------------------------------------ bad input

T = lt.asarray(np.arange(6.0).reshape(2, 3))
O = object()
U5 = np.array(["a"], dtype="U5")
OBJ = np.array([None], dtype=object)

# (function name that the message must mention, call).  "asarray" is accepted
# for operands that cannot become arrays: the message then names the operand.
BAD: list[tuple[str, str, Callable[[], Any]]] = [
    ("sqrt-str", "asarray", lambda: lt.sqrt("abc")),
    ("sqrt-None", "asarray", lambda: lt.sqrt(None)),
    ("sqrt-object", "asarray", lambda: lt.sqrt(O)),
    ("sqrt-ragged", "asarray", lambda: lt.sqrt([1, [2, 3]])),
    ("sqrt-U5", "asarray", lambda: lt.sqrt(U5)),
    ("sqrt-objarray", "asarray", lambda: lt.sqrt(OBJ)),
    ("sqrt-dict", "asarray", lambda: lt.sqrt({})),
    ("add-str", "asarray", lambda: lt.add(T, "abc")),
    ("add-None", "asarray", lambda: lt.add(T, None)),
    ("op-str", "asarray", lambda: T + "abc"),
    ("rop-str", "asarray", lambda: "abc" + T),
    ("op-object", "asarray", lambda: T * O),
    ("op-mixed-list", "asarray", lambda: T + [1, "a"]),
    ("op-U-array", "asarray", lambda: T + np.array(["a", "b", "c"])),
    ("bitwise-float", "bitwise_and", lambda: lt.bitwise_and(T, T)),
    ("add-arity", "add", lambda: lt.add(T)),
    ("zeros-str", "zeros", lambda: lt.zeros("abc")),
    ("zeros-negative", "zeros", lambda: lt.zeros((2, -1))),
    ("zeros-U5", "zeros", lambda: lt.zeros(3, dtype="U5")),
    ("zeros-object", "zeros", lambda: lt.zeros(3, dtype=object)),
    ("ones-None", "ones", lambda: lt.ones(None)),
    ("empty-str", "empty", lambda: lt.empty("x")),
    ("full-str", "full", lambda: lt.full((2,), "x")),
    ("full-None", "full", lambda: lt.full((2,), None)),
    ("full_like-str", "full", lambda: lt.full_like(T, "x")),
    ("ones_like-U5", "ones", lambda: lt.ones_like(T, dtype="U5")),
    ("arange-str", "arange", lambda: lt.arange("a")),
    ("arange-None", "arange", lambda: lt.arange(None)),
    ("arange-zero-step", "arange", lambda: lt.arange(0, 10, 0)),
    ("arange-U5", "arange", lambda: lt.arange(5, dtype="U5")),
    ("linspace-negative", "linspace", lambda: lt.linspace(0, 1, -1)),
    ("linspace-str", "linspace", lambda: lt.linspace("a", 1)),
    ("linspace-float-num", "linspace", lambda: lt.linspace(0, 1, 1.5)),
    ("eye-negative", "eye", lambda: lt.eye(-1)),
    ("eye-str", "eye", lambda: lt.eye("a")),
    ("eye-U5", "eye", lambda: lt.eye(2, dtype="U5")),
    ("identity-None", "eye", lambda: lt.identity(None)),
    ("asarray-str", "asarray", lambda: lt.asarray("abc")),
    ("asarray-None", "asarray", lambda: lt.asarray(None)),
    ("asarray-object", "asarray", lambda: lt.asarray(O)),
    ("asarray-ragged", "asarray", lambda: lt.asarray([1, [2, 3]])),
    ("asarray-dtype-U5", "asarray", lambda: lt.asarray([1, 2], dtype="U5")),
    ("asarray-dtype-object", "asarray", lambda: lt.asarray([1, 2], dtype=object)),
    ("asarray-datetime", "asarray", lambda: lt.asarray(np.array(["2020-01-01"], "M8[D]"))),
    ("asarray-struct", "asarray", lambda: lt.asarray(np.zeros(2, dtype=[("a", "f8")]))),
    ("array-str", "asarray", lambda: lt.array("abc")),
    ("sum-axis-range", "sum", lambda: lt.sum(T, axis=5)),
    ("sum-axis-str", "sum", lambda: lt.sum(T, axis="a")),
    ("sum-axis-repeat", "sum", lambda: lt.sum(T, axis=(0, 0))),
    ("sum-axis-float", "sum", lambda: lt.sum(T, axis=1.5)),
    ("sum-dtype-U5", "sum", lambda: lt.sum(T, dtype="U5")),
    ("mean-dtype-object", "mean", lambda: lt.mean(T, dtype=object)),
    ("prod-dtype-bad", "prod", lambda: lt.prod(T, dtype="nonsense")),
    ("argmax-tuple", "argmax", lambda: lt.argmax(T, axis=(0, 1))),
    ("argmax-range", "argmax", lambda: lt.argmax(T, axis=9)),
    ("cumsum-axis", "cumulative_sum", lambda: lt.cumsum(T, axis=3)),
    ("cumsum-dtype", "cumsum", lambda: lt.cumsum(T, axis=0, dtype="U5")),
    ("var-ddof-str", "var", lambda: lt.var(T, ddof="a")),
    ("min-empty", "min", lambda: lt.min(lt.zeros((0,)))),
    ("method-axis-str", "sum", lambda: T.sum(axis="a")),
    ("reshape-str", "reshape", lambda: lt.reshape(T, "a")),
    ("reshape-size", "reshape", lambda: lt.reshape(T, (7,))),
    ("reshape-two-unknown", "reshape", lambda: lt.reshape(T, (-1, -1))),
    ("reshape-None", "reshape", lambda: lt.reshape(T, None)),
    ("reshape-float", "reshape", lambda: T.reshape((1.5, 4))),
    ("transpose-short", "transpose", lambda: lt.transpose(T, (0,))),
    ("transpose-repeat", "transpose", lambda: lt.transpose(T, (0, 0))),
    ("transpose-str", "transpose", lambda: lt.transpose(T, "ab")),
    ("permute_dims-short", "permute_dims", lambda: lt.permute_dims(T, (1,))),
    ("broadcast_to-small", "broadcast_to", lambda: lt.broadcast_to(T, (1,))),
    ("broadcast_to-str", "broadcast_to", lambda: lt.broadcast_to(T, "ab")),
    ("broadcast_to-None", "broadcast_to", lambda: lt.broadcast_to(T, None)),
    ("expand_dims-range", "expand_dims", lambda: lt.expand_dims(T, 5)),
    ("expand_dims-str", "expand_dims", lambda: lt.expand_dims(T, "a")),
    ("squeeze-not-one", "squeeze", lambda: lt.squeeze(T, 0)),
    ("swapaxes-range", "swapaxes", lambda: lt.swapaxes(T, 0, 9)),
    ("moveaxis-range", "moveaxis", lambda: lt.moveaxis(T, 0, 9)),
    ("flip-range", "flip", lambda: lt.flip(T, 5)),
    ("index-str", "getitem", lambda: T["a"]),
    ("index-float", "getitem", lambda: T[1.5]),
    ("index-too-many", "getitem", lambda: T[None, 0, 0, 0]),
    ("index-array-range", "getitem", lambda: T[[0, 9]]),
    ("index-str-in-tuple", "getitem", lambda: T[:, "x"]),
    ("index-object", "getitem", lambda: T[O]),
    ("index-dict", "getitem", lambda: T[{}]),
    ("index-range", "getitem", lambda: T[5]),
    ("setitem-str-index", "setitem", lambda: T.__setitem__("a", 1)),
    ("setitem-str-value", "setitem", lambda: T.__setitem__(0, "x")),
    # (None into floats is NaN, as NumPy stores it; into integers NumPy's TypeError)
    ("setitem-None-value", "setitem",
     lambda: lt.asarray(np.arange(6)).__setitem__(0, None)),
    ("setitem-shape", "setitem", lambda: T.__setitem__(0, np.ones(5))),
    ("matmul-str", "asarray", lambda: lt.matmul(T, "a")),
    ("matmul-shape", "matmul", lambda: lt.matmul(T, lt.ones(7))),
    ("matmul-None", "asarray", lambda: T @ None),
    ("tensordot-axes-str", "tensordot", lambda: lt.tensordot(T, T, axes="a")),
    ("tensordot-axes-None", "tensordot", lambda: lt.tensordot(T, T, axes=None)),
    ("einsum-not-str", "einsum", lambda: lt.einsum(5, T)),
    ("einsum-output", "einsum", lambda: lt.einsum("ij->k", T)),
    ("einsum-operands", "einsum", lambda: lt.einsum("ij", T, T)),
    ("einsum-char", "einsum", lambda: lt.einsum("i$->i", T)),
    ("concat-scalar", "concat", lambda: lt.concat(5)),
    ("concat-ndim", "concat", lambda: lt.concat([T, lt.ones((9,))])),
    ("concat-axis-str", "concat", lambda: lt.concat([T, T], axis="a")),
    ("concat-empty", "concat", lambda: lt.concat([])),
    ("stack-empty", "stack", lambda: lt.stack([])),
    ("stack-str", "stack", lambda: lt.stack("ab")),
    ("take-str", "take", lambda: lt.take(T, "a")),
    ("take-float", "take", lambda: lt.take(T, np.array([1.5]))),   # (a list is truncated, as NumPy)
    ("where-str", "asarray", lambda: lt.where(T, "a", 1)),
    ("where-cond-str", "asarray", lambda: lt.where("a", T, T)),
    ("where-one-arg", "where", lambda: lt.where(T, 1)),        # (x without y)
    ("astype-U5", "astype", lambda: lt.astype(T, "U5")),
    ("astype-object", "astype", lambda: lt.astype(T, object)),
    ("astype-nonsense", "astype", lambda: lt.astype(T, "nonsense")),
    ("round-str", "round", lambda: lt.round(T, "a")),
    ("clip-str", "asarray", lambda: lt.clip(T, "a")),
    ("repeat-str", "repeat", lambda: lt.repeat(T, "a")),
    ("repeat-negative", "repeat", lambda: lt.repeat(T, -1)),
    ("tile-str", "tile", lambda: lt.tile(T, "a")),
    ("split-uneven", "split", lambda: lt.split(T, 5)),
    ("split-str", "split", lambda: lt.split(T, "a")),
    ("diagonal-axis", "diagonal", lambda: lt.diagonal(T, axis1=5)),
    ("trace-offset-str", "trace", lambda: lt.trace(T, offset="a")),
    ("vecdot-shape", "vecdot", lambda: lt.vecdot(T, lt.ones(4))),
    ("outer-str", "outer", lambda: lt.outer(T, "a")),
    ("set_options-backend", "backend", lambda: lt.set_options(backend="evil")),
    ("set_options-optimize", "optimize", lambda: lt.set_options(optimize="yes")),
    ("set_options-unknown", "option", lambda: lt.set_options(nope=1)),
    ("set_options-memory", "memory_limit", lambda: lt.set_options(memory_limit=-1)),
    ("compute-str", "asarray", lambda: lt.compute("abc")),
    ("compute-None", "asarray", lambda: lt.compute(None)),
    ("float-of-matrix", "float", lambda: float(T)),
    ("bool-of-matrix", "truth value", lambda: bool(T)),
]
ALLOWED = (TypeError, ValueError, IndexError, OverflowError,
           ZeroDivisionError)      # (NumPy's arange with a zero step)


@pytest.mark.parametrize("what,call", [pytest.param(w, c, id=i) for i, w, c in BAD])
def test_bad_arguments_raise_clear_errors(what: str, call: Callable[[], Any]) -> None:
    with pytest.raises(ALLOWED) as ei:
        call()
    e = ei.value
    msg = str(e)
    assert what in msg, f"{type(e).__name__}: {msg!r} does not mention {what!r}"
    # Raised by lazyten's own checks, not deep inside NumPy with NumPy's wording.
    frames = traceback.extract_tb(e.__traceback__)
    assert frames[-1].filename.startswith(PKG), (
        f"{type(e).__name__}: {msg!r} raised at {frames[-1].filename}:{frames[-1].lineno}")


def test_every_public_elementwise_function_rejects_garbage() -> None:
    """Every generated elementwise function: strings, None, objects, U5 and object
    arrays are refused with a TypeError naming the operand, never deep in NumPy."""
    t = lt.asarray(np.arange(3.0))
    for name in sorted(lt.functions.ELEMENTWISE):
        fn = getattr(lt, name)
        arity = REGISTRY[fn.__name__].arity or 1
        for bad in ("abc", None, O, U5, OBJ):
            args = [bad] + [t] * (arity - 1)
            with pytest.raises((TypeError, ValueError)) as ei:
                fn(*args)
            frames = traceback.extract_tb(ei.value.__traceback__)
            assert frames[-1].filename.startswith(PKG), (name, bad, str(ei.value))


def test_input_names_that_look_like_generated_names() -> None:
    """Inputs named like lazyten's own kernel operands are not confused with them."""
    a_np, b_np = np.linspace(0, 1, 1000), np.linspace(2, 3, 1000)
    with lt.set_options(optimize=True, backend="numexpr"):
        a = lt.asarray(a_np, name="i1")
        b = lt.asarray(b_np, name="i0")
        c = lt.asarray(a_np * 3, name="c0")
        (got,) = lt.compute(a - b * 2.0 + c / (b + 1.5))
    np.testing.assert_allclose(got, a_np - b_np * 2.0 + a_np * 3 / (b_np + 1.5), rtol=1e-12)


# ------------------------------------------------------------------ safe I/O


class _Evil:
    """Unpickling this runs a command: a hostile .npy/.npz payload."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> Any:
        return (os.system, (f"touch {self.path}",))


def test_load_never_unpickles(tmp_path: Any) -> None:
    target = tmp_path / "pwned"
    payload = np.array([_Evil(str(target)), 1], dtype=object)
    npy, npz = tmp_path / "evil.npy", tmp_path / "evil.npz"
    np.save(npy, payload, allow_pickle=True)
    np.savez(npz, x=payload, y=np.arange(3))
    with pytest.raises(ValueError):
        lt.load(npy)
    with pytest.raises(ValueError):
        out = lt.load(npz)
        for v in (out.values() if isinstance(out, dict) else [out]):
            np.asarray(v)
    assert not target.exists()


def test_save_load_roundtrip_is_data(tmp_path: Any) -> None:
    a = np.arange(6.0).reshape(2, 3)
    lt.save(tmp_path / "a.npy", lt.asarray(a) * 2)
    raw = (tmp_path / "a.npy").read_bytes()
    assert raw.startswith(b"\x93NUMPY") and b"pickle" not in raw
    np.testing.assert_array_equal(lt.load(tmp_path / "a.npy").eval(), a * 2)
    with pytest.raises((TypeError, ValueError)):
        lt.save(tmp_path / "b.npy", np.array([object()], dtype=object))


def test_array_copy_false_or_none_of_a_tensor_as_numpys() -> None:
    """``np.array(a, copy=False)`` is ``a`` (writes reach it) and refuses a
    cast; ``copy=None`` copies only to cast; ``copy=True`` always."""
    t = lt.arange(3.0) * 1
    assert lt.array(t, copy=False) is t and lt.array(t, copy=None) is t
    w = lt.array(t, copy=False, ndmin=2)         # a view of t
    w[0, 1] = 7.0
    assert t.eval().tolist() == [0.0, 7.0, 2.0]
    with pytest.raises(ValueError):
        lt.array(t, dtype=np.float32, copy=False)
    c = lt.array(t, dtype=np.float32, copy=None)
    assert c.dtype == np.float32
    d = lt.array(t)
    d[0] = 5.0
    assert t.eval().tolist() == [0.0, 7.0, 2.0]


IDENTITIES: list[Callable[[Any], Any]] = [
    lambda t: t * 1, lambda t: 1 * t, lambda t: -(-t), lambda t: t.astype(t.dtype),
    lambda t: t / 1, lambda t: t ** 1, lambda t: t - 0]


def test_identities_of_an_input_are_new_arrays(engine: Any) -> None:
    """``x * 1`` of a user's array is a new array, as NumPy's: handed out
    by ``lt.compute`` beside another output, writing it leaves the user's
    array alone; cached by ``.eval()``, it does not follow later changes
    of the array."""
    for make in IDENTITIES:
        arr = np.arange(6.0)
        x = lt.asarray(arr)
        a, _ = lt.compute(make(x), x + 1)
        a[0] = 100.0
        assert arr[0] == 0.0
        t = make(x)
        t.eval()
        u = t + 0.5
        arr[0] = 100.0
        assert t.eval()[0] == 0.0 and u.eval()[0] == 0.5


def test_identities_keep_numpys_layout_for_the_sums_after_them(engine: Any) -> None:
    """NumPy's ``x * 1`` of a reversed or Fortran-ordered array is a new
    array in memory order, whose float sum adds in another order than the
    sum of the view itself: the identity must not be dropped there."""
    rng = np.random.default_rng(0)
    base = rng.random((3000, 40)).astype(np.float32)
    for n in (base[::-1], np.asfortranarray(base), base[:, ::-3]):
        for make in IDENTITIES:
            same_bits(lt.compute(make(lt.asarray(n)).sum())[0], make(n).sum())
            same_bits(lt.compute(make(lt.asarray(n)).sum(axis=0))[0], make(n).sum(axis=0))
