"""Device path of ``expm``: scaling and squaring with Pade approximants
(Higham, "The scaling and squaring method for the matrix exponential
revisited", SIAM J. Matrix Anal. Appl. 26(4), 2005; the method of MATLAB's
``expm``).

One read of ``norm(A, 1)`` chooses the degree ``m`` (the smallest of 3, 5,
7, 9, 13 whose bound ``theta_m`` covers the norm; single data uses 3, 5, 7
with single's bounds) and the number ``s`` of squarings that bring a larger
norm under ``theta`` of the largest degree. The approximant ``r_m(A / 2^s)
= (V - U) \\ (V + U)`` is built from matrix products on the device and one
LU solve; then ``s`` squarings. Everything after the norm stays on the
device; the result has the input's class.

Left to the host: a matrix with NaN or Inf (the norm says so), empty,
integer or N-D input and non-square matrices (the host raises MATLAB's
errors).
"""

from __future__ import annotations

import math
from typing import Any

from matfuse.accelerate.router.compose_ops import op
from matfuse.accelerate.router.declines import Declined
from matfuse.accelerate.router.square_matrix_steps import (
    identity_like, norm1, read, scaled, solve, square_operand,
)

#: (degree m, theta_m): the largest 1-norm for which r_m(A) is exp(A) to
#: the class's unit roundoff (Higham 2005, Table 2.3 and section 3)
THETA = {
    "double": ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1),
               (7, 9.504178996162932e-1), (9, 2.097847961257068e0),
               (13, 5.371920351148152e0)),
    "single": ((3, 4.258730016922831e-1), (5, 1.880152677804762e0),
               (7, 3.925724783138660e0)),
}

#: coefficients b_0 .. b_m of the numerator of the [m/m] Pade approximant
PADE = {
    3: (120.0, 60.0, 12.0, 1.0),
    5: (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0),
    7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
    9: (17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0,
        2162160.0, 110880.0, 3960.0, 90.0, 1.0),
    13: (64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
         1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
         33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0),
}


def degree_and_squarings(norm: float, matlab_class: str) -> tuple[int, int]:
    """(m, s) for a matrix of 1-norm ``norm`` (finite)."""
    table = THETA[matlab_class]
    for m, theta in table:
        if norm <= theta:
            return m, 0
    m, theta = table[-1]
    return m, max(0, math.ceil(math.log2(norm / theta)))


def _weighted_sum(terms: list[tuple[float, Any]]) -> Any:
    total = None
    for weight, term in terms:
        part = scaled(term, weight)
        total = part if total is None else op("+", total, part)
    return total


def pade_parts(a: Any, m: int) -> tuple[Any, Any]:
    """(U, V): the odd and even parts of the degree-``m`` numerator at ``a``."""
    b = PADE[m]
    eye = identity_like(a)
    a2 = op("*", a, a)
    if m == 13:
        a4 = op("*", a2, a2)
        a6 = op("*", a4, a2)
        inner_u = op("*", a6, _weighted_sum([(b[13], a6), (b[11], a4), (b[9], a2)]))
        u = op("*", a, op("+", inner_u, _weighted_sum(
            [(b[7], a6), (b[5], a4), (b[3], a2), (b[1], eye)])))
        inner_v = op("*", a6, _weighted_sum([(b[12], a6), (b[10], a4), (b[8], a2)]))
        v = op("+", inner_v, _weighted_sum([(b[6], a6), (b[4], a4), (b[2], a2), (b[0], eye)]))
        return u, v
    powers = [eye, a2]
    while len(powers) <= m // 2:
        powers.append(op("*", powers[-1], a2))
    u = op("*", a, _weighted_sum([(b[2 * j + 1], p) for j, p in enumerate(powers)]))
    v = _weighted_sum([(b[2 * j], p) for j, p in enumerate(powers)])
    return u, v


def expm_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | Declined | None:
    """``expm(A)`` of a square double/single gpuArray."""
    x = square_operand(args, nargout)
    if x is None:
        return None
    norm = float(read(norm1(x))[0])
    if not math.isfinite(norm):
        return Declined("the matrix holds NaN or Inf")
    m, s = degree_and_squarings(norm, x.matlab_class)
    a = scaled(x, 2.0 ** -s) if s else x
    u, v = pade_parts(a, m)
    solved = solve(op("-", v, u), op("+", v, u))
    if solved is None:
        return Declined("the provider has no LU solve")
    result = solved[0]
    for _ in range(s):
        result = op("*", result, result)
    return [result]


COMPOSED = {"expm": expm_on_device}
