"""The user-facing ``Tensor``: a mutable handle to an immutable graph node.

Every operation builds a node through ``apply`` (shape and dtype inferred on
the spot); nothing is computed until a result is forced.  A handle can be
rebound: writes (``t[i] = v``, ``t += 1``) make a new version of the data as
a new node (functionalization), so graphs built before the write keep the old
value, exactly as eager NumPy would.

A tensor made by a view op (slicing, reshape, transpose, ...) remembers its
*root* tensor and the chain of view ops from it.  Writing through the view
rebinds the root to an updated node, and every view of that root re-derives
its node from the root's current version when next used.
"""

from __future__ import annotations

import array
import functools
import inspect
import math
import numbers as numbers_abc
import operator
import os
import pickle
import sys
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from sys import _getframe
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np

from .exec.executor import cache, evaluate
from .graph import ops
from .graph import shapes as S
from .graph.layout import (copied, infer, is_dense, layout_known, layout_stand_in, relaid,
                           replay_views, write_order)
from .graph.node import (NO_LINES, Node, _lines, _symbolic_placeholders, entered,
                         intern_elementwise, reaches_placeholder, user_source)

ViewStep = tuple[str, tuple[tuple[str, Any], ...]]

_SCALARS = (bool, int, float, complex)
# Python's sequences that an integer scalar repeats (``[0] * t[3]``).
# Python's sequences NumPy's integer scalars repeat (``[0] * np.int64(3)``),
# subclasses too (a namedtuple, a list subclass): types with sequence
# repetition and no multiplication of their own.
_SEQUENCES = (list, tuple, str, bytes, bytearray, array.array)
# The view steps of an ``element`` (a root-less tensor has none otherwise).
_ELEMENT: tuple[ViewStep, Any] = (("element", ()), None)
# The mark of a 0-d root NumPy holds as an array though its value is
# computed (``np.asarray(t.sum())``, a 0-d array written in place): not a
# scalar (``Tensor._is_scalar``), so in-place operators write it.
_ARRAY0: tuple[ViewStep, Any] = (("array", ()), None)
_new = object.__new__


# ------------------------------------------------------------ operator methods
#
# Operators build most nodes, and on small arrays Python calls are what
# building costs, so each operator method is made here with the common case
# written out: a tensor with a tensor or a Python int or float, read without
# the usual helper calls, and an attribute-less elementwise node made from the
# inputs' summaries when its structure was built before (``intern_elementwise``:
# no inference).  Anything else takes the general path: ``Tensor._bin`` (NumPy's
# deferral protocol, other operand types) and ``ops.build`` (inference, errors).

def _plain(spec: ops.OpSpec) -> bool:
    """Whether ``intern_elementwise`` can build ``spec``'s nodes."""
    return spec.kind == "elementwise" and spec.dtype is None and spec.arity in (1, 2)


_POWER_AS_FAST = frozenset(np.dtype(d) for d in ("float32", "float64"))
_POWER_KEPT = _POWER_AS_FAST | frozenset(np.dtype(d) for d in np.typecodes["AllInteger"])


def _fast_power(dt: np.dtype[Any], t: type, o: Any) -> str | None:
    """The ufunc ``ndarray ** o`` calls instead of ``power`` (NumPy's
    ``fast_scalar_power``, for the operator, not ``np.power``), where its
    result differs from ``power``'s; else None, and the graph keeps the
    ``power`` the user wrote.

    NumPy calls ``square`` for a Python int 2, and for a float or complex
    array ``reciprocal`` for a Python int -1 and ``sqrt`` for a Python float
    0.5.  Integer power and NumPy's float32/64 power loop compute those
    exponents the same way (simplify then rewrites them as that very
    computation); complex power does not (``(-4+0j) ** 0.5`` is ``2j``,
    ``power`` gives ``1.2e-16+2j``), nor float16's, computed in float32
    (``-inf ** 0.5``: nan, ``power``: inf), nor bool's (``square`` is int8,
    ``power`` int64).
    """
    if t is int and o == 2:
        name = "square"
    elif t is int and o == -1 and dt.kind in "fc":
        name = "reciprocal"
    elif t is float and o == 0.5 and dt.kind in "fc":
        name = "sqrt"
    else:
        return None
    return None if dt in _POWER_AS_FAST or dt.kind in "iu" else name


# ``t.view()``'s default: the same dtype, where ``t.view(None)`` is float64.
_SAME: Any = object()


def _is_array_class(x: Any) -> bool:
    """Whether ``x`` is an ndarray class (``a.view(np.matrix)``), not a dtype."""
    return isinstance(x, type) and issubclass(x, np.ndarray)


# Writes read a tensor's current version, build the new one on it and rebind
# the tensor to it: two threads writing one tensor at once (each its own
# element, as NumPy allows) would lose one's write.  One lock (reentrant: a
# write may make another, ``t[0] += 1``) makes each write whole.
_WRITES = threading.RLock()


def writes(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``fn``, a write to a tensor (read, build, rebind), whole: no other
    thread's write to any tensor comes between (``_WRITES``)."""
    @functools.wraps(fn)
    def whole(*args: Any, **kwargs: Any) -> Any:
        with _WRITES:
            return fn(*args, **kwargs)
    return whole


def _binary_method(name: str, reflected: bool = False) -> Callable[[Tensor, Any], Tensor]:
    spec = ops.REGISTRY[name]
    plain = _plain(spec)
    const = ops.const
    consts = ops._weak_consts     # (const's own table: a literal's node, found without a call)
    fast_power = name == "pow" and not reflected

    def method(self: Tensor, o: Any) -> Tensor:
        t = type(o)
        if t is not Tensor and t is not int and t is not float:
            return self._bin(name, o, reflected)
        f = _getframe(1)                     # user_source's first step, without its call
        src = _lines.get(id(f.f_code), NO_LINES).get(f.f_lasti) or user_source()
        a = self._n if self._root is None else self._node
        # (float32/64 and integers, the common case, keep power: one test)
        fast = _fast_power(a.dtype, t, o) if fast_power and a.dtype not in _POWER_KEPT \
            else None
        if fast is not None:
            uspec = ops.REGISTRY[fast]
            node = intern_elementwise(uspec, (a,), src, False) if a.skey else None
            if node is None:
                node = ops.build(fast, (entered(a),), {}, src)
        else:
            if t is Tensor:
                b = o._n if o._root is None else o._node
            else:
                b = consts.get(("const", int, o)) if t is int else None
                if b is None:
                    b = const(o, src)
            ins = (b, a) if reflected else (a, b)
            node = intern_elementwise(spec, ins, src, False) if plain and a.skey and b.skey \
                else None
            if node is None:
                node = ops.build(name, (entered(ins[0]), entered(ins[1])), {}, src)
        res = _new(Tensor)                   # Tensor(node), without the call of __init__
        res._n = node                        # (a store a statement: no tuple)
        res._root = None
        res._steps = None
        res._root_node = None
        return res

    method.__name__ = method.__qualname__ = f"{name}{' (reflected)' if reflected else ''}"
    method.__doc__ = f"Elementwise ``{name}``, lazily" + (", operands swapped." if reflected else ".")
    return method


def _unary_method(name: str) -> Callable[..., Tensor]:
    """The method for a unary operator; ``lt.sin(t)`` and the like call it
    too, for a tensor ``t``, passing their caller's line as ``src``."""
    spec = ops.REGISTRY[name]
    plain = _plain(spec)

    def method(self: Tensor, src: tuple[str, int] | None = None) -> Tensor:
        if src is None:
            f = _getframe(1)
            src = _lines.get(id(f.f_code), NO_LINES).get(f.f_lasti) or user_source()
        ins = (self._n if self._root is None else self._node,)
        node = intern_elementwise(spec, ins, src, False) if plain and ins[0].skey else None
        if node is None:
            node = ops.build(name, (entered(ins[0]),), {}, src)
        res = _new(Tensor)                   # Tensor(node), without the call of __init__
        res._n = node                        # (a store a statement: no tuple)
        res._root = None
        res._steps = None
        res._root_node = None
        return res

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Elementwise ``{name}``, lazily."
    return method


# ``==`` and ``!=`` of a tensor with a tensor or a number, as the other
# operators are made (``Tensor._compare`` has the other operands).
_equal = _binary_method("equal")
_not_equal = _binary_method("not_equal")


class Tensor:
    """A lazy n-dimensional array.

    >>> import lazyten as lt
    >>> t = lt.asarray([1.0, 2.0, 3.0]) * 2 + 1
    >>> t.shape, t.dtype
    ((3,), dtype('float64'))
    >>> t.eval()
    array([3., 5., 7.])
    """

    __slots__ = ("_n", "_root", "_steps", "_root_node", "_seen", "_tentative",
                 "__weakref__")

    # ndarray op Tensor -> NumPy defers to our reflected operators / __array_ufunc__.
    __array_priority__ = 1000.0

    _n: Node
    _root: Tensor | None
    # The view steps from the root, newest first, as a linked list
    # ``(step, older_steps)``: taking a view is O(1) however long the chain
    # (a tuple copied per view made a 100,000-view chain quadratic).
    _steps: tuple[ViewStep, Any] | None
    _root_node: Node | None
    # (a view's: ``_copies_made`` when it last looked for a copy to adopt)
    _seen: int
    # (a view's: whether its chain holds a reshape taken as a view on a
    # layout not known then, which NumPy's may copy: ``functions.reshape``)
    _tentative: bool

    if TYPE_CHECKING:
        # The methods that are module functions, set on the class by
        # ``lazyten._attach_methods`` (``functions.METHODS``): any name, to mypy.
        def __getattr__(self, name: str) -> Any: ...

    def __init__(self, node: Node, root: Tensor | None = None,
                 path: tuple[ViewStep, ...] = ()) -> None:
        self._n = node
        self._root = root
        if root is None:                 # nearly every tensor: an operator's result
            self._steps = self._root_node = None
            return
        steps: tuple[ViewStep, Any] | None = None
        for st in path:
            steps = (st, steps)
        self._steps = steps
        self._root_node = root._node
        self._seen = _copies_made[0]
        self._tentative = False

    @property
    def _path(self) -> tuple[ViewStep, ...]:
        """The view steps from the root to this tensor, oldest first."""
        out: list[ViewStep] = []
        s = self._steps
        while s is not None:
            out.append(s[0])
            s = s[1]
        return tuple(reversed(out))

    # ------------------------------------------------------------ node and versions
    @property
    def _node(self) -> Node:
        root = self._root
        if root is None:
            n = self._n
            if n.pending:              # made by an operator: enter it now
                n = self._n = entered(n)
            return n
        if self._seen != _copies_made[0] and self._adopt_copy():
            return self._node
        rn = root._node
        if rn is not self._root_node:
            # The root was written to since this view was taken: replay the
            # view chain on the root's current version, unless a reshape in
            # it copied the version it was taken of (``_copy_link``): then
            # this tensor keeps those values, as NumPy's copy does.
            old = self._root_node
            if old is not None:
                link = _copy_link(old, self._steps)
                if link is not None:
                    self._copied(old, link)
                    return self._node
            n = rn
            for name, attrs in self._path:
                n = ops.apply(name, [n], **dict(attrs))
            self._n = n
            self._root_node = rn
        return self._n

    @property
    def _head(self) -> Node:
        """This tensor's node, perhaps pending (not yet entered in the intern
        table: ``graph.node.entered``), for the evaluator."""
        return self._n if self._root is None else self._node

    def _view(self, name: str, **attrs: Any) -> Tensor:
        # (no write between reading the root's version for the view's node
        # and for its record: a view of old data recorded as of the new
        # version was never replayed, and a write through it lost others')
        with _WRITES:
            node = ops.build(name, (self._node,), attrs, user_source())
            root = self._root
            if root is None:
                root = self
            view = _new(Tensor)              # Tensor(node, root), without __init__'s call
            view._root_node = root._node
        a = node.attrs                       # (most views have one attribute: no sort)
        step: ViewStep = (name, tuple(a.items()) if len(a) < 2 else tuple(sorted(a.items())))
        view._n = node
        view._root = root
        # (a root's steps are none: an ``element``'s mark is no step)
        view._steps = (step, self._steps if self._root is not None else None)
        view._seen = _copies_made[0]
        view._tentative = self._root is not None and self._tentative
        return view

    def _write(self, new_value: Node, whole: bool = False) -> None:
        """Make ``new_value`` (same shape as self) the data of this tensor;
        ``whole``: it is every element's new value, read from nothing of the
        old (``t[...] = v``), so a layout to keep is a copy of it in that
        layout, not a write over the old value (which computed it)."""
        nv = new_value
        if nv.dtype != self.dtype:
            nv = ops.apply("astype", [nv], dtype=self.dtype)
        if nv.shape != self.shape:
            nv = ops.apply("broadcast_to", [nv], shape=self.shape)
        if self._root is None:
            order, known = infer(self._n)
            if order != "C" and whole and known and len(nv.shape) > 1 \
                    and is_dense(order, nv.shape, nv.dtype.itemsize):
                if infer(nv) != (order, True):
                    nv = ops.apply("layout_copy", [nv], order=order, dtype=nv.dtype)
            elif order != "C":
                # Keep a Fortran-ordered or strided root's layout, as NumPy's
                # in-place write does: reshapes of it stay copies (``write_order``).
                # (A write of part of a dense one copies it as it is laid out:
                # kept already, without a second copy each write; so is a
                # value computed before, laid out so: the interned write of
                # an earlier run of the same code, whose inputs its value
                # dropped.)
                ins = nv.inputs
                if not (known and is_dense(order, nv.shape, nv.dtype.itemsize)
                        and (nv.value is not None
                             or (nv.op.kind == "update" and ins and ins[0] is self._n))
                        and infer(nv) == (order, True)):
                    nv = ops.apply("view_update", [self._n, nv], path=(), order=order)
            elif known and len(nv.shape) > 1 and infer(nv) != ("C", True):
                # and a C one's (``y[...] = x.T * 2`` writes y's C buffer):
                # the new value, of another layout or one known when it
                # runs, is copied in C order
                nv = ops.apply("layout_copy", [nv], order="C", dtype=nv.dtype)
            self._n = nv
            if not nv.shape:
                # (what is written is an array, even as an operation's value)
                self._steps = _ARRAY0
            _note_state(self)
            return
        # Where NumPy's reshape of this data copied, the write goes to the
        # copy (``r = y.reshape(-1); r[0] = 1`` leaves ``y``)
        self._settle_view()
        root = self._root
        if root is None:
            self._write(nv)
            return
        rn = root._node
        order = write_order(rn)
        layout = {} if order == "C" else {"order": order}
        root._write_root(ops.apply("view_update", [rn, nv], path=self._path, **layout))

    def _settle_view(self) -> None:
        """Sync this view with its root (``_node``), and where a reshape in
        its chain copies the root's data as laid out (``_copy_link``),
        become that copy or a view of it (``_copied``)."""
        self._node
        root = self._root
        while root is not None:              # (a copy's own reshapes may copy too)
            rn = root._node
            link = _copy_link(rn, self._steps)
            if link is None:
                return
            self._copied(rn, link)
            self._node
            root = self._root

    def _settle_tentative(self) -> None:
        """Where this view was taken as one on a layout not known then
        (``_tentative``) and the layout is known now, become NumPy's: the
        copy a reshape in its chain was, or a view of it (``_settle_view``),
        before a decision that reads this view's own layout (a reshape of
        it, ``ravel("K")``)."""
        if self._root is not None and self._tentative and layout_known(self._root._node):
            self._settle_view()
            if self._root is not None:
                self._tentative = False

    def _copied(self, rn: Node, link: tuple[ViewStep, Any]) -> None:
        """The reshape at ``link`` of this view's chain copies the root's
        data ``rn`` (``_copy_link``): the chain up to it becomes a tensor
        of its own, the copy, over ``rn`` (this one, where that is the
        whole chain), which every view through that reshape adopts as its
        root (``_adopt_copy``), so that they share its writes, as the views
        of NumPy's copy do."""
        upto = []
        above = []
        step = self._steps
        while step is not link:
            assert step is not None
            above.append(step[0])
            step = step[1]
        while step is not None:
            upto.append(step[0])
            step = step[1]
        n = rn
        for name, attrs in reversed(upto):
            n = ops.apply(name, [n], **dict(attrs))
        with _copies_lock:
            # (a sibling view read in another thread may have made the copy
            # since this one looked: one copy, shared)
            hit = _copies.get(id(link))
            if hit is not None and hit[0] is link:
                if hit[1] is not self:
                    self._rebase(hit[1], above)
                return
            if above:
                copy = Tensor(n)
                self._rebase(copy, above)
            else:
                copy = self
                self._root = self._steps = self._root_node = None
                self._n = n
            _register_copy(link, copy)

    def _adopt_copy(self) -> bool:
        """Take as root the copy a reshape in this view's chain turned out
        to be (``_copied``), if one did; whether it did."""
        self._seen = _copies_made[0]
        if not _copies or not self._tentative:
            return False                     # (copies are made of tentative reshapes only)
        above: list[ViewStep] = []
        link = self._steps
        while link is not None:
            hit = _copies.get(id(link))
            if hit is not None and hit[0] is link:
                if hit[1] is self:
                    return False
                self._rebase(hit[1], above)
                return True
            above.append(link[0])
            link = link[1]
        return False

    def _rebase(self, root: Tensor, above: list[ViewStep]) -> None:
        """Become the view ``above`` (its steps, newest first) of ``root``;
        none: a reshape to this shape, a view of all of it."""
        if not above:
            # (the shape a view was built with, not ``self.shape``: that
            # reads ``_node``, which may settle this view again, reentering)
            above = [("reshape", (("shape", self._n.shape),))]
        steps: tuple[ViewStep, Any] | None = None
        for st in reversed(above):
            steps = (st, steps)
        self._root = root
        self._steps = steps
        self._root_node = None
        self._seen = _copies_made[0]

    def _write_root(self, node: Node) -> None:
        if self._root is not None:  # pragma: no cover - roots have no root
            raise AssertionError("not a root")
        self._n = node
        _note_state(self)

    # ------------------------------------------------------------ metadata
    @property
    def shape(self) -> tuple[int, ...]:
        return self._node.shape

    # NumPy 2.5 deprecates setting ``shape`` and ``dtype`` in place (a shared
    # array changed under its other users); a tensor refuses both, naming the
    # spelling that makes a new view as NumPy's deprecation message does.
    @shape.setter
    def shape(self, value: Any) -> None:
        raise AttributeError(
            f"a tensor's shape cannot be set in place (NumPy 2.5 deprecates it): use "
            f"t = t.reshape({value!r}, copy=False), a view or an error as the setter was")

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._node.dtype

    @dtype.setter
    def dtype(self, value: Any) -> None:
        try:
            spelled = repr(np.dtype(value).name)
        except TypeError:
            spelled = repr(value)
        raise AttributeError(
            f"a tensor's dtype cannot be set in place (NumPy 2.5 deprecates it): use "
            f"t = t.view({spelled}), a view of the same data")

    @property
    def ndim(self) -> int:
        return len(self._node.shape)

    @property
    def size(self) -> int:
        return self._node.size

    @property
    def nbytes(self) -> int:
        return self._node.nbytes

    @property
    def itemsize(self) -> int:
        return self._node.dtype.itemsize

    @property
    def device(self) -> str:
        return "cpu"

    @property
    def node(self) -> Node:
        """The graph node this handle currently points to."""
        return self._node

    def __array_namespace__(self, api_version: str | None = None) -> Any:
        if api_version not in (None, "2021.12", "2022.12", "2023.12"):
            raise ValueError(f"lazyten follows the array API standard 2023.12 (and the "
                             f"versions before it), not {api_version!r}")
        import lazyten
        return lazyten

    def to_device(self, device: Any, /, *, stream: Any = None) -> Tensor:
        check_device(device, "to_device")
        return self

    def __dlpack__(self, **kwargs: Any) -> Any:
        # The computed value's (a copy of its own, so the consumer may keep it).
        return self.eval().__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)                        # (kDLCPU, device 0)

    # ------------------------------------------------------------ forcing
    def eval(self) -> np.ndarray[Any, Any]:
        """Compute (or reuse the cached value) and return a new ndarray.

        The value is cached on the node, so later graphs that use this tensor
        start from it; the returned array is the caller's own copy, so
        changing it never changes later results.
        """
        node = self._node
        keep: list[Node] = []
        if node.value is None:
            keep = _recomputed((node,))
            if node.op.kind != "view" and node.layout is None and node.shape:
                # NumPy's layout, inferred before the value is kept: the
                # executor may lay it out otherwise (a transpose between
                # fused ops, a written strided array's dense copy), and
                # later view decisions must stay NumPy's
                infer(node)
        (v,) = _evaluate_keeping((node,), keep)
        if node.op.kind == "view":
            # NumPy's copy of the view (``tile``'s broadcast: C), laid out
            # by the layout NumPy's data has, not the executor's buffer's
            # (a written transposed root computed C: its view's copy was C)
            want, known = infer(node)
            out = relaid(v, want) if known else v
            return copied(v) if out is v else out
        if node.layout is not None and node.value is None:
            # (and the value kept is laid out so too, as NumPy's: its flags,
            # the order a later float sum over it adds in)
            v = relaid(v, node.layout)
        cache(node, v)
        return np.array(v, copy=True)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        # (``eval`` hands out a fresh array of the tensor's dtype: no copy
        # beyond it, whatever ``copy`` says, except to change the dtype,
        # which ``copy=False`` forbids, as for an ndarray)
        v = self.eval()
        if dtype is not None and np.dtype(dtype) != v.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            v = v.astype(dtype)
        return v

    def item(self, *args: Any) -> Any:
        return self.eval().item(*args)

    def tolist(self) -> Any:
        return self.eval().tolist()

    def numpy(self) -> np.ndarray[Any, Any]:
        return self.eval()

    def _scalar(self, kind: str) -> np.ndarray[Any, Any]:
        # NumPy decides (2.4 accepts only 0-d arrays; older versions any size-1
        # array, with a DeprecationWarning); a bigger tensor fails before it runs.
        if self.size != 1:
            raise TypeError(f"only tensors of size 1 can be converted to Python {kind}, "
                            f"this one has shape {self.shape}")
        return self.eval()

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    # round(), math.trunc/floor/ceil of a 0-d tensor: NumPy's reductions and
    # element reads give NumPy scalars, which have them (``round(t.sum(), 2)``):
    # computed now, a NumPy scalar's answer.
    def _numpy_scalar(self, what: str) -> Any:
        if self.ndim:
            raise TypeError(f"{what}() of a tensor of shape {self.shape}: only a 0-d "
                            f"tensor is a number (use lt.round / lt.trunc ...)")
        return self.eval()[()]

    def __round__(self, ndigits: int | None = None) -> Any:
        v = self._numpy_scalar("round")
        return round(v) if ndigits is None else round(v, ndigits)

    def __trunc__(self) -> Any:
        return math.trunc(self._numpy_scalar("math.trunc"))

    def __floor__(self) -> Any:
        return math.floor(self._numpy_scalar("math.floor"))

    def __ceil__(self) -> Any:
        return math.ceil(self._numpy_scalar("math.ceil"))

    def __index__(self) -> int:
        if self.dtype.kind not in "iu" or self.ndim:
            raise TypeError(f"only integer scalar tensors can be converted to a scalar "
                            f"index, not {self.dtype}{list(self.shape)}")
        return operator.index(self.eval().item())

    def __contains__(self, value: Any) -> bool:
        # NumPy's rule: ``(self == value).any()``, computed now.
        return bool(self.__eq__(value).any())

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(f"the truth value of a tensor with {self.size} elements is "
                             f"ambiguous; use .any() or .all()")
        return bool(self.eval().reshape(()).item())

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self) -> Iterator[Any]:
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        value = self.eval()                 # iterating forces the tensor, once
        if self.ndim == 1:
            return self._elements(value)
        # Rows are views, as NumPy's: ``for row in t: row[0] = 1`` writes ``t``
        # (each row is taken when the loop reaches it, after earlier writes).
        return (self[i] for i in range(len(value)))

    @property
    def flat(self) -> FlatIter:
        """NumPy's ``flat``: the elements in C order, read (``t.flat[3]``,
        ``t.flat[::2]``, iteration) and written (``t.flat[idx] = v``, values
        repeated as ``put`` repeats them; ``t.flat = v``), through views too."""
        return FlatIter(self)

    @flat.setter
    def flat(self, value: Any) -> None:
        FlatIter(self)[...] = value

    def _elements(self, value: np.ndarray[Any, Any]) -> Iterator[Any]:
        # NumPy scalars (copies, as NumPy's), read live as NumPy's iteration
        # is: a write to the tensor during the loop is seen by the elements
        # after it (the value is computed again only then).
        node = self._node
        for i in range(len(value)):
            if self._node is not node:
                node, value = self._node, self.eval()
            yield value[i]

    def __repr__(self) -> str:
        from .printing import tensor_repr
        return tensor_repr(self)

    def __str__(self) -> str:
        from .printing import tensor_str
        return tensor_str(self)

    def __format__(self, spec: str) -> str:
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:                             # (NumPy's TypeError; nothing computed)
            raise TypeError("unsupported format string passed to lazyten.Tensor.__format__")
        return str(self)

    __hash__ = None  # type: ignore[assignment]  # like ndarray: == is elementwise

    # ------------------------------------------------------------ NumPy interop
    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        for a in inputs:   # (a masked tensor's own handler: np.add(t, m) is its)
            if type(a) is not Tensor and _defers(a):
                return NotImplemented
        name = _fn.UFUNC_OPS.get(ufunc)
        if method == "__call__" and name is not None and not kwargs:
            if ufunc in (np.equal, np.not_equal) and type(inputs[0]) is not Tensor:
                # ``ndarray == t``: symmetric, so compared as ``t == ndarray``
                # (which knows arrays of strings, dates and objects)
                return inputs[1]._compare(name, inputs[0], ufunc is np.not_equal)
            return _apply_elementwise(name, *inputs)
        # Keywords (dtype=, out=, where=, ...), the methods (np.add.reduce(t),
        # np.multiply.outer, np.add.at), the gufuncs (ndarray @ Tensor,
        # np.vecdot) and the two-output ufuncs (divmod(ndarray, Tensor)):
        # lazyten's function for the ufunc, which takes NumPy's call forms.
        twin = _fn.ufunc_twin(ufunc)
        call = twin if method == "__call__" or twin is None else getattr(twin, method, None)
        if call is not None:
            return call(*inputs, **kwargs)
        # Anything else (a ufunc lazyten has no op for, np.divmod.outer) runs
        # now in NumPy (``at`` writes its first operand); new arrays it
        # returns are tensors, as lazyten's results are.
        got = run_now(getattr(ufunc, method), *inputs, written=(0,) if method == "at" else (),
                      **kwargs)
        if kwargs.get("out") is not None or method == "at":
            return got
        if isinstance(got, tuple):
            return tuple(wrap(g) if isinstance(g, np.ndarray) else g for g in got)
        return wrap(got) if isinstance(got, np.ndarray) else got

    def __array_function__(self, func: Any, types: Any, args: tuple[Any, ...],
                           kwargs: dict[str, Any]) -> Any:
        # NEP 18: NumPy's function, given tensors, as lazyten's function of
        # the same name (lazy), or NumPy's run now on their values.  Another
        # library's array among the arguments is that library's to answer.
        for t in types:
            if not issubclass(t, (Tensor, np.ndarray)):
                return NotImplemented
        return _dispatch_call(func, args, kwargs)

    # ------------------------------------------------------------ operators
    def _bin(self, name: str, other: Any, reflected: bool = False) -> Tensor:
        if type(other) is not Tensor and _defers(other):
            return NotImplemented
        if name == "multiply" and isinstance(other, _SEQUENCES) \
                and self._is_scalar() and self.dtype.kind in "iub":
            # ``[0] * t[3]``, ``[0] * t.sum()``: NumPy's integer scalar
            # repeats a sequence (Python's, through ``__index__``); a bool
            # one is Python's TypeError
            return NotImplemented
        if isinstance(other, np.matrix) and name in ("multiply", "pow"):
            # np.matrix's ``*`` and ``**`` are matrix products, which its
            # operator leaves to a tensor (NotImplemented): elementwise here
            # would be silently other values
            raise TypeError(f"{name}: an np.matrix operand (shape {other.shape}) has matrix "
                            f"semantics a tensor does not follow; use lt.matmul / @, or "
                            f"np.asarray(m) for an array")
        if reflected:
            return _apply_elementwise(name, other, self)
        return _apply_elementwise(name, self, other)

    __add__ = _binary_method("add")
    __radd__ = _binary_method("add", reflected=True)
    __sub__ = _binary_method("subtract")
    __rsub__ = _binary_method("subtract", reflected=True)
    __mul__ = _binary_method("multiply")
    __rmul__ = _binary_method("multiply", reflected=True)
    __truediv__ = _binary_method("divide")
    __rtruediv__ = _binary_method("divide", reflected=True)
    __floordiv__ = _binary_method("floor_divide")
    __rfloordiv__ = _binary_method("floor_divide", reflected=True)
    __mod__ = _binary_method("remainder")
    __rmod__ = _binary_method("remainder", reflected=True)
    __pow__ = _binary_method("pow")
    __rpow__ = _binary_method("pow", reflected=True)
    __and__ = _binary_method("bitwise_and")
    __rand__ = _binary_method("bitwise_and", reflected=True)
    __or__ = _binary_method("bitwise_or")
    __ror__ = _binary_method("bitwise_or", reflected=True)
    __xor__ = _binary_method("bitwise_xor")
    __rxor__ = _binary_method("bitwise_xor", reflected=True)
    __lshift__ = _binary_method("bitwise_left_shift")
    __rlshift__ = _binary_method("bitwise_left_shift", reflected=True)
    __rshift__ = _binary_method("bitwise_right_shift")
    __rrshift__ = _binary_method("bitwise_right_shift", reflected=True)
    __lt__ = _binary_method("less")
    __le__ = _binary_method("less_equal")
    __gt__ = _binary_method("greater")
    __ge__ = _binary_method("greater_equal")
    def __eq__(self, o: Any) -> Tensor:  # type: ignore[override]
        t = type(o)
        if t is Tensor or t is int or t is float:    # (the operators' common case)
            return _equal(self, o)
        return self._compare("equal", o, False)

    def __ne__(self, o: Any) -> Tensor:  # type: ignore[override]
        t = type(o)
        if t is Tensor or t is int or t is float:
            return _not_equal(self, o)
        return self._compare("not_equal", o, True)

    def _compare(self, name: str, o: Any, differ: bool) -> Tensor:
        if type(o) in _COMPARABLE:
            return self._bin(name, o)
        o, shape, numbers = _comparand(o)
        if shape is None:
            res = self._bin(name, o)
            if numbers is None:
                return res
            return res | ~numbers if differ else res & numbers
        # NumPy compares with None, strings, dates or other objects (or arrays
        # of them) elementwise as objects, or finds no loop: every element
        # differs.  lazyten has no object dtype, so it says so directly, in
        # the broadcast shape (NumPy's broadcast error if there is none).
        try:
            out = S.broadcast_shapes(self.shape, shape)
        except ValueError as e:
            raise ops.located(name, [self._node], ValueError(
                f"operands could not be broadcast together with shapes {self.shape} "
                f"{shape}")) from e
        return Tensor(ops.apply("full", [], shape=out, dtype=np.dtype(np.bool_),
                                fill_value=np.bool_(differ)))

    def __divmod__(self, o: Any) -> tuple[Tensor, Tensor]:
        return self // o, self % o

    def __rdivmod__(self, o: Any) -> tuple[Tensor, Tensor]:
        return self._bin("floor_divide", o, True), self._bin("remainder", o, True)

    def __matmul__(self, o: Any) -> Tensor:
        if _defers(o):
            return NotImplemented
        return _fn.matmul(self, o)

    def __rmatmul__(self, o: Any) -> Tensor:
        return _fn.matmul(o, self)

    __neg__ = _unary_method("negative")
    __pos__ = _unary_method("positive")
    __abs__ = _unary_method("abs")
    __invert__ = _unary_method("bitwise_invert")

    def _unary(self, name: str) -> Tensor:
        return _apply_elementwise(name, self)

    # In-place operators: a new version of this tensor's data (NumPy's rules:
    # the result is cast back with 'same_kind' and must keep this shape).
    def _is_scalar(self) -> bool:
        """Whether NumPy's value here is a scalar (``np.float64``), not a 0-d
        array: an element read (``t[1, 2]``) or the 0-d result of an
        operation (``t.sum()``, ``e - 1``, through ``astype``, which keeps a
        scalar a scalar), not a user's array, a creation, a view, a copy or
        a 0-d array written to or made by ``lt.asarray`` (``_ARRAY0``).  A
        scalar is a value: in-place operators make a new one, leaving its
        other names as they were, and its views are new arrays
        (``_as_new``)."""
        if self._root is not None:
            return False
        n = self._n
        if n.shape:
            return False
        mark = self._steps
        if mark is not None:
            return mark is _ELEMENT
        while n.op.name == "astype" and (ins := n.inputs):
            n = ins[0]
        if n.op.name == "getitem":           # an element read, cast
            return bool(n.inputs) and bool(n.inputs[0].shape)
        return n.op.kind not in ("source", "creation", "update", "view") \
            and n.op.name != "layout_copy"

    def _handle(self) -> Tensor:
        """A new tensor of this one's node (another name for its value,
        which writes to this one do not reach), a 0-d array still one."""
        t = Tensor(self._node)
        if self._root is None and self._steps is _ARRAY0:
            t._steps = _ARRAY0
        return t

    def _as_new(self, view: Tensor) -> Tensor:
        """``view``, a view this tensor's user took, or a new array where this
        is a NumPy scalar (``_is_scalar``), whose views NumPy makes new."""
        return Tensor(view._node) if self._is_scalar() else view

    def _is_element(self) -> bool:
        """Whether this is ``t[i, j, ...]`` with an int for every axis
        (``element``), which NumPy gives as a scalar, not a view: an in-place
        operator on it makes a new value (``t[0] += 1.5`` then stores it back
        with ``t.__setitem__``'s cast, and ``x = t[0]; x += 1`` leaves ``t``)."""
        return self._steps is _ELEMENT and self._root is None

    def _cast_back_error(self, name: str, o: Any) -> BaseException | None:
        """NumPy's own error for ``self <name>= o`` whose result cannot be
        cast back to this dtype (``_UFuncOutputCastingError``: ``except
        UFuncTypeError`` and its ``.casting``, ``.from_``, ``.to`` work), from
        its call on 0-d stand-ins; None where NumPy's call takes it."""
        other = o if type(o) in _SCALARS or isinstance(o, np.generic) else \
            np.zeros((), o.dtype if isinstance(o, Tensor) else np.asarray(o).dtype)
        out = np.zeros((), self.dtype)
        try:
            with np.errstate(all="ignore"):
                getattr(np, name)(out, other, out=out)
        except TypeError as e:
            return e
        except Exception:  # noqa: BLE001 - another error: lazyten's own, at its place
            return None
        return None

    @writes
    def _inplace(self, name: str, o: Any) -> Tensor:
        # (a write: an array operand is read at the call, as NumPy's ``+=``)
        try:
            res = self._bin(name, o if type(o) in _SCALARS else snapshot(o))
        except ValueError:
            # (NumPy checks the cast back before the shapes: its error first)
            if not self._is_scalar() and (e := self._cast_back_error(name, o)) is not None:
                raise ops.located(name, [self._node], e) from None
            raise
        if res is not NotImplemented and self._is_scalar():
            # (NumPy's scalar is a value: ``y = x; x += 1`` leaves ``y``)
            return res
        if not np.can_cast(res.dtype, self.dtype, "same_kind"):
            raise ops.located(name, [self._node, res._node], self._cast_back_error(name, o)
                              or TypeError(f"cannot cast the result from {res.dtype} to "
                                           f"{self.dtype} with casting rule 'same_kind' "
                                           f"(in-place on a {self.dtype} tensor)"))
        if res.shape != self.shape:
            raise ops.located(name, [self._node, res._node], ValueError(
                f"non-broadcastable output: in-place result has shape {res.shape} but the "
                f"tensor has shape {self.shape}"))
        if _symbolic_placeholders:
            from .compile import call_sized
            if call_sized(res):
                # In a compiled function a call may broadcast the operand over
                # the target (1 row += 4 rows), which NumPy's in-place refuses:
                # setitem's rule, checked again at each call, refuses it too.
                self[...] = res
                return self
        self._write(res._node)
        return self

    def __iadd__(self, o: Any) -> Tensor: return self._inplace("add", o)
    def __isub__(self, o: Any) -> Tensor: return self._inplace("subtract", o)
    def __imul__(self, o: Any) -> Tensor: return self._inplace("multiply", o)
    def __itruediv__(self, o: Any) -> Tensor: return self._inplace("divide", o)
    def __ifloordiv__(self, o: Any) -> Tensor: return self._inplace("floor_divide", o)
    def __imod__(self, o: Any) -> Tensor: return self._inplace("remainder", o)
    @writes
    def __ipow__(self, o: Any) -> Tensor:
        if self._is_scalar():
            return self.__pow__(o)
        if type(o) is int and self.dtype == np.bool_:
            # NumPy checks the cast back before it computes (bool ** -1 is an
            # int64 power: its cast error, not the negative-power one), after
            # converting the int (past int64: its OverflowError).
            if not -2**63 <= o < 2**63:
                raise ops.located("pow", [self._node], OverflowError(
                    "Python int too large to convert to C long"))
            raise ops.located("pow", [self._node], self._cast_back_error("pow", o) or TypeError(
                "cannot cast the result from int64 to bool with casting rule 'same_kind' "
                "(in-place on a bool tensor)"))
        if _fast_power(self.dtype, type(o), o) is not None:
            res = self.__pow__(o)                # (NumPy's fast power, as for ``**``)
            if not np.can_cast(res.dtype, self.dtype, "same_kind"):
                raise ops.located("pow", [self._node, res._node], self._cast_back_error(
                    "pow", o) or TypeError(
                    f"cannot cast the result from {res.dtype} to {self.dtype} with casting "
                    f"rule 'same_kind' (in-place on a {self.dtype} tensor)"))
            self._write(res._node)
            return self
        return self._inplace("pow", o)

    def __iand__(self, o: Any) -> Tensor: return self._inplace("bitwise_and", o)
    def __ior__(self, o: Any) -> Tensor: return self._inplace("bitwise_or", o)
    def __ixor__(self, o: Any) -> Tensor: return self._inplace("bitwise_xor", o)
    def __ilshift__(self, o: Any) -> Tensor: return self._inplace("bitwise_left_shift", o)
    def __irshift__(self, o: Any) -> Tensor: return self._inplace("bitwise_right_shift", o)

    @writes
    def __imatmul__(self, o: Any) -> Tensor:
        if isinstance(o, _SCALARS) or isinstance(o, np.generic) or np.ndim(o) == 0:
            # NumPy converts a scalar (OverflowError) and checks the cast
            # (TypeError) before the core dimensions (ValueError): its own
            # call on a stand-in gives its error in its order.
            probe = np.zeros((1, 1), self.dtype)
            try:
                np.matmul(probe, np.zeros((), o.dtype) if isinstance(o, Tensor) else o,
                          out=probe)
            except Exception as e:  # noqa: BLE001 - NumPy's error, located
                raise ops.located("matmul", [self._node], e) from None
        res = _fn.matmul(self, snapshot(o))           # (a write: ``o`` read at the call)
        if not np.can_cast(res.dtype, self.dtype, "same_kind"):
            probe = np.zeros((1, 1), self.dtype)
            try:
                np.matmul(probe, np.zeros((1, 1), res.dtype), out=probe)
            except TypeError as e:
                raise ops.located("matmul", [self._node, res._node], e) from None
            raise ops.located("matmul", [self._node, res._node], TypeError(
                f"cannot cast the result from {res.dtype} to {self.dtype} with casting rule "
                f"'same_kind' (in-place on a {self.dtype} tensor)"))
        if res.shape != self.shape:
            raise ValueError(f"matmul: in-place result has shape {res.shape}, "
                             f"tensor has shape {self.shape}")
        self._write(res._node)
        return self

    # ------------------------------------------------------------ indexing
    def __getitem__(self, index: Any) -> Tensor:
        return _getitem(self, index)

    @writes
    def __setitem__(self, index: Any, value: Any) -> None:
        if self._steps is _ELEMENT and self._root is None:
            # An element is NumPy's scalar, a copy: a write to it would be lost.
            # (A 0-d result, NumPy's scalar too, takes the write: lazyten's
            # own functions write into theirs; it is an array from then on.)
            raise TypeError(f"'{self.dtype.type.__name__}' object (an element, NumPy's "
                            f"scalar) does not support item assignment; write through "
                            f"the array: t[i, j] = v")
        _setitem(self, index, value)

    # ------------------------------------------------------------ views
    @property
    def T(self) -> Tensor:
        return self._view("transpose", axes=None)

    @property
    def mT(self) -> Tensor:
        if self.ndim < 2:
            raise ops.located("mT", [self._node], ValueError(
                f"needs at least 2 dimensions, got shape {self.shape}"))
        axes = tuple(range(self.ndim - 2)) + (self.ndim - 1, self.ndim - 2)
        return self._view("transpose", axes=axes)

    @property
    def real(self) -> Tensor:
        """The real part, a view as in NumPy: ``t.real[0] = 5`` writes ``t``."""
        return self._view("real")

    @real.setter
    def real(self, value: Any) -> None:
        # (``t.real = v``, and ``t.real += 1``, which assigns the view back)
        self._view("real")[...] = value

    @property
    def imag(self) -> Tensor:
        """The imaginary part, a view of a complex tensor (a real one's is
        zeros, which cannot be written)."""
        return self._view("imag")

    @imag.setter
    def imag(self, value: Any) -> None:
        if self.dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        self._view("imag")[...] = value

    def reshape(self, *shape: Any, order: str = "C", copy: bool | None = None) -> Tensor:
        if not shape:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        one = len(shape) == 1 and isinstance(shape[0], (tuple, list, np.ndarray, Tensor))
        return _fn.reshape(self, shape[0] if one else shape, order=order, copy=copy)

    def transpose(self, *axes: Any) -> Tensor:
        # t.transpose(1, 0), t.transpose((1, 0)) and t.transpose(None) alike
        perm = axes[0] if len(axes) == 1 and (
            axes[0] is None or isinstance(axes[0], (tuple, list))) else axes
        return self._view("transpose", axes=tuple(perm) if perm else None)

    def put(self, indices: Any, values: Any, mode: str = "raise") -> None:
        """``lt.put(self, indices, values, mode)``: write ``values`` at flat
        indices."""
        _put(self, indices, values, mode)

    def flatten(self, order: str = "C") -> Tensor:
        """A flat copy (NumPy's ``flatten`` never returns a view: writing to
        it leaves ``self`` alone; ``ravel`` is the view), its elements read
        in ``order`` ("K": Fortran order for Fortran-contiguous data, as "A")."""
        check_order(order, "flatten")
        if order in ("A", "K"):
            # (the layout of the value as it runs decides: ``memory.flattened``)
            from .memory import flattened
            return flattened(self, order)
        return Tensor(self.reshape(-1, order=order)._node)

    def ravel(self, order: Any = "C") -> Tensor:
        from .manipulation import ravel
        return ravel(self, order)

    def astype(self, dtype: Any, order: str = "K", casting: str = "unsafe",
               subok: bool = True, copy: bool = True, *, device: Any = None) -> Tensor:
        check_order(order, "astype")
        res = _fn.astype(self, dtype, copy=copy, casting=casting, device=device)
        if order not in ("C", "F"):
            return res     # (K: the input's layout; A: left so, see the README)
        # A C or F layout asked for: NumPy's copy laid out so, made when it
        # runs (``res`` checked the cast and names the dtype)
        from .memory import layout_copy
        return layout_copy(self, order, res.dtype)

    def copy(self, order: str = "C") -> Tensor:
        # (``ndarray.copy``: a scalar's is a scalar, where ``np.copy`` makes
        # an array of it)
        from .memory import copied
        check_order(order, "copy")
        return copied(self, order)

    def view(self, dtype: Any = _SAME, type: Any = None) -> Tensor:  # noqa: A002 (NumPy's name)
        """NumPy's ``a.view(dtype)``: the same data read as ``dtype`` (a view:
        writes through it reach this tensor, as NumPy's); of another item
        size the last axis' length scales, and it must be contiguous (NumPy's
        ValueError, when built, where its layout is known: a user's array or
        a view of one).  ``a.view()`` is a view of the same dtype, and so is
        ``a.view(np.ndarray)``.  Another array class (``np.ma.MaskedArray``,
        as numpy.ma asks of the operands it is given) is NumPy's own object
        over this tensor's value now, read-only: a lazy tensor is no ndarray,
        so writes to it could not reach the tensor."""
        if _is_array_class(dtype):
            dtype, type = _SAME, dtype
        if type is not None and type is not np.ndarray:
            if not _is_array_class(type):
                raise TypeError(f"view: type must be an ndarray class, got {type!r}")
            value = self.eval() if dtype is _SAME else self.view(dtype).eval()
            value.flags.writeable = False
            return value.view(type)
        if dtype is _SAME:
            return self._view("getitem", index=(Ellipsis,))
        dt = np.dtype(dtype)                 # (None: float64, as NumPy reads it)
        root = (self if self._root is None else self._root)._node
        if dt.itemsize != self.dtype.itemsize and self.ndim and (
                root.op.name == "input" or "order" in root.attrs and root.op.name == "view_update"):
            # NumPy reads the layout: the last axis must be contiguous.  Known
            # here for a user's array (a computed value's is known when it
            # runs, where NumPy's error comes if it must).
            probe = _fn.layout_of(self)
            if probe is not None:
                try:
                    probe.view(dt)
                except ValueError as e:
                    raise ops.located("view", [self._node], e) from None
        return self._view("view_dtype", dtype=dt)

    def __copy__(self) -> Tensor:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Tensor:
        """A tensor of this one's value, computed now: as NumPy's deep copy
        copies the data, later writes to a user's array this tensor reads
        (``lt.asarray`` reads it at evaluation) do not reach the copy.  A
        tensor that depends on a compiled function's placeholders has no
        value yet: its copy is the lazy ``copy()``."""
        from .compile import TracingError
        try:
            value = self.eval()
        except TracingError:
            return self.copy()
        return _creation.asarray(value)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its value, as NumPy pickles an array: a graph's node ids
        # and structure keys mean nothing in another process (nor, loaded
        # again, beside the live nodes of this one), and a leaf's data is
        # the user's array as it is now.
        return _creation.asarray, (self.eval(),)

    def conj(self) -> Tensor:
        # ndarray.conj() of a real array is the array itself (writes through
        # it reach it; a bool one stays bool), of a complex one a new array.
        return _fn.conj(self) if self.dtype.kind == "c" else self

    conjugate = conj

    def fill(self, value: Any) -> None:
        """Every element set to ``value`` (NumPy's cast of a scalar)."""
        if value.ndim if isinstance(value, Tensor) else np.ndim(value):  # (no eval)
            raise ValueError("fill: the value must be a scalar")
        self[...] = value

    def tobytes(self, order: str = "C") -> bytes:
        if order == "A":
            # (the layout of the value, not of ``eval``'s copy, decides; NumPy
            # reads "K" as "C" here)
            return self.flatten(order).eval().tobytes()
        return self.eval().tobytes(order=order)  # type: ignore[arg-type]

    def tofile(self, fid: Any, sep: str = "", format: str = "%s") -> None:  # noqa: A002
        """NumPy's ``tofile``: the value written now, as NumPy writes it."""
        self.eval().tofile(fid, sep=sep, format=format)

    def dumps(self) -> bytes:
        """The tensor pickled (as its value, ``__reduce__``)."""
        return pickle.dumps(self)

    def dump(self, file: Any) -> None:
        """The tensor pickled into ``file`` (a path or a binary file)."""
        if isinstance(file, (str, os.PathLike)):
            with open(file, "wb") as f:
                pickle.dump(self, f)
        else:
            pickle.dump(self, file)

    def byteswap(self, inplace: bool = False) -> Tensor:
        """NumPy's ``byteswap``: the same dtype with each element's bytes
        reversed (computed now, from the value); ``inplace`` writes the
        result to this tensor, as ``t[...] = v`` does."""
        swapped = _creation.asarray(self.eval().byteswap())
        if not inplace:
            return swapped
        self[...] = swapped
        return self

    @writes
    def resize(self, *new_shape: Any, refcheck: bool = True) -> None:
        """NumPy's in-place ``a.resize(new_shape)``: this tensor becomes its
        data read in C order, cut to the new size or followed by zeros.  As
        in NumPy only a tensor that owns its data (no view) may be resized,
        and with ``refcheck`` only one nothing else refers to: a view of it
        (which would read the resized data) or another name (NumPy counts
        references the same way; ``refcheck=False`` skips the count)."""
        if len(new_shape) == 1 and (new_shape[0] is None or
                                    isinstance(new_shape[0], (tuple, list))):
            new_shape = () if new_shape[0] is None else tuple(new_shape[0])
        if not new_shape:
            return                               # (NumPy: a.resize() changes nothing)
        shape = _creation._shape(new_shape, "resize")
        if self._root is not None:
            raise ValueError("resize: cannot resize this array: it does not own its data "
                             "(a view)")
        if refcheck and sys.getrefcount(self) > _RESIZE_REFS:
            raise ValueError("resize: cannot resize an array that references or is referenced "
                             "by another object in this way (a view of it, or another name). "
                             "Use lt.resize to get a new resized copy or set refcheck=False")
        n, flat = math.prod(shape), self.reshape(-1)
        data = flat[:n] if n <= flat.size else _fn.concat(
            [flat, _creation.zeros(n - flat.size, self.dtype)])
        self._n = _fn.copy(data.reshape(shape), "C")._node


def _resize_refs() -> int:
    """``sys.getrefcount(self)`` in ``Tensor.resize`` when the caller's one
    name is all that refers to the tensor: measured on a method made the
    same way, since the interpreter's own references differ by version."""
    class Probe:
        @writes
        def count(self) -> int:
            return sys.getrefcount(self)

    def call() -> int:
        probe = Probe()
        return probe.count()
    return call()


_RESIZE_REFS = _resize_refs()


def check_device(device: Any, what: str) -> None:
    """The array API's ``device=``: lazyten computes on the CPU only."""
    if device not in (None, "cpu"):
        raise ValueError(f"{what}: unsupported device {device!r} (only 'cpu')")


def _copy_link(rn: Node, steps: tuple[ViewStep, Any] | None) -> tuple[ViewStep, Any] | None:
    """The link of ``steps`` whose reshape copies the root's data ``rn``
    (the first, from the root), where the view was taken as one on a layout
    not known then; None where the steps are views of it.

    A computed result's layout is NumPy's (it follows the operands': ``x.T
    * 2`` is Fortran-ordered), known when it runs; the view decisions take
    it as C, and a reshape that C makes a copy stays a view then
    (``functions.reshape``).  Before a write through such a view, or a read
    after its root was written, the root's layout is settled (computed,
    once per version, where it is not known: ``settle_layout``) and the
    steps replayed on it, which decides as NumPy's did (``Tensor._copied``).
    Where the layout was known, a reshape that copies made no view: the
    replay finds none.
    """
    links = []
    link = steps
    has_reshape = False
    while link is not None:
        links.append(link)
        has_reshape = has_reshape or link[0][0] == "reshape"
        link = link[1]
    if not has_reshape:
        return None
    if settle_layout(rn):
        from .compile import assume_c_layout
        assume_c_layout(rn)                  # (the write's view or copy: taken as C)
    v: np.ndarray[Any, Any] | None = layout_stand_in(rn.shape, rn.dtype, write_order(rn))
    for link in reversed(links):
        v = replay_views(v, (link[0],)) if v is not None else None
        if v is None:
            return link
    return None


# The copies that reshapes taken as views turned out to be (``Tensor._copied``):
# id of the reshape's link in the view chains -> (the link, the tensor that
# is the copy).  Every view whose chain holds the link adopts that tensor as
# its root (``_adopt_copy``), so the views of one copy share it, as NumPy's
# do.  An entry whose link no chain holds any more is dropped.
_copies: dict[int, tuple[tuple[ViewStep, Any], Tensor]] = {}
_copies_lock = threading.Lock()
# Bumped per entry: a view compares it with the count it last looked at.
_copies_made = [0]


def _register_copy(link: tuple[ViewStep, Any], copy: Tensor) -> None:
    """Enter ``copy`` for ``link`` (under ``_copies_lock``)."""
    for k, (held, _) in list(_copies.items()):
        # (held by the entry, this loop and the call alone: no chain)
        if sys.getrefcount(held) <= 3:
            del _copies[k]
    _copies[id(link)] = (link, copy)
    _copies_made[0] += 1


# How many pending nodes under a read are looked at for ones to keep
# (``_recomputed``).
_REREAD_WALK = 256


# Pending nodes that reads walked through, the first _REREAD_WALK under each
# (``_recomputed``).
_computed: weakref.WeakSet[Node] = weakref.WeakSet()
# Arrays written in place (``_write``, ``_write_root``) whose data may still
# be pending: a read that computes one's data along the way keeps it
# (``_recomputed``).  By id (a tensor's ``==`` is elementwise: no hash), to
# a weak reference that takes its entry out when the tensor dies; an entry
# is also dropped once its data is computed, until it is written again.
_states: dict[int, weakref.ref[Tensor]] = {}


def _note_state(t: Tensor) -> None:
    """``t`` (a root) was just written in place."""
    k = id(t)
    if k not in _states:
        def gone(_: weakref.ref[Tensor]) -> None:
            _states.pop(k, None)
        _states[k] = weakref.ref(t, gone)


def _pending_states() -> dict[int, Node]:
    """The pending data of arrays written in place (``_states``), by node
    id: writes (setitem, a write through a view)."""
    states: dict[int, Node] = {}
    for ref in list(_states.values()):       # (a copy in one step: other threads write)
        t = ref()
        if t is None:
            continue
        s = t._n
        if s.value is not None or s.op.kind != "update":
            # (computed; or written whole, ``y[...] = a * b``: its value is
            # the expression's, which a read may fuse, not a buffer anyway)
            _states.pop(id(t), None)
        else:
            states[s.id] = s
    return states


def _recomputed(nodes: Sequence[Node], compute: bool = False) -> list[Node]:
    """Before pending results (or views) are read: the pending nodes of
    their graph to compute with them and keep (``_evaluate_keeping``), so
    that the next evaluation starts from them, as NumPy computes each once:

    * where an earlier read computed them too, and did not keep them (a
      number read from a loop's state every step: ``float(u[5, 5])``,
      ``float(np.sum(u))``, ``bool(u[5, 5] > 0)``, ``float(loss(x))`` after
      ``x = x - lr * g(x)``; an expression two results read, ``a.sum()``
      then ``a.max()``), the topmost of them: the base under a view, as a
      view keeps no value.  Each read recomputed every earlier step
      (quadratic in the loop's length: 200 steps of a 64x64 stencil, 6 s
      where NumPy takes 4 ms), a view's only the elements it reads;
    * the data of an array written in place (``_states``: ``B`` in a
      loop of ``B[1:-1] = f(A); A[1:-1] = g(B)``, whose ``A`` is computed
      from ``B``'s last value): reading ``B`` after ``A`` computed every
      step again.  A write's result is a buffer of its own anyway (not
      fused away), and NumPy holds the array whole; so a view of it read
      computes it whole (the next read of it, or of what a loop writes
      over it, starts from it), not only the view's elements.

    A view read for the first time otherwise computes only what it reads
    (slice pushdown).  What one read keeps is at most 1 GiB or the
    ``memory_limit`` (``_reread_cap``): a huge lazy array, a broadcast of
    10**12 elements, stays read view by view.

    The outputs themselves are not kept: ``eval`` keeps its result itself.
    ``lt.compute`` (``compute``) keeps none of its own but one that is a
    written array's data, and of what an earlier read computed, only a node
    over more than ``_RECOMPUTE_DEEP`` pending ones: a loop's state
    (``x = x - lr * g(x)`` with ``lt.compute(loss(x))`` each step, which
    recomputed every earlier step), not a shared ``a * b + c``, which two
    of its calls computing their own results would have kept whole."""
    states = _pending_states() if _states else {}
    if compute and not states:
        for n in nodes:
            if not n.skey or n.scount > _RECOMPUTE_DEEP:
                break
        else:
            # (graphs too small to stand on a deep re-read, by their build-time
            # summaries' node counts: W5's call of 20 us took 6 more walking)
            return []
    outs = {n.id for n in nodes}
    # (a result lt.compute is asked for again, the same expression: computed
    # again as asked, keeping nothing an earlier read computed; it is timed,
    # or wanted in little memory)
    reread = not compute or not any(n in _computed for n in nodes)
    stack: list[Node] = list(nodes)
    seen: set[int] = set()
    again: dict[int, Node] = {}
    walked: list[Node] = []
    while stack and len(seen) < _REREAD_WALK:
        m = stack.pop()
        if m.id in seen or m.value is not None or m.op.kind == "source":
            continue
        seen.add(m.id)
        if reread and m in _computed and m.id not in outs:
            # (the base under a view: views keep no value)
            while m.value is None and m.op.kind == "view" and m.op.view_of is not None:
                m = m.inputs[m.op.view_of]
            if m.value is None and m.op.kind != "source" \
                    and (not compute or _deeper_than(m, _RECOMPUTE_DEEP)):
                again[m.id] = m
            continue                          # (below it: computed with it)
        if m.id in states and (compute or m.id not in outs):
            again[m.id] = m                   # (and older states below it)
        walked.append(m)
        stack.extend(m.inputs)
    for m in walked:
        _computed.add(m)
    if not again:
        return []
    # (all of them within the cap: a graph may read many earlier results)
    budget = _reread_cap()
    keep = []
    for m in again.values():
        nbytes = m.size * m.dtype.itemsize
        if nbytes <= budget:
            keep.append(m)
            budget -= nbytes
    return keep


# How many pending nodes a result ``lt.compute`` computed again must stand on
# for it to be kept (``_recomputed``): a loop's state soon does, an
# expression two calls share (``a * b + c``) does not.
_RECOMPUTE_DEEP = 32


def _deeper_than(n: Node, most: int) -> bool:
    """Whether more than ``most`` pending nodes (``n`` among them) compute ``n``."""
    stack, seen = [n], set()
    while stack:
        m = stack.pop()
        if m.id in seen or m.value is not None or m.op.kind == "source":
            continue
        seen.add(m.id)
        if len(seen) > most:
            return True
        stack.extend(m.inputs)
    return False


def _evaluate_keeping(nodes: Sequence[Node], keep: list[Node]) -> list[Any]:
    """The values of ``nodes``, computed in one plan with the nodes of
    ``keep``, whose values are kept (``_recomputed``); where that plan is
    over the memory_limit (a MemoryError), those of ``nodes`` alone, as
    before.  An output kept (``lt.compute``'s) is handed out as its kept
    value, read-only, which the caller copies."""
    if keep:
        at = {n.id: i for i, n in enumerate(nodes)}
        extra = [m for m in keep if m.id not in at]
        try:
            vals = evaluate([*nodes, *extra])
        except MemoryError:
            pass
        else:
            for m, val in zip(extra, vals[len(nodes):]):
                cache(m, val)
            vals = vals[:len(nodes)]
            for m in keep:
                if m.id in at:
                    cache(m, vals[at[m.id]])
                    if m.value is not None:      # (else another thread's, or no value to keep)
                        vals[at[m.id]] = m.value
            return vals
    return evaluate(nodes)


def compute_keeping(nodes: Sequence[Node]) -> list[Any]:
    """``lt.compute``'s values of ``nodes``, which it does not keep, with
    what it keeps along the way (``_recomputed``): the data of arrays
    written in place that their plan computes (an output's too), and a
    loop's state an earlier read computed."""
    return _evaluate_keeping(nodes, _recomputed(nodes, compute=True))


def _reread_cap() -> int:
    """The most bytes one read keeps (``_recomputed``): 1 GiB, or the
    options' ``memory_limit``."""
    from .options import get_options
    limit = get_options().memory_limit
    return min(1 << 30, limit) if limit is not None else 1 << 30


def settle_layout(n: Node) -> bool:
    """Compute ``n`` where its layout is not known yet (and cache it), so
    that ``write_order`` reads NumPy's: the node under its views, as a
    view's value is not cached.  Not in a function being
    traced (``lt.function``, ``@lt.jit``): a placeholder's value comes with
    a call, and the layout stays taken as C; True then, and a caller whose
    decision changes values notes its result (``compile.assume_c_layout``:
    ``lt.function`` refuses calls of another layout)."""
    if infer(n)[1]:
        return False
    m = n
    while m.value is None and m.op.kind == "view" and m.op.view_of is not None:
        m = m.inputs[m.op.view_of]
    from .compile import TracingError
    try:
        if _symbolic_placeholders and reaches_placeholder(m):
            # (not planned: a None dimension's stand-in sizes are no sizes
            # to allocate, 8 TB for two of float64)
            raise TracingError("traced")
        (v,) = evaluate([m])
    except TracingError:
        return True                          # (traced: taken as C, decided when built)
    cache(m, v)
    return False


def _defers(x: Any) -> bool:
    """NumPy's protocol: a type with ``__array_ufunc__ = None`` (lt.ma's masked
    tensors, lt.sparse's matrices) handles binary operators with arrays itself,
    so ``Tensor op x`` returns NotImplemented and Python calls ``x``'s reflected op.
    Read on the instance: a masked tensor's is None there, while NumPy, which
    reads the class's, finds its handler for ``np.exp(m)``."""
    return getattr(x, "__array_ufunc__", False) is None


def _flat_index(index: Any) -> Any:
    """``index`` if NumPy's flat iterator takes it: no new axis, no boolean
    scalar or list of booleans (NumPy's IndexErrors; a boolean array of the
    size is a mask), one index at most."""
    parts = index if type(index) is tuple else (index,)
    if len(parts) > 1:
        raise IndexError(f"too many indices for flat iterator: flat iterator is "
                         f"1-dimensional, but {len(parts)} were indexed")
    for p in parts:
        if p is None:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`) and integer or "
                             "boolean arrays are valid indices (flat iterator)")
        if isinstance(p, (bool, np.bool_)) or (
                isinstance(p, list) and np.asarray(p).dtype == np.bool_):
            raise IndexError("boolean indices for iterators are not supported (a flat "
                             "iterator takes a boolean array of its size as a mask)")
    return index


class FlatIter:
    """``t.flat`` (NumPy's ``flatiter``): C-order element access to a tensor.
    Reads are lazy (``t.reshape(-1)[idx]``, a copy for a strided tensor, as
    NumPy's ``flat[idx]`` is); a write is ``put`` at the flat positions the
    index selects, so it reaches ``t`` whatever its layout."""

    __slots__ = ("_t",)

    def __init__(self, t: Tensor) -> None:
        self._t = t

    def __len__(self) -> int:
        return self._t.size

    def __iter__(self) -> Iterator[Any]:
        return self._t.reshape(-1)._elements(self._t.eval().reshape(-1))

    @property
    def base(self) -> Tensor:
        """The tensor iterated over (NumPy's ``flatiter.base``)."""
        return self._t

    def copy(self) -> Tensor:
        """The elements in C order, a new 1-d tensor (``a.flat.copy()``)."""
        return self._t.flatten()

    def __getitem__(self, index: Any) -> Tensor:
        r = self._t.reshape(-1)[_flat_index(index)]
        # (NumPy's flat[idx] is a copy, even of a slice: writes to the tensor
        # after it, or to it, do not reach the other)
        return r.copy() if r._root is not None else r

    def __setitem__(self, index: Any, value: Any) -> None:
        index = _flat_index(index)
        if type(index) is tuple and not index:
            raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
        if index is Ellipsis or (type(index) is tuple and index == (Ellipsis,)):
            index = slice(None)
        if type(index) is tuple:
            (index,) = index
        if isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_)):
            # NumPy's single item: in bounds (checked first), one value
            n = self._t.size
            if not -n <= index < n:
                raise IndexError(f"index {index} is out of bounds for size {n}")
            if np.ndim(value) > 0:
                raise ValueError(f"Error setting single item of array. (flat[{index}] takes "
                                 f"one value, not one of shape {np.shape(value)})")
            positions: Any = [index]         # (one element: no index of every position)
        elif isinstance(index, Tensor):
            positions = _creation.arange(self._t.size)[index]
        else:
            positions = np.arange(self._t.size)[index]
        _put(self._t, positions, value)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        return self._t.reshape(-1).__array__(dtype, copy)


def check_order(order: Any, what: str, allowed: str = "CFAK") -> None:
    """A layout ``order`` argument among ``allowed`` (NumPy's ValueError
    otherwise; lazyten lays its results out itself, so it only checks it)."""
    if not (isinstance(order, str) and len(order) == 1 and order in allowed):
        names = ", ".join(repr(c) for c in allowed)
        raise ValueError(f"{what}: order must be one of {names} (got {order!r})")


def array0(t: Tensor) -> Tensor:
    """``t``, or NumPy's 0-d array of its value where it is a NumPy scalar
    (``Tensor._is_scalar``): ``np.asarray(t.sum())``, whose in-place
    operators write it."""
    if not t._is_scalar():
        return t
    a = Tensor(t._node)
    a._steps = _ARRAY0
    return a


def element(node: Node) -> Tensor:
    """The tensor of ``t[i, j, ...]`` with an int for every axis: NumPy's
    scalar, a copy (no root: a write to it does not reach ``t``), which
    in-place operators treat as a scalar (``Tensor._is_element``)."""
    t = Tensor(node)
    t._steps = _ELEMENT
    return t


def cache_now(t: Tensor) -> Tensor:
    """``t``, its value cached now (``t.eval()``) if it is computed: for a
    test computed now (NaNs, negative values) on an operand that a lazy
    result is then built on, so that the expression below the operand runs
    once, not for the test and again for the result.  A user's array, a
    value cached before and a view (never cached: free to recompute) are
    left as they are."""
    n = t.node
    if n.value is None and n.op.kind not in ("source", "view"):
        t.eval()
    return t


def values_now(*xs: Any, read_only: Sequence[bool] = ()) -> list[Any]:
    """``xs`` with each tensor as its value, in lists and tuples too: all
    computed now in one plan (work they share is done once) and cached as
    ``eval`` caches them, each a fresh array the caller may keep or write
    (NumPy writes ``out=``, ``poly1d`` keeps its coefficients); anything
    else as given.  Where ``read_only[k]`` is true, the tensors in
    ``xs[k]`` are their values as computed (a user's strided view itself:
    NumPy's loops give other last bits on a contiguous copy), for a call
    that only reads them and keeps nothing."""
    found: list[Tensor] = []
    fresh: list[bool] = []
    for k, a in enumerate(xs):
        _collect_tensors(a, not (k < len(read_only) and read_only[k]), found, fresh)
    if not found:
        return list(xs)
    nodes = [t._node for t in found]
    # (keeping what a read keeps along the way: written arrays' data, what
    # an earlier read computed too)
    computed = _evaluate_keeping(nodes, _recomputed(nodes))
    for n, v in zip(nodes, computed):
        cache(n, v)
    # (plain functions, no closures: a closure that calls itself is a cycle,
    # which kept the copies alive until the cyclic collector ran: 100 MB per
    # out= call of a big tensor piled up to gigabytes)
    got = iter([np.array(v, copy=True) if c else v for v, c in zip(computed, fresh)])
    return [_put_values(a, got) for a in xs]


def _collect_tensors(a: Any, copy: bool, found: list[Tensor], fresh: list[bool]) -> None:
    if isinstance(a, Tensor):
        found.append(a)
        fresh.append(copy)
    elif isinstance(a, (list, tuple)):
        for e in a:
            _collect_tensors(e, copy, found, fresh)


def _put_values(a: Any, got: Iterator[Any]) -> Any:
    if isinstance(a, Tensor):
        return next(got)
    if isinstance(a, (list, tuple)) and _holds_tensor(a):
        return type(a)(_put_values(e, got) for e in a)
    return a


def snapshot(x: Any) -> Any:
    """``x`` as a write reads it at its call: a NumPy array (also one in a
    list or tuple, an index's items) or another object over memory (a
    memoryview, an ``array.array``, an object with ``__array__``) copied
    now.  A write is a lazy node; NumPy reads the value, the index arrays
    and the mask when it is called, so an array the caller changes
    afterwards (a reused buffer, ``idx[:] = 4``) must not be what the write
    reads when it runs.  A broadcast array's own elements are copied, and
    broadcast again (``np.broadcast_to(1.0, big)`` stays small)."""
    if isinstance(x, np.ndarray):
        if 0 in x.strides and x.size > 1:
            core = x[tuple(slice(0, 1) if s == 0 else slice(None) for s in x.strides)]
            return np.broadcast_to(core.copy(), x.shape)
        return x.copy()
    if isinstance(x, (list, tuple)):
        if not any(isinstance(e, (np.ndarray, list, tuple)) or _over_memory(e) for e in x):
            return x
        items = [snapshot(e) for e in x]
        return type(x)(*items) if hasattr(x, "_fields") else type(x)(items)
    if _over_memory(x):
        return np.array(x, copy=True)
    return x


def _over_memory(x: Any) -> bool:
    """Whether ``x`` is neither an array nor a number nor one of lazyten's
    own (which writes read as they are) but reads memory its owner may
    change: a buffer, an object with ``__array__`` (a pandas column)."""
    if isinstance(x, (Tensor, np.generic, int, float, complex, str, bytes)) or x is None:
        return False
    if isinstance(x, (memoryview, bytearray, array.array)) or hasattr(x, "__array_interface__"):
        return True
    return hasattr(x, "__array__") and not _defers(x)


def _holds_tensor(a: list[Any] | tuple[Any, ...]) -> bool:
    return any(isinstance(e, Tensor) or isinstance(e, (list, tuple)) and _holds_tensor(e)
               for e in a)


def run_now(fn: Callable[..., Any], *args: Any, written: tuple[int, ...] = (),
            **kwargs: Any) -> Any:
    """``fn`` (NumPy's) called now on the tensors' values, each a fresh copy
    (``values_now``: one plan, lists and tuples too): the path of calls NumPy answers by
    writing an array (``out=``; the positional ``args`` in ``written``).
    A tensor NumPy writes takes the written copy as its new value, as a write
    through ``t[...] = v`` would, and is what the call returns in place of
    the copy, as NumPy returns its ``out`` array."""
    outs = kwargs.pop("out", None)
    seq = () if outs is None else outs if isinstance(outs, tuple) else (outs,)
    if any(isinstance(o, Tensor) for o in seq) \
            or any(isinstance(args[i], Tensor) for i in written):
        # A tensor is written: read, compute and write it whole (``writes``),
        # or two threads' calls would each write over the other's.
        with _WRITES:
            return _run_now(fn, args, written, kwargs, outs, seq)
    return _run_now(fn, args, written, kwargs, outs, seq)


def _run_now(fn: Callable[..., Any], args: tuple[Any, ...], written: tuple[int, ...],
             kwargs: dict[str, Any], outs: Any, seq: tuple[Any, ...]) -> Any:
    # (what NumPy only reads as computed: a user's strided view is read with
    # its strides, as NumPy's loop would; what it writes, a copy of its own)
    got = values_now(*args, *kwargs.values(), *seq,
                     read_only=[k not in written for k in range(len(args))]
                     + [True] * len(kwargs))
    vals = got[:len(args)]
    kw = dict(zip(kwargs, got[len(args):len(args) + len(kwargs)]))
    targets: list[tuple[Tensor, Any]] = [(args[i], vals[i]) for i in written
                                         if isinstance(args[i], Tensor)]
    if outs is not None:
        copies = tuple(got[len(args) + len(kwargs):])
        targets += [(o, c) for o, c in zip(seq, copies) if isinstance(o, Tensor)]
        kw["out"] = copies if isinstance(outs, tuple) else copies[0]
    for a in (*(vals[i] for i in written), *seq):
        detach_operands(a)                   # (the caller's arrays NumPy writes now)
    result = fn(*vals, **kw)
    for t, v in targets:
        t[...] = v
    if outs is not None and any(isinstance(o, Tensor) for o in seq):
        # NumPy's result is its ``out`` (the copies): the tensors written
        # stand for them.  Not always: ``fft.hfft`` returns a new array.
        stand_in = {id(c): o for c, o in zip(kw["out"] if isinstance(outs, tuple)
                                              else (kw["out"],), seq)}
        if isinstance(result, tuple):
            return tuple(stand_in.get(id(r), r) for r in result)
        return stand_in.get(id(result), result)
    return result


def numpy_out(np_fn: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator for a function with NumPy's signature (its parameter
    order and, from ``out`` on, its names): a call that gives ``out`` (by
    name or position) is ``np_fn`` run now (``run_now``), its arguments as
    the user wrote them.  A lazy result cannot be written into an existing
    array, and NumPy's ``out`` rules (its casting, a reduction's accumulator
    in ``out``'s dtype) are then NumPy's own."""
    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        params = list(inspect.signature(fn).parameters)
        pos = params.index("out")

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("out") is None and (len(args) <= pos or args[pos] is None):
                return fn(*args, **kwargs)
            # (from ``out`` on, by name: run_now takes ``out`` as a keyword)
            kwargs.update(zip(params[pos:], args[pos:]))
            return run_now(np_fn, *args[:pos], **kwargs)
        return call
    return decorate


_F = TypeVar("_F", bound=Callable[..., Any])


def numpy_writes(np_fn: Callable[..., Any]) -> Callable[[_F], _F]:
    """Decorator for lazyten's twin of a NumPy function that writes its first
    argument (``put``, ``place``, ``putmask``, ``put_along_axis``,
    ``fill_diagonal``): an ndarray there is the caller's, written now by
    NumPy's function (``run_now``, which first leaves pending operations
    over that array their values), as ``np.put(w, i, t[0])`` reaches the
    twin through the tensor among the other arguments (NEP 18)."""
    def decorate(fn: _F) -> _F:
        first = next(iter(inspect.signature(fn).parameters))

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            target = args[0] if args else kwargs.get(first)
            if not isinstance(target, np.ndarray):
                return fn(*args, **kwargs)
            if not args:
                args = (kwargs.pop(first),)
            return run_now(np_fn, *args, written=(0,), **kwargs)
        return cast(_F, call)
    return decorate


def numpy_names(**names: str) -> Callable[[_F], _F]:
    """Decorator for a function whose parameters lazyten names after the
    array API where NumPy names them otherwise (``np.tile(A=...)``,
    ``lt.tile(x=...)``): each keyword ``numpy_name=v`` in ``names`` is
    passed on as ``names[numpy_name]=v``, so a call written for NumPy works
    by either name.  Both names at once is Python's TypeError for an
    argument given twice; the signature shown stays lazyten's."""
    def decorate(fn: _F) -> _F:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                for theirs, ours in names.items():
                    if theirs in kwargs:
                        if ours in kwargs:
                            raise TypeError(f"{fn.__name__}() got multiple values for "
                                            f"argument {ours!r} (NumPy's name {theirs!r})")
                        kwargs[ours] = kwargs.pop(theirs)
            return fn(*args, **kwargs)
        return call  # type: ignore[return-value]
    return decorate


def ignores_like(fn: _F) -> _F:
    """Decorator for a creation function: NumPy's ``like=`` (NEP 35, which
    array library makes the result) is accepted and not read, since a
    lazyten function makes a tensor whatever ``like`` is."""
    @functools.wraps(fn)
    def call(*args: Any, like: Any = None, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)
    return call  # type: ignore[return-value]


# Operand types ``==`` compares as numbers with no look inside.
_COMPARABLE = frozenset({bool, int, float, complex})


def _comparand(o: Any) -> tuple[Any, tuple[int, ...] | None, np.ndarray[Any, Any] | None]:
    """``(operand, None, None)`` for an operand NumPy compares as numbers,
    ``(o, shape, None)`` for one that holds no numbers (None, strings,
    bytes, dates, arbitrary objects, or arrays of them), whose comparisons
    NumPy answers "different" everywhere, and ``(numbers, None, where)`` for
    an object array holding some numbers (zeros elsewhere), with a mask of
    where it holds them."""
    if isinstance(o, (Tensor, np.number, np.bool_)) or _defers(o):
        return o, None, None
    if o is None or isinstance(o, (str, bytes)):
        return o, (), None
    try:
        arr = np.asarray(o)
    except (ValueError, TypeError):          # (a ragged list: NumPy's error, later)
        return o, None, None
    if arr.dtype.kind in "biufc":
        return o, None, None
    if arr.dtype.kind == "O" and arr.size:
        for e in arr.flat:
            if isinstance(e, numbers_abc.Number) and not isinstance(
                    e, (int, float, complex, np.number, np.bool_)):
                # (NumPy compares a Fraction or Decimal exactly, as an object;
                # lazyten has no object dtype, and "different" would be wrong)
                raise TypeError(f"cannot compare a tensor with a {type(e).__name__}: lazyten "
                                f"has no object dtype; convert it (float(x), int(x)) first")
        numbers = np.array([isinstance(e, (int, float, complex, np.number, np.bool_))
                            for e in arr.flat]).reshape(arr.shape)
        if numbers.any():
            numeric = np.array(np.where(numbers, arr, 0).tolist())
            if numeric.dtype.kind not in "biufc":
                raise TypeError(f"cannot compare a tensor with an object array holding "
                                f"numbers no numeric dtype holds ({arr.shape})")
            # (the objects that are not numbers differ from every element)
            return numeric, None, numbers
    return o, arr.shape, None


def wrap(x: Any) -> Tensor:
    """``x`` as a Tensor: Tensors pass through, arrays are wrapped zero-copy.
    A masked array is refused: a function of lazyten's would read its data
    and drop its mask (``lt.asarray(m)`` is its data, as ``np.asarray``'s)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, _masked_types()):
        shape = getattr(x, "shape", ())
        raise TypeError(f"a masked array ({type(x).__name__}, shape {shape}) is not a tensor: "
                        f"its mask would be dropped; use lt.ma's functions or its "
                        f"methods (m.sum()), or lt.asarray(m) for its data alone")
    t = _creation.asarray(x)
    if type(x) is np.ndarray and t._n.value is x:
        _remember_operand(x, t._n)
    return t


# The caller's arrays that operations took as operands (``X @ w``, not
# ``lt.asarray(w)``), by the array owning their memory: when lazyten itself
# then writes such an array (NumPy's ``w -= lr * g`` with ``g`` a tensor is
# ``np.subtract(w, g, out=w)``, run here), the operations built before keep
# the values they were given, as NumPy's would (``detach_operands``).
_operands: dict[int, tuple[weakref.ref[np.ndarray[Any, Any]], weakref.WeakSet[Node]]] = {}
# Reentrant: allocating the entry below may run a garbage collection whose
# weak-reference callbacks (``forget``) take this lock in the same thread.
_operands_lock = threading.RLock()


def _memory_owner(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _remember_operand(x: np.ndarray[Any, Any], node: Node) -> None:
    owner = _memory_owner(x)
    key = id(owner)
    with _operands_lock:
        entry = _operands.get(key)
        if entry is None or entry[0]() is not owner:
            def forget(_ref: Any, key: int = key) -> None:
                with _operands_lock:
                    e = _operands.get(key)
                    if e is not None and e[0]() is None:
                        del _operands[key]
            try:
                entry = _operands[key] = (weakref.ref(owner, forget), weakref.WeakSet())
            except TypeError:                # (an array type without weak references)
                return
        entry[1].add(node)


def detach_operands(target: Any) -> None:
    """Before lazyten writes the caller's array ``target``: operations that
    took an overlapping array as an operand and are not computed yet get a
    copy of its values as they are (NumPy computed them at their call)."""
    if not _operands or not isinstance(target, np.ndarray):
        return
    owner = _memory_owner(target)
    with _operands_lock:
        entry = _operands.get(id(owner))
        nodes = [] if entry is None or entry[0]() is not owner else list(entry[1])
    for n in nodes:
        v = n.value
        if isinstance(v, np.ndarray) and np.may_share_memory(v, target):
            n.value = np.array(v, copy=True, order="K")


@functools.cache
def _masked_types() -> tuple[type, ...]:
    from .ma import MaskedTensor          # (ma builds on this module)
    return (MaskedTensor, np.ma.MaskedArray)


def node_of(x: Any, src: tuple[str, int] | None = None) -> Node:
    """The graph node for an operand: Python scalars become weak constants,
    NumPy scalars strong ones (``src``: their line, when the caller knows it)."""
    if isinstance(x, Tensor):
        return x._node
    if isinstance(x, _SCALARS) or isinstance(x, np.generic):
        return ops.const(x, src)
    return wrap(x)._node


def _apply_elementwise(name: str, *operands: Any) -> Tensor:
    """``name(*operands)`` as a new tensor: the path of every operator and
    elementwise function.  It lives here, not in ``functions``, so operators
    need no import statement per call; the user's line is looked up once for
    the node and any constants it needs."""
    src = user_source()
    nodes = []
    # A loop, not a comprehension (that is a call in 3.11), and node_of's
    # own first case inline.
    for x in operands:
        if type(x) is Tensor:
            nodes.append(x._node)
        else:
            nodes.append(node_of(x, src))
    return Tensor(ops.build(name, nodes, {}, src))


# These modules build on Tensor, so they are imported once Tensor exists, not
# by an import statement in each call (a microsecond of a 13 us ``t[i]``).
from . import creation as _creation, functions as _fn  # noqa: E402
from .dispatch import call as _dispatch_call  # noqa: E402
from .indexing import getitem as _getitem, put as _put, setitem as _setitem  # noqa: E402
