"""Modules imported on first attribute access.

SciPy's sparse package costs about 0.15 s to import (and SciPy itself 14 ms
more); the runtime names it in modules every script loads (operators,
concatenation, display), but only programs that make a sparse matrix use it.
"""

from __future__ import annotations

import importlib
from typing import Any


class LazyModule:
    """Stands for module ``name``: the import runs on the first attribute
    read (then each read is a ``sys.modules`` lookup)."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported on first use>"


def lazy_module(name: str) -> LazyModule:
    """``name`` as an object whose attributes import the module first."""
    return LazyModule(name)
