"""``exit``/``quit`` (matfuse.runtime.builtins.session_exit)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.builtins.session_exit import SessionExit
from matfuse.vm.session import Session


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "matfuse", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_exit_status_reaches_the_process() -> None:
    done = _cli("-e", "disp(1); exit(3); disp(2)")
    assert done.returncode == 3 and done.stdout == "     1\n"
    assert _cli("-e", "quit").returncode == 0
    assert _cli(stdin="disp(5)\nquit(4, 'force')\ndisp(6)\n").returncode == 4


def test_try_catch_does_not_stop_exit() -> None:
    session = Session()
    with pytest.raises(SessionExit) as info:
        session.eval("try\n exit(7)\ncatch\n disp('caught')\nend")
    assert info.value.code == 7


def test_bad_exit_code() -> None:
    with pytest.raises(MatlabError) as info:
        Session().eval("exit(1.5)")
    assert info.value.identifier == "MATLAB:quit:invalidInput"
