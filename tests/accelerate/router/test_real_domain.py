"""asin/acos/acosh/atanh outside their real domains (complex results),
reallog/realsqrt (their errors), pow2 and nextpow2 of gpuArrays stay on the
device and agree with the host."""

from __future__ import annotations

import io

import pytest

from matfuse import Session
from matfuse.errors import MatlabError
from tests.accelerate.router.snippet_check import check_snippet

EDGES = "[2 -2 Inf -Inf NaN 0.5 -0.5 1 -1 0 1.0000001 -3e8]"

SNIPPETS = [
    "r = asin(M * 2);", "r = acos(M * 2);", "r = acosh(M * 3);", "r = atanh(M * 2);",
    f"r = asin(gpuArray({EDGES}));", f"r = acos(gpuArray({EDGES}));",
    f"r = acosh(gpuArray({EDGES}));", f"r = atanh(gpuArray({EDGES}));",
    "r = asin(M);", "r = acosh(abs(M) + 1);",
    "r = realsqrt(abs(M));", "r = reallog(abs(M));", "r = reallog(gpuArray([0 1 Inf NaN]));",
    "r = pow2(M * 10);", "r = pow2(gpuArray([1 2 3 -1 -1022 1023 1024 0.5 NaN -Inf]));",
    "r = pow2(M, 3);", "r = pow2(single(M) * 10);",
    "r = nextpow2(M * 1000);", "r = nextpow2(I);", "r = nextpow2(single(M * 100));",
    "r = nextpow2(gpuArray([0 1 2 3 4 5 1023 1024 1025 0.5 0.25 0.3 Inf NaN -8 2^-1030]));",
]
SINGLE = ["r = asin(single(M) * 2);", "r = acosh(single(M) * 3);", "r = atanh(single(M) * 2);"]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_real_domain_functions_stay_on_device(device, code):
    check_snippet(code, host_code=_host_form(code))


@pytest.mark.parametrize("code", SINGLE)
def test_single_data_stays_on_device(device, code):
    check_snippet(code, rtol=2e-6)


@pytest.mark.parametrize("code,ident", [
    ("reallog(gpuArray([1 -2 3]))", "MATLAB:reallog:complexResult"),
    ("realsqrt(gpuArray([1 2; -3 4]))", "MATLAB:realsqrt:complexResult"),
])
def test_negative_input_raises_the_host_error(device, code, ident):
    with pytest.raises(MatlabError) as raised:
        Session(stdout=io.StringIO()).eval(f"r = {code};")
    assert raised.value.identifier == ident
