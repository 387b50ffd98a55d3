"""CUDA partial passes that fold their chunks across the block (warp
shuffles, then shared memory across the warps): one partial per block and
output lane instead of one per thread. The kernels run on the CPU as one
block of real threads (tests/accelerate/cuda_host.py)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion import cuda_partial
from matfuse.accelerate.fusion.executor import FusionExecutor, chunk_count
from matfuse.accelerate.fusion.host_eval import evaluate
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.cuda_partial import block_folds
from matfuse.accelerate.fusion.render_cuda import CudaRenderer
from matfuse.accelerate_api import HostTensor
from matfuse.runtime.values import to_array
from tests.accelerate import cuda_host
from tests.accelerate.fusion.test_render_wgsl import elementwise_chain

needs_gxx = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


def test_fold_rule_and_partials_per_output():
    assert block_folds(1, 262144) and CudaRenderer.partials_per_output(1, 262144) == 1024
    assert block_folds(16, 64) and CudaRenderer.partials_per_output(16, 64) == 4
    assert block_folds(256, 8) and CudaRenderer.partials_per_output(256, 8) == 8
    assert not block_folds(1, 1000)            # not whole blocks
    assert not block_folds(16, 32)             # A*P must fill 4 blocks (lanes layout)
    assert not block_folds(6, 2048)            # A not a power of two
    assert not block_folds(512, 1024)          # A larger than the block
    assert CudaRenderer.partials_per_output(6, 2048) == 2048


def test_elementwise_benchmark_partial_pass_writes_one_partial_per_block():
    y2 = elementwise_chain(100_000_000)
    s = g.reduce_node("sum", y2, None)
    kernel = CudaRenderer().render(KernelPlan("partial", y2.shape, [], reduce_node=s, chunks=chunk_count(s)))
    assert kernel.threads == 262144 and kernel.outputs[0] == ((1024, 1), "float32")
    assert kernel.source.count("__shfl_down_sync(") == 5 and "__syncthreads();" in kernel.source
    assert kernel.workgroup_size == 256


@pytest.fixture
def host_cuda():
    return cuda_host.HostCudaProvider()


def _input(p, arr):
    return g.input_node(p.upload(HostTensor.from_array(np.asarray(arr))))


def _check(p, root, tol):
    want = to_array(evaluate(root, lambda h: p.download(h).to_array()))
    got = p.download(FusionExecutor(p, CudaRenderer()).materialize(root)).to_array()
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


@needs_gxx
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("shape, dims", [
    ((16, 4096), (1,)),        # A = 16: lanes own outputs, shuffles down to 16
    ((8, 8192, 2), (1,)),      # A = 8, two c slices
    ((64, 1024), (1,)),        # A = 64 >= a warp: shared memory only
    ((2, 32768), (1,)),        # A = 2: no lanes in single precision
    ((256, 512), (1,)),        # A = 256: nothing to fold across threads
    ((20000, 3), (0,)),        # A = 1, C = 3
])
def test_folded_partials_match_host_eval(host_cuda, dtype, shape, dims):
    np_dtype = np.float32 if dtype == "f32" else np.float64
    x = np.random.default_rng(5).standard_normal(shape).astype(np_dtype)
    x.reshape(-1)[11] = np.nan
    x.reshape(-1)[-3] = np.nan
    loaded = _input(host_cuda, x)
    probe = g.reduce_node("sum", loaded, dims)
    assert block_folds(probe.attrs[0], chunk_count(probe))
    tol = 2e-4 if dtype == "f32" else 1e-10
    for op in ("sum", "max", "prod"):   # (mean's partials are sums; min mirrors max)
        value = loaded if op != "prod" else g.binary_node("add", g.scalar_node(1.0, dtype),
                                                          g.binary_node("mul", loaded, g.scalar_node(1e-4, dtype)))
        _check(host_cuda, g.reduce_node(op, value, dims), tol)


@needs_gxx
def test_folded_partials_with_kept_outputs(host_cuda):
    """A partial pass that also writes a kept intermediate still folds."""
    x = _input(host_cuda, np.random.default_rng(2).standard_normal((16, 4096)).astype(np.float32))
    mid = g.unary_node("exp", g.binary_node("mul", x, g.scalar_node(0.5, "f32")))
    mid.keep = True
    _check(host_cuda, g.binary_node("add", g.reduce_node("sum", mid, (1,)), g.scalar_node(1.0, "f32")), 2e-4)
    np.testing.assert_allclose(host_cuda.download(mid.handle).to_array(),
                               np.exp(0.5 * host_cuda.download(x.handle).to_array()), rtol=1e-6)


@needs_gxx
def test_unfolded_partials_still_work(host_cuda, monkeypatch):
    monkeypatch.setattr(cuda_partial, "block_folds", lambda a_ext, chunks: False)
    _check(host_cuda, g.reduce_node("sum", elementwise_chain(100_000), None), 1e-4)


@needs_gxx
def test_folded_partials_then_block_per_output_final(host_cuda):
    """5e5 elements: the fold leaves 31 partials; with one output the final
    pass runs a 32-thread block instead of one thread reading them in turn."""
    x = np.random.default_rng(8).standard_normal((500_000, 1)).astype(np.float32)
    red = g.reduce_node("sum", _input(host_cuda, x), None)
    chunks = chunk_count(red)
    per_output = CudaRenderer.partials_per_output(1, chunks)
    assert per_output == 31
    final = CudaRenderer().render(KernelPlan("elementwise", red.shape, [red], partial_of={red.uid: per_output}))
    assert final.workgroup_size == 32 and "__syncthreads();" in final.source
    for op in ("sum", "mean", "max"):
        _check(host_cuda, g.reduce_node(op, _input(host_cuda, x), None), 1e-4)
    assert host_cuda.telemetry()["per_op"]["fused_elementwise"] == 6
