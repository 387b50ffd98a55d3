"""struct(name, value, ...): the char-row names path gives what the general
path gives (fields in order, values as given, the same errors)."""

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
