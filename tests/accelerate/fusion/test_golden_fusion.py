"""The gpuArray golden programs on the wgpu device (lavapipe in CI) with the
fusion engine on and off: both must print exactly the expected output, so
fusion never changes a result. (All goldens under forced auto-offload are
checked in tests/accelerate/planner/test_golden_offload.py.)"""

from __future__ import annotations

import pytest

from matfuse.accelerate import facade
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate_api import override_provider
from tests.golden.test_golden import golden_programs, run_golden, GOLDEN_ROOT

GPU_PROGRAMS = [p for p in golden_programs() if p.parent.name == "gpu"]


@pytest.mark.parametrize("fusion", [True, False], ids=["fused", "unfused"])
@pytest.mark.parametrize("path", GPU_PROGRAMS, ids=lambda p: str(p.relative_to(GOLDEN_ROOT)))
def test_gpu_goldens_identical_with_and_without_fusion(wgpu_provider, path, fusion):
    options = AccelerateInitOptions(provider="wgpu", fusion=fusion)
    saved = facade.use_acceleration_state(
        facade.AccelerationState(options, wgpu_provider, "wgpu"))
    try:
        with override_provider(wgpu_provider):
            stdout, stderr, error = run_golden(path)
    finally:
        facade.use_acceleration_state(saved)
    assert stdout == path.with_suffix(".out").read_text(encoding="utf-8")
    err_file = path.with_suffix(".err")
    if err_file.exists():
        assert stderr == err_file.read_text(encoding="utf-8")
    else:
        assert error is None, stderr
