"""Indexing reads: shapes, logical masks, end, errors; cells, structs, fields."""

from __future__ import annotations

import numpy as np

from matfuse.errors import MatlabError, StackFrame
from matfuse.runtime.indexing import (
    COLON,
    brace_get,
    end_value,
    field_get,
    lvalue_brace_get,
    lvalue_field_get,
    lvalue_paren_get,
    paren_get,
)
from matfuse.runtime.values import CellArray, StringArray, StructArray, char_array, to_str
from tests.runtime.raises_support import raises


def magic3() -> np.ndarray:
    return np.array([[8.0, 1.0, 6.0], [3.0, 5.0, 7.0], [4.0, 9.0, 2.0]])


ROW = np.array([[10.0, 20.0, 30.0, 40.0, 50.0]])
COL = ROW.T.copy()


def test_scalar_fast_paths() -> None:
    a = magic3()
    assert paren_get(a, [2.0]) == 3.0 and type(paren_get(a, [2.0])) is float
    assert paren_get(a, [1.0, 3.0]) == 6.0
    assert paren_get(5.0, [1.0]) == 5.0
    assert paren_get(5.0, [1.0, 1.0]) == 5.0
    b = np.array([[True, False]])
    assert paren_get(b, [2.0]) is False
    i = paren_get(np.array([[1, 2]], dtype=np.int8), [2.0])
    assert i.dtype == np.int8 and i.shape == (1, 1)


def test_linear_index_shapes() -> None:
    a = magic3()
    idx_row = np.array([[1.0, 2.0]])
    idx_col = idx_row.T
    assert paren_get(ROW, [idx_col]).shape == (1, 2)      # vector source keeps orientation
    assert paren_get(COL, [idx_row]).shape == (2, 1)
    assert paren_get(a, [idx_row]).shape == (1, 2)        # matrix source: index shape
    assert paren_get(a, [idx_col]).shape == (2, 1)
    assert paren_get(ROW, [np.ones((2, 2))]).shape == (2, 2)
    assert paren_get(5.0, [np.ones((3, 1))]).shape == (3, 1)
    assert paren_get(ROW, [np.zeros((0, 0))]).shape == (0, 0)
    assert paren_get(ROW, [np.zeros((1, 0))]).shape == (1, 0)
    assert paren_get(a, [COLON]).shape == (9, 1)
    assert paren_get(ROW, [COLON]).shape == (5, 1)
    assert paren_get(a, [char_array(":")]).shape == (9, 1)


def test_logical_indexing() -> None:
    a = magic3()
    mask = a > 4
    r = paren_get(a, [mask])
    assert r.shape == (5, 1) and r[:, 0].tolist() == [8.0, 5.0, 9.0, 6.0, 7.0]
    assert paren_get(a, [np.array([[True, False, True]])]).shape == (1, 2)
    assert paren_get(COL, [np.array([[True, False, True]])]).shape == (2, 1)
    assert paren_get(ROW, [np.array([[True, False, True, False, False, False]])]).shape == (1, 2)
    raises("MATLAB:badsubscript", lambda: paren_get(ROW, [np.ones((1, 6), dtype=bool)]))


def test_subscript_indexing() -> None:
    a = magic3()
    assert paren_get(a, [COLON, 2.0]).tolist() == [[1.0], [5.0], [9.0]]
    assert paren_get(a, [np.array([[3.0, 1.0]]), COLON]).tolist() == [[4.0, 9.0, 2.0], [8.0, 1.0, 6.0]]
    assert paren_get(a, [2.0, 2.0, 1.0]) == 5.0
    cube = np.arange(24.0).reshape((2, 3, 4), order="F")
    folded = paren_get(cube, [2.0, 5.0])                   # trailing dims fold
    assert folded == cube[1, 1, 1]
    assert paren_get(cube, [COLON, COLON, 2.0]).shape == (2, 3)
    assert paren_get(cube, [1.0, COLON]).shape == (1, 12)


def test_end_value() -> None:
    cube = np.zeros((2, 3, 4))
    assert end_value(cube, 0, 1) == 24.0
    assert end_value(cube, 1, 2) == 12.0
    assert end_value(cube, 0, 3) == 2.0
    assert end_value(cube, 3, 4) == 1.0
    assert end_value(5.0, 0, 1) == 1.0
    assert end_value(CellArray.empty((1, 3)), 1, 2) == 3.0


def test_index_errors() -> None:
    raises("MATLAB:badsubscript", lambda: paren_get(ROW, [6.0]),
           "Index exceeds the number of array elements. Index must not exceed 5.")
    raises("MATLAB:badsubscript", lambda: paren_get(magic3(), [1.0, 4.0]),
           "Index in position 2 exceeds array bounds. Index must not exceed 3.")
    raises("MATLAB:badsubscript", lambda: paren_get(ROW, [1.5]),
           "Array indices must be positive integers or logical values.")
    raises("MATLAB:badsubscript", lambda: paren_get(ROW, [0.0]),
           "Array indices must be positive integers or logical values.")
    raises("MATLAB:badsubscript", lambda: paren_get(ROW, [np.array([[1.0, -1.0]])]))
    raises("MATLAB:badsubscript", lambda: paren_get(ROW, [np.nan]))
    raises("MATLAB:badsubscript", lambda: paren_get(5.0, [2.0]))
    raises("MATLAB:badsubscript", lambda: paren_get(magic3(), [0.0, 1.0]),
           "Index in position 1 is invalid. Array indices must be positive integers or logical values.")


def test_char_and_int_indices() -> None:
    text = char_array("hello")
    r = paren_get(text, [np.array([[1.0, 5.0]])])
    assert to_str(r) == "ho"
    assert paren_get(ROW, [np.array([[2, 3]], dtype=np.int8)]).tolist() == [[20.0, 30.0]]


def test_cells() -> None:
    c = CellArray.from_list([1.0, char_array("ab"), ROW])
    sub = paren_get(c, [np.array([[1.0, 3.0]])])
    assert isinstance(sub, CellArray) and sub.shape == (1, 2)
    assert brace_get(c, [2.0])[0].tolist() == [["a", "b"]]
    assert len(brace_get(c, [COLON])) == 3
    assert brace_get(c, [np.array([[3.0, 1.0]])])[1] == 1.0
    raises("MATLAB:badsubscript", lambda: brace_get(c, [4.0]))
    raises("MATLAB:cellRefFromNonCell", lambda: brace_get(ROW, [1.0]),
           "Brace indexing is not supported for variables of this type.")


def test_string_brace_gives_char() -> None:
    s = StringArray(np.array([["ab", "cde"]], dtype=object))
    assert to_str(brace_get(s, [2.0])[0]) == "cde"
    assert isinstance(paren_get(s, [1.0]), StringArray)


def test_struct_fields() -> None:
    data = np.empty((1, 2), dtype=object)
    data[0, 0] = {"a": 1.0}
    data[0, 1] = {"a": 2.0}
    s = StructArray(["a"], data)
    assert field_get(s, "a") == [1.0, 2.0]
    one = paren_get(s, [2.0])
    assert isinstance(one, StructArray) and field_get(one, "a") == [2.0]
    raises("MATLAB:nonExistentField", lambda: field_get(s, "x"), 'Unrecognized field name "x".')
    raises("MATLAB:structRefFromNonStruct", lambda: field_get(1.0, "a"),
           "Dot indexing is not supported for variables of this type.")


def test_exception_properties() -> None:
    err = MatlabError("my:id", "boom")
    err.stack = [StackFrame("f", "/tmp/f.m", 3)]
    assert to_str(field_get(err, "message")[0]) == "boom"
    assert to_str(field_get(err, "identifier")[0]) == "my:id"
    stack = field_get(err, "stack")[0]
    assert isinstance(stack, StructArray) and field_get(stack, "line") == [3.0]


def test_lvalue_reads_default_missing_elements() -> None:
    s = StructArray.scalar({"a": 1.0})
    grown = lvalue_paren_get(s, [3.0])
    assert isinstance(grown, StructArray) and grown.fields == ["a"]
    assert lvalue_paren_get(None, [1.0]) is None
    assert lvalue_field_get(s, "zz") is None
    assert lvalue_field_get(s, "a") == 1.0
    assert lvalue_brace_get(CellArray.from_list([1.0]), [4.0]) is None
    assert lvalue_brace_get(None, [1.0]) is None
