"""fftshift/ifftshift and sortrows of gpuArrays stay on the device and give
the host's exact results (stable order of equal keys, NaN placement)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = fftshift(v);", "r = ifftshift(v);", "r = fftshift(M);", "r = ifftshift(M);",
    "r = fftshift(X);", "r = ifftshift(X, 3);", "r = fftshift(M, 2);", "r = fftshift(I);",
    "r = fftshift(v > 0);", "r = fftshift(M, 4);",
    "r = sortrows(round(M * 2));", "r = sortrows(round(M * 2), 2);", "r = sortrows(round(M * 2), [2 -3]);",
    "r = sortrows(round(M * 2), 'descend');", "r = sortrows(round(M * 2), [1 2], 'descend');",
    "[r, k] = sortrows(round(M * 2)); r = [r k];", "[r, k] = sortrows(round(N * 2), -3); r = [r k];",
    "r = sortrows(single(round(M * 3)), -1);", "r = sortrows(gpuArray([1 NaN; NaN 2; 1 1; -0 5; 0 4]));",
    "r = sortrows(gpuArray([1 NaN; NaN 2; 1 1; -0 5; 0 4]), -2);",
]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_reordering_stays_on_device(device, code):
    check_snippet(code, exact=True, host_code=_host_form(code))
