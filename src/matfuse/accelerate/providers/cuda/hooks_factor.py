"""Matrix factorisation hooks of the CUDA provider (cuSOLVER through CuPy):
``svd``, ``qr`` and ``lu_factor``.

A mixin of :class:`CudaProvider` (``self.cp``, ``self._get``,
``self._store``). CuPy computes in the operands' precision (single stays
single, complex is supported). Column-pivoted QR has no CuPy routine: it
raises Unsupported (the caller's counted host path). The LU row order is
built from cuSOLVER's pivot swaps on the host: ``min(m, n)`` integers, read
once per factorisation.
"""

from __future__ import annotations

import importlib

import numpy as np

from matfuse.accelerate.providers.cuda.common import device_hook
from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate_api.factor_rows import rows_of_swaps


class FactorHooks:
    """``svd``, ``qr`` and ``lu_factor`` on cuSOLVER."""

    @device_hook()
    def svd(self, a: GpuTensorHandle, vectors: str) -> tuple[GpuTensorHandle, ...]:
        cp = self.cp
        x = self._get(a)
        if vectors == "none":
            s = cp.linalg.svd(x, full_matrices=False, compute_uv=False)
            return (self._store(s.reshape(-1, 1)),)
        u, s, vh = cp.linalg.svd(x, full_matrices=vectors == "full")
        return self._store(u), self._store(s.reshape(-1, 1)), self._store(cp.conj(vh).T)

    @device_hook()
    def qr(self, a: GpuTensorHandle, econ: bool, want_q: bool,
           pivot: bool) -> tuple[GpuTensorHandle, ...]:
        if pivot:
            raise Unsupported("cuda: CuPy has no column-pivoted QR")
        cp = self.cp
        x = self._get(a)
        m, n = x.shape
        if not want_q:
            r = cp.linalg.qr(x, mode="r")
            if not econ and r.shape[0] < m:
                r = cp.concatenate([r, cp.zeros((m - r.shape[0], n), dtype=r.dtype)], axis=0)
            return (self._store(cp.triu(r)),)
        q, r = cp.linalg.qr(x, mode="reduced" if econ else "complete")
        return self._store(q), self._store(r)

    @device_hook()
    def lu_factor(self, a: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        linalg = importlib.import_module("cupyx.scipy.linalg")
        x = self._get(a)
        packed, piv = linalg.lu_factor(x, check_finite=False)
        order = rows_of_swaps(self.cp.asnumpy(piv), x.shape[0])
        return self._store(packed), self._store(self.cp.asarray(order))
