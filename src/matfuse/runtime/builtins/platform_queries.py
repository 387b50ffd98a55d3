"""Which platform MATLAB code runs on: ispc ismac isunix.

Scripts branch on these (tolerances, path separators, shell commands); the
answers describe the machine running matfuse, as MATLAB's do.
"""

from __future__ import annotations

import sys

from matfuse.runtime.registry import builtin


@builtin("ispc", category="environment", nargin=(0, 0))
def ispc() -> bool:
    """True on Windows."""
    return sys.platform.startswith("win")


@builtin("ismac", category="environment", nargin=(0, 0))
def ismac() -> bool:
    """True on macOS."""
    return sys.platform == "darwin"


@builtin("isunix", category="environment", nargin=(0, 0))
def isunix() -> bool:
    """True on Linux and macOS (every platform but Windows)."""
    return not sys.platform.startswith("win")
