"""The launch step of an elementwise operation on device operands.

The router (``route.py``) has decided that ``a op b`` (or ``op(a)``) runs on
the device now, not as a node of a lazy fused graph. This module decides
nothing else: it looks up MATLAB's result class, hands the operands to the
device and wraps the result.

* On a provider that runs generated kernels (``capabilities.fuses``), an
  operation the fusion IR expresses (real ``double``/``single``/``logical``
  operands and result) is a one-node graph materialised at once
  (``fusion.lazy.one_node``): the same op-table expression, emitter, render
  cache and launch plans as a fused kernel, so a fused and an unfused run
  of one operation compute one formula.
* Everything else (integer classes, complex data, the in-process provider)
  calls the provider's ``elem_binary``/``elem_unary`` hook.

Each function returns a GpuArray, or None when the host path must run
(class rules, shapes, domain checks or an ``Unsupported`` hook); the router
counts that fallback and computes on the host.

MATLAB's result classes come from ``class_rules``, tabulated once here for
the classes the device holds, so the launch step reads a table instead of
re-deciding the rules per operation.
"""

from __future__ import annotations

import functools

from typing import Any

import numpy as np

from matfuse.accelerate.class_rules import (
    BINARY_OPS,
    COMPARISON,
    COMPLEX_DOMAIN,
    FLOAT_UNARY,
    INTEGER_CLASSES,
    binary_out_dtype,
    unary_out_dtype,
)
from matfuse.accelerate.fusion.lazy import binary_node_of, one_node, unary_node_of
from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, Unsupported
from matfuse.runtime.values import DeviceValue, class_of

# ------------------------------------------------------------------ class rules
#: the classes a device tensor holds
_DEVICE_CLASSES = frozenset({"double", "single", "logical", *INTEGER_CLASSES})


@functools.lru_cache(maxsize=None)
def binary_result(op: str, ka: tuple[str, bool] | None,
                  kb: tuple[str, bool] | None) -> str | None:
    """The result dtype of ``a op b`` for operand kinds (class, complex; None
    for an operand the device cannot hold), None where the device has no
    form (the class rules, memoised per use)."""
    if op not in BINARY_OPS or ka is None or kb is None \
            or ka[0] not in _DEVICE_CLASSES or kb[0] not in _DEVICE_CLASSES:
        return None
    return binary_out_dtype(op, ka, kb)


@functools.lru_cache(maxsize=None)
def unary_result(op: str, kind: tuple[str, bool] | None) -> str | None:
    """The result dtype of ``op(a)`` for an operand kind, or None."""
    if op not in FLOAT_UNARY or kind is None or kind[0] not in _DEVICE_CLASSES:
        return None
    return unary_out_dtype(op, kind)
#: result dtype -> MATLAB class
CLASS_OF_DTYPE = {"float64": "double", "float32": "single", "bool": "logical",
                  "complex128": "double", "complex64": "single",
                  **{cls: cls for cls in INTEGER_CLASSES}}
# Result dtypes a one-node kernel of the fusion IR computes.
_NODE_DTYPES = {"float64": "f64", "float32": "f32", "bool": "bool"}


def operand_kind(v: Any) -> tuple[str, bool] | None:
    """(MATLAB class, is complex) of an operand; None when it is not an
    array value the device path takes."""
    t = type(v)
    if t is float:
        return ("double", False)
    if t is bool:
        return ("logical", False)
    if t is complex:
        return ("double", True)
    if t is GpuArray or isinstance(v, DeviceValue):
        return (v.underlying_class(), v.is_complex())
    if t is np.ndarray:
        return (class_of(v), v.dtype.kind == "c")
    return None


# ------------------------------------------------------------------ operands
def broadcast_shape(sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple[int, ...] | None:
    """MATLAB implicit expansion of two shapes; None when incompatible."""
    n = max(len(sa), len(sb))
    a = sa + (1,) * (n - len(sa))
    b = sb + (1,) * (n - len(sb))
    out = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return tuple(out)


class Operand:
    """A binary operand prepared for a hook: handle or Python scalar."""

    __slots__ = ("value", "shape", "keep")

    def __init__(self, value: GpuTensorHandle | float | complex, shape: tuple[int, ...],
                 keep: GpuArray | None = None):
        self.value = value
        self.shape = shape
        self.keep = keep  # temporary upload kept alive until the hook ran


# Integers up to this magnitude are exact as a double (int64/uint64 beyond it
# keep their buffer: the kernel constant would round them).
_EXACT_IN_DOUBLE = 2 ** 53


def host_scalar_constant(v: np.ndarray) -> float | complex | None:
    """A host 1x1 array of any numeric or logical class as the kernel
    constant it travels as (a Python float or complex), or None when it
    must be a buffer (not 1x1, text, or a 64-bit integer a double would
    round). The operation's result class was already decided from the
    operand's class (``binary_result``), so the hook needs only the value:
    ``x + int32(k)`` is an int32 result computed from ``k`` as a double,
    saturated and rounded by the provider's integer store, as MATLAB does.
    """
    if v.size != 1 or v.ndim != 2:
        return None
    kind = v.dtype.kind
    if kind == "c":
        return complex(v[0, 0])
    if kind not in "fiub":
        return None
    if kind in "iu" and abs(int(v[0, 0])) > _EXACT_IN_DOUBLE:
        return None
    return float(v[0, 0])


def prepare_operand(p: AccelProvider, v: Any) -> Operand | None:
    """``v`` as a hook operand on ``p`` (host arrays uploaded), or None."""
    t = type(v)
    if t is float or t is complex:
        return Operand(v, (1, 1))
    if t is bool:
        return Operand(float(v), (1, 1))
    if isinstance(v, GpuArray):
        if v.provider is not p:
            return None
        return Operand(v.valid_handle(), v.shape, v)
    if isinstance(v, DeviceValue):
        return None
    if t is np.ndarray:
        constant = host_scalar_constant(v)
        if constant is not None:
            return Operand(constant, (1, 1))
        g = upload_value(v, p)
        if g.provider is not p:
            return None  # a class this device cannot hold: host path
        return Operand(g.handle, g.shape, g)
    return None


def any_true(p: AccelProvider, h: GpuTensorHandle) -> bool:
    """Download ``any(h(:))`` (one sync) and free the temporary."""
    r = p.reduce("any", h, None, False, "bool")
    try:
        return bool(p.download(r).data.reshape(-1)[0])
    finally:
        p.free(r)


def _predicate(p: AccelProvider, h: GpuTensorHandle, test: str, threshold: float) -> bool:
    """Whether any element of ``h`` satisfies ``test`` against ``threshold``."""
    temps: list[GpuTensorHandle] = []
    try:
        src = h
        if test == "absgt":
            src = p.elem_unary("abs", h, h.dtype)
            temps.append(src)
            test = "gt"
        mask = p.elem_binary(test, src, threshold, "bool")
        temps.append(mask)
        return any_true(p, mask)
    finally:
        for t in temps:
            p.free(t)


def _has_non_integer(p: AccelProvider, h: GpuTensorHandle) -> bool:
    temps: list[GpuTensorHandle] = []
    try:
        r = p.elem_unary("round", h, h.dtype)
        temps.append(r)
        ne = p.elem_binary("ne", h, r, "bool")
        temps.append(ne)
        return any_true(p, ne)
    finally:
        for t in temps:
            p.free(t)


def _power_needs_complex(p: AccelProvider, a: Operand, b: Operand) -> bool:
    """Negative real base with a non-integer exponent gives a complex result.
    The exponent is tested first: a whole-number scalar or an integer/logical
    array exponent settles it without reading the base back."""
    if isinstance(a.value, complex) or isinstance(b.value, complex):
        return False
    if isinstance(b.value, float):
        if b.value == np.floor(b.value) or not np.isfinite(b.value):
            return False
    elif np.dtype(b.value.dtype).kind in "cbiu":
        return False
    if isinstance(a.value, float):
        negative = a.value < 0
    else:
        if np.dtype(a.value.dtype).kind in "cbu":
            return False
        negative = _predicate(p, a.value, "lt", 0.0)
    if not negative:
        return False
    if isinstance(b.value, float):
        return True
    return _has_non_integer(p, b.value)


def _complex_copy(p: AccelProvider, g: Operand) -> Operand:
    """The operand as complex (for domain-promoted results)."""
    if isinstance(g.value, float):
        return Operand(complex(g.value), g.shape)
    dt = "complex64" if g.value.dtype == "float32" else "complex128"
    h = p.cast(g.value, dt)
    return Operand(h, g.shape, GpuArray(h, "double", p))


# ------------------------------------------------------------------ launches
def binary(p: AccelProvider, op: str, a: Any, b: Any, one_node_kernel: bool = False) -> GpuArray | None:
    """Elementwise ``op`` (``plus``, ``lt`` ...) of ``a`` and ``b`` on the
    device, or None for the host path.

    Args:
        one_node_kernel: run it as a one-node graph of the fusion IR where it
            fits (the router asks for it when the provider renders kernels
            and this operation is not joining a lazy graph).
    """
    ka, kb = operand_kind(a), operand_kind(b)
    out_dtype = binary_result(op, ka, kb)
    if out_dtype is None:
        return None
    if one_node_kernel and out_dtype in _NODE_DTYPES:
        node = binary_node_of(op, a, b, p)
        if node is not None and node.dtype == _NODE_DTYPES[out_dtype]:
            return one_node(node, p)
    if op in COMPARISON:
        a, b = _single_comparison_operands(p, a, b, ka, kb)
    oa, ob = prepare_operand(p, a), prepare_operand(p, b)
    if oa is None or ob is None:
        return None
    if broadcast_shape(oa.shape, ob.shape) is None:
        return None  # the host path raises MATLAB's size error
    try:
        if op == "power" and out_dtype[0] != "c" and _power_needs_complex(p, oa, ob):
            if out_dtype in INTEGER_CLASSES:
                return None  # integer base, fractional power: MATLAB's rules on the host
            out_dtype = "complex64" if out_dtype == "float32" else "complex128"
            oa = _complex_copy(p, oa)
        # A logical scalar operand travels as a float; class rules already applied.
        h = p.elem_binary(op, oa.value, ob.value, out_dtype)
    except Unsupported:
        return None
    return GpuArray(h, CLASS_OF_DTYPE[out_dtype], p)


def _single_comparison_operands(p: AccelProvider, a: Any, b: Any, ka: Any, kb: Any) -> tuple[Any, Any]:
    """MATLAB compares a single with a double in single. A host single
    scalar travels as a plain float constant, so the double device operand
    it meets is made single first (a device cast, not an upload of the
    scalar); a single scalar next to an integer array stays a buffer (the
    provider then compares the two classes as they are)."""
    for scalar, other, kind in ((a, b, kb), (b, a, ka)):
        if not _is_host_single_scalar(scalar) or kind is None or kind[0] in ("single", "logical"):
            continue
        if kind == ("double", False) and isinstance(other, GpuArray) and other.provider is p:
            try:
                cast = GpuArray(p.cast(other.valid_handle(), "float32"), "single", p)
            except Unsupported:
                cast = None
            if cast is not None:
                return (scalar, cast) if scalar is a else (cast, scalar)
        boxed = upload_value(scalar, p)
        return (boxed, other) if scalar is a else (other, boxed)
    return a, b


def _is_host_single_scalar(v: Any) -> bool:
    return type(v) is np.ndarray and v.dtype == np.float32 and v.size == 1


def unary(p: AccelProvider, op: str, a: Any, one_node_kernel: bool = False) -> GpuArray | None:
    """Elementwise unary ``op`` (``uminus``, ``sqrt`` ...) of ``a`` on the
    device, or None for the host path (``one_node_kernel`` as in :func:`binary`)."""
    if not isinstance(a, GpuArray) or a.provider is not p:
        return None
    kind = (a.matlab_class, a.is_complex())
    out_dtype = unary_result(op, kind)
    if out_dtype is None:
        return None
    if out_dtype == a.matlab_class and out_dtype in INTEGER_CLASSES:
        return _integer_unary(p, op, a)
    if one_node_kernel and out_dtype in _NODE_DTYPES:
        node = unary_node_of(op, a, p)
        if node is not None and node.dtype == _NODE_DTYPES[out_dtype]:
            return one_node(node, p)
    h = a.valid_handle()
    keep: list[GpuArray] = []
    try:
        if op in COMPLEX_DOMAIN and not kind[1]:
            test, threshold = COMPLEX_DOMAIN[op]
            if _predicate(p, h, test, threshold):
                if op in ("asin", "acos"):
                    return None  # MATLAB's branch for real x > 1 differs from C99 casin
                out_dtype = "complex64" if out_dtype == "float32" else "complex128"
                h = p.cast(h, out_dtype)
                keep.append(GpuArray(h, "double", p))
        if op == "uplus" and a.matlab_class != "logical":
            return a
        if op in ("uminus", "uplus") and a.matlab_class == "logical":
            h = p.cast(h, "float64")
            keep.append(GpuArray(h, "double", p))
            if op == "uplus":
                return keep[0]
        result = p.elem_unary(op, h, out_dtype)
    except Unsupported:
        return None
    return GpuArray(result, CLASS_OF_DTYPE[out_dtype], p)


def _integer_unary(p: AccelProvider, op: str, a: GpuArray) -> GpuArray | None:
    """Class-keeping unary op of an integer array. Negation goes through the
    binary hooks (``0 - x``, computed in double and saturated by every
    provider) because NumPy-style integer negation wraps: -int8(-128)."""
    if op in ("uplus", "floor", "ceil", "round", "fix") or \
            op == "abs" and a.matlab_class.startswith("u"):
        return a  # identity on integers
    cls = a.matlab_class
    h = a.valid_handle()
    try:
        if op == "uminus":
            return GpuArray(p.elem_binary("minus", 0.0, h, cls), cls, p)
        if op == "abs":
            neg = GpuArray(p.elem_binary("minus", 0.0, h, cls), cls, p)
            return GpuArray(p.elem_binary("max", h, neg.valid_handle(), cls), cls, p)
        return GpuArray(p.elem_unary(op, h, cls), cls, p)
    except Unsupported:
        return None
