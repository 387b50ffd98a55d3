"""Shared pytest configuration.

Accelerate providers under test: ``--provider=NAME`` (repeatable) or the
``MATFUSE_TEST_PROVIDERS`` environment variable (comma list; default
``inprocess``). The ``accel_provider`` fixture is parametrised over them; a
provider that cannot start here is skipped, not failed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.wgpu_required import no_adapter

# Lets test helpers be imported as ``tests.accelerate.oracle`` however pytest is started.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--provider", action="append", default=None,
                     help="acceleration provider(s) for oracle tests (inprocess, wgpu, cuda)")


def provider_names_under_test(config: pytest.Config) -> list[str]:
    names = config.getoption("--provider")
    if not names:
        names = os.environ.get("MATFUSE_TEST_PROVIDERS", "inprocess").split(",")
    return [n.strip() for n in names if n.strip()]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "accel_provider_name" in metafunc.fixturenames:
        metafunc.parametrize("accel_provider_name", provider_names_under_test(metafunc.config),
                             scope="session")


_started: dict[str, object] = {}


@pytest.fixture(scope="session")
def accel_provider(accel_provider_name: str):
    """A started provider instance (one per session and name)."""
    from matfuse.accelerate.facade import ProviderUnavailable, _load_backend
    from matfuse.accelerate.options import AccelerateInitOptions

    if accel_provider_name not in _started:
        try:
            _started[accel_provider_name] = _load_backend(
                accel_provider_name, AccelerateInitOptions(provider=accel_provider_name), True)
        except ProviderUnavailable as why:
            _started[accel_provider_name] = why
    started = _started[accel_provider_name]
    if isinstance(started, ProviderUnavailable):
        if accel_provider_name == "wgpu":
            no_adapter(str(started))
        pytest.skip(f"provider {accel_provider_name} unavailable: {started}")
    return started
