from __future__ import annotations

import pytest

from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import override_provider, reset_fallback_counts


@pytest.fixture
def inproc():
    """A fresh in-process provider active on this thread, fallbacks zeroed."""
    p = InProcessProvider()
    reset_fallback_counts()
    with override_provider(p):
        yield p


@pytest.fixture
def device(accel_provider):
    """Each provider under test (see tests/conftest.py) active on this thread."""
    reset_fallback_counts()
    with override_provider(accel_provider):
        yield accel_provider
