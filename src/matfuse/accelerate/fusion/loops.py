"""Loop nodes: many iterations of an elementwise loop body in one kernel.

A for loop whose body updates device arrays the same way every iteration
(``S = S .* exp(drift + scale .* randn(M, 1, 'single'))``) is replayed by
``loop_trace`` as one ``loop`` node per carried variable. All of them share a
:class:`LoopSpec`: the body as a small template graph over ``loopvar``
placeholders (one per carried variable), the iteration count and the Philox
blocks each iteration consumes. A kernel evaluates the loop per element, in
registers: every carried value is a local variable, random numbers are drawn
at counter ``base + k * delta`` of iteration ``k`` and never stored.

A ``loop`` node's operands are the carried variables' initial values followed
by the template roots, so graph walks (plan order, render-cache signatures,
domain checks, cost) see the template; only the emitters and the host
evaluator know that the roots are evaluated inside the loop.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from matfuse.accelerate.fusion.graph import BINARY_OPS, FNode, UNARY_OPS, walk_until

# Ops a loop template may contain: everything a thread computes from its own
# element (reductions need the whole array each iteration: not replayable).
TEMPLATE_OPS = UNARY_OPS | BINARY_OPS | frozenset({
    "cast", "scalar", "fill", "linspace", "colon", "rand", "randn", "loopvar"})
# Iterations per loop node: bounds the run time of one kernel (GPU watchdogs).
MAX_ITERATIONS_PER_NODE = 4096


@dataclass(eq=False, slots=True)
class LoopSpec:
    """What the ``loop`` nodes of one replayed loop share.

    Attributes:
        placeholders: one ``loopvar`` node per carried variable (its value at
            the start of an iteration).
        roots: the carried variables' values at the end of an iteration,
            graphs over the placeholders, loop-invariant nodes and generators.
        count: iterations to run.
        delta: Philox blocks consumed per iteration (random counters of
            iteration ``k`` are the template's plus ``k * delta``).
        has_random: the template draws random numbers.
        outputs: weak references to the ``loop`` nodes (one per carried
            variable), so a kernel computing one can write its siblings too.
    """

    placeholders: tuple[FNode, ...]
    roots: tuple[FNode, ...]
    count: int
    delta: int
    has_random: bool
    outputs: list = field(default_factory=list)

    @property
    def carried(self) -> int:
        return len(self.placeholders)


def placeholder(slot: int, shape: tuple[int, ...], dtype: str) -> FNode:
    return FNode("loopvar", (), tuple(shape), dtype, attrs=(slot,))


def loop_nodes(inits: list[FNode], spec: LoopSpec) -> list[FNode]:
    """One ``loop`` node per carried variable (its value after the loop)."""
    args = tuple(inits) + tuple(spec.roots)
    nodes = [FNode("loop", args, tuple(init.shape), init.dtype, attrs=(spec, slot))
             for slot, init in enumerate(inits)]
    spec.outputs = [weakref.ref(n) for n in nodes]
    return nodes


def siblings(node: FNode) -> list[FNode]:
    """The other live ``loop`` nodes computed by the same loop as ``node``."""
    out = []
    for ref in node.attrs[0].outputs:
        other = ref()
        if other is not None and other is not node:
            out.append(other)
    return out


def is_loop(node: FNode) -> bool:
    return node.op == "loop"


def template_nodes(spec: LoopSpec) -> list[FNode]:
    """Post-order of the nodes computed inside the loop body, stopping at
    nodes that are materialised or existed outside the template."""
    inside = _inside(spec)
    return walk_until(list(spec.roots), lambda n: n.uid not in inside)


def _inside(spec: LoopSpec) -> set[int]:
    """Uids of template nodes (everything under the roots that is not a
    materialised or outer node: outer nodes were created before the first
    placeholder; template nodes are cloned after it)."""
    first = min(p.uid for p in spec.placeholders)
    out: set[int] = set()
    stack = list(spec.roots)
    while stack:
        node = stack.pop()
        if node.uid in out or node.uid < first or node.handle is not None:
            continue
        out.add(node.uid)
        stack.extend(node.args)
    return out


def variant_uids(spec: LoopSpec) -> set[int]:
    """Template nodes whose value changes between iterations (they depend on
    a placeholder or draw random numbers); the others are loop-invariant and
    can be computed once, before the loop."""
    variant: set[int] = set()
    for node in template_nodes(spec):
        if node.op in ("loopvar", "rand", "randn") or any(a.uid in variant for a in node.args):
            variant.add(node.uid)
    return variant
