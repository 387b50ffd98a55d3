"""The CUDA provider package (CuPy: NVRTC kernels, cuBLAS/cuFFT/cuSOLVER).

``create_provider(options, allow_cpu_adapter)`` is the facade's entry point.
CuPy is imported only when a provider is created, so this package imports
cleanly on machines without CuPy or without an NVIDIA GPU.
"""

from __future__ import annotations

import os
from typing import Any

from matfuse.accelerate_api import ProviderUnavailable


def cuda_unavailable_reason() -> str | None:
    """Why no CUDA provider can start here, or None when one can."""
    try:
        import cupy
    except ImportError as err:
        return f"cupy is not installed ({err})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except cupy.cuda.runtime.CUDARuntimeError as err:
        return f"no CUDA device answers ({err})"
    if count < 1:
        return "no CUDA device answers (device count 0)"
    return None


def create_provider(options: Any = None, allow_cpu_adapter: bool = True) -> Any:
    """Start the CUDA provider on ``options.device_index`` (default 0).

    Raises:
        ProviderUnavailable: CuPy is missing or no CUDA device answers.
    """
    reason = cuda_unavailable_reason()
    if reason is not None:
        raise ProviderUnavailable(f"cuda: {reason}")
    from matfuse.accelerate.providers.cuda.provider import CudaProvider

    import cupy

    index = options.device_index if options is not None else 0
    if index >= cupy.cuda.runtime.getDeviceCount():
        raise ProviderUnavailable(f"cuda: no CUDA device {index}")
    return CudaProvider(device_index=index, cache_dir=_cubin_folder(options))


def _cubin_folder(options: Any) -> str | None:
    """The NVRTC cubin cache folder: ``<kernel_cache_dir>/cuda``; "" (memory
    only) without a disk cache; None: the user cache folder."""
    if options is None:
        return None
    if not options.disk_cache:
        return ""
    base = options.kernel_cache_dir
    return os.path.join(base, "cuda") if base else None


__all__ = ["create_provider", "cuda_unavailable_reason"]
