"""Dispatch-count and bytes tests of the fusion engine on a real wgpu device.

These run in CI on Mesa's lavapipe (Vulkan on the CPU). Each pattern is run
as MATLAB code in a Session whose provider is the wgpu provider, and compared
with the in-process (NumPy) provider's result.
"""

from __future__ import annotations


import numpy as np
import pytest

from matfuse.accelerate.fusion import executor as fusion_executor
from tests.accelerate.fusion.scripts import checksum, run_script, workload

def test_elementwise_chain_is_two_dispatches(wgpu_provider, inprocess_provider):
    code = workload("elementwise", n=50000.0)
    text, tel, stats = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    assert checksum(text) == pytest.approx(checksum(reference), rel=1e-4)
    assert tel["dispatches"] <= 2
    assert tel["submits"] == 1
    # x, y0, y1 and y2 never touch memory: only reduction partials are written.
    assert stats["bytes_written"] < 50000 * 4 / 8


def test_monte_carlo_loop_fuses_iterations(wgpu_provider):
    text, tel, stats = run_script(wgpu_provider, workload("montecarlo", M=4096.0, T=64.0))
    assert 95 < checksum(text) < 110
    cap = 12  # iterations per kernel under MAX_GROUP_COST (5 nodes per step)
    assert tel["dispatches"] <= -(-64 // cap) + 2
    assert tel["uploads"] == 0
    # Z is never written: only S (4096 floats) per kernel and the partials.
    assert stats["bytes_written"] <= (tel["dispatches"]) * 4096 * 4


def test_image_normalisation_six_dispatches_one_submit(wgpu_provider, inprocess_provider):
    code = workload("imagenorm", B=4.0, H=32.0, W=48.0)
    text, tel, stats = run_script(wgpu_provider, code)
    assert tel["dispatches"] <= 6
    assert tel["submits"] == 1
    assert 0.2 < checksum(text) < 0.35


def test_reduction_epilogue_and_broadcast_match_cpu(wgpu_provider, inprocess_provider):
    code = ("A = gpuArray(reshape(1:24, 4, 6) / 7); m = mean(A, 2); "
            "B = sqrt(sum((A - m).^2, 2) / 6) + 1; C = max(A - m, [], 1);"
            "fprintf('%.12g ', gather(B), gather(C)); fprintf('\\n');")
    text, tel, _ = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    got = np.array(text.split(), dtype=float)
    want = np.array(reference.split(), dtype=float)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_domain_fallback_gives_matlab_complex(wgpu_provider, inprocess_provider):
    code = "x = gpuArray(linspace(-2, 2, 5)); y = sqrt(x .* 3) + 1; disp(gather(y))"
    text, _, stats = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    assert text == reference
    assert stats["domain_fallbacks"] == 1


def test_indexed_assignment_is_a_barrier(wgpu_provider, inprocess_provider):
    code = ("x = gpuArray(1:10); y = x .* 2 + 1; y(3) = 0; z = y ./ 2; x(1) = 100; "
            "fprintf('%g ', gather(z), gather(sum(y)), gather(x(1))); fprintf('\\n');")
    text, _, _ = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    assert text == reference


def test_host_sink_forces_and_frees(wgpu_provider):
    before = wgpu_provider.live_buffers()
    code = ("for k = 1:5, v = gpuArray(ones(100, 1)) * k; w = exp(v ./ 100); "
            "if sum(w) > 0, fprintf('%d', k); end, end; clear v w; fprintf('\\n');")
    text, _, _ = run_script(wgpu_provider, code)
    assert text.strip() == "12345"
    import gc

    gc.collect()
    assert wgpu_provider.live_buffers() <= before


def test_fusion_off_gives_identical_results(wgpu_provider, monkeypatch):
    code = workload("elementwise", n=4096.0)
    fused, _, _ = run_script(wgpu_provider, code)
    monkeypatch.setattr(fusion_executor, "fusion_enabled", lambda p: False)
    from matfuse.accelerate.router import placement, route

    monkeypatch.setattr(route, "fusion_enabled", lambda p: False)
    monkeypatch.setattr(placement, "fusion_enabled", lambda p: False)
    eager, tel, stats = run_script(wgpu_provider, code)
    # Eager elementwise ops are one-node kernels of the IR: each operation
    # is launched by itself (one op node, with at most a scalar operand and
    # a cast), nothing joins a graph of several operations.
    assert stats["kernels"] == stats["fused_groups"]
    assert stats["fused_nodes"] <= 3 * stats["fused_groups"]
    assert checksum(fused) == pytest.approx(checksum(eager), rel=1e-5)


def test_render_cache_keeps_domain_checks_apart(wgpu_provider, inprocess_provider):
    # Same graph structure, but only the negative base can go complex.
    code = "x = gpuArray([1.5 -2 0.5]); a = 2.^x; b = (-3).^x; disp(gather(a)); disp(gather(b))"
    text, _, _ = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    assert text == reference


def test_failed_kernel_frees_partials(wgpu_provider, monkeypatch):
    """A kernel failing after a reduction's partial pass leaves no buffer behind."""
    from matfuse.accelerate.fusion import graph as g
    from matfuse.accelerate.fusion.executor import FusionExecutor
    from matfuse.accelerate_api import Unsupported

    executor = FusionExecutor(wgpu_provider)
    x = g.random_node("rand", (1, 100000), "f32", (1, 2), 0)
    total = g.reduce_node("sum", x, None)
    root = g.binary_node("add", total, g.scalar_node(1.0, "f32"))
    calls = {"n": 0}
    real = wgpu_provider.fused_elementwise

    def fail_second(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise Unsupported("injected")
        return real(*args, **kwargs)

    before = wgpu_provider.live_buffers()
    monkeypatch.setattr(wgpu_provider, "fused_elementwise", fail_second)
    with pytest.raises(Unsupported):
        executor.materialize(root)
    assert calls["n"] == 2
    assert wgpu_provider.live_buffers() == before


def test_kernel_refused_by_device_falls_back_to_host(wgpu_provider, inprocess_provider, monkeypatch):
    from matfuse.accelerate_api import Unsupported, fallback_counts

    def refuse(*args, **kwargs):
        raise Unsupported("injected: too many bindings")

    code = "x = gpuArray(1:6); y = exp(x ./ 3) + 1; fprintf('%.10g ', gather(y)); fprintf('\\n');"
    reference, _, _ = run_script(inprocess_provider, code)
    before = fallback_counts().get("fusion", 0)
    monkeypatch.setattr(wgpu_provider, "fused_elementwise", refuse)
    text, _, _ = run_script(wgpu_provider, code)
    assert text == reference
    assert fallback_counts().get("fusion", 0) == before + 1


@pytest.mark.parametrize("expr", ["x / 2", "2 \\ x", "2 * x", "x * 2", "2 ^ 3 + x"])
def test_matrix_operators_with_scalars_fuse_like_cpu(wgpu_provider, inprocess_provider, expr):
    code = f"x = gpuArray([1 2 4]); y = {expr}; fprintf('%.15g ', gather(y)); fprintf('\\n');"
    text, _, _ = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code)
    assert text == reference


def test_scalar_divided_by_matrix_is_not_elementwise(wgpu_provider):
    from matfuse.errors import MatlabError

    with pytest.raises(MatlabError, match="Matrix dimensions must agree"):
        run_script(wgpu_provider, "x = gpuArray([1 2]); y = 2 / x;")


def test_partials_reduced_again_match_cpu(wgpu_provider, inprocess_provider, monkeypatch):
    from matfuse.accelerate.fusion import render_wgsl

    # Final passes read at most one partial per output and never run a
    # workgroup per output: the partial buffers are folded by more passes.
    monkeypatch.setattr(render_wgsl, "THREAD_FINAL_MAX", 1)
    monkeypatch.setattr(render_wgsl, "BLOCK_FINAL_MAX_OUTPUTS", 0)
    code = ("x = reshape(linspace(gpuArray(0), 1, 120000), 40, 3000); "
            "fprintf('checksum %.12e\\n', gather(sum(mean(x, 2)) + sum(max(x, [], 2)) + sum(x(:))));")
    text, tel, _ = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code.replace("gpuArray(0)", "0"))
    assert checksum(text) == pytest.approx(checksum(reference), rel=1e-9)


@pytest.mark.parametrize("expr", ["sum(x(:))", "mean(x, 2)"])
def test_long_partial_lists_fold_in_a_workgroup_per_output(wgpu_provider, inprocess_provider,
                                                           expr, monkeypatch):
    """More than 256 partials per output left by the partial pass: the final
    pass folds them with one workgroup per output instead of a fold dispatch."""
    from matfuse.accelerate.fusion import render_wgsl

    code = ("x = reshape(linspace(gpuArray(0), 1, 8 * 2^20), 8, 2^20); "
            f"r = {expr}; fprintf('checksum %.12e\\n', gather(sum(r(:))));")
    text, tel, _ = run_script(wgpu_provider, code)
    reference, _, _ = run_script(inprocess_provider, code.replace("gpuArray(0)", "0"))
    assert checksum(text) == pytest.approx(checksum(reference), rel=1e-6)
    monkeypatch.setattr(render_wgsl, "BLOCK_FINAL_MAX_OUTPUTS", 0)
    folded, tel_folded, _ = run_script(wgpu_provider, code)
    assert checksum(folded) == pytest.approx(checksum(reference), rel=1e-6)
    assert tel["dispatches"] < tel_folded["dispatches"]
