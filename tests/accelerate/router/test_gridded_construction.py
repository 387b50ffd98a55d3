"""griddedInterpolant built from gpuArrays keeps its values on the device:
construction and evaluation make no host fallback, ``F.Values`` is a
gpuArray, and the results are the host's. MATLAB's construction errors
are the host's."""

from __future__ import annotations

import io

import pytest

from matfuse import Session
from matfuse.accelerate_api import fallback_counts
from matfuse.errors import MatlabError
from tests.accelerate.router.snippet_check import check_snippet

NDGRID = "[A1, A2] = ndgrid(1:5, 1:4); W = gpuArray(A1 .^ 2 + A2); "

SNIPPETS = [
    "F = griddedInterpolant(Z); r = F(xq, xq - 0.5);",
    "F = griddedInterpolant(Z); r = F.Values;",
    "F = griddedInterpolant(y); r = F(xq);",
    "F = griddedInterpolant(y); r = F.Values;",
    "F = griddedInterpolant(x, y); r = F(xq);",
    "F = griddedInterpolant(gpuArray([3 1 2 5 4]), gpuArray([9 1 4 25 16])); r = F(xq);",
    "F = griddedInterpolant(x, y, 'nearest'); r = F(xq);",
    "F = griddedInterpolant(x, y, 'linear', 'none'); r = F([0 2.5 11]);",
    NDGRID + "F = griddedInterpolant(gpuArray(A1), gpuArray(A2), W); r = F([1.5 4.2], [2.5 3]);",
    NDGRID + "F = griddedInterpolant({1:5, 1:4}, W, 'nearest'); r = F([1.2 3.7], [2.2 1.1]);",
    NDGRID + "F = griddedInterpolant(W); F.Method = 'nearest'; r = F([1.2 3.7], [2.2 1.1]);",
    "F = griddedInterpolant(single(y)); r = F(xq);",
]


def host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_gridded_interpolant_keeps_its_values_on_the_device(device, code):
    check_snippet(code, rtol=1e-12, host_code=host_form(code))


def test_values_stay_a_gpuarray(device):
    s = Session(stdout=io.StringIO())
    s.eval("F = griddedInterpolant(gpuArray(magic(4))); c = class(F.Values);")
    assert fallback_counts() == {}
    assert s.get("c") == "gpuArray"


@pytest.mark.parametrize("code,identifier", [
    ("griddedInterpolant(gpuArray([1 2 2 3]), gpuArray([1 2 3 4]))",
     "MATLAB:griddedInterpolant:NonMonotonicCompVecsErrId"),
    ("griddedInterpolant(gpuArray([1 2 3]), gpuArray([1 2]))",
     "MATLAB:griddedInterpolant:CompVecValueMismatchErrId"),
    ("griddedInterpolant(gpuArray(1))", "MATLAB:griddedInterpolant:DegenerateGridErrId"),
])
def test_construction_errors_are_matlabs(device, code, identifier):
    with pytest.raises(MatlabError) as err:
        Session(stdout=io.StringIO()).eval(f"F = {code};")
    assert err.value.identifier == identifier
