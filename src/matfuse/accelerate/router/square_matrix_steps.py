"""Steps shared by the device matrix functions (``expm``, ``sqrtm``,
``logm``): the operand check, the LU solve and LU factor hooks as device
values, the 1-norm, and the small read-backs their decisions need.

Every step is a MATLAB-level operation on gpuArrays (``compose_ops``) or a
provider hook that exists on each device provider (``lu_solve``,
``lu_factor``), so what the wgpu tests run is what runs on CUDA. The
hooks are real: complex matrices are solved and factored through their
real form.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate.router.compose_ops import COLON, EMPTY, LIKE, call, index, op
from matfuse.accelerate.router.factorizations import FLOAT, provider
from matfuse.accelerate_api import Unsupported
from matfuse.runtime.values import char_array

#: unit roundoff of each class
UNIT_ROUNDOFF = {"double": float(np.finfo(np.float64).eps) / 2,
                 "single": float(np.finfo(np.float32).eps) / 2}


def square_operand(args: list[Any], nargout: int, max_out: int = 1) -> GpuArray | None:
    """The one argument of ``f(A)`` (with at most ``max_out`` outputs) when
    it is a non-empty square double/single gpuArray (real or complex) of the
    active provider; None for forms the host decides (errors, empties,
    other classes)."""
    if len(args) != 1 or nargout > max_out:
        return None
    x = args[0]
    if not isinstance(x, GpuArray) or x.provider is not provider() or \
            x.matlab_class not in FLOAT:
        return None
    shape = tuple(x.shape)
    if len(shape) != 2 or shape[0] != shape[1] or shape[0] == 0:
        return None
    return x


def identity_like(x: GpuArray) -> Any:
    n = float(x.shape[0])
    return call("eye", n, n, LIKE, x)


_INCLUDENAN = char_array("includenan")


def norm1(x: Any) -> Any:
    """``norm(x, 1)`` as a device scalar: the largest column sum of
    magnitudes (NaN when an element is NaN, as MATLAB's norm)."""
    return call("max", call("sum", call("abs", x), 1.0), EMPTY, 2.0, _INCLUDENAN)


def solve(a: Any, b: Any) -> tuple[GpuArray, GpuArray] | None:
    """``a \\ b`` by the provider's LU solve and its 1x1 flag (1 when a pivot
    is exactly zero), or None when the provider has no such hook. Complex
    operands are solved through the real form ``[Ar -Ai; Ai Ar] [Xr; Xi] =
    [Br; Bi]`` (the hook is real; the real form has the same condition)."""
    if a.is_complex() or b.is_complex():
        return _complex_solve(a, b)
    p = provider()
    try:
        x, flag = p.lu_solve(a.valid_handle(), b.valid_handle())
    except Unsupported:
        return None
    return wrap_handle(x, a.matlab_class, p), wrap_handle(flag, "double", p)


def real_form(a: Any) -> Any:
    """``[real(a) -imag(a); imag(a) real(a)]``: the real 2n x 2n matrix that
    acts on ``[xr; xi]`` as ``a`` acts on ``x``."""
    re, im = call("real", a), call("imag", a)
    return call("vertcat", call("horzcat", re, call("uminus", im)), call("horzcat", im, re))


def _complex_solve(a: Any, b: Any) -> tuple[GpuArray, GpuArray] | None:
    n = a.shape[0]
    solved = solve(real_form(a), call("vertcat", call("real", b), call("imag", b)))
    if solved is None:
        return None
    x, flag = solved
    top = np.arange(1, n + 1, dtype=np.float64).reshape(1, -1)
    return call("complex", index(x, top, COLON), index(x, top + n, COLON)), flag


def log_abs_det(a: Any) -> Any | None:
    """``log(abs(det(a)))`` as a device scalar (``-Inf`` when singular),
    from the provider's LU factors; None without the hook. A complex ``a``
    takes half that of its real form (whose determinant is ``|det(a)|^2``)."""
    if a.is_complex():
        doubled = log_abs_det(real_form(a))
        return None if doubled is None else op(".*", doubled, 0.5)
    p = provider()
    try:
        packed, rows = p.lu_factor(a.valid_handle())
    except Unsupported:
        return None
    wrap_handle(rows, "double", p)
    factors = wrap_handle(packed, a.matlab_class, p)
    return call("sum", call("log", call("abs", call("diag", factors))))


def read(*scalars: Any) -> np.ndarray:
    """The values of device (or host) scalars, in one read-back."""
    row = call("horzcat", *[call("double", s) for s in scalars])
    return np.asarray(call("gather", row), dtype=np.float64).reshape(-1)


def scaled(a: Any, factor: float) -> Any:
    return op(".*", a, factor)


def is_hermitian(a: Any) -> Any:
    """``isequal(a, a')`` as a device logical scalar (symmetric, for real ``a``)."""
    n = float(a.shape[0] * a.shape[1])
    return call("all", call("reshape", op("==", a, call("ctranspose", a)), n, 1.0))
