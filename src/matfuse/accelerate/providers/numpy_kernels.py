"""MATLAB-semantics elementwise and array kernels in NumPy.

Used by the in-process provider (the oracle) and usable by any provider's
host fallback. Arrays are in MATLAB shape; memory order is irrelevant.
"""

from __future__ import annotations

from typing import Any, Callable

import warnings

import numpy as np

from matfuse.accelerate.providers._host import single_if_mixed
from matfuse.accelerate_api.support import float_mod


def round_half_away(x: np.ndarray) -> np.ndarray:
    """MATLAB ``round``: halves away from zero (exact for all doubles)."""
    if np.iscomplexobj(x):
        return round_half_away(x.real) + 1j * round_half_away(x.imag)
    t = np.trunc(x)
    with np.errstate(invalid="ignore"):
        return t + np.sign(x) * (np.abs(x - t) >= 0.5)


def to_integer(x: np.ndarray, dtype: str) -> np.ndarray:
    """MATLAB conversion to an integer class: round half away, saturate, NaN -> 0."""
    info = np.iinfo(dtype)
    if x.dtype.kind in "iub":
        return np.clip(x.astype(np.float64) if x.dtype.kind == "b" else x,
                       info.min, info.max).astype(dtype)
    r = round_half_away(np.asarray(x, dtype=np.float64).real)
    high, low = r >= float(info.max), r <= float(info.min)
    # float(int64 max) rounds up to 2**63: saturate by mask, not by clip.
    out = np.where(high | low | np.isnan(r), 0.0, r).astype(dtype)
    out[high] = info.max
    out[low] = info.min
    return out


def cast_to(x: Any, dtype: str) -> np.ndarray:
    """Convert with MATLAB rules (integers round and saturate, logical is != 0)."""
    dt = np.dtype(dtype)
    x = np.asarray(x)
    if dt == np.bool_:
        return x != 0
    if dt.kind in "iu":
        return to_integer(x, dtype)
    if dt.kind == "f" and x.dtype.kind == "c":
        return x.real.astype(dt)
    return x.astype(dt)


def _remainder(x: np.ndarray, y: np.ndarray, trunc: bool) -> np.ndarray:
    """MATLAB mod/rem of real floats exactly as the host computes them."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    if x.dtype.kind == "c" or y.dtype.kind == "c" or x.dtype.kind not in "f":
        return np.fmod(x, y) if trunc else np.where(y == 0, x, np.mod(x, y))
    dt = np.result_type(x, y)
    return float_mod(x.astype(dt), y.astype(dt), trunc)


def _mod(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return _remainder(x, y, False)


def _rem(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return _remainder(x, y, True)


def _sign(x: np.ndarray) -> np.ndarray:
    if np.iscomplexobj(x):
        mag = np.abs(x)
        return np.where(mag == 0, 0, x / np.where(mag == 0, 1, mag))
    return np.sign(x)


def _fix(x: np.ndarray) -> np.ndarray:
    if np.iscomplexobj(x):
        return np.trunc(x.real) + 1j * np.trunc(x.imag)
    return np.trunc(x)


def _parts(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    def apply(x: np.ndarray) -> np.ndarray:
        if np.iscomplexobj(x):
            return fn(x.real) + 1j * fn(x.imag)
        return fn(x)
    return apply


def matlab_align(a: Any, b: Any) -> tuple[Any, Any]:
    """Append trailing singleton dims so NumPy broadcasting matches MATLAB's
    (which pads shapes on the right, NumPy on the left)."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.ndim != b.ndim:
        n = max(a.ndim, b.ndim)
        a = a.reshape(a.shape + (1,) * (n - a.ndim))
        b = b.reshape(b.shape + (1,) * (n - b.ndim))
    return a, b


def _complex(a: Any, b: Any) -> np.ndarray:
    """``complex(re, im)``: parts set directly (``re + 1j*im`` turns an
    infinite imaginary part into a NaN real part)."""
    re, im = np.broadcast_arrays(np.real(a), np.real(b))
    out = np.empty(re.shape, dtype=np.result_type(re.dtype, im.dtype, np.complex64))
    out.real, out.imag = re, im
    return out


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "plus": np.add, "minus": np.subtract, "times": np.multiply,
    "rdivide": np.divide, "ldivide": lambda a, b: np.divide(b, a), "power": np.power,
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
    "and": lambda a, b: np.logical_and(a != 0, b != 0),
    "or": lambda a, b: np.logical_or(a != 0, b != 0),
    "xor": lambda a, b: np.logical_xor(a != 0, b != 0),
    "atan2": np.arctan2, "hypot": np.hypot, "max": np.fmax, "min": np.fmin,
    "mod": _mod, "rem": _rem, "complex": _complex,
}

def _special(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """scipy.special.NAME, imported on first use (scipy is slow to import)."""
    def call(x: np.ndarray) -> np.ndarray:
        from scipy import special

        return getattr(special, name)(x)
    return call


def _gamma(x: np.ndarray) -> np.ndarray:
    """MATLAB's gamma: Inf at the negative integers (SciPy gives NaN)."""
    from scipy import special

    out = special.gamma(x)
    if x.dtype.kind == "c":
        return out
    return np.where((x < 0) & (x == np.floor(x)) & np.isfinite(x), np.inf, out).astype(out.dtype)


UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "uminus": np.negative, "uplus": lambda x: x, "not": lambda x: x == 0,
    "abs": np.abs, "sign": _sign, "sqrt": np.sqrt, "exp": np.exp, "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos,
    "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "floor": _parts(np.floor), "ceil": _parts(np.ceil), "round": round_half_away,
    "fix": _fix, "real": np.real, "imag": np.imag, "conj": np.conj, "angle": np.angle,
    "gamma": _gamma, "erf": _special("erf"), "erfc": _special("erfc"),
    "gammaln": _special("gammaln"), "erfinv": _special("erfinv"), "erfcinv": _special("erfcinv"),
    "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
}

_COMPARE_OR_LOGIC = frozenset({"eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor"})


def elem_binary(op: str, a: Any, b: Any, out_dtype: str) -> np.ndarray:
    """``op`` with implicit expansion, computed in ``out_dtype``'s precision."""
    fn = BINARY[op]
    dt = np.dtype(out_dtype)
    a, b = matlab_align(a, b)
    if op in ("max", "min") and dt.kind in "iu":
        # MATLAB converts the other operand to the integer class first:
        # max(1000, uint8(1)) is 255, and a NaN becomes 0 (not ignored)
        a, b = cast_to(np.asarray(a), out_dtype), cast_to(np.asarray(b), out_dtype)
    if op not in _COMPARE_OR_LOGIC:
        work = dt if dt.kind in "fc" else np.dtype(np.float64)
        a = np.asarray(a, dtype=work) if not np.iscomplexobj(a) or work.kind == "c" else np.asarray(a)
        b = np.asarray(b, dtype=work) if not np.iscomplexobj(b) or work.kind == "c" else np.asarray(b)
    elif op not in ("and", "or", "xor"):
        a, b = single_if_mixed(a, b)
    with np.errstate(all="ignore"):
        result = fn(a, b)
    return cast_to(result, out_dtype)


def elem_unary(op: str, a: np.ndarray, out_dtype: str) -> np.ndarray:
    dt = np.dtype(out_dtype)
    if dt.kind == "c" and a.dtype.kind != "c" and op not in ("real", "imag", "abs"):
        a = a.astype(dt)
    if a.dtype.kind == "i" and op in ("uminus", "abs"):
        # -intmin saturates to intmax (NumPy's integer negation wraps)
        a = a.astype(np.float64)
    with np.errstate(all="ignore"):
        result = UNARY[op](a)
    return cast_to(result, out_dtype)


def reduce(op: str, a: np.ndarray, axes: tuple[int, ...] | None, omitnan: bool,
           out_dtype: str) -> np.ndarray:
    """MATLAB reductions; ``axes`` None means every element (1x1 result)."""
    x = a.reshape(-1, order="F") if axes is None else a
    axis = 0 if axes is None else axes
    isfloat = x.dtype.kind in "fc"
    # All-NaN slices with omitnan give NaN (MATLAB) - not worth a warning.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if op == "sum":
            r = np.nansum(x, axis=axis, keepdims=True) if omitnan and isfloat else \
                np.sum(x, axis=axis, keepdims=True, dtype=_acc(x))
        elif op == "prod":
            r = np.nanprod(x, axis=axis, keepdims=True) if omitnan and isfloat else \
                np.prod(x, axis=axis, keepdims=True, dtype=_acc(x))
        elif op == "mean":
            if x.dtype == np.float32:
                # single means accumulate in double, as the runtime's builtin
                x = x.astype(np.float64)
            r = np.nanmean(x, axis=axis, keepdims=True) if omitnan and isfloat else \
                np.mean(x, axis=axis, keepdims=True, dtype=_acc(x))
        elif op in ("max", "min"):
            ufunc = (np.fmax if op == "max" else np.fmin) if omitnan else \
                (np.maximum if op == "max" else np.minimum)
            r = ufunc.reduce(x, axis=axis, keepdims=True)
        elif op == "any":
            r = np.any((x != 0) & ~np.isnan(x) if isfloat else x != 0, axis=axis, keepdims=True)
        elif op == "all":
            r = np.all(x != 0, axis=axis, keepdims=True)
        elif op == "nnz":
            r = np.sum(x != 0, axis=axis, keepdims=True).astype(np.float64)
        else:
            raise KeyError(op)
    if axes is None:
        r = r.reshape(1, 1)
    return cast_to(r, out_dtype)


def _acc(x: np.ndarray) -> Any:
    # Logical/integer inputs accumulate in double (MATLAB's default class).
    return None if x.dtype.kind in "fc" else np.float64


def reduce_with_index(op: str, a: np.ndarray, dim: int,
                      omitnan: bool) -> tuple[np.ndarray, np.ndarray]:
    """``[m, i] = max(a, [], dim)``: first occurrence; all-NaN gives NaN, 1."""
    isnan = np.isnan(a) if a.dtype.kind in "fc" else np.zeros(a.shape, bool)
    fill = -np.inf if op == "max" else np.inf
    filled = np.where(isnan, fill, a)
    pick = np.argmax if op == "max" else np.argmin
    idx = pick(filled, axis=dim)
    if not omitnan:
        nan_any = isnan.any(axis=dim)
        idx = np.where(nan_any, np.argmax(isnan, axis=dim), idx)
    idx = np.expand_dims(idx, dim)
    vals = np.take_along_axis(a, idx, axis=dim)
    return vals, (idx + 1).astype(np.float64)


def moments(op: str, a: np.ndarray, axes: tuple[int, ...] | None, weight: int,
            omitnan: bool) -> np.ndarray:
    x = a.reshape(-1, order="F") if axes is None else a
    axis = 0 if axes is None else axes
    n = x.shape[0] if axes is None else int(np.prod([a.shape[d] for d in axes]))
    ddof = 0 if weight == 1 or n == 1 else 1
    var = np.nanvar if omitnan else np.var
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        r = var(x, axis=axis, ddof=ddof, keepdims=True)
    if op == "std":
        r = np.sqrt(r)
    return r.reshape(1, 1) if axes is None else r


def scan(op: str, a: np.ndarray, dim: int, reverse: bool) -> np.ndarray:
    x = np.flip(a, axis=dim) if reverse else a
    fn = {"cumsum": np.cumsum, "cumprod": np.cumprod,
          "cummax": np.fmax.accumulate, "cummin": np.fmin.accumulate}[op]
    r = fn(x, axis=dim)
    return np.flip(r, axis=dim) if reverse else r


def conv1d(a: np.ndarray, b: np.ndarray, mode: str) -> np.ndarray:
    u, v = a.reshape(-1, order="F"), b.reshape(-1, order="F")
    full = np.convolve(u, v)
    nu, nv = u.size, v.size
    if mode == "same":
        start = nv // 2
        out = full[start:start + nu]
    elif mode == "valid":
        out = full[nv - 1:nu] if nu >= nv else full[:0]
    else:
        out = full
    column = a.ndim == 2 and a.shape[1] == 1 and a.shape[0] != 1
    return out.reshape(-1, 1) if column else out.reshape(1, -1)


def conv2d(a: np.ndarray, b: np.ndarray, mode: str) -> np.ndarray:
    from scipy import signal

    full = signal.convolve2d(a, b, mode="full")
    if mode == "full":
        return full
    if mode == "same":
        r0, c0 = b.shape[0] // 2, b.shape[1] // 2
        return full[r0:r0 + a.shape[0], c0:c0 + a.shape[1]]
    rows = max(a.shape[0] - b.shape[0] + 1, 0)
    cols = max(a.shape[1] - b.shape[1] + 1, 0)
    return full[b.shape[0] - 1:b.shape[0] - 1 + rows, b.shape[1] - 1:b.shape[1] - 1 + cols]


def sort(a: np.ndarray, dim: int, descending: bool) -> tuple[np.ndarray, np.ndarray]:
    """Stable sort; NaN last ascending, first descending (MATLAB)."""
    x = np.moveaxis(a, dim, -1)
    if descending:
        isnan = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
        key = np.where(isnan, 0, x)
        if key.dtype == np.bool_:
            neg = np.logical_not(key)
        else:
            neg = -key.astype(np.float64) if key.dtype.kind == "u" else -key
        idx = np.lexsort((neg, ~isnan), axis=-1)
    else:
        idx = np.argsort(x, axis=-1, kind="stable")
    vals = np.take_along_axis(x, idx, axis=-1)
    return np.moveaxis(vals, -1, dim), np.moveaxis((idx + 1).astype(np.float64), -1, dim)
