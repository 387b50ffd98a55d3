"""GpuArray: residency lifetime, gather, reset invalidation, host conversion."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import GpuArray, bump_epoch, upload_value
from matfuse.errors import MatlabError
from matfuse.runtime.values import CellArray, char_array, class_of, element_class


def test_buffer_freed_when_collected(inproc):
    g = upload_value(np.ones((3, 3)), inproc)
    assert inproc.live_buffers() == 1
    del g
    gc.collect()
    assert inproc.live_buffers() == 0


def test_gather_returns_canonical_host_values(inproc):
    assert upload_value(2.5, inproc).gather() == 2.5
    assert upload_value(True, inproc).gather() is True
    arr = np.arange(6.0).reshape(2, 3)
    g = upload_value(arr, inproc)
    assert g.shape == (2, 3) and class_of(g) == "gpuArray" and element_class(g) == "double"
    np.testing.assert_array_equal(g.gather(), arr)


@pytest.mark.parametrize("value,cls", [(np.ones((2, 2), np.float32), "single"),
                                       (np.ones((1, 3), np.int32), "int32"),
                                       (np.ones((2, 1), np.uint8), "uint8"),
                                       (np.array([[1 + 2j]]), "double"),
                                       (np.zeros((0, 3)), "double")])
def test_classes_survive_the_round_trip(inproc, value, cls):
    g = upload_value(value, inproc)
    assert g.underlying_class() == cls
    back = g.gather()
    assert np.asarray(back).dtype == value.dtype
    np.testing.assert_array_equal(back, value)


def test_char_round_trip(inproc):
    g = upload_value(char_array("hello"), inproc)
    assert g.underlying_class() == "char"
    np.testing.assert_array_equal(g.gather(), char_array("hello"))


def test_complex_flag(inproc):
    assert upload_value(np.array([[1j]]), inproc).is_complex()
    assert not upload_value(1.0, inproc).is_complex()


def test_cells_cannot_be_uploaded(inproc):
    with pytest.raises(MatlabError) as info:
        upload_value(CellArray.empty((1, 1)), inproc)
    assert info.value.identifier == "parallel:gpu:array:UnsupportedType"


def test_reset_invalidates_old_arrays(inproc):
    g = upload_value(np.ones((2, 2)), inproc)
    inproc.reset()
    bump_epoch(inproc)
    assert not g.is_valid
    with pytest.raises(MatlabError) as info:
        g.gather()
    assert info.value.identifier == "parallel:gpu:array:InvalidData"
    assert info.value.message == "The data no longer exists on the device."
    fresh = upload_value(np.ones((2, 2)), inproc)
    del g  # freeing a stale array must not free the new buffer
    gc.collect()
    assert fresh.is_valid and inproc.live_buffers() == 1


def test_upload_of_a_gpuarray_is_identity(inproc):
    g = upload_value(1.0, inproc)
    assert upload_value(g, inproc) is g
    assert isinstance(g, GpuArray)
