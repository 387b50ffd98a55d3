"""The CUDA MT19937 kernels: source snapshots, and their numerics on the CPU
(fake CuPy: the kernels compiled with g++ and run as one thread, see
tests/accelerate/cuda_host.py). ``test_cuda_twister.py`` runs the same
checks with real CuPy on a GPU (a full thread block)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from matfuse.accelerate.providers.cuda import twister as cuda_twister
from matfuse.accelerate_api import HostTensor, Unsupported
from matfuse.runtime import _mt19937
from tests.accelerate import cuda_host
from tests.accelerate.providers import fake_cupy

SNAPSHOTS = Path(__file__).parent / "snapshots"


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"generated CUDA changed; delete {path} to accept"


def test_generate_source_snapshot():
    check_snapshot("twister_generate.cu", cuda_twister.GENERATE_SOURCE)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_convert_source_snapshot(dtype):
    check_snapshot(f"twister_convert_{dtype}.cu", cuda_twister.convert_source(dtype))


needs_gxx = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory):
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("fake_cuda_twister")))


def _state(p, seed: int, skip: int):
    rs = np.random.RandomState(seed)
    if skip:
        rs.bytes(4 * skip)
    _, words, pos, _, _ = rs.get_state(legacy=True)
    words = words.astype(np.uint32)
    return words, int(pos), p.upload(HostTensor(words.copy(), (624, 1), "uint32"))


@needs_gxx
@pytest.mark.parametrize("kind,dtype,skip,n", [
    ("uniform", "float64", 0, 1000), ("uniform", "float32", 600, 3001),
    ("normal", "float64", 17, 777), ("normal", "float32", 3, 999),
    ("randi", "int32", 100, 5000), ("randi", "float64", 623, 1)])
def test_values_are_the_host_values(fake_cuda, kind, dtype, skip, n):
    p = fake_cuda
    words, pos, handle = _state(p, 42 + skip, skip)
    h = p.random_twister(kind, (n, 1), dtype, handle, pos, (-3.0, 12.0))
    got = p.download(h).data.reshape(-1)
    want, after = _mt19937.draw(words, pos, kind, n, dtype, (-3.0, 12.0))
    if kind == "normal" and dtype == "float64":
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(np.float64).eps, atol=0)
    else:
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(p.download(handle).data.reshape(-1), after)
    p.free(h)
    p.free(handle)


@needs_gxx
def test_chunks_continue_the_stream(fake_cuda, monkeypatch):
    monkeypatch.setattr(cuda_twister, "_CHUNK_VALUES", 100)
    p = fake_cuda
    words, pos, handle = _state(p, 8, 0)
    h = p.random_twister("normal", (250, 2), "float32", handle, pos)
    want, after = _mt19937.draw(words, pos, "normal", 500, "float32")
    np.testing.assert_array_equal(p.download(h).data.reshape(-1), want)
    np.testing.assert_array_equal(p.download(handle).data.reshape(-1), after)
    p.free(h)
    p.free(handle)


@needs_gxx
def test_refuses_normal_integers(fake_cuda):
    words, pos, handle = _state(fake_cuda, 1, 0)
    with pytest.raises(Unsupported):
        fake_cuda.random_twister("normal", (4, 1), "int32", handle, pos)
    fake_cuda.free(handle)
