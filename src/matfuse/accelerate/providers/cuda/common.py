"""Small shared pieces of the CUDA provider (no CuPy import here)."""

from __future__ import annotations

import functools
from typing import Any, Callable

from matfuse.accelerate_api.support import MatlabError

OOM_MESSAGE = ("Out of memory on device. To view more detail about available memory on the GPU, "
               "use 'gpuDevice()'. If the problem persists, reset the GPU by calling 'gpuDevice(1)'.")


def device_hook(op: str | None = None, dispatch: bool = True) -> Callable:
    """Count a dispatch (unless ``dispatch`` is False) and turn CuPy's
    out-of-memory error into MATLAB's, after freeing what the call allocated.

    Decorates provider methods; the provider has ``_counters``,
    ``_op_counts``, ``_oom_error`` and ``_release_after_oom``."""
    def wrap(fn: Callable) -> Callable:
        name = op or fn.__name__

        @functools.wraps(fn)
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            if dispatch:
                self._counters["dispatches"] += 1
                self._op_counts[name] += 1
            try:
                return fn(self, *args, **kwargs)
            except self._oom_error as err:
                self._release_after_oom(err)
            raise MatlabError("parallel:gpu:array:OOM", OOM_MESSAGE)
        return run
    return wrap
