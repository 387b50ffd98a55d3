"""The wgpu provider's factorisation hooks (svd, qr, lu_factor) against
NumPy/SciPy's LAPACK: LAPACK's conventions where they are unique (R's
signs, the LU pivots), the singular values, the reconstruction and the
orthogonality of the singular vectors; no buffer left behind; sizes and
types the kernels do not take raise Unsupported (the caller's counted host
path).

Tolerances are in units of eps of the class times ``norm(A)``: the Jacobi
SVD and Householder QR are backward stable (measured errors up to about 50
eps on 120 x 80), so ``8 * max(m, n)`` eps leaves room without hiding a
wrong sign or order."""

from __future__ import annotations

import gc

import numpy as np
import pytest
import scipy.linalg

from matfuse.accelerate_api import HostTensor, Unsupported
from matfuse.accelerate_api.factor_rows import rows_of_swaps
from matfuse.accelerate.providers.wgpu import hooks_factor

SHAPES = [(1, 1), (1, 4), (4, 1), (5, 6), (6, 5), (33, 20), (20, 33), (64, 64)]
RNG = np.random.default_rng(19)


def _up(p, x):
    return p.upload(HostTensor.from_array(np.asfortranarray(x)))


def _down(p, h):
    try:
        return p.download(h).to_array()
    finally:
        p.free(h)


def _matrix(m, n, dtype):
    return RNG.standard_normal((m, n)).astype(dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("m,n", SHAPES)
def test_svd_matches_lapack(wgpu_provider, m, n, dtype):
    p = wgpu_provider
    a = _matrix(m, n, dtype)
    gc.collect()    # buffers of other tests' garbage are freed now, not mid-test
    before = p.live_buffers()
    h = _up(p, a)
    u, s, v = (_down(p, x) for x in p.svd(h, "full"))
    (s_only,) = (_down(p, x) for x in p.svd(h, "none"))
    ue, se, ve = (_down(p, x) for x in p.svd(h, "econ"))
    p.free(h)
    assert p.live_buffers() == before
    k = min(m, n)
    want = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    tol = 8 * max(m, n) * np.finfo(dtype).eps * want[0]
    assert u.dtype == s.dtype == v.dtype == np.dtype(dtype)
    assert (u.shape, s.shape, v.shape) == ((m, m), (k, 1), (n, n))
    assert (ue.shape, ve.shape) == ((m, k), (n, k))
    for values in (s, s_only, se):
        assert np.all(np.diff(values[:, 0]) <= 0) and np.all(values >= 0)
        np.testing.assert_allclose(values[:, 0], want, atol=tol)
    sigma = np.zeros((m, n))
    sigma[:k, :k] = np.diag(s[:, 0])
    np.testing.assert_allclose(u @ sigma @ v.T, a, atol=tol)
    np.testing.assert_allclose(ue @ np.diag(se[:, 0]) @ ve.T, a, atol=tol)
    eps = 8 * max(m, n) * np.finfo(dtype).eps
    np.testing.assert_allclose(u.T @ u, np.eye(m), atol=eps)
    np.testing.assert_allclose(v.T @ v, np.eye(n), atol=eps)


def test_svd_of_a_rank_deficient_matrix_completes_u(wgpu_provider):
    p = wgpu_provider
    a = np.outer(np.arange(1.0, 7.0), np.array([1.0, -2.0, 0.5]))     # rank 1
    u, s, v = (_down(p, x) for x in p.svd(_up(p, a), "full"))
    np.testing.assert_allclose(u.T @ u, np.eye(6), atol=1e-13)
    np.testing.assert_allclose(s[1:, 0], 0, atol=1e-13)
    np.testing.assert_allclose(u[:, :3] @ np.diag(s[:, 0]) @ v.T, a, atol=1e-13)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("m,n", SHAPES)
@pytest.mark.parametrize("econ", [False, True])
def test_qr_has_lapacks_factors(wgpu_provider, m, n, dtype, econ):
    p = wgpu_provider
    a = _matrix(m, n, dtype)
    h = _up(p, a)
    q, r = (_down(p, x) for x in p.qr(h, econ, True, False))
    (r_only,) = (_down(p, x) for x in p.qr(h, econ, False, False))
    q3, r3, e = (_down(p, x) for x in p.qr(h, econ, True, True))
    p.free(h)
    mode = "economic" if econ else "full"
    want_q, want_r = scipy.linalg.qr(a.astype(np.float64), mode=mode)
    pq, pr, pe = scipy.linalg.qr(a.astype(np.float64), mode=mode, pivoting=True)
    tol = 8 * max(m, n) * np.finfo(dtype).eps * max(np.linalg.norm(a, 2), 1.0)
    for got, want in ((q, want_q), (r, want_r), (r_only, want_r), (q3, pq), (r3, pr)):
        assert got.shape == want.shape and got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got, want, atol=tol)
    assert e.dtype == np.float64
    np.testing.assert_array_equal(e.reshape(-1), pe + 1.0)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("m,n", SHAPES)
def test_lu_has_lapacks_pivots(wgpu_provider, m, n, dtype):
    p = wgpu_provider
    a = _matrix(m, n, dtype)
    packed, rows = (_down(p, x) for x in p.lu_factor(_up(p, a)))
    want, piv = scipy.linalg.lu_factor(a.astype(np.float64))
    np.testing.assert_array_equal(rows, rows_of_swaps(piv, m))
    tol = 8 * max(m, n) * np.finfo(dtype).eps * max(np.abs(a).max(), 1.0)
    assert packed.dtype == np.dtype(dtype)
    np.testing.assert_allclose(packed, want, atol=tol)


@pytest.mark.filterwarnings("ignore::scipy.linalg.LinAlgWarning")
def test_zero_pivots_are_skipped_as_lapack_does(wgpu_provider):
    p = wgpu_provider
    a = np.array([[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 7.0]])
    packed, rows = (_down(p, x) for x in p.lu_factor(_up(p, a)))
    want, piv = scipy.linalg.lu_factor(a)
    np.testing.assert_array_equal(rows, rows_of_swaps(piv, 3))
    np.testing.assert_allclose(packed, want, atol=1e-15)


def test_complex_and_oversized_matrices_are_left_to_the_host(wgpu_provider, monkeypatch):
    p = wgpu_provider
    z = _up(p, np.array([[1 + 2j, 3], [4, 5 - 1j]]))
    for call in (lambda: p.svd(z, "none"), lambda: p.qr(z, False, True, False),
                 lambda: p.lu_factor(z)):
        with pytest.raises(Unsupported):
            call()
    p.free(z)
    monkeypatch.setattr(hooks_factor, "MAX_WORK", 100)
    h = _up(p, np.ones((8, 8)))
    gc.collect()    # buffers of other tests' garbage are freed now, not mid-test
    before = p.live_buffers()
    for call in (lambda: p.qr(h, False, True, False), lambda: p.lu_factor(h),
                 lambda: p.svd(h, "full")):
        with pytest.raises(Unsupported):
            call()
    assert p.live_buffers() == before
    p.free(h)
