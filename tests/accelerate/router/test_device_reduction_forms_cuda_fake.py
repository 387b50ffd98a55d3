"""``test_device_reduction_forms`` on the CUDA provider over the NumPy-backed
fake CuPy (no GPU needed; fused kernels compiled by g++): the same forms give the CPU
answer with no host fallback, and a block vecdim with outtype and nanflag
words is the fused reduction (NVRTC kernels), not CuPy's reduction hook."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate.router import test_device_reduction_forms as reductions

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.mark.parametrize("name,args", reductions.FORMS,
                         ids=[reductions._id(f) for f in reductions.FORMS])
def test_reduction_forms_match_cpu(cuda_device, name, args):
    reductions.test_reduction_forms_match_cpu_on_device(cuda_device, name, args)


@pytest.mark.parametrize("flags", [", 'native'", ", 'native', 'includenan'"])
def test_vecdim_native_is_the_fused_reduction(cuda_device, flags):
    reductions.test_vecdim_native_is_the_fused_reduction(cuda_device, flags)


@pytest.mark.parametrize("call", ["var(imgs, 0, [2 3])", "max(imgs, [], [2 3])",
                                  "mean(imgs, [2 3], 'omitnan')"])
def test_vecdim_forms_stay_fused(cuda_device, call):
    reductions.test_vecdim_forms_stay_fused(cuda_device, call)


@pytest.mark.parametrize("call", ["sum(imgs, [1 3])", "mean(imgs, [1 3], 'omitnan')"])
def test_split_vecdim_is_one_permute_and_a_fused_reduction(cuda_device, call):
    reductions.test_split_vecdim_is_one_permute_and_a_fused_reduction(cuda_device, call)
