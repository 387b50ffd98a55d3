"""gpuDevice objects and device-wide builtins: gpuDevice, gpuDeviceCount,
reset(gpuDevice), wait(gpuDevice)."""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import int_value, scalar_value
from matfuse.runtime.device_router import device_router
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import MObject, char_array, class_of

NATIVE = GpuSpec(kind="device_native", returns_gpu=False)

_PROPERTIES = ("Name", "Index", "ComputeCapability", "Backend", "TotalMemory",
               "AvailableMemory", "SupportsDouble", "DeviceAvailable",
               "DeviceSupported", "DeviceSelected")


class GpuDevice(MObject):
    """A ``parallel.gpu.CUDADevice``-like object describing the active
    provider's device (matfuse exposes one device, index 1)."""

    class_name = "parallel.gpu.CUDADevice"
    display_name = "CUDADevice"

    def __init__(self, provider: Any, index: int = 1):
        self.provider = provider
        self.index = index

    def property_names(self) -> list[str]:
        return list(_PROPERTIES)

    def get_property(self, name: str) -> Any:
        if name not in _PROPERTIES:
            return super().get_property(name)
        info = _info(self.provider)
        values: dict[str, Any] = {
            "Name": char_array(info.name if info else self.provider.device_info()),
            "Index": float(self.index),
            "ComputeCapability": char_array(str(info.extra.get("compute_capability", ""))
                                            if info else ""),
            "Backend": char_array(info.backend if info else self.provider.name),
            "TotalMemory": float(info.total_memory if info else 0),
            "AvailableMemory": float(info.available_memory if info else 0),
            "SupportsDouble": bool(info.supports_double if info else True),
            "DeviceAvailable": True,
            "DeviceSupported": True,
            "DeviceSelected": True,
        }
        return values[name]


def _info(p: Any) -> Any:
    from matfuse.accelerate_api import Unsupported

    try:
        return p.device_info_struct()
    except (NotImplementedError, Unsupported):
        return None


def _provider() -> Any:
    return device_router().provider()


@builtin("gpuDevice", category="gpu", nargin=(0, 1))
def gpu_device(index: Any = None) -> Any:
    """The selected GPU device. ``gpuDevice(k)`` selects device k of this
    process (CUDA: the provider restarts on device k; existing gpuArrays
    become invalid, as in MATLAB); ``gpuDevice([])`` deselects nothing here."""
    if index is None:
        p = _provider()
        return GpuDevice(p, _selected_index(p))
    idx = int_value(index, "gpuDevice")
    count = int(gpu_device_count())
    if not 1 <= idx <= count:
        raise MatlabError("parallel:gpu:device:InvalidIndex",
                          f"The index {idx} is not valid: the GPU device index must be "
                          f"in the range 1 to {count}.")
    p = _provider()
    if idx != _selected_index(p):
        p = device_router().select_device(idx - 1)
    return GpuDevice(p, idx)


def _selected_index(p: Any) -> int:
    return int(getattr(p, "device_index", 0) or 0) + 1


@builtin("gpuDeviceCount", category="gpu", nargin=(0, 1), nargout=(0, 2), wants_nargout=True)
def gpu_device_count(kind: Any = None, nargout: int = 1) -> Any:
    """Number of GPU devices the active provider can run on, at least 1 (the
    CUDA provider: the visible CUDA devices). Starts the provider on first use.
    ``[n, indices] = gpuDeviceCount('available')`` also lists their indices."""
    count = max(1, int(_provider().device_count()))
    if nargout >= 2:
        import numpy as np

        return float(count), np.arange(1, count + 1, dtype=float).reshape(1, -1)
    return float(count)


def _device_arg(fn: str, dev: Any) -> GpuDevice:
    if not isinstance(dev, GpuDevice):
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{fn}' for input arguments of type '{class_of(dev)}'.")
    return dev


@builtin("reset", category="gpu", nargin=(1, 1), nargout=(0, 0), gpu=NATIVE)
def reset(dev: Any) -> None:
    """``reset(gpuDevice)``: free all device memory; existing gpuArrays become invalid."""
    device_router().reset_device(_device_arg("reset", dev).provider)


@builtin("wait", category="gpu", nargin=(1, 3), nargout=(0, 1), wants_nargout=True, gpu=NATIVE)
def wait(dev: Any, state: Any = None, timeout: Any = None, nargout: int = 0) -> Any:
    """``wait(gpuDevice)``: block until queued device work has finished.
    ``wait(F)`` / ``ok = wait(F, 'finished', timeout)``: wait for parfeval
    futures (true when they finished in time)."""
    from matfuse.parallel.futures import Future, FutureArray, futures_of, wait_all

    if isinstance(dev, (Future, FutureArray)):
        limit = None if timeout is None else float(scalar_value(timeout, "wait"))
        finished = wait_all(futures_of(dev), limit)
        return finished if nargout else None
    if state is not None:
        raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    _device_arg("wait", dev).provider.synchronize()
    return None
