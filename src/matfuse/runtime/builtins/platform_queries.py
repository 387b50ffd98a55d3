"""Which platform MATLAB code runs on: ispc ismac isunix filesep pathsep.

Scripts branch on these (tolerances, path separators, shell commands); the
answers describe the machine running matfuse, as MATLAB's do.
"""

from __future__ import annotations

import os
import sys

from matfuse.runtime.registry import builtin
from matfuse.runtime.values import char_array


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


@builtin("filesep", category="environment", nargin=(0, 0))
def filesep() -> object:
    """The folder separator of file names on this platform ('/', or '\\' on Windows)."""
    return char_array(os.sep)


@builtin("pathsep", category="environment", nargin=(0, 0))
def pathsep() -> object:
    """The separator of folders in a search path (':', or ';' on Windows)."""
    return char_array(os.pathsep)
