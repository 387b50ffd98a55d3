"""Generated ranges and grids: linspace logspace colon meshgrid ndgrid."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import scalar_value
from matfuse.runtime.builtins._math_support import check_allocation, numeric_array, saturate_to
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import canonical


def _scalar_endpoint(v: Any, fn: str) -> np.ndarray:
    arr = numeric_array(v, fn)
    if arr.size != 1:
        raise MatlabError(f"MATLAB:{fn}:NonScalarInputs", "Inputs must be scalars.")
    return arr.reshape(1)


def _count_arg(v: Any, fn: str) -> int:
    n = scalar_value(v, fn)
    if math.isnan(n):
        raise MatlabError(f"MATLAB:{fn}:NaNInputs", "Number of points must not be NaN.")
    return max(int(math.floor(n)), 0) if math.isfinite(n) else 0


def linspace_values(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """MATLAB's linspace formula: a + (0:n-1)*(b-a)/(n-1), exact endpoints."""
    # single wins over double (MATLAB's class rule); integers compute in double.
    single = any(d in (np.float32, np.complex64) for d in (a.dtype, b.dtype))
    complex_ = a.dtype.kind == "c" or b.dtype.kind == "c"
    if complex_:
        dtype = np.dtype(np.complex64 if single else np.complex128)
    else:
        dtype = np.dtype(np.float32 if single else np.float64)
    d1 = a.astype(dtype)[0]
    d2 = b.astype(dtype)[0]
    if n < 1:
        return np.zeros((1, 0), dtype=dtype)
    if n == 1:
        return np.array([[d2]], dtype=dtype)
    check_allocation((1, n), dtype.itemsize)
    steps = np.arange(n, dtype=dtype)
    n1 = dtype.type(n - 1)
    with np.errstate(all="ignore"):
        if np.isinf((d2 - d1) * (n1 - 1)):
            out = d1 + (d2 / n1) * steps - (d1 / n1) * steps
        else:
            # in place: same rounding as d1 + steps*(d2-d1)/n1, no temporaries
            out = steps
            out *= d2 - d1
            out /= n1
            out += d1
    if d1 == d2:
        out[:] = d1
    else:
        out[0] = d1
        out[-1] = d2
    return out.reshape(1, n)


@builtin("linspace", category="construction", nargin=(2, 3),
         gpu=GpuSpec(kind="construction", hook="linspace", op="linspace"), fusion="linspace")
def linspace(a: Any, b: Any, n: Any = None) -> Any:
    """Row vector of n (default 100) evenly spaced points from a to b."""
    count = 100 if n is None else _count_arg(n, "linspace")
    x1, x2 = _scalar_endpoint(a, "linspace"), _scalar_endpoint(b, "linspace")
    out = linspace_values(x1, x2, count)
    int_dtype = x1.dtype if x1.dtype.kind in "iu" else x2.dtype if x2.dtype.kind in "iu" else None
    if int_dtype is not None:
        out = saturate_to(out, int_dtype)
    return canonical(out)


@builtin("logspace", category="construction", nargin=(2, 3),
         gpu=GpuSpec(kind="construction", hook="linspace", op="logspace"))
def logspace(a: Any, b: Any, n: Any = None) -> Any:
    """Row vector of n (default 50) points from 10^a to 10^b
    (logspace(a, pi) ends at pi)."""
    count = 50 if n is None else _count_arg(n, "logspace")
    x1, x2 = _scalar_endpoint(a, "logspace"), _scalar_endpoint(b, "logspace")
    if x2.dtype.kind == "f" and x2[0] == np.float64(math.pi) and x2.dtype == np.float64:
        x2 = np.array([math.log10(math.pi)])
    exps = linspace_values(x1, x2, count)
    return canonical(np.power(exps.dtype.type(10), exps))


@builtin("colon", category="construction", nargin=(2, 3),
         gpu=GpuSpec(kind="construction", hook="linspace", op="colon"))
def colon(a: Any, b: Any, c: Any = None) -> Any:
    """colon(a, b) is a:b; colon(a, s, b) is a:s:b."""
    from matfuse.runtime import ops

    if c is None:
        return ops.colon_range(a, None, b)
    return ops.colon_range(a, b, c)


def _grid_vector(v: Any, fn: str) -> np.ndarray:
    arr = v if type(v) is np.ndarray else numeric_array(v, fn)
    return arr.reshape(-1, order="F")


@builtin("meshgrid", category="construction", nargin=(1, 3), nargout=(0, 3), wants_nargout=True,
         gpu=GpuSpec(kind="indexing"))
def meshgrid(x: Any, y: Any = None, z: Any = None, nargout: int = 1) -> Any:
    """2-D/3-D grids: [X, Y] = meshgrid(x, y) has numel(y) rows, numel(x) columns."""
    xv = _grid_vector(x, "meshgrid")
    yv = xv if y is None else _grid_vector(y, "meshgrid")
    if z is None and nargout <= 2:
        nx, ny = xv.size, yv.size
        check_allocation((ny, nx), xv.dtype.itemsize)
        gx = np.broadcast_to(xv.reshape(1, nx), (ny, nx)).copy()
        gy = np.broadcast_to(yv.reshape(ny, 1), (ny, nx)).copy()
        return canonical(gx), canonical(gy)
    zv = xv if z is None else _grid_vector(z, "meshgrid")
    shape = (yv.size, xv.size, zv.size)
    check_allocation(shape, xv.dtype.itemsize)
    gx = np.broadcast_to(xv.reshape(1, -1, 1), shape).copy()
    gy = np.broadcast_to(yv.reshape(-1, 1, 1), shape).copy()
    gz = np.broadcast_to(zv.reshape(1, 1, -1), shape).copy()
    return canonical(gx), canonical(gy), canonical(gz)


@builtin("ndgrid", category="construction", nargin=(1, None), nargout=(0, None), wants_nargout=True,
         gpu=GpuSpec(kind="indexing"))
def ndgrid(*vectors: Any, nargout: int = 1) -> Any:
    """N-D grids: output k varies along dimension k."""
    count = max(nargout, 1)
    if len(vectors) == 1:
        vectors = vectors * count
    elif len(vectors) < count:
        raise MatlabError("MATLAB:ndgrid:NotEnoughInputs",
                          "Not enough input arguments for the requested outputs.")
    vecs = [_grid_vector(v, "ndgrid") for v in vectors]
    if count == 1 and len(vectors) == 1:
        return canonical(vecs[0].reshape(-1, 1))
    # The grid has one dimension per input, whatever the number of outputs.
    shape = tuple(v.size for v in vecs)
    check_allocation(shape, 8)
    outs = []
    for k, v in enumerate(vecs[:count]):
        view = [1] * len(shape)
        view[k] = v.size
        outs.append(canonical(np.broadcast_to(v.reshape(view), shape).copy()))
    return tuple(outs)
