"""Histogram counts: histcounts (with MATLAB's automatic binning) and histc.

Automatic bin edges follow MATLAB's ``histcounts`` 'auto' method: integer
data spanning at most 50 units get unit-width bins centred on the integers;
other data use Scott's rule (width ``3.5*std(x)/numel(x)^(1/3)``) rounded to
a "nice" width (1, 2, 3, 5 or 10 times a power of ten) with edges on
multiples of that width.  ``histcounts(x, nbins)`` picks a nice width giving
exactly ``nbins`` bins; constant data get bins centred on the value.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import check_allocation
from matfuse.runtime.builtins._common import dim_arg, is_text, scalar_value
from matfuse.runtime.builtins._reduction_args import numeric_input, real_values
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical, to_str

MAX_AUTO_BINS = 65536
_CHUNK = 1 << 18


def _eps(x: float) -> float:
    return float(np.spacing(abs(x))) if x != 0 else float(np.finfo(float).tiny * 2 ** -52)


def bin_picker(xmin: float, xmax: float, nbins: int | None, raw_width: float) -> np.ndarray:
    """MATLAB's ``binpicker``: nice edges covering [xmin, xmax]; plain even
    edges when the data span more than doubles can step through nicely."""
    with np.errstate(all="ignore"):
        try:
            edges = _nice_edges(xmin, xmax, nbins, raw_width)
        except (OverflowError, ValueError):   # inf or non-positive widths in math.*
            edges = None
    if edges is None or not np.all(np.isfinite(edges)):
        # Halved then doubled: the span itself may exceed the largest double.
        edges = np.linspace(xmin / 2, xmax / 2, (nbins or 1) + 1) * 2
    return edges


def _nice_edges(xmin: float, xmax: float, nbins: int | None, raw_width: float) -> np.ndarray:
    xscale = max(abs(xmin), abs(xmax))
    xrange = xmax - xmin
    raw_width = max(raw_width, _eps(xscale))
    if xrange > max(math.sqrt(_eps(xscale)), np.finfo(float).tiny):
        pow10 = 10.0 ** math.floor(math.log10(raw_width))
        rel = raw_width / pow10
        if nbins is None:
            factor = 1 if rel < 1.5 else 2 if rel < 2.5 else 3 if rel < 4 else 5 if rel < 7.5 else 10
            width = factor * pow10
            left = max(min(width * math.floor(xmin / width), xmin), -np.finfo(float).max)
            nactual = max(1, math.ceil((xmax - left) / width))
            right = min(max(left + nactual * width, xmax), np.finfo(float).max)
        else:
            width = pow10 * math.floor(rel)
            left = max(min(width * math.floor(xmin / width), xmin), -np.finfo(float).max)
            if nbins > 1:
                lower = (xmax - left) / nbins
                upper = (xmax - left) / (nbins - 1)
                p10 = 10.0 ** math.floor(math.log10(upper - lower))
                width = p10 * math.ceil(lower / p10)
            nactual = nbins
            right = max(left + nactual * width, xmax)
    else:
        nbins = nbins or 1
        span = max(1, math.ceil(nbins * _eps(xscale)))
        left = math.floor(2 * (xmin - span / 4)) / 2
        right = math.ceil(2 * (xmax + span / 4)) / 2
        width = (right - left) / nbins
        nactual = nbins
    if not math.isfinite(width):
        return np.linspace(left, right, nactual + 1)
    return np.concatenate([[left], left + np.arange(1, nactual) * width, [right]])


def auto_edges(x: np.ndarray, method: str = "auto") -> np.ndarray:
    """Edges of MATLAB's bin methods ('auto', 'scott', 'fd', 'integers',
    'sturges', 'sqrt') for the finite values ``x``."""
    if x.size == 0:
        return np.array([0.0, 1.0])
    xmin, xmax = float(x.min()), float(x.max())
    xrange = xmax - xmin
    n = x.size
    flintmax = 2.0 ** 53
    integer_data = bool(np.all(np.round(x) == x)) and xmax <= flintmax / 2 and xmin >= -flintmax / 2
    if method == "integers" or (method == "auto" and integer_data and xrange <= 50):
        return integer_edges(xmin, xmax)
    if method in ("sturges", "sqrt"):
        nbins = max(math.ceil(math.log2(n) + 1) if method == "sturges" else math.ceil(math.sqrt(n)), 1)
        return bin_picker(xmin, xmax, None, xrange / nbins)
    if method == "fd":
        from matfuse.runtime.builtins.statistics import quantile_sorted

        q1, q3 = quantile_sorted(x, np.array([0.25, 0.75]))
        return bin_picker(xmin, xmax, None, 2 * (q3 - q1) / n ** (1.0 / 3.0))
    if method not in ("auto", "scott"):
        raise MatlabError("MATLAB:histcounts:InvalidBinMethod",
                          "BinMethod must be 'auto', 'scott', 'fd', 'integers', 'sturges' or 'sqrt'.")
    std = float(np.std(x, ddof=1)) if n > 1 else 0.0
    return scott_edges(xmin, xmax, n, std)


def scott_edges(xmin: float, xmax: float, n: int, std: float) -> np.ndarray:
    """Scott's rule edges of ``n`` finite values spanning [xmin, xmax] with
    sample standard deviation ``std`` (the 'auto' method for data that are
    not integers spanning at most 50 units)."""
    return bin_picker(xmin, xmax, None, 3.5 * std / n ** (1.0 / 3.0))


def integer_edges(xmin: float, xmax: float) -> np.ndarray:
    """Unit-width edges centred on the integers from xmin to xmax (wider
    powers of ten past MAX_AUTO_BINS bins)."""
    xrange = xmax - xmin
    width = 1.0 if xrange <= MAX_AUTO_BINS else 10.0 ** math.ceil(math.log10(xrange / MAX_AUTO_BINS))
    lo = width * round(xmin / width)
    hi = width * round(xmax / width)
    return np.arange(lo - width / 2, hi + width / 2 + width / 4, width)


def counts_only(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The counts of ``count_in_bins`` without the bin index: one search and
    one bincount.  A right-side search puts NaN and values at or above the
    last edge at ``nb + 1``; of those only values equal to the last edge
    count (in the last bin, which is closed)."""
    nb = edges.size - 1
    total = np.zeros(nb + 2, dtype=np.int64)
    # in chunks: the index temporaries stay in cache and in reused memory
    for start in range(0, x.size, _CHUNK):
        part = x[start:start + _CHUNK]
        total += np.bincount(np.searchsorted(edges, part, side="right"), minlength=nb + 2)
        total[nb] += np.count_nonzero(part == edges[-1])
    return total[1:nb + 1].astype(np.float64)


def count_in_bins(x: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Counts for [e_k, e_k+1) (last bin closed) and 1-based bin index (0 = none)."""
    nb = edges.size - 1
    idx = np.searchsorted(edges, x, side="right")
    idx = np.where(x == edges[-1], nb, idx)
    valid = (idx >= 1) & (idx <= nb) & ~np.isnan(x)
    idx = np.where(valid, idx, 0)
    counts = np.bincount(idx[valid], minlength=nb + 1)[1:]
    return counts.astype(np.float64), idx.astype(np.float64)


def _normalize_counts(counts: np.ndarray, edges: np.ndarray, how: str, total: int) -> np.ndarray:
    widths = np.diff(edges)
    if how == "count":
        return counts
    if how == "probability":
        return counts / total
    if how == "countdensity":
        return counts / widths
    if how == "pdf":
        return counts / total / widths
    if how == "cumcount":
        return np.cumsum(counts)
    if how == "cdf":
        return np.cumsum(counts / total)
    raise MatlabError("MATLAB:histcounts:InvalidNormalization",
                      "Normalization must be 'count', 'probability', 'countdensity', 'pdf', 'cumcount' or 'cdf'.")


_HISTCOUNTS_OPTIONS = ("binlimits", "binwidth", "binmethod", "normalization", "numbins", "binedges")


@builtin("histcounts", category="statistics", nargin=(1, None), nargout=(0, 3), wants_nargout=True,
         gpu=GpuSpec(kind="reduction", hook="stats", op="histcounts"))
def histcounts(x: Any, *args: Any, nargout: int = 1) -> Any:
    """Histogram bin counts: [N, edges, bin] = histcounts(X, nbins|edges, Name, Value)."""
    data = np.real(numeric_input(x, "histcounts")).astype(np.float64, copy=False)
    rest = list(args)
    options: dict[str, Any] = {}
    while len(rest) >= 2 and is_text(rest[-2]):
        name = to_str(rest[-2])
        if name.lower() not in _HISTCOUNTS_OPTIONS:
            # An unknown name must not be skipped: its value would be lost.
            raise MatlabError("MATLAB:histcounts:InvalidParameterName",
                              f"Invalid parameter name: {name}.")
        options[name.lower()] = rest[-1]
        del rest[-2:]
    for positional in ("binedges", "numbins"):   # the same as the second argument
        if positional in options and not rest:
            rest = [options.pop(positional)]
        elif positional in options:
            raise MatlabError("MATLAB:histcounts:InvalidParameterName",
                              f"Invalid parameter name: {positional}.")
    edges = _explicit_edges(rest, options)
    if edges is not None and nargout < 3 and not np.isnan(edges).any():
        # given edges, no bin index wanted: counts do not depend on the
        # element order, so no column-major copy, no finite-value copy
        counts = counts_only(data.ravel(order="K"), edges)
        how = to_str(options["normalization"]).lower() if "normalization" in options else "count"
        counts = _normalize_counts(counts, edges, how, data.size)
        outputs = (canonical(counts.reshape(1, -1)), canonical(edges.reshape(1, -1)))
        return outputs if nargout > 1 else outputs[0]
    flat = data.reshape(-1, order="F")
    finite = flat[np.isfinite(flat)]
    limits = options.get("binlimits")
    if limits is not None:
        lim = real_values(limits, "histcounts", "BinLimits").reshape(-1)
        if lim.size != 2 or not lim[0] <= lim[1]:
            raise MatlabError("MATLAB:histcounts:InvalidBinLimits",
                              "Bin limits must be a 2-element vector of increasing values.")
        lo, hi = float(lim[0]), float(lim[1])
        finite = finite[(finite >= lo) & (finite <= hi)]
    if rest:
        spec = real_values(rest[0], "histcounts", "Bins")
        if spec.size == 1:
            count = scalar_value(rest[0], "histcounts")
            nbins = int(count) if math.isfinite(count) else 0
            if nbins < 1 or nbins != count:
                raise MatlabError("MATLAB:histcounts:InvalidNumBins",
                                  "Number of bins must be a positive integer.")
            check_allocation((nbins + 1,), 8)
            if limits is not None:
                edges = np.linspace(lo, hi, nbins + 1)
            elif finite.size:
                xmin, xmax = float(finite.min()), float(finite.max())
                edges = bin_picker(xmin, xmax, nbins, (xmax - xmin) / nbins)
            else:
                edges = np.linspace(0, 1, nbins + 1)
        else:
            edges = spec.reshape(-1, order="F")
            if edges.size < 2 or np.any(np.diff(edges) < 0):
                raise MatlabError("MATLAB:histcounts:InvalidEdges",
                                  "Bin edges must be a vector that is real, numeric or logical, and monotonically nondecreasing.")
    elif "binwidth" in options:
        width = scalar_value(options["binwidth"], "histcounts")
        if limits is not None:
            edges = np.append(np.arange(lo, hi, width), hi)
        elif finite.size:
            edges = bin_picker(float(finite.min()), float(finite.max()), None, width)
        else:
            edges = np.array([0.0, width])
    elif limits is not None:
        edges = auto_edges(finite) if finite.size else np.array([lo, hi])
        edges = np.clip(edges, lo, hi)
        edges[0], edges[-1] = lo, hi
    else:
        method = to_str(options["binmethod"]).lower() if "binmethod" in options else "auto"
        edges = auto_edges(finite, method)
    counts, bins = count_in_bins(flat, edges)
    how = to_str(options["normalization"]).lower() if "normalization" in options else "count"
    counts = _normalize_counts(counts, edges, how, flat.size)
    outputs = (canonical(counts.reshape(1, -1)), canonical(edges.reshape(1, -1)),
               canonical(bins.reshape(data.shape, order="F")))
    return outputs[:nargout] if nargout > 1 else outputs[0]


def _explicit_edges(rest: list[Any], options: dict[str, Any]) -> np.ndarray | None:
    """The edges vector of ``histcounts(X, edges)`` (validated), or None when
    the bins are given any other way."""
    if not rest or "binlimits" in options:
        return None
    spec = real_values(rest[0], "histcounts", "Bins")
    if spec.size == 1:
        return None
    edges = spec.reshape(-1, order="F")
    if edges.size < 2 or np.any(np.diff(edges) < 0):
        raise MatlabError("MATLAB:histcounts:InvalidEdges",
                          "Bin edges must be a vector that is real, numeric or logical, and monotonically nondecreasing.")
    return edges


@builtin("histc", category="statistics", nargin=(2, 3), nargout=(0, 2), wants_nargout=True)
def histc(x: Any, edges: Any, dim: Any = None, nargout: int = 1) -> Any:
    """Counts of edges(k) <= x < edges(k+1); last entry counts x == edges(end)."""
    data = numeric_input(x, "histc").astype(np.float64)
    e = numeric_input(edges, "histc").astype(np.float64).reshape(-1, order="F")
    if data.ndim == 2 and min(data.shape) == 1 and dim is None:
        vec = data.reshape(-1, order="F")
        counts, bins = _histc_vector(vec, e)
        shape = (1, e.size) if data.shape[0] == 1 else (e.size, 1)
        out = canonical(counts.reshape(shape))
        return (out, canonical(bins.reshape(data.shape, order="F"))) if nargout > 1 else out
    axis = 0 if dim is None else dim_arg(dim, "histc")
    if axis >= data.ndim:
        # Every dimension past ndims is a singleton: count along a new last one.
        data = data[..., np.newaxis]
        axis = data.ndim - 1
    moved = np.moveaxis(data, axis, -1)
    rows = moved.reshape(int(np.prod(moved.shape[:-1])), moved.shape[-1])
    results = [_histc_vector(r, e) for r in rows]
    counts = (np.stack([c for c, _ in results]) if results else np.zeros((0, e.size))).reshape(
        moved.shape[:-1] + (e.size,))
    bins = (np.stack([b for _, b in results]) if results else np.zeros((0, moved.shape[-1]))).reshape(moved.shape)
    out = canonical(np.moveaxis(counts, -1, axis))
    return (out, canonical(np.moveaxis(bins, -1, axis))) if nargout > 1 else out


def _histc_vector(v: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if e.size == 0:
        return np.zeros(0), np.zeros(v.shape)
    idx = np.searchsorted(e, v, side="right")
    idx = np.where((v < e[0]) | np.isnan(v) | ((v > e[-1]) & (idx == e.size)), 0, idx)
    idx = np.where(v == e[-1], e.size, idx)
    idx = np.where(v > e[-1], 0, idx)
    counts = np.bincount(idx, minlength=e.size + 1)[1:]
    return counts.astype(np.float64), idx.astype(np.float64)
