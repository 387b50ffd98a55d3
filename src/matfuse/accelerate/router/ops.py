"""Operators on gpuArrays besides the elementwise launches (``launch.py``):
the operands of logical operators, ``complex``, transpose, mtimes, casts
and concatenation.

Each ``try_*`` function returns a GpuArray when the provider did the work,
or None when the host path must run (class rules, shapes or an
``Unsupported`` hook); the router (``route.py``) counts that fallback and
computes on the host.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.class_rules import INTEGER_CLASSES, matlab_class_of_dtype, operand_kind
from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate.router import launch
from matfuse.accelerate.router.launch import any_true, broadcast_shape, prepare_operand
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, Unsupported
from matfuse.errors import MatlabError
from matfuse.runtime._classrules import concat_class, convert
from matfuse.runtime.values import DeviceValue, class_of, to_array


def _scalar_of(x: Any) -> float | complex | None:
    """Python number for a host 1x1 operand (None otherwise)."""
    if type(x) in (float, complex):
        return x
    if type(x) is bool:
        return float(x)
    return None


def _shape(v: Any) -> tuple[int, ...]:
    return (1, 1) if _scalar_of(v) is not None else tuple(v.shape)


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
    for k, v in enumerate(operands):
        if out and isinstance(out[-1], GpuArray) and out[-1].is_complex():
            # a complex operand with nonzero imaginary parts: the host path
            # converts the operands in order and raises its error first, so
            # the later operands are not checked here
            out.extend(operands[k:])
            break
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
            if any_true(p, temps[-1]):
                raise _nologicalnan()
            if not h.dtype.startswith("complex") or v.numel == 0:
                return v  # an empty complex array stays complex (the host's error)
            real_dtype = "float32" if h.dtype == "complex64" else "float64"
            temps.append(p.elem_unary("imag", h, real_dtype))
            temps.append(p.elem_binary("ne", temps[-1], 0.0, "bool"))
            if any_true(p, temps[-1]):
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
    oa, ob = prepare_operand(p, args[0]), prepare_operand(p, args[1])
    if oa is None or ob is None or broadcast_shape(oa.shape, ob.shape) is None:
        return None
    try:
        h = p.elem_binary("complex", oa.value, ob.value, out_dtype)
    except Unsupported:
        return None
    return wrap_handle(h, cls, p)


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


def try_mtimes(p: AccelProvider, a: Any, b: Any, one_node: bool = False) -> GpuArray | None:
    """Matrix product; a scalar operand makes it elementwise ``times``
    (``one_node`` as in ``launch.binary``)."""
    if _shape(a) == (1, 1) or _shape(b) == (1, 1):
        return launch.binary(p, "times", a, b, one_node)
    ka, kb = operand_kind(a), operand_kind(b)
    if ka is None or kb is None or ka[0] not in ("double", "single") or ka[0] != kb[0]:
        return None
    if len(a.shape) != 2 or len(b.shape) != 2 or a.shape[1] != b.shape[0]:
        return None
    oa, ob = prepare_operand(p, a), prepare_operand(p, b)
    if oa is not None and ob is not None and ka == kb:
        try:
            return wrap_handle(p.matmul(oa.value, ob.value), ka[0], p)
        except Unsupported:
            pass
    if ka[1] or kb[1]:
        from matfuse.accelerate.router.complex_forms import complex_mtimes

        return complex_mtimes(a, b)
    return None


def try_cast(p: AccelProvider, a: Any, cls: str) -> GpuArray | None:
    """``single(g)``, ``double(g)``, ``int32(g)`` ... on the device."""
    if not isinstance(a, GpuArray) or a.provider is not p:
        return None
    if a.matlab_class == "char" and cls == "char":
        return None
    if a.is_complex() and cls not in ("double", "single"):
        return None
    if cls == "logical" and a.matlab_class in ("double", "single") and 0 not in a.shape:
        # logical() of NaN is MATLAB's error: one any-reduction on the
        # device decides (a scalar read back), the cast stays there
        nan = p.elem_unary("isnan", a.valid_handle(), "bool")
        try:
            if launch.any_true(p, nan):
                raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        finally:
            p.free(nan)
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
    """``[a b; c d]`` on the device when every part is a numeric or logical
    array of one complexity, with 2-D non-empty parts whose sizes agree;
    else None. Parts of another class than the result's (MATLAB's rule:
    the leftmost integer class, then single, double, logical; empty parts
    count) are converted first: device parts by a device cast, host parts
    on the host before their upload."""
    kinds = []
    for row in rows:
        for v in row:
            kind = operand_kind(v)
            if kind is None or isinstance(v, DeviceValue) and not isinstance(v, GpuArray):
                return None
            kinds.append(kind)
    classes = [k[0] for k in kinds]
    if "char" in classes or len({k[1] for k in kinds}) != 1:
        return None
    cls = concat_class(classes)
    row_arrays: list[GpuArray] = []
    try:
        for row in rows:
            parts = [_part_of_class(p, v, cls) for v in row if 0 not in _shape(v)]
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


def try_cat(p: AccelProvider, dim: int, parts: list[Any]) -> GpuArray | None:
    """``cat(dim, parts...)`` (``dim`` 1-based) of arrays of any rank on the
    device. In column-major order, joining along ``dim`` joins, for each
    index of the dimensions after it, one block of each part: every part
    viewed as a ``(P * size_dim) x T`` matrix (``P``, ``T``: products of
    the dimensions before and after ``dim``) is stacked by rows, and the
    stack is reshaped to the result. ``[]`` parts are skipped; mismatched
    sizes, text and mixed complexity return None (the host raises MATLAB's
    errors)."""
    kinds = [operand_kind(v) for v in parts]
    if not parts or any(k is None for k in kinds) or any(
            isinstance(v, DeviceValue) and not isinstance(v, GpuArray) for v in parts):
        return None
    classes = [k[0] for k in kinds]
    if "char" in classes or len({k[1] for k in kinds}) != 1:
        return None
    cls = concat_class(classes)
    kept = [v for v in parts if _shape(v) != (0, 0)]
    if not kept:
        return None
    rank = max(dim, max(len(_shape(v)) for v in kept))
    shapes = [tuple(_shape(v)) + (1,) * (rank - len(_shape(v))) for v in kept]
    others = {s[:dim - 1] + s[dim:] for s in shapes}
    if len(others) != 1:
        return None
    before = int(np.prod(shapes[0][:dim - 1]))
    after = int(np.prod(shapes[0][dim:]))
    try:
        blocks = []
        for v, shape in zip(kept, shapes):
            g = _part_of_class(p, v, cls)
            if g is None:
                return None
            if 0 not in shape:
                blocks.append(p.reshape(g.valid_handle(), (before * shape[dim - 1], after)))
        if not blocks:
            return None
        joined = p.concat(blocks, 0) if len(blocks) > 1 else blocks[0]
        out = list(shapes[0])
        out[dim - 1] = sum(s[dim - 1] for s in shapes)
        while len(out) > 2 and out[-1] == 1:
            out.pop()
        return wrap_handle(p.reshape(joined, tuple(out)), cls, p)
    except Unsupported:
        return None


def _part_of_class(p: AccelProvider, v: Any, cls: str) -> GpuArray | None:
    """Part ``v`` of a concatenation as a GpuArray of class ``cls``."""
    if isinstance(v, GpuArray):
        g = v if v.provider is p else None
        if g is not None and g.matlab_class != cls:
            g = try_cast(p, g, cls)
        return g
    if class_of(v) != cls:
        v = convert(to_array(v), cls)
    return on_device(p, v)


def on_device(p: AccelProvider, v: Any) -> GpuArray | None:
    """``v`` as a GpuArray of ``p`` (uploading host parts), or None."""
    if isinstance(v, GpuArray):
        return v if v.provider is p else None
    g = upload_value(v, p)
    return g if g.provider is p else None
