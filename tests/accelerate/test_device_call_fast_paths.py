"""Host-overhead shortcuts keep their answers: small gpuArray constants are
lazy fills (no upload) with the host values, and the auto-offload hooks
leave user-visible gpuArrays to the device routing at once."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.accelerate.fusion.executor import fusion_enabled
from matfuse.accelerate.gpuarray import GpuArray, upload_value
from matfuse.accelerate.planner import offload
from matfuse.runtime.registry import load_all, lookup
from matfuse.runtime.values import hide_device_value
from matfuse.vm.session import Session


@pytest.mark.parametrize("code, expected", [
    ("ones(10, 1, 'single', 'gpuArray')", np.ones((10, 1), np.float32)),
    ("zeros(3, 'gpuArray')", np.zeros((3, 3))),
    ("nan(1, 2, 'gpuArray')", np.full((1, 2), np.nan)),
    ("7 * ones(2, 2, 'gpuArray')", np.full((2, 2), 7.0)),
])
def test_small_constants_on_the_device(device, code, expected):
    s = Session(stdout=io.StringIO())
    device.reset_telemetry()
    s.eval(f"g = {code}; h = gather(g); c = class(g); u = underlyingType(g);")
    np.testing.assert_array_equal(s.get("h"), expected)
    assert s.get("c") == "gpuArray"
    assert s.get("u") == ("single" if expected.dtype == np.float32 else "double")
    if fusion_enabled(device):
        assert device.telemetry()["uploads"] == 0


def test_visible_gpuarrays_skip_the_planner(device, monkeypatch):
    load_all()
    visible = upload_value(np.ones((4, 4)), device)
    hidden = hide_device_value(upload_value(np.ones((4, 4)), device))

    def no_planner(*args, **kwargs):
        raise AssertionError("the planner was consulted for a visible gpuArray")

    monkeypatch.setattr(offload, "_scan", no_planner)
    for explain in (False, True):
        monkeypatch.setattr(offload.STATE, "explain", explain)
        assert offload.offload_call(lookup("sin"), [visible], 1, None) is None
        assert offload.offload_call(lookup("plus"), [1.0, visible], 1, None) is None
        assert offload.offload_binary("+", visible, 1.0) is NotImplemented
        assert offload.offload_binary("+", hidden, visible) is NotImplemented
        assert offload.offload_binary("+", 2.0, visible) is NotImplemented
    assert isinstance(visible, GpuArray)


def test_gpuarray_of_a_double_scalar_needs_no_upload(device):
    s = Session(stdout=io.StringIO())
    device.reset_telemetry()
    s.eval("g = gpuArray(2.5); x = linspace(g, 4, 4); y = gather(x * g); "
           "c = class(g); u = underlyingType(g); r = isreal(g); v = gather(g);")
    np.testing.assert_allclose(s.get("y"), np.linspace(2.5, 4, 4)[None, :] * 2.5)
    assert (s.get("c"), s.get("u"), s.get("r"), s.get("v")) == ("gpuArray", "double", True, 2.5)
    if fusion_enabled(device):
        assert device.telemetry()["uploads"] == 0
    s.eval("g(2) = 1; w = gather(g);")
    np.testing.assert_array_equal(s.get("w"), [[2.5, 1.0]])
