"""Device paths of the matrix factorisations ``svd``, ``qr`` and ``lu`` of
gpuArrays, on the provider hooks of the same names (``lu_factor`` for lu).

Each hook computes the factorisation proper (cuSOLVER, WGSL kernels, or
NumPy in the in-process oracle); the MATLAB output forms are composed here
from device operations: ``S`` as ``eye .* s.'`` padded with zeros, lu's
permuted ``L`` as ``L(ip, :)`` with ``ip`` the inverse row order (a device
sort), ``P`` as rows or columns of ``eye`` picked by the order.

SVD-based builtins refuse NaN/Inf (``MATLAB:svd:matrixWithNaNInf``): one
scalar read of ``all(isfinite(A(:)))`` decides it before the work, and a
non-finite matrix goes to the host path, which raises MATLAB's error (or
computes ``norm``'s NaN/Inf). Empty matrices, integer or char data, N-D
arrays, unknown options and providers without the hook return None: the
dispatcher's counted host fallback, which also raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate.router.compose_ops import COLON, call, host_scalar, index, op
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime.values import char_array, is_char, to_str

FLOAT = ("double", "single")
LIKE = char_array("like")


def provider() -> AccelProvider:
    from matfuse.accelerate.router.route import session

    return session().provider


def float_matrix(p: AccelProvider, x: Any) -> GpuArray | None:
    """``x`` when it is a non-empty 2-D double/single (real or complex)
    gpuArray of ``p``, else None."""
    if not isinstance(x, GpuArray) or x.provider is not p or x.matlab_class not in FLOAT:
        return None
    if len(x.shape) != 2 or 0 in x.shape:
        return None
    return x


def all_finite(x: GpuArray) -> bool:
    """Whether every element of ``x`` is finite (one scalar read)."""
    flat = call("reshape", x, float(x.numel), 1.0)
    return bool(np.asarray(call("gather", call("all", call("isfinite", flat)))).reshape(-1)[0])


def _wrap(p: AccelProvider, handles: tuple, classes: tuple[str, ...]) -> list[GpuArray]:
    return [wrap_handle(h, c, p) for h, c in zip(handles, classes)]


def singular_values(p: AccelProvider, x: GpuArray) -> GpuArray | None:
    """``svd(x)`` (a k x 1 column, descending) of a finite matrix, or None.

    A complex matrix the provider does not factor goes through its real
    form ``[X -Y; Y X]`` (``x = X + iY``), whose singular values are x's,
    each twice: every other one of them, from the first."""
    try:
        handles = p.svd(x.valid_handle(), "none")
    except Unsupported:
        if not x.is_complex():
            return None
        re, im = call("real", x), call("imag", x)
        real_form = call("vertcat", call("horzcat", re, call("uminus", im)),
                         call("horzcat", im, re))
        if not isinstance(real_form, GpuArray):
            return None
        try:
            handles = p.svd(real_form.valid_handle(), "none")
        except Unsupported:
            return None
        doubled = _wrap(p, handles, (x.matlab_class,))[0]
        k = min(x.shape)
        return index(doubled, np.arange(1, 2 * k, 2, dtype=np.float64).reshape(-1, 1))
    return _wrap(p, handles, (x.matlab_class,))[0]


def singular_triplet(p: AccelProvider, x: GpuArray, vectors: str) -> list[GpuArray] | None:
    """``[U, s, V]`` of a finite matrix (``vectors``: ``econ`` or ``full``),
    ``s`` a column, or None."""
    try:
        handles = p.svd(x.valid_handle(), vectors)
    except Unsupported:
        return None
    cls = x.matlab_class
    return _wrap(p, handles, (cls, cls, cls))


def diagonal_matrix(p: AccelProvider, s: GpuArray, rows: int, cols: int) -> Any:
    """A rows x cols matrix with ``s`` (k x 1) on its diagonal, zeros elsewhere."""
    k = s.shape[0]
    square = op(".*", call("eye", float(k), float(k), LIKE, s), call("transpose", s))
    if rows > k:
        square = call("vertcat", square, call("zeros", float(rows - k), float(k), LIKE, s))
    if cols > k:
        square = call("horzcat", square, call("zeros", float(rows), float(cols - k), LIKE, s))
    return square


# ------------------------------------------------------------------ svd
def svd_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``s = svd(A)``, ``[U, S, V] = svd(A)``, ``svd(A, 'econ')``, ``svd(A, 0)``."""
    p = provider()
    if not 1 <= len(args) <= 2 or nargout > 3:
        return None
    x = float_matrix(p, args[0])
    if x is None:
        return None
    econ = False
    if len(args) == 2:
        option = args[1]
        if is_char(option) and to_str(option).lower() == "econ":
            econ = True
        elif host_scalar(option) == 0.0 and not is_char(option):
            econ = x.shape[0] > x.shape[1]
        else:
            return None
    if not all_finite(x):
        return None
    if nargout <= 1:
        s = singular_values(p, x)
        return None if s is None else [s]
    triplet = singular_triplet(p, x, "econ" if econ else "full")
    if triplet is None:
        return None
    u, s, v = triplet
    return [u, diagonal_matrix(p, s, u.shape[1], v.shape[1]), v]


# ------------------------------------------------------------------ qr
def _qr_form(option: Any) -> tuple[bool, bool] | None:
    """(economy size, permutation as a vector) of qr's option, or None."""
    if option is None:
        return False, False
    if is_char(option):
        word = to_str(option).lower()
        if word not in ("econ", "vector", "matrix"):
            return None
        return word in ("econ", "vector"), word == "vector"
    if host_scalar(option) == 0.0:
        return True, True
    return None


def qr_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``R = qr(A)``, ``[Q, R] = qr(A)``, ``qr(A, 0)``/``'econ'`` and
    ``[Q, R, P] = qr(A, ...)`` (column pivoting where the provider has it)."""
    p = provider()
    if not 1 <= len(args) <= 2 or nargout > 3:
        return None
    x = float_matrix(p, args[0])
    form = _qr_form(args[1] if len(args) == 2 else None)
    if x is None or form is None:
        return None
    econ, vector_perm = form
    pivot = nargout == 3
    try:
        handles = p.qr(x.valid_handle(), econ, nargout >= 2, pivot)
    except Unsupported:
        return None
    cls = x.matlab_class
    outputs: list[Any] = _wrap(p, handles, (cls,) * (len(handles) - pivot) + ("double",) * pivot)
    if pivot and not vector_perm:
        n = float(x.shape[1])
        outputs[2] = index(call("eye", n, n, LIKE, outputs[2]), COLON, outputs[2])
    return outputs


# ------------------------------------------------------------------ lu
def lu_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``Y = lu(A)``, ``[L, U] = lu(A)`` (L row-permuted), ``[L, U, P] =
    lu(A)`` and ``lu(A, 'vector')``."""
    p = provider()
    if not 1 <= len(args) <= 2 or nargout > 3:
        return None
    x = float_matrix(p, args[0])
    vector = False
    if len(args) == 2:
        if not is_char(args[1]) or to_str(args[1]).lower() not in ("vector", "matrix"):
            return None
        vector = to_str(args[1]).lower() == "vector"
    if x is None:
        return None
    try:
        packed_h, rows_h = p.lu_factor(x.valid_handle())
    except Unsupported:
        return None
    packed, rows = _wrap(p, (packed_h, rows_h), (x.matlab_class, "double"))
    if nargout <= 1:
        return [packed]
    m, n = x.shape
    k = min(m, n)
    upper = call("triu", packed if m <= n else index(packed, _span(k), COLON))
    lower = op("+", call("tril", packed if n <= m else index(packed, COLON, _span(k)), -1.0),
               call("eye", float(m), float(k), LIKE, packed))
    if nargout == 2:
        _, inverse = call("sort", rows, nargout=2)
        return [index(lower, inverse, COLON), upper]
    if vector:
        return [lower, upper, rows]
    return [lower, upper, index(call("eye", float(m), float(m), LIKE, rows), rows, COLON)]


def _span(k: int) -> np.ndarray:
    return np.arange(1, k + 1, dtype=np.float64).reshape(1, -1)


COMPOSED = {
    "svd": svd_on_device,
    "qr": qr_on_device,
    "lu": lu_on_device,
}
