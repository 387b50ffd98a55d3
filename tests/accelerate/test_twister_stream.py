"""Seeded twister draws placed on the device by auto-offload continue the
host's MT19937 stream there (accelerate/twister_stream.py): the offloaded
run prints what the CPU run prints, host and device draws interleave as one
stream, and explicit gpuArray draws keep MATLAB's separate GPU stream.
Runs on every provider under test (in-process; wgpu on lavapipe in CI)."""

from __future__ import annotations

import io

import pytest

from matfuse.accelerate import twister_stream
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.planner import offload
from matfuse.runtime import _rng
from matfuse.runtime.values import DeviceValue
from matfuse.vm.session import Session

LOW = {f"threshold_{c}": 1000 for c in ("elementwise", "reduction", "construction", "matmul")}


def run(code: str) -> tuple[str, Session]:
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    session.eval(code)
    return out.getvalue(), session


def cpu_run(code: str) -> str:
    offload.reset()
    offload.deactivate()
    try:
        return run(code)[0]
    finally:
        offload.reset()


@pytest.fixture
def offloaded(device, monkeypatch):
    """Auto-offload forced on the provider under test; counts the draws the
    device twister made."""
    drawn: list[str] = []
    real = twister_stream.draw

    def counting(p, name, shape, cls, limits=(1.0, 1.0)):
        value = real(p, name, shape, cls, limits)
        if value is not None:
            drawn.append(name)
        return value

    monkeypatch.setattr(twister_stream, "draw", counting)
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    try:
        yield drawn
    finally:
        offload.reset()
        _rng.GENERATOR.reseed(0, "twister")


SCRIPT = """
rng(42);
a = rand(30000, 2);
b = randn(50000, 1);
c = rand(25000, 1, 'single');
d = randn(1, 40001, 'single');
fprintf('%.17g %.17g %.17g\\n', a(1), a(29999), a(60000));
fprintf('%.13g %.13g\\n', b(1), b(50000));
fprintf('%.9g %.9g %.9g %.9g\\n', c(1), c(25000), d(1), d(40001));
fprintf('%s %s %s %s\\n', class(a), class(b), class(c), class(d));
"""


def test_seeded_script_prints_the_cpu_numbers(device, offloaded):
    expected = cpu_run(SCRIPT)
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    got, session = run(SCRIPT)
    assert got == expected
    if device.capabilities.float64:
        assert offloaded == ["rand", "randn", "rand", "randn"]
        assert isinstance(session.interp.base["b"], DeviceValue)
    else:
        # no f64 on the adapter: the conversion kernel cannot run there
        assert offloaded == []


INTERLEAVED = """
rng(7);
x1 = randn(40000, 1);
h1 = rand(1, 3);
x2 = rand(30000, 1);
s = rng;
x3 = randn(20000, 1, 'single');
h2 = randn(2, 2);
rng(s);
x4 = randn(20000, 1, 'single');
h3 = randn(2, 2);
t = rng;
fprintf('%.13g %.17g %.17g %.17g\\n', x1(40000), h1(3), x2(1), x2(30000));
fprintf('%.9g %.9g %d %d\\n', x3(1), x3(20000), isequal(x3, x4), isequal(h2, h3));
fprintf('%d %d\\n', t.State(625), sum(double(t.State(1:624))));
"""


def test_host_and_device_draws_interleave_as_one_stream(device, offloaded):
    expected = cpu_run(INTERLEAVED)
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    got, _ = run(INTERLEAVED)
    assert got == expected
    assert "1 1" in got.splitlines()[1]
    if device.capabilities.float64:
        assert offloaded == ["randn", "rand", "randn", "randn"]


def test_explicit_gpuarray_draws_keep_the_gpu_stream(device, offloaded):
    """rand(..., 'gpuArray') is MATLAB's gpurng stream: it neither comes
    from nor advances the host twister."""
    code = "rng(3); g = rand(2000, 1, 'gpuArray'); h = rand(1, 5); fprintf('%.17g ', h); fprintf('\\n');"
    expected = cpu_run("rng(3); h = rand(1, 5); fprintf('%.17g ', h); fprintf('\\n');")
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    got, _ = run(code)
    assert got == expected
    assert offloaded == []


def test_philox_seeded_programs_use_the_philox_stream(device, offloaded):
    code = "rng(5, 'philox'); z = randn(3000, 1); fprintf('%.12g %.12g\\n', z(1), z(3000));"
    expected = cpu_run(code)
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    got, _ = run(code)
    assert got == expected
    assert offloaded == []


FORMS = """
rng(11);
p = single([1 2 3]);
q = int16([1 2]);
a = randi(6, 30000, 1);
b = randi([-5 5], 1, 20000, 'single');
c = randi(100, 200, 150, 'int32');
d = randi([0 9], 20000, 1, 'like', q);
e = rand(20000, 1, 'like', p);
f = randn(20000, 2, 'like', 1);
fprintf('%g %g %g %g %g %g\\n', a(1), a(30000), b(1), b(20000), c(1), c(30000));
fprintf('%d %.9g %.13g\\n', d(20000), e(20000), f(40000));
fprintf('%s %s %s %s %s %s\\n', class(a), class(b), class(c), class(d), class(e), class(f));
h = rand(1, 3);
fprintf('%.17g\\n', h(3));
"""


def test_randi_and_like_forms_continue_the_stream(device, offloaded):
    expected = cpu_run(FORMS)
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    got, _ = run(FORMS)
    assert got == expected
    if device.capabilities.float64:
        assert offloaded == ["randi", "randi", "randi", "randi", "rand", "randn"]


def test_unseeded_randi_draws_the_default_twister_stream(device, offloaded):
    code = "a = randi([1 1000], 40000, 1); fprintf('%g %g\\n', a(1), a(40000));"
    _rng.GENERATOR.reseed(0, "twister")   # the process starts at MATLAB's default
    expected = cpu_run(code)
    _rng.GENERATOR.reseed(0, "twister")
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    got, _ = run(code)
    assert got == expected
    if device.capabilities.float64:
        assert offloaded == ["randi"]


def test_device_reset_keeps_the_stream(device, offloaded):
    """reset(gpuDevice) takes the state back before freeing the device."""
    from matfuse.accelerate.gpuarray import reset_device

    code = "rng(4); a = randn(30000, 1); fprintf('%.13g\\n', a(30000));"
    tail = "h = rand(1, 4); fprintf('%.17g ', h); fprintf('\\n');"
    expected = cpu_run(code + tail)
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    first, _ = run(code)
    reset_device(device)
    second, _ = run(tail)   # the generator is the process's, not the session's
    assert first + second == expected


def test_a_lost_device_copy_is_replayed_on_the_host(device, offloaded):
    """Buffers freed behind the generator's back (a provider reset that
    bypassed reset(gpuDevice)): the host replays the device's words."""
    code = "rng(8); a = rand(30000, 1); b = randn(20000, 1, 'single');"
    tail = "h = rand(1, 4); fprintf('%.17g ', h); fprintf('\\n');"
    expected = cpu_run(code + tail)
    options = AccelerateInitOptions(provider=device.name, auto_offload="force", **LOW)
    offload.activate(device, options=options)
    run(code)
    held = _rng.GENERATOR.device_twister
    if device.capabilities.float64:
        assert held is not None and held.words_drawn == 2 * 30000 + 4 * 20000
    if held is not None:
        device.free(held.handle)
    got, _ = run(tail)
    assert got == expected
