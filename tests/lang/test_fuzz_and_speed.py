"""Robustness (random input never escapes as a non-MATLAB error) and speed."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matfuse.errors import MatlabSyntaxError
from matfuse.lang import parse

_TOKENS = [
    "x", "y", "f", "1", "2.5", "3i", "0x1F", "0b1s8", "1e", "'a'", "'", '"s"', '"',
    "+", "-", "*", "/", "\\", "^", ".^", ".*", "./", ".'", "==", "~=", "!=", "<",
    ">=", "&", "|", "&&", "||", "~", "!", "=", ":", ",", ";", "(", ")", "[", "]",
    "{", "}", ".", ".(", "@", "@(x)", "end", "end'", "if", "else", "elseif", "for",
    "parfor", "while", "switch", "case", "otherwise", "try", "catch", "function",
    "global", "persistent", "break", "return", "classdef", "endif", "\n", " ",
    "\t", "%", "%{\n", "%}\n", "...", "disp", "hold on", "$", "\u00e9", "\r\n",
]

_token_soup = st.lists(st.sampled_from(_TOKENS), max_size=30).map("".join)
_spaced_soup = st.lists(st.sampled_from(_TOKENS), max_size=30).map(" ".join)
_byte_text = st.binary(max_size=60).map(lambda b: b.decode("latin-1"))


def _parse_or_syntax_error(source: str) -> None:
    try:
        parse(source, "fuzz.m")
    except MatlabSyntaxError as err:
        assert err.span is not None
        err.report()  # rendering the caret must not fail either


_FUZZ = settings(max_examples=100, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@_FUZZ
@given(_token_soup)
def test_token_soup_parses_or_raises_syntax_error(source: str) -> None:
    _parse_or_syntax_error(source)


@_FUZZ
@given(_spaced_soup)
def test_spaced_token_soup_parses_or_raises_syntax_error(source: str) -> None:
    _parse_or_syntax_error(source)


@_FUZZ
@given(_byte_text)
def test_random_bytes_parse_or_raise_syntax_error(source: str) -> None:
    _parse_or_syntax_error(source)


_CHUNK = """\
function r = f{n}(x, y)
  % compute things
  r = zeros(size(x));
  for i = 1:numel(x)
    if x(i) > 0 && y(i) ~= 3
      r(i) = x(i).^2 + sin(y(i)) * [1 2 3]' * 2;
    elseif x(i) < -1
      r(end+1) = -x(i);
    else
      s.a{{i}} = {{'abc', "def", @(z) z + 1}};
    end
  end
  [m, ~] = max(r(:));
  fprintf('%d\\n', m);
end
"""


def test_five_thousand_lines_parse_well_under_a_second() -> None:
    source = "".join(_CHUNK.format(n=n) for n in range(340))
    assert source.count("\n") >= 5000
    start = time.perf_counter()
    program = parse(source)
    elapsed = time.perf_counter() - start
    assert len(program.functions) == 340
    # Typically ~0.1 s; the bound leaves room for slow CI machines.
    assert elapsed < 1.5, elapsed
