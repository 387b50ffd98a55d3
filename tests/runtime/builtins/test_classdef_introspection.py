"""properties/methods/isprop/ismethod/isobject/superclasses/copy/enumeration/inputname."""

from __future__ import annotations

import io
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from matfuse.vm.session import Session


@contextmanager
def class_session(folder: Path, **files: str) -> Iterator[tuple[Session, io.StringIO]]:
    """A Session run in ``folder`` after writing ``NAME.m`` for each file."""
    for name, text in files.items():
        (folder / f"{name}.m").write_text(text)
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        yield session, out
    finally:
        os.chdir(cwd)

BASE = "classdef Base < handle\n properties\n  P = 1\n end\n methods\n  function m(obj)\n  end\n end\nend\n"
SUB = "classdef Sub < Base\n properties\n  Q = 2\n end\nend\n"


def test_properties_listing_and_superclasses(tmp_path: Path) -> None:
    with class_session(tmp_path, Base=BASE, Sub=SUB) as (session, out):
        session.eval("s = Sub(); properties(s); c = superclasses('Sub'); disp(c');"
                     "disp([isobject(s), isobject(1), isprop(s, 'P'), ismethod(s, 'm')])")
        assert out.getvalue() == ("\nProperties for class Sub:\n\n    Q\n    P\n\n"
                                  "    {'Base'}    {'handle'}\n"
                                  "   1   0   1   1\n")


def test_inputname_without_known_names_is_empty(tmp_path: Path) -> None:
    fn = "function r = f(x)\nr = isempty(inputname(1));\nend\n"
    with class_session(tmp_path, f=fn) as (session, out):
        session.eval("y = 3; disp(f(y))")
        assert out.getvalue() == "   1\n"
