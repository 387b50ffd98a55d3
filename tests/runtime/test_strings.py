"""String builtins: comparison, search, build/split, trimming, case, conversions."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.values import CellArray, StringArray, char_rows
from text_support import call, cellrow, s, strs, text

A = np.array


def cell_texts(c):
    return [text(v) for v in c.data.reshape(-1, order="F")]


def test_strcmp_family():
    assert call("strcmp", s("a"), s("a")) is True
    assert call("strcmp", s("a"), s("ab")) is False
    assert call("strcmp", 5.0, s("a")) is False
    assert call("strcmpi", s("ABC"), s("abc")) is True
    assert call("strncmp", s("abcd"), s("abxx"), 2.0) is True
    assert call("strncmp", s("a"), s("ab"), 2.0) is False
    assert call("strncmpi", s("ABcd"), s("abXX"), 2.0) is True
    out = call("strcmp", cellrow("a", "b"), s("a"))
    assert out.tolist() == [[True, False]]
    both = call("strcmp", cellrow("a", "b"), cellrow("a", "c"))
    assert both.tolist() == [[True, False]]
    assert call("strcmp", strs("x", "y"), s("y")).tolist() == [[False, True]]
    assert call("strcmp", char_rows(["ab", "cd"]), char_rows(["ab", "cd"])) is True


def test_strcmp_size_mismatch():
    with pytest.raises(MatlabError) as info:
        call("strcmp", cellrow("a", "b"), cellrow("a", "b", "c"))
    assert info.value.identifier == "MATLAB:strcmp:InputsSizeMismatch"


def test_strfind():
    assert call("strfind", s("abcabc"), s("bc")).tolist() == [[2.0, 5.0]]
    assert call("strfind", s("aaa"), s("aa")).tolist() == [[1.0, 2.0]]
    assert call("strfind", s("abc"), s("c")) == 3.0
    assert call("strfind", s("abc"), s("z")).shape == (1, 0)
    per_cell = call("strfind", cellrow("ab", "b"), s("b"))
    assert isinstance(per_cell, CellArray) and per_cell.data[0, 1] == 1.0


def test_contains_starts_ends():
    assert call("contains", s("Hello"), s("ell")) is True
    assert call("contains", cellrow("ab", "cd"), cellrow("b", "z")).tolist() == [[True, False]]
    assert call("contains", s("Hello"), s("ELL"), s("IgnoreCase"), True) is True
    assert call("startsWith", s("Hello"), s("He")) is True
    assert call("endsWith", strs("a.m", "b.txt"), s(".m")).tolist() == [[True, False]]


def test_strcat():
    assert text(call("strcat", s("a "), s("b"), s(" c"))) == "ab c"
    assert cell_texts(call("strcat", cellrow("a", "b"), s("x"))) == ["ax", "bx"]
    out = call("strcat", strs("a"), s("b"))
    assert isinstance(out, StringArray) and out.data[0, 0] == "ab"


def test_strsplit_strjoin():
    assert cell_texts(call("strsplit", s("a b  c"))) == ["a", "b", "c"]
    assert cell_texts(call("strsplit", s("a,b,,c"), s(","))) == ["a", "b", "c"]
    assert cell_texts(call("strsplit", s("a,b,,c"), s(","), s("CollapseDelimiters"), False)) == ["a", "b", "", "c"]
    assert cell_texts(call("strsplit", s("a,b;c"), cellrow(",", ";"))) == ["a", "b", "c"]
    assert text(call("strjoin", cellrow("a", "b", "c"))) == "a b c"
    assert text(call("strjoin", cellrow("a", "b"), s(", "))) == "a, b"
    assert text(call("strjoin", cellrow("a", "b"), s("\\n"))) == "a\nb"
    with pytest.raises(MatlabError):
        call("strjoin", s("abc"))


def test_strrep_trim_case():
    assert text(call("strrep", s("hello world"), s("o"), s("0"))) == "hell0 w0rld"
    assert cell_texts(call("strrep", cellrow("aa", "ba"), s("a"), s("x"))) == ["xx", "bx"]
    assert text(call("strtrim", s("  hi \t\n"))) == "hi"
    assert cell_texts(call("strtrim", cellrow(" a", "b "))) == ["a", "b"]
    assert text(call("deblank", s(" hi  "))) == " hi"
    assert text(call("upper", s("abc"))) == "ABC"
    assert cell_texts(call("lower", cellrow("AB", "Cd"))) == ["ab", "cd"]
    assert call("upper", strs("x")).data[0, 0] == "X"
    assert call("upper", 5.0) == 5.0


def test_small_helpers():
    assert text(call("blanks", 3.0)) == "   "
    assert text(call("newline")) == "\n"
    assert call("strlength", s("abc")) == 3.0
    assert call("strlength", strs("a", "bcd")).tolist() == [[1.0, 3.0]]
    assert call("isspace", s("a b")).tolist() == [[False, True, False]]
    assert call("isletter", s("a1b")).tolist() == [[True, False, True]]
    assert call("isstrprop", s("a1B"), s("digit")).tolist() == [[False, True, False]]
    assert call("isstrprop", s("a1B"), s("upper")).tolist() == [[False, False, True]]
    with pytest.raises(MatlabError) as info:
        call("isstrprop", s("a"), s("bogus"))
    assert info.value.identifier == "MATLAB:isstrprop:InvalidCategory"


def test_bases():
    assert text(call("dec2bin", 5.0)) == "101"
    assert text(call("dec2bin", 5.0, 8.0)) == "00000101"
    rows = call("dec2bin", A([[1.0, 2, 3]]))
    assert rows.shape == (3, 2) and "".join(rows[0]) == "01"
    assert text(call("dec2hex", 255.0)) == "FF"
    assert call("hex2dec", s("FF")) == 255.0
    assert call("bin2dec", s("101")) == 5.0
    assert call("hex2dec", cellrow("A", "10")).tolist() == [[10.0], [16.0]]
    with pytest.raises(MatlabError) as info:
        call("bin2dec", s("102"))
    assert info.value.identifier == "MATLAB:bin2dec:IllegalBinaryString"
    # Negative integers in two's complement (MATLAB R2020a and later).
    assert text(call("dec2bin", -1.0)) == "11111111"
    with pytest.raises(MatlabError):
        call("dec2bin", 1.5)


def test_string_and_cellstr():
    assert call("string", s("abc")).data[0, 0] == "abc"
    assert call("string", 3.5).data[0, 0] == "3.5"
    assert call("string", np.pi).data[0, 0] == "3.1416"
    assert call("string", True).data[0, 0] == "true"
    assert list(call("string", cellrow("a", "b")).data[0]) == ["a", "b"]
    assert call("string", float("nan")).data[0, 0] is None
    c = call("cellstr", char_rows(["ab ", "c  "]))
    assert c.shape == (2, 1) and cell_texts(c) == ["ab", "c"]
    with pytest.raises(MatlabError) as info:
        call("cellstr", 5.0)
    assert info.value.identifier == "MATLAB:cellstr:InputClass"


def test_strvcat():
    out = call("strvcat", s("a"), s(""), s("bcd"))
    assert out.shape == (2, 3)


def test_text_errors_name_the_builtin():
    with pytest.raises(MatlabError) as info:
        call("strtrim", 5.0)
    assert info.value.function_name == "strtrim"
