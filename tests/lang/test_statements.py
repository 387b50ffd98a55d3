"""Statements, control flow, command syntax, functions and program shapes."""

from __future__ import annotations

import pytest

from matfuse.lang import ast, parse
from matfuse.lang.dump import to_sexpr


def sx(source: str) -> str:
    return to_sexpr(parse(source))


@pytest.mark.parametrize("source, expected", [
    ("x = 1", "(= x 1)"),
    ("x = 1;", "(= x 1);"),
    ("x = 1, y = 2; z", "(= x 1) (= y 2); z"),
    ("x = 1;;", "(= x 1);"),
    ("x = 3 % comment", "(= x 3)"),
    ("a(2, :) = []", "(= (() a 2 :) [])"),
    ("s.a.b(2).c = 3", "(= (. (() (. (. s a) b) 2) c) 3)"),
    ("s.(f) = 1", "(= (.() s f) 1)"),
    ("c{end+1} = 5;", "(= ({} c (+ end 1)) 5);"),
    ("x(end+1).name = 'a'", "(= (. (() x (+ end 1)) name) 'a')"),
    ("[a, b] = deal(1, 2)", "(= [a b] (() deal 1 2))"),
    ("[a b] = size(x);", "(= [a b] (() size x));"),
    ("[a, ~, c] = f(x)", "(= [a ~ c] (() f x))"),
    ("[~] = f()", "(= [~] (() f))"),
    ("[s.a, c{2}] = deal(1, 2)", "(= [(. s a) ({} c 2)] (() deal 1 2))"),
    ("[1 2] * 3", "(* [1 2] 3)"),
    ("f = @(x) x.^2;", "(= f (@(x) (.^ x 2)));"),
])
def test_assignments_and_expression_statements(source, expected):
    assert sx(source) == expected


def test_display_flags_and_multi():
    body = parse("a = 1;\n[b, c] = f()\nd").body
    assert [type(s).__name__ for s in body] == ["Assign", "Assign", "ExprStmt"]
    assert [s.display for s in body] == [False, True, True]
    assert body[1].multi and not body[0].multi


@pytest.mark.parametrize("source, expected", [
    ("if x, y = 1, elseif z, y = 2, else y = 3, end",
     "(if x (= y 1)) (elseif z (= y 2)) (else (= y 3))"),
    ("if x\n  y = 1;\nend", "(if x (= y 1);)"),
    ("if x\nelse\nend", "(if x) (else)"),
    ("if a\n  if b\n  end\nelse if c, d, end\nend",
     "(if a (if b)) (else (if c d))"),
    ("for i = 1:3\n  disp(i);\nend", "(for i (: 1 3) (() disp i);)"),
    ("for (i = 1:3) disp(i); end", "(for i (: 1 3) (() disp i);)"),
    ("for i=1:10, x(i)=i; end", "(for i (: 1 10) (= (() x i) i);)"),
    ("for k = [1 2 3]\nend", "(for k [1 2 3])"),
    ("parfor i = 1:n\n  a(i) = i;\nend", "(parfor i (: 1 n) (= (() a i) i);)"),
    ("parfor (i = 1:n, 4)\nend", "(parfor i (: 1 n))"),
    ("while k < 10\n  k = k + 1;\n  if k == 5, break; end\n  continue\nend",
     "(while (< k 10) (= k (+ k 1)); (if (== k 5) (break)) (continue))"),
    ("switch v\n  case {1, 2}\n    disp('a')\n  case 'x'\n  otherwise\n    disp('b')\nend",
     "(switch v (case {1 2} (() disp 'a')) (case 'x') (otherwise (() disp 'b')))"),
    ("switch v, case 1, a, end", "(switch v (case 1 a))"),
    ("try\n  x = 1;\ncatch err\n  disp(err.message)\nend",
     "(try (= x 1); (catch err (() disp (. err message))))"),
    ("try, x = 1; catch, x = 2; end", "(try (= x 1); (catch _ (= x 2);))"),
    ("try\n a\ncatch\n b\nend", "(try a (catch _ b))"),
    ("try\n a\nend", "(try a (catch _))"),
    ("global a b c", "(global a b c)"),
    ("persistent n", "(persistent n)"),
    ("return", "(return)"),
    ("if x, y, endif", "(if x y)"),
])
def test_control_flow(source, expected):
    assert sx(source) == expected


@pytest.mark.parametrize("source, expected", [
    ("format long", "(cmd format 'long')"),
    ("hold on;", "(cmd hold 'on');"),
    ("disp hello world", "(cmd disp 'hello' 'world')"),
    ("clear all", "(cmd clear 'all')"),
    ("close all", "(cmd close 'all')"),
    ("hold on, plot(x)", "(cmd hold 'on') (() plot x)"),
    ("if true, disp hi, end", "(if true (cmd disp 'hi'))"),
    ("b -1", "(cmd b '-1')"),
    ("x = 3; x -1", "(= x 3); (- x 1)"),
    ("x - 1", "(- x 1)"),
    ("x -1", "(cmd x '-1')"),
    ("for x = 1:3\nx -1\nend", "(for x (: 1 3) (- x 1))"),
    ("[x, y] = f();\ny -1", "(= [x y] (() f)); (- y 1)"),
    ("global g\ng -1", "(global g) (- g 1)"),
    ("try\ncatch e\ne -1\nend", "(try (catch e (- e 1)))"),
])
def test_command_syntax_statements(source, expected):
    assert sx(source) == expected


def test_known_workspace_variables_disable_command_syntax():
    assert to_sexpr(parse("x -1", variables={"x"})) == "(- x 1)"


def test_function_parameters_are_variables():
    src = "function f(x)\nx -1\ny -1\nend"
    assert sx(src) == "(function [] f(x) (- x 1) (cmd y '-1'))"


def test_function_file_without_end():
    src = ("% help text\nfunction [a, b] = f(x, varargin)\na = x;\nb = g(x);\n"
           "function y = g(x)\ny = 2*x;\n")
    program = parse(src, "f.m")
    assert not program.is_script and program.body == []
    assert [f.name for f in program.functions] == ["f", "g"]
    f = program.functions[0]
    assert (f.params, f.outputs, f.nested) == (["x", "varargin"], ["a", "b"], [])
    assert program.functions[1].outputs == ["y"]
    assert (f.span.line, f.span.col, f.span.file) == (2, 1, "f.m")


def test_function_file_with_end_and_nested_function():
    src = ("function r = outer(x)\n  r = inner(x);\n  function z = inner(y)\n"
           "    z = y + x;\n  end\n  r = r + 1;\nend\nfunction h\nend\n")
    program = parse(src)
    assert [f.name for f in program.functions] == ["outer", "h"]
    outer = program.functions[0]
    assert [f.name for f in outer.nested] == ["inner"]
    assert len(outer.body) == 2
    assert sx(src) == ("(function [r] outer(x) (= r (() inner x)); (= r (+ r 1)); "
                       "(function [z] inner(y) (= z (+ y x));)) (function [] h())")


@pytest.mark.parametrize("header, outputs, name, params", [
    ("function f", [], "f", []),
    ("function f()", [], "f", []),
    ("function a = f()", ["a"], "f", []),
    ("function [a b] = f(x)", ["a", "b"], "f", ["x"]),
    ("function [] = f(x)", [], "f", ["x"]),
    ("function varargout = f(varargin)", ["varargout"], "f", ["varargin"]),
    ("function f(~, y)", [], "f", ["~", "y"]),
    ("function set.Value(obj, v)", [], "set.Value", ["obj", "v"]),
])
def test_function_headers(header, outputs, name, params):
    func = parse(header + "\nend").functions[0]
    assert (func.outputs, func.name, func.params) == (outputs, name, params)


def test_script_with_local_functions():
    src = "x = 1;\ny = f(x);\nfunction r = f(x)\n  r = x + 1;\nend\nfunction s = h(~, b)\n  s = b;\nend\n"
    program = parse(src)
    assert program.is_script
    assert len(program.body) == 2
    assert [f.name for f in program.functions] == ["f", "h"]


def test_script_kinds():
    assert parse("").is_script
    assert parse("% only a comment\n").is_script
    assert parse("x = 1").is_script
    assert not parse("\n% c\nfunction f\n").is_script
    assert parse("%{\nblock\n%}\ndisp(1)").body[0].expr.base.name == "disp"


def test_octave_end_keywords_are_accepted():
    src = "function f\n  while 1\n  endwhile\nendfunction\n"
    assert sx(src) == "(function [] f() (while 1))"


def test_statement_spans():
    body = parse("x = 1;\n  if x\n    y = 2;\n  end").body
    assert (body[1].span.line, body[1].span.col) == (2, 3)
    inner = body[1].clauses[0][1][0]
    assert isinstance(inner, ast.Assign)
    assert (inner.span.line, inner.span.col) == (3, 5)
    assert inner.span.source_line() == "    y = 2;"
