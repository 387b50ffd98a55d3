"""Device path of ``round(x, n)``: rounding to ``n`` decimals (``n < 0``:
to tens, hundreds...), as the host computes it.

``n >= 0``: ``round(x * 10^n) / 10^n``, except where the scaled value
overflows (a finite ``x`` beyond ``realmax / 10^n`` has no decimals to
round): ``x`` itself there, picked on the device from the two candidates
(``[r(:); x(:)]`` gathered at ``i + overflow_i * numel``, no read-back).
``n < 0``: ``round(x / 10^-n) * 10^-n``. Integer data is already whole:
unchanged for ``n >= 0``, else rounded in double and converted back
(MATLAB's saturation). ``'significant'``, complex data and one-argument
``round`` (the elementwise path) return None.
"""

from __future__ import annotations

import math
from typing import Any

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import FLOAT, INT_EXACT_IN_DOUBLE, call, op, where
from matfuse.runtime.values import is_char, to_str


def _digits(args: list[Any]) -> int | None:
    """The whole number of decimals, or None for any other form."""
    if len(args) not in (2, 3) or type(args[1]) is not float:
        return None
    n = args[1]
    if not math.isfinite(n) or n != math.floor(n):
        return None
    if len(args) == 3 and not (is_char(args[2]) and to_str(args[2]).lower() == "decimals"):
        return None
    return int(n)


def round_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``round(x, n)`` / ``round(x, n, 'decimals')`` of a real gpuArray."""
    digits = _digits(args)
    x = args[0]
    if digits is None or nargout > 1 or not isinstance(x, GpuArray) or x.is_complex() \
            or 0 in x.shape:
        return None
    cls = x.matlab_class
    if cls in INT_EXACT_IN_DOUBLE:
        if digits >= 0:
            return [x]
        rounded = round_on_device([call("double", x), float(digits)], 1, ctx)
        return None if rounded is None else [call(cls, rounded[0])]
    if cls not in FLOAT:
        return None
    if digits > 308:
        return [x]
    if digits < 0:
        scale = 10.0 ** min(-digits, 308)
        return [op(".*", call("round", op("./", x, scale)), scale)]
    scale = 10.0 ** digits
    rounded = op("./", call("round", op(".*", x, scale)), scale)
    overflow = call("and", call("isinf", rounded), call("isfinite", x))
    return [where(overflow, x, rounded)]


COMPOSED = {"round": round_on_device}
