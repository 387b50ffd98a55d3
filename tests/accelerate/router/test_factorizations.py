"""svd, qr, lu and the builtins built on the singular values (norm(A), cond,
rank, pinv, null, orth) of gpuArrays run on the device of every provider
under test and agree with the host in class, size and values.

Where a factor is unique the snippet compares it (singular values, S,
pinv, R and Q of QR with LAPACK's signs, L/U/P of LU); where signs are free
(singular vectors, null and orth bases) it compares what does not depend
on them: the reconstruction ``U*S*V'``, the projectors ``U*U'``, ``N*N'``.
Tolerances: 1e-12 relative plus 1e-12 absolute for double (the device
factorisations are backward stable: errors of a few tens of eps times
``norm(A)``, which is about 3 here), 1e-4 relative plus 1e-6
absolute for single."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse import Session
from matfuse.accelerate_api import fallback_counts
from matfuse.errors import MatlabError
from tests.accelerate.router.snippet_check import check_snippet

D = "gpuArray([1 2; 2 4; 3 6])"       # rank 1
#: a 5 x 6 matrix of full rank (snippet_check's M, sin(1:30), has rank 2)
F_SETUP = "F = gpuArray(reshape(sin((1:30) .^ 1.5), 5, 6)); "

SVD = [
    "r = svd(F);", "r = svd(F');", "[U, S, V] = svd(F); r = U * S * V';",
    "[U, S, V] = svd(F'); r = U * S * V';", "[U, S, V] = svd(F'); r = S;",
    "[U, S, V] = svd(F'); r = U * U';", "[U, S, V] = svd(F); r = V * V';",
    "[U, S, V] = svd(F', 'econ'); r = U * S * V';", "[U, S, V] = svd(F', 'econ'); r = S;",
    "[U, S, V] = svd(F, 'econ'); r = U * S * V';", "[U, S, V] = svd(F', 0); r = U * U';",
    "[U, S, V] = svd(F, 0); r = S;", f"[U, S, V] = svd({D}); r = U * S * V';",
    f"[U, S, V] = svd({D}); r = U * U';", "r = svd(gpuArray(zeros(3, 2)));",
]
SINGULAR_FORMS = [
    "r = norm(F);", "r = norm(F', 2);", "r = cond(F);", "r = cond(F', 2);", "r = rank(F);",
    f"r = rank({D});", "r = rank(F, 0.5);", "r = rank(gpuArray(zeros(3)));",
    "r = pinv(F);", "r = pinv(F');", f"r = pinv({D});", "r = pinv(F, 0.5);",
    "r = null(F); r = r * r';", f"r = null({D}); r = r * r';", "r = size(null(F'));",
    "r = orth(F); r = r * r';", f"r = orth({D}); r = r * r';", "r = orth(F, 1); r = r * r';",
]
QR = [
    "r = qr(F);", "r = qr(F');", "r = qr(F', 0);", "[Q, R] = qr(F); r = R;",
    "[Q, R] = qr(F'); r = Q;", "[Q, R] = qr(F', 0); r = Q;", "[Q, R] = qr(F', 'econ'); r = R;",
    "[Q, R] = qr(F, 'econ'); r = Q * R;",
]
QR_PIVOTED = [
    "[Q, R, P] = qr(F'); r = P;", "[Q, R, P] = qr(F', 0); r = P;",
    "[Q, R, P] = qr(F, 'vector'); r = R;", "[Q, R, P] = qr(F'); r = Q;",
]
LU = [
    "r = lu(F);", "r = lu(F');", "[L, U] = lu(F); r = L;", "[L, U] = lu(F'); r = L;",
    "[L, U] = lu(F'); r = U;", "[L, U, P] = lu(F); r = P;", "[L, U, P] = lu(F'); r = L;",
    "[L, U, P] = lu(F', 'vector'); r = P;", "[L, U, P] = lu(F, 'vector'); r = U;",
    "[L, U, P] = lu(gpuArray(magic(4))); r = L * U - P * magic(4);",
]
SINGLE = [
    "r = svd(single(F));", "[U, S, V] = svd(single(F')); r = S;", "r = norm(single(F));",
    "r = rank(single(F));", "r = qr(single(F'));", "[Q, R] = qr(single(F)); r = Q;",
    "[L, U, P] = lu(single(F')); r = U;", "[L, U, P] = lu(single(F)); r = P;",
    "[L, U] = lu(single(F)); r = L;",
]
#: complex singular values (wgpu: through the real form [X -Y; Y X])
COMPLEX_VALUES = [
    "C = complex(F, F .^ 2); r = svd(C);", "C = complex(F, F .^ 2); r = svd(C');",
    "C = complex(F, F .^ 2); r = norm(C);", "C = complex(F, F .^ 2); r = cond(C');",
    "C = complex(F, F .^ 2); r = rank(C);", "r = rank(complex(gpuArray([1 2; 2 4]), 1));",
]
SNIPPETS = SVD + SINGULAR_FORMS + QR + QR_PIVOTED + LU + COMPLEX_VALUES


def host_form(code: str) -> str:
    return code.replace("gpuArray(", "(")


@pytest.mark.parametrize("code", SNIPPETS + SINGLE)
def test_factorisations_stay_on_the_device(device, code):
    rtol = 1e-4 if code in SINGLE else 1e-12
    check_snippet(F_SETUP + code, rtol=rtol, host_code=host_form(F_SETUP + code))


def _run(code: str) -> Session:
    s = Session(stdout=io.StringIO())
    s.eval(code)
    return s


@pytest.mark.parametrize("call", ["svd(G)", "[U, S, V] = svd(G)", "rank(G)", "pinv(G)",
                                  "null(G)", "cond(G)"])
def test_nan_or_inf_gives_matlabs_error(device, call):
    with pytest.raises(MatlabError) as err:
        _run(f"G = gpuArray([1 NaN; 3 4]); {call};")
    assert err.value.identifier == "MATLAB:svd:matrixWithNaNInf"


def test_norm_of_a_matrix_with_nan_is_nan_as_on_the_host(device):
    s = _run("r = gather(norm(gpuArray([1 NaN; 3 4]))); t = gather(norm(gpuArray([1 Inf; 3 4])));")
    assert np.isnan(s.get("r")) and s.get("t") == np.inf


def test_complex_matrices_agree_with_the_host(device):
    """Complex factors: the in-process and CUDA providers compute them on
    the device; wgpu leaves them to the host (counted). Either way the
    values are the host's."""
    code = ("A = reshape(sin(1:20), 4, 5) + 1i * reshape(cos(1:20), 4, 5); "
            "s = svd(A); [Q, R] = qr(A); [L, U, P] = lu(A); "
            "G = gpuArray(A); s2 = gather(svd(G)); [Q2, R2] = qr(G); [L2, U2, P2] = lu(G); "
            "e = [max(abs(s - s2)), max(max(abs(gather(Q2 * R2) - A))), "
            "max(max(abs(gather(L2) - L))), max(max(abs(gather(P2) - P)))];")
    s = _run(code)
    assert np.max(np.asarray(s.get("e"))) < 1e-12


@pytest.mark.parametrize("m,n", [(600, 80), (80, 600)])
def test_large_qr_and_lu_span_several_dispatches(device, m, n):
    """Sizes whose elimination the wgpu kernels split into several dispatches."""
    code = (f"A = reshape(sin(1:{m * n}) + cos((1:{m * n}) .^ 1.5), {m}, {n}); G = gpuArray(A); "
            "[Q, R] = qr(A, 0); [Q2, R2] = qr(G, 0); [L, U, P] = lu(A); [L2, U2, P2] = lu(G); "
            "e = [max(max(abs(gather(R2) - R))), max(max(abs(gather(Q2) - Q))), "
            "max(max(abs(gather(U2) - U))), max(max(abs(gather(L2) - L))), "
            "max(max(abs(gather(P2) - P)))];")
    s = _run(code)
    assert fallback_counts() == {}
    err = np.asarray(s.get("e")).reshape(-1)
    assert err[4] == 0
    assert np.max(err[:4]) < 1e-10


def test_svd_of_a_larger_matrix(device):
    code = ("A = reshape(sin(1:6000) + cos((1:6000) .^ 1.5), 150, 40); G = gpuArray(A); "
            "s = svd(A); [U, S, V] = svd(G); s2 = diag(gather(S)); "
            "e = [max(abs(s2 - s)) / s(1), max(max(abs(gather(U * S * V') - A))) / s(1), "
            "max(max(abs(gather(U' * U) - eye(150)))), max(max(abs(gather(V' * V) - eye(40))))];")
    s = _run(code)
    assert fallback_counts() == {}
    eps = np.finfo(np.float64).eps
    assert np.max(np.asarray(s.get("e"))) < 8 * 150 * eps
