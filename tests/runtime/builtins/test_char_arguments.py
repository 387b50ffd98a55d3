"""Char arguments are read as their character codes.

MATLAB stores characters as numeric code values ("Unicode and ASCII Values"
in MATLAB's documentation: ``double('MATLAB')`` is ``[77 65 84 76 65 66]``),
and a char passed where a number is expected is that number: data, size and
dimension arguments alike (``repmat(1, '2', 1)`` is 50x1). NumPy would parse
the text instead (``'5'`` -> 5), a silent wrong answer, or fail on ``'a'``.

Each case runs a call with char arguments and the same call with the codes
written as numbers; both must give the same values and size, or the same
MATLAB error.
"""

from __future__ import annotations

import io
import os

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.registry import BUILTINS, load_all
from matfuse.vm.session import Session

# (call with chars, the same call with the character codes)
CASES = [
    # numeric data
    ("mod('a', 7)", "mod(97, 7)"),
    ("rem('a', 7)", "rem(97, 7)"),
    ("mod(100, 'a')", "mod(100, 97)"),
    ("abs('a')", "abs(97)"),
    ("sqrt('d')", "sqrt(100)"),
    ("floor('5')", "floor(53)"),
    ("sum('ab')", "sum([97 98])"),
    ("prod('ab')", "prod([97 98])"),
    ("cumsum('ab')", "cumsum([97 98])"),
    ("cumprod('ab')", "cumprod([97 98])"),
    ("max('ab')", "max([97 98])"),
    ("min('ab', 98)", "min([97 98], 98)"),
    ("mean('ab')", "mean([97 98])"),
    ("median('abc')", "median([97 98 99])"),
    ("mode('aab')", "mode([97 97 98])"),
    ("var('ab')", "var([97 98])"),
    ("sort('ba')", "sort([98 97])"),
    ("diff('ace')", "diff([97 99 101])"),
    ("power('a', 2)", "power(97, 2)"),
    ("atan2('a', 1)", "atan2(97, 1)"),
    ("hypot('a', 1)", "hypot(97, 1)"),
    ("bitand('a', 3)", "bitand(97, 3)"),
    ("bitshift('a', 1)", "bitshift(97, 1)"),
    ("gcd('a', 6)", "gcd(97, 6)"),
    ("lcm('a', 6)", "lcm(97, 6)"),
    ("dot('ab', 'ab')", "dot([97 98], [97 98])"),
    ("norm('ab')", "norm([97 98])"),
    ("det('a')", "det(97)"),
    ("polyval('ab', 2)", "polyval([97 98], 2)"),
    ("conv('ab', 1)", "conv([97 98], 1)"),
    ("filter(1, 1, 'ab')", "filter(1, 1, [97 98])"),
    ("interp1([1 2], 'ab', 1.5)", "interp1([1 2], [97 98], 1.5)"),
    ("trapz('ab')", "trapz([97 98])"),
    ("histc('ab', 97:98)", "histc([97 98], 97:98)"),
    ("accumarray([1; 2], ['5'; '6'])", "accumarray([1; 2], [53; 54])"),
    ("int8('a')", "int8(97)"),
    ("idivide(int32(100), int32('a'))", "idivide(int32(100), int32(97))"),
    # size and count arguments
    ("repmat(1, '2', 1)", "repmat(1, 50, 1)"),
    ("repmat([1 2], 1, char(2))", "repmat([1 2], 1, 2)"),
    ("zeros(['2'; '3'])", "zeros([50; 51])"),
    ("reshape(1:6, char(2), char(3))", "reshape(1:6, 2, 3)"),
    ("reshape(1:6, [char(2) char(3)])", "reshape(1:6, [2 3])"),
    ("linspace(0, 1, '5')", "linspace(0, 1, 53)"),
    ("magic(char(3))", "magic(3)"),
    ("primes('a')", "primes(97)"),
    ("bitshift(1, '2')", "bitshift(1, 50)"),
    ("round(pi, char(2))", "round(pi, 2)"),
    ("cellfun('size', {ones(2, 3)}, char(2))", "cellfun('size', {ones(2, 3)}, 2)"),
    ("size('abc', char(2))", "size('abc', 2)"),
    # dimension and shift arguments
    ("sum(ones(2, 2), ['1'; '2'])", "sum(ones(2, 2), [49; 50])"),
    ("max(magic(3), [], ['1'; '2'])", "max(magic(3), [], [49; 50])"),
    ("circshift([1 2 3], char(1))", "circshift([1 2 3], 1)"),
    ("circshift([1 2 3], 'a')", "circshift([1 2 3], 97)"),
    ("triu(ones(3), char(1))", "triu(ones(3), 1)"),
    ("diag([1 2], char(1))", "diag([1 2], 1)"),
    ("rot90(magic(3), char(1))", "rot90(magic(3), 1)"),
    ("permute(ones(2, 3), [char(2) char(1)])", "permute(ones(2, 3), [2 1])"),
    ("cat(char(1), 1, 2)", "cat(1, 1, 2)"),
]

# Calls whose codes are out of range: the same MATLAB error as with the codes.
ERROR_CASES = [
    ("nchoosek(10, '2')", "nchoosek(10, 50)"),
    ("ones(2, ['2'; '3'])", "ones(2, [50; 51])"),
    ("cat(['1'; '2'], 1, 2)", "cat([49; 50], 1, 2)"),
]


def _evaluate(expression: str) -> tuple[str, object]:
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    try:
        session.eval(f"result__ = double({expression});")
    except MatlabError as err:
        return "error", err.identifier
    return "value", session.get("result__")


def _same(char_result: tuple[str, object], code_result: tuple[str, object]) -> bool:
    if char_result[0] != code_result[0]:
        return False
    if char_result[0] == "error":
        return char_result[1] == code_result[1]
    a, b = (np.asarray(r[1].toarray() if hasattr(r[1], "toarray") else r[1])   # sparse results
            for r in (char_result, code_result))
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("with_chars, with_codes", CASES)
def test_char_argument_is_its_code(with_chars: str, with_codes: str) -> None:
    char_result = _evaluate(with_chars)
    assert char_result[0] == "value", char_result
    code_result = _evaluate(with_codes)
    assert _same(char_result, code_result), (char_result, code_result)


@pytest.mark.parametrize("with_chars, with_codes", ERROR_CASES)
def test_char_argument_out_of_range_errors_as_its_code(with_chars: str, with_codes: str) -> None:
    char_result = _evaluate(with_chars)
    assert char_result[0] == "error" and char_result[1] != "matfuse:internalError", char_result
    assert char_result == _evaluate(with_codes)


def test_digit_char_is_never_read_as_its_digit() -> None:
    """Every numeric builtin called with ``'5'`` agrees with the call with 53
    (or raises a MATLAB error): none reads the digit 5."""
    load_all()
    text_categories = {"files", "filesystem", "output", "environment", "gpu", "gpu_device",
                       "lang", "text", "strings", "regexp", "matfiles"}
    # Functions whose result keeps the class (char in, char out) or that ask
    # about the class itself; values still match after double().
    names = sorted(name for name, decl in BUILTINS.items()
                   if decl.name == name and decl.category not in text_categories
                   and not name.startswith("rand") and name not in ("tic", "toc", "rng"))
    wrong = []
    for name in names:
        for template in ("{f}(@)", "{f}(magic(4), @)", "{f}(@, 2)"):
            call = template.format(f=name)
            char_result = _evaluate(call.replace("@", "'5'"))
            if char_result[0] != "value":
                assert char_result[1] != "matfuse:internalError", call
                continue
            code_result = _evaluate(call.replace("@", "53"))
            if code_result[0] == "value" and not _same(char_result, code_result):
                digit_result = _evaluate(call.replace("@", "5"))
                if _same(char_result, digit_result):
                    wrong.append(call)
    assert not wrong, wrong


def test_fread_char_second_argument_is_the_precision(tmp_path) -> None:
    path = os.path.join(str(tmp_path), "data.bin")
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    session.eval(f"fid = fopen('{path}', 'w'); fwrite(fid, 1:10); fclose(fid);")
    session.eval(f"fid = fopen('{path}'); a = fread(fid, 'uint16'); fclose(fid);")
    a = np.asarray(session.get("a"))
    assert a.shape == (5, 1) and a[0, 0] == 1 + 2 * 256
    with pytest.raises(MatlabError) as info:
        session.eval(f"fid = fopen('{path}'); a = fread(fid, '5');")
    assert info.value.identifier == "MATLAB:fread:invalidPrecision"
    session.eval("fclose(fid);")
    with pytest.raises(MatlabError) as info:
        session.eval(f"fid = fopen('{path}'); a = fread(fid, []);")
    assert info.value.identifier == "MATLAB:fread:invalidSize"
