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
from matfuse.runtime import hints
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

    It is either concrete (a handle it owns) or lazy: an :class:`FNode` of
    the fusion graph that becomes a handle when something needs the data
    (``materialize``); the node then owns the buffer.

    Attributes:
        matlab_class: element class (``double``, ``single``, ``logical``,
            ``int32``, ``char`` ...); complexity comes from the handle dtype.
        provider: the provider owning the buffer.
        epoch: provider epoch at creation (see :func:`device_epoch`).
        node: the fusion node (lazy arrays, or the input node of a concrete one).
    """

    __slots__ = ("_handle", "matlab_class", "provider", "epoch", "node", "_finalizer",
                 "host_scalar", "__weakref__")

    def __init__(self, handle: GpuTensorHandle, matlab_class: str, p: AccelProvider):
        self._handle = handle
        self.matlab_class = matlab_class
        self.provider = p
        self.epoch = device_epoch(p)
        self.node = None
        # The host value of a scalar uploaded from the host: reading it back
        # (loop bounds, linspace endpoints) needs no device round trip.
        self.host_scalar = None
        mark_residency(handle)
        self._finalizer = weakref.finalize(self, _free_buffer, p, handle, self.epoch)

    @classmethod
    def from_node(cls, node: Any, matlab_class: str, p: AccelProvider) -> "GpuArray":
        """A lazy gpuArray computing ``node`` when first needed."""
        if not hints.ACTIVE:
            from matfuse.accelerate.fusion.loop_trace import tracer_for

            hints.activate()
            hints.loop_tracer = tracer_for
        self = cls.__new__(cls)
        self._handle = None
        self.matlab_class = matlab_class
        self.provider = p
        self.epoch = device_epoch(p)
        self.node = node
        self._finalizer = None
        self.host_scalar = None
        return self

    # ------------------------------------------------ DeviceValue interface
    @property
    def shape(self) -> tuple[int, ...]:
        if self._handle is None:
            return tuple(self.node.shape)
        return self._handle.shape

    @property
    def handle(self) -> GpuTensorHandle:
        """The device tensor (computing a lazy array first)."""
        if self._handle is None:
            self.materialize()
        return self._handle

    @property
    def is_lazy(self) -> bool:
        return self._handle is None

    def underlying_class(self) -> str:
        return self.matlab_class

    def is_complex(self) -> bool:
        if self._handle is None:
            from matfuse.accelerate.fusion.graph import may_go_complex

            if not may_go_complex(self.node):
                return False
            # Whether sqrt(-1)-style inputs occurred is known only after running.
            self.materialize()
        return np.dtype(self._handle.dtype).kind == "c"

    def gather(self) -> Any:
        """The host value (float/bool for 1x1 double/logical, else ndarray)."""
        if self.host_scalar is not None and self.is_valid:
            return self.host_scalar
        host = self.provider.download(self.valid_handle())
        arr = host.to_array()
        if self.matlab_class == "char":
            arr = codes_to_char(arr)
        return canonical(arr)

    # ------------------------------------------------ fusion
    def bind_hint(self, live: bool) -> None:
        if self._handle is None and self.node is not None:
            self.node.keep = live

    def fusion_node(self) -> Any:
        """The FNode standing for this array in a fusion graph."""
        if self.node is None:
            from matfuse.accelerate.fusion.graph import input_node

            # The node keeps this array (the buffer's owner) alive.
            self.node = input_node(self.valid_handle(), owner=self)
        return self.node

    def materialize(self, use_hints: bool = True) -> None:
        """Run the kernels computing a lazy array (no-op when concrete).

        Args:
            use_hints: also write out graph nodes bound to live variables.
        """
        if self._handle is not None:
            return
        if not self.is_valid:
            raise invalid_data_error()
        from matfuse.accelerate.fusion.executor import DomainFallback, executor_for

        executor = executor_for(self.provider)
        try:
            self._handle = executor.materialize(self.node, use_hints)
        except (DomainFallback, Unsupported) as why:
            # An op met an input outside its real domain (MATLAB's result is
            # complex), or the device refused the kernel (binding limits...):
            # compute the whole graph with the CPU semantics.
            from matfuse.accelerate.fusion.host_eval import evaluate

            if isinstance(why, Unsupported):
                count_fallback("fusion")

            from matfuse.runtime.dispatcher import auto_offload_suspended

            with auto_offload_suspended():  # host semantics: the planner must not move it back
                value = evaluate(self.node, lambda h: self.provider.download(h).to_array())
            host, cls = host_tensor_of(value)
            handle = self.provider.upload(host)
            self._handle = handle
            self.matlab_class = cls
            self.node = None
            self._finalizer = weakref.finalize(self, _free_buffer, self.provider, handle, self.epoch)
        mark_residency(self._handle)

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
        n = 1
        for d in self.shape:
            n *= d
        return n

    def free_now(self) -> None:
        """Release the buffer immediately (the object must not be used again)."""
        if self._finalizer is not None:
            self._finalizer()

    def __repr__(self) -> str:
        state = "lazy" if self._handle is None else f"buffer={self._handle.buffer_id}"
        return f"GpuArray({self.matlab_class}, shape={self.shape}, {state})"


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


def upload_value(value: Any, p: AccelProvider, lazy_scalar: bool = False) -> GpuArray:
    """Copy a host MATLAB value to ``p``; a GpuArray is returned unchanged.

    Args:
        lazy_scalar: a 1x1 double may become a lazy constant (a uniform of
            the kernels reading it) instead of an upload, where the fusion
            engine runs on ``p``. ``gpuArray(x)`` asks for it; results the
            planner hides must stay concrete (its residency rule tells
            materialised operands from lazy ones).
    """
    if lazy_scalar and type(value) is float:
        lazy = _lazy_scalar(value, p)
        if lazy is not None:
            return lazy
    if isinstance(value, GpuArray):
        return value
    if isinstance(value, DeviceValue):
        value = value.gather()
    host, cls = host_tensor_of(value)
    try:
        uploaded = GpuArray(p.upload(host), cls, p)
        if type(value) is float or type(value) is bool:
            uploaded.host_scalar = value
        return uploaded
    except Unsupported:
        # The device cannot hold this class (e.g. int8 on wgpu): the array
        # stays a gpuArray for the program, kept by the host shadow provider.
        count_fallback(f"upload:{cls}")
        shadow = shadow_provider()
        return GpuArray(shadow.upload(host), cls, shadow)


def _lazy_scalar(value: float, p: AccelProvider) -> GpuArray | None:
    from matfuse.accelerate.fusion.executor import fusion_enabled
    from matfuse.accelerate.fusion.graph import fill_node

    if not fusion_enabled(p):
        return None
    out = GpuArray.from_node(fill_node((1, 1), value, "f64"), "double", p)
    out.host_scalar = value  # read back (linspace endpoints...) with no device trip
    return out


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
