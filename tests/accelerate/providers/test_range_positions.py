"""``range_positions``: the int32 positions of an N-D range selection made by
one kernel, equal on every provider (in-process, wgpu, CUDA over the fake
CuPy) to the positions built from per-dimension ranges on the host."""

from __future__ import annotations

import numpy as np
import pytest

from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401

# (axes as (first, step, modulus, scale), shape)
CASES = [
    ([(0, 1, 0, 1), (0, 5, 0, 1)], (5, 4)),                   # every element
    ([(1, 1, 0, 1), (5, 5, 0, 1)], (3, 2)),                   # U(2:4, 2:3) of 5x4
    ([(9, -1, 0, 1), (0, 0, 0, 1)], (10, 1)),                 # end:-1:1
    ([(3, 1, 5, 1), (0, 5, 0, 1)], (5, 4)),                   # circshift by 2 along 1
    ([(0, 1, 0, 1), (3, 1, 4, 5)], (5, 4)),                   # circshift by 1 along 2
    ([(0, 1, 3, 1), (0, 1, 2, 3), (0, 0, 0, 1)], (6, 4, 1)),  # repmat(x3x2, 2, 2)
    ([(2, 1, 0, 1), (0, 7, 0, 1), (14, 0, 0, 1)], (2, 3, 1)),  # a 3-D block at page 2
]


def expected(axes, shape):
    """Per-dimension ranges combined by broadcast plus on the host."""
    out = np.zeros(shape, dtype=np.int64)
    for d, ((first, step, modulus, scale), count) in enumerate(zip(axes, shape)):
        v = first + np.arange(count) * step
        if modulus:
            v = np.mod(v, modulus) * scale
        out = out + v.reshape([count if k == d else 1 for k in range(len(shape))])
    return out.astype(np.int32)


def _check(provider, axes, shape):
    h = provider.range_positions(axes, 0, shape)
    got = provider.download(h).data
    provider.free(h)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(got).reshape(shape, order="F"), expected(axes, shape))


@pytest.mark.parametrize("axes,shape", CASES)
def test_range_positions(device, axes, shape):
    _check(device, axes, shape)


@pytest.mark.parametrize("axes,shape", CASES)
def test_range_positions_cuda_fake(cuda_device, axes, shape):
    _check(cuda_device, axes, shape)
