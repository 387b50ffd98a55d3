"""Programs using complex and 8/16-bit integer gpuArrays print the same on
wgpu as on the in-process provider; the native operations add no host
fallback and the rest are counted ones (lavapipe)."""

from __future__ import annotations

import io

import pytest

from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import fallback_counts, override_provider, reset_fallback_counts


def _run(provider, code: str) -> tuple[str, dict[str, int]]:
    from matfuse.vm.session import Session

    out = io.StringIO()
    with override_provider(provider):
        reset_fallback_counts()
        Session(stdout=out).eval(code)
        return out.getvalue(), dict(fallback_counts())


NATIVE = {
    "int8 saturating arithmetic": """
        a = gpuArray(int8([-100 50 127; 3 4 5]));
        b = a + int8(100), c = a .* 2.5, d = a ./ int8(3), e = a - 200
        f = a > 4, g = [a, a], h = a'
        k = uint16(gpuArray([1.5 70000 -3 NaN])), m = double(a) * 2
        disp(class(gather(d)))
    """,
    "complex arithmetic and reductions": """
        z = gpuArray([1+2i, 3-4i; -1i, 2]);
        w = z .* (1 - 1i) + 3, q = z ./ [2i, 0.5], r = 2 ./ z
        s = sum(z), m = mean(z, 2), t = sum(z, 'all')
        u = abs(z), v = real(z), x = imag(z), y = conj(z), ct = z'
        e = z == conj(z), n = -z
    """,
}


@pytest.mark.parametrize("name", sorted(NATIVE))
def test_native_programs_match_and_do_not_fall_back(wgpu_provider, name):
    want, _ = _run(InProcessProvider(), NATIVE[name])
    got, fallbacks = _run(wgpu_provider, NATIVE[name])
    assert got == want
    assert fallbacks == {}


def test_complex_exp_power_and_prod_run_on_the_device(wgpu_provider):
    """exp by the complex kernels, z.^2 and prod composed from complex products."""
    code = "z = gpuArray([1+2i, -3i]); a = exp(z), b = z .^ 2, c = prod(z)"
    want, _ = _run(InProcessProvider(), code)
    got, fallbacks = _run(wgpu_provider, code)
    assert got == want
    assert fallbacks == {}


def test_int64_gpuarrays_stay_on_the_host_counted(wgpu_provider):
    code = "a = gpuArray(int64([1 2 3])); b = a + int64(2), disp(class(b))"
    want, _ = _run(InProcessProvider(), code)
    got, fallbacks = _run(wgpu_provider, code)
    assert got == want
    assert fallbacks.get("upload:int64", 0) >= 1
