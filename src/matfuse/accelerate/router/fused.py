"""Fused forms of device operations: lazy graph nodes for the fusion engine.

The router (``route.py``, ``placement.py``) calls these when the provider
fuses, before its eager provider hooks. Each returns a lazy gpuArray, or
None when the call form is not fusable (flags such as ``'omitnan'``,
integer classes, complex data, matrix operators with matrix operands ...),
in which case the eager path runs unchanged.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate.fusion.lazy import (
    lazy_binary,
    lazy_cast,
    lazy_generator,
    lazy_reduce,
    lazy_scalar,
    lazy_unary,
)
from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.index_positions import lazy_range_read
from matfuse.accelerate.router.rearrange_positions import rearrangement_selection
from matfuse.runtime import gpu_rng
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import DeviceValue, is_char, shape_of, to_array

# Matrix operators that are elementwise when one operand is a scalar.
_SCALAR_FORMS = {"*": "times", "mtimes": "times", "/": "rdivide", "mrdivide": "rdivide",
                 "\\": "ldivide", "mldivide": "ldivide", "^": "power", "mpower": "power"}
_FUSED_REDUCTIONS = ("sum", "mean", "prod", "max", "min")
# Rearrangements that read ranges of their argument (a fused read).
_RANGE_REARRANGEMENTS = frozenset({"circshift", "flip", "fliplr", "flipud", "repmat"})


def _is_scalar(v: Any) -> bool:
    return shape_of(v) == (1, 1)


def _elementwise_form(name: str, a_scalar: bool, b_scalar: bool) -> bool:
    """Whether matrix operator ``name`` is elementwise for these operands:
    ``s*A``/``A*s``, ``A/s``, ``s\\A``, ``s^t`` (otherwise it is linear algebra)."""
    if name in ("*", "mtimes"):
        return a_scalar or b_scalar
    if name in ("/", "mrdivide"):
        return b_scalar
    if name in ("\\", "mldivide"):
        return a_scalar
    return a_scalar and b_scalar


def binary(p: Any, name: str, a: Any, b: Any) -> Any:
    """Lazy ``a name b`` (``name``: operator symbol or builtin name) or None."""
    if name in _SCALAR_FORMS:
        if not _elementwise_form(name, _is_scalar(a), _is_scalar(b)):
            return None
        name = _SCALAR_FORMS[name]
    return lazy_binary(name, a, b, p)


def unary(p: Any, name: str, a: Any) -> Any:
    return lazy_unary(name, a, p)


def builtin(p: Any, b: Builtin, args: list[Any], nargout: int) -> Any:
    """Lazy result of builtin ``b`` on device arguments, or None."""
    if nargout > 1:
        return None
    name = b.name
    if name in ("single", "double") and len(args) == 1:
        return lazy_cast(args[0], name, p)
    if name in _RANGE_REARRANGEMENTS:
        return _rearrangement(p, name, args)
    spec = b.gpu
    if spec is None:
        return None
    op = spec.op or name
    if spec.hook == "elem_unary" and len(args) == 1:
        return lazy_unary(op, args[0], p)
    if len(args) == 2 and spec.hook in ("elem_binary", "reduce") and op in ("max", "min", "atan2", "hypot", "mod", "rem"):
        return lazy_binary(op, args[0], args[1], p)
    if spec.hook == "elem_binary" and len(args) == 2:
        return lazy_binary(op, args[0], args[1], p)
    if spec.hook == "reduce" and op in _FUSED_REDUCTIONS:
        return _reduction(p, op, args)
    return None


def _rearrangement(p: Any, name: str, args: list[Any]) -> Any:
    """``circshift``/``flip``/``repmat`` of a gpuArray with host arguments
    as a fused read of ranges (None: another form; the eager path decides,
    with MATLAB's errors)."""
    x = args[0]
    if not isinstance(x, GpuArray) or x.provider is not p \
            or any(isinstance(a, DeviceValue) for a in args[1:]):
        return None
    selection = rearrangement_selection(name, tuple(x.shape), list(args[1:]))
    return lazy_range_read(p, x, selection) if selection is not None else None


def _reduction(p: Any, op: str, args: list[Any]) -> Any:
    """``sum(x)``, ``sum(x, dim)``, ``sum(x, 'all')``, ``sum(x, [d1 d2])``;
    ``max(x, [], dim)`` forms. Other flags are left to the eager path."""
    x = args[0]
    rest = list(args[1:])
    if op in ("max", "min") and rest:
        if len(rest) != 2 or not _is_empty_host(rest[0]):
            return None
        rest = [rest[1]]
    if len(rest) > 1:
        return None
    if not rest:
        dims: tuple[int, ...] | None = (_first_nonsingleton(shape_of(x)),)
    else:
        dims = _dims(rest[0])
        if dims == ():
            return None
    return lazy_reduce(op, x, dims, p)


def _is_empty_host(v: Any) -> bool:
    return not isinstance(v, DeviceValue) and type(v) is not float and type(v) is not bool \
        and hasattr(v, "size") and v.size == 0


def _first_nonsingleton(shape: tuple[int, ...]) -> int:
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def _dims(v: Any) -> tuple[int, ...] | None:
    """0-based dims of a dim argument; None for 'all'; () when not fusable."""
    if isinstance(v, DeviceValue):
        return ()
    if is_char(v):
        text = "".join(v.reshape(-1).tolist()).lower()
        return None if text == "all" else ()
    if type(v) is float:
        d = v
        return (int(d) - 1,) if d == int(d) and d >= 1 else ()
    arr = to_array(v)
    if arr.dtype.kind not in "fiu" or arr.size == 0:
        return ()
    out = []
    for x in arr.reshape(-1, order="F"):
        if x != int(x) or x < 1:
            return ()
        out.append(int(x) - 1)
    if len(set(out)) != len(out):
        return ()
    return tuple(out)


def fill(p: Any, shape: tuple[int, ...], value: Any, cls: str) -> Any:
    """Lazy constant array (``zeros/ones/nan/inf`` on the device) or None."""
    if type(value) not in (float, int) and not hasattr(value, "real"):
        return None
    if isinstance(value, complex) or getattr(value, "imag", 0) != 0:
        return None
    return lazy_generator("fill", tuple(shape), cls, p, (float(value),))


def random(p: Any, kind: str, shape: tuple[int, ...], cls: str) -> Any:
    """Lazy ``rand``/``randn`` from the device Philox stream, or None."""
    n = 1
    for d in shape:
        n *= d
    if n == 0 or cls not in ("double", "single"):
        return None
    key, counter = gpu_rng.take(n, cls)
    return lazy_generator(kind, tuple(shape), cls, p, (key, counter))


def scalar(p: Any, value: float) -> Any:
    """A 1x1 double as a lazy constant."""
    return lazy_scalar(value, p)


def linspace(p: Any, start: float, stop: float, n: int, cls: str) -> Any:
    if n < 1:
        return None
    return lazy_generator("linspace", (1, n), cls, p, (start, stop))
