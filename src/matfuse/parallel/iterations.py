"""Running parfor iterations in one process (a worker's chunk, or the whole
loop on the client when there is no pool).

Each iteration starts from a workspace holding only the broadcast values,
the sliced variables and the loop variable: temporaries are cleared at the
start of every iteration, as MATLAB does. Sliced variables carry over
between the iterations of a chunk (each iteration writes only its own
slices); reduction statements record contributions (``reduction.py``).

Random numbers: inside an iteration, ``rng(seed)`` also restarts the
device stream (``gpurng``) at that seed (``runtime/builtins/random.py``
asks :func:`inside_iteration`), so an iteration that seeds itself draws the
same host and gpuArray numbers wherever it runs: on the client, or on any
worker after any other iterations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matfuse.errors import MatlabError
from matfuse.parallel import reduction
from matfuse.parallel.classify import ParforPlan
from matfuse.vm.workspace import Frame

# How many run_iterations calls are running (nested: a parfor in a function
# called from an iteration runs serially inside it).
_ACTIVE_ITERATIONS = 0


def inside_iteration() -> bool:
    """True while a parfor iteration runs in this process."""
    return _ACTIVE_ITERATIONS > 0


def compile_body(plan: ParforPlan, scope: Any) -> Any:
    """The plan's body compiled in ``scope`` (run: ``fn(frame) -> signal``)."""
    from matfuse.vm.compiler import BodyCompiler
    from matfuse.vm.function_context import FunctionContext

    ctx = FunctionContext(scope, set(), None)
    return BodyCompiler(ctx).block(plan.body, set(plan.sliced_outputs)).run


@dataclass
class IterationError(Exception):
    """An error raised by iteration ``iteration`` (the loop variable's value)."""

    iteration: float
    error: MatlabError


@dataclass
class ChunkOutcome:
    sliced: dict[str, Any] = field(default_factory=dict)     # final local values
    contributions: dict[str, list] = field(default_factory=dict)


def run_iterations(interp: Any, scope: Any, file: str | None, run_body: Any,
                   plan: ParforPlan, values: list[float], broadcast: dict[str, Any],
                   sliced: dict[str, Any]) -> ChunkOutcome:
    """Run the iterations ``values`` of a parfor body.

    ``sliced``: the sliced variables' starting values (absent: undefined);
    the outcome holds their values after the last iteration and every
    reduction contribution. An error raises IterationError.
    """
    fr = Frame(interp, "parfor", file, scope)
    locals_ = dict(sliced)
    def call(name: str, args: list[Any]) -> Any:
        return interp.call(name, args, 1)[0]

    global _ACTIVE_ITERATIONS
    recorder = reduction.Recorder(plan.reductions, call)
    reduction.RECORDERS.append(recorder)
    _ACTIVE_ITERATIONS += 1
    prev = interp.frame
    interp.frame = fr
    loop_var = plan.loop_var
    try:
        for v in values:
            fr.clear()
            fr.update(broadcast)
            # The frame alone holds the sliced arrays while the body runs,
            # so indexed assignments update them in place (no copy each time).
            fr.update(locals_)
            locals_.clear()
            fr[loop_var] = v
            recorder.iteration = v
            try:
                run_body(fr)
            except MatlabError as err:
                raise IterationError(v, err) from None
            for name in plan.sliced:
                if name in fr:
                    locals_[name] = fr[name]
    finally:
        interp.frame = prev
        reduction.RECORDERS.pop()
        _ACTIVE_ITERATIONS -= 1
    return ChunkOutcome(locals_, recorder.contributions)


def iteration_error(err: MatlabError, iteration: float) -> MatlabError:
    """The client's error for an iteration's error: same identifier, the
    message naming the iteration; the original stack is kept."""
    out = MatlabError(err.identifier,
                      f"{err.message}\nError in parfor iteration {iteration:g}.")
    out.stack = list(err.stack)
    out.span = err.span
    out.function_name = err.function_name
    return out
