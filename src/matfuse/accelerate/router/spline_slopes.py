"""Derivatives at the samples of the not-a-knot cubic spline through sorted
distinct ``xs`` (n x 1) and the columns of ``ys`` (n x k), on the device:
the system SciPy's ``CubicSpline`` solves (the host's engine), built from
``h = diff(xs)`` and the secant slopes ``m = diff(ys) ./ h``:

* interior rows: ``h(i) d(i-1) + 2 (h(i-1) + h(i)) d(i) + h(i-1) d(i+1) =
  3 (h(i) m(i-1) + h(i-1) m(i))``;
* first and last rows: the not-a-knot conditions (the third derivative is
  continuous across the second and the second-last sample);
* three samples: the parabola through them; two: the straight line.

The tridiagonal matrix (with the two not-a-knot entries) is assembled as a
dense n x n matrix from 0/1 masks of its diagonals made on the host from n
alone, and solved by the device's ``mldivide`` (all columns at once).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import COLON, call, index, op, size_of, stack_rows


def _rows(v: Any, first: int, last: int) -> Any:
    return index(v, np.arange(first, last + 1, dtype=np.float64).reshape(-1, 1), COLON)


def _row(v: Any, k: int) -> Any:
    return _rows(v, k, k)


def spline_slopes(xs: Any, ys: Any) -> Any:
    """The spline's derivatives at the samples (n x k)."""
    n = size_of(xs)[0]
    h = op("-", _rows(xs, 2, n), _rows(xs, 1, n - 1))
    m = op("./", op("-", _rows(ys, 2, n), _rows(ys, 1, n - 1)), h)
    if n == 2:
        return stack_rows(m, m)
    h0, h1 = _row(h, 1), _row(h, 2)
    m0, m1 = _row(m, 1), _row(m, 2)
    if n == 3:
        sub = call("vertcat", 0.0, h1, 1.0)
        main = call("vertcat", 1.0, op(".*", 2.0, op("+", h0, h1)), 1.0)
        sup = call("vertcat", 1.0, h0, 0.0)
        rhs = stack_rows(op(".*", 2.0, m0),
                         op(".*", 3.0, op("+", op(".*", h0, m1), op(".*", h1, m0))), op(".*", 2.0, m1))
    else:
        hl, hk = _row(h, n - 1), _row(h, n - 2)          # the last two intervals
        ml, mk = _row(m, n - 1), _row(m, n - 2)
        span0 = op("+", h0, h1)                           # x(3) - x(1)
        spanl = op("+", hl, hk)                           # x(n) - x(n-2)
        sub = call("vertcat", 0.0, _rows(h, 2, n - 1), spanl)
        main = call("vertcat", h1, op(".*", 2.0, op("+", _rows(h, 1, n - 2), _rows(h, 2, n - 1))), hk)
        sup = call("vertcat", span0, _rows(h, 1, n - 2), 0.0)
        first = op("./", op("+", op(".*", op(".*", op("+", h0, op(".*", 2.0, span0)), h1), m0),
                            op(".*", op(".*", h0, h0), m1)), span0)
        inner = op(".*", 3.0, op("+", op(".*", _rows(h, 2, n - 1), _rows(m, 1, n - 2)),
                                 op(".*", _rows(h, 1, n - 2), _rows(m, 2, n - 1))))
        last = op("./", op("+", op(".*", op(".*", hl, hl), mk),
                           op(".*", op(".*", op("+", op(".*", 2.0, spanl), hl), hk), ml)), spanl)
        rhs = stack_rows(first, inner, last)
    i = np.arange(n).reshape(-1, 1)
    j = np.arange(n).reshape(1, -1)
    matrix = op("+", op("+", op(".*", sub, j == i - 1), op(".*", main, j == i)),
                op(".*", sup, j == i + 1))
    return call("mldivide", matrix, rhs)
