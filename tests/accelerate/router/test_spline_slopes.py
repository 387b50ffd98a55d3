"""interp1 'spline' of gpuArrays (the not-a-knot spline's derivatives from
one device solve, then the Hermite evaluation pchip uses) stays on the
device and agrees with the host's SciPy CubicSpline."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = interp1(x, y, xq, 'spline');", "r = interp1(x, y, [0 1.5 11 4], 'spline');",
    "r = interp1(y, xq, 'spline');", "r = interp1(x(1:3), y(1:3), xq, 'spline');",
    "r = interp1(x(1:2), y(1:2), xq, 'spline');", "r = interp1(x(1:4), y(1:4), xq, 'spline');",
    "r = interp1(x, [y' sin(x')], xq, 'spline');", "r = interp1(x, y, xq, 'spline', 0);",
    "r = interp1(x(end:-1:1), y, xq, 'spline');", "r = interp1(single(x), y, xq, 'spline');",
    "r = interp1(x, y, [0 20], 'spline', 'extrap');", "r = interp1(v, [1.5 9.9], 'spline');",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_spline_stays_on_device(device, code):
    check_snippet(code, rtol=1e-11)
