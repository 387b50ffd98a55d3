"""Host scalars of every class in device expressions are kernel constants:
a loop combining gpuArrays with ``int32(k)``, ``single(k)``, ``uint8(k)``,
``true`` makes no upload per iteration, and the answers keep MATLAB's
class rules (integer op double -> integer, saturated and rounded; single
op double -> single; a double compared with a single compares in single).

Runs on each provider under test (``MATFUSE_TEST_PROVIDERS=inprocess,wgpu``),
fused and with fusion off; the CUDA provider's half runs on the fake CuPy
(``test_host_scalar_constants_cuda_fake.py``).
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from matfuse.accelerate.router.launch import host_scalar_constant
from matfuse.accelerate_api import fallback_counts, override_provider, reset_fallback_counts
from matfuse.vm.session import Session

LOOP = """
x = gpuArray(zeros(1, 64)); y = gpuArray(ones(1, 64)); z = gpuArray(int32(ones(1, 64)));
u = gpuArray(uint8(200 * ones(1, 64))); b = gpuArray(false(1, 64));
for k = 1:{n}
    x = x + int32(k);
    y = y .* single(k);
    z = z .* single(1.5) - int32(k);
    u = u + uint8(k);
    b = b | (y > single(k) * 0.5);
end
fprintf('%s %s %s %s %s\\n', class(gather(x)), class(gather(y)), class(gather(z)), class(gather(u)), class(gather(b)));
fprintf('%.10g %.10g %d %d %d\\n', gather(x(3)), gather(y(5)), gather(z(2)), gather(u(1)), gather(b(4)));
"""


def _run(p: Any, code: str) -> tuple[str, dict[str, Any]]:
    out = io.StringIO()
    with override_provider(p):
        session = Session(stdout=out)
        p.synchronize()
        p.reset_telemetry()
        reset_fallback_counts()
        session.eval(code)
        p.synchronize()
        return out.getvalue(), p.telemetry()


def _host(code: str) -> str:
    out = io.StringIO()
    Session(stdout=out).eval(code.replace("gpuArray", "").replace("gather", ""))
    return out.getvalue()


def check_no_upload_per_iteration(p: Any) -> None:
    short, few = _run(p, LOOP.format(n=2))
    long, many = _run(p, LOOP.format(n=7))
    assert fallback_counts() == {}
    assert many["uploads"] == few["uploads"], (few["uploads"], many["uploads"])
    assert short == _host(LOOP.format(n=2))
    assert long == _host(LOOP.format(n=7))


def test_loop_with_scalars_of_every_class_uploads_nothing_per_iteration(device):
    check_no_upload_per_iteration(device)


def test_same_without_fusion(device, monkeypatch):
    from matfuse.accelerate.router import placement, route

    monkeypatch.setattr(route, "fusion_enabled", lambda p: False)
    monkeypatch.setattr(placement, "fusion_enabled", lambda p: False)
    check_no_upload_per_iteration(device)


CLASS_RULE_CASES = [
    "c = gpuArray([0.1 0.2]) == single(0.1);",             # compared in single: true
    "c = single(0.1) ~= gpuArray([0.1 0.3]);",
    "c = gpuArray(int8([3 4])) < single(3.5);",
    "c = gpuArray(uint8([250 3])) + 10;",                   # saturates at 255
    "c = gpuArray(int16([7 -7])) .* 0.5;",                  # rounds half away: 4 -4
    "c = gpuArray(int32([1 2])) + true;",
    "c = gpuArray([1.5 2.5]) .* int8(3);",                  # int8 result: 5 8 (round)
    "c = gpuArray(single([1 2])) + int16(40000 - 7233);",
]


@pytest.mark.parametrize("code", CLASS_RULE_CASES)
def test_scalar_class_rules_match_cpu(device, code):
    text, _ = _run(device, code + " fprintf('%s ', class(gather(c))); fprintf('%.17g ', gather(c));")
    assert fallback_counts() == {}
    want = _host(code + " fprintf('%s ', class(c)); fprintf('%.17g ', c);")
    assert text == want


def test_host_scalar_constant_classes():
    assert host_scalar_constant(np.array([[np.int32(5)]])) == 5.0
    assert host_scalar_constant(np.array([[True]])) == 1.0
    assert host_scalar_constant(np.array([[np.float32(0.1)]])) == float(np.float32(0.1))
    assert host_scalar_constant(np.array([[1 + 2j]])) == 1 + 2j
    assert host_scalar_constant(np.array([[2 ** 60]], dtype=np.int64)) is None
    assert host_scalar_constant(np.array([[2 ** 53 + 1]], dtype=np.uint64)) is None
    assert host_scalar_constant(np.ones((1, 2))) is None
    assert host_scalar_constant(np.array([["a"]])) is None
