"""accumarray: accumulate values into an array by subscripts.

The common reducers (@sum, @max, @min, @prod, @mean, and the default sum)
run vectorised; any other function handle is called once per occupied
output element with that group's values as a column vector (in their
original order), through the interpreter's ``ctx.call``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import (
    check_allocation,
    numeric_array,
    whole_numbers,
)
from matfuse.runtime.ops import is_true
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import CellArray, FunctionHandle, canonical, empty_double

_SUBS_MESSAGE = "First input SUBS must contain positive integer subscripts."
_VECTORISED = {"sum", "max", "min", "prod", "mean"}


def _subscripts(subs: Any) -> np.ndarray:
    """Subscripts as an (m, d) int64 matrix of 0-based indices."""
    if isinstance(subs, CellArray):
        cols = [whole_numbers(c, "accumarray", "MATLAB:accumarray:subsNonInteger", _SUBS_MESSAGE)
                .reshape(-1, order="F") for c in subs.data.reshape(-1, order="F")]
        if len({c.size for c in cols}) > 1:
            raise MatlabError("MATLAB:accumarray:subsSizeMismatch",
                              "Index vectors in the cell array SUBS must have the same length.")
        matrix = np.stack(cols, axis=1) if cols else np.zeros((0, 1), dtype=np.int64)
    else:
        matrix = whole_numbers(subs, "accumarray", "MATLAB:accumarray:subsNonInteger", _SUBS_MESSAGE)
        if matrix.ndim != 2:
            raise MatlabError("MATLAB:accumarray:subsNot2D", "First input SUBS must be a 2-D matrix.")
    if np.any(matrix < 1):
        raise MatlabError("MATLAB:accumarray:subsNonPositive", _SUBS_MESSAGE)
    return matrix - 1


def _output_shape(sz: Any, subs: np.ndarray) -> tuple[int, ...]:
    ncols = subs.shape[1]
    natural = tuple(int(subs[:, j].max()) + 1 if subs.shape[0] else 0 for j in range(ncols))
    if ncols == 1:
        natural = natural + (1,)
    if sz is None or (type(sz) is np.ndarray and sz.size == 0):
        return natural
    dims = whole_numbers(sz, "accumarray", "MATLAB:accumarray:InvalidSize",
                         "Third input SZ must be a vector of nonnegative integers.").reshape(-1)
    shape = tuple(int(d) for d in dims)
    if len(shape) < 2 or (ncols > 1 and len(shape) != ncols) or \
            (ncols == 1 and not (len(shape) == 2 and shape[1] == 1)):
        raise MatlabError("MATLAB:accumarray:InvalidSize",
                          "Third input SZ must be a row vector with one element for each column of SUBS.")
    if any(s < n for s, n in zip(shape, natural)):
        raise MatlabError("MATLAB:accumarray:sizeTooSmall",
                          "Third input SZ must be at least max(SUBS) in each dimension.")
    return shape


def _reducer_name(fun: Any) -> str | None:
    if fun is None or (type(fun) is np.ndarray and fun.size == 0):
        return "sum"
    if not isinstance(fun, FunctionHandle):
        raise MatlabError("MATLAB:accumarray:invalidFun",
                          "Fourth input FUN must be a function handle.")
    return fun.name if fun.fn is None and fun.name in _VECTORISED else None


def _vectorised(name: str, linear: np.ndarray, values: np.ndarray, total: int,
                fill: float) -> np.ndarray:
    counts = np.bincount(linear, minlength=total)
    work = values.astype(np.float64) if values.dtype.kind in "bU" else values
    if name in ("sum", "mean"):
        out = np.zeros(total, dtype=np.result_type(work.dtype, np.float64)
                       if work.dtype.kind == "f" else work.dtype)
        np.add.at(out, linear, work)
        if name == "mean":
            with np.errstate(all="ignore"):
                out = out / np.maximum(counts, 1)
    elif name == "prod":
        out = np.ones(total, dtype=work.dtype)
        np.multiply.at(out, linear, work)
    else:
        # fmax/fmin skip NaN; starting from NaN, a position holding only NaN
        # stays NaN (max([NaN NaN]) is NaN)
        out = np.full(total, np.nan, dtype=np.float64 if work.dtype.kind != "c" else work.dtype)
        (np.fmax if name == "max" else np.fmin).at(out, linear, work.astype(out.dtype))
        if work.dtype.kind in "iu":
            out = out.astype(work.dtype)
    if fill != 0 or name in ("max", "min", "prod"):
        if out.dtype.kind in "iu" and not float(fill).is_integer():
            out = out.astype(np.float64)
        out = np.where(counts > 0, out, np.asarray(fill).astype(out.dtype))
    return out


@builtin("accumarray", category="indexing", nargin=(2, 6), needs_ctx=True,
         gpu=GpuSpec(kind="indexing", hook="accumarray", op="accumarray"))
def accumarray(ctx: Any, subs: Any, vals: Any, sz: Any = None, fun: Any = None,
               fillval: Any = None, issparse: Any = None) -> Any:
    """Accumulate vals into an array of size sz at subscripts subs, combining
    repeats with fun (default @sum); empty positions get fillval (default 0);
    issparse true gives a sparse result."""
    if issparse is not None and is_true(issparse):
        from matfuse.runtime.sparse_matrix import as_sparse

        return as_sparse(accumarray(ctx, subs, vals, sz, fun, fillval))
    index = _subscripts(subs)
    if index.ndim != 2 or (index.shape[1] == 0 and index.shape[0] != 0):
        raise MatlabError("MATLAB:accumarray:InvalidSubs",
                          "First input SUBS must be a matrix of positive integer subscripts.")
    values = numeric_array(vals, "accumarray").reshape(-1, order="F")
    m = index.shape[0]
    if values.size == 1 and m != 1:
        values = np.repeat(values, m)
    if values.size != m:
        raise MatlabError("MATLAB:accumarray:valsLengthMismatch",
                          "Second input VAL must be a vector with one element for each row in SUBS, or a scalar.")
    shape = _output_shape(sz, index)
    check_allocation(shape, 8)
    total = int(np.prod(shape))
    linear = np.ravel_multi_index(tuple(index[:, j] for j in range(index.shape[1])),
                                  shape[:index.shape[1]] if index.shape[1] > 1 else (shape[0],),
                                  order="F") if m else np.zeros(0, dtype=np.int64)
    fill = 0.0 if fillval is None or (type(fillval) is np.ndarray and fillval.size == 0) \
        else fillval
    name = _reducer_name(fun)
    if name is not None and not isinstance(fill, CellArray):
        fill_value = float(numeric_array(fill, "accumarray").reshape(-1)[0].real)
        out = _vectorised(name, linear, values, total, fill_value)
        return canonical(out.reshape(shape, order="F"))
    return _general(ctx, fun, linear, values, shape, total, fillval)


def _general(ctx: Any, fun: Any, linear: np.ndarray, values: np.ndarray,
             shape: tuple[int, ...], total: int, fillval: Any) -> Any:
    """Call ``fun`` on each group (values in original order)."""
    order = np.argsort(linear, kind="stable")
    sorted_lin = linear[order]
    starts = np.flatnonzero(np.r_[True, sorted_lin[1:] != sorted_lin[:-1]]) if linear.size else \
        np.zeros(0, dtype=np.int64)
    ends = np.r_[starts[1:], linear.size] if linear.size else starts
    results: list[tuple[int, Any]] = []
    for s, e in zip(starts.tolist(), ends.tolist()):
        group = canonical(values[order[s:e]].reshape(-1, 1))
        out = ctx.call(fun, [group], 1)
        value = out[0] if out else None
        if isinstance(value, CellArray):
            if value.data.size != 1:
                raise MatlabError("MATLAB:accumarray:nonscalarFunOutput",
                                  "The function FUN must return a scalar.")
            value = value.data.reshape(-1)[0]
            results.append((int(sorted_lin[s]), ("cell", value)))
            continue
        if type(value) is bool or (type(value) is np.ndarray and value.dtype == np.bool_):
            arr = np.asarray(value, dtype=np.bool_).reshape(-1)
        else:
            arr = numeric_array(value, "accumarray") if value is not None else np.zeros((0, 0))
        if arr.size != 1:
            raise MatlabError("MATLAB:accumarray:nonscalarFunOutput",
                              "The function FUN must return a scalar.")
        results.append((int(sorted_lin[s]), arr.reshape(-1)[0]))
    if results and isinstance(results[0][1], tuple):
        data = np.empty(total, dtype=object)
        for k in range(total):
            data[k] = empty_double() if fillval is None else fillval
        for pos, (_, item) in results:
            data[pos] = item
        return CellArray(data.reshape(shape, order="F"))
    fill = 0.0 if fillval is None else float(numeric_array(fillval, "accumarray").reshape(-1)[0].real)
    # The result has the class FUN returns (int8 from sum(x,'native'), logical
    # from a comparison); the fill value is converted to it.
    dtype = np.result_type(*[np.asarray(v).dtype for _, v in results]) if results else np.dtype(np.float64)
    if dtype == np.bool_ and fill not in (0.0, 1.0):
        dtype = np.dtype(np.float64)
    out = np.full(total, fill, dtype=dtype)
    for pos, item in results:
        out[pos] = item
    return canonical(out.reshape(shape, order="F"))
