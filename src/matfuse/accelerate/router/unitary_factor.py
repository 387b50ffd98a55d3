"""The unitary factor ``Q`` of ``[Q, R] = qr(M)`` for a square gpuArray, as
the QR steps of ``schur_form`` need it.

The provider's QR hook where it takes the data (every device provider for
real matrices; the in-process and CUDA providers for complex ones);
otherwise (wgpu's QR is real only) Householder reflections composed from
device operations, one per column, with no read-back::

    x = M(:, j) with rows above j zeroed,  v = x + phase(x_j) * norm(x) * e_j,
    M = M - (2 / (v'*v)) * v * (v'*M),    Q = Q - (2 / (v'*v)) * (Q*v) * v'

(``phase(z) = z / |z|``, 1 for 0; a zero column leaves ``M`` and ``Q`` as
they are). The columns of ``Q`` may differ from LAPACK's by unit factors,
which the QR iteration does not care about.
"""

from __future__ import annotations

from typing import Any

from matfuse.accelerate.gpuarray import wrap_handle
from matfuse.accelerate.router.compose_ops import COLON, call, index, op
from matfuse.accelerate.router.factorizations import provider
from matfuse.accelerate.router.square_matrix_steps import identity_like
from matfuse.accelerate_api import Unsupported


def q_factor(m: Any) -> Any:
    """Q of ``[Q, R] = qr(m)`` for a square gpuArray ``m``."""
    p = provider()
    try:
        handles = p.qr(m.valid_handle(), False, True, False)
    except Unsupported:
        return householder_q(m)
    q = wrap_handle(handles[0], m.matlab_class, p)
    wrap_handle(handles[1], m.matlab_class, p)
    return q


def householder_q(m: Any) -> Any:
    """Q of a QR factorisation of ``m`` by composed Householder reflections
    (see the module doc)."""
    n = m.shape[0]
    q = identity_like(m)
    positions = call("transpose", call("colon", 1.0, float(n)))
    for j in range(1, n):
        below = call(m.matlab_class, op(">=", positions, float(j)))
        unit = call(m.matlab_class, op("==", positions, float(j)))
        x = op(".*", index(m, COLON, float(j)), below)
        size = call("sqrt", call("sum", op(".^", call("abs", x), 2.0)))
        pivot = index(x, float(j))
        magnitude = call("abs", pivot)
        missing = call(m.matlab_class, op("==", magnitude, 0.0))
        phase = op("./", op("+", pivot, missing), op("+", magnitude, missing))
        v = op("+", x, op(".*", unit, op(".*", phase, size)))
        square = call("real", op("*", call("ctranspose", v), v))
        empty = call(m.matlab_class, op("==", square, 0.0))
        beta = op("./", op(".*", 2.0, op("-", 1.0, empty)), op("+", square, empty))
        m = op("-", m, op("*", op(".*", v, beta), op("*", call("ctranspose", v), m)))
        q = op("-", q, op("*", op(".*", op("*", q, v), beta), call("ctranspose", v)))
    return q
