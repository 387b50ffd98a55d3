"""The acceleration layer's device router: the runtime's
``DeviceRouter`` protocol bound to this package's modules.

``install()`` registers it with ``matfuse.runtime.device_router``; the
top-level package names ``install`` as the router's loader, so it runs on
the first device operation of a process.

Where each decision is made:

* ``route`` - builtins and operators with device operands: fused kernel
  (when the provider fuses), provider hook (``builtins``, ``ops``,
  ``solve`` ...), or the host implementation with the result re-uploaded
  (counted as a fallback); indexing and assignment (``indexing``).
* ``placement`` - construction builtins' ``'like'``/``'gpuArray'``,
  constant fills and device random draws.
* ``planner.offload`` - plain host operands large enough to move to the
  device (the cost model), through the runtime's auto-offload hooks.

Options are read here and passed on: the facade gives the entry the options
in effect whenever they change, and the entry configures the fusion engine
with them (``fusion.executor.configure``); the planner gets them when its
hooks are installed.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate import facade
from matfuse.accelerate.fusion import executor as fusion_executor
from matfuse.accelerate.fusion.executor import fusion_enabled
from matfuse.accelerate.gpuarray import reset_device, upload_value
from matfuse.accelerate.planner.preallocation import plan_indexed_write, remember_small_write
from matfuse.accelerate.router import fused, placement, route
from matfuse.runtime._assign import paren_set
from matfuse.runtime.device_router import DeviceRouter, register_device_router


def _install_auto_offload() -> None:
    from matfuse.accelerate.planner.offload import install as install_offload

    install_offload(facade.current_options())


def _assign(v: Any, idx: list[Any], rhs: Any, inplace: bool = False) -> Any:
    """``v(idx...) = rhs``: the planner brings a preallocated auto-offloaded
    array to the host when small writes fill it; otherwise the device
    assignment (``route.device_assign``)."""
    host, first_small_write = plan_indexed_write(v, idx, rhs)
    if host is not None:
        return paren_set(host, idx, rhs)
    result = route.device_assign(v, idx, rhs, inplace)
    if first_small_write:
        remember_small_write(result)
    return result


def _upload(value: Any, lazy_scalar: bool = False) -> Any:
    """``gpuArray(value)``; with ``lazy_scalar`` a 1x1 double becomes a lazy
    constant where the provider fuses (results the planner hides must stay
    concrete: its residency rule tells materialised operands from lazy ones)."""
    p = facade.ensure_provider()
    if lazy_scalar and type(value) is float and fusion_enabled(p):
        return fused.scalar(p, value)
    return upload_value(value, p)


def _reupload(value: Any) -> Any:
    return route.reupload(value, facade.ensure_provider())


def _provider_name() -> str | None:
    state = facade.acceleration_state()
    return None if state is None else state.provider.name


def _select_device(index: int) -> Any:
    """Restart the provider on device ``index`` (existing gpuArrays become
    invalid, as after MATLAB's ``gpuDevice(k)``)."""
    options = facade.current_options().with_changes(device_index=index)
    reset_device(facade.ensure_provider())
    facade.shutdown_acceleration()
    return facade.initialize_acceleration_provider(options)


class AcceleratedRouter(DeviceRouter):
    """``DeviceRouter`` entries as this package's functions (no extra call
    frame between the runtime and the routing module)."""

    call_builtin = staticmethod(route.call_with_device_args)
    install_auto_offload = staticmethod(_install_auto_offload)
    binary = staticmethod(route.device_binary)
    unary = staticmethod(route.device_unary)
    colon = staticmethod(route.device_colon)
    concat = staticmethod(route.device_concat)
    index = staticmethod(route.device_index)
    assign = staticmethod(_assign)
    upload = staticmethod(_upload)
    reupload = staticmethod(_reupload)
    to_device_like = staticmethod(placement.to_device_like)
    fill_like = staticmethod(placement.fill_like)
    random = staticmethod(placement.device_random)
    provider = staticmethod(facade.ensure_provider)
    provider_name = staticmethod(_provider_name)
    select_device = staticmethod(_select_device)
    reset_device = staticmethod(reset_device)


ROUTER = AcceleratedRouter()


def install() -> None:
    """Register :data:`ROUTER` as the runtime's device router; the fusion
    engine runs under the facade's options from now on."""
    facade.add_options_listener(fusion_executor.configure)
    register_device_router(ROUTER)
