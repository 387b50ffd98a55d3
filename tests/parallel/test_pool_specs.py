"""Local pool settings (no cluster started): one GPU per worker, default
worker counts, and the error without Dask."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from matfuse.parallel import pool as _pool


def test_each_worker_owns_one_gpu():
    pytest.importorskip("distributed")
    specs = _pool.local_worker_specs(4, ["0", "1"])
    seen = [specs[k]["options"]["env"]["CUDA_VISIBLE_DEVICES"] for k in range(4)]
    assert seen == ["0", "1", "0", "1"]
    assert all(s["options"]["nthreads"] == 1 for s in specs.values())


def test_cpu_workers_have_no_gpu():
    pytest.importorskip("distributed")
    specs = _pool.local_worker_specs(2, None)
    assert all("CUDA_VISIBLE_DEVICES" not in s["options"]["env"] for s in specs.values())


def test_default_count_is_gpus_when_cuda_is_active(monkeypatch):
    monkeypatch.setattr(_pool, "gpu_ids_for_workers", lambda: ["0", "1"])
    assert _pool._default_workers() == (2, ["0", "1"])
    monkeypatch.setattr(_pool, "gpu_ids_for_workers", lambda: [])
    count, gpus = _pool._default_workers()
    assert count >= 1 and gpus is None


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
