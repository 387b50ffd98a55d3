"""CudaProvider: the provider protocol on CuPy (NVRTC + cuBLAS/cuFFT/cuSOLVER).

Elementwise hooks on real data (double, single, logical and the integer
classes up to 32 bits) run one-node kernels of the fusion IR rendered from
the op table (``accelerate_api.elementwise_kernel``), the same CUDA
expressions as fused kernels; complex data runs the complex kernels of the
device code's complex table (``complex_kernels.py``); real floating-point
work the IR does not express uses CuPy's ufuncs (``elementwise.py``).

Buffers are 1-D CuPy arrays holding the elements in column-major order, from
CuPy's default memory pool; hooks view them with ``reshape(shape, order='F')``
(no copy) and store results back as 1-D column-major arrays. Library-backed
hooks call CuPy; what CuPy does not do MATLAB's way (integer conversion,
``round``, ``mod``, NaN-skipping ``cummax``, Philox streams) runs raw kernels
from ``kernels.py``. The array hooks (reductions, linear algebra, indexing,
signal, sort) are in ``hooks_array.py``.

Out of device memory in any hook frees what the call allocated and raises
``parallel:gpu:array:OOM`` (MATLAB's message).
"""

from __future__ import annotations

import itertools
import math
import time
import traceback
from collections import Counter
from typing import Any, Sequence

import numpy as np

from matfuse.accelerate.providers.cuda import complex_kernels
from matfuse.accelerate.providers.cuda import elementwise as ew
from matfuse.accelerate.providers.cuda import twister
from matfuse.accelerate.providers.cuda.cache import KernelCache
from matfuse.accelerate.providers._host import class_of, matlab_shape
from matfuse.accelerate.providers.cuda.launch import launcher_for
from matfuse.accelerate.providers.cuda.common import device_hook
from matfuse.accelerate.providers.cuda.hooks_array import ArrayHooks
from matfuse.accelerate.providers.cuda.hooks_factor import FactorHooks
from matfuse.accelerate.providers.cuda.kernels import CudaKernels
from matfuse.accelerate_api import (
    ProviderCapabilities,
    AccelProvider,
    DeviceInfo,
    GpuTensorHandle,
    HostTensor,
    Unsupported,
    elementwise_kernel,
)
from matfuse.accelerate_api.device_code import complex_table
from matfuse.accelerate_api.support import MatlabError

MAX_FUSED_THREADS = 2**31   # generated kernels index with 32-bit unsigned ints


class CudaProvider(ArrayHooks, FactorHooks, AccelProvider):
    """NVIDIA GPUs through CuPy.

    Args:
        device_index: CUDA device ordinal.
        cache_dir: NVRTC cubin cache (None: platformdirs default, "": memory only).
    """

    name = "cuda"
    capabilities = ProviderCapabilities(fuses=True, float64=True, hardware_gpu=True,
                                        kernel_language="cuda",
                                        worker_device_variable="CUDA_VISIBLE_DEVICES")

    def __init__(self, device_index: int = 0, cache_dir: str | None = None):
        import cupy

        self.cp = cupy
        self.device_index = int(device_index)
        self.device = cupy.cuda.Device(self.device_index)
        self.device.use()
        self.props = cupy.cuda.runtime.getDeviceProperties(self.device_index)
        self.pool = cupy.get_default_memory_pool()
        self._oom_error = cupy.cuda.memory.OutOfMemoryError
        self.cache = KernelCache(cupy, cache_dir)
        sms = int(self.props.get("multiProcessorCount", 1) or 1)
        self.max_blocks = sms * 32      # enough resident blocks; kernels grid-stride
        self.kernels = CudaKernels(cupy, self.cache, self.max_blocks)
        self._fused_functions: dict[tuple[str, str], Any] = {}
        self._bufs: dict[int, Any] = {}
        self._classes: dict[int, str] = {}
        self._ids = itertools.count(1)
        self._counters: Counter[str] = Counter()
        self._op_counts: Counter[str] = Counter()

    # ------------------------------------------------------------ helpers
    def _store(self, arr: Any, matlab_class: str | None = None) -> GpuTensorHandle:
        cp = self.cp
        arr = cp.asarray(arr)
        shape = matlab_shape(arr.shape)
        flat = cp.ravel(arr, order="F")
        buffer_id = next(self._ids)
        self._bufs[buffer_id] = flat
        self._classes[buffer_id] = matlab_class or class_of(flat.dtype)
        return GpuTensorHandle(shape, self.device_index, buffer_id, flat.dtype.name)

    def _store_flat(self, flat: Any, shape: Sequence[int], dtype: str) -> GpuTensorHandle:
        """``_store`` for a new contiguous 1-D buffer of NumPy dtype name
        ``dtype`` holding an array of ``shape`` in column-major order (kernel
        outputs): no reshape/ravel, no dtype lookups (``ndarray.dtype.name``
        is a visible share of a launch)."""
        buffer_id = next(self._ids)
        self._bufs[buffer_id] = flat
        cls = _CLASS_OF_DTYPE.get(dtype)
        self._classes[buffer_id] = cls if cls is not None else class_of(flat.dtype)
        return GpuTensorHandle(matlab_shape(shape), self.device_index, buffer_id, dtype)

    def _flat(self, h: GpuTensorHandle) -> Any:
        try:
            return self._bufs[h.buffer_id]
        except KeyError:
            raise MatlabError("parallel:gpu:array:InvalidData",
                              "The data no longer exists on the device.") from None

    def _get(self, h: GpuTensorHandle) -> Any:
        """The buffer viewed in its MATLAB shape (Fortran order, no copy)."""
        return self._flat(h).reshape(h.shape, order="F")

    def _val(self, x: Any) -> Any:
        return self._get(x) if isinstance(x, GpuTensorHandle) else x

    def _release_after_oom(self, err: BaseException) -> None:
        # The failed hook's frames hold its partial allocations: clear them,
        # then hand cached blocks back to the driver.
        if err.__traceback__ is not None:
            traceback.clear_frames(err.__traceback__)
        err.__traceback__ = None
        self.pool.free_all_blocks()
        self._counters["oom"] += 1

    def cast_to(self, x: Any, dtype: str) -> Any:
        """MATLAB conversion (integers round half away and saturate; logical is ~= 0)."""
        cp = self.cp
        dt = np.dtype(dtype)
        x = cp.asarray(x)
        if dt == np.bool_:
            return x != 0
        if dt.kind in "iu":
            if x.dtype.kind == "c":
                x = x.real
            if x.dtype == dt:
                return x
            return self.kernels.to_integer(x, dt.name)
        if dt.kind == "f" and x.dtype.kind == "c":
            return x.real.astype(dt)
        return x.astype(dt, copy=False)

    # ------------------------------------------------------------ memory
    @device_hook("upload", dispatch=False)
    def upload(self, host: HostTensor) -> GpuTensorHandle:
        self._counters["uploads"] += 1
        self._counters["upload_bytes"] += host.data.nbytes
        flat = self.cp.asarray(np.ascontiguousarray(host.data).reshape(-1))
        buffer_id = next(self._ids)
        self._bufs[buffer_id] = flat
        self._classes[buffer_id] = host.matlab_class
        return GpuTensorHandle(matlab_shape(host.shape), self.device_index, buffer_id, flat.dtype.name)

    def download(self, handle: GpuTensorHandle) -> HostTensor:
        flat = self._flat(handle)
        self._counters["downloads"] += 1
        self._counters["download_bytes"] += flat.nbytes
        data = np.ascontiguousarray(self.cp.asnumpy(flat))
        return HostTensor(data, tuple(handle.shape), self._classes.get(handle.buffer_id, "double"))

    def free(self, handle: GpuTensorHandle) -> None:
        self._bufs.pop(handle.buffer_id, None)
        self._classes.pop(handle.buffer_id, None)

    def device_count(self) -> int:
        """CUDA devices visible to this process."""
        return int(self.cp.cuda.runtime.getDeviceCount())

    def device_info(self) -> str:
        return f"{_text(self.props.get('name', b'NVIDIA GPU'))} via CUDA (CuPy {self.cp.__version__})"

    def device_info_struct(self) -> DeviceInfo:
        free, total = self.cp.cuda.runtime.memGetInfo()
        p = self.props
        limits = {k: int(p[k]) for k in ("maxThreadsPerBlock", "sharedMemPerBlock",
                                          "multiProcessorCount", "warpSize") if k in p}
        extra: dict[str, object] = {
            "compute_capability": f"{p.get('major', 0)}.{p.get('minor', 0)}",
            "cuda_runtime": int(self.cp.cuda.runtime.runtimeGetVersion()),
            "cupy": str(self.cp.__version__),
            "kernel_cache": str(self.cache.cache_dir or "memory"),
        }
        return DeviceInfo(name=_text(p.get("name", b"NVIDIA GPU")), vendor="NVIDIA", backend="cuda",
                          device_id=self.device_index, total_memory=int(total),
                          available_memory=int(free), supports_double=True,
                          precision_policy="f64", limits=limits, extra=extra)

    # ------------------------------------------------------------ lifecycle
    def synchronize(self) -> None:
        self._counters["synchronizes"] += 1
        self.device.synchronize()

    def live_buffers(self) -> int:
        return len(self._bufs)

    def reset(self) -> None:
        self._bufs.clear()
        self._classes.clear()
        self.device.synchronize()
        self.pool.free_all_blocks()

    # ------------------------------------------------------------ construction
    @device_hook()
    def fill(self, shape: tuple[int, ...], value: complex | float, dtype: str) -> GpuTensorHandle:
        n = int(np.prod(shape, dtype=np.int64))
        from matfuse.accelerate.providers import numpy_kernels as nk

        scalar = nk.cast_to(np.asarray(value), dtype).item()   # MATLAB rules, on the host
        return self._store(self.cp.full(n, scalar, dtype=dtype).reshape(shape, order="F"))

    @device_hook()
    def eye(self, shape: tuple[int, ...], dtype: str) -> GpuTensorHandle:
        cp = self.cp
        n = int(np.prod(shape, dtype=np.int64))
        flat = cp.zeros(n, dtype=dtype)
        if n:
            m, cols = shape[0], shape[1]
            k = min(m, cols)
            pages = n // (m * cols)
            idx = cp.arange(k) * (m + 1) + (cp.arange(pages) * (m * cols))[:, None]
            flat[idx.reshape(-1)] = 1
        return self._store(flat.reshape(shape, order="F"))

    @device_hook()
    def linspace(self, start: float, stop: float, n: int, dtype: str) -> GpuTensorHandle:
        cp = self.cp
        if n < 1:
            out = cp.zeros((1, 0))
        elif n == 1:
            out = cp.full((1, 1), stop, dtype=np.float64)
        else:
            out = start + cp.arange(n, dtype=np.float64) * ((stop - start) / (n - 1))
            out[0], out[-1] = start, stop
        return self._store(self.cast_to(out.reshape(1, -1), dtype))

    @device_hook()
    def colon(self, start: float, step: float, n: int, dtype: str) -> GpuTensorHandle:
        out = start + self.cp.arange(max(n, 0), dtype=np.float64) * step
        return self._store(self.cast_to(out.reshape(1, -1), dtype))

    @device_hook()
    def random_uniform(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                       counter: int) -> GpuTensorHandle:
        n = int(np.prod(shape, dtype=np.int64))
        flat = self.kernels.random(False, n, dtype, key, counter)
        return self._store(flat.reshape(shape, order="F"))

    @device_hook()
    def random_normal(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                      counter: int) -> GpuTensorHandle:
        n = int(np.prod(shape, dtype=np.int64))
        flat = self.kernels.random(True, n, dtype, key, counter)
        return self._store(flat.reshape(shape, order="F"))

    @device_hook()
    def random_twister(self, kind: str, shape: tuple[int, ...], dtype: str,
                       state: GpuTensorHandle, pos: int,
                       limits: tuple[float, float] = (1.0, 1.0)) -> GpuTensorHandle:
        dtype = {"double": "float64", "single": "float32"}.get(dtype, dtype)
        if kind not in twister.OUTPUT_DTYPES or dtype not in twister.OUTPUT_DTYPES[kind]:
            raise Unsupported(f"cuda: twister {kind} of {dtype}")
        if state.dtype != "uint32" or int(np.prod(state.shape)) != 624:
            raise Unsupported("cuda: twister state must be 624 uint32 words")
        n = int(np.prod(shape, dtype=np.int64))
        flat = twister.draw(self.kernels, kind, n, dtype, self._flat(state), pos, limits)
        return self._store_flat(flat, shape, dtype)

    # ------------------------------------------------------------ elementwise
    @device_hook()
    def elem_binary(self, op: str, a: Any, b: Any, out_dtype: str) -> GpuTensorHandle:
        return self._elementwise(op, (a, b), out_dtype)

    @device_hook()
    def elem_unary(self, op: str, a: GpuTensorHandle, out_dtype: str) -> GpuTensorHandle:
        return self._elementwise(op, (a,), out_dtype)

    def _elementwise(self, op: str, operands: Sequence[Any], out_dtype: str) -> GpuTensorHandle:
        """A one-node kernel of the fusion IR; else complex data's kernels
        (CuPy's complex ufuncs for functions the complex table lacks); else
        CuPy for real floating-point data (Unsupported for the rest)."""
        out = self._one_node(op, operands, out_dtype)
        if out is not None:
            return out
        if complex_kernels.is_complex_call(op, operands, out_dtype):
            if len(operands) == 1 and complex_table.lookup(op, 1) is None:
                return self._store(ew.complex_unary(self, op, self._get(operands[0]), out_dtype))
            flat, shape = complex_kernels.elementwise(self, op, operands, out_dtype)
            return self._store_flat(flat, shape, out_dtype)
        ew.check_real_floats(op, operands, out_dtype)
        if len(operands) == 1:
            return self._store(ew.unary(self, op, self._get(operands[0]), out_dtype))
        a, b = operands
        return self._store(ew.binary(self, op, self._val(a), self._val(b), out_dtype))

    def _one_node(self, op: str, operands: Sequence[Any], out_dtype: str) -> GpuTensorHandle | None:
        """``op`` as a one-node kernel of the fusion IR (the op table's CUDA
        expression, compiled by NVRTC), or None where the IR does not
        express it. A raised domain flag is ignored: the hook's real result
        is NaN there, as MATLAB's complex results are the caller's to ask for."""
        kernel = elementwise_kernel(self, op, operands, out_dtype)
        if kernel is None:
            return None
        try:
            outs = self._run_rendered(kernel, [n.handle for n in kernel.inputs], kernel.scalars,
                                      kernel.outputs)
        except Unsupported:
            return None
        if kernel.has_flag:
            self.free(outs.pop())
        return outs[0]

    @device_hook()
    def cast(self, a: GpuTensorHandle, dtype: str) -> GpuTensorHandle:
        return self._store(self.cast_to(self._get(a), dtype))

    # ------------------------------------------------------------ fused kernels
    @device_hook()
    def fused_elementwise(self, kernel: Any, inputs: Sequence[GpuTensorHandle],
                          scalars: Sequence[complex | float],
                          outputs: Sequence[tuple[tuple[int, ...], str]]) -> list[GpuTensorHandle]:
        """Run a CudaRenderer kernel: pointer arguments (inputs, outputs, flag)
        in binding order, then the header words (u32) and the scalars (of
        ``kernel.float_type``); see ``fusion/render_cuda.py``."""
        return self._run_rendered(kernel, inputs, scalars, outputs)

    def _run_rendered(self, kernel: Any, inputs: Sequence[GpuTensorHandle],
                      scalars: Sequence[complex | float],
                      outputs: Sequence[tuple[tuple[int, ...], str]]) -> list[GpuTensorHandle]:
        threads = int(kernel.threads)
        if threads >= MAX_FUSED_THREADS:
            raise Unsupported("fused_elementwise: more than 2**31 threads")
        cp = self.cp
        # RenderedKernel.cache_key hashes the source: skip re-hashing (and
        # re-checking) the source per launch.
        fast_key = (kernel.cache_key or kernel.source, kernel.entry_point)
        entry = self._fused_functions.get(fast_key)
        if entry is None:
            source = kernel.source
            if "__global__" not in source:
                raise Unsupported("fused_elementwise: not a CUDA kernel")
            fn = self.cache.function(source, kernel.entry_point)
            launcher = launcher_for(cp, fn, len(inputs) + len(outputs), len(kernel.header),
                                    len(scalars), kernel.float_type == "f64")
            entry = self._fused_functions[fast_key] = (fn, launcher)
        else:
            self.cache.stats["hits"] += 1
        fn, launcher = entry
        ins = [self._flat(h) for h in inputs]
        if kernel.vector_width > 1:
            # Vector loads need 16-byte aligned buffers; a view into the
            # middle of an allocation is copied (pool allocations are aligned).
            ins = [x if _aligned(x) else x.copy() for x in ins]
        outs = []
        for k, (shape, dtype) in enumerate(outputs):
            n = math.prod(shape)
            is_flag = kernel.has_flag and k == len(outputs) - 1
            outs.append(cp.zeros(n, dtype=dtype) if is_flag else cp.empty(n, dtype=dtype))
        block = int(kernel.workgroup_size)
        if threads > 0:
            start = time.perf_counter()
            grid = max(1, min(-(-threads // block), self.max_blocks))
            if launcher is not None and launcher.layout[:3] == (len(ins) + len(outs), len(kernel.header),
                                                                len(scalars)):
                launcher.launch(grid, block, cp.cuda.get_current_stream().ptr,
                                [a.data.ptr for a in ins] + [o.data.ptr for o in outs],
                                kernel.header, scalars)
            else:
                sdt = np.float64 if kernel.float_type == "f64" else np.float32
                args = (*ins, *outs, *(np.uint32(h) for h in kernel.header), *(sdt(s) for s in scalars))
                fn((grid,), (block,), args)
            self._counters["fused_launch_ns"] += int((time.perf_counter() - start) * 1e9)
        return [self._store_flat(o, shape, dtype) for o, (shape, dtype) in zip(outs, outputs)]

    # ------------------------------------------------------------ telemetry
    def telemetry(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: self._counters.get(k, 0) for k in (
            "dispatches", "uploads", "upload_bytes", "downloads", "download_bytes",
            "synchronizes", "oom", "fused_launch_ns")}
        out["pipeline_cache_hits"] = self.cache.stats["hits"]
        out["pipeline_cache_misses"] = self.cache.stats["misses"]
        out["kernel_cache"] = dict(self.cache.stats)
        out["per_op"] = dict(self._op_counts)
        out["live_buffers"] = len(self._bufs)
        out["pool_used_bytes"] = int(self.pool.used_bytes())
        out["pool_total_bytes"] = int(self.pool.total_bytes())
        return out

    def reset_telemetry(self) -> None:
        self._counters.clear()
        self._op_counts.clear()


# MATLAB classes of the dtype names kernels write (``class_of`` for others).
_CLASS_OF_DTYPE = {"float32": "single", "float64": "double", "bool": "logical",
                   "complex64": "single", "complex128": "double"}


def _aligned(x: Any) -> bool:
    ptr = getattr(getattr(x, "data", None), "ptr", None)
    return ptr is None or ptr % 16 == 0


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, (bytes, bytearray)) else str(value)
