"""The complex Schur form composed from device operations (``schur_form``,
``eigenvalue_isolation``, ``unitary_factor``): ``A = Q*T*Q'`` with Q
unitary and T upper triangular, exact eigenvalues where balancing by
permutations isolates them, exactly real eigenvalues of real matrices."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.accelerate.router.compose_ops import call
from matfuse.accelerate.router.eigenvalue_isolation import isolate
from matfuse.accelerate.router.schur_form import block_rotation, complex_schur
from matfuse.accelerate.router.unitary_factor import householder_q
from matfuse.accelerate_api import fallback_counts, reset_fallback_counts
from matfuse.runtime.registry import load_all


def _schur(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    load_all()
    reset_fallback_counts()
    q, t = complex_schur(call("gpuArray", a))
    assert fallback_counts() == {}
    return np.asarray(q.gather()), np.asarray(t.gather())


def _check(a: np.ndarray, q: np.ndarray, t: np.ndarray) -> None:
    n = a.shape[0]
    scale = max(np.linalg.norm(a), 1.0)
    assert np.array_equal(t, np.triu(t))
    assert np.linalg.norm(q.conj().T @ q - np.eye(n)) <= 100 * n * 2.0 ** -53
    assert np.linalg.norm(q @ t @ q.conj().T - a) <= 100 * n * 2.0 ** -53 * scale


@pytest.mark.parametrize("seed", range(4))
def test_random_real_and_complex(device, seed):
    rng = np.random.default_rng(seed)
    n = 3 + 2 * seed
    real = rng.standard_normal((n, n))
    q, t = _schur(real)
    _check(real, q, t)
    eigenvalues = np.diag(t)
    # a real eigenvalue of a real matrix is exactly real in T
    assert np.sum(eigenvalues.imag == 0) == np.sum(np.abs(np.linalg.eigvals(real).imag) == 0)
    complex_matrix = real + 1j * rng.standard_normal((n, n))
    q, t = _schur(complex_matrix)
    _check(complex_matrix, q, t)


def test_permuted_triangular_keeps_exact_eigenvalues(device):
    t0 = np.array([[1.0, 2.0, 3.0, 1.0], [0.0, 0.0, 4.0, 2.0],
                   [0.0, 0.0, 5.0, 3.0], [0.0, 0.0, 0.0, -2.0]])
    order = [2, 0, 3, 1]
    a = t0[np.ix_(order, order)]
    load_all()
    _, _, lo, hi = isolate(call("gpuArray", a))
    assert hi <= lo
    q, t = _schur(a)
    _check(a, q, t)
    assert sorted(np.diag(t).real) == [-2.0, 0.0, 1.0, 5.0]
    assert np.all(np.diag(t).imag == 0)


def test_block_rotation_triangularises():
    for block in ([[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [-1.0, 0.0]], [[2.0, 2.0], [2.0, 2.0]],
                  [[3.0, 0.0], [0.0, 3.0]], [[1.0, -5.0], [1.0, 1.0]]):
        b = np.array(block)
        g = block_rotation(*b.reshape(-1))
        np.testing.assert_allclose(g.conj().T @ g, np.eye(2), atol=1e-15)
        assert abs((g.conj().T @ b @ g)[1, 0]) <= 1e-15 * max(1.0, np.abs(b).max())


def test_composed_householder_q_is_unitary_and_triangularises(device):
    load_all()
    rng = np.random.default_rng(3)
    m = rng.standard_normal((5, 5)) + 1j * rng.standard_normal((5, 5))
    m[:, 2] = 0.0
    q = np.asarray(householder_q(call("gpuArray", m)).gather())
    np.testing.assert_allclose(q.conj().T @ q, np.eye(5), atol=1e-14)
    r = q.conj().T @ m
    assert np.abs(np.tril(r, -1)).max() <= 1e-14
