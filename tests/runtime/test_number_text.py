"""num2str, int2str, mat2str, str2double, str2num."""

from __future__ import annotations

import math

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.values import CellArray, StringArray, char_rows
from text_support import call, cellrow, s, session_context, text

A = np.array


def rows(v):
    return ["".join(v[r, :].tolist()) for r in range(v.shape[0])]


@pytest.mark.parametrize("value,expected", [
    (np.pi, "3.1416"),
    (123.456, "123.456"),
    (1234.5678, "1234.5678"),
    (0.1, "0.1"),
    (-7.0, "-7"),
    (1e10, "10000000000"),
    (float("nan"), "NaN"),
    (float("inf"), "Inf"),
    (True, "1"),
    (complex(3, 4), "3+4i"),
    (complex(1, -2), "1-2i"),
    (A([[1.0, 2, 3]]), "1  2  3"),
    (A([[1.0, 10, 100]]), "1   10  100"),
    (A([[1.0, float("nan"), 3]]), "1  NaN    3"),
    (A([[1.5, 2.25]]), "1.5        2.25"),
    (A([[1, -2]], dtype=np.int8), "1 -2"),
])
def test_num2str_default(value, expected):
    assert text(call("num2str", value)) == expected


def test_num2str_matrix_rows():
    out = call("num2str", A([[1.5, 2.25], [3, 4]]))
    assert rows(out) == ["1.5        2.25", "  3           4"]


def test_num2str_precision_and_format():
    assert text(call("num2str", np.pi, 8.0)) == "3.1415927"
    assert text(call("num2str", A([[1.0, 2]]), s("%d,"))) == "1,2,"
    # MATLAB's num2str removes leading spaces even when the format has a width.
    assert text(call("num2str", np.pi, s("%10.5f"))) == "3.14159"


def test_num2str_char_passthrough_and_empty():
    assert text(call("num2str", s("abc"))) == "abc"
    assert call("num2str", np.zeros((0, 0))).size == 0


def test_num2str_rejects_cell():
    with pytest.raises(MatlabError) as info:
        call("num2str", CellArray.from_list([1.0]))
    assert info.value.identifier == "MATLAB:num2str:nonNumericInput"


def test_int2str():
    assert text(call("int2str", 2.5)) == "3"
    assert text(call("int2str", -2.5)) == "-3"
    assert text(call("int2str", A([[1.4, 2.6]]))) == "1  3"


@pytest.mark.parametrize("value,expected", [
    (A([[1.0, 2], [3, 4]]), "[1 2;3 4]"),
    (np.pi, "3.14159265358979"),
    (A([[True, False]]), "[true false]"),
    (True, "true"),
    (s("it's"), "'it''s'"),
    (char_rows(["ab", "cd"]), "['ab';'cd']"),
    (np.zeros((0, 3)), "zeros(0,3)"),
    (np.zeros((0, 0)), "[]"),
    (A([[1 + 2j, 3 - 1j]]), "[1+2i 3-1i]"),
    (A([[float("inf"), -float("inf"), float("nan")]]), "[Inf -Inf NaN]"),
    (A([[-0.5], [2]]), "[-0.5;2]"),
])
def test_mat2str(value, expected):
    assert text(call("mat2str", value)) == expected


def test_mat2str_options():
    assert text(call("mat2str", np.pi, 4.0)) == "3.142"
    assert text(call("mat2str", A([[1, 2]], dtype=np.int8), s("class"))) == "int8([1 2])"
    with pytest.raises(MatlabError) as info:
        call("mat2str", np.zeros((2, 2, 2)))
    assert info.value.identifier == "MATLAB:mat2str:TwoDInput"


@pytest.mark.parametrize("raw,expected", [
    ("3.5", 3.5), (" -2e3 ", -2000.0), ("1,000", 1000.0), ("Inf", math.inf),
    ("-inf", -math.inf), (".5", 0.5), ("1d2", 100.0),
])
def test_str2double_numbers(raw, expected):
    assert call("str2double", s(raw)) == expected


@pytest.mark.parametrize("raw", ["abc", "", "1 2", "--1", "1e"])
def test_str2double_nan(raw):
    assert math.isnan(call("str2double", s(raw)))


def test_str2double_complex_cell_string():
    assert call("str2double", s("1+2i"))[0, 0] == 1 + 2j
    out = call("str2double", cellrow("1", "x", "1e3"))
    assert out.shape == (1, 3) and out[0, 0] == 1 and math.isnan(out[0, 1]) and out[0, 2] == 1000
    assert call("str2double", StringArray.scalar("7")) == 7.0
    assert math.isnan(call("str2double", 5.0))


def test_str2num():
    # A real interpreter: text that is not a plain number list is evaluated.
    ctx = session_context()
    assert np.array_equal(call("str2num", s("[1 2; 3 4]"), ctx=ctx), A([[1.0, 2], [3, 4]]))
    assert call("str2num", s("pi"), ctx=ctx) == math.pi
    assert np.array_equal(call("str2num", s("1, 2, 3"), ctx=ctx), A([[1.0, 2, 3]]))
    assert np.array_equal(call("str2num", s("2*3 sqrt(16)"), ctx=ctx), A([[6.0, 4]]))
    value, ok = call("str2num", s("junk"), nargout=2, ctx=ctx)
    assert value.size == 0 and ok is False


def test_int2str_prints_every_digit_and_no_negative_zero():
    assert text(call("int2str", 1e20)) == "100000000000000000000"
    assert text(call("int2str", -0.4)) == "0"
    assert text(call("int2str", A([[1.5, float("nan"), -2.5]]))) == "2  NaN   -3"


def test_num2str_integer_classes_ignore_precision():
    value = A([[-(2 ** 53) - 1]], dtype=np.int64)
    assert text(call("num2str", value, 3.0)) == "-9007199254740993"


def test_num2str_large_whole_numbers_use_g():
    assert text(call("num2str", 2.0 ** 60)) == "1.152921504606847e+18"
    assert text(call("num2str", 2.0 ** 53 - 1)) == "9007199254740991"


def test_num2str_complex_nonfinite_parts():
    assert text(call("num2str", complex(1, float("nan")))) == "1+NaNi"
    assert text(call("num2str", A([[complex(float("inf"), 0), complex(0, -float("inf"))]]))) == "Inf+0i   0-Infi"
