"""CudaProvider vs the NumPy reference (oracle), fused kernels, Philox, OOM and
the NVRTC cache. Skipped only when CuPy is missing or no CUDA device answers."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.fusion.renderers import renderer_for
from matfuse.accelerate.providers.cuda import cuda_unavailable_reason

_REASON = cuda_unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=f"CUDA provider unavailable: {_REASON}")

from matfuse.accelerate.fusion import graph as g  # noqa: E402
from matfuse.accelerate.fusion.executor import DomainFallback, FusionExecutor  # noqa: E402
from matfuse.accelerate.fusion.host_eval import evaluate  # noqa: E402
from matfuse.accelerate_api import HostTensor  # noqa: E402
from matfuse.errors import MatlabError  # noqa: E402
from matfuse.runtime import _philox  # noqa: E402
from matfuse.runtime.values import to_array  # noqa: E402
from tests.accelerate.oracle import ORACLE_CASES, REFERENCE, assert_matches, run_case  # noqa: E402

_started: list[object] = []


@pytest.fixture(scope="module")
def cuda(tmp_path_factory):
    if not _started:
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        _started.append(CudaProvider(cache_dir=str(tmp_path_factory.mktemp("cuda_cache"))))
    return _started[0]


@pytest.mark.parametrize("case", ORACLE_CASES, ids=lambda c: c.id)
def test_cuda_matches_reference(cuda, case):
    assert_matches(run_case(case, cuda), run_case(case, REFERENCE), case)


def test_oracle_cases_leave_no_buffers(cuda):
    before = cuda.live_buffers()
    for case in ORACLE_CASES[::7]:
        try:
            run_case(case, cuda)
        except pytest.skip.Exception:
            pass
    assert cuda.live_buffers() == before


def test_device_info(cuda):
    info = cuda.device_info_struct()
    assert info.backend == "cuda" and info.vendor == "NVIDIA"
    assert info.total_memory > 0 and 0 < info.available_memory <= info.total_memory
    assert "compute_capability" in info.extra
    assert "via CUDA" in cuda.device_info()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("counter", [0, 3, (1 << 32) - 1])
def test_random_bit_exact(cuda, dtype, counter):
    key = (0x9E3779B9, 0x1234)
    cls = "double" if dtype == "float64" else "single"
    for hook, ref in (("random_uniform", _philox.philox_uniform), ("random_normal", _philox.philox_normal)):
        h = getattr(cuda, hook)((1001, 3), dtype, key, counter)
        got = cuda.download(h).data
        cuda.free(h)
        want = ref(3003, key, counter, cls)
        if hook == "random_uniform":
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-13 if dtype == "float64" else 1e-6, atol=1e-13)


def test_matmul_double_stays_double(cuda):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((64, 48)), rng.standard_normal((48, 32))
    ha, hb = cuda.upload(HostTensor.from_array(a)), cuda.upload(HostTensor.from_array(b))
    hc = cuda.matmul(ha, hb)
    got = cuda.download(hc).to_array()
    for h in (ha, hb, hc):
        cuda.free(h)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-12)


def test_out_of_memory_is_matlab_error(cuda):
    before = cuda.live_buffers()
    with pytest.raises(MatlabError) as info:
        cuda.fill((1 << 40, 4), 0.0, "float64")     # 32 TiB
    assert info.value.identifier == "parallel:gpu:array:OOM"
    assert cuda.live_buffers() == before
    h = cuda.fill((4, 4), 1.0, "float64")            # the device still works
    assert cuda.download(h).data.sum() == 16
    cuda.free(h)


def _input(p, arr):
    return g.input_node(p.upload(HostTensor.from_array(np.asarray(arr))))


def _fused(p, root):
    want = to_array(evaluate(root, lambda h: p.download(h).to_array()))
    handle = FusionExecutor(p, renderer_for(p)).materialize(root)
    return p.download(handle).to_array(), want


def test_fused_chain_and_reductions(cuda):
    from tests.accelerate.fusion.test_render_wgsl import elementwise_chain

    got, want = _fused(cuda, elementwise_chain(100_000))
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)
    for op in ("sum", "mean", "max", "min"):
        got, want = _fused(cuda, g.reduce_node(op, elementwise_chain(300_000), None))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=op)
    x = np.random.default_rng(2).standard_normal((7, 500, 3))
    x[2, :, 1] = np.nan
    for dims in ((0,), (1,), (2,), None):
        root = g.binary_node("mul", g.reduce_node("max", _input(cuda, x), dims), g.scalar_node(2.0, "f64"))
        got, want = _fused(cuda, root)
        np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def test_fused_random_and_domain_flag(cuda):
    z = g.random_node("randn", (4097, 3), "f64", (11, 22), 7)
    handle = FusionExecutor(cuda, renderer_for(cuda)).materialize(z)
    got = cuda.download(handle).data
    np.testing.assert_allclose(got, _philox.philox_normal(4097 * 3, (11, 22), 7, "double"), rtol=1e-13, atol=1e-13)
    neg = _input(cuda, -np.ones((3, 3)))
    with pytest.raises(DomainFallback):
        FusionExecutor(cuda, renderer_for(cuda)).materialize(g.unary_node("log", neg))


def test_kernel_cache_persists_on_disk(cuda, tmp_path):
    from matfuse.accelerate.providers.cuda.cache import KernelCache
    from matfuse.accelerate.providers.cuda.kernels import RANDOM_SOURCE

    first = KernelCache(cuda.cp, tmp_path)
    first.function(RANDOM_SOURCE, "mf_random_f64")
    first.function(RANDOM_SOURCE, "mf_random_f64")
    assert first.stats["hits"] == 1 and first.stats["misses"] == 1
    assert len(list(tmp_path.glob("*.cubin"))) == (1 if first.stats["compiles"] else 0)
    second = KernelCache(cuda.cp, tmp_path)
    second.function(RANDOM_SOURCE, "mf_random_f32")
    if first.stats["compiles"]:
        assert second.stats["disk_hits"] == 1 and second.stats["compiles"] == 0
