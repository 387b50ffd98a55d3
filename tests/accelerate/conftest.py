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
