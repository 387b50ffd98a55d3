"""Loop replay: a for loop's device body run as one in-kernel loop.

Each case runs the same MATLAB code with replay on and off (off: the
iterations are fused by the graph-size cap as before) on the wgpu device
(lavapipe in CI): values must agree to the last bits (kernels of different
shape may contract a*b+c to one fma differently: 1 ulp per operation on the
H100) and the dispatch count must drop to a constant. The in-process
provider is the CPU oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.fusion import loop_trace
from matfuse.accelerate_api import override_provider
from matfuse.vm.session import Session
from tests.accelerate.fusion.scripts import checksum, run_script, workload

GBM = """
rng(3, 'philox');
S = 100 * ones(512, 1, 'single', 'gpuArray');
for t = 1:{T}
    Z = randn(512, 1, 'single', 'gpuArray');
    S = S .* exp(0.0002 + 0.0126 .* Z);
end
"""


def assert_same(a, b) -> None:
    rtol = 1e-6 if a.dtype == np.float32 else 1e-13
    np.testing.assert_allclose(a, b, rtol=rtol, atol=0)


def values_of(provider, code: str, names: list[str], replay: bool, monkeypatch) -> tuple[list, dict]:
    monkeypatch.setattr(loop_trace, "MIN_ITERATIONS", 6 if replay else 10 ** 9)  # short loops in tests
    with override_provider(provider):
        session = Session()
        provider.synchronize()
        provider.reset_telemetry()
        session.eval(code)
        out = []
        for name in names:
            session.eval(f"gathered_ = gather({name});")
            out.append(np.asarray(session.get("gathered_")))
        telemetry = provider.telemetry()
    return out, telemetry


@pytest.fixture()
def session_values(monkeypatch):
    def run(provider, code, names, replay=True):
        return values_of(provider, code, names, replay, monkeypatch)
    return run


def test_monte_carlo_is_one_loop_kernel(wgpu_provider, inprocess_provider):
    text, tel, stats = run_script(wgpu_provider, workload("montecarlo", M=4096.0, T=256.0))
    reference, _, _ = run_script(inprocess_provider, workload("montecarlo", M=4096.0, T=256.0))
    # The loop kernel (3 traced iterations + 252 replayed ones, one thread
    # per path), then the last iteration fused into the mean's two passes:
    # 3 dispatches whatever T is.
    assert tel["dispatches"] <= 3
    assert tel["uploads"] == 0
    assert stats["bytes_written"] <= 3 * 4096 * 4
    # Different random streams (the host twister vs the device's Philox).
    assert checksum(text) == pytest.approx(checksum(reference), rel=0.05)


@pytest.mark.parametrize("T", [6, 7, 40, 300])
def test_replay_matches_plain_fusion(wgpu_provider, session_values, T):
    code = GBM.format(T=T) + "after = randn(4, 1, 'single', 'gpuArray');"
    replayed, tel_on = session_values(wgpu_provider, code, ["S", "Z", "t", "after"], replay=True)
    plain, tel_off = session_values(wgpu_provider, code, ["S", "Z", "t", "after"], replay=False)
    for a, b in zip(replayed, plain):
        assert_same(a, b)
    # The loop runs in a kernel of its own: at most one launch more than the
    # size-capped fusion of short loops, far fewer for long ones.
    assert tel_on["dispatches"] <= tel_off["dispatches"] + 1
    if T >= 40:
        assert tel_on["dispatches"] < tel_off["dispatches"]


def test_replay_matches_cpu_philox(wgpu_provider, inprocess_provider, session_values):
    code = GBM.format(T=30)
    device, _ = session_values(wgpu_provider, code, ["S"])
    host, _ = session_values(inprocess_provider, code, ["S"])
    np.testing.assert_allclose(device[0], host[0], rtol=2e-5)


def test_two_carried_variables(wgpu_provider, session_values):
    code = """
    x = linspace(gpuArray(0), 1, 300)';
    A = zeros(300, 1, 'gpuArray');
    for k = 1:20
        x = 0.9 * x + 0.1 * sin(x);
        A = A + x .^ 2;
    end
    """
    replayed, tel_on = session_values(wgpu_provider, code, ["x", "A"], replay=True)
    plain, tel_off = session_values(wgpu_provider, code, ["x", "A"], replay=False)
    for a, b in zip(replayed, plain):
        assert_same(a, b)
    # linspace + transpose (2); the loop kernel writes both carried values
    # (1); gather(x) and gather(A) finish the last iteration (1 each).
    assert tel_on["dispatches"] <= 5


def test_loop_variable_in_body_is_not_replayed(wgpu_provider, inprocess_provider, session_values):
    code = """
    x = ones(50, 1, 'gpuArray');
    for k = 1:12
        x = x + k;
    end
    """
    device, _ = session_values(wgpu_provider, code, ["x"])
    host, _ = session_values(inprocess_provider, code, ["x"])
    np.testing.assert_array_equal(device[0], host[0])
    assert device[0][0, 0] == 1 + sum(range(1, 13))


def test_reduction_in_body_falls_back_to_interpreter(wgpu_provider, inprocess_provider, session_values):
    code = """
    x = linspace(gpuArray(1), 2, 64)';
    for k = 1:10
        x = x - 0.1 * mean(x);
    end
    """
    device, _ = session_values(wgpu_provider, code, ["x"])
    host, _ = session_values(inprocess_provider, code, ["x"])
    np.testing.assert_allclose(device[0], host[0], rtol=1e-12)


def test_domain_fallback_inside_loop_gives_complex(wgpu_provider, inprocess_provider, session_values):
    code = """
    x = linspace(gpuArray(-1), 1, 16)';
    for k = 1:8
        x = sqrt(x) * 0.5 - 0.25;
    end
    """
    device, _ = session_values(wgpu_provider, code, ["x"])
    host, _ = session_values(inprocess_provider, code, ["x"])
    assert np.iscomplexobj(host[0])
    np.testing.assert_allclose(device[0], host[0], rtol=1e-12, atol=1e-15)


def test_body_with_output_is_not_replayed(wgpu_provider):
    code = """
    x = ones(3, 1, 'gpuArray');
    for k = 1:8
        x = x * 2;
        fprintf('%d ', gather(x(1)));
    end
    """
    text, _, _ = run_script(wgpu_provider, code)
    assert text.split() == [str(2 ** k) for k in range(1, 9)]


def test_replayable_body_rules():
    from matfuse.lang.parser import parse
    from matfuse.vm._replay import replayable_body

    def body(src: str):
        loop = parse(f"for k = 1:10\n{src}\nend\n").body[0]
        return replayable_body(loop.body, "k")

    assert body("Z = randn(4,1); S = S .* exp(Z);").assigned == ("S", "Z")
    assert body("if gpu\n Z = randn(4,1,'gpuArray');\nelse\n Z = randn(4,1);\nend\nS = S + Z;") is not None
    assert body("S = S + 1") is None              # displayed
    assert body("S(2) = 1;") is None               # indexed assignment
    assert body("disp(S);") is None                # expression statement
    assert body("if S > 0\n S = S - 1;\nend") is None   # condition reads an assigned name
    assert body("if k > 3\n S = S - 1;\nend") is None   # condition reads the loop variable
    assert body("k = 2;") is None                  # assigns the loop variable
    assert body("S = S + 1; break;") is None
    assert body("f = @(x) x + 1;") is None


def test_user_function_shadowing_a_builtin_blocks_replay(tmp_path, wgpu_provider):
    (tmp_path / "exp.m").write_text("function y = exp(x)\nfprintf('mine\\n');\ny = x;\nend\n")
    code = f"""
    addpath('{tmp_path}');
    x = ones(3, 1, 'gpuArray');
    for k = 1:8
        x = exp(x);
    end
    """
    text, _, _ = run_script(wgpu_provider, code)
    assert text.count("mine") == 8


def test_host_value_assigned_in_body_is_not_replayed(wgpu_provider, inprocess_provider, session_values):
    code = """
    x = ones(20, 1, 'gpuArray');
    for k = 1:30
        c = 2;
        x = x * 0.5 + c;
    end
    """
    device, _ = session_values(wgpu_provider, code, ["x", "c"])
    host, _ = session_values(inprocess_provider, code, ["x", "c"])
    np.testing.assert_allclose(device[0], host[0], rtol=1e-15)
    assert device[1] == 2


def test_replay_inside_a_function_workspace(wgpu_provider, tmp_path, session_values):
    (tmp_path / "evolve.m").write_text(
        "function x = evolve(x, n)\n"
        "for k = 1:n\n"
        "    x = 0.99 * x + 0.01 * cos(x);\n"
        "end\n"
        "end\n")
    code = f"addpath('{tmp_path}'); y = evolve(linspace(gpuArray(0), 1, 64)', 50);"
    replayed, tel = session_values(wgpu_provider, code, ["y"], replay=True)
    plain, _ = session_values(wgpu_provider, code, ["y"], replay=False)
    assert_same(replayed[0], plain[0])
