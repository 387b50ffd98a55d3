"""The wgpu provider package (WGSL kernels through wgpu-py).

``create_provider(options, allow_cpu_adapter)`` is the facade's entry point.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate.providers.wgpu.provider import WgpuProvider, create_wgpu_provider


def create_provider(options: Any, allow_cpu_adapter: bool = True) -> WgpuProvider | None:
    """Start the wgpu provider, or return None when no suitable adapter exists.

    Args:
        options: ``AccelerateInitOptions`` (power, wgpu_* and cache settings).
        allow_cpu_adapter: accept a CPU adapter such as lavapipe.
    """
    try:
        p = WgpuProvider(options.power, max_binding_bytes=options.wgpu_max_binding_bytes,
                         pool_bytes=options.wgpu_pool_bytes, use_f64=options.wgpu_f64,
                         cache_base=options.kernel_cache_dir, disk_cache=options.disk_cache)
    except Unsupported:
        return None
    if not allow_cpu_adapter and p.ctx.adapter_type.upper() == "CPU":
        return None
    return p


__all__ = ["WgpuProvider", "create_provider", "create_wgpu_provider"]
