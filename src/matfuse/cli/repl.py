"""The interactive command window.

On a TTY: a prompt_toolkit session with history under the platformdirs user
data folder, Tab completion of variables, builtins and function files, and
MATLAB syntax highlighting (pygments' MATLAB lexer); lines are gathered
while a block (if/for/while/switch/try/function) or a bracket is open.
Figures open in windows when a display is present (and are kept responsive
while the prompt waits), otherwise they are only drawn into files. Ctrl-C at
the prompt clears the input; during a statement it stops it (MatlabInterrupt)
and the session goes on. When stdin is not a TTY, statements are read from it
the same way, without prompts.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Iterable, TextIO

from matfuse.errors import MatlabError, MatlabSyntaxError

PROMPT = ">> "
EXIT_WORDS = ("exit", "quit")


def _bracket_depth(text: str) -> int:
    """Open ([{ minus closers, skipping comments and quoted text (roughly)."""
    depth = 0
    for line in text.splitlines():
        in_quote: str | None = None
        prev = ""
        for ch in line:
            if in_quote:
                if ch == in_quote:
                    in_quote = None
            elif ch == "%":
                break
            elif ch == '"' or (ch == "'" and not (prev.isalnum() or prev in ")]}'._")):
                in_quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            prev = ch
    return depth


def needs_more(text: str) -> bool:
    """True while ``text`` is an unfinished block, bracket or continuation."""
    from matfuse.lang.parser import parse

    stripped = text.rstrip()
    if stripped.endswith("..."):
        return True
    try:
        program = parse(text, None)
    except MatlabSyntaxError as err:
        if "END is missing" in err.message:
            return True
        return "incomplete" in err.message and _bracket_depth(text) > 0
    # A ``function`` block typed at the prompt is read up to its ``end``.
    return program.open_functions


def _history_path() -> str | None:
    from platformdirs import user_data_dir

    folder = user_data_dir("matfuse", appauthor=False)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, "history")


def _execute(session: Any, code: str) -> bool:
    """Run one chunk; report errors MATLAB-style. Returns False on error."""
    from matfuse.cli.report import report_error

    try:
        session.eval(code)
    except MatlabError as err:
        session.interp.last_error = err
        report_error(err)
        return False
    finally:
        sys.stdout.flush()
    return True


def run_lines(session: Any, lines: Iterable[str]) -> int:
    """Statements from a stream: run each complete chunk; 1 if any failed."""
    status = 0
    buffer = ""
    for line in lines:
        buffer += line if line.endswith("\n") else line + "\n"
        if needs_more(buffer):
            continue
        code, buffer = buffer, ""
        if code.strip() in EXIT_WORDS:
            return status
        if code.strip() and not _execute(session, code):
            status = 1
    if buffer.strip() and not _execute(session, buffer):
        status = 1
    return status


class MatlabCompleter:
    """prompt_toolkit completer: the names ``matfuse.cli.completion`` offers."""

    def __init__(self, session: Any):
        self.session = session

    def get_completions(self, document: Any, complete_event: Any) -> Iterable[Any]:
        from prompt_toolkit.completion import Completion

        from matfuse.cli.completion import candidates, word_before

        start, prefix = word_before(document.text_before_cursor)
        if not prefix:
            return
        for name in candidates(self.session, prefix):
            yield Completion(name, start_position=-len(prefix))


def _completer(session: Any) -> Any:
    """A MatlabCompleter that is also a prompt_toolkit Completer (imported lazily)."""
    from prompt_toolkit.completion import Completer

    completer_class = type("MatlabPromptCompleter", (MatlabCompleter, Completer), {})
    return completer_class(session)


def matlab_lexer() -> Any:
    """Syntax highlighting of the input line with pygments' MATLAB lexer."""
    from prompt_toolkit.lexers import PygmentsLexer
    from pygments.lexers.matlab import MatlabLexer

    return PygmentsLexer(MatlabLexer)


def has_display() -> bool:
    """A graphical display is available (X11, Wayland, macOS, Windows)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _window_input_hook(context: Any) -> None:
    """While the prompt waits, open figure windows keep handling events."""
    from matfuse.graphics.root import process_window_events

    while not context.input_is_ready():
        process_window_events(0.05)


def interactive(session: Any, pt_input: Any = None, pt_output: Any = None,
                history_file: str | None = None, windows: bool = False) -> int:
    """The prompt loop (``pt_input``/``pt_output``: prompt_toolkit I/O for tests)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    history = FileHistory(history_file) if history_file else InMemoryHistory()
    prompt = PromptSession(history=history, input=pt_input, output=pt_output,
                           completer=_completer(session), lexer=matlab_lexer(),
                           complete_while_typing=False)
    hook = None
    if windows:
        from matfuse.graphics.root import enable_windows

        enable_windows()
        hook = _window_input_hook
    while True:
        buffer = ""
        try:
            line = prompt.prompt(PROMPT, inputhook=hook)
            buffer = line + "\n"
            while needs_more(buffer):
                buffer += prompt.prompt("", inputhook=hook) + "\n"
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        if buffer.strip() in EXIT_WORDS:
            return 0
        if buffer.strip():
            _execute(session, buffer)


def run_repl(options: Any = None, stdin: TextIO | None = None) -> int:
    from matfuse.vm.session import Session

    stream = stdin if stdin is not None else sys.stdin
    session = Session(options=options)
    if not stream.isatty():
        return run_lines(session, stream)
    return interactive(session, history_file=_history_path(), windows=has_display())
