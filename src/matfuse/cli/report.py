"""Printing a MATLAB error on the command line (no Python traceback)."""

from __future__ import annotations

import sys
from typing import Any

from matfuse.errors import MatlabError


def report_error(err: MatlabError, stream: Any = None) -> None:
    """Print a MATLAB-style error report (stderr unless ``stream``)."""
    stream = stream if stream is not None else sys.stderr
    sys.stdout.flush()
    stream.write(err.report().rstrip("\n") + "\n")
    stream.flush()
