"""Generated CUDA C: snapshots, validity (``nvcc --ptx`` when nvcc is on PATH)
and numerics (the kernels run on the CPU through ``g++``, see cuda_host.py)."""

from __future__ import annotations

import dataclasses

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.executor import DomainFallback, FusionExecutor
from matfuse.accelerate.fusion.host_eval import evaluate
from matfuse.accelerate.fusion.kernel import KernelPlan
from matfuse.accelerate.fusion.render_cuda import CudaRenderer
from matfuse.accelerate_api import HostTensor
from matfuse.runtime import _philox
from matfuse.runtime.values import to_array
from tests.accelerate import cuda_host
from tests.accelerate.fusion.test_render_wgsl import elementwise_chain

SNAPSHOTS = Path(__file__).parent / "snapshots"
needs_gxx = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"generated CUDA changed; delete {path} to accept"


def gbm_step():
    z = g.random_node("randn", (1000, 1), "f32", (7, 0), 0)
    s = g.fill_node((1000, 1), 100.0, "f32")
    return g.binary_node("mul", s, g.unary_node("exp", g.binary_node("add", g.scalar_node(0.1, "f32"), z)))


# ------------------------------------------------------------------ snapshots
def test_elementwise_chain_snapshot():
    y2 = elementwise_chain()
    kernel = CudaRenderer().render(KernelPlan("elementwise", y2.shape, [y2]))
    check_snapshot("elementwise_chain.cu", kernel.source)
    assert kernel.inputs == []
    assert kernel.outputs == [((1, 1000), "float32")]   # y0.^2 is real: no domain flag
    assert not kernel.has_flag and kernel.header[:2] == [1000, 0]
    assert kernel.entry_point == "mf_fused" and kernel.float_type == "f64"


def test_partial_reduction_snapshot():
    y2 = elementwise_chain()
    s = g.reduce_node("sum", y2, None)
    kernel = CudaRenderer().render(KernelPlan("partial", y2.shape, [], reduce_node=s, chunks=8))
    check_snapshot("sum_partial.cu", kernel.source)
    assert kernel.threads == 8 and kernel.outputs[0] == ((8, 1), "float32")


def test_random_normal_snapshot():
    kernel = CudaRenderer().render(KernelPlan("elementwise", (1000, 1), [gbm_step()]))
    check_snapshot("gbm_step.cu", kernel.source)
    assert "mf_philox" in kernel.source and "__umulhi" in kernel.source
    assert kernel.header[2:] == [7, 0, 0, 0]     # key words, then counter lo/hi


def test_same_binding_order_as_wgsl():
    from matfuse.accelerate.fusion.render_wgsl import WgslRenderer

    a = g.input_node(cuda_host.HostCudaProvider().upload(HostTensor.from_array(np.ones((3, 4)))))
    b = g.input_node(cuda_host.HostCudaProvider().upload(HostTensor.from_array(np.ones((1, 4), np.float32))))
    out = g.unary_node("sqrt", g.binary_node("add", a, b))
    keep = g.binary_node("mul", a, a)
    plan = KernelPlan("elementwise", out.shape, [out, keep])
    cu, wg = CudaRenderer().render(plan), WgslRenderer().render(plan)
    assert cu.inputs == wg.inputs
    assert cu.outputs == wg.outputs
    assert cu.output_nodes == wg.output_nodes
    assert cu.header == wg.header and cu.scalars == wg.scalars and cu.threads == wg.threads


# ------------------------------------------------------------------ nvcc validity
def _validity_plans() -> list[KernelPlan]:
    y2 = elementwise_chain()
    plans = [KernelPlan("elementwise", y2.shape, [y2]),
             KernelPlan("partial", y2.shape, [], reduce_node=g.reduce_node("max", y2, None), chunks=4),
             KernelPlan("elementwise", (1000, 1), [gbm_step()])]
    z = g.random_node("randn", (33, 2), "f64", (1, 2), 5)
    plans.append(KernelPlan("elementwise", z.shape, [g.unary_node("isnan", z)]))
    r = g.random_node("rand", (8, 8), "f64", (3, 4), 1 << 33)
    r32 = g.cast_node(r, "f32")
    for x, t in ((r, "f64"), (r32, "f32")):   # every op, one kernel per op family
        plans.append(KernelPlan("elementwise", x.shape, [g.binary_node(op, x, g.scalar_node(0.5, t))
                                                        for op in sorted(g.BINARY_OPS)]))
        plans.append(KernelPlan("elementwise", x.shape, [g.unary_node(op, x) for op in sorted(g.UNARY_OPS)]))
    m = g.reduce_node("mean", r, (0,))
    plans.append(KernelPlan("elementwise", m.shape, [g.binary_node("sub", m, g.scalar_node(1.0, "f64"))]))
    big = g.random_node("rand", (8, 40000), "f32", (1, 2), 0)
    for op in ("sum", "max"):   # block-per-output final passes (shared memory)
        red = g.reduce_node(op, big, (1,))
        plans.append(KernelPlan("elementwise", red.shape, [g.unary_node("sqrt", red)],
                                partial_of={red.uid: 640}))
    # lanes in a partial pass, both layouts
    plans.append(KernelPlan("partial", big.shape, [], reduce_node=g.reduce_node("sum", big, (1,)), chunks=64))
    plans.append(KernelPlan("partial", big.shape, [], reduce_node=g.reduce_node("sum", big, None), chunks=64))
    # partial passes folding across the block (shuffles; shared memory only for A >= 32)
    for shape, chunks in (((8, 40000), 128), ((64, 4096), 16)):
        wide = g.random_node("rand", shape, "f64", (1, 2), 0)
        plans.append(KernelPlan("partial", shape, [], reduce_node=g.reduce_node("max", wide, (1,)), chunks=chunks))
    plans.append(KernelPlan("partial", big.shape, [], reduce_node=g.reduce_node("sum", big, None), chunks=256))
    return plans


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
def test_generated_cuda_compiles_with_nvcc(tmp_path):
    files = []
    for k, plan in enumerate(_validity_plans()):
        path = tmp_path / f"kernel{k}.cu"
        path.write_text(CudaRenderer().render(plan).source)
        files.append(str(path))
    done = subprocess.run(["nvcc", "--ptx", "-arch=sm_90", "--output-directory", str(tmp_path), *files],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert all((tmp_path / f"kernel{k}.ptx").exists() for k in range(len(files)))


# ------------------------------------------------------------------ numerics on the CPU
@pytest.fixture
def host_cuda():
    return cuda_host.HostCudaProvider()


def _input(p, arr):
    return g.input_node(p.upload(HostTensor.from_array(np.asarray(arr))))


def _run(p, root):
    """(device result through CudaRenderer, host_eval result) as ndarrays."""
    want = to_array(evaluate(root, lambda h: p.download(h).to_array()))
    handle = FusionExecutor(p, CudaRenderer()).materialize(root)
    return p.download(handle).to_array(), want


@needs_gxx
def test_chain_matches_host_eval(host_cuda):
    got, want = _run(host_cuda, elementwise_chain(1000))
    assert got.dtype == np.float32 and got.shape == (1, 1000)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


@needs_gxx
@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
def test_long_reduction_uses_partials(host_cuda, op):
    y2 = elementwise_chain(100_000)
    got, want = _run(host_cuda, g.reduce_node(op, y2, None))
    # partial pass (folding its 1792 chunks across blocks: 7 partials), then
    # the final pass (no fold pass in between)
    assert host_cuda.telemetry()["per_op"]["fused_elementwise"] == 2
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@needs_gxx
@pytest.mark.parametrize("dims", [(0,), (1,), (2,), (0, 1), None])
def test_reductions_with_nan_rules(host_cuda, dims):
    x = np.random.default_rng(3).standard_normal((5, 300, 3))
    x[1, :, 0] = np.nan
    x[2, 7, 1] = np.nan
    for op in ("sum", "mean", "prod", "max", "min"):
        node = g.reduce_node(op, _input(host_cuda, x), dims)
        root = g.binary_node("add", node, g.scalar_node(1.0, "f64"))
        got, want = _run(host_cuda, root)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, equal_nan=True, err_msg=op)


@needs_gxx
def test_broadcasting_and_bool(host_cuda):
    rng = np.random.default_rng(5)
    a = _input(host_cuda, rng.standard_normal((3, 4, 2)))
    b = _input(host_cuda, rng.standard_normal((1, 4)).astype(np.float32))
    c = _input(host_cuda, rng.random((3, 1, 2)) > 0.5)
    mixed = g.binary_node("mul", g.binary_node("add", a, b), c)       # f32 (single wins)
    cmp = g.binary_node("and", g.binary_node("gt", mixed, g.scalar_node(0.0, "f32")), c)
    root = g.binary_node("add", g.cast_node(cmp, "f64"), g.unary_node("not", c))
    got, want = _run(host_cuda, root)
    np.testing.assert_allclose(got, want, rtol=1e-6)


@needs_gxx
@pytest.mark.parametrize("dtype", ["f64", "f32"])
def test_special_value_ops(host_cuda, dtype):
    vals = np.array([[0.5, -0.5, 1.5, -2.5, np.nan, np.inf, -np.inf, 0.0, 7.0, -7.0, 5.5, -3.25]])
    vals = vals.astype(np.float32 if dtype == "f32" else np.float64)
    x = _input(host_cuda, vals)
    three = g.scalar_node(3.0, dtype)
    neg_two = g.scalar_node(-2.0, dtype)
    zero = g.scalar_node(0.0, dtype)
    parts = [g.unary_node(op, x) for op in ("round", "fix", "floor", "ceil", "sign", "abs", "neg",
                                             "isnan", "isinf", "isfinite")]
    parts += [g.binary_node(op, x, s) for op in ("mod", "rem", "atan2", "hypot", "max", "min")
              for s in (three, neg_two, zero)]
    wants = [to_array(evaluate(n, lambda h: host_cuda.download(h).to_array())) for n in parts]
    kernel = CudaRenderer().render(KernelPlan("elementwise", x.shape, parts))
    outs = host_cuda.fused_elementwise(kernel, [x.handle], kernel.scalars, kernel.outputs)
    for node, handle, want in zip(parts, outs, wants):
        got = host_cuda.download(handle).to_array()
        assert got.dtype == want.dtype, node.op
        np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True, err_msg=node.op)


@needs_gxx
@pytest.mark.parametrize("dtype", ["f64", "f32"])
@pytest.mark.parametrize("counter", [0, 5, (1 << 32) - 1])
def test_random_streams_match_philox_reference(host_cuda, dtype, counter):
    cls = "double" if dtype == "f64" else "single"
    key = (0xDEADBEEF, 0x12345678)
    for kind, ref in (("rand", _philox.philox_uniform), ("randn", _philox.philox_normal)):
        node = g.random_node(kind, (7, 5), dtype, key, counter)
        handle = FusionExecutor(host_cuda, CudaRenderer()).materialize(node)
        got = host_cuda.download(handle).to_array().reshape(-1, order="F")
        want = ref(35, key, counter, cls)
        if kind == "rand":
            np.testing.assert_array_equal(got, want)
        else:
            # Singles use single-precision log/sincospi: the last bits may
            # differ from the reference's float64-then-round (runtime/_philox.py).
            np.testing.assert_allclose(got, want, rtol=1e-14 if dtype == "f64" else 1e-6, atol=1e-14 if dtype == "f64" else 1e-6)


@needs_gxx
def test_generators_fuse(host_cuda):
    lin = g.linspace_node(-1.0, 2.0, 11, "f64")
    col = g.colon_node(3.0, 0.5, 11, "f64")
    fill = g.fill_node((1, 11), 2.0, "f64")
    got, want = _run(host_cuda, g.binary_node("add", g.binary_node("mul", lin, fill), col))
    np.testing.assert_allclose(got, want, rtol=1e-15)


@needs_gxx
def test_domain_error_raises_fallback(host_cuda):
    x = _input(host_cuda, np.array([[1.0, -4.0, 9.0]]))
    with pytest.raises(DomainFallback):
        FusionExecutor(host_cuda, CudaRenderer()).materialize(g.unary_node("sqrt", x))
    y = _input(host_cuda, np.array([[1.0, 4.0, 9.0]]))
    got, want = _run(host_cuda, g.binary_node("pow", g.unary_node("neg", y), g.scalar_node(3.0, "f64")))
    np.testing.assert_allclose(got, want)


@needs_gxx
def test_kept_nodes_are_extra_outputs(host_cuda):
    x = _input(host_cuda, np.arange(12.0).reshape(3, 4))
    mid = g.unary_node("exp", g.binary_node("mul", x, g.scalar_node(0.1, "f64")))
    mid.keep = True
    root = g.binary_node("add", mid, g.scalar_node(1.0, "f64"))
    want_mid = np.exp(np.arange(12.0).reshape(3, 4) * 0.1)
    got, want = _run(host_cuda, root)
    np.testing.assert_allclose(got, want)
    assert mid.handle is not None
    np.testing.assert_allclose(host_cuda.download(mid.handle).to_array(), want_mid)


@needs_gxx
@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
def test_partials_are_reduced_again_before_the_final_pass(host_cuda, op, monkeypatch):
    from matfuse.accelerate.fusion import render_cuda

    # A final pass may read at most 4 partials per output here (and never
    # runs a block per output): the partial buffer itself is reduced by
    # further partial passes.
    monkeypatch.setattr(render_cuda, "THREAD_FINAL_MAX", 4)
    monkeypatch.setattr(render_cuda, "BLOCK_FINAL_MAX_OUTPUTS", 0)
    y2 = elementwise_chain(100_000)
    got, want = _run(host_cuda, g.reduce_node(op, y2, None))
    assert host_cuda.telemetry()["per_op"]["fused_elementwise"] >= 3
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@needs_gxx
def test_render_cache_rebinds_uniforms(host_cuda):
    renderer = CudaRenderer()
    executor = FusionExecutor(host_cuda, renderer)
    executor.launch_plans.limit = 0  # render every time (a launch plan would skip the renderer)
    for start in (0.0, 0.5):
        x = g.linspace_node(start, 3.0, 2000, "f64")
        root = g.reduce_node("sum", g.unary_node("exp", g.binary_node("mul", x, g.scalar_node(start + 1, "f64"))), None)
        want = to_array(evaluate(root, lambda h: host_cuda.download(h).to_array()))
        got = host_cuda.download(executor.materialize(root)).to_array()
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert renderer.cache_hits >= 2 and renderer.cache_misses == 2   # partial + final, once each


@needs_gxx
def test_mod_of_multiples_is_positive_zero(host_cuda):
    x = _input(host_cuda, np.array([[-6.0, -3.0, 0.0, 3.0, 6.0]]))
    got, want = _run(host_cuda, g.binary_node("mod", x, g.scalar_node(3.0, "f64")))
    np.testing.assert_array_equal(got, want)
    assert not np.signbit(got).any() and not np.signbit(want).any()


@needs_gxx
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("shape, dims", [
    ((16, 40, 30), (1, 2)),     # A = 16: a thread owns consecutive outputs
    ((8, 1200), (1,)),          # A = 8
    ((4000, 3), (0,)),          # A = 1, R % 4 == 0: consecutive elements
    ((4002, 3), (0,)),          # A = 1, ragged R (f32): one element per iteration
    ((6, 1000), (1,)),          # A not a multiple of the width
])
def test_partial_lanes_match_host_eval(host_cuda, dtype, shape, dims):
    """Partial passes with vector lanes (a Philox block shared by the lanes,
    vector loads of same-shape inputs): same results as the host evaluator,
    with random and loaded operands and NaN rules."""
    np_dtype = np.float32 if dtype == "f32" else np.float64
    x = np.random.default_rng(11).standard_normal(shape).astype(np_dtype)
    x.reshape(-1)[17] = np.nan
    loaded = _input(host_cuda, x)
    rand = g.random_node("rand", shape, dtype, (0x1234, 0x5678), 3)
    for op in ("sum", "mean", "max", "min"):
        value = g.binary_node("add", g.binary_node("mul", rand, rand), loaded)
        root = g.reduce_node(op, value, dims)
        got, want = _run(host_cuda, root)
        tol = 2e-4 if dtype == "f32" else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=op)
        only_rand = g.reduce_node(op, g.unary_node("sqrt", rand), dims)
        got, want = _run(host_cuda, only_rand)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=op)


def test_partial_lanes_share_one_philox_block():
    rand = g.random_node("rand", (16, 4096), "f32", (1, 2), 0)
    red = g.reduce_node("sum", rand, (1,))
    source = CudaRenderer().render(KernelPlan("partial", rand.shape, [], reduce_node=red, chunks=64)).source
    assert source.count("mf_philox(") == 2          # the helper's definition and one call
    assert "acc3" in source


@needs_gxx
def test_kernels_bind_at_most_max_kernel_buffers(host_cuda):
    """Over the provider's buffer limit, subgraphs are written first: every
    kernel binds at most the limit, and the result is unchanged."""
    host_cuda.capabilities = dataclasses.replace(host_cuda.capabilities, max_kernel_buffers=7)
    launched = []
    real = host_cuda.fused_elementwise

    def counting(kernel, inputs, scalars, outputs):
        launched.append(len(inputs) + len(outputs))
        return real(kernel, inputs, scalars, outputs)

    host_cuda.fused_elementwise = counting
    arrays = [np.random.default_rng(k).standard_normal((4, 5)) for k in range(11)]
    total = _input(host_cuda, arrays[0])
    for k, arr in enumerate(arrays[1:], start=1):
        term = g.binary_node("mul", _input(host_cuda, arr), g.scalar_node(float(k), "f64"))
        total = g.binary_node("add", total, term)
    got, want = _run(host_cuda, g.unary_node("exp", total))
    np.testing.assert_allclose(got, want, rtol=1e-13)
    assert len(launched) >= 2 and max(launched) <= 7


@needs_gxx
@pytest.mark.parametrize("dtype", ["f64", "f32"])
def test_block_final_pass_matches_host_eval(host_cuda, dtype, monkeypatch):
    """More than 256 partials per output: the final pass runs one block per
    output (shared-memory fold), also with an epilogue and NaN rows."""
    from matfuse.accelerate.fusion import cuda_partial

    # without the partial pass's block fold, 640 partials per output remain
    monkeypatch.setattr(cuda_partial, "block_folds", lambda a_ext, chunks: False)
    np_dtype = np.float64 if dtype == "f64" else np.float32
    x = np.random.default_rng(21).standard_normal((8, 40000)).astype(np_dtype)
    x[3, 777] = np.nan
    for op in ("sum", "mean", "max", "min"):
        red = g.reduce_node(op, _input(host_cuda, x), (1,))
        root = g.binary_node("add", g.unary_node("abs", red), g.scalar_node(1.0, dtype))
        renderer = CudaRenderer()
        handle = FusionExecutor(host_cuda, renderer).materialize(root)
        got = host_cuda.download(handle).to_array()
        want = to_array(evaluate(root, lambda h: host_cuda.download(h).to_array()))
        tol = 1e-4 if dtype == "f32" else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=op)


def test_block_final_pass_source():
    x = g.random_node("rand", (8, 40000), "f32", (1, 2), 0)
    red = g.reduce_node("sum", x, (1,))
    plan = KernelPlan("elementwise", red.shape, [red], partial_of={red.uid: 640})
    kernel = CudaRenderer().render(plan)
    assert "__syncthreads();" in kernel.source and "blockIdx.x; i < h0; i += gridDim.x" in kernel.source
    assert kernel.header[0] == 8 and kernel.threads == 8 * 1024 and kernel.workgroup_size == 1024
    assert "__launch_bounds__(1024)" in kernel.source and "#pragma unroll 8" in kernel.source
    # few outputs: a block per output from 17 partials on, as many threads as partials
    few = CudaRenderer().render(KernelPlan("elementwise", red.shape, [red], partial_of={red.uid: 200}))
    assert "__syncthreads" in few.source and few.workgroup_size == 256 and few.threads == 8 * 256
    small = KernelPlan("elementwise", red.shape, [red], partial_of={red.uid: 16})
    assert "__syncthreads" not in CudaRenderer().render(small).source
    many = g.reduce_node("sum", g.random_node("rand", (64, 40000), "f32", (1, 2), 0), (1,))
    thread_final = KernelPlan("elementwise", many.shape, [many], partial_of={many.uid: 200})
    assert "__syncthreads" not in CudaRenderer().render(thread_final).source
