"""skewness and kurtosis of gpuArrays stay on the device and agree with the
host (NaN ignored, bias correction, dim/vecdim/'all', single data)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = skewness(M);", "r = skewness(v);", "r = skewness(M, 0);", "r = skewness(M, 1, 2);",
    "r = skewness(N);", "r = skewness(X, [], [1 3]);", "r = skewness(X, 0, 'all');",
    "r = kurtosis(M);", "r = kurtosis(v, 0);", "r = kurtosis(N', 0, 2);", "r = kurtosis(X, 1, 3);",
    "r = skewness(M(1:2, :), 0);", "r = kurtosis(M(1:3, :), 0);",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_shape_statistics_stay_on_device(device, code):
    check_snippet(code, rtol=1e-10)


@pytest.mark.parametrize("code", ["r = skewness(single(M));", "r = kurtosis(single(N), 0);"])
def test_single_shape_statistics(device, code):
    check_snippet(code, rtol=2e-4)
