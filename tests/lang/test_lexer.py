"""Lexer: literals, comments, continuation, transpose-vs-quote, command syntax."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabSyntaxError
from matfuse.lang._tokens import CMD, EOF, ID, NL, NUM, STR
from matfuse.lang.lexer import Lexer


def kinds(source: str) -> list[str]:
    lexer = Lexer(source)
    out = []
    while True:
        tok = lexer.next_token()
        if tok.kind == EOF:
            return out
        out.append(tok.kind)


def first_value(source: str):
    return Lexer(source).next_token().value


@pytest.mark.parametrize("text, value, int_class", [
    ("42", 42.0, None),
    ("3.25", 3.25, None),
    (".5", 0.5, None),
    ("5.", 5.0, None),
    ("1e-3", 1e-3, None),
    ("1E3", 1000.0, None),
    ("1d3", 1000.0, None),
    ("2.5e+2", 250.0, None),
    ("1i", 1j, None),
    ("2j", 2j, None),
    ("3.5i", 3.5j, None),
    ("1e2I", 100j, None),
    ("0x1F", 31.0, "uint8"),
    ("0xff", 255.0, "uint8"),
    ("0x100", 256.0, "uint16"),
    ("0x1FFFF", 131071.0, "uint32"),
    ("0b101", 5.0, "uint8"),
    ("0xFFs8", -1.0, "int8"),
    ("0x7Fs8", 127.0, "int8"),
    ("0x10u16", 16.0, "uint16"),
    ("0b1u64", 1.0, "uint64"),
])
def test_numbers(text, value, int_class):
    assert first_value(text) == (value, int_class)


def test_number_too_large_for_suffix():
    with pytest.raises(MatlabSyntaxError):
        Lexer("0x1FFs8").next_token()


def test_elementwise_operator_after_integer_literal():
    assert kinds("1./x") == [NUM, "./", ID]
    assert kinds("1.^2") == [NUM, ".^", NUM]
    assert kinds("1.'") == [NUM, ".'"]
    assert kinds("1...\n+2") == [NUM, "+", NUM]


@pytest.mark.parametrize("source, value", [
    ("'abc'", ("abc", "char")),
    ("'it''s'", ("it's", "char")),
    ("''", ("", "char")),
    ('"say ""hi"""', ('say "hi"', "string")),
    ('"it\'s"', ("it's", "string")),
    ("'100%'", ("100%", "char")),
    ("'a...b'", ("a...b", "char")),
    ("'h\u00e9llo'", ("h\u00e9llo", "char")),
])
def test_string_literals(source, value):
    assert first_value(source) == value


@pytest.mark.parametrize("source, expected", [
    ("a'", [ID, "'"]),
    ("a''", [ID, "'", "'"]),
    ("a.'", [ID, ".'"]),
    ("a.''", [ID, ".'", "'"]),
    ("x(1)'", [ID, "(", NUM, ")", "'"]),
    ("[1 2]'", ["[", NUM, NUM, "]", "'"]),
    ("{1}'", ["{", NUM, "}", "'"]),
    ("2'", [NUM, "'"]),
    ("x(end')", [ID, "(", "end", "'", ")"]),
    ("x(end)'", [ID, "(", "end", ")", "'"]),
    ("y = a '", [ID, "=", ID, "'"]),          # outside brackets: transpose
    ("[a 'b']", ["[", ID, STR, "]"]),         # inside brackets: new string
    ("[a' 'b']", ["[", ID, "'", STR, "]"]),
    ("[f(a ')]", ["[", ID, "(", ID, "'", ")", "]"]),
    ("c{a '}", [ID, "{", ID, "'", "}"]),                  # brace index
    ("{a 'b'}", ["{", ID, STR, "}"]),                   # cell literal
    ("x = 'a'", [ID, "=", STR]),
    ("f('a', 'b')", [ID, "(", STR, ",", STR, ")"]),
    ('"s"\'', [STR, "'"]),
    ("f = @(x) 'ab'", [ID, "=", "@", "(", ID, ")", STR]),   # an anonymous body's text
    ("f = @()'ab'", [ID, "=", "@", "(", ")", STR]),
    ("f = @(x) (x)'", [ID, "=", "@", "(", ID, ")", "(", ID, ")", "'"]),
])
def test_transpose_versus_quote(source, expected):
    assert kinds(source) == expected


def test_comments_and_continuation():
    assert kinds("x % comment 'quote\ny") == [ID, NL, ID]
    assert kinds("x ... anything ' here\n+ y") == [ID, "+", ID]
    assert kinds("%% cell title\nx") == [NL, ID]


def test_block_comment_skips_lines_and_nests():
    source = "a\n%{\nb = [\n  %{\n  c\n  %}\nd\n%}\ne"
    assert kinds(source) == [ID, NL, NL, ID]


def test_block_comment_marker_with_text_is_line_comment():
    assert kinds("%{ not a block\nx") == [NL, ID]


def test_positions_and_space_before():
    lexer = Lexer("x = [1  -2]\n  y")
    toks = [lexer.next_token() for _ in range(9)]
    assert [(t.line, t.col) for t in toks] == [
        (1, 1), (1, 3), (1, 5), (1, 6), (1, 9), (1, 10), (1, 11), (1, 12), (2, 3)]
    assert [t.space_before for t in toks[:7]] == [
        False, True, True, False, True, False, False]


def test_bang_is_not():
    lexer = Lexer("!a != b")
    assert [(t.kind, t.text) for t in (lexer.next_token() for _ in range(4))] == [
        ("~", "!"), (ID, "a"), ("~=", "!="), (ID, "b")]


def test_octave_block_ends_become_end():
    lexer = Lexer("endif endwhile end_try_catch")
    assert [lexer.next_token().kind for _ in range(3)] == ["end"] * 3


@pytest.mark.parametrize("source, args", [
    ("format long", ["long"]),
    ("format long g", ["long", "g"]),
    ("hold on", ["on"]),
    ("disp hello world", ["hello", "world"]),
    ("disp 'hello world'", ["hello world"]),
    ("disp 'it''s' x", ["it's", "x"]),
    ('disp "a b"', ["a b"]),
    ("ls ./d", ["./d"]),
    ("x -1", ["-1"]),
    ("cd ..", [".."]),
    ("warning off all % why", ["off", "all"]),
    ("a ==b", ["==b"]),
])
def test_command_syntax(source, args):
    tok = Lexer(source).next_token()
    assert tok.kind == CMD
    assert tok.value == (source.split()[0], args)


@pytest.mark.parametrize("source", [
    "x = 1", "x =1", "x == 1", "x - 1", "ls ./ d", "ls./d", "disp(x)",
    "disp (x)", "x", "x;", "x % comment", "c {1} = 2", "x ...\n = 1",
])
def test_not_command_syntax(source):
    assert Lexer(source).next_token().kind == ID


def test_known_variable_is_never_a_command():
    assert Lexer("x -1", is_variable=lambda n: n == "x").next_token().kind == ID


def test_command_stops_at_separators():
    lexer = Lexer("hold on; disp hi, x")
    toks = [lexer.next_token() for _ in range(5)]
    assert [t.kind for t in toks] == [CMD, ";", CMD, ",", ID]
    assert toks[2].value == ("disp", ["hi"])


def test_command_only_at_statement_start():
    assert kinds("if x disp") == ["if", ID, ID]
    assert kinds("[a b]") == ["[", ID, ID, "]"]


@pytest.mark.parametrize("source, message, col", [
    ("x = 'abc", "Character vector is not terminated properly.", 5),
    ('x = "abc', "String is not terminated properly.", 5),
    ("x = 1 $ 2", "Invalid text character.", 7),
    ("y = _a", "Invalid text character.", 5),
    ("disp 'abc", "Character vector is not terminated properly.", 6),
])
def test_lexical_errors(source, message, col):
    lexer = Lexer(source)
    with pytest.raises(MatlabSyntaxError) as info:
        while lexer.next_token().kind != EOF:
            pass
    assert info.value.message.startswith(message)
    assert info.value.span.col == col


def test_crlf_and_bom_are_normalised():
    from matfuse.lang.lexer import normalize_newlines

    assert normalize_newlines("\ufeffa\r\nb\rc") == "a\nb\nc"
