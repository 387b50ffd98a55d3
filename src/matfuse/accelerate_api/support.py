"""What providers use from the rest of matfuse, in one place.

Providers import only ``matfuse.accelerate_api``; the few shared pieces
they need are named here: the MATLAB error type, MATLAB's shape rule,
atomic cache-file writes, the Philox and MT19937 stream layouts that
device random draws reproduce, MATLAB's floating-point ``mod``/``rem`` (the in-process
provider computes exactly as the host does) and the package version (cache
keys). Each comes from a leaf module that imports nothing of the layers
above this package.
"""

from __future__ import annotations

from matfuse._version import __version__ as MATFUSE_VERSION
from matfuse.errors import MatlabError
from matfuse.runtime import _mt19937 as twister
from matfuse.runtime import _philox as philox
from matfuse.runtime.atomic_files import (
    read_bytes_safe,
    warn_on_stderr,
    write_bytes_atomic,
    write_text_atomic,
)
from matfuse.runtime.builtins.integer_math import _float_mod as float_mod
from matfuse.runtime.values import normalize_shape as matlab_shape

__all__ = [
    "MATFUSE_VERSION",
    "MatlabError",
    "float_mod",
    "matlab_shape",
    "philox",
    "twister",
    "read_bytes_safe",
    "warn_on_stderr",
    "write_bytes_atomic",
    "write_text_atomic",
]
