"""interp1 (linear, nearest, previous, next) of gpuArrays stays on the
device and agrees with the host."""

from __future__ import annotations

import io

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = interp1(x, y, xq);", "r = interp1(x, y, xq, 'linear');", "r = interp1(x, y, xq, 'nearest');",
    "r = interp1(x, y, xq, 'previous');", "r = interp1(x, y, xq, 'next');",
    "r = interp1(x, y, xq, 'linear', 'extrap');", "r = interp1(x, y, xq, 'linear', 0);",
    "r = interp1(y, xq);", "r = interp1(x, y, [0.5 1 1.5 2.5 7.25 9.99 10 11 NaN]);",
    "r = interp1(x, y, [0.5 1 1.5 2.5 7.25 9.99 10 11 NaN], 'nearest');",
    "r = interp1(x, y, [0.5 1 1.5 2.5 7.25 9.99 10 11 NaN], 'previous');",
    "r = interp1(x, y, [0.5 1 1.5 2.5 7.25 9.99 10 11 NaN], 'next');",
    "r = interp1(x, y, [0.5 1 11 NaN], 'nearest', -1);",
    "r = interp1(x, y, [0 11 NaN 3.5], 'linear', 'extrap');",
    "r = interp1(x(end:-1:1), y, xq);", "r = interp1(x, [y' 2 * y'], xq);",
    "r = interp1(x', [y' 2 * y'], xq');", "r = interp1(x, y, reshape(1:0.5:4.5, 2, 4));",
    "r = interp1(gather(x), y, xq);", "r = interp1(x, gather(y), gather(xq));",
    "r = interp1(single(x), y, xq);", "r = interp1(c(1:5), M(1:5, 1), [0.4 0.5 1.2]);",
    "r = interp1(x, y, xq, 'pchip');", "r = interp1(x, sin(x), [0 xq 11 NaN], 'pchip');",
    "r = interp1(x, [sin(x') cos(x')], [0.5; 3.3; 9.9], 'pchip');", "r = interp1(v, [1.5 2.2], 'cubic');",
    "r = interp1(x .^ 1.5, [1 1 2 2 3 3 2 1 0 5], 0:0.7:35, 'pchip');",
    "r = interp1(x, sin(x), [0 xq 11], 'pchip', 0);", "r = interp1([1 3], [2 -1], [0 1.5 4], 'pchip');",
    "r = interp1(x, -abs(x - 5.5), xq, 'pchip');",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_interp1_stays_on_device(device, code):
    check_snippet(code, rtol=1e-13 if "single" not in code else 1e-6)


def test_repeated_samples_raise_host_error(device):
    from matfuse import Session

    with pytest.raises(Exception) as info:
        Session(stdout=io.StringIO()).eval("interp1(gpuArray([1 2 2 3]), [1 2 3 4], 1.5);")
    assert getattr(info.value, "identifier", "") == "MATLAB:interp1:RepeatedValuesX"
