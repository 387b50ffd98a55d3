"""Moving-window statistics and data scaling: movmean, movsum, rescale,
zscore (normalize is in normalize_data; the other moving-window functions
in moving_windows)."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, is_text, scalar_value
from matfuse.runtime.builtins._reduction_args import ReductionArgs, ieee_quiet, numeric_input, real_values
from matfuse.runtime.builtins.moving_windows import moving_window, window_extent
from matfuse.runtime.builtins.statistics import moments
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical, to_array, to_str


@ieee_quiet
def _moving(x: Any, k: Any, args: tuple, fn: str) -> Any:
    arr = numeric_input(x, fn)
    arr = arr.astype(np.float32 if arr.dtype == np.float32 else
                     (np.complex128 if arr.dtype.kind == "c" else np.float64))
    back, fwd = window_extent(k, fn)
    rest = list(args)
    omit = False
    endpoints: Any = "shrink"
    axis = None
    i = 0
    while i < len(rest):
        a = rest[i]
        if is_text(a):
            word = to_str(a).lower()
            if word in ("omitnan", "includenan", "omitmissing", "includemissing"):
                omit = word.startswith("omit")
            elif word == "endpoints" and i + 1 < len(rest):
                i += 1
                endpoints = to_str(rest[i]).lower() if is_text(rest[i]) else scalar_value(rest[i], fn)
            else:
                raise MatlabError(f"MATLAB:{fn}:invalidOption", f"Invalid option '{to_str(a)}'.")
        else:
            axis = dim_arg(a, fn)
        i += 1
    if axis is None:
        axis = first_nonsingleton_dim(arr.shape)
    if axis >= arr.ndim:
        # A dim past ndims is a trailing singleton.
        arr = arr.reshape(arr.shape + (1,) * (axis + 1 - arr.ndim))
    moved = np.moveaxis(arr, axis, -1)
    n = moved.shape[-1]
    valid = ~np.isnan(moved) if omit else np.ones(moved.shape, dtype=bool)
    vals = np.where(valid, moved, 0)
    zero = np.zeros(moved.shape[:-1] + (1,), dtype=vals.dtype)
    csum = np.concatenate([zero, np.cumsum(vals, axis=-1)], axis=-1)
    ccnt = np.concatenate([zero.real.astype(np.float64), np.cumsum(valid, axis=-1)], axis=-1)
    pos = np.arange(n)
    lo = np.clip(pos - back, 0, n)
    hi = np.clip(pos + fwd + 1, 0, n)
    if not omit:
        # NaN in a window must give NaN: recount NaNs with a separate prefix sum.
        nan_prefix = np.concatenate([zero.real.astype(np.float64),
                                     np.cumsum(np.isnan(moved), axis=-1)], axis=-1)
        has_nan = (nan_prefix[..., hi] - nan_prefix[..., lo]) > 0
        vals_sum = np.where(np.isnan(moved), 0, moved)
        csum = np.concatenate([zero, np.cumsum(vals_sum, axis=-1)], axis=-1)
    total = csum[..., hi] - csum[..., lo]
    count = ccnt[..., hi] - ccnt[..., lo]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = total / count if fn == "movmean" else total
    if fn == "movsum" and omit:
        out = np.where(count == 0, 0, out)
    if not omit:
        out = np.where(has_nan, np.nan, out)
    if endpoints == "fill" or isinstance(endpoints, float):
        # the fill value takes the place of the missing elements in the sums
        return moving_window(x, k, args, fn)
    if endpoints != "shrink":
        edge = (pos - back < 0) | (pos + fwd >= n)
        if endpoints == "discard":
            out = out[..., ~edge]
        else:
            raise MatlabError(f"MATLAB:{fn}:invalidEndpoints",
                              "Endpoints must be 'shrink', 'discard', 'fill', or a numeric scalar.")
    return canonical(np.moveaxis(out.astype(moved.dtype), -1, axis))


@builtin("movmean", category="statistics", nargin=(2, None))
def movmean(x: Any, k: Any, *args: Any) -> Any:
    """Moving mean over a window k or [kb kf] (endpoints shrink by default)."""
    return _moving(x, k, args, "movmean")


@builtin("movsum", category="statistics", nargin=(2, None))
def movsum(x: Any, k: Any, *args: Any) -> Any:
    """Moving sum over a window k or [kb kf]."""
    return _moving(x, k, args, "movsum")


@builtin("zscore", category="statistics", nargin=(1, 3), nargout=(0, 3), wants_nargout=True,
         gpu=GpuSpec(kind="reduction", hook="stats", op="zscore"))
def zscore(x: Any, flag: Any = None, dim: Any = None, nargout: int = 1) -> Any:
    """Standardized z-scores: [Z, mu, sigma] = zscore(X, flag, dim)."""
    arr = numeric_input(x, "zscore")
    w = 0.0 if flag is None or (type(flag) is np.ndarray and flag.size == 0) else scalar_value(flag, "zscore")
    axis = dim_arg(dim, "zscore") if dim is not None else first_nonsingleton_dim(arr.shape)
    if arr.size == 0:
        outs = (canonical(arr.astype(np.float64)), canonical(np.zeros((0, 0))), canonical(np.zeros((0, 0))))
        return outs[:nargout] if nargout > 1 else outs[0]
    v, mu, dev = moments(arr, w, ReductionArgs((axis,), False, "default", True), "zscore", keep_dev=True)
    sigma = np.sqrt(v)
    safe = np.where(sigma == 0, 1, sigma)
    if dev is None:
        z = (arr.astype(mu.dtype) - mu) / safe
    else:   # the deviations are ours alone: divide in place
        z = np.divide(dev, safe, out=dev)
    outs = (canonical(z), canonical(mu), canonical(sigma))
    return outs[:nargout] if nargout > 1 else outs[0]


@builtin("rescale", category="statistics", nargin=(1, None))
@ieee_quiet
def rescale(x: Any, *args: Any) -> Any:
    """Scale to [l, u] (default [0, 1]) using the min/max of all elements."""
    arr = numeric_input(x, "rescale")
    work = arr.astype(np.float32 if arr.dtype == np.float32 else np.float64)
    rest = list(args)
    opts: dict[str, Any] = {}
    while len(rest) >= 2 and is_text(rest[-2]):
        name = to_str(rest[-2])
        if name.lower() not in ("inputmin", "inputmax"):
            # An unknown name must not be skipped: its value would be lost.
            raise MatlabError("MATLAB:rescale:InvalidParameterName",
                              f"Invalid parameter name: {name}.")
        opts[name.lower()] = real_values(rest[-1], "rescale", name)
        del rest[-2:]
    lower = real_values(rest[0], "rescale", "Lower bound") if len(rest) >= 1 else 0.0
    upper = real_values(rest[1], "rescale", "Upper bound") if len(rest) >= 2 else 1.0
    for bound in (lower, upper, *opts.values()):
        if np.size(bound) == 0 or not _broadcasts(np.shape(bound), work.shape):
            raise MatlabError("MATLAB:rescale:invalidBounds",
                              "Bounds must be scalars or arrays compatible with the input size.")
    # MATLAB expands along trailing dims: pad bound shapes with ones at the end.
    lower, upper = (_pad_dims(b, work.ndim) for b in (lower, upper))
    opts = {k: _pad_dims(b, work.ndim) for k, b in opts.items()}
    if work.size == 0:
        return canonical(work)
    with np.errstate(invalid="ignore"):
        in_min = opts.get("inputmin", np.nanmin(work))
        in_max = opts.get("inputmax", np.nanmax(work))
    clipped = np.clip(work, in_min, in_max)
    span = in_max - in_min
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = np.where(span == 0, 0.0, (clipped - in_min) / np.where(span == 0, 1, span))
    out = lower + scaled * (np.asarray(upper) - lower)
    return canonical(np.asarray(out).astype(work.dtype))


def _pad_dims(bound: Any, ndim: int) -> Any:
    if isinstance(bound, np.ndarray) and bound.ndim < ndim:
        return bound.reshape(bound.shape + (1,) * (ndim - bound.ndim))
    return bound


def _broadcasts(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    if not shape:
        return True
    if len(shape) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(shape, target))
