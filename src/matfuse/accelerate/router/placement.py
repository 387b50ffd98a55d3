"""Placing constructed values on the device: ``'like'`` prototypes and
``'gpuArray'`` class names of construction builtins, constant fills,
device random draws and ``linspace`` with a device endpoint.

Each entry prefers a lazy generator (computed inside the kernel that reads
it) when the provider fuses, then a provider hook, then an upload of the
host value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.facade import ensure_provider
from matfuse.accelerate.fusion.executor import fusion_enabled
from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate.router import fused
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime.values import (
    CHAR_DTYPE,
    DeviceValue,
    canonical,
    class_of,
    is_complex_value,
)


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
            lazy = fused.fill(p, tuple(value.shape), constant, class_of(value)) \
                if fusion_enabled(p) else None
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
    lazy = fused.fill(p, tuple(shape), value, cls) if fusion_enabled(p) else None
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


def linspace_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``linspace(a, b, n)`` with a gpuArray endpoint: a lazy generator
    (computed inside its consumers); None lets the generic path run."""
    if len(args) not in (2, 3) or nargout > 1:
        return None
    values = [a.gather() if isinstance(a, DeviceValue) else a for a in args]
    if any(type(v) is not float for v in values):
        return None
    n = values[2] if len(args) == 3 else 100.0
    if n != int(n) or n < 1:
        return None
    cls = "single" if any(isinstance(a, GpuArray) and a.matlab_class == "single" for a in args) else "double"
    p = ensure_provider()
    if not fusion_enabled(p):
        return None
    lazy = fused.linspace(p, values[0], values[1], int(n), cls)
    return None if lazy is None else [lazy]


def device_random(kind: str, shape: tuple[int, ...], matlab_class: str) -> Any:
    """``rand``/``randn`` of ``shape`` drawn on the device from the GPU
    Philox stream (``runtime.gpu_rng``); None when the device cannot."""
    p = ensure_provider()
    lazy = fused.random(p, kind, shape, matlab_class) if fusion_enabled(p) else None
    if lazy is not None:
        return lazy
    n = 1
    for d in shape:
        n *= d
    if n == 0 or matlab_class not in ("double", "single"):
        return None
    dtype = "float64" if matlab_class == "double" else "float32"
    from matfuse.runtime import gpu_rng  # (NumPy's random module: loaded when first drawn)

    key, counter = gpu_rng.take(n, matlab_class)
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
