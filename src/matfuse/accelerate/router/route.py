"""The routing decision for builtins, operators and indexing with device
operands (the runtime reaches it through ``entry.ROUTER``).

* ``call_with_device_args`` - a builtin with a DeviceValue argument: its
  own device implementation, a fused node (when the provider fuses), a
  provider hook (``builtins``), else gather, run the CPU impl (counted as a
  fallback) and re-upload results that MATLAB returns as gpuArrays.
* ``device_binary`` / ``device_unary`` / ``device_transpose`` - operators
  with a device operand: fused node, provider hook, or counted host path.
* ``device_index`` / ``device_assign`` - ``g(idx)`` and ``g(idx) = rhs``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.accelerate.class_rules import (
    BINARY_SYMBOLS,
    SYMBOL_OF_BINARY,
    UNARY_SYMBOLS,
)
from matfuse.accelerate.facade import ensure_provider
from matfuse.accelerate.fusion.executor import fusion_enabled
from matfuse.accelerate.fusion.lazy import lazy_binary, lazy_unary
from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate.router import compositions, fused, launch, placement
from matfuse.accelerate.router import ops as device_ops
from matfuse.accelerate.router import solve as device_solve
from matfuse.accelerate.router.builtins import try_builtin_on_device
from matfuse.accelerate.router.declines import Declined
from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.device_routes import RouteTable
from matfuse.accelerate.planner.fallback_reasons import call_form, message, operator_form
from matfuse.accelerate_api import ACTIVE, AccelProvider, Unsupported, count_fallback
from matfuse.runtime.dispatcher import invoke
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import CHAR_DTYPE, DeviceValue, shape_of

# Builtins that only look at class/shape: they get a free host stand-in
# (zero-strided array of the right class and shape) instead of a download.
SHAPE_QUERIES = frozenset({
    "size", "numel", "ndims", "length", "isempty", "isscalar", "isvector", "isrow",
    "iscolumn", "ismatrix", "issquare", "isnumeric", "isfloat", "islogical", "isreal",
    "iscomplex", "isinteger", "ischar", "iscell", "isstruct", "isstring", "iscellstr", "isobject",
    "is_function_handle", "isa_numeric",
})
# Builtins that see the gpuArray itself (``class(g)`` is 'gpuArray').
CLASS_QUERIES = frozenset({"class", "isa", "isobject"})
# Builtins whose results stay on the host even for gpuArray inputs.
HOST_RESULTS = frozenset({
    "class", "isa", "isequal", "isequaln", "num2str", "mat2str", "sprintf", "disp",
    "display", "fprintf", "int2str", "string", "num2cell", "mat2cell", "cellfun",
    "struct", "cell", "strcmp", "strcmpi", "ischar", "func2str", "validateattributes",
    "assert", "error", "warning", "isfield",
}) | SHAPE_QUERIES

# Builtins with their own device implementation: fn(args, nargout, ctx) -> outputs.
def _colon_builtin(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``colon(a, b)`` / ``colon(a, step, b)``: as the ``:`` operator."""
    if len(args) not in (2, 3) or nargout > 1:
        return None
    return [device_colon(args[0], args[1] if len(args) == 3 else None, args[-1])]


DEVICE_IMPLS = compositions.ComposedTable(
    {**compositions.OWN_COMPOSITIONS, "linspace": placement.linspace_on_device,
     "colon": _colon_builtin})


class Session:
    """What the router decides with, derived once per active provider (and
    again after any registry change: ``ACTIVE.generation``).

    Attributes:
        provider: the active provider.
        fuses: operations build lazy fused graphs (the provider fuses and
            the ``fusion`` option is on).
        one_node: eager elementwise operations run as one-node kernels of
            the fusion IR (the provider renders kernels; fusion is off).
        routes: the cost model's routes for operations on device operands
            (``planner.device_routes``): which fuse, which launch now, and
            where an operation whose result goes to the host runs.
    """

    __slots__ = ("provider", "fuses", "one_node", "generation", "routes", "unfused")

    def __init__(self, provider: AccelProvider, fuses: bool, generation: int,
                 cost_model: CostModel | None = None):
        self.provider = provider
        self.fuses = fuses
        self.one_node = provider.capabilities.fuses and not fuses
        self.generation = generation
        self.routes = RouteTable(cost_model or CostModel(), fuses)
        # read per operation: ``s.fuses and name not in s.unfused``
        self.unfused = self.routes.unfused


# The cost model of the planner in charge (``use_cost_model``), else defaults.
_cost_model: CostModel | None = None


def use_cost_model(model: CostModel | None) -> None:
    """Derive the routes of later sessions from ``model`` (the planner's,
    calibrated for this device; None: the defaults)."""
    global _cost_model
    _cost_model = model
    ACTIVE.session = None


def session() -> Session:
    """The router's session for this thread's active provider (started on
    first use). Per operation this reads two attributes of the registry's
    ``ACTIVE`` state; the provider and the options are consulted only
    when the registry changed."""
    s = ACTIVE.session
    if s is not None and s.generation == ACTIVE.generation:
        return s
    p = ensure_provider()
    s = Session(p, fusion_enabled(p), ACTIVE.generation, _cost_model)
    ACTIVE.session = s
    return s


def _stand_in(v: Any) -> Any:
    """Host placeholder with the class and shape of a device value."""
    if not isinstance(v, DeviceValue):
        return v
    cls = v.underlying_class()
    dtype = CHAR_DTYPE if cls == "char" else np.dtype(
        {"double": np.float64, "single": np.float32, "logical": np.bool_}.get(cls, cls))
    if v.is_complex():
        dtype = np.complex64 if cls == "single" else np.complex128
    shape = tuple(v.shape)
    return np.broadcast_to(np.zeros((1,) * len(shape), dtype=dtype), shape)


def gather_value(v: Any) -> Any:
    """Host copy of a device value (others unchanged)."""
    return v.gather() if isinstance(v, DeviceValue) else v


def returns_device(b: Builtin) -> bool:
    """Whether MATLAB returns gpuArrays from ``b`` given gpuArray inputs."""
    if b.sink or b.name in HOST_RESULTS:
        return False
    if b.gpu is not None:
        return b.gpu.returns_gpu
    return True


def reupload(value: Any, p: AccelProvider) -> Any:
    """Upload numeric/logical results; text, cells and others stay host."""
    t = type(value)
    if t is float or t is bool or t is complex:
        return upload_value(value, p)
    if t is np.ndarray and value.dtype != CHAR_DTYPE and value.dtype.kind in "biufc":
        return upload_value(value, p)
    return value


def call_with_device_args(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> list[Any]:
    """Run builtin ``b`` with at least one device argument (see module doc)."""
    name = b.name
    if name in SHAPE_QUERIES:
        return invoke(b, [_stand_in(a) for a in args], nargout, ctx)
    spec = b.gpu
    if name in CLASS_QUERIES or (spec is not None and spec.kind == "device_native"):
        return invoke(b, args, nargout, ctx)
    if _empty_device_data(args) and returns_device(b) and name in _EMPTY_DATA_RESULTS:
        # no elements to compute on: the result (an empty array or the
        # reduction's identity) follows from the sizes alone, as on the host
        results = invoke(b, [_stand_in(a) for a in args], nargout, ctx)
        like = next(a for a in args if isinstance(a, DeviceValue))
        return [placement.to_device_like(r, like) if type(r) in (float, bool, np.ndarray) else r
                for r in results]
    if _only_prototypes(args):
        # zeros(..., 'like', g), rand(..., 'like', g), cast(x, 'like', g): the
        # builtin reads the prototype's class and places its result on g's
        # device itself (construction.place_like).
        return invoke(b, args, nargout, ctx)
    impl = DEVICE_IMPLS.get(name)
    declined: Declined | None = None
    if impl is not None:
        outputs = impl(args, nargout, ctx)
        if isinstance(outputs, Declined):
            declined = outputs
        elif outputs is not None:
            return outputs
    s = session()
    p = s.provider
    if s.routes.host_only(name):
        # text made from device values (num2str, sprintf, disp...): the
        # program reads the values, as gather does; a download (counted by
        # the provider), not array math left to the host
        return invoke(b, [gather_value(a) for a in args], nargout, ctx)
    if name in device_ops.LOGICAL_OPERATORS:
        args = device_ops.logical_operands(p, args)
    if b.device_impl is not None:
        return invoke(_with_impl(b, b.device_impl), args, nargout, ctx)
    lazy = fused.builtin(p, b, args, nargout) if s.fuses and name not in s.unfused else None
    if lazy is not None:
        return [lazy]
    outputs = try_builtin_on_device(p, b, args, nargout, s.one_node)
    if outputs is not None:
        return outputs
    count_fallback(b.name, call_form(b.name, args) if declined is None
                   else message(f"{b.name} on the host: {declined.reason}"))
    results = invoke(b, [gather_value(a) for a in args], nargout, ctx)
    if not returns_device(b):
        return results
    return [reupload(r, p) for r in results]


# Reductions and scans whose result on arrays without elements depends on
# the sizes alone.
_EMPTY_DATA_RESULTS = frozenset({
    "sum", "prod", "mean", "max", "min", "any", "all", "cumsum", "cumprod", "cummax", "cummin",
    "nnz", "median", "std", "var", "mode"})


def _empty_device_data(args: list[Any]) -> bool:
    """Whether every device argument is an array with no elements."""
    device = [a for a in args if isinstance(a, DeviceValue)]
    return bool(device) and all(0 in tuple(a.shape) for a in device)


def _only_prototypes(args: list[Any]) -> bool:
    """Whether every device argument is the prototype of a ``'like'`` pair."""
    for i, a in enumerate(args):
        if isinstance(a, DeviceValue):
            word = args[i - 1] if i > 0 else None
            if not (type(word) is np.ndarray and word.dtype == CHAR_DTYPE
                    and word.size == 4 and "".join(word.reshape(-1)).lower() == "like"):
                return False
    return True


def _with_impl(b: Builtin, impl: Callable[..., Any]) -> Builtin:
    from dataclasses import replace

    return replace(b, impl=impl)


# ------------------------------------------------------------------ operators
def _host_binary(symbol: str, a: Any, b: Any) -> Any:
    from matfuse.runtime import ops

    return ops.binary(symbol, gather_value(a), gather_value(b))


# Matrix operators that are elementwise when an operand is a scalar, and
# the elementwise op they become.
_SCALAR_FORMS = {"/": "rdivide", "\\": "ldivide", "^": "power"}
_MATRIX_OPERATORS = frozenset({"*", "/", "\\", "^", "mtimes", "mrdivide", "mldivide", "mpower"})


def device_binary(op: str, a: Any, b: Any) -> Any:
    """``a op b`` where an operand is a DeviceValue; the result is a gpuArray.

    Elementwise operators build a lazy graph node when the session fuses,
    else run through the launch step (``launch.binary``); matrix operators
    go to linear algebra (``*``, ``\\``) unless an operand is a scalar.
    Whatever the device does not take runs on the host (counted).

    Args:
        op: operator symbol of ``runtime.ops.binary`` (``+ - .* ./ .\\ .^ *
            / \\ ^ == ~= < <= > >= & |``) or an elementwise op name (``plus``).
    """
    s = session()
    p = s.provider
    name = BINARY_SYMBOLS.get(op, op)
    if name in device_ops.LOGICAL_OPERATORS:
        a, b = device_ops.logical_operands(p, [a, b])
    if name in _MATRIX_OPERATORS:
        result = _matrix_operator(s, name, a, b)
    else:
        if s.fuses and name not in s.unfused:
            lazy = lazy_binary(name, a, b, p)
            if lazy is not None:
                return lazy
        result = launch.binary(p, name, a, b, s.one_node)
        if result is None and name == "power" and isinstance(a, GpuArray) and a.is_complex():
            from matfuse.accelerate.router.complex_forms import complex_power

            result = complex_power(a, b)
    if result is not None:
        return result
    count_fallback(f"binary:{name}", operator_form(SYMBOL_OF_BINARY.get(name, name), a, b))
    symbol = SYMBOL_OF_BINARY.get(name, name)
    return reupload(_host_binary(symbol, a, b), p)


def _matrix_operator(s: Session, name: str, a: Any, b: Any) -> GpuArray | None:
    """``a*b``, ``a/b``, ``a\\b``, ``a^b`` on the device, or None (the
    named forms ``mtimes`` ... are fused where elementwise, else the host's)."""
    p = s.provider
    if s.fuses and name not in s.unfused:
        lazy = fused.binary(p, name, a, b)
        if lazy is not None:
            return lazy
    if name == "*":
        return device_ops.try_mtimes(p, a, b, s.one_node)
    if name == "\\" and not _is_scalar(a):
        return device_solve.try_mldivide(p, a, b)
    scalar_form = (name == "/" and _is_scalar(b) or name == "\\"
                   or name == "^" and _is_scalar(a) and _is_scalar(b))
    if scalar_form and name in _SCALAR_FORMS:
        return launch.binary(p, _SCALAR_FORMS[name], a, b, s.one_node)
    return None


def _is_scalar(v: Any) -> bool:
    t = type(v)
    if t is float or t is bool or t is complex:
        return True
    return shape_of(v) == (1, 1)


def device_unary(op: str, a: Any) -> Any:
    """``-a``, ``+a``, ``~a`` (or an elementwise op name such as ``sqrt``),
    ``'`` / ``.'`` (``ctranspose`` / ``transpose``) on a device value."""
    s = session()
    p = s.provider
    name = UNARY_SYMBOLS.get(op, op)
    if name in ("'", "ctranspose", ".'", "transpose"):
        return device_transpose(a, conjugate=name in ("'", "ctranspose"))
    if name in device_ops.LOGICAL_OPERATORS:
        a, = device_ops.logical_operands(p, [a])
    if s.fuses and name not in s.unfused:
        lazy = lazy_unary(name, a, p)
        if lazy is not None:
            return lazy
    result = launch.unary(p, name, a, s.one_node)
    if result is not None:
        return result
    count_fallback(f"unary:{name}", operator_form(name, a))
    from matfuse.runtime import ops

    symbol = {v: k for k, v in UNARY_SYMBOLS.items() if k != "!"}.get(name)
    host = gather_value(a)
    if symbol is not None:
        return reupload(ops.unary(symbol, host), p)
    from matfuse.runtime.registry import load_all, lookup
    from matfuse.runtime.dispatcher import invoke

    load_all()
    b = lookup(name)
    if b is None:
        raise ValueError(f"device_unary: unknown op {name!r}")
    return reupload(invoke(b, [host], 1, None)[0], p)


def device_transpose(a: Any, conjugate: bool = False) -> Any:
    """``a.'`` or ``a'`` for a device value."""
    p = session().provider
    result = device_ops.try_transpose(p, a, conjugate)
    if result is not None:
        return result
    count_fallback("ctranspose" if conjugate else "transpose", operator_form("transpose", a))
    from matfuse.runtime import ops

    host = gather_value(a)
    return reupload(ops.ctranspose(host) if conjugate else ops.transpose(host), p)


# ------------------------------------------------------------------ indexing
def device_index(v: Any, idx: list[Any]) -> Any:
    """``v(idx...)`` where ``v`` is a gpuArray: a gpuArray result."""
    from matfuse.accelerate.router.indexing import index_on_device

    s = session()
    return index_on_device(s.provider, v, idx, s.fuses)


def device_assign(v: Any, idx: list[Any], rhs: Any, inplace: bool = False) -> Any:
    """New value of ``v`` after ``v(idx...) = rhs`` (``v`` or ``rhs`` on the
    device); a gpuArray result.

    Args:
        inplace: the caller knows ``v`` is not shared with another variable
            (``paren_set(..., inplace=True)``): its device buffer may be
            updated without a copy.
    """
    from matfuse.accelerate.router.indexing import assign_on_device

    return assign_on_device(session().provider, v, idx, rhs, inplace)


def device_colon(start: Any, step: Any, stop: Any) -> Any:
    """``start:step:stop`` with a device operand: a gpuArray row (``step``
    may be None). The endpoints are read back (scalars: the row's length
    depends on them); whole-number double or single endpoints and step make
    the row on the device (``start + k*step``, exact there, as the host's
    range); other ranges are built on the host and uploaded."""
    from matfuse.runtime import ops

    p = session().provider
    row = _whole_colon_on_device(p, start, step, stop)
    if row is not None:
        return row
    count_fallback("colon", message("a colon range with a gpuArray endpoint is built on the host"))
    host = ops.colon_range(gather_value(start), gather_value(step) if step is not None else None,
                           gather_value(stop))
    return reupload(host, p)


def _whole_colon_on_device(p: AccelProvider, start: Any, step: Any, stop: Any) -> Any:
    """The row ``start:step:stop`` made by the provider's colon, or None
    (not real double/single scalars of whole numbers, or an empty row)."""
    values, classes = [], set()
    for v in (start, 1.0 if step is None else step, stop):
        if isinstance(v, DeviceValue):
            if v.is_complex() or v.underlying_class() not in ("double", "single") or v.numel != 1:
                return None
            classes.add(v.underlying_class())
            v = gather_value(v)
        if type(v) is np.ndarray and v.size == 1 and v.dtype.kind == "f":
            classes.add("single" if v.dtype == np.float32 else "double")
            v = float(v.reshape(-1)[0])
        if type(v) is not float or not v.is_integer() or abs(v) > 2.0 ** 52:
            return None
        values.append(v)
    first, delta, last = values
    if delta == 0 or (last - first) / delta < 0:
        return None
    count = int((last - first) // delta) + 1
    cls = "single" if "single" in classes else "double"
    if cls == "single" and max(abs(first), abs(first + (count - 1) * delta)) > 2.0 ** 24:
        return None
    try:
        h = p.colon(first, delta, count, "float32" if cls == "single" else "float64")
    except Unsupported:
        return None
    return wrap_handle(h, cls, p)


def device_concat(rows: list[list[Any]]) -> Any:
    """``[a b; c d]`` where some element is a gpuArray: a gpuArray result.

    Numeric and logical arrays of one complexity concatenate on the device
    (parts of another class converted first, host parts uploaded); text,
    mixed complexity and every error case take the host path
    (``runtime.ops.concat``) and re-upload.
    """
    from matfuse.accelerate.router.ops import try_cat, try_concat
    from matfuse.runtime import ops

    p = session().provider
    result = try_concat(p, rows)
    if result is not None:
        return result
    # N-D parts: each row joined along dimension 2, then the rows along 1
    joined_rows = [row[0] if len(row) == 1 else try_cat(p, 2, row) for row in rows if row]
    if joined_rows and all(r is not None for r in joined_rows):
        result = joined_rows[0] if len(joined_rows) == 1 else try_cat(p, 1, joined_rows)
        if isinstance(result, GpuArray):
            return result
    count_fallback("concat", message("mixed classes, N-D parts or an error case: "
                                     "concatenated on the host"))
    host = ops.concat([[gather_value(v) for v in row] for row in rows])
    return reupload(host, p)
