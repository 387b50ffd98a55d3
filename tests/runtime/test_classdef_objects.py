"""ClassInfo/ClassObject (matfuse.runtime.classdef_objects): value vs handle
property sets, accessors, constants, operators."""

from __future__ import annotations

from pathlib import Path

import pytest

from classdef_support import class_session
from matfuse.errors import MatlabError
from matfuse.runtime.classdef_objects import ClassObject

VALUE = ("classdef Val\n properties\n  A = 1\n end\n properties (Constant)\n  K = 7\n end\n"
         " methods\n  function v = get.A(obj)\n   v = obj.A * 10;\n  end\n end\nend\n")
HANDLE = "classdef Ref < handle\n properties\n  A = 1\n end\nend\n"


def test_value_set_copies_handle_set_mutates(tmp_path: Path) -> None:
    with class_session(tmp_path, Val=VALUE, Ref=HANDLE) as (session, _):
        session.eval("v = Val(); w = v; w.A = 2; r = Ref(); q = r; q.A = 3;")
        v, w = session.interp.base["v"], session.interp.base["w"]
        r, q = session.interp.base["r"], session.interp.base["q"]
        assert type(v) is ClassObject and v is not w and v.props["A"] == 1.0
        assert r is q and r.props["A"] == 3.0


def test_getter_and_constant(tmp_path: Path) -> None:
    with class_session(tmp_path, Val=VALUE) as (session, out):
        session.eval("v = Val(); disp(v.A); disp(Val.K); disp(v.K)")
        assert out.getvalue() == "    10\n     7\n     7\n"
        with pytest.raises(MatlabError) as info:
            session.eval("v.K = 1;")
        assert info.value.identifier == "MATLAB:class:SetProhibited"


def test_handles_compare_by_identity(tmp_path: Path) -> None:
    with class_session(tmp_path, Ref=HANDLE) as (session, out):
        session.eval("a = Ref(); b = a; c = Ref(); disp([a == b, a == c, a ~= c])")
        assert out.getvalue() == "   1   0   1\n"
