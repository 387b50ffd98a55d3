"""matfuse: run MATLAB-language programs in Python (array work on GPUs)."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["Session", "__version__"]


def __getattr__(name: str) -> Any:
    # Lazy so ``import matfuse`` stays cheap (and free of import cycles).
    if name == "Session":
        from matfuse.vm.session import Session

        return Session
    raise AttributeError(name)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext matfuse``: the ``%matlab``/``%%matlab`` magics (matfuse.jupyter.magic)."""
    from matfuse.jupyter.magic import load_ipython_extension as load

    load(ipython)
