"""The CUDA provider's eager elementwise hooks on real double/single/logical
and integer data run one-node kernels rendered from the op table (NVRTC),
complex data the complex table's kernels. Checked on the NumPy-backed fake CuPy whose
kernels run on the CPU through g++ (the GPU run is the GPU machine's)."""

from __future__ import annotations

import numpy as np
import pytest

import matfuse.accelerate.fusion.lazy  # noqa: F401  (registers the kernel source)
from matfuse.accelerate_api import HostTensor, elementwise_kernel
from tests.accelerate import cuda_host
from tests.accelerate.oracle import REFERENCE
from tests.accelerate.providers import fake_cupy

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory):
    with fake_cupy.installed():
        from matfuse.accelerate.providers.cuda.provider import CudaProvider

        yield CudaProvider(cache_dir=str(tmp_path_factory.mktemp("one_node_cache")))


def _upload(p, x):
    return p.upload(HostTensor.from_array(x))


def _compiles(p) -> int:
    return p.cache.stats["compiles"] + p.cache.stats["disk_hits"]


CASES = [
    ("elem_binary", "plus", [np.arange(6.0).reshape(2, 3), 2.5], "float64"),
    ("elem_binary", "rdivide", [np.array([[1.0, -2.0, 0.0]], np.float32),
                                np.array([[3.0], [0.0]], np.float32)], "float32"),
    ("elem_binary", "lt", [np.array([[1.0, np.nan, 3.0]]), np.array([[2.0, 2.0, 2.0]], np.float32)], "bool"),
    ("elem_binary", "mod", [np.array([[5.0, -5.0, 5.5, np.inf]]), 3.0], "float64"),
    ("elem_unary", "sqrt", [np.array([[4.0, 2.0, 0.0, np.inf]])], "float64"),
    ("elem_unary", "round", [np.array([[2.5, -2.5, 0.49999999999999994]])], "float64"),
    ("elem_unary", "isnan", [np.array([[np.nan, 1.0]], np.float32)], "bool"),
]


@pytest.mark.parametrize("hook,op,operands,out_dtype", CASES, ids=[c[1] for c in CASES])
def test_hook_runs_a_one_node_kernel(fake_cuda, hook, op, operands, out_dtype):
    def run(p):
        args = [_upload(p, x) if isinstance(x, np.ndarray) else x for x in operands]
        return p.download(getattr(p, hook)(op, *args, out_dtype)).to_array()

    args = [_upload(fake_cuda, x) if isinstance(x, np.ndarray) else x for x in operands]
    kernel = elementwise_kernel(fake_cuda, op, args, out_dtype)
    assert kernel is not None and "__global__" in kernel.source
    dispatches = fake_cuda.telemetry()["dispatches"]
    got = run(fake_cuda)
    np.testing.assert_array_equal(got, run(REFERENCE))
    assert fake_cuda.telemetry()["dispatches"] == dispatches + 1   # one hook, one dispatch


def test_integer_data_runs_a_one_node_kernel_and_complex_data_the_complex_kernel(fake_cuda):
    a = _upload(fake_cuda, np.array([[1, 2, 3]], np.int32))
    z = _upload(fake_cuda, np.array([[1 + 2j, 3 - 1j]]))
    kernel = elementwise_kernel(fake_cuda, "plus", [a, 1.0], "int32")
    assert kernel is not None and "const int* __restrict__ in0" in kernel.source
    assert elementwise_kernel(fake_cuda, "plus", [z, 1.0], "complex128") is None
    out = fake_cuda.elem_binary("plus", a, 1.0, "int32")
    np.testing.assert_array_equal(fake_cuda.download(out).to_array(), [[2, 3, 4]])
    out = fake_cuda.elem_unary("uminus", z, "complex128")
    np.testing.assert_array_equal(fake_cuda.download(out).to_array(), [[-1 - 2j, -3 + 1j]])


def test_one_compile_per_kernel_shape(fake_cuda):
    """The render cache and NVRTC's cache: the same op on other values of
    the same classes and layout compiles nothing new."""
    x = _upload(fake_cuda, np.arange(8.0).reshape(2, 4))
    fake_cuda.elem_binary("times", x, 3.0, "float64")
    before = _compiles(fake_cuda)
    y = _upload(fake_cuda, -np.arange(8.0).reshape(2, 4))
    out = fake_cuda.elem_binary("times", y, 0.5, "float64")
    np.testing.assert_array_equal(fake_cuda.download(out).to_array(), -np.arange(8.0).reshape(2, 4) * 0.5)
    assert _compiles(fake_cuda) == before
