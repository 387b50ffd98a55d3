"""sqrtm and logm: MATLAB's complex Schur method; non-finite input refused."""

from __future__ import annotations

import math

import numpy as np
from builtins_a_support import call, raises

from matfuse.runtime.registry import load_all

load_all()


def test_sqrtm_of_singular_matrix_is_exact() -> None:
    root = call("sqrtm", 2.0 * np.ones((2, 2)))
    assert np.max(np.abs(root - np.ones((2, 2)))) <= 3 * np.finfo(float).eps


def test_sqrtm_squares_back() -> None:
    a = np.array([[4.0, 1.0, 0.5], [0.0, 9.0, 2.0], [1.0, 0.0, 16.0]])
    root = call("sqrtm", a)
    assert root.dtype == np.float64
    np.testing.assert_allclose(root @ root, a, rtol=1e-12, atol=1e-12)


def test_sqrtm_negative_eigenvalue_is_complex() -> None:
    root = call("sqrtm", np.array([[-4.0, 0.0], [0.0, 1.0]]))
    np.testing.assert_allclose(root, np.array([[2j, 0], [0, 1]]), atol=1e-15)


def test_non_finite_input_is_refused() -> None:
    for fn in ("sqrtm", "logm"):
        raises("MATLAB:schur:matrixWithNaNInf", fn, math.inf)
        raises("MATLAB:schur:matrixWithNaNInf", fn, np.array([[1.0, math.nan], [0.0, 1.0]]))


def test_sqrtm_residual_output() -> None:
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    root, residual = call("sqrtm", a, nargout=2)
    assert residual == np.linalg.norm(a - root @ root, 1) / np.linalg.norm(a, 1)
    assert residual < 1e-15


def test_logm_exitflag_and_hermitian_result() -> None:
    a = np.array([[3.0, 1 + 2j, 0.5], [1 - 2j, 6.0, 1j], [0.5, -1j, 4.0]])
    log, flag = call("logm", a, nargout=2)
    assert flag == 0.0
    np.testing.assert_array_equal(log, log.conj().T)
    import scipy.linalg

    np.testing.assert_allclose(scipy.linalg.expm(log), a, rtol=1e-13, atol=1e-13)
    real = call("logm", np.array([[2.0, 1.0], [1.0, 3.0]]))
    assert real.dtype == np.float64
    np.testing.assert_array_equal(real, real.T)
