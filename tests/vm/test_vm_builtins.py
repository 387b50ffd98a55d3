"""Interpreter-bound builtins (lang_builtins, lang_errors)."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from vmutil import run, session


def test_eval_and_eval_catch() -> None:
    assert run("eval('x = 2 + 3;'); fprintf('%d', x)") == "5"
    assert run("y = eval('7'); fprintf('%d', y)") == "7"
    assert run("eval('error(''z'')', 'fprintf(''%s'', lasterr)')") == "z"


def test_feval_name_and_handle() -> None:
    assert run("fprintf('%d', feval('max', [1 5 2]))") == "5"
    assert run("[m, i] = feval(@max, [1 5 2]); fprintf('%d%d', m, i)") == "52"


def test_exist_and_clear() -> None:
    assert run("a = 1; fprintf('%d%d%d', exist('a'), exist('disp'), exist('zzqq'))") == "150"
    assert run("a = 1; b = 2; clear a; fprintf('%d%d', exist('a'), exist('b'))") == "01"


def test_who_lists_variables() -> None:
    out = run("zeta = 1; alpha = 2; who")
    assert "Your variables are:" in out and "alpha  zeta" in out


def test_error_forms() -> None:
    s, _, _ = session()
    with pytest.raises(MatlabError) as info:
        s.eval("error('Only %d text')")
    assert info.value.message == "Only %d text" and info.value.identifier == ""
    with pytest.raises(MatlabError) as info:
        s.eval("error('pkg:id', 'v=%g', 1.5)")
    assert (info.value.identifier, info.value.message) == ("pkg:id", "v=1.5")
    with pytest.raises(MatlabError) as info:
        s.eval("error('%s and %s', 'a', 'b')")
    assert info.value.message == "a and b"
    s.eval("error('')")  # no-op


def test_error_report_names_function() -> None:
    s, _, _ = session()
    s.eval("disp(0)\nfunction f()\n error('bad thing');\nend\n")
    with pytest.raises(MatlabError) as info:
        s.eval("f()")
    assert info.value.report().startswith("Error using f\nbad thing")


def test_mexception_throw_rethrow_getreport() -> None:
    out = run("ME = MException('x:y', 'msg %d', 1);\n"
              "try, throw(ME); catch e, fprintf('%s|%s|', e.identifier, getReport(e)); end\n"
              "try, try, error('p:q', 'in'); catch a, rethrow(a); end; catch b, "
              "fprintf('%s', b.identifier); end")
    assert out == "x:y|msg 1|p:q"


def test_warning_goes_to_stderr_and_can_be_disabled() -> None:
    s, out, err = session()
    s.eval("warning('careful %d', 3); warning('off', 'all'); warning('hidden');")
    assert err.getvalue() == "Warning: careful 3\n"
    assert out.getvalue() == ""


def test_assert_forms() -> None:
    s, _, _ = session()
    s.eval("assert(true); assert([1 1]);")
    with pytest.raises(MatlabError) as info:
        s.eval("assert(false)")
    assert info.value.identifier == "MATLAB:assertion:failed"
    with pytest.raises(MatlabError) as info:
        s.eval("assert(0, 'a:b', 'n=%d', 2)")
    assert (info.value.identifier, info.value.message) == ("a:b", "n=2")


def test_format_long_short() -> None:
    s, _, _ = session()
    s.eval("format long")
    assert s.interp.display_format == "long"
    s.eval("format")
    assert s.interp.display_format == "short"


def test_narginchk_and_nargin_of_function() -> None:
    out = run("fprintf('%d %d', nargin(@g), nargin('g'))\nfunction g(a, b, varargin)\nend\n")
    assert out == "-3 -3"
    s, _, _ = session()
    with pytest.raises(MatlabError) as info:
        s.eval("h()\nfunction h(varargin)\n narginchk(1, 2);\nend\n")
    assert info.value.identifier == "MATLAB:narginchk:notEnoughInputs"


def test_isvarname_func2str_str2func() -> None:
    assert run("fprintf('%d%d%d', isvarname('a_1'), isvarname('_a'), isvarname('end'))") == "100"
    assert run("f = str2func('@(x) x * 2'); fprintf('%d %s', f(4), func2str(f))") == "8 @(x)x*2"


def test_ctx_variable_api() -> None:
    s, _, _ = session()
    interp = s.interp
    interp.set_var("k", 3.0)
    assert interp.get_var("k") == 3.0
    assert "k" in interp.variable_names()
    assert interp.call("max", [5.0], 1) == [5.0]
