"""Positions of ``g(idx...)`` generated on the device: the same elements as
host indexing, MATLAB's errors, and no index buffer uploaded for scalars,
colons and ranges."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import upload_value
from matfuse.accelerate.router.index_positions import select
from matfuse.accelerate.router.indexing import assign_on_device, index_on_device
from matfuse.errors import MatlabError
from matfuse.runtime import indexing
from matfuse.runtime._subscripts import COLON

SOURCE = np.arange(1.0, 61.0).reshape((3, 4, 5), order="F")

CASES = [
    [2.0, 3.0, 4.0],
    [COLON, 2.0, np.array([[1.0, 3.0, 5.0]])],
    [np.array([[3.0, 2.0, 1.0]]), np.array([[2.0, 3.0]])],
    [np.array([[5.0, 2.0, 9.0]])],
    [np.array([[5.0], [6.0], [7.0]])],
    [COLON, COLON, 2.0],
    [2.0, COLON],
    [np.array([[1.0, 1.0, 3.0]]), COLON, np.array([[5.0, 1.0]])],
    [np.array([[True, False, True]]), 4.0, 1.0],
    [np.arange(1.0, 61.0, 7.0).reshape(1, -1)],
]


def _uploads(p) -> int:
    return int(p.telemetry().get("uploads", 0))


@pytest.mark.parametrize("idx", CASES)
def test_device_positions_select_what_host_indexing_selects(device, idx):
    g = upload_value(SOURCE, device)
    want = indexing.paren_get(SOURCE, idx)
    got = index_on_device(device, g, list(idx)).gather()
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert np.shape(got) == np.shape(want)


@pytest.mark.parametrize("idx", CASES)
def test_device_assignment_writes_where_host_assignment_writes(device, idx):
    g = upload_value(SOURCE.copy(), device)
    want = indexing.paren_set(SOURCE.copy(), idx, -1.0)
    got = assign_on_device(device, g, list(idx), -1.0).gather()
    np.testing.assert_array_equal(got, want)


def test_ranges_and_scalars_upload_no_positions(device):
    g = upload_value(SOURCE, device)
    y = upload_value(np.zeros((1, 50)), device)
    before = _uploads(device)
    for k in range(1, 6):
        index_on_device(device, g, [float(k % 3 + 1), COLON, np.arange(2.0, 5.0).reshape(1, -1)])
        y = assign_on_device(device, y, [float(k)], 2.0 * k, inplace=True)
    index_on_device(device, g, [np.arange(3.0, 0.0, -1.0).reshape(1, -1), COLON])
    assert _uploads(device) == before
    np.testing.assert_array_equal(y.gather()[0, :6], [2, 4, 6, 8, 10, 0])


def test_irregular_subscript_uploads_one_dimension_of_positions(device):
    g = upload_value(SOURCE, device)
    before = _uploads(device)
    got = index_on_device(device, g, [COLON, np.array([[4.0, 1.0, 2.0]]), COLON]).gather()
    assert _uploads(device) == before + 1
    np.testing.assert_array_equal(got, SOURCE[:, [3, 0, 1], :])


def test_selection_raises_matlab_errors():
    with pytest.raises(MatlabError, match="Index in position 1 exceeds array bounds"):
        select((3, 4), [4.0, 1.0])
    with pytest.raises(MatlabError, match="positive integers"):
        select((3, 4), [0.0])
    # an assignment beyond the array grows it: not a selection of this module
    assert select((3, 4), [4.0, 1.0], check_bounds=False) is None


def test_empty_arrays_take_the_general_path(device):
    g = upload_value(np.zeros((0, 0)), device)
    assert index_on_device(device, g, [COLON]).shape == (0, 1)
    assert index_on_device(device, g, [COLON, COLON]).shape == (0, 0)
    with pytest.raises(MatlabError, match="Index exceeds"):
        index_on_device(device, g, [1.0])


def test_growth_and_mismatch_keep_matlab_semantics(device):
    g = upload_value(np.zeros((2, 2)), device)
    grown = assign_on_device(device, g, [3.0, 1.0], 5.0)
    np.testing.assert_array_equal(grown.gather(), [[0, 0], [0, 0], [5, 0]])
    with pytest.raises(MatlabError, match="size of the left side is 2-by-2"):
        assign_on_device(device, g, [COLON, COLON], np.ones((1, 3)))
