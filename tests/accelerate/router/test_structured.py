"""toeplitz, hankel and vander of gpuArrays stay on the device and agree
with the host (warnings on a diagonal conflict included)."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = toeplitz(v);", "r = toeplitz(c, v);", "r = toeplitz(c, [gather(c(1)) 5 6]);",
    "r = toeplitz(single(c));", "r = toeplitz(c', gather(v));", "r = toeplitz(v > 0);",
    "r = hankel(c);", "r = hankel(c, v);", "r = hankel(c, [gather(c(end)) 1 2 3]);",
    "r = hankel(v');", "r = hankel(single(c), v);",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_structured_matrix_stays_on_device(device, code):
    check_snippet(code, exact=True)


@pytest.mark.parametrize("code", ["r = vander(c);", "r = vander(v);", "r = vander(single(v(1:4)));"])
def test_vander_stays_on_device(device, code):
    check_snippet(code)


@pytest.mark.parametrize("code,ident", [
    ("toeplitz(gpuArray([1 2 3]), [4 5]);", "Warning: First element of input column"),
    ("hankel(gpuArray([1 2 3]), [4 5]);", "Warning: Last element of input column"),
])
def test_conflict_warning_as_host(device, capsys, code, ident):
    import io

    from matfuse import Session

    Session(stdout=io.StringIO()).eval(code)
    assert ident in capsys.readouterr().err
