"""Providers for the fusion tests: the wgpu device (lavapipe in CI) and the
in-process oracle."""

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


@pytest.fixture(scope="module")
def inprocess_provider():
    from matfuse.accelerate.facade import _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions

    return _load_backend("inprocess", AccelerateInitOptions(provider="inprocess"), True)


@pytest.fixture(autouse=True)
def fresh_random_streams(monkeypatch):
    """Tests seeding ``rng(s, 'philox')`` must not change the generator the
    next test (or a golden program) starts with."""
    from matfuse.runtime import gpu_rng
    from matfuse.runtime import _rng

    monkeypatch.setattr(_rng, "GENERATOR", _rng.RandomGenerator())
    monkeypatch.setattr(gpu_rng, "_counter", 0)
    monkeypatch.setattr(gpu_rng, "_key", gpu_rng._philox.key_from_seed(0))
