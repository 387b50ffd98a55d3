"""interp2 and interpn (linear, nearest) of gpuArrays stay on the device and
agree with the host."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = interp2(XX, YY, Z, 2.5, 3.5);", "r = interp2(Z, [1.5 2.5], [2.5 3]);",
    "r = interp2(XX, YY, Z, [1.5 2.5], [2.5 3], 'nearest');",
    "r = interp2(XX, YY, Z, [0 1.5 5 6 NaN], [1 2.5 4 2 2]);",
    "r = interp2(XX, YY, Z, [0 1.5 5 6 NaN], [1 2.5 4 2 2], 'linear', -7);",
    "r = interp2(Z, [1.5 2.25 3.75], [1.5; 2.5]);", "r = interp2(Z, 2.2, [1.5 2.5 3.5]);",
    "r = interp2(1:5, (1:4)', Z, XX(1:3, :) + 0.3, YY(1:3, :) - 0.2);",
    "r = interp2(gather(XX), gather(YY), Z, 2.5, 3.5, 'nearest');",
    "r = interpn(Z, [1.5 2.5], [2.5 3]);", "r = interpn(Z, [1.5 2.5], [2.5 3], 'nearest');",
    "r = interpn((1:4)', 1:5, Z, [1.5 9], [2.5 3]);", "r = interpn(X, [1.5 2], [2.5 1], [1.2 3.7]);",
    "r = interpn(X, [1.5 2], [2.5 1], [1.2 3.7], 'linear', 0);", "r = interpn(y, [1.5 2.5 11]);",
    "r = interpn(YY, XX, Z, [1.5 3.5], [2.5 4.5]);",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_grid_interpolation_stays_on_device(device, code):
    check_snippet(code, rtol=1e-13)


GRIDDED = [
    "F = griddedInterpolant(gather(Z)); r = F(xq(1:2), xq(2:3) - 1);",
    "F = griddedInterpolant(gather(Z)); r = F([xq; xq - 1.5], [xq - 1; xq]);",
    "F = griddedInterpolant(gather(Z), 'nearest'); r = F([xq NaN], [xq(3:-1:1) 1]);",
    "F = griddedInterpolant(gather(Z), 'linear', 'none'); r = F([xq 0], [xq - 1 1]);",
    "F = griddedInterpolant(gather(y)); r = F([xq 11 -1]);",
    "F = griddedInterpolant({1:4, 1:5}, gather(Z)); r = F([xq' (xq + 1)']);",
]


@pytest.mark.parametrize("code", GRIDDED)
def test_gridded_interpolant_queries_stay_on_device(device, code):
    check_snippet(code, rtol=1e-13)


@pytest.mark.parametrize("code", [
    "r = interp2(Z);", "r = interp2(Z, 2);", "r = interp2(Z, 1, 'nearest');", "r = interpn(Z);",
    "r = interpn(X, 1);", "r = interpn(y);", "r = interpn(y', 2);", "r = interpn(Z, 0);",
])
def test_refined_grids_stay_on_device(device, code):
    check_snippet(code, rtol=1e-13)
