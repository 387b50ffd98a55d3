"""Expressions: precedence, brackets and whitespace, indexing, handles."""

from __future__ import annotations

import pytest

from matfuse.lang import ast, parse
from matfuse.lang.dump import to_sexpr


def expr(source: str) -> str:
    """S-expression of the single expression statement ``source``."""
    program = parse(source)
    assert len(program.body) == 1, program.body
    return to_sexpr(program.body[0])


@pytest.mark.parametrize("source, expected", [
    ("-2^2", "(u- (^ 2 2))"),
    ("2^-1", "(^ 2 (u- 1))"),
    ("2^-2^2", "(^ (^ 2 (u- 2)) 2)"),
    ("2^3^2", "(^ (^ 2 3) 2)"),
    ("a^b'", "(' (^ a b))"),
    ("a'^2", "(^ (' a) 2)"),
    ("-a'", "(u- (' a))"),
    ("x.^-1", "(.^ x (u- 1))"),
    ("x.^~y", "(.^ x (u~ y))"),
    ("1:3+1", "(: 1 (+ 3 1))"),
    ("1:n'", "(: 1 (' n))"),
    ("1:2:10", "(: 1 2 10)"),
    ("-1:-1:-5", "(: (u- 1) (u- 1) (u- 5))"),
    ("a < 1:3", "(< a (: 1 3))"),
    ("1:3 == x", "(== (: 1 3) x)"),
    ("a|b&c", "(| a (& b c))"),
    ("a&b|c", "(| (& a b) c)"),
    ("a||b&&c", "(|| a (&& b c))"),
    ("a|b||c&d", "(|| (| a b) (& c d))"),
    ("~a == b", "(== (u~ a) b)"),
    ("!a", "(u~ a)"),
    ("a != b", "(~= a b)"),
    ("-a*b", "(* (u- a) b)"),
    ("2 * -3", "(* 2 (u- 3))"),
    ("a + b * c ^ d", "(+ a (* b (^ c d)))"),
    ("a - b - c", "(- (- a b) c)"),
    ("a / b \\ c", "(\\ (/ a b) c)"),
    ("a .* b ./ c .\\ d", "(.\\ (./ (.* a b) c) d)"),
    ("1 < 2 < 3", "(< (< 1 2) 3)"),
    ("a >= b ~= c", "(~= (>= a b) c)"),
    ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
    ("--a", "(u- (u- a))"),
    ("+a", "(u+ a)"),
    ("a.'", "(.' a)"),
    ("a''", "(' (' a))"),
])
def test_precedence(source, expected):
    assert expr(source) == expected


@pytest.mark.parametrize("source, expected", [
    ("[1 -2]", "[1 (u- 2)]"),
    ("[1 - 2]", "[(- 1 2)]"),
    ("[1-2]", "[(- 1 2)]"),
    ("[1- 2]", "[(- 1 2)]"),
    ("[1 -2 + 3]", "[1 (+ (u- 2) 3)]"),
    ("[1 +2]", "[1 (u+ 2)]"),
    ("[a' b']", "[(' a) (' b)]"),
    ("[a' -b']", "[(' a) (u- (' b))]"),
    ("[f (1)]", "[f 1]"),
    ("[f(1)]", "[(() f 1)]"),
    ("[a(1) b]", "[(() a 1) b]"),
    ("[f(1 -2)]", "[(() f (- 1 2))]"),
    ("[a ~b]", "[a (u~ b)]"),
    ("[a ~= b]", "[(~= a b)]"),
    ("[a * b]", "[(* a b)]"),
    ("[a 'str']", "[a 'str']"),
    ("[x.y z]", "[(. x y) z]"),
    ("[c{1} c{2}]", "[({} c 1) ({} c 2)]"),
    ("[1, 2, ]", "[1 2]"),
    ("[1 2; 3 4]", "[1 2; 3 4]"),
    ("[1 2\n3 4]", "[1 2; 3 4]"),
    ("[1, 2,\n 3, 4]", "[1 2; 3 4]"),
    ("[1 2 % note\n 3 4]", "[1 2; 3 4]"),
    ("[1 2 ...\n 3 4]", "[1 2 3 4]"),
    ("[1;2;]", "[1; 2]"),
    ("[\n1\n\n2\n]", "[1; 2]"),
    ("[]", "[]"),
    ("[ ]", "[]"),
    ("{}", "{}"),
    ("[1 2]'", "(' [1 2])"),
    ("{1, 'a'; 2, 'b'}", "{1 'a'; 2 'b'}"),
    ("{'a' 'b' 'c'}", "{'a' 'b' 'c'}"),
    ("[[1 2] [3]]", "[[1 2] [3]]"),
    ("{@(x) x+1, @(x) x + 1}", "{(@(x) (+ x 1)) (@(x) (+ x 1))}"),
    ("[ -1, 2 ]", "[(u- 1) 2]"),
])
def test_matrix_whitespace_rules(source, expected):
    assert expr(source) == expected


@pytest.mark.parametrize("source, expected", [
    ("x(end-1, end)", "(() x (- end 1) end)"),
    ("x(end)'", "(' (() x end))"),
    ("x(:)", "(() x :)"),
    ("a(:)'", "(' (() a :))"),
    ("x(:, 1)", "(() x : 1)"),
    ("x(2:end)", "(() x (: 2 end))"),
    ("x(end:-1:1)", "(() x (: end (u- 1) 1))"),
    ("x([1 end])", "(() x [1 end])"),
    ("c{end}", "({} c end)"),
    ("c{:}", "({} c :)"),
    ("f()", "(() f)"),
    ("s.a.b(2).c", "(. (() (. (. s a) b) 2) c)"),
    ("s.(name)", "(.() s name)"),
    ("s.(['a' 'b'])", "(.() s ['a' 'b'])"),
    ("c{1}{2}(3)", "(() ({} ({} c 1) 2) 3)"),
    ("x(1, :)'", "(' (() x 1 :))"),
    ("f(x)(2)", "(() (() f x) 2)"),
])
def test_indexing(source, expected):
    assert expr(source) == expected


@pytest.mark.parametrize("source, expected", [
    ("@sin", "@sin"),
    ("@pkg.fn", "@pkg.fn"),
    ("@() 42", "(@() 42)"),
    ("@(x) x.^2 + a", "(@(x) (+ (.^ x 2) a))"),
    ("@(x, y) x + y", "(@(x y) (+ x y))"),
    ("@(~) 1", "(@(~) 1)"),
    ("@(x) x(end)", "(@(x) (() x end))"),
    ("cellfun(@(c) c * 2, c)", "(() cellfun (@(c) (* c 2)) c)"),
    ("@(x) @(y) x + y", "(@(x) (@(y) (+ x y)))"),
])
def test_function_handles(source, expected):
    assert expr(source) == expected


def test_node_types_and_values():
    node = parse("x = 0x1F + 3.5i").body[0].value
    assert isinstance(node, ast.Binary)
    assert node.left == ast.Number(node.left.span, 31.0, "uint8")
    assert node.right.value == 3.5j and node.right.int_class is None
    string = parse('"str"').body[0].expr
    assert isinstance(string, ast.String) and string.kind == "string"
    char = parse("'chr'").body[0].expr
    assert char.kind == "char" and char.value == "chr"
    end = parse("x(end)").body[0].expr.args[0]
    assert isinstance(end, ast.End)
    colon = parse("x(:)").body[0].expr.args[0]
    assert isinstance(colon, ast.Colon)


def test_spans_point_at_first_token():
    node = parse("y = a + b*c").body[0].value
    assert (node.span.line, node.span.col) == (1, 5)
    assert (node.right.span.line, node.right.span.col) == (1, 9)
    assert (node.right.right.span.line, node.right.right.span.col) == (1, 11)
