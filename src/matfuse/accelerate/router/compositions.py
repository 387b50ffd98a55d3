"""Device paths of builtins composed from MATLAB-level operations on
gpuArrays: ``kron``, ``maxk``/``mink``, ``median``,
``idivide`` and ``var``/``std``.

Each is written the way the builtin is defined mathematically, in terms of
operations that already run on the device (``sort``, indexing, ``reshape``,
elementwise operators, reductions), so the work stays resident and takes the
fusion engine like any program would. Every function returns None for forms
it does not take (name/value options, complex or empty data, integer classes
where MATLAB's rules differ): the dispatcher's counted host fallback then
runs, which also raises MATLAB's errors.

``COMPOSED`` maps builtin names to ``fn(args, nargout, ctx) -> outputs``;
the dispatcher merges it into its table of device implementations.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

from matfuse.accelerate.router.accumulate import accumarray_on_device
from matfuse.accelerate.fusion.executor import fusion_enabled
from matfuse.accelerate.gpuarray import GpuArray
from matfuse.runtime.values import DeviceValue, char_array, is_char, to_str

_FLOAT = ("double", "single")
_INT_EXACT_IN_DOUBLE = ("int8", "uint8", "int16", "uint16", "int32", "uint32")


def _call(name: str, *args: Any, nargout: int = 1) -> list[Any]:
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    return call_builtin(lookup(name), list(args), nargout, None)


def _op(symbol: str, a: Any, b: Any) -> Any:
    from matfuse.runtime import ops

    return ops.binary(symbol, a, b)


def _index(v: Any, *idx: Any) -> Any:
    from matfuse.runtime.indexing import paren_get

    return paren_get(v, list(idx))


def _real_float(x: Any) -> bool:
    return isinstance(x, GpuArray) and x.matlab_class in _FLOAT and not x.is_complex() \
        and 0 not in x.shape


def _positive_int(v: Any) -> int | None:
    if type(v) is np.ndarray and v.size == 1 and v.dtype.kind in "fiu":
        v = float(v.reshape(-1)[0])
    if type(v) is float and v >= 1 and v == int(v):
        return int(v)
    return None


def _first_nonsingleton(shape: tuple[int, ...]) -> int:
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def _along(shape: tuple[int, ...], dim: int, first: int, last: int) -> list[Any]:
    """Subscripts selecting positions ``first..last`` (1-based) along ``dim``."""
    colon = char_array(":")
    subs: list[Any] = [colon] * max(len(shape), dim + 1)
    subs[dim] = np.arange(first, last + 1, dtype=np.float64).reshape(1, -1)
    return subs


def kron_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``kron(A, B)`` of 2-D real float matrices: ``B`` scaled by each element
    of ``A``, by one broadcast product of 4-D reshapes."""
    if len(args) != 2 or nargout > 1:
        return None
    a, b = args
    if not all(_real_float(v) or (type(v) is np.ndarray and v.dtype.kind == "f" and v.size)
               or type(v) is float for v in (a, b)):
        return None
    sa = (1, 1) if type(a) is float else tuple(a.shape)
    sb = (1, 1) if type(b) is float else tuple(b.shape)
    if len(sa) != 2 or len(sb) != 2:
        return None
    (ma, na), (mb, nb) = sa, sb
    b4 = _call("reshape", b, float(mb), 1.0, float(nb), 1.0)[0]
    a4 = _call("reshape", a, 1.0, float(ma), 1.0, float(na))[0]
    return [_call("reshape", _op(".*", b4, a4), float(ma * mb), float(na * nb))[0]]


def _topk(largest: bool) -> Callable[[list[Any], int, Any], list[Any] | None]:
    def topk(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``maxk/mink(x, k)`` and ``(x, k, dim)``: the first ``k`` of a sort
        (NaN last, as the host)."""
        if len(args) not in (2, 3) or not _real_float(args[0]) or nargout > 2:
            return None
        x = args[0]
        k = _positive_int(args[1])
        dim = _first_nonsingleton(x.shape) if len(args) == 2 else _positive_int(args[2])
        if k is None or dim is None:
            return None
        if len(args) == 3:
            dim -= 1
        n = x.shape[dim] if dim < len(x.shape) else 1
        # NaN is never among the k largest or smallest: it goes last either
        # way. An ascending sort puts it last; the largest come first in the
        # stable ascending sort of -x (ties keep their order).
        key = _call("uminus", x)[0] if largest else x
        values, where = _call("sort", key, float(dim + 1), nargout=2)
        subs = _along(tuple(x.shape), dim, 1, min(k, n))
        top = _index(values, *subs)
        return [_call("uminus", top)[0] if largest else top,
                _index(where, *subs)][:max(nargout, 1)]
    return topk


def median_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``median(x)``, ``median(x, dim)`` and ``'includenan'`` of real float
    data: the middle of a sort (the mean of the two middle values for even
    lengths); a slice holding NaN gives NaN."""
    if nargout > 1 or not args or not _real_float(args[0]):
        return None
    x, rest = args[0], list(args[1:])
    omit = False
    if rest and is_char(rest[-1]) and to_str(rest[-1]).lower() in ("includenan", "omitnan"):
        omit = to_str(rest.pop()).lower() == "omitnan"
    if len(rest) > 1 or any(is_char(r) for r in rest):
        return None
    dim = _first_nonsingleton(x.shape) if not rest else _positive_int(rest[0])
    if dim is None:
        return None
    if rest:
        dim -= 1
    if dim >= len(x.shape):
        return [x]
    n = x.shape[dim]
    s = _call("sort", x, float(dim + 1))[0]
    if omit:
        return [_median_omitnan(x, s, dim)]
    mid = (n + 1) // 2
    lower = _index(s, *_along(tuple(x.shape), dim, mid, mid))
    if n % 2:
        m = lower
    else:
        upper = _index(s, *_along(tuple(x.shape), dim, mid + 1, mid + 1))
        m = _midpoint(lower, upper)
    has_nan = _call("any", _call("isnan", x)[0], float(dim + 1))[0]
    # NaN where the slice held one: 0 ./ 0 is NaN, 0 ./ 1 is 0.
    return [_op("+", m, _op("./", 0.0, _call("not", has_nan)[0]))]


def _midpoint(lower: Any, upper: Any) -> Any:
    """``lower + (upper - lower)/2`` for sorted pairs; the same infinity
    twice gives that infinity (max ignores the NaN of Inf - Inf)."""
    return _op("+", lower, _op("/", _call("max", _op("-", upper, lower), 0.0)[0], 2.0))


def _median_omitnan(x: GpuArray, s: GpuArray, dim: int) -> Any:
    """The median of each slice of ``x`` along ``dim`` ignoring NaN, from its
    sort ``s`` (NaN last): each slice's middle positions come from its count
    of numbers and are gathered on the device; an all-NaN slice gives NaN."""
    from matfuse.accelerate.router.index_positions import device_positions, select
    from matfuse.accelerate.router.indexing import gather_at

    shape = tuple(x.shape)
    count = _call("sum", _call("not", _call("isnan", x)[0])[0], float(dim + 1))[0]
    stride = int(np.prod(shape[:dim], dtype=np.int64))
    # positions of each slice's first element: all colons and one scalar,
    # generated on the device
    first = device_positions(x.provider, select(shape, _along(shape, dim, 1, 1)), None)
    low = _call("max", _call("floor", _op("/", _op("-", count, 1.0), 2.0))[0], 0.0)[0]
    high = _call("max", _call("floor", _op("/", count, 2.0))[0], 0.0)[0]
    out_shape = tuple(count.shape)
    lower = gather_at(s, _op("+", first, _op("*", low, float(stride))), out_shape)
    upper = gather_at(s, _op("+", first, _op("*", high, float(stride))), out_shape)
    # NaN where the slice held no number: 0 ./ 0 is NaN, 0 ./ 1 is 0.
    return _op("+", _midpoint(lower, upper), _op("./", 0.0, _op(">", count, 0.0)))


def idivide_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``idivide(a, b[, 'fix'|'round'|'floor'|'ceil'])`` of integers up to 32
    bits: the exact double quotient rounded as asked, then saturated to the
    integer class (doubles hold every such quotient's integer part exactly)."""
    if len(args) not in (2, 3) or nargout > 1:
        return None
    mode = "fix"
    if len(args) == 3:
        if not is_char(args[2]):
            return None
        mode = to_str(args[2]).lower()
        if mode not in ("fix", "round", "floor", "ceil"):
            return None
    a, b = args[:2]
    classes = {v.matlab_class if isinstance(v, DeviceValue) else
               (v.dtype.name if type(v) is np.ndarray else "double") for v in (a, b)}
    ints = classes & set(_INT_EXACT_IN_DOUBLE)
    if len(ints) != 1 or not classes <= ints | {"double"}:
        return None
    cls = ints.pop()
    q = _op("./", _call("double", a)[0], _call("double", b)[0])
    return [_call(cls, _call(mode, q)[0])[0]]


def _moments(op: str) -> Callable[[list[Any], int, Any], list[Any] | None]:
    def moments(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
        """``[V, M] = var/std(x, w, dim|vecdim|'all', nanflag)`` of real float
        data, ``w`` 0 (N-1) or 1 (N). On a provider that fuses, and with
        ``'omitnan'`` on any provider, the mean and the sum of squared
        deviations are MATLAB-level reductions (fused with the producer of
        ``x``; a slice of one number has variance 0, an all-NaN slice NaN, as
        MATLAB); otherwise the provider's moments hook."""
        if nargout > 2 or not args or not _real_float(args[0]) or len(args) > 4:
            return None
        x, rest = args[0], list(args[1:])
        omitnan = False
        if rest and is_char(rest[-1]) and to_str(rest[-1]).lower() in ("omitnan", "includenan"):
            omitnan = to_str(rest.pop()).lower() == "omitnan"
        weight = 0
        if rest:
            w = rest.pop(0)
            if type(w) is np.ndarray and w.size == 0:
                weight = 0
            elif type(w) is float and w in (0.0, 1.0):
                weight = int(w)
            else:
                return None
        dims = _dims_of(rest, tuple(x.shape))
        if dims == "bad":
            return None
        where = char_array("all") if dims is None else np.array([[d + 1.0 for d in dims]])
        if omitnan:
            v, mu = _moments_omitting_nan(x, where, weight)
        elif fusion_enabled(x.provider):
            v, mu = _moments_composed(x, dims, where, weight)
        else:
            v = _moments_hook(op, x, dims, weight)
            if v is None:
                return None
            mu = _call("mean", x, where)[0] if nargout == 2 else None
            return [v, mu][:max(nargout, 1)]
        out = _call("sqrt", v)[0] if op == "std" else v
        return [out, mu][:max(nargout, 1)]
    return moments


def _moments_hook(op: str, x: GpuArray, dims: tuple[int, ...] | None, weight: int) -> Any:
    """``var``/``std`` by the provider's moments hook, or None."""
    from matfuse.accelerate.gpuarray import wrap_handle
    from matfuse.accelerate_api import Unsupported

    p = x.provider
    try:
        h = p.moments(op, x.valid_handle(), dims, weight, False)
    except Unsupported:
        return None
    return wrap_handle(h, x.matlab_class, p)


def _moments_composed(x: GpuArray, dims: tuple[int, ...] | None, where: Any,
                      weight: int) -> tuple[Any, Any]:
    """(variance, mean) with NaNs included: ``sum((x - mu).^2) / d``, ``d``
    the count (``w`` 1) or the count less one (``w`` 0, at least 1)."""
    shape = tuple(x.shape)
    n = 1
    for d in range(len(shape)) if dims is None else dims:
        n *= shape[d] if d < len(shape) else 1
    mu = _call("mean", x, where)[0]
    centered = _op("-", x, mu)
    total = _call("sum", _op(".*", centered, centered), where)[0]
    denom = float(n if weight == 1 else max(n - 1, 1))
    return _op("./", total, denom), mu


def _moments_omitting_nan(x: GpuArray, where: Any, weight: int) -> tuple[Any, Any]:
    """(variance, mean) of the non-NaN values of each slice."""
    omit = char_array("omitnan")
    n = _call("sum", _call("not", _call("isnan", x)[0])[0], where)[0]
    mu = _op("./", _call("sum", x, where, omit)[0], n)
    centered = _op("-", x, mu)
    total = _call("sum", _op(".*", centered, centered), where, omit)[0]
    denom = n if weight == 1 else _op("-", n, _op(">", n, 1.0))
    return _op("./", total, denom), mu


def _dims_of(rest: list[Any], shape: tuple[int, ...]) -> tuple[int, ...] | None | str:
    """0-based dims of an optional ``dim``/``vecdim``/``'all'`` argument
    (default: the first non-singleton dimension); ``"bad"`` otherwise."""
    if not rest:
        return (_first_nonsingleton(shape),)
    if len(rest) > 1:
        return "bad"
    v = rest[0]
    if is_char(v):
        return None if to_str(v).lower() == "all" else "bad"
    if type(v) is float:
        v = np.array([[v]])
    if type(v) is not np.ndarray or v.dtype.kind not in "fiu" or v.size == 0:
        return "bad"
    values = [float(d) for d in v.reshape(-1)]
    if any(d < 1 or d != int(d) for d in values) or len(set(values)) != len(values):
        return "bad"
    return tuple(sorted(int(d) - 1 for d in values))


# Builtins that expand singleton dimensions themselves: bsxfun(@f, A, B) is f(A, B).
_EXPANDING = frozenset({"plus", "minus", "times", "rdivide", "ldivide", "power", "max", "min",
                        "rem", "mod", "atan2", "hypot", "eq", "ne", "lt", "le", "gt", "ge",
                        "and", "or", "xor"})


def bsxfun_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``bsxfun(fun, A, B)`` with device operands: a builtin that expands
    singleton dimensions itself is called directly (one fused elementwise
    kernel); any other function gets both operands expanded on the device
    (indexing with device-generated positions), as the host bsxfun does."""
    from matfuse.runtime.builtins.broadcast_apply import bsxfun
    from matfuse.runtime.values import FunctionHandle, shape_of

    if len(args) != 3 or nargout > 1:
        return None
    fun, a, b = args
    name = to_str(fun) if is_char(fun) else (
        fun.name if isinstance(fun, FunctionHandle) and fun.fn is None else None)
    sa, sb = shape_of(a), shape_of(b)
    ndim = max(len(sa), len(sb))
    sa, sb = sa + (1,) * (ndim - len(sa)), sb + (1,) * (ndim - len(sb))
    compatible = all(x == y or x == 1 or y == 1 for x, y in zip(sa, sb))
    if name in _EXPANDING and compatible:
        return _call(name, a, b)
    if ctx is None:
        return None
    return [bsxfun(ctx, fun, a, b)]


#: builtin name -> the router module whose ``COMPOSED`` table implements it:
#: imported on the first call of one of its builtins, so a script's first
#: device operation does not load twenty modules it may never use (a test
#: checks this table against the modules' own tables)
COMPOSED_IN: dict[str, str] = {
    "movmean": "moving", "movsum": "moving",
    "cumtrapz": "series", "diff": "series", "trapz": "series",
    "iqr": "quantiles", "prctile": "quantiles", "quantile": "quantiles",
    "kurtosis": "distribution_shape", "skewness": "distribution_shape",
    "corr": "correlation", "corrcoef": "correlation",
    "normalize": "normalization",
    "bitand": "bits", "bitget": "bits", "bitor": "bits", "bitset": "bits", "bitshift": "bits",
    "bitxor": "bits",
    "interp1": "interpolation",
    "histcounts": "histogram_bins",
    "_gridded_evaluate": "grid_interpolation", "interp2": "grid_interpolation",
    "interpn": "grid_interpolation",
    "bounds": "reduction_wrappers", "nanmax": "reduction_wrappers",
    "nanmean": "reduction_wrappers", "nanmedian": "reduction_wrappers",
    "nanmin": "reduction_wrappers", "nanstd": "reduction_wrappers",
    "nansum": "reduction_wrappers", "nanvar": "reduction_wrappers",
    "range": "reduction_wrappers", "tril": "reduction_wrappers", "triu": "reduction_wrappers",
    "vecnorm": "reduction_wrappers",
    "hankel": "structured", "toeplitz": "structured", "vander": "structured",
    "meshgrid": "grids", "ndgrid": "grids",
    "acos": "real_domain", "acosh": "real_domain", "asin": "real_domain",
    "atanh": "real_domain", "nextpow2": "real_domain", "pow2": "real_domain",
    "reallog": "real_domain", "realsqrt": "real_domain",
    "acosd": "trig_forms", "asind": "trig_forms", "atand": "trig_forms", "cosd": "trig_forms",
    "cot": "trig_forms", "csc": "trig_forms", "deg2rad": "trig_forms", "rad2deg": "trig_forms",
    "sec": "trig_forms", "sind": "trig_forms", "tand": "trig_forms",
    "isdiag": "structure_predicates", "ishermitian": "structure_predicates",
    "issorted": "structure_predicates", "issymmetric": "structure_predicates",
    "istril": "structure_predicates", "istriu": "structure_predicates",
    "rescale": "rescale",
    "diag": "diagonals", "blkdiag": "diagonals",
    "unique": "sets", "ismember": "sets", "find": "find_forms", "round": "round_digits",
    "movmax": "moving_windows", "movmin": "moving_windows", "movprod": "moving_windows",
    "movstd": "moving_windows", "movvar": "moving_windows",
    "dot": "vector_products", "cross": "vector_products", "nthroot": "vector_products",
    "repelem": "vector_products", "cumsum": "complex_forms", "prod": "complex_forms",
    "fftshift": "reorder", "ifftshift": "reorder", "sortrows": "reorder",
    "mode": "most_frequent",
    "fft": "fourier_forms", "fft2": "fourier_forms", "ifft": "fourier_forms",
    "ifft2": "fourier_forms",
    "svd": "factorizations", "qr": "factorizations", "lu": "factorizations",
    "norm": "singular_forms", "cond": "singular_forms", "rank": "singular_forms",
    "pinv": "singular_forms", "null": "singular_forms", "orth": "singular_forms",
    "rat": "rational", "rats": "rational",
    "griddedInterpolant": "gridded_construction", "convn": "convolution_nd",
    "expm": "matrix_exponential", "sqrtm": "matrix_roots", "logm": "matrix_roots",
}

OWN_COMPOSITIONS: dict[str, Callable[[list[Any], int, Any], list[Any] | None]] = {
    "bsxfun": bsxfun_on_device,
    "kron": kron_on_device,
    "maxk": _topk(True),
    "mink": _topk(False),
    "median": median_on_device,
    "idivide": idivide_on_device,
    "var": _moments("var"),
    "std": _moments("std"),
    "accumarray": accumarray_on_device,
}


class ComposedTable:
    """Builtin name -> ``fn(args, nargout, ctx) -> outputs``: this module's
    compositions and those of the per-category modules (``COMPOSED_IN``),
    each module imported when one of its builtins is first looked up."""

    def __init__(self, own: dict[str, Callable[[list[Any], int, Any], list[Any] | None]]):
        self._table = dict(own)

    def get(self, name: str, default: Any = None) -> Any:
        fn = self._table.get(name)
        if fn is not None:
            return fn
        module = COMPOSED_IN.get(name)
        if module is None:
            return default
        composed = importlib.import_module(f"matfuse.accelerate.router.{module}").COMPOSED
        for key, impl in composed.items():
            self._table.setdefault(key, impl)
        return self._table.get(name, default)

    def names(self) -> set[str]:
        return set(self._table) | set(COMPOSED_IN)


COMPOSED = ComposedTable(OWN_COMPOSITIONS)
