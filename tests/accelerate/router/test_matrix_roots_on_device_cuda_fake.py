"""expm, sqrtm and logm on the CUDA provider over the NumPy-backed fake
CuPy (no GPU needed): the same compositions as on the in-process and wgpu
providers, no counted host fallback, the host's results within the
documented tolerance (test_matrix_roots_on_device). The real-GPU run is the
coordinator's."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate.router.test_matrix_roots_on_device import FUNCTIONS, KINDS, _check, _matrices

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fn", FUNCTIONS)
def test_runs_on_the_cuda_provider(cuda_device, fn, kind):
    for a in _matrices(kind, 2, seed=100 + 10 * FUNCTIONS.index(fn) + KINDS.index(kind)):
        _check(fn, a)


@pytest.mark.parametrize("fn", FUNCTIONS)
def test_single_on_the_cuda_provider(cuda_device, fn):
    import numpy as np

    _check(fn, np.array([[4.0, 1.0], [1.0, 3.0]]), "single")
