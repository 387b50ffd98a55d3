"""Plain data types of the accelerate API."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class ProviderCapabilities:
    """What a provider can do, declared by the provider (``AccelProvider.
    capabilities``) and read by the acceleration layer instead of names.

    Attributes:
        fuses: runs fused kernels of the shared graph IR
            (``fused_elementwise``), written in ``kernel_language``.
        float64: holds double arrays on the device.
        hardware_gpu: computes on a GPU (not the CPU: the in-process
            provider, a software adapter); the planner offloads to it.
        max_kernel_buffers: storage buffers one kernel may bind (None: no
            limit the fusion planner must respect).
        split_dispatch: runs kernels over bound ranges of tensors larger
            than one storage binding.
        kernel_language: language of the generated kernels it runs:
            ``"wgsl"`` or ``"cuda"`` (C for NVRTC). The fusion layer renders
            in it (``fusion/renderers.py``); the source reaches the provider
            in the kernel object (``kernel.source``).
        worker_device_variable: environment variable that gives a worker
            process one of this provider's devices (``CUDA_VISIBLE_DEVICES``
            for CUDA): a local parallel pool starts one worker per device
            and sets it per worker. None: workers share the devices.
    """

    fuses: bool = False
    float64: bool = True
    hardware_gpu: bool = False
    max_kernel_buffers: int | None = None
    split_dispatch: bool = False
    kernel_language: str = "wgsl"
    worker_device_variable: str | None = None


@dataclass(frozen=True, slots=True)
class SplitPlan:
    """How a fused kernel may run over ranges of a tensor larger than one
    storage binding (declared by the renderer on ``RenderedKernel.split``,
    read by providers with ``capabilities.split_dispatch``).

    The kernel's ``Params`` end with ``r: vec4<u32>``: ``r.x`` the range's
    first element, ``r.y`` its end, ``r.z != 0`` combine into the partials
    of the earlier ranges.

    Attributes:
        kind: ``"elementwise"`` (outputs and full-shape inputs bound per
            range; the loop end and ``r.x`` give global indices) or
            ``"partial"`` (first pass of a full reduction: inputs of
            ``length`` elements bound per range, the partials whole).
        length: elements of the reduction (``partial`` only; else 0).
        chunks: partial chunks of the reduction; ranges start on multiples
            of it (``partial`` only; else 0).
    """

    kind: str
    length: int = 0
    chunks: int = 0


class ProviderUnavailable(Exception):
    """A backend cannot start here (no module, no adapter, CPU-only adapter)."""


class Unsupported(NotImplementedError):
    """Raised by a provider hook it does not implement (or not for these
    arguments). Callers catch exactly this, count a fallback and run the host
    path; any other exception is a real error."""


@dataclass(frozen=True, slots=True)
class GpuTensorHandle:
    """Opaque name of a device tensor.

    Attributes:
        shape: MATLAB shape (at least 2 dims).
        device_id: which provider/device owns it.
        buffer_id: provider-managed buffer key.
        dtype: numpy dtype name of the elements (``float64``, ``float32``,
            ``bool``, ``int32``, ``complex128`` ...). Kept in the handle
            because every hook needs it; other metadata lives in registries.
    """

    shape: tuple[int, ...]
    device_id: int
    buffer_id: int
    dtype: str = "float64"

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(slots=True)
class HostTensor:
    """Host data crossing the API.

    Attributes:
        data: 1-D contiguous ndarray of the elements in column-major order
            (complex dtypes for complex data; providers store them interleaved).
        shape: MATLAB shape.
        matlab_class: element class (``double``, ``single``, ``logical``,
            ``int32``, ...); ``char`` travels as ``uint16`` codes with this
            set to ``char``.
    """

    data: np.ndarray
    shape: tuple[int, ...]
    matlab_class: str = "double"

    @staticmethod
    def from_array(arr: np.ndarray, matlab_class: str | None = None) -> "HostTensor":
        """Build from an ndarray in MATLAB shape (any memory order)."""
        flat = np.ascontiguousarray(arr.reshape(-1, order="F"))
        cls = matlab_class or _class_of_dtype(flat.dtype)
        return HostTensor(flat, tuple(arr.shape), cls)

    def to_array(self) -> np.ndarray:
        """The data as an ndarray of shape ``shape`` (Fortran order)."""
        return self.data.reshape(self.shape, order="F")

    @property
    def is_complex(self) -> bool:
        return self.data.dtype.kind == "c"


# Seed-002 names: a view and an owned tensor are the same thing in Python.
HostTensorView = HostTensor
HostTensorOwned = HostTensor


def _class_of_dtype(dt: np.dtype) -> str:
    if dt == np.bool_:
        return "logical"
    if dt == np.float32 or dt == np.complex64:
        return "single"
    if dt.kind in "iu":
        return dt.name
    return "double"


@dataclass(slots=True)
class DeviceInfo:
    """What ``gpuDevice`` and ``matfuse info`` show about a device."""

    name: str
    vendor: str = ""
    backend: str = ""
    device_id: int = 0
    total_memory: int = 0
    available_memory: int = 0
    supports_double: bool = True
    precision_policy: str = "f64"
    limits: dict[str, int] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)
