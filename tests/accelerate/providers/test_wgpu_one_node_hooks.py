"""The wgpu provider's eager elementwise hooks on real double/single/logical
and integer data, and its casts, run one-node kernels rendered from the op
table (the fused-kernel emitter, ``fused_elementwise``); complex data its
complex kernels. Runs on lavapipe in CI."""

from __future__ import annotations

import numpy as np
import pytest

import matfuse.accelerate.fusion.lazy  # noqa: F401  (registers the kernel source)
from matfuse.accelerate_api import HostTensor, elementwise_kernel
from tests.accelerate.oracle import REFERENCE
from tests.accelerate.providers.test_cuda_one_node_fake import CASES
from tests.wgpu_required import no_adapter


@pytest.fixture(scope="module")
def wgpu_provider():
    from matfuse.accelerate.facade import ProviderUnavailable, _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions

    try:
        return _load_backend("wgpu", AccelerateInitOptions(provider="wgpu", allow_cpu_adapter=True), True)
    except ProviderUnavailable as why:
        no_adapter(f"{why} (CI installs lavapipe)")


def _upload(p, x):
    return p.upload(HostTensor.from_array(x))


def _run(p, hook, op, operands, out_dtype):
    args = [_upload(p, x) if isinstance(x, np.ndarray) else x for x in operands]
    return p.download(getattr(p, hook)(op, *args, out_dtype)).to_array()


@pytest.mark.parametrize("hook,op,operands,out_dtype", CASES, ids=[c[1] for c in CASES])
def test_hook_runs_a_one_node_kernel(wgpu_provider, hook, op, operands, out_dtype):
    p = wgpu_provider
    args = [_upload(p, x) if isinstance(x, np.ndarray) else x for x in operands]
    kernel = elementwise_kernel(p, op, args, out_dtype)
    assert kernel is not None and "@compute" in kernel.source
    p.reset_telemetry()
    got = _run(p, hook, op, operands, out_dtype)
    np.testing.assert_array_equal(got, _run(REFERENCE, hook, op, operands, out_dtype))
    ops = p.telemetry()["ops"]
    assert ops.get("fused_elementwise") == 1, ops      # one hook, one generated kernel
    assert op not in ops, ops


def test_integer_data_and_casts_run_one_node_kernels_complex_data_its_own(wgpu_provider):
    p = wgpu_provider
    a = _upload(p, np.array([[1, 2, 3]], np.int32))
    z = _upload(p, np.array([[1 + 2j, 3 - 1j]]))
    assert elementwise_kernel(p, "plus", [a, 1.0], "int32") is not None
    assert elementwise_kernel(p, "plus", [z, 1.0], "complex128") is None
    p.reset_telemetry()
    out = p.elem_binary("plus", a, 1.5, "int32")
    np.testing.assert_array_equal(p.download(out).to_array(), [[3, 4, 5]])   # rounds half away
    out = p.cast(a, "uint8")
    np.testing.assert_array_equal(p.download(out).to_array(), [[1, 2, 3]])
    assert p.telemetry()["ops"].get("fused_elementwise") == 2
    out = p.elem_unary("uminus", z, "complex128")
    np.testing.assert_array_equal(p.download(out).to_array(), [[-1 - 2j, -3 + 1j]])
