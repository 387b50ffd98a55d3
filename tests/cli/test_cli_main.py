"""The ``matfuse`` command: files, -e, --version, errors, stdin REPL."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from matfuse.cli.main import main
from matfuse.cli.repl import needs_more, run_lines


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "matfuse", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_run_file_and_uncaught_error(tmp_path: Path) -> None:
    script = tmp_path / "prog.m"
    script.write_text("disp('hi')\nx = [1 2];\ny = x(3);\ndisp('no')\n")
    done = _cli(str(script))
    assert done.returncode == 1
    assert done.stdout == "hi\n"
    assert "Index exceeds" in done.stderr
    assert "Error in " in done.stderr and "(line 3)" in done.stderr
    assert "Traceback" not in done.stderr


def test_syntax_error_runs_nothing(tmp_path: Path) -> None:
    script = tmp_path / "bad.m"
    script.write_text("disp('first')\nx = (1 + ;\n")
    done = _cli("run", str(script))
    assert done.returncode != 0
    assert done.stdout == ""
    assert "bad.m:2:" in done.stderr and "^" in done.stderr


def test_eval_option_and_version(capsys) -> None:
    assert main(["-e", "fprintf('%d\\n', 6 * 7)"]) == 0
    assert capsys.readouterr().out == "42\n"
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("matfuse ")


def test_options_pass_through(capsys) -> None:
    assert main(["--provider", "inprocess", "--stats", "-e", "x = 1;"]) == 0


def test_stdin_statements_continue_after_error() -> None:
    done = _cli(stdin="a = 1;\nif a\n  disp('block')\nend\nb = nope;\ndisp(a + 1)\n")
    assert done.stdout == "block\n     2\n"
    assert "Unrecognized function or variable 'nope'." in done.stderr
    assert done.returncode == 1


def test_needs_more_detects_open_blocks() -> None:
    assert needs_more("if x\n")
    assert needs_more("for i = 1:3\n  disp(i)\n")
    assert needs_more("x = [1 2\n")
    assert needs_more("y = 1 + ...\n")
    assert not needs_more("x = 1;\n")
    assert not needs_more("if x, disp(1), end\n")


def test_run_lines_in_process() -> None:
    from matfuse.vm.session import Session

    out = io.StringIO()
    s = Session(stdout=out, stderr=io.StringIO())
    status = run_lines(s, ["x = 2;\n", "while x > 0\n", "x = x - 1;\n", "end\n", "disp(x)\n"])
    assert status == 0 and out.getvalue() == "     0\n"


def test_interactive_prompt_loop(tmp_path: Path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from matfuse.cli.repl import interactive
    from matfuse.vm.session import Session

    out, err = io.StringIO(), io.StringIO()
    session = Session(stdout=out, stderr=err)
    history = tmp_path / "history"
    with create_pipe_input() as pipe:
        pipe.send_text("x = 3;\rfor k = 1:2\rx = x + k;\rend\rbad_name\rdisp(x)\rexit\r")
        status = interactive(session, pt_input=pipe, pt_output=DummyOutput(),
                             history_file=str(history))
    assert status == 0
    assert session.get("x") == 6.0
    assert history.exists()


def test_example_hello_runs() -> None:
    from matfuse.vm.session import Session

    root = Path(__file__).resolve().parents[2]
    out = io.StringIO()
    Session(stdout=out, stderr=io.StringIO()).run_file(str(root / "examples" / "hello.m"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "Hello from matfuse!"
    assert "sum of even squares up to 10: 220" in lines
