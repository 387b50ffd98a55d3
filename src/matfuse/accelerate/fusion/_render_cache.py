"""Render caching by graph structure, shared by the WGSL and CUDA renderers.

Two plans with the same structure (ops, shapes, dtypes, topology) differ only
in uniforms and bound buffers, so the second reuses the first one's source and
just re-binds: an emitter records, for every uniform and input it emits, which
plan node (by position in ``plan_nodes`` order) and which getter produced it
(:class:`Recipe`); a cache hit replays those getters on the new plan's nodes (computing the
signature costs far less than rendering).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from matfuse.accelerate.fusion.graph import (
    DOMAIN_OPS, FNode, is_square, needs_domain_check, range_gather_structure)
from matfuse.accelerate.fusion.kernel import KernelPlan, RenderedKernel, plan_nodes

Getter = Callable[[FNode], float]
_CACHE_LIMIT = 512


@dataclass(slots=True)
class Recipe:
    """How to re-bind a cached kernel to the nodes of a same-structure plan."""

    inputs: list[tuple[str, int]]
    scalars: list[tuple[int, Getter]]
    header: list[tuple[int, Getter]]
    outputs: list[int | None]

    def bind(self, template: RenderedKernel, nodes: list[FNode]) -> RenderedKernel:
        inputs: list[object] = [("partial", nodes[i].uid) if kind == "partial" else nodes[i]
                                for kind, i in self.inputs]
        header = [template.header[0], 0] + [int(get(nodes[i])) & 0xFFFFFFFF for i, get in self.header]
        return replace(template, inputs=inputs,
                       scalars=[float(get(nodes[i])) for i, get in self.scalars],
                       header=header,
                       output_nodes=[None if i is None else nodes[i] for i in self.outputs])


class RecipeRecorder:
    """Emitter mixin: uniforms and inputs recorded with where they came from.

    The emitter sets ``position`` (node uid -> index in the plan's node order)
    and keeps ``scalars``/``header``/``inputs`` lists of its own.
    """

    position: dict[int, int]

    def init_recipe(self, nodes: list[FNode]) -> None:
        self.position = {n.uid: i for i, n in enumerate(nodes)}
        self.recipe_scalars: list[tuple[int, Getter]] = []
        self.recipe_header: list[tuple[int, Getter]] = []
        self.recipe_inputs: list[tuple[str, int]] = []

    def record_scalar(self, node: FNode, getter: Getter) -> float:
        self.recipe_scalars.append((self.position[node.uid], getter))
        return float(getter(node))

    def record_header(self, node: FNode, getter: Getter) -> int:
        self.recipe_header.append((self.position[node.uid], getter))
        return int(getter(node)) & 0xFFFFFFFF

    def record_input(self, key: object) -> None:
        if isinstance(key, tuple):
            self.recipe_inputs.append(("partial", self.position[key[1]]))
        else:
            self.recipe_inputs.append(("node", self.position[key.uid]))

    def recipe(self, kernel: RenderedKernel) -> Recipe:
        return Recipe(self.recipe_inputs, self.recipe_scalars, self.recipe_header,
                      [None if n is None else self.position[n.uid] for n in kernel.output_nodes])


class CachingRenderer:
    """Base of the renderers: the structure cache and its counters, and what
    every renderer declares for the executor (its kernels' file extension,
    the layout of its reductions' partials)."""

    #: the renderer loads and stores the integer IR dtypes (``graph.INTEGER_IR``)
    integer_storage = False
    #: extension of a dumped kernel's source file
    file_extension = "txt"

    def __init__(self) -> None:
        self._cache = StructureCache()

    def render(self, plan: KernelPlan) -> RenderedKernel:
        raise NotImplementedError

    @staticmethod
    def partials_per_output(a_ext: int, chunks: int) -> int:
        """How many partials per output the partial pass leaves for the final pass."""
        raise NotImplementedError

    @staticmethod
    def final_pass_max(outputs: int) -> int:
        """Partials per output the final pass of a reduction with
        ``outputs`` outputs may read (the executor folds longer ones)."""
        raise NotImplementedError

    @property
    def cache_hits(self) -> int:
        return self._cache.cache_hits

    @property
    def cache_misses(self) -> int:
        return self._cache.cache_misses

    @property
    def last_entry(self) -> tuple[RenderedKernel, Recipe] | None:
        """(template, recipe) of the last kernel rendered (the executor's
        launch plans re-bind it without rendering)."""
        return self._cache.last_entry


class StructureCache:
    """Rendered kernels by plan signature, with hit/miss counters."""

    def __init__(self) -> None:
        self._cache: dict[tuple, tuple[RenderedKernel, Recipe]] = {}
        self.cache_hits = 0
        self.cache_misses = 0
        self.last_entry: tuple[RenderedKernel, Recipe] | None = None

    def render(self, plan: KernelPlan,
               build: Callable[[KernelPlan, list[FNode]], tuple[RenderedKernel, Recipe]]) -> RenderedKernel:
        nodes = plan_nodes(plan)
        key = plan_signature(plan, nodes)
        cached = self._cache.get(key)
        if cached is not None:
            self.cache_hits += 1
            self.last_entry = cached
            template, recipe = cached
            return recipe.bind(template, nodes)
        self.cache_misses += 1
        kernel, recipe = build(plan, nodes)
        if len(self._cache) > _CACHE_LIMIT:
            self._cache.clear()
        # The cached template must not keep this graph's nodes (and through
        # them device buffers) alive.
        template = replace(kernel, inputs=[], output_nodes=[], scalars=[], header=[kernel.header[0]])
        self._cache[key] = self.last_entry = (template, recipe)
        return kernel


_UNIFORM_OPS = frozenset({"scalar", "fill", "colon", "rand", "randn"})


def plan_signature(plan: KernelPlan, nodes: list[FNode]) -> tuple:
    """Everything the generated source depends on (not uniform values).

    On the interpreter's hot path (once per kernel launch): written for
    speed, e.g. shapes are tuples already and only DOMAIN_OPS can need a
    domain check."""
    position = {n.uid: i for i, n in enumerate(nodes)}
    partial_of = plan.partial_of
    parts: list[tuple] = [(plan.kind, plan.shape, plan.chunks,
                           tuple(sorted((position[u], c) for u, c in partial_of.items() if u in position)),
                           tuple([position[n.uid] for n in plan.outputs]),
                           None if plan.reduce_node is None else position[plan.reduce_node.uid])]
    append = parts.append
    for n in nodes:
        if n.handle is not None:
            append(("buffer", n.handle.dtype, n.shape))
            continue
        op = n.op
        if op in _UNIFORM_OPS:
            structural: tuple = ()
        elif op == "loop":
            # Count and random stride are uniforms; the template is in `nodes`.
            spec = n.attrs[0]
            structural = (n.attrs[1], spec.carried, spec.has_random)
        elif op == "linspace":
            structural = (n.attrs[2],)
        elif op == "range_gather":
            structural = range_gather_structure(n)
        elif op == "pow":
            structural = (is_square(n),)   # CUDA renders x.^2 as x*x
        else:
            structural = n.attrs
        # A reduction read from its partial buffer is a leaf of this kernel.
        args = () if n.uid in partial_of else tuple([position[a.uid] for a in n.args])
        # Whether a domain check is emitted depends on uniform values (the sign
        # of a scalar, an integer exponent), so it is part of the key.
        append((op, n.shape, n.dtype, structural, args, op in DOMAIN_OPS and needs_domain_check(n)))
    return tuple(parts)


# Getters of uniforms (module-level functions: recipes outlive the nodes).
def attr0(node: FNode) -> float:
    return node.attrs[0]


def attr1(node: FNode) -> float:
    return node.attrs[1]


def linspace_step(node: FNode) -> float:
    return (node.attrs[1] - node.attrs[0]) / max(node.attrs[2] - 1, 1)


def counter_lo(node: FNode) -> int:
    return node.attrs[2] & 0xFFFFFFFF


def counter_hi(node: FNode) -> int:
    return node.attrs[2] >> 32
