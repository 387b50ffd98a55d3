"""How graphics builtins call into ``matfuse.graphics``: matplotlib is
checked first (a MATLAB-style error names the ``matfuse[plot]`` extra), the
call runs under MATLAB's default style, and a handle is returned only when
the caller asked for an output."""

from __future__ import annotations

import importlib
from typing import Any


def graphics_call(module: str, function: str, *args: Any, ctx: Any = None) -> Any:
    """Call ``matfuse.graphics.<module>.<function>(*args)``; ``ctx`` (the
    builtin's call context) lets it issue MATLAB warnings."""
    from matfuse.graphics import require_matplotlib

    require_matplotlib()
    from matfuse.graphics.messages import caller
    from matfuse.graphics.style import matlab_style

    target = getattr(importlib.import_module(f"matfuse.graphics.{module}"), function)
    with matlab_style(), caller(ctx):
        return target(*args)


def handle_if_asked(result: Any, nargout: int) -> Any:
    return result if nargout else None
