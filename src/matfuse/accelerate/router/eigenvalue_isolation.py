"""Balancing by permutations before the QR iteration (LAPACK's ``gebal``
with job 'P', which MATLAB's ``schur`` runs): a symmetric permutation
``T = A(p, p)`` of the form::

    [ T1  X   Y  ]
    [ 0   B   Z  ]      T1 (rows 1..lo-1) and T2 (rows hi+1..n) upper triangular
    [ 0   0   T2 ]

so their eigenvalues are exact entries of ``A`` (an exact zero stays zero:
MATLAB's ``SingularMatrix`` test on a permuted triangular matrix) and the QR
iteration works on ``B`` only.

A row of the active block whose entries off the diagonal are all zero moves
to the block's end (``hi`` shrinks); then a column whose entries off the
diagonal are all zero moves to the block's start (``lo`` grows). Each
search reads one count per row (or column) of the active block, never the
matrix; a dense matrix takes two reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import LIKE, call, index, op
from matfuse.accelerate.router.square_matrix_steps import read


def _span(first: int, last: int) -> np.ndarray:
    return np.arange(first, last + 1, dtype=np.float64).reshape(1, -1)


def _off_diagonal_counts(t: Any, lo: int, hi: int, dim: float) -> np.ndarray:
    """Nonzeros off the diagonal of ``t(lo:hi, lo:hi)`` per row (``dim`` 2)
    or per column (``dim`` 1)."""
    block = index(t, _span(lo, hi), _span(lo, hi))
    size = float(hi - lo + 1)
    nonzero = call("double", op("~=", block, 0.0))
    off = op("-", nonzero, op(".*", nonzero, call("eye", size, size, LIKE, nonzero)))
    return read(call("reshape", call("sum", off, dim), 1.0, size))


def isolate(a: Any) -> tuple[Any, list[int], int, int]:
    """(T, p, lo, hi): ``T = A(p, p)`` in the form of the module doc (``p``
    a 0-based permutation; ``lo``, ``hi`` 1-based bounds of ``B``)."""
    n = a.shape[0]
    order = list(range(n))
    lo, hi = 1, n
    t = a

    def swap(i: int, j: int) -> Any:
        """``t`` with rows and columns i and j (1-based) exchanged."""
        if i == j:
            return t
        order[i - 1], order[j - 1] = order[j - 1], order[i - 1]
        perm = np.arange(1, n + 1, dtype=np.float64)
        perm[i - 1], perm[j - 1] = j, i
        row = perm.reshape(1, -1)
        return index(t, row, row)

    while hi > lo:
        counts = _off_diagonal_counts(t, lo, hi, 2.0)
        empty = np.flatnonzero(counts == 0)
        if empty.size == 0:
            break
        t = swap(lo + int(empty[-1]), hi)
        hi -= 1
    while hi > lo:
        counts = _off_diagonal_counts(t, lo, hi, 1.0)
        empty = np.flatnonzero(counts == 0)
        if empty.size == 0:
            break
        t = swap(lo + int(empty[0]), lo)
        lo += 1
    return t, order, lo, hi


def permutation_matrix(order: list[int], like: Any) -> Any:
    """``Q = I(:, p)`` (``A(p, p) = Q' * A * Q``) of the class of ``like``."""
    n = float(len(order))
    eye = call("eye", n, n, LIKE, like)
    return index(eye, _span(1, len(order)), np.array([order], dtype=np.float64) + 1.0)
