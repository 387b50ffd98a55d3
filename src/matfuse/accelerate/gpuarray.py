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

def device_epoch(p: AccelProvider) -> int:
    """How many times ``p`` has been reset (0 for a fresh provider)."""
    return p.epoch


def bump_epoch(p: AccelProvider) -> None:
    """Mark every existing gpuArray of ``p`` as stale (after ``p.reset()``)."""
    p.epoch += 1


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
        handle = _lazy_engine.run(self.provider, self.node, use_hints)
        if handle is not None:
            self._handle = handle
        else:
            # An op met an input outside its real domain (MATLAB's result is
            # complex), or the device refused the kernel (binding limits...):
            # compute the whole graph with the CPU semantics.
            from matfuse.runtime.dispatcher import auto_offload_suspended

            with auto_offload_suspended():  # host semantics: the planner must not move it back
                value = _lazy_engine.evaluate_on_host(self.provider, self.node)
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


def upload_value(value: Any, p: AccelProvider) -> GpuArray:
    """Copy a host MATLAB value to ``p``; a GpuArray is returned unchanged."""
    if isinstance(value, GpuArray):
        return value
    if isinstance(value, DeviceValue):
        value = value.gather()
    if type(value) is np.ndarray and value.dtype == np.float64 and value.size >= 2:
        from matfuse.accelerate.range_uploads import generate_range

        generated = generate_range(p, value)
        if generated is not None:
            return GpuArray(generated, "double", p)
    host, cls = host_tensor_of(value)
    try:
        uploaded = GpuArray(p.upload(host), cls, p)
        if type(value) is float or type(value) is bool:
            uploaded.host_scalar = value
        return uploaded
    except Unsupported:
        # The device cannot hold this class (e.g. int8 on wgpu): the array
        # stays a gpuArray for the program, kept by the host shadow provider.
        count_fallback(f"upload:{cls}", f"the {p.name} device cannot hold {cls} arrays: "
                                        "kept by the host shadow provider")
        shadow = shadow_provider()
        return GpuArray(shadow.upload(host), cls, shadow)


class LazyEngine:
    """What a lazy gpuArray needs of the fusion engine, which registers its
    implementation (``register_lazy_engine``) when it is imported; lazy
    arrays are made only by that engine."""

    def run(self, p: AccelProvider, node: Any, use_hints: bool) -> GpuTensorHandle | None:
        """The handle of ``node`` computed on ``p``; None when the graph must
        be evaluated on the host (a domain fallback, or a refused kernel)."""
        raise NotImplementedError

    def evaluate_on_host(self, p: AccelProvider, node: Any) -> Any:
        """``node`` computed with the CPU semantics (a host MATLAB value)."""
        raise NotImplementedError


_lazy_engine: LazyEngine = LazyEngine()


def register_lazy_engine(engine: LazyEngine) -> None:
    global _lazy_engine
    _lazy_engine = engine


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
    invalidate existing gpuArrays. The host's random state comes back first
    when a device draw left it on ``p``."""
    from matfuse.runtime import _rng

    for target in (p, _shadow):
        if target is not None:
            _rng.GENERATOR.recall_from(target)
            target.reset()
            bump_epoch(target)


def wrap_handle(handle: GpuTensorHandle, matlab_class: str, p: AccelProvider) -> GpuArray:
    """Adopt a handle a provider hook returned (the GpuArray frees it)."""
    return GpuArray(handle, matlab_class, p)
