"""``test_host_scalar_constants`` on the CUDA provider over the NumPy-backed
fake CuPy (no GPU needed): no upload per iteration for host scalars of any
class, MATLAB's class rules kept."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate.router import test_host_scalar_constants as constants

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


def test_loop_with_scalars_of_every_class_uploads_nothing_per_iteration(cuda_device):
    constants.check_no_upload_per_iteration(cuda_device)


@pytest.mark.parametrize("code", constants.CLASS_RULE_CASES)
def test_scalar_class_rules_match_cpu(cuda_device, code):
    constants.test_scalar_class_rules_match_cpu(cuda_device, code)
