"""The text of ``help`` and ``doc``, shared by the command window, the
Python API and the Jupyter kernel.

    help_text(None)             topics: builtin categories with their counts
    help_text("sin")            a builtin: docstring and calling syntax
    help_text("elementwise")    a category: its functions, one line each
    help_text("myfun")          a function file: its leading comment block
    help_text("nosuch")         MATLAB's "not found" text

``find_file(name)`` (optional) maps a name to a ``.m`` file path, so the
caller's search path is used; without it the current folder is searched.
``doc_text`` adds the declaration's details (category, argument counts, GPU
support) to the help text.
"""

from __future__ import annotations

import os
import re
from typing import Callable

from matfuse.runtime.registry import BUILTINS, Builtin, load_all

FileFinder = Callable[[str], "str | None"]

NOT_FOUND = ("{name} not found.\n\nUse the Help browser search field to search the documentation, or\n"
             "type \"help help\" for help command options, such as help for methods.\n")


def _declarations() -> list[Builtin]:
    load_all()
    unique = {id(b): b for b in BUILTINS.values()}
    return sorted(unique.values(), key=lambda b: b.name.lower())


def categories() -> dict[str, list[Builtin]]:
    """Builtins grouped by their declared category, sorted by name."""
    out: dict[str, list[Builtin]] = {}
    for decl in _declarations():
        out.setdefault(decl.category, []).append(decl)
    return dict(sorted(out.items()))


def _first_sentence(doc: str) -> str:
    text = " ".join(doc.strip().split("\n\n")[0].split())
    match = re.search(r"\.\s+(?=[A-Z`])", text)
    return text[:match.start() + 1] if match else text


def _arity(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"{lo} or more"
    return str(lo) if lo == hi else f"{lo} to {hi}"


def topics_text() -> str:
    lines = ["HELP topics:", ""]
    groups = categories()
    width = max((len(c) for c in groups), default=0)
    for category, decls in groups.items():
        noun = "function" if len(decls) == 1 else "functions"
        lines.append(f"  {category.ljust(width)}  - {len(decls)} {noun}")
    lines += ["", 'Type "help TOPIC" for the functions of a topic, "help NAME" for one function.', ""]
    return "\n".join(lines)


def category_text(category: str, decls: list[Builtin]) -> str:
    width = max(len(d.name) for d in decls)
    lines = [f"  {category} functions:", ""]
    for decl in decls:
        lines.append(f"    {decl.name.ljust(width)}  - {_first_sentence(decl.doc.replace('``', ''))}")
    return "\n".join(lines) + "\n"


def builtin_text(decl: Builtin, name: str) -> str:
    """`` name  first sentence`` then the rest of the docstring, indented."""
    doc = decl.doc.strip().replace("``", "") or "(no description)"
    body = [ln.rstrip() for ln in doc.splitlines()]
    lines = [f" {name}  {body[0]}"] + [f"    {ln.strip()}" if ln.strip() else "" for ln in body[1:]]
    return "\n".join(lines).rstrip() + "\n"


def comment_block(source: str) -> list[str] | None:
    """The leading comment block of a function or script file, ``%`` removed
    (MATLAB: the first comment block after the function line, or at the top
    of a script); None when there is none."""
    lines = source.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].lstrip().startswith("function"):
        i += 1
        while i < len(lines) and lines[i].rstrip().endswith("..."):
            i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    block: list[str] = []
    while i < len(lines) and lines[i].lstrip().startswith("%"):
        text = lines[i].lstrip()
        if text.startswith("%{") or text.startswith("%}"):
            i += 1
            continue
        block.append(text[1:].rstrip())
        i += 1
    return block or None


def file_text(path: str, name: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            block = comment_block(fh.read())
    except OSError:
        block = None
    if block is None:
        return f"No help found for {name}.m.\n"
    return "\n".join(block) + "\n"


def _default_finder(name: str) -> str | None:
    path = os.path.join(os.getcwd(), name + ".m")
    return path if os.path.isfile(path) else None


def help_text(name: str | None = None, find_file: FileFinder | None = None) -> str:
    """What ``help name`` prints (``help`` alone: the topics)."""
    if name is None or not name.strip():
        return topics_text()
    name = name.strip()
    if name.endswith(".m") and os.path.isfile(name):
        return file_text(name, os.path.splitext(os.path.basename(name))[0])
    path = (find_file or _default_finder)(name) if re.fullmatch(r"[A-Za-z]\w*", name) else None
    if path is not None:
        return file_text(path, name)
    load_all()
    decl = BUILTINS.get(name)
    if decl is not None:
        return builtin_text(decl, name)
    groups = categories()
    if name in groups:
        return category_text(name, groups[name])
    return NOT_FOUND.format(name=name)


def doc_text(name: str | None = None, find_file: FileFinder | None = None) -> str:
    """What ``doc name`` prints: the help text and, for a builtin, its
    declaration (there is no documentation browser)."""
    text = help_text(name, find_file)
    if name is None:
        return text
    load_all()
    decl = BUILTINS.get(name.strip())
    path = (find_file or _default_finder)(name.strip()) if re.fullmatch(r"[A-Za-z]\w*", name.strip()) else None
    if decl is None or path is not None:
        return text
    details = [
        "",
        f"    Category:        {decl.category}",
        f"    Inputs:          {_arity(decl.min_args, decl.max_args)}",
        f"    Outputs:         {_arity(0, decl.max_out)}",
        f"    Runs on GPU:     {'yes (' + decl.gpu.kind + ')' if decl.gpu else 'no (host)'}",
    ]
    if decl.aliases:
        details.append(f"    Also named:      {', '.join(decl.aliases)}")
    return text + "\n".join(details) + "\n"
