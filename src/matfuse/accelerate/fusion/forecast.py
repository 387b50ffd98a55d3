"""Launch forecasts: a script's first forced graph launched as the script starts.

Lazy fusion launches nothing until a sink forces a graph, so a script's
kernels start only after the interpreter has walked every statement before
that sink: on the H100 the elementwise benchmark spends ~0.3 ms of host time
(statement replay, ``exist`` checks, the launch plan's binding) ahead of a
0.4 ms kernel, one after the other. A script run again usually forces the
same first graph with the same values. So at script entry the executor
launches what the last run's first forced graph launched (the same launch
plan, the same uniforms and header words) into fresh buffers, and the
interpreter goes on while the GPU works. When the run forces its first
graph, the executor binds the plan as usual (``LaunchStep.bind``) and
compares:

* every binding identical (kernels, header words, uniforms bit for bit): the
  forecast's output buffers become the graph's outputs, nothing is launched;
* anything different, or another structure: the forecast's buffers are
  freed and the graph runs as it would have.

This is exact: a forecast kernel is a pure function of its bindings and reads
no buffer but the partial buffers its own plan writes. What is forecast
(``forecastable``): plans whose kernels read no materialised buffer (the
graph is generators and uniforms), draw no random numbers (their counters
move every run: every forecast would miss), set no domain flag and have no
extra fold passes. Two misses in a row stop forecasting for that script.
A miss costs the GPU time of the forecast kernels (counted in ``STATS``:
``forecast_launches`` / ``forecast_hits`` / ``forecast_misses``). Option
``forecast`` (``MATFUSE_FORECAST``).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

from matfuse.accelerate.fusion._launch_plan import FreeStep, LaunchPlan, LaunchStep
from matfuse.accelerate_api import Unsupported
from matfuse.errors import MatlabError
from matfuse.accelerate.fusion.graph import FNode, own_handle
from matfuse.accelerate.fusion.kernel import RenderedKernel

# Scripts with a forecast record kept per executor (cleared when full).
RECORD_LIMIT = 64
# Misses in a row after which a script is no longer forecast.
MISS_LIMIT = 2
_RANDOM = frozenset({"rand", "randn", "loop", "loopvar"})


@dataclass(slots=True)
class _Record:
    """What a script's first forced graph launched last time."""

    key: tuple                   # the launch-plan cache key (structure)
    plan: LaunchPlan
    kernels: list[RenderedKernel | None]   # per step: the bound kernel, None for frees
    scalars: list[bytes | None]  # per step: the uniforms as float64 bytes
    misses: int = 0


@dataclass(slots=True)
class _Pending:
    """A forecast in flight: per step, the output handles it launched."""

    record: _Record
    outputs: list[list[Any] | None] = field(default_factory=list)


class LaunchForecasts:
    """The forecasts of one executor (``FusionExecutor.forecasts``).

    The interpreter brackets every script run with :meth:`enter` and
    :meth:`leave` (through ``runtime.hints.site_forecaster``); the executor
    hands the first graph forced inside it to :meth:`first_graph`.
    """

    def __init__(self, executor: Any) -> None:
        self.executor = executor
        self._records: dict[Any, _Record | None] = {}
        self._site: Any = None
        self._pending: _Pending | None = None
        # True from a site's entry until its first forced graph.
        self.watching = False

    # ------------------------------------------------------------ sites
    def enter(self, site: Any) -> bool:
        """A script starts (``site``: its compiled body). Launches the last
        run's first graph when there is one; False inside another site
        (nested scripts are not watched)."""
        if self._site is not None:
            return False
        self._site = site
        self.watching = True
        record = self._records.get(site)
        if record is not None:
            self._pending = self._launch(record)
        return True

    def leave(self) -> None:
        """The script ended (normally or by an error): a forecast never
        claimed is freed."""
        if self._pending is not None:
            self._miss(self._pending)
        self._site = None
        self.watching = False

    # ------------------------------------------------------------ forcing
    def first_graph(self, key: tuple, plan: LaunchPlan, nodes: list[FNode]) -> Any:
        """Materialise the site's first forced graph (walk ``nodes``, plan
        ``plan`` under ``key``): the forecast's outputs when its bindings
        are the same, else the plan replayed; returns the root's handle."""
        self.watching = False
        bound: list[RenderedKernel | None] = [
            step.bind(nodes) if type(step) is LaunchStep else None for step in plan.steps]
        pending = self._pending
        self._pending = None
        if pending is not None:
            if pending.record.plan is plan and pending.record.key == key and _same(pending.record, bound):
                return self._adopt(pending, bound, nodes)
            self._miss(pending)
        handle = self.executor._run_bound(plan, bound, nodes)
        site = self._site
        record = self._records.get(site, _MISSING)
        if record is None:
            return handle  # stopped forecasting this site
        misses = record.misses if record is not _MISSING else 0
        if forecastable(plan, bound, nodes):
            if len(self._records) >= RECORD_LIMIT:
                self._records.clear()
            self._records[site] = _Record(key, plan, [_detached(k) for k in bound],
                                          [_scalar_bytes(k) for k in bound], misses)
        return handle

    def other_graph(self) -> None:
        """The site's first forced graph has no launch plan to compare
        (recorded just now, or not recordable): the forecast is wrong."""
        self.watching = False
        if self._pending is not None:
            pending = self._pending
            self._pending = None
            self._miss(pending)

    # ------------------------------------------------------------ internals
    def _launch(self, record: _Record) -> _Pending | None:
        """Launch ``record``'s kernels; None (and the record dropped) when the
        device refuses them: out of memory, a binding limit. The run itself
        then meets the same condition where MATLAB reports it."""
        from matfuse.accelerate.fusion.executor import STATS

        provider = self.executor.provider
        pending = _Pending(record)
        partials: dict[int, Any] = {}
        try:
            for step, kernel in zip(record.plan.steps, record.kernels):
                if kernel is None:
                    handle = partials.pop(step.node, None)
                    if handle is not None:
                        provider.free(handle)
                    pending.outputs.append(None)
                    continue
                inputs = [partials[i] for _, i in step.recipe.inputs]
                handles = provider.fused_elementwise(kernel, inputs, kernel.scalars, kernel.outputs)
                STATS.kernels += 1
                STATS.forecast_launches += 1
                if step.partial_of is not None:
                    partials[step.partial_of] = handles[0]
                    handles = [None] + list(handles[1:])
                pending.outputs.append(handles)
        except (Unsupported, MatlabError):
            for handle in partials.values():
                provider.free(handle)
            self._free_outputs(pending)
            self._records[self._site] = None
            return None
        for handle in partials.values():
            provider.free(handle)
        provider.flush()  # a provider that batches submits starts the GPU now
        return pending

    def _adopt(self, pending: _Pending, bound: list[RenderedKernel | None], nodes: list[FNode]) -> Any:
        from matfuse.accelerate.fusion.executor import STATS

        provider = self.executor.provider
        for kernel, handles in zip(bound, pending.outputs):
            if kernel is None or handles is None:
                continue
            for node, handle in zip(kernel.output_nodes, handles):
                if handle is None:
                    continue
                if node is None:
                    provider.free(handle)
                else:
                    own_handle(node, provider, handle)
        STATS.forecast_hits += 1
        pending.record.misses = 0
        self.executor._walks.clear()
        return nodes[-1].handle

    def _miss(self, pending: _Pending) -> None:
        from matfuse.accelerate.fusion.executor import STATS

        self._pending = None
        self._free_outputs(pending)
        STATS.forecast_misses += 1
        record = pending.record
        record.misses += 1
        if record.misses >= MISS_LIMIT and self._records.get(self._site) is record:
            self._records[self._site] = None

    def _free_outputs(self, pending: _Pending) -> None:
        provider = self.executor.provider
        for handles in pending.outputs:
            for handle in handles or ():
                if handle is not None:
                    provider.free(handle)


_MISSING: Any = object()


def forecastable(plan: LaunchPlan, bound: list[RenderedKernel | None], nodes: list[FNode]) -> bool:
    """Whether a graph's plan can be launched from its recorded bindings
    alone: launches and frees only, kernels reading partial buffers only,
    no domain flag, no random numbers or loops in the graph."""
    for step, kernel in zip(plan.steps, bound):
        if kernel is None:
            if type(step) is not FreeStep:
                return False
            continue
        if kernel.has_flag:
            return False
        for key in kernel.inputs:
            if not (isinstance(key, tuple) and key[0] == "partial"):
                return False
    for node in nodes:
        if node.handle is None and node.op in _RANDOM:
            return False
    return True


def _detached(kernel: RenderedKernel | None) -> RenderedKernel | None:
    """``kernel`` without references to graph nodes (a record must not keep
    a finished graph's buffers alive)."""
    if kernel is None:
        return None
    from dataclasses import replace

    return replace(kernel, inputs=list(kernel.inputs), output_nodes=[None] * len(kernel.output_nodes))


def _scalar_bytes(kernel: RenderedKernel | None) -> bytes | None:
    """The uniforms bit for bit (``==`` on floats equates 0.0 and -0.0)."""
    if kernel is None:
        return None
    return array("d", kernel.scalars).tobytes()


def _same(record: _Record, bound: list[RenderedKernel | None]) -> bool:
    for old, scalars, new in zip(record.kernels, record.scalars, bound):
        if old is None or new is None:
            if old is not new:
                return False
            continue
        if old.cache_key != new.cache_key or old.header != new.header:
            return False
        if scalars != array("d", new.scalars).tobytes():
            return False
        for key in new.inputs:
            if not (isinstance(key, tuple) and key[0] == "partial"):
                return False
    return True
