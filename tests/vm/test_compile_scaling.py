"""Compiling is linear in block nesting: doubling the depth of nested
``for``/``if``/``while`` blocks must not much more than double the time."""

from __future__ import annotations

import time

from matfuse.lang.parser import parse
from matfuse.vm.program import compile_program
from matfuse.vm.interpreter import Interpreter
from vmutil import run


def _nested_source(depth: int) -> str:
    opening = []
    for level in range(depth):
        kind = level % 3
        if kind == 0:
            opening.append("for k = 1:1\n")
        elif kind == 1:
            opening.append("if x > 0\n")
        else:
            opening.append("while x < 0\n")
    return "x = 1;\n" + "".join(opening) + "x = x + k;\n" + "end\n" * depth


def _distinct_variables_source(depth: int) -> str:
    """Nested loops, each with its own variable: every level writes all the
    variables of the levels below it."""
    opening = "".join(f"for i{n} = 1:2\n" for n in range(depth))
    return opening + "x = i0 + 1;\n" + "end\n" * depth


def _compile_seconds(depth: int, source=_nested_source) -> float:
    Interpreter()  # raises Python's recursion limit as a session does
    program = parse(source(depth))
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        compile_program(program, None)
        best = min(best, time.perf_counter() - start)
    return best


def test_compile_time_is_linear_in_nesting_depth() -> None:
    small = _compile_seconds(600)
    large = _compile_seconds(1200)
    assert large < 3.0 * small + 0.02, (small, large)


def test_compile_time_is_linear_with_distinct_loop_variables() -> None:
    small = _compile_seconds(1000, _distinct_variables_source)
    large = _compile_seconds(2000, _distinct_variables_source)
    assert large < 2.5 * small + 0.02, (small, large)


def test_nested_loop_facts_see_inner_writes() -> None:
    from matfuse.vm.program import compile_program as compile_

    scope = compile_(parse(_distinct_variables_source(4) + "disp(x)\n"))
    outer = scope.script.infos[0]
    assert outer.writes >= {"i0", "i1", "i2", "i3", "x"}
    assert "disp" not in outer.writes and "y" not in outer.writes
    assert set(outer.writes) == {"i0", "i1", "i2", "i3", "x"}
    inner = outer.children[0].infos[0]
    assert "i0" not in inner.writes and set(inner.writes) == {"i1", "i2", "i3", "x"}


def test_deeply_nested_program_runs() -> None:
    depth = 1500
    source = "".join(f"for i{n} = 1:1\n" for n in range(depth)) + "x = 7;\n" + "end\n" * depth
    assert run(source + "disp(x)") == "     7\n"
