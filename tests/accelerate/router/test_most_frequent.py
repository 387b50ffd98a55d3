"""mode of gpuArrays ([M, F], along a dimension or over all elements) stays
on the device and gives the host's exact values (smallest of tied values,
NaN ignored, integer classes kept)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = mode(round(M * 3));", "r = mode(round(M * 3), 2);", "r = mode(round(M * 3), 'all');",
    "r = mode(round(v * 2));", "r = mode(round(c));", "r = mode(I);", "r = mode(mod(I, 3));",
    "r = mode(round(N * 2));", "r = mode(gpuArray([NaN NaN; 1 NaN; 1 NaN]));",
    "[m, f] = mode(round(X * 2), 3); r = [m(:); f(:)];", "r = mode(M(1, :));", "r = mode(v > 0);",
    "r = mode(single(round(M * 3)));", "[m, f] = mode(round(M * 3)); r = [m f];",
    "r = mode(round(M * 3), 4);", "r = mode(gpuArray([-0 0 1 1]));",
]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_mode_stays_on_device(device, code):
    check_snippet(code, exact=True, host_code=_host_form(code))
