"""Scheduling and running fused kernels.

``materialize(root, provider)`` turns the lazy DAG under ``root`` into as few
kernels as the rules allow:

* every unmaterialised reduction below the root runs as a partial pass (when
  its reduced extent is long) whose prologue is the elementwise DAG feeding it;
* a reduction whose shape equals the root's shape is finished inside the root
  kernel (epilogue); others get a small final kernel;
* nodes marked ``keep`` (bound to variables read later) that live in a
  kernel's iteration space are written as extra outputs of that kernel.

A kernel that meets an out-of-domain value (``sqrt(-1)`` ...) raises its flag;
the whole root is then recomputed on the host with MATLAB's complex results.

These decisions depend only on the pending graph's structure: the first
materialisation of a structure is recorded and later ones replay it
(``_launch_plan.py``), binding the recorded kernels to the new uniforms and
buffers without planning or rendering again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, invalidate_sessions
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.fusion.counters import STATS
from matfuse.accelerate.fusion._launch_plan import (
    FoldStep, LaunchPlan, LaunchPlanCache, LaunchStep, PlanRecorder, graph_signature)
from matfuse.accelerate.fusion.graph import FNode, REDUCTIONS, own_handle, walk
from matfuse.accelerate.fusion.kernel import KernelPlan, RenderedKernel
from matfuse.accelerate.fusion.loops import siblings
from matfuse.accelerate.fusion._render_cache import CachingRenderer
from matfuse.accelerate.fusion.renderers import renderer_for
from matfuse.runtime import hints

# Target number of threads of a reduction's partial pass.
PARTIAL_THREADS = 1 << 18
# Reduced extents up to this are reduced by one thread per output (no partial pass).
SINGLE_PASS_MAX = 256
# Bindings of a kernel besides its inputs: outputs, kept extras, the domain flag.
RESERVED_BINDINGS = 4
# Partials per output the final pass may read (one thread per output): more
# are reduced by another partial pass (a CUDA final pass reading 65536
# partials in one thread took 0.8 ms on the H100).
FINAL_PASS_MAX = 256


class DomainFallback(Exception):
    """A fused kernel met an input outside the real domain of one of its ops."""


def chunk_count(node: FNode) -> int:
    """Number of partial chunks P for reduction ``node`` (1: single pass).

    Enough threads to fill a large GPU (A*P*C ~ PARTIAL_THREADS); P rounded
    up so that A*P fills whole 256-thread workgroups when A divides 256.
    """
    a_ext, r_ext, c_ext = node.attrs
    if r_ext <= SINGLE_PASS_MAX:
        return 1
    outputs = a_ext * c_ext
    p = max(1, PARTIAL_THREADS // max(outputs, 1))
    folds = a_ext <= 256 and (a_ext & (a_ext - 1)) == 0
    # Long partial buffers are reduced again before the final pass
    # (FINAL_PASS_MAX), so only the elements per thread bound P.
    p = min(p, max(1, r_ext // 64))
    if folds:
        lanes = 256 // a_ext
        p = -(-p // lanes) * lanes
    return p


def _pending_reductions(root: FNode, nodes: list[FNode] | None = None) -> list[FNode]:
    if nodes is None:
        nodes = walk(root)
    return [n for n in nodes if n.op in REDUCTIONS and n.handle is None]


# Producers cheaper to recompute in every consumer than to store and reload.
_CHEAP = frozenset({"scalar", "fill", "linspace", "colon"})


def _segment(top: FNode, separate: set[int]) -> list[FNode]:
    """Nodes computed by the kernel evaluating ``top``: its DAG down to
    materialised nodes and to reductions computed by kernels of their own
    (``separate``, and every reduction needing a partial pass)."""
    out: list[FNode] = []
    seen: set[int] = set()
    stack = [top]
    while stack:
        n = stack.pop()
        if n.uid in seen or n.handle is not None:
            continue
        seen.add(n.uid)
        out.append(n)
        if n.op in REDUCTIONS and (n.uid in separate or chunk_count(n) > 1):
            if n is not top or chunk_count(n) > 1:
                continue
        stack.extend(n.args)
    return out


def _kernel_segments(root: FNode, nodes: list[FNode] | None = None) -> list[list[FNode]]:
    """The node sets of the kernels ``materialize(root)`` will run."""
    pending = _pending_reductions(root, nodes)
    separate = {r.uid for r in pending if r is not root and tuple(r.shape) != tuple(root.shape)}
    segments = []
    for red in pending:
        if chunk_count(red) > 1:
            segments.append(_segment(red.args[0], separate))
        if red.uid in separate:
            segments.append(_segment(red, separate - {red.uid}))
    segments.append(_segment(root, separate))
    return segments


def _shared_nodes(root: FNode, nodes: list[FNode] | None = None) -> set[int]:
    """Non-trivial nodes that several kernels of this evaluation would
    compute: they are written once by the first kernel and read by the
    others (``imgs`` read by three reductions)."""
    counts: dict[int, int] = {}
    nodes: dict[int, FNode] = {}
    for segment in _kernel_segments(root, nodes):
        for n in segment:
            counts[n.uid] = counts.get(n.uid, 0) + 1
            nodes[n.uid] = n
    return {uid for uid, count in counts.items()
            if count > 1 and nodes[uid].op not in _CHEAP and nodes[uid].op not in REDUCTIONS
            and nodes[uid].op != "cast"}


def _keep_nodes(root: FNode, shape: tuple[int, ...], exclude: FNode,
                shared: set[int], use_hints: bool, walked: list[FNode] | None = None) -> list[FNode]:
    """Unmaterialised nodes of ``shape`` under ``root`` (not ``exclude``) to
    write as extra outputs: shared ones, and with ``use_hints`` the ones
    bound to live variables (``keep``)."""
    out = []
    nodes = list(walk(root) if walked is None else walked)
    # A loop computes every carried variable at once: write the siblings that
    # something still references (recomputing them would rerun the loop).
    seen = {n.uid for n in nodes}
    for n in nodes:
        if n.op == "loop" and n.handle is None:
            for other in siblings(n):
                if other.uid not in seen and other.handle is None and tuple(other.shape) == tuple(shape):
                    seen.add(other.uid)
                    out.append(other)
    for n in nodes:
        if n is exclude or n.handle is not None:
            continue
        if not (n.uid in shared or (use_hints and n.keep)):
            continue
        if n.op in REDUCTIONS or n.op == "scalar":
            continue
        if tuple(n.shape) == tuple(shape):
            out.append(n)
    return out


class FusionExecutor:
    """Runs kernel plans on one provider, caching rendered kernels and, by
    graph structure, whole materialisations (``launch_plans``: a
    :class:`LaunchPlanCache`; ``launch_plans.limit = 0`` turns it off)."""

    def __init__(self, provider: AccelProvider, renderer: CachingRenderer | None = None,
                 dump_dir: str | None = None):
        self.provider = provider
        # the renderer of the language the provider declares (WGSL, CUDA C)
        self.renderer = renderer or renderer_for(provider)
        self.dump_dir = dump_dir
        self._dumped: set[str] = set()
        self._partials: dict[int, GpuTensorHandle] = {}
        self._walks: dict[int, list[FNode]] = {}
        self._shared: set[int] = set()
        self._use_hints = True
        # Launch plans (``_launch_plan``): whole materialisations by graph
        # structure, recorded on a miss and replayed without re-planning.
        self.launch_plans = LaunchPlanCache()
        self._recorder: PlanRecorder | None = None

    # ------------------------------------------------------------ public
    def materialize(self, root: FNode, use_hints: bool = True) -> GpuTensorHandle:
        """Compute ``root`` (and kept nodes) on the device; returns its handle.

        Args:
            use_hints: also write nodes bound to live variables. False when
                forced mid-statement by the size cap, where the VM's hints
                still describe the previous statement.
        """
        if root.handle is not None:
            return root.handle
        self._walks.clear()
        nodes = self._walk(root)
        signature, position, pending = graph_signature(nodes, use_hints)
        # Besides the graph, the plan depends on the binding limit and the
        # scheduling constants (and on the renderer: see LaunchPlanCache.get).
        key = (use_hints, self.provider.capabilities.max_kernel_buffers,
               (PARTIAL_THREADS, SINGLE_PASS_MAX, FINAL_PASS_MAX, RESERVED_BINDINGS), signature)
        STATS.fused_groups += 1
        STATS.fused_nodes += pending
        plans = self.launch_plans
        plan = plans.get(key, self.renderer)
        record = plans.enabled
        if plan is not None and not (plan.replayable and plan.guards_hold()):
            # No steps: a structure the recorder cannot express. Failed
            # guards: the renderer's geometry changed, so plan again.
            record = plan.replayable
            plan = None
        outer = self._recorder  # (materialize is not re-entered today; stay correct if it is)
        self._recorder = PlanRecorder(position) if plan is None and record else None
        try:
            if plan is not None:
                STATS.launch_plan_hits += 1
                return self._replay(plan, nodes)
            STATS.launch_plan_misses += 1
            self._shared = _shared_nodes(root, nodes)
            self._use_hints = use_hints
            result = self._materialize(root)
            if self._recorder is not None:
                plans.put(key, self._recorder.finish())
            return result
        finally:
            self._recorder = outer
            # On an error path the partial buffers of unfinished reductions
            # would otherwise leak, and memoised walks would keep a refused
            # graph's inputs alive.
            for handle in self._partials.values():
                self.provider.free(handle)
            self._partials.clear()
            self._walks.clear()

    # ------------------------------------------------- launch-plan replay
    def _replay(self, plan: LaunchPlan, nodes: list[FNode]) -> GpuTensorHandle:
        """Run a recorded plan on ``nodes``, the walk of a graph with the
        recorded signature: the same launches, folds and frees, bound to
        this graph's uniforms and buffers (``materialize`` frees partial
        buffers left by an error)."""
        return self._run_bound(plan, [step.bind(nodes) if type(step) is LaunchStep else None
                                      for step in plan.steps], nodes)

    def _run_bound(self, plan: LaunchPlan, bound: list[RenderedKernel | None],
                   nodes: list[FNode]) -> GpuTensorHandle:
        """``_replay`` with the launch steps already bound (``bound[i]`` is
        step i's kernel; None for folds and frees)."""
        partials = self._partials
        for step, kernel in zip(plan.steps, bound):
            if kernel is not None:
                handles = self._launch(kernel)
                if step.partial_of is not None:
                    partials[nodes[step.partial_of].uid] = handles[0]
            elif type(step) is FoldStep:
                self._fold_partials(nodes[step.node], step.count)
            else:
                handle = partials.pop(nodes[step.node].uid, None)
                if handle is not None:
                    self.provider.free(handle)
        return nodes[-1].handle  # the root (post-order: last)

    def _record_kernel(self, plan: KernelPlan, kernel: RenderedKernel) -> None:
        """Give the launch-plan recorder the renderer's template and recipe
        of ``kernel`` (none from a renderer without a structure cache)."""
        entry = self.renderer.last_entry
        if entry is not None and (entry[0].cache_key != kernel.cache_key
                                  or entry[0].header[0] != kernel.header[0]):
            entry = None  # not this kernel's: a renderer rendering past its cache
        self._recorder.kernel(plan, entry)
    # ------------------------------------------------- (end launch plans)

    def _walk(self, node: FNode) -> list[FNode]:
        """``walk(node)``, memoised until the next kernel launch changes
        which nodes are materialised (the graph is walked once per step,
        not once per question)."""
        nodes = self._walks.get(node.uid)
        if nodes is None:
            nodes = walk(node)
            self._walks[node.uid] = nodes
        return nodes

    def _materialize(self, root: FNode, extra: list[FNode] | None = None) -> GpuTensorHandle:
        self._loops_first(root)
        if root.handle is not None:
            return root.handle
        self._fit_bindings(root)
        for red in _pending_reductions(root, self._walk(root)):
            if red is root or red.handle is not None:
                continue
            if tuple(red.shape) == tuple(root.shape):
                continue  # finished in the root kernel (epilogue)
            self._reduction(red)
        partial_of: dict[int, int] = {}
        for red in _pending_reductions(root, self._walk(root)):
            chunks = chunk_count(red)
            if chunks > 1:
                partial_of[red.uid] = self._partial(red, chunks)
        outputs = [root] + list(extra or [])
        for node in _keep_nodes(root, root.shape, root, self._shared, self._use_hints, self._walk(root)):
            if node not in outputs:
                outputs.append(node)
        plan = KernelPlan("elementwise", tuple(root.shape), outputs, partial_of=partial_of)
        self._run(plan)
        self._release_partials(partial_of)
        return root.handle

    # ------------------------------------------------------------ steps
    def _fit_bindings(self, top: FNode) -> None:
        """Write subgraphs of ``top`` first while the kernel evaluating it
        would bind more input buffers than the provider allows
        (``max_kernel_buffers``: storage buffers per shader stage on wgpu;
        32 on lavapipe). Each step materialises the subgraph with the most
        distinct inputs that one kernel can still take; when none helps, the
        provider refuses the kernel and the graph runs on the host (counted)."""
        limit = self.provider.capabilities.max_kernel_buffers
        if not limit:
            return
        budget = limit - RESERVED_BINDINGS
        nodes = self._walk(top)
        if sum(1 for n in nodes if n.handle is not None or n.op in REDUCTIONS) <= budget:
            return
        while True:
            inputs = _input_sets(nodes)
            if len(inputs[top.uid]) <= budget:
                return
            best: FNode | None = None
            for node in nodes:
                if node is top or node.handle is not None or node.op in REDUCTIONS:
                    continue
                size = len(inputs[node.uid])
                if 2 <= size <= budget and (best is None or size > len(inputs[best.uid])):
                    best = node
            if best is None:
                return
            self._materialize(best)
            nodes = self._walk(top)

    def _loops_first(self, root: FNode) -> None:
        """Run every pending loop node under ``root`` in a kernel of its own,
        one thread per element, writing all its carried variables. A loop is
        heavy per element: inside a reduction's partial pass (a few threads
        per output chunk) it would leave most of the GPU idle."""
        for node in self._walk(root):
            if node.op != "loop" or node.handle is not None or node is root:
                continue
            shape = tuple(node.shape)
            extra = [o for o in siblings(node) if o.handle is None and tuple(o.shape) == shape]
            self._materialize(node, extra)

    def _reduction(self, red: FNode) -> None:
        chunks = chunk_count(red)
        partial_of = {}
        if chunks > 1:
            partial_of[red.uid] = self._partial(red, chunks)
        plan = KernelPlan("elementwise", tuple(red.shape), [red], partial_of=partial_of)
        self._run(plan)
        self._release_partials(partial_of)

    def _partials_per_output(self, red: FNode, chunks: int) -> int:
        per_output = self.renderer.partials_per_output
        count = per_output(red.attrs[0], chunks)
        if self._recorder is not None:
            self._recorder.guard(per_output, (red.attrs[0], chunks), count)
        return count

    def _partial(self, red: FNode, chunks: int) -> int:
        """Partial pass of ``red``; returns the partials per output left for
        the final pass (at most ``_final_pass_max(red)``)."""
        x = red.args[0]
        if x.handle is None:
            self._fit_bindings(x)
        extras = (_keep_nodes(x, x.shape, red, self._shared, self._use_hints, self._walk(x))
                  if x.handle is None else [])
        plan = KernelPlan("partial", tuple(x.shape), extras, reduce_node=red, chunks=chunks)
        kernel = self._render(plan)
        handles = self._launch(kernel)
        self._partials[red.uid] = handles[0]
        count = self._partials_per_output(red, chunks)
        while count > self._final_pass_max(red):
            count = self._fold_partials(red, count)
        return count

    def _final_pass_max(self, red: FNode) -> int:
        """Partials per output the final pass of ``red`` may read: the
        renderer's (CUDA runs a block per output)."""
        limit = self.renderer.final_pass_max
        answer = limit(red.numel)
        if self._recorder is not None:
            self._recorder.guard(limit, (red.numel,), answer)
        return answer

    def _fold_partials(self, red: FNode, count: int) -> int:
        """Reduce ``red``'s partial buffer again. Its layout is an array of
        shape (A, count, C) (partial p of output (a, c) at a + A*(p + count*c)),
        so this is one more partial pass over an input node."""
        a_ext, _, c_ext = red.attrs
        handle = self._partials[red.uid]
        op = "reduce_sum" if red.op == "reduce_mean" else red.op  # partials of a mean are sums
        if self._recorder is not None:
            self._recorder.fold(red.uid, count)
        source = FNode("input", (), _shape3(a_ext, count, c_ext), red.dtype, handle=handle)
        again = FNode(op, (source,), _shape3(a_ext, 1, c_ext), red.dtype, attrs=(a_ext, count, c_ext))
        chunks = chunk_count(again)
        plan = KernelPlan("partial", tuple(source.shape), [], reduce_node=again, chunks=chunks)
        # Not recorded: a replay reruns the fold (its input node is synthetic).
        handles = self._launch(self._render(plan, record=False))
        self._partials[red.uid] = handles[0]
        self.provider.free(handle)
        return self._partials_per_output(again, chunks)

    def _release_partials(self, partial_of: dict[int, int]) -> None:
        for uid in partial_of:
            if self._recorder is not None:
                self._recorder.free(uid)
            handle = self._partials.pop(uid, None)
            if handle is not None:
                self.provider.free(handle)

    def _run(self, plan: KernelPlan) -> None:
        self._launch(self._render(plan))

    def _render(self, plan: KernelPlan, record: bool = True) -> RenderedKernel:
        hits = self.renderer.cache_hits
        kernel = self.renderer.render(plan)
        if self.renderer.cache_hits > hits:
            STATS.render_cache_hits += 1
        else:
            STATS.render_cache_misses += 1
        if record and self._recorder is not None:
            self._record_kernel(plan, kernel)
        return kernel

    def _launch(self, kernel: RenderedKernel) -> list[GpuTensorHandle]:
        self._dump(kernel)
        inputs: list[GpuTensorHandle] = []
        for key in kernel.inputs:
            if isinstance(key, tuple) and key[0] == "partial":
                inputs.append(self._partials[key[1]])
            else:
                inputs.append(key.handle)
        STATS.kernels += 1
        for h in inputs:
            STATS.bytes_read += h.numel * _itemsize(h.dtype)
        handles = self.provider.fused_elementwise(kernel, inputs, kernel.scalars, kernel.outputs)
        if kernel.has_flag:
            flag_handle = handles.pop()
            flag = self.provider.download(flag_handle).data
            self.provider.free(flag_handle)
            if flag.size and int(flag[0]) != 0:
                for h in handles:
                    self.provider.free(h)
                STATS.domain_fallbacks += 1
                raise DomainFallback()
        self._walks.clear()  # outputs below get handles: walks stop there now
        for node, handle in zip(kernel.output_nodes, handles):
            STATS.bytes_written += handle.numel * _itemsize(handle.dtype)
            if node is not None:
                own_handle(node, self.provider, handle)
        return handles

    def _dump(self, kernel: RenderedKernel) -> None:
        if not self.dump_dir or kernel.cache_key in self._dumped:
            return
        import os

        os.makedirs(self.dump_dir, exist_ok=True)
        ext = self.renderer.file_extension
        path = os.path.join(self.dump_dir, f"kernel_{kernel.cache_key}.{ext}")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(kernel.source)
        self._dumped.add(kernel.cache_key)


_ITEMSIZE: dict[str, int] = {}


def _itemsize(dtype: str) -> int:
    """Bytes per element of a handle's dtype name (memoised: once per launch
    and buffer, np.dtype() is a visible share of the launch path)."""
    size = _ITEMSIZE.get(dtype)
    if size is None:
        size = _ITEMSIZE[dtype] = np.dtype(dtype).itemsize
    return size


def _input_sets(nodes: list[FNode]) -> dict[int, frozenset[int]]:
    """Per node (post-order list), the buffers a kernel computing it reads:
    materialised nodes, and reductions (a partial buffer or a kernel of
    their own)."""
    sets: dict[int, frozenset[int]] = {}
    for n in nodes:
        if n.handle is not None or n.op in REDUCTIONS:
            sets[n.uid] = frozenset((n.uid,))
            continue
        merged: set[int] = set()
        for a in n.args:
            merged |= sets.get(a.uid, frozenset())
        sets[n.uid] = frozenset(merged)
    return sets


def _shape3(a: int, b: int, c: int) -> tuple[int, ...]:
    return (a, b, c) if c != 1 else (a, b)


_executors: dict[int, tuple[AccelProvider, FusionExecutor]] = {}
# The options the fusion engine runs under (``configure``).
_options = AccelerateInitOptions()


def configure(options: AccelerateInitOptions) -> None:
    """Run under ``options`` (passed by the router's entry whenever the options
    in effect change): whether operations build fused graphs (``fusion``) and
    where generated kernels are written (``dump_kernels``). Executors stay:
    one provider runs under several option sets."""
    global _options
    _options = options
    for _, executor in _executors.values():
        executor.dump_dir = options.dump_kernels
    invalidate_sessions()   # the router's sessions read whether operations fuse


def executor_for(provider: AccelProvider) -> FusionExecutor:
    """The fusion executor of ``provider`` (one per provider, created on demand)."""
    entry = _executors.get(id(provider))
    if entry is None or entry[0] is not provider:
        entry = (provider, FusionExecutor(provider, dump_dir=_options.dump_kernels))
        _executors[id(provider)] = entry
    return entry[1]


def fusion_enabled(provider: AccelProvider) -> bool:
    """Whether operations on ``provider``'s arrays build lazy fused graphs."""
    return provider.capabilities.fuses and _options.fusion
