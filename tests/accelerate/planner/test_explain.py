"""The ``--explain`` report: a header per statement, one line per operation."""

from __future__ import annotations

from matfuse.accelerate.planner.decisions import Decision
from matfuse.accelerate.planner.explain import explain_lines, explain_report


def test_operations_are_grouped_under_their_statement_and_counted():
    decisions = [
        Decision("gpu", "fused-generator", "randn", "construction", 100, 4, "Z = randn(100, 1);"),
        Decision("gpu", "fusion", ".*", "elementwise", 100, 5, "S = S .* Z;"),
        Decision("gpu", "fused-generator", "randn", "construction", 100, 4, "Z = randn(100, 1);"),
        Decision("gpu", "fusion", ".*", "elementwise", 100, 5, "S = S .* Z;"),
        Decision("cpu", "host-only", "gather", None, 1, 7, ""),
    ]
    assert explain_lines(decisions) == [
        "line 4: Z = randn(100, 1);",
        "  randn  -> gpu  fused-generator     100 elements  x2",
        "line 5: S = S .* Z;",
        "  .*     -> gpu  fusion              100 elements  x2",
        "line 7:",
        "  gather -> cpu  host-only           1 elements",
    ]
    report = explain_report(decisions, "active", "active on cuda").splitlines()
    assert report[0] == "auto-offload: active (active on cuda)"
    assert report[report.index("reasons:") + 1:] == [
        "  fusion: joins a lazy fused kernel (its operands are pending device work)",
        "  fused-generator: created inside its consumer's kernel (no buffer, no transfer)",
        "  host-only: no device implementation: device operands are downloaded",
        "  xN: decided N times (loop iterations replayed by loop fusion are not decided again)",
    ]


def test_no_decisions_says_where_the_work_ran():
    assert explain_report([], "off", "no GPU device found") == \
        "auto-offload: off (no GPU device found)\nevery array operation ran on the CPU\n"


def test_every_host_fallback_names_its_reason(tmp_path, capsys):
    from matfuse.accelerate.planner import offload
    from matfuse.cli.main import main

    script = tmp_path / "fallbacks.m"
    script.write_text("G = gpuArray(reshape(1:12, 3, 4));\n"
                      "a = eps(G(:, 1:3));\n"
                      "b = G(2:3, :);\n"
                      "try, c = G + {1}; catch, end\n")
    try:
        assert main(["--provider", "inprocess", "--explain", str(script)]) == 0
    finally:
        offload.enable_explain(False)
        offload.reset()
    err = capsys.readouterr().err.splitlines()
    start = err.index("host fallbacks (device data computed on the host):")
    lines = err[start + 1:]
    assert lines[0] == "  line 2: eps  (a = eps(G(:, 1:3));)"
    assert lines[1] == "    why: no device path for eps(gpuArray double 3x3)"
    assert lines[2] == "  line 4: binary:plus  (try, c = G + {1}; catch, end)"
    assert lines[3] == "    why: no device path for gpuArray double 3x4 + cell 1x1"
    assert all(line.startswith("    why: ") for line in lines[1::2])
    assert len(lines) == 4   # the indexing of line 3 stays on the device


def test_fallbacks_without_their_own_reason_get_a_default():
    from matfuse.accelerate.planner.explain import fallback_lines

    out = fallback_lines([(3, "x = f(g);", "fusion", ""), (4, "", "somehook", "")])
    assert out[2].startswith("    why: the device refused a fused kernel")
    assert out[4] == "    why: no device path for this form of somehook"
