"""No wgpu adapter: skip the test, unless MATFUSE_REQUIRE_WGPU=1 (set by
.ci/run) says the wgpu tests must run (CI installs lavapipe), then fail."""

from __future__ import annotations

import os

import pytest


def no_adapter(reason: str) -> None:
    """Skip (or, under MATFUSE_REQUIRE_WGPU=1, fail) for a missing adapter."""
    message = f"no wgpu adapter: {reason}"
    if os.environ.get("MATFUSE_REQUIRE_WGPU", "0") == "1":
        pytest.fail(message + " (MATFUSE_REQUIRE_WGPU=1: the wgpu tests must run)")
    pytest.skip(message)
