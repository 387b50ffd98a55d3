"""Device routing used by the runtime.

* ``call_with_device_args`` - runtime/dispatcher.py calls it when any
  argument of a builtin is a DeviceValue: run the builtin's device path when
  it has one the provider implements, else gather, run the CPU impl (counted
  as a fallback) and re-upload results that MATLAB returns as gpuArrays.
* ``device_binary`` / ``device_unary`` / ``device_transpose`` - operators
  (runtime/ops.py) with a device operand.
* ``device_index`` / ``device_assign`` - ``g(idx)`` and ``g(idx) = rhs``.
* ``to_device_like`` - construction builtins' ``'like'``/``'gpuArray'``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.accelerate import device_compositions, device_ops, device_solve
from matfuse.accelerate.fusion import routing
from matfuse.accelerate.class_rules import (
    BINARY_SYMBOLS,
    SYMBOL_OF_BINARY,
    UNARY_SYMBOLS,
)
from matfuse.accelerate.device_builtins import try_builtin_on_device
from matfuse.accelerate.facade import ensure_provider
from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate_api import AccelProvider, Unsupported, count_fallback
from matfuse.runtime.dispatcher import invoke
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    DeviceValue,
    canonical,
    class_of,
    is_complex_value,
)

# Builtins that only look at class/shape: they get a free host stand-in
# (zero-strided array of the right class and shape) instead of a download.
SHAPE_QUERIES = frozenset({
    "size", "numel", "ndims", "length", "isempty", "isscalar", "isvector", "isrow",
    "iscolumn", "ismatrix", "issquare", "isnumeric", "isfloat", "islogical", "isreal",
    "isinteger", "ischar", "iscell", "isstruct", "isstring", "iscellstr", "isobject",
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
DeviceImpl = Callable[[list[Any], int, Any], list[Any]]
DEVICE_IMPLS: dict[str, DeviceImpl] = dict(device_compositions.COMPOSED)


def register_device_impl(name: str) -> Callable[[DeviceImpl], DeviceImpl]:
    """Decorator: ``name`` runs ``fn`` whenever an argument is a gpuArray."""

    def register(fn: DeviceImpl) -> DeviceImpl:
        DEVICE_IMPLS[name] = fn
        return fn

    return register


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
    if _only_prototypes(args):
        # zeros(..., 'like', g), rand(..., 'like', g), cast(x, 'like', g): the
        # builtin reads the prototype's class and places its result on g's
        # device itself (construction.place_like).
        return invoke(b, args, nargout, ctx)
    impl = DEVICE_IMPLS.get(name)
    if impl is not None:
        outputs = impl(args, nargout, ctx)
        if outputs is not None:
            return outputs
    p = ensure_provider()
    if name in device_ops.LOGICAL_OPERATORS:
        args = device_ops.logical_operands(p, args)
    if b.device_impl is not None:
        return invoke(_with_impl(b, b.device_impl), args, nargout, ctx)
    lazy = routing.fused_builtin(p, b, args, nargout)
    if lazy is not None:
        return [lazy]
    outputs = try_builtin_on_device(p, b, args, nargout)
    if outputs is not None:
        return outputs
    count_fallback(b.name)
    results = invoke(b, [gather_value(a) for a in args], nargout, ctx)
    if not returns_device(b):
        return results
    return [reupload(r, p) for r in results]


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


def device_binary(op: str, a: Any, b: Any) -> Any:
    """``a op b`` where an operand is a DeviceValue; the result is a gpuArray.

    Args:
        op: operator symbol of ``runtime.ops.binary`` (``+ - .* ./ .\\ .^ *
            / \\ ^ == ~= < <= > >= & |``) or an elementwise op name (``plus``).
    """
    p = ensure_provider()
    name = BINARY_SYMBOLS.get(op, op)
    if name in device_ops.LOGICAL_OPERATORS:
        a, b = device_ops.logical_operands(p, [a, b])
    lazy = routing.fused_binary(p, name, a, b)
    if lazy is not None:
        return lazy
    result: GpuArray | None = None
    if name == "*":
        result = device_ops.try_mtimes(p, a, b)
    elif name == "/" and _is_scalar(b):
        result = device_ops.try_binary(p, "rdivide", a, b)
    elif name == "\\" and _is_scalar(a):
        result = device_ops.try_binary(p, "ldivide", a, b)
    elif name == "\\":
        result = device_solve.try_mldivide(p, a, b)
    elif name == "^" and _is_scalar(a) and _is_scalar(b):
        result = device_ops.try_binary(p, "power", a, b)
    elif name not in ("/", "\\", "^"):
        result = device_ops.try_binary(p, name, a, b)
    if result is not None:
        return result
    count_fallback(f"binary:{name}")
    symbol = SYMBOL_OF_BINARY.get(name, name)
    return reupload(_host_binary(symbol, a, b), p)


def _is_scalar(v: Any) -> bool:
    t = type(v)
    if t is float or t is bool or t is complex:
        return True
    shape = getattr(v, "shape", None)
    return shape is not None and tuple(shape) == (1, 1)


def device_unary(op: str, a: Any) -> Any:
    """``-a``, ``+a``, ``~a`` (or an elementwise op name such as ``sqrt``),
    ``'`` / ``.'`` (``ctranspose`` / ``transpose``) on a device value."""
    p = ensure_provider()
    name = UNARY_SYMBOLS.get(op, op)
    if name in ("'", "ctranspose", ".'", "transpose"):
        return device_transpose(a, conjugate=name in ("'", "ctranspose"))
    if name in device_ops.LOGICAL_OPERATORS:
        a, = device_ops.logical_operands(p, [a])
    lazy = routing.fused_unary(p, name, a)
    if lazy is not None:
        return lazy
    result = device_ops.try_unary(p, name, a)
    if result is not None:
        return result
    count_fallback(f"unary:{name}")
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
    p = ensure_provider()
    result = device_ops.try_transpose(p, a, conjugate)
    if result is not None:
        return result
    count_fallback("ctranspose" if conjugate else "transpose")
    from matfuse.runtime import ops

    host = gather_value(a)
    return reupload(ops.ctranspose(host) if conjugate else ops.transpose(host), p)


# ------------------------------------------------------------------ indexing
def device_index(v: Any, idx: list[Any]) -> Any:
    """``v(idx...)`` where ``v`` is a gpuArray: a gpuArray result."""
    from matfuse.accelerate.device_indexing import index_on_device

    return index_on_device(ensure_provider(), v, idx)


def device_assign(v: Any, idx: list[Any], rhs: Any, inplace: bool = False) -> Any:
    """New value of ``v`` after ``v(idx...) = rhs`` (``v`` or ``rhs`` on the
    device); a gpuArray result.

    Args:
        inplace: the caller knows ``v`` is not shared with another variable
            (``paren_set(..., inplace=True)``): its device buffer may be
            updated without a copy.
    """
    from matfuse.accelerate.planner.preallocation import indexed_write_on_host

    host = indexed_write_on_host(v, idx, rhs)
    if host is not None:  # the planner's choice: a preallocated array filled by small writes
        from matfuse.runtime._assign import paren_set

        return paren_set(host, idx, rhs)
    from matfuse.accelerate.device_indexing import assign_on_device

    return assign_on_device(ensure_provider(), v, idx, rhs, inplace)


def device_colon(start: Any, step: Any, stop: Any) -> Any:
    """``start:step:stop`` with a device operand: a gpuArray row (``step``
    may be None). The range is built on the host and uploaded."""
    from matfuse.runtime import ops

    p = ensure_provider()
    count_fallback("colon")
    host = ops.colon_range(gather_value(start), gather_value(step) if step is not None else None,
                           gather_value(stop))
    return reupload(host, p)


def device_concat(rows: list[list[Any]]) -> Any:
    """``[a b; c d]`` where some element is a gpuArray: a gpuArray result.

    Same-class real/complex arrays concatenate on the device (host parts of
    that class are uploaded); mixed classes, N-D parts and every error case
    take the host path (``runtime.ops.concat``) and re-upload.
    """
    from matfuse.accelerate.device_ops import try_concat
    from matfuse.runtime import ops

    p = ensure_provider()
    result = try_concat(p, rows)
    if result is not None:
        return result
    count_fallback("concat")
    host = ops.concat([[gather_value(v) for v in row] for row in rows])
    return reupload(host, p)


# ------------------------------------------------------------------ construction
def to_device_like(value: Any, like: Any) -> Any:
    """``value`` placed like the prototype ``like``.

    Args:
        value: host result of a construction builtin (already in the class
            the builtin chose).
        like: a gpuArray prototype or the string ``"gpuArray"`` -> upload;
            a host prototype -> ``value`` unchanged except complexity.
    """
    if isinstance(like, DeviceValue) and like.is_complex() or \
            not isinstance(like, (str, DeviceValue)) and is_complex_value(like):
        value = _as_complex(value)
    if isinstance(like, DeviceValue) or (isinstance(like, str) and like.lower() == "gpuarray"):
        p = ensure_provider()
        constant = _constant_of(value)
        if constant is not None:
            lazy = routing.fused_fill(p, tuple(value.shape), constant, class_of(value))
            if lazy is not None:
                return lazy
            filled = device_fill(tuple(value.shape), constant, class_of(value), p)
            if filled is not None:
                return filled
        return upload_value(value, p)
    return value


# Above this many elements a constant array is filled on the device instead
# of uploaded (zeros/ones/nan/true with 'gpuArray' or a gpuArray 'like').
FILL_MIN_ELEMENTS = 4096


def fill_like(shape: tuple[int, ...], value: Any, dtype: np.dtype, like: Any) -> Any:
    """``zeros/ones/nan/inf/true/false(shape, ..., 'gpuArray')`` made on the
    device without building the host array first (at 1e7 elements the host
    array and its constant check cost ~10 ms); None when the caller should
    build it on the host (complex, or small without fusion, or a provider
    without fill).

    Args:
        shape: MATLAB size (at least 2 dims, trailing singletons dropped).
        value: the fill value (Python scalar).
        dtype: the result's NumPy dtype (real).
        like: the ``'gpuArray'`` class name or a device prototype.
    """
    n = 1
    for d in shape:
        n *= d
    if n == 0 or dtype.kind not in "biuf":
        return None
    if isinstance(like, DeviceValue) and like.is_complex():
        return None
    cls = class_of(np.empty(0, dtype=dtype))
    p = ensure_provider()
    # A lazy constant costs nothing until a kernel reads it (its value is a
    # uniform), so it wins over an upload at any size; the eager fill
    # kernel only beats the upload of a large array.
    lazy = routing.fused_fill(p, tuple(shape), value, cls)
    if lazy is not None:
        return lazy
    if n < FILL_MIN_ELEMENTS:
        return None
    return device_fill(tuple(shape), value, cls, p)


def _constant_of(value: Any) -> Any:
    """The single value of a large constant numeric array, else None."""
    if type(value) is not np.ndarray or value.size < FILL_MIN_ELEMENTS or \
            value.dtype == CHAR_DTYPE or value.dtype.kind not in "biufc":
        return None
    flat = value.ravel(order="K")  # any order: only equality matters
    first = flat[0]
    if value.dtype.kind in "fc" and np.isnan(first):
        return first if np.isnan(flat).all() else None
    return first if (flat == first).all() else None


def device_fill(shape: tuple[int, ...], value: Any, matlab_class: str,
                p: AccelProvider | None = None) -> GpuArray | None:
    """A gpuArray of ``shape`` filled with ``value`` made on the device
    (no host buffer, no transfer); None when the provider cannot (the
    caller then uploads a host array).

    Args:
        value: Python/NumPy scalar (complex for complex classes).
        matlab_class: ``double``, ``single``, ``logical``, ``int32`` ...
    """
    p = p or ensure_provider()
    is_cx = np.iscomplexobj(value)
    dtype = {"double": "complex128" if is_cx else "float64",
             "single": "complex64" if is_cx else "float32",
             "logical": "bool"}.get(matlab_class, matlab_class)
    scalar = complex(value) if is_cx else float(value)
    try:
        h = p.fill(tuple(shape), scalar, dtype)
    except Unsupported:
        return None
    return wrap_handle(h, matlab_class, p)


@register_device_impl("linspace")
def _linspace_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``linspace(a, b, n)`` with a gpuArray endpoint: a lazy generator
    (computed inside its consumers); None lets the generic path run."""
    if len(args) not in (2, 3) or nargout > 1:
        return None
    values = [gather_value(a) for a in args]
    if any(type(v) is not float for v in values):
        return None
    n = values[2] if len(args) == 3 else 100.0
    if n != int(n) or n < 1:
        return None
    cls = "single" if any(isinstance(a, GpuArray) and a.matlab_class == "single" for a in args) else "double"
    lazy = routing.fused_linspace(ensure_provider(), values[0], values[1], int(n), cls)
    return None if lazy is None else [lazy]


def device_random(kind: str, shape: tuple[int, ...], matlab_class: str) -> Any:
    """``rand``/``randn`` of ``shape`` drawn on the device from the GPU
    Philox stream (``device_rng``); None when the device cannot."""
    p = ensure_provider()
    lazy = routing.fused_random(p, kind, shape, matlab_class)
    if lazy is not None:
        return lazy
    from matfuse.accelerate import device_rng

    n = 1
    for d in shape:
        n *= d
    if n == 0 or matlab_class not in ("double", "single"):
        return None
    dtype = "float64" if matlab_class == "double" else "float32"
    key, counter = device_rng.take(n, matlab_class)
    hook = p.random_uniform if kind == "rand" else p.random_normal
    try:
        h = hook(tuple(shape), dtype, key, counter)
    except Unsupported:
        return None
    return wrap_handle(h, matlab_class, p)


def _as_complex(value: Any) -> Any:
    if type(value) is float:
        return complex(value)
    if type(value) is np.ndarray and value.dtype.kind == "f":
        return value.astype(np.complex64 if value.dtype == np.float32 else np.complex128)
    return canonical(value)
