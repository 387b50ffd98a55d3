"""mat2cell: divide an array into a cell array of blocks.

``mat2cell(A, r, c, ...)``: the k-th dimension vector lists block sizes
along dimension k and must sum to ``size(A, k)``; a missing trailing vector
means the whole dimension. Works for any array class (numeric, char,
logical, cell, struct, string), since blocks are taken by indexing.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import numeric_array
from matfuse.runtime.indexing import paren_get
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CellArray, DeviceValue, shape_of


@builtin("mat2cell", category="cells", nargin=(2, None))
def mat2cell(a: Any, *dim_sizes: Any) -> Any:
    """Blocks of A in a cell array: mat2cell(A, rowSizes, colSizes, ...)."""
    if isinstance(a, DeviceValue):
        a = a.gather()
    shape = shape_of(a)
    ndim = max(len(shape), len(dim_sizes), 2)
    shape = shape + (1,) * (ndim - len(shape))
    splits: list[list[int]] = []
    for k in range(ndim):
        if k < len(dim_sizes):
            sizes = numeric_array(dim_sizes[k], "mat2cell").reshape(-1).astype(np.float64)
            if np.any(sizes < 0) or np.any(sizes != np.floor(sizes)):
                raise MatlabError("MATLAB:mat2cell:InvalidDimensionVector",
                                  "Dimension vectors must contain nonnegative integers.")
            if int(sizes.sum()) != shape[k]:
                raise MatlabError("MATLAB:mat2cell:DimensionMismatch",
                                  f"Input arguments, D1 through D{len(dim_sizes)}, must sum to each "
                                  f"dimension of the input matrix size, [{' '.join(str(n) for n in shape)}].")
            splits.append([int(n) for n in sizes])
        else:
            splits.append([shape[k]])
    cell_shape = tuple(len(s) for s in splits)
    starts = [np.concatenate([[0], np.cumsum(s)[:-1]]).astype(int) if s else np.zeros(0, int)
              for s in splits]
    out = np.empty(cell_shape, dtype=object)
    for pos in itertools.product(*(range(n) for n in cell_shape)):
        idx = [np.arange(starts[k][p] + 1, starts[k][p] + splits[k][p] + 1, dtype=np.float64).reshape(1, -1)
               for k, p in enumerate(pos)]
        out[pos] = paren_get(a, idx)
    while out.ndim > 2 and out.shape[-1] == 1:
        out = out.reshape(out.shape[:-1])
    if out.ndim == 1:
        out = out.reshape(-1, 1)
    return CellArray(out)
