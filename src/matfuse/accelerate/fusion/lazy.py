"""Building lazy gpuArrays: the front door of the fusion engine.

The device operator and builtin paths call these functions first. Each
returns a lazy :class:`GpuArray` (holding an :class:`FNode`) when the
operation can join a fused kernel, or None to let the caller run the
provider hook / host path. Shape errors are raised here, eagerly, as
MATLAB errors.

Loop fusion falls out of laziness: ``S = S .* exp(...)`` inside a loop keeps
extending S's graph until its cost passes ``MAX_GROUP_COST``; then it is
materialised (one kernel for many iterations).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.executor import DomainFallback, executor_for
from matfuse.accelerate.fusion.graph import FNode, FusionShapeError
from matfuse.accelerate.fusion.host_eval import evaluate
from matfuse.accelerate.fusion.kernel import KernelPlan, RenderedKernel
from matfuse.accelerate.fusion.loop_trace import tracer_for
from matfuse.accelerate.gpuarray import GpuArray, LazyEngine, register_lazy_engine
from matfuse.accelerate_api import (
    AccelProvider,
    ElementwiseKernelSource,
    GpuTensorHandle,
    Unsupported,
    count_fallback,
    register_elementwise_kernel_source,
)
from matfuse.errors import MatlabError
from matfuse.runtime import hints

# Cost (node count, shared nodes counted per use) above which a graph is
# materialised: bounds kernel size and compile time, and is the loop-fusion cap.
MAX_GROUP_COST = 64

_BINARY = {
    "+": "add", "-": "sub", ".*": "mul", "./": "div", ".\\": "ldiv", ".^": "pow",
    "==": "eq", "~=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
    "&": "and", "|": "or",
}
_BUILTIN_BINARY = {"max": "max", "min": "min", "atan2": "atan2", "hypot": "hypot",
                   "mod": "mod", "rem": "rem", "xor": "xor",
                   "plus": "add", "minus": "sub", "times": "mul", "rdivide": "div",
                   "ldivide": "ldiv", "power": "pow", "eq": "eq", "ne": "ne", "lt": "lt",
                   "le": "le", "gt": "gt", "ge": "ge", "and": "and", "or": "or"}
_UNARY = {"-": "neg", "~": "not", "uminus": "neg", "not": "not"}
# Ops whose host implementation rejects complex operands (MATLAB errors at the
# statement): a lazy operand that may turn out complex is computed first.
_REAL_ONLY = frozenset({"atan2", "mod", "rem", "and", "or", "xor", "not"})
_FUSABLE_CLASSES = {"double": "f64", "single": "f32", "logical": "bool"}


def binary_op_name(symbol_or_builtin: str) -> str | None:
    return _BINARY.get(symbol_or_builtin) or _BUILTIN_BINARY.get(symbol_or_builtin)


def unary_op_name(symbol_or_builtin: str) -> str | None:
    if symbol_or_builtin in _UNARY:
        return _UNARY[symbol_or_builtin]
    if symbol_or_builtin in g.UNARY_OPS:
        return symbol_or_builtin
    return None


_CLASS_OF_DTYPE = {"f64": "double", "f32": "single", "bool": "logical"}


def operand_node(v: Any, provider: Any) -> FNode | None:
    """The FNode standing for operand ``v`` (a gpuArray or a real host scalar)."""
    t = type(v)
    if t is float:
        return FNode("scalar", (), (1, 1), "f64", (v,))
    if t is bool:
        return FNode("scalar", (), (1, 1), "bool", (float(v),))
    if t is GpuArray or isinstance(v, GpuArray):
        if v.provider is not provider or v.matlab_class not in _FUSABLE_CLASSES:
            return None
        if v.is_lazy:
            # A lazy operand is real-valued as a graph (if it turns out complex,
            # the whole consumer graph is evaluated on the host when forced).
            return v.node
        if v.is_complex():
            return None
        return v.fusion_node()
    return None


def lazy_array(node: FNode, matlab_class: str, provider: Any) -> GpuArray:
    """A lazy gpuArray computing ``node``; the first one turns on the VM's
    liveness hints and loop tracing (``runtime.hints``)."""
    if not hints.ACTIVE:
        hints.activate()
        hints.loop_tracer = tracer_for
    return GpuArray.from_node(node, matlab_class, provider)


def lazy_scalar(value: float, provider: Any) -> GpuArray:
    """A 1x1 double as a lazy constant (a uniform of the kernels reading it)."""
    out = lazy_array(g.fill_node((1, 1), value, "f64"), "double", provider)
    out.host_scalar = value  # read back (linspace endpoints...) with no device trip
    return out


def _result(node: FNode, provider: Any) -> Any:
    out = lazy_array(node, _CLASS_OF_DTYPE[node.dtype], provider)
    if node.cost > MAX_GROUP_COST:
        out.materialize(use_hints=False)
    return out


def one_node(node: FNode, provider: Any) -> GpuArray:
    """``node`` computed now: the eager form of an operation on a provider
    that renders kernels (a one-node graph over materialised operands, run
    through the same emitter, render cache and launch plans as a fused
    kernel). The VM's liveness hints and loop tracing stay off: nothing
    else joins this graph."""
    out = GpuArray.from_node(node, _CLASS_OF_DTYPE[node.dtype], provider)
    out.materialize(use_hints=False)
    return out


def lazy_binary(op: str, a: Any, b: Any, provider: Any) -> Any:
    """Lazy ``a op b`` or None. ``op`` is an operator symbol or builtin name."""
    node = binary_node_of(op, a, b, provider)
    return None if node is None else _result(node, provider)


def binary_node_of(op: str, a: Any, b: Any, provider: Any) -> FNode | None:
    """The graph node of ``a op b`` (operands: gpuArrays of ``provider`` or
    host real scalars), or None when the IR does not express it. Raises
    MATLAB's size error for operands that do not expand to one shape."""
    name = _BINARY.get(op) or _BUILTIN_BINARY.get(op)
    if name is None:
        return None
    a, b = _as_python_scalar(a), _as_python_scalar(b)
    if type(a) is _SingleScalar or type(b) is _SingleScalar:
        return _single_scalar_binary(name, a, b, provider)
    ta, tb = type(a), type(b)
    if ta is float or ta is bool:
        if tb is float or tb is bool:
            return None
        nb = operand_node(b, provider)
        if nb is None or nb.op == "scalar":
            return None
        na = _scalar_operand(a, ta, nb.dtype)
    elif tb is float or tb is bool:
        na = operand_node(a, provider)
        if na is None or na.op == "scalar":
            return None
        nb = _scalar_operand(b, tb, na.dtype)
    else:
        na = operand_node(a, provider)
        if na is None:
            return None
        nb = operand_node(b, provider)
        if nb is None or (na.op == "scalar" and nb.op == "scalar"):
            return None
    if name in _REAL_ONLY and (na.may_complex or nb.may_complex):
        _settle_complexity(a, b)
        return None
    try:
        return g.binary_node(name, na, nb)
    except FusionShapeError:
        raise MatlabError("MATLAB:sizeDimensionsMustMatch",
                          "Arrays have incompatible sizes for this operation.") from None


class _SingleScalar(float):
    """A host ``single`` scalar (1x1 float32 array) as a kernel uniform."""


def _as_python_scalar(v: Any) -> Any:
    """Host 1x1 real double/single/logical arrays as uniforms, not uploads:
    ``float``/``bool`` for double and logical, ``_SingleScalar`` for single
    (MATLAB's class rule makes the result single)."""
    if type(v) is np.ndarray and v.size == 1 and v.ndim == 2:
        kind = v.dtype
        if kind == np.float64:
            return float(v[0, 0])
        if kind == np.float32:
            return _SingleScalar(v[0, 0])
        if kind == np.bool_:
            return bool(v[0, 0])
    return v


def _single_scalar_binary(name: str, a: Any, b: Any, provider: Any) -> FNode | None:
    """``a op b`` where one side is a host single scalar: a single result."""
    scalar_first = type(a) is _SingleScalar
    other = b if scalar_first else a
    if type(other) in (float, bool, _SingleScalar):
        return None
    node = operand_node(other, provider)
    if node is None or node.op == "scalar":
        return None
    if name in _REAL_ONLY and node.may_complex:
        _settle_complexity(other)
        return None
    uniform = FNode("scalar", (), (1, 1), "f32", (float(a if scalar_first else b),))
    node = g.cast_node(node, "f32") if node.dtype == "f64" else node
    pair = (uniform, node) if scalar_first else (node, uniform)
    try:
        return g.binary_node(name, *pair)
    except FusionShapeError:
        raise MatlabError("MATLAB:sizeDimensionsMustMatch",
                          "Arrays have incompatible sizes for this operation.") from None


def _scalar_operand(v: Any, t: type, other_dtype: str) -> FNode:
    """The uniform for host scalar ``v`` next to an array of ``other_dtype``:
    host scalars take the class of the array operand (single stays single)."""
    dtype = "f32" if other_dtype == "f32" else ("f64" if t is float else "bool")
    return FNode("scalar", (), (1, 1), dtype, (float(v),))


def lazy_unary(op: str, a: Any, provider: Any) -> Any:
    """Lazy elementwise ``op(a)`` or None."""
    node = unary_node_of(op, a, provider)
    return None if node is None else _result(node, provider)


def unary_node_of(op: str, a: Any, provider: Any) -> FNode | None:
    """The graph node of elementwise ``op(a)``, or None when the IR does not
    express it."""
    name = unary_op_name(op)
    if name is None:
        return None
    na = operand_node(a, provider)
    if na is None or na.op == "scalar":
        return None
    if name in _REAL_ONLY and na.may_complex:
        _settle_complexity(a)
        return None
    return g.unary_node(name, na)


def _settle_complexity(*operands: Any) -> None:
    """Compute the lazy operands that may be complex, so that the eager path
    sees their class and raises MATLAB's error at this statement, not at a
    later read of the result."""
    for v in operands:
        if isinstance(v, GpuArray) and v.is_lazy and v.node.may_complex:
            v.materialize()


def lazy_cast(a: Any, cls: str, provider: Any) -> Any:
    """Lazy ``single(a)``/``double(a)``/``logical(a)`` or None."""
    target = _FUSABLE_CLASSES.get(cls)
    if target is None or target == "bool":
        return None
    na = operand_node(a, provider)
    if na is None or na.op == "scalar":
        return None
    return _result(g.cast_node(na, target), provider)


def lazy_reduce(op: str, a: Any, dims: tuple[int, ...] | None, provider: Any,
                out_shape: tuple[int, ...] | None = None) -> Any:
    """Lazy ``sum/mean/prod/max/min`` over 0-based ``dims`` (None: all) or
    None (``out_shape``: see ``graph.reduce_node``)."""
    na = operand_node(a, provider)
    if na is None or na.op == "scalar" or na.numel == 0:
        return None
    if op in ("max", "min", "prod") and na.dtype == "bool":
        return None
    if op == "mean" and na.dtype == "f32" and provider.capabilities.float64:
        # single means accumulate in double, as the host's (a sum past
        # realmax divided back into range is finite there); the casts fuse
        # into the reduction's loads and its store
        node = g.reduce_node(op, g.cast_node(na, "f64"), dims, out_shape)
        return None if node is None else _result(g.cast_node(node, "f32"), provider)
    node = g.reduce_node(op, na, dims, out_shape)
    if node is None:
        return None
    return _result(node, provider)


def lazy_generator(kind: str, shape: tuple[int, ...], cls: str, provider: Any,
                   params: tuple[Any, ...]) -> Any:
    """Lazy ``fill``/``linspace``/``colon``/``rand``/``randn`` or None."""
    dtype = _FUSABLE_CLASSES.get(cls)
    if dtype is None or dtype == "bool":
        return None
    n = 1
    for d in shape:
        n *= d
    if n == 0:
        return None
    if kind == "fill":
        node = g.fill_node(shape, params[0], dtype)
    elif kind == "linspace":
        node = g.linspace_node(params[0], params[1], shape[1], dtype)
    elif kind == "colon":
        node = g.colon_node(params[0], params[1], shape[1], dtype)
    elif kind in ("rand", "randn"):
        node = g.random_node(kind, shape, dtype, params[0], params[1])
    else:
        return None
    return _result(node, provider)


class _FusionEngine(LazyEngine):
    """Lazy gpuArrays materialise through the provider's fusion executor."""

    def run(self, p: AccelProvider, node: FNode, use_hints: bool) -> GpuTensorHandle | None:
        try:
            return executor_for(p).materialize(node, use_hints)
        except DomainFallback:
            return None
        except Unsupported:
            count_fallback("fusion")
            return None

    def evaluate_on_host(self, p: AccelProvider, node: FNode) -> Any:
        return evaluate(node, lambda h: p.download(h).to_array())


register_lazy_engine(_FusionEngine())


class _OneNodeKernels(ElementwiseKernelSource):
    """A provider's eager elementwise and cast hooks as one-node kernels,
    rendered by its executor's renderer (and render cache) from the op
    table. Integer operands and results (classes up to 32 bits) where the
    renderer stores them: computed in double, rounded and saturated on store."""

    def render(self, provider: Any, op: str, operands: Any, out_dtype: str) -> RenderedKernel | None:
        renderer = executor_for(provider).renderer
        dtypes = dict(g.NP_TO_IR)
        if renderer.integer_storage:
            dtypes.update(g.INTEGER_IR)
        target = dtypes.get(out_dtype)
        if target is None:
            return None
        nodes: list[FNode | float] = []
        for o in operands:
            if isinstance(o, GpuTensorHandle):
                if o.dtype not in dtypes:
                    return None
                nodes.append(g.input_node(o))
            elif type(o) is float:
                nodes.append(o)
            else:
                return None
        node = _hook_node(op, nodes, target if target in g.IR_OF_INTEGER else None, target)
        if node is None or node.dtype != target or node.handle is not None:
            return None
        plan = KernelPlan("elementwise", tuple(node.shape), [node])
        return renderer.render(plan)


def _hook_node(op: str, operands: list[FNode | float], integer: str | None,
               target: str) -> FNode | None:
    """The node of hook op ``op`` (``cast``: the provider's cast hook, to
    IR dtype ``target``) on input nodes and float uniforms (``integer``:
    the integer IR dtype of a non-logical result)."""
    if op == "cast":
        x = operands[0]
        return None if len(operands) != 1 or type(x) is float else g.cast_node(x, target)
    if len(operands) == 1:
        name = unary_op_name(op)
        x = operands[0]
        return None if name is None or type(x) is float else g.unary_node(name, x, integer)
    name = _BUILTIN_BINARY.get(op)
    a, b = operands
    if name is None or (type(a) is float and type(b) is float):
        return None
    if type(a) is float:
        a = _scalar_operand(a, float, b.dtype)
    elif type(b) is float:
        b = _scalar_operand(b, float, a.dtype)
    try:
        return g.binary_node(name, a, b, integer)
    except FusionShapeError:
        return None


register_elementwise_kernel_source(_OneNodeKernels())
