"""benchmarks/parallel/run.py at tiny sizes: both benchmarks run, report
times, ratios and the parfor breakdown, and check results against the
serial run's."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

pytest.importorskip("distributed")

RUNNER = Path(__file__).resolve().parents[2] / "benchmarks" / "parallel" / "run.py"


@pytest.fixture
def runner(monkeypatch):
    # The runner's session cds into benchmarks/parallel: later tests must
    # not write their files there.
    monkeypatch.chdir(os.getcwd())
    from matfuse.accelerate import facade
    from matfuse.parallel import pool as _pool

    had_provider = facade.acceleration_state() is not None
    saved = _pool._CURRENT
    _pool._CURRENT = None           # a shared test pool is set aside
    spec = importlib.util.spec_from_file_location("parallel_bench_run", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    _pool._CURRENT = saved
    if not had_provider:
        facade.shutdown_acceleration()


def _rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_cpu_benchmark_reports_speedup_and_breakdown(runner, capsys):
    runner.main(["cpu", "--workers", "1", "--iters", "3", "--inner", "50"])
    out = capsys.readouterr().out
    serial, par = _rows(out)
    assert par["identical"] and par["checksum"] == serial["checksum"]
    assert par["chunks"] >= 1 and "client scatter" in par["phases"]
    assert "Breakdown, parfor on 1 workers" in out and "near-empty parfor" in out


def test_gpu_benchmark_checks_estimates_identical(runner, capsys):
    runner.main(["gpu", "--gpus", "1", "--batches", "2", "--tiny", "--paths", "200",
                 "--steps", "3", "--provider", "inprocess"])
    rows = _rows(capsys.readouterr().out)
    assert [r["mode"] for r in rows] == ["serial (no pool)", "parfor"]
    assert rows[1]["identical"] and rows[1]["estimate"] == rows[0]["estimate"]
