"""Launch forecasts (``fusion/forecast.py``): a script's first forced graph
launched at the script's entry from the last run's bindings, adopted when the
run binds the same kernels and freed otherwise.

Scripts run as files (``run_file``: forecasts watch scripts) several times in
one session on the wgpu device (lavapipe in CI), with forecasts on and off:
printed output must be identical, buffers must not leak, and the runs that
should adopt a forecast must have adopted it.
"""

from __future__ import annotations

import dataclasses
import gc
import io

import pytest

from matfuse.accelerate.facade import current_options
from matfuse.accelerate.fusion import executor as executor_module
from matfuse.accelerate.fusion.executor import STATS
from matfuse.accelerate_api import override_provider
from matfuse.errors import MatlabError
from matfuse.vm.session import Session

CHAIN = """x = single(linspace(gpuArray(0), 4*pi, n));
y0 = sin(x) .* exp(-x / 10);
y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2;
y2 = tanh(y1) + 0.1 * y1;
s = sum(y2);
fprintf('%.6e\\n', gather(s));
"""


@pytest.fixture()
def forecast_option(monkeypatch):
    """Set the forecast option for the code run in the test."""
    def set_forecast(on: bool) -> None:
        options = dataclasses.replace(current_options(), forecast=on)
        monkeypatch.setattr(executor_module, "current_options", lambda: options)
    return set_forecast


def counters() -> dict[str, int]:
    return {k: v for k, v in STATS.as_dict().items() if k.startswith("forecast") or k == "kernels"}


def run_script(provider, path, runs: list[dict[str, float]]) -> tuple[list[str], list[dict[str, int]]]:
    """Run the script file once per entry of ``runs`` (its variables), in one
    session: the printed text and the counters' increments of each run."""
    texts, deltas = [], []
    with override_provider(provider):
        out = io.StringIO()
        session = Session(stdout=out)
        for variables in runs:
            out.seek(0)
            out.truncate()
            session.eval("clear")
            for name, value in variables.items():
                session.set(name, value)
            before = counters()
            try:
                session.run_file(str(path))
            except MatlabError as err:
                out.write(f"error: {err.message}\n")
            after = counters()
            texts.append(out.getvalue())
            deltas.append({k: after[k] - before[k] for k in after})
        session.eval("clear")
    del session
    gc.collect()
    return texts, deltas


def both_ways(provider, forecast_option, path, runs):
    forecast_option(False)
    plain, plain_deltas = run_script(provider, path, runs)
    assert all(d["forecast_launches"] == 0 for d in plain_deltas)
    forecast_option(True)
    forecast, deltas = run_script(provider, path, runs)
    assert forecast == plain
    return deltas


def script(tmp_path, text: str, name: str = "chain.m"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_repeated_script_adopts_its_forecast(wgpu_provider, forecast_option, tmp_path):
    path = script(tmp_path, CHAIN)
    gc.collect()
    live = wgpu_provider.live_buffers()
    deltas = both_ways(wgpu_provider, forecast_option, path, [{"n": 1e4}] * 4)
    # The run after the launch plan's recording records the forecast (run 1
    # or 2: the run without forecasts may have recorded the plan); runs 3 and
    # 4 adopt it: the same two kernels (partial and final pass), none twice.
    assert [d["forecast_hits"] for d in deltas][2:] == [1, 1]
    assert [d["forecast_misses"] for d in deltas] == [0, 0, 0, 0]
    assert [d["kernels"] for d in deltas] == [2, 2, 2, 2]
    assert wgpu_provider.live_buffers() == live


def test_changed_values_miss_and_free_the_forecast(wgpu_provider, forecast_option, tmp_path):
    path = script(tmp_path, CHAIN)
    gc.collect()
    live = wgpu_provider.live_buffers()
    runs = [{"n": 1e4}, {"n": 1e4}, {"n": 2e4}, {"n": 2e4}, {"n": 2e4}]
    deltas = both_ways(wgpu_provider, forecast_option, path, runs)
    assert deltas[2]["forecast_misses"] == 1 and deltas[2]["forecast_hits"] == 0
    assert deltas[2]["kernels"] == 4          # the wrong forecast, then the real pair
    assert deltas[4]["forecast_hits"] == 1
    assert wgpu_provider.live_buffers() == live


def test_two_misses_in_a_row_stop_forecasting(wgpu_provider, forecast_option, tmp_path):
    path = script(tmp_path, CHAIN)
    runs = [{"n": 1e4}, {"n": 1e4}, {"n": 2e4}, {"n": 3e4}, {"n": 4e4}, {"n": 4e4}, {"n": 4e4}]
    deltas = both_ways(wgpu_provider, forecast_option, path, runs)
    assert [d["forecast_misses"] for d in deltas] == [0, 0, 1, 1, 0, 0, 0]
    assert sum(d["forecast_launches"] for d in deltas[4:]) == 0


def test_error_before_the_force_frees_the_forecast(wgpu_provider, forecast_option, tmp_path):
    text = CHAIN.replace("s = sum(y2);", "s = sum(y2);\nif fail, error('my:id', 'stopped'); end")
    path = script(tmp_path, text)
    gc.collect()
    live = wgpu_provider.live_buffers()
    runs = [{"n": 1e4, "fail": 0.0}] * 2 + [{"n": 1e4, "fail": 1.0}, {"n": 1e4, "fail": 0.0}]
    deltas = both_ways(wgpu_provider, forecast_option, path, runs)
    assert deltas[2]["forecast_launches"] == 2 and deltas[2]["forecast_misses"] == 1
    assert wgpu_provider.live_buffers() == live


def test_random_graphs_are_not_forecast(wgpu_provider, forecast_option, tmp_path):
    text = "z = rand(1, n, 'single', 'gpuArray') * 2 + 1;\nfprintf('%.4f\\n', gather(sum(z > 1.5)));\n"
    path = script(tmp_path, text)
    forecast_option(True)
    _, deltas = run_script(wgpu_provider, path, [{"n": 1e4}] * 4)
    assert sum(d["forecast_launches"] for d in deltas) == 0


def test_graphs_reading_buffers_are_not_forecast(wgpu_provider, forecast_option, tmp_path):
    text = "a = gpuArray(1:n);\nb = sum(a .* 2);\nfprintf('%g\\n', gather(b));\n"
    path = script(tmp_path, text)
    deltas = both_ways(wgpu_provider, forecast_option, path, [{"n": 1e3}] * 4)
    assert sum(d["forecast_launches"] for d in deltas) == 0


def test_nested_scripts_watch_the_outer_one(wgpu_provider, forecast_option, tmp_path):
    script(tmp_path, "n2 = n * 2;\n", "inner.m")
    outer = script(tmp_path, f"run('{tmp_path / 'inner.m'}');\n" + CHAIN.replace("n)", "n2)"), "outer.m")
    deltas = both_ways(wgpu_provider, forecast_option, outer, [{"n": 5e3}] * 3)
    assert deltas[2]["forecast_hits"] == 1


def test_print_of_a_lazy_value_and_later_reads(wgpu_provider, forecast_option, tmp_path):
    """The first forced graph is a display; the adopted buffers then serve
    later statements (y2 kept because it is read again)."""
    text = ("x = linspace(gpuArray(0), 1, n);\ny2 = x .^ 2 + 1;\nm = max(y2)\n"
            "fprintf('%.6f %.6f\\n', gather(sum(y2)), gather(y2(end)));\n")
    path = script(tmp_path, text)
    gc.collect()
    live = wgpu_provider.live_buffers()
    deltas = both_ways(wgpu_provider, forecast_option, path, [{"n": 7e3}] * 4)
    assert deltas[3]["forecast_hits"] == 1
    assert wgpu_provider.live_buffers() == live
