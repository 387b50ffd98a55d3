"""Indexed assignment, growth, class of the result, deletion, cells, fields."""

from __future__ import annotations

import numpy as np

from matfuse.runtime.indexing import (
    COLON,
    DELETE,
    brace_get,
    brace_set,
    field_get,
    field_set,
    lvalue_paren_get,
    paren_get,
    paren_set,
)
from matfuse.runtime.values import CellArray, StringArray, StructArray, char_array, to_str
from tests.runtime.raises_support import raises, row


def test_assignment_does_not_mutate_input() -> None:
    x = row(1.0, 2.0, 3.0)
    y = paren_set(x, [2.0], 9.0)
    assert x.tolist() == [[1.0, 2.0, 3.0]] and y.tolist() == [[1.0, 9.0, 3.0]]
    z = paren_set(x, [COLON, 1.0], 7.0)
    assert x[0, 0] == 1.0 and z[0, 0] == 7.0


def test_inplace_assignment_reuses_the_array() -> None:
    x = row(1.0, 2.0, 3.0)
    y = paren_set(x, [2.0], 9.0, inplace=True)
    assert y is x and x[0, 1] == 9.0


def test_growth_fills_with_zeros() -> None:
    assert paren_set(None, [3.0], 5.0).tolist() == [[0.0, 0.0, 5.0]]
    assert paren_set(row(1.0), [3.0], 5.0).tolist() == [[1.0, 0.0, 5.0]]
    col = np.array([[1.0], [2.0]])
    assert paren_set(col, [4.0], 5.0).shape == (4, 1)
    assert paren_set(np.zeros((2, 2)), [3.0, 3.0], 1.0).shape == (3, 3)
    raises("MATLAB:indexOutOfBounds", lambda: paren_set(np.zeros((2, 2)), [7.0], 1.0),
           "Attempt to grow array along ambiguous dimension.")


def test_char_growth_pads_with_char_zero() -> None:
    s = paren_set(char_array("ab"), [4.0], char_array("d"))
    assert s.dtype.kind == "U" and s.shape == (1, 4)
    assert s.view(np.uint32)[0, 2] == 0 and s[0, 3] == "d"


def test_assignment_into_empty_takes_rhs_class_and_shape() -> None:
    x = paren_set(np.zeros((0, 0)), [2.0], np.array([[5]], dtype=np.int8))
    assert x.dtype == np.int8 and x.tolist() == [[0, 5]]
    y = paren_set(None, [COLON, 1.0], row(1.0, 2.0, 3.0))
    assert y.shape == (3, 1)
    c = paren_set(np.zeros((0, 0)), [2.0], CellArray.from_list([1.0]))
    assert isinstance(c, CellArray) and c.shape == (1, 2)


def test_class_of_result() -> None:
    i8 = np.array([[1, 2]], dtype=np.int8)
    r = paren_set(i8, [1.0], 300.7)
    assert r.dtype == np.int8 and r[0, 0] == 127
    r = paren_set(i8, [1.0], -2.5)
    assert r[0, 0] == -3
    z = paren_set(row(1.0, 2.0), [2.0], np.array([[1j]]))
    assert z.dtype == np.complex128 and z[0, 1] == 1j
    lg = paren_set(np.array([[True, False]]), [1.0], 5.0)
    assert lg.dtype == np.bool_ and lg.tolist() == [[True, False]]
    raises("MATLAB:nologicalnan", lambda: paren_set(np.array([[True]]), [1.0], np.nan))
    i8 = paren_set(row(1.0, 2.0), [1.0], np.array([[7]], dtype=np.int8))
    assert i8.dtype == np.float64
    ch = paren_set(char_array("abc"), [2.0], 66.0)
    assert to_str(ch) == "aBc"
    d = paren_set(row(1.0, 2.0), [2.0], char_array("a"))
    assert d.dtype == np.float64 and d[0, 1] == 97.0


def test_scalar_broadcast_and_colon() -> None:
    x = np.zeros((2, 3))
    assert paren_set(x, [COLON], 1.0).tolist() == np.ones((2, 3)).tolist()
    r = paren_set(x, [COLON], np.arange(6.0).reshape(1, 6))
    assert r.shape == (2, 3) and r[1, 0] == 1.0
    r = paren_set(x, [1.0, COLON], 4.0)
    assert r[0].tolist() == [4.0, 4.0, 4.0]
    r = paren_set(x, [COLON, 2.0], np.array([[7.0, 8.0]]))      # row into column slot
    assert r[:, 1].tolist() == [7.0, 8.0]
    mask = np.array([[True, False, True], [False, False, True]])
    r = paren_set(x, [mask], 2.0)
    assert r.sum() == 6.0


def test_size_mismatch_errors() -> None:
    raises("MATLAB:subsassignnumelmismatch", lambda: paren_set(row(1.0, 2.0, 3.0), [np.array([[1.0, 2.0]])], row(1.0, 2.0, 3.0)),
           "Unable to perform assignment because the left and right sides have different numbers of elements.")
    raises("MATLAB:subsassigndimmismatch",
           lambda: paren_set(np.zeros((2, 3)), [1.0, np.array([[1.0, 2.0]])], row(1.0, 2.0, 3.0)),
           "Unable to perform assignment because the size of the left side is 1-by-2 and the "
           "size of the right side is 1-by-3.")
    raises("MATLAB:badsubscript", lambda: paren_set(row(1.0), [0.0], 1.0))


def test_deletion() -> None:
    x = row(1.0, 2.0, 3.0, 4.0)
    assert paren_set(x, [2.0], DELETE).tolist() == [[1.0, 3.0, 4.0]]
    assert paren_set(x.T.copy(), [np.array([[1.0, 2.0]])], DELETE).shape == (2, 1)
    m = np.arange(1.0, 10.0).reshape((3, 3), order="F")
    assert paren_set(m, [2.0], DELETE).shape == (1, 8)
    assert paren_set(m, [COLON, 1.0], DELETE).tolist() == [[4.0, 7.0], [5.0, 8.0], [6.0, 9.0]]
    assert paren_set(m, [np.array([[1.0, 3.0]]), COLON], DELETE).tolist() == [[2.0, 5.0, 8.0]]
    assert paren_set(x, [COLON], DELETE).shape == (0, 0)
    assert paren_set(x, [x > 2.0], DELETE).tolist() == [[1.0, 2.0]]
    raises("MATLAB:subsdeldimmismatch", lambda: paren_set(m, [1.0, 1.0], DELETE),
           "A null assignment can have only one non-colon index.")
    # Any 0x0 double right side deletes, as in MATLAB.
    assert paren_set(x, [1.0], np.zeros((0, 0))).tolist() == [[2.0, 3.0, 4.0]]


def test_cell_assignment() -> None:
    c = brace_set(None, [3.0], 5.0)
    assert isinstance(c, CellArray) and c.shape == (1, 3)
    assert brace_get(c, [1.0])[0].shape == (0, 0)
    c2 = brace_set(c, [1.0], char_array("x"))
    assert to_str(brace_get(c2, [1.0])[0]) == "x" and brace_get(c, [1.0])[0].shape == (0, 0)
    c3 = paren_set(c, [2.0], CellArray.from_list([7.0]))
    assert brace_get(c3, [2.0]) == [7.0]
    c4 = paren_set(c, [2.0], DELETE)
    assert c4.shape == (1, 2)
    c5 = brace_set(c, [2.0], np.zeros((0, 0)))      # c{2} = [] stores [] (no deletion)
    assert c5.shape == (1, 3)
    raises("MATLAB:invalidConversion", lambda: paren_set(c, [1.0], 5.0))
    raises("MATLAB:cellAssToNonCell", lambda: brace_set(row(1.0), [1.0], 2.0))
    raises("MATLAB:needMoreRhsOutputs", lambda: brace_set(c, [np.array([[1.0, 2.0]])], 2.0))


def test_struct_assignment_and_growth() -> None:
    s = field_set(None, "a", 1.0)
    assert isinstance(s, StructArray) and field_get(s, "a") == [1.0]
    s2 = field_set(s, "b", 2.0)
    assert s.fields == ["a"] and s2.fields == ["a", "b"]
    # s(3).a = 5
    element = field_set(lvalue_paren_get(s2, [3.0]), "a", 5.0)
    grown = paren_set(s2, [3.0], element)
    assert grown.shape == (1, 3) and field_get(grown, "a")[2] == 5.0
    assert field_get(grown, "b")[1].shape == (0, 0)
    # s(2).c = 1 adds field c to every element.
    element = field_set(lvalue_paren_get(grown, [2.0]), "c", 1.0)
    more = paren_set(grown, [2.0], element)
    assert more.fields == ["a", "b", "c"] and field_get(more, "c")[0].shape == (0, 0)
    raises("MATLAB:invalidConversion", lambda: paren_set(s, [2.0], 1.0))


def test_string_array_assignment() -> None:
    s = StringArray.scalar("a")
    r = paren_set(s, [3.0], char_array("c"))
    assert isinstance(r, StringArray) and r.data[0, 1] is None and r.data[0, 2] == "c"


def test_nd_assignment() -> None:
    x = paren_set(None, [1.0, 1.0, 2.0], 5.0)
    assert x.shape == (1, 1, 2) and x[0, 0, 1] == 5.0
    cube = np.zeros((2, 2, 2))
    r = paren_set(cube, [COLON, COLON, 2.0], np.ones((2, 2)))
    assert r[:, :, 1].sum() == 4.0 and r.shape == (2, 2, 2)
    r = paren_set(cube, [1.0, 4.0], 9.0)              # folded trailing dims
    assert r.shape == (2, 2, 2) and r[0, 1, 1] == 9.0


def test_paren_get_after_set_round_trip() -> None:
    x = paren_set(None, [2.0, 3.0], 4.0)
    assert x.shape == (2, 3) and paren_get(x, [2.0, 3.0]) == 4.0
