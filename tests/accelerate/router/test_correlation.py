"""corrcoef and corr of gpuArrays stay on the device and agree with the host."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = corrcoef(M);", "r = corrcoef(v, v .^ 2);", "r = corrcoef(M(:, 1), gather(M(:, 2)));",
    "r = corrcoef(N);", "r = corrcoef([M(:, 1:2) ones(5, 1)]);", "r = corrcoef(v');",
    "r = corr(M);", "r = corr(M(:, 1), M(:, 2));", "r = corr(M, M(:, 1:2) .^ 2);", "r = corr(N);",
    "r = corr(v', (v .^ 3)');", "r = corr(single(M));",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_correlation_stays_on_device(device, code):
    check_snippet(code, rtol=1e-10)


def test_single_corrcoef(device):
    check_snippet("r = corrcoef(single(M));", rtol=1e-5)
