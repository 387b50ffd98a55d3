"""circshift, flip and repmat of gpuArrays: positions generated on the
device give the host results, and no index array is uploaded."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import upload_value
from matfuse.accelerate.router.layout import try_rearrange
from matfuse.runtime.dispatcher import invoke
from matfuse.runtime.registry import load_all, lookup

SOURCE = np.arange(1.0, 25.0).reshape((2, 3, 4), order="F")
ROW = np.arange(1.0, 6.0).reshape(1, 5)

CASES = [
    ("circshift", SOURCE, [1.0]), ("circshift", SOURCE, [-2.0, 3.0]),
    ("circshift", SOURCE, [np.array([[1.0, -4.0, 7.0]])]), ("circshift", SOURCE, [5.0, 4.0]),
    ("circshift", ROW, [2.0]), ("flip", SOURCE, []), ("flip", SOURCE, [3.0]), ("flip", ROW, []),
    ("fliplr", SOURCE, []), ("flipud", SOURCE[:, :, 0], []),
    ("repmat", SOURCE[:, :, 0], [2.0, 3.0]), ("repmat", SOURCE, [np.array([[1.0, 2.0, 1.0, 3.0]])]),
    ("repmat", ROW, [3.0]), ("repmat", np.array([[7.0]]), [2.0, 3.0]),
]


@pytest.mark.parametrize("name,x,args", CASES)
def test_rearrangement_on_device_matches_host(device, name, x, args):
    load_all()
    b = lookup(name)
    want = invoke(b, [x] + args, 1, None)[0]
    g = upload_value(x, device)
    before = int(device.telemetry().get("uploads", 0))
    got = try_rearrange(device, b, [g] + args)
    assert got is not None
    assert int(device.telemetry().get("uploads", 0)) == before
    np.testing.assert_array_equal(np.asarray(got.gather()), np.asarray(want))
