"""``test_device_generality`` on the CUDA provider's hooks over the
NumPy-backed fake CuPy (no GPU needed): the same forms, no host fallback."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate import test_device_generality as generality
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.mark.parametrize("code", generality.SNIPPETS)
def test_form_stays_on_device(cuda_device, code):
    generality.test_form_stays_on_device(cuda_device, code)
