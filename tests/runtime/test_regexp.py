"""regexp, regexpi, regexprep."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.builtins.regexp import translate_pattern
from matfuse.runtime.values import CellArray, StructArray
from text_support import call, cellrow, s, text


def texts(c):
    return [text(v) for v in c.data.reshape(-1, order="F")]


def test_translate_pattern():
    assert translate_pattern(r"(?<year>\d+)") == r"(?P<year>\d+)"
    assert translate_pattern(r"\<word\>") == r"\bword\b"
    assert translate_pattern(r"(?<=a)b") == r"(?<=a)b"


def test_default_output_is_start():
    assert call("regexp", s("ab12cd345"), s(r"\d+")).tolist() == [[3.0, 7.0]]


def test_match_and_once():
    assert texts(call("regexp", s("ab12cd345"), s(r"\d+"), s("match"))) == ["12", "345"]
    assert text(call("regexp", s("ab12cd345"), s(r"\d+"), s("match"), s("once"))) == "12"
    none = call("regexp", s("abc"), s("z"), s("match"), s("once"))
    assert none.shape == (0, 0)
    assert call("regexp", s("abc"), s("z"), s("match")).shape == (1, 0)


def test_tokens():
    toks = call("regexp", s("k1=v1,k2=v2"), s(r"(\w+)=(\w+)"), s("tokens"))
    assert isinstance(toks, CellArray) and toks.shape == (1, 2)
    assert texts(toks.data[0, 1]) == ["k2", "v2"]
    once = call("regexp", s("k1=v1"), s(r"(\w+)=(\w+)"), s("tokens"), s("once"))
    assert texts(once) == ["k1", "v1"]


def test_names():
    names = call("regexp", s("k1=v1"), s(r"(?<key>\w+)=(?<val>\w+)"), s("names"))
    assert isinstance(names, StructArray) and names.fields == ["key", "val"]
    assert text(names.data[0, 0]["val"]) == "v1"
    several = call("regexp", s("a=1,b=2"), s(r"(?<k>\w)=(?<v>\d)"), s("names"))
    assert several.shape == (1, 2)


def test_split_and_multiple_outputs():
    assert texts(call("regexp", s("a,b;c"), s("[,;]"), s("split"))) == ["a", "b", "c"]
    start, end = call("regexp", s("xaay"), s("a+"), nargout=2)
    assert (start, end) == (2.0, 3.0)
    m, t = call("regexp", s("x12y3"), s(r"(\d)"), s("match"), s("tokens"), nargout=2)
    assert texts(m) == ["1", "2", "3"] and t.shape == (1, 3)


def test_cell_input_and_case():
    out = call("regexp", cellrow("a1", "b22"), s(r"\d+"), s("match"))
    assert out.shape == (1, 2) and texts(out.data[0, 1]) == ["22"]
    assert texts(call("regexpi", s("ABC"), s("b"), s("match"))) == ["B"]
    assert texts(call("regexp", s("ABC"), s("b"), s("match"), s("ignorecase"))) == ["B"]


def test_regexprep():
    assert text(call("regexprep", s("abc123"), s(r"(\d)"), s("<$1>"))) == "abc<1><2><3>"
    assert text(call("regexprep", s("hello world"), s(r"(\w+) (\w+)"), s("$2 $1"))) == "world hello"
    assert texts(call("regexprep", cellrow("aa", "ba"), s("a"), s("x"), s("once"))) == ["xa", "bx"]
    assert text(call("regexprep", s("a.b"), s(r"\."), s(r"\n"))) == "a\nb"
    assert text(call("regexprep", s("aBc"), s("b"), s("x"), s("ignorecase"))) == "axc"
    assert text(call("regexprep", s("a b"), s(" "), s(""))) == "ab"


def test_invalid_pattern():
    with pytest.raises(MatlabError) as info:
        call("regexp", s("a"), s("("))
    assert info.value.identifier == "MATLAB:regexp:invalidPattern"
    assert info.value.function_name == "regexp"


def test_named_backreferences_and_replacements():
    assert translate_pattern(r"(?<c>a)\k<c>") == r"(?P<c>a)(?P=c)"
    out = call("regexprep", s("2024-05"), s(r"(?<y>\d+)-(?<m>\d+)"), s("$<m>/$<y>"))
    assert text(out) == "05/2024"
    assert text(call("regexprep", s("ab"), s("b"), s("[$0]"))) == "a[b]"
