"""regexp on char rows with output selectors (the direct path) returns what
the general path returns (reached here through upper-case option words)."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.runtime.builtins import regexp as regexp_module
from matfuse.runtime.values import CellArray, StructArray, char_array

regexp = regexp_module.regexp
regexpi = regexp_module.regexpi


def _same(a, b):
    assert type(a) is type(b)
    if type(a) is CellArray:
        assert a.data.shape == b.data.shape
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1)):
            _same(x, y)
    elif type(a) is StructArray:
        assert a.fields == b.fields and a.data.shape == b.data.shape
    elif type(a) is np.ndarray:
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


def _c(text):
    return np.zeros((1, 0), dtype="<U1") if text == "" else char_array(text)


@pytest.mark.parametrize("text, pattern", [
    ("id=7; name=user3; score=42", r"score=(\d+)"),
    ("id=7; name=user3; score=42", r"\d+"),
    ("abc", r"x*"),
    ("", r"\d"),
    ("Alpha beta", r"(?<first>[a-z]+)"),
    ("a1b22c333", r"(\d)(\d)?"),
])
@pytest.mark.parametrize("options", [
    (), ("tokens",), ("match",), ("once",), ("tokens", "once"), ("match", "start"),
    ("names",), ("split", "match"), ("tokenExtents",),
])
@pytest.mark.parametrize("nargout", [1, 2, 3])
def test_char_rows_match_the_general_path(text, pattern, options, nargout):
    args = [_c(text), _c(pattern)]
    fast = regexp(*args, *[_c(o.lower()) for o in options], nargout=nargout)
    general = regexp(*args, *[_c(o.upper()) for o in options], nargout=nargout)
    if nargout > 1:
        assert len(fast) == len(general)
        for a, b in zip(fast, general):
            _same(a, b)
    else:
        _same(fast, general)


def test_ignore_case_and_invalid_pattern():
    _same(regexpi(_c("ABC abc"), _c("abc"), _c("match")),
          regexpi(_c("ABC abc"), _c("abc"), _c("MATCH")))
    from matfuse.errors import MatlabError

    with pytest.raises(MatlabError) as err:
        regexp(_c("abc"), _c("("), _c("match"))
    assert err.value.identifier == "MATLAB:regexp:invalidPattern"


def test_plans_keyed_by_pattern_options_outputs_and_case():
    """The per-call plan cache tells apart what changes the answer: the same
    pattern text with another output count, selector, case mode or 'once'."""
    text, pattern = _c("a1 B22 c333"), _c(r"[a-z](\d+)")
    tokens = regexp(text, pattern, _c("tokens"))
    assert [t.data[0, 0].tobytes() for t in tokens.data[0]] == [_c("1").tobytes(),
                                                                 _c("333").tobytes()]
    assert regexpi(text, pattern, _c("tokens")).data.shape == (1, 3)
    once = regexp(text, pattern, _c("tokens"), _c("once"))
    assert once.data.shape == (1, 1)
    starts, ends = regexp(text, pattern, nargout=2)
    _same(starts, np.array([[1.0, 8.0]]))
    _same(ends, np.array([[2.0, 11.0]]))
    _same(regexp(text, pattern, _c("match")),
          CellArray.from_list([_c("a1"), _c("c333")], (1, 2)))
    # An option the direct path does not take is answered by the general one
    # every time (its plan is remembered as "not this path").
    for _ in range(2):
        _same(regexp(text, pattern, _c("match"), _c("ignorecase")),
              regexpi(text, pattern, _c("match")))


def test_no_match_gives_empty_rows_and_an_invalid_pattern_raises_every_time():
    empty = regexp(_c("abc"), _c(r"\d"), _c("match"))
    assert type(empty) is CellArray and empty.data.shape == (1, 0)
    assert regexp(_c("abc"), _c(r"(\d)"), _c("tokens")).data.shape == (1, 0)
    empty_group = regexp(_c("ab"), _c("a(x?)b"), _c("tokens"))
    assert empty_group.data[0, 0].data[0, 0].shape == (1, 0)
    from matfuse.errors import MatlabError

    for _ in range(2):
        with pytest.raises(MatlabError) as err:
            regexpi(_c("abc"), _c("[a-"), _c("tokens"))
        assert err.value.identifier == "MATLAB:regexpi:invalidPattern"


def test_results_are_fresh_values():
    """Each call builds its own cells and char rows (nothing cached is handed out)."""
    first = regexp(_c("x1"), _c(r"\d"), _c("match"))
    second = regexp(_c("x1"), _c(r"\d"), _c("match"))
    assert first.data is not second.data and first.data[0, 0] is not second.data[0, 0]
