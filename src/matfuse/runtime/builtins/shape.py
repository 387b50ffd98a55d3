"""Shape functions: reshape permute ipermute squeeze circshift flip fliplr
flipud rot90 tril triu kron.

All but kron work on any array-like value (numeric, char, logical, cell,
string, struct); element order is column-major throughout.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._limits import MAX_DIMENSIONS, too_many_dimensions_error
from matfuse.runtime.builtins._common import dim_arg, first_nonsingleton_dim, int_value
from matfuse.runtime.builtins._math_support import (
    binary_inputs,
    check_allocation,
    finish,
    numeric_array,
    whole_numbers,
)
from matfuse.runtime.builtins.replication import array_data, rebuild
from matfuse.runtime.registry import GpuSpec, builtin


def _dims_from_args(args: tuple[Any, ...], total: int) -> tuple[int, ...]:
    """Reshape's size arguments, resolving one ``[]`` placeholder."""
    if len(args) == 1:
        arr = numeric_array(args[0], "reshape")
        if arr.size < 2 or arr.ndim != 2 or arr.shape[0] != 1:
            raise MatlabError("MATLAB:getReshapeDims:sizeVector",
                              "Size vector must have at least two elements.")
        values: list[Any] = [float(x) for x in arr.reshape(-1, order="F").real]
    else:
        values = []
        for a in args:
            if type(a) is np.ndarray and a.size == 0:
                values.append(None)
                continue
            arr = numeric_array(a, "reshape")
            if arr.size != 1:
                raise MatlabError("MATLAB:getReshapeDims:notScalar", "Size arguments must be integer scalars.")
            values.append(float(arr.reshape(-1)[0].real))
    if values.count(None) > 1:
        raise MatlabError("MATLAB:getReshapeDims:unknownDim",
                          "Size can only have one unknown dimension.")
    for v in values:
        if v is not None and (not math.isfinite(v) or v != math.floor(v)):
            raise MatlabError("MATLAB:getReshapeDims:notRealInt",
                              "Size arguments must be real integers.")
    dims = [None if v is None else max(int(v), 0) for v in values]
    if None in dims:
        known = math.prod(d for d in dims if d is not None)
        if known == 0 or total % known != 0:
            raise MatlabError("MATLAB:getReshapeDims:notDivisible",
                              f"Product of known dimensions, {known}, not divisible into total number of elements, {total}.")
        dims[dims.index(None)] = total // known
    if math.prod(dims) != total:
        raise MatlabError("MATLAB:getReshapeDims:notSameNumel",
                          "Number of elements must not change. Use [] as one of the size inputs to "
                          "automatically calculate the appropriate size for that dimension.")
    while len(dims) > 2 and dims[-1] == 1:
        dims.pop()
    if len(dims) > MAX_DIMENSIONS:
        raise too_many_dimensions_error()
    return tuple(dims)


@builtin("reshape", category="shape", nargin=(2, None),
         gpu=GpuSpec(kind="indexing", hook="reshape", op="reshape"))
def reshape(a: Any, *sizes: Any) -> Any:
    """Reshape keeping column-major element order; one size may be []."""
    data = array_data(a, "reshape")
    dims = _dims_from_args(sizes, data.size)
    return rebuild(a, data.reshape(dims, order="F"))


def _order_arg(v: Any, ndim: int, fn: str) -> list[int]:
    arr = whole_numbers(v, fn, "MATLAB:permute:badIndex",
                        "ORDER contains an invalid permutation index.").reshape(-1, order="F")
    order = [int(x) - 1 for x in arr.tolist()]
    if sorted(order) != list(range(len(order))):
        raise MatlabError("MATLAB:permute:badIndex", "ORDER contains an invalid permutation index.")
    if len(order) < ndim:
        raise MatlabError("MATLAB:permute:tooFewIndices",
                          "ORDER must have at least N elements for an N-D array.")
    return order


@builtin("permute", category="shape", nargin=(2, 2),
         gpu=GpuSpec(kind="indexing", hook="permute", op="permute"))
def permute(a: Any, order: Any) -> Any:
    """Rearrange dimensions: dimension k of the result is dimension order(k)."""
    data = array_data(a, "permute")
    perm = _order_arg(order, data.ndim, "permute")
    data = data.reshape(data.shape + (1,) * (len(perm) - data.ndim))
    return rebuild(a, np.transpose(data, perm))


@builtin("ipermute", category="shape", nargin=(2, 2),
         gpu=GpuSpec(kind="indexing", hook="rearrange", op="ipermute"))
def ipermute(a: Any, order: Any) -> Any:
    """Inverse of permute."""
    data = array_data(a, "ipermute")
    perm = _order_arg(order, data.ndim, "ipermute")
    data = data.reshape(data.shape + (1,) * (len(perm) - data.ndim))
    return rebuild(a, np.transpose(data, np.argsort(perm)))


@builtin("squeeze", category="shape", nargin=(1, 1),
         gpu=GpuSpec(kind="indexing", hook="rearrange", op="squeeze"))
def squeeze(a: Any) -> Any:
    """Remove singleton dimensions (2-D arrays are unchanged)."""
    data = array_data(a, "squeeze")
    if data.ndim <= 2:
        return a
    dims = [d for d in data.shape if d != 1]
    dims = dims + [1] * (2 - len(dims)) if len(dims) < 2 else dims
    return rebuild(a, data.reshape(dims, order="F"))


@builtin("circshift", category="shape", nargin=(2, 3),
         gpu=GpuSpec(kind="indexing", hook="rearrange", op="circshift"))
def circshift(a: Any, k: Any, dim: Any = None) -> Any:
    """Circular shift: circshift(A, K) along the first non-singleton
    dimension (K vector: dims 1..numel(K)); circshift(A, K, dim)."""
    data = array_data(a, "circshift")
    shifts = whole_numbers(k, "circshift", "MATLAB:circshift:nonInteger",
                           "Invalid shift type: must be a finite, real integer vector.").reshape(-1, order="F")
    if dim is not None:
        axes = [dim_arg(dim, "circshift")]
        if shifts.size != 1:
            raise MatlabError("MATLAB:circshift:dimMustBeScalar",
                              "Shift amount must be a scalar when a dimension is specified.")
    elif shifts.size == 1:
        axes = [first_nonsingleton_dim(data.shape)]
    else:
        axes = list(range(shifts.size))
    # Shifting along a dimension beyond ndims (a singleton) changes nothing.
    kept = [(int(s), ax) for s, ax in zip(shifts.tolist(), axes) if ax < data.ndim]
    if not kept:
        return rebuild(a, data)
    out = np.roll(data, [s for s, _ in kept], axis=[ax for _, ax in kept])
    return rebuild(a, out)


@builtin("flip", category="shape", nargin=(1, 2),
         gpu=GpuSpec(kind="indexing", hook="rearrange", op="flip"))
def flip(a: Any, dim: Any = None) -> Any:
    """Reverse element order along dim (default first non-singleton)."""
    data = array_data(a, "flip")
    axis = first_nonsingleton_dim(data.shape) if dim is None else dim_arg(dim, "flip")
    if axis >= data.ndim:
        return a
    return rebuild(a, np.flip(data, axis=axis))


@builtin("fliplr", category="shape", nargin=(1, 1),
         gpu=GpuSpec(kind="indexing", hook="rearrange", op="fliplr"))
def fliplr(a: Any) -> Any:
    """Flip columns left-right."""
    return rebuild(a, np.flip(array_data(a, "fliplr"), axis=1))


@builtin("flipud", category="shape", nargin=(1, 1),
         gpu=GpuSpec(kind="indexing", hook="rearrange", op="flipud"))
def flipud(a: Any) -> Any:
    """Flip rows up-down."""
    return rebuild(a, np.flip(array_data(a, "flipud"), axis=0))


@builtin("rot90", category="shape", nargin=(1, 2),
         gpu=GpuSpec(kind="indexing", hook="rearrange", op="rot90"))
def rot90(a: Any, k: Any = None) -> Any:
    """Rotate 90 degrees counterclockwise k times (in the first two dims)."""
    turns = 1 if k is None else int_value(k, "rot90")
    return rebuild(a, np.rot90(array_data(a, "rot90"), turns % 4, axes=(0, 1)))


def _triangle(a: Any, k: Any, fn: str, lower: bool) -> Any:
    data = array_data(a, fn)
    if data.ndim > 2:
        raise MatlabError(f"MATLAB:{fn}:firstInputMustBe2D", "First input must be 2-D.")
    offset = 0 if k is None else int_value(k, fn)
    rows, cols = data.shape
    i = np.arange(rows).reshape(-1, 1)
    j = np.arange(cols).reshape(1, -1)
    keep = (j - i <= offset) if lower else (j - i >= offset)
    zero = "\x00" if data.dtype.kind == "U" else np.zeros((), dtype=data.dtype)
    if data.dtype == object:
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{fn}' for input arguments of type 'cell'.")
    return rebuild(a, np.where(keep, data, zero).astype(data.dtype))


@builtin("tril", category="shape", nargin=(1, 2))
def tril(a: Any, k: Any = None) -> Any:
    """Lower triangle (on and below the k-th diagonal)."""
    return _triangle(a, k, "tril", lower=True)


@builtin("triu", category="shape", nargin=(1, 2))
def triu(a: Any, k: Any = None) -> Any:
    """Upper triangle (on and above the k-th diagonal)."""
    return _triangle(a, k, "triu", lower=False)


@builtin("kron", category="shape", nargin=(2, 2))
def kron(a: Any, b: Any) -> Any:
    """Kronecker tensor product."""
    x = numeric_array(a, "kron")
    y = numeric_array(b, "kron")
    if x.ndim > 2 or y.ndim > 2:
        raise MatlabError("MATLAB:kron:ndArrays", "N-D arrays are not supported.")
    xs, ys, int_dtype = binary_inputs(x.reshape(-1, order="F")[:1], y.reshape(-1, order="F")[:1], "kron")
    check_allocation((x.shape[0] * y.shape[0], x.shape[1] * y.shape[1]), 16)
    out = np.kron(x, y)
    dtype = int_dtype if int_dtype is not None else np.result_type(xs.dtype, ys.dtype)
    return finish(out.astype(dtype))
