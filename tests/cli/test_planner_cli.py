"""``matfuse info``, ``matfuse calibrate`` and ``matfuse run --explain``."""

from __future__ import annotations

import json

import pytest

from matfuse.accelerate.facade import shutdown_acceleration
from matfuse.accelerate.planner import calibrate as cal
from matfuse.accelerate.planner import offload
from matfuse.cli.main import main


@pytest.fixture(autouse=True)
def _inprocess(tmp_path, monkeypatch):
    monkeypatch.setenv("MATFUSE_PROVIDER", "inprocess")
    monkeypatch.setattr(cal, "calibration_dir", lambda: tmp_path / "planner")
    monkeypatch.setattr(cal, "calibrate", lambda p: cal.__dict__["_small"](p))
    cal._loaded.clear()
    shutdown_acceleration()
    offload.reset()
    yield
    shutdown_acceleration()
    offload.reset()
    cal._loaded.clear()


_real_calibrate = cal.calibrate
cal._small = lambda p: _real_calibrate(p, n=4096, matmul_n=16)


def test_info_json_lists_device_thresholds_and_sources(capsys):
    assert main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["provider"] == "inprocess" and info["backend"] == "numpy"
    auto = info["auto_offload"]
    assert auto["enabled"] is False
    assert auto["thresholds"]["elementwise"]["source"] == "defaults"
    assert "precision_policy" in info and "startup_s" in info


def test_info_text_and_bad_argument(capsys):
    assert main(["info"]) == 0
    text = capsys.readouterr().out
    assert "auto-offload:     off" in text and "threshold matmul" in text
    assert main(["info", "--yaml"]) == 2


def test_calibrate_then_info_shows_calibration_source(capsys, monkeypatch):
    assert main(["calibrate"]) == 0
    first = capsys.readouterr().out
    assert "saved" in first and "threshold elementwise" in first
    assert main(["calibrate"]) == 0
    assert "calibration exists" in capsys.readouterr().out
    assert main(["calibrate", "--refresh"]) == 0
    assert "saved" in capsys.readouterr().out
    cal._loaded.clear()
    shutdown_acceleration()
    assert main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["auto_offload"]["thresholds"]["reduction"]["source"] == "calibration"
    monkeypatch.setenv("MATFUSE_THRESHOLD_REDUCTION", "12345")
    cal._loaded.clear()
    shutdown_acceleration()
    assert main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["auto_offload"]["thresholds"]["reduction"] == {"value": 12345, "source": "env"}


def test_explain_prints_one_line_per_statement_operation(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MATFUSE_AUTO_OFFLOAD", "force")
    script = tmp_path / "prog.m"
    script.write_text("x = reshape(1:300000, 600, 500);\ny = x .* 2;\ns = sum(y(:));\n"
                      "fprintf('%g\\n', s);\n")
    assert main(["--explain", "run", str(script)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "9.00003e+10\n"
    err = captured.err
    assert "auto-offload: active" in err
    lines = err.splitlines()
    at = lines.index("line 2: y = x .* 2;")
    # reshape (an element rearrangement) already moved x to the device
    assert lines[at + 1].split() == [".*", "->", "gpu", "resident", "300000", "elements"]
    at = lines.index("line 3: s = sum(y(:));")
    assert any(line.split()[:4] == ["sum", "->", "gpu", "resident"] for line in lines[at + 1:at + 4])
    at = lines.index("line 4: fprintf('%g\\n', s);")
    assert lines[at + 1].split()[:4] == ["fprintf", "->", "cpu", "sink"]


def test_explain_when_off_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MATFUSE_AUTO_OFFLOAD", "0")
    script = tmp_path / "prog.m"
    script.write_text("x = ones(3) + 1;\n")
    assert main(["--explain", str(script)]) == 0
    err = capsys.readouterr().err
    assert "auto-offload: off" in err and "every array operation ran on the CPU" in err


def test_explain_names_the_line_of_every_host_fallback(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MATFUSE_AUTO_OFFLOAD", "0")
    script = tmp_path / "prog.m"
    # forms that still have no device path: other endpoints, other functions
    script.write_text("x = gpuArray(1:6);\nm = movmean(x, 3, 'Endpoints', 'fill');\n"
                      "for k = 1:2\n  a = accumarray([1; 2; 1], x(1:3)', [], @prod);\nend\n")
    assert main(["--explain", str(script)]) == 0
    lines = capsys.readouterr().err.splitlines()
    at = lines.index("host fallbacks (device data computed on the host):")
    assert lines[at + 1:at + 5] == [
        "  line 2: movmean  (m = movmean(x, 3, 'Endpoints', 'fill');)",
        "    why: no device path for movmean(gpuArray double 1x6, 3, 'Endpoints', 'fill')",
        "  line 4: accumarray x2  (a = accumarray([1; 2; 1], x(1:3)', [], @prod);)",
        "    why: no device path for accumarray(double 3x1, gpuArray double 3x1, double 0x0, "
        "@prod)"]
