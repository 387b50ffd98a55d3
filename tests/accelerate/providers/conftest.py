"""Shared wgpu provider for the wgpu tests (one per session: device start-up
and pipeline compilation are the expensive parts)."""

from __future__ import annotations

import pytest

_started: list[object] = []


@pytest.fixture(scope="session")
def wgpu_provider():
    """The wgpu provider on whatever adapter is here (lavapipe in CI).

    Skips only when wgpu finds no adapter at all."""
    if not _started:
        from matfuse.accelerate.providers.wgpu import WgpuProvider
        from matfuse.accelerate_api import Unsupported

        try:
            _started.append(WgpuProvider())
        except Unsupported as why:
            _started.append(why)
    got = _started[0]
    if isinstance(got, Exception):
        pytest.skip(f"no wgpu adapter on this machine: {got}")
    return got
