"""The benchmark suite: workload layout, parity checks, the tiny cpu run and
the markdown report (python -m benchmarks.run / benchmarks.report)."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path
from typing import Iterator

import pytest

from benchmarks import report, run
from benchmarks.workloads import SUITES, WORKLOADS, Workload, interp_workloads
from matfuse.accelerate.facade import shutdown_acceleration


@pytest.fixture(autouse=True)
def _fresh_provider() -> Iterator[None]:
    """These tests start the acceleration provider; leave none behind."""
    yield
    shutdown_acceleration()


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_workload_folder_is_complete(name: str) -> None:
    work = WORKLOADS[name]
    source = work.script.read_text()
    assert "checksum" in source
    for size_set in ("tiny", "cpu", "gpu"):
        assert work.sizes[size_set], size_set
        for params in work.sizes[size_set]:
            for param in params:      # every parameter can be predefined
                assert re.search(rf"exist\('{param}', 'var'\)", source), param
    assert "exist('gpu', 'var')" in source
    peers = work.peers()
    assert callable(peers.run_xp) and callable(peers.make_torch)


def test_interp_suite_lists_scripts_not_helpers() -> None:
    names = set(interp_workloads())
    assert "interp/fib" in names and "interp/fib_rec" not in names
    assert all(w.parity == "text" for w in interp_workloads().values())


def _result(impl: str, checksum: float | None = None, output: str | None = None) -> dict:
    return {"impl": impl, "checksum": checksum, "output": output, "median": 1.0}


def test_parity_uses_numpy_as_reference_and_tolerance() -> None:
    work = WORKLOADS["pca"]
    results = [_result("matfuse", 1.0 + 1e-12), _result("numpy", 1.0), _result("octave", 1.1)]
    ok, note = run.check_parity(work, {}, results)
    assert not ok and "reference numpy" in note
    assert results[0]["parity_ok"] and not results[2]["parity_ok"]
    missing = [_result("numpy", 1.0), _result("matfuse", None)]
    assert not run.check_parity(work, {}, missing)[0]


def test_text_parity_and_statistical_tolerance() -> None:
    work = Workload("interp/x", Path("x.m"), parity="text", has_peers=False)
    assert run.check_parity(work, {}, [_result("matfuse", output="1\n"),
                                       _result("octave", output="1")])[0]
    assert not run.check_parity(work, {}, [_result("matfuse", output="1\n"),
                                           _result("octave", output="2\n")])[0]
    mc = WORKLOADS["montecarlo"]
    assert mc.tolerance({"M": 1e3, "T": 8}) > mc.tolerance({"M": 1e6, "T": 8})


def test_guard_and_failures() -> None:
    work = WORKLOADS["smallmixed"]
    slow = [{"impl": "matfuse", "median": 2.0}, {"impl": "matfuse-host", "median": 1.0}]
    assert run.check_guard(work, slow)[0] is False
    assert run.check_guard(work, slow[:1]) is None
    results = [{"impl": "octave", "error": "not applicable: gap"}, {"impl": "x", "error": "boom"}]
    assert run.failures(results) == ["x"]


def test_append_merges_chunks_in_workload_order() -> None:
    old = {"command": "first", "rows": [
        {"workload": "pca", "size": "a", "parity_ok": True, "failed": []},
        {"workload": "stats", "size": "b", "parity_ok": True, "failed": []}]}
    new = [{"workload": "elementwise", "size": "c", "parity_ok": True, "failed": []},
           {"workload": "pca", "size": "a", "parity_ok": True, "failed": [], "fresh": 1}]
    rows, command, ok = run.merge_rows(old, new, "second", True)
    assert [r["workload"] for r in rows] == ["elementwise", "pca", "stats"]
    assert rows[1].get("fresh") == 1 and command == "first; second" and ok


def test_worker_process_reports_cold_and_warm_times() -> None:
    result = run.run_one("numpy", "elementwise", {"n": 1e3}, iters=2, warmup=0, timeout=120)
    assert len(result["times"]) == 2 and result["cold_wall"] > result["median"]
    assert result["checksum"] is not None


def test_tiny_cpu_suite_parity_and_report(tmp_path: Path) -> None:
    out = tmp_path / "cpu"
    # matfuse-gpu: the scripts' explicit gpuArray path, on the provider at hand
    impls = "numpy,matfuse,matfuse-gpu" + (",octave" if shutil.which("octave") else "")
    status = run.main(["--suite", "cpu", "--sizes", "tiny", "--inline", "--impls", impls,
                       "--iters", "1", "--warmup", "0", "--out", str(out)])
    data = json.loads((out / "results.json").read_text())
    failed = {(r["workload"], i) for r in data["rows"] for i in r["failed"]}
    assert status == 0, (failed, [r["parity"] for r in data["rows"] if not r["parity_ok"]])
    assert [r["workload"] for r in data["rows"]] == list(WORKLOADS)
    assert all(r["parity_ok"] for r in data["rows"])
    assert data["environment"]["versions"]["numpy"]
    if importlib.util.find_spec("matplotlib") is not None:
        assert (out / "speedup.png").is_file()   # one size each: no time-vs-size plots
    text = report.render([out / "results.json"], tmp_path, "python -m benchmarks.report x")
    assert "## Suite `cpu`" in text and "| pca |" in text and "matfuse/numpy" in text
    assert "![speedup](cpu/speedup.png)" in text or importlib.util.find_spec("matplotlib") is None


def test_report_cli_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert report.main([str(tmp_path / "nope.json")]) == 2


def test_suites_are_defined() -> None:
    assert {"cpu", "gpu", "interp"} <= set(SUITES)
    assert "octave" in SUITES["interp"].impls and SUITES["interp"].interp
