"""The accelerate API contract: registry, thread-local override, residency
hooks, metadata registries, fallback counters, host tensor types."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import matfuse.accelerate_api as api
from matfuse.accelerate.providers.inprocess import InProcessProvider


@pytest.fixture
def clean_registry():
    previous = api.provider()
    api.unregister_provider()
    yield
    if previous is not None:
        api.register_provider(previous)
    else:
        api.unregister_provider()


def test_register_and_unregister(clean_registry):
    assert api.provider() is None
    p = InProcessProvider()
    api.register_provider(p)
    assert api.provider() is p
    api.unregister_provider()
    assert api.provider() is None


def test_override_is_thread_local(clean_registry):
    global_p, local_p = InProcessProvider(), InProcessProvider()
    api.register_provider(global_p)
    seen: list[object] = []
    with api.override_provider(local_p):
        assert api.provider() is local_p
        t = threading.Thread(target=lambda: seen.append(api.provider()))
        t.start()
        t.join()
    assert seen == [global_p]
    assert api.provider() is global_p


def test_override_restores_on_error(clean_registry):
    p = InProcessProvider()
    with pytest.raises(RuntimeError):
        with api.override_provider(p):
            raise RuntimeError("boom")
    assert api.provider() is None


def test_residency_hooks():
    h = api.GpuTensorHandle((2, 2), 0, 123456, "float64")
    cleared: list[api.GpuTensorHandle] = []
    api.register_residency_clear(cleared.append)
    api.mark_residency(h)
    assert api.is_resident(h)
    api.clear_residency(h)
    assert not api.is_resident(h)
    assert cleared[-1] == h


def test_metadata_registry():
    h = api.GpuTensorHandle((3, 1), 0, 98765, "float32")
    assert api.get_meta(h) is None
    api.set_meta(h, api.BufferMeta(precision="f32", matlab_class="single"))
    assert api.get_meta(h).matlab_class == "single"
    api.drop_meta(h)
    assert api.get_meta(h) is None


def test_fallback_counters():
    api.reset_fallback_counts()
    api.count_fallback("sum")
    api.count_fallback("sum")
    api.count_fallback("index")
    assert api.fallback_counts() == {"sum": 2, "index": 1}
    api.reset_fallback_counts()
    assert api.fallback_counts() == {}


def test_base_provider_optional_hooks_are_unsupported():
    base = api.AccelProvider()
    with pytest.raises(api.Unsupported):
        base.elem_binary("plus", 1.0, 2.0, "float64")
    with pytest.raises(NotImplementedError):
        base.upload(api.HostTensor.from_array(np.ones((1, 1))))
    assert issubclass(api.Unsupported, NotImplementedError)
    assert base.telemetry() == {}


def test_every_hook_has_a_docstring_or_is_grouped():
    # The docstrings are the contract other providers implement against.
    undocumented = [name for name, fn in vars(api.AccelProvider).items()
                    if callable(fn) and not name.startswith("_") and not fn.__doc__
                    and name not in ("conv2d", "filter", "fft", "polyval")]
    assert undocumented == []


def test_host_tensor_column_major_roundtrip():
    arr = np.arange(24.0).reshape(2, 3, 4, order="F")
    host = api.HostTensor.from_array(arr)
    assert host.shape == (2, 3, 4)
    np.testing.assert_array_equal(host.data[:4], [0, 1, 2, 3])
    np.testing.assert_array_equal(host.to_array(), arr)
    assert api.HostTensor.from_array(np.ones((2, 2), np.float32)).matlab_class == "single"
    assert api.HostTensor.from_array(np.ones((1, 1), np.bool_)).matlab_class == "logical"
    assert api.HostTensor.from_array(np.ones((1, 1), np.complex128)).is_complex


def test_handle_numel():
    assert api.GpuTensorHandle((2, 3, 4), 0, 1).numel == 24
    assert api.GpuTensorHandle((0, 3), 0, 1).numel == 0
