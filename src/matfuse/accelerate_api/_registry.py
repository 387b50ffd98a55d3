"""Provider registry, residency hooks and buffer metadata registries."""

from __future__ import annotations

import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

from matfuse.accelerate_api._provider import AccelProvider
from matfuse.accelerate_api._types import GpuTensorHandle

_global_provider: AccelProvider | None = None
_local = threading.local()
_lock = threading.Lock()


class ActiveProviderState(threading.local):
    """What the layer above derived from the active provider on this thread
    (the router's session: the provider and whether it fuses), and the
    registry generation it was derived at.

    ``generation`` is process-wide: every registration, unregistration and
    override (entry and exit, on any thread) bumps it, so a derived
    ``session`` with an older generation is stale and is derived again. The
    router reads these two attributes per operation instead of asking the
    registry and the facade (no calls on the operator path).
    """

    generation = 0
    session: object = None


ACTIVE = ActiveProviderState()


def _changed() -> None:
    ActiveProviderState.generation += 1


def invalidate_sessions() -> None:
    """Mark every derived session stale (the options they were derived under
    changed: whether operations fuse)."""
    _changed()


def register_provider(p: AccelProvider) -> None:
    """Install ``p`` as the process-wide provider (replacing any other)."""
    global _global_provider
    with _lock:
        _global_provider = p
        _changed()


def unregister_provider() -> None:
    global _global_provider
    with _lock:
        _global_provider = None
        _changed()


def provider() -> AccelProvider | None:
    """The active provider: the thread-local override if set, else the global one."""
    override = getattr(_local, "provider", None)
    if override is not None:
        return override
    return _global_provider


@contextmanager
def override_provider(p: AccelProvider) -> Iterator[AccelProvider]:
    """Use ``p`` on this thread inside the ``with`` block (for tests)."""
    previous = getattr(_local, "provider", None)
    _local.provider = p
    with _lock:
        _changed()
    try:
        yield p
    finally:
        _local.provider = previous
        with _lock:
            _changed()


# ------------------------------------------------------------------ residency
_residency_clear_hooks: list[Callable[[GpuTensorHandle], None]] = []
_resident: set[tuple[int, int]] = set()


def register_residency_clear(hook: Callable[[GpuTensorHandle], None]) -> None:
    """Call ``hook(handle)`` whenever a handle's residency is cleared (gather)."""
    _residency_clear_hooks.append(hook)


def mark_residency(handle: GpuTensorHandle) -> None:
    _resident.add((handle.device_id, handle.buffer_id))


def is_resident(handle: GpuTensorHandle) -> bool:
    return (handle.device_id, handle.buffer_id) in _resident


def clear_residency(handle: GpuTensorHandle) -> None:
    """Forget that ``handle`` is resident and tell the registered hooks."""
    _resident.discard((handle.device_id, handle.buffer_id))
    for hook in _residency_clear_hooks:
        hook(handle)


# ------------------------------------------------------------------ metadata
@dataclass(slots=True)
class BufferMeta:
    """Per-buffer facts that do not belong in every handle."""

    precision: str = "f64"          # f32 | f64
    logical: bool = False
    matlab_class: str = "double"
    transposed: bool = False
    complex_storage: str = "real"   # real | interleaved


_meta: dict[tuple[int, int], BufferMeta] = {}


def set_meta(handle: GpuTensorHandle, meta: BufferMeta) -> None:
    _meta[(handle.device_id, handle.buffer_id)] = meta


def get_meta(handle: GpuTensorHandle) -> BufferMeta | None:
    return _meta.get((handle.device_id, handle.buffer_id))


def drop_meta(handle: GpuTensorHandle) -> None:
    _meta.pop((handle.device_id, handle.buffer_id), None)


# ------------------------------------------------------------------ fallbacks
_fallbacks: Counter[str] = Counter()


_fallback_observers: list[Callable[[str, str], None]] = []


def count_fallback(what: str, reason: str | Callable[[], str] = "") -> None:
    """Record one host fallback (``hook`` or ``builtin`` name). ``reason``
    says why the device could not take it (a callable is only called when
    someone observes fallbacks: ``--explain``)."""
    _fallbacks[what] += 1
    if _fallback_observers:
        text = reason() if callable(reason) else reason
        for observe in _fallback_observers:
            observe(what, text)


def observe_fallbacks(observer: Callable[[str, str], None] | None) -> None:
    """Call ``observer(what, reason)`` at every host fallback (``--explain``
    records the statement line); None stops observing."""
    _fallback_observers.clear()
    if observer is not None:
        _fallback_observers.append(observer)


def fallback_counts() -> dict[str, int]:
    return dict(_fallbacks)


def reset_fallback_counts() -> None:
    _fallbacks.clear()
