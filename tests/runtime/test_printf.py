"""sprintf/fprintf formatting (matfuse.runtime.printf and builtins/output)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.printf import format_printf, process_escapes
from text_support import FakeContext, call, s, strs, text

ROW = np.array([[1.0, 2.0, 3.0]])


@pytest.mark.parametrize("fmt,args,expected", [
    ("%d", [5.0], "5"),
    ("%d", [1.5], "1.500000e+00"),
    ("%i|%u", [-3.0, 7.0], "-3|7"),
    ("%5.2f|", [3.14159], " 3.14|"),
    ("%-6d|", [42.0], "42    |"),
    ("%+d %+d", [5.0, -5.0], "+5 -5"),
    ("%05d", [42.0], "00042"),
    ("%e", [12345.678], "1.234568e+04"),
    ("%E", [0.5], "5.000000E-01"),
    ("%g %g %g", [1e-5, 100000.0, 1e6], "1e-05 100000 1e+06"),
    ("%G", [1e-10], "1E-10"),
    ("%x %X %o", [255.0, 255.0, 8.0], "ff FF 10"),
    ("%c%c", [72.0, 105.0], "Hi"),
    ("%s", [65.0], "A"),
    ("%s", [3.14], "3.140000e+00"),
    ("%d %d\n", [ROW], "1 2\n3 "),
    ("%d, ", [ROW], "1, 2, 3, "),
    ("[%d]", [np.zeros((0, 0))], "[]"),
    ("%d", [np.zeros((0, 0))], ""),
    ("hello %d world", [], "hello "),
    ("no conversions", [1.0], "no conversions"),
    ("%d %f %e", [float("inf"), float("nan"), -float("inf")], "Inf NaN -Inf"),
    ("%5d|", [float("nan")], "  NaN|"),
    ("%*d", [5.0, 3.0], "    3"),
    ("%.*f", [2.0, np.pi], "3.14"),
    ("%d", [True], "1"),
    ("%d%%", [50.0], "50%"),
    ("%.2s|", [s("abcdef")], "ab|"),
    ("%5s|", [s("ab")], "   ab|"),
    ("%-5s|", [s("ab")], "ab   |"),
])
def test_format_printf(fmt, args, expected):
    assert format_printf(fmt, args) == expected


def test_char_args_whole_for_s_and_per_char_for_d():
    assert format_printf("%s-%s", [s("abc"), s("de")]) == "abc-de"
    assert format_printf("%d %s", [s("ab")]) == "97 b"
    assert format_printf("%d,", [s("AB")]) == "65,66,"
    assert format_printf("%c|", [s("ab")]) == "a|b|"


def test_mixed_numbers_and_text_recycle():
    names = s("x")
    assert format_printf("%s=%d\n", [names, 4.0]) == "x=4\n"
    assert format_printf("%s: %d\n", [s("a"), 1.0, s("b"), 2.0]) == "a: 1\nb: 2\n"


def test_integer_classes_exact():
    big = np.array([[2 ** 62 + 1]], dtype=np.int64)
    assert format_printf("%d", [big]) == str(2 ** 62 + 1)
    assert format_printf("%d", [np.array([[255]], dtype=np.uint8)]) == "255"


def test_matrix_column_major():
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert format_printf("%d ", [m]) == "1 3 2 4 "


def test_string_array_args():
    assert format_printf("%s;", [strs("ab", "c")]) == "ab;c;"


@pytest.mark.parametrize("raw,expected", [
    ("a\\nb", "a\nb"), ("\\t", "\t"), ("\\\\", "\\"), ("\\x41", "A"),
    ("\\101", "A"), ("\\a", "\a"), ("\\r", "\r"), ("plain", "plain"),
])
def test_escapes(raw, expected):
    assert process_escapes(raw) == expected


def test_sprintf_builtin_returns_char_row():
    out = call("sprintf", s("%d-%d"), 1.0, 2.0)
    assert out.shape == (1, 3) and text(out) == "1-2"
    empty = call("sprintf", s("%d"), np.zeros((0, 0)))
    assert empty.shape == (1, 0)


def test_sprintf_string_format_gives_string():
    out = call("sprintf", strs("%d!"), 3.0)
    assert out.data[0, 0] == "3!"


def test_fprintf_writes_and_counts_bytes():
    ctx = FakeContext()
    n = call("fprintf", s("x=%d\n"), 3.0, ctx=ctx, nargout=1)
    assert ctx.text == "x=3\n" and n == 4.0
    ctx2 = FakeContext()
    assert call("fprintf", s("hi\n"), ctx=ctx2, nargout=0) is None
    assert ctx2.text == "hi\n"


def test_fprintf_fids():
    ctx = FakeContext()
    call("fprintf", 1.0, s("out %d\n"), 1.0, ctx=ctx, nargout=0)
    call("fprintf", 2.0, s("err\n"), ctx=ctx, nargout=0)
    assert ctx.text == "out 1\n" and "".join(ctx.err) == "err\n"


def test_fprintf_bad_fid():
    with pytest.raises(MatlabError) as info:
        call("fprintf", -1.0, s("x"), ctx=FakeContext(), nargout=0)
    assert info.value.identifier == "MATLAB:badfid_mx"


def test_printf_rejects_cells():
    from matfuse.runtime.values import CellArray
    with pytest.raises(MatlabError) as info:
        call("sprintf", s("%d"), CellArray.from_list([1.0]))
    assert info.value.function_name == "sprintf"
