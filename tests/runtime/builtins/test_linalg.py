"""inv pinv det rank trace cond lu qr chol eig svd null orth expm linsolve."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from builtins_b_support import call, close, raises, row, text
from matfuse.runtime import _matrixops
from matfuse.runtime.values import StructArray

A = np.array([[4.0, 1.0], [2.0, 3.0]])
SPD = np.array([[4.0, 2.0], [2.0, 3.0]])


@pytest.fixture
def warnings_seen(monkeypatch):
    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(_matrixops, "WARNING_HOOK", lambda ident, msg: seen.append((ident, msg)))
    return seen


def test_inv_det_trace_rank() -> None:
    close(call("inv", A), np.linalg.inv(A))
    assert call("det", A) == pytest.approx(10.0)
    assert call("det", np.zeros((0, 0))) == 1.0
    assert call("trace", A) == 7.0
    assert call("rank", np.ones((3, 3))) == 1.0
    assert call("rank", np.eye(3)) == 3.0
    assert call("inv", np.array([[2.0]], dtype=np.float32)).dtype == np.float32
    raises("MATLAB:square", "inv", np.ones((2, 3)))
    raises("MATLAB:square", "det", np.ones((2, 3)))


def test_singular_inverse_warns(warnings_seen) -> None:
    out = call("inv", np.ones((2, 2)))
    assert np.all(np.isinf(out))
    assert warnings_seen == [("MATLAB:singularMatrix", "Matrix is singular to working precision.")]
    call("inv", np.array([[1.0, 1.0], [1.0, 1.0 + 1e-17 + 1e-16]]))
    assert warnings_seen[-1][0] in ("MATLAB:nearlySingularMatrix", "MATLAB:singularMatrix")


def test_pinv_cond() -> None:
    close(call("pinv", np.ones((2, 2))), np.full((2, 2), 0.25))
    close(call("pinv", np.array([[1.0, 2], [3, 4], [5, 6]])), np.linalg.pinv([[1, 2], [3, 4], [5, 6]]))
    assert call("cond", A) == pytest.approx(np.linalg.cond(A))
    assert call("cond", np.ones((2, 2))) > 1e15


def test_lu_forms() -> None:
    l, u, p = call("lu", A, nargout=3)
    close(p @ A, l @ u)
    assert np.allclose(np.triu(u), u) and np.allclose(np.tril(l), l)
    l2, u2 = call("lu", A, nargout=2)
    close(l2 @ u2, A)
    y = call("lu", A)
    close(y, np.array([[4.0, 1.0], [0.5, 2.5]]))
    _, _, pv = call("lu", np.array([[1.0, 2], [3, 4]]), text("vector"), nargout=3)
    close(pv, row(2, 1))


def test_qr_forms() -> None:
    m = np.array([[1.0, 2], [3, 4], [5, 6]])
    q, r = call("qr", m, nargout=2)
    assert q.shape == (3, 3) and r.shape == (3, 2)
    close(q @ r, m)
    q, r = call("qr", m, 0.0, nargout=2)
    assert q.shape == (3, 2) and r.shape == (2, 2)
    q, r = call("qr", m, text("econ"), nargout=2)
    close(q @ r, m)
    q, r, e = call("qr", m, nargout=3)
    close(q @ r, m @ e)
    assert call("qr", m).shape == (3, 2)


def test_chol() -> None:
    r = call("chol", SPD)
    close(r.T @ r, SPD)
    lo = call("chol", SPD, text("lower"))
    close(lo @ lo.T, SPD)
    raises("MATLAB:posdef", "chol", np.array([[1.0, 2], [2, 1]]), message="Matrix must be positive definite.")
    r, p = call("chol", np.array([[1.0, 2], [2, 1]]), nargout=2)
    assert p == 2.0 and r == 1.0


def test_eig_svd() -> None:
    e = call("eig", np.array([[2.0, 1], [1, 2]]))
    close(e, np.array([[1.0], [3.0]]))
    v, d = call("eig", np.array([[2.0, 1], [1, 2]]), nargout=2)
    close(np.array([[2.0, 1], [1, 2]]) @ v, v @ d)
    v, d = call("eig", A, nargout=2)
    close(A @ v, v @ d)
    ev = call("eig", np.array([[0.0, -1], [1, 0]]))
    assert ev.dtype.kind == "c"
    s = call("svd", A)
    close(s, np.linalg.svd(A, compute_uv=False).reshape(-1, 1))
    m = np.array([[1.0, 2], [3, 4], [5, 6]])
    u, s, v = call("svd", m, nargout=3)
    assert u.shape == (3, 3) and s.shape == (3, 2)
    close(u @ s @ v.T, m)
    u, s, v = call("svd", m, text("econ"), nargout=3)
    assert u.shape == (3, 2) and s.shape == (2, 2)
    raises("MATLAB:eig:matrixWithNaNInf", "eig", np.array([[np.nan]]) + np.zeros((2, 2)))


def test_null_orth_expm() -> None:
    n = call("null", np.ones((2, 2)))
    assert n.shape == (2, 1) and np.allclose(np.ones((2, 2)) @ n, 0)
    o = call("orth", np.ones((2, 2)))
    assert o.shape == (2, 1)
    close(call("expm", np.zeros((2, 2))), np.eye(2))
    close(call("expm", A), scipy.linalg.expm(A))


def test_linsolve() -> None:
    b = np.array([[1.0], [2.0]])
    close(call("linsolve", A, b), np.linalg.solve(A, b))
    opts = StructArray.scalar({"UT": True})
    u = np.triu(A)
    close(call("linsolve", u, b, opts), np.linalg.solve(u, b))
    m = np.array([[1.0, 0], [0, 1], [1, 1]])
    close(call("linsolve", m, np.array([[1.0], [1], [2]])), np.array([[1.0], [1.0]]))


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 5)),
                  elements=st.floats(-10, 10, allow_nan=False)))
def test_svd_properties(m: np.ndarray) -> None:
    u, s, v = call("svd", m, nargout=3)
    close(np.atleast_2d(u) @ np.atleast_2d(s) @ np.atleast_2d(v).T, m, rtol=1e-8, atol=1e-8)
