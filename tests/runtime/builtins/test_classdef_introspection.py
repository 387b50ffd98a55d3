"""properties/methods/isprop/ismethod/isobject/superclasses/copy/enumeration/inputname."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.classdef_support import class_session

BASE = "classdef Base < handle\n properties\n  P = 1\n end\n methods\n  function m(obj)\n  end\n end\nend\n"
SUB = "classdef Sub < Base\n properties\n  Q = 2\n end\nend\n"


def test_properties_listing_and_superclasses(tmp_path: Path) -> None:
    with class_session(tmp_path, Base=BASE, Sub=SUB) as (session, out):
        session.eval("s = Sub(); properties(s); c = superclasses('Sub'); disp(c');"
                     "disp([isobject(s), isobject(1), isprop(s, 'P'), ismethod(s, 'm')])")
        assert out.getvalue() == ("\nProperties for class Sub:\n\n    Q\n    P\n\n"
                                  "    {'Base'}    {'handle'}\n"
                                  "   1   0   1   1\n")


def test_inputname_without_known_names_is_empty(tmp_path: Path) -> None:
    fn = "function r = f(x)\nr = isempty(inputname(1));\nend\n"
    with class_session(tmp_path, f=fn) as (session, out):
        session.eval("y = 3; disp(f(y))")
        assert out.getvalue() == "   1\n"
