"""What the WGSL and CUDA emitters share: SSA bookkeeping, broadcast index
maps, per-(node, index) memoisation and the plan's node order.

A backend emitter subclasses :class:`EmitterBase` and provides ``_render``
(one node in its language) and ``let_index`` (a ``u32``/``unsigned int``
temporary for index arithmetic).
"""

from __future__ import annotations

from matfuse.accelerate.fusion.graph import FNode
from matfuse.accelerate.fusion.kernel import KernelPlan


class EmitterBase:
    """SSA lines, indentation, memo scopes and index maps of one kernel."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.indent = 2
        self.memo: list[dict[tuple[int, str], str]] = [{}]
        self.counter = 0

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.indent + line)

    def let_index(self, expr: str) -> str:
        raise NotImplementedError

    def _render(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        raise NotImplementedError

    def index_in(self, idx: str, space: tuple[int, ...], shape: tuple[int, ...]) -> str:
        """Linear index into an array of ``shape`` broadcast over ``space``."""
        if numel(shape) == 1:
            return "0u"
        if normalized_shape(shape) == normalized_shape(space):
            return idx
        terms = []
        space_stride = 1
        own_stride = 1
        for k, extent in enumerate(space):
            own = shape[k] if k < len(shape) else 1
            if own != 1:
                sub = f"(({idx} / {space_stride}u) % {extent}u)" if space_stride > 1 else f"({idx} % {extent}u)"
                terms.append(sub if own_stride == 1 else f"{sub} * {own_stride}u")
            space_stride *= extent
            own_stride *= own
        return self.let_index(" + ".join(terms) if terms else "0u")

    def value(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        """The expression (a temporary) for ``node`` at ``idx``, rendered once per scope."""
        key = (node.uid, idx)
        for scope in reversed(self.memo):
            if key in scope:
                return scope[key]
        text = self._render(node, idx, space)
        self.memo[-1][key] = text
        return text


def numel(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def normalized_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    dims = list(shape)
    while len(dims) > 2 and dims[-1] == 1:
        dims.pop()
    return tuple(dims)


def plan_nodes(plan: KernelPlan) -> list[FNode]:
    """The plan's nodes in a deterministic order (post-order from its roots),
    not descending into reductions whose partials are read from a buffer."""
    seen: dict[int, FNode] = {}
    roots = list(plan.outputs)
    if plan.reduce_node is not None:
        roots.append(plan.reduce_node)
    for root in roots:
        stack: list[tuple[FNode, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if node.uid in seen:
                continue
            leaf = node.handle is not None or not node.args or node.uid in plan.partial_of
            if expanded or leaf:
                seen[node.uid] = node
                continue
            stack.append((node, True))
            for arg in reversed(node.args):
                if arg.uid not in seen:
                    stack.append((arg, False))
    return list(seen.values())
