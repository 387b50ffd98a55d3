"""Operators on gpuArrays: elementwise binary/unary, transpose, mtimes.

Each ``try_*`` function returns a GpuArray when the provider did the work,
or None when the host path must run (class rules, shapes, domain checks or
an ``Unsupported`` hook); the public ``device_*`` functions in
``dispatch.py`` count that fallback and compute on the host.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.class_rules import (
    COMPLEX_DOMAIN,
    INTEGER_CLASSES,
    binary_out_dtype,
    matlab_class_of_dtype,
    operand_kind,
    unary_out_dtype,
)
from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, Unsupported
from matfuse.errors import MatlabError
from matfuse.runtime.values import DeviceValue


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


class _Operand:
    """A binary operand prepared for a hook: handle or Python scalar."""

    __slots__ = ("value", "shape", "keep")

    def __init__(self, value: GpuTensorHandle | float | complex, shape: tuple[int, ...],
                 keep: GpuArray | None = None):
        self.value = value
        self.shape = shape
        self.keep = keep  # temporary upload kept alive until the hook ran


def _prepare(p: AccelProvider, v: Any) -> _Operand | None:
    t = type(v)
    if t is float or t is complex:
        return _Operand(v, (1, 1))
    if t is bool:
        return _Operand(float(v), (1, 1))
    if isinstance(v, GpuArray):
        if v.provider is not p:
            return None
        return _Operand(v.valid_handle(), v.shape, v)
    if isinstance(v, DeviceValue):
        return None
    if t is np.ndarray:
        g = upload_value(v, p)
        if g.provider is not p:
            return None  # a class this device cannot hold: host path
        return _Operand(g.handle, g.shape, g)
    return None


def _scalar_of(x: Any) -> float | complex | None:
    """Python number for a host 1x1 operand (None otherwise)."""
    if type(x) in (float, complex):
        return x
    if type(x) is bool:
        return float(x)
    return None


def _shape(v: Any) -> tuple[int, ...]:
    return (1, 1) if _scalar_of(v) is not None else tuple(v.shape)


def _any_true(p: AccelProvider, h: GpuTensorHandle) -> bool:
    """Download ``any(h(:))`` (one sync) and free the temporary."""
    r = p.reduce("any", h, None, False, "bool")
    try:
        return bool(p.download(r).data.reshape(-1)[0])
    finally:
        p.free(r)


#: operators whose operands MATLAB converts to logical (NaN is an error)
LOGICAL_OPERATORS = frozenset({"and", "or", "xor", "not"})


def _nologicalnan() -> MatlabError:
    return MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")


def logical_operands(p: AccelProvider, operands: list[Any]) -> list[Any]:
    """The operands of a logical operator (``& | ~ xor``) as MATLAB converts
    them: ``MATLAB:nologicalnan`` when a floating operand holds a NaN, and a
    complex device operand whose imaginary parts are all zero taken as its
    real part (MATLAB stores such a result as real; the device keeps it
    complex). Costs one device read-back per floating device operand;
    logical and integer operands (the usual ``(x > 0) & m``) are not read."""
    out = []
    for v in operands:
        t = type(v)
        if t is float or t is complex:
            if v != v:
                raise _nologicalnan()
            if t is float:
                # its truth value, so that a single-precision kernel cannot
                # flush it (1e-310 is true)
                v = 1.0 if v != 0 else 0.0
        elif t is np.ndarray:
            if v.dtype.kind in "fc" and np.isnan(v).any():
                raise _nologicalnan()
            if v.dtype.kind == "f":
                v = v != 0
        elif isinstance(v, GpuArray) and v.provider is p and \
                v.matlab_class in ("double", "single"):
            if v.host_scalar is not None:
                if np.isnan(v.host_scalar):
                    raise _nologicalnan()
            else:
                v = _checked_logical_operand(p, v)
        out.append(v)
    return out


def _checked_logical_operand(p: AccelProvider, v: GpuArray) -> GpuArray:
    h = v.valid_handle()
    temps: list[GpuTensorHandle] = []
    try:
        try:
            temps.append(p.elem_unary("isnan", h, "bool"))
            if _any_true(p, temps[-1]):
                raise _nologicalnan()
            if not h.dtype.startswith("complex") or v.numel == 0:
                return v  # an empty complex array stays complex (the host's error)
            real_dtype = "float32" if h.dtype == "complex64" else "float64"
            temps.append(p.elem_unary("imag", h, real_dtype))
            temps.append(p.elem_binary("ne", temps[-1], 0.0, "bool"))
            if _any_true(p, temps[-1]):
                return v  # the host path raises MATLAB:nologicalcomplex
            return wrap_handle(p.elem_unary("real", h, real_dtype), v.matlab_class, p)
        except Unsupported:
            host = p.download(h).to_array()
            if np.isnan(host).any():
                raise _nologicalnan() from None
            return v
    finally:
        for t in temps:
            p.free(t)


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
        return _any_true(p, mask)
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
        return _any_true(p, ne)
    finally:
        for t in temps:
            p.free(t)


def _power_needs_complex(p: AccelProvider, a: _Operand, b: _Operand) -> bool:
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


def _complex_copy(p: AccelProvider, g: _Operand) -> _Operand:
    """The operand as complex (for domain-promoted results)."""
    if isinstance(g.value, float):
        return _Operand(complex(g.value), g.shape)
    dt = "complex64" if g.value.dtype == "float32" else "complex128"
    h = p.cast(g.value, dt)
    return _Operand(h, g.shape, wrap_handle(h, "double", p))


def try_binary(p: AccelProvider, op: str, a: Any, b: Any) -> GpuArray | None:
    """Elementwise binary op on the device, or None for the host path."""
    ka, kb = operand_kind(a), operand_kind(b)
    if ka is None or kb is None:
        return None
    out_dtype = binary_out_dtype(op, ka, kb)
    if out_dtype is None:
        return None
    oa, ob = _prepare(p, a), _prepare(p, b)
    if oa is None or ob is None:
        return None
    if broadcast_shape(oa.shape, ob.shape) is None:
        return None  # the host path raises MATLAB's size error
    try:
        if op == "power" and np.dtype(out_dtype).kind != "c" and _power_needs_complex(p, oa, ob):
            if np.dtype(out_dtype).kind in "iu":
                return None  # integer base, fractional power: MATLAB's rules on the host
            single = out_dtype == "float32"
            out_dtype = "complex64" if single else "complex128"
            oa = _complex_copy(p, oa)
        # A logical scalar operand travels as a float; class rules already applied.
        h = p.elem_binary(op, oa.value, ob.value, out_dtype)
    except Unsupported:
        return None
    return wrap_handle(h, matlab_class_of_dtype(out_dtype), p)


def try_complex(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``complex(x)`` and ``complex(re, im)`` of real double/single values
    (implicit expansion; single if either part is single). Integer, logical
    or complex parts are the host's (its class rules and errors)."""
    if not 1 <= len(args) <= 2 or not any(isinstance(v, GpuArray) and v.provider is p
                                          for v in args):
        return None
    kinds = [operand_kind(v) for v in args]
    if any(k is None or k[0] not in ("double", "single") for k in kinds):
        return None
    out_dtype = "complex64" if any(k[0] == "single" for k in kinds) else "complex128"
    cls = matlab_class_of_dtype(out_dtype)
    if len(args) == 1:
        a = args[0]
        if a.is_complex():
            return a
        try:
            return wrap_handle(p.cast(a.valid_handle(), out_dtype), cls, p)
        except Unsupported:
            return None
    if any(k[1] for k in kinds):
        return None  # MATLAB:complex:invalidRealPartInput from the host
    oa, ob = _prepare(p, args[0]), _prepare(p, args[1])
    if oa is None or ob is None or broadcast_shape(oa.shape, ob.shape) is None:
        return None
    try:
        h = p.elem_binary("complex", oa.value, ob.value, out_dtype)
    except Unsupported:
        return None
    return wrap_handle(h, cls, p)


def try_unary(p: AccelProvider, op: str, a: Any) -> GpuArray | None:
    """Elementwise unary op on the device, or None for the host path."""
    if not isinstance(a, GpuArray) or a.provider is not p:
        return None
    kind = operand_kind(a)
    out_dtype = unary_out_dtype(op, kind)
    if out_dtype is None:
        return None
    if out_dtype == a.matlab_class and out_dtype in INTEGER_CLASSES:
        return _integer_unary(p, op, a)
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
                keep.append(wrap_handle(h, "double", p))
        if op == "uplus" and a.matlab_class != "logical":
            return a
        if op in ("uminus", "uplus") and a.matlab_class == "logical":
            h = p.cast(h, "float64")
            keep.append(wrap_handle(h, "double", p))
            if op == "uplus":
                return keep[0]
        result = p.elem_unary(op, h, out_dtype)
    except Unsupported:
        return None
    return wrap_handle(result, matlab_class_of_dtype(out_dtype), p)


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
            return wrap_handle(p.elem_binary("minus", 0.0, h, cls), cls, p)
        if op == "abs":
            neg = wrap_handle(p.elem_binary("minus", 0.0, h, cls), cls, p)
            return wrap_handle(p.elem_binary("max", h, neg.valid_handle(), cls), cls, p)
        return wrap_handle(p.elem_unary(op, h, cls), cls, p)
    except Unsupported:
        return None


def try_transpose(p: AccelProvider, a: Any, conjugate: bool) -> GpuArray | None:
    """``a.'`` (or ``a'`` when ``conjugate``) on the device."""
    if not isinstance(a, GpuArray) or a.provider is not p or len(a.shape) != 2:
        return None
    try:
        h = p.permute(a.valid_handle(), (1, 0))
        out = wrap_handle(h, a.matlab_class, p)
        if conjugate and a.is_complex():
            out = wrap_handle(p.elem_unary("conj", h, h.dtype), a.matlab_class, p)
    except Unsupported:
        return None
    return out


def try_mtimes(p: AccelProvider, a: Any, b: Any) -> GpuArray | None:
    """Matrix product; a scalar operand makes it elementwise ``times``."""
    if _shape(a) == (1, 1) or _shape(b) == (1, 1):
        return try_binary(p, "times", a, b)
    ka, kb = operand_kind(a), operand_kind(b)
    if ka is None or kb is None or ka[0] not in ("double", "single") or ka != kb:
        return None
    if len(a.shape) != 2 or len(b.shape) != 2 or a.shape[1] != b.shape[0]:
        return None
    oa, ob = _prepare(p, a), _prepare(p, b)
    if oa is None or ob is None:
        return None
    try:
        h = p.matmul(oa.value, ob.value)
    except Unsupported:
        return None
    return wrap_handle(h, ka[0], p)


def try_cast(p: AccelProvider, a: Any, cls: str) -> GpuArray | None:
    """``single(g)``, ``double(g)``, ``int32(g)`` ... on the device."""
    if not isinstance(a, GpuArray) or a.provider is not p:
        return None
    if cls == "logical" and a.matlab_class not in INTEGER_CLASSES or \
            a.matlab_class == "char" and cls == "char":
        return None  # logical() rejects NaN (floats only): the host path checks
    if a.is_complex() and cls not in ("double", "single"):
        return None
    if cls == a.matlab_class:
        return a
    if cls in ("double", "single"):
        dtype = ("complex64" if cls == "single" else "complex128") if a.is_complex() else \
            ("float32" if cls == "single" else "float64")
    else:
        dtype = "bool" if cls == "logical" else cls
    try:
        h = p.cast(a.valid_handle(), dtype)
    except Unsupported:
        return None
    return wrap_handle(h, cls, p)


def try_concat(p: AccelProvider, rows: list[list[Any]]) -> GpuArray | None:
    """``[a b; c d]`` on the device when every non-empty part is a 2-D
    array of one class and complexity and the sizes agree; else None."""
    kinds = set()
    for row in rows:
        for v in row:
            kind = operand_kind(v)
            if kind is None or isinstance(v, DeviceValue) and not isinstance(v, GpuArray):
                return None
            if 0 not in _shape(v):
                kinds.add(kind)
    if len(kinds) != 1:
        return None
    cls = next(iter(kinds))[0]
    row_arrays: list[GpuArray] = []
    try:
        for row in rows:
            parts = [on_device(p, v) for v in row if 0 not in _shape(v)]
            if not parts:
                continue
            if any(g is None or len(g.shape) != 2 or g.shape[0] != parts[0].shape[0]
                   for g in parts):
                return None
            if len(parts) == 1:
                row_arrays.append(parts[0])
            else:
                h = p.concat([g.valid_handle() for g in parts], 1)
                row_arrays.append(wrap_handle(h, cls, p))
        if not row_arrays or any(g.shape[1] != row_arrays[0].shape[1] for g in row_arrays):
            return None
        if len(row_arrays) == 1:
            return row_arrays[0]
        return wrap_handle(p.concat([g.valid_handle() for g in row_arrays], 0), cls, p)
    except Unsupported:
        return None


def on_device(p: AccelProvider, v: Any) -> GpuArray | None:
    """``v`` as a GpuArray of ``p`` (uploading host parts), or None."""
    if isinstance(v, GpuArray):
        return v if v.provider is p else None
    g = upload_value(v, p)
    return g if g.provider is p else None
