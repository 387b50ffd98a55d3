"""The CUDA provider's own logic on a NumPy-backed fake CuPy (no GPU needed):
every oracle case, Philox streams through the raw kernels run on the CPU,
fused kernels through the executor, OOM and the disk cache. The real-CuPy
run is ``test_cuda_provider.py`` on the GPU machine."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.executor import FusionExecutor
from matfuse.accelerate.fusion.host_eval import evaluate
from matfuse.accelerate_api import HostTensor
from matfuse.errors import MatlabError
from matfuse.runtime import _philox
from matfuse.runtime.values import to_array
from tests.accelerate import cuda_host
from tests.accelerate.oracle import ORACLE_CASES, REFERENCE, assert_matches, run_case
from tests.accelerate.providers import fake_cupy

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory):
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("fake_cuda_cache")))


@pytest.mark.parametrize("case", ORACLE_CASES, ids=lambda c: c.id)
def test_fake_cuda_matches_reference(fake_cuda, case):
    assert_matches(run_case(case, fake_cuda), run_case(case, REFERENCE), case)


def test_no_leaks(fake_cuda):
    before = fake_cuda.live_buffers()
    for case in ORACLE_CASES[::5]:
        try:
            run_case(case, fake_cuda)
        except pytest.skip.Exception:
            pass
    assert fake_cuda.live_buffers() == before


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_random_streams(fake_cuda, dtype):
    cls = "double" if dtype == "float64" else "single"
    for counter in (0, 9, (1 << 32) - 1):
        u = fake_cuda.random_uniform((7, 3), dtype, (5, 6), counter)
        z = fake_cuda.random_normal((7, 3), dtype, (5, 6), counter)
        np.testing.assert_array_equal(fake_cuda.download(u).data, _philox.philox_uniform(21, (5, 6), counter, cls))
        np.testing.assert_allclose(fake_cuda.download(z).data, _philox.philox_normal(21, (5, 6), counter, cls),
                                   rtol=1e-14, atol=1e-14)
        fake_cuda.free(u)
        fake_cuda.free(z)


def test_oom_becomes_matlab_error(fake_cuda):
    before = fake_cuda.live_buffers()
    with pytest.raises(MatlabError) as info:
        fake_cuda.fill((1 << 40, 1 << 10), 0.0, "float64")
    assert info.value.identifier == "parallel:gpu:array:OOM"
    assert "Out of memory on device" in info.value.message
    assert fake_cuda.live_buffers() == before
    assert fake_cuda.telemetry()["oom"] >= 1


def test_fused_through_executor(fake_cuda):
    x = np.random.default_rng(4).standard_normal((40, 30))
    node = g.input_node(fake_cuda.upload(HostTensor.from_array(x)))
    root = g.reduce_node("sum", g.unary_node("exp", g.binary_node("mul", node, g.scalar_node(0.5, "f64"))), (0,))
    root = g.binary_node("add", root, g.scalar_node(1.0, "f64"))
    want = to_array(evaluate(root, lambda h: fake_cuda.download(h).to_array()))
    handle = FusionExecutor(fake_cuda, fake_cuda.fusion_renderer).materialize(root)
    np.testing.assert_allclose(fake_cuda.download(handle).to_array(), want, rtol=1e-13)


def test_disk_cache_and_info(fake_cuda, tmp_path):
    from matfuse.accelerate.providers.cuda.cache import KernelCache
    from matfuse.accelerate.providers.cuda.kernels import RANDOM_SOURCE

    first = KernelCache(fake_cuda.cp, tmp_path)
    first.function(RANDOM_SOURCE, "mf_random_f64")
    first.function(RANDOM_SOURCE, "mf_random_f64")
    assert (first.stats["hits"], first.stats["misses"], first.stats["compiles"]) == (1, 1, 1)
    assert len(list(tmp_path.glob("*.cubin"))) == 1
    second = KernelCache(fake_cuda.cp, tmp_path)
    second.function(RANDOM_SOURCE, "mf_random_f32")
    assert second.stats["disk_hits"] == 1 and second.stats["compiles"] == 0
    assert first.key("x", ["a"]) != first.key("x", ["b"]) != first.key("y", ["a"])
    info = fake_cuda.device_info_struct()
    assert info.backend == "cuda" and info.total_memory == 16 << 30
    assert fake_cuda.device_info().startswith("Fake NumPy GPU via CUDA")
