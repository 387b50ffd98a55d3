"""``test_device_gaps`` on the CUDA provider's hooks over the NumPy-backed
fake CuPy (no GPU needed): the same snippets, no counted host fallback."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate import test_device_gaps as gaps
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


@pytest.mark.parametrize("code", gaps.ACCUMARRAY)
def test_accumarray(cuda_device, code):
    gaps.check_snippet(code)


@pytest.mark.parametrize("code", gaps.INTEGER_MAX_MIN)
def test_integer_max_min(cuda_device, code):
    gaps.check_snippet(code, exact=True)


@pytest.mark.parametrize("code", gaps.MOVING)
def test_moving_window(cuda_device, code):
    gaps.check_snippet(code)


@pytest.mark.parametrize("code", gaps.LONG_SORTS)
def test_long_sorts(cuda_device, code):
    gaps.check_snippet(code, exact=True)


@pytest.mark.parametrize("code", gaps.SOLVES)
def test_square_solve(cuda_device, code):
    gaps.test_square_solve_stays_on_device(cuda_device, code)
