"""rat and rats of gpuArrays expand on the device and agree exactly with
the host: [N, D] as gpuArrays, the text forms read back only the terms or
N and D (no counted fallback)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SPECIAL = "gpuArray([pi Inf -Inf NaN 0 -2.5 1e-9 1/3 -7 355/113])"

SNIPPETS = [
    "[N, D] = rat(M); r = [N D];", "[N, D] = rat(M, 0.01); r = N ./ D;",
    f"[N, D] = rat({SPECIAL}); r = [N; D];", "[N, D] = rat(X); r = D;",
    "[N, D] = rat(I); r = N;", "[N, D] = rat(single(v)); r = [N D];",
    "r = rat(M(1:4));", f"r = rat({SPECIAL});", "r = rat(v(3), 1e-3);", "r = rat(c);",
    "r = rats(M);", "r = rats(M, 8);", f"r = rats({SPECIAL});", "r = rats(c');",
    "r = rats(gpuArray([0.5 0.25; 1e-20 1e20]));",
]


def host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS)
def test_rat_and_rats_expand_on_the_device(device, code):
    check_snippet(code, exact=True, host_code=host_form(code))
