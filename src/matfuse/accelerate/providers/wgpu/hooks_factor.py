"""The wgpu provider's matrix factorisation hooks: ``svd`` (one-sided
Jacobi, ``shaders/jacobi_svd.py``), ``qr`` (Householder,
``shaders/householder_qr.py``) and ``lu_factor`` (partial pivoting,
``shaders/lu_factor.py``), for real single and double matrices.

Complex matrices, tensors over one storage binding and, for ``lu_factor``
and pivoted ``qr``, adapters without f64 (the row or column order is
double) raise Unsupported: the caller's counted host path.

The factorisations run in one workgroup (the Jacobi sweeps in one per
column pair): loop bounds of the adapter and ``MAX_WORK`` multiply-adds
bound the sizes they take; larger ones raise Unsupported (the host's LAPACK
is then the faster route).

``svd`` works on the tall one of A and A' (the other's U and V swap); its
sweeps are recorded two at a time and one convergence flag is read back per
pair of sweeps (a 4-byte read; sweeps past convergence return at once).
The left vectors are completed to an orthonormal basis by the QR kernel on
the U columns of ``W(:, j) / sigma_j`` (zero where ``sigma_j = 0``) with
each column's sign restored from R's diagonal: this gives the full U, fills
the columns of zero singular values and re-orthogonalises the rest.
"""

from __future__ import annotations

import numpy as np

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore
from matfuse.accelerate.providers.wgpu.shaders import householder_qr as hqr
from matfuse.accelerate.providers.wgpu.shaders import jacobi_svd as jac
from matfuse.accelerate.providers.wgpu.shaders import lu_factor as luf
from matfuse.accelerate.providers.wgpu.shaders.common import groups_2d

_FLOAT_TYPES = {"float32": "f32", "float64": "f64"}
_EPS = {"float32": float(np.finfo(np.float32).eps) / 2, "float64": float(np.finfo(np.float64).eps) / 2}


#: multiply-adds one factorisation may hold: its kernels run in one
#: workgroup, so past this the host's LAPACK is the faster route (counted)
MAX_WORK = 1 << 28


class FactorHooks(WgpuCore):
    def _within_bounds(self, cost: tuple[int, int], what: str) -> None:
        """Unsupported when a dispatch would loop past the adapter's bound
        or the whole work past ``MAX_WORK``."""
        trips, work = cost
        self.check_loop_trips(trips, what)
        if work > MAX_WORK:
            raise Unsupported(f"wgpu: {what} of {work} multiply-adds in one workgroup "
                              f"(over {MAX_WORK}) runs on the host")

    def _real_matrix(self, a: GpuTensorHandle, what: str) -> str:
        self.check(a)
        if a.dtype not in _FLOAT_TYPES:
            raise Unsupported(f"wgpu: {what} of {a.dtype} runs on the host")
        if len(a.shape) != 2 or 0 in a.shape or self.is_large(a):
            raise Unsupported(f"wgpu: {what} needs a non-empty matrix within one binding")
        return _FLOAT_TYPES[a.dtype]

    # ------------------------------------------------------------ lu
    def lu_factor(self, a: GpuTensorHandle) -> tuple[GpuTensorHandle, GpuTensorHandle]:
        t = self._real_matrix(a, "lu")
        self.need_f64()
        m, n = a.shape
        self._within_bounds(luf.cost(m, n), "lu")
        with self.op("lu_factor"):
            packed = self.alloc((m, n), a.dtype)
            rows = self.alloc((1, m), "float64")
            src = luf.render(t, luf.params(m, n, 0, 0, 0))
            buffers = [self.bind(a), self.bind(packed), self.bind(rows)]
            for stage, k0, k1 in [(0, 0, 0)] + [(1, k0, k1) for k0, k1 in luf.column_chunks(m, n)]:
                self.run(src, 1, 2, buffers, luf.params(m, n, stage, k0, k1).pack(), (1, 1, 1))
            return packed, rows

    # ------------------------------------------------------------ qr
    def qr(self, a: GpuTensorHandle, econ: bool, want_q: bool,
           pivot: bool) -> tuple[GpuTensorHandle, ...]:
        self._real_matrix(a, "qr")
        if pivot:
            self.need_f64()
        m, n = a.shape
        k = min(m, n)
        qcols = (k if econ else m) if want_q else 0
        self._within_bounds(hqr.cost(m, n, qcols, k if econ else m, 0, pivot), "qr")
        with self.op("qr"):
            q, r, perm = self._householder(a, k if econ else m, k if econ else m, 0, want_q,
                                           pivot)
            return tuple(h for h in (q, r, perm) if h is not None)

    def _householder(self, a: GpuTensorHandle, qcols: int, rrows: int, signcols: int,
                     want_q: bool, pivot: bool = False) -> tuple[GpuTensorHandle | None,
                                                                 GpuTensorHandle,
                                                                 GpuTensorHandle | None]:
        """Q (m x qcols; None without ``want_q``), R (rrows x n) and, with
        ``pivot``, the column order (1 x n float64; else None) of ``a``."""
        t = _FLOAT_TYPES[a.dtype]
        m, n = a.shape
        k = min(m, n)
        qcols = qcols if want_q else 0
        work = self.alloc((m, n), a.dtype)
        tau = self.alloc((max(k, 1), 1), a.dtype)
        q = self.alloc((m, qcols) if qcols else (1, 1), a.dtype)
        r = self.alloc((rrows, n), a.dtype)
        perm = self.alloc((1, n) if pivot else (1, 1), "uint32")
        norms = self.alloc((n, 1) if pivot else (1, 1), a.dtype)
        src = hqr.render(t, hqr.params(m, n, qcols, rrows, signcols, 0, 0, 0))
        buffers = [self.bind(a), self.bind(work), self.bind(tau), self.bind(q), self.bind(r),
                   self.bind(perm), self.bind(norms)]

        def dispatch(stage: int, k0: int = 0, k1: int = 0) -> None:
            uniform = hqr.params(m, n, qcols, rrows, signcols, stage, k0, k1, int(pivot)).pack()
            self.run(src, 1, 6, buffers, uniform, (1, 1, 1))

        dispatch(0)
        for k0, k1 in hqr.column_chunks(m, k, lambda j: n - j - 1 + pivot * (n - j)):
            dispatch(1, k0, k1)
        if qcols:
            for k0, k1 in reversed(hqr.column_chunks(m, k, lambda j: qcols)):
                dispatch(2, k0, k1)
        dispatch(3)
        order = self.cast(perm, "float64") if pivot else None
        for h in (work, tau, norms, perm) + (() if qcols else (q,)):
            self.release(h)
        return (q if qcols else None), r, order

    # ------------------------------------------------------------ svd
    def svd(self, a: GpuTensorHandle, vectors: str) -> tuple[GpuTensorHandle, ...]:
        self._real_matrix(a, "svd")
        m0, n0 = a.shape
        m, n = max(m0, n0), min(m0, n0)
        self.check_loop_trips(jac.trips(m, n), "svd")
        if vectors != "none":
            qcols = m if vectors == "full" else n
            self._within_bounds(hqr.cost(m, n, qcols, n, n, False), "svd's left vectors")
        with self.op("svd"):
            tall = a if m0 >= n0 else self.permute(a, (1, 0))
            u, s, v = self._jacobi(tall, vectors != "none")
            if tall is not a:
                self.release(tall)
            if vectors == "none":
                self.release(u)
                self.release(v)
                return (s,)
            m, n = tall.shape
            full = vectors == "full" and m > n
            q, r, _ = self._householder(u, m if full else n, n, n, True)
            self.release(u)
            self.release(r)
            return (q, s, v) if tall is a else (v, s, q)

    def _jacobi(self, a: GpuTensorHandle,
                with_v: bool) -> tuple[GpuTensorHandle, GpuTensorHandle, GpuTensorHandle]:
        """(U with zero columns where sigma = 0, s, V) of the tall ``a``, sorted."""
        t = _FLOAT_TYPES[a.dtype]
        m, n = a.shape
        n2 = n + (n % 2)
        tol = float(np.sqrt(m)) * _EPS[a.dtype]
        work = self.alloc((m, n), a.dtype)
        self.copy_tensor(a, work)
        v = self.eye((n, n), a.dtype) if with_v else self.alloc((1, 1), a.dtype)
        flags = self.fill((jac.MAX_SWEEPS + 1, 1), 0.0, "uint32")
        wg = jac.sweep_workgroup(m)
        sweep_src = jac.render_sweep(t, jac.params(m, n, n2, 0, 0, int(with_v), tol, t), wg)
        sweep_buffers = [self.bind(work), self.bind(v), self.bind(flags)]
        converged = False
        for sweep in range(jac.MAX_SWEEPS):
            for round_ in range(max(n2 - 1, 0)):
                uniform = jac.params(m, n, n2, round_, sweep, int(with_v), tol, t).pack()
                self.run(sweep_src, 0, 3, sweep_buffers, uniform, (n2 // 2, 1, 1),
                         workgroup=(wg,))
            if n < 2 or sweep % 2 == 1 and self.read(flags, 1, sweep)[0] == 0:
                converged = True
                break
        self.release(flags)
        if not converged:
            raise Unsupported("wgpu: Jacobi SVD did not converge; the host computes it")
        sig = self.alloc((n, 1), a.dtype)
        pos = self.alloc((n, 1), "uint32")
        s = self.alloc((n, 1), a.dtype)
        u = self.alloc((m, n), a.dtype)
        v_out = self.alloc((n, n) if with_v else (1, 1), a.dtype)
        finish = jac.render_finish(t, jac.params(m, n, n2, 0, 0, int(with_v), tol, t))
        uniform = jac.params(m, n, n2, 0, 0, int(with_v), tol, t).pack()
        buffers = [self.bind(work), self.bind(v), self.bind(sig), self.bind(pos), self.bind(s),
                   self.bind(u), self.bind(v_out)]
        elements = max(m * n, n * n if with_v else 0)
        for entry, groups in (("norms", (n, 1, 1)), ("order", self.groups(n)),
                              ("scatter", groups_2d(-(-elements // 256), self.ctx.max_groups_per_dim))):
            self.run(f"// {entry}\n" + finish, 2, 5, buffers, uniform, groups, entry_point=entry)
        for h in (work, v, sig, pos):
            self.release(h)
        return u, s, v_out
