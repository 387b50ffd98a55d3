"""Device paths of elementwise functions whose result depends on whether the
data lies in a real domain: ``asin``, ``acos``, ``acosh``, ``atanh`` (complex
results outside it), ``reallog`` and ``realsqrt`` (an error outside it), and
the powers of two ``pow2`` and ``nextpow2``.

One any-reduction on the device decides (a logical scalar read back). Data
inside the domain returns None here, so the ordinary elementwise path (a
fused node or the provider's hook) computes it; data outside gets MATLAB's
complex values composed on the device from real functions of clamped data:

* ``asin(x) = asin(c) - i*sign(x)*acosh(|x|)``, ``acos(x) = acos(c) +
  i*sign(x)*acosh(|x|)`` with ``c = min(max(x, -1), 1)`` (MATLAB's branch
  for real ``x > 1``: the conjugate of the C99 principal value);
* ``acosh(x) = acosh(max(|x|, 1)) + i*acos(c)``;
* ``atanh(x) = sign(x)*log1p(2/(|x|-1))/2 + i*pi/2`` where ``|x| > 1``.

``max``/``min`` drop NaN, so NaN elements get NaN added back to both parts
(the host's complex functions give ``NaN + NaNi`` there). Complex, integer
and empty data return None: the dispatcher's counted host fallback, which
also raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import FLOAT, call, nan_where_true, op, real_float
from matfuse.errors import MatlabError
from matfuse.runtime.values import char_array

_ALL = char_array("all")
_HALF_PI = float(np.pi / 2)


def any_true(mask: Any) -> bool:
    """Whether any element of a device logical array is true (one scalar read back)."""
    flag = call("any", mask, _ALL)
    if isinstance(flag, GpuArray):
        flag = flag.gather()
    return bool(np.asarray(flag).reshape(-1)[0])


def _clamped(x: GpuArray) -> Any:
    """``min(max(x, -1), 1)`` (NaN becomes -1: callers add NaN back)."""
    return call("min", call("max", x, -1.0), 1.0)


def _with_nan(v: Any, nan_mask: Any) -> Any:
    return op("+", v, nan_where_true(nan_mask))


def _complex_of(re: Any, im: Any, x: GpuArray) -> Any:
    nan_mask = call("isnan", x)
    return call("complex", _with_nan(re, nan_mask), _with_nan(im, nan_mask))


def _outside_unit(x: GpuArray) -> bool:
    return any_true(op(">", call("abs", x), 1.0))


def _acosh_of_magnitude(x: GpuArray) -> Any:
    """``acosh(max(|x|, 1))``: 0 inside [-1, 1]."""
    return call("acosh", call("max", call("abs", x), 1.0))


def asin_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``asin(x)`` of real data with an element outside [-1, 1]: complex."""
    x = _single_real_float(args, nargout)
    if x is None or not _outside_unit(x):
        return None
    im = op(".*", call("uminus", call("sign", x)), _acosh_of_magnitude(x))
    return [_complex_of(call("asin", _clamped(x)), im, x)]


def acos_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``acos(x)`` of real data with an element outside [-1, 1]: complex."""
    x = _single_real_float(args, nargout)
    if x is None or not _outside_unit(x):
        return None
    im = op(".*", call("sign", x), _acosh_of_magnitude(x))
    return [_complex_of(call("acos", _clamped(x)), im, x)]


def acosh_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``acosh(x)`` of real data with an element below 1: complex."""
    x = _single_real_float(args, nargout)
    if x is None or not any_true(op("<", x, 1.0)):
        return None
    return [_complex_of(_acosh_of_magnitude(x), call("acos", _clamped(x)), x)]


def atanh_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``atanh(x)`` of real data with an element outside [-1, 1]: complex
    (``atanh(1/x) + i*pi/2`` there, as the principal value)."""
    x = _single_real_float(args, nargout)
    if x is None or not _outside_unit(x):
        return None
    mag = call("abs", x)
    outside = op(">", mag, 1.0)
    # inside: atanh(x); outside: sign(x)*log1p(2/(|x|-1))/2, which keeps the
    # digits near |x| = 1 that atanh(1/x) loses. Each branch gets a harmless
    # argument where the other applies (0, and 2), then a 0/1 mask.
    inner = call("atanh", op(".*", _clamped(x), call("not", outside)))
    far = op("+", op(".*", mag, outside), op(".*", call("not", outside), 2.0))
    tail = call("log1p", op("./", 2.0, op("-", far, 1.0)))
    re = op("+", inner, op(".*", op(".*", call("sign", x), outside), op(".*", tail, 0.5)))
    return [_complex_of(re, op(".*", outside, _HALF_PI), x)]


def _real_function(name: str, fn: str) -> Any:
    def impl(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        x = _single_real_float(args, nargout)
        if x is None:
            return None
        if any_true(op("<", x, 0.0)):
            raise MatlabError(f"MATLAB:{name}:complexResult",
                              f"{name.capitalize()} produced complex result.")
        return [call(fn, x)]
    impl.__doc__ = (f"``{name}(x)`` of real float data: ``{fn}(x)``, or MATLAB's error "
                    "when an element is negative (decided on the device).")
    return impl


def pow2_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``pow2(y)`` is ``2.^y`` and ``pow2(f, e)`` is ``f .* 2.^e`` for real
    float data (integer powers of two are exact on every device)."""
    if nargout > 1 or len(args) not in (1, 2):
        return None
    if not all(real_float(a) or _host_real_float(a) for a in args) or \
            not any(isinstance(a, GpuArray) for a in args):
        return None
    if len(args) == 1:
        return [op(".^", 2.0, args[0])]
    f, e = args
    return [op(".*", f, op(".^", 2.0, e))]


def _host_real_float(v: Any) -> bool:
    return type(v) is float or (type(v) is np.ndarray and v.dtype.kind == "f" and v.size > 0)


def nextpow2_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``nextpow2(x)``: the smallest ``p`` with ``2^p >= |x|`` (0 for 0),
    from ``ceil(log2(|x|))`` corrected by one either way with exact powers
    of two; the class of ``x`` (single for complex single)."""
    if nargout > 1 or len(args) != 1 or not isinstance(args[0], GpuArray) or 0 in args[0].shape:
        return None
    x = args[0]
    cls = x.matlab_class
    if cls not in FLOAT and cls not in ("int8", "uint8", "int16", "uint16", "int32", "uint32"):
        return None
    mag = call("abs", call("double", x))
    safe = op("+", mag, op("==", mag, 0.0))          # 0 -> 1: log2 is 0 there
    p = call("ceil", call("log2", safe))
    p = op("-", p, op(">=", op(".^", 2.0, op("-", p, 1.0)), safe))
    p = op("+", p, op("<", op(".^", 2.0, p), safe))
    return [p if cls == "double" else call(cls, p)]


def _single_real_float(args: list[Any], nargout: int) -> GpuArray | None:
    if nargout > 1 or len(args) != 1 or not real_float(args[0]):
        return None
    return args[0]


COMPOSED = {
    "asin": asin_on_device,
    "acos": acos_on_device,
    "acosh": acosh_on_device,
    "atanh": atanh_on_device,
    "reallog": _real_function("reallog", "log"),
    "realsqrt": _real_function("realsqrt", "sqrt"),
    "pow2": pow2_on_device,
    "nextpow2": nextpow2_on_device,
}
