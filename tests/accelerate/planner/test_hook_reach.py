"""The offload hooks see only the calls they can act on: device operands,
host arrays at least the smallest threshold, the watched builtins (and
every host array while explaining); host work on scalars and small arrays
skips them."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import numpy as np
import pytest

from matfuse.accelerate.planner import offload
from matfuse.runtime import ops
from matfuse.runtime.dispatcher import AUTO_OFFLOAD
from matfuse.vm.session import Session


@pytest.fixture
def pending(monkeypatch):
    """Pending mode with recording hooks and a smallest threshold of 100."""
    seen: list[str] = []
    offload.reset()
    offload.STATE.min_array = 100
    offload._set_mode(offload.PENDING, "test")
    monkeypatch.setattr(AUTO_OFFLOAD, "binary", lambda op, a, b: seen.append(op) or NotImplemented)
    monkeypatch.setattr(AUTO_OFFLOAD, "call", lambda b, args, nargout, ctx: seen.append(b.name))
    yield seen
    offload.reset()


def test_small_operands_skip_the_binary_hook(pending):
    small = np.ones((1, 10))
    assert ops.binary("+", small, 1.0).shape == (1, 10)
    assert ops.binary("*", 2.0, small).sum() == 20.0
    assert ops.binary("==", True, 1.0) is True
    assert pending == []


def test_large_operands_reach_the_binary_hook(pending):
    large = np.ones((1, 100))
    assert ops.binary("+", large, 1.0).shape == (1, 100)
    assert ops.binary(".*", np.ones((1, 5)), large[:, :5]).shape == (1, 5)
    assert pending == ["+"]


def test_builtin_calls_reach_the_hook_by_name_or_size(pending):
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    session.eval("v = ones(1, 5); a = sum(v); b = zeros(1, 3); w = ones(1, 200); c = sum(w);")
    assert "ones" in pending and "zeros" in pending
    assert pending.count("sum") == 1          # only the 200-element sum
    assert session.get("c") == 200.0


def test_multi_output_calls_reach_the_hook_by_size(pending):
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    session.eval("v = [3 1 2]; [s, i] = sort(v); w = 1:150; [m, j] = max(w);")
    assert pending.count("sort") == 0 and pending.count("max") == 1
    assert session.get("j") == 150.0


def test_explain_sends_every_host_array_to_the_hooks(pending):
    offload.enable_explain(True)
    try:
        assert AUTO_OFFLOAD.min_array == 0
        ops.binary("+", np.ones((1, 2)), 1.0)
        assert pending == ["+"]
    finally:
        offload.enable_explain(False)
    assert AUTO_OFFLOAD.min_array == 100


def test_reset_restores_the_bootstrap_reach():
    offload.reset()
    assert AUTO_OFFLOAD.min_array == 0 and "anything" in AUTO_OFFLOAD.watched
    offload.deactivate()
    assert AUTO_OFFLOAD.call is None and AUTO_OFFLOAD.min_array > 1 << 40
    offload.reset()


def test_installing_the_hooks_leaves_the_router_unloaded():
    """Host scripts on small arrays install the planner's hooks (pending or
    off) without loading the device router and its fusion engine."""
    code = ("import sys, io\n"
            "from matfuse.vm.session import Session\n"
            "from matfuse.accelerate.planner import offload\n"
            "s = Session(stdout=io.StringIO(), stderr=io.StringIO())\n"
            "s.eval('x = [1 2 3] + 1; y = sum(x); z = sort(x);')\n"
            "print(offload.STATE.mode, 'matfuse.accelerate.router.entry' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "MATFUSE_AUTO_OFFLOAD": "1"})
    assert done.returncode == 0, done.stderr
    mode, loaded = done.stdout.split()
    assert mode in ("pending", "off") and loaded == "False"
