"""Device paths of ``skewness`` and ``kurtosis`` (the Statistics Toolbox's
definitions, NaN ignored): with ``n`` the non-NaN count of a slice and
``d = x - mean``, the ratio ``mean(d.^k) / mean(d.^2)^(k/2)``; flag 0
applies the bias correction, which needs ``n > 2`` (skewness) or ``n > 3``
(kurtosis) and gives NaN otherwise. Composed from ``'omitnan'`` sums and
elementwise operators over ``dim``, ``vecdim`` or ``'all'``.

Complex, integer or empty data, and other flags, return None: the
dispatcher's counted host fallback, which raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import (
    call, dims_of, host_scalar, nan_where_true, op, real_float,
)
from matfuse.runtime.values import char_array

_OMITNAN = char_array("omitnan")
_ALL = char_array("all")


def _ratio(power: int) -> Any:
    def shape_statistic(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``skewness/kurtosis(x)``, ``(x, flag)``, ``(x, flag, dim|vecdim|'all')``."""
        if nargout > 1 or not 1 <= len(args) <= 3 or not real_float(args[0]):
            return None
        x = args[0]
        flag = 1.0
        if len(args) >= 2 and not (type(args[1]) is np.ndarray and args[1].size == 0):
            flag = host_scalar(args[1])
            if flag not in (0.0, 1.0):
                return None
        dims = dims_of(args[2] if len(args) == 3 else None, tuple(x.shape))
        if dims == "bad":
            return None
        where = _ALL if dims is None else np.array([[d + 1.0 for d in dims]])
        n = call("sum", call("not", call("isnan", x)), where)
        mu = op("./", call("sum", x, where, _OMITNAN), n)
        dev = op("-", x, mu)
        m2 = op("./", call("sum", op(".*", dev, dev), where, _OMITNAN), n)
        mk = op("./", call("sum", op(".^", dev, float(power)), where, _OMITNAN), n)
        ratio = op("./", mk, op(".^", m2, power / 2.0))
        if flag == 0.0:
            ratio = _corrected(ratio, n, power)
        return [ratio]
    return shape_statistic


def _corrected(ratio: Any, n: Any, power: int) -> Any:
    """The bias-corrected estimate (NaN where the slice is too short)."""
    if power == 3:
        scale = op("./", call("sqrt", op(".*", n, op("-", n, 1.0))), op("-", n, 2.0))
        return op("+", op(".*", ratio, scale), nan_where_true(op("<=", n, 2.0)))
    nm1 = op("-", n, 1.0)
    factor = op("./", nm1, op(".*", op("-", n, 2.0), op("-", n, 3.0)))
    inner = op("-", op(".*", op("+", n, 1.0), ratio), op(".*", 3.0, nm1))
    return op("+", op("+", 3.0, op(".*", factor, inner)), nan_where_true(op("<=", n, 3.0)))


COMPOSED = {
    "skewness": _ratio(3),
    "kurtosis": _ratio(4),
}
