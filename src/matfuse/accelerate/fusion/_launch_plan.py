"""Launch plans: a whole materialisation recorded once, replayed by structure.

``FusionExecutor.materialize(root)`` decides which kernels to run (pending
reductions, shared and kept nodes, binding limits, partial passes and folds)
and renders each of them, for every forced graph, although scripts and loops
force the same structure again and again. The decisions depend only on the structure of the pending
graph, so the executor keys them by :func:`graph_signature` (one pass over the
root's walk) and, on a miss, records what it did as a :class:`LaunchPlan`:

* every kernel as its render-cache template plus a :class:`Recipe` whose
  positions index the root's walk (not the kernel's own node order), and the
  walk position of the reduction whose partial buffer it writes;
* every fold of a partial buffer and every release of one.

A replay binds each template to the new graph's nodes (uniforms, buffers,
outputs) and launches it through the executor's ordinary launch path.
A step the signature does not describe (a node outside the root's walk:
loop siblings written by a loop kernel; a renderer without recipes) leaves
that signature uncached, remembered as such so it is not recorded again.
Fold passes read a synthetic node: a replay reruns them through the
executor (they render, cached by the renderer).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable

from matfuse.accelerate.fusion._emitter import plan_nodes
from matfuse.accelerate.fusion._render_cache import Recipe
from matfuse.accelerate.fusion.graph import DOMAIN_OPS, FNode, needs_domain_check, range_gather_structure
from matfuse.accelerate.fusion.kernel import KernelPlan, RenderedKernel

# Launch plans kept per executor (the cache is cleared when it is full).
PLAN_CACHE_LIMIT = 512

# Uniform ops whose values are not part of the structure (scalars and fills
# keep their sign: ``graph.nonnegative`` reads it).
_NO_STRUCTURE = frozenset({"colon", "rand", "randn"})
_SIGNED = frozenset({"scalar", "fill"})
# Fields of a rendered kernel that a launch binds per graph, and the others.
_BOUND_FIELDS = frozenset({"inputs", "scalars", "header", "output_nodes"})
_FIXED_FIELDS = tuple(f.name for f in fields(RenderedKernel) if f.name not in _BOUND_FIELDS)


def graph_signature(nodes: list[FNode], use_hints: bool) -> tuple[tuple, dict[int, int], int]:
    """Structure of the pending graph ``nodes`` (a post-order walk), the walk
    position of every node by uid, and the number of unmaterialised nodes.

    Per unmaterialised node: op, shape, dtype, structural attrs (as
    ``_render_cache.plan_signature``: uniform values excluded), operand
    positions, the domain-check flag and, with ``use_hints``, ``keep`` (not
    the root's: it is written anyway). Per
    materialised leaf: dtype, shape and ``known_nonneg``. What
    ``graph.nonnegative`` and the domain checks read of uniform values is
    structure too (they are re-evaluated for nodes materialised mid-way):
    the sign of scalars and fills, whether a constant exponent is an (even)
    integer.
    On the interpreter's hot path (once per forced graph): written for speed.
    """
    position: dict[int, int] = {}
    parts: list[tuple] = []
    append = parts.append
    pending = 0
    i = 0
    for n in nodes:
        position[n.uid] = i
        i += 1
        handle = n.handle
        if handle is not None:
            append((handle.dtype, n.shape, n.known_nonneg))
            continue
        pending += 1
        op = n.op
        if op in _SIGNED:
            structural: tuple = (n.attrs[0] >= 0,)
        elif op == "pow":
            exponent = n.args[1]
            if exponent.op in _SIGNED:  # (read even once materialised)
                v = float(exponent.attrs[0])
                structural = (v.is_integer(), v % 2 == 0, v == 2.0)   # x.^2: x*x
            else:
                structural = n.attrs
        elif op in _NO_STRUCTURE:
            structural = ()
        elif op == "loop":
            # Which carried variables are still pending decides which ones
            # the loop kernel writes (``siblings``: live, not materialised).
            spec, slot = n.attrs
            structural = (slot, spec.carried, spec.has_random,
                          tuple([_pending_ref(ref) for ref in spec.outputs]))
        elif op == "linspace":
            structural = (n.attrs[2],)
        elif op == "range_gather":
            structural = range_gather_structure(n)
        else:
            structural = n.attrs
        args = n.args
        if not args:
            at: tuple = ()
        elif len(args) == 1:
            at = (position[args[0].uid],)
        elif len(args) == 2:
            at = (position[args[0].uid], position[args[1].uid])
        else:
            at = tuple([position[a.uid] for a in args])
        append((op, n.shape, n.dtype, structural, at,
                op in DOMAIN_OPS and needs_domain_check(n), use_hints and n.keep))
    if parts and parts[-1][-1] is True:
        # The root is written whether or not a variable keeps it.
        parts[-1] = parts[-1][:-1] + (False,)
    return tuple(parts), position, pending


def _pending_ref(ref: Callable[[], FNode | None]) -> bool:
    node = ref()
    return node is not None and node.handle is None


class LaunchStep:
    """One kernel: a render-cache template and a recipe whose positions
    index the root's walk."""

    __slots__ = ("recipe", "partial_of", "threads", "fixed")

    def __init__(self, template: RenderedKernel, recipe: Recipe, partial_of: int | None) -> None:
        self.recipe = recipe
        # Walk position of the reduction whose partial buffer is output 0.
        self.partial_of = partial_of
        self.threads = template.header[0]
        self.fixed = {name: getattr(template, name) for name in _FIXED_FIELDS}

    def bind(self, nodes: list[FNode]) -> RenderedKernel:
        """The kernel for the graph walked as ``nodes`` (``Recipe.bind``
        without ``dataclasses.replace``, which costs twice as much)."""
        recipe = self.recipe
        header = [self.threads, 0]
        if recipe.header:
            header += [int(get(nodes[i])) & 0xFFFFFFFF for i, get in recipe.header]
        return RenderedKernel(
            inputs=[("partial", nodes[i].uid) if kind == "partial" else nodes[i]
                    for kind, i in recipe.inputs],
            scalars=[float(get(nodes[i])) for i, get in recipe.scalars],
            header=header,
            output_nodes=[None if i is None else nodes[i] for i in recipe.outputs],
            **self.fixed)


@dataclass(slots=True)
class FoldStep:
    """Reduce the partial buffer of the reduction at ``node`` again."""

    node: int
    count: int


@dataclass(slots=True)
class FreeStep:
    """Release the partial buffer of the reduction at ``node``."""

    node: int


Step = LaunchStep | FoldStep | FreeStep


# A renderer query the plan's geometry depends on: (function, args, answer).
Guard = tuple[Callable[..., int], tuple[int, ...], int]


@dataclass(slots=True)
class LaunchPlan:
    """The steps of one materialisation, and the renderer's geometry answers
    they assumed (module constants a test or a tuning run may change)."""

    steps: list[Step]
    guards: list[Guard]

    @property
    def replayable(self) -> bool:
        """False for the marker of a structure that cannot be recorded
        (no steps): materialised normally, without recording again."""
        return bool(self.steps)

    def guards_hold(self) -> bool:
        for function, args, answer in self.guards:
            if function(*args) != answer:
                return False
        return True


class PlanRecorder:
    """Collects the steps of one materialisation; ``ok`` turns False (for
    good) at the first step the root's walk cannot express."""

    def __init__(self, position: dict[int, int]) -> None:
        self.position = position
        self.steps: list[Step] = []
        self.guards: list[Guard] = []
        self.ok = True

    def kernel(self, plan: KernelPlan, entry: tuple[RenderedKernel, Recipe] | None) -> None:
        """A kernel rendered for ``plan``; ``entry`` is the renderer's
        (template, recipe) for it (None: the renderer keeps none)."""
        if not self.ok:
            return
        if entry is None:
            self.ok = False
            return
        template, recipe = entry
        position = self.position
        try:
            walk_of = [position[node.uid] for node in plan_nodes(plan)]
        except KeyError:  # a node the signature does not describe
            self.ok = False
            return
        partial_of = None
        if plan.kind == "partial":
            partial_of = position.get(plan.reduce_node.uid)
            if partial_of is None:
                self.ok = False
                return
        remapped = Recipe(
            inputs=[(kind, walk_of[i]) for kind, i in recipe.inputs],
            scalars=[(walk_of[i], get) for i, get in recipe.scalars],
            header=[(walk_of[i], get) for i, get in recipe.header],
            outputs=[None if i is None else walk_of[i] for i in recipe.outputs])
        self.steps.append(LaunchStep(template, remapped, partial_of))

    def guard(self, function: Callable[..., int], args: tuple[int, ...], answer: int) -> None:
        """The plan took ``answer = function(*args)`` as given."""
        self.guards.append((function, args, answer))

    def fold(self, uid: int, count: int) -> None:
        self._append(uid, lambda at: FoldStep(at, count))

    def free(self, uid: int) -> None:
        self._append(uid, FreeStep)

    def _append(self, uid: int, make: Callable[[int], Step]) -> None:
        at = self.position.get(uid)
        if at is None:
            self.ok = False
        elif self.ok:
            self.steps.append(make(at))

    def finish(self) -> LaunchPlan:
        """The recorded plan; one without steps when the walk could not
        express a step (the cache remembers that, to stop recording)."""
        return LaunchPlan(self.steps if self.ok else [], self.guards)


class LaunchPlanCache:
    """Launch plans by graph signature (bounded: cleared when full; a limit
    of 0 turns caching off, e.g. to measure what it saves)."""

    def __init__(self, limit: int = PLAN_CACHE_LIMIT) -> None:
        self.limit = limit
        self._plans: dict[tuple, LaunchPlan] = {}
        self._renderer: object = None

    @property
    def enabled(self) -> bool:
        return self.limit > 0

    def get(self, key: tuple, renderer: object) -> LaunchPlan | None:
        """The plan recorded under ``key`` with ``renderer`` (the templates
        are its kernels: another renderer starts an empty cache)."""
        if renderer is not self._renderer:
            self._plans.clear()
            self._renderer = renderer
        return self._plans.get(key)

    def put(self, key: tuple, plan: LaunchPlan) -> None:
        if len(self._plans) >= self.limit:
            self._plans.clear()
        if self.limit > 0:
            self._plans[key] = plan

    def clear(self) -> None:
        self._plans.clear()

    def plans(self) -> list[LaunchPlan]:
        return list(self._plans.values())

    def __len__(self) -> int:
        return len(self._plans)
