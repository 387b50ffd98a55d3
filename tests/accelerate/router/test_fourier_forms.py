"""ifft, fft2 and ifft2 of gpuArrays run through the provider's fft hook and
agree with the host (a conjugate-symmetric input gives a real inverse).
Other lengths than powers of two run Bluestein's algorithm where the
provider's hook takes only those (wgpu)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

P = "gpuArray(reshape(sin(1:32) + 0.5, 4, 8))"
SNIPPETS = [
    f"r = ifft({P});", f"r = ifft({P}, [], 2);", f"r = ifft({P}, 4);", f"r = fft2({P});",
    f"r = ifft2({P});", f"r = ifft({P} + 1i * {P});", f"r = ifft2({P} + 1i);",
    "r = ifft(gpuArray([1 2 3 2]));", "r = ifft(gpuArray([1 2i 3 -2i]));",
    "r = ifft2(gpuArray([1 2 3 2; 5 6 7 6; 9 1 2 1; 5 6 7 6]));",
    # lengths other than powers of two (Bluestein's algorithm where the hook
    # takes only those)
    "r = fft(M);", "r = fft(v);", "r = fft(M, [], 2);", "r = fft(X, [], 3);", "r = fft(v, 7);",
    "r = fft(v, 12);", "r = ifft(M);", "r = ifft(M + 1i * M, [], 2);", "r = fft2(M);",
    "r = ifft2(M);", "r = fft2(M, 3, 9);", "r = fft(c);", "r = ifft(gpuArray([1 2 3 3 2]));",
]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_transform_stays_on_device(device, code):
    check_snippet(code, rtol=1e-12, host_code=_host_form(code))


def test_single_data_stays_single(device):
    code = f"r = fft2(single({P}));"
    check_snippet(code, host_code=_host_form(code))


def test_padded_transform_stays_on_device(device):
    """fft2 with lengths: the provider's hook pads, or (wgpu) the data is
    padded on the device first."""
    code = f"r = fft2({P}, 8, 4);"
    check_snippet(code, rtol=1e-12, host_code=_host_form(code))
