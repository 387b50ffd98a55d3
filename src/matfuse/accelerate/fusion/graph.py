"""The fusion IR: a lazy DAG of device array operations.

A :class:`FNode` is one operation on whole arrays. Leaves are materialised
device buffers (``input``), uniforms (``scalar``) and generators whose values
are computed inside the consumer kernel (``fill``, ``linspace``, ``colon``,
``rand``, ``randn``). Inner nodes are elementwise ops (with MATLAB implicit
expansion), casts and reductions over a contiguous block of dimensions.

Shapes and dtypes are inferred eagerly when a node is built, so MATLAB's
size errors are raised at the statement that causes them; evaluation waits
until something forces the node (``matfuse.accelerate.fusion.executor``).
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass
from typing import Any

from matfuse.accelerate_api import GpuTensorHandle

# Compute dtypes of the IR.
FLOAT_DTYPES = ("f32", "f64")
NP_TO_IR = {"float32": "f32", "float64": "f64", "bool": "bool"}
IR_TO_NP = {"f32": "float32", "f64": "float64", "bool": "bool"}
#: integer classes up to 32 bits as IR dtypes of stored values: a kernel
#: loads them into double, computes in double (as MATLAB's integer
#: arithmetic does) and rounds half away and saturates each integer-typed
#: value (NaN -> 0). Only renderers declaring ``integer_storage`` take them
#: (the eager hooks' one-node kernels); lazy graphs do not build them.
INTEGER_IR = {"int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16",
              "int32": "i32", "uint32": "u32"}
IR_OF_INTEGER = {ir: name for name, ir in INTEGER_IR.items()}

UNARY_OPS = frozenset({
    "neg", "not", "abs", "sign", "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "floor", "ceil", "round", "fix", "isnan", "isinf", "isfinite",
})
BINARY_OPS = frozenset({
    "add", "sub", "mul", "div", "ldiv", "pow", "eq", "ne", "lt", "le", "gt", "ge",
    "and", "or", "xor", "max", "min", "atan2", "hypot", "mod", "rem",
})
COMPARISONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor", "not",
                         "isnan", "isinf", "isfinite"})
# Ops whose real result is NaN where MATLAB gives a complex number: a kernel
# containing them raises a domain flag and the caller recomputes on the host.
DOMAIN_OPS = frozenset({"sqrt", "log", "log2", "log10", "log1p", "asin", "acos", "pow"})
GENERATORS = frozenset({"fill", "linspace", "colon", "rand", "randn"})
# Reduction node ops carry a prefix: "max"/"min" are also elementwise ops.
REDUCTIONS = frozenset({"reduce_sum", "reduce_mean", "reduce_prod", "reduce_max", "reduce_min"})

_ids = itertools.count(1)


def next_uid() -> int:
    """A fresh node id: every node created afterwards has a larger one."""
    return next(_ids)


class FusionShapeError(ValueError):
    """Operands whose shapes are not compatible under implicit expansion."""


@dataclass(eq=False, slots=True, weakref_slot=True)
class FNode:
    """One lazy operation.

    Attributes:
        op: operation name (see the module tables) or ``input``/``scalar``/``cast``.
        args: operand nodes.
        shape: MATLAB shape of the result.
        dtype: IR dtype of the result (``f32``, ``f64``, ``bool``).
        attrs: op parameters (generator values, reduction geometry, cast target).
        handle: the device buffer once materialised (always set for ``input``).
        known_nonneg: every value was proven >= 0 before the node's operands
            were dropped (see ``nonnegative``).
        owner: the object owning ``handle`` (kept alive while the graph needs it).
        cost: distinct unmaterialised nodes in the graph under this node
            (bounds kernel size; the loop-fusion cap compares against it).
        may_complex: some node below may produce MATLAB complex values.
        keep: set when the value is bound to a variable that is read later, so a
            kernel computing it also writes it out (materialise, don't recompute).
    """

    op: str
    args: tuple["FNode", ...]
    shape: tuple[int, ...]
    dtype: str
    attrs: tuple[Any, ...] = ()
    handle: GpuTensorHandle | None = None
    keep: bool = False
    known_nonneg: bool = False
    owner: Any = None
    uid: int = 0
    cost: int = 0
    may_complex: bool = False

    # Written by hand (the dataclass one plus __post_init__ cost ~2x more):
    # nodes are built once per operation on the interpreter's hot path.
    def __init__(self, op: str, args: tuple["FNode", ...], shape: tuple[int, ...], dtype: str,
                 attrs: tuple[Any, ...] = (), handle: GpuTensorHandle | None = None,
                 keep: bool = False, known_nonneg: bool = False, owner: Any = None) -> None:
        self.op = op
        self.args = args
        self.shape = shape
        self.dtype = dtype
        self.attrs = attrs
        self.handle = handle
        self.keep = keep
        self.known_nonneg = known_nonneg
        self.owner = owner
        self.uid = next(_ids)
        # Sum of the operands' costs over-counts shared subgraphs; it is exact
        # for chains (loops) and only walked exactly when it could pass a cap.
        approx = 1
        complex_below = False
        for a in args:
            if a.handle is None:
                approx += a.cost
            if a.may_complex:
                complex_below = True
        self.cost = approx if approx <= 32 else _pending_count(self)
        self.may_complex = complex_below or (op in DOMAIN_OPS and needs_domain_check(self))

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def is_leaf(self) -> bool:
        return self.handle is not None or self.op in ("scalar",) or self.op in GENERATORS


def broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """MATLAB implicit expansion of two shapes, or FusionShapeError."""
    # Fast paths (same shape, or a 1x1 operand) with the result the loop
    # below would give: no padding and no trailing singleton to drop.
    if a == b or b == (1, 1):
        if len(a) == 2 or (len(a) > 2 and a[-1] != 1):
            return tuple(a)
    elif a == (1, 1) and (len(b) == 2 or (len(b) > 2 and b[-1] != 1)):
        return tuple(b)
    n = max(len(a), len(b))
    a2 = a + (1,) * (n - len(a))
    b2 = b + (1,) * (n - len(b))
    out = []
    for x, y in zip(a2, b2):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise FusionShapeError("Arrays have incompatible sizes for this operation.")
    while len(out) > 2 and out[-1] == 1:
        out.pop()
    return tuple(out)


def promote(a: str, b: str) -> str:
    """Compute dtype of a binary op: single wins over double, bool becomes double."""
    if "f32" in (a, b):
        return "f32"
    return "f64"


# ------------------------------------------------------------------ builders
def value_dtype(dtype: str) -> str:
    """The type a kernel computes a value of IR dtype ``dtype`` in (integers: double)."""
    return "f64" if dtype in IR_OF_INTEGER else dtype


def input_node(handle: GpuTensorHandle, owner: Any = None) -> FNode:
    dtype = NP_TO_IR.get(handle.dtype) or INTEGER_IR[handle.dtype]
    return FNode("input", (), tuple(handle.shape), dtype, handle=handle, owner=owner)


def scalar_node(value: float, dtype: str) -> FNode:
    return FNode("scalar", (), (1, 1), dtype, attrs=(float(value),))


def fill_node(shape: tuple[int, ...], value: float, dtype: str) -> FNode:
    return FNode("fill", (), shape, dtype, attrs=(float(value),))


def linspace_node(start: float, stop: float, n: int, dtype: str) -> FNode:
    return FNode("linspace", (), (1, n), dtype, attrs=(float(start), float(stop), n))


def colon_node(start: float, step: float, n: int, dtype: str) -> FNode:
    return FNode("colon", (), (1, n), dtype, attrs=(float(start), float(step)))


def random_node(kind: str, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                counter: int) -> FNode:
    """``rand``/``randn`` values from Philox4x32-10 (see ``runtime/_philox.py``)."""
    return FNode(kind, (), shape, dtype, attrs=(int(key[0]), int(key[1]), int(counter)))


def range_gather_node(x: FNode, axes: tuple[tuple[int, int, int, int], ...],
                      counts: tuple[int, ...], shape: tuple[int, ...]) -> FNode:
    """The materialised ``x`` read at the positions of a range selection
    (a slice, circshift, flip or repmat): element ``k`` of the result (in
    column-major order over ``counts``) is ``x`` at ``sum_d v_d(k_d)``, with
    ``axes[d] = (first, step, modulus, scale)`` as in the provider protocol's
    ``range_positions``. The read fuses into the kernel of its consumer.
    ``shape`` is MATLAB's shape of the result (the same elements)."""
    if x.handle is None:
        raise ValueError("range_gather reads a materialised tensor")
    # The offsets of plain ranges add up to one base, a kernel uniform (a
    # column ``A(:, k)`` read in a loop keeps one kernel); the rest is
    # structure (``range_gather_structure``).
    base = sum(first for first, _, modulus, _ in axes if not modulus)
    shape_axes = tuple((0 if not modulus else first, step, modulus, scale)
                       for first, step, modulus, scale in axes)
    return FNode("range_gather", (x,), shape, x.dtype, attrs=(shape_axes, counts, base))


def range_gather_structure(node: FNode) -> tuple:
    """What a kernel reading ``node`` is specialised on (everything but the
    base offset, which is a uniform: ``range_gather_base``)."""
    return node.attrs[:2]


def range_gather_base(node: FNode) -> int:
    """The base offset of a ``range_gather`` node (a u32 kernel uniform)."""
    return node.attrs[2]


def unary_node(op: str, x: FNode, integer: str | None = None) -> FNode:
    """``op(x)``; ``integer``: the integer IR dtype of a non-logical result
    (MATLAB's class rules decided it)."""
    if op not in UNARY_OPS:
        raise ValueError(f"not a fusable unary op: {op}")
    if op in ("isnan", "isinf", "isfinite") and x.dtype == "bool":
        # a logical is 0 or 1: test its value as a number (no renderer has
        # abs or a NaN test on a bool)
        x = cast_node(x, "f32")
    if op in COMPARISONS:
        dtype = "bool"
    elif integer is not None:
        dtype = integer
    elif x.dtype == "bool":
        dtype = "f64"
    else:
        dtype = x.dtype
    return FNode(op, (x,), x.shape, dtype)


def binary_node(op: str, a: FNode, b: FNode, integer: str | None = None) -> FNode:
    """``a op b`` with implicit expansion; ``integer``: the integer IR dtype
    of a non-logical result (MATLAB's class rules decided it)."""
    if op not in BINARY_OPS:
        raise ValueError(f"not a fusable binary op: {op}")
    shape = broadcast_shapes(a.shape, b.shape)
    if op in ("and", "or", "xor"):
        # each operand's own truth value: promoting a double to single first
        # would turn 1e-310 into 0
        a, b = cast_node(a, "bool"), cast_node(b, "bool")
    if op in ("max", "min") and a.dtype == b.dtype == "bool":
        # MATLAB: max/min of two logicals is logical (computed on 0/1 values)
        return cast_node(FNode(op, (a, b), shape, "f32"), "bool")
    if op in COMPARISONS:
        dtype = "bool"
    elif integer is not None:
        dtype = integer
    else:
        dtype = promote(a.dtype, b.dtype)
    return FNode(op, (a, b), shape, dtype)


def cast_node(x: FNode, dtype: str) -> FNode:
    if x.dtype == dtype:
        return x
    return FNode("cast", (x,), x.shape, dtype, attrs=(dtype,))


def reduce_geometry(shape: tuple[int, ...], dims: tuple[int, ...] | None) -> tuple[int, int, int] | None:
    """(A, R, C) for reducing a contiguous block of 0-based ``dims``.

    Element (a, r, c) of the input sits at ``a + A*(r + R*c)``. Returns None
    when the dims are not one contiguous block (not fusable).
    """
    if dims is None:
        n = 1
        for d in shape:
            n *= d
        return (1, n, 1)
    ds = sorted(dims)
    if ds != list(range(ds[0], ds[-1] + 1)):
        return None
    padded = tuple(shape) + (1,) * (ds[-1] + 1 - len(shape))
    a = 1
    for d in padded[: ds[0]]:
        a *= d
    r = 1
    for d in padded[ds[0]: ds[-1] + 1]:
        r *= d
    c = 1
    for d in padded[ds[-1] + 1:]:
        c *= d
    return (a, r, c)


def reduce_node(op: str, x: FNode, dims: tuple[int, ...] | None,
                out_shape: tuple[int, ...] | None = None) -> FNode | None:
    """Reduction ``op`` (``sum mean prod max min``) of ``x`` over ``dims``
    (None: all), or None if not fusable.

    Args:
        out_shape: the result's MATLAB shape when it is not ``x``'s with the
            reduced dims set to 1: the caller permuted the operand to bring
            the reduced dims together, and the kept dims, still in their
            order, give the same column-major order of outputs.
    """
    op = "reduce_" + op
    if op not in REDUCTIONS:
        return None
    geometry = reduce_geometry(x.shape, dims)
    if geometry is None:
        return None
    if out_shape is not None:
        if geometry[0] * geometry[2] != _count(out_shape):
            raise ValueError("reduce_node: out_shape does not hold the outputs")
        shape: tuple[int, ...] = tuple(out_shape)
    elif dims is None:
        shape = (1, 1)
    else:
        padded = list(x.shape) + [1] * (max(dims) + 1 - len(x.shape))
        for d in dims:
            padded[d] = 1
        while len(padded) > 2 and padded[-1] == 1:
            padded.pop()
        shape = tuple(padded)
    dtype = "f64" if x.dtype == "bool" else x.dtype
    return FNode(op, (x,), shape, dtype, attrs=geometry)


def _count(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def is_reduction(node: FNode) -> bool:
    return node.op in REDUCTIONS and node.handle is None


def walk_until(roots: list[FNode], opaque) -> list[FNode]:
    """Post-order of the nodes under ``roots`` (each once), not descending
    into nodes for which ``opaque(node)`` is true (they are listed)."""
    order: list[FNode] = []
    seen: set[int] = set()
    stack: list[tuple[FNode, bool]] = [(r, False) for r in reversed(roots)]
    while stack:
        node, expanded = stack.pop()
        if node.uid in seen:
            continue
        if expanded or not node.args or opaque(node):
            seen.add(node.uid)
            order.append(node)
            continue
        stack.append((node, True))
        for arg in reversed(node.args):
            stack.append((arg, False))
    return order


def walk(root: FNode, stop_at_materialized: bool = True) -> list[FNode]:
    """Post-order list of the nodes reachable from ``root`` (each once)."""
    order: list[FNode] = []
    try:
        _visit(root, set(), order, stop_at_materialized)
    except RecursionError:  # a graph deeper than the interpreter's stack allows
        return _walk_iteratively(root, stop_at_materialized)
    return order


def _walk_iteratively(root: FNode, stop_at_materialized: bool) -> list[FNode]:
    order: list[FNode] = []
    seen: set[int] = set()
    stack: list[tuple[FNode, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if node.uid in seen:
            continue
        if expanded or (stop_at_materialized and node.handle is not None) or not node.args:
            seen.add(node.uid)
            order.append(node)
            continue
        stack.append((node, True))
        for arg in reversed(node.args):
            if arg.uid not in seen:
                stack.append((arg, False))
    return order


def _visit(node: FNode, seen: set[int], order: list[FNode], stop: bool) -> None:
    # Recursive (unmaterialised depth is bounded by the group cost cap):
    # faster than an explicit stack of (node, expanded) pairs.
    seen.add(node.uid)
    if node.handle is None or not stop:
        for arg in node.args:
            if arg.uid not in seen:
                _visit(arg, seen, order, stop)
    order.append(node)


def own_handle(node: FNode, provider: Any, handle: GpuTensorHandle) -> None:
    """Make ``node`` the owner of ``handle``: its buffer is freed when the node
    is garbage collected. The node's operands are dropped (no longer needed)."""
    node.known_nonneg = nonnegative(node)
    node.handle = handle
    node.args = ()
    weakref.finalize(node, _free_quietly, provider, handle)


def _free_quietly(provider: Any, handle: GpuTensorHandle) -> None:
    # Runs from the garbage collector: a provider already reset or shut down
    # has nothing left to free, which is not an error.
    provider.free(handle)


def _pending_count(node: FNode) -> int:
    """Distinct unmaterialised nodes under ``node`` (itself included)."""
    seen: set[int] = set()
    scalars = 0
    stack = [node]
    while stack:
        n = stack.pop()
        if n.uid in seen or n.handle is not None:
            continue
        seen.add(n.uid)
        if n.op == "scalar":
            scalars += 1  # uniforms cost no kernel work
            continue
        stack.extend(n.args)
    return len(seen) - scalars


def is_square(node: FNode) -> bool:
    """``x.^2`` with a constant exponent 2: renderers may emit ``x*x``, which
    is what the pow helpers compute for it (and MATLAB's correctly rounded
    square). Structure for the render and launch-plan caches."""
    if node.op != "pow":
        return False
    exponent = node.args[1] if node.args else None
    return (exponent is not None and exponent.op in ("scalar", "fill")
            and float(exponent.attrs[0]) == 2.0)


def needs_domain_check(node: FNode) -> bool:
    """Whether ``node`` can meet an input outside its real domain.

    ``x.^k`` with a constant integer ``k`` is always real; the other
    DOMAIN_OPS may produce MATLAB complex results for some inputs.
    """
    if node.op not in DOMAIN_OPS or node.dtype == "bool" or node.handle is not None:
        return False
    if node.op == "pow":
        exponent = node.args[1]
        if exponent.op in ("scalar", "fill") and float(exponent.attrs[0]).is_integer():
            return False
    if node.op in ("sqrt", "log", "log2", "log10", "pow"):
        return not nonnegative(node.args[0])
    return True


_NONNEG_UNARY = frozenset({"abs", "sqrt", "exp", "isnan", "isinf", "isfinite", "not", "cosh"})


def nonnegative(node: FNode, depth: int = 0) -> bool:
    """A cheap proof that every value of ``node`` is >= 0 (or NaN).

    Lets kernels skip the domain flag (and its read-back) for the common
    ``sqrt(mean(d.^2) + eps)`` and ``max(x, 0).^g`` patterns.
    """
    if depth > 32:
        return False
    op = node.op
    if node.known_nonneg or node.dtype == "bool" or op == "rand":
        return True
    if op in ("scalar", "fill"):
        return node.attrs[0] >= 0
    if op in _NONNEG_UNARY:
        return True
    args = node.args
    if op == "input" or not args:
        return False
    if op in ("cast", "range_gather") or op in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
                              "floor", "ceil", "round", "fix"):
        return nonnegative(args[0], depth + 1)
    if op == "mul" and args[0] is args[1]:
        return True
    if op == "pow":
        exponent = args[1]
        if exponent.op in ("scalar", "fill") and float(exponent.attrs[0]) % 2 == 0:
            return True
        return nonnegative(args[0], depth + 1)
    if op in ("add", "mul", "div", "min", "hypot"):
        if op == "hypot":
            return True
        return nonnegative(args[0], depth + 1) and nonnegative(args[1], depth + 1)
    if op == "max":
        return nonnegative(args[0], depth + 1) or nonnegative(args[1], depth + 1)
    return False


def may_go_complex(root: FNode) -> bool:
    """Whether evaluating ``root`` could produce MATLAB complex values."""
    return root.may_complex
