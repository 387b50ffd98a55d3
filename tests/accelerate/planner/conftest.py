from __future__ import annotations

import pytest

from matfuse.accelerate.planner import offload
from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.decisions import Planner
from matfuse.accelerate.planner.thresholds import CATEGORIES, ThresholdConfig
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import override_provider


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Calibration files and last-run decisions go to a temporary folder."""
    from matfuse.accelerate.planner import calibrate

    monkeypatch.setattr(calibrate, "calibration_dir", lambda: tmp_path / "planner")
    calibrate._loaded.clear()
    yield
    calibrate._loaded.clear()


def free_device() -> CostModel:
    """A device on which everything costs nothing: it always wins."""
    return CostModel(upload_s_per_byte=0.0, download_s_per_byte=0.0, launch_s=0.0,
                     device_s_per_unit={c: 0.0 for c in CATEGORIES})


def planner_with(threshold: int = 0, cost_model: CostModel | None = None) -> Planner:
    config = ThresholdConfig()
    for category in CATEGORIES:
        config.set(category, threshold, "test")
    return Planner(config, cost_model or free_device())


@pytest.fixture
def forced():
    """Auto-offload active on an in-process provider (treated as a GPU),
    every array operation offloaded (thresholds 0)."""
    p = InProcessProvider()
    with override_provider(p):
        planner = offload.activate(p, planner_with(0))
        try:
            yield planner
        finally:
            offload.reset()
