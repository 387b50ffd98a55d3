"""Helpers for VM tests: run code in a fresh Session and capture stdout."""

from __future__ import annotations

import io

from matfuse.vm.session import Session


def run(code: str) -> str:
    """Stdout of ``code`` run in a fresh session."""
    out = io.StringIO()
    Session(stdout=out, stderr=io.StringIO()).eval(code)
    return out.getvalue()


def session() -> tuple[Session, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Session(stdout=out, stderr=err), out, err
