"""Reductions of single data stay accurate over strided dimensions (NumPy
sums those sequentially; in float32 the error grows with the count)."""

from __future__ import annotations

import numpy as np

from matfuse.vm.session import Session


def test_mean_and_sum_of_single_over_strided_dims_are_accurate():
    rng = np.random.default_rng(1)
    x = rng.random((16, 500, 400)).astype(np.float32)
    s = Session()
    s.set("x", x)
    s.eval("m = mean(x, [2 3]); t = sum(x, [2 3]); a = mean((x - 0.5).^2, 'all');")
    want_m = x.astype(np.float64).mean(axis=(1, 2))
    want_t = x.astype(np.float64).sum(axis=(1, 2))
    want_a = ((x - np.float32(0.5)) ** 2).astype(np.float64).mean()
    m, t, a = (np.asarray(s.get(k), dtype=np.float64).reshape(-1) for k in ("m", "t", "a"))
    np.testing.assert_allclose(m, want_m, rtol=2e-7)
    np.testing.assert_allclose(t, want_t, rtol=2e-7)
    np.testing.assert_allclose(a, want_a, rtol=2e-7)
    assert s.get("m").dtype == np.float32
