"""Launching generated kernels through ``cuLaunchKernel`` with reused argument slots.

A fused kernel takes its buffers, a few u32 header words and up to a dozen
uniforms. CuPy's ``Function.__call__`` converts every argument on every
launch (a NumPy scalar per uniform); ``cuLaunchKernel`` with a parameter
block filled in place skips that (measurements: docs/benchmarks/cuda.md).

A :class:`KernelLauncher` belongs to one compiled function and one argument
layout (pointers, then u32 words, then uniforms of one float type, as
``fusion/render_cuda.py`` declares them). Each argument has an 8-byte slot;
the driver reads a u32 or a float from the low half (little-endian hosts
only: :func:`launcher_for` returns None elsewhere and the caller uses CuPy's
call). The driver copies the parameters when the launch is issued, so one
block is reused for every launch of the function. The slots are filled by
one precompiled ``struct.Struct.pack_into`` (cheaper than NumPy slice
assignments under ``np.errstate``).
"""

from __future__ import annotations

import ctypes
import struct
import sys
from typing import Any, Sequence

import numpy as np


class KernelLauncher:
    """The parameter block of one kernel function and argument layout.

    Args:
        driver: ``cupy.cuda.driver`` (``launchKernel``).
        function_ptr: the ``CUfunction`` handle.
        pointers: number of buffer arguments.
        words: number of u32 header arguments.
        scalars: number of uniforms.
        scalar_f64: uniforms are doubles (else floats).
    """

    def __init__(self, driver: Any, function_ptr: int, pointers: int, words: int,
                 scalars: int, scalar_f64: bool):
        self.layout = (pointers, words, scalars, scalar_f64)
        self._driver = driver
        self._function = function_ptr
        total = max(pointers + words + scalars, 1)
        # 8-byte slots: pointers, u32 words and f32 uniforms in the low half
        scalar_code = "d" if scalar_f64 else "f4x"
        self._struct = struct.Struct("<" + "Q" * pointers + "I4x" * words + scalar_code * scalars)
        self._block = ctypes.create_string_buffer(8 * total)
        base = ctypes.addressof(self._block)
        self._params = (ctypes.c_void_p * total)(*[base + 8 * k for k in range(total)])
        self._params_address = ctypes.addressof(self._params)

    def launch(self, grid: int, block: int, stream: int, pointers: Sequence[int],
               words: Sequence[int], scalars: Sequence[float]) -> None:
        """Fill the slots and issue the launch on ``stream`` (a CUstream)."""
        try:
            self._struct.pack_into(self._block, 0, *pointers, *words, *scalars)
        except OverflowError:
            # A double beyond the float range is MATLAB's single(x) = Inf, no warning.
            self._struct.pack_into(self._block, 0, *pointers, *words, *_as_single(scalars))
        self._driver.launchKernel(self._function, grid, 1, 1, block, 1, 1, 0, stream,
                                  self._params_address, 0)


def _as_single(values: Sequence[float]) -> list[float]:
    """``values`` rounded to single precision (beyond its range: +-Inf)."""
    with np.errstate(over="ignore"):
        return [float(v) for v in np.asarray(values, dtype=np.float64).astype(np.float32)]


def launcher_for(cupy: Any, function: Any, pointers: int, words: int, scalars: int,
                 scalar_f64: bool) -> KernelLauncher | None:
    """A launcher for ``function`` (a ``cupy.cuda.function.Function``), or
    None when the driver path is not available (a big-endian host, a CuPy
    without ``driver.launchKernel``, a RawKernel from CuPy's fallback)."""
    ptr = getattr(function, "ptr", None)
    driver = getattr(cupy.cuda, "driver", None)
    if sys.byteorder != "little" or not ptr or not hasattr(driver, "launchKernel"):
        return None
    return KernelLauncher(driver, int(ptr), pointers, words, scalars, scalar_f64)
