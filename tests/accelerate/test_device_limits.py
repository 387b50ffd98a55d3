"""Adapter limits kernels depend on, and the one definition of the special-
value functions that eager and fused wgpu kernels share."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.providers.wgpu.device import LLVMPIPE_LOOP_BUDGET, DeviceContext
from matfuse.accelerate.providers.wgpu.shaders import elementwise, scan
from matfuse.accelerate_api.device_code.wgsl_special_values import SPECIAL_OPS
from matfuse.accelerate_api import HostTensor, Unsupported


def _context(name: str) -> DeviceContext:
    return DeviceContext(adapter=None, device=None, queue=None, name=name, vendor="",
                         backend="Vulkan", adapter_type="CPU", has_f64=True)


def test_llvmpipe_has_a_loop_budget_below_its_limit():
    assert _context("llvmpipe (LLVM 15.0.6, 256 bits)").max_loop_iterations == LLVMPIPE_LOOP_BUDGET
    assert LLVMPIPE_LOOP_BUDGET < 65535
    assert _context("NVIDIA H100 80GB HBM3").max_loop_iterations >= 1 << 31


@pytest.mark.parametrize("length,step", [(1, 16384), (16384, 16384), (70000, 16384), (5, 2)])
def test_scan_steps_cover_each_line_once(length, step):
    ranges = scan.step_ranges(length, step)
    covered = [k for k0, n in ranges for k in range(k0, k0 + n)]
    assert covered == list(range(length))
    assert all(n <= step for _, n in ranges)


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_eager_and_fused_kernels_share_the_special_value_functions(t):
    """The eager kernels' ``mfx_<op>`` forward to the library functions the
    fused kernels call: one definition of each."""
    source = elementwise._helpers(t, True)
    for op in SPECIAL_OPS:
        assert source.count(f"fn mf_{op}_{t}(") == 1, op
        assert f"return mf_{op}_{t}(" in source, op


def test_wgpu_kernel_refuses_loops_the_adapter_cannot_run(device):
    if device.name != "wgpu":
        pytest.skip("wgpu adapter limits")
    limit = device.ctx.max_loop_iterations
    device.check_loop_trips(limit, "test")
    with pytest.raises(Unsupported, match="loop iterations"):
        device.check_loop_trips(limit + 1, "test")


def test_scan_longer_than_the_loop_budget_is_exact(device):
    n = 70000
    h = device.upload(HostTensor.from_array(np.arange(1, n + 1, dtype=np.float64).reshape(1, n)))
    out = device.scan("cumsum", h, 1, False)
    try:
        got = device.download(out).to_array().reshape(-1)
    finally:
        device.free(h)
        device.free(out)
    np.testing.assert_array_equal(got, np.cumsum(np.arange(1, n + 1, dtype=np.float64)))
