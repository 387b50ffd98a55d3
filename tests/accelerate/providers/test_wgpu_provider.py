"""wgpu provider specifics: batching, caches, leaks on failure, long
reductions, Philox bit layout, fused-kernel entry points, larger shapes."""

from __future__ import annotations


import numpy as np
import pytest

from matfuse.accelerate_api import Unsupported
from matfuse.errors import MatlabError
from matfuse.runtime import _philox

from tests.accelerate.providers.transfer import down, up


def test_dispatches_are_batched_until_a_sync_point(wgpu_provider):
    p = wgpu_provider
    x = up(p, np.arange(12.0).reshape(3, 4))
    p.synchronize()
    p.buffers.trim_pool()   # start from an empty pool so round 2 sees round 1's buffers
    p.reset_telemetry()
    for rounds in (1, 2):
        h = x
        for _ in range(20):
            nxt = p.elem_binary("plus", h, 1.0, "float64")
            if h is not x:
                p.free(h)
            h = nxt
        t = p.telemetry()
        assert t["dispatches"] == 20 * rounds and t["submits"] == rounds - 1
        np.testing.assert_array_equal(down(p, h), np.arange(12.0).reshape(3, 4) + 20)
        assert p.telemetry()["submits"] == rounds
    # the second round reuses pooled buffers, hence cached bind groups
    assert p.telemetry()["buffer_pool_hits"] > 0
    assert p.telemetry()["bind_group_hits"] > 0
    p.free(x)


def test_pipeline_cache_hits(wgpu_provider):
    p = wgpu_provider
    x = up(p, np.ones((5, 5), dtype=np.float32))
    down(p, p.elem_unary("sqrt", x, "float32"))
    p.reset_telemetry()
    down(p, p.elem_unary("sqrt", x, "float32"))
    t = p.telemetry()
    assert t["pipeline_cache_misses"] == 0 and t["pipeline_cache_hits"] >= 1
    p.free(x)


def test_failed_kernel_frees_its_buffers(wgpu_provider):
    p = wgpu_provider
    before = p.live_buffers()

    from dataclasses import replace

    from matfuse.accelerate.fusion import graph as g
    from matfuse.accelerate.fusion.kernel import KernelPlan
    from matfuse.accelerate.fusion.render_wgsl import WgslRenderer

    y = g.unary_node("sin", g.linspace_node(0.0, 1.0, 4, "f64"))
    kernel = WgslRenderer().render(KernelPlan("elementwise", y.shape, [y]))
    broken = replace(kernel, source="this is not WGSL", cache_key="broken-kernel")
    x = up(p, np.ones((4, 1)))
    with pytest.raises(Unsupported):
        p.fused_elementwise(broken, [x], [], [((4, 1), "float64"), ((4, 1), "float64")])
    p.free(x)
    assert p.live_buffers() == before


def test_oversized_tensor_is_unsupported_not_allocated(wgpu_provider):
    p = wgpu_provider
    before = p.live_buffers()
    # over one storage binding is fine now (split dispatch); over one buffer is not
    huge = (p.ctx.max_buffer_bytes // 4 + 1024, 1)
    with pytest.raises(Unsupported):
        p.fill(huge, 0.0, "float32")
    assert p.live_buffers() == before


def test_long_reduction_two_pass(wgpu_provider):
    p = wgpu_provider
    x = np.random.default_rng(3).standard_normal(300_001)
    h = up(p, x.reshape(-1, 1))
    got = down(p, p.reduce("sum", h, None, False, "float64"))
    assert got.shape == (1, 1)
    np.testing.assert_allclose(got[0, 0], x.sum(), rtol=1e-12)
    got = down(p, p.reduce("max", h, (0,), False, "float64"))
    assert got[0, 0] == x.max()
    f = up(p, x.astype(np.float32).reshape(-1, 1))
    np.testing.assert_allclose(down(p, p.reduce("sum", f, None, False, "float32"))[0, 0],
                               x.astype(np.float32).sum(dtype=np.float64), rtol=1e-4)
    p.free(h)
    p.free(f)


@pytest.mark.parametrize("dims", [(0,), (1,), (2,), (0, 2), (1, 2), None])
@pytest.mark.parametrize("op", ["sum", "prod", "max", "any", "nnz", "mean"])
def test_reduce_3d_dims(wgpu_provider, op, dims):
    p = wgpu_provider
    x = np.random.default_rng(4).standard_normal((4, 5, 3))
    x[x > 1.2] = 0.0
    h = up(p, x)
    out = "bool" if op == "any" else "float64"
    got = down(p, p.reduce(op, h, dims, False, out))
    ax = None if dims is None else tuple(dims)
    ref = {"sum": np.sum, "prod": np.prod, "max": np.max, "any": np.any, "mean": np.mean,
           "nnz": np.count_nonzero}[op](x, axis=ax, **({"keepdims": True} if ax else {}))
    np.testing.assert_allclose(np.asarray(got).reshape(-1), np.asarray(ref).reshape(-1), rtol=1e-12)
    p.free(h)


def test_int32_saturates_and_rounds(wgpu_provider):
    p = wgpu_provider
    a = up(p, np.array([[2147483000, -2147483000, 7, 7]], dtype=np.int32))
    got = down(p, p.elem_binary("times", a, 2.0, "int32"))
    np.testing.assert_array_equal(got, [[2147483647, -2147483648, 14, 14]])
    got = down(p, p.elem_binary("rdivide", a, 2.0, "int32"))
    np.testing.assert_array_equal(got, [[1073741500, -1073741500, 4, 4]])   # 3.5 -> 4
    p.free(a)


def test_broadcast_nd(wgpu_provider):
    p = wgpu_provider
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((3, 1, 4, 2)), rng.standard_normal((1, 5, 4))
    ha, hb = up(p, a), up(p, b)
    got = down(p, p.elem_binary("minus", ha, hb, "float64"))
    np.testing.assert_array_equal(got, a - b[..., None])
    p.free(ha)
    p.free(hb)


def test_vec4_single_path(wgpu_provider):
    p = wgpu_provider
    x = np.linspace(-3, 3, 4096, dtype=np.float32).reshape(64, 64)
    h = up(p, x)
    np.testing.assert_allclose(down(p, p.elem_binary("times", h, h, "float32")), x * x, rtol=1e-6)
    p.free(h)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("normal", [False, True])
def test_philox_matches_reference(wgpu_provider, dtype, normal):
    p = wgpu_provider
    key, counter = _philox.key_from_seed(0x1234_5678_9ABC), 2**32 - 3   # counter carries
    shape = (7, 5)
    hook = p.random_normal if normal else p.random_uniform
    got = down(p, hook(shape, dtype, key, counter)).reshape(-1, order="F")
    ref = (_philox.philox_normal if normal else _philox.philox_uniform)(35, key, counter, dtype)
    if normal:
        np.testing.assert_allclose(got, ref, rtol=2e-15 if dtype == "float64" else 1e-7, atol=1e-15)
    else:
        np.testing.assert_array_equal(got, ref)


def test_matmul_tiles_and_edges(wgpu_provider):
    p = wgpu_provider
    rng = np.random.default_rng(6)
    for m, k, n in ((130, 70, 65), (1, 33, 1), (64, 64, 64)):
        a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        ha, hb = up(p, a), up(p, b)
        np.testing.assert_allclose(down(p, p.matmul(ha, hb)), a @ b, rtol=1e-12, atol=1e-12)
        p.free(ha)
        p.free(hb)
    ha, hb = up(p, np.ones((2, 3))), up(p, np.ones((2, 3)))
    with pytest.raises(MatlabError) as err:
        p.matmul(ha, hb)
    assert err.value.identifier == "MATLAB:innerdim"
    p.free(ha)
    p.free(hb)


def test_scatter_duplicates_last_wins(wgpu_provider):
    p = wgpu_provider
    a = up(p, np.zeros((1, 6)))
    idx = up(p, np.array([[2, 4, 2, 2]], dtype=np.int32))
    vals = up(p, np.array([[1.0, 2.0, 3.0, 4.0]]))
    np.testing.assert_array_equal(down(p, p.index_scatter(a, idx, vals)), [[0, 0, 4, 0, 2, 0]])
    for h in (a, idx, vals):
        p.free(h)


def test_find_large(wgpu_provider):
    p = wgpu_provider
    x = (np.random.default_rng(7).random((3000, 2)) > 0.7).astype(np.float64)
    h = up(p, x)
    got = down(p, p.find(h))
    np.testing.assert_array_equal(got.reshape(-1), np.flatnonzero(x.reshape(-1, order="F")) + 1)
    p.free(h)


def test_permute_and_concat(wgpu_provider):
    p = wgpu_provider
    x = np.arange(24.0).reshape((2, 3, 4), order="F")
    h = up(p, x)
    np.testing.assert_array_equal(down(p, p.permute(h, (2, 0, 1))), np.transpose(x, (2, 0, 1)))
    np.testing.assert_array_equal(down(p, p.concat([h, h], 1)), np.concatenate([x, x], axis=1))
    p.free(h)


def test_fusion_renderer_kernel_runs(wgpu_provider):
    """The fusion engine's RenderedKernel (own pack_params/workgroups)."""
    from matfuse.accelerate.fusion import graph as g
    from matfuse.accelerate.fusion.kernel import KernelPlan
    from matfuse.accelerate.fusion.render_wgsl import WgslRenderer

    p = wgpu_provider
    x = g.linspace_node(0.0, 4.0, 1000, "f64")
    y = g.binary_node("mul", g.unary_node("sin", x), g.unary_node("exp", g.unary_node("neg", x)))
    kernel = WgslRenderer().render(KernelPlan("elementwise", y.shape, [y]))
    outs = p.fused_elementwise(kernel, [], kernel.scalars, kernel.outputs)
    got = [down(p, h) for h in outs]
    xs = np.linspace(0.0, 4.0, 1000)
    np.testing.assert_allclose(got[0].reshape(-1), np.sin(xs) * np.exp(-xs), rtol=1e-14, atol=1e-15)


def test_pool_overflow_with_pending_work(wgpu_provider, monkeypatch):
    """Buffers over the pool limit are destroyed only after the submit that
    may still use them (submitting a destroyed buffer aborts wgpu-native)."""
    p = wgpu_provider
    monkeypatch.setattr(p.buffers, "pool_limit_bytes", 4096)
    x = p.fill((4000, 1), 1.0, "float32")
    h = x
    for _ in range(30):
        nxt = p.elem_binary("plus", h, 1.0, "float32")
        if h is not x:
            p.free(h)
        h = nxt
    np.testing.assert_array_equal(down(p, h)[:3, 0], [31.0, 31.0, 31.0])
    p.free(x)


def test_int32_colon_is_exact_integer_arithmetic(wgpu_provider):
    p = wgpu_provider
    got = down(p, p.colon(2**30 + 7.0, -3.0, 5, "int32"))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got.reshape(-1), 2**30 + 7 - 3 * np.arange(5))
