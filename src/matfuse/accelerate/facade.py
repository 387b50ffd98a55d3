"""The Accelerator facade: choose, start and report the acceleration provider.

``initialize_acceleration_provider(options)`` is idempotent: the first call
chooses a provider and registers it with ``accelerate_api``; later calls
return the same one (use ``shutdown_acceleration()`` in tests to start over).

The facade owns the options in effect (``current_options()``) and passes
them on: listeners (``add_options_listener``: the router's entry, which hands
them to the fusion engine) get them whenever they change.

``auto`` tries cuda (once a CUDA provider exists), then wgpu on a real GPU
adapter, then the in-process NumPy provider. ``auto`` never takes a CPU
adapter (lavapipe): it would be slower than NumPy. Naming ``wgpu`` may.
"""

from __future__ import annotations

import glob
import importlib
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate_api import (
    ProviderUnavailable,
    AccelProvider,
    Unsupported,
    fallback_counts,
    provider,
    register_provider,
    unregister_provider,
)
from matfuse.errors import MatlabError
from matfuse.runtime.device_router import device_router

_lock = threading.RLock()


@dataclass(slots=True, eq=False)
class AccelerationState:
    """What initialisation decided (shown by ``matfuse info``). Compared and
    hashed by identity."""

    options: AccelerateInitOptions
    provider: AccelProvider
    description: str
    notes: list[str] = field(default_factory=list)


_state: AccelerationState | None = None
_options_listeners: list[Callable[[AccelerateInitOptions], None]] = []


def _load_backend(name: str, options: AccelerateInitOptions, allow_cpu: bool) -> AccelProvider:
    """Start backend ``name`` or raise ProviderUnavailable with the reason.

    Backend modules (``matfuse.accelerate.providers.<name>``) expose
    ``create_provider(options, allow_cpu_adapter) -> AccelProvider`` and raise
    ProviderUnavailable (or return None) when they cannot run here.
    """
    if name == "inprocess":
        from matfuse.accelerate.providers.inprocess import InProcessProvider

        return InProcessProvider()
    module_name = f"matfuse.accelerate.providers.{name}"
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ProviderUnavailable(f"{name} provider not importable: {err}") from err
    create = getattr(module, "create_provider", None)
    if create is None:
        raise ProviderUnavailable(f"{module_name} has no create_provider()")
    created = create(options, allow_cpu)
    if created is None:
        raise ProviderUnavailable(f"{name}: no suitable device")
    return created


def gpu_hardware_present() -> bool:
    """Cheap check before probing: on Linux a GPU shows up as /dev/nvidia*
    or a DRM render node; elsewhere (Metal, DX12) assume one may exist."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(glob.glob("/dev/nvidia[0-9]*") or glob.glob("/dev/dri/renderD*"))


def _candidates(options: AccelerateInitOptions) -> list[tuple[str, bool]]:
    """(backend, allow_cpu_adapter) in the order to try."""
    if options.provider == "auto":
        # Probing wgpu costs seconds; without GPU device nodes only a CPU
        # adapter could answer, which auto does not pick anyway.
        if not gpu_hardware_present() and not options.allow_cpu_adapter:
            return [("inprocess", True)]
        return [("cuda", False), ("wgpu", options.allow_cpu_adapter), ("inprocess", True)]
    return [(options.provider, True)]


def initialize_acceleration_provider(options: AccelerateInitOptions | None = None) -> AccelProvider:
    """Choose and register the provider (idempotent); returns it.

    Args:
        options: settings; ``AccelerateInitOptions.from_env()`` when None.
    Raises:
        MatlabError: ``fallback='error'`` and the requested provider cannot start.
    """
    with _lock:
        if _state is not None:
            return _state.provider
        chosen = _start_provider(options or AccelerateInitOptions.from_env())
    # Device operations follow a provider's start: the runtime's router (the
    # acceleration layer's entry, with the fusion engine) loads with it.
    device_router()
    return chosen


def _start_provider(options: AccelerateInitOptions) -> AccelProvider:
    """Choose, start and register the provider ``options`` ask for (the
    caller holds the lock)."""
    notes: list[str] = []
    chosen: AccelProvider | None = None
    for name, allow_cpu in _candidates(options):
        try:
            chosen = _load_backend(name, options, allow_cpu)
            break
        except ProviderUnavailable as why:
            notes.append(str(why))
    if chosen is None:
        if options.fallback == "error":
            raise MatlabError("matfuse:accelerate:providerUnavailable",
                              f"Acceleration provider '{options.provider}' is not available: "
                              + "; ".join(notes))
        notes.append(f"falling back to the in-process provider")
        chosen = _load_backend("inprocess", options, True)
    # Counters report the program's work, not the provider's warm-up.
    chosen.reset_telemetry()
    register_provider(chosen)
    _set_state(AccelerationState(options, chosen, _describe(chosen), notes))
    return chosen


def _describe(p: AccelProvider) -> str:
    try:
        return f"{p.name}: {p.device_info()}"
    except (NotImplementedError, Unsupported):
        return p.name


def ensure_provider() -> AccelProvider:
    """The active provider, initialising from the environment on first use.

    A thread-local ``override_provider`` (tests) wins over the global one.
    """
    active = provider()
    if active is not None:
        return active
    return initialize_acceleration_provider()


def acceleration_state() -> AccelerationState | None:
    """What initialisation chose, or None before it ran."""
    return _state


def current_options() -> AccelerateInitOptions:
    """The options in effect: the started provider's, else the environment's."""
    return _state.options if _state is not None else AccelerateInitOptions.from_env()


def add_options_listener(listener: Callable[[AccelerateInitOptions], None]) -> None:
    """Call ``listener(options)`` now and whenever the options in effect
    change (a provider starts or is shut down, ``use_acceleration_state``)."""
    with _lock:
        if listener not in _options_listeners:
            _options_listeners.append(listener)
        listener(current_options())


def _set_state(state: AccelerationState | None) -> None:
    global _state
    _state = state
    options = current_options()
    for listener in list(_options_listeners):
        listener(options)


def use_acceleration_state(state: AccelerationState | None) -> AccelerationState | None:
    """Make ``state`` (options and provider) the one in effect and return the
    previous one: one provider object runs under several option sets (the
    differential runner's fused, unfused and offload modes). The provider is
    not registered here (``accelerate_api.override_provider`` does that)."""
    with _lock:
        previous = _state
        _set_state(state)
        return previous


def shutdown_acceleration() -> None:
    """Forget the chosen provider (tests, and the REPL's re-initialise)."""
    with _lock:
        _set_state(None)
        unregister_provider()


def acceleration_report() -> str:
    """Multi-line description for ``matfuse info``: provider, device,
    options, start-up notes."""
    state = _state
    if state is None:
        return "acceleration: not initialised (starts on first use)\n"
    o = state.options
    lines = [f"provider: {state.description}",
             f"options: provider={o.provider} power={o.power} fallback={o.fallback} "
             f"fusion={int(o.fusion)} auto_offload={int(o.auto_offload)}"]
    try:
        info = state.provider.device_info_struct()
        lines.append(f"device: {info.name} backend={info.backend or '-'} "
                     f"f64={'yes' if info.supports_double else 'no'} "
                     f"precision={info.precision_policy}")
    except (NotImplementedError, Unsupported):
        pass
    lines += [f"note: {n}" for n in state.notes]
    return "\n".join(lines) + "\n"


def stats_dict() -> dict[str, Any]:
    """Counters of this run as data (``--stats-json``): provider, device
    telemetry, fusion engine counters and host fallbacks."""
    from matfuse.accelerate.fusion.counters import STATS

    active = provider()
    fallbacks = fallback_counts()
    return {
        "provider": None if active is None else _describe(active),
        "telemetry": {} if active is None else dict(active.telemetry()),
        "fusion": STATS.as_dict(),
        "host_fallbacks": sum(fallbacks.values()),
        "fallbacks_by_op": dict(fallbacks),
    }


def stats_text() -> str:
    """Counters of this run: provider telemetry and host fallbacks."""
    data = stats_dict()
    lines = ["== matfuse acceleration statistics =="]
    if data["provider"] is None:
        lines.append("no acceleration provider was used")
        return "\n".join(lines) + "\n"
    lines.append(f"provider: {data['provider']}")
    telemetry: dict[str, Any] = data["telemetry"]
    for key in sorted(telemetry):
        if key != "per_op":
            lines.append(f"{key}: {telemetry[key]}")
    per_op = telemetry.get("per_op") or {}
    if per_op:
        ops = ", ".join(f"{k}={v}" for k, v in sorted(per_op.items(), key=lambda kv: -kv[1]))
        lines.append(f"ops: {ops}")
    lines.append("fusion: " + ", ".join(f"{k}={v}" for k, v in data["fusion"].items()))
    lines.append(f"host fallbacks: {data['host_fallbacks']}")
    if data["fallbacks_by_op"]:
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in sorted(data["fallbacks_by_op"].items())))
    return "\n".join(lines) + "\n"


def print_stats(stream: TextIO) -> None:
    """Write :func:`stats_text` to ``stream`` (``--stats``/``MATFUSE_STATS=1``)."""
    stream.write(stats_text())
    stream.flush()
