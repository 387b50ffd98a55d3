"""Shared wgpu provider for the wgpu tests (one per session: device start-up
and pipeline compilation are the expensive parts)."""

from __future__ import annotations

import pytest

from tests.wgpu_required import no_adapter

_started: list[object] = []


@pytest.fixture(scope="session")
def wgpu_provider():
    """The wgpu provider on whatever adapter is here (lavapipe in CI), with
    the fusion layer's one-node kernel source registered as a session
    registers it at start-up (the provider's elementwise, integer and cast
    hooks run those kernels).

    Skips only when wgpu finds no adapter at all."""
    import matfuse.accelerate.fusion.lazy  # noqa: F401  (registers the kernel source)

    if not _started:
        from matfuse.accelerate.providers.wgpu import WgpuProvider
        from matfuse.accelerate_api import Unsupported

        try:
            _started.append(WgpuProvider())
        except Unsupported as why:
            _started.append(why)
    got = _started[0]
    if isinstance(got, Exception):
        no_adapter(f"on this machine: {got}")
    return got
