"""gpuDevice objects and device-wide builtins: gpuDevice, gpuDeviceCount,
reset(gpuDevice), wait(gpuDevice)."""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import int_value
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
    from matfuse.accelerate.facade import ensure_provider

    return ensure_provider()


@builtin("gpuDevice", category="gpu", nargin=(0, 1))
def gpu_device(index: Any = None) -> Any:
    """The selected GPU device; ``gpuDevice(1)`` selects device 1 (the only one)."""
    if index is not None:
        idx = int_value(index, "gpuDevice")
        if idx != 1:
            raise MatlabError("parallel:gpu:device:InvalidIndex",
                              f"The index {idx} is not valid: the GPU device index must be "
                              f"in the range 1 to {gpu_device_count():g}.")
    return GpuDevice(_provider(), 1)


@builtin("gpuDeviceCount", category="gpu", nargin=(0, 1), nargout=(0, 2))
def gpu_device_count(kind: Any = None) -> float:
    """Number of GPU devices (matfuse exposes the active provider's device)."""
    return 1.0


def _device_arg(fn: str, dev: Any) -> GpuDevice:
    if not isinstance(dev, GpuDevice):
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{fn}' for input arguments of type '{class_of(dev)}'.")
    return dev


@builtin("reset", category="gpu", nargin=(1, 1), nargout=(0, 0), gpu=NATIVE)
def reset(dev: Any) -> None:
    """``reset(gpuDevice)``: free all device memory; existing gpuArrays become invalid."""
    from matfuse.accelerate.gpuarray import reset_device

    reset_device(_device_arg("reset", dev).provider)


@builtin("wait", category="gpu", nargin=(1, 1), nargout=(0, 0), gpu=NATIVE)
def wait(dev: Any) -> None:
    """``wait(gpuDevice)``: block until queued device work has finished."""
    _device_arg("wait", dev).provider.synchronize()
