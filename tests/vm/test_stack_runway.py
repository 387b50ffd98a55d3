"""The stack runway (``vm/stack_runway.py``): calls made on it behave as
direct calls (results, exceptions, recursion), whatever depth they reach."""

from __future__ import annotations

import sys

import pytest
from vmutil import run

from matfuse.vm.stack_runway import run_on_runway


def test_results_and_arguments_pass_through() -> None:
    assert run_on_runway(divmod, 17, 5) == (3, 2)
    assert run_on_runway(lambda: "done") == "done"


def test_exceptions_pass_through() -> None:
    with pytest.raises(ZeroDivisionError):
        run_on_runway(divmod, 1, 0)


def test_deep_python_recursion_on_the_runway() -> None:
    def depth(n: int) -> int:
        return 0 if n == 0 else 1 + depth(n - 1)
    # Deeper than the runway holds (about 1 MiB of frames): the calls
    # continue in ordinary chunks.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(30000)
    try:
        assert run_on_runway(depth, 20000) == 20000
    finally:
        sys.setrecursionlimit(limit)


def test_nested_runways() -> None:
    assert run_on_runway(run_on_runway, run_on_runway, sum, [1, 2, 3]) == 6


def test_matlab_recursion_runs_on_the_runway() -> None:
    code = ("fprintf('%d', fib_of(16));\n"
            "function r = fib_of(n)\n  if n < 2\n    r = n;\n  else\n"
            "    r = fib_of(n - 1) + fib_of(n - 2);\n  end\nend\n")
    assert run(code) == "987"
