"""A fused node compiled for execution: its backend choice and how to run it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..graph.layout import dense_layout
from ..graph.node import Node
from ..options import Options
from . import fpflags, layout, loop_backend, numpy_backend
from .cost import get_model
from .numexpr_backend import NumexprKernel, compile_numexpr


@dataclass
class Kernel:
    node: Node
    backend: str                         # "numpy" (plain), "blocked", "numexpr", "loop", "mixed"
    numexpr: NumexprKernel | None
    # Slots and ready-to-call instructions, computed once per plan.
    prepared: numpy_backend.Prepared
    block_elems: int                     # elements per block when run blocked
    estimates: dict[str, float] = field(default_factory=dict)
    why: str = ""
    # Leading size-1 axes the blocked loop drops: a stack's operand kernels
    # are (1, n) after pushdown, and blocks are rows of the first axis.
    lead: int = 0
    # A "loop" kernel's compiled loop, and the backend it runs on until the
    # loop is compiled (see loop_backend) or where an operand has no flat view.
    loop: loop_backend.LoopForm | None = None
    fallback: str = ""
    compile_now: bool = False            # backend="loop": compile at the first run
    # A "mixed" kernel's split (NumPy head, compiled tail) and its head made
    # ready; it runs on its fallback ("blocked" or "numpy"), with the tail
    # once that is compiled.
    mixed: loop_backend.MixedForm | None = None
    mixed_prep: numpy_backend.Prepared | None = None
    # A kernel of two or more axes: its first full-size input, whose layout
    # says whether it runs in C order (the common case, told by one flag) or
    # in the operands' memory order (``layout``); ``BROADCASTS`` where every
    # input is broadcast (``P[:, None] - Q[None]``: each one's flag is
    # read); else -1.
    probe: int = -1
    # backend="numexpr" was asked for: its numexpr form runs whatever
    # np.errstate heeds (but "raise"), silent as numexpr is.  Otherwise a
    # numexpr form (the cost model's pick, or a loop's fallback) runs only
    # where NumPy's warnings are not lost (``numexpr_now``).
    numexpr_asked: bool = False
    # The loop of the kernel over its axes permuted (by the permutation),
    # made when first needed: rows and columns are other axes there.
    moved_loops: dict[tuple[int, ...], loop_backend.LoopForm | None] = \
        field(default_factory=dict)
    # The elementwise loop reading strided operands by rows (``grid_kinds``),
    # made when first needed, by the permutation and the operands' grid kinds.
    grid_loops: dict[tuple[Any, ...], loop_backend.LoopForm | None] = \
        field(default_factory=dict)
    # NumPy's memory order of the elementwise result (``layout.program_order``)
    # by the operands' shapes and strides
    orders: dict[tuple[Any, ...], tuple[int, ...] | None] = field(default_factory=dict)

    @property
    def program(self) -> Any:
        return self.node.attrs["program"]

    @property
    def reduce(self) -> Any:
        return self.node.attrs["reduce"]

    @property
    def elem_shape(self) -> tuple[int, ...]:
        return tuple(self.node.attrs["elem_shape"])

    @property
    def block_shape(self) -> tuple[int, ...]:
        """The shape the blocked loop splits into rows (``lead`` dropped)."""
        return self.elem_shape[self.lead:]

    def scratch_bytes(self, threads: int) -> int:
        """Memory the kernel allocates while it runs, beyond its output: the
        blocked loop's blocks, or plain NumPy's full-size slots (a compiled
        loop: its fallback's, which its first runs use).  (numexpr's own
        block registers are not counted: a few KiB a thread, nor the blocked
        fallback a numexpr kernel takes under errstate "raise".)"""
        shape = self.elem_shape
        backend = self.fallback if self.backend in ("loop", "mixed") else self.backend
        if not shape or (backend == "numexpr" and self.numexpr is not None):
            return 0
        if backend == "blocked" or backend == "numexpr":
            # (a mixed kernel's compiled tail takes row blocks: an upper bound)
            return numpy_backend.blocked_scratch_bytes(self.prepared, self.reduce,
                                                       self.block_shape, self.node.dtype,
                                                       self.block_elems, threads,
                                                       self.mixed is not None)
        return numpy_backend.plain_scratch_bytes(self.prepared, shape)

    def _tail(self, args: list[Any], out: np.ndarray[Any, Any]) -> numpy_backend.TailCall | None:
        """A mixed kernel's compiled tail for this run, or None (not compiled
        yet, unusable, or an operand without a flat view: NumPy runs all)."""
        m, prep = self.mixed, self.mixed_prep
        if m is None or prep is None or not fpflags.loops_may_run():
            return None
        return loop_backend.tail_call(m, prep, args, out if self.reduce is None else None,
                                      self.compile_now)

    def run(self, args: list[Any], out: np.ndarray[Any, Any] | None, threads: int,
            fresh: bool = False) -> Any:
        """The kernel's value, computed into ``out`` (None: a new array).

        Over transposed or Fortran-ordered operands the kernel runs in their
        memory order, as NumPy's ufuncs do (``layout``): an elementwise
        result is laid out so (a new one owns its memory in that order;
        ``fresh``: ``out`` is a dead buffer whose memory may take it), and a
        reduction adds up in NumPy's order over that layout.
        """
        if self.probe != -1 and self._not_c_ordered(args) and \
                (moved := layout.in_memory_order(
                    args, out, self.elem_shape, self.reduce, self.node.shape,
                    self.node.dtype, fresh, self.probe, self._order(args))) is not None:
            self._run(moved.args, moved.into, threads, moved)
            return moved.result
        if out is None:
            out = np.empty(self.node.shape, self.node.dtype)
            self._run(args, out, threads)
            return out
        return self._run(args, out, threads)

    def keeps_layout_in(self, args: list[Any], out: np.ndarray[Any, Any]) -> bool:
        """Whether the kernel's elementwise result over ``args``, written
        into ``out`` (an operand's dying buffer: ``Step.inplace_of``), is
        laid out as NumPy's: ``out`` is in the kernel's order.  An F buffer
        (a sum over F data) with a C operand (``x.sum((3, 0)) + y[::2]``)
        is C to NumPy; written in place it was F."""
        if self.probe == -1 or self.reduce is not None:
            return True          # (one axis; a reduction's out keeps its layout)
        if not self._not_c_ordered(args):
            return bool(out.flags.c_contiguous)
        axes = self._order(args)
        return bool((out if axes is None else out.transpose(axes)).flags.c_contiguous)

    def result_layout(self, args: list[Any]) -> Any:
        """The layout (``graph.layout``'s "C", "F" or strides) of ``run(args,
        None)``'s elementwise result, NumPy's, without running it; a join's
        buffer takes its operands' (``optimized._join_buffer``)."""
        assert self.reduce is None, "an elementwise kernel's"
        if self.probe == -1 or not self._not_c_ordered(args):
            return "C"
        return dense_layout(self.node.shape, self.node.dtype.itemsize, self._order(args))

    def _order(self, args: list[Any]) -> tuple[int, ...] | None:
        """NumPy's memory order of the kernel's elementwise result on
        ``args`` (``layout.program_order``), remembered by their layouts."""
        key = tuple((a.shape, a.strides) if isinstance(a, np.ndarray) else None for a in args)
        try:
            return self.orders[key]
        except KeyError:
            pass
        if len(self.orders) >= ORDERS_KEPT:
            self.orders.clear()
        order = self.orders[key] = layout.program_order(self.program, args)
        return order

    def _not_c_ordered(self, args: list[Any]) -> bool:
        """Some operand may lay the kernel out in another order than C's."""
        if self.probe >= 0:
            return not args[self.probe].flags.c_contiguous
        return any(isinstance(a, np.ndarray) and not a.flags.c_contiguous for a in args)

    def _run(self, args: list[Any], out: np.ndarray[Any, Any], threads: int,
             moved: layout.Moved | None = None) -> Any:
        """``run`` in C order over the kernel's element shape, or ``moved``
        (``layout``), its axes permuted: a loop over rows or columns is then
        the one for the permuted axes (``_moved_loop``), and a mixed
        kernel's tail runs only where it reads every operand flat."""
        backend = self.backend
        frame = None if moved is None else (moved.shape, moved.reduce)
        if backend == "mixed":
            tail = self._tail(args, out) if moved is None or self.mixed is None \
                or self._flat_only(self.mixed.loop) else None
            if tail is None or self.mixed_prep is None:
                if self.mixed is None or loop_backend.is_compiled(self.mixed.loop):
                    return self._numpy(self.fallback, self.prepared, args, out, threads,
                                       frame=frame)
                return self._pending(self.mixed.loop, self.fallback, args, out, threads, frame)
            res = self._numpy(self.fallback, self.mixed_prep, args, out, threads, tail,
                              frame=frame)
            if self._must_run_again(fpflags.union(tail.raised), args, out):
                self._again(self.fallback, args, out, threads, frame)
            return res
        if backend == "loop":
            backend = self.fallback
            # (Under errstate "raise" too: a flag it heeds makes NumPy run
            # the kernel again, and raise.)
            form = self.loop
            if moved is not None and form is not None and form.mode not in ("ew", "sum"):
                form = self._moved_loop(moved.axes)
            if form is not None and fpflags.loops_may_run():
                flat = loop_backend.flat_args(form, args)
                if (flat is None or not loop_backend.flat_out(form, out)) and (
                        grid := self._grid_loop(form, args, out,
                                                None if moved is None else moved.axes)
                ) is not None:
                    form, flat = grid
                fn = loop_backend.compiled(form, self.compile_now) \
                    if flat is not None else None
                if fn is not None and flat is not None:
                    try:
                        # numba compiles for the argument types at the first call
                        raised = loop_backend.run(fn, form, flat, out, threads)
                    except Exception as e:  # noqa: BLE001 (the loop never raises on data)
                        loop_backend.failed(form, e)
                    else:
                        if raised is not None:
                            if self._must_run_again(raised, args, out):
                                self._again(backend, args, out, threads, frame)
                            return out
                elif flat is not None:
                    return self._pending(form, backend, args, out, threads, frame)
        return self._fallback(backend, args, out, threads, frame)

    def _fallback(self, backend: str, args: list[Any], out: np.ndarray[Any, Any],
                  threads: int, frame: tuple[tuple[int, ...], Any] | None) -> Any:
        ne = self.numexpr
        if backend == "numexpr" and ne is not None:
            how = numexpr_now(ne, self.numexpr_asked)
            if how == "run":
                return ne(args, out)
            if how == "check" and not numpy_backend.overlaps(out, args):
                # (over an input, NumPy could not run again: it runs instead)
                ne(args, out)
                if fpflags.finite(out):
                    return out
                fpflags.count_run_again()    # NumPy's values again, and its warnings
        return self._numpy(backend, self.prepared, args, out, threads, frame=frame)

    def _pending(self, form: loop_backend.LoopForm, backend: str, args: list[Any],
                 out: np.ndarray[Any, Any], threads: int,
                 frame: tuple[tuple[int, ...], Any] | None) -> Any:
        """The NumPy fallback of a loop not compiled yet, timed: its runs
        pay for the compile (``loop_backend.compiled``)."""
        t0 = time.perf_counter()
        res = self._fallback(backend, args, out, threads, frame)
        loop_backend.ran_fallback(form, time.perf_counter() - t0)
        return res

    def _moved_loop(self, axes: tuple[int, ...]) -> loop_backend.LoopForm | None:
        """The loop of the kernel run with its axes permuted to ``axes``
        (``layout``): a loop over rows or columns (``ew2``, ``rows``,
        ``cols``) reads other operands as rows there, and NumPy reduces
        other axes in another order.  Made once per permutation; compiled
        under the same policy as the kernel's own."""
        if axes not in self.moved_loops:
            self.moved_loops[axes] = loop_backend.loop_form(
                self.program, self.node.inputs, self.reduce, self.elem_shape,
                self.node.dtype, axes)
        return self.moved_loops[axes]

    def _grid_loop(self, form: loop_backend.LoopForm, args: list[Any],
                   out: np.ndarray[Any, Any], axes: tuple[int, ...] | None
                   ) -> tuple[loop_backend.LoopForm, list[Any] | None] | None:
        """The elementwise loop ``form`` reading its full-size operands that
        have no flat view by rows of their own strides (slices of a grid:
        ``u[:-2, 1:-1] + u[2:, 1:-1]``, one pass where NumPy's fallback made
        a temporary an op), and writing an ``out`` without one so (the part
        of a write's buffer: ``v[1:-1, 1:-1] = ...``), or None where they are
        no grids (``loop_backend.grid_kinds``), with its arguments.  Made
        once per permutation and kinds; compiled under the same policy as
        the kernel's own loop."""
        if self.reduce is not None:
            return None
        shape = tuple(self.elem_shape[a] for a in axes) if axes is not None \
            else self.elem_shape
        split = loop_backend.grid_shape(form, shape)
        if split is None:
            return None
        got = loop_backend.grid_kinds(form, args, out, *split)
        if got is None:
            return None
        kinds, grids, out_grid = got
        out_kind = None if out_grid is None else out_grid[2]
        key = (axes, kinds, out_kind)
        if key not in self.grid_loops:
            self.grid_loops[key] = loop_backend.loop_form(
                self.program, self.node.inputs, self.reduce, self.elem_shape,
                self.node.dtype, axes, kinds if any(kinds) else (), out_kind)
        grid = self.grid_loops[key]
        return None if grid is None else (
            grid, loop_backend.flat_args(grid, args, grids, out_grid))

    @staticmethod
    def _flat_only(form: loop_backend.LoopForm) -> bool:
        """The loop reads every operand flat or as one element."""
        return "row" not in form.kinds and "col" not in form.kinds

    def _must_run_again(self, flags: int, args: list[Any], out: np.ndarray[Any, Any]) -> bool:
        """Whether NumPy must run the kernel again for the floating-point
        flags its compiled loop (or tail) raised: some that ``np.errstate``
        heeds, and the loop has not overwritten an input (the planner's
        in-place writes).  If it has, ``fpflags.report`` warns (or raises)
        here instead, naming the loop's ops."""
        heeded = fpflags.heeded(flags)
        if not heeded:
            return False
        if numpy_backend.overlaps(out, args):
            ops = self.mixed.tail_ops if self.mixed is not None else \
                tuple(ins[0] for ins in self.program) + (
                    (self.reduce[0],) if self.reduce is not None else ())
            fpflags.report(heeded, ops)
            return False
        return True

    def _again(self, backend: str, args: list[Any], out: np.ndarray[Any, Any],
               threads: int, frame: tuple[tuple[int, ...], Any] | None = None) -> None:
        """Run the kernel again on NumPy, for its warnings (or errors): eager
        NumPy's own, from its own ufuncs.  An elementwise kernel writes its
        values again, the same bits; a reduction's go to a scratch array, as
        the blocked reduction's block partials differ from NumPy's order in
        the last bits where the loop's did not."""
        fpflags.count_run_again()
        dst = out if self.reduce is None else np.empty_like(out)
        # (a numexpr fallback runs blocked here: numexpr would not warn)
        self._numpy(backend, self.prepared, args, dst, threads, frame=frame)

    def _numpy(self, backend: str, prep: numpy_backend.Prepared, args: list[Any],
               out: np.ndarray[Any, Any], threads: int,
               tail: numpy_backend.TailCall | None = None,
               frame: tuple[tuple[int, ...], Any] | None = None) -> Any:
        """Run on NumPy: blocked (numexpr's kernels too, where a number of
        elements is blocked), else plain; with a mixed kernel's tail; over
        ``frame``, the element shape and reduction with permuted axes, where
        given (``layout``)."""
        elem_shape, reduce, lead = self.elem_shape, self.reduce, self.lead
        if frame is not None:
            (elem_shape, reduce), lead = frame, 0
            # (leading length-1 axes dropped as at plan time: elementwise only)
            while reduce is None and lead < len(elem_shape) - 1 and elem_shape[lead] == 1:
                lead += 1
        if backend == "blocked" or (backend == "numexpr" and elem_shape):
            if lead:
                core = len(elem_shape) - lead
                args = [a[(0,) * (a.ndim - core)] if isinstance(a, np.ndarray) and a.ndim > core
                        else a for a in args]
                numpy_backend.run_blocked(prep, reduce, args, elem_shape[lead:],
                                          self.node.dtype, out[(0,) * lead],
                                          self.block_elems, threads, tail)
                return out
            return numpy_backend.run_blocked(prep, reduce, args, elem_shape,
                                             self.node.dtype, out, self.block_elems,
                                             threads, tail)
        return numpy_backend.run_plain(self.program, prep, reduce, args, out,
                                       elem_shape, tail)


# How many layouts of its operands a kernel remembers its order for.
ORDERS_KEPT = 64

# ``Kernel.probe`` of a kernel of two or more axes without a full-size input.
BROADCASTS = -2


def numexpr_now(ne: NumexprKernel, asked: bool) -> str:
    """How a kernel's numexpr form may run under the current ``np.errstate``:
    "run" (asked for, and nothing raises; or its ops raise no flag that
    errstate heeds), "check" (every error it can raise leaves a NaN or an
    infinity in its output, and errstate does not heed underflow, which
    leaves none: run, and where the output is not all finite, NumPy runs
    again and warns as eager NumPy) or "numpy" (NumPy runs it: numexpr would
    lose a warning or an error)."""
    heeds, raises = fpflags.errstate_now()
    if asked:
        return "numpy" if raises else "run"
    heeded = heeds & ne.flags
    if not heeded:
        return "run"
    return "check" if ne.traced and not heeded & fpflags.UNDER else "numpy"


def compile_kernel(node: Node, opts: Options, threads: int) -> Kernel:
    """Choose the backend for a ``fused`` node (``opts.backend`` or the cost model).

    numexpr is only ever chosen where it is exact; under
    ``np.errstate(all="raise")`` its kernels run on NumPy so errors surface
    (a compiled loop's are read from the CPU's flags: ``Kernel.run``).
    """
    program, reduce = node.attrs["program"], node.attrs["reduce"]
    elem_shape = tuple(node.attrs["elem_shape"])
    n = 1
    for d in elem_shape:
        n *= d
    model = get_model()
    names = [ins[0] for ins in program]
    arrays = 1 + sum(1 for i in node.inputs if i.size == n)
    prep = numpy_backend.prepare(program, len(node.inputs), reduces=reduce is not None,
                                 one_element=n == 1)
    # The block of this kernel's widest dtype and number of scratch slots.
    widest = max([node.dtype.itemsize] + [np.dtype(d).itemsize
                                          for d in {ins[3] for ins in program}])
    block = model.block_for(widest, len(prep.slot_dtypes))
    # The loop's form (generated source) only where it could run: "auto"
    # never picks a loop below AUTO_MIN, and planning 10,000 small kernels
    # should not write 10,000 sources.
    wants_loop = opts.backend == "loop" or (opts.backend == "auto"
                                            and n >= loop_backend.AUTO_MIN)
    form = loop_backend.loop_form(program, node.inputs, reduce, elem_shape, node.dtype) \
        if wants_loop and loop_backend.available() else None
    # Where the whole kernel has no loop: its exact ops as a compiled tail
    # of the NumPy ops (MixedForm).
    mixed = loop_backend.mixed_form(program, node.inputs, elem_shape, node.dtype) \
        if wants_loop and form is None and loop_backend.available() else None
    # (a pairwise sum is scalar code; a sum of rows into the result is
    # vectorized like an elementwise loop)
    est = model.estimate(names, n, threads, node.dtype == np.float32, arrays, block,
                         reduces=form.mode in ("sum", "rows") if form is not None
                         else reduce is not None,
                         tail=mixed.tail_ops if mixed is not None else (),
                         tail_operands=len(mixed.operands) if mixed is not None else 0,
                         sequential=form is not None and form.op != "sum"
                         and form.mode == "sum")
    # Leading size-1 axes are dropped for blocking (elementwise kernels only:
    # a reduction's axes are numbered in the full shape).
    lead = 0
    if reduce is None:
        while lead < len(elem_shape) - 1 and elem_shape[lead] == 1:
            lead += 1
    blockable = len(elem_shape) > lead and elem_shape[lead] > 1
    probe = next((k for k, x in enumerate(node.inputs) if x.shape == elem_shape), BROADCASTS) \
        if len(elem_shape) > 1 else -1

    def kernel(backend: str, why: str, ne: NumexprKernel | None = None,
               fallback: str = "") -> Kernel:
        numpy_like = fallback if backend in ("loop", "mixed") else backend
        m = mixed if backend == "mixed" else None
        return Kernel(node, backend, ne, prep, block, est, why,
                      lead if numpy_like != "numpy" else 0,
                      form if backend == "loop" else None, fallback,
                      opts.backend == "loop", m,
                      numpy_backend.prepare_mixed(m.head, len(node.inputs), m.operands,
                                                  np.dtype(program[-1][3]), reduce is not None)
                      if m is not None else None, probe,
                      numexpr_asked=opts.backend == "numexpr")
    if opts.backend == "numexpr":
        ne = compile_numexpr(program, list(node.inputs)) if reduce is None else None
        if ne is not None:
            return kernel("numexpr", "backend='numexpr'", ne)
        why = "backend='numexpr' but numexpr is not exact here: NumPy"
        return kernel("blocked" if blockable else "numpy", why)
    if opts.backend in ("numpy", "loop"):
        numpy_choice = "blocked" if blockable and n > model.block_elems else "numpy"
        if form is not None:
            return kernel("loop", "backend='loop'", fallback=numpy_choice)
        if mixed is not None:
            return kernel("mixed", "backend='loop': no loop for the whole kernel, "
                          "its exact ops as a compiled tail", fallback=numpy_choice)
        if opts.backend == "loop":
            return kernel(numpy_choice, "backend='loop' but no exact loop here: NumPy")
        return kernel(numpy_choice, "backend='numpy'")
    choices: dict[str, float] = {}
    if blockable and n > model.block_elems:
        choices["blocked"] = est["blocked"]
    if not choices or n <= 4 * model.block_elems:
        # Plain NumPy only where arrays are small: its temporaries are full
        # size (memory-lean is the point), and their page faults are a cost
        # the per-element model does not see.
        choices["numpy"] = est["numpy"]
    # numexpr's form is made only where the model would pick it: making it
    # (the exactness checks, the expression, a trial run) cost more than the
    # rest of planning a small kernel, which numexpr never wins.
    ne = None
    tried = reduce is None and est["numexpr"] < min(choices.values())
    lost = False
    if tried:
        ne = compile_numexpr(program, list(node.inputs))
        # (not where it would run NumPy under this errstate: NumPy's warnings)
        lost = ne is not None and numexpr_now(ne, False) == "numpy"
        if ne is not None and not lost:
            choices["numexpr"] = est["numexpr"]
    fallback = min(choices, key=choices.__getitem__)
    if form is not None:
        choices["loop"] = est["loop"]
    if mixed is not None and "blocked" in choices:
        choices["mixed"] = est["mixed"]
    best = min(choices, key=choices.__getitem__)
    why = "cost model: " + ", ".join(f"{k} {v * 1e6:.0f}us" for k, v in sorted(
        choices.items(), key=lambda kv: kv[1]))
    if form is not None and form.op != "sum" and best != "loop":
        best = "loop"
        if form.op == "prod":
            # NumPy multiplies one element after the other; the blocked
            # loop's partial products differ in the last bits.  Exact is
            # worth the chain of multiplies (still 2x faster than NumPy here).
            why += "; loop: NumPy's order of the multiplies (blocked partial products differ)"
        else:
            # The blocked scan is exact too, but its chain is NumPy's
            # accumulate, a sequential loop 4x slower than the compiled one.
            why += "; loop: the scan's chain runs 4x faster compiled than as NumPy's accumulate"
    if lost:
        why += " (numexpr would not warn as NumPy does under this np.errstate)"
        ne = None
    elif tried and ne is None:
        why += " (numexpr not exact for these dtypes/ops)"
    elif reduce is None and ne is None:
        why += f" (numexpr {est['numexpr'] * 1e6:.0f}us: slower)"
    if best == "loop":
        why += f"; {fallback} until the loop is compiled"
    elif best == "mixed":
        # (the tail runs inside the blocked loop: blocked until it is compiled)
        fallback = "blocked"
        why += "; blocked until its tail loop is compiled"
    return kernel(best, why, ne, fallback if best in ("loop", "mixed") else "")
