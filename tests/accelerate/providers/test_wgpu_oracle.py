"""Every oracle case on the wgpu provider vs the NumPy reference (runs in CI
on lavapipe whatever MATFUSE_TEST_PROVIDERS says)."""

from __future__ import annotations

import pytest

from tests.accelerate.oracle import ORACLE_CASES, REFERENCE, assert_matches, run_case


@pytest.mark.parametrize("case", ORACLE_CASES, ids=lambda c: c.id)
def test_wgpu_matches_reference(wgpu_provider, case):
    assert_matches(run_case(case, wgpu_provider), run_case(case, REFERENCE), case)


def test_oracle_cases_leave_no_buffers(wgpu_provider):
    before = wgpu_provider.live_buffers()
    for case in ORACLE_CASES[::7]:
        try:
            run_case(case, wgpu_provider)
        except pytest.skip.Exception:
            pass
    assert wgpu_provider.live_buffers() == before
