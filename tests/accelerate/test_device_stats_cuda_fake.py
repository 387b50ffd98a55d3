"""``test_device_stats`` against the CUDA provider's hooks on the NumPy-backed
fake CuPy (no GPU needed): zscore, cov, histcounts, norm and filter give the
CPU answer with no counted host fallback."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate import test_device_routing as routing
from tests.accelerate import test_device_stats as stats

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.mark.parametrize("args", stats.ZSCORE[:4] + stats.ZSCORE[6:])
def test_zscore(cuda_device, args):
    routing._run_on_device(cuda_device, stats._fn("zscore"), args, (0,), None)


@pytest.mark.parametrize("args,on", stats.COV)
def test_cov(cuda_device, args, on):
    routing._run_on_device(cuda_device, stats._fn("cov"), args, on, None)


@pytest.mark.parametrize("args,on", stats.HIST)
def test_histcounts(cuda_device, args, on):
    routing._run_on_device(cuda_device, stats._fn("histcounts"), args, on, None)


@pytest.mark.parametrize("args", stats.NORM)
def test_norm(cuda_device, args):
    routing._run_on_device(cuda_device, stats._fn("norm"), args, (0,), None)


@pytest.mark.parametrize("args", stats.FILTER)
def test_filter(cuda_device, args):
    routing._run_on_device(cuda_device, stats._fn("filter"), args, (2,), None)


@pytest.mark.parametrize("args", stats.RESHAPES)
def test_reshape(cuda_device, args):
    routing._run_on_device(cuda_device, stats._fn("reshape"), args, (0,), None)


def test_tall_gram_product(cuda_device):
    routing._run_on_device(cuda_device, stats._fn("cov"), [stats.RNG.standard_normal((3000, 7))],
                           (0,), None)


@pytest.mark.parametrize("nbins", [7.0, 3000.0], ids=["shared-memory-kernel", "bincount"])
def test_histcounts_paths(cuda_device, nbins):
    x = stats.RNG.standard_normal((5000, 2))
    x[3, 1] = float("nan")
    routing._run_on_device(cuda_device, stats._fn("histcounts"), [x, nbins], (0,), None)
    routing._run_on_device(cuda_device, stats._fn("histcounts"), [x.astype("float32"), nbins],
                           (0,), None)
