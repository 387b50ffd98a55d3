"""``convn`` of gpuArray matrices runs on the device (as ``conv2`` of the
same operands, which it is by definition) with the host's result; N-D
operands stay a counted host fallback."""

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


def test_convn_of_nd_arrays_falls_back(device):
    s = Session(stdout=io.StringIO())
    s.eval("X = gpuArray(ones(2, 2, 2)); q = convn(X, ones(2)); d = size(q);")
    assert np.asarray(s.get("d")).tolist() == [[3.0, 3.0, 2.0]]
    assert fallback_counts().get("convn") == 1
