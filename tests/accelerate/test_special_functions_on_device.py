"""gamma, gammaln, erf, erfc, erfinv and erfcinv of gpuArrays run on the
device on every provider and agree with the host (class, size, values)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = gamma(M * 10);", "r = gamma(gpuArray([1 2 3 4 5 10 0.5 -0.5 -1 0 170]));",
    "r = gammaln(abs(M) * 50);", "r = gammaln(gpuArray([1 2 0.5 -0.5 1e10 0]));",
    "r = erf(M * 3);", "r = erfc(M * 3);", "r = erfinv(M);", "r = erfcinv(M + 1);",
    "r = erfinv(gpuArray([-1 1 0 0.999999]));", "r = erfcinv(gpuArray([0 2 1 1e-100]));",
]
SINGLE = ["r = gamma(single(M) * 5);", "r = gammaln(abs(single(M)) * 20);", "r = erf(single(M));",
          "r = erfc(single(M));", "r = erfinv(single(M) * 0.9);", "r = erfcinv(single(M) + 1);"]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_special_function_stays_on_device(device, code):
    check_snippet(code, rtol=2e-14, host_code=_host_form(code))


@pytest.mark.parametrize("code", SINGLE)
def test_single_data_stays_on_device(device, code):
    check_snippet(code, rtol=3e-5)
