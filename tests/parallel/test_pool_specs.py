"""Local pool settings (no cluster started): one device per worker, default
worker counts, and the error without Dask."""

from __future__ import annotations

import pytest

from matfuse.accelerate import facade
from matfuse.accelerate_api import ProviderCapabilities
from matfuse.errors import MatlabError
from matfuse.parallel import pool as _pool

CUDA_DEVICES = ("CUDA_VISIBLE_DEVICES", ["0", "1"])


def test_each_worker_owns_one_gpu():
    pytest.importorskip("distributed")
    specs = _pool.local_worker_specs(4, CUDA_DEVICES)
    seen = [specs[k]["options"]["env"]["CUDA_VISIBLE_DEVICES"] for k in range(4)]
    assert seen == ["0", "1", "0", "1"]
    assert all(s["options"]["nthreads"] == 1 for s in specs.values())


def test_cpu_workers_have_no_gpu():
    pytest.importorskip("distributed")
    specs = _pool.local_worker_specs(2, None)
    assert all("CUDA_VISIBLE_DEVICES" not in s["options"]["env"] for s in specs.values())


def test_each_worker_gets_the_variable_the_provider_declares():
    pytest.importorskip("distributed")
    specs = _pool.local_worker_specs(3, ("HIP_VISIBLE_DEVICES", ["4"]))
    assert [s["options"]["env"]["HIP_VISIBLE_DEVICES"] for s in specs.values()] == ["4"] * 3
    assert all("CUDA_VISIBLE_DEVICES" not in s["options"]["env"] for s in specs.values())


def test_default_count_is_the_devices_when_the_provider_gives_one_per_worker(monkeypatch):
    monkeypatch.setattr(_pool, "worker_devices", lambda: CUDA_DEVICES)
    assert _pool._default_workers() == (2, CUDA_DEVICES)
    monkeypatch.setattr(_pool, "worker_devices", lambda: None)
    count, devices = _pool._default_workers()
    assert count >= 1 and devices is None


class _Provider:
    def __init__(self, variable, count):
        self.capabilities = ProviderCapabilities(worker_device_variable=variable)
        self.count = count

    def device_count(self):
        return self.count


class _State:
    def __init__(self, provider):
        self.provider = provider


def test_worker_devices_come_from_the_declared_capability(monkeypatch):
    """Not from the provider's name: any provider declaring the variable
    gets one device per worker, and one without it none."""
    monkeypatch.setattr(facade, "acceleration_state",
                        lambda: _State(_Provider("CUDA_VISIBLE_DEVICES", 2)))
    assert _pool.worker_devices() == CUDA_DEVICES
    monkeypatch.setattr(facade, "acceleration_state", lambda: _State(_Provider(None, 4)))
    assert _pool.worker_devices() is None
    monkeypatch.setattr(facade, "acceleration_state",
                        lambda: _State(_Provider("CUDA_VISIBLE_DEVICES", 0)))
    assert _pool.worker_devices() is None
    monkeypatch.setattr(facade, "acceleration_state", lambda: None)
    assert _pool.worker_devices() is None


def test_cuda_declares_one_device_per_worker_and_in_process_does_not():
    from matfuse.accelerate.providers.cuda.provider import CudaProvider
    from matfuse.accelerate.providers.inprocess import InProcessProvider

    assert CudaProvider.capabilities.worker_device_variable == "CUDA_VISIBLE_DEVICES"
    assert InProcessProvider.capabilities.worker_device_variable is None


def test_parpool_without_dask(monkeypatch, no_pool):
    monkeypatch.setattr(_pool, "dask_available", lambda: False)
    with pytest.raises(MatlabError) as info:
        _pool.start(2)
    assert info.value.identifier == "matfuse:parallel:daskMissing"
    assert "matfuse[parallel]" in info.value.message


def test_invalid_worker_count(no_pool):
    pytest.importorskip("distributed")
    with pytest.raises(MatlabError) as info:
        _pool.start(0)
    assert info.value.identifier == "parallel:cluster:InvalidNumWorkers"
