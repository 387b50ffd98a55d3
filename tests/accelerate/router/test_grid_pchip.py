"""interp2 'cubic' and 'pchip' of gpuArrays (pchip along each dimension, as
the host engine computes them) stay on the device and agree with the host."""

from __future__ import annotations

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = interp2(Z, xq, xq, 'cubic');", "r = interp2(Z, [1.5 2.5 4.9], [2.5 3 1.1], 'pchip');",
    "r = interp2(XX, YY, Z, [1.2 3.7], [1.5 3.5], 'cubic');", "r = interp2(Z, 0.5, 2, 'cubic');",
    "r = interp2(Z, [1.5 NaN 6], [2 2 2], 'cubic');", "r = interp2(Z, [1.5 9], [2 2], 'cubic', -1);",
    "r = interp2(Z, xq', xq, 'cubic');", "r = interp2(M, 'cubic');", "r = interp2(sin(Z), 2, 'pchip');",
    "r = interp2(single(Z), xq, xq, 'cubic');",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_pchip_on_grid_stays_on_device(device, code):
    check_snippet(code, rtol=1e-11)
