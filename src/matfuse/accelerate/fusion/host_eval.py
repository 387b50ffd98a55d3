"""Evaluate a fusion DAG on the host with the runtime's own semantics.

Used when a fused kernel raises its domain flag (the result needs MATLAB's
complex numbers), when no device kernel can run, and as the oracle in tests:
every IR op maps to the CPU operator or builtin it stands for, so the host
result is by construction the CPU path's result.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.accelerate.fusion.graph import FNode, GENERATORS, REDUCTIONS, walk

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
    from matfuse.runtime import ops
    from matfuse.runtime.registry import load_all, lookup
    from matfuse.runtime.values import canonical

    load_all()
    values: dict[int, Any] = {}
    for node in walk(root):
        if node.handle is not None:
            values[node.uid] = canonical(download(node.handle))
            continue
        values[node.uid] = _eval_node(node, [values[a.uid] for a in node.args], ops, lookup)
    return values[root.uid]


def _eval_node(node: FNode, args: list[Any], ops: Any, lookup: Callable) -> Any:
    from matfuse.runtime.values import canonical

    op = node.op
    if op in GENERATORS or op == "scalar":
        return canonical(_generate(node))
    if op == "cast":
        target = {"f32": "single", "f64": "double", "bool": "logical"}[node.attrs[0]]
        return lookup(target).impl(args[0])
    if op in REDUCTIONS:
        return _reduce(node, args[0], lookup)
    if op == "neg":
        return ops.unary("-", args[0])
    if op == "not":
        return ops.unary("~", args[0])
    if op in _OPERATORS:
        result = ops.binary(_OPERATORS[op], args[0], args[1])
    else:
        result = lookup(op).impl(*args)
    return result


def _generate(node: FNode) -> np.ndarray:
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
    counter = node.attrs[2]
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
