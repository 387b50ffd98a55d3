"""Jupyter support: a MATLAB kernel on ipykernel (``matfuse.jupyter.kernel``,
installed by ``matfuse kernel install``) and an IPython extension with
``%matlab``/``%%matlab`` magics (``matfuse.jupyter.magic``). Both need the
``matfuse[jupyter]`` extra."""

from __future__ import annotations

import importlib.util

from matfuse.errors import MatlabError


def require_jupyter() -> None:
    """A MATLAB-style error naming the extra when ipykernel is missing."""
    for module in ("ipykernel", "jupyter_client"):
        if importlib.util.find_spec(module) is None:
            raise MatlabError("matfuse:jupyter:missingExtra",
                              f"Jupyter support needs {module}. Install the extra: "
                              "pip install 'matfuse[jupyter]'")
