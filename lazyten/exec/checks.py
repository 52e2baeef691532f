"""``verify_plan``: an independent re-check of a plan's buffer decisions.

The planner decides reuse and in-place writes from ``last_use``; this module
recomputes who reads what from the steps alone and checks that the plan

* never writes a buffer while a value in it is still to be read,
* never writes user-provided arrays or cached values (EXTERNAL),
* never frees a buffer that an output (or a view an output is) still uses,
* lets an in-place kernel overwrite only an operand that dies at it and that
  no other operand of the step reads through another view,
* lets kernels write into a join's buffer only as operands of that join, in
  the join's buffer, and the join gather only what they did not write;
* lets a kernel write into a write's part only as that write's value, read
  by it at the next step, over a base that only the write still reads.

Run after every plan when ``lt.set_options(check=True)`` (the tests do).
"""

from __future__ import annotations

from .planner import EXTERNAL, Plan, reads_apart


class PlanError(AssertionError):
    """The plan would corrupt data: a lazyten bug, never a user error."""


def verify_plan(plan: Plan) -> None:
    last_read: dict[int, int] = {}
    for s in plan.steps:
        if s.kind == "source":
            continue
        for i in s.node.inputs:
            last_read[i.id] = s.index
    end = len(plan.steps)
    for o in plan.outputs:
        last_read[o.id] = end

    living: dict[int, set[int]] = {}      # buffer -> node ids whose value lives in it
    freed: set[int] = set()
    step_of = {s.node.id: s for s in plan.steps}
    for s in plan.steps:
        n = s.node
        b = s.buffer
        writes = s.kind in ("kernel", "numpy", "blas")
        if s.into is not None:
            # A slice of the join's buffer: the other operands' slices in it
            # stay alive (disjoint), so nothing of them is overwritten.
            j = s.into[0]
            js = step_of.get(j.id)
            if js is None or js.buffer != b or n.id not in js.joined or b in freed \
                    or sum(1 for i in j.inputs if i.id == n.id) != 1 \
                    or last_read[n.id] != js.index:
                raise PlanError(f"step {s.index} (%{n.id}) writes into %{j.id}'s buffer "
                                f"without being an operand only that join reads")
            for other in living.get(b, set()):
                if other not in js.joined:
                    raise PlanError(f"step {s.index} (%{n.id}) writes into b{b}, which holds "
                                    f"%{other}, no operand of the join")
            writes = False                   # checked here instead
        if s.update is not None:
            u, base = s.update
            us = step_of.get(u.id)
            if us is None or us.index != s.index + 1 or not us.filled or us.buffer != b \
                    or [i.id for i in u.inputs] != [base.id, n.id] \
                    or last_read[n.id] != us.index:
                raise PlanError(f"step {s.index} (%{n.id}) writes into %{u.id}'s part "
                                f"without being its value, read by that write next")
            if s.inplace_of is not None:
                # Over the base's buffer: everything in it dead by now but
                # the base, which only the write reads, and no operand of
                # the kernel in it.
                if s.inplace_of != base.id:
                    raise PlanError(f"step {s.index} (%{n.id}) writes over %{s.inplace_of}, "
                                    f"not %{base.id}, the base of %{u.id}")
                # (an operand that is the part itself, read element for
                # element where it is written, or a slice apart from it may
                # be in it: ``x[2:5] *= x[8:11]``)
                part = {i.id for i in n.inputs if reads_apart(i, n, u)}
                for other in living.get(b, set()) - part:
                    if other != base.id and last_read.get(other, -1) >= s.index \
                            or last_read.get(other, -1) > us.index:
                        raise PlanError(f"step {s.index} (%{n.id}) writes into b{b} while "
                                        f"%{other} is still read at step {last_read[other]}")
                if any(i.id in living.get(b, set()) - part for i in n.inputs):
                    raise PlanError(f"step {s.index} (%{n.id}) writes into b{b}, which it "
                                    f"reads")
                writes = False               # checked here instead
        filler = n.inputs[1].id if s.filled else None
        if filler is not None:
            ks = step_of.get(filler)
            if ks is None or ks.update is None or ks.update[0] is not n or ks.buffer != b:
                raise PlanError(f"step {s.index} (%{n.id}) takes its part as written, but no "
                                f"kernel wrote it there")
        for x in s.joined:
            # The join copies in only what its kernels did not write: each
            # operand it counts as written must have been, into this join.
            xs = step_of.get(x)
            if xs is None or xs.into is None or xs.into[0] is not n or xs.buffer != b:
                raise PlanError(f"step {s.index} (%{n.id}) takes %{x} as written into its "
                                f"buffer, but no kernel wrote it there")
        if s.kind in ("kernel", "numpy", "blas") and b == EXTERNAL:
            raise PlanError(f"step {s.index} (%{n.id}) writes into user/cached data")
        if writes and b in freed and not (s.reused == b or s.inplace_of is not None):
            raise PlanError(f"step {s.index} writes b{b} after it was freed, without reuse")
        if writes:
            for other in living.get(b, set()):
                dies_here = last_read.get(other, -1) <= s.index
                if s.inplace_of == other and dies_here:
                    continue
                if (other in s.joined or other == filler) and dies_here:
                    continue                 # written there by its kernel, for this step
                if last_read.get(other, -1) >= s.index:
                    raise PlanError(f"step {s.index} (%{n.id}) overwrites b{b} while %{other} "
                                    f"is still read at step {last_read[other]}")
            if s.inplace_of is not None:
                aliases = [i for i in n.inputs if i.id not in (s.inplace_of, filler)
                           and i.id in living.get(b, set())]
                if aliases:
                    raise PlanError(f"step {s.index} writes in place into b{b}, which operand "
                                    f"%{aliases[0].id} also reads")
            living[b] = set()
            freed.discard(b)
        if b != EXTERNAL:
            living.setdefault(b, set()).add(n.id)
        for fb in s.frees:
            users = living.get(fb, set())
            late = [u for u in users if last_read.get(u, -1) > s.index]
            if late:
                raise PlanError(f"step {s.index} frees b{fb} but %{late[0]} is read at "
                                f"step {last_read[late[0]]}")
            freed.add(fb)
