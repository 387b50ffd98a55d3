"""Moving-window statistics over a sliding window: movmax, movmin, movmedian,
movprod, movstd, movvar, and the filled endpoints of movmean and movsum
(their other forms: prefix sums in ``moving_normalize``).

Every output element reduces the window of ``k`` neighbours (or ``[kb kf]``:
``kb`` before, ``kf`` after) along one dimension. The window is a strided
view of the data padded with NaN on both sides, so one vectorised NumPy
reduction covers every position; the padding is never data:

* ``'Endpoints', 'shrink'`` (default): padded positions are left out;
* ``'discard'``: only positions whose whole window lies inside are kept;
* ``'fill'`` / a numeric scalar: padded positions hold NaN / the scalar and
  take part like data (MATLAB: "substitute nonexisting elements").

NaN in the data: ``movmax``/``movmin`` omit it by default (as ``max``), the
others include it (a window holding NaN gives NaN); ``'omitnan'`` /
``'includenan'`` choose. ``movstd``/``movvar`` normalise by ``N-1`` (``w =
0``, default; a single element gives 0) or ``N`` (``w = 1``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, is_text, scalar_value
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input, real_values
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical, to_str

_LONGEST_WINDOW = float(2 ** 53)


def window_extent(k: Any, fn: str) -> tuple[int, int]:
    """(back, forward) element counts of a window argument."""
    arr = real_values(k, fn, "Window length").reshape(-1)
    if arr.size == 1:
        n = arr[0]
        if not (0 < n < np.inf):
            raise MatlabError(f"MATLAB:{fn}:wrongWindowLength",
                              "Window length must be a finite positive scalar or a two-element vector of nonnegative values.")
        n = min(n, _LONGEST_WINDOW)    # longer than any array: the same window
        if n == np.floor(n):
            n = int(n)
            return (n - 1) // 2 if n % 2 else n // 2, (n - 1) // 2 if n % 2 else n // 2 - 1
        half = int(np.floor(n / 2))
        return half, half
    if arr.size == 2 and np.all(arr >= 0) and np.all(np.isfinite(arr)):
        back, forward = np.minimum(arr, _LONGEST_WINDOW)
        return int(np.floor(back)), int(np.floor(forward))
    raise MatlabError(f"MATLAB:{fn}:wrongWindowLength",
                      "Window length must be a finite positive scalar or a two-element vector of nonnegative values.")


_OMITS_BY_DEFAULT = ("movmax", "movmin")
_WEIGHTED = ("movstd", "movvar")


def moving_options(args: tuple, fn: str) -> tuple[int | None, bool | None, Any, float]:
    """(0-based dim or None, omitnan or None for the default, endpoints,
    weight) from the arguments after the window."""
    rest = list(args)
    weight = 0.0
    if fn in _WEIGHTED and rest and not is_text(rest[0]):
        w = rest.pop(0)
        if not (type(w) is np.ndarray and w.size == 0):
            weight = scalar_value(w, fn)
            if weight not in (0.0, 1.0):
                raise MatlabError(f"MATLAB:{fn}:invalidWeight",
                                  "Normalization factor must be 0 or 1.")
    axis, omit, endpoints = None, None, "shrink"
    i = 0
    while i < len(rest):
        a = rest[i]
        if is_text(a):
            word = to_str(a).lower()
            if word in ("omitnan", "includenan", "omitmissing", "includemissing"):
                omit = word.startswith("omit")
            elif word == "endpoints" and i + 1 < len(rest):
                i += 1
                value = rest[i]
                endpoints = to_str(value).lower() if is_text(value) else scalar_value(value, fn)
                if isinstance(endpoints, str) and endpoints not in ("shrink", "discard", "fill"):
                    raise MatlabError(f"MATLAB:{fn}:invalidEndpoints",
                                      "Endpoints must be 'shrink', 'discard', 'fill', or a numeric scalar.")
            elif word == "samplepoints":
                raise MatlabError(f"MATLAB:{fn}:samplePointsUnsupported",
                                  "The 'SamplePoints' option is not supported.")
            else:
                raise MatlabError(f"MATLAB:{fn}:invalidOption", f"Invalid option '{to_str(a)}'.")
        else:
            axis = dim_arg(a, fn)
        i += 1
    return axis, omit, endpoints, weight


def _reduce(fn: str, windows: np.ndarray, present: np.ndarray, omit: bool,
            weight: float) -> np.ndarray:
    """``fn`` over the last axis of ``windows`` counting only ``present``
    elements (NaN in a present element: omitted or propagated)."""
    nan = np.isnan(windows)
    used = present & ~nan if omit else present
    count = used.sum(axis=-1)
    if fn in ("movmax", "movmin"):
        fill = -np.inf if fn == "movmax" else np.inf
        work = np.where(used, windows, fill)
        out = work.max(axis=-1) if fn == "movmax" else work.min(axis=-1)
    elif fn in ("movsum", "movmean"):
        out = np.where(used, windows, 0.0).sum(axis=-1)
        if fn == "movmean":
            out = out / np.maximum(count, 1)
    elif fn == "movprod":
        out = np.where(used, windows, 1.0).prod(axis=-1)
    elif fn == "movmedian":
        out = np.nanmedian(np.where(used, windows, np.nan), axis=-1)
    else:   # movvar / movstd: two passes over the used elements
        values = np.where(used, windows, 0.0)
        mean = values.sum(axis=-1) / np.maximum(count, 1)
        spread = np.where(used, windows - mean[..., None], 0.0)
        squares = (spread * np.conj(spread)).real.sum(axis=-1)
        divisor = count if weight == 1.0 else np.maximum(count - 1, 1)
        out = squares / np.maximum(divisor, 1)
        out = np.where(count == 1, 0.0, out)
        if fn == "movstd":
            out = np.sqrt(out)
    out = np.where(count == 0, 0.0 if fn == "movsum" else np.nan, out)
    if not omit:
        out = np.where((present & nan).any(axis=-1), np.nan, out)
    return out


@ieee_quiet
def moving_window(x: Any, k: Any, args: tuple, fn: str) -> Any:
    """``fn(x, k, args...)`` for the window functions of this module."""
    arr = numeric_input(x, fn)
    work_type = np.float32 if arr.dtype == np.float32 else np.float64
    if arr.dtype.kind == "c" and fn in ("movmax", "movmin", "movmedian"):
        raise MatlabError(f"MATLAB:{fn}:complexUnsupported",
                          f"Complex values are not supported by {fn}.")
    arr = arr.astype(np.complex128 if arr.dtype.kind == "c" else work_type)
    back, fwd = window_extent(k, fn)
    axis, omit, endpoints, weight = moving_options(args, fn)
    if omit is None:
        omit = fn in _OMITS_BY_DEFAULT
    if axis is None:
        axis = first_nonsingleton_dim(arr.shape)
    if axis >= arr.ndim:
        arr = arr.reshape(arr.shape + (1,) * (axis + 1 - arr.ndim))
    moved = np.moveaxis(arr, axis, -1)
    n = moved.shape[-1]
    if n == 0:
        return canonical(arr)
    back, fwd = min(back, n), min(fwd, n)
    pad_value = np.nan if endpoints in ("shrink", "discard", "fill") else float(endpoints)
    widths = [(0, 0)] * (moved.ndim - 1) + [(back, fwd)]
    padded = np.pad(moved, widths, constant_values=pad_value)
    windows = np.lib.stride_tricks.sliding_window_view(padded, back + fwd + 1, axis=-1)
    inside = np.zeros(n + back + fwd, dtype=bool)
    inside[back:back + n] = True
    present = np.lib.stride_tricks.sliding_window_view(inside, back + fwd + 1)
    if endpoints not in ("shrink", "discard"):
        present = np.ones_like(present)
    out = _reduce(fn, windows, np.broadcast_to(present, windows.shape), omit, weight)
    if endpoints == "discard":
        keep = (np.arange(n) - back >= 0) & (np.arange(n) + fwd < n)
        out = out[..., keep]
    out = out.astype(moved.dtype if fn not in _WEIGHTED else work_type)
    return canonical(np.moveaxis(out, -1, axis))


@builtin("movmax", category="statistics", nargin=(2, None))
def movmax(x: Any, k: Any, *args: Any) -> Any:
    """Moving maximum over a window k or [kb kf] (NaN omitted by default)."""
    return moving_window(x, k, args, "movmax")


@builtin("movmin", category="statistics", nargin=(2, None))
def movmin(x: Any, k: Any, *args: Any) -> Any:
    """Moving minimum over a window k or [kb kf] (NaN omitted by default)."""
    return moving_window(x, k, args, "movmin")


@builtin("movmedian", category="statistics", nargin=(2, None))
def movmedian(x: Any, k: Any, *args: Any) -> Any:
    """Moving median over a window k or [kb kf]."""
    return moving_window(x, k, args, "movmedian")


@builtin("movprod", category="statistics", nargin=(2, None))
def movprod(x: Any, k: Any, *args: Any) -> Any:
    """Moving product over a window k or [kb kf]."""
    return moving_window(x, k, args, "movprod")


@builtin("movstd", category="statistics", nargin=(2, None))
def movstd(x: Any, k: Any, *args: Any) -> Any:
    """Moving standard deviation: movstd(A, k, w, dim) (w = 0: N-1, 1: N)."""
    return moving_window(x, k, args, "movstd")


@builtin("movvar", category="statistics", nargin=(2, None))
def movvar(x: Any, k: Any, *args: Any) -> Any:
    """Moving variance: movvar(A, k, w, dim) (w = 0: N-1, 1: N)."""
    return moving_window(x, k, args, "movvar")
