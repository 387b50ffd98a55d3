"""Helpers of the parallel tests."""

from __future__ import annotations

import io

from matfuse.vm.session import Session


def run(code: str, session: Session | None = None) -> tuple[str, Session]:
    """Run MATLAB ``code``; returns (stdout text, session)."""
    out = io.StringIO()
    if session is None:
        session = Session(stdout=out, stderr=io.StringIO())
    else:
        session.interp.out = out
    session.eval(code)
    return out.getvalue(), session
