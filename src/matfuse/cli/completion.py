"""Name completion for the REPL and the Jupyter kernel: builtins, the
session's variables, function and script files on the search path (the
current folder and ``addpath`` folders), and keywords."""

from __future__ import annotations

import os
import re
from typing import Any

_NAME_BEFORE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def word_before(text: str, cursor: int | None = None) -> tuple[int, str]:
    """(start, prefix) of the identifier ending at ``cursor``."""
    cursor = len(text) if cursor is None else cursor
    match = _NAME_BEFORE.search(text[:cursor])
    if match is None:
        return cursor, ""
    return match.start(), match.group(0)


def _file_names(folders: list[str]) -> set[str]:
    names: set[str] = set()
    for folder in folders:
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        names.update(e[:-2] for e in entries if e.endswith(".m") and e[:-2].isidentifier())
    return names


def variable_names(session: Any) -> list[str]:
    base = session.interp.base
    return sorted(set(base.keys()) | set(getattr(base, "global_names", ())))


def candidates(session: Any, prefix: str) -> list[str]:
    """Sorted names starting with ``prefix``: variables first, then the rest."""
    from matfuse.lang._tokens import KEYWORDS
    from matfuse.runtime.registry import BUILTINS, load_all

    load_all()
    variables = [n for n in variable_names(session) if n.startswith(prefix)]
    folders = [os.getcwd(), *session.interp.functions.path]
    others = set(BUILTINS) | _file_names(folders) | set(KEYWORDS)
    rest = sorted(n for n in others if n.startswith(prefix) and n not in variables)
    return variables + rest


def help_text(session: Any, name: str) -> str:
    """What ``help NAME`` prints in this session; the builtin's declaration
    docstring when ``help`` itself is not available."""
    import io

    from matfuse.errors import MatlabError
    from matfuse.runtime.registry import BUILTINS, load_all

    if not name.isidentifier() and not all(p.isidentifier() for p in name.split(".")):
        return ""
    interp = session.interp
    captured = io.StringIO()
    saved = interp.out
    interp.out = captured
    try:
        session.eval(f"help {name}")
        return captured.getvalue()
    except MatlabError:
        load_all()
        decl = BUILTINS.get(name)
        return f"{name}\n\n    {decl.doc}\n" if decl is not None and decl.doc else ""
    finally:
        interp.out = saved
