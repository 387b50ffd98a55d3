"""Loop nodes in the renderers: snapshots of the generated WGSL and CUDA C,
and numerics of both against the host evaluator (WGSL on lavapipe, CUDA C
compiled for the CPU by g++, see tests/accelerate/cuda_host.py)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion import loops
from matfuse.accelerate.fusion.executor import FusionExecutor
from matfuse.accelerate.fusion.host_eval import evaluate
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.render_cuda import CudaRenderer
from matfuse.accelerate.fusion.render_wgsl import WgslRenderer
from matfuse.runtime.values import to_array
from tests.accelerate import cuda_host
from tests.accelerate.fusion.test_render_cuda import check_snapshot as check_cuda
from tests.accelerate.fusion.test_render_wgsl import check_snapshot as check_wgsl

@pytest.fixture
def host_cuda():
    return cuda_host.HostCudaProvider()


needs_gxx = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


def gbm_loop(n: int = 1000, count: int = 50, dtype: str = "f32", counter: int = 5):
    """S = S .* exp(drift + scale .* randn) for ``count`` iterations, and a
    second carried value A = A + S (two loop outputs)."""
    s_var = loops.placeholder(0, (n, 1), dtype)
    a_var = loops.placeholder(1, (n, 1), dtype)
    per_block = 4 if dtype == "f32" else 2
    delta = -(-n // per_block)
    z = g.random_node("randn", (n, 1), dtype, (7, 3), counter)
    step = g.unary_node("exp", g.binary_node("add", g.scalar_node(0.0002, dtype),
                                             g.binary_node("mul", g.scalar_node(0.0126, dtype), z)))
    s_new = g.binary_node("mul", s_var, step)
    a_new = g.binary_node("add", a_var, s_new)
    spec = loops.LoopSpec((s_var, a_var), (s_new, a_new), count, delta, True)
    inits = [g.fill_node((n, 1), 100.0, dtype), g.fill_node((n, 1), 0.0, dtype)]
    return loops.loop_nodes(inits, spec)


def test_loop_wgsl_snapshot():
    s_out, a_out = gbm_loop()
    kernel = WgslRenderer().render(KernelPlan("elementwise", s_out.shape, [s_out, a_out]))
    check_wgsl("gbm_loop.wgsl", kernel.source)
    assert kernel.source.count("for (var k") == 1      # one loop computes both outputs
    assert kernel.inputs == []                           # no Z buffer, no S buffer read


def test_loop_cuda_snapshot():
    s_out, a_out = gbm_loop()
    kernel = CudaRenderer().render(KernelPlan("elementwise", s_out.shape, [s_out, a_out]))
    check_cuda("gbm_loop.cu", kernel.source)
    assert kernel.source.count("for (unsigned int k") == 1


def test_render_cache_rebinds_count_and_counter():
    renderer = WgslRenderer()
    first = renderer.render(KernelPlan("elementwise", (1000, 1), gbm_loop(count=50, counter=5)[:1]))
    second = renderer.render(KernelPlan("elementwise", (1000, 1), gbm_loop(count=70, counter=900)[:1]))
    assert renderer.cache_hits == 1
    assert first.source == second.source
    assert 50 in first.header and 70 in second.header
    assert 900 in second.header  # the random node's counter word


def _host(root):
    return to_array(evaluate(root, lambda h: None))


@pytest.mark.parametrize("n", [256, 257])   # lanes sharing a Philox block / one element per thread
@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_wgsl_loop_matches_host_eval(wgpu_provider, dtype, n):
    s_out, a_out = gbm_loop(n=n, count=23, dtype=dtype)
    want_s = _host(s_out)
    want_a = _host(a_out)
    executor = FusionExecutor(wgpu_provider, WgslRenderer())
    got_s = wgpu_provider.download(executor.materialize(s_out)).to_array()
    # The sibling output was written by the same kernel.
    assert a_out.handle is not None
    got_a = wgpu_provider.download(a_out.handle).to_array()
    rtol = 2e-5 if dtype == "f32" else 1e-12
    np.testing.assert_allclose(got_s, want_s, rtol=rtol)
    np.testing.assert_allclose(got_a, want_a, rtol=rtol)


@needs_gxx
@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_cuda_loop_matches_host_eval(host_cuda, dtype):
    s_out, _ = gbm_loop(n=101, count=17, dtype=dtype, counter=(1 << 32) - 3)
    want = _host(s_out)
    handle = FusionExecutor(host_cuda, CudaRenderer()).materialize(s_out)
    got = host_cuda.download(handle).to_array()
    rtol = 2e-5 if dtype == "f32" else 1e-12
    np.testing.assert_allclose(got, want, rtol=rtol)
