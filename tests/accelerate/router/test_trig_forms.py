"""sec/csc/cot, deg2rad/rad2deg and the degree functions of gpuArrays stay
on the device and agree with the host (exact at multiples of 90 degrees)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

ANGLES = "[30 1e6 721.5 1e300 -1234.5 0.1]"
MULTIPLES_OF_90 = "[0 90 180 270 360 -90 -180 -270 450 -720 9e15 Inf -Inf NaN -0]"

SNIPPETS = [
    "r = sec(M);", "r = csc(M);", "r = cot(M);", 
    "r = deg2rad(M * 90);", "r = rad2deg(M);", "r = deg2rad(M + 1i);",
    "r = sind(M * 400);", "r = cosd(M * 400);", "r = tand(M * 400);",
    "r = asind(M);", "r = acosd(M);", "r = atand(M * 5);", "r = asind(M * 3);", "r = acosd(M * 3);",
]
EXACT = [f"r = sind(gpuArray({MULTIPLES_OF_90}));", f"r = cosd(gpuArray({MULTIPLES_OF_90}));",
         f"r = tand(gpuArray({MULTIPLES_OF_90}));", "r = tand(gpuArray([45 -45 135 225 -315 405]));"]
ROUNDED = [f"r = sind(gpuArray({ANGLES}));", f"r = cosd(gpuArray({ANGLES}));",
           f"r = tand(gpuArray({ANGLES}));"]
SINGLE = ["r = sec(single(M));", "r = rad2deg(single(M));", "r = sind(single(M) * 400);",
          "r = cosd(single(M) * 400);", "r = tand(single(M) * 400);", "r = atand(single(M));"]


@pytest.mark.parametrize("code", SNIPPETS)
def test_trig_forms_stay_on_device(device, code):
    check_snippet(code)


@pytest.mark.parametrize("code", EXACT)
def test_degree_functions_exact_at_multiples_of_90(device, code):
    check_snippet(code, exact=True, host_code=code.replace("gpuArray(", "("))


@pytest.mark.parametrize("code", ROUNDED)
def test_degree_functions_elsewhere(device, code):
    check_snippet(code, host_code=code.replace("gpuArray(", "("))


@pytest.mark.parametrize("code", SINGLE)
def test_single_data_stays_on_device(device, code):
    check_snippet(code, rtol=2e-6)
