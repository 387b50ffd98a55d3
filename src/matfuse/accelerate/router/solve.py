"""``A \\ b`` (``mldivide``) for a square real float ``A`` on the device,
with MATLAB's warnings.

The provider's ``lu_solve`` hook solves ``A x = b`` and, once more, ``A X =
I`` for the reciprocal condition number the host reports (``1 / (norm(A,1)
* norm(inv(A),1))``). One small read-back brings the facts the warnings need
(a zero pivot, both norms, whether ``A`` is finite): MATLAB decides its
warning when the division runs, so this read-back cannot be deferred.

An overdetermined ``A`` (more rows than columns) is solved in the least
squares sense through the augmented system ``[I A; A' 0] [r; x] = [b; 0]``
by the same hook; its extra right-hand sides ``[0; I]`` give
``-inv(A'*A)``, whose norm bounds the smallest singular value from below.
The device keeps only systems that are clearly of full rank (an estimated
condition number under ``_LS_COND_LIMIT``, far inside the host's rank
tolerance ``max(m,n) * eps * norm(A)``), where the least squares solution
is unique and no warning is due; the rest go to the host's rank decision.

Left to the host (None: the dispatcher's counted fallback, which also raises
MATLAB's errors): a matrix singular to working precision (the host's LAPACK
gives MATLAB's Inf/NaN pattern and ``MATLAB:singularMatrix``), least squares
that may be rank deficient (``MATLAB:rankDeficientMatrix``) or of a non-finite
``A``, underdetermined systems (MATLAB's basic solution), complex, integer or
mixed-class operands, empty or N-D arrays, and providers without the hook.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.class_rules import operand_kind
from matfuse.accelerate.router.ops import on_device
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime.values import DeviceValue

_EPS = {"double": float(np.finfo(np.float64).eps), "single": float(np.finfo(np.float32).eps)}
#: estimated cond(A) below which an overdetermined system stays on the device
_LS_COND_LIMIT = {"double": 1e6, "single": 1e2}


def _call(name: str, *args: Any) -> Any:
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    return call_builtin(lookup(name), list(args), 1, None)[0]


def _operands(p: AccelProvider, a: Any, b: Any) -> tuple[GpuArray, GpuArray] | None:
    classes = set()
    for v in (a, b):
        kind = operand_kind(v)
        if kind is None or kind[1] or isinstance(v, DeviceValue) and not isinstance(v, GpuArray):
            return None
        classes.add(kind[0])
    if len(classes) != 1 or not classes <= {"double", "single"}:
        return None
    ga, gb = on_device(p, a), on_device(p, b)
    if ga is None or gb is None:
        return None
    if len(ga.shape) != 2 or len(gb.shape) != 2 or 0 in ga.shape or 0 in gb.shape:
        return None
    return ga, gb


def _norm1(x: GpuArray) -> Any:
    """``norm(x, 1)``: the largest column sum of magnitudes, as a double."""
    return _call("double", _call("max", _call("sum", _call("abs", x), 1.0), np.zeros((0, 0)), 2.0))


def try_mldivide(p: AccelProvider, a: Any, b: Any) -> GpuArray | None:
    """``a \\ b`` for square ``a`` (see the module doc), or None."""
    from matfuse.runtime._matrixops import emit_warning

    pair = _operands(p, a, b)
    if pair is None:
        return None
    ga, gb = pair
    n = ga.shape[0]
    if gb.shape[0] != n:
        return None
    if ga.shape[1] < n:
        return _least_squares(p, ga, gb)
    if ga.shape[1] != n:
        return None
    cls = ga.matlab_class
    try:
        x, flag = p.lu_solve(ga.valid_handle(), gb.valid_handle())
        result, singular = wrap_handle(x, cls, p), wrap_handle(flag, "double", p)
        eye = wrap_handle(p.eye((n, n), ga.handle.dtype), cls, p)
        inv_h, inv_flag = p.lu_solve(ga.valid_handle(), eye.valid_handle())
        inverse = wrap_handle(inv_h, cls, p)
        wrap_handle(inv_flag, "double", p)
    except Unsupported:
        return None
    finite = _call("double", _call("all", _call("isfinite", _call("reshape", ga, float(n * n), 1.0))))
    facts = np.asarray(_call("gather", _call("horzcat", singular, _norm1(ga), _norm1(inverse),
                                            finite)), dtype=np.float64).reshape(-1)
    if facts[3] == 0:
        # a non-finite matrix: MATLAB's result is all NaN, with no warning
        return wrap_handle(p.fill((n, gb.shape[1]), float("nan"), ga.handle.dtype), cls, p)
    if facts[0] != 0:
        return None
    dtype = np.float32 if cls == "single" else np.float64
    with np.errstate(all="ignore"):
        rcond = float(dtype(1.0) / (dtype(facts[1]) * dtype(facts[2])))
    if rcond < _EPS[cls]:
        emit_warning("MATLAB:nearlySingularMatrix",
                     "Matrix is close to singular or badly scaled. Results may be "
                     f"inaccurate. RCOND = {rcond:e}.")
    return result


def _frobenius(x: Any) -> Any:
    flat = _call("reshape", x, float(np.prod(x.shape)), 1.0)
    return _call("double", _call("sqrt", _call("sum", _call("times", flat, flat))))


def _least_squares(p: AccelProvider, a: GpuArray, b: GpuArray) -> GpuArray | None:
    """``a \\ b`` for ``m > n`` rows, clearly full rank (see the module doc)."""
    from matfuse.runtime.indexing import paren_get

    m, n = a.shape
    k = b.shape[1]
    cls, dtype = a.matlab_class, a.handle.dtype
    if m + n > 4096:
        return None

    def const(shape: tuple[int, int], eye: bool = False) -> GpuArray:
        h = p.eye(shape, dtype) if eye else p.fill(shape, 0.0, dtype)
        return wrap_handle(h, cls, p)

    try:
        system = _call("vertcat", _call("horzcat", const((m, m), True), a),
                       _call("horzcat", _call("transpose", a), const((n, n))))
        rhs = _call("vertcat", _call("horzcat", b, const((m, n))),
                    _call("horzcat", const((n, k)), const((n, n), True)))
        if not (isinstance(system, GpuArray) and isinstance(rhs, GpuArray)):
            return None
        h, flag = p.lu_solve(system.valid_handle(), rhs.valid_handle())
        solved, singular = wrap_handle(h, cls, p), wrap_handle(flag, "double", p)
    except Unsupported:
        return None
    rows = np.arange(m + 1, m + n + 1, dtype=np.float64).reshape(1, -1)
    x = paren_get(solved, [rows, np.arange(1, k + 1, dtype=np.float64).reshape(1, -1)])
    gram_inv = paren_get(solved, [rows, np.arange(k + 1, k + n + 1, dtype=np.float64)
                                  .reshape(1, -1)])
    finite = _call("double", _call("all", _call("isfinite", _call("reshape", a,
                                                                  float(m * n), 1.0))))
    facts = np.asarray(_call("gather", _call("horzcat", singular, _frobenius(a),
                                             _frobenius(gram_inv), finite)),
                       dtype=np.float64).reshape(-1)
    if facts[0] != 0 or facts[3] == 0 or not np.isfinite(facts[2]):
        return None
    if not facts[1] * np.sqrt(facts[2]) < _LS_COND_LIMIT[cls]:
        return None
    return x
