"""Every method of normalize on gpuArrays stays on the device and agrees
with the host."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = normalize(M);", "r = normalize(M, 2);", "r = normalize(M, 'zscore');",
    "r = normalize(M, 'zscore', 'std');", "r = normalize(M, 'zscore', 'robust');",
    "r = normalize(M, 'range');", "r = normalize(M, 2, 'range', [-1 1]);",
    "r = normalize(M, 'center');", "r = normalize(M, 'center', 'median');",
    "r = normalize(M, 'center', 2);", "r = normalize(M, 'scale');", "r = normalize(M, 'scale', 'mad');",
    "r = normalize(M, 2, 'scale', 'first');", "r = normalize(M, 'scale', 3);",
    "r = normalize(v, 'norm');", "r = normalize(M, 'norm', 1);", "r = normalize(M, 'norm', Inf);",
    "r = normalize(M, 2, 'norm', 3);", "r = normalize(N);", "r = normalize(N, 'range');",
    "r = normalize(N, 'norm');", "r = normalize(X, 3, 'center');", "r = normalize([M; 1e200 * M(1, :)], 'norm');",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_normalize_stays_on_device(device, code):
    check_snippet(code, rtol=1e-10)


def test_single_normalize(device):
    check_snippet("r = normalize(single(M), 'range');", rtol=1e-5)
