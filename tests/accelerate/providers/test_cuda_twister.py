"""The CUDA MT19937 kernels on a real GPU (a full thread block per
generating launch) against NumPy's RandomState. Skipped when CuPy is missing
or no CUDA device answers; ``test_cuda_twister_fake.py`` runs the same
source on the CPU."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.providers.cuda import cuda_unavailable_reason

_REASON = cuda_unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=f"CUDA provider unavailable: {_REASON}")

from matfuse.accelerate_api import HostTensor  # noqa: E402
from matfuse.runtime import _mt19937  # noqa: E402


@pytest.fixture(scope="module")
def cuda(tmp_path_factory):
    from matfuse.accelerate.providers.cuda.provider import CudaProvider

    return CudaProvider(cache_dir=str(tmp_path_factory.mktemp("cuda_twister_cache")))


@pytest.mark.parametrize("kind,dtype,skip,n", [
    ("uniform", "float64", 0, 100_003), ("uniform", "float32", 600, 3001),
    ("normal", "float64", 17, 77_777), ("normal", "float32", 3, 999),
    ("randi", "int32", 100, 5000), ("randi", "float64", 623, 1)])
def test_values_are_the_host_values(cuda, kind, dtype, skip, n):
    rs = np.random.RandomState(42 + skip)
    if skip:
        rs.bytes(4 * skip)
    _, words, pos, _, _ = rs.get_state(legacy=True)
    words = words.astype(np.uint32)
    handle = cuda.upload(HostTensor(words.copy(), (624, 1), "uint32"))
    h = cuda.random_twister(kind, (n, 1), dtype, handle, int(pos), (-3.0, 12.0))
    got = cuda.download(h).data.reshape(-1)
    want, after = _mt19937.draw(words, int(pos), kind, n, dtype, (-3.0, 12.0))
    if kind == "normal" and dtype == "float64":
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(np.float64).eps, atol=0)
    else:
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(cuda.download(handle).data.reshape(-1), after)
    cuda.free(h)
    cuda.free(handle)
