"""Every part-A builtin, fed odd argument mixes, raises only MatlabError
(never a Python exception) — the house rule for user mistakes."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from builtins_a_support import PART_A_MODULES, call

from matfuse.errors import MatlabError
from matfuse.runtime.registry import BUILTINS
from matfuse.runtime.values import CellArray, StringArray, StructArray, char_array

SAMPLES = [
    2.0, -1.5, float("nan"), float("inf"), 1e12, True,
    np.zeros((0, 0)), np.array([[1.0, 2], [3, 4]]), np.array([[1 + 2j, -1]]),
    np.array([[3, -4]], dtype=np.int8), np.array([[7]], dtype=np.uint64),
    np.array([[1, 2]], dtype=np.float32), char_array("all"),
    CellArray.from_list([char_array("a"), char_array("b")]),
    StringArray.scalar("x"), StructArray.scalar({"a": 1.0}), np.zeros((2, 0, 3)),
]
NAMES = sorted({name for name, decl in BUILTINS.items()
                if decl.impl.__module__.rsplit(".", 1)[-1] in PART_A_MODULES})


@pytest.mark.parametrize("name", NAMES)
def test_only_matlab_errors_escape(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for nargs in (0, 1, 2):
            for args in itertools.product(SAMPLES, repeat=nargs):
                for nargout in (1, 2):
                    try:
                        call(name, *args, nargout=nargout)
                    except MatlabError:
                        pass
