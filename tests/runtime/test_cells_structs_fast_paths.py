"""Fast paths of cells_structs give what the general paths give:
struct(name, value, ...) with char-row names (fields in order, values as
given, the same errors); num2cell of double and logical arrays (scalars of
the value model, the array's shape)."""

from __future__ import annotations

import numpy as np
import pytest
from text_support import call, s

from matfuse.errors import MatlabError
from matfuse.runtime.values import CellArray, StringArray, StructArray


def _fields(v: StructArray) -> dict:
    assert v.data.shape == (1, 1)
    return v.data[0, 0]


def test_pairs_make_one_struct_in_field_order() -> None:
    v = call("struct", s("id"), 3.0, s("hits"), np.zeros((2, 2)), s("name"), s("ab"))
    assert isinstance(v, StructArray) and v.fields == ["id", "hits", "name"]
    fields = _fields(v)
    assert fields["id"] == 3.0 and fields["hits"].shape == (2, 2)


def test_cell_values_still_make_struct_arrays() -> None:
    v = call("struct", s("a"), CellArray.from_list([1.0, 2.0]), s("b"), 5.0)
    assert v.data.shape == (1, 2)
    one = call("struct", s("a"), CellArray.from_list([7.0]))
    assert _fields(one)["a"] == 7.0


def test_string_scalar_names() -> None:
    v = call("struct", StringArray.scalar("x"), 1.0)
    assert v.fields == ["x"]


@pytest.mark.parametrize("args, identifier", [
    ((s("1a"), 1.0), "MATLAB:InvalidFieldName"),
    ((s("a b"), 1.0), "MATLAB:InvalidFieldName"),
    ((s("a"), 1.0, s("a"), 2.0), "MATLAB:struct:DuplicateFieldName"),
    ((s("a"), 1.0, 5.0, 2.0), "MATLAB:struct:invalidFieldName"),
    ((s("a"), 1.0, s("b")), "MATLAB:struct:fieldValuePairs"),
])
def test_errors(args: tuple, identifier: str) -> None:
    with pytest.raises(MatlabError) as info:
        call("struct", *args)
    assert info.value.identifier == identifier


def test_a_checked_name_is_checked_again_after_an_invalid_one() -> None:
    with pytest.raises(MatlabError):
        call("struct", s("9z"), 1.0)
    with pytest.raises(MatlabError):
        call("struct", s("9z"), 1.0)
    assert call("struct", s("z9"), 1.0).fields == ["z9"]


def test_num2cell_of_doubles_and_logicals() -> None:
    c = call("num2cell", np.array([[1.0, -0.0], [np.nan, 4.0]]))
    assert c.shape == (2, 2)
    values = c.data.reshape(-1, order="F").tolist()
    assert [type(v) for v in values] == [float] * 4
    assert values[0] == 1.0 and np.isnan(values[1]) and np.signbit(values[2]) and values[3] == 4.0
    b = call("num2cell", np.array([[True, False, True]]))
    assert b.shape == (1, 3) and b.data.tolist() == [[True, False, True]]
    assert all(type(v) is bool for v in b.data.reshape(-1))
    empty = call("num2cell", np.zeros((0, 3)))
    assert empty.shape == (0, 3)


def test_num2cell_of_other_classes_keeps_their_class() -> None:
    c = call("num2cell", np.array([[1, 2]], dtype=np.int8))
    assert all(v.dtype == np.int8 and v.shape == (1, 1) for v in c.data.reshape(-1))
