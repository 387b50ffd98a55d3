"""Convolution and filtering: conv, conv2, convn, deconv, filter."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._host_threads import map_columns
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, is_text
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical, char_array, to_str

SHAPES = ("full", "same", "valid")


def float_array(v: Any, fn: str) -> np.ndarray:
    """Numeric input as float64/complex128 (float32 kept for single); no copy
    when it already is one (callers never write to it)."""
    arr = numeric_input(v, fn)
    if arr.dtype.kind == "c":
        return arr.astype(np.complex64 if arr.dtype == np.complex64 else np.complex128, copy=False)
    return arr.astype(np.float32 if arr.dtype == np.float32 else np.float64, copy=False)


def _shape_arg(v: Any, fn: str) -> str:
    word = to_str(v).lower() if is_text(v) else ""
    if word not in SHAPES:
        raise MatlabError(f"MATLAB:{fn}:unknownShapeParameter",
                          "Shape must be 'full', 'same', or 'valid'.")
    return word


def conv_full_to_shape(full: np.ndarray, na: int, nb: int, shape: str) -> np.ndarray:
    """Cut a 1-D full convolution down to MATLAB's 'same'/'valid' part."""
    if shape == "same":
        start = nb // 2
        return full[start:start + na]
    if shape == "valid":
        return full[nb - 1:na] if na >= nb else full[:0]
    return full


@builtin("conv", category="signal", nargin=(2, 3),
         gpu=GpuSpec(kind="signal", hook="conv1d", op="conv"))
def conv(u: Any, v: Any, shape: Any = None) -> Any:
    """Convolution and polynomial multiplication of vectors."""
    a = float_array(u, "conv")
    b = float_array(v, "conv")
    if not (a.ndim == 2 and min(a.shape) <= 1) or not (b.ndim == 2 and min(b.shape) <= 1):
        raise MatlabError("MATLAB:conv:AorBNotVector", "A and B must be vectors.")
    mode = _shape_arg(shape, "conv") if shape is not None else "full"
    fa, fb = a.reshape(-1, order="F"), b.reshape(-1, order="F")
    if fa.size == 0 or fb.size == 0:
        full = np.zeros(max(fa.size + fb.size - 1, 0), dtype=np.result_type(a, b))
    else:
        full = np.convolve(fa, fb)
    out = conv_full_to_shape(full, fa.size, fb.size, mode)
    # MATLAB: the longer input's orientation for 'full', u's otherwise.
    if mode == "full":
        row = (a.shape[0] == 1) if fa.size > fb.size else (b.shape[0] == 1)
    else:
        row = a.shape[0] == 1
    return canonical(out.reshape(1, -1) if row else out.reshape(-1, 1))


def _conv2_full(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    import scipy.signal
    if a.size == 0 or b.size == 0:
        return np.zeros((max(a.shape[0] + b.shape[0] - 1, 0), max(a.shape[1] + b.shape[1] - 1, 0)),
                        dtype=np.result_type(a, b))
    return scipy.signal.convolve2d(a, b, mode="full")


# Kernels up to this many elements convolve as a sum of shifted, scaled
# copies of A (two vectorised passes per kernel element); larger ones use
# SciPy's direct loop.
SMALL_KERNEL = 8


def _window(ashape: tuple[int, int], bshape: tuple[int, int], shape: str) -> tuple[int, int, int, int]:
    """Rows [r0, r1) and columns [c0, c1) of the full convolution that
    ``shape`` keeps."""
    (ma, na), (mb, nb) = ashape, bshape
    if shape == "full":
        return 0, ma + mb - 1, 0, na + nb - 1
    if shape == "same":
        return mb // 2, mb // 2 + ma, nb // 2, nb // 2 + na
    return mb - 1, max(ma, mb - 1), nb - 1, max(na, nb - 1)


def conv2_small_kernel(a: np.ndarray, b: np.ndarray, shape: str) -> np.ndarray | None:
    """``conv2(a, b, shape)`` for a small finite kernel of A's real float
    class: the kernel elements are added in SciPy's order (row by row), so
    the result is the same as ``_cut2(_conv2_full(a, b))`` bit for bit;
    None when the case is not one of these."""
    if (b.size > SMALL_KERNEL or a.size == 0 or b.size == 0 or a.dtype != b.dtype
            or a.dtype not in (np.float64, np.float32) or a.ndim != 2 or b.ndim != 2
            or not np.isfinite(b).all()):
        return None
    r0, r1, c0, c1 = _window(a.shape, b.shape, shape)
    ma, na = a.shape
    order = "F" if a.flags.f_contiguous else "C"
    out = np.zeros((r1 - r0, c1 - c0), dtype=a.dtype, order=order)
    scratch = np.empty_like(a, order=order)
    for p in range(b.shape[0]):
        for q in range(b.shape[1]):
            i0, i1 = max(r0 - p, 0), min(r1 - p, ma)
            j0, j1 = max(c0 - q, 0), min(c1 - q, na)
            if i0 >= i1 or j0 >= j1:
                continue
            term = np.multiply(a[i0:i1, j0:j1], b[p, q], out=scratch[:i1 - i0, :j1 - j0])
            out[i0 + p - r0:i1 + p - r0, j0 + q - c0:j1 + q - c0] += term
    return out


def _cut2(full: np.ndarray, ashape: tuple[int, int], bshape: tuple[int, int], shape: str) -> np.ndarray:
    if shape == "full":
        return full
    if shape == "same":
        r0, c0 = bshape[0] // 2, bshape[1] // 2
        return full[r0:r0 + ashape[0], c0:c0 + ashape[1]]
    rows = max(ashape[0] - bshape[0] + 1, 0)
    cols = max(ashape[1] - bshape[1] + 1, 0)
    return full[bshape[0] - 1:bshape[0] - 1 + rows, bshape[1] - 1:bshape[1] - 1 + cols] if rows and cols \
        else np.zeros((rows, cols), dtype=full.dtype)


@builtin("conv2", category="signal", nargin=(2, 4),
         gpu=GpuSpec(kind="signal", hook="conv2d", op="conv2"))
def conv2(*args: Any) -> Any:
    """2-D convolution: conv2(A, B, shape) or conv2(u, v, A, shape) (separable)."""
    rest = list(args)
    mode = _shape_arg(rest.pop(), "conv2") if rest and is_text(rest[-1]) else "full"
    if len(rest) == 3:
        if any(numeric_input(r, "conv2").ndim > 2 for r in rest):
            raise MatlabError("MATLAB:conv2:inputsMustBe2D", "N-D arrays are not supported.")
        u = float_array(rest[0], "conv2").reshape(-1, 1, order="F")
        v = float_array(rest[1], "conv2").reshape(1, -1, order="F")
        a = float_array(rest[2], "conv2")
        full = _conv2_full(_conv2_full(a, u), v)
        bshape = (u.shape[0], v.shape[1])
    elif len(rest) == 2:
        a = float_array(rest[0], "conv2")
        b = float_array(rest[1], "conv2")
        if a.ndim > 2 or b.ndim > 2:
            raise MatlabError("MATLAB:conv2:inputsMustBe2D", "N-D arrays are not supported.")
        small = conv2_small_kernel(a, b, mode)
        if small is not None:
            return canonical(small)
        full = _conv2_full(a, b)
        bshape = b.shape
    else:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    return canonical(_cut2(full, a.shape, bshape, mode))


@builtin("filter2", category="signal", nargin=(2, 3),
         gpu=GpuSpec(kind="device_native", returns_gpu=True))
def filter2(h: Any, x: Any, shape: Any = None) -> Any:
    """2-D FIR filter: conv2(X, rot90(H, 2), shape), shape 'same' (default),
    'full' or 'valid'. gpuArray operands stay on the device: the two calls
    take their device paths."""
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    mode = char_array("same") if shape is None else shape
    if not is_text(mode):
        raise MatlabError("MATLAB:filter2:InvalidShape", "Shape must be 'same', 'full' or 'valid'.")
    _shape_arg(mode, "filter2")
    rotated = call_builtin(lookup("rot90"), [h, 2.0], 1, None)[0]
    return call_builtin(lookup("conv2"), [x, rotated, mode], 1, None)[0]


@builtin("convn", category="signal", nargin=(2, 3))
def convn(a: Any, b: Any, shape: Any = None) -> Any:
    """N-D convolution: convn(A, B, shape); 'same' keeps the central part of
    the full result the size of A (from floor(size(B)/2) on, as conv2),
    'valid' the part computed without zero padding."""
    import scipy.signal
    mode = _shape_arg(shape, "convn") if shape is not None else "full"
    x = float_array(a, "convn")
    y = float_array(b, "convn")
    nd = max(x.ndim, y.ndim)
    xs = x.shape + (1,) * (nd - x.ndim)
    ys = y.shape + (1,) * (nd - y.ndim)
    x, y = x.reshape(xs, order="F"), y.reshape(ys, order="F")
    full_shape = tuple(max(p + q - 1, 0) for p, q in zip(xs, ys))
    if x.size == 0 or y.size == 0:
        full = np.zeros(full_shape, dtype=np.result_type(x, y))
    else:
        full = scipy.signal.convolve(x, y, mode="full", method="direct")
    if mode == "same":
        cut = tuple(slice(q // 2, q // 2 + p) for p, q in zip(xs, ys))
    elif mode == "valid":
        cut = tuple(slice(q - 1, q - 1 + max(p - q + 1, 0)) for p, q in zip(xs, ys))
    else:
        cut = tuple(slice(None) for _ in xs)
    out = np.ascontiguousarray(full[cut])
    if np.float32 in (x.dtype, y.dtype) or np.complex64 in (x.dtype, y.dtype):
        out = out.astype(np.complex64 if out.dtype.kind == "c" else np.float32)
    return canonical(out)


@builtin("deconv", category="signal", nargin=(2, 2), nargout=(0, 2))
def deconv(y: Any, a: Any) -> Any:
    """Polynomial division: [q, r] = deconv(y, a) with y = conv(a, q) + r."""
    import scipy.signal
    yv = float_array(y, "deconv")
    av = float_array(a, "deconv")
    fy, fa = yv.reshape(-1, order="F"), av.reshape(-1, order="F")
    if fa.size == 0 or fa[0] == 0:
        raise MatlabError("MATLAB:deconv:ZeroCoef1", "First coefficient of A must be non-zero.")
    if fy.size < fa.size:
        q = np.zeros(1)
        r = fy.copy()
    else:
        impulse = np.zeros(fy.size - fa.size + 1)
        impulse[0] = 1.0
        q = scipy.signal.lfilter(fy, fa, impulse)
        r = fy - np.convolve(fa, q)
        r[: q.size] = 0.0   # exact zeros where the quotient cancelled
    row = yv.shape[0] == 1
    shape = (lambda x: x.reshape(1, -1)) if row else (lambda x: x.reshape(-1, 1))
    return canonical(shape(q)), canonical(shape(r))


@builtin("filter", category="signal", nargin=(3, 5), nargout=(0, 2), wants_nargout=True,
         gpu=GpuSpec(kind="signal", hook="filter", op="filter"))
@ieee_quiet
def filter_(b: Any, a: Any, x: Any, zi: Any = None, dim: Any = None, nargout: int = 1) -> Any:
    """1-D digital filter (direct form II transposed): [y, zf] = filter(b, a, x, zi, dim)."""
    import scipy.signal
    bv = float_array(b, "filter").reshape(-1, order="F")
    av = float_array(a, "filter").reshape(-1, order="F")
    xv = float_array(x, "filter")
    if bv.size == 0 or av.size == 0:
        raise MatlabError("MATLAB:filter:invalidInputs",
                          "Filter coefficients must be nonempty vectors.")
    if av[0] == 0:
        raise MatlabError("MATLAB:filter:firstCoeffZero",
                          "First denominator filter coefficient must be non-zero.")
    axis = dim_arg(dim, "filter") if dim is not None else first_nonsingleton_dim(xv.shape)
    if axis >= xv.ndim:
        # Every dimension past ndims is a singleton: filter along a new last one.
        xv = xv[..., np.newaxis]
        axis = xv.ndim - 1
    order = max(av.size, bv.size) - 1
    # MATLAB's class rule: single wins over double.
    out_dtype = np.result_type(xv.dtype, bv.dtype, av.dtype)
    if any(v.dtype in (np.float32, np.complex64) for v in (xv, bv, av)):
        out_dtype = np.dtype(np.complex64 if out_dtype.kind == "c" else np.float32)
    if nargout < 2 and zi is None and axis == 0 and xv.ndim == 2 and order > 0:
        # columns filter independently: blocks of them in parallel, same bits
        dtype = np.result_type(xv.dtype, bv.dtype, av.dtype)
        out = map_columns(lambda block: scipy.signal.lfilter(bv, av, block, axis=0), xv, dtype)
        if out is not None:
            return canonical(out.astype(out_dtype, copy=False))
    moved = np.moveaxis(xv, axis, -1)
    lead = moved.shape[:-1]
    n_series = int(np.prod(lead))
    if zi is not None and not (type(zi) is np.ndarray and zi.size == 0):
        z = float_array(zi, "filter")
        if z.size == order and (n_series == 1 or order == 0):
            z0 = z.reshape(-1, order="F").reshape(lead + (order,))
        elif z.ndim >= 2 and z.shape[0] == order and z.size == order * n_series:
            z0 = np.moveaxis(z.reshape((order,) + lead, order="F"), 0, -1)
        else:
            raise MatlabError("MATLAB:filter:invalidInitialConditions",
                              "Initial conditions must be a vector of length max(length(a),length(b))-1, "
                              "or an array with the leading dimension of size max(length(a),length(b))-1 "
                              "and with remaining dimensions matching those of x.")
    else:
        z0 = np.zeros(lead + (order,))
    if moved.size == 0:
        y, zf = moved.copy(), np.asarray(z0, dtype=np.float64)
    elif order == 0:
        y = moved * (bv[0] / av[0])
        zf = np.zeros(lead + (0,))
    else:
        y, zf = scipy.signal.lfilter(bv, av, moved, axis=-1, zi=np.asarray(z0, dtype=np.result_type(moved, bv, av)))
    y = np.moveaxis(y, -1, axis).astype(out_dtype, copy=False)
    if nargout < 2:
        return canonical(y)
    # zf is order x (the other dims of x), flattened to columns.
    zf_out = np.moveaxis(zf, -1, 0).reshape(order, n_series, order="F")
    return canonical(y), canonical(zf_out)
