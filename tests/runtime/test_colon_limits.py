"""Colon ranges too large to create raise MATLAB's errors, never Python's."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime import ops
from matfuse.runtime._colon import colon_values


@pytest.mark.parametrize("start,step,stop,identifier", [
    (2.0, None, 1e12, "MATLAB:array:SizeLimitExceeded"),
    (1.0, 0.5, 1e12, "MATLAB:array:SizeLimitExceeded"),
    (1.0, None, float("inf"), "MATLAB:pmaxsize"),
    (float("-inf"), None, 1.0, "MATLAB:pmaxsize"),
    (1.0, 0.5, float("inf"), "MATLAB:pmaxsize"),
    (-1e308, None, 1e308, "MATLAB:pmaxsize"),
    (0.0, 1e-300, 1.0, "MATLAB:pmaxsize"),
    (np.array([[1]], dtype=np.int64), None, np.array([[2 ** 62]], dtype=np.int64),
     "MATLAB:pmaxsize"),
])
def test_huge_ranges(start, step, stop, identifier):
    with pytest.raises(MatlabError) as info:
        ops.colon_range(start, step, stop)
    assert info.value.identifier == identifier


def test_size_limit_message():
    with pytest.raises(MatlabError) as info:
        ops.colon_range(1.0, None, 1e12)
    assert info.value.message.startswith(
        "Requested 1x1000000000000 (7450.6GB) array exceeds maximum array size preference (")
    with pytest.raises(MatlabError) as info:
        ops.colon_range(np.float32(1.0).reshape(1, 1), None, 1e12)
    assert "(3725.3GB)" in info.value.message


@pytest.mark.parametrize("start,stop", [
    (float("nan"), 3.0), (1.0, float("nan")), (float("inf"), float("inf")),
])
def test_nan_and_degenerate_ranges(start, stop):
    out = ops.colon_range(start, None, stop)
    assert np.size(out) == 1


def test_ordinary_ranges_unchanged():
    assert ops.colon_range(1.0, None, 4.0).tolist() == [[1.0, 2.0, 3.0, 4.0]]
    assert ops.colon_range(5.0, None, 1.0).shape == (1, 0)
    assert ops.colon_range(0.0, 0.1, 1.0).shape == (1, 11)


def test_middle_of_an_even_number_of_intervals_is_the_midpoint() -> None:
    # MATLAB fills from both ends and puts (a + b)/2 in the middle: the
    # range -2-eps(2):1:2 has no exact zero
    eps2 = float(np.spacing(2.0))
    values = colon_values(-2.0 - eps2, 1.0, 2.0)
    assert values.shape == (1, 5) and np.count_nonzero(values) == 5
    assert values[0, 2] == (-2.0 - eps2 + 2.0) / 2 and values[0, 4] == 2.0
    assert colon_values(0.0, 0.1, 1.0)[0, 5] == 0.5
    assert colon_values(-1.0, 0.5, 1.0).tolist() == [[-1.0, -0.5, 0.0, 0.5, 1.0]]
