"""The wgpu device (lavapipe in CI) for the router tests."""

from __future__ import annotations

import pytest

from tests.wgpu_required import no_adapter


@pytest.fixture(scope="module")
def wgpu_provider():
    from matfuse.accelerate.facade import ProviderUnavailable, _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions

    try:
        return _load_backend("wgpu", AccelerateInitOptions(provider="wgpu", allow_cpu_adapter=True), True)
    except ProviderUnavailable as why:
        no_adapter(f"{why} (CI installs lavapipe)")
