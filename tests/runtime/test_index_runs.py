"""Subscripts that are ascending runs (``A(2:4, :)``) are sliced instead of
gathered: same values and shape, never a view of the source."""

from __future__ import annotations

import numpy as np

from matfuse.runtime._subscripts import COLON, folded_shape
from matfuse.runtime.indexing import _normalized, index_elements


def test_index_runs_match_gather() -> None:
    """A(2:4, :) and friends take a slice; the answer is the gather's."""
    rng = np.random.default_rng(9)
    for trial in range(300):
        shape = tuple(int(v) for v in rng.integers(1, 6, size=rng.integers(2, 4)))
        data = np.asarray(rng.standard_normal(shape), order="CF"[trial % 2])
        nsub = int(rng.integers(2, len(shape) + 1))
        folded = folded_shape(shape, nsub)
        positions, idx = [], []
        for extent in folded:
            choice = rng.integers(0, 4)
            if choice == 0:
                positions.append(np.arange(extent))
                idx.append(COLON)
                continue
            if choice == 1:
                lo = int(rng.integers(0, extent))
                pos = np.arange(lo, int(rng.integers(lo, extent)) + 1)
            elif choice == 2:
                pos = rng.integers(0, extent, size=int(rng.integers(1, 4)))
            else:
                pos = np.arange(0)
            positions.append(pos)
            idx.append((pos + 1.0).reshape(1, -1) if pos.size else np.zeros((1, 0)))
        got = index_elements(data, idx)
        want = _normalized(data.reshape(folded, order="F")[np.ix_(*positions)])
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        assert not np.shares_memory(got, data)
