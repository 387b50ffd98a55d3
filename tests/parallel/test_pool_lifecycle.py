"""Pools leave no worker processes behind: after delete(gcp), and when the
client process exits without deleting its pool."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

pytest.importorskip("distributed")

_SCRIPT = textwrap.dedent("""
    import io, os, sys
    from matfuse.vm.session import Session
    from matfuse.parallel import pool as _pool
    s = Session(stdout=io.StringIO())
    s.eval("p = parpool(2);")
    pids = sorted(_pool.current().client.run(os.getpid).values())
    nannies = sorted(w.process.pid for w in _pool.current().cluster.workers.values())
    print(" ".join(str(p) for p in pids + nannies), flush=True)
    if sys.argv[1] == "delete":
        s.eval("delete(gcp)")
        print("deleted" if _pool.current() is None else "still-open", flush=True)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False


def _wait_gone(pids: list[int], seconds: float = 30.0) -> list[int]:
    deadline = time.monotonic() + seconds
    alive = pids
    while time.monotonic() < deadline:
        alive = [p for p in pids if _alive(p)]
        if not alive:
            return []
        time.sleep(0.2)
    return alive


@pytest.mark.parametrize("how", ["delete", "exit"])
def test_no_worker_processes_left(how):
    res = subprocess.run([sys.executable, "-c", _SCRIPT, how], capture_output=True, text=True,
                         timeout=180, env=dict(os.environ))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.split("\n")
    pids = [int(p) for p in lines[0].split()]
    assert len(pids) == 4
    if how == "delete":
        assert lines[1] == "deleted"
    assert _wait_gone(pids) == []
