"""``test_saturating_accumulation`` on the CUDA provider over the NumPy-backed
fake CuPy (no GPU needed; fused kernels compiled by g++): saturating integer
sums, products and scans give the host's answer with no host fallback and
no data leaving the device."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate.router import test_saturating_accumulation as saturating

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.mark.parametrize("cls", ["int8", "uint16", "int32", "uint32"])
def test_nd_forms_match_the_host(cuda_device, cls):
    saturating.test_nd_forms_match_the_host(cuda_device, cls)


def test_long_vectors_match_the_host(cuda_device):
    saturating.test_long_vectors_match_the_host(cuda_device, "int8", (1, 3001))


def test_products_with_zeros_and_sign_changes_match_the_host(cuda_device):
    saturating.test_products_with_zeros_and_sign_changes_match_the_host(cuda_device)


def test_results_stay_on_the_device(cuda_device):
    saturating.test_results_stay_on_the_device(cuda_device)


def test_64_bit_integers_are_left_to_the_host_counted(cuda_device):
    saturating.test_64_bit_integers_are_left_to_the_host_counted(cuda_device)
