"""``movsum`` and ``movmean`` on the device, as convolutions with a window of
ones (the provider's ``conv2d`` hook).

For a window of ``kb`` elements back and ``kf`` forward, the moving sum at
``i`` is the full convolution with ``ones(kb+kf+1)`` at ``i + kf``; a
symmetric odd window is exactly ``conv2(..., 'same')``, other windows take
one slice of the full result. ``'Endpoints','shrink'`` (the default) divides
by the number of elements the window covers, itself the convolution of
ones. A window holding NaN gives NaN (it propagates through the sum), as
MATLAB's default ``'includenan'``; with ``'omitnan'`` NaN counts as 0 in the
sum and not at all in the count, and a window of only NaN gives NaN (mean)
or 0 (sum). A direct sum of each window is at least as accurate as the host's
difference of prefix sums: both are within ``w * eps * sum(|x|)`` of the
exact window sums.

Other forms (other endpoints, N-D data, a window along a trailing singleton
dimension, integer or complex data) return None: the counted host fallback.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate_api import AccelProvider, GpuTensorHandle, Unsupported
from matfuse.runtime.values import char_array, is_char, to_str

_FLOAT = ("double", "single")


def _call(name: str, *args: Any) -> Any:
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    return call_builtin(lookup(name), list(args), 1, None)[0]


def _op(symbol: str, a: Any, b: Any) -> Any:
    from matfuse.runtime import ops

    return ops.binary(symbol, a, b)


def _options(rest: list[Any]) -> tuple[bool, int | None] | None:
    """(omitnan, 0-based dim or None) of the trailing arguments, or None for
    forms left to the host (other endpoints, unknown words: the host raises)."""
    omit, dim = False, None
    i = 0
    while i < len(rest):
        a = rest[i]
        if is_char(a):
            word = to_str(a).lower()
            if word in ("omitnan", "omitmissing", "includenan", "includemissing"):
                omit = word.startswith("omit")
            elif word == "endpoints" and i + 1 < len(rest) and is_char(rest[i + 1]) \
                    and to_str(rest[i + 1]).lower() == "shrink":
                i += 1
            else:
                return None
        elif type(a) is float and a >= 1 and a == int(a) and dim is None:
            dim = int(a) - 1
        else:
            return None
        i += 1
    return omit, dim


def _moving(fn: str):
    def moving(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``movsum/movmean(x, k|[kb kf], dim, nanflag, 'Endpoints', 'shrink')``
        of real float matrices."""
        from matfuse.runtime.builtins.moving_windows import window_extent

        if len(args) < 2 or nargout > 1:
            return None
        x, k = args[0], args[1]
        if not isinstance(x, GpuArray) or x.matlab_class not in _FLOAT or x.is_complex() \
                or len(x.shape) != 2 or 0 in x.shape or isinstance(k, GpuArray):
            return None
        opts = _options(list(args[2:]))
        if opts is None:
            return None
        omit, dim = opts
        back, fwd = window_extent(k, fn)
        if dim is None:
            dim = 0 if x.shape[0] != 1 else 1
        if dim > 1:
            return None
        try:
            return [_on_device(x.provider, fn, x, back, fwd, dim, omit)]
        except Unsupported:
            return None
    return moving


def _on_device(p: AccelProvider, fn: str, x: GpuArray, back: int, fwd: int, dim: int,
               omit: bool) -> GpuArray:
    cls, dtype = x.matlab_class, x.handle.dtype
    w = back + fwd + 1
    window = wrap_handle(p.fill((w, 1) if dim == 0 else (1, w), 1.0, dtype), cls, p)
    shape = tuple(x.shape)
    values = x
    if omit:
        nan = _call("isnan", x)
        values = _zero_nan(x)
        counted = _call("cast", _call("not", nan), char_array(cls))
    else:
        counted = wrap_handle(p.fill(shape, 1.0, dtype), cls, p)
    total = _window_sum(p, values, window, back, fwd, dim)
    if fn == "movsum":
        return total
    count = _window_sum(p, counted, window, back, fwd, dim)
    return _op("./", total, count)


def _zero_nan(v: GpuArray) -> Any:
    """``v`` with NaN replaced by 0, by a masked assignment on the device."""
    from matfuse.runtime._assign import paren_set

    return paren_set(v, [_call("isnan", v)], 0.0)


def _window_sum(p: AccelProvider, v: GpuArray, window: GpuArray, back: int, fwd: int,
                dim: int) -> GpuArray:
    """Sums of ``v`` over the window at each position along ``dim``."""
    handle: GpuTensorHandle = v.valid_handle()
    if back == fwd:
        return wrap_handle(p.conv2d(handle, window.valid_handle(), "same"), v.matlab_class, p)
    full = wrap_handle(p.conv2d(handle, window.valid_handle(), "full"), v.matlab_class, p)
    n = v.shape[dim]
    subs: list[Any] = [char_array(":"), char_array(":")]
    subs[dim] = np.arange(fwd + 1, fwd + n + 1, dtype=np.float64).reshape(1, -1)
    from matfuse.runtime.indexing import paren_get

    return paren_get(full, subs)


COMPOSED = {"movsum": _moving("movsum"), "movmean": _moving("movmean")}
