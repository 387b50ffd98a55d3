"""RunMat-style scripts without gpuArray (``gpu = 0``) run on the device as
their explicit-gpuArray versions (``gpu = 1``) do: the same fused kernels,
dispatches and downloads, no more uploads; and they print what the CPU run
prints (within the workload's tolerance: the device draws its own random
numbers). Thresholds are lowered through the options object so that test
sizes offload. Runs on every fusing provider under test (wgpu on lavapipe
in CI: ``MATFUSE_TEST_PROVIDERS=inprocess,wgpu``; cuda on the GPU machine).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

from matfuse.accelerate.fusion.executor import STATS, fusion_enabled
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.planner import offload
from matfuse.runtime.values import AUTO_OFFLOADED, DeviceValue
from matfuse.vm.session import Session

from benchmarks.workloads import workload_by_name

ROOT = Path(__file__).resolve().parents[3]
# (workload, small parameters, a variable the script leaves on the device)
SCRIPTS = [
    ("montecarlo", {"M": 4096.0, "T": 8.0}, "S"),
    ("elementwise", {"n": 5000.0}, "y2"),
    ("imagenorm", {"B": 2.0, "H": 32.0, "W": 32.0}, "out"),
]
LOW = {f"threshold_{c}": 1000 for c in ("elementwise", "reduction", "construction", "matmul")}
CHECKSUM = re.compile(r"checksum\s+(\S+)")


@pytest.fixture
def planner_on(device):
    """Auto-offload active on the provider under test with thresholds of 1000."""
    if not fusion_enabled(device):
        pytest.skip(f"{device.name} does not fuse (the gpuArray path is eager there)")
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    planner = offload.activate(device, options=options)
    try:
        yield planner
    finally:
        offload.reset()


def run_script(name: str, params: dict[str, float], gpu: int, p, tail: str = "") -> dict:
    """Output, device counters and session of one run of workload ``name``."""
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    for key, value in params.items():
        session.set(key, value)
    session.set("gpu", float(gpu))
    p.synchronize()
    p.reset_telemetry()
    kernels = STATS.kernels
    session.run_file(str(ROOT / "benchmarks" / name / f"{name}.m"))
    p.synchronize()
    counters = p.telemetry()
    result = {"kernels": STATS.kernels - kernels,
              "dispatches": counters.get("dispatches", 0),
              "uploads": counters.get("uploads", 0),
              "downloads": counters.get("downloads", 0),
              "session": session}
    if tail:
        session.eval(tail)
    result["output"] = out.getvalue()
    return result


def checksum(text: str) -> float:
    match = CHECKSUM.search(text)
    assert match, text
    return float(match.group(1))


@pytest.mark.parametrize("name,params,kept", SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_plain_script_makes_the_gpuarray_versions_kernels(name, params, kept, device, planner_on):
    explicit = run_script(name, params, 1, device)
    plain = run_script(name, params, 0, device)
    counts = {k: (plain[k], explicit[k]) for k in ("kernels", "dispatches", "uploads", "downloads")}
    assert plain["kernels"] == explicit["kernels"] > 0, counts
    assert plain["dispatches"] == explicit["dispatches"], counts
    assert plain["downloads"] == explicit["downloads"] == 1, counts
    assert plain["uploads"] <= explicit["uploads"], counts
    value = plain["session"].interp.base[kept]
    assert isinstance(value, DeviceValue) and value in AUTO_OFFLOADED
    assert planner_on.log.counts[("cpu", "below-threshold")] == 0


@pytest.mark.parametrize("name,params,kept", SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_plain_script_prints_what_the_cpu_run_prints(name, params, kept, device, planner_on):
    tail = f"fprintf('%s %d %d\\n', class({kept}), isgpuarray({kept}), numel({kept}));"
    if name == "elementwise":   # deterministic: the display itself must match
        tail += " disp(x(1:4)); disp(class(s))"
    offloaded = run_script(name, params, 0, device, tail)["output"]
    offload.deactivate()
    on_cpu = run_script(name, params, 0, device, tail)["output"]
    tolerance = workload_by_name(name).tolerance(params)
    assert checksum(offloaded) == pytest.approx(checksum(on_cpu), rel=tolerance)
    assert offloaded.splitlines()[1:] == on_cpu.splitlines()[1:]
    assert "gpuArray" not in offloaded


def test_fusion_context_counts_the_pending_group(device, planner_on):
    from matfuse.accelerate.planner.fusion_context import hidden_operands, lazy_group_size

    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    session.eval("a = ones(2000, 1, 'single'); b = a * 2 + 1;")
    a, b = session.interp.base["a"], session.interp.base["b"]
    assert lazy_group_size("exp", [a]) == 2          # the fill, then exp
    # fill, the scalars, *, + (the graph's pending nodes), then plus
    assert lazy_group_size("plus", [b, 1.0]) == 1 + b.node.cost >= 4
    assert hidden_operands([b, 1.0]) == (False, 2000 * 4)
    session.eval("c = sum(b); disp(c)")
    assert out.getvalue().split() == ["6000"]
    b.materialize()
    assert hidden_operands([b]) == (True, 0)
    assert lazy_group_size("exp", [b]) == 1


def test_seeded_programs_get_the_cpu_random_numbers(device, planner_on):
    code = "rng(5); r = rand(3000, 1); v = r(17);"
    on = Session(stdout=io.StringIO())
    on.eval(code)
    assert on.interp.base["r"] in AUTO_OFFLOADED
    offload.deactivate()
    off = Session(stdout=io.StringIO())
    off.eval(code)
    assert on.get("v") == off.get("v")


def test_explain_shows_each_operation_under_its_statement(device, planner_on):
    from matfuse.accelerate.planner.explain import explain_report

    offload.enable_explain(True)
    try:
        run_script("montecarlo", {"M": 4096.0, "T": 4.0}, 0, device)
        report = explain_report(planner_on.log.all, offload.STATE.mode, offload.STATE.note)
    finally:
        offload.enable_explain(False)
    lines = report.splitlines()
    assert lines[0].startswith("auto-offload: active")
    start = lines.index("line 12: S = S0 * ones(M, 1, 'single');")
    assert lines[start + 1].split() == ["ones", "->", "gpu", "fused-generator", "4096", "elements"]
    assert lines[start + 2].split()[:4] == ["*", "->", "gpu", "fusion"]
    assert "line 18: Z = randn(M, 1, 'single');" in lines
    assert any(line.split()[:4] == ["mean", "->", "gpu", "fusion"] for line in lines)
    assert "reasons:" in lines and not any("-> cpu  below-threshold" in line for line in lines)


def test_small_writes_into_a_preallocated_array_run_on_the_host(device, planner_on):
    code = ("A = zeros(100, 30); for i = 1:30, A(i, i) = i; end; A(3, :) = [];"
            "fprintf('%s %d %g %g\\n', class(A), isgpuarray(A), sum(A(:)), A(4, 5));")
    device.synchronize()
    device.reset_telemetry()
    out = io.StringIO()
    Session(stdout=out).eval(code)
    telemetry = device.telemetry()
    assert telemetry.get("uploads", 0) <= 1        # at most sum's input
    # the first write runs on the device; the second brings A to the host once
    assert telemetry.get("downloads", 0) <= 2
    assert planner_on.log.counts[("cpu", "indexed-write")] == 1
    offload.deactivate()
    expected = io.StringIO()
    Session(stdout=expected).eval(code)
    assert out.getvalue() == expected.getvalue() == "double 0 462 5\n"


def test_one_write_into_a_preallocated_array_stays_on_the_device(device, planner_on):
    """``U = zeros(n); U(k, k) = 1;`` then device work: the write is one
    scatter on the device; the zeros are never made on the host and uploaded."""
    code = ("U = zeros(100, 30); U(50, 15) = 100; V = U * 2 + 1; "
            "fprintf('%g %g\\n', sum(V(:)), V(50, 15));")
    device.synchronize()
    device.reset_telemetry()
    out = io.StringIO()
    session = Session(stdout=out)
    session.eval(code)
    assert device.telemetry().get("uploads", 0) == 0
    assert planner_on.log.counts[("cpu", "indexed-write")] == 0
    assert isinstance(session.interp.base["U"], DeviceValue)
    assert out.getvalue() == "3200 201\n"


def test_writes_into_computed_device_values_stay_on_the_device(device, planner_on):
    out = io.StringIO()
    session = Session(stdout=out)
    # sum's kernel writes A (read again later): A has a device buffer now.
    session.eval("A = ones(100, 30) * 2; s = sum(A(:)); A(5) = 7; disp(sum(A(:)))")
    assert isinstance(session.interp.base["A"], DeviceValue)
    assert planner_on.log.counts[("cpu", "indexed-write")] == 0
    assert out.getvalue().split() == ["6005"]


def test_statistics_and_signal_builtins_offload(device, planner_on):
    """zscore/cov/histcounts/filter/conv2 have device routes: in a plain
    script the planner sends them to the device (they were host-only: the
    stats script ran 120x slower plain than with gpuArray on the H100), and
    the output is the CPU run's."""
    code = ("rng(7); X = rand(4000, 4) - 0.5; Z = zscore(X); C = cov(Z); "
            "counts = histcounts(Z(:), linspace(-4, 4, 17)); "
            "Y = filter([0.25 0.5 0.25], 1, X); W = conv2(Y, [0.25; 0.5; 0.25], 'same'); "
            "fprintf('%.12e %.12e %d %.12e\\n', sum(C(:)), sum(Z(:).^2), sum(counts .* (1:16)), sum(W(:)));")
    outputs = []
    for active in (True, False):
        if active:
            offload.enable_explain(True)
        out = io.StringIO()
        try:
            Session(stdout=out, stderr=io.StringIO()).eval(code)
            if active:
                decisions = {(d.builtin, d.target) for d in planner_on.log.all}
        finally:
            offload.enable_explain(False)
            if active:
                offload.reset()
        outputs.append([float(v) for v in out.getvalue().split()])
    for builtin in ("zscore", "cov", "histcounts", "filter", "conv2"):
        assert (builtin, "gpu") in decisions and (builtin, "cpu") not in decisions, builtin
    np.testing.assert_allclose(outputs[0], outputs[1], rtol=1e-9)
