"""Statement replay: a repeated assignment's lazy graph rebuilt from a template.

Every case runs the same MATLAB code several times in one session with
replay on and off (``MATFUSE_STATEMENT_REPLAY``) on the wgpu device
(lavapipe in CI): printed output and values must be identical, and the
replayed run must really have replayed statements.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.accelerate.facade import current_options
from matfuse.accelerate.fusion.executor import STATS
from matfuse.accelerate_api import override_provider
from matfuse.errors import MatlabError
from matfuse.vm.session import Session
from tests.accelerate.fusion.scripts import workload
from tests.golden.test_golden import GOLDEN_ROOT, golden_programs


def replays() -> int:
    return STATS.statement_replays


@pytest.fixture()
def replay_option(monkeypatch):
    """Set the statement_replay option for the code run in the test."""
    import dataclasses

    from matfuse.accelerate import facade

    def set_replay(on: bool) -> None:
        options = dataclasses.replace(current_options(), statement_replay=on)
        monkeypatch.setattr(facade, "current_options", lambda: options)
        from matfuse.accelerate.fusion import stmt_memo

        monkeypatch.setattr(stmt_memo, "current_options", lambda: options)
    return set_replay


def run_repeated(provider, code: str, names: list[str], times: int = 3,
                 setup: str = "") -> tuple[list[str], list[list[np.ndarray]]]:
    """Run ``code`` ``times`` times in one session; the printed text and the
    gathered values of ``names`` after each run."""
    texts, values = [], []
    with override_provider(provider):
        out = io.StringIO()
        session = Session(stdout=out)
        if setup:
            session.eval(setup)
        for _ in range(times):
            out.seek(0)
            out.truncate()
            session.eval(code)
            texts.append(out.getvalue())
            row = []
            for name in names:
                session.eval(f"gathered_ = gather({name});")
                row.append(np.asarray(session.get("gathered_")))
            values.append(row)
    return texts, values


def both_ways(provider, replay_option, code, names, times=3, setup=""):
    replay_option(False)
    plain = run_repeated(provider, code, names, times, setup)
    replay_option(True)
    before = replays()
    replayed = run_repeated(provider, code, names, times, setup)
    return plain, replayed, replays() - before


def assert_identical(plain, replayed) -> None:
    assert plain[0] == replayed[0]
    for row_a, row_b in zip(plain[1], replayed[1]):
        for a, b in zip(row_a, row_b):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("script", [
    workload("elementwise", n=1000.0, gpu=1.0),
    workload("imagenorm", B=2.0, H=16.0, W=8.0, gpu=1.0),
])
def test_benchmark_scripts_replay_identically(wgpu_provider, replay_option, script):
    plain, replayed, count = both_ways(wgpu_provider, replay_option, script,
                                       ["s" if "y2" in script else "mse"], setup="gpurng(0);")
    assert_identical(plain, replayed)
    # Run 2 compiles again (its workspace has variables, which changes how
    # the text parses); run 3 replays every device statement.
    assert count >= 4


def test_random_statements_continue_the_stream(wgpu_provider, replay_option):
    code = "r = rand(3, 4, 'single', 'gpuArray') + 1; z = randn(2, 2, 'gpuArray') .* 2;"
    plain, replayed, count = both_ways(wgpu_provider, replay_option, code, ["r", "z"], times=4,
                                       setup="gpurng(7);")
    assert_identical(plain, replayed)
    assert count == 4     # runs 3 and 4 (run 2 compiles again: see above)
    # Different draws each run: the stream moved on.
    assert not np.array_equal(replayed[1][0][0], replayed[1][1][0])


def test_host_random_scalars_are_not_frozen(wgpu_provider, replay_option):
    code = "y = x * rand + randn;"
    plain, replayed, count = both_ways(wgpu_provider, replay_option, code, ["y"],
                                       setup="rng(4); x = gpuArray(single([1 2 3]));")
    assert_identical(plain, replayed)
    assert count == 0
    assert not np.array_equal(replayed[1][0][0], replayed[1][1][0])


def test_changing_host_scalars_and_shapes(wgpu_provider, replay_option):
    code = "a = a + 1; x = gpuArray(ones(1, 2 + mod(a, 2))); y = x * a + sin(x) ./ a;"
    plain, replayed, count = both_ways(wgpu_provider, replay_option, code, ["y", "x"], times=5,
                                       setup="a = 0;")
    assert_identical(plain, replayed)
    assert [v[0].shape for v in replayed[1]] == [(1, 3), (1, 2), (1, 3), (1, 2), (1, 3)]


def test_loop_under_the_graph_cap(wgpu_provider, replay_option):
    code = "y = gpuArray(single(1:4)); for k = 1:9, y = y .* 1.5 + 0.25; end"
    plain, replayed, count = both_ways(wgpu_provider, replay_option, code, ["y"], times=2)
    assert_identical(plain, replayed)
    assert count >= 9


def test_shape_errors_are_raised_every_time(wgpu_provider, replay_option):
    replay_option(True)
    with override_provider(wgpu_provider):
        session = Session(stdout=io.StringIO())
        session.eval("x = gpuArray(ones(2, 3)); w = gpuArray(ones(3, 2));")
        for _ in range(3):
            with pytest.raises(MatlabError) as err:
                session.eval("y = x + w;")
            assert err.value.identifier == "MATLAB:sizeDimensionsMustMatch"


def test_offloaded_values_stay_invisible(wgpu_provider, replay_option):
    """The auto-offload planner's path (plain arrays moved to the device):
    replayed results stay invisible to the program."""
    from matfuse.accelerate.planner import offload
    from tests.accelerate.planner.conftest import planner_with

    code = ("x = single(linspace(0, 1, 4096)); y = sin(x) .* 2; c = class(y); g = isgpuarray(y);"
            " s = sum(y);")
    offload.activate(wgpu_provider, planner_with(0))
    try:
        plain, replayed, count = both_ways(wgpu_provider, replay_option, code, ["s", "g"])
        with override_provider(wgpu_provider):
            session = Session(stdout=io.StringIO())
            for _ in range(3):
                session.eval(code)
            assert not np.asarray(session.get("g")).any()
            assert "single" in str(session.get("c")) or session.get("c") is not None
    finally:
        offload.reset()
    assert_identical(plain, replayed)
    assert count >= 3


def test_option_is_documented():
    from matfuse.accelerate.options import ENV_VARIABLES

    assert ENV_VARIABLES["MATFUSE_STATEMENT_REPLAY"][0] == "statement_replay"


# Programs whose output depends on state that outlives ``clear`` (globals,
# persistent variables) print differently when run again: left out.
GOLDEN_PROGRAMS = [p for p in golden_programs() if p.parent.name in ("gpu", "language", "runtime")
                   and "persistent" not in p.read_text(encoding="utf-8")
                   and "global" not in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", GOLDEN_PROGRAMS, ids=lambda p: str(p.relative_to(GOLDEN_ROOT)))
def test_goldens_run_three_times_in_one_session(wgpu_provider, path, replay_option):
    """Runs 2 and 3 of a program in one session replay its statements: every
    run must print the expected output."""
    import os

    replay_option(True)
    expected = path.with_suffix(".out").read_text(encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        with override_provider(wgpu_provider):
            session = Session(stdout=out, stderr=err)
            for run in range(3):
                out.seek(0)
                out.truncate()
                session.eval("clear; rng('default'); gpurng('default');")
                try:
                    session.run_file(str(path))
                except MatlabError:
                    if not path.with_suffix(".err").exists():
                        raise
                assert out.getvalue() == expected, f"run {run + 1}"
    finally:
        os.chdir(cwd)


def test_aliased_operands(wgpu_provider, replay_option):
    """Recorded with two names holding one array, replayed with two arrays
    (and the other way round): each name keeps its own value."""
    code = "y = a + 2 * b;"
    setups = ["a = gpuArray([1 2 3]); b = a;", "a = gpuArray([1 2 3]); b = gpuArray([10 20 30]);"]
    replay_option(True)
    with override_provider(wgpu_provider):
        session = Session(stdout=io.StringIO())
        # Every name exists from the start (the statement compiles once) and
        # a lazy value exists (so the first run records).
        session.eval("y = gpuArray(1) * 2; r = 0; ra = 0; rb = 0;")
        for setup in setups + setups:
            session.eval(setup)
            session.eval(code)
            session.eval("r = gather(y); ra = gather(a); rb = gather(b);")
            np.testing.assert_array_equal(np.asarray(session.get("r")),
                                          np.asarray(session.get("ra")) + 2 * np.asarray(session.get("rb")))


def test_keys_hold_the_acceleration_state(wgpu_provider, replay_option, monkeypatch):
    """With the facade initialised (as in every real run), the key holds its
    state object and the planner; both must hash, and a new state (another
    initialisation) records again instead of replaying the old template."""
    from matfuse.accelerate import facade
    from matfuse.accelerate.options import AccelerateInitOptions

    replay_option(True)
    state = facade.AccelerationState(AccelerateInitOptions(provider="wgpu"), wgpu_provider, "test")
    monkeypatch.setattr(facade, "_state", state)
    code = "y = x .* 2 + 1;"
    with override_provider(wgpu_provider):
        session = Session(stdout=io.StringIO())
        session.eval("x = gpuArray(single([1 2 3])); y = x * 3;")
        before = replays()
        for _ in range(3):
            session.eval(code)
        assert replays() - before == 2
        monkeypatch.setattr(facade, "_state", facade.AccelerationState(
            AccelerateInitOptions(provider="wgpu"), wgpu_provider, "again"))
        session.eval(code)
        assert replays() - before == 2
        session.eval("r = gather(y);")
        np.testing.assert_array_equal(np.asarray(session.get("r")), np.array([[3, 5, 7]], np.float32))


@pytest.mark.parametrize("setup", ["a = gpuArray(start);", "a = gpuArray(start) * 1;",
                                   "a = gpuArray([start 7]); a = a(1);"])
def test_device_scalars_read_on_the_host(wgpu_provider, replay_option, setup):
    """A statement that reads a gpuArray scalar's value (a linspace endpoint)
    must not replay it frozen: each run uses the current value."""
    replay_option(True)
    with override_provider(wgpu_provider):
        session = Session(stdout=io.StringIO())
        session.eval("x = gpuArray(1) * 2; r = 0;")
        for start in (0.0, 1.0, 2.0, 3.0):
            session.set("start", start)
            session.eval(setup)
            session.eval("x = linspace(a, 10, 3);")
            session.eval("r = gather(x);")
            np.testing.assert_allclose(np.asarray(session.get("r")), np.linspace(start, 10, 3).reshape(1, 3))
