"""sprintf/fprintf formats are read through a cache keyed by the format row's
code units: a changed format variable, a char matrix format and an invalid
format still give MATLAB's answers."""

from __future__ import annotations

import io

import pytest

from matfuse.errors import MatlabError
from matfuse.vm.session import Session


def _run(code: str) -> str:
    out = io.StringIO()
    Session(stdout=out, stderr=io.StringIO()).eval(code)
    return out.getvalue()


def test_an_edited_format_variable_is_read_again():
    assert _run("f = 'a%db'; for k = 1:2, fprintf(f, k); f(1) = 'z'; end") == "a1bz2b"


def test_a_char_matrix_format_is_read_column_major():
    assert _run("g = ['%d'; '%s']; disp(sprintf(g, 5))") == "%ds\n"


def test_formats_sharing_code_units_with_other_text_agree():
    assert _run("x = sprintf('%d,', 1:3); y = sprintf('%d;', 1:3); disp(x); disp(y)") == \
        "1,2,3,\n1;2;3;\n"


def test_a_numeric_format_is_still_refused():
    with pytest.raises(MatlabError) as err:
        _run("sprintf(5)")
    assert err.value.identifier == "MATLAB:sprintf:invalidFormat"
