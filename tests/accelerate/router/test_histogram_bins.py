"""histcounts(x) with automatic bins on gpuArrays stays on the device
(one read-back of four statistics) and agrees with the host."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = histcounts(v);", "r = histcounts(M);", "r = histcounts(N);", "r = histcounts(round(M * 10));",
    "r = histcounts(single(M) * 1000);", "r = histcounts([v Inf -Inf NaN]);", "r = histcounts(v * 0 + 3);",
    "r = histcounts(round(M * 1000));", "[r, e] = histcounts(v); r = [r e];", "r = histcounts(v(1));",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_auto_histcounts_stays_on_device(device, code):
    check_snippet(code, exact=True)
