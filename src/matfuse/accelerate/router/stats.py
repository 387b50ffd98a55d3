"""Device paths of ``zscore``, ``cov``, ``histcounts`` and ``norm``.

``zscore``, ``cov`` and ``norm`` are composed from MATLAB-level operations
on the gpuArrays (``mean``, ``sum``, ``max``, elementwise operators,
transpose, ``*``), so they take the fusion engine or the eager hooks like
any program would; nothing leaves the device. ``histcounts`` bins on the
device with the provider's ``histogram`` hook; with a bin count, the edges
come from MATLAB's bin picker on the host, fed by the device's min and max
(one 2-element read-back).

Every function returns None for forms it does not take (flags, name/value
options, empties, integer or complex data where the CPU's class rules
differ, matrix 2-norms): the dispatcher's counted host fallback then runs,
which also raises MATLAB's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray, upload_value, wrap_handle
from matfuse.accelerate_api import AccelProvider, Unsupported
from matfuse.runtime.values import DeviceValue, char_array, element_class, is_char, shape_of, to_str

_FLOAT = ("double", "single")
_ALL = char_array("all")
_INCLUDENAN = char_array("includenan")
_NONE = np.zeros((0, 0))     # the ``[]`` of ``max(x, [], dim)``


def _call(name: str, *args: Any) -> Any:
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    return call_builtin(lookup(name), list(args), 1, None)[0]


def _op(symbol: str, a: Any, b: Any) -> Any:
    from matfuse.runtime import ops

    return ops.binary(symbol, a, b)


def _real_float(p: AccelProvider, x: Any, ndim2: bool = True) -> bool:
    """A non-empty real double/single gpuArray of ``p`` (2-D if asked)."""
    return isinstance(x, GpuArray) and x.provider is p and 0 not in x.shape and \
        x.matlab_class in _FLOAT and not x.is_complex() and (not ndim2 or len(x.shape) == 2)


def _first_nonsingleton(shape: tuple[int, ...]) -> int:
    for i, d in enumerate(shape):
        if d != 1:
            return i
    return 0


def _host_scalar(v: Any) -> float | None:
    """A host real scalar as float (None for anything else)."""
    if type(v) is float:
        return v
    if type(v) is np.ndarray and v.size == 1 and v.dtype.kind in "fiub":
        return float(v.reshape(-1)[0])
    return None


def _is_empty_host(v: Any) -> bool:
    return type(v) is np.ndarray and v.size == 0 and v.dtype.kind in "fiub"


# ------------------------------------------------------------------ zscore
def try_zscore(p: AccelProvider, args: list[Any], nargout: int) -> list[Any] | None:
    """``[Z, mu, sigma] = zscore(X)``, ``zscore(X, flag)``, ``zscore(X, flag, dim)``
    (flag 0: n-1 normalisation, 1: n)."""
    x = args[0]
    if not _real_float(p, x, ndim2=False) or len(args) > 3 or nargout > 3:
        return None
    flag = 0.0
    if len(args) >= 2 and not _is_empty_host(args[1]):
        flag = _host_scalar(args[1])
        if flag not in (0.0, 1.0):
            return None
    if len(args) == 3:
        d = _host_scalar(args[2])
        if d is None or d < 1 or d != int(d):
            return None
        axis = int(d) - 1
    else:
        axis = _first_nonsingleton(x.shape)
    n = x.shape[axis] if axis < len(x.shape) else 1
    dim = float(axis + 1)
    mu = _call("mean", x, dim)
    centered = _op("-", x, mu)
    denom = float(n - 1 if flag == 0.0 and n > 1 else n)
    sigma = _call("sqrt", _op("/", _call("sum", _op(".*", centered, centered), dim), denom))
    safe = _op("+", sigma, _op("==", sigma, 0.0))   # MATLAB divides by 1 where sigma is 0
    z = _op("./", centered, safe)
    return [z, mu, sigma][:max(nargout, 1)]


# ------------------------------------------------------------------ cov
def try_cov(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``cov(X)``, ``cov(X, w)``, ``cov(x, y)``, ``cov(x, y, w)`` of real
    double/single data, computed in double; single when an input is single,
    as the CPU builtin's."""
    if not args or any(is_char(a) for a in args) or len(args) > 3:
        return None
    rest = list(args)
    norm_n = False
    if len(rest) == 3 or (len(rest) == 2 and _numel(rest[1]) == 1 and _numel(rest[0]) != 1):
        w = _host_scalar(rest.pop())
        if w not in (0.0, 1.0):
            return None
        norm_n = w == 1.0
    if not all(_real_float(p, a) or _host_float(a) for a in rest) or \
            not any(isinstance(a, GpuArray) for a in rest):
        return None
    cols = [_as_device_double(p, a) for a in rest]
    if any(c is None for c in cols):
        return None
    if len(cols) == 1:
        x = cols[0]
        if x.shape[0] == 1:
            x = _call("reshape", x, float(x.numel), 1.0)
    else:
        a, b = cols
        if a.numel != b.numel:
            return None
        x = _concat_columns(p, [_call("reshape", a, float(a.numel), 1.0),
                                _call("reshape", b, float(b.numel), 1.0)])
        if x is None:
            return None
    n = x.shape[0]
    centered = _op("-", x, _call("mean", x, 1.0))
    denom = float(n if (norm_n or n == 1) else n - 1)
    result = _op("/", _op("*", _call("transpose", centered), centered), denom)
    single = any(element_class(a) == "single" for a in rest)
    return _call("single", result) if single else result


def _numel(v: Any) -> int:
    return int(np.prod(shape_of(v)))


def _host_float(v: Any) -> bool:
    return not isinstance(v, DeviceValue) and (type(v) is float or type(v) is np.ndarray
                                               and v.dtype.kind == "f" and v.size > 0
                                               and v.ndim == 2)


def _as_device_double(p: AccelProvider, v: Any) -> GpuArray | None:
    if not isinstance(v, GpuArray):
        v = upload_value(np.asarray(v, dtype=np.float64).reshape(shape_of(v)), p)
        if v.provider is not p:
            return None
    return v if v.matlab_class == "double" else _call("double", v)


def _concat_columns(p: AccelProvider, parts: list[Any]) -> GpuArray | None:
    """``[parts{:}]`` on the device (None when the provider cannot)."""
    from matfuse.accelerate.router.ops import try_concat

    return try_concat(p, [parts])


# ------------------------------------------------------------------ histcounts
ROUTED = frozenset({"zscore", "cov", "histcounts", "norm"})


def try_stats(p: AccelProvider, name: str, args: list[Any], nargout: int) -> list[Any] | None:
    """Outputs of ``name(args...)`` for the builtins in ``ROUTED``, or None."""
    if not args:
        return None
    if name == "zscore":
        return try_zscore(p, args, nargout)
    if name == "histcounts":
        return try_histcounts(p, args, nargout)
    if nargout > 1:
        return None
    result = try_cov(p, args) if name == "cov" else try_norm(p, args)
    return None if result is None else [result]


def try_histcounts(p: AccelProvider, args: list[Any], nargout: int) -> list[Any] | None:
    """``N = histcounts(x, nbins)``, ``N = histcounts(x, edges)`` and
    ``[N, edges] = ...`` of real double/single data."""
    x = args[0]
    if len(args) != 2 or nargout > 2 or not _real_float(p, x, ndim2=False):
        return None
    spec = args[1]
    if isinstance(spec, DeviceValue):
        spec = spec.gather()        # bin specification: small, needed on the host
    if is_char(spec) or type(spec) not in (float, np.ndarray):
        return None
    values = np.asarray(spec, dtype=np.float64) if type(spec) is np.ndarray else \
        np.array([spec])
    if values.dtype.kind not in "f" or np.iscomplexobj(values):
        return None
    if values.size == 1:
        nbins = float(values.reshape(-1)[0])
        if nbins < 1 or nbins != int(nbins) or nbins > 2**24:
            return None
        edges = _auto_edges(p, x, int(nbins))
        if edges is None:
            return None
    else:
        edges = values.reshape(-1, order="F")
        if edges.size < 2 or np.any(np.diff(edges) < 0) or np.isnan(edges).any():
            return None
    e = upload_value(edges.reshape(1, -1), p)
    if e.provider is not p:
        return None
    try:
        h = p.histogram(x.valid_handle(), e.valid_handle())
    except Unsupported:
        return None
    counts = wrap_handle(h, "double", p)
    return [counts, e][:max(nargout, 1)]


def _auto_edges(p: AccelProvider, x: GpuArray, nbins: int) -> np.ndarray | None:
    """MATLAB's edges for ``nbins`` bins over the finite values of ``x``;
    None when ``x`` holds +-Inf (the finite range needs a masked min/max,
    and IEEE tricks such as ``x + (x - x)`` are folded away by shader
    compilers: measured on lavapipe), which the host path then handles."""
    from matfuse.runtime.builtins.histograms import bin_picker

    lo_hi = [_call("min", x, _NONE, _ALL), _call("max", x, _NONE, _ALL)]    # both skip NaN
    both = _concat_columns(p, lo_hi)
    host = both.gather() if both is not None else [v.gather() for v in lo_hi]
    lo, hi = (float(v) for v in np.asarray(host, dtype=np.float64).reshape(-1))
    if np.isnan(lo):          # no finite value: the CPU's default edges
        return np.linspace(0, 1, nbins + 1)
    if np.isinf(lo) or np.isinf(hi):
        return None
    return bin_picker(lo, hi, nbins, (hi - lo) / nbins)


# ------------------------------------------------------------------ norm
def try_norm(p: AccelProvider, args: list[Any]) -> GpuArray | None:
    """``norm(v)``, ``norm(v, p)`` of vectors (p: 1, 2, Inf, -Inf, any
    positive number, 'fro'), ``norm(A, 1|Inf|'fro')`` of matrices. The 2-norm
    of a matrix stays on the host."""
    x = args[0]
    if not (isinstance(x, GpuArray) and x.provider is p and 0 not in x.shape and
            x.matlab_class in _FLOAT and len(x.shape) == 2) or len(args) > 2:
        return None
    kind: float | str = 2.0
    if len(args) == 2:
        arg = args[1]
        if is_char(arg):
            word = to_str(arg).lower()
            if word not in ("fro", "inf", "-inf"):
                return None
            kind = {"fro": "fro", "inf": np.inf, "-inf": -np.inf}[word]
        else:
            value = _host_scalar(arg)
            if value is None or np.isnan(value) or value == 0:
                return None
            kind = value
    a = _call("abs", x)
    vector = 1 in x.shape
    if vector or kind == "fro":
        if kind in (2.0, "fro"):
            return _two_norm(a, x.matlab_class)
        if kind == 1.0:
            return _call("sum", a, _ALL)
        if kind == np.inf:
            return _call("max", a, _NONE, _ALL, _INCLUDENAN)
        if kind == -np.inf:
            return _call("min", a, _NONE, _ALL, _INCLUDENAN)
        if kind < 0:
            return None            # 0 ./ 0 inside sum: leave the edge cases to the host
        return _op(".^", _call("sum", _op(".^", a, kind), _ALL), 1.0 / kind)
    # the CPU's max propagates NaN (np.max), MATLAB's default would skip it
    if kind == 1.0:
        return _call("max", _call("sum", a, 1.0), _NONE, 2.0, _INCLUDENAN)
    if kind == np.inf:
        return _call("max", _call("sum", a, 2.0), _NONE, 1.0, _INCLUDENAN)
    return None


def _two_norm(a: Any, cls: str) -> Any:
    """Scaled 2-norm of the non-negative ``a``, as the CPU's: no overflow or
    underflow of the squares; an Inf element gives Inf and a NaN gives NaN.

    The scale is ``max(a)`` clamped to [realmin, realmax]: 0 needs no
    special case (0/realmin = 0), an Inf scale would turn Inf/Inf into NaN
    (Inf/realmax stays Inf), and the NaN that ``max`` skips reaches the sum
    through its own ratio."""
    tiny, huge = (float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)) \
        if cls == "single" else (float(np.finfo(np.float64).tiny), float(np.finfo(np.float64).max))
    m = _call("max", a, _NONE, _ALL)
    safe = _call("max", _call("min", m, huge), tiny)
    ratio = _op("./", a, safe)
    return _op(".*", safe, _call("sqrt", _call("sum", _op(".*", ratio, ratio), _ALL)))
