"""The accelerate API: the dependency-light contract between the runtime and
acceleration providers (seed 002).

Its modules import nothing of the layers above it; ``support`` names the
few leaf modules of matfuse that providers share (errors, atomic files, the
Philox layout). It holds:

* :class:`GpuTensorHandle` - small immutable name of a device tensor;
* :class:`HostTensor` - host data (column-major flat ndarray + shape + class);
* :class:`AccelProvider` - the provider protocol (see ``_provider.py``);
* the provider registry (``register_provider``/``provider``, with a
  thread-local override for tests);
* residency hooks and metadata registries keyed by (device_id, buffer_id).
"""

from matfuse.accelerate_api._types import (
    DeviceInfo,
    GpuTensorHandle,
    HostTensor,
    ProviderCapabilities,
    ProviderUnavailable,
    SplitPlan,
    Unsupported,
)
from matfuse.accelerate_api._provider import AccelProvider
from matfuse.accelerate_api.fused_kernel import FusedKernel
from matfuse.accelerate_api._kernel_source import (
    ElementwiseKernelSource,
    elementwise_kernel,
    register_elementwise_kernel_source,
)
from matfuse.accelerate_api._registry import (
    ACTIVE,
    BufferMeta,
    clear_residency,
    count_fallback,
    fallback_counts,
    invalidate_sessions,
    observe_fallbacks,
    get_meta,
    is_resident,
    mark_residency,
    override_provider,
    provider,
    register_provider,
    register_residency_clear,
    reset_fallback_counts,
    set_meta,
    drop_meta,
    unregister_provider,
)

__all__ = [
    "ACTIVE",
    "invalidate_sessions",
    "AccelProvider",
    "BufferMeta",
    "DeviceInfo",
    "ElementwiseKernelSource",
    "GpuTensorHandle",
    "HostTensor",
    "ProviderCapabilities",
    "ProviderUnavailable",
    "SplitPlan",
    "Unsupported",
    "clear_residency",
    "count_fallback",
    "drop_meta",
    "elementwise_kernel",
    "fallback_counts",
    "observe_fallbacks",
    "get_meta",
    "is_resident",
    "mark_residency",
    "override_provider",
    "provider",
    "register_elementwise_kernel_source",
    "register_provider",
    "register_residency_clear",
    "reset_fallback_counts",
    "set_meta",
    "unregister_provider",
]
