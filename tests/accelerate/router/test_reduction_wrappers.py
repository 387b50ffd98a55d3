"""nan* functions, range, bounds, vecnorm, tril and triu of gpuArrays stay
on the device and agree with the host."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

CLOSE = [
    "r = nanmean(N);", "r = nanmean(N, 2);", "r = nansum(N);", "r = nanvar(N);", "r = nanstd(N, 1, 2);",
    "r = nanmedian(N);", "r = nanmedian(N, 2);", "r = nanmedian(single(N));",
    "r = vecnorm(M);", "r = vecnorm(M, 1);", "r = vecnorm(M, Inf, 2);", "r = vecnorm(M, 3, 2);",
    "r = vecnorm(X, 2, 3);", "r = vecnorm(N);", "r = vecnorm(M, 2, 3);",
]
EXACT = [
    "r = nanmax(N);", "r = nanmin(N, [], 2);", "[r, k] = nanmax(N); r = [r; k];",
    "r = range(M);", "r = range(N, 2);", "r = range(I);", "r = range(int8(I) * 3, 'all');",
    "r = range(M > 0);", "r = range(X, [1 3]);", "[a, b] = bounds(M); r = [a; b];",
    "[a, b] = bounds(N, 2); r = [a b];", "r = bounds(I, 'all');",
    "r = tril(M);", "r = triu(M);", "r = tril(M, 1);", "r = triu(M, -2);", "r = tril(I, 10);",
    "r = triu(M > 0, 1);", "r = tril(U', -1);",
]


@pytest.mark.parametrize("code", CLOSE)
def test_wrappers_stay_on_device(device, code):
    check_snippet(code, rtol=1e-12 if "single" not in code else 1e-6)


@pytest.mark.parametrize("code", EXACT)
def test_exact_wrappers_stay_on_device(device, code):
    check_snippet(code, exact=True)
