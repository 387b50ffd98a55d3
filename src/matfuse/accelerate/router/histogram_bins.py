"""Device path of ``histcounts(x)`` with MATLAB's automatic bins.

The edges depend on four numbers of the finite values: their minimum and
maximum, whether all are integers, and their sample standard deviation.
Those are computed on the device and read back together (one 1 x 4 gather);
the host's edge rules (``integer_edges``, ``scott_edges``) turn them into
edges, and the counts come from the provider's ``histogram`` hook through
the ``histcounts(x, edges)`` device path. Other call forms return None here
and take the routes of ``stats.try_histcounts`` or the counted host path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.router.compose_ops import EMPTY, call, index, op, real_float, size_of
from matfuse.runtime.values import char_array, is_char, to_str

_ALL = char_array("all")
_FLINTMAX = 2.0 ** 53


def _finite_stats(x: Any) -> tuple[int, float, float, bool, float]:
    """(count, min, max, all integers, sample std) of the finite values of x."""
    finite = call("reshape", x, float(np.prod(size_of(x))), 1.0)
    kept = index(finite, call("isfinite", finite))
    n = int(np.prod(size_of(kept)))
    if n == 0:
        return 0, 0.0, 0.0, False, 0.0
    lo = call("min", kept, EMPTY, _ALL)
    hi = call("max", kept, EMPTY, _ALL)
    whole = call("double", call("all", op("==", call("round", kept), kept), _ALL))
    spread = call("std", kept) if n > 1 else op(".*", lo, 0.0)
    host = np.asarray(call("horzcat", lo, hi, whole, spread).gather(), dtype=np.float64).reshape(-1)
    return n, float(host[0]), float(host[1]), bool(host[2]), float(host[3])


_NORMALIZATIONS = ("count", "probability", "countdensity", "pdf", "cumcount", "cdf")


def _normalized(args: list[Any], nargout: int) -> list[Any] | None:
    """``histcounts(..., 'Normalization', how)``: the counts of the same call
    without the option, scaled on the device as the host does (``total`` is
    every element of x, NaN included)."""
    how = to_str(args[-1]).lower() if is_char(args[-1]) else None
    if how not in _NORMALIZATIONS or nargout > 2 or not real_float(args[0]):
        return None
    counts, edges = call("histcounts", *args[:-2], nargout=2)
    total = float(np.prod(size_of(args[0])))
    if how in ("probability", "pdf", "cdf"):
        counts = op("./", counts, total)
    if how in ("countdensity", "pdf"):
        counts = op("./", counts, call("diff", edges))
    if how in ("cumcount", "cdf"):
        counts = call("cumsum", counts)
    return [counts, edges][:max(nargout, 1)]


def histcounts_auto_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``N = histcounts(x)``, ``[N, edges] = histcounts(x)``, and any form
    ending in ``'Normalization', how``."""
    from matfuse.runtime.builtins.histograms import integer_edges, scott_edges

    if len(args) >= 3 and is_char(args[-2]) and to_str(args[-2]).lower() == "normalization":
        return _normalized(args, nargout)
    if len(args) != 1 or nargout > 2 or not real_float(args[0]):
        return None
    n, xmin, xmax, integers, std = _finite_stats(call("double", args[0]))
    if n == 0:
        edges = np.array([0.0, 1.0])
    elif integers and xmax <= _FLINTMAX / 2 and xmin >= -_FLINTMAX / 2 and xmax - xmin <= 50:
        edges = integer_edges(xmin, xmax)
    else:
        edges = scott_edges(xmin, xmax, n, std)
    if nargout > 1:
        return call("histcounts", args[0], edges.reshape(1, -1), nargout=2)
    return [call("histcounts", args[0], edges.reshape(1, -1))]


COMPOSED = {"histcounts": histcounts_auto_on_device}
