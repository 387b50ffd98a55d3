"""gpuArray values in the VM: for-loops, concatenation, indexed assignment,
and the auto-offload hook seeing construction builtins."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.accelerate.router import route
from matfuse.accelerate.router.entry import AcceleratedRouter
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import override_provider
from matfuse.runtime import dispatcher
from matfuse.runtime.values import DeviceValue
from matfuse.vm.session import Session


@pytest.fixture
def session():
    with override_provider(InProcessProvider()):
        yield Session(stdout=io.StringIO(), stderr=io.StringIO())


def test_for_iterates_over_gpuarray_columns(session):
    session.eval("g = gpuArray([5 6; 7 8]); n = 0; c = {};"
                 "for k = g, n = n + 1; c{n} = k; end")
    assert session.get("n") == 2.0
    cols = session.interp.base["c"].data.reshape(-1)
    assert all(isinstance(col, DeviceValue) for col in cols)
    np.testing.assert_array_equal(cols[0].gather(), [[5.0], [7.0]])
    np.testing.assert_array_equal(cols[1].gather(), [[6.0], [8.0]])


def test_for_over_gpuarray_row_and_empty(session):
    session.eval("s = 0; for k = gpuArray([1 2 3]), s = s + k; end")
    assert float(np.asarray(session.get("s")).reshape(-1)[0]) == 6.0
    session.eval("m = 0; for k = gpuArray(zeros(0, 3)), m = m + 1; end")
    assert session.get("m") == 0.0


def test_concat_with_gpuarray_part_stays_on_device(session):
    session.eval("g = gpuArray([1 2]); a = [g, 4]; b = [g; 3 4]; t = class(a);")
    a = session.interp.base["a"]
    assert isinstance(a, DeviceValue)
    np.testing.assert_array_equal(a.gather(), [[1.0, 2.0, 4.0]])
    np.testing.assert_array_equal(session.interp.base["b"].gather(), [[1.0, 2.0], [3.0, 4.0]])
    assert session.get("t") == "gpuArray"


def test_paren_set_passes_inplace_to_device_assign(session, monkeypatch):
    seen = []
    original = route.device_assign

    def recording(v, idx, rhs, inplace=False):
        seen.append(inplace)
        return original(v, idx, rhs, inplace=inplace)

    monkeypatch.setattr(AcceleratedRouter, "assign", staticmethod(recording))
    session.eval("g = gpuArray(zeros(1, 3)); g(2) = 7;")
    assert seen and seen[-1] is True
    np.testing.assert_array_equal(session.interp.base["g"].gather(), [[0.0, 7.0, 0.0]])


def test_construction_builtins_reach_the_offload_hook(monkeypatch):
    calls = []

    def hook(b, args, nargout, ctx):
        calls.append(b.name)
        return None                       # fall through to the host impl

    monkeypatch.setattr(dispatcher.AUTO_OFFLOAD, "call", hook)
    s = Session(stdout=io.StringIO(), stderr=io.StringIO())
    s.eval("z = zeros(600, 600); w = sin(1.5); r = ones(2);")
    assert "zeros" in calls and "ones" in calls
    assert "sin" not in calls             # non-construction builtins keep the fast path
    assert s.get("z").shape == (600, 600)


def test_construction_fast_path_without_hook(monkeypatch):
    monkeypatch.setattr(dispatcher.AUTO_OFFLOAD, "call", None)
    s = Session(stdout=io.StringIO(), stderr=io.StringIO())
    s.eval("z = zeros(3, 2);")
    assert s.get("z").shape == (3, 2)
