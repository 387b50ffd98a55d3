"""The gpuArray value: a device tensor handle plus its MATLAB class.

A :class:`GpuArray` owns its buffer: when the Python object is collected the
buffer is freed (``weakref.finalize``), so device residency follows MATLAB
variable lifetimes. ``reset(gpuDevice)`` bumps the provider's epoch; arrays
from an older epoch raise MATLAB's "data no longer exists" error.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from matfuse.accelerate_api import (
    AccelProvider,
    GpuTensorHandle,
    HostTensor,
    Unsupported,
    clear_residency,
    count_fallback,
    mark_residency,
)
from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    canonical,
    char_codes,
    class_of,
    codes_to_char,
)

_EPOCH_ATTR = "_matfuse_epoch"


def device_epoch(p: AccelProvider) -> int:
    """How many times ``p`` has been reset (0 for a fresh provider)."""
    return getattr(p, _EPOCH_ATTR, 0)


def bump_epoch(p: AccelProvider) -> None:
    """Mark every existing gpuArray of ``p`` as stale (after ``p.reset()``)."""
    setattr(p, _EPOCH_ATTR, device_epoch(p) + 1)


def invalid_data_error() -> MatlabError:
    return MatlabError("parallel:gpu:array:InvalidData",
                       "The data no longer exists on the device.")


def _free_buffer(p: AccelProvider, handle: GpuTensorHandle, epoch: int) -> None:
    # After a reset the provider already dropped the buffer (ids may be reused).
    if device_epoch(p) != epoch:
        return
    clear_residency(handle)
    p.free(handle)


class GpuArray(DeviceValue):
    """A MATLAB ``gpuArray``.

    Attributes:
        handle: the device tensor.
        matlab_class: element class (``double``, ``single``, ``logical``,
            ``int32``, ``char`` ...); complexity comes from the handle dtype.
        provider: the provider owning the buffer.
        epoch: provider epoch at creation (see :func:`device_epoch`).
    """

    __slots__ = ("handle", "matlab_class", "provider", "epoch", "_finalizer", "__weakref__")

    def __init__(self, handle: GpuTensorHandle, matlab_class: str, p: AccelProvider):
        self.handle = handle
        self.matlab_class = matlab_class
        self.provider = p
        self.epoch = device_epoch(p)
        mark_residency(handle)
        self._finalizer = weakref.finalize(self, _free_buffer, p, handle, self.epoch)

    # ------------------------------------------------ DeviceValue interface
    @property
    def shape(self) -> tuple[int, ...]:
        return self.handle.shape

    def underlying_class(self) -> str:
        return self.matlab_class

    def is_complex(self) -> bool:
        return np.dtype(self.handle.dtype).kind == "c"

    def gather(self) -> Any:
        """The host value (float/bool for 1x1 double/logical, else ndarray)."""
        host = self.provider.download(self.valid_handle())
        arr = host.to_array()
        if self.matlab_class == "char":
            arr = codes_to_char(arr)
        return canonical(arr)

    # ------------------------------------------------ helpers
    @property
    def is_valid(self) -> bool:
        return device_epoch(self.provider) == self.epoch

    def valid_handle(self) -> GpuTensorHandle:
        """The handle, or MATLAB's error when a reset invalidated it."""
        if not self.is_valid:
            raise invalid_data_error()
        return self.handle

    @property
    def numel(self) -> int:
        return self.handle.numel

    def free_now(self) -> None:
        """Release the buffer immediately (the object must not be used again)."""
        self._finalizer()

    def __repr__(self) -> str:
        return f"GpuArray({self.matlab_class}, shape={self.shape}, buffer={self.handle.buffer_id})"


def host_tensor_of(value: Any) -> tuple[HostTensor, str]:
    """A host MATLAB value as (HostTensor, MATLAB class); MATLAB's error for
    values that cannot live on a GPU (cells, structs, strings...)."""
    t = type(value)
    if t is float:
        return HostTensor(np.array([value], dtype=np.float64), (1, 1), "double"), "double"
    if t is bool:
        return HostTensor(np.array([value], dtype=np.bool_), (1, 1), "logical"), "logical"
    if t is complex:
        return HostTensor(np.array([value], dtype=np.complex128), (1, 1), "double"), "double"
    if t is np.ndarray:
        if value.dtype == CHAR_DTYPE:
            codes = char_codes(value).astype(np.uint16)
            host = HostTensor.from_array(codes, "char")
            return host, "char"
        cls = class_of(value)
        if value.dtype.kind not in "biufc":
            raise _unsupported_type(value)
        return HostTensor.from_array(value, cls), cls
    raise _unsupported_type(value)


def _unsupported_type(value: Any) -> MatlabError:
    cls = class_of(value)
    if isinstance(value, CellArray):
        cls = "cell"
    return MatlabError("parallel:gpu:array:UnsupportedType",
                       f"Unable to convert input of type '{cls}' to gpuArray. "
                       "Only numeric, logical and char arrays are supported.")


def upload_value(value: Any, p: AccelProvider) -> GpuArray:
    """Copy a host MATLAB value to ``p``; a GpuArray is returned unchanged."""
    if isinstance(value, GpuArray):
        return value
    if isinstance(value, DeviceValue):
        value = value.gather()
    host, cls = host_tensor_of(value)
    try:
        return GpuArray(p.upload(host), cls, p)
    except Unsupported:
        # The device cannot hold this class (e.g. int8 on wgpu): the array
        # stays a gpuArray for the program, kept by the host shadow provider.
        count_fallback(f"upload:{cls}")
        shadow = shadow_provider()
        return GpuArray(shadow.upload(host), cls, shadow)


_shadow: AccelProvider | None = None


def shadow_provider() -> AccelProvider:
    """The in-process provider holding gpuArrays the active device cannot."""
    global _shadow
    if _shadow is None:
        from matfuse.accelerate.providers.inprocess import InProcessProvider

        _shadow = InProcessProvider(device_id=-1)
    return _shadow


def reset_device(p: AccelProvider) -> None:
    """``reset(gpuDevice)``: free everything on ``p`` (and the shadow) and
    invalidate existing gpuArrays."""
    for target in (p, _shadow):
        if target is not None:
            target.reset()
            bump_epoch(target)


def wrap_handle(handle: GpuTensorHandle, matlab_class: str, p: AccelProvider) -> GpuArray:
    """Adopt a handle a provider hook returned (the GpuArray frees it)."""
    return GpuArray(handle, matlab_class, p)
