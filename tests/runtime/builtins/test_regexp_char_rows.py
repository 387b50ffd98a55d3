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
