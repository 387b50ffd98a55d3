"""svd, qr, lu, the singular-value builtins, rat, rats, griddedInterpolant
built from gpuArrays and N-D convn on the CUDA provider over the
NumPy-backed fake CuPy (no GPU needed): the snippets of
``test_factorizations`` run without a host fallback and agree with the
host. Column-pivoted QR has no CuPy routine: it is a counted fallback. The
real-GPU run (cuSOLVER's own results) is the coordinator's."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate.router import test_factorizations as factorizations
from tests.accelerate.router import test_gridded_construction as gridded
from tests.accelerate.router import test_rational as rational
from tests.accelerate.router.snippet_check import check_snippet

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")

CASES = [c for c in factorizations.SNIPPETS if c not in factorizations.QR_PIVOTED]


@pytest.mark.parametrize("code", CASES + factorizations.SINGLE)
def test_runs_on_the_cuda_provider(cuda_device, code):
    rtol = 1e-4 if code in factorizations.SINGLE else 1e-12
    setup = factorizations.F_SETUP
    check_snippet(setup + code, rtol=rtol, host_code=factorizations.host_form(setup + code))


@pytest.mark.parametrize("code", factorizations.QR_PIVOTED)
def test_pivoted_qr_runs_on_the_cuda_provider(cuda_device, code):
    """geqp3's column order chosen on the device, then QR of the permuted matrix."""
    setup = factorizations.F_SETUP
    check_snippet(setup + code, rtol=1e-12, host_code=factorizations.host_form(setup + code))


@pytest.mark.parametrize("code", rational.SNIPPETS)
def test_rat_and_rats_run_on_the_cuda_provider(cuda_device, code):
    check_snippet(code, exact=True, host_code=rational.host_form(code))


@pytest.mark.parametrize("code", gridded.SNIPPETS)
def test_gridded_interpolant_runs_on_the_cuda_provider(cuda_device, code):
    check_snippet(code, rtol=1e-12, host_code=gridded.host_form(code))


CONVN = ["r = convn(X, X(:, :, 1:2));", "r = convn(X, ones(2, 2, 2), 'same');",
         "r = convn(X, X(:, 2:3, :), 'valid');"]


@pytest.mark.parametrize("code", CONVN)
def test_nd_convn_runs_on_the_cuda_provider(cuda_device, code):
    check_snippet(code, rtol=1e-12)
