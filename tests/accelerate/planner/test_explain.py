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
