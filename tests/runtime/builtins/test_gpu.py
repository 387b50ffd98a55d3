"""gpuArray builtins (runtime/builtins/gpu.py, gpu_device.py) at the Python level."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import fallback_counts, override_provider, reset_fallback_counts
from matfuse.errors import MatlabError
from matfuse.runtime.dispatcher import call_builtin
from matfuse.runtime.registry import load_all, lookup
from matfuse.runtime.values import char_array, to_str


@pytest.fixture
def p():
    load_all()
    prov = InProcessProvider()
    reset_fallback_counts()
    with override_provider(prov):
        yield prov


def call(name, *args, nargout=1):
    return call_builtin(lookup(name), list(args), nargout, None)


def test_gpuarray_keeps_class_and_optionally_converts(p):
    g = call("gpuArray", np.ones((2, 2), np.int8))[0]
    assert isinstance(g, GpuArray) and g.underlying_class() == "int8"
    s = call("gpuArray", np.ones((2, 2)), char_array("single"))[0]
    assert s.underlying_class() == "single"
    assert call("gpuArray", g)[0] is g


def test_gather_several_and_pass_through(p):
    g = call("gpuArray", np.arange(3.0).reshape(1, 3))[0]
    a, b, c = call("gather", g, 5.0, char_array("x"), nargout=3)
    np.testing.assert_array_equal(a, [[0, 1, 2]])
    assert b == 5.0 and to_str(c) == "x"
    with pytest.raises(MatlabError):
        call("gather", g, nargout=2)


def test_type_queries(p):
    g = call("gpuArray", np.ones((1, 2), np.float32))[0]
    assert to_str(call("classUnderlying", g)[0]) == "single"
    assert to_str(call("underlyingType", 3.0)[0]) == "double"
    assert call("isUnderlyingType", g, char_array("float"))[0] is True
    assert call("isUnderlyingType", g, char_array("numeric"))[0] is True
    assert call("isUnderlyingType", g, char_array("integer"))[0] is False
    assert call("isgpuarray", g)[0] is True and call("isgpuarray", 1.0)[0] is False


def test_shape_queries_do_not_download(p):
    g = call("gpuArray", np.ones((4, 5)))[0]
    p.reset_telemetry()
    for name in ("size", "numel", "isempty", "isscalar", "isnumeric", "isreal"):
        if lookup(name) is not None:
            call(name, g)
    assert p.telemetry()["downloads"] == 0
    np.testing.assert_array_equal(call("size", g)[0], [[4, 5]])


def test_class_is_gpuarray(p):
    g = call("gpuArray", 1.0)[0]
    assert to_str(call("class", g)[0]) == "gpuArray"


def test_elementwise_builtins_stay_on_device(p):
    g = call("gpuArray", np.array([[1.0, 4.0, 9.0]]))[0]
    for name in ("sqrt", "exp", "abs", "sum", "max", "cumsum", "single"):
        out = call(name, g)[0]
        assert isinstance(out, GpuArray), name
    assert fallback_counts() == {}


def test_fallback_results_return_to_device(p):
    g = call("gpuArray", np.array([[3.0, 1.0, 2.0]]))[0]
    out = call("sort", g)[0]
    assert isinstance(out, GpuArray)
    np.testing.assert_array_equal(out.gather(), [[1, 2, 3]])


def test_gpu_device_properties(p):
    d = call("gpuDevice")[0]
    assert d.class_name == "parallel.gpu.CUDADevice"
    assert d.get_property("Index") == 1.0
    assert d.get_property("DeviceSelected") is True
    assert to_str(d.get_property("Name")) == "InProcess NumPy"
    assert d.get_property("TotalMemory") >= d.get_property("AvailableMemory")
    with pytest.raises(MatlabError):
        d.get_property("Nope")
    with pytest.raises(MatlabError) as info:
        call("gpuDevice", 2.0)
    assert info.value.identifier == "parallel:gpu:device:InvalidIndex"
    assert call("gpuDeviceCount")[0] == 1.0
    assert call("canUseGPU")[0] is True


def test_gpu_device_count_is_the_providers_declared_count(p, monkeypatch):
    """gpuDeviceCount asks the provider (AccelProvider.device_count), not its name."""
    monkeypatch.setattr(p, "device_count", lambda: 3)
    assert call("gpuDeviceCount")[0] == 3.0
    n, indices = call("gpuDeviceCount", char_array("available"), nargout=2)
    assert n == 3.0 and indices.tolist() == [[1.0, 2.0, 3.0]]
    with pytest.raises(MatlabError) as info:
        call("gpuDevice", 4.0)
    assert info.value.identifier == "parallel:gpu:device:InvalidIndex"


def test_reset_and_wait(p):
    g = call("gpuArray", np.ones((2, 2)))[0]
    d = call("gpuDevice")[0]
    call("wait", d, nargout=0)
    assert call("existsOnGPU", g)[0] is True
    call("reset", d, nargout=0)
    assert p.live_buffers() == 0
    assert call("existsOnGPU", g)[0] is False
    with pytest.raises(MatlabError) as info:
        call("gather", g)
    assert info.value.identifier == "parallel:gpu:array:InvalidData"
    with pytest.raises(MatlabError) as info:
        call("reset", 3.0, nargout=0)
    assert info.value.identifier == "MATLAB:UndefinedFunction"


def _session():
    from matfuse.vm.session import Session

    out = io.StringIO()
    return Session(stdout=out), out


def test_gputimeit_and_pagefun_in_a_session(p):
    s, _ = _session()
    s.eval("t = gputimeit(@() gpuArray(1) + 1);")
    assert s.get("t") > 0
    s.eval("A = gpuArray(reshape(1:12, 2, 3, 2)); B = pagefun(@transpose, A);")
    np.testing.assert_array_equal(s.get("B"), np.transpose(
        np.arange(1.0, 13.0).reshape(2, 3, 2, order="F"), (1, 0, 2)))
    s.eval("C = pagefun(@(x) x * 2, A);")
    np.testing.assert_array_equal(s.get("C"), 2 * np.arange(1.0, 13.0).reshape(2, 3, 2, order="F"))
    s.eval("D = pagefun(@mtimes, A, gpuArray(ones(3, 1)));")
    np.testing.assert_array_equal(s.get("D")[:, 0, 1], [7 + 9 + 11, 8 + 10 + 12])


def test_arrayfun_on_gpuarray_is_a_counted_fallback(p):
    s, _ = _session()
    s.eval("a = arrayfun(@(x) x + 1, gpuArray([1 2 3])); c = class(a);")
    assert s.get("c") == "gpuArray"
    np.testing.assert_array_equal(s.get("a"), [[2, 3, 4]])
    assert fallback_counts().get("arrayfun") == 1


@pytest.mark.parametrize("name, args, expected, cls", [
    ("ones", (100.0, 50.0, "single", "gpuArray"), 1.0, "single"),
    ("zeros", (5000.0, 1.0, "gpuArray"), 0.0, "double"),
    ("nan", (1.0, 5000.0, "gpuArray"), np.nan, "double"),
    ("true", (70.0, 70.0, "gpuArray"), True, "logical"),
    ("ones", (70.0, 70.0, 1.0, "int8", "gpuArray"), 1, "int8"),
])
def test_large_gpu_constant_built_without_host_array(p, monkeypatch, name, args, expected, cls):
    """zeros/ones/... with 'gpuArray' fill on the device: no host array of
    the full size is made first (it cost ~10 ms at 1e7 elements)."""
    from matfuse.runtime.builtins import construction

    def no_host_array(*a, **k):
        raise AssertionError("host array built for a device constant")

    # place_like moves a finished host array; the device path never calls it.
    monkeypatch.setattr(construction, "place_like", no_host_array)
    out = call(name, *[char_array(a) if isinstance(a, str) else a for a in args])[0]
    monkeypatch.undo()
    assert isinstance(out, GpuArray)
    assert out.matlab_class == cls
    host = out.gather()
    assert host.shape == tuple(int(a) for a in args if isinstance(a, float))[:2]
    np.testing.assert_array_equal(host, np.full(host.shape, expected, dtype=host.dtype))
