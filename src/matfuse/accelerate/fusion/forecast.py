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
no buffer but the ones its own plan writes (partial buffers, outputs of its
earlier kernels). Random numbers: each
run draws new ones, so a forecast moves the recorded counters of ``rand`` /
``randn`` nodes on by what the device stream advanced since the recorded
run's entry (a script drawing as many values before its force as last time
draws exactly those); if it drew differently, the comparison fails.
A file run as a top-level command (``Session.run_file``) is forecast
earlier still: :meth:`LaunchForecasts.launch_early` launches the forecast of
the script the file ran last time before the command's freshness check and
the file's load, and the script's entry keeps it only if the loaded script
is that one. What is forecast (``input_sources``): plans whose kernels read
no buffer made before the force (the graph is generators and uniforms), set
no domain flag, have no extra fold passes and no fused loops. A device reset
before the force (the provider's epoch) and an out-of-memory error
(``accelerate_api.release_memory``) free the forecast. Two misses in a row
stop forecasting for that script. A miss costs the GPU time of the forecast
kernels (counted in ``STATS``: ``forecast_launches`` / ``forecast_hits`` /
``forecast_misses``). Option ``forecast`` (``MATFUSE_FORECAST``): by default
only on providers whose launches start at once
(``AccelProvider.starts_work_at_launch``, CUDA); on wgpu a forecast costs
one more submit and measured slower (docs/benchmarks/fusion.md, session 5).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

from matfuse.accelerate import device_rng
from matfuse.accelerate.gpuarray import device_epoch
from matfuse.accelerate.fusion._launch_plan import FreeStep, LaunchPlan, LaunchStep
from matfuse.accelerate.fusion._render_cache import counter_hi, counter_lo
from matfuse.accelerate_api import Unsupported
from matfuse.errors import MatlabError
from matfuse.accelerate.fusion.graph import FNode, own_handle
from matfuse.accelerate.fusion.kernel import RenderedKernel

# Scripts with a forecast record kept per executor (cleared when full).
RECORD_LIMIT = 64
# Misses in a row after which a script is no longer forecast.
MISS_LIMIT = 2
_LOOPS = frozenset({"loop", "loopvar"})


@dataclass(slots=True)
class _Record:
    """What a script's first forced graph launched last time."""

    key: tuple                   # the launch-plan cache key (structure)
    plan: LaunchPlan
    kernels: list[RenderedKernel | None]   # per step: the bound kernel, None for frees
    scalars: list[bytes | None]  # per step: the uniforms as float64 bytes
    entry: tuple                 # the device random stream (key, block) at the script's entry
    counters: list[list[tuple[list[int], list[int]]]]  # per step: random counters' header slots
    sources: list[list[tuple]]   # per step: its inputs, ("partial", walk position) or ("out", step, output)
    misses: int = 0


@dataclass(slots=True)
class _Pending:
    """A forecast in flight: per step, the kernel launched (random counters
    moved on by what the stream advanced since the recorded run) and the
    output handles."""

    record: _Record
    site: Any                    # the script it was launched for
    epoch: int                   # the provider's epoch (``reset(gpuDevice)`` frees everything)
    kernels: list[RenderedKernel | None] = field(default_factory=list)
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
        self._entry: tuple = ()
        self._pending: _Pending | None = None
        # Script file -> its compiled body at its last run (early launches).
        self._by_file: dict[tuple, Any] = {}
        # True from a site's entry until its first forced graph.
        self.watching = False

    # ------------------------------------------------------------ sites
    def launch_early(self, file: tuple) -> bool:
        """A script file is about to run (``Session.run_file``), before the
        file's freshness check and load: launch the forecast of the script
        that ``file`` (interpreter, path) ran last time, so that the GPU starts before those
        checks (10-20 us sooner on the H100 host, session 6). :meth:`enter`
        keeps it when the run's site is that script and frees it otherwise
        (the file changed); the caller calls :meth:`abandon` when the script
        did not start. True when a
        forecast was launched."""
        if self._site is not None or self._pending is not None:
            return False
        site = self._by_file.get(file)
        record = self._records.get(site) if site is not None else None
        if record is None:
            return False
        entry = device_rng.position()
        if record.entry[0] != entry[0]:
            return False
        self._pending = self._launch(record, entry[1] - record.entry[1], site)
        return self._pending is not None

    def abandon(self) -> None:
        """The file given to :meth:`launch_early` did not start a script (a
        load error, a function file): free its forecast."""
        if self._site is None and self._pending is not None:
            self._miss(self._pending)

    def enter(self, site: Any, file: tuple | None = None) -> bool:
        """A script starts (``site``: its compiled body, run from ``file``
        when it was given a file to run). Launches the last run's first
        graph when there is one (or keeps the one :meth:`launch_early`
        launched for it); False inside another site (nested scripts are not
        watched)."""
        if self._site is not None:
            return False
        self._site = site
        self.watching = True
        self._entry = device_rng.position()
        if file is not None:
            if len(self._by_file) >= RECORD_LIMIT and file not in self._by_file:
                self._by_file.clear()
            self._by_file[file] = site
        if self._pending is not None:
            if self._pending.site is site:
                return True
            self._miss(self._pending)
        record = self._records.get(site)
        try:
            if record is not None and record.entry[0] == self._entry[0]:
                self._pending = self._launch(record, self._entry[1] - record.entry[1], site)
        except BaseException:
            # (a bug or an interrupt: the caller gets no forecasts to leave)
            self._site = None
            self.watching = False
            raise
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
            if (pending.record.plan is plan and pending.record.key == key and _same(pending, bound)
                    and pending.epoch == device_epoch(self.executor.provider)):
                return self._adopt(pending, bound, nodes)
            self._miss(pending)
        handle = self.executor._run_bound(plan, bound, nodes)
        site = self._site
        record = self._records.get(site, _MISSING)
        if record is None:
            return handle  # stopped forecasting this site
        misses = record.misses if record is not _MISSING else 0
        sources = input_sources(plan, bound, nodes)
        if sources is not None:
            if len(self._records) >= RECORD_LIMIT:
                self._records.clear()
            self._records[site] = _Record(key, plan, [_detached(k) for k in bound],
                                          [_scalar_bytes(k) for k in bound], self._entry,
                                          [_counter_slots(step) for step in plan.steps], sources,
                                          misses)
        return handle

    def other_graph(self) -> None:
        """The site's first forced graph has no launch plan to compare
        (recorded just now, or not recordable): the forecast is wrong."""
        self.watching = False
        if self._pending is not None:
            pending = self._pending
            self._pending = None
            self._miss(pending)

    def release(self) -> bool:
        """Free the forecast in flight (the device ran out of memory: a
        speculative allocation must not fail the script); True when there
        was one."""
        pending = self._pending
        if pending is None:
            return False
        self._pending = None
        self._miss(pending)
        return True

    # ------------------------------------------------------------ internals
    def _launch(self, record: _Record, advanced: int, site: Any) -> _Pending | None:
        """Launch ``record``'s kernels, their random counters moved on by
        ``advanced`` blocks (what the stream advanced since the recorded
        run's entry: a script drawing the same numbers of values every run
        draws its next ones); None (and the record dropped) when the device
        refuses them: out of memory, a binding limit. The run itself then
        meets the same condition where MATLAB reports it."""
        from matfuse.accelerate.fusion.executor import STATS

        provider = self.executor.provider
        pending = _Pending(record, site, device_epoch(provider))
        partials: dict[int, Any] = {}
        try:
            for step, kernel, slots, sources in zip(record.plan.steps, record.kernels, record.counters,
                                                    record.sources):
                if kernel is None:
                    handle = partials.pop(step.node, None)
                    if handle is not None:
                        provider.free(handle)
                    pending.kernels.append(None)
                    pending.outputs.append(None)
                    continue
                if slots and advanced:
                    kernel = _moved_on(kernel, slots, advanced)
                pending.kernels.append(kernel)
                inputs = [partials[at[1]] if at[0] == "partial" else pending.outputs[at[1]][at[2]]
                          for at in sources]
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
            self._records[site] = None
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
        if record.misses >= MISS_LIMIT and self._records.get(pending.site) is record:
            self._records[pending.site] = None

    def _free_outputs(self, pending: _Pending) -> None:
        provider = self.executor.provider
        for handles in pending.outputs:
            for handle in handles or ():
                if handle is not None:
                    provider.free(handle)


_MISSING: Any = object()


def input_sources(plan: LaunchPlan, bound: list[RenderedKernel | None],
                  nodes: list[FNode]) -> list[list[tuple]] | None:
    """Where each kernel of a graph's plan reads its inputs: a partial
    buffer of the plan (``("partial", walk position)``) or an output of an
    earlier kernel of the plan (``("out", step, output)``, e.g. the mean the
    image script's variance pass subtracts). None when the plan cannot be
    launched from its recorded bindings alone: a step other than a launch
    or a free, a kernel reading a buffer made before the graph was forced,
    a domain flag, or a fused loop in the graph (its random counters are not
    header words a forecast can move on)."""
    made: dict[int, tuple[int, int]] = {}
    sources: list[list[tuple]] = []
    for i, (step, kernel) in enumerate(zip(plan.steps, bound)):
        if kernel is None:
            if type(step) is not FreeStep:
                return None
            sources.append([])
            continue
        if kernel.has_flag:
            return None
        row: list[tuple] = []
        for (kind, position), key in zip(step.recipe.inputs, kernel.inputs):
            if kind == "partial":
                row.append(("partial", position))
                continue
            source = made.get(id(key))
            if source is None:
                return None
            row.append(("out", *source))
        sources.append(row)
        for j, node in enumerate(kernel.output_nodes):
            if node is not None:
                made[id(node)] = (i, j)
    for node in nodes:
        if node.handle is None and node.op in _LOOPS:
            return None
    return sources


def _counter_slots(step: Any) -> list[tuple[list[int], list[int]]]:
    """Per random node of launch step ``step``, the header slots holding
    its counter's low and high words (``LaunchStep.bind``: the header is
    the thread count, 0, then the recipe's words; a node read in several
    places has its words there several times)."""
    if type(step) is not LaunchStep:
        return []
    low: dict[int, list[int]] = {}
    high: dict[int, list[int]] = {}
    for slot, (position, get) in enumerate(step.recipe.header):
        if get is counter_lo:
            low.setdefault(position, []).append(slot + 2)
        elif get is counter_hi:
            high.setdefault(position, []).append(slot + 2)
    return [(low[p], high[p]) for p in low if p in high]


def _moved_on(kernel: RenderedKernel, slots: list[tuple[list[int], list[int]]],
              advanced: int) -> RenderedKernel:
    from dataclasses import replace

    header = list(kernel.header)
    for lows, highs in slots:
        counter = ((header[highs[0]] << 32) | header[lows[0]]) + advanced
        for slot in lows:
            header[slot] = counter & 0xFFFFFFFF
        for slot in highs:
            header[slot] = (counter >> 32) & 0xFFFFFFFF
    return replace(kernel, header=header)


def _detached(kernel: RenderedKernel | None) -> RenderedKernel | None:
    """``kernel`` without references to graph nodes (a record must not keep
    a finished graph's buffers alive): inputs are ``_Record.sources``."""
    if kernel is None:
        return None
    from dataclasses import replace

    return replace(kernel, inputs=[], output_nodes=[None] * len(kernel.output_nodes))


def _scalar_bytes(kernel: RenderedKernel | None) -> bytes | None:
    """The uniforms bit for bit (``==`` on floats equates 0.0 and -0.0)."""
    if kernel is None:
        return None
    return array("d", kernel.scalars).tobytes()


def _same(pending: _Pending, bound: list[RenderedKernel | None]) -> bool:
    for old, scalars, new in zip(pending.kernels, pending.record.scalars, bound):
        if old is None or new is None:
            if old is not new:
                return False
            continue
        if old.cache_key != new.cache_key or old.header != new.header:
            return False
        if scalars != array("d", new.scalars).tobytes():
            return False
    # Inputs: the same plan under the same key reads the same partial
    # buffers and earlier outputs (a buffer made before the force would be
    # a materialised leaf: another signature).
    return True
