"""NumPy's functions on tensors (NEP 18, ``__array_function__``).

``np.concatenate([t, u])``, ``np.linalg.solve(t, b)`` or ``np.mean(t)`` with
a tensor among the arrays reach ``Tensor.__array_function__``, which calls
lazyten's function of the same name in the matching namespace (its *twin*):
the call builds a lazy node as ``lt.concatenate`` would, so NumPy code keeps
deferring, fusing and writing through views.  A twin takes NumPy's call
forms, its keyword names included (tests/test_numpy_signatures.py), so the
call is passed on as written.  A NumPy function lazyten has no twin for runs
now, on the tensors' values (``tensor.run_now``), as NumPy ran it on tensors
before the protocol (reading them through ``__array__``).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

# NumPy's module of a function -> lazyten's namespace for it, as attribute
# names from the package (read when first needed: the package imports this
# module's user, tensor.py).
_NAMESPACES: dict[str, tuple[str, ...]] = {
    "numpy": (),
    "numpy.linalg": ("linalg",),
    "numpy.fft": ("fft",),
    "numpy.lib.scimath": ("emath",),
}

# NumPy's predicates that answer a Python bool (``if np.allclose(t, u):``,
# ``assert np.array_equal(...)``, a REPL's ``True``): their twins' lazy 0-d
# answers are computed at the call, as NumPy's are.
_BOOL_ANSWERS = frozenset({np.allclose, np.array_equal, np.array_equiv})

_twins: dict[Any, Callable[..., Any] | None] = {}
_lock = threading.Lock()
# The NumPy functions this thread is answering with their twins: a twin that
# hands tensors back to the same NumPy function (its own fallback, a
# tensor it did not unwrap) gets NumPy's answer on their values, not a
# recursion without end.
_active = threading.local()


def twin(func: Any) -> Callable[..., Any] | None:
    """lazyten's twin of the NumPy function ``func`` (None: it has none),
    looked up once per function."""
    try:
        return _twins[func]
    except KeyError:
        pass
    found = _find(func)
    with _lock:
        _twins[func] = found
    return found


def _find(func: Any) -> Callable[..., Any] | None:
    import lazyten
    path = _NAMESPACES.get(getattr(func, "__module__", None) or "")
    name = getattr(func, "__name__", "")
    if path is None or name.startswith("_"):
        return None
    ns: Any = lazyten
    for part in path:
        ns = getattr(ns, part)
    fn = getattr(ns, name, None)
    return fn if callable(fn) and fn is not func else None


def call(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``func(*args, **kwargs)`` for NumPy's protocol: the twin's lazy call,
    or NumPy's function run now on the tensors' values."""
    try:
        fn = _twins[func]
    except KeyError:
        fn = twin(func)
    active: set[Any] | None = getattr(_active, "funcs", None)
    if active is None:
        active = _active.funcs = set()
    if fn is not None and func not in active:
        active.add(func)
        try:
            got = fn(*args, **kwargs)
        finally:
            active.discard(func)
        return bool(got) if func in _BOOL_ANSWERS else got
    from .tensor import _holds_tensor, run_now, wrap
    got = run_now(func, *args, **kwargs)
    if isinstance(got, np.ndarray) and not _holds_tensor((*args, *kwargs.values())):
        # Reached through ``like=t`` alone (``np.genfromtxt(f, like=t)``):
        # NEP 35 asks for an array of ``t``'s kind.  (``got`` is NumPy's
        # new array: nobody else holds it.)
        return wrap(got)
    return got


# NumPy's functions that read an array's shape and dtype, never its values:
# they answer for any array-like of lazyten's (a masked tensor, a sparse
# matrix) whose values NumPy's other functions must not read.
_METADATA = frozenset({np.shape, np.ndim, np.size, np.result_type,
                       np.iscomplexobj, np.isrealobj})


def metadata_call(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any],
                  kinds: tuple[type, ...]) -> tuple[bool, Any]:
    """``(True, answer)`` where ``func`` reads only shapes and dtypes:
    NumPy's own function on stand-ins of the ``kinds`` arguments (zero-strided
    arrays of their shapes and dtypes, no memory), so its answers and errors
    are NumPy's; ``(False, None)`` otherwise."""
    if func not in _METADATA:
        return False, None

    def stand_in(x: Any) -> Any:
        if not isinstance(x, kinds):
            return x
        meta: Any = x                        # (a masked tensor, a sparse matrix)
        return np.lib.stride_tricks.as_strided(np.zeros((), meta.dtype), meta.shape,
                                               (0,) * len(meta.shape))
    return True, func(*[stand_in(a) for a in args],
                      **{k: stand_in(v) for k, v in kwargs.items()})
