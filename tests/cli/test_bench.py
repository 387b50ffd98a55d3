"""``matfuse bench``: repeated runs in one session, defines, report, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from matfuse.accelerate.facade import shutdown_acceleration
from matfuse.cli.bench import bench_main, parse_define, summarize
from matfuse.cli.main import main


@pytest.fixture(autouse=True)
def _fresh_provider() -> Iterator[None]:
    """These tests start the acceleration provider; leave none behind."""
    yield
    shutdown_acceleration()


SCRIPT = """if ~exist('n', 'var'), n = 3; end
if ~exist('label', 'var'), label = 'none'; end
x = (1:n) * 2;
fprintf('checksum %g %s\\n', sum(x), label);
"""


@pytest.fixture()
def script(tmp_path: Path) -> Path:
    path = tmp_path / "work.m"
    path.write_text(SCRIPT)
    return path


def test_json_report_with_defines(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = bench_main([str(script), "--iters", "3", "--warmup", "1", "--define", "n=4",
                         "-D", "label=abc", "--json"])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["times"]) == 3 and len(report["warmup_times"]) == 1
    assert report["min"] <= report["median"] <= report["max"]
    assert report["output"] == "checksum 20 abc\n"      # the last run's output only
    assert report["defines"] == {"n": 4.0, "label": "abc"}
    assert isinstance(report["telemetry"], dict) and isinstance(report["fallbacks"], dict)
    assert report["provider"]


def test_text_report_through_main(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", str(script), "--iters", "2", "--warmup", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("checksum 12 none\n")        # defaults of the script
    assert "2 iterations after 0 warm-up" in out and "median" in out


def test_quiet_hides_script_output(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main([str(script), "--iters", "1", "--quiet"]) == 0
    assert "checksum" not in capsys.readouterr().out


def test_each_run_starts_from_a_clear_workspace(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "count.m"
    path.write_text("if ~exist('k', 'var'), k = 0; end\nk = k + 1;\nfprintf('%d\\n', k);\n")
    assert bench_main([str(path), "--iters", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["output"] == "1\n"


def test_usage_errors(script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main([str(tmp_path / "missing.m")]) == 2
    assert "cannot open" in capsys.readouterr().err
    assert bench_main([str(script), "--define", "1x=2"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err
    assert bench_main([str(script), "--iters", "0"]) == 2


def test_script_error_is_reported_matlab_style(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.m"
    path.write_text("x = [1 2];\ny = x(5);\n")
    assert bench_main([str(path), "--iters", "1"]) == 1
    err = capsys.readouterr().err
    assert "Index exceeds" in err and "Traceback" not in err


def test_parse_define_kinds() -> None:
    assert parse_define("n=1e6") == ("n", 1e6)
    assert parse_define("flag=true") == ("flag", True)
    assert parse_define("name='img'") == ("name", "img")
    with pytest.raises(ValueError):
        parse_define("novalue")


def test_summarize() -> None:
    assert summarize([3.0, 1.0, 2.0]) == {"median": 2.0, "min": 1.0, "max": 3.0, "mean": 2.0}
