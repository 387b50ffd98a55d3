"""Integer ranges given to the device are generated there, bit-identical;
anything else is uploaded."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import upload_value
from matfuse.accelerate.range_uploads import integer_range

RANGES = [np.arange(1.0, 25.0).reshape(1, -1), np.arange(0.0, 20000.0).reshape(-1, 1),
          np.array([[7.0, 8.0]]), np.arange(10.0, -11.0, -3.0).reshape(1, -1),
          np.array([[5.0, 5.0, 5.0]])]
NOT_RANGES = [np.array([[1.0, 2.0, 4.0]]), np.array([[0.5, 1.5]]), np.array([[-0.0, 1.0]]),
              np.array([[0.0, -0.0]]), np.array([[2.0, 1.0, -0.0, -1.0]]),
              np.arange(12.0).reshape(3, 4), np.array([[2.0**31, 2.0**31 + 1]]),
              np.array([[1.0, 2.0, np.nan, 4.0]]), np.array([[1.0, 2.0]], dtype=np.float32)]


@pytest.mark.parametrize("value", RANGES)
def test_ranges_are_generated_on_the_device(device, value):
    assert integer_range(value) is not None
    before = int(device.telemetry().get("uploads", 0))
    g = upload_value(value, device)
    assert int(device.telemetry().get("uploads", 0)) == before
    got = g.gather()
    assert g.matlab_class == "double" and np.shape(got) == value.shape
    np.testing.assert_array_equal(got, value)
    assert not np.signbit(np.asarray(got)).any() or np.signbit(value).any()


@pytest.mark.parametrize("value", NOT_RANGES)
def test_other_data_is_uploaded_unchanged(device, value):
    assert integer_range(value) is None
    got = upload_value(value, device).gather()
    np.testing.assert_array_equal(np.asarray(got), value)
    np.testing.assert_array_equal(np.signbit(np.asarray(got)), np.signbit(value))
