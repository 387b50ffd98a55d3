"""Integer sums and products that saturate at each step, on the device:
``sum(x, 'native')``, ``prod(x, 'native')``, ``cumsum(x)`` and
``cumprod(x)`` of int8 ... uint32 data. MATLAB accumulates these in the
integer class, so every partial result is clamped to the class's range
(``sum(int8([127 10 -20]), 'native')`` is 107) in element order along the
dimension.

Each element ``x_k`` is a step ``s -> clamp(s + x_k, lo, hi)`` (``s *
x_k`` for products). Consecutive steps compose into one map of the same
form, ``s -> clamp(s + a, l, h)``:

    clamp(clamp(s + a1, l1, h1) + a2, l2, h2)
        = clamp(s + (a1 + a2), clamp(l1 + a2, l2, h2), clamp(h1 + a2, l2, h2))

and for products ``clamp(clamp(s * A1, L1, H1) * A2, L2, H2) = clamp(s *
A1 A2, L, H)`` with ``L``/``H`` the smaller/larger of ``L1 A2`` and ``H1
A2`` clamped to ``[L2, H2]`` (multiplying by a negative factor swaps the
bounds; a zero factor gives ``L = H = 0``). Composition is associative, so
the maps combine in a tree: a reduction halves the elements ``log2(n)``
times (pairs of neighbouring columns), a scan doubles the span of each
partial map ``log2(n)`` times (Hillis-Steele). The result is the map
applied to the start value (0 for sums, 1 for products).

Everything is elementwise device arithmetic in double on slices of the
data (``compose_ops``), exact for these classes: the states only ever
reach integers in ``[lo, hi]`` and ``a``/``A`` are capped without changing
the map on that domain (``|a| <= hi - lo``: a bigger shift saturates every
state anyway; ``|A| <= hi - lo + 1``: any nonzero integer state times
such a factor saturates), so sums stay below ``2^34`` and a product that
rounds is one that saturates.

The data is laid out as an ``R x L`` matrix, one row per line along the
accumulated dimensions (``L`` elements each, in MATLAB's column-major
order), so each step works on whole column ranges.

Most data saturates at no step: the provider's running sum (product) in
double is then the answer, and one flag read back says so (a few kernels
instead of ``log2(L)`` passes of about 15 elementwise operations); only
when some running value leaves the class's range do the maps run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, wrap_handle
from matfuse.accelerate.router import launch
from matfuse.accelerate.router.compose_ops import COLON, INT_EXACT_IN_DOUBLE, call, index, op
from matfuse.accelerate_api import AccelProvider, Unsupported


@dataclass(frozen=True, slots=True)
class Steps:
    """Consecutive steps as one map ``s -> clamp(s (+|*) shift, low, high)``
    (device arrays of one shape, double)."""

    shift: Any
    low: Any
    high: Any

    def columns(self, first: int, last: int) -> "Steps":
        """The maps of columns ``first..last`` (1-based)."""
        cols = np.arange(first, last + 1, dtype=np.float64).reshape(1, -1)
        return Steps(*(index(v, COLON, cols) for v in (self.shift, self.low, self.high)))

    def strided(self, first: int, count: int) -> "Steps":
        """The maps of columns ``first, first + 2, ...`` (``count`` of them)."""
        cols = np.arange(first, first + 2 * count, 2, dtype=np.float64).reshape(1, -1)
        return Steps(*(index(v, COLON, cols) for v in (self.shift, self.low, self.high)))


def beside(left: Steps, right: Steps) -> Steps:
    """``[left right]`` of each part."""
    return Steps(call("horzcat", left.shift, right.shift), call("horzcat", left.low, right.low),
                 call("horzcat", left.high, right.high))


def _clamp(v: Any, low: Any, high: Any) -> Any:
    return call("min", call("max", v, low), high)


@dataclass(frozen=True, slots=True)
class Accumulation:
    """Sum or product steps saturating to ``[lo, hi]``."""

    is_sum: bool
    lo: float
    hi: float

    @property
    def cap(self) -> float:
        """Largest ``|shift|`` kept: past it every state in range saturates."""
        width = self.hi - self.lo
        return width if self.is_sum else width + 1.0

    @property
    def identity(self) -> float:
        """The shift of the map that leaves every state as it is."""
        return 0.0 if self.is_sum else 1.0

    def compose(self, first: Steps, then: Steps) -> Steps:
        """The map ``then(first(s))``."""
        if self.is_sum:
            shift = _clamp(op("+", first.shift, then.shift), -self.cap, self.cap)
            low = _clamp(op("+", first.low, then.shift), then.low, then.high)
            high = _clamp(op("+", first.high, then.shift), then.low, then.high)
            return Steps(shift, low, high)
        shift = _clamp(op(".*", first.shift, then.shift), -self.cap, self.cap)
        from_low = op(".*", first.low, then.shift)
        from_high = op(".*", first.high, then.shift)
        # every map's bounds hold 0 (the class's range does, and products of
        # such bounds by one factor straddle 0), so the smaller product is at
        # most ``then.high`` and the larger at least ``then.low``
        low = call("max", call("min", from_low, from_high), then.low)
        high = call("min", call("max", from_low, from_high), then.high)
        return Steps(shift, low, high)

    @staticmethod
    def apply(steps: Steps) -> Any:
        """The maps applied to the start value (``0 + shift``, ``1 * shift``)."""
        return _clamp(steps.shift, steps.low, steps.high)


def _accumulation(cls: str, is_sum: bool) -> Accumulation:
    info = np.iinfo(np.dtype(cls))
    return Accumulation(is_sum, float(info.min), float(info.max))


def _filled(p: AccelProvider, shape: tuple[int, ...], parts: tuple[float, float, float]) -> Steps | None:
    """Maps of one shift and bounds, ``shape`` of them."""
    try:
        return Steps(*(wrap_handle(p.fill(shape, v, "float64"), "double", p) for v in parts))
    except Unsupported:
        return None


def _single_steps(p: AccelProvider, values: Any, acc: Accumulation) -> Steps | None:
    """One map per element: shift by the element, clamp to the class's range."""
    bounds = _filled(p, tuple(values.shape), (0.0, acc.lo, acc.hi))
    return None if bounds is None else Steps(values, bounds.low, bounds.high)


def _as_lines(x: Any, dims: tuple[int, ...]) -> tuple[Any, tuple[int, ...], list[int] | None]:
    """``x`` as an ``R x L`` matrix whose rows are the lines along ``dims``
    (their elements in column-major order of ``dims``); with the shape of
    ``x`` permuted so ``dims`` come last, and that permutation (None when
    only singleton dimensions move: a reshape is enough)."""
    shape = tuple(x.shape)
    keep = [d for d in range(len(shape)) if d not in dims]
    order = keep + list(dims)
    moved = tuple(shape[d] for d in order)
    length = int(np.prod([shape[d] for d in dims]))
    rows = int(np.prod(shape)) // length
    laid = [d for d in order if shape[d] != 1]
    if laid == sorted(laid):
        return call("reshape", x, float(rows), float(length)), moved, None
    x = call("permute", x, np.array([[d + 1.0 for d in order]]))
    return call("reshape", x, float(rows), float(length)), moved, order


def _unsaturated(p: AccelProvider, lines: Any, acc: Accumulation, reverse: bool) -> Any | None:
    """The running sums (products) along the rows of ``lines`` in double
    when none leaves the class's range (one flag read back): then no step
    saturated and they are the result; None when some step saturates.

    While they stay in the range they are exact, and the first one to
    leave it is exact or rounds outward, so the check is exact. A provider
    scanning in blocks multiplies block products: those after a zero
    running product may overflow, and ``0 * Inf`` is NaN, so NaN counts as
    outside too (the composed maps then decide)."""
    try:
        h = p.scan("cumsum" if acc.is_sum else "cumprod", lines.valid_handle(), 1, reverse)
    except Unsupported:
        return None
    running = wrap_handle(h, "double", p)
    inside = call("and", call("ge", running, acc.lo), call("le", running, acc.hi))
    outside = call("not", inside)       # held: its buffer lives through the read
    return None if launch.any_true(p, outside.valid_handle()) else running


def _within_dims(shape: tuple[int, ...], dims: tuple[int, ...] | None) -> tuple[int, ...]:
    if dims is None:
        return tuple(range(len(shape)))
    return tuple(sorted(d for d in dims if d < len(shape)))


def accepts(x: Any, p: AccelProvider) -> bool:
    """A non-empty real int8 ... uint32 gpuArray of ``p``."""
    return isinstance(x, GpuArray) and x.provider is p and x.matlab_class in INT_EXACT_IN_DOUBLE \
        and 0 not in x.shape and not x.is_complex()


def saturating_reduce(p: AccelProvider, x: GpuArray, is_sum: bool,
                      dims: tuple[int, ...] | None) -> GpuArray | None:
    """``sum(x, dims, 'native')`` (``prod``) of integer ``x`` (``accepts``)
    over 0-based ``dims`` (None: all), or None when the provider lacks a
    hook."""
    shape = tuple(x.shape)
    dims = _within_dims(shape, dims)
    if not dims:
        return x
    acc = _accumulation(x.matlab_class, is_sum)
    lines, _, _ = _as_lines(call("double", x), dims)
    length = int(np.prod([shape[d] for d in dims]))
    out_shape = tuple(1 if d in dims else n for d, n in enumerate(shape))
    out_shape = out_shape + (1,) * (2 - len(out_shape))
    while len(out_shape) > 2 and out_shape[-1] == 1:
        out_shape = out_shape[:-1]
    running = _unsaturated(p, lines, acc, False)
    if running is not None:
        last = index(running, COLON, float(length))
        return call(x.matlab_class, call("reshape", last, *[float(n) for n in out_shape]))
    steps = _single_steps(p, lines, acc)
    if steps is None:
        return None
    padded = 1 << (length - 1).bit_length()
    if padded > length:
        # identity maps (shift by 0, times 1) make every pass pair all columns
        rows = int(np.prod(shape)) // length
        pad = _filled(p, (rows, padded - length), (acc.identity, acc.lo, acc.hi))
        if pad is None:
            return None
        steps = beside(steps, pad)
    while padded > 1:
        padded //= 2
        steps = acc.compose(steps.strided(1, padded), steps.strided(2, padded))
    result = call("reshape", acc.apply(steps), *[float(n) for n in out_shape])
    return call(x.matlab_class, result)


def saturating_scan(p: AccelProvider, x: GpuArray, is_sum: bool, dim: int,
                    reverse: bool) -> GpuArray | None:
    """``cumsum(x, dim)`` (``cumprod``, ``'reverse'``) of integer ``x``
    (``accepts``) along 0-based ``dim``, saturating at each step, or None
    when the provider lacks a hook."""
    shape = tuple(x.shape)
    if dim >= len(shape) or shape[dim] == 1:
        return x
    acc = _accumulation(x.matlab_class, is_sum)
    lines, moved, order = _as_lines(call("double", x), (dim,))
    scanned = _unsaturated(p, lines, acc, reverse)
    if scanned is None:
        scanned = _saturated_scan(p, lines, acc, reverse)
    if scanned is None:
        return None
    if order is None:
        result = call("reshape", scanned, *[float(n) for n in shape])
    else:
        result = call("ipermute", call("reshape", scanned, *[float(n) for n in moved]),
                      np.array([[d + 1.0 for d in order]]))
    return call(x.matlab_class, result)


def _saturated_scan(p: AccelProvider, lines: Any, acc: Accumulation, reverse: bool) -> Any | None:
    """The saturating running sums (products) along the rows of ``lines``:
    each map covers ``span`` elements; joined with its neighbour ``span``
    columns earlier (later, reversed) it covers twice as many."""
    steps = _single_steps(p, lines, acc)
    if steps is None:
        return None
    length = tuple(lines.shape)[1]
    span = 1
    while span < length:
        earlier = steps.columns(1, length - span)
        later = steps.columns(span + 1, length)
        if reverse:
            steps = beside(acc.compose(later, earlier), steps.columns(length - span + 1, length))
        else:
            steps = beside(steps.columns(1, span), acc.compose(earlier, later))
        span *= 2
    return acc.apply(steps)
