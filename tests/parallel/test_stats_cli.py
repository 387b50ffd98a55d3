"""``matfuse --stats`` reports parallel counters when parfor ran."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def test_stats_text_and_json(tmp_path):
    out_json = tmp_path / "stats.json"
    code = "s = 0; parfor i = 1:4, s = s + i; end; disp(s)"
    res = subprocess.run([sys.executable, "-m", "matfuse", "--stats", "--stats-json",
                          str(out_json), "-e", code], capture_output=True, text=True,
                         timeout=180, env=dict(os.environ))
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["10"]
    assert "== matfuse parallel statistics ==" in res.stderr
    assert "parfor loops: 0 on the pool, 1 serial" in res.stderr
    data = json.loads(out_json.read_text())
    assert data["parallel"]["serial_loops"] == 1 and data["parallel"]["iterations"] == 4
