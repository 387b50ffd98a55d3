"""The complex Schur form ``A = Q*T*Q'`` of a square gpuArray, composed
from device operations (the first step of MATLAB's ``sqrtm``).

A real matrix: the QR algorithm with explicit Francis double shifts on the
active block ``W = T(lo:k, lo:k)``: the shifts are the eigenvalues of ``W``'s trailing
2x2 block (trace ``s``, determinant ``t``), ``M = W^2 - s*W + t*I`` is real,
``[Qs, ~] = qr(M)`` by the provider's QR, and ``T(lo:k, :) = Qs'*T(lo:k, :)``,
``T(:, lo:k) = T(:, lo:k)*Qs``, ``Q(:, lo:k) = Q(:, lo:k)*Qs``. The matrix is not
reduced to Hessenberg form, so deflation reads whole rows: the last row of
``W`` left of its diagonal (a 1x1 block splits off) or the last two rows
left of the trailing 2x2 block (a 2x2 block splits off), negligible when
their 2-norm is at most ``u * norm(A, 'fro')`` (a backward error of the
unit roundoff). Every step reads those norms and the trailing 2x2 block
(six scalars) in one read-back; the matrix stays on the device. An
exceptional shift (LAPACK's ``dlahqr`` choice) follows ten steps without a
split.

Each 2x2 block is then triangularised by a unitary rotation whose first
column is an eigenvector of the block (real for real eigenvalues, complex
for a conjugate pair, as ``rsf2csf``); the rotations are computed on the
host from the blocks' entries (one read-back) and applied as one
block-diagonal unitary ``U``: ``T = U'*T*U``, ``Q = Q*U``. What is left
below the diagonal (at most the deflation tolerance) is dropped. Real
eigenvalues stay exactly real, so a negative one gives MATLAB's ``+i*sqrt``
branch, and an exact zero on a triangular input's diagonal stays exact
(the ``MATLAB:sqrtm:SingularMatrix`` test).

A complex matrix: QR steps with Wilkinson's single shift on the active
block, embedded in the identity (``triangular_by_single_shifts``), and the
same deflation test on the block's last row. ``Q`` of each QR comes from
``unitary_factor``.

Both start with LAPACK's balancing by permutations
(``eigenvalue_isolation``), as MATLAB's ``schur``: the iteration then works
on the block between the isolated eigenvalues only (rows and columns
``lo:k``).
"""

from __future__ import annotations

import cmath
import math
from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import COLON, LIKE, assign, call, index, op
from matfuse.accelerate.router.declines import Declined
from matfuse.accelerate.router.eigenvalue_isolation import isolate, permutation_matrix
from matfuse.accelerate.router.square_matrix_steps import UNIT_ROUNDOFF, identity_like, read
from matfuse.accelerate.router.unitary_factor import q_factor

#: QR steps per eigenvalue before the iteration is declared not convergent
#: (LAPACK allows 30)
STEPS_PER_EIGENVALUE = 30
#: steps without a split before an exceptional shift
EXCEPTIONAL_EVERY = 10


def _span(first: int, last: int) -> np.ndarray:
    """The 1-based positions first..last as a row (empty when last < first)."""
    return np.arange(first, last + 1, dtype=np.float64).reshape(1, -1)


def _row_norm(t: Any, row: int, first_col: int, last_col: int) -> Any:
    """``norm(T(row, first_col:last_col))`` as a device scalar (0 when empty)."""
    if last_col < first_col:
        return 0.0
    part = index(t, float(row), _span(first_col, last_col))
    return call("sqrt", call("sum", op(".^", call("abs", part), 2.0)))


def _apply(t: Any, q: Any, qs: Any, lo: int, k: int, n: int) -> tuple[Any, Any]:
    """``T(lo:k,:) = Qs'*T(lo:k,:)``, ``T(:,lo:k) = T(:,lo:k)*Qs``, ``Q(:,lo:k) = Q(:,lo:k)*Qs``."""
    if lo == 1 and k == n:
        return op("*", op("*", call("ctranspose", qs), t), qs), op("*", q, qs)
    rows = _span(lo, k)
    t = assign(t, [rows, COLON], op("*", call("ctranspose", qs), index(t, rows, COLON)))
    t = assign(t, [COLON, rows], op("*", index(t, COLON, rows), qs))
    q = assign(q, [COLON, rows], op("*", index(q, COLON, rows), qs))
    return t, q


def _shift(block: tuple[float, float, float, float], r_last: float, r_prev: float,
           exceptional: bool) -> tuple[float, float]:
    """(trace, determinant) of the double shift."""
    a, b, c, d = block
    if exceptional:
        s = r_last + r_prev
        h11 = 0.75 * s + d
        return 2.0 * h11, h11 * h11 + 0.4375 * s * s
    return a + d, a * d - b * c


def quasi_triangular(a: Any) -> tuple[Any, Any, list[int]] | Declined:
    """(Q, T, blocks): the real Schur form ``A = Q*T*Q'`` of a real square
    gpuArray (T zero below its diagonal blocks up to the tolerance) and the
    0-based first rows of its 2x2 blocks."""
    n = a.shape[0]
    u = UNIT_ROUNDOFF[a.matlab_class]
    tolerance = u * _frobenius(a)
    t, order, lo, k = isolate(a)
    q = permutation_matrix(order, a)
    blocks: list[int] = []
    steps, since_split = 0, 0
    while k > lo:
        corner = index(t, _span(k - 1, k), _span(k - 1, k))
        facts = read(call("reshape", corner, 1.0, 4.0), _row_norm(t, k, lo, k - 2),
                     _row_norm(t, k - 1, lo, k - 2))
        block = [float(v) for v in facts[:4]]
        tail_last, tail_prev = float(facts[4]), float(facts[5])
        if not np.all(np.isfinite(facts)):
            return Declined("the QR iteration overflowed")
        r_last = math.hypot(tail_last, block[1])    # column-major: block[1] is T(k, k-1)
        if r_last <= tolerance:
            k, since_split = k - 1, 0
            continue
        if k - 1 == lo or math.hypot(tail_last, tail_prev) <= tolerance:
            blocks.append(k - 2)
            k, since_split = k - 2, 0
            continue
        steps, since_split = steps + 1, since_split + 1
        if steps > STEPS_PER_EIGENVALUE * n:
            return Declined("the QR iteration did not converge")
        trace, det = _shift((block[0], block[2], block[1], block[3]), r_last, tail_prev,
                            since_split % EXCEPTIONAL_EVERY == 0)
        window = t if lo == 1 and k == n else index(t, _span(lo, k), _span(lo, k))
        eye = identity_like(window)
        m = op("+", op("-", op("*", window, window), op(".*", window, trace)), op(".*", eye, det))
        qs = q_factor(m)
        t, q = _apply(t, q, qs, lo, k, n)
    return q, t, blocks


def block_rotation(a: float, b: float, c: float, d: float) -> np.ndarray:
    """A 2x2 unitary G whose first column is an eigenvector of ``[a b; c d]``
    (so ``G' * [a b; c d] * G`` is upper triangular); real when the
    eigenvalues are real."""
    half_trace, p = (a + d) / 2.0, (a - d) / 2.0
    disc = p * p + b * c
    if disc >= 0:
        root = math.sqrt(disc)
        eigenvalue: complex = half_trace + (root if p >= 0 else -root)
    else:
        eigenvalue = complex(half_trace, math.sqrt(-disc))
    first = np.array([b, eigenvalue - a], dtype=np.complex128)
    second = np.array([eigenvalue - d, c], dtype=np.complex128)
    v = first if np.linalg.norm(first) >= np.linalg.norm(second) else second
    size = np.linalg.norm(v)
    if size == 0:
        return np.eye(2, dtype=np.complex128)
    x, y = v / size
    g = np.array([[x, -np.conj(y)], [y, np.conj(x)]], dtype=np.complex128)
    return g.real.astype(np.complex128) if disc >= 0 else g


def _embedded(qs: Any, lo: int, k: int, n: int) -> Any:
    """``blkdiag(eye(lo - 1), Qs, eye(n - k))``, by concatenation (a provider
    may assign into real matrices only)."""
    if lo == 1 and k == n:
        return qs
    parts = [(lo - 1, None), (k - lo + 1, qs), (n - k, None)]
    rows = []
    for i, (size, block) in enumerate(parts):
        if size == 0:
            continue
        row = []
        for j, (other, _) in enumerate(parts):
            if other == 0:
                continue
            if i != j:
                row.append(call("zeros", float(size), float(other), LIKE, qs))
            else:
                row.append(block if block is not None else
                           call("eye", float(size), float(size), LIKE, qs))
        rows.append(call("horzcat", *row))
    return call("vertcat", *rows)


def _wilkinson(a: complex, b: complex, c: complex, d: complex) -> complex:
    """The eigenvalue of ``[a b; c d]`` nearer to ``d``."""
    half = (a - d) / 2.0
    root = cmath.sqrt(half * half + b * c)
    first, second = (a + d) / 2.0 + root, (a + d) / 2.0 - root
    return first if abs(first - d) <= abs(second - d) else second


def triangular_by_single_shifts(a: Any) -> tuple[Any, Any] | Declined:
    """(Q, T): the complex Schur form of a complex square gpuArray by QR steps
    with Wilkinson's single shift ``mu`` (``[Qs, ~] = qr(W - mu*I)``,
    ``T = Qs'*T*Qs`` on the active block, embedded in the identity), the
    same deflation test as the real iteration (the last row of the active
    block), an exceptional shift after ten steps without a split."""
    n = a.shape[0]
    tolerance = UNIT_ROUNDOFF[a.matlab_class] * _frobenius(a)
    t, order, lo, k = isolate(a)
    q = permutation_matrix(order, a)
    steps, since_split = 0, 0
    while k > lo:
        corner = call("reshape", index(t, _span(k - 1, k), _span(k - 1, k)), 1.0, 4.0)
        facts = read(call("real", corner), call("imag", corner), _row_norm(t, k, lo, k - 1))
        if not np.all(np.isfinite(facts)):
            return Declined("the QR iteration overflowed")
        a11, a21, a12, a22 = (complex(float(facts[i]), float(facts[i + 4])) for i in range(4))
        r_last = float(facts[8])
        if r_last <= tolerance:
            k, since_split = k - 1, 0
            continue
        steps, since_split = steps + 1, since_split + 1
        if steps > STEPS_PER_EIGENVALUE * n:
            return Declined("the QR iteration did not converge")
        shift = a22 + 0.75 * r_last if since_split % EXCEPTIONAL_EVERY == 0 else \
            _wilkinson(a11, a12, a21, a22)
        window = t if lo == 1 and k == n else index(t, _span(lo, k), _span(lo, k))
        shifted = op("-", window, op(".*", identity_like(window), shift))
        full = _embedded(q_factor(shifted), lo, k, n)
        t = op("*", op("*", call("ctranspose", full), t), full)
        q = op("*", q, full)
    return q, upper_triangle(t)


def _frobenius(a: Any) -> float:
    n = float(a.shape[0] * a.shape[1])
    return float(read(call("sqrt", call("sum", op(".^", call("abs", call(
        "reshape", a, n, 1.0)), 2.0))))[0])


def complex_schur(a: Any) -> tuple[Any, Any] | Declined:
    """(Q, T): ``A = Q*T*Q'`` with T upper triangular (complex unless every
    block is real) of a square gpuArray: a real one through its real Schur
    form (see the module doc), a complex one by single shifts."""
    if a.is_complex():
        return triangular_by_single_shifts(a)
    form = quasi_triangular(a)
    if isinstance(form, Declined):
        return form
    q, t, blocks = form
    n = a.shape[0]
    if blocks:
        positions = np.array([[b * n + b + 1, b * n + b + 2, (b + 1) * n + b + 1,
                               (b + 1) * n + b + 2] for b in blocks], dtype=np.float64)
        entries = read(index(t, positions.reshape(1, -1))).reshape(-1, 4)
        rotations = [block_rotation(float(e[0]), float(e[2]), float(e[1]), float(e[3]))
                     for e in entries]
        values = np.array([[g[0, 0], g[1, 0], g[0, 1], g[1, 1]] for g in rotations])
        where = positions.reshape(1, -1)
        eye = identity_like(a)
        cls = a.matlab_class
        u_real = assign(eye, [where], call(cls, values.real.reshape(1, -1)))
        if np.any(values.imag):
            u_imag = assign(op(".*", eye, 0.0), [where], call(cls, values.imag.reshape(1, -1)))
            rotation = call("complex", u_real, u_imag)
        else:
            rotation = u_real
        t = op("*", call("ctranspose", rotation), op("*", t, rotation))
        q = op("*", q, rotation)
    return q, upper_triangle(t)


def upper_triangle(t: Any) -> Any:
    """``triu(t)``, real and imaginary parts apart (a provider's triu may be real only)."""
    if not t.is_complex():
        return call("triu", t)
    return call("complex", call("triu", call("real", t)), call("triu", call("imag", t)))
