"""quantile, prctile and iqr of gpuArrays stay on the device and agree with
the host (NaN ignored per slice, infinite data, single data)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = prctile(v, 50);", "r = prctile(M, [25 50 75]);", "r = prctile(M, [10; 90], 2);",
    "r = quantile(v, 0.3);", "r = quantile(M, [0.25 0.5], 2);", "r = quantile(M, 3);",
    "r = quantile(v', [0 1]);", "r = quantile(X, 0.4, 3);", "r = quantile(X, [0.2 0.7], 'all');",
    "r = prctile(N, [5 50 95]);", "r = quantile(N', 0.5, 2);", "r = prctile(M, 50, 3);",
    "r = quantile(single(M), [0.1 0.9]);",
    "A = M; A(1, 1) = Inf; A(2, 2) = -Inf; r = prctile(A, [0 30 50 100]);",
    "A = N; A(:, 2) = NaN; r = quantile(A, 0.5);",
    "r = iqr(v);", "r = iqr(M);", "r = iqr(M, 2);", "r = iqr(X, [1 3]);", "r = iqr(X, 'all');",
    "r = iqr(N);", "r = iqr(single(N), 2);",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_quantiles_stay_on_device(device, code):
    check_snippet(code)
