"""Property validation (matfuse.runtime.classdef_validation)."""

from __future__ import annotations

from pathlib import Path

import pytest

from classdef_support import class_session
from matfuse.errors import MatlabError

CHECKED = ("classdef Checked\n properties\n  I int16 = 3\n  R (2,2) double\n"
           "  M {mustBeMember(M, {'a', 'b'})} = 'a'\n end\nend\n")


def test_conversion_default_and_expansion(tmp_path: Path) -> None:
    with class_session(tmp_path, Checked=CHECKED) as (session, out):
        session.eval("c = Checked(); disp(class(c.I)); disp(c.R); c.R = 4; disp(c.R); c.M = 'b';")
        assert out.getvalue() == "int16\n     0     0\n     0     0\n     4     4\n     4     4\n"


def test_validator_with_arguments_rejects(tmp_path: Path) -> None:
    with class_session(tmp_path, Checked=CHECKED) as (session, _):
        with pytest.raises(MatlabError) as info:
            session.eval("c = Checked(); c.M = 'z';")
        assert info.value.identifier == "MATLAB:validators:mustBeMember"
        assert info.value.message.startswith("Error setting property 'M' of class 'Checked'.")
        with pytest.raises(MatlabError) as info:
            session.eval("c = Checked(); c.R = [1 2 3];")
        assert info.value.identifier == "MATLAB:validation:IncompatibleSize"
