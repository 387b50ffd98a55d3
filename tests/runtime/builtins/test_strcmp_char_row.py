"""strcmp of a char row with a cell (the direct path) answers what the
general comparison answers, item by item, for every kind of item."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.runtime.builtins import string_compare
from matfuse.runtime.values import CellArray, StringArray, char_array

ITEMS = [
    char_array("gamma"), char_array("gammas"), char_array("gamm"), char_array("delta"),
    char_array("gamma").T, np.zeros((0, 0), dtype="<U1"), np.zeros((1, 0), dtype="<U1"),
    np.array([[103.0, 97.0, 109.0, 109.0, 97.0]]), 3.0, True,
    StringArray(np.array([["gamma"]], dtype=object)), CellArray.from_list([char_array("gamma")]),
    np.array([list("gamma"), list("gamma")]),
]


@pytest.mark.parametrize("shape", [(1, len(ITEMS)), (len(ITEMS), 1)])
@pytest.mark.parametrize("text", ["gamma", "g"])
def test_char_row_against_a_cell(shape, text):
    cell = CellArray.from_list(ITEMS, shape)
    row = char_array(text)
    got = string_compare.strcmp(row, cell)
    want = string_compare._strcmp_family(row, cell, None, False, "strcmp")
    assert got.shape == want.shape == shape and got.dtype == np.bool_
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(string_compare.strcmp(cell, row), want)


def test_matrix_cell_keeps_column_major_order():
    cell = CellArray.from_list([char_array(w) for w in ("a", "b", "a", "c", "a", "d")], (2, 3))
    got = string_compare.strcmp(char_array("a"), cell)
    np.testing.assert_array_equal(got, [[True, True, True], [False, False, False]])
