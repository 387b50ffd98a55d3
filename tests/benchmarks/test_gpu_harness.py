"""The GPU-suite harness, exercised here: explicit provider implementations,
parallel host lane, time limits that keep data, and the report with ratio,
telemetry and plots (python -m benchmarks.run --suite gpu --sizes tiny)."""

from __future__ import annotations

import importlib.util
import json
import os
import time
from pathlib import Path

import pytest

from benchmarks import report, run
from benchmarks._worker import time_calls
from benchmarks.impls import IMPLS, NOT_INSTALLED, missing_reason
from benchmarks.scheduler import SKIPPED, CoreSplit, Job, WorkerProcess
from benchmarks.workloads import SUITES, WORKLOADS

HAS_MPL = importlib.util.find_spec("matplotlib") is not None


def test_gpu_suite_names_every_configuration_and_peer() -> None:
    impls = SUITES["gpu"].impls
    for name in ("matfuse-cuda", "matfuse-wgpu", "matfuse", "matfuse-host", "numpy",
                 "torch", "torch-compile", "cupy"):
        assert name in impls
    assert IMPLS["matfuse-cuda"].env["MATFUSE_PROVIDER"] == "cuda"
    assert IMPLS["matfuse-wgpu"].env["MATFUSE_FALLBACK"] == "error"
    assert IMPLS["matfuse"].env["MATFUSE_PROVIDER"] == "auto"
    assert not IMPLS["matfuse"].gpu_script and IMPLS["matfuse-wgpu"].gpu_script
    assert {IMPLS[i].lane for i in ("numpy", "matfuse-host")} == {"cpu"}
    assert missing_reason("nonsense") == "unknown implementation nonsense"


@pytest.mark.parametrize("name", ["elementwise", "montecarlo", "imagenorm", "pca", "stats"])
def test_workloads_declare_ideal_bytes(name: str) -> None:
    work = WORKLOADS[name]
    for params in work.sizes["gpu"]:
        assert work.ideal_bytes(params) > 0


def test_compile_peers_for_every_compilable_workload() -> None:
    for name, work in WORKLOADS.items():
        if work.torch_compile and name in ("montecarlo", "pca", "signal", "stats"):
            peers = work.peers()
            assert callable(peers.make_torch_compiled) and peers.TORCH_COMPILE_NOTE


def test_max_seconds_cuts_timed_iterations() -> None:
    calls = []
    _result, times = time_calls(lambda: (time.sleep(0.05), calls.append(1)), iters=10,
                                warmup=1, max_seconds=0.12)
    assert len(times) == 2 and len(calls) == 3


def test_core_split_keeps_gpu_lane_cores_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)), raising=False)
    split = CoreSplit.plan(2)
    assert split.gpu == list(range(6)) and len(split.cpu) == 2
    assert not set(split.gpu) & set(split.cpu[0]) and not set(split.cpu[0]) & set(split.cpu[1])
    assert CoreSplit.plan(0).gpu == []
    timed, preparing = split.gpu_halves()
    assert timed == [0, 1, 2] and preparing == [3, 4, 5]
    assert CoreSplit([7], []).gpu_halves() == ([7], [7])


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_worker_moves_to_the_cores_named_by_go() -> None:
    cores = sorted(os.sched_getaffinity(0))
    job = Job(0, "numpy", "elementwise", {"n": 1e3}, iters=1, warmup=0, timeout=60.0)
    worker = WorkerProcess(job, cores[-1:])
    assert worker.ready.wait(60)
    assert os.sched_getaffinity(worker.proc.pid) == {cores[-1]}
    worker.go(cores[:1])
    result = worker.result(60)
    assert "error" not in result


def test_timeout_keeps_finished_iterations() -> None:
    job = Job(0, "numpy", "elementwise", {"n": 2e6}, iters=100000, warmup=0, timeout=4.0)
    worker = WorkerProcess(job, [])
    assert worker.ready.wait(60)
    worker.go()
    result = worker.result(4.0)
    assert "error" not in result and result["times"] and "cut at 4 s" in result["note"]
    assert result["checksum"] is not None


def test_budget_exhausted_skips_without_failing(tmp_path: Path) -> None:
    earlier = {"command": "first", "rows": [{"workload": "stats", "size": "n=1", "results": [],
                                            "parity_ok": True, "failed": []}]}
    (tmp_path / "results.json").write_text(json.dumps(earlier))
    status = run.main(["--suite", "gpu", "--sizes", "tiny", "--workloads", "elementwise",
                       "--impls", "numpy,torch", "--budget", "1e-9", "--out", str(tmp_path),
                       "--append"])
    data = json.loads((tmp_path / "results.json").read_text())
    assert [r["workload"] for r in data["rows"]] == ["elementwise", "stats"]
    errors = {r["impl"]: r["error"] for r in data["rows"][0]["results"]}
    assert errors["numpy"] == SKIPPED
    # torch: not installed here, or (where it is) skipped like numpy
    assert "torch" not in errors or errors["torch"] == SKIPPED or errors["torch"].startswith(NOT_INSTALLED)
    assert data["rows"][0]["failed"] == [] and data["complete"]
    assert status == 0


def test_tiny_gpu_suite_end_to_end(tmp_path: Path) -> None:
    """The device command at tiny sizes: every implementation that runs here,
    each in its own process, host lane in parallel; the others n/a."""
    out = tmp_path / "gpu"
    impls = "matfuse-cuda,matfuse-wgpu,matfuse,matfuse-host,numpy,torch,torch-compile,cupy"
    status = run.main(["--suite", "gpu", "--sizes", "tiny", "--workloads", "elementwise,pca",
                       "--impls", impls, "--iters", "1", "--cpu-workers", "1",
                       "--out", str(out)])
    data = json.loads((out / "results.json").read_text())
    assert status == 0, [(r["workload"], r["parity"], r["failed"]) for r in data["rows"]]
    assert data["complete"] and [r["workload"] for r in data["rows"]] == ["elementwise", "pca"]
    for row in data["rows"]:
        results = {r["impl"]: r for r in row["results"]}
        assert list(results) == impls.split(",")
        for impl in ("matfuse-wgpu", "matfuse", "matfuse-host", "numpy"):
            assert results[impl]["parity_ok"], (impl, row["parity"])
            assert results[impl]["cold_wall"] > 0
        assert results["matfuse-wgpu"]["provider"].startswith("wgpu")
        assert results["matfuse-wgpu"]["telemetry"]["dispatches"] > 0
        assert results["matfuse-host"]["provider"].startswith("inprocess")
        if len(os.sched_getaffinity(0)) >= 2:   # host lane pinned apart from the GPU lane
            assert results["numpy"]["cores"] + results["matfuse-wgpu"]["cores"] <= len(
                os.sched_getaffinity(0))
        for impl in ("torch", "torch-compile", "cupy", "matfuse-cuda"):
            if missing_reason(impl):
                assert results[impl]["error"].startswith(NOT_INSTALLED)
    plots = tmp_path / "plots"
    text = report.render([out / "results.json"], tmp_path, "python -m benchmarks.report x",
                         plots_dir=plots)
    assert "| matfuse-wgpu |" in text and "matfuse/numpy" in text and "matfuse/torch" in text
    assert "ideal bytes" in text
    if any(missing_reason(impl) for impl in impls.split(",")):
        assert "n/a" in text   # an implementation missing here is reported, not dropped
    if HAS_MPL:
        assert (plots / "gpu_speedup_matfuse-wgpu.png").is_file()
        assert "![gpu_speedup](plots/gpu_speedup.png)" in text


def test_very_slow_call_is_timed_once_by_its_warmup() -> None:
    calls, notes = [], []
    _result, times = time_calls(lambda: (time.sleep(0.05), calls.append(1)), iters=5,
                                warmup=1, max_seconds=0.02, notes=notes)
    assert len(times) == 1 and len(calls) == 1 and "timed once" in notes[0]


def test_sigterm_keeps_results_written_so_far(tmp_path: Path) -> None:
    """The device step's `timeout` sends SIGTERM: the JSON written so far stays."""
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=f"{root}{os.pathsep}{root / 'src'}")
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.run", "--suite", "gpu",
                             "--sizes", "tiny", "--impls", "numpy,matfuse-wgpu",
                             "--out", str(tmp_path)], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (tmp_path / "results.json").is_file() and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 1
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["complete"] is False and data["rows"]
