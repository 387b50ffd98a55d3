"""Fixtures of the parallel tests: one shared 2-worker local Dask pool
(started once: CI time stays modest), and a way to run with no pool."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def shared_pool():
    """The process's parallel pool: 2 local workers, deleted at the end."""
    pytest.importorskip("distributed")
    from matfuse.parallel import pool as _pool

    existing = _pool.current()
    if existing is not None:
        existing.delete()
    pool = _pool.start(2)
    yield pool
    pool.delete()


@pytest.fixture
def no_pool():
    """No pool is open while the test runs (the shared one is set aside)."""
    from matfuse.parallel import pool as _pool

    saved = _pool._CURRENT
    _pool._CURRENT = None
    yield
    _pool._CURRENT = saved
