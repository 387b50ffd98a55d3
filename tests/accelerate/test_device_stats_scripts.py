"""The stats, smallmixed and signal benchmark scripts with explicit gpuArray
inputs (gpu=1, tiny sizes) print the CPU's checksum and make no counted host
fallback (zscore, cov, histcounts, norm, filter and complex indexing all
stay on the device)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from matfuse import Session
from matfuse.accelerate_api import fallback_counts, override_provider, reset_fallback_counts
from matfuse.runtime.registry import load_all
from tests.accelerate import cuda_host
from tests.accelerate.providers import fake_cupy

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [("stats", {"n": 300.0, "d": 4.0, "nbins": 8.0}),
           ("smallmixed", {"iters": 12.0}),
           ("signal", {"n": 2048.0, "c": 2.0, "L": 40.0})]


def _checksum(workload: str, params: dict[str, float], gpu: bool) -> float:
    out = io.StringIO()
    session = Session(stdout=out)
    for key, value in params.items():
        session.set(key, value)
    session.set("gpu", 1.0 if gpu else 0.0)
    session.run_file(str(ROOT / "benchmarks" / workload / f"{workload}.m"))
    return float(out.getvalue().split()[-1])


def _check(workload: str, params: dict[str, float]) -> None:
    want = _checksum(workload, params, False)
    reset_fallback_counts()
    got = _checksum(workload, params, True)
    assert fallback_counts() == {}, fallback_counts()
    np.testing.assert_allclose(got, want, rtol=1e-9)


@pytest.mark.parametrize("workload,params", SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_script_on_device(device, workload, params):
    load_all()
    _check(workload, params)


@pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")
@pytest.mark.parametrize("workload,params", SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_script_on_fake_cuda(tmp_path, workload, params):
    load_all()
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        with override_provider(CudaProvider(cache_dir=str(tmp_path))):
            _check(workload, params)
