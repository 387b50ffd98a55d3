"""InProcessProvider: every provider hook in NumPy.

It is the reference (oracle) that GPU providers are tested against and the
fallback when no GPU is usable. Buffers are ndarrays in MATLAB shape, kept in
a dict keyed by ``buffer_id``.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from typing import Any, Sequence

import numpy as np

from matfuse.accelerate.providers import numpy_kernels as nk
from matfuse.accelerate.providers._host import class_of, matlab_shape
from matfuse.accelerate_api import (
    ProviderCapabilities,
    AccelProvider,
    DeviceInfo,
    GpuTensorHandle,
    HostTensor,
    Unsupported,
)
from matfuse.accelerate_api.support import MatlabError
from matfuse.accelerate_api.support import philox, twister
from matfuse.accelerate_api.range_selection import host_range_positions
from matfuse.accelerate_api.factor_rows import rows_of_swaps

Operand = GpuTensorHandle | float | complex


class InProcessProvider(AccelProvider):
    """NumPy implementation of the whole :class:`AccelProvider` protocol."""

    name = "inprocess"
    capabilities = ProviderCapabilities(fuses=False, float64=True, hardware_gpu=False)

    def __init__(self, device_id: int = 0):
        self.device_id = device_id
        self._buffers: dict[int, np.ndarray] = {}
        self._classes: dict[int, str] = {}
        self._ids = itertools.count(1)
        self._counters: Counter[str] = Counter()
        self._op_counts: Counter[str] = Counter()

    # ------------------------------------------------------------ helpers
    def _store(self, arr: np.ndarray, matlab_class: str | None = None) -> GpuTensorHandle:
        arr = np.asarray(arr)
        shape = matlab_shape(arr.shape)
        # Fortran order keeps the column-major flat view a view (in-place scatter).
        arr = np.asfortranarray(arr.reshape(shape, order="F"))
        buffer_id = next(self._ids)
        self._buffers[buffer_id] = arr
        self._classes[buffer_id] = matlab_class or class_of(arr.dtype)
        return GpuTensorHandle(shape, self.device_id, buffer_id, arr.dtype.name)

    def _get(self, h: GpuTensorHandle) -> np.ndarray:
        try:
            return self._buffers[h.buffer_id]
        except KeyError:
            raise MatlabError("parallel:gpu:array:InvalidData",
                              "The data no longer exists on the device.") from None

    def _val(self, x: Operand) -> Any:
        return self._get(x) if isinstance(x, GpuTensorHandle) else x

    def _dispatch(self, op: str) -> None:
        self._counters["dispatches"] += 1
        self._op_counts[op] += 1

    # ------------------------------------------------------------ memory
    def upload(self, host: HostTensor) -> GpuTensorHandle:
        self._counters["uploads"] += 1
        self._counters["upload_bytes"] += host.data.nbytes
        data = np.array(host.data, copy=True).reshape(host.shape, order="F")
        return self._store(data, host.matlab_class)

    def download(self, handle: GpuTensorHandle) -> HostTensor:
        arr = self._get(handle)
        self._counters["downloads"] += 1
        self._counters["download_bytes"] += arr.nbytes
        return HostTensor.from_array(arr.copy(order="F"), self._classes.get(handle.buffer_id))

    def free(self, handle: GpuTensorHandle) -> None:
        self._buffers.pop(handle.buffer_id, None)
        self._classes.pop(handle.buffer_id, None)

    def device_info(self) -> str:
        return "In-process NumPy reference (CPU)"

    def device_info_struct(self) -> DeviceInfo:
        total = _physical_memory()
        used = sum(a.nbytes for a in self._buffers.values())
        return DeviceInfo(name="InProcess NumPy", vendor="matfuse", backend="numpy",
                          device_id=self.device_id, total_memory=total,
                          available_memory=max(total - used, 0), supports_double=True,
                          precision_policy="f64")

    # ------------------------------------------------------------ lifecycle
    def synchronize(self) -> None:
        self._counters["synchronizes"] += 1

    def live_buffers(self) -> int:
        return len(self._buffers)

    def reset(self) -> None:
        self._buffers.clear()
        self._classes.clear()

    # ------------------------------------------------------------ construction
    def fill(self, shape: tuple[int, ...], value: complex | float, dtype: str) -> GpuTensorHandle:
        self._dispatch("fill")
        return self._store(nk.cast_to(np.full(shape, value), dtype))

    def eye(self, shape: tuple[int, ...], dtype: str) -> GpuTensorHandle:
        self._dispatch("eye")
        out = np.zeros(shape, dtype=dtype)
        k = min(shape[0], shape[1]) if len(shape) >= 2 else 0
        out[np.arange(k), np.arange(k), ...] = 1
        return self._store(out)

    def linspace(self, start: float, stop: float, n: int, dtype: str) -> GpuTensorHandle:
        self._dispatch("linspace")
        if n < 1:
            out = np.zeros((1, 0))
        elif n == 1:
            out = np.array([[stop]], dtype=np.float64)
        else:
            out = start + np.arange(n) * ((stop - start) / (n - 1))
            out[0], out[-1] = start, stop
        return self._store(nk.cast_to(np.asarray(out).reshape(1, -1), dtype))

    def colon(self, start: float, step: float, n: int, dtype: str) -> GpuTensorHandle:
        self._dispatch("colon")
        out = start + np.arange(max(n, 0)) * step
        return self._store(nk.cast_to(out.reshape(1, -1), dtype))

    def random_uniform(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                       counter: int) -> GpuTensorHandle:
        self._dispatch("random_uniform")
        n = int(np.prod(shape))
        return self._store(philox.philox_uniform(n, key, counter, dtype).astype(dtype).reshape(shape, order="F"))

    def random_normal(self, shape: tuple[int, ...], dtype: str, key: tuple[int, int],
                      counter: int) -> GpuTensorHandle:
        self._dispatch("random_normal")
        n = int(np.prod(shape))
        return self._store(philox.philox_normal(n, key, counter, dtype).astype(dtype).reshape(shape, order="F"))

    def random_twister(self, kind: str, shape: tuple[int, ...], dtype: str,
                       state: GpuTensorHandle, pos: int,
                       limits: tuple[float, float] = (1.0, 1.0)) -> GpuTensorHandle:
        self._dispatch("random_twister")
        words = self._val(state)
        values, after = twister.draw(words, pos, kind, int(np.prod(shape)), dtype, limits)
        words.reshape(-1)[:] = after
        return self._store(values.reshape(shape, order="F"))

    # ------------------------------------------------------------ elementwise
    def elem_binary(self, op: str, a: Operand, b: Operand, out_dtype: str) -> GpuTensorHandle:
        if op not in nk.BINARY:
            raise Unsupported(f"elem_binary:{op}")
        self._dispatch(op)
        return self._store(nk.elem_binary(op, self._val(a), self._val(b), out_dtype))

    def elem_unary(self, op: str, a: GpuTensorHandle, out_dtype: str) -> GpuTensorHandle:
        if op not in nk.UNARY:
            raise Unsupported(f"elem_unary:{op}")
        self._dispatch(op)
        return self._store(nk.elem_unary(op, self._get(a), out_dtype))

    def cast(self, a: GpuTensorHandle, dtype: str) -> GpuTensorHandle:
        self._dispatch("cast")
        return self._store(nk.cast_to(self._get(a), dtype))

    # ------------------------------------------------------------ reductions, scans
    def reduce(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
               omitnan: bool, out_dtype: str) -> GpuTensorHandle:
        self._dispatch(f"reduce_{op}")
        axes = None if dims is None else tuple(dims)
        return self._store(nk.reduce(op, self._get(a), axes, omitnan, out_dtype))

    def reduce_with_index(self, op: str, a: GpuTensorHandle, dim: int,
                          omitnan: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        self._dispatch(f"reduce_index_{op}")
        vals, idx = nk.reduce_with_index(op, self._get(a), dim, omitnan)
        return self._store(vals), self._store(idx)

    def moments(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
                weight: int, omitnan: bool) -> GpuTensorHandle:
        self._dispatch(op)
        axes = None if dims is None else tuple(dims)
        return self._store(nk.moments(op, self._get(a), axes, weight, omitnan))

    def scan(self, op: str, a: GpuTensorHandle, dim: int, reverse: bool) -> GpuTensorHandle:
        self._dispatch(op)
        return self._store(nk.scan(op, self._get(a), dim, reverse))

    # ------------------------------------------------------------ linear algebra
    def matmul(self, a: GpuTensorHandle, b: GpuTensorHandle) -> GpuTensorHandle:
        self._dispatch("matmul")
        return self._store(self._get(a) @ self._get(b))

    def permute(self, a: GpuTensorHandle, order: Sequence[int]) -> GpuTensorHandle:
        self._dispatch("permute")
        x = self._get(a)
        order = tuple(order)
        if len(order) > x.ndim:
            x = x.reshape(x.shape + (1,) * (len(order) - x.ndim))
        return self._store(np.transpose(x, order).copy(order="F"))

    def triangular(self, a: GpuTensorHandle, k: int, upper: bool) -> GpuTensorHandle:
        self._dispatch("triu" if upper else "tril")
        x = self._get(a)
        return self._store(np.triu(x, k) if upper else np.tril(x, k))

    def diag(self, a: GpuTensorHandle, k: int) -> GpuTensorHandle:
        self._dispatch("diag")
        x = self._get(a)
        if x.ndim == 2 and 1 in x.shape:
            return self._store(np.diag(x.reshape(-1, order="F"), k))
        return self._store(np.diag(x, k).reshape(-1, 1))

    def solve(self, a: GpuTensorHandle, b: GpuTensorHandle) -> GpuTensorHandle:
        self._dispatch("solve")
        x, y = self._get(a), self._get(b)
        if x.shape[0] == x.shape[1]:
            return self._store(np.linalg.solve(x, y))
        return self._store(np.linalg.lstsq(x, y, rcond=None)[0])

    def lu_solve(self, a: GpuTensorHandle,
                 b: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """SciPy's ``lu_factor``/``lu_solve``: the host's own ``\\``."""
        import warnings

        import scipy.linalg

        self._dispatch("lu_solve")
        x, y = self._get(a), self._get(b)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                lu, piv = scipy.linalg.lu_factor(x, check_finite=False)
                out = scipy.linalg.lu_solve((lu, piv), y, check_finite=False)
        singular = float(np.any(np.diag(lu) == 0))
        return self._store(out.astype(x.dtype, copy=False)), self._store(np.array([[singular]]))

    def svd(self, a: GpuTensorHandle, vectors: str) -> tuple[GpuTensorHandle, ...]:
        """NumPy's LAPACK ``gesdd`` in double, cast back: the host's own svd."""
        self._dispatch("svd")
        x = self._get(a)
        work = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
        real = np.float32 if x.dtype in (np.float32, np.complex64) else np.float64
        if vectors == "none":
            return (self._store(np.linalg.svd(work, compute_uv=False).astype(real).reshape(-1, 1)),)
        u, s, vh = np.linalg.svd(work, full_matrices=vectors == "full")
        return (self._store(u.astype(x.dtype)), self._store(s.astype(real).reshape(-1, 1)),
                self._store(vh.conj().T.astype(x.dtype)))

    def qr(self, a: GpuTensorHandle, econ: bool, want_q: bool,
           pivot: bool) -> tuple[GpuTensorHandle, ...]:
        """SciPy's ``qr`` (LAPACK ``geqrf``/``geqp3``) in double, cast back."""
        import scipy.linalg

        self._dispatch("qr")
        x = self._get(a)
        work = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
        m, n = work.shape
        k = min(m, n)
        mode = "economic" if econ else "full"
        if want_q:
            out = scipy.linalg.qr(work, mode=mode, pivoting=pivot, check_finite=False)
            q, r = out[0], out[1]
        else:
            out = scipy.linalg.qr(work, mode="r", pivoting=pivot, check_finite=False)
            q, r = None, np.triu(out[0])
            r = r[:k, :] if econ else np.vstack([r, np.zeros((m - r.shape[0], n), r.dtype)])
        results = [] if q is None else [self._store(q.astype(x.dtype))]
        results.append(self._store(r.astype(x.dtype)))
        if pivot:
            results.append(self._store((out[-1] + 1.0).reshape(1, -1)))
        return tuple(results)

    def lu_factor(self, a: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """SciPy's ``lu_factor`` (LAPACK ``getrf``) in double, cast back."""
        import warnings

        import scipy.linalg

        self._dispatch("lu_factor")
        x = self._get(a)
        work = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")       # a zero pivot is no error here
            packed, piv = scipy.linalg.lu_factor(work, check_finite=False)
        return self._store(packed.astype(x.dtype)), self._store(rows_of_swaps(piv, x.shape[0]))

    # ------------------------------------------------------------ indexing, scatter
    def range_positions(self, axes: Sequence[tuple[int, int, int, int]], base: int,
                        shape: tuple[int, ...]) -> GpuTensorHandle:
        self._dispatch("range_positions")
        return self._store(host_range_positions(axes, base, shape).astype(np.int32))

    def index_gather(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                     out_shape: tuple[int, ...]) -> GpuTensorHandle:
        self._dispatch("index_gather")
        flat = self._get(a).reshape(-1, order="F")
        idx = self._get(linear_index).reshape(-1, order="F").astype(np.int64)
        return self._store(flat[idx].reshape(out_shape, order="F"))

    def index_scatter(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                      values: Operand) -> GpuTensorHandle:
        self._dispatch("index_scatter")
        x = self._get(a)
        flat = x.reshape(-1, order="F").copy()
        idx = self._get(linear_index).reshape(-1, order="F").astype(np.int64)
        vals = self._val(values)
        vals = vals.reshape(-1, order="F") if isinstance(vals, np.ndarray) else vals
        flat[idx] = nk.cast_to(vals, x.dtype.name)
        return self._store(flat.reshape(x.shape, order="F"))

    def index_scatter_inplace(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                              values: Operand) -> None:
        self._dispatch("index_scatter_inplace")
        x = self._get(a)
        flat = x.reshape(-1, order="F")
        idx = self._get(linear_index).reshape(-1, order="F").astype(np.int64)
        vals = self._val(values)
        vals = vals.reshape(-1, order="F") if isinstance(vals, np.ndarray) else vals
        if not np.shares_memory(flat, x):
            raise Unsupported("index_scatter_inplace: non-contiguous buffer")
        flat[idx] = nk.cast_to(vals, x.dtype.name)

    def accumulate(self, op: str, index: GpuTensorHandle, values: GpuTensorHandle,
                   shape: tuple[int, ...], fill: float) -> GpuTensorHandle:
        """``np.add.at`` / ``np.fmax.at`` / ``np.fmin.at`` in index order."""
        self._dispatch(f"accumulate_{op}")
        idx = self._get(index).reshape(-1, order="F").astype(np.int64)
        vals = self._get(values).reshape(-1, order="F").astype(np.float64)
        total = int(np.prod(shape))
        counts = np.bincount(idx, minlength=total)
        if op == "sum":
            out = np.zeros(total)
            np.add.at(out, idx, vals)
        else:
            out = np.full(total, np.nan)       # a position of only NaN stays NaN
            (np.fmax if op == "max" else np.fmin).at(out, idx, vals)
        out = np.where(counts > 0, out, fill)
        return self._store(out.reshape(shape, order="F"))

    def find(self, a: GpuTensorHandle) -> GpuTensorHandle:
        self._dispatch("find")
        flat = self._get(a).reshape(-1, order="F")
        return self._store((np.flatnonzero(flat) + 1).astype(np.float64).reshape(-1, 1))

    def concat(self, parts: Sequence[GpuTensorHandle], dim: int) -> GpuTensorHandle:
        self._dispatch("concat")
        arrays = [self._get(p) for p in parts]
        nd = max(dim + 1, max(x.ndim for x in arrays))
        arrays = [x.reshape(x.shape + (1,) * (nd - x.ndim)) for x in arrays]
        return self._store(np.concatenate(arrays, axis=dim))

    # ------------------------------------------------------------ signal, polynomial, sort
    def conv1d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        self._dispatch("conv1d")
        return self._store(nk.conv1d(self._get(a), self._get(b), mode))

    def conv2d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        self._dispatch("conv2d")
        return self._store(nk.conv2d(self._get(a), self._get(b), mode))

    def filter(self, b: GpuTensorHandle, a: GpuTensorHandle, x: GpuTensorHandle,
               dim: int) -> GpuTensorHandle:
        from scipy import signal

        self._dispatch("filter")
        bb = self._get(b).reshape(-1, order="F")
        aa = self._get(a).reshape(-1, order="F")
        return self._store(signal.lfilter(bb / aa[0], aa / aa[0], self._get(x), axis=dim))

    def reshape(self, a: GpuTensorHandle, shape: tuple[int, ...]) -> GpuTensorHandle:
        self._dispatch("reshape")
        return self._store(self._get(a).reshape(shape, order="F").copy(order="F"))

    def histogram(self, x: GpuTensorHandle, edges: GpuTensorHandle) -> GpuTensorHandle:
        self._dispatch("histogram")
        e = self._get(edges).reshape(-1).astype(np.float64)
        v = self._get(x).reshape(-1).astype(np.float64)
        idx = np.searchsorted(e, v, side="right")
        idx = np.where(v == e[-1], e.size - 1, idx)
        idx = np.where(np.isnan(v) | (idx > e.size - 1), 0, idx)
        return self._store(np.bincount(idx, minlength=e.size)[1:].astype(np.float64).reshape(1, -1))

    def fft(self, a: GpuTensorHandle, n: int | None, dim: int, inverse: bool) -> GpuTensorHandle:
        self._dispatch("ifft" if inverse else "fft")
        x = self._get(a)
        fn = np.fft.ifft if inverse else np.fft.fft
        out = fn(x, n=n, axis=dim)
        if x.dtype in (np.float32, np.complex64):
            out = out.astype(np.complex64)
        return self._store(out)

    def polyval(self, p: GpuTensorHandle, x: GpuTensorHandle) -> GpuTensorHandle:
        self._dispatch("polyval")
        return self._store(np.polyval(self._get(p).reshape(-1, order="F"), self._get(x)))

    def sort(self, a: GpuTensorHandle, dim: int,
             descending: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        x = self._get(a)
        if x.dtype.kind == "c":
            raise Unsupported("sort:complex")
        self._dispatch("sort")
        vals, idx = nk.sort(x, dim, descending)
        return self._store(vals), self._store(idx)

    # ------------------------------------------------------------ telemetry
    def telemetry(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: self._counters.get(k, 0) for k in (
            "dispatches", "submits", "uploads", "upload_bytes", "downloads",
            "download_bytes", "synchronizes", "pipeline_cache_hits", "pipeline_cache_misses")}
        out["per_op"] = dict(self._op_counts)
        out["live_buffers"] = len(self._buffers)
        return out

    def reset_telemetry(self) -> None:
        self._counters.clear()
        self._op_counts.clear()


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0
