"""A single mean whose running sum passes realmax: the host accumulates in
double, so the mean is finite; the wgpu reduce hook does the same where the
adapter has f64 (lavapipe has)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate_api import HostTensor


@pytest.mark.parametrize("dims", [None, (0,), (1,)])
def test_single_mean_past_realmax_is_finite(wgpu_provider, dims):
    p = wgpu_provider
    if not p.ctx.has_f64:
        pytest.skip("the adapter has no f64: single means accumulate in single")
    x = np.array([[3e38, 3e38, -1e38], [3e38, 2e38, 1.0]], dtype=np.float32)
    h = p.upload(HostTensor.from_array(x))
    try:
        out = p.reduce("mean", h, dims, False, "float32")
        got = p.download(out).data
        p.free(out)
    finally:
        p.free(h)
    axis = None if dims is None else dims[0]
    want = np.mean(x.astype(np.float64), axis=axis).astype(np.float32)
    np.testing.assert_array_equal(np.ravel(got), np.ravel(want))


def test_fused_single_mean_past_realmax_is_finite(wgpu_provider):
    """The fused reduction (a lazy mean) accumulates a single mean in double too."""
    from matfuse.accelerate.fusion.lazy import lazy_reduce
    from matfuse.accelerate.gpuarray import upload_value

    p = wgpu_provider
    if not p.ctx.has_f64:
        pytest.skip("the adapter has no f64: single means accumulate in single")
    x = np.array([[3e38, 3e38, -1e38]], dtype=np.float32)
    m = lazy_reduce("mean", upload_value(x, p), (1,), p)
    assert m is not None and m.is_lazy
    np.testing.assert_array_equal(np.ravel(m.gather()), np.float32([np.mean(x.astype(np.float64))]))
