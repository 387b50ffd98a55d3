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
    "r = normalize(M, 'scale', 'iqr');", "r = normalize(N, 'scale', 'iqr');",
    "r = normalize(M, 'medianiqr');", "r = normalize(M, 2, 'medianiqr');",
    "r = normalize(N, 'medianiqr');", "r = normalize(M, 'center', 'median', 'scale', 'mad');",
    "r = normalize(M, 'scale', 'iqr', 'center', 1.5);", "r = normalize(M, 2, 'center', 'scale');",
    "[r, C, S] = normalize(M); r = [r; C; S];", "[r, C, S] = normalize(M, 'range', [-1 1]); r = [r; C; S];",
    "[r, C, S] = normalize(N, 'medianiqr'); r = [r; C; S];",
    "[r, C, S] = normalize(M, 'center', [1 2 3 4 5 6]); r = [r; C; S + 0 * C];",
    "[r, C] = normalize(v, 'norm'); r = [r C];",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_normalize_stays_on_device(device, code):
    check_snippet(code, rtol=1e-10)


def test_single_normalize(device):
    check_snippet("r = normalize(single(M), 'range');", rtol=1e-5)


def test_single_medianiqr(device):
    check_snippet("r = normalize(single(M), 'medianiqr');", rtol=1e-5)


def test_outputs_of_a_device_call_are_on_the_device(device):
    import io

    from matfuse import Session

    s = Session(stdout=io.StringIO())
    s.eval("[N, C, S] = normalize(gpuArray(single(magic(4))), 'center', 'scale', 'iqr'); "
           "k = {class(N), class(C), class(S), classUnderlying(C), classUnderlying(S)};")
    assert [str(x) for x in s.get("k")] == \
        ["gpuArray", "gpuArray", "gpuArray", "single", "single"]
