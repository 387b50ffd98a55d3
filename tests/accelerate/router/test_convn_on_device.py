"""``convn`` of gpuArrays runs on the device: matrices as ``conv2`` of the
same operands (which it is by definition), N-D arrays page by page through
``conv2`` (``router/convolution_nd.py``), with the host's result."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.accelerate_api import fallback_counts
from matfuse.vm.session import Session

SETUP = "A = reshape(sin(1:30), 5, 6); K = [1 2; 3 4] / 7; G = gpuArray(A);"


@pytest.mark.parametrize("shape", ["", ", 'full'", ", 'same'", ", 'valid'"])
def test_convn_of_matrices_stays_on_the_device(device, shape):
    s = Session(stdout=io.StringIO())
    s.eval(SETUP)
    s.eval(f"r = convn(G, K{shape}); h = conv2(A, K{shape});")
    assert fallback_counts() == {}
    s.eval("c = classUnderlying(r); r = gather(r);")
    assert s.get("c") == "double"
    np.testing.assert_allclose(np.asarray(s.get("r")), np.asarray(s.get("h")), rtol=1e-12, atol=1e-15)


ND_SETUP = ("X = reshape(sin(1:60), 3, 4, 5); K = reshape(cos(1:12), 2, 3, 2); "
            "X4 = reshape(cos(1:72), 3, 2, 4, 3); K4 = reshape(1:16, 2, 2, 2, 2) / 10; "
            "T = reshape(sin(1:4800), 8, 6, 100); ")
ND_CASES = ["convn(X, K{})", "convn(X4, K4{})", "convn(X, K(:, :, 1){})", "convn(X(:, :, 1:2), K{})",
            "convn(X, ones(1, 1, 2){})", "convn(T, K{})", "convn(single(X), single(K){})"]


@pytest.mark.parametrize("shape", ["", ", 'full'", ", 'same'", ", 'valid'"])
@pytest.mark.parametrize("case", ND_CASES)
def test_convn_of_nd_arrays_runs_on_the_device(device, case, shape):
    """Pages convolved by conv2 and summed: the host's values (to rounding:
    the sums of pages run in another order), class and size."""
    form = case.format(shape)
    s = Session(stdout=io.StringIO())
    s.eval(ND_SETUP + f"h = {form};")
    s.eval("X = gpuArray(X); X4 = gpuArray(X4); T = gpuArray(T);")
    s.eval(f"r = {form};")
    assert fallback_counts() == {}
    s.eval("c = classUnderlying(r); r = gather(r); hc = class(h);")
    assert s.get("c") == s.get("hc")
    got, want = np.asarray(s.get("r")), np.asarray(s.get("h"))
    assert got.shape == want.shape
    rtol = 1e-5 if s.get("c") == "single" else 1e-12
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def test_convn_of_an_empty_result_falls_back_to_the_hosts_shape(device):
    s = Session(stdout=io.StringIO())
    s.eval("X = gpuArray(ones(2, 2, 2)); q = convn(X, ones(3, 3, 3), 'valid'); d = size(q);")
    assert np.asarray(s.get("d")).tolist() == [[0.0, 0.0, 0.0]]
    assert fallback_counts().get("convn") == 1
