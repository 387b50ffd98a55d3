"""The golden programs print exactly the same with auto-offload forced on
(in-process provider treated as a GPU, every array operation offloaded)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden.test_golden import GOLDEN_ROOT, golden_programs, run_golden

# All of them, the explicit-gpuArray goldens included (mixed explicit/offloaded values).
PROGRAMS = golden_programs()


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(GOLDEN_ROOT)))
def test_golden_output_identical_with_offload(path: Path, forced) -> None:
    stdout, stderr, error = run_golden(path)
    # (``forced`` counts its decisions; test_offload checks that work moved.)
    assert stdout == path.with_suffix(".out").read_text(encoding="utf-8")
    err_file = path.with_suffix(".err")
    if err_file.exists():
        assert stderr.rstrip("\n") == err_file.read_text(encoding="utf-8").rstrip("\n")
    else:
        assert error is None, stderr


@pytest.fixture
def forced_on_device(device):
    """Auto-offload forced on the provider under test (thresholds 0): on a
    fusing provider, constructions become lazy generators and domain
    fallbacks evaluate fused graphs on the host with the planner suspended."""
    from matfuse.accelerate.planner import offload

    from tests.accelerate.planner.conftest import planner_with

    if device.name == "inprocess":
        pytest.skip("covered by test_golden_output_identical_with_offload")
    offload.activate(device, planner_with(0))
    try:
        yield
    finally:
        offload.reset()


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(GOLDEN_ROOT)))
def test_golden_output_identical_with_offload_on_device(path: Path, forced_on_device) -> None:
    stdout, _, _ = run_golden(path)
    assert stdout == path.with_suffix(".out").read_text(encoding="utf-8")
