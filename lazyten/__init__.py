"""lazyten: a lazy expression-graph tensor engine with NumPy semantics.

>>> import lazyten as lt
>>> x = lt.asarray([1.0, 2.0, 3.0])
>>> y = (x * 2 + 1).sum()        # builds a graph, computes nothing
>>> y.shape, y.dtype
((), dtype('float64'))
>>> float(y)                      # forcing: optimize, plan, run
15.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import fft, gorgonia, linalg, ma, random, sparse, tfcompat
from .creation import (arange, array, asarray, empty, empty_like, eye, from_numpy, frombuffer,
                       fromfunction, fromiter, fromstring, full, full_like, geomspace,
                       identity, linspace, meshgrid, ones, ones_like, tensor_from, zeros,
                       zeros_like)
from .functions import *  # noqa: F401,F403  (the generated elementwise functions too)
from .functions import ELEMENTWISE, METHODS
from .graph.printer import format_graph
from .indexing import put
from .manipulation import *  # noqa: F401,F403  (each module's __all__)
from .setops import *  # noqa: F401,F403
from .statistics import *  # noqa: F401,F403
from . import emath  # noqa: E402  (lt.emath: NumPy's numpy.emath)
from .polynomial import *  # noqa: F401,F403  (poly, roots, polyval, ..., poly1d)
from .windows import *  # noqa: F401,F403  (bartlett, blackman, hamming, hanning, kaiser)
from .bits import *  # noqa: F401,F403  (packbits, unpackbits)
from .functional import *  # noqa: F401,F403  (vectorize, apply_over_axes)
from .typecheck import *  # noqa: F401,F403  (iscomplexobj, result_type, asarray_chkfinite, ...)
from .copying import *  # noqa: F401,F403  (copyto)
from .io import load, load_csv, loadtxt, save, save_csv, savetxt, savez, savez_compressed
from .iterators import iterate, multi_iterate
from .indexhelpers import c_, index_exp, mgrid, ndenumerate, ndindex, ogrid, r_, s_
from .memory import (ascontiguousarray, asanyarray, asfortranarray, may_share_memory, require,
                     shares_memory)
from .gorgonia import (I, at, clamp, clone, contract, copy_to, mat_vec_mul, materialize,
                       range_, reduce, safe_t, set_at, tensor_mul, ut)
from .sorting import (UniqueAllResult, UniqueCountsResult, UniqueInverseResult, argsort,
                      argwhere, diff, flatnonzero, from_dlpack, nonzero, searchsorted, select,
                      sort, take_along_axis, tril, triu, unique, unique_all, unique_counts,
                      unique_inverse, unique_values, unstack)
from .options import Options, get_options, set_default_options, set_options
from .tensor import Tensor
from .viz import graph, to_dot, to_networkx, visualize
from .profile import Profile, profile
from .compile import Function, Jit, TracingError, function, jit, placeholder  # noqa: E402
from .chunked import compute_chunked  # noqa: E402
from .exec.executor import caller_owned as _caller_owned  # noqa: E402
from .exec.executor import in_numpys_layout as _in_numpys_layout  # noqa: E402
from .exec.executor import pushed_views as _pushed_views  # noqa: E402
from .exec.executor import cached_runner as _cached_runner  # noqa: E402
from .tensor import wrap as _wrap  # noqa: E402
from .tensor import compute_keeping as _compute_keeping  # noqa: E402

__version__ = "0.1.0"

# NumPy's dtype objects, so ``lt.float32`` works as in the array API.
bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
e, pi, inf, nan, newaxis, euler_gamma = np.e, np.pi, np.inf, np.nan, None, np.euler_gamma
finfo, iinfo = np.finfo, np.iinfo
# NumPy's other scalar types, abstract types and dtype helpers (on dtypes and
# types: ``lt.issubdtype(t.dtype, lt.floating)``), and its print options and
# formatting functions, which print a tensor as the array it evaluates to.
intp, uintp, int_, uint, intc, uintc = np.intp, np.uintp, np.int_, np.uint, np.intc, np.uintc
byte, ubyte, short, ushort = np.byte, np.ubyte, np.short, np.ushort
longlong, ulonglong = np.longlong, np.ulonglong
half, single, double, longdouble = np.half, np.single, np.double, np.longdouble
csingle, cdouble, clongdouble = np.csingle, np.cdouble, np.clongdouble
generic, number, integer, signedinteger = np.generic, np.number, np.integer, np.signedinteger
unsignedinteger, inexact, floating = np.unsignedinteger, np.inexact, np.floating
complexfloating = np.complexfloating
dtype, issubdtype, mintypecode, typename = np.dtype, np.issubdtype, np.mintypecode, np.typename
set_printoptions, get_printoptions, printoptions = (np.set_printoptions, np.get_printoptions,
                                                    np.printoptions)
array2string, array_repr, array_str = np.array2string, np.array_repr, np.array_str
format_float_positional, format_float_scientific = (np.format_float_positional,
                                                    np.format_float_scientific)
base_repr, binary_repr = np.base_repr, np.binary_repr
# (NumPy's, on dtypes and Python values: a Tensor is never a scalar)
promote_types = np.promote_types
isscalar, iterable = np.isscalar, np.iterable
matrix_power = linalg.matrix_power


def common_type(*arrays: Any) -> Any:
    """NumPy's ``common_type`` (a float type for the arrays' dtypes)."""
    return np.common_type(*(np.empty(0, _wrap(a).dtype) for a in arrays))


def isdtype(dtype: Any, kind: Any) -> bool:
    """NumPy's ``isdtype``: of a dtype, not of an array (a tensor is NumPy's
    TypeError for an array, not a truth-value error)."""
    if isinstance(dtype, Tensor):
        raise TypeError(f"dtype argument must be a NumPy dtype, but it is a {type(dtype)}.")
    return bool(np.isdtype(dtype, kind))


def compute(*tensors: Any, profile: bool = False) -> Any:
    """Evaluate several tensors in one plan (shared work done once).

    Returns new arrays owned by the caller.  Its results are not cached (but
    one that is the data of an array written in place); what it computes
    along the way is, where ``eval`` would keep it, for a loop calling it
    every step not to compute every earlier step again: the data of arrays
    written in place (``u[1:-1] = ...``), and a loop's state an earlier
    read computed (``x = x - lr * g(x)``; not an expression of a few nodes
    that two calls share, nor anything when it is asked again for a result
    it computed before).  With ``profile=True`` returns ``(results,
    Profile)`` (see ``lt.profile``).

    >>> import lazyten as lt
    >>> a = lt.arange(4.0)
    >>> lt.compute(a + 1, a * 2)
    (array([1., 2., 3., 4.]), array([0., 2., 4., 6.]))
    """
    if profile:
        from .profile import profile as _profile
        return _profile(*tensors)
    if len(tensors) == 1:
        t = tensors[0]
        if type(t) is Tensor and t._root is None:
            # (a view pushed into the expression: its layout as NumPy's, below)
            moved = len(t._n.shape) >= 2 and _pushed_views(t._n)
            got = _cached_runner()(t._n, get_options())
            if got is not None:
                return tuple(_in_numpys_layout([t._n], got, [moved])) if moved else tuple(got)
    # The tensors' nodes as they are, perhaps pending: entered only if the
    # plan cache cannot run them from their summaries.
    nodes = []
    for t in tensors:                 # a loop, not a comprehension (a call, in 3.11)
        nodes.append(_wrap(t)._head)
    # Where the optimizer moved a view into an expression, the result's
    # layout may be another than NumPy's: laid out so after (as ``eval``
    # lays out its result), decided before the graph runs
    pushed = [len(n.shape) >= 2 and _pushed_views(n) for n in nodes]
    # Copies of what aliases a user array, a cached value or another output:
    # the caller owns what it gets.
    vals = _caller_owned(nodes, _compute_keeping(nodes))
    # (``True in``: this module's ``any`` is lazyten's)
    return tuple(_in_numpys_layout(nodes, vals, pushed)) if True in pushed else vals


def explain(*tensors: Any, verbose: bool = False, renumber: bool = False) -> str:
    """The optimized plan as text: one line per step (kind, output type, the
    fused kernel's expression, the buffer it writes and whether reused or in
    place), then a summary (kernels, temporaries, peak memory estimate, what
    the optimizer removed).  Computes nothing.

    >>> import lazyten as lt
    >>> a = lt.arange(1000.0)
    >>> print(lt.explain(2 * a + 1))  # doctest: +ELLIPSIS
    step 0   input ...
    """
    from .exec.explain import format_plan
    from .tensor import wrap
    if not get_options().optimize:
        # What runs is the graph itself, node by node: show exactly that.
        nodes = [wrap(t)._node for t in tensors]
        return ("optimize=False: each node runs as its NumPy function, in this order\n"
                + format_graph(nodes, renumber=renumber))
    # renumber=True names values by step number: the same text on every run.
    text = format_plan(plan(*tensors), verbose=verbose, renumber=renumber)
    from .exec.optimized import node_by_node_note
    note = node_by_node_note([wrap(t)._node for t in tensors], get_options())
    return text if note is None else f"{text}\n-- {note}"


def plan(*tensors: Any) -> Any:
    """The ``Plan`` (steps, buffers, peak estimate) that evaluating would run."""
    from .exec.optimized import plan_for
    from .tensor import wrap
    opts = get_options()
    return plan_for([wrap(t)._node for t in tensors], opts)


def debugprint(*tensors: Any, renumber: bool = False) -> str:
    """The unoptimized graph as text, one line per node with its source line
    (``renumber=True``: ids ``%0, %1, ...`` in order, the same on every run)."""
    from .tensor import wrap
    return format_graph([wrap(t)._node for t in tensors], renumber=renumber)


def _attach_methods() -> None:
    """The methods that are module functions (``t.sum()``, ``t.swapaxes(0,
    1)``, ``t.argsort()``: ``functions.METHODS``, which sorting and
    manipulation extend) set on Tensor, where the class defines none.

    Class attributes, not a ``__getattr__``: a class with one has every
    attribute read of its instances unspecialized by the interpreter (3.11's
    ``LOAD_ATTR``), and each operator reads its operands' ``_n``/``_root``.
    """
    for name, fn in METHODS.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, fn)


_attach_methods()

__all__ = ["Tensor", "asarray", "array", "compute", "debugprint", "explain", "plan",
           "graph", "to_dot", "to_networkx", "visualize", "profile", "Profile",
           "set_options",
           "get_options", "Options", "random", "zeros", "ones", "full", "empty", "arange",
           "linspace", "eye", "identity", *sorted(ELEMENTWISE)]

# The array API's names for the standard's version and its inspection
# namespace (NumPy's: the same devices, dtypes and defaults).
__array_api_version__ = "2023.12"
__array_namespace_info__ = np.__array_namespace_info__


def __getattr__(name: str) -> Any:
    # The array API's ``bool`` dtype, served here so that it does not shadow
    # the builtin in this module (its functions and annotations use that).
    if name == "bool":
        return np.bool_
    raise AttributeError(f"module 'lazyten' has no attribute {name!r}")
