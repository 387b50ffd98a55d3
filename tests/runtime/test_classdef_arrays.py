"""Object arrays (matfuse.runtime.classdef_arrays)."""

from __future__ import annotations

from pathlib import Path

import pytest

from classdef_support import class_session
from matfuse.errors import MatlabError
from matfuse.runtime.classdef_arrays import ObjectArray

ITEM = ("classdef Item\n properties\n  N = -1\n end\n methods\n"
        "  function obj = Item(n)\n   if nargin, obj.N = n; end\n  end\n end\nend\n")


def test_growth_fills_default_objects_and_deletion(tmp_path: Path) -> None:
    with class_session(tmp_path, Item=ITEM) as (session, out):
        session.eval("a(3) = Item(5); disp([a.N]); a(2) = []; disp([a.N]); b = [a, Item(9)];")
        assert out.getvalue() == "    -1    -1     5\n    -1     5\n"
        assert type(session.interp.base["b"]) is ObjectArray
        assert session.interp.base["b"].shape == (1, 3)


def test_mixing_classes_is_an_error(tmp_path: Path) -> None:
    with class_session(tmp_path, Item=ITEM) as (session, _):
        with pytest.raises(MatlabError) as info:
            session.eval("x = [Item(1), 2];")
        assert info.value.identifier == "MATLAB:invalidConversion"
        with pytest.raises(MatlabError):
            session.eval("c = {1}; c(2) = Item(1);")
