"""Calibration files: measure, save, load; stale, corrupt and foreign files
are ignored with a warning."""

from __future__ import annotations

import json
import time

from matfuse.accelerate.planner import calibrate as cal
from matfuse.accelerate.planner.calibrate import (
    Calibration,
    calibrate,
    calibration_path,
    derive_thresholds,
    device_identity,
    load_calibration,
    save_calibration,
)
from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.providers.inprocess import InProcessProvider


def small_calibration(p) -> Calibration:
    return calibrate(p, n=4096, matmul_n=16)


def test_calibrate_measures_every_category_and_round_trips(tmp_path):
    p = InProcessProvider()
    c = small_calibration(p)
    assert c.device == device_identity(p) and c.device["backend"] == "numpy"
    assert set(c.thresholds) == {"elementwise", "reduction", "matmul", "construction"}
    assert all(v >= cal.MIN_THRESHOLD for v in c.thresholds.values())
    assert c.cost_model.source == "calibration" and c.cost_model.launch_s > 0
    path = save_calibration(c, tmp_path)
    assert path == calibration_path(c.device, tmp_path)
    loaded = load_calibration(p, tmp_path, warn=lambda text: (_ for _ in ()).throw(AssertionError(text)))
    assert loaded is not None and loaded.thresholds == c.thresholds
    assert loaded.cost_model.as_dict() == c.cost_model.as_dict()


def _saved(tmp_path, p, **changes):
    c = Calibration(device_identity(p), CostModel(), {"elementwise": 5000}, time.time())
    path = save_calibration(c, tmp_path)
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


def test_missing_file_is_none_without_warning(tmp_path):
    warnings = []
    assert load_calibration(InProcessProvider(), tmp_path, warnings.append) is None
    assert warnings == []


def test_corrupt_stale_and_foreign_files_are_ignored_with_a_warning(tmp_path):
    p = InProcessProvider()
    cases = {
        "format": {"format": 0},
        "stale": {"created": time.time() - cal.MAX_AGE_S - 10},
        "another device": {"device": {"vendor": "x", "name": "y", "backend": "numpy", "driver": ""}},
    }
    for words, change in cases.items():
        _saved(tmp_path, p, **change)
        warnings = []
        assert load_calibration(p, tmp_path, warnings.append) is None
        assert len(warnings) == 1 and ("stale" in warnings[0] or words in warnings[0])
    calibration_path(device_identity(p), tmp_path).write_text("{not json")
    warnings = []
    assert load_calibration(p, tmp_path, warnings.append) is None
    assert "corrupt" in warnings[0]


def test_valid_file_is_used_by_calibration_for(tmp_path):
    p = InProcessProvider()
    _saved(tmp_path / "planner", p)
    found = cal.calibration_for(p)
    assert found is not None and found.thresholds == {"elementwise": 5000}


def test_calibrate_on_first_use_when_asked(tmp_path, monkeypatch):
    p = InProcessProvider()
    monkeypatch.setattr(cal, "calibrate", lambda provider: small_calibration(provider))
    found = cal.calibration_for(p, run_if_missing=True)
    assert found is not None and found.path is not None and found.path.exists()


def test_derived_thresholds_follow_the_cost_model():
    fast = CostModel(launch_s=1e-6, upload_s_per_byte=0.0)
    slow = CostModel(launch_s=1e-3, upload_s_per_byte=0.0)
    assert derive_thresholds(fast)["elementwise"] < derive_thresholds(slow)["elementwise"]
