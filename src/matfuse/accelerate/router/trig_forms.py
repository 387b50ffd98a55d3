"""Device paths of the trigonometric functions MATLAB defines from others:
``sec``/``csc``/``cot`` (reciprocals), ``deg2rad``/``rad2deg`` (a scale),
``asind``/``acosd``/``atand`` (radians scaled to degrees) and
``sind``/``cosd``/``tand``.

The degree functions follow the host's argument reduction step by step, so
multiples of 90 degrees are exact as in MATLAB (``sind(180)`` is 0,
``tand(45)`` is 1): ``x = rem(a, 360)``, quadrant ``q = round(x/90)``, the
remainder ``x - 90q`` in radians within [-pi/4, pi/4]; the quadrant picks
``+-sin`` or ``+-cos`` of it through 0/1 masks (elementwise products and
sums, which fuse into one kernel). Non-finite angles give NaN.

Integer, empty and (except for ``deg2rad``/``rad2deg``) complex data return
None: the dispatcher's counted host fallback (not every provider has the
complex elementwise functions).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import FLOAT, call, nan_where_true, op, real_float

_TO_DEGREES = 180 / math.pi
_TO_RADIANS = math.pi / 180

Impl = Callable[[list[Any], int, Any], "list[Any] | None"]


def _float_data(args: list[Any], nargout: int, complex_ok: bool) -> GpuArray | None:
    """The one float gpuArray argument (complex only if ``complex_ok``), or None."""
    if nargout > 1 or len(args) != 1:
        return None
    x = args[0]
    if complex_ok:
        ok = isinstance(x, GpuArray) and x.matlab_class in FLOAT and 0 not in x.shape
    else:
        ok = real_float(x)
    return x if ok else None


def _reciprocal(fn: str, complex_ok: bool) -> Impl:
    def impl(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        x = _float_data(args, nargout, complex_ok)
        return None if x is None else [op("./", 1.0, call(fn, x))]
    impl.__doc__ = f"``1 ./ {fn}(x)``."
    return impl


def _scaled(fn: str | None, factor: float, complex_ok: bool) -> Impl:
    def impl(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        x = _float_data(args, nargout, complex_ok)
        if x is None:
            return None
        return [op(".*", x if fn is None else call(fn, x), factor)]
    impl.__doc__ = f"``{fn or 'x'}`` times {factor!r}."
    return impl


def _sin_cos_degrees(x: GpuArray) -> tuple[Any, Any]:
    """``(sind(x), cosd(x))`` by the host's reduction (see module doc)."""
    reduced = call("rem", x, 360.0)
    quadrant = call("round", op("/", reduced, 90.0))
    radians = op(".*", op("-", reduced, op(".*", quadrant, 90.0)), _TO_RADIANS)
    q = call("mod", quadrant, 4.0)
    s, c = call("sin", radians), call("cos", radians)
    in_q = [op("==", q, float(k)) for k in range(4)]
    sine = op("-", op("+", op(".*", s, in_q[0]), op(".*", c, in_q[1])),
              op("+", op(".*", s, in_q[2]), op(".*", c, in_q[3])))
    cosine = op("-", op("+", op(".*", c, in_q[0]), op(".*", s, in_q[3])),
                op("+", op(".*", s, in_q[1]), op(".*", c, in_q[2])))
    not_finite = call("not", call("isfinite", x))
    # + 0 turns -0 into 0, as MATLAB prints sind(180); NaN for Inf and NaN
    return tuple(op("+", v, nan_where_true(not_finite)) for v in (sine, cosine))


def sind_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``sind(x)`` of real float data, exact at multiples of 90 degrees."""
    x = _float_data(args, nargout, False)
    return None if x is None else [_sin_cos_degrees(x)[0]]


def cosd_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``cosd(x)`` of real float data, exact at multiples of 90 degrees."""
    x = _float_data(args, nargout, False)
    return None if x is None else [_sin_cos_degrees(x)[1]]


def tand_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``tand(x) = sind(x) ./ cosd(x)``; odd multiples of 45 degrees give
    exactly +-1 (both parts replaced by their signs there), multiples of
    180 give 0 and odd multiples of 90 give +-Inf."""
    x = _float_data(args, nargout, False)
    if x is None:
        return None
    s, c = _sin_cos_degrees(x)
    at45 = op("==", call("abs", call("rem", x, 90.0)), 45.0)

    def signed(v: Any) -> Any:
        return op("+", v, op(".*", at45, op("-", call("sign", v), v)))
    return [op("./", signed(s), signed(c))]


COMPOSED = {
    "sec": _reciprocal("cos", False),
    "csc": _reciprocal("sin", False),
    "cot": _reciprocal("tan", False),
    "deg2rad": _scaled(None, _TO_RADIANS, True),
    "rad2deg": _scaled(None, _TO_DEGREES, True),
    "asind": _scaled("asin", _TO_DEGREES, False),
    "acosd": _scaled("acos", _TO_DEGREES, False),
    "atand": _scaled("atan", _TO_DEGREES, False),
    "sind": sind_on_device,
    "cosd": cosd_on_device,
    "tand": tand_on_device,
}
