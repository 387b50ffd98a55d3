"""The command window reads ``function`` blocks to their ``end`` (matfuse.cli.repl)."""

from __future__ import annotations

import io

from matfuse.cli.repl import needs_more, run_lines
from matfuse.vm.session import Session


def test_function_block_waits_for_end() -> None:
    assert needs_more("function y = sq(x)\n")
    assert needs_more("function y = sq(x)\n  y = x^2;\n")
    assert not needs_more("function y = sq(x)\n  y = x^2;\nend\n")


def test_function_typed_at_the_prompt_is_defined() -> None:
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    lines = ["function y = sq(x)\n", "  y = x^2;\n", "end\n", "z = sq(4);\n", "disp(z)\n"]
    assert run_lines(session, lines) == 0
    assert out.getvalue() == "    16\n"
