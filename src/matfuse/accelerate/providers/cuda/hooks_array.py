"""Array hooks of the CUDA provider: reductions, scans, linear algebra,
indexing, signal processing and sort, on CuPy's library routines.

A mixin of :class:`CudaProvider` (it uses ``self.cp``, ``self._get``,
``self._flat``, ``self._store``, ``self.cast_to`` and ``self.kernels``).
MATLAB's NaN rules follow ``numpy_kernels`` (the oracle): ``sum``/``prod``/
``mean`` include NaN unless ``omitnan``; ``max``/``min`` with ``omitnan``
skip it (an all-NaN slice gives NaN).
"""

from __future__ import annotations

import importlib
import math
from typing import Any, Sequence

import numpy as np

from matfuse.accelerate.providers.cuda.common import device_hook
from matfuse.accelerate.providers.cuda.kernels import HISTOGRAM_LOCAL_BINS
from matfuse.accelerate_api import GpuTensorHandle, Unsupported


def _pad(x: Any, ndim: int) -> Any:
    return x.reshape(tuple(x.shape) + (1,) * (ndim - x.ndim), order="F") if x.ndim < ndim else x


def _cupyx(module: str, name: str) -> Any:
    fn = getattr(importlib.import_module(module), name, None)
    if fn is None:
        raise Unsupported(f"{module}.{name} missing in this CuPy")
    return fn


class ArrayHooks:
    """Reductions, scans, linear algebra, indexing, signal and sort hooks."""

    cp: Any

    # ------------------------------------------------------------ reductions
    @device_hook()
    def reduce(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
               omitnan: bool, out_dtype: str) -> GpuTensorHandle:
        cp = self.cp
        x = self._flat(a) if dims is None else self._get(a)
        axis: Any = 0 if dims is None else tuple(dims)
        if dims is not None:
            x = _pad(x, max(dims) + 1)
        isfloat = x.dtype.kind in "fc"
        acc = None if isfloat else np.float64
        if op == "sum":
            r = cp.nansum(x, axis=axis, keepdims=True) if omitnan and isfloat else \
                cp.sum(x, axis=axis, keepdims=True, dtype=acc)
        elif op == "prod":
            r = cp.nanprod(x, axis=axis, keepdims=True) if omitnan and isfloat else \
                cp.prod(x, axis=axis, keepdims=True, dtype=acc)
        elif op == "mean":
            if x.dtype == np.float32:
                # single means accumulate in double, as the host's: a sum
                # past realmax divided back into range is finite there
                x, acc = x.astype(np.float64), np.float64
            r = cp.nanmean(x, axis=axis, keepdims=True) if omitnan and isfloat else \
                cp.mean(x, axis=axis, keepdims=True, dtype=acc)
        elif op in ("max", "min"):
            if x.dtype.kind == "c":
                raise Unsupported("reduce:complex max/min")
            if omitnan and isfloat:
                r = (cp.nanmax if op == "max" else cp.nanmin)(x, axis=axis, keepdims=True)
            else:
                r = (cp.amax if op == "max" else cp.amin)(x, axis=axis, keepdims=True)
        elif op == "any":
            r = cp.any((x != 0) & ~cp.isnan(x) if isfloat else x != 0, axis=axis, keepdims=True)
        elif op == "all":
            r = cp.all(x != 0, axis=axis, keepdims=True)
        elif op == "nnz":
            r = cp.sum(x != 0, axis=axis, keepdims=True).astype(np.float64)
        else:
            raise Unsupported(f"reduce:{op}")
        if dims is None:
            r = r.reshape(1, 1)
        return self._store(self.cast_to(r, out_dtype))

    @device_hook()
    def reduce_with_index(self, op: str, a: GpuTensorHandle, dim: int,
                          omitnan: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        cp = self.cp
        x = _pad(self._get(a), dim + 1)
        if x.dtype.kind == "c":
            raise Unsupported("reduce_with_index:complex")
        isnan = cp.isnan(x) if x.dtype.kind == "f" else cp.zeros(x.shape, dtype=bool)
        fill = -np.inf if op == "max" else np.inf
        filled = cp.where(isnan, fill, x)
        idx = (cp.argmax if op == "max" else cp.argmin)(filled, axis=dim)
        if not omitnan:
            idx = cp.where(isnan.any(axis=dim), cp.argmax(isnan, axis=dim), idx)
        idx = cp.expand_dims(idx, dim)
        vals = cp.take_along_axis(x, idx, axis=dim)
        return self._store(vals), self._store((idx + 1).astype(np.float64))

    @device_hook()
    def moments(self, op: str, a: GpuTensorHandle, dims: Sequence[int] | None,
                weight: int, omitnan: bool) -> GpuTensorHandle:
        cp = self.cp
        x = self._flat(a) if dims is None else _pad(self._get(a), max(dims) + 1)
        axis: Any = 0 if dims is None else tuple(dims)
        n = x.shape[0] if dims is None else int(np.prod([x.shape[d] for d in dims]))
        ddof = 0 if weight == 1 or n == 1 else 1
        var = cp.nanvar if omitnan else cp.var
        r = var(x, axis=axis, ddof=ddof, keepdims=True)
        if op == "std":
            r = cp.sqrt(r)
        return self._store(r.reshape(1, 1) if dims is None else r)

    @device_hook()
    def scan(self, op: str, a: GpuTensorHandle, dim: int, reverse: bool) -> GpuTensorHandle:
        cp = self.cp
        x = _pad(self._get(a), dim + 1)
        if op in ("cummax", "cummin"):
            if x.dtype.kind == "c":
                raise Unsupported("scan:complex")
            return self._store(self.kernels.cum_extreme(op, x, dim, reverse))
        fn = {"cumsum": cp.cumsum, "cumprod": cp.cumprod}.get(op)
        if fn is None:
            raise Unsupported(f"scan:{op}")
        src = cp.flip(x, axis=dim) if reverse else x
        r = fn(src, axis=dim)
        return self._store(cp.flip(r, axis=dim) if reverse else r)

    # ------------------------------------------------------------ linear algebra
    @device_hook()
    def matmul(self, a: GpuTensorHandle, b: GpuTensorHandle) -> GpuTensorHandle:
        # cuBLAS in the operands' precision; TF32 only if CUPY_TF32=1 (see create_provider).
        return self._store(self.cp.matmul(self._get(a), self._get(b)))

    @device_hook()
    def permute(self, a: GpuTensorHandle, order: Sequence[int]) -> GpuTensorHandle:
        x = _pad(self._get(a), len(order))
        return self._store(self.cp.transpose(x, tuple(order)))

    @device_hook()
    def triangular(self, a: GpuTensorHandle, k: int, upper: bool) -> GpuTensorHandle:
        x = self._get(a)
        return self._store(self.cp.triu(x, k) if upper else self.cp.tril(x, k))

    @device_hook()
    def diag(self, a: GpuTensorHandle, k: int) -> GpuTensorHandle:
        x = self._get(a)
        if x.ndim == 2 and 1 in x.shape:
            return self._store(self.cp.diag(self._flat(a), k))
        return self._store(self.cp.diag(x, k).reshape(-1, 1))

    @device_hook()
    def solve(self, a: GpuTensorHandle, b: GpuTensorHandle) -> GpuTensorHandle:
        cp = self.cp
        x, y = self._get(a), self._get(b)
        if x.shape[0] == x.shape[1]:
            return self._store(cp.linalg.solve(x, y))
        return self._store(cp.linalg.lstsq(x, y, rcond=None)[0])

    # ------------------------------------------------------------ indexing
    @device_hook()
    def range_positions(self, axes: Sequence[tuple[int, int, int, int]], base: int,
                        shape: tuple[int, ...]) -> GpuTensorHandle:
        return self._store(self.kernels.range_positions(axes, base, tuple(shape)))

    @device_hook()
    def index_gather(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                     out_shape: tuple[int, ...]) -> GpuTensorHandle:
        idx = self._flat(linear_index).astype(np.int64, copy=False)
        return self._store(self._flat(a)[idx].reshape(out_shape, order="F"))

    @device_hook()
    def index_scatter(self, a: GpuTensorHandle, linear_index: GpuTensorHandle,
                      values: Any) -> GpuTensorHandle:
        flat = self._flat(a).copy()
        idx = self._flat(linear_index).astype(np.int64, copy=False)
        if isinstance(values, GpuTensorHandle):
            source = self.cast_to(self._flat(values), flat.dtype.name)
            if idx.size > 1:
                # a repeated position takes its last value (MATLAB's order);
                # CuPy's scatter picks any of them
                keep = _last_writes(self.cp, idx)
                idx, source = idx[keep], source[keep]
            flat[idx] = source
        else:
            from matfuse.accelerate.providers import numpy_kernels as nk

            flat[idx] = nk.cast_to(np.asarray(values), flat.dtype.name).item()
        return self._store(flat.reshape(a.shape, order="F"))

    @device_hook()
    def reshape(self, a: GpuTensorHandle, shape: tuple[int, ...]) -> GpuTensorHandle:
        # a copy: buffers are never shared (in-place scatter would write both)
        return self._store(self._flat(a).copy().reshape(shape, order="F"))

    @device_hook()
    def find(self, a: GpuTensorHandle) -> GpuTensorHandle:
        nz = self.cp.flatnonzero(self._flat(a))
        return self._store((nz + 1).astype(np.float64).reshape(-1, 1))

    @device_hook()
    def concat(self, parts: Sequence[GpuTensorHandle], dim: int) -> GpuTensorHandle:
        arrays = [self._get(p) for p in parts]
        nd = max(dim + 1, max(x.ndim for x in arrays))
        return self._store(self.cp.concatenate([_pad(x, nd) for x in arrays], axis=dim))

    # ------------------------------------------------------------ signal, polynomial
    @device_hook()
    def conv1d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        u, v = self._flat(a), self._flat(b)
        # direct sums, as the host: an FFT spreads one NaN or Inf over the
        # whole result and loses small elements' relative accuracy
        convolve = _cupyx("cupyx.scipy.signal", "convolve")
        full = convolve(u, v, mode="full", method="direct")
        nu, nv = u.size, v.size
        if mode == "same":
            out = full[nv // 2: nv // 2 + nu]
        elif mode == "valid":
            out = full[nv - 1:nu] if nu >= nv else full[:0]
        else:
            out = full
        column = len(a.shape) == 2 and a.shape[1] == 1 and a.shape[0] != 1
        return self._store(out.reshape(-1, 1) if column else out.reshape(1, -1))

    @device_hook()
    def conv2d(self, a: GpuTensorHandle, b: GpuTensorHandle, mode: str) -> GpuTensorHandle:
        convolve2d = _cupyx("cupyx.scipy.signal", "convolve2d")
        x, k = self._get(a), self._get(b)
        full = convolve2d(x, k, mode="full")
        if mode == "same":
            r0, c0 = k.shape[0] // 2, k.shape[1] // 2
            full = full[r0:r0 + x.shape[0], c0:c0 + x.shape[1]]
        elif mode == "valid":
            rows = max(x.shape[0] - k.shape[0] + 1, 0)
            cols = max(x.shape[1] - k.shape[1] + 1, 0)
            full = full[k.shape[0] - 1:k.shape[0] - 1 + rows, k.shape[1] - 1:k.shape[1] - 1 + cols]
        return self._store(full)

    @device_hook()
    def filter(self, b: GpuTensorHandle, a: GpuTensorHandle, x: GpuTensorHandle,
               dim: int) -> GpuTensorHandle:
        lfilter = _cupyx("cupyx.scipy.signal", "lfilter")
        bb, aa = self._flat(b), self._flat(a)
        a0 = aa[0]
        return self._store(lfilter(bb / a0, aa / a0, self._get(x), axis=dim))

    @device_hook()
    def accumulate(self, op: str, index: GpuTensorHandle, values: GpuTensorHandle,
                   shape: tuple[int, ...], fill: float) -> GpuTensorHandle:
        """Each position's values folded in their order of appearance
        (``kernels.ordered_reduce``): sums equal the host's to the bit; max
        and min ignore NaN as ``fmax``/``fmin`` do; empty positions get
        ``fill``."""
        idx = self._flat(index).astype(np.int64)
        vals = self._flat(values).astype(np.float64)
        total = int(math.prod(shape))
        out = self.kernels.ordered_reduce(op, idx, vals, total, fill)
        return self._store(out.reshape(shape, order="F"))

    @device_hook()
    def lu_solve(self, a: GpuTensorHandle,
                 b: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """``cupyx.scipy.linalg.lu_factor``/``lu_solve`` (cuSOLVER getrf/getrs)."""
        cp = self.cp
        linalg = importlib.import_module("cupyx.scipy.linalg")
        x, y = self._get(a), self._get(b)
        lu, piv = linalg.lu_factor(x, check_finite=False)
        out = linalg.lu_solve((lu, piv), y, check_finite=False)
        singular = cp.any(cp.diag(lu) == 0).astype(np.float64).reshape(1, 1)
        return self._store(out.astype(x.dtype, copy=False)), self._store(singular)

    @device_hook()
    def histogram(self, x: GpuTensorHandle, edges: GpuTensorHandle) -> GpuTensorHandle:
        """A shared-memory histogram kernel (``kernels.histogram``); more
        bins than fit take ``searchsorted`` + ``bincount``. No boolean
        masks, so nothing synchronises with the host."""
        cp = self.cp
        e = cp.ascontiguousarray(self._flat(edges).astype(np.float64, copy=False))
        ne = int(e.size)
        if ne < 2:
            raise Unsupported("histogram needs at least two edges")
        if x.dtype in ("float32", "float64") and ne - 1 <= HISTOGRAM_LOCAL_BINS:
            counts = self.kernels.histogram(cp.ascontiguousarray(self._flat(x)), e)
            return self._store(counts.astype(np.float64).reshape(1, -1))
        v = self._flat(x).astype(np.float64, copy=False)
        idx = cp.searchsorted(e, v, side="right")
        idx = cp.where(v == e[ne - 1], ne - 1, idx)
        idx = cp.where(cp.isnan(v) | (idx > ne - 1), 0, idx)
        counts = cp.bincount(idx, minlength=ne)[1:]
        return self._store(counts.astype(np.float64).reshape(1, -1))

    @device_hook()
    def fft(self, a: GpuTensorHandle, n: int | None, dim: int, inverse: bool) -> GpuTensorHandle:
        cp = self.cp
        x = _pad(self._get(a), dim + 1)
        out = (cp.fft.ifft if inverse else cp.fft.fft)(x, n=n, axis=dim)
        single = x.dtype in (np.float32, np.complex64)
        return self._store(out.astype(np.complex64 if single else np.complex128, copy=False))

    @device_hook()
    def polyval(self, p: GpuTensorHandle, x: GpuTensorHandle) -> GpuTensorHandle:
        coeffs = self._flat(p)
        xs = self._get(x)
        acc = self.cp.zeros(xs.shape, dtype=np.result_type(coeffs.dtype, xs.dtype))
        for k in range(coeffs.size):       # Horner; coefficient vectors are short
            acc = acc * xs + coeffs[k]
        return self._store(acc)

    @device_hook()
    def sort(self, a: GpuTensorHandle, dim: int,
             descending: bool) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        """Stable; NaN last ascending, first descending (MATLAB)."""
        cp = self.cp
        x = self._get(a)
        if x.dtype.kind == "c":
            raise Unsupported("sort:complex")
        x = cp.moveaxis(_pad(x, dim + 1), dim, -1)
        if descending:
            isnan = cp.isnan(x) if x.dtype.kind == "f" else cp.zeros(x.shape, dtype=bool)
            key = cp.where(isnan, 0, x)
            if key.dtype == np.bool_:
                neg = cp.logical_not(key)
            else:
                neg = -key.astype(np.float64) if key.dtype.kind in "iu" else -key
            # lexsort((neg, ~isnan)) as two stable passes: minor key first.
            first = cp.argsort(neg, axis=-1)
            nan_last = cp.take_along_axis(~isnan, first, axis=-1)
            second = cp.argsort(nan_last, axis=-1)
            idx = cp.take_along_axis(first, second, axis=-1)
        else:
            idx = cp.argsort(x, axis=-1)
        vals = cp.take_along_axis(x, idx, axis=-1)
        return (self._store(cp.moveaxis(vals, -1, dim)),
                self._store(cp.moveaxis((idx + 1).astype(np.float64), -1, dim)))


def _last_writes(cp: Any, idx: Any) -> Any:
    """Positions in ``idx`` of the last write to each distinct index (a
    stable sort: equal indices keep their order)."""
    order = cp.argsort(idx, kind="stable")
    ordered = idx[order]
    last = cp.ones(ordered.size, dtype=bool)
    last[:-1] = ordered[1:] != ordered[:-1]
    return order[last]
