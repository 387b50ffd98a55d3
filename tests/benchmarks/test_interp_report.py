"""compare_octave.py's report writer replaces only its generated part."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "interp" / "compare_octave.py"


def _module():
    spec = importlib.util.spec_from_file_location("compare_octave", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_hand_written_sections_outside_the_markers_stay(tmp_path):
    co = _module()
    path = tmp_path / "interp.md"
    path.write_text(f"# Title\n\nintro\n\n{co.BEGIN}\nold table\n{co.END}\n\n## Notes\nkept\n")
    co.write_report(path, f"{co.BEGIN}\nnew table\n{co.END}")
    assert path.read_text() == (f"# Title\n\nintro\n\n{co.BEGIN}\nnew table\n{co.END}\n\n"
                                "## Notes\nkept\n")


def test_a_file_without_markers_keeps_its_text_below(tmp_path):
    co = _module()
    path = tmp_path / "interp.md"
    path.write_text("hand-written\n")
    co.write_report(path, f"{co.BEGIN}\nt\n{co.END}")
    assert path.read_text() == f"{co.BEGIN}\nt\n{co.END}\n\nhand-written\n"
    fresh = tmp_path / "new.md"
    co.write_report(fresh, f"{co.BEGIN}\nt\n{co.END}")
    assert fresh.read_text() == f"{co.BEGIN}\nt\n{co.END}\n"


def test_loop_ratio_subtracts_each_sides_start_up():
    co = _module()
    row = co.Row("x", [(1.0, 0.5)], [(1.0, 0.3)], "yes", (0.2, 0.8))
    start = co.Startup.__new__(co.Startup)
    start.mf_cpu, start.oc_cpu = 0.3, 0.1
    assert abs(row.loop_cpu_ratio(start) - 1.0) < 1e-12
    assert abs(row.loop_ratio - 0.25) < 1e-12


def test_the_timed_script_reads_its_seconds_from_stderr(tmp_path, monkeypatch):
    """``loop_seconds`` takes the last number printed on stderr (Octave adds
    its own lines at exit) and the script's stdout."""
    co = _module()
    monkeypatch.setattr(co, "HERE", tmp_path)
    fake = ["python3", "-c", "import sys; print('out'); "
            "sys.stderr.write('0.25\\nnoise at exit\\n')", "--"]
    assert co.loop_seconds(fake, "name") == (0.25, "out")
