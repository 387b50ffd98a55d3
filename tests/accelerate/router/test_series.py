"""diff, trapz and cumtrapz of gpuArrays stay on the device and agree with
the host in class, size and values."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

EXACT = [
    "r = diff(v);", "r = diff(M);", "r = diff(M, 2);", "r = diff(M, 1, 2);",
    "r = diff(I);", "r = diff(int8(I) * 4, 2);", "r = diff(U, [], 2);", "r = diff(M > 0);",
    "r = diff(X, 1, 3);", "r = diff(single(M), 3);", "r = diff(N);",
]
CLOSE = [
    "r = trapz(y);", "r = trapz(x, y);", "r = trapz(M);", "r = trapz(M, 2);",
    "r = trapz(X, 3);", "r = trapz(0.5, M);", "r = trapz(gather(c(1:5)), M);",
    "r = trapz(M(:, 1:2) + 1, M(:, 3:4));", "r = trapz(single(y));", "r = trapz(x', y', 1);",
    "r = cumtrapz(y);", "r = cumtrapz(x, y);", "r = cumtrapz(M, 2);", "r = cumtrapz(X, 3);",
    "r = cumtrapz(single(M));", "r = cumtrapz(N);",
]


@pytest.mark.parametrize("code", EXACT)
def test_diff_stays_on_device(device, code):
    check_snippet(code, exact=True)


@pytest.mark.parametrize("code", CLOSE)
def test_trapz_stays_on_device(device, code):
    check_snippet(code)


def test_trapz_of_single_is_single_on_the_host():
    from tests.accelerate.router.snippet_check import run

    assert run("r = trapz(single([1 2 3])) + cumtrapz(single([1 2]))(end);", False)[0] == "single"
