"""``matfuse --stats-json PATH`` writes the run's acceleration counters."""

import json
import subprocess
import sys


def test_stats_json_written(tmp_path):
    out = tmp_path / "stats.json"
    proc = subprocess.run(
        [sys.executable, "-m", "matfuse", "--provider", "inprocess", "--stats-json", str(out),
         "-e", "x = gpuArray(1:4); disp(gather(sum(x .* 2)))"],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "20"
    data = json.loads(out.read_text())
    assert data["provider"].startswith("inprocess")
    assert data["telemetry"]["dispatches"] >= 1
    assert set(data["fusion"]) >= {"kernels", "fused_groups", "bytes_read", "bytes_written"}
    assert data["host_fallbacks"] >= 0
