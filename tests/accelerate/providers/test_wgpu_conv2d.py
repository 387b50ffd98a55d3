"""wgpu conv2d (MATLAB conv2 'full'/'same'/'valid') against the host
implementation and the in-process provider (runs on lavapipe)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate_api import HostTensor, Unsupported
from matfuse.runtime.builtins.signal import _conv2_full, _cut2
from tests.accelerate.oracle import REFERENCE, OracleCase, assert_matches, run_case

_MODES = ("full", "same", "valid")
_SHAPES = (((4, 4), (2, 3)), ((5, 7), (3, 3)), ((1, 1), (1, 1)), ((3, 2), (4, 5)),
           ((1, 9), (1, 4)), ((6, 1), (2, 1)), ((17, 23), (5, 4)), ((2, 2), (2, 2)))


def _host_conv2(a: np.ndarray, b: np.ndarray, mode: str) -> np.ndarray:
    """The runtime's CPU conv2 (MATLAB semantics, empties included)."""
    return _cut2(_conv2_full(a, b), a.shape, b.shape, mode)


def _run(prov, a: np.ndarray, b: np.ndarray, mode: str) -> np.ndarray:
    ha = prov.upload(HostTensor.from_array(a))
    hb = prov.upload(HostTensor.from_array(b))
    try:
        out = prov.conv2d(ha, hb, mode)
        try:
            return prov.download(out).to_array()
        finally:
            prov.free(out)
    finally:
        prov.free(ha)
        prov.free(hb)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("mode", _MODES)
@pytest.mark.parametrize("shapes", _SHAPES, ids=str)
def test_conv2d_matches_reference(wgpu_provider, dtype, mode, shapes):
    rng = np.random.default_rng(sum(shapes[0]) + len(mode))
    a = (rng.standard_normal(shapes[0]) * 3).astype(dtype)
    b = rng.standard_normal(shapes[1]).astype(dtype)
    case = OracleCase(f"conv2d-{mode}-{dtype}-{shapes}", "conv2d", [a, b], args=(mode,))
    assert_matches(run_case(case, wgpu_provider), run_case(case, REFERENCE), case)


@pytest.mark.parametrize("mode", _MODES)
@pytest.mark.parametrize("shapes", [((2, 2), (3, 3)), ((1, 4), (3, 1)), ((2, 5), (2, 5))],
                         ids=str)
def test_conv2d_kernel_larger_than_image(wgpu_provider, mode, shapes):
    a = np.arange(1.0, 1.0 + np.prod(shapes[0])).reshape(shapes[0], order="F")
    b = np.linspace(-1.0, 1.0, int(np.prod(shapes[1]))).reshape(shapes[1], order="F")
    got = _run(wgpu_provider, a, b, mode)
    want = _host_conv2(a, b, mode)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode", _MODES)
def test_conv2d_nan_and_inf_propagate_like_host(wgpu_provider, mode):
    a = np.arange(30.0).reshape(5, 6)
    a[1, 2] = np.nan
    a[4, 0] = np.inf
    b = np.array([[1.0, -2.0], [0.5, 0.25], [3.0, 1.0]])
    got = _run(wgpu_provider, a, b, mode)
    np.testing.assert_allclose(got, _host_conv2(a, b, mode), rtol=1e-12, equal_nan=True)


def test_conv2d_large_kernel_grid_strides(wgpu_provider):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((300, 257)).astype(np.float32)
    b = rng.standard_normal((7, 5)).astype(np.float32)
    got = _run(wgpu_provider, a, b, "same")
    want = _host_conv2(a.astype(np.float64), b.astype(np.float64), "same")
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    assert got.dtype == np.float32


@pytest.mark.parametrize("a, b, mode", [
    (np.zeros((2, 2, 2)), np.ones((2, 2)), "full"),
    (np.zeros((3, 3)), np.ones((2, 2), np.float32), "full"),
    (np.zeros((3, 3), np.int32), np.ones((2, 2), np.int32), "full"),
    (np.zeros((3, 3)), np.ones((2, 2)), "circular"),
    (np.zeros((0, 3)), np.ones((2, 2)), "same"),
    (np.ones((3, 4)), np.zeros((0, 0)), "valid"),
    (np.ones((3, 4)) + 1j, np.ones((2, 2)) + 0j, "full"),
])
def test_conv2d_unsupported_forms_fall_back(wgpu_provider, a, b, mode):
    ha = wgpu_provider.upload(HostTensor.from_array(a))
    hb = wgpu_provider.upload(HostTensor.from_array(b))
    before = wgpu_provider.live_buffers()
    try:
        with pytest.raises(Unsupported):
            wgpu_provider.conv2d(ha, hb, mode)
        assert wgpu_provider.live_buffers() == before
    finally:
        wgpu_provider.free(ha)
        wgpu_provider.free(hb)
