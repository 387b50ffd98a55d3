"""Matrix operators: ``*``, ``/``, ``\\`` and ``^`` on host values.

A scalar operand turns each into its elementwise form (MATLAB does the
same). Solves use LU for square systems and least squares otherwise.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from typing import Any, Callable, Iterator

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._classrules import INTEGER_SET, drop_zero_imag, type_error
from matfuse.runtime._elementwise import arithmetic
from matfuse.runtime.values import CHAR_DTYPE, StringArray, canonical, char_codes, class_of, to_array

# Called as hook(identifier, message) for MATLAB warnings (singular matrix);
# a session routes it to its interpreter while a command runs
# (``routed_warnings``), to honour ``warning off`` and ``lastwarn``.
WARNING_HOOK: Callable[[str, str], None] | None = None


@contextlib.contextmanager
def routed_warnings(hook: Callable[[str, str], None]) -> Iterator[None]:
    """Send ``emit_warning`` to ``hook`` for the duration of a command."""
    global WARNING_HOOK
    previous = WARNING_HOOK
    WARNING_HOOK = hook
    try:
        yield
    finally:
        WARNING_HOOK = previous


def emit_warning(identifier: str, message: str) -> None:
    """Send a MATLAB warning through the VM's hook (stderr by default)."""
    if WARNING_HOOK is not None:
        WARNING_HOOK(identifier, message)
    else:
        sys.stderr.write(f"Warning: {message}\n")


def _is_scalar(v: Any) -> bool:
    t = type(v)
    if t is float or t is bool or t is complex:
        return True
    return getattr(v, "size", None) == 1 if t is np.ndarray else False


def _matrix_operand(v: Any, op: str) -> np.ndarray:
    t = type(v)
    if t is np.ndarray or t is float or t is bool or t is complex:
        return to_array(v)
    raise type_error(op, v)


def _float_matrix(arr: np.ndarray, single: bool) -> np.ndarray:
    if arr.dtype == CHAR_DTYPE:
        arr = char_codes(arr).astype(np.float64)
    # copy=False: no caller writes to its operands, and ``A' * A`` keeps one
    # buffer, so NumPy sees the transposed pair and takes BLAS syrk
    if arr.dtype.kind == "c":
        return arr.astype(np.complex64 if single else np.complex128, copy=False)
    return arr.astype(np.float32 if single else np.float64, copy=False)


def _matrix_class(x: np.ndarray, y: np.ndarray, op_name: str) -> bool:
    """Checks classes of a non-scalar matrix op; returns True for single."""
    cx, cy = class_of(x), class_of(y)
    if cx in INTEGER_SET or cy in INTEGER_SET:
        if cx in INTEGER_SET and cy in INTEGER_SET and cx != cy:
            raise MatlabError("MATLAB:mixedClasses",
                              "Integers can only be combined with integers of the same class, or scalar doubles.")
        raise MatlabError(f"MATLAB:{op_name}:integerNotSupported",
                          f"{op_name.upper()} is not fully supported for integer classes. "
                          "At least one argument must be scalar.")
    return cx == "single" or cy == "single"


def _check_2d(x: np.ndarray, y: np.ndarray, op_name: str) -> None:
    if x.ndim > 2 or y.ndim > 2:
        raise MatlabError(f"MATLAB:{op_name}:inputsMustBe2D",
                          "Arguments must be 2-D, or at least one argument must be scalar. "
                          "Use TIMES (.*) for elementwise multiplication." if op_name == "mtimes"
                          else "Arguments must be 2-D, or at least one argument must be scalar.")


def mtimes(a: Any, b: Any) -> Any:
    """Matrix product ``a * b``."""
    if isinstance(a, StringArray) or isinstance(b, StringArray):
        raise type_error("*", a if isinstance(a, StringArray) else b)
    if _is_scalar(a) or _is_scalar(b):
        return arithmetic(".*", a, b)
    x, y = _matrix_operand(a, "*"), _matrix_operand(b, "*")
    _check_2d(x, y, "mtimes")
    if x.shape[1] != y.shape[0]:
        raise MatlabError(
            "MATLAB:innerdim",
            "Incorrect dimensions for matrix multiplication. Check that the number of columns "
            "in the first matrix matches the number of rows in the second matrix. To operate "
            "on each element of the matrix individually, use TIMES (.*) for elementwise "
            "multiplication.")
    single = _matrix_class(x, y, "mtimes")
    with np.errstate(all="ignore"):
        result = _float_matrix(x, single) @ _float_matrix(y, single)
    return canonical(drop_zero_imag(result))


def _solve(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x \\ y`` for float matrices with matching row counts."""
    import scipy.linalg
    n, m = x.shape
    if x.size == 0 or y.size == 0:
        return np.zeros((m, y.shape[1]), dtype=np.result_type(x, y))
    if n == m:
        if not (np.all(np.isfinite(x))):
            return np.full((m, y.shape[1]), np.nan, dtype=np.result_type(x, y))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                lu, piv = scipy.linalg.lu_factor(x, check_finite=False)
                result = scipy.linalg.lu_solve((lu, piv), y, check_finite=False)
        diag = np.abs(np.diag(lu))
        if np.any(diag == 0):
            emit_warning("MATLAB:singularMatrix", "Matrix is singular to working precision.")
        else:
            rcond = _rcond(x)
            if rcond < np.finfo(x.dtype).eps:
                emit_warning("MATLAB:nearlySingularMatrix",
                             "Matrix is close to singular or badly scaled. Results may be "
                             f"inaccurate. RCOND = {rcond:e}.")
        return result
    result, _res, rank, _sv = np.linalg.lstsq(x, y, rcond=None)
    if rank < min(n, m):
        emit_warning("MATLAB:rankDeficientMatrix",
                     f"Rank deficient, rank = {rank}, tol = "
                     f"{max(n, m) * np.finfo(x.dtype).eps * (np.linalg.norm(x, 2) if x.size else 0):e}.")
    return result


def _rcond(x: np.ndarray) -> float:
    with np.errstate(all="ignore"):
        try:
            inv_norm = np.linalg.norm(np.linalg.inv(x), 1)
        except np.linalg.LinAlgError:
            return 0.0
        return float(1.0 / (np.linalg.norm(x, 1) * inv_norm))


def mldivide(a: Any, b: Any) -> Any:
    """Left division ``a \\ b`` (solve ``a*x = b``)."""
    if _is_scalar(a):
        return arithmetic(".\\", a, b)
    x, y = _matrix_operand(a, "\\"), _matrix_operand(b, "\\")
    _check_2d(x, y, "mldivide")
    if x.shape[0] != y.shape[0]:
        raise MatlabError("MATLAB:dimagree", "Matrix dimensions must agree.")
    single = _matrix_class(x, y, "mldivide")
    return canonical(drop_zero_imag(_solve(_float_matrix(x, single), _float_matrix(y, single))))


def mrdivide(a: Any, b: Any) -> Any:
    """Right division ``a / b`` (solve ``x*b = a``), as ``(b.' \\ a.').'``."""
    if _is_scalar(b):
        return arithmetic("./", a, b)
    x, y = _matrix_operand(a, "/"), _matrix_operand(b, "/")
    _check_2d(x, y, "mrdivide")
    if x.shape[1] != y.shape[1]:
        raise MatlabError("MATLAB:dimagree", "Matrix dimensions must agree.")
    single = _matrix_class(x, y, "mrdivide")
    result = _solve(_float_matrix(y, single).T, _float_matrix(x, single).T).T
    return canonical(drop_zero_imag(np.ascontiguousarray(result)))


_MPOWER_MESSAGE = ("Incorrect dimensions for raising a matrix to a power. Check that the matrix "
                   "is square and the power is a scalar. To operate on each element of the "
                   "matrix individually, use POWER (.^) for elementwise power.")


def mpower(a: Any, b: Any) -> Any:
    """Matrix power ``a ^ b``. SciPy's linalg (a fifth of a second to
    import) loads only for a scalar raised to a matrix."""
    a_scalar, b_scalar = _is_scalar(a), _is_scalar(b)
    if a_scalar and b_scalar:
        return arithmetic(".^", a, b)
    x, y = _matrix_operand(a, "^"), _matrix_operand(b, "^")
    if (not a_scalar and not b_scalar) or x.ndim > 2 or y.ndim > 2:
        raise MatlabError("MATLAB:mpower:notScalarAndSquareMatrix", _MPOWER_MESSAGE)
    square = y if a_scalar else x
    if square.shape[0] != square.shape[1]:
        raise MatlabError("MATLAB:mpower:notScalarAndSquareMatrix", _MPOWER_MESSAGE)
    single = _matrix_class(x, y, "mpower")
    fx, fy = _float_matrix(x, single), _float_matrix(y, single)
    with np.errstate(all="ignore"):
        if a_scalar:
            base = complex(fx.reshape(-1)[0])
            log_base = np.log(base) if base.imag or base.real < 0 else np.log(base.real)
            import scipy.linalg
            result = scipy.linalg.expm(log_base * fy)
        else:
            p = fy.reshape(-1)[0]
            if p.imag == 0 and np.isfinite(p.real) and float(p.real) == int(p.real):
                result = _integer_matrix_power(fx, int(p.real))
            else:
                evals, evecs = np.linalg.eig(fx)
                powered = np.power(evals.astype(np.complex128), complex(p))
                result = (evecs * powered) @ np.linalg.inv(evecs)
    if single:
        result = result.astype(np.complex64 if result.dtype.kind == "c" else np.float32)
    return canonical(drop_zero_imag(np.asarray(result)))


def _integer_matrix_power(x: np.ndarray, p: int) -> np.ndarray:
    if p < 0:
        inv = _solve(x, np.eye(x.shape[0], dtype=x.dtype))
        return _integer_matrix_power(inv, -p)
    result = np.eye(x.shape[0], dtype=x.dtype)
    base = x
    while p:
        if p & 1:
            result = result @ base
        base = base @ base
        p >>= 1
    return result
