"""help/doc text: builtins, categories, function files' comment blocks, unknown names."""

from __future__ import annotations

import io

from matfuse.runtime.help_text import comment_block, doc_text, help_text
from matfuse.vm.session import Session


def test_builtin_help_comes_from_the_declaration() -> None:
    from matfuse.runtime.registry import lookup

    text = help_text("max")
    assert text.startswith(" max  Largest elements")
    assert "``" not in text
    assert lookup("max").doc.split()[0] in text


def test_topics_and_category() -> None:
    topics = help_text()
    assert topics.startswith("HELP topics:") and "  files" in topics
    files = help_text("files")
    assert "readmatrix" in files and "jsonencode" in files


def test_unknown_name() -> None:
    assert help_text("nosuchthing").startswith("nosuchthing not found.\n")


def test_function_file_comment_block(tmp_path) -> None:
    f = tmp_path / "addme.m"
    f.write_text("function c = addme(a, b)\n% ADDME  Add two values.\n%   C = ADDME(A, B).\n\n"
                 "% not help\nc = a + b;\nend\n")
    assert help_text("addme", lambda n: str(f) if n == "addme" else None) == \
        " ADDME  Add two values.\n   C = ADDME(A, B).\n"
    assert comment_block("% script help\nx = 1;\n") == [" script help"]
    assert comment_block("x = 1;\n") is None
    g = tmp_path / "nohelp.m"
    g.write_text("function nohelp\nend\n")
    assert help_text(str(g)) == "No help found for nohelp.m.\n"


def test_help_and_doc_in_programs(tmp_path, monkeypatch) -> None:
    (tmp_path / "myfun.m").write_text("function myfun\n% MYFUN  Does things.\nend\n")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    s = Session(stdout=out)
    s.eval("help myfun\nhelp sin\nt = help('cumsum');\ndoc max")
    text = out.getvalue()
    assert text.startswith(" MYFUN  Does things.\n sin  ")
    assert "Category:" in text and "Runs on GPU:" in text
    assert s.get("t").startswith(" cumsum")
    assert "Category:        elementwise" in doc_text("max")
