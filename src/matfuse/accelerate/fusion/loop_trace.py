"""Replaying a for loop's device body as one fused loop kernel.

Building the lazy graph of a loop body such as ``Z = randn(M,1,'single');
S = S .* exp(drift + scale.*Z)`` in the interpreter on every iteration costs
more host time than the GPU work it describes. The VM
(``vm/_stmt.py``) asks :func:`tracer_for` for a tracer when a loop body is
*replayable* (only suppressed assignments to plain names and ``if`` on names
the body does not assign; see ``vm/_replay.py``) and the iteration range is
long. The tracer watches the first iterations, which run normally:

1. Before an iteration it records the variables the body assigns, the next
   graph-node id and the device random stream position.
2. After it, every assigned variable must hold a lazy gpuArray on a fusing
   provider. The nodes created by the iteration form its *template*: a graph
   over the previous values (parameters), older nodes (loop invariants) and
   generators. Its signature is the structure plus every uniform value and
   every random counter relative to the stream position.
3. Two consecutive iterations with equal signatures (and equal random stream
   consumption ``delta``) prove the body is a fixed function of the carried
   variables. The remaining iterations but the last become ``loop`` nodes
   (``fusion/loops.py``); the device stream is advanced by what they consume,
   and the last iteration runs normally, so every variable the body assigns
   ends with the value the plain loop gives it.

Anything else (a host value assigned, a materialised value, a reduction in
the body, a different structure) leaves the loop to the interpreter.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion import loops
from matfuse.accelerate.fusion.graph import FNode

# Iterations traced before giving up on a loop.
MAX_TRACED = 6
# Shortest loop worth replaying: a replay saves ~100 us of interpreter time
# per iteration and costs one kernel launch; short loops already fuse into
# one or two kernels under the graph-size cap.
MIN_ITERATIONS = 12
_RANDOM = ("rand", "randn")


class _Trace:
    """What one traced iteration built."""

    __slots__ = ("signature", "roots", "params", "olds", "news", "first_uid", "rng_start", "delta")

    def __init__(self) -> None:
        self.signature: tuple = ()
        self.roots: list[Any] = []
        self.params: dict[int, int] = {}
        self.olds: list[Any] = []
        self.news: list[Any] = []
        self.first_uid = 0
        self.rng_start = 0
        self.delta = 0


class LoopTracer:
    """Watches the first iterations of one execution of a for loop.

    Args:
        names: the variables the loop body assigns (in a fixed order).
    """

    def __init__(self, names: tuple[str, ...]):
        self.names = names
        self.traced = 0
        self._olds: list[Any] = []
        self._first_uid = 0
        self._rng: tuple[tuple[int, int], int] = ((0, 0), 0)
        self._previous: _Trace | None = None
        self._last: _Trace | None = None

    @property
    def exhausted(self) -> bool:
        return self.traced >= MAX_TRACED

    def before(self, frame: dict) -> None:
        from matfuse.runtime import gpu_rng

        self._olds = [frame.get(n) for n in self.names]
        self._first_uid = g.next_uid()
        self._rng = gpu_rng.position()

    def after(self, frame: dict) -> bool:
        """Record the iteration; True when it repeats the previous one."""
        from matfuse.runtime import gpu_rng

        self.traced += 1
        news = [frame.get(n) for n in self.names]
        key, end = gpu_rng.position()
        trace = None
        if key == self._rng[0]:
            trace = _trace(self._olds, news, self._first_uid, self._rng, end - self._rng[1])
        repeated = (trace is not None and self._previous is not None
                    and trace.signature == self._previous.signature)
        self._previous = trace
        self._last = trace if repeated else None
        return repeated

    def replay(self, frame: dict, count: int) -> bool:
        """Run ``count`` more iterations as loop nodes bound in ``frame``.

        Returns False (frame untouched) when the traced body cannot run as an
        in-kernel loop (a carried value of another shape, a reduction...).
        """
        trace = self._last
        if trace is None or count < 1:
            return False
        plan = _carried(trace)
        if plan is None:
            return False
        from matfuse.runtime import gpu_rng
        from matfuse.accelerate.gpuarray import GpuArray
        from matfuse.runtime.values import keep_visibility

        slots, shape = plan
        current = [trace.news[k].fusion_node() for k in slots]
        done = 0
        while done < count:
            n = min(count - done, loops.MAX_ITERATIONS_PER_NODE)
            # Iteration `done` after the traced one draws `(done + 1) * delta` blocks later.
            spec = _spec(trace, slots, shape, n, (done + 1) * trace.delta)
            current = loops.loop_nodes(current, spec)
            done += n
        gpu_rng.advance(count * trace.delta)
        for k, node in zip(slots, current):
            old = trace.news[k]
            value = GpuArray.from_node(node, old.matlab_class, old.provider)
            frame[self.names[k]] = keep_visibility(value, old)
        return True


def tracer_for(names: tuple[str, ...], iterations: int) -> LoopTracer | None:
    """A tracer for a replayable loop body of ``iterations`` iterations."""
    if iterations < MIN_ITERATIONS or not names:
        return None
    return LoopTracer(names)


# ---------------------------------------------------------------- tracing
def _trace(olds: list[Any], news: list[Any], first_uid: int,
           rng: tuple[tuple[int, int], int], delta: int) -> _Trace | None:
    from matfuse.accelerate.fusion.executor import fusion_enabled
    from matfuse.accelerate.gpuarray import GpuArray

    provider = None
    params: dict[int, int] = {}
    for k, old in enumerate(olds):
        if isinstance(old, GpuArray) and old.node is not None:
            params.setdefault(old.node.uid, k)
    roots = []
    classes = []
    for new in news:
        if type(new) is not GpuArray or not new.is_lazy:
            return None
        if provider is None:
            provider = new.provider
            if not fusion_enabled(provider):
                return None
        elif new.provider is not provider:
            return None
        roots.append(new.node)
        classes.append(new.matlab_class)
    refs: dict[int, tuple] = {}
    entries: list[tuple] = []
    for node in _iteration_nodes(roots, params, first_uid):
        if node.uid in params:
            refs[node.uid] = ("p", params[node.uid])
            continue
        if node.uid < first_uid or node.handle is not None:
            refs[node.uid] = ("i", node.uid)
            continue
        if node.op not in loops.TEMPLATE_OPS or node.op == "loopvar":
            return None
        attrs = _relative_attrs(node, rng)
        if attrs is None:
            return None
        refs[node.uid] = ("t", len(entries))
        entries.append((node.op, tuple(node.shape), node.dtype, attrs,
                        tuple(refs[a.uid] for a in node.args)))
    trace = _Trace()
    trace.signature = (tuple(entries), tuple(refs[r.uid] for r in roots), tuple(classes), delta)
    trace.roots = roots
    trace.params = params
    trace.olds = olds
    trace.news = news
    trace.first_uid = first_uid
    trace.rng_start = rng[1]
    trace.delta = delta
    return trace


def _iteration_nodes(roots: list[FNode], params: dict[int, int], first_uid: int) -> list[FNode]:
    """Post-order from ``roots``, not descending into parameters, invariants
    (older nodes) or materialised nodes."""
    return g.walk_until(roots, lambda n: n.uid in params or n.uid < first_uid or n.handle is not None)


def _relative_attrs(node: FNode, rng: tuple[tuple[int, int], int]) -> tuple | None:
    if node.op in _RANDOM:
        k0, k1, counter = node.attrs
        if (k0, k1) != tuple(rng[0]):
            return None
        return (counter - rng[1],)
    return tuple(node.attrs)


# ---------------------------------------------------------------- replay
def _carried(trace: _Trace) -> tuple[list[int], tuple[int, ...]] | None:
    """Slots of the carried variables (their previous value is read by the
    body) and the loop's iteration shape, or None if not an in-kernel loop."""
    used: set[int] = set()
    for node in _iteration_nodes(trace.roots, trace.params, trace.first_uid):
        if node.uid in trace.params:
            used.add(trace.params[node.uid])
    if not used:
        return None
    slots = sorted(used)
    shape = tuple(trace.news[slots[0]].shape)
    for k in slots:
        new = trace.news[k]
        old = trace.olds[k]
        if tuple(new.shape) != shape or tuple(old.shape) != shape:
            return None
        if new.node.dtype not in g.FLOAT_DTYPES or old.node.dtype != new.node.dtype:
            return None
        if old.matlab_class != new.matlab_class:
            return None
    return slots, shape


def _spec(trace: _Trace, slots: list[int], shape: tuple[int, ...], count: int,
          counter_shift: int) -> loops.LoopSpec:
    """A fresh template: the traced iteration's nodes with the carried
    variables' previous values replaced by placeholders and random counters
    moved ``counter_shift`` blocks on."""
    clones: dict[int, FNode] = {}
    for position, k in enumerate(slots):
        old = trace.olds[k].node
        clones[old.uid] = loops.placeholder(position, shape, old.dtype)
    placeholders = tuple(clones[trace.olds[k].node.uid] for k in slots)
    has_random = False
    for node in _iteration_nodes([trace.roots[k] for k in slots], trace.params, trace.first_uid):
        if node.uid in clones:
            continue
        if node.uid < trace.first_uid or node.handle is not None:
            clones[node.uid] = node  # loop invariant
            continue
        attrs = node.attrs
        if node.op in _RANDOM:
            attrs = (attrs[0], attrs[1], attrs[2] + counter_shift)
            has_random = True
        args = tuple(clones[a.uid] for a in node.args)
        clones[node.uid] = FNode(node.op, args, node.shape, node.dtype, attrs=attrs)
    roots = tuple(clones[trace.roots[k].uid] for k in slots)
    return loops.LoopSpec(placeholders, roots, count, trace.delta, has_random)
