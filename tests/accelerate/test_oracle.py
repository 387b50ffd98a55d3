"""Every provider hook on the provider(s) under test vs the NumPy reference."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from tests.accelerate.oracle import ORACLE_CASES, REFERENCE, assert_matches, make_array, run_case
from matfuse.accelerate_api import HostTensor


@pytest.mark.parametrize("case", ORACLE_CASES, ids=lambda c: c.id)
def test_hook_matches_reference(accel_provider, case):
    assert_matches(run_case(case, accel_provider), run_case(case, REFERENCE), case)


@pytest.mark.parametrize("cls", ["double", "single", "int32", "logical", "complex"])
@pytest.mark.parametrize("shape", [(1, 1), (0, 0), (0, 3), (1, 5), (5, 1), (3, 4), (2, 3, 4)])
def test_upload_download_roundtrip(accel_provider, cls, shape):
    x = make_array(cls, shape, 1)
    h = accel_provider.upload(HostTensor.from_array(x))
    try:
        assert tuple(h.shape) == shape
        back = accel_provider.download(h).to_array()
        assert back.dtype == x.dtype
        np.testing.assert_array_equal(back, x)
    finally:
        accel_provider.free(h)


def test_free_twice_is_noop(accel_provider):
    h = accel_provider.upload(HostTensor.from_array(np.ones((2, 2))))
    accel_provider.free(h)
    accel_provider.free(h)


def test_hooks_do_not_leak(accel_provider):
    gc.collect()  # gpuArrays of earlier tests free their buffers when collected
    try:
        before = accel_provider.live_buffers()
    except NotImplementedError:
        pytest.skip("provider does not count buffers")
    for case in ORACLE_CASES[::25]:
        try:
            run_case(case, accel_provider)
        except pytest.skip.Exception:
            pass
    assert accel_provider.live_buffers() == before
