"""Helpers for classdef tests: a session whose current folder holds class files."""

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
