"""classdef classes in the VM (matfuse.vm.classes): construction, dispatch,
members, value vs handle semantics, validation and errors."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from matfuse.errors import MatlabError
from matfuse.vm.session import Session

ACCOUNT = """\
classdef Account < handle
    properties
        Balance (1,1) double {mustBeNonnegative} = 0
        Owner char = 'nobody'
        Log = {}
    end
    properties (Dependent)
        Summary
    end
    methods
        function obj = Account(owner, amount)
            if nargin > 0
                obj.Owner = owner;
                obj.deposit(amount);
            end
        end
        function deposit(obj, amount)
            obj.Balance = obj.Balance + amount;
            obj.Log{end + 1} = amount;
        end
        function s = get.Summary(obj)
            s = sprintf('%s: %g', obj.Owner, obj.Balance);
        end
    end
    methods (Static)
        function a = empty_account()
            a = Account('empty', 0);
        end
    end
end
"""

VEC = """\
classdef Vec
    properties
        V = [0 0]
    end
    methods
        function obj = Vec(v)
            if nargin
                obj.V = v;
            end
        end
        function r = plus(a, b)
            r = Vec(a.V + b.V);
        end
        function r = mtimes(a, b)
            if isa(a, 'Vec')
                r = Vec(a.V * b);
            else
                r = Vec(a * b.V);
            end
        end
        function obj = set.V(obj, v)
            obj.V = round(v);
        end
    end
end
"""


@pytest.fixture()
def classes(tmp_path: Path):
    (tmp_path / "Account.m").write_text(ACCOUNT)
    (tmp_path / "Vec.m").write_text(VEC)
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield session, out
    finally:
        os.chdir(cwd)


def test_handle_object_is_shared_and_methods_mutate(classes) -> None:
    session, out = classes
    session.eval("a = Account('ann', 5); b = a; b.deposit(3); disp(a.Balance); "
                 "disp(numel(a.Log)); disp(a.Summary)")
    assert out.getvalue() == "     8\n     2\nann: 8\n"


def test_static_method_and_validation(classes) -> None:
    session, out = classes
    session.eval("e = Account.empty_account(); disp(e.Owner)")
    assert out.getvalue() == "empty\n"
    with pytest.raises(MatlabError) as info:
        session.eval("e.Balance = -1;")
    assert info.value.identifier == "MATLAB:validators:mustBeNonnegative"
    assert "Error setting property 'Balance' of class 'Account'." in info.value.message


def test_value_object_copies_and_set_method(classes) -> None:
    session, out = classes
    session.eval("p = Vec([1.4 2.6]); q = p; q.V = [5.2 5.2]; disp(p.V); disp(q.V)")
    assert out.getvalue() == "     1     3\n     5     5\n"


def test_operators_dispatch_on_either_operand(classes) -> None:
    session, out = classes
    session.eval("r = Vec([1 2]) + Vec([3 4]); disp(r.V); s = 2 * Vec([1 1]); disp(s.V); "
                 "t = Vec([1 1]) * 3; disp(t.V)")
    assert out.getvalue() == "     4     6\n     2     2\n     3     3\n"


def test_unsupported_operator_and_unknown_member(classes) -> None:
    session, _ = classes
    with pytest.raises(MatlabError) as info:
        session.eval("x = Vec() - Vec();")
    assert info.value.message == "Operator '-' is not supported for operands of type 'Vec'."
    with pytest.raises(MatlabError) as info:
        session.eval("v = Vec(); v.missing")
    assert info.value.identifier == "MATLAB:noSuchMethodOrField"


def test_introspection(classes) -> None:
    session, out = classes
    session.eval("a = Account(); p = properties(a); disp(p'); m = methods('Account'); "
                 "disp(ismember('deposit', m)); disp(isprop(a, 'Owner')); "
                 "disp(ismethod(a, 'deposit')); disp(isvalid(a))")
    assert out.getvalue() == ("    {'Balance'}    {'Owner'}    {'Log'}    {'Summary'}\n"
                              "   1\n   1\n   1\n   1\n")


def test_class_reloads_when_its_file_changes(classes, tmp_path: Path) -> None:
    session, out = classes
    session.eval("v = Vec([1 2]); disp(v.V)")
    source = VEC.replace("V = [0 0]", "V = [9 9]")
    path = tmp_path / "Vec.m"
    path.write_text(source)
    os.utime(path, (path.stat().st_atime + 5, path.stat().st_mtime + 5))
    session.eval("w = Vec(); disp(w.V)")
    assert out.getvalue() == "     1     2\n     9     9\n"


def test_copyable_copy_makes_a_new_handle(classes, tmp_path: Path) -> None:
    session, out = classes
    (tmp_path / "Node.m").write_text(
        "classdef Node < matlab.mixin.Copyable\n properties\n  Value = 0\n end\nend\n")
    session.eval("a = Node(); b = a; c = copy(a); a.Value = 5; disp([b.Value c.Value])")
    assert out.getvalue() == "     5     0\n"
    with pytest.raises(MatlabError) as info:
        session.eval("copy(Account())")
    assert info.value.identifier == "MATLAB:UndefinedFunction"


def test_object_arrays_and_arrayfun(classes) -> None:
    session, out = classes
    session.eval("vs = [Vec([1 1]), Vec([2 2])]; vs(3) = Vec([3 3]); "
                 "n = arrayfun(@(v) v.V(1), vs); disp(n); disp(size(vs))")
    assert out.getvalue() == "     1     2     3\n     1     3\n"


def test_private_property_inside_anonymous_function_of_a_method(classes, tmp_path: Path) -> None:
    session, out = classes
    (tmp_path / "Priv.m").write_text(
        "classdef Priv\n properties (Access = private)\n  S = 10\n end\n methods\n"
        "  function r = viaAnon(obj, xs)\n   r = arrayfun(@(x) x + obj.S, xs);\n  end\n"
        " end\nend\n")
    session.eval("p = Priv(); disp(p.viaAnon([1 2]))")
    assert out.getvalue() == "    11    12\n"
    with pytest.raises(MatlabError) as info:
        session.eval("p.S")
    assert info.value.identifier == "MATLAB:class:GetProhibited"
