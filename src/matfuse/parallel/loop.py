"""The client side of ``parfor``: validate the range, decide broadcast and
sliced values, then run the iterations on the pool (in chunks) or, with no
pool, serially in this process with the same parfor semantics.

Results do not depend on where iterations ran: sliced outputs are put back
slice by slice, and reductions fold every iteration's contribution in
iteration order, as the serial loop would.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError, Span
from matfuse.lang import ast
from matfuse.parallel import reduction
from matfuse.parallel.classify import ParforPlan, classify
from matfuse.parallel.iterations import (
    IterationError, compile_body, iteration_error, run_iterations,
)
from matfuse.parallel.stats import STATS
from matfuse.runtime.values import FunctionHandle
from matfuse.vm.parfor_compiler import register_parfor_compiler

def range_values(value: Any) -> list[float]:
    """The loop values of ``parfor i = value``: consecutive integers."""
    if type(value) is float:
        arr = np.array([value])
    elif isinstance(value, np.ndarray) and value.dtype.kind in "fiub":
        arr = value.reshape(-1) if value.ndim == 2 and value.shape[0] <= 1 else None
    else:
        arr = None
    if arr is None or (arr.size and (not np.all(np.isfinite(arr.astype(float)))
                                     or np.any(arr != np.round(arr))
                                     or np.any(np.diff(arr.astype(float)) != 1))):
        raise MatlabError("MATLAB:parfor:range_not_consecutive",
                          "The range of a parfor statement must be a row vector of "
                          "consecutive increasing integers.")
    return [float(v) for v in arr]


class ParforStatement:
    """A compiled ``parfor`` statement: ``stmt(frame)`` runs it."""

    def __init__(self, plan: ParforPlan, span: Span, iterable: Callable[[Any], Any],
                 max_workers: Callable[[Any], Any] | None, scope: Any):
        self.plan = plan
        self.span = span
        self.iterable = iterable
        self.max_workers = max_workers
        self.serial_body = compile_body(plan, scope)
        self._code_key: str | None = None

    @property
    def code_key(self) -> str:
        """A digest of the classified body: workers keep its compiled body."""
        if self._code_key is None:
            self._code_key = hashlib.sha256(pickle.dumps(self.plan)).hexdigest()[:16]
        return self._code_key

    def __call__(self, fr: Any) -> Any:
        plan = self.plan
        values = range_values(self.iterable(fr))
        limit = None
        if self.max_workers is not None:
            raw = np.asarray(self.max_workers(fr), dtype=float).reshape(-1)
            if raw.size != 1 or raw[0] < 0 or raw[0] != round(raw[0]):
                raise MatlabError("MATLAB:parfor:maxWorkers",
                                  "The maximum number of workers of a parfor statement must "
                                  "be a nonnegative integer scalar.")
            limit = int(raw[0])
        broadcast, sliced = self._classify_values(fr)
        for name in plan.reductions:
            if name not in fr:
                raise MatlabError("MATLAB:parfor:reduction_variable_set",
                                  f"The reduction variable '{name}' must be set before the "
                                  f"PARFOR loop.")
        if not values:
            return None
        from matfuse.parallel.pool import current

        pool = current()
        if pool is None or limit == 0:
            self._run_serial(fr, values, broadcast, sliced)
        else:
            from matfuse.parallel.distributed import run_on_pool

            outputs, contributions = run_on_pool(pool, plan, self.code_key, fr, values,
                                                 broadcast, sliced, limit)
            for name, value in outputs.items():
                fr[name] = value
            self._fold(fr, contributions)
        return None

    def _classify_values(self, fr: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """(broadcast values, sliced variables' values) from the workspace:
        read-only names that are not variables are functions."""
        plan = self.plan
        broadcast = {}
        for name in plan.reads:
            if name in fr:
                broadcast[name] = fr[name]
        sliced = {}
        for name in plan.sliced:
            if name not in fr:
                continue
            value = fr[name]
            if name not in plan.sliced_outputs and isinstance(value, FunctionHandle):
                broadcast[name] = value
            else:
                sliced[name] = value
        # Offsets name broadcast values too.
        for form in plan.sliced.values():
            if type(form.offset) is ast.Ident and form.offset.name in fr:
                broadcast[form.offset.name] = fr[form.offset.name]
        return broadcast, sliced

    def _run_serial(self, fr: Any, values: list[float], broadcast: dict[str, Any],
                    sliced: dict[str, Any]) -> None:
        STATS.serial_loops += 1
        STATS.iterations += len(values)
        try:
            outcome = run_iterations(fr.interp, fr.scope, fr.file, self.serial_body,
                                     self.plan, values, broadcast, sliced)
        except IterationError as failure:
            raise iteration_error(failure.error, failure.iteration) from None
        for name in self.plan.sliced_outputs:
            if name in outcome.sliced:
                fr[name] = outcome.sliced[name]
        self._fold(fr, outcome.contributions)

    def _fold(self, fr: Any, contributions: dict[str, list]) -> None:
        interp = fr.interp

        def call(name: str, args: list[Any]) -> Any:
            return interp.call(name, args, 1)[0]

        for name, red in self.plan.reductions.items():
            entries = contributions.get(name)
            if entries:
                fr[name] = reduction.fold(fr[name], red, entries, call)


def compile_parfor(node: ast.For, value_compiler: Callable[[ast.Expr], Callable],
                   scope: Any) -> ParforStatement:
    """Classify and compile ``node`` (raises MATLAB's classification errors)."""
    if type(node.var) is not ast.Ident:
        raise MatlabError("MATLAB:parfor:loop_variable",
                          "The PARFOR loop variable must be a simple name.", node.span)
    plan = classify(node.var.name, node.body)
    limit = node.max_workers
    return ParforStatement(plan, node.span, value_compiler(node.iterable),
                           value_compiler(limit) if limit is not None else None, scope)


register_parfor_compiler(compile_parfor)
