"""Device paths of builtins declared with a ``GpuSpec`` (and of the few
routed by name, ``conv2`` and ``complex``, whose declarations carry none).

``try_builtin_on_device`` maps the common call forms of elementwise,
reduction, matmul/transpose, type-conversion and convolution builtins onto
provider hooks. Any other form returns None and the dispatcher takes the counted
host fallback, so a spec never changes what a program computes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router import launch, layout, reductions
from matfuse.accelerate.router import saturating_accumulation as saturating
from matfuse.accelerate.router.compose_ops import assign, call
from matfuse.accelerate.router import ops as device_ops, signal as device_signal, solve as device_solve, stats as device_stats
from matfuse.accelerate.class_rules import BINARY_OPS, matlab_class_of_dtype, operand_kind
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import NUMERIC_CLASSES, is_char, to_str



def try_builtin_on_device(p: AccelProvider, b: Builtin, args: list[Any],
                          nargout: int, one_node: bool = False) -> list[Any] | None:
    """Outputs of ``b(args...)`` computed by the provider, or None
    (``one_node``: elementwise ops as one-node kernels, see ``launch.binary``)."""
    name = b.name
    spec = b.gpu
    if spec is not None and spec.hook == "sort":
        return layout.try_sort(p, args, nargout)
    if name in device_stats.ROUTED:
        return device_stats.try_stats(p, name, args, nargout)
    if name == "filter":
        return device_signal.try_filter(p, args, nargout)
    if name in ("max", "min") and nargout == 2:
        return _try_reduce_with_index(p, name, args)
    if nargout > 1:
        return None
    if name == "uplus" and len(args) == 1 and isinstance(args[0], GpuArray):
        # +x is x; of logical data, a double (MATLAB's uplus)
        x = args[0]
        return [device_ops.try_cast(p, x, "double") if x.matlab_class == "logical" else x]
    if name == "nnz" and len(args) == 1:
        return _one(_try_nnz(p, args[0]))
    if name == "trace" and len(args) == 1:
        return _one(_try_trace(p, args[0]))
    if name in layout.REARRANGE:
        return _one(layout.try_rearrange(p, b, args))
    if name in NUMERIC_CLASSES and len(args) == 1:
        return _one(device_ops.try_cast(p, args[0], name))
    if name == "conv2":
        return _one(device_signal.try_conv2(p, args))
    if name == "complex":
        return _one(device_ops.try_complex(p, args))
    if name == "cast":
        return _one(_try_cast_builtin(p, args))
    if spec is None:
        return None
    hook, op = spec.hook, spec.op or name
    if hook == "conv1d":
        return _one(device_signal.try_conv(p, args))
    if hook == "elem_unary" and len(args) == 1:
        return _one(launch.unary(p, op, args[0], one_node))
    if op in ("max", "min") and hook in ("elem_binary", "reduce"):
        if len(args) == 2:
            return _one(launch.binary(p, op, args[0], args[1], one_node))
        return _one(_try_reduce(p, op, args))
    if hook == "elem_binary" and len(args) == 2 and op in BINARY_OPS:
        return _one(launch.binary(p, op, args[0], args[1], one_node))
    if hook == "reduce" and op in reductions.REDUCE_OPS:
        return _one(_try_reduce(p, op, args))
    if hook == "scan" and op.removeprefix("cum") in ("sum", "prod", "max", "min"):
        return _one(_try_scan(p, "cum" + op.removeprefix("cum"), args))
    if hook == "moments" and op in ("var", "std") and len(args) == 1:
        return _one(_try_moments(p, op, args[0]))
    if hook == "find" and len(args) == 1:
        return _one(layout.try_find(p, args[0]))
    if hook == "concat":
        return _one(layout.try_concat_builtin(p, op, args))
    if hook == "polyval":
        return _one(layout.try_polyval(p, args))
    if hook == "fft" and op == "fft" and 1 <= len(args) <= 3:
        return _one(layout.try_fft(p, args))
    if hook == "solve" and name == "mldivide" and len(args) == 2:
        return _one(device_solve.try_mldivide(p, args[0], args[1]))
    if hook == "matmul" and len(args) == 2:
        return _one(device_ops.try_mtimes(p, args[0], args[1], one_node))
    if hook == "permute" and len(args) == 1 and op in ("transpose", "ctranspose"):
        return _one(device_ops.try_transpose(p, args[0], op == "ctranspose"))
    if hook == "cast" and len(args) == 1 and (op in NUMERIC_CLASSES or op == "logical"):
        return _one(device_ops.try_cast(p, args[0], op))
    return None


def _try_cast_builtin(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``cast(x, 'int16')`` and ``cast(x, 'like', proto)`` (real ``proto``)."""
    if len(args) not in (2, 3) or not is_char(args[1]):
        return None
    word = to_str(args[1])
    if len(args) == 2:
        cls = word
    elif word == "like":
        kind = operand_kind(args[2])
        if kind is None or kind[1]:
            return None
        cls = kind[0]
    else:
        return None
    if cls not in NUMERIC_CLASSES and cls != "logical":
        return None
    return device_ops.try_cast(p, args[0], cls)


def _one(result: GpuArray | None) -> list[Any] | None:
    return None if result is None else [result]


_INT_EXACT_IN_DOUBLE = ("int8", "uint8", "int16", "uint16", "int32", "uint32")
_FLOATS = ("double", "single")
_NANFLAGS = reductions.NANFLAGS


def _reduce_classes(op: str, cls: str, outtype: str) -> tuple[str, str] | None:
    """(class the reduction computes in, class of the result) by MATLAB's
    outtype rules, or None for forms left to the host.

    ``sum``/``prod``/``mean``: floating input keeps its class unless
    ``'double'``; integer, logical and char input give double (MATLAB's
    ``'default'``); ``'native'`` means of integers compute in double and
    round and saturate back to the integer class; ``'native'`` integer sums
    and products saturate at each step (``saturating_accumulation``, not
    here). ``max``/``min`` keep the class.
    """
    if op in ("any", "all"):
        return ("double" if cls == "char" else cls, "logical")
    if op in ("max", "min"):
        if cls in _INT_EXACT_IN_DOUBLE:
            # every such integer is a double: compare in double, cast back exactly
            return "double", cls
        return (cls, cls) if cls in ("double", "single") else None
    if cls in ("double", "single"):
        out = "double" if outtype == "double" else cls
        return out, out
    if outtype == "native":
        return ("double", cls) if op == "mean" and cls != "logical" else None
    return "double", "double"


def _try_reduce(p: AccelProvider, op: str, args: list[Any]) -> GpuArray | None:
    """``op(x)``, ``op(x, dim|vecdim|'all')``, ``max(x, [], dim|vecdim|'all')``
    with trailing outtype (``'default' 'double' 'native'``) and nanflag
    words (``reductions.read_form``); None for every other form (the host
    path decides those)."""
    x = args[0]
    if not isinstance(x, GpuArray) or x.provider is not p or 0 in x.shape:
        return None  # empties follow MATLAB's special cases on the host
    if x.is_complex() and (op not in ("sum", "prod", "mean") or x.matlab_class not in _FLOATS):
        return None
    form = reductions.read_form(op, args)
    if form is None:
        return None
    if op in ("sum", "prod") and form.outtype == "native" and x.matlab_class == "logical":
        # a logical sum (product) in its class is true where any (all) is
        op = "any" if op == "sum" else "all"
        if not any(d < len(x.shape) for d in (form.dims or (0,))):
            return x
    if op in ("sum", "prod") and form.outtype == "native" and saturating.accepts(x, p):
        return saturating.saturating_reduce(p, x, op == "sum", form.dims)
    classes = _reduce_classes(op, x.matlab_class, form.outtype)
    if classes is None:
        return None
    compute_cls, out_cls = classes
    dims = form.dims
    if dims is not None:
        dims = tuple(d for d in dims if d < len(x.shape))
        if not dims:
            # Reducing only trailing singleton dimensions: the identity.
            if op in ("any", "all"):
                return None
            return device_ops.try_cast(p, x, out_cls)
    src = x if compute_cls == x.matlab_class else device_ops.try_cast(p, x, compute_cls)
    if src is None:
        return None
    out_dtype = "bool" if op in ("any", "all") else src.handle.dtype
    try:
        h = p.reduce(op, src.valid_handle(), dims, form.omitnan, out_dtype)
    except Unsupported:
        return None
    result = wrap_handle(h, matlab_class_of_dtype(out_dtype), p)
    if out_cls != result.matlab_class:
        return device_ops.try_cast(p, result, out_cls)
    return result


def _try_reduce_with_index(p: AccelProvider, op: str, args: list[Any]) -> list[Any] | None:
    """``[m, i] = max(x)``, ``max(x, [], dim)`` (and ``min``) of real float
    arrays and of integers up to 32 bits (compared in double, where each is
    exact), with an optional nanflag; indices are doubles, first occurrence."""
    x = args[0]
    cls = x.matlab_class if isinstance(x, GpuArray) else None
    if cls in _INT_EXACT_IN_DOUBLE and x.provider is p and 0 not in x.shape:
        as_double = device_ops.try_cast(p, x, "double")
        outputs = None if as_double is None else \
            _try_reduce_with_index(p, op, [as_double] + list(args[1:]))
        if outputs is None:
            return None
        values = device_ops.try_cast(p, outputs[0], cls)
        return None if values is None else [values, outputs[1]]
    if not _float_array(p, x) or x.is_complex():
        return None
    rest = list(args[1:])
    omitnan = True
    if rest and is_char(rest[-1]) and to_str(rest[-1]).lower() in _NANFLAGS:
        omitnan = to_str(rest.pop()).lower() == "omitnan"
    if not rest:
        dim = _first_nonsingleton(x.shape)
    elif len(rest) == 2 and _is_empty(rest[0]):
        dim = _index_dim(rest[1], x.shape)
    else:
        return None
    if dim is None:
        return None
    source = x
    if dim == "all":
        # 'all' (or every non-singleton dimension): one column, whose row
        # index is the linear index MATLAB returns
        try:
            source = wrap_handle(p.reshape(x.valid_handle(), (x.numel, 1)), x.matlab_class, p)
        except Unsupported:
            return None
        dim = 0
    if dim >= len(x.shape):
        return None
    try:
        vals, idx = p.reduce_with_index(op, source.valid_handle(), dim, omitnan)
    except Unsupported:
        return None
    return [wrap_handle(vals, x.matlab_class, p), wrap_handle(idx, "double", p)]


def _index_dim(spec: Any, shape: tuple[int, ...]) -> int | str | None:
    """The dimension of ``[m, i] = max(x, [], spec)``: a 0-based dim,
    ``"all"`` for ``'all'`` or a vecdim holding every non-singleton
    dimension, None for other vecdims (not expressed here)."""
    if is_char(spec):
        return "all" if to_str(spec).lower() == "all" else None
    dims = np.asarray(spec, dtype=np.float64).reshape(-1) if type(spec) in (float, np.ndarray) else None
    if dims is None or dims.size == 0 or np.any(dims < 1) or np.any(dims != np.floor(dims)) \
            or len(set(dims.tolist())) != dims.size:
        return None
    chosen = {int(d) - 1 for d in dims}
    if len(chosen) == 1:
        return next(iter(chosen))
    if all(i in chosen for i, n in enumerate(shape) if n != 1):
        return "all"
    return None


def _try_nnz(p: AccelProvider, x: Any) -> GpuArray | None:
    """``nnz(x)``: the count of nonzero elements (NaN counts), a double."""
    if not isinstance(x, GpuArray) or x.provider is not p or x.is_complex() or 0 in x.shape:
        return None
    try:
        h = p.reduce("nnz", x.valid_handle(), None, False, "float64")
    except Unsupported:
        return None
    return wrap_handle(h, "double", p)


def _try_trace(p: AccelProvider, x: Any) -> GpuArray | None:
    """``trace(A)`` of a square float matrix: the sum of its diagonal."""
    if not _float_array(p, x) or x.is_complex() or len(x.shape) != 2 or x.shape[0] != x.shape[1]:
        return None
    try:
        d = p.diag(x.valid_handle(), 0)
        h = p.reduce("sum", d, None, False, x.handle.dtype)
    except Unsupported:
        return None
    return wrap_handle(h, x.matlab_class, p)


def _is_empty(v: Any) -> bool:
    return type(v) is np.ndarray and v.size == 0


def _first_nonsingleton(shape: tuple[int, ...]) -> int:
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def _float_array(p: AccelProvider, x: Any) -> bool:
    return isinstance(x, GpuArray) and x.provider is p and 0 not in x.shape and \
        x.matlab_class in ("double", "single")


def _try_scan(p: AccelProvider, op: str, args: list[Any]) -> GpuArray | None:
    """``cumsum(x)``, ``cumsum(x, dim)``, ``'forward'``/``'reverse'`` and
    the nanflag of the four scans, for real float arrays. The provider's
    scan has MATLAB's default NaN rule (``cumsum``/``cumprod`` include NaN,
    ``cummax``/``cummin`` omit it); the other flag is composed around it:
    NaN replaced by 0 or 1 before a sum or product, NaN from the first NaN
    on after an extreme. Logical data and integers up to 32 bits: see
    ``_try_scan_in_double``."""
    x = args[0]
    cls = x.matlab_class if isinstance(x, GpuArray) and x.provider is p else None
    if cls == "logical" and op in ("cumsum", "cumprod") or cls in _INT_EXACT_IN_DOUBLE:
        return _try_scan_in_double(p, op, x, args[1:])
    if not _float_array(p, x) or x.is_complex():
        return None
    options = _scan_options(args[1:], op)
    if options is None:
        return None
    dim, reverse, omitnan = options
    if dim is None:
        dim = _first_nonsingleton(x.shape)
    elif dim >= len(x.shape):
        return x
    source = x
    if omitnan and op in ("cumsum", "cumprod"):
        source = assign(x, [call("isnan", x)], 0.0 if op == "cumsum" else 1.0)
    try:
        h = p.scan(op, source.valid_handle(), dim, reverse)
    except Unsupported:
        return None
    result = wrap_handle(h, x.matlab_class, p)
    if not omitnan and op in ("cummax", "cummin"):
        nans = call("double", call("isnan", x))    # held: its buffer lives through the scan
        seen = wrap_handle(p.scan("cummax", nans.valid_handle(), dim, reverse), "double", p)
        result = assign(result, [call("gt", seen, 0.0)], float("nan"))
    return result


def _scan_options(rest: list[Any], op: str) -> tuple[int | None, bool, bool] | None:
    """(0-based dim or None for the default, reverse, omitnan) of a scan's
    trailing arguments, or None for forms left to the host (its errors)."""
    rest = list(rest)
    dim = None
    if rest and type(rest[0]) is float:
        if rest[0] < 1 or rest[0] != int(rest[0]):
            return None
        dim = int(rest.pop(0)) - 1
    reverse, omitnan = False, op in ("cummax", "cummin")
    for option in rest:
        if not is_char(option):
            return None
        word = to_str(option).lower()
        if word in ("forward", "reverse"):
            reverse = word == "reverse"
        elif word in _NANFLAGS:
            omitnan = word == "omitnan"
        else:
            return None
    return dim, reverse, omitnan


def _try_scan_in_double(p: AccelProvider, op: str, x: GpuArray, options: list[Any]) -> GpuArray | None:
    """Scans of logical data (a double result, as MATLAB's) and of integers
    up to 32 bits, computed in double, where every value in the class's
    range is exact. MATLAB saturates an integer ``cumsum``/``cumprod`` at
    each step: ``saturating_accumulation``."""
    if 0 in x.shape or x.is_complex():
        return None
    if op in ("cumsum", "cumprod") and saturating.accepts(x, p):
        parsed = _scan_options(options, op)
        if parsed is None:
            return None
        dim, reverse, _ = parsed
        dim = _first_nonsingleton(x.shape) if dim is None else dim
        return saturating.saturating_scan(p, x, op == "cumsum", dim, reverse)
    as_double = device_ops.try_cast(p, x, "double")
    scanned = None if as_double is None else _try_scan(p, op, [as_double] + list(options))
    if scanned is None or x.matlab_class == "logical":
        return scanned
    return device_ops.try_cast(p, scanned, x.matlab_class)


def _try_moments(p: AccelProvider, op: str, x: Any) -> GpuArray | None:
    """``var(x)``/``std(x)`` along the default dimension (weight 0)."""
    if not _float_array(p, x) or x.is_complex():
        return None
    try:
        h = p.moments(op, x.valid_handle(), (_first_nonsingleton(x.shape),), 0, False)
    except Unsupported:
        return None
    return wrap_handle(h, x.matlab_class, p)
