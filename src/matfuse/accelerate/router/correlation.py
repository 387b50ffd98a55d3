"""Device paths of ``corrcoef`` and ``corr`` (Pearson), composed from the
device ``cov``, centred columns, ``*`` and elementwise operators.

``corrcoef`` divides the covariance matrix by the outer product of its
diagonal's square roots, clips to [-1, 1] (NaN kept) and puts 1 on the
diagonal where it is not NaN, as the host. ``corr(X, Y)`` is the product of
the centred columns over the outer product of their 2-norms; a column
holding NaN gives NaN (its mean is NaN), a constant column 0/0 = NaN, and
``corr(X)`` has 1 on the diagonal. Work is in double for ``corr`` (the host
returns double) and in the inputs' class for ``corrcoef``.

P-values, name/value options, flags and complex data return None: the
dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import (
    FLOAT, assign, call, index, nan_where_true, op, size_of,
)
from matfuse.runtime.values import DeviceValue, is_char


def _real_float_2d(v: Any) -> bool:
    """A non-empty real double/single 2-D matrix (device or host)."""
    if isinstance(v, DeviceValue):
        return isinstance(v, GpuArray) and v.matlab_class in FLOAT and not v.is_complex() \
            and len(v.shape) == 2 and 0 not in v.shape
    return type(v) is np.ndarray and v.dtype.kind == "f" and v.ndim == 2 and v.size > 0


def _diagonal_positions(n: int) -> np.ndarray:
    return np.arange(1, n * n + 1, n + 1, dtype=np.float64).reshape(1, -1)


def corrcoef_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``R = corrcoef(x)`` and ``R = corrcoef(x, y)``."""
    if nargout > 1 or len(args) not in (1, 2) or any(is_char(a) for a in args) \
            or not all(_real_float_2d(a) for a in args):
        return None
    if len(args) == 2 and int(np.prod(size_of(args[0]))) != int(np.prod(size_of(args[1]))):
        return None
    c = call("cov", *args)
    if not isinstance(c, GpuArray):
        return None
    n = c.shape[0]
    where = _diagonal_positions(n)
    d = call("sqrt", call("reshape", index(c, where), float(n), 1.0))
    r = op("./", c, op(".*", d, call("transpose", d)))
    r = assign(r, [op(">", r, 1.0)], 1.0)
    r = assign(r, [op("<", r, -1.0)], -1.0)
    on_diagonal = index(r, where)
    ones = call(r.matlab_class, op("+", 1.0, nan_where_true(call("isnan", on_diagonal))))
    return [assign(r, [where], ones)]


def _columns(v: Any) -> Any:
    """A 2-D matrix in double, a row vector as a column."""
    rows, cols = size_of(v)
    if rows == 1:
        v = call("reshape", v, float(cols), 1.0)
    return call("double", v)


def corr_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``rho = corr(X)`` and ``rho = corr(X, Y)``, Pearson, all rows."""
    if nargout > 1 or len(args) not in (1, 2) or not all(_real_float_2d(a) for a in args):
        return None
    a = _columns(args[0])
    b = a if len(args) == 1 else _columns(args[1])
    if size_of(a)[0] != size_of(b)[0] or size_of(a)[0] < 2:
        return None
    ca = op("-", a, call("mean", a, 1.0))
    cb = ca if len(args) == 1 else op("-", b, call("mean", b, 1.0))
    num = op("*", call("transpose", ca), cb)
    na = call("sqrt", call("sum", op(".*", ca, ca), 1.0))
    nb = na if len(args) == 1 else call("sqrt", call("sum", op(".*", cb, cb), 1.0))
    rho = op("./", num, op(".*", call("transpose", na), nb))
    rho = assign(rho, [op(">", rho, 1.0)], 1.0)
    rho = assign(rho, [op("<", rho, -1.0)], -1.0)
    if len(args) == 1:
        rho = assign(rho, [_diagonal_positions(size_of(a)[1])], 1.0)
    return [rho]


COMPOSED = {
    "corrcoef": corrcoef_on_device,
    "corr": corr_on_device,
}
