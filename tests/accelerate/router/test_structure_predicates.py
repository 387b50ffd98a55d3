"""istril/istriu/isdiag/issymmetric/ishermitian/issorted of gpuArrays are
decided on the device (one logical scalar read back) and agree with the host."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = istril(M);", "r = istril(tril(M));", "r = istriu(triu(M));", "r = istriu(M);",
    "r = isdiag(M);", "r = isdiag(eye(10) .* v);", "r = isdiag(eye(10) .* v + triu(ones(10), 1));",
    "r = istril(X);", "r = istril(I);", "r = istril(tril(I));", "r = istriu(M(1:3, 1:3) + 1i);",
    "r = istril(gpuArray([1 0; NaN 2]));", "r = istriu(gpuArray([1 0; NaN 2]));",
    "r = issymmetric(M);", "r = issymmetric(M' * M);", "r = issymmetric(Z(1:4, 1:4));",
    "r = issymmetric(M(1:5, 1:5) - M(1:5, 1:5)', 'skew');", "r = issymmetric(I);",
    "r = ishermitian(M' * M);", "r = ishermitian(gpuArray([1 2+1i; 2-1i 3]));",
    "r = issymmetric(gpuArray([1 2+1i; 2+1i 3]));", "r = ishermitian(gpuArray([1 NaN; NaN 1]));",
    "r = issorted(v);", "r = issorted(sort(v));", "r = issorted(sort(M));", "r = issorted(M, 2);",
    "r = issorted(sort(M, 2), 2);", "r = issorted(sort(v, 'descend'), 'descend');",
    "r = issorted(gpuArray([1 2 NaN NaN]));", "r = issorted(gpuArray([1 NaN 2]));",
    "r = issorted(gpuArray([NaN 3 2 2]), 'descend');", "r = issorted(x);", "r = issorted(v(1));",
]


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_structure_test_stays_on_device(device, code):
    check_snippet(code, exact=True, host_code=_host_form(code))
