"""Fixtures of the tests that run device routes on the CUDA provider over
the NumPy-backed fake CuPy (tests/accelerate/providers/fake_cupy.py)."""

from __future__ import annotations

import pytest

from matfuse.accelerate_api import override_provider, reset_fallback_counts
from matfuse.runtime.registry import load_all
from tests.accelerate.providers import fake_cupy


@pytest.fixture(autouse=True)
def _builtins():
    load_all()


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory):
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("fake_cuda")))


@pytest.fixture
def cuda_device(fake_cuda):
    reset_fallback_counts()
    with override_provider(fake_cuda):
        yield fake_cuda
