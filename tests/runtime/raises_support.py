"""Helpers shared by the runtime tests that call runtime functions directly."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from matfuse.errors import MatlabError


def raises(identifier: str, fn: Callable[[], Any], message: str | None = None) -> MatlabError:
    """Call ``fn``; it must raise a MatlabError with ``identifier`` (and ``message``)."""
    with pytest.raises(MatlabError) as info:
        fn()
    assert info.value.identifier == identifier, info.value
    if message is not None:
        assert info.value.message == message
    return info.value


def row(*values: float) -> np.ndarray:
    """A 1xN double row vector."""
    return np.array([values], dtype=np.float64)
