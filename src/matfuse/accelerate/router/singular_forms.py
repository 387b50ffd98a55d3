"""Device paths of the builtins defined by the singular values of a matrix:
``norm(A)``/``norm(A, 2)`` (the largest), ``cond(A)`` (largest over
smallest), ``rank``, ``pinv``, ``null`` and ``orth``, on the provider's
``svd`` hook (``factorizations``).

MATLAB's default tolerance ``max(size(A)) * eps(norm(A))`` is computed on
the host from one scalar read of the largest singular value: ``eps`` of a
device value has no exact device form (bit access), and the host's IEEE
spacing is MATLAB's. ``null`` and ``orth`` read the rank too: the size of
their result depends on it. Everything else stays on the device.

The checks and refusals are ``factorizations``'s: NaN/Inf, empty, integer
or N-D input and unknown arguments take the counted host path (which raises
MATLAB's errors); the vector norms and the 1, Inf and Frobenius matrix norms
are ``stats.try_norm``'s (None here).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import COLON, call, host_scalar, index, op
from matfuse.accelerate.router.factorizations import (
    all_finite,
    float_matrix,
    provider,
    singular_triplet,
    singular_values,
)
from matfuse.runtime.values import DeviceValue, is_char, shape_of

#: the smallest positive subnormal of each class: ``max(s1, tiny) / sk`` is
#: ``s1 / sk`` for every ``s1 > 0`` and ``Inf`` for the zero matrix
_TINIEST = {"double": float(np.nextafter(0.0, 1.0)),
            "single": float(np.nextafter(np.float32(0.0), np.float32(1.0)))}


def _finite_matrix(args: list[Any], max_args: int) -> GpuArray | None:
    if not 1 <= len(args) <= max_args:
        return None
    x = float_matrix(provider(), args[0])
    if x is None or not all_finite(x):
        return None
    return x


def _tolerance(args: list[Any], x: GpuArray, s: GpuArray) -> float | None:
    """The tolerance argument (a host real scalar), else MATLAB's default
    ``max(size(A)) * eps(s(1))`` in ``s``'s precision; None for a tolerance
    the host must check."""
    if len(args) == 2:
        tol = args[1]
        if isinstance(tol, DeviceValue):
            tol = tol.gather()
        value = host_scalar(tol)
        return None if value is None or is_char(tol) else value
    dtype = np.float32 if x.matlab_class == "single" else np.float64
    largest = dtype(np.asarray(call("gather", index(s, 1.0))).reshape(-1)[0])
    return float(max(x.shape) * np.spacing(largest))


def norm_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``norm(A)`` and ``norm(A, 2)`` of a matrix (not a vector): ``s(1)``."""
    if nargout > 1 or len(args) == 2 and (is_char(args[1]) or host_scalar(args[1]) != 2.0):
        return None
    if len(args) >= 1 and 1 in shape_of(args[0]):
        return None
    x = _finite_matrix(args, 2)
    s = None if x is None else singular_values(provider(), x)
    return None if s is None else [index(s, 1.0)]


def cond_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``cond(A)`` and ``cond(A, 2)``: ``s(1) / s(end)`` (Inf when singular)."""
    if nargout > 1 or len(args) == 2 and (is_char(args[1]) or host_scalar(args[1]) != 2.0):
        return None
    x = _finite_matrix(args, 2)
    s = None if x is None else singular_values(provider(), x)
    if s is None:
        return None
    largest = call("max", index(s, 1.0), _TINIEST[x.matlab_class])
    return [op("./", largest, index(s, float(s.shape[0])))]


def rank_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``rank(A)`` and ``rank(A, tol)``: the singular values above the tolerance."""
    x = None if nargout > 1 else _finite_matrix(args, 2)
    s = None if x is None else singular_values(provider(), x)
    tol = None if s is None else _tolerance(args, x, s)
    if tol is None:
        return None
    return [call("sum", op(">", s, tol))]


def pinv_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``pinv(A)`` and ``pinv(A, tol)``: ``V * diag(1 ./ s) * U'`` over the
    singular values above the tolerance."""
    x = None if nargout > 1 else _finite_matrix(args, 2)
    triplet = None if x is None else singular_triplet(provider(), x, "econ")
    if triplet is None:
        return None
    u, s, v = triplet
    tol = _tolerance(args, x, s)
    if tol is None:
        return None
    kept = op(">", s, tol)
    # 1/s where kept, 0 elsewhere (s + ~kept keeps 0/0 out)
    inverse = op("./", kept, op("+", s, call("not", kept)))
    return [call("mtimes", op(".*", v, call("transpose", inverse)), call("ctranspose", u))]


def _subspace(args: list[Any], nargout: int, null_space: bool) -> list[Any] | None:
    x = None if nargout > 1 else _finite_matrix(args, 2)
    triplet = None if x is None else singular_triplet(provider(), x, "full" if null_space else "econ")
    if triplet is None:
        return None
    u, s, v = triplet
    tol = _tolerance(args, x, s)
    if tol is None:
        return None
    r = int(np.asarray(call("gather", call("sum", op(">", s, tol)))).reshape(-1)[0])
    if null_space:
        n = v.shape[1]
        return [index(v, COLON, np.arange(r + 1, n + 1, dtype=np.float64).reshape(1, -1))]
    return [index(u, COLON, np.arange(1, r + 1, dtype=np.float64).reshape(1, -1))]


def null_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``null(A)``, ``null(A, tol)``: the right singular vectors past the rank."""
    return _subspace(args, nargout, True)


def orth_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``orth(A)``, ``orth(A, tol)``: the left singular vectors up to the rank."""
    return _subspace(args, nargout, False)


COMPOSED = {
    "norm": norm_on_device,
    "cond": cond_on_device,
    "rank": rank_on_device,
    "pinv": pinv_on_device,
    "null": null_on_device,
    "orth": orth_on_device,
}
