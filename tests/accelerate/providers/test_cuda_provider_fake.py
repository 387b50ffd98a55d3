"""The CUDA provider's own logic on a NumPy-backed fake CuPy (no GPU needed):
every oracle case, Philox streams through the raw kernels run on the CPU,
fused kernels through the executor, OOM and the disk cache. The real-CuPy
run is ``test_cuda_provider.py`` on the GPU machine."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.fusion.renderers import renderer_for
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
    handle = FusionExecutor(fake_cuda, renderer_for(fake_cuda)).materialize(root)
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


def test_accumarray_sums_in_the_hosts_order(fake_cuda):
    """Sums equal the host's bit for bit (each position added in order of
    appearance, not by atomics): found different on an H200."""
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 13, 1000).astype(np.float64)
    vals = rng.standard_normal(1000) * 10.0 ** rng.integers(-8, 8, 1000)
    want = np.zeros(14)
    np.add.at(want, idx.astype(np.int64), vals)
    i, v = fake_cuda.upload(HostTensor.from_array(idx)), fake_cuda.upload(HostTensor.from_array(vals))
    out = fake_cuda.accumulate("sum", i, v, (14, 1), 0.0)
    got = fake_cuda.download(out).data.reshape(-1)
    np.testing.assert_array_equal(got, want)
    for h in (i, v, out):
        fake_cuda.free(h)


@pytest.mark.parametrize("op", ["max", "min"])
def test_accumarray_extremes_are_doubles_and_skip_nan(fake_cuda, op):
    """Doubles stay doubles (CuPy's maximum.at rounded them to single on an
    H200); NaN is skipped unless a position holds only NaN; empty positions
    get the fill value."""
    idx = np.array([0, 0, 1, 2, 2, 0], dtype=np.float64)
    vals = np.array([np.nan, 0.9964666417661079, np.nan, 2.0, -1.0000000000000002, 0.3])
    i, v = fake_cuda.upload(HostTensor.from_array(idx)), fake_cuda.upload(HostTensor.from_array(vals))
    out = fake_cuda.accumulate(op, i, v, (4, 1), -7.0)
    got = fake_cuda.download(out).data.reshape(-1)
    want = [0.9964666417661079 if op == "max" else 0.3, np.nan,
            2.0 if op == "max" else -1.0000000000000002, -7.0]
    np.testing.assert_array_equal(got, want)
    for h in (i, v, out):
        fake_cuda.free(h)


def test_conv_is_direct_like_the_host(fake_cuda):
    """A NaN spoils only the outputs it touches (an FFT spreads it)."""
    a = np.arange(1.0, 40.0)
    a[5] = np.nan
    b = np.array([1.0, -2.0, 0.5])
    ha, hb = fake_cuda.upload(HostTensor.from_array(a.reshape(1, -1))), fake_cuda.upload(HostTensor.from_array(b.reshape(1, -1)))
    out = fake_cuda.conv1d(ha, hb, "full")
    np.testing.assert_array_equal(fake_cuda.download(out).data.reshape(-1), np.convolve(a, b))
    for h in (ha, hb, out):
        fake_cuda.free(h)
