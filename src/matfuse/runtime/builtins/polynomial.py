"""Polynomials: polyval polyfit polyder polyint roots poly.

Coefficient vectors are in descending powers, as in MATLAB.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._matrixops import emit_warning
from matfuse.runtime.builtins._common import int_value
from matfuse.runtime.builtins._math_support import double_values, numeric_array
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import StructArray, canonical, to_array


def _vector(v: Any, fn: str, what: str = "Input") -> np.ndarray:
    arr = numeric_input(v, fn)
    if not (arr.ndim == 2 and min(arr.shape) <= 1):
        raise MatlabError(f"MATLAB:{fn}:InvalidInput" if fn != "polyval" else "MATLAB:polyval:InvalidP",
                          f"{what} must be a vector.")
    flat = arr.reshape(-1, order="F")
    return flat.astype(np.complex128 if flat.dtype.kind == "c" else
                       (np.float32 if flat.dtype == np.float32 else np.float64))


def _row(x: np.ndarray) -> Any:
    return canonical(x.reshape(1, -1))


def _is_single(v: Any) -> bool:
    """A single-precision argument (MATLAB: single wins over double)."""
    dtype = getattr(v, "dtype", None)
    if dtype is None and hasattr(v, "underlying_class"):
        return v.underlying_class() == "single"
    return dtype in (np.float32, np.complex64)


@builtin("polyval", category="polynomials", nargin=(2, 4), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="elementwise", hook="polyval", op="polyval"))
@ieee_quiet
def polyval(p: Any, x: Any, s: Any = None, mu: Any = None, nargout: int = 1) -> Any:
    """Evaluate a polynomial (Horner): y = polyval(p, x[, S, mu]); [y, delta]."""
    coeffs = _vector(p, "polyval", "Input argument P")
    xv = numeric_input(x, "polyval")
    xv = xv.astype(np.result_type(xv.dtype, np.float32 if xv.dtype == np.float32 else np.float64))
    if mu is not None:
        m = double_values(mu, "polyval").reshape(-1)
        if m.size < 2:
            raise MatlabError("MATLAB:polyval:InvalidMu",
                              "MU must be a two-element vector [mean; std].")
        xv = (xv - m[0]) / m[1]
    y = np.zeros(xv.shape, dtype=np.result_type(xv.dtype, coeffs.dtype))
    for c in coeffs:
        y = y * xv + c
    if coeffs.size == 0:
        y = np.zeros(xv.shape)
    if _is_single(p) or _is_single(x):
        y = y.astype(np.complex64 if y.dtype.kind == "c" else np.float32)
    if nargout < 2:
        return canonical(y)
    if not isinstance(s, StructArray):
        raise MatlabError("MATLAB:polyval:RequiresS", "S input is required for DELTA output.")
    entry = s.data.reshape(-1)[0]
    r = to_array(entry["R"]).astype(np.float64)
    df = float(to_array(entry["df"]).reshape(-1)[0])
    normr = float(to_array(entry["normr"]).reshape(-1)[0])
    vander = np.vander(xv.reshape(-1, order="F").real, coeffs.size)
    e = np.linalg.solve(r.T, vander.T).T
    spread = np.sqrt(1 + np.sum(e * e, axis=1)) * (normr / np.sqrt(df) if df else np.inf)
    return canonical(y), canonical(spread.reshape(xv.shape, order="F"))


@builtin("polyfit", category="polynomials", nargin=(3, 3), nargout=(0, 3), wants_nargout=True)
@ieee_quiet
def polyfit(x: Any, y: Any, n: Any, nargout: int = 1) -> Any:
    """Least-squares polynomial fit: [p, S, mu] = polyfit(x, y, n)."""
    xv = numeric_input(x, "polyfit").astype(np.float64).reshape(-1, order="F")
    yv = numeric_input(y, "polyfit")
    yv = yv.astype(np.complex128 if yv.dtype.kind == "c" else np.float64).reshape(-1, order="F")
    if xv.size != yv.size:
        raise MatlabError("MATLAB:polyfit:XYSizeMismatch", "The first two inputs must have the same number of elements.")
    deg = int_value(n, "polyfit")
    if deg < 0:
        raise MatlabError("MATLAB:polyfit:InvalidN", "The degree N must be a non-negative integer scalar.")
    mu = None
    if nargout > 2:
        mu = np.array([xv.mean(), xv.std(ddof=1) if xv.size > 1 else 0.0])
        xv = (xv - mu[0]) / mu[1]
    vander = np.vander(xv, deg + 1)
    q, r = np.linalg.qr(vander)
    full_rank = np.linalg.matrix_rank(vander) == deg + 1
    with np.errstate(all="ignore"):
        if full_rank and r.shape[0] == r.shape[1]:
            # MATLAB's p = R\(Q'*y): a triangular solve, exact for exact data.
            from scipy.linalg import solve_triangular

            p = solve_triangular(r, q.T @ yv)
        else:
            p = np.linalg.lstsq(vander, yv, rcond=None)[0]
    if not full_rank:
        emit_warning("MATLAB:polyfit:RepeatedPointsOrRescale",
                     "Polynomial is not unique; degree >= number of data points.")
    elif np.linalg.cond(r) > 1.0e10:
        emit_warning("MATLAB:polyfit:RepeatedPointsOrRescale",
                     "Polynomial is badly conditioned. Add points with distinct X values, reduce the "
                     "degree of the polynomial, or try centering and scaling as described in HELP POLYFIT.")
    outputs: list[Any] = [_row(p)]
    if nargout > 1:
        resid = yv - vander @ p
        normr = float(np.linalg.norm(resid))
        df = float(max(0, yv.size - (deg + 1)))
        r_out = r if r.shape[0] == deg + 1 else np.linalg.qr(vander)[1]
        outputs.append(StructArray.scalar({
            "R": canonical(r_out), "df": df, "normr": normr,
            "rsquared": float(1 - normr ** 2 / np.sum(np.abs(yv - yv.mean()) ** 2))
            if yv.size > 1 else float("nan"),
        }))
    if nargout > 2:
        outputs.append(canonical(mu.reshape(-1, 1)))
    return tuple(outputs) if nargout > 1 else outputs[0]


def _strip_leading_zeros(p: np.ndarray) -> np.ndarray:
    nz = np.flatnonzero(p != 0)
    return p[nz[0]:] if nz.size else p[:0]


@builtin("polyder", category="polynomials", nargin=(1, 2), nargout=(0, 2), wants_nargout=True)
@ieee_quiet
def polyder(a: Any, b: Any = None, nargout: int = 1) -> Any:
    """Derivative: polyder(p); of a product polyder(a, b); [q, d] = polyder(b, a) of a quotient."""
    pa = _vector(a, "polyder")
    if pa.size == 0:
        pa = np.zeros(1)
    if b is None:
        n = pa.size
        d = pa[:-1] * np.arange(n - 1, 0, -1) if n > 1 else np.zeros(1)
        d = _strip_leading_zeros(d)
        return _row(d if d.size else np.zeros(1))
    pb = _vector(b, "polyder")
    if pb.size == 0:
        pb = np.zeros(1)
    da = polyder_vector(pa)
    db = polyder_vector(pb)
    if nargout < 2:
        prod = _poly_add(np.convolve(da, pb), np.convolve(pa, db))
        prod = _strip_leading_zeros(prod)
        return _row(prod if prod.size else np.zeros(1))
    # Quotient rule for u/v = a/b: (u'v - uv') / v^2.
    num = _poly_add(np.convolve(da, pb), -np.convolve(pa, db))
    num = _strip_leading_zeros(num)
    den = _strip_leading_zeros(np.convolve(pb, pb))
    return _row(num if num.size else np.zeros(1)), _row(den)


def polyder_vector(p: np.ndarray) -> np.ndarray:
    n = p.size
    return p[:-1] * np.arange(n - 1, 0, -1) if n > 1 else np.zeros(1)


def _poly_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = max(a.size, b.size)
    return np.pad(a, (n - a.size, 0)) + np.pad(b, (n - b.size, 0))


@builtin("polyint", category="polynomials", nargin=(1, 2))
def polyint(p: Any, k: Any = None) -> Any:
    """Integral of a polynomial with constant of integration k (default 0)."""
    pv = _vector(p, "polyint")
    kk = None if k is None else numeric_array(k, "polyint").reshape(-1)
    const = 0.0 if kk is None or kk.size == 0 else kk[0]
    out = np.concatenate([pv / np.arange(pv.size, 0, -1), [const]])
    return _row(out)


@builtin("roots", category="polynomials", nargin=(1, 1))
def roots(c: Any) -> Any:
    """Roots of a polynomial, as the eigenvalues of the companion matrix."""
    pv = _vector(c, "roots", "Input")
    if not np.all(np.isfinite(pv)):
        raise MatlabError("MATLAB:roots:NonFiniteInput", "Input to ROOTS must not contain NaN or Inf.")
    nz = np.flatnonzero(pv)
    if nz.size == 0:
        return canonical(np.zeros((0, 0)))
    trailing = pv.size - 1 - nz[-1]
    pv = pv[nz[0]:nz[-1] + 1]
    # Leading coefficients so small that dividing by them overflows are
    # dropped, as MATLAB's roots does (their roots are at infinity).
    with np.errstate(over="ignore", divide="ignore"):
        while pv.size > 1 and np.any(np.isinf(pv[1:] / pv[0])):
            pv = pv[1:]
    n = pv.size - 1
    if n >= 1:
        companion = np.diag(np.ones(n - 1, dtype=pv.dtype), -1)
        companion[0, :] = -pv[1:] / pv[0]
        r = np.linalg.eigvals(companion)
    else:
        r = np.zeros(0)
    r = np.concatenate([r, np.zeros(trailing)])
    if r.dtype.kind == "c" and np.all(r.imag == 0):
        r = r.real
    return canonical(r.reshape(-1, 1)) if r.size else canonical(np.zeros((0, 1)))


@builtin("poly", category="polynomials", nargin=(1, 1))
def poly(r: Any) -> Any:
    """Polynomial with roots r, or the characteristic polynomial of a square matrix."""
    arr = numeric_input(r, "poly")
    arr = arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64)
    if arr.ndim == 2 and arr.shape[0] == arr.shape[1] and arr.shape[0] > 1:
        e = np.linalg.eigvals(arr)
    elif arr.ndim == 2 and min(arr.shape) <= 1:
        e = arr.reshape(-1, order="F")
    else:
        raise MatlabError("MATLAB:poly:InputSize", "Argument must be a vector or a square matrix.")
    c = np.ones(1, dtype=np.complex128)
    for root in e[np.isfinite(e)]:
        c = np.concatenate([c, [0]]) - root * np.concatenate([[0], c])
    # Real result when the roots come in conjugate pairs (as MATLAB checks).
    pos = np.sort_complex(e[np.imag(e) > 0])
    neg = np.sort_complex(np.conj(e[np.imag(e) < 0]))
    if np.all(np.imag(e) == 0) or (pos.size == neg.size and np.array_equal(pos, neg)):
        c = c.real
    return _row(c)
