"""Type conversion and predicate builtins."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from matfuse.runtime.registry import BUILTINS, load_all
from matfuse.runtime.values import CellArray, StringArray, StructArray, char_array, to_str
from tests.runtime.raises_support import raises

load_all()


def call(name: str, *args: Any, **kwargs: Any) -> Any:
    return BUILTINS[name].impl(*args, **kwargs)


def text(s: str) -> np.ndarray:
    return char_array(s)


@pytest.mark.parametrize("cls,value,expected", [
    ("int8", 200.0, 127), ("int8", -2.5, -3), ("int8", 2.5, 3), ("uint8", np.nan, 0),
    ("uint8", -3.0, 0), ("int16", 1e10, 32767), ("uint16", np.inf, 65535),
    ("int32", -np.inf, -2 ** 31), ("int64", 9.3e18, 2 ** 63 - 1), ("uint64", 1.5, 2),
    ("int8", 0.49999999999999994, 0),
])
def test_integer_conversions(cls: str, value: float, expected: int) -> None:
    r = call(cls, value)
    assert r.dtype == np.dtype(cls) and int(r[0, 0]) == expected


def test_float_conversions() -> None:
    assert call("double", text("ab")).tolist() == [[97.0, 98.0]]
    assert call("double", np.array([[3]], dtype=np.int8)) == 3.0
    assert call("single", 1.0).dtype == np.float32
    assert call("double", StringArray.scalar("3.5")) == 3.5
    assert np.isnan(call("double", StringArray.scalar("x")))
    raises("MATLAB:invalidConversion", lambda: call("double", CellArray.from_list([1.0])),
           "Conversion to double from cell is not possible.")


def test_logical_conversion() -> None:
    assert call("logical", 2.0) is True
    assert call("logical", np.array([[0.0, -1.0]])).tolist() == [[False, True]]
    raises("MATLAB:nologicalnan", lambda: call("logical", np.nan),
           "NaN's cannot be converted to logicals.")
    raises("MATLAB:invalidConversion", lambda: call("logical", text("a")))


def test_char_conversion() -> None:
    assert to_str(call("char", 65.0)) == "A"
    assert to_str(call("char", np.array([[72.0, 105.0]]))) == "Hi"
    m = call("char", CellArray.from_list([text("a"), text("bcd")]))
    assert m.shape == (2, 3) and "".join(m[0]) == "a  "
    m2 = call("char", text("xy"), text("z"))
    assert m2.shape == (2, 2)
    assert to_str(call("char", StringArray.scalar("str"))) == "str"
    assert call("char").shape == (0, 0)


def test_cast_and_typecast() -> None:
    r = call("cast", 3.7, text("int16"))
    assert r.dtype == np.int16 and r[0, 0] == 4
    like = call("cast", 2.0, text("like"), np.array([[1]], dtype=np.uint8))
    assert like.dtype == np.uint8
    t = call("typecast", np.array([[1]], dtype=np.uint32), text("uint8"))
    assert t.dtype == np.uint8 and t.shape == (1, 4) and t.tolist() == [[1, 0, 0, 0]]
    back = call("typecast", t, text("uint32"))
    assert int(back[0, 0]) == 1
    raises("MATLAB:typecast:notEnoughInputElements",
           lambda: call("typecast", np.array([[1, 2, 3]], dtype=np.uint8), text("uint16")))


def test_class_and_isa() -> None:
    assert to_str(call("class", 1.0)) == "double"
    assert to_str(call("class", np.array([[1]], dtype=np.int8))) == "int8"
    assert to_str(call("class", CellArray.empty())) == "cell"
    i8 = np.array([[1]], dtype=np.int8)
    assert call("isa", i8, text("integer")) and call("isa", i8, text("numeric"))
    assert not call("isa", i8, text("float"))
    assert call("isa", 1.0, text("float")) and call("isa", 1.0, text("double"))
    assert not call("isa", True, text("numeric"))


def test_predicates() -> None:
    assert call("isnumeric", 1.0) and not call("isnumeric", True) and not call("isnumeric", text("a"))
    assert call("isfloat", np.array([[1.0]], dtype=np.float32))
    assert call("isinteger", np.array([[1]], dtype=np.uint8))
    assert call("islogical", True) and call("ischar", text("a"))
    assert call("iscell", CellArray.empty()) and call("isstruct", StructArray.scalar({}))
    assert call("iscellstr", CellArray.from_list([text("a"), text("bc")]))
    assert not call("iscellstr", CellArray.from_list([text("a"), 1.0]))
    assert call("isreal", 1.0) and not call("isreal", np.array([[1j]]))
    assert call("isscalar", 1.0) and not call("isscalar", np.zeros((1, 2)))
    assert call("isvector", np.zeros((1, 3))) and not call("isvector", np.zeros((2, 3)))
    assert call("isrow", np.zeros((1, 3))) and call("iscolumn", np.zeros((3, 1)))
    assert call("ismatrix", np.zeros((2, 3))) and not call("ismatrix", np.zeros((2, 3, 2)))
    assert call("issquare", np.zeros((2, 2))) and call("isempty", np.zeros((0, 3)))


def test_isequal() -> None:
    assert call("isequal", 1.0, True)
    assert call("isequal", np.array([[1]], dtype=np.int8), 1.0)
    assert call("isequal", text("a"), 97.0)
    assert not call("isequal", np.nan, np.nan) and call("isequaln", np.nan, np.nan)
    assert not call("isequal", np.zeros((1, 2)), np.zeros((2, 1)))
    c1 = CellArray.from_list([1.0, text("x")])
    c2 = CellArray.from_list([1.0, text("x")])
    assert call("isequal", c1, c2) and not call("isequal", c1, CellArray.from_list([1.0, text("y")]))
    s1 = StructArray.scalar({"a": 1.0, "b": c1})
    s2 = StructArray.scalar({"b": c2, "a": 1.0})
    assert call("isequal", s1, s2)
    assert call("isequal", StringArray.scalar("ab"), text("ab"))
    assert call("isequal", 1.0, 1.0, 1.0) and not call("isequal", 1.0, 1.0, 2.0)


def test_sizes() -> None:
    a = np.zeros((2, 3, 4))
    assert call("size", a, nargout=1).tolist() == [[2.0, 3.0, 4.0]]
    assert call("size", a, 2.0, nargout=1) == 3.0
    assert call("size", a, 5.0, nargout=1) == 1.0
    assert call("size", a, nargout=2) == (2.0, 12.0)
    assert call("size", a, nargout=4) == (2.0, 3.0, 4.0, 1.0)
    assert call("size", a, np.array([[1.0, 3.0]]), nargout=1).tolist() == [[2.0, 4.0]]
    assert call("numel", a) == 24.0 and call("ndims", a) == 3.0
    assert call("length", a) == 4.0 and call("length", np.zeros((0, 5))) == 0.0
    assert call("size", 5.0, nargout=1).tolist() == [[1.0, 1.0]]
