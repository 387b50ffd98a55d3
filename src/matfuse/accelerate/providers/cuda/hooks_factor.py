"""Matrix factorisation hooks of the CUDA provider (cuSOLVER through CuPy):
``svd``, ``qr`` and ``lu_factor``.

A mixin of :class:`CudaProvider` (``self.cp``, ``self._get``,
``self._store``). CuPy computes in the operands' precision (single stays
single, complex is supported). Column-pivoted QR (``geqp3``) has no CuPy
routine: its column order is chosen step by step on the device
(``_pivot_order``), then the permuted matrix is factorised. The LU row order is
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
        cp = self.cp
        x = self._get(a)
        m, n = x.shape
        order = None
        if pivot:
            order = _pivot_order(cp, x)
            x = x[:, order]
        outputs = self._qr(x, econ, want_q)
        if order is None:
            return outputs
        row = (order + 1).astype(np.float64).reshape(1, -1)
        return outputs + (self._store(row),)

    def _qr(self, x, econ: bool, want_q: bool) -> tuple[GpuTensorHandle, ...]:
        cp = self.cp
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
        if x.dtype.kind == "c":
            # LAPACK (MATLAB, the host) pivots complex columns on |re| + |im|;
            # cuSOLVER's choice differs, so its factors would be other ones
            raise Unsupported("cuda: complex LU pivots differ from LAPACK's")
        packed, piv = linalg.lu_factor(x, check_finite=False)
        order = rows_of_swaps(self.cp.asnumpy(piv), x.shape[0])
        return self._store(packed), self._store(self.cp.asarray(order))


def _pivot_order(cp, x):
    """LAPACK ``geqp3``'s column order: at each step the remaining column
    of largest norm below the rows already reduced (the first of equals),
    then that column's Householder reflection applied to the rest. QR of
    the columns in this order has geqp3's R (the same reflections)."""
    work = x.astype(cp.complex128 if x.dtype.kind == "c" else cp.float64, copy=True)
    m, n = work.shape
    order = cp.arange(n)
    for k in range(min(m, n)):
        norms = cp.linalg.norm(work[k:, k:], axis=0)
        j = k + int(cp.argmax(norms))
        if j != k:
            work[:, [k, j]] = work[:, [j, k]]
            order[[k, j]] = order[[j, k]]
        column = work[k:, k]
        size = float(cp.linalg.norm(column))
        if size == 0.0:
            continue
        head = complex(column[0]) if column.dtype.kind == "c" else float(column[0])
        phase = head / abs(head) if head != 0 else 1.0
        v = column.copy()
        v[0] = v[0] + phase * size
        v = v / cp.linalg.norm(v)
        work[k:, k:] -= 2.0 * cp.outer(v, cp.conj(v) @ work[k:, k:])
    return order
