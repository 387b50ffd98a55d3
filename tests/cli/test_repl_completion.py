"""REPL completion (variables, builtins, function files) and highlighting."""

from __future__ import annotations

import io
import threading
import time

from matfuse.cli.completion import candidates, word_before
from matfuse.vm.session import Session


def test_word_before_cursor():
    assert word_before("x = lins", 8) == (4, "lins")
    assert word_before("a(1) + ", 7) == (7, "")


def test_candidates_variables_builtins_and_files(tmp_path, monkeypatch):
    (tmp_path / "myHelperFn.m").write_text("function y = myHelperFn(x)\ny = x;\nend\n")
    monkeypatch.chdir(tmp_path)
    session = Session(stdout=io.StringIO())
    session.eval("myValue = 1; mySecond = 2;")
    found = candidates(session, "my")
    assert found[:2] == ["myValue", "mySecond"] or found[:2] == ["mySecond", "myValue"]
    assert "myHelperFn" in found
    assert "linspace" in candidates(session, "linsp")
    assert "function" in candidates(session, "funct")


def test_prompt_tab_completes_and_runs(tmp_path):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from matfuse.cli.repl import interactive

    out = io.StringIO()
    session = Session(stdout=out)
    with create_pipe_input() as pipe:
        def typist() -> None:       # completion is asynchronous: type like a person
            for part in ("longVariableName = 41;\r", "disp(longVar\t", " + 1)\r", "exit\r"):
                pipe.send_text(part)
                time.sleep(0.5)

        feeder = threading.Thread(target=typist)
        feeder.start()
        status = interactive(session, pt_input=pipe, pt_output=DummyOutput())
        feeder.join()
    assert status == 0
    assert out.getvalue() == "    42\n"


def test_highlighting_uses_matlab_lexer():
    from prompt_toolkit.document import Document

    from matfuse.cli.repl import matlab_lexer

    lexer = matlab_lexer()
    line = lexer.lex_document(Document("for k = 1:3 % loop"))(0)
    styles = {text.strip(): style for style, text in line if text.strip()}
    assert "keyword" in styles["for"]
    assert "comment" in styles["% loop"]


def test_has_display_follows_environment(monkeypatch):
    import sys

    from matfuse.cli.repl import has_display

    if sys.platform.startswith("linux"):
        monkeypatch.delenv("DISPLAY", raising=False)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        assert has_display() is False
        monkeypatch.setenv("DISPLAY", ":0")
        assert has_display() is True
