"""Concatenation: sizes, class rules, cells, structs, strings, builtins."""

from __future__ import annotations

import numpy as np

from matfuse.runtime.ops import cell_concat, concat
from matfuse.runtime.registry import BUILTINS, load_all
from matfuse.runtime.values import CellArray, StringArray, StructArray, char_array, to_str
from tests.runtime.raises_support import raises, row


EMPTY = np.zeros((0, 0))


def test_numeric_concat_shapes() -> None:
    r = concat([[1.0, 2.0], [3.0, 4.0]])
    assert r.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert concat([[row(1.0, 2.0), 3.0]]).shape == (1, 3)
    assert concat([[1.0], [2.0], [3.0]]).shape == (3, 1)
    assert concat([[EMPTY, 1.0, EMPTY]]) == 1.0
    assert concat([]).shape == (0, 0)
    assert concat([[EMPTY]]).shape == (0, 0)
    assert concat([[np.zeros((1, 0)), row(1.0, 2.0)]]).shape == (1, 2)
    assert concat([[np.ones((2, 2, 2)), np.ones((2, 1, 2))]]).shape == (2, 3, 2)


def test_dimension_mismatch() -> None:
    raises("MATLAB:catenate:dimensionMismatch", lambda: concat([[row(1.0, 2.0)], [row(1.0, 2.0, 3.0)]]),
           "Dimensions of arrays being concatenated are not consistent.")
    raises("MATLAB:catenate:dimensionMismatch", lambda: concat([[np.ones((2, 1)), 1.0]]))


def test_concat_class_rules() -> None:
    c = concat([[char_array("a"), 66.0]])
    assert c.dtype.kind == "U" and to_str(c) == "aB"
    i = concat([[1.5, np.array([[1]], dtype=np.int8), 300.0]])
    assert i.dtype == np.int8 and i.tolist() == [[2, 1, 127]]
    first_int = concat([[np.array([[1]], dtype=np.int16), np.array([[1]], dtype=np.int8)]])
    assert first_int.dtype == np.int16
    s = concat([[np.array([[1.0]], dtype=np.float32), 2.0]])
    assert s.dtype == np.float32
    d = concat([[True, 2.0]])
    assert d.dtype == np.float64
    lg = concat([[True, False]])
    assert lg.dtype == np.bool_
    z = concat([[1.0, np.array([[2j]])]])
    assert z.dtype == np.complex128
    e = concat([[np.zeros((0, 0), dtype=np.int8), 1.6]])
    assert e.dtype == np.int8 and e.tolist() == [[2]]
    chars = concat([[char_array("ab")], [char_array("cd")]])
    assert chars.shape == (2, 2)


def test_cell_concat() -> None:
    a = CellArray.from_list([1.0])
    b = CellArray.from_list([2.0, 3.0])
    r = concat([[a, b]])
    assert isinstance(r, CellArray) and r.shape == (1, 3)
    w = concat([[a, 5.0]])
    assert isinstance(w, CellArray) and w.shape == (1, 2)
    lit = cell_concat([[1.0, a], [char_array("x"), EMPTY]])
    assert lit.shape == (2, 2) and isinstance(lit.data[0, 1], CellArray)
    assert lit.data[1, 1].shape == (0, 0)
    assert cell_concat([]).shape == (0, 0)
    assert concat([[CellArray.empty(), a]]).shape == (1, 1)


def test_struct_concat() -> None:
    s = StructArray.scalar({"a": 1.0, "b": 2.0})
    t = StructArray.scalar({"b": 3.0, "a": 4.0})
    r = concat([[s, t]])
    assert isinstance(r, StructArray) and r.shape == (1, 2)
    u = StructArray.scalar({"c": 1.0})
    raises("MATLAB:catenate:structFieldBad", lambda: concat([[s, u]]))


def test_string_concat() -> None:
    r = concat([[StringArray.scalar("a"), char_array("bc"), 1.0]])
    assert isinstance(r, StringArray) and r.data.tolist() == [["a", "bc", "1"]]


def test_operator_builtins() -> None:
    load_all()
    call = lambda name, *args: BUILTINS[name].impl(*args)  # noqa: E731
    assert call("horzcat", 1.0, 2.0).tolist() == [[1.0, 2.0]]
    assert call("vertcat", 1.0, 2.0).shape == (2, 1)
    assert call("cat", 3.0, 1.0, 2.0).shape == (1, 1, 2)
    # [] operands each count once along a dimension past the second
    assert call("cat", 3.0, EMPTY, EMPTY, EMPTY).shape == (0, 0, 3)
    assert call("cat", 4.0, EMPTY, EMPTY).shape == (0, 0, 1, 2)
    assert call("cat", 2.0, EMPTY, EMPTY).shape == (0, 0)
    assert call("cat", 3.0, EMPTY, row(1.0, 2.0)).shape == (1, 2)
    assert call("colon", 1.0, 3.0).tolist() == [[1.0, 2.0, 3.0]]
    assert call("colon", 1.0, 2.0, 5.0).tolist() == [[1.0, 3.0, 5.0]]
    assert call("plus", 1.0, 2.0) == 3.0
    assert call("mtimes", row(1.0, 2.0), row(3.0, 4.0).T) == 11.0
    assert call("xor", True, False) is True
    assert call("not", 0.0) is True
    assert call("uminus", 2.0) == -2.0
    assert call("ctranspose", row(1.0, 2.0)).shape == (2, 1)
    assert call("power", 2.0, 3.0) == 8.0
    assert call("ge", 2.0, 3.0) is False
