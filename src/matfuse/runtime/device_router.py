"""The device-router protocol: how the runtime hands device work to the
acceleration layer without importing it.

The runtime calls :func:`device_router` whenever an operand is a
:class:`~matfuse.runtime.values.DeviceValue` (or a builtin asks for the
device: ``gpuArray``, ``'like'`` prototypes, ``gpurng`` draws). The
acceleration layer implements :class:`DeviceRouter` and registers it with
:func:`register_device_router` when ``matfuse.accelerate`` is imported; the
top-level package (``matfuse/__init__.py``) names that package as the
router's loader, so the first device operation imports it. The runtime, the
VM and the parser never import ``matfuse.accelerate``.
"""

from __future__ import annotations

from typing import Any, Callable

from matfuse.errors import MatlabError


class DeviceRouter:
    """What the runtime asks of the acceleration layer. Every method places
    its result on the device (or returns a host value where MATLAB does);
    the router decides how (fused kernel, provider hook, or the host
    implementation with the result uploaded, counted as a fallback)."""

    # ------------------------------------------------------------ builtins
    def call_builtin(self, b: Any, args: list[Any], nargout: int, ctx: Any) -> list[Any]:
        """Outputs of builtin ``b`` called with at least one device argument."""
        raise NotImplementedError

    def install_auto_offload(self) -> None:
        """Set the runtime's auto-offload hooks (``dispatcher.AUTO_OFFLOAD``)
        from the options and the active provider."""
        raise NotImplementedError

    # ------------------------------------------------------------ operators
    def binary(self, op: str, a: Any, b: Any) -> Any:
        """``a op b`` (operator symbol or elementwise builtin name)."""
        raise NotImplementedError

    def unary(self, op: str, a: Any) -> Any:
        """``-a``, ``~a``, ``a'``, ``a.'`` (or an elementwise builtin name)."""
        raise NotImplementedError

    def colon(self, start: Any, step: Any, stop: Any) -> Any:
        """``start:step:stop`` with a device operand (``step`` may be None)."""
        raise NotImplementedError

    def concat(self, rows: list[list[Any]]) -> Any:
        """``[a b; c d]`` where some element is on the device."""
        raise NotImplementedError

    # ------------------------------------------------------------ indexing
    def index(self, v: Any, idx: list[Any]) -> Any:
        """``v(idx...)`` where ``v`` is on the device."""
        raise NotImplementedError

    def assign(self, v: Any, idx: list[Any], rhs: Any, inplace: bool = False) -> Any:
        """New value of ``v`` after ``v(idx...) = rhs`` (``inplace``: ``v``
        is not shared, its buffer may be updated)."""
        raise NotImplementedError

    # ------------------------------------------------------------ construction
    def upload(self, value: Any, lazy_scalar: bool = False) -> Any:
        """``gpuArray(value)``: a device copy of a host value."""
        raise NotImplementedError

    def reupload(self, value: Any) -> Any:
        """A host result as MATLAB returns it for device inputs: numeric and
        logical arrays on the device, text and containers on the host."""
        raise NotImplementedError

    def to_device_like(self, value: Any, like: Any) -> Any:
        """A construction builtin's host result placed like ``like`` (a
        device prototype or the word ``'gpuArray'``)."""
        raise NotImplementedError

    def fill_like(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any) -> Any:
        """A constant array made on the device, or None (build it on the host)."""
        raise NotImplementedError

    def random(self, kind: str, shape: tuple[int, ...], matlab_class: str) -> Any:
        """``rand``/``randn`` drawn on the device, or None (draw on the host)."""
        raise NotImplementedError

    # ------------------------------------------------------------ device
    def provider(self) -> Any:
        """The active ``AccelProvider`` (started on first use)."""
        raise NotImplementedError

    def provider_name(self) -> str | None:
        """Name of the active provider, or None when none has started."""
        raise NotImplementedError

    def select_device(self, index: int) -> Any:
        """Restart the provider on 0-based device ``index``; returns it."""
        raise NotImplementedError

    def reset_device(self, provider: Any) -> None:
        """Free every buffer of ``provider`` (``reset(gpuDevice)``)."""
        raise NotImplementedError


_router: DeviceRouter | None = None
_loader: Callable[[], None] | None = None


def register_device_router(router: DeviceRouter) -> None:
    """Install the acceleration layer's router (called at its import)."""
    global _router
    _router = router


def set_router_loader(loader: Callable[[], None]) -> None:
    """``loader()`` imports the package that registers the router; called
    on the first device operation (the runtime stays free of that import)."""
    global _loader
    _loader = loader


def device_router() -> DeviceRouter:
    """The registered router (loading it on first use)."""
    router = _router
    if router is not None:
        return router
    if _loader is not None:
        _loader()
    if _router is None:
        raise MatlabError("matfuse:accelerate:unavailable",
                          "GPU arrays need the acceleration layer (matfuse.accelerate), "
                          "which is not loaded.")
    return _router
