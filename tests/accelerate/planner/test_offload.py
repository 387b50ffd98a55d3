"""Auto-offload is invisible: class, isa, isgpuarray, display and results are
those of the CPU run; explicit gpuArrays keep their semantics."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.accelerate.planner import offload
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import override_provider
from matfuse.runtime.dispatcher import AUTO_OFFLOAD
from matfuse.runtime.values import AUTO_OFFLOADED, DeviceValue
from matfuse.vm.session import Session


SCRIPT = """
x = reshape(1:20, 4, 5) / 7;
y = x .* 2 + 1;
z = y(2:3, :);
w = -y';
m = x * x';
s = sum(y(:));
c = cumsum(y, 2);
q = zeros(4, 5, 'single') + single(x);
r = y;
r(1) = 5;
fprintf('%s %s %s %s %s %s %s\\n', class(y), class(z), class(w), class(m), class(c), class(q), class(r));
fprintf('%d %d %d %d\\n', isgpuarray(y), isa(y, 'double'), isa(y, 'gpuArray'), isfloat(q));
disp(y)
disp(s)
disp(size(z))
c
"""


def run(code: str) -> tuple[str, Session]:
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    session.eval(code)
    return out.getvalue(), session


def test_offloaded_script_prints_what_the_cpu_run_prints(forced):
    offload.deactivate()
    expected, _ = run(SCRIPT)
    p = InProcessProvider()
    with override_provider(p):
        offload.activate(p, forced)
        got, session = run(SCRIPT)
    assert got == expected
    assert "double double double double double single double" in got
    counts = forced.log.summary()
    assert counts.get("gpu:cost-model", 0) > 0 and counts.get("gpu:resident", 0) > 0
    # Values stayed on the device behind the program's back.
    y = session.interp.base["y"]
    assert isinstance(y, DeviceValue) and y in AUTO_OFFLOADED and not y.user_visible


def test_explicit_gpuarray_stays_visible(forced):
    out, _ = run("g = gpuArray(reshape(1:6,2,3)); h = g + reshape(1:6,2,3); "
                 "disp(class(h)); disp(isgpuarray(h)); x = reshape(1:6,2,3) * 2; "
                 "k = gpuArray(x); disp(class(k)); disp(class(x));")
    assert out.split() == ["gpuArray", "1", "gpuArray", "double"]


def test_existsongpu_of_an_offloaded_value_is_the_host_error(forced):
    from matfuse.errors import MatlabError

    with pytest.raises(MatlabError) as info:
        run("x = reshape(1:6,2,3) * 2; existsOnGPU(x)")
    assert info.value.identifier == "MATLAB:UndefinedFunction"
    assert "'double'" in info.value.message


def test_errors_are_the_cpu_errors(forced):
    from matfuse.errors import MatlabError

    for code, ident in [("a = ones(2,3) * 2; b = a + ones(3,2);", "MATLAB:sizeDimensionsMustMatch"),
                        ("a = ones(2,3) * 2; b = a * a;", "MATLAB:innerdim")]:
        with pytest.raises(MatlabError) as info:
            run(code)
        assert info.value.identifier == ident


def test_sinks_and_host_only_builtins_get_host_values(forced):
    out, _ = run("x = reshape(1:6,2,3) * 2; n = num2str(x(1)); c = num2cell(x); "
                 "disp(class(c{1})); disp(n); if x(1) > 1, disp('yes'), end")
    assert out.split() == ["double", "2", "yes"]


def test_construction_creates_on_the_device_when_consumers_run_there(forced):
    out, session = run("a = zeros(3, 4, 'single'); b = randn(300, 1, 'single'); "
                       "disp(class(a)); disp(class(b)); disp(size(b))")
    assert out.split() == ["single", "single", "300", "1"]
    assert isinstance(session.interp.base["a"], DeviceValue)
    assert forced.log.counts[("gpu", "consumers-on-device")] == 2


def test_random_numbers_match_the_cpu_stream(forced):
    code = "rng(3); b = randn(50, 1, 'single'); v = b(7);"
    _, on = run(code)
    offload.deactivate()
    _, off = run(code)
    assert on.get("v") == off.get("v")


def test_off_mode_installs_no_hooks(monkeypatch):
    offload.reset()
    monkeypatch.setenv("MATFUSE_AUTO_OFFLOAD", "0")
    out, _ = run("x = ones(3) + ones(3); disp(class(x))")
    assert out.strip() == "double"
    assert AUTO_OFFLOAD.call is None and AUTO_OFFLOAD.binary is None
    assert offload.STATE.mode == offload.OFF
    offload.reset()


def test_pending_mode_without_gpu_hardware_turns_off(monkeypatch):
    from matfuse.accelerate import facade
    from matfuse.accelerate_api import _registry

    # No provider started yet: an earlier test may have left a global one
    # (override_provider(None) falls back to it) and its facade options.
    monkeypatch.setattr(facade, "_state", None)
    monkeypatch.setattr(_registry, "_global_provider", None)
    offload.reset()
    monkeypatch.setenv("MATFUSE_AUTO_OFFLOAD", "1")
    monkeypatch.setenv("MATFUSE_THRESHOLD_ELEMENTWISE", "10")
    monkeypatch.setenv("MATFUSE_THRESHOLD_REDUCTION", "10")
    monkeypatch.setenv("MATFUSE_THRESHOLD_CONSTRUCTION", "10")
    monkeypatch.setattr(facade, "gpu_hardware_present", lambda: False)
    with override_provider(None):
        offload.install(facade.current_options())
        assert offload.STATE.mode == offload.PENDING
        run("x = ones(4, 1) * 2; y = x + reshape(1:20, 4, 5);")
    assert offload.STATE.mode == offload.OFF and offload.STATE.note == "no GPU device found"
    offload.reset()


def test_in_process_provider_is_not_a_gpu():
    assert not offload.is_real_gpu(InProcessProvider())
    offload.reset()
    p = InProcessProvider()
    with override_provider(p):
        from matfuse.accelerate.options import AccelerateInitOptions

        assert offload.install(AccelerateInitOptions.from_env({})) == offload.OFF
        forced = AccelerateInitOptions.from_env({"MATFUSE_AUTO_OFFLOAD": "force"})
        assert offload.install(forced) == offload.ACTIVE
    offload.reset()


def test_explain_records_statement_lines(forced):
    offload.enable_explain(True)
    try:
        run("x = reshape(1:6,2,3);\ny = x * 2;\nz = sum(y);")
        lines = {(d.line, d.builtin) for d in forced.log.all}
    finally:
        offload.enable_explain(False)
    assert (2, "*") in lines and (3, "sum") in lines


def test_results_equal_cpu_results_numerically(forced):
    _, on = run("x = reshape(1:12, 3, 4) / 3; y = exp(x) .* x - 1; s = sum(y, 2); m = x' * x;")
    offload.deactivate()
    _, off = run("x = reshape(1:12, 3, 4) / 3; y = exp(x) .* x - 1; s = sum(y, 2); m = x' * x;")
    for name in ("y", "s", "m"):
        np.testing.assert_allclose(on.get(name), off.get(name), rtol=1e-12)


def test_construction_on_the_device_checks_the_size_first(forced):
    """A lazy device fill allocates nothing, so nothing failed until the
    display tried to download 8 TB (found on a machine that overcommits)."""
    from matfuse.errors import MatlabError

    for code in ("zeros(1e6,1e6)", "ones(1e6,1e6,'single')", "rand(1e6,1e6)", "x = randn(1e6); y = x + 1;"):
        with pytest.raises(MatlabError) as info:
            run(code)
        assert info.value.identifier == "MATLAB:array:SizeLimitExceeded", code
