"""Device paths of ``sqrtm`` and ``logm``.

``sqrtm``: the product form of the Denman-Beavers iteration with
determinant scaling (Higham, "Functions of Matrices", 2008, eq. 6.17 and
section 6.5)::

    M = A, X = A;  repeat:  g = |det M|^(-1/(2n)), X = g X, M = g^2 M,
                            X = X (I + M^-1) / 2,  M = (I + (M + M^-1) / 2) / 2

``X^2 = A M`` holds at every step and ``M`` tends to ``I``, so ``X`` tends
to the principal square root (every eigenvalue with positive real part)
when ``A`` has no eigenvalue on the closed negative real axis; the error
is within rounding times the condition of the root. Scaling stops once
``X`` changes by less than 1%; the iteration stops at ``norm(M - I, 1) <=
sqrt(n) * u``, and the root is kept when its residual ``norm(X^2 - A, 1)``
is within MATLAB's documented bound. Each step reads a few scalars in one
read-back (the convergence and singularity facts).

``logm``: inverse scaling and squaring (Cheng, Higham, Kenney and Laub,
SIAM J. Matrix Anal. Appl. 22(4), 2001): ``k`` square roots bring ``A``
within ``theta_m`` of ``I`` (1-norm), then ``log(A) = 2^k r_m(A^(1/2^k) -
I)`` with the ``[m/m]`` Pade approximant of ``log(I + X)`` in partial
fractions, ``r_m(X) = sum_j w_j (I + x_j X) \\ X`` (Gauss-Legendre nodes
``x_j`` and weights ``w_j`` on [0, 1]). A real symmetric or complex
Hermitian ``A`` gives an exactly symmetric (Hermitian) result, as MATLAB
documents. Complex matrices take the same steps in complex arithmetic.

Where the iteration declines (a real matrix with an eigenvalue on the
negative real axis, where the principal root is complex and the real
iteration does not converge; a singular matrix; a root failing the
residual bound), the root comes from MATLAB's Schur method on the device
(``schur_form``, ``schur_root``): the +i*sqrt(|lambda|) branch for a
negative eigenvalue, ``MATLAB:sqrtm:SingularMatrix`` for an exact zero in
the Schur form. ``logm`` then continues from that root (its eigenvalues
have non-negative real parts), which gives MATLAB's ``log|lambda| + i*pi``
and ``MATLAB:logm:nonPosRealEig``; with an exact zero in the Schur form,
``logm(A) = Q*logm(T)*Q'`` with each such zero taken as ``SINGULAR_SHIFT``
(the host's SciPy rule). NaN or Inf raise the host's
``MATLAB:schur:matrixWithNaNInf`` error. Nothing is declined for a finite
square matrix except a QR iteration that does not converge (30 steps per
eigenvalue, as LAPACK).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._matrixops import emit_warning

from matfuse.accelerate.router.compose_ops import call, index, op
from matfuse.accelerate.router.declines import Declined
from matfuse.accelerate.router.schur_form import complex_schur
from matfuse.accelerate.router.schur_root import as_complex, schur_sqrtm
from matfuse.accelerate.router.square_matrix_steps import (
    UNIT_ROUNDOFF, identity_like, is_hermitian, log_abs_det, norm1, read, scaled, solve,
    square_operand,
)

#: steps of the square root iteration before it is declared not convergent.
#: An eigenvalue at angle pi - d from the positive axis needs about
#: log2(1/d) steps; rounding can turn a repeated negative eigenvalue into a
#: pair at d ~ u, whose "root" is not MATLAB's (complex) principal one:
#: 2^-steps stays far above each class's unit roundoff
MAX_STEPS = {"double": 30, "single": 16}
#: the root is accepted when norm(X^2 - A, 1) <= RESIDUAL * n * u *
#: norm(X, 1)^2 (MATLAB documents the residual of its sqrtm as about
#: n * alpha * eps, alpha = norm(X)^2 / norm(A)); the iteration's accurate
#: roots stay within a few hundred, a broken one is off by many orders
RESIDUAL = 1e4
#: theta_m of the [m/m] Pade approximant of log(I + X): its error is below
#: the class's unit roundoff for norm(X, 1) <= theta_m (the bound
#: |r_m(-t) - log(1 - t)| of Higham 2001, solved for t)
LOG_THETA = {
    "double": ((1, 1.10e-5), (2, 1.81e-3), (3, 1.61e-2), (4, 5.38e-2), (5, 1.13e-1),
               (6, 1.87e-1), (7, 2.55e-1)),
    "single": ((1, 8.9e-3), (2, 9.6e-2), (3, 2.51e-1), (4, 4.05e-1)),
}
#: square roots before logm gives up (each root halves the logarithm: 40
#: cover any finite matrix many times over)
MAX_ROOTS = 40

NEGATIVE_EIGENVALUES = ("an eigenvalue on the negative real axis (the principal square root "
                        "and logarithm are complex or undefined; the device iteration does "
                        "not converge to them)")


def principal_root(a: Any) -> Any | Declined:
    """The principal square root of a square gpuArray ``a`` (see the module
    doc), or why not."""
    cls = a.matlab_class
    n = a.shape[0]
    eye = identity_like(a)
    tolerance = math.sqrt(n) * UNIT_ROUNDOFF[cls]
    m, x = a, a
    scaling = True
    for step in range(MAX_STEPS[cls]):
        log_det = None
        if scaling:
            log_det = log_abs_det(m)
            if log_det is None:
                return Declined("the provider has no LU factorisation")
            g = call("exp", op("./", log_det, -2.0 * n))
            x = op(".*", x, g)
            m = op(".*", m, op(".*", g, g))
        solved = solve(m, eye)
        if solved is None:
            return Declined("the provider has no LU solve")
        m_inv, singular = solved
        previous = x
        x = scaled(op("*", x, op("+", eye, m_inv)), 0.5)
        m = scaled(op("+", eye, scaled(op("+", m, m_inv), 0.5)), 0.5)
        facts = read(singular, norm1(op("-", m, eye)), norm1(op("-", x, previous)), norm1(x),
                     0.0 if log_det is None else log_det)
        if facts[0] != 0 or not np.all(np.isfinite(facts)):
            # a singular first step is A itself; a later one comes from an
            # eigenvalue the iteration sends to zero (a negative real one)
            return Declined("a singular matrix" if step == 0 else NEGATIVE_EIGENVALUES)
        if facts[2] <= 1e-2 * facts[3]:
            scaling = False
        if facts[1] <= tolerance:
            return _checked(a, x)
    return Declined(NEGATIVE_EIGENVALUES)


def _checked(a: Any, x: Any) -> Any | Declined:
    """``x`` when its residual is that of a square root of ``a`` (see
    ``RESIDUAL``): a near-singular step can break the iteration's invariant."""
    residual, size = read(norm1(op("-", op("*", x, x), a)), norm1(x))
    n = a.shape[0]
    if not residual <= RESIDUAL * n * UNIT_ROUNDOFF[a.matlab_class] * size * size:
        return Declined("the square root iteration lost accuracy (a matrix close to one "
                        "with eigenvalues on the negative real axis)")
    return x


def raise_not_finite() -> None:
    """The host's error: both functions start from a Schur form, which
    MATLAB refuses for NaN or Inf."""
    raise MatlabError("MATLAB:schur:matrixWithNaNInf",
                      "Input to SCHUR must not contain NaN or Inf.")


def sqrtm_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | Declined | None:
    """``sqrtm(A)`` and ``[X, residual] = sqrtm(A)`` (``norm(A - X^2, 1) /
    norm(A, 1)``) of a square double/single gpuArray."""
    x = square_operand(args, nargout, max_out=2)
    if x is None:
        return None
    if not np.isfinite(read(norm1(x))[0]):
        raise_not_finite()
    root = principal_root(x)
    if isinstance(root, Declined):
        found = schur_sqrtm(x)
        if isinstance(found, Declined):
            return found
        root, singular, _ = found
        if singular and nargout < 2:
            emit_warning("MATLAB:sqrtm:SingularMatrix",
                         "Matrix is singular and may not have a square root.")
    if nargout < 2:
        return [root]
    return [root, op("./", norm1(op("-", x, op("*", root, root))), norm1(x))]


#: the value the host (SciPy) puts for an exact zero on the diagonal of the
#: Schur form before taking the logarithm
SINGULAR_SHIFT = 1e-20
SINGULAR = Declined("a singular matrix (the logarithm of a zero eigenvalue is undefined)")
NON_POSITIVE_WARNING = ("Principal matrix logarithm is not defined for A with nonpositive real "
                        "eigenvalues. A non-principal matrix logarithm is returned.")


def _root_by_schur(a: Any) -> tuple[Any, bool] | Declined:
    """(X, negative): MATLAB's square root (``schur_root``) of a matrix the
    iteration leaves, and whether it has a negative real eigenvalue. Its
    eigenvalues have non-negative real parts, so ``logm(A) = 2 * logm(X)``
    continues with the iteration and gives MATLAB's branch (``log|lambda| +
    i*pi`` for a negative eigenvalue). A singular matrix is left to the
    host (see the module doc)."""
    found = schur_sqrtm(a)
    if isinstance(found, Declined):
        return found
    root, singular, negative = found
    return SINGULAR if singular else (root, negative)


def _log_degree(norm: float, cls: str) -> int | None:
    for m, theta in LOG_THETA[cls]:
        if norm <= theta:
            return m
    return None


def log_near_identity(x: Any, m: int) -> Any | None:
    """``r_m(X)``, the Pade approximant of ``log(I + X)``, by partial fractions."""
    nodes, weights = np.polynomial.legendre.leggauss(m)
    eye = identity_like(x)
    total = None
    for node, weight in zip((nodes + 1.0) / 2.0, weights / 2.0):
        solved = solve(op("+", eye, scaled(x, float(node))), x)
        if solved is None:
            return None
        term = scaled(solved[0], float(weight))
        total = term if total is None else op("+", total, term)
    return total


def _logarithm(x: Any) -> tuple[Any, bool] | Declined:
    """(log(x), non_principal): inverse scaling and squaring (see the module
    doc), each root by the iteration or, where it declines, by the Schur
    method; ``non_principal`` when a root met a negative real eigenvalue.
    ``SINGULAR`` for a matrix with an exact zero eigenvalue."""
    cls = x.matlab_class
    eye = identity_like(x)
    roots, non_principal = 0, False
    m = _log_degree(float(read(norm1(op("-", x, eye)))[0]), cls)
    while m is None:
        root = principal_root(x)
        if isinstance(root, Declined):
            found = _root_by_schur(x)
            if isinstance(found, Declined):
                return found
            root, non_principal = found[0], non_principal or found[1]
        x, roots = root, roots + 1
        if roots == MAX_ROOTS:
            return Declined("the square roots do not approach the identity")
        m = _log_degree(float(read(norm1(op("-", x, eye)))[0]), cls)
    log = log_near_identity(op("-", x, eye), m)
    if log is None:
        return Declined("the provider has no LU solve")
    return scaled(log, 2.0 ** roots), non_principal


def _singular_logarithm(a: Any) -> tuple[Any, bool] | Declined:
    """The host's logarithm of a matrix whose Schur form has an exact zero
    on its diagonal: each such zero taken as ``SINGULAR_SHIFT`` (SciPy's ad
    hoc choice, which the host uses; MATLAB documents only that a
    non-principal logarithm is returned), ``logm(A) = Q*logm(T)*Q'``. A
    real matrix gives a real result unless it has a negative eigenvalue."""
    form = complex_schur(a)
    if isinstance(form, Declined):
        return form
    q, t = form
    t = as_complex(t)
    diagonal = call("diag", t)
    zero = call(a.matlab_class, op("==", diagonal, 0.0))
    t = op("+", t, call("diag", op(".*", zero, SINGULAR_SHIFT)))
    re, im = call("real", diagonal), call("imag", diagonal)
    facts = read(call("any", op("&", op("==", im, 0.0), op("<", re, 0.0))),
                 call("all", op("==", diagonal, index(diagonal, 1.0))))
    negative, constant = bool(facts[0]), bool(facts[1])
    if constant:
        inner: tuple[Any, bool] | Declined = (_log_of_constant_diagonal(t), True)
    else:
        inner = _logarithm(t)
    if isinstance(inner, Declined):
        return Declined("a singular matrix: " + inner.reason)
    log = op("*", op("*", q, inner[0]), call("ctranspose", q))
    if not a.is_complex() and not negative:
        log = call("real", log)
    return log, True


def _log_of_constant_diagonal(t: Any) -> Any:
    """``log(t)`` of an upper triangular ``t = lambda*(I + N)`` with one value
    ``lambda`` on its diagonal (``N`` nilpotent): ``log(lambda)*I + N - N^2/2
    + N^3/3 - ...``, a finite series (the square roots of a Jordan block of
    ``SINGULAR_SHIFT`` never approach the identity)."""
    n = t.shape[0]
    value = index(t, 1.0, 1.0)
    eye = identity_like(t)
    nilpotent = op("./", op("-", t, op(".*", eye, value)), value)
    log = op(".*", eye, call("log", value))
    power = eye
    for k in range(1, n):
        power = op("*", power, nilpotent)
        log = op("+", log, scaled(power, (-1.0) ** (k + 1) / k))
    return log


def logm_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | Declined | None:
    """``logm(A)`` and ``[L, exitflag] = logm(A)`` (0: completed) of a
    square double/single gpuArray."""
    x = square_operand(args, nargout, max_out=2)
    if x is None:
        return None
    distance, hermitian = read(norm1(x), is_hermitian(x))
    if not math.isfinite(distance):
        raise_not_finite()
    found = _logarithm(x)
    if found is SINGULAR:
        found = _singular_logarithm(x)
    if isinstance(found, Declined):
        return found
    log, non_principal = found
    if non_principal:
        emit_warning("MATLAB:logm:nonPosRealEig", NON_POSITIVE_WARNING)
    elif hermitian:
        log = scaled(op("+", log, call("ctranspose", log)), 0.5)
    return [log] if nargout < 2 else [log, call("gpuArray", 0.0)]


COMPOSED = {"sqrtm": sqrtm_on_device, "logm": logm_on_device}
