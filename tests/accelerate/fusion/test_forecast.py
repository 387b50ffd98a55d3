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
import os

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


_CUDA: list = []


@pytest.fixture(scope="module")
def fake_cuda_provider(tmp_path_factory):
    """The CUDA provider on the NumPy-backed fake CuPy, kernels run through
    g++ (``tests/accelerate/providers/fake_cupy.py``): the forecast code on
    the CUDA provider's launch path where no GPU exists (CI)."""
    from tests.accelerate import cuda_host
    from tests.accelerate.providers import fake_cupy

    if not cuda_host.gxx_available():
        pytest.skip("no CUDA provider and no g++ for the fake one")
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("forecast_fake_cuda")))


@pytest.fixture(params=["wgpu", "cuda"])
def gpu(request):
    """The wgpu device (lavapipe in CI) and the CUDA provider: the real one
    where CuPy and a GPU answer, else the fake-CuPy one (CI has no GPU)."""
    if request.param == "wgpu":
        return request.getfixturevalue("wgpu_provider")
    from matfuse.accelerate.facade import ProviderUnavailable, _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions

    if not _CUDA:
        try:
            _CUDA.append(_load_backend("cuda", AccelerateInitOptions(provider="cuda"), False))
        except ProviderUnavailable as why:
            _CUDA.append(why)
    if isinstance(_CUDA[0], ProviderUnavailable):
        return request.getfixturevalue("fake_cuda_provider")
    return _CUDA[0]


@pytest.fixture()
def forecast_option(monkeypatch):
    """Set the forecast option for the code run in the test."""
    def set_forecast(on: bool | str) -> None:
        # True = "force" (wgpu, CI's device, is not forecast by default);
        # "default" = the option's default, True
        value = {True: "force", "default": True}.get(on, on)
        options = dataclasses.replace(current_options(), forecast=value)
        monkeypatch.setattr(executor_module, "current_options", lambda: options)
    return set_forecast


def counters() -> dict[str, int]:
    return {k: v for k, v in STATS.as_dict().items() if k.startswith("forecast") or k == "kernels"}


def run_script(provider, path, runs: list[dict[str, float]],
               edits: dict[int, str] | None = None) -> tuple[list[str], list[dict[str, int]]]:
    """Run the script file once per entry of ``runs`` (its variables), in one
    session: the printed text and the counters' increments of each run.
    ``edits``: the file's new text before the runs it names (its mtime moved
    on, as an editor's save does)."""
    texts, deltas = [], []
    with override_provider(provider):
        out = io.StringIO()
        session = Session(stdout=out)
        session.eval("gpurng(0);")   # both ways draw the same numbers
        for k, variables in enumerate(runs):
            if edits and k in edits:
                path.write_text(edits[k], encoding="utf-8")
                stamp = os.stat(path).st_mtime + 10 * (k + 1)
                os.utime(path, (stamp, stamp))
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


def test_repeated_script_adopts_its_forecast(gpu, forecast_option, tmp_path):
    path = script(tmp_path, CHAIN)
    gc.collect()
    live = gpu.live_buffers()
    deltas = both_ways(gpu, forecast_option, path, [{"n": 1e4}] * 4)
    # The run after the launch plan's recording records the forecast (run 1
    # or 2: the run without forecasts may have recorded the plan); runs 3 and
    # 4 adopt it: the same two kernels (partial and final pass), none twice.
    assert [d["forecast_hits"] for d in deltas][2:] == [1, 1]
    assert [d["forecast_misses"] for d in deltas] == [0, 0, 0, 0]
    assert [d["kernels"] for d in deltas] == [2, 2, 2, 2]
    assert gpu.live_buffers() == live


def test_changed_values_miss_and_free_the_forecast(gpu, forecast_option, tmp_path):
    path = script(tmp_path, CHAIN)
    gc.collect()
    live = gpu.live_buffers()
    runs = [{"n": 1e4}, {"n": 1e4}, {"n": 2e4}, {"n": 2e4}, {"n": 2e4}]
    deltas = both_ways(gpu, forecast_option, path, runs)
    assert deltas[2]["forecast_misses"] == 1 and deltas[2]["forecast_hits"] == 0
    assert deltas[2]["kernels"] == 4          # the wrong forecast, then the real pair
    assert deltas[4]["forecast_hits"] == 1
    assert gpu.live_buffers() == live


def test_two_misses_in_a_row_stop_forecasting(gpu, forecast_option, tmp_path):
    path = script(tmp_path, CHAIN)
    runs = [{"n": 1e4}, {"n": 1e4}, {"n": 2e4}, {"n": 3e4}, {"n": 4e4}, {"n": 4e4}, {"n": 4e4}]
    deltas = both_ways(gpu, forecast_option, path, runs)
    assert [d["forecast_misses"] for d in deltas] == [0, 0, 1, 1, 0, 0, 0]
    assert sum(d["forecast_launches"] for d in deltas[4:]) == 0


def test_error_before_the_force_frees_the_forecast(gpu, forecast_option, tmp_path):
    text = CHAIN.replace("s = sum(y2);", "s = sum(y2);\nif fail, error('my:id', 'stopped'); end")
    path = script(tmp_path, text)
    gc.collect()
    live = gpu.live_buffers()
    runs = [{"n": 1e4, "fail": 0.0}] * 2 + [{"n": 1e4, "fail": 1.0}, {"n": 1e4, "fail": 0.0}]
    deltas = both_ways(gpu, forecast_option, path, runs)
    assert deltas[2]["forecast_launches"] == 2 and deltas[2]["forecast_misses"] == 1
    assert gpu.live_buffers() == live


def test_random_counters_move_on_with_the_stream(gpu, forecast_option, tmp_path):
    """Each run draws new numbers: the forecast's counters are moved on by
    what the stream advanced since the recorded run, so it still hits."""
    text = "z = rand(1, n, 'single', 'gpuArray') * 2 + 1;\nfprintf('%.6f\\n', gather(sum(z > 1.5)));\n"
    path = script(tmp_path, text)
    deltas = both_ways(gpu, forecast_option, path, [{"n": 1e4}] * 4)
    assert [d["forecast_hits"] for d in deltas][2:] == [1, 1]
    assert sum(d["forecast_misses"] for d in deltas) == 0


def test_image_normalisation_script(gpu, forecast_option, tmp_path):
    """The benchmark's image script (random images, reductions over two
    dimensions, an epilogue, a mean of everything): six kernels in its
    first forced graph, all forecast."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "benchmarks" / "imagenorm" / "imagenorm.m").read_text()
    path = script(tmp_path, text, "imagenorm.m")
    gc.collect()
    live = gpu.live_buffers()
    runs = [{"B": 2.0, "H": 16.0, "W": 24.0, "gpu": 1.0}] * 4
    deltas = both_ways(gpu, forecast_option, path, runs)
    assert [d["forecast_hits"] for d in deltas][2:] == [1, 1]
    assert deltas[3]["kernels"] == deltas[0]["kernels"]
    assert gpu.live_buffers() == live


def test_other_stream_position_misses(gpu, forecast_option, tmp_path):
    """A script that draws a different amount before its force than last
    run: the moved-on counters are wrong, the forecast misses, results are
    the same as without forecasts."""
    text = ("if extra, w = rand(1, 7, 'gpuArray'); end\n"
            "z = rand(1, n, 'single', 'gpuArray');\nfprintf('%.6f\\n', gather(sum(z)));\n")
    path = script(tmp_path, text)
    runs = [{"n": 1e3, "extra": 0.0}] * 3 + [{"n": 1e3, "extra": 1.0}, {"n": 1e3, "extra": 0.0}]
    deltas = both_ways(gpu, forecast_option, path, runs)
    assert deltas[2]["forecast_hits"] == 1
    assert deltas[4]["forecast_misses"] == 1


def test_graphs_reading_buffers_are_not_forecast(gpu, forecast_option, tmp_path):
    text = "a = gpuArray(1:n);\nb = sum(a .* 2);\nfprintf('%g\\n', gather(b));\n"
    path = script(tmp_path, text)
    deltas = both_ways(gpu, forecast_option, path, [{"n": 1e3}] * 4)
    assert sum(d["forecast_launches"] for d in deltas) == 0


def test_nested_scripts_watch_the_outer_one(gpu, forecast_option, tmp_path):
    script(tmp_path, "n2 = n * 2;\n", "inner.m")
    outer = script(tmp_path, f"run('{tmp_path / 'inner.m'}');\n" + CHAIN.replace("n)", "n2)"), "outer.m")
    deltas = both_ways(gpu, forecast_option, outer, [{"n": 5e3}] * 3)
    assert deltas[2]["forecast_hits"] == 1


def test_print_of_a_lazy_value_and_later_reads(gpu, forecast_option, tmp_path):
    """The first forced graph is a display; the adopted buffers then serve
    later statements (y2 kept because it is read again)."""
    text = ("x = linspace(gpuArray(0), 1, n);\ny2 = x .^ 2 + 1;\nm = max(y2)\n"
            "fprintf('%.6f %.6f\\n', gather(sum(y2)), gather(y2(end)));\n")
    path = script(tmp_path, text)
    gc.collect()
    live = gpu.live_buffers()
    deltas = both_ways(gpu, forecast_option, path, [{"n": 7e3}] * 4)
    assert deltas[3]["forecast_hits"] == 1
    assert gpu.live_buffers() == live


def test_repeated_eval_text_is_a_site(gpu, forecast_option):
    """``Session.eval`` of the same text (REPL lines, Python callers) is
    forecast like a script file."""
    code = "x = linspace(gpuArray(0), 2, 5000); fprintf('%.6f\\n', gather(sum(exp(-x / 3))));"
    texts = {}
    for on in (False, True):
        forecast_option(on)
        with override_provider(gpu):
            out = io.StringIO()
            session = Session(stdout=out)
            before = counters()
            for _ in range(4):
                session.eval(code)
            texts[on] = out.getvalue()
            hits = counters()["forecast_hits"] - before["forecast_hits"]
        del session
        gc.collect()
    assert texts[True] == texts[False]
    assert hits == 2


def test_default_option_forecasts_only_where_launches_start_at_once(gpu, forecast_option, tmp_path):
    """``forecast=True`` (the default) forecasts on CUDA, whose launches
    start at once, and not on wgpu, which batches them into submits (a
    forecast there costs one more submit: slower on the H100)."""
    path = script(tmp_path, CHAIN)
    forecast_option(False)
    run_script(gpu, path, [{"n": 1e4}])
    forecast_option("default")
    _, deltas = run_script(gpu, path, [{"n": 1e4}] * 3)
    launches = sum(d["forecast_launches"] for d in deltas)
    assert (launches > 0) == gpu.starts_work_at_launch


def test_device_reset_before_the_force_discards_the_forecast(gpu, forecast_option, tmp_path):
    """``reset(gpuDevice)`` frees every buffer, the forecast's too: the run
    must not adopt them."""
    text = "if r, reset(gpuDevice); end\n" + CHAIN
    path = script(tmp_path, text)
    runs = [{"n": 1e4, "r": 0.0}] * 3 + [{"n": 1e4, "r": 1.0}, {"n": 1e4, "r": 0.0}]
    deltas = both_ways(gpu, forecast_option, path, runs)
    assert deltas[2]["forecast_hits"] == 1
    assert deltas[3]["forecast_hits"] == 0 and deltas[3]["forecast_misses"] == 1


def test_memory_release_frees_the_forecast_in_flight(gpu, forecast_option, tmp_path, monkeypatch):
    """Out of memory between the entry and the force: ``release_memory``
    (which the CUDA provider's hooks call before failing) gives the
    forecast's buffers back; the run then computes its graph normally."""
    from matfuse.accelerate.fusion import forecast
    from matfuse.accelerate_api import release_memory

    path = script(tmp_path, CHAIN)
    released = []
    original = forecast.LaunchForecasts.first_graph

    def first_graph(self, key, plan, nodes):
        if self._pending is not None:
            released.append(release_memory(self.executor.provider))
            assert not release_memory(self.executor.provider)   # nothing left
        return original(self, key, plan, nodes)

    monkeypatch.setattr(forecast.LaunchForecasts, "first_graph", first_graph)
    gc.collect()
    live = gpu.live_buffers()
    deltas = both_ways(gpu, forecast_option, path, [{"n": 1e4}] * 4)
    assert released and all(released)
    assert sum(d["forecast_hits"] for d in deltas) == 0
    assert sum(d["forecast_misses"] for d in deltas) == len(released)
    assert gpu.live_buffers() == live


def test_run_file_launches_before_the_file_is_checked(gpu, forecast_option, tmp_path, monkeypatch):
    """``Session.run_file`` starts the forecast before the command's
    freshness check and the file's load, and the script's entry keeps it."""
    from matfuse.vm.interpreter import Interpreter

    path = script(tmp_path, CHAIN)
    at_command: list[int] = []
    at_check: list[int] = []
    original_check = Interpreter.begin_command
    original_command = Interpreter.run_file_command

    def begin_command(self):
        at_check.append(STATS.forecast_launches)
        return original_check(self)

    def run_file_command(self, file):
        at_command.append(STATS.forecast_launches)
        at_check.clear()
        return original_command(self, file)

    forecast_option(True)
    monkeypatch.setattr(Interpreter, "begin_command", begin_command)
    monkeypatch.setattr(Interpreter, "run_file_command", run_file_command)
    gc.collect()
    live = gpu.live_buffers()
    texts, deltas = run_script(gpu, path, [{"n": 1e4}] * 4)
    assert [d["forecast_hits"] for d in deltas][2:] == [1, 1]
    assert [d["forecast_launches"] for d in deltas][2:] == [2, 2]
    assert [d["forecast_misses"] for d in deltas] == [0, 0, 0, 0]
    # run 4's two kernels were launched between its command's start and its check
    assert at_check[0] - at_command[3] == 2
    assert len(set(texts)) == 1
    assert gpu.live_buffers() == live


def test_edited_file_frees_the_early_forecast(gpu, forecast_option, tmp_path):
    """The file changed since its last run: the forecast launched for the
    old script is freed at the new script's entry, and the run prints what
    the edited script computes."""
    path = script(tmp_path, CHAIN)
    edited = CHAIN.replace("0.1 * y1", "0.2 * y1")
    forecast_option(False)
    plain, _ = run_script(gpu, path, [{"n": 1e4}] * 5, {3: edited})
    path.write_text(CHAIN, encoding="utf-8")
    forecast_option(True)
    gc.collect()
    live = gpu.live_buffers()
    texts, deltas = run_script(gpu, path, [{"n": 1e4}] * 5, {3: edited})
    assert texts == plain and plain[3] != plain[2]
    assert deltas[2]["forecast_hits"] == 1
    assert deltas[3]["forecast_misses"] == 1 and deltas[3]["forecast_hits"] == 0
    assert gpu.live_buffers() == live


def test_file_that_fails_to_load_frees_the_early_forecast(gpu, forecast_option, tmp_path):
    path = script(tmp_path, CHAIN)
    forecast_option(True)
    gc.collect()
    live = gpu.live_buffers()
    texts, deltas = run_script(gpu, path, [{"n": 1e4}] * 5, {3: "x = (1 + ;\n", 4: CHAIN})
    assert texts[3].startswith("error: ")
    assert deltas[3]["forecast_launches"] == 2 and deltas[3]["forecast_misses"] == 1
    assert texts[4] == texts[2]
    assert gpu.live_buffers() == live


def test_two_sessions_running_one_file_keep_their_forecasts(gpu, forecast_option, tmp_path):
    """Each interpreter compiles its own script from the file: an early
    start is keyed by (interpreter, file), so sessions taking turns do not
    launch each other's forecasts."""
    path = script(tmp_path, CHAIN)
    forecast_option(True)
    gc.collect()
    live = gpu.live_buffers()
    deltas = []
    with override_provider(gpu):
        outs = [io.StringIO(), io.StringIO()]
        sessions = [Session(stdout=out) for out in outs]
        for _ in range(4):
            for session in sessions:
                session.eval("clear")
                session.set("n", 1e4)
                before = counters()
                session.run_file(str(path))
                after = counters()
                deltas.append({key: after[key] - before[key] for key in after})
        texts = {out.getvalue() for out in outs}
        for session in sessions:
            session.eval("clear")
    del sessions, session
    gc.collect()
    assert len(texts) == 1
    assert sum(d["forecast_misses"] for d in deltas) == 0
    assert [d["forecast_hits"] for d in deltas][4:] == [1, 1, 1, 1]
    assert [d["kernels"] for d in deltas][4:] == [2, 2, 2, 2]
    assert gpu.live_buffers() == live
