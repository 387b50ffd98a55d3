"""Parsing of function ``arguments`` blocks (matfuse.lang._argument_blocks)."""

from __future__ import annotations

from matfuse.lang import ast
from matfuse.lang.parser import parse

SOURCE = """\
function r = f(x, y, opts)
arguments
    x (1,:) double {mustBePositive}
    y = 2 % comment
end
arguments
    opts.Name (1,1) string = "a"
end
r = x;
end
"""


def test_blocks_entries_and_body() -> None:
    fn = parse(SOURCE).functions[0]
    assert len(fn.arguments) == 2
    x, y = fn.arguments[0].entries
    assert x.name == "x" and x.class_name == "double" and len(x.validators) == 1
    assert y.name == "y" and isinstance(y.default, ast.Number)
    (name,) = fn.arguments[1].entries
    assert name.name == "opts.Name" and name.class_name == "string"
    assert len(fn.body) == 1


def test_a_variable_named_arguments_is_not_a_block() -> None:
    fn = parse("function f()\narguments = 3;\ndisp(arguments)\nend\n").functions[0]
    assert fn.arguments == [] and len(fn.body) == 2
