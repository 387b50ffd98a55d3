"""Calls through call plans (``vm/call_plan.py``): user functions, anonymous
handles, the bare ``nargin``/``nargout`` reads and cellfun/arrayfun's
once-resolved callers keep MATLAB's semantics: counts, errors and their
identifiers, shadowing, recursion limits."""

from __future__ import annotations

import io
import os

import pytest
from vmutil import run, session

from matfuse.errors import MatlabError
from matfuse.vm.call_plan import anonymous_call, new_frame
from matfuse.vm.session import Session
from matfuse.vm.workspace import Frame


def _error_of(code: str) -> MatlabError:
    s, _, _ = session()
    with pytest.raises(MatlabError) as info:
        s.eval(code)
    return info.value


# ----------------------------------------------------------------- nargin


def test_nargin_nargout_in_functions() -> None:
    code = ("[a, b] = counts(1, 2, 3); fprintf('%d %d|', a, b);\n"
            "a = counts(); fprintf('%d|', a);\n"
            "counts(7);\n"
            "function [n, m] = counts(varargin)\n"
            "  n = nargin; m = nargout;\n"
            "  if nargout == 0, fprintf('none %d|', nargin); end\n"
            "end\n")
    assert run(code) == "3 2|0|none 1|"


def test_nargin_default_argument_idiom() -> None:
    code = ("fprintf('%d %d', scaled(3), scaled(3, 2));\n"
            "function r = scaled(x, f)\n"
            "  if nargin < 2\n    f = 10;\n  end\n  r = x * f;\nend\n")
    assert run(code) == "30 6"


def test_a_variable_named_nargin_shadows_the_count() -> None:
    code = ("fprintf('%d', f(1));\n"
            "function r = f(x)\n  nargin = 42;\n  r = nargin + x;\nend\n")
    assert run(code) == "43"


def test_nargin_in_the_base_workspace_is_an_error() -> None:
    err = _error_of("x = nargin;")
    assert err.identifier == "MATLAB:nargin:notInFunction"
    err = _error_of("y = nargout + 1;")
    assert err.identifier == "MATLAB:nargout:notInFunction"


def test_nargin_inside_an_anonymous_function() -> None:
    assert run("f = @(a, b) nargin; fprintf('%d %d', f(1), f(1, 2));") == "1 2"


def test_a_local_function_named_nargin_shadows_the_builtin() -> None:
    code = ("fprintf('%d', outer(5));\n"
            "function r = outer(x)\n  r = nargin + x;\nend\n"
            "function r = nargin()\n  r = 100;\nend\n")
    assert run(code) == "105"


def test_nargin_from_a_script_called_by_a_function(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "show_count.m").write_text("fprintf('%d|', nargin);\n")
    (tmp_path / "caller.m").write_text("function caller(a, b)\n  show_count\nend\n")
    assert run("caller(1, 2); caller(1);") == "2|1|"


# ------------------------------------------------------- function calls


def test_too_many_inputs_and_outputs() -> None:
    defs = "\nfunction r = one(x)\n  r = x;\nend\n"
    err = _error_of("one(1, 2);" + defs)
    assert err.identifier == "MATLAB:TooManyInputs"
    err = _error_of("[a, b] = one(1);" + defs)
    assert err.identifier == "MATLAB:TooManyOutputs"


def test_unassigned_output() -> None:
    defs = "\nfunction r = never(x)\n  if x > 0, r = 1; end\nend\n"
    err = _error_of("y = never(-1);" + defs)
    assert err.identifier == "MATLAB:unassignedOutputs"
    assert 'Output argument "r"' in err.message
    # Called for no value, an unassigned output is no error.
    assert run("never(-1); disp('ok')" + defs) == "ok\n"


def test_varargin_and_varargout_through_a_plan() -> None:
    code = ("[a, b, c] = spread(1, 2, 3); fprintf('%d %d %d|', a, b, c);\n"
            "x = spread(9); fprintf('%d|', x);\n"
            "function varargout = spread(varargin)\n"
            "  for k = 1:nargout\n    varargout{k} = varargin{k} * 2;\n  end\n"
            "  if nargout == 0, varargout{1} = varargin{1}; end\n"
            "end\n")
    assert run(code) == "2 4 6|18|"


def test_several_outputs_and_fewer_requested() -> None:
    code = ("[a, b] = pair(); fprintf('%d %d|', a, b); c = pair(); fprintf('%d', c);\n"
            "function [p, q] = pair()\n  p = 1; q = 2;\nend\n")
    assert run(code) == "1 2|1"


def test_recursion_limit_through_anonymous_handles() -> None:
    err = _error_of("f = @(g, n) g(g, n + 1); f(f, 1);")
    assert err.identifier == "MATLAB:recursionLimit"


def test_recursion_limit_leaves_the_session_usable() -> None:
    s, out, _ = session()
    s.eval("disp(0)\nfunction r = down(n)\n r = down(n + 1);\nend\n")
    with pytest.raises(MatlabError):
        s.call("down", 1.0)
    assert s.interp.depth == 0 and s.interp.frame is s.interp.base
    s.eval("disp(1)")
    assert out.getvalue() == "     0\n     1\n"


def test_errors_in_functions_carry_the_stack() -> None:
    code = ("try\n  outer(1);\ncatch err\n"
            "  fprintf('%s|%s|%d', err.identifier, err.stack(1).name, numel(err.stack));\nend\n"
            "function outer(x)\n  inner(x);\nend\n"
            "function inner(x)\n  error('my:id', 'bad %d', x);\nend\n")
    text = run(code)
    assert text.startswith("my:id|inner|")
    assert int(text.rsplit("|", 1)[1]) >= 2


def test_a_function_file_edited_between_commands_runs_its_new_body(tmp_path, monkeypatch) \
        -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "version_of.m"
    path.write_text("function r = version_of()\n  r = 1;\nend\n")
    out = io.StringIO()
    s = Session(stdout=out)
    s.eval("fprintf('%d|', version_of());")
    path.write_text("function r = version_of(x)\n  r = 2 + nargin;\nend\n")
    stamp = os.path.getmtime(path) + 5
    os.utime(path, (stamp, stamp))
    os.utime(tmp_path, (stamp, stamp))
    s.eval("fprintf('%d|', version_of(1));")
    assert out.getvalue() == "1|3|"


# ----------------------------------------------------- anonymous handles


def test_anonymous_handles_capture_values_and_take_varargin() -> None:
    code = ("k = 3; f = @(x) x + k; k = 10;\n"
            "g = @(varargin) numel(varargin);\n"
            "h = @(a, varargin) a + numel(varargin);\n"
            "fprintf('%d %d %d %d', f(1), g(), g(1, 2, 3), h(5, 1, 1));")
    assert run(code) == "4 0 3 7"


def test_anonymous_too_many_inputs() -> None:
    err = _error_of("f = @(x) x; f(1, 2);")
    assert err.identifier == "MATLAB:TooManyInputs"


def test_anonymous_body_that_is_a_call_honours_nargout() -> None:
    code = ("f = @(v) max(v); [m, i] = f([3 9 4]); fprintf('%d %d|', m, i);\n"
            "g = @() disp('shown'); g();")
    assert run(code) == "9 2|shown\n"


def test_anonymous_body_of_a_cs_list() -> None:
    assert run("c = {1, 2}; f = @() c{:}; [a, b] = f(); fprintf('%d %d', a, b);") == "1 2"


# -------------------------------------------------------- cellfun / arrayfun


def test_cellfun_named_handles_and_names() -> None:
    code = ("c = {1, [1 2], 'abc'};\n"
            "a = cellfun(@numel, c); b = cellfun('numel', c); d = cellfun(@twice, {1, 2});\n"
            "fprintf('%d ', a, b, d);\n"
            "function r = twice(x)\n  r = 2 * x;\nend\n")
    assert run(code) == "1 2 3 1 2 3 2 4 "


def test_cellfun_of_an_undefined_function() -> None:
    err = _error_of("cellfun(@no_such_function_here, {1});")
    assert err.identifier == "MATLAB:UndefinedFunction"
    # Nothing to call: no lookup, no error.
    assert run("x = cellfun(@no_such_function_here, {}); disp(size(x))") == "     0     0\n"


def test_cellfun_uniform_output_errors() -> None:
    err = _error_of("cellfun(@(x) [x x], {1, 2});")
    assert err.identifier == "MATLAB:cellfun:NotAScalarOutput"
    err = _error_of("arrayfun(@(x) {x}, 1:2);")
    assert err.identifier == "MATLAB:arrayfun:NotAScalarOutput"
    err = _error_of("x = cellfun(@(x) disp(x), {1});")
    assert err.identifier == "MATLAB:TooManyOutputs"


def test_cellfun_error_handler_and_no_outputs() -> None:
    code = ("r = cellfun(@(x) error('t:x', 'no'), {1, 2}, 'ErrorHandler', "
            "@(e, x) e.index * 10); fprintf('%d ', r);\n"
            "cellfun(@(x) fprintf('<%d>', x), {4, 5});")
    assert run(code) == "10 20 <4><5>"


def test_arrayfun_class_results_and_several_outputs() -> None:
    code = ("[m, i] = arrayfun(@(x) max([x 2*x]), [1 2 3]); fprintf('%d ', m, i);\n"
            "b = arrayfun(@(x) x > 1, [1 2 3]); fprintf('%s ', class(b));\n"
            "u = arrayfun(@(x) uint8(x), [1 2]); fprintf('%s', class(u));")
    assert run(code) == "2 4 6 2 2 2 logical uint8"


def test_cellfun_dispatches_to_class_methods(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Box.m").write_text(
        "classdef Box\n  properties\n    v\n  end\n  methods\n"
        "    function b = Box(v)\n      b.v = v;\n    end\n"
        "    function n = numel(b)\n      n = 100 + b.v;\n    end\n"
        "  end\nend\n")
    assert run("r = cellfun(@numel, {Box(1), [1 2 3], Box(2)}); fprintf('%d ', r);") \
        == "101 3 102 "


# ------------------------------------------------------------- workspaces


def _assert_every_slot_set(fr: Frame) -> None:
    for slot in Frame.__slots__:
        getattr(fr, slot)      # AttributeError when a call path forgot one


def test_plan_and_anonymous_workspaces_set_every_frame_slot() -> None:
    s, _, _ = session()
    s.eval("y = 1;\nfunction r = f(x)\n  r = x;\nend\n")
    interp = s.interp
    cf = interp.repl_functions["f"]
    seen: list = []
    run = cf.body.run
    cf.body.run = lambda fr: (seen.append(fr), run(fr))[1]
    assert interp.call_function(cf, [2.0], 1) == [2.0]
    anonymous = anonymous_call(interp, {"k": 1.0}, ["x"], None,
                               lambda fr: seen.append(fr) or fr["x"] + fr["k"], "@(x)x+k", None)
    assert anonymous([2.0], 1) == [3.0]
    plan_frame, anonymous_frame = seen
    for fr in (plan_frame, anonymous_frame, new_frame(interp, "n", None, None, 0, 0, None)):
        _assert_every_slot_set(fr)
    assert plan_frame.function is cf and plan_frame.nargin == 1 and plan_frame.nargout == 1
    assert plan_frame.caller is interp.base and anonymous_frame.function is None
