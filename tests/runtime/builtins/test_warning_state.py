"""Warning state structures: ``w = warning('off', ...)`` and ``warning(w)``."""

from __future__ import annotations

import io

from matfuse.vm.session import Session


def _session() -> tuple[Session, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Session(stdout=out, stderr=err), out, err


def test_off_all_returns_previous_state_and_restores() -> None:
    session, out, err = _session()
    session.eval("w = warning('off', 'all'); warning('hidden'); warning(w); warning('shown'); "
                 "disp(size(w, 2)); disp(w(1).identifier); disp(w(1).state)")
    assert err.getvalue() == "Warning: shown\n"
    assert out.getvalue() == "     1\nall\non\n"


def test_single_identifier_state() -> None:
    session, out, err = _session()
    session.eval("w = warning('off', 'a:b'); warning('a:b', 'x'); q = warning('query', 'a:b'); "
                 "disp(q.state); warning(w); warning('a:b', 'y');")
    assert out.getvalue() == "off\n"
    assert err.getvalue() == "Warning: y\n"
