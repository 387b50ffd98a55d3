"""docs/builtins.md is generated from the builtin declarations and must not go stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from matfuse.cli.docs import one_line_doc

_ROOT = Path(__file__).resolve().parents[2]
_DOC = _ROOT / "docs" / "builtins.md"


def test_committed_builtins_doc_matches_generator():
    # A fresh interpreter: nothing a test registered or patched leaks into the table.
    generated = subprocess.run([sys.executable, "-m", "matfuse.cli.docs"], check=True,
                               capture_output=True, text=True, cwd=_ROOT).stdout
    assert _DOC.read_text(encoding="utf-8") == generated, (
        "docs/builtins.md is stale: regenerate it with "
        "`python -m matfuse.cli.docs > docs/builtins.md`")


def test_every_builtin_has_a_row():
    from matfuse.cli.docs import declarations

    text = _DOC.read_text(encoding="utf-8")
    missing = [b.name for b in declarations() if f"| `{b.name}`" not in text]
    assert missing == []


def test_one_line_doc_keeps_the_first_sentence_and_escapes_cells():
    assert one_line_doc("Sum of x. Second sentence.\n\nMore.") == "Sum of x."
    assert one_line_doc("``a | b`` is ``or(a, b)``.") == "`a \\| b` is `or(a, b)`."
    assert one_line_doc("R'*R = A, x<y") == "R'\\*R = A, x&lt;y"
    long = one_line_doc("word " * 60)
    assert len(long) <= 142 and long.endswith(" …")


def test_cli_rejects_unknown_topics(capsys):
    from matfuse.cli.docs import main

    assert main(["nonsense"]) == 2
    assert "usage" in capsys.readouterr().err
