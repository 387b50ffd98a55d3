"""ifft, fft2 and ifft2 of gpuArrays run through the provider's fft hook and
agree with the host (a conjugate-symmetric input gives a real inverse).
Power-of-two lengths: the wgpu hook's (other lengths fall back there)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

P = "gpuArray(reshape(sin(1:32) + 0.5, 4, 8))"
SNIPPETS = [
    f"r = ifft({P});", f"r = ifft({P}, [], 2);", f"r = ifft({P}, 4);", f"r = fft2({P});",
    f"r = ifft2({P});", f"r = ifft({P} + 1i * {P});", f"r = ifft2({P} + 1i);",
    "r = ifft(gpuArray([1 2 3 2]));", "r = ifft(gpuArray([1 2i 3 -2i]));",
    "r = ifft2(gpuArray([1 2 3 2; 5 6 7 6; 9 1 2 1; 5 6 7 6]));",
]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_transform_stays_on_device(device, code):
    check_snippet(code, rtol=1e-12, host_code=_host_form(code))


def test_single_data_stays_single(device):
    code = f"r = fft2(single({P}));"
    check_snippet(code, host_code=_host_form(code))


def test_padding_where_the_hook_pads(device):
    """fft2 with lengths: on the device where the provider's hook pads
    (wgpu's takes none: a counted fallback there, with the host's values)."""
    code = f"r = fft2({P}, 8, 4);"
    if device.name == "wgpu":
        from matfuse.accelerate_api import fallback_counts
        from tests.accelerate.router.snippet_check import run

        want = run(_host_form(code), False)
        got = run(code, True)
        assert fallback_counts() == {"fft2": 1}
        assert got[:2] == want[:2]
        return
    check_snippet(code, rtol=1e-12, host_code=_host_form(code))
