"""Command-window display of values (matfuse.runtime.display)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.display import disp_text, display_value
from matfuse.runtime.values import (
    CellArray,
    FunctionHandle,
    StringArray,
    StructArray,
    char_array,
    char_rows,
)
from text_support import strs

A = np.array


def shown(value, fmt="short"):
    return display_value("x", value, fmt)


@pytest.mark.parametrize("value,body", [
    (5.0, "     5"),
    (-2.0, "    -2"),
    (100.0, "   100"),
    (1000.0, "        1000"),
    (123456789.0, "   123456789"),
    (1234567890.0, "   1.2346e+09"),
    (np.pi, "    3.1416"),
    (-np.pi, "   -3.1416"),
    (0.5, "    0.5000"),
    (100.5, "  100.5000"),
    (1000.5, "   1.0005e+03"),
    (123456.7, "   1.2346e+05"),
    (1e-5, "   1.0000e-05"),
    (0.001, "   1.0000e-03"),
    (0.0011, "    0.0011"),
    (float("nan"), "   NaN"),
    (float("inf"), "   Inf"),
    (-float("inf"), "  -Inf"),
    (0.0, "     0"),
])
def test_double_scalars(value, body):
    assert shown(value) == f"x =\n\n{body}\n\n"


def test_integer_matrix_columns():
    assert shown(A([[1.0, 2, 3]])) == "x =\n\n     1     2     3\n\n"
    magic = A([[16.0, 2, 3, 13], [5, 11, 10, 8]])
    assert shown(magic) == "x =\n\n    16     2     3    13\n     5    11    10     8\n\n"
    assert shown(A([[1.0, 1000]])) == "x =\n\n           1        1000\n\n"
    assert shown(A([[1.0, float("nan")]])) == "x =\n\n     1   NaN\n\n"


def test_fixed_point_matrix():
    m = A([[1.5, -2.25], [100.5, 4]])
    assert shown(m) == "x =\n\n    1.5000   -2.2500\n  100.5000    4.0000\n\n"


def test_scale_factor_matrix():
    assert shown(A([[1000.5, 2]])) == "x =\n\n   1.0e+03 *\n\n    1.0005    0.0020\n\n"
    assert shown(A([[1e-5, 2e-5]])) == "x =\n\n   1.0e-05 *\n\n    1.0000    2.0000\n\n"


def test_small_elements_show_zero_in_fixed():
    assert shown(A([[1e-6, 1.5]])) == "x =\n\n    0.0000    1.5000\n\n"


def test_columns_split_for_wide_matrix():
    row = np.arange(1, 21, dtype=float).reshape(1, 20)
    out = shown(row)
    first = "".join(f"{k:6d}" for k in range(1, 14))
    second = "".join(f"{k:6d}" for k in range(14, 21))
    assert out == (f"x =\n\n  Columns 1 through 13\n\n{first}\n\n"
                   f"  Columns 14 through 20\n\n{second}\n\n")


def test_single_trailing_column_label():
    row = np.arange(1, 15, dtype=float).reshape(1, 14)
    assert "  Column 14\n\n    14\n\n" in shown(row)


def test_format_long():
    assert shown(np.pi, "long") == "x =\n\n   3.141592653589793\n\n"
    assert shown(A([[np.pi], [1.0]]), "long") == "x =\n\n   3.141592653589793\n   1.000000000000000\n\n"
    assert shown(10.5, "long") == "x =\n\n  10.500000000000000\n\n"
    assert shown(5.0, "long") == "x =\n\n     5\n\n"


def test_single():
    assert shown(np.float32(np.pi)) == "x =\n\n  single\n\n    3.1416\n\n"
    assert shown(np.float32(np.pi), "long") == "x =\n\n  single\n\n   3.1415927\n\n"


def test_integer_classes():
    assert shown(A([[1, 2, 3]], dtype=np.int8)) == "x =\n\n  1×3 int8 row vector\n\n   1   2   3\n\n"
    assert shown(A([[5]], dtype=np.int32)) == "x =\n\n  int32\n\n   5\n\n"
    col = A([[-1], [100]], dtype=np.int16)
    assert shown(col) == "x =\n\n  2×1 int16 column vector\n\n    -1\n   100\n\n"
    assert shown(A([[1, 2], [3, 4]], dtype=np.uint8)) == "x =\n\n  2×2 uint8 matrix\n\n   1   2\n   3   4\n\n"


def test_logical():
    assert shown(True) == "x =\n\n  logical\n\n   1\n\n"
    assert shown(A([[True, False]])) == "x =\n\n  1×2 logical array\n\n   1   0\n\n"


def test_char():
    assert shown(char_array("hello")) == "x =\n\n    'hello'\n\n"
    assert shown(char_rows(["abc", "def"])) == "x =\n\n  2×3 char array\n\n    'abc'\n    'def'\n\n"
    assert shown(char_array("")) == "x =\n\n  0×0 empty char array\n\n"


def test_strings():
    assert shown(StringArray.scalar("hello")) == 'x = \n\n    "hello"\n\n'
    assert shown(strs("a", "bc")) == 'x = \n\n  1×2 string array\n\n    "a"    "bc"\n\n'


def test_complex():
    assert shown(complex(3, 4)) == "x =\n\n   3.0000 + 4.0000i\n\n"
    assert shown(A([[1 + 2j, 3 - 4j]])) == "x =\n\n   1.0000 + 2.0000i   3.0000 - 4.0000i\n\n"


def test_empties():
    assert shown(np.zeros((0, 0))) == "x =\n\n     []\n\n"
    assert shown(np.zeros((1, 0))) == "x =\n\n  1×0 empty double row vector\n\n"
    assert shown(np.zeros((0, 3))) == "x =\n\n  0×3 empty double matrix\n\n"
    assert shown(np.zeros((0, 1))) == "x =\n\n  0×1 empty double column vector\n\n"
    assert shown(np.zeros((3, 0))) == "x =\n\n  3×0 empty double matrix\n\n"


def test_cells():
    c = CellArray.from_list([1.0, char_array("abc")])
    assert shown(c) == "x =\n\n  1×2 cell array\n\n    {[1]}    {'abc'}\n\n"
    c2 = CellArray.from_list([1.0, 22.0, char_array("abc"), char_array("x")], (2, 2))
    assert shown(c2) == "x =\n\n  2×2 cell array\n\n    {[ 1]}    {'abc'}\n    {[22]}    {'x'  }\n\n"
    assert shown(CellArray.empty((0, 0))) == "x =\n\n  0×0 empty cell array\n\n"
    nested = CellArray.from_list([np.ones((2, 2)), CellArray.empty((1, 2)), A([[1.0, 2, 3]])])
    assert shown(nested) == "x =\n\n  1×3 cell array\n\n    {2×2 double}    {1×2 cell}    {[1 2 3]}\n\n"


def test_struct():
    st = StructArray.scalar({"a": 1.0, "name": char_array("hi"), "m": np.ones((2, 2)),
                             "v": A([[1.0, 2, 3]]), "c": CellArray.empty((1, 2)),
                             "e": np.zeros((0, 0))})
    assert shown(st) == ("x = \n\n  struct with fields:\n\n"
                         "       a: 1\n    name: 'hi'\n       m: [2×2 double]\n"
                         "       v: [1 2 3]\n       c: {1×2 cell}\n       e: []\n\n")
    assert shown(StructArray.scalar({})) == "x = \n\n  struct with no fields.\n\n"


def test_struct_array():
    data = np.empty((1, 2), dtype=object)
    data[0, 0] = {"a": 1.0, "b": 2.0}
    data[0, 1] = {"a": 3.0, "b": 4.0}
    assert shown(StructArray(["a", "b"], data)) == \
        "x = \n\n  1×2 struct array with fields:\n\n    a\n    b\n\n"


def test_function_handle():
    f = FunctionHandle(text="@(x)x.^2")
    assert shown(f) == "x =\n\n  function_handle with value:\n\n    @(x)x.^2\n\n"
    assert disp_text(FunctionHandle(name="sin")) == "    @sin\n"


def test_nd_pages():
    arr = np.arange(1, 9, dtype=float).reshape((2, 2, 2), order="F")
    assert shown(arr) == ("x(:,:,1) =\n\n     1     3\n     2     4\n\n"
                          "x(:,:,2) =\n\n     5     7\n     6     8\n\n")


def test_mexception():
    out = shown(MatlabError("MATLAB:test", "boom"))
    assert out.startswith("x = \n\n  MException with properties:\n\n")
    assert "    identifier: 'MATLAB:test'\n       message: 'boom'\n" in out


@pytest.mark.parametrize("value,expected", [
    (5.0, "     5\n"),
    (np.pi, "    3.1416\n"),
    (A([[1.0, 2, 3]]), "     1     2     3\n"),
    (char_array("hi"), "hi\n"),
    (char_rows(["ab", "cd"]), "ab\ncd\n"),
    (np.zeros((0, 0)), ""),
    (char_array(""), ""),
    (True, "   1\n"),
    (A([[5]], dtype=np.int8), "   5\n"),
    (StringArray.scalar("hey"), "hey\n"),
    (CellArray.from_list([1.0, char_array("a")]), "    {[1]}    {'a'}\n"),
    (StructArray.scalar({"a": 1.0}), "    a: 1\n"),
    (A([[1000.5, 2]]), "   1.0e+03 *\n\n    1.0005    0.0020\n"),
])
def test_disp(value, expected):
    assert disp_text(value, "short") == expected


def test_compact_spacing():
    assert display_value("x", 5.0, "short", compact=True) == "x =\n     5\n"
    assert display_value("x", A([[1000.5, 2]]), compact=True) == "x =\n   1.0e+03 *\n    1.0005    0.0020\n"


def test_exact_zeros_print_as_zero_in_non_integer_matrices() -> None:
    assert shown(A([[1.0, 0.0, 2.5]])) == "x =\n\n    1.0000         0    2.5000\n\n"
    assert shown(A([[0.0, 1500.5]])) == "x =\n\n   1.0e+03 *\n\n         0    1.5005\n\n"
    assert shown(A([[-0.0, 1.25]])) == "x =\n\n         0    1.2500\n\n"
    assert shown(A([[0.0, np.pi]]), "long") == "x =\n\n                   0   3.141592653589793\n\n"


def test_compact_display_drops_blank_lines() -> None:
    assert display_value("x", A([[0.0, 0.5]]), "short", True) == "x =\n         0    0.5000\n"
