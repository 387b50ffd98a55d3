"""The device paths of issue 19's array-math builtins on the CUDA provider
over the NumPy-backed fake CuPy (no GPU needed): the same snippets as the
in-process/wgpu tests, no counted host fallback, the host's results. The
real-GPU run is the coordinator's."""

from __future__ import annotations

import pytest

from tests.accelerate import cuda_host
from tests.accelerate import test_special_functions_on_device as special
from tests.accelerate.fake_cuda_fixtures import _builtins, cuda_device, fake_cuda  # noqa: F401 (fixtures)
from tests.accelerate.router import (
    test_fourier_forms as fourier,
    test_grid_pchip as grid_pchip,
    test_most_frequent as most_frequent,
    test_norm_rescale as norm_rescale,
    test_real_domain as real_domain,
    test_reorder as reorder,
    test_spline_slopes as spline,
    test_structure_predicates as predicates,
    test_trig_forms as trig,
)
from tests.accelerate.router.snippet_check import check_snippet

pytestmark = pytest.mark.skipif(not cuda_host.gxx_available(), reason="g++ not on PATH")


def _host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


# (snippet, check_snippet keywords)
CASES = (
    [(c, {}) for c in trig.SNIPPETS]
    + [(c, {"exact": True, "host_code": _host_form(c)}) for c in trig.EXACT]
    + [(c, {"host_code": _host_form(c)}) for c in real_domain.SNIPPETS]
    + [(c, {"exact": True, "host_code": _host_form(c)}) for c in predicates.SNIPPETS]
    + [(c, {"host_code": _host_form(c)}) for c in norm_rescale.SNIPPETS]
    + [(c, {"exact": True, "host_code": _host_form(c)}) for c in reorder.SNIPPETS]
    + [(c, {"exact": True, "host_code": _host_form(c)}) for c in most_frequent.SNIPPETS]
    + [(c, {"rtol": 1e-12, "host_code": _host_form(c)}) for c in fourier.SNIPPETS]
    + [(c, {"rtol": 1e-11}) for c in spline.SNIPPETS + grid_pchip.SNIPPETS]
    + [(c, {"rtol": 2e-14, "host_code": _host_form(c)}) for c in special.SNIPPETS]
)


@pytest.mark.parametrize("code,options", CASES, ids=[c for c, _ in CASES])
def test_runs_on_the_cuda_provider(cuda_device, code, options):
    check_snippet(code, **options)
