"""Builtins that name the running program file: ``mfilename``.

Scripts and functions use ``mfilename('fullpath')`` to find files that sit
beside them (``addpath(fullfile(fileparts(mfilename('fullpath')), 'lib'))``).
The running file is the current frame's ``file`` (set for function calls and
for scripts while they run); at the prompt or in ``-e`` code it is empty.
"""

from __future__ import annotations

import os
from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import text_arg
from matfuse.runtime.builtins.lang_builtins import _interp
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import char_array


def _running_file(ctx: Any) -> str:
    frame = _interp(ctx).frame
    path = frame.file or (frame.scope.file if frame.scope is not None else None)
    return os.path.abspath(path) if path else ""


@builtin("mfilename", category="environment", nargin=(0, 1), nargout=(0, 1), needs_ctx=True)
def mfilename(ctx: Any, option: Any = None) -> Any:
    """Name of the running file: ``mfilename`` (name), ``mfilename('fullpath')``
    (folder and name, no extension), ``mfilename('class')`` (empty: no class
    method is running). Empty at the command prompt."""
    path = _running_file(ctx)
    stem = os.path.splitext(path)[0]
    if option is None:
        return char_array(os.path.basename(stem))
    what = text_arg(option, "mfilename").lower()
    if what == "fullpath":
        return char_array(stem)
    if what == "fullpathext":
        return char_array(path)
    if what == "class":
        return char_array("")
    raise MatlabError("MATLAB:mfilename:invalidInput",
                      "Input must be 'fullpath', 'fullpathext' or 'class'.")
