"""Robustness: odd inputs to part-B builtins raise MatlabError, never a Python exception."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from builtins_b_support import PART_B_MODULES, call
from matfuse.errors import MatlabError
from matfuse.runtime.registry import BUILTINS
from matfuse.runtime.values import CellArray, char_array

NUMERIC_MODULES = {"reductions", "cumulative", "statistics", "histograms", "moving_normalize",
                   "normalize_data",
                   "norms", "linalg", "linalg_decomp", "signal", "fourier", "polynomial",
                   "interpolation"}
NAMES = sorted({b.name for b in BUILTINS.values()
                if b.impl.__module__.rsplit(".", 1)[-1] in NUMERIC_MODULES})
VALUES = [2.0, True, np.zeros((0, 0)), np.arange(6.0).reshape(2, 3), np.ones((2, 3, 2)),
          np.array([[1 + 2j, 3]]), np.array([[1, 2, 3]], dtype=np.int8), char_array("ab"),
          CellArray.from_list([1.0]), np.array([[np.nan, 1, np.inf]])]


def test_modules_listed() -> None:
    assert NUMERIC_MODULES <= set(PART_B_MODULES)
    assert len(NAMES) > 60


@pytest.mark.parametrize("name", NAMES)
def test_odd_inputs(name: str) -> None:
    for k in (1, 2):
        for args in itertools.product(VALUES, repeat=k):
            try:
                call(name, *args)
            except MatlabError:
                pass
