"""Device path of ``interp1`` for the methods ``linear``, ``nearest``,
``previous``, ``next``, ``pchip``/``cubic`` and ``spline`` (with NaN,
``'extrap'`` for ``linear``, ``pchip`` and ``spline``, or a numeric value
outside the samples).

The interval of each query is found on the device without a search hook:
the samples and the queries are sorted together (stable, samples first for
``x <= q``, queries first for ``x < q``); a running count of samples over
that order, read at each query's place (an inverse permutation, itself one
indexed assignment), is the number of samples below it, which is what the
host's ``searchsorted`` gives. Rows of the sorted values are then gathered
and combined by the host's formulas. Unsorted sample points are sorted on
the device first; their distinctness (MATLAB's error otherwise) is checked
with one logical read back when they live on the device.

``pchip`` takes SciPy's shape-preserving slopes (the host's engine) and its
Hermite coefficients and evaluation order, so the two agree to rounding;
``spline`` the same evaluation with the not-a-knot spline's derivatives
(``spline_slopes``: one device solve). ``makima``, the ``'pp'`` form, complex or integer
data and N-D queries with matrix values return None: the dispatcher's
counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import (
    COLON, FLOAT, assign, call, index, nan_where_true, op, size_of, stack_rows,
)
from matfuse.accelerate.router.spline_slopes import spline_slopes
from matfuse.runtime.values import DeviceValue, is_char, to_str

_METHODS = ("linear", "nearest", "previous", "next", "pchip", "cubic", "spline")
_EXTRAPOLATING = ("linear", "pchip", "cubic", "spline")


def _class_of(v: Any) -> str | None:
    """``double``/``single`` of a real float operand, else None."""
    if isinstance(v, DeviceValue):
        return v.matlab_class if v.matlab_class in FLOAT and not v.is_complex() else None
    if type(v) is float:
        return "double"
    if type(v) is np.ndarray and v.dtype in (np.float64, np.float32) and v.size > 0:
        return "double" if v.dtype == np.float64 else "single"
    return None


def _column(v: Any) -> Any:
    return call("reshape", call("double", v), float(np.prod(size_of(v))), 1.0)


def samples_below(x: Any, q: Any, strict: bool) -> Any:
    """For each element of the column ``q`` (m x 1), how many of the sorted
    column ``x`` (n x 1) are ``<= q`` (``< q`` when ``strict``); NaN queries
    count every sample. An m x 1 double gpuArray."""
    n, m = size_of(x)[0], size_of(q)[0]
    keys = call("vertcat", q, x) if strict else call("vertcat", x, q)
    _, order = call("sort", keys, 1.0, nargout=2)
    from_sample = op(">", order, float(m)) if strict else op("<=", order, float(n))
    running = call("cumsum", call("double", from_sample))
    place = assign(op(".*", order, 0.0), [order],
                   np.arange(1, n + m + 1, dtype=np.float64).reshape(-1, 1))
    first = 1 if strict else n + 1
    query_at = np.arange(first, first + m, dtype=np.float64).reshape(-1, 1)
    return index(running, index(place, query_at))


def _parse(args: list[Any]) -> tuple[Any, Any, Any, str, Any] | None:
    """(x or None, v, xq, method, extrapolation: None, 'extrap' or a float)."""
    rest = list(args)
    method, extrap, explicit = "linear", None, False
    if rest and is_char(rest[-1]) and to_str(rest[-1]).lower() == "extrap":
        extrap, explicit = "extrap", True
        rest.pop()
    elif len(rest) >= 4 and not is_char(rest[-1]) and is_char(rest[-2]):
        value = rest.pop()
        if isinstance(value, DeviceValue) or type(value) is not float:
            return None
        extrap, explicit = value, True
    if rest and is_char(rest[-1]):
        method = to_str(rest.pop()).lower().lstrip("*")
    if method not in _METHODS or (extrap == "extrap" and method not in _EXTRAPOLATING):
        return None
    if not explicit and method in ("pchip", "cubic", "spline"):
        extrap = "extrap"       # pchip and spline extrapolate unless told otherwise
    if len(rest) == 2:
        return None, rest[0], rest[1], method, extrap
    if len(rest) == 3:
        return rest[0], rest[1], rest[2], method, extrap
    return None


def _distinct(xs: Any) -> bool:
    """Whether the sorted column has no repeated value (read back if on the device)."""
    n = size_of(xs)[0]
    repeated = call("any", op("==", index(xs, np.arange(2, n + 1, dtype=np.float64).reshape(-1, 1)),
                              index(xs, np.arange(1, n, dtype=np.float64).reshape(-1, 1))))
    if isinstance(repeated, DeviceValue):
        repeated = repeated.gather()
    return not bool(np.asarray(repeated).reshape(-1)[0])


def _rows(v: Any, first: int, last: int) -> Any:
    """Rows ``first..last`` (1-based) of a matrix."""
    return index(v, np.arange(first, last + 1, dtype=np.float64).reshape(-1, 1), COLON)


def _edge_slope(h0: Any, h1: Any, m0: Any, m1: Any) -> Any:
    """The one-sided three-point end slope, shape-preserving (SciPy's and
    MATLAB's pchip)."""
    d = op("./", op("-", op(".*", op("+", op(".*", 2.0, h0), h1), m0), op(".*", h0, m1)),
           op("+", h0, h1))
    flips = op("~=", call("sign", d), call("sign", m0))
    steep = op("&", op("~=", call("sign", m0), call("sign", m1)),
               op(">", call("abs", d), op(".*", 3.0, call("abs", m0))))
    d = assign(d, [flips], 0.0)
    limit = op("&", call("not", flips), steep)
    return assign(d, [limit], index(op(".*", 3.0, m0), limit))


def pchip_slopes(xs: Any, ys: Any) -> Any:
    """Derivatives at the samples (n x k), by SciPy's PchipInterpolator rules."""
    n = size_of(xs)[0]
    h = op("-", _rows(xs, 2, n), _rows(xs, 1, n - 1))
    m = op("./", op("-", _rows(ys, 2, n), _rows(ys, 1, n - 1)), h)
    if n == 2:
        return stack_rows(m, m)
    m_lo, m_hi = _rows(m, 1, n - 2), _rows(m, 2, n - 1)
    h_lo, h_hi = _rows(h, 1, n - 2), _rows(h, 2, n - 1)
    turns = op("|", op("|", op("~=", call("sign", m_hi), call("sign", m_lo)), op("==", m_hi, 0.0)),
               op("==", m_lo, 0.0))
    w1 = op("+", op(".*", 2.0, h_hi), h_lo)
    w2 = op("+", h_hi, op(".*", 2.0, h_lo))
    whmean = op("./", op("+", op("./", w1, m_lo), op("./", w2, m_hi)), op("+", w1, w2))
    inner = assign(op("./", 1.0, whmean), [turns], 0.0)
    first = _edge_slope(_rows(h, 1, 1), _rows(h, 2, 2), _rows(m, 1, 1), _rows(m, 2, 2))
    last = _edge_slope(_rows(h, n - 1, n - 1), _rows(h, n - 2, n - 2),
                       _rows(m, n - 1, n - 1), _rows(m, n - 2, n - 2))
    return stack_rows(first, inner, last)


def _pchip(xs: Any, ys: Any, q: Any, at: Any, d: Any = None) -> Any:
    """Piecewise cubic Hermite values at ``q`` in the intervals ``at``: the
    coefficients and the evaluation order of SciPy's CubicHermiteSpline and
    PPoly, which the host uses (``d``: the derivatives at the samples,
    pchip's unless given)."""
    coefficients = hermite_coefficients(xs, ys, pchip_slopes(xs, ys) if d is None else d)
    return hermite_values(coefficients, op("-", q, index(xs, at)),
                          lambda c: index(c, at, COLON))


def hermite_coefficients(xs: Any, ys: Any, d: Any) -> tuple[Any, Any, Any, Any]:
    """Per interval ((n-1) x k): the value and the derivative at its left
    sample and the coefficients of s^2 and s^3 (SciPy's CubicHermiteSpline)."""
    n = size_of(xs)[0]
    h = op("-", _rows(xs, 2, n), _rows(xs, 1, n - 1))
    slope = op("./", op("-", _rows(ys, 2, n), _rows(ys, 1, n - 1)), h)
    d_lo = _rows(d, 1, n - 1)
    t = op("./", op("-", op("+", d_lo, _rows(d, 2, n)), op(".*", 2.0, slope)), h)
    c0 = op("./", t, h)
    c1 = op("-", op("./", op("-", slope, d_lo), h), t)
    return _rows(ys, 1, n - 1), d_lo, c1, c0


def hermite_values(coefficients: tuple[Any, Any, Any, Any], s: Any, pick: Any) -> Any:
    """The cubic at offsets ``s`` from the left samples, the coefficients
    picked per query by ``pick``, in PPoly's evaluation order."""
    y, d, c1, c0 = (pick(c) for c in coefficients)
    s2 = op(".*", s, s)
    out = op("+", y, op(".*", d, s))
    out = op("+", out, op(".*", c1, s2))
    return op("+", out, op(".*", c0, op(".*", s2, s)))


def interp1_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``interp1(x, v, xq[, method[, 'extrap'|value]])`` and ``interp1(v, xq, ...)``."""
    if nargout > 1 or not 2 <= len(args) <= 5:
        return None
    parsed = _parse(args)
    if parsed is None:
        return None
    x, v, xq, method, extrap = parsed
    classes = [_class_of(a) for a in (x, v, xq) if a is not None]
    if None in classes or len(size_of(v)) != 2 or len(size_of(xq)) != 2:
        return None
    v_shape = size_of(v)
    v_is_vector = min(v_shape) == 1
    rows = int(np.prod(v_shape)) if v_is_vector else v_shape[0]
    ys = call("reshape", call("double", v), float(rows), float(int(np.prod(v_shape)) // rows))
    if x is None:
        xs = np.arange(1.0, rows + 1).reshape(-1, 1)
    else:
        xs = _column(x)
        if size_of(xs)[0] != rows or rows < 2:
            return None
        xs, order = call("sort", xs, 1.0, nargout=2)
        ys = index(ys, order, COLON)
        if not _distinct(xs):
            return None
    q = _column(xq)
    m = size_of(q)[0]
    if method == "next":
        at = call("min", op("+", samples_below(xs, q, True), 1.0), float(rows))
    else:
        below = samples_below(xs, q, False)
        if method in _EXTRAPOLATING:
            at = call("min", call("max", below, 1.0), float(rows - 1))
        else:
            at = call("max", below, 1.0)
    if method in ("pchip", "cubic"):
        out = _pchip(xs, ys, q, at)
    elif method == "spline":
        out = _pchip(xs, ys, q, at, spline_slopes(xs, ys))
    elif method == "linear":
        x_lo, x_hi = index(xs, at), index(xs, op("+", at, 1.0))
        t = op("./", op("-", q, x_lo), op("-", x_hi, x_lo))
        y_lo, y_hi = index(ys, at, COLON), index(ys, op("+", at, 1.0), COLON)
        out = op("+", y_lo, op(".*", t, op("-", y_hi, y_lo)))
    elif method == "nearest":
        upper = call("min", op("+", at, 1.0), float(rows))
        pick_upper = op(">=", op("-", q, index(xs, at)), op("-", index(xs, upper), q))
        out = index(ys, op("+", at, op(".*", pick_upper, op("-", upper, at))), COLON)
    else:
        out = index(ys, at, COLON)
    if extrap != "extrap":
        outside = call("not", op("&", op(">=", q, index(xs, 1.0)), op("<=", q, index(xs, float(rows)))))
        if extrap is None:
            out = op("+", out, nan_where_true(outside))
        else:
            mask = op("|", outside, np.zeros((1, size_of(ys)[1]), dtype=bool))
            out = assign(out, [mask], extrap)
    if "single" in classes:
        out = call("single", out)
    xq_shape = size_of(xq)
    if v_is_vector:
        shape = xq_shape
    elif min(xq_shape) == 1:
        shape = (m,) + v_shape[1:]
    else:
        shape = xq_shape + v_shape[1:]
    return [call("reshape", out, *[float(d) for d in shape])]


COMPOSED = {"interp1": interp1_on_device}
