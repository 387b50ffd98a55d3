"""A NumPy-backed stand-in for the part of CuPy the CUDA provider uses (tests only).

Arrays are NumPy arrays; array functions are NumPy's; ``cupyx.scipy`` is
SciPy. NVRTC "compiles" by keeping the source, and launching a function runs
the CUDA C on the CPU through ``g++`` (``tests/accelerate/cuda_host.py``; the
kernels are grid-stride loops, so one host thread computes everything). This
checks the provider's own logic and raw kernels on machines without a GPU;
it says nothing about CuPy's API details, which the GPU run checks.
"""

from __future__ import annotations

import sys
import types
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
import scipy.linalg
import scipy.signal
import scipy.special

from tests.accelerate import cuda_host


class _Device:
    compute_capability = "90"

    def __init__(self, index: int = 0):
        self.id = index

    def use(self) -> None:
        pass

    def synchronize(self) -> None:
        pass


class _Pool:
    def free_all_blocks(self) -> None:
        pass

    def used_bytes(self) -> int:
        return 0

    def total_bytes(self) -> int:
        return 0


class CUDARuntimeError(RuntimeError):
    pass


class NVRTCError(RuntimeError):
    pass


class _Function:
    def __init__(self, source: str, name: str):
        self.source, self.name = source, name

    def __call__(self, grid: tuple, block: tuple, args: tuple, shared_mem: int = 0) -> None:
        cuda_host.call(self.source, self.name, args)


class _Module:
    def __init__(self) -> None:
        self.source = ""

    def load(self, cubin: bytes) -> None:
        self.source = cubin.decode()

    def get_function(self, name: str) -> _Function:
        return _Function(self.source, name)


class _Nvrtc(types.ModuleType):
    NVRTCError = NVRTCError

    def __init__(self) -> None:
        super().__init__("cupy.cuda.nvrtc")
        self._programs: dict[int, str] = {}

    def getVersion(self) -> tuple[int, int]:
        return (12, 0)

    def createProgram(self, src: str, name: str, headers: list, include_names: list) -> int:
        key = len(self._programs) + 1
        self._programs[key] = src
        return key

    def compileProgram(self, prog: int, options: list) -> None:
        cuda_host.load(self._programs[prog])       # a g++ error surfaces here

    def getCUBIN(self, prog: int) -> bytes:
        return self._programs[prog].encode()

    def getProgramLog(self, prog: int) -> str:
        return ""

    def destroyProgram(self, prog: int) -> None:
        self._programs.pop(prog, None)


def _build() -> dict[str, types.ModuleType]:
    cupy = types.ModuleType("cupy")
    cupy.__version__ = "fake-numpy"
    cupy.__getattr__ = lambda name: getattr(np, name)      # array functions are NumPy's
    cupy.asnumpy = lambda a: np.array(a, copy=True)
    # CuPy's sort and argsort are stable (its documented only kind)
    cupy.argsort = lambda a, axis=-1, kind=None: np.argsort(a, axis=axis, kind="stable")
    cupy.sort = lambda a, axis=-1, kind=None: np.sort(a, axis=axis, kind="stable")
    cupy.get_default_memory_pool = lambda: _POOL
    cuda = types.ModuleType("cupy.cuda")
    cuda.Device = _Device
    runtime = types.ModuleType("cupy.cuda.runtime")
    runtime.CUDARuntimeError = CUDARuntimeError
    runtime.getDeviceCount = lambda: 1
    runtime.runtimeGetVersion = lambda: 12000
    runtime.memGetInfo = lambda: (8 << 30, 16 << 30)
    runtime.getDeviceProperties = lambda i: {
        "name": b"Fake NumPy GPU", "multiProcessorCount": 4, "major": 9, "minor": 0,
        "maxThreadsPerBlock": 1024, "warpSize": 32, "sharedMemPerBlock": 49152,
        "totalGlobalMem": 16 << 30}
    memory = types.ModuleType("cupy.cuda.memory")
    memory.OutOfMemoryError = MemoryError
    function = types.ModuleType("cupy.cuda.function")
    function.Module = _Module
    cuda.runtime, cuda.memory, cuda.function, cuda.nvrtc = runtime, memory, function, _Nvrtc()
    cupy.cuda = cuda
    cupyx = types.ModuleType("cupyx")
    cupyx_scipy = types.ModuleType("cupyx.scipy")
    cupyx.scipy = cupyx_scipy
    cupyx_scipy.special = scipy.special
    cupyx_scipy.signal = scipy.signal
    cupyx_scipy.linalg = scipy.linalg
    return {"cupy": cupy, "cupy.cuda": cuda, "cupy.cuda.runtime": runtime,
            "cupy.cuda.memory": memory, "cupy.cuda.function": function,
            "cupy.cuda.nvrtc": cuda.nvrtc, "cupyx": cupyx, "cupyx.scipy": cupyx_scipy,
            "cupyx.scipy.special": scipy.special, "cupyx.scipy.signal": scipy.signal,
            "cupyx.scipy.linalg": scipy.linalg}


_POOL = _Pool()


@contextmanager
def installed() -> Iterator[Any]:
    """``import cupy`` gives the fake inside the block."""
    modules = _build()
    saved = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield modules["cupy"]
    finally:
        for name, old in saved.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old
