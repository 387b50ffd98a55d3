"""Evaluate a fusion DAG on the host with the runtime's own semantics.

Used when a fused kernel raises its domain flag (the result needs MATLAB's
complex numbers), when no device kernel can run, and as the oracle in tests:
every IR op maps to the CPU operator or builtin it stands for, so the host
result is by construction the CPU path's result.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.accelerate.fusion.graph import FNode, GENERATORS, REDUCTIONS
from matfuse.accelerate_api.range_selection import host_range_positions

_OPERATORS = {
    "add": "+", "sub": "-", "mul": ".*", "div": "./", "ldiv": ".\\", "pow": ".^",
    "eq": "==", "ne": "~=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
    "and": "&", "or": "|",
}


def evaluate(root: FNode, download: Callable[[Any], np.ndarray]) -> Any:
    """Host value (MATLAB value model) of ``root``.

    Args:
        root: the node to evaluate.
        download: maps a materialised node's handle to a host ndarray.
    """
    from matfuse.runtime.registry import load_all

    load_all()
    values: dict[Any, Any] = {}
    _evaluate_into([root], values, download, 0)
    return values[root.uid]


def _evaluate_into(roots: list[FNode], values: dict[Any, Any],
                   download: Callable[[Any], np.ndarray], counter_offset: int) -> None:
    """Fill ``values`` (uid -> host value) for ``roots`` and what they need;
    random nodes draw ``counter_offset`` blocks later (loop iterations)."""
    from matfuse.runtime import ops
    from matfuse.runtime.registry import lookup
    from matfuse.runtime.values import canonical

    for node in _walk_outside_loops(roots, values):
        if node.handle is not None:
            values[node.uid] = canonical(download(node.handle))
        elif node.op == "loop":
            values[node.uid] = _eval_loop(node, values, download)
        else:
            args = [values[a.uid] for a in node.args]
            values[node.uid] = _eval_node(node, args, ops, lookup, counter_offset)


def _walk_outside_loops(roots: list[FNode], known: dict[Any, Any]) -> list[FNode]:
    """Post-order of the nodes under ``roots`` not in ``known``; a loop
    node's template roots are evaluated by the loop itself, not here."""
    order: list[FNode] = []
    seen: set[int] = set()
    stack: list[tuple[FNode, bool]] = [(r, False) for r in reversed(roots)]
    while stack:
        node, expanded = stack.pop()
        if node.uid in seen or node.uid in known:
            continue
        args = node.args if node.handle is None else ()
        if node.op == "loop":
            args = args[: node.attrs[0].carried]
        if expanded or not args:
            seen.add(node.uid)
            order.append(node)
            continue
        stack.append((node, True))
        for arg in reversed(args):
            stack.append((arg, False))
    return order


def _eval_loop(node: FNode, values: dict[Any, Any], download: Callable[[Any], np.ndarray]) -> Any:
    """The loop's iterations one by one, with the CPU semantics."""
    spec, slot = node.attrs
    key = ("loop", id(spec))
    if key not in values:
        current = [values[a.uid] for a in node.args[: spec.carried]]
        for k in range(spec.count):
            scope = dict(values)
            for placeholder, value in zip(spec.placeholders, current):
                scope[placeholder.uid] = value
            _evaluate_into(list(spec.roots), scope, download, k * spec.delta)
            current = [scope[r.uid] for r in spec.roots]
        values[key] = current
    return values[key][slot]


def _eval_node(node: FNode, args: list[Any], ops: Any, lookup: Callable, counter_offset: int = 0) -> Any:
    from matfuse.runtime.values import canonical

    op = node.op
    if op in GENERATORS or op == "scalar":
        return canonical(_generate(node, counter_offset))
    if op == "cast":
        target = {"f32": "single", "f64": "double", "bool": "logical"}[node.attrs[0]]
        return lookup(target).impl(args[0])
    if op in REDUCTIONS:
        return _reduce(node, args[0], lookup)
    if op == "range_gather":
        return canonical(_range_gather(node, args[0]))
    if op == "neg":
        return ops.unary("-", args[0])
    if op == "not":
        return ops.unary("~", args[0])
    if op in _OPERATORS:
        result = ops.binary(_OPERATORS[op], args[0], args[1])
    else:
        result = lookup(op).impl(*args)
    return result


def _range_gather(node: FNode, x: Any) -> np.ndarray:
    """``graph.range_gather_node`` on the host: the source at the selection's
    positions, in MATLAB's result shape."""
    axes, counts, base = node.attrs
    pos = host_range_positions(axes, base, counts)
    return np.asarray(x).reshape(-1, order="F")[pos.reshape(-1, order="F")].reshape(
        node.shape, order="F")


def _generate(node: FNode, counter_offset: int = 0) -> np.ndarray:
    from matfuse.runtime import _philox

    dt = np.float32 if node.dtype == "f32" else np.float64
    n = node.numel
    op = node.op
    if op in ("scalar", "fill"):
        return np.full(node.shape, node.attrs[0], dtype=dt)
    if op == "linspace":
        start, stop, count = node.attrs
        if count == 1:
            return np.array([[stop]], dtype=dt)
        i = np.arange(count, dtype=np.float64)
        vals = start + i * ((stop - start) / (count - 1))
        vals[-1] = stop
        return vals.astype(dt).reshape(1, count)
    if op == "colon":
        start, step = node.attrs
        return (start + np.arange(n, dtype=np.float64) * step).astype(dt).reshape(node.shape)
    key = (node.attrs[0], node.attrs[1])
    counter = node.attrs[2] + counter_offset
    cls = "single" if node.dtype == "f32" else "double"
    if op == "rand":
        flat = _philox.philox_uniform(n, key, counter, cls)
    else:
        flat = _philox.philox_normal(n, key, counter, cls)
    return np.asarray(flat).reshape(node.shape, order="F")


def _reduce(node: FNode, x: Any, lookup: Callable) -> Any:
    from matfuse.runtime.values import to_array

    a_ext, r_ext, c_ext = node.attrs
    arr = to_array(x)
    shaped = arr.reshape((a_ext, r_ext, c_ext), order="F")
    name = node.op.removeprefix("reduce_")
    fn = lookup(name).impl
    if name in ("max", "min"):
        reduced = fn(shaped, np.zeros((0, 0)), 2.0)
    else:
        reduced = fn(shaped, 2.0)
    reduced = to_array(reduced)
    from matfuse.runtime.values import canonical

    return canonical(reduced.reshape(node.shape, order="F"))
