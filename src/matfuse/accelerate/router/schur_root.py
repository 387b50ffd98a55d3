"""MATLAB's ``sqrtm`` by the Schur method on the device, for the matrices
the Denman-Beavers iteration of ``matrix_roots`` leaves: a real matrix with
an eigenvalue on the negative real axis, a singular one, a root that fails
the residual bound.

``A = Q*T*Q'`` (``schur_form.complex_schur``), then the upper triangular
``R`` with ``R*R = T`` (Bjorck and Hammarling; Higham, "Functions of
Matrices", Algorithm 6.3)::

    R(i,i) = sqrt(T(i,i)),   R(i,j) = (T(i,j) - sum_{k=i+1}^{j-1} R(i,k) R(k,j)) / (R(i,i) + R(j,j))

one superdiagonal at a time: with ``R`` filled below superdiagonal ``d``,
``(T - R*R)`` on superdiagonal ``d`` is exactly the numerators (one matrix
product per superdiagonal), and ``X = Q*R*Q'``. A real eigenvalue of a real
matrix is exactly real in ``T``, so a negative one has the root
``+i*sqrt(|lambda|)`` (the imaginary part's sign is made +0 first), as
MATLAB. A zero denominator (two zero eigenvalues) gives 0 over 0 as 0 and
anything else over 0 as Inf, as the host; the products ``Q*R*Q'`` then
spread NaN as on the host. The result of a real matrix is real unless
``T`` has a negative real eigenvalue.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate.router.compose_ops import call, op, where
from matfuse.accelerate.router.declines import Declined
from matfuse.accelerate.router.schur_form import complex_schur
from matfuse.accelerate.router.square_matrix_steps import UNIT_ROUNDOFF, read

#: see ``on_the_cut_tolerance``; the host's sqrtm uses the same rule
CUT_TOLERANCE = 8.0


def as_complex(v: Any) -> Any:
    """``v`` as a complex value whose zero imaginary parts are +0."""
    if v.is_complex():
        return call("complex", call("real", v), op("+", call("imag", v), 0.0))
    return call("complex", v, op(".*", v, 0.0))


def _diagonal_matrix(v: Any, offset: int) -> Any:
    """``diag(v, offset)`` of a complex column, real and imaginary parts apart
    (a provider may build real diagonal matrices only)."""
    k = float(offset)
    return call("complex", call("diag", call("real", v), k), call("diag", call("imag", v), k))


def _quotient(numerator: Any, denominator: Any, guarded: bool) -> Any:
    """``numerator ./ denominator`` with the host's rule where the
    denominator is 0 (0/0 is 0, x/0 is Inf) when ``guarded``."""
    q = op("./", numerator, denominator)
    if not guarded:
        return q
    zero = op("==", denominator, 0.0)
    nonzero_numerator = op("~=", numerator, 0.0)
    ones = op("+", op(".*", call("abs", denominator), 0.0), 1.0)
    infinite = where(nonzero_numerator, op(".*", ones, float("inf")), op(".*", ones, 0.0))
    real = where(zero, infinite, call("real", q))
    imag = where(zero, op(".*", ones, 0.0), call("imag", q))
    return call("complex", real, imag)


def on_the_cut_tolerance(a: Any) -> float:
    """How far (``CUT_TOLERANCE * n * u * norm(A, 'fro')``) an eigenvalue of
    a complex matrix with a negative real part may be from the real axis
    and still be taken as on it (see ``triangular_root``)."""
    n = a.shape[0]
    size = float(read(call("sqrt", call("sum", op(".^", call("abs", call(
        "reshape", a, float(n * n), 1.0)), 2.0))))[0])
    return CUT_TOLERANCE * n * UNIT_ROUNDOFF[a.matlab_class] * size


def triangular_root(t: Any, cut: float = 0.0) -> tuple[Any, bool, bool]:
    """(R, singular, negative): the upper triangular root of the complex
    upper triangular ``t``, whether ``t`` has an exact zero on its diagonal
    and whether it has a real negative one. A diagonal entry with a
    negative real part and an imaginary part of at most ``cut`` is taken as
    real (a complex matrix's negative eigenvalue, which the Schur form
    leaves off the axis by rounding, gets the +i*sqrt branch whatever the
    sign of that rounding, as the host's)."""
    n = t.shape[0]
    d = as_complex(call("diag", t))
    if cut > 0:
        off_cut = op("|", op(">", call("abs", call("imag", d)), cut),
                     op(">=", call("real", d), 0.0))
        d = call("complex", call("real", d),
                 op("+", op(".*", call("imag", d), call(t.matlab_class, off_cut)), 0.0))
    r = call("sqrt", d)
    denominators = op("+", r, call("transpose", r))
    re, im = call("real", d), call("imag", d)
    flat = float(n * n)
    facts = read(call("any", op("==", d, 0.0)),
                 call("any", op("&", op("==", im, 0.0), op("<", re, 0.0))),
                 call("any", op("==", call("reshape", denominators, flat, 1.0), 0.0)))
    singular, negative, zero_denominator = (bool(v) for v in facts)
    root = _diagonal_matrix(r, 0)
    for offset in range(1, n):
        k = float(offset)
        residual = op("-", t, op("*", root, root))
        step = _quotient(call("diag", residual, k), call("diag", denominators, k),
                         zero_denominator)
        root = op("+", root, _diagonal_matrix(step, offset))
    return root, singular, negative


def schur_sqrtm(a: Any) -> tuple[Any, bool, bool] | Declined:
    """(X, singular, negative): MATLAB's square root of the square gpuArray
    ``a``, whether its Schur form has an exact zero on the diagonal
    (MATLAB's ``SingularMatrix`` warning) and whether it has a real negative
    eigenvalue."""
    form = complex_schur(a)
    if isinstance(form, Declined):
        return form
    q, t = form
    if not t.is_complex():
        t = as_complex(t)
    root, singular, negative = triangular_root(
        t, on_the_cut_tolerance(a) if a.is_complex() else 0.0)
    q = as_complex(q)     # complex products spread an Inf of R as the host's do
    x = op("*", op("*", q, root), call("ctranspose", q))
    if not negative and not a.is_complex():
        x = call("real", x)
    return x, singular, negative
