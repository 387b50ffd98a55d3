"""rescale of gpuArrays stays on the device and agrees with the host; so do
the norms the router's stats path takes (vector norms; 1, Inf and Frobenius
matrix norms)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = norm(v);", "r = norm(c);", "r = norm(v, 1);", "r = norm(v, Inf);", "r = norm(v, -Inf);",
    "r = norm(v, 3);", "r = norm(v, 'fro');", "r = norm(M, 1);", "r = norm(M, Inf);",
    "r = norm(M, 'fro');", "r = norm(N, 1);", "r = norm(N, 'fro');", "r = norm(v * 1e300);",
    "r = norm(gpuArray([0 0 0]));", "r = norm(gpuArray([3 Inf NaN]));", "r = norm(single(v));",
    "r = norm(single(M), 1);",
    "r = rescale(M);", "r = rescale(v, -1, 1);", "r = rescale(N);", "r = rescale(I);",
    "r = rescale(M, 'InputMin', 0, 'InputMax', 0.5);", "r = rescale(gpuArray([2 2 2]));",
    "r = rescale(single(M), 2, 5);", "r = rescale(X);",
]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_norm_and_rescale_stay_on_device(device, code):
    check_snippet(code, host_code=_host_form(code))
