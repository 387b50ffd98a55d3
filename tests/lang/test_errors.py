"""Parse errors: MATLAB-like messages, and spans whose caret points right."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabSyntaxError
from matfuse.lang import parse

UNBALANCED = "Unbalanced or unexpected parenthesis or bracket."
MISMATCHED = "Invalid expression. When calling a function or indexing a variable"
MISSING_END = "At least one END is missing: the statement may begin here."
INCOMPLETE = "This statement is incomplete."


def parse_error(source: str, file: str | None = None) -> MatlabSyntaxError:
    with pytest.raises(MatlabSyntaxError) as info:
        parse(source, file)
    return info.value


@pytest.mark.parametrize("source, message, line, col", [
    ("x = (1 + 2", MISMATCHED, 1, 5),
    ("y = f(1,", INCOMPLETE, 1, 9),
    ("x = 1 + 2)", UNBALANCED, 1, 10),
    ("x = (1 + 2))", UNBALANCED, 1, 12),
    ("    z = a(1]", UNBALANCED, 1, 12),
    ("x = [1 2)", UNBALANCED, 1, 9),
    ("x = [1 2", INCOMPLETE, 1, 5),
    ("c = {1, 2", INCOMPLETE, 1, 5),
    ("x = 1 +", INCOMPLETE, 1, 8),
    ("x = ~", INCOMPLETE, 1, 6),
    ("if x\n  y = 1;", MISSING_END, 1, 1),
    ("x = 1;\nwhile true\n  for i = 1:3\n  end\n", MISSING_END, 2, 1),
    ("function f(x)\n  if x\n    y = 1;\nfunction g\nend", MISSING_END, 2, 3),
    ("switch x\ncase 1\n", MISSING_END, 1, 1),
    ("try\n x\ncatch\n", MISSING_END, 1, 1),
    ("end", 'Illegal use of reserved keyword "end".', 1, 1),
    ("x = 1;\n  else", 'Illegal use of reserved keyword "else".', 2, 3),
    ("switch x\ncase 1\notherwise\ncase 2\nend", 'Illegal use of reserved keyword "case".', 4, 1),
    ("x = 1 2", "Unexpected MATLAB expression.", 1, 7),
    ("x = [1 2](1)(2) 3", "Unexpected MATLAB expression.", 1, 17),
    ("1 = 2", "The expression to the left of the equals sign is not a valid target", 1, 1),
    ("[a, 1] = f()", "The expression to the left of the equals sign is not a valid target", 1, 5),
    ("if x = 1, end", "Incorrect use of '=' operator.", 1, 6),
    ("x = [1,,2]", "Parse error at ',': usage might be invalid MATLAB syntax.", 1, 8),
    ("[a, ~] + 1", "Parse error at '~': usage might be invalid MATLAB syntax.", 1, 5),
    ("x = 1 * * 2", "Parse error at '*': usage might be invalid MATLAB syntax.", 1, 9),
    ("s.end = 1", 'Illegal use of reserved keyword "end".', 1, 3),
    ("y = x(end", MISMATCHED, 1, 6),
    ("y = end", 'Illegal use of reserved keyword "end".', 1, 5),
    ("x = 1;\nfunction f\nend\ny = 2;", "Function definitions in a script must appear at the end", 4, 1),
    ("function f\nend\nx = 1", "This statement is not inside any function.", 3, 1),
    ("function f\n  x = 1;\nend\nfunction g\n  y = 2;", "All functions in a file must be closed", 4, 1),
    ("function f\n  x = 1;\nfunction g\n  y = 2;\nend", "All functions in a file must be closed", 1, 1),
    ("if x\n  function f\n  end\nend", MISSING_END, 1, 1),
    ("classdef A\n  properties\n    x\n", "At least one END is missing", 2, 3),
    ("x = 'abc", "Character vector is not terminated properly.", 1, 5),
    ("x = 1 $ 2", "Invalid text character.", 1, 7),
    ("persistent n = 0", "Incorrect use of '=' operator.", 1, 14),
])
def test_error_messages_and_positions(source, message, line, col):
    err = parse_error(source)
    assert err.message.startswith(message), err.message
    assert (err.span.line, err.span.col) == (line, col)
    assert err.identifier == "MATLAB:parse"


def test_report_shows_file_line_col_and_caret():
    err = parse_error("x = 1;\ny = (2 + 3", "demo.m")
    assert err.report() == (
        "Error: " + err.message + "\n"
        "demo.m:2:5\n"
        "y = (2 + 3\n"
        "    ^")


def test_caret_with_tabs_and_crlf():
    err = parse_error("x = 1;\r\n\ty = 1 +* 2\r\n")
    assert (err.span.line, err.span.col) == (2, 9)
    assert err.report().splitlines()[-2:] == [" y = 1 +* 2", "        ^"]


def test_deep_nesting_is_a_syntax_error():
    err = parse_error("x = " + "(" * 3000 + "1" + ")" * 3000)
    assert "too deeply nested" in err.message
