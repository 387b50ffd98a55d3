"""conv conv2 deconv filter fft ifft fft2 ifft2 fftshift ifftshift."""

from __future__ import annotations

import numpy as np
import scipy.signal
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from builtins_b_support import call, close, col, raises, row, text

vectors = hnp.arrays(np.float64, st.integers(1, 8), elements=st.floats(-10, 10, allow_nan=False))


@settings(max_examples=30, deadline=None)
@given(vectors, vectors)
def test_conv_matches_numpy(a: np.ndarray, b: np.ndarray) -> None:
    close(call("conv", a.reshape(1, -1), b.reshape(1, -1)), np.convolve(a, b).reshape(1, -1),
          rtol=1e-9, atol=1e-9)


def test_conv_shapes_and_orientation() -> None:
    close(call("conv", row(1, 2, 3), row(1, 1)), row(1, 3, 5, 3))
    close(call("conv", row(1, 2, 3), row(1, 1), text("same")), row(3, 5, 3))
    close(call("conv", row(1, 2, 3), row(1, 1), text("valid")), row(3, 5))
    assert call("conv", col(1, 2, 3), row(1, 1)).shape == (4, 1)   # longer input's orientation
    assert call("conv", row(1, 2), col(1, 1, 1)).shape == (4, 1)
    assert call("conv", col(1, 2, 3), row(1, 1), text("same")).shape == (3, 1)
    assert call("conv", row(1, 2), row(1, 2, 3), text("valid")).shape == (1, 0)
    raises("MATLAB:conv:AorBNotVector", "conv", np.ones((2, 2)), row(1, 2))
    raises("MATLAB:conv:unknownShapeParameter", "conv", row(1, 2), row(1, 2), text("bad"))


def test_conv2() -> None:
    close(call("conv2", np.ones((3, 3)), np.ones((2, 2)), text("same")),
          np.array([[4.0, 4, 2], [4, 4, 2], [2, 2, 1]]))
    m = np.arange(16.0).reshape(4, 4)
    k = np.array([[1.0, 2], [3, 4]])
    close(call("conv2", m, k), scipy.signal.convolve2d(m, k))
    close(call("conv2", m, k, text("valid")), scipy.signal.convolve2d(m, k, "valid"))
    close(call("conv2", col(1, 2), row(1, 1), m), scipy.signal.convolve2d(m, np.array([[1.0, 1], [2, 2]])))


def test_deconv() -> None:
    q, r = call("deconv", row(1, 3, 5, 3), row(1, 1), nargout=2)
    close(q, row(1, 2, 3))
    close(r, row(0, 0, 0, 0))
    raises("MATLAB:deconv:ZeroCoef1", "deconv", row(1, 2), row(0, 1), nargout=2)


def test_filter() -> None:
    close(call("filter", 1.0, row(1, -0.5), row(1, 1, 1)), row(1, 1.5, 1.75))
    y, zf = call("filter", row(1, 1), 1.0, row(1, 2, 3), 5.0, nargout=2)
    close(y, row(6, 3, 5))
    assert zf == 3.0
    x = np.arange(1.0, 7.0).reshape(3, 2, order="F")
    close(call("filter", row(1, 1), 1.0, x), scipy.signal.lfilter([1, 1], [1], x, axis=0))
    close(call("filter", row(1, 1), 1.0, x, np.zeros((0, 0)), 2.0),
          scipy.signal.lfilter([1, 1], [1], x, axis=1))
    close(call("filter", 2.0, 4.0, row(1, 2)), row(0.5, 1))
    raises("MATLAB:filter:firstCoeffZero", "filter", 1.0, row(0, 1), row(1, 2))


def test_fft_family() -> None:
    f = call("fft", row(1, 2, 3, 4))
    close(f, np.fft.fft([1, 2, 3, 4]).reshape(1, -1))
    assert f.dtype == np.complex128
    back = call("ifft", f)
    assert back.dtype == np.float64
    close(back, row(1, 2, 3, 4))
    close(call("fft", row(1, 2), 4.0), np.fft.fft([1, 2, 0, 0]).reshape(1, -1))
    m = np.arange(6.0).reshape(2, 3)
    close(call("fft", m), np.fft.fft(m, axis=0))
    close(call("fft", m, np.zeros((0, 0)), 2.0), np.fft.fft(m, axis=1))
    y = call("ifft", np.array([[1.0, 1j, 0]]))
    assert y.dtype == np.complex128
    y = call("ifft", np.array([[1.0, 1j, 0]]), text("symmetric"))
    assert y.dtype == np.float64
    close(call("fft2", np.eye(2)), np.fft.fft2(np.eye(2)))
    close(call("ifft2", call("fft2", m)), m)
    close(call("fftshift", row(1, 2, 3, 4, 5)), row(4, 5, 1, 2, 3))
    close(call("ifftshift", row(1, 2, 3, 4, 5)), row(3, 4, 5, 1, 2))
    close(call("fftshift", np.arange(4.0).reshape(2, 2)), np.fft.fftshift(np.arange(4.0).reshape(2, 2)))
