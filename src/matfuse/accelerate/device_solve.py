"""``A \\ b`` (``mldivide``) for a square real float ``A`` on the device,
with MATLAB's warnings.

The provider's ``lu_solve`` hook solves ``A x = b`` and, once more, ``A X =
I`` for the reciprocal condition number the host reports (``1 / (norm(A,1)
* norm(inv(A),1))``). One small read-back brings the facts the warnings need
(a zero pivot, both norms, whether ``A`` is finite): MATLAB decides its
warning when the division runs, so this read-back cannot be deferred.

Left to the host (None: the dispatcher's counted fallback, which also raises
MATLAB's errors): rectangular ``A`` (least squares with the host's rank
decision and ``MATLAB:rankDeficientMatrix``), a matrix singular to working
precision (the host's LAPACK gives MATLAB's Inf/NaN pattern and
``MATLAB:singularMatrix``), complex, integer or mixed-class operands, empty
or N-D arrays, and providers without the hook.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.class_rules import operand_kind
from matfuse.accelerate.device_ops import on_device
from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime.values import DeviceValue

_EPS = {"double": float(np.finfo(np.float64).eps), "single": float(np.finfo(np.float32).eps)}


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
    if ga.shape[1] != n or gb.shape[0] != n:
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
