"""OpenBLAS's idle worker threads: how long they spin before they sleep.

OpenBLAS's worker threads spin for 2**28 cycles (about 0.1 s) after they
start and after each parallel call before they sleep: on a few cores that
spinning takes CPU from the interpreter's own thread (0.07 s of CPU at
every start of matfuse on a 2-core machine; matrix products with
interpreter work between them ran 3x slower in wall time). 2**20 cycles
(well under a millisecond) still keeps the threads awake across
back-to-back BLAS calls. The library reads ``OPENBLAS_THREAD_TIMEOUT`` once,
when NumPy loads it: ``matfuse/__init__.py`` calls this before anything
imports NumPy.
"""

from __future__ import annotations

import os
import sys

BLAS_THREAD_TIMEOUT = "20"


def quiet_idle_blas_threads() -> None:
    """Set the timeout unless NumPy is loaded already or the user chose one."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", BLAS_THREAD_TIMEOUT)
